/* SPDX-License-Identifier: MIT */
/*
 * Hardware performance counters: the PERFCNT_* registers, GPU_CMD
 * PERFCNT_CLEAR/SAMPLE, and the counter dump written to PERFCNT_BASE.
 *
 * Dump layout, as panfrost_perfcnt.c sizes it: blocks of 64 32-bit
 * counters (256 bytes).
 *  - V5 (T760, T8xx): JM, tiler, one block per L2 slice (MEM_FEATURES
 *    [11:8] + 1, here 1), then one block per shader core up to the highest
 *    set bit of SHADER_PRESENT.
 *  - V4 (T60x, T62x, T720): 8 blocks per core group (popcount of
 *    L2_PRESENT, as panfrost sizes the buffer): the group's shader cores
 *    0-3, tiler, MMU/L2, an unused block, JM. This order is kbase's V4
 *    layout as far as it can be told (external, not in the panfrost
 *    sources); panfrost itself only copies the buffer out. There is one
 *    tiler and one job manager, so only the first group's tiler and JM
 *    blocks are filled (inferred); every group has its own L2 block.
 * Within a block, counters 0-3 are a header: 0/1 the sample timestamp
 * (low/high: the system timestamp, as GPU_TIMESTAMP reads it), 2 the
 * block's enable mask, 3 reserved. Each bit i of a *_EN register enables
 * counters 4i..4i+3; disabled counters read 0.
 * Counters filled (indices from kbase's T86x names, external):
 *  JM: 6 GPU_ACTIVE, 8+8j JSj_JOBS, 10+8j JSj_ACTIVE (cycles);
 *  shader core: 22 COMPUTE_ACTIVE and 26 TRIPIPE_ACTIVE (the cycle model's
 *  busy cycles of that core), 23 COMPUTE_TASKS (workgroups), 24
 *  COMPUTE_THREADS, 27 ARITH_WORDS, 31 LS_WORDS, 38 TEX_WORDS (bundles
 *  issued on each pipe). The indices after 26 follow kbase's T6xx list
 *  as far as it can be told from outside; qemu/README.md says so.
 * Counters are cumulative since PERFCNT_CLEAR (or reset) and wrap at 2^32.
 */
#include <string.h>

#include "sgpu_internal.h"

#define COUNTERS_PER_BLOCK 64
#define BLOCK_BYTES (COUNTERS_PER_BLOCK * 4)
/* V5's most (JM, tiler, L2, 16 cores); V4's 8 per group take fewer. */
#define MAX_BLOCKS (2 + 1 + SGPU_MAX_CORES)

enum { EN_JM, EN_SHADER, EN_TILER, EN_MMU_L2 };

void sgpu_perfcnt_reset(struct sgpu *gpu)
{
	gpu->perfcnt_base = 0;
	gpu->perfcnt_config = 0;
	memset(gpu->prfcnt_en, 0, sizeof(gpu->prfcnt_en));
	sgpu_perfcnt_clear(gpu);
}

void sgpu_perfcnt_clear(struct sgpu *gpu)
{
	uint64_t now = sgpu_now_ns(gpu);

	memset(&gpu->perf, 0, sizeof(gpu->perf));
	/* Busy time counts from now for slots that are still running. */
	gpu->perf.busy_since_ns = now;
	for (int js = 0; js < SGPU_NUM_SLOTS; js++) {
		if (gpu->slot[js].active)
			gpu->slot[js].started_ns = now;
	}
}

void sgpu_perfcnt_slot_started(struct sgpu *gpu, unsigned int js)
{
	if (gpu->active_slots++ == 0)
		gpu->perf.busy_since_ns = sgpu_now_ns(gpu);
	gpu->slot[js].started_ns = sgpu_now_ns(gpu);
}

static uint64_t since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

void sgpu_perfcnt_slot_stopped(struct sgpu *gpu, unsigned int js)
{
	uint64_t now = sgpu_now_ns(gpu);

	gpu->perf.js_active_ns[js] += since(now, gpu->slot[js].started_ns);
	if (gpu->active_slots && --gpu->active_slots == 0) {
		uint64_t busy = since(now, gpu->perf.busy_since_ns);

		gpu->perf.gpu_active_ns += busy;
		gpu->stats_active_ns += busy;
	}
}

