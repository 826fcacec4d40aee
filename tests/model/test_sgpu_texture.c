/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the model's texture unit (qemu/model/sgpu_texture.c)
 * against a reference written here from the OpenCL 1.2 specification
 * (§8.2 and §8.3: the addressing and filter formulas, the conversion
 * rules of each channel type) and Mesa's layout rules (docs/hardware.md
 * §4.10): every format OpenCL images need, every filter and wrap mode,
 * normalised and unnormalised coordinates, 1D, 2D, 3D and arrays, linear,
 * strided and u-interleaved surfaces, texel fetches; and the faults a bad
 * descriptor or pointer raises.
 *
 * The sample coordinates are dyadic and the sizes powers of two, so the
 * specification's real-number formulas are exact in float and the
 * hardware's 8-bit filter weights (the model's choice, qemu/README.md)
 * meet them exactly; one test checks that choice on its own.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "float_bits.h"
#include "midgard_desc.h"
#include "midgard_isa.h"
#include "sgpu_texture.h"

CHECK_MAIN_STATE("sgpu_texture");

/* ---- Guest memory: one mapped window; anything else faults ---- */

#define MEM_BASE 0x10000000ull
#define MEM_BYTES (1u << 20)
#define TEX_TABLE (MEM_BASE + 0x000)
#define SMP_TABLE (MEM_BASE + 0x100)
#define DESC_VA (MEM_BASE + 0x400)
#define DATA_VA (MEM_BASE + 0x1000)

static uint8_t mem[MEM_BYTES];
static char last_error[512];
static unsigned int reads_outside;

static uint32_t mem_read(void *ctx, uint64_t va, void *dst, size_t len)
{
	(void)ctx;
	if (va < MEM_BASE || va - MEM_BASE > MEM_BYTES - len) {
		reads_outside++;
		return MDG_EXCEPTION_TRANSLATION_FAULT_1;
	}
	memcpy(dst, mem + (va - MEM_BASE), len);
	return 0;
}

