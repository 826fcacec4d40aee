/* SPDX-License-Identifier: MIT */
/*
 * Bundles as assembler text (syntax: README.md "Assembly syntax"). Every
 * field is printed, either in its readable form or, when the readable form
 * would make the assembler choose another value, as a raw {field=value}
 * annotation, so that mdg_assemble() reproduces the bytes exactly.
 */
#include <string.h>

#include "midgard_internal.h"

struct sb {
	char *p;
	size_t size;
	size_t len;
};

static void put(struct sb *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct sb *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s->len < s->size ? s->p + s->len : NULL,
		      s->len < s->size ? s->size - s->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->len += (size_t)n;
}

/* Annotations: " {a=1, b=2}" collected while printing one line. */
struct annot {
	struct sb *s;
	bool open;
};

static void annot(struct annot *a, const char *key, long long v)
{
	put(a->s, "%s%s=%s%llX", a->open ? ", " : " {", key,
	    v < 0 ? "-0x" : "0x", v < 0 ? -v : v);
	a->open = true;
}

static void annot_end(struct annot *a)
{
	if (a->open)
		put(a->s, "}");
	a->open = false;
}

static const char comp_letters[] = "xyzwefgh";

static void put_swizzle(struct sb *s, unsigned int swz)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		put(s, "%c", comp_letters[(swz >> (2 * i)) & 3]);
}

static const char *const expand_names[8] = {
	NULL, "rep_lo", "rep_hi", "swap", "widen_lo", "widen_hi",
	"widen_lo_swap", "widen_hi_swap",
};
static const char *const int_mod_names[4] = { NULL, "zext", "repl", "lshift" };
static const char *const float_outmod_names[4] = {
	NULL, "pos", "sat_signed", "sat",
};
static const char *const int_outmod_names[4] = {
	"ssat", "usat", NULL, "keephi",
};

/* ---- ALU ---- */

/* The source descriptors the assembler gives an operand left out. */
#define VSRC_DEFAULT MDG_VSRC(0, 0, 0xE4)
#define SSRC_DEFAULT 0x04

/* Prints the 2 modifier bits the way the op reads them. */
static void put_src_open(struct sb *s, bool int_src, unsigned int mod)
{
	if (int_src)
		return;
	if (mod & 2)
		put(s, "-");
	if (mod & 1)
		put(s, "abs(");
}

static void put_src_close(struct sb *s, bool int_src, unsigned int mod)
{
	if (int_src) {
		if (int_mod_names[mod])
			put(s, ".%s", int_mod_names[mod]);
	} else if (mod & 1) {
		put(s, ")");
	}
}

static void put_vsrc(struct sb *s, bool int_src, unsigned int reg,
		     unsigned int d)
{
	put_src_open(s, int_src, MDG_VSRC_MOD(d));
	put(s, "r%u.", reg);
	put_swizzle(s, MDG_VSRC_SWIZZLE(d));
	if (expand_names[MDG_VSRC_EXPAND(d)])
		put(s, ".%s", expand_names[MDG_VSRC_EXPAND(d)]);
	put_src_close(s, int_src, MDG_VSRC_MOD(d));
}

static void put_scomp(struct sb *s, bool full, unsigned int comp)
{
	if (full)
		put(s, "%c", comp_letters[comp / 2]);
	else
		put(s, "h%u", comp);
}

static void put_ssrc(struct sb *s, bool int_src, unsigned int reg,
		     unsigned int d)
{
	put_src_open(s, int_src, MDG_SSRC_MOD(d));
	put(s, "r%u.", reg);
	put_scomp(s, MDG_SSRC_FULL(d), MDG_SSRC_COMP(d));
	put_src_close(s, int_src, MDG_SSRC_MOD(d));
}

static void put_imm(struct sb *s, bool int_src, uint16_t imm)
{
	float f = mdg_half_to_float(imm);

	if (int_src)
		put(s, "#%d", (int)(int16_t)imm);
	else if ((imm & 0x7C00) == 0x7C00)
		put(s, "#0x%04X", imm);          /* inf, NaN: raw bits */
	else
		put(s, "#%.9g", (double)f);
}

