/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: debugfs files under /sys/kernel/debug/dri/<minor>/.
 */
#ifndef __SLEIPNIR_DEBUGFS_H__
#define __SLEIPNIR_DEBUGFS_H__

struct drm_minor;

void sleipnir_debugfs_init(struct drm_minor *minor);

#endif /* __SLEIPNIR_DEBUGFS_H__ */
