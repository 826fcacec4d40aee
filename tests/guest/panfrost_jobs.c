/* SPDX-License-Identifier: MIT */
/*
 * panfrost_jobs: drives the emulated Mali GPU through the unmodified Linux 6.1
 * panfrost driver's own uapi (libdrm + <drm/panfrost_drm.h>), from inside the
 * aarch64 guest. Needs no Mesa: NULL and WRITE_VALUE jobs are packed by hand
 * (mali_jobs.h), compute jobs run Midgard kernels assembled in the guest
 * (mali_compute.h).
 *
 * Usage: panfrost_jobs [/dev/dri/renderDxxx]
 *   Without an argument the first render node whose driver is "panfrost" is
 *   used. Environment:
 *     SLEIPNIR_EXPECT_GPU=PRODUCT[:CORES]  the GPU the board emulates
 *       (board_gpu.h; tests/board sets it from --gpu, default t860:4)
 *
 * Error numbers asserted below are the ones the Linux 6.1 source returns
 * (drivers/gpu/drm/panfrost/panfrost_drv.c, drm_gem.c, drm_syncobj.c).
 * Every wait has a timeout, so a lost interrupt shows up as a failure, not a
 * hang.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>
#include <drm/panfrost_drm.h>

#include "board_gpu.h"
#include "check.h"
#include "clock.h"
#include "le.h"
#include "mali_compute.h"
#include "mali_jobs.h"

CHECK_MAIN_STATE("panfrost_jobs");

#define WAIT_TIMEOUT_MS 10000
#define LONG_WAIT_TIMEOUT_MS 60000
#define MANY_JOBS 1000
#define PIPELINED_JOBS 256
/*
 * An address panfrost never maps: it hands out GPU VAs from
 * [32 MiB, 4 GiB) only (drm_mm_init in panfrost_mmu_init_ctx).
 */
#define UNMAPPED_VA 0x01000040ull
/* The drm_sched job timeout panfrost 6.1 uses (JOB_TIMEOUT_MS). */
#define PANFROST_JOB_TIMEOUT_MS 500

#define FILL64 0xffffffffffffffffull
#define GUARD64 0xa5a5a5a5a5a5a5a5ull

static int g_fd = -1;
static char g_node[64];

/* --- small utilities ---------------------------------------------------- */

/*
 * Runs one of panfrost's ioctls (restarting on EINTR/EAGAIN); returns 0 or
 * a negative errno, the convention of userspace/drm.
 */
static int pf_ioctl(int fd, unsigned long request, void *arg)
{
	return drmIoctl(fd, request, arg) ? -errno : 0;
}

static int open_panfrost(const char *path)
{
	char node[64];

	if (path) {
		int fd = open(path, O_RDWR | O_CLOEXEC);

		if (fd < 0)
			printf("  open %s: %s\n", path, strerror(errno));
		else
			snprintf(g_node, sizeof(g_node), "%s", path);
		return fd;
	}
	for (int minor = 128; minor < 192; minor++) {
		drmVersionPtr ver;
		int fd;

		snprintf(node, sizeof(node), "/dev/dri/renderD%d", minor);
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		ver = drmGetVersion(fd);
		if (ver && ver->name && strcmp(ver->name, "panfrost") == 0) {
			drmFreeVersion(ver);
			snprintf(g_node, sizeof(g_node), "%s", node);
			return fd;
		}
		if (ver)
			drmFreeVersion(ver);
		close(fd);
	}
	printf("  no render node with driver \"panfrost\" under /dev/dri\n");
	return -1;
}

static int reopen(void)
{
	int fd = open(g_node, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		printf("  reopen %s: %s\n", g_node, strerror(errno));
	return fd;
}

/* --- buffer objects ----------------------------------------------------- */

struct pbo {
	int fd;
	uint32_t handle;
	uint32_t size;
	uint64_t va;
	uint8_t *map;
};

static void pbo_destroy(struct pbo *bo)
{
	struct drm_gem_close close_args = { .handle = bo->handle };

	if (bo->map)
		munmap(bo->map, bo->size);
	if (bo->handle)
		pf_ioctl(bo->fd, DRM_IOCTL_GEM_CLOSE, &close_args);
	memset(bo, 0, sizeof(*bo));
}

/* Creates (and, unless it is a heap, maps) a BO. Returns 0 or -errno. */
static int pbo_create(int fd, uint32_t size, uint32_t flags, struct pbo *bo)
{
	struct drm_panfrost_create_bo create = { .size = size, .flags = flags };
	struct drm_panfrost_mmap_bo mmap_args = { 0 };
	void *map;
	int err;

	memset(bo, 0, sizeof(*bo));
	err = pf_ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &create);
	if (err) {
		printf("  CREATE_BO(size %u, flags %#x): %s\n", size, flags,
		       strerror(-err));
		return err;
	}
	bo->fd = fd;
	bo->handle = create.handle;
	bo->size = size;
	bo->va = create.offset;
	if (flags & PANFROST_BO_HEAP)
		return 0;

	mmap_args.handle = bo->handle;
	err = pf_ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &mmap_args);
	if (err) {
		printf("  MMAP_BO(%u): %s\n", bo->handle, strerror(-err));
		pbo_destroy(bo);
		return err;
	}
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)mmap_args.offset);
	if (map == MAP_FAILED) {
		err = -errno;
		printf("  mmap(BO %u, offset %#llx): %s\n", bo->handle,
		       (unsigned long long)mmap_args.offset, strerror(-err));
		pbo_destroy(bo);
		return err;
	}
	bo->map = map;
	return 0;
}

static inline void *pbo_cpu(const struct pbo *bo, uint32_t off)
{
	return bo->map + off;
}

static inline uint64_t pbo_gpu(const struct pbo *bo, uint32_t off)
{
	return bo->va + off;
}

static void put64_at(struct pbo *bo, uint32_t off, uint64_t v)
{
	le_put64(pbo_cpu(bo, off), v);
}

static uint64_t get64_at(const struct pbo *bo, uint32_t off)
{
	return le_get64(pbo_cpu(bo, off));
}

/* --- submission and waiting -------------------------------------------- */

static int pf_submit(int fd, uint64_t jc, const uint32_t *bos, uint32_t nbos,
		     uint32_t out_sync)
{
	struct drm_panfrost_submit submit = {
		.jc = jc,
		.bo_handles = (uint64_t)(uintptr_t)bos,
		.bo_handle_count = nbos,
		.out_sync = out_sync,
	};
	int err = pf_ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &submit);

	if (err)
		printf("  SUBMIT(jc %#llx): %s\n", (unsigned long long)jc,
		       strerror(-err));
	return err;
}

