/* SPDX-License-Identifier: MIT */
/*
 * Rounds of neighbour exchange through __local memory, separated by
 * barriers, and the memory fences.
 */
kernel void barrier_mem_fence(global const uint *in, global uint *out)
{
	local uint buf[2][64];
	size_t l = get_local_id(0);

	buf[0][l] = in[get_global_id(0)];
	for (uint round = 0; round < 4; round++) {
		uint cur = round & 1;

		barrier(CLK_LOCAL_MEM_FENCE);
		buf[cur ^ 1][l] = buf[cur][(l + 1) % 64] * 3u + round;
	}
	barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
	mem_fence(CLK_LOCAL_MEM_FENCE);
	read_mem_fence(CLK_GLOBAL_MEM_FENCE);
	out[get_global_id(0)] = buf[0][l];
	write_mem_fence(CLK_GLOBAL_MEM_FENCE);
}
