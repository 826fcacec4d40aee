/* SPDX-License-Identifier: MIT */
/*
 * Command queues and events without a GPU: the commands here only order
 * others (markers, barriers) or wait for user events, which the queue's
 * thread runs on the host; a launch reaches the point where it needs the
 * GPU, which the fake has not got, and must fail cleanly there. Expected
 * values are OpenCL 1.2's (sections 5.1, 5.9, 5.10, 5.12).
 */
#include <unistd.h>

#include "icd_tests.h"

static cl_int status_of(cl_event e)
{
	cl_int st = 99;

	clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(st), &st,
		       NULL);
	return st;
}

/* Gives the queue's thread time to run what it can. */
static void settle(void)
{
	usleep(20000);
}

TEST(queue_create_and_info)
{
	cl_context c = test_context();
	cl_device_id d = test_device(), got = NULL;
	cl_command_queue_properties props = 0;
	cl_context ctx = NULL;
	cl_int err = 1;
	cl_command_queue q;

	REQUIRE(c);
	CHECK(clCreateCommandQueue(NULL, d, 0, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	CHECK(clCreateCommandQueue(c, d, 1u << 7, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	q = clCreateCommandQueue(c, d, CL_QUEUE_PROFILING_ENABLE, &err);
	REQUIRE(q);
	CHECK_EQ(err, CL_SUCCESS);
	CHECK_EQ(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(ctx), &ctx,
				       NULL), CL_SUCCESS);
	CHECK(ctx == c);
	CHECK_EQ(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof(got), &got,
				       NULL), CL_SUCCESS);
	CHECK(got == d);
	CHECK_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof(props),
				       &props, NULL), CL_SUCCESS);
	CHECK_EQ(props, CL_QUEUE_PROFILING_ENABLE);
	CHECK_EQ(clGetCommandQueueInfo(q, 0x7777, sizeof(props), &props,
				       NULL), CL_INVALID_VALUE);
	CHECK_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, 1, &props,
				       NULL), CL_INVALID_VALUE);
	CHECK_EQ(clFlush(q), CL_SUCCESS);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	CHECK_EQ(clFinish((cl_command_queue)c), CL_INVALID_COMMAND_QUEUE);
	CHECK_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

static int g_order[8];
static int g_calls;

static void CL_CALLBACK record(cl_event e, cl_int status, void *data)
{
	(void)e;
	(void)status;
	if (g_calls < 8)
		g_order[g_calls] = (int)(size_t)data;
	g_calls++;
}

