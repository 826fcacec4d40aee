/* SPDX-License-Identifier: MIT */
/*
 * Buffer objects, as kernel/sleipnir_gem.c and the DRM core's GEM and PRIME
 * code serve them: BO_CREATE, BO_USERPTR, BO_MMAP_OFFSET and mmap() of the
 * node, BO_INFO, BO_SYNC, GEM_CLOSE, PRIME export and import.
 *
 * A native BO is one contiguous range of the simulated RAM (sim_ram.c); a
 * userptr BO is the caller's memory at a physical range of its own. A BO
 * lives while anything holds it: a GEM handle, a VM mapping, a dma-buf fd,
 * a job, or a CPU mapping (tracked here through mmap()/munmap(), because
 * freeing the range while the process still maps it would hand its pages
 * to the next BO).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <drm.h>
#include <drm/sleipnir_drm.h>

#include "sim_core.h"
#include "sim_fd.h"

void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t offset);

/* DRM's first fake mmap offset on 64-bit systems (DRM_FILE_PAGE_OFFSET). */
#define MMAP_OFFSET_START (1ull << 32)

struct sim_bo {
	unsigned int refs;
	uint64_t size;
	uint32_t flags;
	uint64_t pa;
	/* The fake offset for mmap(), once BO_MMAP_OFFSET asked; 0 before. */
	uint64_t mmap_offset;
	struct sim_bo_fences *fences;
};

static pthread_mutex_t offsets_lock = PTHREAD_MUTEX_INITIALIZER;
/* BOs alive, for the debugfs counters (sim_debugfs.c). */
static int live_bos;

int sim_gem_live_bos(void)
{
	return __atomic_load_n(&live_bos, __ATOMIC_RELAXED);
}
static uint64_t next_mmap_offset = MMAP_OFFSET_START;

/* --- references ------------------------------------------------------------ */

struct sim_bo *sim_bo_get(struct sim_bo *bo)
{
	__atomic_add_fetch(&bo->refs, 1, __ATOMIC_RELAXED);
	return bo;
}

void sim_bo_put(struct sim_bo *bo)
{
	if (!bo || __atomic_sub_fetch(&bo->refs, 1, __ATOMIC_ACQ_REL))
		return;
	if (bo->flags & SLEIPNIR_BO_USERPTR)
		sim_ram_userptr_remove(bo->pa);
	else
		sim_ram_free(bo->pa, bo->size);
	sim_bo_fences_free(bo->fences);
	free(bo);
	__atomic_sub_fetch(&live_bos, 1, __ATOMIC_RELAXED);
}

uint64_t sim_bo_size(const struct sim_bo *bo)
{
	return bo->size;
}

uint32_t sim_bo_flags(const struct sim_bo *bo)
{
	return bo->flags;
}

uint64_t sim_bo_pa(const struct sim_bo *bo)
{
	return bo->pa;
}

struct sim_bo_fences *sim_bo_fences(struct sim_bo *bo)
{
	return bo->fences;
}

static struct sim_bo *bo_new(uint64_t size, uint32_t flags)
{
	struct sim_bo *bo = calloc(1, sizeof(*bo));

	if (!bo)
		return NULL;
	bo->fences = sim_bo_fences_new();
	if (!bo->fences) {
		free(bo);
		return NULL;
	}
	bo->refs = 1;
	bo->size = size;
	bo->flags = flags;
	__atomic_add_fetch(&live_bos, 1, __ATOMIC_RELAXED);
	return bo;
}

/* --- the handle table -------------------------------------------------------- */

struct sim_bo *sim_bo_lookup(struct sim_file *file, uint32_t handle)
{
	struct sim_bo *bo = NULL;

	pthread_mutex_lock(&file->handles_lock);
	if (handle && handle <= file->num_handles && file->handles[handle - 1])
		bo = sim_bo_get(file->handles[handle - 1]);
	pthread_mutex_unlock(&file->handles_lock);
	return bo;
}

