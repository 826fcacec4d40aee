/* SPDX-License-Identifier: MIT */
/*
 * Copy propagation: uses of a COPY read its source, and a phi whose
 * sources are all one value (or the phi itself, around a loop) is that
 * value.
 */
#include "sir_passes.h"

#include "sir_pass_util.h"

/* The single value a phi merges, or SIR_NONE. */
static sir_id phi_single_source(const struct sir_function *f,
				const struct sir_repl *repl, sir_id phi)
{
	const struct sir_instr *in = &f->values[phi];
	sir_id same = SIR_NONE;
	uint32_t s;

	for (s = 0; s < in->num_srcs; s++) {
		sir_id src = sirp_repl_get(repl, in->srcs[s]);

		if (src == phi || src == same)
			continue;
		if (same)
			return SIR_NONE;
		same = src;
	}
	return same;
}

bool sir_copy_prop(struct sir_function *f)
{
	struct sir_repl repl;
	bool again = true, any = false;
	uint32_t b, i;

	sirp_repl_init(&repl, f);
	/* Phis collapse in chains (loop nests): repeat until stable. */
	while (again) {
		again = false;
		for (b = 0; b < f->num_blocks; b++) {
			for (i = 0; i < f->blocks[b].num_instrs; i++) {
				sir_id v = f->blocks[b].instrs[i], r = 0;
				struct sir_instr *in = &f->values[v];

				if (v < repl.size && repl.map[v])
					continue;
				if (in->op == SIR_OP_COPY)
					r = sirp_repl_get(&repl, in->srcs[0]);
				else if (in->op == SIR_OP_PHI)
					r = phi_single_source(f, &repl, v);
				if (r && r != v) {
					sirp_repl_set(&repl, v, r);
					again = any = true;
				}
			}
		}
	}
	sirp_repl_apply(&repl, f);
	return any;
}
