/* SPDX-License-Identifier: MIT */
/*
 * Instruction selection: lowered SIR to MIR (mbe_internal.h).
 *
 * Every SIR value maps to an operand view: a vreg with a swizzle and float
 * modifiers, embedded constant lanes, or a pushed uniform register. Vector
 * plumbing (EXTRACT, SHUFFLE of one source, COPY, BITCAST) and FNEG/FABS
 * feeding float ops become views, not instructions; PTR_ADD chains fold
 * into the load/store address; constants become inline immediates or
 * embedded constants. Values are 32-bit lanes (int, float, bool as 0/~0,
 * pointers), 1-4 components; 8- and 16-bit integers of 1-4 components sit
 * in 32-bit lanes with undefined upper bits (extended where an op reads
 * them), halves likewise (converted in integer ops); wider 8- and 16-bit
 * vectors arrive split into pieces of four lanes (sir_lower_midgard);
 * 64-bit integers of 1-2 components are component pairs (low word first)
 * computed in 64-bit reg mode; short8 and char16 values kept whole by
 * sir_lower_packed.c, and the masks of their comparisons, are one register
 * of 16- or 8-bit lanes computed in 16- or 8-bit reg mode (see "short8 and
 * char16 in narrow lanes" below). Other types are refused with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbe_internal.h"

#define SWZ_ID 0xE4                  /* .xyzw */
#define ONE_OVER_PI_F32 0x3EA2F983u
#define PUSH_ROWS_MAX 8              /* leaves 16 work registers */

struct isel {
	struct sir_function *f;
	struct mi_func *mf;
	struct mi_src *map;          /* per SIR value */
	uint8_t *comps;              /* per SIR value: components */
	bool *mapped;
	uint32_t *bmap;              /* SIR block -> MIR block */
	uint32_t cur;                /* MIR block being filled */
	unsigned int load_slot;      /* alternates r26.xy / r26.zw */
	char *err;
	size_t errsz;
	bool failed;
};

static bool fail(struct isel *s, const char *fmt, sir_id v)
{
	if (!s->failed) {
		const struct sir_instr *in = &s->f->values[v];

		snprintf(s->err, s->errsz, fmt, sir_op_name(in->op),
			 in->type.bits, in->type.comps);
		s->failed = true;
	}
	return false;
}

static const struct sir_instr *val(struct isel *s, sir_id v)
{
	return &s->f->values[v];
}

/* 64-bit lanes: longs and doubles. */
static bool is64(struct sir_type t)
{
	return (t.kind == SIR_INT || t.kind == SIR_FLOAT) && t.bits == 64;
}

/* 8- and 16-bit integers and halves: 32-bit lanes, upper bits undefined. */
static bool is_narrow(struct sir_type t)
{
	return (t.kind == SIR_INT || t.kind == SIR_FLOAT) && t.bits < 32;
}

/*
 * Lane bits of a value kept whole in narrow lanes: short8 and bool8
 * masks 16, char16 and bool16 masks 8; 0 for other types.
 */
static unsigned int packed_bits(struct sir_type t)
{
	if (t.kind == SIR_BOOL)
		return t.comps == 8 ? 16 : t.comps == 16 ? 8 : 0;
	if (t.kind == SIR_FLOAT)
		return t.bits == 16 && t.comps == 8 ? 16 : 0;
	if (t.kind != SIR_INT)
		return 0;
	return (t.bits == 16 && t.comps == 8) ||
	       (t.bits == 8 && t.comps == 16) ? t.bits : 0;
}

/* 32-bit components a value takes: a 64-bit lane takes two. */
static unsigned int ncomp(struct sir_type t)
{
	if (packed_bits(t))
		return 4;
	return is64(t) ? 2u * t.comps : t.comps;
}

/* Components per element. */
static unsigned int elem_comps(struct sir_type t)
{
	return is64(t) ? 2u : 1u;
}

/* Types the back end handles (see the top of the file). */
static bool supported(struct sir_type t)
{
	if (t.comps < 1)
		return false;
	if (t.kind == SIR_BOOL || t.kind == SIR_PTR)
		return t.comps <= 4;
	if (t.kind == SIR_FLOAT)
		return t.bits == 64 ? t.comps <= 2 :
		       (t.bits == 16 || t.bits == 32) && t.comps <= 4;
	if (t.kind != SIR_INT)
		return false;
	if (t.bits == 8 || t.bits == 16 || t.bits == 32)
		return t.comps <= 4;
	return t.bits == 64 && t.comps <= 2;
}

static uint8_t full_mask(unsigned int n)
{
	return (uint8_t)((1u << n) - 1);
}

static struct mi_src vreg_src(uint32_t vreg)
{
	struct mi_src r;

	memset(&r, 0, sizeof(r));
	r.kind = MO_VREG;
	r.reg = vreg;
	for (int j = 0; j < 4; j++)
		r.swz[j] = (uint8_t)j;
	return r;
}

static struct mi_src const_src(const uint32_t *vals, unsigned int n)
{
	struct mi_src r;

	memset(&r, 0, sizeof(r));
	r.kind = MO_CONST;
	/* Lanes past n repeat the last value (none: zeros). */
	for (unsigned int j = 0; j < 4 && n; j++)
		r.cval[j] = vals[j < n ? j : n - 1];
	return r;
}

static struct mi_src const1(uint32_t v)
{
	return const_src(&v, 1);
}

static const struct mi_src nosrc;        /* no operand */

/* The view of src with component j reading src's component sel[j]. */
static struct mi_src select_comps(struct mi_src src, const uint8_t *sel,
				  unsigned int n)
{
	struct mi_src r = src;

	for (unsigned int j = 0; j < 4; j++) {
		unsigned int k = sel[j < n ? j : n - 1];

		if (src.kind == MO_CONST)
			r.cval[j] = src.cval[k];
		else
			r.swz[j] = src.swz[k];
	}
	return r;
}

static struct mi_src splat(struct mi_src src, unsigned int k)
{
	uint8_t sel[4] = { (uint8_t)k, (uint8_t)k, (uint8_t)k, (uint8_t)k };

	return select_comps(src, sel, 4);
}

/* select_comps over elements of w (1 or 2) components. */
static struct mi_src select_elems(struct mi_src src, const uint8_t *sel,
				  unsigned int n, unsigned int w)
{
	uint8_t cs[4];

	for (unsigned int j = 0; j < 4; j++) {
		unsigned int e = j / w;

		cs[j] = (uint8_t)(sel[e < n ? e : n - 1] * w + j % w);
	}
	return select_comps(src, cs, 4);
}

static struct mi_src get(struct isel *s, sir_id v)
{
	struct mi_src none;

	if (v && v < s->f->num_values && s->mapped[v])
		return s->map[v];
	memset(&none, 0, sizeof(none));
	if (!s->failed)
		fail(s, "mdg: operand %s (%u-bit x%u) has no value", v);
	return none;
}

static void set(struct isel *s, sir_id v, struct mi_src src)
{
	s->map[v] = src;
	s->mapped[v] = true;
}

static bool is_half(struct sir_type t)
{
	return t.kind == SIR_FLOAT && t.bits == 16;
}

/* The sign bits of float lanes in a word (a double's high word; a
 * half8's word holds two halves). */
static uint32_t sign_bit(struct sir_type t)
{
	if (is_half(t))
		return t.comps == 8 ? 0x80008000u : 0x8000u;
	return 0x80000000u;
}

/* A float source: FNEG/FABS of a float value become source modifiers. */
static struct mi_src fsrc(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	struct mi_src r;

	if (in->op == SIR_OP_FNEG || in->op == SIR_OP_FABS) {
		r = fsrc(s, in->srcs[0]);
		if (r.kind == MO_CONST) {
			/* The sign bits: of each word, of each high word
			 * of a double's pair, or bit 15 of a half's word. */
			uint32_t sb = sign_bit(in->type);

			for (int j = is64(in->type) ? 1 : 0; j < 4;
			     j += is64(in->type) ? 2 : 1)
				r.cval[j] = in->op == SIR_OP_FNEG ?
					    r.cval[j] ^ sb : r.cval[j] & ~sb;
		} else if (in->op == SIR_OP_FNEG) {
			r.mod ^= 2;
		} else {
			r.mod = 1;
		}
		return r;
	}
	return get(s, v);
}

static struct mi_instr *alu(struct isel *s, uint8_t op, struct mi_dst dst,
			    struct mi_src a, struct mi_src b)
{
	const struct mdg_alu_op_info *info = mdg_alu_op_info(op);
	struct mi_instr *in = mi_append(s->mf, s->cur);

	in->kind = MI_ALU;
	in->op = op;
	in->units = info->units;
	in->outmod = (info->flags & MDG_OP_INT_DST) ? MDG_OUTMOD_KEEP_LOW :
		     MDG_OUTMOD_NONE;
	in->dst = dst;
	in->kills = dst.kind == MO_VREG;
	if (info->flags & MDG_OP_SRC2_ONLY) {
		in->src[1] = b.kind ? b : a;
	} else {
		in->src[0] = a;
		if (!(info->flags & MDG_OP_ONE_SRC))
			in->src[1] = b;
	}
	return in;
}

static struct mi_dst vdst(uint32_t vreg, uint8_t mask)
{
	struct mi_dst d = { MO_VREG, mask, 0, vreg };

	return d;
}

static struct mi_dst pdst(unsigned int reg, unsigned int off, uint8_t mask)
{
	struct mi_dst d = { MO_PHYS, mask, (uint8_t)off, reg };

	return d;
}

/* The fp16 bits of an fp32 value when it converts exactly. */
static bool exact_half(uint32_t f, uint16_t *h)
{
	uint32_t sign = (f >> 16) & 0x8000, mant = f & 0x7FFFFF;
	int exp = (int)((f >> 23) & 0xFF) - 127;

	if (exp == 128)
		return false;                    /* inf/NaN: use constants */
	if (exp == -127 && !mant) {
		*h = (uint16_t)sign;
		return true;
	}
	if (exp >= -14 && exp <= 15) {
		if (mant & 0x1FFF)
			return false;
		*h = (uint16_t)(sign | (uint32_t)(exp + 15) << 10 | mant >> 13);
		return true;
	}
	if (exp >= -24 && exp < -14) {
		unsigned int shift = (unsigned int)(-1 - exp);
		uint32_t full = 0x800000 | mant;

		if (full & ((1u << shift) - 1))
			return false;
		*h = (uint16_t)(sign | full >> shift);
		return true;
	}
	return false;
}

/* Turns a splat constant src2 into an inline immediate when it fits. */
static void try_immediate(struct mi_instr *in, unsigned int n)
{
	const struct mdg_alu_op_info *info = mdg_alu_op_info(in->op);
	struct mi_src *b = &in->src[1];
	uint32_t v = b->cval[0];
	uint16_t h;

	if (b->kind != MO_CONST || (info->flags & MDG_OP_CSEL))
		return;
	/* 64-bit lanes sign-extend the immediate: only 0 and -1 repeat
	 * as word pairs. */
	if (in->mode64 && v != 0 && v != 0xFFFFFFFFu)
		return;
	for (unsigned int j = 1; j < n; j++)
		if (b->cval[j] != v)
			return;
	if (info->flags & MDG_OP_INT_SRC) {
		if ((uint32_t)(int32_t)(int16_t)v != v)
			return;
		h = (uint16_t)v;
	} else {
		if (!exact_half(v, &h))
			return;
	}
	b->kind = MO_IMM;
	b->imm = h;
}

/* Vector units only, 64-bit lanes (component pairs). */
static void make_wide(struct mi_instr *in)
{
	in->mode64 = true;
	in->units &= (uint8_t)~(MDG_UNIT_MASK(MDG_UNIT_SADD) |
				MDG_UNIT_MASK(MDG_UNIT_SMUL));
}

/* dst (new vreg of n comps) = op(a, b) in 64-bit lanes; returns the vreg. */
static uint32_t op2w(struct isel *s, uint8_t op, unsigned int n,
		     struct mi_src a, struct mi_src b)
{
	uint32_t r = mi_vreg_new(s->mf, n);
	struct mi_instr *in = alu(s, op, vdst(r, full_mask(n)), a, b);

	s->mf->vregs[r].align2 = true;
	make_wide(in);
	try_immediate(in, n);
	return r;
}

/* dst (new vreg of n comps) = op(a, b); returns the vreg. */
static uint32_t op2(struct isel *s, uint8_t op, unsigned int n,
		    struct mi_src a, struct mi_src b)
{
	uint32_t r = mi_vreg_new(s->mf, n);
	const struct mdg_alu_op_info *info = mdg_alu_op_info(op);
	struct mi_instr *in;

	if (info->flags & MDG_OP_LUT) {
		/* LUT ops compute one lane each. */
		for (unsigned int j = 0; j < n; j++) {
			in = alu(s, op, vdst(r, (uint8_t)(1u << j)), a, b);
			in->kills = j == 0;
		}
		return r;
	}
	in = alu(s, op, vdst(r, full_mask(n)), a, b);
	try_immediate(in, n);
	return r;
}

static bool is_commutative(uint8_t op)
{
	switch (op) {
	case MDG_ALU_FADD: case MDG_ALU_FMUL: case MDG_ALU_FMIN:
	case MDG_ALU_FMAX: case MDG_ALU_IADD: case MDG_ALU_IMUL:
	case MDG_ALU_IMIN: case MDG_ALU_UMIN: case MDG_ALU_IMAX:
	case MDG_ALU_UMAX: case MDG_ALU_IAND: case MDG_ALU_IOR:
	case MDG_ALU_IXOR: case MDG_ALU_INXOR: case MDG_ALU_FEQ:
	case MDG_ALU_FNE: case MDG_ALU_IEQ: case MDG_ALU_INE:
	case MDG_ALU_IADDSAT: case MDG_ALU_UADDSAT:
		return true;
	default:
		return false;
	}
}

/* op(a, b) over n components, in 64-bit lanes when wide. */
static uint32_t opc(struct isel *s, uint8_t op, unsigned int n,
		    struct mi_src a, struct mi_src b, bool wide)
{
	if (a.kind == MO_CONST && b.kind != MO_CONST && is_commutative(op)) {
		struct mi_src t = a;

		a = b;
		b = t;
	}
	return wide ? op2w(s, op, n, a, b) : op2(s, op, n, a, b);
}

static void def2(struct isel *s, sir_id v, uint8_t op, struct mi_src a,
		 struct mi_src b)
{
	struct sir_type t = val(s, v)->type;

	set(s, v, vreg_src(opc(s, op, ncomp(t), a, b, is64(t))));
}

/* The vreg of a view, moved into a fresh vreg when it is not one. */
static uint32_t mov_to_vreg(struct isel *s, struct mi_src src, unsigned int n)
{
	uint32_t r = mi_vreg_new(s->mf, n);

	alu(s, MDG_ALU_IMOV, vdst(r, full_mask(n)), src, (struct mi_src){ 0 });
	return r;
}

/* ---- Memory ---- */

struct addr {
	uint8_t space;
	bool has_base, has_index;
	struct mi_src base, index;
	unsigned int shift;
	int32_t offset;
};

static bool const_u32(struct isel *s, sir_id v, uint32_t *out)
{
	const struct sir_instr *in = val(s, v);

	if (in->op != SIR_OP_CONST)
		return false;
	*out = (uint32_t)in->imm.u64[0];
	return true;
}

static bool fits_offset(int64_t o)
{
	return o >= -(1 << 17) && o < (1 << 17);
}

