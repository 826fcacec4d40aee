/* SPDX-License-Identifier: MIT */
/*
 * Dispatch latency through the OpenCL runtime: clEnqueueNDRangeKernel of an
 * empty kernel (one work-item) followed by clFinish, timed one launch at a
 * time, so each sample is the whole path an application waits for: the
 * runtime's enqueue, its queue thread, the job chain through sleipnir.ko,
 * the GPU model and the completion back to the caller.
 *
 * Beside each launch, in turn first or second, a NULL job goes through
 * sleipnir.ko alone (null_job.h) on a file of its own: the two paths are
 * measured interleaved, so a stall or a drift of this shared, emulated
 * machine hits both alike, and their ratio holds from run to run.
 *
 * Usage: cl_bench_dispatch [RUNS]   (default 1000 of each, after 50
 * warm-up runs of each)
 * Prints one JSON line per path on stdout:
 *   {"bench":"dispatch","path":"opencl_empty_kernel","runs":...,
 *    "median_ns":...,"p10_ns":...,"p90_ns":...,"min_ns":...}
 *   {"bench":"dispatch","path":"sleipnir_null_job",...}
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cl.h"
#include "bench_time.h"
#include "null_job.h"

#define DEFAULT_RUNS 1000
#define WARM_UP_RUNS 50

/*
 * The kernel has one unused argument: an empty parameter list is the more
 * obvious empty kernel, but the argument makes the launch carry an
 * argument image like every real kernel's does, at no cost to measure.
 */
static const char kernel_source[] =
	"__kernel void empty(__global int *unused) { }\n";

/* One empty-kernel launch and its clFinish: the time in ns. */
static uint64_t timed_launch(struct bench_cl *b, cl_kernel k)
{
	size_t global = 1;
	uint64_t t0 = now_ns();

	BENCH_CL(b, clEnqueueNDRangeKernel(b->queue, k, 1, NULL, &global, NULL,
					   0, NULL, NULL));
	BENCH_CL(b, clFinish(b->queue));
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	unsigned int runs = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0)
				     : DEFAULT_RUNS;
	struct null_job_path null_job;
	struct bench_cl b;
	cl_program program;
	cl_kernel k;
	cl_mem unused;
	uint64_t *kernel_ns, *null_ns;
	cl_int err;
	int st;

	if (!runs) {
		fprintf(stderr, "usage: cl_bench_dispatch [RUNS >= 1]\n");
		return 2;
	}
	kernel_ns = malloc(runs * sizeof(*kernel_ns));
	null_ns = malloc(runs * sizeof(*null_ns));
	if (!kernel_ns || !null_ns)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	bench_cl_init(&b, "cl_bench_dispatch");
	k = bench_cl_kernel(&b, kernel_source, "empty", &program);
	unused = clCreateBuffer(b.context, CL_MEM_READ_WRITE, 64, NULL, &err);
	bench_cl_check(&b, err, "clCreateBuffer");
	BENCH_CL(&b, clSetKernelArg(k, 0, sizeof(unused), &unused));
	st = null_job_open(&null_job, NULL_JOB_SLEIPNIR);
	if (st) {
		fprintf(stderr, "cl_bench_dispatch: the NULL job's set-up "
			"failed: %s\n", strerror(-st));
		return 1;
	}

	for (unsigned int i = 0; i < WARM_UP_RUNS + runs; i++) {
		/* Each path goes first every other time. */
		bool kernel_first = i & 1;
		uint64_t kt = kernel_first ? timed_launch(&b, k) : 0;
		uint64_t nt = null_job_timed_run(&null_job);

		if (!kernel_first)
			kt = timed_launch(&b, k);
		if (!nt)
			return 1;
		if (i >= WARM_UP_RUNS) {
			kernel_ns[i - WARM_UP_RUNS] = kt;
			null_ns[i - WARM_UP_RUNS] = nt;
		}
	}
	bench_print_dispatch("opencl_empty_kernel", kernel_ns, runs);
	bench_print_dispatch("sleipnir_null_job", null_ns, runs);

	null_job_close(&null_job);
	clReleaseMemObject(unused);
	clReleaseKernel(k);
	clReleaseProgram(program);
	bench_cl_fini(&b);
	free(kernel_ns);
	free(null_ns);
	return 0;
}
