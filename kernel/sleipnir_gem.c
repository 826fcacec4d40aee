// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: buffer objects and their ioctls.
 *
 * The GPU has no memory of its own, so a BO is ordinary system memory seen
 * by both processors. Native BOs are shmem-backed GEM objects whose pages
 * are pinned and DMA-mapped the first time the GPU maps them
 * (drm_gem_shmem_get_pages_sgt) and stay so until the BO is freed; CPU
 * mappings are write-combined unless the BO asked to be cached. Userptr BOs
 * pin the pages of a range of the caller's memory instead.
 */
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/drm_utils.h>
#include <drm/drm_vma_manager.h>
#include <drm/sleipnir_drm.h>

#include "sleipnir_device.h"
#include "sleipnir_gem.h"
#include "sleipnir_rules.h"

/* ---- native and imported BOs: shmem objects ---- */

static void sleipnir_gem_free(struct drm_gem_object *obj)
{
	struct sleipnir_device *sdev = to_sleipnir_device(obj->dev);
	struct sleipnir_bo *bo = to_sleipnir_bo(obj);

	mutex_destroy(&bo->sgt_lock);
	drm_gem_shmem_free(&bo->base);
	atomic_dec(&sdev->counters.bos);
}

static int sleipnir_gem_mmap(struct drm_gem_object *obj,
			     struct vm_area_struct *vma)
{
	if (to_sleipnir_bo(obj)->flags & SLEIPNIR_BO_NO_CPU_MAP)
		return -EPERM;
	return drm_gem_shmem_object_mmap(obj, vma);
}

static const struct drm_gem_object_funcs sleipnir_gem_funcs = {
	.free		= sleipnir_gem_free,
	.print_info	= drm_gem_shmem_object_print_info,
	.pin		= drm_gem_shmem_object_pin,
	.unpin		= drm_gem_shmem_object_unpin,
	.get_sg_table	= drm_gem_shmem_object_get_sg_table,
	.vmap		= drm_gem_shmem_object_vmap,
	.vunmap		= drm_gem_shmem_object_vunmap,
	.mmap		= sleipnir_gem_mmap,
	.vm_ops		= &drm_gem_shmem_vm_ops,
};

/* drm_driver.gem_create_object: the shmem helpers allocate through this. */
struct drm_gem_object *sleipnir_gem_create_object(struct drm_device *ddev,
						  size_t size)
{
	struct sleipnir_bo *bo;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return ERR_PTR(-ENOMEM);

	mutex_init(&bo->sgt_lock);
	bo->base.base.funcs = &sleipnir_gem_funcs;
	return &bo->base.base;
}

struct drm_gem_object *
sleipnir_gem_prime_import_sg_table(struct drm_device *ddev,
				   struct dma_buf_attachment *attach,
				   struct sg_table *sgt)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	struct drm_gem_object *obj;

	obj = drm_gem_shmem_prime_import_sg_table(ddev, attach, sgt);
	if (IS_ERR(obj))
		return obj;

	to_sleipnir_bo(obj)->flags = SLEIPNIR_BO_IMPORTED;
	atomic_inc(&sdev->counters.bos);
	return obj;
}

/**
 * sleipnir_bo_get_sgt() - The BO's pages as the GPU sees them.
 * @bo: the BO.
 *
 * Allocates, pins and DMA-maps the pages of a native BO on first use.
 *
 * Return: the table (owned by the BO) or an ERR_PTR.
 */
struct sg_table *sleipnir_bo_get_sgt(struct sleipnir_bo *bo)
{
	struct sg_table *sgt;

	if (bo->flags & SLEIPNIR_BO_USERPTR)
		return bo->userptr.sgt;

	mutex_lock(&bo->sgt_lock);
	sgt = drm_gem_shmem_get_pages_sgt(&bo->base);
	mutex_unlock(&bo->sgt_lock);
	return sgt;
}

/* ---- userptr BOs ---- */

static void sleipnir_userptr_free(struct drm_gem_object *obj)
{
	struct sleipnir_device *sdev = to_sleipnir_device(obj->dev);
	struct sleipnir_bo *bo = to_sleipnir_bo(obj);
	bool dirty = !(bo->flags & SLEIPNIR_BO_GPU_READ_ONLY);

	dma_unmap_sgtable(obj->dev->dev, bo->userptr.sgt, DMA_BIDIRECTIONAL, 0);
	sg_free_table(bo->userptr.sgt);
	kfree(bo->userptr.sgt);
	unpin_user_pages_dirty_lock(bo->userptr.pages, bo->userptr.npages,
				    dirty);
	kvfree(bo->userptr.pages);
	account_locked_vm(bo->userptr.mm, bo->userptr.npages, false);
	mmdrop(bo->userptr.mm);

	drm_gem_object_release(obj);
	mutex_destroy(&bo->sgt_lock);
	kfree(bo);
	atomic_dec(&sdev->counters.bos);
}

