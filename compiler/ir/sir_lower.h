/* SPDX-License-Identifier: MIT */
/*
 * The steps of sir_lower_midgard(), one file each, and the walk they
 * share: every instruction a step claims is rebuilt in place from simpler
 * ops and its uses redirected.
 */
#ifndef SLEIPNIR_SIR_LOWER_H
#define SLEIPNIR_SIR_LOWER_H

#include "sir_pass_util.h"

/*
 * Expands one instruction at the builder (which points at it); returns
 * the value that replaces it. May split blocks: the builder then ends in
 * the block that holds the instruction.
 */
typedef sir_id (*sirl_expand_fn)(struct sir_builder *b, sir_id v,
				 void *ctx);
typedef bool (*sirl_match_fn)(const struct sir_function *f,
			      const struct sir_instr *in, void *ctx);

/* Runs expand on every instruction match accepts. True when any did. */
bool sirl_rewrite(struct sir_function *f, sirl_match_fn match,
		  sirl_expand_fn expand, void *ctx);

/* Integer division, remainder and high multiplication (sir_lower_div.c). */
bool sirl_lower_div(struct sir_function *f);
/* Double FDIV, FSQRT, FRSQ, FRCP, FMA in integers (before sirl_lower_div). */
bool sirl_lower_f64(struct sir_function *f);
bool sirl_lower_mulhi(struct sir_function *f);
/* FDIV (sir_lower_fdiv.c). */
bool sirl_lower_fdiv(struct sir_function *f, bool fast_math);
/* FMA, correctly rounded with integer arithmetic (sir_lower_fma.c). */
bool sirl_lower_fma(struct sir_function *f);
/* The fp16 ops without a 16-bit form, in fp32 (sir_lower_half.c). */
bool sirl_lower_half(struct sir_function *f);
/* Values wider than a register into pieces (sir_lower_wide.c). */
bool sirl_split_wide(struct sir_function *f, char *err, size_t errsz);
/*
 * short8, half8 and char16 values and their bool8 / bool16 masks that stay
 * whole, computed in 16- and 8-bit reg modes (sir_lower_packed.c): per value 1
 * when kept (instructions, stores included), or NULL when none is (caller
 * frees). Sets the aux of kept loads and stores to the alignment their
 * address proves.
 */
uint8_t *sirl_packed_webs(struct sir_function *f);
/* The types of those values: one register of 16- or 8-bit lanes. */
static inline bool sirl_is_packed(struct sir_type t)
{
	if (t.kind == SIR_BOOL)
		return t.comps == 8 || t.comps == 16;
	if (t.kind == SIR_FLOAT)
		return t.bits == 16 && t.comps == 8;
	return t.kind == SIR_INT &&
	       ((t.bits == 16 && t.comps == 8) ||
		(t.bits == 8 && t.comps == 16));
}
/* Accesses below the alignment the load/store unit needs, in bytes or
 * halfwords (sir_lower_unaligned.c). */
bool sirl_lower_unaligned(struct sir_function *f);
/*
 * The alignment (1-16) address v is known to have from its computation:
 * constants, pointer arguments, variable addresses, scaled terms.
 */
uint32_t sirl_known_align(const struct sir_function *f, sir_id v);

/* Short builders over sirp_op*. */
static inline sir_id sirl_k(struct sir_builder *b, struct sir_type t,
			    uint64_t v)
{
	return sirp_const(b, t, v);
}

#endif
