/* SPDX-License-Identifier: MIT */
/*
 * Floating-point helpers of the shader core model (see sgpu_float.h): exact
 * rounding to fp16/fp32 in every mode without touching the host's fenv,
 * conversions and the lookup-table ops.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "midgard_isa.h"
#include "sgpu_float.h"

#define D_EXP_MASK 0x7FF0000000000000ull
#define D_MANT_MASK 0x000FFFFFFFFFFFFFull
#define D_SIGN 0x8000000000000000ull
#define D_QUIET 0x0008000000000000ull

static uint64_t d2u(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static double u2d(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

double sgpu_fabs(double x)
{
	return u2d(d2u(x) & ~D_SIGN);
}

double sgpu_fneg(double x)
{
	return u2d(d2u(x) ^ D_SIGN);
}

double sgpu_nan_quiet(double x)
{
	return u2d(d2u(x) | D_QUIET);
}

double sgpu_default_nan(void)
{
	return u2d(0x7FF8000000000000ull);
}

double sgpu_f16_decode(uint16_t h)
{
	uint64_t sign = (uint64_t)(h >> 15) << 63;
	unsigned int exp = (h >> 10) & 0x1F;
	unsigned int mant = h & 0x3FF;
	double v;

	if (exp == 0x1F) {
		if (mant == 0)
			return u2d(sign | D_EXP_MASK);
		/* NaN: the 10 payload bits go to the top of the double's. */
		return u2d(sign | D_EXP_MASK | (uint64_t)mant << 42);
	}
	if (exp == 0) {
		v = (double)mant * 0x1p-24;     /* exact */
		return sign ? -v : v;
	}
	/* Normal: rebias the exponent (15 -> 1023), widen the fraction. */
	return u2d(sign | (uint64_t)(exp + 1008) << 52 | (uint64_t)mant << 42);
}

double sgpu_f32_decode(uint32_t f)
{
	if ((f & 0x7F800000u) == 0x7F800000u && (f & 0x7FFFFFu)) {
		/* Built by hand: a host conversion would quiet an sNaN. */
		return u2d((uint64_t)(f >> 31) << 63 | D_EXP_MASK |
			   (uint64_t)(f & 0x7FFFFFu) << 29);
	}
	if ((f & 0x7F800000u) == 0) {
		/* Zero or denormal: mant * 2^-149, exact. */
		double d = (double)(f & 0x7FFFFFu) * 0x1p-149;

		return (f >> 31) ? -d : d;
	}
	/* Normal or inf: rebias the exponent (127 -> 1023). */
	return u2d((uint64_t)(f >> 31) << 63 |
		   ((f & 0x7F800000u) == 0x7F800000u ? D_EXP_MASK :
		    (uint64_t)(((f >> 23) & 0xFFu) + 896) << 52) |
		   (uint64_t)(f & 0x7FFFFFu) << 29);
}

struct fmt_desc {
	int prec;               /* significand bits, hidden bit included */
	int min_ulp_exp;        /* exponent of the smallest denormal */
	double max_finite;
};

static const struct fmt_desc fmts[] = {
	[SGPU_FMT_F16] = { 11, -24, 65504.0 },
	[SGPU_FMT_F32] = { 24, -149, (double)FLT_MAX },
};

/*
 * Rounds s + e to a value of the format's grid (possibly ±inf), as a double.
 * Works on the scaled significand q = s / ulp so that the decision only
 * needs exact double operations (floor, subtraction of an integer).
 */
