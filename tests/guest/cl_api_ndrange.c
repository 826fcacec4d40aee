/* SPDX-License-Identifier: MIT */
/*
 * Executing kernels (spec §5.8): clEnqueueNDRangeKernel in 1, 2 and 3
 * dimensions with global offsets, with and without a local size;
 * clEnqueueTask; __local arguments; launches at the kernel's
 * CL_KERNEL_WORK_GROUP_SIZE; the errors; native kernels.
 *
 * The ids kernel writes, per work-item, its global id, get_work_dim(),
 * its local size and whether the built-ins agree with each other
 * (global id = group id * local size + local id + offset, uniform groups),
 * at the index of its id minus the offset.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cl_api.h"

#define FIELDS 8

struct launch {
	cl_uint dims;
	size_t offset[3];
	size_t global[3];
	const size_t *local; /* NULL: the runtime chooses */
};

static size_t items(const struct launch *l)
{
	size_t n = 1;

	for (cl_uint d = 0; d < l->dims; d++)
		n *= l->global[d];
	return n;
}

/* Runs ids over @l and checks every work-item's record. */
static void check_ids(cl_kernel k, const struct launch *l, int line)
{
	size_t n = items(l), bytes = n * FIELDS * sizeof(cl_uint);
	cl_uint *out = malloc(bytes);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, bytes, NULL);
	cl_event e = NULL;
	cl_command_type type = 0;
	size_t bad = 0, first_bad = 0;
	cl_int err;

	if (!out || !buf) {
		CHECK_FAIL_AT(__FILE__, line, "no memory for %zu items", n);
		goto out;
	}
	memset(out, 0xab, bytes);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0, bytes, out,
				       0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
	err = clEnqueueNDRangeKernel(api.queue, k, l->dims, l->offset,
				     l->global, l->local, 0, NULL, &e);
	if (err != CL_SUCCESS) {
		CHECK_FAIL_AT(
			__FILE__, line,
			"clEnqueueNDRangeKernel(%u-D, global %zu %zu %zu, "
			"local %s): %s",
			l->dims, l->global[0], l->global[1], l->global[2],
			l->local ? "given" : "NULL", cl_err_name(err));
		goto out;
	}
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, bytes, out, 1,
				      &e, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
				 NULL),
		  CL_SUCCESS);
	CHECK_EQ(type, CL_COMMAND_NDRANGE_KERNEL);
	for (size_t i = 0; i < n; i++) {
		const cl_uint *r = out + i * FIELDS;
		size_t x = i % l->global[0];
		size_t y = l->dims > 1 ? (i / l->global[0]) % l->global[1] : 0;
		size_t z = l->dims > 2 ? i / (l->global[0] * l->global[1]) : 0;
		bool ok = r[0] == x + l->offset[0] &&
			  r[1] == (l->dims > 1 ? y + l->offset[1] : 0) &&
			  r[2] == (l->dims > 2 ? z + l->offset[2] : 0) &&
			  r[3] == l->dims && r[7] == 1;

		for (cl_uint d = 0; d < 3; d++) {
			size_t ls = r[4 + d];

			/* Unused dimensions have local size 1; used ones
			 * divide the global size and match a given one. */
			if (d >= l->dims)
				ok &= ls == 1;
			else
				ok &= ls >= 1 && l->global[d] % ls == 0 &&
				      (!l->local || ls == l->local[d]);
		}
		if (!ok && bad++ == 0)
			first_bad = i;
	}
	if (bad) {
		const cl_uint *r = out + first_bad * FIELDS;

		CHECK_FAIL_AT(__FILE__, line,
			      "%u-D launch, %zu of %zu work-items wrong; item "
			      "%zu wrote id (%u %u %u) dim %u local (%u %u %u) "
			      "consistent %u",
			      l->dims, bad, n, first_bad, r[0], r[1], r[2],
			      r[3], r[4], r[5], r[6], r[7]);
	} else {
		printf("  %u-D %zux%zux%zu offset (%zu %zu %zu) local %s: "
		       "chose (%u %u %u)\n",
		       l->dims, l->global[0], l->dims > 1 ? l->global[1] : 1,
		       l->dims > 2 ? l->global[2] : 1, l->offset[0],
		       l->offset[1], l->offset[2], l->local ? "given" : "NULL",
		       out[4], out[5], out[6]);
	}
