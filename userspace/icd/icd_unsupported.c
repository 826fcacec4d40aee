/* SPDX-License-Identifier: MIT */
/*
 * Entry points for what the device does not have, complete as they are:
 * images, the image commands and samplers (CL_DEVICE_IMAGE_SUPPORT is
 * CL_FALSE: the compiler has no image built-ins), built-in kernels (there
 * are none), and the compiler-unloading hints (the compiler is a library
 * call, nothing stays loaded). Each answers what OpenCL 1.2 prescribes for that case.
 */
#include "icd_context.h"
#include "icd_mem.h"
#include "icd_platform.h"
#include "icd_queue.h"

static void *fail_with(cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

/* "CL_INVALID_OPERATION if there are no devices in context that support
 * images" (clCreateImage, clCreateImage2D/3D, clCreateSampler). */
static void *no_images(cl_context context, cl_int *errcode_ret)
{
	return fail_with(icd_context_valid(context) ? CL_INVALID_OPERATION :
			 CL_INVALID_CONTEXT, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
				 const cl_image_format *image_format,
				 const cl_image_desc *image_desc,
				 void *host_ptr, cl_int *errcode_ret)
{
	(void)flags;
	(void)image_format;
	(void)image_desc;
	(void)host_ptr;
	return no_images(context, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
				   const cl_image_format *image_format,
				   size_t image_width, size_t image_height,
				   size_t image_row_pitch, void *host_ptr,
				   cl_int *errcode_ret)
{
	(void)flags;
	(void)image_format;
	(void)image_width;
	(void)image_height;
	(void)image_row_pitch;
	(void)host_ptr;
	return no_images(context, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
				   const cl_image_format *image_format,
				   size_t image_width, size_t image_height,
				   size_t image_depth, size_t image_row_pitch,
				   size_t image_slice_pitch, void *host_ptr,
				   cl_int *errcode_ret)
{
	(void)flags;
	(void)image_format;
	(void)image_width;
	(void)image_height;
	(void)image_depth;
	(void)image_row_pitch;
	(void)image_slice_pitch;
	(void)host_ptr;
	return no_images(context, errcode_ret);
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context,
				       cl_bool normalized_coords,
				       cl_addressing_mode addressing_mode,
				       cl_filter_mode filter_mode,
				       cl_int *errcode_ret)
{
	(void)normalized_coords;
	(void)addressing_mode;
	(void)filter_mode;
	return no_images(context, errcode_ret);
}

/* No sampler can be made, so no handle is a valid sampler. */
cl_int CL_API_CALL clRetainSampler(cl_sampler sampler)
{
	(void)sampler;
	return CL_INVALID_SAMPLER;
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler)
{
	(void)sampler;
	return CL_INVALID_SAMPLER;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler,
				    cl_sampler_info param_name,
				    size_t param_value_size, void *param_value,
				    size_t *param_value_size_ret)
{
	(void)sampler;
	(void)param_name;
	(void)param_value_size;
	(void)param_value;
	(void)param_value_size_ret;
	return CL_INVALID_SAMPLER;
}

/*
 * The image commands. No image can exist, so after the checks every
 * enqueue shares (CL_INVALID_COMMAND_QUEUE, then the wait list), an image
 * argument is always CL_INVALID_MEM_OBJECT ("not a valid image object").
 * A buffer argument beside it is checked first as the finished entry
 * would: not a buffer, CL_INVALID_MEM_OBJECT; another context's,
 * CL_INVALID_CONTEXT.
 */
static cl_int image_command(cl_command_queue queue, cl_uint num_events,
			    const cl_event *wait_list, cl_mem buffer)
{
	cl_int err = icd_queue_check(queue, num_events, wait_list);

	if (err)
		return err;
	if (buffer && icd_mem_valid(buffer) &&
	    buffer->context != queue->context)
		return CL_INVALID_CONTEXT;
	return CL_INVALID_MEM_OBJECT;
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
	(void)image;
	(void)blocking_read;
	(void)origin;
	(void)region;
	(void)row_pitch;
	(void)slice_pitch;
	(void)ptr;
	(void)event;
	return image_command(command_queue, num_events_in_wait_list,
			     event_wait_list, NULL);
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
	(void)image;
	(void)blocking_write;
	(void)origin;
	(void)region;
	(void)input_row_pitch;
	(void)input_slice_pitch;
	(void)ptr;
	(void)event;
	return image_command(command_queue, num_events_in_wait_list,
			     event_wait_list, NULL);
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
	(void)src_image;
	(void)dst_image;
	(void)src_origin;
	(void)dst_origin;
	(void)region;
	(void)event;
	return image_command(command_queue, num_events_in_wait_list,
			     event_wait_list, NULL);
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue,
				      cl_mem image, const void *fill_color,
				      const size_t *origin,
				      const size_t *region,
				      cl_uint num_events_in_wait_list,
				      const cl_event *event_wait_list,
				      cl_event *event)
{
	(void)image;
	(void)fill_color;
	(void)origin;
	(void)region;
	(void)event;
	return image_command(command_queue, num_events_in_wait_list,
			     event_wait_list, NULL);
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
	(void)src_image;
	(void)src_origin;
	(void)region;
	(void)dst_offset;
	(void)event;
	return image_command(command_queue, num_events_in_wait_list,
			     event_wait_list, dst_buffer);
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
	(void)dst_image;
	(void)src_offset;
	(void)dst_origin;
	(void)region;
	(void)event;
	return image_command(command_queue, num_events_in_wait_list,
			     event_wait_list, src_buffer);
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue,
				    cl_mem image, cl_bool blocking_map,
				    cl_map_flags map_flags,
				    const size_t *origin, const size_t *region,
				    size_t *image_row_pitch,
				    size_t *image_slice_pitch,
				    cl_uint num_events_in_wait_list,
				    const cl_event *event_wait_list,
				    cl_event *event, cl_int *errcode_ret)
{
	(void)image;
	(void)blocking_map;
	(void)map_flags;
	(void)origin;
	(void)region;
	(void)image_row_pitch;
	(void)image_slice_pitch;
	(void)event;
	return fail_with(image_command(command_queue, num_events_in_wait_list,
				       event_wait_list, NULL), errcode_ret);
}

/* A buffer is not an image, and there is no other kind of memory object. */
cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name,
				  size_t param_value_size, void *param_value,
				  size_t *param_value_size_ret)
{
	(void)image;
	(void)param_name;
	(void)param_value_size;
	(void)param_value;
	(void)param_value_size_ret;
	return CL_INVALID_MEM_OBJECT;
}

/* Without image support the list of formats is empty. */
cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context,
					      cl_mem_flags flags,
					      cl_mem_object_type image_type,
					      cl_uint num_entries,
					      cl_image_format *image_formats,
					      cl_uint *num_image_formats)
{
	(void)flags;
	(void)image_type;
	if (!icd_context_valid(context))
		return CL_INVALID_CONTEXT;
	if (num_entries == 0 && image_formats)
		return CL_INVALID_VALUE;
	if (num_image_formats)
		*num_image_formats = 0;
	return CL_SUCCESS;
}

/* CL_DEVICE_BUILT_IN_KERNELS is empty: any name asked for is unknown. */
cl_program CL_API_CALL
clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
				  const cl_device_id *device_list,
				  const char *kernel_names, cl_int *errcode_ret)
{
	if (!icd_context_valid(context))
		return fail_with(CL_INVALID_CONTEXT, errcode_ret);
	if (!device_list || num_devices == 0)
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	for (cl_uint i = 0; i < num_devices; i++)
		if (device_list[i] != context->device)
			return fail_with(CL_INVALID_DEVICE, errcode_ret);
	(void)kernel_names;
	return fail_with(CL_INVALID_VALUE, errcode_ret);
}

/* Hints that the compiler's resources may be freed: nothing to free. */
cl_int CL_API_CALL clUnloadCompiler(void)
{
	return CL_SUCCESS;
}

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform)
{
	return icd_object_is(platform, ICD_TYPE_PLATFORM) ? CL_SUCCESS :
	       CL_INVALID_PLATFORM;
}

