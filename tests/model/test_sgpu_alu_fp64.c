/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the shader ALU's fp64 arithmetic (64-bit register mode,
 * qemu/model/sgpu_alu.c): IEEE binary64 in every rounding mode with
 * denormals kept, the model's NaN rules, compares, min/max, modifiers and
 * the conversions to and from fp32 and the integers. The references are
 * the host FPU under fesetround() and plain C.
 */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "float_bits.h"
#include "sgpu_alu.h"
#include "sgpu_float.h"

CHECK_MAIN_STATE("sgpu_alu_fp64");

#define ID_SWZ 0xE4
#define V_ID MDG_VSRC(0, 0, ID_SWZ)
#define DNAN 0x7FF8000000000000ull

static const int fe_modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
				 FE_UPWARD };

static struct sgpu_alu_operands ops;

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

/* Doubles of every kind: denormals, near overflow, close pairs. */
static double rnd_double(void)
{
	uint64_t u = rnd();

	switch (rnd() % 6) {
	case 0:
		return bitsd(u);                        /* any bits */
	case 1:
		return bitsd(u & 0x800FFFFFFFFFFFFFull);   /* denormal */
	case 2:
		return bitsd((u & 0x801FFFFFFFFFFFFFull) |
			     0x7FD0000000000000ull);       /* near overflow */
	case 3:
		return bitsd((u & 0x800FFFFFFFFFFFFFull) |
			     0x0010000000000000ull);       /* smallest normals */
	default:
		return bitsd((u & 0x800FFFFFFFFFFFFFull) |
			     (uint64_t)(1023 - 30 + rnd() % 60) << 52);
	}
}

/* A 64-bit-mode vector op on lanes 0 and 1 of r0 and r1 into r2. */
static struct mdg_alu op64(uint8_t op)
{
	struct mdg_alu a;

	memset(&a, 0, sizeof(a));
	a.src1_reg = 0;
	a.src2_reg = 1;
	a.dst_reg = 2;
	a.op = op;
	a.reg_mode = MDG_REG_MODE_64;
	a.src1 = V_ID;
	a.src2 = V_ID;
	a.shrink = MDG_SHRINK_NONE;
	a.mask = 0xFF;
	a.outmod = MDG_OUTMOD_NONE;
	return a;
}

/* op on (x, y) in lane 1 (lane 0 gets (y, x)); lane 1's bits. */
static uint64_t run2(uint8_t op, double x, double y, uint8_t outmod)
{
	struct mdg_alu a = op64(op);
	union sgpu_reg d;

	a.outmod = outmod;
	memset(&ops, 0, sizeof(ops));
	memset(&d, 0xAB, sizeof(d));
	ops.src1.u64[0] = dbits(y);
	ops.src2.u64[0] = dbits(x);
	ops.src1.u64[1] = dbits(x);
	ops.src2.u64[1] = dbits(y);
	if (!sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d))
		return 0xDEADBEEFDEADBEEFull;
	return d.u64[1];
}

static uint64_t run2_mul(uint8_t op, double x, double y)
{
	struct mdg_alu a = op64(op);
	union sgpu_reg d;

	memset(&ops, 0, sizeof(ops));
	ops.src1.u64[1] = dbits(x);
	ops.src2.u64[1] = dbits(y);
	if (!sgpu_alu_execute(&a, MDG_UNIT_VMUL, &ops, &d))
		return 0xDEADBEEFDEADBEEFull;
	return d.u64[1];
}

static double host_op(bool mul, double x, double y, int mode)
{
	volatile double a = x, b = y, r;

	fesetround(fe_modes[mode]);
	r = mul ? a * b : a + b;
	fesetround(FE_TONEAREST);
	return r;
}

/* The model's NaN for an op: the first NaN operand quieted, or default. */
static bool is_nan_bits(uint64_t v)
{
	return (v & 0x7FF0000000000000ull) == 0x7FF0000000000000ull &&
	       (v & 0x000FFFFFFFFFFFFFull);
}

