/* SPDX-License-Identifier: MIT */
/*
 * MMU: the MMU interrupt, the per-address-space registers and commands, the
 * page-table walker and a small translation cache.
 *
 * Page tables are io-pgtable's ARM_MALI_LPAE format (docs/hardware.md §3):
 * always four levels of 512 64-bit entries with a 4 KiB granule. Entry type 01
 * is a leaf at levels 1-3 (1 GiB block, 2 MiB block, 4 KiB page), 11 is a table
 * at levels 0-2, anything else is a translation fault. Leaves carry read
 * permission in bit 6, write permission in bit 7 and execute-never in bits
 * 54:53; the access flag is not used by Mali and is ignored.
 *
 * Every fault is reported on MMU_INT bit n (the "page fault" half, which
 * panfrost reads AS_FAULTSTATUS for); the job that caused it fails with the
 * same exception code in JS_STATUS (see sgpu_job.c). AS commands complete
 * instantly, so AS_STATUS.ACTIVE always reads 0, and LOCK regions never stall
 * anything. A GPU with a real TLB would keep using stale entries until a
 * flush, and so does this one: only UPDATE and FLUSH_PT/FLUSH_MEM (and reset)
 * invalidate.
 */
#include <string.h>

#include "sgpu_internal.h"

/* Output-address bits of an entry (io-pgtable's GENMASK(47, 12)). */
#define PTE_ADDR_MASK 0x0000FFFFFFFFF000ull
#define PTE_TYPE_MASK 0x3ull
#define PTE_TYPE_LEAF 0x1ull
#define PTE_TYPE_TABLE 0x3ull
#define PTE_READ (1ull << 6)
#define PTE_WRITE (1ull << 7)
#define PTE_XN (3ull << 53)
#define VA_BITS 48

static void tlb_flush(struct sgpu *gpu, struct sgpu_as *as)
{
	memset(as->tlb, 0, sizeof(as->tlb));
	__atomic_add_fetch(&gpu->mmu_generation, 1, __ATOMIC_RELEASE);
}

void sgpu_mmu_reset(struct sgpu *gpu)
{
	__atomic_add_fetch(&gpu->mmu_generation, 1, __ATOMIC_RELEASE);
	gpu->mmu_rawstat = 0;
	gpu->mmu_mask = 0;
	memset(gpu->as, 0, sizeof(gpu->as));
}

/*
 * Records a fault on an address space. If MMU_INT bit n is still set from
 * an earlier fault the driver has not seen yet, the registers keep the
 * earlier fault and the new one waits; MMU_INT_CLEAR then brings it in
 * and raises the bit again, so neither is lost (only the newest of several
 * waiting faults is kept).
 */
static void raise_fault(struct sgpu *gpu, unsigned int as_nr, uint32_t code,
			unsigned int access, uint64_t va, bool report)
{
	struct sgpu_as *as;
	uint32_t status = code | access << 8;

	if (!report || as_nr >= SGPU_NUM_AS)
		return;
	as = &gpu->as[as_nr];
	gpu->stats.mmu_faults++;
	sgpu_trace(gpu, "sgpu_mmu_fault", "as=%u va=0x%llx status=0x%x",
		   as_nr, (unsigned long long)va, status);
	if (gpu->mmu_rawstat & (1u << as_nr)) {
		gpu->stats.mmu_faults_queued++;
		as->fault_queued = true;
		as->queued_status = status;
		as->queued_address = va;
	} else {
		as->faultstatus = status;
		as->faultaddress = va;
		gpu->mmu_rawstat |= 1u << as_nr;
	}
	sgpu_update_irqs_locked(gpu);
}

static void mmu_int_clear(struct sgpu *gpu, uint32_t value)
{
	gpu->mmu_rawstat &= ~value;
	for (unsigned int n = 0; n < SGPU_NUM_AS; n++) {
		struct sgpu_as *as = &gpu->as[n];

		if (!as->fault_queued || (gpu->mmu_rawstat & (1u << n)))
			continue;
		as->fault_queued = false;
		as->faultstatus = as->queued_status;
		as->faultaddress = as->queued_address;
		gpu->mmu_rawstat |= 1u << n;
	}
}

