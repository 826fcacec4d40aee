/* SPDX-License-Identifier: MIT */
/*
 * Runs compute shaders on the model core from host tests: a fake host with
 * one address space, a code area, buffers, thread- and workgroup-local
 * storage, and a compute job built with the launch library's descriptor
 * block (userspace/launch/sl_launch.h), submitted as panfrost would.
 */
#ifndef SLEIPNIR_COMPUTE_HARNESS_H
#define SLEIPNIR_COMPUTE_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "fake_host.h"
#include "sl_launch.h"

#define CH_VA_BASE 0x10000000ull
#define CH_CODE_VA CH_VA_BASE               /* 1 MiB of code */
#define CH_DESC_VA (CH_VA_BASE + 0x100000)  /* sl_launch's block; 1 MiB */
#define CH_DESC_SIZE 0x100000u
#define CH_DATA_VA (CH_VA_BASE + 0x200000)  /* 4 MiB of buffers */
#define CH_DATA_SIZE (4u << 20)
/*
 * 8 MiB of TLS: 8 KiB a thread (as the corpus's math kernels need) for
 * the 256 thread slots of each of the 4 cores (sl_launch_plan's size).
 */
#define CH_TLS_VA (CH_VA_BASE + 0x600000)
#define CH_TLS_SIZE (8u << 20)
#define CH_WLS_VA (CH_VA_BASE + 0xE00000)   /* 2 MiB */
#define CH_WLS_SIZE (2u << 20)
#define CH_VA_SIZE (0x1000000u)

struct ch_kernel {
	const char *source;          /* assembler text, or NULL for code */
	const uint8_t *code;         /* raw code (with first_tag) */
	size_t code_size;
	unsigned int first_tag;
	unsigned int work_regs;      /* 0: as the assembler's count */
	uint32_t local_size[3];
	uint32_t num_groups[3];
	const uint32_t *uniforms;    /* uniform_vec4 * 4 words */
	unsigned int uniform_vec4;
	unsigned int ubo_count;
	uint64_t ubo_va[8];
	uint32_t ubo_size[8];
	uint32_t tls_bytes;          /* per thread, 0 = none */
	uint32_t wls_bytes;          /* per workgroup, 0 = none */
	bool barrier;
	uint64_t affinity;           /* 0: all cores */
	/* Called after the descriptors are written, before the submit. */
	void (*before_submit)(struct fake_host *fh, void *data);
	void *data;
};

struct ch_result {
	uint32_t js_status;
	bool hard_stopped;           /* the timeout had to stop it */
	bool others_idle_at_stop;    /* the other slots had finished by then */
	struct sgpu_stats before, after;
};

/* The slot ch_run() submits to. */
#define CH_JS 1

/* Where ch_run() puts the descriptors: one sl_launch block at CH_DESC_VA. */
#define CH_JOB_VA (CH_DESC_VA + SL_DESC_JOB)
#define CH_RSD_VA (CH_DESC_VA + SL_DESC_RSD)
#define CH_LS_VA (CH_DESC_VA + SL_DESC_LOCAL_STORAGE)
#define CH_UBO_TABLE_VA (CH_DESC_VA + SL_DESC_UBO_TABLE)
#define CH_PUSH_VA (CH_DESC_VA + SL_DESC_PUSH)

/* A T860 with 4 cores and the address space set up; false on failure. */
bool ch_setup(struct fake_host *fh);
/* The same, the shader cores executing with engine on that many threads. */
bool ch_setup_engine(struct fake_host *fh, enum sgpu_engine engine,
		     unsigned int shader_threads);
/* Host pointer to GPU VA va in the mapped area. */
uint8_t *ch_ptr(struct fake_host *fh, uint64_t va);
/*
 * Assembles (if source) and runs the kernel to completion; the job's
 * JS_STATUS is in the result. Returns false when the kernel did not
 * assemble (with the assembler's message printed).
 */
bool ch_run(struct fake_host *fh, const struct ch_kernel *k,
	    struct ch_result *res);
/*
 * The same, with the model on a worker thread (as in QEMU); a job still
 * running after timeout_ms is hard-stopped as a driver would.
 */
bool ch_run_timeout(struct fake_host *fh, const struct ch_kernel *k,
		    struct ch_result *res, unsigned int timeout_ms);
/*
 * What ch_run() does before it submits: the code at CH_CODE_VA and the
 * job's descriptors at CH_DESC_VA (the job at CH_JOB_VA, not started).
 * Writing the descriptors again re-arms the job.
 */
bool ch_prepare(struct fake_host *fh, const struct ch_kernel *k);
/*
 * Submits the job chain already written at jc to slot CH_JS and runs it to
 * completion (timeout_ms as ch_run_timeout(), 0 for none); affinity 0 means
 * every core. For callers that lay out their own jobs (the corpus runner
 * through sl_launch_emit()).
 */
void ch_run_chain(struct fake_host *fh, uint64_t jc, uint64_t affinity,
		  struct ch_result *res, unsigned int timeout_ms);

#endif
