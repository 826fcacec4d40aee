/* SPDX-License-Identifier: MIT */
/*
 * Seed: Mandelbrot iteration counts. No contraction, so the host's float
 * reference doing the same operations in the same order matches exactly.
 */
#pragma OPENCL FP_CONTRACT OFF

kernel void mandelbrot(global uint *out, float x0, float y0, float step,
		       uint max_iter)
{
	size_t gx = get_global_id(0), gy = get_global_id(1);
	float cx = x0 + (float)gx * step, cy = y0 + (float)gy * step;
	float x = 0.0f, y = 0.0f;
	uint n = 0;

	while (n < max_iter && x * x + y * y <= 4.0f) {
		float xt = x * x - y * y + cx;

		y = 2.0f * x * y + cy;
		x = xt;
		n++;
	}
	out[gy * get_global_size(0) + gx] = n;
}
