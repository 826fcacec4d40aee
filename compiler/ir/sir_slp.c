/* SPDX-License-Identifier: MIT */
/*
 * sir_slp_vectorize(): independent scalar operations packed into the lanes
 * of one vector operation (superword-level parallelism).
 *
 * Midgard's vector units do four 32-bit lanes in the time of one, so four
 * scalar adds that build a float4 cost four times what one vec4 add does.
 * The pass starts from a VEC whose sources are 2-4 scalar results of one
 * op (the vector a kernel builds from per-lane expressions, or an unrolled
 * loop's lane updates after sir_fold turned them into a VEC) and grows a
 * tree downwards: operand tuples that are again results of one op become
 * groups too, and the tree's leaves must be cheap as vectors:
 *
 *   - constants (a vector constant, embedded in the bundle);
 *   - lanes of one vector, in any order (a swizzle, free on Midgard);
 *   - one scalar repeated (a splat, again a swizzle);
 *   - anything else is gathered with a VEC, which costs a move per lane.
 *
 * A tree is packed only when the scalar operations it removes outnumber
 * the lane moves its gathers add; so four products of separately loaded
 * scalars stay scalar (the register allocator would copy each load into
 * its lane), while per-lane arithmetic on a loaded float4 is packed.
 *
 * Placement: a group's vector op goes right after its last member, and
 * each member becomes an extract of it there. That is sound when nothing
 * outside the tree reads a member before that point, and when no group
 * reads (through a gather or splat) a member of a group placed later; a
 * tree that breaks either rule, or whose members depend on each other, is
 * left alone.
 */
#include "sir_passes.h"

#include <stdlib.h>
#include <string.h>

#include "sir_pass_util.h"

#define SLP_MAX_LANES 4
#define SLP_MAX_GROUPS 16
#define SLP_MAX_DEPTH 6

enum slp_leaf {
	SLP_GROUP,                   /* another group of the tree */
	SLP_CONST,                   /* a vector constant */
	SLP_LANES,                   /* lanes of one vector: a swizzle */
	SLP_SPLAT,                   /* one scalar in every lane */
	SLP_GATHER,                  /* a VEC of the scalars */
};

struct slp_operand {
	enum slp_leaf kind;
	uint32_t group;              /* SLP_GROUP */
	sir_id vals[SLP_MAX_LANES];  /* the scalar tuple */
};

struct slp_group {
	sir_id members[SLP_MAX_LANES];
	struct slp_operand ops[3];
	uint32_t last;               /* position of the last member */
	sir_id vec;                  /* the packed result, once emitted */
};

struct slp_tree {
	struct sir_function *f;
	uint32_t block;
	uint32_t *pos;               /* per value: position in block or ~0 */
	uint32_t pos_size;           /* values pos covers */
	sir_id *numbered;            /* the values pos gives a position */
	uint32_t num_numbered, cap_numbered;
	unsigned int lanes;
	struct slp_group groups[SLP_MAX_GROUPS];
	unsigned int num_groups;
	unsigned int gathered;       /* lane moves the gathers cost */
};

/* Lane-wise ops the vector units do for 32-bit lanes as for scalars. */
static bool packable_op(enum sir_op op)
{
	switch (op) {
	case SIR_OP_FADD: case SIR_OP_FSUB: case SIR_OP_FMUL:
	case SIR_OP_FMIN: case SIR_OP_FMAX: case SIR_OP_FNEG: case SIR_OP_FABS:
	case SIR_OP_IADD: case SIR_OP_ISUB: case SIR_OP_IMUL:
	case SIR_OP_AND: case SIR_OP_OR: case SIR_OP_XOR:
	case SIR_OP_SMIN: case SIR_OP_SMAX: case SIR_OP_UMIN: case SIR_OP_UMAX:
		return true;
	default:
		return false;
	}
}

static bool packable_type(struct sir_type t)
{
	return (t.kind == SIR_FLOAT || t.kind == SIR_INT) && t.bits == 32 &&
	       t.comps == 1;
}

