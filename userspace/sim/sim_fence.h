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

#endif
