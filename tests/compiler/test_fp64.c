/* SPDX-License-Identifier: MIT */
/*
 * double (cl_khr_fp64) end to end: the kernels of corpus/fp64_*.cl
 * compiled by slc_compile_source() with -sleipnir-fp64 (clang's fp64 on
 * while the device does not advertise it) and run on the model core
 * through the launch library (corpus_runner.c), against references in C
 * on the host's doubles. Moves compare bit for bit; arithmetic compares
 * bit for bit with the host's IEEE binary64 (round to nearest even,
 * denormals kept), built-ins by ULP distance within OpenCL 1.2 §7.4.
 * Everything twice: built as usual and with -cl-opt-disable.
 */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_runner.h"
#include "float_bits.h"
#include "sleipnir_compiler.h"
#include "xorshift.h"

CHECK_MAIN_STATE("compiler_fp64");

#define MAX_REPORTS 6

static struct cr_session session;
static const char *options;
static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd64(void)
{
	return xorshift64star(&rng);
}

/* Doubles of every kind: denormals, huge and tiny, ordinary, specials. */
static double rnd_double(void)
{
	static const double special[] = { 0.0, -0.0, INFINITY, -INFINITY,
					   DBL_MAX, -DBL_MIN, 0x1p-1074, 1.0,
					   -1.0, 0.5 };
	uint64_t u = rnd64();

	switch (rnd64() % 8) {
	case 0:
		return special[rnd64() % (sizeof(special) / sizeof(special[0]))];
	case 1:
		return bitsd(u & 0x800FFFFFFFFFFFFFull);   /* denormal */
	case 2:
		return bitsd(u);                        /* any bits, NaNs too */
	default:
		return bitsd((u & 0x800FFFFFFFFFFFFFull) |
			     (uint64_t)(1023 - 40 + rnd64() % 80) << 52);
	}
}

static bool build(const char *name, struct slb_program *p)
{
	char path[512], opts[256];

	snprintf(path, sizeof(path), "%s/%s.cl", CORPUS_DIR, name);
	snprintf(opts, sizeof(opts), "-sleipnir-fp64 %s",
		 options ? options : "");
	return cr_compile_file(path, opts, p);
}

/* A buffer; the model's DATA area holds far more than these tests use. */
static void *alloc(size_t bytes, uint32_t *va)
{
	void *p = cr_alloc(&session, bytes, va);

	if (!p)
		abort();
	return p;
}

/* Compares n 64-bit words bit for bit; reports the first differences. */
static unsigned int compare_bits(const char *what, const uint64_t *got,
				 const uint64_t *want, size_t n)
{
	unsigned int bad = 0;

	for (size_t k = 0; k < n; k++) {
		if (got[k] == want[k])
			continue;
		if (bad++ < MAX_REPORTS)
			printf("  %s[%zu]: got 0x%016llx (%a), want 0x%016llx "
			       "(%a)\n", what, k, (unsigned long long)got[k],
			       bitsd(got[k]), (unsigned long long)want[k],
			       bitsd(want[k]));
	}
	return bad;
}

/* ---- double as data ---- */

static struct slb_program prog_data;
static bool built_data;

TEST(vectors_and_arguments)
{
	enum { N = 16, L = 8, IN = 31 * N + 16, OUT = 40 * N };
	static const double table[5] = { 1.0, -2.5, 0x1p-1074, 1e308, -0.0 };
	uint64_t *in, *out, want[OUT];
	uint32_t in_va, out_va;
	double k = -0x1.23456789abcdep-1030, k2[2] = { 3.0, bitsd(0x7FF4000000000001ull) };
	double k4[4] = { 1.0, 2.0, -0x1p-1074, 4.0 };

	REQUIRE(built_data);
	cr_reset(&session);
	in = alloc(IN * 8, &in_va);
	out = alloc(OUT * 8, &out_va);
	for (int j = 0; j < IN; j++)
		in[j] = rnd64();
	memset(out, 0xA5, OUT * 8);
	REQUIRE(cr_launch(&session, &prog_data, "fp64_vectors",
			  (struct cr_arg[]){ CR_BUF(in_va), CR_BUF(out_va),
					     CR_VAL(&k), CR_VAL(&k2),
					     CR_VAL(&k4) }, 5, &CR_1D(N, L)));
	for (int i = 0; i < N; i++) {
		const uint64_t *p = in + 31 * i;
		uint64_t *q = want + 40 * i;
		static const int e_sel[8] = { 7, 0, 6, 1, 5, 2, 4, 3 };

		q[0] = p[0];
		q[1] = p[2];
		q[2] = p[1];
		q[3] = p[5];
		q[4] = p[3];
		q[5] = p[4];
		for (int j = 0; j < 4; j++)
			q[6 + j] = in[4 * i + 3 - j];
		for (int j = 0; j < 8; j++)
			q[10 + j] = p[6 + e_sel[j]];
		for (int j = 0; j < 16; j++)
			q[18 + j] = p[14 + 15 - j];
		q[34] = dbits(k);
		q[35] = dbits(k2[1]);
		q[36] = dbits(k4[2]);
		q[37] = dbits(table[i % 5]);
		q[38] = p[0] ^ (uint64_t)i;
		q[39] = p[17];
	}
	CHECK_EQ(compare_bits("fp64_vectors", out, want, OUT), 0);
}

