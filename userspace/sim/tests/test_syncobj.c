/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of sim_syncobj.c: every DRM_IOCTL_SYNCOBJ_* and the sync_file
 * ioctls, with the results and errnos Linux 6.1's drm_syncobj.c and
 * sync_file.c give (the expectations below follow those sources), binary
 * and timeline waits that other threads satisfy, and job errors read back
 * through sync_files as userspace/drm/sl_drm.c does.
 *
 * The ioctl structs are passed as the DRM core passes them to a handler
 * (already copied in); the arrays they point to are the caller's memory.
 */
#include <errno.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <xf86drm.h>

#include "sim_fd.h"
#include "sim_syncobj.h"
#include "sim_test.h"

#define MS 1000000LL
#define U64(p) ((uint64_t)(uintptr_t)(p))

static struct sim_syncobj_table *tab;

static uint32_t create(struct sim_syncobj_table *t, uint32_t flags)
{
	struct drm_syncobj_create c = { .flags = flags };

	CHECK_EQ(sim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_CREATE, &c), 0);
	return c.handle;
}

static int destroy(struct sim_syncobj_table *t, uint32_t handle)
{
	struct drm_syncobj_destroy d = { .handle = handle };

	return sim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

static int wait_h(struct sim_syncobj_table *t, uint32_t *handles,
		  uint32_t count, uint32_t flags, int64_t abs_ns,
		  uint32_t *first)
{
	struct drm_syncobj_wait w = {
		.handles = U64(handles), .count_handles = count,
		.flags = flags, .timeout_nsec = abs_ns,
		.first_signaled = 0x12345678,
	};
	int ret = sim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_WAIT, &w);

	if (first)
		*first = w.first_signaled;
	return ret;
}

static int twait(struct sim_syncobj_table *t, uint32_t *handles,
		 uint64_t *points, uint32_t count, uint32_t flags,
		 int64_t abs_ns, uint32_t *first)
{
	struct drm_syncobj_timeline_wait w = {
		.handles = U64(handles), .points = U64(points),
		.count_handles = count, .flags = flags, .timeout_nsec = abs_ns,
		.first_signaled = 0x12345678,
	};
	int ret = sim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);

	if (first)
		*first = w.first_signaled;
	return ret;
}

/* Polls one binary syncobj: 0 signalled, -ETIME pending, -EINVAL none. */
static int poll1(struct sim_syncobj_table *t, uint32_t h)
{
	return wait_h(t, &h, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, 0, NULL);
}

static uint64_t query(struct sim_syncobj_table *t, uint32_t h, uint32_t flags)
{
	uint64_t point = 0xdead;
	struct drm_syncobj_timeline_array q = {
		.handles = U64(&h), .points = U64(&point), .count_handles = 1,
		.flags = flags,
	};

	CHECK_EQ(sim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_QUERY, &q), 0);
	return point;
}

static int export_sync_file(struct sim_syncobj_table *t, uint32_t h, int *fd)
{
	struct drm_syncobj_handle a = {
		.handle = h,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
		.fd = -1,
	};
	int ret = sim_syncobj_ioctl(t, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &a);

	*fd = a.fd;
	return ret;
}

/* SYNC_IOC_FILE_INFO's status as sl_drm.c's sl_syncobj_status() reads it. */
static int sync_file_status(int fd)
{
	struct sync_file_info info;
	int ret;

	memset(&info, 0, sizeof(info));
	ret = sim_fd_ioctl(fd, SYNC_IOC_FILE_INFO, &info);
	return ret ? ret * 1000 : info.status;
}

/* poll() of a sync_file: POLLIN once its fence is signalled. */
static int readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) == 1 && (p.revents & POLLIN);
}

static int syncobj_status(struct sim_syncobj_table *t, uint32_t h)
{
	int fd, status, ret = export_sync_file(t, h, &fd);

	if (ret)
		return ret * 1000;
	status = sync_file_status(fd);
	sim_fd_close(fd);
	return status;
}

