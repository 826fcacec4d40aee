// SPDX-License-Identifier: MIT
// async_work_group_copy and async_work_group_strided_copy (OpenCL 1.2
// section 6.12.10) on many gentypes. Group g copies its n elements of in
// to local memory and back out to out; out2 gets them reversed, each read
// by another work-item than the one that copied it; then the strided
// forms: in's elements g*n*stride + i*stride to local tmp[i] and back to
// sout's same places (the elements between must stay untouched).

#define ASYNC(name, T)                                                     \
kernel void name(global const T *in, global T *out, global T *out2,        \
		 global T *sout, local T *tmp, uint n, uint stride)          \
{                                                                          \
	uint g = get_group_id(0), l = get_local_id(0);                     \
	uint size = get_local_size(0);                                     \
	event_t ev[2];                                                     \
	event_t e = async_work_group_copy(tmp, in + g * n, n, 0);          \
	prefetch(in + g * n * stride, n * stride);                         \
	wait_group_events(1, &e);                                          \
	for (uint i = l; i < n; i += size)                                 \
		out2[g * n + i] = tmp[n - 1 - i];                          \
	e = async_work_group_copy(out + g * n, tmp, n, 0);                 \
	wait_group_events(1, &e);                                          \
	barrier(CLK_LOCAL_MEM_FENCE);                                      \
	ev[0] = async_work_group_strided_copy(tmp, in + g * n * stride,    \
					      n / 2, stride, 0);           \
	ev[1] = async_work_group_strided_copy(tmp + n / 2,                 \
					      in + (g * n + n / 2) * stride, \
					      n - n / 2, stride, ev[0]);  \
	wait_group_events(2, ev);                                          \
	e = async_work_group_strided_copy(sout + g * n * stride, tmp, n,   \
					  stride, 0);                      \
	wait_group_events(1, &e);                                          \
}

ASYNC(async_char, char)
ASYNC(async_uchar2, uchar2)
ASYNC(async_char3, char3)
ASYNC(async_char16, char16)
ASYNC(async_short, short)
ASYNC(async_ushort4, ushort4)
ASYNC(async_short8, short8)
ASYNC(async_int, int)
ASYNC(async_uint3, uint3)
ASYNC(async_int8, int8)
ASYNC(async_float, float)
ASYNC(async_float2, float2)
ASYNC(async_float4, float4)
ASYNC(async_float16, float16)
ASYNC(async_long, long)
ASYNC(async_ulong2, ulong2)
