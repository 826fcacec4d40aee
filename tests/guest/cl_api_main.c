/* SPDX-License-Identifier: MIT */
/*
 * cl_api_test: the OpenCL 1.2 API through Debian's ocl-icd loader in the
 * guest's userland (tests/board run --userland), checked against the
 * specification (see cl_api.h). Three modes, each its own suite:
 *
 *   cl_api_test                 every entry point: success and errors
 *   cl_api_test fault           a kernel writing far out of bounds fails
 *                               its event, and another context carries on
 *   cl_api_test multiprocess    4 processes running kernels at once
 *   cl_api_test copy-stats      (the helper process of copy_stats_at_exit)
 *   cl_api_test debug-jobs      (... of debug_jobs_prints_chains)
 *
 * This file holds the fixture, the helpers every file shares and main().
 */
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cl_api.h"
#include "cl_sleipnir.h"

CHECK_MAIN_STATE("cl-api");

struct cl_api_fixture api;

const char *cl_err_name(cl_int err)
{
	static const struct {
		cl_int code;
		const char *name;
	} names[] = {
#define NAME(c) { c, #c }
		NAME(CL_SUCCESS),
		NAME(CL_DEVICE_NOT_FOUND),
		NAME(CL_DEVICE_NOT_AVAILABLE),
		NAME(CL_COMPILER_NOT_AVAILABLE),
		NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE),
		NAME(CL_OUT_OF_RESOURCES),
		NAME(CL_OUT_OF_HOST_MEMORY),
		NAME(CL_PROFILING_INFO_NOT_AVAILABLE),
		NAME(CL_MEM_COPY_OVERLAP),
		NAME(CL_IMAGE_FORMAT_MISMATCH),
		NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED),
		NAME(CL_BUILD_PROGRAM_FAILURE),
		NAME(CL_MAP_FAILURE),
		NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET),
		NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
		NAME(CL_COMPILE_PROGRAM_FAILURE),
		NAME(CL_LINKER_NOT_AVAILABLE),
		NAME(CL_LINK_PROGRAM_FAILURE),
		NAME(CL_DEVICE_PARTITION_FAILED),
		NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
		NAME(CL_INVALID_VALUE),
		NAME(CL_INVALID_DEVICE_TYPE),
		NAME(CL_INVALID_PLATFORM),
		NAME(CL_INVALID_DEVICE),
		NAME(CL_INVALID_CONTEXT),
		NAME(CL_INVALID_QUEUE_PROPERTIES),
		NAME(CL_INVALID_COMMAND_QUEUE),
		NAME(CL_INVALID_HOST_PTR),
		NAME(CL_INVALID_MEM_OBJECT),
		NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
		NAME(CL_INVALID_IMAGE_SIZE),
		NAME(CL_INVALID_SAMPLER),
		NAME(CL_INVALID_BINARY),
		NAME(CL_INVALID_BUILD_OPTIONS),
		NAME(CL_INVALID_PROGRAM),
		NAME(CL_INVALID_PROGRAM_EXECUTABLE),
		NAME(CL_INVALID_KERNEL_NAME),
		NAME(CL_INVALID_KERNEL_DEFINITION),
		NAME(CL_INVALID_KERNEL),
		NAME(CL_INVALID_ARG_INDEX),
		NAME(CL_INVALID_ARG_VALUE),
		NAME(CL_INVALID_ARG_SIZE),
		NAME(CL_INVALID_KERNEL_ARGS),
		NAME(CL_INVALID_WORK_DIMENSION),
		NAME(CL_INVALID_WORK_GROUP_SIZE),
		NAME(CL_INVALID_WORK_ITEM_SIZE),
		NAME(CL_INVALID_GLOBAL_OFFSET),
		NAME(CL_INVALID_EVENT_WAIT_LIST),
		NAME(CL_INVALID_EVENT),
		NAME(CL_INVALID_OPERATION),
		NAME(CL_INVALID_GL_OBJECT),
		NAME(CL_INVALID_BUFFER_SIZE),
		NAME(CL_INVALID_MIP_LEVEL),
		NAME(CL_INVALID_GLOBAL_WORK_SIZE),
		NAME(CL_INVALID_PROPERTY),
		NAME(CL_INVALID_IMAGE_DESCRIPTOR),
		NAME(CL_INVALID_COMPILER_OPTIONS),
		NAME(CL_INVALID_LINKER_OPTIONS),
		NAME(CL_INVALID_DEVICE_PARTITION_COUNT),
