/* SPDX-License-Identifier: MIT */
/*
 * Struct and union kernel arguments (OpenCL 1.2 6.9) end to end: the
 * kernels of corpus/struct_args.cl and corpus/struct_args_copy.cl compiled
 * by slc_compile_source() and run on the model core through the launch
 * library (corpus_runner.c), each aggregate given as the bytes of the same
 * declaration in C, as clSetKernelArg() gives them. Checked: every member
 * the kernels read back, sizes and offsets as C lays them out, the argument
 * metadata (kind value, the struct's size, clang's type name), that reads
 * at fixed offsets need no private copy, and that a helper's writes to its
 * by-value copy stay its own. All of it twice: built as usual and with
 * -cl-opt-disable (clang's unoptimised code).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_runner.h"

CHECK_MAIN_STATE("compiler_struct_args");

#define ITEMS 32u
#define GROUP 8u

/* OpenCL C's vectors: their size is their alignment (float3 as float4). */
typedef int32_t int4_t __attribute__((vector_size(16)));
typedef float float2_t __attribute__((vector_size(8)));
typedef float float3_t __attribute__((vector_size(16)));
typedef uint8_t uchar2_t __attribute__((vector_size(2)));
typedef uint8_t uchar4_t __attribute__((vector_size(4)));
typedef int16_t short2_t __attribute__((vector_size(4)));

/* The declarations of the .cl files, as the host writes them. */
typedef struct {
	int32_t a;
	float b;
	int4_t c;
} S;

struct inner {
	int16_t s;
	int8_t c;
	float f;
};

struct outer {
	int8_t tag;
	struct inner in;
	float2_t v;
	int32_t arr[5];
	uint8_t bytes[3];
};

typedef struct {
	int8_t a;
	int16_t b;
	int8_t c;
	uchar2_t q;
	int32_t d;
	int8_t e;
	uint16_t f;
	uint8_t g[3];
	int64_t l;
	uchar4_t h;
	float3_t p;
} Small;

typedef union {
	int32_t i;
	float f;
	uchar4_t b;
	short2_t s;
} U;

struct pair {
	uint32_t x, y;
};

typedef struct {
	int8_t tag;
	int32_t arr[7];
	int16_t pairs[6];
} Table;

typedef struct {
	uint32_t head;
	uint32_t data[70];
} Big;

typedef struct __attribute__((packed)) {
	int8_t c;
	int32_t i;
	int16_t s;
} Packed;

static struct cr_session session;
static struct slb_program prog_direct, prog_copy;
static bool built_direct, built_copy;
/* The build options of this round; fixed-offset reads checked without. */
static const char *options;

static uint32_t bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static bool build(const char *name, struct slb_program *p)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s.cl", CORPUS_DIR, name);
	return cr_compile_file(path, options, p);
}

/*
 * Argument arg of kernel is an aggregate of size bytes named type_name;
 * reads at fixed offsets (direct) need no thread storage.
 */
static const struct slb_kernel *check_meta(const struct slb_program *p,
					   const char *kernel, unsigned int arg,
					   uint32_t size,
					   const char *type_name, bool direct)
{
	const struct slb_kernel *k = slb_find_kernel(p, kernel);
	const struct slb_arg *a;

	if (!k) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "no kernel %s", kernel);
		return NULL;
	}
	a = &k->args[arg];
	CHECK_EQ(a->kind, SLB_ARG_VALUE);
	CHECK_EQ(a->size, size);
	CHECK_EQ(a->offset % 4, 0);
	if (strcmp(a->type_name, type_name))
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s argument %u: type name "
			      "\"%s\", expected \"%s\"", kernel, arg,
			      a->type_name, type_name);
	if (direct && !options && k->private_bytes)
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s: %u private bytes for "
			      "reads at fixed offsets", kernel,
			      k->private_bytes);
	return k;
}

