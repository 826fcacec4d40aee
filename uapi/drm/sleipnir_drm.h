/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR MIT */
/*
 * Sleipnir: userspace interface of the sleipnir DRM render driver for
 * ARM Mali Midgard (T6xx/T7xx/T8xx) GPUs.
 *
 * Rules for this interface:
 *
 * - Every structure passed through an ioctl is a multiple of 64 bits in size
 *   and its 64-bit members are naturally aligned, so that 32-bit and 64-bit
 *   userspace see the same layout and no compat code is needed.
 * - Explicit padding fields exist instead of implicit holes. Userspace must
 *   set them to zero; the kernel rejects non-zero padding with -EINVAL, so
 *   the fields can be given a meaning later.
 * - No unions; pointers are passed as __u64.
 * - The interface is append-only: ioctls, structure members and enum values
 *   are never removed, renumbered or given a different meaning. New members
 *   are only added at the end of a structure.
 * - Every addition bumps the minor version of the driver (see
 *   DRM_IOCTL_VERSION). Userspace checks that version before using a new
 *   ioctl or parameter. The history is listed below.
 *
 * Version history:
 *
 * - 0.1: DRM_IOCTL_SLEIPNIR_GET_PARAM with the parameters GPU_ID to
 *   JS_FEATURES15 of enum drm_sleipnir_param.
 * - 0.2: buffer objects (BO_CREATE, BO_MMAP_OFFSET, BO_INFO, BO_WAIT,
 *   BO_SYNC, BO_USERPTR, PRIME import and export), the per-file GPU virtual
 *   address space (VM_MAP, VM_UNMAP), job submission (SUBMIT) and fault
 *   reports (GET_FAULT); the parameters GPU_REVISION to JOB_TIMEOUT_MAX_MS.
 *
 * The model, in short:
 *
 * - A buffer object (BO) is system memory shared by the CPU and the GPU
 *   (Midgard has no memory of its own). It is named by a GEM handle that is
 *   local to the file it was created on, and is freed when the last handle,
 *   mapping and job using it are gone (DRM_IOCTL_GEM_CLOSE drops a handle).
 * - Each open file of the render node has its own GPU virtual address space
 *   (VM). Nothing is mapped in it until userspace calls VM_MAP, at an
 *   address of its choosing or one the kernel picks. Jobs of the file see
 *   only that VM; the GPU cannot reach any other memory.
 * - SUBMIT queues one job chain and returns at once. Its completion is
 *   reported through syncobjs (DRM_IOCTL_SYNCOBJ_*) and through the fences
 *   of the BOs it names. A fence that ends with an error tells why the job
 *   failed: export it as a sync_file (DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD with
 *   DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE) and read its status
 *   with SYNC_IOC_FILE_INFO. The errors are:
 *
 *   - -EIO: the GPU ended the chain with an error status (a malformed
 *     descriptor, an instruction or data fault, ...);
 *   - -EFAULT: the job touched a GPU address that is not mapped, or
 *     accessed a mapping in a way it does not allow (write to a read-only
 *     mapping, execute a no-execute one);
 *   - -ETIMEDOUT: the job ran longer than its timeout and was stopped;
 *   - -ECANCELED: the job never ran or was cut short: it was queued behind
 *     a fault of the same file (see below), or the GPU was reset.
 *
 *   A job that fails with -EIO, -EFAULT or -ETIMEDOUT marks its file as
 *   faulted. Until userspace has read the fault with GET_FAULT and the
 *   SLEIPNIR_GET_FAULT_CLEAR flag, SUBMIT on that file fails with
 *   -ECANCELED, and jobs the file had queued before the fault are completed
 *   with -ECANCELED without running (they would likely have consumed the
 *   failed job's results). Other files are not affected.
 *
 * Errors every ioctl can return besides the ones listed with it: -EFAULT
 * when its argument cannot be copied, -ENOMEM when the kernel is out of
 * memory, -EINTR or -ERESTARTSYS when a wait is interrupted by a signal, and
 * -ENODEV once the GPU has been unplugged. On any error nothing is changed
 * unless the ioctl says otherwise.
 */
#ifndef _SLEIPNIR_DRM_H_
#define _SLEIPNIR_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Driver-specific ioctl numbers, relative to DRM_COMMAND_BASE. */
#define DRM_SLEIPNIR_GET_PARAM			0x00
#define DRM_SLEIPNIR_BO_CREATE			0x01
#define DRM_SLEIPNIR_BO_MMAP_OFFSET		0x02
#define DRM_SLEIPNIR_BO_INFO			0x03
#define DRM_SLEIPNIR_BO_WAIT			0x04
#define DRM_SLEIPNIR_BO_SYNC			0x05
#define DRM_SLEIPNIR_BO_USERPTR			0x06
#define DRM_SLEIPNIR_VM_MAP			0x07
#define DRM_SLEIPNIR_VM_UNMAP			0x08
#define DRM_SLEIPNIR_SUBMIT			0x09
#define DRM_SLEIPNIR_GET_FAULT			0x0a

#define DRM_IOCTL_SLEIPNIR_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SLEIPNIR_GET_PARAM, \
		 struct drm_sleipnir_get_param)
#define DRM_IOCTL_SLEIPNIR_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SLEIPNIR_BO_CREATE, \
		 struct drm_sleipnir_bo_create)
