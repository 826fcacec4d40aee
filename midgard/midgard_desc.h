/* SPDX-License-Identifier: MIT */
/*
 * Midgard (v4/v5) job descriptors for everything that builds, reads or
 * prints them: the model (qemu/model), the OpenCL runtime and launch
 * library, the tests. The layouts are described once, in
 * midgard_desc_list.h; from it come the names below (field ids, sizes,
 * enum values), generic get/set and printing, a job-chain decoder, and the
 * packers of the descriptors the stack builds. Facts: docs/hardware.md
 * §4.1-§4.6.
 *
 * Descriptors are little-endian byte buffers; no allocation, no I/O (the
 * printer and decoder hand lines and reads to callbacks).
 */
#ifndef SLEIPNIR_MIDGARD_DESC_H
#define SLEIPNIR_MIDGARD_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- The description (midgard_desc_list.h), as C names --------------- */

/* Enums, and their values: MDG_JOB_TYPE_COMPUTE, MDG_EXCEPTION_DONE, ... */
enum mdg_enum_id {
#define MDG_ENUM(e, name) MDG_ENUM_##e,
#include "midgard_desc_list.h"
	MDG_NUM_ENUMS
};

enum {
#define MDG_VALUE(e, v, value, name) MDG_##e##_##v = value,
#include "midgard_desc_list.h"
};

/* Descriptors: MDG_DESC_COMPUTE_JOB ...; their sizes, MDG_COMPUTE_JOB_BYTES
 * ...; where an embedded one starts, MDG_COMPUTE_JOB_DRAW_OFFSET ... */
enum mdg_desc_id {
#define MDG_DESC(d, name, bytes) MDG_DESC_##d,
#include "midgard_desc_list.h"
	MDG_NUM_DESCS
};

enum {
#define MDG_DESC(d, name, bytes) MDG_##d##_BYTES = bytes,
#define MDG_SECTION(d, s, name, byte, sd) MDG_##d##_##s##_OFFSET = byte,
#include "midgard_desc_list.h"
};

/* Fields: MDG_JOB_HEADER_TYPE, MDG_DRAW_STATE ..., each relative to the
 * start of its own descriptor. */
enum mdg_field_id {
#define MDG_FIELD(d, f, name, byte, lsb, bits, kind, e) MDG_##d##_##f,
#include "midgard_desc_list.h"
	MDG_NUM_FIELDS
};

/* How a field's bits hold its value. */
enum mdg_field_kind {
	MDG_FIELD_UINT,
	MDG_FIELD_INT,               /* two's complement */
	MDG_FIELD_BOOL,
	MDG_FIELD_ADDRESS,
	MDG_FIELD_ADDRESS_SHR4,      /* a 16-byte aligned address >> 4 */
	MDG_FIELD_ADDRESS_SHR6,      /* a 64-byte aligned address >> 6 */
	MDG_FIELD_MINUS1,            /* the value minus one (never 0) */
};

struct mdg_field_info {
	const char *name;
	enum mdg_desc_id desc;
	uint16_t byte;               /* from the descriptor's start */
	uint8_t lsb, bits;           /* from that byte, little-endian */
	enum mdg_field_kind kind;
	enum mdg_enum_id values;     /* MDG_ENUM_NONE: a number */
};

struct mdg_section_info {
	const char *name;
	enum mdg_desc_id desc, of;   /* desc embeds `of` at byte */
	uint16_t byte;
};

struct mdg_desc_info {
	const char *name;
	uint32_t bytes;
};

const struct mdg_field_info *mdg_field_info(enum mdg_field_id f);
const struct mdg_desc_info *mdg_desc_info(enum mdg_desc_id d);
/* The name of @value in enum @e, NULL when it has none. */
const char *mdg_enum_name(enum mdg_enum_id e, uint64_t value);
/* An exception code's name: "DONE", "TRANSLATION_FAULT_2" ... or NULL. */
const char *mdg_exception_name(uint32_t code);

/*
 * A field's value in the descriptor at @desc (its first byte): the
 * number, address or flag it holds (MINUS1 and ADDRESS_SHR* undone; INT
 * sign-extended to 64 bits).
 */
uint64_t mdg_get(const uint8_t *desc, enum mdg_field_id f);

/*
 * Stores @value into a field of the descriptor at @desc, leaving the other
 * bits alone. False, with nothing written, when it does not fit: too wide,
 * 0 for MINUS1, an ADDRESS_SHR4 (SHR6) not 16- (64-) byte aligned.
 */
bool mdg_set(uint8_t *desc, enum mdg_field_id f, uint64_t value);

/* ---- Printing (midgard_desc_table.c) and decoding job chains ---------- */

