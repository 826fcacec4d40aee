/* SPDX-License-Identifier: MIT */
/* clGetPlatformIDs, clGetPlatformInfo and the cl_khr_icd entry points. */
#include "icd_tests.h"
#include "sleipnir_compiler.h"

TEST(platform_ids)
{
	cl_platform_id p[2] = { NULL, NULL }, q = NULL;
	cl_uint n = 0;

	CHECK_EQ(clGetPlatformIDs(0, NULL, &n), CL_SUCCESS);
	CHECK_EQ(n, 1);
	CHECK_EQ(clGetPlatformIDs(2, p, &n), CL_SUCCESS);
	CHECK(p[0] != NULL);
	CHECK(p[1] == NULL);
	CHECK_EQ(clIcdGetPlatformIDsKHR(1, &q, NULL), CL_SUCCESS);
	CHECK(q == p[0]);
	/* The dispatch pointer is the object's first word. */
	CHECK(*(const void *const *)q == (const void *)&icd_dispatch);
	CHECK_EQ(clGetPlatformIDs(0, p, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clGetPlatformIDs(1, NULL, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clIcdGetPlatformIDsKHR(0, p, &n), CL_INVALID_VALUE);
}

static const cl_platform_info platform_params[] = {
	CL_PLATFORM_PROFILE, CL_PLATFORM_VERSION, CL_PLATFORM_NAME,
	CL_PLATFORM_VENDOR, CL_PLATFORM_EXTENSIONS, CL_PLATFORM_ICD_SUFFIX_KHR,
};

/* Every query: the size alone, the value, one byte short. */
TEST(platform_info_sizes)
{
	cl_platform_id p = test_platform();
	char buf[512];

	for (size_t i = 0; i < sizeof(platform_params) / sizeof(*platform_params); i++) {
		size_t size = 0, size2 = 0;

		CHECK_EQ(clGetPlatformInfo(p, platform_params[i], 0, NULL, &size),
			 CL_SUCCESS);
		REQUIRE(size > 1 && size <= sizeof(buf));
		memset(buf, 0x55, sizeof(buf));
		CHECK_EQ(clGetPlatformInfo(p, platform_params[i], size, buf, &size2),
			 CL_SUCCESS);
		CHECK_EQ(size2, size);
		CHECK_EQ(strlen(buf) + 1, size);
		CHECK_EQ(clGetPlatformInfo(p, platform_params[i], size - 1, buf,
					   NULL), CL_INVALID_VALUE);
	}
}

TEST(platform_info_values)
{
	char buf[512];

	CHECK_EQ(clGetPlatformInfo(test_platform(), CL_PLATFORM_VERSION,
				   sizeof(buf), buf, NULL), CL_SUCCESS);
	CHECK(strcmp(buf, "OpenCL 1.2 sleipnir") == 0);
	/* NULL picks our platform (implementation-defined per the spec). */
	CHECK_EQ(clGetPlatformInfo(NULL, CL_PLATFORM_PROFILE, sizeof(buf), buf,
				   NULL), CL_SUCCESS);
	CHECK(strcmp(buf, "FULL_PROFILE") == 0);
	CHECK_EQ(clGetPlatformInfo(test_platform(), CL_PLATFORM_NAME,
				   sizeof(buf), buf, NULL), CL_SUCCESS);
	CHECK(strcmp(buf, "Sleipnir") == 0);
	CHECK_EQ(clGetPlatformInfo(test_platform(), CL_PLATFORM_EXTENSIONS,
				   sizeof(buf), buf, NULL), CL_SUCCESS);
	CHECK(strstr(buf, "cl_khr_icd") != NULL);
	/* Every device of the platform has them: the compiler's list. */
	CHECK(strcmp(buf, SLC_DEVICE_EXTENSIONS) == 0);
}

TEST(platform_info_errors)
{
	size_t size;
	/* A foreign object: right size, wrong dispatch table. */
	void *foreign[4] = { NULL, NULL, NULL, NULL };

	CHECK_EQ(clGetPlatformInfo(test_platform(), 0x9999, 0, NULL, &size),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetPlatformInfo((cl_platform_id)foreign, CL_PLATFORM_NAME, 0,
				   NULL, &size), CL_INVALID_PLATFORM);
	/* A device is not a platform, dispatch table or not. */
	CHECK_EQ(clGetPlatformInfo((cl_platform_id)test_device(),
				   CL_PLATFORM_NAME, 0, NULL, &size),
		 CL_INVALID_PLATFORM);
}

TEST(extension_function_address)
{
	CHECK(clGetExtensionFunctionAddress("clIcdGetPlatformIDsKHR") ==
	      (void *)clIcdGetPlatformIDsKHR);
	CHECK(clGetExtensionFunctionAddress("clNoSuchThingKHR") == NULL);
	CHECK(clGetExtensionFunctionAddress(NULL) == NULL);
	CHECK(clGetExtensionFunctionAddressForPlatform(test_platform(),
		"clIcdGetPlatformIDsKHR") == (void *)clIcdGetPlatformIDsKHR);
	CHECK(clGetExtensionFunctionAddressForPlatform(
		(cl_platform_id)test_device(), "clIcdGetPlatformIDsKHR") == NULL);
	CHECK_EQ(clUnloadPlatformCompiler(test_platform()), CL_SUCCESS);
	CHECK_EQ(clUnloadPlatformCompiler((cl_platform_id)test_device()),
		 CL_INVALID_PLATFORM);
}

void test_platform_all(void)
{
	RUN(platform_ids);
	RUN(platform_info_sizes);
	RUN(platform_info_values);
	RUN(platform_info_errors);
	RUN(extension_function_address);
}