/* out[0..n) as uint32 against want, naming the first difference. */
static void check_words(const char *kernel, const uint32_t *out,
			const uint32_t *want, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		if (out[j] == want[j])
			continue;
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s: word %zu is 0x%08x, "
			      "expected 0x%08x", kernel, j, out[j], want[j]);
		return;
	}
}

/* Runs kernel over ITEMS work-items with a buffer of n words first. */
static uint32_t *run(const struct slb_program *p, const char *kernel,
		     size_t n, const struct cr_arg *rest, unsigned int nrest)
{
	struct cr_arg args[8];
	uint32_t va, *out;
	struct cr_ndrange nd = CR_1D(ITEMS, GROUP);

	cr_reset(&session);
	out = cr_alloc(&session, n * 4, &va);
	if (!out)
		return NULL;
	args[0] = CR_BUF(va);
	memcpy(args + 1, rest, nrest * sizeof(*rest));
	if (!cr_launch(&session, p, kernel, args, nrest + 1, &nd))
		return NULL;
	return out;
}

static S sample_s(void)
{
	S s;

	memset(&s, 0xA5, sizeof(s));  /* padding the kernel must not use */
	s.a = 1000;
	s.b = 3.25f;
	s.c = (int4_t){ -7, 77, 777, 7777 };
	return s;
}

TEST(basic)
{
	S s = sample_s();
	struct cr_arg a[] = { CR_VAL(&s) };
	uint32_t want[ITEMS], *out;

	REQUIRE(built_direct);
	check_meta(&prog_direct, "struct_basic", 1, sizeof(S), "S", true);
	out = run(&prog_direct, "struct_basic", ITEMS, a, 1);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++)
		want[i] = (uint32_t)(s.a + (int32_t)s.b + s.c[3] + (int32_t)i);
	check_words("struct_basic", out, want, ITEMS);
}

TEST(nested)
{
	struct outer o;
	struct cr_arg a[] = { CR_VAL(&o) };
	uint32_t want[16 * ITEMS], *out;

	memset(&o, 0x5A, sizeof(o));
	o.tag = -5;
	o.in.s = -1234;
	o.in.c = 99;
	o.in.f = -0.375f;
	o.v = (float2_t){ 1.5f, -2e10f };
	for (int k = 0; k < 5; k++)
		o.arr[k] = 0x1000 * (k + 1) - 3;
	o.bytes[0] = 0xFE;
	o.bytes[1] = 0x01;
	o.bytes[2] = 0x80;
	REQUIRE(built_direct);
	check_meta(&prog_direct, "struct_nested", 1, sizeof(o),
		   "struct outer", true);
	out = run(&prog_direct, "struct_nested", 16 * ITEMS, a, 1);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++) {
		uint32_t *d = want + 16 * i;

		d[0] = (uint32_t)(int32_t)o.tag;
		d[1] = (uint32_t)(int32_t)o.in.s;
		d[2] = (uint32_t)(int32_t)o.in.c;
		d[3] = bits(o.in.f);
		d[4] = bits(o.v[0]);
		d[5] = bits(o.v[1]);
		for (int k = 0; k < 5; k++)
			d[6 + k] = (uint32_t)o.arr[k] + i;
		d[11] = o.bytes[0];
		d[12] = o.bytes[1];
		d[13] = o.bytes[2];
		d[14] = sizeof(struct outer);
		d[15] = offsetof(struct outer, bytes);
	}
	check_words("struct_nested", out, want, 16 * ITEMS);
}

