/* SPDX-License-Identifier: MIT */
/*
 * The model's core: creation, reset, the register window dispatch, interrupt
 * lines and the small services (logging, clocks) the blocks share.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgpu_internal.h"

void sgpu_guest_error(struct sgpu *gpu, const char *fmt, ...)
{
	va_list ap;

	gpu->stats.guest_errors++;
	if (!gpu->host.guest_error)
		return;
	va_start(ap, fmt);
	gpu->host.guest_error(gpu->host.opaque, fmt, ap);
	va_end(ap);
}

void sgpu_trace(struct sgpu *gpu, const char *event, const char *fmt, ...)
{
	va_list ap;

	if (!gpu->host.trace)
		return;
	va_start(ap, fmt);
	gpu->host.trace(gpu->host.opaque, event, fmt, ap);
	va_end(ap);
}

bool sgpu_tracing(struct sgpu *gpu, const char *event)
{
	return gpu->host.trace && gpu->host.tracing &&
	       gpu->host.tracing(gpu->host.opaque, event);
}

uint64_t sgpu_now_ns(struct sgpu *gpu)
{
	return gpu->host.now_ns(gpu->host.opaque);
}

/*
 * The system timestamp: the SoC's system counter, i.e. the host's system
 * time counted at timestamp_hz. floor(ns * hz / 10^9) is computed in two
 * parts so that no intermediate overflows (hz <= 10^9).
 */
uint64_t sgpu_timestamp(struct sgpu *gpu)
{
	const uint64_t ns_per_s = 1000000000ull;
	uint64_t hz = gpu->config.timestamp_hz;
	uint64_t ns = gpu->host.system_time_ns ?
		gpu->host.system_time_ns(gpu->host.opaque) : sgpu_now_ns(gpu);

	return ns / ns_per_s * hz + ns % ns_per_s * hz / ns_per_s;
}

/*
 * The cycle counter runs freely from the last reset at the nominal clock;
 * CYCLE_COUNT_START/STOP only flip GPU_STATUS.CYCLE_COUNT_ACTIVE (kbase
 * waits for that bit). A host clock that went backwards reads as 0.
 */
uint64_t sgpu_cycles_locked(struct sgpu *gpu)
{
	uint64_t now = sgpu_now_ns(gpu);

	return now > gpu->reset_ns ? sgpu_ns_to_cycles(now - gpu->reset_ns) : 0;
}

/* Level of each line = (RAWSTAT & MASK) != 0; the host hears only changes. */
void sgpu_update_irqs_locked(struct sgpu *gpu)
{
	bool level[SGPU_IRQ_COUNT];

	level[SGPU_IRQ_JOB] = (gpu->job_rawstat & gpu->job_mask) != 0;
	level[SGPU_IRQ_MMU] = (gpu->mmu_rawstat & gpu->mmu_mask) != 0;
	level[SGPU_IRQ_GPU] = (gpu->gpu_rawstat & gpu->gpu_mask) != 0;
	for (int i = 0; i < SGPU_IRQ_COUNT; i++) {
		if (level[i] == gpu->irq_level[i])
			continue;
		gpu->irq_level[i] = level[i];
		gpu->host.set_irq(gpu->host.opaque, (enum sgpu_irq_line)i,
				  level[i]);
	}
}

/*
 * Returns every block to its reset state. Running chains are abandoned
 * without an interrupt (their slot epoch changes, so a shader core still
 * working on one discards its result). A GPU_CMD reset leaves
 * RESET_COMPLETED in GPU_INT_RAWSTAT; a power-on reset leaves it clear.
 */
void sgpu_reset_locked(struct sgpu *gpu, bool power_on)
{
	sgpu_job_reset(gpu);
	sgpu_mmu_reset(gpu);
	sgpu_gpu_control_reset(gpu);
	sgpu_perfcnt_reset(gpu);
	if (!power_on)
		gpu->gpu_rawstat |= GPU_IRQ_RESET_COMPLETED;
	sgpu_update_irqs_locked(gpu);
	pthread_cond_broadcast(&gpu->cond);
	sgpu_trace(gpu, "sgpu_reset", "%s", power_on ? "power-on" : "command");
}

static void set_err(char *err, size_t err_size, const char *msg)
{
	if (err && err_size)
		snprintf(err, err_size, "%s", msg);
}

