// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: GPU virtual address spaces and the MMU.
 *
 * Every open file has a VM: page tables in io-pgtable's ARM_MALI_LPAE format
 * and a drm_mm of the mappings userspace made with VM_MAP. A VM is loaded
 * into one of the GPU's hardware address spaces (AS) when a chain of its
 * needs the GPU, and stays there until another VM needs the slot, so a
 * busy client does not pay for reloading. Only VMs with no chain on the GPU
 * are evicted; with at most one chain per job slot there is always one.
 *
 * Page-table changes are made visible with the LOCK + FLUSH_PT sequence
 * over the changed range while the VM holds an AS. A VM without an AS has
 * nothing cached in the GPU: loading it (UPDATE) starts from a clean TLB.
 *
 * MMU faults are reported to the client the faulting AS belongs to. The AS
 * is then taken from it, which on hardware makes a stalled chain fail; the
 * client gets a fresh AS with its next chain.
 */
#include <linux/bitfield.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/platform_device.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/sleipnir_drm.h>

#include "sleipnir_device.h"
#include "sleipnir_drv.h"
#include "sleipnir_gem.h"
#include "sleipnir_mmu.h"
#include "sleipnir_rules.h"

#define SLP_AS_POLL_US		10
#define SLP_AS_TIMEOUT_US	100000

/**
 * struct sleipnir_mapping - One VM_MAP: a BO range at a GPU address.
 */
struct sleipnir_mapping {
	/** @node: the VA range, in the VM's drm_mm. */
	struct drm_mm_node node;
	/** @obj: the BO; the mapping holds a reference. */
	struct drm_gem_object *obj;
	/** @bo_offset: first byte of the BO mapped. */
	u64 bo_offset;
};

/* ---- hardware address space commands; callers hold sdev->as_lock ---- */

static int sleipnir_as_wait_ready(struct sleipnir_device *sdev, int as)
{
	u32 val;
	int ret;

	ret = readl_relaxed_poll_timeout_atomic(sdev->iomem + SLP_AS_STATUS(as),
						val,
						!(val & SLP_AS_STATUS_ACTIVE),
						SLP_AS_POLL_US,
						SLP_AS_TIMEOUT_US);
	if (ret)
		dev_err(sdev->dev, "AS%d: command timed out (status 0x%08x)\n",
			as, val);
	return ret;
}

static int sleipnir_as_command(struct sleipnir_device *sdev, int as, u32 cmd)
{
	int ret = sleipnir_as_wait_ready(sdev, as);

	if (ret)
		return ret;
	sleipnir_write(sdev, SLP_AS_COMMAND(as), cmd);
	return 0;
}

/* LOCK takes a naturally aligned region (sleipnir_as_lockaddr()). */
static int sleipnir_as_lock_region(struct sleipnir_device *sdev, int as,
				   u64 iova, u64 size)
{
	sleipnir_write64(sdev, SLP_AS_LOCKADDR_LO(as),
			 sleipnir_as_lockaddr(iova, size));

	return sleipnir_as_command(sdev, as, SLP_AS_CMD_LOCK);
}

/* Locks the range, then runs @cmd (FLUSH_PT or FLUSH_MEM), which unlocks. */
static int sleipnir_as_flush(struct sleipnir_device *sdev, int as, u64 iova,
			     u64 size, u32 cmd)
{
	int ret;

	ret = sleipnir_as_lock_region(sdev, as, iova, size);
	if (ret)
		return ret;
	ret = sleipnir_as_command(sdev, as, cmd);
	if (ret)
		return ret;
	return sleipnir_as_wait_ready(sdev, as);
}

static void sleipnir_as_enable(struct sleipnir_device *sdev, int as,
			       struct sleipnir_vm *vm)
{
	struct io_pgtable_cfg *cfg = &vm->pgtbl_cfg;

	/* Whatever the previous owner left in the caches goes first. */
	sleipnir_as_flush(sdev, as, 0, vm->va_end, SLP_AS_CMD_FLUSH_MEM);

