/* SPDX-License-Identifier: MIT */
/*
 * The fp16 ops Midgard has no 16-bit form for, computed in fp32. The
 * back end runs half add, sub, mul, min, max, neg, abs, the roundings to
 * integral values and the comparisons in reg mode 16, and converts
 * halves to and from floats and integers with one 32-bit op reading a
 * widened half or writing a shrunk result (backend/README.md). What is
 * left comes here: each op is rebuilt on its operands converted to fp32
 * (exact: every half is a float) and its result converted back with one
 * rounding to nearest even:
 *
 *  - sqrt: fp32 keeps 24 bits, at least 2 * 11 + 2, so rounding the
 *    correctly rounded fp32 result again gives the correctly rounded
 *    half (the classic double-rounding bound);
 *  - the LUT ops (rsqrt, rcp, exp2, log2, sin, cos: there are no 16-bit
 *    LUT ops) and dot products: any precision allowed, one fp32 op and
 *    one rounding;
 *  - conversions between halves and 64-bit integers, which the back
 *    end does from and to fp32: from integers to fp32 in the op's
 *    rounding mode, then to fp16 in the same mode (directed roundings
 *    compose on the nested grids; to nearest, every integer below 2^24
 *    is exact in fp32 and every one from 65520 up is +-inf in fp16
 *    either way); to integers from the exact fp32 value;
 *  - fma: Midgard has no fused op Mesa trusts, and the product of two
 *    halves is exact in fp32 but the sum is rounded, and rounding that
 *    again could land on the wrong side of a half tie. The sum is made
 *    round-to-odd instead (its error, exact by TwoSum, sets the last bit
 *    when the sum is inexact and steps it toward zero when the error
 *    points that way), which fp32's 13 spare bits then round correctly
 *    to fp16.
 *
 * FMAD (any precision) becomes a half FMUL and FADD in
 * sir_lower_midgard.c; FDIV keeps its half type (sir_lower_fdiv.c
 * divides halves in fp32), FCOPYSIGN too (bit operations in
 * sir_lower_midgard.c).
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
	case SIR_OP_FSQRT: case SIR_OP_FRSQ: case SIR_OP_FRCP:
	case SIR_OP_FEXP2: case SIR_OP_FLOG2: case SIR_OP_FSIN:
	case SIR_OP_FCOS: case SIR_OP_FDOT:
		return true;
	default:
		return false;
	}
}

/* A conversion between halves and 64-bit integers. */
static bool long_conv(const struct sir_function *f, const struct sir_instr *in)
{
	struct sir_type s = f->values[in->srcs[0]].type;

	switch (in->op) {
	case SIR_OP_S2F: case SIR_OP_U2F:
		return is_half(in->type) && s.bits == 64;
	case SIR_OP_F2S: case SIR_OP_F2U:
		return is_half(s) && in->type.bits == 64;
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
	return (is_half(in->type) && (promoted_result((enum sir_op)in->op) ||
				      in->op == SIR_OP_FMA)) ||
	       long_conv(f, in);
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
