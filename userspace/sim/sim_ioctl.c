/* SPDX-License-Identifier: MIT */
/*
 * The simulated render node: its files, and its ioctls as the DRM core's
 * drm_ioctl() dispatches them for a render client of sleipnir.ko
 * (kernel/sleipnir_drv.c): the argument is copied in and out by the sizes
 * in the request and the table, unknown driver numbers are -EINVAL, core
 * ioctls a render node may not use are -EACCES.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <drm.h>
#include <drm/sleipnir_drm.h>

#include "sim_core.h"
#include "sim_fd.h"

/* Linux 6.1's core ioctl table ends at DRM_IOCTL_MODE_GETFB2 (0xce). */
#define DRM_CORE_IOCTL_COUNT 0xcf
#define DRM_COMMAND_END_NR 0xa0

/* --- DRM core ioctls ------------------------------------------------------- */

/* drm_copy_field(): as much as fits, and the full length. */
static int copy_field(uint64_t buf, size_t *buf_len, const char *value)
{
	size_t len = strlen(value), n = len < *buf_len ? len : *buf_len;

	*buf_len = len;
	if (n && buf && sim_copy_to_user(buf, value, n))
		return -EFAULT;
	return 0;
}

static int ioctl_version(struct sim_file *file, void *arg)
{
	struct drm_version *v = arg;
	int ret;

	(void)file;
	v->version_major = SLEIPNIR_DRIVER_MAJOR;
	v->version_minor = SLEIPNIR_DRIVER_MINOR;
	v->version_patchlevel = 0;
	ret = copy_field((uintptr_t)v->name, &v->name_len, SLEIPNIR_DRIVER_NAME);
	if (!ret)
		ret = copy_field((uintptr_t)v->date, &v->date_len, SLEIPNIR_DRIVER_DATE);
	if (!ret)
		ret = copy_field((uintptr_t)v->desc, &v->desc_len, SLEIPNIR_DRIVER_DESC);
	return ret;
}

/* drm_getcap() for a render-only driver with syncobjs and timelines. */
static int ioctl_get_cap(struct sim_file *file, void *arg)
{
	struct drm_get_cap *cap = arg;

	(void)file;
	switch (cap->capability) {
	case DRM_CAP_TIMESTAMP_MONOTONIC:
		cap->value = 1;
		return 0;
	case DRM_CAP_PRIME:
		cap->value = DRM_PRIME_CAP_IMPORT | DRM_PRIME_CAP_EXPORT;
		return 0;
	case DRM_CAP_SYNCOBJ:
	case DRM_CAP_SYNCOBJ_TIMELINE:
		cap->value = 1;
		return 0;
	}
	return -EOPNOTSUPP;
}

static int ioctl_syncobj(struct sim_file *file, unsigned long cmd, void *arg)
{
	return sim_syncobj_ioctl(file->syncobjs, cmd, arg);
}

/* --- GET_PARAM ---------------------------------------------------------------- */

/* The kernel's values (kernel/sleipnir_features.h). */
static int get_param(struct sim_file *file, uint32_t param, __u64 *value)
{
	const struct sim_features *f = sim_device_features(file->dev);
	struct sleipnir_param_state state = f->derived;

	state.max_job_timeout_ms =
		sim_sched_max_job_timeout_ms(sim_device_sched(file->dev));
	return sleipnir_param_value(&f->hw, &state, param, value);
}

static int ioctl_get_param(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_get_param *args = arg;
	__u64 value;
	int ret;

	if (args->pad)
		return -EINVAL;
	ret = get_param(file, args->param, &value);
	if (!ret)
		args->value = value;
	return ret;
}

/* --- the table -------------------------------------------------------------------- */

struct ioctl_desc {
	unsigned long cmd;
	int (*fn)(struct sim_file *file, void *arg);
	bool syncobj;
};

