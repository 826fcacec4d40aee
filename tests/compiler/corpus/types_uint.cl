/* SPDX-License-Identifier: MIT */
/* Every width of uint: 16-, 8-, 4-, 3-, 2-wide vectors and the scalar. */
kernel void types_uint(global const uint16 *a, global const uint16 *b,
		global uint16 *out)
{
	size_t i = get_global_id(0);
	uint16 x = a[i], y = b[i];
	uint8 v8 = x.lo * y.hi;
	uint4 v4 = x.s0123 - y.s4567;
	uint3 v3 = x.s89a ^ y.sbcd;
	uint2 v2 = x.sef & y.s01;
	uint s = x.sf | y.s0;

	out[3 * i] = x + y;
	out[3 * i + 1] = (uint16)(v8, v4, v3, s);
	out[3 * i + 2] = (uint16)(x.even.lo, y.odd.hi, v2, v2.yx, v2 + s,
				v2 - s);
}
