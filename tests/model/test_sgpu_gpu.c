/* SPDX-License-Identifier: MIT */
/*
 * GPU control block: creation, identification, panfrost's probe and resume
 * sequences, power domains, GPU_CMD and the interrupt semantics of all
 * three blocks.
 */
#include "check.h"
#include "fake_host.h"

CHECK_MAIN_STATE("model-gpu");

#define RAM_BASE 0x80000000ull
#define RAM_SIZE (4u << 20)

TEST(create_rejects_bad_config)
{
	struct fake_host fh;
	struct sgpu_config cfg = { .product = SGPU_T860, .shader_cores = 4 };
	struct sgpu_host no_kick;
	char err[128] = "";

	fh_init(&fh, RAM_BASE, RAM_SIZE);
	CHECK(sgpu_create(NULL, &fh.host, err, sizeof(err)) == NULL);
	cfg.product = SGPU_PRODUCT_COUNT;
	CHECK(sgpu_create(&cfg, &fh.host, err, sizeof(err)) == NULL);
	CHECK(err[0] != 0);
	cfg.product = (enum sgpu_product)-1;
	CHECK(sgpu_create(&cfg, &fh.host, NULL, 0) == NULL);
	cfg.product = SGPU_T860;
	cfg.shader_cores = 17;
	CHECK(sgpu_create(&cfg, &fh.host, err, sizeof(err)) == NULL);
	cfg.product = SGPU_T820;
	cfg.shader_cores = 8;
	CHECK(sgpu_create(&cfg, &fh.host, err, sizeof(err)) == NULL);
	no_kick = fh.host;
	no_kick.kick = NULL;
	cfg.product = SGPU_T860;
	cfg.shader_cores = 4;
	CHECK(sgpu_create(&cfg, &no_kick, err, sizeof(err)) == NULL);
	/* A system counter faster than 1 GHz is refused. */
	err[0] = 0;
	cfg.timestamp_hz = SGPU_MAX_TIMESTAMP_HZ + 1;
	CHECK(sgpu_create(&cfg, &fh.host, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "timestamp") != NULL);
	cfg.timestamp_hz = 0;
	/* 0 cores = the product's default. */
	cfg.shader_cores = 0;
	fh.gpu = sgpu_create(&cfg, &fh.host, err, sizeof(err));
	REQUIRE(fh.gpu);
	CHECK_EQ(rd(&fh, GPU_SHADER_PRESENT_LO), 0xF);
	CHECK(fh_fini(&fh));
}

TEST(product_names)
{
	static const char *names[] = { "t604", "t628", "t720", "t760",
				       "t820", "t830", "t860", "t880" };

	for (int i = 0; i < SGPU_PRODUCT_COUNT; i++)
		CHECK_EQ(sgpu_product_from_name(names[i]), i);
	CHECK_EQ(sgpu_product_from_name("t999"), (uint64_t)-1);
	CHECK_EQ(sgpu_product_from_name(NULL), (uint64_t)-1);
}

TEST(gpu_ids)
{
	static const uint32_t ids[] = { 0x6956, 0x0620, 0x0720, 0x0750,
					0x0820, 0x0830, 0x0860, 0x0880 };

	for (int i = 0; i < SGPU_PRODUCT_COUNT; i++) {
		struct fake_host fh;

		fh_init(&fh, RAM_BASE, RAM_SIZE);
		REQUIRE(fh_create(&fh, (enum sgpu_product)i, false));
		CHECK_EQ(rd(&fh, GPU_ID), ids[i] << 16 | 0x2000);
		CHECK(fh_fini(&fh));
	}
}

/*
 * The revisions the boards report (GPU_ID[15:0]): RK3399's T860 r2p0,
 * RK3288's T760 r0p0, Exynos 5422's T628 r1p0.
 */
TEST(board_revisions)
{
	CHECK_EQ(sgpu_product_revision(SGPU_T860), 0x2000);
	CHECK_EQ(sgpu_product_revision(SGPU_T760), 0x0000);
	CHECK_EQ(sgpu_product_revision(SGPU_T628), 0x1000);
	CHECK_EQ(sgpu_product_revision(SGPU_PRODUCT_COUNT), 0);
}

