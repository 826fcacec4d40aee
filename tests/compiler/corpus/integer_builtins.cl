/* SPDX-License-Identifier: MIT */
/* The integer built-ins. */
kernel void integer_builtins(global const int *a, global const int *b,
			     global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i];
	short sx = (short)x, sy = (short)y;

	out[16 * i] = abs(x);
	out[16 * i + 1] = abs_diff(x, y);
	out[16 * i + 2] = add_sat(x, y);
	out[16 * i + 3] = sub_sat(x, y);
	out[16 * i + 4] = hadd(x, y);
	out[16 * i + 5] = rhadd(x, y);
	out[16 * i + 6] = rotate(x, y);
	out[16 * i + 7] = clz(x);
	out[16 * i + 8] = popcount(x);
	out[16 * i + 9] = mul_hi(x, y);
	out[16 * i + 10] = mad24(x << 8 >> 8, y << 8 >> 8, x);
	out[16 * i + 11] = min(x, y) + max(x, 0);
	out[16 * i + 12] = clamp(x, -100, (y & 0xFFFF) | 1000);
	out[16 * i + 13] = add_sat(sx, sy);
	out[16 * i + 14] = mad_sat(x, y, 12345);
	out[16 * i + 15] = upsample(sx, (ushort)sy);
}
