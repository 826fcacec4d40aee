/* SPDX-License-Identifier: MIT */
/*
 * Command queues (spec §5.1), flush and finish (§5.13), markers, barriers
 * and waits (§5.10), and out-of-order execution (§5.11). Commands are held
 * back with user events, so "has not run yet" is a state the test
 * controls rather than a race it hopes to win.
 */
#include <stdlib.h>

#include "cl_api.h"

#define N 256

static cl_event new_user_event(void)
{
	cl_int err = 1;
	cl_event e = clCreateUserEvent(api.ctx, &err);

	if (!e)
		CHECK_FAIL_AT(__FILE__, __LINE__, "clCreateUserEvent: %s",
			      cl_err_name(err));
	return e;
}

/* Not started: still CL_QUEUED or CL_SUBMITTED (§5.9 table 5.21). */
static bool not_started(cl_event e)
{
	cl_int s = cl_api_event_status(e);

	return s == CL_QUEUED || s == CL_SUBMITTED;
}

TEST(queue_create_and_query)
{
	static const cl_command_queue_properties props[] = {
		0,
		CL_QUEUE_PROFILING_ENABLE,
		CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
		CL_QUEUE_PROFILING_ENABLE |
			CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
	};

	for (size_t i = 0; i < 4; i++) {
		cl_command_queue q = cl_api_queue(props[i]);
		cl_command_queue_properties got = ~0ull;
		cl_context c = NULL;
		cl_device_id d = NULL;
		cl_uint refs;

		if (!q)
			continue;
		CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(c),
						&c, NULL),
			  CL_SUCCESS);
		CHECK(c == api.ctx);
		CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof(d),
						&d, NULL),
			  CL_SUCCESS);
		CHECK(d == api.device);
		CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES,
						sizeof(got), &got, NULL),
			  CL_SUCCESS);
		CHECK_EQ(got, props[i]);
		CHECK_ERR(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, 4, &got,
						NULL),
			  CL_INVALID_VALUE);
		CHECK_ERR(clGetCommandQueueInfo(q, 0x7777, sizeof(got), &got,
						NULL),
			  CL_INVALID_VALUE);
		refs = cl_api_refcount(q, REF_QUEUE);
		CHECK_ERR(clRetainCommandQueue(q), CL_SUCCESS);
		CHECK_EQ(cl_api_refcount(q, REF_QUEUE), refs + 1);
		CHECK_ERR(clReleaseCommandQueue(q), CL_SUCCESS);
		CHECK_EQ(cl_api_refcount(q, REF_QUEUE), refs);
		CHECK_ERR(clReleaseCommandQueue(q), CL_SUCCESS);
	}
}

TEST(queue_errors)
{
	cl_device_id not_device = (cl_device_id)api.ctx;
	cl_uint refs;
	cl_int err;

	/* §5.1 clCreateCommandQueue */
	CHECK_NULL_ERR(clCreateCommandQueue((cl_context)api.queue, api.device,
					    0, &err),
		       err, CL_INVALID_CONTEXT);
	CHECK_NULL_ERR(clCreateCommandQueue(api.ctx, not_device, 0, &err), err,
		       CL_INVALID_DEVICE);
	CHECK_NULL_ERR(
		clCreateCommandQueue(api.ctx, api.device, 1u << 10, &err), err,
		CL_INVALID_VALUE);
	CHECK_ERR(clRetainCommandQueue((cl_command_queue)api.ctx),
		  CL_INVALID_COMMAND_QUEUE);
	CHECK_ERR(clReleaseCommandQueue((cl_command_queue)api.ctx),
		  CL_INVALID_COMMAND_QUEUE);
	CHECK_ERR(clGetCommandQueueInfo((cl_command_queue)api.ctx,
					CL_QUEUE_REFERENCE_COUNT, sizeof(refs),
					&refs, NULL),
		  CL_INVALID_COMMAND_QUEUE);
	/* §5.13 */
	CHECK_ERR(clFlush((cl_command_queue)api.ctx), CL_INVALID_COMMAND_QUEUE);
	CHECK_ERR(clFinish((cl_command_queue)api.ctx),
		  CL_INVALID_COMMAND_QUEUE);
}

