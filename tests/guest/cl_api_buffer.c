/* SPDX-License-Identifier: MIT */
/*
 * Memory objects (spec §5.2.1 creation, §5.4 queries, retain/release and
 * destructor callbacks), sub-buffers, and buffers given to the image and
 * sampler entries (§5.3, §5.5). The commands on buffers are in
 * cl_api_buffer_ops.c, images in cl_api_image.c.
 */
#include <stdlib.h>

#include "cl_api.h"

#define SIZE 4096

static const cl_mem_flags access_flags[] = {
	0,
	CL_MEM_READ_WRITE,
	CL_MEM_READ_ONLY,
	CL_MEM_WRITE_ONLY,
};
static const cl_mem_flags host_flags[] = {
	0,
	CL_MEM_ALLOC_HOST_PTR,
	CL_MEM_USE_HOST_PTR,
	CL_MEM_COPY_HOST_PTR,
	CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
};
static const cl_mem_flags host_access_flags[] = {
	0,
	CL_MEM_HOST_WRITE_ONLY,
	CL_MEM_HOST_READ_ONLY,
	CL_MEM_HOST_NO_ACCESS,
};

/* One buffer of @flags, given @ptr when USE_HOST_PTR or COPY_HOST_PTR is
 * among them: it answers its queries, holds what it was given, and
 * refuses the host access its flags forbid. */
static void check_flags(cl_mem_flags flags, uint8_t *ptr)
{
	bool no_read = flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
	bool no_write = flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
	bool access_given = flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY |
				     CL_MEM_WRITE_ONLY);
	cl_mem_flags got_flags = 0;
	void *got_ptr = (void *)1;
	size_t got_size = 0;
	cl_mem_object_type type = 0;
	cl_uint maps = 99;
	uint8_t back[SIZE];
	cl_int err = 1;
	cl_mem m = clCreateBuffer(api.ctx, flags, SIZE, ptr, &err);

	if (!m) {
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "clCreateBuffer(flags 0x%llx): %s",
			      (unsigned long long)flags, cl_err_name(err));
		return;
	}
	CHECK_ERR(err, CL_SUCCESS);
	CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof(type), &type, NULL),
		  CL_SUCCESS);
	CHECK_EQ(type, CL_MEM_OBJECT_BUFFER);
	CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof(got_flags),
				     &got_flags, NULL),
		  CL_SUCCESS);
	/* The flags as given; no access flag may read back as its default,
	 * CL_MEM_READ_WRITE. */
	if (got_flags != flags &&
	    !(!access_given && got_flags == (flags | CL_MEM_READ_WRITE)))
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "CL_MEM_FLAGS 0x%llx for flags 0x%llx",
			      (unsigned long long)got_flags,
			      (unsigned long long)flags);
	CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof(got_size),
				     &got_size, NULL),
		  CL_SUCCESS);
	CHECK_EQ(got_size, SIZE);
	/* CL_MEM_HOST_PTR: host_ptr for USE_HOST_PTR, else NULL. */
	CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof(got_ptr),
				     &got_ptr, NULL),
		  CL_SUCCESS);
	CHECK(got_ptr == ((flags & CL_MEM_USE_HOST_PTR) ? ptr : NULL));
	CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof(maps), &maps,
				     NULL),
		  CL_SUCCESS);
	CHECK_EQ(maps, 0);

	if (no_read) {
		CHECK_ERR(clEnqueueReadBuffer(api.queue, m, CL_TRUE, 0, 16,
					      back, 0, NULL, NULL),
			  CL_INVALID_OPERATION);
		CHECK(clEnqueueMapBuffer(api.queue, m, CL_TRUE, CL_MAP_READ, 0,
					 16, 0, NULL, NULL, &err) == NULL);
		CHECK_ERR(err, CL_INVALID_OPERATION);
	} else if (ptr) {
		CHECK_ERR(clEnqueueReadBuffer(api.queue, m, CL_TRUE, 0, SIZE,
					      back, 0, NULL, NULL),
			  CL_SUCCESS);
		if (memcmp(back, ptr, SIZE) != 0)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "flags 0x%llx: contents differ from "
				      "host_ptr",
				      (unsigned long long)flags);
	}
	if (no_write) {
		CHECK_ERR(clEnqueueWriteBuffer(api.queue, m, CL_TRUE, 0, 16,
					       back, 0, NULL, NULL),
			  CL_INVALID_OPERATION);
		CHECK(clEnqueueMapBuffer(api.queue, m, CL_TRUE, CL_MAP_WRITE, 0,
					 16, 0, NULL, NULL, &err) == NULL);
		CHECK_ERR(err, CL_INVALID_OPERATION);
		CHECK(clEnqueueMapBuffer(api.queue, m, CL_TRUE,
					 CL_MAP_WRITE_INVALIDATE_REGION, 0, 16,
					 0, NULL, NULL, &err) == NULL);
		CHECK_ERR(err, CL_INVALID_OPERATION);
	}
	CHECK_ERR(clReleaseMemObject(m), CL_SUCCESS);
}

