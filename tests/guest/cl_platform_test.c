/* SPDX-License-Identifier: MIT */
/*
 * The Sleipnir OpenCL platform through the real ICD loader (Debian's
 * ocl-icd, finding us through OCL_ICD_VENDORS): the platform is found,
 * every OpenCL 1.2 platform and device query answers with the right size,
 * the device's figures match what the driver's GET_PARAM reports, invalid
 * calls fail with the errors OpenCL 1.2 names, and contexts come and go.
 * Runs in the guest's Debian userland: tests/board run --userland.
 */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/ioctl.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "check.h"
#include "cl_device_params.h"
#include "drm/sleipnir_drm.h"

CHECK_MAIN_STATE("cl-platform");

static cl_platform_id platform;
static cl_device_id device;

/* GET_PARAM straight from the render node, to compare with. */
static uint64_t gpu_param(uint32_t param)
{
	struct drm_sleipnir_get_param req = { .param = param };
	int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
	int err = fd < 0 ? -1 : ioctl(fd, DRM_IOCTL_SLEIPNIR_GET_PARAM, &req);

	if (fd >= 0)
		close(fd);
	if (err)
		printf("  GET_PARAM %u failed: %s\n", param, strerror(errno));
	return req.value;
}

TEST(loader_finds_the_platform)
{
	cl_platform_id ids[8];
	cl_uint n = 0;
	char name[64];

	REQUIRE(clGetPlatformIDs(8, ids, &n) == CL_SUCCESS);
	for (cl_uint i = 0; i < n && i < 8; i++) {
		if (clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name),
				      name, NULL) == CL_SUCCESS &&
		    strcmp(name, "Sleipnir") == 0)
			platform = ids[i];
	}
	REQUIRE(platform);
	CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, &n),
		 CL_SUCCESS);
	CHECK_EQ(n, 1);
}

static const cl_platform_info platform_params[] = {
	CL_PLATFORM_PROFILE, CL_PLATFORM_VERSION, CL_PLATFORM_NAME,
	CL_PLATFORM_VENDOR, CL_PLATFORM_EXTENSIONS, CL_PLATFORM_ICD_SUFFIX_KHR,
};

TEST(platform_info)
{
	char buf[512];

	REQUIRE(platform);
	for (size_t i = 0; i < sizeof(platform_params) / sizeof(*platform_params); i++) {
		size_t size = 0, size2 = 0;

		CHECK_EQ(clGetPlatformInfo(platform, platform_params[i], 0, NULL,
					   &size), CL_SUCCESS);
		REQUIRE(size >= 2 && size <= sizeof(buf));
		CHECK_EQ(clGetPlatformInfo(platform, platform_params[i], size,
					   buf, &size2), CL_SUCCESS);
		CHECK_EQ(size2, size);
		CHECK_EQ(strlen(buf) + 1, size);
		CHECK_EQ(clGetPlatformInfo(platform, platform_params[i], size - 1,
					   buf, NULL), CL_INVALID_VALUE);
	}
	CHECK_EQ(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof(buf),
				   buf, NULL), CL_SUCCESS);
	CHECK(strcmp(buf, "OpenCL 1.2 sleipnir") == 0);
	CHECK_EQ(clGetPlatformInfo(platform, 0x7777, sizeof(buf), buf, NULL),
		 CL_INVALID_VALUE);
	CHECK(clGetExtensionFunctionAddressForPlatform(platform,
		"clIcdGetPlatformIDsKHR") != NULL);
}


