/* SPDX-License-Identifier: MIT */
/* Code-quality twin: dot product, 16 products per work-item, in float4s. */
#pragma OPENCL FP_CONTRACT OFF

kernel void dot_vec4(global const float4 *a, global const float4 *b,
		     global float *out)
{
	size_t i = get_global_id(0);
	float4 sum = 0.0f;

	for (uint k = 0; k < 4; k++)
		sum += a[4 * i + k] * b[4 * i + k];
	out[i] = sum.x + sum.y + sum.z + sum.w;
}
