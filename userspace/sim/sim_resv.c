/* SPDX-License-Identifier: MIT */
/*
 * Implicit synchronisation through BOs, as the kernel's dma_resv: each BO
 * remembers the fence of the last job that wrote it and those of the jobs
 * that read it since; a job that reads the BO waits for the writer, one
 * that writes it for the writer and every reader (SUBMIT's
 * SLEIPNIR_BO_REF_WRITE). And DRM_IOCTL_SLEIPNIR_BO_WAIT, which waits for
 * all of them.
 *
 * dma_resv keeps every fence it was given until it signals; a new writer
 * here replaces the old writer and drops the readers instead. That gives
 * the same waits: the new writer's job waited for all of them before it
 * ran, so once its fence has signalled theirs have too.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "drm/sleipnir_drm.h"
#include "sim.h"
#include "sim_sched_priv.h"

struct sim_bo_fences {
	pthread_mutex_t lock;
	struct sim_fence *writer;    /* NULL: none */
	struct sim_fence **readers;
	unsigned int num_readers, cap_readers;
};

struct sim_bo_fences *sim_bo_fences_new(void)
{
	struct sim_bo_fences *f = calloc(1, sizeof(*f));

	if (f)
		pthread_mutex_init(&f->lock, NULL);
	return f;
}

void sim_bo_fences_free(struct sim_bo_fences *f)
{
	if (!f)
		return;
	sim_fence_put(f->writer);
	for (unsigned int i = 0; i < f->num_readers; i++)
		sim_fence_put(f->readers[i]);
	free(f->readers);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

/* Drops the readers that have signalled: nobody needs to wait for them. */
static void prune_readers(struct sim_bo_fences *f)
{
	unsigned int kept = 0;

	for (unsigned int i = 0; i < f->num_readers; i++) {
		if (sim_fence_status(f->readers[i]) != 0)
			sim_fence_put(f->readers[i]);
		else
			f->readers[kept++] = f->readers[i];
	}
	f->num_readers = kept;
}

int sim_bo_fences_add(struct sim_bo_fences *f, struct sim_fence *fence,
		      bool write)
{
	int ret = 0;

	pthread_mutex_lock(&f->lock);
	if (write) {
		sim_fence_put(f->writer);
		f->writer = sim_fence_get(fence);
		for (unsigned int i = 0; i < f->num_readers; i++)
			sim_fence_put(f->readers[i]);
		f->num_readers = 0;
		goto out;
	}
	prune_readers(f);
	if (f->num_readers == f->cap_readers) {
		unsigned int cap = f->cap_readers ? 2 * f->cap_readers : 4;
		struct sim_fence **r = realloc(f->readers, cap * sizeof(*r));

		if (!r) {
			ret = -ENOMEM;
			goto out;
		}
		f->readers = r;
		f->cap_readers = cap;
	}
	f->readers[f->num_readers++] = sim_fence_get(fence);
out:
	pthread_mutex_unlock(&f->lock);
	return ret;
}

/*
 * The fences are called with references of their own taken under the lock
 * and dropped after, so fn may wait on them, or add fences to this BO.
 */
int sim_bo_fences_each(struct sim_bo_fences *f, bool write,
		       int (*fn)(void *data, struct sim_fence *fence),
		       void *data)
{
	struct sim_fence **list;
	unsigned int n = 0;
	int ret = 0;

	pthread_mutex_lock(&f->lock);
	list = calloc(1 + (write ? f->num_readers : 0), sizeof(*list));
	if (!list) {
		pthread_mutex_unlock(&f->lock);
		return -ENOMEM;
	}
	if (f->writer)
		list[n++] = sim_fence_get(f->writer);
	if (write)
		for (unsigned int i = 0; i < f->num_readers; i++)
			list[n++] = sim_fence_get(f->readers[i]);
	pthread_mutex_unlock(&f->lock);

	for (unsigned int i = 0; i < n; i++) {
		if (!ret)
			ret = fn(data, list[i]);
		sim_fence_put(list[i]);
	}
	free(list);
	return ret;
}

/* --- DRM_IOCTL_SLEIPNIR_BO_WAIT ------------------------------------------ */

struct bo_wait {
	int64_t deadline_ns;
	bool poll;                   /* the deadline has passed: only test */
};

static int bo_wait_one(void *data, struct sim_fence *fence)
{
	struct bo_wait *w = data;

	if (w->poll)
		return sim_fence_status(fence) ? 0 : -ETIMEDOUT;
	return sim_fence_wait(fence, w->deadline_ns) ? -ETIMEDOUT : 0;
}

/*
 * As the kernel: a deadline that has passed only tests (dma_resv's
 * test_signaled; a wait of zero cannot tell idle from timed out), a later
 * one waits for every fence, readers too, and -ETIMEDOUT when one is
 * still busy at the deadline.
 */
int sim_ioctl_bo_wait(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_bo_wait *args = arg;
	struct bo_wait w = { .deadline_ns = args->timeout_ns };
	struct sim_bo *bo;
	int ret;

	ret = sleipnir_check_bo_wait(args);
	if (ret)
		return ret;
	bo = sim_bo_lookup(file, args->handle);
	if (!bo)
		return -ENOENT;
	w.poll = args->timeout_ns <= sim_now_ns();
	ret = sim_bo_fences_each(sim_bo_fences(bo), true, bo_wait_one, &w);
	sim_bo_put(bo);
	return ret;
}
