/* SPDX-License-Identifier: MIT */
/*
 * State shared by the parts of the shader-core interpreter: the dispatch
 * being run (sgpu_shader_core.c), the decoded-bundle cache
 * (sgpu_shader_cache.c), one thread's execution (sgpu_thread.c) and its
 * load/store unit (sgpu_ldst.c). Nothing here is visible outside the
 * shader core; it all runs without the model lock.
 */
#ifndef SLEIPNIR_SGPU_SHADER_H
#define SLEIPNIR_SGPU_SHADER_H

#include <pthread.h>
#include <string.h>

#include "midgard_isa.h"
#include "sgpu_alu.h"
#include "sgpu_shader_core.h"
#include "sgpu_texture.h"

#define SGPU_MAX_UBOS 256
/* Work registers r0-r15; pushed uniform k is r(23 - k). */
#define SGPU_MAX_WORK_REGS 16
#define SGPU_MAX_UNIFORM_VEC4 16

/* A bundle as the interpreter keeps it: decoded once per dispatch. */
struct sgpu_cached_bundle {
	uint64_t va;
	struct mdg_bundle b;
	/* Instructions in it (ALU units and branch, ld/st words, tex ops). */
	uint8_t instructions;
	/*
	 * Load/store: every word has a lockstep form (sgpu_warp_ldst.c), its
	 * kind and access width.
	 */
	bool ldst_fast;
	uint8_t ldst_kind[2], ldst_bytes[2];
	/* ALU units with a 32-bit form (sgpu_alu_prepare32), and the forms. */
	uint8_t units32;
	struct sgpu_alu32 alu32[MDG_UNIT_COUNT];
};

/* Decoded bundles of one dispatch, by GPU address (open addressing). */
struct sgpu_shader_cache {
	struct sgpu_cached_bundle *slots;
	uint32_t capacity;                /* a power of two */
	uint32_t used;
	uint64_t decodes;                 /* bundles decoded (cache misses) */
};

/*
 * A task: the threads the job manager hands one shader core at once, run
 * together (sgpu_shader_core.c): whole workgroups, as many as the core
 * holds threads of the shader, or a slice of one workgroup larger than a
 * task. Lane l is the task's thread l; it uses thread-storage slot l of
 * its core.
 */
#define SGPU_TASK_LANES 256u

struct sgpu_task {
	unsigned int slot;      /* the core's index in the job's affinity */
	unsigned int core;
	uint32_t lanes;
	uint32_t groups;
	uint32_t group_id[SGPU_TASK_LANES][3];
	uint64_t group_wls[SGPU_TASK_LANES];  /* WLS instance, 0: none */
	uint16_t lane_group[SGPU_TASK_LANES];  /* index into group_id */
	uint32_t local_id[SGPU_TASK_LANES][3];
};

enum sgpu_thread_state {
	SGPU_THREAD_RUNNABLE,
	SGPU_THREAD_AT_BARRIER,
	SGPU_THREAD_DONE,
};

struct sgpu_thread {
	union sgpu_reg r[32];             /* r26/r27: load/store arguments */
	uint64_t pc;                      /* bundle to execute next */
	uint8_t tag;                      /* the tag that bundle must have */
	uint8_t state;                    /* enum sgpu_thread_state */
	uint32_t local_id[3];
	uint32_t linear_id;               /* lane: index within the task */
};

/*
 * Host pointers to the pages the shader reads or writes (by GPU VA), so
 * that loads and stores skip the model's lock and MMU: valid while the
 * MMU generation they were made in lasts (sgpu_shader_mem.c).
 */
#define SGPU_PAGE_CACHE_ENTRIES 256u

/* The entry of a page: hashed, so buffers at aligned distances mix. */
static inline unsigned int sgpu_page_slot(uint64_t tag)
{
	_Static_assert(SGPU_PAGE_CACHE_ENTRIES == 256, "8 hash bits");
	return (unsigned int)((tag * 0x9E3779B97F4A7C15ull) >> 56);
}

struct sgpu_page_cache {
	uint64_t tag[SGPU_PAGE_CACHE_ENTRIES];   /* (va >> 12) + 1, 0: empty */
	uint8_t *page[SGPU_PAGE_CACHE_ENTRIES];
};

