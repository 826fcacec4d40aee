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
 * Thread-local storage: lane t of a task (below) on core c uses slot
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
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sgpu_warp.h"

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
	ex->tex_tables.textures = d->textures;
	ex->tex_tables.samplers = d->samplers;
	ex->tex_tables.texture_count = (uint32_t)
		mdg_get(d->rsd, MDG_RENDERER_STATE_TEXTURE_COUNT);
	ex->tex_tables.sampler_count = (uint32_t)
		mdg_get(d->rsd, MDG_RENDERER_STATE_SAMPLER_COUNT);
	ex->attribute_count = (uint32_t)
		mdg_get(d->rsd, MDG_RENDERER_STATE_ATTRIBUTE_COUNT);
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

/* A host thread running tasks of a dispatch, with its own engine state. */
struct sgpu_worker {
	struct sgpu_dispatch *run;
	struct sgpu_exec ex;              /* its copy, its caches and counts */
	struct sgpu_task task;
	bool task_running;
	struct sgpu_thread *threads;      /* the task's lanes (reference) */
	struct sgpu_warp *warp;           /* or the lockstep engine's */
	struct sgpu_pipe_counts task_before;
	uint32_t code;                    /* how its last slice ended */
	uint64_t slice_seen;
	pthread_t thread;
	bool thread_started;
};

/*
 * A dispatch in progress (sgpu_shader_core.h). The shader cores run on up
 * to nworkers host threads: worker 0 is the caller of
 * sgpu_shader_core_continue(), the others wait for each slice in a pool
 * the dispatch owns. Tasks are handed out under lock, each to the next
 * worker free; memory is shared, atomics are serialised (atomics_lock).
 */
struct sgpu_dispatch {
	struct sgpu_compute_dispatch d;
	uint32_t group_threads;           /* threads per workgroup */
	uint32_t groups_per_task;         /* 0: a workgroup spans tasks */
	uint64_t total_groups;
	unsigned int cores[64], ncores;
	/* Per core of the affinity (index into cores[]): */
	uint64_t core_round[64];          /* its next round */
	uint32_t core_next_thread[64];    /* in the workgroup, when it spans */
	bool core_busy[64];               /* a worker runs its task */
	struct sgpu_shader_stats st;

	pthread_mutex_t lock;             /* all of the above, and the pool */
	pthread_cond_t cond;
	pthread_mutex_t atomics_lock;
	struct sgpu_shader_threads hooks;
	uint64_t slice;                   /* bumped to start a slice */
	/* When the runner began the slice: every worker's slice ends at the
	 * same time, however late the host woke it, so the runner does not
	 * wait at the end for a whole slice of a late one. */
	uint64_t slice_start_ns;
	unsigned int busy;                /* pool workers still in it */
	bool failed;                      /* a worker ended with a fault */
	bool quit;
	bool ended;                       /* sgpu_shader_core_end() ran */
	unsigned int nworkers;
	/* Workers holding memory (register files, decode cache) from this
	 * or an earlier dispatch of the same object. */
	unsigned int workers_with_memory;
	struct sgpu_worker worker[SGPU_MAX_SHADER_THREADS];
};

/* The WLS instance of workgroup group (see the top of the file). */
static uint64_t group_wls(const struct sgpu_exec *ex, const uint32_t group[3])
{
	const struct sgpu_compute_dispatch *d = ex->d;
	uint64_t gx = next_pow2(d->num_groups[0]);
	uint64_t gy = next_pow2(d->num_groups[1]);
	uint64_t instance = group[0] + group[1] * gx + group[2] * gx * gy;

	return ex->wls_base ? ex->wls_base +
	       (instance % ex->wls_instances) * ex->wls_instance_bytes : 0;
}

/* Workgroups per round of the cores: one task's worth each. */
static uint64_t round_groups(const struct sgpu_dispatch *run)
{
	return (uint64_t)run->ncores *
	       (run->groups_per_task ? run->groups_per_task : 1);
}

/* The first workgroup of core slot @slot's next task. */
static uint64_t core_first_group(const struct sgpu_dispatch *run,
				 unsigned int slot)
{
	return run->core_round[slot] * round_groups(run) + slot;
}

