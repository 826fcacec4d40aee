/* SPDX-License-Identifier: MIT */
/*
 * The image commands: clEnqueueRead/Write/Copy/FillImage,
 * clEnqueueCopyImageToBuffer, clEnqueueCopyBufferToImage and
 * clEnqueueMapImage (unmap is clEnqueueUnmapMemObject, icd_buffer_ops.c).
 *
 * An image's storage is linear (icd_image.h), so a region of it is a box
 * of bytes like a buffer's rectangle: each command checks its origin and
 * region against the image (OpenCL 1.2 5.3.3-5.3.6), turns them into
 * boxes and runs as the buffer commands do (icd_transfer.h). A 1D image
 * array's second coordinate is its layer, whose pitch is the slice pitch.
 */
#include <stdlib.h>
#include <string.h>

#include "icd_event.h"
#include "icd_image.h"
#include "icd_queue.h"
#include "icd_transfer.h"

/* An image argument: valid (CL_INVALID_MEM_OBJECT) and of the queue's
 * context (CL_INVALID_CONTEXT). */
static cl_int check_image(cl_command_queue queue, cl_mem image)
{
	if (!icd_image_valid(image))
		return CL_INVALID_MEM_OBJECT;
	return image->context == queue->context ? CL_SUCCESS :
	       CL_INVALID_CONTEXT;
}

/* The image's extent along the three coordinates of origin and region:
 * width, then rows or layers, then slices or layers. */
static void image_extent(cl_mem img, size_t ext[3])
{
	ext[0] = img->width;
	ext[1] = 1;
	ext[2] = 1;
	switch (img->type) {
	case CL_MEM_OBJECT_IMAGE1D_ARRAY:
		ext[1] = img->array_size;
		break;
	case CL_MEM_OBJECT_IMAGE2D:
		ext[1] = img->height;
		break;
	case CL_MEM_OBJECT_IMAGE2D_ARRAY:
		ext[1] = img->height;
		ext[2] = img->array_size;
		break;
	case CL_MEM_OBJECT_IMAGE3D:
		ext[1] = img->height;
		ext[2] = img->depth;
		break;
	default:
		break;
	}
}

/*
 * Origin and region inside the image: given, no region size 0, and the
 * coordinates the type lacks at origin 0 and region 1 (OpenCL 1.2 5.3.3).
 */
static bool region_in_image(cl_mem img, const size_t *origin,
			    const size_t *region)
{
	size_t ext[3];

	if (!origin || !region)
		return false;
	image_extent(img, ext);
	for (int i = 0; i < 3; i++) {
		if (!region[i] || origin[i] > ext[i] ||
		    region[i] > ext[i] - origin[i])
			return false;
	}
	return true;
}

/* The byte box of @origin in @img, and the region in bytes, rows and
 * slices into @bytes. */
static struct icd_box image_box(cl_mem img, const size_t origin[3],
				const size_t region[3], size_t bytes[3])
{
	struct icd_box b;

	/* A 1D array's layers are its rows. */
	b.row_pitch = img->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ?
		      img->slice_pitch : img->row_pitch;
	b.slice_pitch = img->slice_pitch;
	b.start = origin[0] * img->elem_size + origin[1] * b.row_pitch +
		  origin[2] * b.slice_pitch;
	bytes[0] = region[0] * img->elem_size;
	bytes[1] = region[1];
	bytes[2] = region[2];
	return b;
}

