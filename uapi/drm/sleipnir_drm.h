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
 */
#ifndef _SLEIPNIR_DRM_H_
#define _SLEIPNIR_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Driver-specific ioctl numbers, relative to DRM_COMMAND_BASE. */
#define DRM_SLEIPNIR_GET_PARAM			0x00

#define DRM_IOCTL_SLEIPNIR_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_SLEIPNIR_GET_PARAM, \
		 struct drm_sleipnir_get_param)

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
};

/**
 * struct drm_sleipnir_get_param - Argument of DRM_IOCTL_SLEIPNIR_GET_PARAM.
 *
 * Reads one fixed property of the GPU. The call does not touch the hardware
 * and never blocks.
 *
 * Errors: -EINVAL when @param is not a value of enum drm_sleipnir_param known
 * to this driver version, or when @pad is not zero. -EFAULT when the argument
 * cannot be copied. @value is left untouched on error.
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

#if defined(__cplusplus)
}
#endif

#endif /* _SLEIPNIR_DRM_H_ */
