/* SPDX-License-Identifier: MIT */
/*
 * Code-quality twin: dot products of 16 floats, as float4 code. Like the
 * other float4 twins a work-item makes four outputs (the scalar twin's
 * rows 4i..4i+3), each from four dot() of float4s.
 */
#pragma OPENCL FP_CONTRACT OFF

kernel void dot_vec4(global const float4 *a, global const float4 *b,
		     global float4 *out)
{
	size_t i = get_global_id(0);
	float4 sum = 0.0f;

	for (uint k = 0; k < 4; k++) {
		sum.x += dot(a[16 * i + k], b[16 * i + k]);
		sum.y += dot(a[16 * i + 4 + k], b[16 * i + 4 + k]);
		sum.z += dot(a[16 * i + 8 + k], b[16 * i + 8 + k]);
		sum.w += dot(a[16 * i + 12 + k], b[16 * i + 12 + k]);
	}
	out[i] = sum;
}
