/* SPDX-License-Identifier: MIT */
/*
 * sleipnir_uapi: functional tests of sleipnir.ko's uapi (version 0.2,
 * uapi/drm/sleipnir_drm.h), run inside the aarch64 guest with libdrm only.
 * Jobs are NULL and WRITE_VALUE jobs packed by hand (mali_jobs.h) and
 * compute jobs whose kernels are assembled in the guest (mali_compute.h);
 * the job-timeout tests hang the GPU with an endless compute kernel.
 *
 * Usage: sleipnir_uapi [/dev/dri/renderDxxx]
 *   Without an argument the first render node whose driver is "sleipnir"
 *   is used.
 *
 * This file holds main(), the device and GET_PARAM tests and the helpers
 * of sleipnir_uapi.h; the other concerns have a file each (see there).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arm_counter.h"
#include "board_gpu.h"
#include "sleipnir_uapi.h"

CHECK_MAIN_STATE("sleipnir_uapi");

struct sl_drm *g_dev;
char g_node[64];
uint64_t g_params[NPARAMS];
bool g_params_ok;
uint64_t g_page = 4096;

static const char *g_path_arg;

/* --- basics -------------------------------------------------------------- */

struct sl_drm *reopen(void)
{
	return device_open(g_node);
}

/* --- the ioctls as they are ---------------------------------------------- */

int bo_create(struct sl_drm *dev, uint64_t size, uint32_t flags,
	      uint32_t *handle)
{
	struct drm_sleipnir_bo_create c = { .size = size, .flags = flags };
	int err = sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_BO_CREATE, &c);

	if (!err)
		*handle = c.handle;
	return err;
}

int bo_info(struct sl_drm *dev, uint32_t handle,
	    struct drm_sleipnir_bo_info *info)
{
	memset(info, 0, sizeof(*info));
	info->handle = handle;
	return sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_BO_INFO, info);
}

int bo_mmap_offset(struct sl_drm *dev, uint32_t handle, uint64_t *offset)
{
	struct drm_sleipnir_bo_mmap_offset m = { .handle = handle };
	int err = sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_BO_MMAP_OFFSET, &m);

	if (!err)
		*offset = m.offset;
	return err;
}

uint8_t *bo_cpu_map(struct sl_drm *dev, uint32_t handle, uint64_t size)
{
	uint64_t offset = 0;
	void *map;
	int err = bo_mmap_offset(dev, handle, &offset);

	if (err) {
		printf("  BO_MMAP_OFFSET(%u): %s\n", handle, strerror(-err));
		return NULL;
	}
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   sl_drm_fd(dev), (off_t)offset);
	if (map == MAP_FAILED) {
		printf("  mmap(BO %u, %#llx bytes at offset %#llx): %s\n",
		       handle, (unsigned long long)size,
		       (unsigned long long)offset, strerror(errno));
		return NULL;
	}
	return map;
}

int gem_close(struct sl_drm *dev, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return sl_drm_ioctl(dev, DRM_IOCTL_GEM_CLOSE, &c);
}

int bo_wait(struct sl_drm *dev, uint32_t handle, int64_t timeout_ns)
{
	struct drm_sleipnir_bo_wait w = { .handle = handle,
					  .timeout_ns = timeout_ns };

	return sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_BO_WAIT, &w);
}

int bo_sync(struct sl_drm *dev, uint32_t handle, uint32_t op,
	    uint64_t offset, uint64_t size)
{
	struct drm_sleipnir_bo_sync s = {
		.handle = handle, .op = op, .offset = offset, .size = size
	};

	return sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_BO_SYNC, &s);
}

int vm_map(struct sl_drm *dev, uint32_t handle, uint32_t flags,
	   uint64_t bo_offset, uint64_t size, uint64_t *va)
{
	struct drm_sleipnir_vm_map m = {
		.handle = handle, .flags = flags, .bo_offset = bo_offset,
		.size = size, .va = *va,
	};
	int err = sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_VM_MAP, &m);

	if (!err)
		*va = m.va;
	return err;
}

