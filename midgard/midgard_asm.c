/* SPDX-License-Identifier: MIT */
/*
 * Assembler text to bytes (syntax: README.md "Assembly syntax"). Parsing
 * fills struct mdg_bundle and the encoder does the rest, so the assembler
 * accepts exactly what the encoder does. Branch forms and ALU bundle sizes
 * depend on each other, so the source is parsed several times until the
 * layout stops changing, then once more to emit; no allocation.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "midgard_internal.h"

#define MAX_BUNDLES 4096
#define MAX_LABELS 512
#define MAX_LINE 512
#define MAX_PASSES 16

struct label {
	const char *name;
	size_t len;
	unsigned int bundle;
};

/* A branch target as written: a label or an absolute byte address. */
struct target {
	bool is_label;
	const char *name;
	size_t len;
	long long addr;
};

struct asm_state {
	const char *src;
	const char *line_src;              /* the current line in src */
	const char *line_buf;              /* and its modifiable copy */
	bool emit;
	unsigned int pass;
	uint8_t *out;
	size_t cap, pos;
	char *err;
	size_t err_size;
	bool failed;
	unsigned int line;

	/* Layout of the previous pass (tags of every bundle). */
	uint8_t prev_tags[MAX_BUNDLES];
	unsigned int prev_n;
	uint8_t tags[MAX_BUNDLES];
	unsigned int n;
	uint8_t ext[MAX_BUNDLES / 8];      /* branches promoted to extended */

	struct label labels[MAX_LABELS];
	unsigned int nlabels;

	/* The bundle being assembled. */
	bool open;
	struct mdg_bundle b;
	unsigned int header_line;
	int next_override;
	unsigned int nldst;
	bool br_present;
	struct target br_target;
	int br_force;                      /* -1 compact, 1 extended, 0 auto */
	bool br_op_given, br_cond_given, br_lut_given, br_tag_given;
	unsigned int br_line;
};

