/* SPDX-License-Identifier: MIT */
/*
 * Emission: scheduled MIR bundles to struct mdg_bundle values, encoded by
 * the ISA library. Bundles are laid out block after block; branch targets
 * are the first bundle at or after the target block (empty blocks fall
 * through), offsets in quadwords from the end of the branching bundle.
 * Branches start compact and become extended when their offset does not
 * fit, until the layout is stable. The last bundle of a returning block
 * ends the thread (next tag BREAK); 16 zero bytes follow the code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbe_internal.h"

struct flat {
	const struct mbe_sbundle *sb;
	uint32_t block;
	uint32_t addr, size;
	uint8_t tag;
	bool extended;
};

static unsigned int const_index(const struct mbe_sbundle *b, uint32_t v)
{
	for (unsigned int k = 0; k < b->num_consts; k++)
		if (b->consts[k] == v)
			return k;
	return 0;
}

/* Component each physical lane of a vector source reads. */
static uint16_t vector_src(const struct mi_func *mf, const struct mi_instr *in,
			   const struct mi_src *s, const struct mbe_sbundle *b,
			   unsigned int dcomp, uint8_t *reg)
{
	bool reduce = mdg_alu_op_info(in->op)->flags & MDG_OP_REDUCE;
	unsigned int r, c, sel[4], first = 4;

	mi_src_place(mf, s, &r, &c);
	*reg = (uint8_t)r;
	if (s->lane_splat) {
		/*
		 * The low 16 bits of word k everywhere: replicate the half
		 * holding it (expand 1 low, 2 high) and select them in it,
		 * the same selector for lanes of both halves: 16-bit
		 * element 2k, or in 8-bit mode the byte pair 2k.
		 */
		unsigned int k = s->kind == MO_CONST ?
				 const_index(b, s->cval[0]) :
				 (c + s->swz[0]) & 3;

		return MDG_VSRC(s->mod & 3, k < 2 ? 1 : 2,
				((2 * k) & 3) * 0x55u);
	}
	for (unsigned int lane = 0; lane < 4; lane++) {
		unsigned int j = reduce ? lane : lane - dcomp;
		bool live = reduce || (lane >= dcomp &&
				       (in->dst.mask & (1u << j)));

		sel[lane] = 0;
		if (!live)
			continue;
		if (s->kind == MO_CONST)
			sel[lane] = const_index(b, s->cval[j]);
		else
			sel[lane] = (c + s->swz[j]) & 3;
		if (first == 4)
			first = lane;
	}
	for (unsigned int lane = 0; lane < 4; lane++) {
		unsigned int j = lane - dcomp;
		bool live = reduce || (lane >= dcomp &&
				       (in->dst.mask & (1u << j)));

		if (!live && first < 4)
			sel[lane] = sel[first];
	}
	if (s->widen) {
		/* One 32-bit element per 64-bit lane, from the low (expand
		 * 4) or high (5) half: the lane's even selector names it
		 * times two. isel emits one lane per instruction. */
		unsigned int p = first < 4 ? sel[first] : 0;

		return MDG_VSRC(s->mod & 3, p >= 2 ? 5 : 4,
				(2 * (p & 1)) * 0x55u);
	}
	return MDG_VSRC(s->mod & 3, 0, sel[0] | sel[1] << 2 | sel[2] << 4 |
			sel[3] << 6);
}

/* The physical component destination lane j of an operand reads. */
static unsigned int src_comp(const struct mi_func *mf, const struct mi_src *s,
			     const struct mbe_sbundle *b, unsigned int j,
			     uint8_t *reg)
{
	unsigned int r, c;

	mi_src_place(mf, s, &r, &c);
	*reg = (uint8_t)r;
	if (s->kind == MO_CONST)
		return const_index(b, s->cval[j]);
	return (c + s->swz[j]) & 3;
}

/*
 * An MH_OP source in reg mode 16: 16-bit lanes 2L and 2L + 1 read the
 * low half of the component p[L] that 32-bit lane L would, i.e. 16-bit
 * element 2 p[L]. Lanes 0-3 take their element from the 64-bit half the
 * expand mode names first, lanes 4-7 from the second (0 low/high, 1
 * low/low, 2 high/high, 3 high/low), both through the same four
 * selectors: so lanes 0 and 1 must read from one half and lanes 2 and 3
 * from one half, and lanes 0 and 2 (1 and 3) at the same position in
 * theirs. False when the operand's placement breaks that (isel's
 * operands never do).
 */
