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

static uint8_t scalar_src(const struct mi_func *mf, const struct mi_src *s,
			  const struct mbe_sbundle *b, unsigned int j,
			  uint8_t *reg)
{
	unsigned int r, c, comp;

	mi_src_place(mf, s, &r, &c);
	*reg = (uint8_t)r;
	if (s->kind == MO_CONST)
		comp = const_index(b, s->cval[j]);
	else
		comp = (c + s->swz[j]) & 3;
	return (uint8_t)((s->mod & 3) | 1u << 2 | (comp * 2) << 3);
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
		a->full = true;
		a->comp = (uint8_t)((dcomp + j) * 2);
		if (in->src[0].kind)
			a->ssrc1 = scalar_src(mf, &in->src[0], b, j,
					      &a->src1_reg);
		if (in->src[1].kind == MO_IMM)
			mdg_alu_set_immediate(a, unit, in->src[1].imm);
		else if (in->src[1].kind)
			a->ssrc2 = scalar_src(mf, &in->src[1], b, j,
					      &a->src2_reg);
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
