/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: DRM_IOCTL_SLEIPNIR_SUBMIT.
 */
#ifndef __SLEIPNIR_SUBMIT_H__
#define __SLEIPNIR_SUBMIT_H__

struct drm_device;
struct drm_file;

int sleipnir_ioctl_submit(struct drm_device *ddev, void *data,
			  struct drm_file *file);

#endif /* __SLEIPNIR_SUBMIT_H__ */
