/* SPDX-License-Identifier: MIT */
/*
 * Sample (tests/samples/double_reduction.c): doubles summed by groups;
 * each work-item adds four elements a group-size apart, then a tree in
 * the __local argument with barriers; one partial per group.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void reduce_double(global const double *in, global double *out,
			  local double *part)
{
	size_t l = get_local_id(0), n = get_local_size(0);
	size_t base = get_group_id(0) * n * 4;
	double s = in[base + l];

	for (size_t k = 1; k < 4; k++)
		s += in[base + k * n + l];
	part[l] = s;
	for (size_t stride = n / 2; stride > 0; stride >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (l < stride)
			part[l] += part[l + stride];
	}
	if (l == 0)
		out[get_group_id(0)] = part[0];
}
