/* SPDX-License-Identifier: MIT */
/*
 * Kernels: creation and its errors, reference counts (a kernel holds its
 * program, a program with kernels cannot be rebuilt), clSetKernelArg's
 * rules for every kind of argument, and the kernel, argument and
 * work-group queries. The programs are built by the real compiler.
 */
#include <stdlib.h>

#include "icd_kernel.h"
#include "icd_mem.h"
#include "icd_program.h"
#include "icd_tests.h"

static const char kernels_src[] =
	"__kernel __attribute__((reqd_work_group_size(8, 4, 1)))\n"
	"void fixed(__global int *out) { out[get_global_id(0)] = 1; }\n"
	"__kernel void args(__global float *dst, __constant int *table,\n"
	"                   __local float *scratch, float4 v, int n,\n"
	"                   float3 w, __global const int * restrict src)\n"
	"{\n"
	"\tscratch[get_local_id(0)] = v.x + w.y + table[n];\n"
	"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
	"\tdst[get_global_id(0)] = scratch[0] + src[0];\n"
	"}\n"
	"__kernel void statics(__global int *out)\n"
	"{\n"
	"\t__local int tile[64];\n"
	"\ttile[get_local_id(0)] = 1;\n"
	"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
	"\tout[0] = tile[3];\n"
	"}\n";

static cl_context new_context(void)
{
	cl_device_id d = test_device();

	return clCreateContext(NULL, 1, &d, NULL, NULL, NULL);
}

static cl_program built_with(cl_context c, const char *options)
{
	const char *src = kernels_src;
	cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, NULL);

	if (p && clBuildProgram(p, 0, NULL, options, NULL, NULL)) {
		clReleaseProgram(p);
		return NULL;
	}
	return p;
}

static cl_program built(cl_context c)
{
	return built_with(c, NULL);
}

/* A memory object of @c as far as clSetKernelArg looks (a handle of the
 * right kind and context); it has no storage. */
static cl_mem fake_mem(cl_context c)
{
	cl_mem m = calloc(1, sizeof(*m));

	if (m) {
		icd_object_init(&m->obj, ICD_TYPE_MEM);
		m->context = c;
	}
	return m;
}

static void free_fake_mem(cl_mem m)
{
	icd_object_release(&m->obj);
	free(m);
}

static cl_uint kernel_refs(cl_kernel k)
{
	cl_uint n = 0;

	clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof(n), &n, NULL);
	return n;
}

