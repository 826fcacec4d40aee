/* SPDX-License-Identifier: MIT */
/*
 * C99 inline definitions as real OpenCL programs write them: CLBlast's
 * INLINE_FUNC is a plain `inline` on ARM devices, Random123's
 * R123_STATIC_INLINE is `static inline`. A plain `inline` definition
 * provides no external definition in C99, and at -O0 clang emits none:
 * every call to one must still reach its body.
 */

/* Plain inline: C99's inline definition. */
inline int triple(int x)
{
	return 3 * x;
}

/* static inline: internal. */
static inline int add_one(int x)
{
	return x + 1;
}

/* extern inline: C99's external definition. */
extern inline int minus_two(int x)
{
	return x - 2;
}

/* GNU's spelling of the same keyword. */
__inline__ uint rotate_mix(uint a, uint b)
{
	return (a << 7 | a >> 25) ^ b;
}

/* Plain inline calling plain and static inline; with a loop, so it is
 * no one-liner an optimiser would inline anyway. */
inline int poly(int x)
{
	int acc = 0;

	for (int k = 0; k < (x & 7); k++)
		acc += triple(k) + add_one(x);
	return acc + triple(x) * (x & 15);
}

/* Declared without inline first: this definition is the external one. */
int declared_first(int x);
inline int declared_first(int x)
{
	return x ^ 0x5A5A;
}

/* Never called: emitting nothing for it must not matter. */
inline int never_called(int x)
{
	return triple(x) % 9;
}

kernel void inline_forms(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int x = in[i];

	out[6 * i] = triple(x);
	out[6 * i + 1] = add_one(x);
	out[6 * i + 2] = minus_two(x);
	out[6 * i + 3] = poly(x);
	out[6 * i + 4] = (int)rotate_mix((uint)x, 0x9E3779B9u);
	out[6 * i + 5] = declared_first(x);
}

/* A second kernel using the same inline functions. */
kernel void inline_shared(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	int x = in[i];

	out[i] = poly(triple(x) & 0xFFFF) - minus_two(x);
}