/* The lowest free handle, as the DRM core's idr; takes a reference. */
static int handle_create_locked(struct sim_file *file, struct sim_bo *bo,
				uint32_t *handle)
{
	uint32_t i;

	for (i = 0; i < file->num_handles; i++) {
		if (!file->handles[i])
			break;
	}
	if (i == file->num_handles) {
		uint32_t n = file->num_handles ? 2 * file->num_handles : 16;
		struct sim_bo **t;

		if (n > (1u << 30))
			return -ENOSPC;
		t = realloc(file->handles, n * sizeof(*t));
		if (!t)
			return -ENOMEM;
		memset(t + file->num_handles, 0,
		       (n - file->num_handles) * sizeof(*t));
		file->handles = t;
		file->num_handles = n;
	}
	file->handles[i] = sim_bo_get(bo);
	*handle = i + 1;
	return 0;
}

static int handle_create(struct sim_file *file, struct sim_bo *bo,
			 uint32_t *handle)
{
	int ret;

	pthread_mutex_lock(&file->handles_lock);
	ret = handle_create_locked(file, bo, handle);
	pthread_mutex_unlock(&file->handles_lock);
	return ret;
}

void sim_gem_file_close(struct sim_file *file)
{
	for (uint32_t i = 0; i < file->num_handles; i++)
		sim_bo_put(file->handles[i]);
	free(file->handles);
	file->handles = NULL;
	file->num_handles = 0;
}

int sim_gem_ioctl_gem_close(struct sim_file *file, void *arg)
{
	struct drm_gem_close *args = arg;
	struct sim_bo *bo = NULL;

	pthread_mutex_lock(&file->handles_lock);
	if (args->handle && args->handle <= file->num_handles) {
		bo = file->handles[args->handle - 1];
		file->handles[args->handle - 1] = NULL;
	}
	pthread_mutex_unlock(&file->handles_lock);
	if (!bo)
		return -EINVAL;
	sim_bo_put(bo);
	return 0;
}

/* --- BO_CREATE, BO_USERPTR ----------------------------------------------------- */

int sim_gem_ioctl_bo_create(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_bo_create *args = arg;
	struct sim_bo *bo;
	uint64_t size;
	int ret;

	ret = sleipnir_check_bo_create(args, sim_ram_size(),
				       sim_va_end(file->dev));
	if (ret)
		return ret;
	size = (args->size + SIM_PAGE - 1) & ~(SIM_PAGE - 1);

	bo = bo_new(size, args->flags);
	if (!bo)
		return -ENOMEM;
	/* Big BOs 2 MiB-aligned, so the VM can map them in 2 MiB blocks. */
	bo->pa = sim_ram_alloc(size, size >= SIM_SZ_2M ? SIM_SZ_2M : SIM_PAGE);
	if (!bo->pa) {
		sim_bo_put(bo);         /* nothing to free in RAM: pa is 0 */
		return -ENOMEM;
	}
	ret = handle_create(file, bo, &args->handle);
	sim_bo_put(bo);
	if (ret)
		return ret;
	args->size = size;
	return 0;
}

/*
 * Whether [start, start + size) is mapped in the process, and writable
 * when write is set: what pin_user_pages() would find. From
 * /proc/self/maps, which lists every mapping in address order.
 */
static int check_user_range(uint64_t start, uint64_t size, bool write)
{
	uint64_t at = start, end = start + size;
	char line[512];
	FILE *maps;
	int ret = -EFAULT;

	maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return -EFAULT;
	while (at < end && fgets(line, sizeof(line), maps)) {
		unsigned long long lo, hi;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perms) != 3)
			continue;
		if (hi <= at)
			continue;
		if (lo > at)
			break;              /* a hole at at */
		if (perms[0] != 'r' || (write && perms[1] != 'w'))
			break;
		at = hi;
	}
	if (at >= end)
		ret = 0;
	fclose(maps);
	return ret;
}

int sim_gem_ioctl_bo_userptr(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_bo_userptr *args = arg;
	struct sim_bo *bo;
	int ret;

	ret = sleipnir_check_bo_userptr(args, SIM_PAGE, sim_va_end(file->dev));
	if (ret)
		return ret;
	/* access_ok(): the range must be user addresses (47 bits). */
	if (args->user_ptr + args->size > (1ull << 47))
		return -EFAULT;
	if (args->size > sim_ram_size())
		return -ENOMEM;
	ret = check_user_range(args->user_ptr, args->size,
			       !(args->flags & SLEIPNIR_BO_GPU_READ_ONLY));
	if (ret)
		return ret;

	bo = bo_new(args->size, args->flags | SLEIPNIR_BO_USERPTR |
				SLEIPNIR_BO_NO_CPU_MAP |
				SLEIPNIR_BO_CPU_CACHED);
	if (!bo)
		return -ENOMEM;
	ret = sim_ram_userptr_add((void *)(uintptr_t)args->user_ptr,
				  args->size, &bo->pa);
	if (ret) {
		/* Not registered: only the struct to free. */
		bo->flags &= ~SLEIPNIR_BO_USERPTR;
		sim_bo_put(bo);
		return ret;
	}
	ret = handle_create(file, bo, &args->handle);
	sim_bo_put(bo);
	return ret;
}

