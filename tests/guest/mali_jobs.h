/* SPDX-License-Identifier: MIT */
/*
 * The NULL and WRITE_VALUE jobs the guest tests build, packed by the
 * hardware library's packers (midgard/midgard_desc.h), with the arguments
 * in the order the tests spell a chain: index, dependencies, next.
 */
#ifndef SLEIPNIR_MALI_JOBS_H
#define SLEIPNIR_MALI_JOBS_H

#include <stdint.h>
#include <string.h>

#include "midgard_desc.h"

/* Every job the tests build fits one 64-byte aligned slot. */
#define MALI_JOB_SLOT_SIZE 64u

/*
 * Writes a complete job header at dst (all write-back fields cleared, so
 * the exception status reads MDG_EXCEPTION_OK until the GPU runs the job).
 */
static inline void mali_pack_job_header(void *dst, unsigned int type,
					uint16_t index, uint16_t dep1,
					uint16_t dep2, uint64_t next)
{
	const struct mdg_job_header hdr = {
		.type = type, .index = index, .dep1 = dep1, .dep2 = dep2,
		.next = next,
	};

	mdg_pack_job_header(&hdr, dst);
}

static inline void mali_job_set_next(void *job, uint64_t next)
{
	mdg_set(job, MDG_JOB_HEADER_NEXT, next);
}

/* A WRITE_VALUE job filling a whole slot. */
static inline void mali_pack_write_value_job(void *dst, uint16_t index,
					     uint16_t dep1, uint16_t dep2,
					     uint64_t next, uint64_t target,
					     uint32_t value_type)
{
	const struct mdg_write_value_job job = {
		.index = index, .dep1 = dep1, .dep2 = dep2, .next = next,
		.target = target, .type = value_type,
	};

	_Static_assert(MDG_WRITE_VALUE_JOB_BYTES == MALI_JOB_SLOT_SIZE,
		       "a WRITE_VALUE job fills a slot");
	mdg_pack_write_value_job(&job, dst);
}

/* A NULL job: its header, and the rest of the slot cleared. */
static inline void mali_pack_null_job(void *dst, uint16_t index, uint16_t dep1,
				      uint16_t dep2, uint64_t next)
{
	mali_pack_job_header(dst, MDG_JOB_TYPE_NULL, index, dep1, dep2, next);
	memset((uint8_t *)dst + MDG_JOB_HEADER_BYTES, 0,
	       MALI_JOB_SLOT_SIZE - MDG_JOB_HEADER_BYTES);
}

/* The type a header names (§4.1). */
static inline unsigned int mali_job_header_type(const void *job)
{
	return (unsigned int)mdg_get(job, MDG_JOB_HEADER_TYPE);
}

/* What the GPU wrote back into the header (its first word). */
static inline uint32_t mali_job_exception_status(const void *job)
{
	return mdg_job_exception_status(job);
}

#endif
