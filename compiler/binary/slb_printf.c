/* SPDX-License-Identifier: MIT */
/*
 * The printf table of a program binary (OpenCL 1.2 6.12.13): the strings
 * (formats and %s literals) and the call sites the kernels' records name,
 * in the optional `.sleipnir.printf` section (layout in README.md and
 * slb_format.h). Kept apart from slb_binary.c: a program without printf
 * has no such section, and the rest of the container does not change.
 */
#include "slb_printf_section.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slb_format.h"

uint32_t slb_printf_add_string(struct slb_program *p, const char *s)
{
	char **strings, *copy;

	for (uint32_t i = 0; i < p->num_printf_strings; i++)
		if (!strcmp(p->printf_strings[i], s))
			return i;
	if (p->num_printf_strings >= SLB_MAX_PRINTF_STRINGS)
		return UINT32_MAX;
	strings = realloc(p->printf_strings, (p->num_printf_strings + 1) *
					     sizeof(*strings));
	if (!strings)
		return UINT32_MAX;
	p->printf_strings = strings;
	copy = strdup(s);
	if (!copy)
		return UINT32_MAX;
	strings[p->num_printf_strings] = copy;
	return p->num_printf_strings++;
}

uint32_t slb_printf_add_call(struct slb_program *p,
			     const struct slb_printf_call *c)
{
	struct slb_printf_call *calls;

	if (p->num_printf_calls >= SLB_MAX_PRINTF_CALLS)
		return UINT32_MAX;
	calls = realloc(p->printf_calls,
			(p->num_printf_calls + 1) * sizeof(*calls));
	if (!calls)
		return UINT32_MAX;
	p->printf_calls = calls;
	calls[p->num_printf_calls] = *c;
	return p->num_printf_calls++;
}

void slb_printf_free(struct slb_program *p)
{
	for (uint32_t i = 0; i < p->num_printf_strings; i++)
		free(p->printf_strings[i]);
	free(p->printf_strings);
	free(p->printf_calls);
	p->printf_strings = NULL;
	p->printf_calls = NULL;
	p->num_printf_strings = p->num_printf_calls = 0;
}

static void put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

bool slb_printf_section_write(const struct slb_program *p, uint8_t **out,
			      size_t *size)
{
	size_t words = SLB_PH_WORDS, text = 0, pos;
	uint8_t *b;

	*out = NULL;
	*size = 0;
	if (!p->num_printf_calls && !p->num_printf_strings)
		return true;
	for (uint32_t i = 0; i < p->num_printf_calls; i++)
		words += SLB_PC_WORDS +
			 (size_t)p->printf_calls[i].num_args * SLB_PA_WORDS;
	for (uint32_t i = 0; i < p->num_printf_strings; i++)
		text += strlen(p->printf_strings[i]) + 1;
	text = (text + 3) & ~(size_t)3;
	b = calloc(1, words * 4 + text);
	if (!b)
		return false;
	put_u32(b + 4 * SLB_PH_VERSION, SLB_PRINTF_VERSION);
	put_u32(b + 4 * SLB_PH_NUM_STRINGS, p->num_printf_strings);
	put_u32(b + 4 * SLB_PH_NUM_CALLS, p->num_printf_calls);
	put_u32(b + 4 * SLB_PH_TEXT_BYTES, (uint32_t)text);
	pos = 4 * SLB_PH_WORDS;
	for (uint32_t i = 0; i < p->num_printf_calls; i++) {
		const struct slb_printf_call *c = &p->printf_calls[i];

		put_u32(b + pos + 4 * SLB_PC_FORMAT, c->format);
		put_u32(b + pos + 4 * SLB_PC_RECORD_BYTES, c->record_bytes);
		put_u32(b + pos + 4 * SLB_PC_NUM_ARGS, c->num_args);
		pos += 4 * SLB_PC_WORDS;
		for (uint32_t j = 0; j < c->num_args; j++) {
			const struct slb_printf_arg *a = &c->args[j];

			put_u32(b + pos + 4 * SLB_PA_KIND, a->kind);
			put_u32(b + pos + 4 * SLB_PA_ELEM_BYTES, a->elem_bytes);
			put_u32(b + pos + 4 * SLB_PA_LANES, a->lanes);
			put_u32(b + pos + 4 * SLB_PA_OFFSET, a->offset);
			pos += 4 * SLB_PA_WORDS;
		}
	}
	for (uint32_t i = 0; i < p->num_printf_strings; i++) {
		size_t n = strlen(p->printf_strings[i]) + 1;

		memcpy(b + pos, p->printf_strings[i], n);
		pos += n;
	}
	*out = b;
	*size = words * 4 + text;
	return true;
}

/* Bytes an argument takes in a record: a 3-lane vector has 4 lanes' room. */
uint32_t slb_printf_arg_bytes(const struct slb_printf_arg *a)
{
	return a->elem_bytes * (a->lanes == 3 ? 4 : a->lanes);
}

