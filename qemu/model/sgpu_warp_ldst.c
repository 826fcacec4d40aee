/* SPDX-License-Identifier: MIT */
/*
 * The lockstep engine's load/store pipe (sgpu_warp.h).
 *
 * Bundles whose words are all of the forms compilers put in loops run
 * here straight on the warp's registers: plain 32/64/128-bit loads and
 * stores addressed by r26/r27 (base, plus a 32-bit index shifted, plus the
 * offset), and moves of the compute ids. A lane whose access is
 * misaligned, crosses a page or misses the page cache takes the reference
 * path for the bundle, as does every other bundle: sgpu_ldst.c on a
 * thread assembled from the lane's registers, which also reports every
 * fault. Both paths keep sgpu_ldst.c's order: both words read their
 * registers, then word 0 and word 1 access memory, then both write.
 */
#include <string.h>

#include "sgpu_warp.h"

/* What one word does on the fast path (ldst_plan() decides). */
enum plan_kind {
	PLAN_NOP,
	PLAN_LOAD,
	PLAN_STORE,
	PLAN_MOV_ID,
};

static bool is_arg_register(unsigned int sel)
{
	return sel == MDG_LDST_SEL_R26 || sel == MDG_LDST_SEL_R27;
}

/* The fast-path kind of word w, or -1 when it takes the reference path. */
static int word_plan(const struct mdg_ldst *w)
{
	switch (w->op) {
	case MDG_LDST_NOP:
		return PLAN_NOP;
	case MDG_LDST_MOV:
		return w->arg_reg == MDG_LDST_SEL_LOCAL_ID ||
		       w->arg_reg == MDG_LDST_SEL_GROUP_ID ||
		       w->arg_reg == MDG_LDST_SEL_GLOBAL_ID ||
		       is_arg_register(w->arg_reg) ? PLAN_MOV_ID : -1;
	case MDG_LDST_LD_32: case MDG_LDST_LD_64: case MDG_LDST_LD_128:
	case MDG_LDST_ST_32: case MDG_LDST_ST_64: case MDG_LDST_ST_128:
		break;
	default:
		return -1;
	}
	if (!is_arg_register(w->arg_reg) || (w->bitsize_toggle &&
					     (w->arg_comp & 1)))
		return -1;
	if (w->index_reg == MDG_LDST_SEL_ZERO) {
		if (w->index_format == MDG_INDEX_U64)
			return -1;
	} else if (!is_arg_register(w->index_reg) ||
		   (w->index_format != MDG_INDEX_U32 &&
		    w->index_format != MDG_INDEX_S32)) {
		return -1;
	}
	if (mdg_ldst_op_info(w->op)->flags & MDG_LDST_STORE)
		return w->reg <= 1 ? PLAN_STORE : -1;
	return PLAN_LOAD;
}

void sgpu_warp_ldst_plan(struct sgpu_cached_bundle *cb)
{
	cb->ldst_fast = true;
	for (unsigned int i = 0; i < 2; i++) {
		int kind = word_plan(&cb->b.ldst[i]);

		if (kind < 0) {
			cb->ldst_fast = false;
			return;
		}
		cb->ldst_kind[i] = (uint8_t)kind;
		cb->ldst_bytes[i] = kind == PLAN_LOAD || kind == PLAN_STORE ?
				    mdg_ldst_op_info(cb->b.ldst[i].op)->bytes : 0;
	}
}

/* One word of one lane between its phases. */
struct lane_word {
	int kind;
	unsigned int bytes;
	uint8_t *at;                  /* host address of the access */
	union sgpu_reg data;          /* store data, or the result */
};

static uint32_t arg_register(const struct sgpu_warp *w, unsigned int sel,
			     unsigned int comp, unsigned int lane)
{
	return w->r[sel == MDG_LDST_SEL_R26 ? 26 : 27][comp][lane];
}

/* A compute-id read-selector's value (sgpu_ldst.c's selector_value()). */
static void id_value(const struct sgpu_exec *ex, const struct sgpu_warp *w,
		     unsigned int sel, unsigned int lane, union sgpu_reg *v)
{
	const struct sgpu_task *t = ex->task;
	const uint32_t *group = t->group_id[t->lane_group[lane]];

	memset(v, 0, sizeof(*v));
	switch (sel) {
	case MDG_LDST_SEL_R26:
	case MDG_LDST_SEL_R27:
		for (unsigned int c = 0; c < 4; c++)
			v->u32[c] = arg_register(w, sel, c, lane);
		break;
	case MDG_LDST_SEL_LOCAL_ID:
		memcpy(v->u32, w->local_id[lane], sizeof(w->local_id[lane]));
		break;
	case MDG_LDST_SEL_GROUP_ID:
		memcpy(v->u32, group, 3 * sizeof(uint32_t));
		break;
	default:
		for (int i = 0; i < 3; i++)
			v->u32[i] = group[i] * ex->d->local_size[i] +
				    w->local_id[lane][i];
		break;
	}
}

static void swizzle(union sgpu_reg *out, const union sgpu_reg *v,
		    uint8_t swizzle)
{
	for (int i = 0; i < 4; i++)
		out->u32[i] = v->u32[(swizzle >> (2 * i)) & 3];
}

/*
 * Phase 1 for one word of a lane: operands, address and host pointer.
 * False when the lane must take the reference path.
 */
