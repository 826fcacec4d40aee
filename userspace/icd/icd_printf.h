/* SPDX-License-Identifier: MIT */
/*
 * printf's host side (OpenCL 1.2 6.12.13): the launch's printf buffer
 * (layout in compiler/binary/slb_binary.h, "printf") and the formatter that
 * turns its records into text with the host's printf, as cl_arm_printf
 * does. Pure: no GPU, no locking; the host tests use it on the model's
 * buffers.
 */
#ifndef ICD_PRINTF_H
#define ICD_PRINTF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "slb_binary.h"

/* The record area of each launch's buffer: CL_DEVICE_PRINTF_BUFFER_SIZE. */
#define ICD_PRINTF_BUFFER_SIZE (1024u * 1024u)
/* Bytes before the record area (the write offset, the area's size, the
 * first offset that did not fit, a reserved word). */
#define ICD_PRINTF_HEADER_BYTES SLB_PRINTF_HEADER_BYTES

/* Sets up the header of a buffer whose record area is area_bytes. */
void icd_printf_init(uint8_t *buf, uint32_t area_bytes);

/*
 * Writes the records a launch left in buf (size bytes, header included) to
 * out, in record order, each formatted by its call's format with p's
 * strings. Stops at a record that does not belong to p or does not fit
 * (never reads outside buf). Returns how many records it wrote.
 */
unsigned int icd_printf_write(const struct slb_program *p, const uint8_t *buf,
			      size_t size, FILE *out);

#endif
