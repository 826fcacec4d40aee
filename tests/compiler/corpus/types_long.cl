/* SPDX-License-Identifier: MIT */
/* Every width of long: 16-, 8-, 4-, 3-, 2-wide vectors and the scalar. */
kernel void types_long(global const long16 *a, global const long16 *b,
		global long16 *out)
{
	size_t i = get_global_id(0);
	long16 x = a[i], y = b[i];
	long8 v8 = x.lo * y.hi;
	long4 v4 = x.s0123 - y.s4567;
	long3 v3 = x.s89a ^ y.sbcd;
	long2 v2 = x.sef & y.s01;
	long s = x.sf | y.s0;

	out[3 * i] = x + y;
	out[3 * i + 1] = (long16)(v8, v4, v3, s);
	out[3 * i + 2] = (long16)(x.even.lo, y.odd.hi, v2, v2.yx, v2 + s,
				v2 - s);
}
