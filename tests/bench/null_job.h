/* SPDX-License-Identifier: MIT */
/*
 * The driver's own dispatch path, for the dispatch benchmarks: SUBMIT of a
 * one-job chain holding a NULL job, then a wait on its out-syncobj, through
 *  - sleipnir.ko (uapi/drm/sleipnir_drm.h through userspace/drm/sl_drm.h,
 *    SLEIPNIR_REQ_NULL), or
 *  - the upstream panfrost driver on the same GPU model (its own uapi,
 *    <drm/panfrost_drm.h>, as tests/guest/panfrost_jobs.c drives it).
 * The job is the same 64-byte slot for both (tests/guest/mali_jobs.h),
 * rewritten before each submit so the GPU always finds it NOT_STARTED, and
 * checked DONE after each wait. No BO is named in either submit: the job's
 * BO stays mapped while the file holds it, and naming it would add
 * implicit-fence work to one side only.
 */
#ifndef SLEIPNIR_BENCH_NULL_JOB_H
#define SLEIPNIR_BENCH_NULL_JOB_H

#include <stdint.h>

#include "sl_drm.h"

enum null_job_driver { NULL_JOB_SLEIPNIR, NULL_JOB_PANFROST };

/* One driver's way to run the job. */
struct null_job_path {
	const char *name;            /* the JSON "path" */
	enum null_job_driver driver;
	void *job;                   /* CPU view of the job slot */
	/* sleipnir */
	struct sl_drm *dev;
	struct sl_bo *bo;
	/* panfrost */
	int fd;
	uint32_t handle;
	uint64_t va;
	/* both */
	uint32_t sync;
};

/* Opens the driver's render node and sets the job up: 0 or -errno (then
 * null_job_close() still frees what was made). */
int null_job_open(struct null_job_path *p, enum null_job_driver driver);
void null_job_close(struct null_job_path *p);
/* One submit+wait of a fresh NULL job: its time in ns, or 0 on failure
 * (with a message on stderr). */
uint64_t null_job_timed_run(struct null_job_path *p);

#endif
