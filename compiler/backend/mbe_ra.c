/* SPDX-License-Identifier: MIT */
/*
 * Register allocation: liveness over the MIR CFG, an interference graph
 * over vregs, and greedy colouring in definition order onto (register,
 * first component) slots, so that scalars, vec2s and vec3s share 128-bit
 * registers. Work registers are r0..r(max-1); when a vreg finds no slot,
 * a vreg is spilled to thread storage (16 bytes per spilled vreg after the
 * kernel's own private data): every definition writes a fresh temporary
 * that is stored, every use reads one that is loaded just before.
 *
 * Liveness and the graph are built once; a spill then only takes the
 * victim's edges out and adds those of its new temporaries, found by one
 * backward walk over the blocks it touched (the other vregs' liveness and
 * edges do not change: the spill code defines and reads temporaries and
 * r26/r27 only), so a kernel that spills many times does not rebuild
 * everything per spill. The graph is the one a fresh build gives.
 *
 * Memory is linear in the code, the edges and the live-out lists: no
 * structure is indexed by (vreg, vreg) or (block, vreg).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbe_internal.h"

#define MAX_RA_ROUNDS 256

/* A growing list of vregs (or blocks). */
struct u32_list {
	uint32_t num, cap;
	uint32_t *v;
};

static void list_push(struct u32_list *l, uint32_t x)
{
	if (l->num == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4;
		l->v = sir_xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->num++] = x;
}

/* A set of vregs: its members in any order, and each one's index. */
struct vset {
	uint32_t num;
	uint32_t *v, *pos;
};

/*
 * The interference graph, in memory linear in its edges: each vreg's
 * neighbours as an unordered list, and every edge once in an
 * open-addressing hash set of (low, high) pairs, which answers "already
 * there?" when liveness meets the same pair again. A bit matrix would
 * take n^2/8 bytes: 1.2 GB for the 100,000 vregs of a long chain of
 * inlined built-in calls.
 *
 * A spilled vreg leaves the code for good, so its edges are not taken
 * out of the lists and the set (each neighbour's list may be long, and
 * so may the victim's): it is marked dead, readers skip it, and the
 * degrees (live neighbours) are counted apart.
 */
struct graph {
	uint32_t n, cap;             /* vregs, room for */
	struct u32_list *adj;        /* per vreg: its neighbours, dead too */
	uint32_t *degree;            /* per vreg: its live neighbours */
	bool *dead;                  /* per vreg: spilled */
	uint64_t *edges;             /* hash set; EDGE_EMPTY in free slots */
	uint32_t edge_bits;          /* log2 of the set's slots */
	size_t num_edges;
	uint32_t num_blocks;
	struct u32_list *out;        /* per block: vregs live out, ascending */
	struct vset live;            /* in a backward walk: live vregs */
	struct vset fresh;           /* and those of them from old_n on */
};

#define EDGE_EMPTY UINT64_MAX        /* low < high: never a pair */

static uint64_t edge_key(uint32_t a, uint32_t b)
{
	return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

static size_t edge_home(const struct graph *g, uint64_t key)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - g->edge_bits));
}

/* The slot holding key, or the free slot where it would go. */
static size_t edge_slot(const struct graph *g, uint64_t key)
{
	size_t mask = ((size_t)1 << g->edge_bits) - 1;
	size_t i = edge_home(g, key);

	while (g->edges[i] != EDGE_EMPTY && g->edges[i] != key)
		i = (i + 1) & mask;
	return i;
}

static void edges_resize(struct graph *g, uint32_t bits)
{
	uint64_t *old = g->edges;
	size_t old_size = old ? (size_t)1 << g->edge_bits : 0;

	g->edge_bits = bits;
	g->edges = sir_xcalloc((size_t)1 << bits, sizeof(*g->edges));
	memset(g->edges, 0xFF, sizeof(*g->edges) << bits);
	for (size_t i = 0; i < old_size; i++)
		if (old[i] != EDGE_EMPTY)
			g->edges[edge_slot(g, old[i])] = old[i];
	free(old);
}