static bool fail(struct asm_state *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool fail(struct asm_state *st, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (st->failed)
		return false;
	st->failed = true;
	if (!st->err || !st->err_size)
		return false;
	n = snprintf(st->err, st->err_size, "line %u: ", st->line);
	if (n < 0 || (size_t)n >= st->err_size)
		return false;
	va_start(ap, fmt);
	vsnprintf(st->err + n, st->err_size - (size_t)n, fmt, ap);
	va_end(ap);
	return false;
}

/* ---- Small lexical helpers ---- */

static char *skip_ws(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static void trim_end(char *p)
{
	size_t n = strlen(p);

	while (n && isspace((unsigned char)p[n - 1]))
		p[--n] = 0;
}

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '.';
}

static bool is_ident(int c)
{
	return isalnum(c) || c == '_' || c == '.' || c == '$';
}

/* Parses a whole string as an integer (decimal, 0x hex, optional sign). */
static bool parse_int(const char *s, long long *v)
{
	char *end;

	if (!*s)
		return false;
	errno = 0;
	*v = strtoll(s, &end, 0);
	return !errno && !*end;
}

/* Splits s at top-level commas into at most max pieces (trimmed). */
static int split_commas(char *s, char **parts, int max)
{
	int n = 0, depth = 0;
	char *start = s;

	if (!*skip_ws(s))
		return 0;
	for (;; s++) {
		if (*s == '(' || *s == '[')
			depth++;
		else if (*s == ')' || *s == ']')
			depth--;
		if ((*s == ',' && depth == 0) || !*s) {
			bool end = !*s;

			if (n == max)
				return -1;
			*s = 0;
			parts[n] = skip_ws(start);
			trim_end(parts[n]);
			n++;
			if (end)
				return n;
			start = s + 1;
		}
	}
}

/* ---- Annotations: {key=value, ...} ---- */

struct kv {
	char key[32];
	long long value;
	bool is_break;
};

#define MAX_KV 32

/* Cuts the trailing {...} off line and parses it. */
static bool take_annotations(struct asm_state *st, char *line, struct kv *kv,
			     int *nkv)
{
	char *open = strchr(line, '{'), *close, *parts[MAX_KV];
	int i, n;

	*nkv = 0;
	if (!open)
		return true;
	close = strchr(open, '}');
	if (!close || *skip_ws(close + 1))
		return fail(st, "annotation '{...}' must end the line");
	*close = 0;
	*open = 0;
	trim_end(line);
	n = split_commas(open + 1, parts, MAX_KV);
	if (n < 0)
		return fail(st, "too many annotations");
	for (i = 0; i < n; i++) {
		char *eq = strchr(parts[i], '=');
		char *val;

		if (!eq)
			return fail(st, "annotation '%s' is not key=value",
				    parts[i]);
		*eq = 0;
		trim_end(parts[i]);
		val = skip_ws(eq + 1);
		if (strlen(parts[i]) >= sizeof(kv[i].key))
			return fail(st, "unknown annotation '%s'", parts[i]);
		strcpy(kv[i].key, parts[i]);
		kv[i].is_break = !strcmp(val, "break");
		if (kv[i].is_break)
			kv[i].value = MDG_TAG_BREAK;
		else if (!parse_int(val, &kv[i].value))
			return fail(st, "annotation %s: bad value '%s'",
				    parts[i], val);
	}
	*nkv = n;
	return true;
}

/* Applies raw-field annotations to a word described by a field table. */
static bool apply_fields(struct asm_state *st, const struct mdg_field *table,
			 uint8_t *bytes, unsigned int base, struct kv *kv,
			 int nkv, bool allow_next)
{
	int i;

	for (i = 0; i < nkv; i++) {
		const struct mdg_field *f;
		long long v = kv[i].value;

		if (allow_next && !strcmp(kv[i].key, "next"))
			continue;
		for (f = table; f && f->name; f++)
			if (!strcmp(f->name, kv[i].key))
				break;
		if (!f || !f->name)
			return fail(st, "unknown annotation '%s'", kv[i].key);
		if (!strcmp(f->name, "offset") && table == mdg_ldst_fields) {
			if (v < -(1 << 17) || v >= (1 << 17))
				return fail(st, "offset %lld does not fit 18 bits",
					    v);
		} else if (v < 0 || (f->width < 64 && (v >> f->width))) {
			return fail(st, "%s=%lld does not fit %u bits", f->name,
				    v, f->width);
		}
		mdg_set_bits(bytes, base + f->lo, f->width, (uint64_t)v);
	}
	return true;
}

static bool take_next(struct asm_state *st, struct kv *kv, int nkv,
		      bool only_next)
{
	int i;

	for (i = 0; i < nkv; i++) {
		if (strcmp(kv[i].key, "next")) {
			if (only_next)
				return fail(st, "unknown annotation '%s'",
					    kv[i].key);
			continue;
		}
		if (kv[i].value < 0 || kv[i].value > 15)
			return fail(st, "next tag %lld out of range",
				    kv[i].value);
		st->next_override = (int)kv[i].value;
	}
	return true;
}

/* ---- Registers, selectors, components ---- */

/* "rN" -> N. */
static bool parse_reg(struct asm_state *st, const char **p, unsigned int *reg)
{
	const char *s = *p;
	unsigned int n = 0, digits = 0;

	if (*s != 'r')
		return fail(st, "expected a register, got '%s'", s);
	for (s++; isdigit((unsigned char)*s); s++, digits++)
		n = n * 10 + (unsigned int)(*s - '0');
	if (!digits || n > 31)
		return fail(st, "bad register '%s'", *p);
	*reg = n;
	*p = s;
	return true;
}

static int letter_index(char c)
{
	const char *l = strchr("xyzwefgh", c);

	return c && l ? (int)(l - "xyzwefgh") : -1;
}

/* Load/store read-selector name -> 0..7 (selN -> N, up to 31). */
static bool parse_sel(struct asm_state *st, const char *name, size_t len,
		      unsigned int max, unsigned int *sel)
{
	unsigned int i;
	long long v;
	char buf[32];

	for (i = 0; i < 8; i++)
		if (strlen(mdg_ldst_sel_names[i]) == len &&
		    !strncmp(mdg_ldst_sel_names[i], name, len)) {
			*sel = i;
			return true;
		}
	if (len > 3 && len < sizeof(buf) && !strncmp(name, "sel", 3)) {
		memcpy(buf, name + 3, len - 3);
		buf[len - 3] = 0;
		if (parse_int(buf, &v) && v >= 0 && v <= (long long)max) {
			*sel = (unsigned int)v;
			return true;
		}
	}
	return fail(st, "unknown selector '%.*s'", (int)len, name);
}

/* A swizzle of 1-4 letters xyzw; the last one repeats. */
static bool parse_swizzle(const char *s, size_t len, unsigned int *swz)
{
	unsigned int i, v = 0;
	int c = 0;

	if (!len || len > 4)
		return false;
	for (i = 0; i < 4; i++) {
		if (i < len) {
			c = letter_index(s[i]);
			if (c < 0 || c > 3)
				return false;
		}
		v |= (unsigned int)c << (2 * i);
	}
	*swz = v;
	return true;
}

/* ---- ALU instructions ---- */

static const char *const expand_names[8] = {
	"none", "rep_lo", "rep_hi", "swap", "widen_lo", "widen_hi",
	"widen_lo_swap", "widen_hi_swap",
};
static const char *const int_mod_names[4] = { "sext", "zext", "repl", "lshift" };

static int find_name(const char *const *names, unsigned int n, const char *s,
		     size_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (names[i] && strlen(names[i]) == len &&
		    !strncmp(names[i], s, len))
			return (int)i;
	return -1;
}

struct src {
	bool imm;
	uint16_t imm_bits;
	unsigned int reg, desc;
};

/* One ALU source: [-][abs(] rN[.swizzle|.comp][.expand][.intmod] [)] | #imm */
static bool parse_alu_src(struct asm_state *st, const char *text, bool scalar,
			  bool int_src, bool allow_imm, struct src *out)
{
	unsigned int mod = 0, swz = 0xE4, expand = 0, comp = 0, full = 1;
	bool neg = false, absm = false, intmod = false, have_comp = false;
	char buf[MAX_LINE];
	char *p = buf, *end;
	const char *q;
	size_t n = strlen(text);

	memset(out, 0, sizeof(*out));
	if (text[0] == '#') {
		long long v;
		float f;

		if (!allow_imm)
			return fail(st, "only src2 can be an immediate");
		out->imm = true;
		if (!strncmp(text + 1, "0x", 2) || !strncmp(text + 1, "0X", 2)) {
			if (!parse_int(text + 1, &v) || v < 0 || v > 0xFFFF)
				return fail(st, "bad immediate '%s'", text);
			out->imm_bits = (uint16_t)v;
		} else if (int_src) {
			if (!parse_int(text + 1, &v) || v < -32768 || v > 65535)
				return fail(st, "immediate '%s' does not fit 16 "
					    "bits", text);
			out->imm_bits = (uint16_t)v;
		} else {
			f = strtof(text + 1, &end);
			if (end == text + 1 || *end)
				return fail(st, "bad float immediate '%s'", text);
			if (!mdg_float_to_half(f, &out->imm_bits))
				return fail(st, "immediate %s is not exact in fp16 "
					    "(use a constant)", text + 1);
		}
		return true;
	}
	if (n >= sizeof(buf))
		return fail(st, "operand too long");
	memcpy(buf, text, n + 1);
	if (*p == '-') {
		neg = true;
		p = skip_ws(p + 1);
	}
	if (!strncmp(p, "abs(", 4)) {
		absm = true;
		p = skip_ws(p + 4);
		end = strrchr(p, ')');
		if (!end || *skip_ws(end + 1))
			return fail(st, "unbalanced abs( in '%s'", text);
		*end = 0;
		trim_end(p);
	}
	q = p;
	if (!parse_reg(st, &q, &out->reg))
		return false;
	while (*q == '.') {
		const char *s = ++q;
		size_t len;
		int i;

		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		len = (size_t)(q - s);
		if (scalar && !have_comp && len == 1 && letter_index(*s) >= 0 &&
		    letter_index(*s) < 4) {
			comp = 2 * (unsigned int)letter_index(*s);
			have_comp = true;
		} else if (scalar && !have_comp && len == 2 && s[0] == 'h' &&
			   s[1] >= '0' && s[1] <= '7') {
			comp = (unsigned int)(s[1] - '0');
			full = 0;
			have_comp = true;
		} else if (!scalar && parse_swizzle(s, len, &swz)) {
			continue;
		} else if (!scalar && (i = find_name(expand_names, 8, s, len)) >= 0) {
			expand = (unsigned int)i;
		} else if ((i = find_name(int_mod_names, 4, s, len)) >= 0) {
			mod = (unsigned int)i;
			intmod = true;
		} else {
			return fail(st, "unknown source suffix '.%.*s'", (int)len,
				    s);
		}
	}
	if (*q)
		return fail(st, "unexpected '%s' in operand", q);
	if (scalar && !have_comp)
		return fail(st, "scalar source '%s' needs a component", text);
	if (intmod && (neg || absm))
		return fail(st, "'%s' mixes integer and float modifiers", text);
	if (neg)
		mod |= 2;
	if (absm)
		mod |= 1;
	out->desc = scalar ? (mod | full << 2 | comp << 3) :
			     MDG_VSRC(mod, expand, swz);
	return true;
}

static bool parse_vmask(struct asm_state *st, const char *s, unsigned int mode,
			uint8_t *mask)
{
	unsigned int per = mode == MDG_REG_MODE_64 ? 4 :
			   mode == MDG_REG_MODE_32 ? 2 : 1;
	unsigned int n = 8 / per, m = 0;

	for (; *s; s++) {
		int i = letter_index(*s);

		if (i < 0 || (unsigned int)i >= n)
			return fail(st, "bad write mask letter '%c' for %u-bit "
				    "lanes", *s, 8u << mode);
		if (m & (1u << (i * (int)per)))
			return fail(st, "write mask letter '%c' repeated", *s);
		m |= ((1u << per) - 1) << (i * (int)per);
	}
	*mask = (uint8_t)m;
	return true;
}

static bool parse_alu(struct asm_state *st, char *mn, char *ops, struct kv *kv,
		      int nkv)
{
	const struct mdg_alu_op_info *info;
	char *parts[8], *tok, *dot;
	struct src srcs[2], *s1 = &srcs[0], *s2 = &srcs[1];
	struct mdg_alu *a;
	int unit, op, n, i, want_full = -1;
	unsigned int mode = MDG_REG_MODE_32;
	bool scalar, int_src, have_outmod = false;
	const char *dst;

	dot = strchr(mn, '.');
	if (!dot)
		return fail(st, "'%s' needs an op: unit.op", mn);
	*dot = 0;
	unit = find_name(mdg_unit_names, MDG_UNIT_COUNT, mn, strlen(mn));
	if (unit < 0 && !strcmp(mn, "lut"))
		unit = MDG_UNIT_VLUT;
	if (unit < 0)
		return fail(st, "unknown unit '%s'", mn);
	tok = dot + 1;
	dot = strchr(tok, '.');
	if (dot)
		*dot = 0;
	op = mdg_alu_op_by_name(tok);
	if (op < 0)
		return fail(st, "unknown ALU op '%s'", tok);
	info = mdg_alu_op_info((uint8_t)op);
	if (!(info->units & MDG_UNIT_MASK(unit)))
		return fail(st, "%s cannot run on %s", tok, mdg_unit_names[unit]);
	if (st->b.units & MDG_UNIT_MASK(unit))
		return fail(st, "unit %s used twice in one bundle",
			    mdg_unit_names[unit]);
	scalar = mdg_unit_is_scalar((enum mdg_unit)unit);
	int_src = info->flags & MDG_OP_INT_SRC;
	a = &st->b.alu[unit];
	memset(a, 0, sizeof(*a));
	a->op = (uint8_t)op;
	a->outmod = (info->flags & MDG_OP_INT_DST) ? MDG_OUTMOD_KEEP_LOW : 0;
	a->shrink = MDG_SHRINK_NONE;
	a->mask = 0xFF;

	while (dot) {
		static const char *const fout[4] = { "none", "pos", "sat_signed",
						     "sat" };
		static const char *const iout[4] = { "ssat", "usat", "keeplo",
						     "keephi" };
		int v;

		tok = dot + 1;
		dot = strchr(tok, '.');
		if (dot)
			*dot = 0;
		if ((tok[0] == 'i' || tok[0] == 'f' || tok[0] == 'u') &&
		    (!strcmp(tok + 1, "8") || !strcmp(tok + 1, "16") ||
		     !strcmp(tok + 1, "32") || !strcmp(tok + 1, "64"))) {
			unsigned int bits = (unsigned int)atoi(tok + 1);

			mode = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3;
			if (scalar && bits != 16 && bits != 32)
				return fail(st, "scalar units are 16 or 32-bit");
			want_full = bits == 32;
		} else if ((v = find_name((info->flags & MDG_OP_INT_DST) ?
					  iout : fout, 4, tok, strlen(tok))) >= 0) {
			if (have_outmod)
				return fail(st, "two output modifiers");
			a->outmod = (uint8_t)v;
			have_outmod = true;
		} else if (!scalar && !strcmp(tok, "lower")) {
			a->shrink = MDG_SHRINK_LOWER;
		} else if (!scalar && !strcmp(tok, "upper")) {
			a->shrink = MDG_SHRINK_UPPER;
		} else {
			return fail(st, "unknown suffix '.%s' for %s", tok,
				    info->name);
		}
	}
	a->reg_mode = (uint8_t)mode;

	n = split_commas(ops, parts, 8);
	if (n < 2 || n > 3)
		return fail(st, "%s takes a destination and two sources",
			    info->name);
	/* Destination. */
	dst = parts[0];
	{
		unsigned int reg;

		if (!parse_reg(st, &dst, &reg))
			return false;
		a->dst_reg = (uint8_t)reg;
	}
	if (scalar) {
		if (dst[0] != '.')
			return fail(st, "scalar destination needs a component");
		if (letter_index(dst[1]) >= 0 && letter_index(dst[1]) < 4 &&
		    !dst[2]) {
			a->full = true;
			a->comp = (uint8_t)(2 * letter_index(dst[1]));
		} else if (dst[1] == 'h' && dst[2] >= '0' && dst[2] <= '7' &&
			   !dst[3]) {
			a->comp = (uint8_t)(dst[2] - '0');
		} else {
			return fail(st, "bad scalar destination '%s'", parts[0]);
		}
		if (want_full >= 0 && want_full != a->full)
			return fail(st, "destination size does not match the "
				    "type suffix");
	} else if (dst[0] == '.') {
		if (!parse_vmask(st, dst + 1, mode, &a->mask))
			return false;
	} else if (dst[0]) {
		return fail(st, "bad destination '%s'", parts[0]);
	}

	/* Sources; a left-out operand is r24 (unused). */
	memset(srcs, 0, sizeof(srcs));
	s1->reg = s2->reg = 24;
	s1->desc = s2->desc = scalar ? 0x04 : MDG_VSRC(0, 0, 0xE4);
	if (n == 2) {
		if (info->flags & MDG_OP_SRC2_ONLY) {
			if (!parse_alu_src(st, parts[1], scalar, int_src, true, s2))
				return false;
		} else if (info->flags & MDG_OP_ONE_SRC) {
			if (!parse_alu_src(st, parts[1], scalar, int_src, false,
					   s1))
				return false;
		} else {
			return fail(st, "%s takes two sources", info->name);
		}
	} else {
		if (!parse_alu_src(st, parts[1], scalar, int_src, false, s1) ||
		    !parse_alu_src(st, parts[2], scalar, int_src, true, s2))
			return false;
	}
	a->src1_reg = (uint8_t)s1->reg;
	if (scalar)
		a->ssrc1 = (uint8_t)s1->desc;
	else
		a->src1 = (uint16_t)s1->desc;
	if (s2->imm) {
		mdg_alu_set_immediate(a, (enum mdg_unit)unit, s2->imm_bits);
	} else {
		a->src2_reg = (uint8_t)s2->reg;
		if (scalar)
			a->ssrc2 = (uint16_t)s2->desc;
		else
			a->src2 = (uint16_t)s2->desc;
	}
	for (i = 0; i < nkv; i++) {
		if (!scalar && !strcmp(kv[i].key, "mask") && kv[i].value >= 0 &&
		    kv[i].value <= 0xFF)
			a->mask = (uint8_t)kv[i].value;
		else
			return fail(st, "bad annotation '%s' here", kv[i].key);
	}
	if (!mdg_check_alu(a, (enum mdg_unit)unit, st->err, st->err_size)) {
		char why[128];

		snprintf(why, sizeof(why), "%s", st->err ? st->err : "");
		return fail(st, "%s", why);
	}
	st->b.units |= (uint8_t)MDG_UNIT_MASK(unit);
	return true;
}

/* const v0[, v1[, v2[, v3]]]: 32-bit integers or float literals. */
static bool parse_const(struct asm_state *st, char *ops)
{
	char *parts[5];
	int n = split_commas(ops, parts, 5), i;

	if (st->b.has_constants)
		return fail(st, "a bundle has one const block");
	if (n < 1 || n > 4)
		return fail(st, "const takes 1 to 4 values");
	for (i = 0; i < n; i++) {
		long long v;
		char *end;
		float f;

		if (parse_int(parts[i], &v)) {
			if (v < -2147483648LL || v > 0xFFFFFFFFLL)
				return fail(st, "constant '%s' does not fit 32 "
					    "bits", parts[i]);
			st->b.constants[i] = (uint32_t)v;
			continue;
		}
		f = strtof(parts[i], &end);
		if (end == parts[i] || *end)
			return fail(st, "bad constant '%s'", parts[i]);
		memcpy(&st->b.constants[i], &f, 4);
	}
	st->b.has_constants = true;
	return true;
}

/* br[.op][.cond][.ext|.compact][.call|.ret] target */
static bool parse_branch(struct asm_state *st, char *mn, char *ops,
			 struct kv *kv, int nkv)
{
	static const char *const conds[4] = { "write0", "false", "true",
					      "always" };
	struct mdg_branch *br = &st->b.branch;
	char *tok = strchr(mn, '.'), *dot;
	long long addr;
	int i;

	if (st->br_present)
		return fail(st, "one branch per bundle");
	memset(br, 0, sizeof(*br));
	br->op = MDG_BRANCH_OP_UNCOND;
	br->call_mode = 1;
	br->cond = 3;
	st->br_force = 0;
	st->br_op_given = st->br_cond_given = false;
	st->br_lut_given = st->br_tag_given = false;
	while (tok) {
		tok++;
		dot = strchr(tok, '.');
		if (dot)
			*dot = 0;
		if ((i = find_name(conds, 4, tok, strlen(tok))) >= 0) {
			br->cond = (uint8_t)i;
			st->br_cond_given = true;
		} else if (!strcmp(tok, "uncond") || !strcmp(tok, "cond") ||
			   !strcmp(tok, "discard") || !strcmp(tok, "tilebuffer") ||
			   !strcmp(tok, "writeout")) {
			br->op = tok[0] == 'u' ? 1 : tok[0] == 'c' ? 2 :
				 tok[0] == 'd' ? 4 : tok[0] == 't' ? 6 : 7;
			st->br_op_given = true;
		} else if (!strcmp(tok, "ext")) {
			st->br_force = 1;
		} else if (!strcmp(tok, "compact")) {
			st->br_force = -1;
		} else if (!strcmp(tok, "call")) {
			br->call_mode = 2;
		} else if (!strcmp(tok, "ret")) {
			br->call_mode = 3;
		} else {
			return fail(st, "unknown branch suffix '.%s'", tok);
		}
		tok = dot;
	}
	if (!st->br_op_given && st->br_cond_given)
		br->op = MDG_BRANCH_OP_COND;
	ops = skip_ws(ops);
	trim_end(ops);
	if (!*ops)
		return fail(st, "branch needs a target");
	memset(&st->br_target, 0, sizeof(st->br_target));
	if (is_ident_start((unsigned char)*ops)) {
		for (i = 0; ops[i]; i++)
			if (!is_ident((unsigned char)ops[i]))
				return fail(st, "bad branch target '%s'", ops);
		st->br_target.is_label = true;
		st->br_target.name = st->line_src + (ops - st->line_buf);
		st->br_target.len = (size_t)i;
	} else if (parse_int(ops, &addr)) {
		if (addr % 16)
			return fail(st, "branch target 0x%llX is not 16-byte "
				    "aligned", addr);
		st->br_target.addr = addr;
	} else {
		return fail(st, "bad branch target '%s'", ops);
	}
	for (i = 0; i < nkv; i++) {
		long long v = kv[i].value;

		if (!strcmp(kv[i].key, "dest_tag") && v >= 0 && v <= 15) {
			br->dest_tag = (uint8_t)v;
			st->br_tag_given = true;
		} else if (!strcmp(kv[i].key, "lut") && v >= 0 && v <= 0xFFFF) {
			br->cond_lut = (uint16_t)v;
			st->br_lut_given = true;
		} else if (!strcmp(kv[i].key, "call_mode") && v >= 0 && v <= 3) {
			br->call_mode = (uint8_t)v;
		} else {
			return fail(st, "bad annotation '%s' here", kv[i].key);
		}
	}
	st->br_present = true;
	st->br_line = st->line;
	return true;
}

/* ---- Load/store instructions ---- */

/* rN[.mask] -> reg, mask (load-type destinations). */
static bool parse_ldst_dest(struct asm_state *st, const char *s,
			    struct mdg_ldst *w)
{
	unsigned int reg, m = 0;

	if (!parse_reg(st, &s, &reg))
		return false;
	w->reg = (uint8_t)reg;
	if (!*s)
		return true;
	if (*s != '.')
		return fail(st, "bad destination");
	for (s++; *s; s++) {
		int i = letter_index(*s);

		if (i < 0 || i > 3 || (m & (1u << i)))
			return fail(st, "bad write mask letter '%c'", *s);
		m |= 1u << i;
	}
	w->mask = (uint8_t)m;
	return true;
}

/* sel[.comps][.suffix] as a selector term; *comps gets the letters. */
static bool split_sel(struct asm_state *st, const char *s, unsigned int max,
		      unsigned int *sel, const char **comps, size_t *ncomps,
		      const char **suffix)
{
	const char *dot = strchr(s, '.');
	size_t len = dot ? (size_t)(dot - s) : strlen(s);

	if (!parse_sel(st, s, len, max, sel))
		return false;
	*comps = "";
	*ncomps = 0;
	*suffix = "";
	if (!dot)
		return true;
	*comps = dot + 1;
	dot = strchr(*comps, '.');
	*ncomps = dot ? (size_t)(dot - *comps) : strlen(*comps);
	if (dot)
		*suffix = dot + 1;
	return true;
}

static bool one_comp(struct asm_state *st, const char *c, size_t n,
		     uint8_t *comp)
{
	if (n != 1 || letter_index(*c) < 0 || letter_index(*c) > 3)
		return fail(st, "expected one component x, y, z or w");
	*comp = (uint8_t)letter_index(*c);
	return true;
}

/* sel.c (atomic operands, cmpxchg comparison). */
static bool parse_sel_comp(struct asm_state *st, const char *s,
			   unsigned int *sel, uint8_t *comp)
{
	const char *comps, *suffix;
	size_t n;

	if (!split_sel(st, s, 7, sel, &comps, &n, &suffix))
		return false;
	if (*suffix)
		return fail(st, "unexpected '.%s'", suffix);
	return one_comp(st, comps, n, comp);
}

/* The terms of [base + index.fmt << shift + offset], or of a UBO's
 * [index << shift + offset]. */
static bool parse_address(struct asm_state *st, char *s, struct mdg_ldst *w,
			  bool index_ok, bool ubo, long long *offset)
{
	bool have_base = false, have_index = false;
	int sign = 1;

	*offset = 0;
	for (;;) {
		char term[MAX_LINE], *t = term;
		size_t len = 0;
		long long v;
		char *shl;

		s = skip_ws(s);
		if (!*s)
			break;
		while (s[len] && s[len] != '+' &&
		       !(s[len] == '-' && len && isspace((unsigned char)s[len - 1])))
			len++;
		memcpy(term, s, len);
		term[len] = 0;
		trim_end(term);
		s += len;
		if (parse_int(t, &v)) {
			*offset += sign * v;
		} else {
			unsigned int sel, shift = 0;
			const char *comps, *suffix;
			size_t n;
			bool is_index;

			if (sign < 0)
				return fail(st, "only offsets can be subtracted");
			shl = strstr(t, "<<");
			if (shl) {
				if (!parse_int(skip_ws(shl + 2), &v) || v < 0 ||
				    v > 15)
					return fail(st, "bad shift '%s'", shl);
				shift = (unsigned int)v;
				*shl = 0;
				trim_end(t);
			}
			if (!split_sel(st, t, 7, &sel, &comps, &n, &suffix))
				return false;
			is_index = ubo || shl || (*suffix && strcmp(suffix, "64"));
			if (is_index) {
				int fmt = -1;

				if (!index_ok)
					return fail(st, "no index here");
				if (have_index)
					return fail(st, "two index terms");
				if (!ubo) {
					static const char *const f[4] = {
						"fmt0", "u64", "u32", "s32" };

					fmt = find_name(f, 4, suffix,
							strlen(suffix));
					if (fmt < 0)
						return fail(st, "index needs a "
							    "format .u64, .u32 "
							    "or .s32");
					w->index_format = (uint8_t)fmt;
				} else if (*suffix) {
					return fail(st, "unexpected '.%s'",
						    suffix);
				}
				/* A 64-bit index may name its pair (.xy). */
				if (n == 2 && letter_index(comps[1]) ==
					      letter_index(comps[0]) + 1)
					n = 1;
				if (!one_comp(st, comps, n, &w->index_comp))
					return false;
				w->index_reg = (uint8_t)sel;
				w->index_shift = (uint8_t)shift;
				have_index = true;
			} else {
				if (have_base)
					return fail(st, "two base terms");
				w->arg_reg = (uint8_t)sel;
				if (!strcmp(suffix, "64")) {
					if (!one_comp(st, comps, n, &w->arg_comp))
						return false;
					w->bitsize_toggle = true;
				} else if (n == 2 && letter_index(comps[0]) >= 0 &&
					   letter_index(comps[0]) < 3 &&
					   letter_index(comps[1]) ==
					   letter_index(comps[0]) + 1) {
					w->arg_comp = (uint8_t)letter_index(comps[0]);
					w->bitsize_toggle = true;
				} else if (!one_comp(st, comps, n, &w->arg_comp)) {
					return false;
				}
				have_base = true;
			}
		}
		if (!*s)
			break;
		sign = *s == '-' ? -1 : 1;
		s++;
	}
	return true;
}

/* "[...]" with an optional ".swizzle" after it. */
static bool parse_bracket(struct asm_state *st, char *s, struct mdg_ldst *w,
			  bool index_ok, bool ubo, bool swz_ok, long long *ofs)
{
	char *close;
	unsigned int swz;

	if (*s != '[')
		return fail(st, "expected '[' address ']'");
	close = strrchr(s, ']');
	if (!close)
		return fail(st, "missing ']'");
	*close = 0;
	if (!parse_address(st, s + 1, w, index_ok, ubo, ofs))
		return false;
	close++;
	if (!*close)
		return true;
	if (!swz_ok || *close != '.' ||
	    !parse_swizzle(close + 1, strlen(close + 1), &swz))
		return fail(st, "unexpected '%s' after the address", close);
	w->swizzle = (uint8_t)swz;
	return true;
}

static bool parse_ldst(struct asm_state *st, const char *mn, char *ops,
		       struct kv *kv, int nkv)
{
	int op = mdg_ldst_op_by_name(mn), n, want;
	struct mdg_ldst *w;
	enum mdg_ldst_class cls;
	char *parts[5];
	long long ofs = 0;
	unsigned int sel, swz;
	uint8_t word[8] = { 0 };
	const char *comps, *suffix;
	size_t nc;

	if (op < 0)
		return fail(st, "unknown load/store op '%s'", mn);
	if (st->nldst == 2)
		return fail(st, "a load/store bundle holds two instructions");
	w = &st->b.ldst[st->nldst];
	cls = mdg_ldst_class((uint8_t)op);
	mdg_ldst_defaults(w, (uint8_t)op);
	n = split_commas(ops, parts, 5);
	switch (cls) {
	case MDG_LDST_CLASS_LOAD: case MDG_LDST_CLASS_STORE:
	case MDG_LDST_CLASS_UBO: case MDG_LDST_CLASS_MOVE:
		want = 2;
		break;
	case MDG_LDST_CLASS_ATOMIC:
		want = 3;
		break;
	case MDG_LDST_CLASS_CMPXCHG:
		want = 4;
		break;
	default:
		want = 0;
		break;
	}
	if (n != want)
		return fail(st, "%s takes %d operands", mn, want);
	switch (cls) {
	case MDG_LDST_CLASS_LOAD:
		if (!parse_ldst_dest(st, parts[0], w) ||
		    !parse_bracket(st, parts[1], w, true, false, true, &ofs))
			return false;
		break;
	case MDG_LDST_CLASS_STORE:
		if (!split_sel(st, parts[0], 31, &sel, &comps, &nc, &suffix))
			return false;
		if (*suffix || (nc && !parse_swizzle(comps, nc, &swz)))
			return fail(st, "bad store data '%s'", parts[0]);
		w->reg = (uint8_t)sel;
		if (nc)
			w->swizzle = (uint8_t)swz;
		if (!parse_bracket(st, parts[1], w, true, false, false, &ofs))
			return false;
		break;
	case MDG_LDST_CLASS_ATOMIC:
	case MDG_LDST_CLASS_CMPXCHG:
		if (!parse_ldst_dest(st, parts[0], w) ||
		    !parse_bracket(st, parts[1], w, cls == MDG_LDST_CLASS_ATOMIC,
				   false, false, &ofs))
			return false;
		{
			uint8_t c;

			if (!parse_sel_comp(st, parts[2], &sel, &c))
				return false;
			w->swizzle = (uint8_t)(c | sel << 2);
		}
		if (cls == MDG_LDST_CLASS_CMPXCHG) {
			if (!parse_sel_comp(st, parts[3], &sel, &w->index_comp))
				return false;
			w->index_reg = (uint8_t)sel;
		}
		break;
	case MDG_LDST_CLASS_UBO: {
		long long idx;
		char *close;

		if (!parse_ldst_dest(st, parts[0], w))
			return false;
		if (strncmp(parts[1], "ubo(", 4))
			return fail(st, "expected ubo(N)[...]");
		close = strchr(parts[1], ')');
		if (!close)
			return fail(st, "missing ')' after ubo(N");
		*close = 0;
		if (!parse_int(parts[1] + 4, &idx) || idx < 0 || idx > 255)
			return fail(st, "UBO index must be 0..255");
		w->arg_comp = idx & 3;
		w->arg_reg = (idx >> 2) & 7;
		w->bitsize_toggle = (idx >> 5) & 1;
		w->index_format = (idx >> 6) & 3;
		if (!parse_bracket(st, skip_ws(close + 1), w, true, true, true,
				   &ofs))
			return false;
		if (ofs < -32768 || ofs > 32767)
			return fail(st, "UBO offset %lld does not fit 16 bits",
				    ofs);
		ofs = ofs * 4 + 1;
		break;
	}
	case MDG_LDST_CLASS_MOVE:
		if (!parse_ldst_dest(st, parts[0], w))
			return false;
		if (!split_sel(st, parts[1], 7, &sel, &comps, &nc, &suffix))
			return false;
		if (*suffix || (nc && !parse_swizzle(comps, nc, &swz)))
			return fail(st, "bad move source '%s'", parts[1]);
		w->arg_reg = (uint8_t)sel;
		if (nc)
			w->swizzle = (uint8_t)swz;
		break;
	default:
		break;
	}
	if (ofs < -(1 << 17) || ofs >= (1 << 17))
		return fail(st, "offset %lld does not fit 18 bits", ofs);
	w->offset = (int32_t)ofs;
	if (cls == MDG_LDST_CLASS_NOP || cls == MDG_LDST_CLASS_RAW)
		w->offset = 0;
	/* Raw field annotations override the readable form. */
	mdg_set_bits(word, 0, 60, mdg_ldst_pack(w));
	if (!apply_fields(st, mdg_ldst_fields, word, 0, kv, nkv, false))
		return false;
	mdg_ldst_unpack(mdg_get_bits(word, 0, 60), w);
	if (w->op != op)
		return fail(st, "the op is the mnemonic, not an annotation");
	st->nldst++;
	return true;
}

/* ---- Bundles and the layout ---- */

static uint32_t bundle_addr(const struct asm_state *st, unsigned int index)
{
	uint32_t a = 0;
	unsigned int i;

	for (i = 0; i < index && i < st->prev_n; i++)
		a += mdg_tag_size(st->prev_tags[i]);
	return a;
}

static const struct label *find_label(const struct asm_state *st,
				      const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < st->nlabels; i++)
		if (st->labels[i].len == len &&
		    !strncmp(st->labels[i].name, name, len))
			return &st->labels[i];
	return NULL;
}

