/* SPDX-License-Identifier: MIT */
/*
 * sleipnir_uapi: SUBMIT. NULL and WRITE_VALUE chains with results read
 * through zero-copy CPU mappings; every documented argument error, each
 * checked to change nothing; object arrays with other strides; explicit
 * dependencies through binary and timeline syncobjs (also across files);
 * implicit dependencies through the BOs a submit names; fence errors read
 * from a sync_file.
 *
 * Ordering tests use two job slots: a long chain A on slot 1 (REQ_GATED)
 * and a one-job chain B on slot 0 (REQ_UNGATED) that would finish long
 * before A if nothing held it back. A gate (an endless compute job of
 * another file on slot 1, stopped after 300 ms) holds A back for sure,
 * while B, unless it must wait for A, runs beside the gate. GPU timestamps (WRITE_VALUE type 2) taken at the end of A and by B
 * then prove the order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sleipnir_uapi.h"

/* Jobs in a chain that keeps a slot busy (the model runs them one by one). */
#define LONG_CHAIN 16000

/* --- basic jobs ---------------------------------------------------------- */

TEST(submit_null_job)
{
	struct drm_sleipnir_sync_op in, out;
	struct drm_sleipnir_submit s;
	struct sl_bo *bo = NULL;
	uint32_t pre, sync;
	int err;

	NEED_DEVICE();
	REQUIRE(bo_new(g_dev, 4096, 0, 0, 0, &bo) == 0);
	mali_pack_null_job(bo_cpu(bo, 0), 1, 0, 0, 0);
	mali_pack_null_job(bo_cpu(bo, 64), 1, 0, 0, 0);
	CHECK_EQ(mali_job_exception_status(bo_cpu(bo, 0)),
		 MDG_EXCEPTION_OK);

	/* No arrays at all (stride 0, count 0), one out-sync. */
	sync = syncobj_new(g_dev, false);
	memset(&out, 0, sizeof(out));
	out.handle = sync;
	memset(&s, 0, sizeof(s));
	s.jc = bo->va;
	s.requirements = SLEIPNIR_REQ_NULL;
	s.out_syncs = OBJ_ARRAY(&out, 1);
	err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_EQ(wait_fence_status(g_dev, sync, WAIT_MS), 1);
		CHECK_EQ(mali_job_exception_status(bo_cpu(bo, 0)),
			 MDG_EXCEPTION_DONE);
	}
	sl_syncobj_destroy(g_dev, sync);

	/*
	 * Requirements 0 means COMPUTE (slot 1 here); an already signalled
	 * in-sync does not hold the job back.
	 */
	pre = syncobj_new(g_dev, true);
	sync = syncobj_new(g_dev, false);
	memset(&in, 0, sizeof(in));
	in.handle = pre;
	out.handle = sync;
	memset(&s, 0, sizeof(s));
	s.jc = bo->va + 64;
	s.in_syncs = OBJ_ARRAY(&in, 1);
	s.out_syncs = OBJ_ARRAY(&out, 1);
	err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_EQ(wait_fence_status(g_dev, sync, WAIT_MS), 1);
		CHECK_EQ(mali_job_exception_status(bo_cpu(bo, 64)),
			 MDG_EXCEPTION_DONE);
	}
	sl_syncobj_destroy(g_dev, pre);
	sl_syncobj_destroy(g_dev, sync);
	bo_free(&bo);
}

/*
 * Six jobs linked in one chain and ordered by dependencies:
 *   1 WRITE_VALUE zero       -> d[0] (all ones before)
 *   2 WRITE_VALUE timestamp  -> d[2]   dep 1
 *   3 NULL                             dep 2
 *   4 WRITE_VALUE cycles     -> d[4]   dep 3
 *   5 NULL                             deps 3, 4
 *   6 WRITE_VALUE timestamp  -> d[6]   dep 5
 * d[1], d[3], d[5], d[7] are guards. It signals a binary syncobj and point
 * 5 of a timeline, and the BO's fence. Run twice: the counters move on.
 */
