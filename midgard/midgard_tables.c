/* SPDX-License-Identifier: MIT */
/*
 * What the opcodes of the Midgard ISA are called and where they may run: the
 * one table the encoder, decoder, printer, assembler and the GPU model's
 * interpreter all consult (facts: docs/hardware.md §5.5, §5.8, §5.9). Also
 * the bit layouts of the load/store and texture words as field tables, so
 * that packing, unpacking, printing and parsing cannot disagree.
 */
#include <string.h>

#include "midgard_internal.h"

/* ---- Tags (docs/hardware.md §5.1) ---- */

enum mdg_bundle_kind mdg_tag_kind(unsigned int tag)
{
	if (tag >= MDG_TAG_ALU4 && tag <= MDG_TAG_ALU16_WRITEOUT)
		return MDG_KIND_ALU;
	if (tag == MDG_TAG_LDST)
		return MDG_KIND_LDST;
	if (tag >= MDG_TAG_TEXTURE_VTX && tag <= MDG_TAG_TEXTURE_BARRIER)
		return MDG_KIND_TEXTURE;
	return MDG_KIND_INVALID;
}

unsigned int mdg_tag_size(unsigned int tag)
{
	switch (mdg_tag_kind(tag)) {
	case MDG_KIND_ALU:
		return MDG_QUADWORD * ((tag & 3) + 1);
	case MDG_KIND_LDST:
	case MDG_KIND_TEXTURE:
		return MDG_QUADWORD;
	default:
		return 0;
	}
}

/* ---- ALU ops (docs/hardware.md §5.5) ---- */

#define U_VMUL MDG_UNIT_MASK(MDG_UNIT_VMUL)
#define U_VADD MDG_UNIT_MASK(MDG_UNIT_VADD)
#define U_SMUL MDG_UNIT_MASK(MDG_UNIT_SMUL)
#define U_VLUT MDG_UNIT_MASK(MDG_UNIT_VLUT)
#define U_VEC (U_VMUL | U_VADD)

#define F_I (MDG_OP_INT_SRC | MDG_OP_INT_DST)
#define F_U (F_I | MDG_OP_UNSIGNED)
#define F_CMP MDG_OP_INT_DST                  /* float in, boolean out */
#define F_RED MDG_OP_REDUCE
#define F_1 MDG_OP_ONE_SRC
#define F_LUT (MDG_OP_LUT | MDG_OP_ONE_SRC)

static const struct mdg_alu_op_info alu_ops[256] = {
#define MDG_ALU_OP(id, code, mnemonic, u, f, round)                            \
	[code] = { .name = mnemonic, .units = (u), .flags = (f),               \
		   .rounding = (round) },
#include "midgard_ops.def"
#undef MDG_ALU_OP
};

const struct mdg_alu_op_info *mdg_alu_op_info(uint8_t op)
{
	return alu_ops[op].name ? &alu_ops[op] : NULL;
}

int mdg_alu_op_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < 256; i++)
		if (alu_ops[i].name && !strcmp(alu_ops[i].name, name))
			return (int)i;
	return -1;
}

/* ---- Load/store ops (docs/hardware.md §5.8) ---- */

#define L MDG_LDST_LOAD
#define S MDG_LDST_STORE
#define BE MDG_LDST_BIG_ENDIAN
#define SG MDG_LDST_SIGNED
#define GR MDG_LDST_GRAPHICS
#define RR MDG_LDST_REG_TO_REG
#define UB (MDG_LDST_LOAD | MDG_LDST_UBO)
#define AT MDG_LDST_ATOMIC

static const struct mdg_ldst_op_info ldst_ops[256] = {
#define MDG_LDST_OP(id, code, mnemonic, f, b)                                  \
	[code] = { .name = mnemonic, .flags = (f), .bytes = (b) },
#include "midgard_ops.def"
#undef MDG_LDST_OP
};

const struct mdg_ldst_op_info *mdg_ldst_op_info(uint8_t op)
{
	return ldst_ops[op].name ? &ldst_ops[op] : NULL;
}

int mdg_ldst_op_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < 256; i++)
		if (ldst_ops[i].name && !strcmp(ldst_ops[i].name, name))
			return (int)i;
	return -1;
}

enum mdg_ldst_class mdg_ldst_class(uint8_t op)
{
	const struct mdg_ldst_op_info *info = mdg_ldst_op_info(op);

