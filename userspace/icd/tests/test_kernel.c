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
#include "sleipnir_compiler.h"

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
		m->type = CL_MEM_OBJECT_BUFFER;
	}
	return m;
}

/* The same for an image of @type with @flags. */
static cl_mem fake_image(cl_context c, cl_mem_object_type type,
			 cl_mem_flags flags)
{
	cl_mem m = fake_mem(c);

	if (m) {
		m->type = type;
		m->flags = flags;
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
	cl_context c = test_context();
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
	cl_context c = test_context(), c2 = test_context();
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
	cl_context c = test_context();
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
	cl_context c = test_context();
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
	cl_context c = test_context();
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
	CHECK_EQ(ul, 64 * sizeof(cl_int));
	CHECK_EQ(clGetKernelWorkGroupInfo(args, d, CL_KERNEL_LOCAL_MEM_SIZE,
					  sizeof(ul), &ul, NULL), CL_SUCCESS);
	/* statics' tile is not args': none of its own. */
	static_bytes = 0;
	CHECK_EQ(args->info->local_static_bytes, 0);
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

/*
 * A sampler_t parameter (piglit's clSetKernelArg test). OpenCL 1.2 5.7.2:
 * arg_size must be sizeof(cl_sampler) (CL_INVALID_ARG_SIZE), and a value
 * that is not a valid sampler object of the kernel's context is
 * CL_INVALID_SAMPLER; a sampler sets the argument to its CLK_* bits
 * (compiler/README.md, "Images and samplers: the launch ABI").
 */
static const char sampler_src[] =
	"typedef struct { int m1; int4 m2; float m3; } pair_t;\n"
	"__kernel void with_sampler(__global int *arr, float f,\n"
	"                           __local int *scratch, sampler_t smp,\n"
	"                           int3 v, pair_t s) {}\n";

TEST(sampler_args)
{
	cl_context c = test_context();
	const char *src = sampler_src;
	cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, NULL);
	cl_sampler smp = NULL;
	cl_kernel k = NULL;
	cl_int err = CL_SUCCESS;
	cl_kernel_arg_address_qualifier aq = 0;
	char s[32];

	REQUIRE(p);
	CHECK_EQ(clBuildProgram(p, 0, NULL, "-cl-kernel-arg-info", NULL,
				NULL), CL_SUCCESS);
	k = clCreateKernel(p, "with_sampler", &err);
	CHECK_EQ(err, CL_SUCCESS);
	REQUIRE(k);
	CHECK_EQ(k->info->num_args, 6);
	CHECK_EQ(k->info->args[3].kind, SLB_ARG_SAMPLER);
	CHECK_EQ(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, sizeof(s),
				    s, NULL), CL_SUCCESS);
	CHECK(!strcmp(s, "sampler_t"));
	CHECK_EQ(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
				    sizeof(aq), &aq, NULL), CL_SUCCESS);
	CHECK_EQ(aq, CL_KERNEL_ARG_ADDRESS_PRIVATE);
	CHECK_EQ(clSetKernelArg(k, 3, sizeof(cl_sampler), NULL),
		 CL_INVALID_SAMPLER);
	CHECK_EQ(clSetKernelArg(k, 3, sizeof(cl_sampler), &smp),
		 CL_INVALID_SAMPLER);
	CHECK_EQ(clSetKernelArg(k, 3, sizeof(cl_sampler), &c),
		 CL_INVALID_SAMPLER);
	CHECK(!k->args[3].set);
	if (SLC_DEVICE_IMAGE_SUPPORT) {
		cl_context c2 = test_context();
		cl_sampler foreign = clCreateSampler(c2, CL_FALSE,
						     CL_ADDRESS_REPEAT,
						     CL_FILTER_LINEAR, &err);

		smp = clCreateSampler(c, CL_TRUE, CL_ADDRESS_CLAMP_TO_EDGE,
				      CL_FILTER_NEAREST, &err);
		REQUIRE(smp && foreign);
		CHECK_EQ(clSetKernelArg(k, 3, sizeof(cl_sampler) + 1, &smp),
			 CL_INVALID_ARG_SIZE);
		CHECK_EQ(clSetKernelArg(k, 3, sizeof(cl_sampler), &foreign),
			 CL_INVALID_SAMPLER);
		CHECK(!k->args[3].set);
		CHECK_EQ(clSetKernelArg(k, 3, sizeof(cl_sampler), &smp),
			 CL_SUCCESS);
		/* CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |
		 * CLK_FILTER_NEAREST, as clang's opencl-c.h spells them. */
		CHECK(k->args[3].set && k->args[3].kind == SL_ARG_SAMPLER);
		CHECK_EQ(k->args[3].sampler, 0x1 | 0x2 | 0x10);
		clReleaseSampler(smp);
		clReleaseSampler(foreign);
		clReleaseContext(c2);
	}
	/* The arguments around it set as usual. */
	{
		cl_int3 v = { { 1, 2, 3 } };
		struct { cl_int m1; cl_int4 m2; cl_float m3; } pair = { 0 };
		cl_float f = 1.5f;

		CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), NULL),
			 CL_SUCCESS);
		CHECK_EQ(clSetKernelArg(k, 1, sizeof(f), &f), CL_SUCCESS);
		CHECK_EQ(clSetKernelArg(k, 2, 16, NULL), CL_SUCCESS);
		CHECK_EQ(clSetKernelArg(k, 4, sizeof(v), &v), CL_SUCCESS);
		CHECK_EQ(clSetKernelArg(k, 5, sizeof(pair), &pair),
			 CL_SUCCESS);
	}
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseContext(c);
}