TEST(user_event_gates_in_order_queue)
{
	cl_context c = test_context();
	cl_int err;
	cl_command_queue q;
	cl_event user, marker, barrier_ev = NULL;

	REQUIRE(c);
	q = clCreateCommandQueue(c, test_device(), 0, &err);
	REQUIRE(q);
	user = clCreateUserEvent(c, &err);
	REQUIRE(user);
	CHECK_EQ(status_of(user), CL_SUBMITTED);
	CHECK_EQ(clEnqueueMarkerWithWaitList(q, 1, &user, &marker),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueBarrierWithWaitList(q, 0, NULL, &barrier_ev),
		 CL_SUCCESS);
	g_calls = 0;
	CHECK_EQ(clSetEventCallback(marker, CL_COMPLETE, record, (void *)1),
		 CL_SUCCESS);
	CHECK_EQ(clSetEventCallback(barrier_ev, CL_COMPLETE, record,
				    (void *)2), CL_SUCCESS);
	CHECK_EQ(clSetEventCallback(marker, 5, record, NULL),
		 CL_INVALID_VALUE);
	settle();
	/* Nothing runs before the user event is set. */
	CHECK_EQ(status_of(marker), CL_QUEUED);
	CHECK_EQ(status_of(barrier_ev), CL_QUEUED);
	CHECK_EQ(g_calls, 0);
	CHECK_EQ(clSetUserEventStatus(user, 1), CL_INVALID_VALUE);
	CHECK_EQ(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
	CHECK_EQ(clSetUserEventStatus(user, CL_COMPLETE),
		 CL_INVALID_OPERATION);
	CHECK_EQ(clSetUserEventStatus(marker, CL_COMPLETE), CL_INVALID_EVENT);
	CHECK_EQ(clWaitForEvents(1, &barrier_ev), CL_SUCCESS);
	CHECK_EQ(status_of(marker), CL_COMPLETE);
	CHECK_EQ(g_calls, 2);
	CHECK_EQ(g_order[0], 1);
	CHECK_EQ(g_order[1], 2);
	/* Registered after the state was reached: called at once. */
	CHECK_EQ(clSetEventCallback(marker, CL_COMPLETE, record, (void *)3),
		 CL_SUCCESS);
	CHECK_EQ(g_calls, 3);
	clReleaseEvent(user);
	clReleaseEvent(marker);
	clReleaseEvent(barrier_ev);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
}

TEST(failed_wait_list_fails_dependents)
{
	cl_context c = test_context(), other = test_context();
	cl_int err;
	cl_command_queue q;
	cl_event user, marker, foreign;

	REQUIRE(c && other);
	q = clCreateCommandQueue(c, test_device(), 0, &err);
	REQUIRE(q);
	user = clCreateUserEvent(c, &err);
	foreign = clCreateUserEvent(other, &err);
	REQUIRE(user && foreign);
	CHECK_EQ(clEnqueueMarkerWithWaitList(q, 1, NULL, &marker),
		 CL_INVALID_EVENT_WAIT_LIST);
	CHECK_EQ(clEnqueueMarkerWithWaitList(q, 0, &user, &marker),
		 CL_INVALID_EVENT_WAIT_LIST);
	CHECK_EQ(clEnqueueMarkerWithWaitList(q, 1, &foreign, &marker),
		 CL_INVALID_CONTEXT);
	CHECK_EQ(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
	{
		cl_event both[2] = { user, foreign };

		CHECK_EQ(clWaitForEvents(2, both), CL_INVALID_CONTEXT);
	}
	CHECK_EQ(clEnqueueMarkerWithWaitList(q, 1, &user, &marker),
		 CL_SUCCESS);
	CHECK_EQ(clSetUserEventStatus(user, -42), CL_SUCCESS);
	CHECK_EQ(clWaitForEvents(1, &marker),
		 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK_EQ(status_of(marker), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK_EQ(status_of(user), -42);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	clReleaseEvent(user);
	clReleaseEvent(foreign);
	clReleaseEvent(marker);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
	clReleaseContext(other);
}

TEST(out_of_order_queue_runs_what_is_ready)
{
	cl_context c = test_context();
	cl_int err;
	cl_command_queue q;
	cl_event gate, open, blocked, free_runner;

	REQUIRE(c);
	q = clCreateCommandQueue(c, test_device(),
				 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
	REQUIRE(q);
	gate = clCreateUserEvent(c, &err);
	open = clCreateUserEvent(c, &err);
	REQUIRE(gate && open);
	CHECK_EQ(clSetUserEventStatus(open, CL_COMPLETE), CL_SUCCESS);
	CHECK_EQ(clEnqueueMarkerWithWaitList(q, 1, &gate, &blocked),
		 CL_SUCCESS);
	CHECK_EQ(clEnqueueMarkerWithWaitList(q, 1, &open, &free_runner),
		 CL_SUCCESS);
	/* The second command does not wait for the first. */
	CHECK_EQ(clWaitForEvents(1, &free_runner), CL_SUCCESS);
	CHECK_EQ(status_of(blocked), CL_QUEUED);
	CHECK_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	CHECK_EQ(status_of(blocked), CL_COMPLETE);
	clReleaseEvent(gate);
	clReleaseEvent(open);
	clReleaseEvent(blocked);
	clReleaseEvent(free_runner);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
}

TEST(profiling_times)
{
	cl_context c = test_context();
	cl_int err;
	cl_command_queue q, plain;
	cl_event m, n, user;
	cl_ulong t[4] = { 0 };

	REQUIRE(c);
	q = clCreateCommandQueue(c, test_device(), CL_QUEUE_PROFILING_ENABLE,
				 &err);
	plain = clCreateCommandQueue(c, test_device(), 0, &err);
	REQUIRE(q && plain);
	CHECK_EQ(clEnqueueMarkerWithWaitList(q, 0, NULL, &m), CL_SUCCESS);
	CHECK_EQ(clEnqueueMarker(plain, &n), CL_SUCCESS);
	CHECK_EQ(clEnqueueMarker(plain, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clWaitForEvents(1, &m), CL_SUCCESS);
	CHECK_EQ(clWaitForEvents(1, &n), CL_SUCCESS);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(clGetEventProfilingInfo(m, CL_PROFILING_COMMAND_QUEUED
						 + i, sizeof(t[i]), &t[i],
						 NULL), CL_SUCCESS);
	CHECK(t[0] > 0);
	CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]);
	CHECK_EQ(clGetEventProfilingInfo(m, 0x1234, sizeof(t[0]), t, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clGetEventProfilingInfo(n, CL_PROFILING_COMMAND_END,
					 sizeof(t[0]), t, NULL),
		 CL_PROFILING_INFO_NOT_AVAILABLE);
	user = clCreateUserEvent(c, &err);
	REQUIRE(user);
	CHECK_EQ(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_END,
					 sizeof(t[0]), t, NULL),
		 CL_PROFILING_INFO_NOT_AVAILABLE);
	clSetUserEventStatus(user, CL_COMPLETE);
	clReleaseEvent(user);
	clReleaseEvent(m);
	clReleaseEvent(n);
	clReleaseCommandQueue(q);
	clReleaseCommandQueue(plain);
	clReleaseContext(c);
}

TEST(event_info_and_references)
{
	cl_context c = test_context(), got_c = NULL;
	cl_int err;
	cl_command_queue q, got_q = (cl_command_queue)1;
	cl_command_type type = 0;
	cl_uint refs = 0;
	cl_event user, m;

	REQUIRE(c);
	q = clCreateCommandQueue(c, test_device(), 0, &err);
	user = clCreateUserEvent(c, &err);
	REQUIRE(q && user);
	CHECK_EQ(clGetEventInfo(user, CL_EVENT_COMMAND_QUEUE, sizeof(got_q),
				&got_q, NULL), CL_SUCCESS);
	CHECK(got_q == NULL);
	CHECK_EQ(clGetEventInfo(user, CL_EVENT_COMMAND_TYPE, sizeof(type),
				&type, NULL), CL_SUCCESS);
	CHECK_EQ(type, CL_COMMAND_USER);
	CHECK_EQ(clEnqueueBarrierWithWaitList(q, 1, &user, &m), CL_SUCCESS);
	CHECK_EQ(clGetEventInfo(m, CL_EVENT_COMMAND_QUEUE, sizeof(got_q),
				&got_q, NULL), CL_SUCCESS);
	CHECK(got_q == q);
	CHECK_EQ(clGetEventInfo(m, CL_EVENT_CONTEXT, sizeof(got_c), &got_c,
				NULL), CL_SUCCESS);
	CHECK(got_c == c);
	CHECK_EQ(clGetEventInfo(m, CL_EVENT_COMMAND_TYPE, sizeof(type), &type,
				NULL), CL_SUCCESS);
	CHECK_EQ(type, CL_COMMAND_BARRIER);
	CHECK_EQ(clRetainEvent(m), CL_SUCCESS);
	CHECK_EQ(clGetEventInfo(m, CL_EVENT_REFERENCE_COUNT, sizeof(refs),
				&refs, NULL), CL_SUCCESS);
	/* The application's two, and the queue's while it is pending. */
	CHECK(refs >= 2);
	CHECK_EQ(clReleaseEvent(m), CL_SUCCESS);
	CHECK_EQ(clGetEventInfo(m, 0x4321, sizeof(refs), &refs, NULL),
		 CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueWaitForEvents(q, 0, NULL), CL_INVALID_VALUE);
	CHECK_EQ(clEnqueueWaitForEvents(q, 1, &user), CL_SUCCESS);
	CHECK_EQ(clEnqueueBarrier(q), CL_SUCCESS);
	clSetUserEventStatus(user, CL_COMPLETE);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	CHECK_EQ(status_of(m), CL_COMPLETE);
	CHECK_EQ(clReleaseEvent(m), CL_SUCCESS);
	CHECK_EQ(clReleaseEvent(user), CL_SUCCESS);
	CHECK_EQ(clReleaseEvent(NULL), CL_INVALID_EVENT);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
}

static const char empty_src[] =
	"__kernel void k(__global int *p, int n) { if (n) p[0] = n; }\n";

TEST(launch_checks_and_no_gpu)
{
	cl_context c = test_context();
	const char *src = empty_src;
	size_t g1 = 64, g3[3] = { 8, 8, 8 }, l3[3] = { 4, 4, 4 };
	size_t odd = 3, big = (size_t)1 << 33;
	cl_int err, n = 0;
	cl_command_queue q;
	cl_program p;
	cl_kernel k;
	cl_event e;

	REQUIRE(c);
	q = clCreateCommandQueue(c, test_device(), 0, &err);
	p = clCreateProgramWithSource(c, 1, &src, NULL, &err);
	REQUIRE(q && p);
	REQUIRE(clBuildProgram(p, 0, NULL, NULL, NULL, NULL) == CL_SUCCESS);
	k = clCreateKernel(p, "k", &err);
	REQUIRE(k);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g1, NULL, 0, NULL,
					NULL), CL_INVALID_KERNEL_ARGS);
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(k, 1, sizeof(n), &n), CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(NULL, k, 1, NULL, &g1, NULL, 0, NULL,
					NULL), CL_INVALID_COMMAND_QUEUE);
	CHECK_EQ(clEnqueueNDRangeKernel(q, NULL, 1, NULL, &g1, NULL, 0, NULL,
					NULL), CL_INVALID_KERNEL);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 0, NULL, &g1, NULL, 0, NULL,
					NULL), CL_INVALID_WORK_DIMENSION);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 4, NULL, &g1, NULL, 0, NULL,
					NULL), CL_INVALID_WORK_DIMENSION);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, NULL, 0, NULL,
					NULL), CL_INVALID_GLOBAL_WORK_SIZE);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &big, NULL, 0, NULL,
					NULL), CL_INVALID_GLOBAL_WORK_SIZE);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g1, &odd, 0, NULL,
					NULL), CL_INVALID_WORK_GROUP_SIZE);
	/* 4 x 4 x 4 = 64 work-items: valid in every dimension. */
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 3, NULL, g3, l3, 0, NULL, &e),
		 CL_SUCCESS);
	/* No GPU behind the fake device: the launch fails, it does not
	 * hang, and the failure is the event's. */
	CHECK_EQ(clWaitForEvents(1, &e),
		 CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK(status_of(e) < 0);
	clReleaseEvent(e);
	CHECK_EQ(clEnqueueTask(q, k, 0, NULL, NULL), CL_SUCCESS);
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
}