static uint32_t syncobj_new(int fd)
{
	uint32_t handle = 0;
	int ret = drmSyncobjCreate(fd, 0, &handle);

	if (ret) {
		printf("  drmSyncobjCreate: %d (%s)\n", ret, strerror(errno));
		return 0;
	}
	return handle;
}

/* Waits for all the syncobjs' fences; returns 0 or -errno (-ETIME...). */
static int syncobj_wait(int fd, uint32_t *handles, unsigned int count,
			unsigned int timeout_ms)
{
	uint64_t start = now_ns();
	int ret = drmSyncobjWait(fd, handles, count, deadline_ns(timeout_ms),
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL);

	if (ret == 0)
		return 0;
	/* libdrm answers -errno, or -1 with errno set. */
	ret = ret < -1 ? ret : -errno;
	printf("  drmSyncobjWait(%u handle(s), %u ms): %s after %llu ms\n",
	       count, timeout_ms, strerror(-ret),
	       (unsigned long long)((now_ns() - start) / 1000000));
	return ret;
}

/* WAIT_BO with an absolute CLOCK_MONOTONIC deadline. */
static int wait_bo(int fd, uint32_t handle, unsigned int timeout_ms)
{
	struct drm_panfrost_wait_bo wait = {
		.handle = handle,
		.timeout_ns = deadline_ns(timeout_ms),
	};
	int err = pf_ioctl(fd, DRM_IOCTL_PANFROST_WAIT_BO, &wait);

	if (err)
		printf("  WAIT_BO(%u, %u ms): %s\n", handle, timeout_ms,
		       strerror(-err));
	return err;
}

static int get_param(int fd, uint32_t param, uint64_t *value)
{
	struct drm_panfrost_get_param gp = { .param = param };
	int err = pf_ioctl(fd, DRM_IOCTL_PANFROST_GET_PARAM, &gp);

	*value = gp.value;
	return err;
}

/* --- kernel log --------------------------------------------------------- */

/*
 * Collects kernel log records written after kmsg_open(), so the fault tests
 * can see what panfrost printed. /dev/kmsg may be missing in a bare
 * initramfs; the log checks are then left out (reported, not failed).
 */
struct kmsg {
	int fd;
	char *text;
	size_t len;
};

static void kmsg_open(struct kmsg *k)
{
	memset(k, 0, sizeof(*k));
	k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (k->fd < 0) {
		printf("  note: /dev/kmsg: %s; kernel log checks left out\n",
		       strerror(errno));
		return;
	}
	lseek(k->fd, 0, SEEK_END);
}

static void kmsg_drain(struct kmsg *k)
{
	char rec[8192];

	if (k->fd < 0)
		return;
	for (;;) {
		ssize_t n = read(k->fd, rec, sizeof(rec) - 1);
		const char *msg;
		char *grown;
		size_t mlen;

		if (n < 0) {
			if (errno == EPIPE || errno == EINTR)
				continue; /* records lost or interrupted */
			break;            /* EAGAIN: nothing more */
		}
		if (n == 0)
			break;
		rec[n] = '\0';
		/* "prio,seq,time,flags;message\n[ KEY=value\n...]" */
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		mlen = strcspn(msg, "\n");
		grown = realloc(k->text, k->len + mlen + 2);
		if (!grown)
			break;
		k->text = grown;
		memcpy(k->text + k->len, msg, mlen);
		k->len += mlen;
		k->text[k->len++] = '\n';
		k->text[k->len] = '\0';
	}
}

static const char *kmsg_find(struct kmsg *k, const char *needle)
{
	kmsg_drain(k);
	return k->text ? strstr(k->text, needle) : NULL;
}

/* Polls the log for needle for up to timeout_ms. */
static const char *kmsg_wait_for(struct kmsg *k, const char *needle,
				 unsigned int timeout_ms)
{
	uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000ull;
	const char *hit;

	while (!(hit = kmsg_find(k, needle)) && now_ns() < end)
		usleep(10000);
	return hit;
}

static void kmsg_print(struct kmsg *k)
{
	kmsg_drain(k);
	if (k->text && k->len)
		printf("  kernel log since the submit:\n%s", k->text);
}

static void kmsg_close(struct kmsg *k)
{
	if (k->fd >= 0)
		close(k->fd);
	free(k->text);
	memset(k, 0, sizeof(*k));
}

/* --- a known-good job, used after faults and resets --------------------- */

/*
 * Builds and runs WRITE_VALUE(zero) -> NULL on fd and checks that both
 * headers report DONE and the zero landed. what names the situation in
 * failure messages.
 */
static void check_good_job(int fd, const char *what)
{
	struct pbo bo;
	uint32_t sync, handles[1];
	uint32_t j0 = 0, j1 = MALI_JOB_SLOT_SIZE, data = 0x400;
	int err;

	printf("  good job: %s\n", what);
	REQUIRE(pbo_create(fd, 4096, 0, &bo) == 0);
	put64_at(&bo, data, FILL64);
	put64_at(&bo, data + 8, GUARD64);
	mali_pack_write_value_job(pbo_cpu(&bo, j0), 1, 0, 0, pbo_gpu(&bo, j1),
				  pbo_gpu(&bo, data), MDG_WRITE_VALUE_TYPE_ZERO);
	mali_pack_null_job(pbo_cpu(&bo, j1), 2, 1, 0, 0);
	handles[0] = bo.handle;
	sync = syncobj_new(fd);
	if (!sync) {
		pbo_destroy(&bo);
		REQUIRE(sync != 0);
	}
	err = pf_submit(fd, pbo_gpu(&bo, j0), handles, 1, sync);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_ERRNO(syncobj_wait(fd, &sync, 1, WAIT_TIMEOUT_MS), 0);
		CHECK_ERRNO(wait_bo(fd, bo.handle, WAIT_TIMEOUT_MS), 0);
		CHECK_EQ(mali_job_exception_status(pbo_cpu(&bo, j0)),
			 MDG_EXCEPTION_DONE);
		CHECK_EQ(mali_job_exception_status(pbo_cpu(&bo, j1)),
			 MDG_EXCEPTION_DONE);
		CHECK_EQ(get64_at(&bo, data), 0);
		CHECK_EQ(get64_at(&bo, data + 8), GUARD64);
	}
	drmSyncobjDestroy(fd, sync);
	pbo_destroy(&bo);
}

/* --- compute jobs ------------------------------------------------------- */

/*
 * A compute job in two BOs: the compute area of mali_compute.h (job,
 * descriptors and code; created without PANFROST_BO_NOEXEC, or the GPU
 * could not fetch the code) and the output buffer (NOEXEC, as Mesa makes
 * data BOs). COMPUTE_THREADS threads in workgroups of COMPUTE_LOCAL; the
 * output is pre-filled with MC_OUT_FILL and followed by a guard word.
 */