bool sgpu_perfcnt_read(struct sgpu *gpu, uint32_t offset, uint32_t *value)
{
	switch (offset) {
	case GPU_PERFCNT_BASE_LO:
		*value = (uint32_t)gpu->perfcnt_base;
		return true;
	case GPU_PERFCNT_BASE_HI:
		*value = (uint32_t)(gpu->perfcnt_base >> 32);
		return true;
	case GPU_PERFCNT_CONFIG:
		*value = gpu->perfcnt_config;
		return true;
	case GPU_PRFCNT_JM_EN:
		*value = gpu->prfcnt_en[EN_JM];
		return true;
	case GPU_PRFCNT_SHADER_EN:
		*value = gpu->prfcnt_en[EN_SHADER];
		return true;
	case GPU_PRFCNT_TILER_EN:
		*value = gpu->prfcnt_en[EN_TILER];
		return true;
	case GPU_PRFCNT_MMU_L2_EN:
		*value = gpu->prfcnt_en[EN_MMU_L2];
		return true;
	default:
		return false;
	}
}

bool sgpu_perfcnt_write(struct sgpu *gpu, uint32_t offset, uint32_t value)
{
	switch (offset) {
	case GPU_PERFCNT_BASE_LO:
	case GPU_PERFCNT_BASE_HI:
		sgpu_set_half(&gpu->perfcnt_base, offset == GPU_PERFCNT_BASE_HI,
			      value);
		return true;
	case GPU_PERFCNT_CONFIG:
		gpu->perfcnt_config = value;
		return true;
	case GPU_PRFCNT_JM_EN:
		gpu->prfcnt_en[EN_JM] = value;
		return true;
	case GPU_PRFCNT_SHADER_EN:
		gpu->prfcnt_en[EN_SHADER] = value;
		return true;
	case GPU_PRFCNT_TILER_EN:
		gpu->prfcnt_en[EN_TILER] = value;
		return true;
	case GPU_PRFCNT_MMU_L2_EN:
		gpu->prfcnt_en[EN_MMU_L2] = value;
		return true;
	default:
		return false;
	}
}

static void put_counter(uint8_t *block, uint32_t enable, unsigned int index,
			uint64_t value)
{
	if (enable & (1u << (index / 4)))
		sgpu_put_le32(block + 4 * index, (uint32_t)value);
}

static void put_header(uint8_t *block, uint64_t ts, uint32_t enable)
{
	sgpu_put_le32(block + 0, (uint32_t)ts);
	sgpu_put_le32(block + 4, (uint32_t)(ts >> 32));
	sgpu_put_le32(block + 8, enable);
}

static void fill_jm(struct sgpu *gpu, uint8_t *block, uint64_t now,
		    uint64_t ts)
{
	uint32_t en = gpu->prfcnt_en[EN_JM];
	uint64_t active = gpu->perf.gpu_active_ns;

	if (gpu->active_slots)
		active += since(now, gpu->perf.busy_since_ns);
	put_header(block, ts, en);
	put_counter(block, en, 6, sgpu_ns_to_cycles(active));
	for (unsigned int js = 0; js < SGPU_NUM_SLOTS; js++) {
		uint64_t js_active = gpu->perf.js_active_ns[js];

		if (gpu->slot[js].active)
			js_active += since(now, gpu->slot[js].started_ns);
		put_counter(block, en, 8 + 8 * js, gpu->perf.js_jobs[js]);
		put_counter(block, en, 10 + 8 * js,
			    sgpu_ns_to_cycles(js_active));
	}
}

static void fill_core(struct sgpu *gpu, uint8_t *block, uint64_t ts,
		      unsigned int core)
{
	uint32_t en = gpu->prfcnt_en[EN_SHADER];
	const struct sgpu_core_perf *p = &gpu->perf.core[core];

	if (!(gpu->shader_present & (1ull << core)))
		return; /* holes in SHADER_PRESENT dump as zeros */
	put_header(block, ts, en);
	put_counter(block, en, 22, p->active_cycles);
	put_counter(block, en, 23, p->tasks);
	put_counter(block, en, 24, p->threads);
	put_counter(block, en, 26, p->active_cycles);
	put_counter(block, en, 27, p->arith_words);
	put_counter(block, en, 31, p->ls_words);
	put_counter(block, en, 38, p->tex_words);
}

