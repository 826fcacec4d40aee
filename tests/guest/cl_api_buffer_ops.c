/* SPDX-License-Identifier: MIT */
/*
 * Commands on buffers: read, write, copy (spec §5.2.2), their rectangular
 * forms, fill (§5.2.3), map (§5.2.4) and unmap (§5.4.2), migration
 * (§5.4.4), each checked byte for byte against the same operation done by
 * the CPU; and the zero-copy promise of the issue: mapping an
 * ALLOC_HOST_PTR or page-aligned USE_HOST_PTR buffer copies nothing.
 */
#include <stdlib.h>

#include "cl_api.h"

#define SIZE 65536

static void pattern(uint8_t *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 31 + seed * 17 + (i >> 8)) ^ seed);
}

/* The first differing byte, or -1. */
static long first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return (long)i;
	return -1;
}

#define CHECK_BYTES(got, want, n)                                              \
	do {                                                                   \
		long d_ = first_diff((got), (want), (n));                      \
		if (d_ >= 0)                                                   \
			CHECK_FAIL_AT(__FILE__, __LINE__,                      \
				      "%s differs from %s at byte %ld: "       \
				      "0x%02x != 0x%02x",                      \
				      #got, #want, d_, (got)[d_], (want)[d_]); \
	} while (0)

static cl_command_type command_type(cl_event e)
{
	cl_command_type t = 0;

	CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof(t), &t, NULL),
		  CL_SUCCESS);
	return t;
}

TEST(read_write)
{
	uint8_t *src = malloc(SIZE), *ref = malloc(SIZE), *back = malloc(SIZE);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, SIZE, NULL);
	cl_context other =
		clCreateContext(NULL, 1, &api.device, NULL, NULL, NULL);
	cl_mem foreign = NULL;
	cl_event w = NULL, r = NULL;

	REQUIRE(src && ref && back && buf && other);
	foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, NULL, NULL);
	pattern(src, SIZE, 1);
	memcpy(ref, src, SIZE);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0, SIZE, src, 0,
				       NULL, NULL),
		  CL_SUCCESS);
	/* A non-blocking write at an offset, then a non-blocking read. */
	pattern(src, 1000, 2);
	memcpy(ref + 333, src, 1000);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_FALSE, 333, 1000, src,
				       0, NULL, &w),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_FALSE, 0, SIZE, back,
				      1, &w, &r),
		  CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &r), CL_SUCCESS);
	CHECK_BYTES(back, ref, SIZE);
	CHECK_EQ(command_type(w), CL_COMMAND_WRITE_BUFFER);
	CHECK_EQ(command_type(r), CL_COMMAND_READ_BUFFER);
	/* A read of the last byte. */
	back[0] = 0;
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, SIZE - 1, 1,
				      back, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_EQ(back[0], ref[SIZE - 1]);

	/* §5.2.2 errors */
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, SIZE - 4, 8,
				      back, 0, NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, SIZE, 1, back, 0,
				      NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, 0, back, 0,
				      NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, 4, NULL, 0,
				      NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 1, SIZE, src, 0,
				       NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0, 0, src, 0,
				       NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0, 4, NULL, 0,
				       NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, (cl_mem)api.queue, CL_TRUE, 0,
				      4, back, 0, NULL, NULL),
		  CL_INVALID_MEM_OBJECT);
	CHECK_ERR(clEnqueueWriteBuffer((cl_command_queue)buf, buf, CL_TRUE, 0,
				       4, src, 0, NULL, NULL),
		  CL_INVALID_COMMAND_QUEUE);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, 4, back, 1,
				      NULL, NULL),
		  CL_INVALID_EVENT_WAIT_LIST);
	if (foreign) {
		CHECK_ERR(clEnqueueReadBuffer(api.queue, foreign, CL_TRUE, 0, 4,
					      back, 0, NULL, NULL),
			  CL_INVALID_CONTEXT);
		CHECK_ERR(clEnqueueWriteBuffer(api.queue, foreign, CL_TRUE, 0,
					       4, src, 0, NULL, NULL),
			  CL_INVALID_CONTEXT);
		clReleaseMemObject(foreign);
	}
	clReleaseEvent(w);
	clReleaseEvent(r);
	clReleaseMemObject(buf);
	clReleaseContext(other);
	free(src);
	free(ref);
	free(back);
}

