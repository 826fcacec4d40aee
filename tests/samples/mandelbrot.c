/* SPDX-License-Identifier: MIT */
/*
 * Mandelbrot (the corpus's mandelbrot.cl): iteration counts over
 * [-2.25, 0.75] x [-1.125, 1.125], compared with the same float iteration
 * on the CPU, then written as a palette PNG (default mandelbrot.png in the
 * current folder, or the path given) and read back to check the file.
 *
 * The image is computed in bands of rows, one launch each with a global
 * offset, all enqueued before the first wait, as a renderer keeps the GPU
 * busy while no single job runs long (sample.h).
 */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

#include "png.h"
#include "sample.h"

#define W 256u
#define H 192u
#define MAX_ITER 64u
#define BAND 16u	/* rows per launch: divides H, a multiple of 8 */
/*
 * Pixels allowed to differ from the CPU: none should (no contraction, the
 * same operations in the same order), but a count that differs on a point
 * at the set's chaotic edge is not a wrong GPU.
 */
#define MAX_DIFFERENT (W * H / 1000)

static const float origin_x = -2.25f, origin_y = -1.125f, step = 3.0f / W;

static uint32_t iterations(unsigned int gx, unsigned int gy)
{
	float cx = origin_x + (float)gx * step;
	float cy = origin_y + (float)gy * step;
	float x = 0, y = 0;
	uint32_t n = 0;

	while (n < MAX_ITER && x * x + y * y <= 4.0f) {
		float xt = x * x - y * y + cx;

		y = 2.0f * x * y + cy;
		x = xt;
		n++;
	}
	return n;
}

/*
 * Blue through cyan and yellow by escape time, the set black. The square root
 * spreads the many low counts over more of the colours.
 */
static void make_palette(uint8_t *rgb)
{
	for (unsigned int i = 0; i <= MAX_ITER; i++) {
		double t = sqrt((double)i / MAX_ITER), u = 1 - t;

		rgb[3 * i] = (uint8_t)(9 * u * t * t * t * 255);
		rgb[3 * i + 1] = (uint8_t)(15 * u * u * t * t * 255);
		rgb[3 * i + 2] = (uint8_t)(8.5 * u * u * u * t * 255);
	}
	rgb[3 * MAX_ITER] = rgb[3 * MAX_ITER + 1] = rgb[3 * MAX_ITER + 2] = 0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "mandelbrot.png";
	struct sample s;
	uint32_t *counts, different = 0;
	uint8_t *pixels, palette[3 * (MAX_ITER + 1)];
	size_t global[2] = { W, BAND }, local[2] = { 8, 8 };
	cl_event bands[H / BAND];
	cl_uint max_iter = MAX_ITER;
	cl_mem out_buf;
	cl_kernel k;
	bool ok;

	sample_init(&s, "mandelbrot");
	sample_set_size(&s, "%ux%u", W, H);
	counts = sample_alloc(&s, W * H * sizeof(uint32_t));
	pixels = sample_alloc(&s, W * H);

	k = sample_kernel(&s, "mandelbrot.cl", "mandelbrot");
	out_buf = sample_buffer(&s, CL_MEM_WRITE_ONLY, W * H * sizeof(uint32_t),
				NULL);
	SAMPLE_ARG(&s, k, 0, out_buf);
	SAMPLE_ARG(&s, k, 1, origin_x);
	SAMPLE_ARG(&s, k, 2, origin_y);
	SAMPLE_ARG(&s, k, 3, step);
	SAMPLE_ARG(&s, k, 4, max_iter);
	for (unsigned int b = 0; b < H / BAND; b++) {
		size_t offset[2] = { 0, b * BAND };

		bands[b] = sample_enqueue(&s, k, 2, offset, global, local);
	}
	for (unsigned int b = 0; b < H / BAND; b++)
		sample_wait(&s, bands[b]);
	sample_read(&s, out_buf, W * H * sizeof(uint32_t), counts);

	for (unsigned int gy = 0; gy < H; gy++) {
		for (unsigned int gx = 0; gx < W; gx++) {
			uint32_t want = iterations(gx, gy);
			uint32_t got = counts[gy * W + gx];

			if (got != want && different++ < 8)
				printf("  pixel (%u, %u): %u iterations, the "
				       "CPU counts %u\n", gx, gy, got, want);
			pixels[gy * W + gx] =
				(uint8_t)(got > MAX_ITER ? MAX_ITER : got);
		}
	}
	ok = different <= MAX_DIFFERENT;
	printf("mandelbrot: %u of %u pixels differ from the CPU (at most %u "
	       "may)\n", different, W * H, MAX_DIFFERENT);

	make_palette(palette);
	if (!png_write_indexed(path, pixels, W, H, palette, MAX_ITER + 1) ||
	    !png_verify_indexed(path, pixels, W, H)) {
		printf("mandelbrot: writing %s failed\n", path);
		ok = false;
	} else {
		printf("mandelbrot: wrote %s\n", path);
	}

	clReleaseMemObject(out_buf);
	clReleaseKernel(k);
	free(counts);
	free(pixels);
	return sample_finish(&s, ok);
}
