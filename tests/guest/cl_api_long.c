/* SPDX-License-Identifier: MIT */
/*
 * cl_api_test long [SECONDS]: one kernel that runs longer than a minute on
 * the emulated GPU completes, with every result checked against C (issue
 * 17: "a kernel that runs 60 s in emulation completes"; the model once
 * killed any chain after 10 s, and sleipnir.ko's default cap is 60 s).
 * Not part of make check, since it takes minutes; run it by hand:
 *
 *     tests/board run --driver sleipnir --userland -- cl_api_test long
 *
 * The kernel's loop count is calibrated on short launches (the model's
 * speed depends on the host), then one launch is sized for SECONDS
 * (default 90) and must run for more than 60 s (sized again, up to three
 * times, from the rate of a launch that fell short).
 */
#include <stdlib.h>
#include <time.h>

#include "cl_api.h"

#define ITEMS 16
#define MIN_SECONDS 60

static const char churn_source[] =
	"__kernel void churn(__global uint *out, uint n)\n"
	"{\n"
	"	uint i = get_global_id(0), x = i;\n"
	"\n"
	"	for (uint j = 0; j < n; j++)\n"
	"		x = x * 1664525u + 1013904223u + j;\n"
	"	out[i] = x;\n"
	"}\n";

/* churn() in C. */
static cl_uint churn(cl_uint i, cl_uint n)
{
	cl_uint x = i;

	for (cl_uint j = 0; j < n; j++)
		x = x * 1664525u + 1013904223u + j;
	return x;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* One launch of churn() over ITEMS with @n; its milliseconds, or 0 when it
 * did not complete or a result is wrong (a failed check says which). */
static uint64_t run_churn(cl_command_queue q, cl_kernel k, cl_mem buf,
			  cl_uint n)
{
	size_t global = ITEMS;
	cl_uint out[ITEMS];
	uint64_t t0, ms;
	int bad = 0;

	CHECK_ERR(clSetKernelArg(k, 1, sizeof(n), &n), CL_SUCCESS);
	t0 = now_ms();
	if (RUN_KERNEL(q, k, 1, &global, NULL) != CL_SUCCESS)
		return 0;
	ms = now_ms() - t0;
	if (clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(out), out, 0, NULL,
				NULL) != CL_SUCCESS) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "clEnqueueReadBuffer failed");
		return 0;
	}
	for (cl_uint i = 0; i < ITEMS; i++) {
		cl_uint want = churn(i, n);

		if (out[i] != want && bad++ == 0)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "n = %u: out[%u] = %u, expected %u", n,
				      i, out[i], want);
	}
	return bad ? 0 : ms ? ms : 1;
}

static unsigned int target_seconds = 90;

TEST(kernel_longer_than_a_minute)
{
	cl_program p;
	cl_kernel k = NULL;
	cl_mem buf = NULL;
	cl_int err = 1;
	cl_uint n = 1u << 12;
	uint64_t ms = 0, want_ms = (uint64_t)target_seconds * 1000;

	REQUIRE(cl_api_setup());
	p = cl_api_build(api.ctx, churn_source, NULL);
	REQUIRE(p);
	k = clCreateKernel(p, "churn", &err);
	buf = cl_api_buffer(CL_MEM_WRITE_ONLY, ITEMS * sizeof(cl_uint), NULL);
	if (!k || !buf)
		goto out;
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
	/* Calibrate: a launch of at least 2 s. */
	for (;;) {
		ms = run_churn(api.queue, k, buf, n);
		if (!ms)
			goto out;
		printf("  calibration: n = %u ran %llu ms\n", n,
		       (unsigned long long)ms);
		if (ms >= 2000 || n > UINT32_MAX / 4)
			break;
		n *= 4;
	}
	/* The long launch, sized again from the last one's rate when that
	 * fell short (the model gets faster on a longer launch). */
	for (int tries = 0; tries < 3; tries++) {
		if ((uint64_t)n * want_ms / ms > UINT32_MAX) {
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "the model is too fast for %u s in one "
				      "launch",
				      target_seconds);
			goto out;
		}
		n = (cl_uint)((uint64_t)n * want_ms / ms);
		printf("  the long launch: n = %u, aiming at %u s\n", n,
		       target_seconds);
		ms = run_churn(api.queue, k, buf, n);
		if (!ms)
			goto out;
		printf("  completed in %llu ms, results right\n",
		       (unsigned long long)ms);
		if (ms > MIN_SECONDS * 1000)
			break;
	}
	CHECK(ms > MIN_SECONDS * 1000);
out:
	if (buf)
		clReleaseMemObject(buf);
	if (k)
		clReleaseKernel(k);
	clReleaseProgram(p);
	cl_api_teardown();
}

void cl_api_long_tests(unsigned int seconds)
{
	if (seconds)
		target_seconds = seconds;
	/* The launch alone takes target_seconds; calibration and compile
	 * take a few more. */
	cl_api_watchdog("kernel_longer_than_a_minute",
			target_seconds * 5 + 300);
	RUN(kernel_longer_than_a_minute);
	cl_api_watchdog(NULL, 0);
}
