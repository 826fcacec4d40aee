// SPDX-License-Identifier: MIT
// any / all (the most significant bit of each lane), select with integer
// masks and bitselect (OpenCL 1.2 section 6.12.6) on 8- to 64-bit signed
// vectors and on floats. Work-item i: x = in[i], y = in[i + 1],
// m = in[i + 2]; out[3i] = any(x), out[3i + 1] = all(x) and the vector
// results vs[i] = select(x, y, m), vb[i] = bitselect(x, y, m).

#define REL(T, UT, N)                                                      \
kernel void rel_##T##N(global const T##N *in, global int *out,            \
		       global T##N *vs, global T##N *vb, global T##N *vu) \
{                                                                          \
	uint i = get_global_id(0);                                         \
	T##N x = in[i], y = in[i + 1], m = in[i + 2];                      \
	out[2 * i] = any(x);                                               \
	out[2 * i + 1] = all(x);                                           \
	vs[i] = select(x, y, m);                                           \
	vb[i] = bitselect(x, y, m);                                        \
	vu[i] = select(x, y, as_##UT##N(m));                               \
}

#define REL_ALL(T, UT)                                                     \
	REL(T, UT, 2) REL(T, UT, 3) REL(T, UT, 4) REL(T, UT, 8) REL(T, UT, 16)

REL_ALL(char, uchar)
REL_ALL(short, ushort)
REL_ALL(int, uint)
REL_ALL(long, ulong)

// Floats: select and bitselect with int and uint masks.
#define RELF(N)                                                            \
kernel void relf_float##N(global const float##N *in,                       \
			  global const int##N *mi, global float##N *vs,    \
			  global float##N *vb, global float##N *vu)        \
{                                                                          \
	uint i = get_global_id(0);                                         \
	float##N x = in[i], y = in[i + 1];                                 \
	vs[i] = select(x, y, mi[i]);                                       \
	vb[i] = bitselect(x, y, as_float##N(mi[i]));                       \
	vu[i] = select(x, y, as_uint##N(mi[i]));                           \
}

RELF(2) RELF(3) RELF(4) RELF(8) RELF(16)
