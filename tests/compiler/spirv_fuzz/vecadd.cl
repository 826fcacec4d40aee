/* SPDX-License-Identifier: MIT */
/* Vector add with reqd_work_group_size and vector conversions. */
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void vecadd(__global const float4 *a, __global const float4 *b,
	    __global float4 *c, uint n)
{
	uint i = get_global_id(0);
	if (i < n)
		c[i] = a[i] + b[i] + convert_float4(convert_int4_sat_rte(a[i]));
}
