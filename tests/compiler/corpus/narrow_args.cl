/* SPDX-License-Identifier: MIT */
/*
 * char16, short8, uchar16, ushort8, char4, short2, uchar3 and char
 * arguments by value, one char16 past the pushed uniforms (read from the
 * argument buffer).
 */
kernel void narrow_args(char16 c, short8 s, uchar16 uc, ushort8 us,
			char4 c4, short2 s2, uchar3 u3, char x, int16 pad,
			char16 far, global const char16 *a, global char16 *out)
{
	size_t i = get_global_id(0);
	char16 v = a[i];
	global char16 *o = out + 4 * i;

	o[0] = v + c + as_char16(s);
	o[1] = as_char16(as_short8(v) * s + as_short8(us)) ^ as_char16(uc);
	o[2] = (char16)(c4, as_char4(s2), as_char4((uchar4)(u3, 7)), x,
			(char3)(x));
	o[3] = far - v + as_char16(pad.s4567 ^ pad.scdef);
}
