/* SPDX-License-Identifier: MIT */
/*
 * sl_drm: sleipnir.ko through libdrm (see sl_drm.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "sl_drm.h"

#define DRI_DIR "/dev/dri"
#define PAGE 4096ull
#define CODE_REGION (16ull << 20)

struct sl_drm {
	int fd;
	bool coherent;               /* BO_SYNC is never needed */
	char node[64];
};

/* drmIoctl restarts on EINTR/EAGAIN; turn its -1 into -errno. */
static int do_ioctl(struct sl_drm *dev, unsigned long request, void *arg)
{
	return drmIoctl(dev->fd, request, arg) ? -errno : 0;
}

/* libdrm's syncobj calls return -errno, or -1 with errno set. */
static int drm_ret(int ret)
{
	if (ret >= 0)
		return 0;
	return ret < -1 ? ret : -errno;
}

static int64_t deadline_ns(unsigned int timeout_ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec +
	       (int64_t)timeout_ms * 1000000;
}

/* Is fd a sleipnir node of a version we can drive? */
static bool is_sleipnir(int fd)
{
	drmVersionPtr ver = drmGetVersion(fd);
	bool ok = ver && ver->name && strcmp(ver->name, "sleipnir") == 0 &&
		  (ver->version_major > 0 ||
		   ver->version_minor >= SL_DRM_MIN_MINOR);

	if (ver)
		drmFreeVersion(ver);
	return ok;
}

int sl_drm_open(struct sl_drm **out)
{
	struct sl_drm *dev;
	struct dirent *de;
	DIR *d;
	int err = -ENODEV;

	*out = NULL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->fd = -1;
	/*
	 * Every render node, whatever its minor: the board may have other
	 * GPUs (virtio) before ours. The driver's name says which is ours.
	 */
	d = opendir(DRI_DIR);
	while (d && dev->fd < 0 && (de = readdir(d))) {
		int fd;

		if (strncmp(de->d_name, "renderD", 7) != 0)
			continue;
		snprintf(dev->node, sizeof(dev->node), DRI_DIR "/%.32s",
			 de->d_name);
		fd = open(dev->node, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (is_sleipnir(fd))
			dev->fd = fd;
		else
			close(fd);
	}
	if (d)
		closedir(d);
	if (dev->fd >= 0) {
		uint64_t coherent = 0;

		err = sl_drm_get_param(dev, SLEIPNIR_PARAM_COHERENT, &coherent);
		dev->coherent = coherent != 0;
	}
	if (err) {
		sl_drm_close(dev);
		return err;
	}
	*out = dev;
	return 0;
}

int sl_drm_open_node(const char *path, struct sl_drm **out)
{
	struct sl_drm *dev;
	uint64_t coherent = 0;
	int err;

	*out = NULL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	snprintf(dev->node, sizeof(dev->node), "%s", path);
	dev->fd = open(path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0)
		err = -errno;
	else if (!is_sleipnir(dev->fd))
		err = -ENODEV;
	else
		err = sl_drm_get_param(dev, SLEIPNIR_PARAM_COHERENT, &coherent);
	if (err) {
		sl_drm_close(dev);
		return err;
	}
	dev->coherent = coherent != 0;
	*out = dev;
	return 0;
}

void sl_drm_close(struct sl_drm *dev)
{
	if (!dev)
		return;
	if (dev->fd >= 0)
		close(dev->fd);
	free(dev);
}

int sl_drm_fd(const struct sl_drm *dev)
{
	return dev->fd;
}

const char *sl_drm_node(const struct sl_drm *dev)
{
	return dev->node;
}

int sl_drm_ioctl(struct sl_drm *dev, unsigned long request, void *arg)
{
	return do_ioctl(dev, request, arg);
}

int sl_drm_get_param(struct sl_drm *dev, uint32_t param, uint64_t *value)
{
	struct drm_sleipnir_get_param gp = { .param = param };
	int err = do_ioctl(dev, DRM_IOCTL_SLEIPNIR_GET_PARAM, &gp);

	if (!err)
		*value = gp.value;
	return err;
}

/* --- buffer objects ------------------------------------------------------ */

static int gem_close(struct sl_drm *dev, uint32_t handle)
{
	struct drm_gem_close args = { .handle = handle };

	return do_ioctl(dev, DRM_IOCTL_GEM_CLOSE, &args);
}

static int new_bo(struct sl_drm *dev, uint32_t handle, uint32_t flags,
		  uint64_t size, struct sl_bo **out)
{
	struct sl_bo *bo = calloc(1, sizeof(*bo));

	if (!bo) {
		gem_close(dev, handle);
		return -ENOMEM;
	}
	bo->dev = dev;
	bo->handle = handle;
	bo->flags = flags;
	bo->size = size;
	*out = bo;
	return 0;
}

int sl_bo_create(struct sl_drm *dev, uint64_t size, uint32_t flags,
		 struct sl_bo **out)
{
	struct drm_sleipnir_bo_create c = { .size = size, .flags = flags };
	int err;

	*out = NULL;
	err = do_ioctl(dev, DRM_IOCTL_SLEIPNIR_BO_CREATE, &c);
	if (err)
		return err;
	return new_bo(dev, c.handle, flags, c.size, out);
}

int sl_bo_userptr(struct sl_drm *dev, void *ptr, uint64_t size,
		  uint32_t flags, struct sl_bo **out)
{
	struct drm_sleipnir_bo_userptr u = {
		.user_ptr = (uint64_t)(uintptr_t)ptr,
		.size = size,
		.flags = flags,
	};
	int err;

	*out = NULL;
	err = do_ioctl(dev, DRM_IOCTL_SLEIPNIR_BO_USERPTR, &u);
	if (err)
		return err;
	/* What BO_INFO would say: userptr implies these two. */
	return new_bo(dev, u.handle, flags | SLEIPNIR_BO_USERPTR |
		      SLEIPNIR_BO_NO_CPU_MAP | SLEIPNIR_BO_CPU_CACHED, size,
		      out);
}

void sl_bo_destroy(struct sl_bo *bo)
{
	if (!bo)
		return;
	sl_vm_unmap(bo);
	if (bo->map)
		munmap(bo->map, bo->size);
	gem_close(bo->dev, bo->handle);
	free(bo);
}

int sl_bo_mmap(struct sl_bo *bo, void **cpu)
{
	struct drm_sleipnir_bo_mmap_offset mo = { .handle = bo->handle };
	void *p;
	int err;

	if (!bo->map) {
		err = do_ioctl(bo->dev, DRM_IOCTL_SLEIPNIR_BO_MMAP_OFFSET, &mo);
		if (err)
			return err;
		p = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 bo->dev->fd, (off_t)mo.offset);
		if (p == MAP_FAILED)
			return -errno;
		bo->map = p;
	}
	*cpu = bo->map;
	return 0;
}

