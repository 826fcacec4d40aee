/* SPDX-License-Identifier: MIT */
/* clCreateContext(FromType), clRetain/ReleaseContext, clGetContextInfo. */
#include <stdlib.h>
#include <string.h>

#include "icd_builtin.h"
#include "icd_context.h"
#include "icd_device.h"
#include "icd_info.h"
#include "icd_platform.h"

bool icd_context_valid(cl_context context)
{
	return icd_object_is(context, ICD_TYPE_CONTEXT);
}

void icd_context_notify_error(cl_context context, const char *errinfo)
{
	if (context->notify)
		context->notify(errinfo, NULL, 0, context->notify_data);
}

/* Checks @props (OpenCL 1.2, table 4.5) and copies them into @ctx; returns
 * the platform they name through @platform (NULL: none named). */
static cl_int parse_properties(const cl_context_properties *props,
			       struct _cl_context *ctx,
			       cl_platform_id *platform)
{
	bool seen_platform = false, seen_sync = false;
	size_t n = 0;

	*platform = NULL;
	if (!props)
		return CL_SUCCESS;
	for (; props[n]; n += 2) {
		switch (props[n]) {
		case CL_CONTEXT_PLATFORM:
			if (seen_platform)
				return CL_INVALID_PROPERTY;
			seen_platform = true;
			*platform = (cl_platform_id)props[n + 1];
			if (!icd_object_is(*platform, ICD_TYPE_PLATFORM))
				return CL_INVALID_PLATFORM;
			break;
		case CL_CONTEXT_INTEROP_USER_SYNC:
			/* A cl_bool: any other value is invalid. */
			if (seen_sync || (props[n + 1] != CL_TRUE &&
					  props[n + 1] != CL_FALSE))
				return CL_INVALID_PROPERTY;
			seen_sync = true;
			break;
		default:
			return CL_INVALID_PROPERTY;
		}
	}
	/* At most two known properties, each once, so this fits. */
	memcpy(ctx->properties, props, (n + 1) * sizeof(*props));
	ctx->num_properties = n + 1;
	return CL_SUCCESS;
}

/* The common part of both creators, once the devices are known. */
static cl_context create(const cl_context_properties *properties,
			 cl_device_id device, icd_context_notify pfn_notify,
			 void *user_data, cl_int *errcode_ret)
{
	struct _cl_context *ctx;
	cl_platform_id platform;
	cl_int err;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto fail;
	}
	err = parse_properties(properties, ctx, &platform);
	if (err)
		goto fail;
	if (icd_device_open_vm(device, &ctx->drm)) {
		err = CL_OUT_OF_RESOURCES;
		goto fail;
	}
	pthread_mutex_init(&ctx->gpu_lock, NULL);
	icd_object_init(&ctx->obj, ICD_TYPE_CONTEXT);
	ctx->device = device;
	ctx->notify = pfn_notify;
	ctx->notify_data = user_data;
	ctx->builtin = icd_builtin_program_new(ctx);
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return ctx;
fail:
	free(ctx);
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

static cl_context fail_with(cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

cl_context CL_API_CALL
clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
		const cl_device_id *devices, icd_context_notify pfn_notify,
		void *user_data, cl_int *errcode_ret)
{
	if (!devices || num_devices == 0 || (!pfn_notify && user_data))
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	for (cl_uint i = 0; i < num_devices; i++)
		if (!icd_device_valid(devices[i]))
			return fail_with(CL_INVALID_DEVICE, errcode_ret);
	return create(properties, devices[0], pfn_notify, user_data,
		      errcode_ret);
}

cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties,
			cl_device_type device_type,
			icd_context_notify pfn_notify, void *user_data,
			cl_int *errcode_ret)
{
	struct _cl_context probe = { 0 };
	cl_platform_id platform;
	cl_int err;

	if (!pfn_notify && user_data)
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	/* The platform named decides where devices come from, so the
	 * properties are checked before the type. */
	err = parse_properties(properties, &probe, &platform);
	if (err)
		return fail_with(err, errcode_ret);
	platform = icd_platform_resolve(platform);
	if (!icd_device_type_valid(device_type))
		return fail_with(CL_INVALID_DEVICE_TYPE, errcode_ret);
	if (!platform->device || !icd_device_type_matches(device_type))
		return fail_with(CL_DEVICE_NOT_FOUND, errcode_ret);
	return create(properties, platform->device, pfn_notify, user_data,
		      errcode_ret);
}

cl_int CL_API_CALL clRetainContext(cl_context context)
{
	if (!icd_context_valid(context))
		return CL_INVALID_CONTEXT;
	icd_object_retain(&context->obj);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseContext(cl_context context)
{
	if (!icd_context_valid(context))
		return CL_INVALID_CONTEXT;
	if (icd_object_release(&context->obj)) {
		/* Its GPU copies go while the render node is open. */
		icd_builtin_release(context->builtin);
		if (context->drm)
			sl_drm_close(context->drm);
		pthread_mutex_destroy(&context->gpu_lock);
		free(context);
	}
	return CL_SUCCESS;
}

cl_int CL_API_CALL clGetContextInfo(cl_context context,
				    cl_context_info param_name,
				    size_t param_value_size,
				    void *param_value,
				    size_t *param_value_size_ret)
{
	cl_uint u;

	if (!icd_context_valid(context))
		return CL_INVALID_CONTEXT;
	switch (param_name) {
	case CL_CONTEXT_REFERENCE_COUNT:
		u = icd_object_refs(&context->obj);
		break;
	case CL_CONTEXT_NUM_DEVICES:
		u = 1;
		break;
	case CL_CONTEXT_DEVICES:
		return icd_info_copy(&context->device, sizeof(cl_device_id),
				     param_value_size, param_value,
				     param_value_size_ret);
	case CL_CONTEXT_PROPERTIES:
		return icd_info_copy(context->properties,
				     context->num_properties *
				     sizeof(cl_context_properties),
				     param_value_size, param_value,
				     param_value_size_ret);
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_copy(&u, sizeof(u), param_value_size, param_value,
			     param_value_size_ret);
}
