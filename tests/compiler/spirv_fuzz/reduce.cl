/* SPDX-License-Identifier: MIT */
/* Local-memory reduction with barriers, loops and private arrays. */
__kernel void reduce(__global const int *in, __global int *out,
		     __local int *scratch, __global int *count)
{
	int lid = get_local_id(0), priv[4];
	for (int k = 0; k < 4; k++)
		priv[k] = in[get_global_id(0) * 4 + k];
	scratch[lid] = priv[0] + priv[1] + priv[2] + priv[3];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0) {
		out[get_group_id(0)] = scratch[0];
		atomic_inc(count);
	}
	out[get_num_groups(0) + get_work_dim()] = (int)(sin((float)lid) * 8.0f);
}
