/* SPDX-License-Identifier: MIT */
/*
 * half (cl_khr_fp16) arithmetic end to end: the kernels of
 * corpus/fp16_ops.cl compiled by slc_compile_source() and run on the model
 * core through the launch library (corpus_runner.c), each op on all 65536
 * halves against a sample of second operands, checked against a binary16
 * reference written here: the exact result in double (sums, products and
 * square roots of halves are exact there or rounded far below a half's
 * ulp; fma keeps its double rounding error by TwoSum) rounded once to
 * binary16 in the mode asked for, denormals kept (OpenCL 1.2 §9.5 and
 * CL_DEVICE_HALF_FP_CONFIG: round to nearest, inf and NaN, denormals).
 * NaN results match any NaN; fmin/fmax of two zeros either zero.
 * Built as usual and with -cl-opt-disable.
 *
 * Also the code itself: the ops Midgard has in reg mode 16 must come out
 * as 16-bit instructions (.f16 / .i16 in the disassembly) and no fp32
 * arithmetic, so the test fails if they go back through fp32.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_runner.h"
#include "midgard_isa.h"
#include "xorshift.h"

CHECK_MAIN_STATE("compiler_fp16");

#define MAX_REPORTS 8
#define ALL 65536u

enum rmode { RTE, RTZ, RTP, RTN };

static struct cr_session session;
static struct slb_program prog;
static bool built;
static uint64_t rng = 0x2545F4914F6CDD1Dull;

/* ---- The binary16 reference ---- */

static double h2d(uint16_t h)
{
	int e = (h >> 10) & 0x1F;
	double m = h & 0x3FF, v;

	if (e == 0x1F)
		v = m ? NAN : INFINITY;
	else if (e)
		v = ldexp(m + 1024.0, e - 25);
	else
		v = ldexp(m, -24);
	return (h & 0x8000) ? -v : v;
}

static bool is_nan_h(uint16_t h)
{
	return (h & 0x7FFF) > 0x7C00;
}

/* The bits of a finite value that is a binary16 (its sign in sign). */
static uint16_t encode(double a, uint16_t sign)
{
	int e;

	if (a < 0x1p-14)
		return sign | (uint16_t)ldexp(a, 24);
	frexp(a, &e);                           /* a in [2^(e-1), 2^e) */
	return sign | (uint16_t)((e + 14) << 10) |
	       (uint16_t)(ldexp(a, 11 - e) - 1024.0);
}

/* x (exact) rounded to binary16 in mode m; past 65504 inf or 65504. */
static uint16_t d2h(double x, enum rmode m)
{
	uint16_t sign = signbit(x) ? 0x8000 : 0;
	double a = fabs(x), q, fl, frac, v;
	bool up;
	int e, ue;

	if (isnan(x))
		return 0x7E00;
	if (isinf(a))
		return sign | 0x7C00;
	if (a == 0.0)
		return sign;
	frexp(a, &e);
	ue = e - 11 < -24 ? -24 : e - 11;       /* the ulp's exponent */
	q = ldexp(a, -ue);
	fl = floor(q);
	frac = q - fl;
	switch (m) {
	case RTE:
		up = frac > 0.5 || (frac == 0.5 && fmod(fl, 2.0) != 0.0);
		break;
	case RTZ:
		up = false;
		break;
	case RTP:
		up = frac > 0.0 && !sign;
		break;
	default:
		up = frac > 0.0 && sign;
		break;
	}
	v = ldexp(up ? fl + 1.0 : fl, ue);
	if (v > 65504.0) {
		bool inf = m == RTE || (m == RTP && !sign) ||
			   (m == RTN && sign);

		return sign | (inf ? 0x7C00 : 0x7BFF);
	}
	return encode(v, sign);
}

/*
 * s + e rounded to nearest even, where s is a double and e its exact
 * error (|e| at most half an ulp of s): s decides but for a tie between
 * two halves, which e breaks.
 */