int vm_unmap(struct sl_drm *dev, uint64_t va, uint64_t size)
{
	struct drm_sleipnir_vm_unmap u = { .va = va, .size = size };

	return sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_VM_UNMAP, &u);
}

int get_fault(struct sl_drm *dev, uint32_t flags,
	      struct drm_sleipnir_get_fault *f)
{
	memset(f, 0, sizeof(*f));
	f->flags = flags;
	return sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_GET_FAULT, f);
}

/* --- syncobjs ------------------------------------------------------------ */

bool syncobj_signalled(struct sl_drm *dev, uint32_t handle)
{
	return sl_syncobj_wait(dev, &handle, 1, true, 0) == 0;
}

/* --- submission ---------------------------------------------------------- */

int submit_simple(struct sl_drm *dev, uint64_t jc, uint32_t requirements,
		  const uint32_t *bos, unsigned int nbos, bool write,
		  uint32_t in_sync, uint32_t out_sync, uint32_t timeout_ms)
{
	struct drm_sleipnir_bo_ref refs[8];
	struct drm_sleipnir_sync_op in = { .handle = in_sync };
	struct drm_sleipnir_sync_op out = { .handle = out_sync };
	struct sl_submit s = {
		.jc = jc,
		.bos = refs,
		.num_bos = nbos,
		.in_syncs = &in,
		.num_in_syncs = in_sync ? 1 : 0,
		.out_syncs = &out,
		.num_out_syncs = out_sync ? 1 : 0,
		.requirements = requirements,
		.timeout_ms = timeout_ms,
	};

	if (nbos > ARRAY_LEN(refs))
		return -E2BIG;
	memset(refs, 0, sizeof(refs));
	for (unsigned int i = 0; i < nbos; i++) {
		refs[i].handle = bos[i];
		refs[i].flags = write ? SLEIPNIR_BO_REF_WRITE : 0;
	}
	return sl_submit(dev, &s);
}

void clear_fault(struct sl_drm *dev)
{
	struct drm_sleipnir_get_fault f;

	get_fault(dev, SLEIPNIR_GET_FAULT_CLEAR, &f);
}

int run_chain(struct sl_drm *dev, uint64_t jc, uint32_t requirements,
	      const uint32_t *bos, unsigned int nbos, uint32_t timeout_ms)
{
	uint32_t sync = syncobj_new(dev, false);
	int status, err;

	if (!sync)
		return FENCE_STATUS_NONE;
	err = submit_simple(dev, jc, requirements, bos, nbos, true, 0, sync,
			    timeout_ms);
	if (err) {
		printf("  SUBMIT(jc %#llx): %s\n", (unsigned long long)jc,
		       strerror(-err));
		sl_syncobj_destroy(dev, sync);
		return FENCE_STATUS_NONE;
	}
	status = wait_fence_status(dev, sync, WAIT_MS);
	sl_syncobj_destroy(dev, sync);
	return status;
}

int run_write_value(struct sl_drm *dev, struct sl_bo *jobs, uint64_t target,
		    uint32_t type, const uint32_t *bos, unsigned int nbos)
{
	mali_pack_write_value_job(bo_cpu(jobs, 0), 1, 0, 0, 0, target, type);
	return run_chain(dev, bo_gpu(jobs, 0), REQ_SLOT0, bos, nbos, 0);
}

static const char *const fault_kinds[] = { "NONE", "JOB", "MMU", "TIMEOUT" };
static const char *const access_names[] = { "ATOMIC", "EXECUTE", "READ",
					     "WRITE" };

