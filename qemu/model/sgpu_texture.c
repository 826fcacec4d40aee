/* SPDX-License-Identifier: MIT */
/*
 * The texture unit (sgpu_texture.h): reads the texture descriptor through
 * the job's table of pointers, the sampler, the surface pointers after
 * the descriptor, then the texels, and filters them. Layouts and fields:
 * docs/hardware.md §4.10; the choices where the hardware is unknown
 * (filtering weights, border colour, out-of-range fetches):
 * qemu/README.md "Texture unit".
 */
#include "sgpu_texture.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "midgard_desc.h"
#include "midgard_isa.h"
#include "sgpu_float.h"

/* Pixel format word ([21:0] of the descriptor's word 2). */
#define PIXFMT_SWIZZLE(f) ((f) & 0xFFFu)
#define PIXFMT_FORMAT(f) (((f) >> 12) & 0xFFu)
#define PIXFMT_SRGB (1u << 20)
#define PIXFMT_BIG_ENDIAN (1u << 21)

/* Swizzle channel codes (v5 "Channel"). */
enum { CH_R, CH_G, CH_B, CH_A, CH_0, CH_1 };

/* A texel's four channels, as floats or as integers by the format. */
struct texel {
	float f[4];
	uint32_t u[4];
};

/* One level of one layer: where its texels are and how they lie. */
struct surface {
	uint64_t base;
	int64_t row_stride;          /* linear: a line; tiled: 16 lines */
	int64_t surface_stride;      /* one z slice */
	uint32_t width, height, depth;
};

struct tex_state {
	const struct sgpu_tex_env *env;
	struct sgpu_tex_format fmt;
	bool tiled;
	uint8_t fmt_swizzle[4], view_swizzle[4];
	struct surface surf;
	struct sgpu_tex_cost *cost;
	/* The border colour as raw words, and the wrap modes (s, t, r). */
	uint32_t border[4];
	unsigned int wrap[3];
};

#define FAULT_DATA MDG_EXCEPTION_DATA_INVALID_FAULT

/* Reports why the texture cannot be read; the job faults. */
__attribute__((format(printf, 2, 3)))
static uint32_t refuse(const struct sgpu_tex_env *env, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (env->error) {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		env->error(env->ctx, "sgpu: texture unit: %s", msg);
	}
	return FAULT_DATA;
}

/*
 * The v5 Format enum is regular: [7:5] the type (3 SNORM, 4 UINT, 5 UNORM,
 * 6 SINT), [4:3] components - 1, [2:0] the component size (0-6: 1, 2, 4,
 * 8, 16, 32, 64 bits; 7 in the UNORM and SINT rows: 32- and 16-bit float).
 * The model reads the 8-, 16- and 32-bit rows and the two float columns.
 */
static bool decode_format(unsigned int mali, struct sgpu_tex_format *f)
{
	unsigned int row = mali >> 5, size = mali & 7;
	static const enum sgpu_tex_kind kinds[8] = {
		[3] = SGPU_TEX_SNORM, [4] = SGPU_TEX_UINT,
		[5] = SGPU_TEX_UNORM, [6] = SGPU_TEX_SINT,
	};

	if (row < 3 || row > 6)
		return false;
	f->comps = ((mali >> 3) & 3) + 1;
	if (size == 7) {
		if (row != 5 && row != 6)
			return false;
		f->kind = SGPU_TEX_FLOAT;
		f->bits = row == 5 ? 32 : 16;
	} else if (size >= 3 && size <= 5) {
		f->kind = kinds[row];
		f->bits = 8u << (size - 3);
	} else {
		return false;
	}
	f->bytes = f->comps * f->bits / 8;
	return true;
}

static bool decode_swizzle(uint32_t sw, uint8_t out[4])
{
	for (unsigned int i = 0; i < 4; i++) {
		out[i] = (sw >> (3 * i)) & 7;
		if (out[i] > CH_1)
			return false;
	}
	return true;
}

unsigned int sgpu_tex_uinterleave(unsigned int x, unsigned int y)
{
	unsigned int idx = 0;

	/* Bit pairs, low to high: (y_i ^ x_i), y_i. */
	for (unsigned int i = 0; i < 4; i++) {
		unsigned int xb = (x >> i) & 1, yb = (y >> i) & 1;

		idx |= ((xb ^ yb) << (2 * i)) | (yb << (2 * i + 1));
	}
	return idx;
}

