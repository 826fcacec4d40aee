/* SPDX-License-Identifier: MIT */
/*
 * inline, static inline and extern inline functions (corpus/
 * inline_functions.cl) compiled by slc_compile_source() and run on the
 * model core against the same functions in C: a plain C99 inline
 * definition must be callable (clang at -O0 emits no body for one), from
 * two kernels, from another inline function, beside an unused one. Twice:
 * built as usual and with -cl-opt-disable.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "corpus_runner.h"

CHECK_MAIN_STATE("compiler_inline");

#define ITEMS 256u
#define GROUP 64u

static struct cr_session session;

/* The .cl file's functions in C, with OpenCL's wrapping int arithmetic. */
static int32_t triple(int32_t x)
{
	return (int32_t)(3u * (uint32_t)x);
}

static int32_t add_one(int32_t x)
{
	return (int32_t)((uint32_t)x + 1u);
}

static int32_t minus_two(int32_t x)
{
	return (int32_t)((uint32_t)x - 2u);
}

static uint32_t rotate_mix(uint32_t a, uint32_t b)
{
	return (a << 7 | a >> 25) ^ b;
}

static int32_t poly(int32_t x)
{
	uint32_t acc = 0;

	for (int32_t k = 0; k < (x & 7); k++)
		acc += (uint32_t)triple(k) + (uint32_t)add_one(x);
	return (int32_t)(acc + (uint32_t)triple(x) * (uint32_t)(x & 15));
}

static int32_t declared_first(int32_t x)
{
	return x ^ 0x5A5A;
}

/* Inputs: small, large and negative values. */
static int32_t input(uint32_t i)
{
	uint32_t h = i * 2654435761u;

	return (int32_t)(i % 3 == 0 ? h : i % 3 == 1 ? h >> 20 : 0u - i);
}

static void check_words(const char *what, const int32_t *got,
			const int32_t *want, size_t n)
{
	for (size_t j = 0; j < n; j++) {
		if (got[j] == want[j])
			continue;
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s: word %zu is %d, "
			      "expected %d", what, j, got[j], want[j]);
		return;
	}
}

/* Runs @kernel over ITEMS inputs into @per_item words each. */
static const int32_t *run(const struct slb_program *p, const char *kernel,
			  unsigned int per_item)
{
	struct cr_ndrange nd = CR_1D(ITEMS, GROUP);
	struct cr_arg args[2];
	uint32_t in_va, out_va;
	int32_t *in, *out;

	cr_reset(&session);
	in = cr_alloc(&session, ITEMS * 4, &in_va);
	out = cr_alloc(&session, ITEMS * per_item * 4, &out_va);
	if (!in || !out)
		return NULL;
	for (uint32_t i = 0; i < ITEMS; i++)
		in[i] = input(i);
	args[0] = CR_BUF(in_va);
	args[1] = CR_BUF(out_va);
	if (!cr_launch(&session, p, kernel, args, 2, &nd))
		return NULL;
	return out;
}

static void run_all(const char *options)
{
	static int32_t want[6 * ITEMS];
	struct slb_program p;
	const int32_t *out;
	char path[512];

	printf("  options: %s\n", options ? options : "(none)");
	snprintf(path, sizeof(path), "%s/inline_functions.cl", CORPUS_DIR);
	if (!cr_compile_file(path, options, &p)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "inline_functions.cl does "
			      "not build with '%s'", options ? options : "");
		return;
	}
	CHECK_EQ(p.num_kernels, 2);

	out = run(&p, "inline_forms", 6);
	CHECK(out != NULL);
	if (out) {
		for (uint32_t i = 0; i < ITEMS; i++) {
			int32_t x = input(i), *d = want + 6 * i;

			d[0] = triple(x);
			d[1] = add_one(x);
			d[2] = minus_two(x);
			d[3] = poly(x);
			d[4] = (int32_t)rotate_mix((uint32_t)x, 0x9E3779B9u);
			d[5] = declared_first(x);
		}
		check_words("inline_forms", out, want, 6 * ITEMS);
	}

	out = run(&p, "inline_shared", 1);
	CHECK(out != NULL);
	if (out) {
		for (uint32_t i = 0; i < ITEMS; i++) {
			int32_t x = input(i);

			want[i] = (int32_t)((uint32_t)poly(triple(x) & 0xFFFF) -
					    (uint32_t)minus_two(x));
		}
		check_words("inline_shared", out, want, ITEMS);
	}
	slb_program_free(&p);
}

TEST(inline_functions)
{
	run_all(NULL);
	run_all("-cl-opt-disable");
}

int main(void)
{
	if (!cr_init(&session)) {
		printf("compiler_inline: the model did not start\n");
		return 1;
	}
	RUN(inline_functions);
	if (!cr_fini(&session)) {
		printf("  the model reported a guest error or a leak\n");
		check_state.failed++;
	}
	return check_summary();
}