TEST(memory_spaces)
{
	enum { N = 32, L = 16 };
	uint64_t *in, *out, *c, want[8 * N];
	uint32_t in_va, out_va, c_va;

	REQUIRE(built_data);
	cr_reset(&session);
	in = alloc(4 * N * 8, &in_va);
	out = alloc(8 * N * 8, &out_va);
	c = alloc(8 * 8, &c_va);
	for (int j = 0; j < 4 * N; j++)
		in[j] = dbits(rnd_double());
	for (int j = 0; j < 8; j++)
		c[j] = dbits(rnd_double());
	REQUIRE(cr_launch(&session, &prog_data, "fp64_spaces",
			  (struct cr_arg[]){ CR_BUF(in_va), CR_BUF(out_va),
					     CR_BUF(c_va), CR_LOCAL(L * 8) },
			  4, &CR_1D(N, L)));
	for (int i = 0; i < N; i++) {
		int lid = i % L, base = i - lid;
		uint64_t priv[8];

		for (int j = 0; j < 8; j++)
			priv[j] = j < 4 ? in[4 * i + j] : c[2 * (j - 4) + 1];
		want[8 * i + 0] = priv[(i + 1) & 7];
		want[8 * i + 1] = priv[(i + 5) & 7];
		want[8 * i + 2] = in[4 * (base + L - 1 - lid)];
		want[8 * i + 3] = c[2 * (i & 3)];
		for (int j = 0; j < 4; j++)
			want[8 * i + 4 + j] =
				in[4 * (base + 4 * (lid >> 2) + j)];
	}
	CHECK_EQ(compare_bits("fp64_spaces", out, want, 8 * N), 0);
}

TEST(select_shuffle_as_type)
{
	enum { N = 64, L = 16 };
	uint64_t *a, *b, *m, *out, *bits, want[6 * N], wbits[N];
	uint32_t a_va, b_va, m_va, out_va, bits_va;

	REQUIRE(built_data);
	cr_reset(&session);
	a = alloc(2 * N * 8, &a_va);
	b = alloc(2 * N * 8, &b_va);
	m = alloc(2 * N * 8, &m_va);
	out = alloc(6 * N * 8, &out_va);
	bits = alloc(N * 8, &bits_va);
	for (int j = 0; j < 2 * N; j++) {
		a[j] = dbits(rnd_double());
		b[j] = dbits(rnd_double());
		m[j] = rnd64();
	}
	REQUIRE(cr_launch(&session, &prog_data, "fp64_select",
			  (struct cr_arg[]){ CR_BUF(a_va), CR_BUF(b_va),
					     CR_BUF(m_va), CR_BUF(out_va),
					     CR_BUF(bits_va) }, 5,
			  &CR_1D(N, L)));
	for (int i = 0; i < N; i++) {
		for (int k = 0; k < 2; k++)
			want[2 * i + k] = (int64_t)m[2 * i + k] < 0 ?
					  b[2 * i + k] : a[2 * i + k];
		want[2 * N + i] = m[2 * i] & 1 ? a[2 * i + 1] : b[2 * i];
		want[3 * N + i] = b[2 * i + 1];
		want[4 * N + 2 * i] = m[2 * i];
		want[4 * N + 2 * i + 1] = m[2 * i + 1];
		wbits[i] = a[2 * i];
	}
	CHECK_EQ(compare_bits("fp64_select", out, want, 6 * N), 0);
	CHECK_EQ(compare_bits("fp64_select bits", bits, wbits, N), 0);
}

/* ---- Arithmetic ---- */

static struct slb_program prog_arith;
static bool built_arith;

/* Equal bits, or both NaN (OpenCL leaves NaN payloads open). */
static bool same(uint64_t got, double want)
{
	return got == dbits(want) || (isnan(bitsd(got)) && isnan(want));
}

static unsigned int compare_doubles(const char *what, const uint64_t *got,
				    const double *want, size_t n,
				    unsigned int width)
{
	unsigned int bad = 0;

	for (size_t k = 0; k < n; k++) {
		if (same(got[k], want[k]))
			continue;
		if (bad++ < MAX_REPORTS)
			printf("  %s: element %zu, value %zu: got %a (0x%016llx)"
			       ", want %a\n", what, k / width, k % width,
			       bitsd(got[k]), (unsigned long long)got[k],
			       want[k]);
	}
	return bad;
}

/* The model's fmin/fmax (OpenCL's: a NaN loses; -0 below +0). */
static double ref_fmin(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	if (a == b)
		return signbit(a) ? a : b;
	return a < b ? a : b;
}

static double ref_fmax(double a, double b)
{
	if (isnan(a))
		return b;
	if (isnan(b))
		return a;
	if (a == b)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

/* Inputs: rnd_double(), and pairs of near neighbours (cancellation). */
static void fill_pairs(uint64_t *x, uint64_t *y, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		x[k] = dbits(rnd_double());
		y[k] = k % 5 == 0 ? x[k] + rnd64() % 5 - 2 : dbits(rnd_double());
		if (k % 7 == 0)
			y[k] ^= 1ull << 63;
	}
}

