/* SPDX-License-Identifier: MIT */
/*
 * The value of one SIR instruction from the values of its operands: the
 * ops' semantics (sir.h) as C, for constant folding and for tests that run
 * SIR on the host. Lanes are bit patterns, masked to the lane width (bool
 * lanes 0 or 1), as in sir_instr.imm.u64.
 */
#ifndef SLEIPNIR_SIR_EVAL_H
#define SLEIPNIR_SIR_EVAL_H

#include "sir.h"

enum sir_eval_mode {
	/*
	 * Constant folding: only results every correct implementation
	 * gives; fails for native_* (LUT) ops, division by zero and roundings
	 * it cannot do exactly.
	 */
	SIR_EVAL_FOLD,
	/* As the GPU model computes (LUT ops truncated toward zero). */
	SIR_EVAL_MODEL,
};

/*
 * Evaluates in (not a memory op, phi or terminator) whose operand i has the
 * lanes srcs[i]; writes the result's lanes to out. False when it cannot.
 */
bool sir_eval_instr(const struct sir_function *f, const struct sir_instr *in,
		    const uint64_t *const *srcs, uint64_t out[16],
		    enum sir_eval_mode mode);

/* IEEE half <-> double (round to nearest even). */
double sir_half_to_double(uint16_t h);
uint16_t sir_double_to_half(double d);

#endif
