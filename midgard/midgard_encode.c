/* SPDX-License-Identifier: MIT */
/*
 * From struct mdg_bundle to bytes. The encoder is also where validity is
 * defined: the decoder accepts exactly the bytes this file produces, so every
 * rule here is a rule of the decoder too (midgard/README.md lists
 * them).
 */
#include <string.h>

#include "midgard_internal.h"

#define FAIL(...) mdg_fail(err, err_size, __VA_ARGS__)

/* ---- Inline immediates (docs/hardware.md §5.3, §5.4) ---- */

uint16_t mdg_alu_immediate(const struct mdg_alu *alu, enum mdg_unit unit)
{
	uint16_t hi = (uint16_t)((alu->src2_reg & 0x1F) << 11);

	if (mdg_unit_is_scalar(unit)) {
		unsigned int s = alu->ssrc2;

		return (uint16_t)(hi | (s & 3) << 9 | ((s >> 2) & 1) << 8 |
				  ((s >> 3) & 7) << 5 | ((s >> 6) & 0x1F));
	}
	return (uint16_t)(hi | ((alu->src2 >> 2) & 7) << 8 |
			  ((alu->src2 >> 5) & 0xFF));
}

void mdg_alu_set_immediate(struct mdg_alu *alu, enum mdg_unit unit,
			   uint16_t imm)
{
	alu->src2_imm = true;
	alu->src2_reg = imm >> 11;
	if (mdg_unit_is_scalar(unit))
		alu->ssrc2 = (uint16_t)(((imm >> 9) & 3) | ((imm >> 8) & 1) << 2 |
					((imm >> 5) & 7) << 3 |
					(imm & 0x1F) << 6);
	else
		alu->src2 = (uint16_t)(((imm >> 8) & 7) << 2 |
				       (imm & 0xFF) << 5);
}

/* ---- Validation shared with the decoder ---- */

bool mdg_expand_valid(unsigned int expand, unsigned int reg_mode)
{
	switch (expand) {
	case 0:
		return true;
	case 1: case 2: case 3:         /* replicate / swap 64-bit halves */
		return reg_mode == MDG_REG_MODE_8 || reg_mode == MDG_REG_MODE_16;
	case 4: case 5:                 /* widen low / high half */
		return reg_mode != MDG_REG_MODE_8;
	case 6: case 7:                 /* widen, then swap */
		return reg_mode == MDG_REG_MODE_16;
	default:
		return false;
	}
}

unsigned int mdg_alu_content_bytes(unsigned int units, bool has_branch,
				   bool extended)
{
	unsigned int u, n = 4;

	for (u = 0; u < MDG_UNIT_COUNT; u++)
		if (units & MDG_UNIT_MASK(u))
			n += 2 + (mdg_unit_is_scalar((enum mdg_unit)u) ? 4 : 6);
	if (has_branch)
		n += extended ? 6 : 2;
	return n;
}

static bool scalar_src_ok(unsigned int s)
{
	/* A 32-bit component is counted in 16-bit units, so it is even. */
	return !(MDG_SSRC_FULL(s) && (MDG_SSRC_COMP(s) & 1));
}

bool mdg_check_alu(const struct mdg_alu *a, enum mdg_unit unit, char *err,
		   size_t err_size)
{
	const struct mdg_alu_op_info *info = mdg_alu_op_info(a->op);
	const char *un = mdg_unit_names[unit];

	if (!info)
		return FAIL("%s: unknown ALU opcode 0x%02X", un, a->op);
	if (!(info->units & MDG_UNIT_MASK(unit)))
		return FAIL("%s: %s cannot run on this unit", un, info->name);
	if (a->src1_reg > 31 || a->src2_reg > 31 || a->dst_reg > 31)
		return FAIL("%s: register number above 31", un);
	if (a->outmod > 3)
		return FAIL("%s: outmod %u does not fit 2 bits", un, a->outmod);
	if (mdg_unit_is_scalar(unit)) {
		if (a->ssrc1 > 0x3F || a->ssrc2 > 0x7FF || a->comp > 7)
			return FAIL("%s: scalar field out of range", un);
		if (!a->src2_imm && a->ssrc2 > 0x3F)
			return FAIL("%s: src2 bits [10:6] set without an immediate",
				    un);
		if (a->full && (a->comp & 1))
			return FAIL("%s: 32-bit result at odd 16-bit component %u",
				    un, a->comp);
		if (!scalar_src_ok(a->ssrc1) ||
		    (!a->src2_imm && !scalar_src_ok(a->ssrc2)))
			return FAIL("%s: 32-bit source at an odd 16-bit component",
				    un);
		return true;
	}
	if (a->reg_mode > 3 || a->src1 > 0x1FFF || a->src2 > 0x1FFF)
		return FAIL("%s: vector field out of range", un);
	if (a->shrink > MDG_SHRINK_NONE)
		return FAIL("%s: shrink mode 3 is reserved", un);
	if (!mdg_expand_valid(MDG_VSRC_EXPAND(a->src1), a->reg_mode))
		return FAIL("%s: src1 expand mode %u invalid in %u-bit mode", un,
			    MDG_VSRC_EXPAND(a->src1), 8u << a->reg_mode);
	if (a->src2_imm) {
		if (a->src2 & 3)
			return FAIL("%s: immediate src2 with modifier bits set",
				    un);
	} else if (!mdg_expand_valid(MDG_VSRC_EXPAND(a->src2), a->reg_mode)) {
		return FAIL("%s: src2 expand mode %u invalid in %u-bit mode", un,
			    MDG_VSRC_EXPAND(a->src2), 8u << a->reg_mode);
	}
	return true;
}

