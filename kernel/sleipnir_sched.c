// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: the drm_sched back end. Runs job chains on the job slots,
 * completes them from the job interrupt, and handles timeouts and GPU reset.
 *
 * Each job slot has a drm_sched scheduler, and each client one entity per
 * slot, so a client's chains for one slot run in SUBMIT order while slots
 * and clients are scheduled independently. A chain is started through the
 * slot's _NEXT registers (JS_HEAD_NEXT, JS_COMMAND_NEXT = START).
 *
 * A slot runs one chain at a time (scheduler credit limit 1). Midgard GPUs
 * before job-chain disambiguation cannot say which of two queued chains a
 * stop command hit, and one chain per slot keeps completion, stop and reset
 * unambiguous. Each chain starts with a clean+invalidate of the GPU caches
 * and ends with a clean, so it sees what the CPU wrote and the CPU sees what
 * it wrote.
 *
 * Timeouts are per chain (SUBMIT's timeout_ms, capped by the
 * max_job_timeout_ms module parameter). The schedulers' timer only ticks
 * every SLEIPNIR_TIMEOUT_TICK_MS; a chain that has not reached its own
 * deadline is put back and left alone. One that has is soft-stopped, then
 * hard-stopped if that does not work, and the GPU is reset; the chains of
 * other clients that were on the GPU are run again from the start.
 *
 * Chains come from SUBMIT (sleipnir_submit.c).
 */
#include <linux/bitfield.h>
#include <linux/dma-fence.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>

#include <drm/sleipnir_drm.h>

#include "sleipnir_compat.h"
#include "sleipnir_device.h"
#include "sleipnir_drv.h"
#include "sleipnir_fault.h"
#include "sleipnir_job.h"
#include "sleipnir_mmu.h"
#include "sleipnir_sched.h"

/* How often the schedulers look for chains past their deadline. */
#define SLEIPNIR_TIMEOUT_TICK_MS	50
/* How long a soft or hard stop may take before the next step. */
#define SLEIPNIR_STOP_TIMEOUT_US	100000
/* How long a job fault waits for the MMU interrupt's details. */
#define SLEIPNIR_FAULT_ADDRESS_WAIT_US	20000

static struct sleipnir_job *to_sleipnir_job(struct drm_sched_job *sched_job)
{
	return container_of(sched_job, struct sleipnir_job, base);
}

/* ---- hardware fences ---- */

/**
 * struct sleipnir_fence - Signals when a chain leaves its job slot.
 */
struct sleipnir_fence {
	/** @base: the fence; first, as dma_fence_free() expects. */
	struct dma_fence base;
	/** @sdev: the GPU. */
	struct sleipnir_device *sdev;
	/** @js: the slot. */
	u32 js;
};

static const char *sleipnir_fence_driver_name(struct dma_fence *fence)
{
	return "sleipnir";
}

static const char *sleipnir_fence_timeline_name(struct dma_fence *fence)
{
	struct sleipnir_fence *f = container_of(fence, struct sleipnir_fence,
						base);

	return f->sdev->slots[f->js].name;
}

static const struct dma_fence_ops sleipnir_fence_ops = {
	.get_driver_name	= sleipnir_fence_driver_name,
	.get_timeline_name	= sleipnir_fence_timeline_name,
};

static DEFINE_SPINLOCK(sleipnir_fence_lock);

static struct dma_fence *sleipnir_fence_create(struct sleipnir_device *sdev,
					       u32 js)
{
	struct sleipnir_slot *slot = &sdev->slots[js];
	struct sleipnir_fence *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return ERR_PTR(-ENOMEM);

	f->sdev = sdev;
	f->js = js;
	/* Only the slot's scheduler thread creates its fences. */
	dma_fence_init(&f->base, &sleipnir_fence_ops, &sleipnir_fence_lock,
		       slot->fence_context, ++slot->fence_seqno);
	return &f->base;
}

/* ---- running chains ---- */

/*
 * Starts the chain at GPU address @jc on slot @js in address space @as,
 * on every core in use, with the errata's JS_CONFIG bits. Also the
 * probe-time self-test's start (sleipnir_selftest.c).
 */