/* Gives a syncobj a fresh pending fence, as a SUBMIT's out-sync does. */
static struct sim_fence *attach(struct sim_syncobj_table *t, uint32_t h,
				uint64_t point)
{
	struct sim_fence *f = sim_fence_new();

	CHECK_EQ(sim_syncobj_replace_fence(t, h, point, f), 0);
	return f;
}

/* --- threads that act later --------------------------------------------- */

struct later {
	pthread_t thread;
	int64_t delay_ns;
	struct sim_fence *fence;      /* signal it ... */
	int error;
	uint32_t handle;              /* ... or attach it to handle first */
	uint64_t point;
	bool attach;
};

static void *later_main(void *arg)
{
	struct later *l = arg;
	struct timespec ts = { .tv_sec = l->delay_ns / 1000000000,
			       .tv_nsec = l->delay_ns % 1000000000 };

	nanosleep(&ts, NULL);
	if (l->attach)
		sim_syncobj_replace_fence(tab, l->handle, l->point, l->fence);
	nanosleep(&ts, NULL);
	sim_fence_signal(l->fence, l->error);
	return NULL;
}

static void later_start(struct later *l, int64_t delay_ns,
			struct sim_fence *f, int error)
{
	l->delay_ns = delay_ns;
	l->fence = f;
	l->error = error;
	pthread_create(&l->thread, NULL, later_main, l);
}

static void later_join(struct later *l)
{
	pthread_join(l->thread, NULL);
}

/* --- the tests ------------------------------------------------------------ */

static void create_destroy(void)
{
	struct drm_syncobj_create c = { .flags = 2 };
	struct drm_syncobj_destroy d = { .handle = 1, .pad = 1 };
	uint32_t a, b, c2;

	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_CREATE, &c), -EINVAL);
	a = create(tab, 0);
	b = create(tab, DRM_SYNCOBJ_CREATE_SIGNALED);
	CHECK(a >= 1 && b >= 1 && a != b);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_DESTROY, &d),
		 -EINVAL);
	CHECK(sim_syncobj_exists(tab, a));
	/* No fence: -EINVAL without WAIT_FOR_SUBMIT; signalled: 0. */
	CHECK_EQ(poll1(tab, a), -EINVAL);
	CHECK_EQ(poll1(tab, b), 0);
	CHECK_EQ(destroy(tab, a), 0);
	CHECK(!sim_syncobj_exists(tab, a));
	/* Unknown handles: -EINVAL for DESTROY (idr_remove found nothing). */
	CHECK_EQ(destroy(tab, a), -EINVAL);
	CHECK_EQ(destroy(tab, 0), -EINVAL);
	CHECK_EQ(destroy(tab, 100000), -EINVAL);
	/* The lowest free handle comes back, as idr_alloc gives it. */
	c2 = create(tab, 0);
	CHECK_EQ(c2, a);
	CHECK_EQ(destroy(tab, c2), 0);
	CHECK_EQ(destroy(tab, b), 0);
	CHECK_EQ(sim_syncobj_ioctl(tab, 0xdeadbeef, &c), -ENOTTY);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_CREATE, NULL),
		 -EFAULT);
}

