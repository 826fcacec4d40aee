/* SPDX-License-Identifier: MIT */
/*
 * Integer division, remainder and high multiplication for Midgard, which
 * has none of them.
 *
 * 32-bit division: a reciprocal estimate from the float unit scaled to
 * 2^32 / d, one Newton-Raphson step in integers, the quotient estimate as
 * the high half of n * z, then two correction steps (the scheme LLVM uses
 * for AMDGPU; it needs the reciprocal within one ulp, which frcp gives).
 * 8/16-bit division extends to 32 bits. 64-bit division is a restoring
 * shift-subtract loop of 64 iterations. Signed forms divide magnitudes and
 * fix signs, so INT_MIN / -1 wraps. Division by zero gives some value and
 * never traps.
 *
 * High multiplication: 8/16/32-bit through a multiplication at twice the
 * width, 64-bit from four 32x32->64-bit partial products.
 */
#include "sir_lower.h"

static struct sir_type with_bits(struct sir_type t, unsigned int bits)
{
	return sir_type_make(SIR_INT, bits, t.comps);
}

/* Unsigned 32-bit n / d and n % d, lane-wise. */
static void udivrem32(struct sir_builder *b, struct sir_type t, sir_id n,
		      sir_id d, sir_id *q_out, sir_id *r_out)
{
	struct sir_type ft = sir_type_make(SIR_FLOAT, 32, t.comps);
	struct sir_type bt = sirp_bool_of(t);
	sir_id fd, rcp, z, neg_d, q, r, one = sirl_k(b, t, 1);
	unsigned int step;

	fd = sirp_op1(b, SIR_OP_U2F, ft, d);
	rcp = sirp_op1(b, SIR_OP_FRCP, ft, fd);
	/* 0x4f7ffffe: just below 2^32, so z never exceeds 2^32 / d. */
	z = sirp_op2(b, SIR_OP_FMUL, ft, rcp, sirl_k(b, ft, 0x4f7ffffe));
	z = sirp_op1(b, SIR_OP_F2U, t, z);
	b->f->values[z].aux = SIR_CONV_SAT;
	neg_d = sirp_op1(b, SIR_OP_INEG, t, d);
	z = sirp_op2(b, SIR_OP_IADD, t, z,
		     sirp_op2(b, SIR_OP_UMULHI, t, z,
			      sirp_op2(b, SIR_OP_IMUL, t, neg_d, z)));
	q = sirp_op2(b, SIR_OP_UMULHI, t, n, z);
	r = sirp_op2(b, SIR_OP_ISUB, t, n, sirp_op2(b, SIR_OP_IMUL, t, q, d));
	for (step = 0; step < 2; step++) {
		sir_id ge = sirp_op2(b, SIR_OP_ULE, bt, d, r);

		q = sirp_op3(b, SIR_OP_SELECT, t, ge,
			     sirp_op2(b, SIR_OP_IADD, t, q, one), q);
		r = sirp_op3(b, SIR_OP_SELECT, t, ge,
			     sirp_op2(b, SIR_OP_ISUB, t, r, d), r);
	}
	*q_out = q;
	*r_out = r;
}

/* Unsigned 64-bit n / d and n % d: a restoring loop after b's position. */
static void udivrem64(struct sir_builder *b, struct sir_type t, sir_id n,
		      sir_id d, sir_id *q_out, sir_id *r_out)
{
	struct sir_function *f = b->f;
	struct sir_type it = sir_type_make(SIR_INT, 32, 1);
	struct sir_type bt = sirp_bool_of(t);
	uint32_t pre = b->block, rest, loop;
	sir_id zero = sirl_k(b, t, 0), one = sirl_k(b, t, 1);
	sir_id c63 = sirl_k(b, t, 63);
	sir_id i, nn, q, r, carry, r2, n2, q2, ge, i2;
	sir_id srcs[2];
	uint32_t preds[2];

	rest = sirp_split_block(f, pre, b->pos);
	loop = sir_block_add(f);
	b->block = pre;
	b->pos = f->blocks[pre].num_instrs;
	sirp_br(b, loop);
	preds[0] = pre;
	preds[1] = loop;
	/* Phis get their loop-carried sources once those exist. */
	srcs[0] = sirl_k(b, it, 0);
	srcs[1] = srcs[0];
	i = sirp_phi(f, loop, it, srcs, preds, 2);
	srcs[0] = n;
	nn = sirp_phi(f, loop, t, srcs, preds, 2);
	srcs[0] = zero;
	q = sirp_phi(f, loop, t, srcs, preds, 2);
	r = sirp_phi(f, loop, t, srcs, preds, 2);
	*b = sirp_builder_at(f, loop, 4);
	carry = sirp_op2(b, SIR_OP_LSHR, t, r, c63);
	r2 = sirp_op2(b, SIR_OP_OR, t, sirp_op2(b, SIR_OP_SHL, t, r, one),
		      sirp_op2(b, SIR_OP_LSHR, t, nn, c63));
	n2 = sirp_op2(b, SIR_OP_SHL, t, nn, one);
	q2 = sirp_op2(b, SIR_OP_SHL, t, q, one);
	ge = sirp_op2(b, SIR_OP_BOR, bt,
		      sirp_op2(b, SIR_OP_INE, bt, carry, zero),
		      sirp_op2(b, SIR_OP_ULE, bt, d, r2));
	r2 = sirp_op3(b, SIR_OP_SELECT, t, ge,
		      sirp_op2(b, SIR_OP_ISUB, t, r2, d), r2);
	q2 = sirp_op3(b, SIR_OP_SELECT, t, ge,
		      sirp_op2(b, SIR_OP_OR, t, q2, one), q2);
	i2 = sirp_op2(b, SIR_OP_IADD, it, i, sirl_k(b, it, 1));
	sirp_cbr(b, sirp_op2(b, SIR_OP_ULT, sirp_bool_of(it), i2,
			     sirl_k(b, it, 64)), loop, rest);
	f->values[i].srcs[1] = i2;
	f->values[nn].srcs[1] = n2;
	f->values[q].srcs[1] = q2;
	f->values[r].srcs[1] = r2;
	*b = sirp_builder_at(f, rest, 0);
	*q_out = q2;
	*r_out = r2;
}

