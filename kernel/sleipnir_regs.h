/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: register map of ARM Mali Midgard GPUs (job-manager
 * generation). All registers are 32 bits wide; 64-bit quantities are split
 * into a _LO register and a _HI register at the next word.
 */
#ifndef __SLEIPNIR_REGS_H__
#define __SLEIPNIR_REGS_H__

#include <linux/bits.h>

/*
 * The identification and feature registers (GPU_ID, the *_FEATURES and
 * *_PRESENT ones), the JS_STATUS exception codes and the fields of the
 * configuration registers the driver programs are defined in the headers
 * the host simulator shares, with the code that reads or computes them.
 */
#include "sleipnir_faults.h"
#include "sleipnir_features.h"
#include "sleipnir_hwcfg.h"

/* ---- GPU control block (0x0000-0x0fff, "gpu" interrupt) ---- */

/* GPU_ID fields. */
#define   SLP_GPU_ID_PRODUCT		GENMASK(31, 16)
#define   SLP_GPU_ID_MAJOR		GENMASK(15, 12)
#define   SLP_GPU_ID_MINOR		GENMASK(11, 4)
#define   SLP_GPU_ID_STATUS		GENMASK(3, 0)
#define   SLP_GPU_ID_REVISION		GENMASK(15, 0)
/* MMU_FEATURES fields. */
#define   SLP_MMU_FEATURES_VA_BITS	GENMASK(7, 0)
#define   SLP_MMU_FEATURES_PA_BITS	GENMASK(15, 8)

/* GPU interrupt registers; bits below. */
#define SLP_GPU_INT_RAWSTAT		0x020
#define SLP_GPU_INT_CLEAR		0x024
#define SLP_GPU_INT_MASK		0x028
#define SLP_GPU_INT_STAT		0x02c
#define   SLP_GPU_IRQ_FAULT		BIT(0)
#define   SLP_GPU_IRQ_MULTIPLE_FAULT	BIT(7)
#define   SLP_GPU_IRQ_RESET_COMPLETED	BIT(8)
#define   SLP_GPU_IRQ_POWER_CHANGED	BIT(9)
#define   SLP_GPU_IRQ_POWER_CHANGED_ALL	BIT(10)
#define   SLP_GPU_IRQ_PERFCNT_SAMPLED	BIT(16)
#define   SLP_GPU_IRQ_CACHES_CLEANED	BIT(17)
#define   SLP_GPU_IRQ_ALL		(SLP_GPU_IRQ_FAULT |		\
					 SLP_GPU_IRQ_MULTIPLE_FAULT |	\
					 SLP_GPU_IRQ_RESET_COMPLETED |	\
					 SLP_GPU_IRQ_POWER_CHANGED |	\
					 SLP_GPU_IRQ_POWER_CHANGED_ALL | \
					 SLP_GPU_IRQ_PERFCNT_SAMPLED |	\
					 SLP_GPU_IRQ_CACHES_CLEANED)
#define   SLP_GPU_IRQ_ERRORS		(SLP_GPU_IRQ_FAULT |		\
					 SLP_GPU_IRQ_MULTIPLE_FAULT)

#define SLP_GPU_CMD			0x030
#define   SLP_GPU_CMD_SOFT_RESET	0x01
#define   SLP_GPU_CMD_PERFCNT_CLEAR	0x03
#define   SLP_GPU_CMD_PERFCNT_SAMPLE	0x04
#define   SLP_GPU_CMD_CLEAN_CACHES	0x07
#define   SLP_GPU_CMD_CLEAN_INV_CACHES	0x08
#define SLP_GPU_STATUS			0x034
#define SLP_GPU_FAULT_STATUS		0x03c
#define   SLP_FAULT_STATUS_EXCEPTION	GENMASK(7, 0)
#define SLP_GPU_FAULT_ADDRESS_LO	0x040
#define SLP_GPU_FAULT_ADDRESS_HI	0x044

/* Per-unit power control: ready, power on/off, in transition. */
#define SLP_GPU_SHADER_READY_LO		0x140
#define SLP_GPU_TILER_READY_LO		0x150
#define SLP_GPU_L2_READY_LO		0x160
#define SLP_GPU_SHADER_PWRON_LO		0x180
#define SLP_GPU_TILER_PWRON_LO		0x190
#define SLP_GPU_L2_PWRON_LO		0x1a0
#define SLP_GPU_SHADER_PWROFF_LO	0x1c0
#define SLP_GPU_TILER_PWROFF_LO		0x1d0
#define SLP_GPU_L2_PWROFF_LO		0x1e0
#define SLP_GPU_SHADER_PWRTRANS_LO	0x200
#define SLP_GPU_TILER_PWRTRANS_LO	0x210
#define SLP_GPU_L2_PWRTRANS_LO		0x220

