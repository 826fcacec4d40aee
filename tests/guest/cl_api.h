/* SPDX-License-Identifier: MIT */
/*
 * The guest OpenCL API test suite (cl_api_test): what every file of it
 * shares. The expectations come from the OpenCL 1.2 specification (rev. 19,
 * "spec" below; sections as §5.2.1), never from the runtime's code: this
 * suite is the independent reference the runtime is measured against.
 *
 * One fixture (api) holds the platform, device, a context, an in-order
 * queue and the main program (cl_api_kernels.c) built once: a build takes
 * seconds under TCG, so the suite builds few programs.
 */
#ifndef CL_API_H
#define CL_API_H

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <stdbool.h>

#include "check.h"

struct cl_api_fixture {
	cl_platform_id platform;
	cl_device_id device;
	cl_context ctx;
	cl_command_queue queue; /* in-order, no profiling */
	cl_program prog;	/* cl_api_main_source, built */
	size_t max_wg;		/* CL_DEVICE_MAX_WORK_GROUP_SIZE */
	size_t max_items[3];	/* CL_DEVICE_MAX_WORK_ITEM_SIZES */
	size_t base_align;	/* CL_DEVICE_MEM_BASE_ADDR_ALIGN, bytes */
	cl_ulong max_alloc;	/* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
	cl_device_exec_capabilities exec_caps;
	cl_command_queue_properties queue_props;
};

extern struct cl_api_fixture api;

/* The build options of the main program, as CL_PROGRAM_BUILD_OPTIONS
 * must give them back. */
#define CL_API_MAIN_OPTIONS "-DOFFSET=7 -cl-kernel-arg-info"

/* OpenCL C sources (cl_api_kernels.c). */
extern const char cl_api_main_source[];
extern const char cl_api_struct_source[];
extern const char cl_api_link_main_source[];
extern const char cl_api_link_lib_source[];
extern const char cl_api_link_header[];
extern const char cl_api_small_source[];

/* The name of an OpenCL error code ("CL_INVALID_VALUE (-30)"). */
const char *cl_err_name(cl_int err);

/* An OpenCL call's result against the error the spec names. */
#define CHECK_ERR(expr, want)                                                  \
	do {                                                                   \
		cl_int check_got_ = (expr), check_want_ = (want);              \
		if (check_got_ != check_want_)                                 \
			CHECK_FAIL_AT(__FILE__, __LINE__,                      \
				      "%s: got %s, expected %s", #expr,        \
				      cl_err_name(check_got_),                 \
				      cl_err_name(check_want_));               \
	} while (0)

/* A creator that must fail: NULL back and *err set to @want. */
#define CHECK_NULL_ERR(expr, errvar, want)                                     \
	do {                                                                   \
		errvar = 1;                                                    \
		const void *check_obj_ = (const void *)(expr);                 \
		if (check_obj_)                                                \
			CHECK_FAIL_AT(__FILE__, __LINE__,                      \
				      "%s: returned an object, expected "      \
				      "NULL and %s",                           \
				      #expr, cl_err_name(want));               \
		CHECK_ERR(errvar, want);                                       \
	} while (0)

/* Finds the Sleipnir platform and its GPU (api.platform, api.device). */
bool cl_api_find_device(void);
/* Finds our platform and device and makes the fixture: false when it
 * cannot (every other test would then fail for the same reason). */
bool cl_api_setup(void);
void cl_api_teardown(void);

/* Builds @src in @ctx with @options, printing the log when it fails;
 * NULL on failure. */
cl_program cl_api_build(cl_context ctx, const char *src, const char *options);

/* A kernel of the main program (NULL and a failed check when missing). */
cl_kernel cl_api_kernel(const char *name);

/* The main program's executable binary (CL_PROGRAM_BINARIES), malloc'd;
 * NULL and a failed check when it cannot be read. */
unsigned char *cl_api_main_binary(size_t *size);

/* A queue of api.ctx on api.device; NULL and a failed check if none. */
cl_command_queue cl_api_queue(cl_command_queue_properties props);

/* A buffer of api.ctx; NULL and a failed check when it cannot be made. */
cl_mem cl_api_buffer(cl_mem_flags flags, size_t size, void *host_ptr);

/*
 * Enqueues @kernel on @queue and waits for it: CL_SUCCESS, or a failed
 * check naming the enqueue error or the negative status the kernel ended
 * with (so a kernel that did not run is reported as such, not only as
 * wrong results). @line is the caller's.
 */
cl_int cl_api_run(cl_command_queue queue, cl_kernel kernel, cl_uint dims,
		  const size_t *global, const size_t *local, int line);
#define RUN_KERNEL(q, k, dims, global, local)                                  \
	cl_api_run(q, k, dims, global, local, __LINE__)

/* The execution status of @event (a failed check and -9999 when the query
 * itself fails). */
cl_int cl_api_event_status(cl_event event);

/* The bytes the runtime has copied so far (CL_DEVICE_SLEIPNIR_BYTES_COPIED). */
cl_ulong cl_api_bytes_copied(void);

/* A reference count through clGet*Info, for retain/release deltas. */
cl_uint cl_api_refcount(const void *object, int kind);
enum { REF_CONTEXT, REF_QUEUE, REF_MEM, REF_PROGRAM, REF_KERNEL, REF_EVENT };

/* Polls *flag (set by a callback on another thread) until it is at least
 * @want or @ms passed; true when it got there. */
bool cl_api_wait_flag(const int *flag, int want, int ms);

void cl_api_sleep_ms(int ms);

/* Each file's tests (they RUN() their own test_* functions). */
void cl_api_platform_tests(void);
void cl_api_queue_tests(void);
void cl_api_event_tests(void);
void cl_api_buffer_tests(void);
void cl_api_buffer_ops_tests(void);
void cl_api_gpu_copy_tests(void);
void cl_api_image_tests(void);
void cl_api_program_tests(void);
void cl_api_kernel_tests(void);
void cl_api_ndrange_tests(void);
void cl_api_ring_tests(void);
void cl_api_lifetime_tests(void);
/* Separate modes (each its own process and suite). */
void cl_api_fault_tests(void);
void cl_api_multiprocess_tests(void);
/* A kernel of about @seconds (0: 90) that must complete (by hand). */
void cl_api_long_tests(unsigned int seconds);
/* The helper processes of copy_stats_at_exit and debug_jobs_prints_chains
 * (cl_api_lifetime.c). */
int cl_api_copy_stats_child(void);
int cl_api_debug_jobs_child(void);
/* The helper process of big_launches_get_chains_of_their_own. */
int cl_api_batching_child(void);

/*
 * A watchdog around each test: the spec's waits must return (a GPU fault
 * surfaces as a negative status, never a hang), so a test that blocks
 * longer than this fails by name instead of timing out the board.
 */
#define CL_API_TEST_SECONDS 120
void cl_api_watchdog(const char *test, unsigned int seconds);

#define API_RUN(name)                                                          \
	do {                                                                   \
		cl_api_watchdog(#name, CL_API_TEST_SECONDS);                   \
		RUN(name);                                                     \
		cl_api_watchdog(NULL, 0);                                      \
	} while (0)

#endif
