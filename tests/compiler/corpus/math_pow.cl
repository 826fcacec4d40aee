/* SPDX-License-Identifier: MIT */
/* pow, powr, pown and hypot. */
kernel void math_pow(global const float *a, global const float *b,
		     global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];

	out[4 * i] = pow(x, y);
	out[4 * i + 1] = powr(fabs(x), y);
	out[4 * i + 2] = pown(x, (int)y);
	out[4 * i + 3] = hypot(x, y);
}