__attribute__((format(printf, 2, 3)))
static void on_error(void *ctx, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

static const struct sgpu_tex_env env = {
	.read = mem_read, .error = on_error, .ctx = NULL,
};

static uint8_t *host(uint64_t va)
{
	return mem + (va - MEM_BASE);
}

static void put64(uint64_t va, uint64_t v)
{
	memcpy(host(va), &v, 8);
}

/* ---- Formats, as OpenCL names them and as the descriptor encodes them */

enum ctype { UNORM, SNORM, UINT, SINT, HALF, FLOAT };

struct tformat {
	const char *name;
	unsigned int mali;           /* v5 Format value */
	unsigned int order;          /* 1 R, 2 RG, 4 RGBA, 5 BGRA */
	enum ctype type;
	unsigned int bytes;          /* per channel */
};

/* Mali format numbers from v5.xml's Format enum, written out. */
static const struct tformat formats[] = {
	{ "R8 UNORM", 163, 1, UNORM, 1 }, { "RG8 UNORM", 171, 2, UNORM, 1 },
	{ "RGBA8 UNORM", 187, 4, UNORM, 1 },
	{ "BGRA8 UNORM", 187, 5, UNORM, 1 },
	{ "R8 SNORM", 99, 1, SNORM, 1 }, { "RG8 SNORM", 107, 2, SNORM, 1 },
	{ "RGBA8 SNORM", 123, 4, SNORM, 1 },
	{ "R16 UNORM", 164, 1, UNORM, 2 }, { "RG16 UNORM", 172, 2, UNORM, 2 },
	{ "RGBA16 UNORM", 188, 4, UNORM, 2 },
	{ "R16 SNORM", 100, 1, SNORM, 2 }, { "RG16 SNORM", 108, 2, SNORM, 2 },
	{ "RGBA16 SNORM", 124, 4, SNORM, 2 },
	{ "R8UI", 131, 1, UINT, 1 }, { "RG8UI", 139, 2, UINT, 1 },
	{ "RGBA8UI", 155, 4, UINT, 1 },
	{ "R16UI", 132, 1, UINT, 2 }, { "RG16UI", 140, 2, UINT, 2 },
	{ "RGBA16UI", 156, 4, UINT, 2 },
	{ "R32UI", 133, 1, UINT, 4 }, { "RG32UI", 141, 2, UINT, 4 },
	{ "RGBA32UI", 157, 4, UINT, 4 },
	{ "R8I", 195, 1, SINT, 1 }, { "RG8I", 203, 2, SINT, 1 },
	{ "RGBA8I", 219, 4, SINT, 1 },
	{ "R16I", 196, 1, SINT, 2 }, { "RG16I", 204, 2, SINT, 2 },
	{ "RGBA16I", 220, 4, SINT, 2 },
	{ "R32I", 197, 1, SINT, 4 }, { "RG32I", 205, 2, SINT, 4 },
	{ "RGBA32I", 221, 4, SINT, 4 },
	{ "R16F", 199, 1, HALF, 2 }, { "RG16F", 207, 2, HALF, 2 },
	{ "RGBA16F", 223, 4, HALF, 2 },
	{ "R32F", 167, 1, FLOAT, 4 }, { "RG32F", 175, 2, FLOAT, 4 },
	{ "RGBA32F", 191, 4, FLOAT, 4 },
};

static unsigned int channels(const struct tformat *f)
{
	return f->order == 5 ? 4 : f->order;
}

static unsigned int texel_bytes(const struct tformat *f)
{
	return channels(f) * f->bytes;
}

static bool is_int(const struct tformat *f)
{
	return f->type == UINT || f->type == SINT;
}

/* Channel codes: R 0, G 1, B 2, A 3, zero 4, one 5; 3 bits each. */
#define SWZ(r, g, b, a) ((r) | (g) << 3 | (b) << 6 | (a) << 9)

/* The format swizzle Mesa pairs with each order (pan_format.c). */
static unsigned int format_swizzle(const struct tformat *f)
{
	switch (f->order) {
	case 1:
		return SWZ(0, 4, 4, 5);
	case 2:
		return SWZ(0, 1, 4, 5);
	case 5:
		return SWZ(2, 1, 0, 3);
	default:
		return SWZ(0, 1, 2, 3);
	}
}

/* ---- Images in guest memory ---- */

struct image {
	const struct tformat *fmt;
	unsigned int dim;            /* 1, 2, 3 */
	uint32_t w, h, d, layers;
	bool tiled, manual;
	uint32_t pad;                /* manual stride: extra bytes a line */
	unsigned int view_swizzle;
	/* Where each layer's texels start, and the strides used. */
	uint64_t layer_va[8];
	int64_t row, slice;
};

static uint32_t rng = 12345;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* Mesa's u-interleave (pan_tiling.c): Y bits doubled, X bits spaced. */
static unsigned int ref_tile_index(unsigned int x, unsigned int y)
{
	static const unsigned int dup[16] = {
		0x00, 0x03, 0x0C, 0x0F, 0x30, 0x33, 0x3C, 0x3F,
		0xC0, 0xC3, 0xCC, 0xCF, 0xF0, 0xF3, 0xFC, 0xFF,
	};
	static const unsigned int space[16] = {
		0x00, 0x01, 0x04, 0x05, 0x10, 0x11, 0x14, 0x15,
		0x40, 0x41, 0x44, 0x45, 0x50, 0x51, 0x54, 0x55,
	};

	return dup[y & 15] ^ space[x & 15];
}

static uint64_t texel_va(const struct image *im, uint32_t x, uint32_t y,
			 uint32_t z, uint32_t layer)
{
	uint64_t b = im->layer_va[layer] + (uint64_t)(z * im->slice);
	unsigned int tb = texel_bytes(im->fmt);

	if (im->tiled) {
		uint32_t aw = (im->w + 15) & ~15u;

		return b + (uint64_t)(y / 16) * aw * 16 * tb +
		       ((uint64_t)(x / 16) * 256 + ref_tile_index(x, y)) * tb;
	}
	return b + (uint64_t)y * (uint64_t)im->row + (uint64_t)x * tb;
}

/* Fills channel c of a texel with a value valid for its type. */
static void fill_channel(const struct tformat *f, uint8_t *p)
{
	if (f->type == FLOAT) {
		float v = (float)((int)(rnd() % 2001) - 1000) / 256.0f;

		memcpy(p, &v, 4);
	} else if (f->type == HALF) {
		_Float16 v = (_Float16)((float)((int)(rnd() % 2001) - 1000) /
					64.0f);

		memcpy(p, &v, 2);
	} else {
		for (unsigned int b = 0; b < f->bytes; b++)
			p[b] = (uint8_t)rnd();
	}
}

/* Lays the image out at DATA_VA and writes its descriptor and table. */
static void build_image(struct image *im)
{
	const struct tformat *f = im->fmt;
	unsigned int tb = texel_bytes(f);
	uint8_t desc[MDG_TEXTURE_BYTES];
	uint64_t va = DATA_VA, size;
	uint32_t aw = (im->w + 15) & ~15u, ah = (im->h + 15) & ~15u;

	memset(mem, 0, sizeof(mem));
	if (im->tiled) {
		im->row = (int64_t)aw * tb;          /* one line */
		im->slice = (int64_t)aw * ah * tb;
	} else {
		im->row = (int64_t)im->w * tb + (im->manual ? im->pad : 0);
		im->slice = im->row * im->h;
	}
	size = (uint64_t)im->slice * im->d;
	for (unsigned int l = 0; l < im->layers; l++) {
		im->layer_va[l] = va;
		va += (size + 63) & ~63ull;
	}
	CHECK(va - MEM_BASE <= MEM_BYTES);
	for (unsigned int l = 0; l < im->layers; l++)
		for (uint32_t z = 0; z < im->d; z++)
			for (uint32_t y = 0; y < im->h; y++)
				for (uint32_t x = 0; x < im->w; x++)
					for (unsigned int c = 0;
					     c < channels(f); c++)
						fill_channel(f, host(
						    texel_va(im, x, y, z, l) +
						    c * f->bytes));

	memset(desc, 0, sizeof(desc));
	CHECK(mdg_set(desc, MDG_TEXTURE_WIDTH, im->w));
	CHECK(mdg_set(desc, MDG_TEXTURE_HEIGHT, im->h));
	CHECK(mdg_set(desc, MDG_TEXTURE_DEPTH, im->d));
	CHECK(mdg_set(desc, MDG_TEXTURE_ARRAY_SIZE, im->layers));
	CHECK(mdg_set(desc, MDG_TEXTURE_FORMAT,
		      format_swizzle(f) | f->mali << 12));
	CHECK(mdg_set(desc, MDG_TEXTURE_DIMENSION, im->dim));
	CHECK(mdg_set(desc, MDG_TEXTURE_TEXEL_ORDERING, im->tiled ?
		      MDG_TEXTURE_LAYOUT_TILED : MDG_TEXTURE_LAYOUT_LINEAR));
	CHECK(mdg_set(desc, MDG_TEXTURE_SURFACE_POINTER_IS_64B, 1));
	CHECK(mdg_set(desc, MDG_TEXTURE_MANUAL_STRIDE, im->manual));
	CHECK(mdg_set(desc, MDG_TEXTURE_LEVELS, 1));
	CHECK(mdg_set(desc, MDG_TEXTURE_SWIZZLE, im->view_swizzle));
	memcpy(host(DESC_VA), desc, sizeof(desc));
	for (unsigned int l = 0; l < im->layers; l++) {
		uint64_t e = DESC_VA + MDG_TEXTURE_BYTES +
			     l * (im->manual ? 16u : 8u);

		put64(e, im->layer_va[l]);
		if (im->manual) {
			int32_t row = (int32_t)im->row;
			int32_t slice = (int32_t)im->slice;

			memcpy(host(e + 8), &row, 4);
			memcpy(host(e + 12), &slice, 4);
		}
	}
	put64(TEX_TABLE, DESC_VA);
}

/* OpenCL's addressing modes, and GL's CLAMP, as the sampler encodes them. */
enum { A_NONE, A_EDGE, A_CLAMP, A_REPEAT, A_MIRROR, A_GLCLAMP };

static const unsigned int wrap_of[] = {
	[A_NONE] = MDG_WRAP_MODE_CLAMP_TO_EDGE,
	[A_EDGE] = MDG_WRAP_MODE_CLAMP_TO_EDGE,
	[A_CLAMP] = MDG_WRAP_MODE_CLAMP_TO_BORDER,
	[A_REPEAT] = MDG_WRAP_MODE_REPEAT,
	[A_MIRROR] = MDG_WRAP_MODE_MIRRORED_REPEAT,
	[A_GLCLAMP] = MDG_WRAP_MODE_CLAMP,
};

static void build_sampler(unsigned int index, unsigned int addr, bool linear,
			  bool normalized, const uint32_t border[4])
{
	uint8_t s[MDG_SAMPLER_BYTES];

	memset(s, 0, sizeof(s));
	CHECK(mdg_set(s, MDG_SAMPLER_MAGNIFY_NEAREST, !linear));
	CHECK(mdg_set(s, MDG_SAMPLER_MINIFY_NEAREST, !linear));
	CHECK(mdg_set(s, MDG_SAMPLER_NORMALIZED_COORDINATES, normalized));
	CHECK(mdg_set(s, MDG_SAMPLER_WRAP_MODE_S, wrap_of[addr]));
	CHECK(mdg_set(s, MDG_SAMPLER_WRAP_MODE_T, wrap_of[addr]));
	CHECK(mdg_set(s, MDG_SAMPLER_WRAP_MODE_R, wrap_of[addr]));
	CHECK(mdg_set(s, MDG_SAMPLER_BORDER_COLOR_R, border[0]));
	CHECK(mdg_set(s, MDG_SAMPLER_BORDER_COLOR_G, border[1]));
	CHECK(mdg_set(s, MDG_SAMPLER_BORDER_COLOR_B, border[2]));
	CHECK(mdg_set(s, MDG_SAMPLER_BORDER_COLOR_A, border[3]));
	memcpy(host(SMP_TABLE + index * MDG_SAMPLER_BYTES), s, sizeof(s));
}

static const struct sgpu_tex_tables tables = {
	.textures = TEX_TABLE, .samplers = SMP_TABLE,
	.texture_count = 1, .sampler_count = 4,
};

/* ---- The reference (OpenCL 1.2 §8.3 conversions, §8.2 addressing) ---- */

/* One texel as OpenCL returns it: float or integer channels, in RGBA. */
struct ref_texel {
	double f[4];
	uint32_t u[4];
};

static void ref_read(const struct image *im, uint32_t x, uint32_t y,
		     uint32_t z, uint32_t layer, struct ref_texel *t)
{
	const struct tformat *f = im->fmt;
	const uint8_t *p = host(texel_va(im, x, y, z, layer));
	double fv[4] = { 0, 0, 0, 1 };
	uint32_t uv[4] = { 0, 0, 0, 1 };

	for (unsigned int c = 0; c < channels(f); c++) {
		const uint8_t *q = p + c * f->bytes;
		uint32_t raw = 0;

		memcpy(&raw, q, f->bytes);
		switch (f->type) {
		case UNORM:
			fv[c] = raw / (f->bytes == 1 ? 255.0 : 65535.0);
			break;
		case SNORM:
			fv[c] = (f->bytes == 1 ? (int8_t)raw : (int16_t)raw) /
				(f->bytes == 1 ? 127.0 : 32767.0);
			if (fv[c] < -1.0)
				fv[c] = -1.0;
			break;
		case UINT:
			uv[c] = raw;
			break;
		case SINT:
			if (f->bytes == 1)
				uv[c] = (uint32_t)(int32_t)(int8_t)raw;
			else if (f->bytes == 2)
				uv[c] = (uint32_t)(int32_t)(int16_t)raw;
			else
				uv[c] = raw;
			break;
		case HALF: {
			_Float16 h;

			memcpy(&h, q, 2);
			fv[c] = (double)h;
			break;
		}
		case FLOAT: {
			float v;

			memcpy(&v, q, 4);
			fv[c] = v;
			break;
		}
		}
	}
	if (f->order == 5) {                 /* memory B, G, R, A */
		double b = fv[0];

		fv[0] = fv[2];
		fv[2] = b;
	}
	memcpy(t->f, fv, sizeof(fv));
	memcpy(t->u, uv, sizeof(uv));
}

/* The border colour OpenCL gives CLK_ADDRESS_CLAMP: 0s, alpha 1 if none. */
static void ref_border(const struct image *im, struct ref_texel *t)
{
	bool alpha = channels(im->fmt) == 4;

	memset(t, 0, sizeof(*t));
	t->f[3] = alpha ? 0.0 : 1.0;
	t->u[3] = alpha ? 0 : 1;
}

/*
 * One axis of §8.2's addressing: the texel indices i0 (nearest) or
 * i0, i1 and the weight a (linear) for coordinate s in an axis of n
 * texels. Indices out of range mean the border (CLK_ADDRESS_CLAMP).
 */
static void ref_axis(unsigned int addr, bool normalized, bool linear,
		     double s, uint32_t n, int64_t *i0, int64_t *i1,
		     double *a)
{
	double u;

	if (addr == A_REPEAT) {
		u = (s - floor(s)) * n;
		if (!linear) {
			*i0 = (int64_t)floor(u);
			if (*i0 > (int64_t)n - 1)
				*i0 -= n;
			return;
		}
		*i0 = (int64_t)floor(u - 0.5);
		*i1 = *i0 + 1;
		if (*i0 < 0)
			*i0 += n;
		if (*i1 > (int64_t)n - 1)
			*i1 -= n;
		*a = (u - 0.5) - floor(u - 0.5);
		return;
	}
	if (addr == A_MIRROR) {
		double sp = 2.0 * rint(0.5 * s);

		u = fabs(s - sp) * n;
		if (!linear) {
			*i0 = (int64_t)floor(u);
			if (*i0 > (int64_t)n - 1)
				*i0 = n - 1;
			return;
		}
		*i0 = (int64_t)floor(u - 0.5);
		*i1 = *i0 + 1;
		if (*i0 < 0)
			*i0 = 0;
		if (*i1 > (int64_t)n - 1)
			*i1 = n - 1;
		*a = (u - 0.5) - floor(u - 0.5);
		return;
	}
	u = normalized ? s * n : s;
	if (addr == A_GLCLAMP)               /* GL: clamp to [0, 1] first */
		u = u < 0 ? 0 : u > n ? n : u;
	if (!linear) {
		*i0 = (int64_t)floor(u);
		if (addr == A_EDGE || addr == A_NONE)
			*i0 = *i0 < 0 ? 0 : *i0 > (int64_t)n - 1 ? n - 1 : *i0;
		return;
	}
	*i0 = (int64_t)floor(u - 0.5);
	*i1 = *i0 + 1;
	*a = (u - 0.5) - floor(u - 0.5);
	if (addr == A_EDGE || addr == A_NONE) {
		*i0 = *i0 < 0 ? 0 : *i0 > (int64_t)n - 1 ? n - 1 : *i0;
		*i1 = *i1 < 0 ? 0 : *i1 > (int64_t)n - 1 ? n - 1 : *i1;
	}
}

static void ref_at(const struct image *im, const int64_t i[3],
		   uint32_t layer, struct ref_texel *t)
{
	const uint32_t n[3] = { im->w, im->h, im->d };

	for (unsigned int k = 0; k < im->dim; k++) {
		if (i[k] < 0 || i[k] >= n[k]) {
			ref_border(im, t);
			return;
		}
	}
	ref_read(im, (uint32_t)i[0], im->dim > 1 ? (uint32_t)i[1] : 0,
		 im->dim > 2 ? (uint32_t)i[2] : 0, layer, t);
}

/* read_image{f,i,ui} of OpenCL at coordinate c (layer in c[3]). */
static void ref_sample(const struct image *im, unsigned int addr,
		       bool linear, bool normalized, const float c[4],
		       struct ref_texel *out)
{
	const uint32_t n[3] = { im->w, im->h, im->d };
	int64_t i0[3] = { 0, 0, 0 }, i1[3] = { 0, 0, 0 };
	double a[3] = { 0, 0, 0 };
	uint32_t layer = 0;

	if (is_int(im->fmt))
		linear = false;          /* OpenCL: integer images: nearest */
	if (im->dim < 3) {
		double l = rint(c[3]);

		layer = l < 0 ? 0 : l > im->layers - 1 ? im->layers - 1 :
			(uint32_t)l;
	}
	for (unsigned int k = 0; k < im->dim; k++)
		ref_axis(addr, normalized, linear, c[k], n[k], &i0[k], &i1[k],
			 &a[k]);
	if (!linear) {
		ref_at(im, i0, layer, out);
		return;
	}
	memset(out, 0, sizeof(*out));
	for (unsigned int corner = 0; corner < (1u << im->dim); corner++) {
		int64_t i[3] = { 0, 0, 0 };
		double w = 1.0;
		struct ref_texel t;

		for (unsigned int k = 0; k < im->dim; k++) {
			bool hi = (corner >> k) & 1;

			i[k] = hi ? i1[k] : i0[k];
			w *= hi ? a[k] : 1.0 - a[k];
		}
		ref_at(im, i, layer, &t);
		for (unsigned int ch = 0; ch < 4; ch++)
			out->f[ch] += w * t.f[ch];
	}
}

static bool close_to(float got, double want)
{
	double tol = 2e-6 * (fabs(want) > 1 ? fabs(want) : 1);

	return fabs((double)got - want) <= tol;
}

static unsigned int mismatches;

static void compare(const struct image *im, const uint32_t got[4],
		    const struct ref_texel *want, const char *what,
		    const float c[4])
{
	for (unsigned int ch = 0; ch < 4; ch++) {
		bool ok;
		float g;

		memcpy(&g, &got[ch], 4);
		ok = is_int(im->fmt) ? got[ch] == want->u[ch] :
		     close_to(g, want->f[ch]);
		if (!ok && mismatches++ < 10)
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s %s %uD%s%s at "
				      "(%g, %g, %g, %g) channel %u: got 0x%08x "
				      "(%g), want %g / 0x%08x", im->fmt->name,
				      what, im->dim,
				      im->layers > 1 ? " array" : "",
				      im->tiled ? " tiled" : "",
				      (double)c[0], (double)c[1], (double)c[2],
				      (double)c[3], ch, got[ch], (double)g,
				      want->f[ch], want->u[ch]);
		if (!ok)
			check_state.test_failed = 1;
	}
}

