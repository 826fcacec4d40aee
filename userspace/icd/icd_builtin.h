/* SPDX-License-Identifier: MIT */
/*
 * The runtime's own GPU kernels: clEnqueueFillBuffer, clEnqueueCopyBuffer
 * and clEnqueueCopyBufferRect as launches of hand-written Midgard code
 * (firmware/cl/, assembled by sleipnir-as at build time and installed to
 * the data folder), so an in-order queue runs them in its chain of jobs
 * between kernels, with no CPU copy and no wait. Each context gets a
 * program of them (uploaded on first use); a command the GPU cannot do
 * returns false here and the caller does it on the CPU (icd_buffer_ops.c).
 */
#ifndef ICD_BUILTIN_H
#define ICD_BUILTIN_H

#include <stdbool.h>
#include <stddef.h>

#include "icd_object.h"
#include "icd_transfer.h"

/*
 * The folder the code is read from: $SLEIPNIR_DATA_DIR when set, else
 * the installed data folder (PREFIX/share/sleipnir), else, for a build
 * for the host only, firmware/cl/ of its build tree. Read once per
 * process, at the first context.
 */
const char *icd_builtin_dir(void);

/* The program of built-in kernels for a new context, or NULL (no GPU, the
 * files missing or malformed: the CPU does those commands). It does not
 * hold the context; icd_builtin_release() at the context's end frees it. */
cl_program icd_builtin_program_new(cl_context ctx);
void icd_builtin_release(cl_program program);

/*
 * Enqueue a checked fill or copy as a launch when the GPU can do it:
 * true, with the enqueue's result in *@err; false, with nothing done,
 * when it cannot (no built-in program, SLEIPNIR_CL_CPU_COPIES=1, sizes
 * one launch cannot hold) and the caller runs it on the CPU. @pattern is
 * 1..128 bytes, a power of two; @offset and @size multiples of it.
 */
bool icd_builtin_fill(cl_command_queue queue, cl_mem buffer,
		      const void *pattern, size_t pattern_size, size_t offset,
		      size_t size, cl_uint num_events,
		      const cl_event *wait_list, cl_event *event, cl_int *err);
/* @t: two buffers, boxes relative to each, region in bytes/rows/slices. */
bool icd_builtin_copy(cl_command_queue queue, cl_command_type type,
		      const struct icd_transfer *t, cl_uint num_events,
		      const cl_event *wait_list, cl_event *event, cl_int *err);

#endif
