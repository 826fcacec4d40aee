/* SPDX-License-Identifier: MIT */
/*
 * Job manager: job chains (NULL, WRITE_VALUE, CACHE_FLUSH, COMPUTE),
 * ordering, dependencies, next pointers, descriptor write-back, faults,
 * NEXT queueing, stop commands, the test hang, cycles and long chains,
 * resets, and a real worker thread.
 */
#include <pthread.h>
#include <time.h>

#include "check.h"
#include "fake_host.h"

CHECK_MAIN_STATE("model-jobs");

#define RAM_BASE 0x40000000ull
#define RAM_SIZE (16u << 20)
#define VA_BASE 0x10000000ull
#define VA_SIZE (4u << 20)
#define AS_NR 2
#define JS 1

static struct fake_host fh;
static uint64_t root, region;

static uint64_t P(uint64_t va)
{
	return region + (va - VA_BASE);
}

static uint64_t job_va(unsigned int i)
{
	return VA_BASE + 64ull * i;
}

#define DATA_VA (VA_BASE + 0x100000)

static bool setup_with(bool hang)
{
	fh_init(&fh, RAM_BASE, RAM_SIZE);
	if (!fh_create(&fh, SGPU_T860, hang) || !fh_panfrost_probe(&fh))
		return false;
	root = fh_pt_new(&fh);
	region = fh_alloc(&fh, VA_SIZE, 4096);
	fh_map(&fh, root, VA_BASE, region, VA_SIZE, PTE_RW);
	fh_as_enable(&fh, AS_NR, root);
	return true;
}

static bool setup(void)
{
	return setup_with(true);
}

static uint32_t hdr_status(unsigned int i)
{
	return fh_r32(&fh, P(job_va(i)));
}

static void job(unsigned int i, unsigned int type, unsigned int dep1,
		unsigned int dep2, int next)
{
	fh_job(&fh, P(job_va(i)), type, i + 1, dep1, dep2,
	       next < 0 ? 0 : job_va((unsigned int)next));
}

static void wv(unsigned int i, uint64_t target, uint32_t type, int next)
{
	fh_write_value(&fh, P(job_va(i)), i + 1, target, type,
		       next < 0 ? 0 : job_va((unsigned int)next));
}

static void submit(unsigned int js, unsigned int first, uint32_t extra)
{
	fh_submit(&fh, js, job_va(first), AS_NR, extra);
}

static uint32_t js_reg(unsigned int js, uint32_t r)
{
	return rd(&fh, JS_REG(js, r));
}

TEST(null_job_runs_only_in_sgpu_run)
{
	unsigned int kicks;

	REQUIRE(setup());
	job(0, MDG_JOB_TYPE_NULL, 0, 0, -1);
	kicks = fh.kicks;
	submit(JS, 0, 0);
	/* Started but not run: the MMIO write never executes a job. */
	CHECK(fh.kicks > kicks);
	CHECK_EQ(js_reg(JS, JS_COMMAND_NEXT), 0);
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 1u << JS);
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x08);
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 0);
	CHECK_EQ(hdr_status(0), 0);
	CHECK(rd(&fh, GPU_STATUS) & GPU_STATUS_GPU_ACTIVE);
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_HEAD_LO)), job_va(0));
	CHECK_EQ(js_reg(JS, JS_CONFIG), AS_NR | 0x83300);
	CHECK_EQ(js_reg(JS, JS_AFFINITY_LO), 0xF);

	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 1u << JS);
	CHECK(fh.irq[SGPU_IRQ_JOB]);
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x01);
	CHECK_EQ(hdr_status(0), 1);
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 0);
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_TAIL_LO)), job_va(0));
	CHECK_EQ(rd(&fh, GPU_STATUS) & GPU_STATUS_GPU_ACTIVE, 0);
	/* JOB_INT: STAT = RAWSTAT & MASK, line follows. */
	wr(&fh, JOB_INT_MASK, 0);
	CHECK(!fh.irq[SGPU_IRQ_JOB]);
	CHECK_EQ(rd(&fh, JOB_INT_STAT), 0);
	wr(&fh, JOB_INT_MASK, 0x70007);
	CHECK_EQ(rd(&fh, JOB_INT_STAT), 1u << JS);
	wr(&fh, JOB_INT_CLEAR, 1u << JS);
	CHECK(!fh.irq[SGPU_IRQ_JOB]);
	CHECK(!sgpu_run(fh.gpu, 1000000));
	CHECK(fh_fini(&fh));
}