static void add_edge(struct graph *g, uint32_t a, uint32_t b)
{
	uint64_t key = edge_key(a, b);
	size_t i;

	if (a == b)
		return;
	i = edge_slot(g, key);
	if (g->edges[i] == key)
		return;
	g->edges[i] = key;
	list_push(&g->adj[a], b);
	list_push(&g->adj[b], a);
	g->degree[a]++;
	g->degree[b]++;
	/* At most half full, so probes stay short. */
	if (++g->num_edges * 2 > (size_t)1 << g->edge_bits)
		edges_resize(g, g->edge_bits + 1);
}

/*
 * Marks spilled x dead: its neighbours lose it from their degree, and it
 * has no neighbours left (the colouring still visits it, as a vreg
 * without edges).
 */
static void kill_vreg(struct graph *g, uint32_t x)
{
	struct u32_list *ax = &g->adj[x];

	for (uint32_t k = 0; k < ax->num; k++)
		if (!g->dead[ax->v[k]])
			g->degree[ax->v[k]]--;
	free(ax->v);
	memset(ax, 0, sizeof(*ax));
	g->degree[x] = 0;
	g->dead[x] = true;
}

static bool vset_has(const struct vset *set, uint32_t v)
{
	uint32_t p = set->pos[v];

	return p < set->num && set->v[p] == v;
}

static void vset_add(struct vset *set, uint32_t v)
{
	if (vset_has(set, v))
		return;
	set->pos[v] = set->num;
	set->v[set->num++] = v;
}

static void vset_del(struct vset *set, uint32_t v)
{
	uint32_t p = set->pos[v], last;

	if (!vset_has(set, v))
		return;
	last = set->v[--set->num];
	set->v[p] = last;
	set->pos[last] = p;
}

/* Room for vregs [old_cap, cap). */
static void vset_reserve(struct vset *set, uint32_t old_cap, uint32_t cap)
{
	set->v = sir_xrealloc(set->v, cap * sizeof(*set->v));
	set->pos = sir_xrealloc(set->pos, cap * sizeof(*set->pos));
	/* Any index will do: vset_has() checks it against v[]. */
	memset(set->pos + old_cap, 0, (cap - old_cap) * sizeof(*set->pos));
}

static void vset_free(struct vset *set)
{
	free(set->v);
	free(set->pos);
}

/* Room in the graph for n vregs. */
static void graph_reserve(struct graph *g, uint32_t n)
{
	uint32_t cap;

	if (n <= g->cap)
		return;
	/* An eighth more: spills add a few temporaries at a time. */
	cap = g->cap + g->cap / 8 > n ? g->cap + g->cap / 8 : n;
	g->adj = sir_xrealloc(g->adj, cap * sizeof(*g->adj));
	memset(g->adj + g->cap, 0, (cap - g->cap) * sizeof(*g->adj));
	g->degree = sir_xrealloc(g->degree, cap * sizeof(*g->degree));
	memset(g->degree + g->cap, 0, (cap - g->cap) * sizeof(*g->degree));
	g->dead = sir_xrealloc(g->dead, cap * sizeof(*g->dead));
	memset(g->dead + g->cap, 0, (cap - g->cap) * sizeof(*g->dead));
	vset_reserve(&g->live, g->cap, cap);
	vset_reserve(&g->fresh, g->cap, cap);
	g->cap = cap;
}

/* Predecessor lists of every block, in one array (CSR). */
struct preds {
	uint32_t *first;             /* num_blocks + 1 offsets */
	uint32_t *v;
};

static void compute_preds(const struct mi_func *mf, struct preds *p)
{
	uint32_t nb = mf->num_blocks, *fill;

	p->first = sir_xcalloc(nb + 2, sizeof(*p->first));
	for (uint32_t b = 0; b < nb; b++) {
		uint32_t s[2];
		int ns = mi_block_succs(&mf->blocks[b], s);

		for (int k = 0; k < ns; k++)
			if (s[k] < nb)
				p->first[s[k] + 1]++;
	}
	for (uint32_t b = 0; b < nb; b++)
		p->first[b + 1] += p->first[b];
	p->v = sir_xcalloc(p->first[nb] + 1, sizeof(*p->v));
	fill = sir_xcalloc(nb + 1, sizeof(*fill));
	memcpy(fill, p->first, nb * sizeof(*fill));
	for (uint32_t b = 0; b < nb; b++) {
		uint32_t s[2];
		int ns = mi_block_succs(&mf->blocks[b], s);

		for (int k = 0; k < ns; k++)
			if (s[k] < nb)
				p->v[fill[s[k]]++] = b;
	}
	free(fill);
}

