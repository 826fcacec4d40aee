/* SPDX-License-Identifier: MIT */
/*
 * The OpenCL 1.2 entry points this ICD does not implement yet (listed in
 * README.md). They are in the dispatch table all the same, so that an
 * application calling one gets an error instead of a crash in the loader.
 *
 * The one rule every one of them follows, so that the error is honest and
 * one the specification allows for that entry:
 *
 * 1. Each handle argument is validated as the finished entry will, with
 *    the error the specification names for it (CL_INVALID_COMMAND_QUEUE,
 *    CL_INVALID_MEM_OBJECT, CL_INVALID_CONTEXT, ...). Queues, memory
 *    objects, programs, kernels and events cannot be made yet, so a call
 *    on one of them always ends here: no such valid handle can exist.
 * 2. An entry whose handles are valid (a creator given a good context)
 *    returns CL_OUT_OF_RESOURCES: "a failure to allocate resources
 *    required by the OpenCL implementation", the one error OpenCL 1.2
 *    lists for every such entry that blames the implementation rather
 *    than the application's arguments. CL_OUT_OF_HOST_MEMORY would claim
 *    a malloc failed, CL_INVALID_OPERATION is not in their lists.
 *
 * Their parameters are unused until each is written, hence the pragma.
 */
#include "icd_context.h"
#include "icd_device.h"
#include "icd_object.h"

#pragma GCC diagnostic ignored "-Wunused-parameter"

#define ICD_NOT_DONE CL_OUT_OF_RESOURCES

/* Rule 1, then rule 2. */
static cl_int not_done(const void *handle, enum icd_type type,
		       cl_int invalid_handle)
{
	return icd_object_is(handle, type) ? ICD_NOT_DONE : invalid_handle;
}

/* The same for entries that return an object and report through
 * errcode_ret. */
static void *not_done_ptr(cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

/* Command queues. */

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue,
	cl_mem buffer,
	cl_bool blocking_read,
	size_t offset,
	size_t cb,
	void *ptr,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue,
	cl_mem buffer,
	cl_bool blocking_read,
	const size_t *buffer_origin,
	const size_t *host_origin,
	const size_t *region,
	size_t buffer_row_pitch,
	size_t buffer_slice_pitch,
	size_t host_row_pitch,
	size_t host_slice_pitch,
	void *ptr,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue,
	cl_mem buffer,
	cl_bool blocking_write,
	size_t offset,
	size_t cb,
	const void *ptr,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue,
	cl_mem buffer,
	cl_bool blocking_read,
	const size_t *buffer_origin,
	const size_t *host_origin,
	const size_t *region,
	size_t buffer_row_pitch,
	size_t buffer_slice_pitch,
	size_t host_row_pitch,
	size_t host_slice_pitch,
	const void *ptr,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue,
	cl_mem src_buffer,
	cl_mem dst_buffer,
	size_t src_offset,
	size_t dst_offset,
	size_t cb,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue,
	cl_mem src_buffer,
	cl_mem dst_buffer,
	const size_t *src_origin,
	const size_t *dst_origin,
	const size_t *region,
	size_t src_row_pitch,
	size_t src_slice_pitch,
	size_t dst_row_pitch,
	size_t dst_slice_pitch,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue,
	cl_mem buffer,
	const void *pattern,
	size_t pattern_size,
	size_t offset,
	size_t cb,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue,
	cl_mem image,
	cl_bool blocking_read,
	const size_t *origin,
	const size_t *region,
	size_t row_pitch,
	size_t slice_pitch,
	void *ptr,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue,
	cl_mem image,
	cl_bool blocking_write,
	const size_t *origin,
	const size_t *region,
	size_t input_row_pitch,
	size_t input_slice_pitch,
	const void *ptr,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue,
	cl_mem src_image,
	cl_mem dst_image,
	const size_t *src_origin,
	const size_t *dst_origin,
	const size_t *region,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
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
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
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
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue,
	cl_mem image,
	const void *fill_color,
	const size_t *origin,
	const size_t *region,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

void * CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue,
	cl_mem buffer,
	cl_bool blocking_map,
	cl_map_flags map_flags,
	size_t offset,
	size_t cb,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event,
	cl_int *errcode_ret)
{
	return not_done_ptr(not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE), errcode_ret);
}

void * CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue,
	cl_mem image,
	cl_bool blocking_map,
	cl_map_flags map_flags,
	const size_t *origin,
	const size_t *region,
	size_t *image_row_pitch,
	size_t *image_slice_pitch,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event,
	cl_int *errcode_ret)
{
	return not_done_ptr(not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE), errcode_ret);
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue,
	cl_mem memobj,
	void *mapped_ptr,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue,
	cl_uint num_mem_objects,
	const cl_mem *mem_objects,
	cl_mem_migration_flags flags,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue,
	void(CL_CALLBACK *user_func)(void *),
	void *args,
	size_t cb_args,
	cl_uint num_mem_objects,
	const cl_mem *mem_list,
	const void **args_mem_loc,
	cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list,
	cl_event *event)
{
	return not_done(command_queue, ICD_TYPE_COMMAND_QUEUE, CL_INVALID_COMMAND_QUEUE);
}

