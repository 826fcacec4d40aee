// SPDX-License-Identifier: MIT
// vloadn / vstoren (OpenCL 1.2 section 6.12.7) for n = 2, 3, 4, 8, 16 at
// odd element offsets in private, local and global arrays. Work-item i
// reads a = vloadn(1, in + R*i + 1) (elements R*i + 1 + n ...), then in
// each space stores it with vstoren(a + k, 1, x + 1) into a zeroed row of
// R elements, so elements n + 1 .. 2n change and the rest stay zero, and
// reads it back with vloadn at an odd pointer; the rows and the read-back
// sums go to out: row s of work-item i at out + (4*i + s) * R, s = 0
// private, 1 local, 2 global; the sums of the three read-backs at s = 3.

#define VLS(T, N)                                                          \
kernel void vls_##T##N(global const T *in, global T *out)                  \
{                                                                          \
	const uint R = 2 * N + 2;                                          \
	uint i = get_global_id(0), l = get_local_id(0);                    \
	T p[2 * N + 2];                                                    \
	local T lrow[16 * (2 * N + 2)];                                    \
	local T *lr = lrow + l * R;                                        \
	global T *gr = out + (4 * i + 2) * R;                              \
	T##N a = vload##N(1, in + R * i + 1), s;                           \
	for (uint k = 0; k < R; k++) {                                     \
		p[k] = 0;                                                  \
		lr[k] = 0;                                                 \
		gr[k] = 0;                                                 \
	}                                                                  \
	vstore##N(a, 1, p + 1);                                            \
	vstore##N(a + (T)1, 1, lr + 1);                                    \
	vstore##N(a + (T)2, 1, gr + 1);                                    \
	s = vload##N(0, p + N + 1) + vload##N(0, lr + N + 1) +             \
	    vload##N(0, gr + N + 1);                                       \
	for (uint k = 0; k < R; k++) {                                     \
		out[4 * i * R + k] = p[k];                                 \
		out[(4 * i + 1) * R + k] = lr[k];                          \
	}                                                                  \
	vstore##N(s, 0, out + (4 * i + 3) * R);                            \
}

#define VLS_ALL(T) VLS(T, 2) VLS(T, 3) VLS(T, 4) VLS(T, 8) VLS(T, 16)

VLS_ALL(char)
VLS_ALL(short)
VLS_ALL(int)
VLS_ALL(float)
VLS_ALL(long)

// The shape of piglit's vstore tests: a vector read whole from a global
// array of vectors, stored with vstoren(v, 0, p + 1) and vstoren(v, 1,
// p + 1) into a volatile private or local array of 2n + 1 elements that
// is then copied out element by element. The last store fills the array.
#define VST(T, N, SPACE)                                                   \
kernel void vst_##SPACE##_##T##N(global T *out, global T##N *in)           \
{                                                                          \
	T##N tmp = in[get_global_id(0)];                                   \
	volatile SPACE T loc[2 * N + 1];                                   \
	global T *o = out + (2 * N + 1) * get_global_id(0);                \
	for (int i = 0; i < 2 * N + 1; ++i)                                \
		loc[i] = (T)0;                                             \
	vstore##N(tmp, 0, (SPACE T *)loc + 1);                             \
	vstore##N(tmp, 1, (SPACE T *)loc + 1);                             \
	for (int i = 0; i < 2 * N + 1; ++i)                                \
		o[i] = loc[i];                                             \
}

// And piglit's first kernel: one vstoren(v, 0, p + 1) filling an array
// of n + 1 elements, the last in the thread's private storage.
#define VST0(T, N, SPACE)                                                  \
kernel void vst0_##SPACE##_##T##N(global T *out, global T##N *in)          \
{                                                                          \
	T##N tmp = in[get_global_id(0)];                                   \
	volatile SPACE T loc[N + 1];                                       \
	global T *o = out + (N + 1) * get_global_id(0);                    \
	for (int i = 0; i < N + 1; ++i)                                    \
		loc[i] = (T)0;                                             \
	vstore##N(tmp, 0, (SPACE T *)loc + 1);                             \
	for (int i = 0; i < N + 1; ++i)                                    \
		o[i] = loc[i];                                             \
}

#define VST_ALL(T)                                                         \
	VST0(T, 2, private) VST0(T, 3, private) VST0(T, 4, private)        \
	VST0(T, 8, private) VST0(T, 16, private)                           \
	VST0(T, 2, local) VST0(T, 3, local) VST0(T, 4, local)              \
	VST0(T, 8, local) VST0(T, 16, local)                               \
	VST(T, 2, private) VST(T, 3, private) VST(T, 4, private)           \
	VST(T, 8, private) VST(T, 16, private)                             \
	VST(T, 2, local) VST(T, 3, local) VST(T, 4, local)                 \
	VST(T, 8, local) VST(T, 16, local)

VST_ALL(char)
VST_ALL(short)
VST_ALL(int)
VST_ALL(float)
VST_ALL(long)

// piglit's vstore_half and vstorea_half tests (no cl_khr_fp16 needed):
// floats stored as halves into a volatile array of shorts, unaligned
// (vstore_halfn at p + 1) and aligned (vstorea_halfn at p + n, where a
// 3-vector takes 4 halves). K is the array's length.
#define VSTH(N, SPACE, SUF, OFF, K)                                        \
kernel void vsth##SUF##_##SPACE##N(global short *out,                      \
				   global float##N *in)                    \
{                                                                          \
	float##N tmp = in[0];                                              \
	volatile SPACE short loc[K];                                       \
	for (int i = 0; i < K; ++i)                                        \
		loc[i] = 0;                                                \
	vstore##SUF##N(tmp, 0, (SPACE half *)loc + OFF);                   \
	vstore##SUF##N(tmp, 1, (SPACE half *)loc + OFF);                   \
	for (int i = 0; i < K; ++i)                                        \
		out[i] = loc[i];                                           \
}

#define VSTH_ALL(SPACE)                                                    \
	VSTH(2, SPACE, _half, 1, 5) VSTH(3, SPACE, _half, 1, 7)            \
	VSTH(4, SPACE, _half, 1, 9) VSTH(8, SPACE, _half, 1, 17)           \
	VSTH(16, SPACE, _half, 1, 33)                                      \
	VSTH(2, SPACE, a_half, 2, 6) VSTH(3, SPACE, a_half, 4, 11)         \
	VSTH(4, SPACE, a_half, 4, 12) VSTH(8, SPACE, a_half, 8, 24)        \
	VSTH(16, SPACE, a_half, 16, 48)

VSTH_ALL(private)
VSTH_ALL(local)

// vloadn from a __constant array at odd element offsets:
// out[n*i ...] = vloadn(1, in + (2n + 2) * i + 1).
#define VLC(T, N)                                                          \
kernel void vlc_##T##N(constant T *in, global T *out)                      \
{                                                                          \
	uint i = get_global_id(0);                                         \
	vstore##N(vload##N(1, in + (2 * N + 2) * i + 1), i, out);          \
}

#define VLC_ALL(T) VLC(T, 2) VLC(T, 3) VLC(T, 4) VLC(T, 8) VLC(T, 16)

VLC_ALL(char)
VLC_ALL(short)
VLC_ALL(int)
VLC_ALL(float)
VLC_ALL(long)
