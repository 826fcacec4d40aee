/* SPDX-License-Identifier: MIT */
/*
 * Kernel objects (spec §5.7): creation, arguments of every kind and their
 * errors, and the kernel queries (clGetKernelInfo, clGetKernelArgInfo,
 * clGetKernelWorkGroupInfo).
 */
#include "cl_api.h"

TEST(create_kernels)
{
	cl_kernel all[16];
	cl_uint n = 0;
	cl_int err;

	/* §5.7.1 */
	CHECK_ERR(clCreateKernelsInProgram(api.prog, 0, NULL, &n), CL_SUCCESS);
	CHECK_EQ(n, 9);
	CHECK_ERR(clCreateKernelsInProgram(api.prog, 2, all, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clCreateKernelsInProgram((cl_program)api.ctx, 16, all, &n),
		  CL_INVALID_PROGRAM);
	n = 0;
	CHECK_ERR(clCreateKernelsInProgram(api.prog, 16, all, &n), CL_SUCCESS);
	for (cl_uint i = 0; i < n && i < 16; i++) {
		char name[64] = "";

		CHECK_ERR(clGetKernelInfo(all[i], CL_KERNEL_FUNCTION_NAME,
					  sizeof(name), name, NULL),
			  CL_SUCCESS);
		CHECK(strlen(name) > 0);
		CHECK_ERR(clReleaseKernel(all[i]), CL_SUCCESS);
	}
	CHECK_NULL_ERR(clCreateKernel(api.prog, "no_such_kernel", &err), err,
		       CL_INVALID_KERNEL_NAME);
	CHECK_NULL_ERR(clCreateKernel(api.prog, NULL, &err), err,
		       CL_INVALID_VALUE);
	CHECK_NULL_ERR(clCreateKernel((cl_program)api.ctx, "vadd", &err), err,
		       CL_INVALID_PROGRAM);
}

TEST(kernel_info)
{
	cl_kernel k = cl_api_kernel("vadd"), r = cl_api_kernel("reqd4");
	char s[256];
	cl_uint n = 0, refs;
	cl_context c = NULL;
	cl_program p = NULL;
	size_t size = 0;

	REQUIRE(k && r);
	CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(s), s,
				  &size),
		  CL_SUCCESS);
	CHECK(strcmp(s, "vadd") == 0);
	CHECK_EQ(size, 5);
	CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(n), &n, NULL),
		  CL_SUCCESS);
	CHECK_EQ(n, 3);
	CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof(c), &c, NULL),
		  CL_SUCCESS);
	CHECK(c == api.ctx);
	CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof(p), &p, NULL),
		  CL_SUCCESS);
	CHECK(p == api.prog);
	CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof(s), s, &size),
		  CL_SUCCESS);
	CHECK_EQ(size, strlen(s) + 1);
	/* §5.7.3 table 5.19: the __attribute__s of the declaration. */
	CHECK_ERR(clGetKernelInfo(r, CL_KERNEL_ATTRIBUTES, sizeof(s), s, NULL),
		  CL_SUCCESS);
	if (!strstr(s, "reqd_work_group_size"))
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "CL_KERNEL_ATTRIBUTES of reqd4 is \"%s\"", s);
	CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, 2, &n, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetKernelInfo(k, 0x7777, sizeof(n), &n, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetKernelInfo((cl_kernel)api.ctx, CL_KERNEL_NUM_ARGS,
				  sizeof(n), &n, NULL),
		  CL_INVALID_KERNEL);
	refs = cl_api_refcount(k, REF_KERNEL);
	CHECK_ERR(clRetainKernel(k), CL_SUCCESS);
	CHECK_EQ(cl_api_refcount(k, REF_KERNEL), refs + 1);
	CHECK_ERR(clReleaseKernel(k), CL_SUCCESS);
	CHECK_EQ(cl_api_refcount(k, REF_KERNEL), refs);
	CHECK_ERR(clRetainKernel((cl_kernel)api.ctx), CL_INVALID_KERNEL);
	CHECK_ERR(clReleaseKernel((cl_kernel)api.ctx), CL_INVALID_KERNEL);
	clReleaseKernel(k);
	clReleaseKernel(r);
}

/* §5.7.3 clGetKernelArgInfo, the main program being built with
 * -cl-kernel-arg-info. */
/*
 * What the conformance suite found: names of 256 characters and more
 * (OpenCL sets no limit), and §5.7.3's CL_KERNEL_ATTRIBUTES for
 * vec_type_hint and work_group_size_hint as the source spells them.
 */