#define DRM_IOCTL_SLEIPNIR_BO_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SLEIPNIR_BO_MMAP_OFFSET, \
		 struct drm_sleipnir_bo_mmap_offset)
#define DRM_IOCTL_SLEIPNIR_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SLEIPNIR_BO_INFO, \
		 struct drm_sleipnir_bo_info)
#define DRM_IOCTL_SLEIPNIR_BO_WAIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_SLEIPNIR_BO_WAIT, \
		struct drm_sleipnir_bo_wait)
#define DRM_IOCTL_SLEIPNIR_BO_SYNC \
	DRM_IOW(DRM_COMMAND_BASE + DRM_SLEIPNIR_BO_SYNC, \
		struct drm_sleipnir_bo_sync)
#define DRM_IOCTL_SLEIPNIR_BO_USERPTR \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SLEIPNIR_BO_USERPTR, \
		 struct drm_sleipnir_bo_userptr)
#define DRM_IOCTL_SLEIPNIR_VM_MAP \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SLEIPNIR_VM_MAP, \
		 struct drm_sleipnir_vm_map)
#define DRM_IOCTL_SLEIPNIR_VM_UNMAP \
	DRM_IOW(DRM_COMMAND_BASE + DRM_SLEIPNIR_VM_UNMAP, \
		struct drm_sleipnir_vm_unmap)
#define DRM_IOCTL_SLEIPNIR_SUBMIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_SLEIPNIR_SUBMIT, \
		struct drm_sleipnir_submit)
#define DRM_IOCTL_SLEIPNIR_GET_FAULT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SLEIPNIR_GET_FAULT, \
		 struct drm_sleipnir_get_fault)

/**
 * enum drm_sleipnir_param - What DRM_IOCTL_SLEIPNIR_GET_PARAM can query.
 *
 * Unless stated otherwise a parameter is the raw value of the GPU register of
 * the same name, read once at probe time right after a soft reset. Registers
 * the GPU does not implement read as 0.
 */
