/* SPDX-License-Identifier: MIT */
/*
 * Launches in flight (spec §5.8, §5.9, §5.11): the runtime keeps several
 * chains of a queue on the GPU at once, and a queue's thread only ends
 * the chains nobody waits for once something needs them. These tests
 * enqueue far more launches than the chains a queue holds without waiting
 * in between, with arguments changed and input buffers released right
 * after each enqueue (§5.7.2: the arguments are those set when the kernel
 * was enqueued; §5.4.1: a released buffer lives on while commands use
 * it), each result checked against the CPU; and they check that commands
 * end without any wait: polled, with a callback, waited for from another
 * queue.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

/* Well beyond the chains a queue has on the GPU at once (four). */
#define LAUNCHES 24
#define N 256

/*
 * LAUNCHES times: vadd(a_i, b_i, c_i) with a_i and b_i made for it and
 * released right after the enqueue, and add_k(d_i, i) with the value
 * argument set anew for every launch; nothing waits until all are
 * enqueued. Then c_i = a_i + b_i and d_i = its start + i, for every i.
 */
static void launches_in_flight(cl_command_queue_properties props)
{
	cl_command_queue q = cl_api_queue(props);
	cl_kernel vadd = cl_api_kernel("vadd");
	cl_kernel add = cl_api_kernel("add_k");
	cl_mem c[LAUNCHES] = { 0 }, d[LAUNCHES] = { 0 };
	static float a_host[LAUNCHES][N], b_host[LAUNCHES][N];
	static cl_int d_host[LAUNCHES][N];
	size_t global = N;
	int bad = 0;

	REQUIRE(q && vadd && add);
	for (int i = 0; i < LAUNCHES; i++) {
		cl_mem a, b;

		for (int j = 0; j < N; j++) {
			a_host[i][j] = (float)(i * 1000 + j);
			b_host[i][j] = (float)(j - 7 * i) * 0.5f;
			d_host[i][j] = j * 3 - i;
		}
		a = cl_api_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				  sizeof(a_host[i]), a_host[i]);
		b = cl_api_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
				  sizeof(b_host[i]), b_host[i]);
		c[i] = cl_api_buffer(CL_MEM_WRITE_ONLY, sizeof(a_host[i]),
				     NULL);
		d[i] = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
				     sizeof(d_host[i]), d_host[i]);
		REQUIRE(a && b && c[i] && d[i]);
		CHECK_ERR(clSetKernelArg(vadd, 0, sizeof(a), &a), CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(vadd, 1, sizeof(b), &b), CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(vadd, 2, sizeof(c[i]), &c[i]),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &global,
						 NULL, 0, NULL, NULL),
			  CL_SUCCESS);
		/* Only the launch holds them now. */
		CHECK_ERR(clReleaseMemObject(a), CL_SUCCESS);
		CHECK_ERR(clReleaseMemObject(b), CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(add, 0, sizeof(d[i]), &d[i]),
			  CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(add, 1, sizeof(i), &i), CL_SUCCESS);
		CHECK_ERR(clEnqueueNDRangeKernel(q, add, 1, NULL, &global,
						 NULL, 0, NULL, NULL),
			  CL_SUCCESS);
	}
	/* What the next launch would use; the ones enqueued keep theirs. */
	{
		cl_int other = 1000000;

		CHECK_ERR(clSetKernelArg(add, 1, sizeof(other), &other),
			  CL_SUCCESS);
	}
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	for (int i = 0; i < LAUNCHES; i++) {
		float got_c[N];
		cl_int got_d[N];

		CHECK_ERR(clEnqueueReadBuffer(q, c[i], CL_TRUE, 0,
					      sizeof(got_c), got_c, 0, NULL,
					      NULL),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueReadBuffer(q, d[i], CL_TRUE, 0,
					      sizeof(got_d), got_d, 0, NULL,
					      NULL),
			  CL_SUCCESS);
		for (int j = 0; j < N; j++) {
			bool ok = got_c[j] == a_host[i][j] + b_host[i][j] &&
				  got_d[j] == d_host[i][j] + i;

			if (!ok && bad++ < 4)
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "launch %d item %d: c %g (want "
					      "%g), d %d (want %d)",
					      i, j, got_c[j],
					      a_host[i][j] + b_host[i][j],
					      got_d[j], d_host[i][j] + i);
		}
		clReleaseMemObject(c[i]);
		clReleaseMemObject(d[i]);
	}
	clReleaseKernel(vadd);
	clReleaseKernel(add);
	clReleaseCommandQueue(q);
}

TEST(launches_in_flight_in_order)
{
	launches_in_flight(0);
}

