/* SPDX-License-Identifier: MIT */
/*
 * Constant folding (through sir_eval.c, so the result is what the op means
 * on any correct implementation; native_* ops are left to the hardware)
 * and algebraic identities that hold bit for bit.
 */
#include "sir_passes.h"

#include <string.h>

#include "sir_eval.h"
#include "sir_pass_util.h"

static bool is_const(const struct sir_function *f, sir_id v)
{
	return f->values[v].op == SIR_OP_CONST;
}

/* True when v is a constant whose every lane is c (masked to the lane). */
static bool is_splat(const struct sir_function *f, sir_id v, uint64_t c)
{
	const struct sir_instr *in = &f->values[v];
	unsigned int i;

	if (in->op != SIR_OP_CONST)
		return false;
	c &= sirp_lane_mask(in->type);
	for (i = 0; i < in->type.comps; i++)
		if (in->imm.u64[i] != c)
			return false;
	return true;
}

static bool is_float_splat(const struct sir_function *f, sir_id v,
			   double d)
{
	struct sir_type t = f->values[v].type;
	uint64_t bits;

	if (t.kind != SIR_FLOAT)
		return false;
	if (t.bits == 32) {
		float fl = (float)d;
		uint32_t u;

		memcpy(&u, &fl, 4);
		bits = u;
	} else if (t.bits == 16) {
		bits = sir_double_to_half(d);
	} else {
		memcpy(&bits, &d, 8);
	}
	return is_splat(f, v, bits);
}

static sir_id fold_const(struct sir_function *f, sir_id v)
{
	const uint64_t *lanes[3] = { NULL, NULL, NULL };
	uint64_t out[16];
	struct sir_instr *in = &f->values[v];
	sir_id c;
	unsigned int s;

	if (!in->num_srcs || (in->num_srcs > 3 && in->op != SIR_OP_VEC))
		return SIR_NONE;
	if (in->op == SIR_OP_VEC) {
		/* Gather into one constant by hand: VEC takes any count. */
		unsigned int n = 0, k;

		for (s = 0; s < in->num_srcs; s++)
			if (!is_const(f, in->srcs[s]))
				return SIR_NONE;
		c = sir_value_new(f, SIR_OP_CONST, f->values[v].type, NULL, 0);
		in = &f->values[v];
		for (s = 0; s < in->num_srcs; s++) {
			const struct sir_instr *src = &f->values[in->srcs[s]];

			for (k = 0; k < src->type.comps && n < 16; k++)
				f->values[c].imm.u64[n++] = src->imm.u64[k];
		}
		return c;
	}
	for (s = 0; s < in->num_srcs; s++) {
		if (!is_const(f, in->srcs[s]))
			return SIR_NONE;
		lanes[s] = f->values[in->srcs[s]].imm.u64;
	}
	if (!sir_eval_instr(f, in, lanes, out, SIR_EVAL_FOLD))
		return SIR_NONE;
	c = sir_value_new(f, SIR_OP_CONST, f->values[v].type, NULL, 0);
	memcpy(f->values[c].imm.u64, out, sizeof(out));
	return c;
}

/* A constant of in's type: every lane c. */
static sir_id const_like(struct sir_function *f, sir_id v, uint64_t c)
{
	return sir_const_u64(f, f->values[v].type, c);
}

