/* SPDX-License-Identifier: MIT */
/*
 * A double-precision sum reduction (the corpus's reduce_double.cl, with
 * cl_khr_fp64): 16,384 doubles in 16 work-groups of 256 work-items, each
 * adding four, then a __local tree; the host adds the 16 partials. The
 * partials must equal the CPU's sums in the kernel's order bit for bit
 * (IEEE double adds), and the total must be within 2^-40 of the exact sum
 * (long double) relative to the sum of the magnitudes: the data mixes
 * terms around 10^8 with small ones, so a float reduction would miss it
 * by far.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sample.h"

#define N 16384u
#define LOCAL 256u
#define GROUPS (N / (4 * LOCAL))

/* The kernel's order: per work-item, then the tree. */
static double group_sum(const double *in, unsigned int g)
{
	double part[LOCAL];

	for (unsigned int l = 0; l < LOCAL; l++) {
		const double *p = in + g * 4 * LOCAL + l;
		double s = p[0];

		for (unsigned int k = 1; k < 4; k++)
			s += p[k * LOCAL];
		part[l] = s;
	}
	for (unsigned int stride = LOCAL / 2; stride > 0; stride >>= 1)
		for (unsigned int l = 0; l < stride; l++)
			part[l] += part[l + stride];
	return part[0];
}

static bool has_fp64(struct sample *s)
{
	char ext[4096];

	sample_cl(s, clGetDeviceInfo(s->device, CL_DEVICE_EXTENSIONS,
				     sizeof(ext), ext, NULL),
		  "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)");
	return strstr(ext, "cl_khr_fp64") != NULL;
}

int main(void)
{
	struct sample s;
	static double in[N];
	double partial[GROUPS], want[GROUPS], total = 0.0;
	long double exact = 0.0L, magnitude = 0.0L;
	size_t global = GROUPS * LOCAL, local = LOCAL;
	cl_mem in_buf, out_buf;
	cl_kernel k;
	bool ok = true;

	sample_init(&s, "double_reduction");
	sample_set_size(&s, "%u", N);
	if (!has_fp64(&s)) {
		printf("double_reduction: the device has no cl_khr_fp64\n");
		sample_fail(&s);
	}
	for (unsigned int i = 0; i < N; i++) {
		double big = (double)(sample_rand() % 2000u) * 1e5;
		double small = ((double)sample_rand() / 4294967296.0 - 0.5) *
			       1e-3;

		in[i] = i % 3 ? small : (i & 1 ? big : -big);
		exact += in[i];
		magnitude += fabsl(in[i]);
	}
	for (unsigned int g = 0; g < GROUPS; g++)
		want[g] = group_sum(in, g);

	k = sample_kernel(&s, "reduce_double.cl", "reduce_double");
	sample_need_group_size(&s, k, LOCAL);
	in_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			       sizeof(in), in);
	out_buf = sample_buffer(&s, CL_MEM_WRITE_ONLY, sizeof(partial), NULL);
	SAMPLE_ARG(&s, k, 0, in_buf);
	SAMPLE_ARG(&s, k, 1, out_buf);
	sample_cl(&s, clSetKernelArg(k, 2, LOCAL * sizeof(double), NULL),
		  "clSetKernelArg(2, local)");
	sample_run(&s, k, 1, &global, &local);
	sample_read(&s, out_buf, sizeof(partial), partial);

	for (unsigned int g = 0; g < GROUPS; g++) {
		if (memcmp(&partial[g], &want[g], sizeof(double))) {
			printf("double_reduction: group %u: %.17g, want "
			       "%.17g\n", g, partial[g], want[g]);
			ok = false;
		}
		total += partial[g];
	}
	if (fabsl((long double)total - exact) > ldexpl(magnitude, -40)) {
		printf("double_reduction: total %.17g, exact %.21Lg\n", total,
		       exact);
		ok = false;
	}
	printf("double_reduction: sum = %.17g\n", total);

	clReleaseMemObject(in_buf);
	clReleaseMemObject(out_buf);
	clReleaseKernel(k);
	return sample_finish(&s, ok);
}
