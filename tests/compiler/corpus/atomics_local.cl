/* SPDX-License-Identifier: MIT */
/*
 * 32-bit atomics on __local memory: counters per work-group, old values
 * recorded per work-item, final values written by work-item 0.
 */
kernel void atomics_local(global const int *v, global int *old,
			  global int *final)
{
	local int c[8];
	size_t i = get_global_id(0), l = get_local_id(0);
	int x = v[i];
	global int *o = old + 8 * i;

	if (l < 8)
		c[l] = (int)(get_group_id(0) * 1000 + l);
	barrier(CLK_LOCAL_MEM_FENCE);
	o[0] = atomic_add(&c[0], x);
	o[1] = atomic_sub(&c[1], x);
	o[2] = atomic_xchg(&c[2], x);
	o[3] = atomic_min(&c[3], x);
	o[4] = atomic_max(&c[4], x);
	o[5] = atomic_or(&c[5], x);
	o[6] = atomic_inc(&c[6]);
	o[7] = atomic_cmpxchg(&c[7], (int)(get_group_id(0) * 1000 + 7),
			      (int)l);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (l < 8)
		final[8 * get_group_id(0) + l] = c[l];
}
