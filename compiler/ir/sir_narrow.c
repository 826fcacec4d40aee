/* SPDX-License-Identifier: MIT */
/*
 * Vector narrowing: work done on lanes nobody reads is removed, and work
 * done on a splat is done once.
 *
 * The reader builds get_global_id(0) as lane 0 of a three-lane add of the
 * ids and the global offset, and clang builds scalar * vector by
 * splatting the scalar through an insert and a shuffle. On Midgard each
 * extra lane costs uniform words and register space, and every work-item
 * pays for it, so:
 *
 *  - extract(op(a, b), k), op component-wise and read by nothing else,
 *    becomes op(extract(a, k), extract(b, k));
 *  - extract of a vector uniform reads the lane's word alone (lane x of
 *    a sysval from uniforms, the one-lane sysval); extract of a shuffle
 *    or of a vec built from vectors reads the source lane; sysvals and
 *    uniforms left unread are deleted, so they get no argument words;
 *  - a shuffle whose lanes all come from one scalar x (through inserts
 *    and vecs) becomes shuffle(x, x, 0 0 ...), a swizzle of x;
 *  - a component-wise op whose operands are all such splats or splat
 *    constants is computed on one lane and splatted.
 */
#include "sir_passes.h"

#include <stdlib.h>

#include "sir_pass_util.h"

/* Ops that compute lane i of the result from lane i of each operand. */
static bool is_lanewise(enum sir_op op)
{
	return (op >= SIR_OP_IADD && op <= SIR_OP_FCOPYSIGN) ||
	       (op >= SIR_OP_IEQ && op <= SIR_OP_BNE) ||
	       (op >= SIR_OP_SEXT && op <= SIR_OP_FCONV) ||
	       op == SIR_OP_SELECT;
}

/* Operands are per lane or scalar (SELECT's condition may be scalar). */
static bool operands_fit(const struct sir_function *f,
			 const struct sir_instr *in)
{
	uint32_t s;

	for (s = 0; s < in->num_srcs; s++) {
		unsigned int c = f->values[in->srcs[s]].type.comps;

		if (c != in->type.comps && c != 1)
			return false;
	}
	return in->num_srcs > 0 && in->num_srcs <= 3;
}

/* Lane k of value v as a scalar, built at the cursor. */
static sir_id lane_of(struct sir_builder *b, sir_id v, unsigned int k)
{
	struct sir_type t = b->f->values[v].type;

	if (t.comps == 1)
		return v;
	return sirp_op(b, SIR_OP_EXTRACT, sirp_type_comps(t, 1), &v, 1, k);
}

/* extract(op(...), k) → op(extract(...), ...) at position pos. */
static sir_id narrow_lanewise(struct sir_function *f, uint32_t block,
			      uint32_t pos, sir_id x)
{
	struct sir_builder b = sirp_builder_at(f, block, pos);
	sir_id op = f->values[x].srcs[0], srcs[3];
	unsigned int k = f->values[x].aux;
	struct sir_instr in = f->values[op];
	uint32_t s;

	for (s = 0; s < in.num_srcs; s++)
		srcs[s] = lane_of(&b, in.srcs[s], k);
	return sirp_op(&b, (enum sir_op)in.op, sirp_type_comps(in.type, 1),
		       srcs, in.num_srcs, in.aux);
}

/*
 * Retargets extract x to the lane its source copies, or returns a new
 * value for it (a scalar uniform). False/SIR_NONE when nothing applies.
 */