enum drm_sleipnir_param {
	/**
	 * @SLEIPNIR_PARAM_GPU_ID: The GPU_ID register as read: product id in
	 * bits [31:16], major revision in [15:12], minor revision in [11:4],
	 * version status in [3:0]. A Mali-T604 reports product id 0x6956.
	 */
	SLEIPNIR_PARAM_GPU_ID = 0,
	/** @SLEIPNIR_PARAM_SHADER_PRESENT: Bitmap of shader cores (64 bits). */
	SLEIPNIR_PARAM_SHADER_PRESENT,
	/** @SLEIPNIR_PARAM_L2_PRESENT: Bitmap of L2 caches (64 bits). */
	SLEIPNIR_PARAM_L2_PRESENT,
	/** @SLEIPNIR_PARAM_AS_PRESENT: Bitmap of MMU address spaces. */
	SLEIPNIR_PARAM_AS_PRESENT,
	/** @SLEIPNIR_PARAM_JS_PRESENT: Bitmap of job slots. */
	SLEIPNIR_PARAM_JS_PRESENT,
	/** @SLEIPNIR_PARAM_TILER_PRESENT: Bitmap of tiler units (64 bits). */
	SLEIPNIR_PARAM_TILER_PRESENT,
	/** @SLEIPNIR_PARAM_L2_FEATURES: L2 cache geometry. */
	SLEIPNIR_PARAM_L2_FEATURES,
	/** @SLEIPNIR_PARAM_CORE_FEATURES: Shader core variant. */
	SLEIPNIR_PARAM_CORE_FEATURES,
	/** @SLEIPNIR_PARAM_TILER_FEATURES: Tiler bin size and levels. */
	SLEIPNIR_PARAM_TILER_FEATURES,
	/**
	 * @SLEIPNIR_PARAM_MEM_FEATURES: Memory system: bit 0 set when the core
	 * groups are coherent through L2, bits [11:8] the number of L2 slices
	 * minus one.
	 */
	SLEIPNIR_PARAM_MEM_FEATURES,
	/**
	 * @SLEIPNIR_PARAM_MMU_FEATURES: Bits [7:0] the number of GPU virtual
	 * address bits, bits [15:8] the number of physical address bits.
	 */
	SLEIPNIR_PARAM_MMU_FEATURES,
	/** @SLEIPNIR_PARAM_THREAD_FEATURES: Thread and register limits. */
	SLEIPNIR_PARAM_THREAD_FEATURES,
	/** @SLEIPNIR_PARAM_THREAD_MAX_THREADS: Threads per shader core. */
	SLEIPNIR_PARAM_THREAD_MAX_THREADS,
	/**
	 * @SLEIPNIR_PARAM_THREAD_MAX_WORKGROUP_SIZE: Largest work-group, in
	 * threads.
	 */
	SLEIPNIR_PARAM_THREAD_MAX_WORKGROUP_SIZE,
	/**
	 * @SLEIPNIR_PARAM_THREAD_MAX_BARRIER_SIZE: Most threads that can take
	 * part in one barrier.
	 */
	SLEIPNIR_PARAM_THREAD_MAX_BARRIER_SIZE,
	/**
	 * @SLEIPNIR_PARAM_THREAD_TLS_ALLOC: Threads per core that thread-local
	 * storage must be allocated for; 0 when the GPU does not say.
	 */
	SLEIPNIR_PARAM_THREAD_TLS_ALLOC,
	/**
	 * @SLEIPNIR_PARAM_COHERENCY_FEATURES: Supported bus coherency
	 * protocols: bit 0 ACE-Lite, bit 1 ACE.
	 */
	SLEIPNIR_PARAM_COHERENCY_FEATURES,
	/**
	 * @SLEIPNIR_PARAM_TEXTURE_FEATURES0: First of the four
	 * TEXTURE_FEATURES registers (supported compressed formats);
	 * TEXTURE_FEATURESn is SLEIPNIR_PARAM_TEXTURE_FEATURES0 + n.
	 */
	SLEIPNIR_PARAM_TEXTURE_FEATURES0,
	/** @SLEIPNIR_PARAM_TEXTURE_FEATURES1: See TEXTURE_FEATURES0. */
	SLEIPNIR_PARAM_TEXTURE_FEATURES1,
	/** @SLEIPNIR_PARAM_TEXTURE_FEATURES2: See TEXTURE_FEATURES0. */
	SLEIPNIR_PARAM_TEXTURE_FEATURES2,
	/** @SLEIPNIR_PARAM_TEXTURE_FEATURES3: See TEXTURE_FEATURES0. */
	SLEIPNIR_PARAM_TEXTURE_FEATURES3,
	/**
	 * @SLEIPNIR_PARAM_JS_FEATURES0: JS_FEATURES of job slot 0 (which job
	 * types the slot accepts); slot n is SLEIPNIR_PARAM_JS_FEATURES0 + n,
	 * up to slot 15. Slots not in JS_PRESENT report 0.
	 */
	SLEIPNIR_PARAM_JS_FEATURES0,
	/** @SLEIPNIR_PARAM_JS_FEATURES1: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES1,
	/** @SLEIPNIR_PARAM_JS_FEATURES2: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES2,
	/** @SLEIPNIR_PARAM_JS_FEATURES3: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES3,
	/** @SLEIPNIR_PARAM_JS_FEATURES4: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES4,
	/** @SLEIPNIR_PARAM_JS_FEATURES5: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES5,
	/** @SLEIPNIR_PARAM_JS_FEATURES6: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES6,
	/** @SLEIPNIR_PARAM_JS_FEATURES7: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES7,
	/** @SLEIPNIR_PARAM_JS_FEATURES8: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES8,
	/** @SLEIPNIR_PARAM_JS_FEATURES9: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES9,
	/** @SLEIPNIR_PARAM_JS_FEATURES10: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES10,
	/** @SLEIPNIR_PARAM_JS_FEATURES11: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES11,
	/** @SLEIPNIR_PARAM_JS_FEATURES12: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES12,
	/** @SLEIPNIR_PARAM_JS_FEATURES13: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES13,
	/** @SLEIPNIR_PARAM_JS_FEATURES14: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES14,
	/** @SLEIPNIR_PARAM_JS_FEATURES15: See JS_FEATURES0. */
	SLEIPNIR_PARAM_JS_FEATURES15,
	/**
	 * @SLEIPNIR_PARAM_GPU_REVISION: GPU_ID[15:0]: major revision in bits
	 * [15:12], minor revision in [11:4], version status in [3:0].
	 */
	SLEIPNIR_PARAM_GPU_REVISION,
	/**
	 * @SLEIPNIR_PARAM_SHADER_CORE_MASK: The shader cores the driver
	 * powers and jobs run on; a subset of SHADER_PRESENT (only the first
	 * core group of a multi-group GPU is used). Job descriptors that carry
	 * a core affinity must stay within it.
	 */
	SLEIPNIR_PARAM_SHADER_CORE_MASK,
	/** @SLEIPNIR_PARAM_SHADER_CORE_COUNT: Bits set in SHADER_CORE_MASK. */
	SLEIPNIR_PARAM_SHADER_CORE_COUNT,
	/**
	 * @SLEIPNIR_PARAM_CORE_GROUP_COUNT: Number of core groups (L2
	 * caches) the GPU has.
	 */
	SLEIPNIR_PARAM_CORE_GROUP_COUNT,
	/**
	 * @SLEIPNIR_PARAM_THREAD_MAX_REGISTERS: Work registers per shader
	 * core, THREAD_FEATURES[15:0].
	 */
	SLEIPNIR_PARAM_THREAD_MAX_REGISTERS,
	/**
	 * @SLEIPNIR_PARAM_L2_SIZE: Size of one L2 cache in bytes, from
	 * L2_FEATURES[23:16] (log2 of the size).
	 */
	SLEIPNIR_PARAM_L2_SIZE,
	/** @SLEIPNIR_PARAM_AS_COUNT: Number of MMU address spaces. */
	SLEIPNIR_PARAM_AS_COUNT,
	/** @SLEIPNIR_PARAM_JS_COUNT: Number of job slots. */
	SLEIPNIR_PARAM_JS_COUNT,
	/**
	 * @SLEIPNIR_PARAM_TIMESTAMP_FREQUENCY: Rate in Hz at which the GPU's
	 * TIMESTAMP register (and the timestamp a WRITE_VALUE job stores)
	 * counts: the system counter's frequency.
	 */
	SLEIPNIR_PARAM_TIMESTAMP_FREQUENCY,
	/**
	 * @SLEIPNIR_PARAM_DRIVER_CAPS: What this driver offers beyond version
	 * 0.1, a mask of enum drm_sleipnir_cap bits.
	 */
	SLEIPNIR_PARAM_DRIVER_CAPS,
	/**
	 * @SLEIPNIR_PARAM_COHERENT: 1 when the GPU is I/O-coherent with the
	 * CPU caches (dma-coherent in the device tree): BO_SYNC is then not
	 * needed. 0 otherwise.
	 */
	SLEIPNIR_PARAM_COHERENT,
	/**
	 * @SLEIPNIR_PARAM_VA_START: Lowest GPU virtual address VM_MAP
	 * accepts. The range below it is never mapped, so that small
	 * addresses (such as a NULL pointer plus an offset) fault.
	 */
	SLEIPNIR_PARAM_VA_START,
	/**
	 * @SLEIPNIR_PARAM_VA_END: One past the highest GPU virtual address
	 * VM_MAP accepts (2 to the power of the MMU's VA bits).
	 */
	SLEIPNIR_PARAM_VA_END,
	/**
	 * @SLEIPNIR_PARAM_JOB_TIMEOUT_DEFAULT_MS: Timeout of a job whose
	 * SUBMIT leaves @timeout_ms at zero.
	 */
	SLEIPNIR_PARAM_JOB_TIMEOUT_DEFAULT_MS,
	/**
	 * @SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS: Longest timeout SUBMIT grants;
	 * longer requests are shortened to it. Set by the administrator
	 * through the max_job_timeout_ms module parameter.
	 */
	SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS,
};