/*
 * The core slot whose task comes next (run->lock held): of the cores not
 * running a task, the one whose next task is earliest in the order one
 * host thread would run them (round by round, core by core); -1 when
 * none has work. A core runs one task at a time, as its thread-storage
 * slots hold one task's lanes (every lane of a task has its own).
 */
static int next_core(const struct sgpu_dispatch *run)
{
	int best = -1;

	for (unsigned int c = 0; c < run->ncores; c++) {
		if (run->core_busy[c] ||
		    core_first_group(run, c) >= run->total_groups)
			continue;
		if (best < 0 || run->core_round[c] < run->core_round[best])
			best = (int)c;
	}
	return best;
}

/*
 * Hands out core slot @slot's next task. Workgroups go to the affinity's
 * cores in turn, one hardware task each (Mesa's job task split makes a
 * task one workgroup), so core c of n runs workgroups c, c + n, c + 2n,
 * ...; a model task runs together as many of one core's workgroups as
 * fit its SGPU_TASK_LANES thread-storage slots (a round of the cores), or
 * the next SGPU_TASK_LANES threads of a workgroup larger than that.
 * Running more threads together than the core holds at once changes
 * nothing a shader can observe: workgroups are independent, and each
 * lane keeps its own storage slot. Called with run->lock held.
 */
static void next_task(struct sgpu_dispatch *run, struct sgpu_worker *wk,
		      unsigned int slot)
{
	const struct sgpu_compute_dispatch *d = &run->d;
	struct sgpu_exec *ex = &wk->ex;
	struct sgpu_task *t = &wk->task;
	uint32_t groups = 0, first_thread = 0, lanes;
	uint64_t first = core_first_group(run, slot);

	if (run->groups_per_task) {
		while (groups < run->groups_per_task &&
		       first + (uint64_t)groups * run->ncores <
		       run->total_groups)
			groups++;
		lanes = groups * run->group_threads;
	} else {
		groups = 1;
		first_thread = run->core_next_thread[slot];
		lanes = run->group_threads - first_thread;
		if (lanes > SGPU_TASK_LANES)
			lanes = SGPU_TASK_LANES;
	}
	t->slot = slot;
	t->core = run->cores[slot];
	t->lanes = lanes;
	t->groups = groups;
	for (uint32_t g = 0; g < groups; g++) {
		uint64_t n = first + (uint64_t)g * run->ncores;

		t->group_id[g][0] = (uint32_t)(n % d->num_groups[0]);
		t->group_id[g][1] = (uint32_t)(n / d->num_groups[0] %
					       d->num_groups[1]);
		t->group_id[g][2] = (uint32_t)(n / d->num_groups[0] /
					       d->num_groups[1]);
		t->group_wls[g] = group_wls(ex, t->group_id[g]);
	}
	for (uint32_t l = 0; l < lanes; l++) {
		uint32_t i = (first_thread + l) % run->group_threads;

		t->lane_group[l] = (uint16_t)((first_thread + l) /
					      run->group_threads);
		t->local_id[l][0] = i % d->local_size[0];
		t->local_id[l][1] = i / d->local_size[0] % d->local_size[1];
		t->local_id[l][2] = i / d->local_size[0] / d->local_size[1];
	}
	/* The core's next task: the workgroup's next slice, or next round. */
	run->core_busy[slot] = true;
	if (run->groups_per_task) {
		run->core_round[slot]++;
	} else {
		run->core_next_thread[slot] += lanes;
		if (run->core_next_thread[slot] >= run->group_threads) {
			run->core_next_thread[slot] = 0;
			run->core_round[slot]++;
		}
	}
	ex->task = t;
	ex->core = t->core;
	ex->core_tls = ex->tls_base + (uint64_t)t->core * TLS_SLOTS_PER_CORE *
		       ex->tls_per_thread;
	ex->counts.threads += lanes;
	if (t->core < SGPU_SHADER_STATS_CORES && first_thread == 0)
		run->st.core[t->core].workgroups += groups;
}

