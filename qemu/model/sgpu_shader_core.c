/* SPDX-License-Identifier: MIT */
/*
 * The shader cores: runs a COMPUTE job's workgroups (docs/hardware.md
 * §4.3-§4.6).
 *
 * Reads the renderer state (work registers, uniforms, UBO count, barrier
 * bit, FP mode), the pushed uniforms and UBO descriptors, and the local
 * storage descriptor; then runs the workgroups in order, each on the next
 * shader core of the job's affinity. Within a workgroup every thread runs
 * until it ends or reaches a barrier; when all live threads wait at the
 * barrier they resume together (sgpu_thread.c runs one thread). A
 * dispatch runs in time slices (sgpu_shader_core_continue()); between
 * slices every thread keeps its PC and registers, so the job manager can
 * let the other slots run meanwhile.
 *
 * Thread-local storage: thread t of a workgroup on core c uses slot
 * c * 256 + t of TLS Base (256 = THREAD_TLS_ALLOC, the threads a core can
 * hold), each slot 16 << TLS Size bytes. Workgroup-local storage: the
 * workgroup (x, y, z) uses instance x + y * X' + z * X' * Y' (X', Y' the
 * group counts rounded up to powers of two, as Mesa sizes the buffer),
 * modulo the descriptor's instance count. The hardware's own placement is
 * not public (docs/hardware.md §4.5); any placement inside the sizes the
 * drivers allocate is correct for them.
 *
 * Residency: a core holds 256 threads of a shader with up to 4 work
 * registers, 128 with up to 8, 64 with up to 16 (docs/hardware.md §5.6). A
 * workgroup that synchronises at barriers must fit on one core at once, so
 * a barrier shader whose workgroup exceeds that fails with
 * JOB_CONFIG_FAULT instead of deadlocking.
 */
#include <stdlib.h>
#include <string.h>

#include "sgpu_shader.h"

#define TLS_SLOTS_PER_CORE 256u

unsigned int sgpu_threads_per_core(unsigned int work_regs)
{
	if (work_regs <= 4)
		return 256;
	if (work_regs <= 8)
		return 128;
	return 64;
}

