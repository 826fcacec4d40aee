/* SPDX-License-Identifier: MIT */
/*
 * The Midgard ISA (Mali T6xx/T7xx/T8xx shader cores), as one shared
 * definition for the assembler, disassembler, compiler back end, firmware and
 * the GPU model's interpreter. Facts: docs/hardware.md §5.
 *
 * A bundle is decoded into struct mdg_bundle, whose fields are the raw
 * bit-fields of the encoding (not an interpretation of them), so that
 * mdg_encode_bundle(mdg_decode_bundle(x)) reproduces x bit for bit. What the
 * fields mean is described by the tables (mdg_alu_op_info() and friends) and
 * by midgard/README.md.
 *
 * No allocation, no global state: every function here is safe to call from
 * several threads and from QEMU.
 */
#ifndef SLEIPNIR_MIDGARD_ISA_H
#define SLEIPNIR_MIDGARD_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Bundles and tags (docs/hardware.md §5.1) ---- */

enum mdg_tag {
	MDG_TAG_INVALID = 0x0,
	MDG_TAG_BREAK = 0x1,          /* only as a next tag: end of shader */
	MDG_TAG_TEXTURE_VTX = 0x2,
	MDG_TAG_TEXTURE = 0x3,
	MDG_TAG_TEXTURE_BARRIER = 0x4,
	MDG_TAG_LDST = 0x5,
	MDG_TAG_ALU4 = 0x8,           /* ALU bundles: 0x8 + quadwords - 1 */
	MDG_TAG_ALU16 = 0xB,
	MDG_TAG_ALU4_WRITEOUT = 0xC,
	MDG_TAG_ALU16_WRITEOUT = 0xF,
};

/* Bundles are multiples of this many bytes; the largest is 4 of them. */
#define MDG_QUADWORD 16
#define MDG_MAX_BUNDLE_BYTES 64

enum mdg_bundle_kind {
	MDG_KIND_INVALID,
	MDG_KIND_ALU,
	MDG_KIND_LDST,
	MDG_KIND_TEXTURE,
};

/* The kind of bundle a tag starts, MDG_KIND_INVALID for 0, 1, 6 and 7. */
enum mdg_bundle_kind mdg_tag_kind(unsigned int tag);
/* Size in bytes of the bundle a tag starts (0 when the tag is invalid). */
unsigned int mdg_tag_size(unsigned int tag);

/* ---- ALU words (docs/hardware.md §5.2-§5.5) ---- */

/* The ALU units, in the order their words appear in a bundle. */
enum mdg_unit {
	MDG_UNIT_VMUL,
	MDG_UNIT_SADD,
	MDG_UNIT_VADD,
	MDG_UNIT_SMUL,
	MDG_UNIT_VLUT,
	MDG_UNIT_COUNT,
};

#define MDG_UNIT_MASK(u) (1u << (u))
#define MDG_UNITS_ADD (MDG_UNIT_MASK(MDG_UNIT_VADD) | MDG_UNIT_MASK(MDG_UNIT_SADD))
#define MDG_UNITS_MUL (MDG_UNIT_MASK(MDG_UNIT_VMUL) | MDG_UNIT_MASK(MDG_UNIT_SMUL))
#define MDG_UNITS_MOST (MDG_UNITS_ADD | MDG_UNITS_MUL)
#define MDG_UNITS_ALL (MDG_UNITS_MOST | MDG_UNIT_MASK(MDG_UNIT_VLUT))

static inline bool mdg_unit_is_scalar(enum mdg_unit unit)
{
	return unit == MDG_UNIT_SADD || unit == MDG_UNIT_SMUL;
}

/* Control-word bit that enables a unit. */
#define MDG_CONTROL_UNIT_BIT(u) (1u << (17 + 2 * (u)))
#define MDG_CONTROL_BRANCH_COMPACT (1u << 26)
#define MDG_CONTROL_BRANCH_EXTENDED (1u << 27)

enum mdg_reg_mode {
	MDG_REG_MODE_8,
	MDG_REG_MODE_16,
	MDG_REG_MODE_32,
	MDG_REG_MODE_64,
};

enum mdg_shrink {
	MDG_SHRINK_LOWER,
	MDG_SHRINK_UPPER,
	MDG_SHRINK_NONE,
};

/* Output modifiers: float ops and integer ops read the same 2 bits. */
enum mdg_outmod_float {
	MDG_OUTMOD_NONE,
	MDG_OUTMOD_CLAMP_POS,         /* [0, +inf), NaN -> +0 */
	MDG_OUTMOD_CLAMP_M1_1,        /* [-1, 1], NaN -> -1 */
	MDG_OUTMOD_CLAMP_0_1,         /* [0, 1], NaN -> +0 */
};

