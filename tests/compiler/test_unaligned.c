/* SPDX-License-Identifier: MIT */
/*
 * Memory accesses less aligned than their size, end to end: the kernels
 * of corpus/unaligned.cl compiled by slc_compile_source() and run on the
 * model core through the launch library (corpus_runner.c). The model, like
 * Midgard, faults on a word access at an address that is not a multiple
 * of 4 and on a halfword at an odd one; the compiler must split such
 * accesses (compiler/ir/sir_lower_unaligned.c). Checked exactly against
 * the same code in C: packed structs written and indexed in private
 * memory, arrays of packed structs read and written in global memory
 * (vloadn/vstoren on their members included), int, short, float, long,
 * int2 and float4 through byte- and halfword-aligned typedefs in global,
 * constant and local memory, every byte of the written buffers (stores
 * must not touch their neighbours), and that packed members at multiples
 * of 4 are not split. All of it twice: built as usual and with
 * -cl-opt-disable.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "xorshift.h"
#include "corpus_runner.h"

CHECK_MAIN_STATE("compiler_unaligned");

#define ITEMS 32u
#define GROUP 8u
/* Record sizes of the under_* kernels (unaligned.cl's REC1, REC2). */
#define REC1 45u
#define REC2 46u

/* The declarations of unaligned.cl, with vectors as arrays. */
typedef struct __attribute__((packed)) {
	int8_t c;
	int32_t i;
	int16_t s;
} P;

typedef struct __attribute__((packed)) {
	uint8_t tag;
	float f;
	int64_t l;
	int32_t w[2];
	float v[4];
	uint16_t h;
	int32_t a[4];
	int16_t sv[3];
} Q;

typedef struct __attribute__((packed)) {
	int32_t a;
	int32_t b;
} P2;

_Static_assert(sizeof(P) == 7, "P is 7 bytes");
_Static_assert(sizeof(Q) == 61, "Q is 61 bytes");
_Static_assert(sizeof(P2) == 8, "P2 is 8 bytes");

static struct cr_session session;
static struct slb_program prog;
static bool built;
static const char *options;
static uint32_t rng = 0x2545F491u;

static uint32_t next_random(void)
{
	return xorshift32(&rng);
}

/* A finite float of moderate size, from a random word. */
static float random_float(void)
{
	return (float)(int32_t)(next_random() % 2000001u - 1000000) / 64.0f;
}

static bool build(void)
{
	return cr_compile_file(CORPUS_DIR "/unaligned.cl", options, &prog);
}

/* got[0..n) against want, naming the first differing byte. */
static void check_bytes(const char *what, const uint8_t *got,
			const uint8_t *want, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		if (got[j] == want[j])
			continue;
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s: byte %zu is 0x%02x, "
			      "expected 0x%02x", what, j, got[j], want[j]);
		return;
	}
}

static void check_words(const char *what, const uint32_t *got,
			const uint32_t *want, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		if (got[j] == want[j])
			continue;
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s: word %zu is 0x%08x, "
			      "expected 0x%08x", what, j, got[j], want[j]);
		return;
	}
}

static bool launch(const char *kernel, const struct cr_arg *args,
		   unsigned int n)
{
	struct cr_ndrange nd = CR_1D(ITEMS, GROUP);

	return cr_launch(&session, &prog, kernel, args, n, &nd);
}

TEST(packed_private)
{
	P p = { -100, 0x12345678, -2 };
	int32_t n = -7;
	uint32_t want[6 * ITEMS], va, *out;

	REQUIRE(built);
	cr_reset(&session);
	out = cr_alloc(&session, sizeof(want), &va);
	REQUIRE(out);
	REQUIRE(launch("packed_private", (struct cr_arg[]){ CR_BUF(va),
		       CR_VAL(&p), CR_VAL(&n) }, 3));
	for (uint32_t g = 0; g < ITEMS; g++) {
		uint32_t *d = want + 6 * g;
		P q = p, arr[3];

		q.i = (int32_t)((uint32_t)q.i + (uint32_t)(n * (int32_t)g));
		q.s = (int16_t)(q.s - (int32_t)g);
		((int8_t *)&q)[g % 7] ^= 1;
		for (int k = 0; k < 3; k++) {
			arr[k] = q;
			arr[k].i = (int32_t)((uint32_t)arr[k].i + (uint32_t)k);
			arr[k].c = (int8_t)(arr[k].c + k);
		}
		arr[g % 3].s ^= 0x5a5a;
		arr[(g + 1) % 3].i = (int32_t)((uint32_t)arr[(g + 1) % 3].i *
					       3u);
		d[0] = (uint32_t)q.i + (uint32_t)(int32_t)q.s;
		d[1] = (uint32_t)(int32_t)q.c;
		d[2] = (uint32_t)arr[g % 3].i;
		d[3] = (uint32_t)(arr[(g + 1) % 3].s + arr[g % 3].s);
		d[4] = (uint32_t)(int32_t)((int8_t *)&arr[g % 3])[g * 5 % 7];
		d[5] = (uint32_t)arr[(g + 2) % 3].i;
	}
	check_words("packed_private", out, want, 6 * ITEMS);
}

