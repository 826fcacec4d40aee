/* SPDX-License-Identifier: MIT */
/*
 * What the buffer commands (icd_buffer_ops.c) share with the image
 * commands (icd_image_ops.c): boxes of bytes, the copy command between
 * memory objects and host memory, the host access rules and the map
 * command.
 */
#ifndef ICD_TRANSFER_H
#define ICD_TRANSFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "icd_mem.h"

/*
 * A box of bytes in linear memory: where its first byte is, and the
 * pitches of its rows and slices. Buffers, images and host memory are all
 * described this way; a 1-D range is a box of one row.
 */
struct icd_box {
	size_t start, row_pitch, slice_pitch;
};

/* The bytes from a box's first to its last, for the region (region[0] in
 * bytes): what cache maintenance and bounds cover. */
size_t icd_box_extent(const struct icd_box *b, const size_t region[3]);

/* True when the rows of @a and @b (each with @region, starts relative to
 * one storage) share a byte. */
bool icd_boxes_overlap(const struct icd_box *a, const struct icd_box *b,
		       const size_t region[3]);

/* Copies @region from @src's box to @dst's box. Returns the bytes moved. */
size_t icd_copy_box(uint8_t *dst, const struct icd_box *d,
		    const uint8_t *src, const struct icd_box *s,
		    const size_t region[3]);

/* A copy between two memory objects' storage or one and host memory. */
struct icd_transfer {
	cl_mem src, dst;             /* NULL: host memory */
	uint8_t *host;               /* the host side of a read or write */
	struct icd_box src_box, dst_box;
	size_t region[3];            /* bytes, rows, slices */
};

/* Enqueues @t (its memory objects not yet held) as a command of @type. */
cl_int icd_enqueue_transfer(cl_command_queue queue, cl_command_type type,
			    const struct icd_transfer *t, bool blocking,
			    cl_uint num_events, const cl_event *wait_list,
			    cl_event *event);

/* The host may read / write @mem (clEnqueueRead* / Write*, maps). */
bool icd_host_may_read(cl_mem mem);
bool icd_host_may_write(cl_mem mem);

/*
 * Maps [offset, offset + size) of @mem's storage (checked by the caller)
 * as a command of @type: checks @map_flags (CL_INVALID_VALUE,
 * CL_INVALID_OPERATION against the host access flags) and returns the
 * pointer clEnqueueMapBuffer / clEnqueueMapImage return, or NULL with the
 * error in *@errcode_ret.
 */
void *icd_enqueue_map(cl_command_queue queue, cl_mem mem, bool blocking,
		      cl_map_flags map_flags, size_t offset, size_t size,
		      cl_command_type type, cl_uint num_events,
		      const cl_event *wait_list, cl_event *event,
		      cl_int *errcode_ret);

#endif