TEST(launches_in_flight_out_of_order)
{
	launches_in_flight(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
}

/* Many launches on one buffer, each on the result of the one before,
 * through chains that follow each other on the GPU: in order. */
TEST(launches_in_flight_keep_order)
{
	cl_command_queue q = cl_api_queue(0);
	cl_kernel add = cl_api_kernel("add_k");
	cl_kernel mul = cl_api_kernel("mul_k");
	cl_int data[N], back[N], want[N];
	cl_mem buf;
	size_t global = N;
	int bad = 0;

	REQUIRE(q && add && mul);
	for (int j = 0; j < N; j++)
		want[j] = data[j] = j - N / 2;
	buf = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			    sizeof(data), data);
	REQUIRE(buf);
	CHECK_ERR(clSetKernelArg(add, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(mul, 0, sizeof(buf), &buf), CL_SUCCESS);
	/* x * 3 + i and x * -1 do not commute: any two swapped launches
	 * change the result. */
	for (int i = 0; i < LAUNCHES; i++) {
		cl_int three = i % 2 ? -1 : 3;

		CHECK_ERR(clSetKernelArg(mul, 1, sizeof(three), &three),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueNDRangeKernel(q, mul, 1, NULL, &global,
						 NULL, 0, NULL, NULL),
			  CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(add, 1, sizeof(i), &i), CL_SUCCESS);
		CHECK_ERR(clEnqueueNDRangeKernel(q, add, 1, NULL, &global,
						 NULL, 0, NULL, NULL),
			  CL_SUCCESS);
		for (int j = 0; j < N; j++)
			want[j] = want[j] * three + i;
	}
	CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(back), back,
				      0, NULL, NULL),
		  CL_SUCCESS);
	for (int j = 0; j < N; j++)
		if (back[j] != want[j] && bad++ < 4)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "item %d: %d, want %d", j, back[j],
				      want[j]);
	clReleaseMemObject(buf);
	clReleaseKernel(add);
	clReleaseKernel(mul);
	clReleaseCommandQueue(q);
}

static int completed;

static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *data)
{
	(void)e;
	(void)data;
	if (status == CL_COMPLETE)
		__atomic_add_fetch(&completed, 1, __ATOMIC_RELEASE);
}

/* A launch on @q, its event returned; the buffer is the caller's. */
static cl_event launch_add(cl_command_queue q, cl_kernel add, cl_mem buf,
			   cl_int k)
{
	size_t global = N;
	cl_event e = NULL;

	CHECK_ERR(clSetKernelArg(add, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(add, 1, sizeof(k), &k), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 0,
					 NULL, &e),
		  CL_SUCCESS);
	return e;
}

/*
 * §5.9: a command's status moves on by itself; no clFinish, clWaitFor-
 * Events or blocking call is needed for a launch to complete, whether the
 * application polls its status, waits for its callback, or waits for a
 * command of another queue that depends on it.
 */
