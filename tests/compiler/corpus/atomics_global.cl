/* SPDX-License-Identifier: MIT */
/*
 * 32-bit atomics on global memory: every work-item applies each operation
 * to its own counter and records the old value it got.
 */
kernel void atomics_global(volatile global int *c, global const int *v,
			   global int *old)
{
	size_t i = get_global_id(0);
	int x = v[i], seen, got;
	global int *o = old + 12 * i;

	o[0] = atomic_add(&c[0], x);
	o[1] = atomic_sub(&c[1], x);
	o[2] = atomic_xchg(&c[2], x);
	o[3] = atomic_min(&c[3], x);
	o[4] = atomic_max(&c[4], x);
	o[5] = atomic_and(&c[5], x);
	o[6] = atomic_or(&c[6], x);
	o[7] = atomic_xor(&c[7], x);
	o[8] = atomic_inc(&c[8]);
	o[9] = atomic_dec(&c[9]);
	o[10] = atomic_cmpxchg(&c[10], 0, (int)i + 1);
	seen = atomic_add(&c[11], 0);
	while ((got = atomic_cmpxchg(&c[11], seen, seen + 2)) != seen)
		seen = got;
	o[11] = got;
}
