/* SPDX-License-Identifier: MIT */
/*
 * sleipnir_uapi: compute jobs. Kernels assembled in the guest
 * (mali_compute.h) run through SUBMIT and compute what their C reference
 * says; code the GPU may not execute (a NOEXEC mapping or BO) faults on
 * the fetch; an endless kernel is stopped by the chain's timeout_ms, and
 * the file and the GPU compute correctly again afterwards. Also the
 * compute-job helpers the other files use (struct cjob, struct hang).
 */
#include <stdio.h>
#include <unistd.h>

#include "sleipnir_uapi.h"

/* --- helpers ------------------------------------------------------------- */

int cjob_new(struct sl_drm *dev, const struct mc_kernel *k,
	     uint32_t area_map_flags,
	     struct cjob *c)
{
	struct mc_dispatch d = { CJOB_LOCAL, CJOB_GROUPS, 0 };
	int err;

	memset(c, 0, sizeof(*c));
	/* No GPU_NOEXEC and no VM_MAP_NOEXEC: the GPU fetches code here. */
	err = bo_new(dev, MC_AREA_SIZE, 0, area_map_flags, 0, &c->area);
	if (err)
		return err;
	err = bo_new(dev, 4096, SLEIPNIR_BO_GPU_NOEXEC, 0, 0, &c->out);
	if (err) {
		bo_free(&c->area);
		return err;
	}
	mc_fill_output(c->out->map, CJOB_THREADS);
	d.buf_va = c->out->va;
	c->jc = mc_build_job(c->area->map, c->area->va, c->area->size, k, &d);
	if (!c->jc) {
		cjob_free(c);
		return -EINVAL;
	}
	return 0;
}

void cjob_free(struct cjob *c)
{
	bo_free(&c->out);
	bo_free(&c->area);
}

int cjob_submit(struct cjob *c, uint32_t out_sync, uint32_t timeout_ms)
{
	const uint32_t bos[2] = { c->area->handle, c->out->handle };

	return submit_simple(c->area->dev, c->jc, REQ_COMPUTE, bos, 2, true, 0,
			     out_sync, timeout_ms);
}

uint32_t cjob_status(const struct cjob *c)
{
	return mali_job_exception_status(bo_cpu(c->area, MC_JOB_OFFSET));
}

unsigned int cjob_touched(const struct cjob *c)
{
	return mc_output_touched(c->out->map, CJOB_THREADS);
}

bool check_compute_job(struct sl_drm *dev, const char *what)
{
	int failed_before = check_state.test_failed;
	struct cjob c;
	uint32_t sync;
	uint64_t t0;
	int err;

	if (what)
		printf("  compute job: %s\n", what);
	err = cjob_new(dev, &mc_verify_kernel, 0, &c);
	CHECK_ERRNO(err, 0);
	if (err)
		return false;
	CHECK_EQ(cjob_status(&c), MDG_EXCEPTION_OK);
	sync = syncobj_new(dev, false);
	CHECK(sync != 0);
	if (sync) {
		t0 = now_ns();
		err = cjob_submit(&c, sync, 0);
		CHECK_ERRNO(err, 0);
		if (!err) {
			CHECK_EQ(wait_fence_status(dev, sync, WAIT_MS), 1);
			if (what)
				printf("  %u threads done in %llu ms\n",
				       CJOB_THREADS,
				       (unsigned long long)ms_since(t0));
			CHECK_EQ(cjob_status(&c), MDG_EXCEPTION_DONE);
			CHECK_EQ(mc_verify_check(bo_cpu(c.out, 0),
						 CJOB_THREADS),
				 0);
		}
		sl_syncobj_destroy(dev, sync);
	}
	cjob_free(&c);
	return check_state.test_failed == failed_before;
}

bool hang_submit(struct hang *h, struct sl_drm *dev, uint32_t timeout_ms)
{
	int err;

	memset(h, 0, sizeof(*h));
	h->dev = dev;
	if (cjob_new(dev, &mc_endless_kernel, 0, &h->job))
		return false;
	h->sync = syncobj_new(dev, false);
	h->t0 = now_ns();
	err = cjob_submit(&h->job, h->sync, timeout_ms);
	if (err) {
		printf("  SUBMIT of an endless job (timeout %u ms): %s\n",
		       timeout_ms, strerror(-err));
		return false;
	}
	return true;
}