/* Every valid combination of the three groups of flags (§5.2.1 table
 * 5.3), 4 x 5 x 4 of them. */
TEST(buffer_every_flag_combination)
{
	uint8_t *host = aligned_alloc(4096, 2 * SIZE);

	REQUIRE(host);
	for (int combo = 0; combo < 4 * 5 * 4; combo++) {
		cl_mem_flags flags = access_flags[combo / 20] |
				     host_flags[combo / 4 % 5] |
				     host_access_flags[combo % 4];
		/* USE_HOST_PTR both page-aligned and not (icd_mem.h: the
		 * unaligned case is a copy, the aligned one wraps pages). */
		uint8_t *ptr = host + (combo % 2) * 4;

		for (int i = 0; i < SIZE; i++)
			ptr[i] = (uint8_t)(i * 13 + combo);
		check_flags(flags, (flags & (CL_MEM_USE_HOST_PTR |
					     CL_MEM_COPY_HOST_PTR))
					   ? ptr
					   : NULL);
	}
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	free(host);
}

TEST(buffer_create_errors)
{
	static const cl_mem_flags invalid[] = {
		CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
		CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY,
		CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
		CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
		CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY,
		CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_WRITE_ONLY,
		1ull << 20,
	};
	uint8_t host[64];
	cl_int err;

	/* §5.2.1 clCreateBuffer */
	for (size_t i = 0; i < sizeof(invalid) / sizeof(*invalid); i++)
		CHECK_NULL_ERR(
			clCreateBuffer(api.ctx, invalid[i], 64, NULL, &err),
			err, CL_INVALID_VALUE);
	/* USE_HOST_PTR excludes ALLOC_HOST_PTR and COPY_HOST_PTR. */
	CHECK_NULL_ERR(
		clCreateBuffer(api.ctx,
			       CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64,
			       host, &err),
		err, CL_INVALID_VALUE);
	CHECK_NULL_ERR(
		clCreateBuffer(api.ctx,
			       CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64,
			       host, &err),
		err, CL_INVALID_VALUE);
	CHECK_NULL_ERR(
		clCreateBuffer(api.ctx, CL_MEM_READ_WRITE, 0, NULL, &err), err,
		CL_INVALID_BUFFER_SIZE);
	CHECK_NULL_ERR(clCreateBuffer(api.ctx, CL_MEM_READ_WRITE,
				      (size_t)api.max_alloc + 1, NULL, &err),
		       err, CL_INVALID_BUFFER_SIZE);
	CHECK_NULL_ERR(
		clCreateBuffer(api.ctx, CL_MEM_USE_HOST_PTR, 64, NULL, &err),
		err, CL_INVALID_HOST_PTR);
	CHECK_NULL_ERR(
		clCreateBuffer(api.ctx, CL_MEM_COPY_HOST_PTR, 64, NULL, &err),
		err, CL_INVALID_HOST_PTR);
	CHECK_NULL_ERR(
		clCreateBuffer(api.ctx, CL_MEM_READ_WRITE, 64, host, &err), err,
		CL_INVALID_HOST_PTR);
	CHECK_NULL_ERR(clCreateBuffer((cl_context)api.queue, CL_MEM_READ_WRITE,
				      64, NULL, &err),
		       err, CL_INVALID_CONTEXT);
}

