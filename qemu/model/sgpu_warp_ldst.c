/* SPDX-License-Identifier: MIT */
/*
 * The lockstep engine's load/store pipe (sgpu_warp.h).
 *
 * Bundles whose words are all of the forms compilers put in loops run
 * here straight on the warp's registers: plain 32/64/128-bit loads and
 * stores addressed by r26/r27 (base, plus a 32-bit index shifted, plus the
 * offset), and moves of the compute ids. A lane whose access is
 * misaligned, crosses a page or does not translate (the page cache is
 * filled quietly) takes the reference path for the bundle, as does every
 * other bundle: sgpu_ldst.c on a thread assembled from the lane's
 * registers, which also reports every fault. Both paths keep
 * sgpu_ldst.c's order: both words read their registers, then word 0 and
 * word 1 access memory, then both write.
 */
#include <string.h>

#include "sgpu_warp.h"

/* What one word does on the fast path (word_plan() decides). */
enum plan_kind {
	PLAN_NOP,
	PLAN_LOAD,
	PLAN_STORE,
	PLAN_MOV_ID,
};

static bool is_arg_register(unsigned int sel)
{
	return sel == MDG_LDST_SEL_R26 || sel == MDG_LDST_SEL_R27;
}

/* The fast-path kind of word w, or -1 when it takes the reference path. */
static int word_plan(const struct mdg_ldst *w)
{
	switch (w->op) {
	case MDG_LDST_NOP:
		return PLAN_NOP;
	case MDG_LDST_MOV:
		return w->arg_reg == MDG_LDST_SEL_LOCAL_ID ||
		       w->arg_reg == MDG_LDST_SEL_GROUP_ID ||
		       w->arg_reg == MDG_LDST_SEL_GLOBAL_ID ||
		       is_arg_register(w->arg_reg) ? PLAN_MOV_ID : -1;
	case MDG_LDST_LD_32: case MDG_LDST_LD_64: case MDG_LDST_LD_128:
	case MDG_LDST_ST_32: case MDG_LDST_ST_64: case MDG_LDST_ST_128:
		break;
	default:
		return -1;
	}
	if (!is_arg_register(w->arg_reg) || (w->bitsize_toggle &&
					     (w->arg_comp & 1)))
		return -1;
	if (w->index_reg == MDG_LDST_SEL_ZERO) {
		if (w->index_format == MDG_INDEX_U64)
			return -1;
	} else if (!is_arg_register(w->index_reg) ||
		   (w->index_format != MDG_INDEX_U32 &&
		    w->index_format != MDG_INDEX_S32)) {
		return -1;
	}
	if (mdg_ldst_op_info(w->op)->flags & MDG_LDST_STORE)
		return w->reg <= 1 ? PLAN_STORE : -1;
	return PLAN_LOAD;
}

void sgpu_warp_ldst_plan(struct sgpu_cached_bundle *cb)
{
	cb->ldst_fast = true;
	for (unsigned int i = 0; i < 2; i++) {
		int kind = word_plan(&cb->b.ldst[i]);

		if (kind < 0) {
			cb->ldst_fast = false;
			return;
		}
		cb->ldst_kind[i] = (uint8_t)kind;
		cb->ldst_bytes[i] = kind == PLAN_LOAD || kind == PLAN_STORE ?
				    mdg_ldst_op_info(cb->b.ldst[i].op)->bytes : 0;
	}
}

static uint32_t arg_register(const struct sgpu_warp *w, unsigned int sel,
			     unsigned int comp, unsigned int lane)
{
	return w->r[sel == MDG_LDST_SEL_R26 ? 26 : 27][comp][lane];
}

/* Component comp of a compute-id read-selector (selector_value()). */
static uint32_t id_component(const struct sgpu_exec *ex,
			     const struct sgpu_warp *w, unsigned int sel,
			     unsigned int comp, unsigned int lane)
{
	const struct sgpu_task *t = ex->task;
	const uint32_t *group = t->group_id[t->lane_group[lane]];

	if (sel == MDG_LDST_SEL_R26 || sel == MDG_LDST_SEL_R27)
		return arg_register(w, sel, comp, lane);
	if (comp == 3)
		return 0;
	switch (sel) {
	case MDG_LDST_SEL_LOCAL_ID:
		return w->local_id[lane][comp];
	case MDG_LDST_SEL_GROUP_ID:
		return group[comp];
	default:
		return group[comp] * ex->d->local_size[comp] +
		       w->local_id[lane][comp];
	}
}

