/* SPDX-License-Identifier: MIT */
/*
 * Correctly rounded double division, square root and fused multiply-add
 * (OpenCL 1.2 §7.4: 0 ulp) for Midgard, whose 64-bit lanes add and
 * multiply doubles but have no divide, square root, reciprocal or fma.
 * The finite nonzero cases are computed exactly in 64-bit integers and
 * rounded once to nearest even by round_pack():
 *
 *   division: the 53-bit significands ma / mb (ma shifted so the quotient
 *   lies in [1, 2)) by a restoring loop of 55 quotient bits, the rest a
 *   sticky bit;
 *   square root: the significand (shifted to make the exponent even) by
 *   the digit-by-digit loop, two radicand bits per root bit, 55 root bits
 *   and a sticky bit;
 *   fma: the 106-bit product as a pair of words (UMULHI and IMUL), the
 *   addend aligned to it with the bits shifted out folded into a sticky
 *   bit, added or subtracted in the pair, then normalised to one word with
 *   sticky.
 *
 * round_pack() takes a significand with its top bit at 62 (sticky in bit
 * 0) and a biased exponent, shifts right with sticky for denormal results,
 * rounds at bit 10 and adds exponent field and significand as one integer
 * so a carry moves into the exponent; exponents of 2047 or more are
 * infinity. Zeros, infinities and NaNs take IEEE's rules (a NaN operand
 * quieted, invalid operations the default NaN 0x7FF8000000000000).
 * rsqrt is 1 / sqrt (two correct roundings: within OpenCL's 2 ulp), a
 * reciprocal 1 / x. The loops run a fixed count, so vectors run them lane
 * for lane together; this pass runs before integer division and high
 * multiplication are lowered.
 */
#include "sir_lower.h"

#define SIGN 0x8000000000000000ull
#define INF 0x7FF0000000000000ull
#define QNAN 0x7FF8000000000000ull
#define QUIET 0x0008000000000000ull
#define MANT 0x000FFFFFFFFFFFFFull
#define HIDDEN 0x0010000000000000ull

struct dctx {
	struct sir_builder *b;
	struct sir_type dt, it, bt;
};

static sir_id k(struct dctx *c, uint64_t v)
{
	return sirl_k(c->b, c->it, v);
}

static sir_id op(struct dctx *c, enum sir_op o, sir_id x, sir_id y)
{
	return sirp_op2(c->b, o, c->it, x, y);
}

static sir_id cmp(struct dctx *c, enum sir_op o, sir_id x, sir_id y)
{
	return sirp_op2(c->b, o, c->bt, x, y);
}

static sir_id bor(struct dctx *c, sir_id x, sir_id y)
{
	return sirp_op2(c->b, SIR_OP_BOR, c->bt, x, y);
}

static sir_id band(struct dctx *c, sir_id x, sir_id y)
{
	return sirp_op2(c->b, SIR_OP_BAND, c->bt, x, y);
}

static sir_id sel(struct dctx *c, sir_id cond, sir_id x, sir_id y)
{
	return sirp_op3(c->b, SIR_OP_SELECT, c->it, cond, x, y);
}

/* 1 where cond holds, else 0. */
static sir_id b2i(struct dctx *c, sir_id cond)
{
	return sel(c, cond, k(c, 1), k(c, 0));
}

static sir_id as_int(struct dctx *c, sir_id x)
{
	return sirp_op1(c->b, SIR_OP_BITCAST, c->it, x);
}

/* x >> n (0 <= n, possibly 64 or more) with the bits shifted out ORed
 * into bit 0. */
