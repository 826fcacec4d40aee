/* SPDX-License-Identifier: MIT */
/*
 * Packs the descriptors the stack builds (midgard_desc.h), field by field
 * through the description. The formulas follow docs/hardware.md
 * §4.3-§4.6, which records how Mesa packs the same descriptors for the
 * same hardware.
 */
#include <string.h>

#include "midgard_desc.h"

/* ceil(log2(v)): the bits needed to hold v - 1 (0 for v <= 1). */
static unsigned int log2_ceil(uint64_t v)
{
	unsigned int n = 0;

	while (n < 63 && (1ull << n) < v)
		n++;
	return n;
}

bool mdg_pack_invocation(const uint32_t local_size[3],
			 const uint32_t num_groups[3],
			 uint8_t out[MDG_INVOCATION_BYTES])
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
	memset(out, 0, MDG_INVOCATION_BYTES);
	mdg_set(out, MDG_INVOCATION_INVOCATIONS, packed);
	mdg_set(out, MDG_INVOCATION_SIZE_Y_SHIFT, shift[1]);
	mdg_set(out, MDG_INVOCATION_SIZE_Z_SHIFT, shift[2]);
	mdg_set(out, MDG_INVOCATION_WORKGROUPS_X_SHIFT, shift[3]);
	mdg_set(out, MDG_INVOCATION_WORKGROUPS_Y_SHIFT, shift[4]);
	mdg_set(out, MDG_INVOCATION_WORKGROUPS_Z_SHIFT, shift[5]);
	/* The thread group split equals the workgroups X shift, which
	 * barriers need (its 4 bits). */
	mdg_set(out, MDG_INVOCATION_THREAD_GROUP_SPLIT, shift[3] & 0xF);
	return true;
}

bool mdg_unpack_invocation(const uint8_t inv[MDG_INVOCATION_BYTES],
			   uint32_t local_size[3], uint32_t num_groups[3])
{
	uint32_t word = (uint32_t)mdg_get(inv, MDG_INVOCATION_INVOCATIONS);
	unsigned int shift[7] = {
		0,
		(unsigned int)mdg_get(inv, MDG_INVOCATION_SIZE_Y_SHIFT),
		(unsigned int)mdg_get(inv, MDG_INVOCATION_SIZE_Z_SHIFT),
		(unsigned int)mdg_get(inv, MDG_INVOCATION_WORKGROUPS_X_SHIFT),
		(unsigned int)mdg_get(inv, MDG_INVOCATION_WORKGROUPS_Y_SHIFT),
		(unsigned int)mdg_get(inv, MDG_INVOCATION_WORKGROUPS_Z_SHIFT),
		32,
	};
	uint32_t *out[6] = { &local_size[0], &local_size[1], &local_size[2],
			     &num_groups[0], &num_groups[1], &num_groups[2] };

	for (int i = 0; i < 6; i++) {
		unsigned int lo = shift[i], hi = shift[i + 1];
		uint64_t bits;

		if (hi < lo || hi > 32)
			return false;
		/* Each value minus one, in bits [lo, hi); a 1 takes none. */
		bits = ((uint64_t)word >> lo) & ((1ull << (hi - lo)) - 1);
		if (bits == UINT32_MAX)
			return false;
		*out[i] = (uint32_t)bits + 1;
	}
	return true;
}

/*
 * The 32-byte header every job starts with (docs/hardware.md §4.1), 64-bit
 * format.
 */
static void pack_header(uint8_t *out, unsigned int type, bool barrier,
			unsigned int index, unsigned int dep1,
			unsigned int dep2, uint64_t next)
{
	mdg_set(out, MDG_JOB_HEADER_IS_64B, 1);
	mdg_set(out, MDG_JOB_HEADER_TYPE, type & 0x7F);
	mdg_set(out, MDG_JOB_HEADER_BARRIER, barrier);
	mdg_set(out, MDG_JOB_HEADER_INDEX, index & 0xFFFF);
	mdg_set(out, MDG_JOB_HEADER_DEPENDENCY_1, dep1 & 0xFFFF);
	mdg_set(out, MDG_JOB_HEADER_DEPENDENCY_2, dep2 & 0xFFFF);
	mdg_set(out, MDG_JOB_HEADER_NEXT, next);
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
	uint8_t *payload = out + MDG_WRITE_VALUE_JOB_PAYLOAD_OFFSET;

	memset(out, 0, MDG_WRITE_VALUE_JOB_BYTES);
	pack_header(out, MDG_JOB_TYPE_WRITE_VALUE, false, job->index,
		    job->dep1, job->dep2, job->next);
	mdg_set(payload, MDG_WRITE_VALUE_PAYLOAD_ADDRESS, job->target);
	mdg_set(payload, MDG_WRITE_VALUE_PAYLOAD_TYPE, job->type);
}

uint32_t mdg_job_exception_status(const uint8_t header[MDG_JOB_HEADER_BYTES])
{
	return (uint32_t)mdg_get(header, MDG_JOB_HEADER_EXCEPTION_STATUS);
}