/* SHADER_PRESENT, L2_PRESENT and MEM_FEATURES of one configuration. */
static void check_groups(enum sgpu_product product, unsigned int cores,
			 uint64_t shader, uint64_t l2, uint32_t mem)
{
	struct fake_host fh;

	fh_init(&fh, RAM_BASE, RAM_SIZE);
	fh.shader_cores = cores;
	REQUIRE(fh_create(&fh, product, false));
	CHECK_EQ(rd64(&fh, GPU_SHADER_PRESENT_LO), shader);
	CHECK_EQ(rd64(&fh, GPU_L2_PRESENT_LO), l2);
	CHECK_EQ(rd(&fh, GPU_MEM_FEATURES), mem);
	CHECK_EQ(rd64(&fh, GPU_TILER_PRESENT_LO), 1);
	CHECK(fh_fini(&fh));
}

/*
 * T62x parts of more than 4 cores are core groups of 4, each behind its
 * own L2, whose L2_PRESENT bit sits at the group's first core (Exynos
 * 5422's T628 MP6: 4 + 2). The groups are not L2-coherent (MEM_FEATURES
 * bit 0 clear). T720 and T7xx/T8xx keep one L2.
 */
TEST(core_groups)
{
	struct fake_host fh;
	uint64_t l2, first_group;

	check_groups(SGPU_T628, 4, 0xF, 0x1, 0x1);
	check_groups(SGPU_T628, 6, 0x3F, 0x11, 0x0);
	check_groups(SGPU_T628, 8, 0xFF, 0x11, 0x0);
	check_groups(SGPU_T720, 8, 0xFF, 0x1, 0x1);
	check_groups(SGPU_T760, 16, 0xFFFF, 0x1, 0x1);

	/* The T628 MP6 as panfrost powers it: the first group only. */
	fh_init(&fh, RAM_BASE, RAM_SIZE);
	fh.shader_cores = 6;
	REQUIRE(fh_create(&fh, SGPU_T628, false));
	l2 = rd64(&fh, GPU_L2_PRESENT_LO);
	first_group = ~(l2 - 1) & (l2 - 2);  /* panfrost_get_core_mask() */
	CHECK_EQ(first_group, 0xF);
	wr(&fh, GPU_PWRON_BASE + 0x20, (uint32_t)(l2 & first_group));
	CHECK_EQ(rd(&fh, GPU_READY_BASE + 0x20), 0x1);
	wr(&fh, GPU_PWRON_BASE, (uint32_t)first_group);
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0xF);
	/* The second group's L2 and cores power up on their own. */
	wr(&fh, GPU_PWRON_BASE + 0x20, 0x10);
	CHECK_EQ(rd(&fh, GPU_READY_BASE + 0x20), 0x11);
	wr(&fh, GPU_PWRON_BASE, 0x30);
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0x3F);
	/* An L2 that is not there does not. */
	fh.guest_errors = 0;
	wr(&fh, GPU_PWRON_BASE + 0x20, 0x2);
	CHECK_EQ(rd(&fh, GPU_READY_BASE + 0x20), 0x11);
	CHECK(fh.guest_errors == 1);
	wr(&fh, GPU_PWROFF_BASE + 0x20, 0x10);
	CHECK_EQ(rd(&fh, GPU_READY_BASE + 0x20), 0x1);
	CHECK(fh_fini(&fh));
}

