/* SPDX-License-Identifier: MIT */
/*
 * The corpus's cases (see corpus_cases.h): random inputs from a seeded
 * generator, launches on the model through corpus_runner, and references
 * computed on the host. Integers compare exactly; floats by ULP distance
 * from a double reference within the OpenCL 1.2 bounds (§7.4), or exactly
 * when the kernel does the same float operations in the same order (no
 * contraction: kernels say FP_CONTRACT OFF, this file is built with
 * -ffp-contract=off).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "corpus_cases.h"
#include "le.h"
#include "sleipnir_compiler.h"
#include "xorshift.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_REPORTS 6

/* ---- Random inputs ---- */

static uint64_t rng_state;

static uint32_t rnd(void)
{
	return (uint32_t)(xorshift64star(&rng_state) >> 32);
}

static uint64_t rnd64(void)
{
	return (uint64_t)rnd() << 32 | rnd();
}

static float rnd_range(float lo, float hi)
{
	return lo + (hi - lo) * (float)(rnd() >> 8) * (1.0f / 16777216.0f);
}

/* A float of any magnitude in 2^[lo, hi), random sign. */
static float rnd_magnitude(int lo, int hi)
{
	float m = 1.0f + (float)(rnd() >> 9) * (1.0f / 8388608.0f);
	float f = ldexpf(m, lo + (int)(rnd() % (uint32_t)(hi - lo)));

	return rnd() & 1 ? -f : f;
}

static uint32_t case_seed(const char *name)
{
	uint32_t h = 2166136261u;

	while (*name)
		h = (h ^ (uint8_t)*name++) * 16777619u;
	return h;
}

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static float u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static const float special_floats[] = {
	0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.5f, 1e-40f, -3e-39f, FLT_MIN,
	FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN,
};

static float rnd_special(void)
{
	return special_floats[rnd() % ARRAY_SIZE(special_floats)];
}

/* ---- Expectations ---- */

enum expect_kind {
	EX_BITS,                     /* size bytes exactly */
	EX_EITHER,                   /* a float, one of two bit patterns */
	EX_ULP,                      /* a float within bound ulps of value */
	EX_REL,                      /* a float within a relative bound */
	EX_ABS,                      /* a float within an absolute bound */
};

struct expect {
	uint8_t kind, size;
	uint64_t bits, alt;
	double value, bound;
};

#define MAX_EXPECT 64

static void ex_bits(struct expect *e, unsigned int size, uint64_t bits)
{
	*e = (struct expect){ .kind = EX_BITS, .size = (uint8_t)size,
			      .bits = bits };
}

static void ex_f32(struct expect *e, float f)
{
	ex_bits(e, 4, f2u(f));
}

static void ex_either(struct expect *e, float a, float b)
{
	*e = (struct expect){ .kind = EX_EITHER, .size = 4, .bits = f2u(a),
			      .alt = f2u(b) };
}

static void ex_ulp(struct expect *e, double v, double ulps)
{
	*e = (struct expect){ .kind = EX_ULP, .size = 4, .value = v,
			      .bound = ulps };
}

static void ex_abs(struct expect *e, double v, double bound)
{
	*e = (struct expect){ .kind = EX_ABS, .size = 4, .value = v,
			      .bound = bound };
}

/*
 * dot() may contract and reorder (OpenCL 1.2 section 6.12.5), so the bound
 * is the classic one for a sum of n rounded products in any order:
 * (2n - 1) roundings of at most 2^-24 of the sum of the |products|.
 */
static void ex_dot(struct expect *e, const float *x, const float *y,
		   unsigned int n)
{
	double exact = 0.0, mag = 0.0;

	for (unsigned int k = 0; k < n; k++) {
		exact += (double)x[k] * y[k];
		mag += fabs((double)x[k] * y[k]);
	}
	ex_abs(e, exact, (2.0 * n - 1) * 0x1p-24 * mag);
}

static void ex_rel(struct expect *e, double v, double rel)
{
	*e = (struct expect){ .kind = EX_REL, .size = 4, .value = v,
			      .bound = rel };
}

/* Whether got meets e; *ulps gets the distance for float kinds. */
static bool meets(const struct expect *e, const uint8_t *got_bytes,
		  double *ulps)
{
	uint64_t got = 0;
	float f;

	memcpy(&got, got_bytes, e->size);
	f = u2f((uint32_t)got);
	*ulps = 0;
	switch (e->kind) {
	case EX_BITS:
		return got == e->bits;
	case EX_EITHER:
		return got == e->bits || got == e->alt;
	case EX_ULP:
		*ulps = cr_ulp_distance(f, e->value);
		if (*ulps <= e->bound)
			return true;
		/* A denormal result may be flushed to zero. */
		return fabs(e->value) < FLT_MIN && f == 0;
	case EX_ABS:
		*ulps = cr_ulp_distance(f, e->value);
		return fabs(f - e->value) <= e->bound;
	default:
		if (isnan(e->value) || isinf(e->value))
			return cr_ulp_distance(f, e->value) == 0;
		*ulps = cr_ulp_distance(f, e->value);
		return fabs(f - e->value) <=
		       e->bound * fmax(fabs(e->value), 1e-2);
	}
}

static void print_expect(const struct expect *e, const uint8_t *got_bytes,
			 double ulps)
{
	uint64_t got = 0;

	memcpy(&got, got_bytes, e->size);
	switch (e->kind) {
	case EX_BITS:
		printf("expected 0x%llx got 0x%llx (%g / %g as float)\n",
		       (unsigned long long)e->bits, (unsigned long long)got,
		       (double)u2f((uint32_t)e->bits),
		       (double)u2f((uint32_t)got));
		break;
	case EX_EITHER:
		printf("expected %a or %a got %a\n",
		       (double)u2f((uint32_t)e->bits),
		       (double)u2f((uint32_t)e->alt),
		       (double)u2f((uint32_t)got));
		break;
	default:
		printf("expected %.9g (%a) got %.9g (%a): %g ulp, bound %g%s\n",
		       e->value, e->value, (double)u2f((uint32_t)got),
		       (double)u2f((uint32_t)got), ulps, e->bound,
		       e->kind == EX_REL ? " relative" :
		       e->kind == EX_ABS ? " absolute" : " ulp");
	}
}

static void print_inputs(const uint8_t *const in[], const uint32_t *sizes,
			 unsigned int num, uint32_t i)
{
	for (unsigned int b = 0; b < num; b++) {
		const uint8_t *p = in[b] + (size_t)sizes[b] * i;

		printf("    in%u:", b);
		for (uint32_t w = 0; w < sizes[b] / 4 && w < 16; w++) {
			uint32_t u;

			memcpy(&u, p + 4 * w, 4);
			printf(" %08x(%g)", u, (double)u2f(u));
		}
		if (sizes[b] < 4) {
			for (uint32_t k = 0; k < sizes[b]; k++)
				printf(" %02x", p[k]);
		}
		printf("\n");
	}
}

/* ---- Elementwise cases ---- */

/*
 * Work-item i reads element i of each input and writes element i of the
 * output; the reference sees the whole inputs.
 */
struct map_spec {
	uint32_t n, local;
	uint32_t num_in;
	uint32_t in_size[3];         /* bytes per work-item */
	uint32_t out_size;
	/* One input element of `bytes` bytes of input buffer buf. */
	void (*gen)(unsigned int buf, uint8_t *elem, uint32_t bytes);
	unsigned int (*ref)(const uint8_t *const in[], uint32_t i,
			    struct expect *e);
	bool float_in;               /* retry with denormal inputs flushed */
	uint32_t local_bytes;        /* a __local argument after the output */
	bool alpha;                  /* a float argument first */
	uint32_t reqd_local;         /* the kernel's reqd_work_group_size.x */
};

#define OUT_FILL 0xA5
#define ALPHA 1.75f
#define SLACK 64

static void flush_copy(uint8_t *dst, const uint8_t *src, size_t bytes)
{
	for (size_t k = 0; k + 4 <= bytes; k += 4) {
		float f;

		memcpy(&f, src + k, 4);
		f = cr_flush_denormal(f);
		memcpy(dst + k, &f, 4);
	}
}

/* Checks element i; prints the first failures of a case. */
static bool check_element(const char *name, const struct map_spec *m,
			  const uint8_t *const in[],
			  const uint8_t *const flushed[], const uint8_t *out,
			  uint32_t i, unsigned int *reports)
{
	struct expect e[MAX_EXPECT], ef[MAX_EXPECT];
	unsigned int n = m->ref(in, i, e), at = 0;
	bool ok = true, flushed_ref = false;

	for (unsigned int k = 0; k < n; k++) {
		const uint8_t *got = out + (size_t)m->out_size * i + at;
		double ulps, flushed_ulps;
		bool good = meets(&e[k], got, &ulps);

		at += e[k].size;
		if (!good && flushed) {
			/* Denormal inputs may be read as zeros. */
			if (!flushed_ref)
				m->ref(flushed, i, ef);
			flushed_ref = true;
			good = meets(&ef[k], got, &flushed_ulps);
		}
		if (good)
			continue;
		ok = false;
		if (*reports < MAX_REPORTS) {
			printf("  %s: element %u, value %u: ", name, i, k);
			print_expect(&e[k], got, ulps);
			print_inputs(in, m->in_size, m->num_in, i);
		}
		(*reports)++;
	}
	return ok;
}

static bool run_map(struct cr_session *s, const struct slb_program *p,
		    const struct corpus_case *c, uint32_t *elements)
{
	const struct map_spec *m = c->spec;
	uint8_t *in[3] = { 0 }, *out, *flushed[3] = { 0 };
	struct cr_arg args[6];
	unsigned int na = 0, reports = 0, bad = 0;
	float alpha = ALPHA;
	bool any_denormal = false, ok;
	uint32_t va;

	if (m->alpha)
		args[na++] = CR_VAL(&alpha);
	for (unsigned int b = 0; b < m->num_in; b++) {
		size_t bytes = (size_t)m->in_size[b] * m->n;

		in[b] = cr_alloc(s, bytes + SLACK, &va);
		if (!in[b])
			return false;
		for (uint32_t i = 0; i < m->n; i++)
			m->gen(b, in[b] + (size_t)m->in_size[b] * i,
			       m->in_size[b]);
		args[na++] = CR_BUF(va);
		for (size_t k = 0; m->float_in && k + 4 <= bytes; k += 4) {
			float f;

			memcpy(&f, in[b] + k, 4);
			any_denormal |= cr_flush_denormal(f) != f;
		}
	}
	out = cr_alloc(s, (size_t)m->out_size * m->n, &va);
	if (!out)
		return false;
	memset(out, OUT_FILL, (size_t)m->out_size * m->n);
	args[na++] = CR_BUF(va);
	if (m->local_bytes)
		args[na++] = CR_LOCAL(m->local_bytes);
	if (!cr_launch(s, p, c->name, args, na, &CR_1D(m->n, m->local)))
		return false;
	if (any_denormal) {
		for (unsigned int b = 0; b < m->num_in; b++) {
			size_t bytes = (size_t)m->in_size[b] * m->n + SLACK;

			flushed[b] = malloc(bytes);
			if (flushed[b])
				flush_copy(flushed[b], in[b], bytes);
		}
	}
	for (uint32_t i = 0; i < m->n; i++) {
		if (!check_element(c->name, m, (const uint8_t *const *)in,
				   any_denormal ?
				   (const uint8_t *const *)flushed : NULL,
				   out, i, &reports))
			bad++;
	}
	for (unsigned int b = 0; b < 3; b++)
		free(flushed[b]);
	ok = !bad;
	if (!ok)
		printf("  %s: %u of %u elements wrong\n", c->name, bad, m->n);
	if (m->reqd_local) {
		const struct slb_kernel *k = slb_find_kernel(p, c->name);

		if (k->reqd_wg_size[0] != m->reqd_local ||
		    k->reqd_wg_size[1] != 1 || k->reqd_wg_size[2] != 1) {
			printf("  %s: reqd_work_group_size recorded as %u %u "
			       "%u\n", c->name, k->reqd_wg_size[0],
			       k->reqd_wg_size[1], k->reqd_wg_size[2]);
			ok = false;
		}
		if (k->max_wg_size < m->reqd_local) {
			printf("  %s: max work-group size %u below the "
			       "required %u\n", c->name, k->max_wg_size,
			       m->reqd_local);
			ok = false;
		}
	}
	*elements = m->n;
	return ok;
}

/* Input generators. */

static void gen_bits(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	for (uint32_t k = 0; k < bytes; k++)
		elem[k] = (uint8_t)rnd();
}

static void put_floats(uint8_t *elem, uint32_t bytes, float (*f)(void))
{
	for (uint32_t k = 0; k + 4 <= bytes; k += 4) {
		float v = f();

		memcpy(elem + k, &v, 4);
	}
}

static float f_small(void)
{
	return rnd_range(-100.0f, 100.0f);
}

static void gen_small_floats(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_floats(elem, bytes, f_small);
}

/* Integers: mostly random bits, sometimes small or extreme. */
static uint64_t rnd_int(unsigned int size)
{
	static const int64_t edges[] = { 0, 1, -1, 2, -2, 7, 100, -100 };
	uint32_t r = rnd() % 8;
	uint64_t v = rnd64();

	if (r == 0)
		v = (uint64_t)edges[rnd() % ARRAY_SIZE(edges)];
	else if (r == 1)
		v = 1ull << (size * 8 - 1);           /* the minimum */
	else if (r == 2)
		v = (1ull << (size * 8 - 1)) - 1;     /* the maximum */
	else if (r == 3)
		v = (uint64_t)(int64_t)(int32_t)(rnd() % 2001) - 1000;
	return v;
}

static void put_ints(uint8_t *elem, uint32_t bytes, unsigned int size)
{
	for (uint32_t k = 0; k + size <= bytes; k += size) {
		uint64_t v = rnd_int(size);

		memcpy(elem + k, &v, size);
	}
}

static void gen_ints32(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_ints(elem, bytes, 4);
}

static void gen_ints64(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_ints(elem, bytes, 8);
}

/* Divisions: buffer 1 holds divisors, never 0 or -1. */
static void put_divisors(uint8_t *elem, uint32_t bytes, unsigned int size)
{
	for (uint32_t k = 0; k + size <= bytes; k += size) {
		uint64_t v, mask = size == 8 ? ~0ull : (1ull << size * 8) - 1;

		do {
			v = rnd() & 1 ? rnd_int(size) :
			    (uint64_t)(int64_t)(int32_t)(rnd() % 41 - 20);
		} while (!(v & mask) || (v & mask) == mask);
		memcpy(elem + k, &v, size);
	}
}

#define GEN_DIV(size)							\
static void gen_div##size(unsigned int buf, uint8_t *elem, uint32_t bytes) \
{									\
	if (buf)							\
		put_divisors(elem, bytes, size);			\
	else								\
		put_ints(elem, bytes, size);				\
}
GEN_DIV(1)
GEN_DIV(2)
GEN_DIV(4)
GEN_DIV(8)

/* ---- Seeds and twins as elementwise cases ---- */

static unsigned int ref_vector_add(const uint8_t *const in[], uint32_t i,
				   struct expect *e)
{
	const float *a = (const float *)in[0], *b = (const float *)in[1];

	ex_f32(e, a[i] + b[i]);
	return 1;
}

static const struct map_spec vector_add_spec = {
	.n = 4096, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 4, .gen = gen_small_floats, .ref = ref_vector_add,
};

static unsigned int ref_vadd_vec4(const uint8_t *const in[], uint32_t i,
				  struct expect *e)
{
	const float *a = (const float *)in[0], *b = (const float *)in[1];

	for (int k = 0; k < 4; k++)
		ex_f32(&e[k], a[4 * i + k] + b[4 * i + k]);
	return 4;
}

static const struct map_spec vadd_vec4_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 16, 16 },
	.out_size = 16, .gen = gen_small_floats, .ref = ref_vadd_vec4,
};

static unsigned int ref_saxpy(const uint8_t *const in[], uint32_t i,
			      struct expect *e)
{
	const float *x = (const float *)in[0], *y = (const float *)in[1];

	ex_f32(e, ALPHA * x[i] + y[i]);
	return 1;
}

static unsigned int ref_saxpy_vec4(const uint8_t *const in[], uint32_t i,
				   struct expect *e)
{
	for (int k = 0; k < 4; k++)
		ref_saxpy(in, 4 * i + k, &e[k]);
	return 4;
}

static const struct map_spec saxpy_scalar_spec = {
	.n = 4096, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 4, .gen = gen_small_floats, .ref = ref_saxpy,
	.alpha = true,
};

static const struct map_spec saxpy_vec4_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 16, 16 },
	.out_size = 16, .gen = gen_small_floats, .ref = ref_saxpy_vec4,
	.alpha = true,
};

static unsigned int ref_dot_scalar(const uint8_t *const in[], uint32_t i,
				   struct expect *e)
{
	const float *a = (const float *)in[0], *b = (const float *)in[1];
	float sum = 0.0f;

	for (int k = 0; k < 16; k++)
		sum += a[16 * i + k] * b[16 * i + k];
	ex_f32(e, sum);
	return 1;
}

/*
 * Like the other float4 twins, a dot_vec4 work-item makes four outputs:
 * dot products of the same 16-float rows the scalar twin reads, each as
 * four dot() of float4s, which may contract.
 */
static unsigned int ref_dot_vec4(const uint8_t *const in[], uint32_t i,
				 struct expect *e)
{
	const float *a = (const float *)in[0], *b = (const float *)in[1];

	for (unsigned int j = 0; j < 4; j++)
		ex_dot(&e[j], a + 64 * i + 16 * j, b + 64 * i + 16 * j, 16);
	return 4;
}

static const struct map_spec dot_scalar_spec = {
	.n = 256, .local = 64, .num_in = 2, .in_size = { 64, 64 },
	.out_size = 4, .gen = gen_small_floats, .ref = ref_dot_scalar,
};

static const struct map_spec dot_vec4_spec = {
	.n = 64, .local = 16, .num_in = 2, .in_size = { 256, 256 },
	.out_size = 16, .gen = gen_small_floats, .ref = ref_dot_vec4,
};

/* The twins compare per float of data: 16 per dot product. */
static bool run_dot(struct cr_session *s, const struct slb_program *p,
		    const struct corpus_case *c, uint32_t *elements)
{
	const struct map_spec *m = c->spec;
	bool ok = run_map(s, p, c, elements);

	*elements *= m->in_size[0] / 4;
	return ok;
}

static bool run_vec4_map(struct cr_session *s, const struct slb_program *p,
			 const struct corpus_case *c, uint32_t *elements)
{
	bool ok = run_map(s, p, c, elements);

	*elements *= 4;
	return ok;
}

/* ---- Scalar code on vector lanes (the SLP pass) ---- */

static void gen_slp(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	if (buf == 0)
		put_floats(elem, bytes, f_small);
	else
		put_ints(elem, bytes, 4);
}

static unsigned int ref_slp_lanes(const uint8_t *const in[], uint32_t i,
				  struct expect *e)
{
	const float *v = (const float *)in[0] + 4 * i;
	const int32_t *w = (const int32_t *)in[1] + 4 * i;
	static const float add[4] = { 1.0f, -2.0f, 0.5f, 3.0f };
	static const unsigned int lane[4] = { 1, 0, 3, 2 };
	float s = v[3];

	for (unsigned int k = 0; k < 4; k++)
		ex_f32(&e[k], v[lane[k]] * s + add[k]);
	ex_f32(&e[4], v[0] + v[1]);
	ex_f32(&e[5], v[1] - v[2]);
	ex_f32(&e[6], v[2] * v[3]);
	ex_f32(&e[7], fminf(v[3], v[0]));
	for (unsigned int k = 0; k < 4; k++) {
		uint32_t x = (uint32_t)w[k] * 3u + (uint32_t)w[(k + 1) % 4];

		ex_bits(&e[8 + k], 4, x ^ (k + 1));
	}
	return 12;
}

static const struct map_spec slp_lanes_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 16, 16 },
	.out_size = 48, .gen = gen_slp, .ref = ref_slp_lanes,
};

/* ---- Types ---- */

/*
 * The types_T kernels: out = { x + y; (v8, v4, v3, s);
 * (x.even.lo, y.odd.hi, v2, v2.yx, v2 + s, v2 - s) } in unsigned
 * arithmetic of the type's width (the same bits as the signed one).
 */
