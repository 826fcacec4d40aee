/* SPDX-License-Identifier: MIT */
/* Every width of short: 16-, 8-, 4-, 3-, 2-wide vectors and the scalar. */
kernel void types_short(global const short16 *a, global const short16 *b,
		global short16 *out)
{
	size_t i = get_global_id(0);
	short16 x = a[i], y = b[i];
	short8 v8 = x.lo * y.hi;
	short4 v4 = x.s0123 - y.s4567;
	short3 v3 = x.s89a ^ y.sbcd;
	short2 v2 = x.sef & y.s01;
	short s = x.sf | y.s0;

	out[3 * i] = x + y;
	out[3 * i + 1] = (short16)(v8, v4, v3, s);
	out[3 * i + 2] = (short16)(x.even.lo, y.odd.hi, v2, v2.yx, v2 + s,
				v2 - s);
}
