/* SPDX-License-Identifier: MIT */
/*
 * SIR op semantics on constant lanes (see sir_eval.h).
 *
 * Float ops are computed in double and rounded once to the lane format:
 * for +, -, *, / and sqrt double's 53 bits are enough for that double
 * rounding to be innocuous (53 >= 2 * 24 + 2), so the result is the
 * correctly rounded one. FMA uses the C library's fused fmaf/fma.
 */
#include "sir_eval.h"

#include <math.h>
#include <string.h>

#include "sir_pass_util.h"

double sir_half_to_double(uint16_t h)
{
	int exp = (h >> 10) & 0x1f;
	double m = h & 0x3ff, v;

	if (exp == 0x1f)
		v = m != 0 ? NAN : INFINITY;
	else if (exp == 0)
		v = ldexp(m, -24);
	else
		v = ldexp(m + 1024, exp - 25);
	return (h & 0x8000) ? -v : v;
}

uint16_t sir_double_to_half(double d)
{
	uint16_t sign = signbit(d) ? 0x8000 : 0;
	double a = fabs(d), r;
	int ex;

	if (isnan(d))
		return sign | 0x7e00;
	if (a >= 65520.0)
		return sign | 0x7c00;
	if (a < ldexp(1.0, -14))
		return sign | (uint16_t)rint(ldexp(a, 24));
	frexp(a, &ex);
	ex -= 1;                     /* a = 1.m * 2^ex */
	r = rint(ldexp(a, 10 - ex));
	if (r >= 2048.0) {
		r = 1024.0;
		ex++;
	}
	if (ex + 15 >= 31)
		return sign | 0x7c00;
	return sign | (uint16_t)((ex + 15) << 10) | (uint16_t)(r - 1024.0);
}

static double lane_to_double(uint64_t v, unsigned int bits)
{
	if (bits == 16)
		return sir_half_to_double((uint16_t)v);
	if (bits == 32) {
		uint32_t u = (uint32_t)v;
		float fl;

		memcpy(&fl, &u, 4);
		return fl;
	}
	{
		double d;

		memcpy(&d, &v, 8);
		return d;
	}
}

static uint64_t double_to_lane(double d, unsigned int bits)
{
	if (bits == 16)
		return sir_double_to_half(d);
	if (bits == 32) {
		float fl = (float)d;
		uint32_t u;

		memcpy(&u, &fl, 4);
		return u;
	}
	{
		uint64_t u;

		memcpy(&u, &d, 8);
		return u;
	}
}

/* Rounded toward zero, as the model's LUT ops round. */
static uint64_t double_to_lane_rtz(double d, unsigned int bits)
{
	uint64_t r = double_to_lane(d, bits);
	double back = lane_to_double(r, bits);

	if (isfinite(back) && fabs(back) > fabs(d))
		r--;                 /* one step toward zero in magnitude */
	return r;
}

static int64_t sext(uint64_t v, unsigned int bits)
{
	if (bits >= 64)
		return (int64_t)v;
	v &= (1ull << bits) - 1;
	if (v >> (bits - 1))
		v |= ~0ull << bits;
	return (int64_t)v;
}

