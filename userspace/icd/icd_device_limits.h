/* SPDX-License-Identifier: MIT */
/*
 * What the device reports through clGetDeviceInfo that depends on the GPU
 * and the machine, derived from the driver's GET_PARAM values and the
 * host's RAM. Pure: no I/O, so host tests feed it any GPU.
 */
#ifndef ICD_DEVICE_LIMITS_H
#define ICD_DEVICE_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "icd_cl.h"

/* The GET_PARAM values the ICD reads (uapi/drm/sleipnir_drm.h). */
struct icd_gpu_params {
	uint64_t gpu_id;
	uint64_t shader_present;
	/* The cores sleipnir.ko runs jobs on: the first core group's. */
	uint64_t shader_core_mask;
	uint64_t l2_present;
	uint64_t l2_features;
	uint64_t l2_size;
	uint64_t thread_max_workgroup_size;
	uint64_t timestamp_frequency;
	uint64_t va_start;
	uint64_t va_end;
};

struct icd_device_limits {
	char name[32];
	cl_uint compute_units;
	size_t max_work_group_size;
	size_t max_work_item_sizes[3];
	cl_ulong global_mem_size;
	cl_ulong max_mem_alloc_size;
	cl_ulong local_mem_size;
	cl_ulong global_mem_cache_size;
	cl_uint global_mem_cacheline_size;
	size_t profiling_timer_resolution;
};

/* Fills @out from @params and @ram_bytes, the host's RAM. Returns false
 * when the values cannot describe a usable device (no shader core, no
 * work-group size, no GPU address space). */
bool icd_device_limits_derive(const struct icd_gpu_params *params,
			      uint64_t ram_bytes,
			      struct icd_device_limits *out);

#endif
