/* SPDX-License-Identifier: MIT */
/*
 * Comparisons of char16, uchar16, short8 and ushort8 giving lane masks,
 * the vector ?: and select() on them (a mask or any value's top bit),
 * a scalar condition, bitselect, any/all, and a float compare mask
 * converted to short8.
 */
kernel void narrow_select(global const char16 *a, global const char16 *b,
			  global const short16 *c, global char16 *out)
{
	size_t i = get_global_id(0);
	char16 x = a[i], y = b[i];
	short16 z = c[i];
	short8 p = z.lo, q = z.hi;
	uchar16 ux = as_uchar16(x), uy = as_uchar16(y);
	ushort8 up = as_ushort8(p), uq = as_ushort8(q);
	float8 f = convert_float8(p), g = convert_float8(q) * 0.5f;
	global char16 *o = out + 11 * i;

	o[0] = x < y;
	o[1] = x > y ? x : y;
	o[2] = as_char16(select(ux, uy, ux >= uy));
	o[3] = select(x, y, x);
	o[4] = (x.s0 & 1) ? x : y;
	o[5] = bitselect(x, y, (char16)(0x0F));
	o[6] = as_char16(p == q ? p : -q);
	o[7] = as_char16(select(p, q, p));
	o[8] = as_char16(select(up, uq, up <= uq));
	o[9] = as_char16(convert_short8(isless(f, g)));
	o[10] = (char16)(any(x < y), all(x != y), any(p > q),
			 all(p < (short)30000), any(ux > uy), all(uq >= up),
			 x.s12 != y.s12, convert_char4(isequal(f.s0123,
							       g.s0123)),
			 convert_char2(p.s45 < q.s45), x.s3 < y.s3,
			 ux.s3 < uy.s3);
}
