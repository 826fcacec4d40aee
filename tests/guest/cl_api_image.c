/* SPDX-License-Identifier: MIT */
/*
 * Images and samplers (spec §5.3, §5.5, §6.12.14) on every image type: a
 * kernel reads each texel (through a sampler, or without one for 1D
 * buffer images) and writes a function of it to a second image (a buffer
 * for 3D images: OpenCL 1.2 writes them only with cl_khr_3d_image_writes);
 * the image commands (write, read with pitches, fill, copies between
 * images and buffers, map) on each type against a CPU copy of the image;
 * the image queries in kernels; integer images. Every result is checked
 * against the same operation done by the CPU.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

static const char image_source[] =
	"const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE |\n"
	"	CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;\n"
	"float4 f(float4 v) { return v * 0.5f + (float4)(0.25f, 0, 0.125f,"
	" 0.5f); }\n"
	"kernel void t1d(read_only image1d_t s, write_only image1d_t d) {\n"
	"	int x = get_global_id(0);\n"
	"	write_imagef(d, x, f(read_imagef(s, nearest, x)));\n"
	"}\n"
	"kernel void t1db(read_only image1d_buffer_t s,\n"
	"		  write_only image1d_buffer_t d) {\n"
	"	int x = get_global_id(0);\n"
	"	write_imagef(d, x, f(read_imagef(s, x)));\n"
	"}\n"
	"kernel void t1da(read_only image1d_array_t s,\n"
	"		  write_only image1d_array_t d) {\n"
	"	int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
	"	write_imagef(d, p, f(read_imagef(s, nearest, p)));\n"
	"}\n"
	"kernel void t2d(read_only image2d_t s, sampler_t smp,\n"
	"		 write_only image2d_t d) {\n"
	"	int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
	"	write_imagef(d, p, f(read_imagef(s, smp, p)));\n"
	"}\n"
	"kernel void t2da(read_only image2d_array_t s,\n"
	"		  write_only image2d_array_t d) {\n"
	"	int4 p = (int4)(get_global_id(0), get_global_id(1),\n"
	"			get_global_id(2), 0);\n"
	"	write_imagef(d, p, f(read_imagef(s, nearest, p)));\n"
	"}\n"
	"kernel void t3d(read_only image3d_t s, global float4 *d) {\n"
	"	int4 p = (int4)(get_global_id(0), get_global_id(1),\n"
	"			get_global_id(2), 0);\n"
	"	int w = get_image_width(s), h = get_image_height(s);\n"
	"	d[(p.z * h + p.y) * w + p.x] =\n"
	"		f(read_imagef(s, nearest, p));\n"
	"}\n"
	"kernel void uint2d(read_only image2d_t s, write_only image2d_t d) {\n"
	"	int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
	"	uint4 v = read_imageui(s, p);\n"
	"	write_imageui(d, p, v * 3u + (uint4)(p.x, p.y, 1, 2));\n"
	"}\n"
	"kernel void formats(read_only image2d_t s, write_only image2d_t d,\n"
	"		     global float4 *o) {\n"
	"	int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
	"	float4 v = read_imagef(s, nearest, p);\n"
	"	o[p.y * get_image_width(s) + p.x] = v;\n"
	"	write_imagef(d, p, v);\n"
	"}\n"
	"kernel void sample_at(read_only image2d_t s, sampler_t smp,\n"
	"		      global const float2 *c, global float4 *o) {\n"
	"	int i = get_global_id(0);\n"
	"	o[i] = read_imagef(s, smp, c[i]);\n"
	"}\n"
	"kernel void queries(read_only image2d_array_t a,\n"
	"		     read_only image3d_t b, write_only image1d_t c,\n"
	"		     global int *o) {\n"
	"	o[0] = get_image_width(a); o[1] = get_image_height(a);\n"
	"	o[2] = (int)get_image_array_size(a);\n"
	"	o[3] = get_image_channel_data_type(a);\n"
	"	o[4] = get_image_channel_order(a);\n"
	"	o[5] = get_image_depth(b); o[6] = get_image_dim(b).y;\n"
	"	o[7] = get_image_width(c);\n"
	"	o[8] = get_image_channel_order(c);\n"
	"}\n";

static cl_program image_program(void)
{
	static cl_program prog;

	if (!prog)
		prog = cl_api_build(api.ctx, image_source, NULL);
	return prog;
}

static cl_kernel image_kernel(const char *name)
{
	cl_program p = image_program();
	cl_int err = CL_SUCCESS;
	cl_kernel k = p ? clCreateKernel(p, name, &err) : NULL;

	if (!k)
		CHECK_FAIL_AT(__FILE__, __LINE__, "kernel %s: %s", name,
			      cl_err_name(err));
	return k;
}

/* The image types, and the sizes each test uses for them. */
struct shape {
	cl_mem_object_type type;
	const char *kernel;
	size_t w, h, n;              /* width; rows or layers; slices */
};