/*
 * Image parameters (compiler/README.md, "Images and samplers"): the
 * program builds, clGetKernelArgInfo reports each image's access
 * qualifier (global address space, as clang records it), and
 * clSetKernelArg follows OpenCL 1.2 5.7.2: CL_INVALID_ARG_SIZE,
 * CL_INVALID_ARG_VALUE (no value, or an image whose access the qualifier
 * contradicts), CL_INVALID_MEM_OBJECT (not an image, or a buffer; an
 * image for a pointer).
 */
static const char image_src[] =
	"__kernel void with_images(read_only image2d_t a,\n"
	"                          __global int *out,\n"
	"                          write_only image2d_t b) {\n"
	"\tout[0] = get_image_width(a);\n"
	"\twrite_imagei(b, (int2)(0, 0), (int4)(1));\n"
	"}\n";

TEST(image_args)
{
	cl_context c = test_context();
	const char *src = image_src;
	cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, NULL);
	cl_kernel k = NULL;
	cl_int err = CL_SUCCESS;
	cl_kernel_arg_access_qualifier acc = 0;
	cl_kernel_arg_address_qualifier aq = 0;
	cl_kernel_arg_type_qualifier tq = 1;
	char s[32];

	REQUIRE(p);
	CHECK_EQ(clBuildProgram(p, 0, NULL, "-cl-kernel-arg-info", NULL,
				NULL), CL_SUCCESS);
	k = clCreateKernel(p, "with_images", &err);
	CHECK_EQ(err, CL_SUCCESS);
	REQUIRE(k);
	CHECK_EQ(k->info->args[0].kind, SLB_ARG_IMAGE);
	CHECK_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof(s),
				    s, NULL), CL_SUCCESS);
	CHECK(!strcmp(s, "image2d_t"));
	CHECK_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER,
				    sizeof(acc), &acc, NULL), CL_SUCCESS);
	CHECK_EQ(acc, CL_KERNEL_ARG_ACCESS_READ_ONLY);
	CHECK_EQ(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ACCESS_QUALIFIER,
				    sizeof(acc), &acc, NULL), CL_SUCCESS);
	CHECK_EQ(acc, CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
	CHECK_EQ(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER,
				    sizeof(acc), &acc, NULL), CL_SUCCESS);
	CHECK_EQ(acc, CL_KERNEL_ARG_ACCESS_NONE);
	CHECK_EQ(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
				    sizeof(aq), &aq, NULL), CL_SUCCESS);
	CHECK_EQ(aq, CL_KERNEL_ARG_ADDRESS_GLOBAL);
	CHECK_EQ(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER,
				    sizeof(tq), &tq, NULL), CL_SUCCESS);
	CHECK_EQ(tq, CL_KERNEL_ARG_TYPE_NONE);
	/* Any object (here the context) is not an image. */
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &c),
		 CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), NULL),
		 CL_INVALID_ARG_VALUE);
	CHECK_EQ(clSetKernelArg(k, 2, sizeof(cl_mem) + 1, &c),
		 CL_INVALID_ARG_SIZE);
	CHECK(!k->args[0].set && !k->args[2].set);
	CHECK_EQ(clSetKernelArg(k, 1, sizeof(cl_mem), NULL), CL_SUCCESS);
	{
		cl_mem buf = fake_mem(c);
		cl_mem ro = fake_image(c, CL_MEM_OBJECT_IMAGE2D,
				       CL_MEM_READ_ONLY);
		cl_mem wo = fake_image(c, CL_MEM_OBJECT_IMAGE2D,
				       CL_MEM_WRITE_ONLY);
		cl_mem rw = fake_image(c, CL_MEM_OBJECT_IMAGE2D, 0);

		REQUIRE(buf && ro && wo && rw);
		/* A buffer is not an image, nor an image a buffer. */
		CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &buf),
			 CL_INVALID_MEM_OBJECT);
		CHECK_EQ(clSetKernelArg(k, 1, sizeof(cl_mem), &ro),
			 CL_INVALID_MEM_OBJECT);
		/* read_only a takes no write-only image, write_only b no
		 * read-only one. */
		CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &wo),
			 CL_INVALID_ARG_VALUE);
		CHECK_EQ(clSetKernelArg(k, 2, sizeof(cl_mem), &ro),
			 CL_INVALID_ARG_VALUE);
		CHECK(!k->args[0].set && !k->args[2].set);
		CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &ro),
			 CL_SUCCESS);
		CHECK_EQ(clSetKernelArg(k, 2, sizeof(cl_mem), &wo),
			 CL_SUCCESS);
		CHECK(k->args[0].kind == SL_ARG_IMAGE &&
		      k->args[0].mem == ro);
		CHECK(k->args[2].kind == SL_ARG_IMAGE &&
		      k->args[2].mem == wo);
		CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &rw),
			 CL_SUCCESS);
		CHECK_EQ(clSetKernelArg(k, 2, sizeof(cl_mem), &rw),
			 CL_SUCCESS);
		free_fake_mem(buf);
		free_fake_mem(ro);
		free_fake_mem(wo);
		free_fake_mem(rw);
	}
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseContext(c);
}

