/* SPDX-License-Identifier: MIT */
/*
 * Code-quality twin: 3x3 convolution, one output per work-item. The input
 * has a one-pixel border: it is (w + 2) x (h + 2) for a w x h output.
 */
#pragma OPENCL FP_CONTRACT OFF

kernel void conv3x3_scalar(global const float *in, constant float *k,
			   global float *out)
{
	size_t x = get_global_id(0), y = get_global_id(1);
	size_t w = get_global_size(0), stride = w + 2;
	global const float *p = in + y * stride + x;
	float acc = 0.0f;

	for (uint r = 0; r < 3; r++)
		acc += k[3 * r] * p[r * stride] +
		       k[3 * r + 1] * p[r * stride + 1] +
		       k[3 * r + 2] * p[r * stride + 2];
	out[y * w + x] = acc;
}
