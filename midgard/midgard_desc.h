/* SPDX-License-Identifier: MIT */
/*
 * Midgard (v4/v5) compute job descriptors: one packer for everything that
 * builds jobs (host tests of the model, guest tests, the OpenCL runtime).
 * Layouts: ../shared/reference/midgard-facts.md §4.1-§4.6; the model's
 * decoder (qemu/model/sgpu_job_compute.c) reads the same fields.
 *
 * Functions fill little-endian byte buffers; no allocation, no I/O.
 */
#ifndef SLEIPNIR_MIDGARD_DESC_H
#define SLEIPNIR_MIDGARD_DESC_H

#include <stdbool.h>
#include <stdint.h>

#define MDG_JOB_HEADER_BYTES 32
#define MDG_COMPUTE_JOB_BYTES 184   /* header + invocation + params + draw */
#define MDG_RSD_BYTES 64
#define MDG_LOCAL_STORAGE_BYTES 32
#define MDG_UBO_DESC_BYTES 8

#define MDG_JOB_TYPE_NULL 1
#define MDG_JOB_TYPE_WRITE_VALUE 2
#define MDG_JOB_TYPE_CACHE_FLUSH 3
#define MDG_JOB_TYPE_COMPUTE 4

/* Offsets within a job header (§4.1). */
#define MDG_JOB_CONTROL 0x10         /* is-64b, type, barrier, index */
#define MDG_JOB_NEXT 0x18

/* Offsets within a compute job. */
#define MDG_JOB_INVOCATION 0x20
#define MDG_JOB_PARAMETERS 0x28
#define MDG_JOB_DRAW 0x40

/* Draw descriptor pointers, as offsets within the compute job. */
#define MDG_DRAW_UNIFORM_BUFFERS 0x58
#define MDG_DRAW_PUSH_UNIFORMS 0x70
#define MDG_DRAW_STATE 0x78
#define MDG_DRAW_THREAD_STORAGE 0xB0

struct mdg_compute_job {
	unsigned int index;          /* 1..65535 */
	unsigned int dep1, dep2;     /* job indices, 0 = none */
	bool barrier;                /* header Barrier bit (Mesa sets it) */
	uint64_t next;               /* next job header, 0 = end of chain */
	uint32_t local_size[3];
	uint32_t num_groups[3];
	uint64_t rsd;                /* renderer state, 64-byte aligned */
	uint64_t thread_storage;     /* local storage descriptor */
	uint64_t uniform_buffers;    /* UBO descriptor array */
	uint64_t push_uniforms;      /* pushed uniform vec4s */
};

/*
 * Packs the invocation word pair (§4.3); false when the sizes need more
 * than 32 bits or one is 0.
 */
bool mdg_pack_invocation(const uint32_t local_size[3],
			 const uint32_t num_groups[3], uint32_t out[2]);

/*
 * A job header alone (§4.1): the whole of a NULL job, or the start of a
 * job whose payload the caller writes after it. Write-back fields zero.
 */
struct mdg_job_header {
	unsigned int type;           /* MDG_JOB_TYPE_*, 7 bits */
	bool barrier;
	unsigned int index;          /* 1..65535 */
	unsigned int dep1, dep2;     /* job indices, 0 = none */
	uint64_t next;               /* next job header, 0 = end of chain */
};

void mdg_pack_job_header(const struct mdg_job_header *hdr,
			 uint8_t out[MDG_JOB_HEADER_BYTES]);

/* Writes a whole compute job (184 bytes); false if the sizes do not fit. */
bool mdg_pack_compute_job(const struct mdg_compute_job *job,
			  uint8_t out[MDG_COMPUTE_JOB_BYTES]);

/*
 * A WRITE_VALUE job (§4.2): header + payload, 64 bytes with padding. It
 * stores a value of `type` (MDG_WRITE_VALUE_*) at `target` when it runs.
 */
#define MDG_WRITE_VALUE_JOB_BYTES 64
#define MDG_WRITE_VALUE_TYPE 0x28    /* offset of the type in the job */
#define MDG_WRITE_VALUE_CYCLE_COUNTER 1
#define MDG_WRITE_VALUE_SYSTEM_TIMESTAMP 2
#define MDG_WRITE_VALUE_ZERO 3

struct mdg_write_value_job {
	unsigned int index;          /* 1..65535 */
	unsigned int dep1, dep2;     /* job indices, 0 = none */
	uint64_t next;               /* next job header, 0 = end of chain */
	uint64_t target;             /* 8-byte aligned GPU address */
	unsigned int type;
};

void mdg_pack_write_value_job(const struct mdg_write_value_job *job,
			      uint8_t out[MDG_WRITE_VALUE_JOB_BYTES]);

/* The Exception Status the GPU wrote back into a job header (§4.1). */
uint32_t mdg_job_exception_status(const uint8_t header[MDG_JOB_HEADER_BYTES]);

struct mdg_renderer_state {
	uint64_t shader;             /* code address, 16-byte aligned */
	unsigned int first_tag;
	unsigned int work_regs;      /* 0-16 */
	unsigned int uniform_vec4;   /* pushed uniforms, r23 downwards */
	unsigned int ubo_count;
	bool barrier;                /* shader contains a barrier */
	bool side_effects;           /* shader writes memory */
	unsigned int fp_mode;        /* 0 GL, 2 CL (§4.4) */
};

void mdg_pack_renderer_state(const struct mdg_renderer_state *rsd,
			     uint8_t out[MDG_RSD_BYTES]);

struct mdg_local_storage {
	uint64_t tls_base;           /* 0: no thread-local storage */
	uint32_t tls_bytes_per_thread;
	uint64_t wls_base;           /* 0: no workgroup-local storage */
	uint32_t wls_bytes_per_group;
	uint32_t wls_instances;      /* rounded up to a power of two */
};

void mdg_pack_local_storage(const struct mdg_local_storage *ls,
			    uint8_t out[MDG_LOCAL_STORAGE_BYTES]);
/* Bytes of TLS the hardware needs for bytes_per_thread on `cores` cores. */
uint64_t mdg_tls_total(uint32_t bytes_per_thread, unsigned int cores);

/* One UBO descriptor: address 16-byte aligned, size up to 64 KiB. */
void mdg_pack_ubo(uint64_t address, uint32_t size, uint8_t out[8]);

#endif
