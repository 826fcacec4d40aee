/* SPDX-License-Identifier: MIT */
/* Non-kernel helper functions, each called several times. */
static int square(int v)
{
	return v * v;
}

static uint gcd(uint a, uint b)
{
	while (b) {
		uint t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int clamp_to(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

kernel void helper_functions(global const int *a, global const int *b,
			     global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i];

	out[3 * i] = square(x & 0xFFF) - square(y & 0xFFF) + square(3);
	out[3 * i + 1] = gcd(x & 0xFFFF, y & 0xFFFF) + gcd(x & 0xFF, 24);
	out[3 * i + 2] = clamp_to(x, -1000, 1000) + clamp_to(y, 0, 50);
}