/* A term x << shift from a PTR_ADD operand. */
static void index_term(struct isel *s, sir_id o, struct addr *a)
{
	const struct sir_instr *in = val(s, o);
	uint32_t c;

	a->has_index = true;
	a->shift = 0;
	if (in->op == SIR_OP_SHL && const_u32(s, in->srcs[1], &c) && c < 16) {
		o = in->srcs[0];
		a->shift = c;
	} else if (in->op == SIR_OP_IMUL &&
		   const_u32(s, in->srcs[1], &c) && c && !(c & (c - 1)) &&
		   c < 65536) {
		o = in->srcs[0];
		a->shift = (unsigned int)__builtin_ctz(c);
	}
	/*
	 * ((x + c1) + c2) << shift: the constants join the offset, so
	 * accesses to neighbouring elements (unrolled loops give such
	 * chains) share their index register.
	 */
	for (in = val(s, o);
	     in->op == SIR_OP_IADD && in->type.bits == 32 &&
	     in->type.comps == 1 && const_u32(s, in->srcs[1], &c) &&
	     fits_offset((int64_t)a->offset +
			 (int64_t)(int32_t)c * ((int64_t)1 << a->shift));
	     in = val(s, o)) {
		a->offset += (int32_t)((int64_t)(int32_t)c *
				       ((int64_t)1 << a->shift));
		o = in->srcs[0];
	}
	a->index = get(s, o);
}

static void fold_address(struct isel *s, sir_id ptr, struct addr *a)
{
	sir_id cur = ptr;
	bool region = false;
	uint32_t c;

	memset(a, 0, sizeof(*a));
	a->space = val(s, ptr)->type.space;
	region = a->space == SIR_SPACE_PRIVATE || a->space == SIR_SPACE_LOCAL;
	for (;;) {
		const struct sir_instr *in = val(s, cur);

		if (in->op != SIR_OP_PTR_ADD)
			break;
		if (const_u32(s, in->srcs[1], &c) &&
		    fits_offset((int64_t)a->offset + (int32_t)c)) {
			a->offset += (int32_t)c;
		} else if (!a->has_index) {
			index_term(s, in->srcs[1], a);
		} else {
			break;
		}
		cur = in->srcs[0];
	}
	if (a->has_index && a->index.kind == MO_CONST &&
	    fits_offset((int64_t)a->offset +
			((int64_t)(int32_t)a->index.cval[0] << a->shift))) {
		a->offset += (int32_t)((uint32_t)a->index.cval[0] << a->shift);
		a->has_index = false;
	}
	if (region) {
		if (const_u32(s, cur, &c) &&
		    fits_offset((int64_t)a->offset + (int32_t)c)) {
			a->offset += (int32_t)c;
		} else if (!a->has_index) {
			a->has_index = true;
			a->index = get(s, cur);
			a->shift = 0;
		} else {
			/* Two dynamic terms: use the whole pointer. */
			a->has_index = true;
			a->index = get(s, ptr);
			a->shift = 0;
			a->offset = 0;
		}
		return;
	}
	a->has_base = true;
	a->base = get(s, cur);
}

/* imov of one component of src into r26/r27 component comp. */
static void mov_arg(struct isel *s, unsigned int reg, unsigned int comp,
		    struct mi_src src, unsigned int n)
{
	struct mi_src v = src;

	if (v.kind == MO_CONST) {
		uint32_t vals[4];

		memcpy(vals, v.cval, sizeof(vals));
		v = const_src(vals, n);
	}
	alu(s, MDG_ALU_IMOV, pdst(reg, comp, full_mask(n)), v,
	    (struct mi_src){ 0 });
}

/* Fills the address fields of w, with the argument moves. */
static void address_fields(struct mi_instr *tmpl,
			   const struct addr *a, unsigned int slot,
			   bool index_allowed)
{
	struct mdg_ldst *w = &tmpl->w;
	unsigned int bc = 2 * slot, ic = 2 * slot + 1;

	w->index_reg = MDG_LDST_SEL_ZERO;
	w->index_format = MDG_INDEX_U64;
	w->offset = a->offset;
	if (a->space == SIR_SPACE_PRIVATE || a->space == SIR_SPACE_LOCAL) {
		w->arg_reg = MDG_LDST_SEL_LOCAL_STORAGE;
		w->arg_comp = a->space == SIR_SPACE_LOCAL ? 2 : 0;
		w->bitsize_toggle = true;
	} else {
		w->arg_reg = MDG_LDST_SEL_R26;
		w->arg_comp = (uint8_t)bc;
		tmpl->phys_reads[0] |= (uint8_t)(1u << bc);
	}
	if (a->has_index && index_allowed) {
		w->index_reg = MDG_LDST_SEL_R26;
		w->index_comp = (uint8_t)ic;
		w->index_format = MDG_INDEX_S32;
		w->index_shift = (uint8_t)a->shift;
		tmpl->phys_reads[0] |= (uint8_t)(1u << ic);
	}
}

static void address_moves(struct isel *s, const struct addr *a,
			  unsigned int slot, bool index_allowed)
{
	if (a->has_base)
		mov_arg(s, 26, 2 * slot, a->base, 1);
	if (a->has_index && index_allowed)
		mov_arg(s, 26, 2 * slot + 1, a->index, 1);
}

static struct mi_instr *ldst(struct isel *s, const struct mi_instr *tmpl)
{
	struct mi_instr *in = mi_append(s->mf, s->cur);

	*in = *tmpl;
	in->kind = MI_LDST;
	return in;
}

/*
 * Loads n (1-4) components at the address into vreg r at comp first, with
 * op (0: the 32/64/128-bit load for n).
 */
static void emit_load_op(struct isel *s, const struct addr *a, uint32_t r,
			 unsigned int first, unsigned int n, bool kills,
			 uint8_t op)
{
	struct mi_instr t;
	unsigned int slot = s->load_slot;

	s->load_slot ^= 1;
	memset(&t, 0, sizeof(t));
	t.w.op = op ? op : n == 1 ? MDG_LDST_LD_32 :
		 n == 2 ? MDG_LDST_LD_64 : MDG_LDST_LD_128;
	t.dst = vdst(r, (uint8_t)(full_mask(n) << first));
	t.kills = kills;
	for (unsigned int j = 0; j < 4; j++)
		t.lswz[j] = (uint8_t)(j >= first ? j - first : 0);
	t.mem_read = true;
	address_moves(s, a, slot, true);
	address_fields(&t, a, slot, true);
	ldst(s, &t);
}

static void emit_load(struct isel *s, const struct addr *a, uint32_t r,
		      unsigned int first, unsigned int n, bool kills)
{
	emit_load_op(s, a, r, first, n, kills, 0);
}

static bool sel_load(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	unsigned int n = ncomp(in->type);
	struct addr a;
	uint32_t r = mi_vreg_new(s->mf, n);

	s->mf->vregs[r].align2 = is64(in->type);
	fold_address(s, in->srcs[0], &a);
	if (is_narrow(in->type)) {
		/* One zero-extending load per element. */
		unsigned int bytes = in->type.bits / 8;

		if (!fits_offset((int64_t)a.offset + 3 * bytes))
			return fail(s, "mdg: %s (%u-bit x%u): offset too "
				    "large", v);
		for (unsigned int j = 0; j < n; j++) {
			emit_load_op(s, &a, r, j, 1, j == 0,
				     bytes == 1 ? MDG_LDST_LD_U8 :
						  MDG_LDST_LD_U16);
			a.offset += (int32_t)bytes;
		}
	} else if (n == 3 && (in->aux % 16)) {
		/* 12 bytes not known to be readable as 16: two loads. */
		emit_load(s, &a, r, 0, 2, true);
		a.offset += 8;
		if (!fits_offset(a.offset))
			return fail(s, "mdg: %s (%u-bit x%u): offset too "
				    "large", v);
		emit_load(s, &a, r, 2, 1, false);
	} else {
		emit_load(s, &a, r, 0, n, true);
	}
	set(s, v, vreg_src(r));
	return true;
}

/* One st.u8 / st.u16 per element, each from its component of r27. */
static bool store_narrow(struct isel *s, sir_id v, struct addr *a)
{
	const struct sir_instr *in = val(s, v);
	const struct sir_type dt = val(s, in->srcs[1])->type;
	unsigned int n = dt.comps, bytes = dt.bits / 8;
	struct mi_instr t;

	if (!fits_offset((int64_t)a->offset + 3 * bytes))
		return fail(s, "mdg: %s (%u-bit x%u): offset too large", v);
	mov_arg(s, 27, 0, get(s, in->srcs[1]), n);
	for (unsigned int j = 0; j < n; j++) {
		memset(&t, 0, sizeof(t));
		t.w.op = bytes == 1 ? MDG_LDST_ST_U8 : MDG_LDST_ST_U16;
		t.w.reg = 1;                     /* r27 */
		t.w.mask = 0xF;
		t.w.swizzle = (uint8_t)(j * 0x55u);
		t.phys_reads[1] = (uint8_t)(1u << j);
		t.mem_write = true;
		t.mem_read = true;
		address_moves(s, a, 0, true);
		address_fields(&t, a, 0, true);
		ldst(s, &t);
		a->offset += (int32_t)bytes;
	}
	return true;
}

/* Stores n (1-4) 32-bit components of src at the address. */
static void store_words(struct isel *s, struct mi_src src, unsigned int n,
			struct addr *a)
{
	struct mi_instr t;

	memset(&t, 0, sizeof(t));
	t.w.op = n == 1 ? MDG_LDST_ST_32 : n == 2 ? MDG_LDST_ST_64 :
		 MDG_LDST_ST_128;
	t.w.reg = 1;                             /* r27 */
	/* A mask bit enables a quarter of the access: per component only
	 * for st.128. */
	t.w.mask = n > 2 ? full_mask(n) : 0xF;
	t.w.swizzle = SWZ_ID;
	t.phys_reads[1] = full_mask(n);
	t.mem_write = true;
	t.mem_read = true;
	mov_arg(s, 27, 0, src, n);
	address_moves(s, a, 0, true);
	address_fields(&t, a, 0, true);
	ldst(s, &t);
}

static bool sel_store(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	const struct sir_instr *data = val(s, in->srcs[1]);
	unsigned int n = ncomp(data->type);
	struct addr a;

	if (!supported(data->type))
		return fail(s, "mdg: %s of %u-bit x%u values is not "
			    "supported", in->srcs[1]);
	fold_address(s, in->srcs[0], &a);
	if (is_narrow(data->type))
		return store_narrow(s, v, &a);
	if (n == 3 && (in->aux % 16)) {
		/*
		 * 12 bytes not known to be the start of 16 that are ours
		 * (vstore3 at p + 1): st.128 with three components enabled
		 * still addresses 16 bytes, past the end of a private or
		 * local array that the 12 fill. Two stores, as sel_load.
		 */
		struct mi_src src = get(s, in->srcs[1]);

		store_words(s, src, 2, &a);
		a.offset += 8;
		if (!fits_offset(a.offset))
			return fail(s, "mdg: %s (%u-bit x%u): offset too "
				    "large", in->srcs[1]);
		store_words(s, splat(src, 2), 1, &a);
		return true;
	}
	store_words(s, get(s, in->srcs[1]), n, &a);
	return true;
}

/*
 * What LD_IMAGE and ST_IMAGE words share (docs/hardware.md §4.10): the
 * image's attribute (its ordinal, a compile-time constant, in the
 * offset's bits [17:9]), the 16-bit coordinates in r26 from component
 * arg_comp, four of them (bitsize_toggle) for 3D images and 2D arrays.
 * False, with the error set, when the image is not such an ordinal.
 */
static bool image_word(struct isel *s, sir_id image, uint8_t op,
		       bool layered, unsigned int arg_comp,
		       struct mi_instr *t)
{
	const struct sir_instr *img = val(s, image);

	if (img->op != SIR_OP_CONST || img->imm.u64[0] > 255)
		return fail(s, "mdg: image %s is not an image argument "
			    "known at compile time", image);
	memset(t, 0, sizeof(*t));
	t->w.op = op;
	t->w.arg_reg = MDG_LDST_SEL_R26;
	t->w.arg_comp = (uint8_t)arg_comp;
	t->w.bitsize_toggle = layered;
	t->w.index_reg = MDG_LDST_SEL_ZERO;
	t->w.index_format = MDG_INDEX_U64;
	t->w.offset = (int32_t)(img->imm.u64[0] << 9);
	return true;
}

/*
 * write_image*: ST_IMAGE on the image's attribute (its ordinal, in the
 * offset's bits [17:9]; docs/hardware.md §4.10), the texel from r27, the
 * 16-bit x | y << 16 coordinates in r26.x and, for 3D images and 2D
 * arrays, z in r26.y (bitsize_toggle: four 16-bit coordinates).
 */
static bool sel_image_store(struct isel *s, sir_id v)
{
	static const uint8_t ops[] = {
		[SIR_IMAGE_F32] = MDG_LDST_ST_IMAGE_F32,
		[SIR_IMAGE_S32] = MDG_LDST_ST_IMAGE_S32,
		[SIR_IMAGE_U32] = MDG_LDST_ST_IMAGE_U32,
	};
	const struct sir_instr *in = val(s, v);
	bool layered = in->aux2 == 1;
	struct mi_instr t;

	if (!image_word(s, in->srcs[0], ops[in->aux], layered, 0, &t))
		return false;
	t.w.reg = 1;                             /* r27 */
	t.w.mask = 0xF;
	t.w.swizzle = SWZ_ID;
	t.phys_reads[0] = layered ? 3 : 1;
	t.phys_reads[1] = 0xF;
	t.mem_write = true;
	t.mem_read = true;
	mov_arg(s, 27, 0, get(s, in->srcs[1]), 4);
	mov_arg(s, 26, 0, get(s, in->srcs[2]), 1);
	if (layered)
		mov_arg(s, 26, 1, get(s, in->srcs[3]), 1);
	ldst(s, &t);
	return true;
}

/*
 * read_image* without a sampler: LD_IMAGE on the image's attribute, the
 * coordinates as for a store but in the load's r26 slot (xy or zw), the
 * texel into a new vreg.
 */
static bool sel_image_load(struct isel *s, sir_id v)
{
	static const uint8_t ops[] = {
		[SIR_IMAGE_F32] = MDG_LDST_LD_IMAGE_F32,
		[SIR_IMAGE_S32] = MDG_LDST_LD_IMAGE_S32,
		[SIR_IMAGE_U32] = MDG_LDST_LD_IMAGE_U32,
	};
	const struct sir_instr *in = val(s, v);
	bool layered = in->aux2 == 1;
	unsigned int slot = s->load_slot, bc = 2 * slot;
	uint32_t r;
	struct mi_instr t;

	if (!image_word(s, in->srcs[0], ops[in->aux], layered, bc, &t))
		return false;
	r = mi_vreg_new(s->mf, 4);
	s->load_slot ^= 1;
	t.dst = vdst(r, 0xF);
	t.kills = true;
	for (unsigned int j = 0; j < 4; j++)
		t.lswz[j] = (uint8_t)j;
	t.phys_reads[0] = (uint8_t)((layered ? 3u : 1u) << bc);
	t.mem_read = true;
	mov_arg(s, 26, bc, get(s, in->srcs[1]), 1);
	if (layered)
		mov_arg(s, 26, bc + 1, get(s, in->srcs[2]), 1);
	ldst(s, &t);
	set(s, v, vreg_src(r));
	return true;
}

/*
 * read_image* with a sampler: a texture word (op gradient with LOD 0 in
 * the word, as Mesa's txl) on texture index = the image's ordinal and
 * the sampler's index, coordinates staged in r28 as fp32, the result in
 * r29, then copied to a new vreg (docs/hardware.md §4.10, §5.10).
 */
