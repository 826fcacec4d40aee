/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: the drm_sched back end: job chains on the job slots, the job
 * interrupt, timeouts and GPU reset.
 */
#ifndef __SLEIPNIR_SCHED_H__
#define __SLEIPNIR_SCHED_H__

#include <linux/types.h>

struct sleipnir_device;
struct sleipnir_file;

int sleipnir_sched_init(struct sleipnir_device *sdev);
void sleipnir_sched_fini(struct sleipnir_device *sdev);
int sleipnir_sched_open(struct sleipnir_file *sfile);
void sleipnir_sched_close(struct sleipnir_file *sfile);
void sleipnir_js_start(struct sleipnir_device *sdev, u32 js, u64 jc, int as);
void sleipnir_job_irq_enable(struct sleipnir_device *sdev);
void sleipnir_job_irq_disable(struct sleipnir_device *sdev);
bool sleipnir_sched_idle(struct sleipnir_device *sdev);
void sleipnir_sched_pause(struct sleipnir_device *sdev);
void sleipnir_sched_unpause(struct sleipnir_device *sdev);

#endif /* __SLEIPNIR_SCHED_H__ */
