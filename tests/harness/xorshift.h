/* SPDX-License-Identifier: MIT */
/*
 * Marsaglia's xorshift generators (Journal of Statistical Software 8(14),
 * 2003; xorshift64* from Vigna, "An experimental exploration of
 * Marsaglia's xorshift generators, scrambled", 2016), for test programs
 * that want the same numbers on every run and every machine from a seed.
 * Each test keeps its own state (never 0) and its own seed, so adding a
 * draw to one test does not shift another's numbers.
 */
#ifndef SLEIPNIR_TEST_XORSHIFT_H
#define SLEIPNIR_TEST_XORSHIFT_H

#include <stdint.h>

/* xorshift32, shifts 13/17/5. */
static inline uint32_t xorshift32(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* xorshift64, shifts 13/7/17. */
static inline uint64_t xorshift64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/*
 * xorshift64*, shifts 12/25/27 and a multiplier. Its low bits are weaker
 * than its high ones: take the upper half when 32 bits will do.
 */
static inline uint64_t xorshift64star(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

#endif