/*
 * Sixteen float4 values live at once: more than 8 work registers, so at
 * most 64 threads of it fit on a core at a time. Only a work-group that
 * meets at a barrier must be resident at once; the other kernel's groups
 * run in turns, so CL_KERNEL_WORK_GROUP_SIZE is the device's maximum
 * (PyOpenCL sizes clrandom's launches by CL_DEVICE_MAX_WORK_GROUP_SIZE).
 */
#define WIDE_BODY \
	"\tsize_t i = get_global_id(0) * 16;\n" \
	"\tfloat4 a0 = d[i], a1 = d[i + 1], a2 = d[i + 2], a3 = d[i + 3];\n" \
	"\tfloat4 a4 = d[i + 4], a5 = d[i + 5], a6 = d[i + 6];\n" \
	"\tfloat4 a7 = d[i + 7], a8 = d[i + 8], a9 = d[i + 9];\n" \
	"\tfloat4 a10 = d[i + 10], a11 = d[i + 11], a12 = d[i + 12];\n" \
	"\tfloat4 a13 = d[i + 13], a14 = d[i + 14], a15 = d[i + 15];\n" \
	"\tfloat4 s = a0 * a15 + a1 * a14 + a2 * a13 + a3 * a12 +\n" \
	"\t\t   a4 * a11 + a5 * a10 + a6 * a9 + a7 * a8;\n"
#define WIDE_STORES \
	"\td[i] = a0 * s; d[i + 1] = a1 * s; d[i + 2] = a2 * s;\n" \
	"\td[i + 3] = a3 * s; d[i + 4] = a4 * s; d[i + 5] = a5 * s;\n" \
	"\td[i + 6] = a6 * s; d[i + 7] = a7 * s; d[i + 8] = a8 * s;\n" \
	"\td[i + 9] = a9 * s; d[i + 10] = a10 * s; d[i + 11] = a11 * s;\n" \
	"\td[i + 12] = a12 * s; d[i + 13] = a13 * s;\n" \
	"\td[i + 14] = a14 * s; d[i + 15] = a15 * s;\n"

