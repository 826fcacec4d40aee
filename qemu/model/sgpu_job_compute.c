/* SPDX-License-Identifier: MIT */
/*
 * COMPUTE jobs: fetch and check the descriptors (docs/hardware.md
 * §4.3-§4.5, fields through midgard_desc.h),
 * then hand the dispatch to the shader cores without the model lock. Also
 * the locked accessors the shader cores use (sgpu_shader_core.h).
 *
 * Checks, each failing with JOB_CONFIG_FAULT (the job manager rejects the
 * descriptor before any thread runs): the invocation shifts must be
 * ordered and within 32 bits, the workgroup must not exceed
 * THREAD_MAX_WORKGROUP_SIZE (256), the Draw descriptor must say it is
 * 64-bit, and the renderer state pointer must be non-zero and 64-byte
 * aligned. Unreadable descriptors fail with the MMU's fault code.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "midgard_desc.h"
#include "sgpu_internal.h"
#include "sgpu_shader_core.h"

#define MAX_WORKGROUP_THREADS 256

struct sgpu_shader_ctx {
	struct sgpu *gpu;
	unsigned int js;
	unsigned int as_nr;
	uint64_t epoch;
};

static uint32_t decode_invocation(struct sgpu *gpu, const uint8_t *inv,
				  struct sgpu_compute_dispatch *d)
{
	if (!mdg_unpack_invocation(inv, d->local_size, d->num_groups)) {
		sgpu_guest_error(gpu, "sgpu: compute job 0x%llx: invocation "
				 "shifts out of order or too wide",
				 (unsigned long long)d->job_va);
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	}
	d->thread_group_split =
		(uint32_t)mdg_get(inv, MDG_INVOCATION_THREAD_GROUP_SPLIT);
	if ((uint64_t)d->local_size[0] * d->local_size[1] * d->local_size[2] >
	    MAX_WORKGROUP_THREADS) {
		sgpu_guest_error(gpu, "sgpu: compute job 0x%llx: workgroup "
				 "%ux%ux%u exceeds %u threads",
				 (unsigned long long)d->job_va,
				 d->local_size[0], d->local_size[1],
				 d->local_size[2], MAX_WORKGROUP_THREADS);
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	}
	return 0;
}

/* Reads and checks the job's descriptors into *d. Lock held. */
static uint32_t decode_dispatch(struct sgpu_job *job,
				struct sgpu_compute_dispatch *d)
{
	struct sgpu *gpu = job->gpu;
	/* The job past its header (read already): invocation, parameters
	 * and draw, each placed as in the whole job. */
	uint8_t desc[MDG_COMPUTE_JOB_BYTES];
	uint8_t *inv = desc + MDG_COMPUTE_JOB_INVOCATION_OFFSET;
	const uint8_t *params = desc + MDG_COMPUTE_JOB_PARAMETERS_OFFSET;
	const uint8_t *draw = desc + MDG_COMPUTE_JOB_DRAW_OFFSET;
	uint32_t code;

	memset(d, 0, sizeof(*d));
	d->job_va = job->va;
	d->as_nr = job->as_nr;
	d->affinity = job->affinity & gpu->shader_present;
	d->reference_engine = gpu->config.engine == SGPU_ENGINE_REFERENCE;

	code = sgpu_vm_read(gpu, job->as_nr,
			    job->va + MDG_COMPUTE_JOB_INVOCATION_OFFSET, inv,
			    MDG_COMPUTE_JOB_BYTES -
			    MDG_COMPUTE_JOB_INVOCATION_OFFSET, AS_ACCESS_READ);
	if (code)
		return code;
	code = decode_invocation(gpu, inv, d);
	if (code)
		return code;
	d->job_task_split = (uint32_t)mdg_get(params,
			MDG_COMPUTE_PARAMETERS_JOB_TASK_SPLIT);