static void udivrem(struct sir_builder *b, struct sir_type t, sir_id n,
		    sir_id d, sir_id *q, sir_id *r)
{
	if (t.bits == 64)
		udivrem64(b, t, n, d, q, r);
	else
		udivrem32(b, t, n, d, q, r);
}

/* |x| and the lane's sign mask (0 or -1). */
static sir_id magnitude(struct sir_builder *b, struct sir_type t, sir_id x,
			sir_id *sign)
{
	*sign = sirp_op2(b, SIR_OP_ASHR, t, x, sirl_k(b, t, t.bits - 1));
	return sirp_op2(b, SIR_OP_ISUB, t,
			sirp_op2(b, SIR_OP_XOR, t, x, *sign), *sign);
}

/* x negated where sign is -1: (x ^ s) - s. */
static sir_id apply_sign(struct sir_builder *b, struct sir_type t, sir_id x,
			 sir_id sign)
{
	return sirp_op2(b, SIR_OP_ISUB, t,
			sirp_op2(b, SIR_OP_XOR, t, x, sign), sign);
}

static sir_id expand_div(struct sir_builder *b, sir_id v, void *ctx)
{
	struct sir_function *f = b->f;
	struct sir_instr in = f->values[v];
	struct sir_type t = in.type, wt = t;
	enum sir_op op = (enum sir_op)in.op;
	bool is_signed = op == SIR_OP_SDIV || op == SIR_OP_SREM ||
			 op == SIR_OP_SMOD;
	sir_id n = in.srcs[0], d = in.srcs[1], q, r, sn = 0, sd = 0, res;

	(void)ctx;
	if (t.bits < 32) {
		wt = with_bits(t, 32);
		n = sirp_op1(b, is_signed ? SIR_OP_SEXT : SIR_OP_ZEXT, wt, n);
		d = sirp_op1(b, is_signed ? SIR_OP_SEXT : SIR_OP_ZEXT, wt, d);
	}
	if (is_signed) {
		n = magnitude(b, wt, n, &sn);
		d = magnitude(b, wt, d, &sd);
	}
	udivrem(b, wt, n, d, &q, &r);
	switch (op) {
	case SIR_OP_UDIV: res = q; break;
	case SIR_OP_UREM: res = r; break;
	case SIR_OP_SDIV:
		res = apply_sign(b, wt, q,
				 sirp_op2(b, SIR_OP_XOR, wt, sn, sd));
		break;
	default:
		res = apply_sign(b, wt, r, sn);
		if (op == SIR_OP_SMOD) {
			/* A nonzero remainder takes the divisor's sign. */
			struct sir_type bt = sirp_bool_of(wt);
			sir_id zero = sirl_k(b, wt, 0);
			sir_id d0 = in.srcs[1];
			sir_id fix;

			if (t.bits < 32)
				d0 = sirp_op1(b, SIR_OP_SEXT, wt, d0);
			fix = sirp_op2(b, SIR_OP_BAND, bt,
				       sirp_op2(b, SIR_OP_INE, bt, res, zero),
				       sirp_op2(b, SIR_OP_SLT, bt,
						sirp_op2(b, SIR_OP_XOR, wt,
							 res, d0), zero));
			res = sirp_op3(b, SIR_OP_SELECT, wt, fix,
				       sirp_op2(b, SIR_OP_IADD, wt, res, d0),
				       res);
		}
		break;
	}
	if (t.bits < 32)
		res = sirp_op1(b, SIR_OP_TRUNC, t, res);
	return res;
}

