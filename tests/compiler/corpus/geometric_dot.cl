/* SPDX-License-Identifier: MIT */
/* Feature: dot() on float4, float3, float2 and float (fdot4, fdot3, fmul). */

kernel void geometric_dot(global const float4 *a, global const float4 *b,
			  global float4 *out)
{
	size_t i = get_global_id(0);
	float4 x = a[i], y = b[i];

	out[i] = (float4)(dot(x, y), dot(x.xyz, y.xyz), dot(x.xy, y.xy),
			  dot(x.w, y.w));
}