static void wait_validation(void)
{
	uint32_t h = create(tab, DRM_SYNCOBJ_CREATE_SIGNALED), bad = 999;
	uint32_t two[2] = { h, bad };
	uint64_t pt = 0;

	CHECK_EQ(wait_h(tab, &h, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE, 0,
			NULL), -EINVAL);
	CHECK_EQ(wait_h(tab, &h, 1, 1u << 7, 0, NULL), -EINVAL);
	CHECK_EQ(wait_h(tab, &h, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(wait_h(tab, NULL, 1, 0, 0, NULL), -EFAULT);
	CHECK_EQ(wait_h(tab, two, 2, 0, 0, NULL), -ENOENT);
	CHECK_EQ(twait(tab, &h, &pt, 1, 1u << 3, 0, NULL), -EINVAL);
	CHECK_EQ(twait(tab, &h, &pt, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(twait(tab, NULL, &pt, 1, 0, 0, NULL), -EFAULT);
	CHECK_EQ(twait(tab, two, &pt, 2, 0, 0, NULL), -ENOENT);
	/* Points NULL: every point 0 (a binary wait). */
	CHECK_EQ(twait(tab, &h, NULL, 1, 0, 0, NULL), 0);
	/* Counts the kernel cannot kmalloc: -ENOMEM before reading. */
	CHECK_EQ(wait_h(tab, &h, 1u << 21, 0, 0, NULL), -ENOMEM);
	destroy(tab, h);
}

static void binary_wait_threads(void)
{
	uint32_t h = create(tab, 0), first;
	struct sim_fence *f = attach(tab, h, 0);
	struct later l = { .attach = false };
	int64_t t0;

	/* Pending: a poll and a short deadline both time out. */
	CHECK_EQ(poll1(tab, h), -ETIME);
	t0 = sim_now_ns();
	CHECK_EQ(wait_h(tab, &h, 1, 0, sim_deadline_ns(20 * MS), NULL),
		 -ETIME);
	CHECK(sim_now_ns() - t0 >= 20 * MS);
	/* A deadline in the past polls. */
	CHECK_EQ(wait_h(tab, &h, 1, 0, sim_now_ns() - 1000, NULL), -ETIME);

	later_start(&l, 30 * MS, f, 0);
	t0 = sim_now_ns();
	CHECK_EQ(wait_h(tab, &h, 1, 0, sim_deadline_ns(5000 * MS), &first), 0);
	CHECK(sim_now_ns() - t0 >= 30 * MS);
	CHECK_EQ(first, 0);
	later_join(&l);
	CHECK_EQ(poll1(tab, h), 0);
	CHECK_EQ(syncobj_status(tab, h), 1);
	sim_fence_put(f);
	destroy(tab, h);
}

static void wait_for_submit(void)
{
	uint32_t h = create(tab, 0);
	struct later l = { .attach = true, .point = 0 };
	int64_t t0;

	l.handle = h;
	/* Nothing submitted: a poll says -ETIME with WAIT_FOR_SUBMIT. */
	CHECK_EQ(wait_h(tab, &h, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 0,
			NULL), -ETIME);
	later_start(&l, 30 * MS, sim_fence_new(), -EIO);
	t0 = sim_now_ns();
	CHECK_EQ(wait_h(tab, &h, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
			sim_deadline_ns(5000 * MS), NULL), 0);
	/* It waited for the attach and then for the signal. */
	CHECK(sim_now_ns() - t0 >= 60 * MS);
	later_join(&l);
	/* A failed job: the wait succeeds, its sync_file tells the error. */
	CHECK_EQ(syncobj_status(tab, h), -EIO);
	sim_fence_put(l.fence);

	/* A reset takes the fence away again. */
	{
		struct drm_syncobj_array r = { .handles = U64(&h),
					       .count_handles = 1 };

		CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_RESET, &r), 0);
	}
	CHECK_EQ(poll1(tab, h), -EINVAL);
	destroy(tab, h);
}

static void wait_any_all(void)
{
	uint32_t h[3] = { create(tab, 0), create(tab, 0), create(tab, 0) };
	struct sim_fence *f[3];
	struct later l = { .attach = false };
	uint32_t first;
	int i;

	for (i = 0; i < 3; i++)
		f[i] = attach(tab, h[i], 0);
	sim_fence_signal(f[2], 0);
	/* Any: the first signalled index. */
	CHECK_EQ(wait_h(tab, h, 3, 0, 0, &first), 0);
	CHECK_EQ(first, 2);
	/* All: not yet. */
	CHECK_EQ(wait_h(tab, h, 3, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
			sim_deadline_ns(10 * MS), NULL), -ETIME);
	/* Any, satisfied later by another thread: that index. */
	later_start(&l, 20 * MS, f[1], 0);
	CHECK_EQ(wait_h(tab, h, 2, 0, sim_deadline_ns(5000 * MS), &first), 0);
	CHECK_EQ(first, 1);
	later_join(&l);
	/* All, with index 1 signalled at the start: first_signaled is 1. */
	later_start(&l, 20 * MS, f[0], 0);
	CHECK_EQ(wait_h(tab, h, 3, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
			sim_deadline_ns(5000 * MS), &first), 0);
	CHECK_EQ(first, 1);
	later_join(&l);

	/* All, none signalled at the start: first_signaled stays ~0. */
	for (i = 0; i < 3; i++) {
		sim_fence_put(f[i]);
		f[i] = attach(tab, h[i], 0);
	}
	sim_fence_signal(f[1], 0);
	sim_fence_signal(f[2], 0);
	later_start(&l, 20 * MS, f[0], 0);
	{
		uint32_t order[3] = { h[0], h[1], h[2] };

		CHECK_EQ(wait_h(tab, order, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
				sim_deadline_ns(5000 * MS), &first), 0);
		CHECK_EQ(first, ~0u);
	}
	later_join(&l);
	for (i = 0; i < 3; i++) {
		sim_fence_put(f[i]);
		destroy(tab, h[i]);
	}
}

static void timeline(void)
{
	uint32_t tl = create(tab, 0), first;
	struct sim_fence *f1, *f2, *f3, *got;
	struct later l = { .attach = true, .point = 4 };
	uint64_t pt;

	CHECK_EQ(query(tab, tl, 0), 0);
	f1 = attach(tab, tl, 1);
	f2 = attach(tab, tl, 2);
	f3 = attach(tab, tl, 3);
	CHECK_EQ(query(tab, tl, 0), 0);
	CHECK_EQ(query(tab, tl, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 3);

	/* Point 2's fence alone does not complete point 2. */
	sim_fence_signal(f2, 0);
	CHECK_EQ(query(tab, tl, 0), 0);
	pt = 2;
	CHECK_EQ(twait(tab, &tl, &pt, 1, 0, 0, NULL), -ETIME);
	sim_fence_signal(f1, 0);
	CHECK_EQ(query(tab, tl, 0), 2);
	CHECK_EQ(twait(tab, &tl, &pt, 1, 0, 0, &first), 0);
	CHECK_EQ(first, 0);
	pt = 3;
	CHECK_EQ(twait(tab, &tl, &pt, 1, 0, 0, NULL), -ETIME);
	/* Available but pending: WAIT_AVAILABLE is satisfied. */
	CHECK_EQ(twait(tab, &tl, &pt, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE,
		       0, NULL), 0);

	/* Point 4 is not submitted: -EINVAL, or wait for it. */
	pt = 4;
	CHECK_EQ(twait(tab, &tl, &pt, 1, 0, 0, NULL), -EINVAL);
	CHECK_EQ(twait(tab, &tl, &pt, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE,
		       0, NULL), -ETIME);
	CHECK_EQ(sim_syncobj_find_fence(tab, tl, 4, &got), -EINVAL);
	l.handle = tl;
	later_start(&l, 20 * MS, sim_fence_new(), 0);
	CHECK_EQ(twait(tab, &tl, &pt, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE,
		       sim_deadline_ns(5000 * MS), NULL), 0);
	later_join(&l);
	/* 4's own fence is done, but point 4 waits for point 3 too. */
	CHECK_EQ(sim_fence_status(l.fence), 1);
	CHECK_EQ(twait(tab, &tl, &pt, 1, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
		       sim_deadline_ns(20 * MS), NULL), -ETIME);
	CHECK_EQ(query(tab, tl, 0), 2);

	/* SUBMIT's in-sync lookups. */
	CHECK_EQ(sim_syncobj_find_fence(tab, tl, 3, &got), 0);
	CHECK(got && sim_fence_status(got) == 0);
	sim_fence_put(got);
	CHECK_EQ(sim_syncobj_find_fence(tab, tl, 1, &got), 0);
	CHECK(got && sim_fence_status(got) == 1);
	sim_fence_put(got);
	CHECK_EQ(sim_syncobj_find_fence(tab, 777, 1, &got), -ENOENT);

	sim_fence_signal(f3, -EIO);
	CHECK_EQ(query(tab, tl, 0), 4);
	/* A timeline's sync_file is its chain: signalled, errors not kept. */
	CHECK_EQ(syncobj_status(tab, tl), 1);

	sim_fence_put(f1);
	sim_fence_put(f2);
	sim_fence_put(f3);
	sim_fence_put(l.fence);
	destroy(tab, tl);
}

static void timeline_signal_query(void)
{
	uint32_t h[2] = { create(tab, 0), create(tab, 0) }, bad[2] = { 1, 999 };
	uint64_t pts[2] = { 5, 7 }, out[2] = { 1, 1 };
	struct drm_syncobj_timeline_array a = {
		.handles = U64(h), .points = U64(pts), .count_handles = 2,
	};

	a.flags = 1;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a),
		 -EINVAL);
	a.flags = 0;
	a.count_handles = 0;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a),
		 -EINVAL);
	a.count_handles = 2;
	a.handles = U64(bad);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a),
		 -ENOENT);
	a.handles = 0;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a),
		 -EFAULT);
	a.handles = U64(h);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a),
		 0);
	CHECK_EQ(query(tab, h[0], 0), 5);
	CHECK_EQ(query(tab, h[1], 0), 7);

	a.points = U64(out);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_QUERY, &a), 0);
	CHECK(out[0] == 5 && out[1] == 7);
	a.flags = 2;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_QUERY, &a), -EINVAL);
	a.flags = 0;
	a.points = 0;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_QUERY, &a), -EFAULT);
	a.count_handles = 0;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_QUERY, &a), -EINVAL);

	/* A smaller point later: out of order, numbered as the last. */
	pts[0] = 3;
	a.points = U64(pts);
	a.count_handles = 1;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &a),
		 0);
	CHECK_EQ(query(tab, h[0], DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 5);
	/* A binary syncobj reads as point 0. */
	{
		uint32_t b = create(tab, DRM_SYNCOBJ_CREATE_SIGNALED);

		CHECK_EQ(query(tab, b, 0), 0);
		destroy(tab, b);
	}
	destroy(tab, h[0]);
	destroy(tab, h[1]);
}

