/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sleipnir GPU: a Mali Midgard (T6xx-T8xx) GPU for QEMU.
 *
 * This file only plugs the model core (qemu/model/, plain C) into QEMU: a
 * sysbus device with one MMIO window, three level interrupts named job, mmu
 * and gpu, DMA through the "dma-mr" memory region, and a worker thread that
 * runs job chains so that no vCPU ever waits for GPU work.
 *
 * Lock order: BQL, then the model's lock. The worker never takes the BQL; it
 * hands interrupt changes to a bottom half instead.
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/rcu.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "exec/address-spaces.h"
#include "hw/core/cpu.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "sleipnir_gpu.h"
#include "trace.h"

/* The "revision" property's default: the product's usual board's. */
#define SLEIPNIR_GPU_PRODUCT_REVISION UINT32_MAX

/* Work done per sgpu_run() call before the worker checks for quit. */
#define WORKER_SLICE_NS (5 * 1000 * 1000)
/* How long the worker waits before polling a slot that is still busy. */
#define WORKER_BUSY_WAIT_MS 1

/*
 * The GPU may master RAM only: a descriptor pointing at another device's
 * registers or at unbacked space is a bus fault, never a device access.
 */
static bool sleipnir_gpu_ram_access(SleipnirGPUState *s, uint64_t pa,
                                    void *buf, size_t len, bool is_write)
{
    uint8_t *p = buf;

    if (pa + len < pa) {
        return false;
    }
    RCU_READ_LOCK_GUARD();
    while (len) {
        hwaddr xlat, l = len;
        MemoryRegion *mr;

        mr = address_space_translate(&s->dma_as, pa, &xlat, &l, is_write,
                                     MEMTXATTRS_UNSPECIFIED);
        if (!memory_region_is_ram(mr) || (is_write && mr->readonly) ||
            memory_region_is_ram_device(mr) || l == 0) {
            return false;
        }
        if (address_space_rw(&s->dma_as, pa, MEMTXATTRS_UNSPECIFIED, p, l,
                             is_write) != MEMTX_OK) {
            return false;
        }
        pa += l;
        p += l;
        len -= l;
    }
    return true;
}

static bool sleipnir_gpu_mem_read(void *opaque, uint64_t pa, void *buf,
                                  size_t len)
{
    return sleipnir_gpu_ram_access(opaque, pa, buf, len, false);
}

static bool sleipnir_gpu_mem_write(void *opaque, uint64_t pa, const void *buf,
                                   size_t len)
{
    return sleipnir_gpu_ram_access(opaque, pa, (void *)buf, len, true);
}

/*
 * A RAM page by pointer, for the shader cores' loads and stores. Mapping
 * it for writing marks it dirty and drops translated code in it, as a DMA
 * write does, once when the pointer is handed out (not on every store):
 * GPU buffers hold no CPU code. Guest RAM is never unmapped while the
 * board runs, so the pointer outlives the RCU section.
 */
static void *sleipnir_gpu_mem_page(void *opaque, uint64_t page_pa, bool write)
{
    SleipnirGPUState *s = opaque;
    hwaddr xlat, l = 4096;
    MemoryRegion *mr;
    void *p;

    RCU_READ_LOCK_GUARD();
    mr = address_space_translate(&s->dma_as, page_pa, &xlat, &l, write,
                                 MEMTXATTRS_UNSPECIFIED);
    if (l < 4096 || !memory_access_is_direct(mr, write) ||
        memory_region_is_ram_device(mr)) {
        return NULL;
    }
    p = address_space_map(&s->dma_as, page_pa, &l, write,
                          MEMTXATTRS_UNSPECIFIED);
    if (!p) {
        return NULL;
    }
    address_space_unmap(&s->dma_as, p, l, write, write ? l : 0);
    return l < 4096 ? NULL : p;
}

/* The model's shader-core threads read guest memory under RCU. */
static void sleipnir_gpu_thread_begin(void *opaque)
{
    rcu_register_thread();
}

static void sleipnir_gpu_thread_end(void *opaque)
{
    rcu_unregister_thread();
}

static void sleipnir_gpu_set_irq(void *opaque, enum sgpu_irq_line line,
                                 bool level)
{
    SleipnirGPUState *s = opaque;

    if (qemu_mutex_iothread_locked()) {
        trace_sleipnir_gpu_irq(line, level);
        qemu_set_irq(s->irq[line], level);
    } else {
        qemu_bh_schedule(s->irq_bh);
    }
}