/* (vreg, block) pairs grouped by vreg, blocks ascending within each. */
struct by_vreg {
	uint32_t *first;             /* num_vregs + 1 offsets */
	uint32_t *block;
};

static void group_by_vreg(const struct u32_list *pairs, uint32_t n,
			  struct by_vreg *out)
{
	uint32_t *fill;

	out->first = sir_xcalloc((size_t)n + 2, sizeof(*out->first));
	for (uint32_t k = 0; k < pairs->num; k += 2)
		out->first[pairs->v[k] + 1]++;
	for (uint32_t v = 0; v < n; v++)
		out->first[v + 1] += out->first[v];
	out->block = sir_xcalloc(pairs->num / 2 + 1, sizeof(*out->block));
	fill = sir_xcalloc((size_t)n + 1, sizeof(*fill));
	memcpy(fill, out->first, n * sizeof(*fill));
	for (uint32_t k = 0; k < pairs->num; k += 2)
		out->block[fill[pairs->v[k]]++] = pairs->v[k + 1];
	free(fill);
}

/*
 * Live-out vregs of every block, by walking up from each use: a vreg is
 * live into a block that reads it before (or in the instruction of) any
 * write of all of it, and then live out of every predecessor and live
 * into those that do not write all of it. Each vreg costs the blocks its
 * live range spans, so the whole is linear in the sum of the live
 * ranges, and the per-block lists come out ascending (vreg by vreg).
 * The same least solution the iterative data-flow gives.
 */
static void compute_live_out(const struct mi_func *mf, struct graph *g)
{
	uint32_t nb = mf->num_blocks, n = mf->num_vregs, sp;
	uint32_t *ue_at = sir_xcalloc((size_t)n + 1, sizeof(*ue_at));
	uint32_t *kill_at = sir_xcalloc((size_t)n + 1, sizeof(*kill_at));
	uint32_t *in_mark = sir_xcalloc(nb + 1, sizeof(*in_mark));
	uint32_t *out_mark = sir_xcalloc(nb + 1, sizeof(*out_mark));
	uint32_t *kill_mark = sir_xcalloc(nb + 1, sizeof(*kill_mark));
	uint32_t *stack = sir_xcalloc(nb + 1, sizeof(*stack));
	struct u32_list ue_pairs = { 0 }, kill_pairs = { 0 };
	struct by_vreg ue, kill;
	struct preds preds;

	compute_preds(mf, &preds);
	/* Upward-exposed reads and whole writes of each block; stamps are
	 * block + 1. */
	for (uint32_t b = 0; b < nb; b++) {
		const struct mi_block *blk = &mf->blocks[b];

		for (uint32_t i = 0; i < blk->num; i++) {
			const struct mi_instr *mi = &blk->instrs[i];

			for (int k = 0; k < 2; k++) {
				uint32_t u = mi->src[k].reg;

				if (mi->src[k].kind != MO_VREG ||
				    kill_at[u] == b + 1 || ue_at[u] == b + 1)
					continue;
				ue_at[u] = b + 1;
				list_push(&ue_pairs, u);
				list_push(&ue_pairs, b);
			}
			if (mi->dst.kind == MO_VREG && mi->kills &&
			    kill_at[mi->dst.reg] != b + 1) {
				kill_at[mi->dst.reg] = b + 1;
				list_push(&kill_pairs, mi->dst.reg);
				list_push(&kill_pairs, b);
			}
		}
	}
	group_by_vreg(&ue_pairs, n, &ue);
	group_by_vreg(&kill_pairs, n, &kill);
	/* Marks are vreg + 1. */
	for (uint32_t v = 0; v < n; v++) {
		sp = 0;
		for (uint32_t k = kill.first[v]; k < kill.first[v + 1]; k++)
			kill_mark[kill.block[k]] = v + 1;
		for (uint32_t k = ue.first[v]; k < ue.first[v + 1]; k++) {
			in_mark[ue.block[k]] = v + 1;
			stack[sp++] = ue.block[k];
		}
		while (sp) {
			uint32_t b = stack[--sp];

			for (uint32_t k = preds.first[b];
			     k < preds.first[b + 1]; k++) {
				uint32_t p = preds.v[k];

				if (out_mark[p] == v + 1)
					continue;
				out_mark[p] = v + 1;
				list_push(&g->out[p], v);
				if (kill_mark[p] != v + 1 &&
				    in_mark[p] != v + 1) {
					in_mark[p] = v + 1;
					stack[sp++] = p;
				}
			}
		}
	}
	free(ue_at);
	free(kill_at);
	free(in_mark);
	free(out_mark);
	free(kill_mark);
	free(stack);
	free(ue_pairs.v);
	free(kill_pairs.v);
	free(ue.first);
	free(ue.block);
	free(kill.first);
	free(kill.block);
	free(preds.first);
	free(preds.v);
}

