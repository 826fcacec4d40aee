/* SPDX-License-Identifier: MIT */
/*
 * Program objects (spec §5.6): from source and from binary, builds with
 * options and logs, separate compilation and linking, queries, and the
 * errors. Builds are slow under TCG, so each test builds as little as its
 * point needs; most reuse the fixture's main program.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cl_api.h"

static const char *const main_kernels[] = {
	"ids",
	"vadd",
	"add_k",
	"mul_k",
	"local_reverse",
	"task_sum",
	"reqd4",
	"options_probe",
	"args_mix",
};
#define NUM_MAIN_KERNELS (sizeof(main_kernels) / sizeof(*main_kernels))

TEST(program_from_source)
{
	/* Three strings, one given by length without a NUL, one with
	 * length 0 (NUL-terminated) (§5.6.1). */
	const char *parts[3] = {
		"__kernel void a(__global int *p) { p[0] = 1; }\n",
		"__kernel void b(__global int *p) { p[0] = 2; }\nTRAILING",
		"__kernel void c(__global int *p) { p[0] = 3; }\n",
	};
	size_t lengths[3] = { 0, strlen(parts[1]) - strlen("TRAILING"), 0 };
	char want[512], got[512];
	cl_build_status status = 99;
	cl_program p;
	cl_kernel k;
	size_t n = 0;
	cl_uint refs;
	cl_int err = 1;

	snprintf(want, sizeof(want), "%s%.*s%s", parts[0], (int)lengths[1],
		 parts[1], parts[2]);
	p = clCreateProgramWithSource(api.ctx, 3, parts, lengths, &err);
	CHECK_ERR(err, CL_SUCCESS);
	REQUIRE(p);
	CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof(got), got, &n),
		  CL_SUCCESS);
	CHECK(strcmp(got, want) == 0);
	CHECK_EQ(n, strlen(want) + 1);
	/* Not built yet. */
	CHECK_ERR(clGetProgramBuildInfo(p, api.device, CL_PROGRAM_BUILD_STATUS,
					sizeof(status), &status, NULL),
		  CL_SUCCESS);
	CHECK_EQ(status, CL_BUILD_NONE);
	CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n,
				   NULL),
		  CL_INVALID_PROGRAM_EXECUTABLE);
	CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(got), got,
				   NULL),
		  CL_INVALID_PROGRAM_EXECUTABLE);
	CHECK_NULL_ERR(clCreateKernel(p, "a", &err), err,
		       CL_INVALID_PROGRAM_EXECUTABLE);
	refs = cl_api_refcount(p, REF_PROGRAM);
	CHECK_ERR(clRetainProgram(p), CL_SUCCESS);
	CHECK_EQ(cl_api_refcount(p, REF_PROGRAM), refs + 1);
	CHECK_ERR(clReleaseProgram(p), CL_SUCCESS);
	CHECK_EQ(cl_api_refcount(p, REF_PROGRAM), refs);
	CHECK_ERR(clRetainProgram((cl_program)api.queue), CL_INVALID_PROGRAM);
	CHECK_ERR(clReleaseProgram((cl_program)api.queue), CL_INVALID_PROGRAM);

	/* A build with the device named, then the three kernels. */
	CHECK_ERR(clBuildProgram(p, 1, &api.device, "", NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n,
				   NULL),
		  CL_SUCCESS);
	CHECK_EQ(n, 3);
	k = clCreateKernel(p, "b", &err);
	CHECK_ERR(err, CL_SUCCESS);
	/* §5.6.2: a build while kernels are attached is refused. */
	if (k) {
		CHECK_ERR(clBuildProgram(p, 0, NULL, "", NULL, NULL),
			  CL_INVALID_OPERATION);
		clReleaseKernel(k);
	}
	CHECK_ERR(clReleaseProgram(p), CL_SUCCESS);

	/* §5.6.1 clCreateProgramWithSource errors */
	CHECK_NULL_ERR(clCreateProgramWithSource(api.ctx, 0, parts, NULL, &err),
		       err, CL_INVALID_VALUE);
	CHECK_NULL_ERR(clCreateProgramWithSource(api.ctx, 1, NULL, NULL, &err),
		       err, CL_INVALID_VALUE);
	{
		const char *with_null[2] = { parts[0], NULL };

		CHECK_NULL_ERR(clCreateProgramWithSource(api.ctx, 2, with_null,
							 NULL, &err),
			       err, CL_INVALID_VALUE);
	}
	CHECK_NULL_ERR(clCreateProgramWithSource((cl_context)api.queue, 1,
						 parts, NULL, &err),
		       err, CL_INVALID_CONTEXT);
}