#define COMPUTE_LOCAL 16u
#define COMPUTE_GROUPS 16u
#define COMPUTE_THREADS (COMPUTE_LOCAL * COMPUTE_GROUPS)

struct compute {
	struct pbo area;
	struct pbo out;
	uint64_t jc;
};

static void compute_free(struct compute *c)
{
	pbo_destroy(&c->out);
	pbo_destroy(&c->area);
}

/* Creates the BOs and lays out kernel k; returns 0 or -errno. */
static int compute_new(int fd, const struct mc_kernel *k, struct compute *c)
{
	struct mc_dispatch d = { COMPUTE_LOCAL, COMPUTE_GROUPS, 0 };
	int err;

	memset(c, 0, sizeof(*c));
	err = pbo_create(fd, MC_AREA_SIZE, 0, &c->area);
	if (err)
		return err;
	err = pbo_create(fd, 4096, PANFROST_BO_NOEXEC, &c->out);
	if (err) {
		pbo_destroy(&c->area);
		return err;
	}
	mc_fill_output(c->out.map, COMPUTE_THREADS);
	d.buf_va = c->out.va;
	c->jc = mc_build_job(c->area.map, c->area.va, c->area.size, k, &d);
	if (!c->jc) {
		compute_free(c);
		return -EINVAL;
	}
	return 0;
}

static int compute_submit(int fd, struct compute *c, uint32_t sync)
{
	uint32_t handles[2] = { c->area.handle, c->out.handle };

	return pf_submit(fd, c->jc, handles, 2, sync);
}

static uint32_t compute_status(const struct compute *c)
{
	return mali_job_exception_status(pbo_cpu(&c->area, MC_JOB_OFFSET));
}

/*
 * Runs mc_verify_kernel on fd and checks that the job reports DONE and
 * every element (and the guard after them) matches the C reference.
 */
static void check_compute_job(int fd, const char *what)
{
	struct compute c;
	uint32_t sync;
	uint64_t t0;
	int err;

	printf("  compute job: %s\n", what);
	REQUIRE(compute_new(fd, &mc_verify_kernel, &c) == 0);
	CHECK_EQ(compute_status(&c), MDG_EXCEPTION_OK);
	sync = syncobj_new(fd);
	if (!sync) {
		compute_free(&c);
		REQUIRE(sync != 0);
	}
	t0 = now_ns();
	err = compute_submit(fd, &c, sync);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_ERRNO(syncobj_wait(fd, &sync, 1, WAIT_TIMEOUT_MS), 0);
		CHECK_ERRNO(wait_bo(fd, c.out.handle, WAIT_TIMEOUT_MS), 0);
		printf("  %u threads done in %llu ms\n", COMPUTE_THREADS,
		       (unsigned long long)((now_ns() - t0) / 1000000));
		CHECK_EQ(compute_status(&c), MDG_EXCEPTION_DONE);
		CHECK_EQ(mc_verify_check(c.out.map, COMPUTE_THREADS),
			 0);
	}
	drmSyncobjDestroy(fd, sync);
	compute_free(&c);
}

/* --- tests -------------------------------------------------------------- */

static const char *g_path_arg;

TEST(open_device)
{
	g_fd = open_panfrost(g_path_arg);
	REQUIRE(g_fd >= 0);
	printf("  using %s\n", g_node);
}

#define NEED_DEVICE()                                                          \
	do {                                                                   \
		if (g_fd < 0)                                                  \
			SKIP("no panfrost device");                            \
	} while (0)

TEST(version)
{
	drmVersionPtr ver;

	NEED_DEVICE();
	ver = drmGetVersion(g_fd);
	REQUIRE(ver != NULL);
	printf("  driver %s %d.%d.%d (%s)\n", ver->name, ver->version_major,
	       ver->version_minor, ver->version_patchlevel,
	       ver->date ? ver->date : "");
	CHECK(ver->name && strcmp(ver->name, "panfrost") == 0);
	CHECK(ver->version_major > 1 ||
	      (ver->version_major == 1 && ver->version_minor >= 1));
	drmFreeVersion(ver);
}

static int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

TEST(get_param)
{
	static const struct {
		uint32_t param;
		const char *name;
	} params[] = {
#define P(x) { DRM_PANFROST_PARAM_##x, #x }
		P(GPU_PROD_ID),	     P(GPU_REVISION),	  P(SHADER_PRESENT),
		P(TILER_PRESENT),    P(L2_PRESENT),	  P(STACK_PRESENT),
		P(AS_PRESENT),	     P(JS_PRESENT),	  P(L2_FEATURES),
		P(CORE_FEATURES),    P(TILER_FEATURES),	  P(MEM_FEATURES),
		P(MMU_FEATURES),     P(THREAD_FEATURES),  P(MAX_THREADS),
		P(THREAD_MAX_WORKGROUP_SZ),		  P(THREAD_MAX_BARRIER_SZ),
		P(COHERENCY_FEATURES),			  P(TEXTURE_FEATURES0),
		P(JS_FEATURES0),     P(JS_FEATURES1),	  P(JS_FEATURES2),
		P(NR_CORE_GROUPS),   P(THREAD_TLS_ALLOC), P(AFBC_FEATURES),
#undef P
	};
	uint64_t v[DRM_PANFROST_PARAM_AFBC_FEATURES + 1] = { 0 };
	uint64_t value;
	struct drm_panfrost_get_param gp;
	struct board_gpu gpu;

	NEED_DEVICE();
	REQUIRE(board_gpu_expected(&gpu));

	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		int err = get_param(g_fd, params[i].param, &value);

		CHECK_ERRNO(err, 0);
		v[params[i].param] = value;
		printf("  %-24s %#llx\n", params[i].name,
		       (unsigned long long)value);
	}

	/*
	 * The product and revision of the board's GPU; panfrost passes the
	 * present masks through whole, though it powers only the first core
	 * group ("using only 1st core group" in dmesg on a T628 MP6).
	 */
	CHECK_EQ(v[DRM_PANFROST_PARAM_GPU_PROD_ID], gpu.product);
	CHECK_EQ(v[DRM_PANFROST_PARAM_GPU_REVISION], gpu.revision);
	CHECK_EQ(v[DRM_PANFROST_PARAM_SHADER_PRESENT], gpu.shader_present);
	CHECK_EQ(v[DRM_PANFROST_PARAM_L2_PRESENT], gpu.l2_present);
	CHECK_EQ(v[DRM_PANFROST_PARAM_MEM_FEATURES], gpu.mem_features);
	CHECK(v[DRM_PANFROST_PARAM_TILER_PRESENT] != 0);
	CHECK_EQ(v[DRM_PANFROST_PARAM_JS_PRESENT], 7);
	CHECK_EQ(v[DRM_PANFROST_PARAM_AS_PRESENT], 0xff);
	/* panfrost computes this as hweight64(L2_PRESENT). */
	CHECK_EQ(v[DRM_PANFROST_PARAM_NR_CORE_GROUPS],
		 popcount64(v[DRM_PANFROST_PARAM_L2_PRESENT]));
	{
		/*
		 * MMU_FEATURES: [7:0] VA bits (io-pgtable ias, <= 48),
		 * [15:8] PA bits (oas and DMA mask, 1..40). A real T860 reads
		 * 0x2830. The driver could not have probed otherwise, but a
		 * value passed through wrongly would show here.
		 */
		uint64_t mmu = v[DRM_PANFROST_PARAM_MMU_FEATURES];
		unsigned int va_bits = mmu & 0xff, pa_bits = (mmu >> 8) & 0xff;

		CHECK(va_bits >= 32 && va_bits <= 48);
		CHECK(pa_bits >= 32 && pa_bits <= 40);
		CHECK_EQ(mmu >> 16, 0);
	}
	/* Only popcount(JS_PRESENT) JS_FEATURES are read; the rest stay 0. */
	for (uint32_t p = DRM_PANFROST_PARAM_JS_FEATURES0 +
			  popcount64(v[DRM_PANFROST_PARAM_JS_PRESENT]);
	     p <= DRM_PANFROST_PARAM_JS_FEATURES15; p++) {
		CHECK_ERRNO(get_param(g_fd, p, &value), 0);
		CHECK_EQ(value, 0);
	}

	/* Unknown parameter and non-zero pad: -EINVAL (panfrost_drv.c). */
	CHECK_ERRNO(get_param(g_fd, DRM_PANFROST_PARAM_AFBC_FEATURES + 1,
			      &value),
		    -EINVAL);
	CHECK_ERRNO(get_param(g_fd, 0xffffffffu, &value), -EINVAL);
	memset(&gp, 0, sizeof(gp));
	gp.param = DRM_PANFROST_PARAM_GPU_PROD_ID;
	gp.pad = 1;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_GET_PARAM, &gp), -EINVAL);
}