static const struct shape shapes[] = {
	{ CL_MEM_OBJECT_IMAGE1D, "t1d", 37, 1, 1 },
	{ CL_MEM_OBJECT_IMAGE1D_BUFFER, "t1db", 40, 1, 1 },
	{ CL_MEM_OBJECT_IMAGE1D_ARRAY, "t1da", 13, 3, 1 },
	{ CL_MEM_OBJECT_IMAGE2D, "t2d", 11, 7, 1 },
	{ CL_MEM_OBJECT_IMAGE2D_ARRAY, "t2da", 6, 5, 3 },
	{ CL_MEM_OBJECT_IMAGE3D, "t3d", 5, 4, 3 },
};

/* An image of @s's type and sizes (the buffer of a 1D buffer image in
 * *@buffer, to be released by the caller). */
static cl_mem make_image(const struct shape *s, cl_mem_flags flags,
			 const cl_image_format *fmt, cl_mem *buffer)
{
	cl_image_desc d = { .image_type = s->type, .image_width = s->w };
	cl_int err = CL_SUCCESS;
	cl_mem img;

	*buffer = NULL;
	switch (s->type) {
	case CL_MEM_OBJECT_IMAGE1D_ARRAY:
		d.image_array_size = s->h;
		break;
	case CL_MEM_OBJECT_IMAGE2D:
		d.image_height = s->h;
		break;
	case CL_MEM_OBJECT_IMAGE2D_ARRAY:
		d.image_height = s->h;
		d.image_array_size = s->n;
		break;
	case CL_MEM_OBJECT_IMAGE3D:
		d.image_height = s->h;
		d.image_depth = s->n;
		break;
	case CL_MEM_OBJECT_IMAGE1D_BUFFER:
		*buffer = cl_api_buffer(flags, s->w * 16, NULL);
		d.buffer = *buffer;
		break;
	default:
		break;
	}
	img = clCreateImage(api.ctx, flags, fmt, &d, NULL, &err);
	if (!img)
		CHECK_FAIL_AT(__FILE__, __LINE__, "clCreateImage(0x%x): %s",
			      (unsigned int)s->type, cl_err_name(err));
	return img;
}

static size_t texels(const struct shape *s)
{
	return s->w * s->h * s->n;
}

static uint8_t texel_byte(size_t i, unsigned int seed)
{
	return (uint8_t)(i * 37 + seed * 101 + (i >> 5));
}

/* Kernels read every texel and write f(texel) (image_source's f). */
TEST(kernels_read_and_write_every_type)
{
	const cl_image_format u8 = { CL_RGBA, CL_UNORM_INT8 };
	const cl_image_format f32 = { CL_RGBA, CL_FLOAT };
	const float add[4] = { 0.25f, 0, 0.125f, 0.5f };
	cl_sampler smp = clCreateSampler(api.ctx, CL_FALSE, CL_ADDRESS_NONE,
					 CL_FILTER_NEAREST, NULL);

	REQUIRE(smp);
	for (size_t t = 0; t < sizeof(shapes) / sizeof(shapes[0]); t++) {
		const struct shape *s = &shapes[t];
		size_t n = texels(s), origin[3] = { 0 };
		size_t region[3] = { s->w, s->h, s->n };
		size_t global[3] = { s->w, s->h, s->n };
		bool to_buffer = s->type == CL_MEM_OBJECT_IMAGE3D;
		uint8_t *in = malloc(n * 4);
		float *out = malloc(n * 16);
		cl_mem sb, db = NULL, src, dst;
		cl_kernel k = image_kernel(s->kernel);
		unsigned int bad = 0;

		REQUIRE(in && out && k);
		for (size_t i = 0; i < n * 4; i++)
			in[i] = texel_byte(i, (unsigned int)t);
		src = make_image(s, CL_MEM_READ_ONLY, &u8, &sb);
		dst = to_buffer ?
		      cl_api_buffer(CL_MEM_WRITE_ONLY, n * 16, NULL) :
		      make_image(s, CL_MEM_WRITE_ONLY, &f32, &db);
		REQUIRE(src && dst);
		CHECK_ERR(clEnqueueWriteImage(api.queue, src, CL_FALSE, origin,
					      region, 0, 0, in, 0, NULL, NULL),
			  CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(k, 0, sizeof(src), &src), CL_SUCCESS);
		if (s->type == CL_MEM_OBJECT_IMAGE2D) {
			CHECK_ERR(clSetKernelArg(k, 1, sizeof(smp), &smp),
				  CL_SUCCESS);
			CHECK_ERR(clSetKernelArg(k, 2, sizeof(dst), &dst),
				  CL_SUCCESS);
		} else {
			CHECK_ERR(clSetKernelArg(k, 1, sizeof(dst), &dst),
				  CL_SUCCESS);
		}
		CHECK_ERR(RUN_KERNEL(api.queue, k, s->n > 1 ? 3 :
				     s->h > 1 ? 2 : 1, global, NULL),
			  CL_SUCCESS);
		if (to_buffer)
			CHECK_ERR(clEnqueueReadBuffer(api.queue, dst, CL_TRUE,
						      0, n * 16, out, 0, NULL,
						      NULL), CL_SUCCESS);
		else
			CHECK_ERR(clEnqueueReadImage(api.queue, dst, CL_TRUE,
						     origin, region, 0, 0, out,
						     0, NULL, NULL),
				  CL_SUCCESS);
		for (size_t i = 0; i < n * 4; i++) {
			float want = in[i] / 255.0f * 0.5f + add[i % 4];

			if (fabsf(out[i] - want) > 1e-6f && bad++ < 4)
				printf("  type 0x%x texel %zu channel %zu: %g, "
				       "expected %g\n", (unsigned int)s->type,
				       i / 4, i % 4, out[i], want);
		}
		CHECK_EQ(bad, 0);
		clReleaseKernel(k);
		clReleaseMemObject(src);
		clReleaseMemObject(dst);
		if (sb)
			clReleaseMemObject(sb);
		if (db)
			clReleaseMemObject(db);
		free(in);
		free(out);
	}
	clReleaseSampler(smp);
}