/* The group a value belongs to in the tree, or -1. */
static int group_of(const struct slp_tree *t, sir_id v)
{
	for (unsigned int g = 0; g < t->num_groups; g++)
		for (unsigned int i = 0; i < t->lanes; i++)
			if (t->groups[g].members[i] == v)
				return (int)g;
	return -1;
}

static bool all_same(const sir_id *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		if (v[i] != v[0])
			return false;
	return true;
}

/* Whether the tuple can form a group: one op, one type, in this block. */
static bool groupable(const struct slp_tree *t, const sir_id *v)
{
	const struct sir_instr *first = &t->f->values[v[0]];

	if (!packable_op(first->op) || !packable_type(first->type))
		return false;
	for (unsigned int i = 0; i < t->lanes; i++) {
		const struct sir_instr *in = &t->f->values[v[i]];

		if (in->op != first->op || in->block != t->block ||
		    !sir_type_eq(in->type, first->type) ||
		    in->num_srcs != first->num_srcs || group_of(t, v[i]) >= 0)
			return false;
		for (unsigned int j = 0; j < i; j++)
			if (v[j] == v[i])
				return false;
	}
	return true;
}

static bool lanes_of_one_vector(const struct slp_tree *t, const sir_id *v)
{
	const struct sir_instr *first = &t->f->values[v[0]];

	if (first->op != SIR_OP_EXTRACT)
		return false;
	for (unsigned int i = 0; i < t->lanes; i++) {
		const struct sir_instr *in = &t->f->values[v[i]];

		if (in->op != SIR_OP_EXTRACT || in->srcs[0] != first->srcs[0])
			return false;
	}
	return t->f->values[first->srcs[0]].type.comps <= SLP_MAX_LANES;
}

static bool all_const(const struct slp_tree *t, const sir_id *v)
{
	for (unsigned int i = 0; i < t->lanes; i++)
		if (t->f->values[v[i]].op != SIR_OP_CONST)
			return false;
	return true;
}

static int build_group(struct slp_tree *t, const sir_id *v,
		       unsigned int depth);

static void build_operand(struct slp_tree *t, struct slp_operand *o,
			  const sir_id *v, unsigned int depth)
{
	int g;

	memcpy(o->vals, v, t->lanes * sizeof(*v));
	if (all_const(t, v)) {
		o->kind = SLP_CONST;
	} else if (all_same(v, t->lanes)) {
		o->kind = SLP_SPLAT;
	} else if (lanes_of_one_vector(t, v)) {
		o->kind = SLP_LANES;
	} else if (depth < SLP_MAX_DEPTH && groupable(t, v) &&
		   (g = build_group(t, v, depth + 1)) >= 0) {
		o->kind = SLP_GROUP;
		o->group = (uint32_t)g;
	} else {
		o->kind = SLP_GATHER;
		t->gathered += t->lanes;
	}
}

/* Adds the group of values v (already checked groupable); its index. */
static int build_group(struct slp_tree *t, const sir_id *v,
		       unsigned int depth)
{
	const struct sir_instr *first = &t->f->values[v[0]];
	struct slp_group *grp;
	unsigned int g, s, i;

	if (t->num_groups == SLP_MAX_GROUPS)
		return -1;
	g = t->num_groups++;
	grp = &t->groups[g];
	memset(grp, 0, sizeof(*grp));
	memcpy(grp->members, v, t->lanes * sizeof(*v));
	for (i = 0; i < t->lanes; i++)
		if (t->pos[v[i]] > grp->last || i == 0)
			grp->last = t->pos[v[i]];
	for (s = 0; s < first->num_srcs; s++) {
		sir_id tuple[SLP_MAX_LANES];

		for (i = 0; i < t->lanes; i++)
			tuple[i] = t->f->values[v[i]].srcs[s];
		build_operand(t, &grp->ops[s], tuple, depth);
	}
	return (int)g;
}

