/* SPDX-License-Identifier: MIT */
/* The logarithms. */
kernel void math_log(global const float *in, global float *out)
{
	size_t i = get_global_id(0);
	float x = in[i];

	out[4 * i] = log(x);
	out[4 * i + 1] = log2(x);
	out[4 * i + 2] = log10(x);
	out[4 * i + 3] = log1p(x);
}
