/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by the sleipnir.ko guest tests that drive the driver
 * through its uapi (uapi/drm/sleipnir_drm.h) with libdrm: finding the render
 * node, BOs with CPU and GPU mappings, SUBMIT, syncobj waits with timeouts,
 * reading a fence's error through a sync_file, and the driver's debugfs
 * counters. Every helper returns 0 or a positive errno and never blocks
 * without a timeout.
 */
#ifndef SLEIPNIR_UTIL_H
#define SLEIPNIR_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "drm/sleipnir_drm.h"
#include "mali_jobs.h"

/* Longest the tests wait for one job or a short pipeline to finish. */
#define SL_WAIT_TIMEOUT_MS 10000u

static inline uint64_t sl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* An absolute CLOCK_MONOTONIC deadline timeout_ms from now. */
static inline int64_t sl_deadline_ns(unsigned int timeout_ms)
{
	return (int64_t)(sl_now_ns() + (uint64_t)timeout_ms * 1000000ull);
}

/* Runs an ioctl (restarting on EINTR/EAGAIN); returns 0 or the errno. */
static inline int sl_ioctl(int fd, unsigned long request, void *arg)
{
	if (drmIoctl(fd, request, arg) == 0)
		return 0;
	return errno;
}

/* Is fd a sleipnir render node? Fills major/minor when it is. */
static inline bool sl_is_sleipnir(int fd, int *major, int *minor)
{
	drmVersionPtr ver = drmGetVersion(fd);
	bool ok = ver && ver->name && strcmp(ver->name, "sleipnir") == 0;

	if (ok && major)
		*major = ver->version_major;
	if (ok && minor)
		*minor = ver->version_minor;
	if (ver)
		drmFreeVersion(ver);
	return ok;
}

/*
 * Opens path, or without one the first render node driven by sleipnir; the
 * node's path goes to node (at least 64 bytes). Returns the fd or -1.
 */
static inline int sl_open(const char *path, char *node)
{
	char name[64];

	if (path) {
		int fd = open(path, O_RDWR | O_CLOEXEC);

		if (fd < 0)
			printf("  open %s: %s\n", path, strerror(errno));
		else
			snprintf(node, 64, "%s", path);
		return fd;
	}
	for (int minor = 128; minor < 192; minor++) {
		int fd;

		snprintf(name, sizeof(name), "/dev/dri/renderD%d", minor);
		fd = open(name, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (sl_is_sleipnir(fd, NULL, NULL)) {
			snprintf(node, 64, "%s", name);
			return fd;
		}
		close(fd);
	}
	printf("  no render node with driver \"sleipnir\" under /dev/dri\n");
	return -1;
}

static inline int sl_get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_sleipnir_get_param gp = { .param = param };
	int err = sl_ioctl(fd, DRM_IOCTL_SLEIPNIR_GET_PARAM, &gp);

	if (!err)
		*value = gp.value;
	return err;
}

/* --- buffer objects ------------------------------------------------------ */

struct sl_bo {
	int fd;
	uint32_t handle;
	uint64_t size;
	uint64_t va;   /* GPU address, 0 when not mapped in the VM */
	uint8_t *map;  /* CPU mapping, NULL when none */
};

static inline int sl_gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close args = { .handle = handle };

	return sl_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &args);
}

static inline int sl_vm_unmap(int fd, uint64_t va, uint64_t size)
{
	struct drm_sleipnir_vm_unmap args = { .va = va, .size = size };

	return sl_ioctl(fd, DRM_IOCTL_SLEIPNIR_VM_UNMAP, &args);
}

/* Maps a whole BO into the GPU VM, at va or (va == 0) where the kernel
 * picks. */
