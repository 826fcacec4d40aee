/* SPDX-License-Identifier: MIT */
/*
 * The platform: one per process, made on first use, with at most one
 * device (the GPU, when the render node could be opened).
 */
#ifndef ICD_PLATFORM_H
#define ICD_PLATFORM_H

#include <stdbool.h>

#include "icd_device.h"
#include "icd_object.h"

struct _cl_platform_id {
	struct icd_object obj;
	/* NULL when no Sleipnir GPU could be opened: the platform still
	 * exists, with no device, so that clinfo shows why nothing runs. */
	cl_device_id device;
};

/* The platform, set up (and the GPU probed) on first call. */
cl_platform_id icd_platform_get(void);

/* A handle argument's platform: NULL selects ours (OpenCL 1.2 leaves that
 * to the implementation); anything else must be ours. NULL result:
 * CL_INVALID_PLATFORM. */
cl_platform_id icd_platform_resolve(cl_platform_id platform);

#endif