TEST(buffer_info_and_refcount)
{
	cl_mem m = cl_api_buffer(CL_MEM_READ_WRITE, SIZE, NULL);
	cl_context c = NULL;
	cl_mem assoc = (cl_mem)1;
	size_t offset = 99, size;
	cl_uint refs;

	REQUIRE(m);
	CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof(c), &c, NULL),
		  CL_SUCCESS);
	CHECK(c == api.ctx);
	CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT,
				     sizeof(assoc), &assoc, NULL),
		  CL_SUCCESS);
	CHECK(assoc == NULL);
	CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof(offset), &offset,
				     NULL),
		  CL_SUCCESS);
	CHECK_EQ(offset, 0);
	CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_SIZE, 0, NULL, &size),
		  CL_SUCCESS);
	CHECK_EQ(size, sizeof(size_t));
	CHECK_ERR(clGetMemObjectInfo(m, CL_MEM_SIZE, 2, &size, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetMemObjectInfo(m, 0x7777, sizeof(size), &size, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetMemObjectInfo((cl_mem)api.queue, CL_MEM_SIZE,
				     sizeof(size), &size, NULL),
		  CL_INVALID_MEM_OBJECT);
	refs = cl_api_refcount(m, REF_MEM);
	CHECK_ERR(clRetainMemObject(m), CL_SUCCESS);
	CHECK_EQ(cl_api_refcount(m, REF_MEM), refs + 1);
	CHECK_ERR(clReleaseMemObject(m), CL_SUCCESS);
	CHECK_EQ(cl_api_refcount(m, REF_MEM), refs);
	CHECK_ERR(clRetainMemObject((cl_mem)api.queue), CL_INVALID_MEM_OBJECT);
	CHECK_ERR(clReleaseMemObject((cl_mem)api.queue), CL_INVALID_MEM_OBJECT);
	CHECK_ERR(clReleaseMemObject(m), CL_SUCCESS);
}

static int destroyed_order[8];
static int destroyed_count;

static void CL_CALLBACK on_destroy(cl_mem m, void *user_data)
{
	int slot = __atomic_fetch_add(&destroyed_count, 1, __ATOMIC_ACQ_REL);

	(void)m;
	if (slot < 8)
		destroyed_order[slot] = (int)(intptr_t)user_data;
}

/* §5.4.1 clSetMemObjectDestructorCallback: called when the object goes,
 * newest registration first. */
TEST(destructor_callbacks)
{
	cl_mem m = cl_api_buffer(CL_MEM_READ_WRITE, SIZE, NULL);

	REQUIRE(m);
	destroyed_count = 0;
	for (intptr_t i = 1; i <= 3; i++)
		CHECK_ERR(clSetMemObjectDestructorCallback(m, on_destroy,
							   (void *)i),
			  CL_SUCCESS);
	CHECK_ERR(clSetMemObjectDestructorCallback(m, NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clSetMemObjectDestructorCallback((cl_mem)api.queue,
						   on_destroy, NULL),
		  CL_INVALID_MEM_OBJECT);
	cl_api_sleep_ms(20);
	CHECK_EQ(__atomic_load_n(&destroyed_count, __ATOMIC_ACQUIRE), 0);
	CHECK_ERR(clReleaseMemObject(m), CL_SUCCESS);
	CHECK(cl_api_wait_flag(&destroyed_count, 3, 5000));
	CHECK_EQ(destroyed_order[0], 3);
	CHECK_EQ(destroyed_order[1], 2);
	CHECK_EQ(destroyed_order[2], 1);
}

/* §5.2.1 clCreateSubBuffer: a window on its parent, sharing storage. */
TEST(sub_buffers)
{
	size_t align = api.base_align ? api.base_align : 128;
	size_t parent_size = 64 * align;
	cl_buffer_region region = { 4 * align, 8 * align };
	uint8_t *host = aligned_alloc(4096, parent_size);
	uint8_t *back = malloc(parent_size);
	cl_mem parent, sub, sub2, use_parent, use_sub, ro_parent;
	cl_mem assoc = NULL;
	size_t offset = 0, size = 0;
	void *hp = NULL;
	cl_int err = 1;
	cl_kernel add = cl_api_kernel("add_k");
	cl_int k = 1000;
	size_t global = region.size / 4;
	bool ok = true;

	REQUIRE(host && back && add);
	for (size_t i = 0; i < parent_size; i++)
		host[i] = (uint8_t)(i * 7);
	parent = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			       parent_size, host);
	REQUIRE(parent);
	sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION,
				&region, &err);
	CHECK_ERR(err, CL_SUCCESS);
	REQUIRE(sub);
	CHECK_ERR(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT,
				     sizeof(assoc), &assoc, NULL),
		  CL_SUCCESS);
	CHECK(assoc == parent);
	CHECK_ERR(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof(offset),
				     &offset, NULL),
		  CL_SUCCESS);
	CHECK_EQ(offset, region.origin);
	CHECK_ERR(
		clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof(size), &size, NULL),
		CL_SUCCESS);
	CHECK_EQ(size, region.size);

	/* Reads through the sub-buffer see the parent's bytes. */
	CHECK_ERR(clEnqueueReadBuffer(api.queue, sub, CL_TRUE, 0, region.size,
				      back, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK(memcmp(back, host + region.origin, region.size) == 0);
	/* A kernel on the sub-buffer changes only its window. */
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(sub), &sub), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(k), &k), CL_SUCCESS);
	RUN_KERNEL(api.queue, add, 1, &global, NULL);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, parent, CL_TRUE, 0,
				      parent_size, back, 0, NULL, NULL),
		  CL_SUCCESS);
	for (size_t i = 0; i < parent_size; i += 4) {
		int32_t was, now;

		memcpy(&was, host + i, 4);
		memcpy(&now, back + i, 4);
		if (i >= region.origin && i < region.origin + region.size)
			was += 1000;
		ok &= was == now;
	}
	if (!ok)
		CHECK_FAIL_AT(
			__FILE__, __LINE__,
			"a kernel on sub-buffer [%zu, +%zu) did not change "
			"exactly that window of its parent",
			region.origin, region.size);

	/* §5.2.1: flags the sub-buffer may not have. */
	CHECK_NULL_ERR(clCreateSubBuffer(parent, CL_MEM_USE_HOST_PTR,
					 CL_BUFFER_CREATE_TYPE_REGION, &region,
					 &err),
		       err, CL_INVALID_VALUE);
	CHECK_NULL_ERR(clCreateSubBuffer(parent, CL_MEM_ALLOC_HOST_PTR,
					 CL_BUFFER_CREATE_TYPE_REGION, &region,
					 &err),
		       err, CL_INVALID_VALUE);
	ro_parent = cl_api_buffer(CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY,
				  parent_size, NULL);
	if (ro_parent) {
		CHECK_NULL_ERR(clCreateSubBuffer(ro_parent, CL_MEM_WRITE_ONLY,
						 CL_BUFFER_CREATE_TYPE_REGION,
						 &region, &err),
			       err, CL_INVALID_VALUE);
		CHECK_NULL_ERR(clCreateSubBuffer(ro_parent, CL_MEM_READ_WRITE,
						 CL_BUFFER_CREATE_TYPE_REGION,
						 &region, &err),
			       err, CL_INVALID_VALUE);
		CHECK_NULL_ERR(clCreateSubBuffer(ro_parent,
						 CL_MEM_HOST_WRITE_ONLY,
						 CL_BUFFER_CREATE_TYPE_REGION,
						 &region, &err),
			       err, CL_INVALID_VALUE);
		sub2 = clCreateSubBuffer(ro_parent, 0,
					 CL_BUFFER_CREATE_TYPE_REGION, &region,
					 &err);
		CHECK_ERR(err, CL_SUCCESS);
		if (sub2)
			clReleaseMemObject(sub2);
		clReleaseMemObject(ro_parent);
	}
	/* Errors of the region and the buffer. */
	{
		cl_buffer_region out = { parent_size - align, 2 * align };
		cl_buffer_region empty = { 0, 0 };
		cl_buffer_region odd = { 4, 64 };

		CHECK_NULL_ERR(clCreateSubBuffer(parent, 0,
						 CL_BUFFER_CREATE_TYPE_REGION,
						 &out, &err),
			       err, CL_INVALID_VALUE);
		CHECK_NULL_ERR(clCreateSubBuffer(parent, 0,
						 CL_BUFFER_CREATE_TYPE_REGION,
						 &empty, &err),
			       err, CL_INVALID_BUFFER_SIZE);
		CHECK_NULL_ERR(
			clCreateSubBuffer(parent, 0, 0x7777, &region, &err),
			err, CL_INVALID_VALUE);
		CHECK_NULL_ERR(clCreateSubBuffer(parent, 0,
						 CL_BUFFER_CREATE_TYPE_REGION,
						 NULL, &err),
			       err, CL_INVALID_VALUE);
		if (align > 4)
			CHECK_NULL_ERR(
				clCreateSubBuffer(parent, 0,
						  CL_BUFFER_CREATE_TYPE_REGION,
						  &odd, &err),
				err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
		cl_buffer_region first = { 0, align };

		CHECK_NULL_ERR(clCreateSubBuffer(sub, 0,
						 CL_BUFFER_CREATE_TYPE_REGION,
						 &first, &err),
			       err, CL_INVALID_MEM_OBJECT);
		CHECK_NULL_ERR(clCreateSubBuffer((cl_mem)api.queue, 0,
						 CL_BUFFER_CREATE_TYPE_REGION,
						 &region, &err),
			       err, CL_INVALID_MEM_OBJECT);
	}

	/* CL_MEM_HOST_PTR of a USE_HOST_PTR parent's sub-buffer is host_ptr
	 * + origin (§5.4.5 table 5.12). */
	use_parent = cl_api_buffer(CL_MEM_USE_HOST_PTR, parent_size, host);
	if (use_parent) {
		use_sub = clCreateSubBuffer(use_parent, 0,
					    CL_BUFFER_CREATE_TYPE_REGION,
					    &region, &err);
		CHECK(use_sub != NULL);
		if (use_sub) {
			CHECK_ERR(clGetMemObjectInfo(use_sub, CL_MEM_HOST_PTR,
						     sizeof(hp), &hp, NULL),
				  CL_SUCCESS);
			CHECK(hp == host + region.origin);
			clReleaseMemObject(use_sub);
		}
		clReleaseMemObject(use_parent);
	}

	/* §5.4.1: the parent stays until its sub-buffers went; its
	 * destructor callback comes only then. */
	destroyed_count = 0;
	CHECK_ERR(
		clSetMemObjectDestructorCallback(parent, on_destroy, (void *)7),
		CL_SUCCESS);
	CHECK_ERR(clReleaseMemObject(parent), CL_SUCCESS);
	cl_api_sleep_ms(50);
	CHECK_EQ(__atomic_load_n(&destroyed_count, __ATOMIC_ACQUIRE), 0);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, sub, CL_TRUE, 0, region.size,
				      back, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clReleaseMemObject(sub), CL_SUCCESS);
	CHECK(cl_api_wait_flag(&destroyed_count, 1, 5000));
	clReleaseKernel(add);
	free(host);
	free(back);
}

