/* SPDX-License-Identifier: MIT */
/*
 * Decoded shader code, cached by GPU address for the length of one
 * dispatch, so every bundle is fetched through the MMU and decoded once
 * however many threads run it.
 *
 * Why one dispatch: both drivers start every job with a cache
 * clean+invalidate (JS_CONFIG START_FLUSH), which on the hardware empties
 * the shader cores' instruction caches too, so code rewritten between two
 * jobs is seen by the second. Within a job, code is fetched once, as an
 * instruction cache would hold it: a shader that rewrites its own code
 * does not see the change (the hardware gives no such guarantee either).
 *
 * Decoding also checks what only the dispatch knows: that every register
 * a bundle names exists for this shader (work registers below the RSD's
 * count, uniform registers below its uniform count). A shader that uses
 * more registers than its descriptor declared would corrupt its neighbours'
 * registers on the hardware; here it ends the job with
 * INSTR_OPERAND_FAULT so the compiler bug is seen.
 */
#include <stdlib.h>
#include <string.h>

#include "sgpu_warp.h"

#define INITIAL_CAPACITY 256u

int sgpu_cache_init(struct sgpu_shader_cache *cache)
{
	memset(cache, 0, sizeof(*cache));
	cache->slots = calloc(INITIAL_CAPACITY, sizeof(*cache->slots));
	if (!cache->slots)
		return -1;
	cache->capacity = INITIAL_CAPACITY;
	return 0;
}

int sgpu_cache_clear(struct sgpu_shader_cache *cache)
{
	if (cache->capacity != INITIAL_CAPACITY) {
		sgpu_cache_fini(cache);
		return sgpu_cache_init(cache);
	}
	if (cache->used)
		memset(cache->slots, 0, INITIAL_CAPACITY * sizeof(*cache->slots));
	cache->used = 0;
	cache->decodes = 0;
	return 0;
}

void sgpu_cache_fini(struct sgpu_shader_cache *cache)
{
	free(cache->slots);
	memset(cache, 0, sizeof(*cache));
}

static uint32_t slot_of(const struct sgpu_shader_cache *cache, uint64_t va)
{
	uint64_t h = (va >> 4) * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(h >> 40) & (cache->capacity - 1);
}

/* va 0 never holds code (the RSD's pointer would be 0), so it marks free. */
static struct sgpu_cached_bundle *find(struct sgpu_shader_cache *cache,
				       uint64_t va)
{
	uint32_t i = slot_of(cache, va);

	while (cache->slots[i].va && cache->slots[i].va != va)
		i = (i + 1) & (cache->capacity - 1);
	return &cache->slots[i];
}

static int grow(struct sgpu_shader_cache *cache)
{
	struct sgpu_shader_cache bigger = *cache;
	uint32_t old_capacity = cache->capacity;
	struct sgpu_cached_bundle *old = cache->slots;

	bigger.capacity = old_capacity * 2;
	bigger.slots = calloc(bigger.capacity, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (uint32_t i = 0; i < old_capacity; i++) {
		if (old[i].va)
			*find(&bigger, old[i].va) = old[i];
	}
	free(old);
	*cache = bigger;
	return 0;
}

/* True when register r may be read by an ALU op of this shader. */
static bool readable(const struct sgpu_exec *ex, unsigned int r)
{
	if (r < ex->work_regs)
		return true;
	if (r >= 24 - ex->uniform_vec4 && r < 24)
		return true;
	/* Pipeline, constants, load/store and texture registers, r31. */
	return r >= 24 && r != 30;
}

static bool writable(const struct sgpu_exec *ex, unsigned int r)
{
	if (r < ex->work_regs)
		return true;
	return r >= 24 && r != 30;
}

static uint32_t check_alu_registers(struct sgpu_exec *ex,
				    const struct mdg_bundle *b, uint64_t va)
{
	for (unsigned int u = 0; u < MDG_UNIT_COUNT; u++) {
		const struct mdg_alu *alu = &b->alu[u];
		const struct mdg_alu_op_info *info;
		bool bad;

		if (!(b->units & MDG_UNIT_MASK(u)))
			continue;
		info = mdg_alu_op_info(alu->op);
		bad = !writable(ex, alu->dst_reg);
		if (!(info && (info->flags & MDG_OP_SRC2_ONLY)))
			bad |= !readable(ex, alu->src1_reg);
		if (!alu->src2_imm &&
		    !(info && (info->flags & MDG_OP_ONE_SRC)))
			bad |= !readable(ex, alu->src2_reg);
		if (bad) {
			sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle "
				"0x%llx: unit %u uses a register outside the "
				"shader's %u work registers and %u uniforms "
				"(r%u <- r%u, r%u)",
				(unsigned long long)va, u, ex->work_regs,
				ex->uniform_vec4, alu->dst_reg, alu->src1_reg,
				alu->src2_reg);
			return MDG_EXCEPTION_INSTR_OPERAND_FAULT;
		}
	}
	return 0;
}

