/* SPDX-License-Identifier: MIT */
/*
 * Promotion of private variables to SSA values (Cytron et al.): phis at
 * the iterated dominance frontier of the blocks that store to a variable,
 * then renaming along the dominator tree. A variable qualifies when it is
 * not an array or struct and its address is only loaded from and stored to
 * as a whole element (libclc's -O0 code is full of them).
 */
#include "sir_passes.h"

#include <stdlib.h>

#include "sir_pass_util.h"

/* Variable of a VAR_ADDR of a private variable, or UINT32_MAX. */
static uint32_t addr_var(const struct sir_function *f, sir_id v)
{
	const struct sir_instr *in = &f->values[v];

	if (in->op != SIR_OP_VAR_ADDR || in->aux2 != 0 ||
	    in->aux >= f->num_vars)
		return UINT32_MAX;
	return in->aux;
}

/* Marks which variables can be promoted. */
static bool *find_promotable(struct sir_function *f)
{
	bool *ok = sir_xcalloc(f->num_vars + 1, sizeof(*ok));
	bool *used = sir_xcalloc(f->num_vars + 1, sizeof(*used));
	uint32_t b, i, s, var;

	for (var = 0; var < f->num_vars; var++)
		ok[var] = !f->vars[var].is_array && f->vars[var].elem.comps;
	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[f->blocks[b].instrs[i]];

			for (s = 0; s < in->num_srcs; s++) {
				var = addr_var(f, in->srcs[s]);
				if (var == UINT32_MAX)
					continue;
				used[var] = true;
				if (s == 0 && in->op == SIR_OP_LOAD &&
				    sir_type_eq(in->type, f->vars[var].elem))
					continue;
				if (s == 0 && in->op == SIR_OP_STORE &&
				    sir_type_eq(f->values[in->srcs[1]].type,
						f->vars[var].elem))
					continue;
				ok[var] = false;
			}
		}
	}
	/* Nothing to do for variables no longer accessed. */
	for (var = 0; var < f->num_vars; var++)
		ok[var] &= used[var];
	free(used);
	return ok;
}

/* Dominance frontiers as a per-block list (Cooper-Harvey-Kennedy). */
struct frontier {
	uint32_t *count, *cap, **list;
};

static void df_add(struct frontier *df, uint32_t b, uint32_t x)
{
	uint32_t i;

	for (i = 0; i < df->count[b]; i++)
		if (df->list[b][i] == x)
			return;
	if (df->count[b] == df->cap[b]) {
		df->cap[b] = df->cap[b] ? df->cap[b] * 2 : 4;
		df->list[b] = sir_xrealloc(df->list[b],
					   df->cap[b] * sizeof(uint32_t));
	}
	df->list[b][df->count[b]++] = x;
}

static void df_compute(struct frontier *df, struct sir_function *f,
		       const struct sir_dom *dom)
{
	uint32_t n = f->num_blocks, b, p;

	df->count = sir_xcalloc(n, sizeof(uint32_t));
	df->cap = sir_xcalloc(n, sizeof(uint32_t));
	df->list = sir_xcalloc(n, sizeof(uint32_t *));
	for (b = 0; b < n; b++) {
		struct sir_block *blk = &f->blocks[b];

		if (dom->rpo_index[b] == UINT32_MAX || blk->num_preds < 2)
			continue;
		for (p = 0; p < blk->num_preds; p++) {
			uint32_t r = blk->preds[p];

			if (dom->rpo_index[r] == UINT32_MAX)
				continue;
			while (r != UINT32_MAX && r != dom->idom[b]) {
				df_add(df, r, b);
				r = dom->idom[r];
			}
		}
	}
}

static void df_free(struct frontier *df, uint32_t n)
{
	uint32_t b;

	for (b = 0; b < n; b++)
		free(df->list[b]);
	free(df->count);
	free(df->cap);
	free(df->list);
}

struct renamer {
	struct sir_function *f;
	uint32_t *phi_var;           /* per value: variable of a placed phi */
	sir_id **stack;              /* per variable: current definitions */
	uint32_t *depth, *cap;
	uint32_t *log, log_len, log_cap; /* variables pushed, for undo */
	sir_id *undef;               /* per variable */
	struct sir_repl repl;
	const bool *ok;
};

