/* SPDX-License-Identifier: MIT */
/*
 * Kernel launches as commands: clEnqueueNDRangeKernel and clEnqueueTask
 * check the launch against OpenCL 1.2 and the kernel, choose a local size
 * when none is given, and take a snapshot of the kernel's arguments
 * (struct icd_launch). icd_chain.c puts them on the GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "icd_context.h"
#include "icd_device.h"
#include "icd_event.h"
#include "icd_kernel.h"
#include "icd_mem.h"
#include "icd_ndrange.h"
#include "icd_program.h"
#include "icd_queue.h"
#include "midgard_desc.h"

/* --- launch snapshots ---------------------------------------------------- */

void icd_launch_end(struct icd_launch *launch)
{
	for (unsigned int i = 0; i < launch->num_mems; i++)
		icd_mem_release(launch->mems[i]);
	launch->num_mems = 0;
	if (launch->program)
		icd_program_release_launch(launch->program);
	launch->program = NULL;
}

void icd_launch_free(struct icd_launch *launch)
{
	if (!launch)
		return;
	icd_launch_end(launch);
	/* Its arrays are in the same block (snapshot_args). */
	free(launch);
}

/* sl_launch's verdict as the error OpenCL 1.2 names for it. */
static cl_int launch_error(int status)
{
	switch (status) {
	case SL_LAUNCH_E_ARG_COUNT:
	case SL_LAUNCH_E_ARG_UNSET:
	case SL_LAUNCH_E_ARG_KIND:
	case SL_LAUNCH_E_ARG_SIZE:
	case SL_LAUNCH_E_ARG_VALUE:
		return CL_INVALID_KERNEL_ARGS;
	case SL_LAUNCH_E_WORK_DIM:
		return CL_INVALID_WORK_DIMENSION;
	case SL_LAUNCH_E_LOCAL_SIZE:
	case SL_LAUNCH_E_NOT_DIVISIBLE:
		return CL_INVALID_WORK_GROUP_SIZE;
	case SL_LAUNCH_E_OFFSET:
		return CL_INVALID_GLOBAL_OFFSET;
	case SL_LAUNCH_E_GLOBAL_SIZE:
		return CL_INVALID_GLOBAL_WORK_SIZE;
	case SL_LAUNCH_E_TOO_BIG:
		/*
		 * Sizes the device accepts (each within its 32-bit size_t)
		 * that one job's descriptors cannot hold: the six sizes of
		 * the Invocation share 32 bits, which a local size the
		 * application chose may waste (docs/hardware.md §4.3). Not
		 * CL_INVALID_GLOBAL_WORK_SIZE, which OpenCL 1.2 5.8 keeps for
		 * sizes beyond the device's size_t: a failure "because of
		 * insufficient resources needed to execute the kernel".
		 */
		return CL_OUT_OF_RESOURCES;
	case SL_LAUNCH_E_LOCAL_MEMORY:
		/* "insufficient resources such as registers or local
		 * memory" (OpenCL 1.2 5.8). */
		return CL_OUT_OF_RESOURCES;
	default:
		return CL_OUT_OF_RESOURCES;
	}
}

/*
 * A snapshot of the kernel's arguments (under its lock) as a new launch,
 * in one allocation, since every launch makes one: the struct, the
 * sl_args, the buffers (retained) and the bytes of the by-value ones,
 * only as many as they have. NULL in *@out and the error on failure.
 */
