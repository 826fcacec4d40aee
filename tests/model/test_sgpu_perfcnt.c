/* SPDX-License-Identifier: MIT */
/*
 * Performance counters: panfrost's enable/dump sequence, the dump layout
 * for V5 (T860) and V4 (T720) parts, enable masks, PERFCNT_CLEAR, and
 * dumps that cannot be written.
 */
#include <stdlib.h>

#include "check.h"
#include "fake_host.h"
#include "mesa_example_shader.h"

CHECK_MAIN_STATE("model-perfcnt");

#define RAM_BASE 0x40000000ull
#define RAM_SIZE (4u << 20)
#define VA 0x2000000ull
#define AS_NR 3
#define JS 1

static struct fake_host fh;
static uint64_t root, buf, jobs;

/* A probed GPU of @cores shader cores (0: 4) with the buffer mapped. */
static bool setup_cores(enum sgpu_product product, unsigned int cores)
{
	fh_init(&fh, RAM_BASE, RAM_SIZE);
	fh.shader_cores = cores;
	if (!fh_create(&fh, product, false) || !fh_panfrost_probe(&fh))
		return false;
	root = fh_pt_new(&fh);
	buf = fh_alloc(&fh, 0x10000, 4096);
	fh_map(&fh, root, VA, buf, 0x10000, PTE_RWNX);
	jobs = buf + 0x8000;
	fh_as_enable(&fh, AS_NR, root);
	return true;
}

static bool setup(enum sgpu_product product)
{
	return setup_cores(product, 0);
}

/* Panfrost's enable: clear, clean+invalidate, then configure. */
static bool perfcnt_enable(uint32_t en)
{
	wr(&fh, GPU_INT_CLEAR, GPU_IRQ_CLEAN_CACHES_COMPLETED |
	   GPU_IRQ_PERFCNT_SAMPLE_COMPLETED);
	wr(&fh, GPU_CMD, GPU_CMD_PERFCNT_CLEAR);
	wr(&fh, GPU_CMD, GPU_CMD_CLEAN_INV_CACHES);
	if (!(rd(&fh, GPU_INT_STAT) & GPU_IRQ_CLEAN_CACHES_COMPLETED))
		return false;
	wr(&fh, GPU_INT_CLEAR, GPU_IRQ_CLEAN_CACHES_COMPLETED);
	wr(&fh, GPU_PRFCNT_JM_EN, en);
	wr(&fh, GPU_PRFCNT_SHADER_EN, en);
	wr(&fh, GPU_PRFCNT_MMU_L2_EN, en);
	wr(&fh, GPU_PRFCNT_TILER_EN, en);
	wr(&fh, GPU_PERFCNT_CONFIG, AS_NR << 4 | 1);
	return true;
}

/* Panfrost's dump: SAMPLE, then CLEAN_CACHES from the IRQ handler. */
static bool perfcnt_dump(void)
{
	uint32_t stat;

	wr(&fh, GPU_PERFCNT_BASE_LO, (uint32_t)VA);
	wr(&fh, GPU_PERFCNT_BASE_HI, 0);
	wr(&fh, GPU_INT_CLEAR, GPU_IRQ_CLEAN_CACHES_COMPLETED |
	   GPU_IRQ_PERFCNT_SAMPLE_COMPLETED);
	wr(&fh, GPU_CMD, GPU_CMD_PERFCNT_SAMPLE);
	if (!fh.irq[SGPU_IRQ_GPU])
		return false;
	stat = rd(&fh, GPU_INT_STAT);
	wr(&fh, GPU_INT_CLEAR, stat);
	if (!(stat & GPU_IRQ_PERFCNT_SAMPLE_COMPLETED))
		return false;
	wr(&fh, GPU_CMD, GPU_CMD_CLEAN_CACHES);
	stat = rd(&fh, GPU_INT_STAT);
	wr(&fh, GPU_INT_CLEAR, stat);
	return stat & GPU_IRQ_CLEAN_CACHES_COMPLETED;
}

static uint32_t counter(unsigned int block, unsigned int index)
{
	return fh_r32(&fh, buf + block * 256 + index * 4);
}