static void as_command(struct sgpu *gpu, unsigned int as_nr, uint32_t cmd)
{
	struct sgpu_as *as = &gpu->as[as_nr];

	switch (cmd) {
	case AS_COMMAND_NOP:
	case AS_COMMAND_LOCK:
	case AS_COMMAND_UNLOCK:
		break;
	case AS_COMMAND_UPDATE:
		as->live_transtab = as->transtab;
		as->live_memattr = as->memattr;
		tlb_flush(gpu, as);
		break;
	case AS_COMMAND_FLUSH_PT:
	case AS_COMMAND_FLUSH_MEM:
		tlb_flush(gpu, as);
		break;
	default:
		sgpu_guest_error(gpu, "sgpu: unknown AS_COMMAND 0x%x on AS%u",
				 cmd, as_nr);
		break;
	}
	sgpu_trace(gpu, "sgpu_as_command", "as=%u cmd=%u transtab=0x%llx",
		   as_nr, cmd, (unsigned long long)as->live_transtab);
}

uint32_t sgpu_mmu_read(struct sgpu *gpu, uint32_t offset)
{
	unsigned int as_nr, reg;
	struct sgpu_as *as;

	switch (offset) {
	case MMU_INT_RAWSTAT:
		return gpu->mmu_rawstat;
	case MMU_INT_MASK:
		return gpu->mmu_mask;
	case MMU_INT_STAT:
		return gpu->mmu_rawstat & gpu->mmu_mask;
	}
	if (offset < MMU_AS_BASE ||
	    offset >= MMU_AS_BASE + SGPU_NUM_AS * MMU_AS_STRIDE)
		return 0;
	as_nr = (offset - MMU_AS_BASE) / MMU_AS_STRIDE;
	reg = (offset - MMU_AS_BASE) % MMU_AS_STRIDE;
	as = &gpu->as[as_nr];
	switch (reg) {
	case AS_TRANSTAB_LO:
		return (uint32_t)as->transtab;
	case AS_TRANSTAB_HI:
		return (uint32_t)(as->transtab >> 32);
	case AS_MEMATTR_LO:
		return (uint32_t)as->memattr;
	case AS_MEMATTR_HI:
		return (uint32_t)(as->memattr >> 32);
	case AS_LOCKADDR_LO:
		return (uint32_t)as->lockaddr;
	case AS_LOCKADDR_HI:
		return (uint32_t)(as->lockaddr >> 32);
	case AS_FAULTSTATUS:
		return as->faultstatus;
	case AS_FAULTADDRESS_LO:
		return (uint32_t)as->faultaddress;
	case AS_FAULTADDRESS_HI:
		return (uint32_t)(as->faultaddress >> 32);
	case AS_STATUS:
		return 0; /* commands finish instantly: never ACTIVE */
	default:
		return 0;
	}
}

void sgpu_mmu_write(struct sgpu *gpu, uint32_t offset, uint32_t value)
{
	unsigned int as_nr, reg;
	struct sgpu_as *as;

	switch (offset) {
	case MMU_INT_CLEAR:
		mmu_int_clear(gpu, value);
		return;
	case MMU_INT_MASK:
		gpu->mmu_mask = value;
		return;
	}
	if (offset < MMU_AS_BASE ||
	    offset >= MMU_AS_BASE + SGPU_NUM_AS * MMU_AS_STRIDE) {
		sgpu_guest_error(gpu, "sgpu: write 0x%x to read-only or "
				 "unimplemented MMU register 0x%x",
				 value, offset);
		return;
	}
	as_nr = (offset - MMU_AS_BASE) / MMU_AS_STRIDE;
	reg = (offset - MMU_AS_BASE) % MMU_AS_STRIDE;
	as = &gpu->as[as_nr];
	switch (reg) {
	case AS_TRANSTAB_LO:
	case AS_TRANSTAB_HI:
		sgpu_set_half(&as->transtab, reg == AS_TRANSTAB_HI, value);
		return;
	case AS_MEMATTR_LO:
	case AS_MEMATTR_HI:
		sgpu_set_half(&as->memattr, reg == AS_MEMATTR_HI, value);
		return;
	case AS_LOCKADDR_LO:
	case AS_LOCKADDR_HI:
		sgpu_set_half(&as->lockaddr, reg == AS_LOCKADDR_HI, value);
		return;
	case AS_COMMAND:
		as_command(gpu, as_nr, value);
		return;
	default:
		sgpu_guest_error(gpu, "sgpu: write 0x%x to read-only or "
				 "unimplemented AS%u register 0x%x",
				 value, as_nr, reg);
		return;
	}
}

