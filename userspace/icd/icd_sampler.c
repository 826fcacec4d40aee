/* SPDX-License-Identifier: MIT */
/*
 * Sampler objects: clCreateSampler, clRetain/ReleaseSampler,
 * clGetSamplerInfo. A sampler is its three properties and the OpenCL C
 * CLK_* bits they make, which a sampler kernel argument passes to the
 * launch (compiler/README.md, "Images and samplers: the launch ABI").
 */
#include <stdlib.h>

#include "icd_context.h"
#include "icd_image.h"
#include "icd_info.h"
#include "sleipnir_compiler.h"

bool icd_sampler_valid(cl_sampler sampler)
{
	return icd_object_is(sampler, ICD_TYPE_SAMPLER);
}

/* clang's CLK_* encoding of an addressing mode; -1 when unknown. */
static int address_bits(cl_addressing_mode mode)
{
	switch (mode) {
	case CL_ADDRESS_NONE: return 0;
	case CL_ADDRESS_CLAMP_TO_EDGE: return 2;
	case CL_ADDRESS_CLAMP: return 4;
	case CL_ADDRESS_REPEAT: return 6;
	case CL_ADDRESS_MIRRORED_REPEAT: return 8;
	default: return -1;
	}
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context,
				       cl_bool normalized_coords,
				       cl_addressing_mode addressing_mode,
				       cl_filter_mode filter_mode,
				       cl_int *errcode_ret)
{
	int address = address_bits(addressing_mode);
	cl_sampler s;
	cl_int err = CL_SUCCESS;

	if (!icd_context_valid(context))
		err = CL_INVALID_CONTEXT;
	else if (!SLC_DEVICE_IMAGE_SUPPORT)
		err = CL_INVALID_OPERATION;
	else if (address < 0 ||
		 (filter_mode != CL_FILTER_NEAREST &&
		  filter_mode != CL_FILTER_LINEAR) ||
		 (normalized_coords != CL_TRUE &&
		  normalized_coords != CL_FALSE))
		err = CL_INVALID_VALUE;
	if (err) {
		if (errcode_ret)
			*errcode_ret = err;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		if (errcode_ret)
			*errcode_ret = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	icd_object_init(&s->obj, ICD_TYPE_SAMPLER);
	icd_object_retain(&context->obj);
	s->context = context;
	s->normalized_coords = normalized_coords;
	s->addressing_mode = addressing_mode;
	s->filter_mode = filter_mode;
	s->clk = (normalized_coords ? SLB_SAMPLER_NORMALIZED : 0) |
		 (uint32_t)address |
		 (filter_mode == CL_FILTER_LINEAR ? SLB_SAMPLER_FILTER_LINEAR :
		  SLB_SAMPLER_FILTER_NEAREST);
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return s;
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler)
{
	if (!icd_sampler_valid(sampler))
		return CL_INVALID_SAMPLER;
	icd_object_retain(&sampler->obj);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler)
{
	cl_context ctx;

	if (!icd_sampler_valid(sampler))
		return CL_INVALID_SAMPLER;
	/* A launch keeps the sampler's bits, not the object. */
	if (icd_object_release(&sampler->obj)) {
		ctx = sampler->context;
		free(sampler);
		clReleaseContext(ctx);
	}
	return CL_SUCCESS;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler,
				    cl_sampler_info param_name,
				    size_t param_value_size, void *param_value,
				    size_t *param_value_size_ret)
{
	union {
		cl_uint u;
		cl_context context;
		cl_bool b;
		cl_addressing_mode am;
		cl_filter_mode fm;
	} v;
	size_t size;

	if (!icd_sampler_valid(sampler))
		return CL_INVALID_SAMPLER;
	switch (param_name) {
	case CL_SAMPLER_REFERENCE_COUNT:
		v.u = icd_object_refs(&sampler->obj);
		size = sizeof(v.u);
		break;
	case CL_SAMPLER_CONTEXT:
		v.context = sampler->context;
		size = sizeof(v.context);
		break;
	case CL_SAMPLER_NORMALIZED_COORDS:
		v.b = sampler->normalized_coords;
		size = sizeof(v.b);
		break;
	case CL_SAMPLER_ADDRESSING_MODE:
		v.am = sampler->addressing_mode;
		size = sizeof(v.am);
		break;
	case CL_SAMPLER_FILTER_MODE:
		v.fm = sampler->filter_mode;
		size = sizeof(v.fm);
		break;
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_copy(&v, size, param_value_size, param_value,
			     param_value_size_ret);
}