static sir_id shr_sticky(struct dctx *c, sir_id x, sir_id n)
{
	sir_id big = cmp(c, SIR_OP_ULE, k(c, 64), n);
	sir_id nn = sel(c, big, k(c, 63), n);
	sir_id out = op(c, SIR_OP_LSHR, x, nn);
	sir_id back = op(c, SIR_OP_SHL, out, nn);
	sir_id lost = cmp(c, SIR_OP_INE, back, x);

	out = sel(c, big, k(c, 0), out);
	lost = bor(c, lost, band(c, big, cmp(c, SIR_OP_INE, x, k(c, 0))));
	return op(c, SIR_OP_OR, out,
		  b2i(c, lost));
}

/*
 * Exponent field and significand of x's magnitude bits, normalised: the
 * significand's top bit at 52, a denormal's exponent 1 - (its shift).
 */
static void unpack(struct dctx *c, sir_id mag, sir_id *e, sir_id *m)
{
	sir_id ef = op(c, SIR_OP_LSHR, mag, k(c, 52));
	sir_id f = op(c, SIR_OP_AND, mag, k(c, MANT));
	sir_id den = cmp(c, SIR_OP_IEQ, ef, k(c, 0));
	sir_id lz = op(c, SIR_OP_ISUB, sirp_op1(c->b, SIR_OP_CLZ, c->it, f),
		       k(c, 11));

	lz = sel(c, den, lz, k(c, 0));
	*m = sel(c, den, op(c, SIR_OP_SHL, f, lz),
		 op(c, SIR_OP_OR, f, k(c, HIDDEN)));
	*e = sel(c, den, op(c, SIR_OP_ISUB, k(c, 1), lz), ef);
}

/* sign | the value m * 2^(e - 1023 - 62) rounded to nearest even. */
static sir_id round_pack(struct dctx *c, sir_id sign, sir_id e, sir_id m)
{
	sir_id den = cmp(c, SIR_OP_SLT, e, k(c, 1));
	sir_id huge = cmp(c, SIR_OP_SLT, k(c, 2046), e);
	sir_id bits, rb, inc;

	m = sel(c, den, shr_sticky(c, m, op(c, SIR_OP_ISUB, k(c, 1), e)), m);
	e = sel(c, den, k(c, 1), e);
	bits = op(c, SIR_OP_IADD,
		  op(c, SIR_OP_SHL, op(c, SIR_OP_ISUB, e, k(c, 1)), k(c, 52)),
		  op(c, SIR_OP_LSHR, m, k(c, 10)));
	rb = op(c, SIR_OP_AND, m, k(c, 0x3FF));
	inc = bor(c, cmp(c, SIR_OP_ULT, k(c, 0x200), rb),
		  band(c, cmp(c, SIR_OP_IEQ, rb, k(c, 0x200)),
		       cmp(c, SIR_OP_INE, op(c, SIR_OP_AND, bits, k(c, 1)),
			   k(c, 0))));
	bits = op(c, SIR_OP_IADD, bits, b2i(c, inc));
	bits = sel(c, bor(c, huge, cmp(c, SIR_OP_ULE, k(c, INF), bits)),
		   k(c, INF), bits);
	return op(c, SIR_OP_OR, sign, bits);
}

/*
 * A counted loop after the builder's position: n iterations over the
 * nv loop-carried values vals (updated in place to their values after the
 * loop); step() computes one iteration's new values from the phis.
 */
typedef void loop_step_fn(struct dctx *c, sir_id *cur, sir_id *next);

