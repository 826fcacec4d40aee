/* SPDX-License-Identifier: MIT */
/*
 * Floating-point helpers of the shader core model: fp16/fp32 encoding with
 * every rounding mode, rounding to integers, float<->integer conversions and
 * the lookup-table (transcendental) ops. They exist so that the ALU model
 * (sgpu_alu.c) gets exact, host-independent results: nothing here reads or
 * changes the host's floating-point environment (QEMU runs the model on a
 * worker thread whose fenv we must not depend on).
 *
 * Values travel as doubles: every fp16 and fp32 value is exactly a double,
 * and NaNs are built bit by bit so that their payload (and whether they are
 * signalling) survives a round trip fp32 -> double -> fp32.
 */
#ifndef SLEIPNIR_SGPU_FLOAT_H
#define SLEIPNIR_SGPU_FLOAT_H

#include <stdbool.h>
#include <stdint.h>

/* Rounding modes, in the order of the ops' rounding variants (op + 0..3). */
enum sgpu_round {
	SGPU_RTE,
	SGPU_RTZ,
	SGPU_RTN,
	SGPU_RTP,
};

enum sgpu_fmt {
	SGPU_FMT_F16,
	SGPU_FMT_F32,
};

/* The NaN the model produces when an operation creates one. */
#define SGPU_F32_DEFAULT_NAN 0x7FC00000u
#define SGPU_F16_DEFAULT_NAN 0x7E00u

/* Exact decoding; NaN payloads are kept (shifted into the double). */
double sgpu_f16_decode(uint16_t h);
double sgpu_f32_decode(uint32_t f);

/*
 * Rounds the real number s + e to fmt with mode r and returns its bits.
 * e is the error term of a computation done in double (0 when s is exact);
 * it must be small enough that s + e crosses no point of the target's
 * half-ulp grid other than s itself (true for TwoSum errors, and for the
 * integer splits sgpu_i2f uses). A NaN s is converted keeping its payload's
 * top bits (quiet it first if the op must quiet).
 */
uint32_t sgpu_float_encode(double s, double e, enum sgpu_round r,
			   enum sgpu_fmt fmt);

/*
 * The finite double v, taken as the exact value, rounded to fp32 with mode
 * r: the bits sgpu_float_encode(v, 0.0, r, SGPU_FMT_F32) returns, computed
 * with integer operations only (no fenv, no libm). Inline: the ALU's fast
 * paths round every fp32 add and multiply with it.
 */
static inline uint32_t sgpu_f32_round(double v, enum sgpu_round r)
{
	uint64_t u, m, rem, half;
	uint32_t sign, base, q;
	int fe, sh;
	bool up;

	__builtin_memcpy(&u, &v, sizeof(u));
	sign = (uint32_t)(u >> 63) << 31;
	m = u & 0x000FFFFFFFFFFFFFull;
	fe = (int)((u >> 52) & 0x7FF);
	if (fe == 0) {
		if (m == 0)
			return sign;            /* ±0 */
		fe = 1;                         /* double denormal */
	} else {
		m |= 1ull << 52;
	}
	fe -= 1023 - 127;                       /* fp32 biased exponent */
	if (fe >= 255)
		goto overflow;
	if (fe >= 1) {
		/* m >> 29 keeps the hidden bit, which adds 1 to fe - 1. */
		sh = 29;
		base = (uint32_t)(fe - 1) << 23;
	} else {
		sh = 30 - fe;                   /* fp32 denormal */
		base = 0;
	}
	if (sh > 62) {
		/* Far below half the smallest denormal (m < 2^53). */
		q = 0;
		rem = 1;
		half = 2;
	} else {
		q = (uint32_t)(m >> sh);
		rem = m & ((1ull << sh) - 1);
		half = 1ull << (sh - 1);
	}
	switch (r) {
	case SGPU_RTZ:
		up = false;
		break;
	case SGPU_RTN:
		up = sign && rem;
		break;
	case SGPU_RTP:
		up = !sign && rem;
		break;
	default:
		up = rem > half || (rem == half && (q & 1));
		break;
	}
	q = base + q + up;      /* a carry moves to the next binade / inf */
	if (q < 0x7F800000u)
		return sign | q;
overflow:
	switch (r) {
	case SGPU_RTZ:
		return sign | 0x7F7FFFFFu;
	case SGPU_RTN:
		return sign | (sign ? 0x7F800000u : 0x7F7FFFFFu);
	case SGPU_RTP:
		return sign | (sign ? 0x7F7FFFFFu : 0x7F800000u);
	default:
		return sign | 0x7F800000u;
	}
}

/* Bit-level sign operations (never touch a NaN's payload). */
double sgpu_fabs(double x);
double sgpu_fneg(double x);
/* A NaN with its quiet bit set. */
double sgpu_nan_quiet(double x);
/* The default NaN (encodes to SGPU_F32_DEFAULT_NAN / SGPU_F16_DEFAULT_NAN). */
double sgpu_default_nan(void);

/* x rounded to an integral value with mode r (x finite or not; NaN kept). */
double sgpu_round_int(double x, enum sgpu_round r);
/* x rounded to an integral value, halfway cases away from zero. */
double sgpu_round_away(double x);

/*
 * x rounded with r to a bits-wide integer (8..64), saturating at the
 * type's range; NaN gives 0. Returned as the integer's bit pattern.
 */
uint64_t sgpu_f2i(double x, enum sgpu_round r, unsigned int bits,
		  bool is_unsigned);
/* The bits-wide integer v (signed or not) converted to fmt with mode r. */
uint32_t sgpu_i2f(uint64_t v, bool is_signed, unsigned int bits,
		  enum sgpu_round r, enum sgpu_fmt fmt);

/*
 * fp64 results. s is an operation's result rounded to nearest even by the
 * host (binary64 arithmetic, denormals kept); e is the exact result minus
 * s, or, where that is not a double, any value of its sign (0 when s is
 * exact). A finite exact result that overflowed to s = ±inf has e of the
 * opposite sign. Returns the binary64 bits of the exact result rounded
 * with r; a NaN s is returned as it is (quiet it first if the op must).
 */
uint64_t sgpu_f64_encode(double s, double e, enum sgpu_round r);
/* The bits-wide integer v (signed or not) converted to fp64 with mode r. */
uint64_t sgpu_i2f64(uint64_t v, bool is_signed, unsigned int bits,
		    enum sgpu_round r);
/*
 * The exact a * b - s for finite a, b and s = a * b rounded to nearest
 * even, as sgpu_f64_encode wants e: exact where it is a double, otherwise
 * (results below 2^-969, where the error may be finer than the smallest
 * denormal) the smallest denormal of its sign, or 0.
 */
double sgpu_f64_mul_error(double a, double b, double s);

/* Convenience conversions between formats (used by tests and the ALU). */
uint32_t sgpu_f16_to_f32(uint16_t h);
uint16_t sgpu_f32_to_f16(uint32_t f, enum sgpu_round r);

/*
 * The model's LUT result for x, as fmt bits: computed in double, then
 * truncated toward zero (results beyond the format's range become ±inf).
 * A NaN input gives that NaN, quieted.
 */
uint32_t sgpu_lut(unsigned int op, double x, enum sgpu_fmt fmt);
/* The double-precision value the LUT op approximates (before truncation). */
double sgpu_lut_exact(unsigned int op, double x);

#endif