int sl_bo_sync(struct sl_bo *bo, uint32_t op, uint64_t offset,
	       uint64_t size)
{
	struct drm_sleipnir_bo_sync s = { .handle = bo->handle, .op = op,
					  .offset = offset, .size = size };

	if (!size) {
		if (offset >= bo->size)
			return -EINVAL;
		s.size = bo->size - offset;
	}
	/* The kernel would do nothing either; spare the syscall. */
	if (bo->dev->coherent || !(bo->flags & SLEIPNIR_BO_CPU_CACHED))
		return 0;
	return do_ioctl(bo->dev, DRM_IOCTL_SLEIPNIR_BO_SYNC, &s);
}

int sl_bo_wait(struct sl_bo *bo, unsigned int timeout_ms)
{
	struct drm_sleipnir_bo_wait w = {
		.handle = bo->handle,
		.timeout_ns = deadline_ns(timeout_ms),
	};

	return do_ioctl(bo->dev, DRM_IOCTL_SLEIPNIR_BO_WAIT, &w);
}

int sl_bo_info(struct sl_drm *dev, uint32_t handle, uint32_t *flags,
	       uint64_t *size)
{
	struct drm_sleipnir_bo_info i = { .handle = handle };
	int err = do_ioctl(dev, DRM_IOCTL_SLEIPNIR_BO_INFO, &i);

	if (err)
		return err;
	if (flags)
		*flags = i.flags;
	if (size)
		*size = i.size;
	return 0;
}

int sl_bo_export(struct sl_bo *bo, uint32_t flags, int *dmabuf_fd)
{
	return drm_ret(drmPrimeHandleToFD(bo->dev->fd, bo->handle, flags,
					  dmabuf_fd));
}

int sl_bo_import(struct sl_drm *dev, int dmabuf_fd, struct sl_bo **out)
{
	uint32_t handle = 0, flags = 0;
	uint64_t size = 0;
	int err;

	*out = NULL;
	err = drm_ret(drmPrimeFDToHandle(dev->fd, dmabuf_fd, &handle));
	if (err)
		return err;
	err = sl_bo_info(dev, handle, &flags, &size);
	if (err) {
		gem_close(dev, handle);
		return err;
	}
	return new_bo(dev, handle, flags, size, out);
}

/* --- GPU address space --------------------------------------------------- */

int sl_vm_map(struct sl_bo *bo, uint64_t va, uint32_t flags)
{
	struct drm_sleipnir_vm_map m = {
		.handle = bo->handle,
		.flags = flags | (va ? 0 : SLEIPNIR_VM_MAP_AUTO_VA),
		.size = bo->size,
		.va = va,
	};
	int err;

	if (bo->va)
		return -EBUSY;
	err = do_ioctl(bo->dev, DRM_IOCTL_SLEIPNIR_VM_MAP, &m);
	if (err)
		return err;
	bo->va = m.va;
	bo->va_size = bo->size;
	return 0;
}

