/* SPDX-License-Identifier: MIT */
/*
 * Fixtures of the guest programs that test sleipnir.ko (sleipnir_uapi,
 * sleipnir_stress, sleipnir_ioctl_fuzz), on top of userspace/drm (sl_drm.h):
 * a BO ready for a job (CPU- and GPU-mapped), syncobj and fence waits that
 * say what went wrong, and the known-good job every suite runs to see the
 * driver still works. Errors are sl_drm's: 0 or a negative errno; every
 * failure is printed, and every wait has a timeout.
 */
#ifndef SLEIPNIR_FIXTURE_H
#define SLEIPNIR_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "le.h"
#include "mali_jobs.h"
#include "sl_drm.h"

/*
 * Opens path, or without one the first render node driven by sleipnir
 * 0.2 or later: a file of its own each time. NULL on failure (printed).
 */
struct sl_drm *device_open(const char *path);

/* The driver's version (drmGetVersion); false when it cannot be read. */
bool device_version(struct sl_drm *dev, int *major, int *minor);

/* Longest the tests wait for one job or a short pipeline to finish. */
#define SL_WAIT_TIMEOUT_MS 10000u

/* Patterns: FILL64 is overwritten by the GPU, GUARD64 must never be. */
#define FILL64 0xffffffffffffffffull
#define GUARD64 0xa5a5a5a5a5a5a5a5ull

/*
 * Creates a BO, maps it for the CPU (unless SLEIPNIR_BO_NO_CPU_MAP) and
 * into the GPU VM with map_flags, at va or (va 0) where the kernel picks.
 * On error nothing is left behind and *out is NULL.
 */
int bo_new(struct sl_drm *dev, uint64_t size, uint32_t bo_flags,
	   uint32_t map_flags, uint64_t va, struct sl_bo **out);

/* sl_bo_destroy(), and *bo forgotten: freeing twice is harmless. */
static inline void bo_free(struct sl_bo **bo)
{
	sl_bo_destroy(*bo);
	*bo = NULL;
}

static inline uint8_t *bo_cpu(const struct sl_bo *bo, uint64_t off)
{
	return (uint8_t *)bo->map + off;
}

static inline uint64_t bo_gpu(const struct sl_bo *bo, uint64_t off)
{
	return bo->va + off;
}

static inline void bo_put64(struct sl_bo *bo, uint64_t off, uint64_t v)
{
	le_put64(bo_cpu(bo, off), v);
}

static inline uint64_t bo_get64(const struct sl_bo *bo, uint64_t off)
{
	return le_get64(bo_cpu(bo, off));
}

/* A new binary syncobj (signalled or not); 0 on failure (printed). */
uint32_t syncobj_new(struct sl_drm *dev, bool signalled);

/* "signalled", "pending" or the error of sl_syncobj_status()'s status. */
const char *fence_status_name(int status);

/*
 * The status of the fence in a binary syncobj (see sl_syncobj_status):
 * 1 signalled without error, 0 still running, negative the error.
 * FENCE_STATUS_NONE when it could not be read (printed).
 */
#define FENCE_STATUS_NONE 1000
int fence_status(struct sl_drm *dev, uint32_t syncobj);
/* Waits up to timeout_ms for the syncobj, then returns fence_status(). */
int wait_fence_status(struct sl_drm *dev, uint32_t syncobj,
		      unsigned int timeout_ms);

/*
 * Runs WRITE_VALUE(zero) -> NULL on dev with the given requirements (a
 * chain in one BO, writing into the same BO), and checks that the fence
 * is good, both headers read DONE and the zero landed next to an untouched
 * guard. what names the situation in messages (NULL: print nothing unless
 * a check fails). Returns true when all of that held.
 */
bool check_good_job(struct sl_drm *dev, uint32_t requirements,
		    const char *what);

#endif