void sleipnir_js_start(struct sleipnir_device *sdev, u32 js, u64 jc, int as)
{
	sleipnir_write64(sdev, SLP_JS_HEAD_NEXT_LO(js), jc);
	sleipnir_write64(sdev, SLP_JS_AFFINITY_NEXT_LO(js),
			 sdev->features.shader_present & sdev->core_mask);
	sleipnir_write(sdev, SLP_JS_CONFIG_NEXT(js),
		       sleipnir_js_config_quirks(as, sdev->quirks));
	sleipnir_write(sdev, SLP_JS_COMMAND_NEXT(js), SLP_JS_CMD_START);
}

static struct dma_fence *sleipnir_job_run(struct drm_sched_job *sched_job)
{
	struct sleipnir_job *job = to_sleipnir_job(sched_job);
	struct sleipnir_device *sdev = job->sdev;
	struct sleipnir_slot *slot = &sdev->slots[job->js];
	struct dma_fence *fence;
	int as, ret;

	/*
	 * Already failed: the chain that timed out (its line is in the log),
	 * or one drm_sched cancelled when it resubmitted after a reset.
	 */
	if (unlikely(sched_job->s_fence->finished.error)) {
		if (!job->timed_out)
			dev_warn_ratelimited(sdev->dev,
					     "js%u: chain at 0x%llx of client %d (%s) not run: cancelled (%d) by the reset after a timeout\n",
					     job->js, job->jc, job->vm->pid,
					     job->vm->comm,
					     sched_job->s_fence->finished.error);
		return NULL;
	}

	/* Its client closed the device: nobody is left to want it. */
	if (READ_ONCE(job->vm->closed)) {
		dev_info_ratelimited(sdev->dev,
				     "js%u: chain at 0x%llx of client %d (%s) cancelled: its client closed the device\n",
				     job->js, job->jc, job->vm->pid,
				     job->vm->comm);
		return ERR_PTR(-ECANCELED);
	}

	/* Queued before a fault of its client: likely depends on it. */
	if (atomic_read(&job->vm->faults.generation) != job->fault_generation) {
		dev_warn_ratelimited(sdev->dev,
				     "js%u: chain at 0x%llx of client %d (%s) cancelled: queued before a fault of its client\n",
				     job->js, job->jc, job->vm->pid,
				     job->vm->comm);
		return ERR_PTR(-ECANCELED);
	}

	fence = sleipnir_fence_create(sdev, job->js);
	if (IS_ERR(fence))
		return fence;

	ret = pm_runtime_resume_and_get(sdev->dev);
	if (ret) {
		dma_fence_put(fence);
		return ERR_PTR(ret);
	}

	as = sleipnir_mmu_as_get(sdev, job->vm);
	if (as < 0) {
		pm_runtime_put_autosuspend(sdev->dev);
		dma_fence_put(fence);
		return ERR_PTR(as);
	}

	dma_fence_put(job->done_fence);
	job->done_fence = dma_fence_get(fence);
	job->timed_out = false;
	job->start = ktime_get();
	job->deadline = ktime_add_ms(job->start, job->timeout_ms);

	spin_lock(&sdev->js_lock);
	WARN_ON(slot->job);
	slot->job = job;
	sleipnir_js_start(sdev, job->js, job->jc, as);
	spin_unlock(&sdev->js_lock);

	return fence;
}

static void sleipnir_job_record_fault(struct sleipnir_device *sdev,
				      struct sleipnir_job *job, u32 kind,
				      u32 code)
{
	struct sleipnir_vm *vm = job->vm;
	struct sleipnir_fault fault = {
		.info = {
			.kind = kind,
			.exception_code = code,
			.jc = job->jc,
			.has_jc = true,
		},
		.pid = vm->pid,
		.time = ktime_get(),
	};

	memcpy(fault.comm, vm->comm, sizeof(fault.comm));
	sleipnir_fault_record(&vm->faults, &sdev->faults, &fault);
}

