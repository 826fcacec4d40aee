/* SPDX-License-Identifier: MIT */
/*
 * A fake host for the GPU model's tests: RAM as a byte array at a base
 * physical address (with guard zones, so an access that strays outside is
 * caught), interrupt and kick recorders, a clock that advances a little on
 * every read (and a system time that follows it), and helpers to build page tables, job chains and to drive
 * the register sequences panfrost uses.
 */
#ifndef SLEIPNIR_FAKE_HOST_H
#define SLEIPNIR_FAKE_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "midgard_desc.h"
#include "sgpu.h"
#include "sgpu_regs.h"

struct fake_host {
	uint8_t *alloc;          /* guard | RAM | guard */
	uint8_t *ram;
	uint64_t base;
	uint64_t size;
	uint64_t next_free;      /* bump allocator, a PA */

	bool irq[SGPU_IRQ_COUNT];
	unsigned int irq_edges[SGPU_IRQ_COUNT];
	unsigned int kicks;
	uint64_t now;
	uint64_t tick;           /* added to now on every clock read */
	/*
	 * system_time_ns() returns now + system_offset (after the same tick),
	 * so a test can tell the system timestamp from the model's own clock.
	 * Set host.system_time_ns = NULL before fh_create() to leave it out.
	 */
	uint64_t system_offset;
	uint32_t timestamp_hz;   /* sgpu_config.timestamp_hz for fh_create() */
	unsigned int guest_errors;
	char last_error[256];
	bool print_errors;
	uint64_t reads_outside, writes_outside;
	/* Pages handed out by pointer (host.mem_page; NULL it to test the
	 * model without). */
	uint64_t pages_mapped;
	/* sgpu_config.engine and .shader_threads (0: 1) for fh_create(). */
	enum sgpu_engine engine;
	unsigned int shader_threads;
	/* sgpu_config.shader_cores for fh_create() (0: 4). */
	unsigned int shader_cores;
	/* Set by an IRQ whose level did not match (RAWSTAT & MASK) != 0. */
	unsigned int irq_mismatches;
	/* With trace_jobs, the model's "sgpu_jobs" trace lines (the chains
	 * it starts, decoded), one per line, as much as fits. */
	bool trace_jobs;
	char job_trace[32768];
	size_t job_trace_len;

	struct sgpu_host host;
	struct sgpu *gpu;
};

/* RAM of size bytes at PA base; the GPU is created by fh_create(). */
void fh_init(struct fake_host *fh, uint64_t base, uint64_t size);
struct sgpu *fh_create(struct fake_host *fh, enum sgpu_product product,
		       bool hang_jobs);
/* Destroys the GPU; returns false if a guard zone was touched. */
bool fh_fini(struct fake_host *fh);

/* Zeroed memory from the bump allocator. */
uint64_t fh_alloc(struct fake_host *fh, uint64_t size, uint64_t align);
void fh_w32(struct fake_host *fh, uint64_t pa, uint32_t v);
void fh_w64(struct fake_host *fh, uint64_t pa, uint64_t v);
uint32_t fh_r32(struct fake_host *fh, uint64_t pa);
uint64_t fh_r64(struct fake_host *fh, uint64_t pa);

uint32_t rd(struct fake_host *fh, uint32_t off);
void wr(struct fake_host *fh, uint32_t off, uint32_t v);
uint64_t rd64(struct fake_host *fh, uint32_t off_lo);
#define JS_REG(js, r) (JOB_SLOT_BASE + JOB_SLOT_STRIDE * (js) + (r))
#define AS_REG(as, r) (MMU_AS_BASE + MMU_AS_STRIDE * (as) + (r))

/* Panfrost's probe (soft reset, feature reads, power on) and resume. */
bool fh_panfrost_probe(struct fake_host *fh);

/* Page tables in the ARM_MALI_LPAE format. */
#define PTE_RW    0x2C1ull                 /* leaf, R, W, outer-shareable */
#define PTE_RWNX  (0x2C1ull | (3ull << 53))
#define PTE_RO    0x241ull
#define PTE_WO    0x281ull
uint64_t fh_pt_new(struct fake_host *fh);
/* PA of the entry for va at level (0-3), creating tables on the way. */
uint64_t fh_pt_entry(struct fake_host *fh, uint64_t root, uint64_t va,
		     unsigned int level);
/* Maps [va, va + size) to [pa, ...) with 4 KiB pages and leaf flags. */
void fh_map(struct fake_host *fh, uint64_t root, uint64_t va, uint64_t pa,
	    uint64_t size, uint64_t flags);
/* Binds a table to an AS as panfrost does (LOCK, FLUSH_MEM, regs, UPDATE). */
void fh_as_enable(struct fake_host *fh, unsigned int as, uint64_t root);
void fh_as_disable(struct fake_host *fh, unsigned int as);

/* Copies @size bytes (a packed descriptor) to pa. */
void fh_write(struct fake_host *fh, uint64_t pa, const void *bytes,
	      size_t size);
/* Stores one field of the descriptor at pa (midgard_desc.h); aborts when
 * the value does not fit, a mistake of the test. */
void fh_set(struct fake_host *fh, uint64_t pa, enum mdg_field_id f,
	    uint64_t v);
/* A job header at pa (Is 64b set), and a WRITE_VALUE job. */
void fh_job(struct fake_host *fh, uint64_t pa, unsigned int type,
	    unsigned int index, unsigned int dep1, unsigned int dep2,
	    uint64_t next);
void fh_write_value(struct fake_host *fh, uint64_t pa, unsigned int index,
		    uint64_t target, uint32_t type, uint64_t next);
/* Submits a chain as panfrost does: _NEXT registers, then START. */
void fh_submit(struct fake_host *fh, unsigned int js, uint64_t jc,
	       unsigned int as, uint32_t extra_config);
/* The same on the shader cores in affinity (fh_submit: all of them). */
void fh_submit_on(struct fake_host *fh, unsigned int js, uint64_t jc,
		  unsigned int as, uint32_t extra_config, uint32_t affinity);
/* Calls sgpu_run() until it has nothing left (at most max_calls times). */
bool fh_run_idle(struct fake_host *fh, unsigned int max_calls);

/* True for the exception codes panfrost's table lists (the same as the
 * hardware library's, midgard_desc_list.h). */
bool fh_exception_listed(uint32_t code);

#endif