TEST(device_info_sizes)
{
	unsigned char buf[1024];

	REQUIRE(device);
	for (size_t i = 0; i < sizeof(cl_device_params) / sizeof(*cl_device_params); i++) {
		cl_device_info param = cl_device_params[i].param;
		size_t size = 0, size2 = 0;

		if (clGetDeviceInfo(device, param, 0, NULL, &size) != CL_SUCCESS) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "query 0x%x fails",
				      (unsigned int)param);
			continue;
		}
		if (cl_device_params[i].size)
			CHECK_EQ(size, cl_device_params[i].size);
		REQUIRE(size >= 1 && size <= sizeof(buf));
		CHECK_EQ(clGetDeviceInfo(device, param, size, buf, &size2),
			 CL_SUCCESS);
		CHECK_EQ(size2, size);
		if (!cl_device_params[i].size)
			CHECK_EQ(strnlen((char *)buf, size) + 1, size);
		CHECK_EQ(clGetDeviceInfo(device, param, size - 1, buf, NULL),
			 CL_INVALID_VALUE);
	}
}

#define QUERY(param, var)                                                    \
	CHECK_EQ(clGetDeviceInfo(device, param, sizeof(var), &(var), NULL),  \
		 CL_SUCCESS)

TEST(device_matches_get_param)
{
	uint64_t wg = gpu_param(SLEIPNIR_PARAM_THREAD_MAX_WORKGROUP_SIZE);
	uint64_t freq = gpu_param(SLEIPNIR_PARAM_TIMESTAMP_FREQUENCY);
	/* The cores and L2s of the core group(s) the driver uses; each L2's
	 * bit sits at its group's first core. */
	uint64_t in_use = gpu_param(SLEIPNIR_PARAM_SHADER_CORE_MASK);
	uint64_t l2 = gpu_param(SLEIPNIR_PARAM_L2_SIZE) *
		      (uint64_t)__builtin_popcountll(gpu_param(SLEIPNIR_PARAM_L2_PRESENT) &
						     in_use);
	uint64_t va_top = gpu_param(SLEIPNIR_PARAM_VA_END);
	uint64_t global, alloc, quarter;
	struct sysinfo si;
	cl_uint u = 0;
	cl_ulong ul = 0;
	size_t sz = 0, sizes[3] = { 0 };
	char name[128];

	REQUIRE(device);
	QUERY(CL_DEVICE_MAX_COMPUTE_UNITS, u);
	CHECK_EQ(u, gpu_param(SLEIPNIR_PARAM_SHADER_CORE_COUNT));
	CHECK_EQ(u, __builtin_popcountll(in_use));
	QUERY(CL_DEVICE_MAX_WORK_GROUP_SIZE, sz);
	CHECK_EQ(sz, wg);
	QUERY(CL_DEVICE_MAX_WORK_ITEM_SIZES, sizes);
	CHECK(sizes[0] == wg && sizes[1] == wg && sizes[2] == wg);
	QUERY(CL_DEVICE_PROFILING_TIMER_RESOLUTION, sz);
	CHECK_EQ(sz, freq ? (1000000000 + freq - 1) / freq : 1);
	QUERY(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, ul);
	CHECK_EQ(ul, l2);
	QUERY(CL_DEVICE_LOCAL_MEM_SIZE, ul);
	CHECK_EQ(ul, 32 * 1024);

	/* The guest's RAM, as far as 32-bit GPU pointers reach. */
	REQUIRE(sysinfo(&si) == 0);
	global = (uint64_t)si.totalram * si.mem_unit;
	if (va_top > (1ull << 32))
		va_top = 1ull << 32;
	if (global > va_top - gpu_param(SLEIPNIR_PARAM_VA_START))
		global = va_top - gpu_param(SLEIPNIR_PARAM_VA_START);
	QUERY(CL_DEVICE_GLOBAL_MEM_SIZE, ul);
	CHECK_EQ(ul, global);
	quarter = global / 4;
	alloc = quarter > (128ull << 20) ? quarter : (128ull << 20);
	QUERY(CL_DEVICE_MAX_MEM_ALLOC_SIZE, ul);
	CHECK_EQ(ul, alloc < global ? alloc : global);

	QUERY(CL_DEVICE_NAME, name);
	{
		/* The part's name: all its cores, used or not. */
		static const struct { uint64_t id; const char *name; } parts[] = {
			{ 0x860, "Mali-T860" }, { 0x750, "Mali-T760" },
			{ 0x620, "Mali-T62x" },
		};
		char want[64];

		for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
			if ((gpu_param(SLEIPNIR_PARAM_GPU_ID) >> 16) != parts[i].id)
				continue;
			snprintf(want, sizeof(want), "%s MP%d", parts[i].name,
				 __builtin_popcountll(gpu_param(SLEIPNIR_PARAM_SHADER_PRESENT)));
			CHECK(strcmp(name, want) == 0);
		}
	}
	printf("  device: %s, %u cores in use, %zu work-items, %llu MiB global\n",
	       name, (unsigned int)__builtin_popcountll(in_use),
	       (size_t)wg, (unsigned long long)(global >> 20));
}

