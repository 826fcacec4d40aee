/* SPDX-License-Identifier: MIT */
/*
 * Found before the C library's <assert.h> when Mesa's Midgard files are
 * compiled for the cross-check (-I this folder): a failed assertion is
 * recorded (mesa_shim.c) and execution carries on, so the checker can tell
 * which of our bundles Mesa's disassembler considers impossible.
 */
#ifndef SLEIPNIR_MESA_SHIM_ASSERT_H
#define SLEIPNIR_MESA_SHIM_ASSERT_H

void xchk_mesa_assert_failed(const char *what, const char *file, int line);

#define assert(cond)                                                           \
	((cond) ? (void)0 : xchk_mesa_assert_failed(#cond, __FILE__, __LINE__))

#endif