static void print_fault(const char *when,
			const struct drm_sleipnir_get_fault *f)
{
	printf("  fault%s: count %u, kind %s, code %#x, address %#llx, "
	       "access %s, jc %#llx\n",
	       when, f->count, f->kind < 4 ? fault_kinds[f->kind] : "?",
	       f->exception_code, (unsigned long long)f->address,
	       f->access < 4 ? access_names[f->access] : "?",
	       (unsigned long long)f->jc);
}

int get_fault_after_fence(struct sl_drm *dev, struct drm_sleipnir_get_fault *f)
{
	struct drm_sleipnir_get_fault later;
	int err = get_fault(dev, 0, f);

	if (err)
		return err;
	print_fault("", f);
	if (f->kind == SLEIPNIR_FAULT_MMU && f->address == 0 &&
	    f->access == 0) {
		/* Diagnosis only: is the MMU half late, or lost? */
		usleep(200000);
		if (get_fault(dev, 0, &later) == 0)
			print_fault(" re-read 200 ms later", &later);
	}
	return 0;
}

void check_mmu_fault(struct sl_drm *dev, uint32_t sync, uint64_t jc,
		     uint64_t address, bool page_only, uint32_t access,
		     bool perm)
{
	struct drm_sleipnir_get_fault f;
	int err;

	CHECK_EQ(wait_fence_status(dev, sync, WAIT_MS), -EFAULT);
	err = get_fault_after_fence(dev, &f);
	CHECK_ERRNO(err, 0);
	if (err)
		return;
	CHECK_EQ(f.count, 1);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_MMU);
	if (page_only)
		CHECK_EQ(f.address & ~0xfffull, address & ~0xfffull);
	else
		CHECK_EQ(f.address, address);
	CHECK_EQ(f.access, access);
	CHECK_EQ(f.jc, jc);
	/* AS_FAULTSTATUS[7:0]: 0xC0+level translation, 0xC8+level perm. */
	CHECK_EQ(f.exception_code & 0xf8, perm ? 0xc8 : 0xc0);
	/* CLEAR reports the same fault once more, then it is gone. */
	CHECK_ERRNO(get_fault(dev, SLEIPNIR_GET_FAULT_CLEAR, &f), 0);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_MMU);
	CHECK_EQ(f.jc, jc);
	CHECK_ERRNO(get_fault(dev, 0, &f), 0);
	CHECK_EQ(f.count, 0);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_NONE);
}

void fill_long_chain(struct sl_bo *jobs_bo, unsigned int n,
		     uint64_t scratch_va, uint64_t ts_va)
{
	for (unsigned int i = 0; i < n; i++) {
		uint64_t off = (uint64_t)i * MALI_JOB_SLOT_SIZE;
		bool last = i + 1 == n;

		mali_pack_write_value_job(
			bo_cpu(jobs_bo, off), (uint16_t)(i + 1), 0, 0,
			last ? 0 : bo_gpu(jobs_bo, off + MALI_JOB_SLOT_SIZE),
			last ? ts_va : scratch_va,
			last ? MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP
			     : MDG_WRITE_VALUE_TYPE_ZERO);
	}
}

void gate_open(struct gate *g, uint32_t timeout_ms)
{
	memset(g, 0, sizeof(*g));
	g->dev = reopen();
	if (!g->dev)
		return;
	g->timeout_ms = timeout_ms;
	if (cjob_new(g->dev, &mc_endless_kernel, 0, &g->job)) {
		sl_drm_close(g->dev);
		g->dev = NULL;
		return;
	}
	g->sync = syncobj_new(g->dev, false);
	g->on = cjob_submit(&g->job, g->sync, timeout_ms) == 0;
	if (!g->on)
		printf("  could not submit the gate's endless job\n");
}

void gate_close(struct gate *g)
{
	if (!g->dev)
		return;
	if (g->on)
		CHECK_EQ(wait_fence_status(g->dev, g->sync,
					   g->timeout_ms + WAIT_MS),
			 -ETIMEDOUT);
	clear_fault(g->dev);
	sl_syncobj_destroy(g->dev, g->sync);
	cjob_free(&g->job);
	sl_drm_close(g->dev);
	g->dev = NULL;
}

