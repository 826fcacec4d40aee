/* SPDX-License-Identifier: MIT */
/*
 * Events (spec §5.9): queries, user events, callbacks, waits, and
 * profiling (§5.12). Callbacks may run on any thread, so they only store
 * to flags the test polls with a deadline.
 */
#include "cl_api.h"

#define N 1024

static cl_event user_event(void)
{
	cl_int err = 1;
	cl_event e = clCreateUserEvent(api.ctx, &err);

	if (!e)
		CHECK_FAIL_AT(__FILE__, __LINE__, "clCreateUserEvent: %s",
			      cl_err_name(err));
	return e;
}

TEST(event_info)
{
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_int data[N] = { 0 };
	cl_event e = NULL;
	cl_command_queue q = NULL;
	cl_context c = NULL;
	cl_command_type t = 0;
	cl_int status = 1;
	cl_uint refs;

	REQUIRE(buf);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0, sizeof(data),
				       data, 0, NULL, &e),
		  CL_SUCCESS);
	REQUIRE(e);
	CHECK_ERR(
		clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, NULL),
		CL_SUCCESS);
	CHECK(q == api.queue);
	CHECK_ERR(clGetEventInfo(e, CL_EVENT_CONTEXT, sizeof(c), &c, NULL),
		  CL_SUCCESS);
	CHECK(c == api.ctx);
	CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof(t), &t, NULL),
		  CL_SUCCESS);
	CHECK_EQ(t, CL_COMMAND_WRITE_BUFFER);
	/* A blocking write has completed when it returns (§5.2.2). */
	CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS,
				 sizeof(status), &status, NULL),
		  CL_SUCCESS);
	CHECK_EQ(status, CL_COMPLETE);
	CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, 2,
				 &status, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetEventInfo(e, 0x7777, sizeof(status), &status, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetEventInfo((cl_event)buf, CL_EVENT_COMMAND_TYPE,
				 sizeof(t), &t, NULL),
		  CL_INVALID_EVENT);
	refs = cl_api_refcount(e, REF_EVENT);
	CHECK_ERR(clRetainEvent(e), CL_SUCCESS);
	CHECK_EQ(cl_api_refcount(e, REF_EVENT), refs + 1);
	CHECK_ERR(clReleaseEvent(e), CL_SUCCESS);
	CHECK_EQ(cl_api_refcount(e, REF_EVENT), refs);
	CHECK_ERR(clRetainEvent((cl_event)buf), CL_INVALID_EVENT);
	CHECK_ERR(clReleaseEvent((cl_event)buf), CL_INVALID_EVENT);
	CHECK_ERR(clReleaseEvent(e), CL_SUCCESS);
	clReleaseMemObject(buf);
}

