/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: per-file state and driver-wide settings.
 */
#ifndef __SLEIPNIR_DRV_H__
#define __SLEIPNIR_DRV_H__

#include <linux/list.h>
#include <linux/types.h>

#include <drm/gpu_scheduler.h>

#include "sleipnir_common.h"
#include "sleipnir_regs.h"

struct sleipnir_device;
struct sleipnir_vm;

/* The max_job_timeout_ms module parameter. */
extern unsigned int sleipnir_max_job_timeout_ms;

/**
 * struct sleipnir_file - One open file of the render node: a client.
 */
struct sleipnir_file {
	/** @sdev: the GPU. */
	struct sleipnir_device *sdev;
	/** @vm: the client's GPU address space (and fault state). */
	struct sleipnir_vm *vm;
	/** @entities: one scheduler entity per job slot. */
	struct drm_sched_entity entities[SLP_JS_COUNT_MAX];
	/** @node: place in sdev->clients. */
	struct list_head node;
	/** @id: unique client id, as fdinfo's drm-client-id. */
	u64 id;
};

#endif /* __SLEIPNIR_DRV_H__ */