	sleipnir_write64(sdev, SLP_AS_TRANSTAB_LO(as),
			 cfg->arm_mali_lpae_cfg.transtab);
	sleipnir_write64(sdev, SLP_AS_MEMATTR_LO(as),
			 cfg->arm_mali_lpae_cfg.memattr);
	sleipnir_as_command(sdev, as, SLP_AS_CMD_UPDATE);
	sleipnir_as_wait_ready(sdev, as);
}

static void sleipnir_as_disable(struct sleipnir_device *sdev, int as,
				u64 va_end)
{
	sleipnir_as_flush(sdev, as, 0, va_end, SLP_AS_CMD_FLUSH_MEM);

	/* Translation table 0, address mode 0: every access faults. */
	sleipnir_write64(sdev, SLP_AS_TRANSTAB_LO(as), 0);
	sleipnir_write64(sdev, SLP_AS_MEMATTR_LO(as), 0);
	sleipnir_as_command(sdev, as, SLP_AS_CMD_UPDATE);
	sleipnir_as_wait_ready(sdev, as);
}

/* Takes @vm's AS away from it (it keeps its page tables). */
static void sleipnir_as_unassign(struct sleipnir_device *sdev,
				 struct sleipnir_vm *vm)
{
	lockdep_assert_held(&sdev->as_lock);

	sdev->as_vm[vm->as] = NULL;
	vm->as = -1;
	list_del_init(&vm->as_lru_node);
	atomic_dec(&sdev->counters.as_bound);
}

/* ---- address space assignment ---- */

/**
 * sleipnir_mmu_as_get() - Loads @vm into a hardware AS for a chain.
 * @sdev: the GPU, powered.
 * @vm: the VM.
 *
 * Return: the AS number, or -EBUSY when every AS has a chain on the GPU
 * (cannot happen with one chain per slot and more AS than slots).
 */
int sleipnir_mmu_as_get(struct sleipnir_device *sdev, struct sleipnir_vm *vm)
{
	struct sleipnir_vm *victim;
	int as = -EBUSY;
	unsigned int i;

	spin_lock(&sdev->as_lock);
	if (vm->as >= 0) {
		vm->as_users++;
		list_move_tail(&vm->as_lru_node, &sdev->as_lru);
		as = vm->as;
		goto out;
	}

	for (i = 0; i < sdev->as_count; i++) {
		if (!sdev->as_vm[i]) {
			as = i;
			break;
		}
	}
	if (as < 0) {
		list_for_each_entry(victim, &sdev->as_lru, as_lru_node) {
			if (!victim->as_users) {
				as = victim->as;
				sleipnir_as_unassign(sdev, victim);
				break;
			}
		}
	}
	if (as < 0)
		goto out;

	vm->as = as;
	vm->as_users++;
	sdev->as_vm[as] = vm;
	list_add_tail(&vm->as_lru_node, &sdev->as_lru);
	atomic_inc(&sdev->counters.as_bound);
	sleipnir_as_enable(sdev, as, vm);
out:
	spin_unlock(&sdev->as_lock);
	return as;
}

/* The chain that called sleipnir_mmu_as_get() has left the GPU. */
void sleipnir_mmu_as_put(struct sleipnir_device *sdev, struct sleipnir_vm *vm)
{
	spin_lock(&sdev->as_lock);
	if (!WARN_ON(vm->as_users <= 0))
		vm->as_users--;
	spin_unlock(&sdev->as_lock);
}

/*
 * After a GPU reset or power-off the address spaces hold nothing: forget
 * every assignment so the next chain loads its VM again.
 */
void sleipnir_mmu_forget_all(struct sleipnir_device *sdev)
{
	unsigned int i;

	spin_lock(&sdev->as_lock);
	for (i = 0; i < sdev->as_count; i++) {
		struct sleipnir_vm *vm = sdev->as_vm[i];

		if (vm)
			sleipnir_as_unassign(sdev, vm);
	}
	spin_unlock(&sdev->as_lock);
}

