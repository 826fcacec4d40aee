/* SPDX-License-Identifier: MIT */
/* The exponentials. */
kernel void math_exp(global const float *in, global float *out)
{
	size_t i = get_global_id(0);
	float x = in[i];

	out[4 * i] = exp(x);
	out[4 * i + 1] = exp2(x);
	out[4 * i + 2] = exp10(x);
	out[4 * i + 3] = expm1(x);
}