static bool prepare(struct sgpu_exec *ex, const struct sgpu_warp *w,
		    const struct sgpu_cached_bundle *cb, unsigned int word,
		    unsigned int lane, struct lane_word *lw)
{
	const struct mdg_ldst *wd = &cb->b.ldst[word];
	uint64_t ea, index = 0;
	union sgpu_reg v;

	lw->kind = cb->ldst_kind[word];
	if (lw->kind == PLAN_NOP)
		return true;
	if (lw->kind == PLAN_MOV_ID) {
		id_value(ex, w, wd->arg_reg, lane, &v);
		swizzle(&lw->data, &v, wd->swizzle);
		return true;
	}
	lw->bytes = cb->ldst_bytes[word];
	ea = arg_register(w, wd->arg_reg, wd->arg_comp, lane);
	if (wd->bitsize_toggle)
		ea |= (uint64_t)arg_register(w, wd->arg_reg,
					     wd->arg_comp + 1, lane) << 32;
	if (wd->index_reg != MDG_LDST_SEL_ZERO) {
		uint32_t i = arg_register(w, wd->index_reg, wd->index_comp,
					  lane);

		index = wd->index_format == MDG_INDEX_S32 ?
			(uint64_t)(int64_t)(int32_t)i : i;
	}
	ea += index << wd->index_shift;
	ea += (uint64_t)(int64_t)wd->offset;
	if ((ea & 3) || (ea & 0xFFF) + lw->bytes > 0x1000)
		return false;
	if (lw->kind == PLAN_STORE) {
		for (unsigned int c = 0; c < 4; c++)
			v.u32[c] = w->r[26 + wd->reg][c][lane];
		swizzle(&lw->data, &v, wd->swizzle);
	}
	lw->at = sgpu_mem_page(ex, ea, lw->kind == PLAN_STORE);
	if (!lw->at)
		return false;
	lw->at += ea & 0xFFF;
	return true;
}

/* Copies of the access widths, each a fixed-size copy. */
static void copy_access(void *dst, const void *src, unsigned int bytes)
{
	switch (bytes) {
	case 4:
		memcpy(dst, src, 4);
		break;
	case 8:
		memcpy(dst, src, 8);
		break;
	default:
		memcpy(dst, src, 16);
		break;
	}
}

/* Phase 2: the memory access. */
static void perform(const struct mdg_ldst *wd, struct lane_word *lw)
{
	union sgpu_reg raw;

	if (lw->kind == PLAN_LOAD) {
		memset(&raw, 0, sizeof(raw));
		copy_access(raw.u8, lw->at, lw->bytes);
		swizzle(&lw->data, &raw, wd->swizzle);
	} else if (lw->kind == PLAN_STORE && wd->mask == 0xF) {
		copy_access(lw->at, lw->data.u8, lw->bytes);
	} else if (lw->kind == PLAN_STORE) {
		/* Each mask bit enables a quarter of the access. */
		unsigned int part = lw->bytes / 4;

		for (unsigned int i = 0; i < 4; i++) {
			if (wd->mask & (1u << i))
				memcpy(lw->at + i * part,
				       lw->data.u8 + i * part, part);
		}
	}
}

/* Phase 3: the register write. */
static void commit(struct sgpu_warp *w, const struct mdg_ldst *wd,
		   const struct lane_word *lw, unsigned int lane)
{
	if (lw->kind != PLAN_LOAD && lw->kind != PLAN_MOV_ID)
		return;
	for (unsigned int c = 0; c < 4; c++) {
		if (wd->mask & (1u << c))
			w->r[wd->reg][c][lane] = lw->data.u32[c];
	}
}

/* The reference path for one lane. */
static uint32_t reference_lane(struct sgpu_exec *ex, struct sgpu_warp *w,
			       const struct mdg_bundle *b, unsigned int lane)
{
	unsigned int reg0 = b->ldst[0].reg, reg1 = b->ldst[1].reg;
	struct sgpu_thread th;
	uint32_t code;

	th.pc = w->pc;
	th.tag = w->tag;
	th.state = SGPU_THREAD_RUNNABLE;
	sgpu_exec_enter_lane(ex, lane);
	sgpu_warp_get(w, 26, lane, &th.r[26]);
	sgpu_warp_get(w, 27, lane, &th.r[27]);
	sgpu_warp_get(w, reg0, lane, &th.r[reg0]);
	sgpu_warp_get(w, reg1, lane, &th.r[reg1]);
	memcpy(th.local_id, w->local_id[lane], sizeof(th.local_id));
	th.linear_id = lane;
	code = sgpu_ldst_execute(ex, &th, b);
	if (code)
		return code;
	sgpu_warp_put(w, reg0, lane, &th.r[reg0]);
	sgpu_warp_put(w, reg1, lane, &th.r[reg1]);
	return 0;
}

uint32_t sgpu_warp_ldst(struct sgpu_exec *ex, struct sgpu_warp *w,
			const struct sgpu_cached_bundle *cb)
{
	const struct mdg_bundle *b = &cb->b;

	for (uint32_t i = 0; i < w->nset; i++) {
		unsigned int l = w->set[i];
		struct lane_word lw[2];
		uint32_t code;

		if (cb->ldst_fast && prepare(ex, w, cb, 0, l, &lw[0]) &&
		    prepare(ex, w, cb, 1, l, &lw[1])) {
			perform(&b->ldst[0], &lw[0]);
			perform(&b->ldst[1], &lw[1]);
			commit(w, &b->ldst[0], &lw[0], l);
			commit(w, &b->ldst[1], &lw[1], l);
			continue;
		}
		code = reference_lane(ex, w, b, l);
		if (code)
			return code;
	}
	return 0;
}