/* Applies the model's current interrupt levels; runs under the BQL. */
static void sleipnir_gpu_irq_bh(void *opaque)
{
    SleipnirGPUState *s = opaque;

    for (int line = 0; line < SGPU_IRQ_COUNT; line++) {
        bool level = sgpu_irq_level(s->model, line);

        trace_sleipnir_gpu_irq(line, level);
        qemu_set_irq(s->irq[line], level);
    }
}

static uint64_t sleipnir_gpu_now_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/*
 * The SoC's system time: the clock target/arm's generic timer counts for
 * CNTVCT/CNTPCT (ns / (10^9 / cntfrq)). The model counts it at
 * timestamp-frequency, so GPU_TIMESTAMP reads what the CPUs read.
 */
static uint64_t sleipnir_gpu_system_time_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/*
 * The GPU's timestamp equals the CPUs' CNTVCT only if both count the same
 * clock at the same rate, and QEMU's generic timer ticks every whole
 * 10^9 / cntfrq ns. Say so when the machine breaks either condition.
 */
static void sleipnir_gpu_check_frequency(SleipnirGPUState *s)
{
    CPUState *cpu = first_cpu;
    uint64_t cntfrq;

    if (NANOSECONDS_PER_SECOND % s->timestamp_frequency) {
        warn_report(TYPE_SLEIPNIR_GPU ": timestamp-frequency %" PRIu32
                    " Hz does not divide 1 GHz: QEMU's Arm generic timer "
                    "cannot count at that rate, so GPU timestamps will drift "
                    "from CNTVCT",
                    s->timestamp_frequency);
    }
    if (!cpu || !object_property_find(OBJECT(cpu), "cntfrq")) {
        return;
    }
    cntfrq = object_property_get_uint(OBJECT(cpu), "cntfrq", NULL);
    if (cntfrq != s->timestamp_frequency) {
        warn_report(TYPE_SLEIPNIR_GPU ": timestamp-frequency %" PRIu32
                    " Hz differs from the CPU's cntfrq %" PRIu64 " Hz; GPU "
                    "timestamps will not match CNTVCT",
                    s->timestamp_frequency, cntfrq);
    }
}

static void sleipnir_gpu_kick(void *opaque)
{
    SleipnirGPUState *s = opaque;

    qemu_mutex_lock(&s->worker_lock);
    s->worker_kicked = true;
    qemu_cond_signal(&s->worker_cond);
    qemu_mutex_unlock(&s->worker_lock);
}

static void G_GNUC_PRINTF(2, 0)
sleipnir_gpu_guest_error(void *opaque, const char *fmt, va_list ap)
{
    if (qemu_loglevel_mask(LOG_GUEST_ERROR)) {
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);

        qemu_log("sleipnir-gpu: %s\n", msg);
    }
}

static void G_GNUC_PRINTF(3, 0)
sleipnir_gpu_trace(void *opaque, const char *event, const char *fmt,
                   va_list ap)
{
    if (trace_event_get_state_backends(TRACE_SLEIPNIR_GPU_MODEL)) {
        g_autofree char *msg = g_strdup_vprintf(fmt, ap);

        trace_sleipnir_gpu_model(event, msg);
    }
}

static bool sleipnir_gpu_tracing(void *opaque, const char *event)
{
    return trace_event_get_state_backends(TRACE_SLEIPNIR_GPU_MODEL);
}

static void *sleipnir_gpu_worker(void *opaque)
{
    SleipnirGPUState *s = opaque;
    bool more = false;

    rcu_register_thread();
    for (;;) {
        qemu_mutex_lock(&s->worker_lock);
        if (more && !s->worker_kicked && !s->worker_quit) {
            /* A slot is waiting (e.g. a hung job): poll it gently. */
            qemu_cond_timedwait(&s->worker_cond, &s->worker_lock,
                                WORKER_BUSY_WAIT_MS);
        }
        while (!more && !s->worker_kicked && !s->worker_quit) {
            qemu_cond_wait(&s->worker_cond, &s->worker_lock);
        }
        s->worker_kicked = false;
        if (s->worker_quit) {
            qemu_mutex_unlock(&s->worker_lock);
            break;
        }
        qemu_mutex_unlock(&s->worker_lock);

        more = sgpu_run(s->model, WORKER_SLICE_NS);
    }
    rcu_unregister_thread();
    return NULL;
}

