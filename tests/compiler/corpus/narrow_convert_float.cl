/* SPDX-License-Identifier: MIT */
/*
 * Float conversions of char16, uchar16, short8/16 and ushort8, both ways:
 * truncating, saturating in every rounding mode, and exact int to float.
 */
kernel void narrow_convert_float(global const float16 *a,
				 global const short16 *b, global char16 *out)
{
	size_t i = get_global_id(0);
	float16 f = a[i];
	short16 s = b[i];
	float16 fs = convert_float16(s);
	global char16 *o = out + 13 * i;

	o[0] = convert_char16(fs * 0.003f);
	o[1] = convert_char16_sat(f);
	o[2] = as_char16(convert_uchar16_sat_rte(f));
	o[3] = as_char16(convert_short8_sat_rtp(f.lo));
	o[4] = as_char16(convert_ushort8_sat_rtn(f.hi));
	o[5] = as_char16(convert_short16(fs * 0.5f).lo);
	o[6] = as_char16(convert_short16(fs * 0.5f).hi);
	o[7] = as_char16(convert_float16(as_char16(s.lo)).s0123);
	o[8] = as_char16(convert_float16(as_char16(s.lo)).s4567);
	o[9] = as_char16(convert_float16(as_char16(s.lo)).s89ab);
	o[10] = as_char16(convert_float16(as_char16(s.lo)).scdef);
	o[11] = as_char16(convert_float8(as_ushort8(s.hi)).lo);
	o[12] = as_char16(convert_float8(as_ushort8(s.hi)).hi);
}