/* Makes a page-table change in [iova, iova + size) visible to the GPU. */
static void sleipnir_vm_flush_range(struct sleipnir_vm *vm, u64 iova, u64 size)
{
	struct sleipnir_device *sdev = vm->sdev;

	spin_lock(&sdev->as_lock);
	if (vm->as >= 0)
		sleipnir_as_flush(sdev, vm->as, iova, size,
				  SLP_AS_CMD_FLUSH_PT);
	spin_unlock(&sdev->as_lock);
}

/* ---- VM lifetime ---- */

/* The GPU's MMU does its own TLB maintenance through the AS commands. */
static void sleipnir_tlb_flush_all(void *cookie)
{
}

static void sleipnir_tlb_flush_walk(unsigned long iova, size_t size,
				    size_t granule, void *cookie)
{
}

static const struct iommu_flush_ops sleipnir_tlb_ops = {
	.tlb_flush_all	= sleipnir_tlb_flush_all,
	.tlb_flush_walk	= sleipnir_tlb_flush_walk,
};

struct sleipnir_vm *sleipnir_vm_create(struct sleipnir_device *sdev)
{
	u32 mmu_features = sdev->features.mmu_features;
	struct sleipnir_vm *vm;

	vm = kzalloc(sizeof(*vm), GFP_KERNEL);
	if (!vm)
		return ERR_PTR(-ENOMEM);

	kref_init(&vm->refcount);
	vm->sdev = sdev;
	mutex_init(&vm->lock);
	vm->as = -1;
	INIT_LIST_HEAD(&vm->as_lru_node);
	sleipnir_fault_state_init(&vm->faults);
	vm->pid = task_tgid_nr(current);
	get_task_comm(vm->comm, current);

	vm->pgtbl_cfg = (struct io_pgtable_cfg) {
		.pgsize_bitmap	= SZ_4K | SZ_2M,
		.ias		= FIELD_GET(SLP_MMU_FEATURES_VA_BITS,
					    mmu_features),
		.oas		= FIELD_GET(SLP_MMU_FEATURES_PA_BITS,
					    mmu_features),
		.coherent_walk	= sdev->coherent,
		.tlb		= &sleipnir_tlb_ops,
		.iommu_dev	= sdev->dev,
	};
	vm->va_end = BIT_ULL(vm->pgtbl_cfg.ias);

	vm->pgtbl_ops = alloc_io_pgtable_ops(ARM_MALI_LPAE, &vm->pgtbl_cfg, vm);
	if (!vm->pgtbl_ops) {
		mutex_destroy(&vm->lock);
		kfree(vm);
		return ERR_PTR(-EINVAL);
	}

	drm_mm_init(&vm->mm, SLEIPNIR_VA_START,
		    vm->va_end - SLEIPNIR_VA_START);
	atomic_inc(&sdev->counters.vms);

	return vm;
}

static void sleipnir_vm_release(struct kref *kref)
{
	struct sleipnir_vm *vm = container_of(kref, struct sleipnir_vm,
					      refcount);
	struct sleipnir_device *sdev = vm->sdev;
	struct drm_mm_node *node, *next;

	/* No chain of this VM is on the GPU: each holds a reference. */
	spin_lock(&sdev->as_lock);
	if (vm->as >= 0) {
		sleipnir_as_disable(sdev, vm->as, vm->va_end);
		sleipnir_as_unassign(sdev, vm);
	}
	spin_unlock(&sdev->as_lock);

	free_io_pgtable_ops(vm->pgtbl_ops);

	drm_mm_for_each_node_safe(node, next, &vm->mm) {
		struct sleipnir_mapping *m =
			container_of(node, struct sleipnir_mapping, node);

		drm_mm_remove_node(node);
		drm_gem_object_put(m->obj);
		kfree(m);
		atomic_dec(&sdev->counters.vm_mappings);
	}
	drm_mm_takedown(&vm->mm);
	mutex_destroy(&vm->lock);
	atomic_dec(&sdev->counters.vms);
	kfree(vm);
}