static void push_def(struct renamer *r, uint32_t var, sir_id v)
{
	if (r->depth[var] == r->cap[var]) {
		r->cap[var] = r->cap[var] ? r->cap[var] * 2 : 8;
		r->stack[var] = sir_xrealloc(r->stack[var],
					     r->cap[var] * sizeof(sir_id));
	}
	r->stack[var][r->depth[var]++] = v;
	if (r->log_len == r->log_cap) {
		r->log_cap = r->log_cap ? r->log_cap * 2 : 64;
		r->log = sir_xrealloc(r->log, r->log_cap * sizeof(uint32_t));
	}
	r->log[r->log_len++] = var;
}

/*
 * May append an UNDEF to f->values, which moves the array: callers must
 * not hold a struct sir_instr pointer across it.
 */
static sir_id current_def(struct renamer *r, uint32_t var)
{
	if (r->depth[var])
		return r->stack[var][r->depth[var] - 1];
	if (!r->undef[var])
		r->undef[var] = sir_value_new(r->f, SIR_OP_UNDEF,
					      r->f->vars[var].elem, NULL, 0);
	return r->undef[var];
}

static void rename_block(struct renamer *r, uint32_t b)
{
	struct sir_function *f = r->f;
	uint32_t i, s, ns, succ[2];

	for (i = 0; i < f->blocks[b].num_instrs; i++) {
		sir_id v = f->blocks[b].instrs[i];
		struct sir_instr *in = &f->values[v];
		uint32_t var;

		if (in->op == SIR_OP_PHI && r->phi_var[v] != UINT32_MAX) {
			push_def(r, r->phi_var[v], v);
			continue;
		}
		for (s = 0; s < in->num_srcs; s++)
			in->srcs[s] = sirp_repl_get(&r->repl, in->srcs[s]);
		if (in->op != SIR_OP_LOAD && in->op != SIR_OP_STORE)
			continue;
		var = addr_var(f, in->srcs[0]);
		if (var == UINT32_MAX || !r->ok[var])
			continue;
		if (in->op == SIR_OP_LOAD) {
			sir_id def = current_def(r, var);

			/* `in` may dangle from here on. */
			sirp_repl_set(&r->repl, v, def);
		} else {
			push_def(r, var, in->srcs[1]);
			in->op = SIR_OP_INVALID;
			in->num_srcs = 0;
			in->block = UINT32_MAX;
		}
	}
	ns = sirp_succs(f, b, succ);
	for (s = 0; s < ns; s++) {
		struct sir_block *sb = &f->blocks[succ[s]];

		for (i = 0; i < sb->num_instrs; i++) {
			sir_id v = sb->instrs[i];
			uint32_t k;

			if (f->values[v].op != SIR_OP_PHI)
				break;
			if (r->phi_var[v] == UINT32_MAX)
				continue;
			/* Indexes, not a pointer: current_def() may move
			 * f->values. */
			for (k = 0; k < f->values[v].num_srcs; k++) {
				if (f->values[v].phi_blocks[k] == b) {
					sir_id def = current_def(
						r, r->phi_var[v]);

					f->values[v].srcs[k] = def;
				}
			}
		}
	}
}

