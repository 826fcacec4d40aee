/* SPDX-License-Identifier: MIT */
/* Every width of int: 16-, 8-, 4-, 3-, 2-wide vectors and the scalar. */
kernel void types_int(global const int16 *a, global const int16 *b,
		global int16 *out)
{
	size_t i = get_global_id(0);
	int16 x = a[i], y = b[i];
	int8 v8 = x.lo * y.hi;
	int4 v4 = x.s0123 - y.s4567;
	int3 v3 = x.s89a ^ y.sbcd;
	int2 v2 = x.sef & y.s01;
	int s = x.sf | y.s0;

	out[3 * i] = x + y;
	out[3 * i + 1] = (int16)(v8, v4, v3, s);
	out[3 * i + 2] = (int16)(x.even.lo, y.odd.hi, v2, v2.yx, v2 + s,
				v2 - s);
}
