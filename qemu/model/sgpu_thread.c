/* SPDX-License-Identifier: MIT */
/*
 * One Midgard thread: fetches bundles by tag, runs ALU bundles unit by
 * unit, hands load/store bundles to sgpu_ldst.c, follows branches and stops
 * at a barrier or at the end of the program.
 *
 * Midgard has no warps: every thread has its own PC, so the model runs one
 * thread at a time until it must wait (sgpu_shader_core.c interleaves the
 * threads of a workgroup at barriers).
 *
 * Inside an ALU bundle the units run in encoding order, VMUL, SADD, VADD,
 * SMUL, VLUT, then the branch, each seeing the results of the units before
 * it. That matches the two pipeline stages the compiler schedules for
 * (stage 1 = VMUL and SADD, stage 2 = VADD, SMUL and VLUT, which may read
 * stage-1 results through r24/r25 or any register) as long as instructions
 * within one stage are independent, which the compiler guarantees; the
 * exact hardware read/write timing is not public (docs/hardware.md §5.2).
 */
#include <string.h>

#include "sgpu_shader.h"

/* How often a thread checks whether its job was stopped or its slice is
 * over. */
#define STOP_CHECK_BUNDLES 4096u

/* The value an ALU instruction reads for register r. */
static const union sgpu_reg *alu_source(const struct sgpu_thread *th,
					const struct mdg_bundle *b,
					unsigned int r, union sgpu_reg *tmp)
{
	if (r == MDG_REG_CONST) {
		memcpy(tmp->u32, b->constants, sizeof(tmp->u32));
		return tmp;
	}
	return &th->r[r];
}

static uint32_t run_alu(struct sgpu_exec *ex, struct sgpu_thread *th,
			const struct sgpu_cached_bundle *cb)
{
	const struct mdg_bundle *b = &cb->b;

	for (unsigned int u = 0; u < MDG_UNIT_COUNT; u++) {
		const struct mdg_alu *alu = &b->alu[u];
		struct sgpu_alu_operands in;
		union sgpu_reg tmp;

		if (!(b->units & MDG_UNIT_MASK(u)))
			continue;
		in.src1 = *alu_source(th, b, alu->src1_reg, &tmp);
		if (alu->src2_imm)
			memset(&in.src2, 0, sizeof(in.src2));
		else
			in.src2 = *alu_source(th, b, alu->src2_reg, &tmp);
		in.cond = th->r[MDG_REG_COND];
		in.fp_mode = ex->fp_mode;
		if (!sgpu_alu_execute(alu, (enum mdg_unit)u, &in,
				      &th->r[alu->dst_reg])) {
			sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle "
				"0x%llx: op 0x%02x (%s) cannot run on unit %u "
				"in this form", (unsigned long long)cb->va,
				alu->op, mdg_alu_op_info(alu->op) ?
				mdg_alu_op_info(alu->op)->name : "?", u);
			return MDG_EXCEPTION_INSTR_INVALID_ENC;
		}
	}
	return 0;
}

/* Moves th past the bundle cb: to the branch target, the next bundle, or
 * the end of the program. */
static uint32_t advance(struct sgpu_exec *ex, struct sgpu_thread *th,
			const struct sgpu_cached_bundle *cb)
{
	const struct mdg_bundle *b = &cb->b;
	uint64_t next = cb->va + b->size;

	if (mdg_tag_kind(b->tag) == MDG_KIND_ALU && b->has_branch) {
		const struct mdg_branch *br = &b->branch;
		uint32_t code = sgpu_branch_check(ex, cb);

		if (code)
			return code;
		if (sgpu_branch_taken(br, th->r[MDG_REG_COND].u32[3],
				      th->r[MDG_REG_COND].u32[0])) {
			th->pc = next + (uint64_t)((int64_t)br->offset *
						   MDG_QUADWORD);
			th->tag = br->dest_tag;
			return 0;
		}
	}
	if (b->next_tag == MDG_TAG_BREAK) {
		th->state = SGPU_THREAD_DONE;
		return 0;
	}
	th->pc = next;
	th->tag = b->next_tag;
	return 0;
}

static uint32_t run_texture(struct sgpu_exec *ex, struct sgpu_thread *th,
			    const struct sgpu_cached_bundle *cb)
{
	uint32_t code = sgpu_texture_check(ex, cb);

	if (code)
		return code;
	if (cb->b.tex.op != MDG_TEX_OP_BARRIER)
		return sgpu_tex_word_run(ex, cb, &th->r[MDG_REG_TEX0]);
	th->state = SGPU_THREAD_AT_BARRIER;
	return 0;
}

uint32_t sgpu_thread_run(struct sgpu_exec *ex, struct sgpu_thread *th)
{
	while (th->state == SGPU_THREAD_RUNNABLE) {
		const struct sgpu_cached_bundle *cb;
		uint32_t code;

		if (++ex->bundles_since_check >= STOP_CHECK_BUNDLES) {
			ex->bundles_since_check = 0;
			code = sgpu_shader_poll(ex->ctx, &ex->slice_start_ns);
			if (code)
				return code;
		}
		code = sgpu_cache_lookup(ex, th->pc, th->tag, &cb);
		if (code)
			return code;
		sgpu_count_bundle(ex, cb, 1);
		switch (mdg_tag_kind(cb->b.tag)) {
		case MDG_KIND_ALU:
			code = run_alu(ex, th, cb);
			break;
		case MDG_KIND_LDST:
			code = sgpu_ldst_execute(ex, th, &cb->b);
			break;
		case MDG_KIND_TEXTURE:
			code = run_texture(ex, th, cb);
			break;
		default:
			code = MDG_EXCEPTION_INSTR_INVALID_ENC;
			break;
		}
		if (code)
			return code;
		if (th->state == SGPU_THREAD_AT_BARRIER) {
			/* Resume after the barrier once the group has met. */
			th->state = SGPU_THREAD_RUNNABLE;
			code = advance(ex, th, cb);
			if (th->state == SGPU_THREAD_RUNNABLE)
				th->state = SGPU_THREAD_AT_BARRIER;
			return code;
		}
		code = advance(ex, th, cb);
		if (code)
			return code;
	}
	return 0;
}

uint32_t sgpu_threads_run_task(struct sgpu_exec *ex,
			       struct sgpu_thread *threads, uint32_t lanes)
{
	for (;;) {
		uint32_t waiting = 0;

		for (uint32_t i = 0; i < lanes; i++) {
			uint32_t code;

			if (threads[i].state != SGPU_THREAD_RUNNABLE)
				continue;
			sgpu_exec_enter_lane(ex, i);
			code = sgpu_thread_run(ex, &threads[i]);
			if (code)
				return code;
		}
		for (uint32_t i = 0; i < lanes; i++) {
			if (threads[i].state == SGPU_THREAD_AT_BARRIER) {
				threads[i].state = SGPU_THREAD_RUNNABLE;
				waiting++;
			}
		}
		if (!waiting)
			return 0;
	}
}
