/* SPDX-License-Identifier: MIT */
/*
 * The texture unit: one texture operation for one thread, from the job's
 * texture and sampler tables to the four result components. It knows the
 * descriptors (docs/hardware.md §4.10) and nothing of registers or
 * bundles: sgpu_tex_word.c turns a decoded texture word and a thread's
 * r28/r29 into a query and writes the result back, for both engines.
 *
 * Every guest-controlled field is checked; a texture the model cannot
 * read faults the job with DATA_INVALID_FAULT (the reason goes to the
 * guest-error callback), and every byte it reads goes through the
 * caller's memory callback, so a bad pointer faults as a bad load does.
 * The choices made where the hardware is unknown are in qemu/README.md
 * ("Texture unit").
 */
#ifndef SLEIPNIR_SGPU_TEXTURE_H
#define SLEIPNIR_SGPU_TEXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How the unit reaches GPU memory and reports a guest's mistake. */
struct sgpu_tex_env {
	/* Reads len bytes at GPU VA va: 0 or the exception code. */
	uint32_t (*read)(void *ctx, uint64_t va, void *dst, size_t len);
	/* Why a job faults (printf-style); may be NULL. */
	void (*error)(void *ctx, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
	void *ctx;
};

/* The job's tables (Draw Textures/Samplers, RSD counts, §4.3-§4.4). */
struct sgpu_tex_tables {
	uint64_t textures;           /* array of 64-bit texture pointers */
	uint64_t samplers;           /* array of 32-byte samplers */
	uint32_t texture_count, sampler_count;
};

/* One operation, as the texture word and its registers give it. */
struct sgpu_tex_query {
	unsigned int op;             /* MDG_TEX_OP_NORMAL, _GRADIENT, _FETCH */
	unsigned int dimension;      /* [19:18]: MDG_TEXTURE_DIMENSION_* */
	uint32_t texture, sampler;   /* table indices */
	/*
	 * x, y, z and the array index in w: fp32 bit patterns, or signed
	 * integers for a texel fetch.
	 */
	uint32_t coord[4];
	int32_t offset[3];           /* texel offsets, added to x, y, z */
	/*
	 * Normal: LOD bias; gradient: the LOD; both in 1/256ths. Fetch: the
	 * level, an integer.
	 */
	int32_t lod;
};

/* What one operation cost the texture pipe (the cycle model). */
struct sgpu_tex_cost {
	unsigned int cycles;         /* 1 per bilinear footprint */
	unsigned int texels;         /* texels read */
};

/*
 * Runs @q: 0 with the four components in out[] (fp32 bit patterns for
 * normalised and float formats, integers for integer formats), or the
 * exception code the job fails with.
 */
uint32_t sgpu_texture_run(const struct sgpu_tex_env *env,
			  const struct sgpu_tex_tables *tab,
			  const struct sgpu_tex_query *q, uint32_t out[4],
			  struct sgpu_tex_cost *cost);

/*
 * Where texel (x & 15, y & 15) lies within its 16x16 u-interleaved tile,
 * counted in texels (docs/hardware.md §4.10); exposed for the tests.
 */
unsigned int sgpu_tex_uinterleave(unsigned int x, unsigned int y);

#endif
