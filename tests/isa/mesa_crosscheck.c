/* SPDX-License-Identifier: MIT */
/*
 * Cross-check of our Midgard encoder against Mesa 22.3's own Midgard
 * disassembler (built from the cached Debian source by
 * tests/isa/mesa-crosscheck.sh; nothing of Mesa is in this tree).
 *
 * We encode a corpus with our library (every ALU op on every unit it allows
 * in several forms, every load/store op, branches of every kind with real
 * targets, embedded constants, barriers and texture words, programs from our
 * assembler, and thousands of random valid bundles from isa_gen.h chained into
 * programs), run Mesa's disassemble_midgard() on each program and read its
 * text back line by line. From our own fields we predict what Mesa must
 * print and compare:
 *
 *   1. no diagnostics: Mesa's tag/sequence errors, "unknown bit",
 *      "reserved bit", alu_op_XX/ldst_op_XX names, failed assertions (the
 *      shim records them instead of aborting), except the few we predict
 *      for encodings our library accepts and Mesa considers odd (each is
 *      commented where predicted);
 *   2. op names: what Mesa prints is Mesa's table name for OUR opcode;
 *   3. registers, components, masks, swizzles (32/16-bit passthrough
 *      sources), modifiers, immediates, load/store addresses, constants;
 *   4. branch kind, condition, offset and target tag.
 *
 * Any difference fails the run; the first ones are printed with the bytes.
 */
#define _GNU_SOURCE
#include <stdarg.h>

#include "check.h"
#include "isa_gen.h"
#include "mesa_shim.h"

CHECK_MAIN_STATE("isa-mesa-crosscheck");

/* Our fp16 conversion (midgard_tables.c); the shim has its own. */
float mdg_half_to_float(uint16_t h);

/* T860: no interpipe register aliasing quirk. */
#define GPU_ID 0x860
#define MAX_BUNDLES 16
#define MAX_SHOWN 25

struct prog {
	struct mdg_bundle b[MAX_BUNDLES];
	int target[MAX_BUNDLES];      /* branch target bundle, -1 none */
	int n;
};

static struct {
	unsigned long programs, bundles, alu, ldst, tex, branches, constants;
	unsigned long sampled_swizzles, predicted, mismatches, shown;
} st;

static const char comps[] = "xyzwefghijklmnop";

/* ---- Small string building ---- */

struct sb {
	char s[512];
	size_t n;
};

static void sbf(struct sb *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sbf(struct sb *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (b->n < sizeof(b->s)) {
		int k = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);

		if (k > 0)
			b->n += (size_t)k;
	}
	va_end(ap);
}

/* ---- Reporting ---- */

static unsigned long max_shown = MAX_SHOWN;
struct sb;
static const uint8_t *cur_code;
static unsigned int cur_addr[MAX_BUNDLES + 1], cur_bundle;

static void mismatch(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void mismatch(const char *fmt, ...)
{
	va_list ap;
	unsigned int i;

	st.mismatches++;
	check_state.test_failed = 1;
	if (st.shown++ >= max_shown)
		return;
	printf("  MISMATCH program %lu bundle %u: ", st.programs, cur_bundle);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n    bytes:");
	if (cur_code)
		for (i = cur_addr[cur_bundle]; i < cur_addr[cur_bundle + 1]; i++)
			printf("%s%02X", i % 16 ? " " : "\n      ", cur_code[i]);
	printf("\n");
}

/* ---- Mesa's output, line by line ---- */

struct lines {
	char *buf;
	char *pos;
};

/* The next line (without '\n'), or NULL at the end. */
static char *next_line(struct lines *l)
{
	char *s = l->pos, *e;

	if (!s || !*s)
		return NULL;
	e = strchr(s, '\n');
	if (e) {
		*e = '\0';
		l->pos = e + 1;
	} else {
		l->pos = s + strlen(s);
	}
	return s;
}

static bool starts(const char **p, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(*p, prefix, n))
		return false;
	*p += n;
	return true;
}

/*
 * An ALU register as Mesa names it, back to its number: R<n>, U<n> (a
 * uniform, r(23-n)), TMP0/1 (r24/r25), AL0/1 (r26/r27), AT/TA0/1 (r28/r29),
 * PC_SP (r31 read). -1 when the text is none of those.
 */
static int parse_alu_reg(const char **p)
{
	char *end;
	long v;

	if (starts(p, "PC_SP"))
		return 31;
	if (starts(p, "TMP"))
		v = 24;
	else if (starts(p, "AL"))
		v = 26;
	else if (starts(p, "AT") || starts(p, "TA"))
		v = 28;
	else if (starts(p, "U"))
		v = -23;
	else if (starts(p, "R"))
		v = 0;
	else
		return -1;
	if (**p < '0' || **p > '9')
		return -1;
	{
		long n = strtol(*p, &end, 10);

		*p = end;
		return v < 0 ? (int)(23 - n) : (int)(v + n);
	}
}

/* ---- Predictions shared by the checks ---- */

static unsigned int predicted_asserts;
static struct sb predicted_log;

/* One assertion (or unreachable()) Mesa's code will hit; why, for the
 * report when the count differs. */
static void predict_assert_why(const char *why)
{
	predicted_asserts++;
	st.predicted++;
	sbf(&predicted_log, "%s%u:%s", predicted_log.n ? "; " : "", cur_bundle,
	    why);
}

#define predict_assert() predict_assert_why(__func__)

static const char *const outmod_float[4] = { "", ".clamp_0_inf",
					     ".clamp_m1_1", ".clamp_0_1" };
static const char *const outmod_int[4] = { ".ssat", ".usat", ".keeplo",
					   ".keephi" };
static const char *const intmod_names[4] = { ".sext", ".zext", ".replicate",
					     ".lshift" };

/* The output modifier as Mesa prints it; half = the result is narrowed. */
static void put_outmod(struct sb *b, unsigned int outmod, bool int_out, bool half)
{
	if (int_out && !half) {
		/*
		 * Mesa's disassembler asserts keeplo for integer results that
		 * are not narrowed and prints nothing. Our library accepts the
		 * other three values there (the field is encodable; what the
		 * saturations do at full width is a code-generation matter).
		 */
		if (outmod != MDG_OUTMOD_KEEP_LOW)
			predict_assert();
		return;
	}
	if (!int_out && half)
		sbf(b, ".shrink");
	sbf(b, "%s", int_out ? outmod_int[outmod] : outmod_float[outmod]);
}

static void put_srcmod(struct sb *b, bool int_src, bool expands, unsigned int mod)
{
	if (int_src) {
		if (expands)
			sbf(b, "%s", intmod_names[mod]);
		return;
	}
	if (mod & 1)
		sbf(b, ".abs");
	if (mod & 2)
		sbf(b, ".neg");
	if (expands)
		sbf(b, ".widen");
}

static void put_immediate(struct sb *b, uint16_t imm, bool int_src)
{
	if (int_src)
		sbf(b, "#%u", imm);
	else
		sbf(b, "#%g", (double)mdg_half_to_float(imm));
}

/* Components a vector write mask enables (one bit per 16-bit lane). */
static unsigned int mask_components(unsigned int mask, unsigned int bits)
{
	unsigned int n = 0, i, step = bits >= 16 ? bits / 16 : 1;

	for (i = 0; i < 8; i += step)
		if (mask & (1u << i))
			n += bits == 8 ? 2 : 1;
	return n;
}