TEST(device_fixed_values)
{
	cl_uint u = 1;
	cl_ulong ul = 1;
	cl_bool b = CL_TRUE;
	cl_device_type type = 0;
	bool fp64;
	char s[512];

	REQUIRE(device);
	QUERY(CL_DEVICE_TYPE, type);
	CHECK_EQ(type, CL_DEVICE_TYPE_GPU);
	/* Images: OpenCL 1.2's full-profile minimums when supported. */
	QUERY(CL_DEVICE_IMAGE_SUPPORT, b);
	if (b) {
		size_t sz = 0;

		QUERY(CL_DEVICE_IMAGE2D_MAX_WIDTH, sz);
		CHECK(sz >= 8192);
		QUERY(CL_DEVICE_IMAGE3D_MAX_DEPTH, sz);
		CHECK(sz >= 2048);
		QUERY(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sz);
		CHECK(sz >= 2048);
		QUERY(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sz);
		CHECK(sz >= 65536);
		QUERY(CL_DEVICE_MAX_READ_IMAGE_ARGS, u);
		CHECK(u >= 128);
		QUERY(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, u);
		CHECK(u >= 8);
		QUERY(CL_DEVICE_MAX_SAMPLERS, u);
		CHECK(u >= 16);
	}
	/* OpenCL 1.2 §4.2: double queries are 0 without cl_khr_fp64, the
	 * minimum configuration with it. */
	QUERY(CL_DEVICE_EXTENSIONS, s);
	fp64 = strstr(s, "cl_khr_fp64") != NULL;
	QUERY(CL_DEVICE_DOUBLE_FP_CONFIG, ul);
	CHECK_EQ(ul, fp64 ? (cl_ulong)(CL_FP_FMA | CL_FP_ROUND_TO_NEAREST |
				       CL_FP_ROUND_TO_ZERO |
				       CL_FP_ROUND_TO_INF | CL_FP_INF_NAN |
				       CL_FP_DENORM) : 0);
	QUERY(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, u);
	CHECK_EQ(u, fp64 ? 2 : 0);
	QUERY(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, u);
	CHECK_EQ(u, fp64 ? 2 : 0);
	QUERY(CL_DEVICE_ADDRESS_BITS, u);
	CHECK_EQ(u, 32);
	QUERY(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, u);
	CHECK_EQ(u, 4);
	QUERY(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, u);
	CHECK_EQ(u, 16);
	QUERY(CL_DEVICE_ENDIAN_LITTLE, b);
	CHECK_EQ(b, CL_TRUE);
	QUERY(CL_DEVICE_PROFILE, s);
	CHECK(strcmp(s, "FULL_PROFILE") == 0);
	QUERY(CL_DEVICE_VERSION, s);
	CHECK(strcmp(s, "OpenCL 1.2 sleipnir") == 0);
	QUERY(CL_DEVICE_OPENCL_C_VERSION, s);
	CHECK(strncmp(s, "OpenCL C 1.2", 12) == 0);
	QUERY(CL_DEVICE_EXTENSIONS, s);
	CHECK(strstr(s, "cl_khr_global_int32_base_atomics") != NULL);
	CHECK(strstr(s, "cl_khr_int64_base_atomics") != NULL);
	CHECK(strstr(s, "cl_khr_int64_extended_atomics") != NULL);
	CHECK(strstr(s, "cl_khr_fp16") != NULL);
}

