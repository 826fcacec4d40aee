/* SPDX-License-Identifier: MIT */
/*
 * Internal state of the Sleipnir GPU model, shared by its source files.
 *
 * Locking: everything in struct sgpu below the lock is protected by
 * gpu->lock. Functions named *_locked, and every block handler (the
 * sgpu_gpu_control_*, sgpu_job_*, sgpu_mmu_*, sgpu_perfcnt_* functions),
 * expect the caller to hold it. The only code that runs without it is the
 * shader cores (sgpu_shader_core_continue), which reach the model again
 * through the locked accessors in sgpu_shader_core.h.
 */
#ifndef SLEIPNIR_SGPU_INTERNAL_H
#define SLEIPNIR_SGPU_INTERNAL_H

#include <pthread.h>

#include "midgard_desc.h"
#include "sgpu.h"
#include "sgpu_regs.h"

#define SGPU_NUM_SLOTS 3
#define SGPU_NUM_AS 8
#define SGPU_MAX_CORES 16
/* Direct-mapped translation cache, per address space. */
#define SGPU_TLB_ENTRIES 16
/* The job index is 16 bits wide, so no honest chain is longer than this. */
#define SGPU_MAX_CHAIN_JOBS 65536u
/*
 * Nominal GPU clock used to turn host time into "cycles" (cycle counter,
 * WRITE_VALUE type 1, perf counters): RK3399 runs its T860 at up to 800 MHz.
 */
#define SGPU_CLOCK_NUM 4 /* cycles = ns * 4 / 5 */
#define SGPU_CLOCK_DEN 5

/* Internal job results, not hardware codes: the job waits (test hang); the
 * job's time slice is over and it resumes at the slot's next turn. */
#define SGPU_JOB_HANG 0x100u
#define SGPU_JOB_YIELD 0x101u
/* A COMPUTE job's time slice before the other slots get a turn. */
#define SGPU_COMPUTE_SLICE_NS (2ull * 1000 * 1000)

struct sgpu_product_info {
	const char *name;
	uint16_t product_id;          /* GPU_ID[31:16] */
	bool v4;                      /* T60x/T62x/T720: HW_FEATURE_V4 */
	unsigned int max_cores;
	unsigned int default_cores;
	/*
	 * Shader cores behind each L2 cache: a larger configuration is split
	 * into core groups of this many (T60x/T62x); 0: one group, however
	 * many cores.
	 */
	unsigned int core_group_size;
	/* GPU_ID[15:0] of the product's usual board (sgpu_product_revision). */
	uint16_t revision;
	uint32_t l2_features;
	uint32_t core_features;
	uint32_t tiler_features;
	uint32_t mem_features;
	uint32_t mmu_features;
	uint32_t thread_features;
	uint32_t texture_features[4];
	uint32_t js_features[SGPU_NUM_SLOTS];
	uint32_t coherency_features;
};

const struct sgpu_product_info *sgpu_product_info(enum sgpu_product product);
/* L2_PRESENT of @info with @cores shader cores (cores 0..cores-1). */
uint64_t sgpu_product_l2_present(const struct sgpu_product_info *info,
				 unsigned int cores);
/* MEM_FEATURES of @info with the core groups of @l2_present. */
uint32_t sgpu_product_mem_features(const struct sgpu_product_info *info,
				   uint64_t l2_present);

struct sgpu_tlb_entry {
	uint64_t vpage;   /* VA >> 12 */
	uint64_t ppage;   /* PA >> 12 */
	uint8_t perms;    /* SGPU_PERM_* */
	uint8_t level;    /* of the leaf, for permission faults */
	bool valid;
};

#define SGPU_PERM_READ  1u
#define SGPU_PERM_WRITE 2u
#define SGPU_PERM_EXEC  4u

struct sgpu_as {
	/* Registers as the driver wrote them. */
	uint64_t transtab;
	uint64_t memattr;
	uint64_t lockaddr;
	/* What UPDATE latched: the walker only ever uses these. */
	uint64_t live_transtab;
	uint64_t live_memattr;
	uint32_t faultstatus;
	uint64_t faultaddress;
	/* A fault that arrived while MMU_INT bit n was still set. */
	bool fault_queued;
	uint32_t queued_status;
	uint64_t queued_address;
	struct sgpu_tlb_entry tlb[SGPU_TLB_ENTRIES];
};

struct sgpu_slot {
	uint64_t head, tail, affinity;
	uint32_t config, xaffinity, status;
	uint64_t head_next, affinity_next;
	uint32_t config_next, xaffinity_next, command_next, flush_id_next;

