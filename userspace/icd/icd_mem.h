/* SPDX-License-Identifier: MIT */
/*
 * Buffers (cl_mem): their storage in a BO of the context's GPU address
 * space, sub-buffers as windows on their parent's BO, and the count of
 * bytes the runtime copies on the application's behalf.
 *
 * Storage by creation flags (unified memory: CPU and GPU share RAM):
 *   CL_MEM_USE_HOST_PTR, host_ptr page-aligned  the application's pages
 *       wrapped in a USERPTR BO: the GPU works on them in place, no copy;
 *   CL_MEM_USE_HOST_PTR, otherwise             a CPU-cached BO holding a
 *       copy; map copies the BO to host_ptr, unmap of a write map copies
 *       it back (counted);
 *   anything else (ALLOC_HOST_PTR or none)      a CPU-cached BO mapped
 *       for the CPU once; COPY_HOST_PTR copies host_ptr in (counted).
 * Map returns a pointer into the storage; unmap only does the cache
 * maintenance the uapi's BO_SYNC needs.
 */
#ifndef ICD_MEM_H
#define ICD_MEM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "icd_object.h"
#include "sl_drm.h"
#include "sl_launch.h"

struct icd_mem_callback {
	void(CL_CALLBACK *fn)(cl_mem memobj, void *user_data);
	void *user_data;
	struct icd_mem_callback *next;
};

/* One clEnqueueMapBuffer not yet unmapped (icd_buffer_ops.c): unmap finds
 * it by pointer and learns what to write back. */
struct icd_mem_mapping {
	void *ptr;                   /* what the map returned */
	size_t offset, size;         /* within the buffer */
	cl_map_flags flags;
	struct icd_mem_mapping *next;
};

struct _cl_mem {
	struct icd_object obj;
	cl_context context;          /* retained */
	cl_mem_object_type type;     /* CL_MEM_OBJECT_BUFFER or _IMAGE* */
	cl_mem_flags flags;          /* as given, plus inherited for subs */
	size_t size;
	void *host_ptr;              /* CL_MEM_HOST_PTR answer, or NULL */
	cl_mem parent;               /* sub-buffer, 1D buffer image: the
				      * root buffer, held */
	size_t offset;               /* bytes from the parent's start */
	/*
	 * Images (icd_image.c): format, sizes as created (OpenCL's: 0 where
	 * the type has none), the storage's pitches, and the launch ABI's
	 * view of it (sl.va is the storage's). A 1D buffer image is a
	 * window on its buffer (held), like a sub-buffer.
	 */
	cl_image_format format;
	size_t width, height, depth, array_size;
	size_t row_pitch, slice_pitch, elem_size;
	cl_mem image_buffer;
	struct sl_image sl;
	/* Storage: the BO (the root buffer's, for sub-buffers) and where
	 * byte 0 of this buffer is for the CPU and for the GPU. */
	struct sl_bo *bo;
	uint8_t *cpu;
	uint64_t va;
	/* CL_MEM_USE_HOST_PTR kept as a copy (unaligned host_ptr). */
	bool shadowed;
	/*
	 * Cache state of the storage, kept in the root buffer (sub-buffers
	 * use their parent's) under the context's gpu_lock. On a GPU that
	 * does not snoop the CPU's caches, maintenance is owed only when the
	 * other side touched the memory, so it is done then and not on
	 * every map: gpu_wrote says a job that may write the BO ended since
	 * the CPU last dropped its cached lines of the whole BO; cpu_dirty
	 * is the byte range the CPU wrote that no job has seen yet, cleaned
	 * just before the next job that uses the BO.
	 */
	bool gpu_wrote;
	size_t cpu_dirty_start, cpu_dirty_end;
	atomic_uint map_count;
	pthread_mutex_t lock;        /* callbacks, mappings */
	struct icd_mem_callback *callbacks;  /* newest first */
	struct icd_mem_mapping *mappings;
	/*
	 * What keeps the object and its storage: one hold for all of the
	 * application's references (obj.refs, CL_MEM_REFERENCE_COUNT) plus
	 * one per command or sub-buffer using it (icd_mem_retain). The
	 * handle dies with the last application reference; the destructor
	 * callbacks run and the storage goes with the last hold.
	 */
	atomic_uint holds;
};

/* True when @mem is a live memory object of this ICD; a buffer; an
 * image. */
bool icd_mem_valid(cl_mem mem);
bool icd_buffer_valid(cl_mem mem);
bool icd_image_valid(cl_mem mem);

/* Table 5.3's flag rules (known bits, one access mode, ...). */
bool icd_mem_flags_valid(cl_mem_flags flags);

/*
 * A new memory object of @type with storage of @size bytes (icd_mem.h's
 * rules for USE_HOST_PTR; @host_ptr only for that), and its one
 * application reference; nothing is copied in. NULL with *@err set on
 * failure.
 */
cl_mem icd_mem_create(cl_context ctx, cl_mem_object_type type,
		      cl_mem_flags flags, size_t size, void *host_ptr,
		      cl_int *err);

/*
 * A new memory object of @type, @size bytes at @offset in @buffer's
 * storage (a window, like a sub-buffer), with @flags (the caller checked
 * and completed them). NULL when memory runs out.
 */
cl_mem icd_mem_window(cl_mem buffer, cl_mem_object_type type,
		      cl_mem_flags flags, size_t offset, size_t size);

/* Frees an object icd_mem_create/window made that never reached the
 * application. */
void icd_mem_discard(cl_mem mem);

/*
 * The flags of a memory object made on @parent's storage with @flags
 * (clCreateSubBuffer's rules, OpenCL 1.2 5.2.1; also a 1D buffer image's,
 * 5.3.1): false when @flags are not allowed, else the inherited ones in
 * *@out.
 */
bool icd_mem_derived_flags(cl_mem_flags parent, cl_mem_flags flags,
			   cl_mem_flags *out);
/* Keeps @mem alive while a command uses it, and lets it go. */
void icd_mem_retain(cl_mem mem);
void icd_mem_release(cl_mem mem);

/*
 * Cache maintenance around CPU access to [offset, offset + size) of @mem
 * (offsets within @mem): before the CPU reads what the GPU wrote
 * (icd_mem_cpu_begin) and after the CPU wrote what the GPU will read
 * (icd_mem_cpu_end). This is the BO's maintenance: the host_ptr copy of a
 * shadowed USE_HOST_PTR buffer is not touched here (map and unmap copy it).
 */
void icd_mem_cpu_begin(cl_mem mem, size_t offset, size_t size);
void icd_mem_cpu_end(cl_mem mem, size_t offset, size_t size);

/*
 * The GPU side of the same: before a job that uses @mem is submitted
 * (cleans what the CPU wrote) and after it ended (@wrote: the job may
 * have written @mem). Called with the context's gpu_lock held.
 */
void icd_mem_gpu_begin(cl_mem mem);
void icd_mem_gpu_end(cl_mem mem, bool wrote);

/* Adds @bytes to the count of bytes the runtime copied. */
void icd_copied_add(uint64_t bytes);
/*
 * The count so far. SLEIPNIR_CL_COPY_STATS=1 in the environment prints it
 * to stderr when the process exits; clGetDeviceInfo answers it too
 * (CL_DEVICE_SLEIPNIR_BYTES_COPIED, see cl_sleipnir.h).
 */
uint64_t icd_copied_total(void);

#endif
