/* SPDX-License-Identifier: MIT */
/*
 * One kernel of 160 loops, more than the front end's MAX_ROTATED_LOOPS:
 * it gets opt's pass list for functions of many loops (no loop rotation,
 * induction variables or full unrolling), and must compute the same.
 * Data-dependent trip counts counting up, constant ones counting down.
 */
#define STEP(c) \
	for (uint k = 0; k < (x & 7) + ((c) & 3); k++) \
		acc = acc * 3u + k + (c); \
	for (uint k = 4; k > 0; k--) \
		acc ^= acc >> k;
#define STEP4(c) STEP(c) STEP((c) + 1) STEP((c) + 2) STEP((c) + 3)
#define STEP16(c) STEP4(c) STEP4((c) + 4) STEP4((c) + 8) STEP4((c) + 12)

kernel void many_loops(global const uint *in, global uint *out)
{
	size_t i = get_global_id(0);
	uint x = in[i], acc = x;

	STEP16(0) STEP16(16) STEP16(32) STEP16(48) STEP16(64)
	out[i] = acc;
}
