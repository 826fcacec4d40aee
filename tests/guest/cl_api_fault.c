/* SPDX-License-Identifier: MIT */
/*
 * cl_api_test fault: a kernel that writes far outside its buffer faults
 * the GPU. The issue: "a GPU fault surfaces as a negative event status,
 * never a hang". In spec terms (§5.9) the command's execution status
 * becomes a negative error, clWaitForEvents on it returns
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, a blocking command waiting
 * on it says the same (§5.2.2), its CL_COMPLETE callback gets the error,
 * and clFinish returns. Then a kernel in another context (each context
 * has its own GPU address space) gives correct results. An endless kernel
 * ends the same way once the driver's timeout stops it.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <time.h>

#include "cl_api.h"

/* poke() writes at p[index + id]: 2^29 ints = 2 GiB past the buffer,
 * where a fresh context has nothing mapped. */
#define FAR_INDEX 0x20000000u
#define COUNT 4096

struct context {
	cl_context ctx;
	cl_command_queue queue;
	cl_program prog;
};

static int fault_cb_count;
static cl_int fault_cb_status;
/* What the context's pfn_notify (§4.4) last heard, and how often. */
static char context_error[512];
static int context_error_count;

static void CL_CALLBACK on_context_error(const char *errinfo,
					 const void *private_info, size_t cb,
					 void *user_data)
{
	(void)private_info;
	(void)cb;
	(void)user_data;
	snprintf(context_error, sizeof(context_error), "%s", errinfo);
	__atomic_add_fetch(&context_error_count, 1, __ATOMIC_RELEASE);
}

static void CL_CALLBACK on_fault_complete(cl_event e, cl_int status,
					  void *user_data)
{
	(void)e;
	(void)user_data;
	fault_cb_status = status;
	__atomic_add_fetch(&fault_cb_count, 1, __ATOMIC_RELEASE);
}

/* A context, a queue and the small program: from source, or from the
 * binary of an earlier build (§5.6.1) to spare the compiler. */
static bool context_open(struct context *c, const unsigned char *bin,
			 size_t bin_size)
{
	cl_int err = 1, status = 1;

	memset(c, 0, sizeof(*c));
	c->ctx = clCreateContext(NULL, 1, &api.device, on_context_error, NULL,
				 &err);
	if (!c->ctx) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "clCreateContext: %s",
			      cl_err_name(err));
		return false;
	}
	c->queue = clCreateCommandQueue(c->ctx, api.device, 0, &err);
	if (!c->queue) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "clCreateCommandQueue: %s",
			      cl_err_name(err));
		return false;
	}
	if (!bin) {
		c->prog = cl_api_build(c->ctx, cl_api_small_source, NULL);
		return c->prog != NULL;
	}
	c->prog = clCreateProgramWithBinary(c->ctx, 1, &api.device, &bin_size,
					    &bin, &status, &err);
	if (!c->prog) {
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "clCreateProgramWithBinary: %s",
			      cl_err_name(err));
		return false;
	}
	err = clBuildProgram(c->prog, 0, NULL, NULL, NULL, NULL);
	if (err != CL_SUCCESS) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "clBuildProgram (binary): %s",
			      cl_err_name(err));
		return false;
	}
	return true;
}

static void context_close(struct context *c)
{
	if (c->prog)
		CHECK_ERR(clReleaseProgram(c->prog), CL_SUCCESS);
	if (c->queue)
		CHECK_ERR(clReleaseCommandQueue(c->queue), CL_SUCCESS);
	if (c->ctx)
		CHECK_ERR(clReleaseContext(c->ctx), CL_SUCCESS);
	memset(c, 0, sizeof(*c));
}