out:
	if (e)
		clReleaseEvent(e);
	if (buf)
		clReleaseMemObject(buf);
	free(out);
}

TEST(ndrange_1d_2d_3d)
{
	cl_kernel k = cl_api_kernel("ids");
	static const size_t l1[3] = { 8, 1, 1 }, l2[3] = { 4, 2, 1 },
			    l3[3] = { 2, 3, 2 };
	const struct launch launches[] = {
		{ 1, { 0, 0, 0 }, { 1000, 1, 1 }, NULL },
		{ 1, { 17, 0, 0 }, { 37, 1, 1 }, NULL }, /* a prime */
		{ 1, { 5, 0, 0 }, { 64, 1, 1 }, l1 },
		{ 1, { 0, 0, 0 }, { 1, 1, 1 }, NULL },
		{ 2, { 0, 0, 0 }, { 13, 7, 1 }, NULL },
		{ 2, { 3, 5, 0 }, { 32, 16, 1 }, NULL },
		{ 2, { 1, 2, 0 }, { 16, 6, 1 }, l2 },
		{ 3, { 0, 0, 0 }, { 5, 6, 7 }, NULL },
		{ 3, { 3, 5, 7 }, { 8, 9, 4 }, NULL },
		{ 3, { 1, 1, 1 }, { 4, 6, 4 }, l3 },
	};

	REQUIRE(k);
	for (size_t i = 0; i < sizeof(launches) / sizeof(*launches); i++)
		check_ids(k, &launches[i], __LINE__);
	/* A NULL offset is offset 0 (§5.8). */
	{
		struct launch l = { 2, { 0, 0, 0 }, { 10, 10, 1 }, NULL };
		size_t bytes = items(&l) * FIELDS * 4;
		cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, bytes, NULL);
		cl_uint *out = malloc(bytes);

		if (buf && out) {
			CHECK_ERR(clSetKernelArg(k, 0, sizeof(buf), &buf),
				  CL_SUCCESS);
			RUN_KERNEL(api.queue, k, 2, l.global, NULL);
			CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE,
						      0, bytes, out, 0, NULL,
						      NULL),
				  CL_SUCCESS);
			CHECK(out[(99) * FIELDS + 0] == 9 &&
			      out[(99) * FIELDS + 1] == 9);
		}
		if (buf)
			clReleaseMemObject(buf);
		free(out);
	}
	clReleaseKernel(k);
}

/*
 * The issue: CL_KERNEL_WORK_GROUP_SIZE is honest, and every size up to it
 * launches (never CL_OUT_OF_RESOURCES). Launched at exactly that size, in
 * one and in three dimensions, and with __local memory of that size.
 */