TEST(create)
{
	cl_context c = new_context();
	cl_program p = built(c);
	cl_kernel k, all[3], few[2];
	cl_uint n = 0;
	cl_int err = 1;

	REQUIRE(p);
	CHECK(clCreateKernel(NULL, "args", &err) == NULL);
	CHECK_EQ(err, CL_INVALID_PROGRAM);
	CHECK(clCreateKernel(p, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK(clCreateKernel(p, "nope", &err) == NULL);
	CHECK_EQ(err, CL_INVALID_KERNEL_NAME);
	CHECK_EQ(p->num_kernels, 0);
	k = clCreateKernel(p, "args", &err);
	REQUIRE(k);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK(*(const void *const *)k == (const void *)&icd_dispatch);
	CHECK_EQ(p->num_kernels, 1);
	/* Attached kernels block a rebuild, and a compile. */
	CHECK_EQ(clBuildProgram(p, 0, NULL, NULL, NULL, NULL),
		 CL_INVALID_OPERATION);
	CHECK_EQ(clCompileProgram(p, 0, NULL, NULL, 0, NULL, NULL, NULL,
				  NULL), CL_INVALID_OPERATION);
	/* The kernel holds its program. */
	CHECK_EQ(clReleaseProgram(p), CL_SUCCESS);
	CHECK(icd_program_valid(p));
	CHECK_EQ(kernel_refs(k), 1);
	CHECK_EQ(clRetainKernel(k), CL_SUCCESS);
	CHECK_EQ(kernel_refs(k), 2);
	CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
	CHECK_EQ(clRetainProgram(p), CL_SUCCESS);
	CHECK_EQ(clReleaseKernel(k), CL_SUCCESS);
	CHECK_EQ(p->num_kernels, 0);
	CHECK_EQ(clRetainKernel(NULL), CL_INVALID_KERNEL);
	/* Free again: a rebuild works. */
	CHECK_EQ(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);

	CHECK_EQ(clCreateKernelsInProgram(p, 0, NULL, &n), CL_SUCCESS);
	CHECK_EQ(n, 3);
	CHECK_EQ(clCreateKernelsInProgram(p, 2, few, &n), CL_INVALID_VALUE);
	CHECK_EQ(p->num_kernels, 0);
	CHECK_EQ(clCreateKernelsInProgram(p, 3, all, NULL), CL_SUCCESS);
	CHECK_EQ(p->num_kernels, 3);
	for (int i = 0; i < 3; i++) {
		char name[16];

		CHECK_EQ(clGetKernelInfo(all[i], CL_KERNEL_FUNCTION_NAME,
					 sizeof(name), name, NULL),
			 CL_SUCCESS);
		CHECK(!strcmp(name, i == 0 ? "fixed" : i == 1 ? "args" :
			      "statics"));
		clReleaseKernel(all[i]);
	}
	CHECK_EQ(p->num_kernels, 0);
	CHECK_EQ(clCreateKernelsInProgram(NULL, 0, NULL, &n),
		 CL_INVALID_PROGRAM);
	clReleaseProgram(p);
	clReleaseContext(c);
}

TEST(set_args)
{
	cl_context c = new_context(), c2 = new_context();
	cl_program p = built(c);
	cl_kernel k;
	cl_mem m, other;
	cl_float4 v4 = { { 1, 2, 3, 4 } };
	cl_float3 v3 = { { 5, 6, 7 } };
	cl_int n = 3;
	cl_mem none = NULL;

	REQUIRE(p);
	k = clCreateKernel(p, "args", NULL);
	m = fake_mem(c);
	other = fake_mem(c2);
	REQUIRE(k && m && other);
	CHECK_EQ(clSetKernelArg(NULL, 0, sizeof(m), &m), CL_INVALID_KERNEL);
	CHECK_EQ(clSetKernelArg(k, 7, sizeof(m), &m), CL_INVALID_ARG_INDEX);
	/* __global and __constant pointers: a cl_mem of the context, or
	 * NULL either way. */
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(m), &m), CL_SUCCESS);
	CHECK(k->args[0].set && k->args[0].kind == SL_ARG_BUFFER &&
	      k->args[0].mem == m);
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(m) - 1, &m),
		 CL_INVALID_ARG_SIZE);
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(m), &other),
		 CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(c), &c), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clSetKernelArg(k, 1, sizeof(m), NULL), CL_SUCCESS);
	CHECK(k->args[1].set && k->args[1].mem == NULL);
	CHECK_EQ(clSetKernelArg(k, 6, sizeof(m), &none), CL_SUCCESS);
	CHECK(k->args[6].set && k->args[6].mem == NULL);
	/* __local: a size, no value. */
	CHECK_EQ(clSetKernelArg(k, 2, 64, &n), CL_INVALID_ARG_VALUE);
	CHECK_EQ(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
	CHECK(!k->args[2].set);
	CHECK_EQ(clSetKernelArg(k, 2, 100, NULL), CL_SUCCESS);
	CHECK(k->args[2].kind == SL_ARG_LOCAL && k->args[2].size == 100);
	/* By value: exactly the type's size. */
	CHECK_EQ(clSetKernelArg(k, 3, sizeof(v4), NULL),
		 CL_INVALID_ARG_VALUE);
	CHECK_EQ(clSetKernelArg(k, 3, sizeof(cl_float), &v4),
		 CL_INVALID_ARG_SIZE);
	CHECK_EQ(clSetKernelArg(k, 3, sizeof(v4), &v4), CL_SUCCESS);
	CHECK(k->args[3].kind == SL_ARG_VALUE && k->args[3].size == 16 &&
	      !memcmp(k->args[3].value, &v4, 16));
	CHECK_EQ(clSetKernelArg(k, 4, sizeof(cl_long), &n),
		 CL_INVALID_ARG_SIZE);
	CHECK_EQ(clSetKernelArg(k, 4, sizeof(n), &n), CL_SUCCESS);
	/* float3 takes a float4's room, as cl_float3 does. */
	CHECK_EQ(sizeof(v3), 16);
	CHECK_EQ(clSetKernelArg(k, 5, 12, &v3), CL_INVALID_ARG_SIZE);
	CHECK_EQ(clSetKernelArg(k, 5, sizeof(v3), &v3), CL_SUCCESS);
	clReleaseKernel(k);
	free_fake_mem(m);
	free_fake_mem(other);
	clReleaseProgram(p);
	clReleaseContext(c);
	clReleaseContext(c2);
}

