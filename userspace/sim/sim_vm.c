/* SPDX-License-Identifier: MIT */
/*
 * Per-file GPU virtual address spaces, as kernel/sleipnir_mmu.c keeps them:
 * page tables in io-pgtable's ARM_MALI_LPAE format (four levels of 512
 * entries, 4 KiB pages and 2 MiB blocks) written in the simulated RAM for
 * the model's MMU to walk; the mappings VM_MAP made; and the hardware
 * address spaces (AS) VMs are loaded into for their jobs, kept until
 * another VM needs one (the least recently used idle VM gives its AS up).
 *
 * Page-table changes are made visible with LOCK + FLUSH_PT over the range
 * while the VM holds an AS; a VM without an AS has nothing cached in the
 * GPU, and loading it (UPDATE) starts from a clean TLB.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <drm/sleipnir_drm.h>

#include "sgpu_regs.h"
#include "sim_core.h"

/* Leaf and table entries as io-pgtable writes them for ARM_MALI_LPAE. */
#define PTE_TYPE_LEAF 0x1ull
#define PTE_TYPE_TABLE 0x3ull
#define PTE_TYPE_MASK 0x3ull
#define PTE_READ (1ull << 6)          /* HAP read */
#define PTE_WRITE (1ull << 7)         /* HAP write */
#define PTE_SH_OS (2ull << 8)         /* outer shareable: not coherent */
#define PTE_XN (3ull << 53)
#define PTE_ADDR_MASK 0x0000fffffffff000ull

#define AS_REG(as, reg) (MMU_AS_BASE + MMU_AS_STRIDE * (as) + (reg))

struct sim_mapping {
	uint64_t va, size;
	struct sim_bo *bo;
	uint64_t bo_offset;
	struct sim_mapping *next;     /* sorted by va */
};

/* A page of page table, and the list of them all for freeing. */
struct pt_page {
	uint64_t pa;
	struct pt_page *next;
};

struct sim_vm {
	struct sim_device *dev;
	struct sim_file *file;
	pthread_mutex_t lock;          /* mappings and page tables */
	struct sim_mapping *mappings;
	struct pt_page *pt_pages;
	uint64_t root;                 /* PA of the level-0 table */
	uint64_t va_end;
	/* Under as_lock. */
	int as;
	int as_users;
	struct sim_vm *lru_prev, *lru_next;
};

/* The device's address spaces (one device per process). */
static pthread_mutex_t as_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_vm *as_vm[16];
static struct sim_vm *lru_head, *lru_tail;   /* least recently used first */
/* For the debugfs counters (sim_debugfs.c). */
static int live_vms, live_mappings, as_bound;

void sim_vm_counters(int *vms, int *mappings, int *bound)
{
	*vms = __atomic_load_n(&live_vms, __ATOMIC_RELAXED);
	*mappings = __atomic_load_n(&live_mappings, __ATOMIC_RELAXED);
	*bound = __atomic_load_n(&as_bound, __ATOMIC_RELAXED);
}

/* --- AS commands; as_lock held ------------------------------------------------ */

static void as_write64(struct sim_device *dev, int as, uint32_t reg,
		       uint64_t v)
{
	sim_reg_write(dev, AS_REG(as, reg), (uint32_t)v);
	sim_reg_write(dev, AS_REG(as, reg + 4), (uint32_t)(v >> 32));
}

static void as_command(struct sim_device *dev, int as, uint32_t cmd)
{
	/* The model finishes commands at once: AS_STATUS is never ACTIVE. */
	for (int i = 0; i < 1000; i++) {
		if (!(sim_reg_read(dev, AS_REG(as, AS_STATUS)) & 1))
			break;
	}
	sim_reg_write(dev, AS_REG(as, AS_COMMAND), cmd);
}