/*
 * panfrost's probe log for the board's GPU: its model name for the product
 * (panfrost_gpu.c's table, where 0x620 is "t620" and 0x750 "t760"), the
 * revision fields, the present masks, and on a GPU of several core groups
 * that it powers only the first (4 of a T628 MP6's 6 cores).
 */
TEST(probe_log)
{
	static const struct { uint32_t product; const char *name; } names[] = {
		{ 0x860, "t860" }, { 0x750, "t760" }, { 0x620, "t620" },
	};
	struct board_gpu gpu;
	char want[128], *log;
	const char *name = NULL;
	int size, n;

	REQUIRE(board_gpu_expected(&gpu));
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].product == gpu.product)
			name = names[i].name;
	REQUIRE(name);
	size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	REQUIRE(size > 0);
	log = malloc((size_t)size + 1);
	REQUIRE(log);
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size);
	CHECK(n > 0);
	log[n > 0 ? n : 0] = 0;

	snprintf(want, sizeof(want),
		 "mali-%s id 0x%x major 0x%x minor 0x%x status 0x%x", name,
		 gpu.product, gpu.revision >> 12, (gpu.revision >> 4) & 0xff,
		 gpu.revision & 0xf);
	CHECK(strstr(log, want) != NULL);
	if (!strstr(log, want))
		printf("  no \"%s\" in the kernel log\n", want);
	snprintf(want, sizeof(want), "shader_present=0x%llx l2_present=0x%llx",
		 (unsigned long long)gpu.shader_present,
		 (unsigned long long)gpu.l2_present);
	CHECK(strstr(log, want) != NULL);
	snprintf(want, sizeof(want), "using only 1st core group (%d cores from %d)",
		 __builtin_popcountll(gpu.first_group), (int)gpu.cores);
	CHECK((strstr(log, want) != NULL) == (gpu.l2_present != 1));
	free(log);
}

TEST(bo_create_mmap)
{
	struct pbo a, b, heap;
	struct drm_panfrost_get_bo_offset off = { 0 };
	struct drm_panfrost_create_bo create;
	struct drm_panfrost_mmap_bo mm;
	struct drm_panfrost_wait_bo wait;
	const uint32_t size = 64 * 1024;
	uint32_t bad;

	NEED_DEVICE();
	REQUIRE(pbo_create(g_fd, size, 0, &a) == 0);
	printf("  BO %u at GPU VA %#llx\n", a.handle,
	       (unsigned long long)a.va);
	/* panfrost hands out page-aligned VAs in [32 MiB, 4 GiB). */
	CHECK(a.va != 0);
	CHECK_EQ(a.va & 0xfff, 0);
	CHECK(a.va >= (32ull << 20) && a.va + size <= (4ull << 30));

	/* CPU pattern round trip through the mapping. */
	bad = 0;
	for (uint32_t i = 0; i < size / 4; i++)
		le_put32(a.map + 4 * i, i * 0x9e3779b9u ^ 0x5a5a5a5au);
	for (uint32_t i = 0; i < size / 4; i++)
		if (le_get32(a.map + 4 * i) != (i * 0x9e3779b9u ^ 0x5a5a5a5au))
			bad++;
	CHECK_EQ(bad, 0);

	off.handle = a.handle;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &off), 0);
	CHECK_EQ(off.offset, a.va);

	/* A second BO gets a disjoint range. */
	if (pbo_create(g_fd, 4096, PANFROST_BO_NOEXEC, &b) == 0) {
		CHECK(b.va + 4096 <= a.va || a.va + size <= b.va);
		pbo_destroy(&b);
	} else {
		CHECK(!"second CREATE_BO failed");
	}

	/* WAIT_BO on an idle BO with an already-passed deadline: 0. */
	memset(&wait, 0, sizeof(wait));
	wait.handle = a.handle;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_WAIT_BO, &wait), 0);
	wait.pad = 1;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_WAIT_BO, &wait), -EINVAL);

	/* Argument errors (panfrost_drv.c). */
	memset(&create, 0, sizeof(create));
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_CREATE_BO, &create),
		    -EINVAL); /* size 0 */
	create.size = 4096;
	create.flags = 0x4; /* unknown flag */
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_CREATE_BO, &create),
		    -EINVAL);
	create.flags = PANFROST_BO_HEAP; /* heap must be NOEXEC */
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_CREATE_BO, &create),
		    -EINVAL);
	create.flags = 0;
	create.pad = 1;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_CREATE_BO, &create),
		    -EINVAL);

	memset(&mm, 0, sizeof(mm));
	mm.handle = a.handle;
	mm.flags = 1;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_MMAP_BO, &mm), -EINVAL);
	mm.flags = 0;
	mm.handle = 0xdead;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_MMAP_BO, &mm), -ENOENT);
	off.handle = 0xdead;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_GET_BO_OFFSET, &off),
		    -ENOENT);
	memset(&wait, 0, sizeof(wait));
	wait.handle = 0xdead;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_WAIT_BO, &wait), -ENOENT);

	/* Heap BOs exist (rounded to 2 MiB) but cannot be mmapped. */
	if (pbo_create(g_fd, 4096, PANFROST_BO_HEAP | PANFROST_BO_NOEXEC,
		       &heap) == 0) {
		memset(&mm, 0, sizeof(mm));
		mm.handle = heap.handle;
		CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_MMAP_BO, &mm),
			    -EINVAL);
		pbo_destroy(&heap);
	} else {
		CHECK(!"CREATE_BO(HEAP|NOEXEC) failed");
	}
	pbo_destroy(&a);
}

