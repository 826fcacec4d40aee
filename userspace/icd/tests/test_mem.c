/* SPDX-License-Identifier: MIT */
/*
 * Buffers and the buffer commands on the host's fake GPU. clCreateBuffer
 * checks everything, then fails with CL_OUT_OF_RESOURCES (no address
 * space to put storage in). Everything past creation runs on buffers made
 * here with malloc'd storage and no BO (cache maintenance is then a
 * no-op): sub-buffers, queries, destructor callbacks, and every command
 * through a real queue, checked byte by byte.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "cl_sleipnir.h"
#include "icd_context.h"
#include "icd_mem.h"
#include "icd_tests.h"

#define ALIGN 128 /* CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8 */

/* A buffer as clCreateBuffer makes one, its storage malloc'd instead of
 * a BO; @host_ptr with CL_MEM_USE_HOST_PTR makes it a shadowed one. */
static cl_mem fake_buffer(cl_context c, cl_mem_flags flags, size_t size,
			  void *host_ptr)
{
	cl_mem m = test_fake_mem(c, CL_MEM_OBJECT_BUFFER, flags, size);

	if (flags & CL_MEM_USE_HOST_PTR) {
		m->host_ptr = host_ptr;
		m->shadowed = true;
		memcpy(m->cpu, host_ptr, size);
	}
	return m;
}

static cl_ulong bytes_copied(void)
{
	cl_ulong n = 0;

	clGetDeviceInfo(test_device(), CL_DEVICE_SLEIPNIR_BYTES_COPIED,
			sizeof(n), &n, NULL);
	return n;
}

/* --- creation ------------------------------------------------------------ */

#define FAILS_WITH(expr, code)                                               \
	do {                                                                 \
		err = 1;                                                     \
		CHECK((expr) == NULL);                                       \
		CHECK_EQ(err, code);                                         \
	} while (0)

TEST(create_buffer_rules)
{
	static const cl_mem_flags invalid[] = {
		CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
		CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY,
		CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
		CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
		CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
		CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
		CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
		CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
		(cl_mem_flags)1 << 40,
	};
	static const cl_mem_flags valid[] = {
		0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY,
		CL_MEM_ALLOC_HOST_PTR, CL_MEM_HOST_NO_ACCESS,
		CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
		CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR,
	};
	cl_context c = test_context();
	cl_ulong max = 0;
	char host[64];
	cl_int err;

	REQUIRE(c);
	clGetDeviceInfo(test_device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE,
			sizeof(max), &max, NULL);
	FAILS_WITH(clCreateBuffer(NULL, 0, 4, NULL, &err), CL_INVALID_CONTEXT);
	FAILS_WITH(clCreateBuffer((cl_context)test_device(), 0, 4, NULL,
				  &err), CL_INVALID_CONTEXT);
	for (size_t i = 0; i < sizeof(invalid) / sizeof(*invalid); i++)
		FAILS_WITH(clCreateBuffer(c, invalid[i], sizeof(host), host,
					  &err), CL_INVALID_VALUE);
	FAILS_WITH(clCreateBuffer(c, 0, 0, NULL, &err), CL_INVALID_BUFFER_SIZE);
	FAILS_WITH(clCreateBuffer(c, 0, (size_t)max + 1, NULL, &err),
		   CL_INVALID_BUFFER_SIZE);
	/* host_ptr with USE/COPY_HOST_PTR, and only with them. */
	FAILS_WITH(clCreateBuffer(c, CL_MEM_USE_HOST_PTR, 4, NULL, &err),
		   CL_INVALID_HOST_PTR);
	FAILS_WITH(clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, 4, NULL, &err),
		   CL_INVALID_HOST_PTR);
	FAILS_WITH(clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR, 4, host, &err),
		   CL_INVALID_HOST_PTR);
	FAILS_WITH(clCreateBuffer(c, 0, 4, host, &err), CL_INVALID_HOST_PTR);
	/* Valid arguments: only the storage is missing on the host. */
	for (size_t i = 0; i < sizeof(valid) / sizeof(*valid); i++)
		FAILS_WITH(clCreateBuffer(c, valid[i], sizeof(host), NULL,
					  &err), CL_OUT_OF_RESOURCES);
	FAILS_WITH(clCreateBuffer(c, CL_MEM_USE_HOST_PTR, sizeof(host), host,
				  &err), CL_OUT_OF_RESOURCES);
	FAILS_WITH(clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR |
				  CL_MEM_COPY_HOST_PTR, sizeof(host), host,
				  &err), CL_OUT_OF_RESOURCES);
	FAILS_WITH(clCreateBuffer(c, 0, (size_t)max, NULL, &err),
		   CL_OUT_OF_RESOURCES);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

