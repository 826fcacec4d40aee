/* SPDX-License-Identifier: MIT */
/* Every width of ushort: 16-, 8-, 4-, 3-, 2-wide vectors and the scalar. */
kernel void types_ushort(global const ushort16 *a, global const ushort16 *b,
		global ushort16 *out)
{
	size_t i = get_global_id(0);
	ushort16 x = a[i], y = b[i];
	ushort8 v8 = x.lo * y.hi;
	ushort4 v4 = x.s0123 - y.s4567;
	ushort3 v3 = x.s89a ^ y.sbcd;
	ushort2 v2 = x.sef & y.s01;
	ushort s = x.sf | y.s0;

	out[3 * i] = x + y;
	out[3 * i + 1] = (ushort16)(v8, v4, v3, s);
	out[3 * i + 2] = (ushort16)(x.even.lo, y.odd.hi, v2, v2.yx, v2 + s,
				v2 - s);
}
