/* SPDX-License-Identifier: MIT */
/* A static __local array shared by the work-group. */
kernel void local_static(global const uint *in, global uint *out)
{
	local uint tile[64];
	size_t l = get_local_id(0), n = get_local_size(0);

	tile[l] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = tile[n - 1 - l] + tile[(l + 1) % n];
}