/* --- BO_INFO, BO_SYNC ----------------------------------------------------------- */

int sim_gem_ioctl_bo_info(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_bo_info *args = arg;
	struct sim_bo *bo = sim_bo_lookup(file, args->handle);

	if (!bo)
		return -ENOENT;
	args->flags = bo->flags;
	args->size = bo->size;
	sim_bo_put(bo);
	return 0;
}

/* The host is coherent: only the checks remain. */
int sim_gem_ioctl_bo_sync(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_bo_sync *args = arg;
	struct sim_bo *bo;
	int ret = 0;

	ret = sleipnir_check_bo_sync(args);
	if (ret)
		return ret;
	bo = sim_bo_lookup(file, args->handle);
	if (!bo)
		return -ENOENT;
	if (!sleipnir_range_inside(args->offset, args->size, bo->size))
		ret = -EINVAL;
	sim_bo_put(bo);
	return ret;
}

/* --- CPU mappings --------------------------------------------------------------- */

/* One mmap() of a BO still (partly) in place; it holds the BO. */
struct cpu_map {
	uintptr_t start, end;
	struct sim_bo *bo;
	struct cpu_map *next;
};

static pthread_mutex_t cpu_maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cpu_map *cpu_maps;
static unsigned int cpu_map_count;

static void *map_bo(struct sim_bo *bo, void *addr, size_t len, int prot,
		    int flags, uint64_t bo_offset)
{
	struct cpu_map *m;
	void *p;
	int err;

	if (!len || bo_offset > bo->size || len > bo->size - bo_offset) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	/* A private mapping of a BO is not the BO: refuse as shmem does not. */
	m = malloc(sizeof(*m));
	if (!m) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	p = __real_mmap(addr, len, prot, flags, sim_ram_fd(),
			sim_ram_offset(bo->pa) + (off_t)bo_offset);
	if (p == MAP_FAILED) {
		err = errno;
		free(m);
		errno = err;
		return MAP_FAILED;
	}
	m->start = (uintptr_t)p;
	m->end = m->start + ((len + SIM_PAGE - 1) & ~(SIM_PAGE - 1));
	m->bo = sim_bo_get(bo);
	pthread_mutex_lock(&cpu_maps_lock);
	m->next = cpu_maps;
	cpu_maps = m;
	__atomic_add_fetch(&cpu_map_count, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&cpu_maps_lock);
	return p;
}

void sim_gem_cpu_unmapped(void *addr, size_t len)
{
	uintptr_t start = (uintptr_t)addr, end = start + len;
	struct cpu_map **p, *m, *dead = NULL;

	if (!len || !__atomic_load_n(&cpu_map_count, __ATOMIC_RELAXED))
		return;
	end = (end + SIM_PAGE - 1) & ~(uintptr_t)(SIM_PAGE - 1);
	pthread_mutex_lock(&cpu_maps_lock);
	for (p = &cpu_maps; (m = *p);) {
		if (m->end <= start || m->start >= end) {
			p = &m->next;
			continue;
		}
		if (m->start < start && m->end > end) {
			/* A hole in the middle: the part after is a map too. */
			struct cpu_map *tail = malloc(sizeof(*tail));

			if (tail) {
				tail->start = end;
				tail->end = m->end;
				tail->bo = sim_bo_get(m->bo);
				tail->next = m->next;
				m->next = tail;
				__atomic_add_fetch(&cpu_map_count, 1,
						   __ATOMIC_RELAXED);
			}
			m->end = start;
		} else if (m->start < start) {
			m->end = start;
		} else if (m->end > end) {
			m->start = end;
		} else {
			*p = m->next;
			m->next = dead;
			dead = m;
			__atomic_sub_fetch(&cpu_map_count, 1, __ATOMIC_RELAXED);
			continue;
		}
		p = &m->next;
	}
	pthread_mutex_unlock(&cpu_maps_lock);
	while ((m = dead)) {
		dead = m->next;
		sim_bo_put(m->bo);
		free(m);
	}
}