/*
 * The destination mask: per component of the lane size, the first 16-bit
 * lane bit of the component decides (a mask whose lane bits disagree within
 * a component is printed raw as well); an upper shrink names the upper
 * half's components; a full mask without shrink is not printed.
 */
static void put_vmask(struct sb *b, unsigned int mask, unsigned int bits,
		      unsigned int shrink)
{
	unsigned int step = bits >= 16 ? bits / 16 : 1, i, j;
	unsigned int base = 0;
	bool odd = false;

	if (shrink == MDG_SHRINK_NONE && mask == 0xFF)
		return;
	sbf(b, ".");
	if (shrink == MDG_SHRINK_UPPER)
		base = 128 / bits;
	for (i = 0; i < 8; i += step) {
		bool on = mask & (1u << i);

		for (j = 1; j < step; j++)
			odd |= on != !!(mask & (1u << (i + j)));
		if (!on)
			continue;
		if (bits == 8)
			sbf(b, "%c%c", comps[base + 2 * i], comps[base + 2 * i + 1]);
		else
			sbf(b, "%c", comps[base + i / step]);
	}
	if (odd)
		sbf(b, " /* %X */", mask);
}

/* ---- ALU ---- */

static const char *const unit_names[MDG_UNIT_COUNT] = { "vmul", "sadd", "vadd",
							"smul", "lut" };

static int op_ishladd = -2, op_ishlsub = -2;

/*
 * One vector source. Always checks the register; for 32- and 16-bit lanes
 * without expansion (and ops that do not reduce) the whole swizzle,
 * argument and source modifier text too.
 */
static void check_vsrc(const char **p, const struct mdg_alu *a, unsigned int reg,
		       uint16_t src, unsigned int which, const char *ctx)
{
	const struct mdg_alu_op_info *info = mdg_alu_op_info(a->op);
	unsigned int expand = MDG_VSRC_EXPAND(src), swz = MDG_VSRC_SWIZZLE(src);
	bool expands = expand >= 4;
	const char *q = *p, *end;
	struct sb want = { .n = 0 };
	int r;

	if (reg == MDG_REG_CONST) {
		if (a->reg_mode == MDG_REG_MODE_16 && expands) {
			/*
			 * 16-bit lanes widened from 8-bit constants: Mesa's
			 * constant printer asserts once per component shown
			 * (it has no 8-bit-to-16 case) and prints the bytes.
			 */
			unsigned int k, n = xchk_mesa_alu_channels(a->op);

			if (!n)
				n = 2 * (unsigned int)__builtin_popcount(a->mask);
			for (k = 0; k < n; k++)
				predict_assert();
		}
		/* Embedded constants: a list or a single value. */
		if (*q != '<' && *q != '#')
			mismatch("%s: src%u reads constants, Mesa prints '%s'", ctx,
				 which, q);
		end = strchr(q, *q == '<' ? '>' : ',');
		*p = end ? end + (*q == '<') : q + strlen(q);
		return;
	}
	r = parse_alu_reg(&q);
	if (r != (int)reg)
		mismatch("%s: src%u register r%u, Mesa prints '%s'", ctx, which,
			 reg, *p);
	end = strstr(q, ", ");
	if (!end)
		end = q + strlen(q);
	if (!expand && (a->reg_mode == MDG_REG_MODE_32 ||
			a->reg_mode == MDG_REG_MODE_16) &&
	    !(info->flags & MDG_OP_REDUCE)) {
		unsigned int i;

		if (swz != 0xE4) {
			sbf(&want, ".");
			for (i = 0; i < 8; i++) {
				unsigned int lane = a->reg_mode == MDG_REG_MODE_32 ?
						    2 * i : i;

				if (a->reg_mode == MDG_REG_MODE_32 && i >= 4)
					break;
				if (a->mask & (1u << lane))
					sbf(&want, "%c",
					    comps[((swz >> 2 * (i & 3)) & 3) +
						  (i >= 4 ? 4 : 0)]);
			}
		}
		if (which == 1 && (a->op == op_ishladd || a->op == op_ishlsub))
			sbf(&want, ".x2");
		put_srcmod(&want, info->flags & MDG_OP_INT_SRC, false,
			   MDG_VSRC_MOD(src));
		if ((size_t)(end - q) != want.n || strncmp(q, want.s, want.n))
			mismatch("%s: src%u '%.*s', expected '%s'", ctx, which,
				 (int)(end - q), q, want.s);
		st.sampled_swizzles++;
	} else {
		/* Only the modifier at the end of the source text. */
		put_srcmod(&want, info->flags & MDG_OP_INT_SRC, expands,
			   MDG_VSRC_MOD(src));
		if ((size_t)(end - q) < want.n ||
		    strncmp(end - want.n, want.s, want.n) ||
		    (!expands && !(info->flags & MDG_OP_INT_SRC) && !want.n &&
		     (strstr(q, ".abs") && strstr(q, ".abs") < end)))
			mismatch("%s: src%u '%.*s', expected modifiers '%s'", ctx,
				 which, (int)(end - q), q, want.s);
	}
	*p = end;
}

static void check_ssrc(const char **p, const struct mdg_alu *a, unsigned int reg,
		       unsigned int src, unsigned int which, const char *ctx)
{
	const struct mdg_alu_op_info *info = mdg_alu_op_info(a->op);
	unsigned int comp = MDG_SSRC_COMP(src);
	bool full = MDG_SSRC_FULL(src);
	const char *q = *p, *end;
	struct sb want = { .n = 0 };

	if (reg == MDG_REG_CONST) {
		if (*q != '#')
			mismatch("%s: src%u reads a constant, Mesa prints '%s'",
				 ctx, which, q);
		end = strstr(q, ", ");
		*p = end ? end : q + strlen(q);
		return;
	}
	if (parse_alu_reg(&q) != (int)reg)
		mismatch("%s: src%u register r%u, Mesa prints '%s'", ctx, which,
			 reg, *p);
	sbf(&want, ".%c", comps[full ? comp / 2 : comp]);
	put_srcmod(&want, info->flags & MDG_OP_INT_SRC, !full, MDG_SSRC_MOD(src));
	end = strstr(q, ", ");
	if (!end)
		end = q + strlen(q);
	if ((size_t)(end - q) != want.n || strncmp(q, want.s, want.n))
		mismatch("%s: src%u '%.*s', expected '%s'", ctx, which,
			 (int)(end - q), q, want.s);
	*p = end;
}

static void check_alu_line(const char *line, const struct mdg_bundle *b,
			   enum mdg_unit u)
{
	const struct mdg_alu *a = &b->alu[u];
	const struct mdg_alu_op_info *info = mdg_alu_op_info(a->op);
	const char *name = xchk_mesa_alu_name(a->op), *p = line, *end;
	bool scalar = mdg_unit_is_scalar(u);
	bool int_src = info->flags & MDG_OP_INT_SRC;
	bool int_dst = info->flags & MDG_OP_INT_DST;
	unsigned int bits = scalar ? 32 : 8u << a->reg_mode;
	struct sb want = { .n = 0 }, ctx = { .n = 0 };
	bool upper8 = false;
	int r;