TEST(submit_write_value_chain)
{
	enum { NJOBS = 6, DATA = 0x800 };
	static const struct {
		unsigned int type;
		uint32_t value_type;
		uint16_t dep1, dep2;
		int slot;
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
	struct drm_sleipnir_sync_op out[2];
	struct drm_sleipnir_bo_ref ref;
	struct drm_sleipnir_submit s;
	uint64_t prev_ts = 0, prev_cycles = 0, point;
	uint32_t bin, tl;
	struct sl_bo *bo = NULL;

	NEED_DEVICE();
	REQUIRE(bo_new(g_dev, 4096, 0, 0, 0, &bo) == 0);
	bin = syncobj_new(g_dev, false);
	tl = syncobj_new(g_dev, false);
	for (int run = 0; run < 2; run++) {
		uint64_t ts1, ts2, cycles;
		int err;

		for (int i = 0; i < 8; i++)
			bo_put64(bo, DATA + 8 * i,
				  (i & 1) ? GUARD64 : FILL64);
		for (int i = 0; i < NJOBS; i++) {
			uint64_t off = (uint64_t)i * MALI_JOB_SLOT_SIZE;
			uint64_t next = i + 1 < NJOBS
						? bo_gpu(bo, off +
							  MALI_JOB_SLOT_SIZE)
						: 0;

			if (jobs[i].type == MDG_JOB_TYPE_WRITE_VALUE)
				mali_pack_write_value_job(
					bo_cpu(bo, off), i + 1, jobs[i].dep1,
					jobs[i].dep2, next,
					bo_gpu(bo, DATA + 8 * jobs[i].slot),
					jobs[i].value_type);
			else
				mali_pack_null_job(bo_cpu(bo, off), i + 1,
						   jobs[i].dep1, jobs[i].dep2,
						   next);
		}
		memset(out, 0, sizeof(out));
		out[0].handle = bin;
		out[1].handle = tl;
		out[1].flags = SLEIPNIR_SYNC_OP_TIMELINE;
		out[1].point = 5 + 5 * (uint64_t)run;
		memset(&ref, 0, sizeof(ref));
		ref.handle = bo->handle;
		ref.flags = SLEIPNIR_BO_REF_WRITE;
		memset(&s, 0, sizeof(s));
		s.jc = bo->va;
		s.requirements = REQ_SLOT0;
		s.bos = OBJ_ARRAY(&ref, 1);
		s.out_syncs = OBJ_ARRAY(out, 2);
		err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
		CHECK_ERRNO(err, 0);
		if (err)
			break;
		CHECK_ERRNO(sl_syncobj_timeline_wait(g_dev, tl, out[1].point,
						     WAIT_MS), 0);
		CHECK_ERRNO(sl_syncobj_wait(g_dev, &bin, 1, true, WAIT_MS), 0);
		CHECK_ERRNO(bo_wait(g_dev, bo->handle, deadline_ns(WAIT_MS)),
			    0);
		CHECK_EQ(fence_status(g_dev, bin), 1);
		point = 0;
		CHECK(drmSyncobjQuery(sl_drm_fd(g_dev), &tl, &point, 1) == 0);
		CHECK_EQ(point, out[1].point);
		for (int i = 0; i < NJOBS; i++) {
			uint32_t st = mali_job_exception_status(
				bo_cpu(bo, i * MALI_JOB_SLOT_SIZE));

			if (st != MDG_EXCEPTION_DONE)
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "job %d: exception status %#x, "
					      "expected DONE",
					      i + 1, st);
		}
		ts1 = bo_get64(bo, DATA + 16);
		cycles = bo_get64(bo, DATA + 32);
		ts2 = bo_get64(bo, DATA + 48);
		printf("  run %d: timestamps %#llx, %#llx; cycles %#llx\n",
		       run, (unsigned long long)ts1, (unsigned long long)ts2,
		       (unsigned long long)cycles);
		CHECK_EQ(bo_get64(bo, DATA), 0);
		CHECK(ts1 != FILL64 && ts1 != 0);
		CHECK(ts2 != FILL64 && ts2 != 0);
		CHECK(cycles != FILL64 && cycles != 0);
		CHECK(ts2 >= ts1); /* job 6 depends on job 2 */
		CHECK(ts1 >= prev_ts);
		CHECK(cycles >= prev_cycles);
		for (int i = 1; i < 8; i += 2)
			CHECK_EQ(bo_get64(bo, DATA + 8 * i), GUARD64);
		prev_ts = ts2;
		prev_cycles = cycles;
	}
	sl_syncobj_destroy(g_dev, bin);
	sl_syncobj_destroy(g_dev, tl);
	bo_free(&bo);
}

/*
 * The WRITE_VALUE timestamp counts at TIMESTAMP_FREQUENCY: two timestamps
 * taken about 300 ms apart by the CPU's clock differ by about 0.3 s worth
 * of ticks. The CPU times bracketing each job bound the true interval.
 */
TEST(submit_timestamp_rate)
{
	struct sl_bo *bo = NULL;
	uint64_t c0, c1, c2, c3, ts1, ts2, freq;
	double lo_s, hi_s, gpu_s;

	NEED_DEVICE();
	REQUIRE(g_params_ok);
	freq = PARAM(TIMESTAMP_FREQUENCY);
	REQUIRE(freq != 0);
	REQUIRE(bo_new(g_dev, 4096, 0, 0, 0, &bo) == 0);
	c0 = now_ns();
	CHECK_EQ(run_write_value(g_dev, bo, bo->va + 0x800,
				 MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP, &bo->handle,
				 1),
		 1);
	c1 = now_ns();
	usleep(300000);
	c2 = now_ns();
	CHECK_EQ(run_write_value(g_dev, bo, bo->va + 0x808,
				 MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP, &bo->handle,
				 1),
		 1);
	c3 = now_ns();
	ts1 = bo_get64(bo, 0x800);
	ts2 = bo_get64(bo, 0x808);
	lo_s = (double)(c2 - c1) / 1e9;
	hi_s = (double)(c3 - c0) / 1e9;
	gpu_s = ts2 > ts1 ? (double)(ts2 - ts1) / (double)freq : -1.0;
	printf("  GPU timestamps %#llx -> %#llx: %.3f s at %llu Hz; CPU "
	       "bounds [%.3f, %.3f] s\n",
	       (unsigned long long)ts1, (unsigned long long)ts2, gpu_s,
	       (unsigned long long)freq, lo_s, hi_s);
	CHECK(gpu_s >= lo_s * 0.95 - 0.002);
	CHECK(gpu_s <= hi_s * 1.05 + 0.002);
	bo_free(&bo);
}

