/* SPDX-License-Identifier: MIT */
/*
 * The simulator's file descriptors (sim_fd.h). Each is a real eventfd, so
 * its number is the process's own and cannot be handed out twice; a table
 * indexed by that number says what it stands for.
 *
 * Lifetime: the fd holds one reference to its entry and every call running
 * on it (sim_fd_get) another. close() drops the fd's reference; the real
 * descriptor is closed, and the object released, when the last reference
 * goes. Until then the number stays taken (so a sim_fd_put() by number
 * still finds its entry) but is no longer usable: sim_fd_get() and the
 * routed calls say EBADF, as for a closed fd.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim_fd.h"

int __real_close(int fd);

struct sim_fd_entry {
	const struct sim_fd_ops *ops;
	void *obj;
	unsigned int refs;
	bool closed;
};

static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_fd_entry **fd_table;
static size_t fd_table_len;
/* Entries alive: lets close() of other fds skip the lock. */
static unsigned int fd_count;
/* Of those, entries with read or write ops: read()/write() skip the rest. */
static unsigned int rw_fd_count;

static struct sim_fd_entry *entry_locked(int fd)
{
	if (fd < 0 || (size_t)fd >= fd_table_len)
		return NULL;
	return fd_table[fd];
}

static int table_grow_locked(int fd)
{
	size_t len = fd_table_len ? fd_table_len : 64;
	struct sim_fd_entry **t;

	while (len <= (size_t)fd)
		len *= 2;
	if (len == fd_table_len)
		return 0;
	t = realloc(fd_table, len * sizeof(*t));
	if (!t)
		return -ENOMEM;
	memset(t + fd_table_len, 0, (len - fd_table_len) * sizeof(*t));
	fd_table = t;
	fd_table_len = len;
	return 0;
}

