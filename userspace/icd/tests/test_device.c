/* SPDX-License-Identifier: MIT */
/* clGetDeviceIDs and clGetDeviceInfo: every OpenCL 1.2 query. */
#include "fake_gpu.h"
#include "icd_tests.h"
#include "cl_device_params.h"
#include "sleipnir_compiler.h"


TEST(device_ids)
{
	cl_device_id d[2] = { NULL, NULL };
	cl_uint n = 0;

	CHECK_EQ(clGetDeviceIDs(test_platform(), CL_DEVICE_TYPE_ALL, 0, NULL, &n),
		 CL_SUCCESS);
	CHECK_EQ(n, 1);
	CHECK_EQ(clGetDeviceIDs(NULL, CL_DEVICE_TYPE_DEFAULT, 2, d, &n),
		 CL_SUCCESS);
	CHECK(d[0] == test_device() && d[1] == NULL);
	CHECK_EQ(clGetDeviceIDs(test_platform(), CL_DEVICE_TYPE_CPU, 1, d, &n),
		 CL_DEVICE_NOT_FOUND);
	CHECK_EQ(clGetDeviceIDs(test_platform(), CL_DEVICE_TYPE_ACCELERATOR, 1,
				d, NULL), CL_DEVICE_NOT_FOUND);
	CHECK_EQ(clGetDeviceIDs(test_platform(), 0, 1, d, NULL),
		 CL_INVALID_DEVICE_TYPE);
	CHECK_EQ(clGetDeviceIDs(test_platform(), 1u << 20, 1, d, NULL),
		 CL_INVALID_DEVICE_TYPE);
	CHECK_EQ(clGetDeviceIDs(test_platform(), CL_DEVICE_TYPE_GPU, 0, d, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceIDs(test_platform(), CL_DEVICE_TYPE_GPU, 1, NULL,
				NULL), CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceIDs((cl_platform_id)test_device(),
				CL_DEVICE_TYPE_GPU, 1, d, NULL),
		 CL_INVALID_PLATFORM);
}

TEST(device_info_sizes)
{
	cl_device_id d = test_device();
	unsigned char buf[1024];

	REQUIRE(d);
	for (size_t i = 0; i < sizeof(cl_device_params) / sizeof(*cl_device_params); i++) {
		cl_device_info param = cl_device_params[i].param;
		size_t size = 0, size2 = 0;

		if (clGetDeviceInfo(d, param, 0, NULL, &size) != CL_SUCCESS) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "param 0x%x fails",
				      (unsigned int)param);
			continue;
		}
		if (cl_device_params[i].size)
			CHECK_EQ(size, cl_device_params[i].size);
		else
			CHECK(size >= 1);
		REQUIRE(size <= sizeof(buf));
		CHECK_EQ(clGetDeviceInfo(d, param, size, buf, &size2), CL_SUCCESS);
		CHECK_EQ(size2, size);
		if (!cl_device_params[i].size)
			CHECK_EQ(strnlen((char *)buf, size) + 1, size);
		/* Too small a buffer: CL_INVALID_VALUE, nothing written. */
		memset(buf, 0xa5, sizeof(buf));
		CHECK_EQ(clGetDeviceInfo(d, param, size - 1, buf, NULL),
			 CL_INVALID_VALUE);
		CHECK_EQ(buf[0], 0xa5);
		/* Larger than needed is fine. */
		CHECK_EQ(clGetDeviceInfo(d, param, sizeof(buf), buf, NULL),
			 CL_SUCCESS);
	}
}

#define QUERY(d, param, var)                                                 \
	CHECK_EQ(clGetDeviceInfo(d, param, sizeof(var), &(var), NULL), CL_SUCCESS)

