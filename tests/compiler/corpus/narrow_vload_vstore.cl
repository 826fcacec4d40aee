/* SPDX-License-Identifier: MIT */
/*
 * vload16/vstore16 of chars and vload8/vstore8 of shorts at addresses
 * aligned to one element only, and vload_half8/vstore_half8.
 */
kernel void narrow_vload_vstore(global const char *a, global const short *b,
				global const half *h, global char *out)
{
	size_t i = get_global_id(0);
	char16 x = vload16(0, a + 17 * i + 1);
	short8 y = vload8(0, b + 9 * i + 1);
	uchar16 u = vload16(0, (global const uchar *)a + 17 * i);
	float8 f = vload_half8(i, h);
	global char *o = out + 96 * i;

	vstore16(x + (char16)(1), 0, o + 1);
	vstore8(y * (short8)(2), 0, (global short *)(o + 18));
	vstore_half8(f * 2.0f, 0, (global half *)(o + 34));
	vstore16(as_char16(u >> (uchar)1), 0, o + 50);
	vstore8(as_short8(x) - y, 0, (global short *)(o + 68));
}