static inline int sl_vm_map(int fd, uint32_t handle, uint64_t size,
			    uint32_t flags, uint64_t *va)
{
	struct drm_sleipnir_vm_map args = {
		.handle = handle,
		.flags = flags | (*va ? 0 : SLEIPNIR_VM_MAP_AUTO_VA),
		.size = size,
		.va = *va,
	};
	int err = sl_ioctl(fd, DRM_IOCTL_SLEIPNIR_VM_MAP, &args);

	if (err)
		printf("  VM_MAP(handle %u, size %#llx, va %#llx): %s\n",
		       handle, (unsigned long long)size,
		       (unsigned long long)*va, strerror(err));
	else
		*va = args.va;
	return err;
}

/* Maps an existing BO handle for the CPU (MAP_SHARED on the DRM file). */
static inline int sl_bo_cpu_map(int fd, uint32_t handle, uint64_t size,
				uint8_t **map)
{
	struct drm_sleipnir_bo_mmap_offset mo = { .handle = handle };
	void *p;
	int err = sl_ioctl(fd, DRM_IOCTL_SLEIPNIR_BO_MMAP_OFFSET, &mo);

	if (err) {
		printf("  BO_MMAP_OFFSET(%u): %s\n", handle, strerror(err));
		return err;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)mo.offset);
	if (p == MAP_FAILED) {
		err = errno;
		printf("  mmap(BO %u, offset %#llx): %s\n", handle,
		       (unsigned long long)mo.offset, strerror(err));
		return err;
	}
	*map = p;
	return 0;
}

static inline void sl_bo_destroy(struct sl_bo *bo)
{
	if (bo->va)
		sl_vm_unmap(bo->fd, bo->va, bo->size);
	if (bo->map)
		munmap(bo->map, bo->size);
	if (bo->handle)
		sl_gem_close(bo->fd, bo->handle);
	memset(bo, 0, sizeof(*bo));
	bo->fd = -1;
}

/*
 * Creates a BO, maps it for the CPU (write-combined unless flags ask for
 * CPU_CACHED) and into the GPU VM at va (0: the kernel picks). Returns 0 or
 * an errno; on error nothing is left behind.
 */
static inline int sl_bo_create(int fd, uint64_t size, uint32_t flags,
			       uint32_t map_flags, uint64_t va,
			       struct sl_bo *bo)
{
	struct drm_sleipnir_bo_create create = { .size = size,
						 .flags = flags };
	int err;

	memset(bo, 0, sizeof(*bo));
	bo->fd = fd;
	err = sl_ioctl(fd, DRM_IOCTL_SLEIPNIR_BO_CREATE, &create);
	if (err) {
		printf("  BO_CREATE(size %#llx, flags %#x): %s\n",
		       (unsigned long long)size, flags, strerror(err));
		return err;
	}
	bo->handle = create.handle;
	bo->size = create.size;
	if (!(flags & SLEIPNIR_BO_NO_CPU_MAP)) {
		err = sl_bo_cpu_map(fd, bo->handle, bo->size, &bo->map);
		if (err)
			goto fail;
	}
	err = sl_vm_map(fd, bo->handle, bo->size, map_flags, &va);
	if (err)
		goto fail;
	bo->va = va;
	return 0;
fail:
	sl_bo_destroy(bo);
	bo->fd = fd;
	return err;
}

/* --- submission, syncobjs and fences ------------------------------------- */

struct sl_submit_args {
	uint64_t jc;
	const struct drm_sleipnir_bo_ref *bos;
	uint32_t nbos;
	const struct drm_sleipnir_sync_op *in;
	uint32_t nin;
	const struct drm_sleipnir_sync_op *out;
	uint32_t nout;
	uint32_t requirements;
	uint32_t timeout_ms;
};

