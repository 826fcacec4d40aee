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

/* Sparse: only pages in use take memory. */
#define SIM_RAM_SIZE (64ull << 30)

struct extent {
	uint64_t start, size;
	struct extent *next;
};

struct userptr_range {
	uint64_t pa, size;
	uint8_t *ptr;
	struct userptr_range *next;
};

static pthread_mutex_t ram_lock = PTHREAD_MUTEX_INITIALIZER;
static int ram_fd = -1;
static uint8_t *ram_map;
static struct extent *free_list;          /* sorted by start */
static pthread_rwlock_t userptr_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct userptr_range *userptrs;    /* sorted by pa */

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
		munmap(map, SIM_RAM_SIZE);
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
			free(e);
			break;
		}
	}
	pthread_rwlock_unlock(&userptr_lock);
}

/* The host address of [pa, pa + len) in a userptr range; lock held. */
static uint8_t *userptr_locked(uint64_t pa, size_t len)
{
	struct userptr_range *e;

	for (e = userptrs; e && e->pa <= pa; e = e->next) {
		if (pa - e->pa < e->size && len <= e->size - (pa - e->pa))
			return e->ptr + (pa - e->pa);
	}
	return NULL;
}

static bool in_ram(uint64_t pa, size_t len)
{
	return pa >= SIM_RAM_BASE && len <= SIM_RAM_SIZE &&
	       pa - SIM_RAM_BASE <= SIM_RAM_SIZE - len;
}

/*
 * The caller's memory may have been unmapped since: reach it through
 * process_vm_*, which fails where a memcpy would crash.
 */
static bool userptr_copy(uint64_t pa, void *buf, size_t len, bool write)
{
	uint8_t *p;
	bool ok;

	pthread_rwlock_rdlock(&userptr_lock);
	p = userptr_locked(pa, len);
	ok = p && !(write ? sim_copy_to_user((uintptr_t)p, buf, len) :
			    sim_copy_from_user(buf, (uintptr_t)p, len));
	pthread_rwlock_unlock(&userptr_lock);
	return ok;
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
	void *p;

	(void)opaque;
	(void)write;
	if (in_ram(page_pa, SIM_PAGE))
		return ram_map + (page_pa - SIM_RAM_BASE);
	pthread_rwlock_rdlock(&userptr_lock);
	p = userptr_locked(page_pa, SIM_PAGE);
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
}