/* A value read by a group placed at `at`: ready there? */
static bool ready_at(const struct slp_tree *t, sir_id v, uint32_t at)
{
	int h = group_of(t, v);

	if (h >= 0)
		return t->groups[h].last < at;
	return t->pos[v] == UINT32_MAX || t->pos[v] < at;
}

/* Nothing outside the tree reads a member before its group's vector. */
static bool members_unread_early(const struct slp_tree *t,
				 const struct slp_group *grp)
{
	const struct sir_block *blk = &t->f->blocks[t->block];

	for (unsigned int i = 0; i < t->lanes; i++) {
		sir_id m = grp->members[i];

		for (uint32_t p = t->pos[m] + 1; p <= grp->last; p++) {
			const struct sir_instr *in = &t->f->values[blk->instrs[p]];

			if (group_of(t, blk->instrs[p]) >= 0)
				continue;
			for (uint32_t s = 0; s < in->num_srcs; s++)
				if (in->srcs[s] == m)
					return false;
		}
	}
	return true;
}

static bool tree_is_sound(const struct slp_tree *t)
{
	for (unsigned int g = 0; g < t->num_groups; g++) {
		const struct slp_group *grp = &t->groups[g];
		const struct sir_instr *first =
			&t->f->values[grp->members[0]];

		if (!members_unread_early(t, grp))
			return false;
		for (unsigned int s = 0; s < first->num_srcs; s++) {
			const struct slp_operand *o = &grp->ops[s];

			if (o->kind == SLP_GROUP) {
				if (t->groups[o->group].last >= grp->last)
					return false;
				continue;
			}
			for (unsigned int i = 0; i < t->lanes; i++) {
				sir_id v = o->vals[i];

				if (o->kind == SLP_LANES)
					v = t->f->values[v].srcs[0];
				if (o->kind != SLP_CONST &&
				    !ready_at(t, v, grp->last))
					return false;
			}
		}
	}
	return true;
}

/* The vector operand o at the cursor. */
static sir_id emit_operand(struct slp_tree *t, struct sir_builder *b,
			   const struct slp_operand *o, struct sir_type vt,
			   const struct sir_repl *repl)
{
	struct sir_function *f = t->f;
	unsigned int n = t->lanes, i;
	sir_id v, vals[SLP_MAX_LANES];

	switch (o->kind) {
	case SLP_GROUP:
		return t->groups[o->group].vec;
	case SLP_CONST:
		v = sir_value_new(f, SIR_OP_CONST, vt, NULL, 0);
		for (i = 0; i < n; i++)
			f->values[v].imm.u64[i] = f->values[o->vals[i]].imm.u64[0];
		return v;
	case SLP_SPLAT:
		v = sirp_repl_get(repl, o->vals[0]);
		v = sirp_op(b, SIR_OP_SHUFFLE, vt, (sir_id[]){ v, v }, 2, 0);
		return v;
	case SLP_LANES: {
		sir_id src = f->values[o->vals[0]].srcs[0];

		v = sirp_op(b, SIR_OP_SHUFFLE, vt, (sir_id[]){ src, src }, 2, 0);
		for (i = 0; i < n; i++)
			f->values[v].imm.u64[i] = f->values[o->vals[i]].aux;
		return v;
	}
	default:
		for (i = 0; i < n; i++)
			vals[i] = sirp_repl_get(repl, o->vals[i]);
		return sirp_op(b, SIR_OP_VEC, vt, vals, n, 0);
	}
}

static int by_last(const void *a, const void *b)
{
	const struct slp_group *x = *(const struct slp_group *const *)a;
	const struct slp_group *y = *(const struct slp_group *const *)b;

	return x->last < y->last ? -1 : x->last > y->last;
}

