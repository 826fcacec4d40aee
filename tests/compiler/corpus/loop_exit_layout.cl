/* SPDX-License-Identifier: MIT */
/*
 * Loops of data-dependent trip count, each followed by a constant one.
 * After LLVM's loop rotation and full unrolling, llvm-spirv lays the
 * first loop's exit block out before the second loop, which dominates it
 * ("%48 is used before its definition"): the SPIR-V reader converts
 * blocks after their dominators, not in layout order.
 */
kernel void loop_exit_layout(global const uint *in, global uint *out)
{
	size_t i = get_global_id(0);
	uint x = in[i], acc = x;

	for (uint k = 0; k < (x & 7); k++)
		acc = acc * 3u + k;
	for (uint k = 4; k > 0; k--)
		acc ^= acc >> k;
	for (uint k = 0; k < (x & 7) + 1; k++)
		acc = acc * 3u + k + 1;
	for (uint k = 4; k > 0; k--)
		acc ^= acc >> k;
	out[i] = acc;
}
