/* SPDX-License-Identifier: MIT */
/*
 * Platform, device and context entry points (spec §4): what they answer
 * and the errors they name. The loader (ocl-icd) answers NULL handles
 * itself, so invalid handles here are handles of the wrong kind, which
 * reach the ICD through their dispatch table.
 */
#include "cl_api.h"

TEST(platform_ids)
{
	cl_platform_id ids[8];
	cl_uint n = 0;
	bool found = false;

	CHECK_ERR(clGetPlatformIDs(0, NULL, &n), CL_SUCCESS);
	CHECK(n >= 1);
	CHECK_ERR(clGetPlatformIDs(8, ids, NULL), CL_SUCCESS);
	for (cl_uint i = 0; i < n && i < 8; i++)
		found |= ids[i] == api.platform;
	CHECK(found);
	/* §4.1: num_entries 0 with platforms, or both outputs NULL. */
	CHECK_ERR(clGetPlatformIDs(0, ids, NULL), CL_INVALID_VALUE);
	CHECK_ERR(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
}

TEST(device_ids)
{
	static const cl_device_type found[] = {
		CL_DEVICE_TYPE_GPU,
		CL_DEVICE_TYPE_DEFAULT,
		CL_DEVICE_TYPE_ALL,
	};
	static const cl_device_type absent[] = {
		CL_DEVICE_TYPE_CPU,
		CL_DEVICE_TYPE_ACCELERATOR,
		CL_DEVICE_TYPE_CUSTOM,
	};
	cl_device_id d = NULL;
	cl_uint n = 0;

	for (size_t i = 0; i < 3; i++) {
		n = 0;
		d = NULL;
		CHECK_ERR(clGetDeviceIDs(api.platform, found[i], 1, &d, &n),
			  CL_SUCCESS);
		CHECK_EQ(n, 1);
		CHECK(d == api.device);
		n = 0;
		CHECK_ERR(clGetDeviceIDs(api.platform, found[i], 0, NULL, &n),
			  CL_SUCCESS);
		CHECK_EQ(n, 1);
	}
	for (size_t i = 0; i < 3; i++)
		CHECK_ERR(clGetDeviceIDs(api.platform, absent[i], 1, &d, &n),
			  CL_DEVICE_NOT_FOUND);
	/* §4.2 */
	CHECK_ERR(clGetDeviceIDs(api.platform, CL_DEVICE_TYPE_GPU, 0, &d, &n),
		  CL_INVALID_VALUE);
	CHECK_ERR(
		clGetDeviceIDs(api.platform, CL_DEVICE_TYPE_GPU, 1, NULL, NULL),
		CL_INVALID_VALUE);
	CHECK_ERR(clGetDeviceIDs(api.platform, 0, 1, &d, &n),
		  CL_INVALID_DEVICE_TYPE);
}

/* §4.2 table 4.3: the values OpenCL 1.2 requires of a FULL_PROFILE GPU,
 * and the ones this device must give for the rest of the suite. */
TEST(device_minimums)
{
	cl_uint u = 0;
	cl_ulong ul = 0, global = 0;
	size_t sz = 0;
	cl_bool b = CL_FALSE;
	cl_platform_id p = NULL;
	cl_device_id parent = (cl_device_id)1;
	cl_device_fp_config fp = 0;
	char s[1024];

#define Q(param, var)                                                          \
	CHECK_ERR(                                                             \
		clGetDeviceInfo(api.device, param, sizeof(var), &(var), NULL), \
		CL_SUCCESS)
	Q(CL_DEVICE_PLATFORM, p);
	CHECK(p == api.platform);
	Q(CL_DEVICE_PARENT_DEVICE, parent);
	CHECK(parent == NULL);
	Q(CL_DEVICE_REFERENCE_COUNT, u);
	CHECK_EQ(u, 1); /* a root device answers 1 */
	Q(CL_DEVICE_AVAILABLE, b);
	CHECK_EQ(b, CL_TRUE);
	Q(CL_DEVICE_COMPILER_AVAILABLE, b);
	CHECK_EQ(b, CL_TRUE);
	Q(CL_DEVICE_LINKER_AVAILABLE, b);
	CHECK_EQ(b, CL_TRUE);
	Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, u);
	CHECK(u >= 3);
	Q(CL_DEVICE_MAX_COMPUTE_UNITS, u);
	CHECK(u >= 1);
	CHECK(api.max_wg >= 1);
	Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, u);
	CHECK(u >= 1024); /* the size of long16, in bits */
	Q(CL_DEVICE_MAX_PARAMETER_SIZE, sz);
	CHECK(sz >= 1024);
	Q(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, ul);
	CHECK(ul >= 64 * 1024);
	Q(CL_DEVICE_MAX_CONSTANT_ARGS, u);
	CHECK(u >= 8);
	Q(CL_DEVICE_LOCAL_MEM_SIZE, ul);
	CHECK(ul >= 32 * 1024);
	Q(CL_DEVICE_PRINTF_BUFFER_SIZE, sz);
	CHECK(sz >= 1024 * 1024);
	Q(CL_DEVICE_GLOBAL_MEM_SIZE, global);
	Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, ul);
	CHECK(ul >= 128ull * 1024 * 1024 && ul >= global / 4);
	Q(CL_DEVICE_SINGLE_FP_CONFIG, fp);
	CHECK((fp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) ==
	      (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
	CHECK(api.exec_caps & CL_EXEC_KERNEL);
	/* The promise: profiling and out-of-order queues. */
	CHECK(api.queue_props & CL_QUEUE_PROFILING_ENABLE);
	CHECK(api.queue_props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	Q(CL_DEVICE_HOST_UNIFIED_MEMORY, b);
	CHECK_EQ(b, CL_TRUE);
	/* No built-in kernels: an empty string. */
	CHECK_ERR(clGetDeviceInfo(api.device, CL_DEVICE_BUILT_IN_KERNELS,
				  sizeof(s), s, &sz),
		  CL_SUCCESS);
	CHECK_EQ(sz, 1);
#undef Q
}

/* §4.3: a root device is retained and released as a no-op; partitioning
 * is refused by a device that reports no partition types. */
TEST(device_retain_and_partition)
{
	cl_device_partition_property props[] = { CL_DEVICE_PARTITION_EQUALLY, 1,
						 0 };
	cl_device_partition_property types[8] = { 0 };
	cl_device_id sub[64];
	cl_uint max_sub = 0, n = 0;
	size_t size = 0;

	CHECK_ERR(clRetainDevice(api.device), CL_SUCCESS);
	CHECK_ERR(clReleaseDevice(api.device), CL_SUCCESS);
	CHECK_ERR(clRetainDevice((cl_device_id)api.ctx), CL_INVALID_DEVICE);
	CHECK_ERR(clReleaseDevice((cl_device_id)api.ctx), CL_INVALID_DEVICE);

	CHECK_ERR(clGetDeviceInfo(api.device,
				  CL_DEVICE_PARTITION_MAX_SUB_DEVICES,
				  sizeof(max_sub), &max_sub, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clGetDeviceInfo(api.device, CL_DEVICE_PARTITION_PROPERTIES,
				  sizeof(types), types, &size),
		  CL_SUCCESS);
	if (max_sub <= 1 || types[0] == 0) {
		CHECK_ERR(clCreateSubDevices(api.device, props, 64, sub, &n),
			  CL_INVALID_VALUE);
	} else {
		CHECK_ERR(clCreateSubDevices(api.device, props, 64, sub, &n),
			  CL_SUCCESS);
		for (cl_uint i = 0; i < n && i < 64; i++)
			CHECK_ERR(clReleaseDevice(sub[i]), CL_SUCCESS);
	}
	CHECK_ERR(clCreateSubDevices((cl_device_id)api.ctx, props, 64, sub, &n),
		  CL_INVALID_DEVICE);
	/* CL_DEVICE_PARTITION_TYPE of a root device: nothing, or a 0. */
	CHECK_ERR(clGetDeviceInfo(api.device, CL_DEVICE_PARTITION_TYPE,
				  sizeof(types), types, &size),
		  CL_SUCCESS);
	CHECK(size == 0 || types[0] == 0);
}

static int context_notified;

static void CL_CALLBACK context_notify(const char *errinfo,
				       const void *private_info, size_t cb,
				       void *user_data)
{
	(void)errinfo;
	(void)private_info;
	(void)cb;
	__atomic_add_fetch((int *)user_data, 1, __ATOMIC_RELEASE);
}

TEST(context_create_and_query)
{
	cl_context_properties props[] = { CL_CONTEXT_PLATFORM,
					  (cl_context_properties)api.platform,
					  0 };
	cl_context_properties got[8] = { 0 };
	cl_device_id dev = NULL;
	cl_uint n = 0, refs;
	size_t size = 0;
	cl_int err = 1;
	cl_context c;

	c = clCreateContext(props, 1, &api.device, context_notify,
			    &context_notified, &err);
	REQUIRE(c);
	CHECK_ERR(err, CL_SUCCESS);
	/* §4.4 table 4.6: the properties come back as given. */
	CHECK_ERR(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof(got), got,
				   &size),
		  CL_SUCCESS);
	CHECK_EQ(size, sizeof(props));
	CHECK(memcmp(got, props, sizeof(props)) == 0);
	CHECK_ERR(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof(n), &n,
				   NULL),
		  CL_SUCCESS);
	CHECK_EQ(n, 1);
	CHECK_ERR(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof(dev), &dev,
				   &size),
		  CL_SUCCESS);
	CHECK(dev == api.device);
	CHECK_EQ(size, sizeof(dev));
	CHECK_ERR(clGetContextInfo(c, CL_CONTEXT_DEVICES, 1, &dev, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetContextInfo(c, 0x7777, sizeof(got), got, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetContextInfo((cl_context)api.queue,
				   CL_CONTEXT_NUM_DEVICES, sizeof(n), &n, NULL),
		  CL_INVALID_CONTEXT);

	refs = cl_api_refcount(c, REF_CONTEXT);
	CHECK_ERR(clRetainContext(c), CL_SUCCESS);
	CHECK_EQ(cl_api_refcount(c, REF_CONTEXT), refs + 1);
	CHECK_ERR(clReleaseContext(c), CL_SUCCESS);
	CHECK_EQ(cl_api_refcount(c, REF_CONTEXT), refs);
	CHECK_ERR(clRetainContext((cl_context)api.queue), CL_INVALID_CONTEXT);
	CHECK_ERR(clReleaseContext((cl_context)api.queue), CL_INVALID_CONTEXT);
	CHECK_ERR(clReleaseContext(c), CL_SUCCESS);

	/* NULL properties: nothing comes back, or a lone 0 (table 4.6). */
	c = clCreateContext(NULL, 1, &api.device, NULL, NULL, &err);
	REQUIRE(c);
	size = 99;
	got[0] = 99;
	CHECK_ERR(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof(got), got,
				   &size),
		  CL_SUCCESS);
	CHECK(size == 0 || (size == sizeof(got[0]) && got[0] == 0));
	CHECK_ERR(clReleaseContext(c), CL_SUCCESS);

	c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, NULL, NULL,
				    &err);
	CHECK(c != NULL);
	CHECK_ERR(err, CL_SUCCESS);
	if (c)
		CHECK_ERR(clReleaseContext(c), CL_SUCCESS);
	c = clCreateContextFromType(props, CL_DEVICE_TYPE_DEFAULT, NULL, NULL,
				    &err);
	CHECK(c != NULL);
	if (c)
		CHECK_ERR(clReleaseContext(c), CL_SUCCESS);
}

