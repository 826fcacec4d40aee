/* SPDX-License-Identifier: MIT */
/*
 * Two kernels of one program with 20 KiB of __local arrays each: 40 KiB
 * together, above the device's 32 KiB, but a kernel's work-group memory
 * is only the __local variables declared in it (OpenCL 1.2 6.5.2), so
 * each launches. The second one's two arrays must not overlap, and a
 * helper reaches the arrays through a pointer.
 */
#define N 5120 /* ints: 20 KiB */

void fill(local uint *t, uint n, uint mul, uint add)
{
	for (uint i = get_local_id(0); i < n; i += get_local_size(0))
		t[i] = i * mul + add;
}

/* Every work-item reads the whole array, so every byte is checked. */
uint sum_strided(local const uint *t, uint n, uint from)
{
	uint s = 0;

	for (uint i = 0; i < n; i++)
		s += t[(i + from) % n] * (i + 1);
	return s;
}

kernel void local_per_kernel(global uint *out)
{
	local uint a[N];

	fill(a, N, 3, get_group_id(0));
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = sum_strided(a, N, get_local_id(0));
}

kernel void local_per_kernel_b(global uint *out)
{
	local uint b1[N / 2], b2[N / 2];

	fill(b1, N / 2, 5, get_group_id(0));
	fill(b2, N / 2, 7, 1000 + get_group_id(0));
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = sum_strided(b1, N / 2, get_local_id(0)) ^
				sum_strided(b2, N / 2, 2 * get_local_id(0));
}
