/* SPDX-License-Identifier: MIT */
/* Every width of ulong: 16-, 8-, 4-, 3-, 2-wide vectors and the scalar. */
kernel void types_ulong(global const ulong16 *a, global const ulong16 *b,
		global ulong16 *out)
{
	size_t i = get_global_id(0);
	ulong16 x = a[i], y = b[i];
	ulong8 v8 = x.lo * y.hi;
	ulong4 v4 = x.s0123 - y.s4567;
	ulong3 v3 = x.s89a ^ y.sbcd;
	ulong2 v2 = x.sef & y.s01;
	ulong s = x.sf | y.s0;

	out[3 * i] = x + y;
	out[3 * i + 1] = (ulong16)(v8, v4, v3, s);
	out[3 * i + 2] = (ulong16)(x.even.lo, y.odd.hi, v2, v2.yx, v2 + s,
				v2 - s);
}