static void counted_loop(struct dctx *c, unsigned int n, sir_id *vals,
			 unsigned int nv, loop_step_fn *step)
{
	struct sir_builder *b = c->b;
	struct sir_function *f = b->f;
	struct sir_type it32 = sir_type_make(SIR_INT, 32, 1);
	uint32_t pre = b->block, rest, loop, preds[2];
	sir_id phis[8], next[8], srcs[2], i, i2;

	rest = sirp_split_block(f, pre, b->pos);
	loop = sir_block_add(f);
	b->block = pre;
	b->pos = f->blocks[pre].num_instrs;
	sirp_br(b, loop);
	preds[0] = pre;
	preds[1] = loop;
	srcs[0] = sirl_k(b, it32, 0);
	srcs[1] = srcs[0];
	i = sirp_phi(f, loop, it32, srcs, preds, 2);
	for (unsigned int j = 0; j < nv; j++) {
		srcs[0] = vals[j];
		srcs[1] = vals[j];
		phis[j] = sirp_phi(f, loop, c->it, srcs, preds, 2);
	}
	*b = sirp_builder_at(f, loop, nv + 1);
	step(c, phis, next);
	i2 = sirp_op2(b, SIR_OP_IADD, it32, i, sirl_k(b, it32, 1));
	sirp_cbr(b, sirp_op2(b, SIR_OP_ULT, sirp_bool_of(it32), i2,
			     sirl_k(b, it32, n)), loop, rest);
	f->values[i].srcs[1] = i2;
	for (unsigned int j = 0; j < nv; j++) {
		f->values[phis[j]].srcs[1] = next[j];
		vals[j] = next[j];
	}
	*b = sirp_builder_at(f, rest, 0);
}

/* Division step: vals = { remainder, quotient, divisor }. */
static void div_step(struct dctx *c, sir_id *cur, sir_id *next)
{
	sir_id ge = cmp(c, SIR_OP_ULE, cur[2], cur[0]);
	sir_id r = sel(c, ge, op(c, SIR_OP_ISUB, cur[0], cur[2]), cur[0]);

	next[1] = op(c, SIR_OP_OR, op(c, SIR_OP_SHL, cur[1], k(c, 1)),
		     b2i(c, ge));
	next[0] = op(c, SIR_OP_SHL, r, k(c, 1));
	next[2] = cur[2];
}

/* Square root step: vals = { remainder, root, radicand bits left }. */
static void sqrt_step(struct dctx *c, sir_id *cur, sir_id *next)
{
	sir_id r = op(c, SIR_OP_OR, op(c, SIR_OP_SHL, cur[0], k(c, 2)),
		      op(c, SIR_OP_LSHR, cur[2], k(c, 62)));
	sir_id t = op(c, SIR_OP_OR, op(c, SIR_OP_SHL, cur[1], k(c, 2)),
		      k(c, 1));
	sir_id ge = cmp(c, SIR_OP_ULE, t, r);

	next[0] = sel(c, ge, op(c, SIR_OP_ISUB, r, t), r);
	next[1] = op(c, SIR_OP_OR, op(c, SIR_OP_SHL, cur[1], k(c, 1)),
		     b2i(c, ge));
	next[2] = op(c, SIR_OP_SHL, cur[2], k(c, 2));
}

static sir_id is_nan(struct dctx *c, sir_id mag)
{
	return cmp(c, SIR_OP_ULT, k(c, INF), mag);
}

