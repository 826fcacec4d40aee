/* SPDX-License-Identifier: MIT */
/*
 * libclc's double built-ins on Midgard (tests/compiler/test_fp64.c): one
 * program per function (-DFUNC=name -DARITY=n), each result checked against the host's long
 * double libm within OpenCL 1.2 §7.4's ULP bound for doubles.
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* The function under test: FUNC of ARITY arguments (build options). */
#ifndef FUNC
#define FUNC exp
#define ARITY 1
#endif

kernel void fp64_builtin(global const double *x, global const double *y,
			 global double *o)
{
	size_t i = get_global_id(0);

#if ARITY == 2
	o[i] = FUNC(x[i], y[i]);
#else
	(void)y;
	o[i] = FUNC(x[i]);
#endif
}

kernel void fp64_parts(global const double *x, global const double *y,
		       global double *o)
{
	size_t i = get_global_id(0);
	double ip, fr;
	int e;

	(void)y;
	o[5 * i] = frexp(x[i], &e);
	o[5 * i + 1] = e;
	o[5 * i + 2] = modf(x[i], &ip);
	o[5 * i + 3] = ip;
	o[5 * i + 4] = ldexp(x[i], (int)(i % 64) - 32);
	(void)fr;
}
