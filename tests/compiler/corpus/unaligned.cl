/* SPDX-License-Identifier: MIT */
/*
 * Memory accesses whose address is less aligned than their size: packed
 * structs in private and global memory, and int, short, float, long, int2
 * and float4 accessed through under-aligned typedefs in global, constant
 * and local memory. Midgard's load/store unit faults on a word access at
 * an address that is not a multiple of 4 (a halfword at an odd one), so
 * the compiler splits them. test_unaligned.c runs them against C.
 */

/* 7 bytes: i and s at odd offsets. */
typedef struct __attribute__((packed)) {
	char c;
	int i;
	short s;
} P;

/* 61 bytes of members at every kind of misalignment. */
typedef struct __attribute__((packed)) {
	uchar tag;
	float f;
	long l;
	int2 w;
	float4 v;
	ushort h;
	int a[4];
	short sv[3];
} Q;

/* 8 bytes, members at multiples of 4: arrays of it need no splitting. */
typedef struct __attribute__((packed)) {
	int a;
	int b;
} P2;

typedef int int_a1 __attribute__((aligned(1)));
typedef short short_a1 __attribute__((aligned(1)));
typedef float float_a1 __attribute__((aligned(1)));
typedef long long_a1 __attribute__((aligned(1)));
typedef int2 int2_a1 __attribute__((aligned(1)));
typedef float4 float4_a1 __attribute__((aligned(1)));
typedef int int_a2 __attribute__((aligned(2)));
typedef float float_a2 __attribute__((aligned(2)));
typedef long long_a2 __attribute__((aligned(2)));
typedef int2 int2_a2 __attribute__((aligned(2)));
typedef float4 float4_a2 __attribute__((aligned(2)));

/* Bytes of one work-item's record in the byte-aligned kernels. */
#define REC1 45
/* ... and in the halfword-aligned ones. */
#define REC2 46

/*
 * A packed struct in private memory, written and indexed by a variable:
 * the argument's copy, an array of three, and single bytes of both.
 */
kernel void packed_private(global int *out, P p, int n)
{
	int g = (int)get_global_id(0);
	global int *d = out + 6 * g;
	P q = p, arr[3];

	q.i += n * g;
	q.s = (short)(q.s - g);
	((char *)&q)[g % 7] ^= 1;
	for (int k = 0; k < 3; k++) {
		arr[k] = q;
		arr[k].i += k;
		arr[k].c = (char)(arr[k].c + k);
	}
	arr[g % 3].s ^= 0x5a5a;
	arr[(g + 1) % 3].i *= 3;
	d[0] = q.i + q.s;
	d[1] = q.c;
	d[2] = arr[g % 3].i;
	d[3] = arr[(g + 1) % 3].s + arr[g % 3].s;
	d[4] = ((char *)&arr[g % 3])[(g * 5) % 7];
	d[5] = arr[(g + 2) % 3].i;
}

/* An array of packed structs in global memory, read and written. */
kernel void packed_global(global P *ps, global int *out, int n)
{
	int g = (int)get_global_id(0);
	global P *p = &ps[g];
	int i = p->i;
	short s = p->s;
	char c = p->c;

	p->i = i * 3 + n;
	p->s = (short)(s + c);
	p->c = (char)(c ^ 0x55);
	out[g] = i + s + c;
}

/* Every member type of Q, loaded and stored in place; vloadn on members. */
kernel void packed_global_wide(global Q *qs, global int *out)
{
	int g = (int)get_global_id(0);
	global Q *q = &qs[g];
	float4 v = q->v;
	int2 w = q->w;
	long l = q->l;
	float f = q->f;
	int4 a = vload4(0, q->a);
	short3 sv = vload3(0, q->sv);

	q->v = v * 2.0f + f;
	q->w = w.yx + (int2)(g, -g);
	q->l = l * 3 - g;
	q->f = v.x + v.w;
	q->h = (ushort)(q->h + 7);
	q->tag = (uchar)(q->tag + 1);
	vstore4(a.wzyx + g, 0, q->a);
	vstore3(sv + (short3)(1, 2, 3), 0, q->sv);
	out[4 * g] = a.x + a.y + a.z + a.w;
	out[4 * g + 1] = sv.x + sv.y + sv.z;
	out[4 * g + 2] = (int)l;
	out[4 * g + 3] = vload2(0, q->a + 1).y;
}

/* A packed struct whose members happen to be aligned. */
kernel void packed_aligned(global P2 *ps, global int *out)
{
	int g = (int)get_global_id(0);

	out[g] = ps[g].a + ps[g].b;
}

/*
 * Byte-aligned records at src + off + REC1 * g: int, short, float, int2,
 * float4, long; each written back changed at the same place in dst.
 */
kernel void under_global(global const uchar *src, global uchar *dst,
			 int off)
{
	int g = (int)get_global_id(0);
	global const uchar *s = src + off + REC1 * g;
	global uchar *d = dst + off + REC1 * g;
	int i = *(global const int_a1 *)s;
	short h = *(global const short_a1 *)(s + 4);
	float f = *(global const float_a1 *)(s + 6);
	int2 w = *(global const int2_a1 *)(s + 10);
	float4 v = *(global const float4_a1 *)(s + 18);
	long l = *(global const long_a1 *)(s + 34);

	*(global int_a1 *)d = i + 1;
	*(global short_a1 *)(d + 4) = (short)(h ^ 0x1234);
	*(global float_a1 *)(d + 6) = f * 2.0f;
	*(global int2_a1 *)(d + 10) = w.yx;
	*(global float4_a1 *)(d + 18) = v.wzyx + 1.0f;
	*(global long_a1 *)(d + 34) = l - 1;
}

