/* SPDX-License-Identifier: MIT */
/*
 * The simulated machine's physical memory, as the GPU sees it.
 *
 * RAM is one sparse memfd, mapped once for the model. A BO is one
 * contiguous range of it, so a CPU mapping of a BO is one mmap of the
 * memfd at the BO's offset, sharing the pages the GPU uses. Ranges are
 * given out first-fit from a sorted list of free extents; a freed range is
 * punched out of the file, which gives its memory back and makes it read
 * zero again for the next BO.
 *
 * Userptr BOs are the caller's own pages: each is given a physical range
 * above RAM, and the model's accesses there are sent to the caller's
 * memory. Anything else is not backed: the model gets false and reports a
 * bus fault instead of touching memory it was not given.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sim_core.h"

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t offset);
int __real_munmap(void *addr, size_t len);
/* Our own remaps must not come back through the wrapped mremap(). */
void *__real_mremap(void *old, size_t old_len, size_t new_len, int flags, ...);

/* Sparse: only pages in use take memory. */
#define SIM_RAM_SIZE (64ull << 30)

struct extent {
	uint64_t start, size;
	struct extent *next;
};

struct userptr_range {
	uint64_t pa, size;
	uint8_t *ptr;
	uint8_t **moved;          /* see sim_ram_userptr_unmapping() */
	struct userptr_range *next;
};

static pthread_mutex_t ram_lock = PTHREAD_MUTEX_INITIALIZER;
static int ram_fd = -1;
static uint8_t *ram_map;
static struct extent *free_list;          /* sorted by start */
static pthread_rwlock_t userptr_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct userptr_range *userptrs;    /* sorted by pa */
static unsigned int userptr_count;

int sim_ram_init(void)
{
	struct extent *all;
	void *map;
	int fd, err;

	pthread_mutex_lock(&ram_lock);
	if (ram_map) {
		pthread_mutex_unlock(&ram_lock);
		return 0;
	}
	fd = memfd_create("sleipnir-sim-ram", MFD_CLOEXEC);
	if (fd < 0)
		goto err;
	if (ftruncate(fd, (off_t)SIM_RAM_SIZE))
		goto err_close;
	map = __real_mmap(NULL, SIM_RAM_SIZE, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_NORESERVE, fd, 0);
	if (map == MAP_FAILED)
		goto err_close;
	all = malloc(sizeof(*all));
	if (!all) {
		__real_munmap(map, SIM_RAM_SIZE);
		errno = ENOMEM;
		goto err_close;
	}
	all->start = SIM_RAM_BASE;
	all->size = SIM_RAM_SIZE;
	all->next = NULL;
	free_list = all;
	ram_fd = fd;
	ram_map = map;
	pthread_mutex_unlock(&ram_lock);
	return 0;

err_close:
	err = errno;
	close(fd);
	errno = err;
err:
	err = -errno;
	pthread_mutex_unlock(&ram_lock);
	return err;
}

uint64_t sim_ram_size(void)
{
	return SIM_RAM_SIZE;
}

int sim_ram_fd(void)
{
	return ram_fd;
}

void *sim_ram_ptr(uint64_t pa)
{
	return ram_map + (pa - SIM_RAM_BASE);
}

uint64_t sim_ram_alloc(uint64_t size, uint64_t align)
{
	struct extent **p, *e, *tail;
	uint64_t pa = 0;

	if (!size || size > SIM_RAM_SIZE)
		return 0;
	size = (size + SIM_PAGE - 1) & ~(SIM_PAGE - 1);
	if (align < SIM_PAGE)
		align = SIM_PAGE;

	pthread_mutex_lock(&ram_lock);
	for (p = &free_list; (e = *p); p = &e->next) {
		uint64_t start = (e->start + align - 1) & ~(align - 1);
		uint64_t end = e->start + e->size;

		if (start >= end || end - start < size)
			continue;
		pa = start;
		if (start + size < end) {
			/* The part after the range stays free. */
			tail = malloc(sizeof(*tail));
			if (!tail) {
				pa = 0;
				break;
			}
			tail->start = start + size;
			tail->size = end - tail->start;
			tail->next = e->next;
			e->next = tail;
		}
		if (start > e->start) {
			e->size = start - e->start;
		} else {
			*p = e->next;
			free(e);
		}
		break;
	}
	pthread_mutex_unlock(&ram_lock);
	return pa;
}

