/* SPDX-License-Identifier: MIT */
/*
 * What both engines (sgpu_thread.c, sgpu_warp.c) share about control
 * flow: the branches and texture ops a compute shader may use, and the
 * branch condition.
 */
#include "sgpu_shader.h"

uint32_t sgpu_branch_check(struct sgpu_exec *ex,
			   const struct sgpu_cached_bundle *cb)
{
	const struct mdg_branch *br = &cb->b.branch;

	if ((br->op != MDG_BRANCH_OP_UNCOND && br->op != MDG_BRANCH_OP_COND) ||
	    (br->op == MDG_BRANCH_OP_UNCOND && !br->extended &&
	     br->call_mode != 1) ||
	    (br->extended && br->call_mode != 1)) {
		sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle 0x%llx: "
			"branch op %u call mode %u is not available to "
			"compute shaders", (unsigned long long)cb->va, br->op,
			br->call_mode);
		return MDG_EXCEPTION_INSTR_INVALID_ENC;
	}
	return 0;
}

/*
 * Booleans are 0 / all-ones; the hardware's exact test is not public, so
 * the model reads bit 0 of r31.w (and, for the extended form's truth
 * table, bit 0 of r31.x as the second input; the compiler only emits
 * tables that replicate the plain two-bit condition, which ignore it).
 */
bool sgpu_branch_taken(const struct mdg_branch *br, uint32_t r31w,
		       uint32_t r31x)
{
	unsigned int w = r31w & 1, x = r31x & 1;

	if (br->extended)
		return (br->cond_lut >> (w | x << 1)) & 1;
	if (br->op == MDG_BRANCH_OP_UNCOND)
		return true;
	switch (br->cond) {
	case MDG_COND_FALSE:
		return !w;
	case MDG_COND_TRUE:
		return w;
	case MDG_COND_ALWAYS:
		return true;
	default:
		return false;
	}
}

uint32_t sgpu_texture_check(struct sgpu_exec *ex,
			    const struct sgpu_cached_bundle *cb)
{
	const struct mdg_tex *t = &cb->b.tex;

	/* The decoder pairs the barrier op with tag 4 and only it. */
	if ((cb->b.tag == MDG_TAG_TEXTURE_BARRIER) !=
	    (t->op == MDG_TEX_OP_BARRIER)) {
		sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle 0x%llx: "
			"texture op %u under tag %u",
			(unsigned long long)cb->va, t->op, cb->b.tag);
		return MDG_EXCEPTION_INSTR_INVALID_ENC;
	}
	if (t->op != MDG_TEX_OP_BARRIER)
		return 0;            /* sgpu_tex_word_run() checks the rest */
	/*
	 * A barrier needs the workgroup resident and split as Mesa packs it
	 * (Invocation thread group split = workgroups X shift) and the RSD's
	 * "contains barrier" bit; without them the hardware's barrier would
	 * not hold, so the model refuses rather than compute wrongly.
	 */
	if (!ex->has_barrier) {
		sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle 0x%llx: "
			"barrier in a shader whose renderer state does not "
			"declare one", (unsigned long long)cb->va);
		return MDG_EXCEPTION_INSTR_BARRIER_FAULT;
	}
	return 0;
}