TEST(launch_at_kernel_work_group_size)
{
	cl_kernel ids = cl_api_kernel("ids"),
		  lr = cl_api_kernel("local_reverse");
	size_t wg = 0, wg_lr = 0;

	REQUIRE(ids && lr);
	CHECK_ERR(clGetKernelWorkGroupInfo(ids, api.device,
					   CL_KERNEL_WORK_GROUP_SIZE,
					   sizeof(wg), &wg, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clGetKernelWorkGroupInfo(lr, api.device,
					   CL_KERNEL_WORK_GROUP_SIZE,
					   sizeof(wg_lr), &wg_lr, NULL),
		  CL_SUCCESS);
	REQUIRE(wg >= 1 && wg_lr >= 1);
	printf("  CL_KERNEL_WORK_GROUP_SIZE: ids %zu, local_reverse %zu "
	       "(device %zu)\n",
	       wg, wg_lr, api.max_wg);
	{
		size_t local[3] = { wg, 1, 1 };
		struct launch l = { 1, { 0, 0, 0 }, { 3 * wg, 1, 1 }, local };

		check_ids(ids, &l, __LINE__);
	}
	if (wg >= 8 && wg % 4 == 0) {
		size_t local[3] = { wg / 4, 2, 2 };
		struct launch l = { 3, { 0, 0, 0 }, { wg / 2, 4, 2 }, local };

		check_ids(ids, &l, __LINE__);
	}
	/* __local int tmp[wg_lr], reversed per group. */
	{
		size_t n = 4 * wg_lr, local = wg_lr;
		cl_int *in = malloc(n * 4), *out = malloc(n * 4);
		cl_mem bin = NULL, bout = NULL;
		bool ok = true;

		REQUIRE(in && out);
		for (size_t i = 0; i < n; i++)
			in[i] = (cl_int)(i * 3 + 1);
		bin = cl_api_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				    n * 4, in);
		bout = cl_api_buffer(CL_MEM_WRITE_ONLY, n * 4, NULL);
		if (bin && bout) {
			CHECK_ERR(clSetKernelArg(lr, 0, sizeof(bin), &bin),
				  CL_SUCCESS);
			CHECK_ERR(clSetKernelArg(lr, 1, sizeof(bout), &bout),
				  CL_SUCCESS);
			CHECK_ERR(clSetKernelArg(lr, 2, wg_lr * 4, NULL),
				  CL_SUCCESS);
			RUN_KERNEL(api.queue, lr, 1, &n, &local);
			CHECK_ERR(clEnqueueReadBuffer(api.queue, bout, CL_TRUE,
						      0, n * 4, out, 0, NULL,
						      NULL),
				  CL_SUCCESS);
			for (size_t i = 0; i < n; i++) {
				size_t g = i / local, l = i % local;

				ok &= out[i] == in[g * local + local - 1 - l];
			}
			if (!ok)
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "local_reverse at %zu: out[0] = "
					      "%d, expected %d",
					      local, out[0], in[local - 1]);
		}
		if (bin)
			clReleaseMemObject(bin);
		if (bout)
			clReleaseMemObject(bout);
		free(in);
		free(out);
	}
	clReleaseKernel(ids);
	clReleaseKernel(lr);
}

/* __local arguments of several sizes, each group reversing its slice. */
TEST(local_arguments)
{
	static const size_t sizes[] = { 1, 4, 16, 64 };
	cl_kernel lr = cl_api_kernel("local_reverse");
	enum { COUNT = 256 };
	cl_int in[COUNT], out[COUNT];
	cl_mem bin, bout;

	REQUIRE(lr);
	for (int i = 0; i < COUNT; i++)
		in[i] = i * i;
	bin = cl_api_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in),
			    in);
	bout = cl_api_buffer(CL_MEM_WRITE_ONLY, sizeof(out), NULL);
	REQUIRE(bin && bout);
	CHECK_ERR(clSetKernelArg(lr, 0, sizeof(bin), &bin), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(lr, 1, sizeof(bout), &bout), CL_SUCCESS);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
		size_t local = sizes[s], global = COUNT;
		bool ok = true;

		if (local > api.max_wg)
			continue;
		CHECK_ERR(clSetKernelArg(lr, 2, local * sizeof(cl_int), NULL),
			  CL_SUCCESS);
		RUN_KERNEL(api.queue, lr, 1, &global, &local);
		memset(out, 0, sizeof(out));
		CHECK_ERR(clEnqueueReadBuffer(api.queue, bout, CL_TRUE, 0,
					      sizeof(out), out, 0, NULL, NULL),
			  CL_SUCCESS);
		for (size_t i = 0; i < COUNT; i++)
			ok &= out[i] ==
			      in[(i / local) * local + local - 1 - i % local];
		if (!ok)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "local_reverse with %zu-int __local: "
				      "out[0] = %d, expected %d",
				      local, out[0], in[local - 1]);
	}
	clReleaseMemObject(bin);
	clReleaseMemObject(bout);
	clReleaseKernel(lr);
}

