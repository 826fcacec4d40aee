/* SPDX-License-Identifier: MIT */
/*
 * Shared pass helpers: op effects, block surgery and the
 * in-place instruction builder (see sir_pass_util.h).
 */
#include "sir_pass_util.h"

#include <stdlib.h>
#include <string.h>

bool sirp_has_side_effects(enum sir_op op)
{
	switch (op) {
	case SIR_OP_STORE:
	case SIR_OP_ATOMIC:
	case SIR_OP_BARRIER:
	case SIR_OP_PRINTF:
	case SIR_OP_IMAGE_STORE:
	case SIR_OP_CALL:
	case SIR_OP_BR:
	case SIR_OP_CBR:
	case SIR_OP_RET:
		return true;
	default:
		return false;
	}
}

bool sirp_is_pure(enum sir_op op)
{
	switch (op) {
	case SIR_OP_INVALID:
	case SIR_OP_PHI:
	case SIR_OP_LOAD:
	case SIR_OP_PARAM:
	case SIR_OP_UNDEF:
		return false;
	default:
		return !sirp_has_side_effects(op);
	}
}

struct sir_instr *sirp_terminator(struct sir_function *f, uint32_t b)
{
	struct sir_block *blk = &f->blocks[b];
	struct sir_instr *t;

	if (!blk->num_instrs)
		return NULL;
	t = &f->values[blk->instrs[blk->num_instrs - 1]];
	return sirp_is_terminator(t->op) ? t : NULL;
}

unsigned int sirp_succs(struct sir_function *f, uint32_t b, uint32_t out[2])
{
	struct sir_instr *t = sirp_terminator(f, b);

	if (!t)
		return 0;
	if (t->op == SIR_OP_BR) {
		out[0] = t->targets[0];
		return 1;
	}
	if (t->op == SIR_OP_CBR) {
		out[0] = t->targets[0];
		out[1] = t->targets[1];
		return t->targets[0] == t->targets[1] ? 1 : 2;
	}
	return 0;
}

void sirp_rename_phi_pred(struct sir_function *f, uint32_t b, uint32_t from,
			  uint32_t to)
{
	struct sir_block *blk = &f->blocks[b];
	uint32_t i, s;

	for (i = 0; i < blk->num_instrs; i++) {
		struct sir_instr *in = &f->values[blk->instrs[i]];

		if (in->op != SIR_OP_PHI)
			break;
		for (s = 0; s < in->num_srcs; s++)
			if (in->phi_blocks[s] == from)
				in->phi_blocks[s] = to;
	}
}

uint32_t sirp_split_block(struct sir_function *f, uint32_t b, uint32_t pos)
{
	uint32_t nb = sir_block_add(f);
	struct sir_block *old = &f->blocks[b], *nw = &f->blocks[nb];
	uint32_t succ[2], n, i, moved;

	n = sirp_succs(f, b, succ);
	moved = pos < old->num_instrs ? old->num_instrs - pos : 0;
	/* One copy of the tail, not an insertion per instruction. */
	nw->cap_instrs = moved;
	nw->instrs = sir_xrealloc(NULL, (moved + 1) * sizeof(*nw->instrs));
	if (moved)
		memcpy(nw->instrs, old->instrs + pos,
		       moved * sizeof(*nw->instrs));
	nw->num_instrs = moved;
	for (i = 0; i < moved; i++)
		f->values[nw->instrs[i]].block = nb;
	old->num_instrs -= moved;
	for (i = 0; i < n; i++)
		sirp_rename_phi_pred(f, succ[i], b, nb);
	return nb;
}

uint32_t sirp_position(struct sir_function *f, sir_id v)
{
	uint32_t b = f->values[v].block, i;

	if (b >= f->num_blocks)
		return UINT32_MAX;
	for (i = 0; i < f->blocks[b].num_instrs; i++)
		if (f->blocks[b].instrs[i] == v)
			return i;
	return UINT32_MAX;
}

sir_id sirp_op(struct sir_builder *b, enum sir_op op, struct sir_type type,
	       const sir_id *srcs, uint32_t num_srcs, uint32_t aux)
{
	sir_id v = sir_value_new(b->f, op, type, srcs, num_srcs);

	b->f->values[v].aux = aux;
	sir_block_insert(b->f, b->block, b->pos++, v);
	return v;
}

sir_id sirp_op1(struct sir_builder *b, enum sir_op op, struct sir_type type,
		sir_id a)
{
	return sirp_op(b, op, type, &a, 1, 0);
}

sir_id sirp_op2(struct sir_builder *b, enum sir_op op, struct sir_type type,
		sir_id a, sir_id c)
{
	sir_id s[2] = { a, c };

	return sirp_op(b, op, type, s, 2, 0);
}

sir_id sirp_op3(struct sir_builder *b, enum sir_op op, struct sir_type type,
		sir_id a, sir_id c, sir_id d)
{
	sir_id s[3] = { a, c, d };

	return sirp_op(b, op, type, s, 3, 0);
}

sir_id sirp_const(struct sir_builder *b, struct sir_type type, uint64_t v)
{
	return sir_const_u64(b->f, type, v);
}

void sirp_br(struct sir_builder *b, uint32_t target)
{
	sir_id v = sirp_op(b, SIR_OP_BR, sir_type_make(SIR_VOID, 0, 0), NULL,
			   0, 0);

	b->f->values[v].targets[0] = target;
}

void sirp_cbr(struct sir_builder *b, sir_id cond, uint32_t t, uint32_t e)
{
	sir_id v = sirp_op(b, SIR_OP_CBR, sir_type_make(SIR_VOID, 0, 0), &cond,
			   1, 0);

	b->f->values[v].targets[0] = t;
	b->f->values[v].targets[1] = e;
}

sir_id sirp_phi(struct sir_function *f, uint32_t block, struct sir_type t,
		const sir_id *srcs, const uint32_t *preds, uint32_t n)
{
	sir_id v = sir_value_new(f, SIR_OP_PHI, t, srcs, n);

	if (n)
		memcpy(f->values[v].phi_blocks, preds, n * sizeof(*preds));
	sir_block_insert(f, block, 0, v);
	return v;
}

void sirp_repl_init(struct sir_repl *r, const struct sir_function *f)
{
	r->size = f->num_values;
	r->map = sir_xcalloc(r->size, sizeof(*r->map));
}

void sirp_repl_set(struct sir_repl *r, sir_id from, sir_id to)
{
	if (from >= r->size) {
		uint32_t n = from + 1 + r->size;

		r->map = sir_xrealloc(r->map, n * sizeof(*r->map));
		memset(r->map + r->size, 0, (n - r->size) * sizeof(*r->map));
		r->size = n;
	}
	r->map[from] = to;
}

bool sirp_repl_apply(struct sir_repl *r, struct sir_function *f)
{
	bool any = false;
	uint32_t v, s;

	for (v = 1; v < f->num_values; v++) {
		struct sir_instr *in = &f->values[v];

		if (in->op == SIR_OP_INVALID)
			continue;
		if (v < r->size && r->map[v]) {
			any = true;
			in->op = SIR_OP_INVALID;
			in->num_srcs = 0;
			continue;
		}
		for (s = 0; s < in->num_srcs; s++)
			in->srcs[s] = sirp_repl_get(r, in->srcs[s]);
	}
	if (any) {
		sir_compact_blocks(f);
		for (v = 1; v < f->num_values && v < r->size; v++)
			if (r->map[v])
				f->values[v].block = UINT32_MAX;
	}
	free(r->map);
	r->map = NULL;
	r->size = 0;
	return any;
}
