/* SPDX-License-Identifier: MIT */
/*
 * Packs Midgard compute job descriptors (midgard_desc.h). The formulas
 * follow the fact sheet §4.3-§4.6, which records how Mesa packs the same
 * descriptors for the same hardware.
 */
#include <string.h>

#include "midgard_desc.h"

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* ceil(log2(v)): the bits needed to hold v - 1 (0 for v <= 1). */
static unsigned int log2_ceil(uint64_t v)
{
	unsigned int n = 0;

	while (n < 63 && (1ull << n) < v)
		n++;
	return n;
}

bool mdg_pack_invocation(const uint32_t local_size[3],
			 const uint32_t num_groups[3], uint32_t out[2])
{
	const uint32_t v[6] = { local_size[0], local_size[1], local_size[2],
				num_groups[0], num_groups[1], num_groups[2] };
	unsigned int shift[7] = { 0 };
	uint64_t packed = 0;

	for (int i = 0; i < 6; i++) {
		if (!v[i])
			return false;
		packed |= (uint64_t)(v[i] - 1) << shift[i];
		shift[i + 1] = shift[i] + log2_ceil(v[i]);
	}
	if (shift[6] > 32)
		return false;
	out[0] = (uint32_t)packed;
	/*
	 * Size Y, Size Z, Workgroups X/Y/Z shifts; the thread group split
	 * equals the workgroups X shift, which barriers need.
	 */
	out[1] = shift[1] | shift[2] << 5 | shift[3] << 10 | shift[4] << 16 |
		 shift[5] << 22 | (uint32_t)(shift[3] & 0xF) << 28;
	return true;
}

/* The 32-byte header every job starts with (§4.1), 64-bit format. */
static void pack_header(uint8_t *out, unsigned int type, bool barrier,
			unsigned int index, unsigned int dep1,
			unsigned int dep2, uint64_t next)
{
	put32(out + MDG_JOB_CONTROL, 1u | (type & 0x7F) << 1 |
				     (barrier ? 1u << 8 : 0) |
				     (uint32_t)index << 16);
	put32(out + 0x14, (dep1 & 0xFFFF) | (dep2 & 0xFFFF) << 16);
	put64(out + MDG_JOB_NEXT, next);
}

void mdg_pack_job_header(const struct mdg_job_header *hdr,
			 uint8_t out[MDG_JOB_HEADER_BYTES])
{
	memset(out, 0, MDG_JOB_HEADER_BYTES);
	pack_header(out, hdr->type, hdr->barrier, hdr->index, hdr->dep1,
		    hdr->dep2, hdr->next);
}

void mdg_pack_write_value_job(const struct mdg_write_value_job *job,
			      uint8_t out[MDG_WRITE_VALUE_JOB_BYTES])
{
	memset(out, 0, MDG_WRITE_VALUE_JOB_BYTES);
	pack_header(out, MDG_JOB_TYPE_WRITE_VALUE, false, job->index,
		    job->dep1, job->dep2, job->next);
	/* Payload: address, then the type (§4.2). */
	put64(out + 0x20, job->target);
	put32(out + MDG_WRITE_VALUE_TYPE, job->type);
}

uint32_t mdg_job_exception_status(const uint8_t header[MDG_JOB_HEADER_BYTES])
{
	return (uint32_t)header[0] | (uint32_t)header[1] << 8 |
	       (uint32_t)header[2] << 16 | (uint32_t)header[3] << 24;
}

bool mdg_pack_compute_job(const struct mdg_compute_job *job,
			  uint8_t out[MDG_COMPUTE_JOB_BYTES])
{
	uint32_t inv[2];
	unsigned int split = 0;

	if (!mdg_pack_invocation(job->local_size, job->num_groups, inv))
		return false;
	memset(out, 0, MDG_COMPUTE_JOB_BYTES);
	pack_header(out, MDG_JOB_TYPE_COMPUTE, job->barrier, job->index,
		    job->dep1, job->dep2, job->next);
	put32(out + MDG_JOB_INVOCATION, inv[0]);
	put32(out + MDG_JOB_INVOCATION + 4, inv[1]);
	/* Job Task Split, as Mesa computes it for a launch. */
	for (int i = 0; i < 3; i++)
		split += log2_ceil(job->local_size[i] + 1);
	put32(out + MDG_JOB_PARAMETERS, (split & 0xF) << 26);
	/* Four components per vertex, 64-bit draw and texture descriptors. */
	put32(out + MDG_JOB_DRAW, 0x7);
	put64(out + MDG_DRAW_UNIFORM_BUFFERS, job->uniform_buffers);
	put64(out + MDG_DRAW_PUSH_UNIFORMS, job->push_uniforms);
	put64(out + MDG_DRAW_STATE, job->rsd);
	put64(out + MDG_DRAW_THREAD_STORAGE, job->thread_storage);
	return true;
}

void mdg_pack_renderer_state(const struct mdg_renderer_state *rsd,
			     uint8_t out[MDG_RSD_BYTES])
{
	uint32_t props;

	memset(out, 0, MDG_RSD_BYTES);
	put64(out, (rsd->shader & ~0xFull) | (rsd->first_tag & 0xF));
	props = (rsd->ubo_count & 0xFF) |
		(rsd->barrier ? 1u << 11 : 0) |
		(rsd->side_effects ? 1u << 13 : 0) |
		(rsd->work_regs & 0x1F) << 16 |
		(rsd->uniform_vec4 & 0x1F) << 21 |
		(rsd->fp_mode & 7) << 29;
	put32(out + 0x10, props);
}

void mdg_pack_local_storage(const struct mdg_local_storage *ls,
			    uint8_t out[MDG_LOCAL_STORAGE_BYTES])
{
	uint32_t tls_size = 0, wls = 0x1F;

	memset(out, 0, MDG_LOCAL_STORAGE_BYTES);
	if (ls->tls_base && ls->tls_bytes_per_thread)
		tls_size = log2_ceil((ls->tls_bytes_per_thread + 15) / 16);
	if (ls->wls_base && ls->wls_bytes_per_group) {
		uint64_t instance = ls->wls_bytes_per_group < 128 ? 128 :
				    ls->wls_bytes_per_group;

		wls = log2_ceil(ls->wls_instances ? ls->wls_instances : 1) |
		      (log2_ceil(instance) + 1) << 8;
	}
	put32(out, tls_size);
	put32(out + 4, wls);
	put64(out + 8, ls->tls_base);
	put64(out + 16, ls->wls_base);
}

uint64_t mdg_tls_total(uint32_t bytes_per_thread, unsigned int cores)
{
	uint64_t per = 16ull << log2_ceil((bytes_per_thread + 15) / 16);

	return per * 256 * cores;
}

void mdg_pack_ubo(uint64_t address, uint32_t size, uint8_t out[8])
{
	uint64_t entries = (size + 15) / 16;

	if (!entries)
		entries = 1;
	put64(out, (entries - 1) | (address >> 4) << 12);
}