static void reset_signal(void)
{
	uint32_t h = create(tab, 0), bad = 999;
	struct drm_syncobj_array a = { .handles = U64(&h), .count_handles = 1 };

	a.pad = 1;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_SIGNAL, &a), -EINVAL);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_RESET, &a), -EINVAL);
	a.pad = 0;
	a.count_handles = 0;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_SIGNAL, &a), -EINVAL);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_RESET, &a), -EINVAL);
	a.count_handles = 1;
	a.handles = 0;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_SIGNAL, &a), -EFAULT);
	a.handles = U64(&bad);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_RESET, &a), -ENOENT);
	a.handles = U64(&h);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_SIGNAL, &a), 0);
	CHECK_EQ(poll1(tab, h), 0);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_RESET, &a), 0);
	CHECK_EQ(poll1(tab, h), -EINVAL);
	destroy(tab, h);
}

static void transfer(void)
{
	uint32_t bin = create(tab, 0), tl = create(tab, 0), dst = create(tab, 0);
	struct drm_syncobj_transfer t = { 0 };
	struct sim_fence *f = attach(tab, bin, 0), *g;
	struct later l = { .attach = true, .point = 0 };
	uint64_t pt;

	t.src_handle = bin;
	t.dst_handle = tl;
	t.dst_point = 1;
	t.pad = 1;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TRANSFER, &t), -EINVAL);
	t.pad = 0;
	t.dst_handle = 999;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TRANSFER, &t), -ENOENT);
	t.dst_handle = tl;
	t.src_handle = 999;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TRANSFER, &t), -ENOENT);
	/* A source without fence: -EINVAL. */
	t.src_handle = dst;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TRANSFER, &t), -EINVAL);

	/* Binary to timeline point 1: pending with the binary's fence. */
	t.src_handle = bin;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TRANSFER, &t), 0);
	pt = 1;
	CHECK_EQ(twait(tab, &tl, &pt, 1, 0, 0, NULL), -ETIME);
	/* Timeline point 1 to a binary syncobj. */
	t.src_handle = tl;
	t.src_point = 1;
	t.dst_handle = dst;
	t.dst_point = 0;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TRANSFER, &t), 0);
	CHECK_EQ(poll1(tab, dst), -ETIME);
	sim_fence_signal(f, 0);
	CHECK_EQ(twait(tab, &tl, &pt, 1, 0, 0, NULL), 0);
	CHECK_EQ(poll1(tab, dst), 0);
	/* A point not there: -EINVAL, or with WAIT_FOR_SUBMIT waited for. */
	t.src_point = 2;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TRANSFER, &t), -EINVAL);
	l.handle = tl;
	l.point = 2;
	later_start(&l, 20 * MS, sim_fence_new(), 0);
	t.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_TRANSFER, &t), 0);
	later_join(&l);
	CHECK_EQ(sim_syncobj_find_fence(tab, dst, 0, &g), 0);
	CHECK(g && sim_fence_status(g) == 1);
	sim_fence_put(g);
	sim_fence_put(l.fence);
	sim_fence_put(f);
	destroy(tab, bin);
	destroy(tab, tl);
	destroy(tab, dst);
}