static bool sel_image_sample(struct isel *s, sir_id v)
{
	static const uint8_t sampler_types[] = {
		[SIR_IMAGE_F32] = 1, [SIR_IMAGE_U32] = 2, [SIR_IMAGE_S32] = 3,
	};
	const struct sir_instr *in = val(s, v);
	const struct sir_instr *img = val(s, in->srcs[0]);
	const struct sir_instr *smp = val(s, in->srcs[1]);
	uint32_t r = mi_vreg_new(s->mf, 4);
	struct mi_instr *t;
	struct mi_src res;

	if (img->op != SIR_OP_CONST || img->imm.u64[0] > 0xFFFF ||
	    smp->op != SIR_OP_CONST || smp->imm.u64[0] > 0xFFFF)
		return fail(s, "mdg: image or sampler of %s not known at "
			    "compile time", v);
	mov_arg(s, 28, 0, get(s, in->srcs[2]), 4);
	t = mi_append(s->mf, s->cur);
	memset(t, 0, sizeof(*t));
	t->kind = MI_TEX;
	t->t.op = MDG_TEX_OP_GRADIENT;
	t->t.mode = 1;
	t->t.exec = 3;
	t->t.format = (uint8_t)in->aux2;
	t->t.in_full = true;
	t->t.in_swizzle = SWZ_ID;
	t->t.out_full = true;
	t->t.sampler_type = sampler_types[in->aux];
	t->t.out_select = true;              /* r29 */
	t->t.mask = 0xF;
	t->t.swizzle = SWZ_ID;
	t->t.texture_handle = (uint16_t)img->imm.u64[0];
	t->t.sampler_handle = (uint16_t)smp->imm.u64[0];
	t->dst = pdst(29, 0, 0xF);
	t->mem_read = true;
	memset(&res, 0, sizeof(res));
	res.kind = MO_PHYS;
	res.reg = 29;
	for (unsigned int j = 0; j < 4; j++)
		res.swz[j] = (uint8_t)j;
	alu(s, MDG_ALU_IMOV, vdst(r, 0xF), res, (struct mi_src){ 0 });
	set(s, v, vreg_src(r));
	return true;
}

static bool sel_atomic(struct isel *s, sir_id v)
{
	static const uint8_t ops[] = {
		[SIR_ATOMIC_ADD] = MDG_LDST_AADD_32,
		[SIR_ATOMIC_SUB] = MDG_LDST_AADD_32,
		[SIR_ATOMIC_INC] = MDG_LDST_AADD_32,
		[SIR_ATOMIC_DEC] = MDG_LDST_AADD_32,
		[SIR_ATOMIC_XCHG] = MDG_LDST_AXCHG_32,
		[SIR_ATOMIC_CMPXCHG] = MDG_LDST_ACMPXCHG_32,
		[SIR_ATOMIC_SMIN] = MDG_LDST_AIMIN_32,
		[SIR_ATOMIC_SMAX] = MDG_LDST_AIMAX_32,
		[SIR_ATOMIC_UMIN] = MDG_LDST_AUMIN_32,
		[SIR_ATOMIC_UMAX] = MDG_LDST_AUMAX_32,
		[SIR_ATOMIC_AND] = MDG_LDST_AAND_32,
		[SIR_ATOMIC_OR] = MDG_LDST_AOR_32,
		[SIR_ATOMIC_XOR] = MDG_LDST_AXOR_32,
	};
	const struct sir_instr *in = val(s, v);
	unsigned int kind = in->aux2;
	struct mi_instr t;
	struct mi_src operand;
	struct addr a;
	bool cmpxchg = kind == SIR_ATOMIC_CMPXCHG, wide;
	unsigned int n;
	uint32_t r;

	if (kind == SIR_ATOMIC_LOAD) {
		r = mi_vreg_new(s->mf, 1);
		fold_address(s, in->srcs[0], &a);
		emit_load(s, &a, r, 0, 1, true);
		s->mf->blocks[s->cur].instrs[s->mf->blocks[s->cur].num - 1]
			.mem_write = true;
		set(s, v, vreg_src(r));
		return true;
	}
	if (kind == SIR_ATOMIC_STORE)
		return sel_store(s, v);
	if (kind >= sizeof(ops) || !ops[kind] || !supported(in->type) ||
	    is_narrow(in->type) || in->type.comps != 1)
		return fail(s, "mdg: %s (%u-bit x%u): unsupported atomic", v);
	/* A 64-bit value is a component pair: the .64 op (.32 + 1) reads
	 * its operand and comparison as pairs and returns the old value in
	 * .xy. */
	wide = is64(in->type);
	n = wide ? 2 : 1;
	fold_address(s, in->srcs[0], &a);
	if (kind == SIR_ATOMIC_INC)
		operand = const_src((const uint32_t[]){ 1, 0 }, n);
	else if (kind == SIR_ATOMIC_DEC)
		operand = const1(0xFFFFFFFFu);
	else
		operand = get(s, in->srcs[1]);
	if (kind == SIR_ATOMIC_SUB)
		operand = vreg_src(opc(s, MDG_ALU_ISUB, n, const1(0), operand,
				       wide));

	memset(&t, 0, sizeof(t));
	t.w.op = (uint8_t)(ops[kind] + (wide ? 1 : 0));
	r = mi_vreg_new(s->mf, n);
	s->mf->vregs[r].align2 = wide;
	t.dst = vdst(r, full_mask(n));
	t.kills = true;
	t.lswz[0] = 0;
	t.lswz[1] = 1;
	t.mem_read = t.mem_write = true;
	/* Operand: r27.x (.xy); compare: r27.y (.zw) (cmpxchg has no index
	 * then). */
	t.w.swizzle = (uint8_t)(MDG_LDST_SEL_R27 << 2 | 0);
	t.phys_reads[1] = full_mask(n);
	mov_arg(s, 27, 0, operand, n);
	if (cmpxchg) {
		mov_arg(s, 27, n, get(s, in->srcs[2]), n);
		if (a.has_index) {
			/* The whole address in the base instead. */
			if (a.space == SIR_SPACE_GLOBAL ||
			    a.space == SIR_SPACE_CONSTANT) {
				a.has_base = true;
				a.base = get(s, in->srcs[0]);
				a.has_index = false;
				a.offset = 0;
			} else {
				/* LEA the 64-bit local address into r26.zw. */
				struct mi_instr l;

				memset(&l, 0, sizeof(l));
				l.w.op = MDG_LDST_LEA;
				address_moves(s, &a, 0, true);
				address_fields(&l, &a, 0, true);
				l.dst = pdst(26, 2, 3);
				l.lswz[1] = 1;
				ldst(s, &l);
				memset(&a, 0, sizeof(a));
				t.w.arg_reg = MDG_LDST_SEL_R26;
				t.w.arg_comp = 2;
				t.w.bitsize_toggle = true;
				t.w.index_reg = MDG_LDST_SEL_R27;
				t.w.index_comp = (uint8_t)n;
				t.phys_reads[0] = 0xC;
				t.phys_reads[1] |= (uint8_t)(full_mask(n) << n);
				ldst(s, &t);
				set(s, v, vreg_src(r));
				return true;
			}
		}
		address_moves(s, &a, 0, false);
		address_fields(&t, &a, 0, false);
		t.w.index_reg = MDG_LDST_SEL_R27;
		t.w.index_comp = (uint8_t)n;
		t.w.index_format = 0;
		t.phys_reads[1] |= (uint8_t)(full_mask(n) << n);
	} else {
		address_moves(s, &a, 0, true);
		address_fields(&t, &a, 0, true);
	}
	ldst(s, &t);
	set(s, v, vreg_src(r));
	return true;
}

/*
 * ---- Repacking narrow lanes ----
 *
 * Bitcasts between an 8- or 16-bit vector (one lane per 32-bit component,
 * upper bits undefined) and another layout go through the packed 32-bit
 * words of the memory image: shifts and masks pack them, shifts unpack.
 * Wider narrow vectors never get here: sir_lower_midgard splits them into
 * pieces of four lanes, and their bitcasts into bitcasts of pieces.
 */

/* Component k of a value, as a splat view. */
static struct mi_src lane(struct isel *s, sir_id v, unsigned int k)
{
	return splat(get(s, v), k);
}

static bool same_source(const struct mi_src *a, const struct mi_src *b)
{
	if (a->kind == MO_CONST || b->kind == MO_CONST)
		return a->kind == b->kind;
	return a->kind == b->kind && a->reg == b->reg && a->mod == b->mod &&
	       a->widen == b->widen;
}

/* A view of n (1-4) lanes, each a splat view: moves only when mixed. */
static struct mi_src gather(struct isel *s, const struct mi_src *lanes,
			    unsigned int n)
{
	struct mi_src r = lanes[0];
	uint8_t done = 0;
	uint32_t vr;

	for (unsigned int j = 0; j < 4; j++) {
		const struct mi_src *l = &lanes[j < n ? j : n - 1];

		if (!same_source(l, &lanes[0]))
			break;
		r.swz[j] = l->swz[0];
		r.cval[j] = l->cval[0];
		if (j == 3)
			return r;
	}
	vr = mi_vreg_new(s->mf, n);
	for (unsigned int j = 0; j < n; j++) {
		struct mi_src src = lanes[j];
		uint8_t mask = 0;
		struct mi_instr *mi;

		if (done & (1u << j))
			continue;
		for (unsigned int i = j; i < n; i++) {
			if (!same_source(&lanes[i], &lanes[j]))
				continue;
			mask |= (uint8_t)(1u << i);
			src.swz[i] = lanes[i].swz[0];
			src.cval[i] = lanes[i].cval[0];
		}
		mi = alu(s, MDG_ALU_IMOV, vdst(vr, mask), src, nosrc);
		mi->kills = done == 0;
		done |= mask;
	}
	return vreg_src(vr);
}

/*
 * n (1-4) bits-wide lanes packed in 32-bit words from bit first on, each
 * shifted down into its own component (upper bits left undefined).
 */
static struct mi_src unpack_lanes(struct isel *s, struct mi_src words,
				  unsigned int first, unsigned int n,
				  unsigned int bits)
{
	uint8_t sel[4];
	uint32_t sh[4];

	for (unsigned int j = 0; j < n; j++) {
		unsigned int bit = first + j * bits;

		sel[j] = (uint8_t)(bit / 32);
		sh[j] = bit % 32;
	}
	return vreg_src(op2(s, MDG_ALU_ILSR, n, select_comps(words, sel, n),
			    const_src(sh, n)));
}

/*
 * Word w of the packed bytes of narrow value v (bits 8 or 16), written
 * into component w of vreg dst.
 */
static void pack_word(struct isel *s, sir_id v, unsigned int w, uint32_t dst)
{
	struct sir_type t = val(s, v)->type;
	unsigned int per = 32 / t.bits, n = 0;
	struct mi_src lanes[4] = { 0 }, g, x, y;
	uint32_t sh[4], mask[4], r;
	struct mi_instr *mi;

	for (unsigned int j = 0; j < per && w * per + j < t.comps; j++) {
		lanes[n] = lane(s, v, w * per + j);
		sh[n] = j * t.bits;
		mask[n] = ((1u << t.bits) - 1) << sh[n];
		n++;
	}
	g = gather(s, lanes, n);
	r = op2(s, MDG_ALU_ISHL, n, g, const_src(sh, n));
	r = op2(s, MDG_ALU_IAND, n, vreg_src(r), const_src(mask, n));
	x = splat(vreg_src(r), 0);
	if (n > 2) {
		/* Three lanes: or-ing the third in twice does no harm. */
		uint8_t lo[4] = { 0, 1, 0, 1 };
		uint8_t hi[4] = { 2, (uint8_t)(n > 3 ? 3 : 2), 2, 2 };
		uint32_t u = op2(s, MDG_ALU_IOR, 2,
				 select_comps(vreg_src(r), lo, 4),
				 select_comps(vreg_src(r), hi, 4));

		r = u;
		n = 2;
		x = splat(vreg_src(r), 0);
	}
	y = n > 1 ? splat(vreg_src(r), 1) : const1(0);
	mi = alu(s, MDG_ALU_IOR, vdst(dst, (uint8_t)(1u << w)), x, y);
	mi->kills = w == 0;
}

/*
 * The packed 32-bit words of v (*nw of them, at most 4); 32- and 64-bit
 * values are their components.
 */
static struct mi_src packed_words(struct isel *s, sir_id v, unsigned int *nw)
{
	struct sir_type t = val(s, v)->type;
	uint32_t r;

	if (!is_narrow(t)) {
		*nw = ncomp(t);
		return get(s, v);
	}
	*nw = (t.comps * t.bits + 31) / 32;
	r = mi_vreg_new(s->mf, *nw);
	for (unsigned int w = 0; w < *nw; w++)
		pack_word(s, v, w, r);
	return vreg_src(r);
}

/* A BITCAST to or from a narrow vector of another lane width. */
static bool sel_repack(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	struct sir_type t = in->type;
	unsigned int nw;
	struct mi_src words = packed_words(s, in->srcs[0], &nw);

	if (is_narrow(t)) {
		set(s, v, unpack_lanes(s, words, 0, t.comps, t.bits));
		return true;
	}
	if (is64(t) && words.kind == MO_VREG) {
		words = vreg_src(mov_to_vreg(s, words, nw));
		s->mf->vregs[words.reg].align2 = true;
	}
	set(s, v, words);
	return true;
}

/* ---- Uniforms and sysvals ---- */

/*
 * Words [off / 4, off / 4 + n) of the argument image: a view of a pushed
 * uniform row, or a load from UBO 0 (which holds the whole image).
 */
static struct mi_src uniform_words(struct isel *s, sir_id v, unsigned int off,
				   unsigned int n)
{
	unsigned int bytes = 4 * n, row = off / 16, c = (off % 16) / 4;
	struct mi_instr t;
	struct mi_src r;
	uint32_t d;

	if (row < s->mf->push_vec4 && c + n <= 4) {
		memset(&r, 0, sizeof(r));
		r.kind = MO_PHYS;
		r.reg = 23 - row;
		for (unsigned int j = 0; j < 4; j++)
			r.swz[j] = (uint8_t)(c + (j < n ? j : n - 1));
		return r;
	}
	if (off >= (1u << 15)) {
		fail(s, "mdg: %s (%u-bit x%u): argument image too large", v);
		return nosrc;
	}
	d = mi_vreg_new(s->mf, n);
	memset(&t, 0, sizeof(t));
	t.w.op = bytes == 4 ? MDG_LDST_LD_UBO_32 :
		 bytes == 8 ? MDG_LDST_LD_UBO_64 : MDG_LDST_LD_UBO_128;
	t.w.index_reg = MDG_LDST_SEL_ZERO;
	t.w.offset = (int32_t)(off << 2);
	t.dst = vdst(d, full_mask(n));
	t.kills = true;
	for (unsigned int j = 0; j < 4; j++)
		t.lswz[j] = (uint8_t)j;
	ldst(s, &t);
	s->mf->needs_ubo = true;
	return vreg_src(d);
}

static bool sel_uniform(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	unsigned int n = ncomp(in->type), off = in->aux;

	if (is_narrow(in->type)) {
		/* Packed lanes: the words that hold them, shifted apart. */
		unsigned int bits = in->type.bits, first = off % 4;
		unsigned int nw = (8 * first + n * bits + 31) / 32;
		struct mi_src words;

		if (off % (bits / 8))
			return fail(s, "mdg: %s (%u-bit x%u) at an unaligned "
				    "offset", v);
		words = uniform_words(s, v, off - first, nw);
		set(s, v, n == 1 && !first ? words :
			  unpack_lanes(s, words, 8 * first, n, bits));
		return !s->failed;
	}
	if (off % 4)
		return fail(s, "mdg: %s (%u-bit x%u) at an unaligned offset",
			    v);
	set(s, v, uniform_words(s, v, off, n));
	return !s->failed;
}

static bool sel_sysval(struct isel *s, sir_id v)
{
	static const uint8_t sel[] = {
		[SIR_SYSVAL_GLOBAL_ID] = MDG_LDST_SEL_GLOBAL_ID,
		[SIR_SYSVAL_LOCAL_ID] = MDG_LDST_SEL_LOCAL_ID,
		[SIR_SYSVAL_GROUP_ID] = MDG_LDST_SEL_GROUP_ID,
	};
	const struct sir_instr *in = val(s, v);
	unsigned int n = in->type.comps;
	struct mi_instr t;
	uint32_t d;

	if (in->aux > SIR_SYSVAL_GROUP_ID || n > 3)
		return fail(s, "mdg: %s (%u-bit x%u): sysval not lowered to "
			    "a uniform", v);
	d = mi_vreg_new(s->mf, n);
	memset(&t, 0, sizeof(t));
	t.w.op = MDG_LDST_MOV;
	t.w.arg_reg = sel[in->aux];
	t.dst = vdst(d, full_mask(n));
	t.kills = true;
	for (unsigned int j = 0; j < 4; j++)
		t.lswz[j] = (uint8_t)(j < 3 ? j : 0);
	ldst(s, &t);
	set(s, v, vreg_src(d));
	return true;
}

