/* SPDX-License-Identifier: MIT */
/*
 * A 3x3 Gaussian blur of an RGBA image through images and a sampler (the
 * corpus's image_blur.cl: four bilinear samples with clamp to edge), read
 * back with clEnqueueReadImage and checked against a CPU reference that
 * samples as OpenCL 1.2 §8.2 says: unnormalized coordinate u, linear
 * filtering between texels floor(u - 0.5) and the next with weight
 * frac(u - 0.5), indices clamped to the edge, UNORM8 texels as c / 255.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sample.h"

#define W 128
#define H 96

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Channel @c of texel (@x, @y) as read_imagef returns it, clamped. */
static double texel(const uint8_t *img, int x, int y, int c)
{
	return img[(clampi(y, 0, H - 1) * W + clampi(x, 0, W - 1)) * 4 + c] /
	       255.0;
}

/* read_imagef(src, linear clamp-to-edge sampler, (u, v)), channel c. */
static float sample_linear(const uint8_t *img, float u, float v, int c)
{
	double fu = u - 0.5, fv = v - 0.5;
	int i0 = (int)floor(fu), j0 = (int)floor(fv);
	double a = fu - floor(fu), b = fv - floor(fv);

	return (float)((1 - a) * (1 - b) * texel(img, i0, j0, c) +
		       a * (1 - b) * texel(img, i0 + 1, j0, c) +
		       (1 - a) * b * texel(img, i0, j0 + 1, c) +
		       a * b * texel(img, i0 + 1, j0 + 1, c));
}

int main(void)
{
	struct sample s;
	const cl_image_format rgba8 = { CL_RGBA, CL_UNORM_INT8 };
	const cl_image_format rgbaf = { CL_RGBA, CL_FLOAT };
	const cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D,
				     .image_width = W, .image_height = H };
	size_t origin[3] = { 0 }, region[3] = { W, H, 1 };
	size_t global[2] = { W, H };
	uint8_t *img;
	float *want, *got;
	cl_mem src, dst;
	cl_kernel k;
	cl_bool images = CL_FALSE;
	cl_int err;
	bool ok;

	sample_init(&s, "image_blur");
	sample_set_size(&s, "%dx%d", W, H);
	SAMPLE_CL(&s, clGetDeviceInfo(s.device, CL_DEVICE_IMAGE_SUPPORT,
				      sizeof(images), &images, NULL));
	if (!images) {
		printf("the device has no image support\n");
		sample_fail(&s);
	}
	img = sample_alloc(&s, W * H * 4);
	want = sample_alloc(&s, W * H * 4 * sizeof(float));
	got = sample_alloc(&s, W * H * 4 * sizeof(float));
	/* Noise over diagonal bands: every direction has edges. */
	for (int i = 0; i < W * H * 4; i++) {
		int x = i / 4 % W, y = i / 4 / W;

		img[i] = (uint8_t)(((x + 2 * y) / 8 % 2 ? 180 : 40) +
				   (int)(sample_rand() % 64));
	}
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			for (int c = 0; c < 4; c++) {
				float u = (float)x, v = (float)y;
				/* The kernel's order of additions. */
				float sum = sample_linear(img, u, v, c) +
					    sample_linear(img, u + 1, v, c);

				sum += sample_linear(img, u, v + 1, c);
				sum += sample_linear(img, u + 1, v + 1, c);
				want[(y * W + x) * 4 + c] = sum * 0.25f;
			}

	k = sample_kernel(&s, "image_blur.cl", "image_blur");
	src = clCreateImage(s.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			    &rgba8, &desc, img, &err);
	SAMPLE_CL(&s, err);
	dst = clCreateImage(s.context, CL_MEM_WRITE_ONLY, &rgbaf, &desc, NULL,
			    &err);
	SAMPLE_CL(&s, err);
	SAMPLE_ARG(&s, k, 0, src);
	SAMPLE_ARG(&s, k, 1, dst);
	sample_run(&s, k, 2, global, NULL);
	SAMPLE_CL(&s, clEnqueueReadImage(s.queue, dst, CL_TRUE, origin, region,
					 0, 0, got, 0, NULL, NULL));
	/* The filter's weights here are halves, exact in the hardware's 8
	 * fractional bits; the rest is float rounding. */
	ok = sample_check_floats("blurred", want, got, NULL, W * H * 4, 1e-6f);

	clReleaseMemObject(src);
	clReleaseMemObject(dst);
	clReleaseKernel(k);
	free(img);
	free(want);
	free(got);
	return sample_finish(&s, ok);
}
