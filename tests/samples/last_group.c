/* SPDX-License-Identifier: MIT */
/*
 * The atom_inc last-group reduction (the corpus's last_group.cl): every
 * work-group reduces its 64 integers in __local memory and stores its
 * partial; the group whose atom_inc of the global counter returns
 * groups - 1 is the last to finish and sums all partials on the GPU, so
 * the host reads one number.
 */
#include <stdio.h>

#include "sample.h"

#define N 4096u
#define LOCAL 64u
#define GROUPS (N / LOCAL)

int main(void)
{
	struct sample s;
	uint32_t in[N], partial[GROUPS], want[GROUPS] = { 0 };
	uint32_t counter = 0, result = 0, want_total = 0, groups = GROUPS;
	size_t global = N, local = LOCAL;
	cl_mem in_buf, partial_buf, counter_buf, result_buf;
	cl_kernel k;
	bool ok;

	sample_init(&s, "last_group");
	sample_set_size(&s, "%u", N);
	for (unsigned int i = 0; i < N; i++) {
		in[i] = sample_rand() & 0xFFFFF;
		want[i / LOCAL] += in[i];
		want_total += in[i];
	}

	k = sample_kernel(&s, "last_group.cl", "last_group");
	sample_need_group_size(&s, k, LOCAL);
	in_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			       sizeof(in), in);
	partial_buf = sample_buffer(&s, CL_MEM_READ_WRITE, sizeof(partial),
				    NULL);
	counter_buf = sample_buffer(&s, CL_MEM_READ_WRITE |
				    CL_MEM_COPY_HOST_PTR, sizeof(counter),
				    &counter);
	result_buf = sample_buffer(&s, CL_MEM_WRITE_ONLY, sizeof(result), NULL);
	SAMPLE_ARG(&s, k, 0, in_buf);
	SAMPLE_ARG(&s, k, 1, partial_buf);
	SAMPLE_ARG(&s, k, 2, counter_buf);
	SAMPLE_ARG(&s, k, 3, result_buf);
	sample_run(&s, k, 1, &global, &local);
	sample_read(&s, result_buf, sizeof(result), &result);
	sample_read(&s, partial_buf, sizeof(partial), partial);
	sample_read(&s, counter_buf, sizeof(counter), &counter);

	ok = sample_check_uints("total", &want_total, &result, 1);
	ok &= sample_check_uints("group sums", want, partial, GROUPS);
	ok &= sample_check_uints("groups counted", &groups, &counter, 1);
	printf("last_group: sum = %u over %u groups\n", result, counter);

	clReleaseMemObject(in_buf);
	clReleaseMemObject(partial_buf);
	clReleaseMemObject(counter_buf);
	clReleaseMemObject(result_buf);
	clReleaseKernel(k);
	return sample_finish(&s, ok);
}
