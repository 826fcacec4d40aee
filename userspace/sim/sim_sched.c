/* SPDX-License-Identifier: MIT */
/*
 * The job slots, as sleipnir.ko's drm_sched back end (sleipnir_sched.c)
 * runs them: a chain goes to the lowest slot whose JS_FEATURES has every
 * job type it needs; each slot runs one chain at a time; a file's chains
 * for one slot start in SUBMIT order, each once every fence it depends on
 * has signalled (fence callbacks, never polling), while slots and files
 * are independent. Among the files whose next chain is ready, the one
 * submitted first goes first (drm_sched's FIFO policy).
 *
 * A chain is started through the slot's _NEXT registers, on the AS its
 * file's VM is bound to, with the caches cleaned and invalidated before and
 * cleaned after. The job interrupt turns its JS_STATUS into the fence's
 * error (0, -EIO, -EFAULT for MMU faults, -ETIMEDOUT, -ECANCELED) and
 * records faults (sim_fault.c).
 *
 * Timeouts are per chain, counted from its start. A watchdog thread sleeps
 * until the earliest deadline; a chain that overruns it is soft-stopped,
 * then hard-stopped, and the GPU is reset: the chains other files had on
 * the GPU are run again from the start, as drm_sched resubmits them.
 *
 * Jobs of a file that faulted are cancelled instead of run (-ECANCELED);
 * so are those of a closed file, whose running chains close hard-stops.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drm/sleipnir_drm.h"
#include "midgard_desc.h"
#include "sgpu_regs.h"
#include "sim.h"
#include "sim_sched_priv.h"
#include "sim_thread.h"
#include "sleipnir_common.h"

/* How long a soft or hard stop may take before the next step. */
#define STOP_TIMEOUT_NS 100000000ll

/* " of client %d (%s)" in the log, as the kernel names a chain's client. */
#define CLIENT(job) (job)->fj->pid, (job)->fj->comm

#define COUNT(sched, name, n)                                                 \
	__atomic_add_fetch(&(sched)->counters.name, (n), __ATOMIC_RELAXED)

static uint32_t js_reg(unsigned int js, uint32_t reg)
{
	return JOB_SLOT_BASE + js * JOB_SLOT_STRIDE + reg;
}

static void reg_write64(struct sim_device *dev, uint32_t lo, uint64_t value)
{
	sim_reg_write(dev, lo, (uint32_t)value);
	sim_reg_write(dev, lo + 4, (uint32_t)(value >> 32));
}

/* --- references ----------------------------------------------------------- */

struct sim_file_jobs *sim_file_jobs_get(struct sim_file_jobs *fj)
{
	__atomic_add_fetch(&fj->refs, 1, __ATOMIC_RELAXED);
	return fj;
}

