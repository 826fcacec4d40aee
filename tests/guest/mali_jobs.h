/* SPDX-License-Identifier: MIT */
/*
 * Packing helpers for the Midgard job descriptors the guest tests build by
 * hand: the 32-byte job header and the WRITE_VALUE payload. Written from
 * /work/shared/reference/midgard-facts.md sections 4.1 and 4.2 (v4/v5 layout,
 * identical on T6xx-T8xx for these descriptors).
 *
 * Job header (32 bytes, 64-byte aligned):
 *   0x00 u32  exception status      written back by the GPU; 0x01 = DONE
 *   0x04 u32  first incomplete task written back by the GPU
 *   0x08 u64  fault pointer         written back by the GPU
 *   0x10 u32  bit 0 "is 64b" (must be 1), bits 7:1 type, bit 8 barrier,
 *             bits 31:16 index (1-based within the chain, never 0)
 *   0x14 u32  bits 15:0 dependency 1, bits 31:16 dependency 2 (0 = none)
 *   0x18 u64  next job header GPU VA (0 = end of chain)
 * WRITE_VALUE payload at 0x20: u64 target GPU VA, u32 value type.
 */
#ifndef SLEIPNIR_MALI_JOBS_H
#define SLEIPNIR_MALI_JOBS_H

#include <stdint.h>
#include <string.h>

#define MALI_JOB_ALIGN 64u
#define MALI_JOB_HEADER_SIZE 32u
#define MALI_WRITE_VALUE_JOB_SIZE (MALI_JOB_HEADER_SIZE + 12u)
/* Every job the tests build fits one 64-byte aligned slot. */
#define MALI_JOB_SLOT_SIZE 64u

enum mali_job_type {
	MALI_JOB_TYPE_NOT_STARTED = 0,
	MALI_JOB_TYPE_NULL = 1,
	MALI_JOB_TYPE_WRITE_VALUE = 2,
	MALI_JOB_TYPE_CACHE_FLUSH = 3,
	MALI_JOB_TYPE_COMPUTE = 4,
};

enum mali_write_value_type {
	MALI_WRITE_VALUE_CYCLE_COUNTER = 1,
	MALI_WRITE_VALUE_SYSTEM_TIMESTAMP = 2,
	MALI_WRITE_VALUE_ZERO = 3,
};

/* Exception status codes (JS_STATUS and the header's write-back field). */
#define MALI_EXCEPTION_NOT_STARTED 0x00u
#define MALI_EXCEPTION_DONE 0x01u

/* Header field offsets. */
#define MALI_JOB_HDR_EXCEPTION_STATUS 0x00u
#define MALI_JOB_HDR_FIRST_INCOMPLETE 0x04u
#define MALI_JOB_HDR_FAULT_POINTER 0x08u
#define MALI_JOB_HDR_CONTROL 0x10u
#define MALI_JOB_HDR_DEPENDENCIES 0x14u
#define MALI_JOB_HDR_NEXT 0x18u
/* WRITE_VALUE payload offsets. */
#define MALI_WRITE_VALUE_ADDRESS 0x20u
#define MALI_WRITE_VALUE_TYPE 0x28u

#define MALI_JOB_CONTROL_IS_64B (1u << 0)
#define MALI_JOB_CONTROL_TYPE_SHIFT 1
#define MALI_JOB_CONTROL_TYPE_MASK 0x7fu
#define MALI_JOB_CONTROL_BARRIER (1u << 8)
#define MALI_JOB_CONTROL_INDEX_SHIFT 16

static inline void mali_put32(void *dst, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			 (uint8_t)(v >> 24) };
	memcpy(dst, b, sizeof(b));
}

static inline void mali_put64(void *dst, uint64_t v)
{
	mali_put32(dst, (uint32_t)v);
	mali_put32((uint8_t *)dst + 4, (uint32_t)(v >> 32));
}

/* Reads a GPU-written little-endian word (the descriptor memory is shared). */
static inline uint32_t mali_get32(const void *src)
{
	const volatile uint8_t *p = (const volatile uint8_t *)src;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t mali_get64(const void *src)
{
	return (uint64_t)mali_get32(src) |
	       (uint64_t)mali_get32((const uint8_t *)src + 4) << 32;
}

/*
 * Writes a complete job header at dst (all write-back fields cleared, so the
 * exception status reads NOT_STARTED until the GPU runs the job).
 */
static inline void mali_pack_job_header(void *dst, enum mali_job_type type,
					uint16_t index, uint16_t dep1,
					uint16_t dep2, uint64_t next)
{
	uint8_t *p = (uint8_t *)dst;

	mali_put32(p + MALI_JOB_HDR_EXCEPTION_STATUS, 0);
	mali_put32(p + MALI_JOB_HDR_FIRST_INCOMPLETE, 0);
	mali_put64(p + MALI_JOB_HDR_FAULT_POINTER, 0);
	mali_put32(p + MALI_JOB_HDR_CONTROL,
		   MALI_JOB_CONTROL_IS_64B |
			   ((uint32_t)type & MALI_JOB_CONTROL_TYPE_MASK)
				   << MALI_JOB_CONTROL_TYPE_SHIFT |
			   (uint32_t)index << MALI_JOB_CONTROL_INDEX_SHIFT);
	mali_put32(p + MALI_JOB_HDR_DEPENDENCIES,
		   (uint32_t)dep1 | (uint32_t)dep2 << 16);
	mali_put64(p + MALI_JOB_HDR_NEXT, next);
}

static inline void mali_job_set_next(void *job, uint64_t next)
{
	mali_put64((uint8_t *)job + MALI_JOB_HDR_NEXT, next);
}

/* A WRITE_VALUE job: header plus payload. */
static inline void mali_pack_write_value_job(void *dst, uint16_t index,
					     uint16_t dep1, uint16_t dep2,
					     uint64_t next, uint64_t target,
					     uint32_t value_type)
{
	uint8_t *p = (uint8_t *)dst;

	mali_pack_job_header(p, MALI_JOB_TYPE_WRITE_VALUE, index, dep1, dep2,
			     next);
	mali_put64(p + MALI_WRITE_VALUE_ADDRESS, target);
	mali_put32(p + MALI_WRITE_VALUE_TYPE, value_type);
	/* Clear the rest of the slot. */
	memset(p + MALI_WRITE_VALUE_JOB_SIZE, 0,
	       MALI_JOB_SLOT_SIZE - MALI_WRITE_VALUE_JOB_SIZE);
}

static inline void mali_pack_null_job(void *dst, uint16_t index, uint16_t dep1,
				      uint16_t dep2, uint64_t next)
{
	mali_pack_job_header(dst, MALI_JOB_TYPE_NULL, index, dep1, dep2, next);
	memset((uint8_t *)dst + MALI_JOB_HEADER_SIZE, 0,
	       MALI_JOB_SLOT_SIZE - MALI_JOB_HEADER_SIZE);
}

static inline uint32_t mali_job_exception_status(const void *job)
{
	return mali_get32((const uint8_t *)job + MALI_JOB_HDR_EXCEPTION_STATUS);
}

#endif