static double round_grid(double s, double e, enum sgpu_round r,
			 const struct fmt_desc *fd)
{
	double ulp, q, fl, frac, res;
	bool up, neg = signbit(s) != 0;
	int ex;

	if (!isfinite(s))
		return s;
	if (s == 0.0 && e == 0.0)
		return s;
	if (s == 0.0) {
		/* Only the error remains: treat it as the value. */
		s = e;
		e = 0.0;
		neg = signbit(s) != 0;
	}
	/*
	 * A power of two with an error toward zero lies in the binade
	 * below, whose ulp is half as large.
	 */
	if (frexp(s, &ex) == (neg ? -0.5 : 0.5) && e != 0.0 &&
	    (e < 0.0) != neg)
		ex--;
	ex -= fd->prec;
	if (ex < fd->min_ulp_exp)
		ex = fd->min_ulp_exp;
	ulp = ldexp(1.0, ex);
	q = ldexp(s, -ex);
	fl = floor(q);
	frac = q - fl;
	if (frac == 0.0 && e < 0.0) {
		/* Just below a grid point: between fl - 1 and fl. */
		fl -= 1.0;
		frac = 1.0;
	}
	if (frac == 0.0 && e == 0.0) {
		up = false;
	} else {
		switch (r) {
		case SGPU_RTZ:
			up = neg;
			break;
		case SGPU_RTN:
			up = false;
			break;
		case SGPU_RTP:
			up = true;
			break;
		default:
			if (frac > 0.5)
				up = true;
			else if (frac < 0.5)
				up = false;
			else if (e != 0.0)
				up = e > 0.0;
			else
				up = fmod(fl, 2.0) != 0.0;
			break;
		}
	}
	res = (up ? fl + 1.0 : fl) * ulp;
	if (fabs(res) > fd->max_finite) {
		bool to_inf;

		switch (r) {
		case SGPU_RTZ:
			to_inf = false;
			break;
		case SGPU_RTN:
			to_inf = neg;
			break;
		case SGPU_RTP:
			to_inf = !neg;
			break;
		default:
			to_inf = true;
			break;
		}
		res = to_inf ? INFINITY : fd->max_finite;
		if (neg)
			res = -res;
	}
	if (res == 0.0)
		res = copysign(0.0, s);
	return res;
}

static uint32_t encode_grid_f16(double v)
{
	uint32_t sign = signbit(v) ? 0x8000u : 0;
	double a = fabs(v);
	int ex;

	if (isinf(a))
		return sign | 0x7C00u;
	if (a == 0.0)
		return sign;
	if (a < ldexp(1.0, -14))
		return sign | (uint32_t)ldexp(a, 24);
	frexp(a, &ex);          /* a = f * 2^ex, f in [0.5, 1) */
	/* Biased exponent ex - 1 + 15; significand without its hidden bit. */
	return sign | (uint32_t)(ex + 14) << 10 |
	       ((uint32_t)ldexp(a, 11 - ex) & 0x3FFu);
}

uint32_t sgpu_float_encode(double s, double e, enum sgpu_round r,
			   enum sgpu_fmt fmt)
{
	double v;

	if (isnan(s)) {
		uint64_t u = d2u(s);
		uint32_t sign = (uint32_t)(u >> 63);

		if (fmt == SGPU_FMT_F16) {
			uint32_t m = (uint32_t)((u & D_MANT_MASK) >> 42);

			return sign << 15 | 0x7C00u | (m ? m : 0x200u);
		} else {
			uint32_t m = (uint32_t)((u & D_MANT_MASK) >> 29);

			return sign << 31 | 0x7F800000u | (m ? m : 0x400000u);
		}
	}
	if (fmt == SGPU_FMT_F32 && e == 0.0 && isfinite(s))
		return sgpu_f32_round(s, r);
	v = round_grid(s, e, r, &fmts[fmt]);
	if (fmt == SGPU_FMT_F16)
		return encode_grid_f16(v);
	else {
		float f = (float)v;    /* exact: v is on the fp32 grid */
		uint32_t u;

		memcpy(&u, &f, sizeof(u));
		return u;
	}
}

uint64_t sgpu_f64_encode(double s, double e, enum sgpu_round r)
{
	bool neg = signbit(s) != 0;
	/* The exact result's sign: s's, or e's when s is an underflowed 0. */
	bool exact_neg = s != 0.0 ? neg : signbit(e) != 0;

	if (isnan(s) || e == 0.0 || isnan(e))
		return d2u(s);
	switch (r) {
	case SGPU_RTZ:
		/* Rounded away from zero: one step back toward it. */
		if ((e < 0.0) != neg && s != 0.0)
			s = nextafter(s, 0.0);
		break;
	case SGPU_RTN:
		if (e < 0.0)
			s = nextafter(s, -INFINITY);
		break;
	case SGPU_RTP:
		if (e > 0.0)
			s = nextafter(s, INFINITY);
		break;
	default:
		break;
	}
	/* A zero keeps the sign of the exact (nonzero) result. */
	if (s == 0.0)
		s = exact_neg ? -0.0 : 0.0;
	return d2u(s);
}

