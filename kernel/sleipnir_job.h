/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: job chains, their submission to the job slots through
 * drm_sched, completion, timeouts and GPU reset.
 */
#ifndef __SLEIPNIR_JOB_H__
#define __SLEIPNIR_JOB_H__

#include <linux/kref.h>
#include <linux/ktime.h>

#include <drm/gpu_scheduler.h>

struct dma_fence;
struct drm_device;
struct drm_file;
struct drm_gem_object;
struct sleipnir_device;
struct sleipnir_file;
struct sleipnir_vm;

/**
 * struct sleipnir_job - One SUBMIT: a job chain and what it uses.
 */
struct sleipnir_job {
	/** @base: the scheduler's job. */
	struct drm_sched_job base;
	/** @refcount: SUBMIT and the scheduler each hold one. */
	struct kref refcount;
	/** @sdev: the GPU. */
	struct sleipnir_device *sdev;
	/** @vm: the client's VM; the job holds a reference. */
	struct sleipnir_vm *vm;
	/** @bos: the BOs named in SUBMIT, referenced. */
	struct drm_gem_object **bos;
	/** @bo_count: entries in @bos. */
	u32 bo_count;
	/** @jc: GPU address of the first job descriptor. */
	u64 jc;
	/** @js: the job slot. */
	u32 js;
	/** @timeout_ms: how long the chain may run. */
	u32 timeout_ms;
	/** @fault_generation: the client's fault generation at SUBMIT. */
	int fault_generation;
	/** @done_fence: hardware fence of the chain's current run. */
	struct dma_fence *done_fence;
	/** @start: when the chain was handed to the GPU. */
	ktime_t start;
	/** @deadline: when it overruns its timeout. */
	ktime_t deadline;
	/** @timed_out: it overran and is being stopped. */
	bool timed_out;
};

int sleipnir_job_init(struct sleipnir_device *sdev);
void sleipnir_job_fini(struct sleipnir_device *sdev);
int sleipnir_job_open(struct sleipnir_file *sfile);
void sleipnir_job_close(struct sleipnir_file *sfile);
void sleipnir_job_irq_enable(struct sleipnir_device *sdev);
void sleipnir_job_irq_disable(struct sleipnir_device *sdev);
bool sleipnir_job_idle(struct sleipnir_device *sdev);
void sleipnir_job_pause(struct sleipnir_device *sdev);
void sleipnir_job_unpause(struct sleipnir_device *sdev);

int sleipnir_ioctl_submit(struct drm_device *ddev, void *data,
			  struct drm_file *file);

#endif /* __SLEIPNIR_JOB_H__ */