static cl_int snapshot_args(cl_kernel k, struct icd_launch **out)
{
	unsigned int n = k->info->num_args;
	size_t slots = n ? n : 1, bytes = 0, images = 0;
	struct icd_launch *l;
	cl_int err = CL_SUCCESS;
	struct sl_image *image;
	uint8_t *value;
	char *p;

	*out = NULL;
	pthread_mutex_lock(&k->lock);
	for (unsigned int i = 0; i < n; i++) {
		if (!k->args[i].set) {
			pthread_mutex_unlock(&k->lock);
			return CL_INVALID_KERNEL_ARGS;
		}
		if (k->args[i].kind == SL_ARG_VALUE)
			bytes += k->args[i].size;
		images += k->args[i].kind == SL_ARG_IMAGE;
	}
	/* Pointers first, the images' descriptions, then the bytes, which
	 * need no alignment. */
	p = malloc(sizeof(*l) + slots * (sizeof(*l->args) + sizeof(*l->mems)) +
		   images * sizeof(struct sl_image) + bytes);
	if (!p) {
		pthread_mutex_unlock(&k->lock);
		return CL_OUT_OF_HOST_MEMORY;
	}
	l = (struct icd_launch *)p;
	memset(l, 0, sizeof(*l));
	p += sizeof(*l);
	l->args = (struct sl_arg *)p;
	memset(l->args, 0, slots * sizeof(*l->args));
	p += slots * sizeof(*l->args);
	l->mems = (cl_mem *)p;
	p += slots * sizeof(*l->mems);
	image = (struct sl_image *)p;
	p += images * sizeof(*image);
	value = (uint8_t *)p;
	for (unsigned int i = 0; i < n; i++) {
		const struct icd_kernel_arg *a = &k->args[i];

		l->args[i].kind = a->kind;
		l->args[i].size = a->size;
		l->args[i].sampler = a->sampler;
		if (a->kind == SL_ARG_VALUE) {
			memcpy(value, a->value, a->size);
			l->args[i].value = value;
			value += a->size;
		}
		if (a->kind == SL_ARG_BUFFER && a->mem) {
			/* A buffer released after clSetKernelArg is the
			 * application's error; it is caught here. */
			if (!icd_mem_valid(a->mem)) {
				err = CL_INVALID_KERNEL_ARGS;
				break;
			}
			icd_mem_retain(a->mem);
			l->mems[l->num_mems++] = a->mem;
			l->args[i].va = a->mem->va;
		}
		if (a->kind == SL_ARG_IMAGE) {
			/* An image released after clSetKernelArg likewise. */
			if (!icd_image_valid(a->mem)) {
				err = CL_INVALID_KERNEL_ARGS;
				break;
			}
			icd_mem_retain(a->mem);
			l->mems[l->num_mems++] = a->mem;
			*image = a->mem->sl;
			l->args[i].image = image++;
		}
	}
	pthread_mutex_unlock(&k->lock);
	*out = l;
	return err;
}

/*
 * The local size along one dimension: the largest divisor of @n that is
 * at most @limit, or, when one at least half as large is a multiple of 4,
 * that one (ARM's Mali OpenCL guide asks for multiples of 4).
 */
static uint32_t pick_divisor(uint32_t n, size_t limit)
{
	uint32_t best = 1;

	for (uint32_t d = (uint32_t)(limit < n ? limit : n); d > 1; d--) {
		if (n % d)
			continue;
		if (best == 1)
			best = d;
		if (d % 4 == 0)
			return 2 * d >= best ? d : best;
		if (2 * d < best)
			break;
	}
	return best;
}

/* Whether a job's Invocation descriptor holds @local over @nd. */
static bool invocation_packs(const struct sl_ndrange *nd,
			     const uint32_t local[3])
{
	uint8_t inv[MDG_INVOCATION_BYTES];
	uint32_t groups[3];

	for (unsigned int d = 0; d < 3; d++)
		groups[d] = nd->global[d] / local[d];
	return mdg_pack_invocation(local, groups, inv);
}

/*
 * The six sizes of the Invocation descriptor (local X, Y, Z, then the
 * group counts) share 32 bits, each taking ceil(log2(size)) of them
 * (docs/hardware.md §4.3), so a local size that splits a dimension
 * unevenly wastes up to a bit a dimension: 2^32 - 1 work-items in groups
 * of 255 need 8 + 25 bits. A power of two L that divides the global size
 * G wastes none (log2(L) + ceil(log2(G / L)) = ceil(log2(G))), so when the
 * first choice does not fit, each dimension takes the largest power of
 * two that divides it and fits the limits: the fewest bits any local size
 * can take, and as large a group as that allows.
 */