static void emit_tree(struct slp_tree *t, struct sir_repl *repl)
{
	struct slp_group *order[SLP_MAX_GROUPS];
	struct sir_function *f = t->f;
	unsigned int g, i, s;

	for (g = 0; g < t->num_groups; g++)
		order[g] = &t->groups[g];
	qsort(order, t->num_groups, sizeof(*order), by_last);
	for (g = 0; g < t->num_groups; g++) {
		struct slp_group *grp = order[g];
		struct sir_instr first = f->values[grp->members[0]];
		struct sir_type vt = sirp_type_comps(first.type, t->lanes);
		struct sir_builder b = sirp_builder_at(f, t->block,
			sirp_position(f, grp->members[0]));
		sir_id srcs[3];

		for (i = 1; i < t->lanes; i++) {
			uint32_t p = sirp_position(f, grp->members[i]);

			if (p > b.pos)
				b.pos = p;
		}
		b.pos++;
		for (s = 0; s < first.num_srcs; s++)
			srcs[s] = emit_operand(t, &b, &grp->ops[s], vt, repl);
		grp->vec = sirp_op(&b, first.op, vt, srcs, first.num_srcs, 0);
		for (i = 0; i < t->lanes; i++)
			sirp_repl_set(repl, grp->members[i],
				      sirp_op(&b, SIR_OP_EXTRACT, first.type,
					      &grp->vec, 1, i));
	}
}

/*
 * Positions in the block; again after every packed tree (it inserts).
 * Only the entries the last numbering set are cleared, so numbering every
 * block costs the function's size once, not once per block.
 */
static void number_block(struct slp_tree *t)
{
	const struct sir_block *blk = &t->f->blocks[t->block];
	uint32_t n = t->f->num_values;

	for (uint32_t i = 0; i < t->num_numbered; i++)
		t->pos[t->numbered[i]] = UINT32_MAX;
	if (n > t->pos_size) {
		t->pos = sir_xrealloc(t->pos, n * sizeof(*t->pos));
		for (uint32_t v = t->pos_size; v < n; v++)
			t->pos[v] = UINT32_MAX;
		t->pos_size = n;
	}
	if (blk->num_instrs > t->cap_numbered) {
		t->cap_numbered = blk->num_instrs;
		t->numbered = sir_xrealloc(t->numbered, t->cap_numbered *
					   sizeof(*t->numbered));
	}
	for (uint32_t i = 0; i < blk->num_instrs; i++) {
		t->pos[blk->instrs[i]] = i;
		t->numbered[i] = blk->instrs[i];
	}
	t->num_numbered = blk->num_instrs;
}

/* Tries the tree rooted at the scalar sources of VEC seed; packs it. */
static bool try_seed(struct slp_tree *t, sir_id seed)
{
	const struct sir_instr *in = &t->f->values[seed];
	struct sir_repl repl;
	unsigned int saved;

	if (in->num_srcs < 2 || in->num_srcs > SLP_MAX_LANES ||
	    in->num_srcs != in->type.comps)
		return false;
	t->lanes = in->num_srcs;
	t->num_groups = 0;
	t->gathered = 0;
	if (!groupable(t, in->srcs) || build_group(t, in->srcs, 0) < 0)
		return false;
	saved = t->num_groups * (t->lanes - 1);
	if (saved <= t->gathered || !tree_is_sound(t))
		return false;
	sirp_repl_init(&repl, t->f);
	emit_tree(t, &repl);
	sirp_repl_apply(&repl, t->f);
	return true;
}

bool sir_slp_vectorize(struct sir_function *f)
{
	struct slp_tree t = { .f = f };
	bool any = false;

	for (uint32_t b = 0; b < f->num_blocks; b++) {
		t.block = b;
		number_block(&t);
		for (uint32_t i = 0; i < f->blocks[b].num_instrs; i++) {
			sir_id v = f->blocks[b].instrs[i];

			if (f->values[v].op != SIR_OP_VEC || !try_seed(&t, v))
				continue;
			any = true;
			number_block(&t);
			i = t.pos[v];
		}
	}
	free(t.pos);
	free(t.numbered);
	return any;
}
