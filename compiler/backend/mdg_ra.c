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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdg_internal.h"

#define MAX_RA_ROUNDS 256

struct graph {
	uint32_t n, cap, words;      /* vregs, room for, words per row */
	uint64_t *adj;               /* cap x words bit matrix */
	uint32_t *degree;
	uint32_t num_blocks;
	uint64_t *out;               /* per block: vregs live out (words) */
};

static bool bit(const uint64_t *s, uint32_t i)
{
	return (s[i / 64] >> (i % 64)) & 1;
}

static void bset(uint64_t *s, uint32_t i)
{
	s[i / 64] |= 1ull << (i % 64);
}

static void bclr(uint64_t *s, uint32_t i)
{
	s[i / 64] &= ~(1ull << (i % 64));
}

static void add_edge(struct graph *g, uint32_t a, uint32_t b)
{
	if (a == b || bit(&g->adj[(size_t)a * g->words], b))
		return;
	bset(&g->adj[(size_t)a * g->words], b);
	bset(&g->adj[(size_t)b * g->words], a);
	g->degree[a]++;
	g->degree[b]++;
}

static void uses_of(const struct mi_instr *in, uint64_t *live)
{
	for (int k = 0; k < 2; k++)
		if (in->src[k].kind == MO_VREG)
			bset(live, in->src[k].reg);
}

/* Room in the graph for n vregs; rows keep their bits. */
static void graph_reserve(struct graph *g, uint32_t n)
{
	uint32_t cap, w;
	uint64_t *adj, *out;

	if (n <= g->cap)
		return;
	/* An eighth more: the matrix is cap^2 bits, and spills add a few
	 * temporaries at a time. */
	cap = g->cap + g->cap / 8 > n ? g->cap + g->cap / 8 : n;
	cap = (cap + 63) & ~63u;
	w = cap / 64;
	adj = sir_xcalloc((size_t)cap * w, 8);
	out = sir_xcalloc((size_t)g->num_blocks * w + 1, 8);
	for (uint32_t v = 0; g->words && v < g->cap; v++)
		memcpy(&adj[(size_t)v * w], &g->adj[(size_t)v * g->words],
		       g->words * 8);
	for (uint32_t b = 0; g->words && b < g->num_blocks; b++)
		memcpy(&out[(size_t)b * w], &g->out[(size_t)b * g->words],
		       g->words * 8);
	free(g->adj);
	free(g->out);
	g->adj = adj;
	g->out = out;
	g->degree = sir_xrealloc(g->degree, cap * sizeof(*g->degree));
	memset(g->degree + g->cap, 0, (cap - g->cap) * sizeof(*g->degree));
	g->cap = cap;
	g->words = w;
}

/*
 * Blocks in postorder of a depth-first walk from the entry (then any the
 * walk did not reach): a backward problem visited in this order sees a
 * block's successors first, so liveness settles in a number of sweeps set
 * by the loop nesting. In index order it could take a sweep per block:
 * inlining appends callee blocks after the caller's.
 */
static uint32_t *postorder(const struct mi_func *mf)
{
	uint32_t nb = mf->num_blocks, n = 0, sp = 0;
	uint32_t *order = sir_xcalloc(nb + 1, sizeof(*order));
	uint32_t *stack = sir_xcalloc(nb + 1, sizeof(*stack));
	uint8_t *next = sir_xcalloc(nb + 1, 1);   /* successor to visit */
	bool *seen = sir_xcalloc(nb + 1, sizeof(*seen));

	for (uint32_t root = 0; root < nb; root++) {
		if (seen[root])
			continue;
		seen[root] = true;
		stack[sp++] = root;
		while (sp) {
			uint32_t b = stack[sp - 1], succ[2];
			int ns = mi_block_succs(&mf->blocks[b], succ);

			if (next[b] < ns) {
				uint32_t c = succ[next[b]++];

				if (c < nb && !seen[c]) {
					seen[c] = true;
					stack[sp++] = c;
				}
				continue;
			}
			order[n++] = b;
			sp--;
		}
	}
	free(stack);
	free(next);
	free(seen);
	return order;
}

