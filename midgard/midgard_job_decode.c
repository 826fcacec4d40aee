/* SPDX-License-Identifier: MIT */
/*
 * A job-chain decoder for people, like Mesa's pandecode: walks a chain
 * through GPU memory (a callback) and prints each job and what a compute
 * job points to, through the descriptor description. The OpenCL runtime
 * prints what it submits with it (SLEIPNIR_DEBUG=jobs) and the model what
 * it runs (its job trace), so both read the same way.
 */
#include <inttypes.h>
#include <stdio.h>

#include "midgard_desc.h"

/* Longer chains than the 16-bit job index allows are a loop. */
#define MAX_JOBS 65536u
/* Push uniforms and UBOs printed per job at most. */
#define MAX_PUSH_VEC4 32u
#define MAX_UBOS 32u

/* Reads descriptor @d at @va and prints it under @title; false (and a
 * line saying so) when it cannot be read. */
static bool print_at(const struct mdg_printer *p, const struct mdg_memory *m,
		     const char *title, enum mdg_desc_id d, uint64_t va,
		     unsigned int indent, uint8_t *bytes)
{
	uint32_t size = mdg_desc_info(d)->bytes;

	if (!m->read(m->ctx, va, bytes, size)) {
		mdg_print_line(p, indent, "%s @ 0x%" PRIx64
			       ": cannot be read", title, va);
		return false;
	}
	mdg_print_line(p, indent, "%s @ 0x%" PRIx64 ":", title, va);
	mdg_desc_print(p, d, bytes, indent + 1);
	return true;
}

/* The six sizes the Invocation word packs (mdg_pack_invocation). */
static void print_grid(const struct mdg_printer *p, const uint8_t *inv,
		       unsigned int indent)
{
	uint32_t l[3], g[3];

	if (!mdg_unpack_invocation(inv, l, g))
		mdg_print_line(p, indent, "work-group size and count: shifts "
			       "out of order or too wide");
	else
		mdg_print_line(p, indent, "work-group size %ux%ux%u, count "
			       "%ux%ux%u", l[0], l[1], l[2], g[0], g[1], g[2]);
}

/* What the draw descriptor of a compute job points to. */
static void print_compute_state(const struct mdg_printer *p,
				const struct mdg_memory *m,
				const uint8_t *draw, unsigned int indent)
{
	uint8_t rsd[MDG_RENDERER_STATE_BYTES], ls[MDG_LOCAL_STORAGE_BYTES];
	uint64_t ubos = mdg_get(draw, MDG_DRAW_UNIFORM_BUFFERS);
	uint64_t push = mdg_get(draw, MDG_DRAW_PUSH_UNIFORMS);
	unsigned int ubo_count = 0, push_vec4 = 0;

	if (print_at(p, m, "Renderer State", MDG_DESC_RENDERER_STATE,
		     mdg_get(draw, MDG_DRAW_STATE), indent, rsd)) {
		ubo_count = (unsigned int)
			mdg_get(rsd, MDG_RENDERER_STATE_UNIFORM_BUFFER_COUNT);
		push_vec4 = (unsigned int)
			mdg_get(rsd, MDG_RENDERER_STATE_UNIFORM_COUNT);
	}
	print_at(p, m, "Local Storage", MDG_DESC_LOCAL_STORAGE,
		 mdg_get(draw, MDG_DRAW_THREAD_STORAGE), indent, ls);
	for (unsigned int i = 0; i < ubo_count && i < MAX_UBOS; i++) {
		uint8_t ubo[MDG_UNIFORM_BUFFER_BYTES];
		char title[32];

		snprintf(title, sizeof(title), "Uniform Buffer %u", i);
		if (!print_at(p, m, title, MDG_DESC_UNIFORM_BUFFER,
			      ubos + i * (uint64_t)MDG_UNIFORM_BUFFER_BYTES,
			      indent, ubo))
			break;
	}
	for (unsigned int i = 0; i < push_vec4 && i < MAX_PUSH_VEC4; i++) {
		uint32_t w[4];
		uint64_t va = push + 16ull * i;

		if (!m->read(m->ctx, va, w, sizeof(w))) {
			mdg_print_line(p, indent, "Push uniforms @ 0x%" PRIx64
				       ": cannot be read", va);
			break;
		}
		/* Little-endian words; the host is too (as the model's). */
		mdg_print_line(p, indent, "Push uniform %u (r%u): 0x%08x "
			       "0x%08x 0x%08x 0x%08x", i, 23 - i, w[0], w[1],
			       w[2], w[3]);
	}
}

unsigned int mdg_decode_jobs(const struct mdg_printer *p,
			     const struct mdg_memory *m, uint64_t first_job)
{
	uint64_t va = first_job;
	unsigned int n = 0;

	while (va && n < MAX_JOBS) {
		uint8_t job[MDG_COMPUTE_JOB_BYTES];
		uint64_t type;
		const char *type_name;
		enum mdg_desc_id d;

		if (!m->read(m->ctx, va, job, MDG_JOB_HEADER_BYTES)) {
			mdg_print_line(p, 0, "Job @ 0x%" PRIx64
				       ": cannot be read", va);
			break;
		}
		type = mdg_get(job, MDG_JOB_HEADER_TYPE);
		type_name = mdg_enum_name(MDG_ENUM_JOB_TYPE, type);
		d = type == MDG_JOB_TYPE_COMPUTE ? MDG_DESC_COMPUTE_JOB :
		    type == MDG_JOB_TYPE_WRITE_VALUE ? MDG_DESC_WRITE_VALUE_JOB :
		    type == MDG_JOB_TYPE_CACHE_FLUSH ? MDG_DESC_CACHE_FLUSH_JOB :
		    MDG_DESC_JOB_HEADER;
		mdg_print_line(p, 0, "%s job @ 0x%" PRIx64 ", index %" PRIu64
			       ":", type_name ? type_name : "Unknown", va,
			       mdg_get(job, MDG_JOB_HEADER_INDEX));
		if (d != MDG_DESC_JOB_HEADER &&
		    !m->read(m->ctx, va, job, mdg_desc_info(d)->bytes)) {
			mdg_print_line(p, 1, "its payload cannot be read");
			d = MDG_DESC_JOB_HEADER;
		}
		mdg_desc_print(p, d, job, 1);
		if (d == MDG_DESC_COMPUTE_JOB) {
			print_grid(p, job + MDG_COMPUTE_JOB_INVOCATION_OFFSET,
				   1);
			print_compute_state(p, m,
					    job + MDG_COMPUTE_JOB_DRAW_OFFSET,
					    1);
		}
		n++;
		va = mdg_get(job, MDG_JOB_HEADER_NEXT);
	}
	if (va && n == MAX_JOBS)
		mdg_print_line(p, 0, "more than %u jobs: a loop?", MAX_JOBS);
	return n;
}
