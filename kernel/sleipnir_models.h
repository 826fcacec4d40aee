/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: what differs between Midgard models, as data keyed by GPU_ID.
 */
#ifndef __SLEIPNIR_MODELS_H__
#define __SLEIPNIR_MODELS_H__

#include <linux/bits.h>
#include <linux/types.h>

/**
 * enum sleipnir_quirk - Errata workarounds set in the *_CONFIG registers
 * before the cores are powered.
 */
enum sleipnir_quirk {
	/** @SLEIPNIR_QUIRK_LS_PAUSEBUFFER_DISABLE: SHADER_CONFIG bit 16. */
	SLEIPNIR_QUIRK_LS_PAUSEBUFFER_DISABLE	= BIT(0),
	/** @SLEIPNIR_QUIRK_SDC_DISABLE_OQ_DISCARD: SHADER_CONFIG bit 6. */
	SLEIPNIR_QUIRK_SDC_DISABLE_OQ_DISCARD	= BIT(1),
	/** @SLEIPNIR_QUIRK_TEXGRD_FLAGS: SHADER_CONFIG bit 25. */
	SLEIPNIR_QUIRK_TEXGRD_FLAGS		= BIT(2),
	/** @SLEIPNIR_QUIRK_LS_ATTR_CHECK_DISABLE: SHADER_CONFIG bit 18. */
	SLEIPNIR_QUIRK_LS_ATTR_CHECK_DISABLE	= BIT(3),
	/** @SLEIPNIR_QUIRK_LS_ALLOW_ATTR_TYPES: SHADER_CONFIG bit 16. */
	SLEIPNIR_QUIRK_LS_ALLOW_ATTR_TYPES	= BIT(4),
	/** @SLEIPNIR_QUIRK_TILER_CLOCK_GATE_OVERRIDE: TILER_CONFIG bit 0. */
	SLEIPNIR_QUIRK_TILER_CLOCK_GATE_OVERRIDE = BIT(5),
	/** @SLEIPNIR_QUIRK_JM_MAX_THROTTLE: JM_CONFIG throttle at maximum. */
	SLEIPNIR_QUIRK_JM_MAX_THROTTLE		= BIT(6),
};

const char *sleipnir_model_name(u16 product);
u32 sleipnir_model_quirks(u16 product, u16 revision);

#endif /* __SLEIPNIR_MODELS_H__ */
