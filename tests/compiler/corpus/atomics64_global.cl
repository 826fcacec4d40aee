/* SPDX-License-Identifier: MIT */
/*
 * 64-bit atomics on global memory (cl_khr_int64_base_atomics and
 * cl_khr_int64_extended_atomics): every work-item applies each operation
 * to the same counter and records the old value it got. Counters 11 and
 * 12 are compare-exchange loops adding 2^32 + 1, taken by the even and
 * the odd work-items (an address with a variable index).
 */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void atomics64_global(volatile global long *c,
			     volatile global ulong *u, global const long *v,
			     global long *old)
{
	size_t i = get_global_id(0);
	long x = v[i], seen, got;
	global long *o = old + 16 * i;
	volatile global long *loop = c + 11 + (i & 1);

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
	o[10] = atom_cmpxchg(&c[10], 0L, (long)i + 0x100000001L);
	o[11] = (long)atom_min(&u[0], (ulong)x);
	o[12] = (long)atom_max(&u[1], (ulong)x);
	seen = atom_add(loop, 0L);
	while ((got = atom_cmpxchg(loop, seen, seen + 0x100000001L)) != seen)
		seen = got;
	o[13] = got;
}