#define CODE_VA (VA + 0x10000)

/*
 * Code (docs/hardware.md §5.13: two load/store bundles and one ALU bundle
 * a thread), RSD, UBO and buffer: 4 groups of 16 threads.
 */
static void compute_job(uint64_t jva)
{
	uint64_t code = fh_alloc(&fh, 0x1000, 4096);
	struct mdg_renderer_state rsd = {
		.shader = CODE_VA, .first_tag = 5, .ubo_count = 1,
		.side_effects = true, .work_regs = 2,
	};
	struct mdg_local_storage ls = { 0 };
	struct mdg_compute_job job = {
		.index = 1, .local_size = { 16, 1, 1 },
		.num_groups = { 4, 1, 1 }, .rsd = VA + 0x7000,
		.thread_storage = VA + 0x7300, .uniform_buffers = VA + 0x7100,
	};
	uint8_t desc[MDG_COMPUTE_JOB_BYTES];

	fh_map(&fh, root, CODE_VA, code, 0x1000, PTE_RW);
	for (unsigned int i = 0; i < sizeof(mesa_example_shader) / 4; i++)
		fh_w32(&fh, code + 4 * i, mesa_example_shader[i]);
	/* RSD at VA + 0x7000: first tag 5, 2 work registers, 1 UBO. */
	mdg_pack_renderer_state(&rsd, desc);
	fh_write(&fh, buf + 0x7000, desc, MDG_RENDERER_STATE_BYTES);
	/* UBO table at VA + 0x7100 -> UBO at VA + 0x7200 holding &out. */
	mdg_pack_ubo(VA + 0x7200, 16, desc);
	fh_write(&fh, buf + 0x7100, desc, MDG_UNIFORM_BUFFER_BYTES);
	fh_w64(&fh, buf + 0x7200, VA + 0x7400);
	/* No local storage. */
	mdg_pack_local_storage(&ls, desc);
	fh_write(&fh, buf + 0x7300, desc, MDG_LOCAL_STORAGE_BYTES);
	/* 4 groups of 16x1x1. */
	if (!mdg_pack_compute_job(&job, desc))
		abort();
	fh_write(&fh, jobs, desc, MDG_COMPUTE_JOB_BYTES);
	fh_submit(&fh, JS, jva, AS_NR, 0);
	fh_run_idle(&fh, 10);
}

static void run_jobs(unsigned int n, bool compute)
{
	uint64_t jva = VA + 0x8000;

	for (unsigned int i = 0; i < n; i++)
		fh_job(&fh, jobs + 64 * i, MDG_JOB_TYPE_NULL, i + 1, 0, 0,
		       i + 1 < n ? jva + 64 * (i + 1) : 0);
	fh_submit(&fh, JS, jva, AS_NR, 0);
	fh_run_idle(&fh, 10);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	if (compute) {
		compute_job(jva);
		CHECK_EQ(rd(&fh, JS_REG(JS, JS_STATUS)), 1);
		for (uint32_t i = 0; i < 64; i++)
			CHECK_EQ(fh_r32(&fh, buf + 0x7400 + 4 * i), i);
		wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	}
}

