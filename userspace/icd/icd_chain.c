/* SPDX-License-Identifier: MIT */
/*
 * Chains: the queue's thread (or an enqueueing thread) writes ready
 * launches into a free slot of the queue's ring of command BOs as one
 * chain (sl_launch: argument image and compute job, with WRITE_VALUE
 * timestamp jobs around each launch when the queue profiles), submits it
 * with one SUBMIT whose in-syncs are the fences of other queues' chains
 * it waits for, and a waiting thread ends it when its fence signals.
 * Each slot of the ring has a binary syncobj, made with the slot's command
 * BO, to which its chain's SUBMIT gives its fence: no syncobj is made per
 * chain. Chains are numbered in SUBMIT order (their point), so a thread
 * that waited tells one chain in a slot from the next, and from the same
 * chain gone again. Not one timeline syncobj for the queue: a wait for a
 * timeline point goes through a dma_fence_chain, whose signal the kernel
 * defers to an irq_work (an interrupt more per chain; 30-50 us more per
 * wait under TCG, measured with tests/bench's NULL job).
 *
 * Jobs of a chain run one after the other (each depends on the one
 * before), as an in-order queue needs, and so they can share the queue's
 * thread-local and work-group-local scratch memory. Chains of one queue
 * run in SUBMIT order too: they need the same job slot, which runs one
 * file's chains in order (sleipnir_drm.h, SUBMIT), and each also waits
 * for the point of the chain before it.
 *
 * A fault cancels every chain of the context (of its file) that had not
 * started; those that are the queue's own go again, in order, before any
 * later chain of the queue (resolve_stale), so a fault fails only the
 * launches of the chain it hit (and those after it in that chain).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd_context.h"
#include "icd_debug.h"
#include "icd_device.h"
#include "icd_event.h"
#include "icd_kernel.h"
#include "icd_mem.h"
#include "icd_ndrange.h"
#include "icd_printf.h"
#include "icd_program.h"
#include "icd_queue.h"
#include "midgard_desc.h"

/* How long one syncobj wait lasts before it is retried. The kernel's job
 * timeout ends every job, so the wait always ends. */
#define WAIT_SLICE_MS 10000u

/*
 * How long a chain may run: compute kernels are not frames, and under
 * emulation a large one takes seconds, so by default as long as the
 * driver grants (SUBMIT lowers the value to SLEIPNIR_PARAM_JOB_TIMEOUT_-
 * MAX_MS, 60 s by default). SLEIPNIR_CL_JOB_TIMEOUT_MS sets it lower, for
 * tests of hung kernels.
 */
static uint32_t job_timeout_ms(void)
{
	/* Read at each SUBMIT: a test may set it for one launch. */
	const char *env = getenv("SLEIPNIR_CL_JOB_TIMEOUT_MS");
	unsigned long v = env ? strtoul(env, NULL, 10) : 0;

	return v && v < UINT32_MAX ? (uint32_t)v : UINT32_MAX;
}

struct chain_layout {
	size_t ts_offset;            /* 16 bytes a launch when profiling */
	size_t job_offset[ICD_MAX_BATCH];  /* each launch's first job */
	size_t size;
};

/* One slot of the queue's ring: what the GPU needs of a chain. */
struct gpu_slot {
	struct sl_bo *cmd;           /* command BO: timestamps + jobs */
	uint32_t done;               /* syncobj: the fence of its last SUBMIT */
	/* The printf buffer of the chain's launch i, when it calls printf
	 * (kept for the slot's next chains). */
	struct sl_bo *printf_bo[ICD_MAX_BATCH];
	/* The chain in the slot: layout, timestamps or not, first job, the
	 * BOs it names, its point and the context's fault_clears when it
	 * went (all kept so it can go again as it is). */
	struct chain_layout lay;
	bool prof;
	uint64_t jc;
	uint32_t requirements;
	uint64_t point;
	uint64_t clears;
	struct drm_sleipnir_bo_ref *refs;
	unsigned int num_refs, cap_refs;
	/* The block of the first launch of its last chain without
	 * timestamps, at the start of the command BO: a launch of the same
	 * kernel, the same way, there again only rewrites its arguments
	 * (sl_launch_emit_cached). Nothing else writes there meanwhile. */
	struct sl_desc_cache first;
};

/* Scratch that grew while chains using the old one were on the GPU. */
struct retired_bo {
	struct sl_bo *bo;
	struct retired_bo *next;
};

