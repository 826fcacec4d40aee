/* SPDX-License-Identifier: MIT */
/*
 * DRM_IOCTL_SLEIPNIR_SUBMIT, as sleipnir.ko's sleipnir_submit.c: every
 * argument, user array, handle and syncobj is checked, in the kernel's
 * order and with its errnos, before anything is queued; then the job waits
 * for its in-syncs and for the jobs using its BOs (implicit fences, see
 * sim_resv.c), is queued on its slot, and its fence goes to the BOs and
 * the out-syncs.
 *
 * User arrays are read with process_vm_readv() on the process itself, so
 * an address that is not mapped gives -EFAULT, as sim_copy_from_user() does,
 * instead of a crash.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drm/sleipnir_drm.h"
#include "sim.h"
#include "sim_sched_priv.h"
#include "sleipnir_common.h"

/* check_zeroed_user(): 1 if all zero, 0 if not, -EFAULT. */
static int user_zeroed(uint64_t src, uint64_t len)
{
	uint8_t buf[256];

	while (len) {
		size_t n = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		int ret = sim_copy_from_user(buf, src, n);

		if (ret)
			return ret;
		for (size_t i = 0; i < n; i++)
			if (buf[i])
				return 0;
		src += n;
		len -= n;
	}
	return 1;
}

/*
 * A user array into a new array of elem_size elements, as the kernel's
 * sleipnir_copy_array() (copy_struct_from_user() per element): shorter
 * elements are zero-extended, longer ones must end in zeros.
 */
static int copy_array(const struct drm_sleipnir_obj_array *arr,
		      size_t elem_size, void **out)
{
	uint8_t *buf;
	int ret;

	*out = NULL;
	ret = sleipnir_check_obj_array(arr);
	if (ret || !arr->count)
		return ret;
	buf = calloc(arr->count, elem_size);
	if (!buf)
		return -ENOMEM;
	for (uint32_t i = 0; i < arr->count; i++) {
		uint64_t src = arr->array + (uint64_t)i * arr->stride;
		size_t n = arr->stride < elem_size ? arr->stride : elem_size;
		int ret = sim_copy_from_user(buf + i * elem_size, src, n);

		if (!ret && arr->stride > elem_size) {
			ret = user_zeroed(src + elem_size,
					  arr->stride - elem_size);
			if (ret == 0)
				ret = -EINVAL; /* the kernel's -E2BIG */
			else if (ret == 1)
				ret = 0;
		}
		if (ret) {
			free(buf);
			return ret;
		}
	}
	*out = buf;
	return 0;
}

static int lookup_bos(struct sim_file *file,
		      const struct drm_sleipnir_bo_ref *refs, uint32_t count,
		      struct sim_job *job)
{
	int ret = sleipnir_check_bo_refs(refs, count);

	if (ret || !count)
		return ret;
	job->bos = calloc(count, sizeof(*job->bos));
	if (!job->bos)
		return -ENOMEM;
	for (uint32_t i = 0; i < count; i++) {
		job->bos[i] = sim_bo_lookup(file, refs[i].handle);
		if (!job->bos[i])
			return -ENOENT;
		job->bo_count++;
	}
	return 0;
}

static int compare_ptrs(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a;
	uintptr_t y = (uintptr_t)*(void *const *)b;

	return x < y ? -1 : x > y;
}

/* The same BO twice (the kernel's reservation locking says -EALREADY). */
static int check_duplicates(const struct sim_job *job)
{
	struct sim_bo **sorted;
	int ret = 0;

	if (job->bo_count < 2)
		return 0;
	sorted = malloc(job->bo_count * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, job->bos, job->bo_count * sizeof(*sorted));
	qsort(sorted, job->bo_count, sizeof(*sorted), compare_ptrs);
	for (uint32_t i = 1; i < job->bo_count; i++)
		if (sorted[i] == sorted[i - 1])
			ret = -EINVAL;
	free(sorted);
	return ret;
}

/* The fences the job waits for: in-syncs, then the BOs' implicit ones. */
struct deps {
	struct sim_fence **fences;
	unsigned int count, cap;
};

static int deps_add(void *data, struct sim_fence *fence)
{
	struct deps *d = data;

	if (d->count == d->cap) {
		unsigned int cap = d->cap ? 2 * d->cap : 16;
		struct sim_fence **f = realloc(d->fences, cap * sizeof(*f));

		if (!f)
			return -ENOMEM;
		d->fences = f;
		d->cap = cap;
	}
	d->fences[d->count++] = sim_fence_get(fence);
	return 0;
}

static void deps_free(struct deps *d)
{
	for (unsigned int i = 0; i < d->count; i++)
		sim_fence_put(d->fences[i]);
	free(d->fences);
	memset(d, 0, sizeof(*d));
}