/* read_imageui / write_imageui on a two-channel 16-bit image. */
TEST(integer_images)
{
	const cl_image_format fmt = { CL_RG, CL_UNSIGNED_INT16 };
	const struct shape s = { CL_MEM_OBJECT_IMAGE2D, "uint2d", 9, 6, 1 };
	size_t origin[3] = { 0 }, region[3] = { 9, 6, 1 };
	uint16_t in[9 * 6 * 2], out[9 * 6 * 2];
	cl_kernel k = image_kernel("uint2d");
	cl_mem none, src, dst;
	unsigned int bad = 0;

	REQUIRE(k);
	for (size_t i = 0; i < 9 * 6 * 2; i++)
		in[i] = (uint16_t)(i * 977 + 5);
	src = make_image(&s, CL_MEM_READ_ONLY, &fmt, &none);
	dst = make_image(&s, CL_MEM_WRITE_ONLY, &fmt, &none);
	REQUIRE(src && dst);
	CHECK_ERR(clEnqueueWriteImage(api.queue, src, CL_FALSE, origin, region,
				      0, 0, in, 0, NULL, NULL), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(src), &src), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(dst), &dst), CL_SUCCESS);
	CHECK_ERR(RUN_KERNEL(api.queue, k, 2, region, NULL), CL_SUCCESS);
	CHECK_ERR(clEnqueueReadImage(api.queue, dst, CL_TRUE, origin, region,
				     0, 0, out, 0, NULL, NULL), CL_SUCCESS);
	for (size_t i = 0; i < 9 * 6 * 2; i++) {
		size_t x = i / 2 % 9, y = i / 18;
		/* 16-bit channels saturate (§8.3.2). */
		uint32_t v = in[i] * 3u + (i % 2 ? (uint32_t)y : (uint32_t)x);

		bad += out[i] != (v > 65535 ? 65535 : v);
	}
	CHECK_EQ(bad, 0);
	clReleaseKernel(k);
	clReleaseMemObject(src);
	clReleaseMemObject(dst);
}

/* The image words: sizes, format, order in kernels. */
TEST(queries_in_kernels)
{
	const cl_image_format rg = { CL_RG, CL_SNORM_INT16 };
	const cl_image_format a = { CL_A, CL_UNORM_INT8 };
	const struct shape sa = { CL_MEM_OBJECT_IMAGE2D_ARRAY, "", 7, 3, 4 };
	const struct shape sb = { CL_MEM_OBJECT_IMAGE3D, "", 2, 5, 6 };
	const struct shape sc = { CL_MEM_OBJECT_IMAGE1D, "", 300, 1, 1 };
	cl_kernel k = image_kernel("queries");
	cl_mem out = cl_api_buffer(CL_MEM_WRITE_ONLY, 64, NULL);
	cl_mem none, ia, ib, ic;
	cl_int o[9] = { 0 };
	size_t one = 1;

	REQUIRE(k && out);
	ia = make_image(&sa, CL_MEM_READ_ONLY, &rg, &none);
	ib = make_image(&sb, CL_MEM_READ_ONLY, &rg, &none);
	ic = make_image(&sc, CL_MEM_WRITE_ONLY, &a, &none);
	REQUIRE(ia && ib && ic);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(ia), &ia), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(ib), &ib), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(ic), &ic), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 3, sizeof(out), &out), CL_SUCCESS);
	CHECK_ERR(RUN_KERNEL(api.queue, k, 1, &one, &one), CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, out, CL_TRUE, 0, sizeof(o), o,
				      0, NULL, NULL), CL_SUCCESS);
	CHECK_EQ(o[0], 7);
	CHECK_EQ(o[1], 3);
	CHECK_EQ(o[2], 4);
	CHECK_EQ(o[3], CL_SNORM_INT16);
	CHECK_EQ(o[4], CL_RG);
	CHECK_EQ(o[5], 6);
	CHECK_EQ(o[6], 5);
	CHECK_EQ(o[7], 300);
	CHECK_EQ(o[8], CL_A);
	clReleaseKernel(k);
	clReleaseMemObject(ia);
	clReleaseMemObject(ib);
	clReleaseMemObject(ic);
	clReleaseMemObject(out);
}

