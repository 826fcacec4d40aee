/* SPDX-License-Identifier: MIT */
/*
 * The simulator's core seen from both ends: a program opens the node
 * through sl_drm (userspace/drm) as the ICD does, creates, maps and mmaps
 * BOs and VM_MAPs them; then the model's own MMU (sgpu_translate) must
 * reach, at each GPU address, the very bytes the CPU wrote through its
 * mapping, with the permissions VM_MAP and the BO flags asked for, and
 * nothing once unmapped. The reference is independent of the simulator's
 * page-table writer: the CPU mapping (or the user memory of a userptr BO)
 * and the uapi header's rules.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sgpu_regs.h"
#include "sim_core.h"
#include "sim_fd.h"
#include "sl_drm.h"
#include "sim_test.h"

#define PAGE 4096ull
#define SZ_2M (2ull << 20)

struct file {
	struct sl_drm *dev;
	struct sim_file *sfile;
	int as;
};

static int ioctl_err(struct sl_drm *dev, unsigned long req, void *arg)
{
	return sl_drm_ioctl(dev, req, arg);
}

static bool file_open(struct file *f)
{
	memset(f, 0, sizeof(*f));
	f->as = -1;
	if (sl_drm_open(&f->dev))
		return false;
	f->sfile = sim_fd_get(sl_drm_fd(f->dev), NULL, NULL);
	return f->sfile != NULL;
}

/* Loads the file's VM into an AS, as a job would. */
static bool file_bind(struct file *f)
{
	f->as = sim_vm_as_get(f->sfile->vm);
	return f->as >= 0;
}

/* Waits until the MMU interrupt a translation fault raised is handled. */
static void wait_mmu_irq_handled(void)
{
	struct sim_device *dev = sim_device_get();

	for (int i = 0; i < 2000; i++) {
		if (!sim_reg_read(dev, MMU_INT_RAWSTAT))
			return;
		usleep(1000);
	}
	CHECK(!"MMU interrupt handled within 2 s");
}

static void file_close(struct file *f)
{
	int fd;

	if (!f->dev)
		return;
	if (f->as >= 0)
		sim_vm_as_put(f->sfile->vm);
	fd = sl_drm_fd(f->dev);
	sl_drm_close(f->dev);
	if (f->sfile)
		sim_fd_put(fd);
	f->dev = NULL;
}

static uint32_t bo_create(struct sl_drm *dev, uint64_t size, uint32_t flags)
{
	struct drm_sleipnir_bo_create c = { .size = size, .flags = flags };

	return ioctl_err(dev, DRM_IOCTL_SLEIPNIR_BO_CREATE, &c) ? 0 : c.handle;
}

static uint8_t *bo_mmap(struct sl_drm *dev, uint32_t handle, uint64_t size)
{
	struct drm_sleipnir_bo_mmap_offset m = { .handle = handle };
	void *p;

	if (ioctl_err(dev, DRM_IOCTL_SLEIPNIR_BO_MMAP_OFFSET, &m))
		return NULL;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 sl_drm_fd(dev), (off_t)m.offset);
	return p == MAP_FAILED ? NULL : p;
}

static int vm_map(struct sl_drm *dev, uint32_t handle, uint32_t flags,
		  uint64_t bo_offset, uint64_t size, uint64_t *va)
{
	struct drm_sleipnir_vm_map m = {
		.handle = handle, .flags = flags, .bo_offset = bo_offset,
		.size = size, .va = *va,
	};
	int err = ioctl_err(dev, DRM_IOCTL_SLEIPNIR_VM_MAP, &m);

	if (!err)
		*va = m.va;
	return err;
}

static int vm_unmap(struct sl_drm *dev, uint64_t va, uint64_t size)
{
	struct drm_sleipnir_vm_unmap u = { .va = va, .size = size };

	return ioctl_err(dev, DRM_IOCTL_SLEIPNIR_VM_UNMAP, &u);
}

