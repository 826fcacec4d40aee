/* SPDX-License-Identifier: MIT */
/*
 * What the OpenCL benchmarks share: the Sleipnir GPU through the ICD loader,
 * one context and an in-order queue without profiling (profiling adds
 * timestamp jobs to every launch, which is not what an application that
 * does not ask for it pays), the runtime's count of bytes it copied, and
 * ending the program on any OpenCL error with a message naming the call.
 */
#ifndef SLEIPNIR_BENCH_CL_H
#define SLEIPNIR_BENCH_CL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>

struct bench_cl {
	const char *name;            /* the program's, for messages */
	cl_platform_id platform;
	cl_device_id device;
	cl_context context;
	cl_command_queue queue;
};

/* Finds the Sleipnir platform's GPU and makes the context and queue. */
void bench_cl_init(struct bench_cl *b, const char *name);
void bench_cl_fini(struct bench_cl *b);

/* Exits with status 1 and a message when err is not CL_SUCCESS. */
void bench_cl_check(const struct bench_cl *b, cl_int err, const char *what);
#define BENCH_CL(b, call) bench_cl_check((b), (call), #call)

/*
 * Builds source and makes its kernel called name; *program is the caller's
 * to release. Exits with the build log on a build error.
 */
cl_kernel bench_cl_kernel(const struct bench_cl *b, const char *source,
			  const char *name, cl_program *program);

/*
 * The bytes the runtime has copied in this process so far (the Sleipnir
 * ICD's CL_DEVICE_SLEIPNIR_BYTES_COPIED); exits when it cannot tell, since
 * the zero-copy benchmark is about that figure.
 */
uint64_t bench_cl_bytes_copied(const struct bench_cl *b);

#endif