/* @k over 4 groups of @local work-items; waits for it when enqueued. */
static cl_int launch_1d(cl_command_queue q, cl_kernel k, size_t local)
{
	size_t global = 4 * local;
	cl_event e = NULL;
	cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0,
					    NULL, &e);

	if (!err) {
		/* No GPU behind the fake device: the command fails later. */
		clWaitForEvents(1, &e);
		clReleaseEvent(e);
	}
	return err;
}

static const char wide_src[] =
	"__kernel void wide(__global float4 *d)\n{\n"
	WIDE_BODY WIDE_STORES
	"}\n"
	"__kernel void wide_barrier(__global float4 *d)\n{\n"
	WIDE_BODY
	"\tbarrier(CLK_GLOBAL_MEM_FENCE);\n"
	WIDE_STORES
	"}\n";

TEST(work_group_size_and_barriers)
{
	cl_context c = test_context();
	cl_device_id d = test_device();
	const char *src = wide_src;
	cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, NULL);
	cl_kernel wide = NULL, wide_barrier = NULL;
	size_t sz = 0, device_max = 0;
	cl_command_queue q;
	cl_int err;

	REQUIRE(p);
	REQUIRE(clBuildProgram(p, 0, NULL, NULL, NULL, NULL) == CL_SUCCESS);
	wide = clCreateKernel(p, "wide", NULL);
	wide_barrier = clCreateKernel(p, "wide_barrier", NULL);
	REQUIRE(wide && wide_barrier);
	REQUIRE(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE,
				sizeof(device_max), &device_max,
				NULL) == CL_SUCCESS);
	/* Both really need more than 8 registers (at most 64 threads). */
	CHECK(wide->info->work_regs > 8);
	CHECK_EQ(wide->info->threads_per_core, 64);
	CHECK(!wide->info->barrier);
	CHECK(wide_barrier->info->work_regs > 8);
	CHECK(wide_barrier->info->barrier);
	CHECK_EQ(clGetKernelWorkGroupInfo(wide, d, CL_KERNEL_WORK_GROUP_SIZE,
					  sizeof(sz), &sz, NULL), CL_SUCCESS);
	CHECK_EQ(sz, device_max);
	CHECK_EQ(clGetKernelWorkGroupInfo(wide_barrier, d,
					  CL_KERNEL_WORK_GROUP_SIZE,
					  sizeof(sz), &sz, NULL), CL_SUCCESS);
	CHECK_EQ(sz, wide_barrier->info->threads_per_core);
	/* Launches: up to each kernel's size; past the barrier kernel's but
	 * within the device's is the lack of registers (OpenCL 1.2 5.8). */
	q = clCreateCommandQueue(c, d, 0, &err);
	REQUIRE(q);
	CHECK_EQ(clSetKernelArg(wide, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(wide_barrier, 0, sizeof(cl_mem), NULL),
		 CL_SUCCESS);
	CHECK_EQ(launch_1d(q, wide, device_max), CL_SUCCESS);
	CHECK_EQ(launch_1d(q, wide_barrier, 64), CL_SUCCESS);
	CHECK_EQ(launch_1d(q, wide_barrier, 128), CL_OUT_OF_RESOURCES);
	CHECK_EQ(launch_1d(q, wide_barrier, device_max), CL_OUT_OF_RESOURCES);
	CHECK_EQ(launch_1d(q, wide, 2 * device_max),
		 CL_INVALID_WORK_GROUP_SIZE);
	CHECK_EQ(launch_1d(q, wide_barrier, 2 * device_max),
		 CL_INVALID_WORK_GROUP_SIZE);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	clReleaseCommandQueue(q);
	clReleaseKernel(wide);
	clReleaseKernel(wide_barrier);
	clReleaseProgram(p);
	clReleaseContext(c);
}

/*
 * Each kernel's __local memory is its own __local variables (OpenCL 1.2
 * 6.5.2: declared inside a kernel function; a helper reaches them by
 * pointer) and its __local arguments (5.7.3, CL_KERNEL_LOCAL_MEM_SIZE);
 * a program whose kernels need 20 KiB each, 40 KiB together, launches
 * every one of them. A launch that needs more than CL_DEVICE_LOCAL_MEM_SIZE
 * fails with CL_OUT_OF_RESOURCES (5.8: "insufficient resources such as
 * registers or local memory").
 */
