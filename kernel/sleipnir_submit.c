// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: DRM_IOCTL_SLEIPNIR_SUBMIT and the lifetime of a job.
 *
 * SUBMIT validates everything that can fail before anything is queued: the
 * arguments, the user arrays (BO references, in- and out-syncs), the BO and
 * syncobj handles and the job slot. Then it initialises a drm_sched job,
 * adds the in-syncs and the BOs' implicit fences as its dependencies, arms
 * and queues it, adds its fence to the BOs' reservation objects and to the
 * out-syncs, and returns. The scheduler side (running the chain, completion,
 * timeouts) is in sleipnir_sched.c.
 */
#include <linux/dma-fence-chain.h>
#include <linux/dma-resv.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_syncobj.h>
#include <drm/sleipnir_drm.h>

#include "sleipnir_compat.h"
#include "sleipnir_device.h"
#include "sleipnir_drv.h"
#include "sleipnir_fault.h"
#include "sleipnir_job.h"
#include "sleipnir_mmu.h"
#include "sleipnir_rules.h"
#include "sleipnir_submit.h"

/* ---- job lifetime ---- */

static void sleipnir_job_release(struct kref *kref)
{
	struct sleipnir_job *job = container_of(kref, struct sleipnir_job,
						refcount);
	u32 i;

	for (i = 0; i < job->bo_count; i++)
		drm_gem_object_put(job->bos[i]);
	kvfree(job->bos);
	dma_fence_put(job->done_fence);
	sleipnir_vm_put(job->vm);
	atomic_dec(&job->sdev->counters.jobs_in_flight);
	kfree(job);
}

void sleipnir_job_put(struct sleipnir_job *job)
{
	kref_put(&job->refcount, sleipnir_job_release);
}

/* ---- SUBMIT ---- */

/*
 * Copies a user array into a new kernel array of @elem_size elements.
 * Shorter user elements are zero-extended; longer ones must end in zeros.
 */
static int sleipnir_copy_array(const struct drm_sleipnir_obj_array *arr,
			       size_t elem_size, void **out)
{
	u8 *buf;
	u32 i;
	int ret;

	*out = NULL;
	ret = sleipnir_check_obj_array(arr);
	if (ret || !arr->count)
		return ret;

	buf = kvmalloc_array(arr->count, elem_size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	for (i = 0; i < arr->count; i++) {
		ret = copy_struct_from_user(buf + i * elem_size, elem_size,
					    u64_to_user_ptr(arr->array +
							    (u64)i * arr->stride),
					    arr->stride);
		if (ret) {
			kvfree(buf);
			return ret == -E2BIG ? -EINVAL : ret;
		}
	}

	*out = buf;
	return 0;
}

/* What an out-sync needs, found before anything is queued. */
struct sleipnir_out_sync {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
	u64 point;
};

static void sleipnir_out_syncs_free(struct sleipnir_out_sync *outs, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++) {
		if (outs[i].syncobj)
			drm_syncobj_put(outs[i].syncobj);
		dma_fence_chain_free(outs[i].chain);
	}
	kvfree(outs);
}

static int sleipnir_out_syncs_get(struct drm_file *file,
				  const struct drm_sleipnir_sync_op *ops,
				  u32 count, struct sleipnir_out_sync **out)
{
	struct sleipnir_out_sync *outs;
	u32 i;

	*out = NULL;
	if (!count)
		return 0;

	outs = kvcalloc(count, sizeof(*outs), GFP_KERNEL);
	if (!outs)
		return -ENOMEM;

	for (i = 0; i < count; i++) {
		outs[i].syncobj = drm_syncobj_find(file, ops[i].handle);
		if (!outs[i].syncobj) {
			sleipnir_out_syncs_free(outs, count);
			return -ENODEV;
		}
		outs[i].point = ops[i].point;
		if (ops[i].point) {
			outs[i].chain = dma_fence_chain_alloc();
			if (!outs[i].chain) {
				sleipnir_out_syncs_free(outs, count);
				return -ENOMEM;
			}
		}
	}

	*out = outs;
	return 0;
}

static int sleipnir_lookup_bos(struct drm_file *file,
			       const struct drm_sleipnir_bo_ref *refs,
			       u32 count, struct sleipnir_job *job)
{
	u32 i;
	int ret;

	ret = sleipnir_check_bo_refs(refs, count);
	if (ret)
		return ret;

	job->bos = kvcalloc(count, sizeof(*job->bos), GFP_KERNEL);
	if (count && !job->bos)
		return -ENOMEM;

	for (i = 0; i < count; i++) {
		job->bos[i] = drm_gem_object_lookup(file, refs[i].handle);
		if (!job->bos[i])
			return -ENOENT;
		job->bo_count++;
	}
	return 0;
}

static int sleipnir_add_in_syncs(struct drm_file *file,
				 struct sleipnir_job *job,
				 const struct drm_sleipnir_sync_op *ops,
				 u32 count)
{
	struct dma_fence *fence;
	u32 i;
	int ret;

	for (i = 0; i < count; i++) {
		ret = drm_syncobj_find_fence(file, ops[i].handle, ops[i].point,
					     0, &fence);
		if (ret)
			return ret;
		ret = drm_sched_job_add_dependency(&job->base, fence);
		if (ret)
			return ret;
	}
	return 0;
}

