/* SPDX-License-Identifier: MIT */
/*
 * Kernels: one kernel of a built program, its argument values as set by
 * clSetKernelArg, and its work-group figures.
 */
#ifndef ICD_KERNEL_H
#define ICD_KERNEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "icd_device.h"
#include "icd_object.h"
#include "sl_launch.h"

struct icd_kernel_arg {
	bool set;
	enum sl_arg_kind kind;       /* SL_ARG_BUFFER / _VALUE / _LOCAL /
				      * _IMAGE / _SAMPLER */
	cl_mem mem;                  /* SL_ARG_BUFFER (NULL for a NULL
				      * pointer), SL_ARG_IMAGE; not retained
				      * (OpenCL leaves that to the
				      * application) */
	uint32_t sampler;            /* SL_ARG_SAMPLER: its CLK_* bits */
	/* SL_ARG_VALUE: scalars, vectors, structs up to the device's
	 * CL_DEVICE_MAX_PARAMETER_SIZE. */
	uint8_t value[ICD_MAX_PARAMETER_SIZE];
	uint32_t size;               /* SL_ARG_VALUE, SL_ARG_LOCAL */
};

struct _cl_kernel {
	struct icd_object obj;
	cl_program program;          /* retained */
	const struct slb_kernel *info;  /* in program->prog */
	pthread_mutex_t lock;        /* args */
	struct icd_kernel_arg *args; /* info->num_args entries */
};

bool icd_kernel_valid(cl_kernel kernel);
void icd_kernel_retain(cl_kernel kernel);
void icd_kernel_release(cl_kernel kernel);

/*
 * The largest work-group @kernel can run with on this device:
 * min(device max, the compiled kernel's max_wg_size: the threads its
 * register count leaves per core when its work-items meet at a barrier,
 * else 256), or the reqd_work_group_size product. This is
 * CL_KERNEL_WORK_GROUP_SIZE, and every size up to it launches.
 */
size_t icd_kernel_max_wg_size(cl_kernel kernel);

#endif