TEST(user_event_basics)
{
	cl_event ue = user_event(), done = NULL;
	cl_command_queue q = (cl_command_queue)1;
	cl_command_type t = 0;
	cl_int err = 1;
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, 64, NULL);
	cl_int zero[16] = { 0 };

	REQUIRE(ue && buf);
	/* §5.9 clCreateUserEvent: CL_SUBMITTED, no queue, CL_COMMAND_USER. */
	CHECK_EQ(cl_api_event_status(ue), CL_SUBMITTED);
	CHECK_ERR(
		clGetEventInfo(ue, CL_EVENT_COMMAND_QUEUE, sizeof(q), &q, NULL),
		CL_SUCCESS);
	CHECK(q == NULL);
	CHECK_ERR(
		clGetEventInfo(ue, CL_EVENT_COMMAND_TYPE, sizeof(t), &t, NULL),
		CL_SUCCESS);
	CHECK_EQ(t, CL_COMMAND_USER);
	/* clSetUserEventStatus: CL_COMPLETE or negative only, and once. */
	CHECK_ERR(clSetUserEventStatus(ue, CL_RUNNING), CL_INVALID_VALUE);
	CHECK_ERR(clSetUserEventStatus(ue, CL_SUBMITTED), CL_INVALID_VALUE);
	CHECK_ERR(clSetUserEventStatus(ue, 7), CL_INVALID_VALUE);
	CHECK_ERR(clSetUserEventStatus(ue, CL_COMPLETE), CL_SUCCESS);
	CHECK_EQ(cl_api_event_status(ue), CL_COMPLETE);
	CHECK_ERR(clSetUserEventStatus(ue, CL_COMPLETE), CL_INVALID_OPERATION);
	CHECK_ERR(clSetUserEventStatus(ue, -1), CL_INVALID_OPERATION);
	CHECK_ERR(clWaitForEvents(1, &ue), CL_SUCCESS);
	/* Not a user event, or not an event at all. */
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0, sizeof(zero),
				       zero, 0, NULL, &done),
		  CL_SUCCESS);
	if (done) {
		CHECK_ERR(clSetUserEventStatus(done, CL_COMPLETE),
			  CL_INVALID_EVENT);
		clReleaseEvent(done);
	}
	CHECK_ERR(clSetUserEventStatus((cl_event)buf, CL_COMPLETE),
		  CL_INVALID_EVENT);
	CHECK_NULL_ERR(clCreateUserEvent((cl_context)api.queue, &err), err,
		       CL_INVALID_CONTEXT);
	clReleaseEvent(ue);
	clReleaseMemObject(buf);
}

/* A command waiting on a user event does not run until it is set. */
TEST(user_event_gates_a_kernel)
{
	cl_command_queue q = cl_api_queue(0);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_kernel add = cl_api_kernel("add_k");
	cl_event gate = user_event(), k = NULL;
	cl_int data[N], back[N], three = 3, s;
	size_t global = N;
	bool ok = true;

	REQUIRE(q && buf && add && gate);
	for (int i = 0; i < N; i++)
		data[i] = i;
	CHECK_ERR(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof(data), data,
				       0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(three), &three), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 1,
					 &gate, &k),
		  CL_SUCCESS);
	CHECK_ERR(clFlush(q), CL_SUCCESS);
	cl_api_sleep_ms(300);
	s = cl_api_event_status(k);
	if (s != CL_QUEUED && s != CL_SUBMITTED)
		CHECK_FAIL_AT(
			__FILE__, __LINE__,
			"a kernel waiting on an unset user event has "
			"status %d (CL_QUEUED 3 or CL_SUBMITTED 2 expected)",
			s);
	CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &k), CL_SUCCESS);
	CHECK_EQ(cl_api_event_status(k), CL_COMPLETE);
	CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(back), back, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < N; i++)
		ok &= back[i] == i + 3;
	CHECK(ok);
	clReleaseEvent(gate);
	clReleaseEvent(k);
	clReleaseKernel(add);
	clReleaseMemObject(buf);
	clReleaseCommandQueue(q);
}

static int cb_count[3];
static cl_int cb_status[3];
static cl_event cb_event[3];

static void CL_CALLBACK on_event(cl_event e, cl_int status, void *user_data)
{
	int slot = (int)(intptr_t)user_data;

	cb_event[slot] = e;
	cb_status[slot] = status;
	__atomic_add_fetch(&cb_count[slot], 1, __ATOMIC_RELEASE);
}

static void reset_callbacks(void)
{
	memset(cb_count, 0, sizeof(cb_count));
	memset(cb_status, 0x55, sizeof(cb_status));
	memset(cb_event, 0, sizeof(cb_event));
}

/*
 * Setting a user event negative fails what waits on it (§5.9
 * clSetUserEventStatus: "a negative integer value causes all enqueued
 * commands that wait on this user event to be terminated"): waits report
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, the command's status is
 * negative, its CL_COMPLETE callback gets the error, and it did nothing.
 */
