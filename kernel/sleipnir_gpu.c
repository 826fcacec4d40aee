// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: GPU control block. Soft reset, identification and feature
 * registers, errata settings, power-up and power-down of the L2 caches,
 * shader cores and tiler, and the "gpu" interrupt.
 */
#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/iopoll.h>

#include "sleipnir_device.h"
#include "sleipnir_gpu.h"
#include "sleipnir_models.h"
#include "sleipnir_regs.h"

/* Poll intervals and timeouts, in microseconds. */
#define SLP_RESET_POLL_US		100
#define SLP_RESET_TIMEOUT_US		10000
#define SLP_PWRON_POLL_US		100
#define SLP_PWRON_TIMEOUT_US		20000
#define SLP_TILER_PWRON_TIMEOUT_US	1000
#define SLP_PWROFF_POLL_US		10
#define SLP_PWROFF_TIMEOUT_US		2000

int sleipnir_gpu_soft_reset(struct sleipnir_device *sdev)
{
	u32 val;
	int ret;

	sleipnir_write(sdev, SLP_GPU_INT_MASK, 0);
	sleipnir_write(sdev, SLP_GPU_INT_CLEAR, SLP_GPU_IRQ_RESET_COMPLETED);
	sleipnir_write(sdev, SLP_GPU_CMD, SLP_GPU_CMD_SOFT_RESET);

	ret = readl_relaxed_poll_timeout(sdev->iomem + SLP_GPU_INT_RAWSTAT, val,
					 val & SLP_GPU_IRQ_RESET_COMPLETED,
					 SLP_RESET_POLL_US,
					 SLP_RESET_TIMEOUT_US);
	if (ret) {
		dev_err(sdev->dev, "soft reset timed out (rawstat 0x%08x)\n",
			val);
		return ret;
	}

	/* Leave every interrupt source masked and acknowledged. */
	sleipnir_write(sdev, SLP_GPU_INT_CLEAR, SLP_GPU_IRQ_ALL);
	sleipnir_write(sdev, SLP_JOB_INT_MASK, 0);
	sleipnir_write(sdev, SLP_JOB_INT_CLEAR, U32_MAX);
	sleipnir_write(sdev, SLP_MMU_INT_MASK, 0);
	sleipnir_write(sdev, SLP_MMU_INT_CLEAR, U32_MAX);

	return 0;
}

/* Register reads for sleipnir_features_read(), which the simulator shares. */
static u32 sleipnir_gpu_read_reg(void *sdev, u32 reg)
{
	return sleipnir_read(sdev, reg);
}

