/* SPDX-License-Identifier: MIT */
/*
 * The boundary between the job manager and the shader cores.
 *
 * The job manager (sgpu_job_compute.c) reads and checks a COMPUTE job's
 * descriptors, starts a dispatch with sgpu_shader_core_start() and runs it
 * in time slices with sgpu_shader_core_continue(), so that the other job
 * slots take turns while a long kernel runs, as on the hardware. The
 * shader core runs WITHOUT the model lock, so a long kernel never blocks
 * register accesses; it reaches memory and the slot's state only through
 * the accessors below, which take the lock themselves.
 */
#ifndef SLEIPNIR_SGPU_SHADER_CORE_H
#define SLEIPNIR_SGPU_SHADER_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "midgard_desc.h"

/* A COMPUTE job, decoded (docs/hardware.md §4.3-§4.5). */
struct sgpu_compute_dispatch {
	uint64_t job_va;
	unsigned int as_nr;
	uint64_t affinity;            /* JS_AFFINITY & SHADER_PRESENT */
	bool reference_engine;        /* per thread (sgpu_thread.c) */
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
	uint8_t rsd[MDG_RENDERER_STATE_BYTES];       /* as read */
	uint8_t local_storage[MDG_LOCAL_STORAGE_BYTES];  /* 0s if none */
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
 * The host pointer to the page of va for reading or writing it directly,
 * translated as sgpu_shader_read()/sgpu_shader_write() would: 0 or the
 * exception code (an MMU fault reported only if report is set). *page is
 * NULL when the host has no pointer for that memory (use
 * sgpu_shader_read()/sgpu_shader_write()). The pointer holds while
 * *sgpu_shader_mmu_generation() is unchanged.
 */
uint32_t sgpu_shader_map(struct sgpu_shader_ctx *ctx, uint64_t va, bool write,
			 bool report, uint8_t **page);
const uint64_t *sgpu_shader_mmu_generation(struct sgpu_shader_ctx *ctx);
/*
 * Polled every few thousand bundles: MDG_EXCEPTION_TERMINATED (0x04) once the slot
 * was hard-stopped or reset; SGPU_SHADER_YIELD when
 * the time slice is used up (*slice_start_ns, the slice's start by
 * sgpu_shader_now(), or 0 to start it at this poll); else 0.
 */
#define SGPU_SHADER_YIELD 0x101u
uint32_t sgpu_shader_poll(struct sgpu_shader_ctx *ctx,
			  uint64_t *slice_start_ns);
/* The model's clock, as sgpu_shader_poll() reads it. */
uint64_t sgpu_shader_now(struct sgpu_shader_ctx *ctx);
void sgpu_shader_guest_error(struct sgpu_shader_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The host threads the shader cores may use, and the host's hooks for
 * threads the model starts (sgpu_config.shader_threads, sgpu_host).
 */
#define SGPU_MAX_SHADER_THREADS 16
struct sgpu_shader_threads {
	unsigned int threads;
	void (*begin)(void *opaque);
	void (*end)(void *opaque);
	void *opaque;
};
void sgpu_shader_threads(struct sgpu_shader_ctx *ctx,
			 struct sgpu_shader_threads *out);

/* What the shader cores did for one dispatch, per core (cycle model). */
#define SGPU_SHADER_STATS_CORES 16
struct sgpu_core_counts {
	uint64_t alu_bundles, ldst_bundles, tex_bundles;
	uint64_t alu_instructions, ldst_instructions, tex_instructions;
	uint64_t tex_cycles;            /* the texture pipe's busy cycles */
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


/* A dispatch in progress: its threads, registers and position. */
struct sgpu_dispatch;

/*
 * Reads the renderer state and local storage of a dispatch and prepares
 * its first workgroup. *run is NULL, or a dispatch sgpu_shader_core_end()
 * ended, whose memory the new one takes over (a job slot keeps its last
 * one: allocating and clearing the register files and decode cache
 * afresh costs more host time than a small job runs). Returns 0 and the
 * dispatch in *run, or the exception code the job fails with (*run then
 * NULL, the old memory freed).
 */
uint32_t sgpu_shader_core_start(struct sgpu_shader_ctx *ctx,
				const struct sgpu_compute_dispatch *dispatch,
				struct sgpu_dispatch **run);
/*
 * Runs the dispatch for one time slice. Returns 0 when every thread has
 * finished, SGPU_SHADER_YIELD when the slice is used up (call again to
 * resume exactly where it stopped), or the exception code the job fails
 * with.
 */
uint32_t sgpu_shader_core_continue(struct sgpu_dispatch *run,
				   struct sgpu_shader_ctx *ctx);
/* What the dispatch did so far (for the cycle-model accounting). */
const struct sgpu_shader_stats *sgpu_shader_core_stats(struct sgpu_dispatch *run);
/* Ends the dispatch (stops its host threads), keeping its memory for the
 * next sgpu_shader_core_start(). */
void sgpu_shader_core_end(struct sgpu_dispatch *run);
void sgpu_shader_core_free(struct sgpu_dispatch *run);

#endif
