/* SPDX-License-Identifier: MIT */
/*
 * sleipnir_uapi: buffer objects. BO_CREATE, BO_INFO, BO_MMAP_OFFSET,
 * GEM_CLOSE, BO_SYNC on CPU-cached BOs, BO_WAIT, BO_USERPTR and PRIME
 * export/import, each against the semantics and errors
 * uapi/drm/sleipnir_drm.h documents.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sleipnir_uapi.h"

static uint64_t round_page(uint64_t v)
{
	return (v + g_page - 1) & ~(g_page - 1);
}

/* Sizes are rounded up to whole CPU pages; BO_INFO reports the result. */
TEST(bo_create_sizes)
{
	const uint64_t sizes[] = { 1, 4096, 4097, 65537, 3 * 4096,
				   2 * 1024 * 1024 + 1 };
	uint32_t handles[ARRAY_LEN(sizes)] = { 0 };

	NEED_DEVICE();
	for (size_t i = 0; i < ARRAY_LEN(sizes); i++) {
		struct drm_sleipnir_bo_create c = { .size = sizes[i] };
		struct drm_sleipnir_bo_info info;
		int err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_BO_CREATE, &c);

		CHECK_ERRNO(err, 0);
		if (err)
			continue;
		handles[i] = c.handle;
		CHECK(c.handle != 0);
		CHECK_EQ(c.size, round_page(sizes[i]));
		CHECK_ERRNO(bo_info(g_dev, c.handle, &info), 0);
		CHECK_EQ(info.handle, c.handle);
		CHECK_EQ(info.size, round_page(sizes[i]));
		CHECK_EQ(info.flags, 0);
		for (size_t j = 0; j < i; j++)
			CHECK(handles[j] != c.handle);
	}
	for (size_t i = 0; i < ARRAY_LEN(sizes); i++)
		if (handles[i])
			CHECK_ERRNO(gem_close(g_dev, handles[i]), 0);
}

TEST(bo_create_flags)
{
	const uint32_t good[] = {
		0,
		SLEIPNIR_BO_CPU_CACHED,
		SLEIPNIR_BO_GPU_READ_ONLY,
		SLEIPNIR_BO_GPU_NOEXEC,
		SLEIPNIR_BO_NO_CPU_MAP,
		SLEIPNIR_BO_CPU_CACHED | SLEIPNIR_BO_GPU_READ_ONLY |
			SLEIPNIR_BO_GPU_NOEXEC | SLEIPNIR_BO_NO_CPU_MAP,
	};
	const uint32_t bad[] = {
		SLEIPNIR_BO_USERPTR, /* out-only */
		SLEIPNIR_BO_IMPORTED, /* out-only */
		SLEIPNIR_BO_CPU_CACHED | SLEIPNIR_BO_USERPTR,
		1u << 4,
		1u << 15,
		1u << 18,
		1u << 31,
		SLEIPNIR_BO_GPU_NOEXEC | 1u << 5,
	};

	NEED_DEVICE();
	for (size_t i = 0; i < ARRAY_LEN(good); i++) {
		struct drm_sleipnir_bo_info info;
		uint32_t h = 0;
		int err = bo_create(g_dev, 8192, good[i], &h);

		if (err) {
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "BO_CREATE(flags %#x): %s", good[i],
				      strerror(-err));
			continue;
		}
		CHECK_ERRNO(bo_info(g_dev, h, &info), 0);
		CHECK_EQ(info.flags, good[i]);
		CHECK_EQ(info.size, 8192);
		CHECK_ERRNO(gem_close(g_dev, h), 0);
	}
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		struct drm_sleipnir_bo_create c = { .size = 4096,
						    .flags = bad[i] };
		int err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_BO_CREATE, &c);

		if (err != -EINVAL)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "BO_CREATE(flags %#x): %s, expected "
				      "EINVAL",
				      bad[i], err ? strerror(-err) : "success");
		if (!err)
			gem_close(g_dev, c.handle);
	}
}

TEST(bo_create_errors)
{
	const uint64_t bad_sizes[] = {
		0,
		UINT64_MAX,
		UINT64_MAX - 4095, /* rounds up past 2^64 */
		1ull << 63,
		(1ull << 48) + 4096, /* more than the GPU address space */
		1ull << 40,          /* more than the board's 1 GiB of RAM */
	};
	struct drm_sleipnir_bo_create c;
	int err;

	NEED_DEVICE();
	for (size_t i = 0; i < ARRAY_LEN(bad_sizes); i++) {
		memset(&c, 0, sizeof(c));
		c.size = bad_sizes[i];
		err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_BO_CREATE, &c);
		if (err != -EINVAL)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "BO_CREATE(size %#llx): %s, expected "
				      "EINVAL",
				      (unsigned long long)bad_sizes[i],
				      err ? strerror(-err) : "success");
		if (!err)
			gem_close(g_dev, c.handle);
	}
	/* @handle must be zero on input. */
	memset(&c, 0, sizeof(c));
	c.size = 4096;
	c.handle = 1;
	err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_BO_CREATE, &c);
	CHECK_ERRNO(err, -EINVAL);
	if (!err)
		gem_close(g_dev, c.handle);
}