#define TYPES_REF(name, U)						\
static unsigned int ref_types_##name(const uint8_t *const in[], uint32_t i, \
				     struct expect *e)			\
{									\
	const U *x = (const U *)in[0] + 16 * i;				\
	const U *y = (const U *)in[1] + 16 * i;				\
	U o[48], s = (U)(x[15] | y[0]);					\
	unsigned int k;							\
									\
	for (k = 0; k < 16; k++)					\
		o[k] = (U)(x[k] + y[k]);				\
	for (k = 0; k < 8; k++)						\
		o[16 + k] = (U)((uint64_t)x[k] * y[8 + k]);		\
	for (k = 0; k < 4; k++)						\
		o[24 + k] = (U)(x[k] - y[4 + k]);			\
	for (k = 0; k < 3; k++)						\
		o[28 + k] = (U)(x[8 + k] ^ y[11 + k]);			\
	o[31] = s;							\
	for (k = 0; k < 4; k++) {					\
		o[32 + k] = x[2 * k];					\
		o[36 + k] = y[9 + 2 * k];				\
	}								\
	o[40] = (U)(x[14] & y[0]);					\
	o[41] = (U)(x[15] & y[1]);					\
	o[42] = o[41];							\
	o[43] = o[40];							\
	o[44] = (U)(o[40] + s);						\
	o[45] = (U)(o[41] + s);						\
	o[46] = (U)(o[40] - s);						\
	o[47] = (U)(o[41] - s);						\
	for (k = 0; k < 48; k++)					\
		ex_bits(&e[k], sizeof(U), o[k]);			\
	return 48;							\
}									\
static const struct map_spec types_##name##_spec = {			\
	.n = 256, .local = 64, .num_in = 2,				\
	.in_size = { 16 * sizeof(U), 16 * sizeof(U) },			\
	.out_size = 48 * sizeof(U), .gen = gen_bits,			\
	.ref = ref_types_##name,					\
};

TYPES_REF(char, uint8_t)
TYPES_REF(uchar, uint8_t)
TYPES_REF(short, uint16_t)
TYPES_REF(ushort, uint16_t)
TYPES_REF(int, uint32_t)
TYPES_REF(uint, uint32_t)
TYPES_REF(long, uint64_t)
TYPES_REF(ulong, uint64_t)

static unsigned int ref_types_float(const uint8_t *const in[], uint32_t i,
				    struct expect *e)
{
	const float *x = (const float *)in[0] + 16 * i;
	const float *y = (const float *)in[1] + 16 * i;
	float o[48], s = x[15] - y[0];
	unsigned int k;

	for (k = 0; k < 16; k++)
		o[k] = x[k] + y[k];
	for (k = 0; k < 8; k++)
		o[16 + k] = x[k] * y[8 + k];
	for (k = 0; k < 4; k++)
		o[24 + k] = x[k] - y[4 + k];
	for (k = 0; k < 3; k++)
		o[28 + k] = x[8 + k] + y[11 + k];
	o[31] = s;
	for (k = 0; k < 4; k++) {
		o[32 + k] = x[2 * k];
		o[36 + k] = y[9 + 2 * k];
	}
	o[40] = x[14] * y[0];
	o[41] = x[15] * y[1];
	o[42] = o[41];
	o[43] = o[40];
	o[44] = o[40] + s;
	o[45] = o[41] + s;
	o[46] = o[40] - s;
	o[47] = o[41] - s;
	for (k = 0; k < 48; k++)
		ex_f32(&e[k], o[k]);
	return 48;
}

static const struct map_spec types_float_spec = {
	.n = 256, .local = 64, .num_in = 2, .in_size = { 64, 64 },
	.out_size = 192, .gen = gen_small_floats, .ref = ref_types_float,
};

/* ---- half as storage ---- */

static float half_to_float(uint16_t h)
{
	int e = (h >> 10) & 31, m = h & 1023;
	float v;

	if (e == 31)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexpf((float)m, -24);
	else
		v = ldexpf((float)(m | 1024), e - 25);
	return (h & 0x8000) ? -v : v;
}

enum half_round { HALF_RTE, HALF_RTZ, HALF_RTP };

static uint16_t float_to_half(float f, enum half_round mode)
{
	uint16_t sign = signbit(f) ? 0x8000 : 0;
	double a = fabs((double)f), step, q, r, frac;
	bool up;
	int e;

	if (isnan(f))
		return sign | 0x7E00;
	if (isinf(a))
		return sign | 0x7C00;
	if (a == 0)
		return sign;
	frexp(a, &e);
	e = e - 1 < -14 ? -14 : e - 1;       /* the half's exponent */
	step = ldexp(1.0, e - 10);
	q = a / step;
	r = floor(q);
	frac = q - r;
	if (mode == HALF_RTE)
		up = frac > 0.5 || (frac == 0.5 && fmod(r, 2) == 1);
	else if (mode == HALF_RTZ)
		up = false;
	else
		up = frac > 0 && !sign;
	if (up)
		r += 1;
	a = r * step;
	if (a > 65504.0)
		return mode == HALF_RTZ || (mode == HALF_RTP && sign) ?
		       sign | 0x7BFF : sign | 0x7C00;
	if (a < ldexp(1.0, -14))
		return sign | (uint16_t)(a * ldexp(1.0, 24));
	frexp(a, &e);
	return sign | (uint16_t)((e - 1 + 15) << 10) |
	       (uint16_t)((a / ldexp(1.0, e - 1) - 1.0) * 1024.0);
}

static void gen_halves(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	for (uint32_t k = 0; k + 2 <= bytes; k += 2) {
		uint16_t h;

		do
			h = (uint16_t)rnd();
		while ((h & 0x7C00) == 0x7C00 && (h & 0x3FF));
		memcpy(elem + k, &h, 2);
	}
}

static unsigned int ref_half_storage(const uint8_t *const in[], uint32_t i,
				     struct expect *e)
{
	const uint16_t *h = (const uint16_t *)in[0] + 4 * i;
	float v[4];

	for (int k = 0; k < 4; k++)
		v[k] = half_to_float(h[k]);
	for (int k = 0; k < 4; k++) {
		ex_bits(&e[k], 2, float_to_half(v[k] * 2.0f, HALF_RTE));
		ex_bits(&e[4 + k], 2, float_to_half(v[k] * 3.0f, HALF_RTZ));
	}
	ex_bits(&e[8], 2, float_to_half(v[0] - 1.0f, HALF_RTE));
	ex_bits(&e[9], 2, float_to_half(v[1] / 16.0f, HALF_RTP));
	ex_bits(&e[10], 2, h[2]);
	ex_bits(&e[11], 2, h[3]);
	return 12;
}

static const struct map_spec half_storage_spec = {
	.n = 512, .local = 64, .num_in = 1, .in_size = { 8 },
	.out_size = 24, .gen = gen_halves, .ref = ref_half_storage,
};

/* ---- Operators ---- */

static unsigned int ref_operators_arith(const uint8_t *const in[],
					uint32_t i, struct expect *e)
{
	int32_t x = ((const int32_t *)in[0])[i], y = ((const int32_t *)in[1])[i];
	uint32_t ux = (uint32_t)x, uy = (uint32_t)y, z;
	int32_t w = y, post, pre;

	ex_bits(&e[0], 4, ux + uy);
	ex_bits(&e[1], 4, ux - uy);
	ex_bits(&e[2], 4, ux * uy);
	ex_bits(&e[3], 4, (uint32_t)(x / y));
	ex_bits(&e[4], 4, (uint32_t)(x % y));
	ex_bits(&e[5], 4, 0u - ux);
	z = ux + uy;
	z *= 3;
	z -= ux;
	z += 1;
	z = (uint32_t)((int32_t)z / 2);
	z = (uint32_t)((int32_t)z % 1000);
	ex_bits(&e[6], 4, z);
	post = w;
	pre = w;
	w = (int32_t)((uint32_t)w - 1);
	ex_bits(&e[7], 4, (uint32_t)post + 3u * (uint32_t)pre + 5u * (uint32_t)w);
	return 8;
}

static const struct map_spec operators_arith_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 32, .gen = gen_div4, .ref = ref_operators_arith,
};

static unsigned int ref_operators_bitwise(const uint8_t *const in[],
					  uint32_t i, struct expect *e)
{
	uint32_t x = ((const uint32_t *)in[0])[i];
	uint32_t y = ((const uint32_t *)in[1])[i], z = x;

	ex_bits(&e[0], 4, x & y);
	ex_bits(&e[1], 4, x | y);
	ex_bits(&e[2], 4, x ^ y);
	ex_bits(&e[3], 4, ~x);
	ex_bits(&e[4], 4, x << (y & 31));
	ex_bits(&e[5], 4, x >> (y & 31));
	ex_bits(&e[6], 4, (uint32_t)((int32_t)x >> (y & 31)));
	z &= y | 0xF0F0F0F0u;
	z |= 0x0F;
	z ^= x >> 3;
	z <<= 2;
	z >>= 1;
	ex_bits(&e[7], 4, z);
	return 8;
}

static const struct map_spec operators_bitwise_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 32, .gen = gen_bits, .ref = ref_operators_bitwise,
};

static void gen_compare(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)bytes;
	if (buf == 0) {
		int32_t v[2] = { (int32_t)rnd_int(4), (int32_t)rnd_int(4) };

		if (rnd() % 4 == 0)
			v[1] = v[0];
		memcpy(elem, v, 8);
	} else {
		float v[2] = { f_small(), f_small() };

		if (rnd() % 4 == 0)
			v[1] = v[0];
		if (rnd() % 8 == 0)
			v[rnd() & 1] = rnd_special();
		memcpy(elem, v, 8);
	}
}

static unsigned int ref_operators_compare(const uint8_t *const in[],
					  uint32_t i, struct expect *e)
{
	const int32_t *a = (const int32_t *)in[0] + 2 * i;
	const float *b = (const float *)in[1] + 2 * i;
	int32_t x = a[0], y = a[1];
	float f = b[0], g = b[1];
	int32_t o[16] = {
		x == y, x != y, x < y, x >= y, (uint32_t)x > (uint32_t)y,
		f < g, f == g, f != g, !x,
		(x > 0 && y > 0) + 2 * (x > 0 || f >= g),
		x > y ? (int32_t)((uint32_t)x - (uint32_t)y) : y,
		f <= g ? 7 : -7,
		-(x < y), -(y < x), -(x < 0), -(y < 1),
	};

	for (int k = 0; k < 16; k++)
		ex_bits(&e[k], 4, (uint32_t)o[k]);
	return 16;
}

static const struct map_spec operators_compare_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 8, 8 },
	.out_size = 64, .gen = gen_compare, .ref = ref_operators_compare,
};

static unsigned int ref_swizzles(const uint8_t *const in[], uint32_t i,
				 struct expect *e)
{
	const float *v = (const float *)in[0] + 8 * i;
	float o[16] = {
		v[7], v[2], v[5], v[0], v[4], v[3], v[7] + v[0], v[6],
		v[1], v[3], v[5], v[7], v[6], v[4], v[2], v[0],
	};

	for (int k = 0; k < 16; k++)
		ex_f32(&e[k], o[k]);
	return 16;
}

static const struct map_spec swizzles_spec = {
	.n = 512, .local = 64, .num_in = 1, .in_size = { 32 },
	.out_size = 64, .gen = gen_small_floats, .ref = ref_swizzles,
};

/* ---- Conversions ---- */

static float f_convert(void)
{
	switch (rnd() % 6) {
	case 0:
		return rnd_special();
	case 1:
		return (float)((int)(rnd() % 2001) - 1000) + 0.5f;
	case 2:
		return rnd_magnitude(20, 34);
	case 3:
		return rnd_range(-300.0f, 300.0f);
	default:
		return rnd_range(-4.0f, 4.0f);
	}
}

static void gen_convert(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_floats(elem, bytes, f_convert);
}

/* Saturating conversion of an already rounded value. */
static int64_t sat(double r, double lo, double hi)
{
	if (isnan(r))
		return 0;
	return (int64_t)(r < lo ? lo : r > hi ? hi : r);
}

static unsigned int ref_convert_rounding(const uint8_t *const in[],
					 uint32_t i, struct expect *e)
{
	float f = ((const float *)in[0])[i];
	float g = fabsf(f) < 2.0e9f ? f : 0.5f;
	int64_t o[8] = {
		(int64_t)truncf(g), (int64_t)rintf(g), (int64_t)ceilf(g),
		(int64_t)floorf(g), sat(truncf(f), INT_MIN, INT_MAX),
		sat(truncf(f), 0, 255), sat(rintf(f), SHRT_MIN, SHRT_MAX),
		sat(truncf(f), 0, UINT_MAX),
	};

	for (int k = 0; k < 8; k++)
		ex_bits(&e[k], 4, (uint32_t)o[k]);
	return 8;
}

static const struct map_spec convert_rounding_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 32, .gen = gen_convert, .ref = ref_convert_rounding,
};

static int64_t clampi(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* int to float rounded toward zero. */
static float float_rtz(int32_t x)
{
	float f = (float)x;

	if (fabs((double)f) > fabs((double)x))
		f = nextafterf(f, 0.0f);
	return f;
}

static unsigned int ref_convert_saturate(const uint8_t *const in[],
					 uint32_t i, struct expect *e)
{
	int32_t x = ((const int32_t *)in[0])[i];
	int64_t v[4] = { x, -(int64_t)x, x >> 8, x ^ 0x5A5A };
	int64_t o[8] = {
		clampi(x, -128, 127), clampi(x, 0, 255),
		clampi(x, SHRT_MIN, SHRT_MAX), clampi(x, 0, 65535),
		clampi(x, 0, INT_MAX), (int8_t)(uint8_t)x,
		f2u((float)x), f2u(float_rtz(x)),
	};
	int k;

	for (k = 0; k < 8; k++)
		ex_bits(&e[k], 4, (uint32_t)o[k]);
	/* -INT_MIN wraps back to INT_MIN in the kernel's int arithmetic. */
	if (x == INT_MIN)
		v[1] = INT_MIN;
	for (k = 0; k < 4; k++)
		ex_bits(&e[8 + k], 4, (uint32_t)clampi(v[k], SHRT_MIN,
						       SHRT_MAX));
	return 12;
}

static const struct map_spec convert_saturate_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 48, .gen = gen_ints32, .ref = ref_convert_saturate,
};

static void gen_finite_bits(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	for (uint32_t k = 0; k + 4 <= bytes; k += 4) {
		uint32_t u;

		do
			u = rnd();
		while ((u & 0x7F800000) == 0x7F800000);
		memcpy(elem + k, &u, 4);
	}
}

static unsigned int ref_as_type(const uint8_t *const in[], uint32_t i,
				struct expect *e)
{
	const uint32_t *v = (const uint32_t *)in[0] + 4 * i;
	const int16_t add[8] = { 1, 2, 3, 4, -1, -2, -3, -4 };
	uint16_t h[8];

	memcpy(h, v, 16);
	for (int k = 0; k < 4; k++) {
		ex_bits(&e[k], 4, f2u(u2f(v[k]) * 2.0f));
		ex_bits(&e[4 + k], 4, __builtin_bswap32(v[k]));
	}
	for (int k = 0; k < 8; k++)
		ex_bits(&e[8 + k], 2, (uint16_t)(h[k] + (uint16_t)add[k]));
	return 16;
}

static const struct map_spec as_type_spec = {
	.n = 512, .local = 64, .num_in = 1, .in_size = { 16 },
	.out_size = 48, .gen = gen_finite_bits, .ref = ref_as_type,
};

/* ---- Control flow, helpers, private arrays ---- */

static unsigned int ref_control_loops(const uint8_t *const in[], uint32_t i,
				      struct expect *e)
{
	uint32_t x = ((const uint32_t *)in[0])[i], sum = 0, j = 0, w = x;

	for (uint32_t k = 0; k < (x & 31); k++) {
		if (k == 20)
			break;
		if (k & 1)
			continue;
		sum += k * x;
	}
	do {
		sum ^= sum << 3;
		j++;
	} while (j < (x >> 28));
	while (w > 100)
		w = (w >> 2) + (w & 7);
	ex_bits(&e[0], 4, sum);
	ex_bits(&e[1], 4, w);
	return 2;
}

static const struct map_spec control_loops_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 8, .gen = gen_bits, .ref = ref_control_loops,
};

/* The loops of corpus/many_loops.cl, in C. */
#define ML_STEP(c) \
	for (uint32_t k = 0; k < (x & 7) + ((c) & 3); k++) \
		acc = acc * 3u + k + (c); \
	for (uint32_t k = 4; k > 0; k--) \
		acc ^= acc >> k;
#define ML_STEP4(c) ML_STEP(c) ML_STEP((c) + 1) ML_STEP((c) + 2) \
	ML_STEP((c) + 3)
#define ML_STEP16(c) ML_STEP4(c) ML_STEP4((c) + 4) ML_STEP4((c) + 8) \
	ML_STEP4((c) + 12)

static unsigned int ref_many_loops(const uint8_t *const in[], uint32_t i,
				   struct expect *e)
{
	uint32_t x = ((const uint32_t *)in[0])[i], acc = x;

	ML_STEP16(0) ML_STEP16(16) ML_STEP16(32) ML_STEP16(48) ML_STEP16(64)
	ex_bits(e, 4, acc);
	return 1;
}

static const struct map_spec many_loops_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 4, .gen = gen_bits, .ref = ref_many_loops,
};

static unsigned int ref_loop_exit_layout(const uint8_t *const in[],
					 uint32_t i, struct expect *e)
{
	uint32_t x = ((const uint32_t *)in[0])[i], acc = x;

	for (uint32_t k = 0; k < (x & 7); k++)
		acc = acc * 3u + k;
	for (uint32_t k = 4; k > 0; k--)
		acc ^= acc >> k;
	for (uint32_t k = 0; k < (x & 7) + 1; k++)
		acc = acc * 3u + k + 1;
	for (uint32_t k = 4; k > 0; k--)
		acc ^= acc >> k;
	ex_bits(e, 4, acc);
	return 1;
}

static const struct map_spec loop_exit_layout_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 4, .gen = gen_bits, .ref = ref_loop_exit_layout,
};

static unsigned int ref_control_branches(const uint8_t *const in[],
					 uint32_t i, struct expect *e)
{
	int32_t x = ((const int32_t *)in[0])[i], y = ((const int32_t *)in[1])[i];
	uint32_t ux = (uint32_t)x, uy = (uint32_t)y, r;

	if (x > 0) {
		if (y > 0)
			r = ux + uy;
		else if (y < -100)
			r = ux - uy;
		else
			r = ux * 2;
	} else if ((x & 3) == 0) {
		r = uy;
		if (y & 8)
			r ^= 0x55;
	} else {
		r = 0u - ux;
	}
	ex_bits(e, 4, r);
	return 1;
}

static const struct map_spec control_branches_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 4, .gen = gen_ints32, .ref = ref_control_branches,
};

static unsigned int ref_control_switch(const uint8_t *const in[],
				       uint32_t i, struct expect *e)
{
	uint32_t x = ((const uint32_t *)in[0])[i], r = 1;

	switch (x % 7) {
	case 0:
		r = x;
		break;
	case 1:
		r = 33;
		break;
	case 2:
		r = 3;
		break;
	case 4:
		r = x >> 4;
		break;
	default:
		r = ~x;
	}
	ex_bits(e, 4, r);
	return 1;
}

static const struct map_spec control_switch_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 4, .gen = gen_bits, .ref = ref_control_switch,
};

static void gen_early(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	int32_t v = rnd() & 1 ? (int32_t)(rnd() % 10000000) - 2000 :
		    (int32_t)rnd();

	(void)buf;
	(void)bytes;
	memcpy(elem, &v, 4);
}

static unsigned int ref_early_return(const uint8_t *const in[], uint32_t i,
				     struct expect *e)
{
	int32_t x = ((const int32_t *)in[0])[i];
	uint32_t r = 0xA5A5A5A5u;

	if (x < -1000) {
		r = (uint32_t)-1;
	} else if (x & 7) {
		r = 100;
		for (int k = 0; k < 8; k++) {
			if (x > 1000000 * k)
				continue;
			r = (uint32_t)k;
			break;
		}
	}
	ex_bits(e, 4, r);
	return 1;
}

static const struct map_spec early_return_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 4, .gen = gen_early, .ref = ref_early_return,
};

static uint32_t gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static unsigned int ref_helper_functions(const uint8_t *const in[],
					 uint32_t i, struct expect *e)
{
	int32_t x = ((const int32_t *)in[0])[i], y = ((const int32_t *)in[1])[i];
	int32_t sx = x & 0xFFF, sy = y & 0xFFF;

	ex_bits(&e[0], 4, (uint32_t)(sx * sx - sy * sy + 9));
	ex_bits(&e[1], 4, gcd((uint32_t)x & 0xFFFF, (uint32_t)y & 0xFFFF) +
		gcd((uint32_t)x & 0xFF, 24));
	ex_bits(&e[2], 4, (uint32_t)(clampi(x, -1000, 1000) +
				     clampi(y, 0, 50)));
	return 3;
}

