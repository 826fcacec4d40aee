/* SPDX-License-Identifier: MIT */
/*
 * A kernel's largest work-group (CL_KERNEL_WORK_GROUP_SIZE) against its
 * register use, run on the model core. A kernel holding sixteen float4
 * values at once needs more than 8 work registers, so at most 64 of its
 * threads fit on a core together (docs/hardware.md §5.6). Only a work-group
 * meeting at a barrier must be resident all at once: without a barrier the
 * kernel takes the device's 256 work-items per group, and a launch of that
 * size gives the C reference's results; with one it is capped at 64, and
 * a reqd_work_group_size above that is a build error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_runner.h"

CHECK_MAIN_STATE("compiler_work_group");

#define GROUP 256u
#define ITEMS (2 * GROUP)

static struct cr_session session;

#define WIDE_BODY \
	"\tsize_t i = get_global_id(0) * 16;\n" \
	"\tfloat4 a0 = d[i], a1 = d[i + 1], a2 = d[i + 2], a3 = d[i + 3];\n" \
	"\tfloat4 a4 = d[i + 4], a5 = d[i + 5], a6 = d[i + 6];\n" \
	"\tfloat4 a7 = d[i + 7], a8 = d[i + 8], a9 = d[i + 9];\n" \
	"\tfloat4 a10 = d[i + 10], a11 = d[i + 11], a12 = d[i + 12];\n" \
	"\tfloat4 a13 = d[i + 13], a14 = d[i + 14], a15 = d[i + 15];\n" \
	"\tfloat4 s = a0 * a15 + a1 * a14 + a2 * a13 + a3 * a12 +\n" \
	"\t\t   a4 * a11 + a5 * a10 + a6 * a9 + a7 * a8;\n"
#define WIDE_STORES \
	"\td[i] = a0 - s; d[i + 1] = a1 - s; d[i + 2] = a2 - s;\n" \
	"\td[i + 3] = a3 - s; d[i + 4] = a4 - s; d[i + 5] = a5 - s;\n" \
	"\td[i + 6] = a6 - s; d[i + 7] = a7 - s; d[i + 8] = a8 - s;\n" \
	"\td[i + 9] = a9 - s; d[i + 10] = a10 - s; d[i + 11] = a11 - s;\n" \
	"\td[i + 12] = a12 - s; d[i + 13] = a13 - s;\n" \
	"\td[i + 14] = a14 - s; d[i + 15] = a15 - s;\n"

static const char wide_src[] =
	"__kernel void wide(__global float4 *d)\n{\n"
	WIDE_BODY WIDE_STORES
	"}\n"
	"__kernel void wide_barrier(__global float4 *d)\n{\n"
	WIDE_BODY
	"\tbarrier(CLK_GLOBAL_MEM_FENCE);\n"
	WIDE_STORES
	"}\n";

static const char wide_reqd_src[] =
	"__kernel __attribute__((reqd_work_group_size(256, 1, 1)))\n"
	"void wide_reqd(__global float4 *d)\n{\n"
	WIDE_BODY WIDE_STORES
	"}\n"
	"__kernel __attribute__((reqd_work_group_size(128, 1, 1)))\n"
	"void wide_barrier_reqd(__global float4 *d)\n{\n"
	WIDE_BODY
	"\tbarrier(CLK_GLOBAL_MEM_FENCE);\n"
	WIDE_STORES
	"}\n";

/* Small exact values: every product and sum is exact in float. */
static float input(uint32_t j)
{
	return (float)((int)(j * 7u % 13u) - 6);
}

/* The kernel's results for work-item @item, lanes in @out[64]. */
static void reference(uint32_t item, float out[64])
{
	float a[16][4], s[4];

	for (uint32_t k = 0; k < 16; k++)
		for (uint32_t c = 0; c < 4; c++)
			a[k][c] = input((item * 16 + k) * 4 + c);
	for (uint32_t c = 0; c < 4; c++) {
		s[c] = 0;
		for (uint32_t k = 0; k < 8; k++)
			s[c] += a[k][c] * a[15 - k][c];
	}
	for (uint32_t k = 0; k < 16; k++)
		for (uint32_t c = 0; c < 4; c++)
			out[k * 4 + c] = a[k][c] - s[c];
}