/*
 * Each kernel's __local memory is its own (§6.5.2: __local variables are
 * declared inside a kernel function): two kernels of 20 KiB each, 40 KiB
 * together (CL_DEVICE_LOCAL_MEM_SIZE is 32 KiB), both run; one of 40 KiB
 * is refused with CL_OUT_OF_RESOURCES (§5.8).
 */
TEST(local_memory_per_kernel)
{
	static const char src[] =
		"#define N 5120\n"
		"void fill(__local uint *t, uint n, uint v)\n"
		"{\n"
		"\tfor (uint i = get_local_id(0); i < n;\n"
		"\t     i += get_local_size(0))\n"
		"\t\tt[i] = v + i;\n"
		"}\n"
		"__kernel void a(__global uint *out)\n"
		"{\n"
		"\t__local uint x[N];\n"
		"\tfill(x, N, 1);\n"
		"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
		"\tout[get_global_id(0)] = x[N - 1 - get_local_id(0)];\n"
		"}\n"
		"__kernel void b(__global uint *out)\n"
		"{\n"
		"\t__local uint y[N / 2], z[N / 2];\n"
		"\tfill(y, N / 2, 2);\n"
		"\tfill(z, N / 2, 3);\n"
		"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
		"\tout[get_global_id(0)] = y[N / 2 - 1 - get_local_id(0)] +\n"
		"\t\t\t\tz[get_local_id(0)];\n"
		"}\n"
		"__kernel void big(__global uint *out)\n"
		"{\n"
		"\t__local uint w[2 * N];\n"
		"\tfill(w, 2 * N, 4);\n"
		"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
		"\tout[0] = w[7];\n"
		"}\n";
	enum { COUNT = 64, N = 5120 };
	size_t global = COUNT, local = 16;
	cl_program p = cl_api_build(api.ctx, src, NULL);
	cl_kernel a = NULL, b = NULL, big = NULL;
	cl_uint out[COUNT];
	cl_ulong bytes = 0;
	cl_mem buf;
	bool ok = true;

	REQUIRE(p);
	a = clCreateKernel(p, "a", NULL);
	b = clCreateKernel(p, "b", NULL);
	big = clCreateKernel(p, "big", NULL);
	buf = cl_api_buffer(CL_MEM_READ_WRITE, sizeof(out), NULL);
	REQUIRE(a && b && big && buf);
	CHECK_ERR(clGetKernelWorkGroupInfo(b, api.device,
					   CL_KERNEL_LOCAL_MEM_SIZE,
					   sizeof(bytes), &bytes, NULL),
		  CL_SUCCESS);
	CHECK_EQ(bytes, 4 * N);
	CHECK_ERR(clSetKernelArg(a, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(b, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(big, 0, sizeof(buf), &buf), CL_SUCCESS);
	RUN_KERNEL(api.queue, a, 1, &global, &local);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, sizeof(out),
				      out, 0, NULL, NULL),
		  CL_SUCCESS);
	for (cl_uint i = 0; i < COUNT; i++)
		ok &= out[i] == N - i % local;
	RUN_KERNEL(api.queue, b, 1, &global, &local);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, sizeof(out),
				      out, 0, NULL, NULL),
		  CL_SUCCESS);
	for (cl_uint i = 0; i < COUNT; i++)
		ok &= out[i] == 2 + N / 2 - 1 - i % local + 3 + i % local;
	if (!ok)
		CHECK_FAIL_AT(__FILE__, __LINE__, "wrong results: out[1] = %u",
			      out[1]);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, big, 1, NULL, &global,
					 &local, 0, NULL, NULL),
		  CL_OUT_OF_RESOURCES);
	clReleaseMemObject(buf);
	clReleaseKernel(a);
	clReleaseKernel(b);
	clReleaseKernel(big);
	clReleaseProgram(p);
}