/* The wait-list errors every clEnqueue* shares (§5.10 and each entry's
 * list), through the marker. */
TEST(wait_list_errors)
{
	cl_context other =
		clCreateContext(NULL, 1, &api.device, NULL, NULL, NULL);
	cl_event foreign = NULL, e = NULL, not_event = (cl_event)api.queue;
	cl_int err = 1;

	REQUIRE(other);
	foreign = clCreateUserEvent(other, &err);
	REQUIRE(foreign);
	CHECK_ERR(clEnqueueMarkerWithWaitList(api.queue, 1, NULL, &e),
		  CL_INVALID_EVENT_WAIT_LIST);
	CHECK_ERR(clEnqueueMarkerWithWaitList(api.queue, 0, &foreign, &e),
		  CL_INVALID_EVENT_WAIT_LIST);
	CHECK_ERR(clEnqueueMarkerWithWaitList(api.queue, 1, &not_event, &e),
		  CL_INVALID_EVENT_WAIT_LIST);
	CHECK_ERR(clEnqueueMarkerWithWaitList(api.queue, 1, &foreign, &e),
		  CL_INVALID_CONTEXT);
	CHECK_ERR(clEnqueueBarrierWithWaitList(api.queue, 1, &foreign, &e),
		  CL_INVALID_CONTEXT);
	CHECK_ERR(clEnqueueMarkerWithWaitList((cl_command_queue)api.ctx, 0,
					      NULL, &e),
		  CL_INVALID_COMMAND_QUEUE);
	CHECK_ERR(clSetUserEventStatus(foreign, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clReleaseEvent(foreign), CL_SUCCESS);
	CHECK_ERR(clReleaseContext(other), CL_SUCCESS);
}

TEST(flush_and_finish)
{
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_int data[N], back[N];
	cl_event e = NULL;

	REQUIRE(buf);
	for (int i = 0; i < N; i++)
		data[i] = i * 7;
	CHECK_ERR(clFlush(api.queue), CL_SUCCESS);
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_FALSE, 0,
				       sizeof(data), data, 0, NULL, &e),
		  CL_SUCCESS);
	CHECK_ERR(clFlush(api.queue), CL_SUCCESS);
	/* §5.13: clFinish returns once every command before it completed. */
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	CHECK_EQ(cl_api_event_status(e), CL_COMPLETE);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, sizeof(back),
				      back, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK(memcmp(back, data, sizeof(data)) == 0);
	clReleaseEvent(e);
	clReleaseMemObject(buf);
}

/* §5.1 clReleaseCommandQueue: the queue goes only once its commands
 * finished, and releasing it flushes them. */
TEST(release_queue_with_pending_work)
{
	cl_command_queue q = cl_api_queue(0);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_int data[N], back[N];
	cl_event e = NULL;

	REQUIRE(q && buf);
	for (int i = 0; i < N; i++)
		data[i] = 1000 - i;
	CHECK_ERR(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(data), data,
				       0, NULL, &e),
		  CL_SUCCESS);
	CHECK_ERR(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &e), CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, sizeof(back),
				      back, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK(memcmp(back, data, sizeof(data)) == 0);
	clReleaseEvent(e);
	clReleaseMemObject(buf);
}

static cl_command_type command_type(cl_event e)
{
	cl_command_type t = 0;

	CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof(t), &t, NULL),
		  CL_SUCCESS);
	return t;
}

/* §5.10: on an in-order queue a marker and a barrier complete only after
 * everything before them. */