/* ---- Vector plumbing ---- */

static bool sel_vec(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	unsigned int n = ncomp(in->type), pos = 0;
	uint32_t vals[4] = { 0 };
	bool all_const = true;
	uint32_t r;
	struct mi_instr *mi;

	for (uint32_t i = 0; i < in->num_srcs; i++) {
		struct mi_src a = get(s, in->srcs[i]);
		unsigned int k = ncomp(val(s, in->srcs[i])->type);

		if (a.kind != MO_CONST)
			all_const = false;
		for (unsigned int j = 0; j < k && pos + j < 4; j++)
			vals[pos + j] = a.cval[j];
		pos += k;
	}
	if (pos != n)
		return fail(s, "mdg: %s (%u-bit x%u): component count", v);
	if (all_const) {
		set(s, v, const_src(vals, n));
		return true;
	}
	if (!is64(in->type)) {
		/* Lanes of one register stay a view; others move once each. */
		struct mi_src lanes[4];

		pos = 0;
		for (uint32_t i = 0; i < in->num_srcs; i++)
			for (unsigned int j = 0;
			     j < val(s, in->srcs[i])->type.comps; j++)
				lanes[pos++] = lane(s, in->srcs[i], j);
		set(s, v, gather(s, lanes, n));
		return true;
	}
	r = mi_vreg_new(s->mf, n);
	s->mf->vregs[r].align2 = is64(in->type);
	pos = 0;
	for (uint32_t i = 0; i < in->num_srcs; i++) {
		struct mi_src a = get(s, in->srcs[i]);
		unsigned int k = ncomp(val(s, in->srcs[i])->type);
		uint8_t sel[4];

		for (unsigned int j = 0; j < 4; j++)
			sel[j] = (uint8_t)(j >= pos && j < pos + k ? j - pos :
					   0);
		a = select_comps(a, sel, 4);
		mi = alu(s, MDG_ALU_IMOV,
			 vdst(r, (uint8_t)(full_mask(k) << pos)), a,
			 (struct mi_src){ 0 });
		mi->kills = i == 0;
		pos += k;
	}
	set(s, v, vreg_src(r));
	return true;
}

static bool sel_shuffle(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	unsigned int n = in->type.comps, w = elem_comps(in->type);
	unsigned int n0 = val(s, in->srcs[0])->type.comps;
	struct mi_src a = get(s, in->srcs[0]);
	struct mi_src b = in->num_srcs > 1 ? get(s, in->srcs[1]) : a;
	uint8_t sa[4] = { 0 }, sb[4] = { 0 };
	uint8_t ma = 0, mb = 0;
	uint32_t r;
	struct mi_instr *mi;

	for (unsigned int j = 0; j < n; j++) {
		uint64_t k = in->imm.u64[j];

		if (k == UINT32_MAX || k == UINT64_MAX)
			k = 0;                   /* undefined lane */
		if (k < n0) {
			sa[j] = (uint8_t)k;
			ma |= (uint8_t)(full_mask(w) << (j * w));
		} else if (k - n0 < 4) {
			sb[j] = (uint8_t)(k - n0);
			mb |= (uint8_t)(full_mask(w) << (j * w));
		} else {
			return fail(s, "mdg: %s (%u-bit x%u): bad selector", v);
		}
	}
	if (!mb || !ma) {
		set(s, v, mb ? select_elems(b, sb, n, w) :
			  select_elems(a, sa, n, w));
		return true;
	}
	r = mi_vreg_new(s->mf, n * w);
	s->mf->vregs[r].align2 = w == 2;
	mi = alu(s, MDG_ALU_IMOV, vdst(r, ma), select_elems(a, sa, 4 / w, w),
		 (struct mi_src){ 0 });
	mi->kills = true;
	mi = alu(s, MDG_ALU_IMOV, vdst(r, mb), select_elems(b, sb, 4 / w, w),
		 (struct mi_src){ 0 });
	mi->kills = false;
	set(s, v, vreg_src(r));
	return true;
}

static bool sel_insert(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	unsigned int n = in->type.comps, k = in->aux;
	unsigned int w = elem_comps(in->type);
	uint32_t r = mi_vreg_new(s->mf, n * w);
	uint8_t zero[4] = { 0 };
	struct mi_instr *mi;

	if (k >= n)
		return fail(s, "mdg: %s (%u-bit x%u): bad component", v);
	s->mf->vregs[r].align2 = w == 2;
	alu(s, MDG_ALU_IMOV, vdst(r, full_mask(n * w)), get(s, in->srcs[0]),
	    (struct mi_src){ 0 });
	mi = alu(s, MDG_ALU_IMOV, vdst(r, (uint8_t)(full_mask(w) << (k * w))),
		 select_elems(get(s, in->srcs[1]), zero, 1, w),
		 (struct mi_src){ 0 });
	mi->kills = false;
	set(s, v, vreg_src(r));
	return true;
}

/*
 * The condition move feeds the csel glued after it in the same bundle, so
 * it must sit on a first-stage unit. (Set before the csel is appended: that
 * may move the instruction array.)
 */
static void restrict_cond_move(struct mi_instr *mov)
{
	mov->units = MDG_UNIT_MASK(MDG_UNIT_VMUL) |
		     MDG_UNIT_MASK(MDG_UNIT_SADD);
}

static bool sel_select(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	unsigned int n = ncomp(in->type);
	unsigned int nc = val(s, in->srcs[0])->type.comps;
	struct mi_src c = get(s, in->srcs[0]);
	uint32_t r = mi_vreg_new(s->mf, n);
	struct mi_instr *mov, *sel;
	static const uint8_t pairs[4] = { 0, 0, 1, 1 };

	/* 64-bit lanes: each condition lane covers a component pair (the
	 * selects themselves work on 32-bit components). */
	s->mf->vregs[r].align2 = is64(in->type);
	if (is64(in->type) && nc > 1)
		c = select_comps(c, pairs, 4);

	if (nc == 1) {
		mov = alu(s, MDG_ALU_IMOV, pdst(31, 3, 1), splat(c, 0),
			  (struct mi_src){ 0 });
		restrict_cond_move(mov);
		sel = alu(s, MDG_ALU_ICSEL, vdst(r, full_mask(n)),
			  get(s, in->srcs[1]), get(s, in->srcs[2]));
	} else {
		/* r31's lanes must line up with the result's: emit places
		 * the mov at the csel's destination component. */
		mov = alu(s, MDG_ALU_IMOV, pdst(31, 0xFF, full_mask(n)), c,
			  (struct mi_src){ 0 });
		restrict_cond_move(mov);
		sel = alu(s, MDG_ALU_ICSEL_V, vdst(r, full_mask(n)),
			  get(s, in->srcs[1]), get(s, in->srcs[2]));
		sel->units &= (uint8_t)~MDG_UNIT_MASK(MDG_UNIT_SMUL);
	}
	sel->glued = true;
	set(s, v, vreg_src(r));
	return true;
}

/* ---- Arithmetic ---- */

static uint8_t int_op(enum sir_op op)
{
	switch (op) {
	case SIR_OP_IADD: case SIR_OP_PTR_ADD: return MDG_ALU_IADD;
	case SIR_OP_ISUB: return MDG_ALU_ISUB;
	case SIR_OP_IMUL: return MDG_ALU_IMUL;
	case SIR_OP_AND: case SIR_OP_BAND: return MDG_ALU_IAND;
	case SIR_OP_OR: case SIR_OP_BOR: return MDG_ALU_IOR;
	case SIR_OP_XOR: case SIR_OP_BNE: return MDG_ALU_IXOR;
	case SIR_OP_BEQ: return MDG_ALU_INXOR;
	case SIR_OP_SHL: return MDG_ALU_ISHL;
	case SIR_OP_LSHR: return MDG_ALU_ILSR;
	case SIR_OP_ASHR: return MDG_ALU_IASR;
	case SIR_OP_SMIN: return MDG_ALU_IMIN;
	case SIR_OP_SMAX: return MDG_ALU_IMAX;
	case SIR_OP_UMIN: return MDG_ALU_UMIN;
	case SIR_OP_UMAX: return MDG_ALU_UMAX;
	case SIR_OP_UADD_SAT: return MDG_ALU_UADDSAT;
	case SIR_OP_SADD_SAT: return MDG_ALU_IADDSAT;
	case SIR_OP_USUB_SAT: return MDG_ALU_USUBSAT;
	case SIR_OP_SSUB_SAT: return MDG_ALU_ISUBSAT;
	case SIR_OP_IEQ: return MDG_ALU_IEQ;
	case SIR_OP_INE: return MDG_ALU_INE;
	case SIR_OP_ULT: return MDG_ALU_ULT;
	case SIR_OP_ULE: return MDG_ALU_ULE;
	case SIR_OP_SLT: return MDG_ALU_ILT;
	case SIR_OP_SLE: return MDG_ALU_ILE;
	default: return 0;
	}
}

static uint8_t float_op(enum sir_op op)
{
	switch (op) {
	case SIR_OP_FADD: case SIR_OP_FSUB: return MDG_ALU_FADD;
	case SIR_OP_FMUL: return MDG_ALU_FMUL;
	case SIR_OP_FMIN: return MDG_ALU_FMIN;
	case SIR_OP_FMAX: return MDG_ALU_FMAX;
	case SIR_OP_FEQ: return MDG_ALU_FEQ;
	case SIR_OP_FNE: return MDG_ALU_FNE;
	case SIR_OP_FLT: return MDG_ALU_FLT;
	case SIR_OP_FLE: return MDG_ALU_FLE;
	default: return 0;
	}
}

static uint8_t float_unary(enum sir_op op)
{
	switch (op) {
	case SIR_OP_FFLOOR: return MDG_ALU_FFLOOR;
	case SIR_OP_FCEIL: return MDG_ALU_FCEIL;
	case SIR_OP_FTRUNC: return MDG_ALU_FTRUNC;
	case SIR_OP_FRINT: return MDG_ALU_FROUNDEVEN;
	case SIR_OP_FROUND: return MDG_ALU_FROUNDAWAY;
	case SIR_OP_FSQRT: return MDG_ALU_FSQRT;
	case SIR_OP_FRSQ: return MDG_ALU_FRSQRT;
	case SIR_OP_FRCP: return MDG_ALU_FRCP;
	case SIR_OP_FEXP2: return MDG_ALU_FEXP2;
	case SIR_OP_FLOG2: return MDG_ALU_FLOG2;
	case SIR_OP_FSIN: return MDG_ALU_FSINPI;
	case SIR_OP_FCOS: return MDG_ALU_FCOSPI;
	default: return 0;
	}
}

/* Float arithmetic and comparisons: ops that read their floats' values. */
static bool reads_floats(enum sir_op op)
{
	switch (op) {
	case SIR_OP_FNEG: case SIR_OP_FABS: case SIR_OP_FSUB:
	case SIR_OP_FUNORD: case SIR_OP_FDOT: case SIR_OP_FMA:
	case SIR_OP_FMAD: case SIR_OP_FDIV: case SIR_OP_FCOPYSIGN:
		return true;
	default:
		return float_op(op) || float_unary(op);
	}
}

/* Float ops on halves that run in reg mode 16 (MH_OP). */
static bool half_native(enum sir_op op)
{
	switch (op) {
	case SIR_OP_FADD: case SIR_OP_FSUB: case SIR_OP_FMUL:
	case SIR_OP_FMIN: case SIR_OP_FMAX: case SIR_OP_FNEG:
	case SIR_OP_FABS: case SIR_OP_FFLOOR: case SIR_OP_FCEIL:
	case SIR_OP_FTRUNC: case SIR_OP_FRINT: case SIR_OP_FROUND:
	case SIR_OP_FEQ: case SIR_OP_FNE: case SIR_OP_FLT: case SIR_OP_FLE:
	case SIR_OP_FUNORD:
		return true;
	default:
		return false;
	}
}

/*
 * An operand of an MH_OP over n components that reg mode 16 can read
 * wherever the allocator puts it (mi_instr.half): one component for
 * every lane, or lanes from an even component of a vreg on, which is
 * then placed at an even first component (as the result is). Other
 * views and constants are moved into such a vreg first.
 */
static struct mi_src half_operand(struct isel *s, struct mi_src x,
				  unsigned int n)
{
	bool same = true, ident = x.kind == MO_VREG && !(x.swz[0] & 1);
	uint8_t mod = x.mod;
	uint32_t r;

	for (unsigned int j = 1; j < n; j++) {
		same &= x.kind == MO_CONST ? x.cval[j] == x.cval[0] :
			x.swz[j] == x.swz[0];
		ident &= x.swz[j] == x.swz[0] + j;
	}
	if (same)
		return x;
	if (ident) {
		s->mf->vregs[x.reg].align2 = true;
		return x;
	}
	x.mod = 0;
	r = mov_to_vreg(s, x, n);
	s->mf->vregs[r].align2 = true;
	x = vreg_src(r);
	x.mod = mod;
	return x;
}

/* op(a, b) on n halves in reg mode 16 (MH_OP); returns the vreg. */
static uint32_t half_op(struct isel *s, uint8_t op, unsigned int n,
			struct mi_src a, struct mi_src b)
{
	uint32_t r = mi_vreg_new(s->mf, n);
	struct mi_instr *in;
	struct mi_src *c;
	bool splat = true;

	if (a.kind == MO_CONST && b.kind && b.kind != MO_CONST &&
	    is_commutative(op)) {
		struct mi_src t = a;

		a = b;
		b = t;
	}
	a = half_operand(s, a, n);
	if (b.kind)
		b = half_operand(s, b, n);
	s->mf->vregs[r].align2 = n > 1;
	in = alu(s, op, vdst(r, full_mask(n)), a, b);
	in->half = MH_OP;
	/* A splat constant in src2: its fp16 bits inline. */
	c = &in->src[1];
	for (unsigned int j = 1; j < n; j++)
		splat &= c->cval[j] == c->cval[0];
	if (c->kind == MO_CONST && splat) {
		c->kind = MO_IMM;
		c->imm = (uint16_t)c->cval[0];
	}
	return r;
}

/*
 * op on each of n components of x, one instruction each, as an MH_FROM
 * (reading halves as fp32) or MH_TO (a 32-bit result written as a half)
 * instruction; returns the vreg.
 */
static uint32_t half_conv(struct isel *s, uint8_t op, unsigned int n,
			  struct mi_src x, uint8_t half)
{
	uint32_t r = mi_vreg_new(s->mf, n);

	for (unsigned int j = 0; j < n; j++) {
		struct mi_instr *in = alu(s, op, vdst(r, (uint8_t)(1u << j)),
					  x, nosrc);

		in->half = half;
		in->kills = j == 0;
	}
	return r;
}

/* A narrow value (bits 8/16, n components) sign- or zero-extended. */
static struct mi_src ext_src(struct isel *s, struct mi_src x, unsigned int n,
			     unsigned int bits, bool sign)
{
	uint32_t mask = (1u << bits) - 1;
	uint32_t t;

	if (x.kind == MO_CONST) {
		for (unsigned int j = 0; j < 4; j++) {
			uint32_t c = x.cval[j] & mask;

			if (sign && (c >> (bits - 1)))
				c |= ~mask;
			x.cval[j] = c;
		}
		return x;
	}
	if (!sign)
		return vreg_src(op2(s, MDG_ALU_IAND, n, x, const1(mask)));
	t = op2(s, MDG_ALU_ISHL, n, x, const1(32 - bits));
	return vreg_src(
		op2(s, MDG_ALU_IASR, n, vreg_src(t), const1(32 - bits)));
}

/* Value v with all 32 bits of each lane defined (narrow ones extended). */
static struct mi_src ext_of(struct isel *s, sir_id v, bool sign)
{
	struct sir_type t = val(s, v)->type;

