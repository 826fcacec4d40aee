/* SPDX-License-Identifier: MIT */
/*
 * Common subexpression elimination over the dominator tree: a pure value
 * equal to one computed in a dominating position is replaced by it.
 * Constants (which live outside blocks) merge by value. Loads merge only
 * inside one block with no store, atomic, barrier or call between them.
 */
#include "sir_passes.h"

#include <stdlib.h>
#include <string.h>

#include "sir_pass_util.h"

struct cse_table {
	uint32_t cap;                /* power of two */
	sir_id *slot;
	uint32_t *memgen;            /* per value: memory epoch of a load */
	struct sir_function *f;
	struct sir_dom *dom;
};

static bool is_commutative(enum sir_op op)
{
	switch (op) {
	case SIR_OP_IADD: case SIR_OP_IMUL: case SIR_OP_UMULHI:
	case SIR_OP_SMULHI: case SIR_OP_AND: case SIR_OP_OR: case SIR_OP_XOR:
	case SIR_OP_SMIN: case SIR_OP_SMAX: case SIR_OP_UMIN: case SIR_OP_UMAX:
	case SIR_OP_UADD_SAT: case SIR_OP_SADD_SAT:
	case SIR_OP_FADD: case SIR_OP_FMUL:
	case SIR_OP_IEQ: case SIR_OP_INE: case SIR_OP_FEQ: case SIR_OP_FNE:
	case SIR_OP_FUNORD: case SIR_OP_BAND: case SIR_OP_BOR:
	case SIR_OP_BEQ: case SIR_OP_BNE:
		return true;
	default:
		return false;
	}
}

static bool has_imm(enum sir_op op)
{
	return op == SIR_OP_CONST || op == SIR_OP_SHUFFLE;
}

static uint32_t mix(uint32_t h, uint32_t v)
{
	return (h ^ v) * 16777619u;
}

static uint32_t cse_hash(const struct cse_table *t, sir_id v)
{
	const struct sir_instr *in = &t->f->values[v];
	uint32_t h = 2166136261u, s, i;

	h = mix(h, in->op);
	h = mix(h, (uint32_t)in->type.kind << 24 | (uint32_t)in->type.bits << 16 |
		   (uint32_t)in->type.comps << 8 | in->type.space);
	h = mix(h, in->aux);
	h = mix(h, in->aux2);
	if (is_commutative(in->op) && in->num_srcs == 2) {
		h = mix(h, in->srcs[0] ^ in->srcs[1]);
		h = mix(h, in->srcs[0] + in->srcs[1]);
	} else {
		for (s = 0; s < in->num_srcs; s++)
			h = mix(h, in->srcs[s]);
	}
	if (has_imm(in->op))
		for (i = 0; i < in->type.comps && i < 16; i++)
			h = mix(mix(h, (uint32_t)in->imm.u64[i]),
				(uint32_t)(in->imm.u64[i] >> 32));
	if (in->op == SIR_OP_LOAD)
		h = mix(h, t->memgen[v]);
	return h;
}

static bool cse_equal(const struct cse_table *t, sir_id a, sir_id b)
{
	const struct sir_instr *x = &t->f->values[a], *y = &t->f->values[b];
	uint32_t s;

	if (x->op != y->op || !sir_type_eq(x->type, y->type) ||
	    x->type.space != y->type.space || x->aux != y->aux ||
	    x->aux2 != y->aux2 || x->num_srcs != y->num_srcs)
		return false;
	if (has_imm(x->op) &&
	    memcmp(x->imm.u64, y->imm.u64, x->type.comps * sizeof(uint64_t)))
		return false;
	if (x->op == SIR_OP_LOAD &&
	    (t->memgen[a] != t->memgen[b] || x->block != y->block))
		return false;
	if (is_commutative(x->op) && x->num_srcs == 2 &&
	    x->srcs[0] == y->srcs[1] && x->srcs[1] == y->srcs[0])
		return true;
	for (s = 0; s < x->num_srcs; s++)
		if (x->srcs[s] != y->srcs[s])
			return false;
	return true;
}

/* The value equal to v that dominates it, or v itself after recording it. */
static sir_id cse_lookup(struct cse_table *t, sir_id v)
{
	uint32_t i = cse_hash(t, v) & (t->cap - 1);

	while (t->slot[i]) {
		sir_id e = t->slot[i];

		if (cse_equal(t, e, v)) {
			uint32_t be = t->f->values[e].block;
			uint32_t bv = t->f->values[v].block;

			if (be == UINT32_MAX || be == bv ||
			    sirp_dominates(t->dom, be, bv))
				return e;
			t->slot[i] = v;  /* the newer one covers this subtree */
			return v;
		}
		i = (i + 1) & (t->cap - 1);
	}
	t->slot[i] = v;
	return v;
}

static bool cse_candidate(enum sir_op op)
{
	return (sirp_is_pure(op) && op != SIR_OP_COPY) || op == SIR_OP_LOAD;
}

bool sir_cse(struct sir_function *f)
{
	struct cse_table t;
	struct sir_dom dom;
	struct sir_repl repl;
	uint32_t *stack, sp = 0, gen = 0, v, i, s;

	sirp_dom_compute(&dom, f);
	sirp_repl_init(&repl, f);
	t.f = f;
	t.dom = &dom;
	for (t.cap = 64; t.cap < 2 * f->num_values; t.cap *= 2)
		;
	t.slot = sir_xcalloc(t.cap, sizeof(*t.slot));
	t.memgen = sir_xcalloc(f->num_values, sizeof(*t.memgen));
	/* Constants first: they dominate everything. */
	for (v = 1; v < f->num_values; v++) {
		struct sir_instr *in = &f->values[v];

		if (in->op == SIR_OP_CONST && in->block == UINT32_MAX) {
			sir_id e = cse_lookup(&t, v);

			if (e != v)
				sirp_repl_set(&repl, v, e);
		}
	}
	/* Blocks in dominator-tree preorder. */
	stack = sir_xcalloc(f->num_blocks + 1, sizeof(*stack));
	if (dom.num_rpo)
		stack[sp++] = 0;
	while (sp) {
		uint32_t b = stack[--sp];

		for (i = 0; i < dom.child_count[b]; i++)
			stack[sp++] = dom.child[dom.child_start[b] + i];
		gen++;
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			sir_id x = f->blocks[b].instrs[i], e;
			struct sir_instr *in = &f->values[x];

			for (s = 0; s < in->num_srcs; s++)
				in->srcs[s] = sirp_repl_get(&repl, in->srcs[s]);
			if (sirp_has_side_effects(in->op))
				gen++;
			if (!cse_candidate(in->op))
				continue;
			t.memgen[x] = gen;
			e = cse_lookup(&t, x);
			if (e != x)
				sirp_repl_set(&repl, x, e);
		}
	}
	free(stack);
	free(t.slot);
	free(t.memgen);
	sirp_dom_free(&dom);
	return sirp_repl_apply(&repl, f);
}