/*
 * Every channel order the device lists, UNORM8: read_imagef gives the
 * channels §8.3 maps each order to (missing colour 0, missing alpha 1),
 * and write_imagef of what was read stores the same bytes back.
 */
TEST(channel_orders)
{
	static const struct {
		cl_channel_order order;
		unsigned int n;          /* stored channels */
		/* The stored channel each of R, G, B, A reads, or -1 for
		 * 0 and -2 for 1. */
		int from[4];
	} orders[] = {
		{ CL_R, 1, { 0, -1, -1, -2 } },
		{ CL_A, 1, { -1, -1, -1, 0 } },
		{ CL_RG, 2, { 0, 1, -1, -2 } },
		{ CL_RA, 2, { 0, -1, -1, 1 } },
		{ CL_RGBA, 4, { 0, 1, 2, 3 } },
		{ CL_BGRA, 4, { 2, 1, 0, 3 } },
		{ CL_ARGB, 4, { 1, 2, 3, 0 } },
		{ CL_INTENSITY, 1, { 0, 0, 0, 0 } },
		{ CL_LUMINANCE, 1, { 0, 0, 0, -2 } },
	};
	const struct shape s = { CL_MEM_OBJECT_IMAGE2D, "", 5, 3, 1 };
	size_t origin[3] = { 0 }, region[3] = { 5, 3, 1 };
	cl_kernel k = image_kernel("formats");
	cl_mem out = cl_api_buffer(CL_MEM_WRITE_ONLY, 15 * 16, NULL);

	REQUIRE(k && out);
	for (size_t f = 0; f < sizeof(orders) / sizeof(orders[0]); f++) {
		cl_image_format fmt = { orders[f].order, CL_UNORM_INT8 };
		unsigned int n = orders[f].n, bad = 0;
		uint8_t in[15 * 4], back[15 * 4];
		float got[15 * 4];
		cl_mem none, src, dst;

		for (size_t i = 0; i < 15 * n; i++)
			in[i] = texel_byte(i, (unsigned int)f + 3);
		src = make_image(&s, CL_MEM_READ_ONLY, &fmt, &none);
		dst = make_image(&s, CL_MEM_WRITE_ONLY, &fmt, &none);
		REQUIRE(src && dst);
		CHECK_ERR(clEnqueueWriteImage(api.queue, src, CL_FALSE, origin,
					      region, 0, 0, in, 0, NULL, NULL),
			  CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(k, 0, sizeof(src), &src), CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(k, 1, sizeof(dst), &dst), CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(k, 2, sizeof(out), &out), CL_SUCCESS);
		CHECK_ERR(RUN_KERNEL(api.queue, k, 2, region, NULL),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueReadBuffer(api.queue, out, CL_TRUE, 0,
					      sizeof(got), got, 0, NULL, NULL),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueReadImage(api.queue, dst, CL_TRUE, origin,
					     region, 0, 0, back, 0, NULL, NULL),
			  CL_SUCCESS);
		for (size_t t = 0; t < 15; t++) {
			for (int c = 0; c < 4; c++) {
				int from = orders[f].from[c];
				float want = from == -1 ? 0.0f :
					     from == -2 ? 1.0f :
					     in[t * n + from] / 255.0f;

				if (fabsf(got[t * 4 + c] - want) > 1e-6f &&
				    bad++ < 4)
					printf("  order 0x%x texel %zu "
					       "channel %d: %g, expected %g\n",
					       (unsigned int)orders[f].order, t,
					       c, got[t * 4 + c], want);
			}
		}
		/* INTENSITY and LUMINANCE store R; every order its own
		 * bytes. */
		bad += memcmp(back, in, 15 * n) != 0;
		CHECK_EQ(bad, 0);
		clReleaseMemObject(src);
		clReleaseMemObject(dst);
	}
	clReleaseKernel(k);
	clReleaseMemObject(out);
}

/* --- samplers against OpenCL 1.2 §8.2 ---------------------------------- */

#define SW 4
#define SH 4

/* Texel (i, j) of the sampler tests' RGBA FLOAT image: distinct values,
 * (0, 0, 0, 0) outside it (CLK_ADDRESS_CLAMP's border colour for RGBA). */
static void sw_texel(int i, int j, float t[4])
{
	for (int c = 0; c < 4; c++)
		t[c] = i < 0 || j < 0 || i >= SW || j >= SH ? 0.0f :
		       (float)(j * SW + i) + 0.25f * (float)c;
}

/* The unnormalized coordinate and nearest texel index along one axis of
 * size @n for coordinate @s (§8.2.1, §8.2.2's formulas). */
