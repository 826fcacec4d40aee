/* SPDX-License-Identifier: MIT */
/*
 * DRM syncobjs of the simulated kernel (sim_syncobj.h), with the semantics
 * and errnos of Linux 6.1's drm_syncobj.c on a driver with DRIVER_SYNCOBJ
 * and DRIVER_SYNCOBJ_TIMELINE, and the sync_files they export
 * (drivers/dma-buf/sync_file.c: SYNC_IOC_FILE_INFO and SYNC_IOC_MERGE).
 *
 * A syncobj holds one fence or none; a timeline syncobj holds the chain
 * node of its latest point (sim_fence_chain_new), binary operations work
 * on point 0. Host waits register on the syncobj (WAIT_FOR_SUBMIT: for a
 * fence or point to appear) and on fences (to be signalled), and sleep on
 * one condition on CLOCK_MONOTONIC until the absolute deadline.
 *
 * Syncobj fds and sync_files are real fds of the process (sim_fd.h), so a
 * syncobj exported from one open file of the node imports into another.
 *
 * Arguments: the DRM core copies an ioctl's struct in before its handler
 * runs and out after it (drm_ioctl), so sim_syncobj_ioctl() gets the
 * kernel-side copy, sized and zero-extended by the caller; the arrays it
 * points to are read with sim_copy_from_user(). A sync_file's ioctl gets
 * the caller's own pointer, as sync_file_ioctl() does.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sync_file.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "sim.h"
#include "sim_fd.h"
#include "sim_syncobj.h"

/*
 * The largest allocation kmalloc() makes on the board's kernel (arm64, 4K
 * pages: KMALLOC_MAX_SIZE, 4 MiB). Larger arrays fail with -ENOMEM there,
 * so they do here.
 */
#define KMALLOC_MAX ((size_t)4 << 20)
/* What the kernel's per-handle wait entry weighs on arm64. */
#define KERNEL_WAIT_ENTRY_SIZE 64
/* drm_syncobj_find_fence() with WAIT_FOR_SUBMIT (TRANSFER) gives up then. */
#define WAIT_FOR_SUBMIT_TIMEOUT_NS 5000000000LL

struct wait_entry;

struct sim_syncobj {
	atomic_uint refcount;
	pthread_mutex_t lock;
	struct sim_fence *fence;        /* NULL: none (unsignalled) */
	/* Waiters for a fence or point to appear (WAIT_FOR_SUBMIT). */
	struct wait_entry *waiters;
};

struct sim_syncobj_table {
	pthread_mutex_t lock;
	struct sim_syncobj **slots;     /* index = handle - 1 */
	uint32_t len;
};

/* One thread waiting on several syncobjs. */
struct waiter {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned int wakeups;
};

struct wait_entry {
	struct wait_entry *next, **pprev;  /* on the syncobj, under its lock */
	struct waiter *waiter;
	struct sim_fence *fence;           /* under waiter->lock */
	struct sim_fence_cb fence_cb;
	bool fence_cb_added;
	uint64_t point;
};

static void *kmalloc_array(size_t n, size_t size)
{
	if (!n || n > KMALLOC_MAX / size)
		return NULL;
	return calloc(n, size);
}

/* --- syncobjs -------------------------------------------------------------- */

static struct sim_syncobj *syncobj_new(void)
{
	struct sim_syncobj *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	atomic_init(&s->refcount, 1);
	pthread_mutex_init(&s->lock, NULL);
	return s;
}

static struct sim_syncobj *syncobj_get(struct sim_syncobj *s)
{
	atomic_fetch_add(&s->refcount, 1);
	return s;
}