/* LOCK a naturally aligned region covering the range, then cmd. */
static void as_flush(struct sim_device *dev, int as, uint64_t iova,
		     uint64_t size, uint32_t cmd)
{
	as_write64(dev, as, AS_LOCKADDR_LO, sleipnir_as_lockaddr(iova, size));
	as_command(dev, as, AS_COMMAND_LOCK);
	as_command(dev, as, cmd);
}

static void as_enable(struct sim_device *dev, int as, struct sim_vm *vm)
{
	as_flush(dev, as, 0, vm->va_end, AS_COMMAND_FLUSH_MEM);
	as_write64(dev, as, AS_TRANSTAB_LO, vm->root | SIM_TRANSTAB_MODE);
	as_write64(dev, as, AS_MEMATTR_LO, SIM_MEMATTR);
	as_command(dev, as, AS_COMMAND_UPDATE);
}

static void as_disable(struct sim_device *dev, int as, uint64_t va_end)
{
	as_flush(dev, as, 0, va_end, AS_COMMAND_FLUSH_MEM);
	/* Table 0, mode 0: every access faults. */
	as_write64(dev, as, AS_TRANSTAB_LO, 0);
	as_write64(dev, as, AS_MEMATTR_LO, 0);
	as_command(dev, as, AS_COMMAND_UPDATE);
}

static void lru_remove(struct sim_vm *vm)
{
	if (vm->lru_prev)
		vm->lru_prev->lru_next = vm->lru_next;
	else
		lru_head = vm->lru_next;
	if (vm->lru_next)
		vm->lru_next->lru_prev = vm->lru_prev;
	else
		lru_tail = vm->lru_prev;
	vm->lru_prev = vm->lru_next = NULL;
}

static void lru_add_tail(struct sim_vm *vm)
{
	vm->lru_prev = lru_tail;
	vm->lru_next = NULL;
	if (lru_tail)
		lru_tail->lru_next = vm;
	else
		lru_head = vm;
	lru_tail = vm;
}

static void as_unassign(struct sim_vm *vm)
{
	as_vm[vm->as] = NULL;
	vm->as = -1;
	lru_remove(vm);
	__atomic_sub_fetch(&as_bound, 1, __ATOMIC_RELAXED);
}

/* --- AS assignment ---------------------------------------------------------------- */

int sim_vm_as_get(struct sim_vm *vm)
{
	unsigned int count = sim_device_features(vm->dev)->derived.as_count;
	struct sim_vm *victim;
	int as = -EBUSY;

	pthread_mutex_lock(&as_lock);
	if (vm->as >= 0) {
		vm->as_users++;
		lru_remove(vm);
		lru_add_tail(vm);
		as = vm->as;
		goto out;
	}
	for (unsigned int i = 0; i < count; i++) {
		if (!as_vm[i]) {
			as = (int)i;
			break;
		}
	}
	if (as < 0) {
		for (victim = lru_head; victim; victim = victim->lru_next) {
			if (!victim->as_users) {
				as = victim->as;
				as_unassign(victim);
				break;
			}
		}
	}
	if (as < 0)
		goto out;
	vm->as = as;
	vm->as_users++;
	as_vm[as] = vm;
	lru_add_tail(vm);
	__atomic_add_fetch(&as_bound, 1, __ATOMIC_RELAXED);
	as_enable(vm->dev, as, vm);
out:
	pthread_mutex_unlock(&as_lock);
	return as;
}

void sim_vm_as_put(struct sim_vm *vm)
{
	pthread_mutex_lock(&as_lock);
	if (vm->as_users > 0)
		vm->as_users--;
	pthread_mutex_unlock(&as_lock);
}

struct sim_file *sim_vm_file_of_as(struct sim_device *dev, unsigned int as_nr)
{
	struct sim_file *file = NULL;

	(void)dev;
	pthread_mutex_lock(&as_lock);
	if (as_nr < 16 && as_vm[as_nr])
		file = as_vm[as_nr]->file;
	pthread_mutex_unlock(&as_lock);
	return file;
}

