/* SPDX-License-Identifier: MIT */
/*
 * ByVal parameters: clang passes a struct or union argument as the address
 * of the caller's aggregate and gives the callee its own copy (LLVM's byval,
 * SPIR-V's FuncParamAttr ByVal); the caller makes none, and our inliner
 * substitutes the address as it is. So after a body is read, each ByVal
 * parameter it could see changed becomes a private variable filled from the
 * caller's bytes at entry: one written through, passed anywhere but to
 * another ByVal parameter, or alive while the function writes private
 * memory it cannot tell apart from the caller's. One only read from keeps
 * reading the caller's bytes (for a kernel, its argument image: see
 * sir_lower_abi).
 */
#include "spirv_internal.h"

#include <stdlib.h>

#define SPV_MAX_BYVAL_COPY 4096u

/* What a private address is known to point into. */
enum spv_root {
	SPV_ROOT_OTHER,              /* unknown: maybe the caller's data */
	SPV_ROOT_LOCAL,              /* a variable of this function */
	SPV_ROOT_PARAM,              /* + i: ByVal parameter i */
};

bool spv_byval_param(const struct spv_conv *c, uint32_t func, uint32_t i)
{
	return func < c->num_byval && i < 64 && (c->byval[func] >> i & 1);
}

bool spv_byval_mark(struct spv_conv *c, uint32_t func, uint32_t i)
{
	if (i >= 64)
		return true;         /* unmarked: callers copy for it */
	if (func >= c->num_byval) {
		uint32_t n = func + 16;
		uint64_t *q = realloc(c->byval, n * sizeof(*q));

		if (!q)
			return spv_error(c, "out of memory");
		for (uint32_t k = c->num_byval; k < n; k++)
			q[k] = 0;
		c->byval = q;
		c->num_byval = n;
	}
	c->byval[func] |= 1ull << i;
	return true;
}

/*
 * Per value: SPV_ROOT_* of the address it holds, through PTR_ADDs from
 * this function's variables and the ByVal parameters (is_byval[i]).
 */
static uint32_t *spv_roots(struct sir_function *f, const bool *is_byval)
{
	uint32_t *root = calloc(f->num_values, sizeof(*root));
	bool changed = true;

	if (!root)
		return NULL;
	for (uint32_t v = 1; v < f->num_values; v++) {
		const struct sir_instr *in = &f->values[v];

		if (in->op == SIR_OP_VAR_ADDR && in->aux2 == 0)
			root[v] = SPV_ROOT_LOCAL;
		else if (in->op == SIR_OP_PARAM && in->aux < f->num_params &&
			 is_byval[in->aux])
			root[v] = SPV_ROOT_PARAM + in->aux;
	}
	/* Blocks are in SPIR-V order, not dominance order: to a fixpoint. */
	while (changed) {
		changed = false;
		for (uint32_t b = 0; b < f->num_blocks; b++) {
			for (uint32_t i = 0; i < f->blocks[b].num_instrs; i++) {
				sir_id v = f->blocks[b].instrs[i];
				const struct sir_instr *in = &f->values[v];

				if (in->op != SIR_OP_PTR_ADD || root[v] ||
				    !root[in->srcs[0]])
					continue;
				root[v] = root[in->srcs[0]];
				changed = true;
			}
		}
	}
	return root;
}

/* Whether operand s of in may be written through (or kept for that). */
static bool spv_writes_through(const struct spv_conv *c,
			       const struct sir_instr *in, uint32_t s)
{
	switch (in->op) {
	case SIR_OP_LOAD:
		return false;
	case SIR_OP_PTR_ADD:
		return s != 0;       /* s == 0: a new address, checked itself */
	case SIR_OP_CALL:
		/* The callee copies a ByVal parameter it could change. */
		return !spv_byval_param(c, in->aux, s);
	default:
		return true;
	}
}

/*
 * The private copy of ByVal parameter param (of SPIR-V pointer type
 * type_id, Alignment align): a variable written at entry, which every use
 * of the parameter uses instead.
 */
