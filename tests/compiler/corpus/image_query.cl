/* SPDX-License-Identifier: MIT */
/*
 * The image queries of OpenCL 1.2 6.12.14.5 on every image type: they read
 * the image words the runtime writes for each image argument.
 */
kernel void image_query(read_only image2d_t a, global int *out,
			write_only image2d_t w, read_only image3d_t b,
			read_only image2d_array_t c,
			read_only image1d_buffer_t d,
			read_only image1d_array_t e, read_only image1d_t f)
{
	int4 d3 = get_image_dim(b);
	int2 dc = get_image_dim(c);
	int2 dw = get_image_dim(w);

	out[0] = get_image_width(a);
	out[1] = get_image_height(a);
	out[2] = get_image_channel_data_type(a);
	out[3] = get_image_channel_order(a);
	out[4] = d3.x;
	out[5] = d3.y;
	out[6] = d3.z;
	out[7] = d3.w;
	out[8] = get_image_depth(b);
	out[9] = get_image_channel_order(b);
	out[10] = (int)get_image_array_size(c);
	out[11] = dc.x;
	out[12] = dc.y;
	out[13] = get_image_width(d);
	out[14] = get_image_channel_data_type(d);
	out[15] = (int)get_image_array_size(e);
	out[16] = get_image_width(e);
	out[17] = get_image_width(f);
	out[18] = get_image_channel_order(f);
	out[19] = dw.x * 65536 + dw.y;
	out[20] = get_image_channel_data_type(w);
}
