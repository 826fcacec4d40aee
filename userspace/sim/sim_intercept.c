/* SPDX-License-Identifier: MIT */
/*
 * The doors into the simulator. Programs linked with sleipnir_sim_dep have
 * their (and the static libdrm's) calls of these functions renamed by the
 * linker's --wrap to __wrap_<name>; the C library's own stay reachable as
 * __real_<name>. Calls about the simulated node or one of the simulator's
 * fds are served here, everything else goes on to the C library untouched.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "sim_core.h"
#include "sim_fd.h"

int __real_open(const char *path, int flags, ...);
int __real_open64(const char *path, int flags, ...);
int __real_openat(int dirfd, const char *path, int flags, ...);
int __real_openat64(int dirfd, const char *path, int flags, ...);
int __real_close(int fd);
int __real_ioctl(int fd, unsigned long request, ...);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t offset);
void *__real_mmap64(void *addr, size_t len, int prot, int flags, int fd,
		    off_t offset);
int __real_munmap(void *addr, size_t len);
void *__real_mremap(void *old, size_t old_len, size_t new_len, int flags, ...);
ssize_t __real_read(int fd, void *buf, size_t len);
ssize_t __real_write(int fd, const void *buf, size_t len);
DIR *__real_opendir(const char *path);
struct dirent *__real_readdir(DIR *dir);
struct dirent64 *__real_readdir64(DIR *dir);
int __real_closedir(DIR *dir);

int __wrap_open(const char *path, int flags, ...);
int __wrap_open64(const char *path, int flags, ...);
int __wrap_openat(int dirfd, const char *path, int flags, ...);
int __wrap_openat64(int dirfd, const char *path, int flags, ...);
int __wrap_close(int fd);
int __wrap_ioctl(int fd, unsigned long request, ...);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t offset);
void *__wrap_mmap64(void *addr, size_t len, int prot, int flags, int fd,
		    off_t offset);
int __wrap_munmap(void *addr, size_t len);
void *__wrap_mremap(void *old, size_t old_len, size_t new_len, int flags, ...);
ssize_t __wrap_read(int fd, void *buf, size_t len);
ssize_t __wrap_write(int fd, const void *buf, size_t len);
DIR *__wrap_opendir(const char *path);
struct dirent *__wrap_readdir(DIR *dir);
struct dirent64 *__wrap_readdir64(DIR *dir);
int __wrap_closedir(DIR *dir);

/* --- copies from and to the caller's memory ------------------------------ */

/*
 * process_vm_readv/writev on ourselves fail with EFAULT where a plain
 * memcpy would crash. Where they are not allowed (a seccomp filter), the
 * copy is made directly.
 */
static bool vm_copy_unavailable;

static int vm_copy(void *local, uint64_t remote, size_t len, bool to_user)
{
	struct iovec l = { .iov_base = local, .iov_len = len };
	struct iovec r = { .iov_base = (void *)(uintptr_t)remote,
			   .iov_len = len };
	ssize_t n;

	if (!len)
		return 0;
	if (remote + len < remote)
		return -EFAULT;
	if (!__atomic_load_n(&vm_copy_unavailable, __ATOMIC_RELAXED)) {
		n = to_user ? process_vm_writev(getpid(), &l, 1, &r, 1, 0) :
			      process_vm_readv(getpid(), &l, 1, &r, 1, 0);
		if (n == (ssize_t)len)
			return 0;
		if (n >= 0 || errno == EFAULT)
			return -EFAULT;
		if (errno != ENOSYS && errno != EPERM)
			return -EFAULT;
		__atomic_store_n(&vm_copy_unavailable, true, __ATOMIC_RELAXED);
	}
	if (!remote)
		return -EFAULT;
	if (to_user)
		memcpy(r.iov_base, local, len);
	else
		memcpy(local, r.iov_base, len);
	return 0;
}

int sim_copy_from_user(void *dst, uint64_t user_src, size_t len)
{
	return vm_copy(dst, user_src, len, false);
}

int sim_copy_to_user(uint64_t user_dst, const void *src, size_t len)
{
	return vm_copy((void *)src, user_dst, len, true);
}

/* --- open ------------------------------------------------------------------ */

/*
 * Whether path (relative to dirfd) names the simulated node or one of the
 * driver's module parameters; full receives its absolute path.
 */
