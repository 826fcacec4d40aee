/* SPDX-License-Identifier: MIT */
/* Every width of char: 16-, 8-, 4-, 3-, 2-wide vectors and the scalar. */
kernel void types_char(global const char16 *a, global const char16 *b,
		global char16 *out)
{
	size_t i = get_global_id(0);
	char16 x = a[i], y = b[i];
	char8 v8 = x.lo * y.hi;
	char4 v4 = x.s0123 - y.s4567;
	char3 v3 = x.s89a ^ y.sbcd;
	char2 v2 = x.sef & y.s01;
	char s = x.sf | y.s0;

	out[3 * i] = x + y;
	out[3 * i + 1] = (char16)(v8, v4, v3, s);
	out[3 * i + 2] = (char16)(x.even.lo, y.odd.hi, v2, v2.yx, v2 + s,
				v2 - s);
}