/* Vector write mask as component letters, or false if it has none. */
static bool put_vmask(struct sb *s, unsigned int mask, unsigned int mode)
{
	unsigned int per = mode == MDG_REG_MODE_64 ? 4 :
			   mode == MDG_REG_MODE_32 ? 2 : 1;
	unsigned int n = 8 / per, i, all = (1u << per) - 1;

	if (!mask)
		return false;
	for (i = 0; i < n; i++) {
		unsigned int bits = (mask >> (i * per)) & all;

		if (bits != 0 && bits != all)
			return false;
	}
	put(s, ".");
	for (i = 0; i < n; i++)
		if ((mask >> (i * per)) & 1)
			put(s, "%c", comp_letters[i]);
	return true;
}

static void put_alu(struct sb *s, const struct mdg_alu *a, enum mdg_unit unit)
{
	const struct mdg_alu_op_info *info = mdg_alu_op_info(a->op);
	bool int_src = info->flags & MDG_OP_INT_SRC;
	bool int_dst = info->flags & MDG_OP_INT_DST;
	bool scalar = mdg_unit_is_scalar(unit);
	const char *om = int_dst ? int_outmod_names[a->outmod] :
				   float_outmod_names[a->outmod];
	unsigned int def = scalar ? SSRC_DEFAULT : VSRC_DEFAULT;
	unsigned int s1 = scalar ? a->ssrc1 : a->src1;
	unsigned int s2 = scalar ? a->ssrc2 : a->src2;
	bool show1 = !((info->flags & MDG_OP_SRC2_ONLY) && a->src1_reg == 24 &&
		       s1 == def);
	bool show2 = !((info->flags & MDG_OP_ONE_SRC) && a->src2_reg == 24 &&
		       !a->src2_imm && s2 == def);
	struct annot an = { s, false };
	bool masked = true;

	put(s, "\t%s.%s.%c%u", mdg_unit_names[unit], info->name,
	    int_dst ? 'i' : 'f',
	    scalar ? (a->full ? 32u : 16u) : 8u << a->reg_mode);
	if (om)
		put(s, ".%s", om);
	if (!scalar && a->shrink != MDG_SHRINK_NONE)
		put(s, ".%s", a->shrink == MDG_SHRINK_LOWER ? "lower" : "upper");
	put(s, " r%u", a->dst_reg);
	if (scalar) {
		put(s, ".");
		put_scomp(s, a->full, a->comp);
	} else {
		masked = put_vmask(s, a->mask, a->reg_mode);
	}
	if (show1) {
		put(s, ", ");
		if (scalar)
			put_ssrc(s, int_src, a->src1_reg, s1);
		else
			put_vsrc(s, int_src, a->src1_reg, s1);
	}
	if (show2) {
		put(s, ", ");
		if (a->src2_imm)
			put_imm(s, int_src, mdg_alu_immediate(a, unit));
		else if (scalar)
			put_ssrc(s, int_src, a->src2_reg, s2);
		else
			put_vsrc(s, int_src, a->src2_reg, s2);
	}
	if (!masked)
		annot(&an, "mask", a->mask);
	annot_end(&an);
	put(s, "\n");
}

static uint16_t cond_lut(unsigned int cond)
{
	static const uint16_t lut[4] = { 0x0000, 0x5555, 0xAAAA, 0xFFFF };

	return lut[cond & 3];
}

static const char *const cond_names[4] = { "write0", "false", "true", "always" };

