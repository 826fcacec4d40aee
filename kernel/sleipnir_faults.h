/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Sleipnir: how a chain's end and an MMU fault are read from the registers
 * and reported: the fence error each JS_STATUS code stands for, the fault
 * it records, the decoding of AS_FAULTSTATUS, how the two halves of an MMU
 * fault's report (job interrupt and MMU interrupt, in either order) make
 * one record, and what DRM_IOCTL_SLEIPNIR_GET_FAULT returns from it. Plain
 * C over the uapi's types, so that sleipnir.ko and the host simulator
 * (userspace/sim) report the same faults the same way.
 */
#ifndef __SLEIPNIR_FAULTS_H__
#define __SLEIPNIR_FAULTS_H__

#include <linux/errno.h>
#include <linux/types.h>
#ifndef __KERNEL__
#include <stdbool.h>
#endif

#include <drm/sleipnir_drm.h>

/* JS_STATUS exception codes the driver tells apart. */
#define SLP_EXC_DONE			0x01
#define SLP_EXC_STOPPED			0x03
#define SLP_EXC_TERMINATED		0x04
/* Translation, permission, bus, access-flag and address-size faults. */
#define SLP_EXC_MMU_FIRST		0xc0
#define SLP_EXC_MMU_LAST		0xef

/* The exception code in JS_STATUS (and GPU_FAULTSTATUS): bits [7:0]. */
static inline __u32 sleipnir_exception_code(__u32 status)
{
	return status & 0xff;
}

/* AS_FAULTSTATUS: the MMU's exception type, bits [7:0]. */
static inline __u32 sleipnir_as_fault_code(__u32 status)
{
	return status & 0xff;
}

/* AS_FAULTSTATUS: enum drm_sleipnir_fault_access, bits [9:8]. */
static inline __u32 sleipnir_as_fault_access(__u32 status)
{
	return (status >> 8) & 0x3;
}

/* A chain stopped by a JS_COMMAND (the driver's timeout or close). */
static inline bool sleipnir_exc_is_stop(__u32 code)
{
	return code == SLP_EXC_STOPPED || code == SLP_EXC_TERMINATED;
}

/* A chain that touched an address its VM does not allow. */
static inline bool sleipnir_exc_is_mmu(__u32 code)
{
	return code >= SLP_EXC_MMU_FIRST && code <= SLP_EXC_MMU_LAST;
}

/*
 * The enum drm_sleipnir_fault_kind a chain's final JS_STATUS code records:
 * none for a chain that completed or that the driver stopped (a timeout
 * records its own).
 */
static inline __u32 sleipnir_job_fault_kind(__u32 code)
{
	if (code == SLP_EXC_DONE || sleipnir_exc_is_stop(code))
		return SLEIPNIR_FAULT_NONE;
	if (sleipnir_exc_is_mmu(code))
		return SLEIPNIR_FAULT_MMU;
	return SLEIPNIR_FAULT_JOB;
}

/**
 * sleipnir_job_fence_error() - The fence error of a chain that ended.
 * @code: its final JS_STATUS code.
 * @timed_out: the driver stopped it because it overran its timeout.
 *
 * Return: 0 for DONE; -ETIMEDOUT or -ECANCELED (closed file, or a stop the
 * driver did not ask for) for a stopped chain; -EFAULT for an MMU fault;
 * -EIO for any other error status. See the top of the uapi header.
 */
static inline int sleipnir_job_fence_error(__u32 code, bool timed_out)
{
	if (code == SLP_EXC_DONE)
		return 0;
	if (sleipnir_exc_is_stop(code))
		return timed_out ? -ETIMEDOUT : -ECANCELED;
	if (sleipnir_exc_is_mmu(code))
		return -EFAULT;
	return -EIO;
}

/**
 * struct sleipnir_fault_info - One fault, as GET_FAULT reports it.
 */
struct sleipnir_fault_info {
	/** @kind: enum drm_sleipnir_fault_kind. */
	__u32 kind;
	/** @exception_code: JS_STATUS or MMU exception code. */
	__u32 exception_code;
	/** @address: faulting GPU address (MMU faults). */
	__u64 address;
	/** @jc: the failed chain's first job descriptor. */
	__u64 jc;
	/** @access: enum drm_sleipnir_fault_access (MMU faults). */
	__u32 access;
	/** @has_address: @address and @access are known. */
	bool has_address;
	/** @has_jc: @jc is known. */
	bool has_jc;
};

/* Whether @fault is the other half of the report @first started. */
static inline bool
sleipnir_fault_completes(const struct sleipnir_fault_info *first,
			 const struct sleipnir_fault_info *fault)
{
	if (first->kind != SLEIPNIR_FAULT_MMU ||
	    fault->kind != SLEIPNIR_FAULT_MMU)
		return false;

	return (fault->has_address && !first->has_address) ||
	       (fault->has_jc && !first->has_jc);
}

/* Completes @first with what @fault knows and it lacks. */
static inline void sleipnir_fault_merge(struct sleipnir_fault_info *first,
					const struct sleipnir_fault_info *fault)
{
	if (fault->has_address && !first->has_address) {
		first->address = fault->address;
		first->access = fault->access;
		first->exception_code = fault->exception_code;
		first->has_address = true;
	}
	if (fault->has_jc && !first->has_jc) {
		first->jc = fault->jc;
		first->has_jc = true;
	}
}

/* Whether a pending fault's address is known (or it needs none). */
static inline bool
sleipnir_fault_address_known(__u32 count,
			     const struct sleipnir_fault_info *first)
{
	return !count || first->kind != SLEIPNIR_FAULT_MMU ||
	       first->has_address;
}

/*
 * GET_FAULT's output from the file's fault count and first fault (which
 * is not looked at when @count is 0).
 */
static inline void
sleipnir_get_fault_report(struct drm_sleipnir_get_fault *args, __u32 count,
			  const struct sleipnir_fault_info *first)
{
	args->count = count;
	args->kind = count ? first->kind : SLEIPNIR_FAULT_NONE;
	args->exception_code = count ? first->exception_code : 0;
	args->address = count && first->has_address ? first->address : 0;
	args->access = count && first->has_address ? first->access : 0;
	args->jc = count && first->has_jc ? first->jc : 0;
}

/* The names the driver's log lines and debugfs use. */
static inline const char *sleipnir_fault_kind_name(__u32 kind)
{
	switch (kind) {
	case SLEIPNIR_FAULT_JOB:
		return "job";
	case SLEIPNIR_FAULT_MMU:
		return "mmu";
	case SLEIPNIR_FAULT_TIMEOUT:
		return "timeout";
	default:
		return "none";
	}
}

static inline const char *sleipnir_fault_access_name(__u32 access)
{
	switch (access) {
	case SLEIPNIR_ACCESS_ATOMIC:
		return "atomic";
	case SLEIPNIR_ACCESS_EXECUTE:
		return "execute";
	case SLEIPNIR_ACCESS_READ:
		return "read";
	case SLEIPNIR_ACCESS_WRITE:
		return "write";
	default:
		return "?";
	}
}

#endif /* __SLEIPNIR_FAULTS_H__ */
