/* SPDX-License-Identifier: MIT */
/* Seed: SGEMM, C = alpha * A * B + beta * C (row-major, m x k times k x n). */
#pragma OPENCL FP_CONTRACT OFF

kernel void sgemm(global const float *a, global const float *b,
		  global float *c, uint k, float alpha, float beta)
{
	size_t col = get_global_id(0), row = get_global_id(1);
	size_t n = get_global_size(0);
	float acc = 0.0f;

	for (uint p = 0; p < k; p++)
		acc += a[row * k + p] * b[p * n + col];
	c[row * n + col] = alpha * acc + beta * c[row * n + col];
}