static int nearest_index(cl_addressing_mode am, bool norm, float s, int n)
{
	float u, sp;
	int i;

	switch (am) {
	case CL_ADDRESS_REPEAT:
		u = (s - floorf(s)) * (float)n;
		i = (int)floorf(u);
		return i > n - 1 ? i - n : i;
	case CL_ADDRESS_MIRRORED_REPEAT:
		sp = 2.0f * rintf(0.5f * s);
		sp = fabsf(s - sp);
		u = sp * (float)n;
		i = (int)floorf(u);
		return i < n - 1 ? i : n - 1;
	default:
		u = norm ? s * (float)n : s;
		i = (int)floorf(u);
		if (am == CL_ADDRESS_CLAMP)
			return i < -1 ? -1 : i > n ? n : i;
		return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
	}
}

/* The two texels and weight of linear filtering along one axis. */
static void linear_indices(cl_addressing_mode am, bool norm, float s, int n,
			   int *i0, int *i1, float *a)
{
	float u, sp;

	switch (am) {
	case CL_ADDRESS_REPEAT:
		u = (s - floorf(s)) * (float)n;
		*i0 = (int)floorf(u - 0.5f);
		*i1 = *i0 + 1;
		if (*i0 < 0)
			*i0 += n;
		if (*i1 > n - 1)
			*i1 -= n;
		break;
	case CL_ADDRESS_MIRRORED_REPEAT:
		sp = 2.0f * rintf(0.5f * s);
		sp = fabsf(s - sp);
		u = sp * (float)n;
		*i0 = (int)floorf(u - 0.5f);
		*i1 = *i0 + 1;
		*i0 = *i0 < 0 ? 0 : *i0;
		*i1 = *i1 > n - 1 ? n - 1 : *i1;
		break;
	default:
		u = norm ? s * (float)n : s;
		*i0 = (int)floorf(u - 0.5f);
		*i1 = *i0 + 1;
		if (am == CL_ADDRESS_CLAMP) {
			*i0 = *i0 < -1 ? -1 : *i0 > n ? n : *i0;
			*i1 = *i1 < -1 ? -1 : *i1 > n ? n : *i1;
		} else {
			*i0 = *i0 < 0 ? 0 : *i0 > n - 1 ? n - 1 : *i0;
			*i1 = *i1 < 0 ? 0 : *i1 > n - 1 ? n - 1 : *i1;
		}
		break;
	}
	*a = (u - 0.5f) - floorf(u - 0.5f);
}

static void reference_sample(cl_addressing_mode am, bool norm, bool linear,
			     float s, float t, float out[4])
{
	float t00[4], t10[4], t01[4], t11[4], a, b;
	int i0, i1, j0, j1;

	if (!linear) {
		sw_texel(nearest_index(am, norm, s, SW),
			 nearest_index(am, norm, t, SH), out);
		return;
	}
	linear_indices(am, norm, s, SW, &i0, &i1, &a);
	linear_indices(am, norm, t, SH, &j0, &j1, &b);
	sw_texel(i0, j0, t00);
	sw_texel(i1, j0, t10);
	sw_texel(i0, j1, t01);
	sw_texel(i1, j1, t11);
	for (int c = 0; c < 4; c++)
		out[c] = (float)((1 - a) * (1 - b) * t00[c] +
				 a * (1 - b) * t10[c] +
				 (1 - a) * b * t01[c] + a * b * t11[c]);
}

/*
 * Sampler arguments of each addressing mode, normalized or not, nearest
 * and linear, at coordinates inside, on and beyond the edges (dyadic, so
 * the filter's weights are exact): read_imagef against §8.2's formulas.
 * No coordinate mirrors onto a texel's edge: there §8.2 mirrors the
 * coordinate (-1.0 picks texel 1) where the hardware's GL-style mirrored
 * repeat mirrors the texel index (texel -1 is texel 0).
 * REPEAT and MIRRORED_REPEAT need normalized coordinates (§6.12.14.1).
 */
