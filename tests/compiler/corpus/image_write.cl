/* SPDX-License-Identifier: MIT */
/*
 * write_imagef / write_imagei / write_imageui (OpenCL 1.2 6.12.14.4) into
 * a 2D RGBA8 UNORM image, a 2D R16 SINT image and the two layers of a 2D
 * array of RG16 UINT: ST_IMAGE on each image's attribute.
 */
kernel void image_write(write_only image2d_t a, write_only image2d_t b,
			write_only image2d_array_t c,
			global const float4 *f, global const int4 *i)
{
	int x = get_global_id(0), y = get_global_id(1);
	int n = y * (int)get_global_size(0) + x;

	write_imagef(a, (int2)(x, y), f[n]);
	write_imagei(b, (int2)(x, y), i[n]);
	write_imageui(c, (int4)(x, y >> 1, y & 1, 0), as_uint4(i[n]));
}
