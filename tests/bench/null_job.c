/* SPDX-License-Identifier: MIT */
/* The NULL job through sleipnir.ko or panfrost (null_job.h). */
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

#include "clock.h"
#include "mali_jobs.h"
#include "null_job.h"

#define WAIT_MS 10000
#define JOB_BO_BYTES 4096

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

uint64_t null_job_timed_run(struct null_job_path *p)
{
	uint64_t t0, t1;
	int err;

	mali_pack_null_job(p->job, 1, 0, 0, 0);
	t0 = now_ns();
	err = p->driver == NULL_JOB_SLEIPNIR ? sleipnir_run(p) :
						 panfrost_run(p);
	t1 = now_ns();
	if (err) {
		fprintf(stderr, "null job: %s: submit+wait: %s\n",
			p->name, strerror(-err));
		return 0;
	}
	if (mali_job_exception_status(p->job) != MDG_EXCEPTION_DONE) {
		fprintf(stderr, "null job: %s: the job ended with "
			"status %#x, not DONE\n", p->name,
			mali_job_exception_status(p->job));
		return 0;
	}
	return t1 - t0 ? t1 - t0 : 1;
}

/* --- either ----------------------------------------------------------------- */

int null_job_open(struct null_job_path *p, enum null_job_driver driver)
{
	*p = (struct null_job_path){ .fd = -1, .driver = driver };
	return driver == NULL_JOB_SLEIPNIR ? sleipnir_open(p) :
					     panfrost_open(p);
}

void null_job_close(struct null_job_path *p)
{
	if (p->driver == NULL_JOB_SLEIPNIR)
		sleipnir_close(p);
	else
		panfrost_close(p);
}
