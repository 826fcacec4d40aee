/* SPDX-License-Identifier: MIT */
/*
 * The boundary between the job manager and the shader cores.
 *
 * The job manager (sgpu_job_compute.c) reads and checks a COMPUTE job's
 * descriptors and hands the decoded dispatch to sgpu_shader_core_run().
 * The shader core runs WITHOUT the model lock, so a long kernel never
 * blocks register accesses; it reaches memory and the slot's state only
 * through the accessors below, which take the lock themselves.
 */
#ifndef SLEIPNIR_SGPU_SHADER_CORE_H
#define SLEIPNIR_SGPU_SHADER_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A COMPUTE job, decoded (fact sheet §4.3-§4.5). */
struct sgpu_compute_dispatch {
	uint64_t job_va;
	unsigned int as_nr;
	uint64_t affinity;            /* JS_AFFINITY & SHADER_PRESENT */
	uint32_t local_size[3];       /* threads per workgroup, x y z */
	uint32_t num_groups[3];       /* workgroups, x y z */
	uint32_t thread_group_split;
	uint32_t job_task_split;
	/* Draw descriptor pointers. */
	uint64_t uniform_buffers;
	uint64_t textures;
	uint64_t samplers;
	uint64_t push_uniforms;
	uint64_t rsd_va;
	uint64_t attribute_buffers;
	uint64_t attributes;
	uint64_t thread_storage;      /* Local Storage descriptor, or 0 */
	/* Renderer state. */
	uint64_t shader_va;           /* first bundle, tag bits cleared */
	uint32_t first_tag;           /* RSD shader pointer bits [3:0] */
	uint32_t rsd_words[16];       /* the whole RSD, for the interpreter */
	uint32_t tls_words[8];        /* Local Storage descriptor (0s if none) */
};

struct sgpu_shader_ctx;

/*
 * GPU-virtual memory through the job's address space. Return 0 or the
 * exception code to fail the job with (an MMU fault is already reported).
 */
uint32_t sgpu_shader_read(struct sgpu_shader_ctx *ctx, uint64_t va, void *buf,
			  size_t len);
uint32_t sgpu_shader_fetch(struct sgpu_shader_ctx *ctx, uint64_t va,
			   void *buf, size_t len);
uint32_t sgpu_shader_write(struct sgpu_shader_ctx *ctx, uint64_t va,
			   const void *buf, size_t len);
/*
 * True once the slot was hard-stopped, reset or its watchdog fired: return
 * EXC_TERMINATED (0x04) promptly. Cheap enough to call every few hundred
 * instructions.
 */
bool sgpu_shader_should_stop(struct sgpu_shader_ctx *ctx);
void sgpu_shader_guest_error(struct sgpu_shader_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* What the shader cores did for one dispatch, per core (cycle model). */
#define SGPU_SHADER_STATS_CORES 16
struct sgpu_core_counts {
	uint64_t alu_bundles, ldst_bundles, tex_bundles;
	uint64_t alu_instructions, ldst_instructions, tex_instructions;
	uint64_t threads, workgroups;
};

struct sgpu_shader_stats {
	struct sgpu_core_counts core[SGPU_SHADER_STATS_CORES];
	unsigned int work_regs;
	unsigned int threads_per_core;  /* residency for that register count */
	uint64_t decodes;               /* bundles decoded */
};

/* Threads one core holds of a shader using work_regs work registers. */
unsigned int sgpu_threads_per_core(unsigned int work_regs);

/*
 * Charges a dispatch's counts to the model's statistics and performance
 * counters (called once per dispatch, also when it faulted).
 */
void sgpu_shader_account(struct sgpu_shader_ctx *ctx,
			 const struct sgpu_shader_stats *stats);

/*
 * Runs every workgroup of a dispatch. Returns 0 when all threads finished,
 * or the exception code (from the fact sheet's table) the job fails with.
 */
uint32_t sgpu_shader_core_run(struct sgpu_shader_ctx *ctx,
			      const struct sgpu_compute_dispatch *dispatch);

#endif