TEST(sampler_modes)
{
	static const struct {
		cl_bool norm;
		cl_addressing_mode am;
	} modes[] = {
		{ CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE },
		{ CL_FALSE, CL_ADDRESS_CLAMP },
		{ CL_FALSE, CL_ADDRESS_NONE },
		{ CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE },
		{ CL_TRUE, CL_ADDRESS_CLAMP },
		{ CL_TRUE, CL_ADDRESS_REPEAT },
		{ CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT },
	};
	/* Unnormalized coordinates; normalized ones are these / size. */
	static const float cs[][2] = {
		{ 0.5f, 0.5f }, { 1.25f, 2.5f }, { 3.75f, 0.125f },
		{ 2.0f, 1.0f }, { -0.75f, 1.5f }, { 4.5f, 3.25f },
		{ -2.5f, -1.25f }, { 6.25f, 5.5f }, { 1.0f, -0.5f },
	};
	enum { NC = sizeof(cs) / sizeof(cs[0]) };
	const cl_image_format fmt = { CL_RGBA, CL_FLOAT };
	const struct shape sh = { CL_MEM_OBJECT_IMAGE2D, "", SW, SH, 1 };
	size_t origin[3] = { 0 }, region[3] = { SW, SH, 1 }, nc = NC;
	float texels[SW * SH * 4], coords[NC * 2], got[NC * 4];
	cl_kernel k = image_kernel("sample_at");
	cl_mem none, img;
	cl_mem cbuf = cl_api_buffer(CL_MEM_READ_ONLY, sizeof(coords), NULL);
	cl_mem obuf = cl_api_buffer(CL_MEM_WRITE_ONLY, sizeof(got), NULL);

	REQUIRE(k && cbuf && obuf);
	for (int j = 0; j < SH; j++)
		for (int i = 0; i < SW; i++)
			sw_texel(i, j, texels + (j * SW + i) * 4);
	img = make_image(&sh, CL_MEM_READ_ONLY, &fmt, &none);
	REQUIRE(img);
	CHECK_ERR(clEnqueueWriteImage(api.queue, img, CL_TRUE, origin, region,
				      0, 0, texels, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(img), &img), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(cbuf), &cbuf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 3, sizeof(obuf), &obuf), CL_SUCCESS);
	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (int linear = 0; linear < 2; linear++) {
			bool norm = modes[m].norm;
			cl_addressing_mode am = modes[m].am;
			cl_sampler smp = clCreateSampler(api.ctx, norm, am,
							 linear ?
							 CL_FILTER_LINEAR :
							 CL_FILTER_NEAREST,
							 NULL);
			unsigned int bad = 0;

			REQUIRE(smp);
			for (size_t c = 0; c < NC; c++) {
				coords[2 * c] = norm ? cs[c][0] / SW :
						cs[c][0];
				coords[2 * c + 1] = norm ? cs[c][1] / SH :
						    cs[c][1];
			}
			CHECK_ERR(clEnqueueWriteBuffer(api.queue, cbuf,
						       CL_FALSE, 0,
						       sizeof(coords), coords,
						       0, NULL, NULL),
				  CL_SUCCESS);
			CHECK_ERR(clSetKernelArg(k, 1, sizeof(smp), &smp),
				  CL_SUCCESS);
			CHECK_ERR(RUN_KERNEL(api.queue, k, 1, &nc, NULL),
				  CL_SUCCESS);
			CHECK_ERR(clEnqueueReadBuffer(api.queue, obuf, CL_TRUE,
						      0, sizeof(got), got, 0,
						      NULL, NULL), CL_SUCCESS);
			for (size_t c = 0; c < NC; c++) {
				float want[4];
				bool inside = cs[c][0] >= 0 &&
					      cs[c][0] < SW &&
					      cs[c][1] >= 0 && cs[c][1] < SH;

				/* ADDRESS_NONE: only coordinates inside
				 * the image have a defined result. */
				if (am == CL_ADDRESS_NONE && (!inside ||
							      linear))
					continue;
				reference_sample(am, norm, linear,
						 coords[2 * c],
						 coords[2 * c + 1], want);
				for (int ch = 0; ch < 4; ch++) {
					float g = got[c * 4 + ch];

					if (fabsf(g - want[ch]) <= 1e-5f)
						continue;
					if (bad++ < 4)
						printf("  norm %d mode 0x%x "
						       "%s (%g, %g) ch %d: "
						       "%g, expected %g\n",
						       norm, (unsigned int)am,
						       linear ? "linear" :
						       "nearest",
						       coords[2 * c],
						       coords[2 * c + 1], ch,
						       g, want[ch]);
				}
			}
			CHECK_EQ(bad, 0);
			clReleaseSampler(smp);
		}
	}
	clReleaseKernel(k);
	clReleaseMemObject(img);
	clReleaseMemObject(cbuf);
	clReleaseMemObject(obuf);
}

/* --- commands against a CPU copy --------------------------------------- */

/* Texel (x, y, z) of the CPU copy: rows of w, slices of h rows. */
static uint8_t *at(uint8_t *m, const struct shape *s, size_t x, size_t y,
		   size_t z)
{
	return m + ((z * s->h + y) * s->w + x) * 4;
}

/* Copies a region of texels in the CPU copy (regions may not overlap). */
static void model_copy(uint8_t *dst, const size_t d[3], uint8_t *src,
		       const size_t o[3], const size_t r[3],
		       const struct shape *s)
{
	for (size_t z = 0; z < r[2]; z++)
		for (size_t y = 0; y < r[1]; y++)
			memcpy(at(dst, s, d[0], d[1] + y, d[2] + z),
			       at(src, s, o[0], o[1] + y, o[2] + z), r[0] * 4);
}

/* Two regions of the image that do not overlap: left and right halves of
 * the width, each its rows and slices but the first. */
static void halves(const struct shape *s, size_t left[3], size_t right[3],
		   size_t region[3])
{
	left[0] = 0;
	right[0] = s->w / 2;
	left[1] = right[1] = s->h > 1 ? 1 : 0;
	left[2] = right[2] = s->n > 1 ? 1 : 0;
	region[0] = s->w / 2;
	region[1] = s->h > 1 ? s->h - 1 : 1;
	region[2] = s->n > 1 ? s->n - 1 : 1;
}

