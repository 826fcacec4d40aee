// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: the GPU self-test at probe.
 *
 * When /lib/firmware/sleipnir/midgard-selftest.bin is there (firmware/,
 * built by our assembler), probe runs its shader as one compute job and
 * compares what the GPU wrote with the pattern the CPU computes, then says
 * so in one line of the kernel log:
 *
 *   self-test passed: N threads wrote i * M + S in T us
 *   self-test FAILED: word I is X, expected Y     (or: the job ended ...)
 *   self-test skipped: no firmware sleipnir/midgard-selftest.bin
 *   self-test firmware sleipnir/midgard-selftest.bin rejected: REASON
 *
 * The file is checked field by field (sleipnir_selftest_fw.h, shared with
 * the host tests) before any of it is copied to GPU memory. Probe succeeds
 * whatever the outcome: a failed self-test is a warning, and the device is
 * registered anyway (userspace's chains have their own fault handling and
 * timeouts, and the line tells the user not to trust the GPU).
 *
 * The test runs before the DRM device is registered, so no client can
 * submit and every job slot is idle. It owns a slot directly instead of
 * going through drm_sched: the job interrupt is masked for the test and
 * its end is polled from JOB_INT_RAWSTAT, which keeps the scheduler, its
 * fences and its job API (which differs between kernel versions) out of
 * it. The job runs in a GPU address space of its own (a struct
 * sleipnir_vm like a client's), so a faulty shader can only fault.
 */
#include <linux/dma-mapping.h>
#include <linux/firmware.h>
#include <linux/gfp.h>
#include <linux/iopoll.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pm_runtime.h>
#include <linux/scatterlist.h>
#include <linux/string.h>

#include <drm/sleipnir_drm.h>

#include "sleipnir_device.h"
#include "sleipnir_fault.h"
#include "sleipnir_mmu.h"
#include "sleipnir_rules.h"
#include "sleipnir_sched.h"
#include "sleipnir_selftest.h"
#include "sleipnir_selftest_fw.h"

static bool sleipnir_selftest_enabled = true;
module_param_named(selftest, sleipnir_selftest_enabled, bool, 0644);
MODULE_PARM_DESC(selftest,
		 "Run the GPU self-test of " SLEIPNIR_SELFTEST_FW_NAME
		 " at probe (default true)");
MODULE_FIRMWARE(SLEIPNIR_SELFTEST_FW_NAME);

/* Where the self-test's memory sits in its address space. */
#define SLEIPNIR_SELFTEST_VA		SLEIPNIR_VA_START
/* How long the job may run; the emulated GPU is far slower than a Mali. */
#define SLEIPNIR_SELFTEST_TIMEOUT_MS	5000
#define SLEIPNIR_SELFTEST_POLL_US	50
#define SLEIPNIR_SELFTEST_STOP_US	100000
/* How long a job that faulted waits for the MMU interrupt's report. */
#define SLEIPNIR_SELFTEST_FAULT_WAIT_US	20000

/**
 * struct sleipnir_selftest - The self-test's GPU memory and address space.
 */
struct sleipnir_selftest {
	/** @sdev: the GPU. */
	struct sleipnir_device *sdev;
	/** @pages: SLEIPNIR_SELFTEST_BYTES, physically contiguous. */
	struct page *pages;
	/** @order: their allocation order. */
	unsigned int order;
	/** @sgt: the pages, DMA-mapped for the GPU. */
	struct sg_table sgt;
	/** @vm: the address space the job runs in. */
	struct sleipnir_vm *vm;
};

static void sleipnir_selftest_free(struct sleipnir_selftest *st)
{
	/* The VM goes first: releasing it takes its AS away from the GPU. */
	sleipnir_vm_put(st->vm);
	if (st->sgt.sgl) {
		dma_unmap_sgtable(st->sdev->dev, &st->sgt, DMA_BIDIRECTIONAL, 0);
		sg_free_table(&st->sgt);
	}
	if (st->pages)
		__free_pages(st->pages, st->order);
}

/* Allocates the memory, maps it for the GPU, and builds the job in it. */
static int sleipnir_selftest_setup(struct sleipnir_selftest *st,
				   const struct sleipnir_selftest_fw *fw)
{
	struct sleipnir_device *sdev = st->sdev;
	int prot = IOMMU_READ | IOMMU_WRITE;
	int ret;

	st->order = get_order(SLEIPNIR_SELFTEST_BYTES);
	st->pages = alloc_pages(GFP_KERNEL | __GFP_ZERO, st->order);
	if (!st->pages)
		return -ENOMEM;

	ret = sg_alloc_table(&st->sgt, 1, GFP_KERNEL);
	if (ret)
		return ret;
	sg_set_page(st->sgt.sgl, st->pages, PAGE_SIZE << st->order, 0);
	ret = dma_map_sgtable(sdev->dev, &st->sgt, DMA_BIDIRECTIONAL, 0);
	if (ret) {
		sg_free_table(&st->sgt);
		st->sgt.sgl = NULL;
		return ret;
	}

	st->vm = sleipnir_vm_create(sdev);
	if (IS_ERR(st->vm)) {
		ret = PTR_ERR(st->vm);
		st->vm = NULL;
		return ret;
	}
	/* Named in the MMU's fault lines, should the shader fault. */
	strscpy(st->vm->comm, "selftest", sizeof(st->vm->comm));

	if (sdev->coherent)
		prot |= IOMMU_CACHE;
	mutex_lock(&st->vm->lock);
	ret = sleipnir_vm_map_pages(st->vm, SLEIPNIR_SELFTEST_VA, &st->sgt, 0,
				    SLEIPNIR_SELFTEST_BYTES, prot);
	mutex_unlock(&st->vm->lock);
	if (ret)
		return ret;

	sleipnir_selftest_build(page_address(st->pages), SLEIPNIR_SELFTEST_VA,
				fw);
	dma_sync_sgtable_for_device(sdev->dev, &st->sgt, DMA_BIDIRECTIONAL);
	return 0;
}

static u32 sleipnir_selftest_rawstat(struct sleipnir_device *sdev, u32 js)
{
	return sleipnir_read(sdev, SLP_JOB_INT_RAWSTAT) &
	       (SLP_JOB_IRQ_DONE(js) | SLP_JOB_IRQ_FAILED(js));
}

/*
 * Runs the chain on slot @js with the job interrupt masked and waits for
 * its end. Return: its JS_STATUS exception code, -ETIMEDOUT (the chain
 * was stopped, and the GPU reset if it would not stop), or the error of
 * loading the address space.
 */
static int sleipnir_selftest_run_chain(struct sleipnir_selftest *st, u32 js,
				       u64 *elapsed_us)
{
	struct sleipnir_device *sdev = st->sdev;
	ktime_t start;
	bool done;
	u32 raw;
	int as, ret;

	as = sleipnir_mmu_as_get(sdev, st->vm);
	if (as < 0)
		return as;

	sleipnir_write(sdev, SLP_JOB_INT_MASK, 0);
	sleipnir_write(sdev, SLP_JOB_INT_CLEAR,
		       SLP_JOB_IRQ_DONE(js) | SLP_JOB_IRQ_FAILED(js));

	start = ktime_get();
	sleipnir_js_start(sdev, js, SLEIPNIR_SELFTEST_VA + SLEIPNIR_SELFTEST_JOB,
			  as);

	ret = read_poll_timeout(sleipnir_selftest_rawstat, raw, raw,
				SLEIPNIR_SELFTEST_POLL_US,
				SLEIPNIR_SELFTEST_TIMEOUT_MS * USEC_PER_MSEC, false,
				sdev, js);
	*elapsed_us = ktime_us_delta(ktime_get(), start);
	if (!ret) {
		ret = SLP_EXC_DONE;
		if (raw & SLP_JOB_IRQ_FAILED(js))
			ret = sleipnir_exception_code(sleipnir_read(sdev,
								    SLP_JS_STATUS(js)));
		/*
		 * The MMU interrupt reports the fault against the VM holding
		 * the AS: let it find ours before the test releases it.
		 */
		if (sleipnir_job_fault_kind(ret) == SLEIPNIR_FAULT_MMU)
			read_poll_timeout(sleipnir_fault_pending, done,
					  done, 100,
					  SLEIPNIR_SELFTEST_FAULT_WAIT_US, false,
					  &st->vm->faults);
	} else {
		sleipnir_write(sdev, SLP_JS_COMMAND(js), SLP_JS_CMD_HARD_STOP);
		if (read_poll_timeout(sleipnir_selftest_rawstat, raw, raw,
				      SLEIPNIR_SELFTEST_POLL_US,
				      SLEIPNIR_SELFTEST_STOP_US, false, sdev,
				      js)) {
			dev_warn(sdev->dev,
				 "self-test: the job did not stop; resetting the GPU\n");
			sleipnir_mmu_as_put(sdev, st->vm);
			sleipnir_mmu_forget_all(sdev);
			if (sleipnir_device_reset_hw(sdev))
				dev_err(sdev->dev, "GPU reset failed\n");
			return -ETIMEDOUT;
		}
		ret = -ETIMEDOUT;
	}

	sleipnir_mmu_as_put(sdev, st->vm);
	sleipnir_job_irq_enable(sdev);
	return ret;
}

/* Runs the checked file's job and reports the result; never fails probe. */
static void sleipnir_selftest_execute(struct sleipnir_device *sdev,
				      const struct sleipnir_selftest_fw *fw)
{
	struct sleipnir_selftest st = { .sdev = sdev };
	u64 elapsed_us = 0;
	u32 got, want;
	int js, ret, bad;

	js = sleipnir_pick_slot(sdev->features.js_features, sdev->js_count,
				SLEIPNIR_REQ_COMPUTE);
	if (js < 0) {
		dev_warn(sdev->dev,
			 "self-test skipped: no job slot runs compute jobs\n");
		return;
	}

	ret = pm_runtime_resume_and_get(sdev->dev);
	if (ret) {
		dev_warn(sdev->dev, "self-test skipped: GPU not powered (%d)\n",
			 ret);
		return;
	}

	ret = sleipnir_selftest_setup(&st, fw);
	if (ret) {
		dev_warn(sdev->dev, "self-test skipped: cannot set up its GPU memory (%d)\n",
			 ret);
		goto out;
	}

	ret = sleipnir_selftest_run_chain(&st, js, &elapsed_us);
	if (ret < 0 && ret != -ETIMEDOUT) {
		dev_warn(sdev->dev,
			 "self-test skipped: no GPU address space for it (%d)\n",
			 ret);
		goto out;
	}
	if (ret == -ETIMEDOUT) {
		dev_warn(sdev->dev,
			 "self-test FAILED: the job did not end within %u ms\n",
			 SLEIPNIR_SELFTEST_TIMEOUT_MS);
		goto out;
	}
	if (ret != SLP_EXC_DONE) {
		dev_warn(sdev->dev,
			 "self-test FAILED: the job ended with status 0x%02x\n",
			 ret);
		goto out;
	}

	dma_sync_sgtable_for_cpu(sdev->dev, &st.sgt, DMA_BIDIRECTIONAL);
	bad = sleipnir_selftest_check(page_address(st.pages), fw, &got, &want);
	if (bad >= 0)
		dev_warn(sdev->dev,
			 "self-test FAILED: word %d is 0x%08x, expected 0x%08x\n",
			 bad, got, want);
	else
		dev_info(sdev->dev,
			 "self-test passed: %u threads wrote i * 0x%08x + 0x%08x on js%d in %llu us\n",
			 sleipnir_selftest_threads(fw), fw->multiplier, fw->seed,
			 js, elapsed_us);
out:
	sleipnir_selftest_free(&st);
	pm_runtime_mark_last_busy(sdev->dev);
	pm_runtime_put_autosuspend(sdev->dev);
}

/**
 * sleipnir_selftest_run() - The probe-time self-test.
 * @sdev: the GPU, initialised, its DRM device not yet registered.
 *
 * Loads the self-test firmware (quietly: the file is optional), checks it,
 * runs it and logs one line with the result. Nothing here fails probe.
 */
void sleipnir_selftest_run(struct sleipnir_device *sdev)
{
	struct sleipnir_selftest_fw fw;
	const struct firmware *file;
	char why[128];
	int ret;

	if (!sleipnir_selftest_enabled) {
		dev_info(sdev->dev,
			 "self-test skipped: disabled (selftest=0)\n");
		return;
	}

	/*
	 * Quiet when the file is missing, and straight from the filesystem:
	 * never the sysfs fallback, which could hold probe for a minute.
	 */
	ret = request_firmware_direct(&file, SLEIPNIR_SELFTEST_FW_NAME,
				      sdev->dev);
	if (ret) {
		dev_info(sdev->dev, "self-test skipped: no firmware %s (%d)\n",
			 SLEIPNIR_SELFTEST_FW_NAME, ret);
		return;
	}

	if (sleipnir_selftest_fw_parse(file->data, file->size, &fw, why,
				       sizeof(why)))
		dev_warn(sdev->dev, "self-test firmware %s rejected: %s\n",
			 SLEIPNIR_SELFTEST_FW_NAME, why);
	else
		sleipnir_selftest_execute(sdev, &fw);

	release_firmware(file);
}
