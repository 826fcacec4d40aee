/* SPDX-License-Identifier: MIT */
/*
 * The size rules every clGet*Info entry shares (OpenCL 1.2, e.g. 4.2
 * clGetDeviceInfo): the size of the answer goes to *param_value_size_ret
 * when that is not NULL; param_value may be NULL to ask the size only; a
 * param_value_size smaller than the answer is CL_INVALID_VALUE and nothing
 * is written.
 */
#ifndef ICD_INFO_H
#define ICD_INFO_H

#include <stddef.h>

#include "icd_cl.h"

/* Answers a query with the @size bytes at @value. */
cl_int icd_info_copy(const void *value, size_t size, size_t param_value_size,
		     void *param_value, size_t *param_value_size_ret);

/* Answers with a NUL-terminated string (the size counts the NUL). */
cl_int icd_info_string(const char *s, size_t param_value_size,
		       void *param_value, size_t *param_value_size_ret);

#endif