TEST(marker_and_barrier_in_order)
{
	cl_command_queue q = cl_api_queue(0);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_event gate = new_user_event(), fill = NULL, m = NULL, b = NULL;
	cl_int pattern = 5;

	REQUIRE(q && buf && gate);
	CHECK_ERR(clEnqueueFillBuffer(q, buf, &pattern, sizeof(pattern), 0,
				      N * 4, 1, &gate, &fill),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueMarkerWithWaitList(q, 0, NULL, &m), CL_SUCCESS);
	CHECK_ERR(clEnqueueBarrierWithWaitList(q, 0, NULL, &b), CL_SUCCESS);
	CHECK_ERR(clFlush(q), CL_SUCCESS);
	cl_api_sleep_ms(150);
	CHECK(not_started(fill));
	CHECK(not_started(m));
	CHECK(not_started(b));
	CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &b), CL_SUCCESS);
	CHECK_EQ(cl_api_event_status(fill), CL_COMPLETE);
	CHECK_EQ(cl_api_event_status(m), CL_COMPLETE);
	CHECK_EQ(command_type(m), CL_COMMAND_MARKER);
	CHECK_EQ(command_type(b), CL_COMMAND_BARRIER);
	CHECK_EQ(command_type(fill), CL_COMMAND_FILL_BUFFER);
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	clReleaseEvent(gate);
	clReleaseEvent(fill);
	clReleaseEvent(m);
	clReleaseEvent(b);
	clReleaseMemObject(buf);
	clReleaseCommandQueue(q);
}

/* §5.10: a marker with a wait list waits for those events only. */
TEST(marker_with_wait_list_out_of_order)
{
	cl_command_queue q = cl_api_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	cl_mem a = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_mem b = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_event gate = new_user_event(), held = NULL, free_ev = NULL, m = NULL;
	cl_int pattern = 9;

	REQUIRE(q && a && b && gate);
	CHECK_ERR(clEnqueueFillBuffer(q, a, &pattern, 4, 0, N * 4, 1, &gate,
				      &held),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueFillBuffer(q, b, &pattern, 4, 0, N * 4, 0, NULL,
				      &free_ev),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueMarkerWithWaitList(q, 1, &free_ev, &m), CL_SUCCESS);
	/* Returns although the gated fill has not run. */
	CHECK_ERR(clWaitForEvents(1, &m), CL_SUCCESS);
	CHECK_EQ(cl_api_event_status(free_ev), CL_COMPLETE);
	CHECK(not_started(held));
	CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	CHECK_EQ(cl_api_event_status(held), CL_COMPLETE);
	clReleaseEvent(gate);
	clReleaseEvent(held);
	clReleaseEvent(free_ev);
	clReleaseEvent(m);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseCommandQueue(q);
}

/* §5.10: on an out-of-order queue, commands after a barrier wait for it,
 * and it waits for everything before it. */
TEST(barrier_out_of_order)
{
	cl_command_queue q = cl_api_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	cl_mem a = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_mem b = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_event gate = new_user_event(), held = NULL, bar = NULL, after = NULL;
	cl_int pattern = 3, back[N];

	REQUIRE(q && a && b && gate);
	CHECK_ERR(clEnqueueFillBuffer(q, a, &pattern, 4, 0, N * 4, 1, &gate,
				      &held),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueBarrierWithWaitList(q, 0, NULL, &bar), CL_SUCCESS);
	CHECK_ERR(clEnqueueFillBuffer(q, b, &pattern, 4, 0, N * 4, 0, NULL,
				      &after),
		  CL_SUCCESS);
	CHECK_ERR(clFlush(q), CL_SUCCESS);
	cl_api_sleep_ms(150);
	CHECK(not_started(held));
	CHECK(not_started(bar));
	CHECK(not_started(after));
	CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &after), CL_SUCCESS);
	CHECK_EQ(cl_api_event_status(held), CL_COMPLETE);
	CHECK_EQ(cl_api_event_status(bar), CL_COMPLETE);
	CHECK_ERR(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof(back), back, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	CHECK_EQ(back[N - 1], 3);
	clReleaseEvent(gate);
	clReleaseEvent(held);
	clReleaseEvent(bar);
	clReleaseEvent(after);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseCommandQueue(q);
}

/* OpenCL 1.1's marker, barrier and wait (deprecated in 1.2, still
 * entries of it: §5.10 and appendix F). */
