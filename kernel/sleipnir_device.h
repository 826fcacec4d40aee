/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: per-GPU state shared by all parts of the driver.
 */
#ifndef __SLEIPNIR_DEVICE_H__
#define __SLEIPNIR_DEVICE_H__

#include <linux/io.h>
#include <linux/types.h>

#include <drm/drm_device.h>

#include "sleipnir_regs.h"

struct clk;
struct reset_control;

/**
 * struct sleipnir_features - What the GPU reports about itself.
 *
 * Read once at probe, after a soft reset. The raw register values are kept
 * as they are exported through DRM_IOCTL_SLEIPNIR_GET_PARAM.
 */
struct sleipnir_features {
	/** @gpu_id: GPU_ID register as read. */
	u32 gpu_id;
	/** @product: product id, with the T604 oddity folded to 0x0600. */
	u16 product;
	/** @revision: GPU_ID[15:0] (major, minor, status). */
	u16 revision;

	/** @l2_features: L2_FEATURES register. */
	u32 l2_features;
	/** @core_features: CORE_FEATURES register. */
	u32 core_features;
	/** @tiler_features: TILER_FEATURES register. */
	u32 tiler_features;
	/** @mem_features: MEM_FEATURES register. */
	u32 mem_features;
	/** @mmu_features: MMU_FEATURES register. */
	u32 mmu_features;
	/** @thread_features: THREAD_FEATURES register. */
	u32 thread_features;
	/** @thread_max_threads: THREAD_MAX_THREADS register. */
	u32 thread_max_threads;
	/** @thread_max_workgroup_size: THREAD_MAX_WORKGROUP_SIZE register. */
	u32 thread_max_workgroup_size;
	/** @thread_max_barrier_size: THREAD_MAX_BARRIER_SIZE register. */
	u32 thread_max_barrier_size;
	/** @thread_tls_alloc: THREAD_TLS_ALLOC register. */
	u32 thread_tls_alloc;
	/** @coherency_features: COHERENCY_FEATURES register. */
	u32 coherency_features;
	/** @texture_features: TEXTURE_FEATURES0..3 registers. */
	u32 texture_features[SLP_TEXTURE_FEATURES_COUNT];
	/** @js_features: JS_FEATURES of each present slot, 0 for others. */
	u32 js_features[SLP_JS_COUNT_MAX];

	/** @as_present: bitmap of MMU address spaces. */
	u32 as_present;
	/** @js_present: bitmap of job slots. */
	u32 js_present;
	/** @shader_present: bitmap of shader cores. */
	u64 shader_present;
	/** @tiler_present: bitmap of tilers. */
	u64 tiler_present;
	/** @l2_present: bitmap of L2 caches, one per core group. */
	u64 l2_present;
};

/**
 * struct sleipnir_device - One Midgard GPU.
 */
struct sleipnir_device {
	/** @ddev: the DRM device; embedded, allocated by devm_drm_dev_alloc. */
	struct drm_device ddev;
	/** @dev: the platform device's struct device. */
	struct device *dev;
	/** @iomem: the 64 KiB register window. */
	void __iomem *iomem;
	/** @clock: the GPU core clock (first clock of the node). */
	struct clk *clock;
	/** @bus_clock: optional "bus" clock, NULL when absent. */
	struct clk *bus_clock;
	/** @rstc: optional reset lines, NULL when absent. */
	struct reset_control *rstc;

	/** @irq_job: the "job" interrupt. */
	int irq_job;
	/** @irq_mmu: the "mmu" interrupt. */
	int irq_mmu;
	/** @irq_gpu: the "gpu" interrupt. */
	int irq_gpu;

	/** @model_name: marketing name, e.g. "T860". */
	const char *model_name;
	/** @features: what the GPU reports; constant after probe. */
	struct sleipnir_features features;
	/** @core_mask: shader cores in use (the first core group). */
	u64 core_mask;
};

static inline struct sleipnir_device *to_sleipnir_device(struct drm_device *ddev)
{
	return container_of(ddev, struct sleipnir_device, ddev);
}

static inline u32 sleipnir_read(struct sleipnir_device *sdev, u32 reg)
{
	return readl(sdev->iomem + reg);
}

static inline void sleipnir_write(struct sleipnir_device *sdev, u32 reg,
				  u32 val)
{
	writel(val, sdev->iomem + reg);
}

/* Reads a 64-bit quantity split over a _LO and a _HI register. */
static inline u64 sleipnir_read64(struct sleipnir_device *sdev, u32 reg_lo)
{
	return sleipnir_read(sdev, reg_lo) |
	       ((u64)sleipnir_read(sdev, reg_lo + 4) << 32);
}

int sleipnir_device_init(struct sleipnir_device *sdev);

#endif /* __SLEIPNIR_DEVICE_H__ */
