/* SPDX-License-Identifier: MIT */
/*
 * sl_drm: the sleipnir DRM driver (sleipnir.ko, uapi/drm/sleipnir_drm.h)
 * through libdrm, for the OpenCL runtime and the guest tests. A thin layer:
 * each call is one or two ioctls, with the uapi's rules (zeroed padding,
 * strides, page alignment) kept in one place.
 *
 * Every function that can fail returns 0 or a negative errno (the
 * kernel's, as the uapi documents them per ioctl) and prints nothing.
 * Nothing here blocks without a timeout. The objects are not thread-safe:
 * the caller serialises use of one struct sl_drm and its BOs.
 *
 * GPU addresses: each open device has its own GPU address space. VM_MAP
 * can place a BO where the caller says or where the kernel picks (the
 * lowest free range that fits, see SLEIPNIR_VM_MAP_AUTO_VA); sl_vm_map()
 * offers both, and sl_vm_map_code() keeps shader code inside one 16 MiB
 * region as Midgard's 24-bit PC requires. The launch ABI passes buffer
 * pointers as 32-bit values, so buffers kernels use must lie below 4 GiB:
 * the kernel's lowest-first placement gives that until 4 GiB are mapped.
 */
#ifndef SLEIPNIR_SL_DRM_H
#define SLEIPNIR_SL_DRM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drm/sleipnir_drm.h"

/* An open sleipnir render node (one GPU address space). */
struct sl_drm;

/* The oldest driver version sl_drm works with: 0.2 (BOs, VM, SUBMIT). */
#define SL_DRM_MIN_MINOR 2

/*
 * Opens the first render node under /dev/dri whose driver is named
 * "sleipnir" (drmGetVersion) and that is at least version 0.2. Returns 0
 * and the device in *out, -ENODEV when there is none, -ENOMEM, or the
 * errno of an ioctl that failed on it.
 */
int sl_drm_open(struct sl_drm **out);
/*
 * Opens the render node at path, which must be driven by sleipnir 0.2 or
 * later (-ENODEV otherwise); the errno of open() when it cannot be opened.
 * Each call is a file of its own, with a GPU address space of its own.
 */
int sl_drm_open_node(const char *path, struct sl_drm **out);
/* Closes the node: every BO, mapping and syncobj of it goes with it. */
void sl_drm_close(struct sl_drm *dev);
/* The DRM file descriptor, for libdrm calls sl_drm does not wrap. */
int sl_drm_fd(const struct sl_drm *dev);
/* The path of the node that was opened, e.g. "/dev/dri/renderD128". */
const char *sl_drm_node(const struct sl_drm *dev);

/*
 * Any ioctl on the node, its argument passed as it is: for the few calls
 * sl_drm does not wrap, and for tests that must hand the driver arguments
 * the wrappers would never build (bad padding, strides, ranges). Restarts
 * on EINTR/EAGAIN; 0 or the negative errno.
 */
int sl_drm_ioctl(struct sl_drm *dev, unsigned long request, void *arg);

/*
 * Reads parameter param (enum drm_sleipnir_param) into *value. -EINVAL
 * when the driver does not know param.
 */
int sl_drm_get_param(struct sl_drm *dev, uint32_t param, uint64_t *value);

/* --- buffer objects ------------------------------------------------------ */

/*
 * A BO of this device. The fields are read-only for the caller; the
 * functions below keep them up to date.
 */
struct sl_bo {
	struct sl_drm *dev;
	uint32_t handle;             /* GEM handle */
	uint32_t flags;              /* enum drm_sleipnir_bo_flags */
	uint64_t size;               /* bytes, a multiple of the page size */
	void *map;                   /* CPU mapping (sl_bo_mmap), or NULL */
	uint64_t va;                 /* GPU address (sl_vm_map), or 0 */
	uint64_t va_size;            /* bytes mapped at va */
};

/*
 * Creates a zero-filled BO of at least size bytes with flags (enum
 * drm_sleipnir_bo_flags: SLEIPNIR_BO_CPU_CACHED, GPU_READ_ONLY,
 * GPU_NOEXEC, NO_CPU_MAP). -EINVAL for a size of 0 or an unknown flag.
 */
int sl_bo_create(struct sl_drm *dev, uint64_t size, uint32_t flags,
		 struct sl_bo **out);
/*
 * Wraps size bytes of the caller's memory at ptr (both page-aligned) in a
 * BO the GPU uses in place; flags may hold SLEIPNIR_BO_GPU_READ_ONLY and
 * SLEIPNIR_BO_GPU_NOEXEC. The memory must outlive the BO. -EINVAL when not
 * page-aligned, -EFAULT when not mapped, -ENOMEM when it cannot be pinned.
 * The BO cannot be sl_bo_mmap()ed: the caller already has ptr.
 */
int sl_bo_userptr(struct sl_drm *dev, void *ptr, uint64_t size,
		  uint32_t flags, struct sl_bo **out);
/*
 * Frees the BO: unmaps it from the GPU (when sl_vm_map()ed) and the CPU,
 * and closes the handle. The caller must have waited for jobs using it.
 * NULL is ignored.
 */
void sl_bo_destroy(struct sl_bo *bo);

/*
 * Maps the whole BO for the CPU (shared, zero-copy), once: later calls
 * return the same mapping. -EPERM for NO_CPU_MAP and userptr BOs.
 */
int sl_bo_mmap(struct sl_bo *bo, void **cpu);

/*
 * Cache maintenance around CPU access to [offset, offset + size) of a
 * CPU-cached BO on a GPU that does not snoop (SLEIPNIR_PARAM_COHERENT 0):
 * SLEIPNIR_BO_SYNC_CPU_PREPARE before the CPU reads what the GPU wrote,
 * SLEIPNIR_BO_SYNC_CPU_END after the CPU wrote what the GPU will read.
 * size 0 means to the end of the BO. A no-op (0) for write-combined BOs
 * and coherent GPUs. -EINVAL for a range outside the BO.
 */
