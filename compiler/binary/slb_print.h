/* SPDX-License-Identifier: MIT */
/*
 * Human-readable views of a program binary, shared by sleipnir-cc and
 * sleipnir-disasm: a kernel's metadata as assembler comments ("; "), its
 * static figures as ARM's Mali Offline Compiler prints them, and its code
 * as sleipnir-as text.
 */
#ifndef SLEIPNIR_SLB_PRINT_H
#define SLEIPNIR_SLB_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "slb_binary.h"

/* The launch metadata: sizes, registers, arguments, sysvals. */
void slb_print_kernel_header(FILE *out, const struct slb_kernel *k);
/* The printf call sites: format, record size, each argument's layout. */
void slb_print_printf_table(FILE *out, const struct slb_program *p);
/* Registers, spilling, threads, bundles, units and the cycle table. */
void slb_print_kernel_stats(FILE *out, const struct slb_kernel *k);
/* The disassembly; false with a message when the code does not decode. */
bool slb_print_kernel_code(FILE *out, const struct slb_program *p,
			   const struct slb_kernel *k, char *err,
			   size_t errsz);

#endif
