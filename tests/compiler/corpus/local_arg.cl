/* SPDX-License-Identifier: MIT */
/* __local memory passed as a kernel argument, beside a static one. */
kernel void local_arg(global const uint *in, global uint *out,
		      local uint *tile)
{
	local uint sums[2];
	size_t l = get_local_id(0), n = get_local_size(0);

	if (l < 2)
		sums[l] = 0;
	tile[l] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (l == 0)
		for (size_t k = 0; k < n; k++)
			sums[k & 1] += tile[k];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = tile[n - 1 - l] * 3u + sums[l & 1];
}