static bool is_int_kind(enum sgpu_tex_kind k)
{
	return k == SGPU_TEX_UINT || k == SGPU_TEX_SINT;
}

/* The channels of the raw texel at raw, by its format (pre-swizzle). */
static void unpack_raw(const struct sgpu_tex_format *f, const uint8_t *raw,
		       struct texel *t)
{
	for (unsigned int c = 0; c < 4; c++) {
		uint32_t v = 0;
		const uint8_t *p = raw + c * f->bits / 8;

		t->f[c] = 0.0f;
		t->u[c] = 0;
		if (c >= f->comps)
			continue;
		for (unsigned int b = 0; b < f->bits / 8; b++)
			v |= (uint32_t)p[b] << (8 * b);
		switch (f->kind) {
		case SGPU_TEX_UNORM:
			t->f[c] = (float)((double)v /
				   (double)(UINT32_MAX >> (32 - f->bits)));
			break;
		case SGPU_TEX_SNORM: {
			int64_t sv = f->bits == 32 ? (int32_t)v :
				     (int64_t)(v ^ (1u << (f->bits - 1))) -
				     (int64_t)(1u << (f->bits - 1));
			double m = (double)((1ull << (f->bits - 1)) - 1);
			double d = (double)sv / m;

			t->f[c] = (float)(d < -1.0 ? -1.0 : d);
			break;
		}
		case SGPU_TEX_UINT:
			t->u[c] = v;
			break;
		case SGPU_TEX_SINT:
			t->u[c] = f->bits == 32 ? v :
				  (uint32_t)((int32_t)(v << (32 - f->bits)) >>
					     (32 - f->bits));
			break;
		case SGPU_TEX_FLOAT:
			if (f->bits == 16) {
				uint32_t b = sgpu_f16_to_f32((uint16_t)v);

				memcpy(&t->f[c], &b, 4);
			} else {
				memcpy(&t->f[c], &v, 4);
			}
			break;
		}
	}
}

/* The raw texel at integer (x, y, z), all in range, into t (pre-swizzle). */
static uint32_t load_texel(struct tex_state *s, uint32_t x, uint32_t y,
			   uint32_t z, struct texel *t)
{
	const struct surface *sf = &s->surf;
	const struct sgpu_tex_format *f = &s->fmt;
	uint8_t raw[16];
	uint64_t off;
	uint32_t code;

	if (s->tiled) {
		uint64_t in_row = ((uint64_t)(x >> 4) << 8) +
				  sgpu_tex_uinterleave(x & 15, y & 15);

		off = (uint64_t)((int64_t)(y >> 4) * sf->row_stride) +
		      in_row * f->bytes;
	} else {
		off = (uint64_t)((int64_t)y * sf->row_stride) +
		      (uint64_t)x * f->bytes;
	}
	off += (uint64_t)((int64_t)z * sf->surface_stride);
	code = s->env->read(s->env->ctx, sf->base + off, raw, f->bytes);
	if (code)
		return code;
	s->cost->texels++;
	unpack_raw(f, raw, t);
	return 0;
}

/* The border colour as a raw texel. */
static void border_texel(const struct tex_state *s, struct texel *t)
{
	for (unsigned int c = 0; c < 4; c++) {
		t->u[c] = s->border[c];
		memcpy(&t->f[c], &s->border[c], 4);
	}
}

/*
 * Wraps integer texel coordinate i into [0, n) under a sampler wrap mode;
 * false when the texel lies outside and the border colour stands in.
 */