void sim_vm_as_fault(struct sim_device *dev, unsigned int as_nr)
{
	if (as_nr >= 16)
		return;
	pthread_mutex_lock(&as_lock);
	if (as_vm[as_nr])
		as_unassign(as_vm[as_nr]);
	as_disable(dev, (int)as_nr, sim_va_end(dev));
	pthread_mutex_unlock(&as_lock);
}

void sim_vm_forget_all(struct sim_device *dev)
{
	(void)dev;
	pthread_mutex_lock(&as_lock);
	for (unsigned int i = 0; i < 16; i++) {
		if (as_vm[i])
			as_unassign(as_vm[i]);
	}
	pthread_mutex_unlock(&as_lock);
}

/* Makes a page-table change in [iova, iova + size) visible to the GPU. */
static void flush_range(struct sim_vm *vm, uint64_t iova, uint64_t size)
{
	pthread_mutex_lock(&as_lock);
	if (vm->as >= 0)
		as_flush(vm->dev, vm->as, iova, size, AS_COMMAND_FLUSH_PT);
	pthread_mutex_unlock(&as_lock);
}

/* --- page tables; vm->lock held ---------------------------------------------------- */

static uint64_t *pte_ptr(uint64_t table, uint64_t va, unsigned int level)
{
	return (uint64_t *)sim_ram_ptr(table) + ((va >> (39 - 9 * level)) & 0x1ff);
}

static uint64_t pt_alloc(struct sim_vm *vm)
{
	struct pt_page *p = malloc(sizeof(*p));

	if (!p)
		return 0;
	p->pa = sim_ram_alloc(SIM_PAGE, SIM_PAGE);
	if (!p->pa) {
		free(p);
		return 0;
	}
	p->next = vm->pt_pages;
	vm->pt_pages = p;
	return p->pa;
}

static void pte_set(uint64_t *pte, uint64_t v)
{
	__atomic_store_n(pte, v, __ATOMIC_RELEASE);
}

/* The table at level (1..3) that holds va's entry, made when missing. */
static uint64_t table_for(struct sim_vm *vm, uint64_t va, unsigned int level)
{
	uint64_t table = vm->root;

	for (unsigned int l = 0; l < level; l++) {
		uint64_t *pte = pte_ptr(table, va, l);
		uint64_t e = *pte;

		if ((e & PTE_TYPE_MASK) != PTE_TYPE_TABLE) {
			uint64_t pa = pt_alloc(vm);

			if (!pa)
				return 0;
			pte_set(pte, pa | PTE_TYPE_TABLE);
			e = pa | PTE_TYPE_TABLE;
		}
		table = e & PTE_ADDR_MASK;
	}
	return table;
}

/* The table at level that holds va's entry, or 0 when there is none. */
static uint64_t table_of(struct sim_vm *vm, uint64_t va, unsigned int level)
{
	uint64_t table = vm->root;

	for (unsigned int l = 0; l < level; l++) {
		uint64_t e = *pte_ptr(table, va, l);

		if ((e & PTE_TYPE_MASK) != PTE_TYPE_TABLE)
			return 0;
		table = e & PTE_ADDR_MASK;
	}
	return table;
}

static void unmap_pages(struct sim_vm *vm, uint64_t va, uint64_t size)
{
	uint64_t end = va + size;

	while (va < end) {
		uint64_t t2 = table_of(vm, va, 2), t3, *pte;

		if (!t2) {
			va = (va | ((1ull << 30) - 1)) + 1;
			continue;
		}
		pte = pte_ptr(t2, va, 2);
		if ((*pte & PTE_TYPE_MASK) == PTE_TYPE_LEAF) {
			pte_set(pte, 0);
			va += SIM_SZ_2M;
			continue;
		}
		t3 = table_of(vm, va, 3);
		if (t3)
			pte_set(pte_ptr(t3, va, 3), 0);
		va += SIM_PAGE;
	}
}

