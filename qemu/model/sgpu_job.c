/* SPDX-License-Identifier: MIT */
/*
 * Job manager: the job interrupt, the three job slots and their registers,
 * and the runner that walks job chains inside sgpu_run().
 *
 * A slot has a current chain (JS_HEAD/TAIL/AFFINITY/CONFIG) and one queued
 * chain (the _NEXT registers, armed by JS_COMMAND_NEXT = START). MMIO
 * writes only move chains between those states; jobs themselves execute
 * one at a time in the runner, which takes the model lock per job and so
 * never keeps register accesses waiting for longer than one job.
 *
 * Chain rules (docs/hardware.md §2.11, §4.1):
 *  - A queued chain starts when the slot is idle and its FAILED bit is
 *    clear: at once on START, when the current chain ends DONE, or when
 *    JOB_INT_CLEAR clears the FAILED bit of an earlier failure.
 *  - Every job that completes gets 0x1 (DONE) written into its header's
 *    Exception Status; a failing job gets its fault code there instead and
 *    JS_TAIL points at it. JS_CONFIG bit 15 suppresses both write-backs.
 *  - Jobs run in list order, which satisfies every dependency that names
 *    an earlier job; a dependency on an index not yet completed in the
 *    chain cannot ever be satisfied (hardware would hang), so it fails with
 *    JOB_CONFIG_FAULT, as do chains longer than 65536 jobs and chains that
 *    revisit a job header (Brent's cycle detection, so a cycle may run a
 *    few of its jobs twice before it is caught).
 *  - SOFT_STOP takes effect between jobs: STOPPED with JS_TAIL = the next
 *    job to run (panfrost resubmits from there), or DONE if the chain had
 *    just finished. HARD_STOP ends the chain with TERMINATED.
 *  - MMU faults fail the job with the MMU's own exception code (e.g. 0xC1
 *    for a level-1 translation fault): it is in panfrost's table, above
 *    0x3F (so the job's fence gets -EINVAL), and names the real cause.
 *    Bus errors after translation fail with JOB_READ_FAULT/JOB_WRITE_FAULT.
 *  - JOB_INT_JS_STATE is live rather than sampled at JOB_INT_CLEAR:
 *    bit j = chain running, bit 16+j = chain queued. Panfrost polls it
 *    during reset, which only a live value satisfies.
 */
#include <string.h>
#include <time.h>

#include "midgard_desc.h"
#include "sgpu_internal.h"

#define ALL_SLOTS_MASK 0x00070007u

static void kick(struct sgpu *gpu)
{
	gpu->host.kick(gpu->host.opaque);
}

void sgpu_job_reset(struct sgpu *gpu)
{
	gpu->job_rawstat = 0;
	gpu->job_mask = 0;
	gpu->active_slots = 0;
	for (unsigned int js = 0; js < SGPU_NUM_SLOTS; js++) {
		struct sgpu_slot *s = &gpu->slot[js];
		uint64_t epoch = s->epoch;

		memset(s, 0, sizeof(*s));
		s->epoch = epoch + 1;
	}
}

struct chain_trace {
	struct sgpu *gpu;
	unsigned int as_nr;
};

static bool trace_read(void *ctx, uint64_t va, void *dst, size_t size)
{
	const struct chain_trace *t = ctx;

	return !sgpu_vm_read_quiet(t->gpu, t->as_nr, va, dst, size);
}

static void trace_line(void *ctx, const char *text)
{
	const struct chain_trace *t = ctx;

	sgpu_trace(t->gpu, "sgpu_jobs", "%s", text);
}

/* The chain a slot starts, decoded as the OpenCL runtime prints what it
 * submits (SLEIPNIR_DEBUG=jobs): the same decoder, before any job runs. */
static void trace_chain(struct sgpu *gpu, unsigned int js)
{
	const struct sgpu_slot *s = &gpu->slot[js];
	struct chain_trace t = {
		.gpu = gpu, .as_nr = s->config & JS_CONFIG_AS_MASK,
	};
	struct mdg_printer p = { trace_line, &t };
	struct mdg_memory m = { trace_read, &t };

	if (sgpu_tracing(gpu, "sgpu_jobs"))
		mdg_decode_jobs(&p, &m, s->head);
}