/* --- argument errors ----------------------------------------------------- */

/*
 * A valid submit: the NULL job at jc, one BO (written), a signalled binary
 * in-sync, a binary out-sync and point 1 of a timeline out-sync. Each case
 * breaks one thing and must fail with its errno and change nothing: the
 * job does not run, the out-syncs stay unsignalled.
 */
struct submit_case {
	struct drm_sleipnir_bo_ref bos[1];
	struct drm_sleipnir_sync_op in[1];
	struct drm_sleipnir_sync_op out[2];
	struct drm_sleipnir_submit s;
};

struct submit_env {
	struct sl_drm *dev;
	struct sl_bo *bo;
	uint32_t in_sig, out_bin, out_tl;
	uint64_t bad_ptr; /* an unmapped user address */
};

static void case_init(struct submit_case *c, const struct submit_env *e)
{
	memset(c, 0, sizeof(*c));
	c->bos[0].handle = e->bo->handle;
	c->bos[0].flags = SLEIPNIR_BO_REF_WRITE;
	c->in[0].handle = e->in_sig;
	c->out[0].handle = e->out_bin;
	c->out[1].handle = e->out_tl;
	c->out[1].flags = SLEIPNIR_SYNC_OP_TIMELINE;
	c->out[1].point = 1;
	c->s.jc = e->bo->va;
	c->s.requirements = REQ_SLOT0;
	c->s.bos = OBJ_ARRAY(c->bos, 1);
	c->s.in_syncs = OBJ_ARRAY(c->in, 1);
	c->s.out_syncs = OBJ_ARRAY(c->out, 2);
}

static void check_unchanged(const struct submit_env *e, const char *what)
{
	uint64_t point = 0;
	uint32_t tl = e->out_tl;

	if (syncobj_signalled(e->dev, e->out_bin))
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "%s: the binary out-sync was signalled", what);
	if (drmSyncobjQuery(sl_drm_fd(e->dev), &tl, &point, 1) || point != 0)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "%s: the timeline out-sync moved to %llu", what,
			      (unsigned long long)point);
	if (mali_job_exception_status(bo_cpu(e->bo, 0)) !=
	    MDG_EXCEPTION_OK)
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s: the job ran", what);
}

static void expect_submit(const struct submit_env *e, struct submit_case *c,
			  int want, const char *what)
{
	int err = sl_drm_ioctl(e->dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &c->s);

	if (err != want)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "SUBMIT with %s: %s, expected %s", what,
			      err ? strerror(-err) : "success",
			      strerror(-want));
	if (!err) {
		/* It ran after all: wait, so later cases start clean. */
		sl_syncobj_wait(e->dev, (uint32_t *)&e->out_bin, 1, true,
				WAIT_MS);
		return;
	}
	check_unchanged(e, what);
}

#define BAD(want, what, ...)                                                   \
	do {                                                                   \
		case_init(&c, &e);                                             \
		__VA_ARGS__;                                                   \
		expect_submit(&e, &c, want, what);                             \
	} while (0)

