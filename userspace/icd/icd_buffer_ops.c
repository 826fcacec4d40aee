/* SPDX-License-Identifier: MIT */
/*
 * The buffer commands: clEnqueueRead/Write/CopyBuffer and their Rect
 * forms, clEnqueueFillBuffer, clEnqueueMapBuffer, clEnqueueUnmapMemObject
 * and clEnqueueMigrateMemObjects.
 *
 * Fills and copies between buffers are launches of the runtime's own
 * GPU kernels (icd_builtin.h) when it has them, chained with the queue's
 * kernels; the CPU does them otherwise, as it does everything else here.
 * CPU and GPU share memory, so each other command is CPU work on the
 * queue's thread (icd_queue.h): one memcpy between the application's memory and
 * the buffer's CPU mapping, bracketed by the cache maintenance the uapi
 * asks for (icd_mem_cpu_begin/end), and counted (icd_copied_add). Map
 * returns a pointer into the storage at once and copies nothing, except
 * for USE_HOST_PTR buffers kept as a copy (icd_mem.h), whose host_ptr is
 * brought up to date by map and written back by unmap. Every command
 * holds the buffers it uses until it is freed.
 */
#include <stdlib.h>
#include <string.h>

#include "icd_builtin.h"
#include "icd_event.h"
#include "icd_mem.h"
#include "icd_queue.h"
#include "icd_transfer.h"

/* --- argument checks ------------------------------------------------- */

/* A buffer argument: valid (CL_INVALID_MEM_OBJECT) and of the queue's
 * context (CL_INVALID_CONTEXT). */
static cl_int check_buffer(cl_command_queue queue, cl_mem buffer)
{
	if (!icd_buffer_valid(buffer))
		return CL_INVALID_MEM_OBJECT;
	return buffer->context == queue->context ? CL_SUCCESS :
	       CL_INVALID_CONTEXT;
}

/* Any memory object, buffer or image (unmap, migrate). */
static cl_int check_mem(cl_command_queue queue, cl_mem mem)
{
	if (!icd_mem_valid(mem))
		return CL_INVALID_MEM_OBJECT;
	return mem->context == queue->context ? CL_SUCCESS :
	       CL_INVALID_CONTEXT;
}

/* [offset, offset + size) lies inside @mem (overflow-safe). */
static bool in_bounds(cl_mem mem, size_t offset, size_t size)
{
	return offset <= mem->size && size <= mem->size - offset;
}