static sir_id fold_int_identity(struct sir_function *f, sir_id v)
{
	struct sir_instr *in = &f->values[v];
	sir_id a = in->srcs[0], b = in->num_srcs > 1 ? in->srcs[1] : 0;

	switch (in->op) {
	case SIR_OP_IADD:
	case SIR_OP_OR:
	case SIR_OP_XOR:
		if (is_splat(f, b, 0))
			return a;
		if (is_splat(f, a, 0))
			return b;
		if (in->op == SIR_OP_XOR && a == b)
			return const_like(f, v, 0);
		if (in->op == SIR_OP_OR && is_splat(f, b, ~0ull))
			return b;
		if (in->op == SIR_OP_OR && a == b)
			return a;
		break;
	case SIR_OP_ISUB:
		if (is_splat(f, b, 0))
			return a;
		if (a == b)
			return const_like(f, v, 0);
		break;
	case SIR_OP_IMUL:
		if (is_splat(f, b, 1))
			return a;
		if (is_splat(f, a, 1))
			return b;
		if (is_splat(f, b, 0))
			return b;
		if (is_splat(f, a, 0))
			return a;
		break;
	case SIR_OP_AND:
		if (is_splat(f, b, 0) || is_splat(f, a, ~0ull))
			return b;
		if (is_splat(f, a, 0) || is_splat(f, b, ~0ull) || a == b)
			return a;
		break;
	case SIR_OP_SHL:
	case SIR_OP_LSHR:
	case SIR_OP_ASHR:
		if (is_splat(f, b, 0))
			return a;
		break;
	case SIR_OP_UDIV:
	case SIR_OP_SDIV:
		if (is_splat(f, b, 1))
			return a;
		break;
	case SIR_OP_UREM:
	case SIR_OP_SREM:
	case SIR_OP_SMOD:
		if (is_splat(f, b, 1))
			return const_like(f, v, 0);
		break;
	case SIR_OP_SMIN: case SIR_OP_SMAX:
	case SIR_OP_UMIN: case SIR_OP_UMAX:
		if (a == b)
			return a;
		break;
	case SIR_OP_NOT:
	case SIR_OP_INEG:
		if (f->values[a].op == in->op)
			return f->values[a].srcs[0];
		break;
	default:
		break;
	}
	return SIR_NONE;
}

/*
 * Unsigned division and remainder by a power of two are a shift and a
 * mask: Midgard has no divider, and the general lowering (a reciprocal
 * and corrections) costs a dozen instructions. Rewrites v in place.
 */
static bool fold_pow2_udiv(struct sir_function *f, sir_id v)
{
	struct sir_instr *in = &f->values[v];
	const struct sir_instr *d;
	uint64_t c;
	unsigned int sh = 0;
	sir_id k;

	if (in->op != SIR_OP_UDIV && in->op != SIR_OP_UREM)
		return false;
	d = &f->values[in->srcs[1]];
	if (d->op != SIR_OP_CONST)
		return false;
	c = d->imm.u64[0] & sirp_lane_mask(d->type);
	if (!c || (c & (c - 1)) || !is_splat(f, in->srcs[1], c))
		return false;
	while ((1ull << sh) != c)
		sh++;
	k = const_like(f, v, in->op == SIR_OP_UDIV ? sh : c - 1);
	in = &f->values[v];
	in->op = in->op == SIR_OP_UDIV ? SIR_OP_LSHR : SIR_OP_AND;
	in->srcs[1] = k;
	return true;
}

static sir_id fold_bool_identity(struct sir_function *f, sir_id v)
{
	struct sir_instr *in = &f->values[v];
	sir_id a = in->srcs[0], b = in->num_srcs > 1 ? in->srcs[1] : 0;

	switch (in->op) {
	case SIR_OP_BNOT:
		if (f->values[a].op == SIR_OP_BNOT)
			return f->values[a].srcs[0];
		break;
	case SIR_OP_BAND:
		if (is_splat(f, b, 1) || a == b)
			return a;
		if (is_splat(f, a, 1))
			return b;
		if (is_splat(f, a, 0))
			return a;
		if (is_splat(f, b, 0))
			return b;
		break;
	case SIR_OP_BOR:
		if (is_splat(f, b, 0) || a == b)
			return a;
		if (is_splat(f, a, 0))
			return b;
		if (is_splat(f, a, 1))
			return a;
		if (is_splat(f, b, 1))
			return b;
		break;
	default:
		break;
	}
	return SIR_NONE;
}

static sir_id fold_float_identity(struct sir_function *f, sir_id v)
{
	struct sir_instr *in = &f->values[v];
	sir_id a = in->srcs[0], b = in->num_srcs > 1 ? in->srcs[1] : 0;

	switch (in->op) {
	case SIR_OP_FMUL:
		if (is_float_splat(f, b, 1.0))
			return a;
		if (is_float_splat(f, a, 1.0))
			return b;
		break;
	case SIR_OP_FADD:            /* x + -0 is x, even for x = +0 */
		if (is_float_splat(f, b, -0.0))
			return a;
		if (is_float_splat(f, a, -0.0))
			return b;
		break;
	case SIR_OP_FSUB:            /* x - +0 is x */
		if (is_float_splat(f, b, 0.0))
			return a;
		break;
	case SIR_OP_FNEG:
		if (f->values[a].op == SIR_OP_FNEG)
			return f->values[a].srcs[0];
		break;
	default:
		break;
	}
	return SIR_NONE;
}

