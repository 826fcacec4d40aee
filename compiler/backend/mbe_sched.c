/* SPDX-License-Identifier: MIT */
/*
 * Scheduling, after register allocation: per block, a dependency graph over
 * physical register components (read/write, write/read, write/write) and
 * memory order, then list scheduling by height into bundles. An ALU bundle
 * takes at most one instruction per unit (VMUL, SADD, VADD, SMUL, VLUT);
 * instructions of one stage are independent, and a stage-2 instruction
 * (VADD, SMUL, VLUT) may depend on a stage-1 one (VMUL, SADD) of the same
 * bundle. A csel travels with its r31 move (stage 1 + stage 2 of one
 * bundle); the branch condition goes into the block's last ALU bundle with
 * the branch. Load/store bundles pair two independent words. Constants of
 * a bundle's instructions share its four 32-bit words.
 *
 * Linear in the block's size: the graph keeps, per register component,
 * only the edges from its last writer and from its readers since then
 * (and likewise for memory and fences), which has the same transitive
 * closure, so the same readiness and heights, as "every pair that
 * conflicts"; ready nodes wait in a heap by height and in a bitset by
 * index, and a node's readiness in the open bundle is kept up to date as
 * its predecessors are placed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbe_internal.h"

struct rw {
	uint8_t rd[32], wr[32];
};

struct node {
	struct mi_instr *in[2];      /* [0] r31 move of a glued csel */
	struct rw rw;
	uint32_t height;
	int bundle;                  /* -1 until scheduled */
	int unit[2];
	bool mem_read, mem_write, fence, cond;
	uint32_t consts[8];
	unsigned int num_consts;
	uint32_t waiting;            /* predecessors not yet scheduled */
	/* Bundle in which a predecessor went that a consumer may not join
	 * (blocked), or that it may join in stage 2 (joined); -1: none. */
	int blocked, joined;
};

static void add_src_reads(const struct mi_func *mf, const struct mi_instr *in,
			  const struct mi_src *s, struct rw *rw)
{
	unsigned int reg, comp, dreg, dcomp;
	bool reduce = mdg_alu_op_info(in->op)->flags & MDG_OP_REDUCE;

	if (s->kind != MO_VREG && s->kind != MO_PHYS)
		return;
	mi_src_place(mf, s, &reg, &comp);
	mi_dst_place(mf, &in->dst, &dreg, &dcomp);
	(void)dreg;
	for (unsigned int j = 0; j < 4; j++)
		if (reduce || (in->dst.mask & (1u << j)))
			rw->rd[reg] |= (uint8_t)(1u << ((comp + s->swz[j]) & 3));
}

static void instr_rw(const struct mi_func *mf, const struct mi_instr *in,
		     struct rw *rw)
{
	unsigned int reg, comp;

	if (in->kind == MI_ALU) {
		add_src_reads(mf, in, &in->src[0], rw);
		add_src_reads(mf, in, &in->src[1], rw);
		if (mdg_alu_op_info(in->op)->flags & MDG_OP_CSEL)
			rw->rd[31] = 0xF;
	}
	if (in->kind == MI_LDST) {
		rw->rd[26] |= in->phys_reads[0];
		rw->rd[27] |= in->phys_reads[1];
	}
	if (in->kind == MI_TEX)
		rw->rd[28] = 0xF;
	if (in->dst.kind != MO_NONE) {
		mi_dst_place(mf, &in->dst, &reg, &comp);
		if (reg == 31 || comp > 3)
			rw->wr[reg] = 0xF;
		else
			rw->wr[reg] |= (uint8_t)((in->dst.mask << comp) & 0xF);
	}
}

static bool overlaps(const uint8_t *a, const uint8_t *b)
{
	for (int r = 0; r < 32; r++)
		if (a[r] & b[r])
			return true;
	return false;
}

static bool depends(const struct node *a, const struct node *b)
{
	if (a->fence || b->fence)
		return true;
	if ((a->mem_write && (b->mem_read || b->mem_write)) ||
	    (b->mem_write && a->mem_read))
		return true;
	return overlaps(a->rw.wr, b->rw.rd) || overlaps(a->rw.rd, b->rw.wr) ||
	       overlaps(a->rw.wr, b->rw.wr);
}

