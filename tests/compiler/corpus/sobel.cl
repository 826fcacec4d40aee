/* SPDX-License-Identifier: MIT */
/*
 * Seed: Sobel edge magnitude |gx| + |gy| (saturated to 255) on a uchar
 * image, edges clamped.
 */
static int pixel(global const uchar *img, int x, int y, int w, int h)
{
	x = clamp(x, 0, w - 1);
	y = clamp(y, 0, h - 1);
	return img[y * w + x];
}

kernel void sobel(global const uchar *img, global uchar *out)
{
	int x = get_global_id(0), y = get_global_id(1);
	int w = get_global_size(0), h = get_global_size(1);
	int gx = -pixel(img, x - 1, y - 1, w, h) + pixel(img, x + 1, y - 1, w, h)
		 - 2 * pixel(img, x - 1, y, w, h) + 2 * pixel(img, x + 1, y, w, h)
		 - pixel(img, x - 1, y + 1, w, h) + pixel(img, x + 1, y + 1, w, h);
	int gy = -pixel(img, x - 1, y - 1, w, h) - 2 * pixel(img, x, y - 1, w, h)
		 - pixel(img, x + 1, y - 1, w, h) + pixel(img, x - 1, y + 1, w, h)
		 + 2 * pixel(img, x, y + 1, w, h) + pixel(img, x + 1, y + 1, w, h);

	out[y * w + x] = convert_uchar_sat(abs(gx) + abs(gy));
}
