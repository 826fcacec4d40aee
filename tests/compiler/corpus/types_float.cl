/* SPDX-License-Identifier: MIT */
/* Every width of float: 16-, 8-, 4-, 3-, 2-wide vectors and the scalar. */
kernel void types_float(global const float16 *a, global const float16 *b,
			global float16 *out)
{
	size_t i = get_global_id(0);
	float16 x = a[i], y = b[i];
	float8 v8 = x.lo * y.hi;
	float4 v4 = x.s0123 - y.s4567;
	float3 v3 = x.s89a + y.sbcd;
	float2 v2 = x.sef * y.s01;
	float s = x.sf - y.s0;

	out[3 * i] = x + y;
	out[3 * i + 1] = (float16)(v8, v4, v3, s);
	out[3 * i + 2] = (float16)(x.even.lo, y.odd.hi, v2, v2.yx, v2 + s,
				   v2 - s);
}
