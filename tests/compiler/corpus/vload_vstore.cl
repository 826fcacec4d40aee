/* SPDX-License-Identifier: MIT */
/* vloadn / vstoren at element-aligned addresses, widths 2, 3, 4 and 8. */
kernel void vload_vstore(global const float *in, global float *out)
{
	size_t i = get_global_id(0);
	float4 a = vload4(i, in + 1);
	float3 b = vload3(i, in);
	float2 c = vload2(2 * i + 1, in);
	global float *o = out + 16 * i;

	vstore4(a, 0, o);
	vstore3(b, 0, o + 4);
	vstore2(c, 0, o + 7);
	vstore3(b.zxy + a.xyz, 3, o);
	vstore4((float4)(c, c.yx), 3, o);
}
