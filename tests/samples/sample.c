/* SPDX-License-Identifier: MIT */
/* The samples' shared set-up, checks and demo line (see sample.h). */
#include "sample.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The Sleipnir ICD's vendor query of the bytes the runtime copied. */
#include "cl_sleipnir.h"

/* Misses printed per comparison: enough to see a pattern. */
#define MAX_REPORTS 8

static const char *cl_error_name(cl_int err)
{
	switch (err) {
#define E(x) case x: return #x
	E(CL_SUCCESS); E(CL_DEVICE_NOT_FOUND); E(CL_DEVICE_NOT_AVAILABLE);
	E(CL_COMPILER_NOT_AVAILABLE); E(CL_MEM_OBJECT_ALLOCATION_FAILURE);
	E(CL_OUT_OF_RESOURCES); E(CL_OUT_OF_HOST_MEMORY);
	E(CL_PROFILING_INFO_NOT_AVAILABLE); E(CL_MEM_COPY_OVERLAP);
	E(CL_IMAGE_FORMAT_MISMATCH); E(CL_IMAGE_FORMAT_NOT_SUPPORTED);
	E(CL_BUILD_PROGRAM_FAILURE); E(CL_MAP_FAILURE);
	E(CL_MISALIGNED_SUB_BUFFER_OFFSET);
	E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	E(CL_COMPILE_PROGRAM_FAILURE); E(CL_LINKER_NOT_AVAILABLE);
	E(CL_LINK_PROGRAM_FAILURE); E(CL_DEVICE_PARTITION_FAILED);
	E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE); E(CL_INVALID_VALUE);
	E(CL_INVALID_DEVICE_TYPE); E(CL_INVALID_PLATFORM); E(CL_INVALID_DEVICE);
	E(CL_INVALID_CONTEXT); E(CL_INVALID_QUEUE_PROPERTIES);
	E(CL_INVALID_COMMAND_QUEUE); E(CL_INVALID_HOST_PTR);
	E(CL_INVALID_MEM_OBJECT); E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
	E(CL_INVALID_IMAGE_SIZE); E(CL_INVALID_SAMPLER); E(CL_INVALID_BINARY);
	E(CL_INVALID_BUILD_OPTIONS); E(CL_INVALID_PROGRAM);
	E(CL_INVALID_PROGRAM_EXECUTABLE); E(CL_INVALID_KERNEL_NAME);
	E(CL_INVALID_KERNEL_DEFINITION); E(CL_INVALID_KERNEL);
	E(CL_INVALID_ARG_INDEX); E(CL_INVALID_ARG_VALUE); E(CL_INVALID_ARG_SIZE);
	E(CL_INVALID_KERNEL_ARGS); E(CL_INVALID_WORK_DIMENSION);
	E(CL_INVALID_WORK_GROUP_SIZE); E(CL_INVALID_WORK_ITEM_SIZE);
	E(CL_INVALID_GLOBAL_OFFSET); E(CL_INVALID_EVENT_WAIT_LIST);
	E(CL_INVALID_EVENT); E(CL_INVALID_OPERATION); E(CL_INVALID_GL_OBJECT);
	E(CL_INVALID_BUFFER_SIZE); E(CL_INVALID_MIP_LEVEL);
	E(CL_INVALID_GLOBAL_WORK_SIZE); E(CL_INVALID_PROPERTY);
	E(CL_INVALID_IMAGE_DESCRIPTOR); E(CL_INVALID_COMPILER_OPTIONS);
	E(CL_INVALID_LINKER_OPTIONS); E(CL_INVALID_DEVICE_PARTITION_COUNT);
#undef E
	default: return "an unknown error";
	}
}

static void print_demo_line(struct sample *s, bool ok)
{
	int64_t copied = sample_bytes_copied(s);
	char copied_text[32] = "?";

	if (copied >= 0 && s->copied_at_start >= 0)
		snprintf(copied_text, sizeof(copied_text), "%lld",
			 (long long)(copied - s->copied_at_start));
	printf("demo: %s %s %s %llu %s\n", s->name, s->size,
	       ok ? "OK" : "FAIL",
	       (unsigned long long)((s->gpu_ns + 500) / 1000), copied_text);
	fflush(stdout);
}

/*
 * Nothing is released: after an error the runtime's state is suspect, and
 * exit() frees the process anyway.
 */
void sample_fail(struct sample *s)
{
	print_demo_line(s, false);
	exit(1);
}

void sample_cl(struct sample *s, cl_int err, const char *what)
{
	if (err == CL_SUCCESS)
		return;
	printf("%s: %s: %s (%d)\n", s->name, what, cl_error_name(err), err);
	sample_fail(s);
}

void sample_set_size(struct sample *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->size, sizeof(s->size), fmt, ap);
	va_end(ap);
}