static bool half_op_src(const struct mi_func *mf, const struct mi_instr *in,
			const struct mi_src *s, const struct mbe_sbundle *b,
			unsigned int dcomp, uint8_t *reg, uint16_t *desc)
{
	static const uint8_t expand[2][2] = { { 1, 0 }, { 3, 2 } };
	int hs[2] = { -1, -1 }, pos[2] = { -1, -1 };

	*reg = MDG_REG_PIPE0;
	for (unsigned int lane = dcomp; lane < 4; lane++) {
		unsigned int j = lane - dcomp, p;

		if (!(in->dst.mask & (1u << j)))
			continue;
		p = src_comp(mf, s, b, j, reg);
		if ((hs[lane / 2] >= 0 && hs[lane / 2] != (int)(p / 2)) ||
		    (pos[lane & 1] >= 0 && pos[lane & 1] != (int)(p & 1)))
			return false;
		hs[lane / 2] = (int)(p / 2);
		pos[lane & 1] = (int)(p & 1);
	}
	for (int h = 0; h < 2; h++) {
		if (hs[h] < 0)
			hs[h] = hs[1 - h] >= 0 ? hs[1 - h] : h;
		if (pos[h] < 0)
			pos[h] = 0;
	}
	*desc = MDG_VSRC(s->mod & 3, expand[hs[0]][hs[1]],
			 (2u * (unsigned int)pos[0]) * 0x5u |
			 (2u * (unsigned int)pos[1]) * 0x50u);
	return true;
}

/* Every MH_OP source of the bundle encodes (see half_op_src). */
static bool half_ops_ok(const struct mi_func *mf, const struct mbe_sbundle *b)
{
	for (int u = 0; u < MDG_UNIT_COUNT; u++) {
		const struct mi_instr *in = b->alu[u];
		unsigned int reg, dcomp;
		uint8_t r;
		uint16_t d;

		if (!in || in->half != MH_OP ||
		    mdg_unit_is_scalar((enum mdg_unit)u))
			continue;
		mi_dst_place(mf, &in->dst, &reg, &dcomp);
		for (int k = 0; k < 2; k++)
			if ((in->src[k].kind == MO_VREG ||
			     in->src[k].kind == MO_PHYS ||
			     in->src[k].kind == MO_CONST) &&
			    !half_op_src(mf, in, &in->src[k], b, dcomp, &r, &d))
				return false;
	}
	return true;
}

/*
 * The vector form of a half instruction (mi_instr.half): MH_OP in reg
 * mode 16, MH_FROM reading the source component's low half widened
 * (expand 4 low or 5 high 64 bits, the selector naming its 16-bit
 * element there), MH_TO writing op lane 0 or 2 shrunk into the lower or
 * upper 64 bits, so that its 16-bit result lands on the destination
 * component's low half.
 */
static void encode_half(const struct mi_func *mf, const struct mi_instr *in,
			enum mdg_unit unit, const struct mbe_sbundle *b,
			unsigned int dcomp, struct mdg_alu *a)
{
	unsigned int j = 0, dc, p;

	while (j < 3 && !(in->dst.mask & (1u << j)))
		j++;
	dc = dcomp + j;
	a->src1 = MDG_VSRC(0, 0, 0xE4);
	a->src2 = MDG_VSRC(0, 0, 0xE4);
	a->shrink = MDG_SHRINK_NONE;
	if (in->half == MH_OP) {
		a->reg_mode = MDG_REG_MODE_16;
		for (unsigned int k = 0; k < 4; k++)
			if ((in->dst.mask << dcomp) & (1u << k))
				a->mask |= (uint8_t)(3u << (2 * k));
		if (in->src[0].kind)
			half_op_src(mf, in, &in->src[0], b, dcomp,
				    &a->src1_reg, &a->src1);
		if (in->src[1].kind == MO_IMM)
			mdg_alu_set_immediate(a, unit, in->src[1].imm);
		else if (in->src[1].kind)
			half_op_src(mf, in, &in->src[1], b, dcomp,
				    &a->src2_reg, &a->src2);
		return;
	}
	a->reg_mode = MDG_REG_MODE_32;
	for (int k = 0; k < 2; k++) {
		const struct mi_src *s = &in->src[k];
		uint8_t *reg = k ? &a->src2_reg : &a->src1_reg;
		uint16_t *desc = k ? &a->src2 : &a->src1;

		if (s->kind == MO_IMM) {
			mdg_alu_set_immediate(a, unit, s->imm);
			continue;
		}
		if (!s->kind)
			continue;
		p = src_comp(mf, s, b, j, reg);
		*desc = in->half == MH_FROM ?
			MDG_VSRC(s->mod & 3, p >= 2 ? 5 : 4,
				 (2 * (p & 1)) * 0x55u) :
			MDG_VSRC(s->mod & 3, 0, p * 0x55u);
	}
	if (in->half == MH_FROM) {
		a->mask = (uint8_t)(3u << (2 * dc));
		return;
	}
	/* Op lane 2 (dc & 1) shrinks to 16-bit element dc & 3 of its half. */
	a->shrink = dc >= 2 ? MDG_SHRINK_UPPER : MDG_SHRINK_LOWER;
	a->mask = (uint8_t)(3u << (4 * (dc & 1)));
}