static const struct map_spec helper_functions_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 12, .gen = gen_ints32, .ref = ref_helper_functions,
};

static unsigned int ref_private_array(const uint8_t *const in[], uint32_t i,
				      struct expect *e)
{
	uint32_t x = ((const uint32_t *)in[0])[i], arr[16];

	for (uint32_t k = 0; k < 16; k++)
		arr[k] = x * k + (x >> k);
	for (uint32_t k = 0; k < 16; k++)
		arr[(k * 7 + x) & 15] += arr[k];
	ex_bits(e, 4, arr[x & 15] ^ arr[(x >> 4) & 15]);
	return 1;
}

static const struct map_spec private_array_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 4, .gen = gen_bits, .ref = ref_private_array,
};

/* ---- Memory spaces ---- */

static unsigned int ref_constant_program_scope(const uint8_t *const in[],
					       uint32_t i, struct expect *e)
{
	static const float weights[4] = { 0.5f, 0.25f, 2.0f, -1.0f };
	uint32_t x = ((const uint32_t *)in[0])[i];
	uint32_t a = x & 63, b = (x >> 6) & 63;

	/* The .cl file's table: (k * 2654435761) >> 7, 32 bits. */
	ex_bits(&e[0], 4, (uint32_t)((a * 2654435761ull) >> 7) +
			  (uint32_t)((b * 2654435761ull) >> 7));
	ex_f32(&e[1], (float)(x >> 8) * weights[x & 3]);
	return 2;
}

static const struct map_spec constant_program_scope_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 8, .gen = gen_bits, .ref = ref_constant_program_scope,
};

static bool run_constant_arg(struct cr_session *s, const struct slb_program *p,
			     const struct corpus_case *c, uint32_t *elements)
{
	const uint32_t n = 1024;
	uint32_t lut_va, idx_va, out_va;
	int32_t *lut = cr_alloc(s, 256 * 4, &lut_va), *out;
	uint32_t *idx = cr_alloc(s, n * 4, &idx_va);
	unsigned int bad = 0;

	out = cr_alloc(s, n * 4, &out_va);
	if (!lut || !idx || !out)
		return false;
	for (int k = 0; k < 256; k++)
		lut[k] = (int32_t)rnd();
	for (uint32_t i = 0; i < n; i++)
		idx[i] = rnd();
	if (!cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(lut_va),
		       CR_BUF(idx_va), CR_BUF(out_va) }, 3, &CR_1D(n, 64)))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		int32_t want = (int32_t)((uint32_t)lut[idx[i] & 255] -
					 (uint32_t)lut[(idx[i] >> 8) & 255]);

		if (out[i] != want && bad++ < MAX_REPORTS)
			printf("  %s: element %u, index 0x%x: expected %d got "
			       "%d\n", c->name, i, idx[i], want, out[i]);
	}
	*elements = n;
	return !bad;
}

static unsigned int ref_local_static(const uint8_t *const in[], uint32_t i,
				     struct expect *e)
{
	const uint32_t *x = (const uint32_t *)in[0] + (i & ~63u);
	uint32_t l = i & 63;

	ex_bits(e, 4, x[63 - l] + x[(l + 1) % 64]);
	return 1;
}

static const struct map_spec local_static_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 4, .gen = gen_bits, .ref = ref_local_static,
};

static unsigned int ref_local_arg(const uint8_t *const in[], uint32_t i,
				  struct expect *e)
{
	const uint32_t *x = (const uint32_t *)in[0] + (i & ~31u);
	uint32_t l = i & 31, sums[2] = { 0, 0 };

	for (int k = 0; k < 32; k++)
		sums[k & 1] += x[k];
	ex_bits(e, 4, x[31 - l] * 3u + sums[l & 1]);
	return 1;
}

static const struct map_spec local_arg_spec = {
	.n = 1024, .local = 32, .num_in = 1, .in_size = { 4 },
	.out_size = 4, .gen = gen_bits, .ref = ref_local_arg,
	.local_bytes = 32 * 4,
};

static unsigned int ref_barrier_mem_fence(const uint8_t *const in[],
					  uint32_t i, struct expect *e)
{
	const uint32_t *x = (const uint32_t *)in[0] + (i & ~63u);
	uint32_t buf[2][64];

	memcpy(buf[0], x, sizeof(buf[0]));
	for (uint32_t round = 0; round < 4; round++) {
		uint32_t cur = round & 1;

		for (int l = 0; l < 64; l++)
			buf[cur ^ 1][l] = buf[cur][(l + 1) % 64] * 3u + round;
	}
	ex_bits(e, 4, buf[0][i & 63]);
	return 1;
}

static const struct map_spec barrier_mem_fence_spec = {
	.n = 512, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 4, .gen = gen_bits, .ref = ref_barrier_mem_fence,
};

static unsigned int ref_reqd_wg_size(const uint8_t *const in[], uint32_t i,
				     struct expect *e)
{
	const uint32_t *x = (const uint32_t *)in[0] + (i & ~127u);
	uint32_t l = i & 127;

	ex_bits(e, 4, x[127 - l] - x[l] + 128);
	return 1;
}

static const struct map_spec reqd_wg_size_spec = {
	.n = 1024, .local = 128, .num_in = 1, .in_size = { 4 },
	.out_size = 4, .gen = gen_bits, .ref = ref_reqd_wg_size,
	.reqd_local = 128,
};

static unsigned int ref_vload_vstore(const uint8_t *const in[], uint32_t i,
				     struct expect *e)
{
	const float *x = (const float *)in[0];
	const float *a = x + 4 * i + 1, *b = x + 3 * i, *c = x + 4 * i + 2;
	float o[16] = {
		a[0], a[1], a[2], a[3], b[0], b[1], b[2], c[0], c[1],
		b[2] + a[0], b[0] + a[1], b[1] + a[2], c[0], c[1], c[1], c[0],
	};

	for (int k = 0; k < 16; k++)
		ex_f32(&e[k], o[k]);
	return 16;
}

static const struct map_spec vload_vstore_spec = {
	.n = 512, .local = 64, .num_in = 1, .in_size = { 16 },
	.out_size = 64, .gen = gen_small_floats, .ref = ref_vload_vstore,
};

/* ---- Integer division, 64-bit integers, integer built-ins ---- */

#define DIVREM_REF(bits, S, U)						\
static unsigned int ref_divrem_##bits(const uint8_t *const in[],	\
				      uint32_t i, struct expect *e)	\
{									\
	const S *x = (const S *)in[0] + 4 * i;				\
	const S *y = (const S *)in[1] + 4 * i;				\
									\
	for (int k = 0; k < 4; k++) {					\
		ex_bits(&e[k], sizeof(S), (U)(x[k] / y[k]));		\
		ex_bits(&e[4 + k], sizeof(S), (U)(x[k] % y[k]));	\
		ex_bits(&e[8 + k], sizeof(S), (U)((U)x[k] / (U)y[k]));	\
		ex_bits(&e[12 + k], sizeof(S), (U)((U)x[k] % (U)y[k]));	\
	}								\
	return 16;							\
}									\
static const struct map_spec divrem_##bits##_spec = {			\
	.n = 1024, .local = 64, .num_in = 2,				\
	.in_size = { 4 * sizeof(S), 4 * sizeof(S) },			\
	.out_size = 16 * sizeof(S), .gen = gen_div##bits##_bytes,	\
	.ref = ref_divrem_##bits,					\
};

#define gen_div8_bytes gen_div1
#define gen_div16_bytes gen_div2
DIVREM_REF(8, int8_t, uint8_t)
DIVREM_REF(16, int16_t, uint16_t)

static unsigned int ref_divrem_32(const uint8_t *const in[], uint32_t i,
				  struct expect *e)
{
	int32_t x = ((const int32_t *)in[0])[i], y = ((const int32_t *)in[1])[i];
	uint32_t ux = (uint32_t)x, uy = (uint32_t)y;

	ex_bits(&e[0], 4, (uint32_t)(x / y));
	ex_bits(&e[1], 4, (uint32_t)(x % y));
	ex_bits(&e[2], 4, ux / uy);
	ex_bits(&e[3], 4, ux % uy);
	ex_bits(&e[4], 4, (uint32_t)(x / 7));
	ex_bits(&e[5], 4, ux % 10u);
	return 6;
}

static const struct map_spec divrem_32_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 24, .gen = gen_div4, .ref = ref_divrem_32,
};

static unsigned int ref_divrem_64(const uint8_t *const in[], uint32_t i,
				  struct expect *e)
{
	int64_t x = ((const int64_t *)in[0])[i], y = ((const int64_t *)in[1])[i];
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y;

	ex_bits(&e[0], 8, (uint64_t)(x / y));
	ex_bits(&e[1], 8, (uint64_t)(x % y));
	ex_bits(&e[2], 8, ux / uy);
	ex_bits(&e[3], 8, ux % uy);
	ex_bits(&e[4], 8, (uint64_t)(x / 1000));
	return 5;
}

static const struct map_spec divrem_64_spec = {
	.n = 512, .local = 64, .num_in = 2, .in_size = { 8, 8 },
	.out_size = 40, .gen = gen_div8, .ref = ref_divrem_64,
};

static unsigned int ref_long_ops(const uint8_t *const in[], uint32_t i,
				 struct expect *e)
{
	int64_t x = ((const int64_t *)in[0])[i], y = ((const int64_t *)in[1])[i];
	uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
	unsigned int sh = (unsigned int)(uy & 63);

	ex_bits(&e[0], 8, ux + uy);
	ex_bits(&e[1], 8, ux - uy);
	ex_bits(&e[2], 8, ux * uy);
	ex_bits(&e[3], 8, ux << sh);
	ex_bits(&e[4], 8, (uint64_t)(x >> sh));
	ex_bits(&e[5], 8, ux >> sh);
	ex_bits(&e[6], 8, (uint64_t)((x < y) + 2 * (ux < uy) + 4 * (x == y) +
				     8 * (x >= 0)));
	ex_bits(&e[7], 8, (uint64_t)(((unsigned __int128)ux * uy) >> 64));
	return 8;
}

static const struct map_spec long_ops_spec = {
	.n = 512, .local = 64, .num_in = 2, .in_size = { 8, 8 },
	.out_size = 64, .gen = gen_ints64, .ref = ref_long_ops,
};

static int32_t sat32(int64_t v)
{
	return (int32_t)clampi(v, INT_MIN, INT_MAX);
}

static unsigned int ref_integer_builtins(const uint8_t *const in[],
					 uint32_t i, struct expect *e)
{
	int32_t x = ((const int32_t *)in[0])[i], y = ((const int32_t *)in[1])[i];
	int64_t lx = x, ly = y;
	uint32_t ux = (uint32_t)x, r = (uint32_t)y & 31;
	int32_t x24 = (int32_t)(ux << 8) >> 8, y24 = (int32_t)((uint32_t)y << 8) >> 8;
	int16_t sx = (int16_t)x, sy = (int16_t)y;
	uint32_t o[16] = {
		(uint32_t)(lx < 0 ? -lx : lx),
		(uint32_t)(lx > ly ? lx - ly : ly - lx),
		(uint32_t)sat32(lx + ly), (uint32_t)sat32(lx - ly),
		(uint32_t)((lx + ly) >> 1), (uint32_t)((lx + ly + 1) >> 1),
		r ? ux << r | ux >> (32 - r) : ux,
		x ? (uint32_t)__builtin_clz(ux) : 32,
		(uint32_t)__builtin_popcount(ux),
		(uint32_t)((lx * ly) >> 32),
		(uint32_t)((int64_t)x24 * y24) + ux,
		(uint32_t)(x < y ? x : y) + (uint32_t)(x > 0 ? x : 0),
		(uint32_t)clampi(x, -100, (y & 0xFFFF) | 1000),
		(uint32_t)clampi(sx + sy, SHRT_MIN, SHRT_MAX),
		(uint32_t)sat32(lx * ly + 12345),
		(uint32_t)sx << 16 | (uint16_t)sy,
	};

	for (int k = 0; k < 16; k++)
		ex_bits(&e[k], 4, o[k]);
	return 16;
}

static const struct map_spec integer_builtins_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 64, .gen = gen_ints32, .ref = ref_integer_builtins,
};

/* ---- Relational and select ---- */

static void gen_relational(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	if (buf == 0) {
		put_ints(elem, bytes, 4);
		return;
	}
	for (uint32_t k = 0; k < bytes; k += 4) {
		float f = rnd() % 3 ? f_small() : rnd_special();

		memcpy(elem + k, &f, 4);
	}
}

static unsigned int ref_select_relational(const uint8_t *const in[],
					  uint32_t i, struct expect *e)
{
	const int32_t *x = (const int32_t *)in[0] + 4 * i;
	const float *f = (const float *)in[1] + 4 * i;
	static const int rev[4] = { 3, 2, 1, 0 }, rot[4] = { 1, 2, 3, 0 };
	uint32_t s = 0, g = 0, o[12];
	int k, any_neg = 0, all_neg = 1, any_inf = 0, all_fin = 1;

	for (k = 0; k < 4; k++) {
		s ^= (uint32_t)(x[k] < 0 ? x[rev[k]] : x[k]);
		g ^= f2u(f[k]) ^ (x[rot[k]] < 0 ? 0x80000000u : 0);
		any_neg |= x[k] < 0;
		all_neg &= x[k] < 0;
		any_inf |= isinf(f[k]) != 0;
		all_fin &= isfinite(f[k]) != 0;
	}
	o[0] = s;
	o[1] = g;
	o[2] = ((uint32_t)x[0] & ~(uint32_t)x[2]) | ((uint32_t)x[1] & (uint32_t)x[2]);
	o[3] = (uint32_t)(any_neg + 2 * all_neg + 4 * (x[0] > 0 || x[1] > 0));
	o[4] = (uint32_t)((isnan(f[0]) != 0) + 2 * (isinf(f[1]) != 0) +
			  4 * (isfinite(f[2]) != 0));
	o[5] = (uint32_t)((signbit(f[3]) != 0) + 2 * isless(f[0], f[1]) +
			  4 * isunordered(f[2], f[3]));
	for (k = 0; k < 4; k++)
		o[6 + k] = isnan(f[k]) ? ~0u : 0;
	o[10] = (uint32_t)any_inf;
	o[11] = (uint32_t)all_fin;
	for (k = 0; k < 12; k++)
		ex_bits(&e[k], 4, o[k]);
	return 12;
}

static const struct map_spec select_relational_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 16, 16 },
	.out_size = 48, .gen = gen_relational, .ref = ref_select_relational,
};

/* ---- Math ---- */

static float f_sqrt_in(void)
{
	switch (rnd() % 8) {
	case 0:
		return rnd_special();
	case 1:
		return rnd_magnitude(-149, -126);        /* denormals */
	case 2:
	case 3:
		return fabsf(rnd_magnitude(-120, 120));
	default:
		return rnd_range(0.0f, 1000.0f);
	}
}

static float f_divisor(void)
{
	return rnd() % 8 ? rnd_magnitude(-60, 60) : rnd_special();
}

static void gen_sqrt(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	put_floats(elem, bytes, buf ? f_divisor : f_sqrt_in);
}

static unsigned int ref_math_sqrt(const uint8_t *const in[], uint32_t i,
				  struct expect *e)
{
	double x = ((const float *)in[0])[i], y = ((const float *)in[1])[i];

	ex_ulp(&e[0], sqrt(x), 3);
	ex_ulp(&e[1], 1.0 / sqrt(x), 2);
	ex_ulp(&e[2], cbrt(x), 2);
	ex_ulp(&e[3], x / y, 2.5);
	return 4;
}

static const struct map_spec math_sqrt_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 16, .gen = gen_sqrt, .ref = ref_math_sqrt,
	.float_in = true,
};

static float f_exp_in(void)
{
	switch (rnd() % 10) {
	case 0:
		return rnd_special();
	case 1:
		return rnd_range(-1e-3f, 1e-3f);
	default:
		return rnd_range(-37.0f, 37.0f);
	}
}

static void gen_exp(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_floats(elem, bytes, f_exp_in);
}

static unsigned int ref_math_exp(const uint8_t *const in[], uint32_t i,
				 struct expect *e)
{
	double x = ((const float *)in[0])[i];

	ex_ulp(&e[0], exp(x), 3);
	ex_ulp(&e[1], exp2(x), 3);
	ex_ulp(&e[2], pow(10.0, x), 3);
	ex_ulp(&e[3], expm1(x), 3);
	return 4;
}

static const struct map_spec math_exp_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 16, .gen = gen_exp, .ref = ref_math_exp,
	.float_in = true,
};

static float f_log_in(void)
{
	switch (rnd() % 8) {
	case 0:
		return rnd_special();
	case 1:
		return 1.0f + rnd_range(-1e-3f, 1e-3f);
	case 2:
		return rnd_range(-0.999f, 1.0f);
	default:
		return fabsf(rnd_magnitude(-126, 127));
	}
}

static void gen_log(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_floats(elem, bytes, f_log_in);
}

static unsigned int ref_math_log(const uint8_t *const in[], uint32_t i,
				 struct expect *e)
{
	double x = ((const float *)in[0])[i];

	ex_ulp(&e[0], log(x), 3);
	ex_ulp(&e[1], log2(x), 3);
	ex_ulp(&e[2], log10(x), 3);
	ex_ulp(&e[3], log1p(x), 2);
	return 4;
}

static const struct map_spec math_log_spec = {
	.n = 1024, .local = 64, .num_in = 1, .in_size = { 4 },
	.out_size = 16, .gen = gen_log, .ref = ref_math_log,
	.float_in = true,
};

static float f_trig_in(void)
{
	return rnd() % 16 ? rnd_range(-100.0f, 100.0f) : rnd_special();
}

static void gen_trig(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_floats(elem, bytes, f_trig_in);
}

static unsigned int ref_math_trig(const uint8_t *const in[], uint32_t i,
				  struct expect *e)
{
	const float *x = (const float *)in[0] + 4 * i;

	for (int k = 0; k < 4; k++) {
		ex_ulp(&e[k], sin((double)x[k]), 4);
		ex_ulp(&e[4 + k], cos((double)x[k]), 4);
		ex_ulp(&e[8 + k], tan((double)x[k]), 5);
	}
	return 12;
}

static const struct map_spec math_trig_spec = {
	.n = 256, .local = 64, .num_in = 1, .in_size = { 16 },
	.out_size = 48, .gen = gen_trig, .ref = ref_math_trig,
	.float_in = true,
};

static float f_pow_x(void)
{
	return rnd() % 16 ? rnd_range(-10.0f, 10.0f) : rnd_special();
}

static float f_pow_y(void)
{
	float y = rnd_range(-10.0f, 10.0f);

	return rnd() & 1 ? truncf(y) : y;
}

static void gen_pow(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	put_floats(elem, bytes, buf ? f_pow_y : f_pow_x);
}

static unsigned int ref_math_pow(const uint8_t *const in[], uint32_t i,
				 struct expect *e)
{
	float x = ((const float *)in[0])[i], y = ((const float *)in[1])[i];
	double ax = fabs((double)x), powr_want;

	/* powr is pow for x >= 0, with 0^0, inf^0 and 1^inf NaN. */
	if ((ax == 0 && y == 0) || (isinf(ax) && y == 0) ||
	    (ax == 1 && isinf(y)) || isnan(ax) || isnan(y))
		powr_want = NAN;
	else
		powr_want = pow(ax, (double)y);
	ex_ulp(&e[0], pow((double)x, (double)y), 16);
	ex_ulp(&e[1], powr_want, 16);
	ex_ulp(&e[2], pow((double)x, (double)(int)y), 16);
	ex_ulp(&e[3], hypot((double)x, (double)y), 4);
	return 4;
}

static const struct map_spec math_pow_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 16, .gen = gen_pow, .ref = ref_math_pow,
	.float_in = true,
};

static float f_rounding(void)
{
	switch (rnd() % 5) {
	case 0:
		return rnd_special();
	case 1:
		return (float)((int)(rnd() % 201) - 100) * 0.5f;
	case 2:
		return rnd_magnitude(-30, 30);
	default:
		return rnd_range(-50.0f, 50.0f);
	}
}

static void gen_rounding(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_floats(elem, bytes, f_rounding);
}

static unsigned int ref_math_rounding(const uint8_t *const in[], uint32_t i,
				      struct expect *e)
{
	float x = ((const float *)in[0])[i], y = ((const float *)in[1])[i];
	float o[8] = {
		floorf(x), ceilf(x), truncf(x), roundf(x), rintf(x), fabsf(x),
		copysignf(x, y), fmodf(x, y),
	};