TEST(commands_on_every_type)
{
	const cl_image_format u8 = { CL_RGBA, CL_UNORM_INT8 };
	const cl_float color[4] = { 0.2f, 0.4f, 0.6f, 0.8f };
	/* round(c * 255) (§8.3.1.1) */
	const uint8_t color_bytes[4] = { 51, 102, 153, 204 };

	for (size_t t = 0; t < sizeof(shapes) / sizeof(shapes[0]); t++) {
		const struct shape *s = &shapes[t];
		size_t n = texels(s), zero[3] = { 0 };
		size_t all[3] = { s->w, s->h, s->n }, l[3], r[3], reg[3];
		size_t row = 0, slice = 0, pitch = s->w * 4 + 12;
		uint8_t *model = malloc(n * 4), *back = malloc(n * 4 + 4096);
		uint8_t *tmp = malloc(n * 4);
		cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, n * 4 + 64, NULL);
		cl_mem ib, ib2, img, img2;
		uint8_t *p;
		cl_int err;
		size_t rows_or_layers;

		REQUIRE(model && back && tmp && buf);
		img = make_image(s, CL_MEM_READ_WRITE, &u8, &ib);
		img2 = make_image(s, CL_MEM_READ_WRITE, &u8, &ib2);
		REQUIRE(img && img2);
		halves(s, l, r, reg);
		for (size_t i = 0; i < n * 4; i++)
			model[i] = texel_byte(i, 7 + (unsigned int)t);
		CHECK_ERR(clEnqueueWriteImage(api.queue, img, CL_FALSE, zero,
					      all, 0, 0, model, 0, NULL, NULL),
			  CL_SUCCESS);
		/* Fill the left half. */
		CHECK_ERR(clEnqueueFillImage(api.queue, img, color, l, reg, 0,
					     NULL, NULL), CL_SUCCESS);
		for (size_t z = 0; z < reg[2]; z++)
			for (size_t y = 0; y < reg[1]; y++)
				for (size_t x = 0; x < reg[0]; x++)
					memcpy(at(model, s, l[0] + x,
						  l[1] + y, l[2] + z),
					       color_bytes, 4);
		/* The left half to the buffer at 64, then into the right
		 * half. */
		CHECK_ERR(clEnqueueCopyImageToBuffer(api.queue, img, buf, l,
						     reg, 64, 0, NULL, NULL),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueCopyBufferToImage(api.queue, buf, img, 64, r,
						     reg, 0, NULL, NULL),
			  CL_SUCCESS);
		model_copy(model, r, model, l, reg, s);
		/* Map the right half for writing and invert it. */
		p = clEnqueueMapImage(api.queue, img, CL_TRUE, CL_MAP_READ |
				      CL_MAP_WRITE, r, reg, &row, &slice, 0,
				      NULL, NULL, &err);
		CHECK_ERR(err, CL_SUCCESS);
		REQUIRE(p);
		rows_or_layers = s->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ?
				 slice : row;
		for (size_t z = 0; z < reg[2]; z++)
			for (size_t y = 0; y < reg[1]; y++)
				for (size_t x = 0; x < reg[0] * 4; x++) {
					uint8_t *q = p + z * slice +
						     y * rows_or_layers + x;
					uint8_t *m = at(model, s, r[0] + x / 4,
							r[1] + y, r[2] + z) +
						     x % 4;

					/* What the map shows is the image. */
					CHECK_EQ(*q, *m);
					*q = (uint8_t)~*q;
					*m = (uint8_t)~*m;
				}
		CHECK_ERR(clEnqueueUnmapMemObject(api.queue, img, p, 0, NULL,
						  NULL), CL_SUCCESS);
		/* The whole image to img2, read back with a wider row (and
		 * slice) pitch. */
		CHECK_ERR(clEnqueueCopyImage(api.queue, img, img2, zero, zero,
					     all, 0, NULL, NULL), CL_SUCCESS);
		{
			bool slices = s->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
				      s->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
				      s->type == CL_MEM_OBJECT_IMAGE3D;
			bool arr1 = s->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
			size_t sp = arr1 ? pitch + 8 : pitch * s->h + 8;
			unsigned int bad = 0;

			CHECK_ERR(clEnqueueReadImage(api.queue, img2, CL_TRUE,
						     zero, all, pitch,
						     slices ? sp : 0, back, 0,
						     NULL, NULL), CL_SUCCESS);
			for (size_t z = 0; z < s->n; z++)
				for (size_t y = 0; y < s->h; y++) {
					size_t off = arr1 ? y * sp :
						     z * sp + y * pitch;

					bad += memcmp(back + off,
						      at(model, s, 0, y, z),
						      s->w * 4) != 0;
				}
			CHECK_EQ(bad, 0);
		}
		clReleaseMemObject(img);
		clReleaseMemObject(img2);
		clReleaseMemObject(buf);
		if (ib)
			clReleaseMemObject(ib);
		if (ib2)
			clReleaseMemObject(ib2);
		free(model);
		free(back);
		free(tmp);
	}
}

/* A USE_HOST_PTR image on page-aligned memory: the kernel works on the
 * application's pages, and the map hands them back (§5.3.1, zero copy). */