void hang_expect_timeout(struct hang *h, uint32_t want_ms)
{
	struct drm_sleipnir_get_fault f;
	uint64_t ms;
	int err;

	err = sl_syncobj_wait(h->dev, &h->sync, 1, true,
			      want_ms + TIMEOUT_LATE_MS);
	ms = ms_since(h->t0);
	printf("  endless job stopped after %llu ms (timeout %u ms)\n",
	       (unsigned long long)ms, want_ms);
	CHECK_ERRNO(err, 0);
	if (err)
		return;
	CHECK(ms + TIMEOUT_EARLY_MS >= want_ms);
	CHECK_EQ(fence_status(h->dev, h->sync), -ETIMEDOUT);
	CHECK_EQ(cjob_touched(&h->job), 0);
	CHECK(cjob_status(&h->job) != MDG_EXCEPTION_DONE);
	CHECK_ERRNO(get_fault(h->dev, 0, &f), 0);
	CHECK_EQ(f.count, 1);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_TIMEOUT);
	CHECK_EQ(f.jc, h->job.jc);
	CHECK_EQ(f.address, 0);
	CHECK_EQ(f.access, 0);
	CHECK_EQ(f.exception_code, 0);
	/* Faulted until cleared. */
	CHECK_ERRNO(submit_simple(h->dev, h->job.jc, REQ_COMPUTE, NULL, 0, true,
				  0, 0, 0),
		    -ECANCELED);
	CHECK_ERRNO(get_fault(h->dev, SLEIPNIR_GET_FAULT_CLEAR, &f), 0);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_TIMEOUT);
	CHECK_ERRNO(get_fault(h->dev, 0, &f), 0);
	CHECK_EQ(f.count, 0);
}

void hang_free(struct hang *h)
{
	sl_syncobj_destroy(h->dev, h->sync);
	cjob_free(&h->job);
}

/* --- tests --------------------------------------------------------------- */

/*
 * mc_verify_kernel (a loop of gid.x iterations per thread) on 256 threads
 * in 16 workgroups: the out-sync's fence is good, the job reads DONE, every
 * element matches the C reference and the word after them is untouched;
 * the output BO, listed as written, is idle once the fence has signalled.
 */
TEST(compute_job)
{
	struct cjob c;
	uint32_t sync;
	int err;

	NEED_DEVICE();
	check_compute_job(g_dev, "gid * 3 + 7 on 256 threads");

	/* The same through BO_WAIT instead of a syncobj. */
	REQUIRE(cjob_new(g_dev, &mc_verify_kernel, 0, &c) == 0);
	sync = 0;
	err = cjob_submit(&c, sync, 0);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_ERRNO(bo_wait(g_dev, c.out->handle, deadline_ns(WAIT_MS)),
			    0);
		CHECK_EQ(cjob_status(&c), MDG_EXCEPTION_DONE);
		CHECK_EQ(mc_verify_check(bo_cpu(c.out, 0), CJOB_THREADS),
			 0);
	}
	cjob_free(&c);
}

/*
 * Code the GPU may not execute: the compute area mapped with
 * SLEIPNIR_VM_MAP_NOEXEC. The job manager still reads the descriptors
 * there (data), but the shader's first instruction fetch is a permission
 * fault: fence -EFAULT, GET_FAULT MMU, EXECUTE, in the code's page. The
 * kernel never stores, and the file computes again after the clear.
 */
TEST(compute_noexec_code)
{
	struct cjob c;
	uint32_t sync;
	struct sl_drm *dev;
	int err;

	NEED_DEVICE();
	dev = reopen();
	REQUIRE(dev);
	if (cjob_new(dev, &mc_verify_kernel, SLEIPNIR_VM_MAP_NOEXEC, &c)) {
		sl_drm_close(dev);
		REQUIRE(!"compute BOs");
	}
	sync = syncobj_new(dev, false);
	err = cjob_submit(&c, sync, 0);
	CHECK_ERRNO(err, 0);
	if (!err) {
		check_mmu_fault(dev, sync, c.jc, c.area->va + MC_CODE_OFFSET,
				true, SLEIPNIR_ACCESS_EXECUTE, true);
		CHECK_EQ(cjob_touched(&c), 0);
		CHECK(cjob_status(&c) != MDG_EXCEPTION_DONE);
	}
	sl_syncobj_destroy(dev, sync);
	cjob_free(&c);
	check_compute_job(dev, "the same file after the clear");
	sl_drm_close(dev);
}

/*
 * An endless kernel with timeout_ms = 300: a soft stop does not end a
 * running shader, so the driver hard-stops it and resets the GPU. The
 * fence says -ETIMEDOUT about 300 ms in, GET_FAULT says TIMEOUT with the
 * chain's jc, SUBMIT is refused until the fault is cleared; then the same
 * file, and a new one, compute correctly on the reset GPU.
 */
TEST(compute_timeout)
{
	struct hang h;
	struct sl_drm *dev;
	struct sl_drm *dev_n;

	NEED_DEVICE();
	dev = reopen();
	REQUIRE(dev);
	if (hang_submit(&h, dev, 300)) {
		hang_expect_timeout(&h, 300);
		hang_free(&h);
	} else {
		CHECK(!"endless job submitted");
	}
	check_compute_job(dev, "the same file after the timeout");
	sl_drm_close(dev);
	dev_n = reopen();
	if (dev_n) {
		check_compute_job(dev_n, "a new file after the timeout");
		sl_drm_close(dev_n);
	}
}

void run_compute_tests(void)
{
	RUN(compute_job);
	RUN(compute_noexec_code);
	RUN(compute_timeout);
}
