/* SPDX-License-Identifier: MIT */
/*
 * sleipnir_uapi: the per-file GPU address space. VM_MAP at fixed and
 * automatic addresses (checked against a CPU-side model of "the lowest free
 * range that fits"), VM_MAP/VM_UNMAP argument errors, what the GPU reaches
 * after map, unmap and remap, mapping permissions (read-only mappings and
 * BOs), and the isolation of one file's VM from another's.
 *
 * Every test that needs a known layout works on a fresh file, whose VM is
 * empty.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sleipnir_uapi.h"

#define SZ_2M (2ull << 20)

#define NEED_PARAMS()                                                          \
	do {                                                                   \
		NEED_DEVICE();                                                 \
		REQUIRE(g_params_ok);                                          \
	} while (0)

/* What the test believes is mapped in one file's VM. */
struct vm_model {
	struct {
		uint64_t va, size;
	} m[32];
	unsigned int n;
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static void model_add(struct vm_model *vm, uint64_t va, uint64_t size)
{
	if (vm->n < ARRAY_LEN(vm->m)) {
		vm->m[vm->n].va = va;
		vm->m[vm->n].size = size;
		vm->n++;
	}
}

static void model_del(struct vm_model *vm, uint64_t va)
{
	for (unsigned int i = 0; i < vm->n; i++)
		if (vm->m[i].va == va) {
			vm->m[i] = vm->m[--vm->n];
			return;
		}
}

/*
 * The address AUTO_VA must pick: the lowest free range of size bytes in
 * [VA_START, VA_END), aligned to 2 MiB when size >= 2 MiB, else to a page.
 */
static uint64_t model_auto_va(const struct vm_model *vm, uint64_t size)
{
	uint64_t align = size >= SZ_2M ? SZ_2M : 4096;
	uint64_t a = align_up(PARAM(VA_START), align);
	bool moved = true;

	while (moved) {
		moved = false;
		for (unsigned int i = 0; i < vm->n; i++)
			if (a < vm->m[i].va + vm->m[i].size &&
			    vm->m[i].va < a + size) {
				a = align_up(vm->m[i].va + vm->m[i].size,
					     align);
				moved = true;
			}
	}
	return a + size <= PARAM(VA_END) ? a : 0;
}

/* AUTO_VA map, checked against the model and recorded in it. */
static uint64_t auto_map(struct sl_drm *dev, struct vm_model *vm,
			 uint32_t handle,
			 uint32_t flags, uint64_t bo_offset, uint64_t size)
{
	uint64_t expect = model_auto_va(vm, size), va = 0;
	int err = vm_map(dev, handle, flags | SLEIPNIR_VM_MAP_AUTO_VA,
			 bo_offset, size, &va);

	CHECK_ERRNO(err, 0);
	if (err)
		return 0;
	printf("  AUTO_VA %#llx bytes -> %#llx (lowest free: %#llx)\n",
	       (unsigned long long)size, (unsigned long long)va,
	       (unsigned long long)expect);
	CHECK_EQ(va % 4096, 0);
	CHECK(va >= PARAM(VA_START));
	CHECK(va + size <= PARAM(VA_END));
	CHECK_EQ(va, expect);
	model_add(vm, va, size);
	return va;
}

/*
 * Fixed and automatic addresses, mappings of part of a BO, and what the
 * GPU writes through each: the bytes land at bo_offset + (address - va).
 */
TEST(vm_map_layout)
{
	struct vm_model vm = { .n = 0 };
	uint32_t a = 0, b = 0, jobs = 0, bos[3];
	uint64_t fixed, va_page1, va_next, va_whole, va_big, jobs_va;
	uint8_t *amap = NULL, *jobs_map = NULL;
	struct sl_drm *dev;
	int err;

	NEED_PARAMS();
	dev = reopen();
	REQUIRE(dev);
	if (bo_create(dev, 64 * 1024, 0, &a) ||
	    bo_create(dev, SZ_2M, SLEIPNIR_BO_NO_CPU_MAP, &b) ||
	    !(amap = bo_cpu_map(dev, a, 64 * 1024))) {
		CHECK(!"set-up: BOs");
		goto out;
	}
	for (unsigned int i = 0; i < 64 * 1024 / 8; i++)
		le_put64(amap + 8 * i, FILL64);

	/* A fixed mapping 1 MiB above VA_START. */
	fixed = PARAM(VA_START) + (1ull << 20);
	err = vm_map(dev, a, 0, 0, 64 * 1024, &fixed);
	CHECK_ERRNO(err, 0);
	CHECK_EQ(fixed, PARAM(VA_START) + (1ull << 20)); /* va untouched */
	if (!err)
		model_add(&vm, fixed, 64 * 1024);
	/* Automatic ones fill the space below it, lowest first. */
	va_page1 = auto_map(dev, &vm, a, 0, 4096, 4096);
	CHECK_EQ(va_page1, PARAM(VA_START));
	va_next = auto_map(dev, &vm, a, 0, 8192, 4096);
	va_whole = auto_map(dev, &vm, a, 0, 0, 64 * 1024);
	/* A 2 MiB mapping is 2 MiB-aligned. */
	va_big = auto_map(dev, &vm, b, 0, 0, SZ_2M);
	CHECK_EQ(va_big % SZ_2M, 0);

	/* The jobs BO, mapped the same way. */
	{
		struct drm_sleipnir_bo_create c = { .size = 4096 };

		err = sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_BO_CREATE, &c);
		CHECK_ERRNO(err, 0);
		if (err)
			goto unmap;
		jobs = c.handle;
		jobs_map = bo_cpu_map(dev, c.handle, 4096);
		jobs_va = auto_map(dev, &vm, c.handle, 0, 0, 4096);
		if (!jobs_map || !jobs_va)
			goto unmap;
	}