static bool wrap_index(unsigned int mode, int64_t i, uint32_t n, uint32_t *out)
{
	int64_t nn = n, m;

	switch (mode) {
	case MDG_WRAP_MODE_REPEAT:
		m = i % nn;
		*out = (uint32_t)(m < 0 ? m + nn : m);
		return true;
	case MDG_WRAP_MODE_MIRRORED_REPEAT:
		m = i % (2 * nn);
		if (m < 0)
			m += 2 * nn;
		*out = (uint32_t)(m < nn ? m : 2 * nn - 1 - m);
		return true;
	case MDG_WRAP_MODE_CLAMP_TO_EDGE:
		*out = (uint32_t)(i < 0 ? 0 : i >= nn ? nn - 1 : i);
		return true;
	case MDG_WRAP_MODE_MIRRORED_CLAMP_TO_EDGE:
		if (i < 0)
			i = -1 - i;
		*out = (uint32_t)(i >= nn ? nn - 1 : i);
		return true;
	case MDG_WRAP_MODE_MIRRORED_CLAMP:
	case MDG_WRAP_MODE_MIRRORED_CLAMP_TO_BORDER:
		if (i < 0)
			i = -1 - i;
		/* fall through */
	default:                     /* CLAMP, CLAMP_TO_BORDER */
		if (i < 0 || i >= nn)
			return false;
		*out = (uint32_t)i;
		return true;
	}
}

/*
 * The texel coordinate in texel units, made safe to floor: NaN reads as 0
 * and magnitudes are bounded far beyond any texture size. CLAMP and
 * MIRRORED_CLAMP clamp it to [0, n] (mirrored first), as GL's CLAMP.
 */
static double texel_coord(unsigned int mode, double u, uint32_t n)
{
	if (isnan(u))
		u = 0.0;
	if (u > 1e9)
		u = 1e9;
	if (u < -1e9)
		u = -1e9;
	if (mode == MDG_WRAP_MODE_MIRRORED_CLAMP && u < 0)
		u = -u;
	if (mode == MDG_WRAP_MODE_CLAMP ||
	    mode == MDG_WRAP_MODE_MIRRORED_CLAMP)
		u = u < 0 ? 0 : u > n ? n : u;
	return u;
}

/* The texel at integer coordinates after wrapping, or the border. */
static uint32_t fetch_wrapped(struct tex_state *s, unsigned int dims,
			      const int64_t i[3], struct texel *t)
{
	uint32_t xyz[3] = { 0, 0, 0 };
	const uint32_t size[3] = { s->surf.width, s->surf.height,
				   s->surf.depth };

	for (unsigned int d = 0; d < dims; d++) {
		if (!wrap_index(s->wrap[d], i[d], size[d], &xyz[d])) {
			border_texel(s, t);
			return 0;
		}
	}
	return load_texel(s, xyz[0], xyz[1], xyz[2], t);
}

/* Filter weights: the fraction kept to 8 bits (qemu/README.md). */
#define WEIGHT_BITS 8

static uint32_t sample_filtered(struct tex_state *s, unsigned int dims,
				const double u[3], bool linear,
				struct texel *res)
{
	int64_t base[3] = { 0, 0, 0 };
	double w1[3] = { 0, 0, 0 };
	unsigned int corners;
	uint32_t code;

	if (!linear || is_int_kind(s->fmt.kind)) {
		for (unsigned int d = 0; d < dims; d++)
			base[d] = (int64_t)floor(u[d]);
		return fetch_wrapped(s, dims, base, res);
	}
	for (unsigned int d = 0; d < dims; d++) {
		double t = u[d] - 0.5, fl = floor(t);

		base[d] = (int64_t)fl;
		w1[d] = floor((t - fl) * (1 << WEIGHT_BITS)) /
			(1 << WEIGHT_BITS);
	}
	corners = 1u << dims;
	memset(res, 0, sizeof(*res));
	for (unsigned int k = 0; k < corners; k++) {
		int64_t i[3];
		double w = 1.0;
		struct texel t;

		for (unsigned int d = 0; d < 3; d++) {
			unsigned int hi = d < dims ? (k >> d) & 1 : 0;

			i[d] = base[d] + hi;
			if (d < dims)
				w *= hi ? w1[d] : 1.0 - w1[d];
		}
		code = fetch_wrapped(s, dims, i, &t);
		if (code)
			return code;
		for (unsigned int c = 0; c < 4; c++)
			res->f[c] = (float)((double)res->f[c] +
					    w * (double)t.f[c]);
	}
	return 0;
}

