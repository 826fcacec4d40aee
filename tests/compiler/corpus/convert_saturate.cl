/* SPDX-License-Identifier: MIT */
/*
 * Integer narrowing with and without saturation, int to float with the
 * default (to nearest even) and toward-zero rounding, and a vector
 * conversion.
 */
kernel void convert_saturate(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int x = in[i];
	int4 v = convert_int4(convert_short4_sat((int4)(x, -x, x >> 8, x ^ 0x5A5A)));

	out[12 * i] = convert_char_sat(x);
	out[12 * i + 1] = convert_uchar_sat(x);
	out[12 * i + 2] = convert_short_sat(x);
	out[12 * i + 3] = convert_ushort_sat(x);
	out[12 * i + 4] = (int)convert_uint_sat(x);
	out[12 * i + 5] = convert_char(x);
	out[12 * i + 6] = as_int(convert_float(x));
	out[12 * i + 7] = as_int(convert_float_rtz(x));
	vstore4(v, 2, out + 12 * i);
}
