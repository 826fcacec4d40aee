/* SPDX-License-Identifier: MIT */
/*
 * The driver's own dispatch latency: SUBMIT of a one-job chain holding a
 * NULL job, then a wait on its out-syncobj, timed one job at a time, through
 *  - sleipnir.ko (uapi/drm/sleipnir_drm.h through userspace/drm/sl_drm.h,
 *    SLEIPNIR_REQ_NULL), or
 *  - the upstream panfrost driver on the same GPU model (its own uapi,
 *    <drm/panfrost_drm.h>, as tests/guest/panfrost_jobs.c drives it),
 * whichever the board has loaded. The job is the same 64-byte slot for
 * both (tests/guest/mali_jobs.h), rewritten before each submit so the GPU
 * always finds it NOT_STARTED, and checked DONE after each wait. No BO is
 * named in either submit: the job's BO stays mapped while the file holds
 * it, and naming it would add implicit-fence work to one side only.
 *
 * Usage: bench_null_job sleipnir|panfrost [RUNS]
 *   (default 1000 runs, after 50 warm-up runs)
 * Prints one JSON object on stdout:
 *   {"bench":"dispatch","path":"sleipnir_null_job","runs":...,
 *    "median_ns":...,"p10_ns":...,"p90_ns":...,"min_ns":...}
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>
#include <drm/panfrost_drm.h>

#include "bench_time.h"
#include "mali_jobs.h"
#include "sl_drm.h"

#define DEFAULT_RUNS 1000
#define WARM_UP_RUNS 50
#define WAIT_MS 10000
#define JOB_BO_BYTES 4096

/* One driver's way to run the job: set up, submit+wait, tear down. */
struct null_job_path {
	const char *name;            /* the JSON "path" */
	void *job;                   /* CPU view of the job slot */
	int (*run)(struct null_job_path *p);
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

/* --- sleipnir.ko ---------------------------------------------------------- */

static int sleipnir_run(struct null_job_path *p)
{
	struct drm_sleipnir_sync_op out = { .handle = p->sync };
	struct sl_submit s = {
		.jc = p->bo->va,
		.out_syncs = &out,
		.num_out_syncs = 1,
		.requirements = SLEIPNIR_REQ_NULL,
	};
	int err = sl_submit(p->dev, &s);

	return err ? err : sl_syncobj_wait(p->dev, &p->sync, 1, true, WAIT_MS);
}

static int sleipnir_open(struct null_job_path *p)
{
	int err = sl_drm_open(&p->dev);

	if (!err)
		err = sl_bo_create(p->dev, JOB_BO_BYTES, SLEIPNIR_BO_GPU_NOEXEC,
				   &p->bo);
	if (!err)
		err = sl_bo_mmap(p->bo, &p->job);
	if (!err)
		err = sl_vm_map(p->bo, 0, SLEIPNIR_VM_MAP_NOEXEC);
	if (!err)
		err = sl_syncobj_create(p->dev, false, &p->sync);
	p->name = "sleipnir_null_job";
	p->run = sleipnir_run;
	return err;
}

static void sleipnir_close(struct null_job_path *p)
{
	if (!p->dev)
		return;
	if (p->sync)
		sl_syncobj_destroy(p->dev, p->sync);
	sl_bo_destroy(p->bo);
	sl_drm_close(p->dev);
}

/* --- panfrost -------------------------------------------------------------- */

static int pf_ioctl(int fd, unsigned long request, void *arg)
{
	return drmIoctl(fd, request, arg) ? -errno : 0;
}

static int panfrost_run(struct null_job_path *p)
{
	struct drm_panfrost_submit s = {
		.jc = p->va,
		.out_sync = p->sync,
	};
	int err = pf_ioctl(p->fd, DRM_IOCTL_PANFROST_SUBMIT, &s);

	if (err)
		return err;
	if (drmSyncobjWait(p->fd, &p->sync, 1,
			   deadline_ns(WAIT_MS),
			   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL))
		return -errno;
	return 0;
}

/* The first render node whose driver is panfrost. */
static int panfrost_node(void)
{
	for (int minor = 128; minor < 136; minor++) {
		char path[32];
		drmVersionPtr v;
		bool ours;
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		ours = v && strcmp(v->name, "panfrost") == 0;
		drmFreeVersion(v);
		if (ours)
			return fd;
		close(fd);
	}
	return -ENODEV;
}

static int panfrost_open(struct null_job_path *p)
{
	struct drm_panfrost_create_bo create = {
		.size = JOB_BO_BYTES,
		.flags = PANFROST_BO_NOEXEC,
	};
	struct drm_panfrost_mmap_bo mmap_bo = { 0 };
	void *map;
	int err;

	p->name = "panfrost_null_job";
	p->run = panfrost_run;
	p->fd = panfrost_node();
	if (p->fd < 0)
		return p->fd;
	err = pf_ioctl(p->fd, DRM_IOCTL_PANFROST_CREATE_BO, &create);
	if (err)
		return err;
	p->handle = create.handle;
	p->va = create.offset;
	mmap_bo.handle = create.handle;
	err = pf_ioctl(p->fd, DRM_IOCTL_PANFROST_MMAP_BO, &mmap_bo);
	if (err)
		return err;
	map = mmap(NULL, JOB_BO_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
		   p->fd, (off_t)mmap_bo.offset);
	if (map == MAP_FAILED)
		return -errno;
	p->job = map;
	return drmSyncobjCreate(p->fd, 0, &p->sync) ? -errno : 0;
}

static void panfrost_close(struct null_job_path *p)
{
	if (p->fd < 0)
		return;
	if (p->job)
		munmap(p->job, JOB_BO_BYTES);
	if (p->sync)
		drmSyncobjDestroy(p->fd, p->sync);
	if (p->handle) {
		struct drm_gem_close close_bo = { .handle = p->handle };

		drmIoctl(p->fd, DRM_IOCTL_GEM_CLOSE, &close_bo);
	}
	close(p->fd);
}

/* --- the measurement ------------------------------------------------------- */

/* One submit+wait of a fresh NULL job; the time, or 0 on failure. */
static uint64_t timed_run(struct null_job_path *p)
{
	uint64_t t0, t1;
	int err;

	mali_pack_null_job(p->job, 1, 0, 0, 0);
	t0 = now_ns();
	err = p->run(p);
	t1 = now_ns();
	if (err) {
		fprintf(stderr, "bench_null_job: %s: submit+wait: %s\n",
			p->name, strerror(-err));
		return 0;
	}
	if (mali_job_exception_status(p->job) != MDG_EXCEPTION_DONE) {
		fprintf(stderr, "bench_null_job: %s: the job ended with "
			"status %#x, not DONE\n", p->name,
			mali_job_exception_status(p->job));
		return 0;
	}
	return t1 - t0 ? t1 - t0 : 1;
}

static int measure(struct null_job_path *p, unsigned int runs)
{
	uint64_t *ns = malloc(runs * sizeof(*ns));

	if (!ns)
		return 1;
	for (unsigned int i = 0; i < WARM_UP_RUNS; i++) {
		if (!timed_run(p))
			goto fail;
	}
	for (unsigned int i = 0; i < runs; i++) {
		ns[i] = timed_run(p);
		if (!ns[i])
			goto fail;
	}
	bench_sort(ns, runs);
	printf("{\"bench\":\"dispatch\",\"path\":\"%s\",\"runs\":%u,"
	       "\"median_ns\":%llu,\"p10_ns\":%llu,\"p90_ns\":%llu,"
	       "\"min_ns\":%llu}\n",
	       p->name, runs, (unsigned long long)bench_pct(ns, runs, 50),
	       (unsigned long long)bench_pct(ns, runs, 10),
	       (unsigned long long)bench_pct(ns, runs, 90),
	       (unsigned long long)ns[0]);
	free(ns);
	return 0;
fail:
	free(ns);
	return 1;
}

int main(int argc, char **argv)
{
	struct null_job_path p = { .fd = -1 };
	bool sleipnir = argc > 1 && strcmp(argv[1], "sleipnir") == 0;
	bool panfrost = argc > 1 && strcmp(argv[1], "panfrost") == 0;
	unsigned int runs = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 0)
				     : DEFAULT_RUNS;
	int err, status;

	if ((!sleipnir && !panfrost) || !runs) {
		fprintf(stderr, "usage: bench_null_job sleipnir|panfrost [RUNS]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	err = sleipnir ? sleipnir_open(&p) : panfrost_open(&p);
	if (err) {
		fprintf(stderr, "bench_null_job: %s: set-up failed: %s\n",
			argv[1], strerror(-err));
		status = 1;
	} else {
		status = measure(&p, runs);
	}
	if (sleipnir)
		sleipnir_close(&p);
	else
		panfrost_close(&p);
	return status;
}
