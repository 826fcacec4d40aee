/* SPDX-License-Identifier: MIT */
/* Every width of uchar: 16-, 8-, 4-, 3-, 2-wide vectors and the scalar. */
kernel void types_uchar(global const uchar16 *a, global const uchar16 *b,
		global uchar16 *out)
{
	size_t i = get_global_id(0);
	uchar16 x = a[i], y = b[i];
	uchar8 v8 = x.lo * y.hi;
	uchar4 v4 = x.s0123 - y.s4567;
	uchar3 v3 = x.s89a ^ y.sbcd;
	uchar2 v2 = x.sef & y.s01;
	uchar s = x.sf | y.s0;

	out[3 * i] = x + y;
	out[3 * i + 1] = (uchar16)(v8, v4, v3, s);
	out[3 * i + 2] = (uchar16)(x.even.lo, y.odd.hi, v2, v2.yx, v2 + s,
				v2 - s);
}
