/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Sleipnir: what sleipnir.ko and the host simulator (userspace/sim, which
 * serves the same uapi in-process) must agree on, in plain C that both
 * compile: the driver's identity and capabilities as DRM_IOCTL_VERSION and
 * GET_PARAM report them, the GPU address range VM_MAP hands out, the job
 * timeouts, and the Midgard models the driver knows with the errata
 * settings each needs. Include <drm/sleipnir_drm.h> before it.
 */
#ifndef __SLEIPNIR_COMMON_H__
#define __SLEIPNIR_COMMON_H__

#ifdef __KERNEL__
#include <linux/kernel.h>
#else
#include <stddef.h>
/* The kernel's checks that the argument is an array; this one does not. */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#endif

#define SLEIPNIR_DRIVER_NAME	"sleipnir"
#define SLEIPNIR_DRIVER_DESC	"DRM driver for ARM Mali Midgard GPUs"
#define SLEIPNIR_DRIVER_DATE	"20261121"
#define SLEIPNIR_DRIVER_MAJOR	0
#define SLEIPNIR_DRIVER_MINOR	2

/* SLEIPNIR_PARAM_DRIVER_CAPS: everything version 0.2 offers. */
#define SLEIPNIR_CAPS	(SLEIPNIR_CAP_BO | SLEIPNIR_CAP_BO_CPU_CACHED | \
			 SLEIPNIR_CAP_USERPTR | SLEIPNIR_CAP_PRIME | \
			 SLEIPNIR_CAP_VM_MAP | SLEIPNIR_CAP_SUBMIT | \
			 SLEIPNIR_CAP_JOB_TIMEOUT | SLEIPNIR_CAP_GET_FAULT)

/* GPU addresses below this (16 MiB) are never mapped: NULL + offset faults. */
#define SLEIPNIR_VA_START	0x01000000

/* Timeout of a chain whose SUBMIT does not ask for one. */
#define SLEIPNIR_JOB_TIMEOUT_DEFAULT_MS	500
/* Default of the max_job_timeout_ms module parameter. */
#define SLEIPNIR_JOB_TIMEOUT_MAX_MS_DEFAULT	60000

/* The Mali-T604 reports an odd product id; the driver folds it to 0x0600. */
#define SLEIPNIR_PRODUCT_T604_RAW	0x6956
#define SLEIPNIR_PRODUCT_T604		0x0600

/**
 * enum sleipnir_quirk - Errata workarounds set in the *_CONFIG registers
 * before the cores are powered.
 */
enum sleipnir_quirk {
	/** @SLEIPNIR_QUIRK_LS_PAUSEBUFFER_DISABLE: SHADER_CONFIG bit 16. */
	SLEIPNIR_QUIRK_LS_PAUSEBUFFER_DISABLE	= 1u << 0,
	/** @SLEIPNIR_QUIRK_SDC_DISABLE_OQ_DISCARD: SHADER_CONFIG bit 6. */
	SLEIPNIR_QUIRK_SDC_DISABLE_OQ_DISCARD	= 1u << 1,
	/** @SLEIPNIR_QUIRK_TEXGRD_FLAGS: SHADER_CONFIG bit 25. */
	SLEIPNIR_QUIRK_TEXGRD_FLAGS		= 1u << 2,
	/** @SLEIPNIR_QUIRK_LS_ATTR_CHECK_DISABLE: SHADER_CONFIG bit 18. */
	SLEIPNIR_QUIRK_LS_ATTR_CHECK_DISABLE	= 1u << 3,
	/** @SLEIPNIR_QUIRK_LS_ALLOW_ATTR_TYPES: SHADER_CONFIG bit 16. */
	SLEIPNIR_QUIRK_LS_ALLOW_ATTR_TYPES	= 1u << 4,
	/** @SLEIPNIR_QUIRK_TILER_CLOCK_GATE_OVERRIDE: TILER_CONFIG bit 0. */
	SLEIPNIR_QUIRK_TILER_CLOCK_GATE_OVERRIDE = 1u << 5,
	/** @SLEIPNIR_QUIRK_JM_MAX_THROTTLE: JM_CONFIG throttle at maximum. */
	SLEIPNIR_QUIRK_JM_MAX_THROTTLE		= 1u << 6,
	/**
	 * @SLEIPNIR_QUIRK_JS_START_MMU: JS_CONFIG bit 10 on every chain (MMU
	 * TLB invalidation hazard, erratum 10649 of T60x/T62x/T72x).
	 */
	SLEIPNIR_QUIRK_JS_START_MMU		= 1u << 7,
};

/**
 * struct sleipnir_model - A Midgard model the driver supports.
 */
struct sleipnir_model {
	/** @product: GPU_ID[31:16], the T604's folded to 0x0600. */
	unsigned short product;
	/** @name: marketing name, e.g. "T860". */
	const char *name;
};

static const struct sleipnir_model sleipnir_models[] = {
	{ 0x0600, "T604" },
	{ 0x0620, "T62x" },
	{ 0x0720, "T720" },
	{ 0x0750, "T760" },
	{ 0x0820, "T820" },
	{ 0x0830, "T830" },
	{ 0x0860, "T860" },
	{ 0x0880, "T880" },
};

