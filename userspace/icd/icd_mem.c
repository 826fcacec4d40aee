/* SPDX-License-Identifier: MIT */
/*
 * Buffers: clCreateBuffer, clCreateSubBuffer, clRetain/ReleaseMemObject,
 * clGetMemObjectInfo, clSetMemObjectDestructorCallback; their storage in
 * the context's GPU address space (see icd_mem.h), the cache maintenance
 * around CPU access, and the count of bytes the runtime copies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "icd_context.h"
#include "icd_device.h"
#include "icd_info.h"
#include "icd_mem.h"

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_PTR_FLAGS                                                       \
	(CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HOST_ACCESS_FLAGS                                                    \
	(CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |                    \
	 CL_MEM_HOST_NO_ACCESS)

/* The launch ABI passes buffer pointers as 32-bit values (sl_drm.h), so a
 * buffer kernels can use ends below 4 GiB. */
#define POINTER_SPACE (1ull << 32)

/* --- bytes copied ----------------------------------------------------- */

static atomic_uint_fast64_t copied;

void icd_copied_add(uint64_t bytes)
{
	atomic_fetch_add_explicit(&copied, bytes, memory_order_relaxed);
}

uint64_t icd_copied_total(void)
{
	return atomic_load_explicit(&copied, memory_order_relaxed);
}

/* At exit (or when the loader unloads the ICD): the figure the zero-copy
 * benchmarks and tests compare, without a query in every program. */
__attribute__((destructor)) static void print_copy_stats(void)
{
	const char *env = getenv("SLEIPNIR_CL_COPY_STATS");

	if (env && strcmp(env, "1") == 0)
		fprintf(stderr, "sleipnir-cl: %llu bytes copied\n",
			(unsigned long long)icd_copied_total());
}

/* --- handles and lifetime -------------------------------------------- */

bool icd_mem_valid(cl_mem mem)
{
	return icd_object_is(mem, ICD_TYPE_MEM);
}

bool icd_buffer_valid(cl_mem mem)
{
	return icd_mem_valid(mem) && mem->type == CL_MEM_OBJECT_BUFFER;
}

bool icd_image_valid(cl_mem mem)
{
	return icd_mem_valid(mem) && mem->type != CL_MEM_OBJECT_BUFFER;
}

void icd_mem_retain(cl_mem mem)
{
	atomic_fetch_add_explicit(&mem->holds, 1, memory_order_relaxed);
}

/* The last hold: the destructor callbacks, newest first as OpenCL 1.2
 * prescribes (5.4.1), then the storage and the object. */
static void destroy(cl_mem mem)
{
	cl_context ctx = mem->context;

	while (mem->callbacks) {
		struct icd_mem_callback *cb = mem->callbacks;

		mem->callbacks = cb->next;
		cb->fn(mem, cb->user_data);
		free(cb);
	}
	/* Mappings the application never unmapped. */
	while (mem->mappings) {
		struct icd_mem_mapping *m = mem->mappings;

		mem->mappings = m->next;
		free(m);
	}
	if (mem->image_buffer)
		icd_mem_release(mem->image_buffer);
	if (mem->parent) {
		icd_mem_release(mem->parent);
	} else if (mem->bo) {
		pthread_mutex_lock(&ctx->gpu_lock);
		sl_bo_destroy(mem->bo);
		pthread_mutex_unlock(&ctx->gpu_lock);
	}
	pthread_mutex_destroy(&mem->lock);
	free(mem);
	clReleaseContext(ctx);
}

void icd_mem_release(cl_mem mem)
{
	/* acq_rel: the destroying thread sees every other holder's writes. */
	if (atomic_fetch_sub_explicit(&mem->holds, 1, memory_order_acq_rel) == 1)
		destroy(mem);
}

/* --- cache maintenance ------------------------------------------------ */

