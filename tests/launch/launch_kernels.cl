// SPDX-License-Identifier: MIT
// Kernels that exercise sl_launch's side of the launch ABI: by-value and
// pointer arguments, sysvals (global id and offset, local and group ids,
// local size), a __local argument with barriers, and __constant data. The
// host test (tests/launch/test_launch.c) runs them on the model core and
// the guest test (tests/guest/sl_launch_guest.c) through sleipnir.ko; both
// check them against C references. Values stay small integers so float
// sums are exact whatever the order.

// c[i] = a[i] + b[i] * s
kernel void vadd(global const float *a, global const float *b,
		 global float *c, float s)
{
	size_t i = get_global_id(0);

	c[i] = a[i] + b[i] * s;
}

// Each work-group sums its part of in into out[group], in __local memory.
kernel void group_sum(global const float *in, global float *out,
		      local float *tmp)
{
	size_t l = get_local_id(0);

	tmp[l] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (l < s)
			tmp[l] += tmp[l + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l == 0)
		out[get_group_id(0)] = tmp[0];
}

constant int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

// x[i - offset] = table[i % 8] * k + i, over a range with a global offset
kernel void lookup(global int *x, int k)
{
	size_t i = get_global_id(0);

	x[i - get_global_offset(0)] = table[i % 8] * k + (int)i;
}
