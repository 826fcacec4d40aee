/* SPDX-License-Identifier: MIT */
/*
 * A minimal PNG writer for the samples: 8-bit palette images, one zlib
 * stream, no filtering. png_verify() reads the file back (signature, chunk
 * CRCs, header, the inflated rows) so a sample proves what it wrote.
 */
#ifndef SLEIPNIR_SAMPLE_PNG_H
#define SLEIPNIR_SAMPLE_PNG_H

#include <stdbool.h>
#include <stdint.h>

/* @palette holds @colors RGB triples; @pixels w * h indices into it. */
bool png_write_indexed(const char *path, const uint8_t *pixels, uint32_t w,
		       uint32_t h, const uint8_t *palette, unsigned int colors);
bool png_verify_indexed(const char *path, const uint8_t *pixels, uint32_t w,
			uint32_t h);

#endif
