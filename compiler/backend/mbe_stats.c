/* SPDX-License-Identifier: MIT */
/*
 * Static statistics, as the Mali Offline Compiler reports them: bundles per
 * kind, instructions per unit, load/store and branch instructions, and
 * cycles per pipe (arithmetic ceil(ALU bundles / 2), load/store bundles,
 * texture bundles: the model's cycle model) along the shortest and the
 * longest path from the entry to a return. Back edges are dropped, so a
 * loop body counts once and longest_unbounded says so.
 */
#include <stdlib.h>
#include <string.h>

#include "mbe_internal.h"

struct pathv {
	bool reached;
	uint32_t lo[3], hi[3];       /* ALU, LDST, TEX bundles */
};

/* Weights of a path: arithmetic cycles decide which path is longer. */
static uint32_t weight(const uint32_t v[3])
{
	uint32_t a = (v[0] + 1) / 2, m = a;

	if (v[1] > m)
		m = v[1];
	if (v[2] > m)
		m = v[2];
	return m * 4096 + a + v[1] + v[2];
}

void mbe_stats(const struct mi_func *mf, const struct mbe_schedule *s,
	       struct slb_stats *st)
{
	uint32_t nb = mf->num_blocks;
	uint32_t (*cnt)[3] = sir_xcalloc(nb, sizeof(*cnt));
	uint8_t *state = sir_xcalloc(nb, 1);
	uint32_t *order = sir_xcalloc(nb, sizeof(*order)), no = 0;
	uint32_t *stack = sir_xcalloc(nb * 3 + 1, sizeof(*stack)), sp = 0;
	struct pathv *pv = sir_xcalloc(nb, sizeof(*pv));
	bool have_end = false;
	uint32_t best_lo[3] = { 0 }, best_hi[3] = { 0 };

	for (uint32_t b = 0; b < nb; b++) {
		for (uint32_t k = 0; k < s->blocks[b].num; k++) {
			const struct mbe_sbundle *x = &s->blocks[b].b[k];

			if (x->kind == MDG_KIND_ALU) {
				st->alu_bundles++;
				cnt[b][0]++;
				for (int u = 0; u < MDG_UNIT_COUNT; u++)
					st->unit_instrs[u] += x->alu[u] != NULL;
				st->branch_instrs += x->branch;
			} else if (x->kind == MDG_KIND_LDST) {
				st->ldst_bundles++;
				cnt[b][1]++;
				st->ldst_instrs += (x->ldst[0] != NULL) +
						   (x->ldst[1] != NULL);
			} else {
				st->tex_bundles++;
				cnt[b][2]++;
			}
		}
	}

	/* Reverse post-order by DFS; an edge to a block on the stack is a
	 * back edge. */
	if (nb) {
		stack[sp++] = 0;
		state[0] = 1;
	}
	while (sp) {
		uint32_t b = stack[sp - 1], sx[2];
		int ns = mi_block_succs(&mf->blocks[b], sx);
		bool pushed = false;

		for (int k = 0; k < ns; k++) {
			if (state[sx[k]] == 1)
				st->longest_unbounded = true;
			if (state[sx[k]] == 0) {
				state[sx[k]] = 1;
				stack[sp++] = sx[k];
				pushed = true;
				break;
			}
		}
		if (!pushed) {
			state[b] = 2;
			order[no++] = b;
			sp--;
		}
	}
	/* Forward edges only, in topological (reverse post) order. */
	if (no) {
		pv[0].reached = true;
		for (int k = 0; k < 3; k++)
			pv[0].lo[k] = pv[0].hi[k] = cnt[0][k];
	}
	memset(state, 0, nb);
	for (uint32_t i = no; i-- > 0;) {
		uint32_t b = order[i], sx[2];
		int ns = mi_block_succs(&mf->blocks[b], sx);

		state[b] = 1;
		if (!pv[b].reached)
			continue;
		if (!ns) {
			if (!have_end || weight(pv[b].lo) < weight(best_lo))
				memcpy(best_lo, pv[b].lo, sizeof(best_lo));
			if (!have_end || weight(pv[b].hi) > weight(best_hi))
				memcpy(best_hi, pv[b].hi, sizeof(best_hi));
			have_end = true;
		}
		for (int k = 0; k < ns; k++) {
			struct pathv *t = &pv[sx[k]];
			uint32_t lo[3], hi[3];

			if (state[sx[k]])
				continue;        /* back edge */
			for (int c = 0; c < 3; c++) {
				lo[c] = pv[b].lo[c] + cnt[sx[k]][c];
				hi[c] = pv[b].hi[c] + cnt[sx[k]][c];
			}
			if (!t->reached || weight(lo) < weight(t->lo))
				memcpy(t->lo, lo, sizeof(lo));
			if (!t->reached || weight(hi) > weight(t->hi))
				memcpy(t->hi, hi, sizeof(hi));
			t->reached = true;
		}
	}
	st->shortest_cycles[0] = (best_lo[0] + 1) / 2;
	st->shortest_cycles[1] = best_lo[1];
	st->shortest_cycles[2] = best_lo[2];
	st->longest_cycles[0] = (best_hi[0] + 1) / 2;
	st->longest_cycles[1] = best_hi[1];
	st->longest_cycles[2] = best_hi[2];
	free(cnt);
	free(state);
	free(order);
	free(stack);
	free(pv);
}
