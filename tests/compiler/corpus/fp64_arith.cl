/* SPDX-License-Identifier: MIT */
/*
 * double arithmetic in 64-bit lanes (tests/compiler/test_fp64.c): add,
 * sub, mul, neg, fabs, min/max, rounding to integral values, copysign,
 * compares, in scalars and vectors; conversions between double and float,
 * half (vstore_half in each rounding mode) and the integer types, with
 * and without saturation. No contraction: each operation rounds once, as
 * the C reference does.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

kernel void fp64_arith(global const double *x, global const double *y,
		       global double *o)
{
	size_t i = get_global_id(0);
	double a = x[i], b = y[i];
	global double *q = o + 16 * i;

	q[0] = a + b;
	q[1] = a - b;
	q[2] = a * b;
	q[3] = -(a * b);
	q[4] = fabs(a) - b;
	q[5] = fmin(a, b);
	q[6] = fmax(a, b);
	q[7] = floor(a);
	q[8] = ceil(a);
	q[9] = trunc(a);
	q[10] = rint(a);
	q[11] = round(a);
	q[12] = copysign(a, b);
	q[13] = a * 3.0 + 0.25;
	q[14] = (a < b) + 2 * (a <= b) + 4 * (a == b) + 8 * (a != b) +
		16 * isnan(a) + 32 * (a > b) + 64 * (a >= b);
	q[15] = mad(a, b, -a);
}

kernel void fp64_vector(global const double4 *x, global const double4 *y,
			global double4 *o, global long4 *m)
{
	size_t i = get_global_id(0);
	double4 a = x[i], b = y[i];
	double3 c = vload3(0, (global const double *)&x[i]);

	o[3 * i] = a * b + a;
	o[3 * i + 1] = fmax(a - b, -a) * (double4)(0.5, -2.0, 1.0, 0.0);
	o[3 * i + 2] = (double4)(c + b.xyz, dot(a, b));
	m[i] = (a < b) | (isnan(b) & (long4)(2));
}

kernel void fp64_convert(global const double *x, global const float *f,
			 global const long *l, global const int *n,
			 global double *od, global float *of, global long *ol,
			 global int *oi, global half *oh)
{
	size_t i = get_global_id(0);
	double a = x[i];

	od[8 * i] = f[i];
	od[8 * i + 1] = convert_double(l[i]);
	od[8 * i + 2] = convert_double_rtz(l[i]);
	od[8 * i + 3] = convert_double_rtp(l[i]);
	od[8 * i + 4] = convert_double_rtn(l[i]);
	od[8 * i + 5] = convert_double((ulong)l[i]);
	od[8 * i + 6] = n[i];
	od[8 * i + 7] = convert_double((uint)n[i]);
	of[4 * i] = convert_float(a);
	of[4 * i + 1] = convert_float_rtz(a);
	of[4 * i + 2] = convert_float_rtp(a);
	of[4 * i + 3] = convert_float_rtn(a);
	ol[2 * i] = convert_long_sat(a);
	ol[2 * i + 1] = (long)convert_ulong_sat(a);
	oi[4 * i] = convert_int_sat(a);
	oi[4 * i + 1] = (int)convert_uint_sat(a);
	oi[4 * i + 2] = convert_short_sat(a);
	oi[4 * i + 3] = convert_uchar_sat(a);
	vstore_half(a, 4 * i, oh);
	vstore_half_rtz(a, 4 * i + 1, oh);
	vstore_half_rtp(a, 4 * i + 2, oh);
	vstore_half_rtn(a, 4 * i + 3, oh);
}
