/* SPDX-License-Identifier: MIT */
/*
 * Images and samplers on the host's fake GPU. clCreateImage checks
 * everything OpenCL 1.2 5.3.1 names, then fails with CL_OUT_OF_RESOURCES
 * (no address space for storage); the image commands run on images made
 * here with malloc'd storage, checked texel by texel against where
 * OpenCL's coordinates put each texel in a linear image.
 */
#include <stdlib.h>
#include <string.h>

#include "icd_image.h"
#include "icd_tests.h"
#include "sleipnir_compiler.h"

/*
 * An image as clCreateImage makes one without host_ptr (tight rows), its
 * storage malloc'd and filled with a pattern: @layers is the array size
 * (or depth of a 3D image).
 */
static cl_mem fake_image(cl_context c, cl_mem_object_type type,
			 cl_channel_order order, cl_channel_type ctype,
			 size_t w, size_t h, size_t layers)
{
	cl_image_format f = { order, ctype };
	bool array1d = type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
	size_t elem = icd_image_elem_size(&f);
	size_t row = w * elem, slice = row * (array1d ? 1 : h);
	cl_mem m = test_fake_mem(c, type, 0, slice * (array1d ? h : layers));

	m->format = f;
	m->elem_size = elem;
	m->width = w;
	m->height = array1d ? 0 : h;
	m->depth = type == CL_MEM_OBJECT_IMAGE3D ? layers : 0;
	m->array_size = array1d ? h : type == CL_MEM_OBJECT_IMAGE2D_ARRAY ?
			layers : 0;
	m->row_pitch = row;
	m->slice_pitch = slice;
	for (size_t i = 0; i < m->size; i++)
		m->cpu[i] = (uint8_t)(i * 7 + 3);
	return m;
}

/* --- creation ------------------------------------------------------------ */

#define FAILS_WITH(expr, code)                                               \
	do {                                                                 \
		err = 1;                                                     \
		CHECK((expr) == NULL);                                       \
		CHECK_EQ(err, code);                                         \
	} while (0)

