/* SPDX-License-Identifier: MIT */
/*
 * The scheduler's private state, shared by its four files only:
 * sim_sched.c (job slots, the job interrupt, timeouts and reset),
 * sim_submit.c (SUBMIT), sim_fault.c (fault records, the MMU interrupt,
 * GET_FAULT) and sim_resv.c (BO fences, BO_WAIT).
 *
 * It mirrors sleipnir.ko's drm_sched back end: one queue per job slot in
 * which each file's jobs keep their SUBMIT order (the kernel's one entity
 * per file and slot), one chain at a time on each slot, and a job that is
 * started only once every fence it depends on has signalled.
 *
 * Locking: sched->lock (one lock for every field below unless a comment
 * says otherwise) is never held while a fence is signalled or waited for;
 * jobs that end are collected on a list and signalled after unlocking.
 * sched->hw_lock keeps the interrupt handlers and a GPU reset apart (the
 * kernel's disable_irq); it is taken before sched->lock. sched->submit_lock
 * makes reading the BOs' fences and adding the new job's fence to them one
 * step (the kernel's reservation locks); it is taken before sched->lock.
 */
#ifndef SLEIPNIR_SIM_SCHED_PRIV_H
#define SLEIPNIR_SIM_SCHED_PRIV_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim.h"
#include "sleipnir_faults.h"
#include "sleipnir_features.h"
#include "sleipnir_hwcfg.h"
#include "sleipnir_rules.h"

/* As many job slots and address spaces as the register map has. */
#define SIM_JS_MAX 16
#define SIM_AS_MAX 16

/* A file's faults since the last clear (the kernel's sleipnir_fault_state). */
struct sim_fault_state {
	uint32_t count;              /* the file is faulted while > 0 */
	/* The first, as GET_FAULT reports it; completed by later halves. */
	struct sleipnir_fault_info first;
	/* Bumped by every report: older jobs are cancelled, not run. */
	unsigned int generation;
};

/* One open file's side of the scheduler. */
struct sim_file_jobs {
	struct sim_sched *sched;
	/* The file and its VM; NULL once the file is closed. */
	struct sim_file *file;
	struct sim_vm *vm;
	/* The file, its jobs and the AS records each hold one (atomic). */
	unsigned int refs;
	bool closed;
	/* Its jobs on the GPU (holding an AS); close waits for 0. */
	unsigned int running;
	struct sim_fault_state faults;
	/* Who opened it, for the log (the kernel's vm->pid and comm). */
	int pid;
	char comm[16];
	/* For picking: this file's head job on slot js was not ready. */
	uint64_t blocked_stamp[SIM_JS_MAX];
	/*
	 * The fence timeline of its jobs on each slot (a drm_sched entity's
	 * context): they end in SUBMIT order. Numbered under submit_lock.
	 */
	uint64_t fence_context;
	uint64_t fence_seqno[SIM_JS_MAX];
};

enum sim_job_state {
	SIM_JOB_NEW,                 /* being set up by SUBMIT */
	SIM_JOB_QUEUED,              /* in its slot's queue */
	SIM_JOB_RUNNING,             /* on the GPU */
	SIM_JOB_DONE,
};

/* One SUBMIT: a chain and what it uses (the kernel's struct sleipnir_job). */
struct sim_job {
	struct sim_sched *sched;
	struct sim_file_jobs *fj;    /* referenced */
	struct sim_fence *fence;     /* signals when the job ends */
	struct sim_bo **bos;         /* referenced until the job is freed */
	uint32_t bo_count;
	uint64_t jc;
	unsigned int js;
	uint32_t timeout_ms;
	unsigned int fault_generation;
	/* Atomic: the scheduler, SUBMIT, and each pending fence callback. */
	unsigned int refs;
	/* Fences not yet signalled (+1 while SUBMIT sets the job up). */
	unsigned int pending_deps;
	enum sim_job_state state;
	struct sim_job *prev, *next; /* in the slot's queue */
	struct sim_job *done_next;   /* on a list of jobs to signal */
	int error;                   /* what it ended with */
	int as_nr;                   /* while running */
	int64_t start_ns, deadline_ns;
	bool timed_out;              /* overran; being stopped */
};

struct sim_slot {
	struct sim_job *job;         /* on the GPU */
	/* Taken off the GPU by a reset: runs again first. */
	struct sim_job *resubmit;
	struct sim_job *head, *tail; /* queued, in SUBMIT order */
};

/* The kernel's debugfs counters the scheduler keeps (all atomic). */
struct sim_sched_counters {
	int jobs_in_flight;          /* made by SUBMIT, not yet freed */
	int64_t jobs_submitted;
	int64_t jobs_done;           /* ended on the GPU without error */
	int64_t jobs_failed;         /* ended on the GPU with one */
	int64_t jobs_timedout;
	int64_t gpu_resets;
	int64_t mmu_faults;
};

struct sim_sched {
	struct sim_device *dev;
	struct sim_sched_counters counters;
	pthread_mutex_t lock;
	/* Broadcast when a slot's job changes, a file's running count drops
	 * or a job starts (CLOCK_MONOTONIC). */
	pthread_cond_t cond;
	pthread_mutex_t hw_lock;
	pthread_mutex_t submit_lock;
	unsigned int js_count;
	unsigned int as_count;
	uint64_t affinity;           /* JS_AFFINITY of every chain */
	uint32_t quirks;             /* enum sleipnir_quirk, for JS_CONFIG */
	uint32_t js_features[SIM_JS_MAX];
	struct sim_slot slots[SIM_JS_MAX];
	/* The file each AS was last bound for: whose its faults are. */
	struct sim_file_jobs *as_owner[SIM_AS_MAX];
	bool resetting;              /* no chain is started meanwhile */
	bool stopping;               /* the watchdog ends */
	uint64_t pick_stamp;
	pthread_t watchdog;
	bool watchdog_started;
};

/* sim_sched.c */
int sim_sched_pick_slot(struct sim_sched *sched, uint32_t requirements);
struct sim_file_jobs *sim_file_jobs_get(struct sim_file_jobs *fj);
void sim_file_jobs_put(struct sim_file_jobs *fj);
struct sim_job *sim_job_get(struct sim_job *job);
void sim_job_put(struct sim_job *job);
/*
 * SUBMIT's last step, with submit_lock held: waits for each of deps (their
 * references are taken over) and queues the job. 0, or -ENOMEM with the
 * job not queued (it then only waits for the callbacks already set to
 * drop their references).
 */
int sim_sched_push_job(struct sim_job *job, struct sim_fence **deps,
		       unsigned int ndeps);

/* sim_fault.c; the _locked ones with sched->lock held. */
void sim_fault_record_locked(struct sim_file_jobs *fj,
			     const struct sleipnir_fault_info *fault);
/* Handles every pending MMU fault; hw_lock held, sched->lock not. */
void sim_sched_mmu_faults(struct sim_sched *sched);

#endif