static sir_id fdiv64(struct dctx *c, sir_id a, sir_id bv)
{
	sir_id xa = as_int(c, a), xb = as_int(c, bv);
	sir_id sign = op(c, SIR_OP_AND, op(c, SIR_OP_XOR, xa, xb), k(c, SIGN));
	sir_id aa = op(c, SIR_OP_AND, xa, k(c, ~SIGN));
	sir_id ab = op(c, SIR_OP_AND, xb, k(c, ~SIGN));
	sir_id ea, ma, eb, mb, small, e, vals[3], m, res, special, sv;
	sir_id a_inf, b_inf, a_zero, b_zero;

	unpack(c, aa, &ea, &ma);
	unpack(c, ab, &eb, &mb);
	small = cmp(c, SIR_OP_ULT, ma, mb);
	ma = sel(c, small, op(c, SIR_OP_SHL, ma, k(c, 1)), ma);
	e = op(c, SIR_OP_IADD, op(c, SIR_OP_ISUB, ea, eb), k(c, 1023));
	e = op(c, SIR_OP_ISUB, e, b2i(c, small));
	vals[0] = ma;
	vals[1] = k(c, 0);
	vals[2] = mb;
	counted_loop(c, 55, vals, 3, div_step);
	/* 55 quotient bits, the top one at 54; the rest is sticky. */
	m = op(c, SIR_OP_OR, op(c, SIR_OP_SHL, vals[1], k(c, 8)),
	       b2i(c, cmp(c, SIR_OP_INE, vals[0], k(c, 0))));
	res = round_pack(c, sign, e, m);

	a_inf = cmp(c, SIR_OP_IEQ, aa, k(c, INF));
	b_inf = cmp(c, SIR_OP_IEQ, ab, k(c, INF));
	a_zero = cmp(c, SIR_OP_IEQ, aa, k(c, 0));
	b_zero = cmp(c, SIR_OP_IEQ, ab, k(c, 0));
	/* x / 0 and inf / x: inf; 0 / x and x / inf: 0 (signed). */
	sv = sel(c, bor(c, a_inf, b_zero), op(c, SIR_OP_OR, sign, k(c, INF)),
		 sign);
	sv = sel(c, bor(c, band(c, a_inf, b_inf), band(c, a_zero, b_zero)),
		 k(c, QNAN), sv);
	sv = sel(c, is_nan(c, ab), op(c, SIR_OP_OR, xb, k(c, QUIET)), sv);
	sv = sel(c, is_nan(c, aa), op(c, SIR_OP_OR, xa, k(c, QUIET)), sv);
	special = bor(c, bor(c, cmp(c, SIR_OP_ULE, k(c, INF), aa),
			     cmp(c, SIR_OP_ULE, k(c, INF), ab)),
		      bor(c, a_zero, b_zero));
	return sirp_op1(c->b, SIR_OP_BITCAST, c->dt, sel(c, special, sv, res));
}

static sir_id fsqrt64(struct dctx *c, sir_id a)
{
	sir_id xa = as_int(c, a);
	sir_id aa = op(c, SIR_OP_AND, xa, k(c, ~SIGN));
	sir_id ea, ma, u, odd, e, vals[3], m, res, sv, special;

	unpack(c, aa, &ea, &ma);
	u = op(c, SIR_OP_ISUB, ea, k(c, 1023));
	odd = cmp(c, SIR_OP_INE, op(c, SIR_OP_AND, u, k(c, 1)), k(c, 0));
	ma = sel(c, odd, op(c, SIR_OP_SHL, ma, k(c, 1)), ma);
	u = op(c, SIR_OP_ISUB, u, b2i(c, odd));
	e = op(c, SIR_OP_IADD, op(c, SIR_OP_ASHR, u, k(c, 1)), k(c, 1023));
	/* The radicand ma * 2^56, from its top pair of bits down. */
	vals[0] = k(c, 0);
	vals[1] = k(c, 0);
	vals[2] = op(c, SIR_OP_SHL, ma, k(c, 10));
	counted_loop(c, 55, vals, 3, sqrt_step);
	m = op(c, SIR_OP_OR, op(c, SIR_OP_SHL, vals[1], k(c, 8)),
	       b2i(c, cmp(c, SIR_OP_INE, vals[0], k(c, 0))));
	res = round_pack(c, k(c, 0), e, m);

	/* ±0 and +inf are their own roots; NaN quieted; x < 0 invalid. */
	sv = sel(c, cmp(c, SIR_OP_INE, op(c, SIR_OP_AND, xa, k(c, SIGN)),
			k(c, 0)), k(c, QNAN), xa);
	sv = sel(c, cmp(c, SIR_OP_IEQ, aa, k(c, 0)), xa, sv);
	sv = sel(c, is_nan(c, aa), op(c, SIR_OP_OR, xa, k(c, QUIET)), sv);
	special = bor(c, cmp(c, SIR_OP_ULE, k(c, INF), aa),
		      bor(c, cmp(c, SIR_OP_IEQ, aa, k(c, 0)),
			  cmp(c, SIR_OP_INE,
			      op(c, SIR_OP_AND, xa, k(c, SIGN)), k(c, 0))));
	return sirp_op1(c->b, SIR_OP_BITCAST, c->dt, sel(c, special, sv, res));
}