static uint16_t d2h_2(double s, double e)
{
	uint16_t h = d2h(s, RTE), lo, hi;
	double l, u;

	if (e == 0.0 || isnan(s) || isinf(s))
		return h;
	/* A tie: |s| halfway between lo and the next magnitude hi (65536
	 * past the largest half), the exact value beyond s when e has its
	 * sign. */
	lo = d2h(s, RTZ);
	hi = (uint16_t)(lo + 1);
	l = fabs(h2d(lo));
	u = (hi & 0x7FFF) == 0x7C00 ? 65536.0 : fabs(h2d(hi));
	if (fabs(s) - l == u - fabs(s))
		return (e > 0.0) == !signbit(s) ? hi : lo;
	return h;
}

static uint16_t fma_ref(uint16_t a, uint16_t b, uint16_t c)
{
	double x = h2d(a), y = h2d(b), z = h2d(c);
	double p = x * y, s, bb, e;     /* p exact: 11 + 11 bits */

	if (!isfinite(p) || !isfinite(z))
		return d2h(p + z, RTE);
	s = p + z;
	bb = s - p;
	e = (p - (s - bb)) + (z - bb);  /* TwoSum: p + z = s + e exactly */
	return d2h_2(s, e);
}

/* OpenCL's fmin/fmax: NaN loses to a number. */
static double fmin_ref(double x, double y)
{
	if (isnan(x))
		return y;
	if (isnan(y))
		return x;
	return y < x ? y : x;
}

static double fmax_ref(double x, double y)
{
	if (isnan(x))
		return y;
	if (isnan(y))
		return x;
	return x < y ? y : x;
}

/* Equal bits, both NaN, or (when zeros_either) two zeros. */
static bool same_h(uint16_t got, uint16_t want, bool zeros_either)
{
	if (got == want || (is_nan_h(got) && is_nan_h(want)))
		return true;
	return zeros_either && !(got & 0x7FFF) && !(want & 0x7FFF);
}

/* ---- Inputs ---- */

static uint32_t rnd32(void)
{
	return (uint32_t)(xorshift64star(&rng) >> 32);
}

/*
 * A second operand for a: specials, a's neighbours and near-negation
 * (cancellation, ties of the sum), values near 1 (ties of products),
 * denormals, and any bits.
 */
static uint16_t partner(uint16_t a)
{
	static const uint16_t special[] = {
		0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x8001, 0x03FF,
		0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00, 0x3C01, 0x3800,
	};
	uint32_t r = rnd32();

	switch (r % 8) {
	case 0:
		return special[(r >> 8) % 15];
	case 1:
		return (uint16_t)(a + (int)((r >> 8) % 5) - 2);
	case 2:
		return (uint16_t)((a ^ 0x8000) + (int)((r >> 8) % 5) - 2);
	case 3:
		return (uint16_t)((a & 0x8000) ^ ((r >> 8) & 0x83FF) ^
				  (0x3C00 + ((r >> 20) % 3 - 1) * 0x400));
	case 4:
		return (uint16_t)((r >> 8) & 0x83FF);           /* denormal */
	default:
		return (uint16_t)(r >> 8);
	}
}

/* ---- The code ---- */

static char *disasm(const char *kernel)
{
	static char text[1 << 17];
	char err[128];

	for (uint32_t k = 0; k < prog.num_kernels; k++) {
		const struct slb_kernel *kn = &prog.kernels[k];

		if (strcmp(kn->name, kernel))
			continue;
		if (mdg_disassemble(prog.code + kn->code_offset, kn->code_size,
				    kn->first_tag, text, sizeof(text), err,
				    sizeof(err)) < 0) {
			printf("  %s: %s\n", kernel, err);
			return NULL;
		}
		return text;
	}
	printf("  no kernel %s\n", kernel);
	return NULL;
}

