/* SPDX-License-Identifier: MIT */
/*
 * Float division for Midgard, which only has a reciprocal (frcp, within
 * one ulp: the model truncates it toward zero).
 *
 * fast_math: x * rcp(y). Otherwise, to stay within OpenCL's 2.5 ulp for
 * every input: both operands are split into a mantissa in [1, 2) with the
 * sign and an exponent (denormals scaled up first); the mantissa quotient
 * q0 = mx * rcp(my) is corrected once with its exact residual
 * mx - q0 * my (Dekker's product with Veltkamp's split: no fused
 * multiply-add needed, and nothing over- or underflows in [1, 2)); then the
 * exponent difference is applied in two exact-then-rounding multiplications
 * by powers of two, so overflow, underflow and denormal results round once.
 * Zeros, infinities and NaNs take x * rcp(y), which is right for them.
 * fp16 divides in fp32 and converts back.
 */
#include "sir_lower.h"

struct fctx {
	struct sir_type ft, it, bt;
};

static sir_id fk(struct sir_builder *b, struct fctx *c, uint32_t bits)
{
	return sirl_k(b, c->ft, bits);
}

static sir_id ik(struct sir_builder *b, struct fctx *c, uint32_t v)
{
	return sirl_k(b, c->it, v);
}

static sir_id fop(struct sir_builder *b, struct fctx *c, enum sir_op op,
		  sir_id x, sir_id y)
{
	return sirp_op2(b, op, c->ft, x, y);
}

/* x split as hi + lo, each with at most 12 significant bits. */
static void veltkamp(struct sir_builder *b, struct fctx *c, sir_id x,
		     sir_id *hi, sir_id *lo)
{
	sir_id t = fop(b, c, SIR_OP_FMUL, x, fk(b, c, 0x45800800)); /* 4097 */

	*hi = fop(b, c, SIR_OP_FSUB, t, fop(b, c, SIR_OP_FSUB, t, x));
	*lo = fop(b, c, SIR_OP_FSUB, x, *hi);
}

/* x * y = p + e exactly (when nothing over- or underflows). */
static void two_product(struct sir_builder *b, struct fctx *c, sir_id x,
			sir_id y, sir_id *p, sir_id *e)
{
	sir_id xh, xl, yh, yl, t;

	veltkamp(b, c, x, &xh, &xl);
	veltkamp(b, c, y, &yh, &yl);
	*p = fop(b, c, SIR_OP_FMUL, x, y);
	t = fop(b, c, SIR_OP_FSUB, fop(b, c, SIR_OP_FMUL, xh, yh), *p);
	t = fop(b, c, SIR_OP_FADD, t, fop(b, c, SIR_OP_FMUL, xh, yl));
	t = fop(b, c, SIR_OP_FADD, t, fop(b, c, SIR_OP_FMUL, xl, yh));
	*e = fop(b, c, SIR_OP_FADD, t, fop(b, c, SIR_OP_FMUL, xl, yl));
}

/* Mantissa of finite nonzero x in +-[1, 2), and its unbiased exponent. */
static sir_id split_float(struct sir_builder *b, struct fctx *c, sir_id x,
			  sir_id *exp)
{
	sir_id bits = sirp_op1(b, SIR_OP_BITCAST, c->it, x);
	sir_id mag = sirp_op2(b, SIR_OP_AND, c->it, bits, ik(b, c, 0x7fffffff));
	sir_id den = sirp_op2(b, SIR_OP_ULT, c->bt, mag, ik(b, c, 0x00800000));
	sir_id scaled = sirp_op3(b, SIR_OP_SELECT, c->ft, den,
				 fop(b, c, SIR_OP_FMUL, x,
				     fk(b, c, 0x4b800000)), x); /* 2^24 */
	sir_id sb = sirp_op1(b, SIR_OP_BITCAST, c->it, scaled);
	sir_id e = sirp_op2(b, SIR_OP_AND, c->it,
			    sirp_op2(b, SIR_OP_LSHR, c->it, sb,
				     ik(b, c, 23)), ik(b, c, 0xff));

	*exp = sirp_op2(b, SIR_OP_ISUB, c->it, e,
			sirp_op3(b, SIR_OP_SELECT, c->it, den,
				 ik(b, c, 127 + 24), ik(b, c, 127)));
	sb = sirp_op2(b, SIR_OP_OR, c->it,
		      sirp_op2(b, SIR_OP_AND, c->it, sb,
			       ik(b, c, 0x807fffff)), ik(b, c, 0x3f800000));
	return sirp_op1(b, SIR_OP_BITCAST, c->ft, sb);
}