/* Maps [va, va + size) to [pa, pa + size) with the leaf bits given. */
static int map_pages(struct sim_vm *vm, uint64_t va, uint64_t pa,
		     uint64_t size, uint64_t bits)
{
	uint64_t start = va, end = va + size;

	while (va < end) {
		bool block = SIM_ALIGNED(va | pa, SIM_SZ_2M) &&
			     end - va >= SIM_SZ_2M;
		unsigned int level = block ? 2 : 3;
		uint64_t table = table_for(vm, va, level);

		if (!table) {
			unmap_pages(vm, start, va - start);
			return -ENOMEM;
		}
		pte_set(pte_ptr(table, va, level), pa | bits);
		va += block ? SIM_SZ_2M : SIM_PAGE;
		pa += block ? SIM_SZ_2M : SIM_PAGE;
	}
	return 0;
}

/* --- VM lifetime --------------------------------------------------------------------- */

struct sim_vm *sim_vm_create(struct sim_file *file)
{
	struct sim_vm *vm = calloc(1, sizeof(*vm));

	if (!vm)
		return NULL;
	vm->dev = file->dev;
	vm->file = file;
	vm->as = -1;
	vm->va_end = sim_va_end(file->dev);
	pthread_mutex_init(&vm->lock, NULL);
	vm->root = pt_alloc(vm);
	if (!vm->root) {
		pthread_mutex_destroy(&vm->lock);
		free(vm);
		return NULL;
	}
	__atomic_add_fetch(&live_vms, 1, __ATOMIC_RELAXED);
	return vm;
}

/* At close of the file, once none of its jobs is on the GPU. */
void sim_vm_destroy(struct sim_vm *vm)
{
	struct sim_mapping *m;
	struct pt_page *p;

	if (!vm)
		return;
	pthread_mutex_lock(&as_lock);
	if (vm->as >= 0) {
		as_disable(vm->dev, vm->as, vm->va_end);
		as_unassign(vm);
	}
	pthread_mutex_unlock(&as_lock);

	while ((m = vm->mappings)) {
		vm->mappings = m->next;
		sim_bo_put(m->bo);
		free(m);
		__atomic_sub_fetch(&live_mappings, 1, __ATOMIC_RELAXED);
	}
	while ((p = vm->pt_pages)) {
		vm->pt_pages = p->next;
		sim_ram_free(p->pa, SIM_PAGE);
		free(p);
	}
	pthread_mutex_destroy(&vm->lock);
	free(vm);
	__atomic_sub_fetch(&live_vms, 1, __ATOMIC_RELAXED);
}

/* --- ioctls ------------------------------------------------------------------------------- */

/*
 * The lowest free range of size bytes at align in [VA_START, va_end), as
 * drm_mm's DRM_MM_INSERT_LOW finds it; 0 when there is none.
 */
static uint64_t find_free_va(struct sim_vm *vm, uint64_t size, uint64_t align)
{
	uint64_t at = SIM_VA_START;
	struct sim_mapping *m;

	for (m = vm->mappings;; m = m->next) {
		uint64_t start = (at + align - 1) & ~(align - 1);
		uint64_t limit = m ? m->va : vm->va_end;

		if (start >= at && start <= limit && limit - start >= size)
			return start;
		if (!m)
			return 0;
		if (m->va + m->size > at)
			at = m->va + m->size;
	}
}

/* Where a mapping at va goes in the sorted list; -EINVAL on overlap. */
static int insert_pos(struct sim_vm *vm, uint64_t va, uint64_t size,
		      struct sim_mapping ***pos)
{
	struct sim_mapping **p, *m;

	for (p = &vm->mappings; (m = *p) && m->va < va; p = &m->next) {
		if (m->va + m->size > va)
			return -EINVAL;
	}
	if (m && m->va < va + size)
		return -EINVAL;
	*pos = p;
	return 0;
}

