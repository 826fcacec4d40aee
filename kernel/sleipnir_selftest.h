/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Sleipnir: the GPU self-test at probe (sleipnir_selftest.c), from the
 * firmware file sleipnir/midgard-selftest.bin.
 */
#ifndef __SLEIPNIR_SELFTEST_H__
#define __SLEIPNIR_SELFTEST_H__

struct sleipnir_device;

void sleipnir_selftest_run(struct sleipnir_device *sdev);

#endif /* __SLEIPNIR_SELFTEST_H__ */
