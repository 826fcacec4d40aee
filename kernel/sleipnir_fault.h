/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: records of job failures. Each client (VM) keeps the first fault
 * since userspace last cleared it; that record is what marks the client and
 * what DRM_IOCTL_SLEIPNIR_GET_FAULT returns. The device keeps a short log of
 * the latest faults of all clients for debugfs.
 */
#ifndef __SLEIPNIR_FAULT_H__
#define __SLEIPNIR_FAULT_H__

#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "sleipnir_faults.h"

struct drm_device;
struct drm_file;
struct seq_file;

/**
 * struct sleipnir_fault - One fault, as userspace and debugfs see it.
 */
struct sleipnir_fault {
	/** @info: what GET_FAULT reports (sleipnir_faults.h). */
	struct sleipnir_fault_info info;
	/** @pid: the client's process id. */
	pid_t pid;
	/** @comm: the client's command name. */
	char comm[TASK_COMM_LEN];
	/** @time: when it was recorded. */
	ktime_t time;
};

/**
 * struct sleipnir_fault_state - Faults of one client since the last clear.
 */
struct sleipnir_fault_state {
	/** @lock: protects the other members. */
	spinlock_t lock;
	/** @count: faults since the last clear; the client is marked if > 0. */
	u32 count;
	/** @first: the first of them, completed by later reports. */
	struct sleipnir_fault first;
	/**
	 * @generation: bumped on every fault; a job queued under an older
	 * generation is cancelled instead of run.
	 */
	atomic_t generation;
};

#define SLEIPNIR_FAULT_LOG_SIZE	16

/**
 * struct sleipnir_fault_log - The latest faults of all clients.
 */
struct sleipnir_fault_log {
	/** @lock: protects the other members. */
	spinlock_t lock;
	/** @total: faults ever logged; the ring holds the last ones. */
	u64 total;
	/** @ring: the entries, the newest at (@total - 1) % size. */
	struct sleipnir_fault ring[SLEIPNIR_FAULT_LOG_SIZE];
};

void sleipnir_fault_state_init(struct sleipnir_fault_state *state);
bool sleipnir_fault_pending(struct sleipnir_fault_state *state);
bool sleipnir_fault_has_address(struct sleipnir_fault_state *state);
void sleipnir_fault_record(struct sleipnir_fault_state *state,
			   struct sleipnir_fault_log *log,
			   const struct sleipnir_fault *fault);
void sleipnir_fault_log_init(struct sleipnir_fault_log *log);
void sleipnir_fault_log_show(struct sleipnir_fault_log *log,
			     struct seq_file *m);

int sleipnir_ioctl_get_fault(struct drm_device *ddev, void *data,
			     struct drm_file *file);

#endif /* __SLEIPNIR_FAULT_H__ */