static uint32_t run_sample(const struct image *im, unsigned int sampler,
			   const float c[4], uint32_t out[4],
			   struct sgpu_tex_cost *cost)
{
	struct sgpu_tex_query q;

	memset(&q, 0, sizeof(q));
	q.op = MDG_TEX_OP_NORMAL;
	q.dimension = im->dim;
	q.sampler = sampler;
	for (unsigned int k = 0; k < 4; k++)
		q.coord[k] = fbits(c[k]);
	return sgpu_texture_run(&env, &tables, &q, out, cost);
}

/*
 * Coordinates: texel-space values k + f/64 over and beyond the image. On
 * an exact texel edge OpenCL's mirrored repeat (which mirrors the float
 * coordinate) and GL's (which mirrors the texel index, as the model does,
 * qemu/README.md) pick neighbouring texels, so nearest mirrored samples
 * keep off the edges.
 */
static float coord_for(uint32_t n, bool normalized, unsigned int addr,
		       bool off_edges)
{
	int span = (addr == A_NONE || !normalized) ? (int)n * 64 :
		   (int)n * 64 * 3;
	int lo = (addr == A_NONE) ? 0 : -(int)n * 64;
	int v = lo + (int)(rnd() % (unsigned int)(span + 1));
	double t;

	if (off_edges && v % 64 == 0)
		v += 32;
	t = (double)v / 64.0;

	if (addr == A_NONE && t >= n)
		t = n - 1.0 / 64;
	return (float)(normalized ? t / n : t);
}