TEST(packed_global)
{
	P in[ITEMS], want_ps[ITEMS], *ps;
	uint32_t want[ITEMS], va_ps, va_out, *out;
	int32_t n = 1234567;

	for (uint32_t g = 0; g < ITEMS; g++) {
		in[g].c = (int8_t)next_random();
		in[g].i = (int32_t)next_random();
		in[g].s = (int16_t)next_random();
	}
	REQUIRE(built);
	cr_reset(&session);
	ps = cr_alloc(&session, sizeof(in), &va_ps);
	out = cr_alloc(&session, sizeof(want), &va_out);
	REQUIRE(ps && out);
	memcpy(ps, in, sizeof(in));
	REQUIRE(launch("packed_global", (struct cr_arg[]){ CR_BUF(va_ps),
		       CR_BUF(va_out), CR_VAL(&n) }, 3));
	for (uint32_t g = 0; g < ITEMS; g++) {
		P p = in[g];

		want[g] = (uint32_t)p.i + (uint32_t)(int32_t)p.s +
			  (uint32_t)(int32_t)p.c;
		p.i = (int32_t)((uint32_t)p.i * 3u + (uint32_t)n);
		p.s = (int16_t)(in[g].s + in[g].c);
		p.c = (int8_t)(in[g].c ^ 0x55);
		want_ps[g] = p;
	}
	check_words("packed_global out", out, want, ITEMS);
	check_bytes("packed_global structs", (const uint8_t *)ps,
		    (const uint8_t *)want_ps, sizeof(want_ps));
}

TEST(packed_global_wide)
{
	Q in[ITEMS], want_qs[ITEMS], *qs;
	uint32_t want[4 * ITEMS], va_qs, va_out, *out;

	for (uint32_t g = 0; g < ITEMS; g++) {
		Q *q = &in[g];

		q->tag = (uint8_t)next_random();
		q->f = random_float();
		q->l = (int64_t)((uint64_t)next_random() << 32 |
				 next_random());
		for (int k = 0; k < 2; k++)
			q->w[k] = (int32_t)next_random();
		for (int k = 0; k < 4; k++) {
			q->v[k] = random_float();
			q->a[k] = (int32_t)next_random();
		}
		q->h = (uint16_t)next_random();
		for (int k = 0; k < 3; k++)
			q->sv[k] = (int16_t)next_random();
	}
	REQUIRE(built);
	cr_reset(&session);
	qs = cr_alloc(&session, sizeof(in), &va_qs);
	out = cr_alloc(&session, sizeof(want), &va_out);
	REQUIRE(qs && out);
	memcpy(qs, in, sizeof(in));
	REQUIRE(launch("packed_global_wide", (struct cr_arg[]){
		       CR_BUF(va_qs), CR_BUF(va_out) }, 2));
	for (uint32_t g = 0; g < ITEMS; g++) {
		const Q *o = &in[g];
		Q *q = &want_qs[g];
		uint32_t *d = want + 4 * g;

		*q = *o;
		for (int k = 0; k < 4; k++)
			q->v[k] = o->v[k] * 2.0f + o->f;
		q->w[0] = (int32_t)((uint32_t)o->w[1] + g);
		q->w[1] = (int32_t)((uint32_t)o->w[0] - g);
		q->l = (int64_t)((uint64_t)o->l * 3u - g);
		q->f = o->v[0] + o->v[3];
		q->h = (uint16_t)(o->h + 7);
		q->tag = (uint8_t)(o->tag + 1);
		for (int k = 0; k < 4; k++)
			q->a[k] = (int32_t)((uint32_t)o->a[3 - k] + g);
		for (int k = 0; k < 3; k++)
			q->sv[k] = (int16_t)(o->sv[k] + k + 1);
		d[0] = (uint32_t)o->a[0] + (uint32_t)o->a[1] +
		       (uint32_t)o->a[2] + (uint32_t)o->a[3];
		d[1] = (uint32_t)(o->sv[0] + o->sv[1] + o->sv[2]);
		d[2] = (uint32_t)(uint64_t)o->l;
		d[3] = (uint32_t)q->a[2];
	}
	check_words("packed_global_wide out", out, want, 4 * ITEMS);
	check_bytes("packed_global_wide structs", (const uint8_t *)qs,
		    (const uint8_t *)want_qs, sizeof(want_qs));
}