/* Vector plumbing: select, extract of vec/insert, shuffles, bitcasts. */
/*
 * A chain of inserts that writes every lane becomes one VEC of the last
 * value written to each lane. Unrolled loops that update v.x, v.y, ...
 * give such chains; the vectors in between then die, and the back end
 * builds the result once instead of copying it at every step.
 */
static bool insert_chain_to_vec(struct sir_function *f, sir_id v)
{
	struct sir_instr *in = &f->values[v];
	unsigned int comps = in->type.comps, found = 0;
	sir_id lane[16] = { 0 };
	const struct sir_instr *link = in;

	if (comps > 16 || f->values[in->srcs[1]].type.comps != 1)
		return false;
	while (link->op == SIR_OP_INSERT && found < comps) {
		if (link->aux < comps && !lane[link->aux]) {
			lane[link->aux] = link->srcs[1];
			found++;
		}
		link = &f->values[link->srcs[0]];
	}
	if (found < comps)
		return false;
	sir_set_srcs(f, v, lane, comps);
	in = &f->values[v];
	in->op = SIR_OP_VEC;
	in->aux = 0;
	return true;
}

/*
 * insert(vec(..., x, ...), y) over a scalar source x becomes the VEC with
 * y in its place: building (v8, v4, v3, s) and then writing one lane
 * again is one VEC.
 */
static bool insert_into_vec(struct sir_function *f, sir_id v)
{
	struct sir_instr *in = &f->values[v];
	const struct sir_instr *a = &f->values[in->srcs[0]];
	sir_id srcs[16];
	unsigned int base = 0, i;

	if (a->op != SIR_OP_VEC || a->num_srcs > 16 ||
	    f->values[in->srcs[1]].type.comps != 1)
		return false;
	for (i = 0; i < a->num_srcs; i++) {
		unsigned int c = f->values[a->srcs[i]].type.comps;

		srcs[i] = a->srcs[i];
		if (base == in->aux && c == 1)
			srcs[i] = in->srcs[1];
		else if (base <= in->aux && in->aux < base + c)
			return false;
		base += c;
	}
	sir_set_srcs(f, v, srcs, a->num_srcs);
	in = &f->values[v];
	in->op = SIR_OP_VEC;
	in->aux = 0;
	return true;
}

static sir_id fold_plumbing(struct sir_function *f, sir_id v, bool *changed)
{
	struct sir_instr *in = &f->values[v];
	struct sir_instr *a = &f->values[in->srcs[0]];
	unsigned int i;

	switch (in->op) {
	case SIR_OP_SELECT:
		if (in->srcs[1] == in->srcs[2])
			return in->srcs[1];
		if (is_splat(f, in->srcs[0], 1))
			return in->srcs[1];
		if (is_splat(f, in->srcs[0], 0))
			return in->srcs[2];
		break;
	case SIR_OP_EXTRACT:
		if (a->op == SIR_OP_INSERT && a->aux == in->aux)
			return a->srcs[1];
		if (a->op == SIR_OP_INSERT) {
			in->srcs[0] = a->srcs[0];
			*changed = true;
			break;
		}
		if (a->op == SIR_OP_VEC) {
			unsigned int base = 0;

			for (i = 0; i < a->num_srcs; i++) {
				struct sir_type st = f->values[a->srcs[i]].type;

				if (in->aux == base && st.comps == 1)
					return a->srcs[i];
				base += st.comps;
			}
		}
		if (a->type.comps == 1 && in->aux == 0 &&
		    sir_type_eq(a->type, in->type))
			return in->srcs[0];
		break;
	case SIR_OP_VEC:
		/* vec(x[0], x[1], ..., x[n-1]) of an n-lane x is x. */
		for (i = 0; i < in->num_srcs; i++) {
			const struct sir_instr *e = &f->values[in->srcs[i]];

			if (e->op != SIR_OP_EXTRACT || e->aux != i ||
			    e->srcs[0] != a->srcs[0])
				break;
		}
		if (a->op == SIR_OP_EXTRACT && i == in->num_srcs &&
		    sir_type_eq(f->values[a->srcs[0]].type, in->type))
			return a->srcs[0];
		break;
	case SIR_OP_INSERT:
		if (insert_chain_to_vec(f, v) || insert_into_vec(f, v))
			*changed = true;
		break;
	case SIR_OP_SHUFFLE: {
		unsigned int n = a->type.comps;
		bool identity = sir_type_eq(in->type, a->type);

		for (i = 0; i < in->type.comps; i++)
			identity &= in->imm.u64[i] == i;
		if (identity)
			return in->srcs[0];
		/* shuffle(shuffle(x, y), z) reading only the inner lanes. */
		if (a->op == SIR_OP_SHUFFLE && in->srcs[0] == in->srcs[1]) {
			uint64_t sel[16];

			for (i = 0; i < in->type.comps; i++) {
				uint64_t s = in->imm.u64[i];

				s = s < n ? s : s - n;
				if (s >= n)
					return SIR_NONE;
				sel[i] = a->imm.u64[s];
			}
			in->srcs[0] = a->srcs[0];
			in->srcs[1] = a->srcs[1];
			memcpy(in->imm.u64, sel, in->type.comps * sizeof(*sel));
			*changed = true;
		}
		break;
	}
	case SIR_OP_BITCAST:
		if (sir_type_eq(in->type, a->type))
			return in->srcs[0];
		if (a->op == SIR_OP_BITCAST &&
		    sir_type_eq(in->type, f->values[a->srcs[0]].type))
			return a->srcs[0];
		break;
	default:
		break;
	}
	return SIR_NONE;
}

