/* SPDX-License-Identifier: MIT */
/*
 * float to integer conversions: the default (toward zero), the explicit
 * rounding modes and saturation (NaN to 0, out of range clamped).
 */
kernel void convert_rounding(global const float *in, global int *out)
{
	size_t i = get_global_id(0);
	float f = in[i];
	float g = fabs(f) < 2.0e9f ? f : 0.5f;

	out[8 * i] = convert_int(g);
	out[8 * i + 1] = convert_int_rte(g);
	out[8 * i + 2] = convert_int_rtp(g);
	out[8 * i + 3] = convert_int_rtn(g);
	out[8 * i + 4] = convert_int_sat(f);
	out[8 * i + 5] = convert_uchar_sat(f);
	out[8 * i + 6] = convert_short_sat_rte(f);
	out[8 * i + 7] = (int)convert_uint_sat(f);
}