static void fill(uint8_t *p, uint64_t size, uint32_t seed)
{
	for (uint64_t i = 0; i < size; i += 8) {
		uint64_t v = (i + seed) * 0x9e3779b97f4a7c15ull;

		memcpy(p + i, &v, 8);
	}
}

/*
 * Every page of [va, va + size) translates for access, and the physical
 * page holds what the CPU sees at cpu + the same offset.
 */
static void check_reaches(struct file *f, uint64_t va, const uint8_t *cpu,
			  uint64_t size, enum sgpu_access access)
{
	struct sgpu *gpu = sim_device_gpu(sim_device_get());
	unsigned int bad_translate = 0, bad_bytes = 0;
	uint8_t page[PAGE];

	for (uint64_t off = 0; off < size; off += PAGE) {
		uint64_t pa = 0;

		if (sgpu_translate(gpu, (unsigned int)f->as, va + off + 8,
				   access, &pa)) {
			bad_translate++;
			continue;
		}
		if ((pa & (PAGE - 1)) != 8 ||
		    !sim_ram_read(NULL, pa - 8, page, PAGE) ||
		    memcmp(page, cpu + off, PAGE))
			bad_bytes++;
	}
	CHECK_EQ(bad_translate, 0);
	CHECK_EQ(bad_bytes, 0);
}

/* A translation of va for access must fault (and the fault is handled). */
static void check_faults(struct file *f, uint64_t va, enum sgpu_access access)
{
	struct sgpu *gpu = sim_device_gpu(sim_device_get());
	uint64_t pa = 0;

	CHECK(sgpu_translate(gpu, (unsigned int)f->as, va, access, &pa) != 0);
	wait_mmu_irq_handled();
}

/* Fixed and automatic addresses, partial maps, 2 MiB blocks, mmap. */
static void test_native_bos(void)
{
	const uint64_t small = 3 * PAGE, big = 2 * SZ_2M;
	uint64_t va_fixed, va_auto = 0, va_part = 0, va_big = 0, va_ro = 0;
	uint8_t *a, *b;
	uint32_t ha, hb;
	struct file f;

	if (!file_open(&f)) {
		CHECK(!"open the node");
		return;
	}
	ha = bo_create(f.dev, small, 0);
	hb = bo_create(f.dev, big, SLEIPNIR_BO_CPU_CACHED);
	CHECK(ha && hb);
	a = bo_mmap(f.dev, ha, small);
	b = bo_mmap(f.dev, hb, big);
	CHECK(a && b);
	if (!a || !b)
		goto out;
	fill(a, small, 1);
	fill(b, big, 2);

	va_fixed = SIM_VA_START + (5ull << 20);
	CHECK_EQ(vm_map(f.dev, ha, 0, 0, small, &va_fixed), 0);
	CHECK_EQ(vm_map(f.dev, ha, SLEIPNIR_VM_MAP_AUTO_VA, 0, small,
			&va_auto), 0);
	CHECK_EQ(va_auto, SIM_VA_START);            /* the lowest free range */
	CHECK_EQ(vm_map(f.dev, ha, SLEIPNIR_VM_MAP_AUTO_VA, PAGE, PAGE,
			&va_part), 0);
	CHECK_EQ(va_part, SIM_VA_START + small);
	CHECK_EQ(vm_map(f.dev, hb, SLEIPNIR_VM_MAP_AUTO_VA, 0, big, &va_big),
		 0);
	CHECK_EQ(va_big % SZ_2M, 0);
	CHECK(va_big >= va_fixed + small);
	CHECK_EQ(vm_map(f.dev, hb, SLEIPNIR_VM_MAP_AUTO_VA |
			SLEIPNIR_VM_MAP_READ_ONLY, SZ_2M - PAGE, 2 * PAGE,
			&va_ro), 0);

	if (!file_bind(&f)) {
		CHECK(!"bind an AS");
		goto out;
	}
	check_reaches(&f, va_fixed, a, small, SGPU_ACCESS_WRITE);
	check_reaches(&f, va_auto, a, small, SGPU_ACCESS_EXECUTE);
	check_reaches(&f, va_part, a + PAGE, PAGE, SGPU_ACCESS_READ);
	check_reaches(&f, va_big, b, big, SGPU_ACCESS_WRITE);
	check_reaches(&f, va_ro, b + SZ_2M - PAGE, 2 * PAGE, SGPU_ACCESS_READ);

	/* A write the CPU makes now is what the GPU reads: same pages. */
	fill(a, small, 3);
	check_reaches(&f, va_fixed, a, small, SGPU_ACCESS_READ);

	/* Unmapped: the MMU no longer reaches it (TLB flushed). */
	CHECK_EQ(vm_unmap(f.dev, va_part, PAGE), 0);
	check_faults(&f, va_part, SGPU_ACCESS_READ);
out:
	if (a)
		munmap(a, small);
	if (b)
		munmap(b, big);
	file_close(&f);
}