/*
 * Native kernels: CL_DEVICE_EXECUTION_CAPABILITIES is CL_EXEC_KERNEL only
 * (the GPU runs no host functions), so a valid call is
 * CL_INVALID_OPERATION; the arguments are checked first, in the order of
 * OpenCL 1.2 5.8.
 */
cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue,
					 void(CL_CALLBACK *user_func)(void *),
					 void *args, size_t cb_args,
					 cl_uint num_mem_objects,
					 const cl_mem *mem_list,
					 const void **args_mem_loc,
					 cl_uint num_events_in_wait_list,
					 const cl_event *event_wait_list,
					 cl_event *event)
{
	cl_int err = icd_queue_check(command_queue, num_events_in_wait_list,
				     event_wait_list);

	(void)event;
	if (err)
		return err;
	if (!user_func || (!args && cb_args) || (args && !cb_args) ||
	    (num_mem_objects && (!mem_list || !args_mem_loc)) ||
	    (!num_mem_objects && (mem_list || args_mem_loc)))
		return CL_INVALID_VALUE;
	for (cl_uint i = 0; i < num_mem_objects; i++)
		if (!icd_mem_valid(mem_list[i]))
			return CL_INVALID_MEM_OBJECT;
	return CL_INVALID_OPERATION;
}