static void put_branch(struct sb *s, const struct mdg_bundle *b, uint64_t pc,
		       const struct mdg_print_ctx *ctx)
{
	const struct mdg_branch *br = &b->branch;
	int64_t target = (int64_t)pc + b->size + (int64_t)br->offset * 16;
	struct annot an = { s, false };
	int cond = -1, i;
	bool has_call = br->extended || br->op == MDG_BRANCH_OP_UNCOND;

	put(s, "\tbr");
	if (br->extended) {
		for (i = 0; i < 4; i++)
			if (br->cond_lut == cond_lut((unsigned int)i))
				cond = i;
		/* The assembler derives the LUT from the condition, always
		 * by default; write that one when the LUT is no pattern. */
		if (cond < 0)
			cond = 3;
		if (br->op == MDG_BRANCH_OP_UNCOND && br->cond_lut == 0xFFFF)
			cond = -1;
	} else if (br->op != MDG_BRANCH_OP_UNCOND) {
		cond = br->cond;
	}
	switch (br->op) {
	case MDG_BRANCH_OP_UNCOND:
		if (cond >= 0)
			put(s, ".uncond");
		break;
	case MDG_BRANCH_OP_DISCARD:
		put(s, ".discard");
		break;
	case MDG_BRANCH_OP_TILEBUFFER:
		put(s, ".tilebuffer");
		break;
	case MDG_BRANCH_OP_WRITEOUT:
		put(s, ".writeout");
		break;
	default:
		break;
	}
	if (cond >= 0)
		put(s, ".%s", cond_names[cond]);
	if (br->extended)
		put(s, ".ext");
	if (has_call && br->call_mode == 2)
		put(s, ".call");
	if (has_call && br->call_mode == 3)
		put(s, ".ret");
	if (ctx->target_is_label)
		put(s, " L%04llX", (unsigned long long)target);
	else if (target < 0)
		put(s, " -0x%llX", (unsigned long long)-target);
	else
		put(s, " 0x%llX", (unsigned long long)target);
	if (has_call && br->call_mode == 0)
		annot(&an, "call_mode", 0);
	if (br->extended && br->cond_lut != cond_lut(cond < 0 ? 3u :
						      (unsigned int)cond))
		annot(&an, "lut", br->cond_lut);
	if (!ctx->target_is_label || ctx->target_tag != br->dest_tag)
		annot(&an, "dest_tag", br->dest_tag);
	annot_end(&an);
	put(s, "\n");
}

/* ---- Load/store ---- */

static void put_sel(struct sb *s, unsigned int sel)
{
	if (sel < 8)
		put(s, "%s", mdg_ldst_sel_names[sel]);
	else
		put(s, "sel%u", sel);
}

static const char *const index_fmt_names[4] = { "fmt0", "u64", "u32", "s32" };

#define INDEX_FMT_DEFAULT MDG_INDEX_U64

/* [base + index << shift + offset]; the index is left out for cmpxchg,
 * whose index fields hold the comparison value. */
static void put_address(struct sb *s, const struct mdg_ldst *w, bool index)
{
	bool first = true;

	put(s, "[");
	if (!(w->arg_reg == MDG_LDST_SEL_ZERO && !w->arg_comp &&
	      !w->bitsize_toggle)) {
		put_sel(s, w->arg_reg);
		if (!w->bitsize_toggle)
			put(s, ".%c", comp_letters[w->arg_comp]);
		else if (w->arg_comp < 3)
			put(s, ".%c%c", comp_letters[w->arg_comp],
			    comp_letters[w->arg_comp + 1]);
		else
			put(s, ".w.64");
		first = false;
	}
	if (index && !(w->index_reg == MDG_LDST_SEL_ZERO && !w->index_comp &&
		       !w->index_shift &&
		       w->index_format == INDEX_FMT_DEFAULT)) {
		put(s, "%s", first ? "" : " + ");
		put_sel(s, w->index_reg);
		put(s, ".%c.%s", comp_letters[w->index_comp],
		    index_fmt_names[w->index_format]);
		if (w->index_shift)
			put(s, " << %u", w->index_shift);
		first = false;
	}
	if (first)
		put(s, "%d", w->offset);
	else if (w->offset)
		put(s, " %c %d", w->offset < 0 ? '-' : '+',
		    w->offset < 0 ? -w->offset : w->offset);
	put(s, "]");
}

static bool put_ldst_mask(struct sb *s, unsigned int mask)
{
	unsigned int i;

	if (!mask)
		return false;
	put(s, ".");
	for (i = 0; i < 4; i++)
		if (mask & (1u << i))
			put(s, "%c", comp_letters[i]);
	return true;
}

