/* SPDX-License-Identifier: MIT */
/*
 * Seed: the atom_inc last-group reduction. Each group reduces its part in
 * __local memory and writes the partial sum; the group whose atom_inc on
 * the global counter comes last adds all partial sums.
 */
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable

kernel void last_group(global const uint *in, global uint *partial,
		       volatile global uint *counter, global uint *result)
{
	local uint part[64];
	local uint is_last;
	size_t l = get_local_id(0), g = get_group_id(0);

	part[l] = in[get_global_id(0)];
	for (uint stride = 32; stride > 0; stride >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (l < stride)
			part[l] += part[l + stride];
	}
	if (l == 0) {
		partial[g] = part[0];
		mem_fence(CLK_GLOBAL_MEM_FENCE);
		is_last = atom_inc(counter) == get_num_groups(0) - 1;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	if (is_last && l == 0) {
		uint total = 0;

		for (uint k = 0; k < get_num_groups(0); k++)
			total += partial[k];
		result[0] = total;
	}
}