/* Applies the format's swizzle, then the descriptor's. */
static void swizzle_out(const struct tex_state *s, const struct texel *t,
			uint32_t out[4])
{
	bool ints = is_int_kind(s->fmt.kind);
	uint32_t one = ints ? 1u : 0x3F800000u, mid[4];

	for (unsigned int pass = 0; pass < 2; pass++) {
		const uint8_t *sw = pass ? s->view_swizzle : s->fmt_swizzle;
		uint32_t src[4], *dst = pass ? out : mid;

		for (unsigned int c = 0; c < 4; c++) {
			if (pass)
				src[c] = mid[c];
			else if (ints)
				src[c] = t->u[c];
			else
				memcpy(&src[c], &t->f[c], 4);
		}
		for (unsigned int c = 0; c < 4; c++)
			dst[c] = sw[c] <= CH_A ? src[sw[c]] :
				 sw[c] == CH_1 ? one : 0;
	}
}

static uint32_t read_desc(const struct sgpu_tex_env *env, uint64_t va,
			  uint8_t *dst, size_t len)
{
	return env->read(env->ctx, va, dst, len);
}

/* The level's and layer's surface (§4.10, payload order). */
static uint32_t find_surface(struct tex_state *s, uint64_t desc_va,
			     const uint8_t *desc, unsigned int level,
			     unsigned int layer)
{
	unsigned int levels = (unsigned int)mdg_get(desc, MDG_TEXTURE_LEVELS);
	bool manual = mdg_get(desc, MDG_TEXTURE_MANUAL_STRIDE);
	uint64_t index = (uint64_t)layer * levels + level;
	uint64_t entry = desc_va + MDG_TEXTURE_BYTES +
			 index * (manual ? 16 : 8);
	uint32_t w = s->surf.width, h = s->surf.height;
	uint8_t e[16];
	uint32_t code;

	code = read_desc(s->env, entry, e, manual ? 16 : 8);
	if (code)
		return code;
	memcpy(&s->surf.base, e, 8);
	if (manual) {
		int32_t row, surf;

		memcpy(&row, e + 8, 4);
		memcpy(&surf, e + 12, 4);
		s->surf.row_stride = row;
		s->surf.surface_stride = surf;
	} else if (s->tiled) {
		s->surf.row_stride = (int64_t)((w + 15) & ~15u) *
				     s->fmt.bytes * 16;
		s->surf.surface_stride = s->surf.row_stride *
					 (int64_t)((h + 15) / 16);
	} else {
		s->surf.row_stride = (int64_t)w * s->fmt.bytes;
		s->surf.surface_stride = s->surf.row_stride * h;
	}
	return 0;
}

static uint32_t read_sampler(struct tex_state *s,
			     const struct sgpu_tex_tables *tab,
			     uint32_t index, uint8_t smp[MDG_SAMPLER_BYTES])
{
	const struct sgpu_tex_env *env = s->env;
	uint32_t code;

	if (index >= tab->sampler_count)
		return refuse(env, "sampler %u of %u", index,
			      tab->sampler_count);
	if (tab->samplers & 31)
		return refuse(env, "sampler table 0x%llx not 32-byte aligned",
			      (unsigned long long)tab->samplers);
	code = read_desc(env, tab->samplers + (uint64_t)index *
			 MDG_SAMPLER_BYTES, smp, MDG_SAMPLER_BYTES);
	if (code)
		return code;
	for (unsigned int d = 0; d < 3; d++) {
		static const enum mdg_field_id wf[3] = {
			MDG_SAMPLER_WRAP_MODE_S, MDG_SAMPLER_WRAP_MODE_T,
			MDG_SAMPLER_WRAP_MODE_R,
		};

		s->wrap[d] = (unsigned int)mdg_get(smp, wf[d]);
		if (s->wrap[d] < MDG_WRAP_MODE_REPEAT)
			return refuse(env, "sampler %u: wrap mode %u", index,
				      s->wrap[d]);
	}
	if (mdg_get(smp, MDG_SAMPLER_MIPMAP_MODE) == 1)
		return refuse(env, "sampler %u: mipmap mode 1", index);
	s->border[0] = (uint32_t)mdg_get(smp, MDG_SAMPLER_BORDER_COLOR_R);
	s->border[1] = (uint32_t)mdg_get(smp, MDG_SAMPLER_BORDER_COLOR_G);
	s->border[2] = (uint32_t)mdg_get(smp, MDG_SAMPLER_BORDER_COLOR_B);
	s->border[3] = (uint32_t)mdg_get(smp, MDG_SAMPLER_BORDER_COLOR_A);
	return 0;
}

