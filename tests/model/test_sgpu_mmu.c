/* SPDX-License-Identifier: MIT */
/*
 * MMU: page walks in the ARM_MALI_LPAE format (pages, 2 MiB and 1 GiB
 * blocks), translation, permission and bus faults with their fault
 * registers, disabled address spaces, the translation cache and its
 * invalidation, and fault queueing.
 */
#include "check.h"
#include "fake_host.h"

CHECK_MAIN_STATE("model-mmu");

#define RAM_BASE 0x40000000ull
#define RAM_SIZE (8u << 20)

static struct fake_host fh;
static uint64_t root;

static bool setup(void)
{
	fh_init(&fh, RAM_BASE, RAM_SIZE);
	if (!fh_create(&fh, SGPU_T860, false) || !fh_panfrost_probe(&fh))
		return false;
	root = fh_pt_new(&fh);
	fh_as_enable(&fh, 1, root);
	return true;
}

static uint32_t xlate(uint64_t va, enum sgpu_access acc, uint64_t *pa)
{
	return sgpu_translate(fh.gpu, 1, va, acc, pa);
}

/* Checks the fault registers of AS1 and acknowledges the fault. */
static void check_fault(uint32_t code, unsigned int access, uint64_t va)
{
	CHECK_EQ(rd(&fh, MMU_INT_RAWSTAT), 1u << 1);
	CHECK(fh.irq[SGPU_IRQ_MMU]);
	CHECK_EQ(rd(&fh, AS_REG(1, AS_FAULTSTATUS)), code | access << 8);
	CHECK_EQ(rd64(&fh, AS_REG(1, AS_FAULTADDRESS_LO)), va);
	wr(&fh, MMU_INT_CLEAR, 0x00020002);
	CHECK(!fh.irq[SGPU_IRQ_MMU]);
}

TEST(page_hits)
{
	uint64_t data, pa = 0;

	REQUIRE(setup());
	data = fh_alloc(&fh, 3 * 4096, 4096);
	fh_map(&fh, root, 0x2000000, data, 3 * 4096, PTE_RW);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(pa, data);
	CHECK_EQ(xlate(0x2001234, SGPU_ACCESS_WRITE, &pa), 0);
	CHECK_EQ(pa, data + 0x1234);
	CHECK_EQ(xlate(0x2002FFF, SGPU_ACCESS_EXECUTE, &pa), 0);
	CHECK_EQ(pa, data + 0x2FFF);
	CHECK_EQ(rd(&fh, MMU_INT_RAWSTAT), 0);
	CHECK(fh_fini(&fh));
}

