/* SPDX-License-Identifier: MIT */
/*
 * The CPU's generic timer, which the GPU's system timestamp counts too on
 * the board: CNTVCT_EL0 (the count) and CNTFRQ_EL0 (its rate). Both read 0
 * on a CPU that is not aarch64, where the tests leave such checks out.
 */
#ifndef SLEIPNIR_ARM_COUNTER_H
#define SLEIPNIR_ARM_COUNTER_H

#include <stdint.h>

static inline uint64_t cntvct(void)
{
#if defined(__aarch64__)
	uint64_t v;

	/* The isb keeps the read from being taken early. */
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
#else
	return 0;
#endif
}

static inline uint64_t cntfrq(void)
{
#if defined(__aarch64__)
	uint64_t v;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
#else
	return 0;
#endif
}

#endif