static bool has(const char *text, const char *what)
{
	if (strstr(text, what))
		return true;
	printf("  no \"%s\" in the code\n", what);
	return false;
}

static bool lacks(const char *text, const char *what)
{
	if (!strstr(text, what))
		return true;
	printf("  \"%s\" in the code\n", what);
	return false;
}

/*
 * The ops Midgard has in reg mode 16 are 16-bit instructions, with no
 * fp32 arithmetic beside them; conversions are one fmov / f2i / i2f each
 * reading a widened half or writing a shrunk one.
 */
TEST(code_in_16bit_lanes)
{
	const char *t;

	REQUIRE(built);
	REQUIRE((t = disasm("binary4")) != NULL);
	CHECK(has(t, ".fadd.f16 ") && has(t, ".fmul.f16 ") &&
	      has(t, ".fmin.f16 ") && has(t, ".fmax.f16 ") &&
	      has(t, ".feq.i16 ") && has(t, ".fne.i16 ") &&
	      has(t, ".flt.i16 ") && has(t, ".fle.i16 ") && has(t, "#3"));
	CHECK(lacks(t, ".f32") && lacks(t, "widen"));
	REQUIRE((t = disasm("binary1")) != NULL);
	CHECK(has(t, ".fadd.f16 ") && has(t, ".fmul.f16 ") &&
	      has(t, ".fmax.f16 "));
	CHECK(lacks(t, ".fadd.f32") && lacks(t, ".fmul.f32") &&
	      lacks(t, "widen"));
	REQUIRE((t = disasm("unary4")) != NULL);
	CHECK(has(t, ".ffloor.f16 ") && has(t, ".fceil.f16 ") &&
	      has(t, ".ftrunc.f16 ") && has(t, ".froundeven.f16 ") &&
	      has(t, ".fsqrt.f32 ") && has(t, "f2i_rtz"));
	REQUIRE((t = disasm("to_half4")) != NULL);
	CHECK(has(t, "fmov_rtz") && has(t, "fmov_rtp") &&
	      has(t, "fmov_rtn") && has(t, "i2f_rtz") && has(t, "i2f_rtp") &&
	      has(t, "u2f_rtn"));
	/* The integer code of the conversions is gone. */
	CHECK(lacks(t, ".iand.") && lacks(t, ".ilsr."));
	/* half8 whole: ld/st.128 of eight lanes, no unpacking. */
	REQUIRE((t = disasm("binary8")) != NULL);
	CHECK(has(t, ".fadd.f16 ") && has(t, ".fmul.f16 ") &&
	      has(t, ".flt.i16 ") && has(t, ".ffloor.f16 ") &&
	      has(t, "ld.128") && has(t, "st.128"));
	CHECK(lacks(t, ".f32") && lacks(t, ".ilsr.") && lacks(t, ".u16"));
}

/* ---- Runs ---- */

static void *alloc(size_t bytes, uint32_t *va)
{
	void *p = cr_alloc(&session, bytes, va);

	if (!p)
		abort();
	return p;
}

static unsigned int report(unsigned int bad, const char *what, uint16_t a,
			   uint16_t b, uint32_t got, uint32_t want)
{
	if (bad < MAX_REPORTS)
		printf("  %s(0x%04x, 0x%04x) = 0x%04x, want 0x%04x\n", what, a,
		       b, got, want);
	return bad + 1;
}

/*
 * Every half as a, `rounds` partners each (a different sample per
 * round), on half4 lanes: + - * fmin fmax mad, -a - |b|, a * 3 - b and
 * the comparisons.
 */