	/* Four WRITE_VALUE(zero) jobs, one through each mapping of A. */
	{
		const uint64_t targets[] = {
			fixed + 0x100,       /* A + 0x100 */
			va_page1 + 0x208,    /* A + 0x1208 */
			va_next + 0x310,     /* A + 0x2310 */
			va_whole + 0x3418,   /* A + 0x3418 */
		};
		const uint64_t expect_off[] = { 0x100, 0x1208, 0x2310,
						0x3418 };
		unsigned int bad = 0;

		for (unsigned int i = 0; i < 4; i++)
			mali_pack_write_value_job(
				jobs_map + i * MALI_JOB_SLOT_SIZE, i + 1,
				0, 0,
				i < 3 ? jobs_va + (i + 1) * MALI_JOB_SLOT_SIZE
				      : 0,
				targets[i], MDG_WRITE_VALUE_TYPE_ZERO);
		bos[0] = jobs;
		bos[1] = a;
		bos[2] = b;
		CHECK_EQ(run_chain(dev, jobs_va, REQ_SLOT0, bos, 3, 0), 1);
		for (unsigned int i = 0; i < 4; i++)
			CHECK_EQ(le_get64(amap + expect_off[i]), 0);
		/* Nothing else in A changed. */
		for (unsigned int i = 0; i < 64 * 1024 / 8; i++) {
			uint64_t off = 8ull * i;

			if (off == 0x100 || off == 0x1208 || off == 0x2310 ||
			    off == 0x3418)
				continue;
			bad += le_get64(amap + off) != FILL64;
		}
		CHECK_EQ(bad, 0);
	}

unmap:
	for (unsigned int i = vm.n; i-- > 0;)
		CHECK_ERRNO(vm_unmap(dev, vm.m[i].va, vm.m[i].size), 0);
	vm.n = 0;
	/* Everything is free again: AUTO_VA starts over at VA_START. */
	if (a) {
		uint64_t va = auto_map(dev, &vm, a, 0, 0, 4096);

		CHECK_EQ(va, PARAM(VA_START));
		if (va)
			vm_unmap(dev, va, 4096);
	}
out:
	if (jobs_map)
		munmap(jobs_map, 4096);
	if (jobs)
		gem_close(dev, jobs);
	if (amap)
		munmap(amap, 64 * 1024);
	if (a)
		gem_close(dev, a);
	if (b)
		gem_close(dev, b);
	sl_drm_close(dev);
}

