/* SPDX-License-Identifier: MIT */
/*
 * What every OpenCL sample shares: finding the Sleipnir GPU, a profiling
 * queue, building a kernel from its .cl file, running it and adding up its
 * GPU time, the runtime's count of bytes copied, checking results against
 * the C reference, and the one machine-readable line each sample ends with:
 *
 *     demo: <sample> <size> OK|FAIL <gpu_us> <bytes_copied>
 *
 * which scripts/demo.sh and tests/samples/run-samples.sh read. Any OpenCL
 * error ends the sample with that line saying FAIL and a non-zero status,
 * so a broken runtime shows up as a failed sample, never as a hang or a
 * silent pass.
 */
#ifndef SLEIPNIR_SAMPLE_H
#define SLEIPNIR_SAMPLE_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sample {
	const char *name;
	char size[48];
	cl_platform_id platform;
	cl_device_id device;
	cl_context context;
	cl_command_queue queue;	/* in order, with profiling */
	cl_program program;
	uint64_t gpu_ns;	/* the kernels' END - START, summed */
	int64_t copied_at_start;	/* -1: the runtime cannot tell */
};

/* Finds the device and makes the context and queue; exits on failure. */
void sample_init(struct sample *s, const char *name);

/* Records the problem size printed in the demo line (no spaces). */
void sample_set_size(struct sample *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Builds @file (found beside the installed program, see sample.c) and
 * returns its kernel @kernel; prints the build log and exits on failure.
 */
cl_kernel sample_kernel(struct sample *s, const char *file, const char *kernel);

/*
 * Exits the sample as failed unless the kernel can run work-groups of
 * @local work-items (CL_KERNEL_WORK_GROUP_SIZE), which it needs because
 * its __local arrays are sized for that.
 */
void sample_need_group_size(struct sample *s, cl_kernel k, size_t local);

/* Ends the sample as failed with @what and @err if @err is an error. */
void sample_cl(struct sample *s, cl_int err, const char *what);
#define SAMPLE_CL(s, call) sample_cl((s), (call), #call)

/* Prints the demo line saying FAIL and exits with status 1. */
void sample_fail(struct sample *s) __attribute__((noreturn));

/* A buffer; exits on failure. */
cl_mem sample_buffer(struct sample *s, cl_mem_flags flags, size_t size,
		     void *host_ptr);

/* Sets kernel argument @index to the value @v (a variable, not an rvalue). */
#define SAMPLE_ARG(s, k, index, v)                                            \
	sample_cl((s), clSetKernelArg((k), (index), sizeof(v), &(v)),          \
		  "clSetKernelArg(" #index ", " #v ")")

/*
 * Enqueues @k over @global (and @local, or NULL for the runtime's
 * choice), waits for it and adds its profiled GPU time.
 *
 * Keep one launch to a few hundred ms of the model's time: the emulated
 * GPU runs a few million instructions a second, slower when the host is
 * busy, and the demo should stay quick. (Long launches complete: only
 * sleipnir.ko's timeout ends a chain, 30 min on the board.) Bigger work
 * goes in several launches (sample_enqueue with an offset, as
 * mandelbrot.c does).
 */
void sample_run(struct sample *s, cl_kernel k, cl_uint dims,
		const size_t *global, const size_t *local);

/* Enqueues @k (@offset may be NULL) and returns its event. */
cl_event sample_enqueue(struct sample *s, cl_kernel k, cl_uint dims,
			const size_t *offset, const size_t *global,
			const size_t *local);
/*
 * Waits for @ev, fails the sample unless it completed, adds its profiled
 * GPU time and releases it.
 */
void sample_wait(struct sample *s, cl_event ev);

/* Blocking read of @size bytes of @buf into @dst. */
void sample_read(struct sample *s, cl_mem buf, size_t size, void *dst);

/*
 * The bytes the runtime has copied in this process so far (the Sleipnir
 * ICD's CL_DEVICE_SLEIPNIR_BYTES_COPIED), or -1 when it cannot tell.
 */
int64_t sample_bytes_copied(struct sample *s);

/*
 * Prints the demo line, releases everything and returns the exit status:
 * 0 only when @ok.
 */
int sample_finish(struct sample *s, bool ok);

/* Deterministic pseudo-random numbers, so every run checks the same data. */
uint32_t sample_rand(void);
float sample_rand_float(float lo, float hi);

/*
 * Compares @n floats: element i passes when |got - want| <= tol * scale,
 * scale being @scale[i] when @scale is given (the sum of the magnitudes of
 * the terms that made it, for sums whose rounding depends on their order)
 * and |want[i]| otherwise. Prints the first few misses.
 */
bool sample_check_floats(const char *what, const float *want, const float *got,
			 const float *scale, size_t n, float tol);
/* Compares @n 32-bit integers exactly. */
bool sample_check_uints(const char *what, const uint32_t *want,
			const uint32_t *got, size_t n);

/* malloc that exits the sample as failed when memory runs out. */
void *sample_alloc(struct sample *s, size_t size);

#endif