void sim_file_jobs_put(struct sim_file_jobs *fj)
{
	if (fj && __atomic_sub_fetch(&fj->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(fj);
}

struct sim_job *sim_job_get(struct sim_job *job)
{
	__atomic_add_fetch(&job->refs, 1, __ATOMIC_RELAXED);
	return job;
}

void sim_job_put(struct sim_job *job)
{
	if (!job || __atomic_sub_fetch(&job->refs, 1, __ATOMIC_ACQ_REL))
		return;
	for (uint32_t i = 0; i < job->bo_count; i++)
		sim_bo_put(job->bos[i]);
	free(job->bos);
	sim_fence_put(job->fence);
	sim_file_jobs_put(job->fj);
	COUNT(job->sched, jobs_in_flight, -1);
	free(job);
}

/* --- slots and queues ------------------------------------------------------ */

int sim_sched_pick_slot(struct sim_sched *sched, uint32_t requirements)
{
	return sleipnir_pick_slot(sched->js_features, sched->js_count,
				  requirements);
}

/*
 * The kernel's max_job_timeout_ms module parameter: one per process, as a
 * module parameter is one per kernel, first read from the environment.
 */
static unsigned int max_job_timeout_ms;
static pthread_once_t max_job_timeout_once = PTHREAD_ONCE_INIT;

static void max_job_timeout_init(void)
{
	const char *s = getenv("SLEIPNIR_SIM_MAX_JOB_TIMEOUT_MS");
	unsigned int ms = SLEIPNIR_JOB_TIMEOUT_MAX_MS_DEFAULT;
	unsigned long v;
	char *end;

	if (s && *s) {
		v = strtoul(s, &end, 0);
		if (*end || v > UINT_MAX)
			fprintf(stderr, "sleipnir-sim: SLEIPNIR_SIM_MAX_JOB_TIMEOUT_MS=%s is not a number of ms; using %u\n",
				s, ms);
		else
			ms = (unsigned int)v;
	}
	__atomic_store_n(&max_job_timeout_ms, ms, __ATOMIC_RELAXED);
}

unsigned int sim_sched_max_job_timeout_ms(struct sim_sched *sched)
{
	unsigned int ms;

	(void)sched;
	pthread_once(&max_job_timeout_once, max_job_timeout_init);
	ms = __atomic_load_n(&max_job_timeout_ms, __ATOMIC_RELAXED);
	/* GET_PARAM and SUBMIT take 0 as 1, as the kernel's max(.., 1). */
	return ms ? ms : 1;
}

void sim_sched_set_max_job_timeout_ms(struct sim_sched *sched, unsigned int ms)
{
	(void)sched;
	pthread_once(&max_job_timeout_once, max_job_timeout_init);
	__atomic_store_n(&max_job_timeout_ms, ms, __ATOMIC_RELAXED);
}

static void queue_remove(struct sim_slot *slot, struct sim_job *job)
{
	if (job->prev)
		job->prev->next = job->next;
	else
		slot->head = job->next;
	if (job->next)
		job->next->prev = job->prev;
	else
		slot->tail = job->prev;
	job->prev = job->next = NULL;
}

/* The job ends with err; it is signalled from *done after unlocking. */
static void job_retire_locked(struct sim_job *job, int err,
			      struct sim_job **done)
{
	job->state = SIM_JOB_DONE;
	job->error = err;
	job->done_next = *done;
	*done = job;
}

/* Signals the jobs that ended and drops the scheduler's references. */
static void signal_done(struct sim_job *done)
{
	while (done) {
		struct sim_job *next = done->done_next;

		sim_fence_signal(done->fence, done->error);
		sim_job_put(done);
		done = next;
	}
}

/*
 * The oldest queued job of the slot that is ready, skipping files whose
 * earlier job for the slot is still waiting (a file's jobs keep their
 * order); NULL if none. Removed from the queue.
 */
static struct sim_job *pick_locked(struct sim_sched *sched, unsigned int js)
{
	struct sim_slot *slot = &sched->slots[js];
	uint64_t stamp = ++sched->pick_stamp;

	for (struct sim_job *job = slot->head; job; job = job->next) {
		if (job->fj->blocked_stamp[js] == stamp)
			continue;
		if (job->pending_deps) {
			job->fj->blocked_stamp[js] = stamp;
			continue;
		}
		queue_remove(slot, job);
		return job;
	}
	return NULL;
}

static void hw_start_locked(struct sim_sched *sched, struct sim_job *job)
{
	struct sim_device *dev = sched->dev;
	unsigned int js = job->js;

	reg_write64(dev, js_reg(js, JS_HEAD_NEXT_LO), job->jc);
	reg_write64(dev, js_reg(js, JS_AFFINITY_NEXT_LO), sched->affinity);
	sim_reg_write(dev, js_reg(js, JS_CONFIG_NEXT),
		      sleipnir_js_config_quirks((unsigned int)job->as_nr,
						sched->quirks));
	sim_reg_write(dev, js_reg(js, JS_COMMAND_NEXT), JS_COMMAND_START);
}

/*
 * The kernel's run_job: a job of a closed or since faulted file is
 * cancelled; otherwise its VM gets an AS and the chain goes to the GPU.
 * Returns whether the slot is now busy.
 */
static bool run_job_locked(struct sim_sched *sched, struct sim_job *job,
			   struct sim_job **done)
{
	struct sim_file_jobs *fj = job->fj;
	int as_nr;

	if (fj->closed) {
		sim_klog("js%u: chain at 0x%llx of client %d (%s) cancelled: its client closed the device",
			      job->js, (unsigned long long)job->jc, CLIENT(job));
		job_retire_locked(job, -ECANCELED, done);
		return false;
	}
	if (fj->faults.generation != job->fault_generation) {
		sim_klog("js%u: chain at 0x%llx of client %d (%s) cancelled: queued before a fault of its client",
			      job->js, (unsigned long long)job->jc, CLIENT(job));
		job_retire_locked(job, -ECANCELED, done);
		return false;
	}
	as_nr = sim_vm_as_get(fj->vm);
	if (as_nr < 0) {
		job_retire_locked(job, as_nr, done);
		return false;
	}
	if (as_nr < SIM_AS_MAX && sched->as_owner[as_nr] != fj) {
		if (sched->as_owner[as_nr])
			sim_file_jobs_put(sched->as_owner[as_nr]);
		sched->as_owner[as_nr] = sim_file_jobs_get(fj);
	}
	job->as_nr = as_nr;
	job->state = SIM_JOB_RUNNING;
	job->timed_out = false;
	job->start_ns = sim_now_ns();
	job->deadline_ns = job->start_ns + (int64_t)job->timeout_ms * 1000000;
	fj->running++;
	sched->slots[job->js].job = job;
	hw_start_locked(sched, job);
	/* The watchdog has a new deadline. */
	pthread_cond_broadcast(&sched->cond);
	return true;
}

/* Starts what can start on every idle slot. */
static void run_locked(struct sim_sched *sched, struct sim_job **done)
{
	if (sched->resetting)
		return;
	for (unsigned int js = 0; js < sched->js_count; js++) {
		struct sim_slot *slot = &sched->slots[js];

		while (!slot->job) {
			struct sim_job *job = slot->resubmit;

			if (job)
				slot->resubmit = NULL;
			else
				job = pick_locked(sched, js);
			if (!job || run_job_locked(sched, job, done))
				break;
		}
	}
}

/* A fence the job waits for has signalled. */
static void job_dep_signalled(void *data)
{
	struct sim_job *job = data;
	struct sim_sched *sched = job->sched;
	struct sim_job *done = NULL;

	pthread_mutex_lock(&sched->lock);
	if (--job->pending_deps == 0 && job->state == SIM_JOB_QUEUED)
		run_locked(sched, &done);
	pthread_mutex_unlock(&sched->lock);
	signal_done(done);
	sim_job_put(job);
}

int sim_sched_push_job(struct sim_job *job, struct sim_fence **deps,
		       unsigned int ndeps)
{
	struct sim_sched *sched = job->sched;
	struct sim_slot *slot = &sched->slots[job->js];
	struct sim_job *done = NULL;
	unsigned int i;
	int ret = 0;

	/* Held at one until the job is queued. */
	job->pending_deps = 1;
	for (i = 0; i < ndeps; i++) {
		if (sim_fence_status(deps[i]) != 0)
			continue;
		pthread_mutex_lock(&sched->lock);
		job->pending_deps++;
		pthread_mutex_unlock(&sched->lock);
		sim_job_get(job);
		ret = sim_fence_on_signal(deps[i], job_dep_signalled, job);
		if (ret) {
			pthread_mutex_lock(&sched->lock);
			job->pending_deps--;
			pthread_mutex_unlock(&sched->lock);
			sim_job_put(job);
			break;
		}
	}
	for (i = 0; i < ndeps; i++)
		sim_fence_put(deps[i]);
	if (ret)
		return ret;

	pthread_mutex_lock(&sched->lock);
	sim_job_get(job); /* the scheduler's, dropped when it is signalled */
	job->state = SIM_JOB_QUEUED;
	job->prev = slot->tail;
	if (slot->tail)
		slot->tail->next = job;
	else
		slot->head = job;
	slot->tail = job;
	if (--job->pending_deps == 0)
		run_locked(sched, &done);
	pthread_mutex_unlock(&sched->lock);
	signal_done(done);
	return 0;
}

/* --- the job interrupt ----------------------------------------------------- */

static void record_job_fault_locked(struct sim_job *job, uint32_t kind,
				    uint32_t code)
{
	struct sleipnir_fault_info fault = {
		.kind = kind,
		.exception_code = code,
		.jc = job->jc,
		.has_jc = true,
	};

	sim_fault_record_locked(job->fj, &fault);
}

/*
 * The fence error a chain's final JS_STATUS code stands for, and the fault
 * it records: the kernel's rules (kernel/sleipnir_faults.h).
 */
static int job_error_locked(struct sim_job *job, uint32_t code)
{
	int err = sleipnir_job_fence_error(code, job->timed_out);
	uint32_t kind = sleipnir_job_fault_kind(code);

	if (code == SLP_EXC_DONE)
		return err;
	if (sleipnir_exc_is_stop(code)) {
		if (job->timed_out)
			return err;
		if (job->fj->closed) {
			sim_klog("js%u: chain at 0x%llx of client %d (%s) stopped: its client closed the device",
				      job->js, (unsigned long long)job->jc, CLIENT(job));
			return err;
		}
		sim_klog("js%u: chain at 0x%llx of client %d (%s) was stopped (status 0x%02x) though the driver did not ask",
			      job->js, (unsigned long long)job->jc, CLIENT(job), code);
		return err;
	}
	sim_klog("js%u: chain at 0x%llx of client %d (%s) failed with status 0x%02x",
		      job->js, (unsigned long long)job->jc, CLIENT(job), code);
	record_job_fault_locked(job, kind, code);
	return err;
}

/* A chain leaves the GPU: its AS goes back, its file's count drops. */
static void job_off_gpu_locked(struct sim_sched *sched, struct sim_job *job)
{
	sim_vm_as_put(job->fj->vm);
	job->fj->running--;
	pthread_cond_broadcast(&sched->cond);
}

/* The chain on js ended with JS_STATUS code; hw_lock held. */
static void job_complete(struct sim_sched *sched, unsigned int js,
			 uint32_t code, struct sim_job **done)
{
	struct sim_slot *slot = &sched->slots[js];
	struct sim_job *job;

	/*
	 * The MMU interrupt's half of the record (address, access) first,
	 * so that it is complete when the fence signals: the kernel waits
	 * for its MMU interrupt thread here; in the simulator the same thread
	 * handles both.
	 */
	if (sleipnir_exc_is_mmu(code))
		sim_sched_mmu_faults(sched);

	pthread_mutex_lock(&sched->lock);
	job = slot->job;
	slot->job = NULL;
	if (!job) {
		pthread_mutex_unlock(&sched->lock);
		sim_klog("js%u: interrupt with no chain (status 0x%02x)",
			      js, code);
		return;
	}
	job_retire_locked(job, job_error_locked(job, code), done);
	if (job->error)
		COUNT(sched, jobs_failed, 1);
	else
		COUNT(sched, jobs_done, 1);
	job_off_gpu_locked(sched, job);
	run_locked(sched, done);
	pthread_mutex_unlock(&sched->lock);
}

static uint32_t job_irq_mask(const struct sim_sched *sched)
{
	return sleipnir_unit_irq_mask(sched->js_count);
}

void sim_sched_job_irq(struct sim_sched *sched)
{
	struct sim_device *dev = sched->dev;
	uint32_t mask = job_irq_mask(sched);
	struct sim_job *done = NULL;
	uint32_t status;

	pthread_mutex_lock(&sched->hw_lock);
	while ((status = sim_reg_read(dev, JOB_INT_RAWSTAT) & mask)) {
		uint32_t ended = sleipnir_irq_units(status, sched->js_count);

		sim_reg_write(dev, JOB_INT_CLEAR, status);
		for (unsigned int js = 0; js < sched->js_count; js++) {
			uint32_t code = SLP_EXC_DONE;

			if (!(ended & (1u << js)))
				continue;
			if (status & JOB_IRQ_FAILED(js))
				code = sleipnir_exception_code(
					sim_reg_read(dev, js_reg(js, JS_STATUS)));
			job_complete(sched, js, code, &done);
		}
	}
	pthread_mutex_unlock(&sched->hw_lock);
	signal_done(done);
}

/* The interrupts the kernel's sleipnir_irqs_enable() unmasks for us. */
static void irqs_enable(struct sim_sched *sched)
{
	sim_reg_write(sched->dev, JOB_INT_CLEAR, UINT32_MAX);
	sim_reg_write(sched->dev, JOB_INT_MASK, job_irq_mask(sched));
	sim_reg_write(sched->dev, MMU_INT_CLEAR, UINT32_MAX);
	sim_reg_write(sched->dev, MMU_INT_MASK,
		      sleipnir_unit_irq_mask(sched->as_count));
}

/* --- timeouts and reset ------------------------------------------------------ */

static void deadline_to_timespec(int64_t ns, struct timespec *ts)
{
	ts->tv_sec = (time_t)(ns / 1000000000);
	ts->tv_nsec = (long)(ns % 1000000000);
}

/*
 * Sends cmd to the chain's slot and waits, sched->lock held, for the chain
 * to leave it. Whether it did.
 */
static bool job_stop_locked(struct sim_sched *sched, struct sim_job *job,
			    uint32_t cmd)
{
	struct sim_slot *slot = &sched->slots[job->js];
	struct timespec ts;

	if (slot->job != job)
		return true;
	sim_reg_write(sched->dev, js_reg(job->js, JS_COMMAND), cmd);
	deadline_to_timespec(sim_deadline_ns(STOP_TIMEOUT_NS), &ts);
	while (slot->job == job)
		if (pthread_cond_timedwait(&sched->cond, &sched->lock, &ts))
			break;
	return slot->job != job;
}

/*
 * Resets the GPU after bad overran its timeout, as the kernel's
 * sleipnir_job_reset(): the chains are taken off the GPU, the GPU is reset
 * and brought up, and the chains are run again from the start, except bad,
 * which ends -ETIMEDOUT.
 */
static void job_reset(struct sim_sched *sched, struct sim_job *bad)
{
	struct sim_job *done = NULL;
	int ret;

	COUNT(sched, gpu_resets, 1);
	pthread_mutex_lock(&sched->hw_lock);
	pthread_mutex_lock(&sched->lock);
	sched->resetting = true;
	for (unsigned int js = 0; js < sched->js_count; js++) {
		struct sim_slot *slot = &sched->slots[js];
		struct sim_job *job = slot->job;

		if (!job)
			continue;
		slot->job = NULL;
		job_off_gpu_locked(sched, job);
		if (job == bad) {
			job_retire_locked(job, -ETIMEDOUT, &done);
			continue;
		}
		sim_klog("js%u: chain at 0x%llx of client %d (%s) taken off the GPU by the reset; it runs again from the start",
			      js, (unsigned long long)job->jc, CLIENT(job));
		job->state = SIM_JOB_QUEUED;
		slot->resubmit = job;
	}
	for (unsigned int as_nr = 0; as_nr < SIM_AS_MAX; as_nr++) {
		sim_file_jobs_put(sched->as_owner[as_nr]);
		sched->as_owner[as_nr] = NULL;
	}
	pthread_mutex_unlock(&sched->lock);

	ret = sim_device_reset(sched->dev);
	if (ret)
		sim_klog("GPU reset failed (%s); the GPU may be unusable",
			 strerror(-ret));
	irqs_enable(sched);

	pthread_mutex_lock(&sched->lock);
	sched->resetting = false;
	run_locked(sched, &done);
	pthread_mutex_unlock(&sched->lock);
	pthread_mutex_unlock(&sched->hw_lock);
	signal_done(done);
}

/* A chain overran its timeout: stop it and reset the GPU. */
static void job_timed_out(struct sim_sched *sched, struct sim_job *job)
{
	bool stopped;

	pthread_mutex_lock(&sched->lock);
	/* It ended, or was run again after a reset, meanwhile. */
	if (job->state != SIM_JOB_RUNNING || sim_now_ns() < job->deadline_ns) {
		pthread_mutex_unlock(&sched->lock);
		return;
	}
	sim_klog("js%u: chain at 0x%llx of client %d (%s) overran its %u ms timeout",
		      job->js, (unsigned long long)job->jc, CLIENT(job), job->timeout_ms);
	COUNT(sched, jobs_timedout, 1);
	job->timed_out = true;
	record_job_fault_locked(job, SLEIPNIR_FAULT_TIMEOUT, 0);
	stopped = job_stop_locked(sched, job, JS_COMMAND_SOFT_STOP) ||
		  job_stop_locked(sched, job, JS_COMMAND_HARD_STOP);
	pthread_mutex_unlock(&sched->lock);
	if (!stopped)
		sim_klog("js%u: the chain did not stop", job->js);
	job_reset(sched, job);
}

/* The running chain with the earliest deadline, or NULL. */
static struct sim_job *first_deadline_locked(struct sim_sched *sched)
{
	struct sim_job *first = NULL;

	for (unsigned int js = 0; js < sched->js_count; js++) {
		struct sim_job *job = sched->slots[js].job;

		if (job && !job->timed_out &&
		    (!first || job->deadline_ns < first->deadline_ns))
			first = job;
	}
	return first;
}

static void *watchdog_main(void *data)
{
	struct sim_sched *sched = data;

	pthread_mutex_lock(&sched->lock);
	while (!sched->stopping) {
		struct sim_job *job = first_deadline_locked(sched);
		struct timespec ts;

		if (!job || sched->resetting) {
			pthread_cond_wait(&sched->cond, &sched->lock);
			continue;
		}
		if (sim_now_ns() < job->deadline_ns) {
			deadline_to_timespec(job->deadline_ns, &ts);
			pthread_cond_timedwait(&sched->cond, &sched->lock, &ts);
			continue;
		}
		sim_job_get(job);
		pthread_mutex_unlock(&sched->lock);
		job_timed_out(sched, job);
		sim_job_put(job);
		pthread_mutex_lock(&sched->lock);
	}
	pthread_mutex_unlock(&sched->lock);
	return NULL;
}

/* --- files ------------------------------------------------------------------ */

struct sim_file_jobs *sim_sched_file_open(struct sim_sched *sched,
					  struct sim_file *file)
{
	struct sim_file_jobs *fj = calloc(1, sizeof(*fj));

	if (!fj)
		return NULL;
	fj->sched = sched;
	fj->file = file;
	fj->vm = file->vm;
	fj->refs = 1;
	fj->pid = (int)getpid();
	snprintf(fj->comm, sizeof(fj->comm), "%s",
		 program_invocation_short_name);
	fj->fence_context = sim_fence_context_alloc(sched->js_count);
	return fj;
}

/*
 * As the kernel's sleipnir_sched_close(): the file's chains on the GPU are
 * hard-stopped and its queued ones cancelled (-ECANCELED) when their turn
 * comes, after their dependencies. Two differences, neither visible in a
 * fence: the kernel lets the stopped chains hold the VM while this waits
 * until they have left the GPU (so the caller may free the VM at once);
 * and the kernel's close also waits until the queued chains have had their
 * turn (drm_sched_entity_flush), which can take as long as a dependency
 * does, while this returns, the chains keeping only what they hold
 * themselves (BOs, fences, this struct).
 */
void sim_sched_file_close(struct sim_file_jobs *fj)
{
	struct sim_sched *sched;
	struct sim_job *done = NULL;

	if (!fj)
		return;
	sched = fj->sched;
	pthread_mutex_lock(&sched->lock);
	fj->closed = true;
	for (unsigned int js = 0; js < sched->js_count; js++) {
		struct sim_job *job = sched->slots[js].job;

		if (job && job->fj == fj)
			sim_reg_write(sched->dev, js_reg(js, JS_COMMAND),
				      JS_COMMAND_HARD_STOP);
	}
	while (fj->running)
		pthread_cond_wait(&sched->cond, &sched->lock);
	fj->file = NULL;
	fj->vm = NULL;
	/* Queued jobs that are ready now are cancelled at once. */
	run_locked(sched, &done);
	pthread_mutex_unlock(&sched->lock);
	signal_done(done);
	sim_file_jobs_put(fj);
}

/* --- the scheduler ------------------------------------------------------------ */

/* Register reads for the kernel's sleipnir_features_read(). */
static uint32_t read_reg(void *dev, uint32_t offset)
{
	return sim_reg_read(dev, offset);
}

struct sim_sched *sim_sched_create(struct sim_device *dev)
{
	struct sim_sched *sched = calloc(1, sizeof(*sched));
	struct sleipnir_features f = { 0 };
	pthread_condattr_t attr;

	if (!sched)
		return NULL;
	sched->dev = dev;
	/* The knob takes its environment now, as a parameter at module load. */
	sim_sched_max_job_timeout_ms(sched);
	/*
	 * The slots, address spaces and shader cores in use, read and derived
	 * as the kernel does at probe (kernel/sleipnir_features.h).
	 */
	sleipnir_features_read(&f, read_reg, dev);
	sched->js_count = sleipnir_present_count(f.js_present, SIM_JS_MAX);
	sched->as_count = sleipnir_present_count(f.as_present, SIM_AS_MAX);
	_Static_assert(sizeof(sched->js_features) == sizeof(f.js_features),
		       "one JS_FEATURES word per slot the kernel knows");
	memcpy(sched->js_features, f.js_features, sizeof(sched->js_features));
	sched->affinity = f.shader_present & sleipnir_core_mask(f.l2_present);
	sched->quirks = sleipnir_common_model_quirks(f.product, f.revision);

	pthread_mutex_init(&sched->lock, NULL);
	pthread_mutex_init(&sched->hw_lock, NULL);
	pthread_mutex_init(&sched->submit_lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&sched->cond, &attr);
	pthread_condattr_destroy(&attr);

	irqs_enable(sched);
	if (sim_thread_create(&sched->watchdog, watchdog_main, sched)) {
		sim_sched_destroy(sched);
		errno = EAGAIN;
		return NULL;
	}
	sched->watchdog_started = true;
	return sched;
}

/* With no file open any more: nothing is queued or running. */
void sim_sched_destroy(struct sim_sched *sched)
{
	if (!sched)
		return;
	if (sched->watchdog_started) {
		pthread_mutex_lock(&sched->lock);
		sched->stopping = true;
		pthread_cond_broadcast(&sched->cond);
		pthread_mutex_unlock(&sched->lock);
		pthread_join(sched->watchdog, NULL);
	}
	for (unsigned int as_nr = 0; as_nr < SIM_AS_MAX; as_nr++)
		sim_file_jobs_put(sched->as_owner[as_nr]);
	pthread_cond_destroy(&sched->cond);
	pthread_mutex_destroy(&sched->submit_lock);
	pthread_mutex_destroy(&sched->hw_lock);
	pthread_mutex_destroy(&sched->lock);
	free(sched);
}

/* The kernel's sleipnir_debugfs_counters(), the scheduler's lines. */
void sim_sched_debugfs_counters(struct sim_sched *sched, FILE *out)
{
	struct sim_sched_counters c;

#define READ(name) (c.name = __atomic_load_n(&sched->counters.name, \
					     __ATOMIC_RELAXED))
	READ(jobs_in_flight);
	READ(jobs_submitted);
	READ(jobs_done);
	READ(jobs_failed);
	READ(jobs_timedout);
	READ(gpu_resets);
	READ(mmu_faults);
#undef READ
	fprintf(out, "jobs_in_flight: %d\n", c.jobs_in_flight);
	fprintf(out, "jobs_submitted: %lld\n", (long long)c.jobs_submitted);
	fprintf(out, "jobs_done: %lld\n", (long long)c.jobs_done);
	fprintf(out, "jobs_failed: %lld\n", (long long)c.jobs_failed);
	fprintf(out, "jobs_timedout: %lld\n", (long long)c.jobs_timedout);
	fprintf(out, "gpu_resets: %lld\n", (long long)c.gpu_resets);
	fprintf(out, "mmu_faults: %lld\n", (long long)c.mmu_faults);
}