/* Images with slices or layers beyond their rows: a slice pitch. */
static bool has_slices(cl_mem img)
{
	return img->type == CL_MEM_OBJECT_IMAGE3D ||
	       img->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
	       img->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

/*
 * The host side of a read or write (OpenCL 1.2 5.3.3): a row pitch of 0
 * is the region's row, else at least that; a slice pitch of 0 is the
 * region's rows (a 1D array's row), else at least that and only for
 * images with slices. False for CL_INVALID_VALUE.
 */
static bool host_box(cl_mem img, const size_t bytes[3], size_t row_pitch,
		     size_t slice_pitch, struct icd_box *h)
{
	bool array1d = img->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
	size_t slice;

	if (!row_pitch)
		row_pitch = bytes[0];
	else if (row_pitch < bytes[0])
		return false;
	if (slice_pitch && !has_slices(img))
		return false;
	slice = array1d ? row_pitch : row_pitch * bytes[1];
	if (!slice_pitch)
		slice_pitch = slice;
	else if (slice_pitch < slice)
		return false;
	h->start = 0;
	/* A 1D array's layers (its rows here) are slice_pitch apart. */
	h->row_pitch = array1d ? slice_pitch : row_pitch;
	h->slice_pitch = slice_pitch;
	return true;
}

static cl_int read_write(cl_command_queue queue, cl_mem image, bool write,
			 bool blocking, const size_t *origin,
			 const size_t *region, size_t row_pitch,
			 size_t slice_pitch, void *ptr, cl_uint num_events,
			 const cl_event *wait_list, cl_event *event)
{
	struct icd_transfer t = { .host = ptr };
	struct icd_box img_box, h;
	cl_int err = icd_queue_check(queue, num_events, wait_list);

	if (!err)
		err = check_image(queue, image);
	if (err)
		return err;
	if (!region_in_image(image, origin, region) || !ptr)
		return CL_INVALID_VALUE;
	img_box = image_box(image, origin, region, t.region);
	if (!host_box(image, t.region, row_pitch, slice_pitch, &h))
		return CL_INVALID_VALUE;
	if (write ? !icd_host_may_write(image) : !icd_host_may_read(image))
		return CL_INVALID_OPERATION;
	if (write) {
		t.dst = image;
		t.dst_box = img_box;
		t.src_box = h;
	} else {
		t.src = image;
		t.src_box = img_box;
		t.dst_box = h;
	}
	return icd_enqueue_transfer(queue, write ? CL_COMMAND_WRITE_IMAGE :
				    CL_COMMAND_READ_IMAGE, &t, blocking,
				    num_events, wait_list, event);
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue,
				      cl_mem image, cl_bool blocking_read,
				      const size_t *origin,
				      const size_t *region, size_t row_pitch,
				      size_t slice_pitch, void *ptr,
				      cl_uint num_events_in_wait_list,
				      const cl_event *event_wait_list,
				      cl_event *event)
{
	return read_write(command_queue, image, false, blocking_read, origin,
			  region, row_pitch, slice_pitch, ptr,
			  num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue,
				       cl_mem image, cl_bool blocking_write,
				       const size_t *origin,
				       const size_t *region,
				       size_t input_row_pitch,
				       size_t input_slice_pitch,
				       const void *ptr,
				       cl_uint num_events_in_wait_list,
				       const cl_event *event_wait_list,
				       cl_event *event)
{
	return read_write(command_queue, image, true, blocking_write, origin,
			  region, input_row_pitch, input_slice_pitch,
			  (void *)ptr, num_events_in_wait_list,
			  event_wait_list, event);
}

/* The two formats are the same (CL_IMAGE_FORMAT_MISMATCH otherwise). */
static bool same_format(cl_mem a, cl_mem b)
{
	return a->format.image_channel_order ==
	       b->format.image_channel_order &&
	       a->format.image_channel_data_type ==
	       b->format.image_channel_data_type;
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue,
				      cl_mem src_image, cl_mem dst_image,
				      const size_t *src_origin,
				      const size_t *dst_origin,
				      const size_t *region,
				      cl_uint num_events_in_wait_list,
				      const cl_event *event_wait_list,
				      cl_event *event)
{
	struct icd_transfer t = { .src = src_image, .dst = dst_image };
	cl_int err = icd_queue_check(command_queue, num_events_in_wait_list,
				     event_wait_list);

	if (!err)
		err = check_image(command_queue, src_image);
	if (!err)
		err = check_image(command_queue, dst_image);
	if (err)
		return err;
	if (!same_format(src_image, dst_image))
		return CL_IMAGE_FORMAT_MISMATCH;
	if (!region_in_image(src_image, src_origin, region) ||
	    !region_in_image(dst_image, dst_origin, region))
		return CL_INVALID_VALUE;
	t.src_box = image_box(src_image, src_origin, region, t.region);
	t.dst_box = image_box(dst_image, dst_origin, region, t.region);
	if ((src_image->parent ? src_image->parent : src_image) ==
	    (dst_image->parent ? dst_image->parent : dst_image)) {
		struct icd_box a = t.src_box, b = t.dst_box;

		a.start += src_image->offset;
		b.start += dst_image->offset;
		if (icd_boxes_overlap(&a, &b, t.region))
			return CL_MEM_COPY_OVERLAP;
	}
	return icd_enqueue_transfer(command_queue, CL_COMMAND_COPY_IMAGE, &t,
				    false, num_events_in_wait_list,
				    event_wait_list, event);
}

/*
 * The buffer side of a copy between an image and a buffer: the region's
 * texels packed (rows of region[0] texels, slices of region[1] rows) from
 * @offset; CL_INVALID_VALUE when that passes the buffer's end.
 */
static cl_int buffer_box(cl_mem buffer, size_t offset, const size_t bytes[3],
			 struct icd_box *b)
{
	size_t total;

	b->start = offset;
	b->row_pitch = bytes[0];
	b->slice_pitch = bytes[0] * bytes[1];
	if (__builtin_mul_overflow(b->slice_pitch, bytes[2], &total) ||
	    offset > buffer->size || total > buffer->size - offset)
		return CL_INVALID_VALUE;
	return CL_SUCCESS;
}

/* Checks of the copies between an image and a buffer. */
static cl_int check_image_buffer(cl_command_queue queue, cl_mem image,
				 cl_mem buffer, cl_uint num_events,
				 const cl_event *wait_list)
{
	cl_int err = icd_queue_check(queue, num_events, wait_list);

	if (err)
		return err;
	if (!icd_image_valid(image) || !icd_buffer_valid(buffer))
		return CL_INVALID_MEM_OBJECT;
	if (image->context != queue->context ||
	    buffer->context != queue->context)
		return CL_INVALID_CONTEXT;
	/* "a 1D image buffer object created from" the buffer. */
	if (image->image_buffer == buffer)
		return CL_INVALID_MEM_OBJECT;
	return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue,
					      cl_mem src_image,
					      cl_mem dst_buffer,
					      const size_t *src_origin,
					      const size_t *region,
					      size_t dst_offset,
					      cl_uint num_events_in_wait_list,
					      const cl_event *event_wait_list,
					      cl_event *event)
{
	struct icd_transfer t = { .src = src_image, .dst = dst_buffer };
	cl_int err = check_image_buffer(command_queue, src_image, dst_buffer,
					num_events_in_wait_list,
					event_wait_list);

	if (err)
		return err;
	if (!region_in_image(src_image, src_origin, region))
		return CL_INVALID_VALUE;
	t.src_box = image_box(src_image, src_origin, region, t.region);
	err = buffer_box(dst_buffer, dst_offset, t.region, &t.dst_box);
	if (err)
		return err;
	return icd_enqueue_transfer(command_queue,
				    CL_COMMAND_COPY_IMAGE_TO_BUFFER, &t, false,
				    num_events_in_wait_list, event_wait_list,
				    event);
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue,
					      cl_mem src_buffer,
					      cl_mem dst_image,
					      size_t src_offset,
					      const size_t *dst_origin,
					      const size_t *region,
					      cl_uint num_events_in_wait_list,
					      const cl_event *event_wait_list,
					      cl_event *event)
{
	struct icd_transfer t = { .src = src_buffer, .dst = dst_image };
	cl_int err = check_image_buffer(command_queue, dst_image, src_buffer,
					num_events_in_wait_list,
					event_wait_list);

	if (err)
		return err;
	if (!region_in_image(dst_image, dst_origin, region))
		return CL_INVALID_VALUE;
	t.dst_box = image_box(dst_image, dst_origin, region, t.region);
	err = buffer_box(src_buffer, src_offset, t.region, &t.src_box);
	if (err)
		return err;
	return icd_enqueue_transfer(command_queue,
				    CL_COMMAND_COPY_BUFFER_TO_IMAGE, &t, false,
				    num_events_in_wait_list, event_wait_list,
				    event);
}

/* --- fill ---------------------------------------------------------------- */

struct image_fill {
	cl_mem image;
	struct icd_box box;
	size_t region[3];            /* bytes, rows, slices */
	size_t texel_bytes;
	uint8_t texel[16];
};

static void image_fill_free(void *data)
{
	struct image_fill *f = data;

	icd_mem_release(f->image);
	free(f);
}

static cl_int image_fill_run(cl_event cmd)
{
	struct image_fill *f = cmd->data;
	size_t span = icd_box_extent(&f->box, f->region);
	uint8_t *base = f->image->cpu + f->box.start;

	icd_mem_cpu_begin(f->image, f->box.start, span);
	/* The first row texel by texel, every other row a copy of it. */
	for (size_t x = 0; x < f->region[0]; x += f->texel_bytes)
		memcpy(base + x, f->texel, f->texel_bytes);
	for (size_t z = 0; z < f->region[2]; z++)
		for (size_t y = 0; y < f->region[1]; y++)
			if (y || z)
				memcpy(base + z * f->box.slice_pitch +
				       y * f->box.row_pitch, base,
				       f->region[0]);
	icd_mem_cpu_end(f->image, f->box.start, span);
	icd_copied_add(f->region[0] * f->region[1] * f->region[2]);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue,
				      cl_mem image, const void *fill_color,
				      const size_t *origin,
				      const size_t *region,
				      cl_uint num_events_in_wait_list,
				      const cl_event *event_wait_list,
				      cl_event *event)
{
	struct image_fill *f;
	cl_event cmd;
	cl_int err = icd_queue_check(command_queue, num_events_in_wait_list,
				     event_wait_list);

	if (!err)
		err = check_image(command_queue, image);
	if (err)
		return err;
	if (!fill_color || !region_in_image(image, origin, region))
		return CL_INVALID_VALUE;
	f = calloc(1, sizeof(*f));
	if (!f)
		return CL_OUT_OF_HOST_MEMORY;
	cmd = icd_command_new(command_queue, CL_COMMAND_FILL_IMAGE,
			      num_events_in_wait_list, event_wait_list, &err);
	if (!cmd) {
		free(f);
		return err;
	}
	/* The colour may be reused as soon as the call returns. */
	icd_image_pack_color(image, fill_color, f->texel);
	f->texel_bytes = image->elem_size;
	f->box = image_box(image, origin, region, f->region);
	f->image = image;
	icd_mem_retain(image);
	cmd->run = image_fill_run;
	cmd->data = f;
	cmd->free_data = image_fill_free;
	return icd_command_enqueue(cmd, false, event);
}

/* --- map ----------------------------------------------------------------- */

static void *map_fails(cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue,
				    cl_mem image, cl_bool blocking_map,
				    cl_map_flags map_flags,
				    const size_t *origin,
				    const size_t *region,
				    size_t *image_row_pitch,
				    size_t *image_slice_pitch,
				    cl_uint num_events_in_wait_list,
				    const cl_event *event_wait_list,
				    cl_event *event, cl_int *errcode_ret)
{
	struct icd_box b;
	size_t bytes[3];
	void *ptr;
	cl_int err = icd_queue_check(command_queue, num_events_in_wait_list,
				     event_wait_list);

	if (!err)
		err = check_image(command_queue, image);
	if (err)
		return map_fails(err, errcode_ret);
	/* The pitches are the way to the texels: both are needed where the
	 * image has slices (OpenCL 1.2 5.3.6). */
	if (!region_in_image(image, origin, region) || !image_row_pitch ||
	    (has_slices(image) && !image_slice_pitch))
		return map_fails(CL_INVALID_VALUE, errcode_ret);
	b = image_box(image, origin, region, bytes);
	/* Zero-copy: a pointer into the storage, at its own pitches. */
	ptr = icd_enqueue_map(command_queue, image, blocking_map, map_flags,
			      b.start, icd_box_extent(&b, bytes),
			      CL_COMMAND_MAP_IMAGE, num_events_in_wait_list,
			      event_wait_list, event, errcode_ret);
	if (!ptr)
		return NULL;
	*image_row_pitch = image->row_pitch;
	if (image_slice_pitch)
		*image_slice_pitch = has_slices(image) ? image->slice_pitch :
				     0;
	return ptr;
}
