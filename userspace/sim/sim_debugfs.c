/* SPDX-License-Identifier: MIT */
/*
 * sleipnir.ko's debugfs, as far as tools read it: the DRM minor's folder
 * /sys/kernel/debug/dri/0 with its "name" and the driver's "counters"
 * (kernel/sleipnir_debugfs.c), so that leak checks such as the ioctl
 * fuzzer's (bos, vms, vm_mappings, as_bound and jobs_in_flight drain to
 * zero) run against the simulator unchanged. Programs read these files
 * with fopen(), which the C library does not route through open(), so
 * fopen() and access() are wrapped for these paths; opendir() of the dri
 * folder lists the one minor (sim_intercept.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_core.h"

#define DEBUGFS "/sys/kernel/debug"
#define MINOR_DIR SIM_DEBUGFS_DRI "/0"

/*
 * The scheduler's counters (jobs_in_flight, jobs_submitted, jobs_done,
 * jobs_failed, jobs_timedout, gpu_resets, mmu_faults), "key: value" lines
 * appended to out. Weak: without it only the core's counters are shown.
 */
__attribute__((weak)) void sim_sched_debugfs_counters(struct sim_sched *sched,
						      FILE *out);

FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_fopen64(const char *path, const char *mode);
int __real_access(const char *path, int mode);
FILE *__wrap_fopen(const char *path, const char *mode);
FILE *__wrap_fopen64(const char *path, const char *mode);
int __wrap_access(const char *path, int mode);

enum node { NODE_NONE, NODE_DIR, NODE_NAME, NODE_COUNTERS };

static enum node lookup(const char *path)
{
	if (!path || strncmp(path, DEBUGFS, strlen(DEBUGFS)))
		return NODE_NONE;
	if (!strcmp(path, SIM_DEBUGFS_DRI) || !strcmp(path, MINOR_DIR) ||
	    !strcmp(path, MINOR_DIR "/"))
		return NODE_DIR;
	if (!strcmp(path, MINOR_DIR "/name"))
		return NODE_NAME;
	if (!strcmp(path, MINOR_DIR "/counters"))
		return NODE_COUNTERS;
	return NODE_NONE;
}

bool sim_debugfs_is_dri_dir(const char *path)
{
	return path && !strcmp(path, SIM_DEBUGFS_DRI);
}

/* The file's contents, written to a memory stream the caller reads. */
static int fill(FILE *f, enum node node)
{
	struct sim_device *dev;
	int vms, mappings, bound;

	if (node == NODE_NAME) {
		fprintf(f, "%s dev=sleipnir-sim unique=sleipnir-sim\n",
			SLEIPNIR_DRIVER_NAME);
		return 0;
	}
	dev = sim_device_get();
	if (!dev)
		return -ENOENT;
	sim_vm_counters(&vms, &mappings, &bound);
	fprintf(f, "bos: %d\n", sim_gem_live_bos());
	fprintf(f, "vms: %d\n", vms);
	fprintf(f, "vm_mappings: %d\n", mappings);
	fprintf(f, "as_bound: %d\n", bound);
	if (sim_sched_debugfs_counters)
		sim_sched_debugfs_counters(sim_device_sched(dev), f);
	return 0;
}

/* fopen() of one of the driver's files or folders. */
static FILE *debugfs_fopen(enum node node, const char *mode)
{
	FILE *f;
	int err;

	if (node == NODE_DIR) {
		errno = EISDIR;
		return NULL;
	}
	/* debugfs files of the driver are read-only (0444). */
	if (!mode || mode[0] != 'r' || strchr(mode, '+')) {
		errno = EACCES;
		return NULL;
	}
	f = tmpfile();
	if (!f)
		return NULL;
	err = fill(f, node);
	if (err) {
		fclose(f);
		errno = -err;
		return NULL;
	}
	rewind(f);
	return f;
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
	enum node node = lookup(path);

	if (node == NODE_NONE)
		return __real_fopen(path, mode);
	return debugfs_fopen(node, mode);
}

/* What fopen() is with _FILE_OFFSET_BITS=64. */
FILE *__wrap_fopen64(const char *path, const char *mode)
{
	enum node node = lookup(path);

	if (node == NODE_NONE)
		return __real_fopen64(path, mode);
	return debugfs_fopen(node, mode);
}

int __wrap_access(const char *path, int mode)
{
	enum node node = lookup(path);

	if (path && !strcmp(path, DEBUGFS))
		return 0;          /* mounted, as far as the driver's files go */
	if (node == NODE_NONE)
		return __real_access(path, mode);
	if (node != NODE_DIR && (mode & (W_OK | X_OK))) {
		errno = EACCES;
		return -1;
	}
	return 0;
}