/*
 * The Sleipnir platform by name; any other platform's first GPU otherwise,
 * or its first device of any type (pocl's is a CPU: `make bench` runs the
 * samples there beside the model), so the samples stay ordinary OpenCL
 * programs that run anywhere.
 */
static void find_device(struct sample *s)
{
	cl_platform_id ids[8];
	cl_uint n = 0;
	char name[64];
	cl_int err;

	SAMPLE_CL(s, clGetPlatformIDs(8, ids, &n));
	if (n > 8)
		n = 8;
	s->platform = n ? ids[0] : NULL;
	for (cl_uint i = 0; i < n; i++) {
		if (clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name),
				      name, NULL) == CL_SUCCESS &&
		    strcmp(name, "Sleipnir") == 0) {
			s->platform = ids[i];
			break;
		}
	}
	if (!s->platform) {
		printf("%s: no OpenCL platform\n", s->name);
		sample_fail(s);
	}
	err = clGetDeviceIDs(s->platform, CL_DEVICE_TYPE_GPU, 1, &s->device,
			     NULL);
	if (err == CL_DEVICE_NOT_FOUND)
		err = clGetDeviceIDs(s->platform, CL_DEVICE_TYPE_ALL, 1,
				     &s->device, NULL);
	sample_cl(s, err, "clGetDeviceIDs");
}

void sample_init(struct sample *s, const char *name)
{
	cl_int err;
	char dev_name[128] = "";

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->copied_at_start = -1;
	snprintf(s->size, sizeof(s->size), "-");
	/* The demo line must come out even if the runtime crashes later. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	find_device(s);
	clGetDeviceInfo(s->device, CL_DEVICE_NAME, sizeof(dev_name), dev_name,
			NULL);
	printf("%s: device %s\n", name, dev_name);
	s->context = clCreateContext(NULL, 1, &s->device, NULL, NULL, &err);
	sample_cl(s, err, "clCreateContext");
	s->queue = clCreateCommandQueue(s->context, s->device,
					CL_QUEUE_PROFILING_ENABLE, &err);
	sample_cl(s, err, "clCreateCommandQueue");
	s->copied_at_start = sample_bytes_copied(s);
}

void *sample_alloc(struct sample *s, size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p) {
		printf("%s: out of memory for %zu bytes\n", s->name, size);
		sample_fail(s);
	}
	return p;
}

/*
 * Kernel sources are installed in <prefix>/share/sleipnir/samples beside
 * <prefix>/bin (meson.build); SLEIPNIR_SAMPLES_DIR overrides that, for a
 * run from elsewhere.
 */
static FILE *open_source(const char *file, char *path, size_t size)
{
	const char *dir = getenv("SLEIPNIR_SAMPLES_DIR");
	char exe[PATH_MAX];
	ssize_t len;
	char *slash;

	if (dir) {
		snprintf(path, size, "%s/%s", dir, file);
		return fopen(path, "r");
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0)
		return NULL;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, size, "%s/../share/sleipnir/samples/%s", exe, file);
	return fopen(path, "r");
}