/**
 * enum drm_sleipnir_cap - Bits of SLEIPNIR_PARAM_DRIVER_CAPS.
 */
enum drm_sleipnir_cap {
	/** @SLEIPNIR_CAP_BO: BO_CREATE, BO_MMAP_OFFSET, BO_INFO, BO_WAIT. */
	SLEIPNIR_CAP_BO = 1 << 0,
	/** @SLEIPNIR_CAP_BO_CPU_CACHED: SLEIPNIR_BO_CPU_CACHED and BO_SYNC. */
	SLEIPNIR_CAP_BO_CPU_CACHED = 1 << 1,
	/** @SLEIPNIR_CAP_USERPTR: BO_USERPTR. */
	SLEIPNIR_CAP_USERPTR = 1 << 2,
	/** @SLEIPNIR_CAP_PRIME: dma-buf export and import. */
	SLEIPNIR_CAP_PRIME = 1 << 3,
	/** @SLEIPNIR_CAP_VM_MAP: VM_MAP at chosen and at automatic addresses. */
	SLEIPNIR_CAP_VM_MAP = 1 << 4,
	/** @SLEIPNIR_CAP_SUBMIT: SUBMIT with binary and timeline syncobjs. */
	SLEIPNIR_CAP_SUBMIT = 1 << 5,
	/** @SLEIPNIR_CAP_JOB_TIMEOUT: SUBMIT honours @timeout_ms. */
	SLEIPNIR_CAP_JOB_TIMEOUT = 1 << 6,
	/** @SLEIPNIR_CAP_GET_FAULT: GET_FAULT. */
	SLEIPNIR_CAP_GET_FAULT = 1 << 7,
};

/**
 * struct drm_sleipnir_get_param - Argument of DRM_IOCTL_SLEIPNIR_GET_PARAM.
 *
 * Reads one fixed property of the GPU or the driver. The call does not touch
 * the hardware and never blocks.
 *
 * Errors: -EINVAL when @param is not a value of enum drm_sleipnir_param known
 * to this driver version, or when @pad is not zero. @value is left untouched
 * on error.
 */
struct drm_sleipnir_get_param {
	/** @param: In: what to read, one of enum drm_sleipnir_param. */
	__u32 param;

	/** @pad: In: must be zero. */
	__u32 pad;

	/**
	 * @value: Out: the parameter, zero-extended to 64 bits. Its content
	 * on input is ignored.
	 */
	__u64 value;
};

/**
 * enum drm_sleipnir_bo_flags - Properties of a buffer object.
 *
 * Set at creation and never changed. The GPU_* flags limit every GPU
 * mapping of the BO; VM_MAP can narrow a single mapping further.
 */
enum drm_sleipnir_bo_flags {
	/**
	 * @SLEIPNIR_BO_CPU_CACHED: CPU mappings are write-back cached. Fast
	 * for the CPU to read, but on a GPU that is not I/O-coherent
	 * (SLEIPNIR_PARAM_COHERENT is 0) userspace must bracket CPU access
	 * with BO_SYNC. Without this flag CPU mappings are write-combined:
	 * uncached reads, buffered writes, no BO_SYNC needed.
	 */
	SLEIPNIR_BO_CPU_CACHED = 1 << 0,
	/** @SLEIPNIR_BO_GPU_READ_ONLY: The GPU may read but not write. */
	SLEIPNIR_BO_GPU_READ_ONLY = 1 << 1,
	/** @SLEIPNIR_BO_GPU_NOEXEC: The GPU may not run shader code from it. */
	SLEIPNIR_BO_GPU_NOEXEC = 1 << 2,
	/**
	 * @SLEIPNIR_BO_NO_CPU_MAP: The BO cannot be mapped by the CPU:
	 * BO_MMAP_OFFSET fails with -EPERM. For memory only the GPU touches.
	 */
	SLEIPNIR_BO_NO_CPU_MAP = 1 << 3,
	/**
	 * @SLEIPNIR_BO_USERPTR: Out only (BO_INFO): the BO wraps user memory
	 * (BO_USERPTR). Implies SLEIPNIR_BO_NO_CPU_MAP and
	 * SLEIPNIR_BO_CPU_CACHED.
	 */
	SLEIPNIR_BO_USERPTR = 1 << 16,
	/**
	 * @SLEIPNIR_BO_IMPORTED: Out only (BO_INFO): the BO is a dma-buf
	 * imported through DRM_IOCTL_PRIME_FD_TO_HANDLE from another device.
	 */
	SLEIPNIR_BO_IMPORTED = 1 << 17,
};