void sleipnir_vm_put(struct sleipnir_vm *vm)
{
	if (vm)
		kref_put(&vm->refcount, sleipnir_vm_release);
}

/* ---- page tables ---- */

/* Unmaps [iova, iova + size), using 2 MiB steps where aligned. */
static void sleipnir_vm_unmap_pages(struct sleipnir_vm *vm, u64 iova, u64 size)
{
	struct io_pgtable_ops *ops = vm->pgtbl_ops;
	u64 end = iova + size;

	while (iova < end) {
		size_t pgsize = SZ_4K, count, unmapped;

		if (IS_ALIGNED(iova, SZ_2M) && end - iova >= SZ_2M) {
			pgsize = SZ_2M;
			count = (end - iova) / SZ_2M;
		} else {
			u64 next = min_t(u64, ALIGN(iova + 1, SZ_2M), end);

			count = (next - iova) / SZ_4K;
		}
		unmapped = ops->unmap_pages(ops, iova, pgsize, count, NULL);
		/* A hole (never mapped after a failed map): skip one page. */
		iova += unmapped ?: pgsize;
	}
}

/* Maps @size bytes of @sgt, from byte @offset, at @iova; under vm->lock. */
int sleipnir_vm_map_pages(struct sleipnir_vm *vm, u64 iova,
			  struct sg_table *sgt, u64 offset, u64 size, int prot)
{
	struct io_pgtable_ops *ops = vm->pgtbl_ops;
	u64 start = iova, left = size;
	struct scatterlist *sg;
	unsigned int i;
	int ret;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		dma_addr_t pa = sg_dma_address(sg);
		u64 len = sg_dma_len(sg);

		if (offset >= len) {
			offset -= len;
			continue;
		}
		pa += offset;
		len = min(len - offset, left);
		offset = 0;

		while (len) {
			size_t pgsize = SZ_4K, count, mapped = 0;

			if (IS_ALIGNED(iova | pa, SZ_2M) && len >= SZ_2M) {
				pgsize = SZ_2M;
				count = len / SZ_2M;
			} else {
				count = len / SZ_4K;
				if (!IS_ALIGNED(iova, SZ_2M))
					count = min_t(u64, count,
						      (ALIGN(iova, SZ_2M) -
						       iova) / SZ_4K);
			}
			ret = ops->map_pages(ops, iova, pa, pgsize, count, prot,
					     GFP_KERNEL, &mapped);
			iova += mapped;
			pa += mapped;
			len -= mapped;
			left -= mapped;
			if (ret || !mapped) {
				sleipnir_vm_unmap_pages(vm, start, iova - start);
				return ret ?: -ENOMEM;
			}
		}
		if (!left)
			break;
	}

	if (left) {
		/* The BO has fewer pages than its size says: refuse. */
		sleipnir_vm_unmap_pages(vm, start, iova - start);
		return -EINVAL;
	}
	return 0;
}

/* ---- ioctls ---- */

static int sleipnir_vm_map_prot(struct sleipnir_device *sdev, u32 bo_flags,
				u32 map_flags)
{
	int prot = IOMMU_READ;

	if (sleipnir_vm_map_writable(bo_flags, map_flags))
		prot |= IOMMU_WRITE;
	if (!sleipnir_vm_map_executable(bo_flags, map_flags))
		prot |= IOMMU_NOEXEC;
	if (sdev->coherent)
		prot |= IOMMU_CACHE;
	return prot;
}

