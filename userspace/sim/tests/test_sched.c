/* SPDX-License-Identifier: MIT */
/*
 * The simulator's scheduler where the uapi suite does not look:
 *  - SUBMIT from many threads at once, on files of their own and on one
 *    shared file, chains alternating between two job slots and ordered
 *    only by their BO's implicit write fence: every fence ends good, and
 *    the GPU timestamps each chain writes follow SUBMIT order;
 *  - a file closed while its job still waits for an in-sync: close does
 *    not wait for it, the job ends -ECANCELED once the in-sync signals,
 *    and it never ran (its target, user memory, is untouched).
 * The references are the uapi header's rules and the GPU's own clock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include "drm/sleipnir_drm.h"
#include "mali_jobs.h"
#include "sim_test.h"
#include "sl_drm.h"

#define WAIT_MS 10000u
/* Slot 0 (NULL, WRITE_VALUE) and slot 1 (also COMPUTE). */
#define REQ_SLOT0 (SLEIPNIR_REQ_NULL | SLEIPNIR_REQ_WRITE_VALUE)
#define REQ_SLOT1 (REQ_SLOT0 | SLEIPNIR_REQ_COMPUTE)

#define THREADS 6
#define CHAINS 60

/* A BO mapped for the CPU and at a GPU address of its file's choosing. */
static struct sl_bo *bo_make(struct sl_drm *dev, uint64_t size)
{
	struct sl_bo *bo = NULL;
	void *cpu;

	if (sl_bo_create(dev, size, 0, &bo))
		return NULL;
	if (sl_bo_mmap(bo, &cpu) || sl_vm_map(bo, 0, 0)) {
		sl_bo_destroy(bo);
		return NULL;
	}
	return bo;
}

static int submit_one(struct sl_drm *dev, uint64_t jc, uint32_t req,
		      const struct drm_sleipnir_bo_ref *refs, uint32_t nrefs,
		      uint32_t in_sync, uint32_t out_sync)
{
	struct drm_sleipnir_sync_op in = { .handle = in_sync };
	struct drm_sleipnir_sync_op out = { .handle = out_sync };
	struct sl_submit s = {
		.jc = jc, .bos = refs, .num_bos = nrefs,
		.in_syncs = &in, .num_in_syncs = in_sync ? 1 : 0,
		.out_syncs = &out, .num_out_syncs = out_sync ? 1 : 0,
		.requirements = req,
	};

	return sl_submit(dev, &s);
}

/* --- concurrent SUBMIT ----------------------------------------------------- */

struct worker {
	struct sl_drm *dev;
	pthread_t thread;
	int failures;                /* fences not good, SUBMIT errors */
	bool ordered;                /* the timestamps follow SUBMIT order */
};

/*
 * CHAINS one-job chains, each writing the GPU timestamp into its own word
 * of the worker's data BO, on slots 0 and 1 in turn; each names the data
 * BO as written, so each must wait for the one before it.
 */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct sl_bo *jobs = bo_make(w->dev, CHAINS * MALI_JOB_SLOT_SIZE);
	struct sl_bo *data = bo_make(w->dev, CHAINS * 8);
	uint32_t last = 0;
	uint64_t *ts;

	w->ordered = false;
	if (!jobs || !data) {
		w->failures++;
		goto out;
	}
	ts = data->map;
	memset(ts, 0xff, CHAINS * 8);
	if (sl_syncobj_create(w->dev, false, &last)) {
		w->failures++;
		goto out;
	}
	for (unsigned int i = 0; i < CHAINS; i++) {
		struct drm_sleipnir_bo_ref refs[2] = {
			{ .handle = jobs->handle },
			{ .handle = data->handle,
			  .flags = SLEIPNIR_BO_REF_WRITE },
		};
		uint64_t off = (uint64_t)i * MALI_JOB_SLOT_SIZE;
		int err;

		mali_pack_write_value_job((uint8_t *)jobs->map + off, 1, 0, 0,
					  0, data->va + 8 * i,
					  MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP);
		err = submit_one(w->dev, jobs->va + off,
				 i & 1 ? REQ_SLOT1 : REQ_SLOT0, refs, 2, 0,
				 i + 1 == CHAINS ? last : 0);
		if (err)
			w->failures++;
	}
	if (sl_syncobj_wait(w->dev, &last, 1, true, WAIT_MS) ||
	    sl_bo_wait(data, WAIT_MS)) {
		w->failures++;
		goto out;
	}
	w->ordered = true;
	for (unsigned int i = 0; i < CHAINS; i++) {
		if (ts[i] == UINT64_MAX ||
		    mali_job_exception_status((uint8_t *)jobs->map +
					      i * MALI_JOB_SLOT_SIZE) !=
			    MDG_EXCEPTION_DONE)
			w->failures++;
		if (i && ts[i] < ts[i - 1])
			w->ordered = false;
	}
out:
	if (last)
		sl_syncobj_destroy(w->dev, last);
	if (data)
		sl_bo_destroy(data);
	if (jobs)
		sl_bo_destroy(jobs);
	return NULL;
}

static void test_concurrent_submit(void)
{
	struct worker w[THREADS];
	struct sl_drm *files[THREADS];
	struct sl_drm *shared = NULL;

	memset(w, 0, sizeof(w));
	memset(files, 0, sizeof(files));
	CHECK_EQ(sl_drm_open(&shared), 0);
	for (int i = 0; i < THREADS; i++) {
		/* Half the threads share one file, half have their own. */
		if (i % 2) {
			CHECK_EQ(sl_drm_open(&files[i]), 0);
			w[i].dev = files[i];
		} else {
			w[i].dev = shared;
		}
	}
	for (int i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&w[i].thread, NULL, worker_main,
					&w[i]),
			 0);
	for (int i = 0; i < THREADS; i++) {
		pthread_join(w[i].thread, NULL);
		CHECK_EQ(w[i].failures, 0);
		CHECK(w[i].ordered);
	}
	for (int i = 0; i < THREADS; i++)
		if (files[i])
			sl_drm_close(files[i]);
	if (shared)
		sl_drm_close(shared);
}