void sim_ram_free(uint64_t pa, uint64_t size)
{
	struct extent **p, *e, *n;

	if (!pa || !size)
		return;
	size = (size + SIM_PAGE - 1) & ~(SIM_PAGE - 1);
	/* Give the memory back; the next user reads zeros. */
	fallocate(ram_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		  sim_ram_offset(pa), (off_t)size);

	pthread_mutex_lock(&ram_lock);
	for (p = &free_list; (e = *p) && e->start < pa; p = &e->next)
		;
	/* Merge with the extent after, and with the one before. */
	if (e && pa + size == e->start) {
		e->start = pa;
		e->size += size;
		n = e;
	} else {
		n = malloc(sizeof(*n));
		if (!n) {
			/* Lost to the allocator, but zero and given back. */
			pthread_mutex_unlock(&ram_lock);
			return;
		}
		n->start = pa;
		n->size = size;
		n->next = e;
		*p = n;
	}
	if (p != &free_list) {
		struct extent *prev = (struct extent *)((char *)p -
					offsetof(struct extent, next));

		if (prev->start + prev->size == n->start) {
			prev->size += n->size;
			prev->next = n->next;
			free(n);
		}
	}
	pthread_mutex_unlock(&ram_lock);
}

/* --- userptr ranges --------------------------------------------------------- */

/*
 * The pages stay the BO's until it is freed, as pinned pages do: when the
 * process unmaps part of a userptr range (munmap(), or a MAP_FIXED mmap
 * over it), those pages are first moved out of its way with mremap() and
 * the range remembers each one's new home (moved[i]; NULL while page i is
 * still where the process put it).
 */
/*
 * Moved pages live in an address range of their own, reserved once, so
 * that no later munmap() of the process's (of a range it used to own, say)
 * takes them: slots handed out from a bump pointer and a free stack.
 */
#define HOME_SLOTS (1u << 18)             /* 1 GiB */
static uint8_t *home_base;
static uint32_t home_next, *home_free, home_free_count;

static void *home_alloc(void)
{
	uint32_t slot;

	if (!home_base) {
		void *p = __real_mmap(NULL, (size_t)HOME_SLOTS * SIM_PAGE,
				      PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
				      MAP_NORESERVE, -1, 0);

		if (p == MAP_FAILED)
			return NULL;
		home_free = malloc(HOME_SLOTS * sizeof(*home_free));
		if (!home_free) {
			__real_munmap(p, (size_t)HOME_SLOTS * SIM_PAGE);
			return NULL;
		}
		home_base = p;
	}
	if (home_free_count)
		slot = home_free[--home_free_count];
	else if (home_next < HOME_SLOTS)
		slot = home_next++;
	else
		return NULL;
	return home_base + (size_t)slot * SIM_PAGE;
}

/* Gives a slot back, reserved and empty again. */
static void home_free_page(void *page)
{
	__real_mmap(page, SIM_PAGE, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
		    -1, 0);
	home_free[home_free_count++] =
		(uint32_t)(((uint8_t *)page - home_base) / SIM_PAGE);
}