/* Implementation-specific configuration, written by the errata code. */
#define SLP_GPU_JM_CONFIG		0xf00
#define SLP_GPU_SHADER_CONFIG		0xf04
#define SLP_GPU_TILER_CONFIG		0xf08

/* ---- Job control block (0x1000-0x1fff, "job" interrupt) ---- */

#define SLP_JOB_INT_RAWSTAT		0x1000
#define SLP_JOB_INT_CLEAR		0x1004
#define SLP_JOB_INT_MASK		0x1008
#define SLP_JOB_INT_STAT		0x100c
/* Bit n: slot n finished; bit 16 + n: slot n failed. */
#define   SLP_JOB_IRQ_DONE(n)		BIT(n)
#define   SLP_JOB_IRQ_FAILED(n)		BIT(16 + (n))
#define SLP_JOB_INT_JS_STATE		0x1010

#define SLP_JS_BASE			0x1800
#define SLP_JS_STRIDE			0x80
#define SLP_JS_REG(n, off)		(SLP_JS_BASE + SLP_JS_STRIDE * (n) + (off))
#define SLP_JS_HEAD_LO(n)		SLP_JS_REG(n, 0x00)
#define SLP_JS_TAIL_LO(n)		SLP_JS_REG(n, 0x08)
#define SLP_JS_COMMAND(n)		SLP_JS_REG(n, 0x20)
#define SLP_JS_STATUS(n)		SLP_JS_REG(n, 0x24)
#define SLP_JS_HEAD_NEXT_LO(n)		SLP_JS_REG(n, 0x40)
#define SLP_JS_HEAD_NEXT_HI(n)		SLP_JS_REG(n, 0x44)
#define SLP_JS_AFFINITY_NEXT_LO(n)	SLP_JS_REG(n, 0x50)
#define SLP_JS_AFFINITY_NEXT_HI(n)	SLP_JS_REG(n, 0x54)
#define SLP_JS_CONFIG_NEXT(n)		SLP_JS_REG(n, 0x58)
#define SLP_JS_COMMAND_NEXT(n)		SLP_JS_REG(n, 0x60)

/* JS_COMMAND(_NEXT) values. */
#define   SLP_JS_CMD_START		0x01
#define   SLP_JS_CMD_SOFT_STOP		0x02
#define   SLP_JS_CMD_HARD_STOP		0x03

/* ---- MMU block (0x2000-0x2fff, "mmu" interrupt) ---- */

#define SLP_MMU_INT_RAWSTAT		0x2000
#define SLP_MMU_INT_CLEAR		0x2004
#define SLP_MMU_INT_MASK		0x2008
#define SLP_MMU_INT_STAT		0x200c
/* Bit n: page fault in address space n; bit 16 + n: other fault in AS n. */
#define   SLP_MMU_IRQ_PAGE_FAULT(n)	BIT(n)
#define   SLP_MMU_IRQ_BUS_ERROR(n)	BIT(16 + (n))

#define SLP_AS_BASE			0x2400
#define SLP_AS_STRIDE			0x40
#define SLP_AS_REG(n, off)		(SLP_AS_BASE + SLP_AS_STRIDE * (n) + (off))
#define SLP_AS_TRANSTAB_LO(n)		SLP_AS_REG(n, 0x00)
#define SLP_AS_TRANSTAB_HI(n)		SLP_AS_REG(n, 0x04)
#define SLP_AS_MEMATTR_LO(n)		SLP_AS_REG(n, 0x08)
#define SLP_AS_MEMATTR_HI(n)		SLP_AS_REG(n, 0x0c)
#define SLP_AS_LOCKADDR_LO(n)		SLP_AS_REG(n, 0x10)
#define SLP_AS_LOCKADDR_HI(n)		SLP_AS_REG(n, 0x14)
#define SLP_AS_COMMAND(n)		SLP_AS_REG(n, 0x18)
#define   SLP_AS_CMD_UPDATE		0x01
#define   SLP_AS_CMD_LOCK		0x02
#define   SLP_AS_CMD_FLUSH_PT		0x04
#define   SLP_AS_CMD_FLUSH_MEM		0x05
/* Exception type and access type: sleipnir_as_fault_code()/_access(). */
#define SLP_AS_FAULTSTATUS(n)		SLP_AS_REG(n, 0x1c)
#define SLP_AS_FAULTADDRESS_LO(n)	SLP_AS_REG(n, 0x20)
#define SLP_AS_FAULTADDRESS_HI(n)	SLP_AS_REG(n, 0x24)
#define SLP_AS_STATUS(n)		SLP_AS_REG(n, 0x28)
#define   SLP_AS_STATUS_ACTIVE		BIT(0)

#endif /* __SLEIPNIR_REGS_H__ */