/*
 * The edges a backward walk of block bb finds: each definition against
 * every vreg live across it. With old_n set (after a spill), only the
 * edges that touch a vreg from old_n on (a new temporary): a definition
 * of an older vreg meets only the live temporaries, kept apart in fresh.
 */
static void block_edges(const struct mi_func *mf, struct graph *g,
			uint32_t bb, uint32_t old_n)
{
	const struct mi_block *blk = &mf->blocks[bb];
	const struct u32_list *out = &g->out[bb];

	g->live.num = 0;
	g->fresh.num = 0;
	for (uint32_t k = 0; k < out->num; k++)
		vset_add(&g->live, out->v[k]);
	for (uint32_t i = blk->num; i-- > 0;) {
		const struct mi_instr *mi = &blk->instrs[i];

		if (mi->dst.kind == MO_VREG) {
			uint32_t d = mi->dst.reg;
			const struct vset *across = d >= old_n ? &g->live :
						    &g->fresh;

			for (uint32_t k = 0; k < across->num; k++)
				add_edge(g, d, across->v[k]);
			if (mi->kills) {
				vset_del(&g->live, d);
				vset_del(&g->fresh, d);
			}
		}
		for (int k = 0; k < 2; k++) {
			uint32_t u = mi->src[k].reg;

			if (mi->src[k].kind != MO_VREG)
				continue;
			vset_add(&g->live, u);
			if (old_n && u >= old_n)
				vset_add(&g->fresh, u);
		}
	}
}

static void build_graph(const struct mi_func *mf, struct graph *g)
{
	memset(g, 0, sizeof(*g));
	g->num_blocks = mf->num_blocks;
	graph_reserve(g, mf->num_vregs);
	g->n = mf->num_vregs;
	g->out = sir_xcalloc(mf->num_blocks + 1, sizeof(*g->out));
	edges_resize(g, 10);
	compute_live_out(mf, g);
	for (uint32_t bb = 0; bb < mf->num_blocks; bb++)
		block_edges(mf, g, bb, 0);
}

/*
 * After vreg x was spilled in the blocks marked in touched: x's edges go,
 * and the new temporaries (vregs from old_n on, each live inside one
 * block) get theirs from a backward walk of those blocks, as
 * build_graph() would give them.
 */
static void graph_after_spill(const struct mi_func *mf, struct graph *g,
			      uint32_t x, uint32_t old_n, const bool *touched)
{
	graph_reserve(g, mf->num_vregs);
	g->n = mf->num_vregs;
	kill_vreg(g, x);
	for (uint32_t b = 0; b < g->num_blocks; b++) {
		struct u32_list *out = &g->out[b];
		uint32_t kept = 0;

		for (uint32_t k = 0; k < out->num; k++)
			if (out->v[k] != x)
				out->v[kept++] = out->v[k];
		out->num = kept;
	}
	for (uint32_t bb = 0; bb < mf->num_blocks; bb++)
		if (touched[bb])
			block_edges(mf, g, bb, old_n);
}

static void free_graph(struct graph *g)
{
	for (uint32_t v = 0; v < g->cap; v++)
		free(g->adj[v].v);
	for (uint32_t b = 0; b < g->num_blocks; b++)
		free(g->out[b].v);
	free(g->adj);
	free(g->degree);
	free(g->dead);
	free(g->edges);
	free(g->out);
	vset_free(&g->live);
	vset_free(&g->fresh);
}