/* User memory is the process's own: it is neither exported nor mapped. */
static struct dma_buf *sleipnir_userptr_export(struct drm_gem_object *obj,
					       int flags)
{
	return ERR_PTR(-EPERM);
}

static const struct drm_gem_object_funcs sleipnir_userptr_funcs = {
	.free	= sleipnir_userptr_free,
	.export	= sleipnir_userptr_export,
};

static int sleipnir_userptr_pin(struct sleipnir_bo *bo, u64 start,
				unsigned int gup_flags)
{
	unsigned long pinned = 0, npages = bo->userptr.npages;
	int ret;

	while (pinned < npages) {
		ret = pin_user_pages_fast(start + pinned * PAGE_SIZE,
					  npages - pinned, gup_flags,
					  bo->userptr.pages + pinned);
		if (ret <= 0) {
			unpin_user_pages(bo->userptr.pages, pinned);
			return ret ?: -EFAULT;
		}
		pinned += ret;
	}
	return 0;
}

int sleipnir_ioctl_bo_userptr(struct drm_device *ddev, void *data,
			      struct drm_file *file)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	struct drm_sleipnir_bo_userptr *args = data;
	unsigned int gup_flags = FOLL_LONGTERM;
	struct drm_gem_object *obj;
	struct sleipnir_bo *bo;
	struct sg_table *sgt;
	int ret;

	ret = sleipnir_check_bo_userptr(args, PAGE_SIZE, sleipnir_va_end(sdev));
	if (ret)
		return ret;
	if (!access_ok(u64_to_user_ptr(args->user_ptr), args->size))
		return -EFAULT;
	/* More than the machine has can never be pinned. */
	if (args->size >> PAGE_SHIFT > totalram_pages())
		return -ENOMEM;
	if (!(args->flags & SLEIPNIR_BO_GPU_READ_ONLY))
		gup_flags |= FOLL_WRITE;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return -ENOMEM;
	mutex_init(&bo->sgt_lock);
	bo->flags = args->flags | SLEIPNIR_BO_USERPTR | SLEIPNIR_BO_NO_CPU_MAP |
		    SLEIPNIR_BO_CPU_CACHED;
	bo->userptr.npages = args->size >> PAGE_SHIFT;
	bo->userptr.pages = kvmalloc_array(bo->userptr.npages,
					   sizeof(*bo->userptr.pages),
					   GFP_KERNEL);
	ret = -ENOMEM;
	if (!bo->userptr.pages)
		goto err_free_bo;

	bo->userptr.mm = current->mm;
	mmgrab(bo->userptr.mm);
	ret = account_locked_vm(bo->userptr.mm, bo->userptr.npages, true);
	if (ret)
		goto err_mmdrop;

	ret = sleipnir_userptr_pin(bo, args->user_ptr, gup_flags);
	if (ret)
		goto err_unaccount;

	sgt = kzalloc(sizeof(*sgt), GFP_KERNEL);
	ret = -ENOMEM;
	if (!sgt)
		goto err_unpin;
	ret = sg_alloc_table_from_pages(sgt, bo->userptr.pages,
					bo->userptr.npages, 0, args->size,
					GFP_KERNEL);
	if (ret)
		goto err_free_sgt;
	ret = dma_map_sgtable(ddev->dev, sgt, DMA_BIDIRECTIONAL, 0);
	if (ret)
		goto err_free_table;
	bo->userptr.sgt = sgt;

	obj = &bo->base.base;
	obj->funcs = &sleipnir_userptr_funcs;
	drm_gem_private_object_init(ddev, obj, args->size);
	atomic_inc(&sdev->counters.bos);

	/* From here on the object's free function undoes all of the above. */
	ret = drm_gem_handle_create(file, obj, &args->handle);
	drm_gem_object_put(obj);
	return ret;

err_free_table:
	sg_free_table(sgt);
err_free_sgt:
	kfree(sgt);
err_unpin:
	unpin_user_pages(bo->userptr.pages, bo->userptr.npages);
err_unaccount:
	account_locked_vm(bo->userptr.mm, bo->userptr.npages, false);
err_mmdrop:
	mmdrop(bo->userptr.mm);
	kvfree(bo->userptr.pages);
err_free_bo:
	mutex_destroy(&bo->sgt_lock);
	kfree(bo);
	return ret;
}

/* ---- ioctls on any BO ---- */

int sleipnir_ioctl_bo_create(struct drm_device *ddev, void *data,
			     struct drm_file *file)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	struct drm_sleipnir_bo_create *args = data;
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;
	struct drm_gem_shmem_object *shmem;
	struct sleipnir_bo *bo;
	int ret;

	ret = sleipnir_check_bo_create(args, ram, sleipnir_va_end(sdev));
	if (ret)
		return ret;

	shmem = drm_gem_shmem_create(ddev, args->size);
	if (IS_ERR(shmem))
		return PTR_ERR(shmem);

	bo = to_sleipnir_bo(&shmem->base);
	bo->flags = args->flags;
	shmem->map_wc = !(args->flags & SLEIPNIR_BO_CPU_CACHED);
	atomic_inc(&sdev->counters.bos);

	ret = drm_gem_handle_create(file, &shmem->base, &args->handle);
	/* The handle holds the object now, or it is freed here on error. */
	drm_gem_object_put(&shmem->base);
	if (ret)
		return ret;

	args->size = shmem->base.size;
	return 0;
}