TEST(packed_aligned)
{
	const struct slb_kernel *k;
	P2 in[ITEMS], *ps;
	uint32_t want[ITEMS], va_ps, va_out, *out;

	for (uint32_t g = 0; g < ITEMS; g++) {
		in[g].a = (int32_t)next_random();
		in[g].b = (int32_t)next_random();
		want[g] = (uint32_t)in[g].a + (uint32_t)in[g].b;
	}
	REQUIRE(built);
	k = slb_find_kernel(&prog, "packed_aligned");
	REQUIRE(k);
	/* The id, two word loads and a store: the members are not split. */
	if (!options)
		CHECK(k->stats.ldst_instrs <= 4);
	cr_reset(&session);
	ps = cr_alloc(&session, sizeof(in), &va_ps);
	out = cr_alloc(&session, sizeof(want), &va_out);
	REQUIRE(ps && out);
	memcpy(ps, in, sizeof(in));
	REQUIRE(launch("packed_aligned", (struct cr_arg[]){ CR_BUF(va_ps),
		       CR_BUF(va_out) }, 2));
	check_words("packed_aligned", out, want, ITEMS);
}

/*
 * The values of one record of the under_* kernels at rec: int at 0, short
 * at 4 (byte-aligned records only), float at 6, int2 at 10, float4 at 18,
 * long at 34.
 */
static void fill_record(uint8_t *rec, bool with_short)
{
	int32_t i = (int32_t)next_random(), w[2];
	int16_t h = (int16_t)next_random();
	float f = random_float(), v[4];
	int64_t l = (int64_t)((uint64_t)next_random() << 32 | next_random());

	w[0] = (int32_t)next_random();
	w[1] = (int32_t)next_random();
	for (int k = 0; k < 4; k++)
		v[k] = random_float();
	memcpy(rec, &i, 4);
	if (with_short)
		memcpy(rec + 4, &h, 2);
	memcpy(rec + 6, &f, 4);
	memcpy(rec + 10, w, 8);
	memcpy(rec + 18, v, 16);
	memcpy(rec + 34, &l, 8);
}

/* What the under_* kernels write at d for the record at s. */
static void change_record(const uint8_t *s, uint8_t *d, bool with_short)
{
	int32_t i, w[2], w2[2];
	int16_t h;
	float f, v[4], v2[4];
	int64_t l;

	memcpy(&i, s, 4);
	memcpy(&h, s + 4, 2);
	memcpy(&f, s + 6, 4);
	memcpy(w, s + 10, 8);
	memcpy(v, s + 18, 16);
	memcpy(&l, s + 34, 8);
	i = (int32_t)((uint32_t)i + 1u);
	h = (int16_t)(h ^ 0x1234);
	f = f * 2.0f;
	w2[0] = w[1];
	w2[1] = w[0];
	for (int k = 0; k < 4; k++)
		v2[k] = v[3 - k] + 1.0f;
	l = (int64_t)((uint64_t)l - 1u);
	memcpy(d, &i, 4);
	if (with_short)
		memcpy(d + 4, &h, 2);
	memcpy(d + 6, &f, 4);
	memcpy(d + 10, w2, 8);
	memcpy(d + 18, v2, 16);
	memcpy(d + 34, &l, 8);
}

/*
 * Runs an under_* kernel on ITEMS records of rec bytes from byte off of
 * the buffers, dst prefilled with a pattern; checks every byte of dst.
 * local_copy: the kernel copies its records through local memory, src's
 * bytes between the fields included (a2: in place) or dst's (a1).
 */
