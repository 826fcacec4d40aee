/* SPDX-License-Identifier: MIT */
/*
 * The one place the ICD includes Khronos' headers, so every file sees the
 * same API level: OpenCL 1.2, with the 1.0/1.1 entry points that 1.2
 * deprecated still declared (the dispatch table and old programs use them).
 */
#ifndef ICD_CL_H
#define ICD_CL_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

/* The few symbols the loader looks up by name; everything else is hidden
 * and reached through the dispatch table. */
#define ICD_EXPORT __attribute__((visibility("default")))

#endif
