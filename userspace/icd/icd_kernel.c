/* SPDX-License-Identifier: MIT */
/*
 * Kernels: clCreateKernel, clCreateKernelsInProgram, clRetain/ReleaseKernel,
 * clSetKernelArg, clGetKernelInfo, clGetKernelArgInfo and
 * clGetKernelWorkGroupInfo, from the kernel records of the program
 * binary (slb_binary.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd_context.h"
#include "icd_device.h"
#include "icd_image.h"
#include "icd_info.h"
#include "icd_kernel.h"
#include "icd_mem.h"
#include "icd_program.h"

/*
 * CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE. Midgard has no warps: each
 * work-item is a thread of its own, so no size wastes lanes. ARM's Mali
 * OpenCL guide (Midgard and Bifrost, 9.2) advises work-group sizes that
 * are a multiple of 4, the width of a thread's vector registers that a
 * vectorised kernel fills; 4 is that advice.
 */
#define PREFERRED_WG_MULTIPLE 4

bool icd_kernel_valid(cl_kernel kernel)
{
	return icd_object_is(kernel, ICD_TYPE_KERNEL);
}

void icd_kernel_retain(cl_kernel kernel)
{
	icd_object_retain(&kernel->obj);
}

void icd_kernel_release(cl_kernel kernel)
{
	cl_program program = kernel->program;

	if (!icd_object_release(&kernel->obj))
		return;
	pthread_mutex_destroy(&kernel->lock);
	free(kernel->args);
	free(kernel);
	atomic_fetch_sub(&program->num_kernels, 1);
	icd_program_release(program);
}

size_t icd_kernel_max_wg_size(cl_kernel kernel)
{
	const struct slb_kernel *k = kernel->info;
	size_t device_max =
		kernel->program->context->device->limits.max_work_group_size;

	if (k->reqd_wg_size[0])
		return (size_t)k->reqd_wg_size[0] * k->reqd_wg_size[1] *
		       k->reqd_wg_size[2];
	return k->max_wg_size < device_max ? k->max_wg_size : device_max;
}