int sleipnir_gpu_init_features(struct sleipnir_device *sdev)
{
	struct sleipnir_features *f = &sdev->features;
	unsigned int cores, used;
	u16 product;

	sleipnir_features_read(f, sleipnir_gpu_read_reg, sdev);
	product = f->product;

	sdev->model_name = sleipnir_model_name(product);
	if (!sdev->model_name) {
		dev_err(sdev->dev, "unsupported GPU (GPU_ID 0x%08x)\n",
			f->gpu_id);
		return -ENODEV;
	}

	if (!f->shader_present || !f->l2_present) {
		dev_err(sdev->dev, "GPU reports no shader core or no L2 cache\n");
		return -ENODEV;
	}

	sdev->quirks = sleipnir_model_quirks(product, f->revision);
	sdev->core_mask = sleipnir_core_mask(f->l2_present);
	sdev->js_count = sleipnir_present_count(f->js_present,
						SLP_JS_COUNT_MAX);
	sdev->as_count = sleipnir_present_count(f->as_present,
						SLP_AS_COUNT_MAX);
	cores = hweight64(f->shader_present);
	used = hweight64(f->shader_present & sdev->core_mask);

	dev_info(sdev->dev,
		 "Mali-%s (id 0x%x r%lup%lu), %u shader cores, %u core group(s), %u address spaces, %u job slots\n",
		 sdev->model_name, product,
		 FIELD_GET(SLP_GPU_ID_MAJOR, f->gpu_id),
		 FIELD_GET(SLP_GPU_ID_MINOR, f->gpu_id), cores,
		 (unsigned int)hweight64(f->l2_present),
		 hweight32(f->as_present), hweight32(f->js_present));
	dev_info(sdev->dev,
		 "features: L2 0x%08x core 0x%08x tiler 0x%08x mem 0x%08x mmu 0x%08x (VA %lu bits, PA %lu bits)\n",
		 f->l2_features, f->core_features, f->tiler_features,
		 f->mem_features, f->mmu_features,
		 FIELD_GET(SLP_MMU_FEATURES_VA_BITS, f->mmu_features),
		 FIELD_GET(SLP_MMU_FEATURES_PA_BITS, f->mmu_features));
	if (used != cores)
		dev_info(sdev->dev, "using the first core group only (%u of %u shader cores)\n",
			 used, cores);
	if (sdev->quirks)
		dev_info(sdev->dev,
			 "errata settings 0x%x: SHADER_CONFIG 0x%08x, TILER_CONFIG |= 0x%x, JM_CONFIG 0x%08x, JS_CONFIG |= 0x%x\n",
			 sdev->quirks,
			 sleipnir_quirk_shader_config(sdev->quirks),
			 sleipnir_quirk_tiler_config(0, sdev->quirks),
			 sdev->quirks & SLEIPNIR_QUIRK_JM_MAX_THROTTLE ?
			 SLP_JM_CONFIG_MAX_THROTTLE : 0,
			 sleipnir_js_config_quirks(0, sdev->quirks) &
			 ~sleipnir_js_config(0));

	return 0;
}

/*
 * Errata workarounds that must be in the configuration registers before the
 * cores are powered; which ones apply comes from sleipnir_models.c.
 */
static void sleipnir_gpu_apply_quirks(struct sleipnir_device *sdev)
{
	u32 q = sdev->quirks;
	u32 shader = sleipnir_quirk_shader_config(q), tiler;

	if (shader)
		sleipnir_write(sdev, SLP_GPU_SHADER_CONFIG, shader);

	tiler = sleipnir_read(sdev, SLP_GPU_TILER_CONFIG);
	sleipnir_write(sdev, SLP_GPU_TILER_CONFIG,
		       sleipnir_quirk_tiler_config(tiler, q));

	if (q & SLEIPNIR_QUIRK_JM_MAX_THROTTLE)
		sleipnir_write(sdev, SLP_GPU_JM_CONFIG,
			       SLP_JM_CONFIG_MAX_THROTTLE);
}

/*
 * Powers one kind of unit and waits until all of them report ready. A
 * timeout is reported but is not fatal: the GPU stays usable for the parts
 * that did come up, as far as the hardware allows.
 */
static void sleipnir_gpu_power_unit(struct sleipnir_device *sdev,
				    const char *unit, u32 pwron_reg,
				    u32 ready_reg, u32 mask, u32 timeout_us)
{
	u32 val;
	int ret;

	sleipnir_write(sdev, pwron_reg, mask);
	ret = readl_relaxed_poll_timeout(sdev->iomem + ready_reg, val,
					 (val & mask) == mask,
					 SLP_PWRON_POLL_US, timeout_us);
	if (ret)
		dev_err(sdev->dev, "%s power-up timed out (ready 0x%08x of 0x%08x)\n",
			unit, val, mask);
}