/**
 * struct drm_sleipnir_bo_create - Argument of DRM_IOCTL_SLEIPNIR_BO_CREATE.
 *
 * Allocates a zero-filled buffer object of system memory. The memory is
 * allocated lazily, when the BO is first mapped by the GPU or the CPU.
 *
 * Errors: -EINVAL when @size is zero or larger than the GPU address space
 * or the system's RAM, when @flags has a bit not listed in enum
 * drm_sleipnir_bo_flags or one of the out-only bits, or when @handle is
 * not zero.
 */
struct drm_sleipnir_bo_create {
	/**
	 * @size: In: size in bytes. Out: the size allocated, rounded up to a
	 * multiple of the CPU page size.
	 */
	__u64 size;

	/** @flags: In: a mask of enum drm_sleipnir_bo_flags. */
	__u32 flags;

	/** @handle: Out: the new BO's GEM handle. Must be zero on input. */
	__u32 handle;
};

/**
 * struct drm_sleipnir_bo_mmap_offset - Argument of
 * DRM_IOCTL_SLEIPNIR_BO_MMAP_OFFSET.
 *
 * Gives the fake offset to pass to mmap() on the DRM file to map a BO into
 * the CPU's address space. Mappings are shared and zero-copy: the CPU sees
 * the same pages the GPU does.
 *
 * Errors: -ENOENT when @handle is not a BO of this file; -EPERM when the BO
 * has SLEIPNIR_BO_NO_CPU_MAP or is a userptr BO; -EINVAL when @pad is not
 * zero.
 */
struct drm_sleipnir_bo_mmap_offset {
	/** @handle: In: the BO. */
	__u32 handle;

	/** @pad: In: must be zero. */
	__u32 pad;

	/** @offset: Out: the offset for mmap(). */
	__u64 offset;
};

/**
 * struct drm_sleipnir_bo_info - Argument of DRM_IOCTL_SLEIPNIR_BO_INFO.
 *
 * Tells what a BO is; useful for imported BOs.
 *
 * Errors: -ENOENT when @handle is not a BO of this file.
 */
struct drm_sleipnir_bo_info {
	/** @handle: In: the BO. */
	__u32 handle;

	/**
	 * @flags: Out: the BO's enum drm_sleipnir_bo_flags, out-only bits
	 * included.
	 */
	__u32 flags;

	/** @size: Out: size in bytes. */
	__u64 size;
};

/**
 * struct drm_sleipnir_bo_wait - Argument of DRM_IOCTL_SLEIPNIR_BO_WAIT.
 *
 * Waits until every job that uses the BO (named in the bo list of its
 * SUBMIT) has finished, whichever way it ended.
 *
 * Errors: -ENOENT when @handle is not a BO of this file; -EINVAL when
 * @flags is not zero or @timeout_ns is negative; -ETIMEDOUT when the BO is
 * still busy at @timeout_ns.
 */
struct drm_sleipnir_bo_wait {
	/** @handle: In: the BO. */
	__u32 handle;

	/** @flags: In: must be zero. */
	__u32 flags;

	/**
	 * @timeout_ns: In: absolute CLOCK_MONOTONIC time in nanoseconds at
	 * which to give up. A time in the past (such as 0) only polls.
	 */
	__s64 timeout_ns;
};

/**
 * enum drm_sleipnir_bo_sync_op - What DRM_IOCTL_SLEIPNIR_BO_SYNC does.
 */
enum drm_sleipnir_bo_sync_op {
	/**
	 * @SLEIPNIR_BO_SYNC_CPU_PREPARE: Before the CPU accesses the range:
	 * drops stale CPU cache lines so the CPU sees what the GPU wrote.
	 * Call it after the jobs that wrote the range have finished.
	 */
	SLEIPNIR_BO_SYNC_CPU_PREPARE = 1,
	/**
	 * @SLEIPNIR_BO_SYNC_CPU_END: After the CPU accessed the range: writes
	 * dirty CPU cache lines back to memory so the GPU sees them. Call it
	 * before submitting the jobs that read the range.
	 */
	SLEIPNIR_BO_SYNC_CPU_END = 2,
};

/**
 * struct drm_sleipnir_bo_sync - Argument of DRM_IOCTL_SLEIPNIR_BO_SYNC.
 *
 * Cache maintenance for the CPU's view of a BO, the two halves of a
 * zero-copy map/unmap on a system where the GPU does not snoop the CPU
 * caches. It does not wait for jobs (see BO_WAIT). It does nothing, and
 * succeeds, for write-combined BOs and on I/O-coherent systems; for
 * imported BOs it asks the exporter (the whole buffer is synced).
 *
 * Errors: -ENOENT when @handle is not a BO of this file; -EINVAL when @op
 * is not one of enum drm_sleipnir_bo_sync_op, @size is zero, or the range
 * is not inside the BO.
 */