/* Places phis for the promotable variables; returns the per-value map. */
static uint32_t *place_phis(struct sir_function *f, const bool *ok,
			    const struct sir_dom *dom)
{
	struct frontier df;
	uint32_t nb = f->num_blocks, var, b, i, k;
	uint32_t *has_phi = sir_xcalloc(nb, sizeof(uint32_t));
	uint32_t *queued = sir_xcalloc(nb, sizeof(uint32_t));
	uint32_t *work = sir_xcalloc(nb * 2 + 1, sizeof(uint32_t));
	uint32_t *phi_var;
	uint32_t num_phis = 0;
	sir_id *phis = NULL;
	uint32_t *phi_vars = NULL;
	uint32_t *first_def = sir_xcalloc(f->num_vars + 1, sizeof(uint32_t));
	uint32_t *def_block = NULL, *def_next = NULL, num_defs = 0;

	df_compute(&df, f, dom);
	/* The blocks that store to each variable, as linked lists. */
	for (b = 0; b < nb; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[f->blocks[b].instrs[i]];

			var = in->op == SIR_OP_STORE ?
			      addr_var(f, in->srcs[0]) : UINT32_MAX;
			if (var == UINT32_MAX || !ok[var])
				continue;
			def_block = sir_xrealloc(def_block, (num_defs + 1) *
						 sizeof(*def_block));
			def_next = sir_xrealloc(def_next, (num_defs + 1) *
						sizeof(*def_next));
			def_block[num_defs] = b;
			def_next[num_defs] = first_def[var];
			first_def[var] = ++num_defs;
		}
	}
	for (var = 0; var < f->num_vars; var++) {
		uint32_t n = 0, stamp = var + 1, d;

		if (!ok[var])
			continue;
		for (d = first_def[var]; d; d = def_next[d - 1]) {
			b = def_block[d - 1];
			if (queued[b] != stamp) {
				queued[b] = stamp;
				work[n++] = b;
			}
		}
		while (n) {
			b = work[--n];
			for (k = 0; k < df.count[b]; k++) {
				uint32_t d = df.list[b][k];
				struct sir_block *db = &f->blocks[d];
				sir_id phi;

				if (has_phi[d] == stamp)
					continue;
				has_phi[d] = stamp;
				phi = sir_value_new(f, SIR_OP_PHI,
						    f->vars[var].elem, NULL,
						    db->num_preds);
				for (i = 0; i < db->num_preds; i++)
					f->values[phi].phi_blocks[i] =
						db->preds[i];
				sir_block_insert(f, d, 0, phi);
				phis = sir_xrealloc(phis, (num_phis + 1) *
						    sizeof(*phis));
				phi_vars = sir_xrealloc(phi_vars,
							(num_phis + 1) *
							sizeof(*phi_vars));
				phis[num_phis] = phi;
				phi_vars[num_phis++] = var;
				if (queued[d] != stamp) {
					queued[d] = stamp;
					work[n++] = d;
				}
			}
		}
	}
	phi_var = sir_xcalloc(f->num_values, sizeof(uint32_t));
	for (i = 0; i < f->num_values; i++)
		phi_var[i] = UINT32_MAX;
	for (i = 0; i < num_phis; i++)
		phi_var[phis[i]] = phi_vars[i];
	free(phis);
	free(phi_vars);
	free(first_def);
	free(def_block);
	free(def_next);
	free(has_phi);
	free(queued);
	free(work);
	df_free(&df, nb);
	return phi_var;
}

bool sir_mem2reg(struct sir_function *f)
{
	struct renamer r = { 0 };
	struct sir_dom dom;
	uint32_t *stack, *mark, sp = 0, var;
	bool any = false;

	r.ok = find_promotable(f);
	for (var = 0; var < f->num_vars; var++)
		any |= r.ok[var];
	if (!any || !f->num_blocks) {
		free((bool *)r.ok);
		return false;
	}
	sirp_dom_compute(&dom, f);
	r.f = f;
	r.phi_var = place_phis(f, r.ok, &dom);
	r.stack = sir_xcalloc(f->num_vars, sizeof(*r.stack));
	r.depth = sir_xcalloc(f->num_vars, sizeof(*r.depth));
	r.cap = sir_xcalloc(f->num_vars, sizeof(*r.cap));
	r.undef = sir_xcalloc(f->num_vars, sizeof(*r.undef));
	sirp_repl_init(&r.repl, f);

	/* Dominator-tree walk; a block's entry on the stack is b, its exit
	 * b | 1 << 31 with the undo log length saved in mark[b]. */
	stack = sir_xcalloc(2 * f->num_blocks + 1, sizeof(*stack));
	mark = sir_xcalloc(f->num_blocks, sizeof(*mark));
	stack[sp++] = 0;
	while (sp) {
		uint32_t e = stack[--sp], b = e & 0x7fffffffu, i;

		if (e & 0x80000000u) {
			while (r.log_len > mark[b])
				r.depth[r.log[--r.log_len]]--;
			continue;
		}
		mark[b] = r.log_len;
		rename_block(&r, b);
		stack[sp++] = b | 0x80000000u;
		for (i = 0; i < dom.child_count[b]; i++)
			stack[sp++] = dom.child[dom.child_start[b] + i];
	}
	sir_compact_blocks(f);
	sirp_repl_apply(&r.repl, f);

	for (var = 0; var < f->num_vars; var++)
		free(r.stack[var]);
	free(r.stack);
	free(r.depth);
	free(r.cap);
	free(r.undef);
	free(r.log);
	free(r.phi_var);
	free((bool *)r.ok);
	free(stack);
	free(mark);
	sirp_dom_free(&dom);
	return true;
}