TEST(submit_errors)
{
	struct submit_env e;
	struct submit_case c;
	struct drm_sleipnir_bo_ref *many_bos;
	struct drm_sleipnir_sync_op *many_syncs;
	void *page;
	int err;

	NEED_DEVICE();
	memset(&e, 0, sizeof(e));
	e.dev = reopen();
	REQUIRE(e.dev);
	if (bo_new(e.dev, 4096, 0, 0, 0, &e.bo)) {
		sl_drm_close(e.dev);
		REQUIRE(!"BO");
	}
	mali_pack_null_job(bo_cpu(e.bo, 0), 1, 0, 0, 0);
	e.in_sig = syncobj_new(e.dev, true);
	e.out_bin = syncobj_new(e.dev, false);
	if (sl_syncobj_create(e.dev, false, &e.out_tl))
		e.out_tl = 0;
	page = mmap(NULL, g_page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page != MAP_FAILED) {
		e.bad_ptr = U64_PTR(page);
		munmap(page, g_page);
	}
	many_bos = calloc(4097, sizeof(*many_bos));
	many_syncs = calloc(4097, sizeof(*many_syncs));
	if (!e.in_sig || !e.out_bin || !e.out_tl || !e.bad_ptr || !many_bos ||
	    !many_syncs) {
		CHECK(!"set-up");
		goto out;
	}
	for (int i = 0; i < 4097; i++) {
		many_bos[i].handle = e.bo->handle;
		many_syncs[i].handle = e.in_sig;
	}
	check_unchanged(&e, "before the cases");

	BAD(-EINVAL, "jc 0", c.s.jc = 0);
	BAD(-EINVAL, "jc + 8", c.s.jc += 8);
	BAD(-EINVAL, "jc + 32", c.s.jc += 32);
	BAD(-EINVAL, "jc + 63", c.s.jc += 63);
	BAD(-EINVAL, "requirement bit 0", c.s.requirements |= 1u << 0);
	BAD(-EINVAL, "requirement bit 10", c.s.requirements |= 1u << 10);
	BAD(-EINVAL, "requirement bit 31", c.s.requirements |= 1u << 31);
	BAD(-EINVAL, "FRAGMENT | COMPUTE (no slot has both)",
	    c.s.requirements = SLEIPNIR_REQ_FRAGMENT | SLEIPNIR_REQ_COMPUTE);
	BAD(-EINVAL, "flags 1", c.s.flags = 1);
	BAD(-EINVAL, "flags 1 << 31", c.s.flags = 1u << 31);
	BAD(-EINVAL, "pad 1", c.s.pad = 1);

	BAD(-EFAULT, "in_syncs at an unmapped address",
	    c.s.in_syncs.array = e.bad_ptr);
	BAD(-EFAULT, "in_syncs at address 8", c.s.in_syncs.array = 8);
	BAD(-EFAULT, "out_syncs at an unmapped address",
	    c.s.out_syncs.array = e.bad_ptr);
	BAD(-EFAULT, "bos at an unmapped address", c.s.bos.array = e.bad_ptr);
	BAD(-EFAULT, "bos at address 8", c.s.bos.array = 8);

	BAD(-ENOENT, "BO handle 0xdead", c.bos[0].handle = 0xdead);
	BAD(-ENOENT, "BO handle 0", c.bos[0].handle = 0);
	BAD(-ENOENT, "in-sync handle 0xdead", c.in[0].handle = 0xdead);
	BAD(-ENODEV, "binary out-sync handle 0xdead",
	    c.out[0].handle = 0xdead);
	BAD(-ENODEV, "timeline out-sync handle 0xdead",
	    c.out[1].handle = 0xdead);

	BAD(-EINVAL, "BO ref flag 1 << 1", c.bos[0].flags |= 1u << 1);
	BAD(-EINVAL, "BO ref flag 1 << 31", c.bos[0].flags |= 1u << 31);
	BAD(-EINVAL, "in-sync flag 1 << 1", c.in[0].flags |= 1u << 1);
	BAD(-EINVAL, "out-sync flag 1 << 31", c.out[0].flags |= 1u << 31);
	BAD(-EINVAL, "binary in-sync with point 1", c.in[0].point = 1);
	BAD(-EINVAL, "binary out-sync with point 1", c.out[0].point = 1);
	BAD(-EINVAL, "timeline out-sync with point 0", c.out[1].point = 0);
	BAD(-EINVAL, "timeline in-sync with point 0",
	    c.in[0].handle = e.out_tl;
	    c.in[0].flags = SLEIPNIR_SYNC_OP_TIMELINE);

	BAD(-EINVAL, "bos stride 0", c.s.bos.stride = 0);
	BAD(-EINVAL, "in_syncs stride 0", c.s.in_syncs.stride = 0);
	BAD(-EINVAL, "out_syncs stride 0", c.s.out_syncs.stride = 0);

	BAD(-EINVAL, "the same BO listed twice",
	    c.s.bos = OBJ_ARRAY(many_bos, 2));
	BAD(-EINVAL, "4097 BOs", c.s.bos = OBJ_ARRAY(many_bos, 4097));
	BAD(-EINVAL, "4097 in-syncs",
	    c.s.in_syncs = OBJ_ARRAY(many_syncs, 4097));
	BAD(-EINVAL, "4097 out-syncs",
	    c.s.out_syncs = OBJ_ARRAY(many_syncs, 4097));

	/* After all that, the valid submit works and signals both. */
	case_init(&c, &e);
	err = sl_drm_ioctl(e.dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &c.s);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_EQ(wait_fence_status(e.dev, e.out_bin, WAIT_MS), 1);
		CHECK_ERRNO(sl_syncobj_timeline_wait(e.dev, e.out_tl, 1,
						     WAIT_MS), 0);
		CHECK_EQ(mali_job_exception_status(bo_cpu(e.bo, 0)),
			 MDG_EXCEPTION_DONE);
	}
out:
	free(many_bos);
	free(many_syncs);
	sl_syncobj_destroy(e.dev, e.in_sig);
	sl_syncobj_destroy(e.dev, e.out_bin);
	sl_syncobj_destroy(e.dev, e.out_tl);
	bo_free(&e.bo);
	sl_drm_close(e.dev);
}

/*
 * Object arrays whose stride is not the size this kernel knows: larger with
 * a zero tail is accepted, with a non-zero tail rejected (EINVAL, nothing
 * changed); smaller means the missing fields are zero.
 */