	if (!mdg_get(draw, MDG_DRAW_DRAW_DESCRIPTOR_IS_64B)) {
		sgpu_guest_error(gpu, "sgpu: compute job 0x%llx: Draw "
				 "descriptor is not 64-bit",
				 (unsigned long long)job->va);
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	}
	d->uniform_buffers = mdg_get(draw, MDG_DRAW_UNIFORM_BUFFERS);
	d->textures = mdg_get(draw, MDG_DRAW_TEXTURES);
	d->samplers = mdg_get(draw, MDG_DRAW_SAMPLERS);
	d->push_uniforms = mdg_get(draw, MDG_DRAW_PUSH_UNIFORMS);
	d->rsd_va = mdg_get(draw, MDG_DRAW_STATE);
	d->attribute_buffers = mdg_get(draw, MDG_DRAW_ATTRIBUTE_BUFFERS);
	d->attributes = mdg_get(draw, MDG_DRAW_ATTRIBUTES);
	d->thread_storage = mdg_get(draw, MDG_DRAW_THREAD_STORAGE);

	if (d->rsd_va == 0 || (d->rsd_va & 63)) {
		sgpu_guest_error(gpu, "sgpu: compute job 0x%llx: bad renderer "
				 "state pointer 0x%llx",
				 (unsigned long long)job->va,
				 (unsigned long long)d->rsd_va);
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	}
	code = sgpu_vm_read(gpu, job->as_nr, d->rsd_va, d->rsd,
			    sizeof(d->rsd), AS_ACCESS_READ);
	if (code)
		return code;
	d->first_tag = (uint32_t)mdg_get(d->rsd, MDG_RENDERER_STATE_FIRST_TAG);
	d->shader_va = mdg_get(d->rsd, MDG_RENDERER_STATE_SHADER);

	if (d->thread_storage) {
		code = sgpu_vm_read(gpu, job->as_nr, d->thread_storage,
				    d->local_storage, sizeof(d->local_storage),
				    AS_ACCESS_READ);
		if (code)
			return code;
	}

	sgpu_trace(gpu, "sgpu_compute", "job=0x%llx local=%ux%ux%u "
		   "groups=%ux%ux%u shader=0x%llx",
		   (unsigned long long)job->va, d->local_size[0],
		   d->local_size[1], d->local_size[2], d->num_groups[0],
		   d->num_groups[1], d->num_groups[2],
		   (unsigned long long)d->shader_va);
	return 0;
}

/*
 * Runs one time slice of the job's dispatch, starting the dispatch on the
 * job's first slice. Between slices the dispatch waits in gpu->running[],
 * and the runner gives the other slots their turn.
 */
uint32_t sgpu_job_compute(struct sgpu_job *job)
{
	struct sgpu *gpu = job->gpu;
	struct sgpu_slot *s = &gpu->slot[job->js];
	struct sgpu_running_dispatch *rd = &gpu->running[job->js];
	struct sgpu_shader_ctx ctx = {
		.gpu = gpu, .js = job->js, .as_nr = job->as_nr,
		.epoch = s->epoch,
	};
	uint32_t code;

	if (rd->run && (rd->job_va != job->va || rd->epoch != s->epoch ||
			rd->chain_id != s->chain_id))
		sgpu_job_compute_abandon(gpu, job->js);
	if (!rd->run) {
		struct sgpu_compute_dispatch d;
		struct sgpu_dispatch *run = rd->spare;

		code = decode_dispatch(job, &d);
		if (code)
			return code;
		rd->spare = NULL;
		pthread_mutex_unlock(&gpu->lock);
		code = sgpu_shader_core_start(&ctx, &d, &run);
		pthread_mutex_lock(&gpu->lock);
		if (code)
			return code;
		rd->run = run;
		rd->job_va = job->va;
		rd->epoch = s->epoch;
		rd->chain_id = s->chain_id;
	}
	pthread_mutex_unlock(&gpu->lock);
	code = sgpu_shader_core_continue(rd->run, &ctx);
	pthread_mutex_lock(&gpu->lock);
	if (code == SGPU_SHADER_YIELD && s->epoch == ctx.epoch)
		return SGPU_JOB_YIELD;
	sgpu_job_compute_abandon(gpu, job->js);
	return code == SGPU_SHADER_YIELD ? MDG_EXCEPTION_TERMINATED : code;
}