TEST(write_value_types_and_next_pointers)
{
	uint64_t t0 = DATA_VA, t1 = DATA_VA + 8, t2 = DATA_VA + 16, flush;
	uint64_t ts_min, ts_max;

	REQUIRE(setup());
	/* The system time runs 5 s ahead of the model's own clock. */
	fh.system_offset = 5000000000ull;
	ts_min = (fh.now + fh.system_offset) / 16;
	fh_w64(&fh, P(t2), 0xDEADBEEFCAFEF00Dull);
	wv(0, t0, MDG_WRITE_VALUE_TYPE_CYCLE_COUNTER, 3);
	wv(3, t1, MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP, 1);
	job(1, MDG_JOB_TYPE_CACHE_FLUSH, 0, 0, 2);
	flush = P(job_va(1)) + MDG_CACHE_FLUSH_JOB_PAYLOAD_OFFSET;
	fh_set(&fh, flush, MDG_CACHE_FLUSH_PAYLOAD_CLEAN_SHADER_CORE_LS, 1);
	fh_set(&fh, flush, MDG_CACHE_FLUSH_PAYLOAD_L2_CLEAN, 1);
	fh_set(&fh, flush, MDG_CACHE_FLUSH_PAYLOAD_L2_INVALIDATE, 1);
	wv(2, t2, MDG_WRITE_VALUE_TYPE_ZERO, -1);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x01);
	CHECK(fh_r64(&fh, P(t0)) != 0);
	/* Type 2 is the system timestamp: system time at 62.5 MHz. */
	ts_max = (fh.now + fh.system_offset) / 16;
	CHECK(fh_r64(&fh, P(t1)) > ts_min);
	CHECK(fh_r64(&fh, P(t1)) < ts_max);
	CHECK_EQ(fh_r64(&fh, P(t2)), 0);
	for (unsigned int i = 0; i < 4; i++)
		CHECK_EQ(hdr_status(i), 1);
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_TAIL_LO)), job_va(2));
	CHECK(fh_fini(&fh));
}

/*
 * With its "sgpu_jobs" trace on, the model prints each chain it starts,
 * decoded (midgard_job_decode.c, as SLEIPNIR_DEBUG=jobs in the runtime),
 * and still runs it; off, it prints nothing.
 */
TEST(chains_are_traced_decoded)
{
	char line[96];

	REQUIRE(setup());
	fh.trace_jobs = true;
	wv(0, DATA_VA, MDG_WRITE_VALUE_TYPE_ZERO, 1);
	job(1, MDG_JOB_TYPE_NULL, 1, 0, -1);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), MDG_EXCEPTION_DONE);
	snprintf(line, sizeof(line), "Write value job @ 0x%llx, index 1:",
		 (unsigned long long)job_va(0));
	CHECK(strstr(fh.job_trace, line) != NULL);
	snprintf(line, sizeof(line), "Address: 0x%llx",
		 (unsigned long long)DATA_VA);
	CHECK(strstr(fh.job_trace, line) != NULL);
	CHECK(strstr(fh.job_trace, "Type: Zero (3)") != NULL);
	snprintf(line, sizeof(line), "Null job @ 0x%llx, index 2:",
		 (unsigned long long)job_va(1));
	CHECK(strstr(fh.job_trace, line) != NULL);
	CHECK(strstr(fh.job_trace, "Dependency 1: 1") != NULL);
	/* Decoded before the jobs ran: their status is still 0. */
	CHECK(strstr(fh.job_trace, "Exception Status: OK (0)") != NULL);
	CHECK(strstr(fh.job_trace, "Exception Status: DONE") == NULL);

	fh.trace_jobs = false;
	fh.job_trace_len = 0;
	fh.job_trace[0] = 0;
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(fh.job_trace_len, 0);
	CHECK(fh_fini(&fh));
}

