/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Sleipnir: the checks every ioctl argument must pass before the driver
 * touches anything, as uapi/drm/sleipnir_drm.h documents them: known flags
 * only, zero padding, sizes and addresses in range, SUBMIT's array limits,
 * the job slot a chain goes to and the timeout it gets. Plain C over the
 * uapi's types, so that sleipnir.ko and the host simulator (userspace/sim)
 * accept and reject exactly the same arguments with the same errnos.
 */
#ifndef __SLEIPNIR_RULES_H__
#define __SLEIPNIR_RULES_H__

#include <linux/errno.h>
#include <linux/types.h>
#ifndef __KERNEL__
#include <stdbool.h>
#endif

#include <drm/sleipnir_drm.h>

#include "sleipnir_common.h"

/* The flags BO_CREATE takes; the out-only ones are BO_INFO's. */
#define SLEIPNIR_BO_CREATE_FLAGS	(SLEIPNIR_BO_CPU_CACHED | \
					 SLEIPNIR_BO_GPU_READ_ONLY | \
					 SLEIPNIR_BO_GPU_NOEXEC | \
					 SLEIPNIR_BO_NO_CPU_MAP)
#define SLEIPNIR_BO_USERPTR_FLAGS	(SLEIPNIR_BO_GPU_READ_ONLY | \
					 SLEIPNIR_BO_GPU_NOEXEC)
#define SLEIPNIR_VM_MAP_FLAGS		(SLEIPNIR_VM_MAP_READ_ONLY | \
					 SLEIPNIR_VM_MAP_NOEXEC | \
					 SLEIPNIR_VM_MAP_AUTO_VA)
#define SLEIPNIR_REQ_ALL	(SLEIPNIR_REQ_NULL | SLEIPNIR_REQ_WRITE_VALUE | \
				 SLEIPNIR_REQ_CACHE_FLUSH | \
				 SLEIPNIR_REQ_COMPUTE | SLEIPNIR_REQ_VERTEX | \
				 SLEIPNIR_REQ_GEOMETRY | SLEIPNIR_REQ_TILER | \
				 SLEIPNIR_REQ_FUSED | SLEIPNIR_REQ_FRAGMENT)

/* Most elements a SUBMIT array may have. */
#define SLEIPNIR_SUBMIT_MAX_ELEMS	4096

/* The granule of VM_MAP's addresses, offsets and sizes. */
#define SLEIPNIR_GPU_PAGE_SIZE		4096ull
/* The larger page (an LPAE level-2 block) VM_MAP uses when it can. */
#define SLEIPNIR_GPU_BLOCK_SIZE		0x200000ull

/* Whether [@offset, @offset + @size) lies inside an object of @obj_size. */
static inline bool sleipnir_range_inside(__u64 offset, __u64 size,
					 __u64 obj_size)
{
	return size <= obj_size && offset <= obj_size - size;
}

/*
 * BO_CREATE, before any allocation: @ram is the system's memory and
 * @va_end the GPU address space's end, in bytes.
 */
static inline int
sleipnir_check_bo_create(const struct drm_sleipnir_bo_create *args,
			 __u64 ram, __u64 va_end)
{
	if ((args->flags & ~(__u32)SLEIPNIR_BO_CREATE_FLAGS) || args->handle ||
	    !args->size || args->size > ram || args->size > va_end)
		return -EINVAL;
	return 0;
}

/* BO_USERPTR, before the range is looked at; @page_size the CPU's. */
static inline int
sleipnir_check_bo_userptr(const struct drm_sleipnir_bo_userptr *args,
			  __u64 page_size, __u64 va_end)
{
	if (!args->user_ptr || !args->size || args->handle ||
	    (args->user_ptr & (page_size - 1)) ||
	    (args->size & (page_size - 1)) ||
	    args->user_ptr + args->size < args->user_ptr ||
	    args->size > va_end ||
	    (args->flags & ~(__u32)SLEIPNIR_BO_USERPTR_FLAGS))
		return -EINVAL;
	return 0;
}

/* BO_WAIT, before the handle is looked up. */
static inline int
sleipnir_check_bo_wait(const struct drm_sleipnir_bo_wait *args)
{
	if (args->flags || args->timeout_ns < 0)
		return -EINVAL;
	return 0;
}

/* BO_SYNC, before the handle is looked up; the range is checked after. */
static inline int
sleipnir_check_bo_sync(const struct drm_sleipnir_bo_sync *args)
{
	if ((args->op != SLEIPNIR_BO_SYNC_CPU_PREPARE &&
	     args->op != SLEIPNIR_BO_SYNC_CPU_END) || !args->size)
		return -EINVAL;
	return 0;
}

/*
 * VM_MAP, before the handle is looked up: known flags, page-aligned, a VA
 * given xor asked for, and a given VA range inside [VA_START, @va_end).
 * The BO range (sleipnir_range_inside()) and overlaps are checked after.
 */
