/* SPDX-License-Identifier: MIT */
/* Finding the device: clGetDeviceIDs, and the root device's lifetime. */
#include "icd_platform.h"

#define KNOWN_TYPES                                                         \
	(CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | \
	 CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM)

bool icd_device_valid(cl_device_id device)
{
	return icd_object_is(device, ICD_TYPE_DEVICE);
}

bool icd_device_type_valid(cl_device_type type)
{
	return type == CL_DEVICE_TYPE_ALL || (type && !(type & ~KNOWN_TYPES));
}

bool icd_device_type_matches(cl_device_type type)
{
	/* The GPU is the platform's only device, hence its default too. */
	return type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT);
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform,
				  cl_device_type device_type,
				  cl_uint num_entries, cl_device_id *devices,
				  cl_uint *num_devices)
{
	cl_platform_id p = icd_platform_resolve(platform);

	if (!p)
		return CL_INVALID_PLATFORM;
	if (!icd_device_type_valid(device_type))
		return CL_INVALID_DEVICE_TYPE;
	if ((num_entries == 0 && devices) || (!devices && !num_devices))
		return CL_INVALID_VALUE;
	if (!p->device || !icd_device_type_matches(device_type))
		return CL_DEVICE_NOT_FOUND;
	if (devices)
		devices[0] = p->device;
	if (num_devices)
		*num_devices = 1;
	return CL_SUCCESS;
}

/* The device is a root device: OpenCL 1.2 makes retain and release of a
 * root device no-ops that only check the handle. */
cl_int CL_API_CALL clRetainDevice(cl_device_id device)
{
	return icd_device_valid(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device)
{
	return icd_device_valid(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

/* A Midgard core group cannot be split for scheduling (the driver places
 * jobs on its cores itself), so the device offers no partition type and
 * every request names one it does not support. */
cl_int CL_API_CALL
clCreateSubDevices(cl_device_id in_device,
		   const cl_device_partition_property *properties,
		   cl_uint num_devices, cl_device_id *out_devices,
		   cl_uint *num_devices_ret)
{
	(void)num_devices;
	(void)out_devices;
	(void)num_devices_ret;
	if (!icd_device_valid(in_device))
		return CL_INVALID_DEVICE;
	(void)properties;
	return CL_INVALID_VALUE;
}