TEST(t860_features_match_rk3399)
{
	struct fake_host fh;

	fh_init(&fh, RAM_BASE, RAM_SIZE);
	REQUIRE(fh_create(&fh, SGPU_T860, false));
	CHECK_EQ(rd(&fh, GPU_ID), 0x08602000);
	CHECK_EQ(rd(&fh, GPU_L2_FEATURES), 0x07120206);
	CHECK_EQ(rd(&fh, GPU_CORE_FEATURES), 0);
	CHECK_EQ(rd(&fh, GPU_TILER_FEATURES), 0x809);
	CHECK_EQ(rd(&fh, GPU_MEM_FEATURES), 0x1);
	CHECK_EQ(rd(&fh, GPU_MMU_FEATURES), 0x2830);
	CHECK_EQ(rd(&fh, GPU_AS_PRESENT), 0xFF);
	CHECK_EQ(rd(&fh, GPU_JS_PRESENT), 0x7);
	CHECK_EQ(rd64(&fh, GPU_SHADER_PRESENT_LO), 0xF);
	CHECK_EQ(rd64(&fh, GPU_TILER_PRESENT_LO), 0x1);
	CHECK_EQ(rd64(&fh, GPU_L2_PRESENT_LO), 0x1);
	CHECK_EQ(rd(&fh, GPU_THREAD_MAX_THREADS), 256);
	CHECK_EQ(rd(&fh, GPU_THREAD_MAX_WORKGROUP_SIZE), 256);
	CHECK_EQ(rd(&fh, GPU_THREAD_MAX_BARRIER_SIZE), 256);
	CHECK(rd(&fh, GPU_THREAD_FEATURES) != 0);
	CHECK(rd(&fh, GPU_JS_FEATURES(1)) & (1u << 4)); /* compute on JS1 */
	CHECK_EQ(rd(&fh, GPU_JS_FEATURES(3)), 0);
	CHECK_EQ(rd(&fh, GPU_AFBC_FEATURES), 0);
	/* Unimplemented registers read 0. */
	CHECK_EQ(rd(&fh, 0x0FFC), 0);
	CHECK_EQ(rd(&fh, 0x3000), 0);
	CHECK_EQ(rd(&fh, 0xFFFC), 0);
	CHECK(fh_fini(&fh));
}

TEST(panfrost_probe_and_resume)
{
	struct fake_host fh;

	fh_init(&fh, RAM_BASE, RAM_SIZE);
	REQUIRE(fh_create(&fh, SGPU_T860, false));
	/* Power-on state: nothing pending, nothing powered, lines low. */
	CHECK_EQ(rd(&fh, GPU_INT_RAWSTAT), 0);
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0);
	REQUIRE(fh_panfrost_probe(&fh));
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0xF);
	CHECK_EQ(rd(&fh, GPU_READY_BASE + 0x10), 1);
	CHECK_EQ(rd(&fh, GPU_READY_BASE + 0x20), 1);
	CHECK_EQ(rd(&fh, GPU_SHADER_CONFIG), 0x10000);
	CHECK_EQ(rd(&fh, GPU_TILER_CONFIG), 1);
	CHECK_EQ(rd(&fh, GPU_JM_CONFIG), 0x1F8);
	/* POWER_CHANGED is pending but masked (panfrost never enables it). */
	CHECK(rd(&fh, GPU_INT_RAWSTAT) & GPU_IRQ_POWER_CHANGED_ALL);
	CHECK_EQ(rd(&fh, GPU_INT_STAT), 0);
	CHECK(!fh.irq[SGPU_IRQ_GPU]);

	/* Suspend: PWROFF, PWRTRANS reads 0, READY drops. */
	wr(&fh, GPU_PWROFF_BASE, 0xF);
	CHECK_EQ(rd(&fh, GPU_PWRTRANS_BASE), 0);
	wr(&fh, GPU_PWROFF_BASE + 0x10, 1);
	CHECK_EQ(rd(&fh, GPU_PWRTRANS_BASE + 0x10), 0);
	wr(&fh, GPU_PWROFF_BASE + 0x20, 1);
	CHECK_EQ(rd(&fh, GPU_PWRTRANS_BASE + 0x20), 0);
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0);
	CHECK_EQ(rd(&fh, GPU_READY_BASE + 0x20), 0);

	/* Resume = the whole sequence again; resets clear the quirk regs. */
	REQUIRE(fh_panfrost_probe(&fh));
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0xF);
	CHECK_EQ(rd(&fh, GPU_INT_MASK), 0x30081);
	CHECK(fh_fini(&fh));
}

