/* SPDX-License-Identifier: MIT */
/*
 * CFG simplification: branches on constants become jumps, unreachable
 * blocks go, a block that only jumps on is bypassed, and a block with one
 * successor whose only predecessor it is absorbs that successor. Phis are
 * kept in step with every edge change; blocks are renumbered at the end.
 */
#include "sir_passes.h"

#include <stdlib.h>
#include <string.h>

#include "sir_pass_util.h"

/* Drops the phi entries of block b that come from pred. */
static void drop_phi_entries(struct sir_function *f, uint32_t b,
			     uint32_t pred)
{
	struct sir_block *blk = &f->blocks[b];
	uint32_t i, s, n;

	for (i = 0; i < blk->num_instrs; i++) {
		struct sir_instr *in = &f->values[blk->instrs[i]];

		if (in->op != SIR_OP_PHI)
			break;
		for (s = n = 0; s < in->num_srcs; s++) {
			if (in->phi_blocks[s] == pred)
				continue;
			in->srcs[n] = in->srcs[s];
			in->phi_blocks[n++] = in->phi_blocks[s];
		}
		in->num_srcs = n;
	}
}

static bool has_phis(struct sir_function *f, uint32_t b)
{
	return f->blocks[b].num_instrs &&
	       f->values[f->blocks[b].instrs[0]].op == SIR_OP_PHI;
}

static void make_br(struct sir_instr *t, uint32_t target)
{
	t->op = SIR_OP_BR;
	t->num_srcs = 0;
	t->targets[0] = target;
	t->targets[1] = 0;
}

/* CBR on a constant, or to one block twice, becomes BR. */
static bool fold_branches(struct sir_function *f)
{
	bool changed = false;
	uint32_t b;

	for (b = 0; b < f->num_blocks; b++) {
		struct sir_instr *t = sirp_terminator(f, b);
		const struct sir_instr *c;

		if (!t || t->op != SIR_OP_CBR)
			continue;
		if (t->targets[0] == t->targets[1]) {
			make_br(t, t->targets[0]);
			changed = true;
			continue;
		}
		c = &f->values[t->srcs[0]];
		if (c->op != SIR_OP_CONST)
			continue;
		{
			uint32_t taken = c->imm.u64[0] ? t->targets[0] :
					 t->targets[1];
			uint32_t other = c->imm.u64[0] ? t->targets[1] :
					 t->targets[0];

			drop_phi_entries(f, other, b);
			make_br(t, taken);
			changed = true;
		}
	}
	return changed;
}

/* Deletes the blocks marked dead and renumbers the rest. */
static void delete_blocks(struct sir_function *f, const bool *dead)
{
	uint32_t *remap = sir_xcalloc(f->num_blocks, sizeof(*remap));
	uint32_t b, n = 0, i, v, s;

	for (b = 0; b < f->num_blocks; b++) {
		remap[b] = dead[b] ? UINT32_MAX : n++;
		if (!dead[b])
			continue;
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			struct sir_instr *in =
				&f->values[f->blocks[b].instrs[i]];

			in->op = SIR_OP_INVALID;
			in->num_srcs = 0;
			in->block = UINT32_MAX;
		}
	}
	for (v = 1; v < f->num_values; v++) {
		struct sir_instr *in = &f->values[v];

		if (in->op == SIR_OP_INVALID || in->block == UINT32_MAX)
			continue;
		in->block = remap[in->block];
		if (in->op == SIR_OP_BR || in->op == SIR_OP_CBR) {
			in->targets[0] = remap[in->targets[0]];
			if (in->op == SIR_OP_CBR)
				in->targets[1] = remap[in->targets[1]];
		}
		if (in->op == SIR_OP_PHI)
			for (s = 0; s < in->num_srcs; s++)
				in->phi_blocks[s] = remap[in->phi_blocks[s]];
	}
	for (b = 0, n = 0; b < f->num_blocks; b++) {
		if (dead[b]) {
			free(f->blocks[b].instrs);
			free(f->blocks[b].preds);
			continue;
		}
		f->blocks[n++] = f->blocks[b];
	}
	memset(&f->blocks[n], 0, (f->num_blocks - n) * sizeof(*f->blocks));
	f->num_blocks = n;
	free(remap);
}

static bool remove_unreachable(struct sir_function *f)
{
	struct sir_dom dom;
	bool *dead = sir_xcalloc(f->num_blocks, sizeof(*dead));
	bool any = false;
	uint32_t b, i;

	sirp_dom_compute(&dom, f);
	for (b = 0; b < f->num_blocks; b++) {
		dead[b] = dom.rpo_index[b] == UINT32_MAX;
		any |= dead[b];
	}
	if (any) {
		/* Phis of live blocks forget edges from dead ones. */
		for (b = 0; b < f->num_blocks; b++) {
			uint32_t succ[2], ns;

			if (!dead[b])
				continue;
			ns = sirp_succs(f, b, succ);
			for (i = 0; i < ns; i++)
				if (!dead[succ[i]])
					drop_phi_entries(f, succ[i], b);
		}
		delete_blocks(f, dead);
	}
	free(dead);
	sirp_dom_free(&dom);
	return any;
}

/*
 * Single-entry phis of block b go: their uses will read the source (the
 * map is applied once per merge_pairs, not a whole-function rewrite per
 * phi).
 */
static void resolve_single_phis(struct sir_function *f, uint32_t b,
				struct sir_repl *repl)
{
	struct sir_block *blk = &f->blocks[b];
	uint32_t n = 0;

