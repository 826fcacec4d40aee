/* SPDX-License-Identifier: MIT */
/*
 * Fuzz test of the GPU model: random register traffic, random page tables
 * and random job chains in fake RAM, with sgpu_run() called on small
 * budgets. Checks that nothing crashes (run it under ASan/UBSan) and that
 * invariants hold after every case:
 *  - each interrupt line is high exactly when (RAWSTAT & MASK) != 0;
 *  - JS_STATUS and AS_FAULTSTATUS only ever hold listed exception codes;
 *  - the guard zones around fake RAM are never touched.
 *
 * Usage: sgpu_fuzz [cases [seed]]  (default 100000 cases, seed 1)
 */
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "fake_host.h"
#include "xorshift.h"

CHECK_MAIN_STATE("model-fuzz");

#define RAM_BASE 0x40000000ull
#define RAM_SIZE (1u << 20)
#define ARENA_VA 0x1000000ull
#define ARENA_SIZE 0x10000u
#define CASES_PER_GPU 2000

static uint64_t rng_state;
static unsigned long cases = 100000;

static uint64_t rnd(void)
{
	return xorshift64star(&rng_state);
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static bool chance(unsigned int percent)
{
	return below(100) < percent;
}

static struct fake_host fh;
static uint64_t root, arena;
static uint64_t tables[4];    /* the arena's walk: L0 (= root) to L3 */

/* Rewrites the arena's translation, whatever the mutations did to it. */
static void restore_mapping(void)
{
	for (unsigned int l = 0; l < 3; l++)
		fh_w64(&fh, tables[l] + ((ARENA_VA >> (39 - 9 * l)) & 0x1FF) * 8,
		       tables[l + 1] | 3);
	for (unsigned int off = 0; off < ARENA_SIZE; off += 4096)
		fh_w64(&fh, tables[3] + (((ARENA_VA + off) >> 12) & 0x1FF) * 8,
		       (arena + off) | PTE_RW);
}

static const uint32_t interesting_offsets[] = {
	GPU_INT_CLEAR, GPU_INT_MASK, GPU_CMD, GPU_PWR_OVERRIDE0,
	GPU_PERFCNT_BASE_LO, GPU_PERFCNT_BASE_HI, GPU_PERFCNT_CONFIG,
	GPU_PRFCNT_JM_EN, GPU_PRFCNT_SHADER_EN, GPU_PRFCNT_TILER_EN,
	GPU_PRFCNT_MMU_L2_EN, GPU_PWRON_BASE, GPU_PWRON_BASE + 0x10,
	GPU_PWRON_BASE + 0x20, GPU_PWROFF_BASE, GPU_PWROFF_BASE + 0x10,
	GPU_PWROFF_BASE + 0x20, GPU_JM_CONFIG, GPU_SHADER_CONFIG,
	JOB_INT_CLEAR, JOB_INT_MASK, MMU_INT_CLEAR, MMU_INT_MASK,
};

static uint32_t random_value(void)
{
	switch (below(8)) {
	case 0: return 0;
	case 1: return 0xFFFFFFFF;
	case 2: return below(10);
	case 3: return 1u << below(32);
	case 4: return 0x70007;
	default: return (uint32_t)rnd();
	}
}

static uint32_t random_offset(void)
{
	unsigned int n = sizeof(interesting_offsets) / sizeof(interesting_offsets[0]);

	switch (below(6)) {
	case 0:
		return interesting_offsets[below(n)];
	case 1:
		return JS_REG(below(4), below(JOB_SLOT_STRIDE / 4) * 4);
	case 2:
		return AS_REG(below(9), below(MMU_AS_STRIDE / 4) * 4);
	case 3:
		return below(0x1000 / 4) * 4;
	case 4:
		return below(SGPU_MMIO_SIZE / 4) * 4;
	default:
		/* Including misaligned and out-of-window offsets. */
		return (uint32_t)rnd() % (SGPU_MMIO_SIZE + 16);
	}
}

/* A random VA: mostly in the arena, sometimes anywhere. */
static uint64_t random_va(void)
{
	switch (below(8)) {
	case 0: return rnd();
	case 1: return 0;
	case 2: return rnd() & 0xFFFFFFFFFFFFull;
	default: return ARENA_VA + below(ARENA_SIZE);
	}
}

static uint64_t random_pte(void)
{
	uint64_t pa;

	switch (below(6)) {
	case 0: return 0;
	case 1: return rnd();
	case 2: pa = RAM_BASE + (below(RAM_SIZE) & ~0xFFFu); break;
	default: pa = arena + (below(ARENA_SIZE) & ~0xFFFu); break;
	}
	return pa | (chance(80) ? 1 : 3) | (rnd() & 0x60000000000FFCull);
}

/* Scribbles over a page-table entry somewhere on the arena's walk. */
static void mutate_page_table(void)
{
	uint64_t va = chance(80) ? ARENA_VA + below(ARENA_SIZE) : random_va();
	unsigned int r = below(100);
	/* Mostly leaves: a broken top level would starve every later case. */
	unsigned int level = r < 70 ? 3 : r < 85 ? 2 : r < 95 ? 1 : 0;
	uint64_t table = root, entry = 0;

	for (unsigned int l = 0; l <= level; l++) {
		entry = table + ((va >> (39 - 9 * l)) & 0x1FF) * 8;
		if (l == level)
			break;
		uint64_t pte = fh_r64(&fh, entry);
		if ((pte & 3) != 3)
			return;
		table = pte & 0x0000FFFFFFFFF000ull;
		if (table < RAM_BASE || table + 4096 > RAM_BASE + RAM_SIZE)
			return;
	}
	fh_w64(&fh, entry, random_pte());
	if (chance(50))
		wr(&fh, AS_REG(below(8), AS_COMMAND),
		   chance(50) ? AS_COMMAND_FLUSH_PT : AS_COMMAND_UPDATE);
}

static void fill_random(uint64_t pa, unsigned int len)
{
	for (unsigned int i = 0; i < len; i += 4)
		fh_w32(&fh, pa + i, (uint32_t)rnd());
}

/* Builds a chain of random jobs in the arena and submits it. */
static void random_chain(void)
{
	unsigned int n = 1 + below(8);
	uint64_t slots[8];
	unsigned int js = below(3);

	for (unsigned int i = 0; i < n; i++)
		slots[i] = below(ARENA_SIZE / 256 - 1) * 256ull;
	for (unsigned int i = 0; i < n; i++) {
		uint64_t pa = arena + slots[i];
		uint64_t next = i + 1 < n ? ARENA_VA + slots[i + 1] : 0;
		unsigned int r = below(100);
		unsigned int type = r < 40 ? MDG_JOB_TYPE_NULL :
				    r < 70 ? MDG_JOB_TYPE_WRITE_VALUE :
				    r < 80 ? MDG_JOB_TYPE_CACHE_FLUSH :
				    r < 90 ? MDG_JOB_TYPE_COMPUTE : below(128);
		uint64_t wv = pa + MDG_WRITE_VALUE_JOB_PAYLOAD_OFFSET;
		uint64_t inv = pa + MDG_COMPUTE_JOB_INVOCATION_OFFSET;
		uint64_t draw = pa + MDG_COMPUTE_JOB_DRAW_OFFSET;

		if (chance(10))
			next = chance(50) ? ARENA_VA + slots[below(n)] : random_va();
		fill_random(pa, 256);
		/* The header's flags stay random at times. */
		if (!chance(20))
			for (unsigned int f = MDG_JOB_HEADER_BARRIER;
			     f <= MDG_JOB_HEADER_RELAX_DEPENDENCY_2; f++)
				fh_set(&fh, pa, f, 0);
		fh_set(&fh, pa, MDG_JOB_HEADER_IS_64B, chance(95));
		fh_set(&fh, pa, MDG_JOB_HEADER_TYPE, type);
		fh_set(&fh, pa, MDG_JOB_HEADER_INDEX, i + 1);
		/* Mostly no or valid dependencies, sometimes impossible ones. */
		fh_set(&fh, pa, MDG_JOB_HEADER_DEPENDENCY_1,
		       chance(80) ? 0 : chance(75) ? below(i + 1) :
		       rnd() & 0xFFFF);
		fh_set(&fh, pa, MDG_JOB_HEADER_DEPENDENCY_2,
		       chance(80) ? 0 : chance(75) ? below(i + 1) :
		       rnd() & 0xFFFF);
		fh_set(&fh, pa, MDG_JOB_HEADER_NEXT, next);
		if (type == MDG_JOB_TYPE_WRITE_VALUE) {
			fh_set(&fh, wv, MDG_WRITE_VALUE_PAYLOAD_ADDRESS,
			       chance(80) ?
			       (ARENA_VA + below(ARENA_SIZE)) & ~7ull :
			       random_va());
			fh_set(&fh, wv, MDG_WRITE_VALUE_PAYLOAD_TYPE,
			       chance(90) ? 1 + below(3) :
			       chance(30) ? SGPU_TEST_HANG_TYPE :
			       (uint32_t)rnd());
		} else if (type == MDG_JOB_TYPE_COMPUTE && chance(70)) {
			/* Shifts all 0 (one thread) or random ones. */
			for (unsigned int f = MDG_INVOCATION_SIZE_Y_SHIFT;
			     f <= MDG_INVOCATION_WORKGROUPS_Z_SHIFT; f++)
				fh_set(&fh, inv, f, chance(50) ? 0 :
				       rnd() & ((1u << mdg_field_info(f)->bits) -
						1));
			if (chance(90)) {
				uint8_t flags[8] = { 0 };

				/* The draw descriptor's first word as Mesa
				 * writes it for compute. */
				fh_write(&fh, draw, flags, 4);
				fh_set(&fh, draw,
				       MDG_DRAW_FOUR_COMPONENTS_PER_VERTEX, 1);
				fh_set(&fh, draw,
				       MDG_DRAW_DRAW_DESCRIPTOR_IS_64B, 1);
				fh_set(&fh, draw,
				       MDG_DRAW_TEXTURE_DESCRIPTOR_IS_64B, 1);
			}
			fh_set(&fh, draw, MDG_DRAW_STATE, chance(80) ?
			       (ARENA_VA + below(ARENA_SIZE)) & ~63ull :
			       random_va());
			fh_set(&fh, draw, MDG_DRAW_THREAD_STORAGE,
			       chance(50) ? 0 : random_va());
		}
	}
	if (chance(80))
		fh_as_enable(&fh, 1, root);
	fh_submit(&fh, js, chance(95) ? ARENA_VA + slots[0] : random_va(),
		  chance(90) ? 1 : below(16), (uint32_t)rnd() & 0x8800);
}

static void random_stop(void)
{
	static const uint32_t cmds[] = { 2, 3, 4, 5, 6, 7 };

	wr(&fh, JS_REG(below(3), JS_COMMAND), cmds[below(6)]);
}

static void new_gpu(void)
{
	if (fh.gpu && !fh_fini(&fh)) {
		CHECK(!"guard zone around fake RAM was touched");
	}
	fh_init(&fh, RAM_BASE, RAM_SIZE);
	fh_create(&fh, (enum sgpu_product)below(SGPU_PRODUCT_COUNT), chance(50));
	fh_panfrost_probe(&fh);
	root = fh_pt_new(&fh);
	arena = fh_alloc(&fh, ARENA_SIZE, 4096);
	fh_map(&fh, root, ARENA_VA, arena, ARENA_SIZE, PTE_RW);
	tables[0] = root;
	for (unsigned int l = 1; l < 4; l++)
		tables[l] = fh_r64(&fh, fh_pt_entry(&fh, root, ARENA_VA, l - 1)) &
			    0x0000FFFFFFFFF000ull;
	fh_as_enable(&fh, 1, root);
	wr(&fh, GPU_PERFCNT_BASE_LO, (uint32_t)ARENA_VA + 0x8000);
}

static bool invariants_hold(unsigned long c)
{
	static const struct { uint32_t raw, mask; } lines[SGPU_IRQ_COUNT] = {
		[SGPU_IRQ_JOB] = { JOB_INT_RAWSTAT, JOB_INT_MASK },
		[SGPU_IRQ_MMU] = { MMU_INT_RAWSTAT, MMU_INT_MASK },
		[SGPU_IRQ_GPU] = { GPU_INT_RAWSTAT, GPU_INT_MASK },
	};
	bool ok = true;

	for (int l = 0; l < SGPU_IRQ_COUNT; l++) {
		bool want = (rd(&fh, lines[l].raw) & rd(&fh, lines[l].mask)) != 0;

		if (fh.irq[l] != want || sgpu_irq_level(fh.gpu, l) != want) {
			printf("  case %lu: irq line %d is %d, want %d\n", c, l,
			       fh.irq[l], want);
			ok = false;
		}
	}
	for (unsigned int js = 0; js < 3; js++) {
		uint32_t status = rd(&fh, JS_REG(js, JS_STATUS));

		if (!fh_exception_listed(status)) {
			printf("  case %lu: JS%u_STATUS 0x%x is not a listed "
			       "code\n", c, js, status);
			ok = false;
		}
	}
	for (unsigned int as = 0; as < 8; as++) {
		uint32_t fs = rd(&fh, AS_REG(as, AS_FAULTSTATUS));

		if (!fh_exception_listed(fs & 0xFF)) {
			printf("  case %lu: AS%u_FAULTSTATUS 0x%x is not a "
			       "listed code\n", c, as, fs);
			ok = false;
		}
	}
	return ok;
}

/* What the fuzzed GPUs did, summed over every model instance. */
struct fuzz_totals {
	uint64_t walks, jobs, faults, done, outside;
};

/* Adds the current model's statistics before it is replaced. */
static void add_totals(struct fuzz_totals *t)
{
	struct sgpu_stats st;

	sgpu_get_stats(fh.gpu, &st);
	t->walks += st.page_walks;
	t->jobs += st.jobs_run;
	t->faults += st.chains_failed;
	t->done += st.chains_done;
	t->outside += fh.reads_outside + fh.writes_outside;
}

TEST(fuzz)
{
	struct fuzz_totals totals = { 0 };

	for (unsigned long c = 0; c < cases; c++) {
		unsigned int ops = 1 + below(6);

		if (c % 16 == 0 && fh.gpu)
			restore_mapping();
		if (c % CASES_PER_GPU == 0) {
			if (fh.gpu) {
				add_totals(&totals);
			}
			new_gpu();
		}
		for (unsigned int i = 0; i < ops; i++) {
			unsigned int what = below(100);

			if (what < 35)
				wr(&fh, random_offset(), random_value());
			else if (what < 50)
				(void)rd(&fh, random_offset());
			else if (what < 62)
				mutate_page_table();
			else if (what < 85)
				random_chain();
			else if (what < 92)
				random_stop();
			else if (what < 96)
				wr(&fh, JOB_INT_CLEAR, rd(&fh, JOB_INT_RAWSTAT));
			else
				fh.now += rnd() % 1000000000ull;
		}
		sgpu_run(fh.gpu, below(4) == 0 ? 0 : 20000);
		if (!invariants_hold(c)) {
			CHECK(!"invariants hold");
			printf("  (seed case %lu)\n", c);
			break;
		}
	}
	add_totals(&totals);
	CHECK(fh_fini(&fh));
	printf("  %lu cases: %llu jobs run, %llu chains done, %llu faulted, "
	       "%llu page walks, %llu refused accesses outside RAM\n", cases,
	       (unsigned long long)totals.jobs,
	       (unsigned long long)totals.done,
	       (unsigned long long)totals.faults,
	       (unsigned long long)totals.walks,
	       (unsigned long long)totals.outside);
}

int main(int argc, char **argv)
{
	uint64_t seed = 1;
	struct timespec a, b;

	if (argc > 1)
		cases = strtoul(argv[1], NULL, 0);
	if (argc > 2)
		seed = strtoull(argv[2], NULL, 0);
	rng_state = seed ? seed : 1;
	printf("sgpu_fuzz: %lu cases, seed %llu\n", cases,
	       (unsigned long long)seed);
	clock_gettime(CLOCK_MONOTONIC, &a);
	RUN(fuzz);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("  %.2f s\n", (double)(b.tv_sec - a.tv_sec) +
	       (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return check_summary();
}
