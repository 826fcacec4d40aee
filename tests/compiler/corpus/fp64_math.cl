/* SPDX-License-Identifier: MIT */
/*
 * double division, sqrt, rsqrt, reciprocal and fma (tests/compiler/
 * test_fp64.c): correctly rounded (OpenCL 1.2 §7.4: 0 ulp) but rsqrt
 * (2 ulp), in scalars and vectors.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

kernel void fp64_divsqrt(global const double *x, global const double *y,
			 global double *o)
{
	size_t i = get_global_id(0);
	double a = x[i], b = y[i];
	double2 v = vload2(i, x), w = vload2(i, y);

	o[8 * i] = a / b;
	o[8 * i + 1] = sqrt(a);
	o[8 * i + 2] = rsqrt(b);
	o[8 * i + 3] = 1.0 / b;
	vstore2(v / w.yx, 2, o + 8 * i);
	vstore2(sqrt(w), 3, o + 8 * i);
}

kernel void fp64_fma(global const double *x, global const double *y,
		     global const double *z, global double *o)
{
	size_t i = get_global_id(0);
	double2 a = vload2(i, x), b = vload2(i, y), c = vload2(i, z);

	o[3 * i] = fma(a.x, b.x, c.x);
	vstore2(fma(a, b.yx, c), 0, o + 3 * i + 1);
}
