/* SPDX-License-Identifier: MIT */
/*
 * Seed: C = A * B for n x n matrices (n a multiple of 8) with 8x8 tiles of
 * A and B staged in __local memory.
 */
#pragma OPENCL FP_CONTRACT OFF
#define TILE 8

kernel void matmul_tiled(global const float *a, global const float *b,
			 global float *c, uint n)
{
	local float ta[TILE][TILE], tb[TILE][TILE];
	size_t lx = get_local_id(0), ly = get_local_id(1);
	size_t col = get_global_id(0), row = get_global_id(1);
	float acc = 0.0f;

	for (uint t = 0; t < n; t += TILE) {
		ta[ly][lx] = a[row * n + t + lx];
		tb[ly][lx] = b[(t + ly) * n + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint k = 0; k < TILE; k++)
			acc += ta[ly][k] * tb[k][lx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	c[row * n + col] = acc;
}