static sir_id narrow_plumbing(struct sir_function *f, sir_id x,
			      bool *changed)
{
	struct sir_instr *in = &f->values[x];
	sir_id src = in->srcs[0];
	const struct sir_instr *a = &f->values[src];
	unsigned int k = in->aux, base = 0;
	uint32_t i;

	switch (a->op) {
	case SIR_OP_SYSVAL:
		/*
		 * Lane x of a sysval read from uniforms is the one-lane
		 * sysval, so the ABI allocates only its word. The ids come
		 * from the hardware whole.
		 */
		if (k != 0 || a->type.comps == 1 ||
		    a->aux == SIR_SYSVAL_GLOBAL_ID ||
		    a->aux == SIR_SYSVAL_LOCAL_ID ||
		    a->aux == SIR_SYSVAL_GROUP_ID) {
			return SIR_NONE;
		} else {
			sir_id x1 = sir_value_new(f, SIR_OP_SYSVAL,
						  f->values[x].type, NULL, 0);

			f->values[x1].aux = f->values[src].aux;
			return x1;
		}
	case SIR_OP_UNIFORM:
		/* 32-bit lanes only: the back end reads whole words. */
		if (a->type.bits != 32 || a->type.kind == SIR_BOOL) {
			return SIR_NONE;
		} else {
			sir_id u = sir_value_new(f, SIR_OP_UNIFORM,
						 f->values[x].type, NULL, 0);

			f->values[u].aux = f->values[src].aux + 4 * k;
			return u;
		}
	case SIR_OP_SHUFFLE: {
		uint64_t sel = a->imm.u64[k];
		unsigned int n0 = f->values[a->srcs[0]].type.comps;
		sir_id src = sel < n0 ? a->srcs[0] : a->srcs[1];

		if (sel >= n0 + f->values[a->srcs[1]].type.comps)
			return SIR_NONE;
		in->srcs[0] = src;
		in->aux = (uint32_t)(sel < n0 ? sel : sel - n0);
		*changed = true;
		return SIR_NONE;
	}
	case SIR_OP_VEC:
		for (i = 0; i < a->num_srcs; i++) {
			unsigned int c = f->values[a->srcs[i]].type.comps;

			if (k < base + c) {
				if (c == 1)
					return a->srcs[i];
				in->srcs[0] = a->srcs[i];
				in->aux = k - base;
				*changed = true;
				return SIR_NONE;
			}
			base += c;
		}
		return SIR_NONE;
	default:
		return SIR_NONE;
	}
}

/*
 * The scalar every lane of vector v copies (through inserts, vecs and
 * shuffles), or SIR_NONE. Depth-bounded: chains are short in practice.
 */
static sir_id lane_source(const struct sir_function *f, sir_id v,
			  unsigned int k, unsigned int depth)
{
	const struct sir_instr *in = &f->values[v];
	unsigned int base = 0;
	uint32_t i;

	if (depth > 8 || k >= in->type.comps)
		return SIR_NONE;
	if (in->type.comps == 1)
		return k == 0 ? v : SIR_NONE;
	switch (in->op) {
	case SIR_OP_INSERT:
		if (in->aux == k)
			return lane_source(f, in->srcs[1], 0, depth + 1);
		return lane_source(f, in->srcs[0], k, depth + 1);
	case SIR_OP_VEC:
		for (i = 0; i < in->num_srcs; i++) {
			unsigned int c = f->values[in->srcs[i]].type.comps;

			if (k < base + c)
				return lane_source(f, in->srcs[i], k - base,
						   depth + 1);
			base += c;
		}
		return SIR_NONE;
	case SIR_OP_SHUFFLE: {
		uint64_t sel = in->imm.u64[k];
		unsigned int n0 = f->values[in->srcs[0]].type.comps;

		if (sel < n0)
			return lane_source(f, in->srcs[0], (unsigned int)sel,
					   depth + 1);
		return lane_source(f, in->srcs[1], (unsigned int)(sel - n0),
				   depth + 1);
	}
	default:
		return SIR_NONE;
	}
}

/* The scalar x when vector v is x in every lane, else SIR_NONE. */
static sir_id splat_source(const struct sir_function *f, sir_id v)
{
	const struct sir_instr *in = &f->values[v];
	sir_id x;
	unsigned int k;

	if (in->type.comps < 2 || in->op == SIR_OP_CONST)
		return SIR_NONE;
	x = lane_source(f, v, 0, 0);
	for (k = 1; x && k < in->type.comps; k++)
		if (lane_source(f, v, k, 0) != x)
			return SIR_NONE;
	return x;
}

/* A shuffle of scalar x into n lanes: a swizzle for the back end. */
static bool is_swizzle_splat(const struct sir_function *f, sir_id v)
{
	const struct sir_instr *in = &f->values[v];
	unsigned int k;

	if (in->op != SIR_OP_SHUFFLE || in->srcs[0] != in->srcs[1] ||
	    f->values[in->srcs[0]].type.comps != 1)
		return false;
	for (k = 0; k < in->type.comps; k++)
		if (in->imm.u64[k] != 0)
			return false;
	return true;
}