static uint8_t leaf_perms(uint64_t pte)
{
	uint8_t perms = 0;

	if (pte & PTE_READ)
		perms |= SGPU_PERM_READ;
	if (pte & PTE_WRITE)
		perms |= SGPU_PERM_WRITE;
	/* Instruction fetches need read permission too. */
	if ((pte & PTE_READ) && !(pte & PTE_XN))
		perms |= SGPU_PERM_EXEC;
	return perms;
}

static bool perms_allow(uint8_t perms, unsigned int access)
{
	switch (access) {
	case AS_ACCESS_READ:
		return perms & SGPU_PERM_READ;
	case AS_ACCESS_WRITE:
		return perms & SGPU_PERM_WRITE;
	case AS_ACCESS_EXECUTE:
		return perms & SGPU_PERM_EXEC;
	default: /* atomics read and write */
		return (perms & SGPU_PERM_READ) && (perms & SGPU_PERM_WRITE);
	}
}

/*
 * Walks the live page table of an AS for va. Returns 0 and the page's PA
 * and permissions, or the fault code; *level gets the level of the leaf
 * (for permission faults).
 */
static uint32_t walk(struct sgpu *gpu, struct sgpu_as *as, uint64_t va,
		     uint64_t *pa, uint8_t *perms, unsigned int *level)
{
	uint64_t table = as->live_transtab & AS_TRANSTAB_BASE_MASK;

	gpu->stats.page_walks++;
	for (unsigned int l = 0; l < 4; l++) {
		unsigned int shift = 39 - 9 * l;
		uint64_t index = (va >> shift) & 0x1FF;
		uint8_t raw[8];
		uint64_t pte;

		if (!gpu->host.mem_read(gpu->host.opaque, table + index * 8,
					raw, sizeof(raw)))
			return (MDG_EXCEPTION_TRANSTAB_BUS_FAULT_0 + (l));
		pte = sgpu_le64(raw);
		if ((pte & PTE_TYPE_MASK) == PTE_TYPE_TABLE && l < 3) {
			table = pte & PTE_ADDR_MASK;
			continue;
		}
		if ((pte & PTE_TYPE_MASK) != PTE_TYPE_LEAF || l == 0)
			return (MDG_EXCEPTION_TRANSLATION_FAULT_0 + (l));
		/* A leaf at level l maps 1 << shift bytes. */
		*pa = (pte & PTE_ADDR_MASK & ~((1ull << shift) - 1)) |
		      (va & ((1ull << shift) - 1) & ~0xFFFull);
		*perms = leaf_perms(pte);
		*level = l;
		return 0;
	}
	return (MDG_EXCEPTION_TRANSLATION_FAULT_0 + (3)); /* not reached */
}

/* Translates one page's worth of access; returns 0 or the fault code. */
static uint32_t translate(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
			  unsigned int access, uint64_t *pa, bool report)
{
	struct sgpu_as *as = &gpu->as[as_nr];
	uint64_t vpage = va >> 12;
	struct sgpu_tlb_entry *e = &as->tlb[vpage % SGPU_TLB_ENTRIES];
	unsigned int level;
	uint8_t perms;
	uint64_t page_pa;
	uint32_t code;

	switch (as->live_transtab & AS_TRANSTAB_ADRMODE_MASK) {
	case AS_TRANSTAB_ADRMODE_TABLE:
		break;
	case AS_TRANSTAB_ADRMODE_IDENTITY:
		/* Unused by panfrost; VA = PA with all permissions. */
		*pa = va;
		return 0;
	default:
		/* A disabled AS (what panfrost writes to kill jobs). */
		code = (MDG_EXCEPTION_TRANSLATION_FAULT_0 + (0));
		goto fault;
	}
	if (va >> VA_BITS) {
		code = (MDG_EXCEPTION_ADDR_SIZE_FAULT_IN_0 + (0));
		goto fault;
	}

	if (e->valid && e->vpage == vpage) {
		gpu->stats.tlb_hits++;
		page_pa = e->ppage << 12;
		perms = e->perms;
		level = e->level;
	} else {
		code = walk(gpu, as, va, &page_pa, &perms, &level);
		if (code)
			goto fault;
		e->valid = true;
		e->vpage = vpage;
		e->ppage = page_pa >> 12;
		e->perms = perms;
		e->level = (uint8_t)level;
	}
	if (!perms_allow(perms, access)) {
		code = (MDG_EXCEPTION_PERM_FAULT_0 + (level));
		goto fault;
	}
	*pa = page_pa | (va & 0xFFF);
	return 0;

fault:
	raise_fault(gpu, as_nr, code, access, va, report);
	return code;
}

