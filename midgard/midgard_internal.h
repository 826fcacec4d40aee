/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the files of the Midgard ISA library but not part of its
 * public contract (midgard_isa.h): bit access on little-endian byte strings,
 * the field tables of the load/store and texture words (used to pack, unpack,
 * print and parse them the same way), and the validation the encoder and the
 * decoder have in common.
 */
#ifndef SLEIPNIR_MIDGARD_INTERNAL_H
#define SLEIPNIR_MIDGARD_INTERNAL_H

#include <stdarg.h>
#include <stdio.h>

#include "midgard_isa.h"

static inline uint64_t mdg_get_bits(const uint8_t *p, unsigned int lo,
				    unsigned int width)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < width; i++)
		v |= (uint64_t)((p[(lo + i) / 8] >> ((lo + i) % 8)) & 1) << i;
	return v;
}

static inline void mdg_set_bits(uint8_t *p, unsigned int lo, unsigned int width,
				uint64_t v)
{
	unsigned int i;

	for (i = 0; i < width; i++) {
		unsigned int b = lo + i;

		p[b / 8] = (uint8_t)((p[b / 8] & ~(1u << (b % 8))) |
				     (((v >> i) & 1) << (b % 8)));
	}
}

static inline int64_t mdg_sext(uint64_t v, unsigned int width)
{
	uint64_t sign = 1ull << (width - 1);

	v &= (sign << 1) - 1;
	return (int64_t)(v ^ sign) - (int64_t)sign;
}

/* Formats into err (if any) and returns 0, so failures read "return fail()". */
static inline unsigned int mdg_fail(char *err, size_t size, const char *fmt,
				    ...) __attribute__((format(printf, 3, 4)));
static inline unsigned int mdg_fail(char *err, size_t size, const char *fmt,
				    ...)
{
	va_list ap;

	if (err && size) {
		va_start(ap, fmt);
		vsnprintf(err, size, fmt, ap);
		va_end(ap);
	}
	return 0;
}

/* A named bit-field of a load/store word (60 bits) or texture word (128). */
struct mdg_field {
	const char *name;
	uint8_t lo;
	uint8_t width;
};

extern const struct mdg_field mdg_ldst_fields[];     /* NULL-terminated */
extern const struct mdg_field mdg_tex_fields[];      /* from bit 8 on */

/* One load/store word <-> its 60 bits. */
uint64_t mdg_ldst_pack(const struct mdg_ldst *w);
void mdg_ldst_unpack(uint64_t bits, struct mdg_ldst *w);
/* Texture word fields <-> bytes 1..15 of the bundle (tag byte excluded). */
void mdg_tex_pack(const struct mdg_tex *t, uint8_t out[16]);
void mdg_tex_unpack(const uint8_t in[16], struct mdg_tex *t);
/* Name of the first texture field whose value does not fit, or NULL. */
const char *mdg_tex_field_overflow(const struct mdg_tex *t);

/* Bytes an ALU bundle needs without constants: control word, register
 * words, unit bodies and branch. */
unsigned int mdg_alu_content_bytes(unsigned int units, bool has_branch,
				   bool extended);

/*
 * Is expand mode e valid for a vector source of an op in reg_mode?
 * (docs/hardware.md §5.3)
 */
bool mdg_expand_valid(unsigned int expand, unsigned int reg_mode);

/* Checks one ALU instruction on a unit; 0 with err set when invalid. */
bool mdg_check_alu(const struct mdg_alu *alu, enum mdg_unit unit, char *err,
		   size_t err_size);

/* Checks a load/store word (slot 0 or 1) and a texture word of a tag. */
bool mdg_check_ldst(const struct mdg_ldst *w, unsigned int slot, char *err,
		    size_t err_size);
bool mdg_check_tex(const struct mdg_tex *t, unsigned int tag, char *err,
		   size_t err_size);

/* Load/store op categories, for printing and parsing. */
enum mdg_ldst_class {
	MDG_LDST_CLASS_RAW,       /* only raw fields (graphics ops, trap) */
	MDG_LDST_CLASS_NOP,
	MDG_LDST_CLASS_LOAD,      /* ld.*, lea: reg.mask, [address] */
	MDG_LDST_CLASS_STORE,     /* st.*: data.swizzle, [address] */
	MDG_LDST_CLASS_ATOMIC,    /* reg.mask, [address], operand */
	MDG_LDST_CLASS_CMPXCHG,   /* reg.mask, [base + offset], operand, cmp */
	MDG_LDST_CLASS_UBO,       /* reg.mask, ubo(N)[index + offset] */
	MDG_LDST_CLASS_MOVE,      /* reg.mask, selector.swizzle */
};

enum mdg_ldst_class mdg_ldst_class(uint8_t op);

/* Names of the load/store read-selectors (enum mdg_ldst_sel). */
extern const char *const mdg_ldst_sel_names[8];
/* Unit names as written in assembly (enum mdg_unit order). */
extern const char *const mdg_unit_names[MDG_UNIT_COUNT];

/* Printing with the branch target known to be a label (disassembler). */
struct mdg_print_ctx {
	int auto_next;            /* next tag the assembler would pick, -1 */
	bool target_is_label;     /* print the branch target as a label */
	int target_tag;           /* tag of the bundle at the target, -1 */
};

int mdg_print_bundle_ctx(const struct mdg_bundle *bundle, uint64_t pc,
			 const struct mdg_print_ctx *ctx, char *out,
			 size_t out_size);

/* The fields the assembler fills in when an instruction leaves them out. */
void mdg_ldst_defaults(struct mdg_ldst *w, uint8_t op);
void mdg_tex_defaults(struct mdg_tex *t, uint8_t op);

/* fp16 <-> float, exact for every fp16 value. */
float mdg_half_to_float(uint16_t h);
/* Returns false when f is not exactly representable in fp16. */
bool mdg_float_to_half(float f, uint16_t *h);

#endif