static const char local_src[] =
	"#define N 5120\n"
	"void fill(__local uint *t, uint n, uint v)\n"
	"{\n"
	"\tfor (uint i = get_local_id(0); i < n; i += get_local_size(0))\n"
	"\t\tt[i] = v + i;\n"
	"}\n"
	"__kernel void a(__global uint *out)\n"
	"{\n"
	"\t__local uint x[N];\n"
	"\tfill(x, N, 1);\n"
	"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
	"\tout[get_global_id(0)] = x[N - 1 - get_local_id(0)];\n"
	"}\n"
	"__kernel void b(__global uint *out, __local uint *arg)\n"
	"{\n"
	"\t__local uint y[N / 2], z[N / 2];\n"
	"\tfill(y, N / 2, 2);\n"
	"\tfill(z, N / 2, 3);\n"
	"\targ[get_local_id(0)] = 1;\n"
	"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
	"\tout[get_global_id(0)] = y[get_local_id(0)] + z[1] + arg[0];\n"
	"}\n"
	"__kernel void big(__global uint *out)\n"
	"{\n"
	"\t__local uint w[2 * N];\n"
	"\tfill(w, 2 * N, 4);\n"
	"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
	"\tout[0] = w[7];\n"
	"}\n"
	"__kernel void none(__global uint *out) { out[0] = 5; }\n";

static cl_ulong local_mem_size(cl_kernel k)
{
	cl_ulong ul = 0;

	CHECK_EQ(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_LOCAL_MEM_SIZE,
					  sizeof(ul), &ul, NULL), CL_SUCCESS);
	return ul;
}

/* Enqueues k over 64 work-items in groups of 16; waits when enqueued. */
static cl_int launch(cl_command_queue q, cl_kernel k)
{
	size_t global = 64, local = 16;
	cl_event e = NULL;
	cl_int err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0,
					    NULL, &e);

	if (!err) {
		/* No GPU behind the fake device: the command fails later. */
		clWaitForEvents(1, &e);
		clReleaseEvent(e);
	}
	return err;
}

TEST(local_memory_per_kernel)
{
	cl_context c = test_context();
	const char *src = local_src;
	cl_ulong device_local = 0;
	cl_command_queue q;
	cl_program p;
	cl_kernel a, b, big, none;
	cl_int err;

	REQUIRE(c);
	CHECK_EQ(clGetDeviceInfo(test_device(), CL_DEVICE_LOCAL_MEM_SIZE,
				 sizeof(device_local), &device_local, NULL),
		 CL_SUCCESS);
	/* The test's premise: two kernels' 20 KiB do not fit together. */
	CHECK(device_local >= 20480 + 4096 && device_local < 2 * 20480);
	q = clCreateCommandQueue(c, test_device(), 0, &err);
	p = clCreateProgramWithSource(c, 1, &src, NULL, &err);
	REQUIRE(q && p);
	REQUIRE(clBuildProgram(p, 0, NULL, NULL, NULL, NULL) == CL_SUCCESS);
	a = clCreateKernel(p, "a", NULL);
	b = clCreateKernel(p, "b", NULL);
	big = clCreateKernel(p, "big", NULL);
	none = clCreateKernel(p, "none", NULL);
	REQUIRE(a && b && big && none);

	CHECK_EQ(local_mem_size(a), 20480);
	CHECK_EQ(local_mem_size(b), 20480);
	CHECK_EQ(local_mem_size(big), 40960);
	CHECK_EQ(local_mem_size(none), 0);
	/* The __local argument's size joins once set (rounded to 16). */
	CHECK_EQ(clSetKernelArg(b, 1, 4000, NULL), CL_SUCCESS);
	CHECK_EQ(local_mem_size(b), 20480 + 4000);
	CHECK_EQ(clSetKernelArg(b, 1, 4090, NULL), CL_SUCCESS);
	CHECK_EQ(local_mem_size(b), 20480 + 4096);

	/* (A NULL buffer: the fake device has no memory to give.) */
	for (int i = 0; i < 4; i++)
		CHECK_EQ(clSetKernelArg((cl_kernel[]){ a, b, big, none }[i], 0,
					sizeof(cl_mem), NULL), CL_SUCCESS);
	CHECK_EQ(launch(q, a), CL_SUCCESS);
	CHECK_EQ(launch(q, none), CL_SUCCESS);
	/* Up to the device's local memory exactly, and one step past. */
	CHECK_EQ(clSetKernelArg(b, 1, device_local - 20480, NULL),
		 CL_SUCCESS);
	CHECK_EQ(local_mem_size(b), device_local);
	CHECK_EQ(launch(q, b), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(b, 1, device_local - 20480 + 1, NULL),
		 CL_SUCCESS);
	CHECK_EQ(launch(q, b), CL_OUT_OF_RESOURCES);
	/* More than any descriptor gives: still the resources' error. */
	CHECK_EQ(clSetKernelArg(b, 1, (size_t)1 << 31, NULL), CL_SUCCESS);
	CHECK_EQ(launch(q, b), CL_OUT_OF_RESOURCES);
	/* Its own __local variables alone are too many. */
	CHECK_EQ(launch(q, big), CL_OUT_OF_RESOURCES);
	CHECK_EQ(clFinish(q), CL_SUCCESS);

	clReleaseKernel(a);
	clReleaseKernel(b);
	clReleaseKernel(big);
	clReleaseKernel(none);
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
}