static void start_chain(struct sgpu *gpu, unsigned int js)
{
	struct sgpu_slot *s = &gpu->slot[js];

	s->head = s->head_next;
	s->tail = s->head;
	s->affinity = s->affinity_next;
	s->config = s->config_next;
	s->xaffinity = s->xaffinity_next;
	s->command_next = JS_COMMAND_NOP;
	s->active = true;
	s->soft_stop = s->hard_stop = s->hanging = false;
	s->status = MDG_EXCEPTION_ACTIVE;
	s->job = s->head;
	s->last_job = 0;
	s->njobs = 0;
	s->resuming = false;
	s->chain_id = ++gpu->stats.chains_started;
	memset(s->seen, 0, sizeof(s->seen));
	sgpu_perfcnt_slot_started(gpu, js);
	sgpu_trace(gpu, "sgpu_chain_start", "js=%u head=0x%llx config=0x%x",
		   js, (unsigned long long)s->head, s->config);
	trace_chain(gpu, js);
	kick(gpu);
}

static void try_start_next(struct sgpu *gpu, unsigned int js)
{
	struct sgpu_slot *s = &gpu->slot[js];

	if (!s->active && s->command_next == JS_COMMAND_START &&
	    !(gpu->job_rawstat & JOB_IRQ_FAILED(js)))
		start_chain(gpu, js);
}

/* Ends the current chain with a JS_STATUS code. */
static void finish_chain(struct sgpu *gpu, unsigned int js, uint32_t status,
			 uint64_t tail)
{
	struct sgpu_slot *s = &gpu->slot[js];

	s->status = status;
	s->tail = tail;
	s->active = false;
	s->hanging = s->soft_stop = s->hard_stop = s->resuming = false;
	/* Only the runner ends chains, so no dispatch is executing now. */
	sgpu_job_compute_abandon(gpu, js);
	if (status == MDG_EXCEPTION_DONE) {
		gpu->job_rawstat |= JOB_IRQ_DONE(js);
		gpu->stats.chains_done++;
	} else {
		gpu->job_rawstat |= JOB_IRQ_FAILED(js);
		if (status > 0x3F)
			gpu->stats.chains_failed++;
		else
			gpu->stats.chains_stopped++;
	}
	sgpu_perfcnt_slot_stopped(gpu, js);
	sgpu_trace(gpu, "sgpu_chain_end", "js=%u status=0x%x tail=0x%llx jobs=%u",
		   js, status, (unsigned long long)tail, s->njobs);
	try_start_next(gpu, js);
	sgpu_update_irqs_locked(gpu);
}

/* A job failed: record the code in its descriptor and end the chain. */
static void fail_job(struct sgpu *gpu, unsigned int js, uint32_t code,
		     uint64_t va)
{
	struct sgpu_slot *s = &gpu->slot[js];

	if (!(s->config & JS_CONFIG_DISABLE_DESCRIPTOR_WR_BK)) {
		uint8_t raw[4];

		sgpu_put_le32(raw, code);
		sgpu_vm_write_quiet(gpu, s->config & JS_CONFIG_AS_MASK, va,
				    raw, sizeof(raw));
	}
	finish_chain(gpu, js, code, va);
}

static bool seen(const struct sgpu_slot *s, unsigned int index)
{
	return s->seen[index / 8] & (1u << (index % 8));
}

/*
 * Runs the job at va. Returns 0 (and *next), SGPU_JOB_HANG,
 * SGPU_JOB_YIELD, or the exception code the job fails with.
 */