TEST(deprecated_marker_barrier_wait)
{
	cl_command_queue q = cl_api_queue(0);
	cl_context other =
		clCreateContext(NULL, 1, &api.device, NULL, NULL, NULL);
	cl_event m = NULL, foreign = NULL, not_event = (cl_event)api.queue;
	cl_int err = 1;

	REQUIRE(q && other);
	foreign = clCreateUserEvent(other, &err);
	REQUIRE(foreign);
	CHECK_ERR(clEnqueueMarker(q, &m), CL_SUCCESS);
	CHECK_ERR(clEnqueueMarker(q, NULL), CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueBarrier(q), CL_SUCCESS);
	CHECK_ERR(clEnqueueWaitForEvents(q, 1, &m), CL_SUCCESS);
	CHECK_ERR(clEnqueueWaitForEvents(q, 0, NULL), CL_INVALID_VALUE);
	CHECK_ERR(clEnqueueWaitForEvents(q, 1, &not_event), CL_INVALID_EVENT);
	CHECK_ERR(clEnqueueWaitForEvents(q, 1, &foreign), CL_INVALID_CONTEXT);
	CHECK_ERR(clEnqueueBarrier((cl_command_queue)api.ctx),
		  CL_INVALID_COMMAND_QUEUE);
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	if (m) {
		CHECK_EQ(command_type(m), CL_COMMAND_MARKER);
		CHECK_EQ(cl_api_event_status(m), CL_COMPLETE);
		clReleaseEvent(m);
	}
	clSetUserEventStatus(foreign, CL_COMPLETE);
	clReleaseEvent(foreign);
	clReleaseContext(other);
	clReleaseCommandQueue(q);
}

/* §5.11: an out-of-order queue still runs a command only after its wait
 * list: write -> +1 -> *2 -> read, all gated, gives (x + 1) * 2. */
TEST(out_of_order_honours_wait_list)
{
	cl_command_queue q = cl_api_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_kernel add = cl_api_kernel("add_k"), mul = cl_api_kernel("mul_k");
	cl_event gate = new_user_event(), w = NULL, ea = NULL, em = NULL,
		 r = NULL;
	cl_int data[N], back[N], one = 1, two = 2;
	size_t global = N;
	bool ok = true;

	REQUIRE(q && buf && add && mul && gate);
	for (int i = 0; i < N; i++)
		data[i] = i - 100;
	memset(back, 0, sizeof(back));
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(one), &one), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mul, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mul, 1, sizeof(two), &two), CL_SUCCESS);
	CHECK_ERR(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(data), data,
				       1, &gate, &w),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 1, &w,
					 &ea),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(q, mul, 1, NULL, &global, NULL, 1, &ea,
					 &em),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_FALSE, 0, sizeof(back), back,
				      1, &em, &r),
		  CL_SUCCESS);
	CHECK_ERR(clFlush(q), CL_SUCCESS);
	cl_api_sleep_ms(150);
	CHECK(not_started(w));
	CHECK(not_started(ea));
	CHECK(not_started(em));
	CHECK(not_started(r));
	CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &r), CL_SUCCESS);
	for (int i = 0; i < N; i++)
		ok &= back[i] == (data[i] + 1) * 2;
	if (!ok)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "back[0..2] = %d %d %d, expected %d %d %d",
			      back[0], back[1], back[2], (data[0] + 1) * 2,
			      (data[1] + 1) * 2, (data[2] + 1) * 2);
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	clReleaseEvent(gate);
	clReleaseEvent(w);
	clReleaseEvent(ea);
	clReleaseEvent(em);
	clReleaseEvent(r);
	clReleaseKernel(add);
	clReleaseKernel(mul);
	clReleaseMemObject(buf);
	clReleaseCommandQueue(q);
}

/*
 * A command waiting for an event of another queue (§5.10: wait lists may
 * name events of any queue of the context) sees that command's results.
 * The runtime hands such a launch to the GPU while the one it waits for
 * still runs, with the GPU doing the ordering (icd_queue.h), so the second
 * launch is submitted before the first ended.
 */
