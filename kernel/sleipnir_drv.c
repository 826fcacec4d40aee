// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: DRM render driver for ARM Mali Midgard GPUs. Platform driver
 * glue, the DRM driver description and the ioctls.
 */
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/sleipnir_drm.h>

#include "sleipnir_device.h"

#define DRIVER_NAME	"sleipnir"
#define DRIVER_DESC	"DRM driver for ARM Mali Midgard GPUs"
#define DRIVER_DATE	"20261121"
#define DRIVER_MAJOR	0
#define DRIVER_MINOR	1

static int sleipnir_ioctl_get_param(struct drm_device *ddev, void *data,
				    struct drm_file *file)
{
	struct sleipnir_device *sdev = to_sleipnir_device(ddev);
	const struct sleipnir_features *f = &sdev->features;
	struct drm_sleipnir_get_param *args = data;
	u32 param = args->param;

	if (args->pad)
		return -EINVAL;

	switch (param) {
	case SLEIPNIR_PARAM_GPU_ID:
		args->value = f->gpu_id;
		break;
	case SLEIPNIR_PARAM_SHADER_PRESENT:
		args->value = f->shader_present;
		break;
	case SLEIPNIR_PARAM_L2_PRESENT:
		args->value = f->l2_present;
		break;
	case SLEIPNIR_PARAM_AS_PRESENT:
		args->value = f->as_present;
		break;
	case SLEIPNIR_PARAM_JS_PRESENT:
		args->value = f->js_present;
		break;
	case SLEIPNIR_PARAM_TILER_PRESENT:
		args->value = f->tiler_present;
		break;
	case SLEIPNIR_PARAM_L2_FEATURES:
		args->value = f->l2_features;
		break;
	case SLEIPNIR_PARAM_CORE_FEATURES:
		args->value = f->core_features;
		break;
	case SLEIPNIR_PARAM_TILER_FEATURES:
		args->value = f->tiler_features;
		break;
	case SLEIPNIR_PARAM_MEM_FEATURES:
		args->value = f->mem_features;
		break;
	case SLEIPNIR_PARAM_MMU_FEATURES:
		args->value = f->mmu_features;
		break;
	case SLEIPNIR_PARAM_THREAD_FEATURES:
		args->value = f->thread_features;
		break;
	case SLEIPNIR_PARAM_THREAD_MAX_THREADS:
		args->value = f->thread_max_threads;
		break;
	case SLEIPNIR_PARAM_THREAD_MAX_WORKGROUP_SIZE:
		args->value = f->thread_max_workgroup_size;
		break;
	case SLEIPNIR_PARAM_THREAD_MAX_BARRIER_SIZE:
		args->value = f->thread_max_barrier_size;
		break;
	case SLEIPNIR_PARAM_THREAD_TLS_ALLOC:
		args->value = f->thread_tls_alloc;
		break;
	case SLEIPNIR_PARAM_COHERENCY_FEATURES:
		args->value = f->coherency_features;
		break;
	case SLEIPNIR_PARAM_TEXTURE_FEATURES0 ... SLEIPNIR_PARAM_TEXTURE_FEATURES3:
		args->value =
			f->texture_features[param - SLEIPNIR_PARAM_TEXTURE_FEATURES0];
		break;
	case SLEIPNIR_PARAM_JS_FEATURES0 ... SLEIPNIR_PARAM_JS_FEATURES15:
		args->value = f->js_features[param - SLEIPNIR_PARAM_JS_FEATURES0];
		break;
	default:
		return -EINVAL;
	}

	return 0;
}

static const struct drm_ioctl_desc sleipnir_ioctls[] = {
	DRM_IOCTL_DEF_DRV(SLEIPNIR_GET_PARAM, sleipnir_ioctl_get_param,
			  DRM_RENDER_ALLOW),
};

DEFINE_DRM_GEM_FOPS(sleipnir_fops);

static const struct drm_driver sleipnir_drm_driver = {
	.driver_features	= DRIVER_RENDER | DRIVER_GEM,
	.ioctls			= sleipnir_ioctls,
	.num_ioctls		= ARRAY_SIZE(sleipnir_ioctls),
	.fops			= &sleipnir_fops,
	.name			= DRIVER_NAME,
	.desc			= DRIVER_DESC,
	.date			= DRIVER_DATE,
	.major			= DRIVER_MAJOR,
	.minor			= DRIVER_MINOR,
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

	ret = drm_dev_register(&sdev->ddev, 0);
	if (ret)
		return dev_err_probe(&pdev->dev, ret,
				     "failed to register the DRM device\n");

	return 0;
}

static int sleipnir_remove(struct platform_device *pdev)
{
	struct sleipnir_device *sdev = platform_get_drvdata(pdev);

	drm_dev_unregister(&sdev->ddev);

	return 0;
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
	.remove		= sleipnir_remove,
	.driver		= {
		.name		= DRIVER_NAME,
		.of_match_table	= sleipnir_of_match,
	},
};
module_platform_driver(sleipnir_platform_driver);

MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("GPL");