static void *fail_with(cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

/* A kernel for @info of @program, which the caller has checked is built;
 * counted in program->num_kernels, which the caller raised already. */
static cl_kernel new_kernel(cl_program program, const struct slb_kernel *info)
{
	struct _cl_kernel *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->args = calloc(info->num_args ? info->num_args : 1,
			 sizeof(*k->args));
	if (!k->args) {
		free(k);
		return NULL;
	}
	for (uint32_t i = 0; i < info->num_args; i++)
		k->args[i].kind = info->args[i].kind == SLB_ARG_VALUE ?
				  SL_ARG_VALUE :
				  info->args[i].kind == SLB_ARG_LOCAL ?
				  SL_ARG_LOCAL : SL_ARG_BUFFER;
	icd_object_init(&k->obj, ICD_TYPE_KERNEL);
	pthread_mutex_init(&k->lock, NULL);
	icd_program_retain(program);
	k->program = program;
	k->info = info;
	return k;
}

/*
 * Holds @n kernel slots on @program: CL_SUCCESS with the count raised, so
 * no build can start until they are released, or
 * CL_INVALID_PROGRAM_EXECUTABLE when it has no executable.
 */
static cl_int hold_program(cl_program program, uint32_t n)
{
	cl_int err = CL_SUCCESS;

	pthread_mutex_lock(&program->lock);
	if (!program->built || program->build_status != CL_BUILD_SUCCESS)
		err = CL_INVALID_PROGRAM_EXECUTABLE;
	else
		atomic_fetch_add(&program->num_kernels, n);
	pthread_mutex_unlock(&program->lock);
	return err;
}

cl_kernel CL_API_CALL clCreateKernel(cl_program program,
				     const char *kernel_name,
				     cl_int *errcode_ret)
{
	const struct slb_kernel *info;
	cl_kernel k;
	cl_int err;

	if (!icd_program_valid(program))
		return fail_with(CL_INVALID_PROGRAM, errcode_ret);
	if (!kernel_name)
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	err = hold_program(program, 1);
	if (err)
		return fail_with(err, errcode_ret);
	/* prog cannot change while we hold a slot. */
	info = slb_find_kernel(&program->prog, kernel_name);
	k = info ? new_kernel(program, info) : NULL;
	if (!k) {
		atomic_fetch_sub(&program->num_kernels, 1);
		return fail_with(info ? CL_OUT_OF_HOST_MEMORY :
				 CL_INVALID_KERNEL_NAME, errcode_ret);
	}
	if (errcode_ret)
		*errcode_ret = CL_SUCCESS;
	return k;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program,
					    cl_uint num_kernels,
					    cl_kernel *kernels,
					    cl_uint *num_kernels_ret)
{
	uint32_t n;
	cl_int err;

	if (!icd_program_valid(program))
		return CL_INVALID_PROGRAM;
	err = hold_program(program, 1);
	if (err)
		return err;
	n = program->prog.num_kernels;
	if (kernels && num_kernels < n) {
		atomic_fetch_sub(&program->num_kernels, 1);
		return CL_INVALID_VALUE;
	}
	if (kernels) {
		/* One slot each, on top of the one held meanwhile. */
		atomic_fetch_add(&program->num_kernels, n);
		for (uint32_t i = 0; i < n; i++) {
			kernels[i] = new_kernel(program,
						&program->prog.kernels[i]);
			if (kernels[i])
				continue;
			for (uint32_t j = 0; j < i; j++)
				icd_kernel_release(kernels[j]);
			atomic_fetch_sub(&program->num_kernels, n - i + 1);
			return CL_OUT_OF_HOST_MEMORY;
		}
	}
	atomic_fetch_sub(&program->num_kernels, 1);
	if (num_kernels_ret)
		*num_kernels_ret = n;
	return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel)
{
	if (!icd_kernel_valid(kernel))
		return CL_INVALID_KERNEL;
	icd_kernel_retain(kernel);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel)
{
	if (!icd_kernel_valid(kernel))
		return CL_INVALID_KERNEL;
	icd_kernel_release(kernel);
	return CL_SUCCESS;
}

/* ---- clSetKernelArg ------------------------------------------------- */

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index,
				  size_t arg_size, const void *arg_value)
{
	const struct slb_arg *a;
	struct icd_kernel_arg v = { .set = true };

	if (!icd_kernel_valid(kernel))
		return CL_INVALID_KERNEL;
	if (arg_index >= kernel->info->num_args)
		return CL_INVALID_ARG_INDEX;
	a = &kernel->info->args[arg_index];
	switch (a->kind) {
	case SLB_ARG_LOCAL:
		/* A size of work-group memory, no value. */
		if (arg_value)
			return CL_INVALID_ARG_VALUE;
		if (!arg_size || arg_size > UINT32_MAX)
			return CL_INVALID_ARG_SIZE;
		v.kind = SL_ARG_LOCAL;
		v.size = (uint32_t)arg_size;
		break;
	case SLB_ARG_GLOBAL:
	case SLB_ARG_CONSTANT:
		/* A cl_mem, or NULL (no value, or a NULL cl_mem) for a NULL
		 * pointer. */
		if (arg_size != sizeof(cl_mem))
			return CL_INVALID_ARG_SIZE;
		v.kind = SL_ARG_BUFFER;
		v.mem = arg_value ? *(const cl_mem *)arg_value : NULL;
		/* An image is not a buffer (CL_INVALID_MEM_OBJECT). */
		if (v.mem && (!icd_buffer_valid(v.mem) ||
			      v.mem->context != kernel->program->context))
			return CL_INVALID_MEM_OBJECT;
		break;
	case SLB_ARG_SAMPLER: {
		/* A cl_sampler of the kernel's context: its CLK_* bits are
		 * what the launch takes (the object may go meanwhile). */
		cl_sampler smp;

		if (arg_size != sizeof(cl_sampler))
			return CL_INVALID_ARG_SIZE;
		/* No value is no sampler object. */
		if (!arg_value)
			return CL_INVALID_SAMPLER;
		smp = *(const cl_sampler *)arg_value;
		if (!icd_sampler_valid(smp) ||
		    smp->context != kernel->program->context)
			return CL_INVALID_SAMPLER;
		v.kind = SL_ARG_SAMPLER;
		v.sampler = smp->clk;
		break;
	}
	case SLB_ARG_IMAGE:
		/*
		 * A cl_mem image of the kernel's context (a buffer is
		 * CL_INVALID_MEM_OBJECT, "not an image"), whose access allows
		 * the argument's qualifier: a read_only image argument reads
		 * it, a write_only one writes it (OpenCL 1.2 5.7.2, 6.8).
		 */
		if (arg_size != sizeof(cl_mem))
			return CL_INVALID_ARG_SIZE;
		if (!arg_value)
			return CL_INVALID_ARG_VALUE;
		v.mem = *(const cl_mem *)arg_value;
		if (!icd_image_valid(v.mem) ||
		    v.mem->context != kernel->program->context)
			return CL_INVALID_MEM_OBJECT;
		if ((a->access == SLB_ACCESS_READ_ONLY &&
		     (v.mem->flags & CL_MEM_WRITE_ONLY)) ||
		    (a->access == SLB_ACCESS_WRITE_ONLY &&
		     (v.mem->flags & CL_MEM_READ_ONLY)))
			return CL_INVALID_ARG_VALUE;
		v.kind = SL_ARG_IMAGE;
		break;
	default:
		/* By value: the argument's bytes, exactly its size (3-
		 * component vectors take 4 components' room, as cl_float3
		 * does). */
		if (!arg_value)
			return CL_INVALID_ARG_VALUE;
		if (arg_size != a->size || arg_size > sizeof(v.value))
			return CL_INVALID_ARG_SIZE;
		v.kind = SL_ARG_VALUE;
		v.size = a->size;
		memcpy(v.value, arg_value, arg_size);
		break;
	}
	pthread_mutex_lock(&kernel->lock);
	kernel->args[arg_index] = v;
	pthread_mutex_unlock(&kernel->lock);
	return CL_SUCCESS;
}