/* BO_MMAP_OFFSET, then mmap(): zero-filled, shared, page-granular. */
TEST(bo_mmap)
{
	const uint64_t size = 3 * 4096;
	struct drm_sleipnir_bo_mmap_offset m;
	uint64_t off1 = 0, off2 = 0;
	uint32_t h = 0, bad;
	uint8_t *a, *b;
	void *other;
	struct sl_drm *dev2;

	NEED_DEVICE();
	REQUIRE(bo_create(g_dev, size, 0, &h) == 0);
	CHECK_ERRNO(bo_mmap_offset(g_dev, h, &off1), 0);
	CHECK(off1 != 0);
	CHECK_EQ(off1 % g_page, 0);
	/* Asking again gives the same offset: it names the BO. */
	CHECK_ERRNO(bo_mmap_offset(g_dev, h, &off2), 0);
	CHECK_EQ(off2, off1);

	a = bo_cpu_map(g_dev, h, size);
	if (!a) {
		gem_close(g_dev, h);
		REQUIRE(a != NULL);
	}
	bad = 0;
	for (uint64_t i = 0; i < size; i++)
		bad += a[i] != 0;
	CHECK_EQ(bad, 0); /* zero-filled */
	for (uint64_t i = 0; i < size / 4; i++)
		le_put32(a + 4 * i, (uint32_t)i * 0x9e3779b9u ^ 0x5a5a5a5au);
	/* A second mapping sees the same pages. */
	b = bo_cpu_map(g_dev, h, size);
	CHECK(b != NULL);
	if (b) {
		bad = 0;
		for (uint64_t i = 0; i < size / 4; i++)
			bad += le_get32(b + 4 * i) !=
			       ((uint32_t)i * 0x9e3779b9u ^ 0x5a5a5a5au);
		CHECK_EQ(bad, 0);
		munmap(b, size);
	}

	/* The offset is only good on the file the BO belongs to. */
	dev2 = reopen();
	if (dev2) {
		other = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			     sl_drm_fd(dev2), (off_t)off1);
		CHECK(other == MAP_FAILED);
		if (other != MAP_FAILED)
			munmap(other, size);
		sl_drm_close(dev2);
	}

	/* Errors. */
	memset(&m, 0, sizeof(m));
	m.handle = h;
	m.pad = 1;
	CHECK_ERRNO(sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_BO_MMAP_OFFSET, &m),
		    -EINVAL);
	CHECK_ERRNO(bo_mmap_offset(g_dev, 0, &off2), -ENOENT);
	CHECK_ERRNO(bo_mmap_offset(g_dev, 0xdead, &off2), -ENOENT);
	munmap(a, size);
	gem_close(g_dev, h);

	/* NO_CPU_MAP: -EPERM. */
	h = 0;
	CHECK_ERRNO(bo_create(g_dev, 4096, SLEIPNIR_BO_NO_CPU_MAP, &h), 0);
	if (h) {
		CHECK_ERRNO(bo_mmap_offset(g_dev, h, &off2), -EPERM);
		gem_close(g_dev, h);
	}
}

/*
 * GEM_CLOSE drops the handle: every ioctl then says ENOENT (GEM_CLOSE itself
 * is DRM core's and says EINVAL). A CPU mapping keeps the BO alive.
 */
TEST(bo_close)
{
	struct drm_sleipnir_bo_info info;
	uint64_t off, va = 0;
	uint32_t h = 0;
	uint8_t *map;
	struct sl_drm *dev2;

	NEED_DEVICE();
	REQUIRE(bo_create(g_dev, 4096, 0, &h) == 0);
	map = bo_cpu_map(g_dev, h, 4096);
	CHECK(map != NULL);
	if (map)
		le_put64(map + 16, 0x0123456789abcdefull);

	/* A handle of one file means nothing in another. */
	dev2 = reopen();
	if (dev2) {
		CHECK_ERRNO(bo_info(dev2, h, &info), -ENOENT);
		sl_drm_close(dev2);
	}

	CHECK_ERRNO(gem_close(g_dev, h), 0);
	CHECK_ERRNO(bo_info(g_dev, h, &info), -ENOENT);
	CHECK_ERRNO(bo_mmap_offset(g_dev, h, &off), -ENOENT);
	CHECK_ERRNO(bo_wait(g_dev, h, 0), -ENOENT);
	CHECK_ERRNO(bo_sync(g_dev, h, SLEIPNIR_BO_SYNC_CPU_PREPARE, 0, 4096),
		    -ENOENT);
	CHECK_ERRNO(vm_map(g_dev, h, SLEIPNIR_VM_MAP_AUTO_VA, 0, 4096, &va),
		    -ENOENT);
	CHECK_ERRNO(gem_close(g_dev, h), -EINVAL);
	if (map) {
		/* Still the BO's memory, still holding what was written. */
		CHECK_EQ(le_get64(map + 16), 0x0123456789abcdefull);
		le_put64(map + 24, 1);
		CHECK_EQ(le_get64(map + 24), 1);
		munmap(map, 4096);
	}
	CHECK_ERRNO(bo_info(g_dev, 0, &info), -ENOENT);
	CHECK_ERRNO(bo_info(g_dev, 0xffffffffu, &info), -ENOENT);
}