TEST(kernel_info)
{
	cl_context c = new_context();
	cl_program p = built(c), got_p = NULL;
	cl_context got_c = NULL;
	cl_kernel fixed, args;
	char s[64];
	cl_uint n = 0;
	size_t size = 0;

	REQUIRE(p);
	fixed = clCreateKernel(p, "fixed", NULL);
	args = clCreateKernel(p, "args", NULL);
	REQUIRE(fixed && args);
	CHECK_EQ(clGetKernelInfo(args, CL_KERNEL_NUM_ARGS, sizeof(n), &n,
				 NULL), CL_SUCCESS);
	CHECK_EQ(n, 7);
	CHECK_EQ(clGetKernelInfo(args, CL_KERNEL_CONTEXT, sizeof(got_c),
				 &got_c, NULL), CL_SUCCESS);
	CHECK(got_c == c);
	CHECK_EQ(clGetKernelInfo(args, CL_KERNEL_PROGRAM, sizeof(got_p),
				 &got_p, NULL), CL_SUCCESS);
	CHECK(got_p == p);
	CHECK_EQ(clGetKernelInfo(fixed, CL_KERNEL_ATTRIBUTES, sizeof(s), s,
				 &size), CL_SUCCESS);
	CHECK(!strcmp(s, "reqd_work_group_size(8,4,1)"));
	CHECK_EQ(clGetKernelInfo(args, CL_KERNEL_ATTRIBUTES, sizeof(s), s,
				 &size), CL_SUCCESS);
	CHECK(size == 1 && !s[0]);
	CHECK_EQ(clGetKernelInfo(args, CL_KERNEL_FUNCTION_NAME, 2, s, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetKernelInfo(args, 0x7777, sizeof(s), s, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetKernelInfo(NULL, CL_KERNEL_NUM_ARGS, sizeof(n), &n,
				 NULL), CL_INVALID_KERNEL);
	clReleaseKernel(fixed);
	clReleaseKernel(args);
	clReleaseProgram(p);
	clReleaseContext(c);
}

TEST(arg_info)
{
	cl_context c = new_context();
	cl_program p = built_with(c, "-cl-kernel-arg-info"), plain = built(c);
	cl_kernel k;
	cl_kernel_arg_address_qualifier aq;
	cl_kernel_arg_access_qualifier acc;
	cl_kernel_arg_type_qualifier tq;
	char s[64];

	REQUIRE(p && plain);
	/* OpenCL 1.2 5.7.3: only with -cl-kernel-arg-info. */
	k = clCreateKernel(plain, "args", NULL);
	REQUIRE(k);
	CHECK_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof(s), s,
				    NULL), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
	clReleaseKernel(k);
	clReleaseProgram(plain);
	k = clCreateKernel(p, "args", NULL);
	REQUIRE(k);
#define ARG(i, what, var) \
	CHECK_EQ(clGetKernelArgInfo(k, i, what, sizeof(var), &var, NULL), \
		 CL_SUCCESS)
	ARG(0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, aq);
	CHECK_EQ(aq, CL_KERNEL_ARG_ADDRESS_GLOBAL);
	ARG(1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, aq);
	CHECK_EQ(aq, CL_KERNEL_ARG_ADDRESS_CONSTANT);
	ARG(2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, aq);
	CHECK_EQ(aq, CL_KERNEL_ARG_ADDRESS_LOCAL);
	ARG(3, CL_KERNEL_ARG_ADDRESS_QUALIFIER, aq);
	CHECK_EQ(aq, CL_KERNEL_ARG_ADDRESS_PRIVATE);
	ARG(0, CL_KERNEL_ARG_ACCESS_QUALIFIER, acc);
	CHECK_EQ(acc, CL_KERNEL_ARG_ACCESS_NONE);
	ARG(1, CL_KERNEL_ARG_TYPE_QUALIFIER, tq);
	CHECK_EQ(tq, CL_KERNEL_ARG_TYPE_CONST);
	ARG(6, CL_KERNEL_ARG_TYPE_QUALIFIER, tq);
	CHECK_EQ(tq, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT);
	ARG(4, CL_KERNEL_ARG_TYPE_QUALIFIER, tq);
	CHECK_EQ(tq, CL_KERNEL_ARG_TYPE_NONE);
#undef ARG
	CHECK_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof(s),
				    s, NULL), CL_SUCCESS);
	CHECK(!strcmp(s, "float*"));
	CHECK_EQ(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, sizeof(s),
				    s, NULL), CL_SUCCESS);
	CHECK(!strcmp(s, "float4"));
	CHECK_EQ(clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_NAME, sizeof(s), s,
				    NULL), CL_SUCCESS);
	CHECK(!strcmp(s, "n"));
	CHECK_EQ(clGetKernelArgInfo(k, 7, CL_KERNEL_ARG_NAME, sizeof(s), s,
				    NULL), CL_INVALID_ARG_INDEX);
	CHECK_EQ(clGetKernelArgInfo(k, 0, 0x7777, sizeof(s), s, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetKernelArgInfo(NULL, 0, CL_KERNEL_ARG_NAME, sizeof(s), s,
				    NULL), CL_INVALID_KERNEL);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseContext(c);
}

