/* SPDX-License-Identifier: MIT */
/*
 * An FIR filter (the corpus's fir.cl): 16 taps in a __constant buffer over
 * a signal of 16K samples, one output per work-item.
 */
#include <math.h>
#include <stdlib.h>

#include "sample.h"

#define N 16384u	/* outputs */
#define TAPS 16u

int main(void)
{
	struct sample s;
	float *in, taps[TAPS], *out, *want, *scale;
	size_t global = N;
	cl_mem in_buf, taps_buf, out_buf;
	cl_uint num_taps = TAPS;
	cl_kernel k;
	bool ok;

	sample_init(&s, "fir");
	sample_set_size(&s, "%ux%u", N, TAPS);
	in = sample_alloc(&s, (N + TAPS - 1) * sizeof(float));
	out = sample_alloc(&s, N * sizeof(float));
	want = sample_alloc(&s, N * sizeof(float));
	scale = sample_alloc(&s, N * sizeof(float));
	for (unsigned int i = 0; i < N + TAPS - 1; i++)
		in[i] = sample_rand_float(-1, 1);
	for (unsigned int t = 0; t < TAPS; t++)
		taps[t] = sample_rand_float(-0.25f, 0.25f);
	for (unsigned int i = 0; i < N; i++) {
		float acc = 0, mag = 0;

		for (unsigned int t = 0; t < TAPS; t++) {
			acc += taps[t] * in[i + t];
			mag += fabsf(taps[t] * in[i + t]);
		}
		want[i] = acc;
		scale[i] = mag;
	}

	k = sample_kernel(&s, "fir.cl", "fir");
	in_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			       (N + TAPS - 1) * sizeof(float), in);
	taps_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				 sizeof(taps), taps);
	out_buf = sample_buffer(&s, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL);
	SAMPLE_ARG(&s, k, 0, in_buf);
	SAMPLE_ARG(&s, k, 1, taps_buf);
	SAMPLE_ARG(&s, k, 2, out_buf);
	SAMPLE_ARG(&s, k, 3, num_taps);
	/* No local size: the runtime picks one. */
	sample_run(&s, k, 1, &global, NULL);
	sample_read(&s, out_buf, N * sizeof(float), out);

	/* Same order, no contraction; each addition may still round once. */
	ok = sample_check_floats("output", want, out, scale, N,
				 TAPS * 1.2e-7f);

	clReleaseMemObject(in_buf);
	clReleaseMemObject(taps_buf);
	clReleaseMemObject(out_buf);
	clReleaseKernel(k);
	free(in);
	free(out);
	free(want);
	free(scale);
	return sample_finish(&s, ok);
}
