/* SPDX-License-Identifier: MIT */
/*
 * Chains: the queue's thread (or an enqueueing thread) writes ready
 * launches into the queue's command BO as one chain (sl_launch: argument
 * image and compute job, with WRITE_VALUE timestamp jobs around each
 * launch when the queue profiles), submits it with one SUBMIT whose
 * in-syncs are the fences of other queues' chains it waits for, and a
 * waiting thread ends it when its fence signals.
 *
 * Jobs of a chain run one after the other (each depends on the one
 * before), as an in-order queue needs, and so they can share the queue's
 * thread-local and work-group-local scratch memory.
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
	const char *env = getenv("SLEIPNIR_CL_JOB_TIMEOUT_MS");
	unsigned long v = env ? strtoul(env, NULL, 10) : 0;

	return v && v < UINT32_MAX ? (uint32_t)v : UINT32_MAX;
}

struct chain_layout {
	size_t ts_offset;            /* 16 bytes a launch when profiling */
	size_t job_offset[ICD_MAX_BATCH];  /* each launch's first job */
	size_t size;
};

struct icd_gpu_queue {
	/* The chain in flight: its launches (those that went), layout and
	 * whether it carries timestamps. */
	cl_event chain[ICD_MAX_BATCH];
	unsigned int chain_n;
	struct chain_layout lay;
	bool prof;
	struct sl_bo *cmd;           /* command BO: timestamps + jobs */
	struct sl_bo *tls, *wls;     /* scratch, grown as launches need */
	/* The printf buffer of the chain's launch i, when it calls printf
	 * (kept for the queue's next chains). */
	struct sl_bo *printf_bo[ICD_MAX_BATCH];
	struct icd_fence *fence;     /* the chain in flight's (a reference) */
	struct drm_sleipnir_bo_ref *refs;
	unsigned int cap_refs;
};

/* --- the queue's GPU state ----------------------------------------------- */

struct icd_fence {
	cl_context context;          /* its syncobj's node; not retained:
				      * every holder is an object of it */
	uint32_t syncobj;
	atomic_uint refs;
};

/* A new unsignalled fence in *@out; under the context's gpu_lock. */
static int fence_new(cl_context ctx, struct icd_fence **out)
{
	struct icd_fence *f = calloc(1, sizeof(*f));
	int err;

	if (!f)
		return -ENOMEM;
	err = sl_syncobj_create(ctx->drm, false, &f->syncobj);
	if (err) {
		free(f);
		return err;
	}
	f->context = ctx;
	atomic_init(&f->refs, 1);
	*out = f;
	return 0;
}

struct icd_fence *icd_fence_get(struct icd_fence *f)
{
	atomic_fetch_add(&f->refs, 1);
	return f;
}

void icd_fence_put(struct icd_fence *f)
{
	cl_context ctx = f->context;

	if (atomic_fetch_sub(&f->refs, 1) != 1)
		return;
	pthread_mutex_lock(&ctx->gpu_lock);
	sl_syncobj_destroy(ctx->drm, f->syncobj);
	pthread_mutex_unlock(&ctx->gpu_lock);
	free(f);
}

/*
 * The in-syncs of a chain: the fences of the launches on other queues it
 * waits for that are still on the GPU (the queue let them count as ready,
 * icd_queue.c). @syncs holds ICD_MAX_IN_SYNCS.
 */
static unsigned int in_syncs(cl_event *cmds, unsigned int n,
			     struct drm_sleipnir_sync_op *syncs)
{
	unsigned int count = 0;

	icd_event_lock();
	for (unsigned int i = 0; i < n; i++) {
		for (cl_uint d = 0; d < cmds[i]->num_deps; d++) {
			cl_event dep = cmds[i]->deps[d];
			bool seen = false;

			if (!dep->fence || icd_event_status_final(dep->status))
				continue;
			for (unsigned int j = 0; j < count; j++)
				seen |= syncs[j].handle == dep->fence->syncobj;
			if (!seen && count < ICD_MAX_IN_SYNCS)
				syncs[count++] = (struct drm_sleipnir_sync_op){
					.handle = dep->fence->syncobj };
		}
	}
	icd_event_unlock();
	return count;
}

void icd_gpu_queue_free(cl_command_queue queue)
{
	struct icd_gpu_queue *g = queue->gpu;

	if (!g)
		return;
	pthread_mutex_lock(&queue->context->gpu_lock);
	sl_bo_destroy(g->cmd);
	sl_bo_destroy(g->tls);
	sl_bo_destroy(g->wls);
	for (unsigned int i = 0; i < ICD_MAX_BATCH; i++)
		sl_bo_destroy(g->printf_bo[i]);
	pthread_mutex_unlock(&queue->context->gpu_lock);
	free(g->refs);
	free(g);
	queue->gpu = NULL;
}

