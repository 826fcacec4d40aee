/* SPDX-License-Identifier: MIT */
/* Division and remainder of long and ulong. */
kernel void divrem_64(global const long *a, global const long *b,
		      global long *out)
{
	size_t i = get_global_id(0);
	long x = a[i], y = b[i];
	ulong ux = x, uy = y;

	out[5 * i] = x / y;
	out[5 * i + 1] = x % y;
	out[5 * i + 2] = ux / uy;
	out[5 * i + 3] = ux % uy;
	out[5 * i + 4] = x / 1000;
}
