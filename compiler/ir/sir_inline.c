/* SPDX-License-Identifier: MIT */
/*
 * Inlining of every call into the kernels, then removal of every function
 * that is not a kernel. A call splits its block; the callee's blocks and
 * values are copied in between, its parameters replaced by the arguments,
 * its private variables appended to the caller's, and its returns become
 * jumps to the split-off rest (with a phi for the returned value).
 */
#include "sir_passes.h"

#include <stdlib.h>
#include <string.h>

#include "sir_pass_util.h"

enum { WHITE, GREY, BLACK };

/* Depth-first walk of the call graph; false with a message on a cycle. */
static bool check_recursion(struct sir_module *m, uint32_t fi, uint8_t *color,
			    char *err, size_t errsz)
{
	struct sir_function *f = m->functions[fi];
	uint32_t b, i;

	color[fi] = GREY;
	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[f->blocks[b].instrs[i]];

			if (in->op != SIR_OP_CALL)
				continue;
			if (in->aux >= m->num_functions) {
				snprintf(err, errsz,
					 "call to a missing function in %s",
					 f->name);
				return false;
			}
			if (color[in->aux] == GREY) {
				snprintf(err, errsz, "recursive call to %s",
					 m->functions[in->aux]->name);
				return false;
			}
			if (color[in->aux] == WHITE &&
			    !check_recursion(m, in->aux, color, err, errsz))
				return false;
		}
	}
	color[fi] = BLACK;
	return true;
}

struct inliner {
	struct sir_function *f, *g;  /* caller, callee */
	sir_id call;
	sir_id *vmap;                /* callee value -> caller value */
	uint32_t *bmap;              /* callee block -> caller block */
	uint32_t var_base;
	uint32_t rest;               /* block after the call */
};

static sir_id map_value(struct inliner *in, sir_id v)
{
	return v < in->g->num_values ? in->vmap[v] : SIR_NONE;
}

/* Creates the caller-side copy of every callee value (operands later). */
static void clone_values(struct inliner *il)
{
	struct sir_function *f = il->f, *g = il->g;
	const struct sir_instr *call = &f->values[il->call];
	uint32_t v;

	for (v = 1; v < g->num_values; v++) {
		const struct sir_instr *src = &g->values[v];
		sir_id c;

		if (src->op == SIR_OP_INVALID)
			continue;
		if (src->op == SIR_OP_PARAM) {
			il->vmap[v] = src->aux < call->num_srcs ?
				      call->srcs[src->aux] : SIR_NONE;
			continue;
		}
		c = sir_value_new(f, (enum sir_op)src->op, src->type, NULL,
				  src->num_srcs);
		call = &f->values[il->call];
		f->values[c].aux = src->aux;
		f->values[c].aux2 = src->aux2;
		f->values[c].imm = src->imm;
		if (src->op == SIR_OP_VAR_ADDR && src->aux2 == 0)
			f->values[c].aux += il->var_base;
		il->vmap[v] = c;
	}
}

/* Fills operands, places the copies and turns returns into jumps. */
static void place_values(struct inliner *il, sir_id *ret_vals,
			 uint32_t *ret_blocks, uint32_t *num_rets)
{
	struct sir_function *f = il->f, *g = il->g;
	uint32_t b, i, s;

	for (b = 0; b < g->num_blocks; b++) {
		for (i = 0; i < g->blocks[b].num_instrs; i++) {
			sir_id v = g->blocks[b].instrs[i];
			const struct sir_instr *src = &g->values[v];
			sir_id c = il->vmap[v];
			struct sir_instr *dst = &f->values[c];

			for (s = 0; s < src->num_srcs; s++)
				dst->srcs[s] = map_value(il, src->srcs[s]);
			if (src->op == SIR_OP_PHI)
				for (s = 0; s < src->num_srcs; s++)
					dst->phi_blocks[s] =
						il->bmap[src->phi_blocks[s]];
			if (src->op == SIR_OP_BR || src->op == SIR_OP_CBR) {
				dst->targets[0] = il->bmap[src->targets[0]];
				dst->targets[1] = src->op == SIR_OP_CBR ?
					il->bmap[src->targets[1]] : 0;
			}
			if (src->op == SIR_OP_RET) {
				ret_vals[*num_rets] = src->num_srcs ?
						      dst->srcs[0] : SIR_NONE;
				ret_blocks[(*num_rets)++] = il->bmap[b];
				dst->op = SIR_OP_BR;
				dst->num_srcs = 0;
				dst->targets[0] = il->rest;
			}
			sir_block_insert(f, il->bmap[b],
					 f->blocks[il->bmap[b]].num_instrs, c);
		}
	}
	/* Operands of values outside blocks (none have any today). */
	for (i = 1; i < g->num_values; i++) {
		const struct sir_instr *src = &g->values[i];

		if (src->op == SIR_OP_INVALID || src->op == SIR_OP_PARAM ||
		    src->block != UINT32_MAX)
			continue;
		for (s = 0; s < src->num_srcs; s++)
			f->values[il->vmap[i]].srcs[s] =
				map_value(il, src->srcs[s]);
	}
}

