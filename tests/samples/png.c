/* SPDX-License-Identifier: MIT */
/* The samples' PNG writer and its read-back check (see png.h). */
#include "png.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static const uint8_t signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a,
				      '\n' };

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* A chunk: length, type, data, and the CRC of type and data. */
static bool put_chunk(FILE *f, const char *type, const uint8_t *data,
		      uint32_t len)
{
	uint8_t head[8], tail[4];
	uLong crc = crc32(0, (const Bytef *)type, 4);

	if (len)
		crc = crc32(crc, data, len);
	put_be32(head, len);
	memcpy(head + 4, type, 4);
	put_be32(tail, (uint32_t)crc);
	return fwrite(head, 1, 8, f) == 8 &&
	       (!len || fwrite(data, 1, len, f) == len) &&
	       fwrite(tail, 1, 4, f) == 4;
}

/* The rows as PNG stores them: each led by its filter type, 0 (none). */
static uint8_t *raw_rows(const uint8_t *pixels, uint32_t w, uint32_t h,
			 size_t *size)
{
	uint8_t *raw;

	*size = (size_t)(w + 1) * h;
	raw = malloc(*size);
	for (uint32_t y = 0; raw && y < h; y++) {
		raw[(size_t)y * (w + 1)] = 0;
		memcpy(raw + (size_t)y * (w + 1) + 1, pixels + (size_t)y * w, w);
	}
	return raw;
}

bool png_write_indexed(const char *path, const uint8_t *pixels, uint32_t w,
		       uint32_t h, const uint8_t *palette, unsigned int colors)
{
	uint8_t ihdr[13];
	size_t raw_size;
	uint8_t *raw = raw_rows(pixels, w, h, &raw_size);
	uLongf zsize = compressBound(raw_size);
	uint8_t *z = malloc(zsize);
	FILE *f = fopen(path, "wb");
	bool ok = raw && z && f && colors >= 1 && colors <= 256;

	put_be32(ihdr, w);
	put_be32(ihdr + 4, h);
	ihdr[8] = 8;	/* bits per index */
	ihdr[9] = 3;	/* colour type: palette */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;	/* deflate, no filter, no interlace */
	ok = ok && compress2(z, &zsize, raw, raw_size, 9) == Z_OK;
	ok = ok && fwrite(signature, 1, 8, f) == 8 &&
	     put_chunk(f, "IHDR", ihdr, sizeof(ihdr)) &&
	     put_chunk(f, "PLTE", palette, 3 * colors) &&
	     put_chunk(f, "IDAT", z, (uint32_t)zsize) &&
	     put_chunk(f, "IEND", NULL, 0);
	if (f && fclose(f))
		ok = false;
	free(raw);
	free(z);
	return ok;
}

static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		data = malloc((size_t)len);
		if (data && fread(data, 1, (size_t)len, f) != (size_t)len) {
			free(data);
			data = NULL;
		}
		*size = (size_t)len;
	}
	fclose(f);
	return data;
}

/* Walks the chunks checking their CRCs; gathers IHDR and the IDAT data. */
static bool read_chunks(const uint8_t *file, size_t size, uint8_t *ihdr,
			uint8_t *idat, size_t *idat_size)
{
	size_t pos = 8, out = 0;
	bool saw_end = false, saw_header = false;

	if (size < 8 || memcmp(file, signature, 8))
		return false;
	while (!saw_end && pos + 12 <= size) {
		uint32_t len = get_be32(file + pos);
		const uint8_t *type = file + pos + 4, *data = type + 4;

		if (len > size - pos - 12 ||
		    crc32(crc32(0, type, 4), data, len) !=
		    get_be32(data + len))
			return false;
		if (!memcmp(type, "IHDR", 4) && len == 13) {
			memcpy(ihdr, data, 13);
			saw_header = true;
		} else if (!memcmp(type, "IDAT", 4)) {
			memcpy(idat + out, data, len);
			out += len;
		} else if (!memcmp(type, "IEND", 4)) {
			saw_end = true;
		}
		pos += 12 + (size_t)len;
	}
	*idat_size = out;
	return saw_end && saw_header;
}

bool png_verify_indexed(const char *path, const uint8_t *pixels, uint32_t w,
			uint32_t h)
{
	size_t size = 0, idat_size = 0, raw_size;
	uint8_t *file = read_file(path, &size), ihdr[13];
	uint8_t *idat = file ? malloc(size) : NULL;
	uint8_t *want = raw_rows(pixels, w, h, &raw_size);
	uint8_t *got = malloc(raw_size + 1);
	uLongf got_size = raw_size + 1;
	bool ok = file && idat && want && got &&
		  read_chunks(file, size, ihdr, idat, &idat_size) &&
		  get_be32(ihdr) == w && get_be32(ihdr + 4) == h &&
		  ihdr[8] == 8 && ihdr[9] == 3 &&
		  uncompress(got, &got_size, idat, idat_size) == Z_OK &&
		  got_size == raw_size && !memcmp(got, want, raw_size);

	free(file);
	free(idat);
	free(want);
	free(got);
	return ok;
}
