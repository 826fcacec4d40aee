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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdg_internal.h"

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
static bool fit_consts(struct mdg_sbundle *b, const struct node *n)
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
	if (in->op == 0xC0 || in->op == 0xC4 || in->mode64 || in->lane_bits)
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

struct block_sched {
	const struct mi_func *mf;
	struct node *nodes;
	uint32_t n;
	uint8_t *dep;                /* n x n: dep[i * n + j], i < j */
	struct mdg_sblock *out;
};

static struct mdg_sbundle *new_bundle(struct mdg_sblock *sb, uint8_t kind)
{
	if (sb->num == sb->cap) {
		sb->cap = sb->cap ? 2 * sb->cap : 16;
		sb->b = sir_xrealloc(sb->b, sb->cap * sizeof(*sb->b));
	}
	memset(&sb->b[sb->num], 0, sizeof(*sb->b));
	sb->b[sb->num].kind = kind;
	return &sb->b[sb->num++];
}

/* Preds of j all scheduled before bundle cur (or, when in_stage1 is
 * non-NULL, in bundle cur on a stage-1 unit: *in_stage1 set). */
static bool ready(const struct block_sched *s, uint32_t j, int cur,
		  bool *in_cur)
{
	*in_cur = false;
	for (uint32_t i = 0; i < j; i++) {
		const struct node *p = &s->nodes[i];

		if (!s->dep[(size_t)i * s->n + j])
			continue;
		if (p->bundle < 0)
			return false;
		if (p->bundle == cur) {
			if (p->in[0] || p->in[1]->kind != MI_ALU ||
			    !mi_op_is_stage1((enum mdg_unit)p->unit[1]))
				return false;
			*in_cur = true;
		}
	}
	return true;
}

static bool place_alu(struct block_sched *s, struct mdg_sbundle *b,
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
	struct mdg_sbundle save = *b;

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
		n->bundle = cur;
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
			n->bundle = cur;
			return true;
		}
	}
	return false;
}

static uint32_t best_ready(struct block_sched *s, int cur, bool allow_cond)
{
	uint32_t best = MI_NONE;
	bool in_cur;

	for (uint32_t j = 0; j < s->n; j++) {
		struct node *n = &s->nodes[j];

		if (n->bundle >= 0 || (n->cond && !allow_cond))
			continue;
		if (!ready(s, j, cur, &in_cur) || in_cur)
			continue;
		if (best == MI_NONE || n->height > s->nodes[best].height)
			best = j;
	}
	return best;
}

static void schedule_block(const struct mi_func *mf, struct mi_block *blk,
			   struct mdg_sblock *out)
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
		instr_rw(mf, in, &n->rw);
		n->mem_read |= in->mem_read;
		n->mem_write |= in->mem_write;
		n->fence = in->kind == MI_BARRIER;
		n->cond = in->branch_cond;
		if (in->kind == MI_ALU)
			collect_consts(n, in);
	}
	s.dep = sir_xcalloc((size_t)s.n * s.n + 1, 1);
	for (uint32_t j = 0; j < s.n; j++)
		for (uint32_t i = 0; i < j; i++)
			s.dep[(size_t)i * s.n + j] =
				depends(&s.nodes[i], &s.nodes[j]);
	for (uint32_t i = s.n; i-- > 0;) {
		uint32_t h = 1;

		for (uint32_t j = i + 1; j < s.n; j++)
			if (s.dep[(size_t)i * s.n + j] &&
			    s.nodes[j].height + 1 > h)
				h = s.nodes[j].height + 1;
		s.nodes[i].height = h;
	}

	left = s.n;
	while (left) {
		int cur = (int)out->num;
		uint32_t j = best_ready(&s, cur, left == 1);
		struct node *n = &s.nodes[j];
		struct mdg_sbundle *b;

		if (j == MI_NONE)
			break;                   /* cannot happen: a DAG */
		if (n->fence) {
			b = new_bundle(out, MDG_KIND_TEXTURE);
			n->bundle = cur;
			left--;
			continue;
		}
		if (n->in[1]->kind == MI_LDST) {
			b = new_bundle(out, MDG_KIND_LDST);
			b->ldst[0] = n->in[1];
			n->bundle = cur;
			left--;
			for (uint32_t k = 0; k < s.n; k++) {
				struct node *m = &s.nodes[k];
				bool in_cur;

				if (m->bundle >= 0 || m->fence || m->cond ||
				    m->in[1]->kind != MI_LDST ||
				    !ready(&s, k, cur, &in_cur) || in_cur)
					continue;
				if (depends(n, m))
					continue;
				b->ldst[1] = m->in[1];
				m->bundle = cur;
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
				for (uint32_t k = 0; k < s.n; k++) {
					struct node *m = &s.nodes[k];

					if (m->bundle >= 0 || m->fence ||
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
	free(s.dep);
	free(s.nodes);
}

/* Branches: the block's terminator on its last bundle(s). */
static void finish_block(const struct mi_func *mf, uint32_t bi,
			 struct mdg_sblock *sb)
{
	const struct mi_block *blk = &mf->blocks[bi];
	struct mdg_sbundle *last = sb->num ? &sb->b[sb->num - 1] : NULL;

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

bool mdg_schedule(struct mi_func *mf, struct mdg_schedule *s, char *err,
		  size_t errsz)
{
	s->num_blocks = mf->num_blocks;
	s->blocks = sir_xcalloc(mf->num_blocks, sizeof(*s->blocks));
	for (uint32_t b = 0; b < mf->num_blocks; b++) {
		struct mi_block *blk = &mf->blocks[b];
		uint32_t scheduled = 0;

		schedule_block(mf, blk, &s->blocks[b]);
		for (uint32_t k = 0; k < s->blocks[b].num; k++) {
			const struct mdg_sbundle *x = &s->blocks[b].b[k];

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

void mdg_schedule_free(struct mdg_schedule *s)
{
	for (uint32_t b = 0; b < s->num_blocks; b++)
		free(s->blocks[b].b);
	free(s->blocks);
	memset(s, 0, sizeof(s->num_blocks));
	s->blocks = NULL;
}