/* Makes *@bo at least @size bytes, mapped for the GPU (and the CPU when
 * @cpu); its old contents do not matter. */
static int ensure_bo(struct sl_drm *drm, struct sl_bo **bo, uint64_t size,
		     bool cpu)
{
	void *map;
	int err;

	if (*bo && (*bo)->size >= size)
		return 0;
	sl_bo_destroy(*bo);
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

static int add_ref(struct icd_gpu_queue *g, unsigned int *n,
		   const struct sl_bo *bo, bool write)
{
	for (unsigned int i = 0; i < *n; i++) {
		if (g->refs[i].handle == bo->handle) {
			if (write)
				g->refs[i].flags |= SLEIPNIR_BO_REF_WRITE;
			return 0;
		}
	}
	if (*n == g->cap_refs) {
		unsigned int cap = g->cap_refs ? 2 * g->cap_refs : 16;
		void *p = realloc(g->refs, cap * sizeof(*g->refs));

		if (!p)
			return -ENOMEM;
		g->refs = p;
		g->cap_refs = cap;
	}
	g->refs[*n].handle = bo->handle;
	g->refs[*n].flags = write ? SLEIPNIR_BO_REF_WRITE : 0;
	(*n)++;
	return 0;
}

/* --- GPU time ------------------------------------------------------------ */

/*
 * A GPU timestamp as CLOCK_MONOTONIC ns, the time base of the host-side
 * profiling times. On Midgard SoCs (and QEMU's virt board) the GPU's
 * system timestamp counts the same system counter the CPUs read as
 * CNTVCT_EL0, so the difference between the two "now"s is the age of the
 * timestamp.
 */
static cl_ulong gpu_time_to_ns(uint64_t ts, uint64_t hz)
{
	cl_ulong now = icd_now_ns();
#if defined(__aarch64__)
	uint64_t cnt, frq;
	unsigned __int128 gpu_now;
	uint64_t age;

	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(cnt));
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frq));
	if (!hz || !frq)
		return now;
	gpu_now = (unsigned __int128)cnt * hz / frq;
	if (gpu_now < ts)
		return now;
	age = (uint64_t)((gpu_now - ts) * 1000000000u / hz);
	return age < now ? now - age : 0;
#else
	(void)ts;
	(void)hz;
	return now;
#endif
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

/*
 * Writes the chain for @cmds into the command BO and lists the BOs it
 * uses in g->refs (*num_refs); the chain starts at *jc.
 */