	for (int k = 0; k < 8; k++)
		ex_ulp(&e[k], o[k], 0);
	return 8;
}

static const struct map_spec math_rounding_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 32, .gen = gen_rounding, .ref = ref_math_rounding,
	.float_in = true,
};

static float f_minmax(void)
{
	return rnd() % 4 ? rnd_range(-10.0f, 10.0f) : rnd_magnitude(-20, 20);
}

static void gen_minmax(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_floats(elem, bytes, f_minmax);
}

static unsigned int ref_math_minmax(const uint8_t *const in[], uint32_t i,
				    struct expect *e)
{
	float x = ((const float *)in[0])[i], y = ((const float *)in[1])[i];
	float t = ((const float *)in[2])[i], d = y - x;

	ex_f32(&e[0], fminf(x, y));
	ex_f32(&e[1], fmaxf(x, y));
	ex_f32(&e[2], fminf(fmaxf(x, -fabsf(y)), fabsf(y)));
	ex_either(&e[3], x + d * t, fmaf(d, t, x));
	ex_either(&e[4], x * y + t, fmaf(x, y, t));
	ex_f32(&e[5], fmaf(x, y, t));
	ex_f32(&e[6], x > 0 ? 1.0f : x < 0 ? -1.0f : x);
	ex_f32(&e[7], x < y ? 0.0f : 1.0f);
	return 8;
}

static const struct map_spec math_minmax_spec = {
	.n = 1024, .local = 64, .num_in = 3, .in_size = { 4, 4, 4 },
	.out_size = 32, .gen = gen_minmax, .ref = ref_math_minmax,
};

static unsigned int ref_geometric_dot(const uint8_t *const in[], uint32_t i,
				      struct expect *e)
{
	const float *x = (const float *)in[0] + 4 * i;
	const float *y = (const float *)in[1] + 4 * i;

	ex_dot(&e[0], x, y, 4);
	ex_dot(&e[1], x, y, 3);
	ex_dot(&e[2], x, y, 2);
	ex_f32(&e[3], x[3] * y[3]);
	return 4;
}

static const struct map_spec geometric_dot_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 16, 16 },
	.out_size = 16, .gen = gen_small_floats, .ref = ref_geometric_dot,
};

static float f_native_x(void)
{
	return rnd_range(0.01f, 1000.0f);
}

static float f_native_y(void)
{
	return rnd_range(-3.0f, 3.0f);
}

static void gen_native(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	put_floats(elem, bytes, buf ? f_native_y : f_native_x);
}

/* native_*: implementation-defined; a loose relative bound of 2^-10. */
#define NATIVE_REL (1.0 / 1024)

static unsigned int ref_native_math(const uint8_t *const in[], uint32_t i,
				    struct expect *e)
{
	double x = ((const float *)in[0])[i], y = ((const float *)in[1])[i];

	ex_rel(&e[0], sqrt(x), NATIVE_REL);
	ex_rel(&e[1], 1 / sqrt(x), NATIVE_REL);
	ex_rel(&e[2], exp(y), NATIVE_REL);
	ex_rel(&e[3], log(x), NATIVE_REL);
	ex_rel(&e[4], sin(y), NATIVE_REL);
	ex_rel(&e[5], cos(y), NATIVE_REL);
	ex_rel(&e[6], 1 / x, NATIVE_REL);
	ex_rel(&e[7], y / x, NATIVE_REL);
	return 8;
}

static const struct map_spec native_math_spec = {
	.n = 1024, .local = 64, .num_in = 2, .in_size = { 4, 4 },
	.out_size = 32, .gen = gen_native, .ref = ref_native_math,
};

/* ---- Register pressure ---- */

static unsigned int ref_register_pressure(const uint8_t *const in[],
					  uint32_t i, struct expect *e)
{
	static const int p[16] = { 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0,
				   1, 2, 3, 4 };
	static const int q[16] = { 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6,
				   7, 8, 9, 10 };
	const float *a = (const float *)in[0] + 64 * i;
	float m[16][4];

	for (int k = 0; k < 16; k++)
		for (int c = 0; c < 4; c++)
			m[k][c] = a[4 * k + c] * a[4 * p[k] + c] -
				  a[4 * q[k] + c];
	for (int k = 0; k < 16; k++)
		for (int c = 0; c < 4; c++)
			ex_f32(&e[4 * k + c], m[k][c] + m[15 - k][c]);
	return 64;
}

static const struct map_spec register_pressure_spec = {
	.n = 256, .local = 64, .num_in = 1, .in_size = { 256 },
	.out_size = 256, .gen = gen_small_floats, .ref = ref_register_pressure,
};

/* ---- Seeds with their own launches ---- */

static float *alloc_floats(struct cr_session *s, uint32_t n, uint32_t *va,
			   float lo, float hi)
{
	float *p = cr_alloc(s, (size_t)n * 4, va);

	for (uint32_t k = 0; p && k < n; k++)
		p[k] = rnd_range(lo, hi);
	return p;
}

static uint32_t *alloc_words(struct cr_session *s, uint32_t n, uint32_t *va,
			     uint32_t mask)
{
	uint32_t *p = cr_alloc(s, (size_t)n * 4, va);

	for (uint32_t k = 0; p && k < n; k++)
		p[k] = rnd() & mask;
	return p;
}

/* Compares n floats exactly (same operations in the same order). */
static bool same_floats(const char *name, const float *want, const float *got,
			uint32_t n)
{
	unsigned int bad = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (f2u(want[i]) != f2u(got[i]) && bad++ < MAX_REPORTS)
			printf("  %s: element %u: expected %.9g (%a) got %.9g "
			       "(%a), %g ulp\n", name, i, (double)want[i],
			       (double)want[i], (double)got[i],
			       (double)got[i],
			       cr_ulp_distance(got[i], want[i]));
	}
	if (bad)
		printf("  %s: %u of %u elements wrong\n", name, bad, n);
	return !bad;
}

static bool same_words(const char *name, const uint32_t *want,
		       const uint32_t *got, uint32_t n)
{
	unsigned int bad = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (want[i] != got[i] && bad++ < MAX_REPORTS)
			printf("  %s: element %u: expected 0x%x (%u) got 0x%x "
			       "(%u)\n", name, i, want[i], want[i], got[i],
			       got[i]);
	}
	if (bad)
		printf("  %s: %u of %u elements wrong\n", name, bad, n);
	return !bad;
}

static bool run_dot_partial(struct cr_session *s, const struct slb_program *p,
			    const struct corpus_case *c, uint32_t *elements)
{
	const uint32_t n = 1024, local = 64, groups = n / local;
	uint32_t a_va, b_va, out_va;
	float *a = alloc_floats(s, n, &a_va, -10, 10);
	float *b = alloc_floats(s, n, &b_va, -10, 10);
	float *out = cr_alloc(s, groups * 4, &out_va), want[16];
	double total = 0, exact = 0;
	bool ok;

	if (!a || !b || !out ||
	    !cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(a_va),
		       CR_BUF(b_va), CR_BUF(out_va), CR_LOCAL(local * 4) }, 4,
		       &CR_1D(n, local)))
		return false;
	for (uint32_t g = 0; g < groups; g++) {
		float sum = 0;

		for (uint32_t k = 0; k < local; k++)
			sum += a[g * local + k] * b[g * local + k];
		want[g] = sum;
	}
	ok = same_floats(c->name, want, out, groups);
	for (uint32_t g = 0; g < groups; g++)
		total += out[g];
	for (uint32_t k = 0; k < n; k++)
		exact += (double)a[k] * b[k];
	/* The partial sums add up to the dot product, to float accuracy. */
	if (fabs(total - exact) > 1e-4 * n * 100) {
		printf("  %s: total %g, exact %g\n", c->name, total, exact);
		ok = false;
	}
	*elements = n;
	return ok;
}

/* sum_strided of local_per_kernel.cl over t[i] = i * mul + add. */
static uint32_t ref_sum_strided(uint32_t n, uint32_t mul, uint32_t add,
				uint32_t from)
{
	uint32_t s = 0;

	for (uint32_t i = 0; i < n; i++)
		s += (((i + from) % n) * mul + add) * (i + 1);
	return s;
}

static bool run_local_per_kernel(struct cr_session *s,
				 const struct slb_program *p,
				 const struct corpus_case *c,
				 uint32_t *elements)
{
	const uint32_t n = 5120, local = 16, items = 48;
	const struct slb_kernel *ka = slb_find_kernel(p, c->name);
	const struct slb_kernel *kb = slb_find_kernel(p, "local_per_kernel_b");
	uint32_t out_va, want[48];
	uint32_t *out = cr_alloc(s, items * 4, &out_va);
	bool ok = true;

	if (!ka || !kb || !out)
		return false;
	/* Each kernel's own 20 KiB, not the program's 40. */
	if (ka->local_static_bytes != 4 * n ||
	    kb->local_static_bytes != 4 * n) {
		printf("  %s: __local bytes %u and %u, expected %u each\n",
		       c->name, ka->local_static_bytes, kb->local_static_bytes,
		       4 * n);
		ok = false;
	}
	if (!cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(out_va) }, 1,
		       &CR_1D(items, local)))
		return false;
	for (uint32_t g = 0; g < items; g++)
		want[g] = ref_sum_strided(n, 3, g / local, g % local);
	ok &= same_words(c->name, want, out, items);
	memset(out, 0, items * 4);
	if (!cr_launch(s, p, kb->name, (struct cr_arg[]){ CR_BUF(out_va) }, 1,
		       &CR_1D(items, local)))
		return false;
	for (uint32_t g = 0; g < items; g++)
		want[g] = ref_sum_strided(n / 2, 5, g / local, g % local) ^
			  ref_sum_strided(n / 2, 7, 1000 + g / local,
					  2 * (g % local));
	ok &= same_words(kb->name, want, out, items);
	*elements = 2 * items;
	return ok;
}

static bool run_sum_reduction(struct cr_session *s,
			      const struct slb_program *p,
			      const struct corpus_case *c, uint32_t *elements)
{
	uint32_t in_va, out_va, want[8] = { 0 };
	uint32_t *in = alloc_words(s, 4096, &in_va, 0xFFFFFF);
	uint32_t *out = cr_alloc(s, 8 * 4, &out_va);

	if (!in || !out ||
	    !cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(in_va),
		       CR_BUF(out_va) }, 2, &CR_1D(8 * 256, 256)))
		return false;
	for (uint32_t k = 0; k < 4096; k++)
		want[k / 512] += in[k];
	*elements = 4096;
	return same_words(c->name, want, out, 8);
}

static bool run_last_group(struct cr_session *s, const struct slb_program *p,
			   const struct corpus_case *c, uint32_t *elements)
{
	const uint32_t n = 512, groups = 8;
	uint32_t in_va, part_va, count_va, res_va, want[8] = { 0 }, total = 0;
	uint32_t *in = alloc_words(s, n, &in_va, 0xFFFFF);
	uint32_t *part = cr_alloc(s, groups * 4, &part_va);
	uint32_t *count = cr_alloc(s, 4, &count_va);
	uint32_t *res = cr_alloc(s, 4, &res_va);
	bool ok;

	if (!in || !part || !count || !res ||
	    !cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(in_va),
		       CR_BUF(part_va), CR_BUF(count_va), CR_BUF(res_va) }, 4,
		       &CR_1D(n, 64)))
		return false;
	for (uint32_t k = 0; k < n; k++)
		want[k / 64] += in[k];
	for (uint32_t g = 0; g < groups; g++)
		total += want[g];
	ok = same_words(c->name, want, part, groups);
	ok &= same_words(c->name, &groups, count, 1);
	ok &= same_words(c->name, &total, res, 1);
	*elements = n;
	return ok;
}

static bool run_matmul_tiled(struct cr_session *s,
			     const struct slb_program *p,
			     const struct corpus_case *c, uint32_t *elements)
{
	const uint32_t n = 32;
	uint32_t a_va, b_va, c_va;
	float *a = alloc_floats(s, n * n, &a_va, -4, 4);
	float *b = alloc_floats(s, n * n, &b_va, -4, 4);
	float *out = cr_alloc(s, n * n * 4, &c_va), want[32 * 32];

	if (!a || !b || !out ||
	    !cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(a_va),
		       CR_BUF(b_va), CR_BUF(c_va), CR_VAL(&n) }, 4,
		       &CR_2D(n, n, 8, 8)))
		return false;
	for (uint32_t row = 0; row < n; row++) {
		for (uint32_t col = 0; col < n; col++) {
			float acc = 0;

			for (uint32_t k = 0; k < n; k++)
				acc += a[row * n + k] * b[k * n + col];
			want[row * n + col] = acc;
		}
	}
	*elements = n * n;
	return same_floats(c->name, want, out, n * n);
}

static int sobel_pixel(const uint8_t *img, int x, int y, int w, int h)
{
	return img[clampi(y, 0, h - 1) * w + clampi(x, 0, w - 1)];
}

static bool run_sobel(struct cr_session *s, const struct slb_program *p,
		      const struct corpus_case *c, uint32_t *elements)
{
	const int w = 32, h = 32;
	uint32_t img_va, out_va, want[32 * 32], got[32 * 32];
	uint8_t *img = cr_alloc(s, w * h, &img_va);
	uint8_t *out = cr_alloc(s, w * h, &out_va);

	if (!img || !out)
		return false;
	for (int k = 0; k < w * h; k++)
		img[k] = (uint8_t)rnd();
	if (!cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(img_va),
		       CR_BUF(out_va) }, 2, &CR_2D(w, h, 8, 8)))
		return false;
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
#define P(dx, dy) sobel_pixel(img, x + (dx), y + (dy), w, h)
			int gx = -P(-1, -1) + P(1, -1) - 2 * P(-1, 0) +
				 2 * P(1, 0) - P(-1, 1) + P(1, 1);
			int gy = -P(-1, -1) - 2 * P(0, -1) - P(1, -1) +
				 P(-1, 1) + 2 * P(0, 1) + P(1, 1);
#undef P
			want[y * w + x] = (uint32_t)clampi(abs(gx) + abs(gy),
							   0, 255);
			got[y * w + x] = out[y * w + x];
		}
	}
	*elements = (uint32_t)(w * h);
	return same_words(c->name, want, got, (uint32_t)(w * h));
}

static bool run_fir(struct cr_session *s, const struct slb_program *p,
		    const struct corpus_case *c, uint32_t *elements)
{
	const uint32_t n = 1024, taps = 16;
	uint32_t in_va, taps_va, out_va;
	float *in = alloc_floats(s, n + taps, &in_va, -1, 1);
	float *t = alloc_floats(s, taps, &taps_va, -0.5f, 0.5f);
	float *out = cr_alloc(s, n * 4, &out_va), want[1024];

	if (!in || !t || !out ||
	    !cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(in_va),
		       CR_BUF(taps_va), CR_BUF(out_va), CR_VAL(&taps) }, 4,
		       &CR_1D(n, 64)))
		return false;
	for (uint32_t i = 0; i < n; i++) {
		float acc = 0;

		for (uint32_t k = 0; k < taps; k++)
			acc += t[k] * in[i + k];
		want[i] = acc;
	}
	*elements = n;
	return same_floats(c->name, want, out, n);
}

static bool run_mandelbrot(struct cr_session *s, const struct slb_program *p,
			   const struct corpus_case *c, uint32_t *elements)
{
	const uint32_t w = 64, h = 32, max_iter = 64;
	const float x0 = -2.0f, y0 = -1.0f, step = 1.0f / 16;
	uint32_t out_va, want[64 * 32];
	uint32_t *out = cr_alloc(s, w * h * 4, &out_va);

	if (!out ||
	    !cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(out_va),
		       CR_VAL(&x0), CR_VAL(&y0), CR_VAL(&step),
		       CR_VAL(&max_iter) }, 5, &CR_2D(w, h, 8, 8)))
		return false;
	for (uint32_t gy = 0; gy < h; gy++) {
		for (uint32_t gx = 0; gx < w; gx++) {
			float cx = x0 + (float)gx * step;
			float cy = y0 + (float)gy * step;
			float x = 0, y = 0;
			uint32_t n = 0;

			while (n < max_iter && x * x + y * y <= 4.0f) {
				float xt = x * x - y * y + cx;

				y = 2.0f * x * y + cy;
				x = xt;
				n++;
			}
			want[gy * w + gx] = n;
		}
	}
	*elements = w * h;
	return same_words(c->name, want, out, w * h);
}

static bool run_sgemm(struct cr_session *s, const struct slb_program *p,
		      const struct corpus_case *c, uint32_t *elements)
{
	const uint32_t m = 32, n = 32, k = 24;
	const float alpha = 1.5f, beta = -0.75f;
	uint32_t a_va, b_va, c_va;
	float *a = alloc_floats(s, m * k, &a_va, -2, 2);
	float *b = alloc_floats(s, k * n, &b_va, -2, 2);
	float *cm = alloc_floats(s, m * n, &c_va, -2, 2), want[32 * 32];

	if (!a || !b || !cm)
		return false;
	for (uint32_t row = 0; row < m; row++) {
		for (uint32_t col = 0; col < n; col++) {
			float acc = 0;

			for (uint32_t q = 0; q < k; q++)
				acc += a[row * k + q] * b[q * n + col];
			want[row * n + col] = alpha * acc +
					      beta * cm[row * n + col];
		}
	}
	if (!cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(a_va),
		       CR_BUF(b_va), CR_BUF(c_va), CR_VAL(&k), CR_VAL(&alpha),
		       CR_VAL(&beta) }, 6, &CR_2D(n, m, 8, 8)))
		return false;
	*elements = m * n;
	return same_floats(c->name, want, cm, m * n);
}

/* Both convolution twins: scalar, or four outputs per work-item. */
static bool run_conv3x3(struct cr_session *s, const struct slb_program *p,
			const struct corpus_case *c, uint32_t *elements)
{
	const uint32_t w = 64, h = 16, stride = w + 2;
	const bool vec4 = c->spec != NULL;
	uint32_t in_va, k_va, out_va;
	float *in = alloc_floats(s, stride * (h + 2), &in_va, -1, 1);
	float *k = alloc_floats(s, 9, &k_va, -1, 1);
	float *out = cr_alloc(s, w * h * 4, &out_va), want[64 * 16];

	if (!in || !k || !out ||
	    !cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(in_va),
		       CR_BUF(k_va), CR_BUF(out_va) }, 3,
		       &CR_2D(vec4 ? w / 4 : w, h, vec4 ? 4 : 16, 4)))
		return false;
	for (uint32_t y = 0; y < h; y++) {
		for (uint32_t x = 0; x < w; x++) {
			const float *q = in + y * stride + x;
			float acc = 0;

			for (uint32_t r = 0; r < 3; r++)
				acc += k[3 * r] * q[r * stride] +
				       k[3 * r + 1] * q[r * stride + 1] +
				       k[3 * r + 2] * q[r * stride + 2];
			want[y * w + x] = acc;
		}
	}
	*elements = w * h;
	return same_floats(c->name, want, out, w * h);
}

/* The 24 words work_items stores for work-item (x, y, z). */
static void work_item_words(const struct cr_ndrange *nd, const uint32_t *id,
			    uint32_t *o)
{
	for (int d = 0; d < 3; d++) {
		o[d] = id[d] + nd->offset[d];
		o[3 + d] = nd->global[d];
		o[6 + d] = nd->offset[d];
		o[9 + d] = id[d] % nd->local[d];
		o[12 + d] = nd->local[d];
		o[15 + d] = id[d] / nd->local[d];
		o[18 + d] = nd->global[d] / nd->local[d];
	}
	o[21] = nd->dim;
	o[22] = 10;
	o[23] = 0x600D;
}

