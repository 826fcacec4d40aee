/* SPDX-License-Identifier: MIT */
/*
 * cl_khr_fp16's half images (OpenCL 1.2 extensions 9.5.8): read_imageh
 * without a sampler from a 2D RGBA32F image (each channel rounded to the
 * nearest half) and write_imageh to another, of the half texel doubled
 * (exact in half and in float).
 */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void image_half(read_only image2d_t a, write_only image2d_t b,
		       global half4 *out)
{
	int x = get_global_id(0), y = get_global_id(1);
	half4 h = read_imageh(a, (int2)(x, y));

	out[y * (int)get_global_size(0) + x] = h;
	write_imageh(b, (int2)(x, y), h * (half)2);
}