static bool next_tag_ok(unsigned int next)
{
	return next == MDG_TAG_BREAK || mdg_tag_kind(next) != MDG_KIND_INVALID;
}

/* ---- ALU bundles (docs/hardware.md §5.2-§5.7) ---- */

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static unsigned int encode_branch(const struct mdg_branch *br, uint8_t *p,
				  char *err, size_t err_size)
{
	uint64_t v;

	if (br->op != 1 && br->op != 2 && br->op != 4 && br->op != 6 &&
	    br->op != 7)
		return FAIL("branch op %u is not a known branch op", br->op);
	if (br->dest_tag > 15 || br->call_mode > 3 || br->cond > 3)
		return FAIL("branch field out of range");
	v = (uint64_t)br->op | (uint64_t)br->dest_tag << 3;
	if (br->extended) {
		if (br->offset < -(1 << 22) || br->offset >= (1 << 22))
			return FAIL("extended branch offset %d out of range",
				    br->offset);
		v |= (uint64_t)br->call_mode << 7 |
		     ((uint64_t)(uint32_t)br->offset & 0x7FFFFF) << 9 |
		     (uint64_t)br->cond_lut << 32;
		mdg_set_bits(p, 0, 48, v);
		return 6;
	}
	if (br->offset < -64 || br->offset > 63)
		return FAIL("compact branch offset %d out of range -64..63",
			    br->offset);
	if (br->op == MDG_BRANCH_OP_UNCOND)
		v |= (uint64_t)br->call_mode << 7 |
		     ((uint64_t)(uint32_t)br->offset & 0x7F) << 9;
	else
		v |= ((uint64_t)(uint32_t)br->offset & 0x7F) << 7 |
		     (uint64_t)br->cond << 14;
	mdg_set_bits(p, 0, 16, v);
	return 2;
}

static unsigned int encode_alu(const struct mdg_bundle *b, uint8_t *out,
			       size_t cap, char *err, size_t err_size)
{
	unsigned int content, qwords, tag, size, u, n;
	uint8_t *reg, *body;
	uint32_t control;

	if (b->units >> MDG_UNIT_COUNT)
		return FAIL("unknown unit bits 0x%02X", b->units);
	for (u = 0; u < MDG_UNIT_COUNT; u++)
		if ((b->units & MDG_UNIT_MASK(u)) &&
		    !mdg_check_alu(&b->alu[u], (enum mdg_unit)u, err, err_size))
			return 0;
	content = mdg_alu_content_bytes(b->units, b->has_branch,
					b->branch.extended);
	qwords = (content + 15) / 16 + (b->has_constants ? 1 : 0);
	/* The largest content (46 bytes) plus constants fits ALU_16. */
	tag = MDG_TAG_ALU4 + qwords - 1 + (b->tag >= MDG_TAG_ALU4_WRITEOUT ? 4 : 0);
	size = qwords * MDG_QUADWORD;
	if (cap < size)
		return FAIL("output buffer too small");
	memset(out, 0, size);

	control = tag | (uint32_t)b->next_tag << 4;
	for (u = 0; u < MDG_UNIT_COUNT; u++)
		if (b->units & MDG_UNIT_MASK(u))
			control |= MDG_CONTROL_UNIT_BIT(u);
	if (b->has_branch)
		control |= b->branch.extended ? MDG_CONTROL_BRANCH_EXTENDED :
						MDG_CONTROL_BRANCH_COMPACT;
	mdg_set_bits(out, 0, 32, control);

	reg = out + 4;
	body = reg;
	for (u = 0; u < MDG_UNIT_COUNT; u++)
		if (b->units & MDG_UNIT_MASK(u))
			body += 2;
	for (u = 0; u < MDG_UNIT_COUNT; u++) {
		const struct mdg_alu *a = &b->alu[u];

		if (!(b->units & MDG_UNIT_MASK(u)))
			continue;
		put16(reg, a->src1_reg | a->src2_reg << 5 | a->dst_reg << 10 |
			   (unsigned int)a->src2_imm << 15);
		reg += 2;
		if (mdg_unit_is_scalar((enum mdg_unit)u)) {
			mdg_set_bits(body, 0, 32,
				     (uint64_t)a->op | (uint64_t)a->ssrc1 << 8 |
				     (uint64_t)a->ssrc2 << 14 |
				     (uint64_t)a->outmod << 26 |
				     (uint64_t)a->full << 28 |
				     (uint64_t)a->comp << 29);
			body += 4;
		} else {
			mdg_set_bits(body, 0, 48,
				     (uint64_t)a->op | (uint64_t)a->reg_mode << 8 |
				     (uint64_t)a->src1 << 10 |
				     (uint64_t)a->src2 << 23 |
				     (uint64_t)a->shrink << 36 |
				     (uint64_t)a->outmod << 38 |
				     (uint64_t)a->mask << 40);
			body += 6;
		}
	}
	if (b->has_branch) {
		n = encode_branch(&b->branch, body, err, err_size);
		if (!n)
			return 0;
	}
	if (b->has_constants)
		for (u = 0; u < 4; u++)
			mdg_set_bits(out + size - 16, 32 * u, 32, b->constants[u]);
	return size;
}

