/* SPDX-License-Identifier: MIT */
/*
 * An LD_PRELOAD library for benchmark clients that size their work by the
 * device's limits and have no option to choose it (clpeak 1.1.2: compute
 * tests launch CL_DEVICE_MAX_COMPUTE_UNITS * 2048 work-groups of
 * CL_DEVICE_MAX_WORK_ITEM_SIZES[0] items, bandwidth tests move up to half
 * of CL_DEVICE_MAX_MEM_ALLOC_SIZE per launch). Under emulation one such
 * launch runs for many minutes, so tests/conformance/clients.py caps what
 * clGetDeviceInfo reports to such a client, for its run only:
 *
 *     SLEIPNIR_CL_LIMITS="compute_units=1,work_group=16,mem_alloc=8388608"
 *
 * compute_units caps CL_DEVICE_MAX_COMPUTE_UNITS; work_group caps
 * CL_DEVICE_MAX_WORK_GROUP_SIZE and each of CL_DEVICE_MAX_WORK_ITEM_SIZES;
 * mem_alloc caps CL_DEVICE_MAX_MEM_ALLOC_SIZE (and CL_DEVICE_GLOBAL_MEM_SIZE
 * at 4 times it). Every other query, and the runtime, are untouched: the
 * client's kernels run as they are, on fewer work-items.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef cl_int (*get_device_info_fn)(cl_device_id, cl_device_info, size_t,
				      void *, size_t *);

/* The value of @key in SLEIPNIR_CL_LIMITS, or 0 when absent. */
static unsigned long long limit(const char *key)
{
	const char *env = getenv("SLEIPNIR_CL_LIMITS");
	size_t n = strlen(key);

	while (env && *env) {
		if (!strncmp(env, key, n) && env[n] == '=')
			return strtoull(env + n + 1, NULL, 0);
		env = strchr(env, ',');
		if (env)
			env++;
	}
	return 0;
}

/* *value = min(*value, max) for a max other than 0. */
#define CAP(type, value, max)                                                \
	do {                                                                 \
		type *v_ = (type *)(value);                                  \
		unsigned long long m_ = (max);                               \
		if (m_ && *v_ > m_)                                          \
			*v_ = (type)m_;                                      \
	} while (0)

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device,
						cl_device_info param_name,
						size_t param_value_size,
						void *param_value,
						size_t *param_value_size_ret)
{
	static get_device_info_fn real;
	unsigned long long max;
	cl_int err;

	if (!real)
		real = (get_device_info_fn)dlsym(RTLD_NEXT, "clGetDeviceInfo");
	if (!real)
		return CL_INVALID_DEVICE;
	err = real(device, param_name, param_value_size, param_value,
		   param_value_size_ret);
	if (err != CL_SUCCESS || !param_value)
		return err;
	switch (param_name) {
	case CL_DEVICE_MAX_COMPUTE_UNITS:
		CAP(cl_uint, param_value, limit("compute_units"));
		break;
	case CL_DEVICE_MAX_WORK_GROUP_SIZE:
		CAP(size_t, param_value, limit("work_group"));
		break;
	case CL_DEVICE_MAX_WORK_ITEM_SIZES:
		max = limit("work_group");
		for (size_t i = 0; i < param_value_size / sizeof(size_t); i++)
			CAP(size_t, (size_t *)param_value + i, max);
		break;
	case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
		CAP(cl_ulong, param_value, limit("mem_alloc"));
		break;
	case CL_DEVICE_GLOBAL_MEM_SIZE:
		max = limit("mem_alloc");
		CAP(cl_ulong, param_value, 4 * max);
		break;
	default:
		break;
	}
	return err;
}
