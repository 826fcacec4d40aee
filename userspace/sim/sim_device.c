/* SPDX-License-Identifier: MIT */
/*
 * The process's GPU: the model core, the threads that stand in for the
 * hardware's clock (a worker that runs the model while it has work) and
 * for the interrupt controller (a thread that runs the handlers while a
 * line is high), and bring-up as sleipnir.ko does it at probe
 * (kernel/sleipnir_device.c, sleipnir_gpu.c): soft reset, feature
 * registers, errata settings, power-up, interrupts.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sgpu_regs.h"
#include "sim_core.h"
#include "sim_thread.h"

/* How long one sgpu_run() may take before the worker looks around. */
#define SIM_RUN_BUDGET_NS 5000000ull
/* Polls of a register that the model updates at once, as the kernel's. */
#define SIM_POLL_TRIES 1000

struct sim_device {
	struct sgpu *gpu;
	struct sim_sched *sched;
	struct sim_features features;

	pthread_mutex_t lock;           /* the fields below */
	pthread_cond_t worker_cond;     /* kicked or stopping */
	pthread_cond_t irq_cond;        /* a line rose or stopping */
	bool kicked;
	bool irq_level[SGPU_IRQ_COUNT];
	bool stopping;
	pthread_t worker, irq_thread;
	bool threads_started;
};

static pthread_mutex_t device_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_device *the_device;

struct sgpu *sim_device_gpu(struct sim_device *dev)
{
	return dev->gpu;
}

struct sim_sched *sim_device_sched(struct sim_device *dev)
{
	return dev->sched;
}

const struct sim_features *sim_device_features(struct sim_device *dev)
{
	return &dev->features;
}

uint64_t sim_va_end(struct sim_device *dev)
{
	return sleipnir_features_va_end(&dev->features.hw);
}

uint32_t sim_reg_read(struct sim_device *dev, uint32_t offset)
{
	return sgpu_mmio_read(dev->gpu, offset);
}

void sim_reg_write(struct sim_device *dev, uint32_t offset, uint32_t value)
{
	sgpu_mmio_write(dev->gpu, offset, value);
}

uint64_t sim_reg_read64(struct sim_device *dev, uint32_t offset_lo)
{
	return sim_reg_read(dev, offset_lo) |
	       (uint64_t)sim_reg_read(dev, offset_lo + 4) << 32;
}

/* --- host callbacks (called with the model's lock held) ------------------- */

static void host_set_irq(void *opaque, enum sgpu_irq_line line, bool level)
{
	struct sim_device *dev = opaque;

	pthread_mutex_lock(&dev->lock);
	dev->irq_level[line] = level;
	if (level)
		pthread_cond_signal(&dev->irq_cond);
	pthread_mutex_unlock(&dev->lock);
}