/* ---- fma: 128-bit integers as word pairs ---- */

struct w128 {
	sir_id hi, lo;
};

/* x >> n (n >= 0, any size) with the bits shifted out ORed into bit 0. */
static struct w128 shr128_sticky(struct dctx *c, struct w128 x, sir_id n)
{
	sir_id s = op(c, SIR_OP_AND, n, k(c, 63));
	sir_id inv = op(c, SIR_OP_ISUB, k(c, 64), s);        /* 64 when s 0 */
	sir_id s0 = cmp(c, SIR_OP_IEQ, s, k(c, 0));
	sir_id lt64 = cmp(c, SIR_OP_ULT, n, k(c, 64));
	sir_id lt128 = cmp(c, SIR_OP_ULT, n, k(c, 128));
	/* The bits of a word above and below a cut at s (0 when s is 0). */
	sir_id hi_up = sel(c, s0, k(c, 0), op(c, SIR_OP_SHL, x.hi, inv));
	sir_id lo_up = sel(c, s0, k(c, 0), op(c, SIR_OP_SHL, x.lo, inv));
	sir_id hi_sh = op(c, SIR_OP_LSHR, x.hi, s);
	sir_id lo_sh = op(c, SIR_OP_LSHR, x.lo, s);
	sir_id lo_nz = cmp(c, SIR_OP_INE, x.lo, k(c, 0));
	sir_id lost, any = bor(c, lo_nz, cmp(c, SIR_OP_INE, x.hi, k(c, 0)));
	struct w128 r;

	r.hi = sel(c, lt64, hi_sh, k(c, 0));
	r.lo = sel(c, lt64, op(c, SIR_OP_OR, lo_sh, hi_up),
		   sel(c, lt128, hi_sh, k(c, 0)));
	lost = sel(c, lt64, b2i(c, cmp(c, SIR_OP_INE, lo_up, k(c, 0))),
		   sel(c, lt128,
		       b2i(c, bor(c, lo_nz,
				  cmp(c, SIR_OP_INE, hi_up, k(c, 0)))),
		       b2i(c, any)));
	r.lo = op(c, SIR_OP_OR, r.lo, lost);
	return r;
}

static struct w128 add128(struct dctx *c, struct w128 x, struct w128 y)
{
	struct w128 r;

	r.lo = op(c, SIR_OP_IADD, x.lo, y.lo);
	r.hi = op(c, SIR_OP_IADD, op(c, SIR_OP_IADD, x.hi, y.hi),
		  b2i(c, cmp(c, SIR_OP_ULT, r.lo, x.lo)));
	return r;
}

/* x - y for x >= y. */
static struct w128 sub128(struct dctx *c, struct w128 x, struct w128 y)
{
	struct w128 r;

	r.lo = op(c, SIR_OP_ISUB, x.lo, y.lo);
	r.hi = op(c, SIR_OP_ISUB, op(c, SIR_OP_ISUB, x.hi, y.hi),
		  b2i(c, cmp(c, SIR_OP_ULT, x.lo, y.lo)));
	return r;
}

static sir_id uge128(struct dctx *c, struct w128 x, struct w128 y)
{
	return bor(c, cmp(c, SIR_OP_ULT, y.hi, x.hi),
		   band(c, cmp(c, SIR_OP_IEQ, x.hi, y.hi),
			cmp(c, SIR_OP_ULE, y.lo, x.lo)));
}

static struct w128 sel128(struct dctx *c, sir_id cond, struct w128 x,
			  struct w128 y)
{
	struct w128 r = { sel(c, cond, x.hi, y.hi), sel(c, cond, x.lo, y.lo) };

	return r;
}