/* n characters: c repeated, then the digit d (an identifier). */
static char *long_identifier(char c, size_t n, char d)
{
	char *s = malloc(n + 1);

	if (s) {
		memset(s, c, n - 1);
		s[n - 1] = d;
		s[n] = '\0';
	}
	return s;
}

/* The string query q of k (kernel info, or argument info of arg). */
static char *kernel_string(cl_kernel k, int arg, cl_uint q)
{
	size_t size = 0;
	char *s;
	cl_int err = arg < 0 ?
		clGetKernelInfo(k, q, 0, NULL, &size) :
		clGetKernelArgInfo(k, (cl_uint)arg, q, 0, NULL, &size);

	if (err || !size || !(s = malloc(size)))
		return NULL;
	err = arg < 0 ? clGetKernelInfo(k, q, size, s, NULL) :
			clGetKernelArgInfo(k, (cl_uint)arg, q, size, s, NULL);
	if (err || strlen(s) + 1 != size) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * OpenCL limits no name's length: kernel names of 300 and 4000 characters
 * (the conformance suite's 256 and beyond), and argument and type names of
 * the same lengths, through the build, clCreateKernel,
 * clCreateKernelsInProgram, CL_KERNEL_FUNCTION_NAME, CL_PROGRAM_KERNEL_NAMES
 * and, with -cl-kernel-arg-info, CL_KERNEL_ARG_NAME / _TYPE_NAME.
 */
TEST(long_names)
{
	static const size_t lengths[] = { 300, 4000 };
	cl_context c = test_context();

	REQUIRE(c);
	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		size_t n = lengths[i], size = 0;
		char *k1 = long_identifier('k', n, '1');
		char *k2 = long_identifier('k', n, '2');
		char *arg = long_identifier('a', n, '0');
		char *type = long_identifier('T', n, '0');
		char *src = malloc(7 * n + 256), *s, *names, *want;
		cl_kernel k, all[2] = { NULL, NULL };
		cl_program p;
		cl_uint num = 0;

		REQUIRE(k1 && k2 && arg && type && src);
		snprintf(src, 7 * n + 256,
			 "typedef int %s;\n"
			 "__kernel void %s(__global %s *%s) { %s[0] = 1; }\n"
			 "__kernel void %s(int x) { }\n",
			 type, k1, type, arg, arg, k2);
		p = clCreateProgramWithSource(c, 1, (const char **)&src, NULL,
					      NULL);
		REQUIRE(p);
		if (clBuildProgram(p, 0, NULL, "-cl-kernel-arg-info", NULL,
				   NULL)) {
			char log[4096] = "";

			clGetProgramBuildInfo(p, test_device(),
					      CL_PROGRAM_BUILD_LOG, sizeof(log),
					      log, NULL);
			CHECK_FAIL_AT(__FILE__, __LINE__, "build: %s", log);
		}
		k = clCreateKernel(p, k1, NULL);
		CHECK(k != NULL);
		if (k) {
			s = kernel_string(k, -1, CL_KERNEL_FUNCTION_NAME);
			CHECK(s && !strcmp(s, k1));
			free(s);
			s = kernel_string(k, 0, CL_KERNEL_ARG_NAME);
			CHECK(s && !strcmp(s, arg));
			free(s);
			s = kernel_string(k, 0, CL_KERNEL_ARG_TYPE_NAME);
			CHECK(s && strlen(s) == n + 1 &&
			      !strncmp(s, type, n) && s[n] == '*');
			free(s);
			clReleaseKernel(k);
		}
		/* One character short or long names no kernel. */
		k1[n - 1] = '\0';
		CHECK(clCreateKernel(p, k1, NULL) == NULL);
		k1[n - 1] = '1';
		CHECK_EQ(clCreateKernelsInProgram(p, 2, all, &num),
			 CL_SUCCESS);
		CHECK_EQ(num, 2);
		for (int j = 0; j < 2 && all[j]; j++) {
			s = kernel_string(all[j], -1, CL_KERNEL_FUNCTION_NAME);
			CHECK(s && (!strcmp(s, k1) || !strcmp(s, k2)));
			free(s);
			clReleaseKernel(all[j]);
		}
		CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, NULL,
					  &size), CL_SUCCESS);
		names = malloc(size);
		want = malloc(2 * n + 2);
		REQUIRE(names && want);
		CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, size,
					  names, NULL), CL_SUCCESS);
		snprintf(want, 2 * n + 2, "%s;%s", k1, k2);
		CHECK(!strcmp(names, want));
		free(names);
		free(want);
		{
			/* The binary carries the names whole. */
			size_t bsize = 0;
			unsigned char *bin;
			cl_program pb;

			CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES,
						  sizeof(bsize), &bsize, NULL),
				 CL_SUCCESS);
			bin = malloc(bsize);
			REQUIRE(bin);
			CHECK_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES,
						  sizeof(bin), &bin, NULL),
				 CL_SUCCESS);
			pb = clCreateProgramWithBinary(c, 1,
				(cl_device_id[]){ test_device() }, &bsize,
				(const unsigned char **)&bin, NULL, NULL);
			REQUIRE(pb);
			CHECK_EQ(clBuildProgram(pb, 0, NULL, NULL, NULL, NULL),
				 CL_SUCCESS);
			k = clCreateKernel(pb, k2, NULL);
			CHECK(k != NULL);
			if (k) {
				s = kernel_string(k, -1,
						  CL_KERNEL_FUNCTION_NAME);
				CHECK(s && !strcmp(s, k2));
				free(s);
				clReleaseKernel(k);
			}
			clReleaseProgram(pb);
			free(bin);
		}
		clReleaseProgram(p);
		free(k1);
		free(k2);
		free(arg);
		free(type);
		free(src);
	}
	clReleaseContext(c);
}