TEST(binary_ops_vector)
{
	enum { ROUNDS = 2 };
	unsigned int bad = 0;

	REQUIRE(built);
	for (int round = 0; round < ROUNDS; round++) {
		uint16_t *a, *b, *c, *r, *m;
		uint32_t a_va, b_va, c_va, r_va, m_va;

		cr_reset(&session);
		a = alloc(ALL * 2, &a_va);
		b = alloc(ALL * 2, &b_va);
		c = alloc(ALL * 2, &c_va);
		r = alloc(ALL * 16, &r_va);
		m = alloc(ALL * 2, &m_va);
		for (uint32_t k = 0; k < ALL; k++) {
			a[k] = (uint16_t)k;
			b[k] = partner(a[k]);
			c[k] = partner(b[k]);
		}
		REQUIRE(cr_launch(&session, &prog, "binary4",
				  (struct cr_arg[]){ CR_BUF(a_va), CR_BUF(b_va),
						     CR_BUF(c_va), CR_BUF(r_va),
						     CR_BUF(m_va) }, 5,
				  &CR_1D(ALL / 4, 64)));
		for (uint32_t k = 0; k < ALL; k++) {
			double x = h2d(a[k]), y = h2d(b[k]), z = h2d(c[k]);
			const uint16_t *got = r + 32 * (k / 4) + k % 4;
			uint16_t want[8], prod = d2h(x * y, RTE);
			static const char *const names[8] = {
				"add", "sub", "mul", "fmin", "fmax", "mad",
				"-a-|b|", "a*3-b",
			};
			unsigned int bits;

			want[0] = d2h(x + y, RTE);
			want[1] = d2h(x - y, RTE);
			want[2] = prod;
			want[3] = d2h(fmin_ref(x, y), RTE);
			want[4] = d2h(fmax_ref(x, y), RTE);
			want[5] = d2h(h2d(prod) + z, RTE);
			want[6] = d2h(-x - fabs(y), RTE);
			want[7] = d2h(h2d(d2h(x * 3.0, RTE)) - y, RTE);
			for (int j = 0; j < 8; j++) {
				bool ok = same_h(got[4 * j], want[j], j == 3 ||
						 j == 4);

				/* mad: a correctly rounded fma is as good. */
				if (j == 5 && !ok)
					ok = same_h(got[4 * j],
						    fma_ref(a[k], b[k], c[k]),
						    false);
				if (!ok)
					bad = report(bad, names[j], a[k], b[k],
						     got[4 * j], want[j]);
			}
			bits = (x == y) | (x != y) << 1 | (x < y) << 2 |
			       (x <= y) << 3 | (x > y) << 4 | (x >= y) << 5 |
			       (isnan(x) || isnan(y)) << 6 | (x < 0.5) << 7;
			if (m[k] != bits)
				bad = report(bad, "compares", a[k], b[k], m[k],
					     bits);
		}
	}
	printf("  %u halves x %d partners, 8 ops and 8 comparisons: %u "
	       "wrong\n", ALL, ROUNDS, bad);
	CHECK_EQ(bad, 0u);
}

/*
 * The binary kernels' launch: a[k] = every half k, b[k] its partner, r
 * (r_bytes) and m (a mask per half) for the results; kernel runs `items`
 * work-items in groups of 64. False when the launch failed.
 */
struct pairs {
	uint16_t *a, *b, *r, *m;
};

static bool launch_pairs(const char *kernel, size_t r_bytes, uint32_t items,
			 struct pairs *p)
{
	uint32_t a_va, b_va, r_va, m_va;

	cr_reset(&session);
	p->a = alloc(ALL * 2, &a_va);
	p->b = alloc(ALL * 2, &b_va);
	p->r = alloc(r_bytes, &r_va);
	p->m = alloc(ALL * 2, &m_va);
	for (uint32_t k = 0; k < ALL; k++) {
		p->a[k] = (uint16_t)k;
		p->b[k] = partner(p->a[k]);
	}
	return cr_launch(&session, &prog, kernel,
			 (struct cr_arg[]){ CR_BUF(a_va), CR_BUF(b_va),
					    CR_BUF(r_va), CR_BUF(m_va) }, 4,
			 &CR_1D(items, 64));
}