	st.alu++;
	sbf(&ctx, "%s.%s", unit_names[u], info->name);
	if (!line) {
		mismatch("%s: Mesa printed nothing", ctx.s);
		return;
	}
	/* 2. The name Mesa's table gives our opcode, and the type Mesa infers
	 * for it (the result is an integer iff our table says so). */
	sbf(&want, "%s.%s.%c%u ", unit_names[u], name ? name : "(none)",
	    int_dst ? 'i' : 'f', bits);
	if (!name || !starts(&p, want.s)) {
		mismatch("%s (op 0x%02X): '%s', expected '%s...'", ctx.s, a->op,
			 line, want.s);
		return;
	}
	if (int_src != xchk_mesa_alu_int_src(a->op))
		mismatch("%s: Mesa reads %s sources", ctx.s,
			 int_src ? "float" : "integer");

	/* 3. Destination register, mask/component and output modifier. */
	r = parse_alu_reg(&p);
	if (r != a->dst_reg)
		mismatch("%s: destination r%u, Mesa prints '%s'", ctx.s,
			 a->dst_reg, line);
	want.n = 0;
	want.s[0] = '\0';
	if (scalar) {
		sbf(&want, ".%c", comps[a->full ? a->comp / 2 : a->comp]);
		put_outmod(&want, a->outmod, int_dst, !a->full);
	} else {
		if (a->shrink != MDG_SHRINK_NONE && a->reg_mode == MDG_REG_MODE_8) {
			/* Our library accepts a shrink of 8-bit lanes (the
			 * field is encodable); Mesa marks it unknown. */
			sbf(&want, "/* do%u */ ", a->shrink);
			st.predicted++;
		}
		if ((info->flags & MDG_OP_REDUCE) &&
		    mask_components(a->mask, bits) != 1) {
			/* A reducing op writes one component; our library
			 * leaves the mask to code generation (README). */
			sbf(&want, "/* err too many components */");
			st.predicted++;
		}
		if (a->shrink == MDG_SHRINK_UPPER && a->reg_mode == MDG_REG_MODE_8) {
			/*
			 * The upper half of 8-bit lanes: Mesa asserts and then
			 * prints the mask from past the end of its letter
			 * table (undefined text), so only the lead-in is
			 * compared.
			 */
			predict_assert();
			upper8 = true;
		} else {
			put_vmask(&want, a->mask, bits, a->shrink);
		}
		put_outmod(&want, a->outmod, int_dst,
			   a->shrink != MDG_SHRINK_NONE);
	}
	end = strstr(p, ", ");
	if (upper8 && end && !strncmp(p, want.s, strlen("/* do1 */ ."))) {
		/* compared what can be */
	} else if (!end || (size_t)(end - p) != want.n ||
		   strncmp(p, want.s, want.n)) {
		mismatch("%s: destination '%s', expected '%s'", ctx.s, line,
			 want.s);
		return;
	}
	p = end + 2;

	/* Sources. */
	if (scalar)
		check_ssrc(&p, a, a->src1_reg, a->ssrc1, 1, ctx.s);
	else
		check_vsrc(&p, a, a->src1_reg, a->src1, 1, ctx.s);
	if (!starts(&p, ", ")) {
		mismatch("%s: no second source in '%s'", ctx.s, line);
		return;
	}
	if (a->src2_imm) {
		want.n = 0;
		want.s[0] = '\0';
		put_immediate(&want, mdg_alu_immediate(a, u), int_src);
		if (strcmp(p, want.s))
			mismatch("%s: immediate '%s', expected '%s'", ctx.s, p,
				 want.s);
		return;
	}
	if (scalar)
		check_ssrc(&p, a, a->src2_reg, a->ssrc2, 2, ctx.s);
	else
		check_vsrc(&p, a, a->src2_reg, a->src2, 2, ctx.s);
	if (*p)
		mismatch("%s: trailing text '%s' in '%s'", ctx.s, p, line);
}

/* ---- Branches ---- */

static const char *const cond_names[4] = { "write0", "false", "true", "always" };
/* Call modes: 1 is the plain branch (0 has no known meaning). */
static const char *const call_names[4] = { ".reserved", "", ".call", ".return" };

static const char *branch_op_name(unsigned int op)
{
	switch (op) {
	case MDG_BRANCH_OP_UNCOND: return "uncond.";
	case MDG_BRANCH_OP_COND: return "cond.";
	case MDG_BRANCH_OP_DISCARD: return "discard.";
	case MDG_BRANCH_OP_TILEBUFFER: return "tilebuffer.";
	case MDG_BRANCH_OP_WRITEOUT: return "write.";
	default: return "?";
	}
}

static void check_branch_line(const char *line, const struct mdg_branch *br)
{
	struct sb want = { .n = 0 };
	const char *tag = xchk_mesa_tag_name(br->dest_tag);

	st.branches++;
	if (br->extended) {
		unsigned int i;
		bool single = true;

		sbf(&want, "brx%s.%s", call_names[br->call_mode],
		    branch_op_name(br->op));
		for (i = 2; i < 16; i += 2)
			single &= ((br->cond_lut >> i) & 3) == (br->cond_lut & 3u);
		if (single)
			sbf(&want, "%s", cond_names[br->cond_lut & 3]);
		else
			sbf(&want, "lut%X", br->cond_lut);
	} else if (br->op == MDG_BRANCH_OP_UNCOND) {
		sbf(&want, "br.uncond%s", call_names[br->call_mode]);
	} else {
		sbf(&want, "br.%s%s", branch_op_name(br->op), cond_names[br->cond]);
	}
	sbf(&want, " %s%d -> %s", br->offset >= 0 ? "+" : "", br->offset,
	    tag ? tag : "?");
	if (!line || strcmp(line, want.s))
		mismatch("branch '%s', expected '%s'", line ? line : "(none)",
			 want.s);
}

/* ---- Load/store ---- */

static const char *const sel_names[8] = {
	"AL0", "AL1", "PC_SP", "LOCAL_STORAGE_PTR", "LOCAL_THREAD_ID",
	"GROUP_ID", "GLOBAL_THREAD_ID", "0",
};
static const char *const index_fmt[4] = { "", ".u64", ".u32", ".s32" };

static void put_sel(struct sb *b, unsigned int sel)
{
	if (sel < 8) {
		sbf(b, "%s", sel_names[sel]);
	} else {
		/*
		 * A store's data register is a 5-bit field that Mesa reads as
		 * a 3-bit selector; for 8-31 it reaches unreachable() and
		 * prints nothing. Our library keeps such raw values valid
		 * (printed selN); Mesa's compiler never emits them.
		 */
		predict_assert();
	}
}

static void put_wreg(struct sb *b, unsigned int reg)
{
	if (reg == 26 || reg == 27)
		sbf(b, "AL%u", reg - 26);
	else if (reg == 28 || reg == 29)
		sbf(b, "AT%u", reg - 28);
	else if (reg == 31)
		sbf(b, "PC_SP");
	else
		sbf(b, "R%u", reg);
}

static void put_sint(struct sb *b, int v)
{
	if (v > 0)
		sbf(b, " + 0x%X", v);
	else if (v < 0)
		sbf(b, " - 0x%X", -v);
}

/* A load's mask with the swizzle folded in: per component, the swizzled
 * source component or '~' where masked off. */
static void put_load_mask(struct sb *b, unsigned int mask, unsigned int swz)
{
	unsigned int i;

	sbf(b, ".");
	for (i = 0; i < 4; i++)
		sbf(b, "%c", mask & (1u << i) ? comps[(swz >> 2 * i) & 3] : '~');
}

/* A 32-bit swizzle over the components of a 4-bit mask (none if xyzw). */
static void put_swz4(struct sb *b, unsigned int swz, unsigned int mask)
{
	unsigned int i;

	if (swz == 0xE4)
		return;
	sbf(b, ".");
	for (i = 0; i < 4; i++)
		if (mask & (1u << i))
			sbf(b, "%c", comps[(swz >> 2 * i) & 3]);
}