/* Per-pipe counts of the cycle model (qemu/README.md "Cycle model"). */
struct sgpu_pipe_counts {
	uint64_t alu_bundles, ldst_bundles, tex_bundles;
	uint64_t alu_instructions, ldst_instructions, tex_instructions;
	uint64_t tex_cycles;              /* bundles + the unit's extra cycles */
	uint64_t threads;
};

/* One dispatch (a COMPUTE job) while it runs. */
struct sgpu_exec {
	struct sgpu_shader_ctx *ctx;
	const struct sgpu_compute_dispatch *d;
	struct sgpu_shader_cache cache;

	/* From the renderer state. */
	unsigned int work_regs;
	unsigned int uniform_vec4;
	unsigned int ubo_count;
	bool has_barrier;
	enum sgpu_fp_mode fp_mode;
	union sgpu_reg uniforms[SGPU_MAX_UNIFORM_VEC4];
	uint64_t ubo_va[SGPU_MAX_UBOS];   /* the RSD's uniform buffers */
	uint32_t ubo_bytes[SGPU_MAX_UBOS];
	struct sgpu_tex_tables tex_tables;
	uint32_t attribute_count;         /* images (docs/hardware.md §4.10) */

	/* Local storage (docs/hardware.md §4.5). */
	uint64_t tls_base;                /* 0: none */
	uint64_t tls_per_thread;          /* bytes */
	uint64_t tls_sp_offset;
	uint64_t wls_base;                /* 0: none */
	uint64_t wls_instance_bytes;
	uint64_t wls_instances;

	/* The task being run, and the workgroup of the lane being run. */
	const struct sgpu_task *task;
	uint32_t group_id[3];
	unsigned int core;
	uint64_t group_wls;               /* this workgroup's WLS instance */
	uint64_t core_tls;                /* TLS of lane 0 on this core */

	/* Serialises atomics when several host threads run tasks, or NULL. */
	pthread_mutex_t *atomics_lock;

	/* Direct memory: [0] for reads, [1] for writes. */
	struct sgpu_page_cache pages[2];
	uint64_t pages_generation;
	const uint64_t *mmu_generation;

	/* Cycle model. */
	struct sgpu_pipe_counts counts;
	unsigned int bundles_since_check;
	uint64_t slice_start_ns;          /* 0 until the slice's first poll */
};

/* sgpu_shader_cache.c */
int sgpu_cache_init(struct sgpu_shader_cache *cache);
/* Empties the cache for a new dispatch, keeping its memory when it has
 * the initial size (one that grew starts over small). */
int sgpu_cache_clear(struct sgpu_shader_cache *cache);
void sgpu_cache_fini(struct sgpu_shader_cache *cache);
/*
 * The bundle at va, which must carry tag: fetched through the MMU and
 * decoded on first use. Returns 0 or the exception code.
 */
uint32_t sgpu_cache_lookup(struct sgpu_exec *ex, uint64_t va, unsigned int tag,
			   const struct sgpu_cached_bundle **out);

/* Points ex's workgroup (group id, WLS instance) at lane's. */
static inline void sgpu_exec_enter_lane(struct sgpu_exec *ex,
					unsigned int lane)
{
	const struct sgpu_task *t = ex->task;
	unsigned int g = t->lane_group[lane];

	ex->group_id[0] = t->group_id[g][0];
	ex->group_id[1] = t->group_id[g][1];
	ex->group_id[2] = t->group_id[g][2];
	ex->group_wls = t->group_wls[g];
}

/* The cycle model's counts of bundle cb run by n threads. */
static inline void sgpu_count_bundle(struct sgpu_exec *ex,
				     const struct sgpu_cached_bundle *cb,
				     uint64_t n)
{
	uint64_t instructions = (uint64_t)cb->instructions * n;

	switch (mdg_tag_kind(cb->b.tag)) {
	case MDG_KIND_ALU:
		ex->counts.alu_bundles += n;
		ex->counts.alu_instructions += instructions;
		break;
	case MDG_KIND_LDST:
		ex->counts.ldst_bundles += n;
		ex->counts.ldst_instructions += instructions;
		break;
	case MDG_KIND_TEXTURE:
		ex->counts.tex_bundles += n;
		ex->counts.tex_instructions += instructions;
		ex->counts.tex_cycles += n;
		break;
	default:
		break;
	}
}

