/* SPDX-License-Identifier: MIT */
/*
 * Little-endian words in byte buffers, for the test programs (host and
 * guest): job descriptors, kernel arguments, result buffers. The GPU and
 * the model are little-endian whatever the CPU is, so tests spell the byte
 * order out instead of casting pointers (which would also be unaligned).
 *
 * The loads read through a volatile pointer: in the guest the buffer is
 * often a BO the GPU writes behind the compiler's back, and a load must
 * not be hoisted out of a polling loop or merged with an earlier one.
 */
#ifndef SLEIPNIR_TEST_LE_H
#define SLEIPNIR_TEST_LE_H

#include <stdint.h>

static inline void le_put16(void *dst, uint16_t v)
{
	uint8_t *p = (uint8_t *)dst;

	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void le_put32(void *dst, uint32_t v)
{
	uint8_t *p = (uint8_t *)dst;

	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void le_put64(void *dst, uint64_t v)
{
	le_put32(dst, (uint32_t)v);
	le_put32((uint8_t *)dst + 4, (uint32_t)(v >> 32));
}

static inline uint16_t le_get16(const void *src)
{
	const volatile uint8_t *p = (const volatile uint8_t *)src;

	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t le_get32(const void *src)
{
	const volatile uint8_t *p = (const volatile uint8_t *)src;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t le_get64(const void *src)
{
	return (uint64_t)le_get32(src) |
	       (uint64_t)le_get32((const uint8_t *)src + 4) << 32;
}

#endif