TEST(context_errors)
{
	cl_context_properties twice[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)api.platform,
		CL_CONTEXT_PLATFORM, (cl_context_properties)api.platform, 0
	};
	cl_context_properties bad_platform[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)api.device, 0
	};
	cl_context_properties props[] = { CL_CONTEXT_PLATFORM,
					  (cl_context_properties)api.platform,
					  0 };
	cl_device_id not_device = (cl_device_id)api.queue;
	cl_int err;

	/* §4.4 clCreateContext */
	CHECK_NULL_ERR(clCreateContext(twice, 1, &api.device, NULL, NULL, &err),
		       err, CL_INVALID_PROPERTY);
	CHECK_NULL_ERR(
		clCreateContext(bad_platform, 1, &api.device, NULL, NULL, &err),
		err, CL_INVALID_PLATFORM);
	CHECK_NULL_ERR(clCreateContext(props, 1, NULL, NULL, NULL, &err), err,
		       CL_INVALID_VALUE);
	CHECK_NULL_ERR(clCreateContext(props, 0, &api.device, NULL, NULL, &err),
		       err, CL_INVALID_VALUE);
	CHECK_NULL_ERR(clCreateContext(props, 1, &api.device, NULL,
				       &context_notified, &err),
		       err, CL_INVALID_VALUE);
	CHECK_NULL_ERR(clCreateContext(props, 1, &not_device, NULL, NULL, &err),
		       err, CL_INVALID_DEVICE);
	/* clCreateContextFromType */
	CHECK_NULL_ERR(clCreateContextFromType(props, 0, NULL, NULL, &err), err,
		       CL_INVALID_DEVICE_TYPE);
	CHECK_NULL_ERR(clCreateContextFromType(props,
					       CL_DEVICE_TYPE_ACCELERATOR, NULL,
					       NULL, &err),
		       err, CL_DEVICE_NOT_FOUND);
	CHECK_NULL_ERR(clCreateContextFromType(twice, CL_DEVICE_TYPE_GPU, NULL,
					       NULL, &err),
		       err, CL_INVALID_PROPERTY);
	CHECK_NULL_ERR(clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL,
					       &context_notified, &err),
		       err, CL_INVALID_VALUE);
}

TEST(extension_functions)
{
	/* §9.2: an unknown name gives NULL; the ICD's own is there. */
	CHECK(clGetExtensionFunctionAddressForPlatform(
		      api.platform, "clNoSuchFunctionSleipnirTest") == NULL);
	CHECK(clGetExtensionFunctionAddressForPlatform(
		      api.platform, "clIcdGetPlatformIDsKHR") != NULL);
	/* OpenCL 1.1's form (deprecated in 1.2), through the loader. */
	CHECK(clGetExtensionFunctionAddress("clNoSuchFunctionSleipnirTest") ==
	      NULL);
}

void cl_api_platform_tests(void)
{
	API_RUN(platform_ids);
	API_RUN(device_ids);
	API_RUN(device_minimums);
	API_RUN(device_retain_and_partition);
	API_RUN(context_create_and_query);
	API_RUN(context_errors);
	API_RUN(extension_functions);
}
