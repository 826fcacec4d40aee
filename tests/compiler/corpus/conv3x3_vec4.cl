/* SPDX-License-Identifier: MIT */
/*
 * Code-quality twin: 3x3 convolution, four outputs per work-item in a
 * float4. Same input layout as conv3x3_scalar.
 */
#pragma OPENCL FP_CONTRACT OFF

kernel void conv3x3_vec4(global const float *in, constant float *k,
			 global float4 *out)
{
	size_t x = 4 * get_global_id(0), y = get_global_id(1);
	size_t w = 4 * get_global_size(0), stride = w + 2;
	global const float *p = in + y * stride + x;
	float4 acc = 0.0f;

	for (uint r = 0; r < 3; r++)
		acc += k[3 * r] * vload4(0, p + r * stride) +
		       k[3 * r + 1] * vload4(0, p + r * stride + 1) +
		       k[3 * r + 2] * vload4(0, p + r * stride + 2);
	out[(y * w + x) / 4] = acc;
}