#undef NAME
	};
	static char buf[4][64];
	static unsigned int next;
	char *out = buf[next++ % 4];

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
		if (names[i].code == err) {
			snprintf(out, sizeof(buf[0]), "%s (%d)", names[i].name,
				 (int)err);
			return out;
		}
	}
	snprintf(out, sizeof(buf[0]), "%d", (int)err);
	return out;
}

static void CL_CALLBACK build_done(cl_program program, void *user_data)
{
	(void)program;
	__atomic_store_n((int *)user_data, 1, __ATOMIC_RELEASE);
}

cl_program cl_api_build(cl_context ctx, const char *src, const char *options)
{
	cl_int err = 1;
	cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);

	if (!p) {
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "clCreateProgramWithSource: %s",
			      cl_err_name(err));
		return NULL;
	}
	err = clBuildProgram(p, 0, NULL, options, NULL, NULL);
	if (err != CL_SUCCESS) {
		char log[4096] = "";

		clGetProgramBuildInfo(p, api.device, CL_PROGRAM_BUILD_LOG,
				      sizeof(log), log, NULL);
		log[sizeof(log) - 1] = 0;
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "clBuildProgram: %s; log:\n%s", cl_err_name(err),
			      log);
		clReleaseProgram(p);
		return NULL;
	}
	return p;
}

cl_kernel cl_api_kernel(const char *name)
{
	cl_int err = 1;
	cl_kernel k = clCreateKernel(api.prog, name, &err);

	if (!k)
		CHECK_FAIL_AT(__FILE__, __LINE__, "clCreateKernel(%s): %s",
			      name, cl_err_name(err));
	return k;
}

cl_command_queue cl_api_queue(cl_command_queue_properties props)
{
	cl_int err = 1;
	cl_command_queue q =
		clCreateCommandQueue(api.ctx, api.device, props, &err);

	if (!q)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "clCreateCommandQueue(0x%llx): %s",
			      (unsigned long long)props, cl_err_name(err));
	return q;
}

cl_mem cl_api_buffer(cl_mem_flags flags, size_t size, void *host_ptr)
{
	cl_int err = 1;
	cl_mem m = clCreateBuffer(api.ctx, flags, size, host_ptr, &err);

	if (!m)
		CHECK_FAIL_AT(
			__FILE__, __LINE__, "clCreateBuffer(0x%llx, %zu): %s",
			(unsigned long long)flags, size, cl_err_name(err));
	return m;
}

unsigned char *cl_api_main_binary(size_t *size)
{
	unsigned char *bin = NULL;
	const unsigned char *bins[1];

	*size = 0;
	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_BINARY_SIZES,
				   sizeof(*size), size, NULL),
		  CL_SUCCESS);
	if (*size)
		bin = malloc(*size);
	if (!bin) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "no binary to read");
		return NULL;
	}
	bins[0] = bin;
	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_BINARIES, sizeof(bins),
				   bins, NULL),
		  CL_SUCCESS);
	return bin;
}

cl_int cl_api_run(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
		  const size_t *global, const size_t *local, int line)
{
	char name[64] = "?";
	cl_event e = NULL;
	cl_int err, status = -9999;

	clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof(name), name,
			NULL);
	name[sizeof(name) - 1] = 0;
	err = clEnqueueNDRangeKernel(queue, kernel, dims, NULL, global, local,
				     0, NULL, &e);
	if (err != CL_SUCCESS) {
		CHECK_FAIL_AT("caller", line, "clEnqueueNDRangeKernel(%s): %s",
			      name, cl_err_name(err));
		return err;
	}
	clWaitForEvents(1, &e);
	clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status),
		       &status, NULL);
	clReleaseEvent(e);
	if (status != CL_COMPLETE) {
		CHECK_FAIL_AT("caller", line,
			      "kernel %s (%zu work-items) ended with status %s",
			      name,
			      global[0] * (dims > 1 ? global[1] : 1) *
				      (dims > 2 ? global[2] : 1),
			      cl_err_name(status));
		return status < 0 ? status : CL_INVALID_VALUE;
	}
	return CL_SUCCESS;
}

