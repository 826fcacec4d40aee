/* SPDX-License-Identifier: MIT */
/*
 * Feature: scalar code on vector lanes. The first and third results are
 * the same operation in every lane (packed into vector ops by the SLP
 * pass), the second differs per lane (stays scalar).
 */
#pragma OPENCL FP_CONTRACT OFF

kernel void slp_lanes(global const float4 *a, global const int4 *b,
		      global float4 *out)
{
	size_t i = get_global_id(0);
	float4 v = a[i];
	int4 w = b[i];
	float s = v.w;

	out[3 * i] = (float4)(v.y * s + 1.0f, v.x * s + -2.0f,
			      v.w * s + 0.5f, v.z * s + 3.0f);
	out[3 * i + 1] = (float4)(v.x + v.y, v.y - v.z, v.z * v.w,
				  fmin(v.w, v.x));
	out[3 * i + 2] = as_float4((int4)((w.x * 3 + w.y) ^ 1,
					  (w.y * 3 + w.z) ^ 2,
					  (w.z * 3 + w.w) ^ 3,
					  (w.w * 3 + w.x) ^ 4));
}