TEST(partial_power)
{
	struct fake_host fh;

	fh_init(&fh, RAM_BASE, RAM_SIZE);
	REQUIRE(fh_create(&fh, SGPU_T860, false));
	wr(&fh, GPU_PWRON_BASE, 0x3);
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0x3);
	wr(&fh, GPU_PWRON_BASE, 0x4);
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0x7);
	wr(&fh, GPU_PWROFF_BASE, 0x2);
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0x5);
	/* Absent cores cannot be powered (and the guest hears about it). */
	fh.guest_errors = 0;
	wr(&fh, GPU_PWRON_BASE, 0xF0);
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0x5);
	CHECK(fh.guest_errors == 1);
	/* HI halves: nothing present there. */
	wr(&fh, GPU_PWRON_BASE + 4, 0xFFFFFFFF);
	CHECK_EQ(rd(&fh, GPU_READY_BASE + 4), 0);
	CHECK(fh_fini(&fh));
}

TEST(soft_reset_resets_state)
{
	struct fake_host fh;

	fh_init(&fh, RAM_BASE, RAM_SIZE);
	REQUIRE(fh_create(&fh, SGPU_T860, false));
	REQUIRE(fh_panfrost_probe(&fh));
	wr(&fh, AS_REG(2, AS_TRANSTAB_LO), 0x1007);
	wr(&fh, GPU_PERFCNT_CONFIG, 0x21);
	wr(&fh, JS_REG(1, JS_HEAD_NEXT_LO), 0x1234);
	wr(&fh, GPU_CMD, GPU_CMD_SOFT_RESET);
	CHECK_EQ(rd(&fh, GPU_INT_RAWSTAT), GPU_IRQ_RESET_COMPLETED);
	CHECK_EQ(rd(&fh, GPU_INT_MASK), 0);
	CHECK_EQ(rd(&fh, JOB_INT_MASK), 0);
	CHECK_EQ(rd(&fh, MMU_INT_MASK), 0);
	CHECK_EQ(rd(&fh, AS_REG(2, AS_TRANSTAB_LO)), 0);
	CHECK_EQ(rd(&fh, GPU_PERFCNT_CONFIG), 0);
	CHECK_EQ(rd(&fh, JS_REG(1, JS_HEAD_NEXT_LO)), 0);
	CHECK_EQ(rd(&fh, GPU_READY_BASE), 0);
	CHECK_EQ(rd(&fh, GPU_JM_CONFIG), 0);
	/* Hard reset behaves the same; sgpu_reset() is a power-on reset. */
	wr(&fh, GPU_INT_CLEAR, 0xFFFFFFFF);
	wr(&fh, GPU_CMD, GPU_CMD_HARD_RESET);
	CHECK_EQ(rd(&fh, GPU_INT_RAWSTAT), GPU_IRQ_RESET_COMPLETED);
	sgpu_reset(fh.gpu);
	CHECK_EQ(rd(&fh, GPU_INT_RAWSTAT), 0);
	CHECK(fh_fini(&fh));
}

