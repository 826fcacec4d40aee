/* SPDX-License-Identifier: MIT */
/*
 * The back end's entry point and the MIR bookkeeping the stages share:
 * isel, dead-code removal on MIR, register allocation, scheduling,
 * emission, statistics, and the kernel's launch figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbe_internal.h"

uint32_t mi_vreg_new(struct mi_func *mf, unsigned int size)
{
	if (mf->num_vregs == mf->cap_vregs) {
		mf->cap_vregs = mf->cap_vregs ? 2 * mf->cap_vregs : 64;
		mf->vregs = sir_xrealloc(mf->vregs,
					 mf->cap_vregs * sizeof(*mf->vregs));
	}
	memset(&mf->vregs[mf->num_vregs], 0, sizeof(*mf->vregs));
	mf->vregs[mf->num_vregs].size = (uint8_t)size;
	return mf->num_vregs++;
}

uint32_t mi_block_new(struct mi_func *mf)
{
	if (mf->num_blocks == mf->cap_blocks) {
		mf->cap_blocks = mf->cap_blocks ? 2 * mf->cap_blocks : 16;
		mf->blocks = sir_xrealloc(mf->blocks,
					  mf->cap_blocks * sizeof(*mf->blocks));
	}
	memset(&mf->blocks[mf->num_blocks], 0, sizeof(*mf->blocks));
	mf->blocks[mf->num_blocks].term = MT_RET;
	return mf->num_blocks++;
}

struct mi_instr *mi_insert(struct mi_func *mf, uint32_t b, uint32_t pos)
{
	struct mi_block *blk = &mf->blocks[b];

	if (blk->num == blk->cap) {
		blk->cap = blk->cap ? 2 * blk->cap : 16;
		blk->instrs = sir_xrealloc(blk->instrs,
					   blk->cap * sizeof(*blk->instrs));
	}
	memmove(&blk->instrs[pos + 1], &blk->instrs[pos],
		(blk->num - pos) * sizeof(*blk->instrs));
	blk->num++;
	memset(&blk->instrs[pos], 0, sizeof(*blk->instrs));
	return &blk->instrs[pos];
}

int mi_block_succs(const struct mi_block *blk, uint32_t out[2])
{
	switch (blk->term) {
	case MT_BR:
		out[0] = blk->succ[0];
		return 1;
	case MT_CBR:
		out[0] = blk->succ[0];
		out[1] = blk->succ[1];
		return 2;
	default:
		return 0;
	}
}

struct mi_instr *mi_append(struct mi_func *mf, uint32_t b)
{
	return mi_insert(mf, b, mf->blocks[b].num);
}

void mi_func_free(struct mi_func *mf)
{
	for (uint32_t b = 0; b < mf->num_blocks; b++)
		free(mf->blocks[b].instrs);
	free(mf->blocks);
	free(mf->vregs);
	memset(mf, 0, sizeof(*mf));
}

void mi_src_place(const struct mi_func *mf, const struct mi_src *s,
		  unsigned int *reg, unsigned int *comp)
{
	if (s->kind == MO_VREG) {
		*reg = mf->vregs[s->reg].reg;
		*comp = mf->vregs[s->reg].comp;
	} else {
		*reg = s->kind == MO_PHYS ? s->reg : MDG_REG_CONST;
		*comp = 0;
	}
}

void mi_dst_place(const struct mi_func *mf, const struct mi_dst *d,
		  unsigned int *reg, unsigned int *comp)
{
	if (d->kind == MO_VREG) {
		*reg = mf->vregs[d->reg].reg;
		*comp = mf->vregs[d->reg].comp;
	} else {
		*reg = d->reg;
		*comp = d->off;
	}
}

bool mi_op_is_stage1(enum mdg_unit u)
{
	return u == MDG_UNIT_VMUL || u == MDG_UNIT_SADD;
}

/* Removes instructions whose only effect is a vreg nobody reads. */
static void remove_dead(struct mi_func *mf)
{
	bool *used = sir_xcalloc(mf->num_vregs, sizeof(*used));
	bool changed = true;

	while (changed) {
		changed = false;
		memset(used, 0, mf->num_vregs * sizeof(*used));
		for (uint32_t b = 0; b < mf->num_blocks; b++) {
			const struct mi_block *blk = &mf->blocks[b];

			for (uint32_t i = 0; i < blk->num; i++)
				for (int k = 0; k < 2; k++)
					if (blk->instrs[i].src[k].kind ==
					    MO_VREG)
						used[blk->instrs[i].src[k].reg] =
							true;
		}
		for (uint32_t b = 0; b < mf->num_blocks; b++) {
			struct mi_block *blk = &mf->blocks[b];
			uint32_t n = 0;

			for (uint32_t i = 0; i < blk->num; i++) {
				const struct mi_instr *in = &blk->instrs[i];
				bool dead = in->dst.kind == MO_VREG &&
					    !used[in->dst.reg] &&
					    !in->mem_write &&
					    (in->kind == MI_ALU ||
					     in->kind == MI_LDST);

				if (dead) {
					changed = true;
					continue;
				}
				blk->instrs[n++] = *in;
			}
			blk->num = n;
		}
	}
	free(used);
}

static bool touches_phys(const struct mi_instr *in, unsigned int reg)
{
	if (in->dst.kind == MO_PHYS && in->dst.reg == reg)
		return true;
	for (int k = 0; k < 2; k++)
		if (in->src[k].kind == MO_PHYS && in->src[k].reg == reg)
			return true;
	return in->kind == MI_BARRIER ||
	       (in->kind == MI_LDST && in->phys_reads[reg - 26]);
}

