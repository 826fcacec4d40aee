/* SPDX-License-Identifier: MIT */
/*
 * Opening the GPU through the device layer (userspace/drm/sl_drm.h): the
 * only file of the ICD that talks to the driver, so host tests can replace
 * it with a fake GPU.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/sysinfo.h>

#include "drm/sleipnir_drm.h"
#include "icd_device.h"

static int read_params(struct sl_drm *drm, struct icd_gpu_params *p)
{
	static const struct {
		uint32_t param;
		size_t offset;
	} wanted[] = {
#define PARAM(id, field) \
	{ SLEIPNIR_PARAM_##id, offsetof(struct icd_gpu_params, field) }
		PARAM(GPU_ID, gpu_id),
		PARAM(SHADER_PRESENT, shader_present),
		PARAM(SHADER_CORE_MASK, shader_core_mask),
		PARAM(L2_PRESENT, l2_present),
		PARAM(L2_FEATURES, l2_features),
		PARAM(L2_SIZE, l2_size),
		PARAM(THREAD_MAX_WORKGROUP_SIZE, thread_max_workgroup_size),
		PARAM(TIMESTAMP_FREQUENCY, timestamp_frequency),
		PARAM(VA_START, va_start),
		PARAM(VA_END, va_end),
#undef PARAM
	};

	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
		int err = sl_drm_get_param(drm, wanted[i].param,
					   (uint64_t *)((char *)p +
							wanted[i].offset));

		if (err)
			return err;
	}
	return 0;
}

int icd_device_open(cl_device_id dev)
{
	struct sysinfo si;
	int err = sl_drm_open(&dev->drm);

	if (err)
		return err;
	err = read_params(dev->drm, &dev->params);
	if (!err && sysinfo(&si))
		err = -errno;
	if (!err && !icd_device_limits_derive(&dev->params,
					      (uint64_t)si.totalram * si.mem_unit,
					      &dev->limits))
		err = -ENODEV;
	if (err) {
		sl_drm_close(dev->drm);
		dev->drm = NULL;
	}
	return err;
}

int icd_device_open_vm(cl_device_id dev, struct sl_drm **out)
{
	(void)dev;
	return sl_drm_open(out);
}