static inline int sl_submit(int fd, const struct sl_submit_args *a)
{
	struct drm_sleipnir_submit s = {
		.jc = a->jc,
		.in_syncs = { .stride = sizeof(struct drm_sleipnir_sync_op),
			      .count = a->nin,
			      .array = (uint64_t)(uintptr_t)a->in },
		.out_syncs = { .stride = sizeof(struct drm_sleipnir_sync_op),
			       .count = a->nout,
			       .array = (uint64_t)(uintptr_t)a->out },
		.bos = { .stride = sizeof(struct drm_sleipnir_bo_ref),
			 .count = a->nbos,
			 .array = (uint64_t)(uintptr_t)a->bos },
		.requirements = a->requirements,
		.timeout_ms = a->timeout_ms,
	};

	return sl_ioctl(fd, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
}

static inline uint32_t sl_syncobj_new(int fd)
{
	uint32_t handle = 0;

	if (drmSyncobjCreate(fd, 0, &handle)) {
		printf("  drmSyncobjCreate: %s\n", strerror(errno));
		return 0;
	}
	return handle;
}

/* libdrm returns -errno or -1 with errno set; turn either into an errno. */
static inline int sl_drm_err(int ret)
{
	if (ret == 0)
		return 0;
	return ret < -1 ? -ret : errno;
}

/* Waits for all the binary syncobjs to signal; 0 or an errno (ETIME). */
static inline int sl_syncobj_wait(int fd, uint32_t *handles,
				  unsigned int count, unsigned int timeout_ms)
{
	return sl_drm_err(drmSyncobjWait(fd, handles, count,
					 sl_deadline_ns(timeout_ms),
					 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
					 NULL));
}

/*
 * The state of the fence a binary syncobj holds, through a sync_file
 * (SYNC_IOC_FILE_INFO): 1 signalled without error, 0 not signalled yet, a
 * negative errno signalled with that error. Returns 0 or an errno.
 */
static inline int sl_fence_status(int fd, uint32_t syncobj, int *status)
{
	struct sync_file_info info;
	int sync_fd = -1, err;

	err = sl_drm_err(drmSyncobjExportSyncFile(fd, syncobj, &sync_fd));
	if (err)
		return err;
	memset(&info, 0, sizeof(info));
	err = ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info) ? errno : 0;
	close(sync_fd);
	if (!err)
		*status = info.status;
	return err;
}

static inline const char *sl_fence_status_name(int status)
{
	static char buf[48];

	if (status == 1)
		return "signalled";
	if (status == 0)
		return "pending";
	snprintf(buf, sizeof(buf), "error %d (%s)", status, strerror(-status));
	return buf;
}

/* --- debugfs counters ---------------------------------------------------- */

#define SL_DEBUGFS "/sys/kernel/debug"

/*
 * Finds the driver's debugfs folder: /sys/kernel/debug/dri/<N>/ whose "name"
 * starts with "sleipnir" and which has a "counters" file. Mounts debugfs
 * when it is not. dir gets the folder (at least 256 bytes).
 */
static inline int sl_debugfs_dir(char *dir)
{
	char path[512], name[64];
	struct dirent *de;
	DIR *d;
	int found = ENOENT;

	if (access(SL_DEBUGFS "/dri", F_OK) != 0 &&
	    mount("none", SL_DEBUGFS, "debugfs", 0, NULL) != 0 &&
	    errno != EBUSY) {
		printf("  mount debugfs: %s\n", strerror(errno));
		return errno;
	}
	d = opendir(SL_DEBUGFS "/dri");
	if (!d) {
		printf("  %s/dri: %s\n", SL_DEBUGFS, strerror(errno));
		return errno;
	}
	while (found && (de = readdir(d))) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), SL_DEBUGFS "/dri/%.32s/name",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) &&
		    strncmp(name, "sleipnir", 8) == 0) {
			snprintf(path, sizeof(path),
				 SL_DEBUGFS "/dri/%.32s/counters", de->d_name);
			if (access(path, R_OK) == 0) {
				snprintf(dir, 256, SL_DEBUGFS "/dri/%.32s",
					 de->d_name);
				found = 0;
			}
		}
		fclose(f);
	}
	closedir(d);
	if (found)
		printf("  no %s/dri/<N>/ with a sleipnir name and a counters "
		       "file\n", SL_DEBUGFS);
	return found;
}

/*
 * Reads "key: value" from <dir>/counters. Returns 0, ENOENT when the key is
 * missing, or an errno.
 */
