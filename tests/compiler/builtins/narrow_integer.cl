// SPDX-License-Identifier: MIT
// Every integer built-in of OpenCL 1.2 section 6.12.3, and the shifts of
// section 6.3.j, on char, uchar, short and ushort: scalars, 4-lane vectors
// and the vectors the back end keeps packed in 8/16-bit lanes (char16,
// short8). Work-item i handles elements V*i .. V*i+V-1 of a, b and c;
// result f of element e goes to out[f * n + e] (test_builtins.c's
// NARROW_FUNCS order) and upsample's to up[e].

#define LD_1(i, p) (p)[i]
#define ST_1(v, i, p) ((p)[i] = (v))
#define LD_4(i, p) vload4(i, p)
#define ST_4(v, i, p) vstore4(v, i, p)
#define LD_8(i, p) vload8(i, p)
#define ST_8(v, i, p) vstore8(v, i, p)
#define LD_16(i, p) vload16(i, p)
#define ST_16(v, i, p) vstore16(v, i, p)

#define NARROW(name, T, UT, WT, VT, UVT, WVT, V)                              \
kernel void name(global const T *pa, global const T *pb,                   \
		 global const T *pc, global T *out, global WT *up)         \
{                                                                          \
	uint i = get_global_id(0), n = get_global_size(0) * V, f = 0;      \
	VT a = LD_##V(i, pa), b = LD_##V(i, pb), c = LD_##V(i, pc);        \
	ST_##V(rotate(a, b), i, out + n * f++);                            \
	ST_##V(clz(a), i, out + n * f++);                                  \
	ST_##V(popcount(a), i, out + n * f++);                             \
	ST_##V(hadd(a, b), i, out + n * f++);                              \
	ST_##V(rhadd(a, b), i, out + n * f++);                             \
	ST_##V(mul_hi(a, b), i, out + n * f++);                            \
	ST_##V(mad_hi(a, b, c), i, out + n * f++);                         \
	ST_##V(mad_sat(a, b, c), i, out + n * f++);                        \
	ST_##V(add_sat(a, b), i, out + n * f++);                           \
	ST_##V(sub_sat(a, b), i, out + n * f++);                           \
	ST_##V(as_##VT(abs(a)), i, out + n * f++);                         \
	ST_##V(as_##VT(abs_diff(a, b)), i, out + n * f++);                 \
	ST_##V(a << b, i, out + n * f++);                                  \
	ST_##V(a >> b, i, out + n * f++);                                  \
	ST_##V(min(a, b), i, out + n * f++);                               \
	ST_##V(max(a, b), i, out + n * f++);                               \
	ST_##V(clamp(a, min(b, c), max(b, c)), i, out + n * f++);          \
	ST_##V(select(a, b, c), i, out + n * f++);                         \
	ST_##V((VT)(a * b), i, out + n * f++);                             \
	ST_##V(upsample(a, as_##UVT(b)), i, up);                           \
}

NARROW(narrow_char, char, uchar, short, char, uchar, short, 1)
NARROW(narrow_char4, char, uchar, short, char4, uchar4, short4, 4)
NARROW(narrow_char16, char, uchar, short, char16, uchar16, short16, 16)
NARROW(narrow_uchar, uchar, uchar, ushort, uchar, uchar, ushort, 1)
NARROW(narrow_uchar4, uchar, uchar, ushort, uchar4, uchar4, ushort4, 4)
NARROW(narrow_uchar16, uchar, uchar, ushort, uchar16, uchar16, ushort16, 16)
NARROW(narrow_short, short, ushort, int, short, ushort, int, 1)
NARROW(narrow_short4, short, ushort, int, short4, ushort4, int4, 4)
NARROW(narrow_short8, short, ushort, int, short8, ushort8, int8, 8)
NARROW(narrow_ushort, ushort, ushort, uint, ushort, ushort, uint, 1)
NARROW(narrow_ushort4, ushort, ushort, uint, ushort4, ushort4, uint4, 4)
NARROW(narrow_ushort8, ushort, ushort, uint, ushort8, ushort8, uint8, 8)

// rotate on the 32- and 64-bit types too (the same SIR shifts by n and
// -n): out[e] = rotate(a[e], b[e]) for scalars and 4-lane vectors.
#define ROT(name, T, VT, V)                                                \
kernel void name(global const T *pa, global const T *pb, global T *out)    \
{                                                                          \
	uint i = get_global_id(0);                                         \
	ST_##V(rotate(LD_##V(i, pa), LD_##V(i, pb)), i, out);              \
}

ROT(rot_int, int, int, 1) ROT(rot_int4, int, int4, 4)
ROT(rot_uint, uint, uint, 1) ROT(rot_uint4, uint, uint4, 4)
ROT(rot_long, long, long, 1) ROT(rot_long4, long, long4, 4)
ROT(rot_ulong, ulong, ulong, 1) ROT(rot_ulong4, ulong, ulong4, 4)

// The same functions on int, uint, long and ulong (no upsample: it would
// need a 128-bit result for long); shifts mask the count to the width.
#define WIDE(name, T, VT, V)                                               \
kernel void name(global const T *pa, global const T *pb,                   \
		 global const T *pc, global T *out)                        \
{                                                                          \
	uint i = get_global_id(0), n = get_global_size(0) * V, f = 0;      \
	VT a = LD_##V(i, pa), b = LD_##V(i, pb), c = LD_##V(i, pc);        \
	ST_##V(rotate(a, b), i, out + n * f++);                            \
	ST_##V(clz(a), i, out + n * f++);                                  \
	ST_##V(popcount(a), i, out + n * f++);                             \
	ST_##V(hadd(a, b), i, out + n * f++);                              \
	ST_##V(rhadd(a, b), i, out + n * f++);                             \
	ST_##V(mul_hi(a, b), i, out + n * f++);                            \
	ST_##V(mad_hi(a, b, c), i, out + n * f++);                         \
	ST_##V(mad_sat(a, b, c), i, out + n * f++);                        \
	ST_##V(add_sat(a, b), i, out + n * f++);                           \
	ST_##V(sub_sat(a, b), i, out + n * f++);                           \
	ST_##V(as_##VT(abs(a)), i, out + n * f++);                         \
	ST_##V(as_##VT(abs_diff(a, b)), i, out + n * f++);                 \
	ST_##V(a << b, i, out + n * f++);                                  \
	ST_##V(a >> b, i, out + n * f++);                                  \
	ST_##V(min(a, b), i, out + n * f++);                               \
	ST_##V(max(a, b), i, out + n * f++);                               \
	ST_##V(clamp(a, min(b, c), max(b, c)), i, out + n * f++);          \
	ST_##V(select(a, b, c), i, out + n * f++);                         \
	ST_##V(a * b, i, out + n * f++);                                   \
}

WIDE(wide_int, int, int, 1) WIDE(wide_int4, int, int4, 4)
WIDE(wide_uint, uint, uint, 1) WIDE(wide_uint4, uint, uint4, 4)
WIDE(wide_long, long, long, 1) WIDE(wide_long4, long, long4, 4)
WIDE(wide_ulong, ulong, ulong, 1) WIDE(wide_ulong4, ulong, ulong4, 4)
