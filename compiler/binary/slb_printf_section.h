/* SPDX-License-Identifier: MIT */
/*
 * The `.sleipnir.printf` section (slb_printf.c), for slb_binary.c: the
 * writer and the reader of a program's printf table.
 */
#ifndef SLEIPNIR_SLB_PRINTF_SECTION_H
#define SLEIPNIR_SLB_PRINTF_SECTION_H

#include "slb_binary.h"

/* The section's bytes (*out malloc'ed; none when p has no printf table). */
bool slb_printf_section_write(const struct slb_program *p, uint8_t **out,
			      size_t *size);
/* Parses and validates untrusted section bytes into p's printf table. */
bool slb_printf_section_read(const uint8_t *data, size_t size,
			     struct slb_program *p, char *err, size_t errsz);
void slb_printf_free(struct slb_program *p);

#endif