static uint32_t run_job(struct sgpu *gpu, unsigned int js, uint64_t va,
			uint64_t *next)
{
	struct sgpu_slot *s = &gpu->slot[js];
	struct sgpu_job job = {
		.gpu = gpu, .js = js, .as_nr = s->config & JS_CONFIG_AS_MASK,
		.va = va, .affinity = s->affinity,
	};
	uint8_t hdr[MDG_JOB_HEADER_BYTES];
	unsigned int deps[2];
	uint32_t code, index;

	code = sgpu_vm_read(gpu, job.as_nr, va, hdr, sizeof(hdr),
			    AS_ACCESS_READ);
	if (code)
		return code;
	deps[0] = (unsigned int)mdg_get(hdr, MDG_JOB_HEADER_DEPENDENCY_1);
	deps[1] = (unsigned int)mdg_get(hdr, MDG_JOB_HEADER_DEPENDENCY_2);
	*next = mdg_get(hdr, MDG_JOB_HEADER_NEXT);
	job.type = (unsigned int)mdg_get(hdr, MDG_JOB_HEADER_TYPE);
	index = (uint32_t)mdg_get(hdr, MDG_JOB_HEADER_INDEX);

	if (!mdg_get(hdr, MDG_JOB_HEADER_IS_64B)) {
		/* The 32-bit descriptor layout is undocumented; nobody
		 * produces it. */
		sgpu_guest_error(gpu, "sgpu: job 0x%llx is not a 64-bit "
				 "descriptor", (unsigned long long)va);
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	}
	for (unsigned int i = 0; i < 2; i++) {
		unsigned int dep = deps[i];

		if (dep && !seen(s, dep)) {
			sgpu_guest_error(gpu, "sgpu: job 0x%llx (index %u) "
					 "depends on index %u, which has not "
					 "run earlier in the chain",
					 (unsigned long long)va, index, dep);
			return MDG_EXCEPTION_JOB_CONFIG_FAULT;
		}
	}

	switch (job.type) {
	case MDG_JOB_TYPE_NULL:
		code = sgpu_job_null(&job);
		break;
	case MDG_JOB_TYPE_WRITE_VALUE:
		code = sgpu_job_write_value(&job);
		break;
	case MDG_JOB_TYPE_CACHE_FLUSH:
		code = sgpu_job_cache_flush(&job);
		break;
	case MDG_JOB_TYPE_COMPUTE:
		code = sgpu_job_compute(&job);
		break;
	default:
		if (job.type > MDG_JOB_TYPE_COMPUTE &&
		    job.type <= MDG_JOB_TYPE_FRAGMENT)
			sgpu_guest_error(gpu, "sgpu: job 0x%llx: graphics job "
					 "type %u is not supported",
					 (unsigned long long)va, job.type);
		else
			sgpu_guest_error(gpu, "sgpu: job 0x%llx: invalid job "
					 "type %u", (unsigned long long)va,
					 job.type);
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	}
	if (code)
		return code;

	if (!(s->config & JS_CONFIG_DISABLE_DESCRIPTOR_WR_BK)) {
		uint8_t raw[4] = { 0 };

		/* The Exception Status word, the header's first. */
		mdg_set(raw, MDG_JOB_HEADER_EXCEPTION_STATUS,
			MDG_EXCEPTION_DONE);
		code = sgpu_vm_write(gpu, job.as_nr, va, raw, sizeof(raw));
		if (code)
			return code;
	}
	s->seen[index / 8] |= (uint8_t)(1u << (index % 8));
	return 0;
}

/* Advances a chain by one job (or ends it). */
static void step(struct sgpu *gpu, unsigned int js)
{
	struct sgpu_slot *s = &gpu->slot[js];
	uint64_t va = s->job, next = 0, epoch = s->epoch;
	uint32_t code;

	if (s->hard_stop) {
		finish_chain(gpu, js, MDG_EXCEPTION_TERMINATED, va);
		return;
	}
	/* A soft stop waits for the job in progress to end. */
	if (s->soft_stop && !s->resuming) {
		finish_chain(gpu, js, MDG_EXCEPTION_STOPPED, va);
		return;
	}
	if (s->hanging)
		return;

	if (s->resuming)
		goto run; /* the same job again: not a new link in the chain */
	if (s->njobs >= SGPU_MAX_CHAIN_JOBS) {
		sgpu_guest_error(gpu, "sgpu: chain on slot %u is longer than "
				 "%u jobs", js, SGPU_MAX_CHAIN_JOBS);
		fail_job(gpu, js, MDG_EXCEPTION_JOB_CONFIG_FAULT, va);
		return;
	}
	if (s->njobs == 0) {
		s->brent_saved = va;
		s->brent_power = 1;
		s->brent_lam = 0;
	} else if (va == s->brent_saved) {
		sgpu_guest_error(gpu, "sgpu: job chain on slot %u loops back "
				 "to 0x%llx", js, (unsigned long long)va);
		fail_job(gpu, js, MDG_EXCEPTION_JOB_CONFIG_FAULT, va);
		return;
	} else if (++s->brent_lam == s->brent_power) {
		s->brent_saved = va;
		s->brent_power <<= 1;
		s->brent_lam = 0;
	}

run:
	s->tail = va;
	s->resuming = false;
	code = run_job(gpu, js, va, &next);
	if (s->epoch != epoch || !s->active)
		return; /* reset while the lock was dropped */
	if (code == SGPU_JOB_HANG) {
		s->hanging = true;
		return;
	}
	if (code == SGPU_JOB_YIELD) {
		s->resuming = true;
		return;
	}
	if (code) {
		fail_job(gpu, js, code, va);
		return;
	}
	s->njobs++;
	s->last_job = va;
	gpu->stats.jobs_run++;
	gpu->perf.js_jobs[js]++;
	if (next == 0)
		finish_chain(gpu, js, MDG_EXCEPTION_DONE, va);
	else
		s->job = next;
}

