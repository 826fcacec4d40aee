/* SPDX-License-Identifier: MIT */
/*
 * Dominator tree of a function's reachable blocks, by the iterative
 * algorithm of Cooper, Harvey and Kennedy ("A Simple, Fast Dominance
 * Algorithm") over reverse postorder.
 */
#include "sir_pass_util.h"

#include <stdlib.h>

/* Reverse postorder by an explicit-stack depth-first walk from block 0. */
static void sir_dom_rpo(struct sir_dom *d, struct sir_function *f)
{
	uint32_t n = f->num_blocks, sp = 0, post = 0, i;
	uint32_t *stack = sir_xcalloc(n + 1, sizeof(*stack));
	uint32_t *next = sir_xcalloc(n + 1, sizeof(*next));
	uint32_t *order = sir_xcalloc(n + 1, sizeof(*order));
	bool *seen = sir_xcalloc(n + 1, sizeof(*seen));

	if (n) {
		stack[sp++] = 0;
		seen[0] = true;
	}
	while (sp) {
		uint32_t b = stack[sp - 1], succ[2];
		unsigned int ns = sirp_succs(f, b, succ);

		if (next[b] < ns) {
			uint32_t s = succ[next[b]++];

			if (s < n && !seen[s]) {
				seen[s] = true;
				stack[sp++] = s;
			}
			continue;
		}
		order[post++] = b;
		sp--;
	}
	d->num_rpo = post;
	for (i = 0; i < post; i++) {
		d->rpo[i] = order[post - 1 - i];
		d->rpo_index[d->rpo[i]] = i;
	}
	free(stack);
	free(next);
	free(order);
	free(seen);
}

static uint32_t sir_dom_intersect(const struct sir_dom *d, uint32_t a,
				  uint32_t b)
{
	while (a != b) {
		while (d->rpo_index[a] > d->rpo_index[b])
			a = d->idom[a];
		while (d->rpo_index[b] > d->rpo_index[a])
			b = d->idom[b];
	}
	return a;
}

void sirp_dom_compute(struct sir_dom *d, struct sir_function *f)
{
	uint32_t n = f->num_blocks, i, p;
	bool changed = true;

	sir_compute_preds(f);
	d->num_blocks = n;
	d->rpo = sir_xcalloc(n + 1, sizeof(*d->rpo));
	d->rpo_index = sir_xcalloc(n + 1, sizeof(*d->rpo_index));
	d->idom = sir_xcalloc(n + 1, sizeof(*d->idom));
	for (i = 0; i < n; i++) {
		d->rpo_index[i] = UINT32_MAX;
		d->idom[i] = UINT32_MAX;
	}
	sir_dom_rpo(d, f);
	if (n)
		d->idom[0] = 0;
	while (changed) {
		changed = false;
		for (i = 1; i < d->num_rpo; i++) {
			uint32_t b = d->rpo[i], nidom = UINT32_MAX;
			struct sir_block *blk = &f->blocks[b];

			for (p = 0; p < blk->num_preds; p++) {
				uint32_t pr = blk->preds[p];

				if (d->rpo_index[pr] == UINT32_MAX ||
				    d->idom[pr] == UINT32_MAX)
					continue;
				nidom = nidom == UINT32_MAX ? pr :
					sir_dom_intersect(d, pr, nidom);
			}
			if (nidom != d->idom[b]) {
				d->idom[b] = nidom;
				changed = true;
			}
		}
	}
	/* Children lists, in reverse postorder. */
	d->child_start = sir_xcalloc(n + 1, sizeof(uint32_t));
	d->child_count = sir_xcalloc(n + 1, sizeof(uint32_t));
	d->child = sir_xcalloc(n + 1, sizeof(uint32_t));
	for (i = 1; i < d->num_rpo; i++)
		d->child_count[d->idom[d->rpo[i]]]++;
	for (i = 0, p = 0; i < n; i++) {
		d->child_start[i] = p;
		p += d->child_count[i];
		d->child_count[i] = 0;
	}
	for (i = 1; i < d->num_rpo; i++) {
		uint32_t b = d->rpo[i], parent = d->idom[b];

		d->child[d->child_start[parent] + d->child_count[parent]++] = b;
	}
	if (n)
		d->idom[0] = UINT32_MAX;
}

bool sirp_dominates(const struct sir_dom *d, uint32_t a, uint32_t b)
{
	if (a >= d->num_blocks || b >= d->num_blocks ||
	    d->rpo_index[a] == UINT32_MAX || d->rpo_index[b] == UINT32_MAX)
		return false;
	while (b != a) {
		if (d->idom[b] == UINT32_MAX)
			return false;
		b = d->idom[b];
	}
	return true;
}

void sirp_dom_free(struct sir_dom *d)
{
	free(d->rpo);
	free(d->rpo_index);
	free(d->idom);
	free(d->child_start);
	free(d->child_count);
	free(d->child);
}
