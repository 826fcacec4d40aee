/* SPDX-License-Identifier: MIT */
/*
 * The descriptor description as tables (from midgard_desc_list.h), and
 * what works on any descriptor through them: field get/set and printing.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "midgard_desc.h"

static const struct mdg_field_info fields[MDG_NUM_FIELDS] = {
#define MDG_FIELD(d, f, fname, fbyte, flsb, fbits, fkind, e)                   \
	[MDG_##d##_##f] = { .name = fname, .desc = MDG_DESC_##d,               \
			    .byte = fbyte, .lsb = flsb, .bits = fbits,         \
			    .kind = MDG_FIELD_##fkind, .values = MDG_ENUM_##e },
#include "midgard_desc_list.h"
};

static const struct mdg_desc_info descs[MDG_NUM_DESCS] = {
#define MDG_DESC(d, dname, dbytes)                                             \
	[MDG_DESC_##d] = { .name = dname, .bytes = dbytes },
#include "midgard_desc_list.h"
};

static const struct mdg_section_info sections[] = {
#define MDG_SECTION(d, s, sname, sbyte, sd)                                    \
	{ .name = sname, .desc = MDG_DESC_##d, .of = MDG_DESC_##sd,            \
	  .byte = sbyte },
#include "midgard_desc_list.h"
};

struct enum_value {
	enum mdg_enum_id e;
	uint32_t value;
	const char *name;
};

static const struct enum_value enum_values[] = {
#define MDG_VALUE(en, v, val, vname) { MDG_ENUM_##en, val, vname },
#include "midgard_desc_list.h"
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct mdg_field_info *mdg_field_info(enum mdg_field_id f)
{
	return (unsigned int)f < MDG_NUM_FIELDS ? &fields[f] : NULL;
}

const struct mdg_desc_info *mdg_desc_info(enum mdg_desc_id d)
{
	return (unsigned int)d < MDG_NUM_DESCS ? &descs[d] : NULL;
}

const char *mdg_enum_name(enum mdg_enum_id e, uint64_t value)
{
	for (size_t i = 0; i < COUNT(enum_values); i++)
		if (enum_values[i].e == e && enum_values[i].value == value)
			return enum_values[i].name;
	return NULL;
}

const char *mdg_exception_name(uint32_t code)
{
	return mdg_enum_name(MDG_ENUM_EXCEPTION, code);
}

/* Bits [start, start + bits) of the little-endian bytes at @p. */
static uint64_t read_bits(const uint8_t *p, unsigned int start,
			  unsigned int bits)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < bits;) {
		unsigned int bit = start + i, off = bit % 8;
		unsigned int take = 8 - off < bits - i ? 8 - off : bits - i;

		v |= (uint64_t)((p[bit / 8] >> off) & ((1u << take) - 1)) << i;
		i += take;
	}
	return v;
}

static void write_bits(uint8_t *p, unsigned int start, unsigned int bits,
		       uint64_t v)
{
	for (unsigned int i = 0; i < bits;) {
		unsigned int bit = start + i, off = bit % 8;
		unsigned int take = 8 - off < bits - i ? 8 - off : bits - i;
		unsigned int mask = ((1u << take) - 1) << off;

		p[bit / 8] = (uint8_t)((p[bit / 8] & ~mask) |
				       (((unsigned int)(v >> i) << off) & mask));
		i += take;
	}
}

uint64_t mdg_get(const uint8_t *desc, enum mdg_field_id f)
{
	const struct mdg_field_info *fi = &fields[f];
	uint64_t raw = read_bits(desc, fi->byte * 8u + fi->lsb, fi->bits);

	switch (fi->kind) {
	case MDG_FIELD_INT:
		if (fi->bits < 64 && (raw >> (fi->bits - 1)) & 1)
			raw |= ~0ull << fi->bits;
		return raw;
	case MDG_FIELD_ADDRESS_SHR4:
		return raw << 4;
	case MDG_FIELD_ADDRESS_SHR6:
		return raw << 6;
	case MDG_FIELD_MINUS1:
		return raw + 1;
	default:
		return raw;
	}
}