/* Read-only and no-exec, from the mapping and from the BO. */
static void test_permissions(void)
{
	static const struct {
		uint32_t bo_flags, map_flags;
		enum sgpu_access denied;
	} cases[] = {
		{ 0, SLEIPNIR_VM_MAP_READ_ONLY, SGPU_ACCESS_WRITE },
		{ SLEIPNIR_BO_GPU_READ_ONLY, 0, SGPU_ACCESS_WRITE },
		{ 0, SLEIPNIR_VM_MAP_NOEXEC, SGPU_ACCESS_EXECUTE },
		{ SLEIPNIR_BO_GPU_NOEXEC, 0, SGPU_ACCESS_EXECUTE },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t va = 0;
		uint8_t *p;
		uint32_t h;
		struct file f;

		if (!file_open(&f)) {
			CHECK(!"open the node");
			return;
		}
		h = bo_create(f.dev, PAGE, cases[i].bo_flags);
		p = h ? bo_mmap(f.dev, h, PAGE) : NULL;
		CHECK(p != NULL);
		if (p && !vm_map(f.dev, h, SLEIPNIR_VM_MAP_AUTO_VA |
				 cases[i].map_flags, 0, PAGE, &va) &&
		    file_bind(&f)) {
			fill(p, PAGE, (uint32_t)i);
			/* Everything else is allowed... */
			check_reaches(&f, va, p, PAGE, SGPU_ACCESS_READ);
			if (cases[i].denied != SGPU_ACCESS_WRITE)
				check_reaches(&f, va, p, PAGE,
					      SGPU_ACCESS_WRITE);
			if (cases[i].denied != SGPU_ACCESS_EXECUTE)
				check_reaches(&f, va, p, PAGE,
					      SGPU_ACCESS_EXECUTE);
			/* ...but what the flags take away. */
			check_faults(&f, va, cases[i].denied);
		} else {
			CHECK(!"map and bind");
		}
		if (p)
			munmap(p, PAGE);
		file_close(&f);
	}
}

/* A userptr BO: the GPU reaches the caller's own memory. */
static void test_userptr(void)
{
	const uint64_t size = 4 * PAGE;
	struct drm_sleipnir_bo_userptr u = { .size = size };
	uint64_t va = 0;
	uint8_t *mem;
	struct file f;

	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED);
	if (mem == MAP_FAILED)
		return;
	if (!file_open(&f)) {
		CHECK(!"open the node");
		munmap(mem, size);
		return;
	}
	fill(mem, size, 7);
	u.user_ptr = (uintptr_t)mem;
	CHECK_EQ(ioctl_err(f.dev, DRM_IOCTL_SLEIPNIR_BO_USERPTR, &u), 0);
	if (!u.handle ||
	    vm_map(f.dev, u.handle, SLEIPNIR_VM_MAP_AUTO_VA, 0, size, &va) ||
	    !file_bind(&f)) {
		CHECK(!"userptr, map and bind");
		goto out;
	}
	check_reaches(&f, va, mem, size, SGPU_ACCESS_WRITE);
	fill(mem, size, 8);
	check_reaches(&f, va, mem, size, SGPU_ACCESS_READ);