/*
 * Atomics return the old value in component 0 of their register only (the
 * model writes their result's first word; a 64-bit atomic's, .xy), so
 * their destinations must start there. Marks those vregs in at_x.
 */
static void mark_atomic_dsts(const struct mi_func *mf, bool *at_x)
{
	for (uint32_t b = 0; b < mf->num_blocks; b++)
		for (uint32_t i = 0; i < mf->blocks[b].num; i++) {
			const struct mi_instr *in = &mf->blocks[b].instrs[i];
			const struct mdg_ldst_op_info *info;

			if (in->kind != MI_LDST || in->dst.kind != MO_VREG)
				continue;
			info = mdg_ldst_op_info(in->w.op);
			if (info && (info->flags & MDG_LDST_ATOMIC))
				at_x[in->dst.reg] = true;
		}
}

/*
 * Colours the vregs from start on (those before it keep their slots);
 * returns the first that found no slot, or MI_NONE.
 */
static uint32_t colour(struct mi_func *mf, const struct graph *g,
		       unsigned int max_regs, bool *done, uint32_t start)
{
	bool *at_x = sir_xcalloc(mf->num_vregs + 1, sizeof(*at_x));

	mark_atomic_dsts(mf, at_x);
	for (uint32_t v = start; v < mf->num_vregs; v++) {
		struct mi_vreg *vr = &mf->vregs[v];
		uint8_t occ[16] = { 0 };
		unsigned int need = (1u << vr->size) - 1;
		unsigned int end = at_x[v] ? vr->size : 4;
		bool placed = false;

		for (uint32_t k = 0; k < g->adj[v].num; k++) {
			uint32_t u = g->adj[v].v[k];

			if (done[u] && !g->dead[u])
				occ[mf->vregs[u].reg] |= (uint8_t)(
					((1u << mf->vregs[u].size) - 1)
					<< mf->vregs[u].comp);
		}
		for (unsigned int r = 0; r < max_regs && !placed; r++) {
			for (unsigned int c = 0; c + vr->size <= end;
			     c += vr->align2 ? 2 : 1) {
				if (!(occ[r] & (need << c))) {
					vr->reg = (uint8_t)r;
					vr->comp = (uint8_t)c;
					placed = true;
					break;
				}
			}
		}
		if (!placed) {
			free(at_x);
			return v;
		}
		done[v] = true;
	}
	free(at_x);
	return MI_NONE;
}

/* Work registers the colouring uses: one past the highest written. */
static unsigned int used_regs(const struct mi_func *mf)
{
	unsigned int regs = 0;

	for (uint32_t b = 0; b < mf->num_blocks; b++)
		for (uint32_t i = 0; i < mf->blocks[b].num; i++) {
			const struct mi_instr *in = &mf->blocks[b].instrs[i];

			if (in->dst.kind == MO_VREG &&
			    mf->vregs[in->dst.reg].reg + 1u > regs)
				regs = mf->vregs[in->dst.reg].reg + 1u;
		}
	return regs;
}

static bool uses_vreg(const struct mi_instr *in, uint32_t v)
{
	return (in->src[0].kind == MO_VREG && in->src[0].reg == v) ||
	       (in->src[1].kind == MO_VREG && in->src[1].reg == v);
}

/* A growing instruction list. */
struct ilist {
	uint32_t num, cap;
	struct mi_instr *v;
};