/* --- device and parameters ----------------------------------------------- */

TEST(open_device)
{
	long page = sysconf(_SC_PAGESIZE);

	if (page > 0)
		g_page = (uint64_t)page;
	g_dev = device_open(g_path_arg);
	REQUIRE(g_dev != NULL);
	snprintf(g_node, sizeof(g_node), "%s", sl_drm_node(g_dev));
	printf("  using %s, CPU page size %llu\n", g_node,
	       (unsigned long long)g_page);
}

TEST(version)
{
	drmVersionPtr ver;

	NEED_DEVICE();
	ver = drmGetVersion(sl_drm_fd(g_dev));
	REQUIRE(ver != NULL);
	printf("  driver %s %d.%d.%d (%s)\n", ver->name, ver->version_major,
	       ver->version_minor, ver->version_patchlevel,
	       ver->desc ? ver->desc : "");
	CHECK(ver->name && strcmp(ver->name, "sleipnir") == 0);
	/* This suite tests the 0.2 interface. */
	CHECK_EQ(ver->version_major, 0);
	CHECK(ver->version_minor >= 2);
	drmFreeVersion(ver);
}

static const char *const param_names[NPARAMS] = {
#define N(x) [SLEIPNIR_PARAM_##x] = #x
	N(GPU_ID), N(SHADER_PRESENT), N(L2_PRESENT), N(AS_PRESENT),
	N(JS_PRESENT), N(TILER_PRESENT), N(L2_FEATURES), N(CORE_FEATURES),
	N(TILER_FEATURES), N(MEM_FEATURES), N(MMU_FEATURES),
	N(THREAD_FEATURES), N(THREAD_MAX_THREADS),
	N(THREAD_MAX_WORKGROUP_SIZE), N(THREAD_MAX_BARRIER_SIZE),
	N(THREAD_TLS_ALLOC), N(COHERENCY_FEATURES), N(TEXTURE_FEATURES0),
	N(TEXTURE_FEATURES1), N(TEXTURE_FEATURES2), N(TEXTURE_FEATURES3),
	N(JS_FEATURES0), N(JS_FEATURES1), N(JS_FEATURES2), N(JS_FEATURES3),
	N(JS_FEATURES4), N(JS_FEATURES5), N(JS_FEATURES6), N(JS_FEATURES7),
	N(JS_FEATURES8), N(JS_FEATURES9), N(JS_FEATURES10), N(JS_FEATURES11),
	N(JS_FEATURES12), N(JS_FEATURES13), N(JS_FEATURES14),
	N(JS_FEATURES15), N(GPU_REVISION), N(SHADER_CORE_MASK),
	N(SHADER_CORE_COUNT), N(CORE_GROUP_COUNT), N(THREAD_MAX_REGISTERS),
	N(L2_SIZE), N(AS_COUNT), N(JS_COUNT), N(TIMESTAMP_FREQUENCY),
	N(DRIVER_CAPS), N(COHERENT), N(VA_START), N(VA_END),
	N(JOB_TIMEOUT_DEFAULT_MS), N(JOB_TIMEOUT_MAX_MS),
#undef N
};

/*
 * Every parameter against the model the board runs: by default a T860 with
 * the sleipnir-gpu device's default properties (r2p0, 4 shader cores),
 * whose registers are listed in qemu/model/sgpu_products.c and
 * sgpu_gpu_control.c; the identification registers that differ between the
 * products the board can be (--gpu) come from board_gpu.h. Derived
 * parameters are recomputed here from their documented definition. The
 * board's DT node is not dma-coherent.
 */