static bool check_arg(const struct slb_printf_arg *a, uint32_t record_bytes)
{
	bool lanes_ok = a->lanes == 1 || a->lanes == 2 || a->lanes == 3 ||
			a->lanes == 4 || a->lanes == 8 || a->lanes == 16;

	switch (a->kind) {
	case SLB_PRINTF_INT:
		if (a->elem_bytes != 1 && a->elem_bytes != 2 &&
		    a->elem_bytes != 4 && a->elem_bytes != 8)
			return false;
		break;
	case SLB_PRINTF_FLOAT:
		if (a->elem_bytes != 4 && a->elem_bytes != 8)
			return false;
		break;
	case SLB_PRINTF_STRING:
	case SLB_PRINTF_POINTER:
		if (a->elem_bytes != 4 || a->lanes != 1)
			return false;
		break;
	default:
		return false;
	}
	return lanes_ok && a->offset >= 4 && a->offset % 4 == 0 &&
	       a->offset <= record_bytes &&
	       slb_printf_arg_bytes(a) <= record_bytes - a->offset;
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

bool slb_printf_section_read(const uint8_t *data, size_t size,
			     struct slb_program *p, char *err, size_t errsz)
{
	uint32_t nstrings, ncalls, text;
	size_t pos = 4 * SLB_PH_WORDS, end;
	const char *s;

	if (size < 4 * SLB_PH_WORDS || size % 4)
		return fail(err, errsz, "%s: %zu bytes", SLB_SECTION_PRINTF,
			    size);
	nstrings = get_u32(data + 4 * SLB_PH_NUM_STRINGS);
	ncalls = get_u32(data + 4 * SLB_PH_NUM_CALLS);
	text = get_u32(data + 4 * SLB_PH_TEXT_BYTES);
	if (get_u32(data + 4 * SLB_PH_VERSION) != SLB_PRINTF_VERSION)
		return fail(err, errsz, "%s: unknown version %u",
			    SLB_SECTION_PRINTF,
			    get_u32(data + 4 * SLB_PH_VERSION));
	/* Counts are checked against the bytes before anything is made. */
	if (nstrings > SLB_MAX_PRINTF_STRINGS ||
	    ncalls > SLB_MAX_PRINTF_CALLS || text % 4 ||
	    text > size - pos || nstrings > text ||
	    ncalls > (size - pos - text) / (4 * SLB_PC_WORDS))
		return fail(err, errsz, "%s: %u strings, %u calls, %u bytes "
			    "of text do not fit", SLB_SECTION_PRINTF, nstrings,
			    ncalls, text);
	end = size - text;
	p->printf_calls = calloc(ncalls ? ncalls : 1,
				 sizeof(*p->printf_calls));
	p->printf_strings = calloc(nstrings ? nstrings : 1,
				   sizeof(*p->printf_strings));
	if (!p->printf_calls || !p->printf_strings)
		return fail(err, errsz, "out of memory");
	for (uint32_t i = 0; i < ncalls; i++) {
		struct slb_printf_call *c = &p->printf_calls[i];

		if (end - pos < 4 * SLB_PC_WORDS)
			return fail(err, errsz, "%s: call %u truncated",
				    SLB_SECTION_PRINTF, i);
		c->format = get_u32(data + pos + 4 * SLB_PC_FORMAT);
		c->record_bytes = get_u32(data + pos + 4 * SLB_PC_RECORD_BYTES);
		c->num_args = get_u32(data + pos + 4 * SLB_PC_NUM_ARGS);
		pos += 4 * SLB_PC_WORDS;
		p->num_printf_calls = i + 1;
		if (c->format >= nstrings || c->record_bytes < 4 ||
		    c->record_bytes % 4 ||
		    c->record_bytes > SLB_MAX_PRINTF_RECORD ||
		    c->num_args > SLB_MAX_PRINTF_ARGS ||
		    (end - pos) / (4 * SLB_PA_WORDS) < c->num_args)
			return fail(err, errsz, "%s: call %u: bad format, "
				    "record size or argument count",
				    SLB_SECTION_PRINTF, i);
		for (uint32_t j = 0; j < c->num_args; j++) {
			struct slb_printf_arg *a = &c->args[j];

			a->kind = get_u32(data + pos + 4 * SLB_PA_KIND);
			a->elem_bytes = get_u32(data + pos +
						4 * SLB_PA_ELEM_BYTES);
			a->lanes = get_u32(data + pos + 4 * SLB_PA_LANES);
			a->offset = get_u32(data + pos + 4 * SLB_PA_OFFSET);
			pos += 4 * SLB_PA_WORDS;
			if (!check_arg(a, c->record_bytes))
				return fail(err, errsz, "%s: call %u: argument "
					    "%u: bad kind, size or offset",
					    SLB_SECTION_PRINTF, i, j);
		}
	}
	if (pos != end)
		return fail(err, errsz, "%s: %zu bytes between the calls and "
			    "the text", SLB_SECTION_PRINTF, end - pos);
	s = (const char *)data + end;
	for (uint32_t i = 0; i < nstrings; i++) {
		const char *nul = memchr(s, 0, (size_t)(data + size -
							(const uint8_t *)s));

		if (!nul)
			return fail(err, errsz, "%s: string %u not terminated",
				    SLB_SECTION_PRINTF, i);
		p->printf_strings[i] = strdup(s);
		if (!p->printf_strings[i])
			return fail(err, errsz, "out of memory");
		p->num_printf_strings = i + 1;
		s = nul + 1;
	}
	/* Only the padding to a word may follow the last string. */
	for (; (const uint8_t *)s < data + size; s++)
		if (*s || data + size - (const uint8_t *)s >= 4)
			return fail(err, errsz, "%s: bytes after the strings",
				    SLB_SECTION_PRINTF);
	return true;
}