TEST(small_members)
{
	Small m;
	struct cr_arg a[] = { CR_VAL(&m) };
	uint32_t want[24 * ITEMS], *out;

	memset(&m, 0xC3, sizeof(m));
	m.a = -2;
	m.b = -30000;
	m.c = 0x7F;
	m.q = (uchar2_t){ 0x9A, 0x3B };
	m.d = -123456789;
	m.e = -128;
	m.f = 0xFEDC;
	m.g[0] = 1;
	m.g[1] = 0xAB;
	m.g[2] = 0xFF;
	m.l = -0x123456789ABCDLL;
	m.h = (uchar4_t){ 0x11, 0x22, 0xEE, 0xFF };
	m.p = (float3_t){ 0.5f, -1e-3f, 65504.0f, 0 };
	REQUIRE(built_direct);
	check_meta(&prog_direct, "struct_small", 1, sizeof(m), "Small", true);
	out = run(&prog_direct, "struct_small", 24 * ITEMS, a, 1);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++) {
		uint32_t *d = want + 24 * i;

		d[0] = (uint32_t)(int32_t)m.a;
		d[1] = (uint32_t)(int32_t)m.b;
		d[2] = (uint32_t)(int32_t)m.c;
		d[3] = (uint32_t)m.d;
		d[4] = (uint32_t)(int32_t)m.e;
		d[5] = m.f;
		d[6] = m.g[0];
		d[7] = m.g[1];
		d[8] = m.g[2];
		d[9] = (uint32_t)(uint64_t)m.l;
		d[10] = (uint32_t)((uint64_t)m.l >> 32);
		d[11] = 0xFFEE2211u;
		d[12] = bits(m.p[0]);
		d[13] = bits(m.p[1]);
		d[14] = bits(m.p[2]);
		d[15] = sizeof(Small);
		d[16] = offsetof(Small, d);
		d[17] = offsetof(Small, f);
		d[18] = offsetof(Small, l);
		d[19] = offsetof(Small, h);
		d[20] = offsetof(Small, p);
		d[21] = i;
		d[22] = 0x3B9Au;
		d[23] = 0;
	}
	check_words("struct_small", out, want, 24 * ITEMS);
}

TEST(union_arg)
{
	U u;
	int32_t scale = 4;
	struct cr_arg a[] = { CR_VAL(&u), CR_VAL(&scale) };
	uint32_t want[8 * ITEMS], *out;

	u.i = 0x40490FDB;            /* pi: bytes DB 0F 49 40 */
	REQUIRE(built_direct);
	check_meta(&prog_direct, "struct_union", 1, sizeof(u), "U", true);
	out = run(&prog_direct, "struct_union", 8 * ITEMS, a, 2);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++) {
		uint32_t *d = want + 8 * i;

		d[0] = (uint32_t)u.i;
		d[1] = bits(u.f * (float)scale);
		d[2] = u.b[0];
		d[3] = u.b[3];
		d[4] = (uint32_t)(int32_t)u.s[0];
		d[5] = (uint32_t)(int32_t)u.s[1];
		d[6] = sizeof(U);
		d[7] = i;
	}
	check_words("struct_union", out, want, 8 * ITEMS);
}

TEST(two_aggregates)
{
	S s = sample_s();
	uint32_t k = 0xABC00;
	struct pair p = { 0x10000001u, 0x20000002u };
	struct cr_arg a[] = { CR_VAL(&s), CR_VAL(&k), CR_VAL(&p) };
	uint32_t want[4 * ITEMS], *out;
	const struct slb_kernel *kern;

	REQUIRE(built_direct);
	kern = check_meta(&prog_direct, "struct_two", 1, sizeof(S), "S",
			  true);
	check_meta(&prog_direct, "struct_two", 3, sizeof(p), "struct pair",
		   true);
	if (kern)
		CHECK(kern->args[3].offset >= kern->args[2].offset + 4);
	out = run(&prog_direct, "struct_two", 4 * ITEMS, a, 3);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++) {
		uint32_t *d = want + 4 * i;

		d[0] = (uint32_t)s.a + p.x;
		d[1] = (uint32_t)s.c[1] + p.y;
		d[2] = k + i;
		d[3] = bits(s.b);
	}
	check_words("struct_two", out, want, 4 * ITEMS);
}

static int32_t weigh(S s, int32_t k)
{
	return s.a * k + s.c[0] - s.c[3];
}