static uint8_t scalar_src(const struct mi_func *mf, const struct mi_src *s,
			  const struct mbe_sbundle *b, unsigned int j,
			  bool half, uint8_t *reg)
{
	unsigned int comp = src_comp(mf, s, b, j, reg);

	/* Bit 2: a 32-bit source; the component is in 16-bit units, a
	 * half being the low one of its 32-bit component. */
	return (uint8_t)((s->mod & 3) | (half ? 0u : 1u << 2) |
			 (comp * 2) << 3);
}

static void encode_alu(const struct mi_func *mf, const struct mi_instr *in,
		       enum mdg_unit unit, const struct mbe_sbundle *b,
		       unsigned int cond_comp, struct mdg_alu *a)
{
	unsigned int dreg, dcomp, j = 0;

	memset(a, 0, sizeof(*a));
	mi_dst_place(mf, &in->dst, &dreg, &dcomp);
	if (in->dst.kind == MO_PHYS && dcomp > 3)
		dcomp = cond_comp;
	a->op = in->op;
	a->outmod = in->outmod;
	a->dst_reg = (uint8_t)dreg;
	a->src1_reg = MDG_REG_PIPE0;
	a->src2_reg = MDG_REG_PIPE0;
	while (j < 3 && !(in->dst.mask & (1u << j)))
		j++;
	if (mdg_unit_is_scalar(unit)) {
		/*
		 * Halves: 16-bit sources and result compute at 16 bits
		 * (MH_OP); a 32-bit result from 16-bit sources computes at
		 * 32 bits on the sources widened exactly (MH_FROM, and an
		 * MH_OP comparison, whose 0 / ~0 must fill 32 bits); a
		 * 16-bit result of 32-bit sources is narrowed (MH_TO).
		 */
		bool half_src = in->half == MH_OP || in->half == MH_FROM;
		bool cmp = in->op >= MDG_ALU_FEQ && in->op <= MDG_ALU_FLE;

		a->full = in->half == MH_NONE || in->half == MH_FROM ||
			  (in->half == MH_OP && cmp);
		a->comp = (uint8_t)((dcomp + j) * 2);
		if (in->src[0].kind)
			a->ssrc1 = scalar_src(mf, &in->src[0], b, j, half_src,
					      &a->src1_reg);
		if (in->src[1].kind == MO_IMM)
			mdg_alu_set_immediate(a, unit, in->src[1].imm);
		else if (in->src[1].kind)
			a->ssrc2 = scalar_src(mf, &in->src[1], b, j, half_src,
					      &a->src2_reg);
		return;
	}
	if (in->half) {
		encode_half(mf, in, unit, b, dcomp, a);
		return;
	}
	a->reg_mode = in->mode64 ? MDG_REG_MODE_64 :
		      in->lane_bits == 16 ? MDG_REG_MODE_16 :
		      in->lane_bits == 8 ? MDG_REG_MODE_8 : MDG_REG_MODE_32;
	a->shrink = MDG_SHRINK_NONE;
	if (in->shrink) {
		/* The sources read component pairs as a 64-bit op writing
		 * components 0-3 would; the mask names the op's lanes. */
		struct mi_instr wide = *in;

		wide.dst.mask = 0;
		for (unsigned int k = 0; k < 2; k++)
			if (in->dst.mask & (1u << k)) {
				wide.dst.mask |= (uint8_t)(3u << (2 * k));
				a->mask |= (uint8_t)(0xFu << (4 * k));
			}
		a->shrink = dcomp >= 2 ? MDG_SHRINK_UPPER : MDG_SHRINK_LOWER;
		a->src1 = MDG_VSRC(0, 0, 0xE4);
		a->src2 = MDG_VSRC(0, 0, 0xE4);
		if (wide.src[0].kind)
			a->src1 = vector_src(mf, &wide, &wide.src[0], b, 0,
					     &a->src1_reg);
		if (wide.src[1].kind == MO_IMM)
			mdg_alu_set_immediate(a, unit, wide.src[1].imm);
		else if (wide.src[1].kind)
			a->src2 = vector_src(mf, &wide, &wide.src[1], b, 0,
					     &a->src2_reg);
		return;
	}
	for (unsigned int k = 0; k < 4; k++)
		if ((in->dst.mask << dcomp) & (1u << k))
			a->mask |= (uint8_t)(3u << (2 * k));
	a->src1 = MDG_VSRC(0, 0, 0xE4);
	a->src2 = MDG_VSRC(0, 0, 0xE4);
	if (in->src[0].kind)
		a->src1 = vector_src(mf, in, &in->src[0], b, dcomp,
				     &a->src1_reg);
	if (in->src[1].kind == MO_IMM)
		mdg_alu_set_immediate(a, unit, in->src[1].imm);
	else if (in->src[1].kind)
		a->src2 = vector_src(mf, in, &in->src[1], b, dcomp,
				     &a->src2_reg);
}

