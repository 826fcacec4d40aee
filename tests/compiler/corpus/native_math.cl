/* SPDX-License-Identifier: MIT */
/* native_* functions (implementation-defined accuracy). */
kernel void native_math(global const float *a, global const float *b,
			global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];

	out[8 * i] = native_sqrt(x);
	out[8 * i + 1] = native_rsqrt(x);
	out[8 * i + 2] = native_exp(y);
	out[8 * i + 3] = native_log(x);
	out[8 * i + 4] = native_sin(y);
	out[8 * i + 5] = native_cos(y);
	out[8 * i + 6] = native_recip(x);
	out[8 * i + 7] = native_divide(y, x);
}
