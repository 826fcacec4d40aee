/* SPDX-License-Identifier: MIT */
/*
 * SIR construction and bookkeeping: modules, functions, blocks, values,
 * constants, use replacement and predecessor lists.
 *
 * Operand lists (srcs, phi_blocks) come from a per-function arena so that
 * passes can drop values without freeing them one by one; everything else
 * is plain malloc. Allocation failure is not recoverable in a compiler
 * (the ICD runs it in-process, but a few KiB failing means the process is
 * done), so it ends the process with a message instead of returning NULL
 * through every builder call.
 */
#include "sir.h"

#include <stdlib.h>
#include <string.h>

#define SIR_ARENA_CHUNK (64u * 1024u)

struct sir_arena_chunk {
	struct sir_arena_chunk *next;
	size_t used, size;
	max_align_t data[];
};

/* The public function plus its hidden arena. */
struct sir_function_impl {
	struct sir_function pub;
	struct sir_arena_chunk *chunks;
};

static void sir_oom(void)
{
	fputs("sleipnir compiler: out of memory\n", stderr);
	exit(EXIT_FAILURE);
}

void *sir_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		sir_oom();
	return q;
}

void *sir_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		sir_oom();
	return p;
}

char *sir_xstrdup(const char *s)
{
	size_t n = strlen(s ? s : "") + 1;
	char *d = sir_xrealloc(NULL, n);

	memcpy(d, s ? s : "", n);
	return d;
}

/* Grows *arr (of elem-size items) so that it holds at least need items. */
static void sir_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t n;

	if (need <= *cap)
		return;
	n = *cap ? *cap : 4;
	while (n < need)
		n *= 2;
	*arr = sir_xrealloc(*arr, (size_t)n * elem);
	memset((char *)*arr + (size_t)*cap * elem, 0,
	       (size_t)(n - *cap) * elem);
	*cap = n;
}

static void *sir_arena_alloc(struct sir_function *f, size_t bytes)
{
	struct sir_function_impl *impl = (struct sir_function_impl *)f;
	struct sir_arena_chunk *c = impl->chunks;
	size_t align = sizeof(max_align_t);
	void *p;

	bytes = (bytes + align - 1) / align * align;
	if (!bytes)
		bytes = align;
	if (!c || c->size - c->used < bytes) {
		size_t size = bytes > SIR_ARENA_CHUNK ? bytes : SIR_ARENA_CHUNK;

		c = sir_xrealloc(NULL, sizeof(*c) + size);
		c->next = impl->chunks;
		c->used = 0;
		c->size = size;
		impl->chunks = c;
	}
	p = (char *)c->data + c->used;
	c->used += bytes;
	memset(p, 0, bytes);
	return p;
}

unsigned int sir_type_size(struct sir_type t)
{
	unsigned int comps = t.comps == 3 ? 4 : t.comps; /* OpenCL vec3 */

	switch (t.kind) {
	case SIR_VOID:
		return 0;
	case SIR_BOOL:
		return 4 * comps;
	case SIR_PTR:
		return 4 * comps;
	default:
		return (t.bits / 8u) * comps;
	}
}

struct sir_module *sir_module_create(void)
{
	return sir_xcalloc(1, sizeof(struct sir_module));
}