static const struct slb_kernel *find(const struct slb_program *p,
				     const char *name)
{
	for (uint32_t i = 0; i < p->num_kernels; i++)
		if (!strcmp(p->kernels[i].name, name))
			return &p->kernels[i];
	return NULL;
}

/* Runs @name over ITEMS work-items in groups of @group; checks them. */
static void run_and_check(const struct slb_program *p, const char *name,
			  uint32_t group)
{
	struct cr_ndrange nd = CR_1D(ITEMS, group);
	struct cr_arg arg;
	uint32_t va;
	float *d, want[64];

	cr_reset(&session);
	d = cr_alloc(&session, ITEMS * 64 * sizeof(float), &va);
	REQUIRE(d);
	for (uint32_t j = 0; j < ITEMS * 64; j++)
		d[j] = input(j);
	arg = CR_BUF(va);
	if (!cr_launch(&session, p, name, &arg, 1, &nd)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s in groups of %u did not "
			      "run", name, group);
		return;
	}
	for (uint32_t item = 0; item < ITEMS; item++) {
		reference(item, want);
		if (memcmp(d + item * 64, want, sizeof(want))) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s in groups of %u: "
				      "work-item %u wrong (%g, expected %g)",
				      name, group, item, d[item * 64],
				      want[0]);
			return;
		}
	}
}

TEST(without_barrier_the_device_maximum)
{
	const struct slb_kernel *wide, *wide_barrier;
	struct slb_program p;
	char *log = NULL;
	bool ok;

	ok = cr_compile(wide_src, NULL, &p, &log);
	if (!ok)
		CHECK_FAIL_AT(__FILE__, __LINE__, "build: %s", log ? log : "");
	free(log);
	if (!ok)
		return;
	wide = find(&p, "wide");
	wide_barrier = find(&p, "wide_barrier");
	REQUIRE(wide && wide_barrier);
	/* The premise: both leave at most 64 threads per core. */
	CHECK(wide->work_regs > 8 && wide_barrier->work_regs > 8);
	CHECK_EQ(wide->threads_per_core, 64);
	CHECK(!wide->barrier && wide_barrier->barrier);
	CHECK_EQ(wide->max_wg_size, SLB_MAX_WG_SIZE);
	CHECK_EQ(wide_barrier->max_wg_size, wide_barrier->threads_per_core);
	run_and_check(&p, "wide", GROUP);
	run_and_check(&p, "wide", 64);
	run_and_check(&p, "wide_barrier", wide_barrier->max_wg_size);
	slb_program_free(&p);
}

/*
 * reqd_work_group_size: without a barrier any size up to 256 keeps the
 * registers; with one, 128 work-items must fit together, so the kernel is
 * built within 8 registers (spilling the rest).
 */
TEST(reqd_work_group_size_budget)
{
	const struct slb_kernel *k, *kb;
	struct slb_program p;
	char *log = NULL;
	bool ok;

	ok = cr_compile(wide_reqd_src, NULL, &p, &log);
	if (!ok)
		CHECK_FAIL_AT(__FILE__, __LINE__, "build: %s", log ? log : "");
	free(log);
	if (!ok)
		return;
	k = find(&p, "wide_reqd");
	kb = find(&p, "wide_barrier_reqd");
	REQUIRE(k && kb);
	CHECK(k->work_regs > 8);
	CHECK_EQ(k->max_wg_size, SLB_MAX_WG_SIZE);
	CHECK(kb->work_regs <= 8);
	CHECK(kb->max_wg_size >= 128);
	run_and_check(&p, "wide_reqd", 256);
	run_and_check(&p, "wide_barrier_reqd", 128);
	slb_program_free(&p);
}

int main(void)
{
	if (!cr_init(&session)) {
		printf("compiler_work_group: the model did not start\n");
		return 1;
	}
	RUN(without_barrier_the_device_maximum);
	RUN(reqd_work_group_size_budget);
	if (!cr_fini(&session)) {
		printf("  the model reported a guest error or a leak\n");
		check_state.failed++;
	}
	return check_summary();
}