static void put_address(struct sb *b, const struct mdg_ldst *w, bool index)
{
	sbf(b, ", ");
	put_sel(b, w->arg_reg);
	sbf(b, ".u%d.%c", w->bitsize_toggle ? 64 : 32, comps[w->arg_comp]);
	if (index && w->index_reg != MDG_LDST_SEL_ZERO) {
		sbf(b, " + ");
		put_sel(b, w->index_reg);
		sbf(b, "%s.%c", index_fmt[w->index_format], comps[w->index_comp]);
		if (w->index_shift)
			sbf(b, " << %u", w->index_shift);
	}
	put_sint(b, w->offset);
}

/* Stores as Mesa's table marks them. */
static bool mesa_store(uint8_t op)
{
	const struct mdg_ldst_op_info *info = mdg_ldst_op_info(op);
	bool special = op >= MDG_LDST_ST_SPECIAL_F32 &&
		       op <= MDG_LDST_ST_SPECIAL_S32;
	bool tilebuffer = op >= MDG_LDST_ST_TILEBUFFER_F32 &&
			  op <= MDG_LDST_ST_TILEBUFFER_RAW;

	return info && (info->flags & MDG_LDST_STORE) && !special &&
	       !tilebuffer;
}

static void check_ldst_line(const char *line, const struct mdg_ldst *w)
{
	const struct mdg_ldst_op_info *info = mdg_ldst_op_info(w->op);
	const char *name = xchk_mesa_ldst_name(w->op);
	bool cmpxchg = !strncmp(info->name, "acmpxchg", 8);
	struct sb want = { .n = 0 };
	bool exact = true;

	st.ldst++;
	if (!name && (w->op & 0xC3) == 0x43) {
		/*
		 * 64-bit big-endian atomics (0x43, 0x47 ... 0x67): Mesa's
		 * table keys its ".64.be" entries with the plain .64 opcodes
		 * (so 0x41 ... print as ".64.be") and has nothing at these;
		 * its disassembler then prints ldst_op_XX and reads the word
		 * as a plain load (README, "Differences from Mesa").
		 */
		sbf(&want, "ldst_op_%02X ", w->op);
		put_wreg(&want, w->reg);
		put_load_mask(&want, w->mask, w->swizzle);
		if (w->op == MDG_LDST_ACMPXCHG_64_BE) {
			/* Mesa's cmpxchg test is by opcode range, not table. */
			sbf(&want, ", ");
			put_sel(&want, w->index_reg);
			sbf(&want, ".%c", comps[w->index_comp]);
		}
		st.predicted++;
		name = "";
	} else if (!name && w->op == MDG_LDST_NOP) {
		/*
		 * A NOP-op word with other fields set: our library accepts
		 * it (every word with a known op is valid, README); Mesa
		 * skips only the exact NOP word and prints this one as an
		 * unknown op read like a load.
		 */
		sbf(&want, "ldst_op_03 ");
		put_wreg(&want, w->reg);
		put_load_mask(&want, w->mask, w->swizzle);
		st.predicted++;
		name = "";
	} else if (!name && w->op == MDG_LDST_TRAP) {
		/* trap: Mesa knows the opcode (and prints the offset field)
		 * but its name table has no entry. */
		sbf(&want, "ldst_op_FC 0x%X", (unsigned int)w->offset);
		st.predicted++;
		name = "";
	} else if (!name) {
		mismatch("%s (op 0x%02X): Mesa's table has no name", info->name,
			 w->op);
		return;
	}
	sbf(&want, "%s", name);
	if (!*name) {
		/* predicted above */
	} else if (w->op == MDG_LDST_TRAP) {
		exact = false;
	} else if (info->flags & MDG_LDST_GRAPHICS) {
		/* Graphics ops: the name, and a store's data register after
		 * the modifiers. */
		exact = false;
		if ((info->flags & MDG_LDST_STORE) && !mesa_store(w->op)) {
			/* st_special, st_tilebuffer: Mesa's table does not mark
			 * them as stores; it prints a destination register. */
			if (line && !strstr(line, " R") && !strstr(line, " A") &&
			    !strstr(line, " PC_SP"))
				mismatch("%s: '%s', expected a register",
					 info->name, line);
		} else if ((info->flags & MDG_LDST_STORE) && line) {
			const char *sp = strchr(line, ' ');
			struct sb sel = { .n = 0 };

			put_sel(&sel, w->reg);
			if (w->reg < 8 && (!sp || strncmp(sp + 1, sel.s, sel.n)))
				mismatch("%s: '%s', expected data %s", info->name,
					 line, sel.s);
		}
	} else if (info->flags & MDG_LDST_ATOMIC) {
		sbf(&want, " ");
		put_wreg(&want, w->reg);
		put_load_mask(&want, w->mask, 0xE4);
		put_address(&want, w, !cmpxchg);
		sbf(&want, ", ");
		put_sel(&want, (w->swizzle >> 2) & 7);
		sbf(&want, ".%c", comps[w->swizzle & 3]);
		if (cmpxchg) {
			sbf(&want, ", ");
			put_sel(&want, w->index_reg);
			sbf(&want, ".%c", comps[w->index_comp]);
		}
	} else if (info->flags & MDG_LDST_UBO) {
		unsigned int ubo = w->arg_comp | w->arg_reg << 2 |
				   (unsigned int)w->bitsize_toggle << 5 |
				   w->index_format << 6;

		sbf(&want, " ");
		put_wreg(&want, w->reg);
		put_load_mask(&want, w->mask, w->swizzle);
		/*
		 * Offset bit 0: Mesa's disassembler reads it as "the UBO index
		 * is the immediate in arg/toggle/format" and otherwise prints a
		 * register there; our printer writes ubo(N) either way (README,
		 * "Differences from Mesa"). Both readings are predicted here.
		 */
		if (w->offset & 1) {
			sbf(&want, ", %u", ubo);
		} else {
			sbf(&want, ", ");
			put_sel(&want, w->arg_reg);
			sbf(&want, ".%c", comps[w->arg_comp]);
		}
		sbf(&want, ", ");
		put_sel(&want, w->index_reg);
		sbf(&want, ".%c", comps[w->index_comp]);
		if (w->index_shift)
			sbf(&want, " << %u", w->index_shift);
		put_sint(&want, w->offset >> 2);
	} else if (info->flags & MDG_LDST_LOAD) {
		sbf(&want, " ");
		put_wreg(&want, w->reg);
		put_load_mask(&want, w->mask, w->swizzle);
		put_address(&want, w, true);
	} else if (info->flags & MDG_LDST_STORE) {
		sbf(&want, " ");
		put_sel(&want, w->reg);
		put_swz4(&want, w->swizzle, w->mask);
		put_address(&want, w, true);
	} else if (w->op == MDG_LDST_MOV || w->op == MDG_LDST_LEA) {
		bool lea = w->op == MDG_LDST_LEA;

		sbf(&want, " ");
		put_wreg(&want, w->reg);
		put_load_mask(&want, w->mask, lea ? w->swizzle : 0xE4);
		if (lea)
			put_address(&want, w, true);
		sbf(&want, ", ");
		put_sel(&want, w->arg_reg);
		put_swz4(&want, w->swizzle, 0xF);
	} else {
		exact = false;
	}
	if (!line) {
		mismatch("%s: Mesa printed nothing", info->name);
	} else if (exact ? strcmp(line, want.s) :
		   strncmp(line, want.s, want.n) ||
		   (line[want.n] != ' ' && line[want.n] != '.' &&
		    line[want.n] != '\0')) {
		mismatch("%s: '%s', expected '%s%s'", info->name, line, want.s,
			 exact ? "" : "...");
	}
}