static uint64_t mask(uint64_t v, unsigned int bits)
{
	return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

static int64_t smin_of(unsigned int bits)
{
	return bits >= 64 ? INT64_MIN : -(int64_t)(1ull << (bits - 1));
}

static int64_t smax_of(unsigned int bits)
{
	return bits >= 64 ? INT64_MAX : (int64_t)((1ull << (bits - 1)) - 1);
}

/* Integer binary and unary ops; false when undefined (x / 0). */
static bool eval_int(enum sir_op op, unsigned int bits, uint64_t a,
		     uint64_t b, uint64_t *r)
{
	int64_t sa = sext(a, bits), sb = sext(b, bits);
	unsigned int sh = (unsigned int)(b % bits);

	a = mask(a, bits);
	b = mask(b, bits);
	switch (op) {
	case SIR_OP_IADD: *r = a + b; break;
	case SIR_OP_ISUB: *r = a - b; break;
	case SIR_OP_IMUL: *r = a * b; break;
	case SIR_OP_INEG: *r = 0 - a; break;
	case SIR_OP_UMULHI:
		*r = (uint64_t)(((unsigned __int128)a * b) >> bits);
		break;
	case SIR_OP_SMULHI:
		*r = (uint64_t)(((__int128)sa * sb) >> bits);
		break;
	case SIR_OP_UDIV:
	case SIR_OP_UREM:
		if (!b)
			return false;
		*r = op == SIR_OP_UDIV ? a / b : a % b;
		break;
	case SIR_OP_SDIV:
	case SIR_OP_SREM:
	case SIR_OP_SMOD: {
		__int128 q, rem;

		if (!sb)
			return false;
		q = (__int128)sa / sb;
		rem = (__int128)sa % sb;
		if (op == SIR_OP_SMOD && rem && ((rem < 0) != (sb < 0)))
			rem += sb;
		*r = op == SIR_OP_SDIV ? (uint64_t)q : (uint64_t)rem;
		break;
	}
	case SIR_OP_AND: *r = a & b; break;
	case SIR_OP_OR: *r = a | b; break;
	case SIR_OP_XOR: *r = a ^ b; break;
	case SIR_OP_NOT: *r = ~a; break;
	case SIR_OP_SHL: *r = a << sh; break;
	case SIR_OP_LSHR: *r = a >> sh; break;
	case SIR_OP_ASHR: *r = (uint64_t)(sa >> sh); break;
	case SIR_OP_SMIN: *r = (uint64_t)(sa < sb ? sa : sb); break;
	case SIR_OP_SMAX: *r = (uint64_t)(sa > sb ? sa : sb); break;
	case SIR_OP_UMIN: *r = a < b ? a : b; break;
	case SIR_OP_UMAX: *r = a > b ? a : b; break;
	case SIR_OP_IABS: *r = sa < 0 ? 0 - a : a; break;
	case SIR_OP_UADD_SAT:
		*r = mask(a + b, bits) < a ? ~0ull : a + b;
		break;
	case SIR_OP_USUB_SAT: *r = a < b ? 0 : a - b; break;
	case SIR_OP_SADD_SAT:
	case SIR_OP_SSUB_SAT: {
		__int128 s = op == SIR_OP_SADD_SAT ? (__int128)sa + sb :
			     (__int128)sa - sb;

		if (s > smax_of(bits))
			s = smax_of(bits);
		if (s < smin_of(bits))
			s = smin_of(bits);
		*r = (uint64_t)s;
		break;
	}
	case SIR_OP_CLZ: {
		unsigned int n = 0;

		while (n < bits && !((a >> (bits - 1 - n)) & 1))
			n++;
		*r = n;
		break;
	}
	case SIR_OP_POPCOUNT: *r = (uint64_t)__builtin_popcountll(a); break;
	case SIR_OP_IEQ: *r = a == b; break;
	case SIR_OP_INE: *r = a != b; break;
	case SIR_OP_SLT: *r = sa < sb; break;
	case SIR_OP_SLE: *r = sa <= sb; break;
	case SIR_OP_ULT: *r = a < b; break;
	case SIR_OP_ULE: *r = a <= b; break;
	default:
		return false;
	}
	if (op < SIR_OP_IEQ || op > SIR_OP_ULE)
		*r = mask(*r, bits);
	return true;
}

static double fmin_cl(double a, double b, bool is_max)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	if (a == b)          /* -0 is the smaller zero */
		return (signbit(a) != is_max) ? a : b;
	return (a < b) != is_max ? a : b;
}