TEST(launches_end_without_a_wait)
{
	cl_command_queue q = cl_api_queue(0), other = cl_api_queue(0);
	cl_kernel add = cl_api_kernel("add_k");
	cl_int zeros[N] = { 0 };
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
				   sizeof(zeros), zeros);
	cl_event e, marker = NULL;
	cl_int status = CL_QUEUED;

	REQUIRE(q && other && add && buf);
	/* Polled. */
	e = launch_add(q, add, buf, 1);
	REQUIRE(e);
	for (int waited = 0; waited < 20000; waited += 2) {
		CHECK_ERR(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS,
					 sizeof(status), &status, NULL),
			  CL_SUCCESS);
		if (status <= CL_COMPLETE)
			break;
		cl_api_sleep_ms(2);
	}
	CHECK_ERR(status, CL_COMPLETE);
	clReleaseEvent(e);

	/* A callback, the flag polled without any OpenCL call. */
	completed = 0;
	e = launch_add(q, add, buf, 2);
	REQUIRE(e);
	CHECK_ERR(clSetEventCallback(e, CL_COMPLETE, on_complete, NULL),
		  CL_SUCCESS);
	CHECK(cl_api_wait_flag(&completed, 1, 20000));
	clReleaseEvent(e);

	/* Another queue's marker waiting for it, its callback awaited. */
	completed = 0;
	e = launch_add(q, add, buf, 3);
	REQUIRE(e);
	CHECK_ERR(clEnqueueMarkerWithWaitList(other, 1, &e, &marker),
		  CL_SUCCESS);
	REQUIRE(marker);
	CHECK_ERR(clSetEventCallback(marker, CL_COMPLETE, on_complete, NULL),
		  CL_SUCCESS);
	CHECK(cl_api_wait_flag(&completed, 1, 20000));
	CHECK_ERR(cl_api_event_status(e), CL_COMPLETE);
	clReleaseEvent(marker);
	clReleaseEvent(e);

	/*
	 * §5.1: a queue released with a launch on the GPU goes once the
	 * launch completed; nothing waits for it, and the context's
	 * reference count (which the queue and its commands hold) is all
	 * that is asked meanwhile.
	 */
	{
		cl_uint before, now = 0;
		cl_command_queue gone;

		/*
		 * The commands above may hold the context a moment after
		 * they completed (the runtime lets their events go once the
		 * callbacks ran): the baseline is the settled count.
		 */
		CHECK_ERR(clFinish(q), CL_SUCCESS);
		CHECK_ERR(clFinish(other), CL_SUCCESS);
		before = cl_api_refcount(api.ctx, REF_CONTEXT);
		for (int waited = 0; waited < 2000; waited += 20) {
			cl_api_sleep_ms(20);
			now = cl_api_refcount(api.ctx, REF_CONTEXT);
			if (now == before)
				break;
			before = now;
		}
		gone = cl_api_queue(0);

		REQUIRE(gone);
		clReleaseEvent(launch_add(gone, add, buf, 4));
		CHECK_ERR(clReleaseCommandQueue(gone), CL_SUCCESS);
		for (int waited = 0; waited < 20000; waited += 5) {
			now = cl_api_refcount(api.ctx, REF_CONTEXT);
			if (now == before)
				break;
			cl_api_sleep_ms(5);
		}
		CHECK_EQ(now, before);
	}
	/* Every launch ran once: 1 + 2 + 3 + 4 on each item. */
	{
		cl_int back[N];
		int bad = 0;

		CHECK_ERR(clEnqueueReadBuffer(other, buf, CL_TRUE, 0,
					      sizeof(back), back, 0, NULL,
					      NULL),
			  CL_SUCCESS);
		for (int j = 0; j < N; j++)
			bad += back[j] != 10;
		CHECK_EQ(bad, 0);
	}
	clReleaseMemObject(buf);
	clReleaseKernel(add);
	clReleaseCommandQueue(q);
	clReleaseCommandQueue(other);
}

static int destroyed;

static void CL_CALLBACK on_destroyed(cl_mem mem, void *data)
{
	(void)mem;
	(void)data;
	__atomic_add_fetch(&destroyed, 1, __ATOMIC_RELEASE);
}

/*
 * What waits for launches other than through their events, with nobody
 * waiting for those: §5.4.1, a buffer released while a launch uses it is
 * destroyed (its destructor callback called) once the launch completed;
 * §5.6.2, a program whose kernels were all released builds again once
 * the launches of its old executable ended (the build waits for them).
 */
TEST(launch_users_end_without_a_wait)
{
	size_t size = 0, global = N;
	unsigned char *bin = cl_api_main_binary(&size);
	const unsigned char *bins[1] = { bin };
	static float fa[N], fc[N];
	cl_mem a = NULL, c = NULL;
	cl_program p = NULL;
	cl_kernel k = NULL;
	cl_int err = 1;
	bool ok = true;

	REQUIRE(bin);
	p = clCreateProgramWithBinary(api.ctx, 1, &api.device, &size, bins,
				      NULL, &err);
	free(bin);
	REQUIRE(p);
	CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
	k = clCreateKernel(p, "vadd", &err);
	REQUIRE(k);
	for (int i = 0; i < N; i++)
		fa[i] = (float)i * 1.5f;
	a = cl_api_buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(fa),
			  fa);
	c = cl_api_buffer(CL_MEM_WRITE_ONLY, sizeof(fc), NULL);
	REQUIRE(a && c);
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(a), &a), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(a), &a), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(c), &c), CL_SUCCESS);
	destroyed = 0;
	CHECK_ERR(clSetMemObjectDestructorCallback(a, on_destroyed, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 1, NULL, &global, NULL,
					 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clReleaseMemObject(a), CL_SUCCESS);
	CHECK(cl_api_wait_flag(&destroyed, 1, 20000));

	{
		cl_mem a2 = cl_api_buffer(CL_MEM_READ_ONLY |
					  CL_MEM_COPY_HOST_PTR,
					  sizeof(fa), fa);

		REQUIRE(a2);
		CHECK_ERR(clSetKernelArg(k, 0, sizeof(a2), &a2), CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(k, 1, sizeof(a2), &a2), CL_SUCCESS);
		CHECK_ERR(clEnqueueNDRangeKernel(api.queue, k, 1, NULL, &global,
						 NULL, 0, NULL, NULL),
			  CL_SUCCESS);
		clReleaseMemObject(a2);
	}
	/* The launch of the old executable still runs; the build (on this
	 * thread, nothing else waiting) waits for it. */
	CHECK_ERR(clReleaseKernel(k), CL_SUCCESS);
	CHECK_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(api.queue, c, CL_TRUE, 0, sizeof(fc), fc,
				      0, NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < N; i++)
		ok &= fc[i] == fa[i] + fa[i];
	CHECK(ok);
	clReleaseMemObject(c);
	clReleaseProgram(p);
}

