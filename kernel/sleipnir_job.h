/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: a job, as SUBMIT (sleipnir_submit.c) creates it and the
 * scheduler back end (sleipnir_sched.c) runs it.
 */
#ifndef __SLEIPNIR_JOB_H__
#define __SLEIPNIR_JOB_H__

#include <linux/kref.h>
#include <linux/ktime.h>

#include <drm/gpu_scheduler.h>

struct dma_fence;
struct drm_gem_object;
struct sleipnir_device;
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

void sleipnir_job_put(struct sleipnir_job *job);

#endif /* __SLEIPNIR_JOB_H__ */
