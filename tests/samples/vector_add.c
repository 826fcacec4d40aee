/* SPDX-License-Identifier: MIT */
/*
 * Vector add, a float4 per work-item (the corpus's vadd_vec4.cl): inputs
 * copied in at buffer creation, the sum read back, checked against the CPU.
 */
#include <stdlib.h>

#include "sample.h"

#define N (1u << 18)	/* floats: 65,536 work-items of a float4 */

int main(void)
{
	struct sample s;
	float *a, *b, *out, *want;
	cl_mem a_buf, b_buf, out_buf;
	size_t global = N / 4;
	cl_kernel k;
	bool ok;

	sample_init(&s, "vector_add");
	sample_set_size(&s, "%ux4", N / 4);
	a = sample_alloc(&s, N * sizeof(float));
	b = sample_alloc(&s, N * sizeof(float));
	out = sample_alloc(&s, N * sizeof(float));
	want = sample_alloc(&s, N * sizeof(float));
	for (unsigned int i = 0; i < N; i++) {
		a[i] = sample_rand_float(-100, 100);
		b[i] = sample_rand_float(-100, 100);
		want[i] = a[i] + b[i];
	}

	k = sample_kernel(&s, "vadd_vec4.cl", "vadd_vec4");
	a_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			      N * sizeof(float), a);
	b_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			      N * sizeof(float), b);
	out_buf = sample_buffer(&s, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL);
	SAMPLE_ARG(&s, k, 0, a_buf);
	SAMPLE_ARG(&s, k, 1, b_buf);
	SAMPLE_ARG(&s, k, 2, out_buf);
	sample_run(&s, k, 1, &global, NULL);
	sample_read(&s, out_buf, N * sizeof(float), out);

	/* One IEEE add per element: the GPU's must round the same way. */
	ok = sample_check_floats("vector_add", want, out, NULL, N, 0.0f);

	clReleaseMemObject(a_buf);
	clReleaseMemObject(b_buf);
	clReleaseMemObject(out_buf);
	clReleaseKernel(k);
	free(a);
	free(b);
	free(out);
	free(want);
	return sample_finish(&s, ok);
}