/* sgpu_branch.c: control flow, the same for both engines. */
/* 0, or INSTR_INVALID_ENC for a branch compute shaders cannot use. */
uint32_t sgpu_branch_check(struct sgpu_exec *ex,
			   const struct sgpu_cached_bundle *cb);
bool sgpu_branch_taken(const struct mdg_branch *br, uint32_t r31w,
		       uint32_t r31x);
/*
 * 0, or the fault of a texture bundle that may not run: a barrier the
 * shader did not declare, or a barrier or texture op under the wrong tag.
 */
uint32_t sgpu_texture_check(struct sgpu_exec *ex,
			    const struct sgpu_cached_bundle *cb);

/*
 * sgpu_tex_word.c: texture bundle cb (not the barrier) for one thread whose
 * r28 and r29 are tex[0] and tex[1]; 0 or the exception code.
 */
uint32_t sgpu_tex_word_run(struct sgpu_exec *ex,
			   const struct sgpu_cached_bundle *cb,
			   union sgpu_reg tex[2]);

/* sgpu_thread.c, the reference engine: one thread at a time. */
/* Runs th until it ends, waits at a barrier or faults. */
uint32_t sgpu_thread_run(struct sgpu_exec *ex, struct sgpu_thread *th);
/* Runs a task's threads until all have ended, meeting at barriers. */
uint32_t sgpu_threads_run_task(struct sgpu_exec *ex,
			       struct sgpu_thread *threads, uint32_t lanes);

/* sgpu_shader_mem.c: the shader's loads and stores of global memory. */
uint32_t sgpu_mem_access_slow(struct sgpu_exec *ex, uint64_t va, void *buf,
			      const void *src, size_t len);
/*
 * The page pointer for va, translating and caching it if needed; NULL
 * (with nothing reported) when it cannot be had: the caller then takes
 * the path that reports why.
 */
uint8_t *sgpu_mem_page_fill(struct sgpu_exec *ex, uint64_t va, bool write);

/* The page pointer for va if cached and current, else NULL. */
static inline uint8_t *sgpu_mem_page(struct sgpu_exec *ex, uint64_t va,
				     bool write)
{
	const struct sgpu_page_cache *c = &ex->pages[write];
	uint64_t tag = (va >> 12) + 1;
	unsigned int i = sgpu_page_slot(tag);

	if (c->tag[i] != tag ||
	    __atomic_load_n(ex->mmu_generation, __ATOMIC_ACQUIRE) !=
	    ex->pages_generation)
		return NULL;
	return c->page[i];
}

/* Reads len bytes at va: 0 or the exception code (as sgpu_shader_read). */
static inline uint32_t sgpu_mem_read(struct sgpu_exec *ex, uint64_t va,
				     void *buf, size_t len)
{
	uint8_t *page;

	if ((va & 0xFFF) + len <= 0x1000 && (page = sgpu_mem_page(ex, va, 0))) {
		memcpy(buf, page + (va & 0xFFF), len);
		return 0;
	}
	return sgpu_mem_access_slow(ex, va, buf, NULL, len);
}

static inline uint32_t sgpu_mem_write(struct sgpu_exec *ex, uint64_t va,
				      const void *src, size_t len)
{
	uint8_t *page;

	if ((va & 0xFFF) + len <= 0x1000 && (page = sgpu_mem_page(ex, va, 1))) {
		memcpy(page + (va & 0xFFF), src, len);
		return 0;
	}
	return sgpu_mem_access_slow(ex, va, NULL, src, len);
}

/*
 * sgpu_image.c: image op (LD_IMAGE_*, ST_IMAGE_*, LEA_IMAGE) on attribute
 * attr at texel coord for one thread: stores take data (four channels,
 * 32- or 16-bit by the op), loads and LEA fill *result. 0 or the
 * exception code.
 */
uint32_t sgpu_image_op(struct sgpu_exec *ex, uint8_t op, uint32_t attr,
		       const uint32_t coord[3], const union sgpu_reg *data,
		       union sgpu_reg *result);

/* sgpu_ldst.c: one load/store bundle (both words) for th. */
uint32_t sgpu_ldst_execute(struct sgpu_exec *ex, struct sgpu_thread *th,
			   const struct mdg_bundle *b);

#endif
