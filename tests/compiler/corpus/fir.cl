/* SPDX-License-Identifier: MIT */
/* Seed: an FIR filter, taps in a __constant argument. */
#pragma OPENCL FP_CONTRACT OFF

kernel void fir(global const float *in, constant float *taps,
		global float *out, uint num_taps)
{
	size_t i = get_global_id(0);
	float acc = 0.0f;

	for (uint k = 0; k < num_taps; k++)
		acc += taps[k] * in[i + k];
	out[i] = acc;
}
