/* SPDX-License-Identifier: MIT */
/*
 * sl_launch_guest: compiled OpenCL kernels on the emulated GPU through
 * sleipnir.ko, driven the way the OpenCL runtime will drive it: sl_drm
 * (userspace/drm) for BOs, GPU mappings, SUBMIT and syncobjs, sl_launch
 * (userspace/launch) for the argument image and the descriptors.
 *
 * The kernels (tests/launch/launch_kernels.cl) were compiled on the host
 * at build time by sleipnir-cc into launch_kernels.bin, installed beside
 * this program; every result is checked against a C reference. Also: a
 * chain of two dependent jobs in one SUBMIT, two SUBMITs ordered by a
 * syncobj, a userptr output buffer, GPU timestamps around a kernel, and
 * no fault left behind.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "midgard_desc.h"
#include "sl_drm.h"
#include "sl_launch.h"

CHECK_MAIN_STATE("sl-launch");

#define WAIT_MS 20000u
#define DESC_BYTES (64u << 10)


static struct sl_drm *g_dev;
static struct slb_program g_prog;
static unsigned int g_cores;
static uint64_t g_ts_hz;
static struct sl_bo *g_code, *g_const;

/* --- set-up -------------------------------------------------------------- */

static bool load_program(const char *argv0)
{
	char exe[512], path[600], err[256] = "read error";
	uint8_t *data;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f;
	long size;
	bool ok;

	/* Installed beside the program (meson install). */
	if (n > 0) {
		exe[n] = 0;
	} else {
		snprintf(exe, sizeof(exe), "%s", argv0);
	}
	snprintf(path, sizeof(path), "%s/launch_kernels.bin", dirname(exe));
	f = fopen(path, "rb");
	if (!f) {
		printf("  %s: %s\n", path, strerror(errno));
		return false;
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = malloc(size > 0 ? (size_t)size : 1);
	ok = data && size > 0 && fread(data, 1, (size_t)size, f) ==
				(size_t)size;
	fclose(f);
	if (ok)
		ok = slb_read(data, (size_t)size, &g_prog, err, sizeof(err));
	if (!ok)
		printf("  %s: %s\n", path, data ? err : "out of memory");
	free(data);
	return ok;
}

/* A BO mapped for the CPU and the GPU; NULL (with the reason) on error. */
static struct sl_bo *bo_new(uint64_t size, uint32_t flags, void **cpu)
{
	struct sl_bo *bo;
	int err = sl_bo_create(g_dev, size, flags, &bo);

	if (!err && cpu)
		err = sl_bo_mmap(bo, cpu);
	if (!err)
		err = sl_vm_map(bo, 0, 0);
	if (err) {
		printf("  BO of %llu bytes: %s\n", (unsigned long long)size,
		       strerror(-err));
		sl_bo_destroy(bo);
		return NULL;
	}
	return bo;
}

/* The program's code and __constant data, uploaded once. */
static bool upload_program(void)
{
	void *cpu;
	int err;

	err = sl_bo_create(g_dev, g_prog.code_size, SLEIPNIR_BO_GPU_READ_ONLY,
			   &g_code);
	if (!err)
		err = sl_bo_mmap(g_code, &cpu);
	if (!err) {
		memcpy(cpu, g_prog.code, g_prog.code_size);
		err = sl_vm_map_code(g_code, SLEIPNIR_VM_MAP_READ_ONLY);
	}
	if (err) {
		printf("  code BO: %s\n", strerror(-err));
		return false;
	}
	if (!g_prog.constant_size)
		return true;
	g_const = bo_new(g_prog.constant_size,
			 SLEIPNIR_BO_GPU_READ_ONLY | SLEIPNIR_BO_GPU_NOEXEC,
			 &cpu);
	if (!g_const)
		return false;
	memcpy(cpu, g_prog.constant_data, g_prog.constant_size);
	return true;
}

static bool setup(int argc, char **argv)
{
	uint64_t present = 0, caps = 0;
	int err;

	(void)argc;
	err = sl_drm_open(&g_dev);
	if (err) {
		printf("  sl_drm_open: %s\n", strerror(-err));
		return false;
	}
	printf("  %s\n", sl_drm_node(g_dev));
	err = sl_drm_get_param(g_dev, SLEIPNIR_PARAM_SHADER_PRESENT,
			       &present);
	if (!err)
		err = sl_drm_get_param(g_dev, SLEIPNIR_PARAM_DRIVER_CAPS,
				       &caps);
	if (!err)
		err = sl_drm_get_param(g_dev,
				       SLEIPNIR_PARAM_TIMESTAMP_FREQUENCY,
				       &g_ts_hz);
	if (err) {
		printf("  GET_PARAM: %s\n", strerror(-err));
		return false;
	}
	g_cores = sl_launch_cores(present);
	if ((caps & (SLEIPNIR_CAP_SUBMIT | SLEIPNIR_CAP_VM_MAP)) !=
	    (SLEIPNIR_CAP_SUBMIT | SLEIPNIR_CAP_VM_MAP)) {
		printf("  driver caps %#llx lack SUBMIT / VM_MAP\n",
		       (unsigned long long)caps);
		return false;
	}
	return load_program(argv[0]) && upload_program();
}

/* --- one launch ---------------------------------------------------------- */

/* Buffers a test uses, with the access SUBMIT is told about. */
struct bufs {
	struct sl_bo *bo[8];
	bool write[8];
	unsigned int count;
};

/* A CPU-cached buffer (so BO_SYNC matters) kernels read and write. */
static void *buf_new(struct bufs *b, uint64_t size, bool write)
{
	void *cpu = NULL;
	struct sl_bo *bo = bo_new(size, SLEIPNIR_BO_CPU_CACHED |
				  SLEIPNIR_BO_GPU_NOEXEC, &cpu);

	if (!bo)
		return NULL;
	b->bo[b->count] = bo;
	b->write[b->count++] = write;
	return cpu;
}

static uint64_t buf_va(const struct bufs *b, unsigned int i)
{
	return b->bo[i]->va;
}

static void bufs_free(struct bufs *b)
{
	for (unsigned int i = 0; i < b->count; i++)
		sl_bo_destroy(b->bo[i]);
	b->count = 0;
}

/* CPU writes done (END) or GPU writes to be read (PREPARE). */
static void bufs_sync(struct bufs *b, uint32_t op)
{
	for (unsigned int i = 0; i < b->count; i++) {
		if (b->bo[i]->flags & SLEIPNIR_BO_USERPTR)
			continue;
		CHECK_EQ(sl_bo_sync(b->bo[i], op, 0, 0), 0);
	}
}

/*
 * A command buffer: descriptor blocks of one or more launches laid end to
 * end, with the TLS and WLS memory they need.
 */
struct cmd {
	struct sl_bo *desc;
	uint8_t *cpu;
	size_t used;
	unsigned int jobs;
	uint64_t first_jc, last_jc;
	struct sl_bo *storage[8];
	unsigned int num_storage;
	struct sl_launch_params params[4];
};

static bool cmd_new(struct cmd *c)
{
	memset(c, 0, sizeof(*c));
	c->desc = bo_new(DESC_BYTES, SLEIPNIR_BO_GPU_NOEXEC,
			 (void **)&c->cpu);
	return c->desc != NULL;
}

static void cmd_free(struct cmd *c)
{
	for (unsigned int i = 0; i < c->num_storage; i++)
		sl_bo_destroy(c->storage[i]);
	sl_bo_destroy(c->desc);
}

/* Scratch memory only the GPU touches (TLS or WLS), 4 KiB aligned. */
static uint64_t cmd_storage(struct cmd *c, uint64_t bytes)
{
	struct sl_bo *bo;

	if (!bytes || c->num_storage == 8)
		return 0;
	bo = bo_new(bytes, SLEIPNIR_BO_NO_CPU_MAP | SLEIPNIR_BO_GPU_NOEXEC,
		    NULL);
	if (!bo)
		return 0;
	c->storage[c->num_storage++] = bo;
	return bo->va;
}

/* Appends a job c->used bytes in, chained after the previous one. */
static void cmd_link(struct cmd *c, uint64_t jc)
{
	if (c->jobs)
		sl_desc_link(c->cpu + (c->last_jc - c->desc->va), jc);
	else
		c->first_jc = jc;
	c->last_jc = jc;
	c->jobs++;
}

/*
 * Appends the launch of kernel name with args over nd; dep is the index
 * of a job it waits for (0: none). Returns the job's index, 0 on error.
 */
static unsigned int cmd_launch(struct cmd *c, const char *name,
			       const struct sl_arg *args, unsigned int n,
			       struct sl_ndrange nd, unsigned int dep)
{
	struct sl_launch_params *p = &c->params[c->jobs % 4];
	struct sl_launch_memory mem = { .code_va = g_code->va };
	struct sl_job_link link = { .index = c->jobs + 1, .dep = { dep } };
	struct sl_launch_plan plan;
	uint64_t va = c->desc->va + c->used;
	int st;

	memset(p, 0, sizeof(*p));
	p->prog = &g_prog;
	p->kernel = slb_find_kernel(&g_prog, name);
	p->args = args;
	p->num_args = n;
	p->nd = nd;
	p->constant_va = g_const ? g_const->va : 0;
	p->cores = g_cores;
	st = sl_launch_plan(p, &plan);
	if (!st) {
		mem.tls_va = cmd_storage(c, plan.tls_total_bytes);
		mem.wls_va = cmd_storage(c, plan.wls_total_bytes);
		st = sl_launch_emit(&plan, &mem, &link, c->cpu + c->used,
				    DESC_BYTES - c->used, va);
	}
	if (st) {
		printf("  %s: %s (argument %d)\n", name,
		       sl_launch_strerror(st), plan.error_arg);
		return 0;
	}
	c->used += plan.desc_bytes;
	cmd_link(c, sl_launch_job_va(va));
	return link.index;
}

/* Appends a WRITE_VALUE job storing the GPU timestamp at target. */
static unsigned int cmd_timestamp(struct cmd *c, uint64_t target,
				  unsigned int dep)
{
	struct sl_job_link link = { .index = c->jobs + 1, .dep = { dep, 0 } };
	uint64_t va = c->desc->va + c->used;
	int st = sl_timestamp_pack(&link, target, c->cpu + c->used,
				   DESC_BYTES - c->used, va);

	if (st) {
		printf("  timestamp job: %s\n", sl_launch_strerror(st));
		return 0;
	}
	c->used += SL_TIMESTAMP_JOB_BYTES;
	cmd_link(c, va);
	return link.index;
}

/*
 * Submits the command buffer with the buffers, waits for in_sync first
 * when it is not 0 and signals out_sync (created here when 0 is passed
 * and wait is set: then waits for it and checks the fence). Returns the
 * fence status (1 = good) or a negative errno.
 */
static int cmd_submit(struct cmd *c, struct bufs *b, uint32_t requirements,
		      uint32_t in_sync, uint32_t out_sync, bool wait)
{
	struct drm_sleipnir_bo_ref refs[24];
	struct drm_sleipnir_sync_op in = { .handle = in_sync };
	struct drm_sleipnir_sync_op out = { 0 };
	struct sl_submit s = { .jc = c->first_jc,
			       .requirements = requirements };
	uint32_t n = 0, own = 0;
	int err, status = 0;

	refs[n++] = (struct drm_sleipnir_bo_ref){ g_code->handle, 0 };
	if (g_const)
		refs[n++] = (struct drm_sleipnir_bo_ref){ g_const->handle, 0 };
	/* The GPU writes job headers back. */
	refs[n++] = (struct drm_sleipnir_bo_ref){ c->desc->handle,
						  SLEIPNIR_BO_REF_WRITE };
	for (unsigned int i = 0; i < c->num_storage; i++)
		refs[n++] = (struct drm_sleipnir_bo_ref){
			c->storage[i]->handle, SLEIPNIR_BO_REF_WRITE };
	for (unsigned int i = 0; b && i < b->count; i++)
		refs[n++] = (struct drm_sleipnir_bo_ref){
			b->bo[i]->handle,
			b->write[i] ? SLEIPNIR_BO_REF_WRITE : 0 };
	if (!out_sync && wait) {
		err = sl_syncobj_create(g_dev, false, &own);
		if (err)
			return err;
		out_sync = own;
	}
	out.handle = out_sync;
	s.bos = refs;
	s.num_bos = n;
	s.in_syncs = in_sync ? &in : NULL;
	s.num_in_syncs = in_sync ? 1 : 0;
	s.out_syncs = out_sync ? &out : NULL;
	s.num_out_syncs = out_sync ? 1 : 0;
	err = sl_submit(g_dev, &s);
	if (!err && wait) {
		err = sl_syncobj_wait(g_dev, &out_sync, 1, true, WAIT_MS);
		if (!err)
			err = sl_syncobj_status(g_dev, out_sync, &status);
	}
	sl_syncobj_destroy(g_dev, own);
	if (err)
		printf("  submit: %s\n", strerror(-err));
	return err ? err : status;
}

/* --- tests --------------------------------------------------------------- */

/* vadd over 4096 floats in groups of 64: c = a + b * s. */
TEST(vadd)
{
	const unsigned int n = 4096;
	const float s = 0.5f;
	struct bufs b = { 0 };
	struct cmd c;
	float *a = buf_new(&b, n * 4, false), *bb = buf_new(&b, n * 4, false);
	float *out = buf_new(&b, n * 4, true);
	unsigned int bad = 0;

	REQUIRE(a && bb && out && cmd_new(&c));
	for (unsigned int i = 0; i < n; i++) {
		a[i] = (float)i;
		bb[i] = (float)(i % 7) * 2.0f;
		out[i] = -1.0f;
	}
	bufs_sync(&b, SLEIPNIR_BO_SYNC_CPU_END);
	{
		const struct sl_arg args[] = {
			SL_ARG_BUF(buf_va(&b, 0)), SL_ARG_BUF(buf_va(&b, 1)),
			SL_ARG_BUF(buf_va(&b, 2)), SL_ARG_VAL(&s),
		};

		CHECK(cmd_launch(&c, "vadd", args, 4,
				 (struct sl_ndrange){ .work_dim = 1,
						      .global = { n },
						      .local = { 64 } },
				 0) == 1);
	}
	CHECK_EQ(cmd_submit(&c, &b, 0, 0, 0, true), 1);
	CHECK_EQ(mdg_job_exception_status(c.cpu), 1); /* header DONE */
	bufs_sync(&b, SLEIPNIR_BO_SYNC_CPU_PREPARE);
	for (unsigned int i = 0; i < n; i++)
		bad += out[i] != (float)i + (float)(i % 7) * 2.0f * s;
	CHECK_EQ(bad, 0);
	cmd_free(&c);
	bufs_free(&b);
}

/* group_sum: a __local argument and barriers; 32 groups of 64. */
TEST(local_barrier)
{
	const unsigned int groups = 32, local = 64;
	struct bufs b = { 0 };
	struct cmd c;
	float *in = buf_new(&b, groups * local * 4, false);
	float *out = buf_new(&b, groups * 4, true);
	unsigned int bad = 0;

	REQUIRE(in && out && cmd_new(&c));
	for (unsigned int i = 0; i < groups * local; i++)
		in[i] = (float)(i % 11);
	bufs_sync(&b, SLEIPNIR_BO_SYNC_CPU_END);
	{
		const struct sl_arg args[] = {
			SL_ARG_BUF(buf_va(&b, 0)), SL_ARG_BUF(buf_va(&b, 1)),
			SL_ARG_LOC(local * 4),
		};

		CHECK(cmd_launch(&c, "group_sum", args, 3,
				 (struct sl_ndrange){
					 .work_dim = 1,
					 .global = { groups * local },
					 .local = { local } },
				 0) == 1);
	}
	CHECK(c.num_storage >= 1);                  /* WLS was allocated */
	CHECK_EQ(cmd_submit(&c, &b, 0, 0, 0, true), 1);
	bufs_sync(&b, SLEIPNIR_BO_SYNC_CPU_PREPARE);
	for (unsigned int g = 0; g < groups; g++) {
		float want = 0;

		for (unsigned int i = 0; i < local; i++)
			want += (float)((g * local + i) % 11);
		bad += out[g] != want;
	}
	CHECK_EQ(bad, 0);
	cmd_free(&c);
	bufs_free(&b);
}

/* __constant data and a global offset, into a userptr buffer. */
TEST(constant_offset_userptr)
{
	static const int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
	const unsigned int n = 1024, offset = 77;
	const int k = 3;
	struct bufs b = { 0 };
	struct sl_bo *bo = NULL;
	struct cmd c;
	int32_t *x = NULL;
	uint32_t flags = 0;
	uint64_t size = 0;
	unsigned int bad = 0;
	int err;

	REQUIRE(posix_memalign((void **)&x, 4096, n * 4) == 0);
	memset(x, 0xEE, n * 4);
	err = sl_bo_userptr(g_dev, x, n * 4, SLEIPNIR_BO_GPU_NOEXEC, &bo);
	CHECK_EQ(err, 0);
	if (!err)
		err = sl_vm_map(bo, 0, 0);
	CHECK_EQ(err, 0);
	if (err) {
		sl_bo_destroy(bo);
		free(x);
		return;
	}
	CHECK_EQ(sl_bo_info(g_dev, bo->handle, &flags, &size), 0);
	CHECK(flags & SLEIPNIR_BO_USERPTR);
	CHECK_EQ(size, n * 4);
	b.bo[0] = bo;
	b.write[0] = true;
	b.count = 1;
	REQUIRE(cmd_new(&c));
	{
		const struct sl_arg args[] = { SL_ARG_BUF(bo->va),
					       SL_ARG_VAL(&k) };

		CHECK(cmd_launch(&c, "lookup", args, 2,
				 (struct sl_ndrange){ .work_dim = 1,
						      .offset = { offset },
						      .global = { n },
						      .local = { 32 } },
				 0) == 1);
	}
	CHECK_EQ(cmd_submit(&c, &b, 0, 0, 0, true), 1);
	/* Userptr memory is cached: the kernel invalidated it for us. */
	for (unsigned int i = 0; i < n; i++)
		bad += x[i] != table[(i + offset) % 8] * k + (int)(i + offset);
	CHECK_EQ(bad, 0);
	cmd_free(&c);
	bufs_free(&b);
	free(x);
}

/*
 * Two jobs in one chain, the second depending on the first and reading
 * what it wrote (c = a + b * 2, d = c + b * -1 = a + b); then the same
 * as two SUBMITs, the second waiting on the first's out-syncobj.
 */
TEST(chain)
{
	const unsigned int n = 2048;
	const float two = 2.0f, minus_one = -1.0f;
	const struct sl_ndrange nd = { .work_dim = 1, .global = { n },
				       .local = { 32 } };
	struct bufs b = { 0 };
	struct cmd c, c2 = { 0 };
	float *a = buf_new(&b, n * 4, false), *bb = buf_new(&b, n * 4, false);
	float *mid = buf_new(&b, n * 4, true), *out = buf_new(&b, n * 4, true);
	uint32_t sync = 0;
	unsigned int bad = 0;

	REQUIRE(a && bb && mid && out && cmd_new(&c));
	for (unsigned int round = 0; round < 2; round++) {
		const struct sl_arg a1[] = {
			SL_ARG_BUF(buf_va(&b, 0)), SL_ARG_BUF(buf_va(&b, 1)),
			SL_ARG_BUF(buf_va(&b, 2)), SL_ARG_VAL(&two),
		};
		const struct sl_arg a2[] = {
			SL_ARG_BUF(buf_va(&b, 2)), SL_ARG_BUF(buf_va(&b, 1)),
			SL_ARG_BUF(buf_va(&b, 3)), SL_ARG_VAL(&minus_one),
		};

		for (unsigned int i = 0; i < n; i++) {
			a[i] = (float)(i * (round + 1));
			bb[i] = (float)(i % 9);
			mid[i] = out[i] = -1.0f;
		}
		bufs_sync(&b, SLEIPNIR_BO_SYNC_CPU_END);
		if (round == 0) {
			unsigned int j1 = cmd_launch(&c, "vadd", a1, 4, nd, 0);

			CHECK_EQ(cmd_launch(&c, "vadd", a2, 4, nd, j1), 2);
			CHECK_EQ(cmd_submit(&c, &b, 0, 0, 0, true), 1);
			CHECK_EQ(mdg_job_exception_status(c.cpu), 1);
			CHECK_EQ(mdg_job_exception_status(
					 c.cpu + (c.last_jc - c.desc->va)),
				 1);
		} else {
			/* The second SUBMIT waits for the first's syncobj. */
			cmd_free(&c);
			REQUIRE(cmd_new(&c) && cmd_new(&c2));
			CHECK_EQ(sl_syncobj_create(g_dev, false, &sync), 0);
			CHECK_EQ(cmd_launch(&c, "vadd", a1, 4, nd, 0), 1);
			CHECK_EQ(cmd_launch(&c2, "vadd", a2, 4, nd, 0), 1);
			CHECK_EQ(cmd_submit(&c, &b, 0, 0, sync, false), 0);
			CHECK_EQ(cmd_submit(&c2, &b, 0, sync, 0, true), 1);
			CHECK_EQ(sl_syncobj_wait(g_dev, &sync, 1, true, 0), 0);
		}
		bufs_sync(&b, SLEIPNIR_BO_SYNC_CPU_PREPARE);
		for (unsigned int i = 0; i < n; i++)
			bad += mid[i] != (float)(i * (round + 1)) +
					 (float)(i % 9) * 2 ||
			       out[i] != (float)(i * (round + 1)) +
					 (float)(i % 9);
		CHECK_EQ(bad, 0);
	}
	sl_syncobj_destroy(g_dev, sync);
	cmd_free(&c2);
	cmd_free(&c);
	bufs_free(&b);
}

/*
 * GPU timestamps around a kernel (WRITE_VALUE jobs in the same chain,
 * dependent in turn): they increase, and at TIMESTAMP_FREQUENCY give a
 * plausible duration.
 */
TEST(timestamps)
{
	const unsigned int n = 1024;
	const float s = 1.0f;
	struct bufs b = { 0 };
	struct cmd c;
	float *a = buf_new(&b, n * 4, false), *out = buf_new(&b, n * 4, true);
	uint64_t *ts = buf_new(&b, 4096, true);
	unsigned int j;

	REQUIRE(a && out && ts && cmd_new(&c));
	for (unsigned int i = 0; i < n; i++)
		a[i] = (float)i;
	ts[0] = ts[1] = 0;
	bufs_sync(&b, SLEIPNIR_BO_SYNC_CPU_END);
	{
		const struct sl_arg args[] = {
			SL_ARG_BUF(buf_va(&b, 0)), SL_ARG_BUF(buf_va(&b, 0)),
			SL_ARG_BUF(buf_va(&b, 1)), SL_ARG_VAL(&s),
		};

		j = cmd_timestamp(&c, buf_va(&b, 2), 0);
		j = cmd_launch(&c, "vadd", args, 4,
			       (struct sl_ndrange){ .work_dim = 1,
						    .global = { n },
						    .local = { 64 } },
			       j);
		CHECK(j == 2);
		cmd_timestamp(&c, buf_va(&b, 2) + 8, j);
	}
	CHECK_EQ(cmd_submit(&c, &b, SLEIPNIR_REQ_COMPUTE |
			    SLEIPNIR_REQ_WRITE_VALUE, 0, 0, true), 1);
	bufs_sync(&b, SLEIPNIR_BO_SYNC_CPU_PREPARE);
	CHECK(ts[0] != 0);
	CHECK(ts[1] > ts[0]);
	CHECK_EQ(out[n - 1], 2.0f * (float)(n - 1));
	if (g_ts_hz && ts[1] > ts[0])
		printf("  kernel of %u items between timestamps: %llu ticks, "
		       "%llu us at %llu Hz\n", n,
		       (unsigned long long)(ts[1] - ts[0]),
		       (unsigned long long)((ts[1] - ts[0]) * 1000000 /
					    g_ts_hz),
		       (unsigned long long)g_ts_hz);
	cmd_free(&c);
	bufs_free(&b);
}

/* None of the above left a fault on the device. */
TEST(no_fault)
{
	struct drm_sleipnir_get_fault f;

	CHECK_EQ(sl_get_fault(g_dev, false, &f), 0);
	CHECK_EQ(f.count, 0);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_NONE);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!setup(argc, argv)) {
		check_state.failed++;
		return check_summary();
	}
	RUN(vadd);
	RUN(local_barrier);
	RUN(constant_offset_userptr);
	RUN(chain);
	RUN(timestamps);
	RUN(no_fault);
	sl_bo_destroy(g_const);
	sl_bo_destroy(g_code);
	slb_program_free(&g_prog);
	sl_drm_close(g_dev);
	return check_summary();
}