TEST(fadd_fmul_all_roundings_random)
{
	unsigned int bad = 0;

	for (int m = 0; m < 4; m++) {
		for (int i = 0; i < 40000; i++) {
			double x = rnd_double(), y = rnd_double();
			uint64_t r, want;

			if (i % 4 == 0)         /* cancellation */
				y = -bitsd(dbits(x) + (rnd() % 5) - 2);
			if (isnan(x) || isnan(y))
				continue;
			r = run2(MDG_ALU_FADD + m, x, y, MDG_OUTMOD_NONE);
			want = dbits(host_op(false, x, y, m));
			if (isnan(bitsd(want)))
				want = DNAN;    /* inf - inf */
			if (r != want && bad++ < 5)
				CHECK_FAIL_AT(__FILE__, __LINE__, "fadd rm %d %a + %a = %a, want %a",
					    m, x, y, bitsd(r), bitsd(want));
			r = run2_mul(MDG_ALU_FMUL + m, x, y);
			want = dbits(host_op(true, x, y, m));
			if (isnan(bitsd(want)))
				want = DNAN;    /* 0 * inf */
			if (r != want && bad++ < 5)
				CHECK_FAIL_AT(__FILE__, __LINE__, "fmul rm %d %a * %a = %a, want %a",
					    m, x, y, bitsd(r), bitsd(want));
		}
	}
	CHECK_EQ(bad, 0);
}

TEST(denormal_products_and_sums)
{
	/* Products whose exact value lies between denormals, in every mode:
	 * the rounding must come from the exact product, not a truncated
	 * error term. */
	static const double xs[] = { 0x1.0000000000001p-540,
				     0x1.fffffffffffffp-537, 3.0, 0x1p-1074,
				     0x1.8p-1000, -0x1.123456789abcdp-600 };
	static const double ys[] = { 0x1.0000000000003p-535, 0x1p-538,
				     0x1.5555555555555p-1060, 0.75,
				     0x1.0000000000001p-75, 0x1.fedcba9876543p-460 };
	unsigned int bad = 0;

	for (int m = 0; m < 4; m++)
		for (unsigned int i = 0; i < sizeof(xs) / sizeof(xs[0]); i++)
			for (unsigned int j = 0; j < sizeof(ys) / sizeof(ys[0]);
			     j++) {
				double x = xs[i], y = ys[j];

				uint64_t r = run2_mul(MDG_ALU_FMUL + m, x, y);
				uint64_t w = dbits(host_op(true, x, y, m));

				if (r != w && bad++ < 5)
					CHECK_FAIL_AT(__FILE__, __LINE__,
						      "rm %d %a * %a = %a, want %a",
						      m, x, y, bitsd(r),
						      bitsd(w));
				r = run2(MDG_ALU_FADD + m, x * 0x1p-500, -y, 0);
				w = dbits(host_op(false, x * 0x1p-500, -y, m));
				if (r != w && bad++ < 5)
					CHECK_FAIL_AT(__FILE__, __LINE__,
						      "rm %d %a + %a = %a, want %a",
						      m, x * 0x1p-500, -y,
						      bitsd(r), bitsd(w));
			}
	CHECK_EQ(bad, 0);
	/* Denormal operands are kept, not flushed. */
	CHECK_EQ(run2(MDG_ALU_FADD, 0x1p-1074, 0x1p-1074, 0),
		 dbits(0x1p-1073));
	CHECK_EQ(run2_mul(MDG_ALU_FMUL, 0x1p-1070, 0.5), dbits(0x1p-1071));
}

