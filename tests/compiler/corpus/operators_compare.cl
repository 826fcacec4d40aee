/* SPDX-License-Identifier: MIT */
/*
 * Comparisons (scalar: 0/1, vector: 0/-1), logical operators and the
 * ternary operator, on ints and floats (NaN compares unordered).
 */
kernel void operators_compare(global const int2 *a, global const float2 *b,
			      global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i].x, y = a[i].y;
	float f = b[i].x, g = b[i].y;
	int4 v = (int4)(x, y, x, y) < (int4)(y, x, 0, 1);

	out[16 * i] = x == y;
	out[16 * i + 1] = x != y;
	out[16 * i + 2] = x < y;
	out[16 * i + 3] = x >= y;
	out[16 * i + 4] = (uint)x > (uint)y;
	out[16 * i + 5] = f < g;
	out[16 * i + 6] = f == g;
	out[16 * i + 7] = f != g;
	out[16 * i + 8] = !x;
	out[16 * i + 9] = (x > 0 && y > 0) + 2 * (x > 0 || f >= g);
	out[16 * i + 10] = x > y ? x - y : y;
	out[16 * i + 11] = f <= g ? 7 : -7;
	vstore4(v, 3, out + 16 * i);
}