/*
 * A CPU-cached BO: the CPU writes, BO_SYNC(CPU_END) hands the range to the
 * GPU, a job writes, BO_SYNC(CPU_PREPARE) hands it back. On this board
 * (COHERENT = 0) that is the documented protocol; the values must be right
 * at the end. Then BO_SYNC's argument checks.
 */
TEST(bo_sync)
{
	const uint64_t data = 0x1000;
	struct sl_bo *jobs = NULL, *cached = NULL, *wc = NULL;
	struct drm_sleipnir_bo_info info;
	uint32_t bos[2];
	int status;

	NEED_DEVICE();
	REQUIRE(bo_new(g_dev, 4096, 0, 0, 0, &jobs) == 0);
	if (bo_new(g_dev, 4 * 4096, SLEIPNIR_BO_CPU_CACHED, 0, 0, &cached)) {
		bo_free(&jobs);
		REQUIRE(!"CPU-cached BO");
	}
	CHECK_ERRNO(bo_info(g_dev, cached->handle, &info), 0);
	CHECK_EQ(info.flags, SLEIPNIR_BO_CPU_CACHED);

	for (int i = 0; i < 4; i++)
		bo_put64(cached, data + 8 * i, (i & 1) ? GUARD64 : FILL64);
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, SLEIPNIR_BO_SYNC_CPU_END,
			    data, 32),
		    0);
	bos[0] = jobs->handle;
	bos[1] = cached->handle;
	status = run_write_value(g_dev, jobs, bo_gpu(cached, data),
				 MDG_WRITE_VALUE_TYPE_ZERO, bos, 2);
	CHECK_EQ(status, 1);
	status = run_write_value(g_dev, jobs, bo_gpu(cached, data + 16),
				 MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP, bos, 2);
	CHECK_EQ(status, 1);
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, SLEIPNIR_BO_SYNC_CPU_PREPARE,
			    data, 32),
		    0);
	CHECK_EQ(bo_get64(cached, data), 0);
	CHECK_EQ(bo_get64(cached, data + 8), GUARD64);
	CHECK(bo_get64(cached, data + 16) != FILL64);
	CHECK(bo_get64(cached, data + 16) != 0);
	CHECK_EQ(bo_get64(cached, data + 24), GUARD64);

	/* Valid ranges: whole BO, last byte, one inner page. */
	for (uint32_t op = SLEIPNIR_BO_SYNC_CPU_PREPARE;
	     op <= SLEIPNIR_BO_SYNC_CPU_END; op++) {
		CHECK_ERRNO(bo_sync(g_dev, cached->handle, op, 0, cached->size),
			    0);
		CHECK_ERRNO(bo_sync(g_dev, cached->handle, op, cached->size - 1,
				    1),
			    0);
		CHECK_ERRNO(bo_sync(g_dev, cached->handle, op, 4096, 4096), 0);
		CHECK_ERRNO(bo_sync(g_dev, cached->handle, op, 3, 5), 0);
	}
	/* Errors. */
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, 0, 0, 4096), -EINVAL);
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, 3, 0, 4096), -EINVAL);
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, 0xffffffffu, 0, 4096),
		    -EINVAL);
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, SLEIPNIR_BO_SYNC_CPU_PREPARE,
			    0, 0),
		    -EINVAL);
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, SLEIPNIR_BO_SYNC_CPU_END, 0,
			    cached->size + 1),
		    -EINVAL);
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, SLEIPNIR_BO_SYNC_CPU_END,
			    cached->size, 1),
		    -EINVAL);
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, SLEIPNIR_BO_SYNC_CPU_END,
			    cached->size - 4096, 8192),
		    -EINVAL);
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, SLEIPNIR_BO_SYNC_CPU_END,
			    UINT64_MAX, 2),
		    -EINVAL); /* wraps */
	CHECK_ERRNO(bo_sync(g_dev, cached->handle, SLEIPNIR_BO_SYNC_CPU_END,
			    4096, UINT64_MAX),
		    -EINVAL);
	CHECK_ERRNO(bo_sync(g_dev, 0xdead, SLEIPNIR_BO_SYNC_CPU_END, 0, 4096),
		    -ENOENT);

	/* On a write-combined BO it does nothing, and succeeds. */
	if (bo_new(g_dev, 4096, 0, 0, 0, &wc) == 0) {
		CHECK_ERRNO(bo_sync(g_dev, wc->handle,
				    SLEIPNIR_BO_SYNC_CPU_PREPARE, 0, 4096),
			    0);
		CHECK_ERRNO(bo_sync(g_dev, wc->handle, SLEIPNIR_BO_SYNC_CPU_END,
				    0, 4096),
			    0);
		/* The range is still checked. */
		CHECK_ERRNO(bo_sync(g_dev, wc->handle, SLEIPNIR_BO_SYNC_CPU_END,
				    0, 8192),
			    -EINVAL);
		bo_free(&wc);
	}
	bo_free(&cached);
	bo_free(&jobs);
}

