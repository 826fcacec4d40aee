/* SPDX-License-Identifier: MIT */
/*
 * Register offsets and bit fields of a Midgard job-manager GPU, as the
 * model decodes them. Offsets are relative to the start of the 64 KiB
 * register window. Values come from docs/hardware.md (§1); names
 * follow the hardware's own register names so traces read naturally.
 */
#ifndef SLEIPNIR_SGPU_REGS_H
#define SLEIPNIR_SGPU_REGS_H

/* ---- GPU control block (0x0000-0x0FFF) ---------------------------------- */
#define GPU_ID                  0x000
#define GPU_L2_FEATURES         0x004
#define GPU_CORE_FEATURES       0x008
#define GPU_TILER_FEATURES      0x00C
#define GPU_MEM_FEATURES        0x010
#define GPU_MMU_FEATURES        0x014
#define GPU_AS_PRESENT          0x018
#define GPU_JS_PRESENT          0x01C
#define GPU_INT_RAWSTAT         0x020
#define GPU_INT_CLEAR           0x024
#define GPU_INT_MASK            0x028
#define GPU_INT_STAT            0x02C
#define GPU_CMD                 0x030
#define GPU_STATUS              0x034
#define GPU_LATEST_FLUSH_ID     0x038
#define GPU_FAULT_STATUS        0x03C
#define GPU_FAULT_ADDRESS_LO    0x040
#define GPU_FAULT_ADDRESS_HI    0x044
#define GPU_AFBC_FEATURES       0x04C
#define GPU_PWR_KEY             0x050
#define GPU_PWR_OVERRIDE0       0x054
#define GPU_PWR_OVERRIDE1       0x058
#define GPU_PERFCNT_BASE_LO     0x060
#define GPU_PERFCNT_BASE_HI     0x064
#define GPU_PERFCNT_CONFIG      0x068
#define GPU_PRFCNT_JM_EN        0x06C
#define GPU_PRFCNT_SHADER_EN    0x070
#define GPU_PRFCNT_TILER_EN     0x074
#define GPU_PRFCNT_MMU_L2_EN    0x07C
/* kbase's placement; panfrost 6.1 defines and reads none of these. */
#define GPU_CYCLE_COUNT_LO      0x090
#define GPU_CYCLE_COUNT_HI      0x094
#define GPU_TIMESTAMP_LO        0x098
#define GPU_TIMESTAMP_HI        0x09C
#define GPU_THREAD_MAX_THREADS  0x0A0
#define GPU_THREAD_MAX_WORKGROUP_SIZE 0x0A4
#define GPU_THREAD_MAX_BARRIER_SIZE 0x0A8
#define GPU_THREAD_FEATURES     0x0AC
#define GPU_TEXTURE_FEATURES(n) (0x0B0 + 4 * (n))
#define GPU_JS_FEATURES(n)      (0x0C0 + 4 * (n))
#define GPU_SHADER_PRESENT_LO   0x100
#define GPU_SHADER_PRESENT_HI   0x104
#define GPU_TILER_PRESENT_LO    0x110
#define GPU_TILER_PRESENT_HI    0x114
#define GPU_L2_PRESENT_LO       0x120
#define GPU_L2_PRESENT_HI       0x124
/* Power registers come in groups of three (shader, tiler, L2), 0x10 apart. */
#define GPU_READY_BASE          0x140
#define GPU_PWRON_BASE          0x180
#define GPU_PWROFF_BASE         0x1C0
#define GPU_PWRTRANS_BASE       0x200
#define GPU_PWRACTIVE_BASE      0x240
#define GPU_COHERENCY_FEATURES  0x300
#define GPU_THREAD_TLS_ALLOC    0x310
#define GPU_STACK_PRESENT_LO    0xE00
#define GPU_STACK_PRESENT_HI    0xE04
#define GPU_JM_CONFIG           0xF00
#define GPU_SHADER_CONFIG       0xF04
#define GPU_TILER_CONFIG        0xF08
#define GPU_L2_MMU_CONFIG       0xF0C

/* GPU_INT_* bits. */
#define GPU_IRQ_FAULT                   (1u << 0)
#define GPU_IRQ_MULTIPLE_FAULT          (1u << 7)
#define GPU_IRQ_RESET_COMPLETED         (1u << 8)
#define GPU_IRQ_POWER_CHANGED           (1u << 9)
#define GPU_IRQ_POWER_CHANGED_ALL       (1u << 10)
#define GPU_IRQ_PERFCNT_SAMPLE_COMPLETED (1u << 16)
#define GPU_IRQ_CLEAN_CACHES_COMPLETED  (1u << 17)
#define GPU_IRQ_ALL                     0x00030781u

/* GPU_CMD values (0x02, 0x05, 0x06 are kbase's; panfrost never writes them). */
#define GPU_CMD_NOP                     0x00
#define GPU_CMD_SOFT_RESET              0x01
#define GPU_CMD_HARD_RESET              0x02
#define GPU_CMD_PERFCNT_CLEAR           0x03
#define GPU_CMD_PERFCNT_SAMPLE          0x04
#define GPU_CMD_CYCLE_COUNT_START       0x05
#define GPU_CMD_CYCLE_COUNT_STOP        0x06
#define GPU_CMD_CLEAN_CACHES            0x07
#define GPU_CMD_CLEAN_INV_CACHES        0x08