TEST(get_param)
{
	struct board_gpu gpu;

	REQUIRE(board_gpu_expected(&gpu));
	const struct {
		uint32_t param;
		uint64_t value;
	} expect[] = {
		{ SLEIPNIR_PARAM_GPU_ID, gpu.gpu_id },
		{ SLEIPNIR_PARAM_SHADER_PRESENT, gpu.shader_present },
		{ SLEIPNIR_PARAM_L2_PRESENT, gpu.l2_present },
		{ SLEIPNIR_PARAM_AS_PRESENT, 0xff },
		{ SLEIPNIR_PARAM_JS_PRESENT, 0x7 },
		{ SLEIPNIR_PARAM_TILER_PRESENT, 0x1 },
		{ SLEIPNIR_PARAM_L2_FEATURES, gpu.l2_features },
		{ SLEIPNIR_PARAM_CORE_FEATURES, 0 },
		{ SLEIPNIR_PARAM_TILER_FEATURES, 0x809 },
		{ SLEIPNIR_PARAM_MEM_FEATURES, gpu.mem_features },
		{ SLEIPNIR_PARAM_MMU_FEATURES, 0x2830 },
		{ SLEIPNIR_PARAM_THREAD_FEATURES, 0x0a040400 },
		{ SLEIPNIR_PARAM_THREAD_MAX_THREADS, 256 },
		{ SLEIPNIR_PARAM_THREAD_MAX_WORKGROUP_SIZE, 256 },
		{ SLEIPNIR_PARAM_THREAD_MAX_BARRIER_SIZE, 256 },
		{ SLEIPNIR_PARAM_THREAD_TLS_ALLOC, 0 },
		{ SLEIPNIR_PARAM_COHERENCY_FEATURES, 0x1 },
		{ SLEIPNIR_PARAM_TEXTURE_FEATURES0, 0x00fe001e },
		{ SLEIPNIR_PARAM_TEXTURE_FEATURES1, 0x0000ffff },
		{ SLEIPNIR_PARAM_TEXTURE_FEATURES2, 0x9f81ffff },
		{ SLEIPNIR_PARAM_TEXTURE_FEATURES3, 0 },
		{ SLEIPNIR_PARAM_JS_FEATURES0, 0x20e },
		{ SLEIPNIR_PARAM_JS_FEATURES1, 0x1fe },
		{ SLEIPNIR_PARAM_JS_FEATURES2, 0x07e },
		/* JS_FEATURES3..15: slots not in JS_PRESENT read 0 (below). */
		{ SLEIPNIR_PARAM_GPU_REVISION, gpu.revision },
		{ SLEIPNIR_PARAM_SHADER_CORE_MASK, gpu.first_group },
		{ SLEIPNIR_PARAM_SHADER_CORE_COUNT,
		  (uint64_t)__builtin_popcountll(gpu.first_group) },
		{ SLEIPNIR_PARAM_CORE_GROUP_COUNT,
		  (uint64_t)__builtin_popcountll(gpu.l2_present) },
		{ SLEIPNIR_PARAM_THREAD_MAX_REGISTERS, 0x400 },
		{ SLEIPNIR_PARAM_L2_SIZE,
		  1ull << ((gpu.l2_features >> 16) & 0xff) },
		{ SLEIPNIR_PARAM_AS_COUNT, 8 },
		{ SLEIPNIR_PARAM_JS_COUNT, 3 },
		{ SLEIPNIR_PARAM_COHERENT, 0 },
		{ SLEIPNIR_PARAM_VA_END, 1ull << 48 },
	};
	uint64_t v[NPARAMS];
	int errs = 0;

	NEED_DEVICE();
	for (uint32_t p = 0; p < NPARAMS; p++) {
		struct drm_sleipnir_get_param gp = {
			.param = p,
			.value = 0x5a5a5a5a5a5a5a5aull, /* ignored on input */
		};
		int err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_GET_PARAM,
				       &gp);

		v[p] = gp.value;
		if (err) {
			errs++;
			CHECK_FAIL_AT(__FILE__, __LINE__, "GET_PARAM %s: %s",
				      param_names[p], strerror(-err));
			continue;
		}
		printf("  %-26s %#llx\n", param_names[p],
		       (unsigned long long)gp.value);
	}
	if (!errs) {
		memcpy(g_params, v, sizeof(v));
		g_params_ok = true;
	}
	REQUIRE(errs == 0);

	for (size_t i = 0; i < ARRAY_LEN(expect); i++)
		if (v[expect[i].param] != expect[i].value)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "%s is %#llx, the model has %#llx",
				      param_names[expect[i].param],
				      (unsigned long long)v[expect[i].param],
				      (unsigned long long)expect[i].value);
	for (uint32_t p = SLEIPNIR_PARAM_JS_FEATURES3;
	     p <= SLEIPNIR_PARAM_JS_FEATURES15; p++)
		if (v[p] != 0)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "%s is %#llx for an absent slot",
				      param_names[p], (unsigned long long)v[p]);

	/* Derived parameters, from their definitions. */
	CHECK_EQ(v[SLEIPNIR_PARAM_GPU_ID] >> 16, gpu.product);
	CHECK_EQ(v[SLEIPNIR_PARAM_GPU_REVISION],
		 v[SLEIPNIR_PARAM_GPU_ID] & 0xffff);
	CHECK_EQ(v[SLEIPNIR_PARAM_SHADER_CORE_MASK] &
			 ~v[SLEIPNIR_PARAM_SHADER_PRESENT],
		 0);
	CHECK_EQ(v[SLEIPNIR_PARAM_SHADER_CORE_COUNT],
		 __builtin_popcountll(v[SLEIPNIR_PARAM_SHADER_CORE_MASK]));
	CHECK_EQ(v[SLEIPNIR_PARAM_CORE_GROUP_COUNT],
		 __builtin_popcountll(v[SLEIPNIR_PARAM_L2_PRESENT]));
	CHECK_EQ(v[SLEIPNIR_PARAM_THREAD_MAX_REGISTERS],
		 v[SLEIPNIR_PARAM_THREAD_FEATURES] & 0xffff);
	CHECK_EQ(v[SLEIPNIR_PARAM_L2_SIZE],
		 1ull << ((v[SLEIPNIR_PARAM_L2_FEATURES] >> 16) & 0xff));
	CHECK_EQ(v[SLEIPNIR_PARAM_AS_COUNT],
		 __builtin_popcountll(v[SLEIPNIR_PARAM_AS_PRESENT]));
	CHECK_EQ(v[SLEIPNIR_PARAM_JS_COUNT],
		 __builtin_popcountll(v[SLEIPNIR_PARAM_JS_PRESENT]));
	CHECK_EQ(v[SLEIPNIR_PARAM_VA_END],
		 1ull << (v[SLEIPNIR_PARAM_MMU_FEATURES] & 0xff));
	/* Every capability of 0.2 is there, and no unknown one. */
	CHECK_EQ(v[SLEIPNIR_PARAM_DRIVER_CAPS], 0xff);
	/* The system counter's rate, as the CPU's CNTFRQ_EL0 reads it. */
	if (cntfrq())
		CHECK_EQ(v[SLEIPNIR_PARAM_TIMESTAMP_FREQUENCY], cntfrq());
	else
		CHECK(v[SLEIPNIR_PARAM_TIMESTAMP_FREQUENCY] != 0);
	/* VA_START: page-aligned, above 0 (small addresses fault), < VA_END. */
	CHECK(v[SLEIPNIR_PARAM_VA_START] >= g_page);
	CHECK_EQ(v[SLEIPNIR_PARAM_VA_START] % 4096, 0);
	CHECK(v[SLEIPNIR_PARAM_VA_START] < v[SLEIPNIR_PARAM_VA_END]);
	CHECK(v[SLEIPNIR_PARAM_JOB_TIMEOUT_DEFAULT_MS] > 0);
	CHECK(v[SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS] >=
	      v[SLEIPNIR_PARAM_JOB_TIMEOUT_DEFAULT_MS]);
}