static uint32_t check_ldst_registers(struct sgpu_exec *ex,
				     const struct mdg_bundle *b, uint64_t va)
{
	for (unsigned int i = 0; i < 2; i++) {
		const struct mdg_ldst *w = &b->ldst[i];
		const struct mdg_ldst_op_info *info = mdg_ldst_op_info(w->op);

		if (!info || (info->flags & MDG_LDST_STORE) ||
		    w->op == MDG_LDST_NOP)
			continue;
		if (!writable(ex, w->reg)) {
			sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle "
				"0x%llx: load into r%u, outside the shader's "
				"%u work registers", (unsigned long long)va,
				w->reg, ex->work_regs);
			return MDG_EXCEPTION_INSTR_OPERAND_FAULT;
		}
	}
	return 0;
}

static unsigned int count_instructions(const struct mdg_bundle *b)
{
	unsigned int n = 0;

	switch (mdg_tag_kind(b->tag)) {
	case MDG_KIND_ALU:
		n = (unsigned int)__builtin_popcount(b->units) +
		    (b->has_branch ? 1 : 0);
		break;
	case MDG_KIND_LDST:
		n = (b->ldst[0].op != MDG_LDST_NOP) +
		    (b->ldst[1].op != MDG_LDST_NOP);
		break;
	default:
		n = 1;
		break;
	}
	return n;
}

static uint32_t fetch_and_decode(struct sgpu_exec *ex, uint64_t va,
				 unsigned int tag, struct sgpu_cached_bundle *out)
{
	uint8_t bytes[MDG_MAX_BUNDLE_BYTES];
	unsigned int size = mdg_tag_size(tag);
	char err[160];
	uint32_t code;

	if (!size || mdg_tag_kind(tag) == MDG_KIND_INVALID) {
		sgpu_shader_guest_error(ex->ctx, "sgpu: shader jumps to 0x%llx "
					"with invalid tag 0x%x",
					(unsigned long long)va, tag);
		return MDG_EXCEPTION_INSTR_INVALID_ENC;
	}
	/* The PC is 24 bits: code cannot cross a 16 MiB boundary. */
	if ((va >> 24) != ((va + size - 1) >> 24) ||
	    (va >> 24) != (ex->d->shader_va >> 24)) {
		sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle 0x%llx "
					"is outside the 16 MiB code region of "
					"0x%llx", (unsigned long long)va,
					(unsigned long long)ex->d->shader_va);
		return MDG_EXCEPTION_INSTR_INVALID_PC;
	}
	code = sgpu_shader_fetch(ex->ctx, va, bytes, size);
	if (code)
		return code;
	if ((bytes[0] & 0xF) != tag) {
		sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle 0x%llx "
					"has tag 0x%x where 0x%x was announced",
					(unsigned long long)va, bytes[0] & 0xF,
					tag);
		return MDG_EXCEPTION_INSTR_INVALID_ENC;
	}
	memset(out, 0, sizeof(*out));
	if (mdg_decode_bundle(bytes, size, &out->b, err, sizeof(err)) != size) {
		sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle 0x%llx: "
					"invalid encoding: %s",
					(unsigned long long)va, err);
		return MDG_EXCEPTION_INSTR_INVALID_ENC;
	}
	if (mdg_tag_kind(tag) == MDG_KIND_ALU)
		code = check_alu_registers(ex, &out->b, va);
	else if (mdg_tag_kind(tag) == MDG_KIND_LDST)
		code = check_ldst_registers(ex, &out->b, va);
	if (code)
		return code;
	out->instructions = (uint8_t)count_instructions(&out->b);
	if (mdg_tag_kind(tag) == MDG_KIND_LDST)
		sgpu_warp_ldst_plan(out);
	if (mdg_tag_kind(tag) == MDG_KIND_ALU) {
		for (unsigned int u = 0; u < MDG_UNIT_COUNT; u++) {
			if ((out->b.units & MDG_UNIT_MASK(u)) &&
			    sgpu_alu_prepare32(&out->b.alu[u], (enum mdg_unit)u,
					       &out->alu32[u]))
				out->units32 |= (uint8_t)MDG_UNIT_MASK(u);
		}
	}
	out->va = va;
	return 0;
}

uint32_t sgpu_cache_lookup(struct sgpu_exec *ex, uint64_t va, unsigned int tag,
			   const struct sgpu_cached_bundle **out)
{
	struct sgpu_shader_cache *cache = &ex->cache;
	struct sgpu_cached_bundle *slot = find(cache, va);
	struct sgpu_cached_bundle fresh;
	uint32_t code;

	if (slot->va == va && va) {
		if (slot->b.tag != tag) {
			sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle "
				"0x%llx has tag 0x%x where 0x%x was announced",
				(unsigned long long)va, slot->b.tag, tag);
			return MDG_EXCEPTION_INSTR_INVALID_ENC;
		}
		*out = slot;
		return 0;
	}
	if (!va)
		return MDG_EXCEPTION_INSTR_INVALID_PC;
	code = fetch_and_decode(ex, va, tag, &fresh);
	if (code)
		return code;
	cache->decodes++;
	/* Keep the table at most half full. */
	if ((cache->used + 1) * 2 > cache->capacity) {
		if (grow(cache))
			return MDG_EXCEPTION_TERMINATED;
		slot = find(cache, va);
	}
	*slot = fresh;
	cache->used++;
	*out = slot;
	return 0;
}