/*
 * Phase 1 of a memory word for the set: each lane's host address, or
 * slow[i] when the lane must take the reference path (misaligned, across
 * a page, or a page that does not translate).
 */
static void addresses(struct sgpu_exec *ex, const struct sgpu_warp *w,
		      const struct sgpu_cached_bundle *cb, unsigned int word,
		      uint8_t **at, bool *slow)
{
	const struct mdg_ldst *wd = &cb->b.ldst[word];
	bool store = cb->ldst_kind[word] == PLAN_STORE;
	unsigned int bytes = cb->ldst_bytes[word];
	unsigned int areg = wd->arg_reg == MDG_LDST_SEL_R26 ? 26 : 27;
	unsigned int ireg = wd->index_reg == MDG_LDST_SEL_R26 ? 26 : 27;
	const uint32_t *base_lo = w->r[areg][wd->arg_comp];
	const uint32_t *base_hi = wd->bitsize_toggle ?
				  w->r[areg][wd->arg_comp + 1] : NULL;
	const uint32_t *index = wd->index_reg != MDG_LDST_SEL_ZERO ?
				w->r[ireg][wd->index_comp] : NULL;
	bool sext = wd->index_format == MDG_INDEX_S32;
	uint64_t offset = (uint64_t)(int64_t)wd->offset;
	uint64_t last_page = UINT64_MAX;
	uint8_t *last = NULL;

	for (uint32_t i = 0; i < w->nset; i++) {
		unsigned int l = w->set[i];
		uint64_t ea = base_lo[l];

		if (base_hi)
			ea |= (uint64_t)base_hi[l] << 32;
		if (index)
			ea += (sext ? (uint64_t)(int64_t)(int32_t)index[l] :
				      (uint64_t)index[l]) << wd->index_shift;
		ea += offset;
		if ((ea & 3) || (ea & 0xFFF) + bytes > 0x1000) {
			slow[i] = true;
			continue;
		}
		if (ea >> 12 != last_page) {
			last = sgpu_mem_page_fill(ex, ea, store);
			last_page = last ? ea >> 12 : UINT64_MAX;
		}
		if (!last)
			slow[i] = true;
		else
			at[i] = last + (ea & 0xFFF);
	}
}

/* Phase 2 of a word for the fast lanes: memory, and results kept aside. */
static void perform(struct sgpu_exec *ex, struct sgpu_warp *w,
		    const struct sgpu_cached_bundle *cb, unsigned int word,
		    uint8_t *const *at, const bool *slow)
{
	const struct mdg_ldst *wd = &cb->b.ldst[word];
	unsigned int bytes = cb->ldst_bytes[word];
	uint32_t (*res)[SGPU_WARP_LANES] = w->ldst_res[word];

	switch (cb->ldst_kind[word]) {
	case PLAN_LOAD:
		/* The written components only; beyond the access read 0. */
		for (unsigned int c = 0; c < 4; c++) {
			unsigned int k = (wd->swizzle >> (2 * c)) & 3;
			uint32_t *r = res[c];

			if (!(wd->mask & (1u << c)))
				continue;
			for (uint32_t i = 0; i < w->nset; i++) {
				uint32_t v = 0;

				if (slow[i])
					continue;
				if (k * 4 < bytes)
					memcpy(&v, at[i] + 4 * k, 4);
				r[w->set[i]] = v;
			}
		}
		break;
	case PLAN_MOV_ID:
		for (unsigned int c = 0; c < 4; c++) {
			unsigned int k = (wd->swizzle >> (2 * c)) & 3;

			if (!(wd->mask & (1u << c)))
				continue;
			for (uint32_t i = 0; i < w->nset; i++) {
				unsigned int l = w->set[i];

				res[c][l] = id_component(ex, w, wd->arg_reg, k,
							 l);
			}
		}
		break;
	case PLAN_STORE: {
		/* Each mask bit enables a quarter of the access. */
		unsigned int part = bytes / 4;
		const uint32_t *src[4];

		for (unsigned int c = 0; c < 4; c++)
			src[c] = w->r[26 + wd->reg][(wd->swizzle >> (2 * c)) & 3];
		for (uint32_t i = 0; i < w->nset; i++) {
			unsigned int l = w->set[i];
			union sgpu_reg data;

			if (slow[i])
				continue;
			for (unsigned int c = 0; c < 4; c++)
				data.u32[c] = src[c][l];
			if (wd->mask == 0xF) {
				memcpy(at[i], data.u8, bytes);
				continue;
			}
			for (unsigned int p = 0; p < 4; p++) {
				if (wd->mask & (1u << p))
					memcpy(at[i] + p * part,
					       data.u8 + p * part, part);
			}
		}
		break;
	}
	default:
		break;
	}
}

