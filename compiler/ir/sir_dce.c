/* SPDX-License-Identifier: MIT */
/*
 * Dead code elimination: what stores, atomics, barriers, calls and
 * terminators do not need, transitively, goes (phi cycles included).
 */
#include "sir_passes.h"

#include <stdlib.h>

#include "sir_pass_util.h"

bool sir_dce(struct sir_function *f)
{
	bool *live = sir_xcalloc(f->num_values, sizeof(*live));
	sir_id *work = sir_xcalloc(f->num_values, sizeof(*work));
	uint32_t n = 0, b, i, s;
	bool changed = false;

	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			sir_id v = f->blocks[b].instrs[i];

			if (sirp_has_side_effects(f->values[v].op) && !live[v]) {
				live[v] = true;
				work[n++] = v;
			}
		}
	}
	while (n) {
		const struct sir_instr *in = &f->values[work[--n]];

		for (s = 0; s < in->num_srcs; s++) {
			sir_id src = in->srcs[s];

			if (src && src < f->num_values && !live[src]) {
				live[src] = true;
				work[n++] = src;
			}
		}
	}
	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			sir_id v = f->blocks[b].instrs[i];

			if (!live[v]) {
				f->values[v].op = SIR_OP_INVALID;
				f->values[v].num_srcs = 0;
				f->values[v].block = UINT32_MAX;
				changed = true;
			}
		}
	}
	if (changed)
		sir_compact_blocks(f);
	free(live);
	free(work);
	return changed;
}
