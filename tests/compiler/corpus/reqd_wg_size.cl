/* SPDX-License-Identifier: MIT */
/* A kernel that declares its work-group size: 128, through __local memory. */
kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void reqd_wg_size(global const uint *in, global uint *out)
{
	local uint tile[128];
	size_t l = get_local_id(0);

	tile[l] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = tile[127 - l] - tile[l] + (uint)get_local_size(0);
}