static void sir_function_free(struct sir_function *f)
{
	struct sir_function_impl *impl = (struct sir_function_impl *)f;
	struct sir_arena_chunk *c, *next;
	uint32_t i;

	for (c = impl->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	for (i = 0; i < f->num_params; i++) {
		free(f->params[i].name);
		free(f->params[i].type_name);
	}
	free(f->params);
	for (i = 0; i < f->num_blocks; i++) {
		free(f->blocks[i].instrs);
		free(f->blocks[i].preds);
	}
	free(f->blocks);
	free(f->values);
	free(f->vars);
	free(f->name);
	free(impl);
}

void sir_module_destroy(struct sir_module *m)
{
	uint32_t i;

	if (!m)
		return;
	for (i = 0; i < m->num_functions; i++)
		sir_function_free(m->functions[i]);
	free(m->functions);
	for (i = 0; i < m->num_globals; i++) {
		free(m->globals[i].name);
		free(m->globals[i].init);
	}
	free(m->globals);
	free(m);
}

struct sir_function *sir_function_create(struct sir_module *m,
					 const char *name)
{
	struct sir_function_impl *impl = sir_xcalloc(1, sizeof(*impl));
	struct sir_function *f = &impl->pub;

	f->name = sir_xstrdup(name);
	f->ret = sir_type_make(SIR_VOID, 0, 0);
	f->num_values = 1;           /* id 0 is SIR_NONE */
	sir_grow((void **)&f->values, &f->cap_values, 64, sizeof(*f->values));
	f->values[0].block = UINT32_MAX;
	sir_grow((void **)&m->functions, &m->cap_functions,
		 m->num_functions + 1, sizeof(*m->functions));
	m->functions[m->num_functions++] = f;
	return f;
}

void sir_functions_remove(struct sir_module *m, const bool *drop)
{
	uint32_t old_num = m->num_functions, i, v, kept = 0;
	uint32_t *index = sir_xcalloc(old_num + 1, sizeof(*index));

	for (i = 0; i < m->num_functions; i++) {
		if (drop[i]) {
			sir_function_free(m->functions[i]);
			index[i] = UINT32_MAX;
			continue;
		}
		index[i] = kept;
		m->functions[kept++] = m->functions[i];
	}
	m->num_functions = kept;
	/*
	 * Calls name callees by index: keep them pointing at the same ones,
	 * in one pass over the code (a pass per removed function made
	 * removing a program's helpers after inlining them quadratic).
	 */
	for (i = 0; i < m->num_functions; i++) {
		struct sir_function *f = m->functions[i];

		for (v = 1; v < f->num_values; v++) {
			struct sir_instr *in = &f->values[v];

			if (in->op == SIR_OP_CALL && in->aux < old_num)
				in->aux = index[in->aux];
		}
	}
	free(index);
}

uint32_t sir_global_add(struct sir_module *m, const struct sir_global *g)
{
	struct sir_global *d;

	sir_grow((void **)&m->globals, &m->cap_globals, m->num_globals + 1,
		 sizeof(*m->globals));
	d = &m->globals[m->num_globals];
	*d = *g;
	d->name = sir_xstrdup(g->name);
	d->init = NULL;
	if (g->init) {
		d->init = sir_xrealloc(NULL, g->size);
		memcpy(d->init, g->init, g->size);
	}
	return m->num_globals++;
}

uint32_t sir_block_add(struct sir_function *f)
{
	sir_grow((void **)&f->blocks, &f->cap_blocks, f->num_blocks + 1,
		 sizeof(*f->blocks));
	memset(&f->blocks[f->num_blocks], 0, sizeof(*f->blocks));
	return f->num_blocks++;
}

uint32_t sir_var_add(struct sir_function *f, const struct sir_local_var *v)
{
	sir_grow((void **)&f->vars, &f->cap_vars, f->num_vars + 1,
		 sizeof(*f->vars));
	f->vars[f->num_vars] = *v;
	return f->num_vars++;
}

sir_id sir_value_new(struct sir_function *f, enum sir_op op,
		     struct sir_type type, const sir_id *srcs,
		     uint32_t num_srcs)
{
	struct sir_instr *in;
	sir_id id;

	sir_grow((void **)&f->values, &f->cap_values, f->num_values + 1,
		 sizeof(*f->values));
	id = f->num_values++;
	in = &f->values[id];
	memset(in, 0, sizeof(*in));
	in->op = (uint16_t)op;
	in->type = type;
	in->block = UINT32_MAX;
	in->num_srcs = num_srcs;
	if (num_srcs) {
		in->srcs = sir_arena_alloc(f, num_srcs * sizeof(sir_id));
		if (srcs)
			memcpy(in->srcs, srcs, num_srcs * sizeof(sir_id));
	}
	if (op == SIR_OP_PHI && num_srcs)
		in->phi_blocks = sir_arena_alloc(f, num_srcs * sizeof(uint32_t));
	return id;
}

void sir_block_insert(struct sir_function *f, uint32_t b, uint32_t pos,
		      sir_id v)
{
	struct sir_block *blk = &f->blocks[b];

	if (pos > blk->num_instrs)
		pos = blk->num_instrs;
	sir_grow((void **)&blk->instrs, &blk->cap_instrs, blk->num_instrs + 1,
		 sizeof(*blk->instrs));
	memmove(&blk->instrs[pos + 1], &blk->instrs[pos],
		(blk->num_instrs - pos) * sizeof(*blk->instrs));
	blk->instrs[pos] = v;
	blk->num_instrs++;
	f->values[v].block = b;
}

sir_id sir_emit(struct sir_function *f, uint32_t b, enum sir_op op,
		struct sir_type type, const sir_id *srcs, uint32_t num_srcs)
{
	sir_id v = sir_value_new(f, op, type, srcs, num_srcs);

	sir_block_insert(f, b, f->blocks[b].num_instrs, v);
	return v;
}

/* The bit pattern of double d in a lane of type t. */
static uint64_t sir_lane_bits(struct sir_type t, double d)
{
	if (t.kind == SIR_FLOAT) {
		if (t.bits == 64) {
			uint64_t u;

			memcpy(&u, &d, 8);
			return u;
		}
		if (t.bits == 32) {
			float fl = (float)d;
			uint32_t u;

			memcpy(&u, &fl, 4);
			return u;
		}
		if (t.bits == 16) {
			float fl = (float)d;
			uint32_t u, sign, mant;
			int exp;

			memcpy(&u, &fl, 4);
			sign = (u >> 16) & 0x8000u;
			exp = (int)((u >> 23) & 0xff) - 127 + 15;
			mant = u & 0x7fffffu;
			if (((u >> 23) & 0xff) == 0xff)
				return sign | 0x7c00u | (mant ? 0x200u : 0);
			if (exp >= 31)
				return sign | 0x7c00u;
			if (exp <= 0) {
				/* Subnormal half, or zero (rounded to even). */
				uint32_t m, shift, r, half;

				if (exp < -10)
					return sign;
				m = mant | 0x800000u;
				shift = (uint32_t)(14 - exp);
				r = m >> shift;
				half = 1u << (shift - 1);
				if ((m & ((half << 1) - 1)) > half ||
				    ((m & ((half << 1) - 1)) == half && (r & 1)))
					r++;
				return sign | r;
			}
			{
				uint32_t h = sign | ((uint32_t)exp << 10) |
					     (mant >> 13);
				uint32_t rest = mant & 0x1fffu;

				if (rest > 0x1000u ||
				    (rest == 0x1000u && (h & 1)))
					h++;  /* may carry into inf: correct */
				return h;
			}
		}
	}
	if (t.kind == SIR_BOOL)
		return d != 0.0;
	if (!(d > -9.2e18 && d < 1.8e19))
		return 0;            /* NaN or out of range: no defined value */
	if (d < 0)
		return (uint64_t)(int64_t)d;
	return (uint64_t)d;
}

static uint64_t sir_lane_mask(struct sir_type t, uint64_t v)
{
	if (t.kind == SIR_BOOL)
		return v != 0;
	if (t.bits >= 64 || t.bits == 0)
		return v;
	return v & ((1ull << t.bits) - 1);
}

sir_id sir_const_u64(struct sir_function *f, struct sir_type t, uint64_t v)
{
	sir_id id = sir_value_new(f, SIR_OP_CONST, t, NULL, 0);
	unsigned int i;

	for (i = 0; i < t.comps && i < 16; i++)
		f->values[id].imm.u64[i] = sir_lane_mask(t, v);
	return id;
}

sir_id sir_const_f64(struct sir_function *f, struct sir_type t, double v)
{
	return sir_const_u64(f, t, sir_lane_bits(t, v));
}

void sir_replace_uses(struct sir_function *f, sir_id from, sir_id to)
{
	uint32_t v, s;

	for (v = 1; v < f->num_values; v++) {
		struct sir_instr *in = &f->values[v];

		if (in->op == SIR_OP_INVALID)
			continue;
		for (s = 0; s < in->num_srcs; s++)
			if (in->srcs[s] == from)
				in->srcs[s] = to;
	}
}

void sir_set_srcs(struct sir_function *f, sir_id v, const sir_id *srcs,
		  uint32_t n)
{
	sir_id *copy = n ? sir_arena_alloc(f, n * sizeof(*copy)) : NULL;

	if (n)
		memcpy(copy, srcs, n * sizeof(*copy));
	f->values[v].srcs = copy;
	f->values[v].num_srcs = n;
}

void sir_remove(struct sir_function *f, sir_id v)
{
	struct sir_instr *in = &f->values[v];

	if (in->block < f->num_blocks) {
		struct sir_block *blk = &f->blocks[in->block];
		uint32_t i;

		for (i = 0; i < blk->num_instrs; i++) {
			if (blk->instrs[i] == v) {
				memmove(&blk->instrs[i], &blk->instrs[i + 1],
					(blk->num_instrs - i - 1) *
					sizeof(*blk->instrs));
				blk->num_instrs--;
				break;
			}
		}
	}
	in->op = SIR_OP_INVALID;
	in->block = UINT32_MAX;
	in->num_srcs = 0;
}

void sir_compact_blocks(struct sir_function *f)
{
	uint32_t b, i, n;

	for (b = 0; b < f->num_blocks; b++) {
		struct sir_block *blk = &f->blocks[b];

		for (i = n = 0; i < blk->num_instrs; i++)
			if (f->values[blk->instrs[i]].op != SIR_OP_INVALID)
				blk->instrs[n++] = blk->instrs[i];
		blk->num_instrs = n;
	}
}

static void sir_add_pred(struct sir_block *blk, uint32_t pred)
{
	uint32_t i;

	for (i = 0; i < blk->num_preds; i++)
		if (blk->preds[i] == pred)
			return;
	sir_grow((void **)&blk->preds, &blk->cap_preds, blk->num_preds + 1,
		 sizeof(*blk->preds));
	blk->preds[blk->num_preds++] = pred;
}

void sir_compute_preds(struct sir_function *f)
{
	uint32_t b;

	for (b = 0; b < f->num_blocks; b++)
		f->blocks[b].num_preds = 0;
	for (b = 0; b < f->num_blocks; b++) {
		struct sir_block *blk = &f->blocks[b];
		const struct sir_instr *t;

		if (!blk->num_instrs)
			continue;
		t = &f->values[blk->instrs[blk->num_instrs - 1]];
		if (t->op == SIR_OP_BR && t->targets[0] < f->num_blocks)
			sir_add_pred(&f->blocks[t->targets[0]], b);
		if (t->op == SIR_OP_CBR) {
			if (t->targets[0] < f->num_blocks)
				sir_add_pred(&f->blocks[t->targets[0]], b);
			if (t->targets[1] < f->num_blocks)
				sir_add_pred(&f->blocks[t->targets[1]], b);
		}
	}
}

uint32_t *sir_use_counts(const struct sir_function *f)
{
	uint32_t *counts = sir_xcalloc(f->num_values, sizeof(*counts));
	uint32_t b, i, s;

	for (b = 0; b < f->num_blocks; b++) {
		const struct sir_block *blk = &f->blocks[b];

		for (i = 0; i < blk->num_instrs; i++) {
			const struct sir_instr *in = &f->values[blk->instrs[i]];

			for (s = 0; s < in->num_srcs; s++)
				if (in->srcs[s] < f->num_values)
					counts[in->srcs[s]]++;
		}
	}
	return counts;
}