uint64_t sgpu_i2f64(uint64_t v, bool is_signed, unsigned int bits,
		    enum sgpu_round r)
{
	bool neg = false;
	uint64_t mag;
	double s, e = 0.0;

	if (bits < 64)
		v &= (1ull << bits) - 1;
	if (is_signed && (v >> (bits - 1)) & 1) {
		neg = true;
		mag = (bits == 64 ? 0 : (1ull << bits)) - v;
	} else {
		mag = v;
	}
	s = (double)mag;        /* the host rounds to nearest even */
	if (s >= 0x1p64)
		e = -1.0;       /* rounded up to 2^64 */
	else if ((uint64_t)s != mag)
		e = (uint64_t)s < mag ? 1.0 : -1.0;
	if (neg) {
		s = -s;
		e = -e;
	}
	return sgpu_f64_encode(s, e, r);
}

double sgpu_f64_mul_error(double a, double b, double s)
{
	int ea, eb;
	double r;

	if (a == 0.0 || b == 0.0)
		return 0.0;
	if (isinf(s))
		return s > 0.0 ? -1.0 : 1.0;    /* overflow */
	if (fabs(s) >= 0x1p-969)
		return fma(a, b, -s);           /* exact here */
	/*
	 * Scaled to [1, 2) each (exact: scaling up loses nothing), the
	 * product's excess over s scaled alike is a multiple of 2^-104 below
	 * 4 in magnitude: fma gives it without underflow, so its sign is
	 * the sign of the unscaled one.
	 */
	ea = ilogb(a);
	eb = ilogb(b);
	r = fma(scalbn(a, -ea), scalbn(b, -eb), -scalbn(s, -ea - eb));
	return r == 0.0 ? 0.0 : copysign(0x1p-1074, r);
}

uint32_t sgpu_f16_to_f32(uint16_t h)
{
	return sgpu_float_encode(sgpu_f16_decode(h), 0.0, SGPU_RTE,
				 SGPU_FMT_F32);
}

uint16_t sgpu_f32_to_f16(uint32_t f, enum sgpu_round r)
{
	return (uint16_t)sgpu_float_encode(sgpu_f32_decode(f), 0.0, r,
					   SGPU_FMT_F16);
}

double sgpu_round_int(double x, enum sgpu_round r)
{
	double fl, frac, res;

	if (!isfinite(x))
		return x;
	fl = floor(x);
	frac = x - fl;
	if (frac == 0.0)
		return x;
	switch (r) {
	case SGPU_RTZ:
		res = x < 0 ? fl + 1.0 : fl;
		break;
	case SGPU_RTN:
		res = fl;
		break;
	case SGPU_RTP:
		res = fl + 1.0;
		break;
	default:
		if (frac > 0.5)
			res = fl + 1.0;
		else if (frac < 0.5)
			res = fl;
		else
			res = fmod(fl, 2.0) != 0.0 ? fl + 1.0 : fl;
		break;
	}
	/* An integral result keeps the sign of x (-0.3 -> -0). */
	return res == 0.0 ? copysign(0.0, x) : res;
}

double sgpu_round_away(double x)
{
	double t;

	if (!isfinite(x))
		return x;
	t = trunc(x);
	if (fabs(x - t) >= 0.5)
		t += x < 0 ? -1.0 : 1.0;
	return t == 0.0 ? copysign(0.0, x) : t;
}

uint64_t sgpu_f2i(double x, enum sgpu_round r, unsigned int bits,
		  bool is_unsigned)
{
	double lim;

	if (isnan(x))
		return 0;
	x = sgpu_round_int(x, r);
	if (is_unsigned) {
		lim = ldexp(1.0, (int)bits);    /* first value out of range */
		if (x <= 0.0)
			return 0;
		if (x >= lim)
			return bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
		return (uint64_t)x;
	}
	lim = ldexp(1.0, (int)bits - 1);
	if (x >= lim)
		return (1ull << (bits - 1)) - 1;
	if (x < -lim)
		return 1ull << (bits - 1);
	{
		int64_t i = (int64_t)x;
		uint64_t u = (uint64_t)i;

		return bits == 64 ? u : u & ((1ull << bits) - 1);
	}
}

