/* SPDX-License-Identifier: MIT */
/* The shared size rules of the clGet*Info entries (see icd_info.h). */
#include <string.h>

#include "icd_info.h"

cl_int icd_info_copy(const void *value, size_t size, size_t param_value_size,
		     void *param_value, size_t *param_value_size_ret)
{
	if (param_value) {
		if (param_value_size < size)
			return CL_INVALID_VALUE;
		if (size)
			memcpy(param_value, value, size);
	}
	if (param_value_size_ret)
		*param_value_size_ret = size;
	return CL_SUCCESS;
}

cl_int icd_info_string(const char *s, size_t param_value_size,
		       void *param_value, size_t *param_value_size_ret)
{
	return icd_info_copy(s, strlen(s) + 1, param_value_size, param_value,
			     param_value_size_ret);
}