/**
 * struct sleipnir_quirk_entry - Quirks of a product's revision range.
 */
struct sleipnir_quirk_entry {
	/** @product: GPU_ID[31:16], the T604's folded to 0x0600. */
	unsigned short product;
	/** @rev_first: first revision (GPU_ID[15:0]) the entry covers. */
	unsigned short rev_first;
	/** @rev_last: last revision the entry covers. */
	unsigned short rev_last;
	/** @quirks: enum sleipnir_quirk bits. */
	unsigned int quirks;
};

#define SLEIPNIR_Q(name)	SLEIPNIR_QUIRK_##name

/*
 * A GPU gets the quirks of every entry that matches it. A revision is
 * major and minor with any status (GPU_ID[3:0]): r0p1 is 0x0010..0x001f.
 */
static const struct sleipnir_quirk_entry sleipnir_quirk_table[] = {
	/* Early parts: the load/store pause buffer misbehaves. */
	{ 0x0600, 0x0000, 0xffff, SLEIPNIR_Q(LS_PAUSEBUFFER_DISABLE) },
	{ 0x0620, 0x0010, 0x001f,
	  SLEIPNIR_Q(LS_PAUSEBUFFER_DISABLE) |
	  SLEIPNIR_Q(SDC_DISABLE_OQ_DISCARD) },
	/* Before T76x, the MMU must be updated as each chain starts. */
	{ 0x0600, 0x0000, 0xffff, SLEIPNIR_Q(JS_START_MMU) },
	{ 0x0620, 0x0000, 0xffff, SLEIPNIR_Q(JS_START_MMU) },
	{ 0x0720, 0x0000, 0xffff, SLEIPNIR_Q(JS_START_MMU) },
	/* Attribute checks: off before T76x (but T604 r0p0-01), typed after. */
	{ 0x0600, 0x0000, 0x0000, SLEIPNIR_Q(LS_ATTR_CHECK_DISABLE) },
	{ 0x0600, 0x0002, 0xffff, SLEIPNIR_Q(LS_ATTR_CHECK_DISABLE) },
	{ 0x0620, 0x0000, 0xffff, SLEIPNIR_Q(LS_ATTR_CHECK_DISABLE) },
	{ 0x0720, 0x0000, 0xffff,
	  SLEIPNIR_Q(LS_ATTR_CHECK_DISABLE) | SLEIPNIR_Q(TEXGRD_FLAGS) },
	{ 0x0750, 0x0000, 0xffff,
	  SLEIPNIR_Q(LS_ALLOW_ATTR_TYPES) |
	  SLEIPNIR_Q(TILER_CLOCK_GATE_OVERRIDE) },
	{ 0x0820, 0x0000, 0xffff,
	  SLEIPNIR_Q(LS_ALLOW_ATTR_TYPES) |
	  SLEIPNIR_Q(TILER_CLOCK_GATE_OVERRIDE) },
	{ 0x0830, 0x0000, 0xffff,
	  SLEIPNIR_Q(LS_ALLOW_ATTR_TYPES) |
	  SLEIPNIR_Q(TILER_CLOCK_GATE_OVERRIDE) },
	{ 0x0860, 0x0000, 0xffff,
	  SLEIPNIR_Q(LS_ALLOW_ATTR_TYPES) |
	  SLEIPNIR_Q(TILER_CLOCK_GATE_OVERRIDE) },
	{ 0x0880, 0x0000, 0xffff,
	  SLEIPNIR_Q(LS_ALLOW_ATTR_TYPES) |
	  SLEIPNIR_Q(TILER_CLOCK_GATE_OVERRIDE) },
	/* T86x/T88x from r2p0 on take the maximum job throttle. */
	{ 0x0860, 0x2000, 0xffff, SLEIPNIR_Q(JM_MAX_THROTTLE) },
	{ 0x0880, 0x2000, 0xffff, SLEIPNIR_Q(JM_MAX_THROTTLE) },
};

#undef SLEIPNIR_Q

/* The marketing name, or NULL for a GPU the driver does not support. */
static inline const char *sleipnir_common_model_name(unsigned short product)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sleipnir_models); i++) {
		if (sleipnir_models[i].product == product)
			return sleipnir_models[i].name;
	}
	return NULL;
}

/* The enum sleipnir_quirk bits that apply to a product and revision. */
static inline unsigned int
sleipnir_common_model_quirks(unsigned short product, unsigned short revision)
{
	const struct sleipnir_quirk_entry *e;
	unsigned int quirks = 0, i;

	for (i = 0; i < ARRAY_SIZE(sleipnir_quirk_table); i++) {
		e = &sleipnir_quirk_table[i];
		if (e->product == product && revision >= e->rev_first &&
		    revision <= e->rev_last)
			quirks |= e->quirks;
	}
	return quirks;
}

#endif /* __SLEIPNIR_COMMON_H__ */