TEST(create_rules)
{
	cl_context c = test_context();
	cl_image_format rgba8 = { CL_RGBA, CL_UNORM_INT8 };
	cl_image_format bad_combo = { CL_RGB, CL_UNORM_INT8 };
	cl_image_format bgra16 = { CL_BGRA, CL_UNORM_INT16 };
	cl_image_format lum_int = { CL_LUMINANCE, CL_SIGNED_INT8 };
	cl_image_format rgb565 = { CL_RGB, CL_UNORM_SHORT_565 };
	cl_image_format unknown = { 0x1234, CL_FLOAT };
	cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE2D,
			    .image_width = 4, .image_height = 4 };
	uint8_t host[4096];
	cl_int err;

	REQUIRE(c);
	if (!SLC_DEVICE_IMAGE_SUPPORT) {
		FAILS_WITH(clCreateImage(c, 0, &rgba8, &d, NULL, &err),
			   CL_INVALID_OPERATION);
		clReleaseContext(c);
		return;
	}
	FAILS_WITH(clCreateImage(NULL, 0, &rgba8, &d, NULL, &err),
		   CL_INVALID_CONTEXT);
	FAILS_WITH(clCreateImage(c, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
				 &rgba8, &d, NULL, &err), CL_INVALID_VALUE);
	/* Formats: not valid (5.3.1.1's combinations) or not sampled. */
	FAILS_WITH(clCreateImage(c, 0, NULL, &d, NULL, &err),
		   CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
	FAILS_WITH(clCreateImage(c, 0, &bad_combo, &d, NULL, &err),
		   CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
	FAILS_WITH(clCreateImage(c, 0, &bgra16, &d, NULL, &err),
		   CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
	FAILS_WITH(clCreateImage(c, 0, &lum_int, &d, NULL, &err),
		   CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
	FAILS_WITH(clCreateImage(c, 0, &unknown, &d, NULL, &err),
		   CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
	FAILS_WITH(clCreateImage(c, 0, &rgb565, &d, NULL, &err),
		   CL_IMAGE_FORMAT_NOT_SUPPORTED);
	/* Descriptions. */
	FAILS_WITH(clCreateImage(c, 0, &rgba8, NULL, NULL, &err),
		   CL_INVALID_IMAGE_DESCRIPTOR);
	d.image_width = 0;
	FAILS_WITH(clCreateImage(c, 0, &rgba8, &d, NULL, &err),
		   CL_INVALID_IMAGE_DESCRIPTOR);
	d.image_width = 4;
	d.image_type = CL_MEM_OBJECT_BUFFER;
	FAILS_WITH(clCreateImage(c, 0, &rgba8, &d, NULL, &err),
		   CL_INVALID_IMAGE_DESCRIPTOR);
	d.image_type = CL_MEM_OBJECT_IMAGE2D;
	d.num_mip_levels = 1;
	FAILS_WITH(clCreateImage(c, 0, &rgba8, &d, NULL, &err),
		   CL_INVALID_IMAGE_DESCRIPTOR);
	d.num_mip_levels = 0;
	/* A pitch without host_ptr; a pitch short of a row, or not whole
	 * texels. */
	d.image_row_pitch = 16;
	FAILS_WITH(clCreateImage(c, 0, &rgba8, &d, NULL, &err),
		   CL_INVALID_IMAGE_DESCRIPTOR);
	d.image_row_pitch = 12;
	FAILS_WITH(clCreateImage(c, CL_MEM_COPY_HOST_PTR, &rgba8, &d, host,
				 &err), CL_INVALID_IMAGE_DESCRIPTOR);
	d.image_row_pitch = 18;
	FAILS_WITH(clCreateImage(c, CL_MEM_COPY_HOST_PTR, &rgba8, &d, host,
				 &err), CL_INVALID_IMAGE_DESCRIPTOR);
	d.image_row_pitch = 0;
	/* Sizes beyond the device's. */
	d.image_width = ICD_IMAGE2D_MAX + 1;
	FAILS_WITH(clCreateImage(c, 0, &rgba8, &d, NULL, &err),
		   CL_INVALID_IMAGE_SIZE);
	d.image_width = 4;
	d.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
	d.image_array_size = ICD_IMAGE_MAX_ARRAY_SIZE + 1;
	FAILS_WITH(clCreateImage(c, 0, &rgba8, &d, NULL, &err),
		   CL_INVALID_IMAGE_SIZE);
	d.image_array_size = 2;
	/* A slice pitch short of a slice. */
	d.image_slice_pitch = 32;
	FAILS_WITH(clCreateImage(c, CL_MEM_USE_HOST_PTR, &rgba8, &d, host,
				 &err), CL_INVALID_IMAGE_DESCRIPTOR);
	d.image_slice_pitch = 0;
	/* host_ptr and the flags. */
	FAILS_WITH(clCreateImage(c, 0, &rgba8, &d, host, &err),
		   CL_INVALID_HOST_PTR);
	FAILS_WITH(clCreateImage(c, CL_MEM_COPY_HOST_PTR, &rgba8, &d, NULL,
				 &err), CL_INVALID_HOST_PTR);
	/* Everything right: only the fake GPU's storage is missing. */
	FAILS_WITH(clCreateImage(c, 0, &rgba8, &d, NULL, &err),
		   CL_OUT_OF_RESOURCES);
	/* The 1.1 forms name size and pitch errors CL_INVALID_IMAGE_SIZE. */
	FAILS_WITH(clCreateImage2D(c, 0, &rgba8, 0, 4, 0, NULL, &err),
		   CL_INVALID_IMAGE_SIZE);
	FAILS_WITH(clCreateImage2D(c, CL_MEM_COPY_HOST_PTR, &rgba8, 4, 4, 8,
				   host, &err), CL_INVALID_IMAGE_SIZE);
	FAILS_WITH(clCreateImage3D(c, 0, &rgba8, 4, 4, 1, 0, 0, NULL, &err),
		   CL_INVALID_IMAGE_SIZE);
	FAILS_WITH(clCreateImage2D(c, 0, &bad_combo, 4, 4, 0, NULL, &err),
		   CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
	FAILS_WITH(clCreateImage3D(c, 0, &rgba8, 4, 4, 2, 0, 0, NULL, &err),
		   CL_OUT_OF_RESOURCES);
	clReleaseContext(c);
}

/* A 1D buffer image is a window on its buffer: no storage of its own. */
TEST(buffer_image)
{
	struct test_queue f;
	cl_image_format rgba8 = { CL_RGBA, CL_UNORM_INT8 };
	cl_image_desc d = { .image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER,
			    .image_width = 16 };
	cl_mem buf, img, other, assoc = NULL;
	size_t sz = 0;
	cl_int err;

	if (!SLC_DEVICE_IMAGE_SUPPORT)
		return;
	REQUIRE(test_queue_open(&f));
	/* Any memory object with storage stands in for a buffer. */
	buf = fake_image(f.c, CL_MEM_OBJECT_IMAGE1D, CL_R, CL_UNSIGNED_INT8,
			 128, 1, 1);
	buf->type = CL_MEM_OBJECT_BUFFER;
	buf->flags = CL_MEM_READ_ONLY;
	/* No buffer, or a buffer for another type. */
	FAILS_WITH(clCreateImage(f.c, 0, &rgba8, &d, NULL, &err),
		   CL_INVALID_IMAGE_DESCRIPTOR);
	d.buffer = buf;
	d.image_type = CL_MEM_OBJECT_IMAGE1D;
	FAILS_WITH(clCreateImage(f.c, 0, &rgba8, &d, NULL, &err),
		   CL_INVALID_IMAGE_DESCRIPTOR);
	d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
	/* Its texels must lie in the buffer (128 bytes: 32 texels). */
	d.image_width = 33;
	FAILS_WITH(clCreateImage(f.c, 0, &rgba8, &d, NULL, &err),
		   CL_INVALID_IMAGE_SIZE);
	d.image_width = 32;
	/* No host pointer; no access the buffer denies. */
	FAILS_WITH(clCreateImage(f.c, CL_MEM_COPY_HOST_PTR, &rgba8, &d,
				 buf->cpu, &err), CL_INVALID_VALUE);
	FAILS_WITH(clCreateImage(f.c, 0, &rgba8, &d, buf->cpu, &err),
		   CL_INVALID_HOST_PTR);
	FAILS_WITH(clCreateImage(f.c, CL_MEM_READ_WRITE, &rgba8, &d, NULL,
				 &err), CL_INVALID_VALUE);
	img = clCreateImage(f.c, 0, &rgba8, &d, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	REQUIRE(img);
	CHECK(img->cpu == buf->cpu && img->flags == CL_MEM_READ_ONLY);
	CHECK_EQ(clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT,
				    sizeof(assoc), &assoc, NULL), CL_SUCCESS);
	CHECK(assoc == buf);
	CHECK_EQ(clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof(other), &other,
				NULL), CL_SUCCESS);
	CHECK(other == buf);
	CHECK_EQ(clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof(sz), &sz, NULL),
		 CL_SUCCESS);
	CHECK_EQ(sz, CL_MEM_OBJECT_IMAGE1D_BUFFER);
	CHECK_EQ(clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof(sz), &sz, NULL),
		 CL_SUCCESS);
	CHECK_EQ(sz, 32);
	CHECK_EQ(img->sl.type, SL_IMAGE_1D_BUFFER);
	/*
	 * On a buffer whose storage is a copy of USE_HOST_PTR memory, the
	 * image's map hands out the application's memory, as the buffer's
	 * would; CL_MEM_HOST_PTR stays NULL.
	 */
	{
		static uint8_t app[128];
		size_t o[3] = { 2, 0, 0 }, r[3] = { 3, 1, 1 }, row = 0;
		void *hp = &hp;
		cl_mem shadow;
		uint8_t *p;

		buf->shadowed = true;
		buf->host_ptr = app;
		shadow = clCreateImage(f.c, 0, &rgba8, &d, NULL, &err);
		REQUIRE(shadow);
		CHECK_EQ(clGetMemObjectInfo(shadow, CL_MEM_HOST_PTR,
					    sizeof(hp), &hp, NULL),
			 CL_SUCCESS);
		CHECK(hp == NULL);
		p = clEnqueueMapImage(f.q, shadow, CL_TRUE, CL_MAP_READ, o, r,
				      &row, NULL, 0, NULL, NULL, &err);
		CHECK_EQ(err, CL_SUCCESS);
		CHECK(p == app + 8);
		/* The map brought the storage's bytes into the copy. */
		CHECK_EQ(app[8], buf->cpu[8]);
		CHECK_EQ(clEnqueueUnmapMemObject(f.q, shadow, p, 0, NULL,
						 NULL), CL_SUCCESS);
		CHECK_EQ(clFinish(f.q), CL_SUCCESS);
		clReleaseMemObject(shadow);
		buf->shadowed = false;
		buf->host_ptr = NULL;
	}
	/* The image keeps its buffer. */
	clReleaseMemObject(buf);
	CHECK_EQ(img->cpu[0], 3);
	clReleaseMemObject(img);
	test_queue_close(&f);
}

TEST(supported_formats)
{
	cl_context c = test_context();
	cl_image_format list[256];
	cl_uint n = 0, m = 0;
	bool rgba8 = false, bgra8 = false, rf = false;

	REQUIRE(c);
	CHECK_EQ(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE,
					    CL_MEM_OBJECT_IMAGE2D, 0, NULL,
					    &n), CL_SUCCESS);
	if (!SLC_DEVICE_IMAGE_SUPPORT) {
		clReleaseContext(c);
		return;
	}
	CHECK(n > 0 && n <= 256);
	CHECK_EQ(clGetSupportedImageFormats(c, CL_MEM_READ_WRITE,
					    CL_MEM_OBJECT_IMAGE3D, n, list,
					    &m), CL_SUCCESS);
	CHECK_EQ(m, n);
	for (cl_uint i = 0; i < n && i < 256; i++) {
		cl_image_format *f = &list[i];

		/* What the hardware samples, never CL_RGB. */
		CHECK(icd_image_elem_size(f) > 0);
		CHECK(f->image_channel_order != CL_RGB);
		rgba8 |= f->image_channel_order == CL_RGBA &&
			 f->image_channel_data_type == CL_UNORM_INT8;
		bgra8 |= f->image_channel_order == CL_BGRA &&
			 f->image_channel_data_type == CL_UNORM_INT8;
		rf |= f->image_channel_order == CL_R &&
		      f->image_channel_data_type == CL_FLOAT;
	}
	/* OpenCL 1.2 Table 5.8's minimum list includes these. */
	CHECK(rgba8 && bgra8 && rf);
	/* 9 orders x 12 types, less BGRA and ARGB beyond 8 bits (2 x 8)
	 * and INTENSITY and LUMINANCE of integers (2 x 6). */
	CHECK_EQ(n, 9 * 12 - 16 - 12);
	CHECK_EQ(clGetSupportedImageFormats(c, 0, CL_MEM_OBJECT_IMAGE2D, 0,
					    list, &m), CL_INVALID_VALUE);
	CHECK_EQ(clGetSupportedImageFormats(c, 0, CL_MEM_OBJECT_BUFFER, 1,
					    list, &m), CL_INVALID_VALUE);
	CHECK_EQ(clGetSupportedImageFormats(NULL, 0, CL_MEM_OBJECT_IMAGE2D, 1,
					    list, &m), CL_INVALID_CONTEXT);
	clReleaseContext(c);
}

/* --- samplers ------------------------------------------------------------ */

TEST(samplers)
{
	cl_context c = test_context();
	cl_sampler s;
	cl_addressing_mode am = 0;
	cl_filter_mode fm = 0;
	cl_bool norm = 7;
	cl_uint refs = 0;
	cl_context got = NULL;
	cl_int err;

	REQUIRE(c);
	if (!SLC_DEVICE_IMAGE_SUPPORT) {
		clReleaseContext(c);
		return;
	}
	FAILS_WITH(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP,
				   CL_FILTER_LINEAR, &err), CL_INVALID_CONTEXT);
	FAILS_WITH(clCreateSampler(c, CL_TRUE, 0x1234, CL_FILTER_LINEAR,
				   &err), CL_INVALID_VALUE);
	FAILS_WITH(clCreateSampler(c, CL_TRUE, CL_ADDRESS_CLAMP, 0x1234,
				   &err), CL_INVALID_VALUE);
	s = clCreateSampler(c, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT,
			    CL_FILTER_LINEAR, &err);
	CHECK_EQ(err, CL_SUCCESS);
	REQUIRE(s);
	/* CLK_NORMALIZED_COORDS_TRUE | MIRRORED_REPEAT | FILTER_LINEAR. */
	CHECK_EQ(s->clk, 0x1 | 0x8 | 0x20);
	CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof(am),
				  &am, NULL), CL_SUCCESS);
	CHECK_EQ(am, CL_ADDRESS_MIRRORED_REPEAT);
	CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof(fm), &fm,
				  NULL), CL_SUCCESS);
	CHECK_EQ(fm, CL_FILTER_LINEAR);
	CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS,
				  sizeof(norm), &norm, NULL), CL_SUCCESS);
	CHECK_EQ(norm, CL_TRUE);
	CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof(got), &got,
				  NULL), CL_SUCCESS);
	CHECK(got == c);
	CHECK_EQ(clRetainSampler(s), CL_SUCCESS);
	CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT,
				  sizeof(refs), &refs, NULL), CL_SUCCESS);
	CHECK_EQ(refs, 2);
	CHECK_EQ(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, 1, &refs,
				  NULL), CL_INVALID_VALUE);
	CHECK_EQ(clGetSamplerInfo(s, 0x1234, sizeof(refs), &refs, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetSamplerInfo((cl_sampler)c, CL_SAMPLER_REFERENCE_COUNT,
				  sizeof(refs), &refs, NULL),
		 CL_INVALID_SAMPLER);
	CHECK_EQ(clReleaseSampler(s), CL_SUCCESS);
	CHECK_EQ(clReleaseSampler(s), CL_SUCCESS);
	CHECK_EQ(clRetainSampler(NULL), CL_INVALID_SAMPLER);
	CHECK_EQ(clReleaseSampler((cl_sampler)c), CL_INVALID_SAMPLER);
	clReleaseContext(c);
}

