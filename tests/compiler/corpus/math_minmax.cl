/* SPDX-License-Identifier: MIT */
/* fmin, fmax, clamp, mix, mad, fma, sign and step. */
kernel void math_minmax(global const float *a, global const float *b,
			global const float *c, global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i], t = c[i];

	out[8 * i] = fmin(x, y);
	out[8 * i + 1] = fmax(x, y);
	out[8 * i + 2] = clamp(x, -fabs(y), fabs(y));
	out[8 * i + 3] = mix(x, y, t);
	out[8 * i + 4] = mad(x, y, t);
	out[8 * i + 5] = fma(x, y, t);
	out[8 * i + 6] = sign(x);
	out[8 * i + 7] = step(y, x);
}