	while (n < blk->num_instrs &&
	       f->values[blk->instrs[n]].op == SIR_OP_PHI) {
		sir_id phi = blk->instrs[n++];

		sirp_repl_set(repl, phi, f->values[phi].srcs[0]);
		f->values[phi].block = UINT32_MAX;
	}
	memmove(blk->instrs, blk->instrs + n,
		(blk->num_instrs - n) * sizeof(*blk->instrs));
	blk->num_instrs -= n;
}

/*
 * Block s's predecessor `from` became `to` (UINT32_MAX: gone), keeping
 * the list as sir_compute_preds() makes it: ascending, each block once.
 */
static void replace_pred(struct sir_function *f, uint32_t s, uint32_t from,
			 uint32_t to)
{
	struct sir_block *blk = &f->blocks[s];
	uint32_t i, n = 0;
	bool have = false;

	for (i = 0; i < blk->num_preds; i++) {
		uint32_t p = blk->preds[i];

		if (p == from)
			continue;
		have |= p == to;
		blk->preds[n++] = p;
	}
	blk->num_preds = n;
	if (to == UINT32_MAX || have)
		return;
	if (blk->num_preds == blk->cap_preds) {
		blk->cap_preds = blk->cap_preds ? 2 * blk->cap_preds : 4;
		blk->preds = sir_xrealloc(blk->preds, blk->cap_preds *
					  sizeof(*blk->preds));
	}
	for (i = blk->num_preds; i > 0 && blk->preds[i - 1] > to; i--)
		blk->preds[i] = blk->preds[i - 1];
	blk->preds[i] = to;
	blk->num_preds++;
}

/*
 * Block a ends in BR to b, b's only predecessor: b moves into a. The
 * predecessor lists are kept up to date edge by edge (recomputing them
 * per merge made a chain of merges quadratic).
 */
static bool merge_pairs(struct sir_function *f, bool *dead)
{
	bool changed = false;
	struct sir_repl repl;
	uint32_t a;

	sir_compute_preds(f);
	sirp_repl_init(&repl, f);
	for (a = 0; a < f->num_blocks; a++) {
		struct sir_instr *t;
		uint32_t b, succ[2], ns, i;

		while (!dead[a] && (t = sirp_terminator(f, a)) &&
		       t->op == SIR_OP_BR) {
			b = t->targets[0];
			if (b == a || b == 0 || dead[b] ||
			    f->blocks[b].num_preds != 1)
				break;
			resolve_single_phis(f, b, &repl);
			/* a's terminator, its last instruction, goes. */
			t->op = SIR_OP_INVALID;
			t->num_srcs = 0;
			t->block = UINT32_MAX;
			f->blocks[a].num_instrs--;
			ns = sirp_succs(f, b, succ);
			for (i = 0; i < ns; i++) {
				sirp_rename_phi_pred(f, succ[i], b, a);
				replace_pred(f, succ[i], b, a);
			}
			for (i = 0; i < f->blocks[b].num_instrs; i++)
				sir_block_insert(f, a, f->blocks[a].num_instrs,
						 f->blocks[b].instrs[i]);
			f->blocks[b].num_instrs = 0;
			f->blocks[b].num_preds = 0;
			dead[b] = true;
			changed = true;
		}
	}
	sirp_repl_apply(&repl, f);
	return changed;
}

/* Is pred already an edge into s? */
static bool is_pred(struct sir_function *f, uint32_t s, uint32_t pred)
{
	uint32_t i;

	for (i = 0; i < f->blocks[s].num_preds; i++)
		if (f->blocks[s].preds[i] == pred)
			return true;
	return false;
}

/* A block holding only "br s" is bypassed where phis allow it. */
static bool bypass_forwarders(struct sir_function *f, bool *dead)
{
	bool changed = false;
	uint32_t e, i;

	sir_compute_preds(f);
	for (e = 1; e < f->num_blocks; e++) {
		struct sir_instr *t = sirp_terminator(f, e);
		uint32_t s, np = f->blocks[e].num_preds;

		if (dead[e] || !t || t->op != SIR_OP_BR ||
		    f->blocks[e].num_instrs != 1)
			continue;
		s = t->targets[0];
		if (s == e || !np)
			continue;
		if (has_phis(f, s) &&
		    (np != 1 || is_pred(f, s, f->blocks[e].preds[0])))
			continue;
		for (i = 0; i < np; i++) {
			uint32_t p = f->blocks[e].preds[i];
			struct sir_instr *pt = sirp_terminator(f, p);

			if (pt->targets[0] == e)
				pt->targets[0] = s;
			if (pt->op == SIR_OP_CBR && pt->targets[1] == e)
				pt->targets[1] = s;
		}
		if (np == 1)
			sirp_rename_phi_pred(f, s, e, f->blocks[e].preds[0]);
		/* The edges e's predecessors had into e now go to s. */
		replace_pred(f, s, e, UINT32_MAX);
		for (i = 0; i < np; i++)
			replace_pred(f, s, UINT32_MAX, f->blocks[e].preds[i]);
		f->blocks[e].num_preds = 0;
		sir_remove(f, f->blocks[e].instrs[0]);
		dead[e] = true;
		changed = true;
	}
	return changed;
}

bool sir_simplify_cfg(struct sir_function *f)
{
	bool any = false, changed = true;

	while (changed) {
		bool *dead;

		changed = fold_branches(f);
		changed |= remove_unreachable(f);
		dead = sir_xcalloc(f->num_blocks, sizeof(*dead));
		changed |= merge_pairs(f, dead);
		changed |= bypass_forwarders(f, dead);
		if (changed)
			delete_blocks(f, dead);
		free(dead);
		any |= changed;
	}
	return any;
}