static uint64_t sleipnir_gpu_mmio_read(void *opaque, hwaddr addr,
                                       unsigned size)
{
    SleipnirGPUState *s = opaque;
    uint32_t value = sgpu_mmio_read(s->model, addr);

    trace_sleipnir_gpu_mmio_read(addr, value);
    return value;
}

static void sleipnir_gpu_mmio_write(void *opaque, hwaddr addr, uint64_t value,
                                    unsigned size)
{
    SleipnirGPUState *s = opaque;

    trace_sleipnir_gpu_mmio_write(addr, value);
    sgpu_mmio_write(s->model, addr, value);
}

static const MemoryRegionOps sleipnir_gpu_mmio_ops = {
    .read = sleipnir_gpu_mmio_read,
    .write = sleipnir_gpu_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* Registers are 32-bit; 64-bit accesses are split into LO/HI halves. */
    .valid = {
        .min_access_size = 4,
        .max_access_size = 8,
    },
    .impl = {
        .min_access_size = 4,
        .max_access_size = 4,
    },
};

static void sleipnir_gpu_realize(DeviceState *dev, Error **errp)
{
    SleipnirGPUState *s = SLEIPNIR_GPU(dev);
    char err[256] = "";
    uint32_t revision;
    int product;

    if (!s->dma_mr) {
        error_setg(errp, TYPE_SLEIPNIR_GPU ": 'dma-mr' link not set");
        return;
    }
    product = sgpu_product_from_name(s->product ? s->product : "");
    if (product < 0) {
        error_setg(errp, TYPE_SLEIPNIR_GPU ": unknown product '%s' (known: "
                   "t604, t628, t720, t760, t820, t830, t860, t880)",
                   s->product ? s->product : "");
        return;
    }
    if (s->timestamp_frequency == 0 ||
        s->timestamp_frequency > SGPU_MAX_TIMESTAMP_HZ) {
        error_setg(errp, TYPE_SLEIPNIR_GPU ": timestamp-frequency must be "
                   "1..%u Hz", SGPU_MAX_TIMESTAMP_HZ);
        return;
    }
    sleipnir_gpu_check_frequency(s);
    revision = s->revision;
    if (revision == SLEIPNIR_GPU_PRODUCT_REVISION) {
        revision = sgpu_product_revision(product);
    } else if (revision > 0xffff) {
        error_setg(errp, TYPE_SLEIPNIR_GPU ": revision must be 0..0xffff "
                   "(GPU_ID[15:0]), not 0x%x", s->revision);
        return;
    }

    struct sgpu_config config = {
        .product = product,
        .revision = revision,
        .shader_cores = s->shader_cores,
        .test_hang_jobs = s->test_hang_jobs,
        .timestamp_hz = s->timestamp_frequency,
    };
    struct sgpu_host host = {
        .opaque = s,
        .mem_read = sleipnir_gpu_mem_read,
        .mem_write = sleipnir_gpu_mem_write,
        .mem_page = sleipnir_gpu_mem_page,
        .thread_begin = sleipnir_gpu_thread_begin,
        .thread_end = sleipnir_gpu_thread_end,
        .set_irq = sleipnir_gpu_set_irq,
        .now_ns = sleipnir_gpu_now_ns,
        .system_time_ns = sleipnir_gpu_system_time_ns,
        .kick = sleipnir_gpu_kick,
        .guest_error = sleipnir_gpu_guest_error,
        .trace = sleipnir_gpu_trace,
        .tracing = sleipnir_gpu_tracing,
    };

    s->model = sgpu_create(&config, &host, err, sizeof(err));
    if (!s->model) {
        error_setg(errp, TYPE_SLEIPNIR_GPU ": %s", err);
        return;
    }

    address_space_init(&s->dma_as, s->dma_mr, TYPE_SLEIPNIR_GPU "-dma");
    memory_region_init_io(&s->iomem, OBJECT(s), &sleipnir_gpu_mmio_ops, s,
                          TYPE_SLEIPNIR_GPU, SGPU_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->iomem);
    for (int i = 0; i < SGPU_IRQ_COUNT; i++) {
        sysbus_init_irq(SYS_BUS_DEVICE(s), &s->irq[i]);
    }

    s->irq_bh = qemu_bh_new(sleipnir_gpu_irq_bh, s);
    qemu_mutex_init(&s->worker_lock);
    qemu_cond_init(&s->worker_cond);
    qemu_thread_create(&s->worker, TYPE_SLEIPNIR_GPU, sleipnir_gpu_worker, s,
                       QEMU_THREAD_JOINABLE);
}