/*
 * BO_WAIT: absolute CLOCK_MONOTONIC deadline; a past one polls. While a
 * hanging job (an endless compute job, timeout 1 s) holds the BO, polling
 * says ETIMEDOUT and a short deadline times out after it; the wait ends
 * when the job is stopped (a job counts however it ended). A BO the job
 * only reads is busy too ("every job that uses the BO").
 */
TEST(bo_wait)
{
	struct drm_sleipnir_bo_wait w;
	struct drm_sleipnir_bo_ref refs[3];
	struct drm_sleipnir_sync_op out;
	struct drm_sleipnir_submit s;
	struct sl_bo *rd = NULL, *idle = NULL;
	struct cjob hj;
	uint32_t sync;
	uint64_t t0, ms;
	struct sl_drm *dev;
	int err;

	NEED_DEVICE();
	REQUIRE(bo_new(g_dev, 4096, 0, 0, 0, &idle) == 0);
	CHECK_ERRNO(bo_wait(g_dev, idle->handle, 0), 0);
	CHECK_ERRNO(bo_wait(g_dev, idle->handle, deadline_ns(1000)), 0);
	CHECK_ERRNO(bo_wait(g_dev, idle->handle, -1), -EINVAL);
	CHECK_ERRNO(bo_wait(g_dev, idle->handle, INT64_MIN), -EINVAL);
	memset(&w, 0, sizeof(w));
	w.handle = idle->handle;
	w.flags = 1;
	CHECK_ERRNO(sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_BO_WAIT, &w),
		    -EINVAL);
	w.flags = 0x80000000u;
	CHECK_ERRNO(sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_BO_WAIT, &w),
		    -EINVAL);
	CHECK_ERRNO(bo_wait(g_dev, 0xdead, 0), -ENOENT);
	/* An idle BO that a finished job used. */
	if (check_good_job(g_dev, REQ_SLOT0, "before BO_WAIT on idle BOs")) {
		mali_pack_null_job(bo_cpu(idle, 0), 1, 0, 0, 0);
		err = submit_simple(g_dev, idle->va, REQ_SLOT0, &idle->handle,
				    1,
				    true, 0, 0, 0);
		CHECK_ERRNO(err, 0);
		if (!err) {
			CHECK_ERRNO(bo_wait(g_dev, idle->handle,
					    deadline_ns(WAIT_MS)),
				    0);
			CHECK_EQ(mali_job_exception_status(bo_cpu(idle, 0)),
				 MDG_EXCEPTION_DONE);
			CHECK_ERRNO(bo_wait(g_dev, idle->handle, 0), 0);
		}
	}
	bo_free(&idle);

	dev = reopen();
	REQUIRE(dev);
	if (cjob_new(dev, &mc_endless_kernel, 0, &hj)) {
		sl_drm_close(dev);
		REQUIRE(!"endless job BOs");
	}
	if (bo_new(dev, 4096, 0, 0, 0, &rd)) {
		cjob_free(&hj);
		sl_drm_close(dev);
		REQUIRE(!"read BO");
	}
	sync = syncobj_new(dev, false);
	memset(refs, 0, sizeof(refs));
	refs[0].handle = hj.area->handle;
	refs[0].flags = SLEIPNIR_BO_REF_WRITE; /* the job header */
	refs[1].handle = hj.out->handle;
	refs[1].flags = SLEIPNIR_BO_REF_WRITE;
	refs[2].handle = rd->handle; /* read only */
	memset(&out, 0, sizeof(out));
	out.handle = sync;
	memset(&s, 0, sizeof(s));
	s.jc = hj.jc;
	s.requirements = REQ_COMPUTE;
	s.timeout_ms = 1000;
	s.bos = OBJ_ARRAY(refs, 3);
	s.out_syncs = OBJ_ARRAY(&out, 1);
	t0 = now_ns();
	err = sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_ERRNO(bo_wait(dev, hj.out->handle, 0), -ETIMEDOUT);
		CHECK_ERRNO(bo_wait(dev, rd->handle, 0), -ETIMEDOUT);
		CHECK_ERRNO(bo_wait(dev, hj.out->handle, (int64_t)t0 - 1000000),
			    -ETIMEDOUT);
		t0 = now_ns();
		CHECK_ERRNO(bo_wait(dev, hj.out->handle, deadline_ns(200)),
			    -ETIMEDOUT);
		ms = ms_since(t0);
		printf("  BO_WAIT with a 200 ms deadline returned after %llu "
		       "ms\n",
		       (unsigned long long)ms);
		CHECK(ms >= 190);
		CHECK_ERRNO(bo_wait(dev, rd->handle, deadline_ns(WAIT_MS)), 0);
		CHECK_ERRNO(bo_wait(dev, hj.out->handle, deadline_ns(WAIT_MS)),
			    0);
		printf("  idle %llu ms after the 200 ms wait began\n",
		       (unsigned long long)ms_since(t0));
		CHECK(syncobj_signalled(dev, sync));
		CHECK_EQ(fence_status(dev, sync), -ETIMEDOUT);
		CHECK_EQ(cjob_touched(&hj), 0);
	}
	clear_fault(dev);
	sl_syncobj_destroy(dev, sync);
	bo_free(&rd);
	cjob_free(&hj);
	sl_drm_close(dev);
}

