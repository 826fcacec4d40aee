/* SPDX-License-Identifier: MIT */
/* Code-quality twin: dot product, 16 products per work-item, in floats. */
#pragma OPENCL FP_CONTRACT OFF

kernel void dot_scalar(global const float *a, global const float *b,
		       global float *out)
{
	size_t i = get_global_id(0);
	float sum = 0.0f;

	for (uint k = 0; k < 16; k++)
		sum += a[16 * i + k] * b[16 * i + k];
	out[i] = sum;
}
