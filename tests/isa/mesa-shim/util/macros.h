/* SPDX-License-Identifier: MIT */
/*
 * Sleipnir's stand-in for the one Mesa utility header the Midgard
 * disassembler's files include for small macros. Only what those files use;
 * written for tests/isa/mesa-crosscheck.sh, not taken from Mesa.
 */
#ifndef SLEIPNIR_MESA_SHIM_MACROS_H
#define SLEIPNIR_MESA_SHIM_MACROS_H

#include <assert.h>

#define UNUSED __attribute__((unused))
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#define MIN2(a, b) ((a) < (b) ? (a) : (b))

/*
 * Code Mesa believes cannot run. Here it is reported to the cross-check
 * (like a failed assertion) and execution carries on, so that one odd
 * bundle shows up as a finding instead of ending the run.
 */
#define unreachable(why) xchk_mesa_assert_failed("unreachable: " why, __FILE__, __LINE__)

#endif