int sim_vm_ioctl_map(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_vm_map *args = arg;
	struct sim_vm *vm = file->vm;
	bool auto_va = args->flags & SLEIPNIR_VM_MAP_AUTO_VA;
	struct sim_mapping *m, **pos;
	struct sim_bo *bo;
	uint32_t bo_flags;
	uint64_t va, bits;
	int ret;

	ret = sleipnir_check_vm_map(args, vm->va_end);
	if (ret)
		return ret;

	bo = sim_bo_lookup(file, args->handle);
	if (!bo)
		return -ENOENT;
	if (!sleipnir_range_inside(args->bo_offset, args->size,
				   sim_bo_size(bo))) {
		sim_bo_put(bo);
		return -EINVAL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		sim_bo_put(bo);
		return -ENOMEM;
	}

	bo_flags = sim_bo_flags(bo);
	bits = PTE_TYPE_LEAF | PTE_READ | PTE_SH_OS;
	if (sleipnir_vm_map_writable(bo_flags, args->flags))
		bits |= PTE_WRITE;
	if (!sleipnir_vm_map_executable(bo_flags, args->flags))
		bits |= PTE_XN;

	pthread_mutex_lock(&vm->lock);
	if (auto_va) {
		va = find_free_va(vm, args->size,
				  sleipnir_vm_map_align(args->size));
		ret = va ? 0 : -ENOSPC;
	} else {
		va = args->va;
		ret = 0;
	}
	if (!ret)
		ret = insert_pos(vm, va, args->size, &pos);
	if (!ret)
		ret = map_pages(vm, va, sim_bo_pa(bo) + args->bo_offset,
				args->size, bits);
	if (ret) {
		pthread_mutex_unlock(&vm->lock);
		free(m);
		sim_bo_put(bo);
		return ret;
	}
	flush_range(vm, va, args->size);
	m->va = va;
	m->size = args->size;
	m->bo = bo;                      /* the lookup's reference */
	m->bo_offset = args->bo_offset;
	m->next = *pos;
	*pos = m;
	__atomic_add_fetch(&live_mappings, 1, __ATOMIC_RELAXED);
	args->va = va;
	pthread_mutex_unlock(&vm->lock);
	return 0;
}

int sim_vm_ioctl_unmap(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_vm_unmap *args = arg;
	struct sim_vm *vm = file->vm;
	struct sim_mapping **p, *m;
	int ret = sleipnir_check_vm_unmap(args);

	if (ret)
		return ret;

	pthread_mutex_lock(&vm->lock);
	/* The first mapping that overlaps the range must be exactly it. */
	for (p = &vm->mappings; (m = *p); p = &m->next) {
		if (m->va + m->size > args->va)
			break;
	}
	if (!m || m->va >= args->va + args->size || m->va != args->va ||
	    m->size != args->size) {
		pthread_mutex_unlock(&vm->lock);
		return -EINVAL;
	}
	unmap_pages(vm, m->va, m->size);
	flush_range(vm, m->va, m->size);
	*p = m->next;
	pthread_mutex_unlock(&vm->lock);

	/* Only now can the pages go: the GPU no longer reaches them. */
	sim_bo_put(m->bo);
	free(m);
	__atomic_sub_fetch(&live_mappings, 1, __ATOMIC_RELAXED);
	return 0;
}

/* In a fork() child: no AS holds anything of the child's. */
void sim_vm_forget(void)
{
	pthread_mutex_init(&as_lock, NULL);
	memset(as_vm, 0, sizeof(as_vm));
	lru_head = lru_tail = NULL;
	live_vms = live_mappings = as_bound = 0;
}

/*
 * Any AS command flushes the model's translation caches and with them
 * every host page pointer its shader cores hold (a new MMU generation).
 */
void sim_vm_drop_page_pointers(struct sim_device *dev)
{
	pthread_mutex_lock(&as_lock);
	as_flush(dev, 0, 0, sim_va_end(dev), AS_COMMAND_FLUSH_PT);
	pthread_mutex_unlock(&as_lock);
}
