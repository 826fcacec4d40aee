/* SPDX-License-Identifier: MIT */
/*
 * Programs: source, binary or SPIR-V (IL) in, compiled by compiler/
 * (sleipnir_compiler.h) into a Sleipnir program binary, parsed into a
 * struct slb_program that kernels launch from. The code and __constant
 * data are uploaded to the context's GPU address space on first launch.
 *
 * icd_program.c makes, queries and uploads programs; icd_program_build.c
 * builds, compiles and links them.
 */
#ifndef ICD_PROGRAM_H
#define ICD_PROGRAM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "icd_object.h"
#include "sl_drm.h"
#include "slb_binary.h"
#include "sleipnir_compiler.h"

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
	/* The context's own fills and copies (icd_builtin.c): it does not
	 * hold the context, which frees it at its end. */
	bool builtin;
	char *source;                /* ICD_PROGRAM_SOURCE, NUL-terminated */
	uint8_t *il;                 /* ICD_PROGRAM_IL */
	size_t il_size;
	pthread_mutex_t lock;
	/* Build state, under lock (CL_PROGRAM_BUILD_STATUS, _OPTIONS, _LOG,
	 * CL_PROGRAM_BINARY_TYPE). A build, compile or link in progress
	 * holds build_status CL_BUILD_IN_PROGRESS; it runs without the
	 * lock, and everything else waits for none of it. */
	cl_build_status build_status;
	cl_program_binary_type binary_type;
	char *options;
	/* clGetKernelArgInfo answers (OpenCL 1.2 5.7.3): built or compiled
	 * from source with -cl-kernel-arg-info, or linked only from such
	 * objects. */
	bool arg_info;
	char *log;
	/* The binary (CL_PROGRAM_BINARIES): an executable, a compiled object
	 * or a library (binary_type says which), and the executable parsed,
	 * once built. prog does not change while kernels exist. */
	uint8_t *binary;
	size_t binary_size;
	bool built;                  /* prog is valid */
	struct slb_program prog;
	/* Kernels made from it: a build with kernels attached is
	 * CL_INVALID_OPERATION. */
	atomic_uint num_kernels;
	/* Launches enqueued and not ended (under lock): they use prog and
	 * the GPU copies, so a build waits until none is left. */
	unsigned int launches;
	pthread_cond_t launches_ended;
	/* GPU copies, made by icd_program_upload() on first launch (under
	 * lock, then the context's gpu_lock). A launch holds the program
	 * until the GPU is done with it, so they stay while in use: a
	 * rebuild needs num_kernels == 0 and waits for launches == 0.
	 * code_bo->va is where prog.code starts. */
	struct sl_bo *code_bo;
	struct sl_bo *constant_bo;
};

/* A new program of @context (retained) made from @from, build state
 * none; NULL with *err = CL_OUT_OF_HOST_MEMORY. */
cl_program icd_program_new(cl_context context, enum icd_program_source from,
			   cl_int *err);

bool icd_program_valid(cl_program program);
void icd_program_retain(cl_program program);
void icd_program_release(cl_program program);

/*
 * A launch of one of the program's kernels holds it (a reference, and
 * prog unchanged) from its enqueue until its command ends.
 */
void icd_program_hold_launch(cl_program program);
void icd_program_release_launch(cl_program program);

/* CL_PROGRAM_BINARY_TYPE of what the compiler calls @t. */
cl_program_binary_type icd_program_binary_type(enum slc_binary_type t);

/*
 * Ends a build, compile or link (CL_BUILD_IN_PROGRESS) with its result:
 * @status CL_BUILD_SUCCESS or CL_BUILD_ERROR, the options and the log
 * (copied), the binary and its type (taken over; NULL / NONE for none).
 * An executable is parsed into prog, which makes the program built; if
 * it does not parse, the build fails with the reason in the log. Returns
 * the status it ended with.
 */
cl_build_status icd_program_finish_build(cl_program program,
					 cl_build_status status,
					 const char *options, const char *log,
					 uint8_t *binary, size_t binary_size,
					 cl_program_binary_type type);

/*
 * Puts the program's code (and __constant data) in the context's GPU
 * address space, once; later calls return at once. 0 or a negative errno
 * (-ENODEV on the host's fake GPU, -ENOEXEC when not built). Called by
 * the queue thread before the first launch, without the context's
 * gpu_lock held (it takes it).
 */
int icd_program_upload(cl_program program);

/* cl_khr_il_program (icd_khr_icd.c hands it out by name). */
cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context,
						 const void *il,
						 size_t length,
						 cl_int *errcode_ret);

#endif