/* The scalar kernel: every half against one partner. */
TEST(binary_ops_scalar)
{
	struct pairs p;
	uint16_t *a, *b, *r, *m;
	unsigned int bad = 0;

	REQUIRE(built);
	REQUIRE(launch_pairs("binary1", ALL * 8, ALL, &p));
	a = p.a;
	b = p.b;
	r = p.r;
	m = p.m;
	for (uint32_t k = 0; k < ALL; k++) {
		double x = h2d(a[k]), y = h2d(b[k]);
		uint16_t want[4] = {
			d2h(x + y, RTE), d2h(x * y, RTE),
			d2h(fmax_ref(x, -y), RTE), d2h(fabs(x) - y, RTE),
		};
		static const char *const names[4] = {
			"add", "mul", "fmax(a,-b)", "|a|-b",
		};
		unsigned int bits = (x < y) | (x == y) << 1 | (x >= y) << 2;

		for (int j = 0; j < 4; j++)
			if (!same_h(r[4 * k + j], want[j], j == 2))
				bad = report(bad, names[j], a[k], b[k],
					     r[4 * k + j], want[j]);
		if (m[k] != bits)
			bad = report(bad, "compares", a[k], b[k], m[k], bits);
	}
	printf("  %u halves, 4 ops and 3 comparisons: %u wrong\n", ALL, bad);
	CHECK_EQ(bad, 0u);
}

/* half8 kept whole (eight lanes of one register): every half once. */
TEST(half8_in_one_register)
{
	struct pairs p;
	uint16_t *a, *b, *r, *m;
	unsigned int bad = 0;

	REQUIRE(built);
	REQUIRE(launch_pairs("binary8", ALL * 12, ALL / 8, &p));
	a = p.a;
	b = p.b;
	r = p.r;
	m = p.m;
	for (uint32_t k = 0; k < ALL; k++) {
		double x = h2d(a[k]), y = h2d(b[k]);
		const uint16_t *got = r + 48 * (k / 8) + k % 8;
		uint16_t want[6] = {
			d2h(x + y, RTE), d2h(x - y, RTE), d2h(x * y, RTE),
			d2h(fmin_ref(x, y), RTE),
			d2h(h2d(d2h(fmax_ref(-x, fabs(y)), RTE)) - 1.0, RTE),
			x < y ? d2h(floor(h2d(d2h(y - x, RTE))), RTE) :
				d2h(x * 0.5, RTE),
		};
		static const char *const names[6] = {
			"add", "sub", "mul", "fmin", "fmax(-a,|b|)-1", "select",
		};
		unsigned int bits = (x == y) | (x != y) << 1 | (x <= y) << 2 |
				    (x > y) << 3;

		for (int j = 0; j < 6; j++)
			if (!same_h(got[8 * j], want[j], j == 3))
				bad = report(bad, names[j], a[k], b[k],
					     got[8 * j], want[j]);
		if (m[k] != bits)
			bad = report(bad, "compares", a[k], b[k], m[k], bits);
	}
	printf("  %u halves, 6 ops and 4 comparisons: %u wrong\n", ALL, bad);
	CHECK_EQ(bad, 0u);
}