TEST(null_job)
{
	struct pbo bo;
	uint32_t sync;
	int err;

	NEED_DEVICE();
	REQUIRE(pbo_create(g_fd, 4096, 0, &bo) == 0);
	mali_pack_null_job(pbo_cpu(&bo, 0), 1, 0, 0, 0);
	CHECK_EQ(mali_job_exception_status(pbo_cpu(&bo, 0)),
		 MDG_EXCEPTION_OK);
	sync = syncobj_new(g_fd);
	if (sync) {
		/* No bo_handles: the BO stays mapped while we hold it. */
		err = pf_submit(g_fd, bo.va, NULL, 0, sync);
		CHECK_ERRNO(err, 0);
		if (!err) {
			CHECK_ERRNO(syncobj_wait(g_fd, &sync, 1,
						 WAIT_TIMEOUT_MS),
				    0);
			CHECK_EQ(mali_job_exception_status(pbo_cpu(&bo, 0)),
				 MDG_EXCEPTION_DONE);
		}
		drmSyncobjDestroy(g_fd, sync);
	} else {
		CHECK(sync != 0);
	}
	pbo_destroy(&bo);
}

/*
 * A chain of six jobs in one BO, linked through next pointers, ordered by
 * dependencies:
 *   1 WRITE_VALUE zero         -> d[0] (pre-filled with all ones)
 *   2 WRITE_VALUE timestamp    -> d[2]   dep 1
 *   3 NULL                              dep 2
 *   4 WRITE_VALUE cycle count  -> d[4]   dep 3
 *   5 NULL                              deps 3, 4
 *   6 WRITE_VALUE timestamp    -> d[6]   dep 5
 * d[1], d[3], d[5], d[7] are guards: the writes are 64 bits wide and must
 * not spill over. The BO is listed in bo_handles (implicit write fence), so
 * WAIT_BO works as well as the out syncobj.
 */
TEST(write_value_chain)
{
	enum { NJOBS = 6, DATA = 0x800 };
	static const struct {
		unsigned int type;
		uint32_t value_type;
		uint16_t dep1, dep2;
		int slot; /* d[] index written, -1 for none */
	} jobs[NJOBS] = {
		{ MDG_JOB_TYPE_WRITE_VALUE, MDG_WRITE_VALUE_TYPE_ZERO, 0, 0, 0 },
		{ MDG_JOB_TYPE_WRITE_VALUE, MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP,
		  1, 0, 2 },
		{ MDG_JOB_TYPE_NULL, 0, 2, 0, -1 },
		{ MDG_JOB_TYPE_WRITE_VALUE, MDG_WRITE_VALUE_TYPE_CYCLE_COUNTER, 3,
		  0, 4 },
		{ MDG_JOB_TYPE_NULL, 0, 3, 4, -1 },
		{ MDG_JOB_TYPE_WRITE_VALUE, MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP,
		  5, 0, 6 },
	};
	struct pbo bo;
	uint32_t sync, handles[1];
	uint64_t ts1, ts2, cycles;
	int err;

	NEED_DEVICE();
	REQUIRE(pbo_create(g_fd, 4096, 0, &bo) == 0);
	for (int i = 0; i < 8; i++)
		put64_at(&bo, DATA + 8 * i, (i & 1) ? GUARD64 : FILL64);
	for (int i = 0; i < NJOBS; i++) {
		uint32_t off = i * MALI_JOB_SLOT_SIZE;
		uint64_t next = i + 1 < NJOBS
					? pbo_gpu(&bo, off + MALI_JOB_SLOT_SIZE)
					: 0;

		if (jobs[i].type == MDG_JOB_TYPE_WRITE_VALUE)
			mali_pack_write_value_job(
				pbo_cpu(&bo, off), i + 1, jobs[i].dep1,
				jobs[i].dep2, next,
				pbo_gpu(&bo, DATA + 8 * jobs[i].slot),
				jobs[i].value_type);
		else
			mali_pack_null_job(pbo_cpu(&bo, off), i + 1,
					   jobs[i].dep1, jobs[i].dep2, next);
	}
	handles[0] = bo.handle;
	sync = syncobj_new(g_fd);
	if (!sync) {
		pbo_destroy(&bo);
		REQUIRE(sync != 0);
	}
	err = pf_submit(g_fd, bo.va, handles, 1, sync);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_ERRNO(wait_bo(g_fd, bo.handle, WAIT_TIMEOUT_MS), 0);
		CHECK_ERRNO(syncobj_wait(g_fd, &sync, 1, WAIT_TIMEOUT_MS), 0);
		for (int i = 0; i < NJOBS; i++) {
			uint32_t st = mali_job_exception_status(
				pbo_cpu(&bo, i * MALI_JOB_SLOT_SIZE));

			if (st != MDG_EXCEPTION_DONE)
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "job %d: exception status %#x, "
					      "expected DONE (1)",
					      i + 1, st);
		}
		ts1 = get64_at(&bo, DATA + 8 * 2);
		cycles = get64_at(&bo, DATA + 8 * 4);
		ts2 = get64_at(&bo, DATA + 8 * 6);
		printf("  timestamp1 %#llx, cycle counter %#llx, timestamp2 "
		       "%#llx\n",
		       (unsigned long long)ts1, (unsigned long long)cycles,
		       (unsigned long long)ts2);
		CHECK_EQ(get64_at(&bo, DATA), 0);
		CHECK(ts1 != 0 && ts1 != FILL64);
		CHECK(cycles != 0 && cycles != FILL64);
		CHECK(ts2 != 0 && ts2 != FILL64);
		/* Job 6 depends (through 5 and 3) on job 2. */
		CHECK(ts2 >= ts1);
		for (int i = 1; i < 8; i += 2)
			CHECK_EQ(get64_at(&bo, DATA + 8 * i), GUARD64);
	}
	drmSyncobjDestroy(g_fd, sync);
	pbo_destroy(&bo);
}