TEST(block_2m_and_1g)
{
	uint64_t pa = 0;

	REQUIRE(setup());
	/* A 2 MiB block at L2 (PA need not be RAM to translate). */
	fh_w64(&fh, fh_pt_entry(&fh, root, 0x40000000ull, 2),
	       0x80200000ull | PTE_RWNX);
	CHECK_EQ(xlate(0x40000000ull + 0x123456, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(pa, 0x80200000ull + 0x123456);
	/* XN: no execute in a no-exec block, at level 2. */
	CHECK_EQ(xlate(0x40000010ull, SGPU_ACCESS_EXECUTE, &pa), 0xCA);
	check_fault(0xCA, AS_ACCESS_EXECUTE, 0x40000010ull);
	/* A 1 GiB block at L1. */
	fh_w64(&fh, fh_pt_entry(&fh, root, 0x8000000000ull, 1),
	       0xC0000000ull | PTE_RW);
	CHECK_EQ(xlate(0x8000000000ull + 0x3FFFFFFF, SGPU_ACCESS_WRITE, &pa), 0);
	CHECK_EQ(pa, 0xC0000000ull + 0x3FFFFFFF);
	/* Block output addresses ignore the low bits of the entry. */
	fh_w64(&fh, fh_pt_entry(&fh, root, 0x60000000ull, 2),
	       0x80000000ull | 0x1FF000 | PTE_RW);
	CHECK_EQ(xlate(0x60000008ull, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(pa, 0x80000008ull);
	CHECK(fh_fini(&fh));
}

TEST(translation_fault_each_level)
{
	uint64_t pa, va = 0x123456789000ull;

	REQUIRE(setup());
	/* Empty L0. */
	CHECK_EQ(xlate(va, SGPU_ACCESS_READ, &pa), 0xC0);
	check_fault(0xC0, AS_ACCESS_READ, va);
	/* L1 present but empty. */
	fh_pt_entry(&fh, root, va, 1);
	CHECK_EQ(xlate(va, SGPU_ACCESS_WRITE, &pa), 0xC1);
	check_fault(0xC1, AS_ACCESS_WRITE, va);
	fh_pt_entry(&fh, root, va, 2);
	CHECK_EQ(xlate(va, SGPU_ACCESS_READ, &pa), 0xC2);
	check_fault(0xC2, AS_ACCESS_READ, va);
	fh_pt_entry(&fh, root, va, 3);
	CHECK_EQ(xlate(va + 8, SGPU_ACCESS_EXECUTE, &pa), 0xC3);
	check_fault(0xC3, AS_ACCESS_EXECUTE, va + 8);
	/* Type 01 at L0 is not a valid block; type 11 at L3 is not a page;
	 * type 10 is invalid anywhere. */
	fh_w64(&fh, fh_pt_entry(&fh, root, 0x800000000000ull - 0x1000, 0),
	       0x1000 | 1);
	CHECK_EQ(xlate(0x7F8000000000ull, SGPU_ACCESS_READ, &pa), 0xC0);
	check_fault(0xC0, AS_ACCESS_READ, 0x7F8000000000ull);
	fh_w64(&fh, fh_pt_entry(&fh, root, va, 3), RAM_BASE | 0x2C3);
	CHECK_EQ(xlate(va, SGPU_ACCESS_READ, &pa), 0xC3);
	check_fault(0xC3, AS_ACCESS_READ, va);
	fh_w64(&fh, fh_pt_entry(&fh, root, va, 3), RAM_BASE | 0x2C2);
	CHECK_EQ(xlate(va, SGPU_ACCESS_READ, &pa), 0xC3);
	check_fault(0xC3, AS_ACCESS_READ, va);
	/* Beyond the 48-bit VA space. */
	CHECK_EQ(xlate(1ull << 48, SGPU_ACCESS_READ, &pa), 0xE0);
	check_fault(0xE0, AS_ACCESS_READ, 1ull << 48);
	CHECK(fh_fini(&fh));
}

TEST(permission_faults)
{
	uint64_t pa, data;

	REQUIRE(setup());
	data = fh_alloc(&fh, 4 * 4096, 4096);
	fh_map(&fh, root, 0x3000000, data, 4096, PTE_RO);
	fh_map(&fh, root, 0x3001000, data + 4096, 4096, PTE_WO);
	fh_map(&fh, root, 0x3002000, data + 8192, 4096, PTE_RWNX);
	fh_map(&fh, root, 0x3003000, data + 12288, 4096, 0x001);
	CHECK_EQ(xlate(0x3000000, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(xlate(0x3000000, SGPU_ACCESS_EXECUTE, &pa), 0);
	CHECK_EQ(xlate(0x3000010, SGPU_ACCESS_WRITE, &pa), 0xCB);
	check_fault(0xCB, AS_ACCESS_WRITE, 0x3000010);
	CHECK_EQ(xlate(0x3001000, SGPU_ACCESS_WRITE, &pa), 0);
	CHECK_EQ(xlate(0x3001020, SGPU_ACCESS_READ, &pa), 0xCB);
	check_fault(0xCB, AS_ACCESS_READ, 0x3001020);
	CHECK_EQ(xlate(0x3002000, SGPU_ACCESS_WRITE, &pa), 0);
	CHECK_EQ(xlate(0x3002040, SGPU_ACCESS_EXECUTE, &pa), 0xCB);
	check_fault(0xCB, AS_ACCESS_EXECUTE, 0x3002040);
	CHECK_EQ(xlate(0x3003000, SGPU_ACCESS_READ, &pa), 0xCB);
	check_fault(0xCB, AS_ACCESS_READ, 0x3003000);
	CHECK(fh_fini(&fh));
}

TEST(table_outside_ram)
{
	uint64_t pa, va = 0x5000000;

	REQUIRE(setup());
	/* L1 entry pointing at a table that is not RAM: bus fault at L2. */
	fh_w64(&fh, fh_pt_entry(&fh, root, va, 1), 0x10000000ull | 3);
	CHECK_EQ(xlate(va, SGPU_ACCESS_READ, &pa), 0xD2);
	check_fault(0xD2, AS_ACCESS_READ, va);
	/* TRANSTAB itself outside RAM: bus fault at L0. */
	fh_as_enable(&fh, 1, 0x1000);
	CHECK_EQ(xlate(va, SGPU_ACCESS_READ, &pa), 0xD0);
	check_fault(0xD0, AS_ACCESS_READ, va);
	CHECK(fh.writes_outside == 0);
	CHECK(fh_fini(&fh));
}

TEST(disabled_and_identity_as)
{
	uint64_t pa, data;

	REQUIRE(setup());
	data = fh_alloc(&fh, 4096, 4096);
	fh_map(&fh, root, 0x2000000, data, 4096, PTE_RW);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0);
	/* Panfrost's AS disable: TRANSTAB = 0 then UPDATE. */
	fh_as_disable(&fh, 1);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0xC0);
	check_fault(0xC0, AS_ACCESS_READ, 0x2000000);
	/* Writing TRANSTAB without UPDATE does not take effect. */
	wr(&fh, AS_REG(1, AS_TRANSTAB_LO), (uint32_t)root | 7);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0xC0);
	check_fault(0xC0, AS_ACCESS_READ, 0x2000000);
	wr(&fh, AS_REG(1, AS_COMMAND), AS_COMMAND_UPDATE);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0);
	/* Identity mode (unused by panfrost): VA = PA. */
	wr(&fh, AS_REG(4, AS_TRANSTAB_LO), 2);
	wr(&fh, AS_REG(4, AS_COMMAND), AS_COMMAND_UPDATE);
	CHECK_EQ(sgpu_translate(fh.gpu, 4, 0x1234, SGPU_ACCESS_WRITE, &pa), 0);
	CHECK_EQ(pa, 0x1234);
	/* AS registers read back; AS_STATUS is never ACTIVE. */
	fh_as_enable(&fh, 1, root);
	CHECK_EQ(rd(&fh, AS_REG(1, AS_MEMATTR_LO)), 0x888D88);
	CHECK_EQ(rd(&fh, AS_REG(1, AS_LOCKADDR_LO)), 0x3F);
	CHECK_EQ(rd(&fh, AS_REG(1, AS_STATUS)), 0);
	CHECK(fh_fini(&fh));
}

TEST(tlb_invalidation)
{
	uint64_t pa, a, b;
	uint64_t pte;
	struct sgpu_stats st;

	REQUIRE(setup());
	a = fh_alloc(&fh, 4096, 4096);
	b = fh_alloc(&fh, 4096, 4096);
	fh_map(&fh, root, 0x2000000, a, 4096, PTE_RW);
	pte = fh_pt_entry(&fh, root, 0x2000000, 3);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(pa, a);
	/* Changing the PTE behind the TLB's back: stale until flushed. */
	fh_w64(&fh, pte, b | PTE_RW);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(pa, a);
	sgpu_get_stats(fh.gpu, &st);
	CHECK(st.tlb_hits >= 1);
	wr(&fh, AS_REG(1, AS_COMMAND), AS_COMMAND_FLUSH_PT);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(pa, b);
	/* Unmapping, then FLUSH_MEM. */
	fh_w64(&fh, pte, 0);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0);
	wr(&fh, AS_REG(1, AS_COMMAND), AS_COMMAND_FLUSH_MEM);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0xC3);
	check_fault(0xC3, AS_ACCESS_READ, 0x2000000);
	/* UPDATE invalidates too; LOCK/UNLOCK do not. */
	fh_w64(&fh, pte, a | PTE_RW);
	wr(&fh, AS_REG(1, AS_COMMAND), AS_COMMAND_UPDATE);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(pa, a);
	fh_w64(&fh, pte, b | PTE_RW);
	wr(&fh, AS_REG(1, AS_COMMAND), AS_COMMAND_LOCK);
	wr(&fh, AS_REG(1, AS_COMMAND), AS_COMMAND_UNLOCK);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(pa, a);
	wr(&fh, AS_REG(1, AS_COMMAND), AS_COMMAND_UPDATE);
	CHECK_EQ(xlate(0x2000000, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(pa, b);
	/* Permission faults on a cached page still report the leaf level. */
	fh_w64(&fh, fh_pt_entry(&fh, root, 0x40000000ull, 2),
	       0x80200000ull | PTE_RO);
	CHECK_EQ(xlate(0x40000000ull, SGPU_ACCESS_READ, &pa), 0);
	CHECK_EQ(xlate(0x40000000ull, SGPU_ACCESS_WRITE, &pa), 0xCA);
	check_fault(0xCA, AS_ACCESS_WRITE, 0x40000000ull);
	CHECK(fh_fini(&fh));
}

TEST(fault_while_pending_is_kept)
{
	uint64_t pa;
	struct sgpu_stats st;

	REQUIRE(setup());
	CHECK_EQ(xlate(0x1000, SGPU_ACCESS_READ, &pa), 0xC0);
	CHECK_EQ(xlate(0x2000, SGPU_ACCESS_WRITE, &pa), 0xC0);
	/* The first stays visible until acknowledged... */
	CHECK_EQ(rd(&fh, AS_REG(1, AS_FAULTSTATUS)), 0xC0 | AS_ACCESS_READ << 8);
	CHECK_EQ(rd64(&fh, AS_REG(1, AS_FAULTADDRESS_LO)), 0x1000);
	wr(&fh, MMU_INT_CLEAR, 1u << 1);
	/* ...then the second is raised. */
	CHECK_EQ(rd(&fh, MMU_INT_RAWSTAT), 1u << 1);
	CHECK(fh.irq[SGPU_IRQ_MMU]);
	CHECK_EQ(rd(&fh, AS_REG(1, AS_FAULTSTATUS)), 0xC0 | AS_ACCESS_WRITE << 8);
	CHECK_EQ(rd64(&fh, AS_REG(1, AS_FAULTADDRESS_LO)), 0x2000);
	wr(&fh, MMU_INT_CLEAR, 1u << 1);
	CHECK_EQ(rd(&fh, MMU_INT_RAWSTAT), 0);
	sgpu_get_stats(fh.gpu, &st);
	CHECK_EQ(st.mmu_faults, 2);
	CHECK_EQ(st.mmu_faults_queued, 1);
	/* Faults on different address spaces are independent. */
	CHECK_EQ(sgpu_translate(fh.gpu, 5, 0, SGPU_ACCESS_READ, &pa), 0xC0);
	CHECK_EQ(xlate(0x3000, SGPU_ACCESS_READ, &pa), 0xC0);
	CHECK_EQ(rd(&fh, MMU_INT_RAWSTAT), (1u << 5) | (1u << 1));
	CHECK(fh_fini(&fh));
}

int main(void)
{
	RUN(page_hits);
	RUN(block_2m_and_1g);
	RUN(translation_fault_each_level);
	RUN(permission_faults);
	RUN(table_outside_ram);
	RUN(disabled_and_identity_as);
	RUN(tlb_invalidation);
	RUN(fault_while_pending_is_kept);
	return check_summary();
}