int sim_ram_userptr_add(void *ptr, uint64_t size, uint64_t *pa)
{
	struct userptr_range *r = calloc(1, sizeof(*r)), **p, *e;
	uint64_t at = SIM_USERPTR_BASE;

	if (!r)
		return -ENOMEM;
	size = (size + SIM_PAGE - 1) & ~(SIM_PAGE - 1);
	pthread_rwlock_wrlock(&userptr_lock);
	for (p = &userptrs; (e = *p); p = &e->next) {
		if (e->pa - at >= size)
			break;
		at = e->pa + e->size;
	}
	if (at >= SIM_USERPTR_END || SIM_USERPTR_END - at < size) {
		pthread_rwlock_unlock(&userptr_lock);
		free(r);
		return -ENOMEM;
	}
	r->pa = at;
	r->size = size;
	r->ptr = ptr;
	r->next = e;
	*p = r;
	__atomic_add_fetch(&userptr_count, 1, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&userptr_lock);
	*pa = at;
	return 0;
}

void sim_ram_userptr_remove(uint64_t pa)
{
	struct userptr_range **p, *e;

	pthread_rwlock_wrlock(&userptr_lock);
	for (p = &userptrs; (e = *p); p = &e->next) {
		if (e->pa == pa) {
			*p = e->next;
			__atomic_sub_fetch(&userptr_count, 1, __ATOMIC_RELAXED);
			break;
		}
	}
	pthread_rwlock_unlock(&userptr_lock);
	if (!e)
		return;
	if (e->moved) {
		pthread_rwlock_wrlock(&userptr_lock);
		for (uint64_t i = 0; i < e->size / SIM_PAGE; i++) {
			if (e->moved[i])
				home_free_page(e->moved[i]);
		}
		pthread_rwlock_unlock(&userptr_lock);
		free(e->moved);
	}
	free(e);
}

/* Page i of a range, wherever it lives now; lock held. */
static uint8_t *userptr_page(const struct userptr_range *e, uint64_t i)
{
	if (e->moved && e->moved[i])
		return e->moved[i];
	return e->ptr + i * SIM_PAGE;
}

/* The range holding pa, or NULL; lock held. */
static struct userptr_range *userptr_find(uint64_t pa)
{
	struct userptr_range *e;

	for (e = userptrs; e && e->pa <= pa; e = e->next) {
		if (pa - e->pa < e->size)
			return e;
	}
	return NULL;
}

/* Moves page i of e out of the process's way; lock held for writing. */
static void userptr_move_page(struct userptr_range *e, uint64_t i)
{
	uint8_t *old = e->ptr + i * SIM_PAGE;
	void *home;

	if (!e->moved) {
		e->moved = calloc(e->size / SIM_PAGE, sizeof(*e->moved));
		if (!e->moved)
			return;   /* the model then gets bus faults there */
	}
	if (e->moved[i])
		return;
	home = home_alloc();
	if (!home)
		return;
	/* A zero page until the move, in case the page is gone already. */
	if (__real_mmap(home, SIM_PAGE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
	    MAP_FAILED) {
		home_free[home_free_count++] =
			(uint32_t)(((uint8_t *)home - home_base) / SIM_PAGE);
		return;
	}
	/*
	 * MREMAP_DONTUNMAP leaves an empty page behind, so a pointer the
	 * shader cores still hold hits that rather than a hole until the
	 * caller's own munmap() removes it.
	 */
	if (__real_mremap(old, SIM_PAGE, SIM_PAGE,
		   MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP,
		   home) == MAP_FAILED &&
	    __real_mremap(old, SIM_PAGE, SIM_PAGE,
			  MREMAP_MAYMOVE | MREMAP_FIXED,
		   home) == MAP_FAILED) {
		/* Not mapped any more: a zero page stands in for it. */
	}
	e->moved[i] = home;
}

bool sim_ram_userptr_unmapping(void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)addr & ~(uintptr_t)(SIM_PAGE - 1);
	uintptr_t end = (uintptr_t)addr + len;
	struct userptr_range *e;
	bool moved = false;

	if (!len || !__atomic_load_n(&userptr_count, __ATOMIC_RELAXED))
		return false;
	pthread_rwlock_wrlock(&userptr_lock);
	for (e = userptrs; e; e = e->next) {
		uintptr_t lo = (uintptr_t)e->ptr, hi = lo + e->size;

		if (hi <= start || lo >= end)
			continue;
		for (uintptr_t a = start > lo ? start : lo; a < end && a < hi;
		     a += SIM_PAGE) {
			userptr_move_page(e, (a - lo) / SIM_PAGE);
			moved = true;
		}
	}
	pthread_rwlock_unlock(&userptr_lock);
	return moved;
}

