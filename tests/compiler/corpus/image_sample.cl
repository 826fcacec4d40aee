/* SPDX-License-Identifier: MIT */
/*
 * read_imagef / read_imagei / read_imageui with a sampler (OpenCL 1.2
 * 6.12.14.2): a sampler argument (normalized, clamp to edge, linear) on a
 * 2D RGBA8 UNORM image at float coordinates, and a program-scope
 * constant sampler (unnormalized, clamp, nearest) at integer coordinates,
 * some outside the image, on it, on a 2D array of RG16 UINT and on a 2D
 * R16 SINT image: texture words on the images' texture indices.
 */
const sampler_t near_clamp = CLK_NORMALIZED_COORDS_FALSE |
			     CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void image_sample(read_only image2d_t a, sampler_t lin,
			 read_only image2d_array_t c,
			 global const float2 *st, global float4 *fl,
			 global float4 *fn, global uint4 *uc,
			 global int4 *ib, read_only image2d_t b)
{
	int x = get_global_id(0), y = get_global_id(1);
	int n = y * (int)get_global_size(0) + x;

	fl[n] = read_imagef(a, lin, st[n]);
	fn[n] = read_imagef(a, near_clamp, (int2)(x - 2, y - 1));
	uc[n] = read_imageui(c, near_clamp, (int4)(x, y >> 1, y & 1, 0));
	ib[n] = read_imagei(b, near_clamp, (int2)(x + 1, y));
}
