/* SPDX-License-Identifier: MIT */
/* Contexts: creation rules, properties, info, and reference counts. */
#include <pthread.h>

#include "icd_tests.h"

static cl_uint refs(cl_context c)
{
	cl_uint n = 0;

	clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(n), &n, NULL);
	return n;
}

/* Stored for the errors later layers report; never called here. */
static void CL_CALLBACK notify(const char *errinfo, const void *info,
			       size_t cb, void *user_data)
{
	(void)errinfo;
	(void)info;
	(void)cb;
	(void)user_data;
}

TEST(create_and_release)
{
	cl_device_id d = test_device();
	cl_device_id two[2] = { d, d };
	cl_int err = 1;
	cl_context c = clCreateContext(NULL, 2, two, notify, &err, &err);

	REQUIRE(c);
	CHECK_EQ(err, CL_SUCCESS);
	/* The dispatch pointer first, as for every object. */
	CHECK(*(const void *const *)c == (const void *)&icd_dispatch);
	CHECK_EQ(refs(c), 1);
	CHECK_EQ(clRetainContext(c), CL_SUCCESS);
	CHECK_EQ(refs(c), 2);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
	CHECK_EQ(refs(c), 1);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

TEST(context_info)
{
	cl_device_id d = test_device(), got[2] = { NULL, NULL };
	cl_context_properties props[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)test_platform(),
		CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0
	}, back[8];
	cl_context c = clCreateContext(props, 1, &d, NULL, NULL, NULL);
	cl_uint n = 0;
	size_t size = 0;

	REQUIRE(c);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n,
				  &size), CL_SUCCESS);
	CHECK(n == 1 && size == sizeof(cl_uint));
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof(got), got,
				  &size), CL_SUCCESS);
	CHECK(size == sizeof(cl_device_id) && got[0] == d);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &size),
		 CL_SUCCESS);
	CHECK_EQ(size, sizeof(props));
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof(back), back,
				  NULL), CL_SUCCESS);
	CHECK(memcmp(back, props, sizeof(props)) == 0);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, size - 1, back,
				  NULL), CL_INVALID_VALUE);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_DEVICES, 1, got, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetContextInfo(c, 0x5555, sizeof(n), &n, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);

	/* NULL properties: CL_CONTEXT_PROPERTIES answers with nothing. */
	c = clCreateContext(NULL, 1, &d, NULL, NULL, NULL);
	REQUIRE(c);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, NULL, &size),
		 CL_SUCCESS);
	CHECK_EQ(size, 0);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

TEST(create_errors)
{
	cl_device_id d = test_device();
	cl_device_id bad = (cl_device_id)test_platform();
	cl_context_properties bad_platform[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)d, 0
	};
	cl_context_properties twice[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)test_platform(),
		CL_CONTEXT_PLATFORM, (cl_context_properties)test_platform(), 0
	};
	cl_context_properties unknown[] = { 0x7777, 1, 0 };
	int data;
	cl_int err;

#define CREATE_FAILS(expr, code)                                             \
	do {                                                                 \
		err = 1;                                                     \
		CHECK((expr) == NULL);                                       \
		CHECK_EQ(err, code);                                         \
	} while (0)
	CREATE_FAILS(clCreateContext(NULL, 0, &d, NULL, NULL, &err),
		     CL_INVALID_VALUE);
	CREATE_FAILS(clCreateContext(NULL, 1, NULL, NULL, NULL, &err),
		     CL_INVALID_VALUE);
	CREATE_FAILS(clCreateContext(NULL, 1, &d, NULL, &data, &err),
		     CL_INVALID_VALUE);
	CREATE_FAILS(clCreateContext(NULL, 1, &bad, NULL, NULL, &err),
		     CL_INVALID_DEVICE);
	CREATE_FAILS(clCreateContext(bad_platform, 1, &d, NULL, NULL, &err),
		     CL_INVALID_PLATFORM);
	CREATE_FAILS(clCreateContext(twice, 1, &d, NULL, NULL, &err),
		     CL_INVALID_PROPERTY);
	CREATE_FAILS(clCreateContext(unknown, 1, &d, NULL, NULL, &err),
		     CL_INVALID_PROPERTY);
	CREATE_FAILS(clCreateContextFromType(NULL, CL_DEVICE_TYPE_CPU, NULL,
					     NULL, &err), CL_DEVICE_NOT_FOUND);
	CREATE_FAILS(clCreateContextFromType(NULL, 0, NULL, NULL, &err),
		     CL_INVALID_DEVICE_TYPE);
	CREATE_FAILS(clCreateContextFromType(bad_platform, CL_DEVICE_TYPE_GPU,
					     NULL, NULL, &err),
		     CL_INVALID_PLATFORM);
	CREATE_FAILS(clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, NULL,
					     &data, &err), CL_INVALID_VALUE);
#undef CREATE_FAILS
	CHECK_EQ(clRetainContext(NULL), CL_INVALID_CONTEXT);
	CHECK_EQ(clReleaseContext((cl_context)d), CL_INVALID_CONTEXT);
	CHECK_EQ(clGetContextInfo(NULL, CL_CONTEXT_NUM_DEVICES, 0, NULL, NULL),
		 CL_INVALID_CONTEXT);
}

TEST(create_from_type)
{
	cl_context_properties props[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)test_platform(), 0
	};
	cl_device_id got = NULL;
	cl_int err = 1;
	cl_context c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL,
					       NULL, NULL, &err);

	REQUIRE(c);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof(got), &got,
				  NULL), CL_SUCCESS);
	CHECK(got == test_device());
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
	c = clCreateContextFromType(NULL, CL_DEVICE_TYPE_DEFAULT, NULL, NULL,
				    NULL);
	CHECK(c != NULL);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

/* Retains and releases from several threads at once leave the count
 * exact (ASan reports a free too early or a leak). */
static void *retain_release(void *arg)
{
	cl_context c = arg;

	for (int i = 0; i < 10000; i++) {
		clRetainContext(c);
		clReleaseContext(c);
	}
	for (int i = 0; i < 100; i++)
		clRetainContext(c);
	return NULL;
}

TEST(threads_share_a_context)
{
	cl_device_id d = test_device();
	cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, NULL);
	pthread_t t[4];

	REQUIRE(c);
	for (int i = 0; i < 4; i++)
		REQUIRE(pthread_create(&t[i], NULL, retain_release, c) == 0);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	CHECK_EQ(refs(c), 401);
	for (int i = 0; i < 401; i++)
		CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

void test_context_all(void)
{
	RUN(create_and_release);
	RUN(context_info);
	RUN(create_errors);
	RUN(create_from_type);
	RUN(threads_share_a_context);
}
