/* SPDX-License-Identifier: MIT */
/*
 * Bitwise operators and shifts (the count taken modulo the width, as
 * OpenCL C says), arithmetic and logical right shifts.
 */
kernel void operators_bitwise(global const uint *a, global const uint *b,
			      global uint *out)
{
	size_t i = get_global_id(0);
	uint x = a[i], y = b[i], z = x;

	out[8 * i] = x & y;
	out[8 * i + 1] = x | y;
	out[8 * i + 2] = x ^ y;
	out[8 * i + 3] = ~x;
	out[8 * i + 4] = x << y;
	out[8 * i + 5] = x >> y;
	out[8 * i + 6] = (uint)((int)x >> y);
	z &= y | 0xF0F0F0F0u;
	z |= 0x0F;
	z ^= x >> 3;
	z <<= 2;
	z >>= 1;
	out[8 * i + 7] = z;
}