/* Every addressing mode, filter and coordinate kind on image im. */
static void sample_all(struct image *im, unsigned int samples)
{
	static const uint32_t zero[4] = { 0, 0, 0, 0 };

	build_image(im);
	for (unsigned int addr = A_NONE; addr <= A_GLCLAMP; addr++) {
		for (unsigned int norm = 0; norm < 2; norm++) {
			if (!norm && (addr == A_REPEAT || addr == A_MIRROR))
				continue;        /* OpenCL forbids them */
			for (unsigned int lin = 0; lin < 2; lin++) {
				bool off_edges = addr == A_MIRROR &&
					(!lin || is_int(im->fmt));

				build_sampler(1, addr, lin, norm, zero);
				for (unsigned int k = 0; k < samples; k++) {
					float c[4] = { 0, 0, 0, 0 };
					const uint32_t n[3] = { im->w, im->h,
								im->d };
					struct ref_texel want;
					struct sgpu_tex_cost cost;
					uint32_t got[4];

					for (unsigned int d = 0; d < im->dim;
					     d++)
						c[d] = coord_for(n[d], norm,
							addr, off_edges);
					c[3] = (float)((int)(rnd() %
						(im->layers + 3)) - 1) +
					       (float)(rnd() % 4) * 0.125f;
					CHECK_EQ(run_sample(im, 1, c, got,
							    &cost), 0);
					ref_sample(im, addr, lin, norm, c,
						   &want);
					compare(im, got, &want, lin ? "linear" :
						"nearest", c);
				}
			}
		}
	}
}

