/* SPDX-License-Identifier: MIT */
/* Code-quality twin: vector add, a float4 per work-item. */
kernel void vadd_vec4(global const float4 *a, global const float4 *b,
		      global float4 *out)
{
	size_t i = get_global_id(0);

	out[i] = a[i] + b[i];
}