/*
 * A compute job with a hand-assembled kernel (mc_verify_kernel: a loop of
 * gid.x iterations per thread) through SUBMIT: 256 threads in 16
 * workgroups, every element checked against the C reference.
 */
TEST(compute_job)
{
	NEED_DEVICE();
	check_compute_job(g_fd, "gid * 3 + 7 on 256 threads");
}

/*
 * MMU faults. What panfrost 6.1 does (panfrost_mmu.c, panfrost_job.c):
 *  - A translation fault outside a HEAP BO is terminal: the MMU IRQ thread
 *    prints "Unhandled Page fault in AS<n> at VA 0x<addr>", adds the AS to
 *    as_faulty_mask and disables the AS (TRANSTAB = 0, UPDATE) "to kill jobs
 *    on this AS".
 *  - The job then ends with a FAILED job IRQ; panfrost_job_handle_err sets
 *    the fence error (-EINVAL for a fault code, -ECANCELED for TERMINATED)
 *    and signals the fence. The chain is not resumed (job->jc = 0).
 *  - The next job of that fd re-enables the AS (panfrost_mmu_as_get sees the
 *    faulty bit: clears and unmasks the IRQ, reprograms the AS). A new fd
 *    gets an AS of its own. No GPU reset is involved on Midgard.
 * What user space can see, and what is asserted:
 *  - the out syncobj signals within the wait timeout (no hang);
 *  - the fence error is not visible: 6.1's drm_sched does not copy the
 *    hardware fence's error to the finished fence a syncobj holds, so it is
 *    not asserted;
 *  - the faulting job's header does not read DONE (the GPU either writes a
 *    fault code back or, with the AS disabled, nothing), and a job that
 *    depends on it never runs (its target keeps its fill, its header does
 *    not read DONE);
 *  - the kernel log (if /dev/kmsg is there) has the "Unhandled Page fault"
 *    line with the faulting page, and no "gpu sched timeout" (the fault
 *    must be reported by the GPU, not found by the 500 ms watchdog). The
 *    order of the job and MMU interrupts is not asserted: the model fails
 *    the job as it raises the MMU fault (see qemu/README.md).
 *  - 6.1's panfrost_mmu_as_get() re-enables a faulty AS but writes
 *    MMU_INT_MASK before clearing the AS from as_faulty_mask, so that AS's
 *    MMU interrupt stays masked; a second fault on the same fd fails its job
 *    (js fault) without an "Unhandled Page fault" line. The chain at an
 *    unmapped address is therefore submitted from a fresh fd.
 *  - good jobs afterwards succeed, in the same fd and in a new one.
 */
#define FAULT_LOG_LINE "Unhandled Page fault in AS"

static void check_fault_log(struct kmsg *k, uint64_t fault_va)
{
	const char *hit;

	if (k->fd < 0)
		return;
	hit = kmsg_wait_for(k, FAULT_LOG_LINE, 2000);
	if (!hit) {
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "no \"%s\" in the kernel log", FAULT_LOG_LINE);
	} else {
		const char *va = strstr(hit, " at VA 0x");
		unsigned long long got =
			va ? strtoull(va + strlen(" at VA 0x"), NULL, 16) : 0;

		if ((got & ~0xfffull) != (fault_va & ~0xfffull))
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "fault reported at VA %#llx, expected "
				      "page %#llx",
				      got,
				      (unsigned long long)(fault_va & ~0xfffull));
	}
	if (kmsg_find(k, "gpu sched timeout"))
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "job timed out instead of failing on the fault");
	/* Always shown: what panfrost said about the fault. */
	kmsg_print(k);
}

TEST(mmu_fault)
{
	struct pbo bo;
	struct kmsg k;
	uint32_t sync, handles[1];
	uint32_t j0 = 0, j1 = MALI_JOB_SLOT_SIZE, data = 0x800;
	uint64_t t0, elapsed_ms;
	int fd2, err;

	NEED_DEVICE();
	REQUIRE(pbo_create(g_fd, 4096, 0, &bo) == 0);
	sync = syncobj_new(g_fd);
	if (!sync) {
		pbo_destroy(&bo);
		REQUIRE(sync != 0);
	}
	handles[0] = bo.handle;

	/* (a) WRITE_VALUE to an unmapped VA, and a job depending on it. */
	printf("  (a) WRITE_VALUE to unmapped VA %#llx\n",
	       (unsigned long long)UNMAPPED_VA);
	put64_at(&bo, data, FILL64);
	mali_pack_write_value_job(pbo_cpu(&bo, j0), 1, 0, 0, pbo_gpu(&bo, j1),
				  UNMAPPED_VA, MDG_WRITE_VALUE_TYPE_ZERO);
	mali_pack_write_value_job(pbo_cpu(&bo, j1), 2, 1, 0, 0,
				  pbo_gpu(&bo, data), MDG_WRITE_VALUE_TYPE_ZERO);
	kmsg_open(&k);
	t0 = now_ns();
	err = pf_submit(g_fd, pbo_gpu(&bo, j0), handles, 1, sync);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_ERRNO(syncobj_wait(g_fd, &sync, 1, WAIT_TIMEOUT_MS), 0);
		elapsed_ms = (now_ns() - t0) / 1000000;
		printf("  fence signalled after %llu ms; header statuses %#x, "
		       "%#x\n",
		       (unsigned long long)elapsed_ms,
		       mali_job_exception_status(pbo_cpu(&bo, j0)),
		       mali_job_exception_status(pbo_cpu(&bo, j1)));
		CHECK(mali_job_exception_status(pbo_cpu(&bo, j0)) !=
		      MDG_EXCEPTION_DONE);
		CHECK(mali_job_exception_status(pbo_cpu(&bo, j1)) !=
		      MDG_EXCEPTION_DONE);
		CHECK_EQ(get64_at(&bo, data), FILL64);
		check_fault_log(&k, UNMAPPED_VA);
	}
	kmsg_close(&k);
	check_good_job(g_fd, "same fd after a faulting WRITE_VALUE");

	/* (b) the chain itself starts at an unmapped VA, from a fresh fd. */
	printf("  (b) job chain at unmapped VA %#llx\n",
	       (unsigned long long)(UNMAPPED_VA & ~0x3full));
	fd2 = reopen();
	CHECK(fd2 >= 0);
	if (fd2 >= 0) {
		uint32_t sync2 = syncobj_new(fd2);

		CHECK(sync2 != 0);
		kmsg_open(&k);
		t0 = now_ns();
		err = pf_submit(fd2, UNMAPPED_VA & ~0x3full, NULL, 0, sync2);
		CHECK_ERRNO(err, 0);
		if (!err) {
			CHECK_ERRNO(syncobj_wait(fd2, &sync2, 1,
						 WAIT_TIMEOUT_MS), 0);
			printf("  fence signalled after %llu ms\n",
			       (unsigned long long)((now_ns() - t0) / 1000000));
			check_fault_log(&k, UNMAPPED_VA);
		}
		kmsg_close(&k);
		check_good_job(fd2, "same fd after a chain at an unmapped VA");
		drmSyncobjDestroy(fd2, sync2);
		close(fd2);
	}
	check_good_job(g_fd, "first fd after the second fault");

	drmSyncobjDestroy(g_fd, sync);
	pbo_destroy(&bo);
}