TEST(list_order_and_dependencies)
{
	REQUIRE(setup());
	/* Timestamps show the jobs ran in list order. */
	wv(0, DATA_VA, MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP, 1);
	wv(1, DATA_VA + 8, MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP, 2);
	fh_set(&fh, P(job_va(1)), MDG_JOB_HEADER_DEPENDENCY_1, 1);
	wv(2, DATA_VA + 16, MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP, -1);
	fh_set(&fh, P(job_va(2)), MDG_JOB_HEADER_DEPENDENCY_1, 2);
	fh_set(&fh, P(job_va(2)), MDG_JOB_HEADER_DEPENDENCY_2, 1);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x01);
	CHECK(fh_r64(&fh, P(DATA_VA)) < fh_r64(&fh, P(DATA_VA + 8)));
	CHECK(fh_r64(&fh, P(DATA_VA + 8)) < fh_r64(&fh, P(DATA_VA + 16)));
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);

	/* A dependency on a job later in the list can never be met. */
	job(4, MDG_JOB_TYPE_NULL, 0, 0, 5);
	job(5, MDG_JOB_TYPE_NULL, 7, 0, 6);
	job(6, MDG_JOB_TYPE_NULL, 0, 0, -1);
	fh.guest_errors = 0;
	submit(JS, 4, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 1u << (16 + JS));
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_TAIL_LO)), job_va(5));
	CHECK_EQ(hdr_status(4), 1);
	CHECK_EQ(hdr_status(5), 0x40);
	CHECK_EQ(hdr_status(6), 0);
	CHECK(fh.guest_errors >= 1);
	CHECK(fh_fini(&fh));
}

static void expect_config_fault(bool is_64b, unsigned int type)
{
	job(0, type, 0, 0, -1);
	fh_set(&fh, P(job_va(0)), MDG_JOB_HEADER_IS_64B, is_64b);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	CHECK_EQ(hdr_status(0), 0x40);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
}

TEST(malformed_headers)
{
	REQUIRE(setup());
	expect_config_fault(false, MDG_JOB_TYPE_NULL);
	expect_config_fault(true, MDG_JOB_TYPE_NOT_STARTED);
	expect_config_fault(true, MDG_JOB_TYPE_FRAGMENT);
	expect_config_fault(true, MDG_JOB_TYPE_VERTEX);
	expect_config_fault(true, 0x30);                /* unknown */
	/* A WRITE_VALUE of an unknown type. */
	wv(0, DATA_VA, 7, -1);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	/* An address space the GPU does not have. */
	job(0, MDG_JOB_TYPE_NULL, 0, 0, -1);
	fh_submit(&fh, JS, job_va(0), 9, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	CHECK(fh_fini(&fh));
}

TEST(mmu_fault_fails_job)
{
	uint64_t bad = VA_BASE + VA_SIZE + 0x100; /* its L2 entry is empty */

	REQUIRE(setup());
	job(0, MDG_JOB_TYPE_NULL, 0, 0, 1);
	wv(1, bad, MDG_WRITE_VALUE_TYPE_ZERO, 2);
	job(2, MDG_JOB_TYPE_NULL, 0, 0, -1);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0xC2);
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 1u << (16 + JS));
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_TAIL_LO)), job_va(1));
	CHECK_EQ(rd(&fh, MMU_INT_RAWSTAT), 1u << AS_NR);
	CHECK(fh.irq[SGPU_IRQ_MMU]);
	CHECK_EQ(rd(&fh, AS_REG(AS_NR, AS_FAULTSTATUS)),
		 0xC2 | AS_ACCESS_WRITE << 8);
	CHECK_EQ(rd64(&fh, AS_REG(AS_NR, AS_FAULTADDRESS_LO)), bad);
	CHECK_EQ(hdr_status(0), 1);
	CHECK_EQ(hdr_status(1), 0xC2);
	CHECK_EQ(hdr_status(2), 0);
	wr(&fh, MMU_INT_CLEAR, 0xFFFFFFFF);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);

	/* The chain head itself unmapped: a read fault, at level 1. */
	fh_submit(&fh, JS, 0x7000000000ull, AS_NR, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0xC1);
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_TAIL_LO)), 0x7000000000ull);
	CHECK_EQ(rd(&fh, AS_REG(AS_NR, AS_FAULTSTATUS)),
		 0xC1 | AS_ACCESS_READ << 8);
	wr(&fh, MMU_INT_CLEAR, 0xFFFFFFFF);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);

	/* Mapped, but to a PA where nothing answers: JOB_WRITE_FAULT. */
	fh_w64(&fh, fh_pt_entry(&fh, root, 0x20000000, 3), 0x1000 | PTE_RW);
	wv(0, 0x20000000, MDG_WRITE_VALUE_TYPE_ZERO, -1);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x43);
	CHECK_EQ(rd(&fh, MMU_INT_RAWSTAT), 0);
	CHECK(fh.writes_outside >= 1);
	CHECK(fh_fini(&fh));
}

