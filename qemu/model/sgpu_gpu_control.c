/* SPDX-License-Identifier: MIT */
/*
 * GPU control block (0x0000-0x0FFF): identification and feature registers,
 * the GPU interrupt, GPU_CMD, power domains and the configuration registers
 * the driver's quirks write.
 *
 * Commands that take time on hardware (resets, power transitions, cache
 * cleans) complete inside the register write: panfrost polls for all of
 * them, and only job chains must not finish inside an MMIO access.
 */
#include "sgpu_internal.h"

enum { PWR_SHADER, PWR_TILER, PWR_L2 };

static uint64_t present_mask(struct sgpu *gpu, unsigned int domain)
{
	/* One tiler; an L2 per core group (see sgpu_products.c). */
	if (domain == PWR_SHADER)
		return gpu->shader_present;
	return domain == PWR_L2 ? gpu->l2_present : 1;
}

void sgpu_gpu_control_reset(struct sgpu *gpu)
{
	gpu->gpu_rawstat = 0;
	gpu->gpu_mask = 0;
	gpu->gpu_fault_status = 0;
	gpu->gpu_fault_address = 0;
	for (int i = 0; i < 3; i++)
		gpu->ready[i] = 0;
	gpu->pwr_override0 = 0;
	gpu->pwr_override1 = 0;
	gpu->jm_config = 0;
	gpu->shader_config = 0;
	gpu->tiler_config = 0;
	gpu->l2_mmu_config = 0;
	gpu->cycle_count_active = false;
	gpu->reset_ns = sgpu_now_ns(gpu);
}

static uint32_t gpu_status(struct sgpu *gpu)
{
	uint32_t status = 0;

	if (gpu->active_slots)
		status |= GPU_STATUS_GPU_ACTIVE | GPU_STATUS_JOB_ACTIVE;
	if (gpu->cycle_count_active)
		status |= GPU_STATUS_CYCLE_COUNT_ACTIVE;
	/* Perf-counter samples finish instantly, so PRFCNT_ACTIVE stays 0. */
	return status;
}

static uint32_t lo(uint64_t v)
{
	return (uint32_t)v;
}

static uint32_t hi(uint64_t v)
{
	return (uint32_t)(v >> 32);
}

uint32_t sgpu_gpu_control_read(struct sgpu *gpu, uint32_t offset)
{
	const struct sgpu_product_info *info = gpu->product;
	uint32_t value;

	if (sgpu_perfcnt_read(gpu, offset, &value))
		return value;

	if (offset >= GPU_READY_BASE && offset < GPU_PWRACTIVE_BASE + 0x30) {
		unsigned int group = (offset - GPU_READY_BASE) / 0x40;
		unsigned int domain = (offset >> 4) & 3;
		bool high = offset & 4;

		if ((offset & 8) || domain > PWR_L2)
			return 0;
		/* READY, PWRON, PWROFF, PWRTRANS, PWRACTIVE in that order. */
		switch (group) {
		case 0:
			return high ? hi(gpu->ready[domain]) : lo(gpu->ready[domain]);
		default:
			/* Write-only triggers, transitions (instant) and the
			 * per-core activity read 0. */
			return 0;
		}
	}

	switch (offset) {
	case GPU_ID:
		return (uint32_t)info->product_id << 16 | gpu->config.revision;
	case GPU_L2_FEATURES:
		return info->l2_features;
	case GPU_CORE_FEATURES:
		return info->core_features;
	case GPU_TILER_FEATURES:
		return info->tiler_features;
	case GPU_MEM_FEATURES:
		return gpu->mem_features;
	case GPU_MMU_FEATURES:
		return info->mmu_features;
	case GPU_AS_PRESENT:
		return (1u << SGPU_NUM_AS) - 1;
	case GPU_JS_PRESENT:
		return (1u << SGPU_NUM_SLOTS) - 1;
	case GPU_INT_RAWSTAT:
		return gpu->gpu_rawstat;
	case GPU_INT_MASK:
		return gpu->gpu_mask;
	case GPU_INT_STAT:
		return gpu->gpu_rawstat & gpu->gpu_mask;
	case GPU_STATUS:
		return gpu_status(gpu);
	case GPU_LATEST_FLUSH_ID:
		/* No flush reduction on Midgard: a constant id is honest. */
		return 0;
	case GPU_FAULT_STATUS:
		return gpu->gpu_fault_status;
	case GPU_FAULT_ADDRESS_LO:
		return lo(gpu->gpu_fault_address);
	case GPU_FAULT_ADDRESS_HI:
		return hi(gpu->gpu_fault_address);
	case GPU_AFBC_FEATURES:
		/* Absent on Midgard; Mesa wants 0 to allow AFBC on v5. */
		return 0;
	case GPU_PWR_OVERRIDE0:
		return gpu->pwr_override0;
	case GPU_PWR_OVERRIDE1:
		return gpu->pwr_override1;
	case GPU_CYCLE_COUNT_LO:
		return lo(sgpu_cycles_locked(gpu));
	case GPU_CYCLE_COUNT_HI:
		return hi(sgpu_cycles_locked(gpu));
	case GPU_TIMESTAMP_LO:
		/*
		 * The SoC's system counter, as the CPUs' CNTVCT reads it.
		 * Each half is sampled on its own, as on hardware: drivers
		 * read HI, LO, HI and retry when HI moved.
		 */
		return lo(sgpu_timestamp(gpu));
	case GPU_TIMESTAMP_HI:
		return hi(sgpu_timestamp(gpu));
	/*
	 * Thread limits: 256 threads per core, 256-thread workgroups and
	 * barriers are Midgard's published limits (and what Mesa assumes).
	 */
	case GPU_THREAD_MAX_THREADS:
		return 256;
	case GPU_THREAD_MAX_WORKGROUP_SIZE:
		return 256;
	case GPU_THREAD_MAX_BARRIER_SIZE:
		return 256;
	case GPU_THREAD_FEATURES:
		return info->thread_features;
	case GPU_TEXTURE_FEATURES(0):
	case GPU_TEXTURE_FEATURES(1):
	case GPU_TEXTURE_FEATURES(2):
	case GPU_TEXTURE_FEATURES(3):
		return info->texture_features[(offset - GPU_TEXTURE_FEATURES(0)) / 4];
	case GPU_JS_FEATURES(0):
	case GPU_JS_FEATURES(1):
	case GPU_JS_FEATURES(2):
		return info->js_features[(offset - GPU_JS_FEATURES(0)) / 4];
	case GPU_SHADER_PRESENT_LO:
		return lo(gpu->shader_present);
	case GPU_SHADER_PRESENT_HI:
		return hi(gpu->shader_present);
	case GPU_TILER_PRESENT_LO:
		return 1;
	case GPU_L2_PRESENT_LO:
		return lo(gpu->l2_present);
	case GPU_L2_PRESENT_HI:
		return hi(gpu->l2_present);
	case GPU_COHERENCY_FEATURES:
		return info->coherency_features;
	case GPU_THREAD_TLS_ALLOC:
		/*
		 * Not implemented on Midgard (reads 0); Mesa then sizes
		 * thread-local storage for 256 threads per core.
		 */
		return 0;
	case GPU_STACK_PRESENT_LO:
	case GPU_STACK_PRESENT_HI:
		/* Core stacks are a later (Bifrost) concept. */
		return 0;
	case GPU_JM_CONFIG:
		return gpu->jm_config;
	case GPU_SHADER_CONFIG:
		return gpu->shader_config;
	case GPU_TILER_CONFIG:
		return gpu->tiler_config;
	case GPU_L2_MMU_CONFIG:
		return gpu->l2_mmu_config;
	default:
		return 0;
	}
}