struct drm_sleipnir_bo_sync {
	/** @handle: In: the BO. */
	__u32 handle;

	/** @op: In: one of enum drm_sleipnir_bo_sync_op. */
	__u32 op;

	/** @offset: In: start of the range, in bytes from the BO's start. */
	__u64 offset;

	/** @size: In: length of the range in bytes; not zero. */
	__u64 size;
};

/**
 * struct drm_sleipnir_bo_userptr - Argument of DRM_IOCTL_SLEIPNIR_BO_USERPTR.
 *
 * Wraps existing, page-aligned memory of the calling process in a BO so the
 * GPU can use it in place (the basis of zero-copy CL_MEM_USE_HOST_PTR). The
 * pages are pinned until the BO is freed; they stay those pages even if the
 * process unmaps or remaps the range (it then no longer sees what the GPU
 * does). The memory is cached, so use BO_SYNC around CPU access on a
 * non-coherent system. The BO cannot be mapped through BO_MMAP_OFFSET or
 * exported.
 *
 * Errors: -EINVAL when @user_ptr or @size is zero or not page-aligned, when
 * the range wraps or is larger than the GPU address space, when @flags has
 * a bit other than SLEIPNIR_BO_GPU_READ_ONLY and SLEIPNIR_BO_GPU_NOEXEC, or
 * when @handle is not zero; -EFAULT when part of the range is not mapped in
 * the process, or is read-only and SLEIPNIR_BO_GPU_READ_ONLY is not set;
 * -ENOMEM when the pages cannot be pinned (see RLIMIT_MEMLOCK).
 */
struct drm_sleipnir_bo_userptr {
	/** @user_ptr: In: the start of the memory, page-aligned. */
	__u64 user_ptr;

	/** @size: In: its length in bytes, a multiple of the page size. */
	__u64 size;

	/**
	 * @flags: In: SLEIPNIR_BO_GPU_READ_ONLY (the GPU only reads the
	 * memory, which may then be read-only for the process too) and
	 * SLEIPNIR_BO_GPU_NOEXEC.
	 */
	__u32 flags;

	/** @handle: Out: the new BO's GEM handle. Must be zero on input. */
	__u32 handle;
};

/**
 * enum drm_sleipnir_vm_map_flags - Flags of DRM_IOCTL_SLEIPNIR_VM_MAP.
 */
enum drm_sleipnir_vm_map_flags {
	/** @SLEIPNIR_VM_MAP_READ_ONLY: The GPU may not write this mapping. */
	SLEIPNIR_VM_MAP_READ_ONLY = 1 << 0,
	/** @SLEIPNIR_VM_MAP_NOEXEC: The GPU may not execute from it. */
	SLEIPNIR_VM_MAP_NOEXEC = 1 << 1,
	/**
	 * @SLEIPNIR_VM_MAP_AUTO_VA: The kernel picks the address (the lowest
	 * free range that fits, aligned to 2 MiB when @size is at least
	 * 2 MiB) and returns it in @va, which must be zero on input.
	 */
	SLEIPNIR_VM_MAP_AUTO_VA = 1 << 2,
};

/**
 * struct drm_sleipnir_vm_map - Argument of DRM_IOCTL_SLEIPNIR_VM_MAP.
 *
 * Maps @size bytes of a BO, from @bo_offset, at GPU virtual address @va of
 * this file's address space. The mapping holds a reference to the BO until
 * it is unmapped or the file is closed. Its permissions are read, write and
 * execute minus what the BO's flags and @flags take away.
 *
 * Errors: -ENOENT when @handle is not a BO of this file; -EINVAL when
 * @flags has an unknown bit, when @va, @bo_offset or @size is not a
 * multiple of 4096, when @size is zero, when the BO range is not inside
 * the BO, when the VA range is not inside [SLEIPNIR_PARAM_VA_START,
 * SLEIPNIR_PARAM_VA_END) or overlaps an existing mapping, or when
 * SLEIPNIR_VM_MAP_AUTO_VA is set and @va is not zero; -ENOSPC when
 * SLEIPNIR_VM_MAP_AUTO_VA finds no free range.
 */
struct drm_sleipnir_vm_map {
	/** @handle: In: the BO. */
	__u32 handle;

	/** @flags: In: a mask of enum drm_sleipnir_vm_map_flags. */
	__u32 flags;

	/** @bo_offset: In: first byte of the BO to map. */
	__u64 bo_offset;

	/** @size: In: bytes to map. */
	__u64 size;

	/**
	 * @va: In: the GPU address to map at. Out: the address chosen, with
	 * SLEIPNIR_VM_MAP_AUTO_VA.
	 */
	__u64 va;
};

/**
 * struct drm_sleipnir_vm_unmap - Argument of DRM_IOCTL_SLEIPNIR_VM_UNMAP.
 *
 * Removes one whole mapping made by VM_MAP; @va and @size must be exactly
 * those of that mapping. The GPU can no longer reach the memory when the
 * call returns. Jobs still using the mapping fault; waiting for them first
 * is userspace's job.
 *
 * Errors: -EINVAL when @flags or @pad is not zero, or when no mapping
 * starts at @va with size @size.
 */
struct drm_sleipnir_vm_unmap {
	/** @va: In: start of the mapping. */
	__u64 va;