/* Phase 3: the register writes of the fast lanes. */
static void commit(struct sgpu_warp *w, const struct sgpu_cached_bundle *cb,
		   unsigned int word, const bool *slow)
{
	const struct mdg_ldst *wd = &cb->b.ldst[word];
	unsigned int kind = cb->ldst_kind[word];

	if (kind != PLAN_LOAD && kind != PLAN_MOV_ID)
		return;
	for (unsigned int c = 0; c < 4; c++) {
		uint32_t *dst = w->r[wd->reg][c];
		const uint32_t *res = w->ldst_res[word][c];

		if (!(wd->mask & (1u << c)))
			continue;
		for (uint32_t i = 0; i < w->nset; i++) {
			if (!slow[i])
				dst[w->set[i]] = res[w->set[i]];
		}
	}
}

/* The reference path for one lane. */
static uint32_t reference_lane(struct sgpu_exec *ex, struct sgpu_warp *w,
			       const struct mdg_bundle *b, unsigned int lane)
{
	unsigned int reg0 = b->ldst[0].reg, reg1 = b->ldst[1].reg;
	struct sgpu_thread th;
	uint32_t code;

	th.pc = w->pc;
	th.tag = w->tag;
	th.state = SGPU_THREAD_RUNNABLE;
	sgpu_exec_enter_lane(ex, lane);
	sgpu_warp_get(w, 26, lane, &th.r[26]);
	sgpu_warp_get(w, 27, lane, &th.r[27]);
	sgpu_warp_get(w, reg0, lane, &th.r[reg0]);
	sgpu_warp_get(w, reg1, lane, &th.r[reg1]);
	memcpy(th.local_id, w->local_id[lane], sizeof(th.local_id));
	th.linear_id = lane;
	code = sgpu_ldst_execute(ex, &th, b);
	if (code)
		return code;
	sgpu_warp_put(w, reg0, lane, &th.r[reg0]);
	sgpu_warp_put(w, reg1, lane, &th.r[reg1]);
	return 0;
}

uint32_t sgpu_warp_ldst(struct sgpu_exec *ex, struct sgpu_warp *w,
			const struct sgpu_cached_bundle *cb)
{
	uint8_t *at[2][SGPU_WARP_LANES];
	bool slow[SGPU_WARP_LANES];

	for (uint32_t i = 0; i < w->nset; i++)
		slow[i] = !cb->ldst_fast;
	if (cb->ldst_fast) {
		for (unsigned int word = 0; word < 2; word++) {
			if (cb->ldst_kind[word] == PLAN_LOAD ||
			    cb->ldst_kind[word] == PLAN_STORE)
				addresses(ex, w, cb, word, at[word], slow);
		}
		for (unsigned int word = 0; word < 2; word++)
			perform(ex, w, cb, word, at[word], slow);
		for (unsigned int word = 0; word < 2; word++)
			commit(w, cb, word, slow);
	}
	for (uint32_t i = 0; i < w->nset; i++) {
		uint32_t code;

		if (!slow[i])
			continue;
		code = reference_lane(ex, w, &cb->b, w->set[i]);
		if (code)
			return code;
	}
	return 0;
}
