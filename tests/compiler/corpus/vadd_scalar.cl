/* SPDX-License-Identifier: MIT */
/* Code-quality twin: vector add, one float per work-item. */
kernel void vadd_scalar(global const float *a, global const float *b,
			global float *out)
{
	size_t i = get_global_id(0);

	out[i] = a[i] + b[i];
}
