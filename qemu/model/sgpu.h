/* SPDX-License-Identifier: MIT */
/*
 * The Sleipnir GPU model core: a Mali Midgard (T6xx-T8xx) job-manager GPU in
 * plain C11, with no QEMU dependency, so host tests can drive it directly.
 *
 * The host (QEMU's glue in qemu/hw/, or a host test) gives the model a few
 * services through struct sgpu_host and calls three entry points:
 *
 *   sgpu_mmio_read() / sgpu_mmio_write()  from the CPU's thread, for every
 *                                         32-bit register access;
 *   sgpu_run()                            from a worker thread, whenever the
 *                                         model asked for it through kick().
 *
 * Threading contract: the model keeps its own lock. MMIO calls never wait for
 * a job to finish (jobs run only inside sgpu_run()), so a vCPU is never
 * stalled by GPU work, and no job completes inside an MMIO write. While
 * sgpu_run() runs a COMPUTE job, the model may run its shader cores on
 * threads of its own as well (sgpu_config.shader_threads). Host callbacks
 * may be called with the model's lock held, from any of these threads; they
 * must not call back into the model.
 */
#ifndef SLEIPNIR_SGPU_H
#define SLEIPNIR_SGPU_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The size of the register window (one 64 KiB page, as on RK3399). */
#define SGPU_MMIO_SIZE 0x10000

/*
 * The default frequency of the system timestamp: the rate at which QEMU's
 * Arm generic timer counts (1 GHz / GTIMER_SCALE 16 in QEMU 7.2), so the
 * GPU's timestamp and the CPUs' CNTVCT agree on QEMU's virt board.
 */
#define SGPU_DEFAULT_TIMESTAMP_HZ 62500000u
/* The fastest system counter the model accepts (Armv8.6 fixes 1 GHz). */
#define SGPU_MAX_TIMESTAMP_HZ 1000000000u

enum sgpu_irq_line {
	SGPU_IRQ_JOB,
	SGPU_IRQ_MMU,
	SGPU_IRQ_GPU,
	SGPU_IRQ_COUNT,
};

struct sgpu_host {
	void *opaque;
	/*
	 * Physical memory access for the GPU's bus masters (page-table walker,
	 * job manager, shader cores). Returns false when any part of
	 * [pa, pa + len) is not backed by RAM; the model then reports a bus
	 * fault and never touches the buffer's contents in memory.
	 */
	bool (*mem_read)(void *opaque, uint64_t pa, void *buf, size_t len);
	bool (*mem_write)(void *opaque, uint64_t pa, const void *buf, size_t len);
	/*
	 * Optional. A host pointer to the 4 KiB page of guest-physical memory
	 * at page_pa (4 KiB aligned) when it is plain RAM the model may read,
	 * or write if write is set, directly; else NULL, and the model uses
	 * mem_read / mem_write. The pointer must stay valid while the model
	 * exists. The shader cores' loads and stores go through it.
	 */
	void *(*mem_page)(void *opaque, uint64_t page_pa, bool write);
	/* Sets a level-triggered interrupt line. */
	void (*set_irq)(void *opaque, enum sgpu_irq_line line, bool level);
	/*
	 * A monotonic clock in nanoseconds: the model's own time (cycle
	 * counter, perf-counter busy time, time slices).
	 */
	uint64_t (*now_ns)(void *opaque);
	/*
	 * Optional. The SoC's system time in nanoseconds: the time base of the
	 * system counter that the CPUs' generic timers also read (CNTVCT). On
	 * Midgard SoCs the GPU's system timestamp (GPU_TIMESTAMP, WRITE_VALUE
	 * type 2, perf-counter block headers) is that counter; the model
	 * counts this clock at sgpu_config.timestamp_hz. QEMU's glue gives
	 * QEMU_CLOCK_VIRTUAL, the clock its Arm generic timer counts. When
	 * absent, now_ns is used.
	 */
	uint64_t (*system_time_ns)(void *opaque);
	/* Work is pending: arrange for sgpu_run() to be called on a worker. */
	void (*kick)(void *opaque);
	/*
	 * Optional. A guest programming error (bad descriptor, bad register
	 * value): QEMU's glue maps it to LOG_GUEST_ERROR.
	 */
	void (*guest_error)(void *opaque, const char *fmt, va_list ap);
	/*
	 * Optional. Called on each thread the model starts for its shader
	 * cores, first thing and last thing (QEMU registers it with RCU, as
	 * mem_read/mem_write/mem_page need).
	 */
	void (*thread_begin)(void *opaque);
	void (*thread_end)(void *opaque);
	/* Optional. A named trace event with a formatted message. */
	void (*trace)(void *opaque, const char *event, const char *fmt,
		      va_list ap);
	/*
	 * Optional. Whether @event is traced: the model decodes every job
	 * chain it starts into "sgpu_jobs" lines (midgard_job_decode.c) only
	 * when it is.
	 */
	bool (*tracing)(void *opaque, const char *event);
};

/* Products the model can be: GPU_ID and feature registers follow from it. */
enum sgpu_product {
	SGPU_T604,
	SGPU_T628,
	SGPU_T720,
	SGPU_T760,
	SGPU_T820,
	SGPU_T830,
	SGPU_T860,
	SGPU_T880,
	SGPU_PRODUCT_COUNT,
};

/*
 * How the shader cores execute: the lockstep engine (the default), or the
 * per-thread reference interpreter it is tested against.
 */
enum sgpu_engine {
	SGPU_ENGINE_LOCKSTEP,
	SGPU_ENGINE_REFERENCE,
};