/*
 * The top bit of a lane mask: slt(select(c, -1, 0), 0) is c. OpenCL's
 * vector comparisons give such masks, and any(), all() and select() test
 * their top bits.
 */
static sir_id fold_mask_sign(struct sir_function *f, sir_id v)
{
	const struct sir_instr *in = &f->values[v];
	const struct sir_instr *s = &f->values[in->srcs[0]];

	if (in->op != SIR_OP_SLT || !is_splat(f, in->srcs[1], 0) ||
	    s->op != SIR_OP_SELECT || !is_splat(f, s->srcs[1], ~0ull) ||
	    !is_splat(f, s->srcs[2], 0) ||
	    !sir_type_eq(f->values[s->srcs[0]].type, in->type))
		return SIR_NONE;
	return s->srcs[0];
}

static sir_id fold_one(struct sir_function *f, sir_id v, bool *changed)
{
	struct sir_instr *in = &f->values[v];
	struct sir_type t0;
	sir_id r;

	if (!sirp_is_pure(in->op) || in->op == SIR_OP_CONST ||
	    in->op == SIR_OP_COPY || !in->num_srcs)
		return SIR_NONE;
	r = fold_const(f, v);
	if (r)
		return r;
	in = &f->values[v];
	if (in->op == SIR_OP_SELECT || in->op == SIR_OP_EXTRACT ||
	    in->op == SIR_OP_INSERT || in->op == SIR_OP_VEC ||
	    in->op == SIR_OP_SHUFFLE || in->op == SIR_OP_BITCAST)
		return fold_plumbing(f, v, changed);
	if (in->op == SIR_OP_PTR_ADD && is_splat(f, in->srcs[1], 0))
		return in->srcs[0];
	t0 = f->values[in->srcs[0]].type;
	if (in->op == SIR_OP_SLT)
		return fold_mask_sign(f, v);
	if (t0.kind == SIR_INT && (in->op < SIR_OP_IEQ || in->op > SIR_OP_ULE)) {
		r = fold_int_identity(f, v);
		if (!r && fold_pow2_udiv(f, v))
			*changed = true;
		return r;
	}
	if (t0.kind == SIR_BOOL)
		return fold_bool_identity(f, v);
	if (t0.kind == SIR_FLOAT && in->op < SIR_OP_FEQ)
		return fold_float_identity(f, v);
	return SIR_NONE;
}

bool sir_fold_constants(struct sir_function *f)
{
	struct sir_repl repl;
	bool changed = false;
	uint32_t b, i, s;

	sirp_repl_init(&repl, f);
	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			sir_id v = f->blocks[b].instrs[i], r;
			struct sir_instr *in = &f->values[v];

			for (s = 0; s < in->num_srcs; s++)
				in->srcs[s] = sirp_repl_get(&repl, in->srcs[s]);
			r = fold_one(f, v, &changed);
			if (r && r != v) {
				sirp_repl_set(&repl, v, r);
				changed = true;
			}
		}
	}
	return sirp_repl_apply(&repl, f) || changed;
}