/*
 * The MMU interrupt thread adds the address and access type of an MMU fault
 * to the record; give it a moment so that the record is complete when the
 * fence signals and userspace asks GET_FAULT.
 */
static void sleipnir_job_wait_fault_address(struct sleipnir_fault_state *state)
{
	bool done;

	read_poll_timeout(sleipnir_fault_has_address, done, done, 100,
			  SLEIPNIR_FAULT_ADDRESS_WAIT_US, false, state);
}

/*
 * The fence error a chain's final JS_STATUS code stands for, and the fault it
 * records (sleipnir_faults.h, which the simulator shares).
 */
static int sleipnir_job_error(struct sleipnir_device *sdev,
			      struct sleipnir_job *job, u32 code)
{
	int err = sleipnir_job_fence_error(code, job->timed_out);
	u32 kind = sleipnir_job_fault_kind(code);

	if (code == SLP_EXC_DONE)
		return err;

	if (sleipnir_exc_is_stop(code)) {
		/* The timeout said so when it stopped the chain. */
		if (job->timed_out)
			return err;
		if (READ_ONCE(job->vm->closed)) {
			dev_info_ratelimited(sdev->dev,
					     "js%u: chain at 0x%llx of client %d (%s) stopped: its client closed the device\n",
					     job->js, job->jc, job->vm->pid,
					     job->vm->comm);
			return err;
		}
		/* Only a timeout or a close stops chains: say who else did. */
		dev_warn_ratelimited(sdev->dev,
				     "js%u: chain at 0x%llx of client %d (%s) was stopped (status 0x%02x) though the driver did not ask\n",
				     job->js, job->jc, job->vm->pid,
				     job->vm->comm, code);
		return err;
	}

	dev_err_ratelimited(sdev->dev,
			    "js%u: chain at 0x%llx of client %d (%s) failed with status 0x%02x\n",
			    job->js, job->jc, job->vm->pid, job->vm->comm,
			    code);
	sleipnir_job_record_fault(sdev, job, kind, code);
	if (kind == SLEIPNIR_FAULT_MMU)
		sleipnir_job_wait_fault_address(&job->vm->faults);
	return err;
}

/* The chain on @js ended with JS_STATUS @code. */
static void sleipnir_job_complete(struct sleipnir_device *sdev, u32 js,
				  u32 code)
{
	struct sleipnir_slot *slot = &sdev->slots[js];
	struct sleipnir_job *job;
	int err;

	spin_lock(&sdev->js_lock);
	job = slot->job;
	slot->job = NULL;
	spin_unlock(&sdev->js_lock);

	if (!job) {
		dev_warn_ratelimited(sdev->dev,
				     "js%u: interrupt with no chain (status 0x%02x)\n",
				     js, code);
		return;
	}

	err = sleipnir_job_error(sdev, job, code);
	atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), job->start)),
		     &job->vm->usage.busy_ns[js]);
	if (err) {
		atomic64_inc(&sdev->counters.jobs_failed);
		atomic64_inc(&job->vm->usage.jobs_failed);
		dma_fence_set_error(job->done_fence, err);
		dma_fence_set_error(&job->base.s_fence->finished, err);
	} else {
		atomic64_inc(&sdev->counters.jobs_done);
		atomic64_inc(&job->vm->usage.jobs_done);
	}

	sleipnir_mmu_as_put(sdev, job->vm);
	dma_fence_signal(job->done_fence);
	pm_runtime_mark_last_busy(sdev->dev);
	pm_runtime_put_autosuspend(sdev->dev);
}

/* ---- job interrupt ---- */

static u32 sleipnir_job_irq_mask(struct sleipnir_device *sdev)
{
	return sleipnir_unit_irq_mask(sdev->js_count);
}

void sleipnir_job_irq_enable(struct sleipnir_device *sdev)
{
	sleipnir_write(sdev, SLP_JOB_INT_CLEAR, U32_MAX);
	sleipnir_write(sdev, SLP_JOB_INT_MASK, sleipnir_job_irq_mask(sdev));
}

