/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: what differs between Midgard models, as data keyed by GPU_ID
 * (the tables are in sleipnir_common.h, shared with the host simulator).
 */
#ifndef __SLEIPNIR_MODELS_H__
#define __SLEIPNIR_MODELS_H__

#include <linux/types.h>

#include "sleipnir_common.h"

const char *sleipnir_model_name(u16 product);
u32 sleipnir_model_quirks(u16 product, u16 revision);

#endif /* __SLEIPNIR_MODELS_H__ */