int sim_fd_install(const struct sim_fd_ops *ops, void *obj, bool cloexec)
{
	struct sim_fd_entry *e = calloc(1, sizeof(*e));
	int fd, err;

	if (!e)
		return -ENOMEM;
	fd = eventfd(0, cloexec ? EFD_CLOEXEC : 0);
	if (fd < 0) {
		err = -errno;
		free(e);
		return err;
	}
	e->ops = ops;
	e->obj = obj;
	e->refs = 1;

	pthread_mutex_lock(&fd_lock);
	err = table_grow_locked(fd);
	if (!err) {
		fd_table[fd] = e;
		__atomic_add_fetch(&fd_count, 1, __ATOMIC_RELAXED);
		if (ops->read || ops->write)
			__atomic_add_fetch(&rw_fd_count, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&fd_lock);
	if (err) {
		__real_close(fd);
		free(e);
		return err;
	}
	return fd;
}

void *sim_fd_get(int fd, const struct sim_fd_ops *ops,
		 const struct sim_fd_ops **ops_out)
{
	struct sim_fd_entry *e;
	void *obj = NULL;

	pthread_mutex_lock(&fd_lock);
	e = entry_locked(fd);
	if (e && !e->closed && (!ops || e->ops == ops)) {
		e->refs++;
		obj = e->obj;
		if (ops_out)
			*ops_out = e->ops;
	}
	pthread_mutex_unlock(&fd_lock);
	return obj;
}

/* Drops a reference with fd_lock held; the entry to release, or NULL. */
static struct sim_fd_entry *put_locked(int fd, struct sim_fd_entry *e)
{
	if (--e->refs)
		return NULL;
	fd_table[fd] = NULL;
	__atomic_sub_fetch(&fd_count, 1, __ATOMIC_RELAXED);
	if (e->ops->read || e->ops->write)
		__atomic_sub_fetch(&rw_fd_count, 1, __ATOMIC_RELAXED);
	/* Under the lock, so the number is not reused before the slot is free. */
	__real_close(fd);
	return e;
}

static void release(struct sim_fd_entry *e)
{
	if (!e)
		return;
	if (e->ops->release)
		e->ops->release(e->obj);
	free(e);
}

void sim_fd_put(int fd)
{
	struct sim_fd_entry *e, *dead = NULL;

	pthread_mutex_lock(&fd_lock);
	e = entry_locked(fd);
	if (e)
		dead = put_locked(fd, e);
	pthread_mutex_unlock(&fd_lock);
	release(dead);
}

bool sim_fd_is_ours(int fd)
{
	bool ours;

	if (!__atomic_load_n(&fd_count, __ATOMIC_RELAXED))
		return false;
	pthread_mutex_lock(&fd_lock);
	ours = entry_locked(fd) != NULL;
	pthread_mutex_unlock(&fd_lock);
	return ours;
}

int sim_fd_ioctl(int fd, unsigned long request, void *arg)
{
	const struct sim_fd_ops *ops;
	void *obj = sim_fd_get(fd, NULL, &ops);
	int ret;

	if (!obj)
		return -EBADF;
	ret = ops->ioctl ? ops->ioctl(obj, request, arg) : -ENOTTY;
	sim_fd_put(fd);
	return ret;
}

void *sim_fd_mmap(int fd, void *addr, size_t len, int prot, int flags,
		  off_t offset)
{
	const struct sim_fd_ops *ops;
	void *obj = sim_fd_get(fd, NULL, &ops);
	void *ret;
	int err;

	if (!obj) {
		errno = EBADF;
		return MAP_FAILED;
	}
	if (ops->mmap) {
		ret = ops->mmap(obj, addr, len, prot, flags, offset);
	} else {
		errno = ENODEV;
		ret = MAP_FAILED;
	}
	err = errno;
	sim_fd_put(fd);
	errno = err;
	return ret;
}

static bool fd_rw(int fd, bool is_read, void *rbuf, const void *wbuf,
		  size_t len, ssize_t *ret)
{
	const struct sim_fd_ops *ops;
	void *obj;
	ssize_t n;

	if (!__atomic_load_n(&rw_fd_count, __ATOMIC_RELAXED))
		return false;
	obj = sim_fd_get(fd, NULL, &ops);
	if (!obj)
		return false;
	if (is_read ? !ops->read : !ops->write) {
		sim_fd_put(fd);
		return false;
	}
	n = is_read ? ops->read(obj, rbuf, len) : ops->write(obj, wbuf, len);
	sim_fd_put(fd);
	if (n < 0) {
		errno = (int)-n;
		n = -1;
	}
	*ret = n;
	return true;
}

bool sim_fd_read(int fd, void *buf, size_t len, ssize_t *ret)
{
	return fd_rw(fd, true, buf, NULL, len, ret);
}

bool sim_fd_write(int fd, const void *buf, size_t len, ssize_t *ret)
{
	return fd_rw(fd, false, NULL, buf, len, ret);
}

int sim_fd_close(int fd)
{
	struct sim_fd_entry *e, *dead = NULL;
	int ret = 0;

	pthread_mutex_lock(&fd_lock);
	e = entry_locked(fd);
	if (!e) {
		pthread_mutex_unlock(&fd_lock);
		return __real_close(fd);
	}
	if (e->closed) {
		ret = -1;
		errno = EBADF;
	} else {
		e->closed = true;
		dead = put_locked(fd, e);
	}
	pthread_mutex_unlock(&fd_lock);
	release(dead);
	return ret;
}

/*
 * In a child after fork(): the parent's objects are not the child's (its
 * device is a new one), so every fd inherited from the parent is closed
 * and forgotten; the objects stay with the parent.
 */
static struct sim_fd_entry **parents_fds;   /* kept reachable, unused */

static void forget_after_fork(void)
{
	pthread_mutex_init(&fd_lock, NULL);
	for (size_t fd = 0; fd < fd_table_len; fd++) {
		if (fd_table[fd])
			__real_close((int)fd);
	}
	parents_fds = fd_table;
	fd_table = NULL;
	fd_table_len = 0;
	fd_count = 0;
	rw_fd_count = 0;
}

__attribute__((constructor)) static void sim_fd_init(void)
{
	pthread_atfork(NULL, NULL, forget_after_fork);
}