/* Sets the task's lanes up at the shader's first bundle. */
static void start_threads(struct sgpu_exec *ex, const struct sgpu_task *t,
			  struct sgpu_thread *threads)
{
	for (uint32_t l = 0; l < t->lanes; l++) {
		struct sgpu_thread *th = &threads[l];

		memset(th->r, 0, sizeof(th->r));
		for (unsigned int k = 0; k < ex->uniform_vec4; k++)
			th->r[23 - k] = ex->uniforms[k];
		th->pc = ex->d->shader_va;
		th->tag = (uint8_t)ex->d->first_tag;
		th->state = SGPU_THREAD_RUNNABLE;
		memcpy(th->local_id, t->local_id[l], sizeof(th->local_id));
		th->linear_id = l;
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
	c->tex_cycles += now->tex_cycles - before->tex_cycles;
	c->threads += now->threads - before->threads;
}

/* The worker's task's counts so far go to its core (run->lock held). */
static void charge_task(struct sgpu_dispatch *run, struct sgpu_worker *wk)
{
	if (wk->task.core < SGPU_SHADER_STATS_CORES)
		charge_core(&run->st, wk->task.core, &wk->ex.counts,
			    &wk->task_before);
	wk->task_before = wk->ex.counts;
}

/*
 * Runs the worker's tasks until they are all done (0), its time slice is
 * over (SGPU_SHADER_YIELD, the task kept for the next slice), another
 * worker failed, or its own task faults (the exception code).
 */
static uint32_t worker_slice(struct sgpu_dispatch *run, struct sgpu_worker *wk)
{
	struct sgpu_exec *ex = &wk->ex;
	uint32_t code = 0;

	ex->slice_start_ns = run->slice_start_ns;
	for (;;) {
		if (!wk->task_running) {
			int slot;

			/*
			 * No core free with work left: the workers running
			 * the rest end them (in this slice or, when they
			 * yield, a later one).
			 */
			pthread_mutex_lock(&run->lock);
			slot = run->failed ? -1 : next_core(run);
			if (slot < 0) {
				pthread_mutex_unlock(&run->lock);
				break;
			}
			next_task(run, wk, (unsigned int)slot);
			pthread_mutex_unlock(&run->lock);
			if (wk->warp)
				sgpu_warp_start(ex, wk->warp);
			else
				start_threads(ex, &wk->task, wk->threads);
			wk->task_running = true;
		}
		if (wk->warp)
			code = sgpu_warp_run(ex, wk->warp);
		else
			code = sgpu_threads_run_task(ex, wk->threads,
						     wk->task.lanes);
		pthread_mutex_lock(&run->lock);
		charge_task(run, wk);
		if (code && code != SGPU_SHADER_YIELD)
			run->failed = true;
		if (!code)
			run->core_busy[wk->task.slot] = false;
		pthread_mutex_unlock(&run->lock);
		if (code)
			break;
		wk->task_running = false;
	}
	return code;
}

/* A pool worker: one slice each time the dispatch's slice moves on. */
static void *worker_main(void *arg)
{
	struct sgpu_worker *wk = arg;
	struct sgpu_dispatch *run = wk->run;

	if (run->hooks.begin)
		run->hooks.begin(run->hooks.opaque);
	pthread_mutex_lock(&run->lock);
	for (;;) {
		while (!run->quit && wk->slice_seen == run->slice)
			pthread_cond_wait(&run->cond, &run->lock);
		if (run->quit)
			break;
		wk->slice_seen = run->slice;
		pthread_mutex_unlock(&run->lock);
		wk->code = worker_slice(run, wk);
		pthread_mutex_lock(&run->lock);
		if (!--run->busy)
			pthread_cond_broadcast(&run->cond);
	}
	pthread_mutex_unlock(&run->lock);
	if (run->hooks.end)
		run->hooks.end(run->hooks.opaque);
	return NULL;
}

/* Sets worker i up as a copy of worker 0's execution state, with the
 * register files and decode cache it kept from an earlier dispatch. */
static int worker_init(struct sgpu_dispatch *run, unsigned int i,
		       bool reference)
{
	struct sgpu_worker *wk = &run->worker[i];

	wk->run = run;
	if (i) {
		struct sgpu_shader_cache cache = wk->ex.cache;

		wk->ex = run->worker[0].ex;
		wk->ex.cache = cache;
		memset(wk->ex.pages, 0, sizeof(wk->ex.pages));
		if (sgpu_cache_clear(&wk->ex.cache))
			return -1;
	}
	if (i >= run->workers_with_memory)
		run->workers_with_memory = i + 1;
	wk->ex.atomics_lock = run->nworkers > 1 ? &run->atomics_lock : NULL;
	if (reference && !wk->threads)
		wk->threads = calloc(SGPU_TASK_LANES, sizeof(*wk->threads));
	else if (!reference && !wk->warp)
		wk->warp = calloc(1, sizeof(*wk->warp));
	return (reference ? (void *)wk->threads : (void *)wk->warp) ? 0 : -1;
}

/* What a worker keeps from one dispatch to the next. */
struct worker_memory {
	struct sgpu_shader_cache cache;
	struct sgpu_thread *threads;
	struct sgpu_warp *warp;
};

/*
 * A dispatch whose fields are all zero but the workers' memory: @old's
 * (ended), or a new one. The register files need no clearing: a task
 * starts by setting every register its shader may read (sgpu_warp_start,
 * start_threads), as it does for each task of one dispatch.
 */
static struct sgpu_dispatch *dispatch_alloc(struct sgpu_dispatch *old)
{
	struct worker_memory mem[SGPU_MAX_SHADER_THREADS];
	unsigned int n;

