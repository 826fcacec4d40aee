// SPDX-License-Identifier: MIT
// Explicit conversions (OpenCL 1.2 section 6.2.3) from float to every
// 8- to 32-bit integer type in each rounding mode, saturated or not, and
// from int and uint to float in each rounding mode; scalars and 4-lane
// vectors. Element e of conversion f goes to out[f * n + e].

#define LD_1(i, p) (p)[i]
#define ST_1(v, i, p) ((p)[i] = (v))
#define LD_4(i, p) vload4(i, p)
#define ST_4(v, i, p) vstore4(v, i, p)

#define TO_INT(D, VD, VF, V)                                               \
kernel void conv_##VD(global const float *in, global D *out)               \
{                                                                          \
	uint i = get_global_id(0), n = get_global_size(0) * V, f = 0;      \
	VF x = LD_##V(i, in);                                              \
	ST_##V(convert_##VD(x), i, out + n * f++);                         \
	ST_##V(convert_##VD##_rte(x), i, out + n * f++);                   \
	ST_##V(convert_##VD##_rtz(x), i, out + n * f++);                   \
	ST_##V(convert_##VD##_rtp(x), i, out + n * f++);                   \
	ST_##V(convert_##VD##_rtn(x), i, out + n * f++);                   \
	ST_##V(convert_##VD##_sat(x), i, out + n * f++);                   \
	ST_##V(convert_##VD##_sat_rte(x), i, out + n * f++);               \
	ST_##V(convert_##VD##_sat_rtz(x), i, out + n * f++);               \
	ST_##V(convert_##VD##_sat_rtp(x), i, out + n * f++);               \
	ST_##V(convert_##VD##_sat_rtn(x), i, out + n * f++);               \
}

#define TO_FLOAT(VF, VI, VU, V)                                            \
kernel void conv_##VF##_from_int(global const int *in, global float *out) \
{                                                                          \
	uint i = get_global_id(0), n = get_global_size(0) * V, f = 0;      \
	VI x = LD_##V(i, in);                                              \
	VU u = as_##VU(x);                                                 \
	ST_##V(convert_##VF(x), i, out + n * f++);                         \
	ST_##V(convert_##VF##_rte(x), i, out + n * f++);                   \
	ST_##V(convert_##VF##_rtz(x), i, out + n * f++);                   \
	ST_##V(convert_##VF##_rtp(x), i, out + n * f++);                   \
	ST_##V(convert_##VF##_rtn(x), i, out + n * f++);                   \
	ST_##V(convert_##VF(u), i, out + n * f++);                         \
	ST_##V(convert_##VF##_rte(u), i, out + n * f++);                   \
	ST_##V(convert_##VF##_rtz(u), i, out + n * f++);                   \
	ST_##V(convert_##VF##_rtp(u), i, out + n * f++);                   \
	ST_##V(convert_##VF##_rtn(u), i, out + n * f++);                   \
}

TO_INT(char, char, float, 1) TO_INT(char, char4, float4, 4)
TO_INT(uchar, uchar, float, 1) TO_INT(uchar, uchar4, float4, 4)
TO_INT(short, short, float, 1) TO_INT(short, short4, float4, 4)
TO_INT(ushort, ushort, float, 1) TO_INT(ushort, ushort4, float4, 4)
TO_INT(int, int, float, 1) TO_INT(int, int4, float4, 4)
TO_INT(uint, uint, float, 1) TO_INT(uint, uint4, float4, 4)
TO_FLOAT(float, int, uint, 1) TO_FLOAT(float4, int4, uint4, 4)