struct icd_gpu_queue {
	uint64_t last_point;         /* the point of the last SUBMIT */
	unsigned int last_slot;      /* and its slot */
	struct gpu_slot slot[ICD_RING_SLOTS];
	unsigned int in_flight;      /* chains submitted, not yet ended */
	struct sl_bo *tls, *wls;     /* scratch, grown as launches need */
	/* Freed once no chain is on the GPU. */
	struct retired_bo *retired;
};

/* Whether @l may write @mem: kernels not into CL_MEM_READ_ONLY buffers,
 * fills and copies into their target whatever its flags. */
static bool launch_writes(const struct icd_launch *l, cl_mem mem)
{
	return !(mem->flags & CL_MEM_READ_ONLY) || mem == l->writes;
}

/* --- the queue's GPU state ----------------------------------------------- */

/* The syncobj of @q's chain at @point, 0 if it has none on the GPU
 * (under icd_event_lock()). */
static uint32_t chain_syncobj(cl_command_queue q, uint64_t point)
{
	for (unsigned int k = 0; k < q->ring_count; k++) {
		unsigned int s = (q->ring_first + k) % ICD_RING_SLOTS;

		if (q->ring[s].point == point)
			return q->gpu->slot[s].done;
	}
	return 0;
}

static void free_retired(struct icd_gpu_queue *g)
{
	while (g->retired) {
		struct retired_bo *r = g->retired;

		g->retired = r->next;
		sl_bo_destroy(r->bo);
		free(r);
	}
}

void icd_gpu_queue_free(cl_command_queue queue)
{
	struct icd_gpu_queue *g = queue->gpu;

	if (!g)
		return;
	pthread_mutex_lock(&queue->context->gpu_lock);
	for (unsigned int s = 0; s < ICD_RING_SLOTS; s++) {
		sl_bo_destroy(g->slot[s].cmd);
		for (unsigned int i = 0; i < ICD_MAX_BATCH; i++)
			sl_bo_destroy(g->slot[s].printf_bo[i]);
		free(g->slot[s].refs);
		if (g->slot[s].done)
			sl_syncobj_destroy(queue->context->drm,
					   g->slot[s].done);
	}
	sl_bo_destroy(g->tls);
	sl_bo_destroy(g->wls);
	free_retired(g);
	pthread_mutex_unlock(&queue->context->gpu_lock);
	free(g);
	queue->gpu = NULL;
}

/* Makes *@bo at least @size bytes, mapped for the GPU (and the CPU when
 * @cpu); its old contents do not matter. An old BO goes to @retired when
 * given (chains on the GPU may still use it), else at once. */
static int ensure_bo(struct sl_drm *drm, struct sl_bo **bo, uint64_t size,
		     bool cpu, struct retired_bo **retired)
{
	void *map;
	int err;

	if (*bo && (*bo)->size >= size)
		return 0;
	if (*bo && retired) {
		struct retired_bo *r = malloc(sizeof(*r));

		if (!r)
			return -ENOMEM;
		r->bo = *bo;
		r->next = *retired;
		*retired = r;
	} else {
		sl_bo_destroy(*bo);
	}
	*bo = NULL;
	/* Doubling keeps a queue whose launches grow from reallocating on
	 * every one of them. */
	err = sl_bo_create(drm, size < 65536 ? 65536 : size * 2,
			   cpu ? 0 : SLEIPNIR_BO_NO_CPU_MAP, bo);
	if (!err)
		err = sl_vm_map(*bo, 0, SLEIPNIR_VM_MAP_NOEXEC);
	if (!err && cpu)
		err = sl_bo_mmap(*bo, &map);
	if (err) {
		sl_bo_destroy(*bo);
		*bo = NULL;
	}
	return err;
}

/* A printf buffer: written by the CPU (header) and the GPU (records), read
 * by the CPU at the end; not CPU-cached, so no cache maintenance. */
static int new_printf_bo(struct sl_drm *drm, struct sl_bo **bo)
{
	void *map;
	int err = sl_bo_create(drm, ICD_PRINTF_HEADER_BYTES +
				    ICD_PRINTF_BUFFER_SIZE, 0, bo);

	if (!err)
		err = sl_vm_map(*bo, 0, SLEIPNIR_VM_MAP_NOEXEC);
	if (!err)
		err = sl_bo_mmap(*bo, &map);
	if (err) {
		sl_bo_destroy(*bo);
		*bo = NULL;
	}
	return err;
}