	if (!is_narrow(t))
		return get(s, v);
	return ext_src(s, get(s, v), t.comps, t.bits, sign);
}

/* n 32-bit lanes of x sign- or zero-extended to 64-bit lanes. */
static struct mi_src widen64(struct isel *s, struct mi_src x, unsigned int n,
			     bool sign)
{
	uint32_t r;

	if (x.kind == MO_CONST) {
		uint32_t vals[4];

		for (unsigned int k = 0; k < 2; k++) {
			vals[2 * k] = x.cval[k];
			vals[2 * k + 1] = sign && (x.cval[k] >> 31) ?
					  0xFFFFFFFFu : 0;
		}
		return const_src(vals, 2 * n);
	}
	r = mi_vreg_new(s->mf, 2 * n);
	s->mf->vregs[r].align2 = true;
	/* One lane each: both lanes of one instruction must read the same
	 * half of the register. */
	for (unsigned int k = 0; k < n; k++) {
		struct mi_src e = splat(x, k);
		struct mi_instr *mi;

		e.widen = true;
		e.mod = sign ? 0 : 1;
		mi = alu(s, MDG_ALU_IMOV, vdst(r, (uint8_t)(3u << (2 * k))), e,
			 nosrc);
		make_wide(mi);
		mi->kills = k == 0;
	}
	return vreg_src(r);
}

/* op (Midgard mop) on n lanes of bits-wide integers a and b. */
static uint32_t narrow_binop(struct isel *s, enum sir_op op, uint8_t mop,
			     struct mi_src a, struct mi_src b, unsigned int n,
			     unsigned int bits)
{
	uint32_t lim = (1u << (bits - 1)) - 1, r;

	switch (op) {
	case SIR_OP_SMIN: case SIR_OP_SMAX: case SIR_OP_SLT: case SIR_OP_SLE:
	case SIR_OP_SADD_SAT: case SIR_OP_SSUB_SAT:
		a = ext_src(s, a, n, bits, true);
		b = ext_src(s, b, n, bits, true);
		break;
	case SIR_OP_UMIN: case SIR_OP_UMAX: case SIR_OP_ULT: case SIR_OP_ULE:
	case SIR_OP_IEQ: case SIR_OP_INE:
	case SIR_OP_UADD_SAT: case SIR_OP_USUB_SAT:
		a = ext_src(s, a, n, bits, false);
		b = ext_src(s, b, n, bits, false);
		break;
	case SIR_OP_ASHR:
		a = ext_src(s, a, n, bits, true);
		break;
	case SIR_OP_LSHR:
		a = ext_src(s, a, n, bits, false);
		break;
	default:
		break;
	}
	/*
	 * SIR's shift counts are modulo the lane's width; the 32-bit
	 * shifter takes them modulo 32, so a count of 8 on a char would
	 * shift its bits out (rotate's x >> -n relies on this).
	 */
	if (op == SIR_OP_SHL || op == SIR_OP_LSHR || op == SIR_OP_ASHR) {
		if (b.kind == MO_CONST) {
			for (unsigned int j = 0; j < 4; j++)
				b.cval[j] &= bits - 1;
		} else {
			b = vreg_src(
				op2(s, MDG_ALU_IAND, n, b, const1(bits - 1)));
		}
	}
	/* Saturation at the narrow width: exact in 32 bits, then clamped. */
	if (op == SIR_OP_UADD_SAT) {
		r = opc(s, MDG_ALU_IADD, n, a, b, false);
		r = op2(s, MDG_ALU_UMIN, n, vreg_src(r), const1(2 * lim + 1));
	} else if (op == SIR_OP_SADD_SAT || op == SIR_OP_SSUB_SAT) {
		r = opc(s, op == SIR_OP_SADD_SAT ? MDG_ALU_IADD : MDG_ALU_ISUB,
			n, a, b, false);
		r = op2(s, MDG_ALU_IMIN, n, vreg_src(r), const1(lim));
		r = op2(s, MDG_ALU_IMAX, n, vreg_src(r), const1(~lim));
	} else {
		r = opc(s, mop, n, a, b, false);
	}
	return r;
}

static bool sel_int(struct isel *s, sir_id v, uint8_t mop)
{
	static const uint8_t lows[4] = { 0, 2, 0, 2 };
	const struct sir_instr *in = val(s, v);
	enum sir_op op = (enum sir_op)in->op;
	struct sir_type t = val(s, in->srcs[0])->type;
	unsigned int n = ncomp(t);
	uint32_t r;

	if (is64(t)) {
		r = opc(s, mop, n, get(s, in->srcs[0]), get(s, in->srcs[1]),
			true);
		/* Compares: 64-bit 0 / ~0, the low words are the bools. */
		set(s, v, in->type.kind == SIR_BOOL ?
			  select_comps(vreg_src(r), lows, 4) : vreg_src(r));
		return true;
	}
	if (!is_narrow(t)) {
		def2(s, v, mop, get(s, in->srcs[0]), get(s, in->srcs[1]));
		return true;
	}
	r = narrow_binop(s, op, mop, get(s, in->srcs[0]), get(s, in->srcs[1]),
			 n, t.bits);
	set(s, v, vreg_src(r));
	return true;
}

/*
 * CLZ / POPCOUNT of 64-bit lanes from the 32-bit counts of the halves:
 * clz = clz(hi) + (clz(hi) == 32 ? clz(lo) : 0), popcount = sum of both;
 * the count is then zero-extended back to a 64-bit lane.
 */
static bool sel_bitcount64(struct isel *s, sir_id v)
{
	static const uint8_t lo_sel[4] = { 0, 2, 0, 2 };
	static const uint8_t hi_sel[4] = { 1, 3, 1, 3 };
	const struct sir_instr *in = val(s, v);
	unsigned int n = val(s, in->srcs[0])->type.comps;
	struct mi_src x = get(s, in->srcs[0]);
	struct mi_src lo = select_comps(x, lo_sel, 4);
	struct mi_src hi = select_comps(x, hi_sel, 4);
	uint8_t op = in->op == SIR_OP_CLZ ? MDG_ALU_ICLZ : MDG_ALU_IPOPCNT;
	uint32_t ch = op2(s, op, n, hi, nosrc), cl = op2(s, op, n, lo, nosrc);
	uint32_t r;

	if (in->op == SIR_OP_CLZ) {
		uint32_t m = op2(s, MDG_ALU_IEQ, n, vreg_src(ch), const1(32));

		cl = op2(s, MDG_ALU_IAND, n, vreg_src(m), vreg_src(cl));
	}
	r = op2(s, MDG_ALU_IADD, n, vreg_src(ch), vreg_src(cl));
	set(s, v, is64(in->type) ? widen64(s, vreg_src(r), n, false) :
		  vreg_src(r));
	return true;
}

static bool sel_bitcount(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	struct sir_type t = val(s, in->srcs[0])->type;
	uint32_t r;

	if (is64(t))
		return sel_bitcount64(s, v);
	r = op2(s, in->op == SIR_OP_CLZ ? MDG_ALU_ICLZ : MDG_ALU_IPOPCNT,
		t.comps, ext_of(s, in->srcs[0], false), nosrc);
	if (in->op == SIR_OP_CLZ && is_narrow(t))
		r = op2(s, MDG_ALU_ISUB, t.comps, vreg_src(r),
			const1(32 - t.bits));
	set(s, v, vreg_src(r));
	return true;
}

/* f2i/f2u toward zero (the reader rounds first); narrow _sat clamps. */
static bool sel_f2i(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	struct sir_type t = in->type;
	bool u = in->op == SIR_OP_F2U;
	uint32_t lim = t.bits < 32 ? (1u << (t.bits - 1)) - 1 : 0;
	uint8_t mop = u ? MDG_ALU_F2U_RTZ : MDG_ALU_F2I_RTZ;
	uint32_t r = is_half(val(s, in->srcs[0])->type) ?
		     half_conv(s, mop, t.comps, fsrc(s, in->srcs[0]), MH_FROM) :
		     op2(s, mop, t.comps, fsrc(s, in->srcs[0]), nosrc);

	if (is_narrow(t) && (in->aux & SIR_CONV_SAT)) {
		if (u) {
			r = op2(s, MDG_ALU_UMIN, t.comps, vreg_src(r),
				const1(2 * lim + 1));
		} else {
			r = op2(s, MDG_ALU_IMIN, t.comps, vreg_src(r),
				const1(lim));
			r = op2(s, MDG_ALU_IMAX, t.comps, vreg_src(r),
				const1(~lim));
		}
	}
	set(s, v, vreg_src(r));
	return true;
}

/* Lanes of a where mask m is set, of b elsewhere. */
static struct mi_src blend(struct isel *s, unsigned int n, struct mi_src m,
			   struct mi_src a, struct mi_src b)
{
	uint32_t x = op2(s, MDG_ALU_IAND, n, m, a),
		 y = op2(s, MDG_ALU_IANDNOT, n, b, m);

	return vreg_src(op2(s, MDG_ALU_IOR, n, vreg_src(x), vreg_src(y)));
}

/*
 * ---- Halves <-> floats ----
 *
 * fp16 -> fp32 is fmov reading the half widened (exact), fp32 -> fp16
 * fmov.rt* with its result shrunk to 16 bits (rounded once in the op's
 * mode), one component per instruction (mi_instr.half).
 */

static struct mi_src half_to_float(struct isel *s, struct mi_src x,
				   unsigned int n)
{
	return vreg_src(half_conv(s, MDG_ALU_FMOV, n, x, MH_FROM));
}

/* SIR rounding rnd (0 rte 1 rtz 2 rtp 3 rtn) to Midgard's (0 rte 1 rtz
 * 2 rtn 3 rtp). */
static unsigned int mdg_round(unsigned int rnd)
{
	static const uint8_t rm[4] = { 0, 1, 3, 2 };

	return rm[rnd & 3];
}

static struct mi_src float_to_half(struct isel *s, struct mi_src x,
				   unsigned int n, unsigned int rnd)
{
	return vreg_src(half_conv(s, (uint8_t)(MDG_ALU_FMOV + mdg_round(rnd)),
				  n, x, MH_TO));
}

/*
 * ---- Doubles ----
 *
 * fp32 -> fp64 is fmov in 64-bit lanes reading an expanded fp32 element
 * (exact); fp64 -> fp32 is fmov.rt* in 64-bit lanes with the result
 * shrunk to 32 bits (rounded in the op's mode); fp64 -> fp16 rounds to
 * odd through fp32 (toward zero, the lowest bit set when inexact: 24 bits
 * keep the fp16 rounding decision intact, denormals included), then
 * converts fp32 -> fp16 exactly in the mode asked for.
 */

/* n fp32 lanes of x widened to doubles. */
static struct mi_src f32_to_f64(struct isel *s, struct mi_src x,
				unsigned int n)
{
	uint32_t r;

	if (x.kind == MO_CONST) {
		uint32_t vals[4];

		for (unsigned int k = 0; k < n; k++) {
			float f;
			double d;
			uint64_t u;

			memcpy(&f, &x.cval[k], 4);
			d = f;
			memcpy(&u, &d, 8);
			vals[2 * k] = (uint32_t)u;
			vals[2 * k + 1] = (uint32_t)(u >> 32);
		}
		if (!(x.mod & 3))
			return const_src(vals, 2 * n);
	}
	r = mi_vreg_new(s->mf, 2 * n);
	s->mf->vregs[r].align2 = true;
	/* One lane each, as widen64(). */
	for (unsigned int k = 0; k < n; k++) {
		struct mi_src e = splat(x, k);
		struct mi_instr *mi;

		e.widen = true;
		mi = alu(s, MDG_ALU_FMOV, vdst(r, (uint8_t)(3u << (2 * k))), e,
			 nosrc);
		make_wide(mi);
		mi->kills = k == 0;
	}
	return vreg_src(r);
}

/* n doubles x narrowed to fp32 with Midgard rounding mode rm. */
static struct mi_src f64_to_f32(struct isel *s, struct mi_src x,
				unsigned int n, unsigned int rm)
{
	uint32_t r = mi_vreg_new(s->mf, n);
	struct mi_instr *mi;

	s->mf->vregs[r].align2 = true;
	mi = alu(s, (uint8_t)(MDG_ALU_FMOV + rm), vdst(r, full_mask(n)), x,
		 nosrc);
	make_wide(mi);
	mi->shrink = true;
	return vreg_src(r);
}

/* n doubles x to fp16 bits (in 32-bit lanes), SIR rounding rnd. */
static struct mi_src f64_to_f16(struct isel *s, struct mi_src x,
				unsigned int n, unsigned int rnd)
{
	static const uint8_t lows[4] = { 0, 2, 0, 2 };
	struct mi_src f = f64_to_f32(s, x, n, 1);       /* rtz */
	struct mi_src back = f32_to_f64(s, f, n);
	uint32_t ne = opc(s, MDG_ALU_FNE, 2 * n, back, x, true);
	struct mi_src sticky;

	sticky = vreg_src(op2(s, MDG_ALU_IAND, n,
			      select_comps(vreg_src(ne), lows, 4), const1(1)));
	f = vreg_src(op2(s, MDG_ALU_IOR, n, f, sticky));
	return float_to_half(s, f, n, rnd);
}

static bool sel_fconv(struct isel *s, sir_id v)
{
	/* SIR rounding 0 rte 1 rtz 2 rtp 3 rtn; Midgard 0 rte 1 rtz 2 rtn 3 rtp. */
	static const uint8_t rnd[4] = { 0, 1, 3, 2 };
	const struct sir_instr *in = val(s, v);
	unsigned int from = val(s, in->srcs[0])->type.bits;
	unsigned int n = in->type.comps;

	if (from == 64 && in->type.bits == 32)
		set(s, v, f64_to_f32(s, fsrc(s, in->srcs[0]), n,
				     rnd[in->aux & SIR_CONV_ROUND_MASK]));
	else if (from == 64 && in->type.bits == 16)
		set(s, v, f64_to_f16(s, fsrc(s, in->srcs[0]), n,
				     in->aux & SIR_CONV_ROUND_MASK));
	else if (from == 32 && in->type.bits == 64)
		set(s, v, f32_to_f64(s, fsrc(s, in->srcs[0]), n));
	else if (from == 16 && in->type.bits == 64)
		set(s, v, f32_to_f64(s, half_to_float(s, fsrc(s, in->srcs[0]),
						      n), n));
	else if (from == 16 && in->type.bits == 32)
		set(s, v, half_to_float(s, fsrc(s, in->srcs[0]), n));
	else if (from == 32 && in->type.bits == 16)
		set(s, v, float_to_half(s, fsrc(s, in->srcs[0]), n,
					in->aux & SIR_CONV_ROUND_MASK));
	else if (from == in->type.bits)
		set(s, v, get(s, in->srcs[0]));
	else
		return fail(s, "mdg: %s to %u-bit x%u floats is not "
			    "supported", v);
	return true;
}

/*
 * n 64-bit unsigned lanes x to float, rounded by u2f in Midgard mode rm:
 * a high word of zero converts the low word directly; otherwise the top
 * 32 significant bits, with a sticky bit for any ones below them, are
 * converted and the exponent raised by the bits dropped.
 */