/* Resolves the branch of the current bundle (index i). */
static bool finish_branch(struct asm_state *st, unsigned int i)
{
	struct mdg_branch *br = &st->b.branch;
	long long target, end;
	int target_tag = -1;
	long long off;
	bool ext;
	unsigned int j;

	st->line = st->br_line;
	if (st->br_target.is_label) {
		const struct label *l = find_label(st, st->br_target.name,
						   st->br_target.len);

		if (!l) {
			if (st->pass == 0)
				return true;     /* forward: known next pass */
			return fail(st, "undefined label '%.*s'",
				    (int)st->br_target.len, st->br_target.name);
		}
		target = bundle_addr(st, l->bundle);
		if (l->bundle < st->prev_n)
			target_tag = st->prev_tags[l->bundle];
	} else {
		target = st->br_target.addr;
		for (j = 0; j < st->prev_n; j++)
			if (bundle_addr(st, j) == target)
				target_tag = st->prev_tags[j];
	}
	end = bundle_addr(st, i + 1);
	off = (target - end) / 16;
	ext = st->br_force > 0 || (st->ext[i / 8] >> (i % 8) & 1);
	/*
	 * Promotion to extended sticks, so it is decided only on a layout
	 * that is right: pass 0 does not know the bundles it has not read
	 * yet (or branches to labels ahead), so pass 1's addresses can be
	 * short, and a branch that fits would be promoted for good.
	 */
	if (!ext && st->br_force == 0 && st->pass > 1 && (off < -64 || off > 63)) {
		ext = true;
		st->ext[i / 8] |= (uint8_t)(1u << (i % 8));
	}
	br->extended = ext;
	br->offset = (int32_t)off;
	if (ext && st->br_force == 0 && !st->br_op_given && !st->br_cond_given) {
		/* Far jumps: Mesa uses a conditional "always" branch, not an
		 * unconditional extended one (docs/hardware.md §5.7). */
		br->op = MDG_BRANCH_OP_COND;
	}
	if (!st->br_tag_given) {
		if (target_tag < 0 && st->emit)
			return fail(st, "no bundle at branch target; give "
				    "{dest_tag=N}");
		br->dest_tag = target_tag < 0 ? 0 : (uint8_t)target_tag;
	}
	if (ext && !st->br_lut_given) {
		static const uint16_t lut[4] = { 0, 0x5555, 0xAAAA, 0xFFFF };

		br->cond_lut = lut[br->cond];
	}
	if (!ext && st->emit) {
		if (st->br_lut_given)
			return fail(st, "a compact branch has no LUT");
		if (br->op == MDG_BRANCH_OP_UNCOND && st->br_cond_given)
			return fail(st, "a compact unconditional branch has no "
				    "condition");
		if (br->op != MDG_BRANCH_OP_UNCOND && br->call_mode != 1)
			return fail(st, "a compact conditional branch has no "
				    "call mode");
		if (off < -64 || off > 63)
			return fail(st, "branch offset %lld out of compact range",
				    off);
	}
	if (!ext) {
		if (br->op == MDG_BRANCH_OP_UNCOND)
			br->cond = 0;
		else
			br->call_mode = 0;
	} else {
		br->cond = 0;
	}
	return true;
}

