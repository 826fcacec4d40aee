/* SPDX-License-Identifier: MIT */
/*
 * char16 in 8-bit lanes across memory and loops: vload16/vstore16 on
 * char pointers, a __local tile, a loop carrying uchar16 and char16
 * values (phis of whole registers) with a branch merging two of them and
 * a select on a scalar condition.
 */
kernel void char16_loop(global const char *a, global const int *n,
			global char *out, local char16 *tile)
{
	size_t i = get_global_id(0), l = get_local_id(0);
	char16 x = vload16(i, a), acc = (char16)(1), m = (char16)(0);
	uchar16 h = as_uchar16(x) ^ (uchar16)(0xA5);
	int trips = n[i] & 15;

	tile[l] = x;
	barrier(CLK_LOCAL_MEM_FENCE);
	x = x - tile[l ^ 3];
	for (int k = 0; k < trips; k++) {
		acc = acc * x + (char16)((char)k);
		if (k & 1)
			m = max(m, acc);
		else
			m ^= acc >> (char)1;
		h = (h << (uchar)1) | (h >> (uchar)7);
		x = k == 3 ? acc : x + (char16)(1);
	}
	vstore16(acc, 3 * i, out);
	vstore16(m, 3 * i + 1, out);
	vstore16(as_char16(h) + x, 3 * i + 2, out);
}