/* ---- Texture words ---- */

/* Mesa asserts that a register-select byte has its top 3 bits clear and is
 * not both full and upper; our library keeps handles as raw 16-bit fields. */
static void predict_tex_select(unsigned int byte)
{
	if (byte & 0xE0)
		predict_assert();
	if ((byte & 1) && (byte & 4))
		predict_assert();
}

/* Texture modes Mesa names (others print "unk"); formats; partial
 * execution (3 = none). */
static const char *tex_mode_name(unsigned int mode)
{
	switch (mode) {
	case 1: return "";
	case 5: return ".shadow";
	case 6: return ".gather.shadow";
	case 8: return ".gatherX";
	case 9: return ".gatherY";
	case 10: return ".gatherZ";
	case 11: return ".gatherW";
	default: return "unk";
	}
}

static const char *const tex_formats[4] = { "cube", "1d", "2d", "3d" };
static const char *const exec_names[4] = { ".reserved", ".skip", ".kill", "" };

static void check_tex_lines(struct lines *l, const struct mdg_bundle *b)
{
	const struct mdg_tex *t = &b->tex;
	const char *name = xchk_mesa_tex_name(t->op);
	const char *line = next_line(l);
	struct sb want = { .n = 0 };

	st.tex++;
	/* Mesa's sampler-type assertion: 0 exactly for mov and barrier. */
	if ((t->op == MDG_TEX_OP_MOV || t->op == MDG_TEX_OP_BARRIER) ?
	    t->sampler_type != 0 : t->sampler_type == 0)
		predict_assert();
	sbf(&want, "%s", name ? name : "(none)");
	if (t->op == MDG_TEX_OP_BARRIER) {
		/* exec bit 0 and bit 1 are Mesa's "cont" and "last", forced
		 * on by its compiler; our library accepts any exec value. */
		if (!(t->exec & 1)) {
			sbf(&want, "/* cont missing? */");
			st.predicted++;
		}
		if (!(t->exec & 2)) {
			sbf(&want, "/* last missing? */");
			st.predicted++;
		}
		if (t->out_of_order)
			sbf(&want, ".ooo%u", t->out_of_order);
		if (!line || strcmp(line, want.s))
			mismatch("barrier '%s', expected '%s'",
				 line ? line : "(none)", want.s);
		return;
	}
	if (b->tag == MDG_TAG_TEXTURE_VTX)
		sbf(&want, ".vtx");
	if (t->op == MDG_TEX_OP_DERIVATIVE)
		sbf(&want, "%s", t->mode == 0 ? ".x" : t->mode == 1 ? ".y" : "unk");
	else
		sbf(&want, "%s", tex_mode_name(t->mode));
	sbf(&want, ".%s", tex_formats[t->format]);
	sbf(&want, "%s", exec_names[t->exec]);
	if (t->out_of_order)
		sbf(&want, ".ooo%u", t->out_of_order);
	sbf(&want, " TA%u", t->out_select);
	if (t->mask == 0xF) {
		if (t->out_upper)
			sbf(&want, "'");
	} else {
		unsigned int i;

		sbf(&want, ".");
		for (i = 0; i < 4; i++)
			if (t->mask & (1u << i))
				sbf(&want, "%c", comps[i + (t->out_upper ? 4 : 0)]);
	}
	sbf(&want, ".%c%u", t->sampler_type == 1 ? 'f' : 'i',
	    t->out_full ? 32 : 16);
	if (t->out_full && t->out_upper)
		predict_assert();
	if (t->in_full && t->in_upper)
		predict_assert();
	if (t->offset_register && t->out_full && t->out_upper)
		predict_assert();
	if (t->texture_register)
		predict_tex_select(t->texture_handle & 0xFF);
	if (t->sampler_register)
		predict_tex_select(t->sampler_handle & 0xFF);
	if (t->lod_register)
		predict_tex_select(t->bias);
	if (!name || !line || strncmp(line, want.s, want.n) ||
	    strstr(line, "/* nonbarrier") ||
	    strstr(line, "invalid negative"))
		mismatch("texture '%s', expected '%s...'",
			 line ? line : "(none)", want.s);
	if (t->unknown4 || t->unknown8) {
		/* Printed as information, not as an error. */
		want.n = 0;
		sbf(&want, "// unknown4 = 0x%x", t->unknown4);
		line = next_line(l);
		if (!line || strcmp(line, want.s))
			mismatch("'%s', expected '%s'", line ? line : "(none)",
				 want.s);
		want.n = 0;
		sbf(&want, "// unknown8 = 0x%x", t->unknown8);
		line = next_line(l);
		if (!line || strcmp(line, want.s))
			mismatch("'%s', expected '%s'", line ? line : "(none)",
				 want.s);
	}
}

/* ---- Programs ---- */

/* The exact NOP word (0x03), the only one Mesa does not print. */
static bool is_nop_word(const struct mdg_ldst *w)
{
	static const struct mdg_ldst nop = { .op = MDG_LDST_NOP };

	return ldst_equal(w, &nop);
}

/* Does an enabled unit read the embedded constants? */
static bool reads_constants(const struct mdg_bundle *b)
{
	unsigned int u;

	for (u = 0; u < MDG_UNIT_COUNT; u++) {
		const struct mdg_alu *a = &b->alu[u];

		if (!(b->units & MDG_UNIT_MASK(u)))
			continue;
		if (a->src1_reg == MDG_REG_CONST ||
		    (!a->src2_imm && a->src2_reg == MDG_REG_CONST))
			return true;
	}
	return false;
}

static void prog_add(struct prog *p, const struct mdg_bundle *b, int target)
{
	p->b[p->n] = *b;
	p->target[p->n] = target;
	p->n++;
}

/*
 * Encodes, runs Mesa's disassembler, compares. Bundles are chained (each
 * next tag is the following bundle's tag, BREAK at the end) and branches get
 * the offset and destination tag of their target bundle.
 */
