/* SPDX-License-Identifier: MIT */
/*
 * The simulator's file descriptors. Everything the simulated kernel hands
 * to userspace as a file (the render node itself, a dma-buf, a sync_file,
 * a syncobj fd) is a real file descriptor of the process, so close(),
 * dup() of the number, poll() and fd limits behave as usual; this registry
 * says which of them are the simulator's and what object each stands for.
 * sim_intercept.c routes ioctl()/mmap()/close() on a registered fd to its
 * ops; every other fd goes to the C library untouched.
 */
#ifndef SLEIPNIR_SIM_FD_H
#define SLEIPNIR_SIM_FD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct sim_fd_ops {
	const char *name;            /* for memfd_create() and messages */
	/* An ioctl on the fd: 0, a positive result, or a negative errno. */
	int (*ioctl)(void *obj, unsigned long request, void *arg);
	/*
	 * Optional. mmap() of the fd; returns the mapping or MAP_FAILED with
	 * errno set. NULL: mmap fails with ENODEV.
	 */
	void *(*mmap)(void *obj, void *addr, size_t len, int prot, int flags,
		      off_t offset);
	/* The last reference is gone (the fd was closed, no call is running). */
	void (*release)(void *obj);
	/*
	 * Optional. read() / write() of the fd: the count, or a negative
	 * errno. NULL: the call goes to the real fd (the eventfd) as before.
	 */
	ssize_t (*read)(void *obj, void *buf, size_t len);
	ssize_t (*write)(void *obj, const void *buf, size_t len);
};

/*
 * Registers obj behind a new real fd (O_CLOEXEC when cloexec). Returns the
 * fd, or a negative errno (obj is then not registered: the caller keeps it).
 */
int sim_fd_install(const struct sim_fd_ops *ops, void *obj, bool cloexec);

/*
 * The object behind fd if it is one of ours with these ops (ops NULL: any),
 * with a reference the caller drops with sim_fd_put(); NULL otherwise.
 * *ops_out (if given) receives the fd's ops.
 */
void *sim_fd_get(int fd, const struct sim_fd_ops *ops,
		 const struct sim_fd_ops **ops_out);
void sim_fd_put(int fd);

/*
 * For sim_intercept.c: whether fd is ours; and the calls routed to it.
 * sim_fd_close() unregisters the fd and closes the real descriptor; the
 * object is released once no call on it is running.
 */
bool sim_fd_is_ours(int fd);
int sim_fd_ioctl(int fd, unsigned long request, void *arg);
void *sim_fd_mmap(int fd, void *addr, size_t len, int prot, int flags,
		  off_t offset);
int sim_fd_close(int fd);
/*
 * read()/write() of fd through its ops: true and *ret (the count, or -1
 * with errno set) when the fd is ours and has the op; false when the call
 * is the C library's.
 */
bool sim_fd_read(int fd, void *buf, size_t len, ssize_t *ret);
bool sim_fd_write(int fd, const void *buf, size_t len, ssize_t *ret);

#endif
