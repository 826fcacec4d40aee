/* SPDX-License-Identifier: MIT */
/* Division and remainder of char and uchar vectors. */
kernel void divrem_8(global const char4 *a, global const char4 *b,
		global char4 *out)
{
	size_t i = get_global_id(0);
	char4 x = a[i], y = b[i];

	out[4 * i] = x / y;
	out[4 * i + 1] = x % y;
	out[4 * i + 2] = as_char4(as_uchar4(x) / as_uchar4(y));
	out[4 * i + 3] = as_char4(as_uchar4(x) % as_uchar4(y));
}