static bool run_work_items(struct cr_session *s, const struct slb_program *p,
			   const struct corpus_case *c, uint32_t *elements)
{
	const struct cr_ndrange ranges[] = {
		{ .dim = 3, .global = { 8, 4, 6 }, .local = { 4, 2, 3 },
		  .offset = { 3, 1, 2 } },
		{ .dim = 2, .global = { 12, 8, 1 }, .local = { 4, 4, 1 },
		  .offset = { 5, 7, 0 } },
		{ .dim = 1, .global = { 96, 1, 1 }, .local = { 32, 1, 1 } },
	};
	bool ok = true;

	*elements = 0;
	for (size_t r = 0; r < ARRAY_SIZE(ranges); r++) {
		const struct cr_ndrange *nd = &ranges[r];
		uint32_t items = nd->global[0] * nd->global[1] * nd->global[2];
		uint32_t out_va, id[3], want[24];
		uint32_t *out = cr_alloc(s, items * 96, &out_va);
		unsigned int bad = 0;

		if (!out || !cr_launch(s, p, c->name,
				       (struct cr_arg[]){ CR_BUF(out_va) }, 1,
				       nd))
			return false;
		for (uint32_t lin = 0; lin < items; lin++) {
			id[0] = lin % nd->global[0];
			id[1] = lin / nd->global[0] % nd->global[1];
			id[2] = lin / nd->global[0] / nd->global[1];
			work_item_words(nd, id, want);
			for (int k = 0; k < 24; k++) {
				if (out[24 * lin + k] == want[k])
					continue;
				if (bad++ < MAX_REPORTS)
					printf("  %s: %uD, item (%u %u %u), "
					       "word %d: expected %u got %u\n",
					       c->name, nd->dim, id[0], id[1],
					       id[2], k, want[k],
					       out[24 * lin + k]);
			}
		}
		ok &= !bad;
		*elements += items;
	}
	return ok;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Whether the old values returned by n atomic operations new = f(old, v_i)
 * chain from init to final in some order: the multiset {init} + {f(old_i,
 * v_i)} equals {old_i} + {final}.
 */
static bool atomic_chain(uint32_t (*f)(uint32_t, uint32_t), uint32_t init,
			 uint32_t final, const uint32_t *old,
			 unsigned int old_stride, const uint32_t *v,
			 uint32_t n)
{
	uint32_t *made = malloc((n + 1) * 4), *seen = malloc((n + 1) * 4);
	bool ok = made && seen;

	for (uint32_t i = 0; ok && i < n; i++) {
		made[i] = f(old[i * old_stride], v ? v[i] : 0);
		seen[i] = old[i * old_stride];
	}
	if (ok) {
		made[n] = init;
		seen[n] = final;
		qsort(made, n + 1, 4, cmp_u32);
		qsort(seen, n + 1, 4, cmp_u32);
		ok = !memcmp(made, seen, (n + 1) * 4);
	}
	free(made);
	free(seen);
	return ok;
}

static uint32_t op_add(uint32_t o, uint32_t v) { return o + v; }
static uint32_t op_sub(uint32_t o, uint32_t v) { return o - v; }
static uint32_t op_xchg(uint32_t o, uint32_t v) { (void)o; return v; }
static uint32_t op_min(uint32_t o, uint32_t v) { return (int32_t)o < (int32_t)v ? o : v; }
static uint32_t op_max(uint32_t o, uint32_t v) { return (int32_t)o > (int32_t)v ? o : v; }
static uint32_t op_and(uint32_t o, uint32_t v) { return o & v; }
static uint32_t op_or(uint32_t o, uint32_t v) { return o | v; }
static uint32_t op_xor(uint32_t o, uint32_t v) { return o ^ v; }
static uint32_t op_inc(uint32_t o, uint32_t v) { (void)v; return o + 1; }
static uint32_t op_dec(uint32_t o, uint32_t v) { (void)v; return o - 1; }

struct atomic_op {
	const char *name;
	uint32_t (*f)(uint32_t, uint32_t);
	bool uses_value;
};

static const struct atomic_op atomic_ops[] = {
	{ "add", op_add, true }, { "sub", op_sub, true },
	{ "xchg", op_xchg, true }, { "min", op_min, true },
	{ "max", op_max, true }, { "and", op_and, true },
	{ "or", op_or, true }, { "xor", op_xor, true },
	{ "inc", op_inc, false }, { "dec", op_dec, false },
};

/* The final value: the operations applied in index order. */
static uint32_t atomic_final(const struct atomic_op *op, uint32_t init,
			     const uint32_t *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		init = op->f(init, v[i]);
	return init;
}

static bool check_atomic(const char *name, const struct atomic_op *op,
			 uint32_t init, uint32_t final, const uint32_t *old,
			 unsigned int stride, const uint32_t *v, uint32_t n)
{
	uint32_t want = atomic_final(op, init, v, n);
	bool ok = true;

	/* xchg's final value depends on the order; the chain checks it. */
	if (op->f != op_xchg && final != want) {
		printf("  %s: atomic_%s final 0x%x, expected 0x%x\n", name,
		       op->name, final, want);
		ok = false;
	}
	if (!atomic_chain(op->f, init, final, old, stride,
			  op->uses_value ? v : NULL, n)) {
		printf("  %s: atomic_%s old values do not chain from 0x%x to "
		       "0x%x\n", name, op->name, init, final);
		ok = false;
	}
	return ok;
}

static bool run_atomics_global(struct cr_session *s,
			       const struct slb_program *p,
			       const struct corpus_case *c, uint32_t *elements)
{
	const uint32_t n = 256;
	uint32_t c_va, v_va, old_va, init[12], winners = 0, winner = 0;
	uint32_t *cnt = alloc_words(s, 12, &c_va, ~0u);
	uint32_t *v = alloc_words(s, n, &v_va, ~0u);
	uint32_t *old = cr_alloc(s, n * 12 * 4, &old_va);
	bool ok = true;

	if (!cnt || !v || !old)
		return false;
	cnt[10] = 0;
	memcpy(init, cnt, sizeof(init));
	if (!cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(c_va),
		       CR_BUF(v_va), CR_BUF(old_va) }, 3, &CR_1D(n, 64)))
		return false;
	for (unsigned int k = 0; k < ARRAY_SIZE(atomic_ops); k++)
		ok &= check_atomic(c->name, &atomic_ops[k], init[k], cnt[k],
				   old + k, 12, v, n);
	/* cmpxchg(c, 0, i + 1): one work-item wins, the others see it. */
	for (uint32_t i = 0; i < n; i++) {
		if (old[12 * i + 10] == 0) {
			winners++;
			winner = i + 1;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		if (old[12 * i + 10] != 0 && old[12 * i + 10] != winner)
			winners = 0;
	}
	if (winners != 1 || cnt[10] != winner) {
		printf("  %s: atomic_cmpxchg claim: %u winners, final %u\n",
		       c->name, winners, cnt[10]);
		ok = false;
	}
	if (cnt[11] != init[11] + 2 * n) {
		printf("  %s: atomic_cmpxchg loop: final 0x%x, expected 0x%x\n",
		       c->name, cnt[11], init[11] + 2 * n);
		ok = false;
	}
	*elements = n;
	return ok;
}

static bool run_atomics_local(struct cr_session *s,
			      const struct slb_program *p,
			      const struct corpus_case *c, uint32_t *elements)
{
	static const unsigned int op_of_slot[7] = { 0, 1, 2, 3, 4, 6, 8 };
	const uint32_t n = 256, local = 64, groups = n / local;
	uint32_t v_va, old_va, fin_va;
	uint32_t *v = alloc_words(s, n, &v_va, ~0u);
	uint32_t *old = cr_alloc(s, n * 8 * 4, &old_va);
	uint32_t *fin = cr_alloc(s, groups * 8 * 4, &fin_va);
	bool ok = true;

	if (!v || !old || !fin ||
	    !cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(v_va),
		       CR_BUF(old_va), CR_BUF(fin_va) }, 3,
		       &CR_1D(n, local)))
		return false;
	for (uint32_t g = 0; g < groups; g++) {
		const uint32_t *gv = v + g * local, *gold = old + g * local * 8;
		uint32_t claimed = 0, init7 = g * 1000 + 7;

		for (unsigned int slot = 0; slot < 7; slot++)
			ok &= check_atomic(c->name,
					   &atomic_ops[op_of_slot[slot]],
					   g * 1000 + slot, fin[8 * g + slot],
					   gold + slot, 8, gv, local);
		/* cmpxchg(c7, init, l): exactly one work-item succeeds. */
		for (uint32_t l = 0; l < local; l++)
			claimed += gold[8 * l + 7] == init7;
		if (claimed != 1 || fin[8 * g + 7] >= local) {
			printf("  %s: group %u: cmpxchg claimed %u times, "
			       "final %u\n", c->name, g, claimed,
			       fin[8 * g + 7]);
			ok = false;
		}
	}
	*elements = n;
	return ok;
}

/* ---- 64-bit atomics (cl_khr_int64_base/extended_atomics) ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t op64_add(uint64_t o, uint64_t v) { return o + v; }
static uint64_t op64_sub(uint64_t o, uint64_t v) { return o - v; }
static uint64_t op64_xchg(uint64_t o, uint64_t v) { (void)o; return v; }
static uint64_t op64_smin(uint64_t o, uint64_t v) { return (int64_t)o < (int64_t)v ? o : v; }
static uint64_t op64_smax(uint64_t o, uint64_t v) { return (int64_t)o > (int64_t)v ? o : v; }
static uint64_t op64_umin(uint64_t o, uint64_t v) { return o < v ? o : v; }
static uint64_t op64_umax(uint64_t o, uint64_t v) { return o > v ? o : v; }
static uint64_t op64_and(uint64_t o, uint64_t v) { return o & v; }
static uint64_t op64_or(uint64_t o, uint64_t v) { return o | v; }
static uint64_t op64_xor(uint64_t o, uint64_t v) { return o ^ v; }
static uint64_t op64_inc(uint64_t o, uint64_t v) { (void)v; return o + 1; }
static uint64_t op64_dec(uint64_t o, uint64_t v) { (void)v; return o - 1; }

struct atomic64_op {
	const char *name;
	uint64_t (*f)(uint64_t, uint64_t);
	bool uses_value;
};

/* The kernels' slots 0..9, then the unsigned min and max. */
static const struct atomic64_op atomic64_ops[] = {
	{ "add", op64_add, true }, { "sub", op64_sub, true },
	{ "xchg", op64_xchg, true }, { "min", op64_smin, true },
	{ "max", op64_smax, true }, { "and", op64_and, true },
	{ "or", op64_or, true }, { "xor", op64_xor, true },
	{ "inc", op64_inc, false }, { "dec", op64_dec, false },
	{ "min (ulong)", op64_umin, true }, { "max (ulong)", op64_umax, true },
};

/*
 * atomic_chain() in 64 bits: the multiset {init} + {f(old_i, v_i)} equals
 * {old_i} + {final}. For inc and dec that says the old values are a
 * permutation of init, init +- 1, ..., init +- (n - 1).
 */
static bool atomic_chain64(uint64_t (*f)(uint64_t, uint64_t), uint64_t init,
			   uint64_t final, const uint64_t *old,
			   unsigned int old_stride, const uint64_t *v,
			   uint32_t n)
{
	uint64_t *made = malloc((n + 1) * 8), *seen = malloc((n + 1) * 8);
	bool ok = made && seen;

	for (uint32_t i = 0; ok && i < n; i++) {
		made[i] = f(old[i * old_stride], v ? v[i] : 0);
		seen[i] = old[i * old_stride];
	}
	if (ok) {
		made[n] = init;
		seen[n] = final;
		qsort(made, n + 1, 8, cmp_u64);
		qsort(seen, n + 1, 8, cmp_u64);
		ok = !memcmp(made, seen, (n + 1) * 8);
	}
	free(made);
	free(seen);
	return ok;
}

/* Checks one counter: its final value (in index order) and old values. */
static bool check_atomic64(const char *name, unsigned int group,
			   const struct atomic64_op *op, uint64_t init,
			   uint64_t final, const uint64_t *old,
			   unsigned int stride, const uint64_t *v, uint32_t n)
{
	uint64_t want = init;
	bool ok = true;

	for (uint32_t i = 0; i < n; i++)
		want = op->f(want, v[i]);
	/* xchg's final value depends on the order; the chain checks it. */
	if (op->f != op64_xchg && final != want) {
		printf("  %s: group %u: atom_%s final 0x%llx, expected "
		       "0x%llx\n", name, group, op->name,
		       (unsigned long long)final, (unsigned long long)want);
		ok = false;
	}
	if (!atomic_chain64(op->f, init, final, old, stride,
			    op->uses_value ? v : NULL, n)) {
		printf("  %s: group %u: atom_%s old values do not chain from "
		       "0x%llx to 0x%llx\n", name, group, op->name,
		       (unsigned long long)init, (unsigned long long)final);
		ok = false;
	}
	return ok;
}

/*
 * A compare-exchange loop adding step: the work-items at old[k * stride]
 * for k with member(k) set each succeeded once, so their old values are
 * init, init + step, ... in some order and the final value is init +
 * count * step.
 */
static bool check_cmpxchg_loop64(const char *name, unsigned int group,
				 uint64_t init, uint64_t final,
				 const uint64_t *old, unsigned int stride,
				 uint32_t n, uint32_t every, uint32_t first)
{
	const uint64_t step = 0x100000001ull;
	uint32_t count = 0;
	uint8_t *hit = calloc(n, 1);
	bool ok = hit != NULL;

	for (uint32_t k = first; ok && k < n; k += every) {
		uint64_t d = old[k * stride] - init;

		if (d % step || d / step >= n || hit[d / step])
			ok = false;
		else
			hit[d / step] = 1;
		count++;
	}
	for (uint32_t j = 0; ok && j < count; j++)
		ok = hit[j];
	if (ok && final != init + count * step)
		ok = false;
	if (!ok)
		printf("  %s: group %u: atom_cmpxchg loop from 0x%llx: final "
		       "0x%llx, old values no permutation of %u steps\n", name,
		       group, (unsigned long long)init,
		       (unsigned long long)final, count);
	free(hit);
	return ok;
}

/* A claim by compare-exchange: one work-item saw init and put its own
 * value (want(winner)), the others saw that. */
static bool check_claim64(const char *name, unsigned int group,
			  uint64_t init, uint64_t final, const uint64_t *old,
			  unsigned int stride, uint32_t n,
			  uint64_t (*value)(uint32_t k))
{
	uint32_t winners = 0, winner = 0;
	bool ok = true;

	for (uint32_t k = 0; k < n; k++) {
		if (old[k * stride] == init) {
			winners++;
			winner = k;
		}
	}
	ok = winners == 1 && final == value(winner);
	for (uint32_t k = 0; ok && k < n; k++)
		ok = old[k * stride] == init || old[k * stride] == final;
	if (!ok)
		printf("  %s: group %u: atom_cmpxchg claim: %u winners, final "
		       "0x%llx\n", name, group, winners,
		       (unsigned long long)final);
	return ok;
}

static uint64_t *alloc_longs(struct cr_session *s, uint32_t n, uint32_t *va)
{
	uint64_t *p = cr_alloc(s, (size_t)n * 8, va);

	for (uint32_t k = 0; p && k < n; k++)
		p[k] = rnd64();
	return p;
}

static uint64_t global_claim_value(uint32_t i)
{
	return i + 0x100000001ull;
}

static bool run_atomics64_global(struct cr_session *s,
				 const struct slb_program *p,
				 const struct corpus_case *c,
				 uint32_t *elements)
{
	const uint32_t n = 256;
	uint32_t c_va, u_va, v_va, old_va;
	uint64_t *cnt = alloc_longs(s, 13, &c_va);
	uint64_t *u = alloc_longs(s, 2, &u_va);
	uint64_t *v = alloc_longs(s, n, &v_va);
	uint64_t *old = cr_alloc(s, n * 16 * 8, &old_va);
	uint64_t init[13], uinit[2];
	bool ok = true;

	if (!cnt || !u || !v || !old)
		return false;
	/* inc and dec carry and borrow between the words. */
	cnt[8] = 0x00000001FFFFFF80ull;
	cnt[9] = 0x0000000300000040ull;
	cnt[10] = 0;
	/* A few small values among the random ones, of both signs. */
	v[3] = 1;
	v[5] = (uint64_t)-1;
	v[7] = 0;
	memcpy(init, cnt, sizeof(init));
	memcpy(uinit, u, sizeof(uinit));
	if (!cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(c_va),
		       CR_BUF(u_va), CR_BUF(v_va), CR_BUF(old_va) }, 4,
		       &CR_1D(n, 64)))
		return false;
	for (unsigned int k = 0; k < 10; k++)
		ok &= check_atomic64(c->name, 0, &atomic64_ops[k], init[k],
				     cnt[k], old + k, 16, v, n);
	for (unsigned int k = 0; k < 2; k++)
		ok &= check_atomic64(c->name, 0, &atomic64_ops[10 + k],
				     uinit[k], u[k], old + 11 + k, 16, v, n);
	ok &= check_claim64(c->name, 0, 0, cnt[10], old + 10, 16, n,
			    global_claim_value);
	for (unsigned int k = 0; k < 2; k++)
		ok &= check_cmpxchg_loop64(c->name, 0, init[11 + k],
					   cnt[11 + k], old + 13, 16, n, 2, k);
	*elements = n;
	return ok;
}

static uint64_t local_claim_value(uint32_t l)
{
	return (uint64_t)l << 33;
}

static bool run_atomics64_local(struct cr_session *s,
				const struct slb_program *p,
				const struct corpus_case *c,
				uint32_t *elements)
{
	const uint32_t n = 256, local = 64, groups = n / local;
	uint32_t v_va, init_va, old_va, fin_va;
	uint64_t *v = alloc_longs(s, n, &v_va);
	uint64_t *init = alloc_longs(s, 16 * groups, &init_va);
	uint64_t *old = cr_alloc(s, n * 16 * 8, &old_va);
	uint64_t *fin = cr_alloc(s, groups * 16 * 8, &fin_va);
	bool ok = true;

	if (!v || !init || !old || !fin)
		return false;
	for (uint32_t g = 0; g < groups; g++) {
		init[16 * g + 8] = 0x00000001FFFFFFE0ull + g;
		init[16 * g + 9] = 0x0000000500000010ull + g;
		v[g * local + 9] = 0;
		v[g * local + 10] = (uint64_t)INT64_MIN;
		v[g * local + 11] = INT64_MAX;
	}
	if (!cr_launch(s, p, c->name, (struct cr_arg[]){ CR_BUF(v_va),
		       CR_BUF(init_va), CR_BUF(old_va), CR_BUF(fin_va) }, 4,
		       &CR_1D(n, local)))
		return false;
	for (uint32_t g = 0; g < groups; g++) {
		const uint64_t *gv = v + g * local, *gi = init + 16 * g;
		const uint64_t *gf = fin + 16 * g, *gold = old + g * local * 16;

		for (unsigned int k = 0; k < 12; k++)
			ok &= check_atomic64(c->name, g, &atomic64_ops[k],
					     gi[k], gf[k], gold + k, 16, gv,
					     local);
		ok &= check_claim64(c->name, g, gi[12], gf[12], gold + 12, 16,
				    local, local_claim_value);
		for (unsigned int k = 0; k < 3; k++)
			ok &= check_cmpxchg_loop64(c->name, g, gi[13 + k],
						   gf[13 + k], gold + 13, 16,
						   local, 3, k);
	}
	*elements = n;
	return ok;
}

/* ---- The table ---- */

/* ---- Narrow vectors: 8- and 16-bit lanes, more than four of them ---- */

/* n bytes (a multiple of 8) expected exactly, eight at a time. */
static unsigned int ex_bytes(struct expect *e, const uint8_t *bytes,
			     unsigned int n)
{
	for (unsigned int k = 0; k < n / 8; k++) {
		uint64_t v;

		memcpy(&v, bytes + 8 * k, 8);
		ex_bits(&e[k], 8, v);
	}
	return n / 8;
}

/* Lanes of random bits, half of them small (so that some compare equal). */
static void put_mixed(uint8_t *elem, uint32_t bytes, unsigned int size)
{
	for (uint32_t k = 0; k + size <= bytes; k += size) {
		uint64_t v = rnd64();

		if (rnd() & 1)
			v = (uint64_t)(int64_t)((int)(rnd() % 7) - 3);

		memcpy(elem + k, &v, size);
	}
}

static void gen_narrow_lanes(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	put_mixed(elem, bytes, buf < 2 ? 1 : 2);
}

static unsigned int ref_narrow_loops(const uint8_t *const in[], uint32_t i,
				     struct expect *e)
{
	const uint8_t *x = in[0] + 16 * i, *yb = in[1] + 16 * i;
	uint8_t acc[16], m[16] = { 0 }, out[80];
	uint16_t s[8] = { 0 }, w[16], t[16], y[8];
	int n = (x[0] & 7) + 1;

	for (int j = 0; j < 8; j++) {
		y[j] = le_get16(yb + 2 * j);
		w[j] = y[j];
		w[8 + j] = (uint16_t)-y[j];
	}
	memset(acc, 1, sizeof(acc));
	for (int k = 0; k < n; k++) {
		for (int j = 0; j < 16; j++) {
			uint8_t r = (uint8_t)(x[j] >> (k & 7));

			acc[j] = (uint8_t)(acc[j] * x[j] + k);
			if (k & 1)
				m[j] = m[j] > r ? m[j] : r;
			else
				m[j] ^= (uint8_t)(x[j] + k);
		}
		for (int j = 0; j < 8; j++)
			s[j] = (uint16_t)(s[j] * 3 + y[j]);
		for (int j = 0; j < 16; j++)
			t[j] = (uint16_t)(w[(j + 1) % 16] - w[j]);
		memcpy(w, t, sizeof(w));
	}
	memcpy(out, acc, 16);
	memcpy(out + 16, m, 16);
	memcpy(out + 32, s, 16);
	memcpy(out + 48, w, 32);
	return ex_bytes(e, out, 80);
}

