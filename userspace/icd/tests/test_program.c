/* SPDX-License-Identifier: MIT */
/*
 * Programs: creation from source, binary and SPIR-V with their errors,
 * builds (logs, options, notify), binaries round-tripped through
 * CL_PROGRAM_BINARIES, clCompileProgram with embedded headers and
 * clLinkProgram into executables and libraries. The host runs the real
 * compiler (clang-15 and the rest must be installed); only the upload to
 * the GPU needs a device, and the fake one has none.
 */
#include <errno.h>
#include <stdlib.h>

#include "frontend/clc_frontend.h"
#include "icd_program.h"
#include "icd_tests.h"

static const char two_kernels[] =
	"__kernel void first(__global int *out) { out[0] = 1; }\n"
	"__kernel void second(__global int *out, int v) { out[1] = v; }\n";

static const char syntax_error[] =
	"__kernel void broken(__global int *out)\n"
	"{\n"
	"\tout[0] = 1\n"
	"}\n";

static const char uses_helper[] =
	"#include \"helper.h\"\n"
	"__kernel void scale(__global int *out) { out[0] = helper(2); }\n";

static const char helper_header[] = "int helper(int x);\n";

static const char defines_helper[] =
	"int helper(int x) { return x * 3; }\n";

static cl_program from_source(cl_context c, const char *src)
{
	return clCreateProgramWithSource(c, 1, &src, NULL, NULL);
}

static cl_build_status build_status(cl_program p)
{
	cl_build_status s = 99;

	clGetProgramBuildInfo(p, test_device(), CL_PROGRAM_BUILD_STATUS,
			      sizeof(s), &s, NULL);
	return s;
}

static cl_program_binary_type binary_type(cl_program p)
{
	cl_program_binary_type t = 99;

	clGetProgramBuildInfo(p, test_device(), CL_PROGRAM_BINARY_TYPE,
			      sizeof(t), &t, NULL);
	return t;
}

/* The build log, malloc'ed. */
static char *build_log(cl_program p)
{
	size_t size = 0;
	char *log;

	if (clGetProgramBuildInfo(p, test_device(), CL_PROGRAM_BUILD_LOG, 0,
				  NULL, &size))
		return NULL;
	log = malloc(size);
	if (log && clGetProgramBuildInfo(p, test_device(),
					 CL_PROGRAM_BUILD_LOG, size, log,
					 NULL)) {
		free(log);
		return NULL;
	}
	return log;
}

static cl_uint refs(cl_program p)
{
	cl_uint n = 0;

	clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof(n), &n, NULL);
	return n;
}

/* The program's binary, malloc'ed, in *size. */
static unsigned char *get_binary(cl_program p, size_t *size)
{
	unsigned char *bin;

	*size = 0;
	if (clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(*size), size,
			     NULL) || !*size)
		return NULL;
	bin = malloc(*size);
	if (bin && clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin),
				    &bin, NULL)) {
		free(bin);
		return NULL;
	}
	return bin;
}