/* What the assembler fills in for the fields an instruction leaves out. */
void mdg_ldst_defaults(struct mdg_ldst *w, uint8_t op)
{
	memset(w, 0, sizeof(*w));
	w->op = op;
	switch (mdg_ldst_class(op)) {
	case MDG_LDST_CLASS_LOAD:
	case MDG_LDST_CLASS_STORE:
	case MDG_LDST_CLASS_ATOMIC:
	case MDG_LDST_CLASS_CMPXCHG:
	case MDG_LDST_CLASS_UBO:
	case MDG_LDST_CLASS_MOVE:
		w->mask = 0xF;
		w->swizzle = 0xE4;
		w->arg_reg = MDG_LDST_SEL_ZERO;
		w->index_reg = MDG_LDST_SEL_ZERO;
		w->index_format = INDEX_FMT_DEFAULT;
		break;
	default:
		break;
	}
	if (mdg_ldst_class(op) == MDG_LDST_CLASS_UBO) {
		w->index_format = 0;
		w->offset = 1; /* immediate UBO index (docs/hardware.md §5.8) */
	}
	if (mdg_ldst_class(op) == MDG_LDST_CLASS_MOVE)
		w->index_format = 0;
}

static void put_ldst(struct sb *s, const struct mdg_ldst *w)
{
	enum mdg_ldst_class cls = mdg_ldst_class(w->op);
	struct annot an = { s, false };
	struct mdg_ldst def;
	uint64_t got, want;
	const struct mdg_field *f;

	/* def = what the readable text below tells the assembler. */
	mdg_ldst_defaults(&def, w->op);
	put(s, "\t%s", mdg_ldst_op_info(w->op)->name);
	switch (cls) {
	case MDG_LDST_CLASS_LOAD:
	case MDG_LDST_CLASS_ATOMIC:
	case MDG_LDST_CLASS_CMPXCHG:
	case MDG_LDST_CLASS_UBO:
	case MDG_LDST_CLASS_MOVE:
		put(s, " r%u", w->reg);
		def.reg = w->reg;
		if (put_ldst_mask(s, w->mask))
			def.mask = w->mask;
		put(s, ", ");
		break;
	case MDG_LDST_CLASS_STORE:
		put(s, " ");
		put_sel(s, w->reg);
		put(s, ".");
		put_swizzle(s, w->swizzle);
		def.reg = w->reg;
		def.swizzle = w->swizzle;
		put(s, ", ");
		break;
	default:
		break;
	}
	if (cls == MDG_LDST_CLASS_LOAD || cls == MDG_LDST_CLASS_STORE ||
	    cls == MDG_LDST_CLASS_ATOMIC || cls == MDG_LDST_CLASS_CMPXCHG) {
		put_address(s, w, cls != MDG_LDST_CLASS_CMPXCHG);
		def.arg_reg = w->arg_reg;
		def.arg_comp = w->arg_comp;
		def.bitsize_toggle = w->bitsize_toggle;
		def.offset = w->offset;
		if (cls != MDG_LDST_CLASS_CMPXCHG) {
			def.index_reg = w->index_reg;
			def.index_comp = w->index_comp;
			def.index_format = w->index_format;
			def.index_shift = w->index_shift;
		}
	}
	if (cls == MDG_LDST_CLASS_LOAD && w->swizzle != 0xE4) {
		put(s, ".");
		put_swizzle(s, w->swizzle);
		def.swizzle = w->swizzle;
	}
	if (cls == MDG_LDST_CLASS_ATOMIC || cls == MDG_LDST_CLASS_CMPXCHG) {
		put(s, ", ");
		put_sel(s, (w->swizzle >> 2) & 7);
		put(s, ".%c", comp_letters[w->swizzle & 3]);
		def.swizzle = w->swizzle & 0x1F;
	}
	if (cls == MDG_LDST_CLASS_CMPXCHG) {
		put(s, ", ");
		put_sel(s, w->index_reg);
		put(s, ".%c", comp_letters[w->index_comp]);
		def.index_reg = w->index_reg;
		def.index_comp = w->index_comp;
	}
	if (cls == MDG_LDST_CLASS_UBO) {
		unsigned int ubo = w->arg_comp | w->arg_reg << 2 |
				   (unsigned int)w->bitsize_toggle << 5 |
				   w->index_format << 6;
		int ofs = w->offset >> 2;
		bool first = true;

		put(s, "ubo(%u)[", ubo);
		def.arg_comp = w->arg_comp;
		def.arg_reg = w->arg_reg;
		def.bitsize_toggle = w->bitsize_toggle;
		def.index_format = w->index_format;
		if (!(w->index_reg == MDG_LDST_SEL_ZERO && !w->index_comp &&
		      !w->index_shift)) {
			put_sel(s, w->index_reg);
			put(s, ".%c", comp_letters[w->index_comp]);
			if (w->index_shift)
				put(s, " << %u", w->index_shift);
			def.index_reg = w->index_reg;
			def.index_comp = w->index_comp;
			def.index_shift = w->index_shift;
			first = false;
		}
		if (first)
			put(s, "%d", ofs);
		else if (ofs)
			put(s, " %c %d", ofs < 0 ? '-' : '+',
			    ofs < 0 ? -ofs : ofs);
		put(s, "]");
		def.offset = (int32_t)((uint32_t)ofs << 2) | 1;
		if (w->swizzle != 0xE4) {
			put(s, ".");
			put_swizzle(s, w->swizzle);
			def.swizzle = w->swizzle;
		}
	}
	if (cls == MDG_LDST_CLASS_MOVE) {
		put_sel(s, w->arg_reg);
		put(s, ".");
		put_swizzle(s, w->swizzle);
		def.arg_reg = w->arg_reg;
		def.swizzle = w->swizzle;
	}
	got = mdg_ldst_pack(w);
	want = mdg_ldst_pack(&def);
	for (f = mdg_ldst_fields; f->name; f++) {
		uint64_t m = ((1ull << f->width) - 1) << f->lo;

		if ((got & m) != (want & m)) {
			uint64_t v = (got & m) >> f->lo;

			annot(&an, f->name, !strcmp(f->name, "offset") ?
				      mdg_sext(v, 18) : (long long)v);
		}
	}
	annot_end(&an);
	put(s, "\n");
}

