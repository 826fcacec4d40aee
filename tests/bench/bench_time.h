/* SPDX-License-Identifier: MIT */
/*
 * Timing for the guest benchmarks: the tests' monotonic clock
 * (tests/harness/clock.h, now_ns) and order statistics of a set of samples. Medians and percentiles rather than
 * means, because under TCG a single sample can stall for a host scheduling
 * slice and drag a mean far from what the code costs.
 */
#ifndef SLEIPNIR_BENCH_TIME_H
#define SLEIPNIR_BENCH_TIME_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"

static int bench_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts the n (> 0) samples in place, for bench_pct. */
static inline void bench_sort(uint64_t *ns, size_t n)
{
	qsort(ns, n, sizeof(*ns), bench_cmp_u64);
}

/*
 * The pct-th percentile (nearest rank) of n sorted samples; 50 is the
 * median (the upper one of the middle two for even n).
 */
static inline uint64_t bench_pct(const uint64_t *sorted, size_t n,
				 unsigned int pct)
{
	size_t rank = n * pct / 100;

	return sorted[rank < n ? rank : n - 1];
}

/*
 * Sorts the n (> 0) latencies of one dispatch path and prints them as the
 * benchmarks' JSON line:
 *   {"bench":"dispatch","path":PATH,"runs":n,"median_ns":...,
 *    "p10_ns":...,"p90_ns":...,"min_ns":...}
 */
static inline void bench_print_dispatch(const char *path, uint64_t *ns,
					size_t n)
{
	bench_sort(ns, n);
	printf("{\"bench\":\"dispatch\",\"path\":\"%s\",\"runs\":%zu,"
	       "\"median_ns\":%llu,\"p10_ns\":%llu,\"p90_ns\":%llu,"
	       "\"min_ns\":%llu}\n",
	       path, n, (unsigned long long)bench_pct(ns, n, 50),
	       (unsigned long long)bench_pct(ns, n, 10),
	       (unsigned long long)bench_pct(ns, n, 90),
	       (unsigned long long)ns[0]);
}

#endif
