/* SPDX-License-Identifier: MIT */
/*
 * The simulated kernel log for programs that load the simulator inside
 * the ICD (tests/sim/meson.build): cl_api_test reads the kernel log with
 * klogctl() as on the board, but the simulator lives in
 * libSleipnirOpenCL.so, where the program's klogctl does not reach. The
 * simulator appends its log lines to the file SLEIPNIR_SIM_KLOG names
 * (userspace/sim: sim_klog), and the program, linked with
 * --wrap=klogctl, reads that file here instead of the host's log: what
 * was appended since the program started, as a board's log holds only
 * its own boot's lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10
/* What SIZE_BUFFER answers: the simulator's ring holds 64 KiB. */
#define SIM_KLOG_SIZE (64 * 1024)

int __wrap_klogctl(int type, char *buf, int len);

/* The file's size when the program started: earlier runs' lines. */
static off_t klog_start;

__attribute__((constructor)) static void klog_note_start(void)
{
	const char *path = getenv("SLEIPNIR_SIM_KLOG");
	struct stat st;

	if (path && stat(path, &st) == 0)
		klog_start = st.st_size;
}

int __wrap_klogctl(int type, char *buf, int len)
{
	const char *path = getenv("SLEIPNIR_SIM_KLOG");
	struct stat st;
	ssize_t n;
	off_t from;
	int fd;

	if (type == SYSLOG_ACTION_SIZE_BUFFER)
		return SIM_KLOG_SIZE;
	if (type != SYSLOG_ACTION_READ_ALL || !buf || len < 0) {
		errno = EINVAL;
		return -1;
	}
	if (!path) {
		errno = EPERM;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* Nothing logged yet: an empty log. */
		return errno == ENOENT ? 0 : -1;
	}
	/* As READ_ALL: the last len bytes of this run's. */
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	from = st.st_size - klog_start > len ? st.st_size - len : klog_start;
	n = pread(fd, buf, (size_t)len, from);
	close(fd);
	return n < 0 ? -1 : (int)n;
}