static struct mi_instr *push(struct ilist *l)
{
	if (l->num == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = sir_xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	memset(&l->v[l->num], 0, sizeof(*l->v));
	return &l->v[l->num++];
}

static void tls_fields(struct mdg_ldst *w, int32_t offset)
{
	w->arg_reg = MDG_LDST_SEL_LOCAL_STORAGE;
	w->bitsize_toggle = true;
	w->index_reg = MDG_LDST_SEL_ZERO;
	w->index_format = MDG_INDEX_U64;
	w->offset = offset;
}

static void make_fill(struct mi_instr *f, uint32_t t, unsigned int size,
		      int32_t offset)
{
	memset(f, 0, sizeof(*f));
	f->kind = MI_LDST;
	f->w.op = size == 1 ? MDG_LDST_LD_32 : size == 2 ? MDG_LDST_LD_64 :
		  MDG_LDST_LD_128;
	tls_fields(&f->w, offset);
	f->dst.kind = MO_VREG;
	f->dst.reg = t;
	f->dst.mask = (uint8_t)((1u << size) - 1);
	f->kills = true;
	for (int j = 0; j < 4; j++)
		f->lswz[j] = (uint8_t)j;
	f->mem_read = true;
}

static void make_store(struct ilist *l, uint32_t t, unsigned int size,
		       int32_t offset)
{
	struct mi_instr *m = push(l), *st;
	uint8_t mask = (uint8_t)((1u << size) - 1);

	m->kind = MI_ALU;
	m->op = MDG_ALU_IMOV;
	m->units = mdg_alu_op_info(MDG_ALU_IMOV)->units;
	m->outmod = MDG_OUTMOD_KEEP_LOW;
	m->dst.kind = MO_PHYS;
	m->dst.reg = 27;
	m->dst.mask = mask;
	m->src[1].kind = MO_VREG;
	m->src[1].reg = t;
	for (int j = 0; j < 4; j++)
		m->src[1].swz[j] = (uint8_t)j;
	st = push(l);
	st->kind = MI_LDST;
	st->w.op = size == 1 ? MDG_LDST_ST_32 : size == 2 ? MDG_LDST_ST_64 :
		   MDG_LDST_ST_128;
	st->w.reg = 1;
	st->w.mask = size > 2 ? mask : 0xF;   /* quarters of the access */
	st->w.swizzle = 0xE4;
	tls_fields(&st->w, offset);
	st->phys_reads[1] = mask;
	st->mem_read = st->mem_write = true;
}

/* Rewrites every access to v through temporaries and its TLS slot. */
static void spill(struct mi_func *mf, uint32_t v, int32_t offset,
		  bool *touched)
{
	unsigned int size = mf->vregs[v].size;

	for (uint32_t b = 0; b < mf->num_blocks; b++) {
		struct mi_block *blk = &mf->blocks[b];
		struct ilist l = { 0, 0, NULL };
		uint32_t before = mf->num_vregs;

		for (uint32_t i = 0; i < blk->num; i++) {
			struct mi_instr in = blk->instrs[i];
			bool defs = in.dst.kind == MO_VREG && in.dst.reg == v;
			uint32_t t = MI_NONE;

			if (uses_vreg(&in, v) || (defs && !in.kills)) {
				t = mi_vreg_new(mf, size);
				mf->vregs[t].no_spill = true;
				mf->vregs[t].align2 = mf->vregs[v].align2;
				for (int k = 0; k < 2; k++)
					if (in.src[k].kind == MO_VREG &&
					    in.src[k].reg == v)
						in.src[k].reg = t;
				if (in.glued && l.num) {
					/* Before the csel's r31 move. */
					struct mi_instr mov = l.v[l.num - 1];

					make_fill(&l.v[l.num - 1], t, size,
						  offset);
					*push(&l) = mov;
				} else {
					make_fill(push(&l), t, size, offset);
				}
				mf->fills++;
			}
			if (defs) {
				if (t == MI_NONE) {
					t = mi_vreg_new(mf, size);
					mf->vregs[t].no_spill = true;
					mf->vregs[t].align2 =
						mf->vregs[v].align2;
				}
				in.dst.reg = t;
			}
			*push(&l) = in;
			if (defs) {
				make_store(&l, t, size, offset);
				mf->spills++;
			}
		}
		free(blk->instrs);
		blk->instrs = l.v;
		blk->num = l.num;
		blk->cap = l.cap;
		touched[b] = mf->num_vregs != before;
	}
}

/* An integer move whose every written lane already holds its source. */
static bool is_self_move(const struct mi_func *mf, const struct mi_instr *in)
{
	const struct mi_src *src = &in->src[1];
	unsigned int dreg, dcomp, sreg, scomp;

	if (in->kind != MI_ALU || in->op != MDG_ALU_IMOV || in->mode64 ||
	    in->lane_bits ||
	    in->outmod != MDG_OUTMOD_KEEP_LOW || in->dst.kind != MO_VREG ||
	    src->kind != MO_VREG || src->mod || src->widen)
		return false;
	mi_dst_place(mf, &in->dst, &dreg, &dcomp);
	mi_src_place(mf, src, &sreg, &scomp);
	if (dreg != sreg)
		return false;
	for (unsigned int j = 0; j < 4; j++)
		if ((in->dst.mask & (1u << j)) &&
		    scomp + src->swz[j] != dcomp + j)
			return false;
	return true;
}

/*
 * Copies the allocator coalesced onto their source (phi copies, moves of
 * a value into the register it already occupies) do nothing: drop them so
 * they take no unit.
 */
static void drop_self_moves(struct mi_func *mf)
{
	for (uint32_t b = 0; b < mf->num_blocks; b++) {
		struct mi_block *blk = &mf->blocks[b];
		uint32_t kept = 0;

		for (uint32_t i = 0; i < blk->num; i++)
			if (!is_self_move(mf, &blk->instrs[i]))
				blk->instrs[kept++] = blk->instrs[i];
		blk->num = kept;
	}
}

/* What one component of r26/r27 is known to hold within a block. */
struct arg_copy {
	bool valid, is_const;
	uint32_t val;                /* constant */
	uint8_t reg, comp;           /* or a copy of this register lane */
};

/* The lanes a move into r26/r27 copies; false for anything else. */
static bool arg_move(const struct mi_func *mf, const struct mi_instr *in,
		     struct arg_copy lanes[4])
{
	const struct mi_src *src = &in->src[1];
	unsigned int reg, comp;