TEST(program_info)
{
	cl_context c = NULL;
	cl_device_id d = NULL;
	cl_uint n = 0;
	size_t nk = 0, bin_size = 0, size = 0;
	char names[1024];

	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_CONTEXT, sizeof(c), &c,
				   NULL),
		  CL_SUCCESS);
	CHECK(c == api.ctx);
	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_NUM_DEVICES, sizeof(n),
				   &n, NULL),
		  CL_SUCCESS);
	CHECK_EQ(n, 1);
	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_DEVICES, sizeof(d), &d,
				   NULL),
		  CL_SUCCESS);
	CHECK(d == api.device);
	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_NUM_KERNELS, sizeof(nk),
				   &nk, NULL),
		  CL_SUCCESS);
	CHECK_EQ(nk, NUM_MAIN_KERNELS);
	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_KERNEL_NAMES,
				   sizeof(names), names, &size),
		  CL_SUCCESS);
	CHECK_EQ(size, strlen(names) + 1);
	/* A semicolon-separated list of every kernel. */
	for (size_t i = 0; i < NUM_MAIN_KERNELS; i++) {
		size_t len = strlen(main_kernels[i]);
		bool found = false;

		for (const char *s = names; (s = strstr(s, main_kernels[i]));
		     s += len)
			found |= (s == names || s[-1] == ';') &&
				 (s[len] == ';' || s[len] == 0);
		if (!found)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "CL_PROGRAM_KERNEL_NAMES \"%s\" lacks %s",
				      names, main_kernels[i]);
	}
	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_BINARY_SIZES,
				   sizeof(bin_size), &bin_size, NULL),
		  CL_SUCCESS);
	CHECK(bin_size > 0);
	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_SOURCE, 0, NULL, &size),
		  CL_SUCCESS);
	CHECK_EQ(size, strlen(cl_api_main_source) + 1);
	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_CONTEXT, 2, &c, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetProgramInfo(api.prog, 0x7777, sizeof(c), &c, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetProgramInfo((cl_program)api.ctx, CL_PROGRAM_CONTEXT,
				   sizeof(c), &c, NULL),
		  CL_INVALID_PROGRAM);
}