static void run_prog(struct prog *p)
{
	static uint8_t code[MAX_BUNDLES * MDG_MAX_BUNDLE_BYTES + 256];
	uint8_t tags[MAX_BUNDLES];
	unsigned int size[MAX_BUNDLES], i, addr = 0, u;
	char err[256], asserts[1024];
	char *out = NULL;
	size_t out_len = 0;
	unsigned int got_asserts;
	bool forward = false;
	struct lines l;
	FILE *f;
	int pass;

	st.programs++;
	cur_code = NULL;
	cur_bundle = 0;
	predicted_asserts = 0;
	predicted_log.n = 0;
	predicted_log.s[0] = '\0';
	for (pass = 0; pass < 2; pass++) {
		addr = 0;
		for (i = 0; i < (unsigned int)p->n; i++) {
			struct mdg_bundle *b = &p->b[i];

			if (pass == 1) {
				b->next_tag = i + 1 < (unsigned int)p->n ?
					      tags[i + 1] : MDG_TAG_BREAK;
				if (b->has_branch && p->target[i] >= 0) {
					int t = p->target[i];

					b->branch.offset =
						((int)cur_addr[t] -
						 (int)(cur_addr[i] + size[i])) / 16;
					b->branch.dest_tag = tags[t];
				}
			} else {
				b->next_tag = MDG_TAG_BREAK;
			}
			size[i] = mdg_encode_bundle(b, code + addr,
						    sizeof(code) - addr, err,
						    sizeof(err));
			if (!size[i]) {
				cur_bundle = i;
				mismatch("our encoder refuses the bundle: %s", err);
				return;
			}
			if (pass == 1 && (code[addr] & 0xF) != tags[i]) {
				cur_bundle = i;
				mismatch("tag changed on re-encoding");
				return;
			}
			tags[i] = code[addr] & 0xF;
			cur_addr[i] = addr;
			addr += size[i];
		}
		cur_addr[i] = addr;
	}
	memset(code + addr, 0, 256);
	cur_code = code;

	f = open_memstream(&out, &out_len);
	if (!f) {
		perror("open_memstream");
		exit(2);
	}
	xchk_mesa_take_asserts(NULL, 0);
	xchk_mesa_stdout = f;
	disassemble_midgard(f, code, addr, GPU_ID, true);
	xchk_mesa_stdout = NULL;
	fclose(f);
	got_asserts = xchk_mesa_take_asserts(asserts, sizeof(asserts));

	l.buf = out;
	l.pos = out;
	for (i = 0; i < (unsigned int)p->n; i++) {
		const struct mdg_bundle *b = &p->b[i];
		const char *line;
		unsigned int tag = tags[i];

		cur_bundle = i;
		st.bundles++;
		if (xchk_mesa_tag_quadwords(tag) * 16 != size[i])
			mismatch("tag %X: %u bytes for us, %u quadwords for Mesa",
				 tag, size[i], xchk_mesa_tag_quadwords(tag));
		switch (mdg_tag_kind(tag)) {
		case MDG_KIND_ALU:
			for (u = 0; u < MDG_UNIT_COUNT; u++)
				if (b->units & MDG_UNIT_MASK(u))
					check_alu_line(next_line(&l), b,
						       (enum mdg_unit)u);
			forward = false;
			if (b->has_branch) {
				check_branch_line(next_line(&l), &b->branch);
				forward = b->branch.offset >= 0;
			}
			if (b->has_constants) {
				char want[128];

				st.constants++;
				snprintf(want, sizeof(want),
					 "uconstants 0x%X, 0x%X, 0x%X, 0x%X",
					 b->constants[0], b->constants[1],
					 b->constants[2], b->constants[3]);
				line = next_line(&l);
				if (!line || strcmp(line, want))
					mismatch("'%s', expected '%s'",
						 line ? line : "(none)", want);
			}
			if (tag >= MDG_TAG_ALU4_WRITEOUT) {
				line = next_line(&l);
				if (!line || strcmp(line, "writeout"))
					mismatch("'%s', expected 'writeout'",
						 line ? line : "(none)");
			}
			break;
		case MDG_KIND_LDST:
			for (u = 0; u < 2; u++)
				if (!is_nop_word(&b->ldst[u]))
					check_ldst_line(next_line(&l), &b->ldst[u]);
			break;
		case MDG_KIND_TEXTURE:
			check_tex_lines(&l, b);
			break;
		default:
			mismatch("bundle of unknown kind");
			break;
		}
		/* After the last bundle: "break" when the last ALU branch went
		 * forward (Mesa then keeps reading), then the blank line. */
		if (i + 1 == (unsigned int)p->n && forward) {
			line = next_line(&l);
			if (!line || strcmp(line, "break"))
				mismatch("'%s', expected 'break'",
					 line ? line : "(none)");
		}
		line = next_line(&l);
		if (!line || *line) {
			mismatch("'%s', expected the end of the bundle",
				 line ? line : "(end of output)");
			/* Resynchronise at the next blank line. */
			while (line && *line)
				line = next_line(&l);
		}
	}
	cur_bundle = (unsigned int)p->n - 1;
	{
		const char *rest = next_line(&l);

		if (rest)
			mismatch("Mesa printed more: '%s'", rest);
	}
	if (got_asserts != predicted_asserts)
		mismatch("Mesa's assertions: %u (%s), predicted %u (%s)",
			 got_asserts, asserts, predicted_asserts,
			 predicted_log.s);
	free(out);
}

/* ---- The corpus ---- */

static struct prog cur;

static void flush_prog(void)
{
	if (cur.n)
		run_prog(&cur);
	memset(&cur, 0, sizeof(cur));
}

static void add_bundle(const struct mdg_bundle *b, int target)
{
	if (cur.n == 8)
		flush_prog();
	prog_add(&cur, b, target);
}

static uint16_t vsrc(unsigned int mod, unsigned int expand, unsigned int swz)
{
	return MDG_VSRC(mod, expand, swz);
}

/* One instruction of op on unit in variant v (several forms per op). */
static void make_alu(struct mdg_bundle *b, uint8_t op, enum mdg_unit u,
		     unsigned int v)
{
	const struct mdg_alu_op_info *info = mdg_alu_op_info(op);
	struct mdg_alu *a = &b->alu[u];
	bool int_dst = info->flags & MDG_OP_INT_DST;

	memset(b, 0, sizeof(*b));
	b->tag = MDG_TAG_ALU4;
	b->units = (uint8_t)MDG_UNIT_MASK(u);
	a->op = op;
	a->dst_reg = (uint8_t)((op + v * 5) % 24);
	a->src1_reg = (uint8_t)((op * 3 + v) % 24);
	a->src2_reg = (uint8_t)((op * 7 + 2 * v + 1) % 32);
	if (a->src2_reg == MDG_REG_CONST)
		a->src2_reg = 27;
	a->outmod = int_dst ? MDG_OUTMOD_KEEP_LOW : (uint8_t)(v & 3);
	if (mdg_unit_is_scalar(u)) {
		a->full = v & 1;
		a->comp = (uint8_t)(a->full ? (v * 2) & 6 : (v * 3) & 7);
		a->ssrc1 = (uint8_t)((v & 3) | (a->full ? 4 : 0) |
				     ((a->full ? 2 * (v % 4) : v % 8) << 3));
		a->ssrc2 = (uint8_t)(((v + 1) & 3) | 4 | ((2 * (v % 3)) << 3));
		if (!a->full && int_dst)
			a->outmod = (uint8_t)(v & 3);   /* narrowed: all valid */
		if (v == 2)
			mdg_alu_set_immediate(a, u, (uint16_t)(0x3C00 + op));
		return;
	}
	a->shrink = MDG_SHRINK_NONE;
	switch (v) {
	case 0:         /* 32-bit, all lanes, identity and reversed swizzles */
		a->reg_mode = MDG_REG_MODE_32;
		a->mask = 0xFF;
		a->src1 = vsrc(0, 0, 0xE4);
		a->src2 = vsrc(1, 0, 0x1B);
		break;
	case 1:         /* 16-bit, some lanes, modifiers */
		a->reg_mode = MDG_REG_MODE_16;
		a->mask = 0x5A;
		a->src1 = vsrc(2, 0, 0x39);
		a->src2 = vsrc(3, 0, 0x93);
		break;
	case 2:         /* 32-bit with an inline immediate */
		a->reg_mode = MDG_REG_MODE_32;
		a->mask = 0x0C;
		a->src1 = vsrc(3, 0, 0x00);
		mdg_alu_set_immediate(a, u, (uint16_t)(0x4000 + op * 3));
		break;
	case 3:         /* 64-bit lanes */
		a->reg_mode = MDG_REG_MODE_64;
		a->mask = 0xF0;
		a->src1 = vsrc(0, 0, 0x4E);
		a->src2 = vsrc(1, 4, 0xE4);
		break;
	case 4:         /* 8-bit lanes */
		a->reg_mode = MDG_REG_MODE_8;
		a->mask = 0x81;
		a->src1 = vsrc(1, 1, 0xB1);
		a->src2 = vsrc(0, 3, 0xE4);
		break;
	default:        /* 32-bit, widened 16-bit sources, narrowed result */
		a->reg_mode = MDG_REG_MODE_32;
		a->mask = 0x33;
		a->src1 = vsrc(2, 4, 0x44);
		a->src2 = vsrc(1, 5, 0xEE);
		a->shrink = (uint8_t)(v & 1);
		a->outmod = (uint8_t)(v & 3);
		break;
	}
	if (info->flags & MDG_OP_REDUCE)
		a->mask = a->reg_mode == MDG_REG_MODE_64 ? 0x0F :
			  a->reg_mode == MDG_REG_MODE_32 ? 0x03 :
			  a->reg_mode == MDG_REG_MODE_16 ? 0x01 : 0x01;
	/* 8-bit reducing ops: a lane bit holds two components. */
	if ((info->flags & MDG_OP_REDUCE) && a->reg_mode == MDG_REG_MODE_8)
		a->reg_mode = MDG_REG_MODE_16;
}