static int add_ref(struct gpu_slot *slot, const struct sl_bo *bo, bool write)
{
	for (unsigned int i = 0; i < slot->num_refs; i++) {
		if (slot->refs[i].handle == bo->handle) {
			if (write)
				slot->refs[i].flags |= SLEIPNIR_BO_REF_WRITE;
			return 0;
		}
	}
	if (slot->num_refs == slot->cap_refs) {
		unsigned int cap = slot->cap_refs ? 2 * slot->cap_refs : 16;
		void *p = realloc(slot->refs, cap * sizeof(*slot->refs));

		if (!p)
			return -ENOMEM;
		slot->refs = p;
		slot->cap_refs = cap;
	}
	slot->refs[slot->num_refs].handle = bo->handle;
	slot->refs[slot->num_refs].flags = write ? SLEIPNIR_BO_REF_WRITE : 0;
	slot->num_refs++;
	return 0;
}

/* --- GPU time ------------------------------------------------------------ */

/*
 * A GPU timestamp as CLOCK_MONOTONIC ns, the time base of the host-side
 * profiling times: the difference between the GPU's "now" and the
 * timestamp is the timestamp's age. On Midgard SoCs (and QEMU's virt
 * board) the GPU's system timestamp counts the same system counter the
 * CPUs read as CNTVCT_EL0. Off arm64 the only GPU is the host simulator
 * (userspace/sim), whose model counts CLOCK_MONOTONIC itself
 * (sgpu_timestamp(): floor(ns * hz / 10^9)).
 */
static cl_ulong gpu_time_to_ns(uint64_t ts, uint64_t hz)
{
	cl_ulong now = icd_now_ns();
	unsigned __int128 gpu_now;
	uint64_t age;
#if defined(__aarch64__)
	uint64_t cnt, frq;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(cnt));
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frq));
	if (!hz || !frq)
		return now;
	gpu_now = (unsigned __int128)cnt * hz / frq;
#else
	if (!hz)
		return now;
	gpu_now = (unsigned __int128)now * hz / 1000000000u;
#endif
	if (gpu_now < ts)
		return now;
	age = (uint64_t)((gpu_now - ts) * 1000000000u / hz);
	return age < now ? now - age : 0;
}

/* --- running a batch ----------------------------------------------------- */

/* Where each launch's jobs go in the command BO. */
static void lay_out(cl_event *cmds, unsigned int n, bool prof,
		    struct chain_layout *lay)
{
	size_t at = prof ? (16u * n + SL_DESC_ALIGN - 1) & ~(size_t)63 : 0;

	lay->ts_offset = 0;
	for (unsigned int i = 0; i < n; i++) {
		lay->job_offset[i] = at;
		at += cmds[i]->launch->plan.desc_bytes;
		if (prof)
			at += 2 * SL_TIMESTAMP_JOB_BYTES;
	}
	lay->size = at;
}

/* The offset of the job of launch @i that says whether it ran to the end:
 * its compute job. */
static size_t compute_job(const struct gpu_slot *slot, unsigned int i)
{
	return slot->lay.job_offset[i] +
	       (slot->prof ? SL_TIMESTAMP_JOB_BYTES : 0);
}

/*
 * Writes the chain for @cmds into @slot's command BO (laid out in
 * slot->lay) and lists the BOs it uses in slot->refs; the chain starts at
 * slot->jc.
 */
