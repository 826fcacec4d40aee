/* SPDX-License-Identifier: MIT */
/*
 * The lockstep engine (sgpu_warp.h): scheduling of a task's lanes, the
 * branch unit and the texture pipe (the barrier).
 */
#include <string.h>

#include "sgpu_warp.h"

/* Lane-bundles between two polls of the job's state. */
#define STOP_CHECK_LANE_BUNDLES 16384u

void sgpu_warp_start(struct sgpu_exec *ex, struct sgpu_warp *w)
{
	const struct sgpu_task *t = ex->task;
	size_t bytes;

	w->n = t->lanes;
	w->nb = (t->lanes + SGPU_WARP_BLOCK - 1) & ~(SGPU_WARP_BLOCK - 1);
	bytes = w->nb * sizeof(uint32_t);
	/*
	 * Zero what a shader may read before writing: its work registers
	 * and r24-r31 (sgpu_shader_cache.c refuses code that reads others);
	 * the pushed uniforms go to r23 downwards.
	 */
	for (unsigned int r = 0; r < 32; r++) {
		bool uniform = r <= 23 && r >= 24 - ex->uniform_vec4;

		if (r >= ex->work_regs && r < 24 && !uniform)
			continue;
		for (unsigned int c = 0; c < 4; c++) {
			uint32_t *v = w->r[r][c];

			if (uniform) {
				for (uint32_t l = 0; l < w->nb; l++)
					v[l] = ex->uniforms[23 - r].u32[c];
			} else {
				memset(v, 0, bytes);
			}
		}
	}
	for (uint32_t l = 0; l < w->n; l++) {
		w->lane_pc[l] = ex->d->shader_va;
		w->lane_tag[l] = (uint8_t)ex->d->first_tag;
		w->state[l] = SGPU_THREAD_RUNNABLE;
		memcpy(w->local_id[l], t->local_id[l], sizeof(w->local_id[l]));
	}
	w->scheduled = false;
}

/*
 * Forms the next set: the runnable lanes at the lowest PC. When none is
 * runnable but some wait at a barrier, the barrier has met and they all
 * go on. Returns false once every lane has ended.
 */
static bool reschedule(struct sgpu_warp *w)
{
	for (;;) {
		uint64_t min = UINT64_MAX, rest = UINT64_MAX;
		bool waiting = false;
		uint8_t tag = 0;

		for (uint32_t l = 0; l < w->n; l++) {
			if (w->state[l] == SGPU_THREAD_RUNNABLE &&
			    w->lane_pc[l] < min) {
				min = w->lane_pc[l];
				tag = w->lane_tag[l];
			}
		}
		if (min == UINT64_MAX) {
			for (uint32_t l = 0; l < w->n; l++) {
				if (w->state[l] == SGPU_THREAD_AT_BARRIER) {
					w->state[l] = SGPU_THREAD_RUNNABLE;
					waiting = true;
				}
			}
			if (!waiting)
				return false;
			continue;
		}
		w->nset = 0;
		memset(w->act, 0, w->nb * sizeof(w->act[0]));
		for (uint32_t l = 0; l < w->n; l++) {
			if (w->state[l] != SGPU_THREAD_RUNNABLE)
				continue;
			if (w->lane_pc[l] == min && w->lane_tag[l] == tag) {
				w->set[w->nset++] = (uint16_t)l;
				w->act[l] = UINT32_MAX;
			} else if (w->lane_pc[l] < rest) {
				rest = w->lane_pc[l];
			}
		}
		w->pc = min;
		w->tag = tag;
		w->waiting_min = rest;
		w->full = w->nset == w->n;
		w->lo = w->set[0] & ~(SGPU_WARP_BLOCK - 1);
		w->hi = (w->set[w->nset - 1] + SGPU_WARP_BLOCK) &
			~(SGPU_WARP_BLOCK - 1);
		w->scheduled = true;
		return true;
	}
}

/* The set's lanes go on separately: at pc with tag. */
static void leave_set(struct sgpu_warp *w, uint64_t pc, uint8_t tag)
{
	for (uint32_t i = 0; i < w->nset; i++) {
		w->lane_pc[w->set[i]] = pc;
		w->lane_tag[w->set[i]] = tag;
	}
	w->scheduled = false;
}

/* The set's lanes end (next tag BREAK) or wait at a barrier. */
static void set_state(struct sgpu_warp *w, uint8_t state)
{
	for (uint32_t i = 0; i < w->nset; i++)
		w->state[w->set[i]] = state;
	w->scheduled = false;
}

/* A lane's branch condition (sgpu_branch_taken()). */
static bool branch_taken(const struct sgpu_warp *w, unsigned int lane,
			 const struct mdg_branch *br)
{
	return sgpu_branch_taken(br, w->r[MDG_REG_COND][3][lane],
				 w->r[MDG_REG_COND][0][lane]);
}