/* §5.8 clEnqueueTask: one work-item, work_dim 1, in a group of 1. */
TEST(task)
{
	cl_kernel k = cl_api_kernel("task_sum"), r = cl_api_kernel("reqd4");
	cl_int in[100], out[4] = { 0 }, n = 100, sum = 0;
	cl_mem bin, bout;
	cl_event e = NULL;
	cl_command_type type = 0;

	REQUIRE(k && r);
	for (int i = 0; i < 100; i++) {
		in[i] = i * 3 - 50;
		sum += in[i];
	}
	bin = cl_api_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in),
			    in);
	bout = cl_api_buffer(CL_MEM_WRITE_ONLY, sizeof(out), NULL);
	REQUIRE(bin && bout);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(bin), &bin), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(bout), &bout), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(n), &n), CL_SUCCESS);
	CHECK_ERR(clEnqueueTask(api.queue, k, 0, NULL, &e), CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, bout, CL_TRUE, 0, sizeof(out),
				      out, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_EQ(out[0], sum);
	CHECK_EQ(out[1], 1); /* get_global_size(0) */
	CHECK_EQ(out[2], 1); /* get_local_size(0) */
	CHECK_EQ(out[3], 1); /* get_work_dim() */
	if (e) {
		CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof(type),
					 &type, NULL),
			  CL_SUCCESS);
		CHECK_EQ(type, CL_COMMAND_TASK);
		clReleaseEvent(e);
	}
	/* A required work-group size other than (1, 1, 1). */
	CHECK_ERR(clSetKernelArg(r, 0, sizeof(bout), &bout), CL_SUCCESS);
	CHECK_ERR(clEnqueueTask(api.queue, r, 0, NULL, NULL),
		  CL_INVALID_WORK_GROUP_SIZE);
	CHECK_ERR(clEnqueueTask((cl_command_queue)api.ctx, k, 0, NULL, NULL),
		  CL_INVALID_COMMAND_QUEUE);
	CHECK_ERR(clEnqueueTask(api.queue, (cl_kernel)api.ctx, 0, NULL, NULL),
		  CL_INVALID_KERNEL);
	clReleaseMemObject(bin);
	clReleaseMemObject(bout);
	clReleaseKernel(k);
	clReleaseKernel(r);
}

/* reqd_work_group_size(4, 1, 1): only that local size launches. */
TEST(required_work_group_size)
{
	cl_kernel r = cl_api_kernel("reqd4");
	cl_mem out = cl_api_buffer(CL_MEM_READ_WRITE, 16 * 4, NULL);
	size_t global = 16, four = 4, eight = 8;
	cl_int got[16];
	bool ok = true;

	REQUIRE(r && out);
	CHECK_ERR(clSetKernelArg(r, 0, sizeof(out), &out), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, r, 1, NULL, &global, &four,
					 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, out, CL_TRUE, 0, sizeof(got),
				      got, 0, NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < 16; i++)
		ok &= got[i] == 4;
	CHECK(ok);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, r, 1, NULL, &global, &eight,
					 0, NULL, NULL),
		  CL_INVALID_WORK_GROUP_SIZE);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, r, 1, NULL, &global, NULL,
					 0, NULL, NULL),
		  CL_INVALID_WORK_GROUP_SIZE);
	clReleaseMemObject(out);
	clReleaseKernel(r);
}

