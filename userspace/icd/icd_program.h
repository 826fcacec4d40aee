/* SPDX-License-Identifier: MIT */
/*
 * Programs: source, binary or SPIR-V (IL) in, compiled by compiler/
 * (sleipnir_compiler.h) into a Sleipnir program binary, parsed into a
 * struct slb_program that kernels launch from. The code and __constant
 * data are uploaded to the context's GPU address space on first launch.
 */
#ifndef ICD_PROGRAM_H
#define ICD_PROGRAM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "icd_object.h"
#include "sl_drm.h"
#include "slb_binary.h"

enum icd_program_source {
	ICD_PROGRAM_SOURCE,          /* clCreateProgramWithSource */
	ICD_PROGRAM_BINARY,          /* clCreateProgramWithBinary */
	ICD_PROGRAM_IL,              /* SPIR-V (clCreateProgramWithIL[KHR]) */
	ICD_PROGRAM_LINKED,          /* clLinkProgram */
};

struct _cl_program {
	struct icd_object obj;
	cl_context context;          /* retained */
	enum icd_program_source from;
	char *source;                /* ICD_PROGRAM_SOURCE, NUL-terminated */
	uint8_t *il;                 /* ICD_PROGRAM_IL */
	size_t il_size;
	pthread_mutex_t lock;
	/* Build state, under lock (CL_PROGRAM_BUILD_STATUS, _OPTIONS, _LOG,
	 * CL_PROGRAM_BINARY_TYPE). */
	cl_build_status build_status;
	cl_program_binary_type binary_type;
	char *options;
	char *log;
	/* The binary (CL_PROGRAM_BINARIES), and it parsed, once built. */
	uint8_t *binary;
	size_t binary_size;
	bool built;                  /* prog is valid */
	struct slb_program prog;
	/* Kernels made from it: a build with kernels attached is
	 * CL_INVALID_OPERATION. */
	atomic_uint num_kernels;
	/* GPU copies, made by icd_program_upload() on first launch. */
	struct sl_bo *code_bo;
	struct sl_bo *constant_bo;
};

bool icd_program_valid(cl_program program);
void icd_program_retain(cl_program program);
void icd_program_release(cl_program program);

/*
 * Puts the program's code (and __constant data) in the context's GPU
 * address space, once; later calls return at once. 0 or a negative errno.
 * Called by the queue thread before the first launch.
 */
int icd_program_upload(cl_program program);

#endif
