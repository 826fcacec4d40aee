/* SPDX-License-Identifier: MIT */
/*
 * Struct and union kernel arguments (OpenCL 1.2 6.9) read at constant
 * offsets: the compiler turns each member read into a read of the argument
 * image. test_struct_args.c declares the same types in C and checks every
 * member, the layout and the argument metadata.
 */
typedef struct {
	int a;
	float b;
	int4 c;
} S;

struct inner {
	short s;
	char c;
	float f;
};

struct outer {
	char tag;
	struct inner in;
	float2 v;
	int arr[5];
	uchar bytes[3];
};

/* C's packing and padding of small members. */
typedef struct {
	char a;
	short b;
	char c;
	uchar2 q;
	int d;
	char e;
	ushort f;
	uchar g[3];
	long l;
	uchar4 h;
	float3 p;
} Small;

typedef union {
	int i;
	float f;
	uchar4 b;
	short2 s;
} U;

/* Members at any byte: read from the words that hold them. */
typedef struct __attribute__((packed)) {
	char c;
	int i;
	short s;
} Packed;

struct pair {
	uint x, y;
};

/* The bug's kernel, each work-item adding its id. */
kernel void struct_basic(global int *out, S s)
{
	size_t i = get_global_id(0);

	out[i] = s.a + (int)s.b + s.c.w + (int)i;
}

kernel void struct_nested(global uint *out, struct outer o)
{
	size_t i = get_global_id(0);
	global uint *d = out + 16 * i;

	d[0] = (uint)o.tag;
	d[1] = (uint)o.in.s;
	d[2] = (uint)o.in.c;
	d[3] = as_uint(o.in.f);
	d[4] = as_uint(o.v.x);
	d[5] = as_uint(o.v.y);
	for (int k = 0; k < 5; k++)
		d[6 + k] = (uint)o.arr[k] + (uint)i;
	d[11] = o.bytes[0];
	d[12] = o.bytes[1];
	d[13] = o.bytes[2];
	d[14] = (uint)sizeof(struct outer);
	d[15] = (uint)__builtin_offsetof(struct outer, bytes);
}

kernel void struct_small(global uint *out, Small m)
{
	size_t i = get_global_id(0);
	global uint *d = out + 24 * i;

	d[0] = (uint)m.a;
	d[1] = (uint)m.b;
	d[2] = (uint)m.c;
	d[3] = (uint)m.d;
	d[4] = (uint)m.e;
	d[5] = m.f;
	d[6] = m.g[0];
	d[7] = m.g[1];
	d[8] = m.g[2];
	d[9] = (uint)m.l;
	d[10] = (uint)(m.l >> 32);
	d[11] = m.h.x | (uint)m.h.y << 8 | (uint)m.h.z << 16 |
		(uint)m.h.w << 24;
	d[12] = as_uint(m.p.x);
	d[13] = as_uint(m.p.y);
	d[14] = as_uint(m.p.z);
	d[15] = (uint)sizeof(Small);
	d[16] = (uint)__builtin_offsetof(Small, d);
	d[17] = (uint)__builtin_offsetof(Small, f);
	d[18] = (uint)__builtin_offsetof(Small, l);
	d[19] = (uint)__builtin_offsetof(Small, h);
	d[20] = (uint)__builtin_offsetof(Small, p);
	d[21] = (uint)i;
	d[22] = m.q.x | (uint)m.q.y << 8;
	d[23] = 0;
}

kernel void struct_union(global uint *out, U u, int scale)
{
	size_t i = get_global_id(0);
	global uint *d = out + 8 * i;

	d[0] = (uint)u.i;
	d[1] = as_uint(u.f * (float)scale);
	d[2] = u.b.x;
	d[3] = u.b.w;
	d[4] = (uint)u.s.x;
	d[5] = (uint)u.s.y;
	d[6] = (uint)sizeof(U);
	d[7] = (uint)i;
}

/* Two aggregates around a scalar: each at its own place in the image. */
kernel void struct_two(global uint *out, S s, uint k, struct pair p)
{
	size_t i = get_global_id(0);
	global uint *d = out + 4 * i;

	d[0] = (uint)s.a + p.x;
	d[1] = (uint)s.c.y + p.y;
	d[2] = k + (uint)i;
	d[3] = as_uint(s.b);
}

kernel void struct_packed(global int *out, Packed p)
{
	int i = (int)get_global_id(0);

	out[4 * i] = p.c;
	out[4 * i + 1] = p.i + i;
	out[4 * i + 2] = p.s;
	out[4 * i + 3] = (int)sizeof(Packed);
}

/* A helper that only reads its copy reads the caller's bytes. */
static int weigh(S s, int k)
{
	return s.a * k + s.c.x - s.c.w;
}

kernel void struct_read_helper(global int *out, S s)
{
	int i = (int)get_global_id(0);

	out[i] = weigh(s, i) + weigh(s, 2);
}
