/* SPDX-License-Identifier: MIT */
/* Sleipnir's stand-in: the bit counting the Midgard disassembler uses. */
#ifndef SLEIPNIR_MESA_SHIM_BITSCAN_H
#define SLEIPNIR_MESA_SHIM_BITSCAN_H

static inline unsigned int util_bitcount(unsigned int v)
{
	return (unsigned int)__builtin_popcount(v);
}

#endif