	if (in->kind != MI_ALU || in->op != MDG_ALU_IMOV || in->mode64 ||
	    in->lane_bits ||
	    in->outmod != MDG_OUTMOD_KEEP_LOW || in->dst.kind != MO_PHYS ||
	    (in->dst.reg != 26 && in->dst.reg != 27) ||
	    (in->dst.mask << in->dst.off) > 0xF ||
	    src->mod || src->widen ||
	    (src->kind != MO_VREG && src->kind != MO_PHYS &&
	     src->kind != MO_CONST))
		return false;
	mi_src_place(mf, src, &reg, &comp);
	for (unsigned int j = 0; j < 4; j++) {
		lanes[j].valid = true;
		lanes[j].is_const = src->kind == MO_CONST;
		lanes[j].val = src->cval[j];
		lanes[j].reg = (uint8_t)reg;
		lanes[j].comp = (uint8_t)((comp + src->swz[j]) & 3);
	}
	return true;
}

static bool same_copy(const struct arg_copy *a, const struct arg_copy *b)
{
	if (!a->valid || !b->valid || a->is_const != b->is_const)
		return false;
	return a->is_const ? a->val == b->val :
	       a->reg == b->reg && a->comp == b->comp;
}

/* Forgets what the register lanes an instruction writes used to hold. */
static void forget_writes(const struct mi_func *mf, const struct mi_instr *in,
			  struct arg_copy known[2][4])
{
	unsigned int reg, comp, mask;