/* --- commands ------------------------------------------------------------ */

/* Byte @i of texel (x, y, z) of a tight image made by fake_image(), as
 * its pattern put it there: rows of w texels, slices of @rows rows. */
static uint8_t pattern_at(cl_mem img, size_t x, size_t y, size_t z,
			  size_t i)
{
	size_t off = (z * img->slice_pitch + y * (img->type ==
		      CL_MEM_OBJECT_IMAGE1D_ARRAY ? img->slice_pitch :
		      img->row_pitch)) + x * img->elem_size + i;

	return (uint8_t)(off * 7 + 3);
}

/* Read and write of a region of each image type, with host pitches. */
TEST(read_write)
{
	static const struct {
		cl_mem_object_type type;
		size_t w, h, layers, origin[3], region[3];
	} cases[] = {
		{ CL_MEM_OBJECT_IMAGE1D, 40, 1, 1, { 3, 0, 0 }, { 30, 1, 1 } },
		{ CL_MEM_OBJECT_IMAGE1D_ARRAY, 20, 5, 1, { 2, 1, 0 },
		  { 9, 3, 1 } },
		{ CL_MEM_OBJECT_IMAGE2D, 17, 9, 1, { 1, 2, 0 }, { 15, 6, 1 } },
		{ CL_MEM_OBJECT_IMAGE2D_ARRAY, 8, 6, 4, { 1, 1, 1 },
		  { 5, 4, 3 } },
		{ CL_MEM_OBJECT_IMAGE3D, 9, 7, 5, { 0, 3, 2 }, { 9, 4, 3 } },
	};
	struct test_queue f;

	if (!SLC_DEVICE_IMAGE_SUPPORT)
		return;
	REQUIRE(test_queue_open(&f));
	for (size_t n = 0; n < sizeof(cases) / sizeof(cases[0]); n++) {
		cl_mem img = fake_image(f.c, cases[n].type, CL_RG,
					CL_UNSIGNED_INT16, cases[n].w,
					cases[n].h, cases[n].layers);
		const size_t *o = cases[n].origin, *r = cases[n].region;
		bool slices = cases[n].type != CL_MEM_OBJECT_IMAGE1D &&
			      cases[n].type != CL_MEM_OBJECT_IMAGE2D;
		/* Host rows 3 texels longer, slices a row longer. */
		size_t row = (r[0] + 3) * 4;
		size_t slice = cases[n].type == CL_MEM_OBJECT_IMAGE1D_ARRAY ?
			       row + 4 : row * (r[1] + 1);
		size_t host_bytes = slice * r[2] + row * r[1];
		uint8_t *host = calloc(1, host_bytes), *again;
		unsigned int bad = 0;

		REQUIRE(host);
		CHECK_EQ(clEnqueueReadImage(f.q, img, CL_TRUE, o, r, row,
					    slices ? slice : 0, host, 0, NULL,
					    NULL), CL_SUCCESS);
		for (size_t z = 0; z < r[2]; z++)
			for (size_t y = 0; y < r[1]; y++)
				for (size_t x = 0; x < r[0] * 4; x++) {
					size_t at = (cases[n].type ==
						     CL_MEM_OBJECT_IMAGE1D_ARRAY ?
						     y * slice : z * slice +
						     y * row) + x;

					bad += host[at] !=
					       pattern_at(img, o[0] + x / 4,
							  o[1] + y, o[2] + z,
							  x % 4);
				}
		CHECK_EQ(bad, 0);
		/* Written back inverted, read again tight. */
		for (size_t i = 0; i < host_bytes; i++)
			host[i] = (uint8_t)~host[i];
		CHECK_EQ(clEnqueueWriteImage(f.q, img, CL_TRUE, o, r, row,
					     slices ? slice : 0, host, 0, NULL,
					     NULL), CL_SUCCESS);
		again = calloc(1, r[0] * r[1] * r[2] * 4);
		REQUIRE(again);
		CHECK_EQ(clEnqueueReadImage(f.q, img, CL_TRUE, o, r, 0, 0,
					    again, 0, NULL, NULL), CL_SUCCESS);
		bad = 0;
		for (size_t i = 0; i < r[0] * r[1] * r[2] * 4; i++) {
			size_t x = i % (r[0] * 4), y = i / (r[0] * 4) % r[1];
			size_t z = i / (r[0] * 4 * r[1]);

			uint8_t want = pattern_at(img, o[0] + x / 4, o[1] + y,
						  o[2] + z, x % 4);

			want ^= 0xFF;
			bad += again[i] != want;
		}
		CHECK_EQ(bad, 0);
		/* A slice pitch for an image without slices; a row pitch
		 * short of the region's row. */
		if (!slices)
			CHECK_EQ(clEnqueueReadImage(f.q, img, CL_TRUE, o, r,
						    row, row * r[1], host, 0,
						    NULL, NULL),
				 CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueReadImage(f.q, img, CL_TRUE, o, r, 4, 0,
					    host, 0, NULL, NULL),
			 CL_INVALID_VALUE);
		free(host);
		free(again);
		clReleaseMemObject(img);
	}
	test_queue_close(&f);
}