static void build_graph(const struct mi_func *mf, struct graph *g)
{
	uint32_t nb = mf->num_blocks, w;
	uint64_t *in, *out, *live;
	uint32_t *order = postorder(mf);
	bool changed = true;

	memset(g, 0, sizeof(*g));
	g->num_blocks = nb;
	/* At least one row: a function without vregs still has blocks. */
	graph_reserve(g, mf->num_vregs ? mf->num_vregs : 1);
	g->n = mf->num_vregs;
	w = g->words;
	in = sir_xcalloc((size_t)nb * w + 1, 8);
	out = g->out;
	live = sir_xcalloc(w + 1, 8);

	while (changed) {
		changed = false;
		for (uint32_t k = 0; k < nb; k++) {
			uint32_t bb = order[k];
			const struct mi_block *blk = &mf->blocks[bb];
			uint32_t s[2];
			int ns = mi_block_succs(blk, s);

			memset(live, 0, w * 8);
			for (int k = 0; k < ns; k++)
				for (uint32_t i = 0; i < w; i++)
					live[i] |= in[(size_t)s[k] * w + i];
			memcpy(&out[(size_t)bb * w], live, w * 8);
			for (uint32_t i = blk->num; i-- > 0;) {
				const struct mi_instr *mi = &blk->instrs[i];

				if (mi->dst.kind == MO_VREG && mi->kills)
					bclr(live, mi->dst.reg);
				uses_of(mi, live);
			}
			if (memcmp(live, &in[(size_t)bb * w], w * 8)) {
				memcpy(&in[(size_t)bb * w], live, w * 8);
				changed = true;
			}
		}
	}
	for (uint32_t bb = 0; bb < nb; bb++) {
		const struct mi_block *blk = &mf->blocks[bb];

		memcpy(live, &out[(size_t)bb * w], w * 8);
		for (uint32_t i = blk->num; i-- > 0;) {
			const struct mi_instr *mi = &blk->instrs[i];

			if (mi->dst.kind == MO_VREG) {
				uint32_t d = mi->dst.reg;

				for (uint32_t k = 0; k < w; k++) {
					uint64_t m = live[k];

					while (m) {
						uint32_t u = k * 64 +
							(uint32_t)__builtin_ctzll(m);

						m &= m - 1;
						add_edge(g, d, u);
					}
				}
				if (mi->kills)
					bclr(live, d);
			}
			uses_of(mi, live);
		}
	}
	free(in);
	free(live);
	free(order);
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
	uint64_t *row, *live;
	uint32_t w;

	/* At least one row: a function without vregs still has blocks. */
	graph_reserve(g, mf->num_vregs ? mf->num_vregs : 1);
	g->n = mf->num_vregs;
	w = g->words;
	row = &g->adj[(size_t)x * w];
	for (uint32_t k = 0; k < w; k++) {
		uint64_t m = row[k];

		while (m) {
			uint32_t u = k * 64 + (uint32_t)__builtin_ctzll(m);

			m &= m - 1;
			bclr(&g->adj[(size_t)u * w], x);
			g->degree[u]--;
		}
		row[k] = 0;
	}
	g->degree[x] = 0;
	for (uint32_t b = 0; b < g->num_blocks; b++)
		bclr(&g->out[(size_t)b * w], x);

	live = sir_xcalloc(w, 8);
	for (uint32_t bb = 0; bb < mf->num_blocks; bb++) {
		const struct mi_block *blk = &mf->blocks[bb];

		if (!touched[bb])
			continue;
		memcpy(live, &g->out[(size_t)bb * w], w * 8);
		for (uint32_t i = blk->num; i-- > 0;) {
			const struct mi_instr *mi = &blk->instrs[i];

			if (mi->dst.kind == MO_VREG) {
				uint32_t d = mi->dst.reg;
				/* Old vregs: only the edges to temporaries
				 * are new. */
				uint32_t from = d >= old_n ? 0 : old_n / 64;

				for (uint32_t k = from; k < w; k++) {
					uint64_t m = live[k];

					while (m) {
						uint32_t u = k * 64 +
							(uint32_t)__builtin_ctzll(m);

						m &= m - 1;
						if (d >= old_n || u >= old_n)
							add_edge(g, d, u);
					}
				}
				if (mi->kills)
					bclr(live, d);
			}
			uses_of(mi, live);
		}
	}
	free(live);
}

static void free_graph(struct graph *g)
{
	free(g->adj);
	free(g->degree);
	free(g->out);
}

/*
 * Atomics return the old value in component 0 of their register only (the
 * model writes their result's first word), so their destinations must
 * start there. Marks those vregs in at_x.
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

		for (uint32_t k = 0; k < g->words; k++) {
			uint64_t m = g->adj[(size_t)v * g->words + k];

			while (m) {
				uint32_t u = k * 64 + (uint32_t)__builtin_ctzll(m);

				m &= m - 1;
				if (done[u])
					occ[mf->vregs[u].reg] |= (uint8_t)(
						((1u << mf->vregs[u].size) - 1)
						<< mf->vregs[u].comp);
			}
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
	f->w.op = size == 1 ? 0x88 : size == 2 ? 0x8C : 0x90;
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
	m->op = 0x7B;
	m->units = mdg_alu_op_info(0x7B)->units;
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
	st->w.op = size == 1 ? 0xC8 : size == 2 ? 0xCC : 0xD0;
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

	if (in->kind != MI_ALU || in->op != 0x7B || in->mode64 ||
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

	if (in->kind != MI_ALU || in->op != 0x7B || in->mode64 ||
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
 * the fewest loads and stores. MI_NONE when none may be spilled.
 */
static uint32_t spill_choice(const struct mi_func *mf, const struct graph *g,
			     uint32_t v, const bool *done)
{
	uint32_t *acc = access_counts(mf), best = MI_NONE;
	double best_gain = 0;

	for (uint32_t u = 0; u < mf->num_vregs; u++) {
		double gain;

		if ((u != v && !(bit(&g->adj[(size_t)v * g->words], u) &&
				 done[u])) || mf->vregs[u].no_spill)
			continue;
		gain = (double)g->degree[u] / (1.0 + acc[u]);
		if (best == MI_NONE || gain > best_gain) {
			best = u;
			best_gain = gain;
		}
	}
	free(acc);
	return best;
}

bool mdg_ra(struct mi_func *mf, unsigned int max_regs, char *err,
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