static void stop(struct sgpu *gpu, unsigned int js, bool hard)
{
	struct sgpu_slot *s = &gpu->slot[js];

	if (!s->active)
		return;
	if (hard)
		s->hard_stop = true;
	else
		s->soft_stop = true;
	sgpu_trace(gpu, "sgpu_stop", "js=%u %s", js, hard ? "hard" : "soft");
	pthread_cond_broadcast(&gpu->cond);
	kick(gpu);
}

static void js_command(struct sgpu *gpu, unsigned int js, uint32_t cmd)
{
	bool flag = gpu->slot[js].config & JS_CONFIG_JOB_CHAIN_FLAG;

	switch (cmd) {
	case JS_COMMAND_NOP:
		break;
	case JS_COMMAND_SOFT_STOP:
	case JS_COMMAND_HARD_STOP:
		stop(gpu, js, cmd == JS_COMMAND_HARD_STOP);
		break;
	case JS_COMMAND_SOFT_STOP_0:
	case JS_COMMAND_HARD_STOP_0:
		/* Only stops the chain that was started with flag 0. */
		if (!flag)
			stop(gpu, js, cmd == JS_COMMAND_HARD_STOP_0);
		break;
	case JS_COMMAND_SOFT_STOP_1:
	case JS_COMMAND_HARD_STOP_1:
		if (flag)
			stop(gpu, js, cmd == JS_COMMAND_HARD_STOP_1);
		break;
	default:
		sgpu_guest_error(gpu, "sgpu: JS_COMMAND 0x%x on slot %u is not "
				 "a stop command", cmd, js);
		break;
	}
}

static uint32_t js_state(struct sgpu *gpu)
{
	uint32_t state = 0;

	for (unsigned int js = 0; js < SGPU_NUM_SLOTS; js++) {
		if (gpu->slot[js].active)
			state |= 1u << js;
		if (gpu->slot[js].command_next == JS_COMMAND_START)
			state |= 1u << (16 + js);
	}
	return state;
}

uint32_t sgpu_job_read(struct sgpu *gpu, uint32_t offset)
{
	struct sgpu_slot *s;

	switch (offset) {
	case JOB_INT_RAWSTAT:
		return gpu->job_rawstat;
	case JOB_INT_MASK:
		return gpu->job_mask;
	case JOB_INT_STAT:
		return gpu->job_rawstat & gpu->job_mask;
	case JOB_INT_JS_STATE:
		return js_state(gpu);
	}
	if (offset < JOB_SLOT_BASE ||
	    offset >= JOB_SLOT_BASE + SGPU_NUM_SLOTS * JOB_SLOT_STRIDE)
		return 0;
	s = &gpu->slot[(offset - JOB_SLOT_BASE) / JOB_SLOT_STRIDE];
	switch ((offset - JOB_SLOT_BASE) % JOB_SLOT_STRIDE) {
	case JS_HEAD_LO: return (uint32_t)s->head;
	case JS_HEAD_HI: return (uint32_t)(s->head >> 32);
	case JS_TAIL_LO: return (uint32_t)s->tail;
	case JS_TAIL_HI: return (uint32_t)(s->tail >> 32);
	case JS_AFFINITY_LO: return (uint32_t)s->affinity;
	case JS_AFFINITY_HI: return (uint32_t)(s->affinity >> 32);
	case JS_CONFIG: return s->config;
	case JS_XAFFINITY: return s->xaffinity;
	case JS_STATUS: return s->status;
	case JS_HEAD_NEXT_LO: return (uint32_t)s->head_next;
	case JS_HEAD_NEXT_HI: return (uint32_t)(s->head_next >> 32);
	case JS_AFFINITY_NEXT_LO: return (uint32_t)s->affinity_next;
	case JS_AFFINITY_NEXT_HI: return (uint32_t)(s->affinity_next >> 32);
	case JS_CONFIG_NEXT: return s->config_next;
	case JS_XAFFINITY_NEXT: return s->xaffinity_next;
	case JS_COMMAND_NEXT: return s->command_next;
	case JS_FLUSH_ID_NEXT: return s->flush_id_next;
	default: return 0; /* JS_COMMAND is write-only */
	}
}

