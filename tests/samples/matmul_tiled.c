/* SPDX-License-Identifier: MIT */
/*
 * Tiled matrix multiply (the corpus's matmul_tiled.cl): C = A * B for
 * square matrices, each 8x8 work-group staging 8x8 tiles of A and B in
 * __local memory between barriers.
 */
#include <math.h>
#include <stdlib.h>

#include "sample.h"

#define N 64u	/* a multiple of the kernel's 8x8 tile */
#define TILE 8u

int main(void)
{
	struct sample s;
	float *a, *b, *c, *want, *scale;
	size_t global[2] = { N, N }, local[2] = { TILE, TILE };
	cl_mem a_buf, b_buf, c_buf;
	cl_uint n = N;
	cl_kernel k;
	bool ok;

	sample_init(&s, "matmul_tiled");
	sample_set_size(&s, "%ux%u", N, N);
	a = sample_alloc(&s, N * N * sizeof(float));
	b = sample_alloc(&s, N * N * sizeof(float));
	c = sample_alloc(&s, N * N * sizeof(float));
	want = sample_alloc(&s, N * N * sizeof(float));
	scale = sample_alloc(&s, N * N * sizeof(float));
	for (unsigned int i = 0; i < N * N; i++) {
		a[i] = sample_rand_float(-1, 1);
		b[i] = sample_rand_float(-1, 1);
	}
	for (unsigned int row = 0; row < N; row++) {
		for (unsigned int col = 0; col < N; col++) {
			float acc = 0, mag = 0;

			for (unsigned int q = 0; q < N; q++) {
				acc += a[row * N + q] * b[q * N + col];
				mag += fabsf(a[row * N + q] * b[q * N + col]);
			}
			want[row * N + col] = acc;
			scale[row * N + col] = mag;
		}
	}

	k = sample_kernel(&s, "matmul_tiled.cl", "matmul_tiled");
	sample_need_group_size(&s, k, TILE * TILE);
	a_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			      N * N * sizeof(float), a);
	b_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			      N * N * sizeof(float), b);
	c_buf = sample_buffer(&s, CL_MEM_WRITE_ONLY, N * N * sizeof(float),
			      NULL);
	SAMPLE_ARG(&s, k, 0, a_buf);
	SAMPLE_ARG(&s, k, 1, b_buf);
	SAMPLE_ARG(&s, k, 2, c_buf);
	SAMPLE_ARG(&s, k, 3, n);
	sample_run(&s, k, 2, global, local);
	sample_read(&s, c_buf, N * N * sizeof(float), c);

	/*
	 * The kernel adds in the reference's order without contraction; the
	 * tolerance still allows every one of the N additions a rounding.
	 */
	ok = sample_check_floats("C", want, c, scale, N * N, N * 1.2e-7f);

	clReleaseMemObject(a_buf);
	clReleaseMemObject(b_buf);
	clReleaseMemObject(c_buf);
	clReleaseKernel(k);
	free(a);
	free(b);
	free(c);
	free(want);
	free(scale);
	return sample_finish(&s, ok);
}