/* The exact a * b + c for finite nonzero a, b, c, rounded once. */
static sir_id fma_finite(struct dctx *c, sir_id xa, sir_id xb, sir_id xc)
{
	sir_id ea, ma, eb, mb, ec, mc, sp, sc, diff, pos, sgn_p, sgn_c, s;
	sir_id same_sign, p_ge, sign, zero, lz, t, e, m, small, sh;
	struct w128 p, q, r, sum, d1, d2, shr;

	unpack(c, op(c, SIR_OP_AND, xa, k(c, ~SIGN)), &ea, &ma);
	unpack(c, op(c, SIR_OP_AND, xb, k(c, ~SIGN)), &eb, &mb);
	unpack(c, op(c, SIR_OP_AND, xc, k(c, ~SIGN)), &ec, &mc);
	/* Product (106 bits) << 20, addend << 72: top bits at 124-125. */
	p.hi = sirp_op2(c->b, SIR_OP_UMULHI, c->it, ma, mb);
	p.lo = op(c, SIR_OP_IMUL, ma, mb);
	p.hi = op(c, SIR_OP_OR, op(c, SIR_OP_SHL, p.hi, k(c, 20)),
		  op(c, SIR_OP_LSHR, p.lo, k(c, 44)));
	p.lo = op(c, SIR_OP_SHL, p.lo, k(c, 20));
	q.hi = op(c, SIR_OP_SHL, mc, k(c, 8));
	q.lo = k(c, 0);
	/* Weights of bit 0: 2^(ea + eb - 2170) and 2^(ec - 1147). */
	sp = op(c, SIR_OP_ISUB, op(c, SIR_OP_IADD, ea, eb), k(c, 2170));
	sc = op(c, SIR_OP_ISUB, ec, k(c, 1147));
	diff = op(c, SIR_OP_ISUB, sp, sc);
	pos = cmp(c, SIR_OP_SLE, k(c, 0), diff);
	/* The one with the smaller weight moves right (sticky). */
	q = sel128(c, pos, shr128_sticky(c, q, sel(c, pos, diff, k(c, 0))), q);
	p = sel128(c, pos, p,
		   shr128_sticky(c, p, sel(c, pos, k(c, 0),
					   op(c, SIR_OP_ISUB, k(c, 0), diff))));
	s = sel(c, pos, sp, sc);
	sgn_p = op(c, SIR_OP_AND, op(c, SIR_OP_XOR, xa, xb), k(c, SIGN));
	sgn_c = op(c, SIR_OP_AND, xc, k(c, SIGN));
	same_sign = cmp(c, SIR_OP_IEQ, sgn_p, sgn_c);
	p_ge = uge128(c, p, q);
	sum = add128(c, p, q);
	d1 = sub128(c, p, q);
	d2 = sub128(c, q, p);
	r = sel128(c, same_sign, sum, sel128(c, p_ge, d1, d2));
	sign = sel(c, bor(c, same_sign, p_ge), sgn_p, sgn_c);
	zero = band(c, cmp(c, SIR_OP_IEQ, r.hi, k(c, 0)),
		    cmp(c, SIR_OP_IEQ, r.lo, k(c, 0)));
	/* Top bit t; to one word with the top at 62. */
	lz = sel(c, cmp(c, SIR_OP_INE, r.hi, k(c, 0)),
		 sirp_op1(c->b, SIR_OP_CLZ, c->it, r.hi),
		 op(c, SIR_OP_IADD, k(c, 64),
		    sirp_op1(c->b, SIR_OP_CLZ, c->it, r.lo)));
	t = op(c, SIR_OP_ISUB, k(c, 127), lz);
	small = cmp(c, SIR_OP_SLT, t, k(c, 62));
	sh = sel(c, small, k(c, 0), op(c, SIR_OP_ISUB, t, k(c, 62)));
	shr = shr128_sticky(c, r, sh);
	m = sel(c, small,
		op(c, SIR_OP_SHL, r.lo,
		   sel(c, small, op(c, SIR_OP_ISUB, k(c, 62), t), k(c, 0))),
		shr.lo);
	e = op(c, SIR_OP_IADD, op(c, SIR_OP_IADD, t, s), k(c, 1023));
	return sel(c, zero, k(c, 0), round_pack(c, sign, e, m));
}

