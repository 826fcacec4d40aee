// SPDX-License-Identifier: MIT
// Every 32-bit atomic function of OpenCL 1.2 section 6.12.11 and its
// atom_* twin of cl_khr_{global,local}_int32_{base,extended}_atomics, on
// int and uint, in global and in local memory, and float atomic_xchg.
// Group g works on its counters c[NC * g + k]; work-item i applies
// operation k with v[i] and records the old value in old[NC * i + k].
// The local kernels copy the counters in, and the final values back out.
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable

#define NC 22

#define OPS(T, p, x, o, i)                                                  \
	o[0] = atomic_add(&p[0], x);                                        \
	o[1] = atomic_sub(&p[1], x);                                        \
	o[2] = atomic_xchg(&p[2], x);                                       \
	o[3] = atomic_inc(&p[3]);                                           \
	o[4] = atomic_dec(&p[4]);                                           \
	o[5] = atomic_cmpxchg(&p[5], (T)5, (T)(i) + 1000);                         \
	o[6] = atomic_min(&p[6], x);                                        \
	o[7] = atomic_max(&p[7], x);                                        \
	o[8] = atomic_and(&p[8], x);                                        \
	o[9] = atomic_or(&p[9], x);                                         \
	o[10] = atomic_xor(&p[10], x);                                      \
	o[11] = atom_add(&p[11], x);                                        \
	o[12] = atom_sub(&p[12], x);                                        \
	o[13] = atom_xchg(&p[13], x);                                       \
	o[14] = atom_inc(&p[14]);                                           \
	o[15] = atom_dec(&p[15]);                                           \
	o[16] = atom_cmpxchg(&p[16], (T)16, (T)(i) + 1000);                        \
	o[17] = atom_min(&p[17], x);                                        \
	o[18] = atom_max(&p[18], x);                                        \
	o[19] = atom_and(&p[19], x);                                        \
	o[20] = atom_or(&p[20], x);                                         \
	o[21] = atom_xor(&p[21], x);

#define ATOMICS(T)                                                          \
kernel void atomics_global_##T(volatile global T *c, global const T *v,    \
			       global T *old)                               \
{                                                                           \
	uint i = get_global_id(0), l = get_local_id(0);                     \
	volatile global T *p = c + NC * get_group_id(0);                    \
	T x = v[i];                                                         \
	global T *o = old + NC * i;                                         \
	OPS(T, p, x, o, l)                                                  \
}                                                                           \
kernel void atomics_local_##T(global T *c, global const T *v,              \
			      global T *old)                                \
{                                                                           \
	local T p[NC];                                                      \
	uint i = get_global_id(0), l = get_local_id(0);                     \
	global T *g = c + NC * get_group_id(0);                             \
	T x = v[i];                                                         \
	global T *o = old + NC * i;                                         \
	if (l < NC)                                                         \
		p[l] = g[l];                                                \
	barrier(CLK_LOCAL_MEM_FENCE);                                       \
	OPS(T, p, x, o, l)                                                  \
	barrier(CLK_LOCAL_MEM_FENCE);                                       \
	if (l < NC)                                                         \
		g[l] = p[l];                                                \
}

ATOMICS(int)
ATOMICS(uint)

// float atomic_xchg: c[2g] in global memory, then a local counter
// starting at c[2g + 1]; both finals written back.
kernel void atomics_xchg_float(volatile global float *c,
			       global const float *v, global float *old)
{
	local float p;
	uint i = get_global_id(0), g = get_group_id(0);

	old[2 * i] = atomic_xchg(&c[2 * g], v[i]);
	if (get_local_id(0) == 0)
		p = c[2 * g + 1];
	barrier(CLK_LOCAL_MEM_FENCE);
	old[2 * i + 1] = atomic_xchg(&p, -v[i]);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (get_local_id(0) == 0)
		c[2 * g + 1] = p;
}
