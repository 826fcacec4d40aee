// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: DRM render driver for ARM Mali Midgard GPUs. Platform driver
 * glue, the DRM driver description and the ioctls.
 */
#include <linux/bitfield.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/slab.h>

#include <asm/arch_timer.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_prime.h>
#include <drm/drm_print.h>
#include <drm/sleipnir_drm.h>

#include "sleipnir_common.h"
#include "sleipnir_compat.h"
#include "sleipnir_debugfs.h"
#include "sleipnir_device.h"
#include "sleipnir_drv.h"
#include "sleipnir_fault.h"
#include "sleipnir_gem.h"
#include "sleipnir_mmu.h"
#include "sleipnir_sched.h"
#include "sleipnir_selftest.h"
#include "sleipnir_submit.h"

unsigned int sleipnir_max_job_timeout_ms = SLEIPNIR_JOB_TIMEOUT_MAX_MS_DEFAULT;
module_param_named(max_job_timeout_ms, sleipnir_max_job_timeout_ms, uint,
		   0644);
MODULE_PARM_DESC(max_job_timeout_ms,
		 "Longest time a job chain may run, in ms (default 60000)");

/* The values are those of sleipnir_features.h, which the simulator shares. */
static int sleipnir_ioctl_get_param(struct drm_device *ddev, void *data,
				    struct drm_file *file)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	struct drm_sleipnir_get_param *args = data;
	const struct sleipnir_param_state state = {
		.core_mask		= sdev->core_mask,
		.js_count		= sdev->js_count,
		.as_count		= sdev->as_count,
		.timestamp_hz		= arch_timer_get_cntfrq(),
		.max_job_timeout_ms	= READ_ONCE(sleipnir_max_job_timeout_ms),
		.coherent		= sdev->coherent,
	};

	if (args->pad)
		return -EINVAL;

	return sleipnir_param_value(&sdev->features, &state, args->param,
				    &args->value);
}

static int sleipnir_open(struct drm_device *ddev, struct drm_file *file)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	struct sleipnir_file *sfile;
	int ret;

	sfile = kzalloc(sizeof(*sfile), GFP_KERNEL);
	if (!sfile)
		return -ENOMEM;
	sfile->sdev = sdev;

	sfile->vm = sleipnir_vm_create(sdev);
	if (IS_ERR(sfile->vm)) {
		ret = PTR_ERR(sfile->vm);
		goto err_free;
	}

	ret = sleipnir_sched_open(sfile);
	if (ret)
		goto err_vm;

	mutex_lock(&sdev->clients_lock);
	sfile->id = sdev->next_client_id++;
	list_add_tail(&sfile->node, &sdev->clients);
	mutex_unlock(&sdev->clients_lock);

	file->driver_priv = sfile;
	return 0;

err_vm:
	sleipnir_vm_put(sfile->vm);
err_free:
	kfree(sfile);
	return ret;
}

static void sleipnir_postclose(struct drm_device *ddev, struct drm_file *file)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	struct sleipnir_file *sfile = file->driver_priv;

	mutex_lock(&sdev->clients_lock);
	list_del(&sfile->node);
	mutex_unlock(&sdev->clients_lock);

	sleipnir_sched_close(sfile);
	/* Chains still on the GPU hold the VM until they end. */
	sleipnir_vm_put(sfile->vm);
	kfree(sfile);
}

static const struct drm_ioctl_desc sleipnir_ioctls[] = {
	DRM_IOCTL_DEF_DRV(SLEIPNIR_GET_PARAM, sleipnir_ioctl_get_param,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SLEIPNIR_BO_CREATE, sleipnir_ioctl_bo_create,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SLEIPNIR_BO_MMAP_OFFSET, sleipnir_ioctl_bo_mmap_offset,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SLEIPNIR_BO_INFO, sleipnir_ioctl_bo_info,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SLEIPNIR_BO_WAIT, sleipnir_ioctl_bo_wait,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SLEIPNIR_BO_SYNC, sleipnir_ioctl_bo_sync,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SLEIPNIR_BO_USERPTR, sleipnir_ioctl_bo_userptr,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SLEIPNIR_VM_MAP, sleipnir_ioctl_vm_map,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SLEIPNIR_VM_UNMAP, sleipnir_ioctl_vm_unmap,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SLEIPNIR_SUBMIT, sleipnir_ioctl_submit,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(SLEIPNIR_GET_FAULT, sleipnir_ioctl_get_fault,
			  DRM_RENDER_ALLOW),
};

/*
 * fdinfo: the client's id, the time its chains spent on each slot and, where
 * the DRM core sums them up (sleipnir_compat.h), its BOs' sizes.
 */
void sleipnir_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct sleipnir_file *sfile = file->driver_priv;
	struct sleipnir_vm *vm = sfile->vm;
	unsigned int js;

	sleipnir_compat_fdinfo_ids(p, file, sfile->id);
	for (js = 0; js < sfile->sdev->js_count; js++)
		drm_printf(p, "drm-engine-js%u:\t%lld ns\n", js,
			   atomic64_read(&vm->usage.busy_ns[js]));
	sleipnir_compat_fdinfo_memory(p, file);
}