/* Reads and checks texture @index's descriptor into desc; its VA in *va. */
static uint32_t read_texture(struct tex_state *s,
			     const struct sgpu_tex_tables *tab,
			     const struct sgpu_tex_query *q,
			     uint8_t desc[MDG_TEXTURE_BYTES], uint64_t *va)
{
	const struct sgpu_tex_env *env = s->env;
	unsigned int dim, order;
	uint32_t code, pixfmt;

	if (q->texture >= tab->texture_count)
		return refuse(env, "texture %u of %u", q->texture,
			      tab->texture_count);
	if (tab->textures & 7)
		return refuse(env, "texture table 0x%llx not 8-byte aligned",
			      (unsigned long long)tab->textures);
	code = read_desc(env, tab->textures + (uint64_t)q->texture * 8,
			 (uint8_t *)va, 8);
	if (code)
		return code;
	if (*va & 63)
		return refuse(env, "texture %u at 0x%llx: not 64-byte aligned",
			      q->texture, (unsigned long long)*va);
	code = read_desc(env, *va, desc, MDG_TEXTURE_BYTES);
	if (code)
		return code;
	dim = (unsigned int)mdg_get(desc, MDG_TEXTURE_DIMENSION);
	order = (unsigned int)mdg_get(desc, MDG_TEXTURE_TEXEL_ORDERING);
	pixfmt = (uint32_t)mdg_get(desc, MDG_TEXTURE_FORMAT);
	if (dim != q->dimension)
		return refuse(env, "texture %u: %uD descriptor, %uD operation",
			      q->texture, dim, q->dimension);
	if (dim == MDG_TEXTURE_DIMENSION_CUBE)
		return refuse(env, "texture %u: cube maps are not modelled",
			      q->texture);
	if (order != MDG_TEXTURE_LAYOUT_LINEAR &&
	    order != MDG_TEXTURE_LAYOUT_TILED)
		return refuse(env, "texture %u: texel ordering %u is not "
			      "modelled", q->texture, order);
	s->tiled = order == MDG_TEXTURE_LAYOUT_TILED;
	if (!mdg_get(desc, MDG_TEXTURE_SURFACE_POINTER_IS_64B))
		return refuse(env, "texture %u: 32-bit surface pointers",
			      q->texture);
	if (dim != MDG_TEXTURE_DIMENSION_3D &&
	    mdg_get(desc, MDG_TEXTURE_DEPTH) != 1)
		return refuse(env, "texture %u: multisampling is not modelled",
			      q->texture);
	if (!sgpu_tex_format_decode(pixfmt, &s->fmt))
		return refuse(env, "texture %u: format 0x%06x is not modelled "
			      "(or has a bad swizzle)", q->texture, pixfmt);
	memcpy(s->fmt_swizzle, s->fmt.swizzle, 4);
	if (!decode_swizzle((uint32_t)mdg_get(desc, MDG_TEXTURE_SWIZZLE),
			    s->view_swizzle))
		return refuse(env, "texture %u: bad swizzle", q->texture);
	return 0;
}

/* The LOD in 1/256ths, the sampler's bias and clamps applied. */
static int64_t sampler_lod(const uint8_t *smp, int64_t lod)
{
	int64_t lo = (int64_t)mdg_get(smp, MDG_SAMPLER_MINIMUM_LOD);
	int64_t hi = (int64_t)mdg_get(smp, MDG_SAMPLER_MAXIMUM_LOD);

	lod += (int64_t)mdg_get(smp, MDG_SAMPLER_LOD_BIAS);
	if (lod > hi)
		lod = hi;
	if (lod < lo)
		lod = lo;
	return lod;
}

static uint32_t level_size(uint32_t n, unsigned int level)
{
	n = level < 32 ? n >> level : 0;
	return n ? n : 1;
}

/* Sets the surface's size for level @level of the descriptor. */
static void set_level(struct tex_state *s, const uint8_t *desc,
		      unsigned int dims, unsigned int level)
{
	s->surf.width = level_size((uint32_t)mdg_get(desc, MDG_TEXTURE_WIDTH),
				   level);
	s->surf.height = dims >= 2 ? level_size((uint32_t)mdg_get(desc,
				     MDG_TEXTURE_HEIGHT), level) : 1;
	s->surf.depth = dims >= 3 ? level_size((uint32_t)mdg_get(desc,
				    MDG_TEXTURE_DEPTH), level) : 1;
}

