/* SPDX-License-Identifier: MIT */
/*
 * Sampled reads of the other dimensions (OpenCL 1.2 6.12.14.2): a 1D
 * image, a 1D array (the layer in the texture word's w) and a 3D image,
 * all R32F, with an inline sampler literal (unnormalized, clamp to edge,
 * nearest) at integer coordinates, some past the edges.
 */
kernel void image_sample_dims(read_only image1d_t a,
			      read_only image1d_array_t b,
			      read_only image3d_t c, global float4 *out)
{
	const sampler_t s = CLK_NORMALIZED_COORDS_FALSE |
			    CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
	int x = get_global_id(0), y = get_global_id(1);
	int n = y * (int)get_global_size(0) + x;

	out[3 * n] = read_imagef(a, s, x + y - 2);
	out[3 * n + 1] = read_imagef(b, s, (int2)(x, y));
	out[3 * n + 2] = read_imagef(c, s, (int4)(x - 1, y & 1, y >> 1, 0));
}