TEST(copy)
{
	uint8_t *a = malloc(SIZE), *b = malloc(SIZE), *back = malloc(SIZE);
	cl_mem src = NULL, dst = NULL, sub1 = NULL, sub2 = NULL;
	cl_event e = NULL;
	size_t align = api.base_align ? api.base_align : 128;
	cl_buffer_region r1 = { 0, 4 * align }, r2 = { 2 * align, 4 * align };
	cl_int err = 1;

	REQUIRE(a && b && back);
	pattern(a, SIZE, 3);
	pattern(b, SIZE, 4);
	src = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, SIZE, a);
	REQUIRE(src);
	dst = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, SIZE, b);
	REQUIRE(dst);
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, src, dst, 100, 5000, 7777, 0,
				      NULL, &e),
		  CL_SUCCESS);
	memcpy(b + 5000, a + 100, 7777);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, dst, CL_TRUE, 0, SIZE, back, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	CHECK_BYTES(back, b, SIZE);
	if (e)
		CHECK_EQ(command_type(e), CL_COMMAND_COPY_BUFFER);
	/* Within one buffer, regions apart. */
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, src, src, 0, SIZE / 2,
				      SIZE / 2, 0, NULL, NULL),
		  CL_SUCCESS);
	memcpy(a + SIZE / 2, a, SIZE / 2);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, src, CL_TRUE, 0, SIZE, back, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	CHECK_BYTES(back, a, SIZE);

	/* §5.2.2 clEnqueueCopyBuffer errors */
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, src, src, 0, 100, 200, 0, NULL,
				      NULL),
		  CL_MEM_COPY_OVERLAP);
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, src, dst, SIZE - 10, 0, 20, 0,
				      NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, src, dst, 0, SIZE - 10, 20, 0,
				      NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, src, (cl_mem)api.queue, 0, 0,
				      4, 0, NULL, NULL),
		  CL_INVALID_MEM_OBJECT);
	sub1 = clCreateSubBuffer(src, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1,
				 &err);
	sub2 = clCreateSubBuffer(src, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2,
				 &err);
	if (sub1 && sub2) {
		/* Different sub-buffers of one buffer whose copy regions
		 * overlap in the parent. */
		CHECK_ERR(clEnqueueCopyBuffer(api.queue, sub1, sub2, 2 * align,
					      0, align, 0, NULL, NULL),
			  CL_MEM_COPY_OVERLAP);
		CHECK_ERR(clEnqueueCopyBuffer(api.queue, sub1, sub2, 0,
					      2 * align, align, 0, NULL, NULL),
			  CL_SUCCESS);
	} else {
		CHECK_FAIL_AT(__FILE__, __LINE__, "clCreateSubBuffer: %s",
			      cl_err_name(err));
	}
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	if (sub1)
		clReleaseMemObject(sub1);
	if (sub2)
		clReleaseMemObject(sub2);
	clReleaseEvent(e);
	clReleaseMemObject(src);
	clReleaseMemObject(dst);
	free(a);
	free(b);
	free(back);
}