/*
 * Whether the CL_KERNEL_ATTRIBUTES of k are exactly the attributes of
 * want ("a b c"): the same set, space-separated, each spelled as the
 * source wrote it (OpenCL 1.2 5.7.3), in any order.
 */
static bool attributes_are(cl_kernel k, const char *want)
{
	char *got = kernel_string(k, -1, CL_KERNEL_ATTRIBUTES);
	char *w = strdup(want), *save = NULL;
	size_t matched = 0;
	bool ok = got && w;

	for (char *t = ok ? strtok_r(w, " ", &save) : NULL; t;
	     t = strtok_r(NULL, " ", &save)) {
		size_t n = strlen(t);
		const char *at = strstr(got, t);

		/* A whole space-separated item of the answer. */
		ok &= at && (at == got || at[-1] == ' ') &&
		      (at[n] == ' ' || at[n] == '\0');
		matched += n + 1;
	}
	ok &= got && strlen(got) + 1 == (matched ? matched : 1);
	if (!ok)
		printf("  attributes '%s', want '%s'\n", got ? got : "(none)",
		       want);
	free(got);
	free(w);
	return ok;
}

/*
 * CL_KERNEL_ATTRIBUTES for vec_type_hint of every scalar and vector type
 * the device has (OpenCL 1.2 6.7.2: "n = 1, 2, 3, 4, 8 or 16"), for
 * work_group_size_hint, reqd_work_group_size and their combinations in
 * several source orders; with and without -cl-opt-disable.
 */