void sleipnir_job_irq_disable(struct sleipnir_device *sdev)
{
	sleipnir_write(sdev, SLP_JOB_INT_MASK, 0);
	sleipnir_write(sdev, SLP_JOB_INT_CLEAR, U32_MAX);
}

static irqreturn_t sleipnir_job_irq(int irq, void *data)
{
	struct sleipnir_device *sdev = data;

	if (!sleipnir_read(sdev, SLP_JOB_INT_STAT))
		return IRQ_NONE;

	sleipnir_write(sdev, SLP_JOB_INT_MASK, 0);
	return IRQ_WAKE_THREAD;
}

static irqreturn_t sleipnir_job_irq_thread(int irq, void *data)
{
	struct sleipnir_device *sdev = data;
	u32 mask = sleipnir_job_irq_mask(sdev);
	unsigned long ended;
	u32 status, code;
	unsigned int js;

	while ((status = sleipnir_read(sdev, SLP_JOB_INT_RAWSTAT) & mask)) {
		sleipnir_write(sdev, SLP_JOB_INT_CLEAR, status);
		ended = sleipnir_irq_units(status, sdev->js_count);
		for_each_set_bit(js, &ended, sdev->js_count) {
			code = SLP_EXC_DONE;
			if (status & SLP_JOB_IRQ_FAILED(js))
				code = sleipnir_read(sdev, SLP_JS_STATUS(js));
			code = sleipnir_exception_code(code);
			sleipnir_job_complete(sdev, js, code);
		}
	}

	sleipnir_write(sdev, SLP_JOB_INT_MASK, mask);
	return IRQ_HANDLED;
}

/* ---- timeouts and reset ---- */

static bool sleipnir_slot_runs(struct sleipnir_device *sdev,
			       struct sleipnir_job *job)
{
	bool runs;

	spin_lock(&sdev->js_lock);
	runs = sdev->slots[job->js].job == job;
	spin_unlock(&sdev->js_lock);
	return runs;
}

/* Sends @cmd to the chain's slot and waits for the chain to leave it. */
static bool sleipnir_job_stop(struct sleipnir_device *sdev,
			      struct sleipnir_job *job, u32 cmd)
{
	bool runs;

	spin_lock(&sdev->js_lock);
	if (sdev->slots[job->js].job == job)
		sleipnir_write(sdev, SLP_JS_COMMAND(job->js), cmd);
	spin_unlock(&sdev->js_lock);

	return !read_poll_timeout(sleipnir_slot_runs, runs, !runs, 1000,
				  SLEIPNIR_STOP_TIMEOUT_US, false, sdev, job);
}

/*
 * Resets the GPU after @bad overran its timeout. Every scheduler is stopped,
 * the chains on the GPU are taken off it, the GPU is reset and brought up
 * again, and the chains are run again from the start, except @bad.
 */
static void sleipnir_job_reset(struct sleipnir_device *sdev,
			       struct sleipnir_job *bad)
{
	struct sleipnir_job *lost[SLP_JS_COUNT_MAX];
	unsigned int js;

	atomic64_inc(&sdev->counters.gpu_resets);
	for (js = 0; js < sdev->js_count; js++)
		drm_sched_stop(&sdev->slots[js].sched, &bad->base);

	disable_irq(sdev->irq_job);
	disable_irq(sdev->irq_mmu);
	/* Keep the GPU powered while the chains' references are dropped. */
	pm_runtime_get_noresume(sdev->dev);

	spin_lock(&sdev->js_lock);
	for (js = 0; js < sdev->js_count; js++) {
		lost[js] = sdev->slots[js].job;
		sdev->slots[js].job = NULL;
	}
	spin_unlock(&sdev->js_lock);

	if (!dma_fence_is_signaled(&bad->base.s_fence->finished))
		dma_fence_set_error(&bad->base.s_fence->finished, -ETIMEDOUT);