static int write_chain(cl_command_queue q, struct gpu_slot *slot,
		       cl_event *cmds, unsigned int n)
{
	struct icd_gpu_queue *g = q->gpu;
	const struct chain_layout *lay = &slot->lay;
	bool prof = slot->prof;
	uint8_t *cpu = slot->cmd->map;
	uint64_t va = slot->cmd->va;
	unsigned int index = 0;
	uint8_t *last = NULL;
	int err;

	slot->num_refs = 0;
	err = add_ref(slot, slot->cmd, true);
	if (!err && g->tls)
		err = add_ref(slot, g->tls, true);
	if (!err && g->wls)
		err = add_ref(slot, g->wls, true);
	for (unsigned int i = 0; i < n && !err; i++) {
		struct icd_launch *l = cmds[i]->launch;
		cl_program prog = l->program;
		struct sl_launch_memory mem = { 0 };
		size_t at = lay->job_offset[i];
		uint64_t ts_va = va + lay->ts_offset + 16u * i;
		/* Each job waits for the one before it (index - 1). */
		struct sl_job_link link;
		unsigned int jobs = prof ? 3 : 1;

		mem.code_va = prog->code_bo->va;
		mem.tls_va = l->plan.tls_total_bytes ? g->tls->va : 0;
		mem.wls_va = l->plan.wls_total_bytes ? g->wls->va : 0;
		l->params.constant_va = prog->constant_bo ?
					prog->constant_bo->va : 0;
		if (sl_launch_uses_printf(l->params.kernel)) {
			/* An empty buffer for each run of the launch. */
			icd_printf_init(slot->printf_bo[i]->map,
					ICD_PRINTF_BUFFER_SIZE);
			l->params.printf_va = slot->printf_bo[i]->va;
			err = add_ref(slot, slot->printf_bo[i], true);
		}
		if (!err)
			err = add_ref(slot, prog->code_bo, false);
		if (!err && prog->constant_bo)
			err = add_ref(slot, prog->constant_bo, false);
		for (unsigned int m = 0; m < l->num_mems && !err; m++) {
			/* What the CPU wrote reaches memory first. */
			icd_mem_gpu_begin(l->mems[m]);
			err = add_ref(slot, l->mems[m]->bo,
				      launch_writes(l, l->mems[m]));
		}
		for (unsigned int j = 0; j < jobs && !err; j++) {
			bool compute = !prof || j == 1;
			size_t bytes = compute ? l->plan.desc_bytes :
					       SL_TIMESTAMP_JOB_BYTES;

			index++;
			link = (struct sl_job_link){ .index = index,
						     .dep = { index - 1 } };
			if (compute)
				err = sl_launch_emit_cached(
					&l->plan, &mem, &link, cpu + at, bytes,
					va + at, !prof && !i ? &slot->first :
					NULL);
			else
				err = sl_timestamp_pack(&link,
							ts_va + (j ? 8 : 0),
							cpu + at, bytes,
							va + at);
			if (err)
				return -EINVAL;
			if (last)
				sl_desc_link(last, va + at);
			else
				slot->jc = va + at;
			last = cpu + at;
			at += bytes;
		}
	}
	return err;
}

/* Fails the launch commands of @cmds with @status. */
static void fail_all(cl_event *cmds, unsigned int n, cl_int status)
{
	for (unsigned int i = 0; i < n; i++)
		icd_event_set_status(cmds[i], status, 0);
}

/* The queue's GPU state, scratch memory and slot @s's command BO for the
 * batch; under gpu_lock. */
static int prepare(cl_command_queue q, unsigned int s, cl_event *cmds,
		   unsigned int n, const struct chain_layout *lay)
{
	struct sl_drm *drm = q->context->drm;
	struct icd_gpu_queue *g = q->gpu;
	struct gpu_slot *slot;
	uint64_t tls = 0, wls = 0;
	int err = 0;

	if (!g) {
		g = calloc(1, sizeof(*g));
		if (!g)
			return -ENOMEM;
		q->gpu = g;
	}
	slot = &g->slot[s];
	if (!slot->done) {
		err = sl_syncobj_create(drm, false, &slot->done);
		if (err)
			return err;
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct sl_launch_plan *p = &cmds[i]->launch->plan;

		if (p->tls_total_bytes > tls)
			tls = p->tls_total_bytes;
		if (p->wls_total_bytes > wls)
			wls = p->wls_total_bytes;
	}
	/* Chains on the GPU may use the scratch: it is retired, not freed,
	 * when it grows. The slot's own BOs are free (its chain ended). */
	if (tls)
		err = ensure_bo(drm, &g->tls, tls, false, &g->retired);
	if (!err && wls)
		err = ensure_bo(drm, &g->wls, wls, false, &g->retired);
	for (unsigned int i = 0; i < n && !err; i++)
		if (sl_launch_uses_printf(cmds[i]->launch->params.kernel) &&
		    !slot->printf_bo[i])
			err = new_printf_bo(drm, &slot->printf_bo[i]);
	if (!err) {
		/* A new BO holds none of the blocks. */
		if (!slot->cmd || slot->cmd->size < lay->size)
			slot->first.valid = false;
		err = ensure_bo(drm, &slot->cmd, lay->size, true, NULL);
	}
	return err;
}

/* --- faults and chains that go again ------------------------------------- */