TEST(alu_ops)
{
	unsigned int op, u, v, n = 0;
	struct mdg_bundle b;

	for (op = 0; op < 256; op++) {
		const struct mdg_alu_op_info *info = mdg_alu_op_info((uint8_t)op);

		if (!info)
			continue;
		if (!xchk_mesa_alu_name(op))
			mismatch("ALU op 0x%02X (%s): Mesa's table has no name", op,
				 info->name);
		for (u = 0; u < MDG_UNIT_COUNT; u++) {
			if (!(info->units & MDG_UNIT_MASK(u)))
				continue;
			for (v = 0; v < (mdg_unit_is_scalar(u) ? 4u : 7u); v++) {
				make_alu(&b, (uint8_t)op, (enum mdg_unit)u, v);
				add_bundle(&b, -1);
				n++;
			}
		}
	}
	flush_prog();
	printf("  %u single-instruction ALU bundles\n", n);
	CHECK(n > 0);
}

TEST(alu_full_bundles)
{
	/* All five units at once, with constants read by vector and scalar
	 * sources, writeout tags, every size of tag. */
	unsigned int k, u;
	struct mdg_bundle b;

	for (k = 0; k < 64; k++) {
		memset(&b, 0, sizeof(b));
		b.tag = k & 1 ? MDG_TAG_ALU4_WRITEOUT : MDG_TAG_ALU4;
		b.units = (uint8_t)(k % 31 + 1);
		for (u = 0; u < MDG_UNIT_COUNT; u++) {
			static const char *const ops[MDG_UNIT_COUNT] = {
				"fmul", "iadd", "fadd", "imul", "frcp" };
			uint8_t op = (uint8_t)mdg_alu_op_by_name(ops[u]);

			if (!(b.units & MDG_UNIT_MASK(u)))
				continue;
			{
				struct mdg_bundle tmp;

				make_alu(&tmp, op, (enum mdg_unit)u, k % 3);
				b.alu[u] = tmp.alu[u];
			}
			if (k & 2)
				b.alu[u].src1_reg = MDG_REG_CONST;
		}
		b.has_constants = (k & 6) != 0;
		for (u = 0; u < 4; u++)
			b.constants[u] = 0x3F800000u + k * 0x10001u + u;
		add_bundle(&b, -1);
	}
	flush_prog();
	CHECK(st.constants > 0);
}

TEST(ldst_ops)
{
	unsigned int op, v, n = 0;
	struct mdg_bundle b;

	for (op = 0; op < 256; op++) {
		const struct mdg_ldst_op_info *info = mdg_ldst_op_info((uint8_t)op);

		if (!info || op == MDG_LDST_NOP)
			continue;
		for (v = 0; v < 4; v++) {
			struct mdg_ldst *w = &b.ldst[v & 1];

			memset(&b, 0, sizeof(b));
			b.tag = MDG_TAG_LDST;
			b.ldst[0].op = b.ldst[1].op = MDG_LDST_NOP;
			w->op = (uint8_t)op;
			w->reg = (uint8_t)((info->flags & MDG_LDST_STORE) ?
					   (op + v) % 8 : (op + 5 * v) % 32);
			w->mask = (uint8_t)(v == 0 ? 0xF : (op + v) % 16);
			w->swizzle = (uint8_t)(v == 0 ? 0xE4 : op * 37 + v);
			w->arg_reg = (uint8_t)(v == 0 ? 7 : (op + v) % 8);
			w->arg_comp = (uint8_t)(v % 4);
			w->bitsize_toggle = v & 1;
			w->index_reg = (uint8_t)(v == 0 ? 7 : (op + 2 * v) % 8);
			w->index_comp = (uint8_t)((v + 1) % 4);
			w->index_format = (uint8_t)(v == 0 ? 1 : v % 4);
			w->index_shift = (uint8_t)(v == 0 ? 0 : (op + v) % 16);
			w->offset = v == 0 ? 0 : v == 1 ? 16 : v == 2 ? -132 :
				    (int32_t)(op * 1001 % 0x1FFFF) - 0xFFFF;
			if (info->flags & MDG_LDST_UBO)
				w->offset = v & 1 ? 1 + 64 * v : 32 * v;
			add_bundle(&b, -1);
			n++;
		}
	}
	flush_prog();
	printf("  %u load/store words\n", n);
	CHECK(n > 0);
}

TEST(branches)
{
	/* Every branch op, condition and call mode, compact and extended,
	 * forward and backward, to ALU, load/store and texture bundles. */
	static const uint8_t ops[] = { 1, 2, 4, 6, 7 };
	unsigned int k, n = 0;
	struct mdg_bundle alu, ld, bar;

	memset(&ld, 0, sizeof(ld));
	ld.tag = MDG_TAG_LDST;
	ld.ldst[0].op = MDG_LDST_LD_32;
	ld.ldst[0].mask = 0xF;
	ld.ldst[0].swizzle = 0xE4;
	ld.ldst[0].arg_reg = 7;
	ld.ldst[0].index_reg = 7;
	ld.ldst[0].index_format = 1;
	ld.ldst[1].op = MDG_LDST_NOP;
	memset(&bar, 0, sizeof(bar));
	bar.tag = MDG_TAG_TEXTURE_BARRIER;
	bar.tex.op = MDG_TEX_OP_BARRIER;
	bar.tex.exec = 3;
	for (k = 0; k < 160; k++) {
		struct prog *p = &cur;
		unsigned int i, from = k % 5, to = (k / 5) % 6;

		flush_prog();
		for (i = 0; i < 6; i++) {
			if (i % 3 == 1) {
				add_bundle(&ld, -1);
				continue;
			}
			if (i == 5) {
				add_bundle(&bar, -1);
				continue;
			}
			make_alu(&alu, (uint8_t)mdg_alu_op_by_name("fadd"),
				 MDG_UNIT_VADD, i % 3);
			if (k % 2) {
				/* A condition for the conditional branches. */
				struct mdg_bundle tmp;

				make_alu(&tmp, (uint8_t)mdg_alu_op_by_name("ine"),
					 MDG_UNIT_SMUL, 1);
				alu.units |= (uint8_t)MDG_UNIT_MASK(MDG_UNIT_SMUL);
				alu.alu[MDG_UNIT_SMUL] = tmp.alu[MDG_UNIT_SMUL];
				alu.alu[MDG_UNIT_SMUL].dst_reg = MDG_REG_COND;
			}
			add_bundle(&alu, -1);
		}
		/* The branch sits in an ALU bundle (0, 2 or 3). */
		from = from % 3 == 0 ? 0 : from % 3 == 1 ? 2 : 3;
		{
			struct mdg_branch *br = &p->b[from].branch;

			p->b[from].has_branch = true;
			memset(br, 0, sizeof(*br));
			br->extended = (k / 30) % 2;
			br->op = ops[k % 5];
			br->call_mode = (uint8_t)((k / 7) % 4);
			br->cond = (uint8_t)((k / 3) % 4);
			br->cond_lut = (k / 11) % 3 == 0 ? (uint16_t)(0x5555 * (k % 4)) :
				       (uint16_t)(0x1234 * k + 0x8421);
			if (!br->extended && br->op == 1)
				br->cond = 0;
			if (!br->extended && br->op != 1)
				br->call_mode = 0;
			p->target[from] = (int)to;
		}
		n++;
		flush_prog();
	}
	printf("  %u branch programs\n", n);
	CHECK(st.branches >= n);
}

