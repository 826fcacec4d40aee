/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: the kernel interfaces that differ between the kernels the driver
 * builds against, in one place. The driver calls these wrappers and macros
 * instead of the kernel's own functions, and no other file tests the kernel
 * version.
 *
 * The two kernels are Debian bookworm's: 6.1 (6.1.192) and 6.12 (6.12.117,
 * from bookworm-security). Both carry stable backports of newer DRM
 * interfaces: this 6.1 already has drm_sched_init() with
 * struct drm_sched_init_args and platform_driver.remove_new, this 6.12 has
 * drm_sched_job_init() with credits and a client id and drm_sched_start()
 * with no second argument. The forms below are those of these two kernels,
 * picked by series; earlier point releases of either may differ.
 */
#ifndef __SLEIPNIR_COMPAT_H__
#define __SLEIPNIR_COMPAT_H__

#include <linux/kthread.h>
#include <linux/seq_file.h>
#include <linux/version.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <drm/gpu_scheduler.h>

/* True when building against the 6.12 series (or later). */
#define SLEIPNIR_KERNEL_6_12 (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))

/* ---- drm_sched ---- */

/*
 * Creates a scheduler. 6.12's schedulers have as many run queues as the
 * caller asks for (num_rqs: one per priority, as 6.1 always has) and run
 * their jobs from a workqueue drm_sched allocates when given none; 6.1's
 * have a fixed array of run queues and a kthread.
 */
static inline int
sleipnir_compat_sched_init(struct drm_gpu_scheduler *sched,
			   struct drm_sched_init_args *args)
{
#if SLEIPNIR_KERNEL_6_12
	args->num_rqs = DRM_SCHED_PRIORITY_COUNT;
#endif
	return drm_sched_init(sched, args);
}

/*
 * Initialises a job taking one of its scheduler's credits (the driver runs
 * one chain per slot: credit_limit 1). 6.12 takes the credits and the DRM
 * file's client id (for tracing) as arguments; 6.1 counts each job as one.
 */
static inline int
sleipnir_compat_sched_job_init(struct drm_sched_job *job,
			       struct drm_sched_entity *entity, void *owner,
			       struct drm_file *file)
{
#if SLEIPNIR_KERNEL_6_12
	return drm_sched_job_init(job, entity, 1, owner, file->client_id);
#else
	return drm_sched_job_init(job, entity, owner);
#endif
}

/*
 * Restarts a scheduler stopped by drm_sched_stop(), re-arming the fences
 * and the timeout of the jobs it still holds. 6.1 does that only when
 * asked (full recovery); 6.12 always does.
 */
static inline void sleipnir_compat_sched_start(struct drm_gpu_scheduler *sched)
{
#if SLEIPNIR_KERNEL_6_12
	drm_sched_start(sched);
#else
	drm_sched_start(sched, true);
#endif
}

/*
 * Stops a scheduler from starting jobs, waiting for the one it may be
 * starting, without touching its jobs (system suspend). 6.1 parks the
 * scheduler's kthread; 6.12 has no kthread and stops its workqueue items.
 */
static inline void sleipnir_compat_sched_pause(struct drm_gpu_scheduler *sched)
{
#if SLEIPNIR_KERNEL_6_12
	drm_sched_wqueue_stop(sched);
#else
	kthread_park(sched->thread);
#endif
}

static inline void
sleipnir_compat_sched_unpause(struct drm_gpu_scheduler *sched)
{
#if SLEIPNIR_KERNEL_6_12
	drm_sched_wqueue_start(sched);
#else
	kthread_unpark(sched->thread);
#endif
}

/* ---- fdinfo ---- */

/*
 * The driver's fdinfo lines (sleipnir_drv.c), for a DRM printer.
 *
 * 6.12's DRM core prints drm-driver and drm-client-id itself
 * (drm_show_fdinfo(), with its own client ids) and then calls
 * drm_driver.show_fdinfo; it also sums up the file's GEM objects
 * (drm_show_memory_stats()). 6.1 leaves all of it to the driver's
 * file_operations.show_fdinfo, which gets a seq_file.
 */
void sleipnir_show_fdinfo(struct drm_printer *p, struct drm_file *file);

/* The lines the 6.12 core prints, printed by the driver on 6.1. */
static inline void sleipnir_compat_fdinfo_ids(struct drm_printer *p,
					      struct drm_file *file,
					      u64 client_id)
{
#if !SLEIPNIR_KERNEL_6_12
	drm_printf(p, "drm-driver:\t%s\n", file->minor->dev->driver->name);
	drm_printf(p, "drm-client-id:\t%llu\n", client_id);
#endif
}

/* drm-total-memory, drm-shared-memory... of the file's GEM objects. */
static inline void sleipnir_compat_fdinfo_memory(struct drm_printer *p,
						 struct drm_file *file)
{
#if SLEIPNIR_KERNEL_6_12
	drm_show_memory_stats(p, file);
#endif
}

#if SLEIPNIR_KERNEL_6_12
#define SLEIPNIR_COMPAT_FOPS_SHOW_FDINFO	.show_fdinfo = drm_show_fdinfo
#else
static inline void sleipnir_compat_seq_show_fdinfo(struct seq_file *m,
						   struct file *f)
{
	struct drm_printer p = drm_seq_file_printer(m);

	sleipnir_show_fdinfo(&p, f->private_data);
}

#define SLEIPNIR_COMPAT_FOPS_SHOW_FDINFO \
	.show_fdinfo = sleipnir_compat_seq_show_fdinfo
#endif

/*
 * The struct drm_driver members whose presence depends on the kernel:
 * 6.12 calls the driver's fdinfo hook from drm_show_fdinfo(); 6.1 maps
 * PRIME buffers through drm_driver.gem_prime_mmap, which 6.12 no longer
 * has (it calls drm_gem_prime_mmap() itself).
 */
#if SLEIPNIR_KERNEL_6_12
#define SLEIPNIR_COMPAT_DRM_DRIVER_OPS	.show_fdinfo = sleipnir_show_fdinfo
#else
#define SLEIPNIR_COMPAT_DRM_DRIVER_OPS	.gem_prime_mmap = drm_gem_prime_mmap
#endif

/* ---- platform driver ---- */

/*
 * The remove hook that returns nothing: platform_driver.remove from 6.11
 * on; Debian's 6.1 has it as .remove_new (its .remove returns an int).
 */
#if SLEIPNIR_KERNEL_6_12
#define SLEIPNIR_COMPAT_PLATFORM_REMOVE(fn)	.remove = (fn)
#else
#define SLEIPNIR_COMPAT_PLATFORM_REMOVE(fn)	.remove_new = (fn)
#endif

#endif /* __SLEIPNIR_COMPAT_H__ */