/* --- userptr ------------------------------------------------------------- */

static int userptr(struct sl_drm *dev, uint64_t ptr, uint64_t size,
		   uint32_t flags,
		   uint32_t *handle)
{
	struct drm_sleipnir_bo_userptr u = {
		.user_ptr = ptr, .size = size, .flags = flags
	};
	int err = sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_BO_USERPTR, &u);

	if (!err)
		*handle = u.handle;
	return err;
}

/*
 * Wraps page-aligned malloc'd memory; the GPU writes into it and reads job
 * descriptors from it, and the CPU sees the results in the original
 * memory after BO_SYNC(CPU_PREPARE).
 */
TEST(userptr_gpu_access)
{
	const uint64_t size = 4 * 4096, data = 0x2000;
	struct drm_sleipnir_bo_info info;
	struct sl_bo *jobs = NULL;
	uint64_t off, va = 0;
	uint8_t *mem = NULL;
	uint32_t h = 0, bos[2], sync;
	int err, status;

	NEED_DEVICE();
	REQUIRE(posix_memalign((void **)&mem, g_page, size) == 0);
	memset(mem, 0x11, size);
	for (int i = 0; i < 4; i++)
		le_put64(mem + data + 8 * i, (i & 1) ? GUARD64 : FILL64);
	err = userptr(g_dev, U64_PTR(mem), size, 0, &h);
	CHECK_ERRNO(err, 0);
	if (err) {
		free(mem);
		return;
	}
	CHECK(h != 0);
	CHECK_ERRNO(bo_info(g_dev, h, &info), 0);
	CHECK_EQ(info.size, size);
	CHECK_EQ(info.flags, SLEIPNIR_BO_USERPTR | SLEIPNIR_BO_NO_CPU_MAP |
				     SLEIPNIR_BO_CPU_CACHED);
	/* No mmap through the DRM file. */
	CHECK_ERRNO(bo_mmap_offset(g_dev, h, &off), -EPERM);
	/* Not exportable. */
	{
		int dmafd = -1;
		int ret = drmPrimeHandleToFD(sl_drm_fd(g_dev), h, DRM_CLOEXEC,
					     &dmafd);

		CHECK(ret != 0);
		if (ret == 0)
			close(dmafd);
		else
			printf("  export of a userptr BO: %s\n",
			       strerror(errno));
	}

	err = vm_map(g_dev, h, SLEIPNIR_VM_MAP_AUTO_VA, 0, size, &va);
	CHECK_ERRNO(err, 0);
	if (err || bo_new(g_dev, 4096, 0, 0, 0, &jobs)) {
		gem_close(g_dev, h);
		free(mem);
		REQUIRE(!"VM_MAP of the userptr BO, or the jobs BO");
	}
	/* The CPU's writes go to memory before the GPU looks. */
	CHECK_ERRNO(bo_sync(g_dev, h, SLEIPNIR_BO_SYNC_CPU_END, 0, size), 0);
	bos[0] = jobs->handle;
	bos[1] = h;
	status = run_write_value(g_dev, jobs, va + data, MDG_WRITE_VALUE_TYPE_ZERO,
				 bos, 2);
	CHECK_EQ(status, 1);
	status = run_write_value(g_dev, jobs, va + data + 16,
				 MDG_WRITE_VALUE_TYPE_CYCLE_COUNTER, bos, 2);
	CHECK_EQ(status, 1);

	/* A NULL job whose descriptor lives in the user memory. */
	mali_pack_null_job(mem, 1, 0, 0, 0);
	CHECK_ERRNO(bo_sync(g_dev, h, SLEIPNIR_BO_SYNC_CPU_END, 0, 64), 0);
	sync = syncobj_new(g_dev, false);
	err = submit_simple(g_dev, va, REQ_SLOT0, &h, 1, true, 0, sync, 0);
	CHECK_ERRNO(err, 0);
	if (!err)
		CHECK_EQ(wait_fence_status(g_dev, sync, WAIT_MS), 1);
	sl_syncobj_destroy(g_dev, sync);

	CHECK_ERRNO(bo_sync(g_dev, h, SLEIPNIR_BO_SYNC_CPU_PREPARE, 0, size),
		    0);
	CHECK_EQ(le_get64(mem + data), 0);
	CHECK_EQ(le_get64(mem + data + 8), GUARD64);
	CHECK(le_get64(mem + data + 16) != FILL64);
	CHECK_EQ(le_get64(mem + data + 24), GUARD64);
	CHECK_EQ(mali_job_exception_status(mem), MDG_EXCEPTION_DONE);
	CHECK_EQ(mem[4096], 0x11); /* untouched bytes stay */

	bo_free(&jobs);
	CHECK_ERRNO(vm_unmap(g_dev, va, size), 0);
	CHECK_ERRNO(gem_close(g_dev, h), 0);
	free(mem);
}

