/* SPDX-License-Identifier: MIT */
/* The compiled-object / library container (layout in clc_object.h). */
#include "clc_object.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* LLVM's raw bitcode magic and the bitcode wrapper's, as bytes. */
static bool is_bitcode(const uint8_t *p, size_t size)
{
	static const uint8_t raw[4] = { 'B', 'C', 0xC0, 0xDE };
	static const uint8_t wrapper[4] = { 0xDE, 0xC0, 0x17, 0x0B };

	return size >= 4 && (!memcmp(p, raw, 4) || !memcmp(p, wrapper, 4));
}

static bool valid_kind(uint32_t kind)
{
	return kind == CLC_OBJECT_COMPILED || kind == CLC_OBJECT_LIBRARY;
}

bool clc_object_write(const struct clc_object *o, uint8_t **out,
		      size_t *size)
{
	size_t total;
	uint8_t *buf;

	if (!valid_kind(o->kind) || (o->flags & ~CLC_OBJECT_FLAGS_KNOWN) ||
	    o->options_size > CLC_OBJECT_MAX_OPTIONS ||
	    !is_bitcode(o->bitcode, o->bitcode_size) ||
	    o->bitcode_size > SIZE_MAX - CLC_OBJECT_HEADER_BYTES -
			      o->options_size)
		return false;
	total = CLC_OBJECT_HEADER_BYTES + o->options_size + o->bitcode_size;
	buf = malloc(total);
	if (!buf)
		return false;
	memcpy(buf, CLC_OBJECT_MAGIC, 8);
	put32(buf + 8, CLC_OBJECT_VERSION);
	put32(buf + 12, o->kind);
	put32(buf + 16, o->flags);
	put32(buf + 20, (uint32_t)o->options_size);
	put64(buf + 24, o->bitcode_size);
	if (o->options_size)
		memcpy(buf + CLC_OBJECT_HEADER_BYTES, o->options,
		       o->options_size);
	memcpy(buf + CLC_OBJECT_HEADER_BYTES + o->options_size, o->bitcode,
	       o->bitcode_size);
	*out = buf;
	*size = total;
	return true;
}

__attribute__((format(printf, 3, 4)))
static bool fail(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (errsz) {
		va_start(ap, fmt);
		vsnprintf(err, errsz, fmt, ap);
		va_end(ap);
	}
	return false;
}

bool clc_object_read(const uint8_t *data, size_t size, struct clc_object *o,
		     char *err, size_t errsz)
{
	uint32_t version, options_size;
	uint64_t bitcode_size;

	if (!data || size < CLC_OBJECT_HEADER_BYTES ||
	    memcmp(data, CLC_OBJECT_MAGIC, 8))
		return fail(err, errsz, "not a Sleipnir compiled object or "
			    "library");
	version = get32(data + 8);
	if (version != CLC_OBJECT_VERSION)
		return fail(err, errsz, "object container version %u (this "
			    "compiler reads %u)", version, CLC_OBJECT_VERSION);
	o->kind = get32(data + 12);
	if (!valid_kind(o->kind))
		return fail(err, errsz, "unknown object kind %u", o->kind);
	o->flags = get32(data + 16);
	if (o->flags & ~CLC_OBJECT_FLAGS_KNOWN)
		return fail(err, errsz, "unknown object flags 0x%x", o->flags);
	options_size = get32(data + 20);
	bitcode_size = get64(data + 24);
	if (options_size > CLC_OBJECT_MAX_OPTIONS)
		return fail(err, errsz, "options of %u bytes (at most %u)",
			    options_size, CLC_OBJECT_MAX_OPTIONS);
	/* Exactly header + options + bitcode, checked without overflow. */
	if (size - CLC_OBJECT_HEADER_BYTES < options_size ||
	    bitcode_size != size - CLC_OBJECT_HEADER_BYTES - options_size)
		return fail(err, errsz, "object sizes do not match its %zu "
			    "bytes", size);
	o->options = (const char *)data + CLC_OBJECT_HEADER_BYTES;
	o->options_size = options_size;
	if (memchr(o->options, '\0', options_size))
		return fail(err, errsz, "options string holds a NUL byte");
	o->bitcode = data + CLC_OBJECT_HEADER_BYTES + options_size;
	o->bitcode_size = (size_t)bitcode_size;
	if (!is_bitcode(o->bitcode, o->bitcode_size))
		return fail(err, errsz, "object payload is not LLVM bitcode");
	return true;
}
