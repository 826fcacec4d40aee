/* SPDX-License-Identifier: MIT */
/*
 * The shader core's arithmetic: one Midgard ALU instruction on 128-bit
 * register values, with Midgard's operand handling (swizzles, source
 * expansion and modifiers, inline immediates, register modes 8/16/32/64),
 * the op itself, the output modifier and the write mask. Pure functions of
 * their inputs: the interpreter (sgpu_thread.c) fetches registers and
 * commits the result.
 */
#ifndef SLEIPNIR_SGPU_ALU_H
#define SLEIPNIR_SGPU_ALU_H

#include <stdbool.h>
#include <stdint.h>

#include "midgard_isa.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the shader core model assumes a little-endian host"
#endif

/* A 128-bit register; lane i of each view is at bytes [i*w, (i+1)*w). */
union sgpu_reg {
	uint8_t u8[16];
	uint16_t u16[8];
	uint32_t u32[4];
	uint64_t u64[2];
	float f32[4];
};

/* RSD Properties FP mode (bits [31:29]). */
enum sgpu_fp_mode {
	SGPU_FP_GL_INF_NAN,
	SGPU_FP_GL_NO_INF_NAN,
	SGPU_FP_CL,
	SGPU_FP_D3D11,
};

struct sgpu_alu_operands {
	union sgpu_reg src1;          /* value of register src1_reg */
	union sgpu_reg src2;          /* value of src2_reg (unused if imm) */
	union sgpu_reg cond;          /* r31, for csel ops */
	enum sgpu_fp_mode fp_mode;
};

/*
 * Executes alu (on unit) and merges the result into *dst under the
 * instruction's write mask (vector units) or output component (scalar
 * units). Returns false when the instruction cannot execute: an op the
 * model does not implement, or an operand form that is invalid for it
 * (such as a float op in 64-bit mode); the job then fails with
 * INSTR_INVALID_ENC.
 */
bool sgpu_alu_execute(const struct mdg_alu *alu, enum mdg_unit unit,
		      const struct sgpu_alu_operands *in, union sgpu_reg *dst);

/*
 * The common 32-bit forms, prepared once per instruction for the
 * lockstep engine (sgpu_warp_alu.c) and sgpu_alu_execute()'s own fast
 * path: 32-bit lanes (vector reg mode 32 without expand or shrink, or a
 * scalar op with 32-bit sources and result) of the ops compilers emit in
 * loops. The result of one lane is sgpu_alu32_lane() of the sources'
 * selected components (float modifiers applied with sgpu_alu32_mod(),
 * or the immediate) and the csel condition; it equals the general path's.
 */
enum sgpu_alu32_class {
	SGPU_ALU32_NONE,
	SGPU_ALU32_FLOAT,             /* float sources and result */
	SGPU_ALU32_FCMP,              /* float sources, 0 / all-ones result */
	SGPU_ALU32_INT,               /* integer sources and result */
	SGPU_ALU32_I2F,               /* i2f/u2f.rte: src1 integer, float */
};

struct sgpu_alu32 {
	uint8_t op, outmod;
	uint8_t cls;                  /* enum sgpu_alu32_class */
	bool fsrc;                    /* float sources: mod1/mod2 apply */
	bool src2_only;               /* moves: src1 is not read */
	bool imm;                     /* src2 is imm_bits in every lane */
	bool csel;                    /* reads r31 (cond_comp) */
	uint8_t n;                    /* lanes computed: 4 (vector), 1 */
	uint8_t lanes;                /* write mask over the n lanes */
	uint8_t dst_comp;             /* scalar: the 32-bit component written */
	uint8_t sel1[4], sel2[4];     /* 32-bit component lane i reads */
	uint8_t cond_comp[4];         /* r31 component lane i's csel reads */
	uint8_t mod1, mod2;           /* float abs (bit 0) / neg (bit 1) */
	uint32_t imm_bits;
};

/* Fills p and returns true when alu has a 32-bit form. */
bool sgpu_alu_prepare32(const struct mdg_alu *alu, enum mdg_unit unit,
			struct sgpu_alu32 *p);
uint32_t sgpu_alu32_lane(const struct sgpu_alu32 *p, uint32_t a, uint32_t b,
			 uint32_t c);
uint32_t sgpu_alu32_mod(uint32_t v, unsigned int mod);
/* The float output modifier on an fp32 result. */
uint32_t sgpu_alu32_outmod_f32(uint32_t v, unsigned int outmod);

#endif