/* §5.8 clEnqueueNDRangeKernel errors. */
TEST(ndrange_errors)
{
	cl_kernel k = cl_api_kernel("ids"), unset = cl_api_kernel("vadd");
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, 4096, NULL);
	size_t g1 = 64, l_odd = 3, huge_offset = 0xfffffff0u;
	size_t g3[3] = { 16, 16, 16 }, l3[3] = { 16, 16, 16 };
	size_t too_big = api.max_wg + 1;
	size_t g_big = too_big * 2;
	size_t zero = 0;
	cl_int err;

	REQUIRE(k && unset && buf);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, unset, 1, NULL, &g1, NULL,
					 0, NULL, NULL),
		  CL_INVALID_KERNEL_ARGS);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 0, NULL, &g1, NULL, 0,
					 NULL, NULL),
		  CL_INVALID_WORK_DIMENSION);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 4, NULL, g3, NULL, 0,
					 NULL, NULL),
		  CL_INVALID_WORK_DIMENSION);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 1, NULL, NULL, NULL, 0,
					 NULL, NULL),
		  CL_INVALID_GLOBAL_WORK_SIZE);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 1, NULL, &zero, NULL, 0,
					 NULL, NULL),
		  CL_INVALID_GLOBAL_WORK_SIZE);
	/* Beyond the device's 32-bit size_t (CL_DEVICE_ADDRESS_BITS). */
	if (sizeof(size_t) > 4) {
		size_t g_wide = (size_t)1 << 32;

		CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 1, NULL, &g_wide,
						 NULL, 0, NULL, NULL),
			  CL_INVALID_GLOBAL_WORK_SIZE);
	}
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 1, &huge_offset, &g1,
					 NULL, 0, NULL, NULL),
		  CL_INVALID_GLOBAL_OFFSET);
	/* 64 work-items do not divide into groups of 3. */
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 1, NULL, &g1, &l_odd, 0,
					 NULL, NULL),
		  CL_INVALID_WORK_GROUP_SIZE);
	/* 16 x 16 x 16 items in a group: each within the per-dimension
	 * limit, the product above CL_DEVICE_MAX_WORK_GROUP_SIZE. */
	if (16 <= api.max_items[0] && 16 <= api.max_items[1] &&
	    16 <= api.max_items[2] && 4096 > api.max_wg)
		CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 3, NULL, g3, l3,
						 0, NULL, NULL),
			  CL_INVALID_WORK_GROUP_SIZE);
	/* One dimension beyond CL_DEVICE_MAX_WORK_ITEM_SIZES (the product is
	 * then too big as well, so either error names it). */
	err = clEnqueueNDRangeKernel(api.queue, k, 1, NULL, &g_big, &too_big, 0,
				     NULL, NULL);
	if (err != CL_INVALID_WORK_ITEM_SIZE &&
	    err != CL_INVALID_WORK_GROUP_SIZE)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "local size %zu > CL_DEVICE_MAX_WORK_ITEM_SIZES: "
			      "%s, expected CL_INVALID_WORK_ITEM_SIZE",
			      too_big, cl_err_name(err));
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 1, NULL, &g1, NULL, 1,
					 NULL, NULL),
		  CL_INVALID_EVENT_WAIT_LIST);
	CHECK_ERR(clEnqueueNDRangeKernel((cl_command_queue)api.ctx, k, 1, NULL,
					 &g1, NULL, 0, NULL, NULL),
		  CL_INVALID_COMMAND_QUEUE);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, (cl_kernel)api.ctx, 1, NULL,
					 &g1, NULL, 0, NULL, NULL),
		  CL_INVALID_KERNEL);
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	clReleaseMemObject(buf);
	clReleaseKernel(k);
	clReleaseKernel(unset);
}

static void CL_CALLBACK native_fn(void *args)
{
	(void)args;
}

/* §5.8 clEnqueueNativeKernel: without CL_EXEC_NATIVE_KERNEL it is
 * CL_INVALID_OPERATION. */
TEST(native_kernel)
{
	int args = 0;
	cl_int err =
		clEnqueueNativeKernel(api.queue, native_fn, &args, sizeof(args),
				      0, NULL, NULL, 0, NULL, NULL);

	if (api.exec_caps & CL_EXEC_NATIVE_KERNEL)
		CHECK_ERR(err, CL_SUCCESS);
	else
		CHECK_ERR(err, CL_INVALID_OPERATION);
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
}

