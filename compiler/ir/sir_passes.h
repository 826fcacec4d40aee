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
/*
 * Drops lanes nobody reads (extract of a lane-wise op, of a vector
 * uniform, of a shuffle) and computes ops on splats once.
 */
bool sir_narrow_vectors(struct sir_function *f);
bool sir_copy_prop(struct sir_function *f);
bool sir_cse(struct sir_function *f);
bool sir_dce(struct sir_function *f);
/*
 * Packs independent scalar ops into vector lanes where the operands come
 * cheaply as vectors (sir_slp.c). Run after lowering; follow it with
 * sir_optimize() to clean up.
 */
bool sir_slp_vectorize(struct sir_function *f);

/* The machine-independent pipeline above, to a fixpoint. */
void sir_optimize(struct sir_function *f);

struct slb_kernel;
struct slb_program;

/*
 * Lowers kernel k's printf calls (OpenCL 1.2 6.12.13) into appends to the
 * launch's printf buffer (the launch ABI's "printf" in
 * compiler/binary/slb_binary.h), adding each call's format, literals and
 * record layout to p's printf table. Runs after inlining, before
 * sir_lower_abi. False with a message when a call cannot be compiled (a
 * format that is not a string literal, a double argument...).
 */
bool sir_lower_printf(struct sir_module *m, struct sir_function *k,
		      struct slb_program *p, char *err, size_t errsz);

/*
 * Applies the launch ABI of compiler/binary/slb_binary.h to kernel k:
 * lays out the argument image (parameters in order at their natural
 * alignment, 3-component vectors as 4, then the sysval slots the kernel
 * reads), the kernel's static __local variables and its private variables
 * that stay in memory; fills meta's args, sysvals, uniform_bytes,
 * reqd_wg_size, local_static_bytes and private_bytes. Rewrites PARAM to
 * UNIFORM, sysvals other than GLOBAL_ID/LOCAL_ID/GROUP_ID (which the
 * hardware provides; GLOBAL_ID without the offset, as in SIR) to UNIFORM
 * words, and VAR_ADDR to constant offsets (private, local) or
 * CONSTANT_BASE + offset (constant data). False with a message on error.
 */
bool sir_lower_abi(struct sir_module *m, struct sir_function *k,
		   struct slb_kernel *meta, char *err, size_t errsz);

/*
 * The module's __constant data at the globals' offsets: sets
 * m->constant_bytes (a multiple of 16) and returns the malloc'ed image of
 * *size bytes, or NULL when there is none.
 */
uint8_t *sir_constant_data(struct sir_module *m, uint32_t *size);

/*
 * Lowers what Midgard does not do, so the back end sees only the ops listed
 * in compiler/backend/README.md: integer division and remainder, FDIV,
 * saturating and 64-bit ops the hardware lacks, vectors wider than a
 * register (split; 8- and 16-bit lanes count as 32 bits), FMA (see the
 * README for how), rounding modes... False with a message naming the
 * construct when something cannot be compiled.
 */
bool sir_lower_midgard(struct sir_function *f, bool fast_math,
		       char *err, size_t errsz);

/* -cl-denorms-are-zero: denormal f32 constants read by float arithmetic
 * become zeros of their sign (see the file). */
void sir_flush_denormal_constants(struct sir_function *f);

#endif