static int add_in_syncs(struct sim_file *file,
			const struct drm_sleipnir_sync_op *ops, uint32_t count,
			struct deps *d)
{
	for (uint32_t i = 0; i < count; i++) {
		struct sim_fence *fence;
		int ret = sim_syncobj_find_fence(file->syncobjs, ops[i].handle,
						 ops[i].point, &fence);

		if (ret)
			return ret;
		ret = deps_add(d, fence);
		sim_fence_put(fence);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Queues the job and publishes its fence; the reading of the BOs' fences
 * and the adding of the job's are one step under submit_lock.
 */
static int job_publish(struct sim_job *job,
		       const struct drm_sleipnir_bo_ref *refs,
		       struct sim_file *file,
		       const struct drm_sleipnir_sync_op *outs,
		       uint32_t out_count, struct deps *d)
{
	struct sim_sched *sched = job->sched;
	int ret = 0;

	pthread_mutex_lock(&sched->submit_lock);
	job->fence = sim_fence_new_on(job->fj->fence_context + job->js,
				      ++job->fj->fence_seqno[job->js]);
	if (!job->fence)
		ret = -ENOMEM;
	for (uint32_t i = 0; i < job->bo_count && !ret; i++)
		ret = sim_bo_fences_each(sim_bo_fences(job->bos[i]),
					 refs[i].flags & SLEIPNIR_BO_REF_WRITE,
					 deps_add, d);
	if (!ret) {
		/* The references of d's fences go to the scheduler. */
		ret = sim_sched_push_job(job, d->fences, d->count);
		free(d->fences);
		memset(d, 0, sizeof(*d));
	}
	if (ret) {
		pthread_mutex_unlock(&sched->submit_lock);
		return ret;
	}
	for (uint32_t i = 0; i < job->bo_count; i++)
		if (sim_bo_fences_add(sim_bo_fences(job->bos[i]), job->fence,
				      refs[i].flags & SLEIPNIR_BO_REF_WRITE))
			sim_klog("SUBMIT: out of memory for a BO's fence; later jobs will not wait for this one");
	pthread_mutex_unlock(&sched->submit_lock);
	__atomic_add_fetch(&sched->counters.jobs_submitted, 1,
			   __ATOMIC_RELAXED);

	/* Checked to exist; one destroyed since is no one's loss. */
	for (uint32_t i = 0; i < out_count; i++)
		sim_syncobj_replace_fence(file->syncobjs, outs[i].handle,
					  outs[i].point, job->fence);
	return 0;
}

int sim_ioctl_submit(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_submit *args = arg;
	struct sim_file_jobs *fj = file->jobs;
	struct sim_sched *sched = fj->sched;
	struct drm_sleipnir_sync_op *ins = NULL, *outs = NULL;
	struct drm_sleipnir_bo_ref *refs = NULL;
	struct deps d = { 0 };
	struct sim_job *job = NULL;
	unsigned int generation;
	uint32_t timeout_ms;
	bool faulted;
	int js, ret;

	ret = sleipnir_check_submit(args);
	if (ret)
		return ret;
	js = sim_sched_pick_slot(sched, args->requirements);
	if (js < 0)
		return js;
	/* Generation first: a fault after this cancels the job. */
	pthread_mutex_lock(&sched->lock);
	generation = fj->faults.generation;
	faulted = fj->faults.count > 0;
	pthread_mutex_unlock(&sched->lock);
	if (faulted)
		return -ECANCELED;

	ret = copy_array(&args->in_syncs, sizeof(*ins), (void **)&ins);
	if (!ret)
		ret = copy_array(&args->out_syncs, sizeof(*outs),
				 (void **)&outs);
	if (!ret)
		ret = copy_array(&args->bos, sizeof(*refs), (void **)&refs);
	if (!ret)
		ret = sleipnir_check_sync_ops(ins, args->in_syncs.count);
	if (!ret)
		ret = sleipnir_check_sync_ops(outs, args->out_syncs.count);
	if (ret)
		goto out;

	timeout_ms = sleipnir_job_timeout_ms(args->timeout_ms,
					     sim_sched_max_job_timeout_ms(sched));

	job = calloc(1, sizeof(*job));
	if (!job) {
		ret = -ENOMEM;
		goto out;
	}
	job->refs = 1;
	job->sched = sched;
	/* As the kernel: from here until the job is freed. */
	__atomic_add_fetch(&sched->counters.jobs_in_flight, 1,
			   __ATOMIC_RELAXED);
	job->fj = sim_file_jobs_get(fj);
	job->jc = args->jc;
	job->js = (unsigned int)js;
	job->timeout_ms = timeout_ms;
	job->fault_generation = generation;
	job->as_nr = -1;

	ret = lookup_bos(file, refs, args->bos.count, job);
	if (ret)
		goto out;
	for (uint32_t i = 0; i < args->out_syncs.count; i++) {
		if (!sim_syncobj_exists(file->syncobjs, outs[i].handle)) {
			ret = -ENODEV;
			goto out;
		}
	}
	ret = add_in_syncs(file, ins, args->in_syncs.count, &d);
	if (ret)
		goto out;
	ret = check_duplicates(job);
	if (ret)
		goto out;
	ret = job_publish(job, refs, file, outs, args->out_syncs.count, &d);
out:
	deps_free(&d);
	sim_job_put(job);
	free(refs);
	free(outs);
	free(ins);
	return ret;
}