/*
 * DRM_GEM_FOPS follows the kernel: 6.12's DRM core refuses to open a file
 * whose operations lack FOP_UNSIGNED_OFFSET (GEM mmap offsets are above
 * 2^63), which it sets there.
 */
static const struct file_operations sleipnir_fops = {
	.owner		= THIS_MODULE,
	DRM_GEM_FOPS,
	SLEIPNIR_COMPAT_FOPS_SHOW_FDINFO,
};

static const struct drm_driver sleipnir_drm_driver = {
	.driver_features	= DRIVER_RENDER | DRIVER_GEM |
				  DRIVER_SYNCOBJ | DRIVER_SYNCOBJ_TIMELINE,
	.open			= sleipnir_open,
	.postclose		= sleipnir_postclose,
	.ioctls			= sleipnir_ioctls,
	.num_ioctls		= ARRAY_SIZE(sleipnir_ioctls),
	.fops			= &sleipnir_fops,
	.gem_create_object	= sleipnir_gem_create_object,
	.prime_handle_to_fd	= drm_gem_prime_handle_to_fd,
	.prime_fd_to_handle	= drm_gem_prime_fd_to_handle,
	.gem_prime_import_sg_table = sleipnir_gem_prime_import_sg_table,
	SLEIPNIR_COMPAT_DRM_DRIVER_OPS,
#ifdef CONFIG_DEBUG_FS
	.debugfs_init		= sleipnir_debugfs_init,
#endif
	.name			= SLEIPNIR_DRIVER_NAME,
	.desc			= SLEIPNIR_DRIVER_DESC,
	.date			= SLEIPNIR_DRIVER_DATE,
	.major			= SLEIPNIR_DRIVER_MAJOR,
	.minor			= SLEIPNIR_DRIVER_MINOR,
};

static int sleipnir_probe(struct platform_device *pdev)
{
	struct sleipnir_device *sdev;
	int ret;

	sdev = devm_drm_dev_alloc(&pdev->dev, &sleipnir_drm_driver,
				  struct sleipnir_device, ddev);
	if (IS_ERR(sdev))
		return PTR_ERR(sdev);

	sdev->dev = &pdev->dev;
	platform_set_drvdata(pdev, sdev);

	ret = sleipnir_device_init(sdev);
	if (ret)
		return ret;

	/* Before clients can submit: the test owns a job slot meanwhile. */
	sleipnir_selftest_run(sdev);

	ret = drm_dev_register(&sdev->ddev, 0);
	if (ret) {
		sleipnir_device_fini(sdev);
		return dev_err_probe(&pdev->dev, ret,
				     "failed to register the DRM device\n");
	}

	return 0;
}

/*
 * Module unload cannot happen while a file is open (the files hold the
 * module); unbinding the device with clients open is not supported.
 */
static void sleipnir_remove(struct platform_device *pdev)
{
	struct sleipnir_device *sdev = platform_get_drvdata(pdev);

	drm_dev_unregister(&sdev->ddev);
	sleipnir_device_fini(sdev);
}

/* The Midgard compatibles of the upstream arm,mali-midgard binding. */
static const struct of_device_id sleipnir_of_match[] = {
	{ .compatible = "arm,mali-t604" },
	{ .compatible = "arm,mali-t624" },
	{ .compatible = "arm,mali-t628" },
	{ .compatible = "arm,mali-t720" },
	{ .compatible = "arm,mali-t760" },
	{ .compatible = "arm,mali-t820" },
	{ .compatible = "arm,mali-t830" },
	{ .compatible = "arm,mali-t860" },
	{ .compatible = "arm,mali-t880" },
	{ }
};
MODULE_DEVICE_TABLE(of, sleipnir_of_match);

static struct platform_driver sleipnir_platform_driver = {
	.probe		= sleipnir_probe,
	SLEIPNIR_COMPAT_PLATFORM_REMOVE(sleipnir_remove),
	.driver		= {
		.name		= SLEIPNIR_DRIVER_NAME,
		.of_match_table	= sleipnir_of_match,
		.pm		= pm_ptr(&sleipnir_pm_ops),
	},
};
module_platform_driver(sleipnir_platform_driver);

MODULE_DESCRIPTION(SLEIPNIR_DRIVER_DESC);
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(DMA_BUF);
