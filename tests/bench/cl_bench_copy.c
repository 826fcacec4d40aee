/* SPDX-License-Identifier: MIT */
/*
 * Buffer copies on the GPU against copies on the CPU (issue 20's
 * firmware/cl kernels, userspace/icd/icd_builtin.c), in one program: the
 * runtime reads SLEIPNIR_CL_CPU_COPIES at each command, so the same
 * queue, buffers and kernel time both ways, alternately.
 *  - chain: kernel (a += 1) -> clEnqueueCopyBuffer (a to b) -> kernel
 *    (b += 1) -> clFinish, in an in-order queue, nothing waited for in
 *    between: with GPU copies it is one chain of jobs; with CPU copies
 *    the queue's thread waits for the first kernel, copies, then submits
 *    the second;
 *  - copy: clEnqueueCopyBuffer alone and clFinish.
 * Medians of REPS repetitions after a warm-up that checks b; the
 * runtime's count of bytes it copied on the CPU per repetition beside.
 *
 * Usage: cl_bench_copy [MAX_MIB]   (default 4; sizes 64 KiB to it, x4)
 * Prints one JSON object per size on stdout:
 *   {"bench":"gpu_copy","bytes":...,"reps":...,"chain_gpu_ns":...,
 *    "chain_cpu_ns":...,"copy_gpu_ns":...,"copy_cpu_ns":...,
 *    "gpu_copied":...,"cpu_copied":...,"verified":true}
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cl.h"
#include "bench_time.h"

#define REPS 7

static const char source[] =
	"__kernel void inc(__global uint *p) { p[get_global_id(0)] += 1; }\n";

static void cpu_copies(bool on)
{
	if (on)
		setenv("SLEIPNIR_CL_CPU_COPIES", "1", 1);
	else
		unsetenv("SLEIPNIR_CL_CPU_COPIES");
}

static void inc(struct bench_cl *b, cl_kernel k, cl_mem buf, size_t n)
{
	BENCH_CL(b, clSetKernelArg(k, 0, sizeof(buf), &buf));
	BENCH_CL(b, clEnqueueNDRangeKernel(b->queue, k, 1, NULL, &n, NULL, 0,
					   NULL, NULL));
}

/* One repetition: its time, and the bytes the CPU copied in *copied. */
static uint64_t once(struct bench_cl *b, cl_kernel k, cl_mem a, cl_mem bb,
		     size_t bytes, bool chain, uint64_t *copied)
{
	uint64_t before = bench_cl_bytes_copied(b), t0 = now_ns(), t;

	if (chain)
		inc(b, k, a, bytes / 4);
	BENCH_CL(b, clEnqueueCopyBuffer(b->queue, a, bb, 0, 0, bytes, 0, NULL,
					NULL));
	if (chain)
		inc(b, k, bb, bytes / 4);
	BENCH_CL(b, clFinish(b->queue));
	t = now_ns() - t0;
	*copied = bench_cl_bytes_copied(b) - before;
	return t;
}

static uint64_t median(struct bench_cl *b, cl_kernel k, cl_mem a, cl_mem bb,
		       size_t bytes, bool chain, bool cpu, uint64_t *copied)
{
	uint64_t ns[REPS];

	cpu_copies(cpu);
	for (int i = 0; i < REPS; i++)
		ns[i] = once(b, k, a, bb, bytes, chain, copied);
	cpu_copies(false);
	bench_sort(ns, REPS);
	return bench_pct(ns, REPS, 50);
}

int main(int argc, char **argv)
{
	size_t max = (size_t)(argc > 1 ? atoi(argv[1]) : 4) << 20;
	struct bench_cl b;
	cl_program program;
	cl_kernel k;
	int status = 0;

	bench_cl_init(&b, "cl_bench_copy");
	k = bench_cl_kernel(&b, source, "inc", &program);
	for (size_t bytes = 64 << 10; bytes <= max; bytes *= 4) {
		uint32_t *host = malloc(bytes), *back = malloc(bytes);
		uint64_t gpu_copied, cpu_copied, ignored;
		uint64_t chain_gpu, chain_cpu, copy_gpu, copy_cpu;
		bool ok = host && back;
		cl_int err;
		cl_mem a = clCreateBuffer(b.context, CL_MEM_READ_WRITE, bytes,
					  NULL, &err);
		cl_mem bb = clCreateBuffer(b.context, CL_MEM_READ_WRITE, bytes,
					   NULL, &err);

		if (!ok || !a || !bb) {
			fprintf(stderr, "cl_bench_copy: out of memory\n");
			return 1;
		}
		for (size_t i = 0; i < bytes / 4; i++)
			host[i] = (uint32_t)i;
		BENCH_CL(&b, clEnqueueWriteBuffer(b.queue, a, CL_TRUE, 0, bytes,
						  host, 0, NULL, NULL));
		/* Warm-up, checked: b = a + 2 after one chain. */
		once(&b, k, a, bb, bytes, true, &ignored);
		BENCH_CL(&b, clEnqueueReadBuffer(b.queue, bb, CL_TRUE, 0, bytes,
						 back, 0, NULL, NULL));
		for (size_t i = 0; i < bytes / 4 && ok; i++)
			ok = back[i] == (uint32_t)i + 2;
		chain_gpu = median(&b, k, a, bb, bytes, true, false,
				   &gpu_copied);
		chain_cpu = median(&b, k, a, bb, bytes, true, true,
				   &cpu_copied);
		copy_gpu = median(&b, k, a, bb, bytes, false, false, &ignored);
		copy_cpu = median(&b, k, a, bb, bytes, false, true, &ignored);
		printf("{\"bench\":\"gpu_copy\",\"bytes\":%zu,\"reps\":%d,"
		       "\"chain_gpu_ns\":%llu,\"chain_cpu_ns\":%llu,"
		       "\"copy_gpu_ns\":%llu,\"copy_cpu_ns\":%llu,"
		       "\"gpu_copied\":%llu,\"cpu_copied\":%llu,"
		       "\"verified\":%s}\n",
		       bytes, REPS, (unsigned long long)chain_gpu,
		       (unsigned long long)chain_cpu,
		       (unsigned long long)copy_gpu,
		       (unsigned long long)copy_cpu,
		       (unsigned long long)gpu_copied,
		       (unsigned long long)cpu_copied, ok ? "true" : "false");
		fflush(stdout);
		if (!ok) {
			fprintf(stderr, "cl_bench_copy: %zu bytes: b is not "
				"a + 2\n", bytes);
			status = 1;
		}
		clReleaseMemObject(a);
		clReleaseMemObject(bb);
		free(host);
		free(back);
	}
	clReleaseKernel(k);
	clReleaseProgram(program);
	bench_cl_fini(&b);
	return status;
}