TEST(handles)
{
	cl_context c = test_context();
	cl_mem not_mem = (cl_mem)c;
	cl_int err;

	REQUIRE(c);
	CHECK_EQ(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clReleaseMemObject(not_mem), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clGetMemObjectInfo(not_mem, CL_MEM_SIZE, 0, NULL, NULL),
		 CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clSetMemObjectDestructorCallback(NULL, test_free_storage, NULL),
		 CL_INVALID_MEM_OBJECT);
	FAILS_WITH(clCreateSubBuffer(not_mem, 0, CL_BUFFER_CREATE_TYPE_REGION,
				     NULL, &err), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

/* --- objects ------------------------------------------------------------- */

TEST(mem_info)
{
	cl_context c = test_context();
	char host[512];
	cl_mem b, s;
	cl_buffer_region r = { ALIGN, 256 };
	union {
		cl_mem_object_type type;
		cl_mem_flags flags;
		size_t sz;
		void *ptr;
		cl_uint u;
		cl_context ctx;
		cl_mem mem;
	} v;
	size_t size;

	REQUIRE(c);
	b = fake_buffer(c, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
			sizeof(host), host);
#define INFO(m, p) clGetMemObjectInfo(m, p, sizeof(v), &v, &size)
	CHECK_EQ(INFO(b, CL_MEM_TYPE), CL_SUCCESS);
	CHECK(v.type == CL_MEM_OBJECT_BUFFER && size == sizeof(v.type));
	CHECK_EQ(INFO(b, CL_MEM_FLAGS), CL_SUCCESS);
	CHECK_EQ(v.flags, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR);
	CHECK_EQ(INFO(b, CL_MEM_SIZE), CL_SUCCESS);
	CHECK_EQ(v.sz, sizeof(host));
	CHECK_EQ(INFO(b, CL_MEM_HOST_PTR), CL_SUCCESS);
	CHECK(v.ptr == host && size == sizeof(void *));
	CHECK_EQ(INFO(b, CL_MEM_MAP_COUNT), CL_SUCCESS);
	CHECK_EQ(v.u, 0);
	CHECK_EQ(INFO(b, CL_MEM_REFERENCE_COUNT), CL_SUCCESS);
	CHECK_EQ(v.u, 1);
	CHECK_EQ(INFO(b, CL_MEM_CONTEXT), CL_SUCCESS);
	CHECK(v.ctx == c);
	CHECK_EQ(INFO(b, CL_MEM_ASSOCIATED_MEMOBJECT), CL_SUCCESS);
	CHECK(v.mem == NULL);
	CHECK_EQ(INFO(b, CL_MEM_OFFSET), CL_SUCCESS);
	CHECK_EQ(v.sz, 0);
	CHECK_EQ(clGetMemObjectInfo(b, CL_MEM_SIZE, sizeof(size_t) - 1, &v,
				    NULL), CL_INVALID_VALUE);
	CHECK_EQ(clGetMemObjectInfo(b, 0x5555, sizeof(v), &v, NULL),
		 CL_INVALID_VALUE);

	/* A sub-buffer inherits the parent's flags and offsets host_ptr. */
	s = clCreateSubBuffer(b, CL_MEM_HOST_READ_ONLY,
			      CL_BUFFER_CREATE_TYPE_REGION, &r, NULL);
	REQUIRE(s);
	CHECK_EQ(INFO(s, CL_MEM_FLAGS), CL_SUCCESS);
	CHECK_EQ(v.flags, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR |
		 CL_MEM_HOST_READ_ONLY);
	CHECK_EQ(INFO(s, CL_MEM_SIZE), CL_SUCCESS);
	CHECK_EQ(v.sz, 256);
	CHECK_EQ(INFO(s, CL_MEM_HOST_PTR), CL_SUCCESS);
	CHECK(v.ptr == host + ALIGN);
	CHECK_EQ(INFO(s, CL_MEM_ASSOCIATED_MEMOBJECT), CL_SUCCESS);
	CHECK(v.mem == b);
	CHECK_EQ(INFO(s, CL_MEM_OFFSET), CL_SUCCESS);
	CHECK_EQ(v.sz, ALIGN);
#undef INFO
	CHECK_EQ(clRetainMemObject(b), CL_SUCCESS);
	CHECK_EQ(clGetMemObjectInfo(b, CL_MEM_REFERENCE_COUNT, sizeof(v.u),
				    &v.u, NULL), CL_SUCCESS);
	CHECK_EQ(v.u, 2);
	CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
	CHECK_EQ(clReleaseMemObject(s), CL_SUCCESS);
	CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

TEST(sub_buffer_rules)
{
	cl_context c = test_context();
	cl_mem rw = NULL, wo = NULL, ro = NULL, hw = NULL, hr = NULL, hn = NULL;
	cl_buffer_region r = { 0, 64 }, bad;
	char host[1024];
	cl_int err;

	REQUIRE(c);
	rw = fake_buffer(c, CL_MEM_READ_WRITE, 1024, NULL);
	wo = fake_buffer(c, CL_MEM_WRITE_ONLY, 1024, NULL);
	ro = fake_buffer(c, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, 1024, host);
	hw = fake_buffer(c, CL_MEM_HOST_WRITE_ONLY, 1024, NULL);
	hr = fake_buffer(c, CL_MEM_HOST_READ_ONLY, 1024, NULL);
	hn = fake_buffer(c, CL_MEM_HOST_NO_ACCESS, 1024, NULL);
#define SUB(b, f, t, info) clCreateSubBuffer(b, f, t, info, &err)
	/* Host-pointer flags cannot be given; bad and conflicting modes. */
	FAILS_WITH(SUB(rw, CL_MEM_USE_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION,
		       &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(rw, CL_MEM_ALLOC_HOST_PTR,
		       CL_BUFFER_CREATE_TYPE_REGION, &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(ro, CL_MEM_COPY_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION,
		       &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(rw, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
		       CL_BUFFER_CREATE_TYPE_REGION, &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(wo, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
		       &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(wo, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION,
		       &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(ro, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
		       &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(ro, CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION,
		       &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(hw, CL_MEM_HOST_READ_ONLY,
		       CL_BUFFER_CREATE_TYPE_REGION, &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(hr, CL_MEM_HOST_WRITE_ONLY,
		       CL_BUFFER_CREATE_TYPE_REGION, &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(hn, CL_MEM_HOST_READ_ONLY,
		       CL_BUFFER_CREATE_TYPE_REGION, &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(hn, CL_MEM_HOST_WRITE_ONLY,
		       CL_BUFFER_CREATE_TYPE_REGION, &r), CL_INVALID_VALUE);
	/* Type and region. */
	FAILS_WITH(SUB(rw, 0, 0x7777, &r), CL_INVALID_VALUE);
	FAILS_WITH(SUB(rw, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL),
		   CL_INVALID_VALUE);
	bad = (cl_buffer_region){ 0, 0 };
	FAILS_WITH(SUB(rw, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad),
		   CL_INVALID_BUFFER_SIZE);
	bad = (cl_buffer_region){ 1024 - ALIGN, ALIGN + 1 };
	FAILS_WITH(SUB(rw, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad),
		   CL_INVALID_VALUE);
	bad = (cl_buffer_region){ ALIGN, SIZE_MAX };
	FAILS_WITH(SUB(rw, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad),
		   CL_INVALID_VALUE);
	bad = (cl_buffer_region){ ALIGN / 2, 64 };
	FAILS_WITH(SUB(rw, 0, CL_BUFFER_CREATE_TYPE_REGION, &bad),
		   CL_MISALIGNED_SUB_BUFFER_OFFSET);
	/* What is allowed: narrowing, the same, inheriting; not a sub of a
	 * sub. */
	{
		cl_mem s1 = SUB(rw, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
				CL_BUFFER_CREATE_TYPE_REGION, &r);
		cl_mem s2 = SUB(wo, CL_MEM_WRITE_ONLY,
				CL_BUFFER_CREATE_TYPE_REGION, &r);
		cl_buffer_region whole = { 0, 1024 };
		cl_mem s3 = SUB(hn, 0, CL_BUFFER_CREATE_TYPE_REGION, &whole);

		CHECK(s1 && s2 && s3);
		CHECK_EQ(err, CL_SUCCESS);
		if (s1)
			FAILS_WITH(SUB(s1, 0, CL_BUFFER_CREATE_TYPE_REGION,
				       &r), CL_INVALID_MEM_OBJECT);
		clReleaseMemObject(s1);
		clReleaseMemObject(s2);
		clReleaseMemObject(s3);
	}
#undef SUB
	clReleaseMemObject(rw);
	clReleaseMemObject(wo);
	clReleaseMemObject(ro);
	clReleaseMemObject(hw);
	clReleaseMemObject(hr);
	clReleaseMemObject(hn);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

static int order[8], calls;

static void CL_CALLBACK record(cl_mem mem, void *user_data)
{
	(void)mem;
	order[calls++] = (int)(intptr_t)user_data;
}

TEST(destructor_callbacks)
{
	cl_context c = test_context();
	cl_buffer_region r = { 0, 64 };
	cl_mem b, s;

	REQUIRE(c);
	calls = 0;
	b = fake_buffer(c, 0, 256, NULL);
	CHECK_EQ(clSetMemObjectDestructorCallback(b, NULL, NULL),
		 CL_INVALID_VALUE);
	for (intptr_t i = 1; i <= 3; i++)
		CHECK_EQ(clSetMemObjectDestructorCallback(b, record, (void *)i),
			 CL_SUCCESS);
	s = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, NULL);
	REQUIRE(s);
	CHECK_EQ(clSetMemObjectDestructorCallback(s, record, (void *)9),
		 CL_SUCCESS);
	/* The sub-buffer keeps the parent's storage: no callback yet. */
	CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
	CHECK_EQ(calls, 0);
	CHECK_EQ(clReleaseMemObject(s), CL_SUCCESS);
	/* The sub-buffer's, then the parent's in reverse order (the
	 * fake's storage callback, registered first, runs last). */
	CHECK_EQ(calls, 4);
	CHECK(order[0] == 9 && order[1] == 3 && order[2] == 2 &&
	      order[3] == 1);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

/* --- commands ------------------------------------------------------------ */

TEST(read_write_copy)
{
	struct test_queue f;
	uint8_t in[1024], out[1024];
	cl_mem a, b, s1, s2;
	cl_buffer_region r1 = { 0, 512 }, r2 = { 256, 512 };
	cl_ulong before;
	cl_event ev = NULL;

	REQUIRE(test_queue_open(&f));
	for (int i = 0; i < 1024; i++)
		in[i] = (uint8_t)(i * 7 + 1);
	a = fake_buffer(f.c, 0, 1024, NULL);
	b = fake_buffer(f.c, 0, 1024, NULL);
	before = bytes_copied();
	CHECK_EQ(clEnqueueWriteBuffer(f.q, a, CL_TRUE, 0, 1024, in, 0, NULL,
				      NULL), CL_SUCCESS);
	CHECK(memcmp(a->cpu, in, 1024) == 0);
	CHECK_EQ(clEnqueueCopyBuffer(f.q, a, b, 100, 200, 300, 0, NULL, &ev),
		 CL_SUCCESS);
	REQUIRE(ev);
	CHECK_EQ(clEnqueueReadBuffer(f.q, b, CL_TRUE, 200, 300, out, 1, &ev,
				     NULL), CL_SUCCESS);
	CHECK(memcmp(out, in + 100, 300) == 0);
	CHECK_EQ(bytes_copied() - before, 1024 + 300 + 300);
	clReleaseEvent(ev);
	/* Same buffer, disjoint and overlapping; sub-buffers of one parent
	 * overlap when their ranges in it do. */
	CHECK_EQ(clEnqueueCopyBuffer(f.q, a, a, 0, 512, 512, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueCopyBuffer(f.q, a, a, 0, 511, 512, 0, NULL, NULL),
		 CL_MEM_COPY_OVERLAP);
	s1 = clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, NULL);
	s2 = clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, NULL);
	REQUIRE(s1 && s2);
	CHECK_EQ(clEnqueueCopyBuffer(f.q, s1, s2, 0, 0, 256, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueCopyBuffer(f.q, s1, s2, 0, 0, 257, 0, NULL, NULL),
		 CL_MEM_COPY_OVERLAP);
	CHECK_EQ(clEnqueueCopyBuffer(f.q, s2, a, 0, 0, 256, 0, NULL, NULL),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueCopyBuffer(f.q, s2, a, 0, 260, 16, 0, NULL, NULL),
		 CL_MEM_COPY_OVERLAP);
	CHECK_EQ(clEnqueueCopyBuffer(f.q, a, b, 0, 0, 0, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clFinish(f.q), CL_SUCCESS);
	/* a[512..] = a[0..512) = in; then s2[0..256) = a[256..512) = in[256..];
	 * then a[0..256) = s2[0..256) = in[256..512). */
	CHECK(memcmp(a->cpu, in + 256, 256) == 0);
	CHECK(memcmp(a->cpu + 512, in, 512) == 0);
	clReleaseMemObject(s1);
	clReleaseMemObject(s2);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	test_queue_close(&f);
}

TEST(command_errors)
{
	struct test_queue f;
	struct test_queue other;
	cl_mem b, foreign, hw, hr, hn;
	char buf[64];
	cl_event bad_list[1] = { NULL };
	cl_int err;

	REQUIRE(test_queue_open(&f));
	REQUIRE(test_queue_open(&other));
	b = fake_buffer(f.c, 0, 64, NULL);
	foreign = fake_buffer(other.c, 0, 64, NULL);
	hw = fake_buffer(f.c, CL_MEM_HOST_WRITE_ONLY, 64, NULL);
	hr = fake_buffer(f.c, CL_MEM_HOST_READ_ONLY, 64, NULL);
	hn = fake_buffer(f.c, CL_MEM_HOST_NO_ACCESS, 64, NULL);

	/* Queue, wait list, buffer, context. */
	CHECK_EQ(clEnqueueReadBuffer(NULL, b, CL_TRUE, 0, 4, buf, 0, NULL,
				     NULL), CL_INVALID_COMMAND_QUEUE);
	CHECK_EQ(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, 4, buf, 1, NULL,
				     NULL), CL_INVALID_EVENT_WAIT_LIST);
	CHECK_EQ(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, 4, buf, 1, bad_list,
				     NULL), CL_INVALID_EVENT_WAIT_LIST);
	CHECK_EQ(clEnqueueWriteBuffer(f.q, (cl_mem)f.c, CL_TRUE, 0, 4, buf, 0,
				      NULL, NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueWriteBuffer(f.q, foreign, CL_TRUE, 0, 4, buf, 0,
				      NULL, NULL), CL_INVALID_CONTEXT);
	CHECK_EQ(clEnqueueCopyBuffer(f.q, b, foreign, 0, 0, 4, 0, NULL, NULL),
		 CL_INVALID_CONTEXT);
	CHECK_EQ(clEnqueueCopyBuffer(f.q, NULL, b, 0, 0, 4, 0, NULL, NULL),
		 CL_INVALID_MEM_OBJECT);
	/* Ranges, pointers, sizes. */
	CHECK_EQ(clEnqueueReadBuffer(f.q, b, CL_TRUE, 60, 5, buf, 0, NULL,
				     NULL), CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueReadBuffer(f.q, b, CL_TRUE, SIZE_MAX, 2, buf, 0,
				     NULL, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueReadBuffer(f.q, b, CL_TRUE, 0, 4, NULL, 0, NULL,
				     NULL), CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueWriteBuffer(f.q, b, CL_TRUE, 0, 0, buf, 0, NULL,
				      NULL), CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueCopyBuffer(f.q, b, b, 0, 32, 33, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	/* Host access. */
	CHECK_EQ(clEnqueueReadBuffer(f.q, hw, CL_TRUE, 0, 4, buf, 0, NULL,
				     NULL), CL_INVALID_OPERATION);
	CHECK_EQ(clEnqueueReadBuffer(f.q, hn, CL_TRUE, 0, 4, buf, 0, NULL,
				     NULL), CL_INVALID_OPERATION);
	CHECK_EQ(clEnqueueWriteBuffer(f.q, hr, CL_TRUE, 0, 4, buf, 0, NULL,
				      NULL), CL_INVALID_OPERATION);
	CHECK_EQ(clEnqueueWriteBuffer(f.q, hn, CL_TRUE, 0, 4, buf, 0, NULL,
				      NULL), CL_INVALID_OPERATION);
	CHECK_EQ(clEnqueueWriteBuffer(f.q, hw, CL_TRUE, 0, 4, buf, 0, NULL,
				      NULL), CL_SUCCESS);
	CHECK_EQ(clEnqueueReadBuffer(f.q, hr, CL_TRUE, 0, 4, buf, 0, NULL,
				     NULL), CL_SUCCESS);
	/* The device copies whatever the host may do. */
	CHECK_EQ(clEnqueueCopyBuffer(f.q, hn, hn, 0, 32, 32, 0, NULL, NULL),
		 CL_SUCCESS);
	/* Map: flags, host access, range. */
	CHECK(clEnqueueMapBuffer(f.q, b, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL,
				 NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clEnqueueMapBuffer(f.q, b, CL_TRUE, CL_MAP_READ, 32, 33, 0,
				 NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clEnqueueMapBuffer(f.q, b, CL_TRUE, 1 << 7, 0, 4, 0, NULL, NULL,
				 &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clEnqueueMapBuffer(f.q, b, CL_TRUE, CL_MAP_READ |
				 CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0, NULL,
				 NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clEnqueueMapBuffer(f.q, hw, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL,
				 NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_OPERATION);
	CHECK(clEnqueueMapBuffer(f.q, hr, CL_TRUE, CL_MAP_WRITE, 0, 4, 0,
				 NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_OPERATION);
	CHECK(clEnqueueMapBuffer(f.q, hr, CL_TRUE,
				 CL_MAP_WRITE_INVALIDATE_REGION, 0, 4, 0, NULL,
				 NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_OPERATION);
	CHECK(clEnqueueMapBuffer(f.q, hn, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL,
				 NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_OPERATION);
	CHECK(clEnqueueMapBuffer(NULL, b, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL,
				 NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_COMMAND_QUEUE);
	CHECK(clEnqueueMapBuffer(f.q, foreign, CL_TRUE, CL_MAP_READ, 0, 4, 0,
				 NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	CHECK_EQ(clEnqueueUnmapMemObject(f.q, b, buf, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueUnmapMemObject(f.q, NULL, buf, 0, NULL, NULL),
		 CL_INVALID_MEM_OBJECT);
	/* Fill: pattern sizes and multiples. */
	{
		uint8_t pat[256] = { 0 };
		static const size_t bad_sizes[] = { 0, 3, 6, 12, 256 };

		for (size_t i = 0; i < sizeof(bad_sizes) / sizeof(*bad_sizes);
		     i++)
			CHECK_EQ(clEnqueueFillBuffer(f.q, b, pat, bad_sizes[i],
						     0, 0, 0, NULL, NULL),
				 CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueFillBuffer(f.q, b, NULL, 4, 0, 4, 0, NULL,
					     NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueFillBuffer(f.q, b, pat, 4, 2, 4, 0, NULL,
					     NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueFillBuffer(f.q, b, pat, 4, 0, 6, 0, NULL,
					     NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueFillBuffer(f.q, b, pat, 4, 32, 36, 0, NULL,
					     NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueFillBuffer(f.q, b, pat, 64, 0, 64, 0, NULL,
					     NULL), CL_SUCCESS);
		CHECK_EQ(clEnqueueFillBuffer(f.q, foreign, pat, 4, 0, 4, 0,
					     NULL, NULL), CL_INVALID_CONTEXT);
	}
	/* Migrate. */
	{
		cl_mem two[2] = { b, hn }, mixed[2] = { b, foreign };

		CHECK_EQ(clEnqueueMigrateMemObjects(f.q, 2, two, 0, 0, NULL,
						    NULL), CL_SUCCESS);
		CHECK_EQ(clEnqueueMigrateMemObjects(f.q, 2, two,
			 CL_MIGRATE_MEM_OBJECT_HOST |
			 CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL,
			 NULL), CL_SUCCESS);
		CHECK_EQ(clEnqueueMigrateMemObjects(f.q, 0, two, 0, 0, NULL,
						    NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueMigrateMemObjects(f.q, 2, NULL, 0, 0, NULL,
						    NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueMigrateMemObjects(f.q, 2, two, 1 << 5, 0,
						    NULL, NULL),
			 CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueMigrateMemObjects(f.q, 2, mixed, 0, 0, NULL,
						    NULL), CL_INVALID_CONTEXT);
		CHECK_EQ(clEnqueueMigrateMemObjects(NULL, 2, two, 0, 0, NULL,
						    NULL),
			 CL_INVALID_COMMAND_QUEUE);
	}
	CHECK_EQ(clFinish(f.q), CL_SUCCESS);
	clReleaseMemObject(b);
	clReleaseMemObject(foreign);
	clReleaseMemObject(hw);
	clReleaseMemObject(hr);
	clReleaseMemObject(hn);
	test_queue_close(&other);
	test_queue_close(&f);
}

TEST(fill)
{
	struct test_queue f;
	cl_mem b;
	uint8_t pat[128];
	size_t sizes[] = { 1, 2, 4, 8, 16, 32, 64, 128 };

	REQUIRE(test_queue_open(&f));
	for (int i = 0; i < 128; i++)
		pat[i] = (uint8_t)(0x80 + i);
	b = fake_buffer(f.c, 0, 4096, NULL);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		size_t ps = sizes[k], off = 2 * ps * 3, n = ps * 13;

		memset(b->cpu, 0x11, 4096);
		CHECK_EQ(clEnqueueFillBuffer(f.q, b, pat, ps, off, n, 0, NULL,
					     NULL), CL_SUCCESS);
		CHECK_EQ(clFinish(f.q), CL_SUCCESS);
		for (size_t i = 0; i < 4096; i++) {
			uint8_t want = i >= off && i < off + n ?
				       pat[(i - off) % ps] : 0x11;

			if (b->cpu[i] != want) {
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "pattern %zu: byte %zu", ps, i);
				break;
			}
		}
	}
	clReleaseMemObject(b);
	test_queue_close(&f);
}

TEST(rects)
{
	struct test_queue f;
	cl_mem b;
	uint8_t host[4096], out[4096];
	/* A 5x3x2 box at (3, 2, 1) in a buffer of 16-byte rows and 64-byte
	 * slices, and at (1, 1, 0) in host memory of 8-byte rows and 32-byte
	 * slices. */
	size_t region[3] = { 5, 3, 2 }, bo[3] = { 3, 2, 1 }, ho[3] = { 1, 1, 0 };

	REQUIRE(test_queue_open(&f));
	b = fake_buffer(f.c, 0, 256, NULL);
	for (int i = 0; i < 4096; i++)
		host[i] = (uint8_t)i;
	CHECK_EQ(clEnqueueWriteBufferRect(f.q, b, CL_TRUE, bo, ho, region, 16,
					  64, 8, 32, host, 0, NULL, NULL),
		 CL_SUCCESS);
	for (size_t z = 0; z < 2; z++)
		for (size_t y = 0; y < 3; y++)
			CHECK(memcmp(b->cpu + (1 + z) * 64 + (2 + y) * 16 + 3,
				     host + z * 32 + (1 + y) * 8 + 1, 5) == 0);
	memset(out, 0, sizeof(out));
	CHECK_EQ(clEnqueueReadBufferRect(f.q, b, CL_TRUE, bo, ho, region, 16,
					 64, 8, 32, out, 0, NULL, NULL),
		 CL_SUCCESS);
	for (size_t z = 0; z < 2; z++)
		for (size_t y = 0; y < 3; y++)
			CHECK(memcmp(out + z * 32 + (1 + y) * 8 + 1,
				     host + z * 32 + (1 + y) * 8 + 1, 5) == 0);
	/* Pitches default to the region (0), and are checked when given. */
	{
		size_t zero[3] = { 0, 0, 0 }, r[3] = { 8, 4, 2 };

		CHECK_EQ(clEnqueueReadBufferRect(f.q, b, CL_TRUE, zero, zero, r,
						 0, 0, 0, 0, out, 0, NULL,
						 NULL), CL_SUCCESS);
		CHECK(memcmp(out, b->cpu, 64) == 0);
		CHECK_EQ(clEnqueueReadBufferRect(f.q, b, CL_TRUE, zero, zero, r,
						 7, 0, 0, 0, out, 0, NULL,
						 NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueReadBufferRect(f.q, b, CL_TRUE, zero, zero, r,
						 8, 31, 0, 0, out, 0, NULL,
						 NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueReadBufferRect(f.q, b, CL_TRUE, zero, zero, r,
						 8, 36, 0, 0, out, 0, NULL,
						 NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueReadBufferRect(f.q, b, CL_TRUE, zero, zero, r,
						 0, 0, 4, 0, out, 0, NULL,
						 NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueReadBufferRect(f.q, b, CL_TRUE, zero, zero, r,
						 0, 0, 8, 40, out, 0, NULL,
						 NULL), CL_SUCCESS);
		CHECK_EQ(clEnqueueReadBufferRect(f.q, b, CL_TRUE, zero, zero, r,
						 0, 0, 8, 36, out, 0, NULL,
						 NULL), CL_INVALID_VALUE);
		/* 256 bytes fit; 257 do not. */
		r[0] = 16; r[1] = 4; r[2] = 4;
		CHECK_EQ(clEnqueueReadBufferRect(f.q, b, CL_TRUE, zero, zero, r,
						 0, 0, 0, 0, out, 0, NULL,
						 NULL), CL_SUCCESS);
		zero[0] = 1;
		CHECK_EQ(clEnqueueReadBufferRect(f.q, b, CL_TRUE, zero, zero, r,
						 0, 0, 0, 0, out, 0, NULL,
						 NULL), CL_INVALID_VALUE);
		r[2] = 0;
		CHECK_EQ(clEnqueueWriteBufferRect(f.q, b, CL_TRUE, zero, zero,
						  r, 0, 0, 0, 0, out, 0, NULL,
						  NULL), CL_INVALID_VALUE);
		CHECK_EQ(clEnqueueWriteBufferRect(f.q, b, CL_TRUE, NULL, zero,
						  region, 0, 0, 0, 0, out, 0,
						  NULL, NULL),
			 CL_INVALID_VALUE);
	}
	/* Copy rect within one buffer: rows interleave without touching
	 * (no overlap), or share bytes (overlap). */
	{
		size_t so[3] = { 0, 0, 0 }, d1[3] = { 8, 0, 0 };
		size_t d2[3] = { 4, 0, 0 }, r[3] = { 8, 4, 1 };

		for (int i = 0; i < 256; i++)
			b->cpu[i] = (uint8_t)i;
		CHECK_EQ(clEnqueueCopyBufferRect(f.q, b, b, so, d1, r, 16, 64,
						 16, 64, 0, NULL, NULL),
			 CL_SUCCESS);
		CHECK_EQ(clEnqueueCopyBufferRect(f.q, b, b, so, d2, r, 16, 64,
						 16, 64, 0, NULL, NULL),
			 CL_MEM_COPY_OVERLAP);
		CHECK_EQ(clEnqueueCopyBufferRect(f.q, b, b, so, d1, r, 16, 64,
						 32, 128, 0, NULL, NULL),
			 CL_INVALID_VALUE);
		CHECK_EQ(clFinish(f.q), CL_SUCCESS);
		for (int y = 0; y < 4; y++)
			for (int x = 0; x < 8; x++)
				CHECK_EQ(b->cpu[y * 16 + 8 + x], y * 16 + x);
	}
	clReleaseMemObject(b);
	test_queue_close(&f);
}

TEST(map_unmap)
{
	struct test_queue f;
	uint8_t host[256];
	cl_mem b, u;
	uint8_t *p, *q;
	cl_uint count = 9;
	cl_ulong before;
	cl_int err;

	REQUIRE(test_queue_open(&f));
	b = fake_buffer(f.c, 0, 256, NULL);
	/* A pointer into the storage, no copy either way. */
	before = bytes_copied();
	p = clEnqueueMapBuffer(f.q, b, CL_TRUE, CL_MAP_WRITE, 16, 64, 0, NULL,
			       NULL, &err);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK(p == b->cpu + 16);
	q = clEnqueueMapBuffer(f.q, b, CL_TRUE, CL_MAP_READ, 16, 64, 0, NULL,
			       NULL, &err);
	CHECK(q == p);
	clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof(count), &count, NULL);
	CHECK_EQ(count, 2);
	memset(p, 0x5a, 64);
	CHECK_EQ(clEnqueueUnmapMemObject(f.q, b, p, 0, NULL, NULL), CL_SUCCESS);
	CHECK_EQ(clEnqueueUnmapMemObject(f.q, b, q, 0, NULL, NULL), CL_SUCCESS);
	CHECK_EQ(clEnqueueUnmapMemObject(f.q, b, p, 0, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clFinish(f.q), CL_SUCCESS);
	clGetMemObjectInfo(b, CL_MEM_MAP_COUNT, sizeof(count), &count, NULL);
	CHECK_EQ(count, 0);
	CHECK_EQ(bytes_copied() - before, 0);

	/* A USE_HOST_PTR buffer kept as a copy: map returns host_ptr +
	 * offset brought up to date, unmap of a write map writes back; a
	 * read map writes nothing back, an invalidating one reads nothing. */
	memset(host, 0, sizeof(host));
	u = fake_buffer(f.c, CL_MEM_USE_HOST_PTR, sizeof(host), host);
	memset(u->cpu, 0x33, 256);
	before = bytes_copied();
	p = clEnqueueMapBuffer(f.q, u, CL_TRUE, CL_MAP_READ, 32, 16, 0, NULL,
			       NULL, &err);
	CHECK(p == host + 32);
	CHECK(host[32] == 0x33 && host[47] == 0x33 && host[31] == 0 &&
	      host[48] == 0);
	CHECK_EQ(clEnqueueUnmapMemObject(f.q, u, p, 0, NULL, NULL), CL_SUCCESS);
	CHECK_EQ(clFinish(f.q), CL_SUCCESS);
	CHECK_EQ(bytes_copied() - before, 16);
	p = clEnqueueMapBuffer(f.q, u, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
			       64, 16, 0, NULL, NULL, &err);
	CHECK(p == host + 64 && host[64] == 0);
	memset(p, 0x77, 16);
	CHECK_EQ(clEnqueueUnmapMemObject(f.q, u, p, 0, NULL, NULL), CL_SUCCESS);
	CHECK_EQ(clFinish(f.q), CL_SUCCESS);
	CHECK(u->cpu[64] == 0x77 && u->cpu[79] == 0x77 && u->cpu[80] == 0x33);
	CHECK_EQ(bytes_copied() - before, 32);
	clReleaseMemObject(u);
	clReleaseMemObject(b);
	test_queue_close(&f);
}

/* A buffer released while a command still uses it lives until the
 * command ends: the write lands in live storage (ASan would see it). */
static void CL_CALLBACK set_flag(cl_mem mem, void *flag)
{
	(void)mem;
	atomic_store((atomic_int *)flag, 1);
}

TEST(commands_hold_buffers)
{
	struct test_queue f;
	cl_event gate;
	cl_mem b;
	char data[64] = "held";
	atomic_int freed = 0;

	REQUIRE(test_queue_open(&f));
	gate = clCreateUserEvent(f.c, NULL);
	REQUIRE(gate);
	b = fake_buffer(f.c, 0, 64, NULL);
	clSetMemObjectDestructorCallback(b, set_flag, &freed);
	CHECK_EQ(clEnqueueWriteBuffer(f.q, b, CL_FALSE, 0, 64, data, 1, &gate,
				      NULL), CL_SUCCESS);
	CHECK_EQ(clReleaseMemObject(b), CL_SUCCESS);
	CHECK_EQ(freed, 0);
	CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_EQ(clFinish(f.q), CL_SUCCESS);
	clReleaseEvent(gate);
	test_queue_close(&f);
	/* The queue's thread lets the command go just after it ended. */
	for (int i = 0; i < 5000 && !atomic_load(&freed); i++)
		usleep(1000);
	CHECK_EQ(atomic_load(&freed), 1);
}

TEST(images)
{
	struct test_queue f, other;
	size_t o[3] = { 0, 0, 0 }, r[3] = { 1, 1, 1 }, pitch;
	cl_mem b, foreign;
	char buf[16];
	cl_int err;

	REQUIRE(test_queue_open(&f));
	REQUIRE(test_queue_open(&other));
	b = fake_buffer(f.c, 0, 64, NULL);
	foreign = fake_buffer(other.c, 0, 64, NULL);
	CHECK_EQ(clEnqueueReadImage(NULL, b, CL_TRUE, o, r, 0, 0, buf, 0,
				    NULL, NULL), CL_INVALID_COMMAND_QUEUE);
	CHECK_EQ(clEnqueueReadImage(f.q, b, CL_TRUE, o, r, 0, 0, buf, 0, NULL,
				    NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueWriteImage(f.q, b, CL_TRUE, o, r, 0, 0, buf, 0,
				     NULL, NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueCopyImage(f.q, b, b, o, o, r, 0, NULL, NULL),
		 CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueFillImage(f.q, b, buf, o, r, 0, NULL, NULL),
		 CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueFillImage(f.q, b, buf, o, r, 1, NULL, NULL),
		 CL_INVALID_EVENT_WAIT_LIST);
	CHECK_EQ(clEnqueueCopyImageToBuffer(f.q, b, b, o, r, 0, 0, NULL,
					    NULL), CL_INVALID_MEM_OBJECT);
	/* A buffer is no image whatever the context (the context checks
	 * with images: test_image.c). */
	CHECK_EQ(clEnqueueCopyImageToBuffer(f.q, b, foreign, o, r, 0, 0,
					    NULL, NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueCopyBufferToImage(f.q, foreign, b, 0, o, r, 0,
					    NULL, NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clEnqueueCopyBufferToImage(NULL, b, b, 0, o, r, 0, NULL,
					    NULL), CL_INVALID_COMMAND_QUEUE);
	CHECK(clEnqueueMapImage(f.q, b, CL_TRUE, CL_MAP_READ, o, r, &pitch,
				NULL, 0, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clGetImageInfo(b, CL_IMAGE_WIDTH, sizeof(pitch), &pitch,
				NULL), CL_INVALID_MEM_OBJECT);
	clReleaseMemObject(b);
	clReleaseMemObject(foreign);
	test_queue_close(&other);
	test_queue_close(&f);
}

TEST(copy_count_query)
{
	cl_ulong n = 0;
	size_t size = 0;

	CHECK_EQ(clGetDeviceInfo(test_device(), CL_DEVICE_SLEIPNIR_BYTES_COPIED,
				 sizeof(n), &n, &size), CL_SUCCESS);
	CHECK_EQ(size, sizeof(cl_ulong));
	CHECK_EQ(n, icd_copied_total());
	icd_copied_add(5);
	CHECK_EQ(bytes_copied(), n + 5);
}

void test_mem_all(void)
{
	RUN(create_buffer_rules);
	RUN(handles);
	RUN(mem_info);
	RUN(sub_buffer_rules);
	RUN(destructor_callbacks);
	RUN(read_write_copy);
	RUN(command_errors);
	RUN(fill);
	RUN(rects);
	RUN(map_unmap);
	RUN(commands_hold_buffers);
	RUN(images);
	RUN(copy_count_query);
}
