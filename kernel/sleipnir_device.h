/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: per-GPU state shared by all parts of the driver.
 */
#ifndef __SLEIPNIR_DEVICE_H__
#define __SLEIPNIR_DEVICE_H__

#include <linux/atomic.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include <drm/drm_device.h>
#include <drm/gpu_scheduler.h>

#include "sleipnir_fault.h"
#include "sleipnir_regs.h"

struct clk;
struct reset_control;
struct sleipnir_job;
struct sleipnir_vm;
struct workqueue_struct;

/**
 * struct sleipnir_slot - One job slot and the scheduler that feeds it.
 *
 * The slot runs one chain at a time (see sleipnir_sched.c for why), so the
 * scheduler's queue depth is 1 and @job is the chain on the hardware.
 */
struct sleipnir_slot {
	/** @sched: the drm_sched scheduler of this slot. */
	struct drm_gpu_scheduler sched;
	/** @job: the chain on the hardware, or NULL; under @js_lock. */
	struct sleipnir_job *job;
	/** @fence_context: dma-fence context of the hardware fences. */
	u64 fence_context;
	/** @fence_seqno: last hardware fence number handed out. */
	u64 fence_seqno;
	/** @name: "js<n>", the scheduler's name. */
	char name[8];
};

/**
 * struct sleipnir_counters - Live object and event counts, for debugfs.
 *
 * The first five read zero when no client is open and the GPU is idle; the
 * ioctl fuzzer checks that to find leaks.
 */
struct sleipnir_counters {
	/** @bos: buffer objects alive. */
	atomic_t bos;
	/** @vms: GPU address spaces (one per open file, plus jobs' refs). */
	atomic_t vms;
	/** @vm_mappings: VM_MAP mappings alive. */
	atomic_t vm_mappings;
	/** @as_bound: hardware address spaces holding a VM. */
	atomic_t as_bound;
	/** @jobs_in_flight: jobs submitted and not yet freed. */
	atomic_t jobs_in_flight;
	/** @jobs_submitted: SUBMITs that queued a job. */
	atomic64_t jobs_submitted;
	/** @jobs_done: chains that ended with DONE. */
	atomic64_t jobs_done;
	/** @jobs_failed: chains that ended with an error, any kind. */
	atomic64_t jobs_failed;
	/** @jobs_timedout: chains stopped by their timeout. */
	atomic64_t jobs_timedout;
	/** @gpu_resets: GPU resets for recovery. */
	atomic64_t gpu_resets;
	/** @mmu_faults: MMU faults reported. */
	atomic64_t mmu_faults;
};

/**
 * struct sleipnir_device - One Midgard GPU.
 */
struct sleipnir_device {
	/** @ddev: the DRM device; embedded, allocated by devm_drm_dev_alloc. */
	struct drm_device ddev;
	/** @dev: the platform device's struct device. */
	struct device *dev;
	/** @iomem: the 64 KiB register window. */
	void __iomem *iomem;
	/** @clock: the GPU core clock (first clock of the node). */
	struct clk *clock;
	/** @bus_clock: optional "bus" clock, NULL when absent. */
	struct clk *bus_clock;
	/** @rstc: optional reset lines, NULL when absent. */
	struct reset_control *rstc;

	/** @irq_job: the "job" interrupt. */
	int irq_job;
	/** @irq_mmu: the "mmu" interrupt. */
	int irq_mmu;
	/** @irq_gpu: the "gpu" interrupt. */
	int irq_gpu;

	/** @model_name: marketing name, e.g. "T860". */
	const char *model_name;
	/**
	 * @features: what the GPU reports (sleipnir_features.h); constant
	 * after probe.
	 */
	struct sleipnir_features features;
	/** @core_mask: shader cores in use (the first core group). */
	u64 core_mask;
	/** @quirks: enum sleipnir_quirk bits that apply to this GPU. */
	u32 quirks;
	/** @coherent: the GPU snoops the CPU caches (dma-coherent). */
	bool coherent;
	/** @js_count: number of job slots in use. */
	unsigned int js_count;
	/** @as_count: number of hardware address spaces. */
	unsigned int as_count;

	/** @slots: the job slots. */
	struct sleipnir_slot slots[SLP_JS_COUNT_MAX];
	/** @js_lock: protects the slots' @job pointers and their registers. */
	spinlock_t js_lock;
	/** @submit_lock: keeps job arming and queueing in one order. */
	struct mutex submit_lock;
	/** @reset_wq: ordered queue for timeouts, so resets never overlap. */
	struct workqueue_struct *reset_wq;
	/** @resetting: a recovery reset is in progress. */
	atomic_t resetting;

	/** @as_lock: protects the address space assignment below. */
	spinlock_t as_lock;
	/** @as_vm: the VM each hardware address space holds, or NULL. */
	struct sleipnir_vm *as_vm[SLP_AS_COUNT_MAX];
	/** @as_lru: VMs holding an address space, least recently used first. */
	struct list_head as_lru;

	/** @clients_lock: protects @clients. */
	struct mutex clients_lock;
	/** @clients: struct sleipnir_file of every open file. */
	struct list_head clients;
	/** @next_client_id: id of the next file opened, for fdinfo. */
	u64 next_client_id;

	/** @faults: the most recent faults of all clients, for debugfs. */
	struct sleipnir_fault_log faults;
	/** @counters: live object and event counts. */
	struct sleipnir_counters counters;
};

static inline struct sleipnir_device *to_sleipnir_device(struct drm_device *ddev)
{
	return container_of(ddev, struct sleipnir_device, ddev);
}

static inline u32 sleipnir_read(struct sleipnir_device *sdev, u32 reg)
{
	return readl(sdev->iomem + reg);
}

static inline void sleipnir_write(struct sleipnir_device *sdev, u32 reg,
				  u32 val)
{
	writel(val, sdev->iomem + reg);
}

/* Reads a 64-bit quantity split over a _LO and a _HI register. */
static inline u64 sleipnir_read64(struct sleipnir_device *sdev, u32 reg_lo)
{
	return sleipnir_read(sdev, reg_lo) |
	       ((u64)sleipnir_read(sdev, reg_lo + 4) << 32);
}

static inline void sleipnir_write64(struct sleipnir_device *sdev, u32 reg_lo,
				    u64 val)
{
	sleipnir_write(sdev, reg_lo, lower_32_bits(val));
	sleipnir_write(sdev, reg_lo + 4, upper_32_bits(val));
}

/* One past the highest GPU virtual address the MMU translates. */
static inline u64 sleipnir_va_end(struct sleipnir_device *sdev)
{
	return sleipnir_features_va_end(&sdev->features);
}

int sleipnir_device_init(struct sleipnir_device *sdev);
void sleipnir_device_fini(struct sleipnir_device *sdev);
int sleipnir_device_reset_hw(struct sleipnir_device *sdev);

extern const struct dev_pm_ops sleipnir_pm_ops;

#endif /* __SLEIPNIR_DEVICE_H__ */