TEST(work_group_info)
{
	cl_context c = new_context();
	cl_device_id d = test_device();
	cl_program p = built(c);
	cl_kernel fixed, args, statics;
	size_t sz = 0, sizes[3] = { 9, 9, 9 }, device_max = 0;
	cl_ulong ul = 0, static_bytes;

	REQUIRE(p);
	fixed = clCreateKernel(p, "fixed", NULL);
	args = clCreateKernel(p, "args", NULL);
	statics = clCreateKernel(p, "statics", NULL);
	REQUIRE(fixed && args && statics);
	clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(device_max),
			&device_max, NULL);

	CHECK_EQ(clGetKernelWorkGroupInfo(fixed, d, CL_KERNEL_WORK_GROUP_SIZE,
					  sizeof(sz), &sz, NULL), CL_SUCCESS);
	CHECK_EQ(sz, 32);
	CHECK_EQ(clGetKernelWorkGroupInfo(fixed, NULL,
					  CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
					  sizeof(sizes), sizes, NULL),
		 CL_SUCCESS);
	CHECK(sizes[0] == 8 && sizes[1] == 4 && sizes[2] == 1);
	/* The compiled limit from the register count, never above the
	 * device's. */
	CHECK_EQ(clGetKernelWorkGroupInfo(args, d, CL_KERNEL_WORK_GROUP_SIZE,
					  sizeof(sz), &sz, NULL), CL_SUCCESS);
	CHECK(sz >= 64 && sz <= device_max);
	CHECK_EQ(sz, icd_kernel_max_wg_size(args));
	CHECK(sz <= args->info->max_wg_size);
	CHECK_EQ(clGetKernelWorkGroupInfo(args, d,
					  CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
					  sizeof(sizes), sizes, NULL),
		 CL_SUCCESS);
	CHECK(!sizes[0] && !sizes[1] && !sizes[2]);
	CHECK_EQ(clGetKernelWorkGroupInfo(args, d,
				CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
				sizeof(sz), &sz, NULL), CL_SUCCESS);
	CHECK_EQ(sz, 4);
	/* __local memory: the kernel's own, then the arguments set. */
	CHECK_EQ(clGetKernelWorkGroupInfo(statics, d, CL_KERNEL_LOCAL_MEM_SIZE,
					  sizeof(ul), &ul, NULL), CL_SUCCESS);
	CHECK(ul >= 64 * sizeof(cl_int));
	CHECK_EQ(clGetKernelWorkGroupInfo(args, d, CL_KERNEL_LOCAL_MEM_SIZE,
					  sizeof(ul), &ul, NULL), CL_SUCCESS);
	/* (The binary's static figure is the module's __local variables,
	 * which every kernel of the module is given.) */
	static_bytes = (args->info->local_static_bytes + 15) & ~15u;
	CHECK_EQ(ul, static_bytes);
	/* Each argument's share rounded up to 16 bytes, as the launch
	 * allocates it. */
	CHECK_EQ(clSetKernelArg(args, 2, 100, NULL), CL_SUCCESS);
	CHECK_EQ(clGetKernelWorkGroupInfo(args, d, CL_KERNEL_LOCAL_MEM_SIZE,
					  sizeof(ul), &ul, NULL), CL_SUCCESS);
	CHECK_EQ(ul, static_bytes + 112);
	CHECK_EQ(clGetKernelWorkGroupInfo(args, d, CL_KERNEL_PRIVATE_MEM_SIZE,
					  sizeof(ul), &ul, NULL), CL_SUCCESS);
	CHECK_EQ(ul, args->info->private_bytes);
	/* Errors. */
	CHECK_EQ(clGetKernelWorkGroupInfo(args, d, CL_KERNEL_GLOBAL_WORK_SIZE,
					  sizeof(sizes), sizes, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetKernelWorkGroupInfo(args, (cl_device_id)c,
					  CL_KERNEL_WORK_GROUP_SIZE,
					  sizeof(sz), &sz, NULL),
		 CL_INVALID_DEVICE);
	CHECK_EQ(clGetKernelWorkGroupInfo(args, d, CL_KERNEL_WORK_GROUP_SIZE,
					  1, &sz, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clGetKernelWorkGroupInfo(NULL, d, CL_KERNEL_WORK_GROUP_SIZE,
					  sizeof(sz), &sz, NULL),
		 CL_INVALID_KERNEL);
	clReleaseKernel(fixed);
	clReleaseKernel(args);
	clReleaseKernel(statics);
	clReleaseProgram(p);
	clReleaseContext(c);
}

void test_kernel_all(void)
{
	RUN(create);
	RUN(set_args);
	RUN(kernel_info);
	RUN(arg_info);
	RUN(work_group_info);
}