/* Wrong handles and values, as OpenCL 1.2 names their errors. Handles of
 * the wrong kind still reach us through their dispatch table. */
TEST(invalid_calls)
{
	cl_device_id d;
	cl_uint n;
	cl_uint u;
	cl_int err = 1;

	REQUIRE(device);
	CHECK_EQ(clGetPlatformIDs(0, &platform, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &d, &n),
		 CL_DEVICE_NOT_FOUND);
	CHECK_EQ(clGetDeviceIDs(platform, 0, 1, &d, &n), CL_INVALID_DEVICE_TYPE);
	CHECK_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 0, &d, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceIDs((cl_platform_id)device, CL_DEVICE_TYPE_GPU, 1,
				&d, NULL), CL_INVALID_PLATFORM);
	CHECK_EQ(clGetDeviceInfo(device, 0x7777, sizeof(u), &u, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceInfo((cl_device_id)platform, CL_DEVICE_TYPE,
				 sizeof(u), &u, NULL), CL_INVALID_DEVICE);
	CHECK_EQ(clGetPlatformInfo((cl_platform_id)device, CL_PLATFORM_NAME, 0,
				   NULL, NULL), CL_INVALID_PLATFORM);
	CHECK(clCreateContext(NULL, 0, &device, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateContext(NULL, 1, &device, NULL, &n, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	d = (cl_device_id)platform;
	CHECK(clCreateContext(NULL, 1, &d, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_DEVICE);
}

TEST(contexts)
{
	cl_context_properties props[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0
	};
	cl_context_properties bad[] = {
		CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
		0x7777, 1, 0
	};
	cl_device_id got = NULL;
	cl_uint refs = 0;
	cl_int err = 1;
	cl_context c;

	REQUIRE(device);
	c = clCreateContext(props, 1, &device, NULL, NULL, &err);
	REQUIRE(c);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clRetainContext(c), CL_SUCCESS);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs),
				  &refs, NULL), CL_SUCCESS);
	CHECK_EQ(refs, 2);
	CHECK_EQ(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof(got), &got,
				  NULL), CL_SUCCESS);
	CHECK(got == device);
	/* The context's own GPU address space holds a buffer. */
	{
		cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &err);

		CHECK(m != NULL);
		CHECK_EQ(err, CL_SUCCESS);
		CHECK_EQ(clReleaseMemObject(m), CL_SUCCESS);
	}
	/* No format: CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, or on a device
	 * without images CL_INVALID_OPERATION (OpenCL 1.2 §5.3.1). */
	{
		cl_bool images = CL_FALSE;

		CHECK_EQ(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT,
					 sizeof(images), &images, NULL),
			 CL_SUCCESS);
		CHECK(clCreateImage2D(c, CL_MEM_READ_ONLY, NULL, 1, 1, 0, NULL,
				      &err) == NULL);
		CHECK_EQ(err, images ? CL_INVALID_IMAGE_FORMAT_DESCRIPTOR :
			 CL_INVALID_OPERATION);
	}
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);

	c = clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
	CHECK(c != NULL);
	CHECK_EQ(err, CL_SUCCESS);
	if (c)
		CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
	c = clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, NULL, &err);
	CHECK(c == NULL);
	CHECK_EQ(err, CL_DEVICE_NOT_FOUND);
	c = clCreateContext(bad, 1, &device, NULL, NULL, &err);
	CHECK(c == NULL);
	CHECK_EQ(err, CL_INVALID_PROPERTY);
}

int main(void)
{
	RUN(loader_finds_the_platform);
	RUN(platform_info);
	RUN(device_info_sizes);
	RUN(device_matches_get_param);
	RUN(device_fixed_values);
	RUN(invalid_calls);
	RUN(contexts);
	return check_summary();
}