TEST(signed_zeros_and_overflow)
{
	CHECK_EQ(run2(MDG_ALU_FADD, 1.5, -1.5, 0), dbits(0.0));
	CHECK_EQ(run2(MDG_ALU_FADD_RTN, 1.5, -1.5, 0), dbits(-0.0));
	CHECK_EQ(run2(MDG_ALU_FADD, -0.0, -0.0, 0), dbits(-0.0));
	CHECK_EQ(run2(MDG_ALU_FADD, -0.0, 0.0, 0), dbits(0.0));
	CHECK_EQ(run2_mul(MDG_ALU_FMUL, -0.0, 5.0), dbits(-0.0));
	CHECK_EQ(run2(MDG_ALU_FADD, DBL_MAX, DBL_MAX, 0), dbits(INFINITY));
	CHECK_EQ(run2(MDG_ALU_FADD_RTZ, DBL_MAX, DBL_MAX, 0), dbits(DBL_MAX));
	CHECK_EQ(run2(MDG_ALU_FADD_RTN, -DBL_MAX, -DBL_MAX, 0),
		 dbits(-INFINITY));
	CHECK_EQ(run2(MDG_ALU_FADD_RTP, -DBL_MAX, -DBL_MAX, 0),
		 dbits(-DBL_MAX));
	CHECK_EQ(run2_mul(MDG_ALU_FMUL_RTZ, -DBL_MAX, 2.0), dbits(-DBL_MAX));
	CHECK_EQ(run2_mul(MDG_ALU_FMUL_RTN, -DBL_MAX, 2.0), dbits(-INFINITY));
	/* Tiny products: RTP gives the smallest denormal, RTN -0. */
	CHECK_EQ(run2_mul(MDG_ALU_FMUL_RTP, 0x1p-600, 0x1p-600),
		 dbits(0x1p-1074));
	CHECK_EQ(run2_mul(MDG_ALU_FMUL_RTN, 0x1p-600, 0x1p-600), dbits(0.0));
	CHECK_EQ(run2_mul(MDG_ALU_FMUL_RTN, -0x1p-600, 0x1p-600),
		 dbits(-0x1p-1074));
	CHECK_EQ(run2_mul(MDG_ALU_FMUL_RTZ, -0x1p-600, 0x1p-600),
		 dbits(-0.0));
}

TEST(nan_rules)
{
	uint64_t snan = 0x7FF0000000000123ull, qnan = 0xFFF8000000000456ull;

	/* The first NaN operand, quieted; invalid operations the default. */
	CHECK_EQ(run2(MDG_ALU_FADD, bitsd(snan), 1.0, 0),
		 snan | 0x0008000000000000ull);
	CHECK_EQ(run2(MDG_ALU_FADD, 1.0, bitsd(qnan), 0), qnan);
	CHECK_EQ(run2(MDG_ALU_FADD, bitsd(qnan), bitsd(snan), 0), qnan);
	CHECK_EQ(run2(MDG_ALU_FADD, INFINITY, -INFINITY, 0), DNAN);
	CHECK_EQ(run2_mul(MDG_ALU_FMUL, INFINITY, 0.0), DNAN);
	CHECK_EQ(run2_mul(MDG_ALU_FMUL, bitsd(snan), 0.0),
		 snan | 0x0008000000000000ull);
	CHECK(is_nan_bits(run2(MDG_ALU_FMIN_NAN, bitsd(qnan), 1.0, 0)));
	/* fmin/fmax: the number when one operand is NaN. */
	CHECK_EQ(run2(MDG_ALU_FMIN, bitsd(qnan), 2.5, 0), dbits(2.5));
	CHECK_EQ(run2(MDG_ALU_FMAX, -7.0, bitsd(snan), 0), dbits(-7.0));
}