static bool is_node(int dirfd, const char *path, char *full, size_t size)
{
	char cwd[PATH_MAX];

	if (!path)
		return false;
	if (path[0] == '/') {
		if (strlen(path) >= size)
			return false;
		strcpy(full, path);
	} else {
		if (dirfd != AT_FDCWD || !getcwd(cwd, sizeof(cwd)))
			return false;
		if ((size_t)snprintf(full, size, "%s/%s",
				     strcmp(cwd, "/") ? cwd : "", path) >= size)
			return false;
	}
	return strcmp(full, SIM_NODE_PATH) == 0 || sim_param_path(full);
}

static int open_node(const char *full, int flags)
{
	int fd = sim_param_path(full) ? sim_param_open(full, flags) :
		 sim_node_open(flags);

	if (fd < 0) {
		errno = -fd;
		return -1;
	}
	return fd;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ?
	       va_arg(ap, mode_t) : 0;
}

int __wrap_open(const char *path, int flags, ...)
{
	char full[PATH_MAX];
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	if (is_node(AT_FDCWD, path, full, sizeof(full)))
		return open_node(full, flags);
	return __real_open(path, flags, mode);
}

int __wrap_open64(const char *path, int flags, ...)
{
	char full[PATH_MAX];
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	if (is_node(AT_FDCWD, path, full, sizeof(full)))
		return open_node(full, flags);
	return __real_open64(path, flags, mode);
}

int __wrap_openat(int dirfd, const char *path, int flags, ...)
{
	char full[PATH_MAX];
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	if (is_node(dirfd, path, full, sizeof(full)))
		return open_node(full, flags);
	return __real_openat(dirfd, path, flags, mode);
}

int __wrap_openat64(int dirfd, const char *path, int flags, ...)
{
	char full[PATH_MAX];
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	if (is_node(dirfd, path, full, sizeof(full)))
		return open_node(full, flags);
	return __real_openat64(dirfd, path, flags, mode);
}

/* --- fds -------------------------------------------------------------------- */

int __wrap_close(int fd)
{
	return sim_fd_close(fd);
}

int __wrap_ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!sim_fd_is_ours(fd))
		return __real_ioctl(fd, request, arg);
	ret = sim_fd_ioctl(fd, request, arg);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}

/* Userptr pages in the range stay the BO's (sim_ram.c). */
static void userptr_unmapping(void *addr, size_t len)
{
	struct sim_device *dev;

	if (!sim_ram_userptr_unmapping(addr, len))
		return;
	/* Only a device that exists can have userptr BOs. */
	dev = sim_device_get();
	if (dev)
		sim_vm_drop_page_pointers(dev);
}

static void *do_mmap(void *addr, size_t len, int prot, int flags, int fd,
		     off_t offset, bool is64)
{
	void *ret;

	/* A fixed mapping replaces whatever was there, BO mappings too. */
	if (flags & MAP_FIXED) {
		userptr_unmapping(addr, len);
		sim_gem_cpu_unmapped(addr, len);
	}
	if (!(flags & MAP_ANONYMOUS) && sim_fd_is_ours(fd))
		return sim_fd_mmap(fd, addr, len, prot, flags, offset);
	ret = is64 ? __real_mmap64(addr, len, prot, flags, fd, offset) :
		     __real_mmap(addr, len, prot, flags, fd, offset);
	return ret;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t offset)
{
	return do_mmap(addr, len, prot, flags, fd, offset, false);
}

void *__wrap_mmap64(void *addr, size_t len, int prot, int flags, int fd,
		    off_t offset)
{
	return do_mmap(addr, len, prot, flags, fd, offset, true);
}

int __wrap_munmap(void *addr, size_t len)
{
	int ret;

	userptr_unmapping(addr, len);
	ret = __real_munmap(addr, len);

	if (!ret)
		sim_gem_cpu_unmapped(addr, len);
	return ret;
}

/*
 * A BO mapping moved or resized keeps its BO alive where it now is; what a
 * fixed destination replaces is unmapped first. Userptr pages that move
 * with the process's memory are left to mem_page()'s check.
 */
void *__wrap_mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	void *dest = NULL, *ret;
	va_list ap;

	if (flags & MREMAP_FIXED) {
		va_start(ap, flags);
		dest = va_arg(ap, void *);
		va_end(ap);
		userptr_unmapping(dest, new_len);
		sim_gem_cpu_unmapped(dest, new_len);
		ret = __real_mremap(old, old_len, new_len, flags, dest);
	} else {
		ret = __real_mremap(old, old_len, new_len, flags);
	}
	if (ret != MAP_FAILED)
		sim_gem_cpu_remapped(old, old_len, ret, new_len,
				     flags & MREMAP_DONTUNMAP);
	return ret;
}