TEST(scalar_arithmetic)
{
	enum { N = 256, L = 64 };
	uint64_t *x, *y, *o;
	uint32_t x_va, y_va, o_va;
	static double want[16 * N];

	REQUIRE(built_arith);
	cr_reset(&session);
	x = alloc(N * 8, &x_va);
	y = alloc(N * 8, &y_va);
	o = alloc(16 * N * 8, &o_va);
	fill_pairs(x, y, N);
	REQUIRE(cr_launch(&session, &prog_arith, "fp64_arith",
			  (struct cr_arg[]){ CR_BUF(x_va), CR_BUF(y_va),
					     CR_BUF(o_va) }, 3, &CR_1D(N, L)));
	for (int i = 0; i < N; i++) {
		double a = bitsd(x[i]), b = bitsd(y[i]), *q = want + 16 * i;
		volatile double t;

		q[0] = a + b;
		q[1] = a - b;
		q[2] = a * b;
		q[3] = -(a * b);
		q[4] = fabs(a) - b;
		q[5] = ref_fmin(a, b);
		q[6] = ref_fmax(a, b);
		q[7] = floor(a);
		q[8] = ceil(a);
		q[9] = trunc(a);
		q[10] = rint(a);
		q[11] = round(a);
		q[12] = copysign(a, b);
		t = a * 3.0;
		q[13] = t + 0.25;
		q[14] = (a < b) + 2 * (a <= b) + 4 * (a == b) + 8 * (a != b) +
			16 * !!isnan(a) + 32 * (a > b) + 64 * (a >= b);
		t = a * b;
		q[15] = t - a;
	}
	CHECK_EQ(compare_doubles("fp64_arith", o, want, 16 * N, 16), 0);
}

TEST(vector_arithmetic)
{
	enum { N = 64, L = 16 };
	uint64_t *x, *y, *o, *m, wm[4 * N];
	uint32_t x_va, y_va, o_va, m_va;
	static double want[12 * N];
	static const double k[4] = { 0.5, -2.0, 1.0, 0.0 };

	REQUIRE(built_arith);
	cr_reset(&session);
	x = alloc(4 * N * 8, &x_va);
	y = alloc(4 * N * 8, &y_va);
	o = alloc(12 * N * 8, &o_va);
	m = alloc(4 * N * 8, &m_va);
	fill_pairs(x, y, 4 * N);
	REQUIRE(cr_launch(&session, &prog_arith, "fp64_vector",
			  (struct cr_arg[]){ CR_BUF(x_va), CR_BUF(y_va),
					     CR_BUF(o_va), CR_BUF(m_va) }, 4,
			  &CR_1D(N, L)));
	for (int i = 0; i < N; i++) {
		const uint64_t *a = x + 4 * i, *b = y + 4 * i;
		double *q = want + 12 * i;
		volatile double t, sum = 0.0;

		for (int j = 0; j < 4; j++) {
			double aj = bitsd(a[j]), bj = bitsd(b[j]);

			t = aj * bj;
			q[j] = t + aj;
			t = aj - bj;
			q[4 + j] = ref_fmax(t, -aj) * k[j];
			if (j < 3)
				q[8 + j] = aj + bj;
			t = aj * bj;
			sum = j ? sum + t : t;
			wm[4 * i + j] = (aj < bj ? UINT64_MAX : 0) |
					(isnan(bj) ? 2 : 0);
		}
		q[11] = sum;
	}
	CHECK_EQ(compare_doubles("fp64_vector", o, want, 12 * N, 12), 0);
	CHECK_EQ(compare_bits("fp64_vector masks", m, wm, 4 * N), 0);
}

static const int fe_modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD,
				 FE_DOWNWARD };          /* rte rtz rtp rtn */

/* a rounded to a half's bits in mode m (rte rtz rtp rtn), exactly. */
static uint16_t ref_half(double a, int m)
{
	uint16_t sign = signbit(a) ? 0x8000 : 0;
	double mag = fabs(a), ulp, q, fl, frac;
	bool up;
	int ex;

	if (isnan(a))
		return 0x7E00 | sign;
	if (isinf(a))
		return sign | 0x7C00;
	if (mag >= 0x1p-14) {
		frexp(mag, &ex);        /* mag in [2^(ex-1), 2^ex) */
		ulp = ldexp(1.0, ex - 11);
	} else {
		ulp = 0x1p-24;
	}
	if (mag >= 0x1p17)
		ulp = 0x1p6;            /* far beyond the range: overflow */
	q = mag / ulp;
	fl = floor(q);
	frac = q - fl;
	switch (m) {
	case 0:
		up = frac > 0.5 || (frac == 0.5 && fmod(fl, 2.0) != 0.0);
		break;
	case 1:
		up = false;
		break;
	case 2:
		up = frac > 0.0 && !sign;
		break;
	default:
		up = frac > 0.0 && sign;
		break;
	}
	mag = (fl + (up ? 1.0 : 0.0)) * ulp;
	if (mag > 65504.0) {
		bool inf = m == 0 || (m == 2 && !sign) || (m == 3 && sign);

		return sign | (inf ? 0x7C00 : 0x7BFF);
	}
	if (mag < 0x1p-14)
		return sign | (uint16_t)(mag * 0x1p24);
	frexp(mag, &ex);
	return sign | (uint16_t)((ex + 14) << 10) |
	       ((uint16_t)ldexp(mag, 11 - ex) & 0x3FF);
}

