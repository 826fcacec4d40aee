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

#endif
