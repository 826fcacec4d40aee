// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: bring-up, reset and power management of one GPU.
 *
 * Probe takes the clocks, supply, reset lines, power domain (through the
 * platform bus), register window and interrupts, identifies the GPU and
 * powers it. Runtime PM then powers the GPU off when it has been idle for
 * SLEIPNIR_AUTOSUSPEND_MS and back on for the next chain; system suspend
 * waits for the chains on the GPU to finish first.
 */
#include <linux/bitfield.h>
#include <linux/clk.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/regulator/consumer.h>
#include <linux/reset.h>

#include "sleipnir_device.h"
#include "sleipnir_gpu.h"
#include "sleipnir_mmu.h"
#include "sleipnir_regs.h"
#include "sleipnir_sched.h"

/* Idle time after which the GPU is powered off. */
#define SLEIPNIR_AUTOSUSPEND_MS		50
/* How long system suspend waits for running chains. */
#define SLEIPNIR_SUSPEND_DRAIN_MS	1000

static int sleipnir_clocks_enable(struct sleipnir_device *sdev)
{
	int ret;

	ret = clk_prepare_enable(sdev->clock);
	if (ret)
		return ret;
	ret = clk_prepare_enable(sdev->bus_clock);
	if (ret)
		clk_disable_unprepare(sdev->clock);
	return ret;
}

static void sleipnir_clocks_disable(struct sleipnir_device *sdev)
{
	clk_disable_unprepare(sdev->bus_clock);
	clk_disable_unprepare(sdev->clock);
}

static void sleipnir_clocks_disable_action(void *data)
{
	sleipnir_clocks_disable(data);
}

static void sleipnir_reset_assert(void *data)
{
	reset_control_assert(data);
}

static int sleipnir_get_resources(struct sleipnir_device *sdev)
{
	struct device *dev = sdev->dev;
	int ret;

	sdev->clock = devm_clk_get(dev, NULL);
	if (IS_ERR(sdev->clock))
		return dev_err_probe(dev, PTR_ERR(sdev->clock),
				     "failed to get the GPU clock\n");
	sdev->bus_clock = devm_clk_get_optional(dev, "bus");
	if (IS_ERR(sdev->bus_clock))
		return dev_err_probe(dev, PTR_ERR(sdev->bus_clock),
				     "failed to get the bus clock\n");
	ret = sleipnir_clocks_enable(sdev);
	if (ret)
		return dev_err_probe(dev, ret, "failed to enable the clocks\n");
	/* Runtime PM leaves them on when the device goes away. */
	ret = devm_add_action_or_reset(dev, sleipnir_clocks_disable_action,
				       sdev);
	if (ret)
		return ret;

	ret = devm_regulator_get_enable_optional(dev, "mali");
	if (ret && ret != -ENODEV)
		return dev_err_probe(dev, ret, "failed to enable mali-supply\n");

	sdev->rstc = devm_reset_control_array_get_optional_exclusive(dev);
	if (IS_ERR(sdev->rstc))
		return dev_err_probe(dev, PTR_ERR(sdev->rstc),
				     "failed to get the reset lines\n");
	if (sdev->rstc) {
		ret = reset_control_deassert(sdev->rstc);
		if (ret)
			return dev_err_probe(dev, ret,
					     "failed to deassert the reset lines\n");
		ret = devm_add_action_or_reset(dev, sleipnir_reset_assert,
					       sdev->rstc);
		if (ret)
			return ret;
	}

	sdev->iomem = devm_platform_ioremap_resource(to_platform_device(dev), 0);
	if (IS_ERR(sdev->iomem))
		return dev_err_probe(dev, PTR_ERR(sdev->iomem),
				     "failed to map the registers\n");

	sdev->coherent = device_get_dma_attr(dev) == DEV_DMA_COHERENT;
	return 0;
}

static void sleipnir_irqs_enable(struct sleipnir_device *sdev)
{
	sleipnir_gpu_irq_enable(sdev);
	sleipnir_job_irq_enable(sdev);
	sleipnir_mmu_irq_enable(sdev);
}

static void sleipnir_irqs_disable(struct sleipnir_device *sdev)
{
	sleipnir_job_irq_disable(sdev);
	sleipnir_mmu_irq_disable(sdev);
	sleipnir_gpu_irq_disable(sdev);
}

/**
 * sleipnir_device_reset_hw() - Brings the GPU from any state to ready.
 * @sdev: the GPU, clocked.
 *
 * Soft reset, errata settings, power-up of the cores, interrupts unmasked.
 * Every address space is empty afterwards.
 *
 * Return: 0, or the soft reset's error.
 */
int sleipnir_device_reset_hw(struct sleipnir_device *sdev)
{
	int ret;

	ret = sleipnir_gpu_soft_reset(sdev);
	if (ret)
		return ret;
	sleipnir_gpu_power_on(sdev);
	sleipnir_irqs_enable(sdev);
	return 0;
}