static const struct map_spec narrow_loops_spec = {
	.n = 256, .local = 64, .num_in = 2, .in_size = { 16, 16 },
	.out_size = 80, .gen = gen_narrow_lanes, .ref = ref_narrow_loops,
};

static unsigned int ref_narrow_select(const uint8_t *const in[], uint32_t i,
				      struct expect *e)
{
	const int8_t *x = (const int8_t *)in[0] + 16 * i;
	const int8_t *y = (const int8_t *)in[1] + 16 * i;
	const int16_t *p = (const int16_t *)in[2] + 16 * i, *q = p + 8;
	uint8_t o[176];
	int16_t h[8];
	float f[8], g[8];
	int any_lt = 0, all_ne = 1, any_pq = 0, all_p = 1, any_u = 0;
	int all_uq = 1;

	for (int k = 0; k < 16; k++) {
		uint8_t ux = (uint8_t)x[k], uy = (uint8_t)y[k];

		o[k] = x[k] < y[k] ? 0xFF : 0;
		o[16 + k] = (uint8_t)(x[k] > y[k] ? x[k] : y[k]);
		o[32 + k] = ux >= uy ? uy : ux;
		o[48 + k] = (uint8_t)(x[k] < 0 ? y[k] : x[k]);
		o[64 + k] = (uint8_t)(x[0] & 1 ? x[k] : y[k]);
		o[80 + k] = (uint8_t)((x[k] & ~0x0F) | (y[k] & 0x0F));
		any_lt |= x[k] < y[k];
		all_ne &= x[k] != y[k];
		any_u |= ux > uy;
	}
	for (int k = 0; k < 8; k++) {
		uint16_t up = (uint16_t)p[k], uq = (uint16_t)q[k];

		f[k] = (float)p[k];
		g[k] = (float)q[k] * 0.5f;
		h[k] = (int16_t)(p[k] == q[k] ? p[k] : -q[k]);
		le_put16(o + 96 + 2 * k, (uint16_t)h[k]);
		le_put16(o + 112 + 2 * k, (uint16_t)(p[k] < 0 ? q[k] : p[k]));
		le_put16(o + 128 + 2 * k, up <= uq ? uq : up);
		le_put16(o + 144 + 2 * k, f[k] < g[k] ? 0xFFFF : 0);
		any_pq |= p[k] > q[k];
		all_p &= p[k] < 30000;
		all_uq &= uq >= up;
	}
	o[160] = (uint8_t)any_lt;
	o[161] = (uint8_t)all_ne;
	o[162] = (uint8_t)any_pq;
	o[163] = (uint8_t)all_p;
	o[164] = (uint8_t)any_u;
	o[165] = (uint8_t)all_uq;
	o[166] = x[1] != y[1] ? 0xFF : 0;
	o[167] = x[2] != y[2] ? 0xFF : 0;
	for (int k = 0; k < 4; k++)
		o[168 + k] = f[k] == g[k] ? 0xFF : 0;
	o[172] = p[4] < q[4] ? 0xFF : 0;
	o[173] = p[5] < q[5] ? 0xFF : 0;
	o[174] = x[3] < y[3];
	o[175] = (uint8_t)x[3] < (uint8_t)y[3];
	return ex_bytes(e, o, 176);
}

static const struct map_spec narrow_select_spec = {
	.n = 512, .local = 64, .num_in = 3, .in_size = { 16, 16, 32 },
	.out_size = 176, .gen = gen_narrow_lanes, .ref = ref_narrow_select,
};

static void gen_narrow_convert(unsigned int buf, uint8_t *elem,
			       uint32_t bytes)
{
	put_ints(elem, bytes, buf ? 2 : 4);
}

static unsigned int ref_narrow_convert(const uint8_t *const in[], uint32_t i,
				       struct expect *e)
{
	const int32_t *x = (const int32_t *)in[0] + 8 * i;
	const int16_t *s = (const int16_t *)in[1] + 16 * i;
	uint8_t o[256];

	for (int k = 0; k < 8; k++) {
		le_put16(o + 2 * k, (uint16_t)x[k]);
		le_put16(o + 16 + 2 * k, (uint16_t)clampi(x[k], SHRT_MIN,
						       SHRT_MAX));
		o[32 + k] = (uint8_t)clampi(x[k], 0, 255);
		o[40 + k] = (uint8_t)clampi(x[k], -128, 127);
		le_put16(o + 48 + 2 * k, (uint16_t)clampi(x[k], 0, 65535));
		le_put32(o + 64 + 4 * k, (uint32_t)(int32_t)s[k]);
		le_put32(o + 96 + 4 * k, (uint16_t)s[8 + k]);
		le_put64(o + 192 + 8 * k, (uint64_t)(int64_t)(int8_t)s[k]);
	}
	for (int k = 0; k < 16; k++) {
		o[128 + k] = (uint8_t)s[k];
		o[144 + k] = (uint8_t)clampi(s[k], -128, 127);
		o[160 + k] = (uint8_t)clampi((int8_t)s[k], 0, 255);
		o[176 + k] = (uint8_t)clampi((uint16_t)s[k], 0, 255);
	}
	return ex_bytes(e, o, 256);
}

static const struct map_spec narrow_convert_spec = {
	.n = 512, .local = 64, .num_in = 2, .in_size = { 32, 32 },
	.out_size = 256, .gen = gen_narrow_convert,
	.ref = ref_narrow_convert,
};

static void gen_narrow_convert_float(unsigned int buf, uint8_t *elem,
				     uint32_t bytes)
{
	if (buf)
		put_ints(elem, bytes, 2);
	else
		put_floats(elem, bytes, f_convert);
}

static unsigned int ref_narrow_convert_float(const uint8_t *const in[],
					     uint32_t i, struct expect *e)
{
	const float *f = (const float *)in[0] + 16 * i;
	const int16_t *s = (const int16_t *)in[1] + 16 * i;
	uint8_t o[208];

	for (int k = 0; k < 16; k++) {
		float fs = (float)s[k];

		o[k] = (uint8_t)(int8_t)truncf(fs * 0.003f);
		o[16 + k] = (uint8_t)sat(truncf(f[k]), -128, 127);
		o[32 + k] = (uint8_t)sat(rintf(f[k]), 0, 255);
		le_put16(o + 80 + 2 * k, (uint16_t)(int16_t)truncf(fs * 0.5f));
	}
	for (int k = 0; k < 16; k++) {
		int8_t b = (int8_t)((const uint8_t *)s)[k];

		le_put32(o + 112 + 4 * k, f2u((float)b));
	}
	for (int k = 0; k < 8; k++) {
		le_put16(o + 48 + 2 * k, (uint16_t)sat(ceilf(f[k]), SHRT_MIN,
						    SHRT_MAX));
		le_put16(o + 64 + 2 * k, (uint16_t)sat(floorf(f[8 + k]), 0,
						    65535));
		le_put32(o + 176 + 4 * k, f2u((float)(uint16_t)s[8 + k]));
	}
	return ex_bytes(e, o, 208);
}

static const struct map_spec narrow_convert_float_spec = {
	.n = 512, .local = 64, .num_in = 2, .in_size = { 64, 32 },
	.out_size = 208, .gen = gen_narrow_convert_float,
	.ref = ref_narrow_convert_float,
};

static unsigned int ref_narrow_as_type(const uint8_t *const in[], uint32_t i,
				       struct expect *e)
{
	const uint8_t *v = in[0] + 16 * i, *s = in[1] + 32 * i;
	uint8_t o[192];

	for (int k = 0; k < 16; k++) {
		o[k] = (uint8_t)(v[k] + k + 1);
		o[64 + k] = (uint8_t)(v[k] * 3);
		o[80 + k] = v[k % 8 * 2 + k / 8];
		o[96 + k] = s[k] ^ s[16 + k];
		o[160 + k] = v[k] >> 1;
	}
	for (int k = 0; k < 8; k++) {
		le_put16(o + 16 + 2 * k, le_get16(v + 2 * k) ^ 0x1234);
		le_put16(o + 176 + 2 * k, (uint16_t)(le_get16(s + 2 * k) +
						  le_get16(s + 16 + 2 * k)));
		le_put32(o + 112 + 4 * k, le_get32(s + 4 * k) + 1);
	}
	for (int k = 0; k < 4; k++) {
		le_put32(o + 32 + 4 * k, f2u((float)(le_get32(s + 4 * k) & 0xFFFF)));
		le_put16(o + 144 + 2 * k, (uint16_t)(le_get16(v + 2 * k) - 7));
	}
	for (int k = 0; k < 2; k++) {
		uint64_t l;

		memcpy(&l, s + 16 + 8 * k, 8);
		le_put64(o + 48 + 8 * k, l + 1);
		le_put32(o + 152 + 4 * k, le_get32(v + 8 + 4 * k) >> 3);
	}
	return ex_bytes(e, o, 192);
}

static const struct map_spec narrow_as_type_spec = {
	.n = 512, .local = 64, .num_in = 2, .in_size = { 16, 32 },
	.out_size = 192, .gen = gen_bits, .ref = ref_narrow_as_type,
};

static void gen_narrow_vload(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	if (buf == 2)
		gen_halves(buf, elem, bytes);
	else
		gen_bits(buf, elem, bytes);
}

/* The element's 96 bytes: stores at 1- and 2-byte aligned offsets. */
static unsigned int ref_narrow_vload_vstore(const uint8_t *const in[],
					    uint32_t i, struct expect *e)
{
	const uint8_t *a = in[0] + 17 * i, *b = in[1] + 18 * i;
	const uint16_t *h = (const uint16_t *)in[2] + 8 * i;
	uint8_t o[96];

	memset(o, OUT_FILL, sizeof(o));
	for (int k = 0; k < 16; k++) {
		o[1 + k] = (uint8_t)(a[1 + k] + 1);
		o[50 + k] = a[k] >> 1;
	}
	for (int k = 0; k < 8; k++) {
		uint16_t y = le_get16(b + 2 + 2 * k);

		le_put16(o + 18 + 2 * k, (uint16_t)(y * 2));
		le_put16(o + 34 + 2 * k,
		      float_to_half(half_to_float(h[k]) * 2.0f, HALF_RTE));
		le_put16(o + 68 + 2 * k, (uint16_t)(le_get16(a + 1 + 2 * k) - y));
	}
	return ex_bytes(e, o, 96);
}

static const struct map_spec narrow_vload_vstore_spec = {
	.n = 512, .local = 64, .num_in = 3, .in_size = { 17, 18, 16 },
	.out_size = 96, .gen = gen_narrow_vload,
	.ref = ref_narrow_vload_vstore,
};

/*
 * image_query: seven images of every type with random sizes and formats
 * (the image words of slb_binary.h, as the runtime writes them); each
 * query must give its word back as OpenCL 1.2 6.12.14.5 defines it.
 */
static bool run_image_query(struct cr_session *s,
			    const struct slb_program *p,
			    const struct corpus_case *c, uint32_t *elements)
{
	enum { IMAGES = 7, OUT = 21 };
	uint32_t img[IMAGES][SLB_IMAGE_WORDS];
	uint32_t out_va, want[OUT];
	struct cr_arg args[IMAGES + 1];
	uint32_t *out = cr_alloc(s, 4 * OUT, &out_va);

	if (!out)
		return false;
	for (int i = 0; i < IMAGES; i++) {
		img[i][SLB_IMAGE_WIDTH] = 1 + rnd() % 8192;
		img[i][SLB_IMAGE_HEIGHT] = 1 + rnd() % 8192;
		img[i][SLB_IMAGE_DEPTH] = 1 + rnd() % 2048;
		img[i][SLB_IMAGE_ARRAY_SIZE] = 1 + rnd() % 2048;
		img[i][SLB_IMAGE_CHANNEL_TYPE] = 0x10D0 + rnd() % 15;
		img[i][SLB_IMAGE_CHANNEL_ORDER] = 0x10B0 + rnd() % 10;
		img[i][SLB_IMAGE_RESERVED0] = 0;
		img[i][SLB_IMAGE_RESERVED1] = 0;
	}
	/* Arguments: a, out, w, b, c, d, e, f. */
	args[0] = (struct cr_arg){ .kind = CR_ARG_VALUE, .value = img[0],
				   .size = sizeof(img[0]) };
	args[1] = CR_BUF(out_va);
	for (int i = 1; i < IMAGES; i++)
		args[i + 1] = (struct cr_arg){ .kind = CR_ARG_VALUE,
					       .value = img[i],
					       .size = sizeof(img[i]) };
	if (!cr_launch(s, p, c->name, args, IMAGES + 1, &CR_1D(1, 1)))
		return false;
	/* img[0] a, [1] w, [2] b (3D), [3] c (2D array), [4] d (buffer),
	 * [5] e (1D array), [6] f (1D). */
	want[0] = img[0][SLB_IMAGE_WIDTH];
	want[1] = img[0][SLB_IMAGE_HEIGHT];
	want[2] = img[0][SLB_IMAGE_CHANNEL_TYPE];
	want[3] = img[0][SLB_IMAGE_CHANNEL_ORDER];
	want[4] = img[2][SLB_IMAGE_WIDTH];
	want[5] = img[2][SLB_IMAGE_HEIGHT];
	want[6] = img[2][SLB_IMAGE_DEPTH];
	want[7] = 0;                 /* get_image_dim(image3d_t).w */
	want[8] = img[2][SLB_IMAGE_DEPTH];
	want[9] = img[2][SLB_IMAGE_CHANNEL_ORDER];
	want[10] = img[3][SLB_IMAGE_ARRAY_SIZE];
	want[11] = img[3][SLB_IMAGE_WIDTH];
	want[12] = img[3][SLB_IMAGE_HEIGHT];
	want[13] = img[4][SLB_IMAGE_WIDTH];
	want[14] = img[4][SLB_IMAGE_CHANNEL_TYPE];
	want[15] = img[5][SLB_IMAGE_ARRAY_SIZE];
	want[16] = img[5][SLB_IMAGE_WIDTH];
	want[17] = img[6][SLB_IMAGE_WIDTH];
	want[18] = img[6][SLB_IMAGE_CHANNEL_ORDER];
	want[19] = img[1][SLB_IMAGE_WIDTH] * 65536 + img[1][SLB_IMAGE_HEIGHT];
	want[20] = img[1][SLB_IMAGE_CHANNEL_TYPE];
	*elements = 1;
	return same_words(c->name, want, out, OUT);
}

/* OpenCL 1.2 8.3.1.1: convert_uchar_sat_rte(f * 255.0f), by cases. */
static uint8_t ref_unorm8(float f)
{
	float p = f * 255.0f, fl;

	if (isnan(f) || p <= 0.0f)
		return 0;
	if (p >= 255.0f)
		return 255;
	fl = floorf(p);
	if (p - fl > 0.5f || (p - fl == 0.5f && ((int)fl & 1)))
		return (uint8_t)(fl + 1);
	return (uint8_t)fl;
}

/*
 * image_write: an 8x4 grid writes one texel of each image; every byte of
 * the three images (their row padding included, which must stay as it
 * was) is checked against OpenCL's write_image conversions.
 */
static bool run_image_write(struct cr_session *s,
			    const struct slb_program *p,
			    const struct corpus_case *c, uint32_t *elements)
{
	enum { W = 8, H = 4, N = W * H, BYTES = 256 };
	/* a: RGBA8 UNORM, 64-byte rows; b: R16I, 32-byte rows; c: RG16UI,
	 * 8x2, two layers, 32-byte rows, 80-byte slices. */
	static const uint32_t row[3] = { 64, 32, 32 }, slice[3] = {
		256, 128, 80 };
	uint8_t want[3][BYTES];
	uint32_t img_va[3], f_va, i_va, words[3][SLB_IMAGE_WORDS] = { { 0 } };
	uint8_t *img[3];
	float *f = cr_alloc(s, 16 * N, &f_va);
	int32_t *iv = cr_alloc(s, 16 * N, &i_va);
	struct cr_arg args[5];
	bool ok = true;

	if (!f || !iv)
		return false;
	for (int k = 0; k < 3; k++) {
		if (!(img[k] = cr_alloc(s, BYTES, &img_va[k])))
			return false;
		gen_bits(0, img[k], BYTES);
		memcpy(want[k], img[k], BYTES);
		args[k] = (struct cr_arg){ .kind = CR_ARG_VALUE,
					   .value = words[k],
					   .size = sizeof(words[k]) };
	}
	ok &= cr_describe_image(s, 0, &(struct cr_image){
		img_va[0], 187u << 12 | 0x688, 4, { W, H, 1 }, row[0],
		slice[0] });
	ok &= cr_describe_image(s, 1, &(struct cr_image){
		img_va[1], 196u << 12 | 0xB20, 2, { W, H, 1 }, row[1],
		slice[1] });
	ok &= cr_describe_image(s, 2, &(struct cr_image){
		img_va[2], 140u << 12 | 0xB08, 4, { W, H / 2, 2 }, row[2],
		slice[2] });
	if (!ok)
		return false;
	for (int n = 0; n < 4 * N; n++) {
		/* -0.5 to 1.5 in steps of 1/512: exact ties of f * 255. */
		f[n] = (float)((int)(rnd() % 1025) - 256) / 512.0f;
		iv[n] = (int32_t)(rnd() % 140000) - 70000;
	}
	f[0] = NAN;
	args[3] = CR_BUF(f_va);
	args[4] = CR_BUF(i_va);
	if (!cr_launch(s, p, c->name, args, 5, &CR_2D(W, H, W, H)))
		return false;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			int n = y * W + x;
			uint8_t *ta = want[0] + y * row[0] + 4 * x;
			uint8_t *tc = want[2] + (y & 1) * slice[2] +
				      (y >> 1) * row[2] + 4 * x;

			for (int k = 0; k < 4; k++)
				ta[k] = ref_unorm8(f[4 * n + k]);
			int16_t r = iv[4 * n] > 32767 ? 32767 :
				    iv[4 * n] < -32768 ? -32768 :
				    (int16_t)iv[4 * n];

			memcpy(want[1] + y * row[1] + 2 * x, &r, 2);
			for (int k = 0; k < 2; k++) {
				uint32_t u = (uint32_t)iv[4 * n + k];
				uint16_t h = u > 65535 ? 65535 : (uint16_t)u;

				memcpy(tc + 2 * k, &h, 2);
			}
		}
	}
	*elements = N;
	for (int k = 0; k < 3; k++) {
		for (int b = 0; b < BYTES; b++) {
			if (img[k][b] == want[k][b])
				continue;
			printf("  %s: image %d byte %d: got %u, want %u\n",
			       c->name, k, b, img[k][b], want[k][b]);
			ok = false;
			break;
		}
	}
	return ok;
}

/*
 * image_read: an 8x4 grid reads one texel of each of five images (random
 * bytes; the 32-bit float texels finite) without a sampler; the results
 * follow OpenCL 1.2 8.3's conversions: UNORM8 as b / 255 (within the
 * 1.5 ulp 8.3.1.1 allows), integers as they are, missing channels 0 and
 * alpha 1.
 */