static int64_t sat_i(double a, int bits)
{
	double lim = ldexp(1.0, bits - 1);

	if (isnan(a))
		return 0;
	if (a >= lim)
		return (int64_t)((1ull << (bits - 1)) - 1);
	if (a <= -lim)
		return -(int64_t)(1ull << (bits - 1) >> 1) * 2;
	return (int64_t)a;
}

static uint64_t sat_u(double a, int bits)
{
	double lim = ldexp(1.0, bits);

	if (isnan(a) || a <= 0.0)
		return 0;
	if (a >= lim)
		return bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
	return (uint64_t)a;
}

TEST(conversions)
{
	enum { N = 256, L = 64 };
	uint64_t *x, *l, *od, *ol, wd[8 * N], wl[2 * N];
	uint32_t *f, *n, *of, *oi, wf[4 * N], wi[4 * N];
	uint16_t *oh, wh[4 * N];
	uint32_t x_va, f_va, l_va, n_va, od_va, of_va, ol_va, oi_va, oh_va;
	unsigned int bad = 0;

	REQUIRE(built_arith);
	cr_reset(&session);
	x = alloc(N * 8, &x_va);
	f = alloc(N * 4, &f_va);
	l = alloc(N * 8, &l_va);
	n = alloc(N * 4, &n_va);
	od = alloc(8 * N * 8, &od_va);
	of = alloc(4 * N * 4, &of_va);
	ol = alloc(2 * N * 8, &ol_va);
	oi = alloc(4 * N * 4, &oi_va);
	oh = alloc(4 * N * 2, &oh_va);
	for (int i = 0; i < N; i++) {
		switch (i % 4) {
		case 0:
			x[i] = dbits(rnd_double());
			break;
		case 1:         /* the integers' and halves' ranges */
			x[i] = dbits(ldexp((double)(int64_t)rnd64(),
					   (int)(rnd64() % 100) - 93));
			break;
		case 2:         /* halfway between floats or halves */
			x[i] = dbits(ldexp((double)(rnd64() >> 11 | 1) +
					   (rnd64() & 1 ? 0.0 : 0.5),
					   (int)(rnd64() % 80) - 110));
			break;
		default:
			x[i] = dbits(ldexp((double)(int64_t)rnd64(),
					   -(int)(rnd64() % 130) - 20));
			break;
		}
		f[i] = (uint32_t)rnd64();
		l[i] = rnd64() >> (rnd64() % 64);
		if (i & 1)
			l[i] = -l[i];
		n[i] = (uint32_t)rnd64();
	}
	REQUIRE(cr_launch(&session, &prog_arith, "fp64_convert",
			  (struct cr_arg[]){ CR_BUF(x_va), CR_BUF(f_va),
					     CR_BUF(l_va), CR_BUF(n_va),
					     CR_BUF(od_va), CR_BUF(of_va),
					     CR_BUF(ol_va), CR_BUF(oi_va),
					     CR_BUF(oh_va) }, 9,
			  &CR_1D(N, L)));
	for (int i = 0; i < N; i++) {
		double a = bitsd(x[i]);
		float fi;
		volatile int64_t vl = (int64_t)l[i];
		volatile uint64_t vu = l[i];
		volatile double va = a;
		double d[4];
		float fl[4];

		memcpy(&fi, &f[i], 4);
		for (int m = 0; m < 4; m++) {
			fesetround(fe_modes[m]);
			d[m] = (double)vl;
			fl[m] = (float)va;
			fesetround(FE_TONEAREST);
		}
		wd[8 * i] = dbits((double)fi);
		wd[8 * i + 1] = dbits(d[0]);
		wd[8 * i + 2] = dbits(d[1]);
		wd[8 * i + 3] = dbits(d[2]);
		wd[8 * i + 4] = dbits(d[3]);
		wd[8 * i + 5] = dbits((double)vu);
		wd[8 * i + 6] = dbits((double)(int32_t)n[i]);
		wd[8 * i + 7] = dbits((double)n[i]);
		for (int m = 0; m < 4; m++) {
			memcpy(&wf[4 * i + m], &fl[m], 4);
			wh[4 * i + m] = ref_half(a, m);
		}
		wl[2 * i] = (uint64_t)sat_i(a, 64);
		wl[2 * i + 1] = sat_u(a, 64);
		wi[4 * i] = (uint32_t)sat_i(a, 32);
		wi[4 * i + 1] = (uint32_t)sat_u(a, 32);
		wi[4 * i + 2] = (uint32_t)sat_i(a, 16);
		wi[4 * i + 3] = (uint32_t)sat_u(a, 8);
	}
	for (int k = 0; k < 8 * N; k++) {
		if (same(od[k], bitsd(wd[k])))
			continue;
		if (bad++ < MAX_REPORTS)
			printf("  to double: element %d, value %d: got %a, "
			       "want %a\n", k / 8, k % 8, bitsd(od[k]),
			       bitsd(wd[k]));
	}
	for (int k = 0; k < 4 * N; k++) {
		bool nan = isnan(bitsd(x[k / 4]));

		if (of[k] != wf[k] && !(nan && (of[k] & 0x7FFFFFFFu) >
					0x7F800000u) && bad++ < MAX_REPORTS)
			printf("  to float: element %d, mode %d: %a -> 0x%08x, "
			       "want 0x%08x\n", k / 4, k % 4,
			       bitsd(x[k / 4]), of[k], wf[k]);
		if (oh[k] != wh[k] && !(nan && (oh[k] & 0x7FFF) > 0x7C00) &&
		    bad++ < MAX_REPORTS)
			printf("  to half: element %d, mode %d: %a -> 0x%04x, "
			       "want 0x%04x\n", k / 4, k % 4,
			       bitsd(x[k / 4]), oh[k], wh[k]);
		if (oi[k] != wi[k] && bad++ < MAX_REPORTS)
			printf("  to int: element %d, value %d: %a -> 0x%08x, "
			       "want 0x%08x\n", k / 4, k % 4,
			       bitsd(x[k / 4]), oi[k], wi[k]);
	}
	bad += compare_bits("to long", ol, wl, 2 * N);
	CHECK_EQ(bad, 0);
}