static sir_id fma64(struct dctx *c, sir_id a, sir_id bv, sir_id cv)
{
	sir_id xa = as_int(c, a), xb = as_int(c, bv), xc = as_int(c, cv);
	sir_id aa = op(c, SIR_OP_AND, xa, k(c, ~SIGN));
	sir_id ab = op(c, SIR_OP_AND, xb, k(c, ~SIGN));
	sir_id ac = op(c, SIR_OP_AND, xc, k(c, ~SIGN));
	sir_id prod = sirp_op2(c->b, SIR_OP_FMUL, c->dt, a, bv);
	sir_id r, ab_special, c_special;

	/*
	 * A factor that is zero, infinite or NaN: a * b is exact, and so
	 * is the float sum's rule. An infinite or NaN addend otherwise: it.
	 * A zero addend: the product rounded once.
	 */
	ab_special = bor(c, bor(c, cmp(c, SIR_OP_ULE, k(c, INF), aa),
				cmp(c, SIR_OP_ULE, k(c, INF), ab)),
			 bor(c, cmp(c, SIR_OP_IEQ, aa, k(c, 0)),
			     cmp(c, SIR_OP_IEQ, ab, k(c, 0))));
	c_special = cmp(c, SIR_OP_ULE, k(c, INF), ac);
	r = fma_finite(c, xa, xb, xc);
	r = sel(c, cmp(c, SIR_OP_IEQ, ac, k(c, 0)), as_int(c, prod), r);
	r = sel(c, c_special,
		sel(c, is_nan(c, ac), op(c, SIR_OP_OR, xc, k(c, QUIET)), xc),
		r);
	r = sel(c, ab_special,
		as_int(c, sirp_op2(c->b, SIR_OP_FADD, c->dt, prod, cv)), r);
	return sirp_op1(c->b, SIR_OP_BITCAST, c->dt, r);
}

static bool match_f64(const struct sir_function *f, const struct sir_instr *in,
		      void *ctx)
{
	(void)f;
	(void)ctx;
	if (in->type.kind != SIR_FLOAT || in->type.bits != 64)
		return false;
	return in->op == SIR_OP_FDIV || in->op == SIR_OP_FSQRT ||
	       in->op == SIR_OP_FRSQ || in->op == SIR_OP_FRCP ||
	       in->op == SIR_OP_FMA;
}

static sir_id expand_f64(struct sir_builder *b, sir_id v, void *ctx)
{
	struct sir_instr in = b->f->values[v];
	struct dctx c;

	(void)ctx;
	c.b = b;
	c.dt = in.type;
	c.it = sir_type_make(SIR_INT, 64, in.type.comps);
	c.bt = sirp_bool_of(in.type);
	switch (in.op) {
	case SIR_OP_FDIV:
		return fdiv64(&c, in.srcs[0], in.srcs[1]);
	case SIR_OP_FSQRT:
		return fsqrt64(&c, in.srcs[0]);
	case SIR_OP_FMA:
		return fma64(&c, in.srcs[0], in.srcs[1], in.srcs[2]);
	case SIR_OP_FRCP:
		return fdiv64(&c, sirl_k(b, c.dt, 0x3FF0000000000000ull),
			      in.srcs[0]);
	default:                /* FRSQ */
		return fdiv64(&c, sirl_k(b, c.dt, 0x3FF0000000000000ull),
			      fsqrt64(&c, in.srcs[0]));
	}
}

bool sirl_lower_f64(struct sir_function *f)
{
	return sirl_rewrite(f, match_f64, expand_f64, NULL);
}