void sleipnir_gpu_power_on(struct sleipnir_device *sdev)
{
	struct sleipnir_features *f = &sdev->features;

	sleipnir_gpu_apply_quirks(sdev);

	/* Only the low 32 units are used: no Midgard has more. */
	sleipnir_gpu_power_unit(sdev, "L2", SLP_GPU_L2_PWRON_LO,
				SLP_GPU_L2_READY_LO,
				lower_32_bits(f->l2_present & sdev->core_mask),
				SLP_PWRON_TIMEOUT_US);
	sleipnir_gpu_power_unit(sdev, "shader", SLP_GPU_SHADER_PWRON_LO,
				SLP_GPU_SHADER_READY_LO,
				lower_32_bits(f->shader_present & sdev->core_mask),
				SLP_PWRON_TIMEOUT_US);
	sleipnir_gpu_power_unit(sdev, "tiler", SLP_GPU_TILER_PWRON_LO,
				SLP_GPU_TILER_READY_LO,
				lower_32_bits(f->tiler_present),
				SLP_TILER_PWRON_TIMEOUT_US);
}

static void sleipnir_gpu_power_off_unit(struct sleipnir_device *sdev,
					const char *unit, u32 pwroff_reg,
					u32 pwrtrans_reg, u32 mask)
{
	u32 val;
	int ret;

	sleipnir_write(sdev, pwroff_reg, mask);
	ret = readl_relaxed_poll_timeout(sdev->iomem + pwrtrans_reg, val, !val,
					 SLP_PWROFF_POLL_US,
					 SLP_PWROFF_TIMEOUT_US);
	if (ret)
		dev_warn(sdev->dev, "%s power-down timed out (trans 0x%08x)\n",
			 unit, val);
}

/* Shader cores first, the L2 caches they depend on last. */
void sleipnir_gpu_power_off(struct sleipnir_device *sdev)
{
	struct sleipnir_features *f = &sdev->features;

	sleipnir_gpu_power_off_unit(sdev, "shader", SLP_GPU_SHADER_PWROFF_LO,
				    SLP_GPU_SHADER_PWRTRANS_LO,
				    lower_32_bits(f->shader_present));
	sleipnir_gpu_power_off_unit(sdev, "tiler", SLP_GPU_TILER_PWROFF_LO,
				    SLP_GPU_TILER_PWRTRANS_LO,
				    lower_32_bits(f->tiler_present));
	sleipnir_gpu_power_off_unit(sdev, "L2", SLP_GPU_L2_PWROFF_LO,
				    SLP_GPU_L2_PWRTRANS_LO,
				    lower_32_bits(f->l2_present));
}

void sleipnir_gpu_irq_enable(struct sleipnir_device *sdev)
{
	sleipnir_write(sdev, SLP_GPU_INT_CLEAR, SLP_GPU_IRQ_ALL);
	sleipnir_write(sdev, SLP_GPU_INT_MASK, SLP_GPU_IRQ_ERRORS);
}

void sleipnir_gpu_irq_disable(struct sleipnir_device *sdev)
{
	sleipnir_write(sdev, SLP_GPU_INT_MASK, 0);
	sleipnir_write(sdev, SLP_GPU_INT_CLEAR, SLP_GPU_IRQ_ALL);
}

irqreturn_t sleipnir_gpu_irq_handler(int irq, void *data)
{
	struct sleipnir_device *sdev = data;
	u32 stat, fault;
	u64 addr;

	stat = sleipnir_read(sdev, SLP_GPU_INT_STAT);
	if (!stat)
		return IRQ_NONE;

	if (stat & SLP_GPU_IRQ_ERRORS) {
		fault = sleipnir_read(sdev, SLP_GPU_FAULT_STATUS);
		addr = sleipnir_read64(sdev, SLP_GPU_FAULT_ADDRESS_LO);
		dev_err_ratelimited(sdev->dev,
				    "GPU fault%s: status 0x%08x (exception 0x%02lx) at 0x%016llx\n",
				    stat & SLP_GPU_IRQ_MULTIPLE_FAULT ?
				    "s" : "", fault,
				    FIELD_GET(SLP_FAULT_STATUS_EXCEPTION, fault),
				    addr);
	}

	sleipnir_write(sdev, SLP_GPU_INT_CLEAR, stat);

	return IRQ_HANDLED;
}