	/** @size: In: size of the mapping. */
	__u64 size;

	/** @flags: In: must be zero. */
	__u32 flags;

	/** @pad: In: must be zero. */
	__u32 pad;
};

/**
 * struct drm_sleipnir_obj_array - An array of structures in user memory.
 *
 * Lets structures grow: the kernel reads @stride bytes per element. A
 * stride smaller than the structure this kernel knows means the fields at
 * the end are zero; a larger one is accepted when the extra bytes are zero.
 */
struct drm_sleipnir_obj_array {
	/** @stride: Size of one element in bytes; not zero if @count is. */
	__u32 stride;

	/** @count: Number of elements; 0 for none. */
	__u32 count;

	/** @array: User pointer to the first element. */
	__u64 array;
};

/**
 * enum drm_sleipnir_sync_op_flags - Flags of struct drm_sleipnir_sync_op.
 */
enum drm_sleipnir_sync_op_flags {
	/**
	 * @SLEIPNIR_SYNC_OP_TIMELINE: The syncobj is a timeline: wait for or
	 * signal point @point. Without it the syncobj is binary and @point
	 * must be zero.
	 */
	SLEIPNIR_SYNC_OP_TIMELINE = 1 << 0,
};

/**
 * struct drm_sleipnir_sync_op - A syncobj a SUBMIT waits on or signals.
 */
struct drm_sleipnir_sync_op {
	/** @handle: The syncobj handle (DRM_IOCTL_SYNCOBJ_CREATE). */
	__u32 handle;

	/** @flags: A mask of enum drm_sleipnir_sync_op_flags. */
	__u32 flags;

	/** @point: Timeline point; not zero with SLEIPNIR_SYNC_OP_TIMELINE. */
	__u64 point;
};

/**
 * enum drm_sleipnir_bo_ref_flags - Flags of struct drm_sleipnir_bo_ref.
 */
enum drm_sleipnir_bo_ref_flags {
	/**
	 * @SLEIPNIR_BO_REF_WRITE: The job writes the BO: it waits for every
	 * earlier job and every other device using the BO, and later users
	 * wait for it. Without it the job only reads the BO and waits only
	 * for earlier writers.
	 */
	SLEIPNIR_BO_REF_WRITE = 1 << 0,
};

/**
 * struct drm_sleipnir_bo_ref - A BO a SUBMIT uses.
 */
struct drm_sleipnir_bo_ref {
	/** @handle: GEM handle of the BO. */
	__u32 handle;

	/** @flags: A mask of enum drm_sleipnir_bo_ref_flags. */
	__u32 flags;
};

/**
 * enum drm_sleipnir_job_requirement - Bits of drm_sleipnir_submit's
 * @requirements.
 *
 * The job types a chain contains, numbered like the JS_FEATURES register
 * bits: the chain runs on the lowest-numbered job slot whose JS_FEATURES
 * has them all.
 */
enum drm_sleipnir_job_requirement {
	/** @SLEIPNIR_REQ_NULL: NULL jobs. */
	SLEIPNIR_REQ_NULL = 1 << 1,
	/** @SLEIPNIR_REQ_WRITE_VALUE: WRITE_VALUE (set value) jobs. */
	SLEIPNIR_REQ_WRITE_VALUE = 1 << 2,
	/** @SLEIPNIR_REQ_CACHE_FLUSH: CACHE_FLUSH jobs. */
	SLEIPNIR_REQ_CACHE_FLUSH = 1 << 3,
	/** @SLEIPNIR_REQ_COMPUTE: COMPUTE jobs. */
	SLEIPNIR_REQ_COMPUTE = 1 << 4,
	/** @SLEIPNIR_REQ_VERTEX: VERTEX jobs. */
	SLEIPNIR_REQ_VERTEX = 1 << 5,
	/** @SLEIPNIR_REQ_GEOMETRY: GEOMETRY jobs. */
	SLEIPNIR_REQ_GEOMETRY = 1 << 6,
	/** @SLEIPNIR_REQ_TILER: TILER jobs. */
	SLEIPNIR_REQ_TILER = 1 << 7,
	/** @SLEIPNIR_REQ_FUSED: FUSED jobs. */
	SLEIPNIR_REQ_FUSED = 1 << 8,
	/** @SLEIPNIR_REQ_FRAGMENT: FRAGMENT jobs. */
	SLEIPNIR_REQ_FRAGMENT = 1 << 9,
};

/**
 * struct drm_sleipnir_submit - Argument of DRM_IOCTL_SLEIPNIR_SUBMIT.
 *
 * Queues a job chain for the GPU and returns at once. The chain starts once
 * every in-sync has signalled and every job it depends on through its BOs
 * has finished; jobs of one file that need the same job slot run in the
 * order they were submitted. When it ends, its fence signals each out-sync
 * and is added to each BO it names (with any error, see the top of this
 * file). Before the chain the GPU's caches are cleaned and invalidated,
 * and after it they are cleaned, so CPU and GPU see each other's writes.
 *
 * Errors: -EINVAL when @jc is zero or not 64-byte aligned, when
 * @requirements has an unknown bit or no job slot offers them all, when
 * @flags or @pad is not zero, when an array's stride is zero with a
 * non-zero count or its elements have unknown flags or non-zero fields
 * this kernel does not know, when a binary sync op has a non-zero point or
 * a timeline one a zero point, when a BO is listed twice, or when an array
 * holds more than 4096 elements; -EFAULT when an array cannot be read; -ENOENT when a BO handle
 * or an in-sync handle does not exist; -ENODEV when an out-sync handle does
 * not exist; -ECANCELED when the file has an unread fault (see GET_FAULT).
 * Nothing is queued and no syncobj changes on error.
 */
