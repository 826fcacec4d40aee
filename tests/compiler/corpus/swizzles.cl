/* SPDX-License-Identifier: MIT */
/* Swizzles: .xyzw, .s0123, .lo/.hi/.even/.odd, reads and partial writes. */
kernel void swizzles(global const float8 *in, global float8 *out)
{
	size_t i = get_global_id(0);
	float8 v = in[i], o;
	float4 a = v.lo, b = v.hi, r = a.wzyx;

	r.xz = b.s31;
	o.lo = r;
	o.hi = (float4)(v.even.s2, v.odd.lo.y, a.xx.y, b.wzyx.s1);
	o.s6 = v.s7 + v.s0;
	out[2 * i] = o;
	out[2 * i + 1] = (float8)(v.odd, v.even.wzyx);
}
