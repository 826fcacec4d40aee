/* SPDX-License-Identifier: MIT */
/*
 * The device: the one Sleipnir GPU behind the render node, opened through
 * the device layer (userspace/drm/sl_drm.h) when the platform is first
 * asked for.
 */
#ifndef ICD_DEVICE_H
#define ICD_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "icd_device_limits.h"
#include "icd_object.h"
#include "sleipnir_compiler.h"
#include "sl_drm.h"

struct _cl_device_id {
	struct icd_object obj;
	struct sl_drm *drm;
	struct icd_gpu_params params;
	struct icd_device_limits limits;
};

/* CL_DEVICE_MAX_PARAMETER_SIZE: the OpenCL 1.2 minimum; the argument
 * image of a kernel is at most this plus its sysvals. */
#define ICD_MAX_PARAMETER_SIZE 1024

/* The device's extensions and image support are the compiler's
 * (SLC_DEVICE_EXTENSIONS, SLC_DEVICE_IMAGE_SUPPORT in sleipnir_compiler.h):
 * what clang lets a kernel use is what the ICD reports. */

/*
 * Opens the GPU and fills @dev's drm, params and limits (the limits through
 * icd_device_limits_derive() with the host's RAM). 0, or a negative errno.
 * icd_device_open.c does it through sl_drm; host tests link a fake GPU in
 * its place. The render node stays open for the life of the process: the
 * device is a process-wide singleton, like the platform.
 */
int icd_device_open(cl_device_id dev);

/*
 * Opens a GPU address space of its own for a new context in *@out: 0, or
 * a negative errno. The fake GPU of the host tests gives NULL.
 */
int icd_device_open_vm(cl_device_id dev, struct sl_drm **out);

/* True when @device is this ICD's device (CL_INVALID_DEVICE otherwise). */
bool icd_device_valid(cl_device_id device);

/* True when @type names device types OpenCL 1.2 defines. */
bool icd_device_type_valid(cl_device_type type);

/* True when our GPU device answers to a request for @type. */
bool icd_device_type_matches(cl_device_type type);

#endif