struct drm_sleipnir_submit {
	/**
	 * @jc: In: GPU virtual address of the first job descriptor of the
	 * chain, in this file's address space.
	 */
	__u64 jc;

	/** @in_syncs: In: struct drm_sleipnir_sync_op to wait on. */
	struct drm_sleipnir_obj_array in_syncs;

	/** @out_syncs: In: struct drm_sleipnir_sync_op to signal. */
	struct drm_sleipnir_obj_array out_syncs;

	/** @bos: In: struct drm_sleipnir_bo_ref, the BOs the chain uses. */
	struct drm_sleipnir_obj_array bos;

	/**
	 * @requirements: In: a mask of enum drm_sleipnir_job_requirement;
	 * zero means SLEIPNIR_REQ_COMPUTE.
	 */
	__u32 requirements;

	/** @flags: In: must be zero. */
	__u32 flags;

	/**
	 * @timeout_ms: In: how long the chain may run before it is stopped
	 * and fails with -ETIMEDOUT; 0 for SLEIPNIR_PARAM_JOB_TIMEOUT_DEFAULT_MS.
	 * Values above SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS are lowered to it.
	 * The time counts from when the chain starts on the GPU.
	 */
	__u32 timeout_ms;

	/** @pad: In: must be zero. */
	__u32 pad;
};

/**
 * enum drm_sleipnir_fault_kind - What went wrong, in drm_sleipnir_get_fault.
 */
enum drm_sleipnir_fault_kind {
	/** @SLEIPNIR_FAULT_NONE: No fault since the last clear. */
	SLEIPNIR_FAULT_NONE = 0,
	/**
	 * @SLEIPNIR_FAULT_JOB: The GPU ended a chain with an error status
	 * (fence error -EIO); @exception_code is the status.
	 */
	SLEIPNIR_FAULT_JOB = 1,
	/**
	 * @SLEIPNIR_FAULT_MMU: A job touched an address it may not (fence
	 * error -EFAULT); @address and @access say where and how, and
	 * @exception_code is the MMU's fault code.
	 */
	SLEIPNIR_FAULT_MMU = 2,
	/** @SLEIPNIR_FAULT_TIMEOUT: A chain overran its timeout. */
	SLEIPNIR_FAULT_TIMEOUT = 3,
};

/**
 * enum drm_sleipnir_fault_access - How an MMU fault's access was made.
 */
enum drm_sleipnir_fault_access {
	/** @SLEIPNIR_ACCESS_ATOMIC: An atomic read-modify-write. */
	SLEIPNIR_ACCESS_ATOMIC = 0,
	/** @SLEIPNIR_ACCESS_EXECUTE: An instruction fetch. */
	SLEIPNIR_ACCESS_EXECUTE = 1,
	/** @SLEIPNIR_ACCESS_READ: A read. */
	SLEIPNIR_ACCESS_READ = 2,
	/** @SLEIPNIR_ACCESS_WRITE: A write. */
	SLEIPNIR_ACCESS_WRITE = 3,
};

/**
 * enum drm_sleipnir_get_fault_flags - Flags of DRM_IOCTL_SLEIPNIR_GET_FAULT.
 */
enum drm_sleipnir_get_fault_flags {
	/** @SLEIPNIR_GET_FAULT_CLEAR: Forget the faults after reporting. */
	SLEIPNIR_GET_FAULT_CLEAR = 1 << 0,
};

/**
 * struct drm_sleipnir_get_fault - Argument of DRM_IOCTL_SLEIPNIR_GET_FAULT.
 *
 * Reports the first fault of this file's jobs since the last clear, and
 * how many there were. With SLEIPNIR_GET_FAULT_CLEAR it also clears them,
 * which lets SUBMIT work again on this file.
 *
 * Errors: -EINVAL when @flags has a bit other than SLEIPNIR_GET_FAULT_CLEAR
 * or @pad is not zero.
 */
struct drm_sleipnir_get_fault {
	/** @flags: In: 0 or SLEIPNIR_GET_FAULT_CLEAR. */
	__u32 flags;

	/** @count: Out: faults since the last clear; 0 when none. */
	__u32 count;

	/** @kind: Out: one of enum drm_sleipnir_fault_kind. */
	__u32 kind;

	/**
	 * @exception_code: Out: the GPU's exception code: the JS_STATUS of a
	 * job fault, the MMU's exception type of an MMU fault, 0 otherwise.
	 */
	__u32 exception_code;

	/** @address: Out: the faulting GPU address of an MMU fault, or 0. */
	__u64 address;

	/** @jc: Out: the @jc of the SUBMIT whose chain failed. */
	__u64 jc;

	/**
	 * @access: Out: one of enum drm_sleipnir_fault_access for an MMU
	 * fault, 0 otherwise.
	 */
	__u32 access;

	/** @pad: In: must be zero. */
	__u32 pad;
};

#if defined(__cplusplus)
}
#endif

#endif /* _SLEIPNIR_DRM_H_ */