TEST(gpu_irq_semantics)
{
	struct fake_host fh;

	fh_init(&fh, RAM_BASE, RAM_SIZE);
	REQUIRE(fh_create(&fh, SGPU_T860, false));
	wr(&fh, GPU_CMD, GPU_CMD_CLEAN_CACHES);
	CHECK_EQ(rd(&fh, GPU_INT_RAWSTAT), GPU_IRQ_CLEAN_CACHES_COMPLETED);
	CHECK_EQ(rd(&fh, GPU_INT_STAT), 0);
	CHECK(!fh.irq[SGPU_IRQ_GPU]);
	/* Unmasking a pending bit raises the line; STAT = RAWSTAT & MASK. */
	wr(&fh, GPU_INT_MASK, GPU_IRQ_CLEAN_CACHES_COMPLETED | GPU_IRQ_FAULT);
	CHECK_EQ(rd(&fh, GPU_INT_STAT), GPU_IRQ_CLEAN_CACHES_COMPLETED);
	CHECK(fh.irq[SGPU_IRQ_GPU]);
	CHECK(sgpu_irq_level(fh.gpu, SGPU_IRQ_GPU));
	/* Masking lowers it without clearing RAWSTAT. */
	wr(&fh, GPU_INT_MASK, 0);
	CHECK(!fh.irq[SGPU_IRQ_GPU]);
	CHECK_EQ(rd(&fh, GPU_INT_RAWSTAT), GPU_IRQ_CLEAN_CACHES_COMPLETED);
	wr(&fh, GPU_INT_MASK, GPU_IRQ_ALL);
	CHECK(fh.irq[SGPU_IRQ_GPU]);
	/* Clearing another bit changes nothing; clearing it lowers. */
	wr(&fh, GPU_INT_CLEAR, GPU_IRQ_FAULT);
	CHECK(fh.irq[SGPU_IRQ_GPU]);
	wr(&fh, GPU_INT_CLEAR, GPU_IRQ_CLEAN_CACHES_COMPLETED);
	CHECK(!fh.irq[SGPU_IRQ_GPU]);
	CHECK_EQ(rd(&fh, GPU_INT_RAWSTAT), 0);
	/* CLEAN_INV_CACHES completes the same way. */
	wr(&fh, GPU_CMD, GPU_CMD_CLEAN_INV_CACHES);
	CHECK(fh.irq[SGPU_IRQ_GPU]);
	CHECK_EQ(rd(&fh, GPU_INT_STAT), GPU_IRQ_CLEAN_CACHES_COMPLETED);
	/* RAWSTAT and STAT are read-only. */
	fh.guest_errors = 0;
	wr(&fh, GPU_INT_RAWSTAT, 0);
	wr(&fh, GPU_INT_STAT, 0);
	CHECK_EQ(rd(&fh, GPU_INT_RAWSTAT), GPU_IRQ_CLEAN_CACHES_COMPLETED);
	CHECK_EQ(fh.guest_errors, 2);
	CHECK(fh_fini(&fh));
}

TEST(read_only_and_bad_accesses)
{
	struct fake_host fh;

	fh_init(&fh, RAM_BASE, RAM_SIZE);
	REQUIRE(fh_create(&fh, SGPU_T860, false));
	fh.guest_errors = 0;
	wr(&fh, GPU_ID, 0);
	CHECK_EQ(rd(&fh, GPU_ID), 0x08602000);
	wr(&fh, GPU_SHADER_PRESENT_LO, 0xFF);
	CHECK_EQ(rd(&fh, GPU_SHADER_PRESENT_LO), 0xF);
	wr(&fh, JS_REG(0, JS_STATUS), 0x40);
	CHECK_EQ(rd(&fh, JS_REG(0, JS_STATUS)), 0);
	wr(&fh, JS_REG(0, JS_HEAD_LO), 0x40);
	CHECK_EQ(rd(&fh, JS_REG(0, JS_HEAD_LO)), 0);
	wr(&fh, AS_REG(0, AS_FAULTSTATUS), 1);
	CHECK_EQ(rd(&fh, AS_REG(0, AS_FAULTSTATUS)), 0);
	wr(&fh, 0x3000, 1);
	CHECK_EQ(fh.guest_errors, 6);
	/* Misaligned and out-of-window accesses are refused, not crashes. */
	CHECK_EQ(sgpu_mmio_read(fh.gpu, 0x2), 0);
	CHECK_EQ(sgpu_mmio_read(fh.gpu, SGPU_MMIO_SIZE), 0);
	sgpu_mmio_write(fh.gpu, 0xFFFFFFFC, 1);
	CHECK_EQ(fh.guest_errors, 9);
	CHECK(fh_fini(&fh));
}