TEST(read_helper)
{
	S s = sample_s();
	struct cr_arg a[] = { CR_VAL(&s) };
	uint32_t want[ITEMS], *out;

	REQUIRE(built_direct);
	check_meta(&prog_direct, "struct_read_helper", 1, sizeof(S), "S",
		   true);
	out = run(&prog_direct, "struct_read_helper", ITEMS, a, 1);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++)
		want[i] = (uint32_t)(weigh(s, (int32_t)i) + weigh(s, 2));
	check_words("struct_read_helper", out, want, ITEMS);
}

static Table sample_table(void)
{
	Table t;

	memset(&t, 0x3C, sizeof(t));
	t.tag = -9;
	for (int k = 0; k < 7; k++)
		t.arr[k] = (k + 1) * 1001 * (k & 1 ? -1 : 1);
	for (int k = 0; k < 6; k++)
		t.pairs[k] = (int16_t)(-300 * k + 17);
	return t;
}

TEST(indexed)
{
	Table t = sample_table();
	struct cr_arg a[] = { CR_VAL(&t) };
	uint32_t want[2 * ITEMS], *out;

	REQUIRE(built_copy);
	check_meta(&prog_copy, "struct_indexed", 1, sizeof(t), "Table",
		   false);
	out = run(&prog_copy, "struct_indexed", 2 * ITEMS, a, 1);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++) {
		want[2 * i] = (uint32_t)(t.arr[i % 7] + t.tag);
		want[2 * i + 1] = (uint32_t)(int32_t)t.pairs[i % 6];
	}
	check_words("struct_indexed", out, want, 2 * ITEMS);
}

TEST(written)
{
	S s = sample_s();
	int32_t n = -3;
	struct cr_arg a[] = { CR_VAL(&s), CR_VAL(&n) };
	uint32_t want[3 * ITEMS], *out;

	REQUIRE(built_copy);
	check_meta(&prog_copy, "struct_written", 1, sizeof(s), "S", false);
	out = run(&prog_copy, "struct_written", 3 * ITEMS, a, 2);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++) {
		S c = s;

		c.a += (int32_t)i;
		c.c[2] = n * (int32_t)i;
		if (i & 1)
			c.b = 2.5f;
		want[3 * i] = (uint32_t)(c.a + c.c[0]);
		want[3 * i + 1] = (uint32_t)c.c[2];
		want[3 * i + 2] = (uint32_t)(int32_t)(c.b * 2.0f);
	}
	check_words("struct_written", out, want, 3 * ITEMS);
}

static int32_t bump(S s, int32_t by)
{
	s.a += by;
	s.c += by;
	return s.a + s.c[3];
}

TEST(helper_copy)
{
	S s = sample_s();
	Table t = sample_table();
	struct cr_arg a[] = { CR_VAL(&s), CR_VAL(&t) };
	uint32_t want[4 * ITEMS], *out;

	REQUIRE(built_copy);
	check_meta(&prog_copy, "struct_helper", 1, sizeof(s), "S", false);
	check_meta(&prog_copy, "struct_helper", 2, sizeof(t), "Table",
		   false);
	out = run(&prog_copy, "struct_helper", 4 * ITEMS, a, 2);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++) {
		int32_t sum = t.tag;

		for (uint32_t k = 0; k < i % 8; k++)
			sum += t.arr[k];
		want[4 * i] = (uint32_t)bump(s, (int32_t)i);
		want[4 * i + 1] = (uint32_t)(s.a + s.c[3]);
		want[4 * i + 2] = (uint32_t)sum;
		want[4 * i + 3] = (uint32_t)(bump(s, 1) + bump(s, 2));
	}
	check_words("struct_helper", out, want, 4 * ITEMS);
}

