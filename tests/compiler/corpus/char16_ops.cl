/* SPDX-License-Identifier: MIT */
/*
 * char16 and uchar16 in 8-bit lanes, sixteen per register: +, -, *, &,
 * |, ^, ~, unary minus, shifts (by a constant, a splat of a per-item
 * scalar, per lane), min/max, add_sat/sub_sat at 8 bits, comparisons to
 * -1 / 0 masks, select(), bitselect() and the ternary operator.
 */
kernel void char16_ops(global const char16 *a, global const char16 *b,
		       global char16 *out)
{
	size_t i = get_global_id(0);
	char16 x = a[i], y = b[i];
	uchar16 ux = as_uchar16(x), uy = as_uchar16(y);
	char n = (char)(i & 7);
	char16 lt = x < y, uge = ux >= uy;

	out[8 * i] = (x + y) * (char)3 - (x ^ y) + ~x - -y;
	out[8 * i + 1] = (x << 2) + (x >> n) + (y << x);
	out[8 * i + 2] = as_char16((ux >> (uchar)3) ^ (uy >> ux) ^
				   (uchar16)((uchar)(i * 37)));
	out[8 * i + 3] = max(x, y) - min(x, (char16)(-5)) +
			 as_char16(max(ux, uy) & min(ux, (uchar16)(200)));
	out[8 * i + 4] = add_sat(x, y) ^ sub_sat(x, y) ^
			 as_char16(add_sat(ux, uy) - sub_sat(ux, uy));
	out[8 * i + 5] = lt + (x == y) * (char)2 + uge + (x != y);
	out[8 * i + 6] = select(x, y, lt) ^ bitselect(x, y, (char16)(0x3C));
	out[8 * i + 7] = x <= y ? x * y : (char16)(7) - x;
}
