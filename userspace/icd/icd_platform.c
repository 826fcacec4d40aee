/* SPDX-License-Identifier: MIT */
/* The platform singleton, clGetPlatformIDs and clGetPlatformInfo. */
#include <pthread.h>

#include "icd_info.h"
#include "icd_platform.h"

static struct _cl_platform_id platform;
static struct _cl_device_id gpu;
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;

static void platform_init(void)
{
	icd_object_init(&platform.obj, ICD_TYPE_PLATFORM);
	/* A missing or foreign GPU leaves the platform without a device;
	 * clGetDeviceIDs then says CL_DEVICE_NOT_FOUND. */
	if (icd_device_open(&gpu) == 0) {
		icd_object_init(&gpu.obj, ICD_TYPE_DEVICE);
		platform.device = &gpu;
	}
}

cl_platform_id icd_platform_get(void)
{
	pthread_once(&platform_once, platform_init);
	return &platform;
}

cl_platform_id icd_platform_resolve(cl_platform_id p)
{
	cl_platform_id ours = icd_platform_get();

	if (!p)
		return ours;
	return icd_object_is(p, ICD_TYPE_PLATFORM) ? p : NULL;
}

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries,
				    cl_platform_id *platforms,
				    cl_uint *num_platforms)
{
	if ((num_entries == 0 && platforms) || (!platforms && !num_platforms))
		return CL_INVALID_VALUE;
	if (platforms)
		platforms[0] = icd_platform_get();
	if (num_platforms)
		*num_platforms = 1;
	return CL_SUCCESS;
}

/* Exported as well: ocl-icd looks it up by name to read the ICD suffix
 * before it uses the dispatch table. */
ICD_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p,
				     cl_platform_info param_name,
				     size_t param_value_size,
				     void *param_value,
				     size_t *param_value_size_ret)
{
	const char *s;

	if (!icd_platform_resolve(p))
		return CL_INVALID_PLATFORM;
	switch (param_name) {
	case CL_PLATFORM_PROFILE:
		s = "FULL_PROFILE";
		break;
	case CL_PLATFORM_VERSION:
		/* "OpenCL<space><major.minor><space><platform-specific>". */
		s = "OpenCL 1.2 sleipnir";
		break;
	case CL_PLATFORM_NAME:
		s = "Sleipnir";
		break;
	case CL_PLATFORM_VENDOR:
		s = "The Sleipnir project";
		break;
	case CL_PLATFORM_EXTENSIONS:
		s = SLC_DEVICE_EXTENSIONS;
		break;
	case CL_PLATFORM_ICD_SUFFIX_KHR:
		/* cl_khr_icd: the loader reads it to route extension
		 * functions named with it to this platform. */
		s = "SLEIPNIR";
		break;
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_string(s, param_value_size, param_value,
			       param_value_size_ret);
}