static uint32_t u64_to_f32(struct isel *s, struct mi_src x, unsigned int n,
			   unsigned int rm)
{
	static const uint8_t lo_sel[4] = { 0, 2, 0, 2 };
	static const uint8_t hi_sel[4] = { 1, 3, 1, 3 };
	struct mi_src lo = select_comps(x, lo_sel, 4);
	struct mi_src hi = select_comps(x, hi_sel, 4);
	uint8_t u2f = (uint8_t)(MDG_ALU_U2F_RTE + rm);
	struct mi_src sh = vreg_src(op2(s, MDG_ALU_ICLZ, n, hi, nosrc));
	struct mi_src m, st, f;
	uint32_t t;

	t = op2(s, MDG_ALU_ILSR, n, lo, const1(1));
	t = op2(s, MDG_ALU_ILSR, n, vreg_src(t),
		vreg_src(op2(s, MDG_ALU_ISUB, n, const1(31), sh)));
	m = vreg_src(op2(s, MDG_ALU_IOR, n,
			 vreg_src(op2(s, MDG_ALU_ISHL, n, hi, sh)),
			 vreg_src(t)));
	t = op2(s, MDG_ALU_ISHL, n, lo, sh);
	t = op2(s, MDG_ALU_INE, n, vreg_src(t), const1(0));
	st = vreg_src(op2(s, MDG_ALU_IAND, n, vreg_src(t), const1(1)));
	m = vreg_src(op2(s, MDG_ALU_IOR, n, m, st));
	f = vreg_src(op2(s, u2f, n, m, nosrc));
	t = op2(s, MDG_ALU_ISUB, n, const1(32), sh);
	t = op2(s, MDG_ALU_ISHL, n, vreg_src(t), const1(23));
	f = vreg_src(op2(s, MDG_ALU_IADD, n, f, vreg_src(t)));
	f = blend(s, n, vreg_src(op2(s, MDG_ALU_IEQ, n, hi, const1(0))),
		  vreg_src(op2(s, u2f, n, lo, nosrc)), f);
	return f.reg;
}

/* S2F / U2F from 64-bit lanes (Midgard rounding mode rm). */
static bool sel_i64_to_f(struct isel *s, sir_id v, unsigned int rm)
{
	static const uint8_t hi_sel[4] = { 1, 3, 1, 3 };
	const struct sir_instr *in = val(s, v);
	unsigned int n = in->type.comps;
	struct mi_src x = get(s, in->srcs[0]), neg, s64, r;
	uint32_t abs;

	if (in->type.kind != SIR_FLOAT || in->type.bits != 32)
		return fail(s, "mdg: %s from 64-bit integers to %u-bit x%u "
			    "is not supported", v);
	if (in->op == SIR_OP_U2F) {
		set(s, v, vreg_src(u64_to_f32(s, x, n, rm)));
		return true;
	}
	/* |x| converted, rounded away from or toward zero as the sign
	 * and mode say, then given the sign. */
	neg = vreg_src(op2(s, MDG_ALU_IASR, n, select_comps(x, hi_sel, 4),
			   const1(31)));
	s64 = widen64(s, neg, n, true);
	abs = opc(s, MDG_ALU_IXOR, 2 * n, x, s64, true);
	abs = opc(s, MDG_ALU_ISUB, 2 * n, vreg_src(abs), s64, true);
	if (rm == 2 || rm == 3) {
		/* rtn (2) / rtp (3): magnitude up on one side, toward
		 * zero on the other. */
		struct mi_src up = vreg_src(u64_to_f32(s, vreg_src(abs), n, 3));
		struct mi_src dn = vreg_src(u64_to_f32(s, vreg_src(abs), n, 1));

		r = rm == 2 ? blend(s, n, neg, up, dn) :
			      blend(s, n, neg, dn, up);
	} else {
		r = vreg_src(u64_to_f32(s, vreg_src(abs), n, rm));
	}
	neg = vreg_src(op2(s, MDG_ALU_IAND, n, neg, const1(0x80000000u)));
	set(s, v, vreg_src(op2(s, MDG_ALU_IOR, n, r, neg)));
	return true;
}

/*
 * F2S / F2U to 64-bit lanes, toward zero: the significand m shifted by
 * e - 150 into the word pair (right within the low word, left across
 * both); _sat clamps out-of-range values and turns NaN into 0; signed
 * results are negated last.
 */
static bool sel_f_to_i64(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	unsigned int n = in->type.comps;
	bool sat = in->aux & SIR_CONV_SAT, u = in->op == SIR_OP_F2U;
	struct mi_src x = get(s, in->srcs[0]);
	struct mi_src a, e, m, q, A, B, R, isl, big, lo, hi, sgn, ovf, nan;
	struct mi_instr *mi;
	uint32_t r, t;

	if (val(s, in->srcs[0])->type.bits != 32)
		return fail(s, "mdg: %s to %u-bit x%u from other than 32-bit "
			    "floats is not supported", v);
	a = vreg_src(op2(s, MDG_ALU_IAND, n, x, const1(0x7FFFFFFFu)));
	e = vreg_src(op2(s, MDG_ALU_ILSR, n, a, const1(23)));
	t = op2(s, MDG_ALU_IAND, n, a, const1(0x7FFFFF));
	m = vreg_src(op2(s, MDG_ALU_IOR, n, vreg_src(t), const1(0x800000)));
	t = op2(s, MDG_ALU_ISUB, n, e, const1(150));
	q = vreg_src(op2(s, MDG_ALU_IAND, n, vreg_src(t), const1(31)));
	A = vreg_src(op2(s, MDG_ALU_ISHL, n, m, q));
	t = op2(s, MDG_ALU_ILSR, n, m, const1(1));
	B = vreg_src(op2(s, MDG_ALU_ILSR, n, vreg_src(t),
			 vreg_src(op2(s, MDG_ALU_ISUB, n, const1(31), q))));
	t = op2(s, MDG_ALU_ISUB, n, const1(150), e);
	t = op2(s, MDG_ALU_UMIN, n, vreg_src(t), const1(31));
	R = vreg_src(op2(s, MDG_ALU_ILSR, n, m, vreg_src(t)));
	isl = vreg_src(op2(s, MDG_ALU_ILE, n, const1(150), e));
	big = vreg_src(op2(s, MDG_ALU_ILT, n, const1(181), e));
	lo = blend(s, n, isl, vreg_src(op2(s, MDG_ALU_IANDNOT, n, A, big)), R);
	hi = vreg_src(op2(s, MDG_ALU_IAND, n, isl, blend(s, n, big, A, B)));
	sgn = vreg_src(op2(s, MDG_ALU_IASR, n, x, const1(31)));
	if (sat) {
		nan = vreg_src(op2(s, MDG_ALU_ULT, n, const1(0x7F800000u), a));
		ovf = vreg_src(
			op2(s, MDG_ALU_ILT, n, const1(u ? 190 : 189), e));
		if (u) {
			lo = vreg_src(op2(s, MDG_ALU_IOR, n, lo, ovf));
			hi = vreg_src(op2(s, MDG_ALU_IOR, n, hi, ovf));
			nan = vreg_src(op2(s, MDG_ALU_IOR, n, nan, sgn));
		} else {
			lo = blend(s, n, ovf,
				   vreg_src(op2(s, MDG_ALU_IXOR, n, sgn,
						const1(0xFFFFFFFFu))),
				   lo);
			hi = blend(s, n, ovf, vreg_src(op2(s, MDG_ALU_ISUB, n,
				   const1(0x7FFFFFFFu), sgn)), hi);
		}
		lo = vreg_src(op2(s, MDG_ALU_IANDNOT, n, lo, nan));
		hi = vreg_src(op2(s, MDG_ALU_IANDNOT, n, hi, nan));
	}
	/* The pair: low words to even components, high words to odd. */
	r = mi_vreg_new(s->mf, 2 * n);
	s->mf->vregs[r].align2 = true;
	{
		static const uint8_t pairs[4] = { 0, 0, 1, 1 };

		alu(s, MDG_ALU_IMOV, vdst(r, (uint8_t)(0x5 & full_mask(2 * n))),
		    select_comps(lo, pairs, 4), nosrc);
		mi = alu(s, MDG_ALU_IMOV,
			 vdst(r, (uint8_t)(0xA & full_mask(2 * n))),
			 select_comps(hi, pairs, 4), nosrc);
		mi->kills = false;
	}
	if (!u) {
		struct mi_src s64 = widen64(s, sgn, n, true);

		r = opc(s, MDG_ALU_IXOR, 2 * n, vreg_src(r), s64, true);
		r = opc(s, MDG_ALU_ISUB, 2 * n, vreg_src(r), s64, true);
	}
	set(s, v, vreg_src(r));
	return true;
}

/* S2F / U2F to doubles (Midgard rounding mode rm): i2f in 64-bit lanes,
 * from narrower integers extended first (then exact). */
static bool sel_i_to_f64(struct isel *s, sir_id v, unsigned int rm)
{
	const struct sir_instr *in = val(s, v);
	const struct sir_instr *a = val(s, in->srcs[0]);
	bool sign = in->op == SIR_OP_S2F;
	unsigned int n = in->type.comps;
	struct mi_src x;

	if (in->op != SIR_OP_S2F && in->op != SIR_OP_U2F)
		return fail(s, "mdg: %s to %u-bit x%u is not supported", v);
	x = is64(a->type) ? get(s, in->srcs[0]) :
	    widen64(s, ext_of(s, in->srcs[0], sign), n, sign);
	set(s, v, vreg_src(opc(s, (uint8_t)((sign ? MDG_ALU_I2F_RTE :
						  MDG_ALU_U2F_RTE) + rm),
			       2 * n, x, nosrc, true)));
	return true;
}

/*
 * F2S / F2U from doubles, toward zero: f2i in 64-bit lanes (saturating at
 * 64 bits, NaN 0); narrower results clamped to their range when _sat, to
 * 32 bits otherwise, then the low words (narrow lanes keep undefined upper
 * bits).
 */
static bool sel_f64_to_i(struct isel *s, sir_id v)
{
	static const uint8_t lows[4] = { 0, 2, 0, 2 };
	const struct sir_instr *in = val(s, v);
	unsigned int n = in->type.comps, bits = in->type.bits;
	bool u = in->op == SIR_OP_F2U;
	uint32_t r;

	if (in->op != SIR_OP_F2S && in->op != SIR_OP_F2U)
		return fail(s, "mdg: %s from doubles to %u-bit x%u is not "
			    "supported", v);
	r = opc(s, u ? MDG_ALU_F2U_RTZ : MDG_ALU_F2I_RTZ, 2 * n,
		fsrc(s, in->srcs[0]), nosrc, true);
	if (bits == 64) {
		set(s, v, vreg_src(r));
		return true;
	}
	/*
	 * Saturated at 32 bits like f2i of a float also when not _sat (an
	 * out-of-range value is undefined then, but libclc indexes tables
	 * with min((int)x, n) of any x: no wrapped negative index).
	 */
	if (!(in->aux & SIR_CONV_SAT))
		bits = 32;
	{
		uint64_t hi = u ? (1ull << bits) - 1 : (1ull << (bits - 1)) - 1;
		uint64_t lo = u ? 0 : ~hi;
		uint32_t hv[4] = { (uint32_t)hi, (uint32_t)(hi >> 32),
				   (uint32_t)hi, (uint32_t)(hi >> 32) };
		uint32_t lv[4] = { (uint32_t)lo, (uint32_t)(lo >> 32),
				   (uint32_t)lo, (uint32_t)(lo >> 32) };

		r = opc(s, u ? MDG_ALU_UMIN : MDG_ALU_IMIN, 2 * n,
			vreg_src(r), const_src(hv, 4), true);
		if (!u)
			r = opc(s, MDG_ALU_IMAX, 2 * n, vreg_src(r),
				const_src(lv, 4), true);
	}
	set(s, v, select_comps(vreg_src(r), lows, 4));
	return true;
}

static bool sel_conv(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	const struct sir_instr *a = val(s, in->srcs[0]);
	/* SIR rounding 0 rte 1 rtz 2 rtp 3 rtn; Midgard 0 rte 1 rtz 2 rtn 3 rtp. */
	static const uint8_t rnd[4] = { 0, 1, 3, 2 };
	unsigned int rm = rnd[in->aux & SIR_CONV_ROUND_MASK];

	static const uint8_t lows[4] = { 0, 2, 0, 2 };
	bool sign = in->op == SIR_OP_SEXT;

	if (in->op == SIR_OP_FCONV)
		return sel_fconv(s, v);
	if (is64(in->type) && in->type.kind == SIR_FLOAT)
		return sel_i_to_f64(s, v, rm);
	if (is64(a->type) && a->type.kind == SIR_FLOAT)
		return sel_f64_to_i(s, v);
	if (is64(a->type) &&
	    (in->op == SIR_OP_S2F || in->op == SIR_OP_U2F))
		return sel_i64_to_f(s, v, rm);
	if (is64(in->type) &&
	    (in->op == SIR_OP_F2S || in->op == SIR_OP_F2U))
		return sel_f_to_i64(s, v);
	if (is64(a->type) && in->op != SIR_OP_TRUNC && in->op != SIR_OP_SEXT &&
	    in->op != SIR_OP_ZEXT)
		return fail(s, "mdg: %s from 64-bit integers (to %u-bit x%u) "
			    "is not supported", v);
	if (is64(in->type) && in->op != SIR_OP_SEXT && in->op != SIR_OP_ZEXT)
		return fail(s, "mdg: %s to %u-bit x%u is not supported", v);
	switch (in->op) {
	case SIR_OP_SEXT: case SIR_OP_ZEXT:
		if (is64(a->type)) {
			set(s, v, get(s, in->srcs[0]));
			return true;
		}
		if (is64(in->type)) {
			set(s, v, widen64(s, ext_of(s, in->srcs[0], sign),
					  a->type.comps, sign));
			return true;
		}
		set(s, v, ext_of(s, in->srcs[0], sign));
		return true;
	case SIR_OP_TRUNC:
		/* The low words, or the same lanes (upper bits undefined). */
		set(s, v, is64(a->type) ?
			  select_comps(get(s, in->srcs[0]), lows, 4) :
			  get(s, in->srcs[0]));
		return true;
	case SIR_OP_F2S:
	case SIR_OP_F2U:
		return sel_f2i(s, v);
	case SIR_OP_FCONV:
		return sel_fconv(s, v);
	case SIR_OP_S2F:
	case SIR_OP_U2F: {
		bool sg = in->op == SIR_OP_S2F;
		uint8_t mop = (uint8_t)((sg ? MDG_ALU_I2F_RTE :
					 MDG_ALU_U2F_RTE) + rm);

		/* To a half: one rounding, of the shrunk result. */
		if (is_half(in->type))
			set(s, v, vreg_src(half_conv(s, mop, in->type.comps,
						     ext_of(s, in->srcs[0], sg),
						     MH_TO)));
		else
			def2(s, v, mop, ext_of(s, in->srcs[0], sg), nosrc);
		return true;
	}
	default:
		return fail(s, "mdg: %s (%u-bit x%u) is not supported", v);
	}
}

/*
 * ---- short8 and char16 in narrow lanes ----
 *
 * short8 / ushort8 and char16 / uchar16 values that sir_lower_packed.c
 * kept whole, and the masks their comparisons give (all ones or zero per
 * lane), fill one register as eight 16-bit or sixteen 8-bit lanes, lane k
 * in bits [k * bits, (k + 1) * bits) (their memory image). Their ops run
 * in reg mode 16 or 8 (mi_instr.lane_bits), where a swizzle selector picks
 * a 16-bit element (or a byte pair) for lanes of both halves alike; so an
 * operand is a whole register with the identity swizzle, or one lane
 * value in every lane (mi_src.lane_splat: the low half of a word, or in
 * 8-bit mode its two low bytes, the word holding the byte four times),
 * encoded with the replicate-low or -high expand mode: a splat of a
 * narrow scalar (8-bit: its byte repeated in a word first) or a constant
 * whose lanes are equal. Other constants and views are moved into a
 * register first. Moves, stores, phi copies and the r31 moves of selects
 * copy the four 32-bit words in 32-bit mode, which is bit exact, after a
 * splat view is made a register (lane_words).
 */

static bool is_whole(const struct mi_src *x)
{
	for (unsigned int j = 0; j < 4; j++)
		if (x->swz[j] != j)
			return false;
	return !x->mod && !x->widen;
}

static bool is_const_words(const struct mi_src *x, uint32_t w)
{
	if (x->kind != MO_CONST)
		return false;
	for (unsigned int j = 0; j < 4; j++)
		if (x->cval[j] != w)
			return false;
	return true;
}

/* A word holding one bits-wide lane value in every lane. */
static bool is_lane_word(uint32_t w, unsigned int bits)
{
	return bits == 16 ? (w >> 16) == (w & 0xFFFF) :
	       w == (w & 0xFF) * 0x01010101u;
}