static float bits_f32(uint32_t b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

/* The array layer a float coordinate selects: round to even, clamped. */
static unsigned int float_layer(uint32_t bits, uint32_t layers)
{
	double w = bits_f32(bits);

	if (isnan(w) || w < 0)
		return 0;
	w = nearbyint(w);
	return w >= (double)layers ? layers - 1 : (unsigned int)w;
}

uint32_t sgpu_texture_run(const struct sgpu_tex_env *env,
			  const struct sgpu_tex_tables *tab,
			  const struct sgpu_tex_query *q, uint32_t out[4],
			  struct sgpu_tex_cost *cost)
{
	struct tex_state s;
	uint8_t desc[MDG_TEXTURE_BYTES], smp[MDG_SAMPLER_BYTES];
	unsigned int dims, levels, layers, level = 0, layer = 0;
	uint64_t va = 0;
	struct texel t;
	uint32_t code;

	memset(&s, 0, sizeof(s));
	s.env = env;
	s.cost = cost;
	cost->cycles = 1;
	cost->texels = 0;
	if (q->op != MDG_TEX_OP_NORMAL && q->op != MDG_TEX_OP_GRADIENT &&
	    q->op != MDG_TEX_OP_FETCH)
		return refuse(env, "op %u is not modelled", q->op);
	code = read_texture(&s, tab, q, desc, &va);
	if (code)
		return code;
	dims = q->dimension;            /* 1, 2 or 3 here */
	levels = (unsigned int)mdg_get(desc, MDG_TEXTURE_LEVELS);
	layers = (unsigned int)mdg_get(desc, MDG_TEXTURE_ARRAY_SIZE);

	if (q->op == MDG_TEX_OP_FETCH) {
		int64_t i[3] = { 0, 0, 0 };
		bool inside = true;
		int64_t l = (int32_t)q->coord[3];

		/* A fetch reads no sampler; outside, the texel is zero. */
		if (q->lod < 0 || (uint32_t)q->lod >= levels ||
		    l < 0 || l >= layers)
			inside = false;
		else
			level = (unsigned int)q->lod, layer = (unsigned int)l;
		set_level(&s, desc, dims, level);
		for (unsigned int d = 0; d < dims && inside; d++) {
			uint32_t n = d == 0 ? s.surf.width :
				     d == 1 ? s.surf.height : s.surf.depth;

			i[d] = (int64_t)(int32_t)q->coord[d] + q->offset[d];
			if (i[d] < 0 || i[d] >= n)
				inside = false;
		}
		if (!inside) {
			memset(&t, 0, sizeof(t));
		} else {
			code = find_surface(&s, va, desc, level, layer);
			if (!code)
				code = load_texel(&s, (uint32_t)i[0],
						  (uint32_t)i[1],
						  (uint32_t)i[2], &t);
			if (code)
				return code;
		}
	} else {
		bool normalized, linear;
		int64_t lod;
		double u[3];

		code = read_sampler(&s, tab, q->sampler, smp);
		if (code)
			return code;
		normalized = mdg_get(smp, MDG_SAMPLER_NORMALIZED_COORDINATES);
		lod = sampler_lod(smp, q->lod);
		linear = !mdg_get(smp, lod > 0 ? MDG_SAMPLER_MINIFY_NEAREST :
				  MDG_SAMPLER_MAGNIFY_NEAREST);
		/* Nearest mip level: round half down (GL), then clamp. */
		if (lod > 128)
			level = (unsigned int)((lod + 127) / 256);
		if (level >= levels)
			level = levels - 1;
		if (dims < 3)
			layer = float_layer(q->coord[3], layers);
		set_level(&s, desc, dims, level);
		code = find_surface(&s, va, desc, level, layer);
		if (code)
			return code;
		for (unsigned int d = 0; d < dims; d++) {
			uint32_t n = d == 0 ? s.surf.width :
				     d == 1 ? s.surf.height : s.surf.depth;
			double c = bits_f32(q->coord[d]);

			if (normalized)
				c *= n;
			c += q->offset[d];
			u[d] = texel_coord(s.wrap[d], c, n);
		}
		code = sample_filtered(&s, dims, u, linear, &t);
		if (code)
			return code;
		if (linear && dims == 3 && !is_int_kind(s.fmt.kind))
			cost->cycles = 2;
	}
	swizzle_out(&s, &t, out);
	return 0;
}

bool sgpu_tex_format_decode(uint32_t pixfmt, struct sgpu_tex_format *f)
{
	if (pixfmt & (PIXFMT_SRGB | PIXFMT_BIG_ENDIAN))
		return false;
	return decode_format(PIXFMT_FORMAT(pixfmt), f) &&
	       decode_swizzle(PIXFMT_SWIZZLE(pixfmt), f->swizzle);
}

void sgpu_tex_unpack(const struct sgpu_tex_format *f, const uint8_t *raw,
		     uint32_t out[4])
{
	bool ints = is_int_kind(f->kind);
	struct texel t;

	unpack_raw(f, raw, &t);
	for (unsigned int c = 0; c < 4; c++) {
		unsigned int sw = f->swizzle[c];

		if (sw <= CH_A && ints)
			out[c] = t.u[sw];
		else if (sw <= CH_A)
			memcpy(&out[c], &t.f[sw], 4);
		else
			out[c] = sw == CH_0 ? 0 : ints ? 1u : 0x3F800000u;
	}
}

/* fp32 bits v as an unsigned normalised integer of n bits. */
static uint32_t pack_unorm(uint32_t v, unsigned int n)
{
	float f = bits_f32(v), m = (float)(UINT32_MAX >> (32 - n));

	if (!(f > 0.0f))             /* NaN and negatives */
		return 0;
	if (f >= 1.0f)
		return UINT32_MAX >> (32 - n);
	return (uint32_t)nearbyintf(f * m);
}

static uint32_t pack_snorm(uint32_t v, unsigned int n)
{
	float f = bits_f32(v), m = (float)((1u << (n - 1)) - 1);
	int32_t i;

	if (isnan(f))
		return 0;
	if (f >= 1.0f)
		i = (int32_t)((1u << (n - 1)) - 1);
	else if (f <= -1.0f)
		i = -(int32_t)((1u << (n - 1)) - 1);
	else
		i = (int32_t)nearbyintf(f * m);
	return (uint32_t)i;
}

void sgpu_tex_pack(const struct sgpu_tex_format *f, const uint32_t in[4],
		   uint8_t *raw)
{
	for (unsigned int c = 0; c < f->comps; c++) {
		uint32_t v = 0, out = 0;
		uint64_t lim = f->bits == 32 ? UINT32_MAX :
			       (1ull << f->bits) - 1;

		/* The output channel the format swizzle takes from c. */
		for (unsigned int j = 0; j < 4; j++) {
			if (f->swizzle[j] == c) {
				v = in[j];
				break;
			}
		}
		switch (f->kind) {
		case SGPU_TEX_UNORM:
			out = f->bits == 32 ? (uint32_t)nearbyint(
				fmin(fmax(isnan(bits_f32(v)) ? 0.0 :
					  bits_f32(v), 0.0), 1.0) *
				UINT32_MAX) : pack_unorm(v, f->bits);
			break;
		case SGPU_TEX_SNORM:
			out = f->bits == 32 ? (uint32_t)(int32_t)nearbyint(
				fmin(fmax(isnan(bits_f32(v)) ? 0.0 :
					  bits_f32(v), -1.0), 1.0) *
				INT32_MAX) : pack_snorm(v, f->bits);
			break;
		case SGPU_TEX_UINT:
			out = v > lim ? (uint32_t)lim : v;
			break;
		case SGPU_TEX_SINT: {
			int64_t hi = (int64_t)(lim >> 1), sv = (int32_t)v;

			out = (uint32_t)(sv > hi ? hi : sv < -hi - 1 ?
					 -hi - 1 : sv);
			break;
		}
		case SGPU_TEX_FLOAT:
			out = f->bits == 16 ? sgpu_f32_to_f16(v, SGPU_RTE) : v;
			break;
		}
		for (unsigned int b = 0; b < f->bits / 8; b++)
			raw[c * f->bits / 8 + b] = (uint8_t)(out >> (8 * b));
	}
}