/*
 * Fills n WRITE_VALUE(zero) jobs, job i zeroing data slot i (pre-filled with
 * a non-zero pattern). If chained, job i links to job i+1 with index i+1.
 */
static void fill_zero_jobs(struct pbo *jobs_bo, struct pbo *data_bo,
			   unsigned int n, bool chained)
{
	for (unsigned int i = 0; i < n; i++) {
		uint32_t off = i * MALI_JOB_SLOT_SIZE;
		uint64_t next = chained && i + 1 < n
					? pbo_gpu(jobs_bo,
						  off + MALI_JOB_SLOT_SIZE)
					: 0;

		put64_at(data_bo, 8 * i, 0x5a5a5a5a00000000ull | (i + 1));
		mali_pack_write_value_job(pbo_cpu(jobs_bo, off),
					  chained ? i + 1 : 1, 0, 0, next,
					  pbo_gpu(data_bo, 8 * i),
					  MDG_WRITE_VALUE_TYPE_ZERO);
	}
	put64_at(data_bo, 8 * n, GUARD64);
}

/* Checks n jobs reported DONE and zeroed their slots; prints the first few
 * mismatches. */
static void check_zero_jobs(struct pbo *jobs_bo, struct pbo *data_bo,
			    unsigned int n)
{
	unsigned int bad_status = 0, bad_value = 0;

	for (unsigned int i = 0; i < n; i++) {
		uint32_t st = mali_job_exception_status(
			pbo_cpu(jobs_bo, i * MALI_JOB_SLOT_SIZE));
		uint64_t v = get64_at(data_bo, 8 * i);

		if (st != MDG_EXCEPTION_DONE && bad_status++ < 5)
			printf("  job %u: exception status %#x\n", i, st);
		if (v != 0 && bad_value++ < 5)
			printf("  slot %u: %#llx, expected 0\n", i,
			       (unsigned long long)v);
	}
	if (bad_status)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "%u of %u jobs did not report DONE", bad_status,
			      n);
	if (bad_value)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "%u of %u slots were not zeroed", bad_value, n);
	CHECK_EQ(get64_at(data_bo, 8 * n), GUARD64);
}

/*
 * Submits n single-job chains, one SUBMIT each with its own out syncobj,
 * then waits for all of them. With implicit, each submit lists both BOs (as
 * Mesa does), so every job waits for the previous one's fence and WAIT_BO
 * covers them all; without, the scheduler keeps up to two jobs queued on the
 * slot (JS_HEAD_NEXT) at once.
 */
static void run_single_job_submits(unsigned int n, bool implicit)
{
	struct pbo jobs_bo, data_bo;
	uint32_t *syncs, handles[2];
	unsigned int submitted = 0;
	uint64_t t0;

	REQUIRE(pbo_create(g_fd, n * MALI_JOB_SLOT_SIZE, 0, &jobs_bo) == 0);
	if (pbo_create(g_fd, 8 * (n + 1), PANFROST_BO_NOEXEC, &data_bo)) {
		pbo_destroy(&jobs_bo);
		REQUIRE(!"data BO");
	}
	syncs = calloc(n, sizeof(*syncs));
	REQUIRE(syncs != NULL);
	fill_zero_jobs(&jobs_bo, &data_bo, n, false);
	handles[0] = jobs_bo.handle;
	handles[1] = data_bo.handle;

	t0 = now_ns();
	for (unsigned int i = 0; i < n; i++) {
		syncs[i] = syncobj_new(g_fd);
		if (!syncs[i])
			break;
		if (pf_submit(g_fd, pbo_gpu(&jobs_bo, i * MALI_JOB_SLOT_SIZE),
			      implicit ? handles : NULL, implicit ? 2 : 0,
			      syncs[i])) {
			printf("  submit %u failed\n", i);
			drmSyncobjDestroy(g_fd, syncs[i]);
			syncs[i] = 0;
			break;
		}
		submitted++;
	}
	CHECK_EQ(submitted, n);
	if (submitted) {
		CHECK_ERRNO(syncobj_wait(g_fd, syncs, submitted,
					 LONG_WAIT_TIMEOUT_MS),
			    0);
		if (implicit)
			CHECK_ERRNO(wait_bo(g_fd, data_bo.handle,
					    LONG_WAIT_TIMEOUT_MS),
				    0);
		printf("  %u jobs in %llu ms\n", submitted,
		       (unsigned long long)((now_ns() - t0) / 1000000));
	}
	if (submitted == n)
		check_zero_jobs(&jobs_bo, &data_bo, n);
	for (unsigned int i = 0; i < submitted; i++)
		drmSyncobjDestroy(g_fd, syncs[i]);
	free(syncs);
	pbo_destroy(&data_bo);
	pbo_destroy(&jobs_bo);
}

TEST(many_jobs)
{
	NEED_DEVICE();
	run_single_job_submits(MANY_JOBS, true);
}

TEST(pipelined_jobs)
{
	NEED_DEVICE();
	run_single_job_submits(PIPELINED_JOBS, false);
}

