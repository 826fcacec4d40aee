/* SPDX-License-Identifier: MIT */
/* select, bitselect, any/all and the float classification functions. */
kernel void select_relational(global const int4 *a, global const float4 *b,
			      global int *out)
{
	size_t i = get_global_id(0);
	int4 x = a[i];
	float4 f = b[i];
	int4 s = select(x, x.wzyx, x < 0);
	float4 g = select(f, -f, x.yzwx);

	out[12 * i] = s.x ^ s.y ^ s.z ^ s.w;
	out[12 * i + 1] = as_int(g.x) ^ as_int(g.y) ^ as_int(g.z) ^ as_int(g.w);
	out[12 * i + 2] = bitselect(x.x, x.y, x.z);
	out[12 * i + 3] = any(x < 0) + 2 * all(x < 0) + 4 * any(x.xy > 0);
	out[12 * i + 4] = isnan(f.x) + 2 * isinf(f.y) + 4 * isfinite(f.z);
	out[12 * i + 5] = signbit(f.w) + 2 * isless(f.x, f.y) +
			  4 * isunordered(f.z, f.w);
	vstore4(isnan(f), 0, out + 12 * i + 6);
	out[12 * i + 10] = any(isinf(f));
	out[12 * i + 11] = all(isfinite(f));
}