ssize_t __wrap_read(int fd, void *buf, size_t len)
{
	ssize_t ret;

	if (sim_fd_read(fd, buf, len, &ret))
		return ret;
	return __real_read(fd, buf, len);
}

ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
	ssize_t ret;

	if (sim_fd_write(fd, buf, len, &ret))
		return ret;
	return __real_write(fd, buf, len);
}

/* --- the directory of nodes ------------------------------------------------ */

/*
 * opendir(SIM_DRI_DIR) gives a real DIR (of "/", so dirfd() and the like
 * stay safe to call) that readdir() answers for: ".", ".." and the node.
 */
struct sim_dir {
	DIR *dir;
	const char *const *names;   /* after "." and ".." */
	unsigned int count, next;
	struct dirent64 ent;
	struct sim_dir *link;
};

static const char *const node_names[] = { SIM_NODE_NAME };
/* The DRM minor's debugfs folder (sim_debugfs.c). */
static const char *const debugfs_names[] = { "0" };

static pthread_mutex_t dirs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_dir *dirs;

static struct sim_dir *find_dir_locked(DIR *dir, struct sim_dir ***prev)
{
	struct sim_dir **p;

	for (p = &dirs; *p; p = &(*p)->link) {
		if ((*p)->dir == dir) {
			if (prev)
				*prev = p;
			return *p;
		}
	}
	return NULL;
}

DIR *__wrap_opendir(const char *path)
{
	struct sim_dir *d;
	char clean[PATH_MAX];
	size_t n;

	if (!path || strlen(path) >= sizeof(clean))
		return __real_opendir(path);
	strcpy(clean, path);
	n = strlen(clean);
	while (n > 1 && clean[n - 1] == '/')
		clean[--n] = 0;
	if (strcmp(clean, SIM_DRI_DIR) != 0 && !sim_debugfs_is_dri_dir(clean))
		return __real_opendir(path);

	d = calloc(1, sizeof(*d));
	if (!d) {
		errno = ENOMEM;
		return NULL;
	}
	if (!strcmp(clean, SIM_DRI_DIR)) {
		d->names = node_names;
		d->count = 1;
	} else {
		d->names = debugfs_names;
		d->count = 1;
	}
	d->dir = __real_opendir("/");
	if (!d->dir) {
		free(d);
		return NULL;
	}
	pthread_mutex_lock(&dirs_lock);
	d->link = dirs;
	dirs = d;
	pthread_mutex_unlock(&dirs_lock);
	return d->dir;
}

static struct dirent64 *sim_readdir(struct sim_dir *d)
{
	const char *name;

	if (d->next >= 2 + d->count)
		return NULL;
	name = d->next == 0 ? "." : d->next == 1 ? ".." : d->names[d->next - 2];
	d->next++;
	memset(&d->ent, 0, sizeof(d->ent));
	d->ent.d_ino = d->next;
	d->ent.d_off = d->next;
	d->ent.d_reclen = sizeof(d->ent);
	d->ent.d_type = d->next <= 2 || d->names == debugfs_names ? DT_DIR :
								     DT_CHR;
	snprintf(d->ent.d_name, sizeof(d->ent.d_name), "%s", name);
	return &d->ent;
}

struct dirent64 *__wrap_readdir64(DIR *dir)
{
	struct sim_dir *d;

	pthread_mutex_lock(&dirs_lock);
	d = find_dir_locked(dir, NULL);
	pthread_mutex_unlock(&dirs_lock);
	if (!d)
		return __real_readdir64(dir);
	return sim_readdir(d);
}

struct dirent *__wrap_readdir(DIR *dir)
{
	struct sim_dir *d;

	_Static_assert(sizeof(struct dirent) == sizeof(struct dirent64),
		       "a 64-bit dirent");
	pthread_mutex_lock(&dirs_lock);
	d = find_dir_locked(dir, NULL);
	pthread_mutex_unlock(&dirs_lock);
	if (!d)
		return __real_readdir(dir);
	return (struct dirent *)sim_readdir(d);
}

int __wrap_closedir(DIR *dir)
{
	struct sim_dir *d, **prev = NULL;

	pthread_mutex_lock(&dirs_lock);
	d = find_dir_locked(dir, &prev);
	if (d)
		*prev = d->link;
	pthread_mutex_unlock(&dirs_lock);
	free(d);
	return __real_closedir(dir);
}

/* --- the kernel log ---------------------------------------------------------- */