out:
	file_close(&f);
	munmap(mem, size);
}

/*
 * The pages of a userptr BO stay its pages when the process unmaps them
 * (they are pinned): the GPU still reaches what was written there, and
 * the process does not crash when the model touches them.
 */
static void test_userptr_unmapped(void)
{
	const uint64_t size = 4 * PAGE;
	struct drm_sleipnir_bo_userptr u = { .size = size };
	uint8_t *mem, want[4 * PAGE];
	uint64_t va = 0;
	struct file f;

	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED);
	if (mem == MAP_FAILED)
		return;
	if (!file_open(&f)) {
		CHECK(!"open the node");
		munmap(mem, size);
		return;
	}
	fill(mem, size, 9);
	memcpy(want, mem, size);
	u.user_ptr = (uintptr_t)mem;
	if (ioctl_err(f.dev, DRM_IOCTL_SLEIPNIR_BO_USERPTR, &u) ||
	    vm_map(f.dev, u.handle, SLEIPNIR_VM_MAP_AUTO_VA, 0, size, &va) ||
	    !file_bind(&f)) {
		CHECK(!"userptr, map and bind");
		munmap(mem, size);
		goto out;
	}
	/* Half of it, then the rest (and a MAP_FIXED over the first half). */
	CHECK_EQ(munmap(mem + PAGE, 2 * PAGE), 0);
	check_reaches(&f, va, want, size, SGPU_ACCESS_READ);
	CHECK(mmap(mem, PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == mem);
	memset(mem, 0xee, PAGE);
	CHECK_EQ(munmap(mem, size), 0);
	check_reaches(&f, va, want, size, SGPU_ACCESS_WRITE);
out:
	file_close(&f);
}

/*
 * Memory of a userptr BO unmapped behind the simulator's back (the C
 * library's free() unmaps large blocks without calling munmap()): the
 * model gets no pointer to it and its reads fail cleanly (a bus fault for
 * a job) instead of crashing the process.
 */
static void test_userptr_gone(void)
{
	const uint64_t size = 2 * PAGE;
	struct drm_sleipnir_bo_userptr u = { .size = size };
	struct sgpu *gpu;
	uint64_t va = 0, pa = 0;
	uint8_t *mem, buf[8];
	struct file f;

	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED);
	if (mem == MAP_FAILED)
		return;
	if (!file_open(&f)) {
		CHECK(!"open the node");
		munmap(mem, size);
		return;
	}
	fill(mem, size, 10);
	u.user_ptr = (uintptr_t)mem;
	if (ioctl_err(f.dev, DRM_IOCTL_SLEIPNIR_BO_USERPTR, &u) ||
	    vm_map(f.dev, u.handle, SLEIPNIR_VM_MAP_AUTO_VA, 0, size, &va) ||
	    !file_bind(&f)) {
		CHECK(!"userptr, map and bind");
		munmap(mem, size);
		goto out;
	}
	gpu = sim_device_gpu(sim_device_get());
	CHECK_EQ(sgpu_translate(gpu, (unsigned int)f.as, va, SGPU_ACCESS_READ,
				&pa), 0);
	CHECK(sim_ram_page(NULL, pa, false) == mem);
	/* Unmapped without the wrapped munmap(). */
	CHECK_EQ(syscall(SYS_munmap, mem, size), 0);
	CHECK(sim_ram_page(NULL, pa, false) == NULL);
	CHECK(!sim_ram_read(NULL, pa, buf, sizeof(buf)));
	CHECK(!sim_ram_write(NULL, pa, buf, sizeof(buf)));
out:
	file_close(&f);
}

/*
 * A CPU mapping of a BO moved with mremap() still holds its BO, where it
 * now is: the BO's pages are not given to another BO when its handle is
 * closed and the old address is reused, and unmapping the new address
 * frees it.
 */