int sleipnir_ioctl_bo_mmap_offset(struct drm_device *ddev, void *data,
				  struct drm_file *file)
{
	struct drm_sleipnir_bo_mmap_offset *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (args->pad)
		return -EINVAL;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = -EPERM;
	if (to_sleipnir_bo(obj)->flags &
	    (SLEIPNIR_BO_NO_CPU_MAP | SLEIPNIR_BO_USERPTR))
		goto out;

	ret = drm_gem_create_mmap_offset(obj);
	if (ret)
		goto out;
	args->offset = drm_vma_node_offset_addr(&obj->vma_node);
out:
	drm_gem_object_put(obj);
	return ret;
}

int sleipnir_ioctl_bo_info(struct drm_device *ddev, void *data,
			   struct drm_file *file)
{
	struct drm_sleipnir_bo_info *args = data;
	struct drm_gem_object *obj;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	args->flags = to_sleipnir_bo(obj)->flags;
	args->size = obj->size;
	drm_gem_object_put(obj);
	return 0;
}

int sleipnir_ioctl_bo_wait(struct drm_device *ddev, void *data,
			   struct drm_file *file)
{
	struct drm_sleipnir_bo_wait *args = data;
	struct drm_gem_object *obj;
	long timeout, ret;

	ret = sleipnir_check_bo_wait(args);
	if (ret)
		return ret;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	timeout = drm_timeout_abs_to_jiffies(args->timeout_ns);
	if (!timeout) {
		/* A wait of zero cannot tell "idle" from "timed out". */
		ret = dma_resv_test_signaled(obj->resv, DMA_RESV_USAGE_READ) ?
		      0 : -ETIMEDOUT;
	} else {
		ret = dma_resv_wait_timeout(obj->resv, DMA_RESV_USAGE_READ,
					    true, timeout);
		if (!ret)
			ret = -ETIMEDOUT;
		else if (ret > 0)
			ret = 0;
	}

	drm_gem_object_put(obj);
	return ret;
}

/* Syncs [offset, offset + size) of @sgt for the CPU or for the device. */
static void sleipnir_sync_range(struct device *dev, struct sg_table *sgt,
				u64 offset, u64 size, bool for_cpu)
{
	struct scatterlist *sg;
	u64 pos = 0, end = offset + size;
	unsigned int i;

	for_each_sgtable_dma_sg(sgt, sg, i) {
		u64 len = sg_dma_len(sg);
		u64 from = max(pos, offset), to = min(pos + len, end);

		if (from < to) {
			if (for_cpu)
				dma_sync_single_range_for_cpu(dev,
							      sg_dma_address(sg),
							      from - pos,
							      to - from,
							      DMA_BIDIRECTIONAL);
			else
				dma_sync_single_range_for_device(dev,
								 sg_dma_address(sg),
								 from - pos,
								 to - from,
								 DMA_BIDIRECTIONAL);
		}
		pos += len;
		if (pos >= end)
			break;
	}
}

int sleipnir_ioctl_bo_sync(struct drm_device *ddev, void *data,
			   struct drm_file *file)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	struct drm_sleipnir_bo_sync *args = data;
	bool for_cpu = args->op == SLEIPNIR_BO_SYNC_CPU_PREPARE;
	struct drm_gem_object *obj;
	struct sleipnir_bo *bo;
	struct sg_table *sgt;
	int ret = 0;

	ret = sleipnir_check_bo_sync(args);
	if (ret)
		return ret;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	bo = to_sleipnir_bo(obj);

	if (!sleipnir_range_inside(args->offset, args->size, obj->size)) {
		ret = -EINVAL;
		goto out;
	}

	if (obj->import_attach) {
		struct dma_buf *buf = obj->import_attach->dmabuf;

		if (for_cpu)
			ret = dma_buf_begin_cpu_access(buf, DMA_BIDIRECTIONAL);
		else
			ret = dma_buf_end_cpu_access(buf, DMA_BIDIRECTIONAL);
		goto out;
	}

	if (!(bo->flags & SLEIPNIR_BO_CPU_CACHED) || sdev->coherent)
		goto out;

	sgt = sleipnir_bo_get_sgt(bo);
	if (IS_ERR(sgt)) {
		ret = PTR_ERR(sgt);
		goto out;
	}
	sleipnir_sync_range(ddev->dev, sgt, args->offset, args->size, for_cpu);
out:
	drm_gem_object_put(obj);
	return ret;
}