int sleipnir_ioctl_vm_map(struct drm_device *ddev, void *data,
			  struct drm_file *file)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	struct sleipnir_file *sfile = file->driver_priv;
	struct sleipnir_vm *vm = sfile->vm;
	struct drm_sleipnir_vm_map *args = data;
	bool auto_va = args->flags & SLEIPNIR_VM_MAP_AUTO_VA;
	struct sleipnir_mapping *m;
	struct drm_gem_object *obj;
	struct sg_table *sgt;
	int ret;

	ret = sleipnir_check_vm_map(args, vm->va_end);
	if (ret)
		return ret;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = -EINVAL;
	if (!sleipnir_range_inside(args->bo_offset, args->size, obj->size))
		goto err_put;

	sgt = sleipnir_bo_get_sgt(to_sleipnir_bo(obj));
	if (IS_ERR(sgt)) {
		ret = PTR_ERR(sgt);
		goto err_put;
	}

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		ret = -ENOMEM;
		goto err_put;
	}
	m->obj = obj;
	m->bo_offset = args->bo_offset;

	mutex_lock(&vm->lock);
	if (auto_va) {
		ret = drm_mm_insert_node_in_range(&vm->mm, &m->node, args->size,
						  sleipnir_vm_map_align(args->size),
						  0,
						  SLEIPNIR_VA_START, vm->va_end,
						  DRM_MM_INSERT_LOW);
	} else {
		m->node.start = args->va;
		m->node.size = args->size;
		ret = drm_mm_reserve_node(&vm->mm, &m->node);
		/* Overlap with an existing mapping. */
		if (ret == -ENOSPC)
			ret = -EINVAL;
	}
	if (ret)
		goto err_unlock;

	ret = sleipnir_vm_map_pages(vm, m->node.start, sgt, args->bo_offset,
				    args->size,
				    sleipnir_vm_map_prot(sdev,
							 to_sleipnir_bo(obj)->flags,
							 args->flags));
	if (ret) {
		drm_mm_remove_node(&m->node);
		goto err_unlock;
	}
	sleipnir_vm_flush_range(vm, m->node.start, args->size);
	vm->mapping_count++;
	atomic_inc(&sdev->counters.vm_mappings);
	args->va = m->node.start;
	mutex_unlock(&vm->lock);

	return 0;

err_unlock:
	mutex_unlock(&vm->lock);
	kfree(m);
err_put:
	drm_gem_object_put(obj);
	return ret;
}

int sleipnir_ioctl_vm_unmap(struct drm_device *ddev, void *data,
			    struct drm_file *file)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	struct sleipnir_file *sfile = file->driver_priv;
	struct sleipnir_vm *vm = sfile->vm;
	struct drm_sleipnir_vm_unmap *args = data;
	struct sleipnir_mapping *m = NULL;
	struct drm_mm_node *node;

	int ret;

	ret = sleipnir_check_vm_unmap(args);
	if (ret)
		return ret;

	mutex_lock(&vm->lock);
	drm_mm_for_each_node_in_range(node, &vm->mm, args->va,
				      args->va + args->size) {
		if (node->start == args->va && node->size == args->size)
			m = container_of(node, struct sleipnir_mapping, node);
		break;
	}
	if (!m) {
		mutex_unlock(&vm->lock);
		return -EINVAL;
	}

	sleipnir_vm_unmap_pages(vm, args->va, args->size);
	sleipnir_vm_flush_range(vm, args->va, args->size);
	drm_mm_remove_node(&m->node);
	vm->mapping_count--;
	mutex_unlock(&vm->lock);

	/* Only now can the pages go: the GPU no longer reaches them. */
	drm_gem_object_put(m->obj);
	kfree(m);
	atomic_dec(&sdev->counters.vm_mappings);

	return 0;
}

/* ---- MMU interrupt ---- */

static u32 sleipnir_mmu_irq_mask(struct sleipnir_device *sdev)
{
	return sleipnir_unit_irq_mask(sdev->as_count);
}

void sleipnir_mmu_irq_enable(struct sleipnir_device *sdev)
{
	sleipnir_write(sdev, SLP_MMU_INT_CLEAR, U32_MAX);
	sleipnir_write(sdev, SLP_MMU_INT_MASK, sleipnir_mmu_irq_mask(sdev));
}

void sleipnir_mmu_irq_disable(struct sleipnir_device *sdev)
{
	sleipnir_write(sdev, SLP_MMU_INT_MASK, 0);
	sleipnir_write(sdev, SLP_MMU_INT_CLEAR, U32_MAX);
}