/* Float ops on one lane of the given width. */
static bool eval_float(enum sir_op op, unsigned int bits, uint64_t la,
		       uint64_t lb, uint64_t lc, enum sir_eval_mode mode,
		       uint64_t *r)
{
	double a = lane_to_double(la, bits), b = lane_to_double(lb, bits);
	double c = lane_to_double(lc, bits), v;
	bool lut = false;

	switch (op) {
	case SIR_OP_FADD: v = a + b; break;
	case SIR_OP_FSUB: v = a - b; break;
	case SIR_OP_FMUL: v = a * b; break;
	case SIR_OP_FDIV: v = a / b; break;
	case SIR_OP_FNEG: *r = la ^ (1ull << (bits - 1)); return true;
	case SIR_OP_FABS: *r = la & ~(1ull << (bits - 1)); return true;
	case SIR_OP_FCOPYSIGN:
		*r = (la & ~(1ull << (bits - 1))) |
		     (lb & (1ull << (bits - 1)));
		return true;
	case SIR_OP_FMIN: v = fmin_cl(a, b, false); break;
	case SIR_OP_FMAX: v = fmin_cl(a, b, true); break;
	case SIR_OP_FMA:
		if (bits == 32)
			v = fmaf((float)a, (float)b, (float)c);
		else if (bits == 64)
			v = fma(a, b, c);
		else
			return false; /* would round twice */
		break;
	case SIR_OP_FMAD: v = (double)(float)(a * b) + c;
		if (bits != 32)
			return false;
		break;
	case SIR_OP_FFLOOR: v = floor(a); break;
	case SIR_OP_FCEIL: v = ceil(a); break;
	case SIR_OP_FTRUNC: v = trunc(a); break;
	case SIR_OP_FRINT: v = rint(a); break;
	case SIR_OP_FROUND: v = round(a); break;
	case SIR_OP_FSQRT: v = sqrt(a); break;
	case SIR_OP_FRSQ: v = 1.0 / sqrt(a); lut = true; break;
	case SIR_OP_FRCP: v = 1.0 / a; lut = true; break;
	case SIR_OP_FEXP2: v = exp2(a); lut = true; break;
	case SIR_OP_FLOG2: v = log2(a); lut = true; break;
	case SIR_OP_FSIN: v = sin(a); lut = true; break;
	case SIR_OP_FCOS: v = cos(a); lut = true; break;
	case SIR_OP_FEQ: *r = a == b; return true;
	case SIR_OP_FNE: *r = !(a == b); return true;
	case SIR_OP_FLT: *r = a < b; return true;
	case SIR_OP_FLE: *r = a <= b; return true;
	case SIR_OP_FUNORD: *r = isnan(a) || isnan(b); return true;
	default:
		return false;
	}
	if (lut) {
		if (mode != SIR_EVAL_MODEL || bits != 32)
			return false;
		*r = double_to_lane_rtz(v, bits);
		return true;
	}
	*r = double_to_lane(v, bits);
	return true;
}

/* Float to integer, toward zero, saturating (NaN: 0). */
static uint64_t f2i(double v, unsigned int bits, bool is_signed)
{
	double lo, hi;

	if (isnan(v))
		return 0;
	v = trunc(v);
	lo = is_signed ? ldexp(-1.0, (int)bits - 1) : 0.0;
	hi = ldexp(1.0, (int)bits - (is_signed ? 1 : 0));
	if (v < lo)
		return is_signed ? mask((uint64_t)smin_of(bits), bits) : 0;
	if (v >= hi)
		return mask(is_signed ? (uint64_t)smax_of(bits) : ~0ull, bits);
	return mask(is_signed ? (uint64_t)(int64_t)v : (uint64_t)v, bits);
}