/* ---- Division, square root, fma ---- */

static struct slb_program prog_math;
static bool built_math;

/* ULPs between got and the exact want (long double), in got's binade. */
static double ulp_distance(double got, long double want)
{
	int ex;

	if (isnan(got) || isnan((double)want))
		return isnan(got) && isnan((double)want) ? 0.0 : INFINITY;
	if (isinf(got) || isinf((double)want))
		return got == (double)want ? 0.0 : INFINITY;
	frexpl(want, &ex);
	if (ex - 53 < -1074)
		ex = -1074 + 53;
	return (double)fabsl(((long double)got - want) /
			      ldexpl(1.0L, ex - 53));
}

TEST(division_and_sqrt)
{
	enum { N = 512, L = 64 };
	uint64_t *x, *y, *o;
	uint32_t x_va, y_va, o_va;
	unsigned int bad = 0;

	REQUIRE(built_math);
	cr_reset(&session);
	x = alloc(2 * N * 8, &x_va);
	y = alloc(2 * N * 8, &y_va);
	o = alloc(8 * N * 8, &o_va);
	fill_pairs(x, y, 2 * N);
	for (int i = 0; i < 2 * N; i += 3) {    /* positive radicands */
		x[i] &= ~(1ull << 63);
		y[i + 1] &= ~(1ull << 63);
	}
	REQUIRE(cr_launch(&session, &prog_math, "fp64_divsqrt",
			  (struct cr_arg[]){ CR_BUF(x_va), CR_BUF(y_va),
					     CR_BUF(o_va) }, 3, &CR_1D(N, L)));
	for (int i = 0; i < N; i++) {
		double a = bitsd(x[i]), b = bitsd(y[i]);
		const uint64_t *q = o + 8 * i;
		double want[8] = { a / b, sqrt(a), 0.0, 1.0 / b };
		double r;

		for (int m = 0; m < 2; m++) {
			want[4 + m] = bitsd(x[2 * i + m]) /
				      bitsd(y[2 * i + 1 - m]);
			want[6 + m] = sqrt(bitsd(y[2 * i + m]));
		}
		for (int m = 0; m < 8; m++) {
			if (m == 2)
				continue;
			if (same(q[m], want[m]))
				continue;
			if (bad++ < MAX_REPORTS)
				printf("  fp64_divsqrt: element %d, value %d: "
				       "got %a, want %a (a %a, b %a)\n", i, m,
				       bitsd(q[m]), want[m], a, b);
		}
		r = ulp_distance(bitsd(q[2]), 1.0L / sqrtl((long double)b));
		if (!(r <= 2.0) && !(b < 0 && isnan(bitsd(q[2]))) &&
		    bad++ < MAX_REPORTS)
			printf("  rsqrt(%a) = %a: %g ulp\n", b, bitsd(q[2]), r);
	}
	CHECK_EQ(bad, 0);
}

