/* SPDX-License-Identifier: MIT */
/*
 * Forced in front of Mesa's Midgard files (-include) for the cross-check.
 * One path of Mesa's constant printer writes with printf() instead of to the
 * disassembler's stream; this sends such output to the stream being
 * captured (xchk_mesa_stdout, set by the checker) so it lands in place.
 */
#ifndef SLEIPNIR_MESA_SHIM_STDOUT_REDIRECT_H
#define SLEIPNIR_MESA_SHIM_STDOUT_REDIRECT_H

#include <stdio.h>

extern FILE *xchk_mesa_stdout;

#define printf(...) fprintf(xchk_mesa_stdout ? xchk_mesa_stdout : stdout, __VA_ARGS__)

#endif