static void collect_consts(struct node *n, const struct mi_instr *in)
{
	for (int k = 0; k < 2; k++) {
		const struct mi_src *s = &in->src[k];

		if (s->kind != MO_CONST)
			continue;
		for (unsigned int j = 0; j < 4; j++) {
			bool have = false;

			if (!(in->dst.mask & (1u << j)) &&
			    !(mdg_alu_op_info(in->op)->flags & MDG_OP_REDUCE))
				continue;
			for (unsigned int c = 0; c < n->num_consts; c++)
				have |= n->consts[c] == s->cval[j];
			if (!have && n->num_consts < 8)
				n->consts[n->num_consts++] = s->cval[j];
		}
	}
}

/* Adds n's constants to the bundle's pool; false when they do not fit. */
static bool fit_consts(struct mbe_sbundle *b, const struct node *n)
{
	uint32_t pool[4];
	unsigned int np = b->num_consts;

	memcpy(pool, b->consts, sizeof(pool));
	for (unsigned int c = 0; c < n->num_consts; c++) {
		bool have = false;

		for (unsigned int k = 0; k < np; k++)
			have |= pool[k] == n->consts[c];
		if (have)
			continue;
		if (np == 4)
			return false;
		pool[np++] = n->consts[c];
	}
	memcpy(b->consts, pool, sizeof(pool));
	b->num_consts = (uint8_t)np;
	return true;
}

static bool scalar_ok(const struct mi_instr *in)
{
	const struct mdg_alu_op_info *info = mdg_alu_op_info(in->op);

	if (info->flags & (MDG_OP_REDUCE | MDG_OP_LUT))
		return false;
	if (in->op == MDG_ALU_ICSEL_V || in->op == MDG_ALU_FCSEL_V ||
	    in->mode64 || in->lane_bits)
		return false;
	return in->dst.mask && !(in->dst.mask & (in->dst.mask - 1)) &&
	       !(in->dst.kind == MO_PHYS && in->dst.off > 3);
}

static bool unit_ok(const struct mi_instr *in, int u)
{
	if (!(in->units & MDG_UNIT_MASK(u)))
		return false;
	if (mdg_unit_is_scalar((enum mdg_unit)u) && !scalar_ok(in))
		return false;
	return true;
}

/* A growable list of node indexes. */
struct ulist {
	uint32_t *v, n, cap;
};

static void ulist_push(struct ulist *l, uint32_t x)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = sir_xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = x;
}

struct block_sched {
	const struct mi_func *mf;
	struct node *nodes;
	uint32_t n;
	/* Dependence edges, i < j, as index lists: preds of j in
	 * pred[pred_start[j]..pred_start[j + 1]), succs likewise. */
	uint32_t *pred_start, *pred, *succ_start, *succ;
	/* Unscheduled nodes whose predecessors are all scheduled. */
	uint64_t *ready_bits;
	uint32_t *heap, heap_n;      /* the same, by height (lazy removal) */
	struct mbe_sblock *out;
};

static struct mbe_sbundle *new_bundle(struct mbe_sblock *sb, uint8_t kind)
{
	if (sb->num == sb->cap) {
		sb->cap = sb->cap ? 2 * sb->cap : 16;
		sb->b = sir_xrealloc(sb->b, sb->cap * sizeof(*sb->b));
	}
	memset(&sb->b[sb->num], 0, sizeof(*sb->b));
	sb->b[sb->num].kind = kind;
	return &sb->b[sb->num++];
}

/* Heap order: greater height first, then lower index. */
static bool heap_before(const struct block_sched *s, uint32_t a, uint32_t b)
{
	if (s->nodes[a].height != s->nodes[b].height)
		return s->nodes[a].height > s->nodes[b].height;
	return a < b;
}

