/* SPDX-License-Identifier: MIT */
/* sin, cos and tan, also on a float4. */
kernel void math_trig(global const float4 *in, global float4 *out)
{
	size_t i = get_global_id(0);
	float4 x = in[i];

	out[3 * i] = sin(x);
	out[3 * i + 1] = cos(x);
	out[3 * i + 2] = tan(x);
}