static sir_id build_splat(struct sir_builder *b, struct sir_type t, sir_id x)
{
	sir_id srcs[2] = { x, x };
	sir_id s = sirp_op(b, SIR_OP_SHUFFLE, t, srcs, 2, 0);
	unsigned int k;

	for (k = 0; k < t.comps; k++)
		b->f->values[s].imm.u64[k] = 0;
	return s;
}

/* Constant c's lane 0 as a scalar constant when all lanes are equal. */
static sir_id const_splat_lane(struct sir_function *f, sir_id c)
{
	const struct sir_instr *in = &f->values[c];
	unsigned int k;

	for (k = 1; k < in->type.comps; k++)
		if (in->imm.u64[k] != in->imm.u64[0])
			return SIR_NONE;
	return sir_const_u64(f, sirp_type_comps(in->type, 1),
			     in->imm.u64[0]);
}

/* op(splat(x), splat(c)...) → splat(op(x, c)) at position pos. */
static sir_id narrow_splat_op(struct sir_function *f, uint32_t block,
			      uint32_t pos, sir_id v)
{
	struct sir_instr in = f->values[v];
	struct sir_builder b;
	sir_id srcs[3], r;
	bool any_var = false;
	uint32_t s;

	for (s = 0; s < in.num_srcs; s++) {
		sir_id src = in.srcs[s];

		if (f->values[src].type.comps == 1) {
			srcs[s] = src;
		} else if (f->values[src].op == SIR_OP_CONST) {
			srcs[s] = const_splat_lane(f, src);
		} else {
			srcs[s] = splat_source(f, src);
			any_var = true;
		}
		if (!srcs[s])
			return SIR_NONE;
	}
	if (!any_var)
		return SIR_NONE;
	b = sirp_builder_at(f, block, pos);
	r = sirp_op(&b, (enum sir_op)in.op, sirp_type_comps(in.type, 1),
		    srcs, in.num_srcs, in.aux);
	return build_splat(&b, in.type, r);
}

/*
 * Sysvals and uniforms nobody reads (a vector one replaced by its lanes)
 * are deleted, or sir_lower_abi would still give them argument words.
 * Nothing this pass builds reads a value that had no reader before.
 */
static bool drop_unread_inputs(struct sir_function *f, const uint32_t *uses,
			       uint32_t n)
{
	bool changed = false;
	uint32_t v;

	for (v = 1; v < n; v++) {
		enum sir_op op = (enum sir_op)f->values[v].op;

		if (!uses[v] && (op == SIR_OP_SYSVAL || op == SIR_OP_UNIFORM)) {
			sir_remove(f, v);
			changed = true;
		}
	}
	return changed;
}

bool sir_narrow_vectors(struct sir_function *f)
{
	uint32_t *uses = sir_use_counts(f), n = f->num_values;
	struct sir_repl repl;
	bool changed = false;
	uint32_t b, i;

	sirp_repl_init(&repl, f);
	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			sir_id v = f->blocks[b].instrs[i], r = SIR_NONE, x;
			struct sir_instr *in = &f->values[v];
			uint32_t s;

			for (s = 0; s < in->num_srcs; s++)
				in->srcs[s] = sirp_repl_get(&repl, in->srcs[s]);
			if (in->op == SIR_OP_EXTRACT) {
				sir_id src = in->srcs[0];
				const struct sir_instr *a = &f->values[src];

				/*
				 * Same block: never move work into a loop.
				 * Values made this walk have no count yet.
				 */
				if (src < n && uses[src] == 1 &&
				    a->block == b && is_lanewise(a->op) &&
				    a->type.comps > 1 && operands_fit(f, a))
					r = narrow_lanewise(f, b, i, v);
				else
					r = narrow_plumbing(f, v, &changed);
			} else if (in->op == SIR_OP_SHUFFLE &&
				   !is_swizzle_splat(f, v)) {
				x = splat_source(f, v);
				if (x) {
					struct sir_builder bd =
						sirp_builder_at(f, b, i);

					r = build_splat(&bd, in->type, x);
				}
			} else if (is_lanewise(in->op) && in->type.comps > 1 &&
				   operands_fit(f, in)) {
				r = narrow_splat_op(f, b, i, v);
			}
			if (!r)
				continue;
			/* Skip what was built before v; v is now later. */
			i = sirp_position(f, v);
			sirp_repl_set(&repl, v, r);
			changed = true;
		}
	}
	changed |= sirp_repl_apply(&repl, f);
	changed |= drop_unread_inputs(f, uses, n);
	free(uses);
	return changed;
}
