/* SPDX-License-Identifier: MIT */
/* Loops: for with break and continue, do-while, while, data-dependent trips. */
kernel void control_loops(global const uint *in, global uint *out)
{
	size_t i = get_global_id(0);
	uint x = in[i], sum = 0, j = 0, w = x;

	for (uint k = 0; k < (x & 31); k++) {
		if (k == 20)
			break;
		if (k & 1)
			continue;
		sum += k * x;
	}
	do {
		sum ^= sum << 3;
		j++;
	} while (j < (x >> 28));
	while (w > 100)
		w = (w >> 2) + (w & 7);
	out[2 * i] = sum;
	out[2 * i + 1] = w;
}