TEST(get_param_errors)
{
	static const uint32_t bad[] = { SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS + 1,
					SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS + 100,
					0x80000000u, 0xffffffffu };
	struct drm_sleipnir_get_param gp;
	struct board_gpu gpu;

	NEED_DEVICE();
	REQUIRE(board_gpu_expected(&gpu));
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		memset(&gp, 0, sizeof(gp));
		gp.param = bad[i];
		gp.value = 0x1234;
		CHECK_ERRNO(sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_GET_PARAM,
					 &gp),
			    -EINVAL);
		/* "@value is left untouched on error". */
		CHECK_EQ(gp.value, 0x1234);
	}
	memset(&gp, 0, sizeof(gp));
	gp.param = SLEIPNIR_PARAM_GPU_ID;
	gp.pad = 1;
	gp.value = 0x1234;
	CHECK_ERRNO(sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_GET_PARAM, &gp),
		    -EINVAL);
	CHECK_EQ(gp.value, 0x1234);
	gp.pad = 0x80000000u;
	CHECK_ERRNO(sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_GET_PARAM, &gp),
		    -EINVAL);
	/* The same parameter with the pad fixed works. */
	gp.pad = 0;
	CHECK_ERRNO(sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_GET_PARAM, &gp), 0);
	CHECK_EQ(gp.value, gpu.gpu_id);
}

