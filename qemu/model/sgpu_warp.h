/* SPDX-License-Identifier: MIT */
/*
 * The lockstep engine: runs a task's threads together, one bundle for
 * every thread at that bundle's PC (the "set"), with the registers laid
 * out by component and lane so each instruction is a loop over lanes the
 * host compiler vectorises. The per-thread interpreter (sgpu_thread.c)
 * is the reference it must agree with, register for register and byte for
 * byte (tests/model/test_sgpu_engines.c).
 *
 * Midgard threads each have their own PC; the engine keeps that meaning:
 * lanes that branch differently leave the set and wait with their own PC,
 * and the set is always the runnable lanes at the lowest waiting PC, so
 * lanes meet again where their paths join (forward code is laid out in
 * address order; a loop's body lies below its exit).
 */
#ifndef SLEIPNIR_SGPU_WARP_H
#define SLEIPNIR_SGPU_WARP_H

#include "sgpu_shader.h"

#define SGPU_WARP_LANES SGPU_TASK_LANES
/* Lane loops run in blocks of this many, which the compiler vectorises. */
#define SGPU_WARP_BLOCK 16u

struct sgpu_warp {
	uint32_t n;                       /* lanes of the task */
	uint32_t nb;                      /* n rounded up to a block */
	/* Registers, component-major: r[reg][comp][lane]. */
	uint32_t r[32][4][SGPU_WARP_LANES] __attribute__((aligned(64)));

	/* The set: lanes at the same PC, executed together. */
	uint64_t pc;
	uint8_t tag;
	bool scheduled;                   /* pc/tag/set are valid */
	bool full;                        /* every lane 0..n-1 is in the set */
	uint32_t nset;
	uint16_t set[SGPU_WARP_LANES];    /* lane numbers, ascending */
	uint32_t lo, hi;                  /* the blocks the set spans */
	uint32_t act[SGPU_WARP_LANES] __attribute__((aligned(64)));
	/* The lowest PC of runnable lanes outside the set (UINT64_MAX). */
	uint64_t waiting_min;

	/* Per lane; pc and tag hold for lanes outside the set. */
	uint64_t lane_pc[SGPU_WARP_LANES];
	uint8_t lane_tag[SGPU_WARP_LANES];
	uint8_t state[SGPU_WARP_LANES];   /* enum sgpu_thread_state */
	uint32_t local_id[SGPU_WARP_LANES][3];

	/* One instruction's results before they are written back. */
	uint32_t res[4][SGPU_WARP_LANES] __attribute__((aligned(64)));
	uint32_t imm[SGPU_WARP_LANES] __attribute__((aligned(64)));
	uint32_t konst[4][SGPU_WARP_LANES] __attribute__((aligned(64)));
	/* The load/store words' results before they are written back. */
	uint32_t ldst_res[2][4][SGPU_WARP_LANES];
};

/* Sets the task's lanes up at the shader's first bundle. */
void sgpu_warp_start(struct sgpu_exec *ex, struct sgpu_warp *w);
/*
 * Runs the task until every lane has ended: 0, SGPU_SHADER_YIELD (call
 * again to resume) or the exception code the job fails with.
 */
uint32_t sgpu_warp_run(struct sgpu_exec *ex, struct sgpu_warp *w);

/* sgpu_warp_alu.c: ALU unit u of the bundle for the set's lanes. */
uint32_t sgpu_warp_alu(struct sgpu_exec *ex, struct sgpu_warp *w,
		       const struct sgpu_cached_bundle *cb, unsigned int u);

/* sgpu_warp_ldst.c: the load/store bundle for the set's lanes. */
uint32_t sgpu_warp_ldst(struct sgpu_exec *ex, struct sgpu_warp *w,
			const struct sgpu_cached_bundle *cb);
/* Fills cb's ldst_fast and, if set, its words' kinds and widths. */
void sgpu_warp_ldst_plan(struct sgpu_cached_bundle *cb);

/* A lane's register, gathered from and scattered to the warp. */
static inline void sgpu_warp_get(const struct sgpu_warp *w, unsigned int reg,
				 unsigned int lane, union sgpu_reg *v)
{
	for (unsigned int c = 0; c < 4; c++)
		v->u32[c] = w->r[reg][c][lane];
}

static inline void sgpu_warp_put(struct sgpu_warp *w, unsigned int reg,
				 unsigned int lane, const union sgpu_reg *v)
{
	for (unsigned int c = 0; c < 4; c++)
		w->r[reg][c][lane] = v->u32[c];
}

#endif
