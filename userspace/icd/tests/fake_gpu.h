/* SPDX-License-Identifier: MIT */
/* The GPU the host tests see: a Mali-T860 MP4 as the model presents it. */
#ifndef FAKE_GPU_H
#define FAKE_GPU_H

#include "icd_device_limits.h"

extern const struct icd_gpu_params fake_t860;
#define FAKE_RAM (1024ull * 1024 * 1024)

#endif