TEST(every_format_filter_and_wrap_2d)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		struct image im = {
			.fmt = &formats[i], .dim = 2, .w = 8, .h = 4, .d = 1,
			.layers = 1, .view_swizzle = SWZ(0, 1, 2, 3),
		};

		mismatches = 0;
		sample_all(&im, 24);
	}
}

TEST(dimensions_and_arrays)
{
	static const unsigned int pick[] = { 0, 2, 3, 8, 16, 21, 28, 33, 36 };

	for (size_t p = 0; p < sizeof(pick) / sizeof(pick[0]); p++) {
		const struct tformat *f = &formats[pick[p]];
		struct image shapes[] = {
			{ .dim = 1, .w = 16, .h = 1, .d = 1, .layers = 1 },
			{ .dim = 3, .w = 4, .h = 8, .d = 4, .layers = 1 },
			{ .dim = 1, .w = 8, .h = 1, .d = 1, .layers = 3 },
			{ .dim = 2, .w = 4, .h = 4, .d = 1, .layers = 4 },
		};

		for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]);
		     s++) {
			shapes[s].fmt = f;
			shapes[s].view_swizzle = SWZ(0, 1, 2, 3);
			mismatches = 0;
			sample_all(&shapes[s], 16);
		}
	}
}

TEST(tiled_and_strided_surfaces)
{
	static const unsigned int pick[] = { 2, 8, 21, 33, 36 };

	for (size_t p = 0; p < sizeof(pick) / sizeof(pick[0]); p++) {
		struct image tiled = {
			.fmt = &formats[pick[p]], .dim = 2, .w = 32, .h = 32,
			.d = 1, .layers = 2, .tiled = true,
			.view_swizzle = SWZ(0, 1, 2, 3),
		};
		struct image tiled3d = {
			.fmt = &formats[pick[p]], .dim = 3, .w = 16, .h = 32,
			.d = 2, .layers = 1, .tiled = true,
			.view_swizzle = SWZ(0, 1, 2, 3),
		};
		struct image strided = {
			.fmt = &formats[pick[p]], .dim = 3, .w = 8, .h = 4,
			.d = 2, .layers = 1, .manual = true, .pad = 40,
			.view_swizzle = SWZ(0, 1, 2, 3),
		};

		mismatches = 0;
		sample_all(&tiled, 12);
		sample_all(&tiled3d, 12);
		sample_all(&strided, 12);
	}
}

/* Unnormalised coordinates on sizes that are not powers of two. */
TEST(unnormalised_odd_sizes)
{
	static const uint32_t zero[4] = { 0, 0, 0, 0 };
	struct image im = {
		.fmt = &formats[2], .dim = 2, .w = 5, .h = 3, .d = 1,
		.layers = 1, .view_swizzle = SWZ(0, 1, 2, 3),
	};

	build_image(&im);
	for (unsigned int addr = A_NONE; addr <= A_CLAMP; addr++) {
		for (unsigned int lin = 0; lin < 2; lin++) {
			build_sampler(0, addr, lin, false, zero);
			for (int y = -4; y < 16; y++) {
				for (int x = -4; x < 24; x++) {
					float c[4] = { x / 4.0f, y / 4.0f, 0,
						       0 };
					struct ref_texel want;
					struct sgpu_tex_cost cost;
					uint32_t got[4];

					if (addr == A_NONE &&
					    (c[0] < 0 || c[1] < 0 ||
					     c[0] >= 5 || c[1] >= 3))
						continue;
					CHECK_EQ(run_sample(&im, 0, c, got,
							    &cost), 0);
					ref_sample(&im, addr, lin, false, c,
						   &want);
					compare(&im, got, &want, "unnormalised",
						c);
				}
			}
		}
	}
}

/*
 * The model's weight precision (qemu/README.md): the fraction is cut to
 * 8 bits, so 1/512 past a texel centre weighs nothing and 1/256 weighs
 * 1/256.
 */
TEST(filter_weights_have_8_bits)
{
	static const uint32_t zero[4] = { 0, 0, 0, 0 };
	struct image im = {
		.fmt = &formats[34], .dim = 1, .w = 2, .h = 1, .d = 1,
		.layers = 1, .view_swizzle = SWZ(0, 1, 2, 3),
	};
	float t0 = 0.0f, t1 = 256.0f;
	uint32_t got[4];
	struct sgpu_tex_cost cost;
	float c[4] = { 0.5f + 1.0f / 512, 0, 0, 0 }, g;

	build_image(&im);
	memcpy(host(im.layer_va[0]), &t0, 4);
	memcpy(host(im.layer_va[0] + 4), &t1, 4);
	build_sampler(0, A_EDGE, true, false, zero);
	CHECK_EQ(run_sample(&im, 0, c, got, &cost), 0);
	memcpy(&g, &got[0], 4);
	CHECK(g == 0.0f);
	c[0] = 0.5f + 1.0f / 256;
	CHECK_EQ(run_sample(&im, 0, c, got, &cost), 0);
	memcpy(&g, &got[0], 4);
	CHECK(g == 1.0f);
	CHECK_EQ(cost.cycles, 1);
	CHECK_EQ(cost.texels, 2);
}

TEST(border_colour_and_view_swizzle)
{
	/* The sampler's border colour as a texel, then both swizzles. */
	const uint32_t border[4] = { fbits(0.25f), fbits(0.5f), fbits(0.75f),
				     fbits(1.0f) };
	struct image im = {
		.fmt = &formats[0], .dim = 2, .w = 4, .h = 4, .d = 1,
		.layers = 1, .view_swizzle = SWZ(3, 2, 1, 0),
	};
	float c[4] = { -1.0f, 0.5f, 0, 0 };
	struct sgpu_tex_cost cost;
	uint32_t got[4];

	build_image(&im);
	build_sampler(0, A_CLAMP, false, true, border);
	CHECK_EQ(run_sample(&im, 0, c, got, &cost), 0);
	/* R8: format swizzle R001 gives (0.25, 0, 0, 1); view ABGR. */
	CHECK_EQ(got[0], fbits(1.0f));
	CHECK_EQ(got[1], 0);
	CHECK_EQ(got[2], 0);
	CHECK_EQ(got[3], fbits(0.25f));
}

