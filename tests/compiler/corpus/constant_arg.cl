/* SPDX-License-Identifier: MIT */
/* A __constant pointer argument read at data-dependent indices. */
kernel void constant_arg(constant int *lut, global const uint *index,
			 global int *out)
{
	size_t i = get_global_id(0);
	uint k = index[i];

	out[i] = lut[k & 255] - lut[(k >> 8) & 255];
}
