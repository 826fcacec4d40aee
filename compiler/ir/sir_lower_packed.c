/* SPDX-License-Identifier: MIT */
/*
 * Which short8 / ushort8, half8 and char16 / uchar16 values stay whole
 * instead of being split into four-lane pieces (sir_lower_wide.c):
 * Midgard's 16- and 8-bit reg modes compute eight 16-bit or sixteen 8-bit
 * lanes in one 128-bit register, where the pieces take two or four
 * registers of 32-bit lanes and re-extend their operands for signed ops.
 *
 * Values of 16-bit x8 and 8-bit x16 integers, of half x8, and the bool
 * x8 / x16 masks their comparisons give (all ones or zero per lane in the
 * back end) form webs: sets connected by definitions and uses, found
 * with union-find over the instructions. Constants, undefs and uniforms
 * outside blocks connect nothing, since either layout can be built from
 * them. A web
 * stays packed when every definition and every use in it is one the back
 * end does in its lane width directly:
 *
 *  - IADD ISUB IMUL AND OR XOR NOT INEG, SHL LSHR ASHR (SIR counts modulo
 *    the lane width, as the hardware does in narrow lanes), SMIN SMAX UMIN
 *    UMAX, and the saturating additions and subtractions, which saturate
 *    at the lane width in narrow modes;
 *  - IEQ INE SLT SLE ULT ULE of two such vectors; BNOT BAND BOR BEQ BNE
 *    of masks;
 *  - on half8: FADD FSUB FMUL FMIN FMAX FNEG FABS FFLOOR FCEIL FTRUNC
 *    FRINT FROUND, and FEQ FNE FLT FLE of two half8 (fp16 in reg mode
 *    16); BITCAST between half8 and short8 (the same lanes: a vector
 *    select of halves is bit operations on them);
 *  - SELECT on a mask or on a scalar bool; COPY, PHI, CONST, UNDEF,
 *    UNIFORM;
 *  - a SHUFFLE repeating one lane of an integer or half vector of the
 *    same lane width, or of a bool vector, of at most four lanes (a splat: a
 *    swizzle in the narrow mode);
 *  - LOAD and STORE at an address known to be 4-byte aligned (one
 *    ld/st .128; the load/store unit's rule, see sir_lower_unaligned.c).
 *    vloadn says only the element's alignment in the access, but its
 *    address usually proves 16: kept accesses get what the address
 *    proves in aux.
 *
 * Anything else reading or defining a value of the web (an extract, a
 * bitcast, a conversion, another shuffle, ANY/ALL, a less aligned access)
 * sends the whole web to the piece path, which is exact for everything.
 */
#include "sir_lower.h"

#include <stdlib.h>
#include <string.h>

/* short8 or char16: a register of narrow lanes. */
static bool is_packed_int(struct sir_type t)
{
	return sirl_is_packed(t) && t.kind == SIR_INT;
}

/* half8: eight fp16 lanes. */
static bool is_packed_half(struct sir_type t)
{
	return sirl_is_packed(t) && t.kind == SIR_FLOAT;
}

static bool is_packed_mask(struct sir_type t)
{
	return sirl_is_packed(t) && t.kind == SIR_BOOL;
}

/* Values outside blocks that each layout makes on its own. */
static bool is_free(const struct sir_instr *in)
{
	return in->block == UINT32_MAX &&
	       (in->op == SIR_OP_CONST || in->op == SIR_OP_UNDEF ||
		in->op == SIR_OP_UNIFORM);
}

static struct sir_type src_type(const struct sir_function *f,
				const struct sir_instr *in, unsigned int s)
{
	return f->values[in->srcs[s]].type;
}

/* Every source is of type t. */
static bool srcs_are(const struct sir_function *f, const struct sir_instr *in,
		     struct sir_type t)
{
	for (uint32_t s = 0; s < in->num_srcs; s++)
		if (!sir_type_eq(src_type(f, in, s), t))
			return false;
	return true;
}

/* A 4-byte aligned access; raises aux to what the address proves. */
static bool aligned_access(struct sir_function *f, struct sir_instr *in,
			   bool commit)
{
	uint32_t a = in->aux;

	if (a < 4) {
		uint32_t k = sirl_known_align(f, in->srcs[0]);

		a = k > a ? k : a;
	}
	if (commit)
		in->aux = a;
	return a >= 4;
}

/*
 * SHUFFLE repeating one lane of an integer vector of the result's lane
 * width, or of a bool vector, of <= 4 lanes.
 */