	for (js = 0; js < sdev->js_count; js++) {
		struct sleipnir_job *job = lost[js];

		if (!job)
			continue;
		if (job != bad)
			dev_info(sdev->dev,
				 "js%u: chain at 0x%llx of client %d (%s) taken off the GPU by the reset; it runs again from the start\n",
				 js, job->jc, job->vm->pid, job->vm->comm);
		sleipnir_mmu_as_put(sdev, job->vm);
		/* Nothing waits on it any more (drm_sched_stop): retire it. */
		dma_fence_set_error(job->done_fence, -ECANCELED);
		dma_fence_signal(job->done_fence);
		pm_runtime_put_noidle(sdev->dev);
	}

	sleipnir_mmu_forget_all(sdev);
	if (sleipnir_device_reset_hw(sdev))
		dev_err(sdev->dev, "GPU reset failed; the GPU may be unusable\n");

	enable_irq(sdev->irq_mmu);
	enable_irq(sdev->irq_job);

	for (js = 0; js < sdev->js_count; js++)
		drm_sched_resubmit_jobs(&sdev->slots[js].sched);
	for (js = 0; js < sdev->js_count; js++)
		sleipnir_compat_sched_start(&sdev->slots[js].sched);

	pm_runtime_mark_last_busy(sdev->dev);
	pm_runtime_put_autosuspend(sdev->dev);
}