/*
 * The cycle model: a T860 core issues one bundle per cycle on each of its
 * two arithmetic pipes, one on the load/store pipe and one on the texture
 * pipe, the pipes working in parallel; a core is busy for as long as its
 * busiest pipe (qemu/README.md "Cycle model").
 */
static uint64_t core_cycles(const struct sgpu_core_counts *c, uint64_t *arith)
{
	uint64_t a = (c->alu_bundles + 1) / 2, busy = a;

	*arith = a;
	if (c->ldst_bundles > busy)
		busy = c->ldst_bundles;
	if (c->tex_cycles > busy)
		busy = c->tex_cycles;
	return busy;
}

/* Charges a dispatch's counts to the statistics and perf counters. */
static void account(struct sgpu *gpu, const struct sgpu_shader_stats *st)
{
	struct sgpu_stats *s = &gpu->stats;
	uint64_t longest = 0;

	s->shader_dispatches++;
	s->shader_decodes += st->decodes;
	s->last_work_regs = st->work_regs;
	s->last_threads_per_core = st->threads_per_core;
	for (unsigned int i = 0; i < SGPU_SHADER_STATS_CORES &&
	     i < SGPU_MAX_CORES; i++) {
		const struct sgpu_core_counts *c = &st->core[i];
		struct sgpu_core_perf *p = &gpu->perf.core[i];
		uint64_t arith, busy = core_cycles(c, &arith);

		s->shader_workgroups += c->workgroups;
		s->shader_threads += c->threads;
		s->shader_alu_bundles += c->alu_bundles;
		s->shader_ldst_bundles += c->ldst_bundles;
		s->shader_tex_bundles += c->tex_bundles;
		s->shader_alu_instructions += c->alu_instructions;
		s->shader_ldst_instructions += c->ldst_instructions;
		s->shader_tex_instructions += c->tex_instructions;
		s->shader_arith_cycles += arith;
		s->shader_ls_cycles += c->ldst_bundles;
		s->shader_tex_cycles += c->tex_cycles;
		if (busy > longest)
			longest = busy;
		p->active_cycles += busy;
		p->tasks += c->workgroups;
		p->threads += c->threads;
		p->arith_words += c->alu_bundles;
		p->ls_words += c->ldst_bundles;
		p->tex_words += c->tex_bundles;
	}
	s->shader_cycles += longest;
}

void sgpu_job_compute_abandon(struct sgpu *gpu, unsigned int js)
{
	struct sgpu_running_dispatch *rd = &gpu->running[js];

	if (!rd->run)
		return;
	account(gpu, sgpu_shader_core_stats(rd->run));
	sgpu_shader_core_end(rd->run);
	sgpu_shader_core_free(rd->spare);
	rd->spare = rd->run;
	rd->run = NULL;
}

void sgpu_job_compute_fini(struct sgpu *gpu)
{
	for (unsigned int js = 0; js < SGPU_NUM_SLOTS; js++) {
		sgpu_shader_core_free(gpu->running[js].run);
		sgpu_shader_core_free(gpu->running[js].spare);
		gpu->running[js].run = NULL;
		gpu->running[js].spare = NULL;
	}
}

/* True if the chain this context belongs to is gone. Lock held. */
static bool ctx_stale(struct sgpu_shader_ctx *ctx)
{
	return ctx->gpu->slot[ctx->js].epoch != ctx->epoch;
}

static uint32_t ctx_access(struct sgpu_shader_ctx *ctx, uint64_t va,
			   void *buf, const void *src, size_t len,
			   unsigned int access)
{
	struct sgpu *gpu = ctx->gpu;
	uint32_t code;

	pthread_mutex_lock(&gpu->lock);
	if (ctx_stale(ctx))
		code = MDG_EXCEPTION_TERMINATED;
	else if (src)
		code = sgpu_vm_write(gpu, ctx->as_nr, va, src, len);
	else
		code = sgpu_vm_read(gpu, ctx->as_nr, va, buf, len, access);
	pthread_mutex_unlock(&gpu->lock);
	return code;
}