static void encode_ldst(const struct mi_func *mf, const struct mi_instr *in,
			struct mdg_ldst *w)
{
	unsigned int reg, comp;

	*w = in->w;
	if (in->dst.kind == MO_NONE)
		return;
	mi_dst_place(mf, &in->dst, &reg, &comp);
	w->reg = (uint8_t)reg;
	w->mask = (uint8_t)((in->dst.mask << comp) & 0xF);
	if (mdg_ldst_op_info(w->op)->flags & MDG_LDST_ATOMIC) {
		/* The swizzle field names the operand; the old value lands
		 * in component 0 only (.xy for a 64-bit atomic). */
		w->mask = (uint8_t)((mdg_ldst_op_info(w->op)->bytes == 8 ?
				     3u : 1u) << comp);
		return;
	}
	w->swizzle = 0;
	for (unsigned int j = 0; j + comp < 4; j++)
		w->swizzle |= (uint8_t)((in->lswz[j] & 3) << (2 * (j + comp)));
}

static void build(const struct mi_func *mf, const struct mbe_sbundle *sb,
		  struct mdg_bundle *out)
{
	memset(out, 0, sizeof(*out));
	if (sb->kind == MDG_KIND_TEXTURE && sb->tex) {
		/* The non-fragment texture tag (docs/hardware.md §5.1). */
		out->tag = MDG_TAG_TEXTURE_VTX;
		out->tex = sb->tex->t;
		return;
	}
	if (sb->kind == MDG_KIND_TEXTURE) {
		out->tag = MDG_TAG_TEXTURE_BARRIER;
		out->tex.op = MDG_TEX_OP_BARRIER;
		out->tex.exec = 3;
		return;
	}
	if (sb->kind == MDG_KIND_LDST) {
		out->tag = MDG_TAG_LDST;
		for (int k = 0; k < 2; k++) {
			if (sb->ldst[k])
				encode_ldst(mf, sb->ldst[k], &out->ldst[k]);
			else
				out->ldst[k].op = MDG_LDST_NOP;
		}
		return;
	}
	out->tag = MDG_TAG_ALU4;
	for (int u = 0; u < MDG_UNIT_COUNT; u++) {
		const struct mi_instr *in = sb->alu[u];
		unsigned int cond_comp = 0;

		if (!in)
			continue;
		if (in->dst.kind == MO_PHYS && in->dst.off > 3) {
			/* The csel after it decides where r31's lanes go. */
			for (int v = u + 1; v < MDG_UNIT_COUNT; v++) {
				unsigned int r;

				if (sb->alu[v] && sb->alu[v]->glued)
					mi_dst_place(mf, &sb->alu[v]->dst, &r,
						     &cond_comp);
			}
		}
		out->units |= (uint8_t)MDG_UNIT_MASK(u);
		encode_alu(mf, in, (enum mdg_unit)u, sb, cond_comp,
			   &out->alu[u]);
	}
	if (sb->num_consts) {
		out->has_constants = true;
		memcpy(out->constants, sb->consts, sizeof(out->constants));
	}
}

