/* SPDX-License-Identifier: MIT */
/*
 * The partial-product __local example (the corpus's dot_partial.cl): each
 * work-group puts its products in __local memory (an argument sized by the
 * host), its first work-item sums them into the group's partial, and the
 * host adds the partials up into the dot product.
 */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#include "sample.h"

#define N (1u << 16)
#define LOCAL 64u
#define GROUPS (N / LOCAL)

int main(void)
{
	struct sample s;
	float *a, *b, *partial, *want, *scale;
	cl_mem a_buf, b_buf, partial_buf;
	size_t global = N, local = LOCAL;
	double total = 0, exact = 0, magnitude = 0;
	cl_kernel k;
	bool ok;

	sample_init(&s, "dot_partial");
	sample_set_size(&s, "%u", N);
	a = sample_alloc(&s, N * sizeof(float));
	b = sample_alloc(&s, N * sizeof(float));
	partial = sample_alloc(&s, GROUPS * sizeof(float));
	want = sample_alloc(&s, GROUPS * sizeof(float));
	scale = sample_alloc(&s, GROUPS * sizeof(float));
	for (unsigned int i = 0; i < N; i++) {
		a[i] = sample_rand_float(-1, 1);
		b[i] = sample_rand_float(-1, 1);
	}
	/* The kernel's order: products summed from local id 0 up. */
	for (unsigned int g = 0; g < GROUPS; g++) {
		for (unsigned int l = 0; l < LOCAL; l++) {
			float p = a[g * LOCAL + l] * b[g * LOCAL + l];

			want[g] += p;
			scale[g] += fabsf(p);
			exact += (double)a[g * LOCAL + l] * b[g * LOCAL + l];
			magnitude += fabsf(p);
		}
	}

	k = sample_kernel(&s, "dot_partial.cl", "dot_partial");
	sample_need_group_size(&s, k, LOCAL);
	a_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			      N * sizeof(float), a);
	b_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			      N * sizeof(float), b);
	partial_buf = sample_buffer(&s, CL_MEM_WRITE_ONLY,
				    GROUPS * sizeof(float), NULL);
	SAMPLE_ARG(&s, k, 0, a_buf);
	SAMPLE_ARG(&s, k, 1, b_buf);
	SAMPLE_ARG(&s, k, 2, partial_buf);
	SAMPLE_CL(&s, clSetKernelArg(k, 3, LOCAL * sizeof(float), NULL));
	sample_run(&s, k, 1, &global, &local);
	sample_read(&s, partial_buf, GROUPS * sizeof(float), partial);

	/*
	 * Same order of additions as the reference, so the partials should
	 * match exactly; the tolerance allows each of the 64 additions one
	 * rounding, should the GPU contract or reassociate.
	 */
	ok = sample_check_floats("partial sums", want, partial, scale, GROUPS,
				 LOCAL * 1.2e-7f);
	for (unsigned int g = 0; g < GROUPS; g++)
		total += partial[g];
	if (!(fabs(total - exact) <= 1e-5 * magnitude)) {
		printf("  dot product: %.9g, exact %.9g\n", total, exact);
		ok = false;
	}
	printf("dot_partial: a.b = %.6f (exact %.6f)\n", total, exact);

	clReleaseMemObject(a_buf);
	clReleaseMemObject(b_buf);
	clReleaseMemObject(partial_buf);
	clReleaseKernel(k);
	free(a);
	free(b);
	free(partial);
	free(want);
	free(scale);
	return sample_finish(&s, ok);
}