TEST(vm_map_errors)
{
	struct vm_model vm = { .n = 0 };
	const uint64_t bo_size = 4 * 4096;
	uint64_t base, start, end, va;
	uint32_t h = 0;
	struct sl_drm *dev;
	int err;

	NEED_PARAMS();
	dev = reopen();
	REQUIRE(dev);
	if (bo_create(dev, bo_size, 0, &h)) {
		sl_drm_close(dev);
		REQUIRE(!"BO");
	}
	start = PARAM(VA_START);
	end = PARAM(VA_END);
	base = start + (16ull << 20);

	struct {
		uint64_t va, bo_offset, size;
		uint32_t flags;
		const char *what;
	} bad[] = {
		{ base + 0x800, 0, 4096, 0, "misaligned va" },
		{ base + 1, 0, 4096, 0, "va + 1" },
		{ base, 0x800, 4096, 0, "misaligned bo_offset" },
		{ base, 0, 0x800, 0, "misaligned size" },
		{ base, 0, 4096 + 1, 0, "size + 1" },
		{ base, 0, 0, 0, "zero size" },
		{ base, 0, bo_size + 4096, 0, "size beyond the BO" },
		{ base, 4096, bo_size, 0, "offset + size beyond the BO" },
		{ base, bo_size, 4096, 0, "offset at the BO's end" },
		{ base, UINT64_MAX & ~0xfffull, 8192, 0, "BO range wraps" },
		{ start - 4096, 0, 4096, 0, "below VA_START" },
		{ 0, 0, 4096, 0, "va 0 without AUTO_VA" },
		{ start - 4096, 0, 8192, 0, "straddles VA_START" },
		{ end - 4096, 0, 8192, 0, "beyond VA_END" },
		{ end, 0, 4096, 0, "at VA_END" },
		{ UINT64_MAX & ~0xfffull, 0, 8192, 0, "VA range wraps" },
		{ base, 0, 4096, SLEIPNIR_VM_MAP_AUTO_VA, "AUTO_VA, va != 0" },
		{ base, 0, 4096, 1u << 3, "unknown flag 1 << 3" },
		{ base, 0, 4096, 1u << 31, "unknown flag 1 << 31" },
	};

	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		va = bad[i].va;
		err = vm_map(dev, h, bad[i].flags, bad[i].bo_offset,
			     bad[i].size, &va);
		if (err != -EINVAL)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "VM_MAP with %s: %s, expected EINVAL",
				      bad[i].what,
				      err ? strerror(-err) : "success");
		if (!err)
			vm_unmap(dev, va, bad[i].size);
	}
	va = base;
	CHECK_ERRNO(vm_map(dev, 0xdead, 0, 0, 4096, &va), -ENOENT);

	/* Overlaps with an existing mapping [base, base + 8K). */
	va = base;
	CHECK_ERRNO(vm_map(dev, h, 0, 0, 8192, &va), 0);
	model_add(&vm, base, 8192);
	{
		const struct {
			uint64_t va, size;
		} over[] = {
			{ base, 8192 },		/* the same */
			{ base - 4096, 8192 },	/* its start */
			{ base + 4096, 8192 },	/* its end */
			{ base - 4096, 16384 }, /* contains it */
			{ base + 4096, 4096 },	/* inside it */
			{ base, 4096 },		/* same start, smaller */
		};

		for (size_t i = 0; i < ARRAY_LEN(over); i++) {
			va = over[i].va;
			err = vm_map(dev, h, 0, 0, over[i].size, &va);
			if (err != -EINVAL)
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "overlapping VM_MAP %zu: %s, "
					      "expected EINVAL",
					      i,
					      err ? strerror(-err) : "success");
			if (!err)
				vm_unmap(dev, over[i].va, over[i].size);
		}
	}
	/* Neighbours touching it are fine. */
	va = base + 8192;
	CHECK_ERRNO(vm_map(dev, h, 0, 0, 4096, &va), 0);
	CHECK_ERRNO(vm_unmap(dev, base + 8192, 4096), 0);
	va = base - 4096;
	CHECK_ERRNO(vm_map(dev, h, 0, bo_size - 4096, 4096, &va), 0);
	CHECK_ERRNO(vm_unmap(dev, base - 4096, 4096), 0);
	/* The very first and the very last page are fine. */
	va = start;
	CHECK_ERRNO(vm_map(dev, h, 0, 0, 4096, &va), 0);
	CHECK_ERRNO(vm_unmap(dev, start, 4096), 0);
	va = end - 4096;
	CHECK_ERRNO(vm_map(dev, h, 0, 0, 4096, &va), 0);
	CHECK_ERRNO(vm_unmap(dev, end - 4096, 4096), 0);

	/* None of the failures reserved anything: AUTO_VA is as predicted. */
	va = auto_map(dev, &vm, h, 0, 0, 4096);
	CHECK_EQ(va, start);
	if (va) {
		CHECK_ERRNO(vm_unmap(dev, va, 4096), 0);
		model_del(&vm, va);
	}

	/* VM_UNMAP must name exactly one whole mapping. */
	{
		struct drm_sleipnir_vm_unmap u;

		memset(&u, 0, sizeof(u));
		u.va = base;
		u.size = 8192;
		u.flags = 1;
		CHECK_ERRNO(sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_VM_UNMAP, &u),
			    -EINVAL);
		u.flags = 0;
		u.pad = 1;
		CHECK_ERRNO(sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_VM_UNMAP, &u),
			    -EINVAL);
	}
	CHECK_ERRNO(vm_unmap(dev, base, 4096),
		    -EINVAL);	       /* part */
	CHECK_ERRNO(vm_unmap(dev, base + 4096, 4096), -EINVAL); /* tail */
	CHECK_ERRNO(vm_unmap(dev, base, 16384), -EINVAL);       /* more */
	CHECK_ERRNO(vm_unmap(dev, base - 4096, 12288), -EINVAL);
	CHECK_ERRNO(vm_unmap(dev, base, 0), -EINVAL);
	CHECK_ERRNO(vm_unmap(dev, base + (1ull << 30), 4096), -EINVAL);
	CHECK_ERRNO(vm_unmap(dev, 0, 4096), -EINVAL);
	/* The mapping survived all that; now it goes, once. */
	va = base;
	CHECK_ERRNO(vm_map(dev, h, 0, 0, 4096, &va), -EINVAL);
	CHECK_ERRNO(vm_unmap(dev, base, 8192), 0);
	model_del(&vm, base);
	CHECK_ERRNO(vm_unmap(dev, base, 8192), -EINVAL);
	/* And the range can be mapped again. */
	va = base;
	CHECK_ERRNO(vm_map(dev, h, 0, 4096, 8192, &va), 0);
	CHECK_ERRNO(vm_unmap(dev, base, 8192), 0);

	gem_close(dev, h);
	sl_drm_close(dev);
}

