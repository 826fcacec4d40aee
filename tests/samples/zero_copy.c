/* SPDX-License-Identifier: MIT */
/*
 * Zero-copy data sharing, the point of a GPU that shares the CPU's memory:
 * SAXPY (the corpus's saxpy_vec4.cl) twice, on buffers the CPU and GPU both
 * use in place, and the runtime must copy 0 bytes (its own count, the
 * Sleipnir ICD's CL_DEVICE_SLEIPNIR_BYTES_COPIED):
 *  - CL_MEM_ALLOC_HOST_PTR: the runtime allocates; the host writes the
 *    inputs through clEnqueueMapBuffer and reads the result through a map;
 *  - CL_MEM_USE_HOST_PTR on page-aligned memory from posix_memalign: the
 *    GPU works on the application's own pages, and mapping the result
 *    gives back the application's pointer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sample.h"

#define N (1u << 18)	/* floats: 1 MiB per buffer */
#define BYTES (N * sizeof(float))

static const float alpha = 2.5f;

static void *map(struct sample *s, cl_mem buf, cl_map_flags flags)
{
	cl_int err;
	void *p = clEnqueueMapBuffer(s->queue, buf, CL_TRUE, flags, 0, BYTES,
				     0, NULL, NULL, &err);

	sample_cl(s, err, "clEnqueueMapBuffer");
	return p;
}

static void unmap(struct sample *s, cl_mem buf, void *p)
{
	SAMPLE_CL(s, clEnqueueUnmapMemObject(s->queue, buf, p, 0, NULL, NULL));
}

static void fill_inputs(float *x, float *y)
{
	for (unsigned int i = 0; i < N; i++) {
		x[i] = sample_rand_float(-10, 10);
		y[i] = sample_rand_float(-10, 10);
	}
}

/*
 * alpha * x + y as the kernel computes it, a product then a sum (it turns
 * contraction off): each rounds once the IEEE way, so the result is exact.
 */
static bool check_saxpy(const char *what, const float *x, const float *y,
			const float *out)
{
	size_t bad = 0;

	for (unsigned int i = 0; i < N; i++) {
		float want = alpha * x[i] + y[i];

		if (out[i] != want && bad++ < 8)
			printf("  %s: element %u: expected %.9g got %.9g\n",
			       what, i, (double)want, (double)out[i]);
	}
	if (bad)
		printf("  %s: %zu of %u elements wrong\n", what, bad, N);
	return !bad;
}

static void run_saxpy(struct sample *s, cl_kernel k, cl_mem x, cl_mem y,
		      cl_mem out)
{
	size_t global = N / 4;

	SAMPLE_ARG(s, k, 0, alpha);
	SAMPLE_ARG(s, k, 1, x);
	SAMPLE_ARG(s, k, 2, y);
	SAMPLE_ARG(s, k, 3, out);
	sample_run(s, k, 1, &global, NULL);
}

/* The runtime's buffers, reached through maps. */
static bool alloc_host_ptr(struct sample *s, cl_kernel k)
{
	cl_mem_flags flags = CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR;
	cl_mem x = sample_buffer(s, flags, BYTES, NULL);
	cl_mem y = sample_buffer(s, flags, BYTES, NULL);
	cl_mem out = sample_buffer(s, flags, BYTES, NULL);
	float *xp = map(s, x, CL_MAP_WRITE_INVALIDATE_REGION);
	float *yp = map(s, y, CL_MAP_WRITE_INVALIDATE_REGION);
	float *outp;
	bool ok;

	fill_inputs(xp, yp);
	unmap(s, x, xp);
	unmap(s, y, yp);
	run_saxpy(s, k, x, y, out);
	xp = map(s, x, CL_MAP_READ);
	yp = map(s, y, CL_MAP_READ);
	outp = map(s, out, CL_MAP_READ);
	ok = check_saxpy("ALLOC_HOST_PTR", xp, yp, outp);
	unmap(s, x, xp);
	unmap(s, y, yp);
	unmap(s, out, outp);
	SAMPLE_CL(s, clFinish(s->queue));
	clReleaseMemObject(x);
	clReleaseMemObject(y);
	clReleaseMemObject(out);
	return ok;
}

static float *page_aligned(struct sample *s)
{
	void *p = NULL;

	if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), BYTES)) {
		printf("%s: posix_memalign failed\n", s->name);
		sample_fail(s);
	}
	return p;
}

/* The application's pages, used in place by the GPU. */
static bool use_host_ptr(struct sample *s, cl_kernel k)
{
	cl_mem_flags flags = CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR;
	float *xp = page_aligned(s), *yp = page_aligned(s);
	float *outp = page_aligned(s), *mapped;
	cl_mem x, y, out;
	bool ok;

	/* Written before the buffers exist, as the specification allows. */
	fill_inputs(xp, yp);
	x = sample_buffer(s, flags, BYTES, xp);
	y = sample_buffer(s, flags, BYTES, yp);
	out = sample_buffer(s, flags, BYTES, outp);
	run_saxpy(s, k, x, y, out);
	mapped = map(s, out, CL_MAP_READ);
	ok = check_saxpy("USE_HOST_PTR", xp, yp, mapped);
	if (mapped != outp) {
		printf("  USE_HOST_PTR: the map returned %p, not the "
		       "application's %p\n", (void *)mapped, (void *)outp);
		ok = false;
	}
	unmap(s, out, mapped);
	SAMPLE_CL(s, clFinish(s->queue));
	clReleaseMemObject(x);
	clReleaseMemObject(y);
	clReleaseMemObject(out);
	free(xp);
	free(yp);
	free(outp);
	return ok;
}

int main(void)
{
	struct sample s;
	int64_t copied;
	cl_kernel k;
	bool ok;

	sample_init(&s, "zero_copy");
	sample_set_size(&s, "2x3x%uKiB", (unsigned int)(BYTES / 1024));
	k = sample_kernel(&s, "saxpy_vec4.cl", "saxpy_vec4");
	ok = alloc_host_ptr(&s, k);
	ok &= use_host_ptr(&s, k);

	copied = sample_bytes_copied(&s);
	if (copied < 0 || s.copied_at_start < 0) {
		printf("zero_copy: the runtime does not report the bytes it "
		       "copied\n");
		ok = false;
	} else if (copied != s.copied_at_start) {
		printf("zero_copy: the runtime copied %lld bytes\n",
		       (long long)(copied - s.copied_at_start));
		ok = false;
	}
	clReleaseKernel(k);
	return sample_finish(&s, ok);
}
