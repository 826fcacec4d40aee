/* SPDX-License-Identifier: MIT */
/* Code-quality twin: SAXPY, one float per work-item. */
#pragma OPENCL FP_CONTRACT OFF

kernel void saxpy_scalar(float alpha, global const float *x,
			 global const float *y, global float *out)
{
	size_t i = get_global_id(0);

	out[i] = alpha * x[i] + y[i];
}