TEST(use_host_ptr_image)
{
	const cl_image_format f32 = { CL_R, CL_FLOAT };
	const size_t w = 64, h = 16, pitch = 512;
	size_t origin[3] = { 0 }, region[3] = { w, h, 1 }, row = 0;
	float *host = NULL;
	cl_kernel k = image_kernel("t2d");
	cl_sampler smp = clCreateSampler(api.ctx, CL_FALSE,
					 CL_ADDRESS_CLAMP_TO_EDGE,
					 CL_FILTER_NEAREST, NULL);
	cl_mem src, dst;
	cl_int err;
	float *p;
	unsigned int bad = 0;

	REQUIRE(k && smp);
	REQUIRE(posix_memalign((void **)&host, 4096, pitch * h) == 0);
	for (size_t y = 0; y < h; y++)
		for (size_t x = 0; x < w; x++)
			host[y * pitch / 4 + x] = (float)(x + 100 * y);
	src = clCreateImage2D(api.ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
			      &f32, w, h, pitch, host, &err);
	CHECK_ERR(err, CL_SUCCESS);
	dst = clCreateImage2D(api.ctx, CL_MEM_WRITE_ONLY, &f32, w, h, 0, NULL,
			      &err);
	REQUIRE(src && dst);
	CHECK_ERR(clGetImageInfo(src, CL_IMAGE_ROW_PITCH, sizeof(row), &row,
				 NULL), CL_SUCCESS);
	CHECK_EQ(row, pitch);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(src), &src), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(smp), &smp), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(dst), &dst), CL_SUCCESS);
	CHECK_ERR(RUN_KERNEL(api.queue, k, 2, region, NULL), CL_SUCCESS);
	p = clEnqueueMapImage(api.queue, dst, CL_TRUE, CL_MAP_READ, origin,
			      region, &row, NULL, 0, NULL, NULL, &err);
	CHECK_ERR(err, CL_SUCCESS);
	REQUIRE(p);
	for (size_t y = 0; y < h; y++)
		for (size_t x = 0; x < w; x++)
			/* R channel of f: v * 0.5 + 0.25. */
			bad += p[y * row / 4 + x] !=
			       (float)(x + 100 * y) * 0.5f + 0.25f;
	CHECK_EQ(bad, 0);
	CHECK_ERR(clEnqueueUnmapMemObject(api.queue, dst, p, 0, NULL, NULL),
		  CL_SUCCESS);
	/* The map of the USE_HOST_PTR image is host_ptr itself. */
	p = clEnqueueMapImage(api.queue, src, CL_TRUE, CL_MAP_READ, origin,
			      region, &row, NULL, 0, NULL, NULL, &err);
	CHECK(p == host);
	CHECK_EQ(row, pitch);
	CHECK_ERR(clEnqueueUnmapMemObject(api.queue, src, p, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	clReleaseKernel(k);
	clReleaseSampler(smp);
	clReleaseMemObject(src);
	clReleaseMemObject(dst);
	free(host);
}

/* Kernel arguments: what is not an image or not a sampler (§5.7.2). */
TEST(image_argument_errors)
{
	const cl_image_format u8 = { CL_RGBA, CL_UNORM_INT8 };
	const struct shape s = { CL_MEM_OBJECT_IMAGE2D, "t2d", 4, 4, 1 };
	cl_kernel k = image_kernel("t2d");
	cl_mem none, ro, wo, buf = cl_api_buffer(CL_MEM_READ_WRITE, 64, NULL);

	REQUIRE(k && buf);
	ro = make_image(&s, CL_MEM_READ_ONLY, &u8, &none);
	wo = make_image(&s, CL_MEM_WRITE_ONLY, &u8, &none);
	REQUIRE(ro && wo);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(buf), &buf),
		  CL_INVALID_MEM_OBJECT);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(buf), &buf), CL_INVALID_SAMPLER);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(wo), &wo), CL_INVALID_ARG_VALUE);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(ro), &ro), CL_INVALID_ARG_VALUE);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(ro), &ro), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(wo), &wo), CL_SUCCESS);
	/* The sampler is still unset. */
	{
		size_t g[2] = { 4, 4 };

		CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 2, NULL, g,
						 NULL, 0, NULL, NULL),
			  CL_INVALID_KERNEL_ARGS);
	}
	clReleaseKernel(k);
	clReleaseMemObject(ro);
	clReleaseMemObject(wo);
	clReleaseMemObject(buf);
}

void cl_api_image_tests(void)
{
	cl_bool images = CL_FALSE;

	clGetDeviceInfo(api.device, CL_DEVICE_IMAGE_SUPPORT, sizeof(images),
			&images, NULL);
	if (!images)
		return;
	API_RUN(kernels_read_and_write_every_type);
	API_RUN(integer_images);
	API_RUN(queries_in_kernels);
	API_RUN(channel_orders);
	API_RUN(sampler_modes);
	API_RUN(commands_on_every_type);
	API_RUN(use_host_ptr_image);
	API_RUN(image_argument_errors);
}