/* Runs poke() at FAR_INDEX in @c and checks how the fault is reported. */
static void fault_in(struct context *c)
{
	cl_int err = 1, back[16], v = 1;
	cl_uint index = FAR_INDEX;
	cl_kernel k = clCreateKernel(c->prog, "poke", &err);
	cl_mem buf = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, COUNT * 4, NULL,
				    &err);
	size_t global = 64;
	cl_event e = NULL;
	cl_int status;

	if (!k || !buf) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "kernel or buffer: %s",
			      cl_err_name(err));
		return;
	}
	fault_cb_count = 0;
	fault_cb_status = 0;
	context_error_count = 0;
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(index), &index), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(v), &v), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, NULL, 0,
					 NULL, &e),
		  CL_SUCCESS);
	if (!e)
		goto out;
	CHECK_ERR(clSetEventCallback(e, CL_COMPLETE, on_fault_complete, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &e),
		  CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	status = cl_api_event_status(e);
	if (status >= 0)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "the faulting kernel ended with status %d, "
			      "expected a negative error",
			      status);
	else
		printf("  faulting kernel: status %s\n", cl_err_name(status));
	CHECK_ERR(clEnqueueReadBuffer(c->queue, buf, CL_TRUE, 0, sizeof(back),
				      back, 1, &e, NULL),
		  CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK(cl_api_wait_flag(&fault_cb_count, 1, 5000));
	CHECK(fault_cb_status < 0);
	/* The implementation reports the error through the context's
	 * callback too: once, naming the kernel. */
	CHECK(__atomic_load_n(&context_error_count, __ATOMIC_ACQUIRE) == 1);
	CHECK(strstr(context_error, "poke") != NULL);
	/* ... and the exception by its name (a write far out of bounds
	 * is a translation fault). */
	CHECK(strstr(context_error, "TRANSLATION_FAULT_") != NULL);
	printf("  context notify: %s\n", context_error);
	/* clFinish returns (what it returns after a failed command the spec
	 * leaves open; it must not hang). */
	err = clFinish(c->queue);
	printf("  clFinish after the fault: %s\n", cl_err_name(err));
	clReleaseEvent(e);
out:
	clReleaseMemObject(buf);
	clReleaseKernel(k);
}

/* scale_add() over COUNT ints in @c, checked. */
static void good_kernel_in(struct context *c, int salt)
{
	cl_int *data = malloc(COUNT * 4), err = 1, mul = 3, add = salt;
	cl_kernel k = clCreateKernel(c->prog, "scale_add", &err);
	cl_mem buf = NULL;
	size_t global = COUNT;
	int bad = 0;

	if (!data || !k) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "scale_add: %s",
			      cl_err_name(err));
		goto out;
	}
	for (int i = 0; i < COUNT; i++)
		data[i] = i - salt;
	buf = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			     COUNT * 4, data, &err);
	if (!buf) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "clCreateBuffer: %s",
			      cl_err_name(err));
		goto out;
	}
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(mul), &mul), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(k, 2, sizeof(add), &add), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, NULL, 0,
					 NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(c->queue, buf, CL_TRUE, 0, COUNT * 4,
				      data, 0, NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < COUNT; i++)
		bad += data[i] != (i - salt) * 3 + salt;
	if (bad)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "%d of %d results wrong after a fault elsewhere "
			      "(data[0] = %d, expected %d)",
			      bad, COUNT, data[0], -salt * 3 + salt);
out:
	if (buf)
		clReleaseMemObject(buf);
	if (k)
		clReleaseKernel(k);
	free(data);
}

static unsigned char *binary;
static size_t binary_size;

#define AFTER 6

/*
 * The fault with launches behind it already on the GPU, enqueued before
 * anything waited (the runtime keeps several chains of a queue in
 * flight; the fault cancels those of the context that had not started):
 * the faulting launch fails, every launch after it, on its queue and on
 * another queue of the context, completes with the right result, as if
 * it had gone after the fault (§5.9: only the faulting command fails;
 * the in-order queue still runs what follows it).
 */
