/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sleipnir GPU: QEMU glue for the Mali Midgard model core in qemu/model/.
 */
#ifndef HW_MISC_SLEIPNIR_GPU_H
#define HW_MISC_SLEIPNIR_GPU_H

#include "hw/sysbus.h"
#include "qemu/thread.h"
#include "qom/object.h"
#include "sgpu.h"

#define TYPE_SLEIPNIR_GPU "sleipnir-gpu"
OBJECT_DECLARE_SIMPLE_TYPE(SleipnirGPUState, SLEIPNIR_GPU)

struct SleipnirGPUState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;
    qemu_irq irq[SGPU_IRQ_COUNT];
    /* The bus the GPU masters: page-table walks, descriptors, shader data. */
    MemoryRegion *dma_mr;
    AddressSpace dma_as;

    /* Properties. */
    char *product;
    uint32_t revision;
    uint32_t shader_cores;
    bool test_hang_jobs;
    uint32_t timestamp_frequency;   /* Hz of GPU_TIMESTAMP (CNTFRQ) */

    struct sgpu *model;

    /* Job execution happens here, never on a vCPU thread. */
    QemuThread worker;
    QemuMutex worker_lock;
    QemuCond worker_cond;
    bool worker_kicked;
    bool worker_quit;

    /* IRQ changes made by the worker are applied under the BQL from a BH. */
    QEMUBH *irq_bh;
};

/*
 * Creates the GPU for a board: maps it at base, wires its job, mmu and gpu
 * interrupts, and gives it sysmem as its bus. product is a lower-case name
 * such as "t860".
 */
DeviceState *sleipnir_gpu_create(const char *product, hwaddr base,
                                 qemu_irq job, qemu_irq mmu, qemu_irq gpu,
                                 MemoryRegion *sysmem);

#endif
