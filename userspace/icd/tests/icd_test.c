/* SPDX-License-Identifier: MIT */
/* Host tests of the ICD's pure parts: handle checks, the size rules of the
 * info queries, reference counts, the dispatch table, the device limits. */
#include "icd_tests.h"

CHECK_MAIN_STATE("icd");

cl_platform_id test_platform(void)
{
	cl_platform_id p = NULL;

	clGetPlatformIDs(1, &p, NULL);
	return p;
}

cl_device_id test_device(void)
{
	cl_device_id d = NULL;

	clGetDeviceIDs(test_platform(), CL_DEVICE_TYPE_GPU, 1, &d, NULL);
	return d;
}

int main(void)
{
	test_limits_all();
	test_platform_all();
	test_device_all();
	test_context_all();
	test_dispatch_all();
	test_mem_all();
	test_image_all();
	test_program_all();
	test_kernel_all();
	test_queue_all();
	return check_summary();
}