struct sgpu *sgpu_create(const struct sgpu_config *config,
			 const struct sgpu_host *host, char *err,
			 size_t err_size)
{
	const struct sgpu_product_info *info;
	struct sgpu *gpu;
	unsigned int cores;
	pthread_condattr_t cattr;
	long online;

	if (!config || !host) {
		set_err(err, err_size, "no configuration or host");
		return NULL;
	}
	if (!host->mem_read || !host->mem_write || !host->set_irq ||
	    !host->now_ns || !host->kick) {
		set_err(err, err_size,
			"host must provide mem_read, mem_write, set_irq, now_ns and kick");
		return NULL;
	}
	if ((unsigned int)config->product >= SGPU_PRODUCT_COUNT) {
		set_err(err, err_size, "unknown product");
		return NULL;
	}
	if (config->timestamp_hz > SGPU_MAX_TIMESTAMP_HZ) {
		if (err && err_size)
			snprintf(err, err_size,
				 "timestamp frequency %u Hz is above %u Hz",
				 config->timestamp_hz, SGPU_MAX_TIMESTAMP_HZ);
		return NULL;
	}
	info = sgpu_product_info(config->product);
	/* 0 selects the product's usual core count. */
	cores = config->shader_cores ? config->shader_cores : info->default_cores;
	if (cores > info->max_cores || cores > SGPU_MAX_CORES) {
		if (err && err_size)
			snprintf(err, err_size,
				 "%s supports 1..%u shader cores, not %u",
				 info->name, info->max_cores, cores);
		return NULL;
	}

	gpu = calloc(1, sizeof(*gpu));
	if (!gpu) {
		set_err(err, err_size, "out of memory");
		return NULL;
	}
	gpu->config = *config;
	/* Read once: sysconf() reads sysfs, too slow for every dispatch. */
	online = sysconf(_SC_NPROCESSORS_ONLN);
	gpu->host_cpus = online > 0 ? (unsigned int)online : 1;
	gpu->config.shader_cores = cores;
	if (!gpu->config.timestamp_hz)
		gpu->config.timestamp_hz = SGPU_DEFAULT_TIMESTAMP_HZ;
	gpu->host = *host;
	gpu->product = info;
	gpu->shader_present = (1ull << cores) - 1;
	gpu->l2_present = sgpu_product_l2_present(info, cores);
	gpu->mem_features = sgpu_product_mem_features(info, gpu->l2_present);

	pthread_mutex_init(&gpu->lock, NULL);
	pthread_mutex_init(&gpu->run_lock, NULL);
	/* Waits are timed on the monotonic clock, like the budget. */
	pthread_condattr_init(&cattr);
	pthread_condattr_setclock(&cattr, CLOCK_MONOTONIC);
	pthread_cond_init(&gpu->cond, &cattr);
	pthread_condattr_destroy(&cattr);

	pthread_mutex_lock(&gpu->lock);
	sgpu_reset_locked(gpu, true);
	pthread_mutex_unlock(&gpu->lock);
	return gpu;
}

void sgpu_destroy(struct sgpu *gpu)
{
	if (!gpu)
		return;
	sgpu_job_compute_fini(gpu);
	pthread_cond_destroy(&gpu->cond);
	pthread_mutex_destroy(&gpu->run_lock);
	pthread_mutex_destroy(&gpu->lock);
	free(gpu);
}

void sgpu_reset(struct sgpu *gpu)
{
	pthread_mutex_lock(&gpu->lock);
	sgpu_reset_locked(gpu, true);
	pthread_mutex_unlock(&gpu->lock);
}

static bool offset_ok(struct sgpu *gpu, uint32_t offset, const char *what)
{
	if (offset < SGPU_MMIO_SIZE && (offset & 3) == 0)
		return true;
	sgpu_guest_error(gpu, "sgpu: %s at bad offset 0x%x (32-bit aligned "
			 "accesses below 0x%x only)", what, offset,
			 SGPU_MMIO_SIZE);
	return false;
}

uint32_t sgpu_mmio_read(struct sgpu *gpu, uint32_t offset)
{
	uint32_t value = 0;

	pthread_mutex_lock(&gpu->lock);
	if (offset_ok(gpu, offset, "read")) {
		if (offset < 0x1000)
			value = sgpu_gpu_control_read(gpu, offset);
		else if (offset < 0x2000)
			value = sgpu_job_read(gpu, offset);
		else if (offset < 0x3000)
			value = sgpu_mmu_read(gpu, offset);
	}
	pthread_mutex_unlock(&gpu->lock);
	return value;
}

void sgpu_mmio_write(struct sgpu *gpu, uint32_t offset, uint32_t value)
{
	pthread_mutex_lock(&gpu->lock);
	if (offset_ok(gpu, offset, "write")) {
		if (offset < 0x1000)
			sgpu_gpu_control_write(gpu, offset, value);
		else if (offset < 0x2000)
			sgpu_job_write(gpu, offset, value);
		else if (offset < 0x3000)
			sgpu_mmu_write(gpu, offset, value);
		else
			sgpu_guest_error(gpu, "sgpu: write 0x%x to unimplemented "
					 "register 0x%x", value, offset);
		sgpu_update_irqs_locked(gpu);
	}
	pthread_mutex_unlock(&gpu->lock);
}

bool sgpu_run(struct sgpu *gpu, uint64_t budget_ns)
{
	bool more;

	pthread_mutex_lock(&gpu->run_lock);
	pthread_mutex_lock(&gpu->lock);
	more = sgpu_job_run(gpu, budget_ns);
	pthread_mutex_unlock(&gpu->lock);
	pthread_mutex_unlock(&gpu->run_lock);
	if (more)
		gpu->host.kick(gpu->host.opaque);
	return more;
}

bool sgpu_irq_level(struct sgpu *gpu, enum sgpu_irq_line line)
{
	bool level = false;

	pthread_mutex_lock(&gpu->lock);
	if ((unsigned int)line < SGPU_IRQ_COUNT)
		level = gpu->irq_level[line];
	pthread_mutex_unlock(&gpu->lock);
	return level;
}

void sgpu_get_stats(struct sgpu *gpu, struct sgpu_stats *stats)
{
	pthread_mutex_lock(&gpu->lock);
	*stats = gpu->stats;
	stats->gpu_active_cycles = sgpu_ns_to_cycles(gpu->stats_active_ns);
	if (gpu->active_slots) {
		uint64_t now = sgpu_now_ns(gpu);

		if (now > gpu->perf.busy_since_ns)
			stats->gpu_active_cycles += sgpu_ns_to_cycles(
				now - gpu->perf.busy_since_ns);
	}
	pthread_mutex_unlock(&gpu->lock);
}