uint32_t sgpu_i2f(uint64_t v, bool is_signed, unsigned int bits,
		  enum sgpu_round r, enum sgpu_fmt fmt)
{
	bool neg = false;
	uint64_t mag;
	double s, e;

	if (bits < 64)
		v &= (1ull << bits) - 1;
	if (is_signed && (v >> (bits - 1)) & 1) {
		neg = true;
		/* Two's complement magnitude within bits (2^(bits-1) fits). */
		mag = (bits == 64 ? 0 : (1ull << bits)) - v;
	} else {
		mag = v;
	}
	/*
	 * Split so that both parts are exact doubles and the low part lies
	 * below the high part's granularity (see sgpu_float_encode).
	 */
	s = (double)(mag >> 11 << 11);
	e = (double)(mag & 0x7FF);
	if (mag < (1ull << 53)) {
		s = (double)mag;
		e = 0.0;
	}
	if (neg) {
		s = -s;
		e = -e;
	}
	if (s == 0.0 && e == 0.0)
		s = 0.0;                /* integers have no -0 */
	return sgpu_float_encode(s, e, r, fmt);
}

/* sin(pi * x), reduced exactly so that zeros and ±1 come out exact. */
static double sinpi(double x)
{
	double r, sign = 1.0;

	if (isinf(x))
		return sgpu_default_nan();
	r = fmod(x, 2.0);               /* exact, in (-2, 2) */
	if (r < 0) {
		r = -r;
		sign = -sign;
	}
	if (r >= 1.0) {                 /* sin(pi (r)) = -sin(pi (r - 1)) */
		r -= 1.0;
		sign = -sign;
	}
	if (r > 0.5)
		r = 1.0 - r;
	if (r == 0.0)
		return copysign(0.0, x);   /* sinpi(n) has the sign of n */
	if (r == 0.5)
		return sign;
	return sign * sin(M_PI * r);
}

static double cospi(double x)
{
	double r;

	if (isinf(x))
		return sgpu_default_nan();
	/* cos(pi x) = sin(pi (x + 1/2)) needs no extra rounding: reduce. */
	r = fabs(fmod(x, 2.0));         /* exact, in [0, 2) */
	if (r > 1.0)
		r = 2.0 - r;            /* cos is even about 1 */
	/* Now r in [0, 1]: cos(pi r) = sin(pi (1/2 - r)), exact subtraction. */
	if (r == 0.5)
		return 0.0;
	return sinpi(0.5 - r);
}

double sgpu_lut_exact(unsigned int op, double x)
{
	switch (op) {
	case MDG_ALU_FRCP:
		return 1.0 / x;
	case MDG_ALU_FRSQRT:
		if (x == 0.0)
			return copysign(INFINITY, x);
		if (x < 0.0)
			return sgpu_default_nan();
		return 1.0 / sqrt(x);
	case MDG_ALU_FSQRT:
		if (x < 0.0)
			return sgpu_default_nan();
		return sqrt(x);
	case MDG_ALU_FEXP2:
		return exp2(x);
	case MDG_ALU_FLOG2:
		if (x == 0.0)
			return -INFINITY;
		if (x < 0.0)
			return sgpu_default_nan();
		return log2(x);
	case MDG_ALU_FSINPI:
		return sinpi(x);
	case MDG_ALU_FCOSPI:
		return cospi(x);
	default:
		return sgpu_default_nan();
	}
}

uint32_t sgpu_lut(unsigned int op, double x, enum sgpu_fmt fmt)
{
	double v;

	if (isnan(x))
		return sgpu_float_encode(sgpu_nan_quiet(x), 0.0, SGPU_RTE, fmt);
	v = sgpu_lut_exact(op, x);
	if (isnan(v))
		return sgpu_float_encode(sgpu_default_nan(), 0.0, SGPU_RTE, fmt);
	/* Truncation would give the largest finite value: overflow is inf. */
	if (fabs(v) > fmts[fmt].max_finite)
		v = copysign(INFINITY, v);
	return sgpu_float_encode(v, 0.0, SGPU_RTZ, fmt);
}
