/* SPDX-License-Identifier: MIT */
/*
 * One texture word for one thread (docs/hardware.md §5.9): the
 * coordinates, LOD, offsets and handles from r28/r29 as the word selects
 * them, the texture unit (sgpu_texture.c), and the result back into
 * r28/r29 under the word's mask, swizzle and output modifier. Both
 * engines call it; the lockstep engine lane by lane.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "sgpu_float.h"
#include "sgpu_shader.h"
#include "sgpu_texture.h"

static uint32_t env_read(void *ctx, uint64_t va, void *dst, size_t len)
{
	return sgpu_mem_read((struct sgpu_exec *)ctx, va, dst, len);
}

__attribute__((format(printf, 2, 3)))
static void env_error(void *ctx, const char *fmt, ...)
{
	struct sgpu_exec *ex = ctx;
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sgpu_shader_guest_error(ex->ctx, "%s", msg);
}

static uint32_t refuse(struct sgpu_exec *ex,
		       const struct sgpu_cached_bundle *cb, const char *what)
{
	sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle 0x%llx: "
				"texture word: %s", (unsigned long long)cb->va,
				what);
	return MDG_EXCEPTION_INSTR_INVALID_ENC;
}

/*
 * A 16-bit register lane as 32 bits: fp16 widened to fp32 for float
 * operands, sign-extended for integers.
 */
static uint32_t widen16(uint16_t h, bool is_float)
{
	return is_float ? sgpu_f16_to_f32(h) : (uint32_t)(int32_t)(int16_t)h;
}

/*
 * The component a register select byte names (Mesa's
 * midgard_tex_register_select: full, r28/r29, upper half, component);
 * false for a malformed one.
 */
static bool read_select(const union sgpu_reg tex[2], unsigned int sel,
			bool is_float, uint32_t *out)
{
	bool full = sel & 1, upper = (sel >> 2) & 1;
	const union sgpu_reg *r = &tex[(sel >> 1) & 1];
	unsigned int comp = (sel >> 3) & 3;

	if ((sel >> 5) || (full && upper))
		return false;
	*out = full ? r->u32[comp] : widen16(r->u16[comp + upper * 4],
					     is_float);
	return true;
}

static int32_t sext4(unsigned int v)
{
	return (int32_t)(v & 7) - (int32_t)(v & 8);
}

/* The query's coordinates, LOD, offsets and handles from the registers. */
static bool gather(const struct mdg_tex *t, const union sgpu_reg tex[2],
		   struct sgpu_tex_query *q)
{
	const union sgpu_reg *in = &tex[t->in_select];
	bool fetch = t->op == MDG_TEX_OP_FETCH;
	uint32_t v;

	if (t->in_full && t->in_upper)
		return false;
	for (unsigned int c = 0; c < 4; c++) {
		unsigned int s = (t->in_swizzle >> (2 * c)) & 3;

		q->coord[c] = t->in_full ? in->u32[s] :
			      widen16(in->u16[s + t->in_upper * 4], !fetch);
	}
	if (t->lod_register) {
		if (!read_select(tex, t->bias, !fetch, &v))
			return false;
		if (fetch) {
			q->lod = (int32_t)v;
		} else {
			float f;
			double l;

			memcpy(&f, &v, 4);
			l = isnan(f) ? 0.0 : nearbyint((double)f * 256.0);
			q->lod = l > INT32_MAX ? INT32_MAX :
				 l < INT32_MIN ? INT32_MIN : (int32_t)l;
		}
	} else {
		q->lod = fetch ? t->bias : t->bias_int * 256 + t->bias;
	}
	if (t->offset_register) {
		unsigned int o = t->offset, sw = (o >> 3) & 0xFF;
		bool full = o & 1, upper = (o >> 2) & 1;
		const union sgpu_reg *r = &tex[(o >> 1) & 1];

		if ((o >> 11) || (full && upper))
			return false;
		for (unsigned int c = 0; c < 3; c++) {
			unsigned int s = (sw >> (2 * c)) & 3;

			q->offset[c] = full ? (int32_t)r->u32[s] :
				       (int16_t)r->u16[s + upper * 4];
		}
	} else {
		for (unsigned int c = 0; c < 3; c++)
			q->offset[c] = sext4(t->offset >> (4 * c));
	}
	q->texture = t->texture_handle;
	q->sampler = t->sampler_handle;
	if (t->texture_register) {
		if (t->texture_handle >> 8 ||
		    !read_select(tex, t->texture_handle, false, &q->texture))
			return false;
	}
	if (t->sampler_register) {
		if (t->sampler_handle >> 8 ||
		    !read_select(tex, t->sampler_handle, false, &q->sampler))
			return false;
	}
	return true;
}

/* The float output modifiers, with NaN as midgard_isa.h gives them. */
static uint32_t outmod_f32(uint32_t bits, unsigned int outmod)
{
	float f, lo = outmod == MDG_OUTMOD_CLAMP_M1_1 ? -1.0f : 0.0f;

	memcpy(&f, &bits, 4);
	if (outmod == MDG_OUTMOD_NONE)
		return bits;
	if (isnan(f))
		f = lo;
	else if (f < lo)
		f = lo;
	else if (outmod != MDG_OUTMOD_CLAMP_POS && f > 1.0f)
		f = 1.0f;
	memcpy(&bits, &f, 4);
	return bits;
}

uint32_t sgpu_tex_word_run(struct sgpu_exec *ex,
			   const struct sgpu_cached_bundle *cb,
			   union sgpu_reg tex[2])
{
	const struct mdg_tex *t = &cb->b.tex;
	const struct sgpu_tex_env env = {
		.read = env_read, .error = env_error, .ctx = ex,
	};
	bool is_float = t->sampler_type == 1;
	struct sgpu_tex_query q;
	struct sgpu_tex_cost cost;
	union sgpu_reg *out;
	uint32_t res[4], code;

	if (t->op != MDG_TEX_OP_NORMAL && t->op != MDG_TEX_OP_GRADIENT &&
	    t->op != MDG_TEX_OP_FETCH)
		return refuse(ex, cb, "op not modelled (compute uses normal, "
			      "gradient and fetch)");
	if (t->mode != 1)
		return refuse(ex, cb, "shadow and gather modes are not "
			      "modelled");
	if (t->sampler_type == 0)
		return refuse(ex, cb, "reserved sampler type 0");
	if (t->out_full && t->out_upper)
		return refuse(ex, cb, "32-bit output in the upper half");
	memset(&q, 0, sizeof(q));
	q.op = t->op;
	q.dimension = t->format;
	if (!gather(t, tex, &q))
		return refuse(ex, cb, "malformed register select");
	code = sgpu_texture_run(&env, &ex->tex_tables, &q, res, &cost);
	if (code)
		return code;
	/* Every texture bundle counts one cycle; more for 3D filtering. */
	ex->counts.tex_cycles += cost.cycles - 1;

	out = &tex[t->out_select];
	for (unsigned int c = 0; c < 4; c++) {
		uint32_t v = res[(t->swizzle >> (2 * c)) & 3];

		if (!(t->mask & (1u << c)))
			continue;
		if (is_float)
			v = outmod_f32(v, t->outmod);
		if (t->out_full)
			out->u32[c] = v;
		else
			out->u16[c + t->out_upper * 4] = is_float ?
				sgpu_f32_to_f16(v, SGPU_RTE) :
				(uint16_t)v;
	}
	return 0;
}