/*
 * Mip levels: level l of a 4x4 RGBA8 image is filled with the value 40·l
 * + 10; the surfaces follow the descriptor level by level (§4.10).
 */
static void build_mips(unsigned int levels, int lod_bias, unsigned int min,
		       unsigned int max)
{
	static const uint32_t zero[4] = { 0, 0, 0, 0 };
	uint8_t *desc = host(DESC_VA);
	uint8_t *smp = host(SMP_TABLE);
	struct image im = {
		.fmt = &formats[2], .dim = 2, .w = 4, .h = 4, .d = 1,
		.layers = 1, .view_swizzle = SWZ(0, 1, 2, 3),
	};

	build_image(&im);
	CHECK(mdg_set(desc, MDG_TEXTURE_LEVELS, levels));
	for (unsigned int l = 0; l < levels; l++) {
		uint64_t va = DATA_VA + 0x1000 * (l + 1);

		memset(host(va), (int)(40 * l + 10), 64);
		put64(DESC_VA + MDG_TEXTURE_BYTES + 8 * l, va);
	}
	build_sampler(0, A_EDGE, false, true, zero);
	CHECK(mdg_set(smp, MDG_SAMPLER_LOD_BIAS, (uint64_t)(int64_t)lod_bias &
		      0xFFFF));
	CHECK(mdg_set(smp, MDG_SAMPLER_MINIMUM_LOD, min));
	CHECK(mdg_set(smp, MDG_SAMPLER_MAXIMUM_LOD, max));
}

/* The level a query reads, from the value its texels hold. */
static int level_read(unsigned int op, int32_t lod)
{
	struct sgpu_tex_query q;
	struct sgpu_tex_cost cost;
	uint32_t got[4];
	float g;

	memset(&q, 0, sizeof(q));
	q.op = op;
	q.dimension = 2;
	q.coord[0] = op == MDG_TEX_OP_FETCH ? 0 : fbits(0.3f);
	q.coord[1] = op == MDG_TEX_OP_FETCH ? 0 : fbits(0.3f);
	q.lod = lod;
	if (sgpu_texture_run(&env, &tables, &q, got, &cost))
		return -2;
	memcpy(&g, &got[0], 4);
	if (g == 0.0f)
		return -1;               /* a zero texel */
	return (int)lrintf((g * 255.0f - 10.0f) / 40.0f);
}

TEST(mip_levels_and_lod)
{
	build_mips(3, 0, 0, 2 * 256);
	/* Nearest mip selection: round half down, then clamp (§4.10). */
	CHECK_EQ(level_read(MDG_TEX_OP_NORMAL, 0), 0);
	CHECK_EQ(level_read(MDG_TEX_OP_NORMAL, 128), 0);
	CHECK_EQ(level_read(MDG_TEX_OP_NORMAL, 129), 1);
	CHECK_EQ(level_read(MDG_TEX_OP_GRADIENT, 256), 1);
	CHECK_EQ(level_read(MDG_TEX_OP_GRADIENT, 384 + 1), 2);
	CHECK_EQ(level_read(MDG_TEX_OP_GRADIENT, 5 * 256), 2);
	CHECK_EQ(level_read(MDG_TEX_OP_NORMAL, -3 * 256), 0);
	/* Fetches take the level as an integer; past the last: zero. */
	CHECK_EQ(level_read(MDG_TEX_OP_FETCH, 2), 2);
	CHECK_EQ(level_read(MDG_TEX_OP_FETCH, 3), -1);
	CHECK_EQ(level_read(MDG_TEX_OP_FETCH, -1), -1);
	/* The sampler's bias adds; its clamps bound the result. */
	build_mips(3, 256, 0, 2 * 256);
	CHECK_EQ(level_read(MDG_TEX_OP_NORMAL, 0), 1);
	build_mips(3, 0, 0, 256);
	CHECK_EQ(level_read(MDG_TEX_OP_GRADIENT, 2 * 256), 1);
	build_mips(3, 0, 2 * 256, 2 * 256);
	CHECK_EQ(level_read(MDG_TEX_OP_NORMAL, 0), 2);
}

/* OpenCL §8.3.1: write_imagef/i/ui conversions, written out per type. */
static void ref_pack(const struct tformat *f, const uint32_t in[4],
		     uint8_t *out)
{
	uint32_t ch[4];

	memcpy(ch, in, sizeof(ch));
	if (f->order == 5) {                 /* memory B, G, R, A */
		uint32_t t = ch[0];

		ch[0] = ch[2];
		ch[2] = t;
	}
	for (unsigned int c = 0; c < channels(f); c++) {
		float v;
		uint32_t r = 0;

		memcpy(&v, &ch[c], 4);
		switch (f->type) {
		case UNORM: {
			float m = f->bytes == 1 ? 255.0f : 65535.0f;
			float p = v * m;

			r = isnan(v) || p <= 0 ? 0 : p >= m ? (uint32_t)m :
			    (uint32_t)rintf(p);
			break;
		}
		case SNORM: {
			float m = f->bytes == 1 ? 127.0f : 32767.0f;
			float p = v * m;
			int32_t i = isnan(v) ? 0 : p >= m ? (int32_t)m :
				    p <= -m ? -(int32_t)m : (int32_t)rintf(p);

			r = (uint32_t)i;
			break;
		}
		case UINT: {
			uint64_t m = f->bytes == 4 ? 0xFFFFFFFFull :
				     (1ull << (8 * f->bytes)) - 1;

			r = ch[c] > m ? (uint32_t)m : ch[c];
			break;
		}
		case SINT: {
			int64_t m = f->bytes == 4 ? INT32_MAX :
				    (1ll << (8 * f->bytes - 1)) - 1;
			int64_t i = (int32_t)ch[c];

			r = (uint32_t)(i > m ? m : i < -m - 1 ? -m - 1 : i);
			break;
		}
		case HALF: {
			_Float16 h = (_Float16)v;

			memcpy(&r, &h, 2);
			break;
		}
		case FLOAT:
			r = ch[c];
			break;
		}
		memcpy(out + c * f->bytes, &r, f->bytes);
	}
}