static bool run_image_read(struct cr_session *s,
			   const struct slb_program *p,
			   const struct corpus_case *c, uint32_t *elements)
{
	enum { W = 8, H = 4, N = W * H, BYTES = 512 };
	/* a RGBA8 UNORM 8x4, 64-byte rows; b R16I 8x4, 32-byte rows; c
	 * RG16UI 8x2x2 layers, 32-byte rows, 80-byte slices; d RGBA32F
	 * 8x2x2, 128-byte rows, 256-byte slices; e R32F, 32 texels. */
	static const struct { uint32_t fmt, bpt, dim[3], row, slice; } im[5] = {
		{ 187u << 12 | 0x688, 4, { W, H, 1 }, 64, 256 },
		{ 196u << 12 | 0xB20, 2, { W, H, 1 }, 32, 128 },
		{ 140u << 12 | 0xB08, 4, { W, H / 2, 2 }, 32, 80 },
		{ 191u << 12 | 0x688, 16, { W, 2, 2 }, 128, 256 },
		{ 167u << 12 | 0xB20, 4, { N, 1, 1 }, 4 * N, 4 * N },
	};
	uint32_t img_va[5], out_va[5], words[5][SLB_IMAGE_WORDS] = { { 0 } };
	uint8_t *img[5];
	uint32_t *out[5];
	struct cr_arg args[10];
	bool ok = true;

	for (int k = 0; k < 5; k++) {
		if (!(img[k] = cr_alloc(s, BYTES, &img_va[k])) ||
		    !(out[k] = cr_alloc(s, 16 * N, &out_va[k])))
			return false;
		gen_bits(0, img[k], BYTES);
		if (k >= 3) {
			/* Finite floats: clear the top exponent bit. */
			for (int b = 3; b < BYTES; b += 4)
				img[k][b] &= 0xBF;
		}
		ok &= cr_describe_image(s, (unsigned int)k, &(struct cr_image){
			img_va[k], im[k].fmt, im[k].bpt,
			{ im[k].dim[0], im[k].dim[1], im[k].dim[2] },
			im[k].row, im[k].slice });
		args[k] = (struct cr_arg){ .kind = CR_ARG_VALUE,
					   .value = words[k],
					   .size = sizeof(words[k]) };
		args[5 + k] = CR_BUF(out_va[k]);
	}
	if (!ok || !cr_launch(s, p, c->name, args, 10, &CR_2D(W, H, W, H)))
		return false;
	*elements = N;
	for (int y = 0; y < H && ok; y++) {
		for (int x = 0; x < W && ok; x++) {
			int n = y * W + x;
			const uint8_t *ta = img[0] + y * 64 + 4 * x;
			const uint8_t *tb = img[1] + y * 32 + 2 * x;
			const uint8_t *tc = img[2] + (y & 1) * 80 +
					    (y >> 1) * 32 + 4 * x;
			const uint8_t *td = img[3] + (y >> 1) * 256 +
					    (y & 1) * 128 + 16 * x;
			uint32_t wb[4] = { 0, 0, 0, 1 }, wc[4] = { 0, 0, 0, 1 };
			uint32_t wd[4], we[4] = { 0, 0, 0, 0x3F800000u };
			int16_t r16;
			uint16_t u16[2];

			for (int k = 0; k < 4; k++) {
				float got;

				memcpy(&got, &out[0][4 * n + k], 4);
				if (cr_ulp_distance(got, ta[k] / 255.0) > 1.5) {
					printf("  %s: a(%d,%d)[%d] = %a, want "
					       "%u/255\n", c->name, x, y, k,
					       got, ta[k]);
					ok = false;
				}
			}
			memcpy(&r16, tb, 2);
			wb[0] = (uint32_t)(int32_t)r16;
			memcpy(u16, tc, 4);
			wc[0] = u16[0];
			wc[1] = u16[1];
			memcpy(wd, td, 16);
			memcpy(&we[0], img[4] + 4 * n, 4);
			ok &= same_words(c->name, wb, out[1] + 4 * n, 4);
			ok &= same_words(c->name, wc, out[2] + 4 * n, 4);
			ok &= same_words(c->name, wd, out[3] + 4 * n, 4);
			ok &= same_words(c->name, we, out[4] + 4 * n, 4);
		}
	}
	return ok;
}

/*
 * image_half: an 8x4 grid reads an RGBA32F texel as a half4 and writes
 * it doubled to a second RGBA32F image. The halves must be the texels
 * rounded to nearest even (the host compiler's _Float16 conversion, an
 * independent reference), the written floats exactly twice them.
 */
static bool run_image_half(struct cr_session *s,
			   const struct slb_program *p,
			   const struct corpus_case *c, uint32_t *elements)
{
	enum { W = 8, H = 4, N = W * H, ROW = 16 * W };
	const uint32_t rgba32f = 191u << 12 | 0x688;
	uint32_t a_va, b_va, out_va, words[2][SLB_IMAGE_WORDS] = { { 0 } };
	float *a = cr_alloc(s, ROW * H, &a_va);
	float *b = cr_alloc(s, ROW * H, &b_va);
	uint16_t *out = cr_alloc(s, 8 * N, &out_va);
	struct cr_arg args[3];
	bool ok;

	if (!a || !b || !out)
		return false;
	for (int i = 0; i < 4 * N; i++) {
		/* Halfway cases, denormal halves and plain values. */
		a[i] = (float)((int)(rnd() % 4001) - 2000) / 16.0f +
		       (float)(int)(rnd() % 3 - 1) * 0x1p-14f / 3.0f;
	}
	a[0] = 1.0f + 0x1p-11f;          /* a tie: to even, 1.0 */
	a[1] = 0x1p-20f;                 /* a denormal half */
	ok = cr_describe_image(s, 0, &(struct cr_image){
		a_va, rgba32f, 16, { W, H, 1 }, ROW, ROW * H });
	ok &= cr_describe_image(s, 1, &(struct cr_image){
		b_va, rgba32f, 16, { W, H, 1 }, ROW, ROW * H });
	for (int k = 0; k < 2; k++)
		args[k] = (struct cr_arg){ .kind = CR_ARG_VALUE,
					   .value = words[k],
					   .size = sizeof(words[k]) };
	args[2] = CR_BUF(out_va);
	if (!ok || !cr_launch(s, p, c->name, args, 3, &CR_2D(W, H, W, H)))
		return false;
	*elements = N;
	for (int i = 0; i < 4 * N; i++) {
		_Float16 h = (_Float16)a[i];
		float twice = 2.0f * (float)h;
		uint16_t hb;

		memcpy(&hb, &h, 2);
		if (out[i] != hb || memcmp(&b[i], &twice, 4)) {
			printf("  %s: channel %d: %a read as half 0x%04x, "
			       "want 0x%04x; wrote %a, want %a\n", c->name,
			       i, a[i], out[i], hb, b[i], twice);
			ok = false;
		}
	}
	return ok;
}

/*
 * image_sample: an 8x4 grid samples three images through the texture
 * unit. The expected values follow OpenCL 1.2 8.2: nearest with
 * CLK_ADDRESS_CLAMP gives the border (0, 0, 0, 0) for RGBA and (0, 0, 0,
 * 1) for R outside the image; linear with clamp to edge blends the four
 * texels around (u - 0.5, v - 0.5), u = s * width, v = t * height. The
 * coordinates are multiples of 1/256 of the image, so every weight is a
 * multiple of 1/32 and the blends are exact but for the rounding of the
 * texels' b / 255.
 */
static bool run_image_sample(struct cr_session *s,
			     const struct slb_program *p,
			     const struct corpus_case *c, uint32_t *elements)
{
	enum { W = 8, H = 4, N = W * H, BYTES = 512 };
	/* a RGBA8 UNORM 8x4, 64-byte rows; c RG16UI 8x2, 2 layers, 32-byte
	 * rows, 80-byte slices; b R16I 8x4, 32-byte rows. */
	static const struct cr_image_shape {
		uint32_t fmt, bpt, dim[3], row, slice;
	} im[3] = {
		{ 187u << 12 | 0x688, 4, { W, H, 1 }, 64, 256 },
		{ 140u << 12 | 0xB08, 4, { W, H / 2, 2 }, 32, 80 },
		{ 196u << 12 | 0xB20, 2, { W, H, 1 }, 32, 128 },
	};
	const uint32_t lin = 0x01 | 0x02 | 0x20, near_clamp = 0x04 | 0x10;
	uint32_t img_va[3], words[3][SLB_IMAGE_WORDS] = { { 0 } };
	uint32_t st_va, fl_va, fn_va, uc_va, ib_va;
	uint8_t *img[3];
	float *st = cr_alloc(s, 8 * N, &st_va);
	float *fl = cr_alloc(s, 16 * N, &fl_va);
	float *fn = cr_alloc(s, 16 * N, &fn_va);
	uint32_t *uc = cr_alloc(s, 16 * N, &uc_va);
	int32_t *ib = cr_alloc(s, 16 * N, &ib_va);
	bool ok = st && fl && fn && uc && ib;

	for (int k = 0; k < 3 && ok; k++) {
		struct cr_image d;

		if (!(img[k] = cr_alloc(s, BYTES, &img_va[k])))
			return false;
		gen_bits(0, img[k], BYTES);
		d = (struct cr_image){ img_va[k], im[k].fmt, im[k].bpt,
				       { im[k].dim[0], im[k].dim[1],
					 im[k].dim[2] },
				       im[k].row, im[k].slice };
		ok &= cr_describe_texture(s, (unsigned int)k, &d, 2, k == 1);
	}
	/* Sampler 0 the argument, 1 the program's constant sampler. */
	ok = ok && cr_describe_sampler(s, 0, lin) &&
	     cr_describe_sampler(s, 1, near_clamp);
	if (!ok)
		return false;
	for (int n = 0; n < N; n++) {
		/* -0.25 to 1.25 of the image in 1/256 steps. */
		st[2 * n] = (float)((int)(rnd() % 385) - 64) / 256.0f;
		st[2 * n + 1] = (float)((int)(rnd() % 385) - 64) / 256.0f;
	}
	if (!cr_launch(s, p, c->name, (struct cr_arg[]){
		       { .kind = CR_ARG_VALUE, .value = words[0], .size = 32 },
		       CR_VAL(&lin),
		       { .kind = CR_ARG_VALUE, .value = words[1], .size = 32 },
		       CR_BUF(st_va), CR_BUF(fl_va), CR_BUF(fn_va),
		       CR_BUF(uc_va), CR_BUF(ib_va),
		       { .kind = CR_ARG_VALUE, .value = words[2], .size = 32 },
		       }, 9, &CR_2D(W, H, W, H)))
		return false;
	*elements = N;
	for (int y = 0; y < H && ok; y++) {
		for (int x = 0; x < W && ok; x++) {
			int n = y * W + x, ax = x - 2, ay = y - 1;
			double u = st[2 * n] * W - 0.5, v = st[2 * n + 1] * H - 0.5;
			int i0 = (int)floor(u), j0 = (int)floor(v);
			double fa = u - i0, fb = v - j0;
			uint32_t wc[4] = { 0, 0, 0, 1 }, wb[4] = { 0, 0, 0, 1 };
			const uint8_t *tc = img[1] + (y & 1) * 80 +
					    (y >> 1) * 32 + 4 * x;
			uint16_t u16[2];
			int16_t r16;

			for (int k = 0; k < 4; k++) {
				double want = 0, wn = 0;

				for (int q = 0; q < 4; q++) {
					int i = i0 + (q & 1), j = j0 + (q >> 1);
					double w8 = (q & 1 ? fa : 1 - fa) *
						    (q >> 1 ? fb : 1 - fb);

					i = i < 0 ? 0 : i >= W ? W - 1 : i;
					j = j < 0 ? 0 : j >= H ? H - 1 : j;
					want += w8 * img[0][j * 64 + 4 * i + k] /
						255.0;
				}
				if (ax >= 0 && ay >= 0)
					wn = img[0][ay * 64 + 4 * ax + k] / 255.0;
				if (fabs(fl[4 * n + k] - want) > 1e-5 ||
				    fabs(fn[4 * n + k] - wn) > 1e-6) {
					printf("  %s: (%d,%d)[%d]: linear %a "
					       "(want %a), nearest %a (want "
					       "%a)\n", c->name, x, y, k,
					       fl[4 * n + k], want,
					       fn[4 * n + k], wn);
					ok = false;
				}
			}
			memcpy(u16, tc, 4);
			wc[0] = u16[0];
			wc[1] = u16[1];
			if (x + 1 < W) {
				memcpy(&r16, img[2] + y * 32 + 2 * (x + 1), 2);
				wb[0] = (uint32_t)(int32_t)r16;
			}
			ok &= same_words(c->name, wc, uc + 4 * n, 4);
			ok &= same_words(c->name, wb, (uint32_t *)ib + 4 * n,
					 4);
		}
	}
	return ok;
}

/*
 * image_sample_dims: 1D (8 texels), 1D array (8 x 3 layers, a layer past
 * the last clamps to it) and 3D (8x2x2) R32F images, nearest with clamp
 * to edge: each result is (texel, 0, 0, 1) with the coordinates clamped
 * (OpenCL 1.2 8.2; the layer by 8.2.1's clamp of the array index).
 */
static bool run_image_sample_dims(struct cr_session *s,
				  const struct slb_program *p,
				  const struct corpus_case *c,
				  uint32_t *elements)
{
	enum { W = 8, H = 4, N = W * H };
	const uint32_t clk = 0x02 | 0x10;
	static const struct { uint32_t dim[3], row, slice, texdim; bool array; }
	im[3] = {
		{ { W, 1, 1 }, 32, 32, 1, false },
		{ { W, 1, 3 }, 32, 32, 1, true },
		{ { W, 2, 2 }, 32, 64, 3, false },
	};
	uint32_t img_va[3], out_va, words[3][SLB_IMAGE_WORDS] = { { 0 } };
	float *img[3];
	float *out = cr_alloc(s, 48 * N, &out_va);
	bool ok = out != NULL;

	for (int k = 0; k < 3 && ok; k++) {
		struct cr_image d;

		if (!(img[k] = cr_alloc(s, 128, &img_va[k])))
			return false;
		for (int i = 0; i < 32; i++)
			img[k][i] = (float)(int)(rnd() % 2001) / 8.0f - 125.0f;
		d = (struct cr_image){ img_va[k], 167u << 12 | 0xB20, 4,
				       { im[k].dim[0], im[k].dim[1],
					 im[k].dim[2] },
				       im[k].row, im[k].slice };
		ok &= cr_describe_texture(s, (unsigned int)k, &d,
					  im[k].texdim, im[k].array);
	}
	ok = ok && cr_describe_sampler(s, 0, clk);
	if (!ok || !cr_launch(s, p, c->name, (struct cr_arg[]){
		       { .kind = CR_ARG_VALUE, .value = words[0], .size = 32 },
		       { .kind = CR_ARG_VALUE, .value = words[1], .size = 32 },
		       { .kind = CR_ARG_VALUE, .value = words[2], .size = 32 },
		       CR_BUF(out_va) }, 4, &CR_2D(W, H, W, H)))
		return false;
	*elements = N;
	for (int y = 0; y < H && ok; y++) {
		for (int x = 0; x < W && ok; x++) {
			int n = y * W + x, i = x + y - 2, cx = x - 1;
			int layer = y > 2 ? 2 : y;
			float want[3][4];

			i = i < 0 ? 0 : i >= W ? W - 1 : i;
			cx = cx < 0 ? 0 : cx;
			want[0][0] = img[0][i];
			want[1][0] = img[1][layer * 8 + x];
			want[2][0] = img[2][(y >> 1) * 16 + (y & 1) * 8 + cx];
			for (int k = 0; k < 3; k++) {
				want[k][1] = want[k][2] = 0.0f;
				want[k][3] = 1.0f;
				ok &= same_words(c->name, (uint32_t *)want[k],
						 (uint32_t *)out + 12 * n + 4 * k,
						 4);
			}
		}
	}
	return ok;
}

/*
 * narrow_args: vectors of every narrow type by value, one char16 past the
 * pushed uniforms; new argument values for each of two launches.
 */
static bool run_many_args(struct cr_session *s, const struct slb_program *p,
			  const struct corpus_case *c, uint32_t *elements)
{
	enum { N = 200 };
	struct cr_arg args[N + 1];
	uint8_t v[N];
	uint32_t out_va, want = 0;
	uint32_t *out = cr_alloc(s, 4, &out_va);

	if (!out)
		return false;
	gen_bits(0, v, N);
	args[0] = CR_BUF(out_va);
	for (int i = 0; i < N; i++) {
		args[i + 1] = CR_VAL(&v[i]);
		want = want * 31u + v[i];
	}
	if (!cr_launch(s, p, c->name, args, N + 1, &CR_1D(1, 1)))
		return false;
	*elements = 1;
	return same_words(c->name, &want, out, 1);
}

static bool run_narrow_args(struct cr_session *s, const struct slb_program *p,
			    const struct corpus_case *c, uint32_t *elements)
{
	const uint32_t n = 256;
	unsigned int bad = 0;

	for (int launch = 0; launch < 2; launch++) {
		uint8_t cv[16], sv[16], uc[16], us[16], c4[4], s2[4], u3[4];
		uint8_t pad[64], far[16], x;
		uint32_t a_va, out_va;
		uint8_t *a = cr_alloc(s, 16 * n, &a_va);
		uint8_t *out = cr_alloc(s, 64 * n, &out_va);

		if (!a || !out)
			return false;
		gen_bits(0, cv, 16);
		gen_bits(0, sv, 16);
		gen_bits(0, uc, 16);
		gen_bits(0, us, 16);
		gen_bits(0, c4, 4);
		gen_bits(0, s2, 4);
		gen_bits(0, u3, 4);
		gen_bits(0, pad, 64);
		gen_bits(0, far, 16);
		x = (uint8_t)rnd();
		gen_bits(0, a, 16 * n);
		if (!cr_launch(s, p, c->name, (struct cr_arg[]){
			       CR_VAL(&cv), CR_VAL(&sv), CR_VAL(&uc),
			       CR_VAL(&us), CR_VAL(&c4), CR_VAL(&s2),
			       CR_VAL(&u3), CR_VAL(&x), CR_VAL(&pad),
			       CR_VAL(&far), CR_BUF(a_va), CR_BUF(out_va) },
			       12, &CR_1D(n, 64)))
			return false;
		for (uint32_t i = 0; i < n; i++) {
			const uint8_t *v = a + 16 * i;
			uint8_t want[64];

			for (int k = 0; k < 16; k++) {
				want[k] = (uint8_t)(v[k] + cv[k] + sv[k]);
				want[48 + k] = (uint8_t)(far[k] - v[k] +
					(pad[16 + k] ^ pad[48 + k]));
			}
			for (int k = 0; k < 8; k++) {
				uint16_t r = (uint16_t)(le_get16(v + 2 * k) *
							le_get16(sv + 2 * k) +
							le_get16(us + 2 * k));

				want[16 + 2 * k] = (uint8_t)r ^ uc[2 * k];
				want[17 + 2 * k] = (uint8_t)(r >> 8) ^
						   uc[2 * k + 1];
			}
			memcpy(want + 32, c4, 4);
			memcpy(want + 36, s2, 4);
			memcpy(want + 40, u3, 3);
			want[43] = 7;
			memset(want + 44, x, 4);
			for (int k = 0; k < 64; k++) {
				if (out[64 * i + k] == want[k])
					continue;
				if (bad++ < MAX_REPORTS)
					printf("  %s: launch %d element %u "
					       "byte %d: expected 0x%02x got "
					       "0x%02x\n", c->name, launch, i,
					       k, want[k], out[64 * i + k]);
			}
		}
	}
	*elements = 2 * n;
	return !bad;
}

/* ---- short8 in 16-bit lanes (one register, reg mode 16) ---- */

static void gen_short_lanes(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_mixed(elem, bytes, 2);
}

/* -1 / 0: an OpenCL vector comparison's lane. */
static uint16_t mask16(int c)
{
	return c ? 0xFFFF : 0;
}