static uint64_t host_now_ns(void *opaque)
{
	struct timespec ts;

	(void)opaque;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void host_kick(void *opaque)
{
	struct sim_device *dev = opaque;

	pthread_mutex_lock(&dev->lock);
	dev->kicked = true;
	pthread_cond_signal(&dev->worker_cond);
	pthread_mutex_unlock(&dev->lock);
}

static bool debug_enabled(void)
{
	const char *v = getenv("SLEIPNIR_SIM_DEBUG");

	return v && *v && strcmp(v, "0") != 0;
}

static void host_guest_error(void *opaque, const char *fmt, va_list ap)
{
	(void)opaque;
	if (!debug_enabled())
		return;
	fputs("sleipnir-sim: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* --- the threads ------------------------------------------------------------ */

static void *worker_main(void *arg)
{
	struct sim_device *dev = arg;

	pthread_mutex_lock(&dev->lock);
	for (;;) {
		while (!dev->kicked && !dev->stopping)
			pthread_cond_wait(&dev->worker_cond, &dev->lock);
		if (dev->stopping)
			break;
		dev->kicked = false;
		pthread_mutex_unlock(&dev->lock);
		while (sgpu_run(dev->gpu, SIM_RUN_BUDGET_NS))
			;
		pthread_mutex_lock(&dev->lock);
	}
	pthread_mutex_unlock(&dev->lock);
	return NULL;
}

/* The "gpu" interrupt: report faults, acknowledge everything. */
static void gpu_irq(struct sim_device *dev)
{
	uint32_t stat = sim_reg_read(dev, GPU_INT_STAT);

	if (!stat)
		return;
	if (stat & (GPU_IRQ_FAULT | GPU_IRQ_MULTIPLE_FAULT)) {
		uint32_t fault = sim_reg_read(dev, GPU_FAULT_STATUS);

		sim_klog("GPU fault%s: status 0x%08x (exception 0x%02x) at 0x%016llx",
			 stat & GPU_IRQ_MULTIPLE_FAULT ? "s" : "", fault,
			 fault & 0xff,
			 (unsigned long long)sim_reg_read64(dev,
							    GPU_FAULT_ADDRESS_LO));
	}
	sim_reg_write(dev, GPU_INT_CLEAR, stat);
}

static bool any_line_high_locked(struct sim_device *dev)
{
	for (int i = 0; i < SGPU_IRQ_COUNT; i++) {
		if (dev->irq_level[i])
			return true;
	}
	return false;
}

/*
 * While a line is high, run its handler; a handler that leaves its line
 * high (it masked nothing and cleared nothing) is called again after the
 * others had their turn, as a level-triggered interrupt would be.
 */
static void *irq_main(void *arg)
{
	struct sim_device *dev = arg;
	bool level[SGPU_IRQ_COUNT];

	pthread_mutex_lock(&dev->lock);
	for (;;) {
		while (!any_line_high_locked(dev) && !dev->stopping)
			pthread_cond_wait(&dev->irq_cond, &dev->lock);
		if (dev->stopping)
			break;
		memcpy(level, dev->irq_level, sizeof(level));
		pthread_mutex_unlock(&dev->lock);
		if (level[SGPU_IRQ_JOB] && dev->sched)
			sim_sched_job_irq(dev->sched);
		if (level[SGPU_IRQ_MMU] && dev->sched)
			sim_sched_mmu_irq(dev->sched);
		if (level[SGPU_IRQ_GPU])
			gpu_irq(dev);
		/*
		 * host_set_irq() keeps irq_level as the model's lines are
		 * (it is called on every change, in order).
		 */
		pthread_mutex_lock(&dev->lock);
		if (!memcmp(level, dev->irq_level, sizeof(level)) &&
		    any_line_high_locked(dev)) {
			/* Let the thread that will lower it run. */
			pthread_mutex_unlock(&dev->lock);
			sched_yield();
			pthread_mutex_lock(&dev->lock);
		}
	}
	pthread_mutex_unlock(&dev->lock);
	return NULL;
}

/* --- bring-up, as kernel/sleipnir_gpu.c --------------------------------------- */

static bool poll_reg(struct sim_device *dev, uint32_t reg, uint32_t mask,
		     uint32_t want)
{
	for (int i = 0; i < SIM_POLL_TRIES; i++) {
		if ((sim_reg_read(dev, reg) & mask) == want)
			return true;
	}
	return false;
}

static int soft_reset(struct sim_device *dev)
{
	sim_reg_write(dev, GPU_INT_MASK, 0);
	sim_reg_write(dev, GPU_INT_CLEAR, GPU_IRQ_RESET_COMPLETED);
	sim_reg_write(dev, GPU_CMD, GPU_CMD_SOFT_RESET);
	if (!poll_reg(dev, GPU_INT_RAWSTAT, GPU_IRQ_RESET_COMPLETED,
		      GPU_IRQ_RESET_COMPLETED)) {
		sim_klog("soft reset timed out (rawstat 0x%08x)",
			 sim_reg_read(dev, GPU_INT_RAWSTAT));
		return -ETIMEDOUT;
	}
	/* Every source masked and acknowledged. */
	sim_reg_write(dev, GPU_INT_CLEAR, GPU_IRQ_ALL);
	sim_reg_write(dev, JOB_INT_MASK, 0);
	sim_reg_write(dev, JOB_INT_CLEAR, UINT32_MAX);
	sim_reg_write(dev, MMU_INT_MASK, 0);
	sim_reg_write(dev, MMU_INT_CLEAR, UINT32_MAX);
	return 0;
}

/* Register reads for the kernel's sleipnir_features_read(). */
static uint32_t read_reg(void *dev, uint32_t offset)
{
	return sim_reg_read(dev, offset);
}

/* The kernel's sleipnir_gpu_init_features(), with its shared parts. */
static int read_features(struct sim_device *dev)
{
	struct sleipnir_features *f = &dev->features.hw;
	struct sleipnir_param_state *d = &dev->features.derived;
	uint16_t product;

	sleipnir_features_read(f, read_reg, dev);
	product = f->product;
	if (!sleipnir_common_model_name(product)) {
		sim_klog("unsupported GPU (GPU_ID 0x%08x)", f->gpu_id);
		return -ENODEV;
	}
	if (!f->shader_present || !f->l2_present) {
		sim_klog("GPU reports no shader core or no L2 cache");
		return -ENODEV;
	}
	d->core_mask = sleipnir_core_mask(f->l2_present);
	d->js_count = sleipnir_present_count(f->js_present, SLP_JS_COUNT_MAX);
	d->as_count = sleipnir_present_count(f->as_present, SLP_AS_COUNT_MAX);

	sim_klog("Mali-%s (id 0x%x r%up%u), %d shader cores, %d core group(s), %d address spaces, %d job slots",
		 sleipnir_common_model_name(product), product,
		 (f->gpu_id >> 12) & 0xf, (f->gpu_id >> 4) & 0xff,
		 __builtin_popcountll(f->shader_present),
		 __builtin_popcountll(f->l2_present),
		 __builtin_popcount(f->as_present),
		 __builtin_popcount(f->js_present));
	sim_klog("features: L2 0x%08x core 0x%08x tiler 0x%08x mem 0x%08x mmu 0x%08x (VA %u bits, PA %u bits)",
		 f->l2_features, f->core_features, f->tiler_features,
		 f->mem_features, f->mmu_features,
		 sleipnir_va_bits(f->mmu_features),
		 sleipnir_pa_bits(f->mmu_features));
	return 0;
}

/*
 * The errata settings (kernel/sleipnir_gpu.c), from the quirks the shared
 * table (kernel/sleipnir_common.h) gives the product and revision, as the
 * register values kernel/sleipnir_hwcfg.h makes of them.
 */
static void apply_quirks(struct sim_device *dev)
{
	const struct sleipnir_features *f = &dev->features.hw;
	uint32_t q, shader, tiler;

	q = sleipnir_common_model_quirks(f->product, f->revision);
	shader = sleipnir_quirk_shader_config(q);
	if (shader)
		sim_reg_write(dev, GPU_SHADER_CONFIG, shader);
	tiler = sim_reg_read(dev, GPU_TILER_CONFIG);
	sim_reg_write(dev, GPU_TILER_CONFIG,
		      sleipnir_quirk_tiler_config(tiler, q));
	if (q & SLEIPNIR_QUIRK_JM_MAX_THROTTLE)
		sim_reg_write(dev, GPU_JM_CONFIG, SLP_JM_CONFIG_MAX_THROTTLE);
}

static void power_unit(struct sim_device *dev, const char *unit,
		       uint32_t pwron, uint32_t ready, uint32_t mask)
{
	sim_reg_write(dev, pwron, mask);
	if (!poll_reg(dev, ready, mask, mask))
		sim_klog("%s power-up timed out (ready 0x%08x of 0x%08x)", unit,
			 sim_reg_read(dev, ready), mask);
}

static void power_on(struct sim_device *dev)
{
	const struct sleipnir_features *f = &dev->features.hw;
	uint64_t core_mask = dev->features.derived.core_mask;

	apply_quirks(dev);
	power_unit(dev, "L2", GPU_PWRON_BASE + 0x20, GPU_READY_BASE + 0x20,
		   (uint32_t)(f->l2_present & core_mask));
	power_unit(dev, "shader", GPU_PWRON_BASE, GPU_READY_BASE,
		   (uint32_t)(f->shader_present & core_mask));
	power_unit(dev, "tiler", GPU_PWRON_BASE + 0x10, GPU_READY_BASE + 0x10,
		   (uint32_t)f->tiler_present);
}

static void irqs_enable(struct sim_device *dev)
{
	const struct sleipnir_param_state *d = &dev->features.derived;

	sim_reg_write(dev, GPU_INT_CLEAR, GPU_IRQ_ALL);
	sim_reg_write(dev, GPU_INT_MASK, GPU_IRQ_FAULT | GPU_IRQ_MULTIPLE_FAULT);
	sim_reg_write(dev, JOB_INT_CLEAR, UINT32_MAX);
	sim_reg_write(dev, JOB_INT_MASK, sleipnir_unit_irq_mask(d->js_count));
	sim_reg_write(dev, MMU_INT_CLEAR, UINT32_MAX);
	sim_reg_write(dev, MMU_INT_MASK, sleipnir_unit_irq_mask(d->as_count));
}

/* The kernel's sleipnir_device_reset_hw(). */
static int reset_hw(struct sim_device *dev)
{
	int ret = soft_reset(dev);

	if (ret)
		return ret;
	power_on(dev);
	irqs_enable(dev);
	return 0;
}

int sim_device_reset(struct sim_device *dev)
{
	sim_vm_forget_all(dev);
	return reset_hw(dev);
}

/* --- creation ----------------------------------------------------------------- */

static unsigned int env_uint(const char *name, unsigned int dflt)
{
	const char *v = getenv(name);
	char *end;
	unsigned long n;

	if (!v || !*v)
		return dflt;
	n = strtoul(v, &end, 0);
	if (*end || n > 64) {
		fprintf(stderr, "sleipnir-sim: bad %s=%s, using %u\n", name, v,
			dflt);
		return dflt;
	}
	return (unsigned int)n;
}

static void stop_threads(struct sim_device *dev)
{
	if (!dev->threads_started)
		return;
	pthread_mutex_lock(&dev->lock);
	dev->stopping = true;
	pthread_cond_broadcast(&dev->worker_cond);
	pthread_cond_broadcast(&dev->irq_cond);
	pthread_mutex_unlock(&dev->lock);
	pthread_join(dev->worker, NULL);
	pthread_join(dev->irq_thread, NULL);
	dev->threads_started = false;
}

static void device_free(struct sim_device *dev)
{
	stop_threads(dev);
	if (dev->sched)
		sim_sched_destroy(dev->sched);
	if (dev->gpu)
		sgpu_destroy(dev->gpu);
	pthread_cond_destroy(&dev->irq_cond);
	pthread_cond_destroy(&dev->worker_cond);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

static struct sim_device *device_create(int *err)
{
	const char *name = getenv("SLEIPNIR_SIM_GPU");
	struct sgpu_config cfg = {
		.shader_cores = env_uint("SLEIPNIR_SIM_CORES", 4),
		.shader_threads = 0,
	};
	struct sgpu_host host = {
		.mem_read = sim_ram_read,
		.mem_write = sim_ram_write,
		.mem_page = sim_ram_page,
		.set_irq = host_set_irq,
		.now_ns = host_now_ns,
		.kick = host_kick,
		.guest_error = host_guest_error,
	};
	struct sim_device *dev;
	char msg[128];
	int product;

	product = sgpu_product_from_name(name && *name ? name : "t860");
	if (product < 0) {
		fprintf(stderr, "sleipnir-sim: unknown SLEIPNIR_SIM_GPU=%s "
			"(t604 ... t880)\n", name);
		*err = -ENODEV;
		return NULL;
	}
	cfg.product = (enum sgpu_product)product;
	/* What the product's usual board reports, as QEMU's device does. */
	cfg.revision = sgpu_product_revision(cfg.product);

	*err = sim_ram_init();
	if (*err)
		return NULL;
	dev = calloc(1, sizeof(*dev));
	if (!dev) {
		*err = -ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&dev->lock, NULL);
	pthread_cond_init(&dev->worker_cond, NULL);
	pthread_cond_init(&dev->irq_cond, NULL);
	host.opaque = dev;
	dev->gpu = sgpu_create(&cfg, &host, msg, sizeof(msg));
	if (!dev->gpu) {
		fprintf(stderr, "sleipnir-sim: %s\n", msg);
		*err = -ENODEV;
		goto fail;
	}
	dev->features.derived.timestamp_hz = SGPU_DEFAULT_TIMESTAMP_HZ;
	/* The board's GPU node is not dma-coherent (dts/README.md). */
	dev->features.derived.coherent = false;

	/* Probe: reset, identify, then the scheduler and the interrupts. */
	*err = soft_reset(dev);
	if (*err)
		goto fail;
	*err = read_features(dev);
	if (*err)
		goto fail;
	dev->sched = sim_sched_create(dev);
	if (!dev->sched) {
		*err = -ENOMEM;
		goto fail;
	}
	if (sim_thread_create(&dev->worker, worker_main, dev)) {
		*err = -EAGAIN;
		goto fail;
	}
	if (sim_thread_create(&dev->irq_thread, irq_main, dev)) {
		pthread_mutex_lock(&dev->lock);
		dev->stopping = true;
		pthread_cond_broadcast(&dev->worker_cond);
		pthread_mutex_unlock(&dev->lock);
		pthread_join(dev->worker, NULL);
		*err = -EAGAIN;
		goto fail;
	}
	dev->threads_started = true;
	*err = reset_hw(dev);
	if (*err)
		goto fail;
	return dev;

fail:
	device_free(dev);
	return NULL;
}

struct sim_device *sim_device_get(void)
{
	struct sim_device *dev;
	int err = 0;

	pthread_mutex_lock(&device_lock);
	if (!the_device)
		the_device = device_create(&err);
	dev = the_device;
	pthread_mutex_unlock(&device_lock);
	if (!dev)
		errno = -err;
	return dev;
}

/*
 * In a fork() child: the parent's threads do not exist here and its GPU
 * state is the parent's; the child's first open makes a new device. The
 * old one is left as it is (its locks may be held by threads that are
 * gone).
 */
static struct sim_device *parents_device;   /* kept reachable, unused */

void sim_device_forget(void)
{
	pthread_mutex_init(&device_lock, NULL);
	parents_device = the_device;
	the_device = NULL;
}

static void forget_after_fork(void)
{
	sim_device_forget();
	sim_ram_forget();
	sim_vm_forget();
	sim_gem_forget();
}

__attribute__((constructor)) static void sim_device_init(void)
{
	pthread_atfork(NULL, NULL, forget_after_fork);
}
