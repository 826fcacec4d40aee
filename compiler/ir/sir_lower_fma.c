/* SPDX-License-Identifier: MIT */
/*
 * Fused multiply-add (one rounding) for Midgard, whose ffma the model does
 * not implement and whose float ops cannot give the exact product without
 * over- and underflow trouble, so the finite case is done in integers:
 *
 *   the 24 x 24-bit mantissa product is exact in 64 bits; product and
 *   addend are normalised with their top bit at bit 61; the smaller one is
 *   shifted right with the bits shifted out folded into a sticky bit 0;
 *   they are added or subtracted (the larger first, so the magnitude stays
 *   non-negative); the sum is normalised to bit 63, shifted further right
 *   (again with sticky) when the result is denormal, and rounded to
 *   nearest even at bit 40. Exponent field + mantissa is added as one
 *   integer so a carry from rounding moves into the exponent, and an
 *   exponent of 255 reads as infinity.
 *
 * Infinities, NaNs and a zero product follow from a*b + c in float (exact
 * there), an infinite or NaN addend with finite factors from c itself, an
 * exact cancellation is +0. fp16 FMA is sir_lower_half.c's (rounding the
 * fp32 FMA again would round twice).
 */
#include "sir_lower.h"

struct mctx {
	struct sir_builder *b;
	struct sir_type f32, i32, i64, bt;
};

static sir_id k32(struct mctx *c, uint32_t v)
{
	return sirl_k(c->b, c->i32, v);
}

static sir_id k64(struct mctx *c, uint64_t v)
{
	return sirl_k(c->b, c->i64, v);
}

static sir_id op32(struct mctx *c, enum sir_op op, sir_id x, sir_id y)
{
	return sirp_op2(c->b, op, c->i32, x, y);
}

static sir_id op64(struct mctx *c, enum sir_op op, sir_id x, sir_id y)
{
	return sirp_op2(c->b, op, c->i64, x, y);
}

static sir_id cmp(struct mctx *c, enum sir_op op, sir_id x, sir_id y)
{
	return sirp_op2(c->b, op, c->bt, x, y);
}

static sir_id sel(struct mctx *c, struct sir_type t, sir_id cond, sir_id x,
		  sir_id y)
{
	return sirp_op3(c->b, SIR_OP_SELECT, t, cond, x, y);
}

/* Exponent field (denormals as 1) and mantissa with the hidden bit. */
static void unpack(struct mctx *c, sir_id bits, sir_id *exp, sir_id *mant,
		   sir_id *field)
{
	sir_id e = op32(c, SIR_OP_AND, op32(c, SIR_OP_LSHR, bits, k32(c, 23)),
			k32(c, 0xff));
	sir_id m = op32(c, SIR_OP_AND, bits, k32(c, 0x7fffff));
	sir_id den = cmp(c, SIR_OP_IEQ, e, k32(c, 0));

	*field = e;
	*mant = sel(c, c->i32, den, m, op32(c, SIR_OP_OR, m, k32(c, 0x800000)));
	*exp = sel(c, c->i32, den, k32(c, 1), e);
}

/* x >> n (n >= 0, any size) with the bits shifted out ORed into bit 0. */
static sir_id shift_sticky(struct mctx *c, sir_id x, sir_id n32)
{
	sir_id big = cmp(c, SIR_OP_ULT, k32(c, 63), n32);
	sir_id n = sirp_op1(c->b, SIR_OP_ZEXT, c->i64,
			    op32(c, SIR_OP_UMIN, n32, k32(c, 63)));
	sir_id lost = op64(c, SIR_OP_AND, x,
			   op64(c, SIR_OP_ISUB,
				op64(c, SIR_OP_SHL, k64(c, 1), n), k64(c, 1)));
	sir_id sticky = sel(c, c->i64, cmp(c, SIR_OP_INE, lost, k64(c, 0)),
			    k64(c, 1), k64(c, 0));
	sir_id shifted = op64(c, SIR_OP_OR, op64(c, SIR_OP_LSHR, x, n), sticky);
	sir_id any = sel(c, c->i64, cmp(c, SIR_OP_INE, x, k64(c, 0)),
			 k64(c, 1), k64(c, 0));

	return sel(c, c->i64, big, any, shifted);
}