static void fault_with_launches_behind(struct context *c)
{
	cl_int err = 1, v = 1, *data = malloc(COUNT * 4),
	       *want = malloc(COUNT * 4), *other = malloc(COUNT * 4);
	cl_uint index = FAR_INDEX;
	cl_kernel poke = clCreateKernel(c->prog, "poke", &err);
	cl_kernel scale = clCreateKernel(c->prog, "scale_add", &err);
	cl_command_queue q2 = clCreateCommandQueue(c->ctx, api.device, 0, &err);
	cl_mem target = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, COUNT * 4,
				       NULL, &err);
	cl_mem buf = NULL, buf2 = NULL;
	cl_event fault = NULL, after[AFTER] = { 0 }, on_q2 = NULL;
	size_t global = COUNT, poke_global = 64;
	int bad = 0;

	if (!data || !want || !other || !poke || !scale || !q2 || !target) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "set-up: %s",
			      cl_err_name(err));
		goto out;
	}
	for (int i = 0; i < COUNT; i++)
		want[i] = data[i] = other[i] = i - COUNT / 3;
	buf = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			     COUNT * 4, data, &err);
	buf2 = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			      COUNT * 4, other, &err);
	if (!buf || !buf2) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "buffers: %s",
			      cl_err_name(err));
		goto out;
	}
	context_error_count = 0;
	CHECK_ERR(clSetKernelArg(poke, 0, sizeof(target), &target),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(poke, 1, sizeof(index), &index), CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(poke, 2, sizeof(v), &v), CL_SUCCESS);
	CHECK_ERR(clEnqueueNDRangeKernel(c->queue, poke, 1, NULL, &poke_global,
					 NULL, 0, NULL, &fault),
		  CL_SUCCESS);
	CHECK_ERR(clSetKernelArg(scale, 0, sizeof(buf), &buf), CL_SUCCESS);
	for (int k = 0; k < AFTER; k++) {
		cl_int mul = k % 2 ? -1 : 2, add = k + 1;

		CHECK_ERR(clSetKernelArg(scale, 1, sizeof(mul), &mul),
			  CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(scale, 2, sizeof(add), &add),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueNDRangeKernel(c->queue, scale, 1, NULL,
						 &global, NULL, 0, NULL,
						 &after[k]),
			  CL_SUCCESS);
		for (int i = 0; i < COUNT; i++)
			want[i] = want[i] * mul + add;
	}
	/* And one on another queue of the context, behind nothing. */
	{
		cl_int mul = 5, add = -3;

		CHECK_ERR(clSetKernelArg(scale, 0, sizeof(buf2), &buf2),
			  CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(scale, 1, sizeof(mul), &mul),
			  CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(scale, 2, sizeof(add), &add),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueNDRangeKernel(q2, scale, 1, NULL, &global,
						 NULL, 0, NULL, &on_q2),
			  CL_SUCCESS);
		for (int i = 0; i < COUNT; i++)
			other[i] = other[i] * mul + add;
	}
	CHECK_ERR(clWaitForEvents(1, &fault),
		  CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK(cl_api_event_status(fault) < 0);
	CHECK_ERR(clWaitForEvents(AFTER, after), CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &on_q2), CL_SUCCESS);
	CHECK_ERR(clEnqueueReadBuffer(c->queue, buf, CL_TRUE, 0, COUNT * 4,
				      data, 0, NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < COUNT; i++)
		if (data[i] != want[i] && bad++ < 4)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "after the fault, item %d: %d, want %d",
				      i, data[i], want[i]);
	CHECK_ERR(clEnqueueReadBuffer(q2, buf2, CL_TRUE, 0, COUNT * 4, data,
				      0, NULL, NULL),
		  CL_SUCCESS);
	for (int i = 0; i < COUNT; i++)
		if (data[i] != other[i] && bad++ < 8)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "other queue, item %d: %d, want %d", i,
				      data[i], other[i]);
	/* Only the faulting kernel is reported. */
	CHECK_EQ(__atomic_load_n(&context_error_count, __ATOMIC_ACQUIRE), 1);
	CHECK(strstr(context_error, "poke") != NULL);
	CHECK_ERR(clFinish(c->queue), CL_SUCCESS);
out:
	for (int k = 0; k < AFTER; k++)
		if (after[k])
			clReleaseEvent(after[k]);
	if (fault)
		clReleaseEvent(fault);
	if (on_q2)
		clReleaseEvent(on_q2);
	if (buf)
		clReleaseMemObject(buf);
	if (buf2)
		clReleaseMemObject(buf2);
	if (target)
		clReleaseMemObject(target);
	if (poke)
		clReleaseKernel(poke);
	if (scale)
		clReleaseKernel(scale);
	if (q2)
		clReleaseCommandQueue(q2);
	free(data);
	free(want);
	free(other);
}

/* The fault with good launches right behind it (see above), in a context
 * of its own. */
TEST(fault_with_launches_in_flight)
{
	struct context c;

	REQUIRE(binary);
	for (int round = 0; round < 3; round++) {
		if (context_open(&c, binary, binary_size))
			fault_with_launches_behind(&c);
		context_close(&c);
	}
}

TEST(find_device)
{
	REQUIRE(cl_api_find_device());
}

/* The fault, then a new context's kernel while the faulted one still
 * exists, then the faulted context goes. */
TEST(fault_then_another_context)
{
	struct context faulted, fresh;
	unsigned char *bins[1];

	REQUIRE(api.device);
	REQUIRE(context_open(&faulted, NULL, 0));
	/* Keep the binary for the next contexts. */
	CHECK_ERR(clGetProgramInfo(faulted.prog, CL_PROGRAM_BINARY_SIZES,
				   sizeof(binary_size), &binary_size, NULL),
		  CL_SUCCESS);
	binary = binary_size ? malloc(binary_size) : NULL;
	bins[0] = binary;
	if (binary)
		CHECK_ERR(clGetProgramInfo(faulted.prog, CL_PROGRAM_BINARIES,
					   sizeof(bins), bins, NULL),
			  CL_SUCCESS);
	/* The same context works before the fault. */
	good_kernel_in(&faulted, 11);
	fault_in(&faulted);
	if (context_open(&fresh, NULL, 0)) {
		good_kernel_in(&fresh, 22);
		good_kernel_in(&fresh, 33);
	}
	context_close(&fresh);
	context_close(&faulted);
}