static void power_write(struct sgpu *gpu, uint32_t offset, uint32_t value)
{
	unsigned int domain = (offset >> 4) & 3;
	bool on = offset < GPU_PWROFF_BASE;
	uint64_t bits, present = present_mask(gpu, domain);

	if (domain > PWR_L2 || (offset & 8))
		return;
	bits = (offset & 4) ? (uint64_t)value << 32 : value;
	if (bits & ~present)
		sgpu_guest_error(gpu, "sgpu: power %s of absent cores 0x%llx",
				 on ? "on" : "off",
				 (unsigned long long)(bits & ~present));
	bits &= present;
	if (on)
		gpu->ready[domain] |= bits;
	else
		gpu->ready[domain] &= ~bits;
	/* Every transition is already over: PWRTRANS reads 0 throughout. */
	gpu->gpu_rawstat |= GPU_IRQ_POWER_CHANGED | GPU_IRQ_POWER_CHANGED_ALL;
}

static void gpu_command(struct sgpu *gpu, uint32_t cmd)
{
	switch (cmd) {
	case GPU_CMD_NOP:
		break;
	case GPU_CMD_SOFT_RESET:
	case GPU_CMD_HARD_RESET:
		sgpu_reset_locked(gpu, false);
		break;
	case GPU_CMD_PERFCNT_CLEAR:
		sgpu_perfcnt_clear(gpu);
		break;
	case GPU_CMD_PERFCNT_SAMPLE:
		sgpu_perfcnt_sample(gpu);
		break;
	case GPU_CMD_CYCLE_COUNT_START:
		gpu->cycle_count_active = true;
		break;
	case GPU_CMD_CYCLE_COUNT_STOP:
		gpu->cycle_count_active = false;
		break;
	case GPU_CMD_CLEAN_CACHES:
	case GPU_CMD_CLEAN_INV_CACHES:
		/* The model has no caches: every write is already in RAM. */
		gpu->gpu_rawstat |= GPU_IRQ_CLEAN_CACHES_COMPLETED;
		break;
	default:
		sgpu_guest_error(gpu, "sgpu: unknown GPU_CMD 0x%x", cmd);
		break;
	}
}

void sgpu_gpu_control_write(struct sgpu *gpu, uint32_t offset, uint32_t value)
{
	if (sgpu_perfcnt_write(gpu, offset, value))
		return;

	if (offset >= GPU_PWRON_BASE && offset < GPU_PWRTRANS_BASE) {
		power_write(gpu, offset, value);
		return;
	}

	switch (offset) {
	case GPU_INT_CLEAR:
		gpu->gpu_rawstat &= ~value;
		return;
	case GPU_INT_MASK:
		gpu->gpu_mask = value & GPU_IRQ_ALL;
		return;
	case GPU_CMD:
		gpu_command(gpu, value);
		return;
	case GPU_PWR_KEY:
		/* The unlock key only matters to the override registers. */
		return;
	case GPU_PWR_OVERRIDE0:
		gpu->pwr_override0 = value;
		return;
	case GPU_PWR_OVERRIDE1:
		gpu->pwr_override1 = value;
		return;
	case GPU_JM_CONFIG:
		gpu->jm_config = value;
		return;
	case GPU_SHADER_CONFIG:
		gpu->shader_config = value;
		return;
	case GPU_TILER_CONFIG:
		gpu->tiler_config = value;
		return;
	case GPU_L2_MMU_CONFIG:
		gpu->l2_mmu_config = value;
		return;
	default:
		sgpu_guest_error(gpu, "sgpu: write 0x%x to read-only or "
				 "unimplemented GPU register 0x%03x",
				 value, offset);
		return;
	}
}
