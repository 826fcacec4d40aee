/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: buffer objects. Native BOs are GEM shmem objects; imported
 * dma-bufs use the shmem helpers' import path; userptr BOs wrap pinned user
 * pages and have their own object functions.
 */
#ifndef __SLEIPNIR_GEM_H__
#define __SLEIPNIR_GEM_H__

#include <linux/mutex.h>
#include <linux/scatterlist.h>

#include <drm/drm_gem_shmem_helper.h>

struct dma_buf_attachment;
struct drm_device;
struct drm_file;
struct mm_struct;

/**
 * struct sleipnir_bo - A buffer object.
 */
struct sleipnir_bo {
	/** @base: the shmem object; only its GEM object for userptr BOs. */
	struct drm_gem_shmem_object base;
	/** @flags: enum drm_sleipnir_bo_flags, the out-only bits included. */
	u32 flags;
	/** @sgt_lock: serialises the first creation of the GPU mapping. */
	struct mutex sgt_lock;

	/** @userptr: what a userptr BO wraps. */
	struct {
		/** @userptr.pages: the pinned pages. */
		struct page **pages;
		/** @userptr.npages: how many. */
		unsigned long npages;
		/** @userptr.sgt: the pages, mapped for the GPU. */
		struct sg_table *sgt;
		/** @userptr.mm: the process charged for the pinned pages. */
		struct mm_struct *mm;
	} userptr;
};

static inline struct sleipnir_bo *to_sleipnir_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct sleipnir_bo, base.base);
}

struct drm_gem_object *sleipnir_gem_create_object(struct drm_device *ddev,
						  size_t size);
struct drm_gem_object *
sleipnir_gem_prime_import_sg_table(struct drm_device *ddev,
				   struct dma_buf_attachment *attach,
				   struct sg_table *sgt);
struct sg_table *sleipnir_bo_get_sgt(struct sleipnir_bo *bo);

int sleipnir_ioctl_bo_create(struct drm_device *ddev, void *data,
			     struct drm_file *file);
int sleipnir_ioctl_bo_mmap_offset(struct drm_device *ddev, void *data,
				  struct drm_file *file);
int sleipnir_ioctl_bo_info(struct drm_device *ddev, void *data,
			   struct drm_file *file);
int sleipnir_ioctl_bo_wait(struct drm_device *ddev, void *data,
			   struct drm_file *file);
int sleipnir_ioctl_bo_sync(struct drm_device *ddev, void *data,
			   struct drm_file *file);
int sleipnir_ioctl_bo_userptr(struct drm_device *ddev, void *data,
			      struct drm_file *file);

#endif /* __SLEIPNIR_GEM_H__ */