TEST(v5_layout_t860)
{
	uint64_t ts, ts_before, ts_after;

	REQUIRE(setup(SGPU_T860));
	/* A system time whose counter needs both header words. */
	fh.system_offset = 1ull << 40;
	REQUIRE(perfcnt_enable(0xFFFFFFFF));
	run_jobs(5, true);
	memset(fh.ram + (buf - RAM_BASE), 0xEE, 0x1000);
	ts_before = rd64(&fh, GPU_TIMESTAMP_LO);
	REQUIRE(perfcnt_dump());
	ts_after = rd64(&fh, GPU_TIMESTAMP_LO);
	/* JM, tiler, one L2, four cores: 7 blocks, nothing beyond. */
	for (unsigned int b = 0; b < 7; b++)
		CHECK_EQ(counter(b, 2), 0xFFFFFFFF);
	CHECK_EQ(counter(7, 0), 0xEEEEEEEE);
	CHECK(counter(0, 0) != 0);                     /* timestamp */
	/*
	 * Headers hold the system timestamp of the sample (GPU_TIMESTAMP's
	 * counter), the same in every block.
	 */
	ts = (uint64_t)counter(0, 1) << 32 | counter(0, 0);
	CHECK(ts > ts_before && ts < ts_after);
	for (unsigned int b = 1; b < 7; b++) {
		CHECK_EQ(counter(b, 0), counter(0, 0));
		CHECK_EQ(counter(b, 1), counter(0, 1));
	}
	CHECK(counter(0, 6) > 0);                      /* GPU_ACTIVE */
	CHECK_EQ(counter(0, 8 + 8 * JS), 6);           /* JS1_JOBS: 5 + compute */
	CHECK(counter(0, 10 + 8 * JS) > 0);            /* JS1_ACTIVE */
	CHECK_EQ(counter(0, 8), 0);                    /* JS0_JOBS */
	CHECK(counter(0, 6) >= counter(0, 10 + 8 * JS));
	/*
	 * One workgroup of 16 threads per core, each thread one ALU and two
	 * load/store bundles: 16 arithmetic words (8 cycles on two pipes), 32
	 * load/store words (32 cycles, the busiest pipe).
	 */
	for (unsigned int core = 0; core < 4; core++) {
		CHECK_EQ(counter(3 + core, 22), 32);       /* COMPUTE_ACTIVE */
		CHECK_EQ(counter(3 + core, 23), 1);        /* COMPUTE_TASKS */
		CHECK_EQ(counter(3 + core, 24), 16);       /* COMPUTE_THREADS */
		CHECK_EQ(counter(3 + core, 26), 32);       /* TRIPIPE_ACTIVE */
		CHECK_EQ(counter(3 + core, 27), 16);       /* ARITH_WORDS */
		CHECK_EQ(counter(3 + core, 31), 32);       /* LS_WORDS */
		CHECK_EQ(counter(3 + core, 38), 0);        /* TEX_WORDS */
	}
	/* Stats agree that time was spent. */
	{
		struct sgpu_stats st;

		sgpu_get_stats(fh.gpu, &st);
		CHECK(st.gpu_active_cycles > 0);
		CHECK_EQ(st.perfcnt_samples, 1);
	}
	/* PERFCNT_CLEAR starts over. */
	wr(&fh, GPU_CMD, GPU_CMD_PERFCNT_CLEAR);
	REQUIRE(perfcnt_dump());
	CHECK_EQ(counter(0, 8 + 8 * JS), 0);
	CHECK_EQ(counter(0, 6), 0);
	CHECK(fh_fini(&fh));
}

TEST(enable_masks)
{
	REQUIRE(setup(SGPU_T860));
	REQUIRE(perfcnt_enable(0x1));                  /* header group only */
	run_jobs(3, false);
	REQUIRE(perfcnt_dump());
	CHECK_EQ(counter(0, 2), 0x1);
	CHECK_EQ(counter(0, 6), 0);
	CHECK_EQ(counter(0, 8 + 8 * JS), 0);
	wr(&fh, GPU_PRFCNT_JM_EN, 0x1 | 1u << 4);      /* counters 16-19 */
	REQUIRE(perfcnt_dump());
	CHECK_EQ(counter(0, 6), 0);
	CHECK_EQ(counter(0, 8 + 8 * JS), 3);
	CHECK_EQ(rd(&fh, GPU_PRFCNT_JM_EN), 0x11);
	CHECK(fh_fini(&fh));
}

TEST(v4_layout_t720)
{
	REQUIRE(setup(SGPU_T720));
	REQUIRE(perfcnt_enable(0xFFFFFFFF));
	run_jobs(2, false);
	memset(fh.ram + (buf - RAM_BASE), 0xEE, 0x1000);
	REQUIRE(perfcnt_dump());
	/* 8 blocks: cores 0-3, tiler, MMU/L2, unused, JM. */
	for (unsigned int core = 0; core < 4; core++)
		CHECK_EQ(counter(core, 2), 0xFFFFFFFF);
	CHECK_EQ(counter(4, 2), 0xFFFFFFFF);
	CHECK_EQ(counter(5, 2), 0xFFFFFFFF);
	CHECK_EQ(counter(6, 2), 0);
	CHECK_EQ(counter(7, 8 + 8 * JS), 2);
	CHECK_EQ(counter(8, 0), 0xEEEEEEEE);
	CHECK(fh_fini(&fh));
}