TEST(fma_exact)
{
	enum { N = 512, L = 64 };
	uint64_t *x, *y, *z, *o;
	uint32_t x_va, y_va, z_va, o_va;
	unsigned int bad = 0;

	REQUIRE(built_math);
	cr_reset(&session);
	x = alloc(2 * N * 8, &x_va);
	y = alloc(2 * N * 8, &y_va);
	z = alloc(2 * N * 8, &z_va);
	o = alloc(3 * N * 8, &o_va);
	fill_pairs(x, y, 2 * N);
	for (int k = 0; k < 2 * N; k++) {
		double a = bitsd(x[k]), b = bitsd(y[k]), p = a * b;

		switch (k % 6) {
		case 0:         /* cancellation: the product's own error */
			z[k] = dbits(-p);
			break;
		case 1:         /* near cancellation */
			z[k] = dbits(-p) + rnd64() % 7 - 3;
			break;
		case 2:         /* far below the product: sticky only */
			z[k] = dbits(ldexp(p, -(int)(rnd64() % 120) - 1));
			break;
		case 3:         /* tiny results */
			x[k] = dbits(ldexp(1.0 + (double)(rnd64() >> 12) *
					   0x1p-52, -520)) |
			       (rnd64() & (1ull << 63));
			y[k] = dbits(ldexp(1.0 + (double)(rnd64() >> 12) *
					   0x1p-52, -540));
			z[k] = dbits(ldexp((double)(int64_t)rnd64(), -1140));
			break;
		default:
			z[k] = dbits(rnd_double());
			break;
		}
	}
	REQUIRE(cr_launch(&session, &prog_math, "fp64_fma",
			  (struct cr_arg[]){ CR_BUF(x_va), CR_BUF(y_va),
					     CR_BUF(z_va), CR_BUF(o_va) }, 4,
			  &CR_1D(N, L)));
	for (int i = 0; i < N; i++) {
		const double *a = (const double *)(x + 2 * i);
		const double *b = (const double *)(y + 2 * i);
		const double *c = (const double *)(z + 2 * i);
		double want[3] = { fma(a[0], b[0], c[0]),
				   fma(a[0], b[1], c[0]),
				   fma(a[1], b[0], c[1]) };

		for (int m = 0; m < 3; m++) {
			if (same(o[3 * i + m], want[m]))
				continue;
			if (bad++ < MAX_REPORTS)
				printf("  fp64_fma: element %d, value %d: got "
				       "%a, want %a\n", i, m,
				       bitsd(o[3 * i + m]), want[m]);
		}
	}
	CHECK_EQ(bad, 0);
}

/* ---- libclc's double built-ins against long double libm ---- */

static struct slb_program prog_builtins;
static bool built_builtins;

enum domain {
	D_ANY,           /* rnd_double(): all kinds, specials included */
	D_RANGE,         /* uniform in [lo, hi] */
	D_POS,           /* positive, 2^lo .. 2^hi */
	D_LOG,           /* ± 2^lo .. 2^hi */
};

struct builtin {
	const char *name;
	bool binary;
	long double (*f1)(long double);
	long double (*f2)(long double, long double);
	double ulps;                 /* OpenCL 1.2 §7.4, double */
	enum domain dx, dy;
	double xlo, xhi, ylo, yhi;
};

static long double ref_fdim(long double a, long double b)
{
	return fdim((double)a, (double)b);
}

static long double ref_nextafter(long double a, long double b)
{
	return nextafter((double)a, (double)b);
}

/* OpenCL 1.2 §7.5.1's powr: pow for x >= 0, NaN where that is not one
 * value (x < 0, 0^0, inf^0, 1^inf). */
static long double ref_powr(long double x, long double y)
{
	if (isnan(x) || isnan(y) || x < 0 || (x == 0 && y == 0) ||
	    (isinf(x) && y == 0) || (x == 1 && isinf(y)))
		return NAN;
	return powl(x, y);
}

static long double ref_logb(long double a)
{
	return logb((double)a);
}

#define U(n, f, u, d, lo, hi) { n, false, f, NULL, u, d, D_ANY, lo, hi, 0, 0 }
#define B(n, f, u, dx, dy, xl, xh, yl, yh) \
	{ n, true, NULL, f, u, dx, dy, xl, xh, yl, yh }
/*
 * tgamma is the reader's own (spirv_tgamma.c: libclc-15's exp(lgamma(x))
 * is hundreds of ulp off for large results), over its whole finite range,
 * the denormal results below -171.6 included.
 */
static const struct builtin builtins[] = {
	U("tgamma", tgammal, 16, D_RANGE, -190, 175),
	U("exp", expl, 3, D_RANGE, -745, 710),
	U("exp2", exp2l, 3, D_RANGE, -1075, 1024),
	U("exp10", exp10l, 3, D_RANGE, -324, 308.3),
	U("expm1", expm1l, 3, D_RANGE, -40, 709),
	U("log", logl, 3, D_POS, -1074, 1023),
	U("log2", log2l, 3, D_POS, -1074, 1023),
	U("log10", log10l, 3, D_POS, -1074, 1023),
	U("log1p", log1pl, 2, D_LOG, -60, 1023),
	U("sin", sinl, 4, D_LOG, -30, 20),
	U("cos", cosl, 4, D_LOG, -30, 20),
	U("tan", tanl, 5, D_LOG, -30, 20),
	U("asin", asinl, 4, D_RANGE, -1, 1),
	U("acos", acosl, 4, D_RANGE, -1, 1),
	U("atan", atanl, 5, D_LOG, -40, 60),
	U("sinh", sinhl, 4, D_RANGE, -710, 710),
	U("cosh", coshl, 4, D_RANGE, -710, 710),
	U("tanh", tanhl, 5, D_LOG, -40, 6),
	U("asinh", asinhl, 4, D_LOG, -40, 1000),
	U("acosh", acoshl, 4, D_POS, 0, 1000),
	U("atanh", atanhl, 5, D_RANGE, -1, 1),
	U("cbrt", cbrtl, 2, D_LOG, -1074, 1023),
	U("erf", erfl, 16, D_LOG, -30, 3),
	U("erfc", erfcl, 16, D_RANGE, -6, 27),
	U("logb", ref_logb, 0, D_ANY, 0, 0),
	B("pow", powl, 16, D_POS, D_RANGE, -20, 20, -40, 40),
	B("powr", ref_powr, 16, D_POS, D_RANGE, -20, 20, -40, 40),
	B("atan2", atan2l, 6, D_LOG, D_LOG, -30, 30, -30, 30),
	B("hypot", hypotl, 4, D_LOG, D_LOG, -1074, 1023, -1074, 1023),
	B("fmod", fmodl, 0, D_LOG, D_LOG, -60, 60, -60, 60),
	B("remainder", remainderl, 0, D_LOG, D_LOG, -60, 60, -60, 60),
	B("fdim", ref_fdim, 0, D_ANY, D_ANY, 0, 0, 0, 0),
	B("nextafter", ref_nextafter, 0, D_ANY, D_ANY, 0, 0, 0, 0),
};