static void choose_packing_local_size(cl_kernel k, const struct sl_ndrange *nd,
				      uint32_t local[3])
{
	const struct icd_device_limits *lim =
		&k->program->context->device->limits;
	size_t budget = icd_kernel_max_wg_size(k);

	for (unsigned int d = 0; d < 3; d++) {
		size_t cap = budget < lim->max_work_item_sizes[d] ?
			     budget : lim->max_work_item_sizes[d];
		/* The lowest set bit: the largest power of two dividing it. */
		uint32_t l = d < nd->work_dim ?
			     nd->global[d] & (~nd->global[d] + 1) : 1;

		while (l > 1 && l > cap)
			l /= 2;
		local[d] = l;
		budget /= l;
	}
}

/*
 * A local size when the application gave none. ARM's Mali OpenCL guide
 * advises the largest work-group the kernel allows: Midgard runs each
 * work-item as a thread of its own, so bigger groups only amortise the
 * per-group cost. It must divide the global size exactly (OpenCL 1.2), so
 * each dimension takes a divisor of its global size that fits in what is
 * left of the kernel's limit, X first (pick_divisor).
 */
static void choose_local_size(cl_kernel k, const struct sl_ndrange *nd,
			      uint32_t local[3])
{
	const struct icd_device_limits *lim =
		&k->program->context->device->limits;
	size_t budget = icd_kernel_max_wg_size(k);

	for (unsigned int d = 0; d < 3; d++) {
		size_t cap = budget < lim->max_work_item_sizes[d] ?
			     budget : lim->max_work_item_sizes[d];

		local[d] = d < nd->work_dim ?
			   pick_divisor(nd->global[d], cap) : 1;
		budget /= local[d];
	}
	if (!invocation_packs(nd, local))
		choose_packing_local_size(k, nd, local);
}

/* The NDRange checks OpenCL 1.2 (5.8) lists, in its order, into @nd. */
static cl_int check_ndrange(cl_kernel k, cl_uint work_dim,
			    const size_t *offset, const size_t *global,
			    const size_t *local, struct sl_ndrange *nd)
{
	const struct icd_device_limits *lim =
		&k->program->context->device->limits;
	const uint32_t *reqd = k->info->reqd_wg_size;
	bool has_reqd = reqd[0] || reqd[1] || reqd[2];
	size_t items = 1;

	if (work_dim < 1 || work_dim > 3)
		return CL_INVALID_WORK_DIMENSION;
	if (!global)
		return CL_INVALID_GLOBAL_WORK_SIZE;
	memset(nd, 0, sizeof(*nd));
	nd->work_dim = work_dim;
	for (unsigned int d = 0; d < 3; d++) {
		nd->global[d] = 1;
		nd->local[d] = 1;
	}
	for (cl_uint d = 0; d < work_dim; d++) {
		/* CL_DEVICE_ADDRESS_BITS is 32: sizes are 32-bit. */
		if (global[d] == 0 || global[d] > UINT32_MAX)
			return CL_INVALID_GLOBAL_WORK_SIZE;
		if (offset && (offset[d] > UINT32_MAX ||
			       global[d] + offset[d] > UINT32_MAX))
			return CL_INVALID_GLOBAL_OFFSET;
		nd->global[d] = (uint32_t)global[d];
		nd->offset[d] = offset ? (uint32_t)offset[d] : 0;
	}
	if (!local) {
		/* "local_work_size is NULL and the reqd_work_group_size
		 * qualifier is used" is CL_INVALID_WORK_GROUP_SIZE. */
		if (has_reqd)
			return CL_INVALID_WORK_GROUP_SIZE;
		choose_local_size(k, nd, nd->local);
	} else {
		for (cl_uint d = 0; d < work_dim; d++) {
			if (local[d] == 0 || local[d] > UINT32_MAX)
				return CL_INVALID_WORK_GROUP_SIZE;
			nd->local[d] = (uint32_t)local[d];
		}
	}
	for (cl_uint d = 0; d < 3; d++) {
		if (nd->global[d] % nd->local[d])
			return CL_INVALID_WORK_GROUP_SIZE;
		if (has_reqd && nd->local[d] != (reqd[d] ? reqd[d] : 1))
			return CL_INVALID_WORK_GROUP_SIZE;
		items *= nd->local[d];
	}
	if (items > lim->max_work_group_size)
		return CL_INVALID_WORK_GROUP_SIZE;
	for (cl_uint d = 0; d < work_dim; d++)
		if (nd->local[d] > lim->max_work_item_sizes[d])
			return CL_INVALID_WORK_ITEM_SIZE;
	return CL_SUCCESS;
}