TEST(create_with_source)
{
	cl_context c = test_context();
	const char *parts[3] = { "__kernel void k(", "__global int *o)XXX",
				 " { o[0] = 7; }" };
	/* 0: up to the NUL; the middle one cut before "XXX". */
	size_t lengths[3] = { 0, 16, 0 };
	cl_int err = 1;
	char src[128];
	size_t size = 0;
	cl_program p;

	REQUIRE(c);
	p = clCreateProgramWithSource(c, 3, parts, lengths, &err);
	REQUIRE(p);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK(*(const void *const *)p == (const void *)&icd_dispatch);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof(src), src,
				  &size), CL_SUCCESS);
	CHECK(!strcmp(src, "__kernel void k(__global int *o) { o[0] = 7; }"));
	CHECK_EQ(size, strlen(src) + 1);
	CHECK_EQ(build_status(p), CL_BUILD_NONE);
	CHECK_EQ(binary_type(p), CL_PROGRAM_BINARY_TYPE_NONE);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size),
				  &size, NULL), CL_SUCCESS);
	CHECK_EQ(size, 0);
	/* No executable yet. */
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(size),
				  &size, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(src),
				  src, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
	CHECK(clCreateKernel(p, "k", &err) == NULL);
	CHECK_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
	CHECK_EQ(refs(p), 1);
	CHECK_EQ(clRetainProgram(p), CL_SUCCESS);
	CHECK_EQ(refs(p), 2);
	CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
	CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
	CHECK_EQ(clRetainProgram(NULL), CL_INVALID_PROGRAM);
	CHECK_EQ(clReleaseProgram((cl_program)c), CL_INVALID_PROGRAM);

	/* Errors. */
	CHECK(clCreateProgramWithSource(NULL, 1, parts, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	CHECK(clCreateProgramWithSource(c, 0, parts, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateProgramWithSource(c, 1, NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	parts[1] = NULL;
	CHECK(clCreateProgramWithSource(c, 3, parts, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

static int notified;

static void CL_CALLBACK on_built(cl_program p, void *user_data)
{
	(void)p;
	notified += *(int *)user_data;
}

TEST(build)
{
	cl_context c = test_context();
	cl_device_id d = test_device(), other = (cl_device_id)c;
	cl_program p = from_source(c, two_kernels);
	char names[64], opts[64];
	size_t n = 0;
	int one = 1;
	char *log;

	REQUIRE(p);
	/* Device lists and callbacks. */
	CHECK_EQ(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL),
		 CL_INVALID_PROGRAM);
	CHECK_EQ(clBuildProgram(p, 1, NULL, NULL, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clBuildProgram(p, 0, &d, NULL, NULL, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clBuildProgram(p, 1, &other, NULL, NULL, NULL),
		 CL_INVALID_DEVICE);
	CHECK_EQ(clBuildProgram(p, 0, NULL, NULL, NULL, &one),
		 CL_INVALID_VALUE);
	CHECK_EQ(build_status(p), CL_BUILD_NONE);

	notified = 0;
	CHECK_EQ(clBuildProgram(p, 1, &d, "-DUNUSED=1 -cl-mad-enable",
				on_built, &one), CL_SUCCESS);
	CHECK_EQ(notified, 1);
	CHECK_EQ(build_status(p), CL_BUILD_SUCCESS);
	CHECK_EQ(binary_type(p), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
	CHECK_EQ(clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_OPTIONS,
				       sizeof(opts), opts, NULL), CL_SUCCESS);
	CHECK(!strcmp(opts, "-DUNUSED=1 -cl-mad-enable"));
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n,
				  NULL), CL_SUCCESS);
	CHECK_EQ(n, 2);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names),
				  names, &n), CL_SUCCESS);
	CHECK(!strcmp(names, "first;second"));
	CHECK_EQ(n, strlen("first;second") + 1);
	/* Too small an answer buffer. */
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 3, names,
				  NULL), CL_INVALID_VALUE);
	/* Build info rules. */
	CHECK_EQ(clGetProgramBuildInfo(p, other, CL_PROGRAM_BUILD_STATUS,
				       0, NULL, &n), CL_INVALID_DEVICE);
	CHECK_EQ(clGetProgramBuildInfo(p, d, 0x7777, 0, NULL, &n),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetProgramInfo(p, 0x7777, 0, NULL, &n), CL_INVALID_VALUE);
	/* A rebuild is fine while no kernel exists. */
	CHECK_EQ(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
	log = build_log(p);
	CHECK(log != NULL);
	free(log);

	/* Invalid options: CL_INVALID_BUILD_OPTIONS with the reason kept. */
	CHECK_EQ(clBuildProgram(p, 0, NULL, "-cl-no-such-option", NULL,
				NULL), CL_INVALID_BUILD_OPTIONS);
	CHECK_EQ(build_status(p), CL_BUILD_ERROR);
	log = build_log(p);
	CHECK(log && strstr(log, "-cl-no-such-option"));
	free(log);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n,
				  NULL), CL_INVALID_PROGRAM_EXECUTABLE);
	clReleaseProgram(p);

	/* A failed build: clang's diagnostics in the log. */
	p = from_source(c, syntax_error);
	REQUIRE(p);
	notified = 0;
	CHECK_EQ(clBuildProgram(p, 0, NULL, NULL, on_built, &one),
		 CL_BUILD_PROGRAM_FAILURE);
	CHECK_EQ(notified, 1);
	CHECK_EQ(build_status(p), CL_BUILD_ERROR);
	CHECK_EQ(binary_type(p), CL_PROGRAM_BINARY_TYPE_NONE);
	log = build_log(p);
	CHECK(log && strstr(log, "input.cl:3:"));
	CHECK(log && strstr(log, "error"));
	free(log);
	clReleaseProgram(p);
	clReleaseContext(c);
}

/*
 * A program without kernels builds (piglit builds ""): no kernels to
 * create or name, and its binary loads back as an executable.
 */
