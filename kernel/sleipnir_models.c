// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: the Midgard models the driver knows, and the errata settings
 * each needs, by product id (GPU_ID[31:16], the T604's folded to 0x0600)
 * and revision range (GPU_ID[15:0]: major, minor, status). The tables are
 * in sleipnir_common.h, which the host simulator uses too.
 */
#include <linux/kernel.h>

#include "sleipnir_models.h"

/* The marketing name, or NULL for a GPU the driver does not support. */
const char *sleipnir_model_name(u16 product)
{
	return sleipnir_common_model_name(product);
}

u32 sleipnir_model_quirks(u16 product, u16 revision)
{
	return sleipnir_common_model_quirks(product, revision);
}