/* ---- Texture ---- */

void mdg_tex_defaults(struct mdg_tex *t, uint8_t op)
{
	memset(t, 0, sizeof(*t));
	t->op = op;
	t->exec = 3;
}

static void put_tex(const struct mdg_bundle *b, struct annot *an)
{
	uint8_t got[16] = { 0 }, want[16] = { 0 };
	struct mdg_tex def;
	const struct mdg_field *f;

	mdg_tex_defaults(&def, b->tex.op);
	mdg_tex_pack(&b->tex, got);
	mdg_tex_pack(&def, want);
	for (f = mdg_tex_fields; f->name; f++) {
		uint64_t v = mdg_get_bits(got, f->lo, f->width);

		if (v != mdg_get_bits(want, f->lo, f->width))
			annot(an, f->name, (long long)v);
	}
}

/* ---- Bundles ---- */

int mdg_print_bundle_ctx(const struct mdg_bundle *b, uint64_t pc,
			 const struct mdg_print_ctx *ctx, char *out,
			 size_t out_size)
{
	struct sb s = { out, out_size, 0 };
	struct annot an = { &s, false };
	unsigned int u;

	if (out_size)
		out[0] = 0;
	switch (mdg_tag_kind(b->tag)) {
	case MDG_KIND_ALU:
		put(&s, b->tag >= MDG_TAG_ALU4_WRITEOUT ? "alu.writeout" : "alu");
		break;
	case MDG_KIND_LDST:
		put(&s, "ldst");
		break;
	case MDG_KIND_TEXTURE:
		if (b->tex.op == MDG_TEX_OP_BARRIER)
			put(&s, "barrier");
		else
			put(&s, "%s %s", b->tag == MDG_TAG_TEXTURE_VTX ?
				"tex.vtx" : "tex", mdg_tex_op_name(b->tex.op));
		put_tex(b, &an);
		break;
	default:
		put(&s, "; invalid bundle tag %u\n", b->tag);
		return (int)s.len;
	}
	if (ctx->auto_next != b->next_tag)
		annot(&an, "next", b->next_tag);
	annot_end(&an);
	put(&s, "\n");

	if (mdg_tag_kind(b->tag) == MDG_KIND_ALU) {
		for (u = 0; u < MDG_UNIT_COUNT; u++)
			if (b->units & MDG_UNIT_MASK(u))
				put_alu(&s, &b->alu[u], (enum mdg_unit)u);
		if (b->has_branch)
			put_branch(&s, b, pc, ctx);
		if (b->has_constants)
			put(&s, "\tconst 0x%08X, 0x%08X, 0x%08X, 0x%08X\n",
			    b->constants[0], b->constants[1], b->constants[2],
			    b->constants[3]);
	} else if (mdg_tag_kind(b->tag) == MDG_KIND_LDST) {
		/* Empty slots are plain NOP words; a NOP is printed only to
		 * keep a second instruction in the second slot. */
		bool busy1 = mdg_ldst_pack(&b->ldst[1]) != MDG_LDST_NOP;

		if (busy1 || mdg_ldst_pack(&b->ldst[0]) != MDG_LDST_NOP)
			put_ldst(&s, &b->ldst[0]);
		if (busy1)
			put_ldst(&s, &b->ldst[1]);
	}
	return (int)s.len;
}