/* Queues the armed job and publishes its fence; cannot fail. */
static void sleipnir_job_publish(struct sleipnir_file *sfile,
				 struct sleipnir_job *job,
				 const struct drm_sleipnir_bo_ref *refs,
				 struct sleipnir_out_sync *outs, u32 out_count,
				 struct ww_acquire_ctx *ctx)
{
	struct sleipnir_device *sdev = sfile->sdev;
	struct dma_fence *finished;
	u32 i;

	mutex_lock(&sdev->submit_lock);
	drm_sched_job_arm(&job->base);
	finished = dma_fence_get(&job->base.s_fence->finished);
	kref_get(&job->refcount);	/* the scheduler's, see free_job */
	drm_sched_entity_push_job(&job->base);
	mutex_unlock(&sdev->submit_lock);

	for (i = 0; i < job->bo_count; i++)
		dma_resv_add_fence(job->bos[i]->resv, finished,
				   refs[i].flags & SLEIPNIR_BO_REF_WRITE ?
				   DMA_RESV_USAGE_WRITE : DMA_RESV_USAGE_READ);
	drm_gem_unlock_reservations(job->bos, job->bo_count, ctx);

	for (i = 0; i < out_count; i++) {
		if (outs[i].chain) {
			drm_syncobj_add_point(outs[i].syncobj, outs[i].chain,
					      finished, outs[i].point);
			outs[i].chain = NULL;
		} else {
			drm_syncobj_replace_fence(outs[i].syncobj, finished);
		}
	}

	atomic64_inc(&sdev->counters.jobs_submitted);
	dma_fence_put(finished);
}

int sleipnir_ioctl_submit(struct drm_device *ddev, void *data,
			  struct drm_file *file)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	struct sleipnir_file *sfile = file->driver_priv;
	struct drm_sleipnir_submit *args = data;
	struct drm_sleipnir_sync_op *ins = NULL, *out_ops = NULL;
	struct drm_sleipnir_bo_ref *refs = NULL;
	struct sleipnir_out_sync *outs = NULL;
	struct ww_acquire_ctx ctx;
	struct sleipnir_job *job;
	int js, ret, fault_generation;
	u32 timeout_ms, i;

	ret = sleipnir_check_submit(args);
	if (ret)
		return ret;
	js = sleipnir_pick_slot(sdev->features.js_features, sdev->js_count,
				args->requirements);
	if (js < 0)
		return js;
	/* Generation first: a fault after this cancels the job in run_job. */
	fault_generation = atomic_read(&sfile->vm->faults.generation);
	if (sleipnir_fault_pending(&sfile->vm->faults))
		return -ECANCELED;

	ret = sleipnir_copy_array(&args->in_syncs, sizeof(*ins), (void **)&ins);
	if (ret)
		goto out_free;
	ret = sleipnir_copy_array(&args->out_syncs, sizeof(*out_ops),
				  (void **)&out_ops);
	if (ret)
		goto out_free;
	ret = sleipnir_copy_array(&args->bos, sizeof(*refs), (void **)&refs);
	if (ret)
		goto out_free;
	ret = sleipnir_check_sync_ops(ins, args->in_syncs.count);
	if (ret)
		goto out_free;
	ret = sleipnir_check_sync_ops(out_ops, args->out_syncs.count);
	if (ret)
		goto out_free;

	timeout_ms = sleipnir_job_timeout_ms(args->timeout_ms,
					     READ_ONCE(sleipnir_max_job_timeout_ms));

	job = kzalloc(sizeof(*job), GFP_KERNEL);
	if (!job) {
		ret = -ENOMEM;
		goto out_free;
	}
	kref_init(&job->refcount);
	atomic_inc(&sdev->counters.jobs_in_flight);
	job->sdev = sdev;
	job->vm = sleipnir_vm_get(sfile->vm);
	job->jc = args->jc;
	job->js = js;
	job->timeout_ms = timeout_ms;
	job->fault_generation = fault_generation;

	ret = sleipnir_lookup_bos(file, refs, args->bos.count, job);
	if (ret)
		goto out_put_job;
	ret = sleipnir_out_syncs_get(file, out_ops, args->out_syncs.count,
				     &outs);
	if (ret)
		goto out_put_job;

	ret = sleipnir_compat_sched_job_init(&job->base, &sfile->entities[js],
					     sfile, file);
	if (ret)
		goto out_put_job;

	ret = sleipnir_add_in_syncs(file, job, ins, args->in_syncs.count);
	if (ret)
		goto out_cleanup_job;

	ret = drm_gem_lock_reservations(job->bos, job->bo_count, &ctx);
	if (ret) {
		/* The same BO twice in the list. */
		if (ret == -EALREADY)
			ret = -EINVAL;
		goto out_cleanup_job;
	}
	for (i = 0; i < job->bo_count; i++) {
		ret = dma_resv_reserve_fences(job->bos[i]->resv, 1);
		if (ret)
			goto out_unlock;
		ret = drm_sched_job_add_implicit_dependencies(&job->base,
							      job->bos[i],
							      refs[i].flags &
							      SLEIPNIR_BO_REF_WRITE);
		if (ret)
			goto out_unlock;
	}

	sleipnir_job_publish(sfile, job, refs, outs, args->out_syncs.count,
			     &ctx);
	sleipnir_job_put(job);
	goto out_free;

out_unlock:
	drm_gem_unlock_reservations(job->bos, job->bo_count, &ctx);
out_cleanup_job:
	drm_sched_job_cleanup(&job->base);
out_put_job:
	sleipnir_job_put(job);
out_free:
	if (outs)
		sleipnir_out_syncs_free(outs, args->out_syncs.count);
	kvfree(refs);
	kvfree(out_ops);
	kvfree(ins);
	return ret;
}

