/* SPDX-License-Identifier: MIT */
/*
 * Seed: 4096 elements summed in 8 groups of 512 (256 work-items adding two
 * each), then a tree reduction in __local memory with barriers.
 */
kernel void sum_reduction(global const uint *in, global uint *out)
{
	local uint part[256];
	size_t l = get_local_id(0), base = get_group_id(0) * 512;

	part[l] = in[base + l] + in[base + 256 + l];
	for (uint stride = 128; stride > 0; stride >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (l < stride)
			part[l] += part[l + stride];
	}
	if (l == 0)
		out[get_group_id(0)] = part[0];
}