TEST(no_kernels)
{
	static const char *const sources[] = {
		"", " \n\t", "/* nothing */\n// at all\n",
		"int helper(int x) { return x; }\n",
	};
	cl_context c = test_context();
	cl_device_id d = test_device();

	REQUIRE(c);
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		cl_program p = from_source(c, sources[i]), q;
		unsigned char *bin;
		const unsigned char *cbin;
		cl_uint n = 99;
		size_t num = 99, size = 0;
		char names[8] = "x";
		cl_int err = 1, status = 1;

		REQUIRE(p);
		CHECK_EQ(clBuildProgram(p, 0, NULL, NULL, NULL, NULL),
			 CL_SUCCESS);
		CHECK_EQ(build_status(p), CL_BUILD_SUCCESS);
		CHECK_EQ(binary_type(p), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
		CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS,
					  sizeof(num), &num, NULL), CL_SUCCESS);
		CHECK_EQ(num, 0);
		CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES,
					  sizeof(names), names, &size),
			 CL_SUCCESS);
		CHECK(!strcmp(names, ""));
		CHECK_EQ(size, 1);
		CHECK_EQ(clCreateKernelsInProgram(p, 0, NULL, &n), CL_SUCCESS);
		CHECK_EQ(n, 0);
		CHECK(clCreateKernel(p, "helper", &err) == NULL);
		CHECK_EQ(err, CL_INVALID_KERNEL_NAME);

		bin = get_binary(p, &size);
		CHECK(bin != NULL);
		cbin = bin;
		q = bin ? clCreateProgramWithBinary(c, 1, &d, &size, &cbin,
						    &status, &err) : NULL;
		CHECK(q != NULL);
		if (q) {
			CHECK_EQ(status, CL_SUCCESS);
			CHECK_EQ(clBuildProgram(q, 0, NULL, NULL, NULL, NULL),
				 CL_SUCCESS);
			CHECK_EQ(clCreateKernelsInProgram(q, 0, NULL, &n),
				 CL_SUCCESS);
			CHECK_EQ(n, 0);
			clReleaseProgram(q);
		}
		free(bin);
		clReleaseProgram(p);
	}
	clReleaseContext(c);
}