/* ---- clGetKernelInfo ------------------------------------------------- */

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel,
				   cl_kernel_info param_name,
				   size_t param_value_size, void *param_value,
				   size_t *param_value_size_ret)
{
	const struct slb_kernel *k;
	union {
		cl_uint u;
		cl_context context;
		cl_program program;
	} v;
	size_t size;

	if (!icd_kernel_valid(kernel))
		return CL_INVALID_KERNEL;
	k = kernel->info;
	switch (param_name) {
	case CL_KERNEL_FUNCTION_NAME:
		return icd_info_string(k->name, param_value_size, param_value,
				       param_value_size_ret);
	case CL_KERNEL_NUM_ARGS:
		v.u = k->num_args;
		size = sizeof(cl_uint);
		break;
	case CL_KERNEL_REFERENCE_COUNT:
		v.u = icd_object_refs(&kernel->obj);
		size = sizeof(cl_uint);
		break;
	case CL_KERNEL_CONTEXT:
		v.context = kernel->program->context;
		size = sizeof(cl_context);
		break;
	case CL_KERNEL_PROGRAM:
		v.program = kernel->program;
		size = sizeof(cl_program);
		break;
	case CL_KERNEL_ATTRIBUTES:
		/* As the compiler recorded them: vec_type_hint,
		 * work_group_size_hint, reqd_work_group_size. */
		return icd_info_string(k->attributes ? k->attributes : "",
				       param_value_size, param_value,
				       param_value_size_ret);
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_copy(&v, size, param_value_size, param_value,
			     param_value_size_ret);
}

/* ---- clGetKernelArgInfo --------------------------------------------- */

/*
 * The binary always carries the argument information, but OpenCL 1.2
 * (5.7.3) makes it available only to programs built or compiled from
 * source with -cl-kernel-arg-info (program->arg_info); otherwise, and for
 * names a binary lacks (SPIR-V without them), the answer is
 * CL_KERNEL_ARG_INFO_NOT_AVAILABLE.
 */
cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index,
				      cl_kernel_arg_info param_name,
				      size_t param_value_size,
				      void *param_value,
				      size_t *param_value_size_ret)
{
	const struct slb_arg *a;
	union {
		cl_kernel_arg_address_qualifier address;
		cl_kernel_arg_access_qualifier access;
		cl_kernel_arg_type_qualifier type;
	} v;
	size_t size;

	if (!icd_kernel_valid(kernel))
		return CL_INVALID_KERNEL;
	if (arg_index >= kernel->info->num_args)
		return CL_INVALID_ARG_INDEX;
	a = &kernel->info->args[arg_index];
	if (param_name < CL_KERNEL_ARG_ADDRESS_QUALIFIER ||
	    param_name > CL_KERNEL_ARG_NAME)
		return CL_INVALID_VALUE;
	if (!kernel->program->arg_info)
		return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
	switch (param_name) {
	case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
		v.address = a->kind == SLB_ARG_GLOBAL ?
			    CL_KERNEL_ARG_ADDRESS_GLOBAL :
			    a->kind == SLB_ARG_CONSTANT ?
			    CL_KERNEL_ARG_ADDRESS_CONSTANT :
			    /* clang gives image arguments the global space. */
			    a->kind == SLB_ARG_IMAGE ?
			    CL_KERNEL_ARG_ADDRESS_GLOBAL :
			    a->kind == SLB_ARG_LOCAL ?
			    CL_KERNEL_ARG_ADDRESS_LOCAL :
			    CL_KERNEL_ARG_ADDRESS_PRIVATE;
		size = sizeof(v.address);
		break;
	case CL_KERNEL_ARG_ACCESS_QUALIFIER:
		/* Only images have an access qualifier. */
		v.access = a->kind != SLB_ARG_IMAGE ?
			   CL_KERNEL_ARG_ACCESS_NONE :
			   a->access == SLB_ACCESS_WRITE_ONLY ?
			   CL_KERNEL_ARG_ACCESS_WRITE_ONLY :
			   CL_KERNEL_ARG_ACCESS_READ_ONLY;
		size = sizeof(v.access);
		break;
	case CL_KERNEL_ARG_TYPE_QUALIFIER:
		v.type = CL_KERNEL_ARG_TYPE_NONE;
		/* Pointers only; a __constant pointer's data is const. */
		if (a->kind != SLB_ARG_VALUE && a->kind != SLB_ARG_SAMPLER &&
		    a->kind != SLB_ARG_IMAGE) {
			if ((a->qualifiers & SLB_QUAL_CONST) ||
			    a->kind == SLB_ARG_CONSTANT)
				v.type |= CL_KERNEL_ARG_TYPE_CONST;
			if (a->qualifiers & SLB_QUAL_RESTRICT)
				v.type |= CL_KERNEL_ARG_TYPE_RESTRICT;
			if (a->qualifiers & SLB_QUAL_VOLATILE)
				v.type |= CL_KERNEL_ARG_TYPE_VOLATILE;
		}
		size = sizeof(v.type);
		break;
	case CL_KERNEL_ARG_TYPE_NAME:
		if (!a->type_name[0])
			return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
		return icd_info_string(a->type_name, param_value_size,
				       param_value, param_value_size_ret);
	case CL_KERNEL_ARG_NAME:
		if (!a->name[0])
			return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
		return icd_info_string(a->name, param_value_size, param_value,
				       param_value_size_ret);
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_copy(&v, size, param_value_size, param_value,
			     param_value_size_ret);
}

/* ---- clGetKernelWorkGroupInfo --------------------------------------- */

#define ALIGN16(x) (((x) + 15) & ~(cl_ulong)15)

/* Work-group memory as the launch allocates it (sl_launch_plan): the
 * kernel's own __local variables, then each __local argument set so far,
 * each rounded up to 16 bytes. */
static cl_ulong local_mem_size(cl_kernel kernel)
{
	const struct slb_kernel *k = kernel->info;
	cl_ulong bytes = ALIGN16((cl_ulong)k->local_static_bytes);

	pthread_mutex_lock(&kernel->lock);
	for (uint32_t i = 0; i < k->num_args; i++)
		if (k->args[i].kind == SLB_ARG_LOCAL && kernel->args[i].set)
			bytes = ALIGN16(bytes + kernel->args[i].size);
	pthread_mutex_unlock(&kernel->lock);
	return bytes;
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel,
					    cl_device_id device,
					    cl_kernel_work_group_info param_name,
					    size_t param_value_size,
					    void *param_value,
					    size_t *param_value_size_ret)
{
	const struct slb_kernel *k;
	union {
		size_t sz;
		size_t sizes[3];
		cl_ulong ul;
	} v;
	size_t size;

	if (!icd_kernel_valid(kernel))
		return CL_INVALID_KERNEL;
	/* NULL names the one device the kernel's program is for. */
	if (device && (!icd_device_valid(device) ||
		       device != kernel->program->context->device))
		return CL_INVALID_DEVICE;
	k = kernel->info;
	switch (param_name) {
	case CL_KERNEL_GLOBAL_WORK_SIZE:
		/* Only for custom devices and built-in kernels. */
		return CL_INVALID_VALUE;
	case CL_KERNEL_WORK_GROUP_SIZE:
		v.sz = icd_kernel_max_wg_size(kernel);
		size = sizeof(size_t);
		break;
	case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
		for (int i = 0; i < 3; i++)
			v.sizes[i] = k->reqd_wg_size[i];
		size = sizeof(v.sizes);
		break;
	case CL_KERNEL_LOCAL_MEM_SIZE:
		v.ul = local_mem_size(kernel);
		size = sizeof(cl_ulong);
		break;
	case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
		v.sz = PREFERRED_WG_MULTIPLE;
		size = sizeof(size_t);
		break;
	case CL_KERNEL_PRIVATE_MEM_SIZE:
		/* Per work-item, spills included. */
		v.ul = k->private_bytes;
		size = sizeof(cl_ulong);
		break;
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_copy(&v, size, param_value_size, param_value,
			     param_value_size_ret);
}
