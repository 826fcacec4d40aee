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
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_runner.h"
#include "xorshift.h"

CHECK_MAIN_STATE("compiler_fp64");

#define MAX_REPORTS 6

static struct cr_session session;
static const char *options;
static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t dbits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static double bitsd(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

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
