/* SPDX-License-Identifier: MIT */
/* Arithmetic operators, ++/-- and compound assignment on int. */
kernel void operators_arith(global const int *a, global const int *b,
			    global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i], z = x, w = y;
	int post, pre;

	out[8 * i] = x + y;
	out[8 * i + 1] = x - y;
	out[8 * i + 2] = x * y;
	out[8 * i + 3] = x / y;
	out[8 * i + 4] = x % y;
	out[8 * i + 5] = -x;
	z += y;
	z *= 3;
	z -= x;
	z++;
	++z;
	z--;
	z /= 2;
	z %= 1000;
	out[8 * i + 6] = z;
	post = w++;
	pre = --w;
	w--;
	out[8 * i + 7] = post + 3 * pre + 5 * w;
}