bool mdg_set(uint8_t *desc, enum mdg_field_id f, uint64_t value)
{
	const struct mdg_field_info *fi = &fields[f];
	uint64_t raw = value;

	switch (fi->kind) {
	case MDG_FIELD_INT:
		/* Fits when sign-extending the low bits gives it back. */
		if (fi->bits < 64) {
			uint64_t high = value >> (fi->bits - 1);

			if (high && high != ~0ull >> (fi->bits - 1))
				return false;
			raw = value & ((1ull << fi->bits) - 1);
		}
		break;
	case MDG_FIELD_ADDRESS_SHR4:
		if (value & 0xF)
			return false;
		raw = value >> 4;
		break;
	case MDG_FIELD_ADDRESS_SHR6:
		if (value & 0x3F)
			return false;
		raw = value >> 6;
		break;
	case MDG_FIELD_MINUS1:
		if (!value)
			return false;
		raw = value - 1;
		break;
	default:
		break;
	}
	if (fi->bits < 64 && raw >> fi->bits)
		return false;
	write_bits(desc, fi->byte * 8u + fi->lsb, fi->bits, raw);
	return true;
}

/* ---- Printing ---------------------------------------------------------- */

void mdg_print_line(const struct mdg_printer *p, unsigned int indent,
		    const char *fmt, ...)
{
	char text[256];
	unsigned int at = 0;
	va_list ap;

	while (at < 2 * indent && at < 64)
		text[at++] = ' ';
	va_start(ap, fmt);
	vsnprintf(text + at, sizeof(text) - at, fmt, ap);
	va_end(ap);
	p->line(p->ctx, text);
}

static void print_field(const struct mdg_printer *p, enum mdg_field_id f,
			const uint8_t *bytes, unsigned int indent)
{
	const struct mdg_field_info *fi = &fields[f];
	uint64_t v = mdg_get(bytes, f);
	const char *name;

	switch (fi->kind) {
	case MDG_FIELD_BOOL:
		mdg_print_line(p, indent, "%s: %s", fi->name,
			       v ? "true" : "false");
		return;
	case MDG_FIELD_ADDRESS:
	case MDG_FIELD_ADDRESS_SHR4:
	case MDG_FIELD_ADDRESS_SHR6:
		mdg_print_line(p, indent, "%s: 0x%" PRIx64, fi->name, v);
		return;
	case MDG_FIELD_INT:
		mdg_print_line(p, indent, "%s: %" PRId64, fi->name, (int64_t)v);
		return;
	default:
		break;
	}
	name = fi->values != MDG_ENUM_NONE ? mdg_enum_name(fi->values, v) :
	       NULL;
	if (name)
		mdg_print_line(p, indent, "%s: %s (%" PRIu64 ")", fi->name,
			       name, v);
	else if (fi->values != MDG_ENUM_NONE)
		mdg_print_line(p, indent, "%s: unknown value %" PRIu64,
			       fi->name, v);
	else
		mdg_print_line(p, indent, "%s: %" PRIu64, fi->name, v);
}

/* Marks the bits of descriptor @d (at @base in @covered) its fields and
 * sections describe. */
static void cover(enum mdg_desc_id d, unsigned int base, uint8_t *covered)
{
	for (unsigned int f = 0; f < MDG_NUM_FIELDS; f++)
		if (fields[f].desc == d)
			write_bits(covered, (base + fields[f].byte) * 8u +
				   fields[f].lsb, fields[f].bits, ~0ull);
	for (size_t s = 0; s < COUNT(sections); s++)
		if (sections[s].desc == d)
			cover(sections[s].of, base + sections[s].byte,
			      covered);
}

static void print_desc(const struct mdg_printer *p, enum mdg_desc_id d,
		       const uint8_t *bytes, unsigned int indent)
{
	for (size_t s = 0; s < COUNT(sections); s++) {
		if (sections[s].desc != d)
			continue;
		mdg_print_line(p, indent, "%s:", sections[s].name);
		print_desc(p, sections[s].of, bytes + sections[s].byte,
			   indent + 1);
	}
	for (unsigned int f = 0; f < MDG_NUM_FIELDS; f++)
		if (fields[f].desc == d)
			print_field(p, (enum mdg_field_id)f, bytes, indent);
}

void mdg_desc_print(const struct mdg_printer *p, enum mdg_desc_id d,
		    const uint8_t *bytes, unsigned int indent)
{
	uint8_t covered[256] = { 0 };
	uint32_t size = descs[d].bytes;

	print_desc(p, d, bytes, indent);
	/* What no field describes should be zero; say where it is not. */
	cover(d, 0, covered);
	for (uint32_t at = 0; at < size && at < sizeof(covered); at += 4) {
		uint32_t word = 0;

		for (uint32_t i = 0; i < 4 && at + i < size; i++)
			word |= (uint32_t)(bytes[at + i] & ~covered[at + i])
				<< (8 * i);
		if (word)
			mdg_print_line(p, indent,
				       "unknown bits at +0x%02x: 0x%08x",
				       (unsigned int)at, word);
	}
}
