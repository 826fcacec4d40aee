/* SPDX-License-Identifier: MIT */
/*
 * Entry points for what the device does not have, complete as they are:
 * built-in kernels (there are none), native kernels, and the
 * compiler-unloading hints (the compiler is a library call, nothing stays
 * loaded). Each answers what OpenCL 1.2 prescribes for that case.
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
