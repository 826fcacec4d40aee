/* SPDX-License-Identifier: MIT */
/*
 * Random valid Midgard bundles for the ISA tests, drawn from the op tables,
 * and a field-wise comparison of decoded bundles. Seeded, so a failure can
 * be replayed with ISA_SEED=<seed>.
 */
#ifndef SLEIPNIR_ISA_GEN_H
#define SLEIPNIR_ISA_GEN_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "midgard_isa.h"

static uint64_t gen_state;

static inline void gen_seed(uint64_t seed)
{
	gen_state = seed * 0x9E3779B97F4A7C15ull + 1;
}

/* Seed from ISA_SEED or the clock, printed so failures can be replayed. */
static inline uint64_t gen_seed_from_env(void)
{
	const char *s = getenv("ISA_SEED");
	uint64_t seed = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL);

	printf("seed %llu (replay with ISA_SEED=%llu)\n",
	       (unsigned long long)seed, (unsigned long long)seed);
	gen_seed(seed);
	return seed;
}

static inline uint32_t rnd(void)
{
	gen_state ^= gen_state << 13;
	gen_state ^= gen_state >> 7;
	gen_state ^= gen_state << 17;
	return (uint32_t)(gen_state >> 16);
}

static inline unsigned int rn(unsigned int n)
{
	return rnd() % n;
}

static const uint8_t valid_next[] = { 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13,
				      14, 15 };

static inline unsigned int expand_for(unsigned int mode)
{
	for (;;) {
		unsigned int e = rn(8);

		if (e == 0 ||
		    ((e >= 1 && e <= 3) && mode <= 1) ||
		    ((e == 4 || e == 5) && mode != 0) ||
		    ((e >= 6) && mode == 1))
			return e;
	}
}

static inline unsigned int rand_ssrc(void)
{
	unsigned int full = rn(2), comp = rn(8);

	if (full)
		comp &= 6;
	return rn(4) | full << 2 | comp << 3;
}

/* Fills a with a random valid instruction of op on unit. */
static inline void gen_alu(struct mdg_alu *a, uint8_t op, enum mdg_unit unit)
{
	memset(a, 0, sizeof(*a));
	a->op = op;
	a->src1_reg = (uint8_t)rn(32);
	a->src2_reg = (uint8_t)rn(32);
	a->dst_reg = (uint8_t)rn(32);
	a->outmod = (uint8_t)rn(4);
	if (mdg_unit_is_scalar(unit)) {
		a->ssrc1 = (uint8_t)rand_ssrc();
		a->full = rn(2);
		a->comp = (uint8_t)(a->full ? 2 * rn(4) : rn(8));
		if (rn(3) == 0)
			mdg_alu_set_immediate(a, unit, (uint16_t)rnd());
		else
			a->ssrc2 = (uint16_t)rand_ssrc();
	} else {
		a->reg_mode = (uint8_t)rn(4);
		a->src1 = MDG_VSRC(rn(4), expand_for(a->reg_mode), rn(256));
		a->shrink = (uint8_t)rn(3);
		a->mask = (uint8_t)rnd();
		/* Readable masks are the common case; raw ones must work. */
		if (rn(2))
			a->mask = (uint8_t)(a->reg_mode == 2 ? 0x03 * (1 + rn(3)) :
					    0xFF);
		if (rn(3) == 0)
			mdg_alu_set_immediate(a, unit, (uint16_t)rnd());
		else
			a->src2 = MDG_VSRC(rn(4), expand_for(a->reg_mode),
					   rn(256));
	}
}

static inline int gen_alu_op_for(enum mdg_unit unit)
{
	for (;;) {
		uint8_t op = (uint8_t)rn(256);
		const struct mdg_alu_op_info *i = mdg_alu_op_info(op);

		if (i && (i->units & MDG_UNIT_MASK(unit)))
			return op;
	}
}

static inline void gen_branch(struct mdg_branch *br)
{
	static const uint8_t ops[] = { 1, 2, 4, 6, 7 };

	memset(br, 0, sizeof(*br));
	br->extended = rn(3) == 0;
	br->op = ops[rn(5)];
	br->dest_tag = (uint8_t)rn(16);
	if (br->extended) {
		br->call_mode = (uint8_t)rn(4);
		br->offset = rn(2) ? (int32_t)rn(20) - 10 :
				     (int32_t)(rnd() % (1u << 23)) - (1 << 22);
		br->cond_lut = rn(2) ? (uint16_t)rnd() :
				       (uint16_t)(0x5555 * rn(4));
	} else {
		br->offset = (int32_t)rn(128) - 64;
		if (br->op == 1)
			br->call_mode = (uint8_t)rn(4);
		else
			br->cond = (uint8_t)rn(4);
	}
}