static void syncobj_put(struct sim_syncobj *s)
{
	if (!s || atomic_fetch_sub(&s->refcount, 1) != 1)
		return;
	sim_fence_put(s->fence);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

static struct sim_fence *syncobj_fence_get(struct sim_syncobj *s)
{
	struct sim_fence *f;

	pthread_mutex_lock(&s->lock);
	f = sim_fence_get(s->fence);
	pthread_mutex_unlock(&s->lock);
	return f;
}

static void waiter_wake(struct waiter *w)
{
	pthread_mutex_lock(&w->lock);
	w->wakeups++;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

static void wait_entry_unlink(struct wait_entry *e)
{
	if (e->next)
		e->next->pprev = e->pprev;
	*e->pprev = e->next;
	e->next = NULL;
	e->pprev = NULL;
}

/*
 * With s->lock held: hands e the fence of its point if the syncobj has it
 * now, and takes e off the syncobj's list then.
 */
static bool wait_entry_try(struct sim_syncobj *s, struct wait_entry *e)
{
	struct sim_fence *f = sim_fence_get(s->fence);

	if (!f || sim_fence_chain_find_seqno(&f, e->point)) {
		sim_fence_put(f);
		return false;
	}
	/* The point is known signalled: anything signalled will do. */
	if (!f)
		f = sim_fence_new_signaled();
	if (!f)
		return false;
	pthread_mutex_lock(&e->waiter->lock);
	e->fence = f;
	e->waiter->wakeups++;
	pthread_cond_broadcast(&e->waiter->cond);
	pthread_mutex_unlock(&e->waiter->lock);
	return true;
}

static void syncobj_wake_waiters_locked(struct sim_syncobj *s)
{
	struct wait_entry *e = s->waiters, *next;

	for (; e; e = next) {
		next = e->next;
		if (wait_entry_try(s, e))
			wait_entry_unlink(e);
	}
}

static void syncobj_add_wait(struct sim_syncobj *s, struct wait_entry *e)
{
	bool have;

	pthread_mutex_lock(&e->waiter->lock);
	have = e->fence != NULL;
	pthread_mutex_unlock(&e->waiter->lock);
	if (have)
		return;

	pthread_mutex_lock(&s->lock);
	/* Once more under the lock: the fence may have come meanwhile. */
	if (!wait_entry_try(s, e)) {
		e->next = s->waiters;
		e->pprev = &s->waiters;
		if (s->waiters)
			s->waiters->pprev = &e->next;
		s->waiters = e;
	}
	pthread_mutex_unlock(&s->lock);
}

static void syncobj_remove_wait(struct sim_syncobj *s, struct wait_entry *e)
{
	pthread_mutex_lock(&s->lock);
	if (e->pprev)
		wait_entry_unlink(e);
	pthread_mutex_unlock(&s->lock);
}

/* drm_syncobj_replace_fence(): fence may be NULL (reset). */
static void syncobj_replace_fence(struct sim_syncobj *s,
				  struct sim_fence *fence)
{
	struct sim_fence *old;

	sim_fence_get(fence);
	pthread_mutex_lock(&s->lock);
	old = s->fence;
	s->fence = fence;
	if (fence != old)
		syncobj_wake_waiters_locked(s);
	pthread_mutex_unlock(&s->lock);
	sim_fence_put(old);
}

/* drm_syncobj_add_point(): fence becomes timeline point point. */
static int syncobj_add_point(struct sim_syncobj *s, struct sim_fence *fence,
			     uint64_t point)
{
	struct sim_fence *prev, *chain;

	pthread_mutex_lock(&s->lock);
	prev = s->fence;
	chain = sim_fence_chain_new(prev, fence, point);
	if (!chain) {
		pthread_mutex_unlock(&s->lock);
		return -ENOMEM;
	}
	/* The syncobj's reference to prev is the chain's now. */
	s->fence = chain;
	syncobj_wake_waiters_locked(s);
	pthread_mutex_unlock(&s->lock);

	/* One walk down the timeline drops the points already done. */
	while (prev)
		prev = sim_fence_chain_walk(prev);
	return 0;
}

/* drm_syncobj_assign_null_handle(): a new signalled fence. */
static int syncobj_signal(struct sim_syncobj *s)
{
	struct sim_fence *f = sim_fence_new_signaled();

	if (!f)
		return -ENOMEM;
	syncobj_replace_fence(s, f);
	sim_fence_put(f);
	return 0;
}

/* --- handle tables ----------------------------------------------------------- */

struct sim_syncobj_table *sim_syncobj_table_new(void)
{
	struct sim_syncobj_table *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	pthread_mutex_init(&t->lock, NULL);
	return t;
}

void sim_syncobj_table_free(struct sim_syncobj_table *table)
{
	uint32_t i;

	if (!table)
		return;
	for (i = 0; i < table->len; i++)
		syncobj_put(table->slots[i]);
	free(table->slots);
	pthread_mutex_destroy(&table->lock);
	free(table);
}

/* The syncobj behind handle with a reference, or NULL (drm_syncobj_find). */
static struct sim_syncobj *syncobj_find(struct sim_syncobj_table *t,
					uint32_t handle)
{
	struct sim_syncobj *s = NULL;

	pthread_mutex_lock(&t->lock);
	if (handle && handle <= t->len && t->slots[handle - 1])
		s = syncobj_get(t->slots[handle - 1]);
	pthread_mutex_unlock(&t->lock);
	return s;
}

bool sim_syncobj_exists(struct sim_syncobj_table *table, uint32_t handle)
{
	struct sim_syncobj *s = syncobj_find(table, handle);

	syncobj_put(s);
	return s != NULL;
}

/* A new handle for s (the lowest free, as idr_alloc), with its own reference. */
static int handle_alloc(struct sim_syncobj_table *t, struct sim_syncobj *s,
			uint32_t *handle)
{
	uint32_t i;

	pthread_mutex_lock(&t->lock);
	for (i = 0; i < t->len && t->slots[i]; i++)
		;
	if (i == t->len) {
		uint32_t len = t->len ? t->len * 2 : 16;
		struct sim_syncobj **slots;

		if (t->len >= INT32_MAX / 2) {
			pthread_mutex_unlock(&t->lock);
			return -ENOSPC;
		}
		slots = realloc(t->slots, len * sizeof(*slots));
		if (!slots) {
			pthread_mutex_unlock(&t->lock);
			return -ENOMEM;
		}
		memset(slots + t->len, 0, (len - t->len) * sizeof(*slots));
		t->slots = slots;
		t->len = len;
	}
	t->slots[i] = syncobj_get(s);
	pthread_mutex_unlock(&t->lock);
	*handle = i + 1;
	return 0;
}

/*
 * The fence of handle at point (drm_syncobj_find_fence): -ENOENT for an
 * unknown handle, -EINVAL when there is none (yet); with WAIT_FOR_SUBMIT,
 * waits up to 5 s for it to appear (-ETIME).
 */
static int find_fence(struct sim_syncobj_table *t, uint32_t handle,
		      uint64_t point, uint32_t flags, struct sim_fence **out)
{
	struct sim_syncobj *s = syncobj_find(t, handle);
	struct waiter w = { .wakeups = 0 };
	struct wait_entry e;
	pthread_condattr_t attr;
	int64_t deadline;
	int ret;

	if (!s)
		return -ENOENT;

	*out = syncobj_fence_get(s);
	if (*out) {
		ret = sim_fence_chain_find_seqno(out, point);
		if (!ret) {
			/* Point already signalled: hand out a signalled fence. */
			if (!*out) {
				*out = sim_fence_new_signaled();
				if (!*out)
					ret = -ENOMEM;
			}
			goto out;
		}
		sim_fence_put(*out);
		*out = NULL;
	} else {
		ret = -EINVAL;
	}
	if (!(flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
		goto out;

	pthread_mutex_init(&w.lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w.cond, &attr);
	pthread_condattr_destroy(&attr);
	memset(&e, 0, sizeof(e));
	e.waiter = &w;
	e.point = point;
	syncobj_add_wait(s, &e);

	deadline = sim_deadline_ns(WAIT_FOR_SUBMIT_TIMEOUT_NS);
	pthread_mutex_lock(&w.lock);
	while (!e.fence) {
		struct timespec ts = { .tv_sec = deadline / 1000000000,
				       .tv_nsec = deadline % 1000000000 };

		if (sim_now_ns() >= deadline)
			break;
		pthread_cond_timedwait(&w.cond, &w.lock, &ts);
	}
	pthread_mutex_unlock(&w.lock);
	syncobj_remove_wait(s, &e);
	/* Off the list now: e.fence cannot change any more. */
	*out = e.fence;
	ret = e.fence ? 0 : -ETIME;
	pthread_cond_destroy(&w.cond);
	pthread_mutex_destroy(&w.lock);
out:
	syncobj_put(s);
	return ret;
}

int sim_syncobj_find_fence(struct sim_syncobj_table *table, uint32_t handle,
			   uint64_t point, struct sim_fence **out)
{
	*out = NULL;
	return find_fence(table, handle, point, 0, out);
}

int sim_syncobj_replace_fence(struct sim_syncobj_table *table,
			      uint32_t handle, uint64_t point,
			      struct sim_fence *fence)
{
	struct sim_syncobj *s = syncobj_find(table, handle);
	int ret = 0;

	if (!s)
		return -ENOENT;
	if (point)
		ret = syncobj_add_point(s, fence, point);
	else
		syncobj_replace_fence(s, fence);
	syncobj_put(s);
	return ret;
}

/* --- syncobj fds --------------------------------------------------------------- */

static void syncobj_file_release(void *obj)
{
	syncobj_put(obj);
}

/* No ioctl: the kernel's syncobj file has none either (-ENOTTY). */
static const struct sim_fd_ops syncobj_file_ops = {
	.name = "syncobj_file",
	.release = syncobj_file_release,
};

/* --- sync_files ------------------------------------------------------------------ */

/*
 * poll(): the fd is the registry's eventfd, so a count written to it makes
 * it readable. The sync_file keeps a duplicate of its own to write to when
 * the fence signals (POLLIN once signalled, as sync_file_poll() says), so
 * no write can reach a number that was closed and handed out again.
 */
struct sim_sync_file {
	struct sim_fence *fence;
	char user_name[32];             /* "": named after its fence */
	int poll_fd;                    /* -1: none */
	struct sim_fence_cb poll_cb;
	bool poll_cb_added;
};

static int sync_file_ioctl(void *obj, unsigned long request, void *arg);

static void sync_file_make_readable(struct sim_sync_file *sf)
{
	uint64_t one = 1;

	if (write(sf->poll_fd, &one, sizeof(one)) < 0) {
		/* Not an eventfd after all: poll() just never says POLLIN. */
	}
}

static void sync_file_poll_func(struct sim_fence *fence,
				struct sim_fence_cb *cb)
{
	(void)fence;
	sync_file_make_readable((struct sim_sync_file *)
		((char *)cb - offsetof(struct sim_sync_file, poll_cb)));
}

static void sync_file_release(void *obj)
{
	struct sim_sync_file *sf = obj;

	if (sf->poll_cb_added)
		sim_fence_remove_callback(sf->fence, &sf->poll_cb);
	if (sf->poll_fd >= 0)
		close(sf->poll_fd);
	sim_fence_put(sf->fence);
	free(sf);
}

static const struct sim_fd_ops sync_file_ops = {
	.name = "sync_file",
	.ioctl = sync_file_ioctl,
	.release = sync_file_release,
};

/* A sync_file fd for fence (a reference taken), or a negative errno. */
static int sync_file_install(struct sim_fence *fence, const char *name)
{
	struct sim_sync_file *sf = calloc(1, sizeof(*sf));
	int fd;

	if (!sf)
		return -ENOMEM;
	sf->fence = sim_fence_get(fence);
	sf->poll_fd = -1;
	if (name)
		snprintf(sf->user_name, sizeof(sf->user_name), "%s", name);
	fd = sim_fd_install(&sync_file_ops, sf, true);
	if (fd < 0) {
		sync_file_release(sf);
		return fd;
	}
	/* Not handed out yet: nobody else can have closed fd. */
	sf->poll_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (sf->poll_fd >= 0) {
		if (sim_fence_add_callback(fence, &sf->poll_cb,
					   sync_file_poll_func))
			sync_file_make_readable(sf);
		else
			sf->poll_cb_added = true;
	}
	return fd;
}

/* The fence of a sync_file fd with a reference, or NULL. */
static struct sim_fence *sync_file_get_fence(int fd)
{
	struct sim_sync_file *sf = sim_fd_get(fd, &sync_file_ops, NULL);
	struct sim_fence *f;

	if (!sf)
		return NULL;
	f = sim_fence_get(sf->fence);
	sim_fd_put(fd);
	return f;
}

static void sync_file_name(struct sim_sync_file *sf, char *buf, size_t len)
{
	struct sim_fence *f = sf->fence;

	if (sf->user_name[0])
		snprintf(buf, len, "%s", sf->user_name);
	else
		snprintf(buf, len, "%s-%s%llu-%lld", sim_fence_driver_name(f),
			 sim_fence_timeline_name(f),
			 (unsigned long long)sim_fence_context(f),
			 (long long)sim_fence_seqno(f));
}

static int sync_file_merge(struct sim_sync_file *sf, void *arg)
{
	struct sync_merge_data data;
	struct sim_fence *other, *fences[2], *merged;
	int fd, ret;

	if (sim_copy_from_user(&data, (uintptr_t)arg, sizeof(data)))
		return -EFAULT;
	if (data.flags || data.pad)
		return -EINVAL;
	other = sync_file_get_fence(data.fd2);
	if (!other)
		return -ENOENT;

	fences[0] = sf->fence;
	fences[1] = other;
	merged = sim_fence_merge(fences, 2);
	sim_fence_put(other);
	if (!merged)
		return -ENOMEM;
	data.name[sizeof(data.name) - 1] = '\0';
	fd = sync_file_install(merged, data.name);
	sim_fence_put(merged);
	if (fd < 0)
		return fd;

	data.fence = fd;
	ret = sim_copy_to_user((uintptr_t)arg, &data, sizeof(data));
	if (ret) {
		/* As the kernel: the new file goes away unseen. */
		sim_fd_close(fd);
		return ret;
	}
	return 0;
}

static int fence_info_fill(struct sim_fence *f, struct sync_fence_info *info)
{
	snprintf(info->obj_name, sizeof(info->obj_name), "%s",
		 sim_fence_timeline_name(f));
	snprintf(info->driver_name, sizeof(info->driver_name), "%s",
		 sim_fence_driver_name(f));
	info->status = sim_fence_status(f);
	info->flags = 0;
	info->timestamp_ns = info->status ? sim_fence_timestamp_ns(f) : 0;
	return info->status;
}

static int sync_file_info(struct sim_sync_file *sf, void *arg)
{
	struct sync_file_info info;
	struct sync_fence_info *fence_info;
	struct sim_fence_unwrap iter;
	struct sim_fence *f;
	unsigned int num_fences = 0, i;
	int ret;

	if (sim_copy_from_user(&info, (uintptr_t)arg, sizeof(info)))
		return -EFAULT;
	if (info.flags || info.pad)
		return -EINVAL;

	sim_fence_unwrap_for_each(f, &iter, sf->fence)
		num_fences++;

	/* num_fences 0: only the count and the status of the whole. */
	if (!info.num_fences) {
		info.status = sim_fence_status(sf->fence);
		goto done;
	}
	if (info.num_fences < num_fences)
		return -EINVAL;

	fence_info = calloc(num_fences ? num_fences : 1, sizeof(*fence_info));
	if (!fence_info)
		return -ENOMEM;
	/* The first error, else pending while any is, else signalled. */
	info.status = 1;
	i = 0;
	sim_fence_unwrap_for_each(f, &iter, sf->fence) {
		int status;

		/* The chain may have dropped points since the count. */
		if (i == num_fences)
			continue;
		status = fence_info_fill(f, &fence_info[i++]);
		if (info.status > 0)
			info.status = status;
	}
	num_fences = i;
	ret = sim_copy_to_user(info.sync_fence_info, fence_info,
			       num_fences * sizeof(*fence_info));
	free(fence_info);
	if (ret)
		return -EFAULT;
done:
	sync_file_name(sf, info.name, sizeof(info.name));
	info.num_fences = num_fences;
	if (sim_copy_to_user((uintptr_t)arg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static int sync_file_ioctl(void *obj, unsigned long request, void *arg)
{
	switch (request) {
	case SYNC_IOC_MERGE:
		return sync_file_merge(obj, arg);
	case SYNC_IOC_FILE_INFO:
		return sync_file_info(obj, arg);
	default:
		return -ENOTTY;
	}
}

/* --- the ioctls ------------------------------------------------------------------- */

static int ioctl_create(struct sim_syncobj_table *t,
			struct drm_syncobj_create *args)
{
	struct sim_syncobj *s;
	int ret = 0;

	if (args->flags & ~DRM_SYNCOBJ_CREATE_SIGNALED)
		return -EINVAL;
	s = syncobj_new();
	if (!s)
		return -ENOMEM;
	if (args->flags & DRM_SYNCOBJ_CREATE_SIGNALED)
		ret = syncobj_signal(s);
	if (!ret)
		ret = handle_alloc(t, s, &args->handle);
	syncobj_put(s);
	return ret;
}

static int ioctl_destroy(struct sim_syncobj_table *t,
			 struct drm_syncobj_destroy *args)
{
	struct sim_syncobj *s = NULL;

	if (args->pad)
		return -EINVAL;
	pthread_mutex_lock(&t->lock);
	if (args->handle && args->handle <= t->len) {
		s = t->slots[args->handle - 1];
		t->slots[args->handle - 1] = NULL;
	}
	pthread_mutex_unlock(&t->lock);
	if (!s)
		return -EINVAL;
	syncobj_put(s);
	return 0;
}

static int export_sync_file(struct sim_syncobj_table *t, uint32_t handle,
			    int *fd_out)
{
	struct sim_fence *fence;
	int ret, fd;

	ret = find_fence(t, handle, 0, 0, &fence);
	if (ret)
		return ret;
	fd = sync_file_install(fence, NULL);
	sim_fence_put(fence);
	if (fd < 0)
		return fd;
	*fd_out = fd;
	return 0;
}

static int ioctl_handle_to_fd(struct sim_syncobj_table *t,
			      struct drm_syncobj_handle *args)
{
	struct sim_syncobj *s;
	int fd;

	if (args->pad)
		return -EINVAL;
	if (args->flags != 0 &&
	    args->flags != DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE)
		return -EINVAL;
	if (args->flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE)
		return export_sync_file(t, args->handle, &args->fd);

	s = syncobj_find(t, args->handle);
	if (!s)
		return -EINVAL;
	/* The fd's reference is the one syncobj_find() took. */
	fd = sim_fd_install(&syncobj_file_ops, s, true);
	if (fd < 0) {
		syncobj_put(s);
		return fd;
	}
	args->fd = fd;
	return 0;
}

static int import_sync_file(struct sim_syncobj_table *t, int fd,
			    uint32_t handle)
{
	struct sim_fence *fence = sync_file_get_fence(fd);
	struct sim_syncobj *s;

	if (!fence)
		return -EINVAL;
	s = syncobj_find(t, handle);
	if (!s) {
		sim_fence_put(fence);
		return -ENOENT;
	}
	syncobj_replace_fence(s, fence);
	sim_fence_put(fence);
	syncobj_put(s);
	return 0;
}

static int ioctl_fd_to_handle(struct sim_syncobj_table *t,
			      struct drm_syncobj_handle *args)
{
	struct sim_syncobj *s;
	int ret;

	if (args->pad)
		return -EINVAL;
	if (args->flags != 0 &&
	    args->flags != DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE)
		return -EINVAL;
	if (args->flags & DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE)
		return import_sync_file(t, args->fd, args->handle);

	s = sim_fd_get(args->fd, &syncobj_file_ops, NULL);
	if (!s)
		return -EINVAL;
	ret = handle_alloc(t, s, &args->handle);
	sim_fd_put(args->fd);
	return ret;
}

/* drm_syncobj_array_find(): every handle's syncobj, with references. */
static int array_find(struct sim_syncobj_table *t, uint64_t user_handles,
		      uint32_t count, struct sim_syncobj ***out)
{
	struct sim_syncobj **objs;
	uint32_t *handles, i;
	int ret;

	handles = kmalloc_array(count, sizeof(*handles));
	if (!handles)
		return -ENOMEM;
	if (sim_copy_from_user(handles, user_handles,
			       (size_t)count * sizeof(*handles))) {
		free(handles);
		return -EFAULT;
	}
	objs = kmalloc_array(count, sizeof(*objs));
	if (!objs) {
		free(handles);
		return -ENOMEM;
	}
	for (i = 0; i < count; i++) {
		objs[i] = syncobj_find(t, handles[i]);
		if (!objs[i]) {
			ret = -ENOENT;
			while (i--)
				syncobj_put(objs[i]);
			free(objs);
			free(handles);
			return ret;
		}
	}
	free(handles);
	*out = objs;
	return 0;
}

static void array_free(struct sim_syncobj **objs, uint32_t count)
{
	uint32_t i;

	for (i = 0; i < count; i++)
		syncobj_put(objs[i]);
	free(objs);
}

static void wait_fence_func(struct sim_fence *fence, struct sim_fence_cb *cb)
{
	struct wait_entry *e = (struct wait_entry *)
		((char *)cb - offsetof(struct wait_entry, fence_cb));

	(void)fence;
	waiter_wake(e->waiter);
}

/*
 * drm_syncobj_array_wait_timeout(): 0, with *idx the first signalled
 * entry when not waiting for all, or -ETIME, -EINVAL, -EFAULT, -ENOMEM.
 * deadline is the ioctl's timeout_nsec, an absolute CLOCK_MONOTONIC time:
 * 0 or a time already past polls once (drm_timeout_abs_to_jiffies).
 */
static int array_wait(struct sim_syncobj **objs, uint64_t user_points,
		      uint32_t count, uint32_t flags, int64_t deadline,
		      uint32_t *idx)
{
	const uint32_t submit = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE;
	const bool available = flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE;
	const bool all = flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	struct wait_entry *entries;
	struct waiter w = { .wakeups = 0 };
	pthread_condattr_t attr;
	uint64_t *points;
	uint32_t signaled, i;
	int ret = 0;

	points = kmalloc_array(count, sizeof(*points));
	if (!points)
		return -ENOMEM;
	if (user_points &&
	    sim_copy_from_user(points, user_points,
			       (size_t)count * sizeof(*points))) {
		free(points);
		return -EFAULT;
	}
	entries = (size_t)count > KMALLOC_MAX / KERNEL_WAIT_ENTRY_SIZE ? NULL :
		  calloc(count, sizeof(*entries));
	if (!entries) {
		free(points);
		return -ENOMEM;
	}
	pthread_mutex_init(&w.lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&w.cond, &attr);
	pthread_condattr_destroy(&attr);

	/*
	 * Every entry's fence first, so that a missing one is -EINVAL before
	 * any waiting (and never after).
	 */
	signaled = 0;
	for (i = 0; i < count; i++) {
		struct sim_fence *f;

		entries[i].waiter = &w;
		entries[i].point = points[i];
		f = syncobj_fence_get(objs[i]);
		if (!f || sim_fence_chain_find_seqno(&f, points[i])) {
			sim_fence_put(f);
			if (flags & submit)
				continue;
			ret = -EINVAL;
			goto cleanup;
		}
		if (!f)
			f = sim_fence_new_signaled();
		if (!f) {
			ret = -ENOMEM;
			goto cleanup;
		}
		entries[i].fence = f;
		if (available || sim_fence_is_signaled(f)) {
			if (!signaled && idx)
				*idx = i;
			signaled++;
		}
	}
	if (signaled == count || (signaled && !all))
		goto cleanup;

	if (flags & submit) {
		for (i = 0; i < count; i++)
			syncobj_add_wait(objs[i], &entries[i]);
	}

	for (;;) {
		unsigned int wakeups;

		pthread_mutex_lock(&w.lock);
		wakeups = w.wakeups;
		pthread_mutex_unlock(&w.lock);

		signaled = 0;
		for (i = 0; i < count; i++) {
			struct wait_entry *e = &entries[i];
			struct sim_fence *f;

			pthread_mutex_lock(&w.lock);
			f = e->fence;
			pthread_mutex_unlock(&w.lock);
			if (!f)
				continue;
			if (available || sim_fence_is_signaled(f) ||
			    (!e->fence_cb_added &&
			     sim_fence_add_callback(f, &e->fence_cb,
						    wait_fence_func))) {
				if (all) {
					signaled++;
				} else {
					if (idx)
						*idx = i;
					goto cleanup;
				}
			} else {
				e->fence_cb_added = true;
			}
		}
		if (signaled == count)
			break;

		pthread_mutex_lock(&w.lock);
		while (w.wakeups == wakeups) {
			struct timespec ts;

			if (deadline <= sim_now_ns()) {
				ret = -ETIME;
				break;
			}
			ts.tv_sec = deadline / 1000000000;
			ts.tv_nsec = deadline % 1000000000;
			pthread_cond_timedwait(&w.cond, &w.lock, &ts);
		}
		pthread_mutex_unlock(&w.lock);
		if (ret)
			break;
	}

cleanup:
	for (i = 0; i < count; i++) {
		struct wait_entry *e = &entries[i];

		syncobj_remove_wait(objs[i], e);
		if (e->fence_cb_added)
			sim_fence_remove_callback(e->fence, &e->fence_cb);
		sim_fence_put(e->fence);
	}
	free(entries);
	free(points);
	pthread_cond_destroy(&w.cond);
	pthread_mutex_destroy(&w.lock);
	return ret;
}

static int ioctl_wait(struct sim_syncobj_table *t,
		      struct drm_syncobj_wait *args)
{
	struct sim_syncobj **objs;
	uint32_t first = ~0u;
	int ret;

	if (args->flags & ~(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT))
		return -EINVAL;
	if (!args->count_handles)
		return -EINVAL;
	ret = array_find(t, args->handles, args->count_handles, &objs);
	if (ret)
		return ret;
	ret = array_wait(objs, 0, args->count_handles, args->flags,
			 args->timeout_nsec, &first);
	array_free(objs, args->count_handles);
	if (!ret)
		args->first_signaled = first;
	return ret;
}

static int ioctl_timeline_wait(struct sim_syncobj_table *t,
			       struct drm_syncobj_timeline_wait *args)
{
	struct sim_syncobj **objs;
	uint32_t first = ~0u;
	int ret;

	if (args->flags & ~(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE))
		return -EINVAL;
	if (!args->count_handles)
		return -EINVAL;
	ret = array_find(t, args->handles, args->count_handles, &objs);
	if (ret)
		return ret;
	ret = array_wait(objs, args->points, args->count_handles, args->flags,
			 args->timeout_nsec, &first);
	array_free(objs, args->count_handles);
	if (!ret)
		args->first_signaled = first;
	return ret;
}

static int ioctl_reset_or_signal(struct sim_syncobj_table *t,
				 struct drm_syncobj_array *args, bool signal)
{
	struct sim_syncobj **objs;
	uint32_t i;
	int ret;

	if (args->pad)
		return -EINVAL;
	if (!args->count_handles)
		return -EINVAL;
	ret = array_find(t, args->handles, args->count_handles, &objs);
	if (ret)
		return ret;
	for (i = 0; !ret && i < args->count_handles; i++) {
		if (signal)
			ret = syncobj_signal(objs[i]);
		else
			syncobj_replace_fence(objs[i], NULL);
	}
	array_free(objs, args->count_handles);
	return ret;
}

static int ioctl_timeline_signal(struct sim_syncobj_table *t,
				 struct drm_syncobj_timeline_array *args)
{
	struct sim_syncobj **objs;
	uint64_t *points;
	uint32_t i;
	int ret;

	if (args->flags)
		return -EINVAL;
	if (!args->count_handles)
		return -EINVAL;
	ret = array_find(t, args->handles, args->count_handles, &objs);
	if (ret)
		return ret;
	points = kmalloc_array(args->count_handles, sizeof(*points));
	if (!points) {
		ret = -ENOMEM;
	} else if (args->points &&
		   sim_copy_from_user(points, args->points,
				      (size_t)args->count_handles *
				      sizeof(*points))) {
		ret = -EFAULT;
	}
	for (i = 0; !ret && i < args->count_handles; i++) {
		struct sim_fence *f = sim_fence_new_signaled();

		ret = f ? syncobj_add_point(objs[i], f, points[i]) : -ENOMEM;
		sim_fence_put(f);
	}
	free(points);
	array_free(objs, args->count_handles);
	return ret;
}

/* The point a timeline has reached, as drm_syncobj_query_ioctl() says. */
static uint64_t timeline_point(struct sim_fence *fence, bool last_submitted)
{
	struct sim_fence *it, *last;
	uint64_t point;

	if (!sim_fence_is_chain(fence))
		return 0;
	if (last_submitted)
		return sim_fence_seqno(fence);

	/* The oldest point still in the chain, of the same timeline. */
	last = sim_fence_get(fence);
	for (it = sim_fence_get(fence); it; it = sim_fence_chain_walk(it)) {
		if (sim_fence_context(it) != sim_fence_context(fence)) {
			sim_fence_put(it);
			break;
		}
		sim_fence_put(last);
		last = sim_fence_get(it);
	}
	point = sim_fence_is_signaled(last) ? sim_fence_seqno(last) :
		sim_fence_chain_prev_seqno(last);
	sim_fence_put(last);
	return point;
}

static int ioctl_query(struct sim_syncobj_table *t,
		       struct drm_syncobj_timeline_array *args)
{
	struct sim_syncobj **objs;
	uint32_t i;
	int ret;

	if (args->flags & ~DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED)
		return -EINVAL;
	if (!args->count_handles)
		return -EINVAL;
	ret = array_find(t, args->handles, args->count_handles, &objs);
	if (ret)
		return ret;
	for (i = 0; i < args->count_handles; i++) {
		struct sim_fence *f = syncobj_fence_get(objs[i]);
		uint64_t point = f ? timeline_point(f, args->flags &
				      DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED) : 0;

		sim_fence_put(f);
		if (sim_copy_to_user(args->points + i * sizeof(point), &point,
				     sizeof(point))) {
			ret = -EFAULT;
			break;
		}
	}
	array_free(objs, args->count_handles);
	return ret;
}

static int ioctl_transfer(struct sim_syncobj_table *t,
			  struct drm_syncobj_transfer *args)
{
	struct sim_syncobj *dst;
	struct sim_fence *fence, *merged;
	int ret;

	if (args->pad)
		return -EINVAL;
	dst = syncobj_find(t, args->dst_handle);
	if (!dst)
		return -ENOENT;
	ret = find_fence(t, args->src_handle, args->src_point, args->flags,
			 &fence);
	if (ret)
		goto out;
	if (!args->dst_point) {
		syncobj_replace_fence(dst, fence);
		sim_fence_put(fence);
		goto out;
	}
	/* Into a timeline: the pending fences inside, without containers. */
	merged = sim_fence_merge(&fence, 1);
	sim_fence_put(fence);
	if (!merged) {
		ret = -ENOMEM;
		goto out;
	}
	ret = syncobj_add_point(dst, merged, args->dst_point);
	sim_fence_put(merged);
out:
	syncobj_put(dst);
	return ret;
}

int sim_syncobj_ioctl(struct sim_syncobj_table *table, unsigned long request,
		      void *arg)
{
	if (_IOC_TYPE(request) != DRM_IOCTL_BASE)
		return -ENOTTY;
	switch (_IOC_NR(request)) {
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_CREATE):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_DESTROY):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_WAIT):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_RESET):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_QUERY):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_TRANSFER):
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL):
		break;
	default:
		return -ENOTTY;
	}
	if (!arg)
		return -EFAULT;

	switch (_IOC_NR(request)) {
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_CREATE):
		return ioctl_create(table, arg);
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_DESTROY):
		return ioctl_destroy(table, arg);
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD):
		return ioctl_handle_to_fd(table, arg);
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE):
		return ioctl_fd_to_handle(table, arg);
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_WAIT):
		return ioctl_wait(table, arg);
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_RESET):
		return ioctl_reset_or_signal(table, arg, false);
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
		return ioctl_reset_or_signal(table, arg, true);
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT):
		return ioctl_timeline_wait(table, arg);
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_QUERY):
		return ioctl_query(table, arg);
	case _IOC_NR(DRM_IOCTL_SYNCOBJ_TRANSFER):
		return ioctl_transfer(table, arg);
	default:
		return ioctl_timeline_signal(table, arg);
	}
}
