/* SPDX-License-Identifier: MIT */
/* Reinterpretation with as_type between same-sized scalars and vectors. */
kernel void as_type(global const uint4 *in, global uint4 *out)
{
	size_t i = get_global_id(0);
	uint4 v = in[i];
	uchar16 bytes = as_uchar16(v);
	short8 halves = as_short8(v);

	out[3 * i] = as_uint4(as_float4(v) * 2.0f);
	out[3 * i + 1] = as_uint4(bytes.s32107654ba98fedc);
	out[3 * i + 2] = as_uint4(halves + (short8)(1, 2, 3, 4, -1, -2, -3, -4));
}