bool mdg_pack_compute_job(const struct mdg_compute_job *job,
			  uint8_t out[MDG_COMPUTE_JOB_BYTES])
{
	uint8_t inv[MDG_INVOCATION_BYTES];
	uint8_t *params = out + MDG_COMPUTE_JOB_PARAMETERS_OFFSET;
	uint8_t *draw = out + MDG_COMPUTE_JOB_DRAW_OFFSET;
	unsigned int split = 0;

	if (!mdg_pack_invocation(job->local_size, job->num_groups, inv))
		return false;
	memset(out, 0, MDG_COMPUTE_JOB_BYTES);
	pack_header(out, MDG_JOB_TYPE_COMPUTE, job->barrier, job->index,
		    job->dep1, job->dep2, job->next);
	memcpy(out + MDG_COMPUTE_JOB_INVOCATION_OFFSET, inv, sizeof(inv));
	/* Job Task Split, as Mesa computes it for a launch. */
	for (int i = 0; i < 3; i++)
		split += log2_ceil(job->local_size[i] + 1);
	mdg_set(params, MDG_COMPUTE_PARAMETERS_JOB_TASK_SPLIT, split & 0xF);
	/* Four components per vertex, 64-bit draw and texture descriptors. */
	mdg_set(draw, MDG_DRAW_FOUR_COMPONENTS_PER_VERTEX, 1);
	mdg_set(draw, MDG_DRAW_DRAW_DESCRIPTOR_IS_64B, 1);
	mdg_set(draw, MDG_DRAW_TEXTURE_DESCRIPTOR_IS_64B, 1);
	mdg_set(draw, MDG_DRAW_UNIFORM_BUFFERS, job->uniform_buffers);
	mdg_set(draw, MDG_DRAW_PUSH_UNIFORMS, job->push_uniforms);
	mdg_set(draw, MDG_DRAW_STATE, job->rsd);
	mdg_set(draw, MDG_DRAW_THREAD_STORAGE, job->thread_storage);
	mdg_set(draw, MDG_DRAW_TEXTURES, job->textures);
	mdg_set(draw, MDG_DRAW_SAMPLERS, job->samplers);
	mdg_set(draw, MDG_DRAW_ATTRIBUTES, job->attributes);
	mdg_set(draw, MDG_DRAW_ATTRIBUTE_BUFFERS, job->attribute_buffers);
	return true;
}

void mdg_pack_renderer_state(const struct mdg_renderer_state *rsd,
			     uint8_t out[MDG_RENDERER_STATE_BYTES])
{
	memset(out, 0, MDG_RENDERER_STATE_BYTES);
	mdg_set(out, MDG_RENDERER_STATE_SHADER, rsd->shader & ~0xFull);
	mdg_set(out, MDG_RENDERER_STATE_FIRST_TAG, rsd->first_tag & 0xF);
	mdg_set(out, MDG_RENDERER_STATE_UNIFORM_BUFFER_COUNT,
		rsd->ubo_count & 0xFF);
	mdg_set(out, MDG_RENDERER_STATE_SHADER_CONTAINS_BARRIER, rsd->barrier);
	mdg_set(out, MDG_RENDERER_STATE_SHADER_HAS_SIDE_EFFECTS,
		rsd->side_effects);
	mdg_set(out, MDG_RENDERER_STATE_WORK_REGISTER_COUNT,
		rsd->work_regs & 0x1F);
	mdg_set(out, MDG_RENDERER_STATE_UNIFORM_COUNT, rsd->uniform_vec4 & 0x1F);
	mdg_set(out, MDG_RENDERER_STATE_FP_MODE, rsd->fp_mode & 7);
	mdg_set(out, MDG_RENDERER_STATE_TEXTURE_COUNT,
		rsd->texture_count & 0xFFFF);
	mdg_set(out, MDG_RENDERER_STATE_SAMPLER_COUNT,
		rsd->sampler_count & 0xFFFF);
	mdg_set(out, MDG_RENDERER_STATE_ATTRIBUTE_COUNT,
		rsd->attribute_count & 0xFFFF);
}

void mdg_pack_local_storage(const struct mdg_local_storage *ls,
			    uint8_t out[MDG_LOCAL_STORAGE_BYTES])
{
	memset(out, 0, MDG_LOCAL_STORAGE_BYTES);
	if (ls->tls_base && ls->tls_bytes_per_thread)
		mdg_set(out, MDG_LOCAL_STORAGE_TLS_SIZE,
			log2_ceil((ls->tls_bytes_per_thread + 15) / 16));
	if (ls->wls_base && ls->wls_bytes_per_group) {
		uint64_t instance = ls->wls_bytes_per_group < 128 ? 128 :
				    ls->wls_bytes_per_group;

		mdg_set(out, MDG_LOCAL_STORAGE_WLS_INSTANCES,
			log2_ceil(ls->wls_instances ? ls->wls_instances : 1));
		mdg_set(out, MDG_LOCAL_STORAGE_WLS_SIZE_SCALE,
			log2_ceil(instance) + 1);
	} else {
		/* "No workgroup memory": instances 2^31. */
		mdg_set(out, MDG_LOCAL_STORAGE_WLS_INSTANCES, 0x1F);
	}
	mdg_set(out, MDG_LOCAL_STORAGE_TLS_BASE_POINTER, ls->tls_base);
	mdg_set(out, MDG_LOCAL_STORAGE_WLS_BASE_POINTER, ls->wls_base);
}

uint64_t mdg_tls_total(uint32_t bytes_per_thread, unsigned int cores)
{
	uint64_t per = 16ull << log2_ceil((bytes_per_thread + 15) / 16);

	return per * 256 * cores;
}

void mdg_pack_ubo(uint64_t address, uint32_t size,
		  uint8_t out[MDG_UNIFORM_BUFFER_BYTES])
{
	uint64_t entries = (size + 15) / 16;

	memset(out, 0, MDG_UNIFORM_BUFFER_BYTES);
	mdg_set(out, MDG_UNIFORM_BUFFER_ENTRIES, entries ? entries : 1);
	mdg_set(out, MDG_UNIFORM_BUFFER_POINTER, address & ~0xFull);
}