static int sleipnir_request_gpu_irq(struct sleipnir_device *sdev)
{
	struct platform_device *pdev = to_platform_device(sdev->dev);
	int ret;

	sdev->irq_gpu = platform_get_irq_byname(pdev, "gpu");
	if (sdev->irq_gpu < 0)
		return sdev->irq_gpu;

	ret = devm_request_irq(sdev->dev, sdev->irq_gpu,
			       sleipnir_gpu_irq_handler, IRQF_SHARED,
			       KBUILD_MODNAME "-gpu", sdev);
	if (ret)
		return dev_err_probe(sdev->dev, ret,
				     "failed to request the gpu interrupt\n");
	return 0;
}

int sleipnir_device_init(struct sleipnir_device *sdev)
{
	struct device *dev = sdev->dev;
	unsigned int pa_bits;
	int ret;

	INIT_LIST_HEAD(&sdev->clients);
	mutex_init(&sdev->clients_lock);
	sleipnir_fault_log_init(&sdev->faults);

	ret = sleipnir_get_resources(sdev);
	if (ret)
		return ret;

	ret = sleipnir_gpu_soft_reset(sdev);
	if (ret)
		return ret;
	ret = sleipnir_gpu_init_features(sdev);
	if (ret)
		return ret;

	/* The page tables and the pages the GPU sees must be within reach. */
	pa_bits = FIELD_GET(SLP_MMU_FEATURES_PA_BITS,
			    sdev->features.mmu_features);
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(pa_bits));
	if (ret)
		return dev_err_probe(dev, ret, "failed to set the DMA mask\n");

	/* All sources are masked by the reset, so nothing fires yet. */
	ret = sleipnir_mmu_init(sdev);
	if (ret)
		return ret;
	ret = sleipnir_request_gpu_irq(sdev);
	if (ret)
		return ret;
	ret = sleipnir_sched_init(sdev);
	if (ret)
		return ret;

	ret = sleipnir_device_reset_hw(sdev);
	if (ret) {
		sleipnir_sched_fini(sdev);
		return ret;
	}

	/* Powered and in use until probe ends (sleipnir_device_ready). */
	pm_runtime_set_active(dev);
	pm_runtime_get_noresume(dev);
	pm_runtime_set_autosuspend_delay(dev, SLEIPNIR_AUTOSUSPEND_MS);
	pm_runtime_use_autosuspend(dev);
	pm_runtime_enable(dev);
	pm_runtime_mark_last_busy(dev);
	pm_runtime_put_autosuspend(dev);

	return 0;
}

/* Undoes sleipnir_device_init(); the GPU ends powered off. */
void sleipnir_device_fini(struct sleipnir_device *sdev)
{
	pm_runtime_get_sync(sdev->dev);
	sleipnir_sched_fini(sdev);
	sleipnir_irqs_disable(sdev);
	sleipnir_mmu_forget_all(sdev);
	sleipnir_gpu_power_off(sdev);
	pm_runtime_disable(sdev->dev);
	pm_runtime_dont_use_autosuspend(sdev->dev);
	pm_runtime_put_noidle(sdev->dev);
	pm_runtime_set_suspended(sdev->dev);
	/* Leave the clocks on: the devres action turns them off. */
}

/* ---- power management ---- */

static int sleipnir_runtime_suspend(struct device *dev)
{
	struct sleipnir_device *sdev = dev_get_drvdata(dev);

	if (!sleipnir_sched_idle(sdev))
		return -EBUSY;

	sleipnir_irqs_disable(sdev);
	synchronize_irq(sdev->irq_job);
	synchronize_irq(sdev->irq_mmu);
	synchronize_irq(sdev->irq_gpu);
	/* The address spaces lose their contents with the power. */
	sleipnir_mmu_forget_all(sdev);
	sleipnir_gpu_power_off(sdev);
	sleipnir_clocks_disable(sdev);
	return 0;
}

static int sleipnir_runtime_resume(struct device *dev)
{
	struct sleipnir_device *sdev = dev_get_drvdata(dev);
	int ret;

	ret = sleipnir_clocks_enable(sdev);
	if (ret)
		return ret;
	ret = sleipnir_device_reset_hw(sdev);
	if (ret)
		sleipnir_clocks_disable(sdev);
	return ret;
}

static int sleipnir_system_suspend(struct device *dev)
{
	struct sleipnir_device *sdev = dev_get_drvdata(dev);
	unsigned int waited = 0;
	int ret;

	sleipnir_sched_pause(sdev);
	while (!sleipnir_sched_idle(sdev)) {
		if (waited >= SLEIPNIR_SUSPEND_DRAIN_MS) {
			dev_warn(dev, "chains still running, not suspending\n");
			sleipnir_sched_unpause(sdev);
			return -EBUSY;
		}
		usleep_range(10000, 20000);
		waited += 10;
	}

	ret = pm_runtime_force_suspend(dev);
	if (ret)
		sleipnir_sched_unpause(sdev);
	return ret;
}

static int sleipnir_system_resume(struct device *dev)
{
	struct sleipnir_device *sdev = dev_get_drvdata(dev);
	int ret;

	ret = pm_runtime_force_resume(dev);
	sleipnir_sched_unpause(sdev);
	return ret;
}

const struct dev_pm_ops sleipnir_pm_ops = {
	SYSTEM_SLEEP_PM_OPS(sleipnir_system_suspend, sleipnir_system_resume)
	RUNTIME_PM_OPS(sleipnir_runtime_suspend, sleipnir_runtime_resume, NULL)
};
