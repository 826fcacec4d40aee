/* SPDX-License-Identifier: MIT */
/*
 * cl_khr_icd: the entry points the ICD loader finds by name. The loader
 * dlopen()s the library named in sleipnir.icd, looks up
 * clGetExtensionFunctionAddress, asks it for clIcdGetPlatformIDsKHR,
 * reads the platform's ICD suffix through clGetPlatformInfo (also
 * exported, icd_platform.c) and from then on calls everything through the
 * dispatch table at the start of our objects. icd.map lists the exports.
 */
#include <string.h>

#include "icd_platform.h"
#include "icd_program.h"

ICD_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
						     cl_platform_id *platforms,
						     cl_uint *num_platforms)
{
	/* The same rules as clGetPlatformIDs; we always have a platform, so
	 * CL_PLATFORM_NOT_FOUND_KHR never applies. */
	return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

/* The extension functions a name can be looked up for: cl_khr_icd's and
 * cl_khr_il_program's (no other extension of ours has functions). */
static void *extension_function(const char *name)
{
	if (!name)
		return NULL;
	if (strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
		return (void *)clIcdGetPlatformIDsKHR;
	if (strcmp(name, "clCreateProgramWithILKHR") == 0)
		return (void *)clCreateProgramWithILKHR;
	return NULL;
}

ICD_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
	return extension_function(name);
}

ICD_EXPORT void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
					 const char *name)
{
	/* No error code to return: an unknown platform has no functions. */
	if (!icd_object_is(platform, ICD_TYPE_PLATFORM))
		return NULL;
	return extension_function(name);
}