static int16_t sat16(int v)
{
	return (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
}

static unsigned int ref_short8_arith(const uint8_t *const in[], uint32_t i,
				     struct expect *e)
{
	const uint8_t *pa = in[0] + 16 * i, *pb = in[1] + 16 * i;
	unsigned int n = i & 15;
	uint8_t out[128];

	for (int j = 0; j < 8; j++) {
		uint16_t ux = le_get16(pa + 2 * j), uy = le_get16(pb + 2 * j);
		int x = (int16_t)ux, y = (int16_t)uy;
		int mx = x > y ? x : y, mn = x < -7 ? x : -7;
		unsigned int umx = ux > uy ? ux : uy, umn = ux < 9 ? ux : 9;
		unsigned int usub = ux > uy ? ux - uy : 0;
		unsigned int uadd = ux + uy > 0xFFFF ? 0xFFFF : ux + uy;

		le_put16(out + 2 * j, (uint16_t)((x + y) * 3 - (x ^ y)));
		le_put16(out + 16 + 2 * j,
		      (uint16_t)((x & y) | (~(x * y) ^ -x)));
		le_put16(out + 32 + 2 * j,
		      (uint16_t)((uint16_t)(ux << 3) + (x >> 2) +
				 (uint16_t)(uy << n)));
		le_put16(out + 48 + 2 * j, (uint16_t)(x >> (uy & 15)));
		le_put16(out + 64 + 2 * j,
		      (uint16_t)((ux >> n) + (uint16_t)(uy << (ux & 15))));
		le_put16(out + 80 + 2 * j, (uint16_t)(mx - mn));
		le_put16(out + 96 + 2 * j, (uint16_t)(umx ^ umn));
		le_put16(out + 112 + 2 * j,
		      (uint16_t)(sat16(x + y) + usub - sat16(x - y) + uadd));
	}
	return ex_bytes(e, out, 128);
}

static const struct map_spec short8_arith_spec = {
	.n = 256, .local = 64, .num_in = 2, .in_size = { 16, 16 },
	.out_size = 128, .gen = gen_short_lanes, .ref = ref_short8_arith,
};

static unsigned int ref_short8_select(const uint8_t *const in[], uint32_t i,
				      struct expect *e)
{
	const uint8_t *pa = in[0] + 16 * i, *pb = in[1] + 16 * i;
	uint8_t out[144];
	static const int16_t k8[8] = { 1, -2, 3, -4, 5, -6, 7, -8 };

	for (int j = 0; j < 8; j++) {
		uint16_t ux = le_get16(pa + 2 * j), uy = le_get16(pb + 2 * j);
		int x = (int16_t)ux, y = (int16_t)uy;
		uint16_t lt = mask16(x < y), le = mask16(x <= y);
		uint16_t eq = mask16(x == y), ult = mask16(ux < uy);
		uint16_t uge = mask16(ux >= uy), sel5 = eq ? 5 : ux;
		uint16_t bs1 = (uint16_t)((ux & ~0x0FF0) | (uy & 0x0FF0));
		uint16_t bs2 = (uint16_t)((uy & ~ult) | (ux & ult));

		le_put16(out + 2 * j, lt);
		le_put16(out + 16 + 2 * j,
		      (uint16_t)(le ^ mask16(x != y) ^ mask16(x > y)));
		le_put16(out + 32 + 2 * j,
		      (uint16_t)(ult + mask16(ux > uy) * 2 + uge));
		le_put16(out + 48 + 2 * j, lt ? uy : ux);
		le_put16(out + 64 + 2 * j,
		      (uint16_t)((x < 0 ? ux : uy) + sel5));
		le_put16(out + 80 + 2 * j,
		      (uint16_t)(x < y ? x - y : y * x));
		le_put16(out + 96 + 2 * j, (uint16_t)(bs1 ^ bs2));
		le_put16(out + 112 + 2 * j,
		      (uint16_t)((lt & mask16(y >= 0)) | (eq & mask16(!uge)) |
				 mask16(x >= y && x > 3)));
		le_put16(out + 128 + 2 * j,
		      (uint16_t)(((i & 1) ? k8[j] : x) + (int16_t)(i * 7)));
	}
	return ex_bytes(e, out, 144);
}

static const struct map_spec short8_select_spec = {
	.n = 256, .local = 64, .num_in = 2, .in_size = { 16, 16 },
	.out_size = 144, .gen = gen_short_lanes, .ref = ref_short8_select,
};

/* Lane j of the __local tile entry item i writes: x ^ u. */
static uint16_t tile16(const uint8_t *const in[], uint32_t i, int j)
{
	return (uint16_t)(le_get16(in[0] + 16 * i + 2 * j) ^
			  le_get16(in[1] + 16 * i + 2 * j));
}

static unsigned int ref_short8_memory(const uint8_t *const in[], uint32_t i,
				      struct expect *e)
{
	const uint8_t *pa = in[0] + 16 * i, *pb = in[1] + 16 * i;
	uint32_t base = i & ~63u, l = i & 63;
	uint8_t out[64];

	for (int j = 0; j < 8; j++) {
		uint16_t x = le_get16(pa + 2 * j), u = le_get16(pb + 2 * j);
		uint16_t odd = le_get16(pa + 2 * j + 2);
		uint16_t mn = (int16_t)x < (int16_t)u ? x : u;

		le_put16(out + 2 * j,
		      (uint16_t)(x + ((i >> 2) & 3) -
				 tile16(in, base + (l ^ 1), j)));
		le_put16(out + 16 + 2 * j, (uint16_t)(u * 5));
		le_put16(out + 32 + 2 * j, (uint16_t)(odd * 3));
		le_put16(out + 48 + 2 * j,
		      (uint16_t)(mn & tile16(in, base + ((l + 5) & 63), j)));
	}
	return ex_bytes(e, out, 64);
}

static const struct map_spec short8_memory_spec = {
	.n = 256, .local = 64, .num_in = 2, .in_size = { 16, 16 },
	.out_size = 64, .gen = gen_short_lanes, .ref = ref_short8_memory,
	.local_bytes = 64 * 16,
};

static unsigned int ref_short8_loop(const uint8_t *const in[], uint32_t i,
				    struct expect *e)
{
	const uint8_t *pa = in[0] + 32 * i;
	uint16_t x[8], y[8], acc[8], t[8], m[8] = { 0 }, h[8];
	int trips = (int)(le_get32(in[1] + 4 * i) & 15);
	uint8_t out[64];

	for (int j = 0; j < 8; j++) {
		x[j] = le_get16(pa + 2 * j);
		y[j] = le_get16(pa + 16 + 2 * j);
		acc[j] = 1;
		t[j] = 0;
		h[j] = y[j];
	}
	for (int k = 0; k < trips; k++) {
		for (int j = 0; j < 8; j++) {
			acc[j] = (uint16_t)(acc[j] * x[j] + 3);
			if (k & 1)
				t[j] = (uint16_t)(t[j] - x[j]);
			else
				t[j] = (uint16_t)(t[j] + k * y[j]);
			m[j] |= mask16((int16_t)acc[j] < (int16_t)t[j]);
			h[j] = (uint16_t)((h[j] >> 1) ^
					  (uint16_t)(k * 0x1357));
			x[j] = k == 2 ? y[j] :
			       (uint16_t)(x[j] ^ (uint16_t)(x[j] << 1));
		}
	}
	for (int j = 0; j < 8; j++) {
		le_put16(out + 2 * j, acc[j]);
		le_put16(out + 16 + 2 * j, t[j]);
		le_put16(out + 32 + 2 * j, m[j]);
		le_put16(out + 48 + 2 * j, h[j]);
	}
	return ex_bytes(e, out, 64);
}

static const struct map_spec short8_loop_spec = {
	.n = 256, .local = 64, .num_in = 2, .in_size = { 32, 4 },
	.out_size = 64, .gen = gen_short_lanes, .ref = ref_short8_loop,
};

/* ---- char16 in 8-bit lanes (one register, reg mode 8) ---- */

static void gen_char_lanes(unsigned int buf, uint8_t *elem, uint32_t bytes)
{
	(void)buf;
	put_mixed(elem, bytes, 1);
}

static int8_t sat8(int v)
{
	return (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
}

static unsigned int ref_char16_ops(const uint8_t *const in[], uint32_t i,
				   struct expect *e)
{
	const uint8_t *pa = in[0] + 16 * i, *pb = in[1] + 16 * i;
	unsigned int n = i & 7;
	uint8_t o[128];

	for (int j = 0; j < 16; j++) {
		uint8_t ux = pa[j], uy = pb[j];
		int x = (int8_t)ux, y = (int8_t)uy;
		uint8_t lt = x < y ? 0xFF : 0, uge = ux >= uy ? 0xFF : 0;
		uint8_t eq = x == y ? 0xFF : 0, ne = x != y ? 0xFF : 0;
		int mx = x > y ? x : y, mn = x < -5 ? x : -5;
		unsigned int umx = ux > uy ? ux : uy, umn = ux < 200 ? ux : 200;
		unsigned int uadd = ux + uy > 255 ? 255 : ux + uy;
		unsigned int usub = ux > uy ? ux - uy : 0;

		o[j] = (uint8_t)((x + y) * 3 - (x ^ y) + ~x + y);
		o[16 + j] = (uint8_t)((uint8_t)(ux << 2) + (x >> n) +
				      (uint8_t)(uy << (ux & 7)));
		o[32 + j] = (uint8_t)((ux >> 3) ^ (uy >> (ux & 7)) ^
				      (uint8_t)(i * 37));
		o[48 + j] = (uint8_t)(mx - mn + (umx & umn));
		o[64 + j] = (uint8_t)(sat8(x + y) ^ sat8(x - y) ^
				      (uint8_t)(uadd - usub));
		o[80 + j] = (uint8_t)(lt + eq * 2 + uge + ne);
		o[96 + j] = (uint8_t)((lt ? uy : ux) ^
				      ((ux & ~0x3C) | (uy & 0x3C)));
		o[112 + j] = (uint8_t)(x <= y ? x * y : 7 - x);
	}
	return ex_bytes(e, o, 128);
}

static const struct map_spec char16_ops_spec = {
	.n = 256, .local = 64, .num_in = 2, .in_size = { 16, 16 },
	.out_size = 128, .gen = gen_char_lanes, .ref = ref_char16_ops,
};

static unsigned int ref_char16_loop(const uint8_t *const in[], uint32_t i,
				    struct expect *e)
{
	const uint8_t *pa = in[0] + 16 * i;
	const uint8_t *other = in[0] + 16 * (i ^ 3);
	uint8_t x[16], acc[16], m[16] = { 0 }, h[16], o[48];
	int trips = (int)(le_get32(in[1] + 4 * i) & 15);

	for (int j = 0; j < 16; j++) {
		x[j] = (uint8_t)(pa[j] - other[j]);
		acc[j] = 1;
		h[j] = pa[j] ^ 0xA5;
	}
	for (int k = 0; k < trips; k++) {
		for (int j = 0; j < 16; j++) {
			acc[j] = (uint8_t)(acc[j] * x[j] + k);
			if (k & 1)
				m[j] = (int8_t)m[j] > (int8_t)acc[j] ? m[j] :
				       acc[j];
			else
				m[j] ^= (uint8_t)((int8_t)acc[j] >> 1);
			h[j] = (uint8_t)(h[j] << 1 | h[j] >> 7);
			x[j] = k == 3 ? acc[j] : (uint8_t)(x[j] + 1);
		}
	}
	for (int j = 0; j < 16; j++) {
		o[j] = acc[j];
		o[16 + j] = m[j];
		o[32 + j] = (uint8_t)(h[j] + x[j]);
	}
	return ex_bytes(e, o, 48);
}

static const struct map_spec char16_loop_spec = {
	.n = 256, .local = 64, .num_in = 2, .in_size = { 16, 4 },
	.out_size = 48, .gen = gen_char_lanes, .ref = ref_char16_loop,
	.local_bytes = 64 * 16,
};

#define MAP(name, kind) { #name, kind, run_map, &name##_spec, NULL }

const struct corpus_case corpus_cases[] = {
	MAP(vector_add, CORPUS_SEED),
	{ "dot_partial", CORPUS_SEED, run_dot_partial, NULL, NULL },
	{ "sum_reduction", CORPUS_SEED, run_sum_reduction, NULL, NULL },
	{ "last_group", CORPUS_SEED, run_last_group, NULL, NULL },
	{ "matmul_tiled", CORPUS_SEED, run_matmul_tiled, NULL, NULL },
	{ "sobel", CORPUS_SEED, run_sobel, NULL, NULL },
	{ "fir", CORPUS_SEED, run_fir, NULL, NULL },
	{ "mandelbrot", CORPUS_SEED, run_mandelbrot, NULL, NULL },
	{ "sgemm", CORPUS_SEED, run_sgemm, NULL, NULL },

	MAP(types_char, CORPUS_FEATURE),
	MAP(types_uchar, CORPUS_FEATURE),
	MAP(types_short, CORPUS_FEATURE),
	MAP(types_ushort, CORPUS_FEATURE),
	MAP(types_int, CORPUS_FEATURE),
	MAP(types_uint, CORPUS_FEATURE),
	MAP(types_long, CORPUS_FEATURE),
	MAP(types_ulong, CORPUS_FEATURE),
	MAP(types_float, CORPUS_FEATURE),
	MAP(half_storage, CORPUS_FEATURE),
	MAP(operators_arith, CORPUS_FEATURE),
	MAP(operators_bitwise, CORPUS_FEATURE),
	MAP(operators_compare, CORPUS_FEATURE),
	MAP(swizzles, CORPUS_FEATURE),
	MAP(convert_rounding, CORPUS_FEATURE),
	MAP(convert_saturate, CORPUS_FEATURE),
	MAP(as_type, CORPUS_FEATURE),
	MAP(control_loops, CORPUS_FEATURE),
	MAP(many_loops, CORPUS_FEATURE),
	MAP(loop_exit_layout, CORPUS_FEATURE),
	MAP(control_branches, CORPUS_FEATURE),
	MAP(control_switch, CORPUS_FEATURE),
	MAP(early_return, CORPUS_FEATURE),
	MAP(helper_functions, CORPUS_FEATURE),
	MAP(private_array, CORPUS_FEATURE),
	MAP(constant_program_scope, CORPUS_FEATURE),
	{ "constant_arg", CORPUS_FEATURE, run_constant_arg, NULL, NULL },
	MAP(local_static, CORPUS_FEATURE),
	MAP(local_arg, CORPUS_FEATURE),
	{ "local_per_kernel", CORPUS_FEATURE, run_local_per_kernel, NULL,
	  NULL },
	{ "work_items", CORPUS_FEATURE, run_work_items, NULL, NULL },
	MAP(barrier_mem_fence, CORPUS_FEATURE),
	{ "atomics_global", CORPUS_FEATURE, run_atomics_global, NULL, NULL },
	{ "atomics_local", CORPUS_FEATURE, run_atomics_local, NULL, NULL },
	{ "atomics64_global", CORPUS_FEATURE, run_atomics64_global, NULL,
	  NULL },
	{ "atomics64_local", CORPUS_FEATURE, run_atomics64_local, NULL,
	  NULL },
	MAP(vload_vstore, CORPUS_FEATURE),
	MAP(divrem_8, CORPUS_FEATURE),
	MAP(divrem_16, CORPUS_FEATURE),
	MAP(divrem_32, CORPUS_FEATURE),
	MAP(divrem_64, CORPUS_FEATURE),
	MAP(long_ops, CORPUS_FEATURE),
	MAP(integer_builtins, CORPUS_FEATURE),
	MAP(select_relational, CORPUS_FEATURE),
	MAP(narrow_loops, CORPUS_FEATURE),
	MAP(narrow_select, CORPUS_FEATURE),
	MAP(narrow_convert, CORPUS_FEATURE),
	MAP(narrow_convert_float, CORPUS_FEATURE),
	MAP(narrow_as_type, CORPUS_FEATURE),
	MAP(narrow_vload_vstore, CORPUS_FEATURE),
	MAP(short8_arith, CORPUS_FEATURE),
	MAP(short8_select, CORPUS_FEATURE),
	MAP(short8_memory, CORPUS_FEATURE),
	MAP(short8_loop, CORPUS_FEATURE),
	MAP(char16_ops, CORPUS_FEATURE),
	MAP(char16_loop, CORPUS_FEATURE),
	{ "narrow_args", CORPUS_FEATURE, run_narrow_args, NULL, NULL },
	{ "many_args", CORPUS_FEATURE, run_many_args, NULL, NULL },
	{ "image_query", CORPUS_FEATURE, run_image_query, NULL, NULL },
	{ "image_write", CORPUS_FEATURE, run_image_write, NULL, NULL },
	{ "image_read", CORPUS_FEATURE, run_image_read, NULL, NULL },
	{ "image_half", CORPUS_FEATURE, run_image_half, NULL, NULL },
	{ "image_sample", CORPUS_FEATURE, run_image_sample, NULL, NULL },
	{ "image_sample_dims", CORPUS_FEATURE, run_image_sample_dims, NULL,
	  NULL },
	MAP(math_sqrt, CORPUS_FEATURE),
	MAP(math_exp, CORPUS_FEATURE),
	MAP(math_log, CORPUS_FEATURE),
	MAP(math_trig, CORPUS_FEATURE),
	MAP(math_pow, CORPUS_FEATURE),
	MAP(math_rounding, CORPUS_FEATURE),
	MAP(math_minmax, CORPUS_FEATURE),
	MAP(geometric_dot, CORPUS_FEATURE),
	MAP(slp_lanes, CORPUS_FEATURE),
	MAP(native_math, CORPUS_FEATURE),
	MAP(register_pressure, CORPUS_FEATURE),
	MAP(reqd_wg_size, CORPUS_FEATURE),

	{ "vadd_scalar", CORPUS_TWIN, run_map, &vector_add_spec, "vadd_vec4" },
	{ "vadd_vec4", CORPUS_TWIN, run_vec4_map, &vadd_vec4_spec, NULL },
	{ "saxpy_scalar", CORPUS_TWIN, run_map, &saxpy_scalar_spec,
	  "saxpy_vec4" },
	{ "saxpy_vec4", CORPUS_TWIN, run_vec4_map, &saxpy_vec4_spec, NULL },
	{ "dot_scalar", CORPUS_TWIN, run_dot, &dot_scalar_spec, "dot_vec4" },
	{ "dot_vec4", CORPUS_TWIN, run_dot, &dot_vec4_spec, NULL },
	{ "conv3x3_scalar", CORPUS_TWIN, run_conv3x3, NULL, "conv3x3_vec4" },
	/* A non-NULL spec selects the four-outputs-per-item launch. */
	{ "conv3x3_vec4", CORPUS_TWIN, run_conv3x3, "vec4", NULL },
};

const unsigned int corpus_num_cases = ARRAY_SIZE(corpus_cases);

/* unsupported_double while cl_khr_fp64 is not offered (test_fp64.c runs
 * it as a kernel when it is). */
const char *const corpus_unsupported[] = {
#if !SLC_DEVICE_FP64
	"unsupported_double",
#endif
	NULL,           /* ends the list, which may be empty */
};

const unsigned int corpus_num_unsupported =
	ARRAY_SIZE(corpus_unsupported) - 1;

const struct corpus_case *corpus_find(const char *name)
{
	for (unsigned int k = 0; k < corpus_num_cases; k++) {
		if (!strcmp(corpus_cases[k].name, name))
			return &corpus_cases[k];
	}
	return NULL;
}

char *corpus_source(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s.cl", CORPUS_DIR, name);
	return cr_read_file(path);
}

bool corpus_run(struct cr_session *s, const struct corpus_case *c,
		struct corpus_outcome *o)
{
	char *source = corpus_source(c->name);
	struct slb_program prog;
	const struct slb_kernel *k;
	uint32_t seed = case_seed(c->name);

	memset(o, 0, sizeof(*o));
	if (!source)
		return false;
	o->built = cr_compile(source, NULL, &prog, &o->log);
	free(source);
	if (!o->built) {
		if (!s->quiet)
			printf("  %s: build failed:\n%s\n", c->name,
			       o->log ? o->log : "");
		return false;
	}
	k = slb_find_kernel(&prog, c->name);
	if (k) {
		/* The figures only: the strings and arguments stay with the
		 * program (and the outcome crosses a pipe). */
		o->kernel = *k;
		o->kernel.name = o->kernel.attributes = NULL;
		o->kernel.args = NULL;
		o->kernel.num_args = 0;
		cr_reset(s);
		rng_state = seed | (uint64_t)seed << 32 | 1;
		o->passed = c->run(s, &prog, c, &o->elements);
		o->figures = s->figures;
		if (!o->passed && !s->quiet)
			printf("  %s: inputs from seed 0x%08x\n", c->name,
			       seed);
	} else {
		printf("  %s: the binary has no kernel of that name\n",
		       c->name);
	}
	slb_program_free(&prog);
	return o->passed;
}

bool corpus_run_isolated(struct cr_session *s, const struct corpus_case *c,
			 struct corpus_outcome *o)
{
	int fds[2], status = 0;
	size_t got = 0;
	pid_t pid;

	memset(o, 0, sizeof(*o));
	fflush(stdout);
	if (pipe(fds))
		return corpus_run(s, c, o);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return corpus_run(s, c, o);
	}
	if (pid == 0) {
		struct corpus_outcome child;
		const uint8_t *p = (const uint8_t *)&child;
		size_t put = 0;

		close(fds[0]);
		corpus_run(s, c, &child);
		free(child.log);
		child.log = NULL;
		fflush(stdout);
		while (put < sizeof(child)) {
			ssize_t n = write(fds[1], p + put, sizeof(child) - put);

			if (n <= 0)
				break;
			put += (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	while (got < sizeof(*o)) {
		ssize_t n = read(fds[0], (uint8_t *)o + got, sizeof(*o) - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (got != sizeof(*o) || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		memset(o, 0, sizeof(*o));
		printf("  %s: crashed (%s %d)\n", c->name,
		       WIFSIGNALED(status) ? "signal" : "exit status",
		       WIFSIGNALED(status) ? WTERMSIG(status) :
		       WEXITSTATUS(status));
	}
	return o->passed;
}

void corpus_outcome_free(struct corpus_outcome *o)
{
	free(o->log);
	o->log = NULL;
}

double corpus_arith_per_element(const struct corpus_outcome *o)
{
	return o->elements ? (double)o->figures.arith_cycles / o->elements :
	       0;
}
