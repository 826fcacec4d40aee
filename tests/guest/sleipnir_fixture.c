/* SPDX-License-Identifier: MIT */
/*
 * Fixtures of the sleipnir.ko guest tests (sleipnir_fixture.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <xf86drm.h>

#include "check.h"
#include "clock.h"
#include "sleipnir_fixture.h"

struct sl_drm *device_open(const char *path)
{
	struct sl_drm *dev;
	int err = path ? sl_drm_open_node(path, &dev) : sl_drm_open(&dev);

	if (err == -ENODEV)
		printf("  no render node with driver \"sleipnir\" 0.2 at %s\n",
		       path ? path : "/dev/dri");
	else if (err)
		printf("  opening %s: %s\n", path ? path : "sleipnir",
		       strerror(-err));
	return err ? NULL : dev;
}

bool device_version(struct sl_drm *dev, int *major, int *minor)
{
	drmVersionPtr ver = drmGetVersion(sl_drm_fd(dev));

	if (!ver)
		return false;
	*major = ver->version_major;
	*minor = ver->version_minor;
	drmFreeVersion(ver);
	return true;
}

int bo_new(struct sl_drm *dev, uint64_t size, uint32_t bo_flags,
	   uint32_t map_flags, uint64_t va, struct sl_bo **out)
{
	struct sl_bo *bo;
	void *cpu;
	int err;

	*out = NULL;
	err = sl_bo_create(dev, size, bo_flags, &bo);
	if (err) {
		printf("  BO_CREATE(size %#llx, flags %#x): %s\n",
		       (unsigned long long)size, bo_flags, strerror(-err));
		return err;
	}
	if (!(bo_flags & SLEIPNIR_BO_NO_CPU_MAP)) {
		err = sl_bo_mmap(bo, &cpu);
		if (err) {
			printf("  mapping BO %u for the CPU: %s\n", bo->handle,
			       strerror(-err));
			goto fail;
		}
	}
	err = sl_vm_map(bo, va, map_flags);
	if (err) {
		printf("  VM_MAP(BO %u, %#llx bytes, va %#llx): %s\n",
		       bo->handle, (unsigned long long)bo->size,
		       (unsigned long long)va, strerror(-err));
		goto fail;
	}
	*out = bo;
	return 0;
fail:
	sl_bo_destroy(bo);
	return err;
}

uint32_t syncobj_new(struct sl_drm *dev, bool signalled)
{
	uint32_t handle = 0;
	int err = sl_syncobj_create(dev, signalled, &handle);

	if (err) {
		printf("  creating a syncobj: %s\n", strerror(-err));
		return 0;
	}
	return handle;
}

const char *fence_status_name(int status)
{
	static char buf[48];

	if (status == 1)
		return "signalled";
	if (status == 0)
		return "pending";
	snprintf(buf, sizeof(buf), "error %d (%s)", status, strerror(-status));
	return buf;
}

int fence_status(struct sl_drm *dev, uint32_t syncobj)
{
	int status = 0, err = sl_syncobj_status(dev, syncobj, &status);

	if (err) {
		printf("  status of syncobj %u's fence: %s\n", syncobj,
		       strerror(-err));
		return FENCE_STATUS_NONE;
	}
	return status;
}

int wait_fence_status(struct sl_drm *dev, uint32_t syncobj,
		      unsigned int timeout_ms)
{
	uint64_t t0 = now_ns();
	int err = sl_syncobj_wait(dev, &syncobj, 1, true, timeout_ms);

	if (err) {
		printf("  wait for syncobj %u: %s after %llu ms\n", syncobj,
		       strerror(-err), (unsigned long long)ms_since(t0));
		return FENCE_STATUS_NONE;
	}
	return fence_status(dev, syncobj);
}

bool check_good_job(struct sl_drm *dev, uint32_t requirements,
		    const char *what)
{
	const uint64_t j0 = 0, j1 = MALI_JOB_SLOT_SIZE, data = 0x400;
	int failed_before = check_state.test_failed;
	struct drm_sleipnir_bo_ref ref;
	struct drm_sleipnir_sync_op out = { 0 };
	struct sl_submit s = { 0 };
	struct sl_bo *bo;
	uint32_t sync;
	int err;

	if (what)
		printf("  good job: %s\n", what);
	err = bo_new(dev, 4096, 0, 0, 0, &bo);
	CHECK_ERRNO(err, 0);
	if (err)
		return false;
	bo_put64(bo, data, FILL64);
	bo_put64(bo, data + 8, GUARD64);
	mali_pack_write_value_job(bo_cpu(bo, j0), 1, 0, 0, bo_gpu(bo, j1),
				  bo_gpu(bo, data), MDG_WRITE_VALUE_TYPE_ZERO);
	mali_pack_null_job(bo_cpu(bo, j1), 2, 1, 0, 0);
	sync = syncobj_new(dev, false);
	CHECK(sync != 0);
	if (sync) {
		ref = (struct drm_sleipnir_bo_ref){
			.handle = bo->handle, .flags = SLEIPNIR_BO_REF_WRITE };
		out.handle = sync;
		s.jc = bo_gpu(bo, j0);
		s.bos = &ref;
		s.num_bos = 1;
		s.out_syncs = &out;
		s.num_out_syncs = 1;
		s.requirements = requirements;
		err = sl_submit(dev, &s);
		CHECK_ERRNO(err, 0);
		if (!err) {
			CHECK_EQ(wait_fence_status(dev, sync,
						   SL_WAIT_TIMEOUT_MS), 1);
			CHECK_EQ(mali_job_exception_status(bo_cpu(bo, j0)),
				 MDG_EXCEPTION_DONE);
			CHECK_EQ(mali_job_exception_status(bo_cpu(bo, j1)),
				 MDG_EXCEPTION_DONE);
			CHECK_EQ(bo_get64(bo, data), 0);
			CHECK_EQ(bo_get64(bo, data + 8), GUARD64);
		}
		sl_syncobj_destroy(dev, sync);
	}
	sl_bo_destroy(bo);
	return check_state.test_failed == failed_before;
}