/*
 * Reads and clears the context's fault, if it has one (under gpu_lock):
 * SUBMIT works again, and the chain it ended finds it in ctx->fault. Every
 * chain submitted before this may have been cancelled by it.
 */
static void take_fault(cl_context ctx)
{
	struct drm_sleipnir_get_fault f;

	if (sl_get_fault(ctx->drm, true, &f) || !f.count)
		return;
	ctx->fault_clears++;
	ctx->fault = f;
	ctx->fault_held = true;
}

static void resolve_stale(cl_command_queue q, unsigned int depth);

/*
 * The in-syncs of the chain of @cmds: the points of the launches on other
 * queues it waits for that are still on the GPU (the queue let them count
 * as ready, icd_queue.c). Under gpu_lock; those queues' chains that a
 * fault cancelled go again first, so the points are the ones that will
 * run. @syncs holds ICD_MAX_IN_SYNCS.
 */
static unsigned int in_syncs(cl_command_queue q, cl_event *cmds,
			     unsigned int n, struct drm_sleipnir_sync_op *syncs,
			     unsigned int depth)
{
	cl_command_queue others[ICD_MAX_IN_SYNCS];
	unsigned int count = 0, num_others = 0;
	bool deps = false;

	/* Wait lists are fixed at enqueue: no lock to see there is none. */
	for (unsigned int i = 0; i < n; i++)
		deps |= cmds[i]->num_deps != 0;
	if (!deps)
		return 0;
	icd_event_lock();
	for (unsigned int i = 0; i < n; i++) {
		for (cl_uint d = 0; d < cmds[i]->num_deps; d++) {
			cl_event dep = cmds[i]->deps[d];
			bool seen = false;

			if (!dep->point || dep->queue == q ||
			    icd_event_status_final(dep->status))
				continue;
			for (unsigned int j = 0; j < num_others; j++)
				seen |= others[j] == dep->queue;
			if (!seen && num_others < ICD_MAX_IN_SYNCS)
				others[num_others++] = dep->queue;
		}
	}
	icd_event_unlock();
	for (unsigned int j = 0; j < num_others; j++)
		resolve_stale(others[j], depth + 1);
	icd_event_lock();
	for (unsigned int i = 0; i < n; i++) {
		for (cl_uint d = 0; d < cmds[i]->num_deps; d++) {
			cl_event dep = cmds[i]->deps[d];
			uint32_t done;
			bool seen = false;

			if (!dep->point || dep->queue == q ||
			    icd_event_status_final(dep->status))
				continue;
			/* Its slot holds its fence until the slot's next
			 * SUBMIT, which needs the gpu_lock held here. */
			done = chain_syncobj(dep->queue, dep->point);
			for (unsigned int j = 0; j < count; j++)
				seen |= syncs[j].handle == done;
			if (done && !seen && count < ICD_MAX_IN_SYNCS)
				syncs[count++] = (struct drm_sleipnir_sync_op){
					.handle = done };
		}
	}
	icd_event_unlock();
	return count;
}

/*
 * SUBMITs the chain written in slot @s (the launches @cmds) as the
 * queue's next point, its fence to the slot's syncobj; under gpu_lock.
 * @after: it also waits for the queue's last chain (a new chain; one that
 * goes again follows the order the ring already has).
 */
static int submit_chain(cl_command_queue q, unsigned int s, cl_event *cmds,
			unsigned int n, bool after, unsigned int depth)
{
	cl_context ctx = q->context;
	struct icd_gpu_queue *g = q->gpu;
	struct gpu_slot *slot = &g->slot[s];
	struct drm_sleipnir_sync_op waits[ICD_MAX_IN_SYNCS + 1];
	struct drm_sleipnir_sync_op out = { .handle = slot->done };
	struct sl_submit sub = {
		.jc = slot->jc,
		.bos = slot->refs,
		.num_bos = slot->num_refs,
		.in_syncs = waits,
		.out_syncs = &out,
		.num_out_syncs = 1,
		.requirements = slot->requirements,
		.timeout_ms = job_timeout_ms(),
	};
	int err;

	sub.num_in_syncs = in_syncs(q, cmds, n, waits, depth);
	/* On the GPU, the last chain's slot holds its fence. */
	if (after && g->in_flight)
		waits[sub.num_in_syncs++] = (struct drm_sleipnir_sync_op){
			.handle = g->slot[g->last_slot].done };
	/* The descriptors are all in the command BO. */
	if (icd_debug("jobs"))
		icd_debug_print_chain((const struct sl_bo *[]){ slot->cmd }, 1,
				      sub.jc);
	err = sl_submit(ctx->drm, &sub);
	if (err)
		return err;
	g->last_point++;
	g->last_slot = s;
	slot->point = g->last_point;
	slot->clears = ctx->fault_clears;
	return 0;
}

