/* SPDX-License-Identifier: MIT */
/*
 * short8 comparisons (masks of -1 / 0 per lane, signed and unsigned),
 * the ternary operator, select() on the masks' top bits, bitselect() and
 * logic on masks, all in 16-bit lanes; a scalar condition choosing
 * between a vector constant and a value, plus a splat of one lane of a
 * short4.
 */
kernel void short8_select(global const short8 *a, global const short8 *b,
			  global short8 *out)
{
	size_t i = get_global_id(0);
	short8 x = a[i], y = b[i];
	ushort8 ux = as_ushort8(x), uy = as_ushort8(y);
	short8 lt = x < y, le = x <= y, eq = x == y;
	short8 ult = ux < uy, uge = ux >= uy;
	short4 q = (short4)((short)i) * (short4)(1, 3, 7, 11);

	out[9 * i] = lt;
	out[9 * i + 1] = le ^ (x != y) ^ (x > y);
	out[9 * i + 2] = ult + (short8)(ux > uy) * (short)2 + uge;
	out[9 * i + 3] = select(x, y, lt);
	out[9 * i + 4] = select(y, x, x) + select(x, (short8)(5), eq);
	out[9 * i + 5] = x < y ? x - y : y * x;
	out[9 * i + 6] = bitselect(x, y, (short8)(0x0FF0)) ^ bitselect(y, x, ult);
	out[9 * i + 7] = (lt & (y >= (short8)(0))) | (eq & !uge) |
			 (x >= y && x > (short8)(3));
	out[9 * i + 8] = ((i & 1) ? (short8)(1, -2, 3, -4, 5, -6, 7, -8) : x) +
			 (short8)(q.z);
}