/* Faults again and again, each followed by good work elsewhere: the GPU
 * recovers every time. */
TEST(repeated_faults)
{
	REQUIRE(binary);
	for (int round = 0; round < 3; round++) {
		struct context bad, good;

		if (context_open(&bad, binary, binary_size))
			fault_in(&bad);
		if (context_open(&good, binary, binary_size))
			good_kernel_in(&good, 100 + round);
		context_close(&bad);
		context_close(&good);
	}
}

/* Whether the kernel log holds a line with both @a and @b. */
static bool kernel_log_has(const char *a, const char *b)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *log, *line, *save = NULL;
	bool found = false;
	int n;

	if (size <= 0)
		return false;
	log = malloc((size_t)size + 1);
	if (!log)
		return false;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size);
	log[n > 0 ? n : 0] = 0;
	for (line = strtok_r(log, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save))
		found = strstr(line, a) && strstr(line, b);
	free(log);
	return found;
}

/* Never ends while flag[0] is 0 (it stays 0). */
static const char spin_source[] =
	"__kernel void spin(volatile __global uint *flag)\n"
	"{\n"
	"	while (flag[0] == 0)\n"
	"		;\n"
	"	flag[get_global_id(0) + 1] = 1;\n"
	"}\n";

/*
 * An endless kernel is stopped by the driver's timeout (the GPU has no
 * watchdog; the ICD asks for the driver's longest, which
 * SLEIPNIR_CL_JOB_TIMEOUT_MS lowers for this test): the event ends with
 * a negative status after the timeout, the context's callback names the
 * timeout, the kernel log says which chain overran which timeout, and
 * the GPU runs the next context's kernel right.
 */
TEST(endless_kernel_stopped_by_the_timeout)
{
	struct context c = { 0 }, good;
	cl_uint zero[5] = { 0 };
	size_t global = 4;
	cl_kernel k = NULL;
	cl_mem buf = NULL;
	cl_event e = NULL;
	cl_int err = 1, status;
	uint64_t t0, ms;
	struct timespec ts;

	REQUIRE(binary);
	setenv("SLEIPNIR_CL_JOB_TIMEOUT_MS", "2000", 1);
	c.ctx = clCreateContext(NULL, 1, &api.device, on_context_error, NULL,
				&err);
	if (c.ctx)
		c.queue = clCreateCommandQueue(c.ctx, api.device, 0, &err);
	if (c.queue)
		c.prog = cl_api_build(c.ctx, spin_source, NULL);
	if (c.prog)
		k = clCreateKernel(c.prog, "spin", &err);
	if (k)
		buf = clCreateBuffer(c.ctx,
				     CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
				     sizeof(zero), zero, &err);
	if (!buf) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "the spin kernel: %s",
			      cl_err_name(err));
		goto out;
	}
	context_error_count = 0;
	CHECK_ERR(clSetKernelArg(k, 0, sizeof(buf), &buf), CL_SUCCESS);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	CHECK_ERR(clEnqueueNDRangeKernel(c.queue, k, 1, NULL, &global, NULL, 0,
					 NULL, &e),
		  CL_SUCCESS);
	if (!e)
		goto out;
	CHECK_ERR(clWaitForEvents(1, &e),
		  CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000 - t0;
	status = cl_api_event_status(e);
	printf("  endless kernel: status %s after %llu ms\n",
	       cl_err_name(status), (unsigned long long)ms);
	CHECK(status < 0);
	CHECK(ms >= 1900);
	CHECK(__atomic_load_n(&context_error_count, __ATOMIC_ACQUIRE) == 1);
	CHECK(strstr(context_error, "spin") != NULL);
	CHECK(strstr(context_error, "timeout") != NULL);
	printf("  context notify: %s\n", context_error);
	if (!kernel_log_has("overran its 2000 ms timeout", "cl_api_test"))
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "no kernel log line names the 2000 ms timeout");
	CHECK_ERR(clFinish(c.queue), CL_SUCCESS);
out:
	unsetenv("SLEIPNIR_CL_JOB_TIMEOUT_MS");
	if (e)
		clReleaseEvent(e);
	if (buf)
		clReleaseMemObject(buf);
	if (k)
		clReleaseKernel(k);
	context_close(&c);
	if (context_open(&good, binary, binary_size))
		good_kernel_in(&good, 77);
	context_close(&good);
}

void cl_api_fault_tests(void)
{
	API_RUN(find_device);
	if (!api.device)
		return;
	API_RUN(fault_then_another_context);
	API_RUN(repeated_faults);
	API_RUN(endless_kernel_stopped_by_the_timeout);
	API_RUN(fault_with_launches_in_flight);
	free(binary);
}