/*
 * Inlines call, instruction pos of block blk. Uses of its result are
 * replaced through repl, which the caller applies once for the function
 * (a whole-function rewrite per call made inlining quadratic).
 */
static bool inline_call(struct sir_module *m, struct sir_function *f,
			sir_id call, uint32_t blk, uint32_t pos,
			struct sir_repl *repl, char *err, size_t errsz)
{
	struct inliner il;
	struct sir_function *g = m->functions[f->values[call].aux];
	uint32_t i, num_rets = 0, n;
	sir_id *ret_vals, result = SIR_NONE;
	uint32_t *ret_blocks;

	if (f->values[call].num_srcs != g->num_params || !g->num_blocks) {
		snprintf(err, errsz, "bad call to %s in %s", g->name, f->name);
		return false;
	}
	il.f = f;
	il.g = g;
	il.call = call;
	il.var_base = f->num_vars;
	for (i = 0; i < g->num_vars; i++)
		sir_var_add(f, &g->vars[i]);
	il.rest = sirp_split_block(f, blk, pos + 1);
	f->blocks[blk].num_instrs--;     /* the call itself */
	il.bmap = sir_xcalloc(g->num_blocks, sizeof(*il.bmap));
	for (i = 0; i < g->num_blocks; i++)
		il.bmap[i] = sir_block_add(f);
	il.vmap = sir_xcalloc(g->num_values, sizeof(*il.vmap));
	clone_values(&il);
	n = g->num_values;
	ret_vals = sir_xcalloc(n, sizeof(*ret_vals));
	ret_blocks = sir_xcalloc(n, sizeof(*ret_blocks));
	place_values(&il, ret_vals, ret_blocks, &num_rets);
	{
		struct sir_builder b = sirp_builder_at(f, blk,
						       f->blocks[blk].num_instrs);

		sirp_br(&b, il.bmap[0]);
	}
	if (g->ret.kind != SIR_VOID) {
		if (num_rets == 1)
			result = ret_vals[0];
		else if (num_rets > 1)
			result = sirp_phi(f, il.rest, g->ret, ret_vals,
					  ret_blocks, num_rets);
		else
			result = sir_value_new(f, SIR_OP_UNDEF, g->ret, NULL, 0);
		sirp_repl_set(repl, call, result);
	}
	f->values[call].op = SIR_OP_INVALID;
	f->values[call].num_srcs = 0;
	f->values[call].block = UINT32_MAX;
	free(ret_vals);
	free(ret_blocks);
	free(il.bmap);
	free(il.vmap);
	return true;
}

/*
 * The first call in f at or after block *b, instruction *i (in block
 * order), or SIR_NONE; *b and *i are left at it. Inlining a call leaves
 * no call before it and only appends blocks, so the search for the next
 * one resumes there instead of at the entry.
 */
static sir_id find_call(struct sir_function *f, uint32_t *b, uint32_t *i)
{
	for (; *b < f->num_blocks; (*b)++, *i = 0)
		for (; *i < f->blocks[*b].num_instrs; (*i)++)
			if (f->values[f->blocks[*b].instrs[*i]].op ==
			    SIR_OP_CALL)
				return f->blocks[*b].instrs[*i];
	return SIR_NONE;
}

bool sir_inline_all(struct sir_module *m, char *err, size_t errsz)
{
	uint8_t *color = sir_xcalloc(m->num_functions, 1);
	uint32_t i;
	bool *drop;
	sir_id call;

	for (i = 0; i < m->num_functions; i++) {
		if (color[i] == WHITE &&
		    !check_recursion(m, i, color, err, errsz)) {
			free(color);
			return false;
		}
	}
	free(color);
	for (i = 0; i < m->num_functions; i++) {
		struct sir_function *f = m->functions[i];
		struct sir_repl repl;
		uint32_t b = 0, pos = 0;

		if (!f->is_kernel)
			continue;
		sirp_repl_init(&repl, f);
		while ((call = find_call(f, &b, &pos))) {
			if (!inline_call(m, f, call, b, pos, &repl, err,
					 errsz)) {
				sirp_repl_apply(&repl, f);
				return false;
			}
		}
		sirp_repl_apply(&repl, f);
	}
	drop = sir_xcalloc(m->num_functions + 1, sizeof(*drop));
	for (i = 0; i < m->num_functions; i++)
		drop[i] = !m->functions[i]->is_kernel;
	sir_functions_remove(m, drop);
	free(drop);
	return true;
}