/* The buffer that owns the storage and its cache state. */
static cl_mem root_of(cl_mem mem)
{
	return mem->parent ? mem->parent : mem;
}

void icd_mem_cpu_begin(cl_mem mem, size_t offset, size_t size)
{
	cl_mem root = root_of(mem);
	pthread_mutex_t *gpu_lock = &mem->context->gpu_lock;
	size_t start = mem->offset + offset;

	if (!mem->bo || size == 0)
		return;
	pthread_mutex_lock(gpu_lock);
	if (root->gpu_wrote) {
		/* Failure leaves nothing to recover: the range is inside the
		 * BO and the BO is ours, so the kernel has no reason to
		 * refuse. */
		(void)sl_bo_sync(mem->bo, SLEIPNIR_BO_SYNC_CPU_PREPARE, start,
				 size);
		if (start == 0 && size >= root->size)
			root->gpu_wrote = false;
	}
	pthread_mutex_unlock(gpu_lock);
}

void icd_mem_cpu_end(cl_mem mem, size_t offset, size_t size)
{
	cl_mem root = root_of(mem);
	pthread_mutex_t *gpu_lock = &mem->context->gpu_lock;
	size_t start = mem->offset + offset;

	if (!mem->bo || size == 0)
		return;
	pthread_mutex_lock(gpu_lock);
	if (root->cpu_dirty_end == 0) {
		root->cpu_dirty_start = start;
		root->cpu_dirty_end = start + size;
	} else {
		if (start < root->cpu_dirty_start)
			root->cpu_dirty_start = start;
		if (start + size > root->cpu_dirty_end)
			root->cpu_dirty_end = start + size;
	}
	pthread_mutex_unlock(gpu_lock);
}

void icd_mem_gpu_begin(cl_mem mem)
{
	cl_mem root = root_of(mem);

	if (!mem->bo || root->cpu_dirty_end == 0)
		return;
	(void)sl_bo_sync(mem->bo, SLEIPNIR_BO_SYNC_CPU_END,
			 root->cpu_dirty_start,
			 root->cpu_dirty_end - root->cpu_dirty_start);
	root->cpu_dirty_start = root->cpu_dirty_end = 0;
}

void icd_mem_gpu_end(cl_mem mem, bool wrote)
{
	if (wrote)
		root_of(mem)->gpu_wrote = true;
}

/* --- creation --------------------------------------------------------- */

static void *fail_with(cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

static bool at_most_one(cl_mem_flags bits)
{
	return (bits & (bits - 1)) == 0;
}

/* Table 5.3's rules: known bits only, one access mode, one host access
 * mode, and USE_HOST_PTR alone among the host-pointer flags
 * (ALLOC_HOST_PTR with COPY_HOST_PTR is allowed). */
bool icd_mem_flags_valid(cl_mem_flags flags)
{
	if (flags & ~(ACCESS_FLAGS | HOST_PTR_FLAGS | HOST_ACCESS_FLAGS))
		return false;
	if (!at_most_one(flags & ACCESS_FLAGS) ||
	    !at_most_one(flags & HOST_ACCESS_FLAGS))
		return false;
	return !((flags & CL_MEM_USE_HOST_PTR) &&
		 (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)));
}

/* A new object with one application reference and its hold, holding a
 * reference to @ctx. */
static cl_mem mem_new(cl_context ctx, cl_mem_object_type type,
		      cl_mem_flags flags, size_t size)
{
	cl_mem mem = calloc(1, sizeof(*mem));

	if (!mem)
		return NULL;
	icd_object_init(&mem->obj, ICD_TYPE_MEM);
	atomic_init(&mem->holds, 1);
	atomic_init(&mem->map_count, 0);
	pthread_mutex_init(&mem->lock, NULL);
	icd_object_retain(&ctx->obj);
	mem->context = ctx;
	mem->type = type;
	mem->flags = flags;
	mem->size = size;
	return mem;
}