static enum drm_gpu_sched_stat
sleipnir_job_timedout(struct drm_sched_job *sched_job)
{
	struct sleipnir_job *job = to_sleipnir_job(sched_job);
	struct drm_gpu_scheduler *sched = sched_job->sched;
	struct sleipnir_device *sdev = job->sdev;

	if (!job->done_fence || dma_fence_is_signaled(job->done_fence) ||
	    ktime_before(ktime_get(), job->deadline)) {
		/* Not overdue: put it back where the scheduler keeps it. */
		spin_lock(&sched->job_list_lock);
		list_add(&sched_job->list, &sched->pending_list);
		spin_unlock(&sched->job_list_lock);
		return DRM_GPU_SCHED_STAT_NOMINAL;
	}

	dev_warn(sdev->dev,
		 "js%u: chain at 0x%llx of client %d (%s) overran its %u ms timeout\n",
		 job->js, job->jc, job->vm->pid, job->vm->comm,
		 job->timeout_ms);
	atomic64_inc(&sdev->counters.jobs_timedout);
	job->timed_out = true;
	sleipnir_job_record_fault(sdev, job, SLEIPNIR_FAULT_TIMEOUT, 0);

	if (!sleipnir_job_stop(sdev, job, SLP_JS_CMD_SOFT_STOP) &&
	    !sleipnir_job_stop(sdev, job, SLP_JS_CMD_HARD_STOP))
		dev_warn(sdev->dev, "js%u: the chain did not stop\n", job->js);

	sleipnir_job_reset(sdev, job);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void sleipnir_job_free(struct drm_sched_job *sched_job)
{
	drm_sched_job_cleanup(sched_job);
	sleipnir_job_put(to_sleipnir_job(sched_job));
}

static const struct drm_sched_backend_ops sleipnir_sched_ops = {
	.run_job	= sleipnir_job_run,
	.timedout_job	= sleipnir_job_timedout,
	.free_job	= sleipnir_job_free,
};

/* ---- set-up, per-file state, power management ---- */

int sleipnir_sched_open(struct sleipnir_file *sfile)
{
	struct sleipnir_device *sdev = sfile->sdev;
	struct drm_gpu_scheduler *sched;
	unsigned int js;
	int ret;

	for (js = 0; js < sdev->js_count; js++) {
		sched = &sdev->slots[js].sched;
		ret = drm_sched_entity_init(&sfile->entities[js],
					    DRM_SCHED_PRIORITY_NORMAL, &sched,
					    1, NULL);
		if (ret) {
			while (js--)
				drm_sched_entity_destroy(&sfile->entities[js]);
			return ret;
		}
	}
	return 0;
}

/*
 * The file's chains on the GPU are hard-stopped and its queued ones
 * cancelled (their fences end with -ECANCELED, each with a line in the
 * log), as panfrost kills a closing file's jobs: nobody is left to want
 * them, and an endless one would otherwise hold its slot until its
 * timeout, which an OpenCL client asks to be the longest the driver
 * grants. Flushing the entities then only waits for cancellations.
 */
void sleipnir_sched_close(struct sleipnir_file *sfile)
{
	struct sleipnir_device *sdev = sfile->sdev;
	unsigned int js;

	WRITE_ONCE(sfile->vm->closed, true);
	spin_lock(&sdev->js_lock);
	for (js = 0; js < sdev->js_count; js++) {
		struct sleipnir_job *job = sdev->slots[js].job;

		if (job && job->vm == sfile->vm)
			sleipnir_write(sdev, SLP_JS_COMMAND(js),
				       SLP_JS_CMD_HARD_STOP);
	}
	spin_unlock(&sdev->js_lock);

	for (js = 0; js < sdev->js_count; js++)
		drm_sched_entity_destroy(&sfile->entities[js]);
}

bool sleipnir_sched_idle(struct sleipnir_device *sdev)
{
	bool idle = true;
	unsigned int js;

	spin_lock(&sdev->js_lock);
	for (js = 0; js < sdev->js_count; js++)
		idle &= !sdev->slots[js].job;
	spin_unlock(&sdev->js_lock);
	return idle;
}

/* Stops the schedulers from starting chains, for system suspend. */
void sleipnir_sched_pause(struct sleipnir_device *sdev)
{
	unsigned int js;

	for (js = 0; js < sdev->js_count; js++)
		sleipnir_compat_sched_pause(&sdev->slots[js].sched);
}

void sleipnir_sched_unpause(struct sleipnir_device *sdev)
{
	unsigned int js;

	for (js = 0; js < sdev->js_count; js++)
		sleipnir_compat_sched_unpause(&sdev->slots[js].sched);
}

int sleipnir_sched_init(struct sleipnir_device *sdev)
{
	struct platform_device *pdev = to_platform_device(sdev->dev);
	struct drm_sched_init_args args = {
		.ops		= &sleipnir_sched_ops,
		.credit_limit	= 1,
		.timeout	= msecs_to_jiffies(SLEIPNIR_TIMEOUT_TICK_MS),
		.dev		= sdev->dev,
	};
	unsigned int js;
	int ret;

	spin_lock_init(&sdev->js_lock);
	mutex_init(&sdev->submit_lock);

	sdev->irq_job = platform_get_irq_byname(pdev, "job");
	if (sdev->irq_job < 0)
		return sdev->irq_job;
	ret = devm_request_threaded_irq(sdev->dev, sdev->irq_job,
					sleipnir_job_irq,
					sleipnir_job_irq_thread, IRQF_SHARED,
					KBUILD_MODNAME "-job", sdev);
	if (ret)
		return dev_err_probe(sdev->dev, ret,
				     "failed to request the job interrupt\n");

	sdev->reset_wq = alloc_ordered_workqueue("sleipnir-reset", 0);
	if (!sdev->reset_wq)
		return -ENOMEM;
	args.timeout_wq = sdev->reset_wq;

	for (js = 0; js < sdev->js_count; js++) {
		struct sleipnir_slot *slot = &sdev->slots[js];

		snprintf(slot->name, sizeof(slot->name), "js%u", js);
		slot->fence_context = dma_fence_context_alloc(1);
		args.name = slot->name;
		ret = sleipnir_compat_sched_init(&slot->sched, &args);
		if (ret) {
			dev_err(sdev->dev, "failed to create scheduler %s: %d\n",
				slot->name, ret);
			while (js--)
				drm_sched_fini(&sdev->slots[js].sched);
			destroy_workqueue(sdev->reset_wq);
			return ret;
		}
	}
	return 0;
}

void sleipnir_sched_fini(struct sleipnir_device *sdev)
{
	unsigned int js;

	for (js = 0; js < sdev->js_count; js++)
		drm_sched_fini(&sdev->slots[js].sched);
	destroy_workqueue(sdev->reset_wq);
}