/* --- close with a job waiting for its in-sync ------------------------------- */

#define LONG_CHAIN 16000
#define CLOSE_ATTEMPTS 4

/*
 * File F's job J waits for the end of a long chain G of file W (G's
 * out-sync is J's in-sync); F is closed while G runs. Close returns at
 * once; J ends -ECANCELED after G, without running. Returns false when G
 * had already ended at the close (a fast or idle host): the caller tries
 * again with a longer chain, as nothing was proven.
 */
static bool close_pending_dependency(unsigned int chain_jobs)
{
	struct sl_drm *f = NULL, *w = NULL;
	struct sl_bo *jobs = NULL, *target = NULL, *chain = NULL;
	uint32_t g_out = 0, f_in = 0, out = 0, w_out = 0;
	uint64_t *mem;
	int status = 0, fd = -1;
	bool proven = false;

	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED);
	if (mem == MAP_FAILED)
		return true;
	mem[0] = 0x1234;
	CHECK_EQ(sl_drm_open(&f), 0);
	CHECK_EQ(sl_drm_open(&w), 0);
	if (!f || !w)
		goto out;
	chain = bo_make(w, (size_t)chain_jobs * MALI_JOB_SLOT_SIZE);
	jobs = bo_make(f, 4096);
	CHECK(chain && jobs);
	CHECK_EQ(sl_bo_userptr(f, mem, 4096, 0, &target), 0);
	if (!chain || !jobs || !target)
		goto out;
	CHECK_EQ(sl_vm_map(target, 0, 0), 0);

	/* G: chain_jobs jobs zeroing a word of its own BO, on slot 1. */
	for (unsigned int i = 0; i < chain_jobs; i++) {
		uint64_t off = (uint64_t)i * MALI_JOB_SLOT_SIZE;

		mali_pack_write_value_job((uint8_t *)chain->map + off,
					  (uint16_t)(i + 1), 0, 0,
					  i + 1 < chain_jobs ?
					  chain->va + off + MALI_JOB_SLOT_SIZE : 0,
					  chain->va + 8, MDG_WRITE_VALUE_TYPE_ZERO);
	}
	CHECK_EQ(sl_syncobj_create(w, false, &g_out), 0);
	CHECK_EQ(submit_one(w, chain->va, REQ_SLOT1, NULL, 0, 0, g_out), 0);
	CHECK_EQ(drmSyncobjHandleToFD(sl_drm_fd(w), g_out, &fd), 0);
	CHECK_EQ(drmSyncobjFDToHandle(sl_drm_fd(f), fd, &f_in), 0);
	if (fd >= 0)
		close(fd);

	/* J: zeroes the user memory once G is done, on slot 0. */
	CHECK_EQ(sl_syncobj_create(f, false, &out), 0);
	mali_pack_write_value_job(jobs->map, 1, 0, 0, 0, target->va,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	CHECK_EQ(submit_one(f, jobs->va, REQ_SLOT0, NULL, 0, f_in, out), 0);
	fd = -1;
	CHECK_EQ(drmSyncobjHandleToFD(sl_drm_fd(f), out, &fd), 0);
	CHECK_EQ(drmSyncobjFDToHandle(sl_drm_fd(w), fd, &w_out), 0);
	if (fd >= 0)
		close(fd);

	/* F goes (its mappings first: they hold the file). */
	sl_bo_destroy(jobs);
	sl_bo_destroy(target);
	jobs = target = NULL;
	sl_drm_close(f);
	f = NULL;
	CHECK_EQ(sl_syncobj_status(w, g_out, &status), 0);
	if (status != 0) {
		printf("  G (%u jobs) ended before the close\n", chain_jobs);
		CHECK_EQ(sl_syncobj_wait(w, &w_out, 1, true, WAIT_MS), 0);
		goto out;
	}
	proven = true;
	CHECK_EQ(sl_syncobj_wait(w, &w_out, 1, true, WAIT_MS), 0);
	CHECK_EQ(sl_syncobj_status(w, g_out, &status), 0);
	CHECK_EQ(status, 1);
	CHECK_EQ(sl_syncobj_status(w, w_out, &status), 0);
	CHECK_EQ(status, -ECANCELED);
	CHECK_EQ(mem[0], 0x1234);
out:
	if (g_out)
		sl_syncobj_destroy(w, g_out);
	if (w_out)
		sl_syncobj_destroy(w, w_out);
	if (target)
		sl_bo_destroy(target);
	if (jobs)
		sl_bo_destroy(jobs);
	if (chain)
		sl_bo_destroy(chain);
	if (f)
		sl_drm_close(f);
	if (w)
		sl_drm_close(w);
	munmap(mem, 4096);
	/* A failed set-up has failed its checks already: no second try. */
	return proven || !f_in;
}

static void test_close_pending_dependency(void)
{
	unsigned int jobs = LONG_CHAIN;

	for (int i = 0; i < CLOSE_ATTEMPTS; i++, jobs *= 2) {
		if (close_pending_dependency(jobs))
			return;
	}
	CHECK(!"G always ended before F's close: nothing was proven");
}

int main(void)
{
	RUN(test_concurrent_submit);
	RUN(test_close_pending_dependency);
	return sim_test_finish();
}