static bool code_fits(uint64_t va, uint64_t size)
{
	return va / CODE_REGION == (va + size) / CODE_REGION;
}

int sl_vm_map_code(struct sl_bo *bo, uint32_t flags)
{
	uint64_t va, end = 0;
	int err;

	if (bo->size + PAGE > CODE_REGION)
		return -E2BIG;
	/* Where the kernel puts it is usually fine... */
	err = sl_vm_map(bo, 0, flags);
	if (err || code_fits(bo->va, bo->size))
		return err;
	/*
	 * ...else try the next 16 MiB regions, a page in: the kernel keeps
	 * the first page of a region free too. An overlap is -EINVAL.
	 */
	va = (bo->va / CODE_REGION + 1) * CODE_REGION + PAGE;
	sl_vm_unmap(bo);
	err = sl_drm_get_param(bo->dev, SLEIPNIR_PARAM_VA_END, &end);
	if (err)
		return err;
	for (; va + bo->size <= end; va += CODE_REGION) {
		err = sl_vm_map(bo, va, flags);
		if (err != -EINVAL)
			return err;
	}
	return -ENOSPC;
}

int sl_vm_unmap(struct sl_bo *bo)
{
	struct drm_sleipnir_vm_unmap u = { .va = bo->va, .size = bo->va_size };
	int err;

	if (!bo->va)
		return 0;
	err = do_ioctl(bo->dev, DRM_IOCTL_SLEIPNIR_VM_UNMAP, &u);
	if (!err) {
		bo->va = 0;
		bo->va_size = 0;
	}
	return err;
}

/* --- syncobjs ------------------------------------------------------------ */

int sl_syncobj_create(struct sl_drm *dev, bool signaled, uint32_t *handle)
{
	return drm_ret(drmSyncobjCreate(dev->fd,
					signaled ? DRM_SYNCOBJ_CREATE_SIGNALED :
					0, handle));
}

void sl_syncobj_destroy(struct sl_drm *dev, uint32_t handle)
{
	if (handle)
		drmSyncobjDestroy(dev->fd, handle);
}

int sl_syncobj_wait(struct sl_drm *dev, const uint32_t *handles,
		    unsigned int count, bool all, unsigned int timeout_ms)
{
	uint32_t flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
			 (all ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL : 0);

	/* libdrm's prototype takes a non-const array it does not write. */
	return drm_ret(drmSyncobjWait(dev->fd, (uint32_t *)handles, count,
				      deadline_ns(timeout_ms), flags, NULL));
}

int sl_syncobj_timeline_wait(struct sl_drm *dev, uint32_t handle,
			     uint64_t point, unsigned int timeout_ms)
{
	return drm_ret(drmSyncobjTimelineWait(dev->fd, &handle, &point, 1,
					      deadline_ns(timeout_ms),
					      DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
					      NULL));
}

int sl_syncobj_status(struct sl_drm *dev, uint32_t handle, int *status)
{
	struct sync_file_info info;
	int sync_fd = -1, err;

	err = drm_ret(drmSyncobjExportSyncFile(dev->fd, handle, &sync_fd));
	if (err)
		return err;
	memset(&info, 0, sizeof(info));
	err = ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info) ? -errno : 0;
	close(sync_fd);
	if (!err)
		*status = info.status;
	return err;
}

/* --- submission and faults ----------------------------------------------- */

int sl_submit(struct sl_drm *dev, const struct sl_submit *s)
{
	struct drm_sleipnir_submit args = {
		.jc = s->jc,
		.in_syncs = {
			.stride = sizeof(struct drm_sleipnir_sync_op),
			.count = s->num_in_syncs,
			.array = (uint64_t)(uintptr_t)s->in_syncs,
		},
		.out_syncs = {
			.stride = sizeof(struct drm_sleipnir_sync_op),
			.count = s->num_out_syncs,
			.array = (uint64_t)(uintptr_t)s->out_syncs,
		},
		.bos = {
			.stride = sizeof(struct drm_sleipnir_bo_ref),
			.count = s->num_bos,
			.array = (uint64_t)(uintptr_t)s->bos,
		},
		.requirements = s->requirements,
		.timeout_ms = s->timeout_ms,
	};

	return do_ioctl(dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &args);
}

int sl_get_fault(struct sl_drm *dev, bool clear,
		 struct drm_sleipnir_get_fault *fault)
{
	memset(fault, 0, sizeof(*fault));
	fault->flags = clear ? SLEIPNIR_GET_FAULT_CLEAR : 0;
	return do_ioctl(dev, DRM_IOCTL_SLEIPNIR_GET_FAULT, fault);
}