int sl_bo_sync(struct sl_bo *bo, uint32_t op, uint64_t offset,
	       uint64_t size);

/* Waits until jobs using the BO finished, up to timeout_ms (-ETIMEDOUT). */
int sl_bo_wait(struct sl_bo *bo, unsigned int timeout_ms);

/*
 * What the driver says about a handle of this device (for imported BOs):
 * its flags, out-only bits (SLEIPNIR_BO_USERPTR, _IMPORTED) included, and
 * size. -ENOENT for an unknown handle.
 */
int sl_bo_info(struct sl_drm *dev, uint32_t handle, uint32_t *flags,
	       uint64_t *size);

/*
 * PRIME: shares the BO as a dma-buf; *dmabuf_fd is the caller's to close.
 * flags are drmPrimeHandleToFD's (DRM_CLOEXEC, DRM_RDWR).
 */
int sl_bo_export(struct sl_bo *bo, uint32_t flags, int *dmabuf_fd);
/*
 * PRIME: a BO of this device for a dma-buf (of this or another sleipnir
 * file), with the flags and size BO_INFO reports (SLEIPNIR_BO_IMPORTED
 * among them for a buffer of another file). The dma-buf fd stays the
 * caller's. -EBADF for a bad fd. A dma-buf exported by this same file
 * gives back the handle its BO already has, which two struct sl_bo must
 * not own: import only what other files exported.
 */
int sl_bo_import(struct sl_drm *dev, int dmabuf_fd, struct sl_bo **out);

/* --- GPU address space --------------------------------------------------- */

/*
 * Maps the whole BO into the GPU address space at va, or with va 0 where
 * the kernel picks; flags narrow the mapping (SLEIPNIR_VM_MAP_READ_ONLY,
 * SLEIPNIR_VM_MAP_NOEXEC). The address ends up in bo->va. -EBUSY when the
 * BO is already mapped, -EINVAL for a va not page-aligned, outside
 * [VA_START, VA_END) or overlapping a mapping, -ENOSPC when the kernel
 * finds no room.
 */
int sl_vm_map(struct sl_bo *bo, uint64_t va, uint32_t flags);
/*
 * The same for shader code: an address where [va, va + bo->size) neither
 * crosses nor ends on a 16 MiB boundary. -E2BIG for a BO too large for
 * that (16 MiB minus a page or more).
 */
int sl_vm_map_code(struct sl_bo *bo, uint32_t flags);
/* Removes the BO's GPU mapping; 0 when it had none. */
int sl_vm_unmap(struct sl_bo *bo);

/* --- syncobjs ------------------------------------------------------------ */

/* A new binary syncobj, signalled or not, in *handle (libdrm). */
int sl_syncobj_create(struct sl_drm *dev, bool signaled, uint32_t *handle);
void sl_syncobj_destroy(struct sl_drm *dev, uint32_t handle);
/*
 * Waits up to timeout_ms for all (or any) of count binary syncobjs to
 * signal; -ETIME when they did not. A syncobj with no fence yet is waited
 * for too (WAIT_FOR_SUBMIT), so it may be passed before its SUBMIT.
 */
int sl_syncobj_wait(struct sl_drm *dev, const uint32_t *handles,
		    unsigned int count, bool all, unsigned int timeout_ms);
/* Waits up to timeout_ms for point of a timeline syncobj; -ETIME if not. */
int sl_syncobj_timeline_wait(struct sl_drm *dev, uint32_t handle,
			     uint64_t point, unsigned int timeout_ms);
/*
 * How the fence a binary syncobj holds ended, read through a sync_file:
 * *status is 1 when it signalled without error, 0 when it has not
 * signalled yet, or the negative errno the job failed with (-EIO,
 * -EFAULT, -ETIMEDOUT, -ECANCELED: see the top of sleipnir_drm.h).
 * -EINVAL when the syncobj holds no fence.
 */
int sl_syncobj_status(struct sl_drm *dev, uint32_t handle, int *status);

/* --- submission and faults ----------------------------------------------- */

struct sl_submit {
	uint64_t jc;                 /* GPU address of the first job */
	/* Every BO the chain touches, with SLEIPNIR_BO_REF_WRITE if written. */
	const struct drm_sleipnir_bo_ref *bos;
	uint32_t num_bos;
	/* Syncobjs to wait for before the chain starts. */
	const struct drm_sleipnir_sync_op *in_syncs;
	uint32_t num_in_syncs;
	/* Syncobjs the chain's end signals. */
	const struct drm_sleipnir_sync_op *out_syncs;
	uint32_t num_out_syncs;
	/* enum drm_sleipnir_job_requirement; 0 means compute. */
	uint32_t requirements;
	/* 0: the driver's default, SLEIPNIR_PARAM_JOB_TIMEOUT_DEFAULT_MS. */
	uint32_t timeout_ms;
};

/*
 * Queues the chain (DRM_IOCTL_SLEIPNIR_SUBMIT) and returns at once.
 * -EINVAL for a bad jc, requirements or list, -ENOENT for an unknown BO or
 * in-sync, -ECANCELED while the device has an unread fault (sl_get_fault
 * with clear). Nothing is queued on error.
 */
int sl_submit(struct sl_drm *dev, const struct sl_submit *s);

/*
 * The first fault of this device's jobs since the last clear (count 0 when
 * none); with clear, forgets them so SUBMIT works again.
 */
int sl_get_fault(struct sl_drm *dev, bool clear,
		 struct drm_sleipnir_get_fault *fault);

#endif
