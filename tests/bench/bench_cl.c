/* SPDX-License-Identifier: MIT */
/* The OpenCL set-up the benchmarks share (bench_cl.h). */
#include "bench_cl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_sleipnir.h"

void bench_cl_check(const struct bench_cl *b, cl_int err, const char *what)
{
	if (err == CL_SUCCESS)
		return;
	fprintf(stderr, "%s: %s failed: %d\n", b->name, what, err);
	exit(1);
}

/* Only the Sleipnir platform: another ICD in the loader's list must not
 * be what the figures describe. */
static void find_device(struct bench_cl *b)
{
	cl_platform_id ids[8];
	cl_uint n = 0;
	char name[64];

	BENCH_CL(b, clGetPlatformIDs(8, ids, &n));
	for (cl_uint i = 0; i < n && i < 8; i++) {
		if (clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name),
				      name, NULL) == CL_SUCCESS &&
		    strcmp(name, "Sleipnir") == 0)
			b->platform = ids[i];
	}
	if (!b->platform) {
		fprintf(stderr, "%s: no Sleipnir OpenCL platform\n", b->name);
		exit(1);
	}
	BENCH_CL(b, clGetDeviceIDs(b->platform, CL_DEVICE_TYPE_GPU, 1,
				   &b->device, NULL));
}

void bench_cl_init(struct bench_cl *b, const char *name)
{
	cl_context_properties props[] = {
		CL_CONTEXT_PLATFORM, 0, 0,
	};
	cl_int err;

	memset(b, 0, sizeof(*b));
	b->name = name;
	find_device(b);
	props[1] = (cl_context_properties)b->platform;
	b->context = clCreateContext(props, 1, &b->device, NULL, NULL, &err);
	bench_cl_check(b, err, "clCreateContext");
	b->queue = clCreateCommandQueue(b->context, b->device, 0, &err);
	bench_cl_check(b, err, "clCreateCommandQueue");
}

void bench_cl_fini(struct bench_cl *b)
{
	clReleaseCommandQueue(b->queue);
	clReleaseContext(b->context);
}

cl_kernel bench_cl_kernel(const struct bench_cl *b, const char *source,
			  const char *name, cl_program *program)
{
	cl_kernel k;
	cl_int err;

	*program = clCreateProgramWithSource(b->context, 1, &source, NULL, &err);
	bench_cl_check(b, err, "clCreateProgramWithSource");
	err = clBuildProgram(*program, 1, &b->device, "", NULL, NULL);
	if (err != CL_SUCCESS) {
		char log[4096] = "";

		clGetProgramBuildInfo(*program, b->device, CL_PROGRAM_BUILD_LOG,
				      sizeof(log) - 1, log, NULL);
		fprintf(stderr, "%s: build log:\n%s\n", b->name, log);
	}
	bench_cl_check(b, err, "clBuildProgram");
	k = clCreateKernel(*program, name, &err);
	bench_cl_check(b, err, "clCreateKernel");
	return k;
}

uint64_t bench_cl_bytes_copied(const struct bench_cl *b)
{
	cl_ulong bytes = 0;

	BENCH_CL(b, clGetDeviceInfo(b->device, CL_DEVICE_SLEIPNIR_BYTES_COPIED,
				    sizeof(bytes), &bytes, NULL));
	return bytes;
}
