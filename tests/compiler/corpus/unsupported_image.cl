/* SPDX-License-Identifier: MIT */
/* Negative case: images are outside the supported set (a build error). */
kernel void unsupported_image(read_only image2d_t img, sampler_t s,
			      global float4 *out)
{
	out[get_global_id(0)] = read_imagef(img, s, (int2)(0, 0));
}