/* The texel packing image stores use, for every format. */
TEST(pack_every_format)
{
	static const float specials[] = {
		0.0f, 1.0f, -1.0f, 0.5f / 255, 1.5f / 255, 2.5f / 255,
		0.5f / 65535, 1.5f / 65535, 0.5f / 127, 1.5f / 127, 2.0f,
		-2.0f, 1e-3f, 0.999f, 65504.0f, 1e5f, 1.0f / 3,
	};

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		const struct tformat *f = &formats[i];
		struct sgpu_tex_format hw;
		unsigned int bad = 0;

		CHECK(sgpu_tex_format_decode(format_swizzle(f) | f->mali << 12,
					     &hw));
		CHECK_EQ(hw.bytes, texel_bytes(f));
		for (unsigned int k = 0; k < 400; k++) {
			uint32_t in[4], back[4];
			uint8_t got[16], want[16];

			for (unsigned int c = 0; c < 4; c++) {
				if (is_int(f))
					in[c] = k < 40 ? (uint32_t)
						(int32_t)(k * 997 - 20000) *
						(c + 1) * 3 : rnd();
				else
					in[c] = fbits(k < 17 * 4 ?
						specials[(k + c) % 17] *
						(k % 2 ? -1.0f : 1.0f) :
						(float)((int)(rnd() % 4001) -
							2000) / 1000.0f);
			}
			if (k == 399 && !is_int(f))
				in[1] = 0x7FC00000u;     /* NaN */
			memset(got, 0, sizeof(got));
			memset(want, 0, sizeof(want));
			sgpu_tex_pack(&hw, in, got);
			ref_pack(f, in, want);
			if (memcmp(got, want, texel_bytes(f)) && bad++ < 3)
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "%s: %08x %08x %08x %08x packs "
					      "to %02x%02x%02x%02x..., want "
					      "%02x%02x%02x%02x...", f->name,
					      in[0], in[1], in[2], in[3],
					      got[0], got[1], got[2], got[3],
					      want[0], want[1], want[2],
					      want[3]);
			/* Unpacking gives the stored channels back. */
			sgpu_tex_unpack(&hw, want, back);
			for (unsigned int c = 0; c < channels(f) &&
			     f->order != 5; c++) {
				uint32_t raw = 0, ext;

				memcpy(&raw, want + c * f->bytes, f->bytes);
				ext = f->type == SINT && f->bytes == 1 ?
				      (uint32_t)(int32_t)(int8_t)raw :
				      f->type == SINT && f->bytes == 2 ?
				      (uint32_t)(int32_t)(int16_t)raw : raw;
				if (f->type == FLOAT || is_int(f))
					CHECK_EQ(back[c], ext);
			}
		}
		if (bad)
			check_state.test_failed = 1;
	}
}

TEST(texel_fetch)
{
	struct image im = {
		.fmt = &formats[29], .dim = 2, .w = 5, .h = 3, .d = 1,
		.layers = 3, .view_swizzle = SWZ(0, 1, 2, 3),
	};

	build_image(&im);
	for (int l = -1; l <= 3; l++) {
		for (int y = -2; y <= 4; y++) {
			for (int x = -2; x <= 6; x++) {
				struct sgpu_tex_query q;
				struct sgpu_tex_cost cost;
				struct ref_texel want;
				uint32_t got[4];
				float c[4] = { (float)x, (float)y, 0,
					       (float)l };
				bool in = x >= 0 && x < 5 && y >= 0 &&
					  y < 3 && l >= 0 && l < 3;

				memset(&q, 0, sizeof(q));
				q.op = MDG_TEX_OP_FETCH;
				q.dimension = 2;
				q.sampler = 99;      /* a fetch reads none */
				q.coord[0] = (uint32_t)x;
				q.coord[1] = (uint32_t)(y - 1);
				q.coord[3] = (uint32_t)l;
				q.offset[1] = 1;
				CHECK_EQ(sgpu_texture_run(&env, &tables, &q,
							  got, &cost), 0);
				/* Outside: a zero texel, then R001. */
				if (in) {
					ref_read(&im, (uint32_t)x, (uint32_t)y,
						 0, (uint32_t)l, &want);
				} else {
					memset(&want, 0, sizeof(want));
					want.u[3] = 1;
				}
				compare(&im, got, &want, "fetch", c);
			}
		}
	}
}

TEST(cycles_of_3d_linear)
{
	static const uint32_t zero[4] = { 0, 0, 0, 0 };
	struct image im = {
		.fmt = &formats[2], .dim = 3, .w = 4, .h = 4, .d = 4,
		.layers = 1, .view_swizzle = SWZ(0, 1, 2, 3),
	};
	float c[4] = { 0.3f, 0.3f, 0.3f, 0 };
	struct sgpu_tex_cost cost;
	uint32_t got[4];

	build_image(&im);
	build_sampler(0, A_EDGE, true, true, zero);
	CHECK_EQ(run_sample(&im, 0, c, got, &cost), 0);
	CHECK_EQ(cost.cycles, 2);
	CHECK_EQ(cost.texels, 8);
	build_sampler(0, A_EDGE, false, true, zero);
	CHECK_EQ(run_sample(&im, 0, c, got, &cost), 0);
	CHECK_EQ(cost.cycles, 1);
	CHECK_EQ(cost.texels, 1);
}

/* ---- Faults ---- */

static uint32_t sample_once(unsigned int dim)
{
	float c[4] = { 0.5f, 0.5f, 0.5f, 0 };
	struct sgpu_tex_query q;
	uint32_t got[4];
	struct sgpu_tex_cost cost;

	memset(&q, 0, sizeof(q));
	q.op = MDG_TEX_OP_NORMAL;
	q.dimension = dim;
	for (unsigned int k = 0; k < 4; k++)
		q.coord[k] = fbits(c[k]);
	last_error[0] = 0;
	reads_outside = 0;
	return sgpu_texture_run(&env, &tables, &q, got, &cost);
}

static void good_2d(void)
{
	static const uint32_t zero[4] = { 0, 0, 0, 0 };
	struct image im = {
		.fmt = &formats[2], .dim = 2, .w = 4, .h = 4, .d = 1,
		.layers = 1, .view_swizzle = SWZ(0, 1, 2, 3),
	};

	build_image(&im);
	build_sampler(0, A_EDGE, true, true, zero);
}

static void set_desc(enum mdg_field_id f, uint64_t v)
{
	CHECK(mdg_set(host(DESC_VA), f, v));
}