/* Many small launches in a row (the runtime chains ready kernels into
 * one submit): each sees the one before it. */
TEST(many_dependent_launches)
{
	enum { COUNT = 1024, LAUNCHES = 200 };
	cl_kernel add = cl_api_kernel("add_k");
	cl_int data[COUNT], one = 1;
	cl_mem buf;
	size_t global = COUNT;
	bool ok = true;

	REQUIRE(add);
	for (int i = 0; i < COUNT; i++)
		data[i] = -i;
	buf = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			    sizeof(data), data);
	REQUIRE(buf);
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(one), &one), CL_SUCCESS);
	for (int i = 0; i < LAUNCHES; i++)
		CHECK_ERR(clEnqueueNDRangeKernel(api.queue, add, 1, NULL,
						 &global, NULL, 0, NULL, NULL),
			  CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, sizeof(data),
				      data, 0, NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < COUNT; i++)
		ok &= data[i] == LAUNCHES - i;
	if (!ok)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "after %d launches of +1: data[0] = %d, "
			      "data[1] = %d",
			      LAUNCHES, data[0], data[1]);
	clReleaseMemObject(buf);
	clReleaseKernel(add);
}

/*
 * A launch of 2^24 work-items (the issue: thread-dimension tests failed
 * from 16M work-items on; the device accepts up to 2^32): every one of
 * them runs, each writing i * 3 + 1 at its index of a 64 MiB buffer,
 * checked against the same formula in C. The runtime chooses the local
 * size.
 */
static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static const char affine_source[] =
	"__kernel void affine(__global uint *out)\n"
	"{\n"
	"	uint i = get_global_id(0);\n"
	"	out[i] = i * 3u + 1u;\n"
	"}\n";

TEST(sixteen_million_work_items)
{
	enum { ITEMS = 1 << 24 };
	size_t global = ITEMS, bad = 0, first_bad = 0;
	cl_program p = cl_api_build(api.ctx, affine_source, NULL);
	cl_kernel k = NULL;
	cl_uint *out = malloc((size_t)ITEMS * sizeof(*out));
	cl_mem buf = NULL;
	uint64_t t0;
	cl_int err = 1;

	REQUIRE(p && out);
	k = clCreateKernel(p, "affine", &err);
	buf = cl_api_buffer(CL_MEM_WRITE_ONLY, (size_t)ITEMS * sizeof(*out),
			    NULL);
	if (!k || !buf) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "kernel or 64 MiB buffer: %s",
			      cl_err_name(err));
		goto out;
	}
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
	t0 = now_ms();
	if (RUN_KERNEL(api.queue, k, 1, &global, NULL) != CL_SUCCESS)
		goto out;
	printf("  %d work-items ran in %llu ms\n", ITEMS,
	       (unsigned long long)(now_ms() - t0));
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0,
				      (size_t)ITEMS * sizeof(*out), out, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	for (size_t i = 0; i < ITEMS; i++) {
		if (out[i] != (cl_uint)i * 3u + 1u && bad++ == 0)
			first_bad = i;
	}
	if (bad)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "%zu of %d results wrong; out[%zu] = %u, "
			      "expected %u",
			      bad, ITEMS, first_bad, out[first_bad],
			      (cl_uint)first_bad * 3u + 1u);
out:
	if (buf)
		clReleaseMemObject(buf);
	if (k)
		clReleaseKernel(k);
	if (p)
		clReleaseProgram(p);
	free(out);
}

/*
 * printf (spec §6.12.13): its output goes to stdout when the command
 * completes, at the latest by clFinish (6.12.13.1), one record per call,
 * each line whole; 0 returned for each call that printed. stdout is a pipe
 * here for the test's length.
 */
static const char printf_source[] =
	"__kernel void print_items(__global int *ret, int k)\n"
	"{\n"
	"	int i = get_global_id(0);\n"
	"	ret[i] = printf(\"item %d of %d: k=%+d v=%v2hld f=%.2f %s\\n\",\n"
	"			i, (int)get_global_size(0), k, (int2)(i, -k),\n"
	"			0.25f * i, \"done\");\n"
	"}\n";