TEST(submit_strides)
{
	struct submit_env e;
	struct submit_case c;
	/* Elements padded with 8 extra bytes. */
	struct {
		struct drm_sleipnir_bo_ref ref;
		uint64_t tail;
	} wide_bo[1];
	struct {
		struct drm_sleipnir_sync_op op;
		uint64_t tail;
	} wide_in[1], wide_out[1];
	uint32_t narrow_bo[2];     /* stride 4: handle only */
	uint32_t narrow_sync[2][2]; /* stride 8: handle, flags */

	NEED_DEVICE();
	memset(&e, 0, sizeof(e));
	e.dev = reopen();
	REQUIRE(e.dev);
	if (bo_new(e.dev, 4096, 0, 0, 0, &e.bo)) {
		sl_drm_close(e.dev);
		REQUIRE(!"BO");
	}
	e.in_sig = syncobj_new(e.dev, true);
	e.out_bin = syncobj_new(e.dev, false);
	if (sl_syncobj_create(e.dev, false, &e.out_tl))
		e.out_tl = 0;
	REQUIRE(e.in_sig && e.out_bin && e.out_tl);

	memset(wide_bo, 0, sizeof(wide_bo));
	wide_bo[0].ref.handle = e.bo->handle;
	wide_bo[0].ref.flags = SLEIPNIR_BO_REF_WRITE;
	memset(wide_in, 0, sizeof(wide_in));
	wide_in[0].op.handle = e.in_sig;
	memset(wide_out, 0, sizeof(wide_out));
	wide_out[0].op.handle = e.out_bin;

	/* Non-zero tails first: rejected, nothing changes. */
	mali_pack_null_job(bo_cpu(e.bo, 0), 1, 0, 0, 0);
	wide_bo[0].tail = 1;
	BAD(-EINVAL, "wide bos with a non-zero tail",
	    c.s.bos = OBJ_ARRAY(wide_bo, 1));
	wide_bo[0].tail = 0;
	wide_in[0].tail = 1ull << 63;
	BAD(-EINVAL, "wide in_syncs with a non-zero tail",
	    c.s.in_syncs = OBJ_ARRAY(wide_in, 1));
	wide_in[0].tail = 0;
	wide_out[0].tail = 0x100;
	BAD(-EINVAL, "wide out_syncs with a non-zero tail",
	    c.s.out_syncs = OBJ_ARRAY(wide_out, 1));
	wide_out[0].tail = 0;

	/* Zero tails: accepted, the job runs and signals. */
	case_init(&c, &e);
	c.s.bos = OBJ_ARRAY(wide_bo, 1);
	c.s.in_syncs = OBJ_ARRAY(wide_in, 1);
	c.s.out_syncs = OBJ_ARRAY(wide_out, 1);
	CHECK_ERRNO(sl_drm_ioctl(e.dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &c.s), 0);
	CHECK_EQ(wait_fence_status(e.dev, e.out_bin, WAIT_MS), 1);
	CHECK_EQ(mali_job_exception_status(bo_cpu(e.bo, 0)),
		 MDG_EXCEPTION_DONE);
	CHECK_ERRNO(bo_wait(e.dev, e.bo->handle, deadline_ns(WAIT_MS)), 0);

	/* Narrow elements: flags and point read as zero. */
	mali_pack_null_job(bo_cpu(e.bo, 0), 1, 0, 0, 0);
	CHECK(drmSyncobjReset(sl_drm_fd(e.dev), &e.out_bin, 1) == 0);
	narrow_bo[0] = e.bo->handle;
	narrow_bo[1] = 0;
	narrow_sync[0][0] = e.in_sig;
	narrow_sync[0][1] = 0;
	narrow_sync[1][0] = e.out_bin;
	narrow_sync[1][1] = 0;
	case_init(&c, &e);
	c.s.bos.stride = 4;
	c.s.bos.array = U64_PTR(narrow_bo);
	c.s.in_syncs.stride = 8;
	c.s.in_syncs.array = U64_PTR(&narrow_sync[0]);
	c.s.out_syncs.stride = 8;
	c.s.out_syncs.count = 1;
	c.s.out_syncs.array = U64_PTR(&narrow_sync[1]);
	CHECK_ERRNO(sl_drm_ioctl(e.dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &c.s), 0);
	CHECK_EQ(wait_fence_status(e.dev, e.out_bin, WAIT_MS), 1);
	CHECK_EQ(mali_job_exception_status(bo_cpu(e.bo, 0)),
		 MDG_EXCEPTION_DONE);

	sl_syncobj_destroy(e.dev, e.in_sig);
	sl_syncobj_destroy(e.dev, e.out_bin);
	sl_syncobj_destroy(e.dev, e.out_tl);
	bo_free(&e.bo);
	sl_drm_close(e.dev);
}

/* --- explicit and implicit dependencies ---------------------------------- */

/* A long chain on the gated slot; its last job writes a timestamp. */
static int submit_long(struct sl_drm *dev, struct sl_bo *jobs,
		       uint64_t scratch_va,
		       uint64_t ts_va, const uint32_t *bos, unsigned int nbos,
		       bool write, uint32_t in_sync, uint32_t out_sync)
{
	fill_long_chain(jobs, LONG_CHAIN, scratch_va, ts_va);
	return submit_simple(dev, jobs->va, REQ_GATED, bos, nbos, write,
			     in_sync, out_sync, 0);
}

/* A one-job chain writing a timestamp to ts_va. */
static void pack_ts_job(struct sl_bo *jobs, uint64_t ts_va)
{
	mali_pack_write_value_job(bo_cpu(jobs, 0), 1, 0, 0, 0, ts_va,
				  MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP);
}

struct order_env {
	struct sl_drm *dev;
	struct sl_bo *chain, *one, *data;
};

static bool order_env_new(struct order_env *o, struct sl_drm *dev)
{
	memset(o, 0, sizeof(*o));
	o->dev = dev;
	if (bo_new(dev, LONG_CHAIN * MALI_JOB_SLOT_SIZE, 0, 0, 0, &o->chain) ||
	    bo_new(dev, 4096, 0, 0, 0, &o->one) ||
	    bo_new(dev, 4096, 0, 0, 0, &o->data)) {
		bo_free(&o->chain);
		bo_free(&o->one);
		return false;
	}
	for (int i = 0; i < 8; i++)
		bo_put64(o->data, 8 * i, FILL64);
	return true;
}

static void order_env_free(struct order_env *o)
{
	bo_free(&o->chain);
	bo_free(&o->one);
	bo_free(&o->data);
}

