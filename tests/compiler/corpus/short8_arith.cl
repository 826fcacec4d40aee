/* SPDX-License-Identifier: MIT */
/*
 * short8 and ushort8 arithmetic that Midgard does in 16-bit lanes, eight
 * per register: +, -, *, &, |, ^, ~, unary minus, shifts by a constant,
 * by a per-item scalar (a splat) and per lane, min/max signed and
 * unsigned, add_sat/sub_sat at 16 bits.
 */
kernel void short8_arith(global const short8 *a, global const short8 *b,
			 global short8 *out)
{
	size_t i = get_global_id(0);
	short8 x = a[i], y = b[i];
	ushort8 ux = as_ushort8(x), uy = as_ushort8(y);
	short n = (short)(i & 15);

	out[8 * i] = (x + y) * (short)3 - (x ^ y);
	out[8 * i + 1] = (x & y) | ~(x * y) ^ -x;
	out[8 * i + 2] = (x << 3) + (x >> 2) + (y << n);
	out[8 * i + 3] = x >> y;
	out[8 * i + 4] = as_short8((ux >> (ushort)n) + (uy << ux));
	out[8 * i + 5] = max(x, y) - min(x, (short8)(-7));
	out[8 * i + 6] = as_short8(max(ux, uy) ^ min(ux, (ushort8)(9)));
	out[8 * i + 7] = add_sat(x, y) + as_short8(sub_sat(ux, uy)) -
			 sub_sat(x, y) + as_short8(add_sat(ux, uy));
}