static void syncobj_fds(void)
{
	struct sim_syncobj_table *other = sim_syncobj_table_new();
	uint32_t h = create(tab, 0), h2;
	struct drm_syncobj_handle a = { .handle = h };
	struct sim_fence *f;
	int sfd, sync_fd;

	a.pad = 1;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &a),
		 -EINVAL);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a),
		 -EINVAL);
	a.pad = 0;
	a.flags = 2;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &a),
		 -EINVAL);
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a),
		 -EINVAL);
	a.flags = 0;
	/* Unknown handle: -EINVAL for a syncobj fd, -ENOENT for a sync_file. */
	a.handle = 999;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &a),
		 -EINVAL);
	CHECK_EQ(export_sync_file(tab, 999, &sync_fd), -ENOENT);
	/* No fence to export: -EINVAL. */
	CHECK_EQ(export_sync_file(tab, h, &sync_fd), -EINVAL);

	a.handle = h;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &a), 0);
	sfd = a.fd;
	CHECK(sfd >= 0);
	/* Into another file of the process: the same syncobj. */
	a.handle = 0;
	CHECK_EQ(sim_syncobj_ioctl(other, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a),
		 0);
	h2 = a.handle;
	CHECK(h2 >= 1);
	/* A syncobj fd has no ioctls. */
	CHECK_EQ(sim_fd_ioctl(sfd, SYNC_IOC_FILE_INFO, &a), -ENOTTY);
	CHECK_EQ(sim_fd_close(sfd), 0);
	f = attach(tab, h, 0);
	CHECK_EQ(poll1(other, h2), -ETIME);
	sim_fence_signal(f, -EIO);
	CHECK_EQ(poll1(other, h2), 0);
	CHECK_EQ(syncobj_status(other, h2), -EIO);
	/* It outlives the exporting file's handle. */
	CHECK_EQ(destroy(tab, h), 0);
	CHECK_EQ(syncobj_status(other, h2), -EIO);

	/* Sync_file import into another syncobj; wrong kinds of fd. */
	CHECK_EQ(export_sync_file(other, h2, &sync_fd), 0);
	h = create(tab, 0);
	a.handle = h;
	a.fd = sync_fd;
	a.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a), 0);
	CHECK_EQ(syncobj_status(tab, h), -EIO);
	a.handle = 999;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a),
		 -ENOENT);
	a.flags = 0;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a),
		 -EINVAL);
	a.fd = 0;  /* stdin: a file, not ours */
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a),
		 -EINVAL);
	a.fd = -1;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a),
		 -EINVAL);
	a.handle = h;
	a.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	CHECK_EQ(sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a),
		 -EINVAL);
	sim_fd_close(sync_fd);

	sim_fence_put(f);
	destroy(tab, h);
	/* Handles left in a table go with it (ASan checks the leak). */
	sim_syncobj_table_free(other);
}