	if (!old)
		return calloc(1, sizeof(*old));
	n = old->workers_with_memory;
	for (unsigned int i = 0; i < n; i++) {
		mem[i].cache = old->worker[i].ex.cache;
		mem[i].threads = old->worker[i].threads;
		mem[i].warp = old->worker[i].warp;
	}
	memset(old, 0, offsetof(struct sgpu_dispatch, worker));
	memset(old->worker, 0, n * sizeof(old->worker[0]));
	for (unsigned int i = 0; i < n; i++) {
		old->worker[i].ex.cache = mem[i].cache;
		old->worker[i].threads = mem[i].threads;
		old->worker[i].warp = mem[i].warp;
	}
	old->workers_with_memory = n;
	return old;
}

uint32_t sgpu_shader_core_start(struct sgpu_shader_ctx *ctx,
				const struct sgpu_compute_dispatch *dispatch,
				struct sgpu_dispatch **out)
{
	struct sgpu_dispatch *run;
	struct sgpu_exec *ex;
	uint64_t tasks;
	uint32_t code;

	run = dispatch_alloc(*out);
	*out = NULL;
	if (!run)
		return MDG_EXCEPTION_TERMINATED;
	pthread_mutex_init(&run->lock, NULL);
	pthread_cond_init(&run->cond, NULL);
	pthread_mutex_init(&run->atomics_lock, NULL);
	ex = &run->worker[0].ex;
	run->d = *dispatch;
	ex->ctx = ctx;
	ex->d = &run->d;
	ex->mmu_generation = sgpu_shader_mmu_generation(ctx);
	if (sgpu_cache_clear(&ex->cache)) {
		sgpu_shader_core_free(run);
		return MDG_EXCEPTION_TERMINATED;
	}
	code = read_renderer_state(ex);
	if (code)
		goto fail;
	read_local_storage(ex);
	run->group_threads = dispatch->local_size[0] *
			     dispatch->local_size[1] * dispatch->local_size[2];
	run->total_groups = (uint64_t)dispatch->num_groups[0] *
			    dispatch->num_groups[1] * dispatch->num_groups[2];
	run->st.threads_per_core = sgpu_threads_per_core(ex->work_regs);
	run->st.work_regs = ex->work_regs;
	if (ex->has_barrier && run->group_threads > run->st.threads_per_core) {
		sgpu_shader_guest_error(ctx, "sgpu: compute job 0x%llx: a "
			"%u-thread workgroup with barriers cannot be resident "
			"on a core holding %u threads of a shader with %u "
			"work registers", (unsigned long long)dispatch->job_va,
			run->group_threads, run->st.threads_per_core,
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
	/*
	 * A task holds whole workgroups up to the core's 256 thread-storage
	 * slots (a barrier waits for every lane of the task, which holds
	 * each of its workgroups whole), or slices of a bigger workgroup.
	 */
	if (run->group_threads > SGPU_TASK_LANES)
		run->groups_per_task = 0;
	else
		run->groups_per_task = SGPU_TASK_LANES / run->group_threads;
	/* A host thread per shader core, as many as the host has. */
	sgpu_shader_threads(ctx, &run->hooks);
	tasks = run->groups_per_task ?
		(run->total_groups + run->groups_per_task - 1) /
		run->groups_per_task :
		run->total_groups * ((run->group_threads + SGPU_TASK_LANES - 1) /
				     SGPU_TASK_LANES);
	run->nworkers = run->hooks.threads;
	if (run->nworkers > run->ncores)
		run->nworkers = run->ncores;
	if (run->nworkers > tasks)
		run->nworkers = (unsigned int)tasks;
	if (run->nworkers > SGPU_MAX_SHADER_THREADS)
		run->nworkers = SGPU_MAX_SHADER_THREADS;
	if (!run->nworkers)
		run->nworkers = 1;
	for (unsigned int i = 0; i < run->nworkers; i++) {
		if (worker_init(run, i, dispatch->reference_engine)) {
			code = MDG_EXCEPTION_TERMINATED;
			goto fail;
		}
	}
	for (unsigned int i = 1; i < run->nworkers; i++) {
		struct sgpu_worker *wk = &run->worker[i];

		if (pthread_create(&wk->thread, NULL, worker_main, wk)) {
			/* Fewer threads: the work is the same. */
			run->nworkers = i;
			break;
		}
		wk->thread_started = true;
	}
	*out = run;
	return 0;
fail:
	sgpu_shader_core_free(run);
	return code;
}

uint32_t sgpu_shader_core_continue(struct sgpu_dispatch *run,
				   struct sgpu_shader_ctx *ctx)
{
	uint32_t code = 0;
	bool yielded = false;

	for (unsigned int i = 0; i < run->nworkers; i++)
		run->worker[i].ex.ctx = ctx;
	run->slice_start_ns = sgpu_shader_now(ctx);
	if (run->nworkers > 1) {
		pthread_mutex_lock(&run->lock);
		run->slice++;
		run->busy = run->nworkers - 1;
		pthread_cond_broadcast(&run->cond);
		pthread_mutex_unlock(&run->lock);
	}
	run->worker[0].code = worker_slice(run, &run->worker[0]);
	if (run->nworkers > 1) {
		pthread_mutex_lock(&run->lock);
		while (run->busy)
			pthread_cond_wait(&run->cond, &run->lock);
		pthread_mutex_unlock(&run->lock);
	}
	/* The first fault in worker order; else whether work is left. */
	for (unsigned int i = 0; i < run->nworkers; i++) {
		uint32_t c = run->worker[i].code;

		if (c == SGPU_SHADER_YIELD)
			yielded = true;
		else if (c && !code)
			code = c;
	}
	if (code)
		return code;
	return yielded ? SGPU_SHADER_YIELD : 0;
}

const struct sgpu_shader_stats *sgpu_shader_core_stats(struct sgpu_dispatch *run)
{
	run->st.decodes = 0;
	for (unsigned int i = 0; i < run->nworkers; i++)
		run->st.decodes += run->worker[i].ex.cache.decodes;
	return &run->st;
}

void sgpu_shader_core_end(struct sgpu_dispatch *run)
{
	if (!run || run->ended)
		return;
	pthread_mutex_lock(&run->lock);
	run->quit = true;
	pthread_cond_broadcast(&run->cond);
	pthread_mutex_unlock(&run->lock);
	for (unsigned int i = 0; i < SGPU_MAX_SHADER_THREADS; i++) {
		struct sgpu_worker *wk = &run->worker[i];

		if (wk->thread_started)
			pthread_join(wk->thread, NULL);
		wk->thread_started = false;
	}
	pthread_mutex_destroy(&run->atomics_lock);
	pthread_cond_destroy(&run->cond);
	pthread_mutex_destroy(&run->lock);
	run->ended = true;
}

void sgpu_shader_core_free(struct sgpu_dispatch *run)
{
	if (!run)
		return;
	sgpu_shader_core_end(run);
	for (unsigned int i = 0; i < SGPU_MAX_SHADER_THREADS; i++) {
		struct sgpu_worker *wk = &run->worker[i];

		sgpu_cache_fini(&wk->ex.cache);
		free(wk->threads);
		free(wk->warp);
	}
	free(run);
}