enum mdg_outmod_int {
	MDG_OUTMOD_SAT_SIGNED,
	MDG_OUTMOD_SAT_UNSIGNED,
	MDG_OUTMOD_KEEP_LOW,
	MDG_OUTMOD_KEEP_HIGH,
};

/* Special registers as ALU operands (docs/hardware.md §5.6). */
#define MDG_REG_PIPE0 24              /* also "no register" */
#define MDG_REG_PIPE1 25
#define MDG_REG_CONST 26              /* ALU source: embedded constants */
#define MDG_REG_LDST0 26              /* ALU destination: load/store arg */
#define MDG_REG_LDST1 27
#define MDG_REG_TEX0 28
#define MDG_REG_TEX1 29
#define MDG_REG_COND 31

/* enum mdg_alu_op: MDG_ALU_FADD, MDG_ALU_IMOV, ... (midgard_ops.def). */
enum mdg_alu_op {
#define MDG_ALU_OP(name, code, mnemonic, units, flags, rounding) \
	MDG_ALU_##name = code,
#include "midgard_ops.def"
#undef MDG_ALU_OP
};

/* A vector source descriptor (13 bits) split into its fields. */
#define MDG_VSRC_MOD(d) ((d) & 3u)
#define MDG_VSRC_EXPAND(d) (((d) >> 2) & 7u)
#define MDG_VSRC_SWIZZLE(d) (((d) >> 5) & 0xFFu)
#define MDG_VSRC(mod, expand, swizzle) \
	((uint16_t)((mod) | (expand) << 2 | (swizzle) << 5))
/* A scalar source descriptor (6 bits). */
#define MDG_SSRC_MOD(d) ((d) & 3u)
#define MDG_SSRC_FULL(d) (((d) >> 2) & 1u)
#define MDG_SSRC_COMP(d) (((d) >> 3) & 7u)   /* in 16-bit units */

/*
 * One ALU instruction, on any unit. Which of the layout-specific fields are
 * meaningful depends on the unit (vector: VMUL, VADD, VLUT; scalar: SADD,
 * SMUL). The register word's fields come first.
 */
struct mdg_alu {
	/* Register word. */
	uint8_t src1_reg;             /* 0-31 */
	uint8_t src2_reg;             /* 0-31; immediate bits [15:11] if src2_imm */
	uint8_t dst_reg;              /* 0-31 */
	bool src2_imm;
	/* Common. */
	uint8_t op;                   /* enum mdg_alu_op */
	uint8_t outmod;               /* enum mdg_outmod_float / _int */
	/* Vector layout (48 bits). */
	uint8_t reg_mode;             /* enum mdg_reg_mode */
	uint16_t src1;                /* 13-bit source descriptor */
	uint16_t src2;                /* 13-bit descriptor or immediate bits */
	uint8_t shrink;               /* enum mdg_shrink */
	uint8_t mask;                 /* one bit per 16-bit lane */
	/* Scalar layout (32 bits). */
	uint8_t ssrc1;                /* 6-bit scalar source */
	uint16_t ssrc2;               /* 6-bit source or 11-bit immediate bits */
	bool full;                    /* 32-bit result */
	uint8_t comp;                 /* output component, 16-bit units */
};

/* The 16-bit inline immediate an instruction with src2_imm carries. */
uint16_t mdg_alu_immediate(const struct mdg_alu *alu, enum mdg_unit unit);
/* Sets src2_reg and src2 / ssrc2 so that the instruction carries imm. */
void mdg_alu_set_immediate(struct mdg_alu *alu, enum mdg_unit unit,
			   uint16_t imm);

/* ---- Branches (docs/hardware.md §5.7) ---- */

enum mdg_branch_op {
	MDG_BRANCH_OP_UNCOND = 1,
	MDG_BRANCH_OP_COND = 2,
	MDG_BRANCH_OP_DISCARD = 4,
	MDG_BRANCH_OP_TILEBUFFER = 6,
	MDG_BRANCH_OP_WRITEOUT = 7,
};

enum mdg_branch_cond {
	MDG_COND_WRITE0 = 0,
	MDG_COND_FALSE = 1,           /* branch if r31.w is false */
	MDG_COND_TRUE = 2,            /* branch if r31.w is true */
	MDG_COND_ALWAYS = 3,
};