TEST(next_queued_while_busy)
{
	REQUIRE(setup());
	job(0, MDG_JOB_TYPE_NULL, 0, 0, 1);
	job(1, MDG_JOB_TYPE_NULL, 0, 0, -1);
	job(4, MDG_JOB_TYPE_NULL, 0, 0, -1);
	submit(JS, 0, 0);
	submit(JS, 4, JS_CONFIG_JOB_CHAIN_FLAG);
	/* The second chain waits in the NEXT registers. */
	CHECK_EQ(js_reg(JS, JS_COMMAND_NEXT), 1);
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), (1u << JS) | (1u << (16 + JS)));
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_HEAD_LO)), job_va(0));
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 1u << JS);
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 0);
	CHECK_EQ(js_reg(JS, JS_COMMAND_NEXT), 0);
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_HEAD_LO)), job_va(4));
	CHECK(js_reg(JS, JS_CONFIG) & JS_CONFIG_JOB_CHAIN_FLAG);
	CHECK_EQ(hdr_status(1), 1);
	CHECK_EQ(hdr_status(4), 1);
	CHECK(fh_fini(&fh));
}

TEST(next_not_started_after_failure)
{
	REQUIRE(setup());
	job(0, 0x30, 0, 0, -1);          /* fails */
	job(4, MDG_JOB_TYPE_NULL, 0, 0, -1);
	submit(JS, 0, 0);
	submit(JS, 4, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	CHECK_EQ(hdr_status(4), 0);
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 1u << (16 + JS));
	/* Panfrost: NOP the queued job, clear, then START it again. */
	wr(&fh, JS_REG(JS, JS_COMMAND_NEXT), JS_COMMAND_NOP);
	wr(&fh, JOB_INT_CLEAR, rd(&fh, JOB_INT_RAWSTAT));
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 0);
	CHECK(!sgpu_run(fh.gpu, 1000000));
	CHECK_EQ(hdr_status(4), 0);
	wr(&fh, JS_REG(JS, JS_COMMAND_NEXT), JS_COMMAND_START);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(hdr_status(4), 1);
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x01);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);

	/* Without the NOP, clearing FAILED releases the queued chain. */
	job(4, MDG_JOB_TYPE_NULL, 0, 0, -1);
	submit(JS, 0, 0);
	submit(JS, 4, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(hdr_status(4), 0);
	wr(&fh, JOB_INT_CLEAR, 1u << (16 + JS));
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 1u << JS);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(hdr_status(4), 1);
	CHECK(fh_fini(&fh));
}