static void test_cpu_map_mremap(void)
{
	struct drm_gem_close close_args = { 0 };
	uint8_t *a, *moved, *hole, want[2 * PAGE];
	int bos_before;
	uint32_t h, h2;
	struct file f;

	if (!file_open(&f)) {
		CHECK(!"open the node");
		return;
	}
	bos_before = sim_gem_live_bos();
	h = bo_create(f.dev, 2 * PAGE, 0);
	a = h ? bo_mmap(f.dev, h, 2 * PAGE) : NULL;
	hole = mmap(NULL, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	CHECK(a && hole != MAP_FAILED);
	if (!a || hole == MAP_FAILED)
		goto out;
	fill(a, 2 * PAGE, 21);
	memcpy(want, a, sizeof(want));
	moved = mremap(a, 2 * PAGE, 2 * PAGE, MREMAP_MAYMOVE | MREMAP_FIXED,
		       hole);
	CHECK(moved == hole);
	close_args.handle = h;
	CHECK_EQ(ioctl_err(f.dev, DRM_IOCTL_GEM_CLOSE, &close_args), 0);
	/* Something else at the old address, then gone: not the BO's map. */
	CHECK(mmap(a, 2 * PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS |
		   MAP_FIXED, -1, 0) == a);
	munmap(a, 2 * PAGE);
	CHECK_EQ(sim_gem_live_bos(), bos_before + 1);
	/* A new BO must not get the moved mapping's pages. */
	h2 = bo_create(f.dev, 2 * PAGE, 0);
	if (h2) {
		uint8_t *b = bo_mmap(f.dev, h2, 2 * PAGE);

		if (b) {
			fill(b, 2 * PAGE, 22);
			munmap(b, 2 * PAGE);
		}
		close_args.handle = h2;
		ioctl_err(f.dev, DRM_IOCTL_GEM_CLOSE, &close_args);
	}
	CHECK(!memcmp(moved, want, sizeof(want)));
	munmap(moved, 2 * PAGE);
	CHECK_EQ(sim_gem_live_bos(), bos_before);
out:
	file_close(&f);
}

/* Two files, the same GPU address: each its own BO (separate VMs). */
static void test_per_file(void)
{
	struct file f1, f2;
	uint64_t va1 = SIM_VA_START, va2 = SIM_VA_START;
	uint8_t *p1 = NULL, *p2 = NULL;
	uint32_t h1, h2;

	if (!file_open(&f1)) {
		CHECK(!"open the node");
		return;
	}
	if (!file_open(&f2)) {
		file_close(&f1);
		CHECK(!"open the node twice");
		return;
	}
	h1 = bo_create(f1.dev, PAGE, 0);
	h2 = bo_create(f2.dev, PAGE, 0);
	p1 = h1 ? bo_mmap(f1.dev, h1, PAGE) : NULL;
	p2 = h2 ? bo_mmap(f2.dev, h2, PAGE) : NULL;
	CHECK(p1 && p2);
	if (p1 && p2 && !vm_map(f1.dev, h1, 0, 0, PAGE, &va1) &&
	    !vm_map(f2.dev, h2, 0, 0, PAGE, &va2) && file_bind(&f1) &&
	    file_bind(&f2)) {
		fill(p1, PAGE, 11);
		fill(p2, PAGE, 12);
		CHECK(f1.as != f2.as);
		check_reaches(&f1, va1, p1, PAGE, SGPU_ACCESS_READ);
		check_reaches(&f2, va2, p2, PAGE, SGPU_ACCESS_READ);
	} else {
		CHECK(!"map and bind both");
	}
	if (p1)
		munmap(p1, PAGE);
	if (p2)
		munmap(p2, PAGE);
	file_close(&f2);
	file_close(&f1);
}

int main(void)
{
	RUN(test_native_bos);
	RUN(test_permissions);
	RUN(test_userptr);
	RUN(test_userptr_unmapped);
	RUN(test_userptr_gone);
	RUN(test_cpu_map_mremap);
	RUN(test_per_file);
	return sim_test_finish();
}