static double rnd_unit(void)
{
	return (double)(rnd64() >> 11) * 0x1p-53;
}

static double gen_input(enum domain d, double lo, double hi, int k)
{
	double m;

	if (k % 8 == 7 || d == D_ANY)
		return rnd_double();
	switch (d) {
	case D_RANGE:
		return lo + (hi - lo) * rnd_unit();
	default:
		m = ldexp(1.0 + rnd_unit(),
			  (int)lo + (int)(rnd64() % (uint64_t)(hi - lo + 1)));
		return d == D_LOG && (rnd64() & 1) ? -m : m;
	}
}

/* Within the bound of the long double reference (specials exactly). */
static bool within(double got, long double want, double bound, double *u)
{
	double w = (double)want;

	*u = 0.0;
	if (isnan(w) || isnan(got))
		return isnan(w) && isnan(got);
	if (isinf(w) || isinf(got)) {
		/* A finite result may round to the largest double. */
		if (isinf(got) && !isinf(w))
			*u = ulp_distance(copysign(DBL_MAX, got), want) + 1.0;
		else if (!isinf(got))
			*u = ulp_distance(got, copysignl(LDBL_MAX, want));
		return got == w || *u <= bound;
	}
	*u = ulp_distance(got, want);
	return *u <= bound;
}

TEST(libclc_builtins)
{
	enum { N = 256, L = 64 };
	double worst[sizeof(builtins) / sizeof(builtins[0])];
	unsigned int bad = 0;

	for (size_t f = 0; f < sizeof(builtins) / sizeof(builtins[0]); f++) {
		const struct builtin *bi = &builtins[f];
		char opts[128];
		uint32_t x_va, y_va, o_va;
		double *x, *y, *o;
		struct slb_program prog;

		snprintf(opts, sizeof(opts), "-DFUNC=%s -DARITY=%d", bi->name,
			 bi->binary ? 2 : 1);
		options = opts;
		if (!build("fp64_builtins", &prog)) {
			bad++;
			continue;
		}
		cr_reset(&session);
		x = alloc(N * 8, &x_va);
		y = alloc(N * 8, &y_va);
		o = alloc(N * 8, &o_va);
		for (int i = 0; i < N; i++) {
			x[i] = gen_input(bi->dx, bi->xlo, bi->xhi, i);
			y[i] = gen_input(bi->dy, bi->ylo, bi->yhi, i + 3);
		}
		if (!cr_launch(&session, &prog, "fp64_builtin",
			       (struct cr_arg[]){ CR_BUF(x_va), CR_BUF(y_va),
						  CR_BUF(o_va) }, 3,
			       &CR_1D(N, L))) {
			slb_program_free(&prog);
			bad++;
			continue;
		}
		slb_program_free(&prog);
		worst[f] = 0.0;
		for (int i = 0; i < N; i++) {
			long double want = bi->binary ?
				bi->f2(x[i], y[i]) : bi->f1(x[i]);
			double u;

			if (within(o[i], want, bi->ulps, &u)) {
				if (u > worst[f])
					worst[f] = u;
				continue;
			}
			if (bad++ < 3 * MAX_REPORTS)
				printf("  %s(%a%s%a) = %a, want %.21La: %g ulp, "
				       "bound %g\n", bi->name, x[i],
				       bi->binary ? ", " : "",
				       bi->binary ? y[i] : 0.0, o[i], want, u,
				       bi->ulps);
		}
		printf("# %-10s worst %.3g ulp (bound %g)\n", bi->name,
		       worst[f], bi->ulps);
	}
	options = NULL;
	CHECK_EQ(bad, 0);
}

