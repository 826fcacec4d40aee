/* SPDX-License-Identifier: MIT */
/*
 * SGEMM (the corpus's sgemm.cl): C = alpha * A * B + beta * C, row-major,
 * A m x k, B k x n, one work-item per element of C, C updated in place.
 */
#include <math.h>
#include <stdlib.h>

#include "sample.h"

#define M 128u
#define N 128u
#define K 32u

int main(void)
{
	struct sample s;
	float *a, *b, *c, *want, *scale;
	const float alpha = 1.5f, beta = -0.75f;
	size_t global[2] = { N, M };
	cl_mem a_buf, b_buf, c_buf;
	cl_uint k_dim = K;
	cl_kernel k;
	bool ok;

	sample_init(&s, "sgemm");
	sample_set_size(&s, "%ux%ux%u", M, N, K);
	a = sample_alloc(&s, M * K * sizeof(float));
	b = sample_alloc(&s, K * N * sizeof(float));
	c = sample_alloc(&s, M * N * sizeof(float));
	want = sample_alloc(&s, M * N * sizeof(float));
	scale = sample_alloc(&s, M * N * sizeof(float));
	for (unsigned int i = 0; i < M * K; i++)
		a[i] = sample_rand_float(-1, 1);
	for (unsigned int i = 0; i < K * N; i++)
		b[i] = sample_rand_float(-1, 1);
	for (unsigned int i = 0; i < M * N; i++)
		c[i] = sample_rand_float(-1, 1);
	for (unsigned int row = 0; row < M; row++) {
		for (unsigned int col = 0; col < N; col++) {
			float acc = 0, mag = 0, old = c[row * N + col];

			for (unsigned int q = 0; q < K; q++) {
				acc += a[row * K + q] * b[q * N + col];
				mag += fabsf(a[row * K + q] * b[q * N + col]);
			}
			want[row * N + col] = alpha * acc + beta * old;
			scale[row * N + col] = fabsf(alpha) * mag +
					       fabsf(beta * old);
		}
	}

	k = sample_kernel(&s, "sgemm.cl", "sgemm");
	a_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			      M * K * sizeof(float), a);
	b_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			      K * N * sizeof(float), b);
	c_buf = sample_buffer(&s, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			      M * N * sizeof(float), c);
	SAMPLE_ARG(&s, k, 0, a_buf);
	SAMPLE_ARG(&s, k, 1, b_buf);
	SAMPLE_ARG(&s, k, 2, c_buf);
	SAMPLE_ARG(&s, k, 3, k_dim);
	SAMPLE_ARG(&s, k, 4, alpha);
	SAMPLE_ARG(&s, k, 5, beta);
	/* No local size: the runtime picks one, as an application may ask. */
	sample_run(&s, k, 2, global, NULL);
	sample_read(&s, c_buf, M * N * sizeof(float), c);

	/* K additions and the final scale-and-add may each round once. */
	ok = sample_check_floats("C", want, c, scale, M * N, (K + 3) * 1.2e-7f);

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