#define PRINT_ITEMS 12

TEST(printf_output)
{
	static char text[8192];
	int ret[PRINT_ITEMS], fds[2], saved, k = 5;
	size_t global = PRINT_ITEMS, local = 4, printf_size = 0, len = 0;
	bool seen[PRINT_ITEMS] = { false };
	cl_program prog;
	cl_kernel kernel;
	cl_mem buf;
	cl_int err;
	ssize_t n;
	char *line;

	CHECK_ERR(clGetDeviceInfo(api.device, CL_DEVICE_PRINTF_BUFFER_SIZE,
				  sizeof(printf_size), &printf_size, NULL),
		  CL_SUCCESS);
	/* §4.2, full profile: at least 1 MB. */
	CHECK(printf_size >= 1024 * 1024);
	prog = cl_api_build(api.ctx, printf_source, "");
	REQUIRE(prog);
	kernel = clCreateKernel(prog, "print_items", &err);
	CHECK_ERR(err, CL_SUCCESS);
	REQUIRE(kernel);
	memset(ret, 0x55, sizeof(ret));
	buf = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			    sizeof(ret), ret);
	REQUIRE(buf);
	CHECK_ERR(clSetKernelArg(kernel, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(kernel, 1, sizeof(k), &k), CL_SUCCESS);

	/* stdout into a pipe (which holds far more than the output). */
	fflush(stdout);
	REQUIRE(pipe(fds) == 0);
	saved = dup(STDOUT_FILENO);
	REQUIRE(saved >= 0);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	dup2(fds[1], STDOUT_FILENO);
	err = clEnqueueNDRangeKernel(api.queue, kernel, 1, NULL, &global,
				     &local, 0, NULL, NULL);
	if (!err)
		err = clFinish(api.queue);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(fds[1]);
	while (len < sizeof(text) - 1 &&
	       (n = read(fds[0], text + len, sizeof(text) - 1 - len)) > 0)
		len += (size_t)n;
	text[len] = 0;
	close(fds[0]);
	CHECK_ERR(err, CL_SUCCESS);

	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char want[128];
		int i;

		if (sscanf(line, "item %d", &i) != 1 || i < 0 ||
		    i >= PRINT_ITEMS || seen[i]) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "stray line '%s'",
				      line);
			continue;
		}
		seen[i] = true;
		snprintf(want, sizeof(want),
			 "item %d of %d: k=%+d v=%d,%d f=%.2f done", i,
			 PRINT_ITEMS, k, i, -k, 0.25 * i);
		if (strcmp(line, want))
			CHECK_FAIL_AT(__FILE__, __LINE__, "got '%s', want '%s'",
				      line, want);
	}
	for (int i = 0; i < PRINT_ITEMS; i++)
		if (!seen[i])
			CHECK_FAIL_AT(__FILE__, __LINE__, "no line of item %d",
				      i);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, sizeof(ret),
				      ret, 0, NULL, NULL),
		  CL_SUCCESS);
	/* §6.12.13.2: 0 when printf executed successfully. */
	for (int i = 0; i < PRINT_ITEMS; i++)
		CHECK_EQ(ret[i], 0);
	clReleaseMemObject(buf);
	clReleaseKernel(kernel);
	clReleaseProgram(prog);
}

void cl_api_ndrange_tests(void)
{
	API_RUN(ndrange_1d_2d_3d);
	API_RUN(launch_at_kernel_work_group_size);
	API_RUN(local_arguments);
	API_RUN(local_memory_per_kernel);
	API_RUN(task);
	API_RUN(required_work_group_size);
	API_RUN(ndrange_errors);
	API_RUN(native_kernel);
	API_RUN(many_dependent_launches);
	API_RUN(sixteen_million_work_items);
	API_RUN(printf_output);
}