TEST(program_build_info)
{
	cl_build_status status = 99;
	cl_program_binary_type type = 99;
	char options[256];
	size_t size = 0;

	CHECK_ERR(clGetProgramBuildInfo(api.prog, api.device,
					CL_PROGRAM_BUILD_STATUS, sizeof(status),
					&status, NULL),
		  CL_SUCCESS);
	CHECK_EQ(status, CL_BUILD_SUCCESS);
	CHECK_ERR(clGetProgramBuildInfo(api.prog, api.device,
					CL_PROGRAM_BUILD_OPTIONS,
					sizeof(options), options, NULL),
		  CL_SUCCESS);
	CHECK(strcmp(options, CL_API_MAIN_OPTIONS) == 0);
	CHECK_ERR(clGetProgramBuildInfo(api.prog, api.device,
					CL_PROGRAM_BUILD_LOG, 0, NULL, &size),
		  CL_SUCCESS);
	CHECK(size >= 1);
	CHECK_ERR(clGetProgramBuildInfo(api.prog, api.device,
					CL_PROGRAM_BINARY_TYPE, sizeof(type),
					&type, NULL),
		  CL_SUCCESS);
	CHECK_EQ(type, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
	CHECK_ERR(clGetProgramBuildInfo(api.prog, api.device, 0x7777,
					sizeof(type), &type, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetProgramBuildInfo(api.prog, api.device,
					CL_PROGRAM_BUILD_STATUS, 1, &status,
					NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetProgramBuildInfo(api.prog, (cl_device_id)api.ctx,
					CL_PROGRAM_BUILD_STATUS, sizeof(status),
					&status, NULL),
		  CL_INVALID_DEVICE);
	CHECK_ERR(clGetProgramBuildInfo((cl_program)api.ctx, api.device,
					CL_PROGRAM_BUILD_STATUS, sizeof(status),
					&status, NULL),
		  CL_INVALID_PROGRAM);
}

/* §5.6.2 clBuildProgram: what fails and how it is reported. */
TEST(build_errors)
{
	const char *bad =
		"__kernel void broken(__global int *p) { p[0] = ; }\n";
	const char *good =
		"__kernel void fine(__global int *p) { p[0] = 1; }\n";
	cl_device_id not_device = (cl_device_id)api.ctx;
	cl_build_status status = 99;
	char log[4096] = "";
	size_t size = 0;
	cl_program p;
	cl_int err = 1;

	p = clCreateProgramWithSource(api.ctx, 1, &bad, NULL, &err);
	REQUIRE(p);
	CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL),
		  CL_BUILD_PROGRAM_FAILURE);
	CHECK_ERR(clGetProgramBuildInfo(p, api.device, CL_PROGRAM_BUILD_STATUS,
					sizeof(status), &status, NULL),
		  CL_SUCCESS);
	CHECK_EQ(status, CL_BUILD_ERROR);
	CHECK_ERR(clGetProgramBuildInfo(p, api.device, CL_PROGRAM_BUILD_LOG,
					sizeof(log), log, &size),
		  CL_SUCCESS);
	CHECK(size > 1); /* the compiler said why */
	CHECK_NULL_ERR(clCreateKernel(p, "broken", &err), err,
		       CL_INVALID_PROGRAM_EXECUTABLE);
	CHECK_ERR(clReleaseProgram(p), CL_SUCCESS);

	p = clCreateProgramWithSource(api.ctx, 1, &good, NULL, &err);
	REQUIRE(p);
	CHECK_ERR(clBuildProgram(p, 0, NULL, "-no-such-option-sleipnir", NULL,
				 NULL),
		  CL_INVALID_BUILD_OPTIONS);
	CHECK_ERR(clBuildProgram(p, 1, NULL, NULL, NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clBuildProgram(p, 0, &api.device, NULL, NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, &err),
		  CL_INVALID_VALUE);
	CHECK_ERR(clBuildProgram(p, 1, &not_device, NULL, NULL, NULL),
		  CL_INVALID_DEVICE);
	CHECK_ERR(
		clBuildProgram((cl_program)api.ctx, 0, NULL, NULL, NULL, NULL),
		CL_INVALID_PROGRAM);
	CHECK_ERR(clReleaseProgram(p), CL_SUCCESS);
}

/*
 * §5.6.1 clCreateProgramWithBinary: the main program's binary, loaded in a
 * second context, builds without the source and runs there. A kernel of
 * one context on a queue of another is CL_INVALID_CONTEXT (§5.8).
 */
TEST(program_from_binary)
{
	cl_context c2 = clCreateContext(NULL, 1, &api.device, NULL, NULL, NULL);
	cl_command_queue q2 = NULL;
	size_t size = 0;
	unsigned char *bin = NULL;
	const unsigned char *bins[1];
	cl_int status = 1, err = 1;
	cl_program p = NULL;
	cl_kernel k = NULL, k1 = NULL;
	cl_mem a = NULL, b = NULL, c = NULL;
	float fa[64], fb[64], fc[64];
	size_t global = 64;
	cl_program_binary_type type = 99;
	bool ok = true;

	REQUIRE(c2);
	q2 = clCreateCommandQueue(c2, api.device, 0, &err);
	REQUIRE(q2);
	bin = cl_api_main_binary(&size);
	REQUIRE(bin);
	bins[0] = bin;
	p = clCreateProgramWithBinary(c2, 1, &api.device, &size, bins, &status,
				      &err);
	CHECK_ERR(err, CL_SUCCESS);
	CHECK_ERR(status, CL_SUCCESS);
	REQUIRE(p);
	CHECK_ERR(clGetProgramBuildInfo(p, api.device, CL_PROGRAM_BINARY_TYPE,
					sizeof(type), &type, NULL),
		  CL_SUCCESS);
	CHECK_EQ(type, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
	CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
	k = clCreateKernel(p, "vadd", &err);
	CHECK_ERR(err, CL_SUCCESS);
	REQUIRE(k);
	for (int i = 0; i < 64; i++) {
		fa[i] = (float)i * 0.5f;
		fb[i] = 100.0f - (float)i;
	}
	a = clCreateBuffer(c2, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			   sizeof(fa), fa, &err);
	b = clCreateBuffer(c2, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
			   sizeof(fb), fb, &err);
	c = clCreateBuffer(c2, CL_MEM_WRITE_ONLY, sizeof(fc), NULL, &err);
	REQUIRE(a && b && c);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(b), &b), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(c), &c), CL_SUCCESS);
	RUN_KERNEL(q2, k, 1, &global, NULL);
	CHECK_ERR(clEnqueueReadBuffer(q2, c, CL_TRUE, 0, sizeof(fc), fc, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < 64; i++)
		ok &= fc[i] == fa[i] + fb[i];
	CHECK(ok);
	/* The kernel of context 2 on a queue of the fixture's context. */
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 1, NULL, &global, NULL,
					 0, NULL, NULL),
		  CL_INVALID_CONTEXT);
	/* And a kernel of the fixture on queue 2. */
	k1 = cl_api_kernel("options_probe");
	if (k1) {
		cl_mem own = cl_api_buffer(CL_MEM_READ_WRITE, 64, NULL);

		CHECK_ERR(clSetKernelArg(k1, 0, sizeof(own), &own), CL_SUCCESS);
		CHECK_ERR(clEnqueueTask(q2, k1, 0, NULL, NULL),
			  CL_INVALID_CONTEXT);
		clReleaseKernel(k1);
		clReleaseMemObject(own);
	}

	/* §5.6.1 clCreateProgramWithBinary errors */
	{
		unsigned char junk[64];
		const unsigned char *junk_bins[1] = { junk };
		size_t junk_size = sizeof(junk), zero = 0;
		cl_device_id not_device = (cl_device_id)api.ctx;

		memset(junk, 0x5a, sizeof(junk));
		status = 1;
		CHECK_NULL_ERR(clCreateProgramWithBinary(c2, 1, &api.device,
							 &junk_size, junk_bins,
							 &status, &err),
			       err, CL_INVALID_BINARY);
		CHECK_ERR(status, CL_INVALID_BINARY);
		CHECK_NULL_ERR(clCreateProgramWithBinary(c2, 1, &api.device,
							 &zero, bins, NULL,
							 &err),
			       err, CL_INVALID_VALUE);
		CHECK_NULL_ERR(clCreateProgramWithBinary(c2, 1, &api.device,
							 NULL, bins, NULL,
							 &err),
			       err, CL_INVALID_VALUE);
		CHECK_NULL_ERR(clCreateProgramWithBinary(c2, 1, &api.device,
							 &size, NULL, NULL,
							 &err),
			       err, CL_INVALID_VALUE);
		CHECK_NULL_ERR(clCreateProgramWithBinary(c2, 0, &api.device,
							 &size, bins, NULL,
							 &err),
			       err, CL_INVALID_VALUE);
		CHECK_NULL_ERR(clCreateProgramWithBinary(c2, 1, &not_device,
							 &size, bins, NULL,
							 &err),
			       err, CL_INVALID_DEVICE);
	}
	CHECK_ERR(clFinish(q2), CL_SUCCESS);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseMemObject(c);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseCommandQueue(q2);
	clReleaseContext(c2);
	free(bin);
}

