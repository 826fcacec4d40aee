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

/* Command queues. */

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

/* Events. */