/* Integer to float; only round-to-nearest or exact results. */
static bool i2f(uint64_t v, unsigned int sbits, bool is_signed,
		unsigned int dbits, uint32_t aux, uint64_t *r)
{
	int64_t s = sext(v, sbits);
	double d;

	v = mask(v, sbits);
	if (dbits == 32) {
		float fl = is_signed ? (float)s : (float)v;

		d = fl;
	} else {
		d = is_signed ? (double)s : (double)v;
	}
	if ((aux & SIR_CONV_ROUND_MASK) != SIR_CONV_RTE) {
		/* Directed roundings: only when the conversion is exact. */
		if (is_signed ? (d != (double)s || (double)s >= 0x1p63 ||
				 (int64_t)d != s) :
				(d >= 0x1p64 || (uint64_t)d != v))
			return false;
	}
	*r = double_to_lane(d, dbits);
	return true;
}

static bool eval_conv(const struct sir_instr *in, struct sir_type st,
		      uint64_t a, uint64_t *r)
{
	struct sir_type dt = in->type;
	unsigned int sbits = st.kind == SIR_BOOL ? 1 : st.bits;

	switch (in->op) {
	case SIR_OP_SEXT:
		*r = mask((uint64_t)sext(a, sbits), dt.bits);
		return true;
	case SIR_OP_ZEXT:
		*r = mask(a, sbits);
		return true;
	case SIR_OP_TRUNC:
		*r = mask(a, dt.bits);
		return true;
	case SIR_OP_F2S:
	case SIR_OP_F2U:
		*r = f2i(lane_to_double(a, st.bits), dt.bits,
			 in->op == SIR_OP_F2S);
		return true;
	case SIR_OP_S2F:
	case SIR_OP_U2F:
		return i2f(a, sbits, in->op == SIR_OP_S2F, dt.bits, in->aux, r);
	case SIR_OP_FCONV: {
		double d = lane_to_double(a, st.bits);

		*r = double_to_lane(d, dt.bits);
		if ((in->aux & SIR_CONV_ROUND_MASK) != SIR_CONV_RTE &&
		    !isnan(d) && lane_to_double(*r, dt.bits) != d)
			return false;
		return true;
	}
	default:
		return false;
	}
}

/* Little-endian byte image of a value's lanes (vec3 as 3 lanes). */
static void lanes_to_bytes(struct sir_type t, const uint64_t *l, uint8_t *b)
{
	unsigned int i, k, sz = t.bits / 8;

	for (i = 0; i < t.comps; i++)
		for (k = 0; k < sz; k++)
			b[i * sz + k] = (uint8_t)(l[i] >> (8 * k));
}

static void bytes_to_lanes(struct sir_type t, const uint8_t *b, uint64_t *l)
{
	unsigned int i, k, sz = t.bits / 8;

	for (i = 0; i < t.comps; i++) {
		l[i] = 0;
		for (k = 0; k < sz; k++)
			l[i] |= (uint64_t)b[i * sz + k] << (8 * k);
	}
}

static bool eval_plumbing(const struct sir_function *f,
			  const struct sir_instr *in,
			  const uint64_t *const *srcs, uint64_t *out)
{
	struct sir_type t0 = in->num_srcs ?
			     f->values[in->srcs[0]].type : in->type;
	unsigned int i, n = 0;

	switch (in->op) {
	case SIR_OP_CONST:
		memcpy(out, in->imm.u64, sizeof(in->imm.u64));
		return true;
	case SIR_OP_COPY:
		memcpy(out, srcs[0], 16 * sizeof(*out));
		return true;
	case SIR_OP_VEC:
		for (i = 0; i < in->num_srcs; i++) {
			unsigned int c = f->values[in->srcs[i]].type.comps, k;

			for (k = 0; k < c && n < 16; k++)
				out[n++] = srcs[i][k];
		}
		return n == in->type.comps;
	case SIR_OP_EXTRACT:
		if (in->aux >= t0.comps)
			return false;
		out[0] = srcs[0][in->aux];
		return true;
	case SIR_OP_INSERT:
		if (in->aux >= t0.comps)
			return false;
		memcpy(out, srcs[0], 16 * sizeof(*out));
		out[in->aux] = srcs[1][0];
		return true;
	case SIR_OP_SHUFFLE:
		for (i = 0; i < in->type.comps; i++) {
			uint64_t s = in->imm.u64[i];

			if (s < t0.comps)
				out[i] = srcs[0][s];
			else if (s < 2u * t0.comps)
				out[i] = srcs[1][s - t0.comps];
			else
				out[i] = 0;  /* undefined lane */
		}
		return true;
	case SIR_OP_SELECT: {
		unsigned int cc = f->values[in->srcs[0]].type.comps;

		for (i = 0; i < in->type.comps; i++)
			out[i] = srcs[0][cc == 1 ? 0 : i] ? srcs[1][i] :
							     srcs[2][i];
		return true;
	}
	case SIR_OP_BITCAST: {
		uint8_t bytes[128];

		if (t0.kind == SIR_BOOL || in->type.kind == SIR_BOOL ||
		    t0.bits * t0.comps != in->type.bits * in->type.comps)
			return false;
		lanes_to_bytes(t0, srcs[0], bytes);
		bytes_to_lanes(in->type, bytes, out);
		return true;
	}
	default:
		return false;
	}
}