bool mbe_emit(const struct mi_func *mf, const struct mbe_schedule *s,
	      struct mbe_code *out, uint32_t *first_tag, char *err,
	      size_t errsz)
{
	uint32_t nf = 0, *block_first;
	struct flat *fl;
	uint8_t buf[MDG_MAX_BUNDLE_BYTES];
	struct mdg_bundle mb;
	bool changed = true;
	size_t total = 0;
	uint8_t *code;

	for (uint32_t b = 0; b < s->num_blocks; b++)
		nf += s->blocks[b].num;
	fl = sir_xcalloc(nf + 1, sizeof(*fl));
	block_first = sir_xcalloc(s->num_blocks + 1, sizeof(*block_first));
	nf = 0;
	for (uint32_t b = 0; b < s->num_blocks; b++) {
		block_first[b] = nf;
		for (uint32_t k = 0; k < s->blocks[b].num; k++) {
			fl[nf].sb = &s->blocks[b].b[k];
			fl[nf++].block = b;
		}
	}
	block_first[s->num_blocks] = nf;
	for (uint32_t i = 0; i < nf; i++) {
		if (!half_ops_ok(mf, fl[i].sb)) {
			snprintf(err, errsz, "mdg: internal error: an fp16 "
				 "operand placed where reg mode 16 cannot "
				 "read it");
			free(fl);
			free(block_first);
			return false;
		}
	}
	if (!nf) {
		snprintf(err, errsz, "mdg: empty program");
		free(fl);
		free(block_first);
		return false;
	}

	/* Sizes and tags until the branch forms are stable. */
	while (changed) {
		uint32_t addr = 0;

		changed = false;
		for (uint32_t i = 0; i < nf; i++) {
			unsigned int size;

			build(mf, fl[i].sb, &mb);
			mb.next_tag = MDG_TAG_BREAK;
			if (fl[i].sb->branch) {
				mb.has_branch = true;
				mb.branch.extended = fl[i].extended;
				mb.branch.op = fl[i].extended ||
					fl[i].sb->branch_cond != MDG_COND_ALWAYS ?
					MDG_BRANCH_OP_COND : MDG_BRANCH_OP_UNCOND;
				mb.branch.dest_tag = MDG_TAG_ALU4;
				mb.branch.call_mode = 1;
				mb.branch.cond = fl[i].sb->branch_cond;
				mb.branch.cond_lut = 0;
			}
			size = mdg_encode_bundle(&mb, buf, sizeof(buf), err,
						 errsz);
			if (!size) {
				free(fl);
				free(block_first);
				return false;
			}
			fl[i].addr = addr;
			fl[i].size = size;
			fl[i].tag = buf[0] & 0xF;
			addr += size;
		}
		total = addr;
		for (uint32_t i = 0; i < nf; i++) {
			uint32_t t;
			int64_t off;

			if (!fl[i].sb->branch || fl[i].extended)
				continue;
			t = block_first[fl[i].sb->target];
			off = t < nf ? ((int64_t)fl[t].addr -
					(fl[i].addr + fl[i].size)) / 16 : 0;
			if (off < -64 || off > 63) {
				fl[i].extended = true;
				changed = true;
			}
		}
	}

	code = sir_xcalloc(total + 16, 1);
	for (uint32_t i = 0; i < nf; i++) {
		unsigned int size;

		build(mf, fl[i].sb, &mb);
		mb.next_tag = (i + 1 < nf && !fl[i].sb->ends) ?
			      fl[i + 1].tag : MDG_TAG_BREAK;
		if (fl[i].sb->branch) {
			uint32_t t = block_first[fl[i].sb->target];
			uint8_t c = fl[i].sb->branch_cond;

			if (t >= nf) {
				snprintf(err, errsz, "mdg: branch to the end "
					 "of the program");
				free(code);
				free(fl);
				free(block_first);
				return false;
			}
			mb.has_branch = true;
			mb.branch.extended = fl[i].extended;
			mb.branch.call_mode = 1;
			mb.branch.dest_tag = fl[t].tag;
			mb.branch.offset = (int32_t)(((int64_t)fl[t].addr -
				(fl[i].addr + fl[i].size)) / 16);
			if (fl[i].extended) {
				/* Truth table over (r31.w bit, r31.x bit). */
				mb.branch.op = MDG_BRANCH_OP_COND;
				mb.branch.cond_lut =
					c == MDG_COND_TRUE ? 0xA :
					c == MDG_COND_FALSE ? 0x5 : 0xF;
			} else if (c == MDG_COND_ALWAYS) {
				mb.branch.op = MDG_BRANCH_OP_UNCOND;
			} else {
				mb.branch.op = MDG_BRANCH_OP_COND;
				mb.branch.cond = c;
			}
		}
		size = mdg_encode_bundle(&mb, code + fl[i].addr, fl[i].size,
					 err, errsz);
		if (size != fl[i].size) {
			if (size)
				snprintf(err, errsz, "mdg: bundle %u changed "
					 "size", i);
			free(code);
			free(fl);
			free(block_first);
			return false;
		}
	}
	*first_tag = fl[0].tag;
	out->code = code;
	out->size = total + 16;
	free(fl);
	free(block_first);
	return true;
}