static bool close_bundle(struct asm_state *st)
{
	struct mdg_bundle *b = &st->b;
	unsigned int i = st->n, size, saved = st->line;
	char why[160];

	if (!st->open)
		return true;
	st->open = false;
	if (i >= MAX_BUNDLES)
		return fail(st, "more than %u bundles", MAX_BUNDLES);
	if (mdg_tag_kind(b->tag) == MDG_KIND_ALU) {
		if (st->br_present) {
			b->has_branch = true;
			if (!finish_branch(st, i))
				return false;
		}
		size = (mdg_alu_content_bytes(b->units, b->has_branch,
					      b->branch.extended) + 15) / 16 +
		       (b->has_constants ? 1 : 0);
		b->tag = (uint8_t)((b->tag & 4) | (MDG_TAG_ALU4 + size - 1));
	}
	st->tags[i] = b->tag;
	st->n++;
	if (st->next_override >= 0)
		b->next_tag = (uint8_t)st->next_override;
	else if (i + 1 < st->prev_n)
		b->next_tag = st->prev_tags[i + 1];
	else
		b->next_tag = st->pass ? MDG_TAG_BREAK : MDG_TAG_LDST;
	if (!st->emit)
		return true;
	st->line = st->header_line;
	size = mdg_encode_bundle(b, st->out + st->pos, st->cap - st->pos, why,
				 sizeof(why));
	if (!size)
		return fail(st, "%s", why);
	st->pos += size;
	st->line = saved;
	return true;
}

