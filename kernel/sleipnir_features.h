/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Sleipnir: what a Midgard GPU reports about itself, how the driver reads
 * it at probe and what DRM_IOCTL_SLEIPNIR_GET_PARAM derives from it. Plain
 * C over the uapi's types, so that sleipnir.ko and the host simulator
 * (userspace/sim, which drives the GPU model through the same registers)
 * read the same registers and answer GET_PARAM with the same values.
 */
#ifndef __SLEIPNIR_FEATURES_H__
#define __SLEIPNIR_FEATURES_H__

#include <linux/errno.h>
#include <linux/types.h>
#ifndef __KERNEL__
#include <stdbool.h>
#endif

#include <drm/sleipnir_drm.h>

#include "sleipnir_common.h"

/* The identification and feature registers (read-only, fixed at reset). */
#define SLP_GPU_ID			0x000
#define SLP_GPU_L2_FEATURES		0x004
#define SLP_GPU_CORE_FEATURES		0x008
#define SLP_GPU_TILER_FEATURES		0x00c
#define SLP_GPU_MEM_FEATURES		0x010
#define SLP_GPU_MMU_FEATURES		0x014
#define SLP_GPU_AS_PRESENT		0x018
#define SLP_GPU_JS_PRESENT		0x01c
#define SLP_GPU_THREAD_MAX_THREADS	0x0a0
#define SLP_GPU_THREAD_MAX_WG_SIZE	0x0a4
#define SLP_GPU_THREAD_MAX_BARRIER_SIZE	0x0a8
#define SLP_GPU_THREAD_FEATURES		0x0ac
#define SLP_GPU_TEXTURE_FEATURES(n)	(0x0b0 + 4 * (n))
#define   SLP_TEXTURE_FEATURES_COUNT	4
#define SLP_GPU_JS_FEATURES(n)		(0x0c0 + 4 * (n))
#define   SLP_JS_COUNT_MAX		16
#define SLP_GPU_SHADER_PRESENT_LO	0x100
#define SLP_GPU_SHADER_PRESENT_HI	0x104
#define SLP_GPU_TILER_PRESENT_LO	0x110
#define SLP_GPU_TILER_PRESENT_HI	0x114
#define SLP_GPU_L2_PRESENT_LO		0x120
#define SLP_GPU_L2_PRESENT_HI		0x124
#define SLP_GPU_COHERENCY_FEATURES	0x300
#define SLP_GPU_THREAD_TLS_ALLOC	0x310

/* Hardware address spaces the MMU register block has room for. */
#define SLP_AS_COUNT_MAX		16

/**
 * struct sleipnir_features - What the GPU reports about itself.
 *
 * Read once at probe, after a soft reset. The raw register values are kept
 * as they are exported through DRM_IOCTL_SLEIPNIR_GET_PARAM.
 */
struct sleipnir_features {
	/** @gpu_id: GPU_ID register as read. */
	__u32 gpu_id;
	/** @product: product id, with the T604 oddity folded to 0x0600. */
	__u16 product;
	/** @revision: GPU_ID[15:0] (major, minor, status). */
	__u16 revision;

	/** @l2_features: L2_FEATURES register. */
	__u32 l2_features;
	/** @core_features: CORE_FEATURES register. */
	__u32 core_features;
	/** @tiler_features: TILER_FEATURES register. */
	__u32 tiler_features;
	/** @mem_features: MEM_FEATURES register. */
	__u32 mem_features;
	/** @mmu_features: MMU_FEATURES register. */
	__u32 mmu_features;
	/** @thread_features: THREAD_FEATURES register. */
	__u32 thread_features;
	/** @thread_max_threads: THREAD_MAX_THREADS register. */
	__u32 thread_max_threads;
	/** @thread_max_workgroup_size: THREAD_MAX_WORKGROUP_SIZE register. */
	__u32 thread_max_workgroup_size;
	/** @thread_max_barrier_size: THREAD_MAX_BARRIER_SIZE register. */
	__u32 thread_max_barrier_size;
	/** @thread_tls_alloc: THREAD_TLS_ALLOC register. */
	__u32 thread_tls_alloc;
	/** @coherency_features: COHERENCY_FEATURES register. */
	__u32 coherency_features;
	/** @texture_features: TEXTURE_FEATURES0..3 registers. */
	__u32 texture_features[SLP_TEXTURE_FEATURES_COUNT];
	/** @js_features: JS_FEATURES of each present slot, 0 for others. */
	__u32 js_features[SLP_JS_COUNT_MAX];