/* ---- Load/store and texture bundles (docs/hardware.md §5.8, §5.9) ---- */

bool mdg_check_ldst(const struct mdg_ldst *w, unsigned int slot, char *err,
		    size_t err_size)
{
	if (!mdg_ldst_op_info(w->op))
		return FAIL("load/store word %u: unknown opcode 0x%02X", slot,
			    w->op);
	if (w->reg > 31 || w->mask > 15 || w->arg_comp > 3 || w->arg_reg > 7 ||
	    w->index_format > 3 || w->index_comp > 3 || w->index_reg > 7 ||
	    w->index_shift > 15)
		return FAIL("load/store word %u: field out of range", slot);
	if (w->offset < -(1 << 17) || w->offset >= (1 << 17))
		return FAIL("load/store word %u: offset %d does not fit 18 bits",
			    slot, w->offset);
	return true;
}

bool mdg_check_tex(const struct mdg_tex *t, unsigned int tag, char *err,
		   size_t err_size)
{
	const char *bad = mdg_tex_field_overflow(t);

	if (bad)
		return FAIL("texture field %s out of range", bad);
	if (!mdg_tex_op_name(t->op))
		return FAIL("unknown texture op %u", t->op);
	if ((t->op == MDG_TEX_OP_BARRIER) != (tag == MDG_TAG_TEXTURE_BARRIER))
		return FAIL("the barrier op goes with tag 4, and only it");
	if (t->op == MDG_TEX_OP_BARRIER) {
		struct mdg_tex z = { .op = t->op, .exec = t->exec,
				     .out_of_order = t->out_of_order };
		uint8_t a[16] = { 0 }, c[16] = { 0 };

		/* Only exec and out_of_order may be set in a barrier. */
		mdg_tex_pack(&z, a);
		mdg_tex_pack(t, c);
		if (memcmp(a, c, sizeof(a)))
			return FAIL("barrier with fields other than exec and "
				    "out_of_order set");
	}
	return true;
}

unsigned int mdg_encode_bundle(const struct mdg_bundle *b, uint8_t *out,
			       size_t cap, char *err, size_t err_size)
{
	enum mdg_bundle_kind kind = mdg_tag_kind(b->tag);

	if (kind == MDG_KIND_INVALID)
		return FAIL("tag %u cannot start a bundle", b->tag);
	if (!next_tag_ok(b->next_tag))
		return FAIL("next tag %u is invalid", b->next_tag);
	if (kind == MDG_KIND_ALU)
		return encode_alu(b, out, cap, err, err_size);
	if (cap < MDG_QUADWORD)
		return FAIL("output buffer too small");
	memset(out, 0, MDG_QUADWORD);
	if (kind == MDG_KIND_LDST) {
		if (!mdg_check_ldst(&b->ldst[0], 0, err, err_size) ||
		    !mdg_check_ldst(&b->ldst[1], 1, err, err_size))
			return 0;
		mdg_set_bits(out, 8, 60, mdg_ldst_pack(&b->ldst[0]));
		mdg_set_bits(out, 68, 60, mdg_ldst_pack(&b->ldst[1]));
	} else {
		if (!mdg_check_tex(&b->tex, b->tag, err, err_size))
			return 0;
		mdg_tex_pack(&b->tex, out);
	}
	out[0] = (uint8_t)(b->tag | b->next_tag << 4);
	return MDG_QUADWORD;
}