/* A chain's point moved: its ring entry and launches follow. */
static void move_point(cl_command_queue q, unsigned int s, uint64_t point)
{
	icd_event_lock();
	q->ring[s].point = point;
	for (unsigned int i = 0; i < q->ring[s].n; i++)
		q->ring[s].cmds[i]->point = point;
	icd_event_unlock();
}

/*
 * The queue's chains on the GPU that went before the context's last fault
 * clear, oldest first: each is waited for, and one the fault cancelled
 * before it started goes again as it is (its jobs never ran, so their
 * descriptors are as written) before anything later of the queue. Under
 * gpu_lock, which every SUBMIT of the context takes: no chain can slip in
 * between. A fault while this runs starts it over; @depth bounds the
 * recursion through other queues' chains (in_syncs).
 */
static void resolve_stale(cl_command_queue q, unsigned int depth)
{
	cl_context ctx = q->context;
	struct icd_gpu_queue *g = q->gpu;
	unsigned int rounds = 0;

	/* Nothing on the GPU, nothing to look at (the usual case). */
	if (!g || !g->in_flight || depth > 8)
		return;
	for (;;) {
		struct gpu_slot *slot = NULL;
		unsigned int s = 0, n = 0;
		cl_event *cmds = NULL;
		int err;

		/* The oldest not looked at since the clear. Searched afresh
		 * each time: enders may take chains off the front
		 * meanwhile (their last step needs no gpu_lock). */
		icd_event_lock();
		for (unsigned int k = 0; k < q->ring_count && !slot; k++) {
			s = (q->ring_first + k) % ICD_RING_SLOTS;
			if (g->slot[s].clears != ctx->fault_clears) {
				slot = &g->slot[s];
				cmds = q->ring[s].cmds;
				n = q->ring[s].n;
			}
		}
		icd_event_unlock();
		if (!slot)
			return;
		icd_launch_wait(q, s);
		/* Marked first: a chain it waits for may lead back here. */
		slot->clears = ctx->fault_clears;
		if (sl_desc_job_status((const uint8_t *)slot->cmd->map +
				       slot->lay.job_offset[0]))
			continue;
		err = submit_chain(q, s, cmds, n, false, depth);
		/* A fault meanwhile: every chain is stale again, and looked
		 * at again from the oldest. */
		if (err == -ECANCELED && ++rounds < 16) {
			take_fault(ctx);
			continue;
		}
		/* A chain that cannot go again fails as cancelled when it
		 * is ended. */
		if (!err)
			move_point(q, s, slot->point);
	}
}

/* --- ending a chain ------------------------------------------------------ */

/*
 * Tells the context's pfn_notify (clCreateContext) what went wrong: the
 * first kernel of the chain that did not complete, how its job ended
 * (@status, from its header) and the fault the driver recorded for the
 * chain, if any.
 */
static void report_fault(cl_context ctx, cl_event cmd,
			 const struct drm_sleipnir_get_fault *f,
			 uint32_t status)
{
	static const char *const kinds[] = {
		[SLEIPNIR_FAULT_JOB] = "job fault",
		[SLEIPNIR_FAULT_MMU] = "page fault",
		[SLEIPNIR_FAULT_TIMEOUT] = "timeout",
	};
	const char *kind = f->count && f->kind < sizeof(kinds) /
			   sizeof(kinds[0]) && kinds[f->kind] ?
			   kinds[f->kind] : status ? "failure" : "cancellation";
	const char *name = mdg_exception_name(f->exception_code);
	char *msg;

	/* Sized to the kernel's name, which may be of any length. */
	if (asprintf(&msg, "sleipnir: kernel %s: GPU %s (exception 0x%x %s, "
		     "address 0x%llx, job status 0x%x)",
		     cmd->launch->params.kernel->name, kind, f->exception_code,
		     name ? name : "unknown", (unsigned long long)f->address,
		     status) < 0) {
		icd_context_notify_error(ctx, "sleipnir: GPU fault");
		return;
	}
	icd_context_notify_error(ctx, msg);
	free(msg);
}

