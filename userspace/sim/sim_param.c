/* SPDX-License-Identifier: MIT */
/*
 * sleipnir.ko's module parameters, as sysfs shows them under
 * /sys/module/sleipnir/parameters/: open() of such a path gives a
 * simulator fd whose read() and write() are the parameter's, so the
 * administrator's knob the uapi names (max_job_timeout_ms, read by
 * GET_PARAM JOB_TIMEOUT_MAX_MS and applied by SUBMIT) works as on the
 * board.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_core.h"
#include "sim_fd.h"

#define PARAM_DIR "/sys/module/sleipnir/parameters/"

/*
 * The scheduler's setter (sim.h, sim_sched.c). Weak, so that the knob says
 * EACCES, as a file without write permission would, in a build without it.
 */
__attribute__((weak)) void
sim_sched_set_max_job_timeout_ms(struct sim_sched *sched, unsigned int ms);

struct param_file {
	struct sim_device *dev;
	int accmode;               /* O_RDONLY, O_WRONLY or O_RDWR */
	bool done;                 /* a read gives the value once, then EOF */
};

static ssize_t max_timeout_read(void *obj, void *buf, size_t len)
{
	struct param_file *p = obj;
	char text[16];
	int n;

	if (p->accmode == O_WRONLY)
		return -EBADF;
	if (p->done)
		return 0;
	n = snprintf(text, sizeof(text), "%u\n",
		     sim_sched_max_job_timeout_ms(sim_device_sched(p->dev)));
	if ((size_t)n > len)
		n = (int)len;
	if (sim_copy_to_user((uintptr_t)buf, text, (size_t)n))
		return -EFAULT;
	p->done = true;
	return n;
}

/* param_set_uint(): kstrtouint(value, 0) with one trailing newline. */
static ssize_t max_timeout_write(void *obj, const void *buf, size_t len)
{
	struct param_file *p = obj;
	char text[32], *end;
	unsigned long v;

	if (p->accmode == O_RDONLY)
		return -EBADF;
	if (!len || len >= sizeof(text))
		return -EINVAL;
	if (sim_copy_from_user(text, (uintptr_t)buf, len))
		return -EFAULT;
	text[len] = 0;
	if (text[len - 1] == '\n')
		text[len - 1] = 0;
	if (!text[0] || text[0] == '-' || text[0] == '+' || text[0] == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoul(text, &end, 0);
	if (*end || errno || v > UINT_MAX)
		return -EINVAL;
	if (!sim_sched_set_max_job_timeout_ms)
		return -EACCES;
	sim_sched_set_max_job_timeout_ms(sim_device_sched(p->dev),
					 (unsigned int)v);
	return (ssize_t)len;
}

static int param_ioctl(void *obj, unsigned long request, void *arg)
{
	(void)obj;
	(void)request;
	(void)arg;
	return -ENOTTY;
}

static void param_release(void *obj)
{
	free(obj);
}

static const struct sim_fd_ops max_timeout_ops = {
	.name = "max_job_timeout_ms",
	.ioctl = param_ioctl,
	.release = param_release,
	.read = max_timeout_read,
	.write = max_timeout_write,
};

bool sim_param_path(const char *path)
{
	return path && !strcmp(path, PARAM_DIR "max_job_timeout_ms");
}

int sim_param_open(const char *path, int flags)
{
	struct sim_device *dev;
	struct param_file *p;
	int fd;

	if (!sim_param_path(path))
		return -ENOENT;
	if (flags & O_DIRECTORY)
		return -ENOTDIR;
	if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	dev = sim_device_get();
	if (!dev)
		return -ENOENT;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->dev = dev;
	p->accmode = flags & O_ACCMODE;
	fd = sim_fd_install(&max_timeout_ops, p, flags & O_CLOEXEC);
	if (fd < 0)
		free(p);
	return fd;
}