/* An operand of a narrow-lane op (see above); float modifiers stay. */
static struct mi_src src_narrow(struct isel *s, struct mi_src x,
				unsigned int bits)
{
	uint8_t mod = x.mod;

	if (x.kind == MO_CONST) {
		if (is_const_words(&x, x.cval[0]) &&
		    is_lane_word(x.cval[0], bits)) {
			x.lane_splat = true;
			return x;
		}
		return vreg_src(mov_to_vreg(s, x, 4));
	}
	x.mod = 0;
	if (!x.lane_splat && !(x.kind != MO_NONE && is_whole(&x)))
		x = vreg_src(mov_to_vreg(s, x, 4));
	x.mod = mod;
	return x;
}

/* Vector units only: 8 or 16 lanes. */
static void make_narrow(struct mi_instr *in, unsigned int bits)
{
	in->lane_bits = (uint8_t)bits;
	in->units &= (uint8_t)~(MDG_UNIT_MASK(MDG_UNIT_SADD) |
				MDG_UNIT_MASK(MDG_UNIT_SMUL));
}

/* The four words of a packed value, for 32-bit moves. */
static struct mi_src lane_words(struct isel *s, struct mi_src x,
				unsigned int bits)
{
	uint32_t r;

	if (!x.lane_splat)
		return x;
	if (x.kind == MO_CONST) {
		x.lane_splat = false;        /* the words are the lanes */
		return x;
	}
	r = mi_vreg_new(s->mf, 4);
	make_narrow(alu(s, MDG_ALU_IMOV, vdst(r, 0xF), x, nosrc), bits);
	return vreg_src(r);
}

/* A new packed vreg = op(a, b) in bits-wide lanes. */
static uint32_t opn(struct isel *s, unsigned int bits, uint8_t op,
		    struct mi_src a, struct mi_src b)
{
	const struct mdg_alu_op_info *info = mdg_alu_op_info(op);
	uint32_t r = mi_vreg_new(s->mf, 4);
	struct mi_instr *in;

	if (a.kind == MO_CONST && b.kind != MO_CONST && is_commutative(op)) {
		struct mi_src t = a;

		a = b;
		b = t;
	}
	a = src_narrow(s, a, bits);
	if (!(info->flags & MDG_OP_ONE_SRC) && b.kind)
		b = src_narrow(s, b, bits);
	in = alu(s, op, vdst(r, 0xF), a, b);
	make_narrow(in, bits);
	/*
	 * A splat constant in src2 is an inline immediate, exactly: the
	 * 16-bit immediate is a lane in 16-bit mode, its low byte one in
	 * 8-bit mode.
	 */
	if (in->src[1].kind == MO_CONST && in->src[1].lane_splat &&
	    op != MDG_ALU_IMOV && !(info->flags & MDG_OP_CSEL)) {
		uint32_t w = in->src[1].cval[0];

		in->src[1].kind = MO_IMM;
		in->src[1].imm = bits == 16 ? (uint16_t)w :
				 (uint16_t)(int16_t)(int8_t)w;
	}
	return r;
}

static void defn(struct isel *s, sir_id v, uint8_t op, struct mi_src a,
		 struct mi_src b)
{
	unsigned int bits = packed_bits(val(s, v)->type);

	set(s, v, vreg_src(opn(s, bits, op, a, b)));
}

/* SHUFFLE repeating one lane of a narrow scalar or vector: a splat. */
static bool sel_lane_splat(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	unsigned int bits = packed_bits(in->type);
	unsigned int n0 = val(s, in->srcs[0])->type.comps, lane = 2 * n0;
	sir_id src = in->srcs[0];
	struct mi_src x;

	if (in->num_srcs != 2 || n0 > 4 ||
	    val(s, in->srcs[1])->type.comps != n0)
		return fail(s, "mdg: %s to %u-bit x%u in narrow lanes is not "
			    "a splat", v);
	for (unsigned int j = 0; j < in->type.comps; j++) {
		uint64_t k = in->imm.u64[j];

		if (k >= 2u * n0)
			continue;            /* undefined lane */
		if (lane < 2 * n0 && k != lane)
			return fail(s, "mdg: %s to %u-bit x%u in narrow lanes "
				    "is not a splat", v);
		lane = (unsigned int)k;
	}
	if (lane == 2 * n0)
		lane = 0;
	if (lane >= n0) {
		src = in->srcs[1];
		lane -= n0;
	}
	x = get(s, src);
	if (x.kind == MO_CONST) {
		uint32_t m = bits == 16 ? 0xFFFF : 0xFF;

		x = const1((x.cval[lane] & m) * (bits == 16 ? 0x10001u :
						  0x01010101u));
	} else if (bits == 8 && in->type.kind == SIR_INT) {
		/* The byte four times in a word: the lanes read its two
		 * low bytes (bools are 0 / ~0 already). */
		uint32_t r =
			op2(s, MDG_ALU_IAND, 1, splat(x, lane), const1(0xFF));

		r = op2(s, MDG_ALU_IMUL, 1, vreg_src(r), const1(0x01010101u));
		x = vreg_src(r);
	} else {
		x = splat(x, lane);
	}
	x.lane_splat = true;
	set(s, v, x);
	return true;
}

static bool sel_select_narrow(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	unsigned int bits = packed_bits(in->type);
	bool lanes = val(s, in->srcs[0])->type.comps > 1;
	struct mi_src c = get(s, in->srcs[0]);
	struct mi_src a = get(s, in->srcs[1]), b = get(s, in->srcs[2]);
	uint32_t r;
	struct mi_instr *mov, *sel;

	/* select(m, -1, 0) of a mask is the mask: its lanes are all ones
	 * or zero (the integer value of a comparison). */
	if (lanes && is_const_words(&a, 0xFFFFFFFFu) &&
	    is_const_words(&b, 0)) {
		set(s, v, c);
		return true;
	}
	/* Operands first: the r31 move must come right before the csel. */
	a = src_narrow(s, a, bits);
	b = src_narrow(s, b, bits);
	c = lanes ? lane_words(s, c, bits) : splat(c, 0);
	r = mi_vreg_new(s->mf, 4);
	mov = lanes ? alu(s, MDG_ALU_IMOV, pdst(31, 0xFF, 0xF), c, nosrc) :
		      alu(s, MDG_ALU_IMOV, pdst(31, 3, 1), c, nosrc);
	restrict_cond_move(mov);
	sel = alu(s, lanes ? MDG_ALU_ICSEL_V : MDG_ALU_ICSEL, vdst(r, 0xF),
		  a, b);
	make_narrow(sel, bits);
	sel->glued = true;
	set(s, v, vreg_src(r));
	return true;
}

static bool sel_packed(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	enum sir_op op = (enum sir_op)in->op;
	struct addr a;
	uint32_t r;

	switch (op) {
	case SIR_OP_COPY:
	case SIR_OP_BITCAST:         /* short8 <-> half8: the same lanes */
		set(s, v, get(s, in->srcs[0]));
		return true;
	case SIR_OP_UNIFORM:
		if (in->aux % 4)
			return fail(s, "mdg: %s (%u-bit x%u) at an unaligned "
				    "offset", v);
		set(s, v, uniform_words(s, v, in->aux, 4));
		return !s->failed;
	case SIR_OP_LOAD:
		/* ld.128 needs 4-byte alignment (sir_lower_packed.c keeps
		 * only such accesses whole). */
		if (in->aux < 4)
			return fail(s, "mdg: %s (%u-bit x%u) below 4-byte "
				    "alignment", v);
		fold_address(s, in->srcs[0], &a);
		r = mi_vreg_new(s->mf, 4);
		emit_load(s, &a, r, 0, 4, true);
		set(s, v, vreg_src(r));
		return true;
	case SIR_OP_STORE:
		if (in->aux < 4)
			return fail(s, "mdg: store of %s (%u-bit x%u) below "
				    "4-byte alignment", in->srcs[1]);
		fold_address(s, in->srcs[0], &a);
		store_words(s, lane_words(s, get(s, in->srcs[1]),
					  packed_bits(val(s, in->srcs[1])->type)),
			    4, &a);
		return true;
	case SIR_OP_SHUFFLE:
		return sel_lane_splat(s, v);
	case SIR_OP_SELECT:
		return sel_select_narrow(s, v);
	case SIR_OP_NOT:
	case SIR_OP_BNOT:
		defn(s, v, MDG_ALU_IXOR, get(s, in->srcs[0]),
		     const1(0xFFFFFFFFu));
		return true;
	case SIR_OP_INEG:
		defn(s, v, MDG_ALU_ISUB, const1(0), get(s, in->srcs[0]));
		return true;
	case SIR_OP_IADD: case SIR_OP_ISUB: case SIR_OP_IMUL:
	case SIR_OP_AND: case SIR_OP_OR: case SIR_OP_XOR:
	case SIR_OP_SHL: case SIR_OP_LSHR: case SIR_OP_ASHR:
	case SIR_OP_SMIN: case SIR_OP_SMAX: case SIR_OP_UMIN: case SIR_OP_UMAX:
	case SIR_OP_UADD_SAT: case SIR_OP_SADD_SAT:
	case SIR_OP_USUB_SAT: case SIR_OP_SSUB_SAT:
	case SIR_OP_IEQ: case SIR_OP_INE: case SIR_OP_SLT: case SIR_OP_SLE:
	case SIR_OP_ULT: case SIR_OP_ULE:
	case SIR_OP_BAND: case SIR_OP_BOR: case SIR_OP_BEQ: case SIR_OP_BNE:
		/* Lane-wise at the lane width: shift counts modulo it and
		 * the saturations at it, as SIR means them. */
		defn(s, v, int_op(op), get(s, in->srcs[0]),
		     get(s, in->srcs[1]));
		return true;
	/* half8: fp16 in reg mode 16, FNEG / FABS as modifiers. */
	case SIR_OP_FADD: case SIR_OP_FMUL: case SIR_OP_FMIN: case SIR_OP_FMAX:
	case SIR_OP_FEQ: case SIR_OP_FNE: case SIR_OP_FLT: case SIR_OP_FLE:
		defn(s, v, float_op(op), fsrc(s, in->srcs[0]),
		     fsrc(s, in->srcs[1]));
		return true;
	case SIR_OP_FSUB: {
		struct mi_src b = fsrc(s, in->srcs[1]);

		if (b.kind == MO_CONST)
			for (int j = 0; j < 4; j++)
				b.cval[j] ^= 0x80008000u;
		else
			b.mod ^= 2;
		defn(s, v, MDG_ALU_FADD, fsrc(s, in->srcs[0]), b);
		return true;
	}
	case SIR_OP_FNEG: case SIR_OP_FABS:
		defn(s, v, MDG_ALU_FMOV, fsrc(s, v), nosrc);
		return true;
	case SIR_OP_FFLOOR: case SIR_OP_FCEIL: case SIR_OP_FTRUNC:
	case SIR_OP_FRINT: case SIR_OP_FROUND:
		defn(s, v, float_unary(op), fsrc(s, in->srcs[0]), nosrc);
		return true;
	default:
		return fail(s, "mdg: %s on %u-bit x%u values in narrow lanes "
			    "is not supported", v);
	}
}

static bool sel_value(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	enum sir_op op = (enum sir_op)in->op;
	uint8_t mop;

	if (packed_bits(in->type) ||
	    (op == SIR_OP_STORE && packed_bits(val(s, in->srcs[1])->type)))
		return sel_packed(s, v);
	if (op == SIR_OP_BITCAST && supported(in->type) &&
	    supported(val(s, in->srcs[0])->type) &&
	    (is_narrow(in->type) != is_narrow(val(s, in->srcs[0])->type) ||
	     (is_narrow(in->type) &&
	      in->type.bits != val(s, in->srcs[0])->type.bits)))
		return sel_repack(s, v);
	if (in->type.kind != SIR_VOID && !supported(in->type) &&
	    op != SIR_OP_ANY && op != SIR_OP_ALL)
		return fail(s, "mdg: %s on %u-bit x%u values is not supported "
			    "by the back end", v);
	for (uint32_t k = 0; k < in->num_srcs; k++)
		if (!supported(val(s, in->srcs[k])->type) &&
		    val(s, in->srcs[k])->type.kind != SIR_VOID)
			return fail(s, "mdg: %s from %u-bit x%u values is not "
				    "supported by the back end", in->srcs[k]);
	/*
	 * Halves: the ops reg mode 16 has; sir_lower_half.c computes the
	 * others (the LUT ops, dot products, fma) in fp32.
	 */
	if (reads_floats(op) && !half_native(op) &&
	    (is_half(in->type) ||
	     (in->num_srcs && is_half(val(s, in->srcs[0])->type))))
		return fail(s, "mdg: %s (%u-bit x%u) on halves reached the "
			    "back end (sir_lower_half.c computes it in fp32)",
			    v);
	switch (op) {
	case SIR_OP_COPY:
	case SIR_OP_BITCAST: {
		struct sir_type ts = val(s, in->srcs[0])->type;

		/* Same layout in components: a view (int2 <-> long too). */
		if (ncomp(ts) != ncomp(in->type) ||
		    is_narrow(ts) != is_narrow(in->type) ||
		    (is_narrow(ts) && ts.bits != in->type.bits))
			return fail(s, "mdg: %s to %u-bit x%u from another "
				    "lane width is not supported", v);
		set(s, v, get(s, in->srcs[0]));
		return true;
	}
	case SIR_OP_EXTRACT: {
		uint8_t k = (uint8_t)in->aux;

		set(s, v, select_elems(get(s, in->srcs[0]), &k, 1,
				       elem_comps(in->type)));
		return true;
	}
	case SIR_OP_VEC:
		return sel_vec(s, v);
	case SIR_OP_SHUFFLE:
		return sel_shuffle(s, v);
	case SIR_OP_INSERT:
		return sel_insert(s, v);
	case SIR_OP_SELECT:
		return sel_select(s, v);
	case SIR_OP_UNIFORM:
		return sel_uniform(s, v);
	case SIR_OP_SYSVAL:
		return sel_sysval(s, v);
	case SIR_OP_LOAD:
		return sel_load(s, v);
	case SIR_OP_STORE:
		return sel_store(s, v);
	case SIR_OP_IMAGE_STORE:
		return sel_image_store(s, v);
	case SIR_OP_IMAGE_LOAD:
		return sel_image_load(s, v);
	case SIR_OP_IMAGE_SAMPLE:
		return sel_image_sample(s, v);
	case SIR_OP_ATOMIC:
		return sel_atomic(s, v);
	case SIR_OP_INEG:
		def2(s, v, MDG_ALU_ISUB, const1(0), get(s, in->srcs[0]));
		return true;
	case SIR_OP_NOT:
	case SIR_OP_BNOT:
		def2(s, v, MDG_ALU_IXOR, get(s, in->srcs[0]),
		     const1(0xFFFFFFFFu));
		return true;
	case SIR_OP_IABS:
		def2(s, v, MDG_ALU_IABSDIFF, ext_of(s, in->srcs[0], true),
		     const1(0));
		return true;
	case SIR_OP_CLZ:
	case SIR_OP_POPCOUNT:
		return sel_bitcount(s, v);
	case SIR_OP_FNEG:
	case SIR_OP_FABS:
		if (is_half(in->type))
			set(s, v, vreg_src(half_op(s, MDG_ALU_FMOV,
						   in->type.comps, fsrc(s, v),
						   nosrc)));
		else
			def2(s, v, MDG_ALU_FMOV, fsrc(s, v), nosrc);
		return true;
	case SIR_OP_FSUB: {
		struct mi_src b = fsrc(s, in->srcs[1]);

		if (b.kind == MO_CONST)
			for (int j = is64(in->type) ? 1 : 0; j < 4;
			     j += is64(in->type) ? 2 : 1)
				b.cval[j] ^= sign_bit(in->type);
		else
			b.mod ^= 2;
		if (is_half(in->type))
			set(s, v, vreg_src(half_op(s, MDG_ALU_FADD,
						   in->type.comps,
						   fsrc(s, in->srcs[0]), b)));
		else
			def2(s, v, MDG_ALU_FADD, fsrc(s, in->srcs[0]), b);
		return true;
	}
	case SIR_OP_FUNORD: {
		unsigned int n = in->type.comps;
		struct mi_src a = fsrc(s, in->srcs[0]);
		struct mi_src b = fsrc(s, in->srcs[1]);
		uint32_t x = op2(s, MDG_ALU_FNE, n, a, a),
			 y = op2(s, MDG_ALU_FNE, n, b, b);

		set(s, v,
		    vreg_src(op2(s, MDG_ALU_IOR, n, vreg_src(x), vreg_src(y))));
		return true;
	}
	case SIR_OP_FSIN:
	case SIR_OP_FCOS: {
		unsigned int n = in->type.comps;
		uint32_t t = op2(s, MDG_ALU_FMUL, n, fsrc(s, in->srcs[0]),
				 const1(ONE_OVER_PI_F32));

		set(s, v, vreg_src(op2(s, float_unary(op), n, vreg_src(t),
				       nosrc)));
		return true;
	}
	case SIR_OP_ANY:
	case SIR_OP_ALL: {
		unsigned int k = val(s, in->srcs[0])->type.comps;
		uint8_t sel[4];
		uint32_t r = mi_vreg_new(s->mf, 1);
		struct mi_instr *mi;

		for (unsigned int j = 0; j < 4; j++)
			sel[j] = (uint8_t)(j < k ? j : k - 1);
		mi = alu(s, op == SIR_OP_ANY ? MDG_ALU_IBANY_NEQ :
			 MDG_ALU_IBALL_NEQ, vdst(r, 1),
			 select_comps(get(s, in->srcs[0]), sel, 4), const1(0));
		try_immediate(mi, 1);
		set(s, v, vreg_src(r));
		return true;
	}
	case SIR_OP_FDOT: {
		/* fdot3/fdot4 on the vmul unit: one lane written. */
		unsigned int k = val(s, in->srcs[0])->type.comps;
		uint32_t r = mi_vreg_new(s->mf, 1);

		alu(s, k == 4 ? MDG_ALU_FDOT4 : MDG_ALU_FDOT3, vdst(r, 1),
		    fsrc(s, in->srcs[0]), fsrc(s, in->srcs[1]));
		set(s, v, vreg_src(r));
		return true;
	}
	case SIR_OP_SEXT: case SIR_OP_ZEXT: case SIR_OP_TRUNC:
	case SIR_OP_F2S: case SIR_OP_F2U: case SIR_OP_S2F: case SIR_OP_U2F:
	case SIR_OP_FCONV:
		return sel_conv(s, v);
	default:
		break;
	}
	if ((mop = int_op(op)) != 0)
		return sel_int(s, v, mop);
	if ((mop = float_op(op)) != 0) {
		struct sir_type ts = val(s, in->srcs[0])->type;

		if (is_half(ts)) {
			set(s, v, vreg_src(half_op(s, mop, ts.comps,
						   fsrc(s, in->srcs[0]),
						   fsrc(s, in->srcs[1]))));
			return true;
		}

		if (is64(ts)) {
			/* Doubles: compares give 64-bit 0 / ~0, the low
			 * words are the bools. */
			static const uint8_t lows[4] = { 0, 2, 0, 2 };
			uint32_t r = opc(s, mop, ncomp(ts),
					 fsrc(s, in->srcs[0]),
					 fsrc(s, in->srcs[1]), true);

			set(s, v, in->type.kind == SIR_BOOL ?
				  select_comps(vreg_src(r), lows, 4) :
				  vreg_src(r));
			return true;
		}
		def2(s, v, mop, fsrc(s, in->srcs[0]), fsrc(s, in->srcs[1]));
		return true;
	}
	if ((mop = float_unary(op)) != 0) {
		if (is_half(in->type))
			set(s, v, vreg_src(half_op(s, mop, in->type.comps,
						   fsrc(s, in->srcs[0]),
						   nosrc)));
		else
			def2(s, v, mop, fsrc(s, in->srcs[0]), nosrc);
		return true;
	}
	return fail(s, "mdg: op %s (%u-bit x%u) is not supported by the "
		    "back end", v);
}