/* Dumps the counters through the AS in PERFCNT_CONFIG[7:4]. */
void sgpu_perfcnt_sample(struct sgpu *gpu)
{
	uint8_t buf[MAX_BLOCKS * BLOCK_BYTES];
	unsigned int as_nr = (gpu->perfcnt_config >> PERFCNT_CONFIG_AS_SHIFT) &
			     PERFCNT_CONFIG_AS_MASK;
	unsigned int ncores = 64 - (unsigned int)__builtin_clzll(gpu->shader_present);
	uint64_t now = sgpu_now_ns(gpu), ts = sgpu_timestamp(gpu);
	size_t nblocks;
	uint32_t code;

	gpu->stats.perfcnt_samples++;
	if ((gpu->perfcnt_config & PERFCNT_CONFIG_MODE_MASK) ==
	    PERFCNT_CONFIG_MODE_OFF) {
		/* Nothing is counting, so nothing is written. */
		sgpu_guest_error(gpu, "sgpu: PERFCNT_SAMPLE with counters off");
		gpu->gpu_rawstat |= GPU_IRQ_PERFCNT_SAMPLE_COMPLETED;
		return;
	}

	memset(buf, 0, sizeof(buf));
	if (gpu->product->v4) {
		uint64_t groups = gpu->l2_present;

		/* 8 blocks per core group; the group's cores from its L2's
		 * bit up to the next group's. */
		nblocks = 0;
		while (groups) {
			unsigned int first = (unsigned int)__builtin_ctzll(groups);
			uint8_t *group = buf + nblocks * BLOCK_BYTES;

			groups &= groups - 1;
			for (unsigned int i = 0; i < 4 && first + i < ncores; i++) {
				if (groups && first + i >=
				    (unsigned int)__builtin_ctzll(groups))
					break;
				fill_core(gpu, group + i * BLOCK_BYTES, ts,
					  first + i);
			}
			put_header(group + 5 * BLOCK_BYTES, ts,
				   gpu->prfcnt_en[EN_MMU_L2]);
			if (nblocks == 0) {
				/* One tiler and one JM: the first group's. */
				put_header(group + 4 * BLOCK_BYTES, ts,
					   gpu->prfcnt_en[EN_TILER]);
				fill_jm(gpu, group + 7 * BLOCK_BYTES, now, ts);
			}
			nblocks += 8;
		}
	} else {
		unsigned int l2_slices = ((gpu->product->mem_features >> 8) & 0xF) + 1;

		nblocks = 2 + l2_slices + ncores;
		fill_jm(gpu, buf, now, ts);
		put_header(buf + BLOCK_BYTES, ts, gpu->prfcnt_en[EN_TILER]);
		for (unsigned int i = 0; i < l2_slices; i++)
			put_header(buf + (2 + i) * BLOCK_BYTES, ts,
				   gpu->prfcnt_en[EN_MMU_L2]);
		for (unsigned int core = 0; core < ncores; core++)
			fill_core(gpu, buf + (2 + l2_slices + core) * BLOCK_BYTES,
				  ts, core);
	}

	code = sgpu_vm_write(gpu, as_nr, gpu->perfcnt_base, buf,
			     nblocks * BLOCK_BYTES);
	if (code)
		/* The MMU has reported the fault; the sample still ends, so
		 * the driver does not wait for a completion that never comes. */
		sgpu_guest_error(gpu, "sgpu: perf counter dump to 0x%llx "
				 "failed (0x%x)",
				 (unsigned long long)gpu->perfcnt_base, code);
	sgpu_trace(gpu, "sgpu_perfcnt_sample", "as=%u va=0x%llx blocks=%zu",
		   as_nr, (unsigned long long)gpu->perfcnt_base, nblocks);
	gpu->gpu_rawstat |= GPU_IRQ_PERFCNT_SAMPLE_COMPLETED;
}