#define DRV(name, f) \
	[DRM_SLEIPNIR_##name] = { DRM_IOCTL_SLEIPNIR_##name, f, false }

static const struct ioctl_desc driver_ioctls[] = {
	DRV(GET_PARAM, ioctl_get_param),
	DRV(BO_CREATE, sim_gem_ioctl_bo_create),
	DRV(BO_MMAP_OFFSET, sim_gem_ioctl_bo_mmap_offset),
	DRV(BO_INFO, sim_gem_ioctl_bo_info),
	DRV(BO_WAIT, sim_ioctl_bo_wait),
	DRV(BO_SYNC, sim_gem_ioctl_bo_sync),
	DRV(BO_USERPTR, sim_gem_ioctl_bo_userptr),
	DRV(VM_MAP, sim_vm_ioctl_map),
	DRV(VM_UNMAP, sim_vm_ioctl_unmap),
	DRV(SUBMIT, sim_ioctl_submit),
	DRV(GET_FAULT, sim_ioctl_get_fault),
};

/* The core ioctls a render node may use (DRM_RENDER_ALLOW in 6.1). */
static const struct ioctl_desc core_ioctls[] = {
	{ DRM_IOCTL_VERSION, ioctl_version, false },
	{ DRM_IOCTL_GET_CAP, ioctl_get_cap, false },
	{ DRM_IOCTL_GEM_CLOSE, sim_gem_ioctl_gem_close, false },
	{ DRM_IOCTL_PRIME_HANDLE_TO_FD, sim_gem_ioctl_prime_handle_to_fd,
	  false },
	{ DRM_IOCTL_PRIME_FD_TO_HANDLE, sim_gem_ioctl_prime_fd_to_handle,
	  false },
	{ DRM_IOCTL_SYNCOBJ_CREATE, NULL, true },
	{ DRM_IOCTL_SYNCOBJ_DESTROY, NULL, true },
	{ DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, NULL, true },
	{ DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, NULL, true },
	{ DRM_IOCTL_SYNCOBJ_WAIT, NULL, true },
	{ DRM_IOCTL_SYNCOBJ_RESET, NULL, true },
	{ DRM_IOCTL_SYNCOBJ_SIGNAL, NULL, true },
	{ DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, NULL, true },
	{ DRM_IOCTL_SYNCOBJ_QUERY, NULL, true },
	{ DRM_IOCTL_SYNCOBJ_TRANSFER, NULL, true },
	{ DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, NULL, true },
};

static int node_ioctl(void *obj, unsigned long cmd, void *arg)
{
	struct sim_file *file = obj;
	unsigned int nr = _IOC_NR(cmd);
	const struct ioctl_desc *desc = NULL;
	size_t in_size, out_size, drv_size, ksize;
	uint8_t stack_buf[128], *kdata = stack_buf;
	int ret;

	if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END_NR) {
		unsigned int index = nr - DRM_COMMAND_BASE;

		if (index >= sizeof(driver_ioctls) / sizeof(driver_ioctls[0]))
			return -EINVAL;
		desc = &driver_ioctls[index];
	} else {
		if (nr >= DRM_CORE_IOCTL_COUNT)
			return -EINVAL;
		for (size_t i = 0;
		     i < sizeof(core_ioctls) / sizeof(core_ioctls[0]); i++) {
			if (_IOC_NR(core_ioctls[i].cmd) == nr) {
				desc = &core_ioctls[i];
				break;
			}
		}
	}

	drv_size = desc ? _IOC_SIZE(desc->cmd) : 0;
	in_size = out_size = _IOC_SIZE(cmd);
	if (!desc || !(_IOC_DIR(cmd) & _IOC_DIR(desc->cmd) & _IOC_WRITE))
		in_size = 0;
	if (!desc || !(_IOC_DIR(cmd) & _IOC_DIR(desc->cmd) & _IOC_READ))
		out_size = 0;
	ksize = in_size > out_size ? in_size : out_size;
	if (drv_size > ksize)
		ksize = drv_size;
	if (ksize > sizeof(stack_buf)) {
		kdata = calloc(1, ksize);
		if (!kdata)
			return -ENOMEM;
	} else {
		memset(stack_buf, 0, sizeof(stack_buf));
	}
	if (sim_copy_from_user(kdata, (uintptr_t)arg, in_size)) {
		ret = -EFAULT;
		goto out;
	}

	if (!desc)
		ret = -EACCES;   /* a core ioctl without DRM_RENDER_ALLOW */
	else if (desc->syncobj)
		ret = ioctl_syncobj(file, desc->cmd, kdata);
	else
		ret = desc->fn(file, kdata);

	if (sim_copy_to_user((uintptr_t)arg, kdata, out_size))
		ret = -EFAULT;
out:
	if (kdata != stack_buf)
		free(kdata);
	return ret;
}

/* --- files -------------------------------------------------------------------------- */

static void node_release(void *obj)
{
	struct sim_file *file = obj;

	/* The scheduler lets the file's jobs end first. */
	if (file->jobs)
		sim_sched_file_close(file->jobs);
	sim_vm_destroy(file->vm);
	sim_gem_file_close(file);
	if (file->syncobjs)
		sim_syncobj_table_free(file->syncobjs);
	pthread_mutex_destroy(&file->handles_lock);
	free(file);
}

static void *node_mmap(void *obj, void *addr, size_t len, int prot,
		       int flags, off_t offset)
{
	return sim_gem_mmap(obj, addr, len, prot, flags, offset);
}

static const struct sim_fd_ops node_ops = {
	.name = "sleipnir-sim-node",
	.ioctl = node_ioctl,
	.mmap = node_mmap,
	.release = node_release,
};

int sim_node_open(int flags)
{
	struct sim_device *dev = sim_device_get();
	struct sim_file *file;
	int fd;

	if (!dev)
		return -(errno ? errno : ENODEV);
	if ((flags & O_ACCMODE) != O_RDWR && (flags & O_ACCMODE) != O_RDONLY &&
	    (flags & O_ACCMODE) != O_WRONLY)
		return -EINVAL;
	file = calloc(1, sizeof(*file));
	if (!file)
		return -ENOMEM;
	file->dev = dev;
	pthread_mutex_init(&file->handles_lock, NULL);
	file->vm = sim_vm_create(file);
	file->syncobjs = sim_syncobj_table_new();
	if (!file->vm || !file->syncobjs)
		goto err;
	file->jobs = sim_sched_file_open(sim_device_sched(dev), file);
	if (!file->jobs)
		goto err;
	fd = sim_fd_install(&node_ops, file, flags & O_CLOEXEC);
	if (fd < 0) {
		node_release(file);
		return fd;
	}
	return fd;

err:
	node_release(file);
	return -ENOMEM;
}