static bool is_lane_splat(const struct sir_function *f,
			  const struct sir_instr *in)
{
	struct sir_type t = src_type(f, in, 0);
	uint64_t lane = UINT64_MAX;

	if (in->num_srcs != 2 || t.comps > 4 ||
	    !sir_type_eq(src_type(f, in, 1), t) ||
	    !(t.kind == SIR_BOOL ? in->type.kind == SIR_BOOL :
	      (t.kind == SIR_INT || t.kind == SIR_FLOAT) &&
	      t.bits == in->type.bits && in->type.kind == t.kind))
		return false;
	for (unsigned int i = 0; i < in->type.comps; i++) {
		uint64_t s = in->imm.u64[i];

		if (s >= 2u * t.comps)
			continue;            /* undefined lane */
		if (lane != UINT64_MAX && s != lane)
			return false;
		lane = s;
	}
	return true;
}

/* A mask of the result's lane count or a scalar bool chooses. */
static bool select_ok(const struct sir_function *f, const struct sir_instr *in)
{
	struct sir_type c = src_type(f, in, 0);

	return ((is_packed_mask(c) && c.comps == in->type.comps) ||
		sir_type_eq(c, sir_type_make(SIR_BOOL, 1, 1))) &&
	       sir_type_eq(src_type(f, in, 1), in->type) &&
	       sir_type_eq(src_type(f, in, 2), in->type);
}

/* A bitcast between short8 and half8: the same eight 16-bit lanes. */
static bool lane_bitcast(const struct sir_function *f,
			 const struct sir_instr *in)
{
	struct sir_type s = src_type(f, in, 0);

	return in->op == SIR_OP_BITCAST && sirl_is_packed(s) &&
	       s.kind != SIR_BOOL && s.kind != in->type.kind &&
	       s.bits == 16 && in->type.bits == 16;
}

/* What the back end does on short8 / char16 values in narrow modes. */
static bool int_def_ok(struct sir_function *f, struct sir_instr *in)
{
	struct sir_type t = in->type;

	switch (in->op) {
	case SIR_OP_IADD: case SIR_OP_ISUB: case SIR_OP_IMUL:
	case SIR_OP_AND: case SIR_OP_OR: case SIR_OP_XOR:
	case SIR_OP_NOT: case SIR_OP_INEG:
	case SIR_OP_SHL: case SIR_OP_LSHR: case SIR_OP_ASHR:
	case SIR_OP_SMIN: case SIR_OP_SMAX: case SIR_OP_UMIN: case SIR_OP_UMAX:
	case SIR_OP_UADD_SAT: case SIR_OP_SADD_SAT:
	case SIR_OP_USUB_SAT: case SIR_OP_SSUB_SAT:
	case SIR_OP_COPY: case SIR_OP_PHI:
		return srcs_are(f, in, t);
	case SIR_OP_CONST: case SIR_OP_UNDEF:
		return true;
	case SIR_OP_UNIFORM:
		return in->aux % 4 == 0;
	case SIR_OP_SELECT:
		return select_ok(f, in);
	case SIR_OP_SHUFFLE:
		return is_lane_splat(f, in);
	case SIR_OP_LOAD:
		return aligned_access(f, in, false);
	case SIR_OP_BITCAST:
		return lane_bitcast(f, in);
	default:
		return false;
	}
}

/* What the back end does on half8 values in 16-bit mode. */
static bool half_def_ok(struct sir_function *f, struct sir_instr *in)
{
	switch (in->op) {
	case SIR_OP_FADD: case SIR_OP_FSUB: case SIR_OP_FMUL:
	case SIR_OP_FMIN: case SIR_OP_FMAX: case SIR_OP_FNEG:
	case SIR_OP_FABS: case SIR_OP_FFLOOR: case SIR_OP_FCEIL:
	case SIR_OP_FTRUNC: case SIR_OP_FRINT: case SIR_OP_FROUND:
	case SIR_OP_COPY: case SIR_OP_PHI:
		return srcs_are(f, in, in->type);
	case SIR_OP_CONST: case SIR_OP_UNDEF:
		return true;
	case SIR_OP_UNIFORM:
		return in->aux % 4 == 0;
	case SIR_OP_SELECT:
		return select_ok(f, in);
	case SIR_OP_SHUFFLE:
		return is_lane_splat(f, in);
	case SIR_OP_LOAD:
		return aligned_access(f, in, false);
	case SIR_OP_BITCAST:
		return lane_bitcast(f, in);
	default:
		return false;
	}
}