/* 2^k for k in [-126, 127]. */
static sir_id pow2(struct sir_builder *b, struct fctx *c, sir_id k)
{
	sir_id e = sirp_op2(b, SIR_OP_IADD, c->it, k, ik(b, c, 127));

	return sirp_op1(b, SIR_OP_BITCAST, c->ft,
			sirp_op2(b, SIR_OP_SHL, c->it, e, ik(b, c, 23)));
}

/* Zero, infinity or NaN. */
static sir_id is_special(struct sir_builder *b, struct fctx *c, sir_id x)
{
	sir_id bits = sirp_op1(b, SIR_OP_BITCAST, c->it, x);
	sir_id m = sirp_op2(b, SIR_OP_ISUB, c->it,
			    sirp_op2(b, SIR_OP_AND, c->it, bits,
				     ik(b, c, 0x7fffffff)), ik(b, c, 1));

	/* mag - 1 wraps for zero, so one unsigned compare covers all. */
	return sirp_op2(b, SIR_OP_ULE, c->bt, ik(b, c, 0x7f800000 - 1), m);
}

static sir_id clamp(struct sir_builder *b, struct fctx *c, sir_id k,
		    int32_t lo, int32_t hi)
{
	k = sirp_op2(b, SIR_OP_SMAX, c->it, k, ik(b, c, (uint32_t)lo));
	return sirp_op2(b, SIR_OP_SMIN, c->it, k, ik(b, c, (uint32_t)hi));
}

static sir_id fdiv32(struct sir_builder *b, struct fctx *c, sir_id x,
		     sir_id y)
{
	sir_id quick = fop(b, c, SIR_OP_FMUL, x,
			   sirp_op1(b, SIR_OP_FRCP, c->ft, y));
	sir_id special = sirp_op2(b, SIR_OP_BOR, c->bt, is_special(b, c, x),
				  is_special(b, c, y));
	sir_id ex, ey, mx, my, r0, q0, p, e, rem, q1, k, k1, k2, res;

	mx = split_float(b, c, x, &ex);
	my = split_float(b, c, y, &ey);
	r0 = sirp_op1(b, SIR_OP_FRCP, c->ft, my);
	q0 = fop(b, c, SIR_OP_FMUL, mx, r0);
	two_product(b, c, q0, my, &p, &e);
	rem = fop(b, c, SIR_OP_FSUB, fop(b, c, SIR_OP_FSUB, mx, p), e);
	q1 = fop(b, c, SIR_OP_FADD, q0, fop(b, c, SIR_OP_FMUL, rem, r0));
	/* |q1| in [0.5, 2): times 2^k1 stays normal and exact. */
	k = sirp_op2(b, SIR_OP_ISUB, c->it, ex, ey);
	k1 = clamp(b, c, k, -125, 127);
	k2 = clamp(b, c, sirp_op2(b, SIR_OP_ISUB, c->it, k, k1), -126, 127);
	res = fop(b, c, SIR_OP_FMUL, fop(b, c, SIR_OP_FMUL, q1, pow2(b, c, k1)),
		  pow2(b, c, k2));
	return sirp_op3(b, SIR_OP_SELECT, c->ft, special, quick, res);
}

static sir_id expand_fdiv(struct sir_builder *b, sir_id v, void *ctx)
{
	struct sir_instr in = b->f->values[v];
	bool fast = *(bool *)ctx;
	struct fctx c;
	sir_id x = in.srcs[0], y = in.srcs[1], r;

	c.ft = sir_type_make(SIR_FLOAT, 32, in.type.comps);
	c.it = sir_type_make(SIR_INT, 32, in.type.comps);
	c.bt = sirp_bool_of(in.type);
	if (in.type.bits == 16) {
		x = sirp_op1(b, SIR_OP_FCONV, c.ft, x);
		y = sirp_op1(b, SIR_OP_FCONV, c.ft, y);
	}
	if (fast)
		r = fop(b, &c, SIR_OP_FMUL, x,
			sirp_op1(b, SIR_OP_FRCP, c.ft, y));
	else
		r = fdiv32(b, &c, x, y);
	if (in.type.bits == 16)
		r = sirp_op1(b, SIR_OP_FCONV, in.type, r);
	return r;
}

static bool match_fdiv(const struct sir_function *f,
		       const struct sir_instr *in, void *ctx)
{
	(void)f;
	(void)ctx;
	return in->op == SIR_OP_FDIV && in->type.bits <= 32;
}

bool sirl_lower_fdiv(struct sir_function *f, bool fast_math)
{
	return sirl_rewrite(f, match_fdiv, expand_fdiv, &fast_math);
}