static inline int
sleipnir_check_vm_map(const struct drm_sleipnir_vm_map *args, __u64 va_end)
{
	bool auto_va = args->flags & SLEIPNIR_VM_MAP_AUTO_VA;

	if (args->flags & ~(__u32)SLEIPNIR_VM_MAP_FLAGS)
		return -EINVAL;
	if (!args->size || ((args->size | args->bo_offset | args->va) &
			    (SLEIPNIR_GPU_PAGE_SIZE - 1)))
		return -EINVAL;
	if (auto_va && args->va)
		return -EINVAL;
	if (!auto_va && (args->va < SLEIPNIR_VA_START || args->va > va_end ||
			 args->size > va_end - args->va))
		return -EINVAL;
	return 0;
}

/* The alignment of an address VM_MAP picks for a mapping of @size. */
static inline __u64 sleipnir_vm_map_align(__u64 size)
{
	return size >= SLEIPNIR_GPU_BLOCK_SIZE ? SLEIPNIR_GPU_BLOCK_SIZE :
						  SLEIPNIR_GPU_PAGE_SIZE;
}

/* Whether the GPU may write a mapping: neither the BO nor VM_MAP forbid. */
static inline bool sleipnir_vm_map_writable(__u32 bo_flags, __u32 map_flags)
{
	return !(bo_flags & SLEIPNIR_BO_GPU_READ_ONLY) &&
	       !(map_flags & SLEIPNIR_VM_MAP_READ_ONLY);
}

/* Whether the GPU may run shader code from a mapping. */
static inline bool sleipnir_vm_map_executable(__u32 bo_flags,
					      __u32 map_flags)
{
	return !(bo_flags & SLEIPNIR_BO_GPU_NOEXEC) &&
	       !(map_flags & SLEIPNIR_VM_MAP_NOEXEC);
}

/* VM_UNMAP, before the mapping is looked for. */
static inline int
sleipnir_check_vm_unmap(const struct drm_sleipnir_vm_unmap *args)
{
	if (args->flags || args->pad || !args->size ||
	    args->va + args->size < args->va)
		return -EINVAL;
	return 0;
}

/* SUBMIT's own fields (its arrays are checked as they are copied). */
static inline int
sleipnir_check_submit(const struct drm_sleipnir_submit *args)
{
	if (!args->jc || (args->jc & 63) || args->flags || args->pad)
		return -EINVAL;
	return 0;
}

/* A SUBMIT array's count and stride, before it is copied. */
static inline int
sleipnir_check_obj_array(const struct drm_sleipnir_obj_array *arr)
{
	if (arr->count &&
	    (!arr->stride || arr->count > SLEIPNIR_SUBMIT_MAX_ELEMS))
		return -EINVAL;
	return 0;
}

/* In- or out-syncs: a point with a timeline, none without. */
static inline int
sleipnir_check_sync_ops(const struct drm_sleipnir_sync_op *ops, __u32 count)
{
	__u32 i;

	for (i = 0; i < count; i++) {
		bool timeline = ops[i].flags & SLEIPNIR_SYNC_OP_TIMELINE;

		if (ops[i].flags & ~(__u32)SLEIPNIR_SYNC_OP_TIMELINE ||
		    timeline != !!ops[i].point)
			return -EINVAL;
	}
	return 0;
}

/* The BO list's flags (the handles are looked up after). */
static inline int
sleipnir_check_bo_refs(const struct drm_sleipnir_bo_ref *refs, __u32 count)
{
	__u32 i;

	for (i = 0; i < count; i++) {
		if (refs[i].flags & ~(__u32)SLEIPNIR_BO_REF_WRITE)
			return -EINVAL;
	}
	return 0;
}

/**
 * sleipnir_pick_slot() - The job slot a chain runs on.
 * @js_features: JS_FEATURES of the slots in use.
 * @js_count: how many slots are in use.
 * @requirements: SUBMIT's @requirements; 0 means SLEIPNIR_REQ_COMPUTE.
 *
 * Return: the lowest slot that offers every job type required, or -EINVAL
 * for an unknown requirement or when no slot offers them all.
 */
static inline int sleipnir_pick_slot(const __u32 *js_features,
				     unsigned int js_count, __u32 requirements)
{
	__u32 req = requirements ? requirements : SLEIPNIR_REQ_COMPUTE;
	unsigned int js;

	if (req & ~(__u32)SLEIPNIR_REQ_ALL)
		return -EINVAL;
	for (js = 0; js < js_count; js++) {
		if ((js_features[js] & req) == req)
			return (int)js;
	}
	return -EINVAL;
}

/*
 * The timeout a chain gets: SUBMIT's, or the default for 0, at most the
 * max_job_timeout_ms module parameter (which counts as 1 when it is 0).
 */
static inline unsigned int sleipnir_job_timeout_ms(__u32 requested,
						   unsigned int max_ms)
{
	unsigned int ms = requested ? requested :
			  SLEIPNIR_JOB_TIMEOUT_DEFAULT_MS;

	if (!max_ms)
		max_ms = 1;
	return ms < max_ms ? ms : max_ms;
}

/* GET_FAULT's input. */
static inline int
sleipnir_check_get_fault(const struct drm_sleipnir_get_fault *args)
{
	if ((args->flags & ~(__u32)SLEIPNIR_GET_FAULT_CLEAR) || args->pad)
		return -EINVAL;
	return 0;
}

#endif /* __SLEIPNIR_RULES_H__ */