/*
 * Control: without any dependency the one-job chain on the ungated slot
 * finishes before the long chain's end. Not a check (the order is then
 * free), but it shows the ordering tests below can tell the difference.
 */
TEST(submit_order_control)
{
	struct order_env o;
	struct gate g;
	uint32_t sa, sb, bos[2];
	uint64_t t0;

	NEED_DEVICE();
	REQUIRE(order_env_new(&o, g_dev));
	sa = syncobj_new(g_dev, false);
	sb = syncobj_new(g_dev, false);
	bos[0] = o.chain->handle;
	t0 = now_ns();
	gate_open(&g, 300);
	CHECK_ERRNO(submit_long(g_dev, o.chain, bo_gpu(o.data, 56),
				bo_gpu(o.data, 0), bos, 1, true, 0, sa),
		    0);
	pack_ts_job(o.one, bo_gpu(o.data, 8));
	bos[0] = o.one->handle;
	CHECK_ERRNO(submit_simple(g_dev, o.one->va, REQ_UNGATED, bos, 1, true,
				  0,
				  sb, 0),
		    0);
	CHECK_EQ(wait_fence_status(g_dev, sb, WAIT_MS), 1);
	CHECK_EQ(wait_fence_status(g_dev, sa, WAIT_MS), 1);
	gate_close(&g);
	printf("  %sA: %d jobs, done after %llu ms; the independent B %s\n",
	       g.on ? "gate + " : "", LONG_CHAIN,
	       (unsigned long long)ms_since(t0),
	       bo_get64(o.data, 8) < bo_get64(o.data, 0)
		       ? "overtook it"
		       : "did NOT overtake it (the ordering checks below "
			 "cannot fail)");
	sl_syncobj_destroy(g_dev, sa);
	sl_syncobj_destroy(g_dev, sb);
	order_env_free(&o);
}

/*
 * Binary syncobj across files: A (file 1, long chain) signals SA; SA is
 * shared with file 2 as an dev; B (file 2, ungated slot) waits on it. B's
 * timestamp must not precede A's last one.
 */
TEST(syncobj_binary_chain)
{
	struct order_env o1, o2;
	struct gate g;
	uint32_t sa, sa2 = 0, sb, bos[1];
	uint64_t ts_a, ts_b;
	struct sl_drm *dev2;
	int sfd = -1, err;

	NEED_DEVICE();
	dev2 = reopen();
	REQUIRE(dev2);
	if (!order_env_new(&o1, g_dev)) {
		sl_drm_close(dev2);
		REQUIRE(!"BOs");
	}
	if (!order_env_new(&o2, dev2)) {
		order_env_free(&o1);
		sl_drm_close(dev2);
		REQUIRE(!"BOs");
	}
	sa = syncobj_new(g_dev, false);
	sb = syncobj_new(dev2, false);
	if (drmSyncobjHandleToFD(sl_drm_fd(g_dev), sa, &sfd) ||
	    drmSyncobjFDToHandle(sl_drm_fd(dev2), sfd, &sa2)) {
		CHECK(!"share the syncobj");
		goto out;
	}
	bos[0] = o1.chain->handle;
	gate_open(&g, 300);
	err = submit_long(g_dev, o1.chain, bo_gpu(o1.data, 56),
			  bo_gpu(o1.data, 0), bos, 1, true, 0, sa);
	CHECK_ERRNO(err, 0);
	pack_ts_job(o2.one, bo_gpu(o2.data, 0));
	bos[0] = o2.one->handle;
	err = submit_simple(dev2, o2.one->va, REQ_UNGATED, bos, 1, true, sa2,
			    sb,
			    0);
	CHECK_ERRNO(err, 0);
	CHECK_EQ(wait_fence_status(dev2, sb, WAIT_MS), 1);
	/* B done means A done. */
	CHECK(syncobj_signalled(g_dev, sa));
	CHECK_EQ(wait_fence_status(g_dev, sa, WAIT_MS), 1);
	ts_a = bo_get64(o1.data, 0);
	ts_b = bo_get64(o2.data, 0);
	printf("  A ended at %#llx, B ran at %#llx\n", (unsigned long long)ts_a,
	       (unsigned long long)ts_b);
	CHECK(ts_a != FILL64 && ts_b != FILL64);
	CHECK(ts_b >= ts_a);
	gate_close(&g);
out:
	if (sfd >= 0)
		close(sfd);
	sl_syncobj_destroy(dev2, sa2);
	sl_syncobj_destroy(g_dev, sa);
	sl_syncobj_destroy(dev2, sb);
	order_env_free(&o2);
	order_env_free(&o1);
	sl_drm_close(dev2);
}

/*
 * Timeline: A (gated slot, long) signals point 1; B (ungated slot) waits
 * for 1 and signals 2; C (gated slot) waits for 2 and signals 3. Waiting
 * for point 3 (with a timeout) means all three ran, in order.
 */