void sim_gem_cpu_remapped(void *old_addr, size_t old_len, void *new_addr,
			  size_t new_len, bool keep_old)
{
	uintptr_t old = (uintptr_t)old_addr, now = (uintptr_t)new_addr;
	uintptr_t old_end = old + ((old_len + SIM_PAGE - 1) & ~(SIM_PAGE - 1));
	uintptr_t new_end = now + ((new_len + SIM_PAGE - 1) & ~(SIM_PAGE - 1));
	struct cpu_map *m, *moved = NULL, *n;

	if (!__atomic_load_n(&cpu_map_count, __ATOMIC_RELAXED))
		return;
	pthread_mutex_lock(&cpu_maps_lock);
	for (m = cpu_maps; m; m = m->next) {
		uintptr_t start, end;

		if (m->end <= old || m->start >= old_end)
			continue;
		/* The part of m inside the old range, where it is now. */
		start = (m->start > old ? m->start : old) - old + now;
		end = (m->end < old_end ? m->end : old_end) - old + now;
		if (end > new_end)
			end = new_end;
		if (start >= end)
			continue;
		n = malloc(sizeof(*n));
		if (!n)
			continue;   /* the BO is then freed early; never late */
		n->start = start;
		n->end = end;
		n->bo = sim_bo_get(m->bo);
		n->next = moved;
		moved = n;
	}
	pthread_mutex_unlock(&cpu_maps_lock);
	/*
	 * The old range is gone unless MREMAP_DONTUNMAP kept it; dropped
	 * before the new entries go in, as both may overlap (in place).
	 */
	if (!keep_old)
		sim_gem_cpu_unmapped(old_addr, old_len);
	pthread_mutex_lock(&cpu_maps_lock);
	while ((n = moved)) {
		moved = n->next;
		n->next = cpu_maps;
		cpu_maps = n;
		__atomic_add_fetch(&cpu_map_count, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&cpu_maps_lock);
}

/* --- BO_MMAP_OFFSET and mmap() of the node ---------------------------------------- */

int sim_gem_ioctl_bo_mmap_offset(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_bo_mmap_offset *args = arg;
	struct sim_bo *bo;
	int ret = 0;

	if (args->pad)
		return -EINVAL;
	bo = sim_bo_lookup(file, args->handle);
	if (!bo)
		return -ENOENT;
	if (bo->flags & (SLEIPNIR_BO_NO_CPU_MAP | SLEIPNIR_BO_USERPTR)) {
		ret = -EPERM;
	} else {
		pthread_mutex_lock(&offsets_lock);
		if (!bo->mmap_offset) {
			__atomic_store_n(&bo->mmap_offset, next_mmap_offset,
					 __ATOMIC_RELAXED);
			next_mmap_offset += bo->size;
		}
		args->offset = bo->mmap_offset;
		pthread_mutex_unlock(&offsets_lock);
	}
	sim_bo_put(bo);
	return ret;
}

/*
 * drm_gem_mmap(): the offset must be where a BO's range starts and the
 * length must fit in it (EINVAL otherwise); the BO must be one this file
 * has a handle for (EACCES otherwise).
 */
void *sim_gem_mmap(struct sim_file *file, void *addr, size_t len, int prot,
		   int flags, off_t offset)
{
	struct sim_bo *bo = NULL;
	bool known = false;
	void *p;

	if (offset < 0 || !(flags & MAP_SHARED)) {
		/* drm_gem_mmap refuses COW mappings of BOs. */
		errno = EINVAL;
		return MAP_FAILED;
	}
	pthread_mutex_lock(&offsets_lock);
	known = offset && (uint64_t)offset < next_mmap_offset;
	pthread_mutex_unlock(&offsets_lock);

	pthread_mutex_lock(&file->handles_lock);
	for (uint32_t i = 0; i < file->num_handles; i++) {
		struct sim_bo *b = file->handles[i];

		uint64_t at = b ? __atomic_load_n(&b->mmap_offset,
						  __ATOMIC_RELAXED) : 0;

		if (at && at == (uint64_t)offset) {
			bo = sim_bo_get(b);
			break;
		}
	}
	pthread_mutex_unlock(&file->handles_lock);
	if (!bo) {
		errno = known ? EACCES : EINVAL;
		return MAP_FAILED;
	}
	if (bo->flags & SLEIPNIR_BO_NO_CPU_MAP) {
		sim_bo_put(bo);
		errno = EPERM;
		return MAP_FAILED;
	}
	p = map_bo(bo, addr, len, prot, flags, 0);
	sim_bo_put(bo);
	return p;
}

/* --- PRIME: dma-buf fds --------------------------------------------------------- */

static int dmabuf_ioctl(void *obj, unsigned long request, void *arg)
{
	struct dma_buf_sync sync;

	(void)obj;
	if (request != DMA_BUF_IOCTL_SYNC)
		return -ENOTTY;
	if (sim_copy_from_user(&sync, (uintptr_t)arg, sizeof(sync)))
		return -EFAULT;
	if ((sync.flags & ~DMA_BUF_SYNC_VALID_FLAGS_MASK) ||
	    !(sync.flags & DMA_BUF_SYNC_RW))
		return -EINVAL;
	return 0;
}

static void *dmabuf_mmap(void *obj, void *addr, size_t len, int prot,
			 int flags, off_t offset)
{
	struct sim_bo *bo = obj;

	if (offset < 0 || (offset & (off_t)(SIM_PAGE - 1))) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (!(flags & MAP_SHARED)) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	/* drm_gem_prime_mmap() asks the BO, which refuses as for the node. */
	if (bo->flags & SLEIPNIR_BO_NO_CPU_MAP) {
		errno = EPERM;
		return MAP_FAILED;
	}
	return map_bo(bo, addr, len, prot, flags, (uint64_t)offset);
}

static void dmabuf_release(void *obj)
{
	sim_bo_put(obj);
}

static const struct sim_fd_ops dmabuf_ops = {
	.name = "dmabuf",
	.ioctl = dmabuf_ioctl,
	.mmap = dmabuf_mmap,
	.release = dmabuf_release,
};

int sim_gem_ioctl_prime_handle_to_fd(struct sim_file *file, void *arg)
{
	struct drm_prime_handle *args = arg;
	struct sim_bo *bo;
	int fd;

	if (args->flags & ~(DRM_CLOEXEC | DRM_RDWR))
		return -EINVAL;
	bo = sim_bo_lookup(file, args->handle);
	if (!bo)
		return -ENOENT;
	if (bo->flags & SLEIPNIR_BO_USERPTR) {
		sim_bo_put(bo);
		return -EPERM;
	}
	/* The fd takes the lookup's reference. */
	fd = sim_fd_install(&dmabuf_ops, bo, args->flags & DRM_CLOEXEC);
	if (fd < 0) {
		sim_bo_put(bo);
		return fd;
	}
	args->fd = fd;
	return 0;
}

int sim_gem_ioctl_prime_fd_to_handle(struct sim_file *file, void *arg)
{
	struct drm_prime_handle *args = arg;
	struct sim_bo *bo;
	uint32_t i;
	int ret = 0;

	bo = sim_fd_get(args->fd, &dmabuf_ops, NULL);
	if (!bo)
		return fcntl(args->fd, F_GETFD) < 0 ? -EBADF : -EINVAL;

	/* Our own BO: the file's handle for it if it has one. */
	pthread_mutex_lock(&file->handles_lock);
	for (i = 0; i < file->num_handles; i++) {
		if (file->handles[i] == bo) {
			args->handle = i + 1;
			break;
		}
	}
	if (i == file->num_handles)
		ret = handle_create_locked(file, bo, &args->handle);
	pthread_mutex_unlock(&file->handles_lock);
	sim_fd_put(args->fd);
	return ret;
}

/* In a fork() child: the parent's CPU mappings are not tracked any more. */
void sim_gem_forget(void)
{
	pthread_mutex_init(&cpu_maps_lock, NULL);
	pthread_mutex_init(&offsets_lock, NULL);
	cpu_maps = NULL;
	cpu_map_count = 0;
	live_bos = 0;
}