#define THREADS 4
#define ROUNDS 24

struct worker {
	cl_command_queue q;
	cl_kernel add;
	cl_mem buf;
	int id;
	cl_int err;                  /* the first error, CL_SUCCESS if none */
};

/* ROUNDS times: add_k(buf, id + r) on the shared queue, then a wait for
 * it: clFinish, clWaitForEvents or a blocking read, in turn. */
static void *worker_run(void *arg)
{
	struct worker *w = arg;
	size_t global = N;

	for (int r = 0; r < ROUNDS && w->err == CL_SUCCESS; r++) {
		cl_int k = w->id + r, back[N];
		cl_event e = NULL;

		w->err = clSetKernelArg(w->add, 1, sizeof(k), &k);
		if (!w->err)
			w->err = clEnqueueNDRangeKernel(w->q, w->add, 1, NULL,
							&global, NULL, 0, NULL,
							&e);
		if (w->err)
			break;
		switch (r % 3) {
		case 0:
			w->err = clFinish(w->q);
			break;
		case 1:
			w->err = clWaitForEvents(1, &e);
			break;
		default:
			w->err = clEnqueueReadBuffer(w->q, w->buf, CL_TRUE, 0,
						     sizeof(back), back, 0,
						     NULL, NULL);
			break;
		}
		if (!w->err && cl_api_event_status(e) != CL_COMPLETE)
			w->err = CL_INVALID_EVENT;
		clReleaseEvent(e);
	}
	return NULL;
}

/*
 * §5.1 (command queues may be shared by threads): THREADS threads enqueue
 * launches on one in-order queue and wait for them at once, each its own
 * kernel object and buffer (clSetKernelArg is not thread-safe on one
 * kernel); every launch completes, and each buffer has every one of its
 * thread's additions.
 */
TEST(threads_share_a_queue)
{
	cl_command_queue q = cl_api_queue(0);
	struct worker w[THREADS];
	pthread_t t[THREADS];
	int started = 0;

	REQUIRE(q);
	for (int i = 0; i < THREADS; i++) {
		cl_int zeros[N] = { 0 };

		w[i] = (struct worker){ .q = q, .id = 100 * i,
					.err = CL_SUCCESS };
		w[i].add = cl_api_kernel("add_k");
		w[i].buf = cl_api_buffer(CL_MEM_READ_WRITE |
					 CL_MEM_COPY_HOST_PTR, sizeof(zeros),
					 zeros);
		REQUIRE(w[i].add && w[i].buf);
		CHECK_ERR(clSetKernelArg(w[i].add, 0, sizeof(w[i].buf),
					 &w[i].buf),
			  CL_SUCCESS);
	}
	for (int i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker_run, &w[i]) == 0)
			started++;
	CHECK_EQ(started, THREADS);
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	for (int i = 0; i < THREADS; i++) {
		cl_int back[N], want = 0;
		int bad = 0;

		CHECK_ERR(w[i].err, CL_SUCCESS);
		for (int r = 0; r < ROUNDS; r++)
			want += w[i].id + r;
		CHECK_ERR(clEnqueueReadBuffer(q, w[i].buf, CL_TRUE, 0,
					      sizeof(back), back, 0, NULL,
					      NULL),
			  CL_SUCCESS);
		for (int j = 0; j < N; j++)
			bad += back[j] != want;
		if (bad)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "thread %d: %d items wrong (item 0 %d, "
				      "want %d)", i, bad, back[0], want);
		clReleaseMemObject(w[i].buf);
		clReleaseKernel(w[i].add);
	}
	clReleaseCommandQueue(q);
}

void cl_api_ring_tests(void)
{
	API_RUN(launches_in_flight_in_order);
	API_RUN(launches_in_flight_out_of_order);
	API_RUN(launches_in_flight_keep_order);
	API_RUN(launches_end_without_a_wait);
	API_RUN(launch_users_end_without_a_wait);
	API_RUN(threads_share_a_queue);
}