static char *read_source(struct sample *s, const char *file)
{
	char path[PATH_MAX + 64];
	FILE *f = open_source(file, path, sizeof(path));
	char *text;
	long size;

	if (!f) {
		printf("%s: cannot open the kernel source %s: %s\n", s->name,
		       file, strerror(errno));
		sample_fail(s);
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = sample_alloc(s, (size_t)size + 1);
	if (size < 0 || fread(text, 1, (size_t)size, f) != (size_t)size) {
		printf("%s: cannot read %s\n", s->name, path);
		sample_fail(s);
	}
	fclose(f);
	return text;
}

static void print_build_log(struct sample *s)
{
	size_t size = 0;
	char *log;

	if (clGetProgramBuildInfo(s->program, s->device, CL_PROGRAM_BUILD_LOG,
				  0, NULL, &size) != CL_SUCCESS || size < 2)
		return;
	log = sample_alloc(s, size);
	if (clGetProgramBuildInfo(s->program, s->device, CL_PROGRAM_BUILD_LOG,
				  size, log, NULL) == CL_SUCCESS)
		printf("%s: build log:\n%s\n", s->name, log);
	free(log);
}

cl_kernel sample_kernel(struct sample *s, const char *file, const char *kernel)
{
	char *source = read_source(s, file);
	const char *sources[] = { source };
	cl_kernel k;
	cl_int err;

	s->program = clCreateProgramWithSource(s->context, 1, sources, NULL,
					       &err);
	free(source);
	sample_cl(s, err, "clCreateProgramWithSource");
	err = clBuildProgram(s->program, 1, &s->device, NULL, NULL, NULL);
	if (err != CL_SUCCESS)
		print_build_log(s);
	sample_cl(s, err, "clBuildProgram");
	k = clCreateKernel(s->program, kernel, &err);
	sample_cl(s, err, "clCreateKernel");
	return k;
}

void sample_need_group_size(struct sample *s, cl_kernel k, size_t local)
{
	size_t max = 0;

	SAMPLE_CL(s, clGetKernelWorkGroupInfo(k, s->device,
					      CL_KERNEL_WORK_GROUP_SIZE,
					      sizeof(max), &max, NULL));
	if (max < local) {
		printf("%s: the kernel needs work-groups of %zu, the device "
		       "runs at most %zu\n", s->name, local, max);
		sample_fail(s);
	}
}

cl_mem sample_buffer(struct sample *s, cl_mem_flags flags, size_t size,
		     void *host_ptr)
{
	cl_int err;
	cl_mem m = clCreateBuffer(s->context, flags, size, host_ptr, &err);

	sample_cl(s, err, "clCreateBuffer");
	return m;
}

cl_event sample_enqueue(struct sample *s, cl_kernel k, cl_uint dims,
			const size_t *offset, const size_t *global,
			const size_t *local)
{
	cl_event ev;

	SAMPLE_CL(s, clEnqueueNDRangeKernel(s->queue, k, dims, offset, global,
					    local, 0, NULL, &ev));
	return ev;
}

void sample_wait(struct sample *s, cl_event ev)
{
	cl_ulong start = 0, end = 0;
	cl_int status = CL_QUEUED;

	/* A failed kernel fails the wait; its event's status says how. */
	clWaitForEvents(1, &ev);
	SAMPLE_CL(s, clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS,
				    sizeof(status), &status, NULL));
	if (status != CL_COMPLETE) {
		printf("%s: the kernel ended with event status %d (%s)\n",
		       s->name, status,
		       status < 0 ? cl_error_name(status) : "not complete");
		sample_fail(s);
	}
	SAMPLE_CL(s, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START,
					     sizeof(start), &start, NULL));
	SAMPLE_CL(s, clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END,
					     sizeof(end), &end, NULL));
	if (end < start) {
		printf("%s: profiling END %llu before START %llu\n", s->name,
		       (unsigned long long)end, (unsigned long long)start);
		sample_fail(s);
	}
	s->gpu_ns += end - start;
	clReleaseEvent(ev);
}

void sample_run(struct sample *s, cl_kernel k, cl_uint dims,
		const size_t *global, const size_t *local)
{
	sample_wait(s, sample_enqueue(s, k, dims, NULL, global, local));
}

void sample_read(struct sample *s, cl_mem buf, size_t size, void *dst)
{
	SAMPLE_CL(s, clEnqueueReadBuffer(s->queue, buf, CL_TRUE, 0, size, dst,
					 0, NULL, NULL));
}

/* Other platforms answer CL_INVALID_VALUE: the count is then unknown. */
int64_t sample_bytes_copied(struct sample *s)
{
	cl_ulong copied = 0;

	if (s->device &&
	    clGetDeviceInfo(s->device, CL_DEVICE_SLEIPNIR_BYTES_COPIED,
			    sizeof(copied), &copied, NULL) == CL_SUCCESS)
		return (int64_t)copied;
	return -1;
}

int sample_finish(struct sample *s, bool ok)
{
	print_demo_line(s, ok);
	if (s->program)
		clReleaseProgram(s->program);
	if (s->queue)
		clReleaseCommandQueue(s->queue);
	if (s->context)
		clReleaseContext(s->context);
	return ok ? 0 : 1;
}

uint32_t sample_rand(void)
{
	/* xorshift32: the same numbers on every run and every machine. */
	static uint32_t state = 2463534242u;

	state ^= state << 13;
	state ^= state >> 17;
	state ^= state << 5;
	return state;
}

float sample_rand_float(float lo, float hi)
{
	return lo + (hi - lo) * (float)(sample_rand() >> 8) / (float)(1u << 24);
}

bool sample_check_floats(const char *what, const float *want, const float *got,
			 const float *scale, size_t n, float tol)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		float bound = tol * (scale ? scale[i] : fabsf(want[i]));

		/* NaN fails: the comparison below is false for it. */
		if (fabsf(got[i] - want[i]) <= bound + FLT_MIN)
			continue;
		if (bad++ < MAX_REPORTS)
			printf("  %s: element %zu: expected %.9g got %.9g "
			       "(tolerance %.3g)\n", what, i, (double)want[i],
			       (double)got[i], (double)bound);
	}
	if (bad)
		printf("  %s: %zu of %zu elements wrong\n", what, bad, n);
	return !bad;
}

bool sample_check_uints(const char *what, const uint32_t *want,
			const uint32_t *got, size_t n)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (want[i] != got[i] && bad++ < MAX_REPORTS)
			printf("  %s: element %zu: expected %u got %u\n", what,
			       i, want[i], got[i]);
	}
	if (bad)
		printf("  %s: %zu of %zu elements wrong\n", what, bad, n);
	return !bad;
}
