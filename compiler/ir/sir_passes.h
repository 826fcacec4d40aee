/* SPDX-License-Identifier: MIT */
/*
 * The passes over SIR, in the order sir_optimize() runs them. Each returns
 * true when it changed something (so callers can iterate to a fixpoint),
 * except where it says otherwise.
 */
#ifndef SLEIPNIR_SIR_PASSES_H
#define SLEIPNIR_SIR_PASSES_H

#include "sir.h"

/*
 * Inlines every call into the kernels (recursion is a build error), then
 * drops the functions that are not kernels. False with a message on error.
 */
bool sir_inline_all(struct sir_module *m, char *err, size_t errsz);

/* Promotes private scalar/vector variables only loaded and stored whole. */
bool sir_mem2reg(struct sir_function *f);
bool sir_simplify_cfg(struct sir_function *f); /* merge/straighten blocks */
bool sir_fold_constants(struct sir_function *f); /* and algebraic identities */
bool sir_copy_prop(struct sir_function *f);
bool sir_cse(struct sir_function *f);
bool sir_dce(struct sir_function *f);

/* The machine-independent pipeline above, to a fixpoint. */
void sir_optimize(struct sir_function *f);

/*
 * Lowers what Midgard does not do, so the back end sees only the ops listed
 * in compiler/backend/README.md: integer division and remainder, FDIV,
 * saturating and 64-bit ops the hardware lacks, vectors wider than 128 bits
 * (split), FMA (see the README for how), rounding modes... False with a
 * message naming the construct when something cannot be compiled.
 */
bool sir_lower_midgard(struct sir_function *f, bool fast_math,
		       char *err, size_t errsz);

#endif