static inline void gen_ldst(struct mdg_ldst *w)
{
	const struct mdg_ldst_op_info *info;

	memset(w, 0, sizeof(*w));
	do
		w->op = (uint8_t)rn(256);
	while (!(info = mdg_ldst_op_info(w->op)));
	if (rn(4) == 0) {
		/* Canonical-looking words: the printer's readable paths. */
		w->op = rn(2) ? MDG_LDST_LD_32 : rn(2) ? MDG_LDST_LD_UBO_32 :
			rn(2) ? MDG_LDST_MOV : MDG_LDST_ST_32;
		w->mask = 0xF;
		w->swizzle = 0xE4;
		w->arg_reg = 7;
		w->index_reg = 7;
		w->index_format = 1;
		return;
	}
	w->reg = (uint8_t)rn(32);
	w->mask = (uint8_t)rn(16);
	w->swizzle = (uint8_t)rnd();
	w->arg_comp = (uint8_t)rn(4);
	w->arg_reg = (uint8_t)rn(8);
	w->bitsize_toggle = rn(2);
	w->index_format = (uint8_t)rn(4);
	w->index_comp = (uint8_t)rn(4);
	w->index_reg = (uint8_t)rn(8);
	w->index_shift = (uint8_t)rn(16);
	w->offset = (int32_t)(rnd() % (1u << 18)) - (1 << 17);
}

static inline void gen_tex(struct mdg_bundle *b)
{
	static const uint8_t ops[] = { 1, 2, 4, 9, 10, 12, 13 };
	struct mdg_tex *t = &b->tex;

	memset(t, 0, sizeof(*t));
	if (rn(3) == 0) {
		b->tag = MDG_TAG_TEXTURE_BARRIER;
		t->op = MDG_TEX_OP_BARRIER;
		t->exec = (uint8_t)(rn(2) ? 3 : rn(4));
		t->out_of_order = (uint8_t)rn(16);
		return;
	}
	b->tag = rn(2) ? MDG_TAG_TEXTURE : MDG_TAG_TEXTURE_VTX;
	t->op = ops[rn(7)];
	t->mode = (uint8_t)rn(16);
	t->exec = (uint8_t)rn(4);
	t->format = (uint8_t)rn(4);
	t->sampler_register = rn(2);
	t->texture_register = rn(2);
	t->lod_register = rn(2);
	t->offset_register = rn(2);
	t->in_full = rn(2);
	t->in_select = rn(2);
	t->in_upper = rn(2);
	t->in_swizzle = (uint8_t)rnd();
	t->unknown8 = (uint8_t)rn(4);
	t->out_full = rn(2);
	t->sampler_type = (uint8_t)rn(4);
	t->out_select = rn(2);
	t->out_upper = rn(2);
	t->mask = (uint8_t)rn(16);
	t->outmod = (uint8_t)rn(4);
	t->swizzle = (uint8_t)rnd();
	t->out_of_order = (uint8_t)rn(16);
	t->unknown4 = (uint8_t)rnd();
	t->offset = (uint16_t)rn(4096);
	t->bias = (uint8_t)rnd();
	t->bias_int = (int8_t)rnd();
	t->sampler_handle = (uint16_t)rnd();
	t->texture_handle = (uint16_t)rnd();
}

/* A random valid bundle of any kind. */
static inline void gen_bundle(struct mdg_bundle *b)
{
	unsigned int kind = rn(10), u;

	memset(b, 0, sizeof(*b));
	b->next_tag = valid_next[rn(sizeof(valid_next))];
	if (kind < 6) {
		b->tag = rn(8) ? MDG_TAG_ALU4 : MDG_TAG_ALU4_WRITEOUT;
		b->units = (uint8_t)rn(32);
		for (u = 0; u < MDG_UNIT_COUNT; u++)
			if (b->units & MDG_UNIT_MASK(u))
				gen_alu(&b->alu[u],
					(uint8_t)gen_alu_op_for((enum mdg_unit)u),
					(enum mdg_unit)u);
		b->has_branch = rn(3) == 0;
		if (b->has_branch)
			gen_branch(&b->branch);
		b->has_constants = rn(3) == 0;
		if (b->has_constants)
			for (u = 0; u < 4; u++)
				b->constants[u] = rnd() ^ (rnd() << 16);
	} else if (kind < 8) {
		b->tag = MDG_TAG_LDST;
		gen_ldst(&b->ldst[0]);
		if (rn(2))
			gen_ldst(&b->ldst[1]);
		else
			b->ldst[1].op = MDG_LDST_NOP;
	} else {
		gen_tex(b);
	}
}