/*
 * V4 with two core groups (T628 MP6, 4 + 2 cores): 8 blocks per group as
 * panfrost sizes the buffer, each group's cores in its own blocks 0-3 and
 * its own L2 block; one tiler and one JM, in the first group's blocks.
 */
TEST(v4_layout_t628_two_groups)
{
	uint32_t tasks = 0;

	REQUIRE(setup_cores(SGPU_T628, 6));
	REQUIRE(perfcnt_enable(0xFFFFFFFF));
	run_jobs(2, true);
	memset(fh.ram + (buf - RAM_BASE), 0xEE, 0x1100);
	REQUIRE(perfcnt_dump());
	for (unsigned int core = 0; core < 4; core++)
		CHECK_EQ(counter(core, 2), 0xFFFFFFFF);
	CHECK_EQ(counter(4, 2), 0xFFFFFFFF);           /* tiler */
	CHECK_EQ(counter(5, 2), 0xFFFFFFFF);           /* group 0 L2 */
	CHECK_EQ(counter(6, 2), 0);
	CHECK_EQ(counter(7, 8 + 8 * JS), 3);           /* 2 NULL + compute */
	CHECK_EQ(counter(8, 2), 0xFFFFFFFF);           /* core 4 */
	CHECK_EQ(counter(9, 2), 0xFFFFFFFF);           /* core 5 */
	CHECK_EQ(counter(10, 2), 0);                   /* no cores 6, 7 */
	CHECK_EQ(counter(11, 2), 0);
	CHECK_EQ(counter(12, 2), 0);                   /* no second tiler */
	CHECK_EQ(counter(13, 2), 0xFFFFFFFF);          /* group 1 L2 */
	CHECK_EQ(counter(15, 8 + 8 * JS), 0);          /* no second JM */
	CHECK_EQ(counter(16, 0), 0xEEEEEEEE);          /* 16 blocks only */
	/* The compute job's 4 workgroups ran on the six cores' blocks. */
	for (unsigned int b = 0; b < 16; b++)
		if (b < 4 || b == 8 || b == 9)
			tasks += counter(b, 23);
	CHECK_EQ(tasks, 4);
	CHECK(fh_fini(&fh));
}

TEST(dump_failures_still_complete)
{
	REQUIRE(setup(SGPU_T860));
	/* Counters off: nothing is written, the sample still completes. */
	memset(fh.ram + (buf - RAM_BASE), 0xEE, 0x100);
	REQUIRE(perfcnt_dump());
	CHECK_EQ(counter(0, 0), 0xEEEEEEEE);
	/* An unmapped buffer: MMU fault on the perf counters' AS. */
	REQUIRE(perfcnt_enable(0xFFFFFFFF));
	wr(&fh, MMU_INT_MASK, 0xFFFFFFFF);
	wr(&fh, GPU_PERFCNT_BASE_LO, 0x7000000);
	wr(&fh, GPU_CMD, GPU_CMD_PERFCNT_SAMPLE);
	CHECK(rd(&fh, GPU_INT_RAWSTAT) & GPU_IRQ_PERFCNT_SAMPLE_COMPLETED);
	CHECK_EQ(rd(&fh, MMU_INT_RAWSTAT), 1u << AS_NR);
	CHECK(fh.irq[SGPU_IRQ_MMU]);
	CHECK_EQ(rd(&fh, AS_REG(AS_NR, AS_FAULTSTATUS)) >> 8 & 3, AS_ACCESS_WRITE);
	CHECK(fh_fini(&fh));
}

int main(void)
{
	RUN(v5_layout_t860);
	RUN(enable_masks);
	RUN(v4_layout_t720);
	RUN(v4_layout_t628_two_groups);
	RUN(dump_failures_still_complete);
	return check_summary();
}
