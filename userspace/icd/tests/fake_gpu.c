/* SPDX-License-Identifier: MIT */
/*
 * Stands in for icd_device_open.c on the host, which has no Sleipnir GPU:
 * the device gets the values sleipnir.ko reports for the model's T860
 * (docs/hardware.md §1.1, "Observed real T860").
 */
#include <errno.h>

#include "fake_gpu.h"
#include "icd_device.h"

const struct icd_gpu_params fake_t860 = {
	.gpu_id = 0x08602000,
	.shader_present = 0xf,
	.shader_core_mask = 0xf,
	.l2_present = 0x1,
	.l2_features = 0x07120206,
	.l2_size = 256 * 1024,
	.thread_max_workgroup_size = 256,
	.timestamp_frequency = 62500000,
	.va_start = 0x1000000,
	.va_end = 1ull << 48,
};

int icd_device_open(cl_device_id dev)
{
	dev->drm = NULL;
	dev->params = fake_t860;
	return icd_device_limits_derive(&dev->params, FAKE_RAM, &dev->limits) ?
	       0 : -ENODEV;
}

int icd_device_open_vm(cl_device_id dev, struct sl_drm **out)
{
	(void)dev;
	*out = NULL;
	return 0;
}