/* Where printed lines go (no newline at the end of @text). */
struct mdg_printer {
	void (*line)(void *ctx, const char *text);
	void *ctx;
};

/* One line, indented by @indent levels, printf-style. */
void mdg_print_line(const struct mdg_printer *p, unsigned int indent,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * Prints every field of descriptor @d at @bytes (and the descriptors it
 * embeds), one per line with enum names, indented by @indent levels, and
 * any set bit no field covers.
 */
void mdg_desc_print(const struct mdg_printer *p, enum mdg_desc_id d,
		    const uint8_t *bytes, unsigned int indent);

/* GPU memory for the decoder: false when [va, va + size) cannot be read. */
struct mdg_memory {
	bool (*read)(void *ctx, uint64_t va, void *dst, size_t size);
	void *ctx;
};

/*
 * Prints the job chain starting at @first_job, as Mesa's pandecode does:
 * each job's header and payload and, for compute jobs, the invocation in
 * words, the renderer state, local storage, UBOs and push uniforms they
 * point to (midgard_job_decode.c). Returns the number of jobs printed;
 * a job that cannot be read ends the walk with a line saying so.
 */
unsigned int mdg_decode_jobs(const struct mdg_printer *p,
			     const struct mdg_memory *mem, uint64_t first_job);

/* ---- Packers for the descriptors the stack builds ---------------------- */

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
	/* Image tables (docs/hardware.md §4.10), 0 when none: the array of
	 * texture descriptor pointers, the sampler descriptors, the
	 * attribute records and the attribute buffers. */
	uint64_t textures;
	uint64_t samplers;
	uint64_t attributes;
	uint64_t attribute_buffers;
};

/*
 * Packs an Invocation descriptor (docs/hardware.md §4.3); false, with
 * nothing written, when the sizes need more than 32 bits or one is 0.
 */
bool mdg_pack_invocation(const uint32_t local_size[3],
			 const uint32_t num_groups[3],
			 uint8_t out[MDG_INVOCATION_BYTES]);

/*
 * A job header alone (docs/hardware.md §4.1): the whole of a NULL job, or the
 * start of a job whose payload the caller writes after it. Write-back fields
 * zero.
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

/*
 * The work-group size and count an Invocation descriptor holds; false
 * when its shifts are out of order or past 32 bits, or a size does not
 * fit 32 bits.
 */
bool mdg_unpack_invocation(const uint8_t inv[MDG_INVOCATION_BYTES],
			   uint32_t local_size[3], uint32_t num_groups[3]);

/* Writes a whole compute job (184 bytes); false if the sizes do not fit. */
bool mdg_pack_compute_job(const struct mdg_compute_job *job,
			  uint8_t out[MDG_COMPUTE_JOB_BYTES]);

/*
 * A WRITE_VALUE job (docs/hardware.md §4.2): header + payload, 64 bytes with
 * padding. It stores a value of `type` (MDG_WRITE_VALUE_TYPE_*) at `target`
 * when it runs.
 */

struct mdg_write_value_job {
	unsigned int index;          /* 1..65535 */
	unsigned int dep1, dep2;     /* job indices, 0 = none */
	uint64_t next;               /* next job header, 0 = end of chain */
	uint64_t target;             /* 8-byte aligned GPU address */
	unsigned int type;
};

void mdg_pack_write_value_job(const struct mdg_write_value_job *job,
			      uint8_t out[MDG_WRITE_VALUE_JOB_BYTES]);

/*
 * The Exception Status the GPU wrote back into a job header (docs/hardware.md
 * §4.1).
 */
uint32_t mdg_job_exception_status(const uint8_t header[MDG_JOB_HEADER_BYTES]);

struct mdg_renderer_state {
	uint64_t shader;             /* code address, 16-byte aligned */
	unsigned int first_tag;
	unsigned int work_regs;      /* 0-16 */
	unsigned int uniform_vec4;   /* pushed uniforms, r23 downwards */
	unsigned int ubo_count;
	bool barrier;                /* shader contains a barrier */
	bool side_effects;           /* shader writes memory */
	unsigned int fp_mode;        /* 0 GL, 2 CL (docs/hardware.md §4.4) */
	/* Entries of the Draw's texture, sampler and attribute tables. */
	unsigned int texture_count;
	unsigned int sampler_count;
	unsigned int attribute_count;
};

void mdg_pack_renderer_state(const struct mdg_renderer_state *rsd,
			     uint8_t out[MDG_RENDERER_STATE_BYTES]);

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
void mdg_pack_ubo(uint64_t address, uint32_t size,
		  uint8_t out[MDG_UNIFORM_BUFFER_BYTES]);

#endif
