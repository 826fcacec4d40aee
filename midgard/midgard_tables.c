/* SPDX-License-Identifier: MIT */
/*
 * What the opcodes of the Midgard ISA are called and where they may run: the
 * one table the encoder, decoder, printer, assembler and the GPU model's
 * interpreter all consult (facts: midgard-facts.md §5.5, §5.8, §5.9). Also
 * the bit layouts of the load/store and texture words as field tables, so
 * that packing, unpacking, printing and parsing cannot disagree.
 */
#include <string.h>

#include "midgard_internal.h"

/* ---- Tags (§5.1) ---- */

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

/* ---- ALU ops (§5.5) ---- */

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

#define OP(code, nm, u, f) [code] = { .name = nm, .units = (u), .flags = (f) }
/* Four consecutive rounding variants of one op. */
#define OP4(code, n0, n1, n2, n3, u, f)                                        \
	[code] = { n0, (u), (f) | MDG_OP_ROUND_MODES, 0 },                     \
	[code + 1] = { n1, (u), (f), 1 },                                      \
	[code + 2] = { n2, (u), (f), 2 },                                      \
	[code + 3] = { n3, (u), (f), 3 }

static const struct mdg_alu_op_info alu_ops[256] = {
	OP4(0x10, "fadd", "fadd_rtz", "fadd_rtn", "fadd_rtp", MDG_UNITS_ADD, 0),
	OP4(0x14, "fmul", "fmul_rtz", "fmul_rtn", "fmul_rtp",
	    MDG_UNITS_MUL | U_VLUT, 0),
	OP(0x28, "fmin", MDG_UNITS_MOST, 0),
	OP(0x29, "fmin_nan", MDG_UNITS_MOST, 0),
	OP(0x2A, "fabsmin", MDG_UNITS_MOST, 0),
	OP(0x2B, "fabsmin_nan", MDG_UNITS_MOST, 0),
	OP(0x2C, "fmax", MDG_UNITS_MOST, 0),
	OP(0x2D, "fmax_nan", MDG_UNITS_MOST, 0),
	OP(0x2E, "fabsmax", MDG_UNITS_MOST, 0),
	OP(0x2F, "fabsmax_nan", MDG_UNITS_MOST, 0),
	OP4(0x30, "fmov", "fmov_rtz", "fmov_rtn", "fmov_rtp", MDG_UNITS_ALL,
	    MDG_OP_SRC2_ONLY),
	OP(0x34, "froundeven", MDG_UNITS_ADD, F_1),
	OP(0x35, "ftrunc", MDG_UNITS_ADD, F_1),
	OP(0x36, "ffloor", MDG_UNITS_ADD, F_1),
	OP(0x37, "fceil", MDG_UNITS_ADD, F_1),
	/* Multiplies X and Y of src1 and adds src2: scalar, VLUT only. */
	OP4(0x38, "ffma", "ffma_rtz", "ffma_rtn", "ffma_rtp", U_VLUT,
	    MDG_OP_LUT),
	OP(0x3C, "fdot3", U_VMUL, F_RED),
	OP(0x3D, "fdot3r", U_VMUL, F_RED),
	OP(0x3E, "fdot4", U_VMUL, F_RED),
	/* Known opcode that no unit is known to accept: never valid. */
	OP(0x3F, "freduce", 0, 0),
	OP(0x40, "iadd", MDG_UNITS_MOST, F_I),
	OP(0x41, "ishladd", MDG_UNITS_MUL, F_I),
	OP(0x46, "isub", MDG_UNITS_MOST, F_I),
	OP(0x47, "ishlsub", MDG_UNITS_MUL, F_I),
	OP(0x48, "iaddsat", MDG_UNITS_ADD, F_I),
	OP(0x49, "uaddsat", MDG_UNITS_ADD, F_U),
	OP(0x4E, "isubsat", MDG_UNITS_ADD, F_I),
	OP(0x4F, "usubsat", MDG_UNITS_ADD, F_U),
	OP(0x58, "imul", MDG_UNITS_MUL, F_I),
	OP(0x59, "iwmul", U_VMUL, F_I),
	OP(0x5A, "uwmul", U_VMUL, F_U),
	OP(0x5B, "iuwmul", U_VMUL, F_I),
	OP(0x60, "imin", MDG_UNITS_MOST, F_I),
	OP(0x61, "umin", MDG_UNITS_MOST, F_U),
	OP(0x62, "imax", MDG_UNITS_MOST, F_I),
	OP(0x63, "umax", MDG_UNITS_MOST, F_U),
	OP(0x64, "iavg", MDG_UNITS_ADD, F_I),
	OP(0x65, "uavg", MDG_UNITS_ADD, F_U),
	OP(0x66, "iravg", MDG_UNITS_ADD, F_I),
	OP(0x67, "uravg", MDG_UNITS_ADD, F_U),
	OP(0x68, "iasr", MDG_UNITS_ADD, F_I),
	OP(0x69, "ilsr", MDG_UNITS_ADD, F_I),
	OP(0x6C, "ishlsat", MDG_UNITS_ADD, F_I),
	OP(0x6D, "ushlsat", MDG_UNITS_ADD, F_U),
	OP(0x6E, "ishl", MDG_UNITS_ADD, F_I),
	OP(0x70, "iand", MDG_UNITS_MOST, F_I),
	OP(0x71, "ior", MDG_UNITS_MOST, F_I),
	OP(0x72, "inand", MDG_UNITS_MOST, F_I),
	OP(0x73, "inor", MDG_UNITS_MOST, F_I),
	OP(0x74, "iandnot", MDG_UNITS_MOST, F_I),
	OP(0x75, "iornot", MDG_UNITS_MOST, F_I),
	OP(0x76, "ixor", MDG_UNITS_MOST, F_I),
	OP(0x77, "inxor", MDG_UNITS_MOST, F_I),
	OP(0x78, "iclz", MDG_UNITS_ADD, F_I | F_1),
	OP(0x7A, "ipopcnt", U_VADD, F_I | F_1),
	OP(0x7B, "imov", MDG_UNITS_ALL, F_I | MDG_OP_SRC2_ONLY),
	OP(0x7C, "iabsdiff", MDG_UNITS_ADD, F_I),
	OP(0x7D, "uabsdiff", MDG_UNITS_ADD, F_U),
	OP(0x7E, "ichoose", MDG_UNITS_ADD, F_I),
	OP(0x80, "feq", MDG_UNITS_MOST, F_CMP),
	OP(0x81, "fne", MDG_UNITS_MOST, F_CMP),
	OP(0x82, "flt", MDG_UNITS_MOST, F_CMP),
	OP(0x83, "fle", MDG_UNITS_MOST, F_CMP),
	OP(0x88, "fball_eq", U_VEC, F_CMP | F_RED),
	OP(0x89, "fball_neq", U_VEC, F_CMP | F_RED),
	OP(0x8A, "fball_lt", U_VEC, F_CMP | F_RED),
	OP(0x8B, "fball_lte", U_VEC, F_CMP | F_RED),
	OP(0x90, "fbany_eq", U_VEC, F_CMP | F_RED),
	OP(0x91, "fbany_neq", U_VEC, F_CMP | F_RED),
	OP(0x92, "fbany_lt", U_VEC, F_CMP | F_RED),
	OP(0x93, "fbany_lte", U_VEC, F_CMP | F_RED),
	OP4(0x98, "f2i_rte", "f2i_rtz", "f2i_rtn", "f2i_rtp", MDG_UNITS_ADD,
	    MDG_OP_INT_DST | F_1),
	OP4(0x9C, "f2u_rte", "f2u_rtz", "f2u_rtn", "f2u_rtp", MDG_UNITS_ADD,
	    MDG_OP_INT_DST | F_1),
	OP(0xA0, "ieq", MDG_UNITS_MOST, F_I),
	OP(0xA1, "ine", MDG_UNITS_MOST, F_I),
	OP(0xA2, "ult", MDG_UNITS_MOST, F_U),
	OP(0xA3, "ule", MDG_UNITS_MOST, F_U),
	OP(0xA4, "ilt", MDG_UNITS_MOST, F_I),
	OP(0xA5, "ile", MDG_UNITS_MOST, F_I),
	OP(0xA8, "iball_eq", U_VEC, F_I | F_RED),
	OP(0xA9, "iball_neq", U_VEC, F_I | F_RED),
	OP(0xAA, "uball_lt", U_VEC, F_U | F_RED),
	OP(0xAB, "uball_lte", U_VEC, F_U | F_RED),
	OP(0xAC, "iball_lt", U_VEC, F_I | F_RED),
	OP(0xAD, "iball_lte", U_VEC, F_I | F_RED),
	OP(0xB0, "ibany_eq", U_VEC, F_I | F_RED),
	OP(0xB1, "ibany_neq", U_VEC, F_I | F_RED),
	OP(0xB2, "ubany_lt", U_VEC, F_U | F_RED),
	OP(0xB3, "ubany_lte", U_VEC, F_U | F_RED),
	OP(0xB4, "ibany_lt", U_VEC, F_I | F_RED),
	OP(0xB5, "ibany_lte", U_VEC, F_I | F_RED),
	OP4(0xB8, "i2f_rte", "i2f_rtz", "i2f_rtn", "i2f_rtp", MDG_UNITS_ADD,
	    MDG_OP_INT_SRC | F_1),
	OP4(0xBC, "u2f_rte", "u2f_rtz", "u2f_rtn", "u2f_rtp", MDG_UNITS_ADD,
	    MDG_OP_INT_SRC | MDG_OP_UNSIGNED | F_1),
	OP(0xC0, "icsel_v", U_VADD | U_SMUL, F_I | MDG_OP_CSEL),
	OP(0xC1, "icsel", U_VADD | U_SMUL, F_I | MDG_OP_CSEL),
	OP(0xC4, "fcsel_v", U_VADD | U_SMUL, MDG_OP_CSEL),
	OP(0xC5, "fcsel", U_VADD | U_SMUL, MDG_OP_CSEL),
	OP(0xC6, "froundaway", MDG_UNITS_ADD, F_1),
	OP(0xE8, "fatan2_pt2", U_VLUT, MDG_OP_LUT),
	OP(0xEC, "fpow_pt1", U_VLUT, MDG_OP_LUT),
	OP(0xED, "fpown_pt1", U_VLUT, MDG_OP_LUT),
	OP(0xEE, "fpowr_pt1", U_VLUT, MDG_OP_LUT),
	OP(0xF0, "frcp", U_VLUT, F_LUT),
	OP(0xF2, "frsqrt", U_VLUT, F_LUT),
	OP(0xF3, "fsqrt", U_VLUT, F_LUT),
	OP(0xF4, "fexp2", U_VLUT, F_LUT),
	OP(0xF5, "flog2", U_VLUT, F_LUT),
	OP(0xF6, "fsinpi", U_VLUT, F_LUT),
	OP(0xF7, "fcospi", U_VLUT, F_LUT),
	OP(0xF9, "fatan2_pt1", U_VLUT, MDG_OP_LUT),
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

/* ---- Load/store ops (§5.8) ---- */

#define L MDG_LDST_LOAD
#define S MDG_LDST_STORE
#define BE MDG_LDST_BIG_ENDIAN
#define SG MDG_LDST_SIGNED
#define GR MDG_LDST_GRAPHICS
#define RR MDG_LDST_REG_TO_REG
#define UB (MDG_LDST_LOAD | MDG_LDST_UBO)
#define AT MDG_LDST_ATOMIC

#define LS(code, nm, f, b) [code] = { .name = nm, .flags = (f), .bytes = (b) }
/* One atomic op's four variants: 32, 64, 32 big-endian, 64 big-endian. */
#define ATOMIC(code, nm)                                                       \
	LS(code, nm ".32", AT, 4), LS(code + 1, nm ".64", AT, 8),              \
	LS(code + 2, nm ".32.be", AT | BE, 4),                                 \
	LS(code + 3, nm ".64.be", AT | BE, 8)

static const struct mdg_ldst_op_info ldst_ops[256] = {
	LS(0x03, "nop", 0, 0),
	LS(0x04, "unpack.f32", RR | GR, 0),
	LS(0x05, "unpack.f16", RR | GR, 0),
	LS(0x06, "unpack.u32", RR | GR, 0),
	LS(0x07, "unpack.s32", RR | GR, 0),
	LS(0x08, "pack.f32", RR | GR, 0),
	LS(0x09, "pack.f16", RR | GR, 0),
	LS(0x0A, "pack.u32", RR | GR, 0),
	LS(0x0B, "pack.s32", RR | GR, 0),
	LS(0x0C, "lea", 0, 0),
	LS(0x0D, "lea_image", GR, 0),
	LS(0x0E, "cubemap", RR | GR, 0),
	LS(0x10, "mov", RR, 0),
	LS(0x11, "pdiv_y", RR | GR, 0),
	LS(0x12, "pdiv_z", RR | GR, 0),
	LS(0x13, "pdiv_w", RR | GR, 0),
	ATOMIC(0x40, "aadd"),
	ATOMIC(0x44, "aand"),
	ATOMIC(0x48, "aor"),
	ATOMIC(0x4C, "axor"),
	ATOMIC(0x50, "aimin"),
	ATOMIC(0x54, "aumin"),
	ATOMIC(0x58, "aimax"),
	ATOMIC(0x5C, "aumax"),
	ATOMIC(0x60, "axchg"),
	ATOMIC(0x64, "acmpxchg"),
	LS(0x80, "ld.u8", L, 1),
	LS(0x81, "ld.s8", L | SG, 1),
	LS(0x84, "ld.u16", L, 2),
	LS(0x85, "ld.s16", L | SG, 2),
	LS(0x86, "ld.u16.be", L | BE, 2),
	LS(0x87, "ld.s16.be", L | SG | BE, 2),
	LS(0x88, "ld.32", L, 4),
	LS(0x89, "ld.32.bswap2", L | BE, 4),
	LS(0x8A, "ld.32.bswap4", L | BE, 4),
	LS(0x8C, "ld.64", L, 8),
	LS(0x8D, "ld.64.bswap2", L | BE, 8),
	LS(0x8E, "ld.64.bswap4", L | BE, 8),
	LS(0x8F, "ld.64.bswap8", L | BE, 8),
	LS(0x90, "ld.128", L, 16),
	LS(0x91, "ld.128.bswap2", L | BE, 16),
	LS(0x92, "ld.128.bswap4", L | BE, 16),
	LS(0x93, "ld.128.bswap8", L | BE, 16),
	LS(0x94, "ld_attr.f32", L | GR, 0),
	LS(0x95, "ld_attr.f16", L | GR, 0),
	LS(0x96, "ld_attr.u32", L | GR, 0),
	LS(0x97, "ld_attr.s32", L | GR, 0),
	LS(0x98, "ld_vary.f32", L | GR, 0),
	LS(0x99, "ld_vary.f16", L | GR, 0),
	LS(0x9A, "ld_vary.u32", L | GR, 0),
	LS(0x9B, "ld_vary.s32", L | GR, 0),
	LS(0x9C, "ld_special.f32", L | GR, 0),
	LS(0x9D, "ld_special.f16", L | GR, 0),
	LS(0x9E, "ld_special.u32", L | GR, 0),
	LS(0x9F, "ld_special.s32", L | GR, 0),
	LS(0xA0, "ld_ubo.u8", UB, 1),
	LS(0xA1, "ld_ubo.s8", UB | SG, 1),
	LS(0xA4, "ld_ubo.u16", UB, 2),
	LS(0xA5, "ld_ubo.s16", UB | SG, 2),
	LS(0xA6, "ld_ubo.u16.be", UB | BE, 2),
	LS(0xA7, "ld_ubo.s16.be", UB | SG | BE, 2),
	LS(0xA8, "ld_ubo.32", UB, 4),
	LS(0xA9, "ld_ubo.32.bswap2", UB | BE, 4),
	LS(0xAA, "ld_ubo.32.bswap4", UB | BE, 4),
	LS(0xAC, "ld_ubo.64", UB, 8),
	LS(0xAD, "ld_ubo.64.bswap2", UB | BE, 8),
	LS(0xAE, "ld_ubo.64.bswap4", UB | BE, 8),
	LS(0xAF, "ld_ubo.64.bswap8", UB | BE, 8),
	LS(0xB0, "ld_ubo.128", UB, 16),
	LS(0xB1, "ld_ubo.128.bswap2", UB | BE, 16),
	LS(0xB2, "ld_ubo.128.bswap4", UB | BE, 16),
	LS(0xB3, "ld_ubo.128.bswap8", UB | BE, 16),
	LS(0xB4, "ld_image.f32", L | GR, 0),
	LS(0xB5, "ld_image.f16", L | GR, 0),
	LS(0xB6, "ld_image.u32", L | GR, 0),
	LS(0xB7, "ld_image.s32", L | GR, 0),
	LS(0xB8, "ld_tilebuffer.f32", L | GR, 0),
	LS(0xB9, "ld_tilebuffer.f16", L | GR, 0),
	LS(0xBA, "ld_tilebuffer.raw", L | GR, 0),
	LS(0xC0, "st.u8", S, 1),
	LS(0xC1, "st.s8", S, 1),
	LS(0xC4, "st.u16", S, 2),
	LS(0xC5, "st.s16", S, 2),
	LS(0xC6, "st.u16.be", S | BE, 2),
	LS(0xC7, "st.s16.be", S | BE, 2),
	LS(0xC8, "st.32", S, 4),
	LS(0xC9, "st.32.bswap2", S | BE, 4),
	LS(0xCA, "st.32.bswap4", S | BE, 4),
	LS(0xCC, "st.64", S, 8),
	LS(0xCD, "st.64.bswap2", S | BE, 8),
	LS(0xCE, "st.64.bswap4", S | BE, 8),
	LS(0xCF, "st.64.bswap8", S | BE, 8),
	LS(0xD0, "st.128", S, 16),
	LS(0xD1, "st.128.bswap2", S | BE, 16),
	LS(0xD2, "st.128.bswap4", S | BE, 16),
	LS(0xD3, "st.128.bswap8", S | BE, 16),
	LS(0xD4, "st_vary.f32", S | GR, 0),
	LS(0xD5, "st_vary.f16", S | GR, 0),
	LS(0xD6, "st_vary.u32", S | GR, 0),
	LS(0xD7, "st_vary.s32", S | GR, 0),
	LS(0xD8, "st_image.f32", S | GR, 0),
	LS(0xD9, "st_image.f16", S | GR, 0),
	LS(0xDA, "st_image.u32", S | GR, 0),
	LS(0xDB, "st_image.s32", S | GR, 0),
	LS(0xDC, "st_special.f32", S | GR, 0),
	LS(0xDD, "st_special.f16", S | GR, 0),
	LS(0xDE, "st_special.u32", S | GR, 0),
	LS(0xDF, "st_special.s32", S | GR, 0),
	LS(0xE8, "st_tilebuffer.f32", S | GR, 0),
	LS(0xE9, "st_tilebuffer.f16", S | GR, 0),
	LS(0xEA, "st_tilebuffer.raw", S | GR, 0),
	LS(0xFC, "trap", 0, 0),
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
	if (op == 0x10)
		return MDG_LDST_CLASS_MOVE;
	if (op == 0x0C)
		return MDG_LDST_CLASS_LOAD;
	if (info->flags & MDG_LDST_GRAPHICS)
		return MDG_LDST_CLASS_RAW;
	if (info->flags & MDG_LDST_UBO)
		return MDG_LDST_CLASS_UBO;
	if (info->flags & MDG_LDST_ATOMIC)
		return op >= 0x64 ? MDG_LDST_CLASS_CMPXCHG : MDG_LDST_CLASS_ATOMIC;
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

/* ---- Texture ops (§5.9) ---- */

const char *mdg_tex_op_name(uint8_t op)
{
	switch (op) {
	case MDG_TEX_OP_NORMAL: return "normal";
	case MDG_TEX_OP_GRADIENT: return "gradient";
	case MDG_TEX_OP_FETCH: return "fetch";
	case MDG_TEX_OP_DERIV_TO_GRAD: return "deriv_to_grad";
	case MDG_TEX_OP_MOV: return "mov";
	case MDG_TEX_OP_BARRIER: return "barrier";
	case MDG_TEX_OP_COORDS_TO_GRAD: return "coords_to_grad";
	case MDG_TEX_OP_DERIVATIVE: return "derivative";
	default: return NULL;
	}
}

/* ---- Word layouts ---- */

/* Bit positions inside the 60-bit load/store word (§5.8). */
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

/* Bit positions inside the 128-bit texture bundle (§5.9); op is 4 bits
 * since every known op is below 16 (the barrier's 6-bit op view overlaps
 * mode[1:0], which must then be 0). */
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