	/* Execution state of the current chain. */
	bool active;
	bool soft_stop, hard_stop;
	bool hanging;         /* sitting on a test-hang WRITE_VALUE job */
	uint64_t job;         /* header of the next job to run */
	uint64_t last_job;    /* header of the last job that completed */
	uint32_t njobs;       /* jobs run in this chain */
	uint64_t started_ns;      /* for perf counters; moved by PERFCNT_CLEAR */
	/* Brent's cycle detection over the job addresses of the chain. */
	uint64_t brent_saved;
	uint32_t brent_power, brent_lam;
	/*
	 * Bumped whenever the chain is abandoned (reset), so work that ran
	 * without the lock knows its result no longer matters.
	 */
	uint64_t epoch;
	uint64_t chain_id;    /* stats.chains_started when it started */
	bool resuming;        /* the current job yielded and continues */
	/* Job indices already completed in this chain, for dependencies. */
	uint8_t seen[65536 / 8];
};

struct sgpu_perf {
	uint64_t busy_since_ns;   /* valid while any slot is active */
	uint64_t gpu_active_ns;
	uint64_t js_active_ns[SGPU_NUM_SLOTS];
	uint64_t js_jobs[SGPU_NUM_SLOTS];
	/* The shader cores' cycle model (sgpu_job_compute.c). */
	struct sgpu_core_perf {
		uint64_t active_cycles;   /* modelled busy cycles */
		uint64_t tasks;           /* workgroups */
		uint64_t threads;
		uint64_t arith_words, ls_words, tex_words;  /* bundles */
	} core[SGPU_MAX_CORES];
};

struct sgpu {
	struct sgpu_config config;
	unsigned int host_cpus;           /* online when the model was made */
	struct sgpu_host host;
	const struct sgpu_product_info *product;
	uint64_t shader_present;
	/* A bit at the first core of each core group (sgpu_products.c). */
	uint64_t l2_present;
	/* The product's MEM_FEATURES for this core-group layout. */
	uint32_t mem_features;

	pthread_mutex_t lock;
	/* Signalled on stop commands and resets, to wake a waiting runner. */
	pthread_cond_t cond;
	/* Serialises sgpu_run() callers; always taken before lock. */
	pthread_mutex_t run_lock;
	unsigned int active_slots;
	unsigned int next_slot;   /* round-robin start for the runner */

	/* GPU control. */
	uint32_t gpu_rawstat, gpu_mask;
	uint32_t gpu_fault_status;
	uint64_t gpu_fault_address;
	uint64_t ready[3];        /* shader, tiler, L2 */
	uint32_t pwr_override0, pwr_override1;
	uint32_t jm_config, shader_config, tiler_config, l2_mmu_config;
	bool cycle_count_active;
	uint64_t reset_ns;        /* cycle counter epoch */

	/* Performance counters. */
	uint64_t perfcnt_base;
	uint32_t perfcnt_config;
	uint32_t prfcnt_en[4];    /* JM, shader, tiler, MMU/L2 */
	struct sgpu_perf perf;
	uint64_t stats_active_ns; /* like perf.gpu_active_ns, never reset */

	/* Job control. */
	uint32_t job_rawstat, job_mask;
	struct sgpu_slot slot[SGPU_NUM_SLOTS];
	/*
	 * A COMPUTE job in progress on each slot, between its time slices.
	 * Kept outside struct sgpu_slot, which a reset clears, because only
	 * the runner may free it (it may be executing without the lock).
	 */
	struct sgpu_running_dispatch {
		struct sgpu_dispatch *run;
		uint64_t job_va, epoch, chain_id;
		/* The slot's last dispatch, ended: the next one's memory. */
		struct sgpu_dispatch *spare;
	} running[SGPU_NUM_SLOTS];

	/* MMU. */
	uint32_t mmu_rawstat, mmu_mask;
	struct sgpu_as as[SGPU_NUM_AS];

	/*
	 * Bumped (atomically) whenever any translation cache is flushed: the
	 * shader cores' page pointers are valid while it is unchanged.
	 */
	uint64_t mmu_generation;

	bool irq_level[SGPU_IRQ_COUNT];
	struct sgpu_stats stats;
};

/* sgpu.c */
void sgpu_update_irqs_locked(struct sgpu *gpu);
void sgpu_guest_error(struct sgpu *gpu, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool sgpu_tracing(struct sgpu *gpu, const char *event);
void sgpu_trace(struct sgpu *gpu, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
uint64_t sgpu_now_ns(struct sgpu *gpu);
uint64_t sgpu_cycles_locked(struct sgpu *gpu);
uint64_t sgpu_timestamp(struct sgpu *gpu);
void sgpu_reset_locked(struct sgpu *gpu, bool power_on);
static inline uint64_t sgpu_ns_to_cycles(uint64_t ns)
{
	return ns / SGPU_CLOCK_DEN * SGPU_CLOCK_NUM +
	       ns % SGPU_CLOCK_DEN * SGPU_CLOCK_NUM / SGPU_CLOCK_DEN;
}
static inline uint64_t sgpu_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}
static inline uint32_t sgpu_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}
static inline void sgpu_put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}
static inline void sgpu_put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}
/* Replaces the LO (hi = false) or HI half of a 64-bit register. */
static inline void sgpu_set_half(uint64_t *reg, bool hi, uint32_t value)
{
	if (hi)
		*reg = (*reg & 0xFFFFFFFFull) | (uint64_t)value << 32;
	else
		*reg = (*reg & ~0xFFFFFFFFull) | value;
}