static uint32_t vm_access(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
			  uint8_t *buf, const uint8_t *src, size_t len,
			  unsigned int access, bool report)
{
	if (as_nr >= SGPU_NUM_AS) {
		sgpu_guest_error(gpu, "sgpu: access through absent AS%u", as_nr);
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	}
	while (len) {
		size_t chunk = 0x1000 - (va & 0xFFF);
		uint64_t pa;
		uint32_t code;
		bool ok;

		if (chunk > len)
			chunk = len;
		code = translate(gpu, as_nr, va, access, &pa, report);
		if (code)
			return code;
		if (src)
			ok = gpu->host.mem_write(gpu->host.opaque, pa, src, chunk);
		else
			ok = gpu->host.mem_read(gpu->host.opaque, pa, buf, chunk);
		if (!ok && !report)
			return MDG_EXCEPTION_JOB_WRITE_FAULT;
		if (!ok) {
			/* Translated, but nothing answers at that address. */
			sgpu_guest_error(gpu, "sgpu: bus error at PA 0x%llx "
					 "(VA 0x%llx, AS%u)",
					 (unsigned long long)pa,
					 (unsigned long long)va, as_nr);
			return src ? MDG_EXCEPTION_JOB_WRITE_FAULT : MDG_EXCEPTION_JOB_READ_FAULT;
		}
		va += chunk;
		len -= chunk;
		if (src)
			src += chunk;
		else
			buf += chunk;
	}
	return 0;
}

uint32_t sgpu_vm_read(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
		      void *buf, size_t len, unsigned int access)
{
	return vm_access(gpu, as_nr, va, buf, NULL, len, access, true);
}

uint32_t sgpu_vm_write(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
		       const void *buf, size_t len)
{
	return vm_access(gpu, as_nr, va, NULL, buf, len, AS_ACCESS_WRITE, true);
}

uint32_t sgpu_vm_page(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
		      unsigned int access, bool report, uint8_t **page)
{
	uint64_t pa;
	uint32_t code;

	*page = NULL;
	if (as_nr >= SGPU_NUM_AS) {
		sgpu_guest_error(gpu, "sgpu: access through absent AS%u", as_nr);
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	}
	code = translate(gpu, as_nr, va, access, &pa, report);
	if (code || !gpu->host.mem_page)
		return code;
	*page = gpu->host.mem_page(gpu->host.opaque, pa & ~0xFFFull,
				   access == AS_ACCESS_WRITE);
	return 0;
}

uint32_t sgpu_vm_write_quiet(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
			     const void *buf, size_t len)
{
	if (as_nr >= SGPU_NUM_AS)
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	return vm_access(gpu, as_nr, va, NULL, buf, len, AS_ACCESS_WRITE, false);
}

uint32_t sgpu_vm_read_quiet(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
			    void *buf, size_t len)
{
	if (as_nr >= SGPU_NUM_AS)
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	return vm_access(gpu, as_nr, va, buf, NULL, len, AS_ACCESS_READ, false);
}

uint32_t sgpu_translate(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
			enum sgpu_access access, uint64_t *pa)
{
	static const unsigned int kinds[] = {
		[SGPU_ACCESS_READ] = AS_ACCESS_READ,
		[SGPU_ACCESS_WRITE] = AS_ACCESS_WRITE,
		[SGPU_ACCESS_EXECUTE] = AS_ACCESS_EXECUTE,
	};
	uint32_t code;

	if (as_nr >= SGPU_NUM_AS || (unsigned int)access > SGPU_ACCESS_EXECUTE)
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	pthread_mutex_lock(&gpu->lock);
	code = translate(gpu, as_nr, va, kinds[access], pa, true);
	pthread_mutex_unlock(&gpu->lock);
	return code;
}