/* Writes what a launch's printf calls left in @bo to stdout. */
static void print_records(const struct icd_launch *l, const struct sl_bo *bo)
{
	flockfile(stdout);
	icd_printf_write(l->params.prog, bo->map,
			 ICD_PRINTF_HEADER_BYTES + ICD_PRINTF_BUFFER_SIZE,
			 stdout);
	fflush(stdout);
	funlockfile(stdout);
}

bool icd_launch_finish(cl_command_queue q, unsigned int s, uint64_t point)
{
	cl_context ctx = q->context;
	struct icd_gpu_queue *g = q->gpu;
	struct gpu_slot *slot = &g->slot[s];
	const uint8_t *cpu = slot->cmd->map;
	uint64_t hz = q->device->params.timestamp_frequency;
	struct drm_sleipnir_get_fault fault = { 0 };
	cl_event *cmds = q->ring[s].cmds;
	unsigned int n = q->ring[s].n;
	bool reported = false;

	pthread_mutex_lock(&ctx->gpu_lock);
	/* It went again while this thread waited for its old point. */
	if (slot->point != point) {
		pthread_mutex_unlock(&ctx->gpu_lock);
		return false;
	}
	/* Each job waits for the one before it, so when the last says DONE
	 * they all ran to the end, and nothing went wrong. */
	if (sl_desc_job_status(cpu + compute_job(slot, n - 1)) !=
	    SL_JOB_DONE) {
		/* The fault is this context's alone (its own address
		 * space); reading it with clear lets the next SUBMIT in. */
		take_fault(ctx);
		if (!sl_desc_job_status(cpu + slot->lay.job_offset[0]) &&
		    slot->clears != ctx->fault_clears) {
			/* Cancelled by a fault before it started. */
			resolve_stale(q, 0);
			if (slot->point != point) {
				pthread_mutex_unlock(&ctx->gpu_lock);
				return false;
			}
		}
		if (ctx->fault_held && ctx->fault.jc == slot->jc) {
			fault = ctx->fault;
			ctx->fault_held = false;
		}
	}
	g->in_flight--;
	/* Scratch that grew is unused once no chain is on the GPU. */
	if (!g->in_flight)
		free_retired(g);
	/* Even a job that faulted may have written some of its buffers. */
	for (unsigned int i = 0; i < n; i++) {
		const struct icd_launch *l = cmds[i]->launch;

		for (unsigned int m = 0; m < l->num_mems; m++)
			icd_mem_gpu_end(l->mems[m],
					launch_writes(l, l->mems[m]));
	}
	pthread_mutex_unlock(&ctx->gpu_lock);
	for (unsigned int i = 0; i < n; i++) {
		uint32_t status = sl_desc_job_status(cpu +
						     compute_job(slot, i));
		bool done = status == SL_JOB_DONE;
		cl_ulong end = 0;

		if (!done && !reported) {
			report_fault(ctx, cmds[i], &fault, status);
			reported = true;
		}
		if (done && slot->prof) {
			uint64_t ts[2];
			cl_ulong start;

			memcpy(ts, cpu + slot->lay.ts_offset + 16u * i,
			       sizeof(ts));
			start = gpu_time_to_ns(ts[0], hz);
			end = gpu_time_to_ns(ts[1], hz);
			icd_event_lock();
			/* Never before the host saw it submitted. */
			if (start < cmds[i]->times[1])
				start = cmds[i]->times[1];
			if (end < start)
				end = start;
			cmds[i]->times[2] = start;
			icd_event_unlock();
		}
		/* What the launch printed, before anyone sees it complete
		 * (OpenCL 1.2 6.12.13.1: flushed when its event completes). */
		if (done && sl_launch_uses_printf(cmds[i]->launch->params.kernel))
			print_records(cmds[i]->launch, slot->printf_bo[i]);
		/* A fault ends the job it hit; the jobs after it, which
		 * depend on it, never run. Both fail. A launch that went
		 * while what it waited for was on the GPU fails if that
		 * did, as it would have without running. */
		icd_event_set_status(cmds[i], !done ? CL_OUT_OF_RESOURCES :
				     icd_event_deps_failed(cmds[i]) ?
				     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST :
				     CL_COMPLETE, end);
	}
	return true;
}

/* --- submitting ---------------------------------------------------------- */

