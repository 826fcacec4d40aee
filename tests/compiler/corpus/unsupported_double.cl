/* SPDX-License-Identifier: MIT */
/* Negative case: double is outside the supported set (a build error). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void unsupported_double(global double *out)
{
	out[get_global_id(0)] = 1.0 / 3.0;
}