TEST(cycle_counter_and_timestamp)
{
	struct fake_host fh;
	uint64_t c1, c2, t1, t2;

	fh_init(&fh, RAM_BASE, RAM_SIZE);
	REQUIRE(fh_create(&fh, SGPU_T860, false));
	CHECK_EQ(rd(&fh, GPU_STATUS) & GPU_STATUS_CYCLE_COUNT_ACTIVE, 0);
	wr(&fh, GPU_CMD, GPU_CMD_CYCLE_COUNT_START);
	CHECK(rd(&fh, GPU_STATUS) & GPU_STATUS_CYCLE_COUNT_ACTIVE);
	c1 = rd(&fh, GPU_CYCLE_COUNT_LO);
	fh.now += 1000000;
	c2 = rd(&fh, GPU_CYCLE_COUNT_LO);
	/* 1 ms at the nominal 800 MHz is 800000 cycles. */
	CHECK(c2 - c1 >= 800000 && c2 - c1 < 801000);
	t1 = rd(&fh, GPU_TIMESTAMP_LO);
	t2 = rd(&fh, GPU_TIMESTAMP_LO);
	CHECK(t2 > t1);
	wr(&fh, GPU_CMD, GPU_CMD_CYCLE_COUNT_STOP);
	CHECK_EQ(rd(&fh, GPU_STATUS) & GPU_STATUS_CYCLE_COUNT_ACTIVE, 0);
	fh.guest_errors = 0;
	wr(&fh, GPU_CMD, 0x77);
	CHECK_EQ(fh.guest_errors, 1);
	CHECK(fh_fini(&fh));
}

/* The system timestamp a model with this frequency reads at ns. */
static uint64_t timestamp_at(uint32_t hz, bool system_clock, uint64_t ns)
{
	struct fake_host fh;
	uint64_t ts = 0;

	fh_init(&fh, RAM_BASE, 4096);
	fh.timestamp_hz = hz;
	if (!system_clock)
		fh.host.system_time_ns = NULL;
	if (fh_create(&fh, SGPU_T860, false)) {
		fh.tick = 0;
		if (system_clock) {
			/* The model's own clock must not matter. */
			fh.now = 12345;
			fh.system_offset = ns - fh.now;
		} else {
			fh.now = ns;
		}
		ts = rd64(&fh, GPU_TIMESTAMP_LO);
	}
	CHECK(fh_fini(&fh));
	return ts;
}

/*
 * GPU_TIMESTAMP is the SoC's system counter: the host's system time counted
 * at timestamp_hz, floor(ns * hz / 10^9) with no overflow anywhere in the
 * 64-bit range. At QEMU's 62.5 MHz (the default) that is ns / 16, which is
 * what QEMU's Arm generic timer gives the CPU in CNTVCT; so is every
 * frequency that divides 10^9 (QEMU counts ns / (10^9 / CNTFRQ)).
 */
TEST(system_timestamp_scaling)
{
	static const uint32_t divisors[] = { 62500000, 1000000000, 100000000,
					     50000000, 25000000, 1000 };
	uint64_t ns = 0x0123456789ABCDEFull;
	struct fake_host fh;
	uint64_t t1, t2;

	/* The default is QEMU's generic timer frequency. */
	CHECK_EQ(SGPU_DEFAULT_TIMESTAMP_HZ, 62500000);
	CHECK_EQ(timestamp_at(0, true, 0), 0);
	CHECK_EQ(timestamp_at(0, true, 15), 0);
	CHECK_EQ(timestamp_at(0, true, 16), 1);
	CHECK_EQ(timestamp_at(0, true, 1000000000), 62500000);
	CHECK_EQ(timestamp_at(0, true, 5000000017ull), 312500001);
	CHECK_EQ(timestamp_at(0, true, UINT64_MAX), UINT64_MAX / 16);
	CHECK_EQ(timestamp_at(62500000, true, ns), ns / 16);
	/* RK3399's 24 MHz: exact flooring, not 1/41 ns steps. */
	CHECK_EQ(timestamp_at(24000000, true, 1000000041), 24000000);
	CHECK_EQ(timestamp_at(24000000, true, 1000000042), 24000001);
	CHECK_EQ(timestamp_at(24000000, true, 3600000000000ull),
		 86400000000ull);
	CHECK_EQ(timestamp_at(24000000, true, UINT64_MAX),
		 0x0624DD2F1A9FBE76ull);
	CHECK_EQ(timestamp_at(SGPU_MAX_TIMESTAMP_HZ, true, UINT64_MAX),
		 UINT64_MAX);
	CHECK_EQ(timestamp_at(1, true, 2999999999ull), 2);
	/* Agreement with QEMU's CNTVCT, ns / (10^9 / hz), at many times. */
	for (unsigned int i = 0; i < sizeof(divisors) / sizeof(divisors[0]);
	     i++) {
		uint64_t x = 88172645463325252ull;

		fh_init(&fh, RAM_BASE, 4096);
		fh.timestamp_hz = divisors[i];
		REQUIRE(fh_create(&fh, SGPU_T860, false));
		fh.tick = 0;
		for (int n = 0; n < 1000; n++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			ns = n < 500 ? x : x >> (n % 64);
			fh.system_offset = ns - fh.now;
			CHECK_EQ(rd64(&fh, GPU_TIMESTAMP_LO),
				 ns / (1000000000u / divisors[i]));
		}
		CHECK(fh_fini(&fh));
	}
	/* A host without a system clock: the model's clock serves. */
	CHECK_EQ(timestamp_at(0, false, 1600), 100);

	/* It follows the system time, not the model's own clock. */
	fh_init(&fh, RAM_BASE, RAM_SIZE);
	REQUIRE(fh_create(&fh, SGPU_T860, false));
	fh.tick = 0;
	fh.system_offset = 7000000000ull;
	t1 = rd64(&fh, GPU_TIMESTAMP_LO);
	CHECK_EQ(t1, (fh.now + fh.system_offset) / 16);
	fh.system_offset += 1600;
	t2 = rd64(&fh, GPU_TIMESTAMP_LO);
	CHECK_EQ(t2 - t1, 100);
	/* A reset does not restart it (the cycle counter does restart). */
	wr(&fh, GPU_CMD, GPU_CMD_SOFT_RESET);
	CHECK_EQ(rd64(&fh, GPU_TIMESTAMP_LO), t2);
	CHECK(fh_fini(&fh));
}