TEST(syncobj_timeline_chain)
{
	struct drm_sleipnir_sync_op in, out;
	struct drm_sleipnir_bo_ref ref;
	struct drm_sleipnir_submit s;
	struct order_env o;
	struct sl_bo *c_jobs = NULL;
	struct gate g;
	uint32_t tl = 0;
	uint64_t point = 0, ts_a, ts_b, ts_c;
	int err;

	NEED_DEVICE();
	REQUIRE(order_env_new(&o, g_dev));
	if (bo_new(g_dev, 4096, 0, 0, 0, &c_jobs)) {
		order_env_free(&o);
		REQUIRE(!"BO");
	}
	if (sl_syncobj_create(g_dev, false, &tl)) {
		CHECK(!"timeline syncobj");
		goto out;
	}
	/* A: long chain, out point 1. */
	gate_open(&g, 300);
	fill_long_chain(o.chain, LONG_CHAIN, bo_gpu(o.data, 56),
			bo_gpu(o.data, 0));
	memset(&out, 0, sizeof(out));
	out.handle = tl;
	out.flags = SLEIPNIR_SYNC_OP_TIMELINE;
	out.point = 1;
	memset(&ref, 0, sizeof(ref));
	ref.handle = o.chain->handle;
	memset(&s, 0, sizeof(s));
	s.jc = o.chain->va;
	s.requirements = REQ_GATED;
	s.bos = OBJ_ARRAY(&ref, 1);
	s.out_syncs = OBJ_ARRAY(&out, 1);
	err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
	CHECK_ERRNO(err, 0);

	/* B: ungated slot, waits for 1, signals 2. */
	pack_ts_job(o.one, bo_gpu(o.data, 8));
	memset(&in, 0, sizeof(in));
	in.handle = tl;
	in.flags = SLEIPNIR_SYNC_OP_TIMELINE;
	in.point = 1;
	out.point = 2;
	ref.handle = o.one->handle;
	s.jc = o.one->va;
	s.requirements = REQ_UNGATED;
	s.in_syncs = OBJ_ARRAY(&in, 1);
	err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
	CHECK_ERRNO(err, 0);

	/* C: gated slot, waits for 2, signals 3. */
	pack_ts_job(c_jobs, bo_gpu(o.data, 16));
	in.point = 2;
	out.point = 3;
	ref.handle = c_jobs->handle;
	s.jc = c_jobs->va;
	s.requirements = REQ_GATED;
	err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
	CHECK_ERRNO(err, 0);

	CHECK_ERRNO(sl_syncobj_timeline_wait(g_dev, tl, 3, WAIT_MS), 0);
	gate_close(&g);
	CHECK(drmSyncobjQuery(sl_drm_fd(g_dev), &tl, &point, 1) == 0);
	CHECK_EQ(point, 3);
	ts_a = bo_get64(o.data, 0);
	ts_b = bo_get64(o.data, 8);
	ts_c = bo_get64(o.data, 16);
	printf("  A %#llx, B %#llx, C %#llx\n", (unsigned long long)ts_a,
	       (unsigned long long)ts_b, (unsigned long long)ts_c);
	CHECK(ts_a != FILL64 && ts_b != FILL64 && ts_c != FILL64);
	CHECK(ts_b >= ts_a);
	CHECK(ts_c >= ts_b);
	/* Each point's fence is the job's: a binary copy reads good. */
	{
		uint32_t bin = syncobj_new(g_dev, false);

		if (bin && drmSyncobjTransfer(sl_drm_fd(g_dev), bin, 0, tl, 2,
					      0) == 0)
			CHECK_EQ(fence_status(g_dev, bin), 1);
		else
			CHECK(!"transfer point 2 to a binary syncobj");
		sl_syncobj_destroy(g_dev, bin);
	}
out:
	sl_syncobj_destroy(g_dev, tl);
	bo_free(&c_jobs);
	order_env_free(&o);
}

/*
 * Implicit dependencies through the BO list, on one file and two slots:
 *  1. write after write: B (ungated) writes D after A (gated, long) did;
 *  2. read after write: B only reads D, still waits for writer A;
 *  3. write after read: B writes D after A (long) only read it.
 * In each case B's timestamp, written into B's own BO, must not precede
 * the timestamp A's chain ends with.
 */