TEST(soft_stop)
{
	REQUIRE(setup());
	/* Stopping an idle slot does nothing. */
	wr(&fh, JS_REG(JS, JS_COMMAND), JS_COMMAND_SOFT_STOP);
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 0);
	/* Before the first job: STOPPED at the head; resume from TAIL. */
	job(0, MDG_JOB_TYPE_NULL, 0, 0, 1);
	job(1, MDG_JOB_TYPE_NULL, 0, 0, -1);
	submit(JS, 0, 0);
	wr(&fh, JS_REG(JS, JS_COMMAND), JS_COMMAND_SOFT_STOP);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x03);
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 1u << (16 + JS));
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_TAIL_LO)), job_va(0));
	CHECK_EQ(hdr_status(0), 0);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	fh_submit(&fh, JS, rd64(&fh, JS_REG(JS, JS_TAIL_LO)), AS_NR, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x01);
	CHECK_EQ(hdr_status(1), 1);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);

	/* Mid-chain, on a hung job: STOPPED with TAIL = that job. */
	job(0, MDG_JOB_TYPE_NULL, 0, 0, 1);
	wv(1, DATA_VA, SGPU_TEST_HANG_TYPE, 2);
	job(2, MDG_JOB_TYPE_NULL, 0, 0, -1);
	submit(JS, 0, 0);
	CHECK(sgpu_run(fh.gpu, 100000));
	CHECK(sgpu_run(fh.gpu, 100000));
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 1u << JS);
	CHECK_EQ(hdr_status(0), 1);
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_TAIL_LO)), job_va(1));
	/* _1 variants do not stop a chain started with flag 0. */
	wr(&fh, JS_REG(JS, JS_COMMAND), JS_COMMAND_SOFT_STOP_1);
	CHECK(sgpu_run(fh.gpu, 100000));
	wr(&fh, JS_REG(JS, JS_COMMAND), JS_COMMAND_SOFT_STOP_0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x03);
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_TAIL_LO)), job_va(1));
	CHECK_EQ(hdr_status(1), 0);
	CHECK_EQ(hdr_status(2), 0);
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 0);
	CHECK(fh_fini(&fh));
}

TEST(hard_stop_and_hang)
{
	struct timespec a, b;
	double elapsed;

	REQUIRE(setup());
	wv(0, DATA_VA, SGPU_TEST_HANG_TYPE, -1);
	submit(JS, 0, JS_CONFIG_JOB_CHAIN_FLAG);
	/* A hang keeps the runner asking for more, without spinning. */
	clock_gettime(CLOCK_MONOTONIC, &a);
	CHECK(sgpu_run(fh.gpu, 20000000));
	clock_gettime(CLOCK_MONOTONIC, &b);
	elapsed = (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	CHECK(elapsed >= 0.015);
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 1u << JS);
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 0);
	wr(&fh, JS_REG(JS, JS_COMMAND), JS_COMMAND_HARD_STOP_0);
	CHECK(sgpu_run(fh.gpu, 100000));
	wr(&fh, JS_REG(JS, JS_COMMAND), JS_COMMAND_HARD_STOP_1);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x04);
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 1u << (16 + JS));
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 0);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);

	/* Plain HARD_STOP too. */
	submit(JS, 0, 0);
	CHECK(sgpu_run(fh.gpu, 100000));
	wr(&fh, JS_REG(JS, JS_COMMAND), JS_COMMAND_HARD_STOP);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x04);
	CHECK(fh_fini(&fh));

	/* Without test_hang_jobs the hang type is just an invalid type. */
	REQUIRE(setup_with(false));
	wv(0, DATA_VA, SGPU_TEST_HANG_TYPE, -1);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	CHECK(fh_fini(&fh));
}