cl_int cl_api_event_status(cl_event event)
{
	cl_int status = -9999;
	cl_int err = clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS,
				    sizeof(status), &status, NULL);

	if (err != CL_SUCCESS) {
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "CL_EVENT_COMMAND_EXECUTION_STATUS: %s",
			      cl_err_name(err));
		return -9999;
	}
	return status;
}

cl_ulong cl_api_bytes_copied(void)
{
	cl_ulong n = 0;

	CHECK_ERR(clGetDeviceInfo(api.device, CL_DEVICE_SLEIPNIR_BYTES_COPIED,
				  sizeof(n), &n, NULL),
		  CL_SUCCESS);
	return n;
}

cl_uint cl_api_refcount(const void *object, int kind)
{
	cl_uint n = 0;
	cl_int err = CL_INVALID_VALUE;

	switch (kind) {
	case REF_CONTEXT:
		err = clGetContextInfo((cl_context)object,
				       CL_CONTEXT_REFERENCE_COUNT, sizeof(n),
				       &n, NULL);
		break;
	case REF_QUEUE:
		err = clGetCommandQueueInfo((cl_command_queue)object,
					    CL_QUEUE_REFERENCE_COUNT, sizeof(n),
					    &n, NULL);
		break;
	case REF_MEM:
		err = clGetMemObjectInfo((cl_mem)object, CL_MEM_REFERENCE_COUNT,
					 sizeof(n), &n, NULL);
		break;
	case REF_PROGRAM:
		err = clGetProgramInfo((cl_program)object,
				       CL_PROGRAM_REFERENCE_COUNT, sizeof(n),
				       &n, NULL);
		break;
	case REF_KERNEL:
		err = clGetKernelInfo((cl_kernel)object,
				      CL_KERNEL_REFERENCE_COUNT, sizeof(n), &n,
				      NULL);
		break;
	case REF_EVENT:
		err = clGetEventInfo((cl_event)object, CL_EVENT_REFERENCE_COUNT,
				     sizeof(n), &n, NULL);
		break;
	}
	if (err != CL_SUCCESS)
		CHECK_FAIL_AT(__FILE__, __LINE__, "reference count query: %s",
			      cl_err_name(err));
	return n;
}

void cl_api_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

bool cl_api_wait_flag(const int *flag, int want, int ms)
{
	for (int waited = 0;; waited += 5) {
		if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) >= want)
			return true;
		if (waited >= ms)
			return false;
		cl_api_sleep_ms(5);
	}
}

static const char *watched_test;
static unsigned int watched_seconds;

static void watchdog_fired(int sig)
{
	(void)sig;
	/* The test hung inside an OpenCL call: count it as failed, say
	 * where, and end (the tests after it are not run). */
	printf("FAIL %s: no return after %u s (a wait or blocking call hung)\n",
	       watched_test ? watched_test : "?", watched_seconds);
	check_state.failed++;
	check_summary();
	fflush(stdout);
	_exit(1);
}

void cl_api_watchdog(const char *test, unsigned int seconds)
{
	watched_test = test;
	watched_seconds = seconds;
	signal(SIGALRM, watchdog_fired);
	alarm(seconds);
}

bool cl_api_find_device(void)
{
	cl_platform_id ids[8];
	cl_uint n = 0;
	char name[64];

	if (clGetPlatformIDs(8, ids, &n) != CL_SUCCESS)
		return false;
	for (cl_uint i = 0; i < n && i < 8; i++) {
		if (clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name),
				      name, NULL) == CL_SUCCESS &&
		    strcmp(name, "Sleipnir") == 0)
			api.platform = ids[i];
	}
	return api.platform &&
	       clGetDeviceIDs(api.platform, CL_DEVICE_TYPE_GPU, 1, &api.device,
			      NULL) == CL_SUCCESS;
}