static cl_int enqueue_launch(cl_command_queue queue, cl_kernel kernel,
			     cl_uint work_dim, const size_t *offset,
			     const size_t *global, const size_t *local,
			     cl_command_type type, cl_uint num_events,
			     const cl_event *wait_list, cl_event *event)
{
	struct icd_launch *l;
	struct sl_ndrange nd;
	cl_event cmd;
	cl_int err;
	int st;

	if (!icd_queue_valid(queue))
		return CL_INVALID_COMMAND_QUEUE;
	if (!icd_kernel_valid(kernel))
		return CL_INVALID_KERNEL;
	if (kernel->program->context != queue->context)
		return CL_INVALID_CONTEXT;
	err = icd_queue_check(queue, num_events, wait_list);
	if (!err)
		err = check_ndrange(kernel, work_dim, offset, global, local,
				    &nd);
	if (err)
		return err;
	err = snapshot_args(kernel, &l);
	if (!l)
		return err;
	icd_program_hold_launch(kernel->program);
	l->program = kernel->program;
	if (err)
		goto fail;
	/*
	 * Within the device's limit but above the kernel's (a group meeting
	 * at barriers whose registers leave fewer threads per core): OpenCL
	 * 1.2 5.8 names this CL_OUT_OF_RESOURCES, "the explicitly specified
	 * local_work_size causes a failure to execute the kernel because of
	 * insufficient resources such as registers" (CL_INVALID_WORK_GROUP_
	 * SIZE only from OpenCL 2.0, which compares with the kernel's).
	 */
	if ((size_t)nd.local[0] * nd.local[1] * nd.local[2] >
	    icd_kernel_max_wg_size(kernel)) {
		err = CL_OUT_OF_RESOURCES;
		goto fail;
	}
	l->params.prog = &kernel->program->prog;
	l->params.kernel = kernel->info;
	l->params.args = l->args;
	l->params.num_args = kernel->info->num_args;
	l->params.nd = nd;
	l->params.cores =
		sl_launch_cores(queue->device->params.shader_present);
	st = sl_launch_plan(&l->params, &l->plan);
	if (st) {
		err = launch_error(st);
		goto fail;
	}
	if (l->plan.wls_bytes_per_group >
	    queue->device->limits.local_mem_size) {
		err = CL_OUT_OF_RESOURCES;
		goto fail;
	}
	cmd = icd_command_new(queue, type, num_events, wait_list, &err);
	if (!cmd)
		goto fail;
	cmd->launch = l;
	return icd_command_enqueue(cmd, false, event);
fail:
	icd_launch_free(l);
	return err;
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue,
					  cl_kernel kernel, cl_uint work_dim,
					  const size_t *global_work_offset,
					  const size_t *global_work_size,
					  const size_t *local_work_size,
					  cl_uint num_events_in_wait_list,
					  const cl_event *event_wait_list,
					  cl_event *event)
{
	return enqueue_launch(command_queue, kernel, work_dim,
			      global_work_offset, global_work_size,
			      local_work_size, CL_COMMAND_NDRANGE_KERNEL,
			      num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue,
				 cl_kernel kernel,
				 cl_uint num_events_in_wait_list,
				 const cl_event *event_wait_list,
				 cl_event *event)
{
	static const size_t one = 1;

	/* One work-item in one work-group of one (OpenCL 1.2, 5.8). */
	return enqueue_launch(command_queue, kernel, 1, NULL, &one, &one,
			      CL_COMMAND_TASK, num_events_in_wait_list,
			      event_wait_list, event);
}