static void run_records(const char *kernel, uint32_t rec, uint32_t off,
			bool with_short, bool local_arg, bool copies_src)
{
	size_t size = off + rec * ITEMS + 16;
	uint8_t *src_host = malloc(size), *want = malloc(size);
	uint8_t *src, *dst;
	uint32_t va_src, va_dst;
	int32_t off_arg = (int32_t)off;
	struct cr_arg args[4];
	char what[96];

	REQUIRE(src_host && want);
	for (size_t j = 0; j < size; j++) {
		src_host[j] = (uint8_t)next_random();
		want[j] = (uint8_t)(0xC5 + j * 7);
	}
	for (uint32_t g = 0; g < ITEMS; g++)
		fill_record(src_host + off + rec * g, with_short);
	if (copies_src)
		memcpy(want + off, src_host + off, rec * ITEMS);
	cr_reset(&session);
	src = cr_alloc(&session, size, &va_src);
	dst = cr_alloc(&session, size, &va_dst);
	if (!src || !dst) {
		free(src_host);
		free(want);
		REQUIRE(src && dst);
	}
	memcpy(src, src_host, size);
	for (size_t j = 0; j < size; j++)
		dst[j] = (uint8_t)(0xC5 + j * 7);
	args[0] = CR_BUF(va_src);
	args[1] = CR_BUF(va_dst);
	args[2] = CR_VAL(&off_arg);
	args[3] = CR_LOCAL(GROUP * rec + 4);
	for (uint32_t g = 0; g < ITEMS; g++)
		change_record(src_host + off + rec * g, want + off + rec * g,
			      with_short);
	snprintf(what, sizeof(what), "%s (off %u)", kernel, off);
	if (launch(kernel, args, local_arg ? 4 : 3))
		check_bytes(what, dst, want, size);
	else
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s did not run", what);
	free(src_host);
	free(want);
}

TEST(under_global)
{
	REQUIRE(built);
	for (uint32_t off = 0; off < 4; off++)
		run_records("under_global", REC1, off, true, false, false);
}

TEST(under_global_a2)
{
	REQUIRE(built);
	run_records("under_global_a2", REC2, 0, false, false, false);
	run_records("under_global_a2", REC2, 2, false, false, false);
}

TEST(under_local)
{
	REQUIRE(built);
	for (uint32_t off = 0; off < 4; off++)
		run_records("under_local", REC1, off, true, true, false);
}

TEST(under_local_a2)
{
	REQUIRE(built);
	run_records("under_local_a2", REC2, 0, false, false, true);
	run_records("under_local_a2", REC2, 2, false, false, true);
}

TEST(under_constant)
{
	for (uint32_t off = 1; off < 4; off += 2) {
		size_t size = off + REC1 * ITEMS + 16;
		uint8_t *src;
		uint32_t va_src, va_out, *out, want[12 * ITEMS];
		int32_t off_arg = (int32_t)off;

		REQUIRE(built);
		cr_reset(&session);
		src = cr_alloc(&session, size, &va_src);
		out = cr_alloc(&session, sizeof(want), &va_out);
		REQUIRE(src && out);
		for (size_t j = 0; j < size; j++)
			src[j] = (uint8_t)next_random();
		for (uint32_t g = 0; g < ITEMS; g++) {
			const uint8_t *s = src + off + REC1 * g;
			uint32_t *d = want + 12 * g;
			int16_t h;

			fill_record(src + off + REC1 * g, true);
			memcpy(&d[0], s, 4);
			memcpy(&h, s + 4, 2);
			d[1] = (uint32_t)(int32_t)h;
			memcpy(&d[2], s + 6, 4);
			memcpy(&d[3], s + 10, 8);
			memcpy(&d[5], s + 18, 16);
			memcpy(&d[9], s + 34, 8);
		}
		/* The fixed misaligned word, read after every record is set. */
		for (uint32_t g = 0; g < ITEMS; g++)
			memcpy(&want[12 * g + 11], src + 4 * g + 1, 4);
		REQUIRE(launch("under_constant", (struct cr_arg[]){
			       CR_BUF(va_src), CR_BUF(va_out),
			       CR_VAL(&off_arg) }, 3));
		check_words("under_constant", out, want, 12 * ITEMS);
	}
}

/* Every test on the kernels built with opts. */
static void run_all(const char *opts)
{
	options = opts;
	printf("# build options \"%s\"\n", opts ? opts : "");
	built = build();
	RUN(packed_private);
	RUN(packed_global);
	RUN(packed_global_wide);
	RUN(packed_aligned);
	RUN(under_global);
	RUN(under_global_a2);
	RUN(under_local);
	RUN(under_local_a2);
	RUN(under_constant);
	if (built)
		slb_program_free(&prog);
}

int main(void)
{
	if (!cr_init(&session)) {
		printf("compiler_unaligned: the model did not start\n");
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