TEST(user_event_failure_fails_dependents)
{
	cl_command_queue q = cl_api_queue(0);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_event gate = user_event(), w = NULL;
	cl_int data[N], back[N], before[N];

	REQUIRE(q && buf && gate);
	reset_callbacks();
	for (int i = 0; i < N; i++) {
		before[i] = -i;
		data[i] = i;
	}
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0,
				       sizeof(before), before, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(data), data,
				       1, &gate, &w),
		  CL_SUCCESS);
	REQUIRE(w);
	CHECK_ERR(clSetEventCallback(w, CL_COMPLETE, on_event, (void *)0),
		  CL_SUCCESS);
	CHECK_ERR(clSetEventCallback(gate, CL_COMPLETE, on_event, (void *)1),
		  CL_SUCCESS);
	CHECK_ERR(clFlush(q), CL_SUCCESS);
	CHECK_ERR(clSetUserEventStatus(gate, -42), CL_SUCCESS);
	CHECK_EQ(cl_api_event_status(gate), -42);
	CHECK_ERR(clWaitForEvents(1, &gate),
		  CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK_ERR(clWaitForEvents(1, &w),
		  CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK(cl_api_event_status(w) < 0);
	/* §5.2.2: a blocking read waiting on a failed event says so. */
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, sizeof(back),
				      back, 1, &w, NULL),
		  CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, buf, CL_TRUE, 0, sizeof(back),
				      back, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK(memcmp(back, before, sizeof(back)) == 0);
	/* §5.9 clSetEventCallback: an abnormal end passes the error. */
	CHECK(cl_api_wait_flag(&cb_count[0], 1, 5000));
	CHECK(cb_status[0] < 0);
	CHECK(cb_event[0] == w);
	CHECK(cl_api_wait_flag(&cb_count[1], 1, 5000));
	CHECK_EQ(cb_status[1], -42);
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	clReleaseEvent(gate);
	clReleaseEvent(w);
	clReleaseMemObject(buf);
	clReleaseCommandQueue(q);
}

/*
 * §5.9 clSetEventCallback: each callback is called once the event reaches
 * its state or a later one, also when registered after that; it gets the
 * event, the state registered for and its user data.
 */
