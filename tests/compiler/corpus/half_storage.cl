/* SPDX-License-Identifier: MIT */
/* half as storage: vload_half*, vstore_half* with their rounding modes. */
kernel void half_storage(global const half *in, global half *out)
{
	size_t i = get_global_id(0);
	float4 v = vload_half4(i, in);

	vstore_half4(v * 2.0f, 3 * i, out);
	vstore_half4_rtz(v * 3.0f, 3 * i + 1, out);
	vstore_half(vload_half(4 * i, in) - 1.0f, 12 * i + 8, out);
	vstore_half_rtp(vload_half(4 * i + 1, in) / 16.0f, 12 * i + 9, out);
	vstore_half2(vload_half2(2 * i + 1, in), 6 * i + 5, out);
}
