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

/* A pixel format the unit reads and writes (docs/hardware.md §4.10). */
enum sgpu_tex_kind {
	SGPU_TEX_UNORM, SGPU_TEX_SNORM, SGPU_TEX_UINT, SGPU_TEX_SINT,
	SGPU_TEX_FLOAT,
};

struct sgpu_tex_format {
	enum sgpu_tex_kind kind;
	unsigned int comps;          /* 1-4 channels in memory */
	unsigned int bits;           /* per channel: 8, 16, 32 */
	unsigned int bytes;          /* per texel */
	uint8_t swizzle[4];          /* the format swizzle, channel codes */
};

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
 * Decodes a 22-bit pixel format word; false for one the model does not
 * read or write (sRGB, big-endian, packed, compressed, 1/2/4/64-bit
 * channels, bad swizzle codes).
 */
bool sgpu_tex_format_decode(uint32_t pixfmt, struct sgpu_tex_format *f);

/*
 * The texel at raw as the format's swizzle presents it: fp32 bit patterns
 * for normalised and float formats, integers for integer formats.
 */
void sgpu_tex_unpack(const struct sgpu_tex_format *f, const uint8_t *raw,
		     uint32_t out[4]);

/*
 * Packs four channels (as sgpu_tex_unpack gives them) into the f->bytes
 * at raw, the format swizzle undone, with OpenCL's write_image
 * conversions: normalised values rounded to nearest even and saturated,
 * integers saturated, half rounded to nearest even.
 */
void sgpu_tex_pack(const struct sgpu_tex_format *f, const uint32_t in[4],
		   uint8_t *raw);

/*
 * Where texel (x & 15, y & 15) lies within its 16x16 u-interleaved tile,
 * counted in texels (docs/hardware.md §4.10); exposed for the tests.
 */
unsigned int sgpu_tex_uinterleave(unsigned int x, unsigned int y);

#endif