/*
 * What the GPU reaches follows map, unmap and remap at once: after a remap
 * at the same address with another bo_offset the write lands there; after
 * the unmap it faults (-EFAULT, MMU, WRITE at that address) and changes
 * nothing.
 */
TEST(vm_unmap_remap_gpu)
{
	struct sl_bo *jobs = NULL;
	uint32_t h = 0, bos[2], sync;
	uint64_t va, fixed;
	uint8_t *map = NULL;
	struct sl_drm *dev;
	int err;

	NEED_PARAMS();
	dev = reopen();
	REQUIRE(dev);
	if (bo_new(dev, 4096, 0, 0, 0, &jobs)) {
		sl_drm_close(dev);
		REQUIRE(!"jobs BO");
	}
	if (bo_create(dev, 2 * 4096, 0, &h) ||
	    !(map = bo_cpu_map(dev, h, 2 * 4096))) {
		CHECK(!"data BO");
		goto out;
	}
	for (unsigned int i = 0; i < 2 * 4096 / 8; i++)
		le_put64(map + 8 * i, FILL64);
	bos[0] = jobs->handle;
	bos[1] = h;
	fixed = PARAM(VA_START) + (32ull << 20);

	va = fixed;
	CHECK_ERRNO(vm_map(dev, h, 0, 0, 4096, &va), 0);
	CHECK_EQ(run_write_value(dev, jobs, fixed + 0x40, MDG_WRITE_VALUE_TYPE_ZERO,
				 bos, 2),
		 1);
	CHECK_EQ(le_get64(map + 0x40), 0);
	CHECK_ERRNO(vm_unmap(dev, fixed, 4096), 0);

	va = fixed;
	CHECK_ERRNO(vm_map(dev, h, 0, 4096, 4096, &va), 0);
	CHECK_EQ(run_write_value(dev, jobs, fixed + 0x48, MDG_WRITE_VALUE_TYPE_ZERO,
				 bos, 2),
		 1);
	CHECK_EQ(le_get64(map + 4096 + 0x48), 0);
	CHECK_EQ(le_get64(map + 0x48), FILL64);
	CHECK_ERRNO(vm_unmap(dev, fixed, 4096), 0);

	/* Unmapped now: the same write faults. */
	mali_pack_write_value_job(bo_cpu(jobs, 0), 1, 0, 0, 0, fixed + 0x50,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	sync = syncobj_new(dev, false);
	err = submit_simple(dev, jobs->va, REQ_SLOT0, bos, 2, true, 0, sync, 0);
	CHECK_ERRNO(err, 0);
	if (!err)
		check_mmu_fault(dev, sync, jobs->va, fixed + 0x50, false,
				SLEIPNIR_ACCESS_WRITE, false);
	sl_syncobj_destroy(dev, sync);
	CHECK_EQ(le_get64(map + 0x50), FILL64);
	CHECK_EQ(le_get64(map + 4096 + 0x50), FILL64);
	CHECK(mali_job_exception_status(bo_cpu(jobs, 0)) !=
	      MDG_EXCEPTION_DONE);
	check_good_job(dev, REQ_SLOT0, "after the fault on an unmapped range");
out:
	if (map)
		munmap(map, 2 * 4096);
	if (h)
		gem_close(dev, h);
	bo_free(&jobs);
	sl_drm_close(dev);
}

/*
 * A VM mapping holds its BO: with the handle closed, the GPU still writes
 * the memory (seen through a CPU mapping made before), until the unmap.
 */
TEST(vm_map_holds_bo)
{
	struct sl_bo *jobs = NULL;
	uint32_t h = 0;
	uint64_t va = 0;
	uint8_t *map;
	int status;

	NEED_DEVICE();
	REQUIRE(bo_new(g_dev, 4096, 0, 0, 0, &jobs) == 0);
	if (bo_create(g_dev, 4096, 0,
		      &h) || !(map = bo_cpu_map(g_dev, h, 4096))) {
		bo_free(&jobs);
		if (h)
			gem_close(g_dev, h);
		REQUIRE(!"data BO");
	}
	le_put64(map + 0x100, FILL64);
	CHECK_ERRNO(vm_map(g_dev, h, SLEIPNIR_VM_MAP_AUTO_VA, 0, 4096, &va), 0);
	CHECK_ERRNO(gem_close(g_dev, h), 0);
	status = run_write_value(g_dev, jobs, va + 0x100, MDG_WRITE_VALUE_TYPE_ZERO,
				 &jobs->handle, 1);
	CHECK_EQ(status, 1);
	CHECK_EQ(le_get64(map + 0x100), 0);
	CHECK_ERRNO(vm_unmap(g_dev, va, 4096), 0);
	munmap(map, 4096);
	bo_free(&jobs);
}

/*
 * Permissions. The same BO mapped read-write and read-only: a write through
 * the read-only mapping faults (permission fault, WRITE) and leaves the
 * memory as it was; through the read-write one it works. A BO created
 * GPU_READ_ONLY is read-only in every mapping. NOEXEC mappings and BOs
 * still serve job descriptors (the job manager reads them as data).
 */
TEST(vm_permissions)
{
	struct sl_bo *jobs = NULL, *data = NULL, *robo = NULL, *nx = NULL;
	uint64_t va_rw = 0, va_ro = 0;
	uint32_t bos[2], sync;
	struct sl_drm *dev;
	int err;

	NEED_PARAMS();
	dev = reopen();
	REQUIRE(dev);
	if (bo_new(dev, 4096, 0, 0, 0, &jobs)) {
		sl_drm_close(dev);
		REQUIRE(!"jobs BO");
	}
	if (bo_new(dev, 4096, 0, 0, 0, &data)) {
		bo_free(&jobs);
		sl_drm_close(dev);
		REQUIRE(!"data BO");
	}
	va_rw = data->va;
	bo_put64(data, 0x100, FILL64);
	CHECK_ERRNO(vm_map(dev, data->handle,
			   SLEIPNIR_VM_MAP_AUTO_VA | SLEIPNIR_VM_MAP_READ_ONLY,
			   0, 4096, &va_ro),
		    0);
	bos[0] = jobs->handle;
	bos[1] = data->handle;

	/* Read-only mapping: fault, memory unchanged. */
	mali_pack_write_value_job(bo_cpu(jobs, 0), 1, 0, 0, 0, va_ro + 0x100,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	sync = syncobj_new(dev, false);
	err = submit_simple(dev, jobs->va, REQ_SLOT0, bos, 2, true, 0, sync, 0);
	CHECK_ERRNO(err, 0);
	if (!err)
		check_mmu_fault(dev, sync, jobs->va, va_ro + 0x100, false,
				SLEIPNIR_ACCESS_WRITE, true);
	sl_syncobj_destroy(dev, sync);
	CHECK_EQ(bo_get64(data, 0x100), FILL64);

	/* Read-write mapping of the same page: works. */
	CHECK_EQ(run_write_value(dev, jobs, va_rw + 0x100,
				 MDG_WRITE_VALUE_TYPE_ZERO, bos, 2),
		 1);
	CHECK_EQ(bo_get64(data, 0x100), 0);
	if (va_ro)
		CHECK_ERRNO(vm_unmap(dev, va_ro, 4096), 0);

	/* A GPU_READ_ONLY BO, mapped without flags. */
	if (bo_new(dev, 4096, SLEIPNIR_BO_GPU_READ_ONLY, 0, 0, &robo) == 0) {
		bo_put64(robo, 0x200, FILL64);
		mali_pack_write_value_job(bo_cpu(jobs, 0), 1, 0, 0, 0,
					  robo->va + 0x200,
					  MDG_WRITE_VALUE_TYPE_ZERO);
		bos[1] = robo->handle;
		sync = syncobj_new(dev, false);
		err = submit_simple(dev, jobs->va, REQ_SLOT0, bos, 2, true, 0,
				    sync, 0);
		CHECK_ERRNO(err, 0);
		if (!err)
			check_mmu_fault(dev, sync, jobs->va, robo->va + 0x200,
					false, SLEIPNIR_ACCESS_WRITE, true);
		sl_syncobj_destroy(dev, sync);
		CHECK_EQ(bo_get64(robo, 0x200), FILL64);
		bo_free(&robo);
	} else {
		CHECK(!"GPU_READ_ONLY BO");
	}

	/* Job descriptors in a NOEXEC mapping of a NOEXEC BO run. */
	if (bo_new(dev, 4096, SLEIPNIR_BO_GPU_NOEXEC, SLEIPNIR_VM_MAP_NOEXEC, 0,
		   &nx) == 0) {
		bo_put64(nx, 0x300, FILL64);
		mali_pack_write_value_job(bo_cpu(nx, 0), 1, 0, 0, 0,
					  nx->va + 0x300,
					  MDG_WRITE_VALUE_TYPE_ZERO);
		CHECK_EQ(run_chain(dev, nx->va, REQ_SLOT0, &nx->handle, 1, 0),
			 1);
		CHECK_EQ(bo_get64(nx, 0x300), 0);
		bo_free(&nx);
	} else {
		CHECK(!"NOEXEC BO and mapping");
	}
	bo_free(&data);
	bo_free(&jobs);
	sl_drm_close(dev);
}

/*
 * Each file has its own VM: two files map their own BO at the same address
 * and each job writes its own BO; a third file with nothing there faults,
 * and so does a small address below VA_START (NULL + offset) and a chain
 * whose jc is not mapped (a READ fault on the descriptor).
 */
TEST(vm_per_file)
{
	struct sl_bo *j1 = NULL, *j2 = NULL, *j3 = NULL;
	uint32_t h1 = 0, h2 = 0, bos[2], sync;
	uint8_t *m1 = NULL, *m2 = NULL;
	uint64_t x, va;
	struct sl_drm *dev1, *dev2, *dev3;
	int err;

	NEED_PARAMS();
	dev1 = reopen();
	dev2 = reopen();
	dev3 = reopen();
	REQUIRE(dev1 && dev2 && dev3);
	x = PARAM(VA_START) + (64ull << 20);
	if (bo_new(dev1, 4096, 0, 0, 0,
		   &j1) || bo_new(dev2, 4096, 0, 0, 0, &j2) ||
	    bo_new(dev3, 4096, 0, 0, 0, &j3) || bo_create(dev1, 4096, 0, &h1) ||
	    bo_create(dev2, 4096, 0, &h2) ||
	    !(m1 = bo_cpu_map(dev1, h1, 4096)) ||
	    !(m2 = bo_cpu_map(dev2, h2, 4096))) {
		CHECK(!"set-up");
		goto out;
	}
	le_put64(m1 + 0x100, FILL64);
	le_put64(m2 + 0x100, FILL64);
	le_put64(m2 + 0x108, FILL64);
	va = x;
	CHECK_ERRNO(vm_map(dev1, h1, 0, 0, 4096, &va), 0);
	va = x;
	CHECK_ERRNO(vm_map(dev2, h2, 0, 0, 4096, &va), 0);

	bos[0] = j1->handle;
	bos[1] = h1;
	CHECK_EQ(run_write_value(dev1, j1, x + 0x100, MDG_WRITE_VALUE_TYPE_ZERO,
				 bos, 2),
		 1);
	CHECK_EQ(le_get64(m1 + 0x100), 0);
	CHECK_EQ(le_get64(m2 + 0x100), FILL64);
	bos[0] = j2->handle;
	bos[1] = h2;
	le_put64(m1 + 0x100, FILL64);
	CHECK_EQ(run_write_value(dev2, j2, x + 0x108, MDG_WRITE_VALUE_TYPE_ZERO,
				 bos, 2),
		 1);
	CHECK_EQ(le_get64(m2 + 0x108), 0);
	CHECK_EQ(le_get64(m1 + 0x100), FILL64);
	CHECK_EQ(le_get64(m1 + 0x108), 0); /* never written: BO zero */

	/* File 3 has nothing at x. */
	mali_pack_write_value_job(bo_cpu(j3, 0), 1, 0, 0, 0, x + 0x100,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	sync = syncobj_new(dev3, false);
	err = submit_simple(dev3, j3->va, REQ_SLOT0, &j3->handle, 1, true, 0,
			    sync, 0);
	CHECK_ERRNO(err, 0);
	if (!err)
		check_mmu_fault(dev3, sync, j3->va, x + 0x100, false,
				SLEIPNIR_ACCESS_WRITE, false);
	sl_syncobj_destroy(dev3, sync);
	CHECK_EQ(le_get64(m1 + 0x100), FILL64);
	CHECK_EQ(le_get64(m2 + 0x100), FILL64);

	/* NULL + 0x100: below VA_START, never mapped. */
	mali_pack_write_value_job(bo_cpu(j3, 0), 1, 0, 0, 0, 0x100,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	sync = syncobj_new(dev3, false);
	err = submit_simple(dev3, j3->va, REQ_SLOT0, &j3->handle, 1, true, 0,
			    sync, 0);
	CHECK_ERRNO(err, 0);
	if (!err)
		check_mmu_fault(dev3, sync, j3->va, 0x100, false,
				SLEIPNIR_ACCESS_WRITE, false);
	sl_syncobj_destroy(dev3, sync);

	/* A chain at an unmapped jc: the descriptor read faults. */
	sync = syncobj_new(dev3, false);
	err = submit_simple(dev3, x + 0x1000, REQ_SLOT0, NULL, 0, true, 0,
			    sync, 0);
	CHECK_ERRNO(err, 0);
	if (!err)
		check_mmu_fault(dev3, sync, x + 0x1000, x + 0x1000, true,
				SLEIPNIR_ACCESS_READ, false);
	sl_syncobj_destroy(dev3, sync);
	check_good_job(dev3, REQ_SLOT0, "file 3 after its faults");
	vm_unmap(dev1, x, 4096);
	vm_unmap(dev2, x, 4096);
out:
	if (m1)
		munmap(m1, 4096);
	if (m2)
		munmap(m2, 4096);
	if (h1)
		gem_close(dev1, h1);
	if (h2)
		gem_close(dev2, h2);
	bo_free(&j1);
	bo_free(&j2);
	bo_free(&j3);
	sl_drm_close(dev1);
	sl_drm_close(dev2);
	sl_drm_close(dev3);
}

void run_vm_tests(void)
{
	RUN(vm_map_layout);
	RUN(vm_map_errors);
	RUN(vm_unmap_remap_gpu);
	RUN(vm_map_holds_bo);
	RUN(vm_permissions);
	RUN(vm_per_file);
}