static bool open_bundle(struct asm_state *st, unsigned int tag)
{
	if (!close_bundle(st))
		return false;
	memset(&st->b, 0, sizeof(st->b));
	st->b.tag = (uint8_t)tag;
	st->open = true;
	st->header_line = st->line;
	st->next_override = -1;
	st->nldst = 0;
	st->br_present = false;
	if (tag == MDG_TAG_LDST) {
		st->b.ldst[0].op = MDG_LDST_NOP;
		st->b.ldst[1].op = MDG_LDST_NOP;
	}
	return true;
}

/* tex[.vtx] op {..} / barrier {..}: one-line bundles. */
static bool parse_tex(struct asm_state *st, unsigned int tag, const char *op,
		      struct kv *kv, int nkv)
{
	uint8_t bytes[16] = { 0 };
	unsigned int i;

	for (i = 0; i < 16; i++)
		if (mdg_tex_op_name((uint8_t)i) && !strcmp(op, mdg_tex_op_name((uint8_t)i)))
			break;
	if (i == 16)
		return fail(st, "unknown texture op '%s'", op);
	if (!open_bundle(st, tag))
		return false;
	mdg_tex_defaults(&st->b.tex, (uint8_t)i);
	mdg_tex_pack(&st->b.tex, bytes);
	if (!apply_fields(st, mdg_tex_fields, bytes, 0, kv, nkv, true) ||
	    !take_next(st, kv, nkv, false))
		return false;
	mdg_tex_unpack(bytes, &st->b.tex);
	if (st->b.tex.op != i)
		return fail(st, "the op is the mnemonic, not an annotation");
	return close_bundle(st);
}

