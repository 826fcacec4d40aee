/* SPDX-License-Identifier: MIT */
/* Seed: the classic vector add. */
kernel void vector_add(global const float *a, global const float *b,
		       global float *out)
{
	size_t i = get_global_id(0);

	out[i] = a[i] + b[i];
}