	if (in->dst.kind == MO_NONE)
		return;
	mi_dst_place(mf, &in->dst, &reg, &comp);
	mask = in->mode64 || in->lane_bits || comp > 3 ? 0xF :
	       (in->dst.mask << comp) & 0xF;
	for (unsigned int r = 0; r < 2; r++)
		for (unsigned int c = 0; c < 4; c++) {
			struct arg_copy *k = &known[r][c];

			if ((reg == 26 + r && (mask & (1u << c))) ||
			    (!k->is_const && k->reg == reg &&
			     (mask & (1u << k->comp))))
				k->valid = false;
		}
}

/*
 * Each load/store sets up its own r26/r27 arguments, so accesses sharing
 * a base or an index move the same value into the same lane again: drop
 * a move whose every lane already holds what it copies.
 */
static void drop_repeated_arg_moves(struct mi_func *mf)
{
	for (uint32_t b = 0; b < mf->num_blocks; b++) {
		struct mi_block *blk = &mf->blocks[b];
		struct arg_copy known[2][4];
		uint32_t kept = 0;

		memset(known, 0, sizeof(known));
		for (uint32_t i = 0; i < blk->num; i++) {
			const struct mi_instr *in = &blk->instrs[i];
			struct arg_copy lanes[4];
			bool is_move = arg_move(mf, in, lanes), same = is_move;
			unsigned int r = in->dst.reg - 26;

			for (unsigned int j = 0; is_move && j < 4; j++)
				if (in->dst.mask & (1u << j))
					same &= same_copy(
						&known[r][in->dst.off + j],
						&lanes[j]);
			if (same && in->dst.mask)
				continue;
			forget_writes(mf, in, known);
			for (unsigned int j = 0; is_move && j < 4; j++)
				if (in->dst.mask & (1u << j))
					known[r][in->dst.off + j] = lanes[j];
			blk->instrs[kept++] = blk->instrs[i];
		}
		blk->num = kept;
	}
}

/* Reads and writes of each vreg: what spilling it costs. */
static uint32_t *access_counts(const struct mi_func *mf)
{
	uint32_t *n = sir_xcalloc(mf->num_vregs + 1, sizeof(*n));

	for (uint32_t b = 0; b < mf->num_blocks; b++)
		for (uint32_t i = 0; i < mf->blocks[b].num; i++) {
			const struct mi_instr *in = &mf->blocks[b].instrs[i];

			for (int k = 0; k < 2; k++)
				if (in->src[k].kind == MO_VREG)
					n[in->src[k].reg]++;
			if (in->dst.kind == MO_VREG)
				n[in->dst.reg]++;
		}
	return n;
}

/*
 * The vreg to spill when v found no slot: among v and the neighbours
 * holding the slots it needed, the one live across the most others for
 * the fewest loads and stores (the lowest-numbered of equals). MI_NONE
 * when none may be spilled.
 */
static uint32_t spill_choice(const struct mi_func *mf, const struct graph *g,
			     uint32_t v, const bool *done)
{
	uint32_t *acc = access_counts(mf), best = MI_NONE;
	double best_gain = 0;

	for (uint32_t k = 0; k <= g->adj[v].num; k++) {
		uint32_t u = k < g->adj[v].num ? g->adj[v].v[k] : v;
		double gain;

		if ((u != v && (!done[u] || g->dead[u])) ||
		    mf->vregs[u].no_spill)
			continue;
		gain = (double)g->degree[u] / (1.0 + acc[u]);
		if (best == MI_NONE || gain > best_gain ||
		    (gain == best_gain && u < best)) {
			best = u;
			best_gain = gain;
		}
	}
	free(acc);
	return best;
}

bool mbe_ra(struct mi_func *mf, unsigned int max_regs, char *err,
	    size_t errsz)
{
	uint32_t spill_base = (mf->private_bytes + 15u) & ~15u, slots = 0;
	bool *touched = sir_xcalloc(mf->num_blocks + 1, sizeof(*touched));
	bool *done = NULL;
	uint32_t start = 0;
	struct graph g;

	build_graph(mf, &g);
	for (unsigned int round = 0; round < MAX_RA_ROUNDS; round++) {
		uint32_t v, victim = MI_NONE, old_n = mf->num_vregs;

		/*
		 * Greedy colouring in index order: the vregs before the last
		 * victim have the same lower-numbered neighbours as in the
		 * last round (the spill changed only the victim's edges and
		 * added higher-numbered temporaries), so they keep their
		 * slots.
		 */
		done = sir_xrealloc(done, (mf->num_vregs + 1) * sizeof(*done));
		memset(done + start, 0,
		       (mf->num_vregs + 1 - start) * sizeof(*done));
		v = colour(mf, &g, max_regs, done, start);
		if (v == MI_NONE) {
			mf->work_regs = used_regs(mf);
			drop_self_moves(mf);
			drop_repeated_arg_moves(mf);
			if (slots)
				mf->private_bytes = spill_base + 16 * slots;
			free(done);
			free_graph(&g);
			free(touched);
			return true;
		}
		victim = spill_choice(mf, &g, v, done);
		if (victim == MI_NONE)
			break;
		spill(mf, victim, (int32_t)(spill_base + 16 * slots), touched);
		mf->vregs[victim].no_spill = true;
		slots++;
		graph_after_spill(mf, &g, victim, old_n, touched);
		start = victim;
	}
	free(done);
	free_graph(&g);
	free(touched);
	snprintf(err, errsz, "mdg: register allocation failed within %u "
		 "work registers", max_regs);
	return false;
}