/*
 * Every global size the device's 32-bit size_t holds is accepted, up to
 * 2^32 work-items in all, whatever the local size the runtime chooses:
 * the six sizes of a job's Invocation share 32 bits, and 2^32 - 1 items
 * in groups of 255 (the largest divisor within 256) would take 33. A
 * local size the application chose that no job can hold is a lack of
 * resources (OpenCL 1.2 5.8), not an invalid global size.
 */
TEST(launch_sizes_the_device_accepts)
{
	cl_context c = test_context();
	const char *src = empty_src;
	size_t g_max = 0xFFFFFFFFu, l_255 = 255;
	size_t g_pow2[3] = { 2048, 2048, 1024 };
	size_t g_24 = (size_t)1 << 24;
	cl_int err, n = 0;
	cl_command_queue q;
	cl_program p;
	cl_kernel k;

	REQUIRE(c);
	q = clCreateCommandQueue(c, test_device(), 0, &err);
	p = clCreateProgramWithSource(c, 1, &src, NULL, &err);
	REQUIRE(q && p);
	REQUIRE(clBuildProgram(p, 0, NULL, NULL, NULL, NULL) == CL_SUCCESS);
	k = clCreateKernel(p, "k", &err);
	REQUIRE(k);
	CHECK_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), NULL), CL_SUCCESS);
	CHECK_EQ(clSetKernelArg(k, 1, sizeof(n), &n), CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g_24, NULL, 0, NULL,
					NULL), CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g_max, NULL, 0, NULL,
					NULL), CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 3, NULL, g_pow2, NULL, 0, NULL,
					NULL), CL_SUCCESS);
	CHECK_EQ(clEnqueueNDRangeKernel(q, k, 1, NULL, &g_max, &l_255, 0,
					NULL, NULL), CL_OUT_OF_RESOURCES);
	/* No GPU behind the fake device: the launches fail there. */
	CHECK_EQ(clFinish(q), CL_SUCCESS);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
}

void test_queue_all(void)
{
	RUN(queue_create_and_info);
	RUN(user_event_gates_in_order_queue);
	RUN(failed_wait_list_fails_dependents);
	RUN(out_of_order_queue_runs_what_is_ready);
	RUN(profiling_times);
	RUN(event_info_and_references);
	RUN(launch_checks_and_no_gpu);
	RUN(launch_sizes_the_device_accepts);
}
