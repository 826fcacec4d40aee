/* SPDX-License-Identifier: MIT */
/*
 * The 4096-int sum reduction (the corpus's sum_reduction.cl): 8 work-groups
 * of 256 work-items each reduce 512 integers in __local memory with
 * barriers between the steps of the tree; the host adds the 8 partials.
 */
#include <stdio.h>

#include "sample.h"

#define N 4096u
#define GROUPS 8u
#define LOCAL 256u	/* each work-item adds two of its group's 512 */

int main(void)
{
	struct sample s;
	uint32_t in[N], partial[GROUPS], want[GROUPS] = { 0 };
	uint32_t total = 0, want_total = 0;
	size_t global = GROUPS * LOCAL, local = LOCAL;
	cl_mem in_buf, out_buf;
	cl_kernel k;
	bool ok;

	sample_init(&s, "sum_reduction");
	sample_set_size(&s, "%u", N);
	for (unsigned int i = 0; i < N; i++) {
		in[i] = sample_rand() & 0xFFFFFF;
		want[i / (N / GROUPS)] += in[i];
		want_total += in[i];
	}

	k = sample_kernel(&s, "sum_reduction.cl", "sum_reduction");
	sample_need_group_size(&s, k, LOCAL);
	in_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			       sizeof(in), in);
	out_buf = sample_buffer(&s, CL_MEM_WRITE_ONLY, sizeof(partial), NULL);
	SAMPLE_ARG(&s, k, 0, in_buf);
	SAMPLE_ARG(&s, k, 1, out_buf);
	sample_run(&s, k, 1, &global, &local);
	sample_read(&s, out_buf, sizeof(partial), partial);

	ok = sample_check_uints("group sums", want, partial, GROUPS);
	for (unsigned int g = 0; g < GROUPS; g++)
		total += partial[g];
	ok &= sample_check_uints("total", &want_total, &total, 1);
	printf("sum_reduction: sum = %u\n", total);

	clReleaseMemObject(in_buf);
	clReleaseMemObject(out_buf);
	clReleaseKernel(k);
	return sample_finish(&s, ok);
}