/*
 * Copies between buf and [pa, pa + len) of a userptr range, page by page:
 * through process_vm_* where the page is still the process's (it may have
 * gone another way than munmap), directly where it was moved to us.
 */
static bool userptr_copy(uint64_t pa, void *buf, size_t len, bool write)
{
	struct userptr_range *e;
	bool ok = true;

	pthread_rwlock_rdlock(&userptr_lock);
	e = userptr_find(pa);
	if (!e || len > e->size - (pa - e->pa))
		ok = false;
	while (ok && len) {
		uint64_t off = pa - e->pa, i = off / SIM_PAGE;
		size_t n = SIM_PAGE - (off & (SIM_PAGE - 1));
		uint8_t *p;

		if (n > len)
			n = len;
		p = userptr_page(e, i) + (off & (SIM_PAGE - 1));
		if (e->moved && e->moved[i]) {
			if (write)
				memcpy(p, buf, n);
			else
				memcpy(buf, p, n);
		} else {
			ok = !(write ? sim_copy_to_user((uintptr_t)p, buf, n) :
				       sim_copy_from_user(buf, (uintptr_t)p, n));
		}
		pa += n;
		buf = (uint8_t *)buf + n;
		len -= n;
	}
	pthread_rwlock_unlock(&userptr_lock);
	return ok;
}

static bool in_ram(uint64_t pa, size_t len)
{
	return pa >= SIM_RAM_BASE && len <= SIM_RAM_SIZE &&
	       pa - SIM_RAM_BASE <= SIM_RAM_SIZE - len;
}

bool sim_ram_read(void *opaque, uint64_t pa, void *buf, size_t len)
{
	(void)opaque;
	if (in_ram(pa, len)) {
		memcpy(buf, ram_map + (pa - SIM_RAM_BASE), len);
		return true;
	}
	return userptr_copy(pa, buf, len, false);
}

bool sim_ram_write(void *opaque, uint64_t pa, const void *buf, size_t len)
{
	(void)opaque;
	if (in_ram(pa, len)) {
		memcpy(ram_map + (pa - SIM_RAM_BASE), buf, len);
		return true;
	}
	return userptr_copy(pa, (void *)buf, len, true);
}

void *sim_ram_page(void *opaque, uint64_t page_pa, bool write)
{
	struct userptr_range *e;
	void *p;

	(void)opaque;
	(void)write;
	if (in_ram(page_pa, SIM_PAGE))
		return ram_map + (page_pa - SIM_RAM_BASE);
	pthread_rwlock_rdlock(&userptr_lock);
	e = userptr_find(page_pa);
	p = NULL;
	if (e) {
		uint64_t i = (page_pa - e->pa) / SIM_PAGE;
		unsigned char resident;

		p = userptr_page(e, i);
		/*
		 * A page still in the process's hands may have gone a way
		 * munmap() did not see (the C library's own free() unmaps
		 * without it): hand out no pointer to a page that is not
		 * mapped; the model then uses mem_read/mem_write, which fail
		 * cleanly.
		 */
		if (!(e->moved && e->moved[i]) && mincore(p, SIM_PAGE, &resident))
			p = NULL;
	}
	pthread_rwlock_unlock(&userptr_lock);
	return p;
}

/* In a fork() child: the parent's RAM is not the child's. */
void sim_ram_forget(void)
{
	pthread_mutex_init(&ram_lock, NULL);
	pthread_rwlock_init(&userptr_lock, NULL);
	if (ram_fd >= 0)
		close(ram_fd);
	ram_fd = -1;
	ram_map = NULL;   /* left mapped: the parent's BOs may be mapped too */
	free_list = NULL;
	userptrs = NULL;
	userptr_count = 0;
}