/*
 * GPU_STATUS bits. Only PRFCNT_ACTIVE is named by panfrost; the others
 * follow kbase's register description (external).
 */
#define GPU_STATUS_GPU_ACTIVE           (1u << 0)
#define GPU_STATUS_PRFCNT_ACTIVE        (1u << 2)
#define GPU_STATUS_JOB_ACTIVE           (1u << 3)
#define GPU_STATUS_CYCLE_COUNT_ACTIVE   (1u << 6)

/* PERFCNT_CONFIG fields. */
#define PERFCNT_CONFIG_MODE_MASK        0xFu
#define PERFCNT_CONFIG_MODE_OFF         0u
#define PERFCNT_CONFIG_AS_SHIFT         4
#define PERFCNT_CONFIG_AS_MASK          0xFu

/* ---- Job control block (0x1000-0x1FFF) ---------------------------------- */
#define JOB_INT_RAWSTAT         0x1000
#define JOB_INT_CLEAR           0x1004
#define JOB_INT_MASK            0x1008
#define JOB_INT_STAT            0x100C
#define JOB_INT_JS_STATE        0x1010
#define JOB_INT_THROTTLE        0x1014

#define JOB_SLOT_BASE           0x1800
#define JOB_SLOT_STRIDE         0x80
#define JS_HEAD_LO              0x00
#define JS_HEAD_HI              0x04
#define JS_TAIL_LO              0x08
#define JS_TAIL_HI              0x0C
#define JS_AFFINITY_LO          0x10
#define JS_AFFINITY_HI          0x14
#define JS_CONFIG               0x18
#define JS_XAFFINITY            0x1C
#define JS_COMMAND              0x20
#define JS_STATUS               0x24
#define JS_HEAD_NEXT_LO         0x40
#define JS_HEAD_NEXT_HI         0x44
#define JS_AFFINITY_NEXT_LO     0x50
#define JS_AFFINITY_NEXT_HI     0x54
#define JS_CONFIG_NEXT          0x58
#define JS_XAFFINITY_NEXT       0x5C
#define JS_COMMAND_NEXT         0x60
#define JS_FLUSH_ID_NEXT        0x70

#define JOB_IRQ_DONE(js)        (1u << (js))
#define JOB_IRQ_FAILED(js)      (1u << (16 + (js)))

/* JS_CONFIG bits the model looks at. */
#define JS_CONFIG_AS_MASK                 0xFu
#define JS_CONFIG_JOB_CHAIN_FLAG          (1u << 11)
#define JS_CONFIG_DISABLE_DESCRIPTOR_WR_BK (1u << 15)

/* JS_COMMAND / JS_COMMAND_NEXT values. */
#define JS_COMMAND_NOP          0
#define JS_COMMAND_START        1
#define JS_COMMAND_SOFT_STOP    2
#define JS_COMMAND_HARD_STOP    3
#define JS_COMMAND_SOFT_STOP_0  4
#define JS_COMMAND_HARD_STOP_0  5
#define JS_COMMAND_SOFT_STOP_1  6
#define JS_COMMAND_HARD_STOP_1  7

/* ---- MMU block (0x2000-0x2FFF) ------------------------------------------ */
#define MMU_INT_RAWSTAT         0x2000
#define MMU_INT_CLEAR           0x2004
#define MMU_INT_MASK            0x2008
#define MMU_INT_STAT            0x200C

#define MMU_AS_BASE             0x2400
#define MMU_AS_STRIDE           0x40
#define AS_TRANSTAB_LO          0x00
#define AS_TRANSTAB_HI          0x04
#define AS_MEMATTR_LO           0x08
#define AS_MEMATTR_HI           0x0C
#define AS_LOCKADDR_LO          0x10
#define AS_LOCKADDR_HI          0x14
#define AS_COMMAND              0x18
#define AS_FAULTSTATUS          0x1C
#define AS_FAULTADDRESS_LO      0x20
#define AS_FAULTADDRESS_HI      0x24
#define AS_STATUS               0x28

#define AS_COMMAND_NOP          0x00
#define AS_COMMAND_UPDATE       0x01
#define AS_COMMAND_LOCK         0x02
#define AS_COMMAND_UNLOCK       0x03
#define AS_COMMAND_FLUSH_PT     0x04
#define AS_COMMAND_FLUSH_MEM    0x05

/* AS_TRANSTAB: ADRMODE in bits [1:0], table base in bits [63:12]. */
#define AS_TRANSTAB_ADRMODE_MASK     0x3u
#define AS_TRANSTAB_ADRMODE_IDENTITY 0x2u
#define AS_TRANSTAB_ADRMODE_TABLE    0x3u
#define AS_TRANSTAB_BASE_MASK        0xFFFFFFFFFFFFF000ull

/* AS_FAULTSTATUS access type field, bits [9:8]. */
#define AS_ACCESS_ATOMIC        0
#define AS_ACCESS_EXECUTE       1
#define AS_ACCESS_READ          2
#define AS_ACCESS_WRITE         3

#endif
