/* SPDX-License-Identifier: MIT */
/*
 * Sobel edge magnitude (the corpus's sobel.cl) on a generated 8-bit image:
 * a gradient with a bright disc, a dark square and some noise, so there
 * are edges of every direction; checked exactly against the CPU.
 */
#include <stdlib.h>

#include "sample.h"

#define W 256
#define H 256

static uint8_t image_at(int x, int y)
{
	int dx = x - W * 5 / 8, dy = y - H * 2 / 5, r = W / 4;
	int v = (x + y) * 127 / (W + H);

	if (dx * dx + dy * dy < r * r)
		v = 230 - v;
	if (x >= W / 8 && x < W * 3 / 8 && y >= H * 5 / 8 && y < H * 7 / 8)
		v = 20;
	return (uint8_t)(v + (int)(sample_rand() & 15));
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int pixel(const uint8_t *img, int x, int y)
{
	return img[clampi(y, 0, H - 1) * W + clampi(x, 0, W - 1)];
}

static uint32_t sobel_at(const uint8_t *img, int x, int y)
{
#define P(dx, dy) pixel(img, x + (dx), y + (dy))
	int gx = -P(-1, -1) + P(1, -1) - 2 * P(-1, 0) + 2 * P(1, 0) -
		 P(-1, 1) + P(1, 1);
	int gy = -P(-1, -1) - 2 * P(0, -1) - P(1, -1) + P(-1, 1) +
		 2 * P(0, 1) + P(1, 1);
#undef P
	return (uint32_t)clampi(abs(gx) + abs(gy), 0, 255);
}

int main(void)
{
	struct sample s;
	uint8_t *img, *out;
	uint32_t *want, *got;
	size_t global[2] = { W, H }, local[2] = { 8, 8 };
	cl_mem img_buf, out_buf;
	cl_kernel k;
	bool ok;

	sample_init(&s, "sobel");
	sample_set_size(&s, "%dx%d", W, H);
	img = sample_alloc(&s, W * H);
	out = sample_alloc(&s, W * H);
	want = sample_alloc(&s, W * H * sizeof(uint32_t));
	got = sample_alloc(&s, W * H * sizeof(uint32_t));
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			img[y * W + x] = image_at(x, y);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			want[y * W + x] = sobel_at(img, x, y);

	k = sample_kernel(&s, "sobel.cl", "sobel");
	img_buf = sample_buffer(&s, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				W * H, img);
	out_buf = sample_buffer(&s, CL_MEM_WRITE_ONLY, W * H, NULL);
	SAMPLE_ARG(&s, k, 0, img_buf);
	SAMPLE_ARG(&s, k, 1, out_buf);
	sample_run(&s, k, 2, global, local);
	sample_read(&s, out_buf, W * H, out);

	for (int i = 0; i < W * H; i++)
		got[i] = out[i];
	ok = sample_check_uints("edges", want, got, W * H);

	clReleaseMemObject(img_buf);
	clReleaseMemObject(out_buf);
	clReleaseKernel(k);
	free(img);
	free(out);
	free(want);
	free(got);
	return sample_finish(&s, ok);
}
