/* SPDX-License-Identifier: MIT */
/*
 * Fences of the simulated kernel, as the kernel's dma_fence: signalled
 * once, with a status (0, or the negative errno the job failed with),
 * reference-counted, waitable with a deadline, with callbacks. The
 * scheduler signals them; syncobjs, sync_files and BOs hold them.
 */
#ifndef SLEIPNIR_SIM_FENCE_H
#define SLEIPNIR_SIM_FENCE_H

#include <stdbool.h>
#include <stdint.h>

struct sim_fence;

/* An unsignalled fence with one reference; NULL when out of memory. */
struct sim_fence *sim_fence_new(void);
/* A signalled fence (status 0), for "nothing to wait for". */
struct sim_fence *sim_fence_new_signaled(void);
struct sim_fence *sim_fence_get(struct sim_fence *fence);
void sim_fence_put(struct sim_fence *fence);   /* NULL is ignored */

/* Signals once with error (0 or -errno); later calls are ignored. */
void sim_fence_signal(struct sim_fence *fence, int error);
/*
 * 1 when signalled without error, 0 while pending, or the negative errno
 * it was signalled with (the sync_file status convention).
 */
int sim_fence_status(struct sim_fence *fence);
/*
 * Waits until the fence is signalled or CLOCK_MONOTONIC passes
 * deadline_ns (INT64_MAX: forever). 0 once signalled (whatever its
 * status), -ETIME at the deadline.
 */
int sim_fence_wait(struct sim_fence *fence, int64_t deadline_ns);
/*
 * Calls cb(data) once the fence is signalled: at once, on this thread,
 * when it already is; else on the thread that signals it, without the
 * fence's lock held. Returns 0 or -ENOMEM.
 */
int sim_fence_on_signal(struct sim_fence *fence, void (*cb)(void *data),
			void *data);

/* CLOCK_MONOTONIC now, in ns; and now plus timeout_ns, saturating. */
int64_t sim_now_ns(void);
int64_t sim_deadline_ns(int64_t timeout_ns);

/*
 * Callbacks that the caller owns and can take back (as dma_fence_cb), for
 * waits that give up at a deadline. A sim_fence_cb is the caller's memory,
 * untouched by the fence once func has been called or it was removed.
 */
struct sim_fence_cb {
	struct sim_fence_cb *next, *prev;
	void (*func)(struct sim_fence *fence, struct sim_fence_cb *cb);
};
/*
 * Adds cb: func(fence, cb) runs once, on the signalling thread, without the
 * fence's lock. -ENOENT (cb not added, func not called) when the fence is
 * already signalled.
 */
int sim_fence_add_callback(struct sim_fence *fence, struct sim_fence_cb *cb,
			   void (*func)(struct sim_fence *fence,
					struct sim_fence_cb *cb));
/*
 * Takes cb back: true when it had not run (it never will); false when it
 * has run, in which case this waits until func has returned. Not to be
 * called from cb's own func.
 */
bool sim_fence_remove_callback(struct sim_fence *fence,
			       struct sim_fence_cb *cb);
bool sim_fence_is_signaled(struct sim_fence *fence);

/*
 * Timelines, as dma_fence contexts: fences of one context signal in seqno
 * order (sync_file merges keep only the latest of each). sim_fence_new()
 * gives each fence a context of its own; a job slot may instead allocate
 * one context and number its fences.
 */
uint64_t sim_fence_context_alloc(unsigned int num);
struct sim_fence *sim_fence_new_on(uint64_t context, uint64_t seqno);
uint64_t sim_fence_context(const struct sim_fence *fence);
uint64_t sim_fence_seqno(const struct sim_fence *fence);
/* What SYNC_IOC_FILE_INFO reports for a fence (sync_fence_info). */
const char *sim_fence_driver_name(const struct sim_fence *fence);
const char *sim_fence_timeline_name(const struct sim_fence *fence);
int64_t sim_fence_timestamp_ns(struct sim_fence *fence); /* 0: pending */

/*
 * Containers, for sim_syncobj.c (dma_fence_chain, dma_fence_array and
 * dma_fence_unwrap of Linux 6.1, with their semantics):
 *
 * sim_fence_chain_new() makes the timeline point seqno on top of prev (a
 * reference taken; NULL: first point) for fence: it signals once fence
 * and everything prev covers have, with status 1 whatever their errors
 * (as the kernel's chain). NULL when out of memory.
 */
struct sim_fence *sim_fence_chain_new(struct sim_fence *prev,
				      struct sim_fence *fence, uint64_t seqno);
bool sim_fence_is_chain(const struct sim_fence *fence);
/* The fence a point holds (fence itself when it is no chain node). */
struct sim_fence *sim_fence_chain_contained(struct sim_fence *fence);
/* The point before a chain node (0 at the start of its timeline). */
uint64_t sim_fence_chain_prev_seqno(const struct sim_fence *fence);
/*
 * Takes the reference to fence and returns one to the next older point
 * not yet known signalled (dropping signalled ones from the chain), or
 * NULL at the end.
 */
struct sim_fence *sim_fence_chain_walk(struct sim_fence *fence);
/*
 * Moves *pfence (a reference) to the chain node that signals point seqno:
 * 0, with *pfence NULL when the point is known signalled; -EINVAL when
 * *pfence is no chain node or the timeline has not reached seqno yet
 * (*pfence unchanged). seqno 0 leaves *pfence as it is.
 */
int sim_fence_chain_find_seqno(struct sim_fence **pfence, uint64_t seqno);

/* Walks the fences a (chain of) arrays contains: borrowed, for reading. */
struct sim_fence_unwrap {
	struct sim_fence *chain;
	struct sim_fence *array;
	unsigned int index;
};
struct sim_fence *sim_fence_unwrap_first(struct sim_fence *head,
					 struct sim_fence_unwrap *cursor);
struct sim_fence *sim_fence_unwrap_next(struct sim_fence_unwrap *cursor);
#define sim_fence_unwrap_for_each(f, cursor, head)			\
	for ((f) = sim_fence_unwrap_first((head), (cursor)); (f);	\
	     (f) = sim_fence_unwrap_next(cursor))
/*
 * One fence for all the pending fences inside fences[0..n) (the latest of
 * each context; an array when several are left; a new signalled fence
 * when none is). NULL when out of memory.
 */
struct sim_fence *sim_fence_merge(struct sim_fence *const *fences,
				  unsigned int n);

#endif