/*
 * A userptr BO wrapped GPU_READ_ONLY (here over memory the process may only
 * read) is read-only in the GPU's mappings: a write faults (permission,
 * WRITE) and the memory keeps its bytes.
 */
TEST(userptr_read_only)
{
	struct sl_bo *jobs = NULL;
	uint32_t h = 0, bos[2], sync;
	uint64_t va = 0;
	uint8_t *ro;
	struct sl_drm *dev;
	int err;

	NEED_DEVICE();
	dev = reopen();
	REQUIRE(dev);
	ro = mmap(NULL, g_page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED) {
		sl_drm_close(dev);
		REQUIRE(ro != MAP_FAILED);
	}
	memset(ro, 0x5a, g_page);
	CHECK(mprotect(ro, g_page, PROT_READ) == 0);
	err = userptr(dev, U64_PTR(ro), g_page, SLEIPNIR_BO_GPU_READ_ONLY, &h);
	CHECK_ERRNO(err, 0);
	if (err || vm_map(dev, h, SLEIPNIR_VM_MAP_AUTO_VA, 0, g_page, &va) ||
	    bo_new(dev, 4096, 0, 0, 0, &jobs)) {
		CHECK(!"set-up: userptr, VM_MAP, jobs BO");
		goto out;
	}
	mali_pack_write_value_job(bo_cpu(jobs, 0), 1, 0, 0, 0, va + 0x80,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	bos[0] = jobs->handle;
	bos[1] = h;
	sync = syncobj_new(dev, false);
	err = submit_simple(dev, jobs->va, REQ_SLOT0, bos, 2, true, 0, sync, 0);
	CHECK_ERRNO(err, 0);
	if (!err)
		check_mmu_fault(dev, sync, jobs->va, va + 0x80, false,
				SLEIPNIR_ACCESS_WRITE, true);
	sl_syncobj_destroy(dev, sync);
	CHECK_ERRNO(bo_sync(dev, h, SLEIPNIR_BO_SYNC_CPU_PREPARE, 0, g_page),
		    0);
	CHECK_EQ(le_get64(ro + 0x80), 0x5a5a5a5a5a5a5a5aull);
	bo_free(&jobs);
out:
	if (va)
		vm_unmap(dev, va, g_page);
	if (h)
		gem_close(dev, h);
	munmap(ro, g_page);
	sl_drm_close(dev);
}

TEST(userptr_errors)
{
	const uint64_t size = 2 * 4096;
	uint8_t *mem = NULL, *ro, *hole;
	struct drm_sleipnir_bo_userptr u;
	uint32_t h = 0;
	int err;

	NEED_DEVICE();
	REQUIRE(posix_memalign((void **)&mem, g_page, size) == 0);
	memset(mem, 0, size);
	struct {
		uint64_t ptr, size;
		uint32_t flags;
		const char *what;
	} bad[] = {
		{ U64_PTR(mem) + 8, size - g_page, 0, "misaligned pointer" },
		{ U64_PTR(mem), 4096 + 8, 0, "misaligned size" },
		{ U64_PTR(mem), 0, 0, "zero size" },
		{ 0, size, 0, "zero pointer" },
		{ U64_PTR(mem), size, SLEIPNIR_BO_CPU_CACHED, "CPU_CACHED" },
		{ U64_PTR(mem), size, SLEIPNIR_BO_NO_CPU_MAP, "NO_CPU_MAP" },
		{ U64_PTR(mem), size, SLEIPNIR_BO_USERPTR, "USERPTR" },
		{ U64_PTR(mem), size, SLEIPNIR_BO_IMPORTED, "IMPORTED" },
		{ U64_PTR(mem), size, 1u << 31, "unknown flag" },
		{ UINT64_MAX & ~0xfffull, 0x2000, 0, "range wraps" },
		{ U64_PTR(mem), 1ull << 49, 0, "larger than the GPU VA" },
	};

	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		h = 0;
		err = userptr(g_dev, bad[i].ptr, bad[i].size, bad[i].flags, &h);
		if (err != -EINVAL)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "USERPTR with %s: %s, expected EINVAL",
				      bad[i].what,
				      err ? strerror(-err) : "success");
		if (!err)
			gem_close(g_dev, h);
	}
	memset(&u, 0, sizeof(u));
	u.user_ptr = U64_PTR(mem);
	u.size = size;
	u.handle = 7;
	err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_BO_USERPTR, &u);
	CHECK_ERRNO(err, -EINVAL);
	if (!err)
		gem_close(g_dev, u.handle);
	/* The good flags are accepted. */
	h = 0;
	err = userptr(g_dev, U64_PTR(mem), size,
		      SLEIPNIR_BO_GPU_READ_ONLY | SLEIPNIR_BO_GPU_NOEXEC, &h);
	CHECK_ERRNO(err, 0);
	if (!err) {
		struct drm_sleipnir_bo_info info;

		CHECK_ERRNO(bo_info(g_dev, h, &info), 0);
		CHECK_EQ(info.flags,
			 SLEIPNIR_BO_USERPTR | SLEIPNIR_BO_NO_CPU_MAP |
				 SLEIPNIR_BO_CPU_CACHED |
				 SLEIPNIR_BO_GPU_READ_ONLY |
				 SLEIPNIR_BO_GPU_NOEXEC);
		gem_close(g_dev, h);
	}
	free(mem);

	/* Part of the range not mapped: -EFAULT. */
	hole = mmap(NULL, 2 * g_page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(hole != MAP_FAILED);
	memset(hole, 1, 2 * g_page);
	munmap(hole + g_page, g_page);
	h = 0;
	err = userptr(g_dev, U64_PTR(hole), 2 * g_page, 0, &h);
	CHECK_ERRNO(err, -EFAULT);
	if (!err)
		gem_close(g_dev, h);
	munmap(hole, g_page);
	/* All of it unmapped. */
	err = userptr(g_dev, U64_PTR(hole), g_page, 0, &h);
	CHECK_ERRNO(err, -EFAULT);
	if (!err)
		gem_close(g_dev, h);

	/* Read-only memory: -EFAULT unless the GPU only reads it. */
	ro = mmap(NULL, g_page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	REQUIRE(ro != MAP_FAILED);
	memset(ro, 2, g_page);
	CHECK(mprotect(ro, g_page, PROT_READ) == 0);
	h = 0;
	err = userptr(g_dev, U64_PTR(ro), g_page, 0, &h);
	CHECK_ERRNO(err, -EFAULT);
	if (!err)
		gem_close(g_dev, h);
	h = 0;
	err = userptr(g_dev, U64_PTR(ro), g_page, SLEIPNIR_BO_GPU_READ_ONLY,
		      &h);
	CHECK_ERRNO(err, 0);
	if (!err)
		gem_close(g_dev, h);
	munmap(ro, g_page);
}

/* --- PRIME --------------------------------------------------------------- */

/*
 * A BO exported from one file and imported on another file of the same
 * device is the same memory: BO_INFO agrees, CPU and GPU writes through
 * either file are seen through the other, and the import outlives the
 * exporter's handle. Importing on the exporting file gives back the same
 * handle (DRM core).
 */
TEST(prime)
{
	const uint64_t size = 4 * 4096;
	struct drm_sleipnir_bo_info info;
	struct sl_bo *a = NULL, *jobs_a = NULL, *jobs_b = NULL;
	uint32_t hb = 0, again = 0, bos[2];
	uint64_t vb = 0;
	uint8_t *mb;
	struct sl_drm *dev2;
	int dmafd = -1, ret, status;

	NEED_DEVICE();
	REQUIRE(bo_new(g_dev, size, 0, 0, 0, &a) == 0);
	dev2 = reopen();
	if (!dev2) {
		bo_free(&a);
		REQUIRE(dev2);
	}
	le_put64(bo_cpu(a, 0), 0x1122334455667788ull);
	bo_put64(a, 0x800, FILL64);
	bo_put64(a, 0x808, FILL64);
	bo_put64(a, 0x810, GUARD64);

	ret = sl_bo_export(a, DRM_CLOEXEC | DRM_RDWR, &dmafd);
	CHECK_ERRNO(ret, 0);
	if (ret)
		goto out;
	ret = drmPrimeFDToHandle(sl_drm_fd(g_dev), dmafd, &again);
	CHECK(ret == 0);
	CHECK_EQ(again, a->handle);

	ret = drmPrimeFDToHandle(sl_drm_fd(dev2), dmafd, &hb);
	CHECK(ret == 0);
	if (ret) {
		printf("  import: %s\n", strerror(errno));
		goto out;
	}
	CHECK_ERRNO(bo_info(dev2, hb, &info), 0);
	CHECK_EQ(info.size, a->size);
	/* Same device: not "imported from another device". */
	CHECK_EQ(info.flags, 0);

	mb = bo_cpu_map(dev2, hb, size);
	CHECK(mb != NULL);
	if (!mb)
		goto out;
	CHECK_EQ(le_get64(mb), 0x1122334455667788ull);
	le_put64(mb + 8, 0x8877665544332211ull);
	CHECK_EQ(bo_get64(a, 8), 0x8877665544332211ull);

	/* GPU write through file 2, seen through file 1's mapping. */
	CHECK_ERRNO(vm_map(dev2, hb, SLEIPNIR_VM_MAP_AUTO_VA, 0, size, &vb), 0);
	if (bo_new(dev2, 4096, 0, 0, 0, &jobs_b) == 0) {
		bos[0] = jobs_b->handle;
		bos[1] = hb;
		status = run_write_value(dev2, jobs_b, vb + 0x800,
					 MDG_WRITE_VALUE_TYPE_ZERO, bos, 2);
		CHECK_EQ(status, 1);
		CHECK_EQ(bo_get64(a, 0x800), 0);
		/* The exporter's BO_WAIT sees the other file's fence. */
		CHECK_ERRNO(bo_wait(g_dev, a->handle, deadline_ns(WAIT_MS)), 0);
		bo_free(&jobs_b);
	} else {
		CHECK(!"jobs BO on file 2");
	}
	/* GPU write through file 1, seen through file 2's mapping. */
	if (bo_new(g_dev, 4096, 0, 0, 0, &jobs_a) == 0) {
		bos[0] = jobs_a->handle;
		bos[1] = a->handle;
		status = run_write_value(g_dev, jobs_a, bo_gpu(a, 0x808),
					 MDG_WRITE_VALUE_TYPE_ZERO, bos, 2);
		CHECK_EQ(status, 1);
		CHECK_EQ(le_get64(mb + 0x808), 0);
		CHECK_EQ(le_get64(mb + 0x810), GUARD64);
		bo_free(&jobs_a);
	} else {
		CHECK(!"jobs BO on file 1");
	}

	/* The exporter lets go of everything; the import keeps the BO. */
	close(dmafd);
	dmafd = -1;
	bo_free(&a);
	CHECK_EQ(le_get64(mb), 0x1122334455667788ull);
	CHECK_ERRNO(bo_info(dev2, hb, &info), 0);
	if (bo_new(dev2, 4096, 0, 0, 0, &jobs_b) == 0) {
		le_put64(mb + 0x818, FILL64);
		bos[0] = jobs_b->handle;
		bos[1] = hb;
		status = run_write_value(dev2, jobs_b, vb + 0x818,
					 MDG_WRITE_VALUE_TYPE_ZERO, bos, 2);
		CHECK_EQ(status, 1);
		CHECK_EQ(le_get64(mb + 0x818), 0);
		bo_free(&jobs_b);
	}
	munmap(mb, size);
out:
	if (vb)
		vm_unmap(dev2, vb, size);
	if (hb)
		gem_close(dev2, hb);
	if (dmafd >= 0)
		close(dmafd);
	bo_free(&a);
	sl_drm_close(dev2);
}

/*
 * Implicit fencing across files through a shared BO: while a hanging job
 * (an endless compute job) on file 2 writes the imported BO, the
 * exporter's BO_WAIT polls busy; once the job is stopped it is idle.
 */
TEST(prime_implicit_fence)
{
	struct sl_bo *a = NULL;
	struct cjob jobs_b;
	struct drm_sleipnir_bo_ref refs[3];
	struct drm_sleipnir_submit s;
	uint32_t hb = 0;
	struct sl_drm *dev2;
	int dmafd = -1, err;

	NEED_DEVICE();
	REQUIRE(bo_new(g_dev, 4096, 0, 0, 0, &a) == 0);
	memset(&jobs_b, 0, sizeof(jobs_b));
	dev2 = reopen();
	if (!dev2 || sl_bo_export(a, DRM_CLOEXEC, &dmafd) ||
	    drmPrimeFDToHandle(sl_drm_fd(dev2), dmafd, &hb) ||
	    cjob_new(dev2, &mc_endless_kernel, 0, &jobs_b)) {
		CHECK(!"set-up: reopen, export, import, endless job");
		goto out;
	}
	memset(refs, 0, sizeof(refs));
	refs[0].handle = jobs_b.area->handle;
	refs[0].flags = SLEIPNIR_BO_REF_WRITE;
	refs[1].handle = jobs_b.out->handle;
	refs[1].flags = SLEIPNIR_BO_REF_WRITE;
	refs[2].handle = hb;
	refs[2].flags = SLEIPNIR_BO_REF_WRITE;
	memset(&s, 0, sizeof(s));
	s.jc = jobs_b.jc;
	s.requirements = REQ_COMPUTE;
	s.timeout_ms = 500;
	s.bos = OBJ_ARRAY(refs, 3);
	err = sl_drm_ioctl(dev2, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_ERRNO(bo_wait(g_dev, a->handle, 0), -ETIMEDOUT);
		CHECK_ERRNO(bo_wait(g_dev, a->handle, deadline_ns(WAIT_MS)), 0);
	}
	clear_fault(dev2);
	cjob_free(&jobs_b);
out:
	if (hb)
		gem_close(dev2, hb);
	if (dmafd >= 0)
		close(dmafd);
	if (dev2)
		sl_drm_close(dev2);
	bo_free(&a);
}

void run_bo_tests(void)
{
	RUN(bo_create_sizes);
	RUN(bo_create_flags);
	RUN(bo_create_errors);
	RUN(bo_mmap);
	RUN(bo_close);
	RUN(bo_sync);
	RUN(bo_wait);
	RUN(userptr_gpu_access);
	RUN(userptr_errors);
	RUN(userptr_read_only);
	RUN(prime);
	RUN(prime_implicit_fence);
}