static bool match_div(const struct sir_function *f,
		      const struct sir_instr *in, void *ctx)
{
	(void)f;
	(void)ctx;
	return in->op >= SIR_OP_UDIV && in->op <= SIR_OP_SMOD &&
	       in->type.kind == SIR_INT;
}

bool sirl_lower_div(struct sir_function *f)
{
	return sirl_rewrite(f, match_div, expand_div, NULL);
}

/* High half of a 64 x 64-bit product from 32-bit partial products. */
static sir_id mulhi64(struct sir_builder *b, struct sir_type t, sir_id x,
		      sir_id y, bool is_signed)
{
	sir_id lo32 = sirl_k(b, t, 0xffffffffull), c32 = sirl_k(b, t, 32);
	sir_id xl = sirp_op2(b, SIR_OP_AND, t, x, lo32);
	sir_id xh = sirp_op2(b, SIR_OP_LSHR, t, x, c32);
	sir_id yl = sirp_op2(b, SIR_OP_AND, t, y, lo32);
	sir_id yh = sirp_op2(b, SIR_OP_LSHR, t, y, c32);
	sir_id ll = sirp_op2(b, SIR_OP_IMUL, t, xl, yl);
	sir_id lh = sirp_op2(b, SIR_OP_IMUL, t, xl, yh);
	sir_id hl = sirp_op2(b, SIR_OP_IMUL, t, xh, yl);
	sir_id hh = sirp_op2(b, SIR_OP_IMUL, t, xh, yh);
	sir_id mid, hi;

	/* Middle column: at most 3 * (2^32 - 1), no overflow. */
	mid = sirp_op2(b, SIR_OP_IADD, t,
		       sirp_op2(b, SIR_OP_LSHR, t, ll, c32),
		       sirp_op2(b, SIR_OP_AND, t, lh, lo32));
	mid = sirp_op2(b, SIR_OP_IADD, t, mid,
		       sirp_op2(b, SIR_OP_AND, t, hl, lo32));
	hi = sirp_op2(b, SIR_OP_IADD, t, hh,
		      sirp_op2(b, SIR_OP_LSHR, t, lh, c32));
	hi = sirp_op2(b, SIR_OP_IADD, t, hi,
		      sirp_op2(b, SIR_OP_LSHR, t, hl, c32));
	hi = sirp_op2(b, SIR_OP_IADD, t, hi,
		      sirp_op2(b, SIR_OP_LSHR, t, mid, c32));
	if (is_signed) {
		/* As signed: subtract y where x < 0 and x where y < 0. */
		sir_id c63 = sirl_k(b, t, 63);

		hi = sirp_op2(b, SIR_OP_ISUB, t, hi,
			      sirp_op2(b, SIR_OP_AND, t, y,
				       sirp_op2(b, SIR_OP_ASHR, t, x, c63)));
		hi = sirp_op2(b, SIR_OP_ISUB, t, hi,
			      sirp_op2(b, SIR_OP_AND, t, x,
				       sirp_op2(b, SIR_OP_ASHR, t, y, c63)));
	}
	return hi;
}

static sir_id expand_mulhi(struct sir_builder *b, sir_id v, void *ctx)
{
	struct sir_instr in = b->f->values[v];
	struct sir_type t = in.type, wt;
	bool is_signed = in.op == SIR_OP_SMULHI;
	enum sir_op ext = is_signed ? SIR_OP_SEXT : SIR_OP_ZEXT;
	sir_id x, y, p;

	(void)ctx;
	if (t.bits == 64)
		return mulhi64(b, t, in.srcs[0], in.srcs[1], is_signed);
	wt = with_bits(t, t.bits * 2u);
	x = sirp_op1(b, ext, wt, in.srcs[0]);
	y = sirp_op1(b, ext, wt, in.srcs[1]);
	p = sirp_op2(b, SIR_OP_IMUL, wt, x, y);
	p = sirp_op2(b, SIR_OP_LSHR, wt, p, sirl_k(b, wt, t.bits));
	return sirp_op1(b, SIR_OP_TRUNC, t, p);
}

static bool match_mulhi(const struct sir_function *f,
			const struct sir_instr *in, void *ctx)
{
	(void)f;
	(void)ctx;
	return in->op == SIR_OP_UMULHI || in->op == SIR_OP_SMULHI;
}

bool sirl_lower_mulhi(struct sir_function *f)
{
	return sirl_rewrite(f, match_mulhi, expand_mulhi, NULL);
}
