/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Sleipnir: the values the driver programs into the GPU: the errata
 * settings of the *_CONFIG registers, the JS_CONFIG a chain starts with,
 * the job and MMU interrupt masks of the slots and address spaces in use,
 * and the LOCKADDR region of an MMU flush. Plain C over <linux/types.h>,
 * so that sleipnir.ko and the host simulator (userspace/sim, which drives
 * the GPU model through the same registers) write the same values.
 */
#ifndef __SLEIPNIR_HWCFG_H__
#define __SLEIPNIR_HWCFG_H__

#include <linux/types.h>
#ifdef __KERNEL__
#include <linux/bits.h>
#elif !defined(BIT)
/* The kernel's single-bit mask. */
#define BIT(nr)	(1ul << (nr))
#endif

#include "sleipnir_common.h"

/* SHADER_CONFIG bits the errata settings use. */
#define SLP_SC_SDC_DISABLE_OQ_DISCARD	BIT(6)
#define SLP_SC_LS_PAUSEBUFFER_DISABLE	BIT(16)
#define SLP_SC_LS_ALLOW_ATTR_TYPES	BIT(16)
#define SLP_SC_LS_ATTR_CHECK_DISABLE	BIT(18)
#define SLP_SC_ENABLE_TEXGRD_FLAGS	BIT(25)
/* TILER_CONFIG. */
#define SLP_TC_CLOCK_GATE_OVERRIDE	BIT(0)
/* JM_CONFIG: the job manager's throttle, bits [8:3]. */
#define SLP_JM_THROTTLE_LIMIT		(0x3fu << 3)

/* SHADER_CONFIG for enum sleipnir_quirk bits; 0 means "leave it". */
static inline __u32 sleipnir_quirk_shader_config(__u32 quirks)
{
	__u32 shader = 0;

	if (quirks & SLEIPNIR_QUIRK_LS_PAUSEBUFFER_DISABLE)
		shader |= SLP_SC_LS_PAUSEBUFFER_DISABLE;
	if (quirks & SLEIPNIR_QUIRK_SDC_DISABLE_OQ_DISCARD)
		shader |= SLP_SC_SDC_DISABLE_OQ_DISCARD;
	if (quirks & SLEIPNIR_QUIRK_TEXGRD_FLAGS)
		shader |= SLP_SC_ENABLE_TEXGRD_FLAGS;
	if (quirks & SLEIPNIR_QUIRK_LS_ATTR_CHECK_DISABLE)
		shader |= SLP_SC_LS_ATTR_CHECK_DISABLE;
	if (quirks & SLEIPNIR_QUIRK_LS_ALLOW_ATTR_TYPES)
		shader |= SLP_SC_LS_ALLOW_ATTR_TYPES;
	return shader;
}

/* TILER_CONFIG from its reset value @tiler and the quirks. */
static inline __u32 sleipnir_quirk_tiler_config(__u32 tiler, __u32 quirks)
{
	if (quirks & SLEIPNIR_QUIRK_TILER_CLOCK_GATE_OVERRIDE)
		tiler |= SLP_TC_CLOCK_GATE_OVERRIDE;
	return tiler;
}

/* JM_CONFIG with SLEIPNIR_QUIRK_JM_MAX_THROTTLE: the largest throttle. */
#define SLP_JM_CONFIG_MAX_THROTTLE	SLP_JM_THROTTLE_LIMIT

/* JS_CONFIG(_NEXT): address space in [3:0], cache flushes, priority. */
#define SLP_JS_CONFIG_AS			0xfu
#define SLP_JS_CONFIG_START_FLUSH_CLEAN_INV	(3u << 8)
#define SLP_JS_CONFIG_START_MMU			BIT(10)
#define SLP_JS_CONFIG_END_FLUSH_CLEAN_INV	(3u << 12)
#define SLP_JS_CONFIG_THREAD_PRI_SHIFT		16

/*
 * The JS_CONFIG of every chain: its VM's address space, the caches cleaned
 * and invalidated before it and cleaned after it (so CPU and GPU see each
 * other's writes), middle thread priority.
 */
static inline __u32 sleipnir_js_config(unsigned int as)
{
	return (as & SLP_JS_CONFIG_AS) | SLP_JS_CONFIG_START_FLUSH_CLEAN_INV |
	       SLP_JS_CONFIG_END_FLUSH_CLEAN_INV |
	       8u << SLP_JS_CONFIG_THREAD_PRI_SHIFT;
}

/*
 * sleipnir_js_config() with what the GPU's errata settings (@quirks) add:
 * START_MMU on T60x/T62x/T72x. What a chain is started with.
 */
static inline __u32 sleipnir_js_config_quirks(unsigned int as, __u32 quirks)
{
	__u32 cfg = sleipnir_js_config(as);

	if (quirks & SLEIPNIR_QUIRK_JS_START_MMU)
		cfg |= SLP_JS_CONFIG_START_MMU;
	return cfg;
}

/*
 * JOB_INT_* and MMU_INT_* have bit n (done, page fault) and bit 16 + n
 * (failed, other fault) for slot or address space n: the mask of the
 * @count units in use (at most 16).
 */
static inline __u32 sleipnir_unit_irq_mask(unsigned int count)
{
	__u32 units = count >= 16 ? 0xffff : (1u << count) - 1;

	return units | units << 16;
}

/* The units a JOB_INT_* or MMU_INT_* status names, of the @count in use. */
static inline __u32 sleipnir_irq_units(__u32 status, unsigned int count)
{
	return (status | status >> 16) & (sleipnir_unit_irq_mask(count) & 0xffff);
}

/* Smallest region LOCK can cover: 32 KiB. */
#define SLP_AS_LOCK_REGION_MIN_SHIFT	15

/*
 * AS_LOCKADDR for a flush of [@iova, @iova + @size): LOCK takes a naturally
 * aligned power-of-two region, its log2 size minus one in the low bits, at
 * least the 32 KiB minimum.
 */
static inline __u64 sleipnir_as_lockaddr(__u64 iova, __u64 size)
{
	__u64 diff = iova ^ (iova + size - 1);
	unsigned int width = 0;

	for (; diff; diff >>= 1)
		width++;
	if (width < SLP_AS_LOCK_REGION_MIN_SHIFT)
		width = SLP_AS_LOCK_REGION_MIN_SHIFT;
	if (width < 64)
		iova &= ~(((__u64)1 << width) - 1);
	else
		iova = 0;
	return iova | (width - 1);
}

#endif /* __SLEIPNIR_HWCFG_H__ */
