/* SPDX-License-Identifier: MIT */
/*
 * Dispatch latency through the OpenCL runtime: clEnqueueNDRangeKernel of an
 * empty kernel (one work-item) followed by clFinish, timed one launch at a
 * time, so each sample is the whole path an application waits for: the
 * runtime's enqueue, its queue thread, the job chain through sleipnir.ko,
 * the GPU model and the completion back to the caller. Beside it
 * bench_null_job measures the driver alone (sleipnir.ko and panfrost).
 *
 * Usage: cl_bench_dispatch [RUNS]   (default 1000, after 50 warm-up runs)
 * Prints one JSON object on stdout:
 *   {"bench":"dispatch","path":"opencl_empty_kernel","runs":...,
 *    "median_ns":...,"p10_ns":...,"p90_ns":...,"min_ns":...}
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_cl.h"
#include "bench_time.h"

#define DEFAULT_RUNS 1000
#define WARM_UP_RUNS 50

/*
 * The kernel has one unused argument: an empty parameter list is the more
 * obvious empty kernel, but the argument makes the launch carry an
 * argument image like every real kernel's does, at no cost to measure.
 */
static const char kernel_source[] =
	"__kernel void empty(__global int *unused) { }\n";

static cl_kernel build_kernel(struct bench_cl *b, cl_program *program)
{
	const char *src = kernel_source;
	cl_kernel k;
	cl_int err;

	*program = clCreateProgramWithSource(b->context, 1, &src, NULL, &err);
	bench_cl_check(b, err, "clCreateProgramWithSource");
	err = clBuildProgram(*program, 1, &b->device, "", NULL, NULL);
	if (err != CL_SUCCESS) {
		char log[4096] = "";

		clGetProgramBuildInfo(*program, b->device, CL_PROGRAM_BUILD_LOG,
				      sizeof(log) - 1, log, NULL);
		fprintf(stderr, "cl_bench_dispatch: build log:\n%s\n", log);
	}
	bench_cl_check(b, err, "clBuildProgram");
	k = clCreateKernel(*program, "empty", &err);
	bench_cl_check(b, err, "clCreateKernel");
	return k;
}

static void launch(struct bench_cl *b, cl_kernel k)
{
	size_t global = 1;

	BENCH_CL(b, clEnqueueNDRangeKernel(b->queue, k, 1, NULL, &global, NULL,
					   0, NULL, NULL));
	BENCH_CL(b, clFinish(b->queue));
}

int main(int argc, char **argv)
{
	unsigned int runs = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0)
				     : DEFAULT_RUNS;
	struct bench_cl b;
	cl_program program;
	cl_kernel k;
	cl_mem unused;
	uint64_t *ns;
	cl_int err;

	if (!runs) {
		fprintf(stderr, "usage: cl_bench_dispatch [RUNS >= 1]\n");
		return 2;
	}
	ns = malloc(runs * sizeof(*ns));
	if (!ns)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	bench_cl_init(&b, "cl_bench_dispatch");
	k = build_kernel(&b, &program);
	unused = clCreateBuffer(b.context, CL_MEM_READ_WRITE, 64, NULL, &err);
	bench_cl_check(&b, err, "clCreateBuffer");
	BENCH_CL(&b, clSetKernelArg(k, 0, sizeof(unused), &unused));

	for (unsigned int i = 0; i < WARM_UP_RUNS; i++)
		launch(&b, k);
	for (unsigned int i = 0; i < runs; i++) {
		uint64_t t0 = now_ns();

		launch(&b, k);
		ns[i] = now_ns() - t0;
	}
	bench_sort(ns, runs);
	printf("{\"bench\":\"dispatch\",\"path\":\"opencl_empty_kernel\","
	       "\"runs\":%u,\"median_ns\":%llu,\"p10_ns\":%llu,"
	       "\"p90_ns\":%llu,\"min_ns\":%llu}\n",
	       runs, (unsigned long long)bench_pct(ns, runs, 50),
	       (unsigned long long)bench_pct(ns, runs, 10),
	       (unsigned long long)bench_pct(ns, runs, 90),
	       (unsigned long long)ns[0]);

	clReleaseMemObject(unused);
	clReleaseKernel(k);
	clReleaseProgram(program);
	bench_cl_fini(&b);
	free(ns);
	return 0;
}