struct mdg_branch {
	bool extended;
	uint8_t op;                   /* enum mdg_branch_op */
	uint8_t dest_tag;
	uint8_t call_mode;            /* unconditional compact, extended */
	uint8_t cond;                 /* conditional compact */
	int32_t offset;               /* quadwords from the next bundle */
	uint16_t cond_lut;            /* extended: truth table */
};

/* ---- Load/store words (docs/hardware.md §5.8) ---- */

/* Read-selectors for arg_reg, index_reg and atomic operands. */
enum mdg_ldst_sel {
	MDG_LDST_SEL_R26,
	MDG_LDST_SEL_R27,
	MDG_LDST_SEL_PC_SP,
	MDG_LDST_SEL_LOCAL_STORAGE,   /* .xy TLS pointer, .zw WLS pointer */
	MDG_LDST_SEL_LOCAL_ID,
	MDG_LDST_SEL_GROUP_ID,
	MDG_LDST_SEL_GLOBAL_ID,
	MDG_LDST_SEL_ZERO,
};

enum mdg_index_format {
	MDG_INDEX_U64 = 1,
	MDG_INDEX_U32 = 2,
	MDG_INDEX_S32 = 3,
};

struct mdg_ldst {
	uint8_t op;                   /* enum mdg_ldst_op */
	uint8_t reg;                  /* 5 bits */
	uint8_t mask;                 /* 4 bits */
	uint8_t swizzle;              /* 8 bits */
	uint8_t arg_comp;             /* 2 bits */
	uint8_t arg_reg;              /* 3 bits, enum mdg_ldst_sel */
	bool bitsize_toggle;
	uint8_t index_format;         /* 2 bits, enum mdg_index_format */
	uint8_t index_comp;           /* 2 bits */
	uint8_t index_reg;            /* 3 bits */
	uint8_t index_shift;          /* 4 bits */
	int32_t offset;               /* 18-bit signed */
};

/* enum mdg_ldst_op: MDG_LDST_LD_32, MDG_LDST_NOP, ... (midgard_ops.def). */
enum mdg_ldst_op {
#define MDG_LDST_OP(name, code, mnemonic, flags, bytes) MDG_LDST_##name = code,
#include "midgard_ops.def"
#undef MDG_LDST_OP
};

/* ---- Texture words (docs/hardware.md §5.9) ---- */

/* enum mdg_tex_op: MDG_TEX_OP_NORMAL, ... (midgard_ops.def). */
enum mdg_tex_op {
#define MDG_TEX_OP(name, code, mnemonic) MDG_TEX_OP_##name = code,
#include "midgard_ops.def"
#undef MDG_TEX_OP
};

/* A texture word, field by field (bit positions in the README). */
struct mdg_tex {
	uint8_t op;                   /* [13:8] (6-bit view; normal ops use 4) */
	uint8_t mode;                 /* [15:12] when op < 16 */
	uint8_t exec;                 /* [17:16] partial execution */
	uint8_t format;               /* [19:18] dimension */
	bool sampler_register, texture_register, lod_register, offset_register;
	bool in_full, in_select, in_upper;
	uint8_t in_swizzle;
	uint8_t unknown8;             /* [36:35] */
	bool out_full;
	uint8_t sampler_type;         /* [39:38] */
	bool out_select, out_upper;
	uint8_t mask;                 /* [45:42] */
	uint8_t outmod;               /* [47:46] */
	uint8_t swizzle;              /* [55:48] */
	uint8_t out_of_order;         /* [59:56] */
	uint8_t unknown4;             /* [67:60] */
	uint16_t offset;              /* [79:68] */
	uint8_t bias;                 /* [87:80] */
	int8_t bias_int;              /* [95:88] */
	uint16_t sampler_handle;      /* [111:96] */
	uint16_t texture_handle;      /* [127:112] */
};

/* ---- A decoded bundle ---- */

struct mdg_bundle {
	uint8_t tag;
	uint8_t next_tag;
	uint8_t size;                 /* bytes: 16, 32, 48 or 64 */
	/* ALU bundles. */
	uint32_t control;             /* the whole control word, as encoded */
	uint8_t units;                /* MDG_UNIT_MASK() of the units present */
	struct mdg_alu alu[MDG_UNIT_COUNT];
	bool has_branch;
	struct mdg_branch branch;
	bool has_constants;
	uint32_t constants[4];
	/* Load/store bundles: two words, MDG_LDST_NOP where empty. */
	struct mdg_ldst ldst[2];
	/* Texture bundles (including the barrier). */
	struct mdg_tex tex;
};

