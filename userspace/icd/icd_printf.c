/* SPDX-License-Identifier: MIT */
/*
 * The printf formatter (OpenCL 1.2 6.12.13.2). Each conversion
 * specification of a record's format is parsed as OpenCL C defines it:
 *
 *	% [flags -+ #0] [width] [.precision] [vector vN] [length] conversion
 *
 * with N one of 2 3 4 8 16, length one of hh h hl l (hl only with a vector
 * specifier), the conversions d i o u x X f F e E g
 * G a A c s p and %%. OpenCL C has no `*` width or precision, no n
 * conversion and no ll, L, j, z or t. Each value is then printed by the
 * host's printf with the same flags, width and precision (a vector's
 * elements one by one, separated by commas). The compiler recorded what
 * each argument really is (integer, float, string literal, pointer; lane
 * size and count), so a directive that does not match its argument (the
 * specification leaves that undefined) is printed as it stands and never
 * makes the formatter read the wrong bytes.
 */
#include "icd_printf.h"

#include <stdbool.h>
#include <string.h>

static uint32_t get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

void icd_printf_init(uint8_t *buf, uint32_t area_bytes)
{
	put_u32(buf, 0);
	put_u32(buf + 4, area_bytes);
	put_u32(buf + 8, UINT32_MAX);
	put_u32(buf + 12, 0);
}

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_HL, LEN_L };

struct spec {
	char flags[8];               /* NUL-terminated, at most 5 */
	int width, precision;        /* -1: none */
	unsigned int vector;         /* 0: scalar */
	enum length length;
	char conv;
};

/* Widths and precisions beyond this are refused as malformed. */
#define MAX_FIELD 4096

static bool parse_number(const char **f, int *out)
{
	int n = 0;

	while (**f >= '0' && **f <= '9') {
		n = n * 10 + (**f - '0');
		if (n > MAX_FIELD)
			return false;
		(*f)++;
	}
	*out = n;
	return true;
}

/*
 * Parses the specification after a '%' at *f; false when it is not one
 * OpenCL C allows. *f ends past what was read either way.
 */
static bool parse_spec(const char **f, struct spec *s)
{
	size_t nflags = 0;

	memset(s, 0, sizeof(*s));
	s->width = s->precision = -1;
	while (**f && strchr("-+ #0", **f)) {
		if (nflags < sizeof(s->flags) - 1 && !strchr(s->flags, **f))
			s->flags[nflags++] = **f;
		(*f)++;
	}
	if (**f >= '0' && **f <= '9' && !parse_number(f, &s->width))
		return false;
	if (**f == '.') {
		(*f)++;
		if (!parse_number(f, &s->precision))
			return false;
	}
	if (**f == 'v') {
		int n;

		(*f)++;
		if (!parse_number(f, &n) ||
		    !(n == 2 || n == 3 || n == 4 || n == 8 || n == 16))
			return false;
		s->vector = (unsigned int)n;
	}
	if (**f == 'h') {
		(*f)++;
		s->length = LEN_H;
		if (**f == 'h') {
			(*f)++;
			s->length = LEN_HH;
		} else if (**f == 'l') {
			(*f)++;
			s->length = LEN_HL;
		}
	} else if (**f == 'l') {
		(*f)++;
		s->length = LEN_L;
	}
	if (!**f)
		return false;
	s->conv = *(*f)++;
	if (!strchr("diouxXfFeEgGaAcsp", s->conv))
		return false;
	/*
	 * 6.12.13.2: hl only with a vector. A vector without a length is
	 * undefined there; it prints like hl (int or float elements), as
	 * clang's format check reads it and as programs (%v2d) expect.
	 */
	if (s->length == LEN_HL && !s->vector)
		return false;
	if (s->vector && strchr("csp", s->conv))
		return false;
	return true;
}

/* The host format for one value: %, flags, width, precision, mod, conv. */
static void host_format(const struct spec *s, const char *mod, char *out,
			size_t size)
{
	int n = snprintf(out, size, "%%%s", s->flags);

	if (s->width >= 0)
		n += snprintf(out + n, size - (size_t)n, "%d", s->width);
	if (s->precision >= 0)
		n += snprintf(out + n, size - (size_t)n, ".%d", s->precision);
	snprintf(out + n, size - (size_t)n, "%s%c", mod, s->conv);
}

/* Lane i of an integer argument, sign- or zero-extended from its size. */
static uint64_t int_lane(const struct slb_printf_arg *a, const uint8_t *p,
			 unsigned int i, bool sign)
{
	unsigned int bytes = a->elem_bytes;
	uint64_t v = 0;

	for (unsigned int b = 0; b < bytes; b++)
		v |= (uint64_t)p[i * bytes + b] << (8 * b);
	if (sign && bytes < 8 && (v >> (8 * bytes - 1) & 1))
		v |= ~0ull << (8 * bytes);
	return v;
}