/* clBuildProgram on another thread, for rebuild_behind_launch. */
struct build_call {
	cl_program program;
	cl_int err;
};

static void *build_on_thread(void *arg)
{
	struct build_call *call = arg;

	call->err = clBuildProgram(call->program, 0, NULL, NULL, NULL, NULL);
	return NULL;
}

/*
 * §5.7.8 clReleaseKernel: the kernel is gone for the application at once,
 * though "enqueued commands that use kernel" still run; so a program whose
 * kernels were all released builds again (§5.6.2: CL_INVALID_OPERATION
 * only "if there are kernel objects attached"), even while a launch of
 * one is still queued, and that launch runs the code it was enqueued
 * with. piglit's api@clcreateprogramwithbinary does this without waiting.
 * The launch waits for a user event set while the build is called, so it
 * is queued, deterministically, when the build starts.
 */
TEST(rebuild_behind_launch)
{
	size_t size = 0, global = 64;
	unsigned char *bin = cl_api_main_binary(&size);
	const unsigned char *bins[1] = { bin };
	cl_int err = 1;
	cl_program p = NULL;
	cl_kernel k = NULL;
	cl_mem a = NULL, b = NULL, c = NULL;
	cl_event ue = NULL, run = NULL;
	float fa[64], fb[64], fc[64];
	struct build_call call = { .err = 1 };
	pthread_t builder;
	bool ok = true;

	REQUIRE(bin);
	p = clCreateProgramWithBinary(api.ctx, 1, &api.device, &size, bins,
				      NULL, &err);
	REQUIRE(p);
	CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
	k = clCreateKernel(p, "vadd", &err);
	REQUIRE(k);
	for (int i = 0; i < 64; i++) {
		fa[i] = (float)i * 0.25f;
		fb[i] = 3.0f * (float)i;
	}
	a = cl_api_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(fa),
			  fa);
	b = cl_api_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(fb),
			  fb);
	c = cl_api_buffer(CL_MEM_WRITE_ONLY, sizeof(fc), NULL);
	ue = clCreateUserEvent(api.ctx, &err);
	REQUIRE(a && b && c && ue);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(b), &b), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(c), &c), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 1, NULL, &global, NULL,
					 1, &ue, &run),
		  CL_SUCCESS);
	/* Attached: the application still holds the kernel. */
	CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL),
		  CL_INVALID_OPERATION);
	CHECK_ERR(clReleaseKernel(k), CL_SUCCESS);
	call.program = p;
	REQUIRE(pthread_create(&builder, NULL, build_on_thread, &call) == 0);
	cl_api_sleep_ms(50);
	CHECK_ERR(clSetUserEventStatus(ue, CL_COMPLETE), CL_SUCCESS);
	pthread_join(builder, NULL);
	CHECK_ERR(call.err, CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &run), CL_SUCCESS);
	CHECK_EQ(cl_api_event_status(run), CL_COMPLETE);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, c, CL_TRUE, 0, sizeof(fc), fc,
				      0, NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < 64; i++)
		ok &= fc[i] == fa[i] + fb[i];
	CHECK(ok);
	/* And the rebuilt program launches. */
	k = clCreateKernel(p, "vadd", &err);
	CHECK_ERR(err, CL_SUCCESS);
	if (k) {
		memset(fc, 0, sizeof(fc));
		CHECK_ERR(clEnqueueWriteBuffer(api.queue, c, CL_TRUE, 0,
					       sizeof(fc), fc, 0, NULL, NULL),
			  CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(k, 1, sizeof(b), &b), CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(k, 2, sizeof(c), &c), CL_SUCCESS);
		RUN_KERNEL(api.queue, k, 1, &global, NULL);
		CHECK_ERR(clEnqueueReadBuffer(api.queue, c, CL_TRUE, 0,
					      sizeof(fc), fc, 0, NULL, NULL),
			  CL_SUCCESS);
		ok = true;
		for (int i = 0; i < 64; i++)
			ok &= fc[i] == fb[i] + fb[i];
		CHECK(ok);
		clReleaseKernel(k);
	}
	clReleaseEvent(run);
	clReleaseEvent(ue);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseMemObject(c);
	clReleaseProgram(p);
	free(bin);
}

