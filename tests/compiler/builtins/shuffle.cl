// SPDX-License-Identifier: MIT
// shuffle and shuffle2 (OpenCL 1.2 section 6.12.12) with masks of any
// value (only the low bits that index 2m or m lanes count), for vectors of
// m = 2..16 lanes shuffled into n = 2..16 lanes, 8- to 64-bit elements
// (small ones as selects, large ones through private memory).
// Work-item i: x = in[2i], y = in[2i + 1] (m lanes), mask[i] (n lanes);
// out[2i] = shuffle(x, mask), out[2i + 1] = shuffle2(x, y, mask).

#define SHUF(T, UT, M, N)                                                  \
kernel void shuf_##T##M##_##N(global const T##M *in,                       \
			      global const UT##N *mask, global T##N *out)  \
{                                                                          \
	uint i = get_global_id(0);                                         \
	out[2 * i] = shuffle(in[2 * i], mask[i]);                          \
	out[2 * i + 1] = shuffle2(in[2 * i], in[2 * i + 1], mask[i]);      \
}

#define SHUF_ALL(T, UT)                                                    \
	SHUF(T, UT, 2, 4) SHUF(T, UT, 4, 4) SHUF(T, UT, 8, 2)              \
	SHUF(T, UT, 4, 16) SHUF(T, UT, 16, 4) SHUF(T, UT, 16, 16)

SHUF_ALL(char, uchar)
SHUF_ALL(short, ushort)
SHUF_ALL(int, uint)
SHUF_ALL(float, uint)
SHUF_ALL(long, ulong)