static bool parse_line(struct asm_state *st, char *line)
{
	struct kv kv[MAX_KV];
	int nkv;
	char *p = skip_ws(line), *mn, *ops;

	/* Labels: name: (possibly followed by more on the line). */
	for (;;) {
		char *q = p;

		if (!is_ident_start((unsigned char)*q))
			break;
		while (is_ident((unsigned char)*q))
			q++;
		if (*q != ':')
			break;
		if (st->pass == 0) {
			if (find_label(st, p, (size_t)(q - p)))
				return fail(st, "label '%.*s' defined twice",
					    (int)(q - p), p);
			if (st->nlabels == MAX_LABELS)
				return fail(st, "more than %u labels",
					    MAX_LABELS);
			/* Names point into the source, not the line copy. */
			st->labels[st->nlabels].name = st->line_src + (p - line);
			st->labels[st->nlabels].len = (size_t)(q - p);
			st->labels[st->nlabels].bundle = st->n +
							 (st->open ? 1 : 0);
			st->nlabels++;
		}
		p = skip_ws(q + 1);
	}
	if (!*p)
		return true;
	if (!take_annotations(st, p, kv, &nkv))
		return false;
	mn = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	ops = *p ? p + 1 : p;
	*p = 0;
	ops = skip_ws(ops);
	trim_end(ops);

	if (!strcmp(mn, "alu") || !strcmp(mn, "alu.writeout") ||
	    !strcmp(mn, "ldst")) {
		if (*ops)
			return fail(st, "unexpected '%s' after %s", ops, mn);
		if (!open_bundle(st, mn[0] == 'l' ? MDG_TAG_LDST :
				 mn[3] ? MDG_TAG_ALU4_WRITEOUT : MDG_TAG_ALU4))
			return false;
		return take_next(st, kv, nkv, true);
	}
	if (!strcmp(mn, "tex") || !strcmp(mn, "tex.vtx"))
		return parse_tex(st, mn[3] ? MDG_TAG_TEXTURE_VTX :
			       MDG_TAG_TEXTURE, ops, kv, nkv);
	if (!strcmp(mn, "barrier")) {
		if (*ops)
			return fail(st, "barrier takes no operands");
		return parse_tex(st, MDG_TAG_TEXTURE_BARRIER, "barrier", kv, nkv);
	}
	if (!st->open)
		return fail(st, "'%s' outside a bundle (start one with alu or "
			    "ldst)", mn);
	if (st->b.tag == MDG_TAG_LDST)
		return parse_ldst(st, mn, ops, kv, nkv);
	if (!strcmp(mn, "const"))
		return nkv ? fail(st, "const takes no annotations") :
			     parse_const(st, ops);
	if (!strcmp(mn, "br") || !strncmp(mn, "br.", 3))
		return parse_branch(st, mn, ops, kv, nkv);
	return parse_alu(st, mn, ops, kv, nkv);
}