static void sleipnir_gpu_unrealize(DeviceState *dev)
{
    SleipnirGPUState *s = SLEIPNIR_GPU(dev);

    qemu_mutex_lock(&s->worker_lock);
    s->worker_quit = true;
    qemu_cond_signal(&s->worker_cond);
    qemu_mutex_unlock(&s->worker_lock);
    qemu_thread_join(&s->worker);
    qemu_bh_delete(s->irq_bh);
    sgpu_destroy(s->model);
    s->model = NULL;
}

static void sleipnir_gpu_reset(DeviceState *dev)
{
    SleipnirGPUState *s = SLEIPNIR_GPU(dev);

    sgpu_reset(s->model);
}

/*
 * The model core keeps its state private and has no serialisation yet, so a
 * VM with the GPU refuses migration and snapshots rather than losing state.
 */
static const VMStateDescription vmstate_sleipnir_gpu = {
    .name = TYPE_SLEIPNIR_GPU,
    .unmigratable = 1,
};

static Property sleipnir_gpu_properties[] = {
    DEFINE_PROP_STRING("product", SleipnirGPUState, product),
    /* The product's usual board's (T860 r2p0 as on RK3399, T760 r0p0). */
    DEFINE_PROP_UINT32("revision", SleipnirGPUState, revision,
                       SLEIPNIR_GPU_PRODUCT_REVISION),
    DEFINE_PROP_UINT32("shader-cores", SleipnirGPUState, shader_cores, 4),
    DEFINE_PROP_BOOL("test-hang-jobs", SleipnirGPUState, test_hang_jobs,
                     false),
    /* The system counter's rate: keep it equal to the CPUs' cntfrq. */
    DEFINE_PROP_UINT32("timestamp-frequency", SleipnirGPUState,
                       timestamp_frequency, SGPU_DEFAULT_TIMESTAMP_HZ),
    DEFINE_PROP_LINK("dma-mr", SleipnirGPUState, dma_mr, TYPE_MEMORY_REGION,
                     MemoryRegion *),
    DEFINE_PROP_END_OF_LIST(),
};

static void sleipnir_gpu_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->desc = "Sleipnir GPU (Mali Midgard T6xx-T8xx model)";
    dc->realize = sleipnir_gpu_realize;
    dc->unrealize = sleipnir_gpu_unrealize;
    dc->reset = sleipnir_gpu_reset;
    dc->vmsd = &vmstate_sleipnir_gpu;
    device_class_set_props(dc, sleipnir_gpu_properties);
    set_bit(DEVICE_CATEGORY_DISPLAY, dc->categories);
}

static const TypeInfo sleipnir_gpu_info = {
    .name = TYPE_SLEIPNIR_GPU,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(SleipnirGPUState),
    .class_init = sleipnir_gpu_class_init,
};

static void sleipnir_gpu_register_types(void)
{
    type_register_static(&sleipnir_gpu_info);
}

type_init(sleipnir_gpu_register_types)

DeviceState *sleipnir_gpu_create(const char *product, hwaddr base,
                                 qemu_irq job, qemu_irq mmu, qemu_irq gpu,
                                 MemoryRegion *sysmem)
{
    DeviceState *dev = qdev_new(TYPE_SLEIPNIR_GPU);
    SysBusDevice *sbd = SYS_BUS_DEVICE(dev);

    qdev_prop_set_string(dev, "product", product);
    object_property_set_link(OBJECT(dev), "dma-mr", OBJECT(sysmem),
                             &error_fatal);
    sysbus_realize_and_unref(sbd, &error_fatal);
    sysbus_mmio_map(sbd, 0, base);
    sysbus_connect_irq(sbd, SGPU_IRQ_JOB, job);
    sysbus_connect_irq(sbd, SGPU_IRQ_MMU, mmu);
    sysbus_connect_irq(sbd, SGPU_IRQ_GPU, gpu);
    return dev;
}
