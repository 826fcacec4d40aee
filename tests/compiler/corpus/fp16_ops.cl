/* SPDX-License-Identifier: MIT */
// half arithmetic (cl_khr_fp16) as Midgard's 16-bit lanes compute it:
// tests/compiler/test_fp16.c runs these on the model against a C
// reference of IEEE binary16 and checks the code is in reg mode 16.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// Lane k of a, b, c: results r[8 i + j] (each a half4), comparisons as
// bits of m[i].
kernel void binary4(global const half *a, global const half *b,
		    global const half *c, global half *r, global ushort *m)
{
	size_t i = get_global_id(0);
	half4 x = vload4(i, a), y = vload4(i, b), z = vload4(i, c);
	short4 bits;

	vstore4(x + y, 8 * i, r);
	vstore4(x - y, 8 * i + 1, r);
	vstore4(x * y, 8 * i + 2, r);
	vstore4(fmin(x, y), 8 * i + 3, r);
	vstore4(fmax(x, y), 8 * i + 4, r);
	vstore4(mad(x, y, z), 8 * i + 5, r);
	vstore4(-x - fabs(y), 8 * i + 6, r);
	vstore4(x * (half)3.0 - y, 8 * i + 7, r);
	bits = ((x == y) & (short)1) | ((x != y) & (short)2) |
	       ((x < y) & (short)4) | ((x <= y) & (short)8) |
	       ((x > y) & (short)16) | ((x >= y) & (short)32) |
	       (isunordered(x, y) & (short)64) |
	       (x < (half)0.5 ? (short4)128 : (short4)0);
	vstore4(as_ushort4(bits), i, m);
}

// The same on scalars (the scalar units' 16-bit forms), fewer ops.
kernel void binary1(global const half *a, global const half *b,
		    global half *r, global ushort *m)
{
	size_t i = get_global_id(0);
	half x = a[i], y = b[i];

	r[4 * i] = x + y;
	r[4 * i + 1] = x * y;
	r[4 * i + 2] = fmax(x, -y);
	r[4 * i + 3] = fabs(x) - y;
	m[i] = (x < y) | (x == y) << 1 | (x >= y) << 2;
}

// fma has no 16-bit form: fp32 with the sum rounded to odd.
kernel void fma4(global const half *a, global const half *b,
		 global const half *c, global half *r)
{
	size_t i = get_global_id(0);

	vstore4(fma(vload4(i, a), vload4(i, b), vload4(i, c)), i, r);
}

// Unary ops and conversions from half on every half (lane k of a).
kernel void unary4(global const half *a, global half *r, global float *f,
		   global int *n)
{
	size_t i = get_global_id(0);
	half4 x = vload4(i, a);

	vstore4(floor(x), 8 * i, r);
	vstore4(ceil(x), 8 * i + 1, r);
	vstore4(trunc(x), 8 * i + 2, r);
	vstore4(rint(x), 8 * i + 3, r);
	vstore4(round(x), 8 * i + 4, r);
	vstore4(sqrt(x), 8 * i + 5, r);
	vstore4(-x, 8 * i + 6, r);
	vstore4(fabs(x), 8 * i + 7, r);
	vstore4(convert_float4(x), i, f);
	vstore4(convert_int4_sat(x), 4 * i, n);
	vstore4(convert_int4_sat_rte(x), 4 * i + 1, n);
	vstore4(convert_int4(convert_short4_sat(x)), 4 * i + 2, n);
	vstore4(convert_int4(convert_uint4_sat(x)), 4 * i + 3, n);
}

// Conversions to half: float and int lanes in each rounding mode.
kernel void to_half4(global const float *f, global const int *n,
		     global half *r)
{
	size_t i = get_global_id(0);
	float4 x = vload4(i, f);
	int4 k = vload4(i, n);

	vstore4(convert_half4(x), 8 * i, r);
	vstore4(convert_half4_rtz(x), 8 * i + 1, r);
	vstore4(convert_half4_rtp(x), 8 * i + 2, r);
	vstore4(convert_half4_rtn(x), 8 * i + 3, r);
	vstore4(convert_half4(k), 8 * i + 4, r);
	vstore4(convert_half4_rtz(k), 8 * i + 5, r);
	vstore4(convert_half4_rtp(k), 8 * i + 6, r);
	vstore4(convert_half4_rtn(convert_uint4(k)), 8 * i + 7, r);
}

// half8 kept whole: eight 16-bit lanes of one register (sir_lower_packed.c).
kernel void binary8(global const half8 *a, global const half8 *b,
		    global half8 *r, global short8 *m)
{
	size_t i = get_global_id(0);
	half8 x = a[i], y = b[i];

	r[6 * i] = x + y;
	r[6 * i + 1] = x - y;
	r[6 * i + 2] = x * y;
	r[6 * i + 3] = fmin(x, y);
	r[6 * i + 4] = fmax(-x, fabs(y)) - (half)1.0;
	r[6 * i + 5] = x < y ? floor(y - x) : x * (half)0.5;
	m[i] = ((x == y) & (short)1) | ((x != y) & (short)2) |
	       ((x <= y) & (short)4) | ((x > y) & (short)8);
}
