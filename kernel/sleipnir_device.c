// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: bring-up of one GPU. Takes the clocks, supply, reset lines,
 * register window and interrupts of the platform device, resets and
 * identifies the GPU and powers its cores. Everything is device-managed, so
 * it is released in reverse order when the device goes away.
 */
#include <linux/bitfield.h>
#include <linux/clk.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/platform_device.h>
#include <linux/regulator/consumer.h>
#include <linux/reset.h>

#include "sleipnir_device.h"
#include "sleipnir_gpu.h"
#include "sleipnir_regs.h"

/*
 * Job and MMU interrupts. Nothing is submitted and no address space is
 * enabled yet, so these only report and acknowledge what they see; they move
 * to sleipnir_job.c and sleipnir_mmu.c with job submission and the MMU.
 */
static irqreturn_t sleipnir_job_irq_handler(int irq, void *data)
{
	struct sleipnir_device *sdev = data;
	unsigned long failed;
	unsigned int js;
	u32 stat;

	stat = sleipnir_read(sdev, SLP_JOB_INT_STAT);
	if (!stat)
		return IRQ_NONE;

	failed = stat >> 16;
	for_each_set_bit(js, &failed, SLP_JS_COUNT_MAX)
		dev_warn_ratelimited(sdev->dev,
				     "job slot %u failed: status 0x%08x\n",
				     js, sleipnir_read(sdev, SLP_JS_STATUS(js)));

	sleipnir_write(sdev, SLP_JOB_INT_CLEAR, stat);

	return IRQ_HANDLED;
}

static irqreturn_t sleipnir_mmu_irq_handler(int irq, void *data)
{
	struct sleipnir_device *sdev = data;
	unsigned long faulty;
	unsigned int as;
	u32 stat;

	stat = sleipnir_read(sdev, SLP_MMU_INT_STAT);
	if (!stat)
		return IRQ_NONE;

	faulty = (stat | (stat >> 16)) & GENMASK(SLP_AS_COUNT_MAX - 1, 0);
	for_each_set_bit(as, &faulty, SLP_AS_COUNT_MAX)
		dev_err_ratelimited(sdev->dev,
				    "MMU fault in AS%u: status 0x%08x at 0x%016llx\n",
				    as, sleipnir_read(sdev, SLP_AS_FAULTSTATUS(as)),
				    sleipnir_read64(sdev,
						    SLP_AS_FAULTADDRESS_LO(as)));

	sleipnir_write(sdev, SLP_MMU_INT_CLEAR, stat);

	return IRQ_HANDLED;
}

static int sleipnir_request_irq(struct sleipnir_device *sdev, const char *name,
				irq_handler_t handler, int *irq_out)
{
	struct platform_device *pdev = to_platform_device(sdev->dev);
	int irq, ret;

	irq = platform_get_irq_byname(pdev, name);
	if (irq < 0)
		return irq;

	ret = devm_request_irq(sdev->dev, irq, handler, IRQF_SHARED,
			       devm_kasprintf(sdev->dev, GFP_KERNEL, "%s-%s",
					      KBUILD_MODNAME, name) ?: name,
			       sdev);
	if (ret)
		return dev_err_probe(sdev->dev, ret,
				     "failed to request %s interrupt\n", name);

	*irq_out = irq;
	return 0;
}

static void sleipnir_irqs_enable(struct sleipnir_device *sdev)
{
	u32 js = sdev->features.js_present & GENMASK(SLP_JS_COUNT_MAX - 1, 0);
	u32 as = sdev->features.as_present & GENMASK(SLP_AS_COUNT_MAX - 1, 0);

	sleipnir_gpu_irq_enable(sdev);

	sleipnir_write(sdev, SLP_JOB_INT_CLEAR, U32_MAX);
	sleipnir_write(sdev, SLP_JOB_INT_MASK, js | (js << 16));

	sleipnir_write(sdev, SLP_MMU_INT_CLEAR, U32_MAX);
	sleipnir_write(sdev, SLP_MMU_INT_MASK, as | (as << 16));
}

static void sleipnir_irqs_disable(struct sleipnir_device *sdev)
{
	sleipnir_write(sdev, SLP_JOB_INT_MASK, 0);
	sleipnir_write(sdev, SLP_JOB_INT_CLEAR, U32_MAX);
	sleipnir_write(sdev, SLP_MMU_INT_MASK, 0);
	sleipnir_write(sdev, SLP_MMU_INT_CLEAR, U32_MAX);
	sleipnir_gpu_irq_disable(sdev);
}

/*
 * Undoes sleipnir_device_init()'s work on the GPU itself. Registered as the
 * last device-managed action, so it runs before the interrupts are freed and
 * the registers unmapped.
 */
static void sleipnir_device_fini(void *data)
{
	struct sleipnir_device *sdev = data;

	sleipnir_irqs_disable(sdev);
	sleipnir_gpu_power_off(sdev);
}

static void sleipnir_reset_assert(void *data)
{
	reset_control_assert(data);
}

static int sleipnir_get_resources(struct sleipnir_device *sdev)
{
	struct device *dev = sdev->dev;
	int ret;

	sdev->clock = devm_clk_get_enabled(dev, NULL);
	if (IS_ERR(sdev->clock))
		return dev_err_probe(dev, PTR_ERR(sdev->clock),
				     "failed to enable the GPU clock\n");

	sdev->bus_clock = devm_clk_get_optional_enabled(dev, "bus");
	if (IS_ERR(sdev->bus_clock))
		return dev_err_probe(dev, PTR_ERR(sdev->bus_clock),
				     "failed to enable the bus clock\n");

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

	return 0;
}

int sleipnir_device_init(struct sleipnir_device *sdev)
{
	int ret;

	ret = sleipnir_get_resources(sdev);
	if (ret)
		return ret;

	ret = sleipnir_gpu_soft_reset(sdev);
	if (ret)
		return ret;

	ret = sleipnir_gpu_init_features(sdev);
	if (ret)
		return ret;

	/* All sources are masked by the reset, so nothing fires before this. */
	ret = sleipnir_request_irq(sdev, "job", sleipnir_job_irq_handler,
				   &sdev->irq_job);
	if (ret)
		return ret;
	ret = sleipnir_request_irq(sdev, "mmu", sleipnir_mmu_irq_handler,
				   &sdev->irq_mmu);
	if (ret)
		return ret;
	ret = sleipnir_request_irq(sdev, "gpu", sleipnir_gpu_irq_handler,
				   &sdev->irq_gpu);
	if (ret)
		return ret;

	sleipnir_irqs_enable(sdev);
	sleipnir_gpu_power_on(sdev);

	return devm_add_action_or_reset(sdev->dev, sleipnir_device_fini, sdev);
}
