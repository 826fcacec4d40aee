/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: GPU virtual address spaces (one per open file), their page
 * tables, and the hardware address spaces (AS) they are loaded into.
 */
#ifndef __SLEIPNIR_MMU_H__
#define __SLEIPNIR_MMU_H__

#include <linux/io-pgtable.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>

#include <drm/drm_mm.h>

#include "sleipnir_common.h"
#include "sleipnir_fault.h"
#include "sleipnir_regs.h"

struct drm_device;
struct drm_file;
struct sg_table;
struct sleipnir_device;

/**
 * struct sleipnir_usage - What one client's jobs used, for fdinfo.
 */
struct sleipnir_usage {
	/** @busy_ns: time chains spent on each job slot. */
	atomic64_t busy_ns[SLP_JS_COUNT_MAX];
	/** @jobs_done: chains that ended with DONE. */
	atomic64_t jobs_done;
	/** @jobs_failed: chains that ended any other way. */
	atomic64_t jobs_failed;
};

/**
 * struct sleipnir_vm - A client's GPU virtual address space.
 *
 * Created when a file is opened and referenced by the file and by each of
 * its jobs, so it outlives a file closed while jobs run. Faults and usage
 * are reported back to it, which makes it the client's context too.
 */
struct sleipnir_vm {
	/** @refcount: the file and every job hold one. */
	struct kref refcount;
	/** @sdev: the GPU. */
	struct sleipnir_device *sdev;
	/** @lock: protects @mm, the page tables and the mappings. */
	struct mutex lock;
	/** @mm: allocator of the address range; nodes are mappings. */
	struct drm_mm mm;
	/** @mapping_count: mappings in @mm. */
	unsigned int mapping_count;
	/** @pgtbl_cfg: io-pgtable configuration (ARM_MALI_LPAE). */
	struct io_pgtable_cfg pgtbl_cfg;
	/** @pgtbl_ops: the page tables. */
	struct io_pgtable_ops *pgtbl_ops;
	/** @va_end: one past the highest usable address. */
	u64 va_end;

	/** @as: hardware AS holding this VM, or -1; under sdev->as_lock. */
	int as;
	/** @as_users: chains on the GPU using @as; under sdev->as_lock. */
	int as_users;
	/** @as_lru_node: place in sdev->as_lru while @as >= 0. */
	struct list_head as_lru_node;

	/** @faults: faults of this client's jobs. */
	struct sleipnir_fault_state faults;
	/** @usage: what this client's jobs used. */
	struct sleipnir_usage usage;
	/** @pid: process that opened the file. */
	pid_t pid;
	/** @comm: its command name. */
	char comm[TASK_COMM_LEN];
	/**
	 * @closed: its file was closed: its chains on the GPU are stopped and
	 * the queued ones cancelled (READ_ONCE/WRITE_ONCE).
	 */
	bool closed;
};

struct sleipnir_vm *sleipnir_vm_create(struct sleipnir_device *sdev);
void sleipnir_vm_put(struct sleipnir_vm *vm);

static inline struct sleipnir_vm *sleipnir_vm_get(struct sleipnir_vm *vm)
{
	kref_get(&vm->refcount);
	return vm;
}

int sleipnir_vm_map_pages(struct sleipnir_vm *vm, u64 iova,
			  struct sg_table *sgt, u64 offset, u64 size, int prot);
int sleipnir_mmu_as_get(struct sleipnir_device *sdev, struct sleipnir_vm *vm);
void sleipnir_mmu_as_put(struct sleipnir_device *sdev, struct sleipnir_vm *vm);
void sleipnir_mmu_forget_all(struct sleipnir_device *sdev);
int sleipnir_mmu_init(struct sleipnir_device *sdev);
void sleipnir_mmu_irq_enable(struct sleipnir_device *sdev);
void sleipnir_mmu_irq_disable(struct sleipnir_device *sdev);

int sleipnir_ioctl_vm_map(struct drm_device *ddev, void *data,
			  struct drm_file *file);
int sleipnir_ioctl_vm_unmap(struct drm_device *ddev, void *data,
			    struct drm_file *file);

#endif /* __SLEIPNIR_MMU_H__ */