TEST(panfrost_reset_sequence)
{
	REQUIRE(setup());
	wv(0, DATA_VA, SGPU_TEST_HANG_TYPE, -1);
	job(4, MDG_JOB_TYPE_NULL, 0, 0, -1);
	submit(JS, 0, 0);
	submit(JS, 4, 0);
	CHECK(sgpu_run(fh.gpu, 100000));
	/* Timeout: mask, cancel NEXT, soft-stop, wait for JS_STATE = 0. */
	wr(&fh, JOB_INT_MASK, 0);
	for (unsigned int js = 0; js < 3; js++) {
		wr(&fh, JS_REG(js, JS_COMMAND_NEXT), JS_COMMAND_NOP);
		wr(&fh, JS_REG(js, JS_COMMAND), JS_COMMAND_SOFT_STOP);
	}
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 0);
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x03);
	CHECK_EQ(hdr_status(4), 0);
	REQUIRE(fh_panfrost_probe(&fh));
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 0);
	CHECK_EQ(js_reg(JS, JS_STATUS), 0);

	/* A soft reset while a chain hangs abandons it silently. */
	fh_as_enable(&fh, AS_NR, root);
	submit(JS, 0, 0);
	CHECK(sgpu_run(fh.gpu, 100000));
	wr(&fh, GPU_CMD, GPU_CMD_SOFT_RESET);
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 0);
	CHECK(!sgpu_run(fh.gpu, 100000));
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 0);
	CHECK(fh_fini(&fh));
}

TEST(cycles_are_faults_not_hangs)
{
	REQUIRE(setup());
	job(0, MDG_JOB_TYPE_NULL, 0, 0, 0);                /* self loop */
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	job(0, MDG_JOB_TYPE_NULL, 0, 0, 1);
	job(1, MDG_JOB_TYPE_NULL, 0, 0, 2);
	job(2, MDG_JOB_TYPE_NULL, 0, 0, 3);
	job(3, MDG_JOB_TYPE_NULL, 0, 0, 1);                /* 1 -> 2 -> 3 -> 1 */
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	CHECK(fh_fini(&fh));
}

TEST(chain_length_bound)
{
	const unsigned int n = 65537;
	struct sgpu_stats st;

	REQUIRE(setup());
	/* 32-byte headers back to back. */
	for (unsigned int i = 0; i < n; i++)
		fh_job(&fh, region + 32ull * i, MDG_JOB_TYPE_NULL, (i % 65535) + 1,
		       0, 0, i + 1 < n ? VA_BASE + 32ull * (i + 1) : 0);
	fh_submit(&fh, JS, VA_BASE, AS_NR, 0);
	CHECK(fh_run_idle(&fh, 1000));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	CHECK_EQ(rd64(&fh, JS_REG(JS, JS_TAIL_LO)), VA_BASE + 32ull * 65536);
	sgpu_get_stats(fh.gpu, &st);
	CHECK_EQ(st.jobs_run, 65536);
	CHECK(fh_fini(&fh));
}

TEST(descriptor_writeback_can_be_disabled)
{
	REQUIRE(setup());
	job(0, MDG_JOB_TYPE_NULL, 0, 0, 1);
	job(1, 0x30, 0, 0, -1);
	submit(JS, 0, JS_CONFIG_DISABLE_DESCRIPTOR_WR_BK);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	CHECK_EQ(hdr_status(0), 0);
	CHECK_EQ(hdr_status(1), 0);
	CHECK(fh_fini(&fh));
}

/* The shift fields of the Invocation: Size Y and Z, Workgroups X, Y and
 * Z, and the thread group split. */
struct shifts {
	unsigned int sy, sz, wx, wy, wz, split;
};

/* Mesa's packing of grid 4x2x1, local 8x8x1 (docs/hardware.md §4.9). */
static const struct shifts mesa_shifts = { 3, 6, 6, 8, 9, 6 };

/* A COMPUTE job as Mesa lays it out (docs/hardware.md §4.3, §4.9): the
 * invocations word 0x1FF read with shifts @s. */