/* Origins and regions outside the image, or along coordinates the type
 * lacks; images that are buffers and the other way round. */
TEST(command_errors)
{
	struct test_queue f, other;
	cl_mem img2d, img1d, foreign, buf;
	size_t o[3] = { 0, 0, 0 }, r[3] = { 1, 1, 1 }, pitch;
	uint8_t host[4096];
	cl_float color[4] = { 0 };
	cl_int err;

	if (!SLC_DEVICE_IMAGE_SUPPORT)
		return;
	REQUIRE(test_queue_open(&f));
	REQUIRE(test_queue_open(&other));
	img2d = fake_image(f.c, CL_MEM_OBJECT_IMAGE2D, CL_RGBA,
			   CL_UNORM_INT8, 8, 8, 1);
	img1d = fake_image(f.c, CL_MEM_OBJECT_IMAGE1D, CL_RGBA,
			   CL_UNORM_INT8, 8, 1, 1);
	foreign = fake_image(other.c, CL_MEM_OBJECT_IMAGE2D, CL_RGBA,
			     CL_UNORM_INT8, 8, 8, 1);
	buf = fake_image(f.c, CL_MEM_OBJECT_IMAGE1D, CL_R, CL_UNSIGNED_INT8,
			 64, 1, 1);
	buf->type = CL_MEM_OBJECT_BUFFER;

	CHECK_EQ(clEnqueueReadImage(NULL, img2d, CL_TRUE, o, r, 0, 0, host, 0,
				    NULL, NULL), CL_INVALID_COMMAND_QUEUE);
	CHECK_EQ(clEnqueueReadImage(f.q, buf, CL_TRUE, o, r, 0, 0, host, 0,
				    NULL, NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueReadImage(f.q, foreign, CL_TRUE, o, r, 0, 0, host,
				    0, NULL, NULL), CL_INVALID_CONTEXT);
	CHECK_EQ(clEnqueueReadImage(f.q, img2d, CL_TRUE, NULL, r, 0, 0, host,
				    0, NULL, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueReadImage(f.q, img2d, CL_TRUE, o, r, 0, 0, NULL, 0,
				    NULL, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueFillImage(f.q, img2d, color, o, r, 1, NULL, NULL),
		 CL_INVALID_EVENT_WAIT_LIST);
	CHECK_EQ(clEnqueueFillImage(f.q, img2d, NULL, o, r, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	/* Out of the image, or a size of 0. */
	r[0] = 9;
	CHECK_EQ(clEnqueueWriteImage(f.q, img2d, CL_TRUE, o, r, 0, 0, host,
				     0, NULL, NULL), CL_INVALID_VALUE);
	r[0] = 0;
	CHECK_EQ(clEnqueueWriteImage(f.q, img2d, CL_TRUE, o, r, 0, 0, host,
				     0, NULL, NULL), CL_INVALID_VALUE);
	r[0] = 1;
	/* A 2D image has no z, a 1D image no y. */
	o[2] = 1;
	CHECK_EQ(clEnqueueFillImage(f.q, img2d, color, o, r, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	o[2] = 0;
	r[1] = 2;
	CHECK_EQ(clEnqueueFillImage(f.q, img1d, color, o, r, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	r[1] = 1;
	/* Copies: formats, buffers, overlap in one image. */
	CHECK_EQ(clEnqueueCopyImage(f.q, img2d, buf, o, o, r, 0, NULL, NULL),
		 CL_INVALID_MEM_OBJECT);
	{
		cl_mem r8 = fake_image(f.c, CL_MEM_OBJECT_IMAGE2D, CL_R,
				       CL_UNORM_INT8, 8, 8, 1);
		size_t o2[3] = { 1, 1, 0 }, r2[3] = { 2, 2, 1 };

		CHECK_EQ(clEnqueueCopyImage(f.q, img2d, r8, o, o, r, 0, NULL,
					    NULL), CL_IMAGE_FORMAT_MISMATCH);
		CHECK_EQ(clEnqueueCopyImage(f.q, img2d, img2d, o, o2, r2, 0,
					    NULL, NULL), CL_MEM_COPY_OVERLAP);
		clReleaseMemObject(r8);
	}
	CHECK_EQ(clEnqueueCopyImageToBuffer(f.q, buf, buf, o, r, 0, 0, NULL,
					    NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueCopyImageToBuffer(f.q, img2d, img1d, o, r, 0, 0,
					    NULL, NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueCopyImageToBuffer(f.q, img2d, buf, o, r, 61, 0,
					    NULL, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueCopyBufferToImage(f.q, buf, foreign, 0, o, r, 0,
					    NULL, NULL), CL_INVALID_CONTEXT);
	/* Map: the pitches are needed. */
	CHECK(clEnqueueMapImage(f.q, img2d, CL_TRUE, CL_MAP_READ, o, r, NULL,
				NULL, 0, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clEnqueueMapImage(f.q, buf, CL_TRUE, CL_MAP_READ, o, r, &pitch,
				NULL, 0, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof(pitch), &pitch,
				NULL), CL_INVALID_MEM_OBJECT);
	/* Buffer commands take no image. */
	CHECK_EQ(clEnqueueReadBuffer(f.q, img2d, CL_TRUE, 0, 4, host, 0, NULL,
				     NULL), CL_INVALID_MEM_OBJECT);
	clReleaseMemObject(img2d);
	clReleaseMemObject(img1d);
	clReleaseMemObject(foreign);
	clReleaseMemObject(buf);
	test_queue_close(&other);
	test_queue_close(&f);
}

/* Copies between images of different types, and to and from a buffer. */
TEST(copies)
{
	struct test_queue f;
	cl_mem a, b3, buf;
	size_t so[3] = { 2, 1, 0 }, d3[3] = { 1, 0, 2 }, r[3] = { 4, 3, 1 };
	size_t zero[3] = { 0, 0, 0 };
	uint8_t out[4 * 3 * 4];
	unsigned int bad = 0;

	if (!SLC_DEVICE_IMAGE_SUPPORT)
		return;
	REQUIRE(test_queue_open(&f));
	a = fake_image(f.c, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 8,
		       6, 1);
	b3 = fake_image(f.c, CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_UNORM_INT8, 6,
			5, 4);
	buf = fake_image(f.c, CL_MEM_OBJECT_IMAGE1D, CL_R, CL_UNSIGNED_INT8,
			 256, 1, 1);
	buf->type = CL_MEM_OBJECT_BUFFER;
	/* A 2D region of a into slice 2 of b3, then that region of b3 into
	 * the buffer at 16, packed. */
	CHECK_EQ(clEnqueueCopyImage(f.q, a, b3, so, d3, r, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueCopyImageToBuffer(f.q, b3, buf, d3, r, 16, 0, NULL,
					    NULL), CL_SUCCESS);
	CHECK_EQ(clFinish(f.q), CL_SUCCESS);
	for (size_t y = 0; y < 3; y++)
		for (size_t x = 0; x < 16; x++)
			bad += buf->cpu[16 + y * 16 + x] !=
			       pattern_at(a, so[0] + x / 4, so[1] + y, 0,
					  x % 4);
	CHECK_EQ(bad, 0);
	/* And back from the buffer into a's corner. */
	CHECK_EQ(clEnqueueCopyBufferToImage(f.q, buf, a, 16, zero, r, 0, NULL,
					    NULL), CL_SUCCESS);
	CHECK_EQ(clEnqueueReadImage(f.q, a, CL_TRUE, zero, r, 0, 0, out, 0,
				    NULL, NULL), CL_SUCCESS);
	CHECK(memcmp(out, buf->cpu + 16, sizeof(out)) == 0);
	clReleaseMemObject(a);
	clReleaseMemObject(b3);
	clReleaseMemObject(buf);
	test_queue_close(&f);
}

/* Fill colours as OpenCL 1.2 8.3 converts them, in the channel order. */
TEST(fill)
{
	struct test_queue f;
	cl_mem bgra, r16, sn, half, ui;
	cl_float c4[4] = { 0.5f, 1.0f, -0.25f, 2.0f };
	cl_uint u4[4] = { 300, 7, 0, 0 };
	size_t o[3] = { 1, 1, 0 }, r[3] = { 2, 2, 1 };
	unsigned int bad = 0;

	if (!SLC_DEVICE_IMAGE_SUPPORT)
		return;
	REQUIRE(test_queue_open(&f));
	bgra = fake_image(f.c, CL_MEM_OBJECT_IMAGE2D, CL_BGRA, CL_UNORM_INT8,
			  4, 4, 1);
	r16 = fake_image(f.c, CL_MEM_OBJECT_IMAGE2D, CL_RA, CL_UNORM_INT16, 4,
			 4, 1);
	sn = fake_image(f.c, CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_SNORM_INT8, 4,
			4, 1);
	half = fake_image(f.c, CL_MEM_OBJECT_IMAGE2D, CL_R, CL_HALF_FLOAT, 4,
			  4, 1);
	ui = fake_image(f.c, CL_MEM_OBJECT_IMAGE2D, CL_RG, CL_UNSIGNED_INT8,
			4, 4, 1);
	CHECK_EQ(clEnqueueFillImage(f.q, bgra, c4, o, r, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueFillImage(f.q, r16, c4, o, r, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueFillImage(f.q, sn, c4, o, r, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueFillImage(f.q, half, c4, o, r, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueFillImage(f.q, ui, u4, o, r, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(f.q), CL_SUCCESS);
	for (size_t y = 0; y < 4; y++) {
		for (size_t x = 0; x < 4; x++) {
			bool in = x >= 1 && x < 3 && y >= 1 && y < 3;
			const uint8_t *p = bgra->cpu + y * 16 + x * 4;
			/* B G R A of (0.5, 1, -0.25, 2): 0.5 * 255 = 127.5
			 * rounds to even, 128. */
			uint8_t want[4] = { 0, 255, 128, 255 };

			if (!in) {
				for (int i = 0; i < 4; i++)
					bad += p[i] != pattern_at(bgra, x, y,
								  0, i);
				continue;
			}
			bad += memcmp(p, want, 4) != 0;
			/* R 0x7FFF.8 -> 0x8000, A saturates to 0xFFFF. */
			p = r16->cpu + y * 16 + x * 4;
			bad += p[0] != 0x00 || p[1] != 0x80 || p[2] != 0xFF ||
			       p[3] != 0xFF;
			/* 63.5 -> 64, 127, -31.75 -> -32, 127. */
			p = sn->cpu + y * 16 + x * 4;
			bad += p[0] != 64 || p[1] != 127 ||
			       p[2] != (uint8_t)-32 || p[3] != 127;
			/* 0.5 is 0x3800 in half. */
			p = half->cpu + y * 8 + x * 2;
			bad += p[0] != 0x00 || p[1] != 0x38;
			/* 300 saturates to 255. */
			p = ui->cpu + y * 8 + x * 2;
			bad += p[0] != 255 || p[1] != 7;
		}
	}
	CHECK_EQ(bad, 0);
	clReleaseMemObject(bgra);
	clReleaseMemObject(r16);
	clReleaseMemObject(sn);
	clReleaseMemObject(half);
	clReleaseMemObject(ui);
	test_queue_close(&f);
}

/* Map hands out the storage itself, at the image's pitches. */
TEST(map)
{
	struct test_queue f;
	cl_mem img;
	size_t o[3] = { 1, 2, 1 }, r[3] = { 2, 2, 2 }, row = 0, slice = 0;
	uint8_t *p;
	cl_uint count = 0;
	cl_int err;

	if (!SLC_DEVICE_IMAGE_SUPPORT)
		return;
	REQUIRE(test_queue_open(&f));
	img = fake_image(f.c, CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_FLOAT, 5, 4,
			 3);
	CHECK(clEnqueueMapImage(f.q, img, CL_TRUE, CL_MAP_READ, o, r, &row,
				NULL, 0, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	p = clEnqueueMapImage(f.q, img, CL_TRUE, CL_MAP_WRITE, o, r, &row,
			      &slice, 0, NULL, NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	REQUIRE(p);
	CHECK_EQ(row, 5 * 16);
	CHECK_EQ(slice, 5 * 16 * 4);
	CHECK(p == img->cpu + 1 * slice + 2 * row + 1 * 16);
	CHECK_EQ(clGetMemObjectInfo(img, CL_MEM_MAP_COUNT, sizeof(count),
				    &count, NULL), CL_SUCCESS);
	CHECK_EQ(count, 1);
	CHECK_EQ(clEnqueueUnmapMemObject(f.q, img, p, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clFinish(f.q), CL_SUCCESS);
	clReleaseMemObject(img);
	test_queue_close(&f);
}

TEST(image_info)
{
	struct test_queue f;
	cl_mem img;
	cl_image_format fmt = { 0 };
	size_t sz = 0;

	if (!SLC_DEVICE_IMAGE_SUPPORT)
		return;
	REQUIRE(test_queue_open(&f));
	img = fake_image(f.c, CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_RG,
			 CL_SIGNED_INT16, 10, 3, 1);
	CHECK_EQ(clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof(fmt), &fmt,
				NULL), CL_SUCCESS);
	CHECK(fmt.image_channel_order == CL_RG &&
	      fmt.image_channel_data_type == CL_SIGNED_INT16);
	CHECK_EQ(clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof(sz), &sz,
				NULL), CL_SUCCESS);
	CHECK_EQ(sz, 4);
	CHECK_EQ(clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof(sz), &sz, NULL),
		 CL_SUCCESS);
	CHECK_EQ(sz, 0);
	CHECK_EQ(clGetImageInfo(img, CL_IMAGE_ARRAY_SIZE, sizeof(sz), &sz,
				NULL), CL_SUCCESS);
	CHECK_EQ(sz, 3);
	CHECK_EQ(clGetImageInfo(img, CL_IMAGE_SLICE_PITCH, sizeof(sz), &sz,
				NULL), CL_SUCCESS);
	CHECK_EQ(sz, 40);
	CHECK_EQ(clGetImageInfo(img, CL_IMAGE_WIDTH, 1, &sz, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetImageInfo(img, 0x1234, sizeof(sz), &sz, NULL),
		 CL_INVALID_VALUE);
	clReleaseMemObject(img);
	test_queue_close(&f);
}

void test_image_all(void)
{
	RUN(create_rules);
	RUN(buffer_image);
	RUN(supported_formats);
	RUN(samplers);
	RUN(read_write);
	RUN(command_errors);
	RUN(copies);
	RUN(fill);
	RUN(map);
	RUN(image_info);
}
