/* SPDX-License-Identifier: MIT */
/*
 * fp16 arithmetic computed in fp32. The back end holds a half in the low
 * 16 bits of a 32-bit lane and runs float ops in 32-bit mode only, so an
 * op on halves would read their bits as fp32 values. Each such op is
 * rebuilt on the operands converted to fp32 (exact: every half is a
 * float) and, for a half result, converted back with one rounding to
 * nearest even:
 *
 *  - add, sub, mul and sqrt: fp32 keeps 24 bits, at least 2 * 11 + 2, so
 *    rounding the fp32 result again to fp16 gives the correctly rounded
 *    half (the classic double-rounding bound); min, max, the roundings to
 *    integral values, neg and abs are exact in fp32;
 *  - fma: the product of two halves is exact in fp32, but the sum is
 *    rounded, and rounding that again could land on the wrong side of a
 *    half tie. The sum is made round-to-odd instead (its error, exact by
 *    TwoSum, sets the last bit when the sum is inexact and steps it toward
 *    zero when the error points that way), which fp32's 13 spare bits
 *    then round correctly to fp16;
 *  - mad (FMAD) and the native and geometric ops: any precision allowed,
 *    one fp32 op and one rounding;
 *  - comparisons, and conversions to integers: on the exact fp32 values;
 *  - conversions from integers: to fp32 in the op's rounding mode, then
 *    to fp16 in the same mode. Directed roundings compose on the nested
 *    grids; to nearest, every integer below 2^24 is exact in fp32 and
 *    every one from 65520 up is +-inf in fp16 either way.
 *
 * FDIV keeps its half type (sir_lower_fdiv.c divides halves in fp32),
 * FCOPYSIGN too (bit operations in sir_lower_midgard.c).
 */
#include "sir_lower.h"

static bool is_half(struct sir_type t)
{
	return t.kind == SIR_FLOAT && t.bits == 16;
}

static struct sir_type f32_of(struct sir_type t)
{
	return sir_type_make(SIR_FLOAT, 32, t.comps);
}

/* Ops whose half result is computed in fp32 and rounded once. */
static bool promoted_result(enum sir_op op)
{
	switch (op) {
	case SIR_OP_FADD: case SIR_OP_FSUB: case SIR_OP_FMUL:
	case SIR_OP_FNEG: case SIR_OP_FABS: case SIR_OP_FMIN:
	case SIR_OP_FMAX: case SIR_OP_FMAD: case SIR_OP_FFLOOR:
	case SIR_OP_FCEIL: case SIR_OP_FTRUNC: case SIR_OP_FRINT:
	case SIR_OP_FROUND: case SIR_OP_FSQRT: case SIR_OP_FRSQ:
	case SIR_OP_FRCP: case SIR_OP_FEXP2: case SIR_OP_FLOG2:
	case SIR_OP_FSIN: case SIR_OP_FCOS: case SIR_OP_FDOT:
		return true;
	default:
		return false;
	}
}

/* Ops that read halves and give no float: their operands widen. */
static bool promoted_sources(enum sir_op op)
{
	switch (op) {
	case SIR_OP_FEQ: case SIR_OP_FNE: case SIR_OP_FLT: case SIR_OP_FLE:
	case SIR_OP_FUNORD: case SIR_OP_F2S: case SIR_OP_F2U:
		return true;
	default:
		return false;
	}
}

static bool match_half(const struct sir_function *f,
		       const struct sir_instr *in, void *ctx)
{
	(void)ctx;
	if (in->num_srcs == 0)
		return false;
	if (is_half(in->type))
		return promoted_result((enum sir_op)in->op) ||
		       in->op == SIR_OP_FMA || in->op == SIR_OP_S2F ||
		       in->op == SIR_OP_U2F;
	return promoted_sources((enum sir_op)in->op) &&
	       is_half(f->values[in->srcs[0]].type);
}

static sir_id widen(struct sir_builder *b, sir_id x)
{
	struct sir_type t = b->f->values[x].type;

	return is_half(t) ? sirp_op1(b, SIR_OP_FCONV, f32_of(t), x) : x;
}