TEST(long_names_and_attributes)
{
	enum { LEN = 300 };
	char name[LEN + 1], got[LEN + 64], src[2 * LEN + 512];
	cl_program p;
	cl_kernel k;
	cl_uint n = 0;

	memset(name, 'k', LEN);
	name[LEN] = '\0';
	snprintf(src, sizeof(src),
		 "__kernel __attribute__((vec_type_hint(uint4)))\n"
		 "__attribute__((work_group_size_hint(8, 2, 1)))\n"
		 "void %s(__global int *o) { o[0] = 1; }\n"
		 "__kernel __attribute__((vec_type_hint(float)))\n"
		 "void f(__global int *o) { o[0] = 2; }\n", name);
	p = cl_api_build(api.ctx, src, NULL);
	REQUIRE(p);
	k = clCreateKernel(p, name, NULL);
	REQUIRE(k);
	CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(got), got,
				  NULL),
		  CL_SUCCESS);
	CHECK(!strcmp(got, name));
	CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof(got), got,
				  NULL),
		  CL_SUCCESS);
	if (strcmp(got, "vec_type_hint(uint4) work_group_size_hint(8,2,1)"))
		CHECK_FAIL_AT(__FILE__, __LINE__, "attributes \"%s\"", got);
	clReleaseKernel(k);
	k = clCreateKernel(p, "f", NULL);
	REQUIRE(k);
	CHECK_ERR(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof(got), got,
				  NULL),
		  CL_SUCCESS);
	if (strcmp(got, "vec_type_hint(float)"))
		CHECK_FAIL_AT(__FILE__, __LINE__, "attributes \"%s\"", got);
	clReleaseKernel(k);
	CHECK_ERR(clCreateKernelsInProgram(p, 0, NULL, &n), CL_SUCCESS);
	CHECK_EQ(n, 2);
	clReleaseProgram(p);
}