static void heap_push(struct block_sched *s, uint32_t j)
{
	uint32_t i = s->heap_n++;

	while (i && heap_before(s, j, s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = j;
}

static uint32_t heap_pop(struct block_sched *s)
{
	uint32_t top = s->heap[0], last = s->heap[--s->heap_n], i = 0;

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= s->heap_n)
			break;
		if (c + 1 < s->heap_n && heap_before(s, s->heap[c + 1],
						      s->heap[c]))
			c++;
		if (!heap_before(s, s->heap[c], last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->heap_n)
		s->heap[i] = last;
	return top;
}

/* Next ready node of index >= from, or MI_NONE. */
static uint32_t next_ready(const struct block_sched *s, uint32_t from)
{
	uint32_t w = from / 64;
	uint64_t bits;

	if (from >= s->n)
		return MI_NONE;
	bits = s->ready_bits[w] & (~0ull << (from % 64));
	while (!bits) {
		if (++w >= (s->n + 63) / 64)
			return MI_NONE;
		bits = s->ready_bits[w];
	}
	return w * 64 + (uint32_t)__builtin_ctzll(bits);
}

/*
 * Node j placed in bundle cur: its successors may now be ready, in cur
 * itself only in stage 2 behind an unglued stage-1 ALU instruction.
 */
static void scheduled(struct block_sched *s, uint32_t j, int cur)
{
	struct node *p = &s->nodes[j];
	bool joinable = !p->in[0] && p->in[1]->kind == MI_ALU &&
			mi_op_is_stage1((enum mdg_unit)p->unit[1]);

	p->bundle = cur;
	s->ready_bits[j / 64] &= ~(1ull << (j % 64));
	for (uint32_t e = s->succ_start[j]; e < s->succ_start[j + 1]; e++) {
		uint32_t k = s->succ[e];
		struct node *m = &s->nodes[k];

		if (joinable)
			m->joined = cur;
		else
			m->blocked = cur;
		if (--m->waiting == 0) {
			s->ready_bits[k / 64] |= 1ull << (k % 64);
			heap_push(s, k);
		}
	}
}

/* Preds of j all scheduled before bundle cur, or in bundle cur on a
 * stage-1 unit (*in_cur set). */
static bool ready(const struct block_sched *s, uint32_t j, int cur,
		  bool *in_cur)
{
	const struct node *n = &s->nodes[j];

	*in_cur = n->joined == cur;
	return !n->waiting && n->blocked != cur;
}

static bool place_alu(struct block_sched *s, struct mbe_sbundle *b,
		      uint32_t j, int cur, uint8_t *used)
{
	/* Stage 1 first, so that consumers may join in stage 2. */
	static const int order_scalar[] = {
		MDG_UNIT_SADD, MDG_UNIT_VMUL, MDG_UNIT_SMUL, MDG_UNIT_VADD,
		MDG_UNIT_VLUT,
	};
	static const int order_vec[] = {
		MDG_UNIT_VMUL, MDG_UNIT_VADD, MDG_UNIT_VLUT,
	};
	struct node *n = &s->nodes[j];
	bool in_cur;
	struct mbe_sbundle save = *b;

	if (!ready(s, j, cur, &in_cur))
		return false;
	if (n->in[0]) {
		/* r31 move in stage 1, csel in stage 2. */
		int mu = -1, cu = -1;

		if (in_cur)
			return false;
		if (!(*used & MDG_UNIT_MASK(MDG_UNIT_VMUL)) &&
		    unit_ok(n->in[0], MDG_UNIT_VMUL))
			mu = MDG_UNIT_VMUL;
		else if (!(*used & MDG_UNIT_MASK(MDG_UNIT_SADD)) &&
			 unit_ok(n->in[0], MDG_UNIT_SADD))
			mu = MDG_UNIT_SADD;
		if (!(*used & MDG_UNIT_MASK(MDG_UNIT_SMUL)) &&
		    unit_ok(n->in[1], MDG_UNIT_SMUL))
			cu = MDG_UNIT_SMUL;
		else if (!(*used & MDG_UNIT_MASK(MDG_UNIT_VADD)) &&
			 unit_ok(n->in[1], MDG_UNIT_VADD))
			cu = MDG_UNIT_VADD;
		if (mu < 0 || cu < 0 || (*used & (1u << 7)))
			return false;
		if (!fit_consts(b, n)) {
			*b = save;
			return false;
		}
		n->unit[0] = mu;
		n->unit[1] = cu;
		b->alu[mu] = n->in[0];
		b->alu[cu] = n->in[1];
		*used |= (uint8_t)(MDG_UNIT_MASK(mu) | MDG_UNIT_MASK(cu) |
				   1u << 7);  /* bit 7: r31 taken */
		scheduled(s, j, cur);
		return true;
	}
	{
		const int *order = scalar_ok(n->in[1]) ? order_scalar :
				   order_vec;
		int cnt = scalar_ok(n->in[1]) ? 5 : 3;

		if (n->rw.wr[31] && (*used & (1u << 7)))
			return false;
		for (int k = 0; k < cnt; k++) {
			int u = order[k];

			if ((*used & MDG_UNIT_MASK(u)) || !unit_ok(n->in[1], u))
				continue;
			if (in_cur && mi_op_is_stage1((enum mdg_unit)u))
				continue;
			if (!fit_consts(b, n)) {
				*b = save;
				return false;
			}
			n->unit[1] = u;
			b->alu[u] = n->in[1];
			*used |= (uint8_t)MDG_UNIT_MASK(u);
			if (n->rw.wr[31])
				*used |= 1u << 7;
			scheduled(s, j, cur);
			return true;
		}
	}
	return false;
}

/*
 * The ready node of greatest height (lowest index on a tie); the branch
 * condition only when it is the last node left. Bundle cur is still
 * empty, so readiness is "every predecessor scheduled".
 */
static uint32_t best_ready(struct block_sched *s, bool allow_cond)
{
	uint32_t cond = MI_NONE, best = MI_NONE;

	while (s->heap_n) {
		uint32_t j = heap_pop(s);

		if (s->nodes[j].bundle >= 0)
			continue;                /* placed by pairing */
		if (s->nodes[j].cond && !allow_cond) {
			cond = j;
			continue;
		}
		best = j;
		break;
	}
	if (cond != MI_NONE)
		heap_push(s, cond);
	return best;
}

/*
 * Dependence edges with the transitive closure of depends(): per register
 * component the last writer and the readers since it, the same for
 * memory, and fences ordered against everything.
 */
struct dep_state {
	uint32_t last_wr[32 * 8];
	struct ulist readers[32 * 8];
	uint32_t last_mem_wr;
	struct ulist mem_readers;
	uint32_t last_fence;
	struct ulist since_fence;
	uint32_t *seen;              /* per node: last j it was a pred of */
	struct ulist edges;          /* preds of the nodes so far, in order */
};

static void add_pred(struct dep_state *d, uint32_t i, uint32_t j)
{
	if (i == MI_NONE || d->seen[i] == j)
		return;
	d->seen[i] = j;
	ulist_push(&d->edges, i);
}

static void build_deps(struct block_sched *s)
{
	struct dep_state d;
	uint32_t n = s->n, c, e;

	memset(&d, 0, sizeof(d));
	for (c = 0; c < 32 * 8; c++)
		d.last_wr[c] = MI_NONE;
	d.last_mem_wr = MI_NONE;
	d.last_fence = MI_NONE;
	d.seen = sir_xcalloc(n + 1, sizeof(*d.seen));
	for (uint32_t i = 0; i < n; i++)
		d.seen[i] = MI_NONE;
	s->pred_start = sir_xcalloc(n + 1, sizeof(*s->pred_start));
	for (uint32_t j = 0; j < n; j++) {
		const struct node *m = &s->nodes[j];

		s->pred_start[j] = d.edges.n;
		add_pred(&d, d.last_fence, j);
		if (m->fence) {
			for (e = 0; e < d.since_fence.n; e++)
				add_pred(&d, d.since_fence.v[e], j);
		}
		if (m->mem_read || m->mem_write)
			add_pred(&d, d.last_mem_wr, j);
		if (m->mem_write) {
			for (e = 0; e < d.mem_readers.n; e++)
				add_pred(&d, d.mem_readers.v[e], j);
		}
		for (c = 0; c < 32 * 8; c++) {
			uint8_t bit = (uint8_t)(1u << (c % 8));

			if ((m->rw.rd[c / 8] | m->rw.wr[c / 8]) & bit)
				add_pred(&d, d.last_wr[c], j);
			if (m->rw.wr[c / 8] & bit) {
				for (e = 0; e < d.readers[c].n; e++)
					add_pred(&d, d.readers[c].v[e], j);
			}
		}
		/* Then j joins the state. */
		if (m->fence) {
			d.last_fence = j;
			d.since_fence.n = 0;
		} else {
			ulist_push(&d.since_fence, j);
		}
		if (m->mem_write) {
			d.last_mem_wr = j;
			d.mem_readers.n = 0;
		} else if (m->mem_read) {
			ulist_push(&d.mem_readers, j);
		}
		for (c = 0; c < 32 * 8; c++) {
			uint8_t bit = (uint8_t)(1u << (c % 8));

			if (m->rw.wr[c / 8] & bit) {
				d.last_wr[c] = j;
				d.readers[c].n = 0;
			} else if (m->rw.rd[c / 8] & bit) {
				ulist_push(&d.readers[c], j);
			}
		}
	}
	s->pred_start[n] = d.edges.n;
	s->pred = d.edges.v;
	for (c = 0; c < 32 * 8; c++)
		free(d.readers[c].v);
	free(d.mem_readers.v);
	free(d.since_fence.v);
	free(d.seen);

	/* Successor lists from the predecessor lists. */
	s->succ_start = sir_xcalloc(n + 2, sizeof(*s->succ_start));
	s->succ = sir_xcalloc(s->pred_start[n] + 1, sizeof(*s->succ));
	for (e = 0; e < s->pred_start[n]; e++)
		s->succ_start[s->pred[e] + 2]++;
	for (uint32_t i = 0; i < n; i++)
		s->succ_start[i + 2] += s->succ_start[i + 1];
	for (uint32_t j = 0; j < n; j++)
		for (e = s->pred_start[j]; e < s->pred_start[j + 1]; e++)
			s->succ[s->succ_start[s->pred[e] + 1]++] = j;
	for (uint32_t j = 0; j < n; j++)
		s->nodes[j].waiting = s->pred_start[j + 1] - s->pred_start[j];
}

static void schedule_block(const struct mi_func *mf, struct mi_block *blk,
			   struct mbe_sblock *out)
{
	struct block_sched s;
	uint32_t left;

	memset(&s, 0, sizeof(s));
	s.mf = mf;
	s.out = out;
	s.nodes = sir_xcalloc(blk->num + 1, sizeof(*s.nodes));
	for (uint32_t i = 0; i < blk->num; i++) {
		struct mi_instr *in = &blk->instrs[i];
		struct node *n;

		if (in->glued && s.n && !s.nodes[s.n - 1].in[0] &&
		    s.nodes[s.n - 1].in[1] == in - 1) {
			n = &s.nodes[s.n - 1];
			n->in[0] = in - 1;
		} else {
			n = &s.nodes[s.n++];
		}
		n->in[1] = in;
		n->bundle = -1;
		n->blocked = -1;
		n->joined = -1;
		instr_rw(mf, in, &n->rw);
		n->mem_read |= in->mem_read;
		n->mem_write |= in->mem_write;
		n->fence = in->kind == MI_BARRIER;
		n->cond = in->branch_cond;
		if (in->kind == MI_ALU)
			collect_consts(n, in);
	}
	build_deps(&s);
	for (uint32_t i = s.n; i-- > 0;) {
		uint32_t h = 1;

		for (uint32_t e = s.succ_start[i]; e < s.succ_start[i + 1];
		     e++)
			if (s.nodes[s.succ[e]].height + 1 > h)
				h = s.nodes[s.succ[e]].height + 1;
		s.nodes[i].height = h;
	}
	s.ready_bits = sir_xcalloc((s.n + 63) / 64 + 1,
				   sizeof(*s.ready_bits));
	s.heap = sir_xcalloc(s.n + 1, sizeof(*s.heap));
	for (uint32_t j = 0; j < s.n; j++) {
		if (!s.nodes[j].waiting) {
			s.ready_bits[j / 64] |= 1ull << (j % 64);
			heap_push(&s, j);
		}
	}

	left = s.n;
	while (left) {
		int cur = (int)out->num;
		uint32_t j = best_ready(&s, left == 1);
		struct node *n;
		struct mbe_sbundle *b;

		if (j == MI_NONE)
			break;                   /* cannot happen: a DAG */
		n = &s.nodes[j];
		if (n->fence || n->in[1]->kind == MI_TEX) {
			b = new_bundle(out, MDG_KIND_TEXTURE);
			b->tex = n->fence ? NULL : n->in[1];
			scheduled(&s, j, cur);
			left--;
			continue;
		}
		if (n->in[1]->kind == MI_LDST) {
			b = new_bundle(out, MDG_KIND_LDST);
			b->ldst[0] = n->in[1];
			scheduled(&s, j, cur);
			left--;
			for (uint32_t k = next_ready(&s, 0); k != MI_NONE;
			     k = next_ready(&s, k + 1)) {
				struct node *m = &s.nodes[k];
				bool in_cur;

				if (m->fence || m->cond ||
				    m->in[1]->kind != MI_LDST ||
				    !ready(&s, k, cur, &in_cur) || in_cur)
					continue;
				if (depends(n, m))
					continue;
				b->ldst[1] = m->in[1];
				scheduled(&s, k, cur);
				left--;
				break;
			}
			continue;
		}
		b = new_bundle(out, MDG_KIND_ALU);
		{
			uint8_t used = 0;
			bool added = true;

			if (place_alu(&s, b, j, cur, &used))
				left--;
			while (added) {
				added = false;
				for (uint32_t k = next_ready(&s, 0);
				     k != MI_NONE; k = next_ready(&s, k + 1)) {
					struct node *m = &s.nodes[k];

					if (m->fence ||
					    m->in[1]->kind != MI_ALU ||
					    (m->cond && left != 1))
						continue;
					if (place_alu(&s, b, k, cur, &used)) {
						left--;
						added = true;
					}
				}
			}
		}
	}
	free(s.pred_start);
	free(s.pred);
	free(s.succ_start);
	free(s.succ);
	free(s.ready_bits);
	free(s.heap);
	free(s.nodes);
}

/* Branches: the block's terminator on its last bundle(s). */
static void finish_block(const struct mi_func *mf, uint32_t bi,
			 struct mbe_sblock *sb)
{
	const struct mi_block *blk = &mf->blocks[bi];
	struct mbe_sbundle *last = sb->num ? &sb->b[sb->num - 1] : NULL;

	switch (blk->term) {
	case MT_RET:
		if (!last)
			last = new_bundle(sb, MDG_KIND_ALU);
		last->ends = true;
		break;
	case MT_BR:
		if (blk->succ[0] == bi + 1)
			break;
		if (!last || last->kind != MDG_KIND_ALU || last->branch)
			last = new_bundle(sb, MDG_KIND_ALU);
		last->branch = true;
		last->branch_cond = MDG_COND_ALWAYS;
		last->target = blk->succ[0];
		break;
	case MT_CBR:
		last->branch = true;
		if (blk->succ[0] == bi + 1) {
			last->branch_cond = MDG_COND_FALSE;
			last->target = blk->succ[1];
			break;
		}
		last->branch_cond = MDG_COND_TRUE;
		last->target = blk->succ[0];
		if (blk->succ[1] != bi + 1) {
			last = new_bundle(sb, MDG_KIND_ALU);
			last->branch = true;
			last->branch_cond = MDG_COND_ALWAYS;
			last->target = blk->succ[1];
		}
		break;
	default:
		break;
	}
}

bool mbe_schedule(struct mi_func *mf, struct mbe_schedule *s, char *err,
		  size_t errsz)
{
	s->num_blocks = mf->num_blocks;
	s->blocks = sir_xcalloc(mf->num_blocks, sizeof(*s->blocks));
	for (uint32_t b = 0; b < mf->num_blocks; b++) {
		struct mi_block *blk = &mf->blocks[b];
		uint32_t scheduled = 0;

		schedule_block(mf, blk, &s->blocks[b]);
		for (uint32_t k = 0; k < s->blocks[b].num; k++) {
			const struct mbe_sbundle *x = &s->blocks[b].b[k];

			for (int u = 0; u < MDG_UNIT_COUNT; u++)
				scheduled += x->alu[u] != NULL;
			scheduled += (x->ldst[0] != NULL) + (x->ldst[1] != NULL);
			scheduled += x->kind == MDG_KIND_TEXTURE;
		}
		if (scheduled != blk->num) {
			snprintf(err, errsz, "mdg: scheduling block %u left "
				 "%u of %u instructions", b,
				 blk->num - scheduled, blk->num);
			return false;
		}
		if (blk->term == MT_CBR &&
		    (!s->blocks[b].num ||
		     s->blocks[b].b[s->blocks[b].num - 1].kind != MDG_KIND_ALU)) {
			snprintf(err, errsz, "mdg: block %u: branch condition "
				 "not in the last bundle", b);
			return false;
		}
		finish_block(mf, b, &s->blocks[b]);
	}
	return true;
}

void mbe_schedule_free(struct mbe_schedule *s)
{
	for (uint32_t b = 0; b < s->num_blocks; b++)
		free(s->blocks[b].b);
	free(s->blocks);
	memset(s, 0, sizeof(s->num_blocks));
	s->blocks = NULL;
}