TEST(bad_descriptors_fault)
{
	good_2d();
	CHECK_EQ(sample_once(2), 0);

	/* A null trampoline reads address 0: the MMU's fault. */
	put64(TEX_TABLE, 0);
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_TRANSLATION_FAULT_1);
	CHECK(reads_outside == 1);

	good_2d();
	put64(TEX_TABLE, DESC_VA + 8);
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_DATA_INVALID_FAULT);
	CHECK(strstr(last_error, "aligned") != NULL);

	good_2d();
	CHECK_EQ(sample_once(3), MDG_EXCEPTION_DATA_INVALID_FAULT);

	good_2d();
	set_desc(MDG_TEXTURE_TEXEL_ORDERING, MDG_TEXTURE_LAYOUT_AFBC);
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_DATA_INVALID_FAULT);

	good_2d();
	set_desc(MDG_TEXTURE_TEXEL_ORDERING, 0);
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_DATA_INVALID_FAULT);

	good_2d();
	set_desc(MDG_TEXTURE_FORMAT, SWZ(0, 1, 2, 3) | 20u << 12); /* ASTC */
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_DATA_INVALID_FAULT);

	good_2d();
	set_desc(MDG_TEXTURE_FORMAT, SWZ(0, 1, 2, 7) | 187u << 12);
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_DATA_INVALID_FAULT);

	good_2d();
	set_desc(MDG_TEXTURE_SWIZZLE, SWZ(6, 1, 2, 3));
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_DATA_INVALID_FAULT);

	good_2d();
	set_desc(MDG_TEXTURE_SURFACE_POINTER_IS_64B, 0);
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_DATA_INVALID_FAULT);

	good_2d();
	set_desc(MDG_TEXTURE_DIMENSION, MDG_TEXTURE_DIMENSION_CUBE);
	CHECK_EQ(sample_once(0), MDG_EXCEPTION_DATA_INVALID_FAULT);

	/* The surface pointer outside the VM: the MMU's fault. */
	good_2d();
	put64(DESC_VA + MDG_TEXTURE_BYTES, 0xFFFF00000000ull);
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_TRANSLATION_FAULT_1);

	/* A huge manual stride walks out of the mapping, never past it. */
	good_2d();
	set_desc(MDG_TEXTURE_MANUAL_STRIDE, 1);
	memset(host(DESC_VA + MDG_TEXTURE_BYTES + 8), 0x7F, 8);
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_TRANSLATION_FAULT_1);

	/* Bad samplers. */
	good_2d();
	CHECK(mdg_set(host(SMP_TABLE), MDG_SAMPLER_WRAP_MODE_T, 3));
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_DATA_INVALID_FAULT);
	good_2d();
	CHECK(mdg_set(host(SMP_TABLE), MDG_SAMPLER_MIPMAP_MODE, 1));
	CHECK_EQ(sample_once(2), MDG_EXCEPTION_DATA_INVALID_FAULT);
}

TEST(table_indices_are_bounded)
{
	struct sgpu_tex_tables t = tables;
	struct sgpu_tex_query q;
	struct sgpu_tex_cost cost;
	uint32_t got[4];

	good_2d();
	memset(&q, 0, sizeof(q));
	q.op = MDG_TEX_OP_NORMAL;
	q.dimension = 2;
	q.texture = 1;
	CHECK_EQ(sgpu_texture_run(&env, &t, &q, got, &cost),
		 MDG_EXCEPTION_DATA_INVALID_FAULT);
	q.texture = 0;
	q.sampler = 4;
	CHECK_EQ(sgpu_texture_run(&env, &t, &q, got, &cost),
		 MDG_EXCEPTION_DATA_INVALID_FAULT);
	t.sampler_count = 0;
	q.sampler = 0;
	CHECK_EQ(sgpu_texture_run(&env, &t, &q, got, &cost),
		 MDG_EXCEPTION_DATA_INVALID_FAULT);
	q.op = MDG_TEX_OP_DERIVATIVE;
	t = tables;
	CHECK_EQ(sgpu_texture_run(&env, &t, &q, got, &cost),
		 MDG_EXCEPTION_DATA_INVALID_FAULT);
}

/* Random descriptors never read outside the window or crash. */
TEST(random_descriptors_are_safe)
{
	for (unsigned int i = 0; i < 4000; i++) {
		struct sgpu_tex_query q;
		struct sgpu_tex_cost cost;
		uint32_t got[4], code;

		good_2d();
		for (unsigned int b = 0; b < 48; b++)
			if (rnd() % 4 == 0)
				host(DESC_VA)[b] = (uint8_t)rnd();
		for (unsigned int b = 0; b < 32; b++)
			if (rnd() % 4 == 0)
				host(SMP_TABLE)[b] = (uint8_t)rnd();
		memset(&q, 0, sizeof(q));
		q.op = rnd() % 2 ? MDG_TEX_OP_FETCH : MDG_TEX_OP_NORMAL;
		q.dimension = rnd() % 4;
		for (unsigned int k = 0; k < 4; k++)
			q.coord[k] = rnd();
		q.lod = (int32_t)rnd();
		q.offset[0] = (int32_t)(rnd() % 16) - 8;
		code = sgpu_texture_run(&env, &tables, &q, got, &cost);
		CHECK(code == 0 || code == MDG_EXCEPTION_DATA_INVALID_FAULT ||
		      code == MDG_EXCEPTION_TRANSLATION_FAULT_1);
	}
}

TEST(uinterleave_matches_mesa_pattern)
{
	for (unsigned int y = 0; y < 16; y++)
		for (unsigned int x = 0; x < 16; x++)
			CHECK_EQ(sgpu_tex_uinterleave(x, y),
				 ref_tile_index(x, y));
}

int main(void)
{
	RUN(uinterleave_matches_mesa_pattern);
	RUN(every_format_filter_and_wrap_2d);
	RUN(dimensions_and_arrays);
	RUN(tiled_and_strided_surfaces);
	RUN(unnormalised_odd_sizes);
	RUN(filter_weights_have_8_bits);
	RUN(border_colour_and_view_swizzle);
	RUN(texel_fetch);
	RUN(mip_levels_and_lod);
	RUN(pack_every_format);
	RUN(cycles_of_3d_linear);
	RUN(bad_descriptors_fault);
	RUN(table_indices_are_bounded);
	RUN(random_descriptors_are_safe);
	return check_summary();
}