/* The fault bookkeeping starts clean on a new file; GET_FAULT's errors. */
TEST(get_fault_basics)
{
	struct drm_sleipnir_get_fault f;
	struct sl_drm *dev;

	NEED_DEVICE();
	dev = reopen();
	REQUIRE(dev);
	memset(&f, 0xff, sizeof(f));
	f.flags = 0;
	f.pad = 0;
	CHECK_ERRNO(sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_GET_FAULT, &f), 0);
	CHECK_EQ(f.count, 0);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_NONE);
	CHECK_EQ(f.exception_code, 0);
	CHECK_EQ(f.address, 0);
	CHECK_EQ(f.jc, 0);
	CHECK_EQ(f.access, 0);
	CHECK_ERRNO(get_fault(dev, SLEIPNIR_GET_FAULT_CLEAR, &f), 0);
	CHECK_EQ(f.count, 0);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_NONE);
	CHECK_ERRNO(get_fault(dev, 2, &f), -EINVAL);
	CHECK_ERRNO(get_fault(dev, 0x80000000u, &f), -EINVAL);
	memset(&f, 0, sizeof(f));
	f.pad = 1;
	CHECK_ERRNO(sl_drm_ioctl(dev, DRM_IOCTL_SLEIPNIR_GET_FAULT, &f),
		    -EINVAL);
	sl_drm_close(dev);
}

/* Driver-specific ioctl numbers past the last one are not ioctls. */
TEST(unknown_ioctl)
{
	uint64_t buf[8] = { 0 };
	int err;

	NEED_DEVICE();
	err = sl_drm_ioctl(g_dev,
			DRM_IOWR(DRM_COMMAND_BASE + DRM_SLEIPNIR_GET_FAULT + 1,
				 uint64_t[8]),
			buf);
	/* drm_ioctl() answers -EINVAL for an unused driver number. */
	CHECK_ERRNO(err, -EINVAL);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	g_path_arg = argc > 1 ? argv[1] : NULL;

	RUN(open_device);
	RUN(version);
	RUN(get_param);
	RUN(get_param_errors);
	RUN(get_fault_basics);
	RUN(unknown_ioctl);

	run_bo_tests();
	run_vm_tests();
	run_submit_tests();
	run_compute_tests();
	run_fault_tests();
	run_fdinfo_tests();

	if (g_dev)
		sl_drm_close(g_dev);
	return check_summary();
}