TEST(min_max_compares)
{
	unsigned int bad = 0;

	for (int i = 0; i < 20000; i++) {
		double x = rnd_double(), y = i % 3 ? rnd_double() : x;

		if (isnan(x) || isnan(y))
			continue;
		bad += run2(MDG_ALU_FMIN, x, y, 0) !=
		       dbits(x < y || (x == y && signbit(x)) ? x : y);
		bad += run2(MDG_ALU_FMAX, x, y, 0) !=
		       dbits(x > y || (x == y && !signbit(x)) ? x : y);
		bad += run2(MDG_ALU_FEQ, x, y, MDG_OUTMOD_KEEP_LOW) !=
		       (x == y ? UINT64_MAX : 0);
		bad += run2(MDG_ALU_FNE, x, y, MDG_OUTMOD_KEEP_LOW) !=
		       (x != y ? UINT64_MAX : 0);
		bad += run2(MDG_ALU_FLT, x, y, MDG_OUTMOD_KEEP_LOW) !=
		       (x < y ? UINT64_MAX : 0);
		bad += run2(MDG_ALU_FLE, x, y, MDG_OUTMOD_KEEP_LOW) !=
		       (x <= y ? UINT64_MAX : 0);
	}
	CHECK_EQ(bad, 0);
	/* Two doubles differing only in the low word compare unequal. */
	CHECK_EQ(run2(MDG_ALU_FEQ, 1.0, bitsd(dbits(1.0) + 1),
		      MDG_OUTMOD_KEEP_LOW), 0);
	CHECK_EQ(run2(MDG_ALU_FLT, bitsd(DNAN), 1.0, MDG_OUTMOD_KEEP_LOW), 0);
	CHECK_EQ(run2(MDG_ALU_FNE, bitsd(DNAN), 1.0, MDG_OUTMOD_KEEP_LOW),
		 UINT64_MAX);
}

TEST(modifiers_and_swizzles)
{
	struct mdg_alu a = op64(MDG_ALU_FMOV);
	union sgpu_reg d;

	memset(&ops, 0, sizeof(ops));
	ops.src2.u64[0] = dbits(-1.25);
	ops.src2.u64[1] = dbits(3.0);
	/* abs, then neg; lanes swapped by the 32-bit selector pairs. */
	a.src2 = MDG_VSRC(1, 0, 0x4E);          /* .zwxy */
	CHECK(sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d));
	CHECK_EQ(d.u64[0], dbits(3.0));
	CHECK_EQ(d.u64[1], dbits(1.25));
	a.src2 = MDG_VSRC(3, 0, ID_SWZ);
	CHECK(sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d));
	CHECK_EQ(d.u64[0], dbits(-1.25));
	CHECK_EQ(d.u64[1], dbits(-3.0));
	/* Write mask: lane 1 only. */
	memset(&d, 0, sizeof(d));
	a.src2 = V_ID;
	a.mask = 0xF0;
	CHECK(sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d));
	CHECK_EQ(d.u64[0], 0);
	CHECK_EQ(d.u64[1], dbits(3.0));
	/* An fp16 inline immediate reads as its value in fp64 lanes. */
	a = op64(MDG_ALU_FADD);
	ops.src1 = ops.src2;
	a.src2_imm = true;
	a.src2_reg = 0x3E00 >> 11;              /* 1.5 in fp16 */
	a.src2 = (uint16_t)(((0x3E00 >> 8) & 7) << 2 | (0x3E00 & 0xFF) << 5);
	CHECK(sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d));
	CHECK_EQ(d.u64[0], dbits(0.25));
	CHECK_EQ(d.u64[1], dbits(4.5));
	/* Output clamp to [0, 1]. */
	CHECK_EQ(run2(MDG_ALU_FADD, 0.75, 0.5, MDG_OUTMOD_CLAMP_0_1), dbits(1.0));
	CHECK_EQ(run2(MDG_ALU_FADD, -0.75, 0.5, MDG_OUTMOD_CLAMP_0_1), dbits(0.0));
	/* No fp64 dot product. */
	a = op64(MDG_ALU_FDOT4);
	a.mask = 0x0F;
	CHECK(!sgpu_alu_execute(&a, MDG_UNIT_VMUL, &ops, &d));
}

