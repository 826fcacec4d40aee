/* SPDX-License-Identifier: MIT */
/*
 * as_type between char16/uchar16/short8/ushort8/short16/char8 and int4,
 * float4, long2, int8, short4: the bytes survive each way, with
 * arithmetic in the narrow lanes in between.
 */
kernel void narrow_as_type(global const uint4 *a, global const short16 *b,
			   global char16 *out)
{
	size_t i = get_global_id(0);
	uint4 v = a[i];
	short16 s = b[i];
	char16 step = (char16)(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
			       15, 16);
	global char16 *o = out + 12 * i;
	short16 t = as_short16(as_int8(s) + 1);

	o[0] = as_char16(as_int4(as_char16(v) + step));
	o[1] = as_char16(as_float4(as_short8(v) ^ (short8)(0x1234)));
	o[2] = as_char16(convert_float4(as_int4(s.lo) & 0xFFFF));
	o[3] = as_char16(as_long2(s.hi) + 1);
	o[4] = as_char16(as_long2(as_char16(v) * (char16)(3)));
	o[5] = as_char16(as_short8(as_char16(v).s02468ace13579bdf));
	o[6] = as_char16(s.lo) ^ as_char16(s.hi);
	o[7] = as_char16(t.lo);
	o[8] = as_char16(t.hi);
	o[9] = (char16)(as_char8(as_short4(v.xy) - (short4)(7)),
			as_char8(as_uint2(v.zw) >> 3));
	o[10] = as_char16(as_ushort8(as_uchar16(v) >> (uchar)1));
	o[11] = as_char16(as_ushort8(s.lo) + as_ushort8(s.hi));
}