TEST(frexp_modf_ldexp)
{
	enum { N = 256, L = 64 };
	uint32_t x_va, y_va, o_va;
	double *x, *o;
	unsigned int bad = 0;

	REQUIRE(built_builtins);
	cr_reset(&session);
	x = alloc(N * 8, &x_va);
	alloc(N * 8, &y_va);
	o = alloc(5 * N * 8, &o_va);
	for (int i = 0; i < N; i++)
		x[i] = rnd_double();
	REQUIRE(cr_launch(&session, &prog_builtins, "fp64_parts",
			  (struct cr_arg[]){ CR_BUF(x_va), CR_BUF(y_va),
					     CR_BUF(o_va) }, 3, &CR_1D(N, L)));
	for (int i = 0; i < N; i++) {
		int e = 0;
		double ip, want[5];

		want[0] = frexp(x[i], &e);
		want[1] = isfinite(x[i]) ? e : 0;
		want[2] = modf(x[i], &ip);
		want[3] = ip;
		want[4] = ldexp(x[i], i % 64 - 32);
		for (int m = 0; m < 5; m++) {
			if (m == 1 && !isfinite(x[i]))
				continue;       /* unspecified */
			if (same(dbits(o[5 * i + m]), want[m]))
				continue;
			if (bad++ < MAX_REPORTS)
				printf("  parts(%a) value %d: got %a, want %a\n",
				       x[i], m, o[5 * i + m], want[m]);
		}
	}
	CHECK_EQ(bad, 0);
}

/* The sample's reduction (corpus/reduce_double.cl) in its order. */
TEST(reduction_sample_kernel)
{
	enum { N = 4096, L = 64, G = N / (4 * L) };
	struct slb_program prog;
	uint32_t in_va, out_va;
	double *in, *out, want[G];

	REQUIRE(build("reduce_double", &prog));
	cr_reset(&session);
	in = alloc(N * 8, &in_va);
	out = alloc(G * 8, &out_va);
	for (int i = 0; i < N; i++)
		in[i] = i % 3 ? rnd_unit() * 1e-3 : ldexp(rnd_unit(), 30);
	if (!cr_launch(&session, &prog, "reduce_double",
		       (struct cr_arg[]){ CR_BUF(in_va), CR_BUF(out_va),
					  CR_LOCAL(L * 8) }, 3,
		       &CR_1D(G * L, L))) {
		slb_program_free(&prog);
		CHECK(false);
		return;
	}
	slb_program_free(&prog);
	for (int g = 0; g < G; g++) {
		double part[L];

		for (int l = 0; l < L; l++) {
			const double *p = in + g * 4 * L + l;
			volatile double sum = p[0];

			for (int k = 1; k < 4; k++)
				sum += p[k * L];
			part[l] = sum;
		}
		for (int stride = L / 2; stride > 0; stride >>= 1)
			for (int l = 0; l < stride; l++)
				part[l] += part[l + stride];
		want[g] = part[0];
	}
	CHECK_EQ(compare_bits("reduce_double", (const uint64_t *)out,
			      (const uint64_t *)want, G), 0);
}

/*
 * corpus/unsupported_double.cl asks for cl_khr_fp64 by its pragma alone:
 * built as usual (no -sleipnir-fp64) it is refused, naming the extension,
 * while the device does not offer it, and computes 1 / 3 when it does.
 */
TEST(pragma_follows_the_device)
{
	char path[512], *source, *log = NULL;
	struct slb_program prog;
	bool built;

	snprintf(path, sizeof(path), "%s/unsupported_double.cl", CORPUS_DIR);
	source = cr_read_file(path);
	REQUIRE(source);
	built = cr_compile(source, NULL, &prog, &log);
	free(source);
	if (!SLC_DEVICE_FP64) {
		CHECK(!built);
		CHECK(log && strstr(log, "cl_khr_fp64"));
	} else if (built) {
		uint32_t va;
		double *out;

		cr_reset(&session);
		out = alloc(64 * 8, &va);
		CHECK(cr_launch(&session, &prog, "unsupported_double",
				(struct cr_arg[]){ CR_BUF(va) }, 1,
				&CR_1D(64, 16)));
		for (int i = 0; i < 64; i++)
			CHECK_EQ(dbits(out[i]), dbits(1.0 / 3.0));
		slb_program_free(&prog);
	} else {
		CHECK_FAIL_AT(__FILE__, __LINE__, "not built: %s",
			      log ? log : "");
	}
	free(log);
}

static void run_all(const char *opts)
{
	options = opts;
	printf("# options: %s\n", opts ? opts : "(none)");
	built_data = build("fp64_data", &prog_data);
	RUN(vectors_and_arguments);
	RUN(memory_spaces);
	RUN(select_shuffle_as_type);
	if (built_data)
		slb_program_free(&prog_data);
	built_arith = build("fp64_arith", &prog_arith);
	RUN(scalar_arithmetic);
	RUN(vector_arithmetic);
	RUN(conversions);
	if (built_arith)
		slb_program_free(&prog_arith);
	built_math = build("fp64_math", &prog_math);
	RUN(division_and_sqrt);
	RUN(fma_exact);
	RUN(reduction_sample_kernel);
	RUN(pragma_follows_the_device);
	if (built_math)
		slb_program_free(&prog_math);
	if (opts)
		return;         /* the built-ins once: they build slowly */
	built_builtins = build("fp64_builtins", &prog_builtins);
	RUN(libclc_builtins);
	RUN(frexp_modf_ldexp);
	if (built_builtins)
		slb_program_free(&prog_builtins);
}

int main(void)
{
	if (!cr_init(&session)) {
		printf("compiler_fp64: the model did not start\n");
		return 1;
	}
	run_all(NULL);
	run_all("-cl-opt-disable");
	if (!cr_fini(&session)) {
		printf("  the model reported a guest error or a leak\n");
		check_state.failed++;
	}
	return check_summary();
}