unsigned int icd_launch_submit(cl_command_queue q, unsigned int s,
			       cl_event *cmds, unsigned int n)
{
	cl_context ctx = q->context;
	bool prof = q->properties & CL_QUEUE_PROFILING_ENABLE;
	cl_event go[ICD_MAX_BATCH], ended[ICD_MAX_BATCH];
	struct chain_layout lay;
	struct gpu_slot *slot = NULL;
	unsigned int kept = 0, num_ended = 0, slow = 0;
	bool printf_used = false;
	cl_ulong now;
	int err = 0;

	if (!ctx->drm) {
		fail_all(cmds, n, CL_OUT_OF_RESOURCES);
		return 0;
	}
	/* Programs reach the GPU on their first launch. */
	for (unsigned int i = 0; i < n; i++) {
		if (icd_program_upload(cmds[i]->launch->program)) {
			icd_event_set_status(cmds[i], CL_OUT_OF_RESOURCES, 0);
			ended[num_ended++] = cmds[i];
		} else {
			go[kept++] = cmds[i];
			printf_used |= sl_launch_uses_printf(
				cmds[i]->launch->params.kernel);
		}
	}
	/* Those that go first: the caller may not touch them once they are
	 * on the GPU (a waiter may end and free them). */
	memcpy(cmds, go, kept * sizeof(go[0]));
	memcpy(cmds + kept, ended, num_ended * sizeof(ended[0]));
	if (!kept)
		return 0;
	lay_out(go, kept, prof, &lay);
	pthread_mutex_lock(&ctx->gpu_lock);
	err = prepare(q, s, go, kept, &lay);
	if (!err) {
		/* What a fault cancelled goes again before this chain. */
		resolve_stale(q, 0);
		slot = &q->gpu->slot[s];
		slot->lay = lay;
		slot->prof = prof;
		slot->requirements = SLEIPNIR_REQ_COMPUTE |
				     (prof ? SLEIPNIR_REQ_WRITE_VALUE : 0);
		err = write_chain(q, slot, go, kept);
	}
	for (unsigned int tries = 0; !err; tries++) {
		err = submit_chain(q, s, go, kept, true, 0);
		if (err != -ECANCELED || tries == 16)
			break;
		/* A fault in the context is waiting to be read: read, it
		 * lets SUBMIT in again, once what it cancelled of this
		 * queue went again. */
		take_fault(ctx);
		resolve_stale(q, 0);
		err = 0;
	}
	if (!err) {
		q->gpu->in_flight++;
		now = icd_now_ns();
		/* Launches elsewhere may now wait for these on the GPU, and
		 * waiters may end the chain, maybe before the status below
		 * moves: the SUBMIT time is theirs already. */
		icd_event_lock();
		memcpy(q->ring[s].cmds, go, kept * sizeof(go[0]));
		q->ring[s].n = kept;
		q->ring[s].point = slot->point;
		for (unsigned int i = 0; i < kept; i++) {
			go[i]->point = slot->point;
			go[i]->times[1] = now;
			/* SUBMITTED and RUNNING at once: the GPU has it.
			 * Nobody waits for a state short of the end, so
			 * only callbacks need icd_event_set_status(),
			 * on a reference of this thread's. */
			if (!go[i]->callbacks) {
				go[i]->times[2] = now;
				go[i]->status = CL_RUNNING;
			} else {
				icd_event_retain(go[i]);
				go[slow++] = go[i];
			}
		}
		q->ring_count++;
		/* printf's output appears when the launch ends, waited for
		 * or not. */
		if (printf_used)
			icd_queue_watch(q);
		icd_event_unlock();
	}
	pthread_mutex_unlock(&ctx->gpu_lock);
	if (err) {
		fail_all(go, kept, CL_OUT_OF_RESOURCES);
		return 0;
	}
	/* Those with callbacks, moved to the front of go[] (a no-op when
	 * the chain already ended). */
	for (unsigned int i = 0; i < slow; i++) {
		icd_event_set_status(go[i], CL_RUNNING, now);
		icd_event_release(go[i]);
	}
	return kept;
}

void icd_launch_wait(cl_command_queue q, unsigned int slot)
{
	uint32_t done = q->gpu->slot[slot].done;
	int err;

	/* A bare ioctl on the node: no sl_drm state is touched, so no lock
	 * is needed, and several threads may wait together. */
	do {
		err = sl_syncobj_wait(q->context->drm, &done, 1, true,
				      WAIT_SLICE_MS);
	} while (err == -ETIME || err == -ETIMEDOUT);
}