void icd_mem_discard(cl_mem mem)
{
	icd_object_release(&mem->obj);
	icd_mem_release(mem);
}

static cl_int from_errno(int err)
{
	return err == -ENOMEM || err == -ENOSPC || err == -EINVAL ?
	       CL_MEM_OBJECT_ALLOCATION_FAILURE : CL_OUT_OF_RESOURCES;
}

/*
 * The storage of a new root buffer, under the context's gpu_lock: the
 * application's pages when USE_HOST_PTR gives page-aligned ones the
 * kernel can pin, otherwise a CPU-cached BO mapped for the CPU; either is
 * mapped into the context's GPU address space below 4 GiB.
 */
static cl_int make_storage(cl_mem mem, void *host_ptr)
{
	struct sl_drm *drm = mem->context->drm;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint32_t noexec = SLEIPNIR_BO_GPU_NOEXEC;
	void *cpu = NULL;
	int err;

	if ((mem->flags & CL_MEM_USE_HOST_PTR) &&
	    (uintptr_t)host_ptr % page == 0) {
		/* The whole last page: the kernel pins pages. Memory it
		 * cannot pin (unmapped tail, read-only) falls back to a
		 * copy. */
		uint64_t span = (mem->size + page - 1) / page * page;

		if (sl_bo_userptr(drm, host_ptr, span, noexec, &mem->bo) == 0)
			cpu = host_ptr;
	}
	if (!mem->bo) {
		err = sl_bo_create(drm, mem->size,
				   SLEIPNIR_BO_CPU_CACHED | noexec, &mem->bo);
		if (err)
			return from_errno(err);
		err = sl_bo_mmap(mem->bo, &cpu);
		if (err)
			return from_errno(err);
		mem->shadowed = (mem->flags & CL_MEM_USE_HOST_PTR) != 0;
	}
	err = sl_vm_map(mem->bo, 0, 0);
	if (err)
		return from_errno(err);
	if (mem->bo->va + mem->bo->size > POINTER_SPACE)
		return CL_MEM_OBJECT_ALLOCATION_FAILURE;
	mem->cpu = cpu;
	mem->va = mem->bo->va;
	return CL_SUCCESS;
}

cl_mem icd_mem_create(cl_context ctx, cl_mem_object_type type,
		      cl_mem_flags flags, size_t size, void *host_ptr,
		      cl_int *err)
{
	cl_mem mem;

	/* The host's fake GPU has no address space to put storage in. */
	if (!ctx->drm) {
		*err = CL_OUT_OF_RESOURCES;
		return NULL;
	}
	mem = mem_new(ctx, type, flags, size);
	if (!mem) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	if (flags & CL_MEM_USE_HOST_PTR)
		mem->host_ptr = host_ptr;
	pthread_mutex_lock(&ctx->gpu_lock);
	*err = make_storage(mem, host_ptr);
	pthread_mutex_unlock(&ctx->gpu_lock);
	if (*err) {
		icd_mem_discard(mem);
		return NULL;
	}
	return mem;
}

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags,
				  size_t size, void *host_ptr,
				  cl_int *errcode_ret)
{
	bool wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
	cl_mem mem;
	cl_int err;

	if (!icd_context_valid(context))
		return fail_with(CL_INVALID_CONTEXT, errcode_ret);
	if (!icd_mem_flags_valid(flags))
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	if (size == 0 || size > context->device->limits.max_mem_alloc_size)
		return fail_with(CL_INVALID_BUFFER_SIZE, errcode_ret);
	if (wants_ptr != (host_ptr != NULL))
		return fail_with(CL_INVALID_HOST_PTR, errcode_ret);

	mem = icd_mem_create(context, CL_MEM_OBJECT_BUFFER, flags, size,
			     host_ptr, &err);
	if (!mem)
		return fail_with(err, errcode_ret);
	/* The one copy in, for COPY_HOST_PTR and for a USE_HOST_PTR the
	 * GPU cannot use in place. */
	if ((flags & CL_MEM_COPY_HOST_PTR) || mem->shadowed) {
		memcpy(mem->cpu, host_ptr, size);
		icd_copied_add(size);
		icd_mem_cpu_end(mem, 0, size);
	}
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return mem;
}

