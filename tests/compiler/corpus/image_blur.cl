// SPDX-License-Identifier: MIT
// A 3x3 Gaussian blur (weights 1 2 1 by 1 2 1, over 16) through the
// texture unit's bilinear filter: a linear sample at the corner between
// four texels averages them, so four samples at the corners around a
// texel sum to its Gaussian neighbourhood. Clamp to edge repeats the
// border texels, as the CPU reference of tests/samples/image_blur.c does.
const sampler_t corners = CLK_NORMALIZED_COORDS_FALSE |
			  CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

kernel void image_blur(read_only image2d_t src, write_only image2d_t dst)
{
	int x = get_global_id(0), y = get_global_id(1);
	float2 c = (float2)((float)x, (float)y);
	float4 sum = read_imagef(src, corners, c) +
		     read_imagef(src, corners, c + (float2)(1.0f, 0.0f)) +
		     read_imagef(src, corners, c + (float2)(0.0f, 1.0f)) +
		     read_imagef(src, corners, c + (float2)(1.0f, 1.0f));

	write_imagef(dst, (int2)(x, y), sum * 0.25f);
}