static bool run_pass(struct asm_state *st)
{
	const char *p = st->src;
	char line[MAX_LINE];

	st->n = 0;
	st->pos = 0;
	st->open = false;
	st->line = 0;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *c;

		st->line++;
		if (len >= sizeof(line))
			return fail(st, "line longer than %d characters",
				    MAX_LINE - 1);
		memcpy(line, p, len);
		line[len] = 0;
		/* Comments: ';' or '//' to the end of the line. */
		c = strchr(line, ';');
		if (c)
			*c = 0;
		c = strstr(line, "//");
		if (c)
			*c = 0;
		trim_end(line);
		st->line_src = p;
		st->line_buf = line;
		if (!parse_line(st, line))
			return false;
		p += len + (eol ? 1 : 0);
	}
	return close_bundle(st);
}

long mdg_assemble(const char *source, uint8_t *out, size_t cap,
		  unsigned int *first_tag, char *err, size_t err_size)
{
	/* About 21 KiB: on the caller's stack, since static storage would
	 * be global state. */
	struct asm_state st;
	unsigned int pass;

	memset(&st, 0, sizeof(st));
	st.src = source;
	st.err = err;
	st.err_size = err_size;
	if (err && err_size)
		err[0] = 0;
	for (pass = 0; pass < MAX_PASSES; pass++) {
		st.pass = pass;
		if (!run_pass(&st))
			return -1;
		/* Pass 2 is the first that may promote a branch (above). */
		if (pass > 1 && st.n == st.prev_n &&
		    !memcmp(st.tags, st.prev_tags, st.n))
			break;
		memcpy(st.prev_tags, st.tags, st.n);
		st.prev_n = st.n;
	}
	if (!st.n) {
		st.line = 1;
		fail(&st, "no bundles");
		return -1;
	}
	st.emit = true;
	st.out = out;
	st.cap = cap;
	if (!run_pass(&st))
		return -1;
	if (cap - st.pos < 16) {
		fail(&st, "output buffer too small");
		return -1;
	}
	/* The hardware prefetches past the end (docs/hardware.md §5.1). */
	memset(out + st.pos, 0, 16);
	if (first_tag)
		*first_tag = st.tags[0];
	return (long)(st.pos + 16);
}
