/* SPDX-License-Identifier: MIT */
/*
 * Loops carrying short8 and ushort8 values in 16-bit lanes: phis of whole
 * registers, a data-dependent trip count, a branch in the body merging
 * two values (one a splat of the loop counter), a carried comparison mask
 * and a select on a scalar condition.
 */
kernel void short8_loop(global const short8 *a, global const int *n,
			global short8 *out)
{
	size_t i = get_global_id(0);
	short8 x = a[2 * i], y = a[2 * i + 1];
	short8 acc = (short8)(1), t = (short8)(0), m = (short8)(0);
	ushort8 h = as_ushort8(y);
	int trips = n[i] & 15;

	for (int k = 0; k < trips; k++) {
		acc = acc * x + (short8)(3);
		if (k & 1)
			t = t - x;
		else
			t = t + (short8)((short)k) * y;
		m |= acc < t;
		h = (h >> (ushort)1) ^ (ushort8)((ushort)(k * 0x1357));
		x = k == 2 ? y : x ^ (x << 1);
	}
	out[4 * i] = acc;
	out[4 * i + 1] = t;
	out[4 * i + 2] = m;
	out[4 * i + 3] = as_short8(h);
}
