/* SPDX-License-Identifier: MIT */
/* Code-quality twin: SAXPY, a float4 per work-item. */
#pragma OPENCL FP_CONTRACT OFF

kernel void saxpy_vec4(float alpha, global const float4 *x,
		       global const float4 *y, global float4 *out)
{
	size_t i = get_global_id(0);

	out[i] = alpha * x[i] + y[i];
}