/* Moves the set past bundle cb, as sgpu_thread.c's advance() a thread. */
static uint32_t advance(struct sgpu_exec *ex, struct sgpu_warp *w,
			const struct sgpu_cached_bundle *cb, bool barrier)
{
	const struct mdg_bundle *b = &cb->b;
	uint64_t next = cb->va + b->size;

	if (mdg_tag_kind(b->tag) == MDG_KIND_ALU && b->has_branch) {
		const struct mdg_branch *br = &b->branch;
		uint64_t target = next + (uint64_t)((int64_t)br->offset *
						    MDG_QUADWORD);
		uint32_t taken = 0, code = sgpu_branch_check(ex, cb);

		if (code)
			return code;
		for (uint32_t i = 0; i < w->nset; i++)
			taken += branch_taken(w, w->set[i], br);
		if (taken == w->nset) {
			w->pc = target;
			w->tag = br->dest_tag;
			goto moved;
		}
		if (taken) {
			/* Divergence: each lane goes its own way. */
			for (uint32_t i = 0; i < w->nset; i++) {
				unsigned int l = w->set[i];

				if (branch_taken(w, l, br)) {
					w->lane_pc[l] = target;
					w->lane_tag[l] = br->dest_tag;
				} else if (b->next_tag == MDG_TAG_BREAK) {
					w->state[l] = SGPU_THREAD_DONE;
				} else {
					w->lane_pc[l] = next;
					w->lane_tag[l] = b->next_tag;
				}
			}
			w->scheduled = false;
			return 0;
		}
	}
	if (b->next_tag == MDG_TAG_BREAK) {
		set_state(w, SGPU_THREAD_DONE);
		return 0;
	}
	if (barrier) {
		leave_set(w, next, b->next_tag);
		set_state(w, SGPU_THREAD_AT_BARRIER);
		return 0;
	}
	w->pc = next;
	w->tag = b->next_tag;
moved:
	/* Lanes waiting at or below the new PC: join them or let them go. */
	if (w->waiting_min <= w->pc)
		leave_set(w, w->pc, w->tag);
	return 0;
}

/* A texture op for the set, lane by lane through the reference's code. */
static uint32_t warp_texture(struct sgpu_exec *ex, struct sgpu_warp *w,
			     const struct sgpu_cached_bundle *cb)
{
	for (uint32_t i = 0; i < w->nset; i++) {
		unsigned int l = w->set[i];
		union sgpu_reg tex[2];
		uint32_t code;

		sgpu_warp_get(w, MDG_REG_TEX0, l, &tex[0]);
		sgpu_warp_get(w, MDG_REG_TEX1, l, &tex[1]);
		code = sgpu_tex_word_run(ex, cb, tex);
		if (code)
			return code;
		sgpu_warp_put(w, MDG_REG_TEX0, l, &tex[0]);
		sgpu_warp_put(w, MDG_REG_TEX1, l, &tex[1]);
	}
	return 0;
}

uint32_t sgpu_warp_run(struct sgpu_exec *ex, struct sgpu_warp *w)
{
	for (;;) {
		const struct sgpu_cached_bundle *cb;
		bool barrier = false;
		uint32_t code = 0;

		if (!w->scheduled && !reschedule(w))
			return 0;
		ex->bundles_since_check += w->nset;
		if (ex->bundles_since_check >= STOP_CHECK_LANE_BUNDLES) {
			ex->bundles_since_check = 0;
			code = sgpu_shader_poll(ex->ctx, &ex->slice_start_ns);
			if (code)
				return code;
		}
		code = sgpu_cache_lookup(ex, w->pc, w->tag, &cb);
		if (code)
			return code;
		sgpu_count_bundle(ex, cb, w->nset);
		switch (mdg_tag_kind(cb->b.tag)) {
		case MDG_KIND_ALU:
			for (unsigned int u = 0; u < MDG_UNIT_COUNT && !code;
			     u++) {
				if (cb->b.units & MDG_UNIT_MASK(u))
					code = sgpu_warp_alu(ex, w, cb, u);
			}
			break;
		case MDG_KIND_LDST:
			code = sgpu_warp_ldst(ex, w, cb);
			break;
		case MDG_KIND_TEXTURE:
			code = sgpu_texture_check(ex, cb);
			if (!code && cb->b.tex.op != MDG_TEX_OP_BARRIER)
				code = warp_texture(ex, w, cb);
			else
				barrier = true;
			break;
		default:
			code = MDG_EXCEPTION_INSTR_INVALID_ENC;
			break;
		}
		if (code)
			return code;
		code = advance(ex, w, cb, barrier);
		if (code)
			return code;
	}
}