/* What the back end does on masks of their comparisons. */
static bool mask_def_ok(struct sir_function *f, struct sir_instr *in)
{
	struct sir_type t = in->type;

	switch (in->op) {
	case SIR_OP_IEQ: case SIR_OP_INE: case SIR_OP_SLT: case SIR_OP_SLE:
	case SIR_OP_ULT: case SIR_OP_ULE:
		return is_packed_int(src_type(f, in, 0)) &&
		       src_type(f, in, 0).comps == t.comps &&
		       sir_type_eq(src_type(f, in, 1), src_type(f, in, 0));
	case SIR_OP_FEQ: case SIR_OP_FNE: case SIR_OP_FLT: case SIR_OP_FLE:
		return is_packed_half(src_type(f, in, 0)) &&
		       src_type(f, in, 0).comps == t.comps &&
		       sir_type_eq(src_type(f, in, 1), src_type(f, in, 0));
	case SIR_OP_BNOT: case SIR_OP_BAND: case SIR_OP_BOR:
	case SIR_OP_BEQ: case SIR_OP_BNE:
	case SIR_OP_COPY: case SIR_OP_PHI:
		return srcs_are(f, in, t);
	case SIR_OP_CONST: case SIR_OP_UNDEF:
		return true;
	case SIR_OP_SELECT:
		return select_ok(f, in);
	case SIR_OP_SHUFFLE:
		return is_lane_splat(f, in);
	default:
		return false;
	}
}

/* Defines or reads a packed value or mask. */
static bool touches_packed(const struct sir_function *f,
			   const struct sir_instr *in)
{
	if (sirl_is_packed(in->type))
		return true;
	for (uint32_t s = 0; s < in->num_srcs; s++)
		if (sirl_is_packed(src_type(f, in, s)))
			return true;
	return false;
}

static bool instr_ok(struct sir_function *f, struct sir_instr *in)
{
	if (is_packed_int(in->type))
		return int_def_ok(f, in);
	if (is_packed_half(in->type))
		return half_def_ok(f, in);
	if (is_packed_mask(in->type))
		return mask_def_ok(f, in);
	/* The only packed use without a packed result: a store. */
	return in->op == SIR_OP_STORE && in->num_srcs == 2 &&
	       (is_packed_int(src_type(f, in, 1)) ||
		is_packed_half(src_type(f, in, 1))) &&
	       !sirl_is_packed(src_type(f, in, 0)) &&
	       aligned_access(f, in, false);
}

static uint32_t find(uint32_t *parent, uint32_t v)
{
	while (parent[v] != v) {
		parent[v] = parent[parent[v]];
		v = parent[v];
	}
	return v;
}

uint8_t *sirl_packed_webs(struct sir_function *f)
{
	uint32_t n = f->num_values, b, i, v;
	uint32_t *parent = sir_xcalloc(n, sizeof(*parent));
	uint8_t *bad = sir_xcalloc(n, 1), *member = sir_xcalloc(n, 1);
	uint8_t *keep = NULL;
	bool any = false;

	for (v = 0; v < n; v++)
		parent[v] = v;
	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			sir_id u = f->blocks[b].instrs[i];
			struct sir_instr *in = &f->values[u];

			if (!touches_packed(f, in))
				continue;
			member[u] = 1;
			bad[u] = !instr_ok(f, in);
			for (uint32_t s = 0; s < in->num_srcs; s++) {
				sir_id src = in->srcs[s];
				const struct sir_instr *d = &f->values[src];

				if (!sirl_is_packed(d->type) || is_free(d))
					continue;
				/* A source outside blocks that is not free
				 * (a parameter, a sysval): nothing packs it. */
				if (d->block == UINT32_MAX)
					bad[u] = 1;
				parent[find(parent, u)] = find(parent, src);
			}
		}
	}
	for (v = 1; v < n; v++)
		if (member[v] && bad[v])
			bad[find(parent, v)] = 1;
	for (v = 1; v < n; v++) {
		if (!member[v] || bad[find(parent, v)])
			continue;
		if (!keep)
			keep = sir_xcalloc(n, 1);
		keep[v] = 1;
		any = true;
		if (f->values[v].op == SIR_OP_LOAD ||
		    f->values[v].op == SIR_OP_STORE)
			aligned_access(f, &f->values[v], true);
	}
	free(parent);
	free(bad);
	free(member);
	return any ? keep : NULL;
}
