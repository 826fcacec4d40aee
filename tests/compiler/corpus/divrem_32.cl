/* SPDX-License-Identifier: MIT */
/* Division and remainder of int and uint, by variables and by constants. */
kernel void divrem_32(global const int *a, global const int *b,
		      global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i];
	uint ux = x, uy = y;

	out[6 * i] = x / y;
	out[6 * i + 1] = x % y;
	out[6 * i + 2] = ux / uy;
	out[6 * i + 3] = ux % uy;
	out[6 * i + 4] = x / 7;
	out[6 * i + 5] = ux % 10u;
}
