/* SPDX-License-Identifier: MIT */
/* Sleipnir's stand-in: fp16 -> float (mesa_shim.c), nothing else. */
#ifndef SLEIPNIR_MESA_SHIM_HALF_FLOAT_H
#define SLEIPNIR_MESA_SHIM_HALF_FLOAT_H

#include <stdint.h>

float _mesa_half_to_float(uint16_t h);

#endif