TEST(kernel_arg_info)
{
	cl_kernel vadd = cl_api_kernel("vadd"),
		  lr = cl_api_kernel("local_reverse");
	cl_kernel mix = cl_api_kernel("args_mix");
	cl_kernel_arg_address_qualifier aq = 0;
	cl_kernel_arg_access_qualifier acc = 0;
	cl_kernel_arg_type_qualifier tq = 99;
	char s[64];

	REQUIRE(vadd && lr && mix);
	CHECK_ERR(clGetKernelArgInfo(vadd, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
				     sizeof(aq), &aq, NULL),
		  CL_SUCCESS);
	CHECK_EQ(aq, CL_KERNEL_ARG_ADDRESS_GLOBAL);
	CHECK_ERR(clGetKernelArgInfo(vadd, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER,
				     sizeof(acc), &acc, NULL),
		  CL_SUCCESS);
	CHECK_EQ(acc, CL_KERNEL_ARG_ACCESS_NONE);
	CHECK_ERR(clGetKernelArgInfo(vadd, 0, CL_KERNEL_ARG_TYPE_NAME,
				     sizeof(s), s, NULL),
		  CL_SUCCESS);
	CHECK(strcmp(s, "float*") == 0);
	CHECK_ERR(clGetKernelArgInfo(vadd, 0, CL_KERNEL_ARG_TYPE_QUALIFIER,
				     sizeof(tq), &tq, NULL),
		  CL_SUCCESS);
	CHECK_EQ(tq, CL_KERNEL_ARG_TYPE_CONST);
	CHECK_ERR(clGetKernelArgInfo(vadd, 2, CL_KERNEL_ARG_TYPE_QUALIFIER,
				     sizeof(tq), &tq, NULL),
		  CL_SUCCESS);
	CHECK_EQ(tq, CL_KERNEL_ARG_TYPE_NONE);
	CHECK_ERR(clGetKernelArgInfo(vadd, 1, CL_KERNEL_ARG_NAME, sizeof(s), s,
				     NULL),
		  CL_SUCCESS);
	CHECK(strcmp(s, "b") == 0);
	CHECK_ERR(clGetKernelArgInfo(lr, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
				     sizeof(aq), &aq, NULL),
		  CL_SUCCESS);
	CHECK_EQ(aq, CL_KERNEL_ARG_ADDRESS_LOCAL);
	CHECK_ERR(clGetKernelArgInfo(mix, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
				     sizeof(aq), &aq, NULL),
		  CL_SUCCESS);
	CHECK_EQ(aq, CL_KERNEL_ARG_ADDRESS_PRIVATE);
	CHECK_ERR(clGetKernelArgInfo(mix, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof(s),
				     s, NULL),
		  CL_SUCCESS);
	CHECK(strcmp(s, "char") == 0);
	CHECK_ERR(clGetKernelArgInfo(mix, 6, CL_KERNEL_ARG_TYPE_NAME, sizeof(s),
				     s, NULL),
		  CL_SUCCESS);
	CHECK(strcmp(s, "int4") == 0);
	CHECK_ERR(clGetKernelArgInfo(mix, 7, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
				     sizeof(aq), &aq, NULL),
		  CL_SUCCESS);
	CHECK_EQ(aq, CL_KERNEL_ARG_ADDRESS_CONSTANT);
	CHECK_ERR(clGetKernelArgInfo(vadd, 3, CL_KERNEL_ARG_NAME, sizeof(s), s,
				     NULL),
		  CL_INVALID_ARG_INDEX);
	CHECK_ERR(clGetKernelArgInfo(vadd, 0, 0x7777, sizeof(s), s, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetKernelArgInfo(vadd, 0, CL_KERNEL_ARG_NAME, 1, s, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetKernelArgInfo((cl_kernel)api.ctx, 0, CL_KERNEL_ARG_NAME,
				     sizeof(s), s, NULL),
		  CL_INVALID_KERNEL);
	clReleaseKernel(vadd);
	clReleaseKernel(lr);
	clReleaseKernel(mix);
}

/* §5.7.2 clSetKernelArg errors, and the NULL values it accepts. */
TEST(set_kernel_arg_errors)
{
	cl_kernel mix = cl_api_kernel("args_mix"),
		  lr = cl_api_kernel("local_reverse");
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, 64, NULL);
	cl_mem null_mem = NULL, not_mem = (cl_mem)api.queue;
	cl_int i = 5;
	cl_long l = 5;

	REQUIRE(mix && lr && buf);
	CHECK_ERR(clSetKernelArg(mix, 9, sizeof(i), &i), CL_INVALID_ARG_INDEX);
	CHECK_ERR(clSetKernelArg((cl_kernel)api.ctx, 0, sizeof(buf), &buf),
		  CL_INVALID_KERNEL);
	/* Scalars: exact size, a value. */
	CHECK_ERR(clSetKernelArg(mix, 3, sizeof(l), &l), CL_INVALID_ARG_SIZE);
	CHECK_ERR(clSetKernelArg(mix, 4, sizeof(i), &i), CL_INVALID_ARG_SIZE);
	CHECK_ERR(clSetKernelArg(mix, 3, sizeof(i), NULL),
		  CL_INVALID_ARG_VALUE);
	/* Buffers: sizeof(cl_mem), a memory object or NULL. */
	CHECK_ERR(clSetKernelArg(mix, 0, 4, &buf), CL_INVALID_ARG_SIZE);
	CHECK_ERR(clSetKernelArg(mix, 0, sizeof(not_mem), &not_mem),
		  CL_INVALID_MEM_OBJECT);
	CHECK_ERR(clSetKernelArg(mix, 8, sizeof(cl_mem), NULL), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mix, 8, sizeof(null_mem), &null_mem),
		  CL_SUCCESS);
	/* __local: a size and no value. */
	CHECK_ERR(clSetKernelArg(lr, 2, 0, NULL), CL_INVALID_ARG_SIZE);
	CHECK_ERR(clSetKernelArg(lr, 2, 64, &i), CL_INVALID_ARG_VALUE);
	CHECK_ERR(clSetKernelArg(lr, 2, 64, NULL), CL_SUCCESS);
	clReleaseKernel(mix);
	clReleaseKernel(lr);
	clReleaseMemObject(buf);
}

/* Arguments of every scalar, vector and pointer kind reach the kernel
 * with their values (§5.7.2, §6.9). */