uint32_t sgpu_shader_read(struct sgpu_shader_ctx *ctx, uint64_t va, void *buf,
			  size_t len)
{
	return ctx_access(ctx, va, buf, NULL, len, AS_ACCESS_READ);
}

uint32_t sgpu_shader_fetch(struct sgpu_shader_ctx *ctx, uint64_t va,
			   void *buf, size_t len)
{
	return ctx_access(ctx, va, buf, NULL, len, AS_ACCESS_EXECUTE);
}

uint32_t sgpu_shader_write(struct sgpu_shader_ctx *ctx, uint64_t va,
			   const void *buf, size_t len)
{
	return ctx_access(ctx, va, NULL, buf, len, AS_ACCESS_WRITE);
}

uint32_t sgpu_shader_map(struct sgpu_shader_ctx *ctx, uint64_t va, bool write,
			 bool report, uint8_t **page)
{
	struct sgpu *gpu = ctx->gpu;
	uint32_t code;

	*page = NULL;
	pthread_mutex_lock(&gpu->lock);
	if (ctx_stale(ctx))
		code = MDG_EXCEPTION_TERMINATED;
	else
		code = sgpu_vm_page(gpu, ctx->as_nr, va, write ?
				    AS_ACCESS_WRITE : AS_ACCESS_READ, report,
				    page);
	pthread_mutex_unlock(&gpu->lock);
	return code;
}

const uint64_t *sgpu_shader_mmu_generation(struct sgpu_shader_ctx *ctx)
{
	return &ctx->gpu->mmu_generation;
}

void sgpu_shader_threads(struct sgpu_shader_ctx *ctx,
			 struct sgpu_shader_threads *out)
{
	const struct sgpu *gpu = ctx->gpu;

	out->threads = gpu->config.shader_threads;
	if (!out->threads)
		out->threads = gpu->host_cpus;
	out->begin = gpu->host.thread_begin;
	out->end = gpu->host.thread_end;
	out->opaque = gpu->host.opaque;
}

uint32_t sgpu_shader_poll(struct sgpu_shader_ctx *ctx,
			  uint64_t *slice_start_ns)
{
	struct sgpu *gpu = ctx->gpu;
	struct sgpu_slot *s = &gpu->slot[ctx->js];
	uint64_t now;
	uint32_t code = 0;

	pthread_mutex_lock(&gpu->lock);
	now = sgpu_now_ns(gpu);
	if (!*slice_start_ns)
		*slice_start_ns = now;
	/*
	 * Only the driver ends a running job (HARD_STOP, reset): the
	 * hardware has no watchdog, so neither has the model. A job that
	 * never ends keeps its slot for as long as the driver lets it, a
	 * time slice at a time, and the other slots get their turns.
	 */
	if (ctx_stale(ctx) || s->hard_stop)
		code = MDG_EXCEPTION_TERMINATED;
	else if (now - *slice_start_ns >= SGPU_COMPUTE_SLICE_NS)
		code = SGPU_SHADER_YIELD;
	pthread_mutex_unlock(&gpu->lock);
	return code;
}

uint64_t sgpu_shader_now(struct sgpu_shader_ctx *ctx)
{
	uint64_t now;

	pthread_mutex_lock(&ctx->gpu->lock);
	now = sgpu_now_ns(ctx->gpu);
	pthread_mutex_unlock(&ctx->gpu->lock);
	return now;
}

void sgpu_shader_guest_error(struct sgpu_shader_ctx *ctx, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&ctx->gpu->lock);
	sgpu_guest_error(ctx->gpu, "%s", msg);
	pthread_mutex_unlock(&ctx->gpu->lock);
}
