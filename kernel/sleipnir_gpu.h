/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: GPU control block (reset, identification, power, GPU interrupt).
 */
#ifndef __SLEIPNIR_GPU_H__
#define __SLEIPNIR_GPU_H__

#include <linux/interrupt.h>

struct sleipnir_device;

int sleipnir_gpu_soft_reset(struct sleipnir_device *sdev);
int sleipnir_gpu_init_features(struct sleipnir_device *sdev);
void sleipnir_gpu_power_on(struct sleipnir_device *sdev);
void sleipnir_gpu_power_off(struct sleipnir_device *sdev);
void sleipnir_gpu_irq_enable(struct sleipnir_device *sdev);
void sleipnir_gpu_irq_disable(struct sleipnir_device *sdev);
irqreturn_t sleipnir_gpu_irq_handler(int irq, void *data);

#endif /* __SLEIPNIR_GPU_H__ */
