/* SPDX-License-Identifier: MIT */
/*
 * Seed: the local-memory partial-product example. Each work-item puts its
 * product in __local memory; work-item 0 of the group sums them in order
 * and writes the group's partial sum, which the host adds up.
 */
kernel void dot_partial(global const float *a, global const float *b,
			global float *partial, local float *products)
{
	size_t l = get_local_id(0), gid = get_global_id(0);

	products[l] = a[gid] * b[gid];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (l == 0) {
		float sum = 0.0f;

		for (size_t k = 0; k < get_local_size(0); k++)
			sum += products[k];
		partial[get_group_id(0)] = sum;
	}
}