struct sgpu_config {
	enum sgpu_product product;
	/* GPU_ID[15:0]: major[15:12], minor[11:4], status[3:0]. */
	uint16_t revision;
	/* Number of shader cores, 1..16 (SHADER_PRESENT = low bits set). */
	unsigned int shader_cores;
	/*
	 * Test aid: when set, a WRITE_VALUE job of type SGPU_TEST_HANG_TYPE
	 * never completes until the slot is stopped, so drivers' timeout and
	 * reset paths can be tested before shaders run. Off on real boards.
	 */
	bool test_hang_jobs;
	/*
	 * Frequency of the system timestamp in Hz, 1..SGPU_MAX_TIMESTAMP_HZ:
	 * it should equal the CPUs' CNTFRQ (RK3399: 24 MHz). 0 selects
	 * SGPU_DEFAULT_TIMESTAMP_HZ. The timestamp is
	 * floor(system_time_ns * timestamp_hz / 10^9), exactly.
	 */
	uint32_t timestamp_hz;
	/* SGPU_ENGINE_LOCKSTEP unless a test compares the two. */
	enum sgpu_engine engine;
	/*
	 * Host threads the shader cores may run on at once (up to one per
	 * core of a job's affinity); 0: as many as the host has CPUs.
	 */
	unsigned int shader_threads;
};

/* The WRITE_VALUE type that hangs a slot when test_hang_jobs is set. */
#define SGPU_TEST_HANG_TYPE 0x48414e47u /* "HANG" */

struct sgpu;

/* Looks a product up by its lower-case marketing name ("t860"); -1 if none. */
int sgpu_product_from_name(const char *name);

/*
 * The GPU_ID revision (sgpu_config.revision) the product's usual board
 * reports: T860 r2p0 (RK3399), T760 r0p0 (RK3288), T628 r1p0 (Exynos 5422);
 * r2p0 for the others, which no board here stands for.
 */
uint16_t sgpu_product_revision(enum sgpu_product product);

/*
 * Creates a model in its power-on reset state. Returns NULL and fills err
 * (if given) when the configuration is invalid.
 */
struct sgpu *sgpu_create(const struct sgpu_config *config,
			 const struct sgpu_host *host, char *err,
			 size_t err_size);
void sgpu_destroy(struct sgpu *gpu);

/* Hard reset, as at power-on (QEMU system reset). */
void sgpu_reset(struct sgpu *gpu);

/* 32-bit register access at offset (< SGPU_MMIO_SIZE, 4-byte aligned). */
uint32_t sgpu_mmio_read(struct sgpu *gpu, uint32_t offset);
void sgpu_mmio_write(struct sgpu *gpu, uint32_t offset, uint32_t value);

/*
 * Runs pending GPU work (job chains on the slots) for up to about budget_ns
 * of host time. Returns true when work remains, in which case the host
 * should call it again (the model has also called kick()).
 */
bool sgpu_run(struct sgpu *gpu, uint64_t budget_ns);

/* Current level of an interrupt line (for hosts that poll, and for tests). */
bool sgpu_irq_level(struct sgpu *gpu, enum sgpu_irq_line line);

/*
 * Counters for tests and benchmarks (not guest-visible). All counts are
 * since sgpu_create(); resets do not clear them.
 */
struct sgpu_stats {
	uint64_t jobs_run;        /* job descriptors that completed */
	uint64_t chains_started;
	uint64_t chains_done;     /* chains that ended with JS_STATUS DONE */
	uint64_t chains_failed;   /* ended with a fault code (> 0x3F) */
	uint64_t chains_stopped;  /* ended STOPPED or TERMINATED */
	uint64_t mmu_faults;      /* address-space faults reported */
	uint64_t mmu_faults_queued; /* of those, raised while one was pending */
	uint64_t page_walks;
	uint64_t tlb_hits;
	uint64_t gpu_active_cycles; /* at the model's nominal clock */
	uint64_t perfcnt_samples;
	uint64_t guest_errors;
	/*
	 * The shader cores (qemu/README.md "Cycle model"). Pipe cycles are
	 * summed over cores; shader_cycles adds, per dispatch, the cycles of
	 * its busiest core (the dispatch's modelled duration).
	 */
	uint64_t shader_dispatches;
	uint64_t shader_workgroups;
	uint64_t shader_threads;
	uint64_t shader_alu_bundles, shader_ldst_bundles, shader_tex_bundles;
	uint64_t shader_alu_instructions, shader_ldst_instructions;
	uint64_t shader_tex_instructions;
	uint64_t shader_arith_cycles, shader_ls_cycles, shader_tex_cycles;
	uint64_t shader_cycles;
	uint64_t shader_decodes;
	/* Of the last dispatch: work registers and threads per core. */
	uint32_t last_work_regs, last_threads_per_core;
};

void sgpu_get_stats(struct sgpu *gpu, struct sgpu_stats *stats);

/* Kinds of GPU memory access, for sgpu_translate(). */
enum sgpu_access {
	SGPU_ACCESS_READ,
	SGPU_ACCESS_WRITE,
	SGPU_ACCESS_EXECUTE,
};

/*
 * Test and debug aid: translates va through address space as_nr exactly as
 * a GPU access of that kind would, including the translation cache and
 * fault reporting (a fault sets AS_FAULTSTATUS/ADDRESS and MMU_INT like a
 * job's access would). Returns 0 and the physical address in *pa, or the
 * fault's exception code.
 */
uint32_t sgpu_translate(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
			enum sgpu_access access, uint64_t *pa);

#endif