/* sgpu_gpu_control.c */
void sgpu_gpu_control_reset(struct sgpu *gpu);
uint32_t sgpu_gpu_control_read(struct sgpu *gpu, uint32_t offset);
void sgpu_gpu_control_write(struct sgpu *gpu, uint32_t offset, uint32_t value);

/* sgpu_perfcnt.c */
void sgpu_perfcnt_reset(struct sgpu *gpu);
bool sgpu_perfcnt_read(struct sgpu *gpu, uint32_t offset, uint32_t *value);
bool sgpu_perfcnt_write(struct sgpu *gpu, uint32_t offset, uint32_t value);
void sgpu_perfcnt_clear(struct sgpu *gpu);
void sgpu_perfcnt_sample(struct sgpu *gpu);
/* Busy accounting, called when a slot becomes active or idle. */
void sgpu_perfcnt_slot_started(struct sgpu *gpu, unsigned int js);
void sgpu_perfcnt_slot_stopped(struct sgpu *gpu, unsigned int js);

/* sgpu_mmu.c */
void sgpu_mmu_reset(struct sgpu *gpu);
uint32_t sgpu_mmu_read(struct sgpu *gpu, uint32_t offset);
void sgpu_mmu_write(struct sgpu *gpu, uint32_t offset, uint32_t value);
/*
 * GPU-virtual memory access through address space as_nr, for the job
 * manager, the perf counters and the shader core. Returns 0 on success,
 * else the exception code the job fails with; translation problems are also
 * reported as an MMU fault on that address space. access is AS_ACCESS_*.
 */
uint32_t sgpu_vm_read(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
		      void *buf, size_t len, unsigned int access);
uint32_t sgpu_vm_write(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
		       const void *buf, size_t len);
/*
 * A write that reports nothing when it fails: used to write a fault code
 * back into the descriptor of a job that already failed, so one bad job
 * raises one fault.
 */
uint32_t sgpu_vm_write_quiet(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
			     const void *buf, size_t len);
/*
 * The host pointer to the page of va (NULL when the host has none for
 * it), translated for access like sgpu_vm_read()/sgpu_vm_write(): 0 or
 * the fault code, reported as theirs are if report is set.
 */
uint32_t sgpu_vm_page(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
		      unsigned int access, bool report, uint8_t **page);
/* A read that reports nothing and changes nothing: for the job trace. */
uint32_t sgpu_vm_read_quiet(struct sgpu *gpu, unsigned int as_nr, uint64_t va,
			    void *buf, size_t len);

/* sgpu_job.c */
void sgpu_job_reset(struct sgpu *gpu);
uint32_t sgpu_job_read(struct sgpu *gpu, uint32_t offset);
void sgpu_job_write(struct sgpu *gpu, uint32_t offset, uint32_t value);
bool sgpu_job_run(struct sgpu *gpu, uint64_t budget_ns);

/* A job being executed, as the per-type handlers see it. */
struct sgpu_job {
	struct sgpu *gpu;
	unsigned int js;
	unsigned int as_nr;
	uint64_t va;              /* job header address */
	uint32_t type;
	uint64_t affinity;
};

/* sgpu_jobs_basic.c: each returns 0, SGPU_JOB_HANG or an exception code. */
uint32_t sgpu_job_null(struct sgpu_job *job);
uint32_t sgpu_job_write_value(struct sgpu_job *job);
uint32_t sgpu_job_cache_flush(struct sgpu_job *job);

/*
 * sgpu_job_compute.c: called with the lock held, may drop it meanwhile.
 * Returns 0, SGPU_JOB_YIELD (call again for the same job to resume) or an
 * exception code.
 */
struct sgpu_dispatch;
uint32_t sgpu_job_compute(struct sgpu_job *job);
/* Ends slot js's dispatch in progress, if any, counting what it did. */
void sgpu_job_compute_abandon(struct sgpu *gpu, unsigned int js);
/* Frees every dispatch in progress (sgpu_destroy). */
void sgpu_job_compute_fini(struct sgpu *gpu);

#endif
