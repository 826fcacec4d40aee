/* SPDX-License-Identifier: MIT */
/* 64-bit integers: add, sub, mul, mul_hi, shifts, comparisons. */
kernel void long_ops(global const long *a, global const long *b,
		     global long *out)
{
	size_t i = get_global_id(0);
	long x = a[i], y = b[i];
	ulong ux = x, uy = y;

	out[8 * i] = x + y;
	out[8 * i + 1] = x - y;
	out[8 * i + 2] = x * y;
	out[8 * i + 3] = x << y;
	out[8 * i + 4] = x >> y;
	out[8 * i + 5] = ux >> (uy & 63);
	out[8 * i + 6] = (x < y) + 2 * (ux < uy) + 4 * (x == y) + 8 * (x >= 0);
	out[8 * i + 7] = mul_hi(ux, uy);
}