void sgpu_job_write(struct sgpu *gpu, uint32_t offset, uint32_t value)
{
	unsigned int js, reg;
	struct sgpu_slot *s;

	switch (offset) {
	case JOB_INT_CLEAR:
		gpu->job_rawstat &= ~value;
		/* A cleared FAILED bit may release a queued chain. */
		for (js = 0; js < SGPU_NUM_SLOTS; js++)
			try_start_next(gpu, js);
		return;
	case JOB_INT_MASK:
		gpu->job_mask = value & ALL_SLOTS_MASK;
		return;
	case JOB_INT_THROTTLE:
		return; /* no throttling to do */
	}
	if (offset < JOB_SLOT_BASE ||
	    offset >= JOB_SLOT_BASE + SGPU_NUM_SLOTS * JOB_SLOT_STRIDE) {
		sgpu_guest_error(gpu, "sgpu: write 0x%x to read-only or "
				 "unimplemented job register 0x%x",
				 value, offset);
		return;
	}
	js = (offset - JOB_SLOT_BASE) / JOB_SLOT_STRIDE;
	reg = (offset - JOB_SLOT_BASE) % JOB_SLOT_STRIDE;
	s = &gpu->slot[js];
	switch (reg) {
	case JS_HEAD_NEXT_LO:
	case JS_HEAD_NEXT_HI:
		sgpu_set_half(&s->head_next, reg == JS_HEAD_NEXT_HI, value);
		return;
	case JS_AFFINITY_NEXT_LO:
	case JS_AFFINITY_NEXT_HI:
		sgpu_set_half(&s->affinity_next, reg == JS_AFFINITY_NEXT_HI,
			      value);
		return;
	case JS_CONFIG_NEXT:
		s->config_next = value;
		return;
	case JS_XAFFINITY_NEXT:
		s->xaffinity_next = value;
		return;
	case JS_FLUSH_ID_NEXT:
		s->flush_id_next = value;
		return;
	case JS_COMMAND_NEXT:
		if (value == JS_COMMAND_START) {
			s->command_next = JS_COMMAND_START;
			try_start_next(gpu, js);
		} else if (value == JS_COMMAND_NOP) {
			s->command_next = JS_COMMAND_NOP;
		} else {
			sgpu_guest_error(gpu, "sgpu: JS_COMMAND_NEXT 0x%x on "
					 "slot %u (only NOP and START)",
					 value, js);
		}
		return;
	case JS_COMMAND:
		js_command(gpu, js, value);
		return;
	default:
		sgpu_guest_error(gpu, "sgpu: write 0x%x to read-only or "
				 "unimplemented register 0x%x of slot %u",
				 value, reg, js);
		return;
	}
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A slot the runner can advance: running, and not parked on a hang job. */
static int pick_slot(struct sgpu *gpu)
{
	for (unsigned int i = 0; i < SGPU_NUM_SLOTS; i++) {
		unsigned int js = (gpu->next_slot + i) % SGPU_NUM_SLOTS;
		struct sgpu_slot *s = &gpu->slot[js];

		if (s->active && (!s->hanging || s->soft_stop || s->hard_stop))
			return (int)js;
	}
	return -1;
}

/*
 * The runner. Slots take turns job by job. When only hanging slots are
 * left it sleeps until a stop command or the end of the budget, so a hung
 * slot costs no CPU.
 */
bool sgpu_job_run(struct sgpu *gpu, uint64_t budget_ns)
{
	uint64_t deadline = mono_ns() + budget_ns;

	for (;;) {
		int js = pick_slot(gpu);
		struct timespec ts;

		if (js >= 0) {
			step(gpu, (unsigned int)js);
			gpu->next_slot = ((unsigned int)js + 1) % SGPU_NUM_SLOTS;
			if (mono_ns() >= deadline)
				return gpu->active_slots != 0;
			continue;
		}
		if (!gpu->active_slots)
			return false;
		if (mono_ns() >= deadline)
			return true;
		ts.tv_sec = (time_t)(deadline / 1000000000ull);
		ts.tv_nsec = (long)(deadline % 1000000000ull);
		pthread_cond_timedwait(&gpu->cond, &gpu->lock, &ts);
	}
}