/*
 * Decodes the bundle at code[0..avail). Returns its size in bytes, or 0 when
 * it is not a valid bundle (avail too short, bad tag, unknown or misplaced
 * op, reserved bits set, an operand form the op cannot take), with the
 * reason in err. A bundle that decodes is one encode reproduces exactly.
 */
unsigned int mdg_decode_bundle(const uint8_t *code, size_t avail,
			       struct mdg_bundle *bundle, char *err,
			       size_t err_size);

/*
 * Encodes a bundle into out[0..cap). For ALU bundles the control word's
 * unit and branch bits, the tag and the size follow from units, has_branch
 * and has_constants (bundle->control and size are ignored, and of tag only
 * whether it is an ALU tag and a writeout one, 0xC-0xF); other bundles take
 * tag and next_tag as given. Returns
 * the size written, or 0 with the reason in err when the bundle is invalid
 * (the same rules as the decoder).
 */
unsigned int mdg_encode_bundle(const struct mdg_bundle *bundle, uint8_t *out,
			       size_t cap, char *err, size_t err_size);

/* ---- Op tables ---- */

/* Flags of an ALU op. */
enum {
	MDG_OP_INT_SRC = 1u << 0,     /* sources are integers */
	MDG_OP_INT_DST = 1u << 1,     /* result is an integer (or boolean) */
	MDG_OP_UNSIGNED = 1u << 2,    /* integer sources are unsigned */
	MDG_OP_SRC2_ONLY = 1u << 3,   /* moves: operand in src2, src1 = r24 */
	MDG_OP_ONE_SRC = 1u << 4,     /* src2 unused (reads constant 0) */
	MDG_OP_REDUCE = 1u << 5,      /* writes one component (dot, ball) */
	MDG_OP_CSEL = 1u << 6,        /* reads the condition in r31 */
	MDG_OP_LUT = 1u << 7,         /* scalar lookup-table op */
	MDG_OP_ROUND_MODES = 1u << 8, /* op+1..op+3 are the other roundings */
};

struct mdg_alu_op_info {
	const char *name;             /* mnemonic, e.g. "fadd", "iadd" */
	uint8_t units;                /* MDG_UNIT_MASK() set it may run on */
	uint16_t flags;
	uint8_t rounding;             /* 0 rte, 1 rtz, 2 rtn, 3 rtp */
};

struct mdg_ldst_op_info {
	const char *name;             /* e.g. "ld.32", "st.128", "aadd.32" */
	uint16_t flags;
	uint8_t bytes;                /* memory access width, 0 if none */
};

/* Flags of a load/store op. */
enum {
	MDG_LDST_LOAD = 1u << 0,
	MDG_LDST_STORE = 1u << 1,
	MDG_LDST_ATOMIC = 1u << 2,
	MDG_LDST_UBO = 1u << 3,
	MDG_LDST_REG_TO_REG = 1u << 4,  /* LDST_MOV and friends */
	MDG_LDST_SIGNED = 1u << 5,      /* sign-extending narrow load */
	MDG_LDST_BIG_ENDIAN = 1u << 6,  /* .be or bswap variant */
	MDG_LDST_GRAPHICS = 1u << 7,    /* attribute/varying/tilebuffer/image */
};

/* NULL when the opcode is not a known op. */
const struct mdg_alu_op_info *mdg_alu_op_info(uint8_t op);
const struct mdg_ldst_op_info *mdg_ldst_op_info(uint8_t op);
const char *mdg_tex_op_name(uint8_t op);
/* The opcode whose mnemonic is name, or -1. */
int mdg_alu_op_by_name(const char *name);
int mdg_ldst_op_by_name(const char *name);

/* ---- Text ---- */

/*
 * Assembles a whole program. On success returns the byte size written to
 * out (bundles, then 16 bytes of zero padding as the hardware's prefetch
 * needs) and sets *first_tag; on failure returns -1 with "line N: reason"
 * in err. Syntax: midgard/README.md.
 */
long mdg_assemble(const char *source, uint8_t *out, size_t cap,
		  unsigned int *first_tag, char *err, size_t err_size);

/*
 * Disassembles a program of len bytes that starts with a bundle of
 * first_tag, into text mdg_assemble() turns back into the same bytes.
 * Returns the text length (as snprintf), or -1 with err set when a bundle
 * does not decode.
 */
long mdg_disassemble(const uint8_t *code, size_t len, unsigned int first_tag,
		     char *out, size_t out_size, char *err, size_t err_size);

#endif