bool cl_api_setup(void)
{
	cl_int err = 1;
	cl_uint align_bits = 0;
	int built = 0;
	const char *src = cl_api_main_source;

	if (!cl_api_find_device()) {
		printf("  no Sleipnir platform with a GPU device\n");
		return false;
	}
	clGetDeviceInfo(api.device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
			sizeof(api.max_wg), &api.max_wg, NULL);
	clGetDeviceInfo(api.device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
			sizeof(api.max_items), api.max_items, NULL);
	clGetDeviceInfo(api.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
			sizeof(align_bits), &align_bits, NULL);
	api.base_align = align_bits / 8;
	clGetDeviceInfo(api.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
			sizeof(api.max_alloc), &api.max_alloc, NULL);
	clGetDeviceInfo(api.device, CL_DEVICE_EXECUTION_CAPABILITIES,
			sizeof(api.exec_caps), &api.exec_caps, NULL);
	clGetDeviceInfo(api.device, CL_DEVICE_QUEUE_PROPERTIES,
			sizeof(api.queue_props), &api.queue_props, NULL);

	api.ctx = clCreateContext(NULL, 1, &api.device, NULL, NULL, &err);
	if (!api.ctx) {
		printf("  clCreateContext: %s\n", cl_err_name(err));
		return false;
	}
	api.queue = clCreateCommandQueue(api.ctx, api.device, 0, &err);
	if (!api.queue) {
		printf("  clCreateCommandQueue: %s\n", cl_err_name(err));
		return false;
	}
	/* The main build goes through a pfn_notify callback: the spec lets
	 * clBuildProgram return before the build ends when one is given
	 * (§5.6.2), so the callback, not the return, says it is done. */
	api.prog = clCreateProgramWithSource(api.ctx, 1, &src, NULL, &err);
	if (!api.prog) {
		printf("  clCreateProgramWithSource: %s\n", cl_err_name(err));
		return false;
	}
	err = clBuildProgram(api.prog, 1, &api.device, CL_API_MAIN_OPTIONS,
			     build_done, &built);
	if (err == CL_SUCCESS && !cl_api_wait_flag(&built, 1, 100000))
		printf("  the build callback never came\n");
	if (err != CL_SUCCESS) {
		char log[8192] = "";

		clGetProgramBuildInfo(api.prog, api.device,
				      CL_PROGRAM_BUILD_LOG, sizeof(log), log,
				      NULL);
		log[sizeof(log) - 1] = 0;
		printf("  clBuildProgram: %s; log:\n%s\n", cl_err_name(err),
		       log);
		return false;
	}
	return true;
}

void cl_api_teardown(void)
{
	if (api.prog)
		CHECK_ERR(clReleaseProgram(api.prog), CL_SUCCESS);
	if (api.queue)
		CHECK_ERR(clReleaseCommandQueue(api.queue), CL_SUCCESS);
	if (api.ctx)
		CHECK_ERR(clReleaseContext(api.ctx), CL_SUCCESS);
	memset(&api, 0, sizeof(api));
}

TEST(setup)
{
	REQUIRE(cl_api_setup());
}

TEST(teardown)
{
	cl_api_teardown();
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && strcmp(argv[1], "fault") == 0) {
		check_state.suite = "cl-api-fault";
		cl_api_fault_tests();
		return check_summary();
	}
	if (argc > 1 && strcmp(argv[1], "multiprocess") == 0) {
		check_state.suite = "cl-api-multiprocess";
		cl_api_multiprocess_tests();
		return check_summary();
	}
	if (argc > 1 && strcmp(argv[1], "long") == 0) {
		check_state.suite = "cl-api-long";
		cl_api_long_tests(argc > 2 ? (unsigned int)atoi(argv[2]) : 0);
		return check_summary();
	}
	if (argc > 1 && strcmp(argv[1], "image") == 0) {
		/* The image tests alone, for a quicker run. */
		check_state.suite = "cl-api-image";
		API_RUN(setup);
		if (!check_state.failed)
			cl_api_image_tests();
		API_RUN(teardown);
		return check_summary();
	}
	if (argc > 1 && strcmp(argv[1], "copy-stats") == 0)
		return cl_api_copy_stats_child();
	if (argc > 1 && strcmp(argv[1], "debug-jobs") == 0)
		return cl_api_debug_jobs_child();
	if (argc > 1 && strcmp(argv[1], "batching") == 0)
		return cl_api_batching_child();
	if (argc > 1) {
		fprintf(stderr, "usage: %s [fault|multiprocess|image|"
			"long [SECONDS]]\n",
			argv[0]);
		return 2;
	}
	API_RUN(setup);
	if (check_state.failed)
		return check_summary();
	cl_api_platform_tests();
	cl_api_queue_tests();
	cl_api_event_tests();
	cl_api_buffer_tests();
	cl_api_gpu_copy_tests();
	cl_api_image_tests();
	cl_api_program_tests();
	cl_api_ndrange_tests();
	cl_api_ring_tests();
	cl_api_lifetime_tests();
	API_RUN(teardown);
	return check_summary();
}