/*
 * clCreateSubBuffer's flag rules (OpenCL 1.2, 5.2.1): the host-pointer
 * flags cannot be given; an access or host access mode may be given only
 * when it does not grant what the parent's denies.
 */
static bool sub_flags_valid(cl_mem_flags parent, cl_mem_flags flags)
{
	if (!icd_mem_flags_valid(flags) || (flags & HOST_PTR_FLAGS))
		return false;
	if ((parent & CL_MEM_WRITE_ONLY) &&
	    (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
		return false;
	if ((parent & CL_MEM_READ_ONLY) &&
	    (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
		return false;
	if ((parent & CL_MEM_HOST_WRITE_ONLY) &&
	    (flags & CL_MEM_HOST_READ_ONLY))
		return false;
	if ((parent & CL_MEM_HOST_READ_ONLY) &&
	    (flags & CL_MEM_HOST_WRITE_ONLY))
		return false;
	return !((parent & CL_MEM_HOST_NO_ACCESS) &&
		 (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)));
}

/* What a sub-buffer does not say it inherits from its parent. */
static cl_mem_flags inherit(cl_mem_flags parent, cl_mem_flags flags)
{
	if (!(flags & ACCESS_FLAGS))
		flags |= parent & ACCESS_FLAGS;
	if (!(flags & HOST_ACCESS_FLAGS))
		flags |= parent & HOST_ACCESS_FLAGS;
	return flags | (parent & HOST_PTR_FLAGS);
}

bool icd_mem_derived_flags(cl_mem_flags parent, cl_mem_flags flags,
			   cl_mem_flags *out)
{
	if (!sub_flags_valid(parent, flags))
		return false;
	*out = inherit(parent, flags);
	return true;
}

cl_mem icd_mem_window(cl_mem buffer, cl_mem_object_type type,
		      cl_mem_flags flags, size_t offset, size_t size)
{
	cl_mem root = buffer->parent ? buffer->parent : buffer;
	cl_mem sub = mem_new(buffer->context, type, flags, size);

	if (!sub)
		return NULL;
	/* A window on the root's storage, which it keeps alive. */
	offset += buffer->offset;
	icd_mem_retain(root);
	sub->parent = root;
	sub->offset = offset;
	sub->bo = root->bo;
	sub->cpu = root->cpu + offset;
	sub->va = root->va + offset;
	sub->shadowed = root->shadowed;
	if (root->host_ptr)
		sub->host_ptr = (uint8_t *)root->host_ptr + offset;
	return sub;
}

/* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes (icd_device_info.c answers it in
 * bits). */
static size_t base_addr_align(cl_context ctx)
{
	cl_uint bits = 0;

	clGetDeviceInfo(ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
			sizeof(bits), &bits, NULL);
	return bits >= 8 ? bits / 8 : 1;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
				     cl_buffer_create_type buffer_create_type,
				     const void *buffer_create_info,
				     cl_int *errcode_ret)
{
	const cl_buffer_region *region = buffer_create_info;
	cl_mem sub;

	if (!icd_buffer_valid(buffer) || buffer->parent)
		return fail_with(CL_INVALID_MEM_OBJECT, errcode_ret);
	if (!sub_flags_valid(buffer->flags, flags))
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || !region)
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	if (region->size == 0)
		return fail_with(CL_INVALID_BUFFER_SIZE, errcode_ret);
	if (region->origin > buffer->size ||
	    region->size > buffer->size - region->origin)
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	if (region->origin % base_addr_align(buffer->context))
		return fail_with(CL_MISALIGNED_SUB_BUFFER_OFFSET, errcode_ret);

	sub = icd_mem_window(buffer, CL_MEM_OBJECT_BUFFER,
			     inherit(buffer->flags, flags), region->origin,
			     region->size);
	if (!sub)
		return fail_with(CL_OUT_OF_HOST_MEMORY, errcode_ret);
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return sub;
}

/* --- references, callbacks, queries ----------------------------------- */

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj)
{
	if (!icd_mem_valid(memobj))
		return CL_INVALID_MEM_OBJECT;
	icd_object_retain(&memobj->obj);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj)
{
	if (!icd_mem_valid(memobj))
		return CL_INVALID_MEM_OBJECT;
	/* The storage stays while commands or sub-buffers still hold it. */
	if (icd_object_release(&memobj->obj)) {
		/* Its destructor callbacks are due when the launches using
		 * it end, whether or not anyone waits for them. */
		if (atomic_load(&memobj->holds) > 1)
			icd_context_watch_queues(memobj->context);
		icd_mem_release(memobj);
	}
	return CL_SUCCESS;
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(
	cl_mem memobj, void(CL_CALLBACK *pfn_notify)(cl_mem, void *),
	void *user_data)
{
	struct icd_mem_callback *cb;

	if (!icd_mem_valid(memobj))
		return CL_INVALID_MEM_OBJECT;
	if (!pfn_notify)
		return CL_INVALID_VALUE;
	cb = malloc(sizeof(*cb));
	if (!cb)
		return CL_OUT_OF_HOST_MEMORY;
	cb->fn = pfn_notify;
	cb->user_data = user_data;
	pthread_mutex_lock(&memobj->lock);
	cb->next = memobj->callbacks;
	memobj->callbacks = cb;
	pthread_mutex_unlock(&memobj->lock);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
				      size_t param_value_size,
				      void *param_value,
				      size_t *param_value_size_ret)
{
	union {
		cl_mem_object_type type;
		cl_mem_flags flags;
		size_t sz;
		void *ptr;
		cl_uint u;
		cl_context context;
		cl_mem mem;
	} v;
	size_t size;

	if (!icd_mem_valid(memobj))
		return CL_INVALID_MEM_OBJECT;
	switch (param_name) {
	case CL_MEM_TYPE:
		v.type = memobj->type;
		size = sizeof(v.type);
		break;
	case CL_MEM_FLAGS:
		v.flags = memobj->flags;
		size = sizeof(v.flags);
		break;
	case CL_MEM_SIZE:
		v.sz = memobj->size;
		size = sizeof(v.sz);
		break;
	case CL_MEM_HOST_PTR:
		/* A 1D buffer image was made without one. */
		v.ptr = memobj->image_buffer ? NULL : memobj->host_ptr;
		size = sizeof(v.ptr);
		break;
	case CL_MEM_MAP_COUNT:
		v.u = atomic_load(&memobj->map_count);
		size = sizeof(v.u);
		break;
	case CL_MEM_REFERENCE_COUNT:
		v.u = icd_object_refs(&memobj->obj);
		size = sizeof(v.u);
		break;
	case CL_MEM_CONTEXT:
		v.context = memobj->context;
		size = sizeof(v.context);
		break;
	case CL_MEM_ASSOCIATED_MEMOBJECT:
		/* A 1D buffer image's is its buffer (OpenCL 1.2 5.4.3). */
		v.mem = memobj->type == CL_MEM_OBJECT_BUFFER ? memobj->parent :
			memobj->image_buffer;
		size = sizeof(v.mem);
		break;
	case CL_MEM_OFFSET:
		/* Only a sub-buffer has one. */
		v.sz = memobj->type == CL_MEM_OBJECT_BUFFER ? memobj->offset :
		       0;
		size = sizeof(v.sz);
		break;
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_copy(&v, size, param_value_size, param_value,
			     param_value_size_ret);
}
