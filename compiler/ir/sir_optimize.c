/* SPDX-License-Identifier: MIT */
/*
 * The machine-independent pipeline, repeated until nothing changes (with a
 * bound: each round only shrinks the code, but a pathological input should
 * not keep the compiler busy).
 */
#include "sir_passes.h"

#define SIR_OPTIMIZE_MAX_ROUNDS 16

void sir_optimize(struct sir_function *f)
{
	unsigned int round;

	for (round = 0; round < SIR_OPTIMIZE_MAX_ROUNDS; round++) {
		bool changed = sir_mem2reg(f);

		changed |= sir_simplify_cfg(f);
		changed |= sir_fold_constants(f);
		changed |= sir_narrow_vectors(f);
		changed |= sir_copy_prop(f);
		changed |= sir_cse(f);
		changed |= sir_dce(f);
		if (!changed)
			break;
	}
}