TEST(binaries_round_trip)
{
	cl_context c = test_context();
	cl_device_id d = test_device(), two[2] = { d, d };
	cl_program p = from_source(c, two_kernels), q;
	const unsigned char *bins[2];
	unsigned char *bin, junk[64] = { 0x7f, 'E', 'L', 'F' };
	size_t size, lengths[2];
	cl_int status[2] = { 1, 1 }, err = 1;
	char names[64];
	cl_kernel k;

	REQUIRE(p);
	REQUIRE(clBuildProgram(p, 0, NULL, NULL, NULL, NULL) == CL_SUCCESS);
	bin = get_binary(p, &size);
	REQUIRE(bin);
	bins[0] = bins[1] = bin;
	lengths[0] = lengths[1] = size;
	q = clCreateProgramWithBinary(c, 1, &d, lengths, bins, status, &err);
	REQUIRE(q);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(status[0], CL_SUCCESS);
	CHECK_EQ(binary_type(q), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
	/* An executable binary is built: kernels come before any
	 * clBuildProgram (piglit's api@clcreateprogramwithbinary), which
	 * accepts the binary once they are gone. */
	CHECK_EQ(build_status(q), CL_BUILD_SUCCESS);
	k = clCreateKernel(q, "first", &err);
	CHECK(k != NULL);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clBuildProgram(q, 0, NULL, NULL, NULL, NULL),
		 CL_INVALID_OPERATION);
	CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
	CHECK_EQ(clCompileProgram(q, 0, NULL, NULL, 0, NULL, NULL, NULL,
				  NULL), CL_INVALID_OPERATION);
	CHECK_EQ(clBuildProgram(q, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
	CHECK_EQ(build_status(q), CL_BUILD_SUCCESS);
	CHECK_EQ(clGetProgramInfo(q, CL_PROGRAM_KERNEL_NAMES, sizeof(names),
				  names, NULL), CL_SUCCESS);
	CHECK(!strcmp(names, "first;second"));
	k = clCreateKernel(q, "second", &err);
	CHECK(k != NULL);
	CHECK_EQ(err, CL_SUCCESS);
	/* Not on the host's fake GPU. */
	CHECK_EQ(icd_program_upload(q), -ENODEV);
	clReleaseKernel(k);
	{
		/* The binary is what it was. */
		size_t size2;
		unsigned char *again = get_binary(q, &size2);

		CHECK(again && size2 == size && !memcmp(again, bin, size));
		free(again);
	}
	clReleaseProgram(q);

	/* Our one device twice. */
	q = clCreateProgramWithBinary(c, 2, two, lengths, bins, status, &err);
	CHECK(q != NULL);
	CHECK(status[0] == CL_SUCCESS && status[1] == CL_SUCCESS);
	clReleaseProgram(q);

	/* Errors, each binary's in binary_status. */
	bins[1] = junk;
	lengths[1] = sizeof(junk);
	CHECK(clCreateProgramWithBinary(c, 2, two, lengths, bins, status,
					&err) == NULL);
	CHECK_EQ(err, CL_INVALID_BINARY);
	CHECK(status[0] == CL_SUCCESS && status[1] == CL_INVALID_BINARY);
	lengths[1] = 0;
	CHECK(clCreateProgramWithBinary(c, 2, two, lengths, bins, status,
					&err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK_EQ(status[1], CL_INVALID_VALUE);
	/* A truncated binary. */
	lengths[0] = size / 2;
	CHECK(clCreateProgramWithBinary(c, 1, &d, lengths, bins, status,
					&err) == NULL);
	CHECK_EQ(err, CL_INVALID_BINARY);
	lengths[0] = size;
	CHECK(clCreateProgramWithBinary(c, 0, &d, lengths, bins, NULL,
					&err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateProgramWithBinary(c, 1, NULL, lengths, bins, NULL,
					&err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateProgramWithBinary(c, 1, &d, NULL, bins, NULL,
					&err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateProgramWithBinary(c, 1, (cl_device_id *)&c, lengths,
					bins, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_DEVICE);
	CHECK(clCreateProgramWithBinary(NULL, 1, &d, lengths, bins, NULL,
					&err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	free(bin);
	clReleaseProgram(p);
	clReleaseContext(c);
}

TEST(compile_and_link)
{
	cl_context c = test_context();
	cl_device_id d = test_device();
	cl_program main_p = from_source(c, uses_helper);
	cl_program helper_p = from_source(c, defines_helper);
	cl_program header = from_source(c, helper_header);
	cl_program objs[2], exe, lib, obj_copy, plain;
	const char *name = "helper.h";
	const unsigned char *bins[1];
	unsigned char *bin;
	size_t size;
	cl_int err = 1;
	char names[64];
	char *log;
	int one = 1;

	REQUIRE(main_p && helper_p && header);
	/* Header rules. */
	CHECK_EQ(clCompileProgram(main_p, 0, NULL, NULL, 1, NULL, &name,
				  NULL, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clCompileProgram(main_p, 0, NULL, NULL, 0, &header, NULL,
				  NULL, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clCompileProgram(main_p, 0, NULL, NULL, 1,
				  (cl_program *)&c, &name, NULL, NULL),
		 CL_INVALID_PROGRAM);
	/* Without its header the source does not compile. */
	CHECK_EQ(clCompileProgram(main_p, 0, NULL, NULL, 0, NULL, NULL, NULL,
				  NULL), CL_COMPILE_PROGRAM_FAILURE);
	log = build_log(main_p);
	CHECK(log && strstr(log, "helper.h"));
	free(log);
	CHECK_EQ(clCompileProgram(main_p, 0, NULL, "-cl-bogus", 1, &header,
				  &name, NULL, NULL),
		 CL_INVALID_COMPILER_OPTIONS);
	notified = 0;
	CHECK_EQ(clCompileProgram(main_p, 1, &d, "-DX=1", 1, &header, &name,
				  on_built, &one), CL_SUCCESS);
	CHECK_EQ(notified, 1);
	CHECK_EQ(build_status(main_p), CL_BUILD_SUCCESS);
	CHECK_EQ(binary_type(main_p), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
	CHECK(clCreateKernel(main_p, "scale", &err) == NULL);
	CHECK_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
	CHECK_EQ(clCompileProgram(helper_p, 0, NULL, NULL, 0, NULL, NULL,
				  NULL, NULL), CL_SUCCESS);

	/* The object through CL_PROGRAM_BINARIES and back. */
	bin = get_binary(helper_p, &size);
	REQUIRE(bin);
	bins[0] = bin;
	obj_copy = clCreateProgramWithBinary(c, 1, &d, &size, bins, NULL,
					     &err);
	REQUIRE(obj_copy);
	CHECK_EQ(binary_type(obj_copy),
		 CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
	free(bin);

	/* Link errors. */
	objs[0] = main_p;
	objs[1] = obj_copy;
	CHECK(clLinkProgram(NULL, 0, NULL, NULL, 2, objs, NULL, NULL,
			    &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	CHECK(clLinkProgram(c, 0, NULL, NULL, 0, objs, NULL, NULL,
			    &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clLinkProgram(c, 0, NULL, NULL, 2, NULL, NULL, NULL,
			    &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clLinkProgram(c, 0, NULL, NULL, 2, objs, NULL, &one,
			    &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clLinkProgram(c, 0, NULL, "-DX", 2, objs, NULL, NULL,
			    &err) == NULL);
	CHECK_EQ(err, CL_INVALID_LINKER_OPTIONS);
	CHECK(clLinkProgram(c, 0, NULL, "-enable-link-options", 2, objs,
			    NULL, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_LINKER_OPTIONS);
	plain = from_source(c, defines_helper);
	objs[1] = plain;
	CHECK(clLinkProgram(c, 0, NULL, NULL, 2, objs, NULL, NULL,
			    &err) == NULL);
	CHECK_EQ(err, CL_INVALID_OPERATION);
	objs[1] = (cl_program)c;
	CHECK(clLinkProgram(c, 0, NULL, NULL, 2, objs, NULL, NULL,
			    &err) == NULL);
	CHECK_EQ(err, CL_INVALID_PROGRAM);
	/* An unresolved helper: a program comes back with the log. */
	exe = clLinkProgram(c, 0, NULL, NULL, 1, &main_p, NULL, NULL, &err);
	CHECK_EQ(err, CL_LINK_PROGRAM_FAILURE);
	REQUIRE(exe);
	CHECK_EQ(build_status(exe), CL_BUILD_ERROR);
	log = build_log(exe);
	CHECK(log && strstr(log, "helper"));
	free(log);
	clReleaseProgram(exe);

	/* The link. */
	objs[1] = obj_copy;
	notified = 0;
	exe = clLinkProgram(c, 1, &d, "-cl-fast-relaxed-math", 2, objs,
			    on_built, &one, &err);
	REQUIRE(exe);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(notified, 1);
	CHECK_EQ(build_status(exe), CL_BUILD_SUCCESS);
	CHECK_EQ(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
	CHECK_EQ(clGetProgramInfo(exe, CL_PROGRAM_KERNEL_NAMES, sizeof(names),
				  names, NULL), CL_SUCCESS);
	CHECK(!strcmp(names, "scale"));
	/* A linked program has no source and cannot be built again. */
	CHECK_EQ(clGetProgramInfo(exe, CL_PROGRAM_SOURCE, sizeof(names),
				  names, &size), CL_SUCCESS);
	CHECK(size == 1 && !names[0]);
	CHECK_EQ(clBuildProgram(exe, 0, NULL, NULL, NULL, NULL),
		 CL_INVALID_OPERATION);
	clReleaseProgram(exe);

	/* A library, then an executable from it and the other object. */
	lib = clLinkProgram(c, 0, NULL, "-create-library -enable-link-options",
			    1, &obj_copy, NULL, NULL, &err);
	REQUIRE(lib);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(binary_type(lib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
	CHECK_EQ(clGetProgramInfo(lib, CL_PROGRAM_NUM_KERNELS, sizeof(size),
				  &size, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
	objs[1] = lib;
	exe = clLinkProgram(c, 0, NULL, NULL, 2, objs, NULL, NULL, &err);
	CHECK(exe != NULL);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
	clReleaseProgram(exe);
	/* A library's binary built on its own is linked to an executable. */
	clReleaseProgram(lib);
	objs[1] = obj_copy;
	lib = clLinkProgram(c, 0, NULL, "-create-library", 2, objs, NULL,
			    NULL, &err);
	REQUIRE(lib);
	bin = get_binary(lib, &size);
	REQUIRE(bin);
	bins[0] = bin;
	exe = clCreateProgramWithBinary(c, 1, &d, &size, bins, NULL, &err);
	REQUIRE(exe);
	CHECK_EQ(binary_type(exe), CL_PROGRAM_BINARY_TYPE_LIBRARY);
	CHECK_EQ(clBuildProgram(exe, 0, NULL, "-cl-fast-relaxed-math", NULL,
				NULL), CL_SUCCESS);
	CHECK_EQ(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
	CHECK_EQ(clGetProgramInfo(exe, CL_PROGRAM_KERNEL_NAMES, sizeof(names),
				  names, NULL), CL_SUCCESS);
	CHECK(!strcmp(names, "scale"));
	clReleaseProgram(exe);
	free(bin);

	/* No input holds an object: nothing is linked, no executable. */
	exe = clLinkProgram(c, 0, NULL, NULL, 1, &plain, NULL, NULL, &err);
	CHECK(exe != NULL);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(binary_type(exe), CL_PROGRAM_BINARY_TYPE_NONE);
	clReleaseProgram(exe);

	clReleaseProgram(lib);
	clReleaseProgram(plain);
	clReleaseProgram(obj_copy);
	clReleaseProgram(main_p);
	clReleaseProgram(helper_p);
	clReleaseProgram(header);
	clReleaseContext(c);
}

TEST(il_program)
{
	cl_context c = test_context();
	cl_platform_id plat = test_platform();
	clCreateProgramWithILKHR_fn create_il;
	struct clc_options o;
	struct clc_log log = { 0 };
	struct clc_spirv spv;
	uint32_t *swapped;
	char version[32], names[64];
	cl_int err = 1;
	size_t size = 0;
	cl_program p;
	uint8_t back[8], *back_all;

	REQUIRE(c);
	CHECK_EQ(clGetDeviceInfo(test_device(), CL_DEVICE_IL_VERSION_KHR,
				 sizeof(version), version, NULL), CL_SUCCESS);
	CHECK(!strcmp(version, "SPIR-V_1.0"));
	CHECK_EQ(clGetDeviceInfo(test_device(), CL_DEVICE_EXTENSIONS,
				 sizeof(names), NULL, &size), CL_SUCCESS);
	create_il = (clCreateProgramWithILKHR_fn)
		clGetExtensionFunctionAddressForPlatform(
			plat, "clCreateProgramWithILKHR");
	REQUIRE(create_il != NULL);
	CHECK(clGetExtensionFunctionAddress("clCreateProgramWithILKHR") ==
	      (void *)create_il);
	CHECK(clGetExtensionFunctionAddressForPlatform(
		      NULL, "clCreateProgramWithILKHR") == NULL);

	REQUIRE(clc_options_parse(NULL, &o, &log));
	REQUIRE(clc_compile(two_kernels, &o, &spv, &log) == SLC_OK);
	clc_options_free(&o);
	clc_log_free(&log);

	p = create_il(c, spv.words, spv.num_words * 4, &err);
	REQUIRE(p);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_IL_KHR, 0, NULL, &size),
		 CL_SUCCESS);
	CHECK_EQ(size, spv.num_words * 4);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_IL_KHR, sizeof(back), back,
				  NULL), CL_INVALID_VALUE);
	back_all = malloc(size);
	REQUIRE(back_all);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_IL_KHR, size, back_all,
				  NULL), CL_SUCCESS);
	CHECK(!memcmp(back_all, spv.words, size));
	free(back_all);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof(names), names,
				  &size), CL_SUCCESS);
	CHECK_EQ(size, 1);
	CHECK_EQ(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names),
				  names, NULL), CL_SUCCESS);
	CHECK(!strcmp(names, "first;second"));
	clReleaseProgram(p);

	/* The other byte order is SPIR-V too. */
	swapped = malloc(spv.num_words * 4);
	REQUIRE(swapped);
	for (size_t i = 0; i < spv.num_words; i++)
		swapped[i] = __builtin_bswap32(spv.words[i]);
	p = create_il(c, swapped, spv.num_words * 4, &err);
	CHECK(p != NULL);
	CHECK_EQ(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL,
				  NULL), CL_SUCCESS);
	CHECK_EQ(binary_type(p), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
	clReleaseProgram(p);
	free(swapped);

	/* A source program has no IL. */
	p = from_source(c, two_kernels);
	CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_IL_KHR, 0, NULL, &size),
		 CL_SUCCESS);
	CHECK_EQ(size, 0);
	clReleaseProgram(p);

	/* Errors. */
	CHECK(create_il(c, NULL, 20, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(create_il(c, spv.words, 0, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(create_il(c, spv.words, 6, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(create_il(c, "not SPIR-V, really not", 20, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(create_il(NULL, spv.words, spv.num_words * 4, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	free(spv.words);
	clReleaseContext(c);
}

void test_program_all(void)
{
	RUN(create_with_source);
	RUN(build);
	RUN(no_kernels);
	RUN(binaries_round_trip);
	RUN(compile_and_link);
	RUN(il_program);
}