TEST(launch_waits_for_another_queue)
{
	enum { BIG = 1 << 18 };
	cl_command_queue qa = cl_api_queue(CL_QUEUE_PROFILING_ENABLE),
			 qb = cl_api_queue(CL_QUEUE_PROFILING_ENABLE);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, BIG * 4, NULL);
	cl_kernel add = cl_api_kernel("add_k"), mul = cl_api_kernel("mul_k");
	cl_int *data = malloc(BIG * 4), *back = malloc(BIG * 4);
	cl_int three = 3, five = 5;
	size_t global = BIG;
	cl_event ea = NULL, eb = NULL;
	cl_ulong a_end = 0, b_submit = 0;
	int bad = 0;

	REQUIRE(qa && qb && buf && add && mul && data && back);
	for (int i = 0; i < BIG; i++)
		data[i] = i % 1000 - 500;
	CHECK_ERR(clEnqueueWriteBuffer(qa, buf, CL_TRUE, 0, BIG * 4, data, 0,
				       NULL, NULL), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(three), &three), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mul, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mul, 1, sizeof(five), &five), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(qa, add, 1, NULL, &global, NULL, 0,
					 NULL, &ea), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(qb, mul, 1, NULL, &global, NULL, 1,
					 &ea, &eb), CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(qb, buf, CL_TRUE, 0, BIG * 4, back, 1,
				      &eb, NULL), CL_SUCCESS);
	for (int i = 0; i < BIG; i++)
		bad += back[i] != (data[i] + 3) * 5;
	CHECK(bad == 0);
	CHECK_ERR(clFinish(qa), CL_SUCCESS);
	CHECK_ERR(clGetEventProfilingInfo(ea, CL_PROFILING_COMMAND_END,
					  sizeof(a_end), &a_end, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clGetEventProfilingInfo(eb, CL_PROFILING_COMMAND_SUBMIT,
					  sizeof(b_submit), &b_submit, NULL),
		  CL_SUCCESS);
	printf("  second queue's launch submitted %.1f ms before the first "
	       "ended\n", ((double)a_end - (double)b_submit) / 1e6);
	CHECK(b_submit < a_end);
	clReleaseEvent(ea);
	clReleaseEvent(eb);
	clReleaseKernel(add);
	clReleaseKernel(mul);
	clReleaseMemObject(buf);
	clReleaseCommandQueue(qa);
	clReleaseCommandQueue(qb);
	free(data);
	free(back);
}

/*
 * The spec lets an out-of-order queue run in order (§5.11 only removes the
 * guarantee), but the issue and icd_queue.h promise that it runs any
 * command whose wait list completed: a command enqueued after a held one
 * finishes first.
 */
TEST(out_of_order_runs_ready_commands)
{
	cl_command_queue q = cl_api_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	cl_mem a = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_mem b = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_kernel add = cl_api_kernel("add_k");
	cl_event gate = new_user_event(), held = NULL, k = NULL;
	cl_int pattern = 1, four = 4;
	size_t global = N;

	REQUIRE(q && a && b && add && gate);
	CHECK_ERR(clEnqueueFillBuffer(q, a, &pattern, 4, 0, N * 4, 1, &gate,
				      &held),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(b), &b), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(four), &four), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 0,
					 NULL, &k),
		  CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &k), CL_SUCCESS);
	CHECK(not_started(held));
	CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	CHECK_EQ(cl_api_event_status(held), CL_COMPLETE);
	clReleaseEvent(gate);
	clReleaseEvent(held);
	clReleaseEvent(k);
	clReleaseKernel(add);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseCommandQueue(q);
}

void cl_api_queue_tests(void)
{
	API_RUN(queue_create_and_query);
	API_RUN(queue_errors);
	API_RUN(wait_list_errors);
	API_RUN(flush_and_finish);
	API_RUN(release_queue_with_pending_work);
	API_RUN(marker_and_barrier_in_order);
	API_RUN(marker_with_wait_list_out_of_order);
	API_RUN(barrier_out_of_order);
	API_RUN(deprecated_marker_barrier_wait);
	API_RUN(out_of_order_honours_wait_list);
	API_RUN(launch_waits_for_another_queue);
	API_RUN(out_of_order_runs_ready_commands);
}