/* Creation in a context (buffers, programs, user events). */

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context,
	cl_uint count,
	const char **strings,
	const size_t *lengths,
	cl_int *errcode_ret)
{
	return not_done_ptr(not_done(context, ICD_TYPE_CONTEXT, CL_INVALID_CONTEXT), errcode_ret);
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context,
	cl_uint num_devices,
	const cl_device_id *device_list,
	const size_t *lengths,
	const unsigned char **binaries,
	cl_int *binary_status,
	cl_int *errcode_ret)
{
	return not_done_ptr(not_done(context, ICD_TYPE_CONTEXT, CL_INVALID_CONTEXT), errcode_ret);
}

cl_program CL_API_CALL clLinkProgram(cl_context context,
	cl_uint num_devices,
	const cl_device_id *device_list,
	const char *options,
	cl_uint num_input_programs,
	const cl_program *input_programs,
	void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
	void *user_data,
	cl_int *errcode_ret)
{
	return not_done_ptr(not_done(context, ICD_TYPE_CONTEXT, CL_INVALID_CONTEXT), errcode_ret);
}

/* Memory objects. */

cl_int CL_API_CALL clGetImageInfo(cl_mem image,
	cl_image_info param_name,
	size_t param_value_size,
	void *param_value,
	size_t *param_value_size_ret)
{
	return not_done(image, ICD_TYPE_MEM, CL_INVALID_MEM_OBJECT);
}

/* Programs. */

cl_int CL_API_CALL clRetainProgram(cl_program program)
{
	return not_done(program, ICD_TYPE_PROGRAM, CL_INVALID_PROGRAM);
}

cl_int CL_API_CALL clReleaseProgram(cl_program program)
{
	return not_done(program, ICD_TYPE_PROGRAM, CL_INVALID_PROGRAM);
}

cl_int CL_API_CALL clBuildProgram(cl_program program,
	cl_uint num_devices,
	const cl_device_id *device_list,
	const char *options,
	void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
	void *user_data)
{
	return not_done(program, ICD_TYPE_PROGRAM, CL_INVALID_PROGRAM);
}

cl_int CL_API_CALL clCompileProgram(cl_program program,
	cl_uint num_devices,
	const cl_device_id *device_list,
	const char *options,
	cl_uint num_input_headers,
	const cl_program *input_headers,
	const char **header_include_names,
	void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
	void *user_data)
{
	return not_done(program, ICD_TYPE_PROGRAM, CL_INVALID_PROGRAM);
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program,
	cl_program_info param_name,
	size_t param_value_size,
	void *param_value,
	size_t *param_value_size_ret)
{
	return not_done(program, ICD_TYPE_PROGRAM, CL_INVALID_PROGRAM);
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program,
	cl_device_id device,
	cl_program_build_info param_name,
	size_t param_value_size,
	void *param_value,
	size_t *param_value_size_ret)
{
	return not_done(program, ICD_TYPE_PROGRAM, CL_INVALID_PROGRAM);
}

cl_kernel CL_API_CALL clCreateKernel(cl_program program,
	const char *kernel_name,
	cl_int *errcode_ret)
{
	return not_done_ptr(not_done(program, ICD_TYPE_PROGRAM, CL_INVALID_PROGRAM), errcode_ret);
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program,
	cl_uint num_kernels,
	cl_kernel *kernels,
	cl_uint *num_kernels_ret)
{
	return not_done(program, ICD_TYPE_PROGRAM, CL_INVALID_PROGRAM);
}

/* Kernels. */

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel)
{
	return not_done(kernel, ICD_TYPE_KERNEL, CL_INVALID_KERNEL);
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel)
{
	return not_done(kernel, ICD_TYPE_KERNEL, CL_INVALID_KERNEL);
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel,
	cl_uint arg_index,
	size_t arg_size,
	const void *arg_value)
{
	return not_done(kernel, ICD_TYPE_KERNEL, CL_INVALID_KERNEL);
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel,
	cl_kernel_info param_name,
	size_t param_value_size,
	void *param_value,
	size_t *param_value_size_ret)
{
	return not_done(kernel, ICD_TYPE_KERNEL, CL_INVALID_KERNEL);
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel,
	cl_device_id device,
	cl_kernel_work_group_info param_name,
	size_t param_value_size,
	void *param_value,
	size_t *param_value_size_ret)
{
	return not_done(kernel, ICD_TYPE_KERNEL, CL_INVALID_KERNEL);
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel,
	cl_uint arg_indx,
	cl_kernel_arg_info param_name,
	size_t param_value_size,
	void *param_value,
	size_t *param_value_size_ret)
{
	return not_done(kernel, ICD_TYPE_KERNEL, CL_INVALID_KERNEL);
}

/* Events. */