static irqreturn_t sleipnir_mmu_irq(int irq, void *data)
{
	struct sleipnir_device *sdev = data;

	if (!sleipnir_read(sdev, SLP_MMU_INT_STAT))
		return IRQ_NONE;

	sleipnir_write(sdev, SLP_MMU_INT_MASK, 0);
	return IRQ_WAKE_THREAD;
}

static void sleipnir_mmu_handle_fault(struct sleipnir_device *sdev, int as)
{
	u32 status = sleipnir_read(sdev, SLP_AS_FAULTSTATUS(as));
	u64 addr = sleipnir_read64(sdev, SLP_AS_FAULTADDRESS_LO(as));
	struct sleipnir_fault fault = {
		.info = {
			.kind = SLEIPNIR_FAULT_MMU,
			.exception_code = sleipnir_as_fault_code(status),
			.access = sleipnir_as_fault_access(status),
			.address = addr,
			.has_address = true,
		},
		.time = ktime_get(),
	};
	struct sleipnir_vm *vm;

	spin_lock(&sdev->as_lock);
	vm = sdev->as_vm[as];
	if (vm && !kref_get_unless_zero(&vm->refcount))
		vm = NULL;
	/*
	 * Take the AS away: a chain stalled on the fault then fails, and the
	 * client's next chain gets a freshly loaded AS.
	 */
	if (vm)
		sleipnir_as_unassign(sdev, vm);
	sleipnir_as_disable(sdev, as, sleipnir_va_end(sdev));
	spin_unlock(&sdev->as_lock);

	sleipnir_write(sdev, SLP_MMU_INT_CLEAR,
		       SLP_MMU_IRQ_PAGE_FAULT(as) | SLP_MMU_IRQ_BUS_ERROR(as));
	atomic64_inc(&sdev->counters.mmu_faults);

	if (!vm) {
		dev_err_ratelimited(sdev->dev,
				    "MMU fault in unused AS%d at 0x%016llx (status 0x%08x)\n",
				    as, addr, status);
		return;
	}

	fault.pid = vm->pid;
	memcpy(fault.comm, vm->comm, sizeof(fault.comm));
	dev_err_ratelimited(sdev->dev,
			    "MMU fault in AS%d, client %d (%s): %s at 0x%016llx, status 0x%08x (code 0x%02x)\n",
			    as, vm->pid, vm->comm,
			    sleipnir_fault_access_name(fault.info.access), addr,
			    status, fault.info.exception_code);
	sleipnir_fault_record(&vm->faults, &sdev->faults, &fault);
	sleipnir_vm_put(vm);
}

static irqreturn_t sleipnir_mmu_irq_thread(int irq, void *data)
{
	struct sleipnir_device *sdev = data;
	u32 mask = sleipnir_mmu_irq_mask(sdev);
	unsigned long faulty;
	u32 status;
	int as;

	while ((status = sleipnir_read(sdev, SLP_MMU_INT_RAWSTAT) & mask)) {
		faulty = sleipnir_irq_units(status, sdev->as_count);
		for_each_set_bit(as, &faulty, sdev->as_count)
			sleipnir_mmu_handle_fault(sdev, as);
	}

	sleipnir_write(sdev, SLP_MMU_INT_MASK, mask);
	return IRQ_HANDLED;
}

int sleipnir_mmu_init(struct sleipnir_device *sdev)
{
	struct platform_device *pdev = to_platform_device(sdev->dev);
	int ret;

	spin_lock_init(&sdev->as_lock);
	INIT_LIST_HEAD(&sdev->as_lru);

	sdev->irq_mmu = platform_get_irq_byname(pdev, "mmu");
	if (sdev->irq_mmu < 0)
		return sdev->irq_mmu;

	ret = devm_request_threaded_irq(sdev->dev, sdev->irq_mmu,
					sleipnir_mmu_irq,
					sleipnir_mmu_irq_thread, IRQF_SHARED,
					KBUILD_MODNAME "-mmu", sdev);
	if (ret)
		return dev_err_probe(sdev->dev, ret,
				     "failed to request the mmu interrupt\n");
	return 0;
}