static inline int sl_counter(const char *dir, const char *key, long long *val)
{
	char path[300], line[256];
	size_t klen = strlen(key);
	FILE *f;
	int err = ENOENT;

	snprintf(path, sizeof(path), "%s/counters", dir);
	f = fopen(path, "r");
	if (!f)
		return errno;
	while (err && fgets(line, sizeof(line), f)) {
		char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
			*val = strtoll(p + klen + 1, NULL, 0);
			err = 0;
		}
	}
	fclose(f);
	return err;
}

/* Prints the counters file, indented. */
static inline void sl_print_counters(const char *dir)
{
	char path[300], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/counters", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	printf("  %s:\n", path);
	while (fgets(line, sizeof(line), f))
		printf("    %s", line);
	fclose(f);
}

/* --- a known-good job ---------------------------------------------------- */

/*
 * Runs WRITE_VALUE(zero) -> NULL on fd (a chain in one BO, writing into the
 * same BO) and checks the fence signalled without error, both headers read
 * DONE and exactly the zero landed. Prints what went wrong; returns true
 * when everything was right.
 */
static inline bool sl_good_job(int fd, const char *what)
{
	const uint32_t j0 = 0, j1 = MALI_JOB_SLOT_SIZE, data = 0x400;
	struct drm_sleipnir_bo_ref ref;
	struct drm_sleipnir_sync_op out = { 0 };
	struct sl_submit_args a;
	struct sl_bo bo;
	uint32_t sync;
	int err, status = 0;
	bool ok = false;

	printf("  good job: %s\n", what);
	if (sl_bo_create(fd, 4096, 0, 0, 0, &bo))
		return false;
	sync = sl_syncobj_new(fd);
	if (!sync) {
		sl_bo_destroy(&bo);
		return false;
	}
	mali_put64(bo.map + data, 0xffffffffffffffffull);
	mali_put64(bo.map + data + 8, 0xa5a5a5a5a5a5a5a5ull);
	mali_pack_write_value_job(bo.map + j0, 1, 0, 0, bo.va + j1,
				  bo.va + data, MALI_WRITE_VALUE_ZERO);
	mali_pack_null_job(bo.map + j1, 2, 1, 0, 0);
	ref.handle = bo.handle;
	ref.flags = SLEIPNIR_BO_REF_WRITE;
	out.handle = sync;
	memset(&a, 0, sizeof(a));
	a.jc = bo.va + j0;
	a.bos = &ref;
	a.nbos = 1;
	a.out = &out;
	a.nout = 1;
	a.requirements = SLEIPNIR_REQ_NULL | SLEIPNIR_REQ_WRITE_VALUE;
	err = sl_submit(fd, &a);
	if (err) {
		printf("  SUBMIT: %s\n", strerror(err));
	} else if ((err = sl_syncobj_wait(fd, &sync, 1, SL_WAIT_TIMEOUT_MS))) {
		printf("  waiting for the good job: %s\n", strerror(err));
	} else if ((err = sl_fence_status(fd, sync, &status)) || status != 1) {
		printf("  good job's fence: %s\n",
		       err ? strerror(err) : sl_fence_status_name(status));
	} else {
		uint32_t s0 = mali_job_exception_status(bo.map + j0);
		uint32_t s1 = mali_job_exception_status(bo.map + j1);
		uint64_t v = mali_get64(bo.map + data);
		uint64_t g = mali_get64(bo.map + data + 8);

		ok = s0 == MALI_EXCEPTION_DONE && s1 == MALI_EXCEPTION_DONE &&
		     v == 0 && g == 0xa5a5a5a5a5a5a5a5ull;
		if (!ok)
			printf("  good job: statuses %#x %#x, value %#llx, "
			       "guard %#llx\n", s0, s1, (unsigned long long)v,
			       (unsigned long long)g);
	}
	drmSyncobjDestroy(fd, sync);
	sl_bo_destroy(&bo);
	return ok;
}

#endif