static bool spv_byval_copy(struct spv_fn *fc, sir_id param, uint32_t type_id,
			   uint32_t align)
{
	const struct spv_type *pt = spv_type_of_id(fc->m, type_id);
	const struct spv_type *t = pt && pt->kind == SPV_T_PTR ?
				   spv_type_of_id(fc->m, pt->elem) : NULL;
	struct sir_type ptr = fc->f->values[param].type;
	struct sir_local_var var = { 0 };
	uint32_t chunk, off;
	sir_id addr;

	if (!t || !t->size)
		return spv_error(fc->c, "function %s: a ByVal parameter of "
				 "no sized type", fc->f->name);
	/* The copy is unrolled, as OpCopyMemory's. */
	if (t->size > SPV_MAX_BYVAL_COPY)
		return spv_error(fc->c, "function %s: a %u-byte parameter "
				 "passed by value and changed (at most %u)",
				 fc->f->name, t->size, SPV_MAX_BYVAL_COPY);
	if (t->align > align)
		align = t->align;
	var.size = t->size;
	var.align = align;
	var.is_array = true;
	chunk = align >= 16 && t->size % 16 == 0 ? 16 :
		align >= 4 && t->size % 4 == 0 ? 4 :
		align >= 2 && t->size % 2 == 0 ? 2 : 1;
	var.elem = sir_type_make(SIR_INT, chunk == 2 ? 16 : chunk == 1 ? 8 :
				 32, chunk / 4 ? chunk / 4 : 1);
	addr = sir_value_new(fc->f, SIR_OP_VAR_ADDR, ptr, NULL, 0);
	fc->f->values[addr].aux = sir_var_add(fc->f, &var);
	sir_replace_uses(fc->f, param, addr);
	for (off = 0; off < t->size; off += chunk) {
		sir_id o = spv_splat(fc, sir_type_make(SIR_INT, 32, 1), off);
		sir_id s = param, d = addr, v, st;

		if (off) {
			s = spv_prelude(fc, SIR_OP_PTR_ADD, ptr,
					(sir_id[]){ param, o }, 2);
			d = spv_prelude(fc, SIR_OP_PTR_ADD, ptr,
					(sir_id[]){ addr, o }, 2);
		}
		v = spv_prelude(fc, SIR_OP_LOAD, var.elem, &s, 1);
		fc->f->values[v].aux = chunk;
		st = spv_prelude(fc, SIR_OP_STORE, sir_type_make(SIR_VOID, 0, 0),
				 (sir_id[]){ d, v }, 2);
		fc->f->values[st].aux = chunk;
	}
	return true;
}

bool spv_byval_copies(struct spv_fn *fc, const struct spv_function *fn)
{
	const struct spv_module *m = fc->m;
	struct sir_function *f = fc->f;
	uint32_t n = f->num_params, at, i = 0, *ids, *root;
	bool *is_byval, *used, *written, foreign = false, any = false, ok;

	ids = calloc(n + 1, sizeof(*ids));
	is_byval = calloc(n + 1, sizeof(*is_byval));
	used = calloc(n + 1, sizeof(*used));
	written = calloc(n + 1, sizeof(*written));
	if (!ids || !is_byval || !used || !written) {
		ok = spv_error(fc->c, "out of memory");
		goto out;
	}
	for (at = fn->begin; at < fn->end && i < n;
	     at += m->words[at] >> 16) {
		uint32_t id;

		if ((m->words[at] & 0xffff) != SpvOpFunctionParameter)
			continue;
		id = m->words[at + 2];
		ids[i] = id;
		is_byval[i] = (m->ids[id].param_attrs &
			       (1u << SpvFunctionParameterAttributeByVal)) &&
			      f->params[i].type.kind == SIR_PTR &&
			      f->params[i].type.space == SIR_SPACE_PRIVATE;
		any |= is_byval[i++];
	}
	ok = true;
	if (!any)
		goto out;
	root = spv_roots(f, is_byval);
	if (!root) {
		ok = spv_error(fc->c, "out of memory");
		goto out;
	}
	for (uint32_t b = 0; b < f->num_blocks; b++) {
		for (uint32_t k = 0; k < f->blocks[b].num_instrs; k++) {
			const struct sir_instr *in =
				&f->values[f->blocks[b].instrs[k]];

			for (uint32_t s = 0; s < in->num_srcs; s++) {
				sir_id x = in->srcs[s];
				struct sir_type t = f->values[x].type;
				bool w = spv_writes_through(fc->c, in, s);

				if (root[x] >= SPV_ROOT_PARAM) {
					used[root[x] - SPV_ROOT_PARAM] = true;
					written[root[x] - SPV_ROOT_PARAM] |= w;
				} else if (root[x] == SPV_ROOT_OTHER && w &&
					   t.kind == SIR_PTR &&
					   t.space == SIR_SPACE_PRIVATE) {
					foreign = true;
				}
			}
		}
	}
	free(root);
	for (i = 0; i < n && ok; i++) {
		sir_id v;

		if (!is_byval[i] || !(written[i] || (foreign && used[i])))
			continue;
		for (v = 1; v < f->num_values; v++)
			if (f->values[v].op == SIR_OP_PARAM &&
			    f->values[v].aux == i)
				break;
		if (v < f->num_values)
			ok = spv_byval_copy(fc, v, m->ids[ids[i]].type,
					    m->ids[ids[i]].align);
	}
out:
	free(ids);
	free(is_byval);
	free(used);
	free(written);
	return ok;
}