static void sync_file_ioctls(void)
{
	uint32_t a = create(tab, 0), b = create(tab, 0);
	struct sim_fence *fa = attach(tab, a, 0), *fb = attach(tab, b, 0);
	struct sync_fence_info fi[2];
	struct sync_file_info info;
	struct sync_merge_data m;
	int fda, fdb, fdm;

	CHECK_EQ(export_sync_file(tab, a, &fda), 0);
	CHECK_EQ(export_sync_file(tab, b, &fdb), 0);
	CHECK_EQ(sync_file_status(fda), 0);
	CHECK(!readable(fda, 0));

	memset(&info, 0, sizeof(info));
	info.flags = 1;
	CHECK_EQ(sim_fd_ioctl(fda, SYNC_IOC_FILE_INFO, &info), -EINVAL);
	info.flags = 0;
	info.pad = 1;
	CHECK_EQ(sim_fd_ioctl(fda, SYNC_IOC_FILE_INFO, &info), -EINVAL);
	CHECK_EQ(sim_fd_ioctl(fda, SYNC_IOC_FILE_INFO, NULL), -EFAULT);
	CHECK_EQ(sim_fd_ioctl(fda, _IOWR('>', 9, int), &info), -ENOTTY);
	memset(&info, 0, sizeof(info));
	CHECK_EQ(sim_fd_ioctl(fda, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_EQ(info.num_fences, 1);
	CHECK(info.name[0] != '\0');

	memset(&m, 0, sizeof(m));
	strcpy(m.name, "both");
	m.fd2 = fdb;
	m.flags = 1;
	CHECK_EQ(sim_fd_ioctl(fda, SYNC_IOC_MERGE, &m), -EINVAL);
	m.flags = 0;
	m.fd2 = 0;
	CHECK_EQ(sim_fd_ioctl(fda, SYNC_IOC_MERGE, &m), -ENOENT);
	CHECK_EQ(sim_fd_ioctl(fda, SYNC_IOC_MERGE, NULL), -EFAULT);
	m.fd2 = fdb;
	CHECK_EQ(sim_fd_ioctl(fda, SYNC_IOC_MERGE, &m), 0);
	fdm = m.fence;
	CHECK(fdm >= 0 && fdm != fda && fdm != fdb);

	memset(&info, 0, sizeof(info));
	CHECK_EQ(sim_fd_ioctl(fdm, SYNC_IOC_FILE_INFO, &info), 0);
	CHECK_EQ(info.num_fences, 2);
	CHECK(strcmp(info.name, "both") == 0);
	CHECK_EQ(info.status, 0);
	/* Too small an array: -EINVAL; a NULL one: -EFAULT. */
	info.num_fences = 1;
	info.sync_fence_info = U64(fi);
	CHECK_EQ(sim_fd_ioctl(fdm, SYNC_IOC_FILE_INFO, &info), -EINVAL);
	info.num_fences = 2;
	info.sync_fence_info = 0;
	CHECK_EQ(sim_fd_ioctl(fdm, SYNC_IOC_FILE_INFO, &info), -EFAULT);

	{
		struct later l = { .attach = false };

		later_start(&l, 20 * MS, fb, -EIO);
		CHECK(readable(fdb, 5000));
		later_join(&l);
	}
	CHECK(!readable(fdm, 0));
	info.num_fences = 2;
	info.sync_fence_info = U64(fi);
	memset(fi, 0x55, sizeof(fi));
	CHECK_EQ(sim_fd_ioctl(fdm, SYNC_IOC_FILE_INFO, &info), 0);
	/*
	 * Per fence, in context order (a's first): pending, failed. The
	 * whole is the first status that is not "signalled": pending.
	 */
	CHECK_EQ(info.status, 0);
	CHECK_EQ(fi[0].status, 0);
	CHECK_EQ(fi[1].status, -EIO);
	CHECK_EQ(fi[0].timestamp_ns, 0);
	CHECK(fi[1].timestamp_ns > 0);
	CHECK_EQ(fi[0].flags, 0);
	CHECK(strcmp(fi[0].obj_name, sim_fence_timeline_name(fa)) == 0);
	CHECK(strcmp(fi[1].driver_name, sim_fence_driver_name(fb)) == 0);
	/* num_fences 0: the merged fence's own status, pending still. */
	CHECK_EQ(sync_file_status(fdm), 0);
	sim_fence_signal(fa, 0);
	CHECK(readable(fdm, 0));
	CHECK_EQ(sync_file_status(fdm), -EIO);
	CHECK_EQ(sync_file_status(fda), 1);
	CHECK_EQ(sync_file_status(fdb), -EIO);
	/* Exported signalled: readable at once. */
	{
		int fd;

		CHECK_EQ(export_sync_file(tab, a, &fd), 0);
		CHECK(readable(fd, 0));
		sim_fd_close(fd);
	}

	/* The exported file keeps its fence: resets do not touch it. */
	{
		struct drm_syncobj_array r = { .handles = U64(&b),
					       .count_handles = 1 };

		sim_syncobj_ioctl(tab, DRM_IOCTL_SYNCOBJ_RESET, &r);
	}
	CHECK_EQ(sync_file_status(fdb), -EIO);

	CHECK_EQ(sim_fd_close(fda), 0);
	CHECK_EQ(sim_fd_close(fdb), 0);
	CHECK_EQ(sim_fd_close(fdm), 0);
	sim_fence_put(fa);
	sim_fence_put(fb);
	destroy(tab, a);
	destroy(tab, b);
}

/* Threads waiting on one syncobj while another thread keeps submitting. */
struct stress {
	uint32_t handle;
	int rounds;
	int failures;
};

static void *stress_waiter(void *arg)
{
	struct stress *s = arg;

	for (int i = 0; i < s->rounds; i++) {
		uint64_t pt = (uint64_t)i + 1;

		if (twait(tab, &s->handle, &pt, 1,
			  DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
			  sim_deadline_ns(10000 * MS), NULL))
			s->failures++;
	}
	return NULL;
}

static void timeline_stress(void)
{
	enum { WAITERS = 4, ROUNDS = 300 };
	struct stress s = { .handle = create(tab, 0), .rounds = ROUNDS };
	struct stress per[WAITERS];
	pthread_t t[WAITERS];
	struct sim_fence *prev = NULL;
	int i, failures = 0;

	for (i = 0; i < WAITERS; i++) {
		per[i] = s;
		pthread_create(&t[i], NULL, stress_waiter, &per[i]);
	}
	for (i = 0; i < ROUNDS; i++) {
		struct sim_fence *f = sim_fence_new();

		sim_syncobj_replace_fence(tab, s.handle, (uint64_t)i + 1, f);
		sim_fence_signal(prev ? prev : f, 0);
		sim_fence_put(prev);
		prev = f;
		if (i % 16 == 0)
			sched_yield();
	}
	sim_fence_signal(prev, 0);
	sim_fence_put(prev);
	for (i = 0; i < WAITERS; i++) {
		pthread_join(t[i], NULL);
		failures += per[i].failures;
	}
	CHECK_EQ(failures, 0);
	CHECK_EQ(query(tab, s.handle, 0), ROUNDS);
	destroy(tab, s.handle);
}

int main(void)
{
	tab = sim_syncobj_table_new();
	RUN(create_destroy);
	RUN(wait_validation);
	RUN(binary_wait_threads);
	RUN(wait_for_submit);
	RUN(wait_any_all);
	RUN(timeline);
	RUN(timeline_signal_query);
	RUN(reset_signal);
	RUN(transfer);
	RUN(syncobj_fds);
	RUN(sync_file_ioctls);
	RUN(timeline_stress);
	/* A handle left behind goes with the table. */
	create(tab, DRM_SYNCOBJ_CREATE_SIGNALED);
	sim_syncobj_table_free(tab);
	return sim_test_finish();
}