TEST(device_info_values)
{
	cl_device_id d = test_device();
	cl_uint u = 0;
	cl_ulong ul = 0;
	size_t sz = 0, sizes[3] = { 0 };
	cl_bool b = CL_TRUE;
	cl_device_type type = 0;
	cl_platform_id p = NULL;
	char s[512];

	REQUIRE(d);
	QUERY(d, CL_DEVICE_TYPE, type);
	CHECK_EQ(type, CL_DEVICE_TYPE_GPU);
	QUERY(d, CL_DEVICE_MAX_COMPUTE_UNITS, u);
	CHECK_EQ(u, 4);
	QUERY(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sz);
	CHECK_EQ(sz, 256);
	QUERY(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizes);
	CHECK(sizes[0] == 256 && sizes[1] == 256 && sizes[2] == 256);
	QUERY(d, CL_DEVICE_LOCAL_MEM_SIZE, ul);
	CHECK_EQ(ul, 32 * 1024);
	QUERY(d, CL_DEVICE_GLOBAL_MEM_SIZE, ul);
	CHECK_EQ(ul, FAKE_RAM);
	QUERY(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, ul);
	CHECK_EQ(ul, FAKE_RAM / 4);
	QUERY(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, u);
	CHECK_EQ(u, 16);
	QUERY(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, u);
	CHECK_EQ(u, 8);
	QUERY(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, u);
	CHECK_EQ(u, 4);
	QUERY(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, u);
	CHECK_EQ(u, 2);
	/* Doubles: two to a register with cl_khr_fp64, else 0 (§4.2). */
	QUERY(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, u);
	CHECK_EQ(u, SLC_DEVICE_FP64 ? 2 : 0);
	QUERY(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, u);
	CHECK_EQ(u, SLC_DEVICE_FP64 ? 2 : 0);
	/* cl_khr_fp16: nonzero (eight halves to a register), and the half
	 * config's minimum. */
	QUERY(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, u);
	CHECK_EQ(u, 8);
	QUERY(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, u);
	CHECK_EQ(u, 8);
	QUERY(d, CL_DEVICE_HALF_FP_CONFIG, ul);
	CHECK((ul & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) ==
	      (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
	QUERY(d, CL_DEVICE_IMAGE_SUPPORT, b);
	CHECK_EQ(b, SLC_DEVICE_IMAGE_SUPPORT ? CL_TRUE : CL_FALSE);
	/* With images, OpenCL 1.2's full-profile minimums (Table 4.3) and
	 * the descriptors' 16-bit sizes (docs/hardware.md §4.10). */
	if (SLC_DEVICE_IMAGE_SUPPORT) {
		static const struct {
			cl_device_info q;
			size_t min;
		} image_min[] = {
			{ CL_DEVICE_IMAGE2D_MAX_WIDTH, 8192 },
			{ CL_DEVICE_IMAGE2D_MAX_HEIGHT, 8192 },
			{ CL_DEVICE_IMAGE3D_MAX_WIDTH, 2048 },
			{ CL_DEVICE_IMAGE3D_MAX_HEIGHT, 2048 },
			{ CL_DEVICE_IMAGE3D_MAX_DEPTH, 2048 },
			{ CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, 65536 },
			{ CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, 2048 },
		};

		for (size_t i = 0; i < sizeof(image_min) / sizeof(image_min[0]);
		     i++) {
			QUERY(d, image_min[i].q, sz);
			CHECK(sz >= image_min[i].min && sz <= 65536);
		}
		QUERY(d, CL_DEVICE_MAX_READ_IMAGE_ARGS, u);
		CHECK(u >= 128);
		QUERY(d, CL_DEVICE_MAX_WRITE_IMAGE_ARGS, u);
		CHECK(u >= 8);
		QUERY(d, CL_DEVICE_MAX_SAMPLERS, u);
		CHECK(u >= 16);
	}
	QUERY(d, CL_DEVICE_DOUBLE_FP_CONFIG, ul);
	CHECK_EQ(ul, SLC_DEVICE_FP64 ? (cl_ulong)(CL_FP_FMA |
		 CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
		 CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM) : 0);
	QUERY(d, CL_DEVICE_ADDRESS_BITS, u);
	CHECK_EQ(u, 32);
	QUERY(d, CL_DEVICE_ENDIAN_LITTLE, b);
	CHECK_EQ(b, CL_TRUE);
	QUERY(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION, sz);
	CHECK_EQ(sz, 16);
	QUERY(d, CL_DEVICE_PLATFORM, p);
	CHECK(p == test_platform());
	QUERY(d, CL_DEVICE_PROFILE, s);
	CHECK(strcmp(s, "FULL_PROFILE") == 0);
	QUERY(d, CL_DEVICE_VERSION, s);
	CHECK(strcmp(s, "OpenCL 1.2 sleipnir") == 0);
	QUERY(d, CL_DEVICE_OPENCL_C_VERSION, s);
	CHECK(strncmp(s, "OpenCL C 1.2 ", 13) == 0);
	QUERY(d, CL_DEVICE_NAME, s);
	CHECK(strcmp(s, "Mali-T860 MP4") == 0);
	QUERY(d, CL_DEVICE_EXTENSIONS, s);
	/* The very list the compiler enables in clang (-cl-ext). */
	CHECK(strcmp(s, SLC_DEVICE_EXTENSIONS) == 0);
	CHECK(strstr(s, "cl_khr_icd") != NULL);
	CHECK(strstr(s, "cl_khr_int64_base_atomics") != NULL);
	CHECK(strstr(s, "cl_khr_int64_extended_atomics") != NULL);
	CHECK((strstr(s, "cl_khr_fp64") != NULL) == SLC_DEVICE_FP64);
	CHECK(strstr(s, "cl_khr_fp16") != NULL);
}

TEST(device_info_errors)
{
	cl_uint u;

	CHECK_EQ(clGetDeviceInfo(test_device(), 0x7777, sizeof(u), &u, NULL),
		 CL_INVALID_VALUE);
	/* 2.0's queries do not exist on a 1.2 device. */
	CHECK_EQ(clGetDeviceInfo(test_device(), 0x104D, sizeof(u), &u, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetDeviceInfo(NULL, CL_DEVICE_TYPE, sizeof(u), &u, NULL),
		 CL_INVALID_DEVICE);
	CHECK_EQ(clGetDeviceInfo((cl_device_id)test_platform(), CL_DEVICE_TYPE,
				 sizeof(u), &u, NULL), CL_INVALID_DEVICE);
}

TEST(root_device_lifetime)
{
	cl_device_partition_property props[] = {
		CL_DEVICE_PARTITION_EQUALLY, 1, 0
	};
	cl_device_id sub;
	cl_uint n;

	CHECK_EQ(clRetainDevice(test_device()), CL_SUCCESS);
	CHECK_EQ(clReleaseDevice(test_device()), CL_SUCCESS);
	CHECK_EQ(clRetainDevice(NULL), CL_INVALID_DEVICE);
	CHECK_EQ(clReleaseDevice((cl_device_id)test_platform()),
		 CL_INVALID_DEVICE);
	CHECK_EQ(clCreateSubDevices(test_device(), props, 1, &sub, &n),
		 CL_INVALID_VALUE);
	CHECK_EQ(clCreateSubDevices(NULL, props, 1, &sub, &n),
		 CL_INVALID_DEVICE);
}

void test_device_all(void)
{
	RUN(device_ids);
	RUN(device_info_sizes);
	RUN(device_info_values);
	RUN(device_info_errors);
	RUN(root_device_lifetime);
}