TEST(fill)
{
	enum { FILL_SIZE = 2048 };
	uint8_t ref[FILL_SIZE], back[FILL_SIZE], pat[256];
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, FILL_SIZE, NULL);
	cl_event e = NULL;

	REQUIRE(buf);
	memset(ref, 0xee, sizeof(ref));
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0, FILL_SIZE,
				       ref, 0, NULL, NULL),
		  CL_SUCCESS);
	/* §5.2.3: every pattern size, 1 to 128 bytes. */
	for (size_t ps = 1; ps <= 128; ps *= 2) {
		size_t offset = 2 * ps, size = 5 * ps;

		for (size_t i = 0; i < ps; i++)
			pat[i] = (uint8_t)(ps * 3 + i);
		CHECK_ERR(clEnqueueFillBuffer(api.queue, buf, pat, ps, offset,
					      size, 0, NULL, &e),
			  CL_SUCCESS);
		for (size_t i = 0; i < size; i++)
			ref[offset + i] = pat[i % ps];
		CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0,
					      FILL_SIZE, back, 0, NULL, NULL),
			  CL_SUCCESS);
		if (first_diff(back, ref, FILL_SIZE) >= 0)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "fill with a %zu-byte pattern: byte %ld "
				      "is 0x%02x, expected 0x%02x",
				      ps, first_diff(back, ref, FILL_SIZE),
				      back[first_diff(back, ref, FILL_SIZE)],
				      ref[first_diff(back, ref, FILL_SIZE)]);
		if (e) {
			CHECK_EQ(command_type(e), CL_COMMAND_FILL_BUFFER);
			clReleaseEvent(e);
			e = NULL;
		}
	}
	/* §5.2.3 errors */
	CHECK_ERR(clEnqueueFillBuffer(api.queue, buf, NULL, 4, 0, 64, 0, NULL,
				      NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueFillBuffer(api.queue, buf, pat, 0, 0, 64, 0, NULL,
				      NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueFillBuffer(api.queue, buf, pat, 3, 0, 63, 0, NULL,
				      NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueFillBuffer(api.queue, buf, pat, 256, 0, 512, 0, NULL,
				      NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueFillBuffer(api.queue, buf, pat, 4, 2, 64, 0, NULL,
				      NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueFillBuffer(api.queue, buf, pat, 4, 0, 62, 0, NULL,
				      NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueFillBuffer(api.queue, buf, pat, 4, FILL_SIZE - 4, 8,
				      0, NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueFillBuffer(api.queue, (cl_mem)api.queue, pat, 4, 0,
				      4, 0, NULL, NULL),
		  CL_INVALID_MEM_OBJECT);
	clReleaseMemObject(buf);
}

/* The CPU's rectangle copy: the meaning §5.2.2 gives origins, regions
 * and pitches (offset = z * slice + y * row + x). */
static void rect_copy(uint8_t *dst, const size_t dorg[3], size_t drow,
		      size_t dslice, const uint8_t *src, const size_t sorg[3],
		      size_t srow, size_t sslice, const size_t region[3])
{
	for (size_t z = 0; z < region[2]; z++)
		for (size_t y = 0; y < region[1]; y++)
			memcpy(dst + (dorg[2] + z) * dslice +
				       (dorg[1] + y) * drow + dorg[0],
			       src + (sorg[2] + z) * sslice +
				       (sorg[1] + y) * srow + sorg[0],
			       region[0]);
}

TEST(rect_read_write_copy)
{
	/* The buffer as 64 x 16 x 4 bytes; the host as 40 x 10 x 3. */
	enum {
		BROW = 64,
		BSLICE = 64 * 16,
		BSIZE = 64 * 16 * 4,
		HROW = 40,
		HSLICE = 40 * 10,
		HSIZE = 40 * 10 * 3
	};
	uint8_t bref[BSIZE], bback[BSIZE], host[HSIZE], href[HSIZE];
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, BSIZE, NULL);
	cl_mem buf2 = cl_api_buffer(CL_MEM_READ_WRITE, BSIZE, NULL);
	size_t borg[3] = { 5, 3, 1 }, horg[3] = { 2, 1, 0 };
	size_t region[3] = { 20, 6, 2 };
	cl_event e = NULL;

	REQUIRE(buf && buf2);
	pattern(bref, BSIZE, 5);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0, BSIZE, bref,
				       0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf2, CL_TRUE, 0, BSIZE, bref,
				       0, NULL, NULL),
		  CL_SUCCESS);

	/* Write a rectangle. */
	pattern(host, HSIZE, 6);
	CHECK_ERR(clEnqueueWriteBufferRect(api.queue, buf, CL_TRUE, borg, horg,
					   region, BROW, BSLICE, HROW, HSLICE,
					   host, 0, NULL, &e),
		  CL_SUCCESS);
	rect_copy(bref, borg, BROW, BSLICE, host, horg, HROW, HSLICE, region);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, BSIZE, bback,
				      0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_BYTES(bback, bref, BSIZE);
	if (e) {
		CHECK_EQ(command_type(e), CL_COMMAND_WRITE_BUFFER_RECT);
		clReleaseEvent(e);
		e = NULL;
	}

	/* Read a rectangle. */
	memset(host, 0, HSIZE);
	memset(href, 0, HSIZE);
	CHECK_ERR(clEnqueueReadBufferRect(api.queue, buf, CL_TRUE, borg, horg,
					  region, BROW, BSLICE, HROW, HSLICE,
					  host, 0, NULL, &e),
		  CL_SUCCESS);
	rect_copy(href, horg, HROW, HSLICE, bref, borg, BROW, BSLICE, region);
	CHECK_BYTES(host, href, HSIZE);
	if (e) {
		CHECK_EQ(command_type(e), CL_COMMAND_READ_BUFFER_RECT);
		clReleaseEvent(e);
		e = NULL;
	}

	/* Pitches 0: tightly packed host rows and slices. */
	{
		size_t zero[3] = { 0, 0, 0 };
		uint8_t packed[20 * 6 * 2], pref[20 * 6 * 2];

		CHECK_ERR(clEnqueueReadBufferRect(api.queue, buf, CL_TRUE, borg,
						  zero, region, BROW, BSLICE, 0,
						  0, packed, 0, NULL, NULL),
			  CL_SUCCESS);
		rect_copy(pref, zero, 20, 20 * 6, bref, borg, BROW, BSLICE,
			  region);
		CHECK_BYTES(packed, pref, sizeof(pref));
	}

	/* Copy a rectangle between buffers with different pitches: buf seen
	 * as 64 x 16 x 4, buf2 as 32 x 32 x 4. */
	{
		size_t sorg[3] = { 1, 2, 0 }, dorg[3] = { 3, 4, 1 };
		size_t reg[3] = { 16, 8, 3 };
		uint8_t ref2[BSIZE];

		pattern(ref2, BSIZE, 5); /* buf2 still holds pattern 5 */
		CHECK_ERR(clEnqueueCopyBufferRect(api.queue, buf, buf2, sorg,
						  dorg, reg, BROW, BSLICE, 32,
						  32 * 32, 0, NULL, &e),
			  CL_SUCCESS);
		rect_copy(ref2, dorg, 32, 32 * 32, bref, sorg, BROW, BSLICE,
			  reg);
		CHECK_ERR(clEnqueueReadBuffer(api.queue, buf2, CL_TRUE, 0,
					      BSIZE, bback, 0, NULL, NULL),
			  CL_SUCCESS);
		CHECK_BYTES(bback, ref2, BSIZE);
		if (e) {
			CHECK_EQ(command_type(e), CL_COMMAND_COPY_BUFFER_RECT);
			clReleaseEvent(e);
			e = NULL;
		}
		/* §5.2.2 clEnqueueCopyBufferRect errors: overlap within
		 * one buffer; one buffer with different pitches. */
		CHECK_ERR(clEnqueueCopyBufferRect(api.queue, buf, buf, sorg,
						  sorg, reg, BROW, BSLICE, BROW,
						  BSLICE, 0, NULL, NULL),
			  CL_MEM_COPY_OVERLAP);
		{
			/* Regions apart, so only the pitches are wrong. */
			size_t s0[3] = { 0, 0, 0 }, d0[3] = { 0, 0, 3 };
			size_t r0[3] = { 16, 2, 1 };

			CHECK_ERR(clEnqueueCopyBufferRect(
					  api.queue, buf, buf, s0, d0, r0, BROW,
					  BSLICE, 32, 512, 0, NULL, NULL),
				  CL_INVALID_VALUE);
		}
		{
			size_t far[3] = { 0, 0, 3 };

			CHECK_ERR(clEnqueueCopyBufferRect(api.queue, buf, buf2,
							  far, dorg, reg, BROW,
							  BSLICE, 32, 32 * 32,
							  0, NULL, NULL),
				  CL_INVALID_VALUE);
		}
	}

	/* §5.2.2 Read/WriteBufferRect errors */
	{
		size_t zero_region[3] = { 20, 0, 1 };
		size_t outside[3] = { 5, 3, 3 }; /* slices 3 and 4 of 4 */

		CHECK_ERR(clEnqueueReadBufferRect(api.queue, buf, CL_TRUE, borg,
						  horg, zero_region, BROW,
						  BSLICE, HROW, HSLICE, host, 0,
						  NULL, NULL),
			  CL_INVALID_VALUE);
		CHECK_ERR(clEnqueueReadBufferRect(api.queue, buf, CL_TRUE,
						  outside, horg, region, BROW,
						  BSLICE, HROW, HSLICE, host, 0,
						  NULL, NULL),
			  CL_INVALID_VALUE);
		CHECK_ERR(clEnqueueReadBufferRect(api.queue, buf, CL_TRUE, borg,
						  horg, region, 10, BSLICE,
						  HROW, HSLICE, host, 0, NULL,
						  NULL),
			  CL_INVALID_VALUE);
		CHECK_ERR(clEnqueueReadBufferRect(api.queue, buf, CL_TRUE, borg,
						  horg, region, BROW, BSLICE,
						  10, HSLICE, host, 0, NULL,
						  NULL),
			  CL_INVALID_VALUE);
		CHECK_ERR(clEnqueueReadBufferRect(api.queue, buf, CL_TRUE, borg,
						  horg, region, BROW, 100, HROW,
						  HSLICE, host, 0, NULL, NULL),
			  CL_INVALID_VALUE);
		CHECK_ERR(clEnqueueWriteBufferRect(
				  api.queue, buf, CL_TRUE, borg, horg, region,
				  BROW, BSLICE, HROW, 100, host, 0, NULL, NULL),
			  CL_INVALID_VALUE);
		CHECK_ERR(clEnqueueWriteBufferRect(api.queue, buf, CL_TRUE,
						   borg, horg, region, BROW,
						   BSLICE, HROW, HSLICE, NULL,
						   0, NULL, NULL),
			  CL_INVALID_VALUE);
		CHECK_ERR(clEnqueueWriteBufferRect(api.queue, (cl_mem)api.queue,
						   CL_TRUE, borg, horg, region,
						   BROW, BSLICE, HROW, HSLICE,
						   host, 0, NULL, NULL),
			  CL_INVALID_MEM_OBJECT);
	}
	clReleaseMemObject(buf);
	clReleaseMemObject(buf2);
}

TEST(map_unmap)
{
	uint8_t *ref = malloc(SIZE), *back = malloc(SIZE);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, SIZE, NULL);
	cl_context other =
		clCreateContext(NULL, 1, &api.device, NULL, NULL, NULL);
	cl_command_queue other_q = NULL;
	cl_event me = NULL, ue = NULL;
	cl_uint maps = 99;
	cl_int err = 1;
	uint8_t *p, *p2;

	REQUIRE(ref && back && buf && other);
	other_q = clCreateCommandQueue(other, api.device, 0, NULL);
	pattern(ref, SIZE, 7);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0, SIZE, ref, 0,
				       NULL, NULL),
		  CL_SUCCESS);

	/* Blocking map for reading and writing, at an offset. */
	p = clEnqueueMapBuffer(api.queue, buf, CL_TRUE,
			       CL_MAP_READ | CL_MAP_WRITE, 4096, 8192, 0, NULL,
			       &me, &err);
	CHECK_ERR(err, CL_SUCCESS);
	REQUIRE(p);
	CHECK_BYTES(p, ref + 4096, 8192);
	CHECK_ERR(clGetMemObjectInfo(buf, CL_MEM_MAP_COUNT, sizeof(maps), &maps,
				     NULL),
		  CL_SUCCESS);
	CHECK_EQ(maps, 1);
	for (int i = 0; i < 8192; i++)
		p[i] = (uint8_t)~p[i];
	for (int i = 0; i < 8192; i++)
		ref[4096 + i] = (uint8_t)~ref[4096 + i];
	CHECK_ERR(clEnqueueUnmapMemObject(api.queue, buf, p, 0, NULL, &ue),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, SIZE, back, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	CHECK_BYTES(back, ref, SIZE);
	CHECK_ERR(clGetMemObjectInfo(buf, CL_MEM_MAP_COUNT, sizeof(maps), &maps,
				     NULL),
		  CL_SUCCESS);
	CHECK_EQ(maps, 0);
	if (me && ue) {
		CHECK_EQ(command_type(me), CL_COMMAND_MAP_BUFFER);
		CHECK_EQ(command_type(ue), CL_COMMAND_UNMAP_MEM_OBJECT);
	}
	clReleaseEvent(me);
	clReleaseEvent(ue);
	me = ue = NULL;

	/* Non-blocking map: the pointer comes at once, the data once the
	 * event completed (§5.2.4). Two read maps of one region at once. */
	p = clEnqueueMapBuffer(api.queue, buf, CL_FALSE, CL_MAP_READ, 0, SIZE,
			       0, NULL, &me, &err);
	CHECK_ERR(err, CL_SUCCESS);
	p2 = clEnqueueMapBuffer(api.queue, buf, CL_TRUE, CL_MAP_READ, 100, 200,
				0, NULL, NULL, &err);
	CHECK_ERR(err, CL_SUCCESS);
	REQUIRE(p && p2 && me);
	CHECK_ERR(clWaitForEvents(1, &me), CL_SUCCESS);
	CHECK_BYTES(p, ref, SIZE);
	CHECK_BYTES(p2, ref + 100, 200);
	/* Unmapping what was never mapped, and errors of the call. */
	CHECK_ERR(clEnqueueUnmapMemObject(api.queue, buf, ref, 0, NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueUnmapMemObject(api.queue, (cl_mem)api.queue, p, 0,
					  NULL, NULL),
		  CL_INVALID_MEM_OBJECT);
	if (other_q)
		CHECK_ERR(
			clEnqueueUnmapMemObject(other_q, buf, p, 0, NULL, NULL),
			CL_INVALID_CONTEXT);
	CHECK_ERR(clEnqueueUnmapMemObject(api.queue, buf, p2, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueUnmapMemObject(api.queue, buf, p, 0, NULL, NULL),
		  CL_SUCCESS);
	clReleaseEvent(me);
	me = NULL;

	/* CL_MAP_WRITE_INVALIDATE_REGION: whatever was there, what is
	 * written lands. */
	p = clEnqueueMapBuffer(api.queue, buf, CL_TRUE,
			       CL_MAP_WRITE_INVALIDATE_REGION, 0, 4096, 0, NULL,
			       NULL, &err);
	CHECK_ERR(err, CL_SUCCESS);
	REQUIRE(p);
	pattern(p, 4096, 8);
	pattern(ref, 4096, 8);
	CHECK_ERR(clEnqueueUnmapMemObject(api.queue, buf, p, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, SIZE, back, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	CHECK_BYTES(back, ref, SIZE);

	/* §5.2.4 errors: the call returns NULL and the error. */
	CHECK(clEnqueueMapBuffer(api.queue, buf, CL_TRUE,
				 CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
				 0, 64, 0, NULL, NULL, &err) == NULL);
	CHECK_ERR(err, CL_INVALID_VALUE);
	CHECK(clEnqueueMapBuffer(api.queue, buf, CL_TRUE, 1u << 8, 0, 64, 0,
				 NULL, NULL, &err) == NULL);
	CHECK_ERR(err, CL_INVALID_VALUE);
	CHECK(clEnqueueMapBuffer(api.queue, buf, CL_TRUE, CL_MAP_READ, SIZE - 8,
				 16, 0, NULL, NULL, &err) == NULL);
	CHECK_ERR(err, CL_INVALID_VALUE);
	CHECK(clEnqueueMapBuffer(api.queue, buf, CL_TRUE, CL_MAP_READ, 0, 0, 0,
				 NULL, NULL, &err) == NULL);
	CHECK_ERR(err, CL_INVALID_VALUE);
	CHECK(clEnqueueMapBuffer(api.queue, (cl_mem)api.queue, CL_TRUE,
				 CL_MAP_READ, 0, 64, 0, NULL, NULL,
				 &err) == NULL);
	CHECK_ERR(err, CL_INVALID_MEM_OBJECT);
	if (other_q) {
		CHECK(clEnqueueMapBuffer(other_q, buf, CL_TRUE, CL_MAP_READ, 0,
					 64, 0, NULL, NULL, &err) == NULL);
		CHECK_ERR(err, CL_INVALID_CONTEXT);
		clReleaseCommandQueue(other_q);
	}
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	clReleaseMemObject(buf);
	clReleaseContext(other);
	free(ref);
	free(back);
}

/* What a kernel wrote is what a map for reading shows, and what the host
 * wrote through a map is what the kernel reads. */
TEST(map_and_kernel_share_data)
{
	enum { COUNT = 4096 };
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
				   COUNT * 4, NULL);
	cl_kernel add = cl_api_kernel("add_k");
	cl_int *p, seven = 7, err = 1;
	size_t global = COUNT;
	bool ok = true;

	REQUIRE(buf && add);
	p = clEnqueueMapBuffer(api.queue, buf, CL_TRUE, CL_MAP_WRITE, 0,
			       COUNT * 4, 0, NULL, NULL, &err);
	REQUIRE(p);
	for (int i = 0; i < COUNT; i++)
		p[i] = i * 5;
	CHECK_ERR(clEnqueueUnmapMemObject(api.queue, buf, p, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(seven), &seven), CL_SUCCESS);
	RUN_KERNEL(api.queue, add, 1, &global, NULL);
	p = clEnqueueMapBuffer(api.queue, buf, CL_TRUE, CL_MAP_READ, 0,
			       COUNT * 4, 0, NULL, NULL, &err);
	REQUIRE(p);
	for (int i = 0; i < COUNT; i++)
		ok &= p[i] == i * 5 + 7;
	if (!ok)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "mapped after the kernel: p[0..1] = %d %d, "
			      "expected 7 12",
			      p[0], p[1]);
	CHECK_ERR(clEnqueueUnmapMemObject(api.queue, buf, p, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	clReleaseKernel(add);
	clReleaseMemObject(buf);
}

/*
 * The zero copy: map and unmap of an ALLOC_HOST_PTR buffer and of
 * a page-aligned USE_HOST_PTR buffer copy nothing (the runtime's copy
 * counter, CL_DEVICE_SLEIPNIR_BYTES_COPIED, does not move), and a
 * USE_HOST_PTR map returns host_ptr itself (spec §5.2.4: "the pointer
 * value returned by clEnqueueMapBuffer will be derived from the host_ptr").
 */
TEST(zero_copy_map)
{
	/* 256 KiB: big enough to be pages, small enough that each kernel
	 * ends well within sleipnir.ko's job timeout under TCG. */
	enum { COUNT = 64 * 1024 };
	cl_int *aligned = aligned_alloc(4096, COUNT * 4 + 4096);
	cl_mem alloc_buf = cl_api_buffer(
		CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, COUNT * 4, NULL);
	cl_mem use_buf = NULL, odd_buf = NULL;
	cl_kernel add = cl_api_kernel("add_k");
	cl_int *p, one = 1, err = 1;
	size_t global = COUNT;
	cl_ulong before, after;
	bool ok = true;
	uint8_t scratch[4096];

	REQUIRE(aligned && alloc_buf && add);
	for (int i = 0; i < COUNT; i++)
		aligned[i] = i;
	use_buf = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
				COUNT * 4, aligned);
	REQUIRE(use_buf);
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	before = cl_api_bytes_copied();

	/* ALLOC_HOST_PTR: write through a map, a kernel, read through a map. */
	p = clEnqueueMapBuffer(api.queue, alloc_buf, CL_TRUE,
			       CL_MAP_WRITE_INVALIDATE_REGION, 0, COUNT * 4, 0,
			       NULL, NULL, &err);
	REQUIRE(p);
	for (int i = 0; i < COUNT; i++)
		p[i] = 2 * i;
	CHECK_ERR(
		clEnqueueUnmapMemObject(api.queue, alloc_buf, p, 0, NULL, NULL),
		CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(alloc_buf), &alloc_buf),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(one), &one), CL_SUCCESS);
	RUN_KERNEL(api.queue, add, 1, &global, NULL);
	p = clEnqueueMapBuffer(api.queue, alloc_buf, CL_TRUE, CL_MAP_READ, 0,
			       COUNT * 4, 0, NULL, NULL, &err);
	REQUIRE(p);
	for (int i = 0; i < COUNT; i++)
		ok &= p[i] == 2 * i + 1;
	CHECK(ok);
	CHECK_ERR(
		clEnqueueUnmapMemObject(api.queue, alloc_buf, p, 0, NULL, NULL),
		CL_SUCCESS);

	/* Page-aligned USE_HOST_PTR: the kernel works on the pages; the map
	 * is host_ptr and shows its result. */
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(use_buf), &use_buf),
		  CL_SUCCESS);
	RUN_KERNEL(api.queue, add, 1, &global, NULL);
	p = clEnqueueMapBuffer(api.queue, use_buf, CL_TRUE,
			       CL_MAP_READ | CL_MAP_WRITE, 0, COUNT * 4, 0,
			       NULL, NULL, &err);
	CHECK(p == aligned);
	ok = p != NULL;
	for (int i = 0; ok && i < COUNT; i++)
		ok &= p[i] == i + 1;
	CHECK(ok);
	if (p)
		CHECK_ERR(clEnqueueUnmapMemObject(api.queue, use_buf, p, 0,
						  NULL, NULL),
			  CL_SUCCESS);
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	after = cl_api_bytes_copied();
	if (after != before)
		CHECK_FAIL_AT(
			__FILE__, __LINE__,
			"zero-copy map/unmap and kernels copied %llu bytes",
			(unsigned long long)(after - before));
	/* The counter does count (cl_sleipnir.h: reads are copies), so the
	 * zero above means something. */
	CHECK_ERR(clEnqueueReadBuffer(api.queue, alloc_buf, CL_TRUE, 0,
				      sizeof(scratch), scratch, 0, NULL, NULL),
		  CL_SUCCESS);
	after = cl_api_bytes_copied();
	if (after - before < sizeof(scratch))
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "a 4096-byte read moved the copy counter by %llu",
			      (unsigned long long)(after - before));

	/* An unaligned USE_HOST_PTR still maps to host_ptr (a copy may be
	 * made, icd_mem.h), with the kernel's result in it. Buffers sharing
	 * host memory are undefined (§5.2.1), so the aligned one goes
	 * first. */
	clReleaseMemObject(use_buf);
	use_buf = NULL;
	odd_buf = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
				(COUNT - 1) * 4, aligned + 1);
	if (odd_buf) {
		CHECK_ERR(clSetKernelArg(add, 0, sizeof(odd_buf), &odd_buf),
			  CL_SUCCESS);
		global = COUNT - 1;
		RUN_KERNEL(api.queue, add, 1, &global, NULL);
		p = clEnqueueMapBuffer(api.queue, odd_buf, CL_TRUE, CL_MAP_READ,
				       0, (COUNT - 1) * 4, 0, NULL, NULL, &err);
		CHECK(p == aligned + 1);
		ok = p != NULL;
		for (int i = 0; ok && i < COUNT - 1; i++)
			ok &= p[i] == i + 3;
		CHECK(ok);
		if (p)
			CHECK_ERR(clEnqueueUnmapMemObject(api.queue, odd_buf, p,
							  0, NULL, NULL),
				  CL_SUCCESS);
		CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
		clReleaseMemObject(odd_buf);
	}
	clReleaseKernel(add);
	clReleaseMemObject(alloc_buf);
	free(aligned);
}