TEST(texture_and_barrier)
{
	static const uint8_t ops[] = { 1, 2, 4, 9, 10, 12, 13 };
	unsigned int k;
	struct mdg_bundle b;

	for (k = 0; k < 64; k++) {
		memset(&b, 0, sizeof(b));
		if (k % 4 == 0) {
			b.tag = MDG_TAG_TEXTURE_BARRIER;
			b.tex.op = MDG_TEX_OP_BARRIER;
			b.tex.exec = (uint8_t)(k % 8 ? 3 : k / 8 % 4);
			b.tex.out_of_order = (uint8_t)(k % 16);
		} else {
			struct mdg_tex *t = &b.tex;

			b.tag = k % 2 ? MDG_TAG_TEXTURE : MDG_TAG_TEXTURE_VTX;
			t->op = ops[k % 7];
			t->exec = 3;
			t->format = (uint8_t)(k % 4);
			t->sampler_type = (t->op == MDG_TEX_OP_MOV) ? 0 :
					  (uint8_t)(1 + k % 3);
			t->mask = 0xF;
			t->swizzle = 0xE4;
			t->in_swizzle = 0xE4;
			t->in_full = true;
			t->out_full = true;
			t->texture_handle = (uint16_t)k;
			t->sampler_handle = (uint16_t)(k / 2);
			t->bias = (uint8_t)k;
		}
		add_bundle(&b, -1);
	}
	flush_prog();
	CHECK(st.tex > 0);
}

TEST(assembled_programs)
{
	/* Programs from our assembler (the README's example of docs/hardware.md
	 * §5.13 and a loop with a conditional branch) through Mesa, via the
	 * decoder. */
	static const char *const srcs[] = {
		"ldst\n\tmov r0.xyz, global_id.xyzx\n\tld_ubo.64 r1.xy, ubo(0)[0]\n"
		"alu\n\tvmul.imov.i32 r27.x, r0.xxxx\n\tvadd.imov.i32 r26.xy, r1.xyzw\n"
		"ldst\n\tst.32 r27.xxxx, [r26.xy + r27.x.u32 << 2]\n",
		"alu\n\tvmul.imov.i32 r1.x, #10\nloop:\nalu\n"
		"\tsadd.isub.i32 r1.x, r1.x, #1\n\tsmul.ine.i32 r31.w, r1.x, #0\n"
		"\tbr.true loop\nldst\n\tst.32 r27.xxxx, [r26.xy]\n",
		"alu\n\tvadd.fadd r0, r26, r1\n\tconst 1.5, 2, -3, 0x7F\n"
		"\tbr.ext done\nbarrier\ndone:\nalu.writeout\n\tvmul.fmov r0, r0\n",
	};
	uint8_t code[4096];
	unsigned int s, first;
	char err[256];

	for (s = 0; s < sizeof(srcs) / sizeof(srcs[0]); s++) {
		long n = mdg_assemble(srcs[s], code, sizeof(code), &first, err,
				      sizeof(err));
		unsigned int pos = 0;
		struct prog p;

		if (n < 0) {
			printf("  assemble %u: %s\n", s, err);
			CHECK(n >= 0);
			continue;
		}
		memset(&p, 0, sizeof(p));
		while (pos < (unsigned int)n - 16) {
			unsigned int k = mdg_decode_bundle(code + pos,
							   (size_t)n - pos,
							   &p.b[p.n], err,
							   sizeof(err));

			if (!k) {
				printf("  decode %u: %s\n", s, err);
				CHECK(k);
				break;
			}
			p.target[p.n] = -1;
			cur_addr[p.n] = pos;
			pos += k;
			p.n++;
		}
		/* Branch targets from the assembled offsets. */
		for (first = 0; first < (unsigned int)p.n; first++) {
			unsigned int t, dest;

			if (!p.b[first].has_branch)
				continue;
			dest = cur_addr[first + 1] + 16 * p.b[first].branch.offset;
			for (t = 0; t < (unsigned int)p.n; t++)
				if (cur_addr[t] == dest)
					p.target[first] = (int)t;
			CHECK(p.target[first] >= 0);
		}
		run_prog(&p);
	}
}

/* Random valid bundles, made fit for Mesa's disassembler: a bundle that
 * reads r26 gets constants (without them Mesa dereferences NULL; our
 * library leaves that to code generation), a branch gets a target inside
 * the program (Mesa indexes its tag table by the target). */
TEST(random_programs)
{
	unsigned int k, total = 0;
	struct mdg_bundle b;

	gen_seed_from_env();
	while (total < 4000) {
		unsigned int n = 1 + rn(12), i;

		flush_prog();
		for (i = 0; i < n; i++) {
			gen_bundle(&b);
			if (b.tag >= MDG_TAG_ALU4 && reads_constants(&b) &&
			    !b.has_constants) {
				b.has_constants = true;
				for (k = 0; k < 4; k++)
					b.constants[k] = rnd();
			}
			prog_add(&cur, &b, b.tag >= MDG_TAG_ALU4 && b.has_branch ?
					   (int)rn(n) : -1);
		}
		total += n;
		flush_prog();
	}
	printf("  %u random bundles\n", total);
}

int main(void)
{
	if (getenv("XCHK_SHOW"))
		max_shown = strtoul(getenv("XCHK_SHOW"), NULL, 0);
	op_ishladd = mdg_alu_op_by_name("ishladd");
	op_ishlsub = mdg_alu_op_by_name("ishlsub");
	RUN(alu_ops);
	RUN(alu_full_bundles);
	RUN(ldst_ops);
	RUN(branches);
	RUN(texture_and_barrier);
	RUN(assembled_programs);
	RUN(random_programs);
	printf("checked %lu programs, %lu bundles: %lu ALU instructions, %lu "
	       "load/store words, %lu texture words, %lu branches, %lu constant "
	       "blocks; %lu full source swizzles; %lu predicted Mesa remarks; "
	       "%lu mismatches\n",
	       st.programs, st.bundles, st.alu, st.ldst, st.tex, st.branches,
	       st.constants, st.sampled_swizzles, st.predicted, st.mismatches);
	return check_summary();
}
