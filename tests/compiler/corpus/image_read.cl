/* SPDX-License-Identifier: MIT */
/*
 * read_imagef / read_imagei / read_imageui without a sampler (OpenCL 1.2
 * 6.12.14.2, integer coordinates) from a 2D RGBA8 UNORM image, a 2D R16
 * SINT image, a 2D array of RG16 UINT, a 3D RGBA32F image and a 1D
 * buffer image of R32F: LD_IMAGE on each image's attribute.
 */
kernel void image_read(read_only image2d_t a, read_only image2d_t b,
		       read_only image2d_array_t c, read_only image3d_t d,
		       read_only image1d_buffer_t e, global float4 *fa,
		       global int4 *ib, global uint4 *uc, global float4 *fd,
		       global float4 *fe)
{
	int x = get_global_id(0), y = get_global_id(1);
	int n = y * (int)get_global_size(0) + x;

	fa[n] = read_imagef(a, (int2)(x, y));
	ib[n] = read_imagei(b, (int2)(x, y));
	uc[n] = read_imageui(c, (int4)(x, y >> 1, y & 1, 0));
	fd[n] = read_imagef(d, (int4)(x, y & 1, y >> 1, 0));
	fe[n] = read_imagef(e, n);
}