TEST(from_global)
{
	struct cr_ndrange nd = CR_1D(ITEMS, GROUP);
	uint32_t want[3 * ITEMS], *out, out_va, in_va;
	S in[4], *buf;

	for (int k = 0; k < 4; k++) {
		in[k] = sample_s();
		in[k].a = 10 * k - 15;
		in[k].c[1] = 1000 + k;
	}
	REQUIRE(built_copy);
	cr_reset(&session);
	out = cr_alloc(&session, sizeof(want), &out_va);
	buf = cr_alloc(&session, sizeof(in), &in_va);
	REQUIRE(out && buf);
	memcpy(buf, in, sizeof(in));
	REQUIRE(cr_launch(&session, &prog_copy, "struct_from_global",
			  (struct cr_arg[]){ CR_BUF(out_va), CR_BUF(in_va) },
			  2, &nd));
	for (uint32_t i = 0; i < ITEMS; i++) {
		const S *m = &in[i % 4];

		want[3 * i] = (uint32_t)(m->a * (int32_t)i +
					 m->c[1] * (int32_t)i);
		want[3 * i + 1] = (uint32_t)(m->a + m->c[1]);
		want[3 * i + 2] = (uint32_t)m->a;
	}
	check_words("struct_from_global", out, want, 3 * ITEMS);
}

TEST(big)
{
	static Big b;
	struct cr_arg a[] = { CR_VAL(&b) };
	uint32_t want[3 * ITEMS], *out;

	b.head = 0xC0FFEE;
	for (uint32_t k = 0; k < 70; k++)
		b.data[k] = k * 0x01010101u + 5;
	REQUIRE(built_copy);
	check_meta(&prog_copy, "struct_big", 1, sizeof(b), "Big", false);
	out = run(&prog_copy, "struct_big", 3 * ITEMS, a, 1);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++) {
		want[3 * i] = b.head;
		want[3 * i + 1] = b.data[69] + b.data[i % 70];
		want[3 * i + 2] = sizeof(Big);
	}
	check_words("struct_big", out, want, 3 * ITEMS);
}

TEST(packed)
{
	Packed p = { -100, 0x12345678, -2 };
	struct cr_arg a[] = { CR_VAL(&p) };
	uint32_t want[4 * ITEMS], *out;

	REQUIRE(built_direct);
	check_meta(&prog_direct, "struct_packed", 1, sizeof(p), "Packed",
		   true);
	out = run(&prog_direct, "struct_packed", 4 * ITEMS, a, 1);
	REQUIRE(out);
	for (uint32_t i = 0; i < ITEMS; i++) {
		want[4 * i] = (uint32_t)(int32_t)p.c;
		want[4 * i + 1] = (uint32_t)(p.i + (int32_t)i);
		want[4 * i + 2] = (uint32_t)(int32_t)p.s;
		want[4 * i + 3] = sizeof(Packed);
	}
	check_words("struct_packed", out, want, 4 * ITEMS);
}

/* Every test on the kernels built with opts. */
static void run_all(const char *opts)
{
	options = opts;
	printf("# build options \"%s\"\n", opts ? opts : "");
	built_direct = build("struct_args", &prog_direct);
	built_copy = build("struct_args_copy", &prog_copy);
	RUN(basic);
	RUN(nested);
	RUN(small_members);
	RUN(union_arg);
	RUN(two_aggregates);
	RUN(read_helper);
	RUN(indexed);
	RUN(written);
	RUN(helper_copy);
	RUN(from_global);
	RUN(big);
	RUN(packed);
	if (built_direct)
		slb_program_free(&prog_direct);
	if (built_copy)
		slb_program_free(&prog_copy);
}

int main(void)
{
	if (!cr_init(&session)) {
		printf("compiler_struct_args: the model did not start\n");
		return 1;
	}
	run_all(NULL);
	/* clang's unoptimised code: copies and allocas everywhere. */
	run_all("-cl-opt-disable");
	if (!cr_fini(&session)) {
		printf("  the model reported a guest error or a leak\n");
		check_state.failed++;
	}
	return check_summary();
}