TEST(conversions_f32)
{
	unsigned int bad = 0;

	/* f32 -> f64: fmov with the fp32 source widened (exact). */
	for (int i = 0; i < 20000; i++) {
		struct mdg_alu a = op64(MDG_ALU_FMOV);
		union sgpu_reg d;
		uint32_t lo = (uint32_t)rnd(), hi = (uint32_t)rnd();
		float flo, fhi;

		memcpy(&flo, &lo, 4);
		memcpy(&fhi, &hi, 4);
		memset(&ops, 0, sizeof(ops));
		ops.src2.u32[0] = lo;
		ops.src2.u32[1] = hi;
		a.src2 = MDG_VSRC(0, 4, ID_SWZ);
		CHECK(sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d));
		if (!isnan(flo))
			bad += d.u64[0] != dbits((double)flo);
		if (!isnan(fhi))
			bad += d.u64[1] != dbits((double)fhi);
	}
	CHECK_EQ(bad, 0);
	/* f64 -> f32: fmov with the result shrunk, in every mode. */
	for (int m = 0; m < 4; m++) {
		for (int i = 0; i < 20000; i++) {
			struct mdg_alu a = op64(MDG_ALU_FMOV + m);
			union sgpu_reg d;
			double x = rnd_double();
			volatile double vx = x;
			volatile float want;

			if (isnan(x))
				continue;
			fesetround(fe_modes[m]);
			want = (float)vx;
			fesetround(FE_TONEAREST);
			memset(&ops, 0, sizeof(ops));
			ops.src2.u64[0] = dbits(x);
			a.shrink = MDG_SHRINK_LOWER;
			a.mask = 0x03;
			CHECK(sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d));
			bad += d.u32[0] != fbits(want);
		}
	}
	CHECK_EQ(bad, 0);
}

TEST(conversions_int)
{
	unsigned int bad = 0;

	for (int m = 0; m < 4; m++) {
		for (int i = 0; i < 20000; i++) {
			struct mdg_alu a = op64(MDG_ALU_I2F_RTE + m);
			union sgpu_reg d;
			uint64_t v = rnd() >> (rnd() % 64);
			volatile int64_t sv = (int64_t)(i & 1 ? v : -v);
			volatile uint64_t uv = v;
			volatile double ws, wu;

			fesetround(fe_modes[m]);
			ws = (double)sv;
			wu = (double)uv;
			fesetround(FE_TONEAREST);
			memset(&ops, 0, sizeof(ops));
			ops.src1.u64[0] = (uint64_t)sv;
			ops.src1.u64[1] = uv;
			CHECK(sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d));
			bad += d.u64[0] != dbits(ws);
			a.op = MDG_ALU_U2F_RTE + m;
			CHECK(sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d));
			bad += d.u64[1] != dbits(wu);
		}
	}
	CHECK_EQ(bad, 0);
	/* f64 -> i64 / u64 in each mode, saturating; NaN gives 0. */
	{
		static const double in[] = { 2.5, -2.5, 0x1p63, -0x1p63,
					     -0x1.0000000000001p63, 1e300,
					     -1e300, 0x1.fffffffffffffp62,
					     4503599627370497.5 };
		static const int64_t rne[] = { 2, -2, INT64_MAX, INT64_MIN,
					       INT64_MIN, INT64_MAX, INT64_MIN,
					       0x7FFFFFFFFFFFFC00ll,
					       4503599627370498ll };
		struct mdg_alu a = op64(MDG_ALU_F2I_RTE);
		union sgpu_reg d;

		a.outmod = MDG_OUTMOD_KEEP_LOW;
		for (unsigned int i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
			memset(&ops, 0, sizeof(ops));
			ops.src1.u64[0] = dbits(in[i]);
			ops.src1.u64[1] = DNAN;
			CHECK(sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d));
			CHECK_EQ(d.u64[0], (uint64_t)rne[i]);
			CHECK_EQ(d.u64[1], 0);
		}
		a.op = MDG_ALU_F2U_RTZ;
		ops.src1.u64[0] = dbits(0x1.8p64);
		ops.src1.u64[1] = dbits(1e19 + 4096.75);
		CHECK(sgpu_alu_execute(&a, MDG_UNIT_VADD, &ops, &d));
		CHECK_EQ(d.u64[0], UINT64_MAX);
		CHECK_EQ(d.u64[1], (uint64_t)(1e19 + 4096.75));
	}
}

int main(void)
{
	RUN(fadd_fmul_all_roundings_random);
	RUN(denormal_products_and_sums);
	RUN(signed_zeros_and_overflow);
	RUN(nan_rules);
	RUN(min_max_compares);
	RUN(modifiers_and_swizzles);
	RUN(conversions_f32);
	RUN(conversions_int);
	return check_summary();
}