/* ---- Whole programs ---- */

static bool all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* Tag of the bundle starting at byte addr, or -1 if none does. Programs
 * are walked linearly, each bundle sized by its own tag byte. */
static int bundle_at(const uint8_t *code, size_t len, int64_t addr)
{
	size_t pos = 0;

	while (pos < len && !all_zero(code + pos, len - pos)) {
		unsigned int size = mdg_tag_size(code[pos] & 0xF);

		if ((int64_t)pos == addr)
			return code[pos] & 0xF;
		if (!size || (int64_t)pos > addr)
			return -1;
		pos += size;
	}
	return -1;
}

static bool branch_target(const uint8_t *code, size_t len, size_t pos,
			  int64_t *target)
{
	struct mdg_bundle b;

	if (!mdg_decode_bundle(code + pos, len - pos, &b, NULL, 0) ||
	    mdg_tag_kind(b.tag) != MDG_KIND_ALU || !b.has_branch)
		return false;
	*target = (int64_t)pos + b.size + (int64_t)b.branch.offset * 16;
	return true;
}

static bool is_target(const uint8_t *code, size_t len, size_t at)
{
	size_t pos = 0;
	int64_t t;

	while (pos < len && !all_zero(code + pos, len - pos)) {
		unsigned int size = mdg_tag_size(code[pos] & 0xF);

		if (!size)
			break;
		if (branch_target(code, len, pos, &t) && t == (int64_t)at)
			return true;
		pos += size;
	}
	return false;
}

long mdg_disassemble(const uint8_t *code, size_t len, unsigned int first_tag,
		     char *out, size_t out_size, char *err, size_t err_size)
{
	struct sb s = { out, out_size, 0 };
	size_t pos = 0;

	if (out_size)
		out[0] = 0;
	if (err && err_size)
		err[0] = 0;
	if (!len || all_zero(code, len)) {
		mdg_fail(err, err_size, "no code");
		return -1;
	}
	if ((code[0] & 0xF) != first_tag) {
		mdg_fail(err, err_size, "first tag %u does not match the first "
			 "bundle's tag %u", first_tag, code[0] & 0xF);
		return -1;
	}
	/*
	 * Trailing zero bytes are the prefetch padding (docs/hardware.md §5.1).
	 */
	while (pos < len && !all_zero(code + pos, len - pos)) {
		struct mdg_print_ctx ctx = { MDG_TAG_BREAK, false, -1 };
		struct mdg_bundle b;
		char why[160];
		unsigned int size;
		size_t used;
		int n;

		size = mdg_decode_bundle(code + pos, len - pos, &b, why,
					 sizeof(why));
		if (!size) {
			mdg_fail(err, err_size, "bundle at 0x%zX: %s", pos, why);
			return -1;
		}
		if (pos + size < len && !all_zero(code + pos + size,
						  len - pos - size))
			ctx.auto_next = code[pos + size] & 0xF;
		if (b.has_branch) {
			int64_t t = (int64_t)pos + size +
				    (int64_t)b.branch.offset * 16;

			ctx.target_tag = bundle_at(code, len, t);
			ctx.target_is_label = ctx.target_tag >= 0;
		}
		if (is_target(code, len, pos))
			put(&s, "L%04zX:\n", pos);
		used = s.len < s.size ? s.len : s.size;
		n = mdg_print_bundle_ctx(&b, pos, &ctx, out ? out + used : NULL,
					 s.size - used);
		/* Keep counting when the text no longer fits. */
		s.len += (size_t)n;
		pos += size;
	}
	return (long)s.len;
}