TEST(kernel_attributes)
{
	static const char *const types[] = { "char", "uchar", "short",
					      "ushort", "int", "uint", "long",
					      "ulong", "float" };
	static const char *const widths[] = { "", "2", "3", "4", "8", "16" };
	static const char *const combos[][2] = {
		{ "work_group_size_hint(8,2,1)",
		  "work_group_size_hint(8,2,1)" },
		{ "reqd_work_group_size(4,4,2)",
		  "reqd_work_group_size(4,4,2)" },
		{ "vec_type_hint(uint4))) __attribute__((work_group_size_hint("
		  "16,1,1)",
		  "vec_type_hint(uint4) work_group_size_hint(16,1,1)" },
		{ "reqd_work_group_size(16,2,1))) __attribute__((vec_type_hint("
		  "short8)))  __attribute__((work_group_size_hint(1,1,1)",
		  "vec_type_hint(short8) work_group_size_hint(1,1,1) "
		  "reqd_work_group_size(16,2,1)" },
		{ "work_group_size_hint(2,3,4), reqd_work_group_size(1,2,4), "
		  "vec_type_hint(ulong16)",
		  "vec_type_hint(ulong16) work_group_size_hint(2,3,4) "
		  "reqd_work_group_size(1,2,4)" },
		{ "vec_type_hint(float3)", "vec_type_hint(float3)" },
	};
	const size_t ntypes = sizeof(types) / sizeof(types[0]);
	const size_t nwidths = sizeof(widths) / sizeof(widths[0]);
	const size_t ncombos = sizeof(combos) / sizeof(combos[0]);
	cl_context c = test_context();
	size_t cap = 64 * 1024, len = 0;
	char *src = malloc(cap), name[32], want[64];

	REQUIRE(c && src);
	src[0] = '\0';
	for (size_t t = 0; t < ntypes; t++)
		for (size_t w = 0; w < nwidths; w++)
			len += (size_t)snprintf(src + len, cap - len,
				"__kernel __attribute__((vec_type_hint(%s%s)))"
				"\nvoid h_%zu_%zu(__global int *o) "
				"{ o[0] = 1; }\n", types[t], widths[w], t, w);
	for (size_t i = 0; i < ncombos; i++)
		len += (size_t)snprintf(src + len, cap - len,
			"__kernel __attribute__((%s))\n"
			"void c_%zu(__global int *o) { o[0] = 1; }\n",
			combos[i][0], i);
	len += (size_t)snprintf(src + len, cap - len,
		"__kernel void plain(__global int *o) { o[0] = 1; }\n");
	REQUIRE(len < cap);
	for (int pass = 0; pass < 2; pass++) {
		const char *options = pass ? "-cl-opt-disable" : NULL;
		cl_program p = clCreateProgramWithSource(c, 1,
				(const char **)&src, NULL, NULL);
		cl_kernel k;

		REQUIRE(p);
		CHECK_EQ(clBuildProgram(p, 0, NULL, options, NULL, NULL),
			 CL_SUCCESS);
		for (size_t t = 0; t < ntypes; t++) {
			for (size_t w = 0; w < nwidths; w++) {
				snprintf(name, sizeof(name), "h_%zu_%zu", t, w);
				snprintf(want, sizeof(want),
					 "vec_type_hint(%s%s)", types[t],
					 widths[w]);
				k = clCreateKernel(p, name, NULL);
				CHECK(k && attributes_are(k, want));
				if (k)
					clReleaseKernel(k);
			}
		}
		for (size_t i = 0; i < ncombos; i++) {
			snprintf(name, sizeof(name), "c_%zu", i);
			k = clCreateKernel(p, name, NULL);
			CHECK(k && attributes_are(k, combos[i][1]));
			if (k)
				clReleaseKernel(k);
		}
		k = clCreateKernel(p, "plain", NULL);
		CHECK(k && attributes_are(k, ""));
		if (k)
			clReleaseKernel(k);
		clReleaseProgram(p);
	}
	free(src);
	clReleaseContext(c);
}

void test_kernel_all(void)
{
	RUN(create);
	RUN(set_args);
	RUN(kernel_info);
	RUN(arg_info);
	RUN(sampler_args);
	RUN(image_args);
	RUN(work_group_info);
	RUN(work_group_size_and_barriers);
	RUN(local_memory_per_kernel);
	RUN(long_names);
	RUN(kernel_attributes);
}
