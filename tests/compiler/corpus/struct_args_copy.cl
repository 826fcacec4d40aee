/* SPDX-License-Identifier: MIT */
/*
 * Struct and union kernel arguments the body cannot read as fixed parts of
 * the argument image: indexed by a variable, written to (the kernel's copy
 * is its own), passed on by value to a helper that writes its copy, larger
 * than the pushed uniforms. test_struct_args.c checks them against C.
 */
typedef struct {
	char tag;
	int arr[7];
	short pairs[6];
} Table;

typedef struct {
	int a;
	float b;
	int4 c;
} S;

/* Larger than the pushed uniform rows: read from the uniform buffer. */
typedef struct {
	uint head;
	uint data[70];
} Big;

/* A variable index: the aggregate lives in private memory. */
kernel void struct_indexed(global int *out, Table t)
{
	int i = (int)get_global_id(0);

	out[2 * i] = t.arr[i % 7] + t.tag;
	out[2 * i + 1] = t.pairs[i % 6];
}

/* Stores to the kernel's copy are seen by its later reads only. */
kernel void struct_written(global int *out, S s, int n)
{
	int i = (int)get_global_id(0);

	s.a += i;
	s.c.z = n * i;
	if (i & 1)
		s.b = 2.5f;
	out[3 * i] = s.a + s.c.x;
	out[3 * i + 1] = s.c.z;
	out[3 * i + 2] = (int)(s.b * 2.0f);
}

/* A helper takes its own copy: its writes do not reach the caller's. */
static int bump(S s, int by)
{
	s.a += by;
	s.c += (int4)(by);
	return s.a + s.c.w;
}

static int sum(Table t, int n)
{
	int r = t.tag;

	for (int k = 0; k < n; k++)
		r += t.arr[k];
	return r;
}

kernel void struct_helper(global int *out, S s, Table t)
{
	int i = (int)get_global_id(0);

	out[4 * i] = bump(s, i);
	out[4 * i + 1] = s.a + s.c.w;
	out[4 * i + 2] = sum(t, i % 8);
	out[4 * i + 3] = bump(s, 1) + bump(s, 2);
}

kernel void struct_big(global uint *out, Big b)
{
	int i = (int)get_global_id(0);

	out[3 * i] = b.head;
	out[3 * i + 1] = b.data[69] + b.data[i % 70];
	out[3 * i + 2] = (uint)sizeof(Big);
}

/* By value from global memory: the helper's writes stay in its copy. */
static S scaled(S s, int k)
{
	s.a *= k;
	s.c.y *= k;
	return s;
}

kernel void struct_from_global(global int *out, global const S *in)
{
	int i = (int)get_global_id(0);
	S mine = in[i % 4];
	S r = scaled(mine, i);

	out[3 * i] = r.a + r.c.y;
	out[3 * i + 1] = mine.a + mine.c.y;
	out[3 * i + 2] = in[i % 4].a;
}