bool icd_host_may_read(cl_mem mem)
{
	return !(mem->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}

bool icd_host_may_write(cl_mem mem)
{
	return !(mem->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
}

size_t icd_box_extent(const struct icd_box *b, const size_t region[3])
{
	return (region[2] - 1) * b->slice_pitch +
	       (region[1] - 1) * b->row_pitch + region[0];
}

/*
 * The Rect forms' rules for one side (OpenCL 1.2, 5.2.2): a row pitch of
 * 0 is region[0], a slice pitch of 0 is region[1] rows; a given row pitch
 * below region[0], or a given slice pitch below region[1] rows or not a
 * whole number of rows, is CL_INVALID_VALUE. @origin (x bytes, y rows, z
 * slices) becomes the box's start; false when it or its extent overflow.
 */
static bool make_box(const size_t origin[3], const size_t region[3],
		     size_t row_pitch, size_t slice_pitch, struct icd_box *b)
{
	size_t y, z, extent;

	if (row_pitch == 0)
		row_pitch = region[0];
	else if (row_pitch < region[0])
		return false;
	if (slice_pitch == 0) {
		if (__builtin_mul_overflow(region[1], row_pitch, &slice_pitch))
			return false;
	} else if (slice_pitch / row_pitch < region[1] ||
		   slice_pitch % row_pitch) {
		return false;
	}
	b->row_pitch = row_pitch;
	b->slice_pitch = slice_pitch;
	/* start = z * slice + y * row + x, and start + extent, without
	 * wrapping. */
	if (__builtin_mul_overflow(origin[2], slice_pitch, &z) ||
	    __builtin_mul_overflow(origin[1], row_pitch, &y) ||
	    __builtin_add_overflow(z, y, &b->start) ||
	    __builtin_add_overflow(b->start, origin[0], &b->start))
		return false;
	if (__builtin_mul_overflow(region[2] - 1, slice_pitch, &z) ||
	    __builtin_mul_overflow(region[1] - 1, row_pitch, &y) ||
	    __builtin_add_overflow(z, y, &extent) ||
	    __builtin_add_overflow(extent, region[0], &extent) ||
	    __builtin_add_overflow(b->start, extent, &extent))
		return false;
	return true;
}

/* The region's three sizes are given and none is 0. */
static bool region_valid(const size_t *region)
{
	return region && region[0] && region[1] && region[2];
}

/* @b with @region lies inside @mem. */
static bool box_in_bounds(cl_mem mem, const struct icd_box *b,
			  const size_t region[3])
{
	return in_bounds(mem, b->start, icd_box_extent(b, region));
}

/* The buffer @mem's storage is a window of: itself, or its parent. */
static cl_mem root_of(cl_mem mem)
{
	return mem->parent ? mem->parent : mem;
}

/*
 * True when the rows of @a and @b (each with @region, starts relative to
 * one root buffer) share a byte. Rows of a valid box lie in increasing
 * order without overlapping one another, so one merge-like walk over both
 * lists decides it exactly, whatever the pitches.
 */
bool icd_boxes_overlap(const struct icd_box *a, const struct icd_box *b,
		       const size_t region[3])
{
	size_t rows = region[1] * region[2], i = 0, j = 0;

	/* Disjoint spans cannot share a row. */
	if (a->start + icd_box_extent(a, region) <= b->start ||
	    b->start + icd_box_extent(b, region) <= a->start)
		return false;
	while (i < rows && j < rows) {
		size_t ra = a->start + (i / region[1]) * a->slice_pitch +
			    (i % region[1]) * a->row_pitch;
		size_t rb = b->start + (j / region[1]) * b->slice_pitch +
			    (j % region[1]) * b->row_pitch;

		if (ra < rb + region[0] && rb < ra + region[0])
			return true;
		if (ra < rb)
			i++;
		else
			j++;
	}
	return false;
}

/* --- the copy ---------------------------------------------------------- */

size_t icd_copy_box(uint8_t *dst, const struct icd_box *d,
		    const uint8_t *src, const struct icd_box *s,
		    const size_t region[3])
{
	size_t rows = region[0] * region[1];

	if (d->row_pitch == region[0] && s->row_pitch == region[0] &&
	    (region[2] == 1 || (d->slice_pitch == rows &&
				s->slice_pitch == rows))) {
		memmove(dst + d->start, src + s->start, rows * region[2]);
		return rows * region[2];
	}
	for (size_t z = 0; z < region[2]; z++)
		for (size_t y = 0; y < region[1]; y++)
			memmove(dst + d->start + z * d->slice_pitch +
				y * d->row_pitch,
				src + s->start + z * s->slice_pitch +
				y * s->row_pitch, region[0]);
	return rows * region[2];
}

/* --- read, write, copy (1-D and Rect) ---------------------------------- */

static void transfer_free(void *data)
{
	struct icd_transfer *t = data;

	if (t->src)
		icd_mem_release(t->src);
	if (t->dst)
		icd_mem_release(t->dst);
	free(t);
}

static cl_int transfer_run(cl_event cmd)
{
	struct icd_transfer *t = cmd->data;
	const uint8_t *from = t->src ? t->src->cpu : t->host;
	uint8_t *to = t->dst ? t->dst->cpu : t->host;
	size_t src_span = icd_box_extent(&t->src_box, t->region);
	size_t dst_span = icd_box_extent(&t->dst_box, t->region);

	/* What the GPU wrote becomes visible to the CPU; lines the copy
	 * writes only in part are refreshed before it merges into them. */
	if (t->src)
		icd_mem_cpu_begin(t->src, t->src_box.start, src_span);
	if (t->dst)
		icd_mem_cpu_begin(t->dst, t->dst_box.start, dst_span);
	icd_copied_add(icd_copy_box(to, &t->dst_box, from, &t->src_box,
				    t->region));
	if (t->dst)
		icd_mem_cpu_end(t->dst, t->dst_box.start, dst_span);
	return CL_SUCCESS;
}

cl_int icd_enqueue_transfer(cl_command_queue queue, cl_command_type type,
			    const struct icd_transfer *t, bool blocking,
			    cl_uint num_events, const cl_event *wait_list,
			    cl_event *event)
{
	struct icd_transfer *data = malloc(sizeof(*data));
	cl_event cmd;
	cl_int err;

	if (!data)
		return CL_OUT_OF_HOST_MEMORY;
	cmd = icd_command_new(queue, type, num_events, wait_list, &err);
	if (!cmd) {
		free(data);
		return err;
	}
	*data = *t;
	if (data->src)
		icd_mem_retain(data->src);
	if (data->dst)
		icd_mem_retain(data->dst);
	cmd->run = transfer_run;
	cmd->data = data;
	cmd->free_data = transfer_free;
	return icd_command_enqueue(cmd, blocking, event);
}

/* The shared part of clEnqueueReadBuffer(Rect) and
 * clEnqueueWriteBuffer(Rect), once the boxes are known: @write says which
 * way the bytes go. */
static cl_int read_write(cl_command_queue queue, cl_mem buffer, bool write,
			 bool blocking, const struct icd_box *buf_box,
			 const struct icd_box *host_box, const size_t region[3],
			 const void *ptr, cl_uint num_events,
			 const cl_event *wait_list, cl_event *event,
			 cl_command_type type)
{
	struct icd_transfer t = { .host = (uint8_t *)ptr };

	memcpy(t.region, region, sizeof(t.region));
	if (write) {
		t.dst = buffer;
		t.dst_box = *buf_box;
		t.src_box = *host_box;
	} else {
		t.src = buffer;
		t.src_box = *buf_box;
		t.dst_box = *host_box;
	}
	return icd_enqueue_transfer(queue, type, &t, blocking, num_events,
				wait_list, event);
}

/* The 1-D checks of clEnqueueReadBuffer and clEnqueueWriteBuffer. */
static cl_int check_read_write(cl_command_queue queue, cl_mem buffer,
			       bool write, size_t offset, size_t size,
			       const void *ptr, cl_uint num_events,
			       const cl_event *wait_list)
{
	cl_int err = icd_queue_check(queue, num_events, wait_list);

	if (!err)
		err = check_buffer(queue, buffer);
	if (err)
		return err;
	if (!in_bounds(buffer, offset, size) || !ptr || size == 0)
		return CL_INVALID_VALUE;
	if (write ? !icd_host_may_write(buffer) : !icd_host_may_read(buffer))
		return CL_INVALID_OPERATION;
	return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue,
				       cl_mem buffer, cl_bool blocking_read,
				       size_t offset, size_t size, void *ptr,
				       cl_uint num_events_in_wait_list,
				       const cl_event *event_wait_list,
				       cl_event *event)
{
	struct icd_box buf_box = { offset, size, size }, host_box = { 0, size, size };
	size_t region[3] = { size, 1, 1 };
	cl_int err = check_read_write(command_queue, buffer, false, offset,
				      size, ptr, num_events_in_wait_list,
				      event_wait_list);

	if (err)
		return err;
	return read_write(command_queue, buffer, false, blocking_read,
			  &buf_box, &host_box, region, ptr,
			  num_events_in_wait_list, event_wait_list, event,
			  CL_COMMAND_READ_BUFFER);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue,
					cl_mem buffer, cl_bool blocking_write,
					size_t offset, size_t size,
					const void *ptr,
					cl_uint num_events_in_wait_list,
					const cl_event *event_wait_list,
					cl_event *event)
{
	struct icd_box buf_box = { offset, size, size }, host_box = { 0, size, size };
	size_t region[3] = { size, 1, 1 };
	cl_int err = check_read_write(command_queue, buffer, true, offset,
				      size, ptr, num_events_in_wait_list,
				      event_wait_list);

	if (err)
		return err;
	return read_write(command_queue, buffer, true, blocking_write,
			  &buf_box, &host_box, region, ptr,
			  num_events_in_wait_list, event_wait_list, event,
			  CL_COMMAND_WRITE_BUFFER);
}

/* The checks of the Read/WriteBufferRect forms; fills both boxes. */
static cl_int check_rect(cl_command_queue queue, cl_mem buffer, bool write,
			 const size_t *buffer_origin, const size_t *host_origin,
			 const size_t *region, size_t buffer_row_pitch,
			 size_t buffer_slice_pitch, size_t host_row_pitch,
			 size_t host_slice_pitch, const void *ptr,
			 cl_uint num_events, const cl_event *wait_list,
			 struct icd_box *buf_box, struct icd_box *host_box)
{
	cl_int err = icd_queue_check(queue, num_events, wait_list);

	if (!err)
		err = check_buffer(queue, buffer);
	if (err)
		return err;
	if (!buffer_origin || !host_origin || !region_valid(region) || !ptr)
		return CL_INVALID_VALUE;
	if (!make_box(buffer_origin, region, buffer_row_pitch,
		      buffer_slice_pitch, buf_box) ||
	    !make_box(host_origin, region, host_row_pitch, host_slice_pitch,
		      host_box) ||
	    !box_in_bounds(buffer, buf_box, region))
		return CL_INVALID_VALUE;
	if (write ? !icd_host_may_write(buffer) : !icd_host_may_read(buffer))
		return CL_INVALID_OPERATION;
	return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueReadBufferRect(
	cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
	const size_t *buffer_origin, const size_t *host_origin,
	const size_t *region, size_t buffer_row_pitch,
	size_t buffer_slice_pitch, size_t host_row_pitch,
	size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list, cl_event *event)
{
	struct icd_box buf_box, host_box;
	cl_int err = check_rect(command_queue, buffer, false, buffer_origin,
				host_origin, region, buffer_row_pitch,
				buffer_slice_pitch, host_row_pitch,
				host_slice_pitch, ptr, num_events_in_wait_list,
				event_wait_list, &buf_box, &host_box);

	if (err)
		return err;
	return read_write(command_queue, buffer, false, blocking_read,
			  &buf_box, &host_box, region, ptr,
			  num_events_in_wait_list, event_wait_list, event,
			  CL_COMMAND_READ_BUFFER_RECT);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(
	cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
	const size_t *buffer_origin, const size_t *host_origin,
	const size_t *region, size_t buffer_row_pitch,
	size_t buffer_slice_pitch, size_t host_row_pitch,
	size_t host_slice_pitch, const void *ptr,
	cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
	cl_event *event)
{
	struct icd_box buf_box, host_box;
	cl_int err = check_rect(command_queue, buffer, true, buffer_origin,
				host_origin, region, buffer_row_pitch,
				buffer_slice_pitch, host_row_pitch,
				host_slice_pitch, ptr, num_events_in_wait_list,
				event_wait_list, &buf_box, &host_box);

	if (err)
		return err;
	return read_write(command_queue, buffer, true, blocking_write,
			  &buf_box, &host_box, region, ptr,
			  num_events_in_wait_list, event_wait_list, event,
			  CL_COMMAND_WRITE_BUFFER_RECT);
}

/* The two buffers of a copy: valid, of the queue's context. */
static cl_int check_copy_buffers(cl_command_queue queue, cl_mem src,
				 cl_mem dst, cl_uint num_events,
				 const cl_event *wait_list)
{
	cl_int err = icd_queue_check(queue, num_events, wait_list);

	if (err)
		return err;
	if (!icd_buffer_valid(src) || !icd_buffer_valid(dst))
		return CL_INVALID_MEM_OBJECT;
	if (src->context != queue->context || dst->context != queue->context)
		return CL_INVALID_CONTEXT;
	return CL_SUCCESS;
}

/* @b (relative to @mem) relative to @mem's root buffer instead. */
static struct icd_box in_root(cl_mem mem, struct icd_box b)
{
	b.start += mem->offset;
	return b;
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue,
				       cl_mem src_buffer, cl_mem dst_buffer,
				       size_t src_offset, size_t dst_offset,
				       size_t size,
				       cl_uint num_events_in_wait_list,
				       const cl_event *event_wait_list,
				       cl_event *event)
{
	struct icd_transfer t = {
		.src = src_buffer, .dst = dst_buffer,
		.src_box = { src_offset, size, size },
		.dst_box = { dst_offset, size, size },
		.region = { size, 1, 1 },
	};
	cl_int err = check_copy_buffers(command_queue, src_buffer, dst_buffer,
					num_events_in_wait_list,
					event_wait_list);

	if (err)
		return err;
	/* A size of 0 is refused as clEnqueueRead/WriteBuffer refuse it. */
	if (!in_bounds(src_buffer, src_offset, size) ||
	    !in_bounds(dst_buffer, dst_offset, size) || size == 0)
		return CL_INVALID_VALUE;
	if (root_of(src_buffer) == root_of(dst_buffer)) {
		size_t a = src_buffer->offset + src_offset;
		size_t b = dst_buffer->offset + dst_offset;

		if (a < b + size && b < a + size)
			return CL_MEM_COPY_OVERLAP;
	}
	if (icd_builtin_copy(command_queue, CL_COMMAND_COPY_BUFFER, &t,
			     num_events_in_wait_list, event_wait_list, event,
			     &err))
		return err;
	return icd_enqueue_transfer(command_queue, CL_COMMAND_COPY_BUFFER, &t,
				false, num_events_in_wait_list,
				event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(
	cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
	const size_t *src_origin, const size_t *dst_origin,
	const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
	size_t dst_row_pitch, size_t dst_slice_pitch,
	cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
	cl_event *event)
{
	struct icd_transfer t = { .src = src_buffer, .dst = dst_buffer };
	cl_int err = check_copy_buffers(command_queue, src_buffer, dst_buffer,
					num_events_in_wait_list,
					event_wait_list);

	if (err)
		return err;
	if (!src_origin || !dst_origin || !region_valid(region))
		return CL_INVALID_VALUE;
	memcpy(t.region, region, sizeof(t.region));
	if (!make_box(src_origin, region, src_row_pitch, src_slice_pitch,
		      &t.src_box) ||
	    !make_box(dst_origin, region, dst_row_pitch, dst_slice_pitch,
		      &t.dst_box) ||
	    !box_in_bounds(src_buffer, &t.src_box, region) ||
	    !box_in_bounds(dst_buffer, &t.dst_box, region))
		return CL_INVALID_VALUE;
	/* OpenCL 1.2 names this case as written: both pitches differ. */
	if (src_buffer == dst_buffer &&
	    t.src_box.slice_pitch != t.dst_box.slice_pitch &&
	    t.src_box.row_pitch != t.dst_box.row_pitch)
		return CL_INVALID_VALUE;
	if (root_of(src_buffer) == root_of(dst_buffer)) {
		struct icd_box a = in_root(src_buffer, t.src_box);
		struct icd_box b = in_root(dst_buffer, t.dst_box);

		if (icd_boxes_overlap(&a, &b, region))
			return CL_MEM_COPY_OVERLAP;
	}
	if (icd_builtin_copy(command_queue, CL_COMMAND_COPY_BUFFER_RECT, &t,
			     num_events_in_wait_list, event_wait_list, event,
			     &err))
		return err;
	return icd_enqueue_transfer(command_queue, CL_COMMAND_COPY_BUFFER_RECT,
				&t, false, num_events_in_wait_list,
				event_wait_list, event);
}

/* --- fill ---------------------------------------------------------------- */

struct fill {
	cl_mem mem;
	size_t offset, size, pattern_size;
	uint8_t pattern[128];
};

static void fill_free(void *data)
{
	struct fill *f = data;

	icd_mem_release(f->mem);
	free(f);
}

static cl_int fill_run(cl_event cmd)
{
	struct fill *f = cmd->data;
	uint8_t *p = f->mem->cpu + f->offset;

	if (f->size == 0)
		return CL_SUCCESS;
	icd_mem_cpu_begin(f->mem, f->offset, f->size);
	if (f->pattern_size == 1) {
		memset(p, f->pattern[0], f->size);
	} else {
		/* Doubling copies: log2(size / pattern) memcpys. */
		size_t done = f->pattern_size;

		memcpy(p, f->pattern, f->pattern_size);
		while (done < f->size) {
			size_t n = done < f->size - done ? done :
				   f->size - done;

			memcpy(p + done, p, n);
			done += n;
		}
	}
	icd_mem_cpu_end(f->mem, f->offset, f->size);
	icd_copied_add(f->size);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue,
				       cl_mem buffer, const void *pattern,
				       size_t pattern_size, size_t offset,
				       size_t size,
				       cl_uint num_events_in_wait_list,
				       const cl_event *event_wait_list,
				       cl_event *event)
{
	struct fill *f;
	cl_event cmd;
	cl_int err = icd_queue_check(command_queue, num_events_in_wait_list,
				     event_wait_list);

	if (!err)
		err = check_buffer(command_queue, buffer);
	if (err)
		return err;
	if (!in_bounds(buffer, offset, size))
		return CL_INVALID_VALUE;
	/* 1, 2, 4, ..., 128 bytes: a scalar or vector OpenCL C type. */
	if (!pattern || pattern_size == 0 || pattern_size > 128 ||
	    (pattern_size & (pattern_size - 1)))
		return CL_INVALID_VALUE;
	if (offset % pattern_size || size % pattern_size)
		return CL_INVALID_VALUE;

	if (icd_builtin_fill(command_queue, buffer, pattern, pattern_size,
			     offset, size, num_events_in_wait_list,
			     event_wait_list, event, &err))
		return err;
	f = calloc(1, sizeof(*f));
	if (!f)
		return CL_OUT_OF_HOST_MEMORY;
	cmd = icd_command_new(command_queue, CL_COMMAND_FILL_BUFFER,
			      num_events_in_wait_list, event_wait_list, &err);
	if (!cmd) {
		free(f);
		return err;
	}
	/* The pattern may be reused as soon as the call returns. */
	memcpy(f->pattern, pattern, pattern_size);
	f->pattern_size = pattern_size;
	f->offset = offset;
	f->size = size;
	f->mem = buffer;
	icd_mem_retain(buffer);
	cmd->run = fill_run;
	cmd->data = f;
	cmd->free_data = fill_free;
	return icd_command_enqueue(cmd, false, event);
}

/* --- map and unmap ------------------------------------------------------- */

struct map_cmd {
	cl_mem mem;
	struct icd_mem_mapping m;    /* a copy of the mapping's record */
};

static void map_cmd_free(void *data)
{
	struct map_cmd *c = data;

	icd_mem_release(c->mem);
	free(c);
}

/* The map writes nothing back until unmap; a read map, or any map of a
 * region not wholly overwritten, needs what the GPU wrote first. */
static bool map_reads(cl_map_flags flags)
{
	return !(flags & CL_MAP_WRITE_INVALIDATE_REGION);
}

/* A map with no flags is taken as both ways: the safe reading. */
static bool map_writes(cl_map_flags flags)
{
	return flags == 0 || (flags & (CL_MAP_WRITE |
				       CL_MAP_WRITE_INVALIDATE_REGION));
}

static cl_int map_run(cl_event cmd)
{
	struct map_cmd *c = cmd->data;
	cl_mem mem = c->mem;

	icd_mem_cpu_begin(mem, c->m.offset, c->m.size);
	/* host_ptr is what the application reads: bring it up to date. */
	if (mem->shadowed && map_reads(c->m.flags)) {
		memcpy(c->m.ptr, mem->cpu + c->m.offset, c->m.size);
		icd_copied_add(c->m.size);
	}
	return CL_SUCCESS;
}

static cl_int unmap_run(cl_event cmd)
{
	struct map_cmd *c = cmd->data;
	cl_mem mem = c->mem;

	if (!map_writes(c->m.flags))
		return CL_SUCCESS;
	if (mem->shadowed) {
		memcpy(mem->cpu + c->m.offset, c->m.ptr, c->m.size);
		icd_copied_add(c->m.size);
	}
	icd_mem_cpu_end(mem, c->m.offset, c->m.size);
	return CL_SUCCESS;
}

/* Makes the command of a map or an unmap of @m on @mem. */
static cl_int enqueue_map_cmd(cl_command_queue queue, cl_command_type type,
			      cl_mem mem, const struct icd_mem_mapping *m,
			      bool blocking, cl_uint num_events,
			      const cl_event *wait_list, cl_event *event)
{
	struct map_cmd *c = malloc(sizeof(*c));
	cl_event cmd;
	cl_int err;

	if (!c)
		return CL_OUT_OF_HOST_MEMORY;
	cmd = icd_command_new(queue, type, num_events, wait_list, &err);
	if (!cmd) {
		free(c);
		return err;
	}
	c->mem = mem;
	c->m = *m;
	c->m.next = NULL;
	icd_mem_retain(mem);
	cmd->run = type == CL_COMMAND_UNMAP_MEM_OBJECT ? unmap_run : map_run;
	cmd->data = c;
	cmd->free_data = map_cmd_free;
	return icd_command_enqueue(cmd, blocking, event);
}

/* Takes @m out of @mem's list of mappings; true when it was there. */
static bool take_mapping(cl_mem mem, struct icd_mem_mapping *m)
{
	struct icd_mem_mapping **p;
	bool found = false;

	pthread_mutex_lock(&mem->lock);
	for (p = &mem->mappings; *p; p = &(*p)->next) {
		if (*p == m) {
			*p = m->next;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&mem->lock);
	return found;
}

static void *map_fails(cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

void *icd_enqueue_map(cl_command_queue queue, cl_mem mem, bool blocking,
		      cl_map_flags map_flags, size_t offset, size_t size,
		      cl_command_type type, cl_uint num_events,
		      const cl_event *wait_list, cl_event *event,
		      cl_int *errcode_ret)
{
	const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE |
				   CL_MAP_WRITE_INVALIDATE_REGION;
	struct icd_mem_mapping *m;
	void *ptr;
	cl_int err;

	if ((map_flags & ~known) ||
	    ((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
	     (map_flags & (CL_MAP_READ | CL_MAP_WRITE))))
		return map_fails(CL_INVALID_VALUE, errcode_ret);
	if (((map_flags & CL_MAP_READ) && !icd_host_may_read(mem)) ||
	    ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
	     !icd_host_may_write(mem)))
		return map_fails(CL_INVALID_OPERATION, errcode_ret);

	m = malloc(sizeof(*m));
	if (!m)
		return map_fails(CL_OUT_OF_HOST_MEMORY, errcode_ret);
	/* USE_HOST_PTR: the spec's host_ptr + offset, the application's own
	 * memory (wrapped, or the copy's other side). */
	m->ptr = (mem->shadowed ? (uint8_t *)mem->host_ptr : mem->cpu) +
		 offset;
	m->offset = offset;
	m->size = size;
	m->flags = map_flags;
	/* Listed before the command exists, so that an unmap enqueued
	 * right after the call returns finds it. */
	pthread_mutex_lock(&mem->lock);
	m->next = mem->mappings;
	mem->mappings = m;
	pthread_mutex_unlock(&mem->lock);
	atomic_fetch_add(&mem->map_count, 1);

	/* m belongs to the list from here on: an unmap may free it. */
	ptr = m->ptr;
	err = enqueue_map_cmd(queue, type, mem, m, blocking, num_events,
			      wait_list, event);
	if (err) {
		/* Unless an unmap of a pointer not yet returned took it. */
		if (take_mapping(mem, m)) {
			atomic_fetch_sub(&mem->map_count, 1);
			free(m);
		}
		return map_fails(err, errcode_ret);
	}
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return ptr;
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue,
				     cl_mem buffer, cl_bool blocking_map,
				     cl_map_flags map_flags, size_t offset,
				     size_t size,
				     cl_uint num_events_in_wait_list,
				     const cl_event *event_wait_list,
				     cl_event *event, cl_int *errcode_ret)
{
	cl_int err = icd_queue_check(command_queue, num_events_in_wait_list,
				     event_wait_list);

	if (!err)
		err = check_buffer(command_queue, buffer);
	if (err)
		return map_fails(err, errcode_ret);
	if (!in_bounds(buffer, offset, size) || size == 0)
		return map_fails(CL_INVALID_VALUE, errcode_ret);
	return icd_enqueue_map(command_queue, buffer, blocking_map, map_flags,
			       offset, size, CL_COMMAND_MAP_BUFFER,
			       num_events_in_wait_list, event_wait_list,
			       event, errcode_ret);
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue,
					   cl_mem memobj, void *mapped_ptr,
					   cl_uint num_events_in_wait_list,
					   const cl_event *event_wait_list,
					   cl_event *event)
{
	struct icd_mem_mapping **p, *m = NULL;
	cl_int err = icd_queue_check(command_queue, num_events_in_wait_list,
				     event_wait_list);

	if (!err)
		err = check_mem(command_queue, memobj);
	if (err)
		return err;
	/* The newest mapping at that pointer: maps of one region may
	 * overlap, each is unmapped once. */
	pthread_mutex_lock(&memobj->lock);
	for (p = &memobj->mappings; *p; p = &(*p)->next) {
		if ((*p)->ptr == mapped_ptr) {
			m = *p;
			*p = m->next;
			break;
		}
	}
	pthread_mutex_unlock(&memobj->lock);
	if (!m)
		return CL_INVALID_VALUE;
	atomic_fetch_sub(&memobj->map_count, 1);
	err = enqueue_map_cmd(command_queue, CL_COMMAND_UNMAP_MEM_OBJECT,
			      memobj, m, false, num_events_in_wait_list,
			      event_wait_list, event);
	if (err) {
		/* Still mapped: the application may try again. */
		pthread_mutex_lock(&memobj->lock);
		m->next = memobj->mappings;
		memobj->mappings = m;
		pthread_mutex_unlock(&memobj->lock);
		atomic_fetch_add(&memobj->map_count, 1);
		return err;
	}
	free(m);
	return CL_SUCCESS;
}

/* --- migrate ------------------------------------------------------------- */

struct migrate {
	cl_uint n;
	cl_mem mems[];
};

static void migrate_free(void *data)
{
	struct migrate *g = data;

	for (cl_uint i = 0; i < g->n; i++)
		icd_mem_release(g->mems[i]);
	free(g);
}

/* CPU and GPU share the same memory: there is nowhere to move it to. */
static cl_int migrate_run(cl_event cmd)
{
	(void)cmd;
	return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(
	cl_command_queue command_queue, cl_uint num_mem_objects,
	const cl_mem *mem_objects, cl_mem_migration_flags flags,
	cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
	cl_event *event)
{
	const cl_mem_migration_flags known =
		CL_MIGRATE_MEM_OBJECT_HOST |
		CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
	struct migrate *g;
	cl_event cmd;
	cl_int err = icd_queue_check(command_queue, num_events_in_wait_list,
				     event_wait_list);

	if (err)
		return err;
	if (num_mem_objects == 0 || !mem_objects || (flags & ~known))
		return CL_INVALID_VALUE;
	for (cl_uint i = 0; i < num_mem_objects; i++) {
		err = check_mem(command_queue, mem_objects[i]);
		if (err)
			return err;
	}
	g = malloc(sizeof(*g) + num_mem_objects * sizeof(cl_mem));
	if (!g)
		return CL_OUT_OF_HOST_MEMORY;
	cmd = icd_command_new(command_queue, CL_COMMAND_MIGRATE_MEM_OBJECTS,
			      num_events_in_wait_list, event_wait_list, &err);
	if (!cmd) {
		free(g);
		return err;
	}
	g->n = num_mem_objects;
	for (cl_uint i = 0; i < num_mem_objects; i++) {
		g->mems[i] = mem_objects[i];
		icd_mem_retain(mem_objects[i]);
	}
	cmd->run = migrate_run;
	cmd->data = g;
	cmd->free_data = migrate_free;
	return icd_command_enqueue(cmd, false, event);
}
