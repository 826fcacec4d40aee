/* SPDX-License-Identifier: MIT */
/*
 * Loops carrying char16, uchar16, short8 and short16 values (phis of 8-
 * and 16-bit vectors wider than four lanes), a data-dependent trip count
 * and a branch in the body that merges two of them.
 */
kernel void narrow_loops(global const char16 *a, global const short8 *b,
			 global char16 *out)
{
	size_t i = get_global_id(0);
	char16 x = a[i], acc = (char16)(1);
	uchar16 u = as_uchar16(x), m = (uchar16)(0);
	short8 y = b[i], s = (short8)(0);
	short16 w = (short16)(y, -y);
	int n = (x.s0 & 7) + 1;

	for (int k = 0; k < n; k++) {
		acc = acc * x + (char16)((char)k);
		if (k & 1)
			m = max(m, u >> (uchar)k);
		else
			m ^= u + (uchar)k;
		s = s * (short)3 + y;
		w = w.s123456789abcdef0 - w;
	}
	out[5 * i] = acc;
	out[5 * i + 1] = as_char16(m);
	out[5 * i + 2] = as_char16(s);
	out[5 * i + 3] = as_char16(w.lo);
	out[5 * i + 4] = as_char16(w.hi);
}