TEST(event_callbacks)
{
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_kernel add = cl_api_kernel("add_k");
	cl_event ue = user_event(), k = NULL;
	static const cl_int states[3] = { CL_SUBMITTED, CL_RUNNING,
					  CL_COMPLETE };
	cl_int one = 1;
	size_t global = N;

	REQUIRE(buf && add && ue);
	reset_callbacks();
	/* A user event is CL_SUBMITTED already: that callback comes now. */
	CHECK_ERR(clSetEventCallback(ue, CL_SUBMITTED, on_event, (void *)0),
		  CL_SUCCESS);
	CHECK_ERR(clSetEventCallback(ue, CL_COMPLETE, on_event, (void *)1),
		  CL_SUCCESS);
	CHECK(cl_api_wait_flag(&cb_count[0], 1, 5000));
	CHECK_EQ(cb_status[0], CL_SUBMITTED);
	CHECK(cb_event[0] == ue);
	cl_api_sleep_ms(50);
	CHECK_EQ(__atomic_load_n(&cb_count[1], __ATOMIC_ACQUIRE), 0);
	CHECK_ERR(clSetUserEventStatus(ue, CL_COMPLETE), CL_SUCCESS);
	CHECK(cl_api_wait_flag(&cb_count[1], 1, 5000));
	CHECK_EQ(cb_status[1], CL_COMPLETE);
	/* Registered after completion. */
	CHECK_ERR(clSetEventCallback(ue, CL_COMPLETE, on_event, (void *)2),
		  CL_SUCCESS);
	CHECK(cl_api_wait_flag(&cb_count[2], 1, 5000));
	CHECK_EQ(cb_status[2], CL_COMPLETE);
	CHECK_EQ(__atomic_load_n(&cb_count[0], __ATOMIC_ACQUIRE), 1);
	CHECK_EQ(__atomic_load_n(&cb_count[1], __ATOMIC_ACQUIRE), 1);

	/* A kernel's three states. */
	reset_callbacks();
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(one), &one), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, add, 1, NULL, &global, NULL,
					 0, NULL, &k),
		  CL_SUCCESS);
	REQUIRE(k);
	for (int i = 0; i < 3; i++)
		CHECK_ERR(clSetEventCallback(k, states[i], on_event,
					     (void *)(intptr_t)i),
			  CL_SUCCESS);
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	for (int i = 0; i < 3; i++) {
		CHECK(cl_api_wait_flag(&cb_count[i], 1, 5000));
		CHECK_EQ(cb_status[i], states[i]);
		CHECK(cb_event[i] == k);
	}
	/* Errors. */
	CHECK_ERR(clSetEventCallback(k, CL_QUEUED, on_event, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clSetEventCallback(k, 1234, on_event, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clSetEventCallback(k, CL_COMPLETE, NULL, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(
		clSetEventCallback((cl_event)buf, CL_COMPLETE, on_event, NULL),
		CL_INVALID_EVENT);
	clReleaseEvent(k);
	clReleaseEvent(ue);
	clReleaseKernel(add);
	clReleaseMemObject(buf);
}

TEST(wait_for_events)
{
	cl_context other =
		clCreateContext(NULL, 1, &api.device, NULL, NULL, NULL);
	cl_event list[2] = { NULL, NULL }, not_event = (cl_event)api.queue;
	cl_int err = 1;

	REQUIRE(other);
	list[0] = user_event();
	list[1] = clCreateUserEvent(other, &err);
	REQUIRE(list[0] && list[1]);
	/* §5.10 clWaitForEvents */
	CHECK_ERR(clWaitForEvents(0, list), CL_INVALID_VALUE);
	CHECK_ERR(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
	CHECK_ERR(clWaitForEvents(1, &not_event), CL_INVALID_EVENT);
	CHECK_ERR(clWaitForEvents(2, list), CL_INVALID_CONTEXT);
	CHECK_ERR(clSetUserEventStatus(list[0], CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clSetUserEventStatus(list[1], CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &list[0]), CL_SUCCESS);
	clReleaseEvent(list[0]);
	clReleaseEvent(list[1]);
	clReleaseContext(other);
}

/*
 * §5.12: with CL_QUEUE_PROFILING_ENABLE the four times of a complete
 * command are ordered QUEUED <= SUBMIT <= START <= END; without it, for a
 * user event, or before the command completed, the query is
 * CL_PROFILING_INFO_NOT_AVAILABLE.
 */
TEST(profiling)
{
	static const cl_profiling_info times[4] = {
		CL_PROFILING_COMMAND_QUEUED,
		CL_PROFILING_COMMAND_SUBMIT,
		CL_PROFILING_COMMAND_START,
		CL_PROFILING_COMMAND_END,
	};
	cl_command_queue pq = cl_api_queue(CL_QUEUE_PROFILING_ENABLE);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_kernel add = cl_api_kernel("add_k");
	cl_event k = NULL, w = NULL, plain = NULL, ue = user_event(),
		 held = NULL;
	cl_ulong t[4] = { 0 }, v = 0;
	cl_int data[N] = { 0 }, one = 1;
	size_t global = N;

	REQUIRE(pq && buf && add && ue);
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(one), &one), CL_SUCCESS);
	CHECK_ERR(clEnqueueWriteBuffer(pq, buf, CL_FALSE, 0, sizeof(data), data,
				       0, NULL, &w),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(pq, add, 1, NULL, &global, NULL, 0,
					 NULL, &k),
		  CL_SUCCESS);
	CHECK_ERR(clFinish(pq), CL_SUCCESS);
	REQUIRE(k && w);
	for (int i = 0; i < 4; i++)
		CHECK_ERR(clGetEventProfilingInfo(k, times[i], sizeof(t[i]),
						  &t[i], NULL),
			  CL_SUCCESS);
	if (!(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]))
		CHECK_FAIL_AT(
			__FILE__, __LINE__,
			"kernel times out of order: queued %llu submit "
			"%llu start %llu end %llu",
			(unsigned long long)t[0], (unsigned long long)t[1],
			(unsigned long long)t[2], (unsigned long long)t[3]);
	CHECK(t[0] != 0);
	/* A kernel of 1024 adds does not take a minute. */
	CHECK(t[3] - t[2] < 60ull * 1000000000ull);
	printf("  kernel: queued->end %llu us, GPU %llu us\n",
	       (unsigned long long)(t[3] - t[0]) / 1000,
	       (unsigned long long)(t[3] - t[2]) / 1000);
	for (int i = 0; i < 4; i++)
		CHECK_ERR(clGetEventProfilingInfo(w, times[i], sizeof(t[i]),
						  &t[i], NULL),
			  CL_SUCCESS);
	CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]);
	CHECK_ERR(clGetEventProfilingInfo(k, CL_PROFILING_COMMAND_END, 4, &v,
					  NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetEventProfilingInfo(k, 0x7777, sizeof(v), &v, NULL),
		  CL_INVALID_VALUE);
	CHECK_ERR(clGetEventProfilingInfo((cl_event)buf,
					  CL_PROFILING_COMMAND_END, sizeof(v),
					  &v, NULL),
		  CL_INVALID_EVENT);

	/* Not complete yet. */
	CHECK_ERR(clEnqueueNDRangeKernel(pq, add, 1, NULL, &global, NULL, 1,
					 &ue, &held),
		  CL_SUCCESS);
	CHECK_ERR(clGetEventProfilingInfo(held, CL_PROFILING_COMMAND_END,
					  sizeof(v), &v, NULL),
		  CL_PROFILING_INFO_NOT_AVAILABLE);
	/* A user event. */
	CHECK_ERR(clGetEventProfilingInfo(ue, CL_PROFILING_COMMAND_QUEUED,
					  sizeof(v), &v, NULL),
		  CL_PROFILING_INFO_NOT_AVAILABLE);
	CHECK_ERR(clSetUserEventStatus(ue, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clFinish(pq), CL_SUCCESS);
	CHECK_ERR(clGetEventProfilingInfo(ue, CL_PROFILING_COMMAND_END,
					  sizeof(v), &v, NULL),
		  CL_PROFILING_INFO_NOT_AVAILABLE);
	/* A queue without profiling. */
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, add, 1, NULL, &global, NULL,
					 0, NULL, &plain),
		  CL_SUCCESS);
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	CHECK_ERR(clGetEventProfilingInfo(plain, CL_PROFILING_COMMAND_START,
					  sizeof(v), &v, NULL),
		  CL_PROFILING_INFO_NOT_AVAILABLE);
	clReleaseEvent(k);
	clReleaseEvent(w);
	clReleaseEvent(held);
	clReleaseEvent(plain);
	clReleaseEvent(ue);
	clReleaseKernel(add);
	clReleaseMemObject(buf);
	clReleaseCommandQueue(pq);
}

/* An event outlives the application's reference while its command runs,
 * and the last release after completion frees it (no crash, no hang). */
TEST(event_release_while_pending)
{
	cl_command_queue q = cl_api_queue(0);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N * 4, NULL);
	cl_event gate = user_event(), w = NULL;
	cl_int data[N], back[N];

	REQUIRE(q && buf && gate);
	for (int i = 0; i < N; i++)
		data[i] = 3 * i;
	CHECK_ERR(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(data), data,
				       1, &gate, &w),
		  CL_SUCCESS);
	CHECK_ERR(clReleaseEvent(w), CL_SUCCESS);
	CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clReleaseEvent(gate), CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(back), back, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	CHECK(memcmp(back, data, sizeof(back)) == 0);
	clReleaseMemObject(buf);
	clReleaseCommandQueue(q);
}

void cl_api_event_tests(void)
{
	API_RUN(event_info);
	API_RUN(user_event_basics);
	API_RUN(user_event_gates_a_kernel);
	API_RUN(user_event_failure_fails_dependents);
	API_RUN(event_callbacks);
	API_RUN(wait_for_events);
	API_RUN(profiling);
	API_RUN(event_release_while_pending);
}