/* Whether argument a can be printed by s (else the directive stands). */
static bool matches(const struct spec *s, const struct slb_printf_arg *a)
{
	unsigned int lanes = s->vector ? s->vector : 1;

	if (a->lanes != lanes)
		return false;
	switch (s->conv) {
	case 's':
		return a->kind == SLB_PRINTF_STRING;
	case 'p':
		return a->kind == SLB_PRINTF_POINTER;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
	case 'a': case 'A':
		return a->kind == SLB_PRINTF_FLOAT;
	default:
		return a->kind == SLB_PRINTF_INT;
	}
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* Prints lane i of argument a (bytes at p) by s. */
static void print_lane(const struct slb_program *prog, const struct spec *s,
		       const struct slb_printf_arg *a, const uint8_t *p,
		       unsigned int i, FILE *out)
{
	char fmt[64];

	switch (s->conv) {
	case 'd': case 'i': {
		int64_t v = (int64_t)int_lane(a, p, i, true);

		/* The length modifier's type (C99 7.19.6.1). */
		v = s->length == LEN_HH ? (int8_t)v :
		    s->length == LEN_H ? (int16_t)v :
		    s->length == LEN_L ? v : (int32_t)v;
		host_format(s, "ll", fmt, sizeof(fmt));
		fprintf(out, fmt, (long long)v);
		break;
	}
	case 'o': case 'u': case 'x': case 'X': {
		uint64_t v = int_lane(a, p, i, false);

		v = s->length == LEN_HH ? (uint8_t)v :
		    s->length == LEN_H ? (uint16_t)v :
		    s->length == LEN_L ? v : (uint32_t)v;
		host_format(s, "ll", fmt, sizeof(fmt));
		fprintf(out, fmt, (unsigned long long)v);
		break;
	}
	case 'c':
		host_format(s, "", fmt, sizeof(fmt));
		fprintf(out, fmt, (int)(unsigned char)int_lane(a, p, i, false));
		break;
	case 's': {
		uint32_t id = get_u32(p);

		host_format(s, "", fmt, sizeof(fmt));
		fprintf(out, fmt, id < prog->num_printf_strings ?
				  prog->printf_strings[id] : "");
		break;
	}
	case 'p':
		/* Implementation-defined text: the host's for the address. */
		host_format(s, "", fmt, sizeof(fmt));
		fprintf(out, fmt, (void *)(uintptr_t)get_u32(p));
		break;
	default: {
		float f;
		double d;

		if (a->elem_bytes == 8) {
			memcpy(&d, p + 8 * i, sizeof(d));
		} else {
			memcpy(&f, p + 4 * i, sizeof(f));
			d = f;
		}
		host_format(s, "", fmt, sizeof(fmt));
		fprintf(out, fmt, d);
		break;
	}
	}
}

#pragma GCC diagnostic pop

/* One record: the format with the record's values (rec, record_bytes). */
static void write_record(const struct slb_program *prog,
			 const struct slb_printf_call *c, const uint8_t *rec,
			 FILE *out)
{
	const char *f = prog->printf_strings[c->format];
	uint32_t next = 0;

	while (*f) {
		const char *start = f;
		const struct slb_printf_arg *a;
		struct spec s;

		if (*f != '%') {
			fputc(*f++, out);
			continue;
		}
		f++;
		if (*f == '%') {
			fputc(*f++, out);
			continue;
		}
		if (!parse_spec(&f, &s) || next >= c->num_args) {
			/* Undefined: the directive is shown as written. */
			fwrite(start, 1, (size_t)(f - start), out);
			continue;
		}
		a = &c->args[next++];
		if (!matches(&s, a)) {
			fwrite(start, 1, (size_t)(f - start), out);
			continue;
		}
		for (unsigned int i = 0; i < a->lanes; i++) {
			if (i)
				fputc(',', out);
			print_lane(prog, &s, a, rec + a->offset, i, out);
		}
	}
}

unsigned int icd_printf_write(const struct slb_program *p, const uint8_t *buf,
			      size_t size, FILE *out)
{
	const uint8_t *area = buf + ICD_PRINTF_HEADER_BYTES;
	uint64_t used;
	uint32_t pos = 0;
	unsigned int n = 0;

	if (size < ICD_PRINTF_HEADER_BYTES)
		return 0;
	/*
	 * Reservations go on past the end once it is full (dropped), and
	 * the bytes from the first one that did not fit are not records.
	 */
	used = get_u32(buf);
	if (used > get_u32(buf + 4))
		used = get_u32(buf + 4);
	if (used > get_u32(buf + 8))
		used = get_u32(buf + 8);
	if (used > size - ICD_PRINTF_HEADER_BYTES)
		used = size - ICD_PRINTF_HEADER_BYTES;
	while (used - pos >= 4) {
		uint32_t id = get_u32(area + pos);
		const struct slb_printf_call *c;

		if (id >= p->num_printf_calls)
			break;
		c = &p->printf_calls[id];
		if (c->record_bytes > used - pos)
			break;
		write_record(p, c, area + pos, out);
		pos += c->record_bytes;
		n++;
	}
	return n;
}