/*
 * The simulated kernel's messages, kept in a ring as the kernel's printk
 * buffer, and what klogctl() answers for the actions that read it. The
 * host's own log is not the simulated machine's, so it is not shown.
 */
#define KLOG_SIZE (64 * 1024)
#define SYSLOG_ACTION_CLOSE 0
#define SYSLOG_ACTION_OPEN 1
#define SYSLOG_ACTION_READ 2
#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_READ_CLEAR 4
#define SYSLOG_ACTION_CLEAR 5
#define SYSLOG_ACTION_SIZE_UNREAD 9
#define SYSLOG_ACTION_SIZE_BUFFER 10

int __real_klogctl(int type, char *buf, int len);
int __wrap_klogctl(int type, char *buf, int len);

static pthread_mutex_t klog_lock = PTHREAD_MUTEX_INITIALIZER;
static char klog_ring[KLOG_SIZE];
static size_t klog_head;        /* bytes ever written */
static size_t klog_cleared;     /* klog_head at the last clear */

/*
 * SLEIPNIR_SIM_KLOG names a file that gets every line too: programs that
 * read the kernel log but do not contain the simulator (an OpenCL program
 * whose ICD does) read it there.
 */
static int klog_fd = -2;        /* -2: not looked at yet; -1: none */

static void klog_to_file_locked(const char *line, size_t len)
{
	if (klog_fd == -2) {
		const char *path = getenv("SLEIPNIR_SIM_KLOG");

		klog_fd = path && *path ?
			  __real_open(path, O_WRONLY | O_APPEND | O_CREAT |
					    O_CLOEXEC, 0644) : -1;
	}
	if (klog_fd >= 0 && __real_write(klog_fd, line, len) < 0)
		klog_fd = -1;
}

void sim_klog(const char *fmt, ...)
{
	static int to_stderr = -1;
	char line[512];
	struct timespec ts;
	va_list ap;
	int n, m;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	n = snprintf(line, sizeof(line), "[%5lld.%06ld] sleipnir-sim: ",
		     (long long)ts.tv_sec, ts.tv_nsec / 1000);
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	n += m;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	line[n] = 0;

	pthread_mutex_lock(&klog_lock);
	for (int i = 0; i < n; i++)
		klog_ring[klog_head++ % KLOG_SIZE] = line[i];
	klog_to_file_locked(line, (size_t)n);
	pthread_mutex_unlock(&klog_lock);

	if (to_stderr < 0)
		to_stderr = getenv("SLEIPNIR_SIM_LOG") != NULL;
	if (to_stderr)
		fputs(line, stderr);
}

/* The last up to len bytes since the last clear; their count. */
static int klog_read_locked(char *buf, int len)
{
	size_t have = klog_head - klog_cleared, n, from;
	char *out;

	if (have > KLOG_SIZE)
		have = KLOG_SIZE;
	n = have < (size_t)len ? have : (size_t)len;
	out = malloc(n ? n : 1);
	if (!out)
		return -ENOMEM;
	from = klog_head - n;
	for (size_t i = 0; i < n; i++)
		out[i] = klog_ring[(from + i) % KLOG_SIZE];
	if (sim_copy_to_user((uintptr_t)buf, out, n)) {
		free(out);
		return -EFAULT;
	}
	free(out);
	return (int)n;
}

int __wrap_klogctl(int type, char *buf, int len)
{
	int ret = 0;

	pthread_mutex_lock(&klog_lock);
	switch (type) {
	case SYSLOG_ACTION_CLOSE:
	case SYSLOG_ACTION_OPEN:
		break;
	case SYSLOG_ACTION_READ:
	case SYSLOG_ACTION_READ_ALL:
	case SYSLOG_ACTION_READ_CLEAR:
		if (!buf || len < 0) {
			ret = -EINVAL;
			break;
		}
		ret = klog_read_locked(buf, len);
		if (ret >= 0 && type != SYSLOG_ACTION_READ_ALL)
			klog_cleared = klog_head;
		break;
	case SYSLOG_ACTION_CLEAR:
		klog_cleared = klog_head;
		break;
	case SYSLOG_ACTION_SIZE_UNREAD: {
		size_t have = klog_head - klog_cleared;

		ret = (int)(have > KLOG_SIZE ? KLOG_SIZE : have);
		break;
	}
	case SYSLOG_ACTION_SIZE_BUFFER:
		ret = KLOG_SIZE;
		break;
	default:
		pthread_mutex_unlock(&klog_lock);
		return __real_klogctl(type, buf, len);
	}
	pthread_mutex_unlock(&klog_lock);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
}