TEST(built_in_kernels)
{
	cl_int err;

	/* §5.6.1: the device has none, so any name is CL_INVALID_VALUE. */
	CHECK_NULL_ERR(
		clCreateProgramWithBuiltInKernels(api.ctx, 1, &api.device,
						  "sleipnir_nothing", &err),
		err, CL_INVALID_VALUE);
	CHECK_NULL_ERR(clCreateProgramWithBuiltInKernels(
			       api.ctx, 1, &api.device, NULL, &err),
		       err, CL_INVALID_VALUE);
}

static int link_notified;

static void CL_CALLBACK on_link(cl_program p, void *user_data)
{
	(void)p;
	__atomic_store_n((int *)user_data, 1, __ATOMIC_RELEASE);
}

/*
 * §5.6.3: clCompileProgram with an embedded header (input_headers and
 * header_include_names), clLinkProgram with a second compiled program
 * defining the function the first calls; the linked kernel runs. A link
 * missing that definition fails with CL_LINK_PROGRAM_FAILURE.
 */
TEST(compile_and_link)
{
	const char *main_src = cl_api_link_main_source;
	const char *lib_src = cl_api_link_lib_source;
	const char *hdr_src = cl_api_link_header;
	const char *hdr_name = "cl_api_defs.h";
	cl_program main_p = NULL, lib_p = NULL, hdr_p = NULL, linked = NULL,
		   broken = NULL;
	cl_program inputs[2];
	cl_program_binary_type type = 99;
	cl_kernel k = NULL;
	cl_mem buf = NULL;
	cl_int data[32], err = 1;
	size_t global = 32;
	cl_kernel_arg_address_qualifier aq = 0;
	bool ok = true;

	main_p = clCreateProgramWithSource(api.ctx, 1, &main_src, NULL, &err);
	lib_p = clCreateProgramWithSource(api.ctx, 1, &lib_src, NULL, &err);
	hdr_p = clCreateProgramWithSource(api.ctx, 1, &hdr_src, NULL, &err);
	REQUIRE(main_p && lib_p && hdr_p);
	/* §5.6.3 clCompileProgram errors */
	CHECK_ERR(clCompileProgram(main_p, 0, NULL, NULL, 1, NULL, &hdr_name,
				   NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clCompileProgram(main_p, 0, NULL, NULL, 0, &hdr_p, &hdr_name,
				   NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clCompileProgram(main_p, 0, NULL, NULL, 0, NULL, NULL, NULL,
				   &err),
		  CL_INVALID_VALUE);
	CHECK_ERR(clCompileProgram((cl_program)api.ctx, 0, NULL, NULL, 0, NULL,
				   NULL, NULL, NULL),
		  CL_INVALID_PROGRAM);

	CHECK_ERR(clCompileProgram(main_p, 1, &api.device, "", 1, &hdr_p,
				   &hdr_name, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clCompileProgram(lib_p, 0, NULL, NULL, 0, NULL, NULL, NULL,
				   NULL),
		  CL_SUCCESS);
	CHECK_ERR(clGetProgramBuildInfo(main_p, api.device,
					CL_PROGRAM_BINARY_TYPE, sizeof(type),
					&type, NULL),
		  CL_SUCCESS);
	CHECK_EQ(type, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);

	/* §5.6.3 clLinkProgram errors */
	inputs[0] = main_p;
	inputs[1] = lib_p;
	CHECK_NULL_ERR(clLinkProgram(api.ctx, 0, NULL, NULL, 0, inputs, NULL,
				     NULL, &err),
		       err, CL_INVALID_VALUE);
	CHECK_NULL_ERR(clLinkProgram(api.ctx, 0, NULL, NULL, 1, NULL, NULL,
				     NULL, &err),
		       err, CL_INVALID_VALUE);
	CHECK_NULL_ERR(clLinkProgram(api.ctx, 0, NULL, NULL, 2, inputs, NULL,
				     &err, &err),
		       err, CL_INVALID_VALUE);

	link_notified = 0;
	linked = clLinkProgram(api.ctx, 1, &api.device, NULL, 2, inputs,
			       on_link, &link_notified, &err);
	CHECK_ERR(err, CL_SUCCESS);
	REQUIRE(linked);
	/* The callback says the link finished (it may return first). */
	CHECK(cl_api_wait_flag(&link_notified, 1, 100000));
	CHECK_ERR(clGetProgramBuildInfo(linked, api.device,
					CL_PROGRAM_BINARY_TYPE, sizeof(type),
					&type, NULL),
		  CL_SUCCESS);
	CHECK_EQ(type, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
	k = clCreateKernel(linked, "linked", &err);
	CHECK_ERR(err, CL_SUCCESS);
	REQUIRE(k);
	for (int i = 0; i < 32; i++)
		data[i] = i - 16;
	buf = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			    sizeof(data), data);
	REQUIRE(buf);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
	RUN_KERNEL(api.queue, k, 1, &global, NULL);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, sizeof(data),
				      data, 0, NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < 32; i++)
		ok &= data[i] == 3 * (i - 16) + 100;
	if (!ok)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "linked kernel: data[0] = %d, expected %d",
			      data[0], 3 * -16 + 100);
	/* Compiled without -cl-kernel-arg-info: no argument information
	 * (§5.7.3 clGetKernelArgInfo). */
	CHECK_ERR(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
				     sizeof(aq), &aq, NULL),
		  CL_KERNEL_ARG_INFO_NOT_AVAILABLE);

	/* helper() defined nowhere. */
	broken = clLinkProgram(api.ctx, 0, NULL, NULL, 1, inputs, NULL, NULL,
			       &err);
	CHECK_ERR(err, CL_LINK_PROGRAM_FAILURE);
	if (broken)
		clReleaseProgram(broken);

	clReleaseMemObject(buf);
	clReleaseKernel(k);
	clReleaseProgram(linked);
	clReleaseProgram(main_p);
	clReleaseProgram(lib_p);
	clReleaseProgram(hdr_p);
}

/* §5.6.6: unloading the compiler is a hint; builds still work after it. */
TEST(unload_compiler)
{
	const char *src = "__kernel void after_unload(__global int *p)"
			  " { p[get_global_id(0)] = 42; }\n";
	cl_program p;

	CHECK_ERR(clUnloadPlatformCompiler(api.platform), CL_SUCCESS);
	CHECK_ERR(clUnloadPlatformCompiler((cl_platform_id)api.device),
		  CL_INVALID_PLATFORM);
	CHECK_ERR(clUnloadCompiler(), CL_SUCCESS);
	p = cl_api_build(api.ctx, src, NULL);
	CHECK(p != NULL);
	if (p)
		clReleaseProgram(p);
}

void cl_api_program_tests(void)
{
	API_RUN(program_from_source);
	API_RUN(program_info);
	API_RUN(program_build_info);
	API_RUN(build_errors);
	API_RUN(program_from_binary);
	API_RUN(rebuild_behind_launch);
	API_RUN(built_in_kernels);
	API_RUN(compile_and_link);
	API_RUN(unload_compiler);
	cl_api_kernel_tests();
}