static bool sel_const(struct isel *s, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	uint32_t vals[4] = { 0 };

	if (packed_bits(in->type)) {
		/* Lane j at bit j * bits of the image; masks all ones. */
		unsigned int bits = packed_bits(in->type);
		uint32_t m = (1u << bits) - 1;

		for (unsigned int j = 0; j < in->type.comps &&
		     in->op == SIR_OP_CONST; j++) {
			uint64_t x = in->imm.u64[j];
			uint32_t h = in->type.kind == SIR_BOOL ?
				     (x ? m : 0) : (uint32_t)x & m;

			vals[j * bits / 32] |= h << (j * bits % 32);
		}
		set(s, v, const_src(vals, 4));
		return true;
	}
	if (!supported(in->type)) {
		/* Other types fail where they are used. */
		return true;
	}
	for (unsigned int j = 0; j < in->type.comps; j++) {
		uint64_t x = in->imm.u64[j];

		if (is64(in->type)) {
			vals[2 * j] = (uint32_t)x;
			vals[2 * j + 1] = (uint32_t)(x >> 32);
		} else if (is_narrow(in->type)) {
			/* Sign-extended: more fit inline immediates. */
			vals[j] = (uint32_t)(in->type.bits == 8 ?
					     (int32_t)(int8_t)x :
					     (int32_t)(int16_t)x);
		} else {
			vals[j] = in->type.kind == SIR_BOOL ?
				  (x ? 0xFFFFFFFFu : 0) : (uint32_t)x;
		}
	}
	if (in->op == SIR_OP_UNDEF)
		memset(vals, 0, sizeof(vals));
	set(s, v, const_src(vals, ncomp(in->type)));
	return true;
}

/* ---- Blocks, phis, terminators ---- */

static bool block_has_phis(const struct sir_function *f, uint32_t b)
{
	const struct sir_block *blk = &f->blocks[b];

	return blk->num_instrs &&
	       f->values[blk->instrs[0]].op == SIR_OP_PHI;
}

/* Copies for the phis of SIR block t, coming from SIR block p. */
static void phi_copies(struct isel *s, uint32_t t, uint32_t p)
{
	const struct sir_block *blk = &s->f->blocks[t];
	uint32_t nphi = 0;
	struct mi_src srcs[64];
	sir_id phis[64];

	for (uint32_t i = 0; i < blk->num_instrs; i++) {
		const struct sir_instr *in = val(s, blk->instrs[i]);

		if (in->op != SIR_OP_PHI)
			break;
		if (nphi == 64) {
			fail(s, "mdg: more than 64 phis in one block (%s %u-bit "
			     "x%u)", blk->instrs[i]);
			return;
		}
		for (uint32_t k = 0; k < in->num_srcs; k++) {
			if (in->phi_blocks[k] == p) {
				phis[nphi] = blk->instrs[i];
				srcs[nphi] = get(s, in->srcs[k]);
				if (packed_bits(in->type))
					srcs[nphi] = lane_words(
						s, srcs[nphi],
						packed_bits(in->type));
				nphi++;
				break;
			}
		}
	}
	/* A source that is another phi of t is read before any copy. */
	for (uint32_t i = 0; i < nphi; i++) {
		bool hazard = false;

		for (uint32_t j = 0; j < nphi; j++)
			if (srcs[i].kind == MO_VREG &&
			    srcs[i].reg == s->map[phis[j]].reg)
				hazard = true;
		if (hazard)
			srcs[i] = vreg_src(mov_to_vreg(
				s, srcs[i], ncomp(val(s, phis[i])->type)));
	}
	for (uint32_t i = 0; i < nphi; i++) {
		unsigned int n = ncomp(val(s, phis[i])->type);

		alu(s, MDG_ALU_IMOV, vdst(s->map[phis[i]].reg, full_mask(n)),
		    srcs[i], nosrc);
	}
}

static void set_term(struct isel *s, uint32_t mb, uint8_t term, uint32_t t0,
		     uint32_t t1)
{
	s->mf->blocks[mb].term = term;
	s->mf->blocks[mb].succ[0] = t0;
	s->mf->blocks[mb].succ[1] = t1;
}

static bool sel_terminator(struct isel *s, uint32_t b, sir_id v)
{
	const struct sir_instr *in = val(s, v);
	uint32_t t0 = in->targets[0], t1 = in->targets[1];

	if (in->op == SIR_OP_RET) {
		set_term(s, s->cur, MT_RET, 0, 0);
		return true;
	}
	if (in->op == SIR_OP_BR || (in->op == SIR_OP_CBR && t0 == t1)) {
		phi_copies(s, t0, b);
		set_term(s, s->cur, MT_BR, s->bmap[t0], 0);
		return true;
	}
	if (in->op != SIR_OP_CBR)
		return fail(s, "mdg: terminator %s (%u-bit x%u) unknown", v);
	/* Edges into blocks with phis get their own block for the copies. */
	{
		uint32_t e[2] = { s->bmap[t0], s->bmap[t1] };
		uint32_t tgt[2] = { t0, t1 };
		struct mi_instr *mov;

		mov = alu(s, MDG_ALU_IMOV, pdst(31, 3, 1),
			  splat(get(s, in->srcs[0]), 0), nosrc);
		mov->branch_cond = true;
		set_term(s, s->cur, MT_CBR, e[0], e[1]);
		uint32_t next = s->bmap[b] + 1;

		for (int k = 0; k < 2; k++) {
			uint32_t save = s->cur, eb;

			if (!block_has_phis(s->f, tgt[k]))
				continue;
			eb = next++;
			s->mf->blocks[save].succ[k] = eb;
			s->cur = eb;
			phi_copies(s, tgt[k], b);
			set_term(s, eb, MT_BR, e[k], 0);
			s->cur = save;
		}
	}
	return true;
}

/*
 * The order blocks are selected in: reverse postorder from the entry (so
 * every value is selected before its uses, whatever the block numbering),
 * then unreachable blocks.
 */
static uint32_t *block_order(const struct sir_function *f)
{
	uint32_t n = f->num_blocks, done = n, top = 0;
	uint32_t *order = sir_xcalloc(n, sizeof(*order));
	uint32_t *stack = sir_xcalloc(n, sizeof(*stack));
	uint8_t *next = sir_xcalloc(n, 1);  /* successor to visit next */
	bool *seen = sir_xcalloc(n, sizeof(*seen));

	stack[top++] = 0;
	seen[0] = true;
	while (top) {
		uint32_t b = stack[top - 1];
		const struct sir_block *blk = &f->blocks[b];
		const struct sir_instr *t = blk->num_instrs ?
			&f->values[blk->instrs[blk->num_instrs - 1]] : NULL;
		unsigned int nsucc = !t ? 0 : t->op == SIR_OP_BR ? 1 :
				     t->op == SIR_OP_CBR ? 2 : 0;

		if (next[b] < nsucc) {
			uint32_t succ = t->targets[next[b]++];

			if (succ < n && !seen[succ]) {
				seen[succ] = true;
				stack[top++] = succ;
			}
			continue;
		}
		order[--done] = b;
		top--;
	}
	/* Reachable blocks sit at order[done..n); move them to the front. */
	memmove(order, order + done, (n - done) * sizeof(*order));
	for (uint32_t b = 0, i = n - done; b < n; b++)
		if (!seen[b])
			order[i++] = b;
	free(stack);
	free(next);
	free(seen);
	return order;
}

/* MIR block numbering: each SIR block, then its split edges. */
static void layout_blocks(struct isel *s)
{
	struct sir_function *f = s->f;
	uint32_t n = 0;

	for (uint32_t b = 0; b < f->num_blocks; b++) {
		const struct sir_block *blk = &f->blocks[b];
		sir_id t = blk->num_instrs ? blk->instrs[blk->num_instrs - 1] : 0;

		s->bmap[b] = n++;
		if (t && f->values[t].op == SIR_OP_CBR &&
		    f->values[t].targets[0] != f->values[t].targets[1]) {
			for (int k = 0; k < 2; k++)
				if (block_has_phis(f, f->values[t].targets[k]))
					n++;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		mi_block_new(s->mf);
}

/*
 * Uniforms and sysvals may live outside any block (sir_verify allows it):
 * they are read once at the top of the entry block.
 */
static bool sel_unplaced_inputs(struct isel *s)
{
	for (uint32_t v = 1; v < s->f->num_values; v++) {
		const struct sir_instr *in = &s->f->values[v];

		if (in->block != UINT32_MAX || s->mapped[v] ||
		    (in->op != SIR_OP_UNIFORM && in->op != SIR_OP_SYSVAL))
			continue;
		if (!sel_value(s, v))
			return false;
	}
	return true;
}

static uint32_t push_rows(struct sir_function *f)
{
	uint32_t rows = 0;

	for (uint32_t v = 1; v < f->num_values; v++) {
		const struct sir_instr *in = &f->values[v];
		uint32_t end;

		if (in->op != SIR_OP_UNIFORM)
			continue;
		end = (in->aux + sir_type_size(in->type) + 15) / 16;
		if (end > rows)
			rows = end;
	}
	return rows < PUSH_ROWS_MAX ? rows : PUSH_ROWS_MAX;
}

bool mbe_isel(struct sir_function *f, struct mi_func *mf, char *err,
	      size_t errsz)
{
	struct isel s;
	uint32_t *order;
	bool ok = true;

	memset(&s, 0, sizeof(s));
	s.f = f;
	s.mf = mf;
	s.err = err;
	s.errsz = errsz;
	s.map = sir_xcalloc(f->num_values, sizeof(*s.map));
	s.mapped = sir_xcalloc(f->num_values, sizeof(*s.mapped));
	s.bmap = sir_xcalloc(f->num_blocks, sizeof(*s.bmap));
	mf->push_vec4 = push_rows(f);
	layout_blocks(&s);

	/* Constants and phis first: they are used before they appear. */
	for (uint32_t v = 1; v < f->num_values && ok; v++) {
		const struct sir_instr *in = &f->values[v];

		if (in->op == SIR_OP_CONST || in->op == SIR_OP_UNDEF)
			ok = sel_const(&s, v);
		else if (in->op == SIR_OP_PHI && in->block != UINT32_MAX) {
			if (!supported(in->type) && !packed_bits(in->type)) {
				ok = fail(&s, "mdg: %s on %u-bit x%u values is "
					  "not supported", v);
			} else {
				uint32_t r = mi_vreg_new(mf, ncomp(in->type));

				mf->vregs[r].align2 = is64(in->type);
				set(&s, v, vreg_src(r));
			}
		}
	}
	order = block_order(f);
	for (uint32_t i = 0; i < f->num_blocks && ok && !s.failed; i++) {
		uint32_t b = order[i];
		const struct sir_block *blk = &f->blocks[b];

		s.cur = s.bmap[b];
		if (b == 0)
			ok = sel_unplaced_inputs(&s);
		if (!blk->num_instrs) {
			snprintf(err, errsz, "mdg: block %u has no terminator",
				 b);
			s.failed = true;
			break;
		}
		for (uint32_t i = 0; i < blk->num_instrs && ok; i++) {
			sir_id v = blk->instrs[i];
			const struct sir_instr *in = &f->values[v];

			switch (in->op) {
			case SIR_OP_PHI:
			case SIR_OP_CONST:
			case SIR_OP_UNDEF:
				break;
			case SIR_OP_BARRIER:
				if (in->aux2) {
					mi_append(mf, s.cur)->kind = MI_BARRIER;
					mf->barrier = true;
				}
				break;
			case SIR_OP_BR:
			case SIR_OP_CBR:
			case SIR_OP_RET:
				ok = sel_terminator(&s, b, v);
				break;
			default:
				ok = sel_value(&s, v);
				break;
			}
		}
	}
	ok = ok && !s.failed;
	free(order);
	free(s.map);
	free(s.mapped);
	free(s.bmap);
	return ok;
}