static void compute_job(unsigned int i, struct shifts s, uint64_t rsd)
{
	uint64_t p = P(job_va(i));
	uint64_t inv = p + MDG_COMPUTE_JOB_INVOCATION_OFFSET;
	uint64_t params = p + MDG_COMPUTE_JOB_PARAMETERS_OFFSET;
	uint64_t draw = p + MDG_COMPUTE_JOB_DRAW_OFFSET;
	uint64_t ls = P(DATA_VA + 0x200);

	job(i, MDG_JOB_TYPE_COMPUTE, 0, 0, -1);
	fh_set(&fh, p, MDG_JOB_HEADER_BARRIER, 1);
	fh_set(&fh, inv, MDG_INVOCATION_INVOCATIONS, 0x1FF);
	fh_set(&fh, inv, MDG_INVOCATION_SIZE_Y_SHIFT, s.sy);
	fh_set(&fh, inv, MDG_INVOCATION_SIZE_Z_SHIFT, s.sz);
	fh_set(&fh, inv, MDG_INVOCATION_WORKGROUPS_X_SHIFT, s.wx);
	fh_set(&fh, inv, MDG_INVOCATION_WORKGROUPS_Y_SHIFT, s.wy);
	fh_set(&fh, inv, MDG_INVOCATION_WORKGROUPS_Z_SHIFT, s.wz);
	fh_set(&fh, inv, MDG_INVOCATION_THREAD_GROUP_SPLIT, s.split);
	fh_set(&fh, params, MDG_COMPUTE_PARAMETERS_JOB_TASK_SPLIT, 9);
	fh_set(&fh, draw, MDG_DRAW_FOUR_COMPONENTS_PER_VERTEX, 1);
	fh_set(&fh, draw, MDG_DRAW_DRAW_DESCRIPTOR_IS_64B, 1);
	fh_set(&fh, draw, MDG_DRAW_TEXTURE_DESCRIPTOR_IS_64B, 1);
	fh_set(&fh, draw, MDG_DRAW_STATE, rsd);
	fh_set(&fh, draw, MDG_DRAW_THREAD_STORAGE, DATA_VA + 0x200);
	/* No thread or workgroup storage. */
	fh_set(&fh, ls, MDG_LOCAL_STORAGE_WLS_INSTANCES, 0x1F);
}

TEST(compute_jobs)
{
	uint64_t rsd = DATA_VA + 0x100;

	REQUIRE(setup());
	fh_set(&fh, P(rsd), MDG_RENDERER_STATE_SHADER, 0x04000000);
	fh_set(&fh, P(rsd), MDG_RENDERER_STATE_FIRST_TAG, 8);
	/* No uniforms or UBOs to fetch: 5 work registers, side effects. */
	fh_set(&fh, P(rsd), MDG_RENDERER_STATE_WORK_REGISTER_COUNT, 5);
	fh_set(&fh, P(rsd), MDG_RENDERER_STATE_SHADER_HAS_SIDE_EFFECTS, 1);
	/*
	 * Well-formed, but the shader's code (0x04000000) is not mapped: the
	 * first instruction fetch is a translation fault at that address.
	 * (tests/model/test_sgpu_compute.c runs real shaders.)
	 */
	compute_job(0, mesa_shifts, rsd);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS) & 0xF8, 0xC0);
	CHECK_EQ(hdr_status(0) & 0xF8, 0xC0);
	CHECK_EQ(rd64(&fh, AS_REG(AS_NR, AS_FAULTADDRESS_LO)), 0x04000000);
	wr(&fh, MMU_INT_CLEAR, 0xFFFFFFFF);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);

	/* Malformed descriptors are JOB_CONFIG_FAULTs. */
	compute_job(0, mesa_shifts, 0);                  /* no RSD */
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	compute_job(0, mesa_shifts, rsd + 8);            /* misaligned */
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	/* Shifts out of order: Size Y after all the others. */
	compute_job(0, (struct shifts){ .sy = 31 }, rsd);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	/* 8x8x8 threads. */
	compute_job(0, (struct shifts){ 3, 6, 9, 9, 9, 9 }, rsd);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	compute_job(0, mesa_shifts, rsd);                /* 32-bit draw */
	fh_set(&fh, P(job_va(0)) + MDG_COMPUTE_JOB_DRAW_OFFSET,
	       MDG_DRAW_DRAW_DESCRIPTOR_IS_64B, 0);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS), 0x40);
	wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	/* An unmapped RSD is the MMU's fault. */
	compute_job(0, mesa_shifts, 0x30000000);
	submit(JS, 0, 0);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(js_reg(JS, JS_STATUS) & 0xF8, 0xC0);
	CHECK(fh_fini(&fh));
}