/* x << (clz(x) - 2): top bit at 61; returns the shift (i32). */
static sir_id normalise61(struct mctx *c, sir_id x, sir_id *shift)
{
	sir_id z = sirp_op1(c->b, SIR_OP_CLZ, c->i64, x);

	z = op64(c, SIR_OP_ISUB, z, k64(c, 2));
	*shift = sirp_op1(c->b, SIR_OP_TRUNC, c->i32, z);
	return op64(c, SIR_OP_SHL, x, z);
}

static sir_id fma32(struct mctx *c, sir_id a, sir_id b, sir_id cc)
{
	struct sir_builder *bl = c->b;
	sir_id A = sirp_op1(bl, SIR_OP_BITCAST, c->i32, a);
	sir_id B = sirp_op1(bl, SIR_OP_BITCAST, c->i32, b);
	sir_id C = sirp_op1(bl, SIR_OP_BITCAST, c->i32, cc);
	sir_id ea, ma, fa, eb, mb, fb, ec, mc, fc;
	sir_id sp, sc, P, XP, XC, shP, shC, topP, topC, pbig, X, Y, topX, d;
	sir_id Yj, sub, R, z, Rn, E, den, s, m, rest, up, Ef, bits, res;
	sir_id ab_special, c_special, p_zero, inf, sign, float_path;

	unpack(c, A, &ea, &ma, &fa);
	unpack(c, B, &eb, &mb, &fb);
	unpack(c, C, &ec, &mc, &fc);
	sp = op32(c, SIR_OP_AND, op32(c, SIR_OP_XOR, A, B), k32(c, 0x80000000));
	sc = op32(c, SIR_OP_AND, C, k32(c, 0x80000000));

	/* Product P * 2^(ea + eb - 300), addend mc * 2^(ec - 150). */
	P = op64(c, SIR_OP_IMUL, sirp_op1(bl, SIR_OP_ZEXT, c->i64, ma),
		 sirp_op1(bl, SIR_OP_ZEXT, c->i64, mb));
	XP = normalise61(c, P, &shP);
	XC = normalise61(c, sirp_op1(bl, SIR_OP_ZEXT, c->i64, mc), &shC);
	/* Exponent of bit 61 of each. */
	topP = op32(c, SIR_OP_ISUB, op32(c, SIR_OP_IADD, ea, eb),
		    op32(c, SIR_OP_IADD, shP, k32(c, 300 - 61)));
	topC = op32(c, SIR_OP_ISUB, ec, op32(c, SIR_OP_IADD, shC,
					     k32(c, 150 - 61)));
	/* A zero addend must lose every comparison. */
	topC = sel(c, c->i32, cmp(c, SIR_OP_IEQ, mc, k32(c, 0)),
		   k32(c, (uint32_t)-1000), topC);
	pbig = sirp_op2(bl, SIR_OP_BOR, c->bt,
			cmp(c, SIR_OP_SLT, topC, topP),
			sirp_op2(bl, SIR_OP_BAND, c->bt,
				 cmp(c, SIR_OP_IEQ, topC, topP),
				 cmp(c, SIR_OP_ULE, XC, XP)));
	X = sel(c, c->i64, pbig, XP, XC);
	Y = sel(c, c->i64, pbig, XC, XP);
	topX = sel(c, c->i32, pbig, topP, topC);
	d = op32(c, SIR_OP_ISUB, topX, sel(c, c->i32, pbig, topC, topP));
	sign = sel(c, c->i32, pbig, sp, sc);
	Yj = shift_sticky(c, Y, d);
	sub = cmp(c, SIR_OP_INE, sp, sc);
	R = sel(c, c->i64, sub, op64(c, SIR_OP_ISUB, X, Yj),
		op64(c, SIR_OP_IADD, X, Yj));

	/* Normalise to bit 63; biased exponent of that bit. */
	z = sirp_op1(bl, SIR_OP_CLZ, c->i64, R);
	Rn = op64(c, SIR_OP_SHL, R, z);
	E = op32(c, SIR_OP_ISUB, op32(c, SIR_OP_IADD, topX, k32(c, 2 + 127)),
		 sirp_op1(bl, SIR_OP_TRUNC, c->i32, z));
	den = cmp(c, SIR_OP_SLT, E, k32(c, 1));
	s = op32(c, SIR_OP_ISUB, k32(c, 1), E);
	Rn = sel(c, c->i64, den, shift_sticky(c, Rn, s), Rn);
	E = sel(c, c->i32, den, k32(c, 1), E);

	/* Round to nearest even at bit 40. */
	m = op64(c, SIR_OP_LSHR, Rn, k64(c, 40));
	rest = op64(c, SIR_OP_AND, Rn, k64(c, (1ull << 40) - 1));
	up = sirp_op2(bl, SIR_OP_BOR, c->bt,
		      cmp(c, SIR_OP_ULT, k64(c, 1ull << 39), rest),
		      sirp_op2(bl, SIR_OP_BAND, c->bt,
			       cmp(c, SIR_OP_IEQ, rest, k64(c, 1ull << 39)),
			       cmp(c, SIR_OP_INE,
				   op64(c, SIR_OP_AND, m, k64(c, 1)),
				   k64(c, 0))));
	m = sel(c, c->i64, up, op64(c, SIR_OP_IADD, m, k64(c, 1)), m);
	Ef = op32(c, SIR_OP_SHL, op32(c, SIR_OP_ISUB, E, k32(c, 1)),
		  k32(c, 23));
	bits = op32(c, SIR_OP_IADD, Ef, sirp_op1(bl, SIR_OP_TRUNC, c->i32, m));
	inf = cmp(c, SIR_OP_SLT, k32(c, 254), E);
	bits = sel(c, c->i32, inf, k32(c, 0x7f800000), bits);
	bits = op32(c, SIR_OP_OR, bits, sign);
	/* Exact cancellation: +0. */
	bits = sel(c, c->i32, cmp(c, SIR_OP_IEQ, R, k64(c, 0)), k32(c, 0),
		   bits);
	res = sirp_op1(bl, SIR_OP_BITCAST, c->f32, bits);

	ab_special = sirp_op2(bl, SIR_OP_BOR, c->bt,
			      cmp(c, SIR_OP_IEQ, fa, k32(c, 0xff)),
			      cmp(c, SIR_OP_IEQ, fb, k32(c, 0xff)));
	c_special = cmp(c, SIR_OP_IEQ, fc, k32(c, 0xff));
	p_zero = cmp(c, SIR_OP_IEQ, P, k64(c, 0));
	res = sel(c, c->f32, c_special,
		  sirp_op2(bl, SIR_OP_FADD, c->f32, cc,
			   sirl_k(bl, c->f32, 0)), res);
	float_path = sirp_op2(bl, SIR_OP_BOR, c->bt, ab_special, p_zero);
	return sel(c, c->f32, float_path,
		   sirp_op2(bl, SIR_OP_FADD, c->f32,
			    sirp_op2(bl, SIR_OP_FMUL, c->f32, a, b), cc),
		   res);
}

static sir_id expand_fma(struct sir_builder *b, sir_id v, void *ctx)
{
	struct sir_instr in = b->f->values[v];
	struct mctx c;
	sir_id x = in.srcs[0], y = in.srcs[1], z = in.srcs[2], r;
	unsigned int n = in.type.comps;

	(void)ctx;
	c.b = b;
	c.f32 = sir_type_make(SIR_FLOAT, 32, n);
	c.i32 = sir_type_make(SIR_INT, 32, n);
	c.i64 = sir_type_make(SIR_INT, 64, n);
	c.bt = sirp_bool_of(in.type);
	r = fma32(&c, x, y, z);
	return r;
}

static bool match_fma(const struct sir_function *f,
		      const struct sir_instr *in, void *ctx)
{
	(void)f;
	(void)ctx;
	return in->op == SIR_OP_FMA && in->type.bits == 32;
}

bool sirl_lower_fma(struct sir_function *f)
{
	return sirl_rewrite(f, match_fma, expand_fma, NULL);
}
