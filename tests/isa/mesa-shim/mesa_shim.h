/* SPDX-License-Identifier: MIT */
/*
 * The cross-check's view of Mesa's Midgard disassembler (built from the
 * cached Mesa sources by tests/isa/mesa-crosscheck.sh). This header does not
 * include any Mesa header, so tests/isa/mesa_crosscheck.c compiles without
 * them; mesa_shim.c is the one file of ours compiled against Mesa's headers.
 */
#ifndef SLEIPNIR_MESA_SHIM_H
#define SLEIPNIR_MESA_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Mesa's entry point (src/panfrost/midgard/disassemble.h). */
void disassemble_midgard(FILE *fp, uint8_t *code, size_t size,
			 unsigned gpu_id, bool verbose);

/* Names from Mesa's own tables, NULL where Mesa's table has none. */
const char *xchk_mesa_alu_name(unsigned int op);
const char *xchk_mesa_ldst_name(unsigned int op);
const char *xchk_mesa_tex_name(unsigned int op);
const char *xchk_mesa_tag_name(unsigned int tag);
/* Bundle size in quadwords Mesa's disassembler takes for a tag. */
unsigned int xchk_mesa_tag_quadwords(unsigned int tag);
/* Mesa's idea of the op: integer sources. */
bool xchk_mesa_alu_int_src(unsigned int op);
/* Components a reducing op reads (OP_CHANNEL_COUNT), 0 for others. */
unsigned int xchk_mesa_alu_channels(unsigned int op);

/* Assertions and unreachable() Mesa's code hit since the last call. */
unsigned int xchk_mesa_take_asserts(char *what, size_t size);

/* The stream Mesa's stray printf() calls go to (see stdout_redirect.h). */
extern FILE *xchk_mesa_stdout;

#endif