/* The same with halfword-aligned records (off even). */
kernel void under_global_a2(global const uchar *src, global uchar *dst,
			    int off)
{
	int g = (int)get_global_id(0);
	global const uchar *s = src + off + REC2 * g;
	global uchar *d = dst + off + REC2 * g;
	int i = *(global const int_a2 *)s;
	float f = *(global const float_a2 *)(s + 6);
	int2 w = *(global const int2_a2 *)(s + 10);
	float4 v = *(global const float4_a2 *)(s + 18);
	long l = *(global const long_a2 *)(s + 34);

	*(global int_a2 *)d = i + 1;
	*(global float_a2 *)(d + 6) = f * 2.0f;
	*(global int2_a2 *)(d + 10) = w.yx;
	*(global float4_a2 *)(d + 18) = v.wzyx + 1.0f;
	*(global long_a2 *)(d + 34) = l - 1;
}

/* Under-aligned reads of constant memory, written out as words. */
kernel void under_constant(constant uchar *src, global int *out, int off)
{
	int g = (int)get_global_id(0);
	constant uchar *s = src + off + REC1 * g;
	global int *d = out + 12 * g;
	int2 w = *(constant int2_a1 *)(s + 10);
	float4 v = *(constant float4_a1 *)(s + 18);
	long l = *(constant long_a1 *)(s + 34);

	d[0] = *(constant int_a1 *)s;
	d[1] = *(constant short_a1 *)(s + 4);
	d[2] = as_int(*(constant float_a1 *)(s + 6));
	d[3] = w.x;
	d[4] = w.y;
	d[5] = as_int(v.x);
	d[6] = as_int(v.y);
	d[7] = as_int(v.z);
	d[8] = as_int(v.w);
	d[9] = (int)l;
	d[10] = (int)(l >> 32);
	/* A known misalignment: the constant offset alone says so. */
	d[11] = *(constant int_a1 *)(src + 4 * g + 1);
}

/*
 * Local memory: the group's records copied in byte by byte, read at
 * byte alignment from a static array, written changed into a __local
 * argument, copied out byte by byte.
 */
kernel void under_local(global const uchar *src, global uchar *dst, int off,
			local uchar *out_buf)
{
	local uchar in_buf[8 * REC1 + 4];
	int l = (int)get_local_id(0), n = (int)get_local_size(0);
	int base = (int)get_group_id(0) * n * REC1 + off;

	/* The group's records: bytes [off, off + n * REC1) of the buffers. */
	for (int k = l; k < n * REC1; k += n) {
		in_buf[off + k] = src[base + k];
		out_buf[off + k] = dst[base + k];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	{
		local const uchar *s = in_buf + off + REC1 * l;
		local uchar *d = out_buf + off + REC1 * l;
		int i = *(local const int_a1 *)s;
		short h = *(local const short_a1 *)(s + 4);
		float f = *(local const float_a1 *)(s + 6);
		int2 w = *(local const int2_a1 *)(s + 10);
		float4 v = *(local const float4_a1 *)(s + 18);
		long lv = *(local const long_a1 *)(s + 34);

		*(local int_a1 *)d = i + 1;
		*(local short_a1 *)(d + 4) = (short)(h ^ 0x1234);
		*(local float_a1 *)(d + 6) = f * 2.0f;
		*(local int2_a1 *)(d + 10) = w.yx;
		*(local float4_a1 *)(d + 18) = v.wzyx + 1.0f;
		*(local long_a1 *)(d + 34) = lv - 1;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int k = l; k < n * REC1; k += n)
		dst[base + k] = out_buf[off + k];
}

/* Halfword-aligned local accesses (off even). */
kernel void under_local_a2(global const uchar *src, global uchar *dst,
			   int off)
{
	local uchar buf[8 * REC2 + 4];
	int l = (int)get_local_id(0), n = (int)get_local_size(0);
	int base = (int)get_group_id(0) * n * REC2 + off;

	for (int k = l; k < n * REC2; k += n)
		buf[off + k] = src[base + k];
	barrier(CLK_LOCAL_MEM_FENCE);
	{
		local uchar *p = buf + off + REC2 * l;
		int i = *(local int_a2 *)p;
		float f = *(local float_a2 *)(p + 6);
		int2 w = *(local int2_a2 *)(p + 10);
		float4 v = *(local float4_a2 *)(p + 18);
		long lv = *(local long_a2 *)(p + 34);

		*(local int_a2 *)p = i + 1;
		*(local float_a2 *)(p + 6) = f * 2.0f;
		*(local int2_a2 *)(p + 10) = w.yx;
		*(local float4_a2 *)(p + 18) = v.wzyx + 1.0f;
		*(local long_a2 *)(p + 34) = lv - 1;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int k = l; k < n * REC2; k += n)
		dst[base + k] = buf[off + k];
}
