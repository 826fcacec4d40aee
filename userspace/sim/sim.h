/* SPDX-License-Identifier: MIT */
/*
 * The simulated render node (issue 19): a stand-in for sleipnir.ko that
 * runs in the calling process and drives the GPU model core
 * (qemu/model/sgpu.h) through its registers, as the kernel driver drives
 * the hardware. It serves the uapi of uapi/drm/sleipnir_drm.h with the
 * semantics the header documents, plus the DRM core ioctls the stack uses
 * (VERSION, GEM_CLOSE, PRIME, SYNCOBJ_*).
 *
 * Layers (one concern per file):
 *   sim_intercept.c  open/ioctl/mmap/close/opendir of the node -> here
 *   sim_fd.c         the simulator's file descriptors (sim_fd.h)
 *   sim_device.c     the process's GPU: the model, its IRQ thread, power-up
 *   sim_ram.c        "physical memory": one sparse memfd, userptr ranges
 *   sim_gem.c        BOs: create, userptr, mmap, info, sync, PRIME
 *   sim_vm.c         per-file GPU VM: Mali LPAE tables, VM_MAP, AS slots
 *   sim_ioctl.c      the node's ioctl table, GET_PARAM, VERSION
 *   sim_fence.c, sim_syncobj.c   fences and DRM syncobjs
 *   sim_sched.c, sim_submit.c, sim_fault.c, sim_resv.c   SUBMIT, job
 *                    slots, faults, timeouts, GET_FAULT, BO_WAIT, BO fences
 *
 * This header is the interface between them; each part keeps its own
 * state private.
 */
#ifndef SLEIPNIR_SIM_H
#define SLEIPNIR_SIM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sgpu.h"
#include "sim_fence.h"
#include "sim_syncobj.h"

/* The path the simulated node answers to, and its directory. */
#define SIM_DRI_DIR "/dev/dri"
#define SIM_NODE_NAME "renderD128"
#define SIM_NODE_PATH SIM_DRI_DIR "/" SIM_NODE_NAME

struct sim_device;
struct sim_file;
struct sim_bo;
struct sim_vm;
struct sim_sched;            /* sim_sched.c: the device's job slots */
struct sim_file_jobs;        /* sim_sched.c: one file's jobs and fault */

/* --- the device (sim_device.c) ------------------------------------------ */

/*
 * The process's GPU, created on first use from the environment
 * (SLEIPNIR_SIM_GPU: product name, default "t860"; SLEIPNIR_SIM_CORES:
 * shader cores, default 4). NULL and errno set when it cannot be.
 */
struct sim_device *sim_device_get(void);
struct sgpu *sim_device_gpu(struct sim_device *dev);
struct sim_sched *sim_device_sched(struct sim_device *dev);
uint32_t sim_reg_read(struct sim_device *dev, uint32_t offset);
void sim_reg_write(struct sim_device *dev, uint32_t offset, uint32_t value);
uint64_t sim_reg_read64(struct sim_device *dev, uint32_t offset_lo);
/*
 * Brings the GPU from any state to ready after a job timeout, as the
 * kernel's sleipnir_mmu_forget_all() + sleipnir_device_reset_hw(): every
 * AS unbound from its VM, soft reset, power-up, interrupts unmasked.
 * 0 or a negative errno. Called by the scheduler's watchdog thread with no
 * job on the GPU and the job and MMU IRQ handlers held off: it must not
 * wait for the IRQ thread.
 */
int sim_device_reset(struct sim_device *dev);

/*
 * Copies between the simulator and the caller's memory as copy_from_user /
 * copy_to_user do: 0, or -EFAULT when any byte cannot be reached (the
 * process does not crash on a bad pointer). sim_intercept.c.
 */
int sim_copy_from_user(void *dst, uint64_t user_src, size_t len);
int sim_copy_to_user(uint64_t user_dst, const void *src, size_t len);

/*
 * The simulated kernel's log, which klogctl() reads (as the uapi tests
 * read the kernel's): one line per call, printf-style, the kernel's
 * dev_info/dev_warn/dev_err messages. Also printed on stderr when
 * SLEIPNIR_SIM_LOG is set. sim_intercept.c.
 */