TEST(arguments_of_every_kind)
{
	cl_kernel mix = cl_api_kernel("args_mix");
	cl_mem out = cl_api_buffer(CL_MEM_READ_WRITE, 16 * 4, NULL);
	cl_int cst_data[2] = { 40, 2 };
	cl_mem cst = cl_api_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				   sizeof(cst_data), cst_data);
	cl_char c = -5;
	cl_short s = -3000;
	cl_int i = 123456789, got[16];
	cl_long l = 0x123456789abcdef0ll;
	cl_float f = 3.25f;
	cl_int4 v = { { 1, -2, 3, -4 } };
	size_t one = 1;
	const cl_int want[12] = {
		-5, -3000, 123456789, 0x12345678, (cl_int)0x9abcdef0u, 6, 1, -2,
		3,  -4,	   42,	      1,
	};

	REQUIRE(mix && out && cst);
	memset(got, 0x7f, sizeof(got));
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, out, CL_TRUE, 0, sizeof(got),
				       got, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mix, 0, sizeof(out), &out), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mix, 1, sizeof(c), &c), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mix, 2, sizeof(s), &s), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mix, 3, sizeof(i), &i), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mix, 4, sizeof(l), &l), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mix, 5, sizeof(f), &f), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mix, 6, sizeof(v), &v), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mix, 7, sizeof(cst), &cst), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mix, 8, sizeof(cl_mem), NULL), CL_SUCCESS);
	RUN_KERNEL(api.queue, mix, 1, &one, NULL);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, out, CL_TRUE, 0, sizeof(got),
				      got, 0, NULL, NULL),
		  CL_SUCCESS);
	for (int k = 0; k < 12; k++)
		if (got[k] != want[k])
			CHECK_FAIL_AT(
				__FILE__, __LINE__,
				"args_mix out[%d] = %d (0x%x), expected %d", k,
				got[k], (unsigned int)got[k], want[k]);
	clReleaseKernel(mix);
	clReleaseMemObject(out);
	clReleaseMemObject(cst);
}

/* Kernel argument values are taken when the kernel is enqueued (§5.7.2:
 * a value is used "until the argument value is changed"): changing one
 * after enqueueing does not change the enqueued command. */
TEST(arguments_captured_at_enqueue)
{
	cl_command_queue q = clCreateCommandQueue(api.ctx, api.device, 0, NULL);
	cl_kernel add = cl_api_kernel("add_k");
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, 64 * 4, NULL);
	cl_mem other = cl_api_buffer(CL_MEM_READ_WRITE, 64 * 4, NULL);
	cl_event gate = clCreateUserEvent(api.ctx, NULL);
	cl_int data[64] = { 0 }, five = 5, big = 1000;
	size_t global = 64;
	bool ok = true;

	REQUIRE(q && add && buf && other && gate);
	CHECK_ERR(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof(data), data,
				       0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(five), &five), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 1,
					 &gate, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(other), &other), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(big), &big), CL_SUCCESS);
	CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(data), data, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < 64; i++)
		ok &= data[i] == 5;
	if (!ok)
		CHECK_FAIL_AT(
			__FILE__, __LINE__,
			"the enqueued kernel used arguments set after it: "
			"data[0] = %d, expected 5",
			data[0]);
	clReleaseEvent(gate);
	clReleaseKernel(add);
	clReleaseMemObject(buf);
	clReleaseMemObject(other);
	clReleaseCommandQueue(q);
}

/* A struct passed by value (§6.9 allows structs as kernel arguments):
 * laid out as the OpenCL C struct pair of cl_api_struct_source. */
struct cl_api_pair {
	cl_int a;
	cl_float b;
	cl_short c;
};

TEST(struct_argument)
{
	cl_program p = cl_api_build(api.ctx, cl_api_struct_source, NULL);
	cl_kernel k = NULL;
	cl_mem out = cl_api_buffer(CL_MEM_READ_WRITE, 16, NULL);
	struct cl_api_pair pair = { -77, 2.5f, -9 };
	cl_int got[4] = { 0 }, err = 1;
	size_t one = 1;

	REQUIRE(p && out);
	k = clCreateKernel(p, "struct_arg", &err);
	REQUIRE(k);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(out), &out), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(pair), &pair), CL_SUCCESS);
	RUN_KERNEL(api.queue, k, 1, &one, NULL);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, out, CL_TRUE, 0, sizeof(got),
				      got, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_EQ(got[0], -77);
	CHECK_EQ(got[1], 10);
	CHECK_EQ(got[2], -9);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseMemObject(out);
}