/* One chain of MANY_JOBS WRITE_VALUE jobs (indices 1..n, no dependencies). */
TEST(long_chain)
{
	struct pbo jobs_bo, data_bo;
	uint32_t sync, handles[2];
	uint64_t t0;
	int err;

	NEED_DEVICE();
	REQUIRE(pbo_create(g_fd, MANY_JOBS * MALI_JOB_SLOT_SIZE, 0,
			   &jobs_bo) == 0);
	if (pbo_create(g_fd, 8 * (MANY_JOBS + 1), PANFROST_BO_NOEXEC,
		       &data_bo)) {
		pbo_destroy(&jobs_bo);
		REQUIRE(!"data BO");
	}
	fill_zero_jobs(&jobs_bo, &data_bo, MANY_JOBS, true);
	handles[0] = jobs_bo.handle;
	handles[1] = data_bo.handle;
	sync = syncobj_new(g_fd);
	t0 = now_ns();
	err = pf_submit(g_fd, jobs_bo.va, handles, 2, sync);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_ERRNO(syncobj_wait(g_fd, &sync, 1, LONG_WAIT_TIMEOUT_MS),
			    0);
		CHECK_ERRNO(wait_bo(g_fd, data_bo.handle, WAIT_TIMEOUT_MS), 0);
		printf("  chain of %d jobs in %llu ms\n", MANY_JOBS,
		       (unsigned long long)((now_ns() - t0) / 1000000));
		check_zero_jobs(&jobs_bo, &data_bo, MANY_JOBS);
	}
	if (sync)
		drmSyncobjDestroy(g_fd, sync);
	pbo_destroy(&data_bo);
	pbo_destroy(&jobs_bo);
}

/*
 * SUBMIT argument errors, as panfrost_ioctl_submit (6.1) returns them:
 *   jc == 0                           -> EINVAL
 *   requirements not 0 or REQ_FS (1)  -> EINVAL
 *   out_sync not a syncobj            -> ENODEV (drm_syncobj_find fails)
 *   in_syncs names no syncobj         -> ENOENT (drm_syncobj_find_fence)
 *   in_syncs names an empty syncobj   -> EINVAL (no fence, no WAIT_FOR_SUBMIT)
 *   bo_handles names no BO            -> ENOENT (drm_gem_objects_lookup)
 *   bo_handles pointer invalid        -> EFAULT
 * None of them runs anything; the device still works afterwards.
 */
TEST(bad_submit)
{
	struct pbo bo;
	struct drm_panfrost_submit s;
	uint32_t bad_handle = 0xdead, empty_sync;

	NEED_DEVICE();
	REQUIRE(pbo_create(g_fd, 4096, 0, &bo) == 0);
	mali_pack_null_job(pbo_cpu(&bo, 0), 1, 0, 0, 0);

	memset(&s, 0, sizeof(s));
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -EINVAL);

	memset(&s, 0, sizeof(s));
	s.jc = bo.va;
	s.requirements = 2;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -EINVAL);
	s.requirements = PANFROST_JD_REQ_FS | 2;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -EINVAL);

	memset(&s, 0, sizeof(s));
	s.jc = bo.va;
	s.out_sync = 0xdead;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -ENODEV);

	memset(&s, 0, sizeof(s));
	s.jc = bo.va;
	s.in_syncs = (uint64_t)(uintptr_t)&bad_handle;
	s.in_sync_count = 1;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -ENOENT);

	empty_sync = syncobj_new(g_fd);
	if (empty_sync) {
		s.in_syncs = (uint64_t)(uintptr_t)&empty_sync;
		CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_SUBMIT, &s),
			    -EINVAL);
		drmSyncobjDestroy(g_fd, empty_sync);
	}

	memset(&s, 0, sizeof(s));
	s.jc = bo.va;
	s.bo_handles = (uint64_t)(uintptr_t)&bad_handle;
	s.bo_handle_count = 1;
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -ENOENT);

	s.bo_handles = 8; /* unmapped user pointer */
	CHECK_ERRNO(pf_ioctl(g_fd, DRM_IOCTL_PANFROST_SUBMIT, &s), -EFAULT);

	/* None of the above ran: the NULL job's header is untouched. */
	CHECK_EQ(mali_job_exception_status(pbo_cpu(&bo, 0)),
		 MDG_EXCEPTION_OK);
	pbo_destroy(&bo);
	check_good_job(g_fd, "after the rejected submits");
}

/*
 * Timeout and reset: a compute job whose kernel never ends
 * (mc_endless_kernel) keeps its slot busy, so drm_sched's 500 ms timeout
 * fires. panfrost then soft-stops the slot, which does not end a running
 * shader (the model, like the hardware, stops only between jobs; panfrost
 * logs "Soft-stop failed" after 10 ms), and resets the GPU, which does.
 * The guilty job is cancelled and its fence signals; the kernel never
 * reached its store, so the output is untouched. Afterwards WRITE_VALUE and
 * compute jobs run again, in the same fd and a new one.
 */
TEST(timeout_reset)
{
	struct compute c;
	struct kmsg k;
	uint32_t sync;
	uint64_t t0, ms;
	int fd2, err;

	NEED_DEVICE();
	REQUIRE(compute_new(g_fd, &mc_endless_kernel, &c) == 0);
	sync = syncobj_new(g_fd);
	if (!sync) {
		compute_free(&c);
		REQUIRE(sync != 0);
	}
	kmsg_open(&k);
	t0 = now_ns();
	err = compute_submit(g_fd, &c, sync);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_ERRNO(syncobj_wait(g_fd, &sync, 1, WAIT_TIMEOUT_MS), 0);
		ms = (now_ns() - t0) / 1000000;
		printf("  endless job's fence signalled after %llu ms, header "
		       "status %#x\n",
		       (unsigned long long)ms, compute_status(&c));
		/* The timer starts when the job does; jiffy rounding aside. */
		CHECK(ms + 10 >= PANFROST_JOB_TIMEOUT_MS);
		CHECK(compute_status(&c) != MDG_EXCEPTION_DONE);
		CHECK_EQ(mc_output_touched(c.out.map, COMPUTE_THREADS), 0);
		if (k.fd >= 0 && !kmsg_wait_for(&k, "gpu sched timeout", 2000))
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "no \"gpu sched timeout\" in the log");
		if (check_state.test_failed)
			kmsg_print(&k);
	}
	kmsg_close(&k);
	drmSyncobjDestroy(g_fd, sync);
	compute_free(&c);
	check_good_job(g_fd, "same fd after a timeout and reset");
	check_compute_job(g_fd, "same fd after a timeout and reset");
	fd2 = reopen();
	CHECK(fd2 >= 0);
	if (fd2 >= 0) {
		check_good_job(fd2, "new fd after a timeout and reset");
		check_compute_job(fd2, "new fd after a timeout and reset");
		close(fd2);
	}
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	g_path_arg = argc > 1 ? argv[1] : NULL;

	RUN(open_device);
	RUN(version);
	RUN(get_param);
	RUN(probe_log);
	RUN(bo_create_mmap);
	RUN(null_job);
	RUN(write_value_chain);
	RUN(compute_job);
	RUN(bad_submit);
	RUN(many_jobs);
	RUN(pipelined_jobs);
	RUN(long_chain);
	RUN(mmu_fault);
	RUN(timeout_reset);

	if (g_fd >= 0)
		close(g_fd);
	return check_summary();
}