static int write_chain(cl_command_queue q, cl_event *cmds, unsigned int n,
		       bool prof, const struct chain_layout *lay,
		       unsigned int *num_refs, uint64_t *jc)
{
	struct icd_gpu_queue *g = q->gpu;
	uint8_t *cpu = g->cmd->map;
	uint64_t va = g->cmd->va;
	unsigned int index = 0;
	uint8_t *last = NULL;
	int err = add_ref(g, num_refs, g->cmd, true);

	if (!err && g->tls)
		err = add_ref(g, num_refs, g->tls, true);
	if (!err && g->wls)
		err = add_ref(g, num_refs, g->wls, true);
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
			icd_printf_init(g->printf_bo[i]->map,
					ICD_PRINTF_BUFFER_SIZE);
			l->params.printf_va = g->printf_bo[i]->va;
			err = add_ref(g, num_refs, g->printf_bo[i], true);
		}
		if (!err)
			err = add_ref(g, num_refs, prog->code_bo, false);
		if (!err && prog->constant_bo)
			err = add_ref(g, num_refs, prog->constant_bo, false);
		for (unsigned int m = 0; m < l->num_mems && !err; m++) {
			/* What the CPU wrote reaches memory first. */
			icd_mem_gpu_begin(l->mems[m]);
			err = add_ref(g, num_refs, l->mems[m]->bo,
				      !(l->mems[m]->flags &
					CL_MEM_READ_ONLY));
		}
		for (unsigned int j = 0; j < jobs && !err; j++) {
			bool compute = !prof || j == 1;
			size_t bytes = compute ? l->plan.desc_bytes :
					       SL_TIMESTAMP_JOB_BYTES;

			index++;
			link = (struct sl_job_link){ .index = index,
						     .dep = { index - 1 } };
			if (compute)
				err = sl_launch_emit(&l->plan, &mem, &link,
						     cpu + at, bytes, va + at);
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
				*jc = va + at;
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

/* Scratch memory and the command BO for the batch; under gpu_lock. */
static int prepare(cl_command_queue q, cl_event *cmds, unsigned int n,
		   const struct chain_layout *lay)
{
	struct sl_drm *drm = q->context->drm;
	struct icd_gpu_queue *g = q->gpu;
	uint64_t tls = 0, wls = 0;
	int err = 0;

	if (!g) {
		g = calloc(1, sizeof(*g));
		if (!g)
			return -ENOMEM;
		q->gpu = g;
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct sl_launch_plan *p = &cmds[i]->launch->plan;

		if (p->tls_total_bytes > tls)
			tls = p->tls_total_bytes;
		if (p->wls_total_bytes > wls)
			wls = p->wls_total_bytes;
	}
	if (tls)
		err = ensure_bo(drm, &g->tls, tls, false);
	if (!err && wls)
		err = ensure_bo(drm, &g->wls, wls, false);
	for (unsigned int i = 0; i < n && !err; i++)
		if (sl_launch_uses_printf(cmds[i]->launch->params.kernel) &&
		    !g->printf_bo[i])
			err = new_printf_bo(drm, &g->printf_bo[i]);
	if (!err)
		err = ensure_bo(drm, &g->cmd, lay->size, true);
	if (!err)
		err = fence_new(q->context, &g->fence);
	return err;
}

/*
 * Tells the context's pfn_notify (clCreateContext) what went wrong: the
 * first kernel of the chain that did not complete, and the fault the
 * driver recorded.
 */
static void report_fault(cl_context ctx, cl_event cmd,
			 const struct drm_sleipnir_get_fault *f, int fence)
{
	static const char *const kinds[] = {
		[SLEIPNIR_FAULT_JOB] = "job fault",
		[SLEIPNIR_FAULT_MMU] = "page fault",
		[SLEIPNIR_FAULT_TIMEOUT] = "timeout",
	};
	const char *kind = f->count && f->kind < sizeof(kinds) /
			   sizeof(kinds[0]) && kinds[f->kind] ?
			   kinds[f->kind] : "failure";
	const char *name = mdg_exception_name(f->exception_code);
	char *msg;

	/* Sized to the kernel's name, which may be of any length. */
	if (asprintf(&msg, "sleipnir: kernel %s: GPU %s (exception 0x%x %s, "
		     "address 0x%llx, fence %d)",
		     cmd->launch->params.kernel->name, kind, f->exception_code,
		     name ? name : "unknown", (unsigned long long)f->address,
		     fence) < 0) {
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

/* How the chain ended, per launch: job headers say which ran to the end. */
static void finish(cl_command_queue q, cl_event *cmds, unsigned int n,
		   bool prof, const struct chain_layout *lay, int fence)
{
	struct sl_drm *drm = q->context->drm;
	const uint8_t *cpu = q->gpu->cmd->map;
	uint64_t hz = q->device->params.timestamp_frequency;

	struct drm_sleipnir_get_fault fault = { 0 };
	bool reported = false;

	pthread_mutex_lock(&q->context->gpu_lock);
	/* The fault is this context's alone (its own address space);
	 * reading it with clear lets the next SUBMIT in. */
	if (fence != 1 && sl_get_fault(drm, true, &fault))
		fault.count = 0;
	/* Even a job that faulted may have written some of its buffers. */
	for (unsigned int i = 0; i < n; i++) {
		const struct icd_launch *l = cmds[i]->launch;

		for (unsigned int m = 0; m < l->num_mems; m++)
			icd_mem_gpu_end(l->mems[m], !(l->mems[m]->flags &
						      CL_MEM_READ_ONLY));
	}
	pthread_mutex_unlock(&q->context->gpu_lock);
	for (unsigned int i = 0; i < n; i++) {
		size_t job = lay->job_offset[i] +
			     (prof ? SL_TIMESTAMP_JOB_BYTES : 0);
		bool done = sl_desc_job_status(cpu + job) == SL_JOB_DONE;
		cl_ulong end = 0;

		if (!done && !reported) {
			report_fault(q->context, cmds[i], &fault, fence);
			reported = true;
		}

		if (done && prof) {
			uint64_t ts[2];
			cl_ulong start;

			memcpy(ts, cpu + lay->ts_offset + 16u * i, sizeof(ts));
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
			print_records(cmds[i]->launch, q->gpu->printf_bo[i]);
		/* A fault ends the job it hit; the jobs after it, which
		 * depend on it, never run. Both fail. A launch that went
		 * while what it waited for was on the GPU fails if that
		 * did, as it would have without running. */
		icd_event_set_status(cmds[i], !done ? CL_OUT_OF_RESOURCES :
				     icd_event_deps_failed(cmds[i]) ?
				     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST :
				     CL_COMPLETE, end);
	}
}

bool icd_launch_submit(cl_command_queue q, cl_event *cmds, unsigned int n)
{
	cl_context ctx = q->context;
	bool prof = q->properties & CL_QUEUE_PROFILING_ENABLE;
	struct sl_submit sub = { .requirements = SLEIPNIR_REQ_COMPUTE,
				 .timeout_ms = job_timeout_ms() };
	struct drm_sleipnir_sync_op out = { 0 };
	struct drm_sleipnir_sync_op waits[ICD_MAX_IN_SYNCS];
	cl_event go[ICD_MAX_BATCH];
	struct chain_layout lay;
	unsigned int num_refs = 0, kept = 0;
	int err = 0;

	if (!ctx->drm) {
		fail_all(cmds, n, CL_OUT_OF_RESOURCES);
		return false;
	}
	/* Programs reach the GPU on their first launch. */
	for (unsigned int i = 0; i < n; i++) {
		if (icd_program_upload(cmds[i]->launch->program))
			icd_event_set_status(cmds[i], CL_OUT_OF_RESOURCES, 0);
		else
			go[kept++] = cmds[i];
	}
	if (!kept)
		return false;
	lay_out(go, kept, prof, &lay);
	pthread_mutex_lock(&ctx->gpu_lock);
	err = prepare(q, go, kept, &lay);
	if (!err)
		err = write_chain(q, go, kept, prof, &lay, &num_refs, &sub.jc);
	if (!err) {
		out.handle = q->gpu->fence->syncobj;
		sub.bos = q->gpu->refs;
		sub.num_bos = num_refs;
		sub.in_syncs = waits;
		sub.num_in_syncs = in_syncs(go, kept, waits);
		sub.out_syncs = &out;
		sub.num_out_syncs = 1;
		if (prof)
			sub.requirements |= SLEIPNIR_REQ_WRITE_VALUE;
		/* The descriptors are all in the command BO. */
		if (icd_debug("jobs"))
			icd_debug_print_chain((const struct sl_bo *[]){
						      q->gpu->cmd }, 1, sub.jc);
		err = sl_submit(ctx->drm, &sub);
	}
	if (!err) {
		memcpy(q->gpu->chain, go, kept * sizeof(go[0]));
		q->gpu->chain_n = kept;
		q->gpu->lay = lay;
		q->gpu->prof = prof;
	}
	pthread_mutex_unlock(&ctx->gpu_lock);
	if (err) {
		if (q->gpu && q->gpu->fence) {
			icd_fence_put(q->gpu->fence);
			q->gpu->fence = NULL;
		}
		fail_all(go, kept, CL_OUT_OF_RESOURCES);
		return false;
	}
	/* Launches elsewhere may now wait for these on the GPU. */
	icd_event_lock();
	for (unsigned int i = 0; i < kept; i++)
		go[i]->fence = icd_fence_get(q->gpu->fence);
	icd_event_unlock();
	for (unsigned int i = 0; i < kept; i++) {
		icd_event_set_status(go[i], CL_SUBMITTED, 0);
		icd_event_set_status(go[i], CL_RUNNING, 0);
	}
	return true;
}

void icd_launch_wait(cl_command_queue q, struct icd_fence *fence)
{
	uint32_t syncobj = fence->syncobj;
	int err;

	/* A bare ioctl on the node: no sl_drm state is touched, so no lock
	 * is needed, and several threads may wait together. */
	do {
		err = sl_syncobj_wait(q->context->drm, &syncobj, 1, true,
				      WAIT_SLICE_MS);
	} while (err == -ETIME || err == -ETIMEDOUT);
}

void icd_launch_finish(cl_command_queue q)
{
	struct icd_gpu_queue *g = q->gpu;
	const struct icd_launch *last = g->chain[g->chain_n - 1]->launch;
	size_t end = g->lay.job_offset[g->chain_n - 1] +
		     (g->prof ? SL_TIMESTAMP_JOB_BYTES +
		      last->plan.desc_bytes : 0);
	int fence = 0, err;

	/* Each job waits for the one before it, so when the last says DONE
	 * they all ran to the end: the fence's status (a sync_file round
	 * trip) is only needed when something went wrong. */
	if (sl_desc_job_status((const uint8_t *)g->cmd->map + end) ==
	    SL_JOB_DONE) {
		fence = 1;
		err = 0;
	} else {
		pthread_mutex_lock(&q->context->gpu_lock);
		err = sl_syncobj_status(q->context->drm, g->fence->syncobj,
					&fence);
		pthread_mutex_unlock(&q->context->gpu_lock);
	}
	finish(q, g->chain, g->chain_n, g->prof, &g->lay, err ? -EIO : fence);
	g->chain_n = 0;
	/* The launches keep the fence for those still waiting on it. */
	icd_fence_put(g->fence);
	g->fence = NULL;
}