	/** @as_present: bitmap of MMU address spaces. */
	__u32 as_present;
	/** @js_present: bitmap of job slots. */
	__u32 js_present;
	/** @shader_present: bitmap of shader cores. */
	__u64 shader_present;
	/** @tiler_present: bitmap of tilers. */
	__u64 tiler_present;
	/** @l2_present: bitmap of L2 caches, one per core group. */
	__u64 l2_present;
};

/* Bits set in @v (the kernel's hweight64, which userspace lacks). */
static inline unsigned int sleipnir_bit_count(__u64 v)
{
	unsigned int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* Bits set in a present mask, at most @max (the units the driver uses). */
static inline unsigned int sleipnir_present_count(__u64 present,
						  unsigned int max)
{
	unsigned int n = sleipnir_bit_count(present);

	return n < max ? n : max;
}

/* GPU_ID[31:16], the T604's odd product id folded to 0x0600. */
static inline __u16 sleipnir_gpu_product(__u32 gpu_id)
{
	__u16 product = (__u16)(gpu_id >> 16);

	return product == SLEIPNIR_PRODUCT_T604_RAW ? SLEIPNIR_PRODUCT_T604 :
						      product;
}

/**
 * sleipnir_features_read() - Reads the feature registers in the driver's
 * order.
 * @f: filled in; js_features of absent slots are left as they are.
 * @read: reads the 32-bit register at a byte offset.
 * @ctx: passed to @read.
 */
static inline void sleipnir_features_read(struct sleipnir_features *f,
					  __u32 (*read)(void *ctx, __u32 reg),
					  void *ctx)
{
	unsigned int i, num_js;

	f->l2_features = read(ctx, SLP_GPU_L2_FEATURES);
	f->core_features = read(ctx, SLP_GPU_CORE_FEATURES);
	f->tiler_features = read(ctx, SLP_GPU_TILER_FEATURES);
	f->mem_features = read(ctx, SLP_GPU_MEM_FEATURES);
	f->mmu_features = read(ctx, SLP_GPU_MMU_FEATURES);
	f->thread_features = read(ctx, SLP_GPU_THREAD_FEATURES);
	f->thread_max_threads = read(ctx, SLP_GPU_THREAD_MAX_THREADS);
	f->thread_max_workgroup_size = read(ctx, SLP_GPU_THREAD_MAX_WG_SIZE);
	f->thread_max_barrier_size = read(ctx, SLP_GPU_THREAD_MAX_BARRIER_SIZE);
	f->coherency_features = read(ctx, SLP_GPU_COHERENCY_FEATURES);
	for (i = 0; i < SLP_TEXTURE_FEATURES_COUNT; i++)
		f->texture_features[i] = read(ctx, SLP_GPU_TEXTURE_FEATURES(i));

	f->as_present = read(ctx, SLP_GPU_AS_PRESENT);
	f->js_present = read(ctx, SLP_GPU_JS_PRESENT);
	num_js = sleipnir_present_count(f->js_present, SLP_JS_COUNT_MAX);
	for (i = 0; i < num_js; i++)
		f->js_features[i] = read(ctx, SLP_GPU_JS_FEATURES(i));

	f->shader_present = read(ctx, SLP_GPU_SHADER_PRESENT_LO) |
			    (__u64)read(ctx, SLP_GPU_SHADER_PRESENT_HI) << 32;
	f->tiler_present = read(ctx, SLP_GPU_TILER_PRESENT_LO) |
			   (__u64)read(ctx, SLP_GPU_TILER_PRESENT_HI) << 32;
	f->l2_present = read(ctx, SLP_GPU_L2_PRESENT_LO) |
			(__u64)read(ctx, SLP_GPU_L2_PRESENT_HI) << 32;
	f->thread_tls_alloc = read(ctx, SLP_GPU_THREAD_TLS_ALLOC);

	f->gpu_id = read(ctx, SLP_GPU_ID);
	f->revision = f->gpu_id & 0xffff;
	f->product = sleipnir_gpu_product(f->gpu_id);
}

/*
 * Shader cores to power: all of them with one core group; otherwise only the
 * first group, i.e. the cores below the second L2 cache's bit.
 */
static inline __u64 sleipnir_core_mask(__u64 l2_present)
{
	__u64 others = l2_present & (l2_present - 1);

	if (!others)
		return ~(__u64)0;
	return (others & -others) - 1;
}

/* GPU virtual address bits, MMU_FEATURES[7:0]. */
static inline unsigned int sleipnir_va_bits(__u32 mmu_features)
{
	return mmu_features & 0xff;
}

/* Physical address bits, MMU_FEATURES[15:8]. */
static inline unsigned int sleipnir_pa_bits(__u32 mmu_features)
{
	return (mmu_features >> 8) & 0xff;
}

/* One past the highest GPU virtual address the MMU translates. */
static inline __u64 sleipnir_features_va_end(const struct sleipnir_features *f)
{
	return (__u64)1 << sleipnir_va_bits(f->mmu_features);
}

/**
 * struct sleipnir_param_state - What GET_PARAM reports besides registers.
 */
struct sleipnir_param_state {
	/** @core_mask: shader cores in use (sleipnir_core_mask()). */
	__u64 core_mask;
	/** @js_count: job slots in use. */
	unsigned int js_count;
	/** @as_count: hardware address spaces in use. */
	unsigned int as_count;
	/** @timestamp_hz: the system counter's frequency. */
	__u32 timestamp_hz;
	/** @max_job_timeout_ms: the max_job_timeout_ms module parameter. */
	unsigned int max_job_timeout_ms;
	/** @coherent: the GPU snoops the CPU caches (dma-coherent). */
	bool coherent;
};

/* Parameters that are not a register read at probe. */
static inline int sleipnir_derived_param(const struct sleipnir_features *f,
					 const struct sleipnir_param_state *s,
					 __u32 param, __u64 *value)
{
	switch (param) {
	case SLEIPNIR_PARAM_GPU_REVISION:
		*value = f->revision;
		break;
	case SLEIPNIR_PARAM_SHADER_CORE_MASK:
		*value = f->shader_present & s->core_mask;
		break;
	case SLEIPNIR_PARAM_SHADER_CORE_COUNT:
		*value = sleipnir_bit_count(f->shader_present & s->core_mask);
		break;
	case SLEIPNIR_PARAM_CORE_GROUP_COUNT:
		*value = sleipnir_bit_count(f->l2_present);
		break;
	case SLEIPNIR_PARAM_THREAD_MAX_REGISTERS:
		*value = f->thread_features & 0xffff;
		break;
	case SLEIPNIR_PARAM_L2_SIZE:
		*value = (__u64)1 << ((f->l2_features >> 16) & 0xff);
		break;
	case SLEIPNIR_PARAM_AS_COUNT:
		*value = s->as_count;
		break;
	case SLEIPNIR_PARAM_JS_COUNT:
		*value = s->js_count;
		break;
	case SLEIPNIR_PARAM_TIMESTAMP_FREQUENCY:
		*value = s->timestamp_hz;
		break;
	case SLEIPNIR_PARAM_DRIVER_CAPS:
		*value = SLEIPNIR_CAPS;
		break;
	case SLEIPNIR_PARAM_COHERENT:
		*value = s->coherent;
		break;
	case SLEIPNIR_PARAM_VA_START:
		*value = SLEIPNIR_VA_START;
		break;
	case SLEIPNIR_PARAM_VA_END:
		*value = sleipnir_features_va_end(f);
		break;
	case SLEIPNIR_PARAM_JOB_TIMEOUT_DEFAULT_MS:
		*value = SLEIPNIR_JOB_TIMEOUT_DEFAULT_MS;
		break;
	case SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS:
		*value = s->max_job_timeout_ms ? s->max_job_timeout_ms : 1;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/**
 * sleipnir_param_value() - The value DRM_IOCTL_SLEIPNIR_GET_PARAM reports.
 * @f: the GPU's features.
 * @s: the driver's state.
 * @param: enum drm_sleipnir_param.
 * @value: set on success, untouched on error.
 *
 * Return: 0, or -EINVAL for a parameter this driver version does not know.
 */
static inline int sleipnir_param_value(const struct sleipnir_features *f,
				       const struct sleipnir_param_state *s,
				       __u32 param, __u64 *value)
{
	switch (param) {
	case SLEIPNIR_PARAM_GPU_ID:
		*value = f->gpu_id;
		break;
	case SLEIPNIR_PARAM_SHADER_PRESENT:
		*value = f->shader_present;
		break;
	case SLEIPNIR_PARAM_L2_PRESENT:
		*value = f->l2_present;
		break;
	case SLEIPNIR_PARAM_AS_PRESENT:
		*value = f->as_present;
		break;
	case SLEIPNIR_PARAM_JS_PRESENT:
		*value = f->js_present;
		break;
	case SLEIPNIR_PARAM_TILER_PRESENT:
		*value = f->tiler_present;
		break;
	case SLEIPNIR_PARAM_L2_FEATURES:
		*value = f->l2_features;
		break;
	case SLEIPNIR_PARAM_CORE_FEATURES:
		*value = f->core_features;
		break;
	case SLEIPNIR_PARAM_TILER_FEATURES:
		*value = f->tiler_features;
		break;
	case SLEIPNIR_PARAM_MEM_FEATURES:
		*value = f->mem_features;
		break;
	case SLEIPNIR_PARAM_MMU_FEATURES:
		*value = f->mmu_features;
		break;
	case SLEIPNIR_PARAM_THREAD_FEATURES:
		*value = f->thread_features;
		break;
	case SLEIPNIR_PARAM_THREAD_MAX_THREADS:
		*value = f->thread_max_threads;
		break;
	case SLEIPNIR_PARAM_THREAD_MAX_WORKGROUP_SIZE:
		*value = f->thread_max_workgroup_size;
		break;
	case SLEIPNIR_PARAM_THREAD_MAX_BARRIER_SIZE:
		*value = f->thread_max_barrier_size;
		break;
	case SLEIPNIR_PARAM_THREAD_TLS_ALLOC:
		*value = f->thread_tls_alloc;
		break;
	case SLEIPNIR_PARAM_COHERENCY_FEATURES:
		*value = f->coherency_features;
		break;
	default:
		if (param >= SLEIPNIR_PARAM_TEXTURE_FEATURES0 &&
		    param <= SLEIPNIR_PARAM_TEXTURE_FEATURES3) {
			*value = f->texture_features[param -
					SLEIPNIR_PARAM_TEXTURE_FEATURES0];
			break;
		}
		if (param >= SLEIPNIR_PARAM_JS_FEATURES0 &&
		    param <= SLEIPNIR_PARAM_JS_FEATURES15) {
			*value = f->js_features[param -
					SLEIPNIR_PARAM_JS_FEATURES0];
			break;
		}
		return sleipnir_derived_param(f, s, param, value);
	}
	return 0;
}

#endif /* __SLEIPNIR_FEATURES_H__ */
