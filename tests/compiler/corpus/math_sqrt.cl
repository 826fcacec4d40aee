/* SPDX-License-Identifier: MIT */
/* sqrt, rsqrt, cbrt and division. */
kernel void math_sqrt(global const float *a, global const float *b,
		      global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];

	out[4 * i] = sqrt(x);
	out[4 * i + 1] = rsqrt(x);
	out[4 * i + 2] = cbrt(x);
	out[4 * i + 3] = x / y;
}