static uint64_t next_pow2(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static uint32_t config_fault(struct sgpu_exec *ex, const char *what)
{
	sgpu_shader_guest_error(ex->ctx, "sgpu: compute job 0x%llx: %s",
				(unsigned long long)ex->d->job_va, what);
	return MDG_EXCEPTION_JOB_CONFIG_FAULT;
}

static uint32_t read_renderer_state(struct sgpu_exec *ex)
{
	const struct sgpu_compute_dispatch *d = ex->d;
	uint8_t buf[SGPU_MAX_UBOS * MDG_UNIFORM_BUFFER_BYTES];
	uint32_t code;

	ex->ubo_count = (unsigned int)
		mdg_get(d->rsd, MDG_RENDERER_STATE_UNIFORM_BUFFER_COUNT);
	ex->has_barrier = mdg_get(d->rsd,
				  MDG_RENDERER_STATE_SHADER_CONTAINS_BARRIER);
	ex->work_regs = (unsigned int)
		mdg_get(d->rsd, MDG_RENDERER_STATE_WORK_REGISTER_COUNT);
	ex->uniform_vec4 = (unsigned int)
		mdg_get(d->rsd, MDG_RENDERER_STATE_UNIFORM_COUNT);
	ex->fp_mode = (enum sgpu_fp_mode)
		mdg_get(d->rsd, MDG_RENDERER_STATE_FP_MODE);
	if (ex->fp_mode > SGPU_FP_D3D11)
		return config_fault(ex, "reserved FP mode in the renderer "
				    "state");
	if (ex->work_regs > SGPU_MAX_WORK_REGS)
		return config_fault(ex, "more than 16 work registers");
	if (ex->uniform_vec4 > SGPU_MAX_UNIFORM_VEC4 ||
	    ex->work_regs > 24 - ex->uniform_vec4)
		return config_fault(ex, "work registers and uniforms overlap");

	if (ex->uniform_vec4) {
		code = sgpu_shader_read(ex->ctx, d->push_uniforms, buf,
					ex->uniform_vec4 * 16u);
		if (code)
			return code;
		memcpy(ex->uniforms, buf, ex->uniform_vec4 * 16u);
	}
	if (ex->ubo_count) {
		code = sgpu_shader_read(ex->ctx, d->uniform_buffers, buf,
					ex->ubo_count *
					MDG_UNIFORM_BUFFER_BYTES);
		if (code)
			return code;
		for (unsigned int i = 0; i < ex->ubo_count; i++) {
			const uint8_t *ubo = buf + i * MDG_UNIFORM_BUFFER_BYTES;

			ex->ubo_va[i] = mdg_get(ubo, MDG_UNIFORM_BUFFER_POINTER);
			ex->ubo_bytes[i] = 16 * (uint32_t)
				mdg_get(ubo, MDG_UNIFORM_BUFFER_ENTRIES);
		}
	}
	return 0;
}

static void read_local_storage(struct sgpu_exec *ex)
{
	const uint8_t *ls = ex->d->local_storage;
	unsigned int instances_log2 = (unsigned int)
		mdg_get(ls, MDG_LOCAL_STORAGE_WLS_INSTANCES);
	unsigned int scale = (unsigned int)
		mdg_get(ls, MDG_LOCAL_STORAGE_WLS_SIZE_SCALE);

	ex->tls_base = mdg_get(ls, MDG_LOCAL_STORAGE_TLS_BASE_POINTER);
	ex->tls_per_thread = 16ull << mdg_get(ls, MDG_LOCAL_STORAGE_TLS_SIZE);
	ex->tls_sp_offset = (uint32_t)
		mdg_get(ls, MDG_LOCAL_STORAGE_TLS_INITIAL_STACK_POINTER_OFFSET);
	ex->wls_base = mdg_get(ls, MDG_LOCAL_STORAGE_WLS_BASE_POINTER);
	/* Instances 31 is Mesa's "no workgroup memory". */
	if (instances_log2 == 31 || scale == 0)
		ex->wls_base = 0;
	ex->wls_instances = 1ull << (instances_log2 & 0x1F);
	ex->wls_instance_bytes = scale ? 1ull << (scale - 1) : 0;
}

static void start_group(struct sgpu_exec *ex, struct sgpu_thread *threads,
			const uint32_t group[3], unsigned int core)
{
	const struct sgpu_compute_dispatch *d = ex->d;
	uint64_t gx = next_pow2(d->num_groups[0]);
	uint64_t gy = next_pow2(d->num_groups[1]);
	uint64_t instance = group[0] + group[1] * gx + group[2] * gx * gy;
	uint32_t n = 0;

	memcpy(ex->group_id, group, sizeof(ex->group_id));
	ex->core = core;
	ex->core_tls = ex->tls_base +
		       (uint64_t)core * TLS_SLOTS_PER_CORE * ex->tls_per_thread;
	ex->group_wls = ex->wls_base ? ex->wls_base +
			(instance % ex->wls_instances) * ex->wls_instance_bytes :
			0;
	for (uint32_t z = 0; z < d->local_size[2]; z++) {
		for (uint32_t y = 0; y < d->local_size[1]; y++) {
			for (uint32_t x = 0; x < d->local_size[0]; x++) {
				struct sgpu_thread *th = &threads[n];

				memset(th->r, 0, sizeof(th->r));
				for (unsigned int k = 0; k < ex->uniform_vec4; k++)
					th->r[23 - k] = ex->uniforms[k];
				th->pc = d->shader_va;
				th->tag = (uint8_t)d->first_tag;
				th->state = SGPU_THREAD_RUNNABLE;
				th->local_id[0] = x;
				th->local_id[1] = y;
				th->local_id[2] = z;
				th->linear_id = n++;
			}
		}
	}
}

/* A dispatch in progress (sgpu_shader_core.h). */
struct sgpu_dispatch {
	struct sgpu_exec ex;
	struct sgpu_compute_dispatch d;
	struct sgpu_thread *threads;
	uint32_t nthreads;
	uint64_t next_group, total_groups;
	bool group_running;
	struct sgpu_pipe_counts group_before;
	unsigned int cores[64], ncores, next_core;
	struct sgpu_shader_stats st;
};

/*
 * Runs the current workgroup's threads until they have all finished,
 * meeting at barriers. Threads keep their state when the slice ends, so
 * calling it again resumes them.
 */
static uint32_t run_group(struct sgpu_exec *ex, struct sgpu_thread *threads,
			  uint32_t nthreads)
{
	for (;;) {
		uint32_t waiting = 0;

		for (uint32_t i = 0; i < nthreads; i++) {
			uint32_t code;

			if (threads[i].state != SGPU_THREAD_RUNNABLE)
				continue;
			code = sgpu_thread_run(ex, &threads[i]);
			if (code)
				return code;
		}
		for (uint32_t i = 0; i < nthreads; i++) {
			if (threads[i].state == SGPU_THREAD_AT_BARRIER) {
				threads[i].state = SGPU_THREAD_RUNNABLE;
				waiting++;
			}
		}
		if (!waiting)
			return 0;
	}
}

/* Adds what a core did since *before to its row of the stats. */
static void charge_core(struct sgpu_shader_stats *st, unsigned int core,
			const struct sgpu_pipe_counts *now,
			const struct sgpu_pipe_counts *before)
{
	struct sgpu_core_counts *c = &st->core[core];

	c->alu_bundles += now->alu_bundles - before->alu_bundles;
	c->ldst_bundles += now->ldst_bundles - before->ldst_bundles;
	c->tex_bundles += now->tex_bundles - before->tex_bundles;
	c->alu_instructions += now->alu_instructions - before->alu_instructions;
	c->ldst_instructions += now->ldst_instructions -
				before->ldst_instructions;
	c->tex_instructions += now->tex_instructions - before->tex_instructions;
	c->threads += now->threads - before->threads;
}

/* The current workgroup's counts so far go to its core. */
static void charge_group(struct sgpu_dispatch *run)
{
	if (run->ex.core < SGPU_SHADER_STATS_CORES)
		charge_core(&run->st, run->ex.core, &run->ex.counts,
			    &run->group_before);
	run->group_before = run->ex.counts;
}

uint32_t sgpu_shader_core_start(struct sgpu_shader_ctx *ctx,
				const struct sgpu_compute_dispatch *dispatch,
				struct sgpu_dispatch **out)
{
	struct sgpu_dispatch *run;
	struct sgpu_exec *ex;
	uint32_t code;

	*out = NULL;
	run = calloc(1, sizeof(*run));
	if (!run)
		return MDG_EXCEPTION_TERMINATED;
	ex = &run->ex;
	run->d = *dispatch;
	ex->ctx = ctx;
	ex->d = &run->d;
	if (sgpu_cache_init(&ex->cache)) {
		free(run);
		return MDG_EXCEPTION_TERMINATED;
	}
	code = read_renderer_state(ex);
	if (code)
		goto fail;
	read_local_storage(ex);
	run->nthreads = dispatch->local_size[0] * dispatch->local_size[1] *
			dispatch->local_size[2];
	run->total_groups = (uint64_t)dispatch->num_groups[0] *
			    dispatch->num_groups[1] * dispatch->num_groups[2];
	run->st.threads_per_core = sgpu_threads_per_core(ex->work_regs);
	run->st.work_regs = ex->work_regs;
	if (ex->has_barrier && run->nthreads > run->st.threads_per_core) {
		sgpu_shader_guest_error(ctx, "sgpu: compute job 0x%llx: a "
			"%u-thread workgroup with barriers cannot be resident "
			"on a core holding %u threads of a shader with %u "
			"work registers", (unsigned long long)dispatch->job_va,
			run->nthreads, run->st.threads_per_core,
			ex->work_regs);
		code = MDG_EXCEPTION_JOB_CONFIG_FAULT;
		goto fail;
	}
	for (unsigned int c = 0; c < 64; c++) {
		if (dispatch->affinity & (1ull << c))
			run->cores[run->ncores++] = c;
	}
	if (!run->ncores) {
		code = config_fault(ex, "no shader core in the job's affinity");
		goto fail;
	}
	run->threads = calloc(run->nthreads, sizeof(*run->threads));
	if (!run->threads) {
		code = MDG_EXCEPTION_TERMINATED;
		goto fail;
	}
	*out = run;
	return 0;
fail:
	sgpu_cache_fini(&ex->cache);
	free(run);
	return code;
}

uint32_t sgpu_shader_core_continue(struct sgpu_dispatch *run,
				   struct sgpu_shader_ctx *ctx)
{
	const struct sgpu_compute_dispatch *d = &run->d;
	struct sgpu_exec *ex = &run->ex;
	uint32_t code;

	ex->ctx = ctx;
	ex->slice_start_ns = 0;
	while (run->group_running || run->next_group < run->total_groups) {
		if (!run->group_running) {
			uint64_t g = run->next_group++;
			uint32_t group[3];

			group[0] = (uint32_t)(g % d->num_groups[0]);
			group[1] = (uint32_t)(g / d->num_groups[0] %
					      d->num_groups[1]);
			group[2] = (uint32_t)(g / d->num_groups[0] /
					      d->num_groups[1]);
			start_group(ex, run->threads, group,
				    run->cores[run->next_core++ % run->ncores]);
			ex->counts.threads += run->nthreads;
			if (ex->core < SGPU_SHADER_STATS_CORES)
				run->st.core[ex->core].workgroups++;
			run->group_running = true;
		}
		code = run_group(ex, run->threads, run->nthreads);
		charge_group(run);
		if (code)
			return code;
		run->group_running = false;
	}
	return 0;
}

const struct sgpu_shader_stats *sgpu_shader_core_stats(struct sgpu_dispatch *run)
{
	run->st.decodes = run->ex.cache.decodes;
	return &run->st;
}

void sgpu_shader_core_free(struct sgpu_dispatch *run)
{
	if (!run)
		return;
	sgpu_cache_fini(&run->ex.cache);
	free(run->threads);
	free(run);
}