/* §5.3 and §5.5: with CL_DEVICE_IMAGE_SUPPORT false, image and sampler
 * creation is CL_INVALID_OPERATION; either way a buffer is no image, so
 * every image command given one is CL_INVALID_MEM_OBJECT, and no other
 * object is a sampler. (Images themselves: cl_api_image.c.) */
TEST(buffers_are_not_images)
{
	cl_image_format fmt = { CL_RGBA, CL_UNORM_INT8 };
	cl_image_desc desc = { .image_type = CL_MEM_OBJECT_IMAGE2D,
			       .image_width = 16,
			       .image_height = 16 };
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, SIZE, NULL);
	size_t origin[3] = { 0 }, region[3] = { 1, 1, 1 }, v = 0;
	cl_uint n = 99;
	cl_int err;
	uint8_t pixel[16];
	cl_image_format formats[4];
	cl_bool images = CL_TRUE;

	REQUIRE(buf);
	CHECK_ERR(clGetDeviceInfo(api.device, CL_DEVICE_IMAGE_SUPPORT,
				  sizeof(images), &images, NULL), CL_SUCCESS);
	if (!images) {
		CHECK_NULL_ERR(clCreateImage(api.ctx, CL_MEM_READ_WRITE, &fmt,
					     &desc, NULL, &err),
			       err, CL_INVALID_OPERATION);
		CHECK_NULL_ERR(clCreateSampler(api.ctx, CL_FALSE,
					       CL_ADDRESS_NONE,
					       CL_FILTER_NEAREST, &err),
			       err, CL_INVALID_OPERATION);
		err = clGetSupportedImageFormats(api.ctx, CL_MEM_READ_WRITE,
						 CL_MEM_OBJECT_IMAGE2D, 4,
						 formats, &n);
		if (err == CL_SUCCESS)
			CHECK_EQ(n, 0);
		else
			CHECK_ERR(err, CL_INVALID_OPERATION);
		/* OpenCL 1.1's image creators (deprecated in 1.2). */
		CHECK_NULL_ERR(clCreateImage2D(api.ctx, CL_MEM_READ_WRITE,
					       &fmt, 16, 16, 0, NULL, &err),
			       err, CL_INVALID_OPERATION);
		CHECK_NULL_ERR(clCreateImage3D(api.ctx, CL_MEM_READ_WRITE,
					       &fmt, 16, 16, 2, 0, 0, NULL,
					       &err),
			       err, CL_INVALID_OPERATION);
	}
	CHECK_ERR(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof(v), &v, NULL),
		  CL_INVALID_MEM_OBJECT);
	CHECK_ERR(clEnqueueReadImage(api.queue, buf, CL_TRUE, origin, region, 0,
				     0, pixel, 0, NULL, NULL),
		  CL_INVALID_MEM_OBJECT);
	CHECK_ERR(clEnqueueWriteImage(api.queue, buf, CL_TRUE, origin, region,
				      0, 0, pixel, 0, NULL, NULL),
		  CL_INVALID_MEM_OBJECT);
	CHECK_ERR(clEnqueueCopyImage(api.queue, buf, buf, origin, origin,
				     region, 0, NULL, NULL),
		  CL_INVALID_MEM_OBJECT);
	{
		cl_float4 color = { { 0 } };

		CHECK_ERR(clEnqueueFillImage(api.queue, buf, &color, origin,
					     region, 0, NULL, NULL),
			  CL_INVALID_MEM_OBJECT);
	}
	CHECK_ERR(clEnqueueCopyImageToBuffer(api.queue, buf, buf, origin,
					     region, 0, 0, NULL, NULL),
		  CL_INVALID_MEM_OBJECT);
	CHECK_ERR(clEnqueueCopyBufferToImage(api.queue, buf, buf, 0, origin,
					     region, 0, NULL, NULL),
		  CL_INVALID_MEM_OBJECT);
	{
		size_t pitch = 0;

		CHECK(clEnqueueMapImage(api.queue, buf, CL_TRUE, CL_MAP_READ,
					origin, region, &pitch, NULL, 0, NULL,
					NULL, &err) == NULL);
		CHECK_ERR(err, CL_INVALID_MEM_OBJECT);
	}
	/* A handle of another kind is no sampler. */
	{
		cl_sampler not_sampler = (cl_sampler)buf;
		cl_uint refs;

		CHECK_ERR(clRetainSampler(not_sampler), CL_INVALID_SAMPLER);
		CHECK_ERR(clReleaseSampler(not_sampler), CL_INVALID_SAMPLER);
		CHECK_ERR(clGetSamplerInfo(not_sampler,
					   CL_SAMPLER_REFERENCE_COUNT,
					   sizeof(refs), &refs, NULL),
			  CL_INVALID_SAMPLER);
	}
	clReleaseMemObject(buf);
}

void cl_api_buffer_tests(void)
{
	API_RUN(buffer_every_flag_combination);
	API_RUN(buffer_create_errors);
	API_RUN(buffer_info_and_refcount);
	API_RUN(destructor_callbacks);
	API_RUN(sub_buffers);
	API_RUN(buffers_are_not_images);
	cl_api_buffer_ops_tests();
}
