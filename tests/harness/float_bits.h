/* SPDX-License-Identifier: MIT */
/* A float's or a double's bits and back (fbits/bitsf, dbits/bitsd), for
 * tests that compare results bit for bit (NaN payloads, signed zeros) or
 * build operands from bits. */
#ifndef SLEIPNIR_TEST_FLOAT_BITS_H
#define SLEIPNIR_TEST_FLOAT_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t fbits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static inline float bitsf(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static inline uint64_t dbits(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return u;
}

static inline double bitsd(uint64_t u)
{
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

#endif