/* fma through fp32, every half with a partner and an addend near -a*b. */
TEST(fma_correctly_rounded)
{
	uint16_t *a, *b, *c, *r;
	uint32_t a_va, b_va, c_va, r_va;
	unsigned int bad = 0;

	REQUIRE(built);
	cr_reset(&session);
	a = alloc(ALL * 2, &a_va);
	b = alloc(ALL * 2, &b_va);
	c = alloc(ALL * 2, &c_va);
	r = alloc(ALL * 2, &r_va);
	for (uint32_t k = 0; k < ALL; k++) {
		a[k] = (uint16_t)k;
		b[k] = partner(a[k]);
		c[k] = k % 2 ? partner(b[k]) :
		       (uint16_t)(d2h(-h2d(a[k]) * h2d(b[k]), RTE) +
				  (int)(rnd32() % 5) - 2);
	}
	REQUIRE(cr_launch(&session, &prog, "fma4",
			  (struct cr_arg[]){ CR_BUF(a_va), CR_BUF(b_va),
					     CR_BUF(c_va), CR_BUF(r_va) }, 4,
			  &CR_1D(ALL / 4, 64)));
	for (uint32_t k = 0; k < ALL; k++) {
		uint16_t want = fma_ref(a[k], b[k], c[k]);

		if (!same_h(r[k], want, false)) {
			if (bad < MAX_REPORTS)
				printf("  fma(0x%04x, 0x%04x, 0x%04x) = 0x%04x,"
				       " want 0x%04x\n", a[k], b[k], c[k], r[k],
				       want);
			bad++;
		}
	}
	printf("  %u fmas: %u wrong\n", ALL, bad);
	CHECK_EQ(bad, 0u);
}

/* OpenCL's saturating conversion of x (rounded by rnd) to [lo, hi]. */
static int64_t sat(double x, double lo, double hi, double (*rnd)(double))
{
	if (isnan(x))
		return 0;
	x = rnd(x);
	return (int64_t)(x < lo ? lo : x > hi ? hi : x);
}

/* Every half: roundings, sqrt, -, fabs and the conversions from half. */
TEST(unary_ops_and_conversions_from_half)
{
	uint16_t *a, *r;
	float *f;
	int32_t *n;
	uint32_t a_va, r_va, f_va, n_va;
	unsigned int bad = 0;

	REQUIRE(built);
	cr_reset(&session);
	a = alloc(ALL * 2, &a_va);
	r = alloc(ALL * 16, &r_va);
	f = alloc(ALL * 4, &f_va);
	n = alloc(ALL * 16, &n_va);
	for (uint32_t k = 0; k < ALL; k++)
		a[k] = (uint16_t)k;
	REQUIRE(cr_launch(&session, &prog, "unary4",
			  (struct cr_arg[]){ CR_BUF(a_va), CR_BUF(r_va),
					     CR_BUF(f_va), CR_BUF(n_va) }, 4,
			  &CR_1D(ALL / 4, 64)));
	for (uint32_t k = 0; k < ALL; k++) {
		double x = h2d(a[k]);
		const uint16_t *got = r + 32 * (k / 4) + k % 4;
		const int32_t *gn = n + 16 * (k / 4) + k % 4;
		uint16_t want[8] = {
			d2h(floor(x), RTE), d2h(ceil(x), RTE),
			d2h(trunc(x), RTE), d2h(rint(x), RTE),
			d2h(round(x), RTE), d2h(sqrt(x), RTE),
			(uint16_t)(a[k] ^ 0x8000), (uint16_t)(a[k] & 0x7FFF),
		};
		static const char *const names[8] = {
			"floor", "ceil", "trunc", "rint", "round", "sqrt",
			"neg", "fabs",
		};
		int64_t wn[4] = {
			sat(x, -2147483648.0, 2147483647.0, trunc),
			sat(x, -2147483648.0, 2147483647.0, rint),
			sat(x, -32768.0, 32767.0, trunc),
			sat(x, 0.0, 4294967295.0, trunc),
		};
		float wf = (float)x;

		for (int j = 0; j < 8; j++)
			if (!same_h(got[4 * j], want[j], false))
				bad = report(bad, names[j], a[k], 0, got[4 * j],
					     want[j]);
		if (memcmp(&f[k], &wf, 4) && !(isnan(f[k]) && isnan(wf)))
			bad = report(bad, "convert_float", a[k], 0,
				     (uint32_t)f[k], (uint32_t)wf);
		for (int j = 0; j < 4; j++)
			if (gn[4 * j] != (int32_t)(uint32_t)wn[j])
				bad = report(bad, "convert_int*", a[k],
					     (uint16_t)j, (uint32_t)gn[4 * j],
					     (uint32_t)wn[j]);
	}
	printf("  %u halves, 8 ops and 5 conversions: %u wrong\n", ALL, bad);
	CHECK_EQ(bad, 0u);
}