/* §5.4.4 clEnqueueMigrateMemObjects: a hint with no effect on contents
 * unless CONTENT_UNDEFINED is asked for. */
TEST(migrate)
{
	uint8_t ref[4096], back[4096];
	cl_mem buf, list[2];
	cl_event e = NULL;

	pattern(ref, sizeof(ref), 9);
	buf = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			    sizeof(ref), ref);
	REQUIRE(buf);
	list[0] = list[1] = buf;
	CHECK_ERR(
		clEnqueueMigrateMemObjects(api.queue, 1, list, 0, 0, NULL, &e),
		CL_SUCCESS);
	CHECK_ERR(clEnqueueMigrateMemObjects(api.queue, 1, list,
					     CL_MIGRATE_MEM_OBJECT_HOST, 0,
					     NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, sizeof(back),
				      back, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_BYTES(back, ref, sizeof(ref));
	CHECK_ERR(clEnqueueMigrateMemObjects(
			  api.queue, 2, list,
			  CL_MIGRATE_MEM_OBJECT_HOST |
				  CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
			  0, NULL, NULL),
		  CL_SUCCESS);
	if (e) {
		CHECK_ERR(clWaitForEvents(1, &e), CL_SUCCESS);
		CHECK_EQ(command_type(e), CL_COMMAND_MIGRATE_MEM_OBJECTS);
		clReleaseEvent(e);
	}
	CHECK_ERR(clEnqueueMigrateMemObjects(api.queue, 0, list, 0, 0, NULL,
					     NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueMigrateMemObjects(api.queue, 1, NULL, 0, 0, NULL,
					     NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueMigrateMemObjects(api.queue, 1, list, 1u << 6, 0,
					     NULL, NULL),
		  CL_INVALID_VALUE);
	list[1] = (cl_mem)api.queue;
	CHECK_ERR(clEnqueueMigrateMemObjects(api.queue, 2, list, 0, 0, NULL,
					     NULL),
		  CL_INVALID_MEM_OBJECT);
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	clReleaseMemObject(buf);
}

void cl_api_buffer_ops_tests(void)
{
	API_RUN(read_write);
	API_RUN(copy);
	API_RUN(fill);
	API_RUN(rect_read_write_copy);
	API_RUN(map_unmap);
	API_RUN(map_and_kernel_share_data);
	API_RUN(zero_copy_map);
	API_RUN(migrate);
}