TEST(mmu_irq_semantics)
{
	struct fake_host fh;
	uint64_t pa;

	fh_init(&fh, RAM_BASE, RAM_SIZE);
	REQUIRE(fh_create(&fh, SGPU_T860, false));
	/* AS3 is disabled: any access faults at level 0. */
	CHECK_EQ(sgpu_translate(fh.gpu, 3, 0x1000, SGPU_ACCESS_READ, &pa), 0xC0);
	CHECK_EQ(rd(&fh, MMU_INT_RAWSTAT), 1u << 3);
	CHECK_EQ(rd(&fh, MMU_INT_STAT), 0);
	CHECK(!fh.irq[SGPU_IRQ_MMU]);
	wr(&fh, MMU_INT_MASK, 0xFFFFFFFF);
	CHECK(fh.irq[SGPU_IRQ_MMU]);
	CHECK_EQ(rd(&fh, MMU_INT_STAT), 1u << 3);
	CHECK_EQ(rd(&fh, AS_REG(3, AS_FAULTSTATUS)), 0xC0 | AS_ACCESS_READ << 8);
	CHECK_EQ(rd64(&fh, AS_REG(3, AS_FAULTADDRESS_LO)), 0x1000);
	wr(&fh, MMU_INT_MASK, ~(1u << 3));
	CHECK(!fh.irq[SGPU_IRQ_MMU]);
	wr(&fh, MMU_INT_MASK, 0xFFFFFFFF);
	wr(&fh, MMU_INT_CLEAR, (1u << 3) | (1u << 19));
	CHECK(!fh.irq[SGPU_IRQ_MMU]);
	CHECK_EQ(rd(&fh, MMU_INT_RAWSTAT), 0);
	CHECK(fh_fini(&fh));
}

int main(void)
{
	RUN(create_rejects_bad_config);
	RUN(product_names);
	RUN(gpu_ids);
	RUN(board_revisions);
	RUN(core_groups);
	RUN(t860_features_match_rk3399);
	RUN(panfrost_probe_and_resume);
	RUN(partial_power);
	RUN(soft_reset_resets_state);
	RUN(gpu_irq_semantics);
	RUN(read_only_and_bad_accesses);
	RUN(cycle_counter_and_timestamp);
	RUN(system_timestamp_scaling);
	RUN(mmu_irq_semantics);
	return check_summary();
}
