/* SPDX-License-Identifier: MIT */
/*
 * CLOCK_MONOTONIC for test programs: timestamps, absolute deadlines as
 * DRM's wait ioctls take them, and elapsed milliseconds.
 */
#ifndef SLEIPNIR_TEST_CLOCK_H
#define SLEIPNIR_TEST_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* An absolute CLOCK_MONOTONIC deadline timeout_ms from now. */
static inline int64_t deadline_ns(unsigned int timeout_ms)
{
	return (int64_t)(now_ns() + (uint64_t)timeout_ms * 1000000ull);
}

static inline uint64_t ms_since(uint64_t t0_ns)
{
	return (now_ns() - t0_ns) / 1000000ull;
}

#endif