static inline bool alu_equal(const struct mdg_alu *a, const struct mdg_alu *b,
		      enum mdg_unit unit)
{
	if (a->src1_reg != b->src1_reg || a->src2_reg != b->src2_reg ||
	    a->dst_reg != b->dst_reg || a->src2_imm != b->src2_imm ||
	    a->op != b->op || a->outmod != b->outmod)
		return false;
	if (mdg_unit_is_scalar(unit))
		return a->ssrc1 == b->ssrc1 && a->ssrc2 == b->ssrc2 &&
		       a->full == b->full && a->comp == b->comp;
	return a->reg_mode == b->reg_mode && a->src1 == b->src1 &&
	       a->src2 == b->src2 && a->shrink == b->shrink &&
	       a->mask == b->mask;
}

static inline bool ldst_equal(const struct mdg_ldst *a, const struct mdg_ldst *b)
{
	return a->op == b->op && a->reg == b->reg && a->mask == b->mask &&
	       a->swizzle == b->swizzle && a->arg_comp == b->arg_comp &&
	       a->arg_reg == b->arg_reg &&
	       a->bitsize_toggle == b->bitsize_toggle &&
	       a->index_format == b->index_format &&
	       a->index_comp == b->index_comp && a->index_reg == b->index_reg &&
	       a->index_shift == b->index_shift && a->offset == b->offset;
}

static inline bool tex_equal(const struct mdg_tex *a, const struct mdg_tex *b)
{
	return a->op == b->op && a->mode == b->mode && a->exec == b->exec &&
	       a->format == b->format &&
	       a->sampler_register == b->sampler_register &&
	       a->texture_register == b->texture_register &&
	       a->lod_register == b->lod_register &&
	       a->offset_register == b->offset_register &&
	       a->in_full == b->in_full && a->in_select == b->in_select &&
	       a->in_upper == b->in_upper && a->in_swizzle == b->in_swizzle &&
	       a->unknown8 == b->unknown8 && a->out_full == b->out_full &&
	       a->sampler_type == b->sampler_type &&
	       a->out_select == b->out_select && a->out_upper == b->out_upper &&
	       a->mask == b->mask && a->outmod == b->outmod &&
	       a->swizzle == b->swizzle && a->out_of_order == b->out_of_order &&
	       a->unknown4 == b->unknown4 && a->offset == b->offset &&
	       a->bias == b->bias && a->bias_int == b->bias_int &&
	       a->sampler_handle == b->sampler_handle &&
	       a->texture_handle == b->texture_handle;
}

/* Field-wise equality of what the encoding carries (for ALU bundles the
 * tag's size part, size and control are the decoder's to compute). */
static inline bool bundle_equal(const struct mdg_bundle *a, const struct mdg_bundle *b)
{
	unsigned int u;

	if (a->next_tag != b->next_tag)
		return false;
	if (a->tag >= MDG_TAG_ALU4) {
		if (b->tag < MDG_TAG_ALU4 ||
		    (a->tag >= MDG_TAG_ALU4_WRITEOUT) !=
		    (b->tag >= MDG_TAG_ALU4_WRITEOUT))
			return false;
		if (a->units != b->units || a->has_branch != b->has_branch ||
		    a->has_constants != b->has_constants)
			return false;
		for (u = 0; u < MDG_UNIT_COUNT; u++)
			if ((a->units & MDG_UNIT_MASK(u)) &&
			    !alu_equal(&a->alu[u], &b->alu[u], (enum mdg_unit)u))
				return false;
		if (a->has_branch) {
			const struct mdg_branch *x = &a->branch, *y = &b->branch;

			if (x->extended != y->extended || x->op != y->op ||
			    x->dest_tag != y->dest_tag || x->offset != y->offset)
				return false;
			if ((x->extended || x->op == 1) &&
			    x->call_mode != y->call_mode)
				return false;
			if (!x->extended && x->op != 1 && x->cond != y->cond)
				return false;
			if (x->extended && x->cond_lut != y->cond_lut)
				return false;
		}
		if (a->has_constants &&
		    memcmp(a->constants, b->constants, sizeof(a->constants)))
			return false;
		return true;
	}
	if (a->tag != b->tag)
		return false;
	if (a->tag == MDG_TAG_LDST)
		return ldst_equal(&a->ldst[0], &b->ldst[0]) &&
		       ldst_equal(&a->ldst[1], &b->ldst[1]);
	return tex_equal(&a->tex, &b->tex);
}

#endif
