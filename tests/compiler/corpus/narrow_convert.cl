/* SPDX-License-Identifier: MIT */
/*
 * Conversions between int8, short8/16, char8/16 and long8: truncating,
 * saturating (signed and unsigned), sign- and zero-extending.
 */
kernel void narrow_convert(global const int8 *a, global const short16 *b,
			   global char16 *out)
{
	size_t i = get_global_id(0);
	int8 x = a[i];
	short16 s = b[i];
	global char16 *o = out + 16 * i;

	o[0] = as_char16(convert_short8(x));
	o[1] = as_char16(convert_short8_sat(x));
	o[2] = (char16)(as_char8(convert_uchar8_sat(x)), convert_char8_sat(x));
	o[3] = as_char16(convert_ushort8_sat(x));
	o[4] = as_char16(convert_int8(s.lo).lo);
	o[5] = as_char16(convert_int8(s.lo).hi);
	o[6] = as_char16(convert_uint8(as_ushort8(s.hi)).lo);
	o[7] = as_char16(convert_uint8(as_ushort8(s.hi)).hi);
	o[8] = convert_char16(s);
	o[9] = convert_char16_sat(s);
	o[10] = as_char16(convert_uchar16_sat(convert_char16(s)));
	o[11] = as_char16(convert_uchar16_sat(as_ushort16(s)));
	vstore16(as_char16(convert_long8(convert_char8(s.lo)).s01), 0,
		 (global char *)(o + 12));
	o[13] = as_char16(convert_long8(convert_char8(s.lo)).s23);
	o[14] = as_char16(convert_long8(convert_char8(s.lo)).s45);
	o[15] = as_char16(convert_long8(convert_char8(s.lo)).s67);
}
