/* SPDX-License-Identifier: MIT */
/* The correctly rounded functions: rounding to integers, fabs, copysign, fmod. */
kernel void math_rounding(global const float *a, global const float *b,
			  global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];

	out[8 * i] = floor(x);
	out[8 * i + 1] = ceil(x);
	out[8 * i + 2] = trunc(x);
	out[8 * i + 3] = round(x);
	out[8 * i + 4] = rint(x);
	out[8 * i + 5] = fabs(x);
	out[8 * i + 6] = copysign(x, y);
	out[8 * i + 7] = fmod(x, y);
}
