/* SPDX-License-Identifier: MIT */
/* Sleipnir's stand-in: the few integer helpers the Midgard files use. */
#ifndef SLEIPNIR_MESA_SHIM_U_MATH_H
#define SLEIPNIR_MESA_SHIM_U_MATH_H

#include <math.h>
#include <stdint.h>

#include "util/bitscan.h"

/* floor(log2(v)); 0 for 0. */
static inline unsigned int util_logbase2(unsigned int v)
{
	return v ? 31u - (unsigned int)__builtin_clz(v) : 0u;
}

/* The low width bits of v as a two's complement number. */
static inline int64_t util_sign_extend(uint64_t v, unsigned int width)
{
	uint64_t sign = 1ull << (width - 1);

	v &= (sign << 1) - 1;
	return (int64_t)(v ^ sign) - (int64_t)sign;
}

#endif
