/* SPDX-License-Identifier: MIT */
/*
 * Texture words in compute jobs on the model's shader cores, on both
 * engines: kernels in our assembler read coordinates from a buffer into
 * r28, sample or fetch an RGBA8 image through the job's texture and
 * sampler tables (docs/hardware.md §4.10) into r29 and store it. The
 * expected values come from the image's bytes by OpenCL's rules (UNORM8 is
 * v / 255; a linear sample halfway between two texels is their mean); the
 * texture unit's own formats and modes are tested in test_sgpu_texture.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compute_harness.h"
#include "midgard_desc.h"

CHECK_MAIN_STATE("sgpu_tex_shader");

static struct fake_host fh;

#define IN_VA (CH_DATA_VA + 0x00000)
#define OUT_VA (CH_DATA_VA + 0x10000)
#define UBO0_VA (CH_DATA_VA + 0x20000)
#define TEX_TABLE_VA (CH_DATA_VA + 0x30000)
#define SMP_TABLE_VA (CH_DATA_VA + 0x30100)
#define DESC_VA (CH_DATA_VA + 0x30400)
#define TEXELS_VA (CH_DATA_VA + 0x31000)

#define W 8
#define H 8
#define THREADS (W * H)

/* out[gid] = texture op on in[gid]: TEX_LINE is the texture bundle. */
static const char kernel_fmt[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r1.xy, ubo(0)[0]\n"
	"ldst\n"
	"	ld_ubo.64 r2.xy, ubo(0)[8]\n"
	"alu\n"
	"	vadd.imov.i32 r26.xy, r1.xyzw\n"
	"	sadd.imov.i32 r26.z, r0.x\n"
	"ldst\n"
	"	ld.128 r3.xyzw, [r26.xy + r26.z.u32 << 4]\n"
	"alu\n"
	"	vmul.imov.i32 r28, r3\n"
	"	vadd.imov.i32 r29, #0\n"
	"%s\n"
	"alu\n"
	"	vmul.imov.i32 r27, r29\n"
	"	vadd.imov.i32 r26.xy, r2.xyzw\n"
	"	sadd.imov.i32 r26.z, r0.x\n"
	"ldst\n"
	"	st.128 r27.xyzw, [r26.xy + r26.z.u32 << 4]\n";

static char kernel[2048];

static uint8_t texel(unsigned int x, unsigned int y, unsigned int c)
{
	const uint8_t v[4] = { (uint8_t)(x * 30), (uint8_t)(y * 30),
			       (uint8_t)(x + y * 3), 255 };

	return v[c];
}

static bool texture_count_one = true;

/* The job's texture and sampler tables, after ch_run wrote the job. */
static void bind_tables(struct fake_host *h, void *data)
{
	uint8_t *draw = ch_ptr(h, CH_JOB_VA) + MDG_COMPUTE_JOB_DRAW_OFFSET;
	uint8_t *rsd = ch_ptr(h, CH_RSD_VA);

	(void)data;
	CHECK(mdg_set(draw, MDG_DRAW_TEXTURES, TEX_TABLE_VA));
	CHECK(mdg_set(draw, MDG_DRAW_SAMPLERS, SMP_TABLE_VA));
	CHECK(mdg_set(rsd, MDG_RENDERER_STATE_TEXTURE_COUNT,
		      texture_count_one ? 1 : 0));
	CHECK(mdg_set(rsd, MDG_RENDERER_STATE_SAMPLER_COUNT, 2));
}

/* An 8x8 linear RGBA8 UNORM image, sampler 0 nearest, 1 linear. */
static void build_image(void)
{
	uint8_t desc[MDG_TEXTURE_BYTES], smp[MDG_SAMPLER_BYTES];
	uint64_t ptrs[2] = { OUT_VA, 0 };

	memset(desc, 0, sizeof(desc));
	CHECK(mdg_set(desc, MDG_TEXTURE_WIDTH, W));
	CHECK(mdg_set(desc, MDG_TEXTURE_HEIGHT, H));
	CHECK(mdg_set(desc, MDG_TEXTURE_DEPTH, 1));
	CHECK(mdg_set(desc, MDG_TEXTURE_ARRAY_SIZE, 1));
	/* RGBA8 UNORM (187), swizzle RGBA. */
	CHECK(mdg_set(desc, MDG_TEXTURE_FORMAT,
		      (0 | 1 << 3 | 2 << 6 | 3 << 9) | 187u << 12));
	CHECK(mdg_set(desc, MDG_TEXTURE_DIMENSION, MDG_TEXTURE_DIMENSION_2D));
	CHECK(mdg_set(desc, MDG_TEXTURE_TEXEL_ORDERING,
		      MDG_TEXTURE_LAYOUT_LINEAR));
	CHECK(mdg_set(desc, MDG_TEXTURE_SURFACE_POINTER_IS_64B, 1));
	CHECK(mdg_set(desc, MDG_TEXTURE_LEVELS, 1));
	CHECK(mdg_set(desc, MDG_TEXTURE_SWIZZLE, 0 | 1 << 3 | 2 << 6 | 3 << 9));
	memcpy(ch_ptr(&fh, DESC_VA), desc, sizeof(desc));
	memcpy(ch_ptr(&fh, DESC_VA + MDG_TEXTURE_BYTES), &(uint64_t){
	       TEXELS_VA }, 8);
	memcpy(ch_ptr(&fh, TEX_TABLE_VA), &(uint64_t){ DESC_VA }, 8);
	for (unsigned int s = 0; s < 2; s++) {
		memset(smp, 0, sizeof(smp));
		CHECK(mdg_set(smp, MDG_SAMPLER_MAGNIFY_NEAREST, s == 0));
		CHECK(mdg_set(smp, MDG_SAMPLER_MINIFY_NEAREST, s == 0));
		CHECK(mdg_set(smp, MDG_SAMPLER_NORMALIZED_COORDINATES, 1));
		CHECK(mdg_set(smp, MDG_SAMPLER_WRAP_MODE_S,
			      MDG_WRAP_MODE_CLAMP_TO_EDGE));
		CHECK(mdg_set(smp, MDG_SAMPLER_WRAP_MODE_T,
			      MDG_WRAP_MODE_CLAMP_TO_EDGE));
		CHECK(mdg_set(smp, MDG_SAMPLER_WRAP_MODE_R,
			      MDG_WRAP_MODE_CLAMP_TO_EDGE));
		memcpy(ch_ptr(&fh, SMP_TABLE_VA + s * MDG_SAMPLER_BYTES), smp,
		       sizeof(smp));
	}
	for (unsigned int y = 0; y < H; y++)
		for (unsigned int x = 0; x < W; x++)
			for (unsigned int c = 0; c < 4; c++)
				ch_ptr(&fh, TEXELS_VA)[(y * W + x) * 4 + c] =
					texel(x, y, c);
	ptrs[0] = IN_VA;
	ptrs[1] = OUT_VA;
	memcpy(ch_ptr(&fh, UBO0_VA), ptrs, sizeof(ptrs));
}

static struct ch_result run_kernel(const char *tex_line)
{
	struct ch_kernel k = {
		.source = kernel,
		.local_size = { 16, 1, 1 }, .num_groups = { THREADS / 16, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
		.before_submit = bind_tables,
	};
	struct ch_result r;

	snprintf(kernel, sizeof(kernel), kernel_fmt, tex_line);
	memset(ch_ptr(&fh, OUT_VA), 0xAB, THREADS * 16);
	memset(&r, 0, sizeof(r));
	CHECK(ch_run(&fh, &k, &r));
	return r;
}

static void put_coords(unsigned int i, const void *v)
{
	memcpy(ch_ptr(&fh, IN_VA + i * 16), v, 16);
}

static void out_f32(unsigned int i, float v[4])
{
	memcpy(v, ch_ptr(&fh, OUT_VA + i * 16), 16);
}

static const enum sgpu_engine engines[] = {
	SGPU_ENGINE_REFERENCE, SGPU_ENGINE_LOCKSTEP,
};

#define NORMAL_2D(sampler) \
	"tex normal {mode=1, format=2, sampler_type=1, in_full=1, " \
	"in_swizzle=0xE4, out_full=1, out_select=1, mask=15, " \
	"swizzle=0xE4, sampler_handle=" #sampler "}"

TEST(sample_nearest_and_linear)
{
	for (size_t e = 0; e < 2; e++) {
		struct ch_result r;
		struct sgpu_stats d;

		REQUIRE(ch_setup_engine(&fh, engines[e], 1));
		build_image();
		/* Nearest at texel centres. */
		for (unsigned int i = 0; i < THREADS; i++) {
			float c[4] = { ((i % W) + 0.5f) / W,
				       ((i / W) + 0.5f) / H, 0, 0 };

			put_coords(i, c);
		}
		r = run_kernel(NORMAL_2D(0));
		CHECK_EQ(r.js_status, 1);
		for (unsigned int i = 0; i < THREADS; i++) {
			float got[4];

			out_f32(i, got);
			for (unsigned int ch = 0; ch < 4; ch++) {
				float want = (float)(texel(i % W, i / W, ch) /
						     255.0);

				if (got[ch] != want)
					CHECK_FAIL_AT(__FILE__, __LINE__,
						      "engine %zu thread %u ch %u:"
						      " %g != %g", e, i, ch,
						      (double)got[ch],
						      (double)want);
			}
		}
		d.shader_tex_bundles = r.after.shader_tex_bundles -
				       r.before.shader_tex_bundles;
		d.shader_tex_cycles = r.after.shader_tex_cycles -
				      r.before.shader_tex_cycles;
		CHECK_EQ(d.shader_tex_bundles, THREADS);
		CHECK_EQ(d.shader_tex_cycles, THREADS);

		/* Linear halfway between texels x and x + 1 (edge-clamped). */
		for (unsigned int i = 0; i < THREADS; i++) {
			float c[4] = { ((i % W) + 1.0f) / W,
				       ((i / W) + 0.5f) / H, 0, 0 };

			put_coords(i, c);
		}
		r = run_kernel(NORMAL_2D(1));
		CHECK_EQ(r.js_status, 1);
		for (unsigned int i = 0; i < THREADS; i++) {
			unsigned int x = i % W, y = i / W;
			unsigned int x1 = x + 1 < W ? x + 1 : x;
			float got[4];

			out_f32(i, got);
			for (unsigned int ch = 0; ch < 4; ch++) {
				double want = (texel(x, y, ch) +
					       texel(x1, y, ch)) / 2.0 / 255.0;

				if (fabs(got[ch] - want) > 1e-6)
					CHECK_FAIL_AT(__FILE__, __LINE__,
						      "engine %zu thread %u ch %u:"
						      " %g != %g", e, i, ch,
						      (double)got[ch], want);
			}
		}
		CHECK(fh_fini(&fh));
	}
}

TEST(fetch_swizzle_and_half_output)
{
	for (size_t e = 0; e < 2; e++) {
		struct ch_result r;

		REQUIRE(ch_setup_engine(&fh, engines[e], 1));
		build_image();
		for (unsigned int i = 0; i < THREADS; i++) {
			int32_t c[4] = { (int32_t)(i % W), (int32_t)(i / W),
					 0, 0 };

			put_coords(i, c);
		}
		/* Fetch, the result reversed (swizzle wzyx). */
		r = run_kernel("tex fetch {mode=1, format=2, sampler_type=1, "
			       "in_full=1, in_swizzle=0xE4, out_full=1, "
			       "out_select=1, mask=15, swizzle=0x1B}");
		CHECK_EQ(r.js_status, 1);
		for (unsigned int i = 0; i < THREADS; i++) {
			float got[4];

			out_f32(i, got);
			for (unsigned int ch = 0; ch < 4; ch++)
				CHECK(got[ch] == (float)(texel(i % W, i / W,
							 3 - ch) / 255.0));
		}
		/*
		 * The texture index from r28.z (a register select: 32-bit,
		 * r28, component z), an immediate offset of +1 in x: texel
		 * (x + 1, y), zero past the right edge.
		 */
		r = run_kernel("tex fetch {mode=1, format=2, sampler_type=1, "
			       "in_full=1, in_swizzle=0xE4, out_full=1, "
			       "out_select=1, mask=15, swizzle=0xE4, "
			       "texture_register=1, texture_handle=0x11, "
			       "offset=0x001}");
		CHECK_EQ(r.js_status, 1);
		for (unsigned int i = 0; i < THREADS; i++) {
			unsigned int x = i % W + 1, y = i / W;
			float got[4];

			out_f32(i, got);
			for (unsigned int ch = 0; ch < 4; ch++)
				CHECK(got[ch] == (x < W ? (float)(texel(x, y,
						  ch) / 255.0) : 0.0f));
		}
		/* 16-bit results in r29's lower half, .xy written only. */
		r = run_kernel("tex fetch {mode=1, format=2, sampler_type=1, "
			       "in_full=1, in_swizzle=0xE4, out_full=0, "
			       "out_select=1, mask=3, swizzle=0xE4}");
		CHECK_EQ(r.js_status, 1);
		for (unsigned int i = 0; i < THREADS; i++) {
			const uint8_t *o = ch_ptr(&fh, OUT_VA + i * 16);
			_Float16 h[8];

			memcpy(h, o, 16);
			for (unsigned int ch = 0; ch < 2; ch++)
				CHECK((float)h[ch] ==
				      (float)(_Float16)(texel(i % W, i / W, ch) /
							255.0f));
			/* The rest keeps the 0 the kernel put in r29. */
			for (unsigned int ch = 2; ch < 8; ch++)
				CHECK((float)h[ch] == 0.0f);
		}
		CHECK(fh_fini(&fh));
	}
}

TEST(bad_texture_index_faults)
{
	for (size_t e = 0; e < 2; e++) {
		struct ch_result r;

		REQUIRE(ch_setup_engine(&fh, engines[e], 1));
		build_image();
		for (unsigned int i = 0; i < THREADS; i++) {
			float c[4] = { 0.5f, 0.5f, 0, 0 };

			put_coords(i, c);
		}
		texture_count_one = false;
		r = run_kernel(NORMAL_2D(0));
		texture_count_one = true;
		CHECK_EQ(r.js_status, MDG_EXCEPTION_DATA_INVALID_FAULT);
		/* A shadow-mode word is not modelled: an invalid encoding. */
		r = run_kernel("tex normal {mode=5, format=2, sampler_type=1, "
			       "in_full=1, out_full=1, out_select=1, mask=15}");
		CHECK_EQ(r.js_status, MDG_EXCEPTION_INSTR_INVALID_ENC);
		CHECK(fh_fini(&fh));
	}
}

int main(void)
{
	RUN(sample_nearest_and_linear);
	RUN(fetch_swizzle_and_half_output);
	RUN(bad_texture_index_faults);
	return check_summary();
}
