/* SPDX-License-Identifier: MIT */
/*
 * 64-bit atomics on __local memory: counters per work-group, old values
 * recorded per work-item, final values written by work-item 0..15.
 * Counters 13..15 are compare-exchange loops adding 2^32 + 1, each taken
 * by a third of the group (an address with a variable index).
 */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void atomics64_local(global const long *v, global const long *init,
			    global long *old, global long *final)
{
	local long c[16];
	local ulong *u = (local ulong *)c;
	size_t i = get_global_id(0), l = get_local_id(0);
	size_t g = get_group_id(0);
	long x = v[i], seen, got;
	global long *o = old + 16 * i;
	local long *loop = &c[13 + l % 3];

	if (l < 16)
		c[l] = init[16 * g + l];
	barrier(CLK_LOCAL_MEM_FENCE);
	o[0] = atom_add(&c[0], x);
	o[1] = atom_sub(&c[1], x);
	o[2] = atom_xchg(&c[2], x);
	o[3] = atom_min(&c[3], x);
	o[4] = atom_max(&c[4], x);
	o[5] = atom_and(&c[5], x);
	o[6] = atom_or(&c[6], x);
	o[7] = atom_xor(&c[7], x);
	o[8] = atom_inc(&c[8]);
	o[9] = atom_dec(&c[9]);
	o[10] = (long)atom_min(&u[10], (ulong)x);
	o[11] = (long)atom_max(&u[11], (ulong)x);
	o[12] = atom_cmpxchg(&c[12], init[16 * g + 12], (long)l << 33);
	seen = atom_add(loop, 0L);
	while ((got = atom_cmpxchg(loop, seen, seen + 0x100000001L)) != seen)
		seen = got;
	o[13] = got;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (l < 16)
		final[16 * g + l] = c[l];
}