TEST(slots_run_side_by_side)
{
	REQUIRE(setup());
	job(0, MDG_JOB_TYPE_NULL, 0, 0, -1);
	job(1, MDG_JOB_TYPE_NULL, 0, 0, -1);
	job(2, MDG_JOB_TYPE_NULL, 0, 0, -1);
	for (unsigned int js = 0; js < 3; js++)
		submit(js, js, 0);
	CHECK_EQ(rd(&fh, JOB_INT_JS_STATE), 0x7);
	CHECK(fh_run_idle(&fh, 10));
	CHECK_EQ(rd(&fh, JOB_INT_RAWSTAT), 0x7);
	for (unsigned int js = 0; js < 3; js++)
		CHECK_EQ(js_reg(js, JS_STATUS), 1);
	CHECK(fh_fini(&fh));
}

static volatile int worker_quit;

/* Polls a register for up to a second while the worker runs. */
static uint32_t poll_until(uint32_t off, uint32_t mask, uint32_t want)
{
	struct timespec start, now, pause = { 0, 10000 };
	uint32_t v;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		v = rd(&fh, off);
		if ((v & mask) == want)
			return v;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec > 1)
			return v;
		nanosleep(&pause, NULL);
	}
}

static void *worker(void *arg)
{
	(void)arg;
	while (!worker_quit)
		sgpu_run(fh.gpu, 1000000);
	return NULL;
}

/* The host's real arrangement: a worker thread runs, the CPU writes. */
TEST(worker_thread_honours_stops)
{
	pthread_t thread;

	REQUIRE(setup());
	worker_quit = 0;
	REQUIRE(pthread_create(&thread, NULL, worker, NULL) == 0);
	for (int round = 0; round < 20; round++) {
		wv(0, DATA_VA, SGPU_TEST_HANG_TYPE, -1);
		job(4, MDG_JOB_TYPE_NULL, 0, 0, -1);
		submit(JS, 0, 0);
		wr(&fh, JS_REG(JS, JS_COMMAND), JS_COMMAND_HARD_STOP);
		CHECK_EQ(poll_until(JOB_INT_JS_STATE, 0xFFFFFFFF, 0), 0);
		CHECK_EQ(js_reg(JS, JS_STATUS), 0x04);
		wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
		submit(JS, 4, 0);
		CHECK_EQ(poll_until(JOB_INT_RAWSTAT, 1u << JS, 1u << JS), 1u << JS);
		CHECK_EQ(js_reg(JS, JS_STATUS), 0x01);
		wr(&fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	}
	worker_quit = 1;
	pthread_join(thread, NULL);
	CHECK(fh_fini(&fh));
}

int main(void)
{
	RUN(null_job_runs_only_in_sgpu_run);
	RUN(write_value_types_and_next_pointers);
	RUN(chains_are_traced_decoded);
	RUN(list_order_and_dependencies);
	RUN(malformed_headers);
	RUN(mmu_fault_fails_job);
	RUN(next_queued_while_busy);
	RUN(next_not_started_after_failure);
	RUN(soft_stop);
	RUN(hard_stop_and_hang);
	RUN(panfrost_reset_sequence);
	RUN(cycles_are_faults_not_hangs);
	RUN(chain_length_bound);
	RUN(descriptor_writeback_can_be_disabled);
	RUN(compute_jobs);
	RUN(slots_run_side_by_side);
	RUN(worker_thread_honours_stops);
	return check_summary();
}