void sim_klog(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* --- one open file of the node ------------------------------------------ */

struct sim_file {
	struct sim_device *dev;
	struct sim_vm *vm;
	struct sim_syncobj_table *syncobjs;
	struct sim_file_jobs *jobs;
	/* GEM handles (sim_gem.c). */
	pthread_mutex_t handles_lock;
	struct sim_bo **handles;     /* index = handle - 1 */
	uint32_t num_handles;
};

/* --- BOs (sim_gem.c) ------------------------------------------------------ */

/* The handle's BO with a reference (sim_bo_put), or NULL. */
struct sim_bo *sim_bo_lookup(struct sim_file *file, uint32_t handle);
struct sim_bo *sim_bo_get(struct sim_bo *bo);
void sim_bo_put(struct sim_bo *bo);
uint64_t sim_bo_size(const struct sim_bo *bo);

/*
 * Implicit synchronisation, as dma_resv: the fence of the last job that
 * wrote the BO and those of the jobs that read it since. The scheduler
 * adds fences at SUBMIT; BO_WAIT and later SUBMITs wait on them.
 */
struct sim_bo_fences;
struct sim_bo_fences *sim_bo_fences(struct sim_bo *bo);
/* sim_resv.c (the scheduler's part): made with the BO, freed with it. */
struct sim_bo_fences *sim_bo_fences_new(void);
void sim_bo_fences_free(struct sim_bo_fences *f);
/* Adds fence as a reader (write false) or as the new writer. */
int sim_bo_fences_add(struct sim_bo_fences *f, struct sim_fence *fence,
		      bool write);
/*
 * Calls fn for each fence a new user must wait for: the writer, and for a
 * writer also every reader. Stops at and returns fn's first non-zero.
 */
int sim_bo_fences_each(struct sim_bo_fences *f, bool write,
		       int (*fn)(void *data, struct sim_fence *fence),
		       void *data);

/* --- the GPU VM (sim_vm.c) ---------------------------------------------- */

/*
 * Binds the file's VM to a hardware address space for a job (programming
 * the AS registers when it was not bound, evicting an idle VM when every
 * AS is taken) and returns the AS number, or -EBUSY when every AS is in
 * use by running jobs. Each get is paired with a put when the job ends.
 */
int sim_vm_as_get(struct sim_vm *vm);
void sim_vm_as_put(struct sim_vm *vm);
/* The file whose VM is bound to as_nr now, or NULL. */
struct sim_file *sim_vm_file_of_as(struct sim_device *dev, unsigned int as_nr);
/*
 * An MMU fault on as_nr: takes the AS from the VM bound to it and disables
 * it, as the kernel's MMU interrupt does (sleipnir_as_unassign +
 * sleipnir_as_disable), so that VM's next job loads a fresh AS. Called on
 * the IRQ thread.
 */
void sim_vm_as_fault(struct sim_device *dev, unsigned int as_nr);

/* --- the scheduler (sim_sched.c), called by the other parts -------------- */

struct sim_sched *sim_sched_create(struct sim_device *dev);
void sim_sched_destroy(struct sim_sched *sched);
/* The model raised JOB_IRQ or MMU_IRQ; called on the device's IRQ thread. */
void sim_sched_job_irq(struct sim_sched *sched);
void sim_sched_mmu_irq(struct sim_sched *sched);
/* Per file: set up at open, torn down at close (after its jobs ended). */
struct sim_file_jobs *sim_sched_file_open(struct sim_sched *sched,
					  struct sim_file *file);
void sim_sched_file_close(struct sim_file_jobs *jobs);
/*
 * SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS, for GET_PARAM: the kernel's
 * max_job_timeout_ms module parameter (default and the default timeout in
 * kernel/sleipnir_common.h), here from the environment's
 * SLEIPNIR_SIM_MAX_JOB_TIMEOUT_MS at first use.
 */
unsigned int sim_sched_max_job_timeout_ms(struct sim_sched *sched);
/*
 * Writes the max_job_timeout_ms "module parameter" (for a simulated
 * /sys/module/sleipnir/parameters/max_job_timeout_ms): later SUBMITs and
 * GET_PARAMs see it; 0 acts as 1, as in the kernel.
 */
void sim_sched_set_max_job_timeout_ms(struct sim_sched *sched,
				      unsigned int ms);
/*
 * The scheduler's lines of the kernel's debugfs "counters" file
 * (sim_debugfs.c prints the core's first): "key: value\n" for
 * jobs_in_flight, jobs_submitted, jobs_done, jobs_failed, jobs_timedout,
 * gpu_resets and mmu_faults, as kernel/sleipnir_debugfs.c, to out.
 */
void sim_sched_debugfs_counters(struct sim_sched *sched, FILE *out);
/* DRM_IOCTL_SLEIPNIR_SUBMIT, _GET_FAULT and _BO_WAIT. */
int sim_ioctl_submit(struct sim_file *file, void *arg);
int sim_ioctl_get_fault(struct sim_file *file, void *arg);
int sim_ioctl_bo_wait(struct sim_file *file, void *arg);

#endif