/*
 * A value computed only to be moved into r26/r27 is computed there: the
 * move goes, the defining instruction writes the load/store register.
 * Into r27 not across an instruction that defines a vreg: the allocator
 * may spill that vreg, and a spill store stages its value through r27
 * (mbe_ra.c), which would overwrite the folded value before its store
 * reads it (spill code addresses TLS without r26).
 */
static void fold_arg_moves(struct mi_func *mf)
{
	uint32_t *uses = sir_xcalloc(mf->num_vregs, sizeof(*uses));
	uint32_t *defs = sir_xcalloc(mf->num_vregs, sizeof(*defs));

	for (uint32_t b = 0; b < mf->num_blocks; b++) {
		const struct mi_block *blk = &mf->blocks[b];

		for (uint32_t i = 0; i < blk->num; i++) {
			const struct mi_instr *in = &blk->instrs[i];

			for (int k = 0; k < 2; k++)
				if (in->src[k].kind == MO_VREG)
					uses[in->src[k].reg]++;
			if (in->dst.kind == MO_VREG)
				defs[in->dst.reg]++;
		}
	}
	for (uint32_t b = 0; b < mf->num_blocks; b++) {
		struct mi_block *blk = &mf->blocks[b];

		for (uint32_t i = 0; i < blk->num; i++) {
			struct mi_instr *mv = &blk->instrs[i];
			uint32_t v, d;
			bool ok = true;

			if (mv->kind != MI_ALU || mv->op != MDG_ALU_IMOV ||
			    mv->lane_bits || mv->dst.kind != MO_PHYS ||
			    (mv->dst.reg != 26 && mv->dst.reg != 27) ||
			    mv->src[1].kind != MO_VREG || mv->src[1].mod)
				continue;
			v = mv->src[1].reg;
			if (uses[v] != 1 || defs[v] != 1 ||
			    mv->dst.mask != (1u << mf->vregs[v].size) - 1)
				continue;
			for (unsigned int j = 0; j < mf->vregs[v].size; j++)
				ok &= mv->src[1].swz[j] == j;
			for (d = i; ok && d-- > 0;) {
				struct mi_instr *in = &blk->instrs[d];

				if (in->dst.kind == MO_VREG && in->dst.reg == v)
					break;
				if (touches_phys(in, mv->dst.reg) ||
				    (mv->dst.reg == 27 &&
				     in->dst.kind == MO_VREG))
					ok = false;
			}
			/* Halves in reg mode 16 start at an even component
			 * (mi_instr.half). */
			if (!ok || d == UINT32_MAX ||
			    !blk->instrs[d].kills || blk->instrs[d].glued ||
			    blk->instrs[d].dst.mask != mv->dst.mask ||
			    (blk->instrs[d].half == MH_OP &&
			     mf->vregs[v].size > 1 && (mv->dst.off & 1)))
				continue;
			blk->instrs[d].dst.kind = MO_PHYS;
			blk->instrs[d].dst.reg = mv->dst.reg;
			blk->instrs[d].dst.off = mv->dst.off;
			blk->instrs[d].kills = false;
			memmove(mv, mv + 1, (blk->num - i - 1) * sizeof(*mv));
			blk->num--;
			i--;
		}
	}
	free(uses);
	free(defs);
}

static unsigned int threads_for(unsigned int regs)
{
	return regs <= 4 ? 256 : regs <= 8 ? 128 : 64;
}

bool mbe_compile_kernel(struct sir_function *f,
			const struct mbe_backend_options *opts,
			struct slb_kernel *k, struct mbe_code *out,
			char *err, size_t errsz)
{
	struct mi_func mf;
	struct mbe_schedule sched;
	unsigned int max_regs;
	uint32_t first_tag = 0;
	bool ok;

	memset(&mf, 0, sizeof(mf));
	memset(&sched, 0, sizeof(sched));
	memset(out, 0, sizeof(*out));
	if (!f || !opts || !k) {
		snprintf(err, errsz, "mdg: no kernel");
		return false;
	}
	if (opts->max_work_regs < 1 || opts->max_work_regs > 16) {
		snprintf(err, errsz, "mdg: max_work_regs %u is not 1-16",
			 opts->max_work_regs);
		return false;
	}
	mf.private_bytes = k->private_bytes;
	ok = mbe_isel(f, &mf, err, errsz);
	if (ok) {
		remove_dead(&mf);
		fold_arg_moves(&mf);
		max_regs = opts->max_work_regs;
		if (max_regs > 24 - mf.push_vec4)
			max_regs = 24 - mf.push_vec4;
		ok = mbe_ra(&mf, max_regs, err, errsz);
	}
	if (ok)
		ok = mbe_schedule(&mf, &sched, err, errsz);
	if (ok)
		ok = mbe_emit(&mf, &sched, out, &first_tag, err, errsz);
	if (ok) {
		k->first_tag = first_tag;
		k->code_size = (uint32_t)out->size;
		k->work_regs = mf.work_regs;
		k->threads_per_core = threads_for(mf.work_regs);
		k->max_wg_size = mf.barrier ? k->threads_per_core : 256;
		k->push_vec4 = mf.push_vec4;
		k->needs_ubo = mf.needs_ubo;
		k->barrier = mf.barrier;
		k->private_bytes = mf.private_bytes;
		memset(&k->stats, 0, sizeof(k->stats));
		mbe_stats(&mf, &sched, &k->stats);
		k->stats.spills = mf.spills;
		k->stats.fills = mf.fills;
	} else {
		free(out->code);
		memset(out, 0, sizeof(*out));
	}
	mbe_schedule_free(&sched);
	mi_func_free(&mf);
	return ok;
}