/*
 * fma(x, y, z) of halves given in fp32: p = x * y exactly, s = p + z
 * rounded to odd, then s to fp16.
 */
static sir_id fma_half(struct sir_builder *b, struct sir_type ht, sir_id x,
		       sir_id y, sir_id z)
{
	struct sir_type ft = f32_of(ht);
	struct sir_type it = sir_type_make(SIR_INT, 32, ht.comps);
	struct sir_type bt = sirp_bool_of(ft);
	sir_id p = sirp_op2(b, SIR_OP_FMUL, ft, x, y);
	sir_id s = sirp_op2(b, SIR_OP_FADD, ft, p, z);
	/* TwoSum: e = (p + z) - s exactly (no overflow: |p| < 2^33). */
	sir_id bb = sirp_op2(b, SIR_OP_FSUB, ft, s, p);
	sir_id e = sirp_op2(b, SIR_OP_FADD, ft,
			    sirp_op2(b, SIR_OP_FSUB, ft, p,
				     sirp_op2(b, SIR_OP_FSUB, ft, s, bb)),
			    sirp_op2(b, SIR_OP_FSUB, ft, z, bb));
	sir_id zero = sirl_k(b, ft, 0);
	/* Ordered: an infinite or NaN sum (e NaN) stays as it is. */
	sir_id inexact = sirp_op2(b, SIR_OP_FLT, bt, zero,
				  sirp_op1(b, SIR_OP_FABS, ft, e));
	/* The exact sum lies below |s| when e and s differ in sign (s is
	 * not 0 then: a zero sum is exact). */
	sir_id toward0 = sirp_op2(b, SIR_OP_BNE, bt,
				  sirp_op2(b, SIR_OP_FLT, bt, e, zero),
				  sirp_op2(b, SIR_OP_FLT, bt, s, zero));
	sir_id bits = sirp_op1(b, SIR_OP_BITCAST, it, s);
	sir_id down = sirp_op2(b, SIR_OP_ISUB, it, bits, sirl_k(b, it, 1));
	sir_id odd;

	bits = sirp_op3(b, SIR_OP_SELECT, it,
			sirp_op2(b, SIR_OP_BAND, bt, inexact, toward0), down,
			bits);
	odd = sirp_op2(b, SIR_OP_OR, it, bits, sirl_k(b, it, 1));
	bits = sirp_op3(b, SIR_OP_SELECT, it, inexact, odd, bits);
	return sirp_op1(b, SIR_OP_FCONV, ht,
			sirp_op1(b, SIR_OP_BITCAST, ft, bits));
}

static sir_id expand_half(struct sir_builder *b, sir_id v, void *ctx)
{
	struct sir_instr in = b->f->values[v];
	sir_id srcs[3], r;
	unsigned int s;

	(void)ctx;
	if (in.op == SIR_OP_S2F || in.op == SIR_OP_U2F) {
		r = sirp_op1(b, (enum sir_op)in.op, f32_of(in.type),
			     in.srcs[0]);
		b->f->values[r].aux = in.aux;
		r = sirp_op1(b, SIR_OP_FCONV, in.type, r);
		b->f->values[r].aux = in.aux & SIR_CONV_ROUND_MASK;
		return r;
	}
	for (s = 0; s < in.num_srcs && s < 3; s++)
		srcs[s] = widen(b, in.srcs[s]);
	if (in.op == SIR_OP_FMA)
		return fma_half(b, in.type, srcs[0], srcs[1], srcs[2]);
	r = sirp_op(b, (enum sir_op)in.op,
		    is_half(in.type) ? f32_of(in.type) : in.type, srcs,
		    in.num_srcs, in.aux);
	b->f->values[r].aux2 = in.aux2;
	if (is_half(in.type))
		r = sirp_op1(b, SIR_OP_FCONV, in.type, r);
	return r;
}

bool sirl_lower_half(struct sir_function *f)
{
	return sirl_rewrite(f, match_half, expand_half, NULL);
}
