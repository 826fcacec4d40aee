/* SPDX-License-Identifier: MIT */
/* Division and remainder of short and ushort vectors. */
kernel void divrem_16(global const short4 *a, global const short4 *b,
		global short4 *out)
{
	size_t i = get_global_id(0);
	short4 x = a[i], y = b[i];

	out[4 * i] = x / y;
	out[4 * i + 1] = x % y;
	out[4 * i + 2] = as_short4(as_ushort4(x) / as_ushort4(y));
	out[4 * i + 3] = as_short4(as_ushort4(x) % as_ushort4(y));
}