	if (!info)
		return MDG_LDST_CLASS_RAW;
	if (op == MDG_LDST_NOP)
		return MDG_LDST_CLASS_NOP;
	if (op == MDG_LDST_MOV)
		return MDG_LDST_CLASS_MOVE;
	if (op == MDG_LDST_LEA)
		return MDG_LDST_CLASS_LOAD;
	if (info->flags & MDG_LDST_GRAPHICS)
		return MDG_LDST_CLASS_RAW;
	if (info->flags & MDG_LDST_UBO)
		return MDG_LDST_CLASS_UBO;
	if (info->flags & MDG_LDST_ATOMIC)
		return op >= MDG_LDST_ACMPXCHG_32 ? MDG_LDST_CLASS_CMPXCHG :
		       MDG_LDST_CLASS_ATOMIC;
	if (info->flags & MDG_LDST_LOAD)
		return MDG_LDST_CLASS_LOAD;
	if (info->flags & MDG_LDST_STORE)
		return MDG_LDST_CLASS_STORE;
	return MDG_LDST_CLASS_RAW;
}

const char *const mdg_ldst_sel_names[8] = {
	"r26", "r27", "pc_sp", "local_storage",
	"local_id", "group_id", "global_id", "zero",
};

const char *const mdg_unit_names[MDG_UNIT_COUNT] = {
	"vmul", "sadd", "vadd", "smul", "vlut",
};

/* ---- Texture ops (docs/hardware.md §5.9) ---- */

const char *mdg_tex_op_name(uint8_t op)
{
	switch (op) {
#define MDG_TEX_OP(id, code, mnemonic)                                         \
	case MDG_TEX_OP_##id: return mnemonic;
#include "midgard_ops.def"
#undef MDG_TEX_OP
	default: return NULL;
	}
}

/* ---- Word layouts ---- */

/* Bit positions inside the 60-bit load/store word (docs/hardware.md §5.8). */
const struct mdg_field mdg_ldst_fields[] = {
	{ "op", 0, 8 },
	{ "reg", 8, 5 },
	{ "mask", 13, 4 },
	{ "swizzle", 17, 8 },
	{ "arg_comp", 25, 2 },
	{ "arg_reg", 27, 3 },
	{ "toggle", 30, 1 },
	{ "index_format", 31, 2 },
	{ "index_comp", 33, 2 },
	{ "index_reg", 35, 3 },
	{ "index_shift", 38, 4 },
	{ "offset", 42, 18 },
	{ NULL, 0, 0 },
};

/* Bit positions inside the 128-bit texture bundle (docs/hardware.md §5.9); op
 * is 4 bits since every known op is below 16 (the barrier's 6-bit op view
 * overlaps mode[1:0], which must then be 0). */
const struct mdg_field mdg_tex_fields[] = {
	{ "op", 8, 4 },
	{ "mode", 12, 4 },
	{ "exec", 16, 2 },
	{ "format", 18, 2 },
	{ "sampler_register", 20, 1 },
	{ "texture_register", 21, 1 },
	{ "lod_register", 22, 1 },
	{ "offset_register", 23, 1 },
	{ "in_full", 24, 1 },
	{ "in_select", 25, 1 },
	{ "in_upper", 26, 1 },
	{ "in_swizzle", 27, 8 },
	{ "unknown8", 35, 2 },
	{ "out_full", 37, 1 },
	{ "sampler_type", 38, 2 },
	{ "out_select", 40, 1 },
	{ "out_upper", 41, 1 },
	{ "mask", 42, 4 },
	{ "outmod", 46, 2 },
	{ "swizzle", 48, 8 },
	{ "out_of_order", 56, 4 },
	{ "unknown4", 60, 8 },
	{ "offset", 68, 12 },
	{ "bias", 80, 8 },
	{ "bias_int", 88, 8 },
	{ "sampler_handle", 96, 16 },
	{ "texture_handle", 112, 16 },
	{ NULL, 0, 0 },
};

uint64_t mdg_ldst_pack(const struct mdg_ldst *w)
{
	return (uint64_t)w->op | (uint64_t)(w->reg & 0x1F) << 8 |
	       (uint64_t)(w->mask & 0xF) << 13 | (uint64_t)w->swizzle << 17 |
	       (uint64_t)(w->arg_comp & 3) << 25 |
	       (uint64_t)(w->arg_reg & 7) << 27 |
	       (uint64_t)w->bitsize_toggle << 30 |
	       (uint64_t)(w->index_format & 3) << 31 |
	       (uint64_t)(w->index_comp & 3) << 33 |
	       (uint64_t)(w->index_reg & 7) << 35 |
	       (uint64_t)(w->index_shift & 0xF) << 38 |
	       ((uint64_t)(uint32_t)w->offset & 0x3FFFF) << 42;
}