/* The build options reach the compiler: OFFSET comes from -DOFFSET=7. */
TEST(build_options_reach_the_kernel)
{
	cl_kernel k = cl_api_kernel("options_probe");
	cl_mem out = cl_api_buffer(CL_MEM_READ_WRITE, 4, NULL);
	cl_int got = 0;
	size_t one = 1;

	REQUIRE(k && out);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(out), &out), CL_SUCCESS);
	RUN_KERNEL(api.queue, k, 1, &one, NULL);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, out, CL_TRUE, 0, 4, &got, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	CHECK_EQ(got, 7);
	clReleaseKernel(k);
	clReleaseMemObject(out);
}

/* §5.7.3 clGetKernelWorkGroupInfo */
TEST(kernel_work_group_info)
{
	cl_kernel vadd = cl_api_kernel("vadd"),
		  lr = cl_api_kernel("local_reverse");
	cl_kernel r = cl_api_kernel("reqd4");
	size_t wg = 0, multiple = 0, compiled[3] = { 9, 9, 9 };
	cl_ulong local = 0, priv = 0;

	REQUIRE(vadd && lr && r);
	CHECK_ERR(clGetKernelWorkGroupInfo(vadd, api.device,
					   CL_KERNEL_WORK_GROUP_SIZE,
					   sizeof(wg), &wg, NULL),
		  CL_SUCCESS);
	CHECK(wg >= 1 && wg <= api.max_wg);
	/* device may be NULL with one device. */
	CHECK_ERR(clGetKernelWorkGroupInfo(vadd, NULL,
					   CL_KERNEL_WORK_GROUP_SIZE,
					   sizeof(wg), &wg, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clGetKernelWorkGroupInfo(vadd, api.device,
					   CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
					   sizeof(compiled), compiled, NULL),
		  CL_SUCCESS);
	CHECK(compiled[0] == 0 && compiled[1] == 0 && compiled[2] == 0);
	CHECK_ERR(clGetKernelWorkGroupInfo(r, api.device,
					   CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
					   sizeof(compiled), compiled, NULL),
		  CL_SUCCESS);
	CHECK(compiled[0] == 4 && compiled[1] == 1 && compiled[2] == 1);
	CHECK_ERR(clGetKernelWorkGroupInfo(
			  vadd, api.device,
			  CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
			  sizeof(multiple), &multiple, NULL),
		  CL_SUCCESS);
	CHECK(multiple >= 1 && multiple <= wg);
	CHECK_ERR(clGetKernelWorkGroupInfo(vadd, api.device,
					   CL_KERNEL_PRIVATE_MEM_SIZE,
					   sizeof(priv), &priv, NULL),
		  CL_SUCCESS);
	/* The local memory of a __local argument counts once set. */
	CHECK_ERR(clSetKernelArg(lr, 2, 1024, NULL), CL_SUCCESS);
	CHECK_ERR(clGetKernelWorkGroupInfo(lr, api.device,
					   CL_KERNEL_LOCAL_MEM_SIZE,
					   sizeof(local), &local, NULL),
		  CL_SUCCESS);
	CHECK(local >= 1024);
	/* Errors */
	CHECK_ERR(clGetKernelWorkGroupInfo(vadd, api.device,
					   CL_KERNEL_GLOBAL_WORK_SIZE,
					   sizeof(compiled), compiled, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetKernelWorkGroupInfo(vadd, api.device, 0x7777, sizeof(wg),
					   &wg, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetKernelWorkGroupInfo(vadd, api.device,
					   CL_KERNEL_WORK_GROUP_SIZE, 2, &wg,
					   NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetKernelWorkGroupInfo(vadd, (cl_device_id)api.ctx,
					   CL_KERNEL_WORK_GROUP_SIZE,
					   sizeof(wg), &wg, NULL),
		  CL_INVALID_DEVICE);
	CHECK_ERR(clGetKernelWorkGroupInfo((cl_kernel)api.ctx, api.device,
					   CL_KERNEL_WORK_GROUP_SIZE,
					   sizeof(wg), &wg, NULL),
		  CL_INVALID_KERNEL);
	clReleaseKernel(vadd);
	clReleaseKernel(lr);
	clReleaseKernel(r);
}

void cl_api_kernel_tests(void)
{
	API_RUN(create_kernels);
	API_RUN(kernel_info);
	API_RUN(long_names_and_attributes);
	API_RUN(kernel_arg_info);
	API_RUN(set_kernel_arg_errors);
	API_RUN(arguments_of_every_kind);
	API_RUN(arguments_captured_at_enqueue);
	API_RUN(struct_argument);
	API_RUN(build_options_reach_the_kernel);
	API_RUN(kernel_work_group_info);
}
