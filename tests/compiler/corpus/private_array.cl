/* SPDX-License-Identifier: MIT */
/* A private array indexed with values known only at run time. */
kernel void private_array(global const uint *in, global uint *out)
{
	size_t i = get_global_id(0);
	uint x = in[i];
	uint arr[16];

	for (uint k = 0; k < 16; k++)
		arr[k] = x * k + (x >> k);
	for (uint k = 0; k < 16; k++)
		arr[(k * 7 + x) & 15] += arr[k];
	out[i] = arr[x & 15] ^ arr[(x >> 4) & 15];
}