void mdg_ldst_unpack(uint64_t b, struct mdg_ldst *w)
{
	w->op = b & 0xFF;
	w->reg = (b >> 8) & 0x1F;
	w->mask = (b >> 13) & 0xF;
	w->swizzle = (b >> 17) & 0xFF;
	w->arg_comp = (b >> 25) & 3;
	w->arg_reg = (b >> 27) & 7;
	w->bitsize_toggle = (b >> 30) & 1;
	w->index_format = (b >> 31) & 3;
	w->index_comp = (b >> 33) & 3;
	w->index_reg = (b >> 35) & 7;
	w->index_shift = (b >> 38) & 0xF;
	w->offset = (int32_t)mdg_sext(b >> 42, 18);
}

/* The texture struct's members, in mdg_tex_fields order. */
#define TEX_MEMBERS(X)                                                         \
	X(op) X(mode) X(exec) X(format) X(sampler_register)                    \
	X(texture_register) X(lod_register) X(offset_register) X(in_full)      \
	X(in_select) X(in_upper) X(in_swizzle) X(unknown8) X(out_full)         \
	X(sampler_type) X(out_select) X(out_upper) X(mask) X(outmod)           \
	X(swizzle) X(out_of_order) X(unknown4) X(offset) X(bias) X(bias_int)   \
	X(sampler_handle) X(texture_handle)

void mdg_tex_pack(const struct mdg_tex *t, uint8_t out[16])
{
	const struct mdg_field *f = mdg_tex_fields;

#define PACK(m) mdg_set_bits(out, f->lo, f->width, (uint64_t)t->m); f++;
	TEX_MEMBERS(PACK)
#undef PACK
}

void mdg_tex_unpack(const uint8_t in[16], struct mdg_tex *t)
{
	const struct mdg_field *f = mdg_tex_fields;

#define UNPACK(m)                                                              \
	t->m = (__typeof__(t->m))mdg_get_bits(in, f->lo, f->width); f++;
	TEX_MEMBERS(UNPACK)
#undef UNPACK
}

/* ---- fp16 ---- */

float mdg_half_to_float(uint16_t h)
{
	unsigned int e = (h >> 10) & 0x1F, m = h & 0x3FF;
	float v;

	if (e == 0)
		v = (float)m / 16777216.0f;                 /* m * 2^-24 */
	else if (e == 31)
		v = m ? __builtin_nanf("") : __builtin_inff();
	else
		v = (float)(m | 0x400) * (float)(1u << e) / 33554432.0f;
	return (h & 0x8000) ? -v : v;
}

bool mdg_float_to_half(float f, uint16_t *h)
{
	uint32_t b, mant, full;
	int exp;
	uint16_t sign, r;

	memcpy(&b, &f, 4);
	sign = (uint16_t)((b >> 16) & 0x8000);
	exp = (int)((b >> 23) & 0xFF) - 127;
	mant = b & 0x7FFFFF;
	if (exp == 128) {
		if (mant)
			return false;                       /* NaN: no one value */
		r = sign | 0x7C00;
	} else if (exp == -127 && !mant) {
		r = sign;
	} else if (exp >= -14 && exp <= 15) {
		if (mant & 0x1FFF)
			return false;
		r = (uint16_t)(sign | (exp + 15) << 10 | mant >> 13);
	} else if (exp >= -24 && exp < -14) {
		unsigned int shift = (unsigned int)(-(exp + 1));

		full = 0x800000 | mant;
		if (full & ((1u << shift) - 1))
			return false;
		r = (uint16_t)(sign | full >> shift);
	} else {
		return false;
	}
	/* Belt and braces: the result must convert back exactly. */
	if (mdg_half_to_float(r) != f)
		return false;
	*h = r;
	return true;
}

const char *mdg_tex_field_overflow(const struct mdg_tex *t)
{
	const struct mdg_field *f = mdg_tex_fields;

#define CHECK_FIT(m)                                                           \
	if (f->width < 8 * sizeof(t->m) && ((uint64_t)t->m >> f->width))    \
		return f->name;                                                \
	f++;
	TEX_MEMBERS(CHECK_FIT)
#undef CHECK_FIT
	return NULL;
}
