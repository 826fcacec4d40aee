// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: the Midgard models the driver knows, and the errata settings
 * each needs, by product id (GPU_ID[31:16], the T604's folded to 0x0600)
 * and revision range (GPU_ID[15:0]: major, minor, status).
 */
#include <linux/kernel.h>

#include "sleipnir_models.h"

struct sleipnir_model {
	u16 product;
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

struct sleipnir_quirk_entry {
	u16 product;
	u16 rev_first;
	u16 rev_last;
	u32 quirks;
};

#define Q(name)		SLEIPNIR_QUIRK_##name

/* A GPU gets the quirks of every entry that matches it. */
static const struct sleipnir_quirk_entry sleipnir_quirk_table[] = {
	/* Early parts: the load/store pause buffer misbehaves. */
	{ 0x0600, 0x0000, 0xffff, Q(LS_PAUSEBUFFER_DISABLE) },
	{ 0x0620, 0x0010, 0x0010,
	  Q(LS_PAUSEBUFFER_DISABLE) | Q(SDC_DISABLE_OQ_DISCARD) },
	/* Attribute checks: off before T76x (but T604 r0p0-01), typed after. */
	{ 0x0600, 0x0000, 0x0000, Q(LS_ATTR_CHECK_DISABLE) },
	{ 0x0600, 0x0002, 0xffff, Q(LS_ATTR_CHECK_DISABLE) },
	{ 0x0620, 0x0000, 0xffff, Q(LS_ATTR_CHECK_DISABLE) },
	{ 0x0720, 0x0000, 0xffff, Q(LS_ATTR_CHECK_DISABLE) | Q(TEXGRD_FLAGS) },
	{ 0x0750, 0x0000, 0xffff, Q(LS_ALLOW_ATTR_TYPES) | Q(TILER_CLOCK_GATE_OVERRIDE) },
	{ 0x0820, 0x0000, 0xffff, Q(LS_ALLOW_ATTR_TYPES) | Q(TILER_CLOCK_GATE_OVERRIDE) },
	{ 0x0830, 0x0000, 0xffff, Q(LS_ALLOW_ATTR_TYPES) | Q(TILER_CLOCK_GATE_OVERRIDE) },
	{ 0x0860, 0x0000, 0xffff, Q(LS_ALLOW_ATTR_TYPES) | Q(TILER_CLOCK_GATE_OVERRIDE) },
	{ 0x0880, 0x0000, 0xffff, Q(LS_ALLOW_ATTR_TYPES) | Q(TILER_CLOCK_GATE_OVERRIDE) },
	/* T86x/T88x from r2p0 on take the maximum job throttle. */
	{ 0x0860, 0x2000, 0xffff, Q(JM_MAX_THROTTLE) },
	{ 0x0880, 0x2000, 0xffff, Q(JM_MAX_THROTTLE) },
};

#undef Q

/* The marketing name, or NULL for a GPU the driver does not support. */
const char *sleipnir_model_name(u16 product)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sleipnir_models); i++) {
		if (sleipnir_models[i].product == product)
			return sleipnir_models[i].name;
	}
	return NULL;
}

u32 sleipnir_model_quirks(u16 product, u16 revision)
{
	const struct sleipnir_quirk_entry *e;
	u32 quirks = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sleipnir_quirk_table); i++) {
		e = &sleipnir_quirk_table[i];
		if (e->product == product && revision >= e->rev_first &&
		    revision <= e->rev_last)
			quirks |= e->quirks;
	}
	return quirks;
}