TEST(implicit_fences)
{
	static const struct {
		bool a_writes, b_writes;
		const char *what;
	} cases[] = {
		{ true, true, "write after write" },
		{ true, false, "read after write" },
		{ false, true, "write after read" },
	};
	struct order_env o;
	struct sl_bo *d = NULL;

	NEED_DEVICE();
	REQUIRE(order_env_new(&o, g_dev));
	if (bo_new(g_dev, 4096, 0, 0, 0, &d)) {
		order_env_free(&o);
		REQUIRE(!"BO");
	}
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		struct drm_sleipnir_bo_ref ra[3], rb[2];
		struct drm_sleipnir_sync_op out;
		struct drm_sleipnir_submit s;
		uint32_t sb = syncobj_new(g_dev, false);
		uint64_t ts_a, ts_b;
		struct gate g;
		int err;

		bo_put64(o.data, 0, FILL64);
		gate_open(&g, 300);
		/* A: reads its jobs, writes its timestamp into data, and
		 * names D (read or write) without touching it. */
		fill_long_chain(o.chain, LONG_CHAIN, bo_gpu(o.data, 56),
				bo_gpu(o.data, 0));
		memset(ra, 0, sizeof(ra));
		ra[0].handle = o.chain->handle;
		ra[1].handle = o.data->handle;
		ra[1].flags = SLEIPNIR_BO_REF_WRITE;
		ra[2].handle = d->handle;
		ra[2].flags = cases[i].a_writes ? SLEIPNIR_BO_REF_WRITE : 0;
		memset(&s, 0, sizeof(s));
		s.jc = o.chain->va;
		s.requirements = REQ_GATED;
		s.bos = OBJ_ARRAY(ra, 3);
		err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
		CHECK_ERRNO(err, 0);
		/* B: one job, ungated, its timestamp into its own BO. */
		pack_ts_job(o.one, bo_gpu(o.one, 0x800));
		bo_put64(o.one, 0x800, FILL64);
		memset(rb, 0, sizeof(rb));
		rb[0].handle = o.one->handle;
		rb[0].flags = SLEIPNIR_BO_REF_WRITE;
		rb[1].handle = d->handle;
		rb[1].flags = cases[i].b_writes ? SLEIPNIR_BO_REF_WRITE : 0;
		memset(&out, 0, sizeof(out));
		out.handle = sb;
		memset(&s, 0, sizeof(s));
		s.jc = o.one->va;
		s.requirements = REQ_UNGATED;
		s.bos = OBJ_ARRAY(rb, 2);
		s.out_syncs = OBJ_ARRAY(&out, 1);
		err = sl_drm_ioctl(g_dev, DRM_IOCTL_SLEIPNIR_SUBMIT, &s);
		CHECK_ERRNO(err, 0);
		CHECK_EQ(wait_fence_status(g_dev, sb, WAIT_MS), 1);
		gate_close(&g);
		CHECK_ERRNO(bo_wait(g_dev, d->handle, deadline_ns(WAIT_MS)), 0);
		CHECK_ERRNO(bo_wait(g_dev, o.data->handle,
				    deadline_ns(WAIT_MS)),
			    0);
		ts_a = bo_get64(o.data, 0);
		ts_b = bo_get64(o.one, 0x800);
		printf("  %s: A ended at %#llx, B ran at %#llx\n",
		       cases[i].what, (unsigned long long)ts_a,
		       (unsigned long long)ts_b);
		CHECK(ts_a != FILL64 && ts_b != FILL64);
		if (ts_b < ts_a)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "%s: B ran before A had finished",
				      cases[i].what);
		sl_syncobj_destroy(g_dev, sb);
	}
	bo_free(&d);
	order_env_free(&o);
}

/* --- fence errors -------------------------------------------------------- */

/*
 * A chain the GPU rejects (a WRITE_VALUE of an unknown type: the model's
 * JOB_CONFIG_FAULT, 0x40) ends its fence with -EIO; GET_FAULT says JOB
 * with that status and the chain's jc; the job's header holds the code and
 * a job that depends on it does not run.
 */
TEST(fence_error_job_fault)
{
	struct drm_sleipnir_get_fault f;
	struct sl_bo *bo = NULL;
	uint32_t sync;
	struct sl_drm *dev;
	int err;

	NEED_DEVICE();
	dev = reopen();
	REQUIRE(dev);
	if (bo_new(dev, 4096, 0, 0, 0, &bo)) {
		sl_drm_close(dev);
		REQUIRE(!"BO");
	}
	bo_put64(bo, 0x800, FILL64);
	bo_put64(bo, 0x808, FILL64);
	mali_pack_write_value_job(bo_cpu(bo, 0), 1, 0, 0, bo->va + 64,
				  bo->va + 0x800, BAD_VALUE_TYPE);
	mali_pack_write_value_job(bo_cpu(bo, 64), 2, 1, 0, 0, bo->va + 0x808,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	sync = syncobj_new(dev, false);
	err = submit_simple(dev, bo->va, REQ_SLOT0, &bo->handle, 1, true, 0,
			    sync,
			    0);
	CHECK_ERRNO(err, 0);
	if (!err) {
		CHECK_EQ(wait_fence_status(dev, sync, WAIT_MS), -EIO);
		CHECK_ERRNO(get_fault(dev, SLEIPNIR_GET_FAULT_CLEAR, &f), 0);
		CHECK_EQ(f.count, 1);
		CHECK_EQ(f.kind, SLEIPNIR_FAULT_JOB);
		CHECK_EQ(f.exception_code, MDG_EXCEPTION_JOB_CONFIG_FAULT);
		CHECK_EQ(f.jc, bo->va);
		CHECK_EQ(f.address, 0);
		CHECK_EQ(f.access, 0);
		CHECK_EQ(mali_job_exception_status(bo_cpu(bo, 0)),
			 MDG_EXCEPTION_JOB_CONFIG_FAULT);
		CHECK(mali_job_exception_status(bo_cpu(bo, 64)) !=
		      MDG_EXCEPTION_DONE);
		CHECK_EQ(bo_get64(bo, 0x800), FILL64);
		CHECK_EQ(bo_get64(bo, 0x808), FILL64);
	}
	sl_syncobj_destroy(dev, sync);
	bo_free(&bo);
	check_good_job(dev, REQ_SLOT0, "after a job fault and its clear");
	sl_drm_close(dev);
}

void run_submit_tests(void)
{
	RUN(submit_null_job);
	RUN(submit_write_value_chain);
	RUN(submit_timestamp_rate);
	RUN(submit_errors);
	RUN(submit_strides);
	RUN(submit_order_control);
	RUN(syncobj_binary_chain);
	RUN(syncobj_timeline_chain);
	RUN(implicit_fences);
	RUN(fence_error_job_fault);
}