/*
 * A float near every half (its bits widened with random low bits, the
 * tie 0x1000 a quarter of the time), and ints of every size, to half in
 * each rounding mode.
 */
TEST(conversions_to_half)
{
	float *f;
	int32_t *n;
	uint16_t *r;
	uint32_t f_va, n_va, r_va;
	unsigned int bad = 0;

	REQUIRE(built);
	cr_reset(&session);
	f = alloc(ALL * 4, &f_va);
	n = alloc(ALL * 4, &n_va);
	r = alloc(ALL * 16, &r_va);
	for (uint32_t k = 0; k < ALL; k++) {
		uint32_t low = rnd32(), bits;
		float x;

		low = low % 4 == 0 ? 0x1000 : (low >> 8) & 0x1FFF;
		/* The half's value as fp32, then the low bits. */
		x = (float)h2d((uint16_t)k);
		memcpy(&bits, &x, 4);
		if (isfinite(x) && x != 0.0f)
			bits += low;
		else if (k % 3 == 0)
			bits = rnd32();
		memcpy(&f[k], &bits, 4);
		switch (k % 4) {
		case 0:
			n[k] = (int32_t)rnd32();
			break;
		case 1:
			n[k] = (int32_t)(rnd32() % 140000) - 70000;
			break;
		default:
			n[k] = (int32_t)(rnd32() >> (rnd32() % 32)) *
			       (rnd32() % 2 ? 1 : -1);
			break;
		}
	}
	REQUIRE(cr_launch(&session, &prog, "to_half4",
			  (struct cr_arg[]){ CR_BUF(f_va), CR_BUF(n_va),
					     CR_BUF(r_va) }, 3,
			  &CR_1D(ALL / 4, 64)));
	for (uint32_t k = 0; k < ALL; k++) {
		const uint16_t *got = r + 32 * (k / 4) + k % 4;
		double x = f[k];
		uint16_t want[8] = {
			d2h(x, RTE), d2h(x, RTZ), d2h(x, RTP), d2h(x, RTN),
			d2h(n[k], RTE), d2h(n[k], RTZ), d2h(n[k], RTP),
			d2h((uint32_t)n[k], RTN),
		};

		for (int j = 0; j < 8; j++)
			if (!same_h(got[4 * j], want[j], false))
				bad = report(bad, j < 4 ? "float->half" :
					     "int->half", (uint16_t)j,
					     (uint16_t)k, got[4 * j], want[j]);
	}
	printf("  %u floats and ints x 4 modes: %u wrong\n", ALL, bad);
	CHECK_EQ(bad, 0u);
}

static void run_all(const char *options)
{
	char path[512];

	printf("options \"%s\"\n", options);
	snprintf(path, sizeof(path), "%s/fp16_ops.cl", CORPUS_DIR);
	built = cr_compile_file(path, options, &prog);
	RUN(code_in_16bit_lanes);
	RUN(binary_ops_vector);
	RUN(binary_ops_scalar);
	RUN(half8_in_one_register);
	RUN(fma_correctly_rounded);
	RUN(unary_ops_and_conversions_from_half);
	RUN(conversions_to_half);
	if (built)
		slb_program_free(&prog);
}

int main(void)
{
	if (!cr_init(&session)) {
		printf("compiler_fp16: the model did not start\n");
		return 1;
	}
	/* Unoptimised code has other views and copies of the halves. */
	run_all("");
	run_all("-cl-opt-disable");
	if (!cr_fini(&session)) {
		printf("  the model reported a guest error or a leak\n");
		check_state.failed++;
	}
	return check_summary();
}