bool sir_eval_instr(const struct sir_function *f, const struct sir_instr *in,
		    const uint64_t *const *srcs, uint64_t out[16],
		    enum sir_eval_mode mode)
{
	struct sir_type t0;
	unsigned int i, comps;
	enum sir_op op = in->op;

	memset(out, 0, 16 * sizeof(*out));
	if (op == SIR_OP_CONST || op == SIR_OP_COPY || op == SIR_OP_VEC ||
	    (op >= SIR_OP_EXTRACT && op <= SIR_OP_BITCAST))
		return eval_plumbing(f, in, srcs, out);
	if (!in->num_srcs)
		return false;
	t0 = f->values[in->srcs[0]].type;
	comps = t0.comps;
	if (op == SIR_OP_ANY || op == SIR_OP_ALL) {
		bool any = false, all = true;

		for (i = 0; i < comps; i++) {
			any |= srcs[0][i] != 0;
			all &= srcs[0][i] != 0;
		}
		out[0] = op == SIR_OP_ANY ? any : all;
		return true;
	}
	if (op == SIR_OP_FDOT) {
		/*
		 * Products are exact in double and the sum is rounded to float
		 * once, as Midgard's fdot does. NaN payloads are the
		 * hardware's choice: not folded.
		 */
		double sum = 0.0;

		for (i = 0; i < comps; i++)
			sum += lane_to_double(srcs[0][i], 32) *
			       lane_to_double(srcs[1][i], 32);
		if (isnan(sum))
			return false;
		out[0] = double_to_lane(sum, 32);
		return true;
	}
	for (i = 0; i < comps; i++) {
		uint64_t a = srcs[0][i];
		uint64_t b = in->num_srcs > 1 ? srcs[1][i] : 0;
		uint64_t c = in->num_srcs > 2 ? srcs[2][i] : 0;
		bool ok;

		if (op >= SIR_OP_SEXT && op <= SIR_OP_FCONV)
			ok = eval_conv(in, t0, a, &out[i]);
		else if (op >= SIR_OP_BNOT && op <= SIR_OP_BNE) {
			ok = true;
			out[i] = op == SIR_OP_BNOT ? !a :
				 op == SIR_OP_BAND ? (a && b) :
				 op == SIR_OP_BOR ? (a || b) :
				 op == SIR_OP_BEQ ? (!a == !b) : (!a != !b);
		} else if (t0.kind == SIR_FLOAT)
			ok = eval_float(op, t0.bits, a, b, c, mode, &out[i]);
		else if (t0.kind == SIR_INT || t0.kind == SIR_PTR)
			ok = eval_int(op, t0.bits, a, b, &out[i]);
		else
			ok = false;
		if (!ok)
			return false;
	}
	return true;
}
