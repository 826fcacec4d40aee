/* SPDX-License-Identifier: MIT */
/*
 * Image loads, stores and texel addresses on the load/store unit
 * (LD_IMAGE, ST_IMAGE, LEA_IMAGE; docs/hardware.md §4.10) in compute jobs
 * on both engines. The images are described as Mesa does for Midgard:
 * attribute records naming 3D attribute buffers. Expected texels follow
 * OpenCL 1.2 §8.3's write_image conversions (convert_uchar_sat_rte(f *
 * 255), convert_short_sat, round-to-nearest-even half), worked out here by
 * hand-written rules; stores outside the image must leave memory alone.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compute_harness.h"
#include "midgard_desc.h"

CHECK_MAIN_STATE("sgpu_image");

static struct fake_host fh;

#define VAL_VA (CH_DATA_VA + 0x00000)   /* 16 bytes a thread */
#define CRD_VA (CH_DATA_VA + 0x01000)   /* 8 bytes a thread */
#define OUT_VA (CH_DATA_VA + 0x02000)   /* 16 bytes a thread */
#define UBO0_VA (CH_DATA_VA + 0x03000)
#define ATTR_VA (CH_DATA_VA + 0x04000)
#define ABUF_VA (CH_DATA_VA + 0x04100)
#define IMG0_VA (CH_DATA_VA + 0x10000)
#define IMG1_VA (CH_DATA_VA + 0x20000)
#define IMG_BYTES 0x1000

#define THREADS 48

static const char kernel_fmt[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r1.xy, ubo(0)[0]\n"
	"ldst\n"
	"	ld_ubo.64 r2.xy, ubo(0)[8]\n"
	"	ld_ubo.64 r3.xy, ubo(0)[16]\n"
	"alu\n"
	"	vadd.imov.i32 r26.xy, r1.xyzw\n"
	"	sadd.imov.i32 r26.z, r0.x\n"
	"ldst\n"
	"	ld.128 r4.xyzw, [r26.xy + r26.z.u32 << 4]\n"
	"alu\n"
	"	vadd.imov.i32 r26.xy, r2.xyzw\n"
	"ldst\n"
	"	ld.64 r5.xy, [r26.xy + r26.z.u32 << 3]\n"
	"alu\n"
	"	vmul.imov.i32 r26, r4\n"
	"	vadd.imov.i32 r27, r5\n"
	"ldst\n"
	"	%s\n"
	"alu\n"
	"	vmul.imov.i32 r27, r6\n"
	"	vadd.imov.i32 r26.xy, r3.xyzw\n"
	"	sadd.imov.i32 r26.z, r0.x\n"
	"ldst\n"
	"	st.128 r27.xyzw, [r26.xy + r26.z.u32 << 4]\n";

static char kernel[2048];
static unsigned int attribute_count = 2;

static void bind(struct fake_host *h, void *data)
{
	uint8_t *draw = ch_ptr(h, CH_JOB_VA) + MDG_COMPUTE_JOB_DRAW_OFFSET;

	(void)data;
	CHECK(mdg_set(draw, MDG_DRAW_ATTRIBUTES, ATTR_VA));
	CHECK(mdg_set(draw, MDG_DRAW_ATTRIBUTE_BUFFERS, ABUF_VA));
	CHECK(mdg_set(ch_ptr(h, CH_RSD_VA), MDG_RENDERER_STATE_ATTRIBUTE_COUNT,
		      attribute_count));
}

/* Attribute n -> buffer records 2n, 2n + 1: a 3D linear image. */
static void describe(unsigned int n, uint64_t va, uint32_t pixfmt,
		     uint32_t texel_bytes, const uint32_t dim[3], uint32_t row,
		     uint32_t slice)
{
	uint8_t *a = ch_ptr(&fh, ATTR_VA + n * MDG_ATTRIBUTE_BYTES);
	uint8_t *b = ch_ptr(&fh, ABUF_VA + 2 * n * MDG_ATTRIBUTE_BUFFER_BYTES);
	uint8_t *c = b + MDG_ATTRIBUTE_BUFFER_BYTES;

	memset(a, 0, MDG_ATTRIBUTE_BYTES);
	memset(b, 0, 2 * MDG_ATTRIBUTE_BUFFER_BYTES);
	CHECK(mdg_set(a, MDG_ATTRIBUTE_BUFFER_INDEX, 2 * n));
	CHECK(mdg_set(a, MDG_ATTRIBUTE_FORMAT, pixfmt));
	CHECK(mdg_set(b, MDG_ATTRIBUTE_BUFFER_TYPE,
		      MDG_ATTRIBUTE_TYPE_3D_LINEAR));
	CHECK(mdg_set(b, MDG_ATTRIBUTE_BUFFER_POINTER, va));
	CHECK(mdg_set(b, MDG_ATTRIBUTE_BUFFER_STRIDE, texel_bytes));
	CHECK(mdg_set(b, MDG_ATTRIBUTE_BUFFER_SIZE, IMG_BYTES));
	CHECK(mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_TYPE,
		      MDG_ATTRIBUTE_TYPE_CONTINUATION));
	CHECK(mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_S_DIMENSION,
		      dim[0]));
	CHECK(mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_T_DIMENSION,
		      dim[1]));
	CHECK(mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_R_DIMENSION,
		      dim[2]));
	CHECK(mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_ROW_STRIDE,
		      row));
	CHECK(mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_SLICE_STRIDE,
		      slice));
}

#define SWZ_RGBA (0 | 1 << 3 | 2 << 6 | 3 << 9)
#define SWZ_R001 (0 | 4 << 3 | 4 << 6 | 5 << 9)
#define SWZ_RG01 (0 | 1 << 3 | 4 << 6 | 5 << 9)
/* Attribute 0: 8x4 RGBA8 UNORM, lines padded to 64 bytes. */
static const uint32_t dim0[3] = { 8, 4, 1 };
#define ROW0 64
/* Attribute 1: 4x2x3 RG16I, 16-byte lines, 48-byte slices. */
static const uint32_t dim1[3] = { 4, 2, 3 };
#define ROW1 16
#define SLICE1 48

static void setup_images(void)
{
	const uint64_t ptrs[3] = { VAL_VA, CRD_VA, OUT_VA };

	memcpy(ch_ptr(&fh, UBO0_VA), ptrs, sizeof(ptrs));
	describe(0, IMG0_VA, SWZ_RGBA | 187u << 12, 4, dim0, ROW0,
		 ROW0 * 4);
	describe(1, IMG1_VA, SWZ_RG01 | 204u << 12, 4, dim1, ROW1, SLICE1);
	memset(ch_ptr(&fh, IMG0_VA), 0xCD, IMG_BYTES);
	memset(ch_ptr(&fh, IMG1_VA), 0xCD, IMG_BYTES);
}

static bool run(const char *op_line, uint32_t *status)
{
	struct ch_kernel k = {
		.source = kernel,
		.local_size = { 16, 1, 1 },
		.num_groups = { THREADS / 16, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 32 },
		.before_submit = bind,
	};
	struct ch_result r;

	snprintf(kernel, sizeof(kernel), kernel_fmt, op_line);
	if (!ch_run(&fh, &k, &r))
		return false;
	*status = r.js_status;
	return true;
}

static void put_val(unsigned int i, const void *v16)
{
	memcpy(ch_ptr(&fh, VAL_VA + 16 * i), v16, 16);
}

static void put_crd(unsigned int i, unsigned int x, unsigned int y,
		    unsigned int z)
{
	uint64_t c = (uint64_t)x | (uint64_t)y << 16 | (uint64_t)z << 32;

	memcpy(ch_ptr(&fh, CRD_VA + 8 * i), &c, 8);
}

/* OpenCL's convert_uchar_sat_rte(f * 255.0f), by cases. */
static uint8_t ref_unorm8(float f)
{
	float p = f * 255.0f, fl;

	if (isnan(f) || p <= 0.0f)
		return 0;
	if (p >= 255.0f)
		return 255;
	fl = floorf(p);
	if (p - fl > 0.5f || (p - fl == 0.5f && ((int)fl & 1)))
		return (uint8_t)(fl + 1);
	return (uint8_t)fl;
}

static const enum sgpu_engine engines[] = {
	SGPU_ENGINE_REFERENCE, SGPU_ENGINE_LOCKSTEP,
};

#define ST_F32_ATTR0 \
	"st_image.f32 {reg=0, mask=15, swizzle=0xE4, arg_reg=1, " \
	"index_reg=7, offset=0x0}"

TEST(store_unorm8_2d)
{
	for (size_t e = 0; e < 2; e++) {
		uint8_t want[IMG_BYTES];
		uint32_t status = 0;

		REQUIRE(ch_setup_engine(&fh, engines[e], 1));
		setup_images();
		memset(want, 0xCD, sizeof(want));
		for (unsigned int i = 0; i < THREADS; i++) {
			float v[4] = {
				(float)i / 31.0f, (0.5f + (float)i) / 255.0f,
				(float)i * 0.1f - 1.0f, i % 3 ? NAN : 1.5f,
			};
			unsigned int x = i % 8, y = i / 8;

			put_val(i, v);
			if (i >= 32) {
				/* Outside: x, y or both out of range. */
				x = i % 2 ? 8 + i : i % 8;
				y = i % 2 ? i % 4 : 4 + i;
			}
			put_crd(i, x, y, 0);
			if (i < 32)
				for (unsigned int c = 0; c < 4; c++)
					want[y * ROW0 + x * 4 + c] =
						ref_unorm8(v[c]);
		}
		REQUIRE(run(ST_F32_ATTR0, &status));
		CHECK_EQ(status, 1);
		if (memcmp(ch_ptr(&fh, IMG0_VA), want, sizeof(want))) {
			for (unsigned int b = 0; b < IMG_BYTES; b++)
				if (ch_ptr(&fh, IMG0_VA)[b] != want[b]) {
					CHECK_FAIL_AT(__FILE__, __LINE__,
						      "engine %zu byte %u: "
						      "0x%02x != 0x%02x", e, b,
						      ch_ptr(&fh, IMG0_VA)[b],
						      want[b]);
					break;
				}
		}
		/* Ties go to even: 0.5 -> 0, 1.5 -> 2 (OpenCL's rte). */
		CHECK_EQ(ref_unorm8(0.5f / 255.0f), 0);
		CHECK_EQ(ref_unorm8(1.5f / 255.0f), 2);
		CHECK(fh_fini(&fh));
	}
}

TEST(store_sint16_3d_saturates)
{
	for (size_t e = 0; e < 2; e++) {
		uint8_t want[IMG_BYTES];
		uint32_t status = 0;

		REQUIRE(ch_setup_engine(&fh, engines[e], 1));
		setup_images();
		memset(want, 0xCD, sizeof(want));
		for (unsigned int i = 0; i < THREADS; i++) {
			int32_t v[4] = { (int32_t)i * 1500 - 30000,
					 -(int32_t)i * 4000, 7, 9 };
			unsigned int x = i % 4, y = (i / 4) % 2, z = i / 8;

			put_val(i, v);
			put_crd(i, x, y, z);
			if (z < 3) {
				for (unsigned int c = 0; c < 2; c++) {
					int32_t s = v[c] > 32767 ? 32767 :
						    v[c] < -32768 ? -32768 :
						    v[c];
					uint16_t u = (uint16_t)s;

					memcpy(want + z * SLICE1 + y * ROW1 +
					       x * 4 + 2 * c, &u, 2);
				}
			}
		}
		REQUIRE(run("st_image.s32 {reg=0, mask=15, swizzle=0xE4, "
			    "arg_reg=1, toggle=1, index_reg=7, offset=0x200}",
			    &status));
		CHECK_EQ(status, 1);
		CHECK(!memcmp(ch_ptr(&fh, IMG1_VA), want, sizeof(want)));
		CHECK(fh_fini(&fh));
	}
}

TEST(load_and_texel_address)
{
	for (size_t e = 0; e < 2; e++) {
		uint32_t status = 0;

		REQUIRE(ch_setup_engine(&fh, engines[e], 1));
		setup_images();
		for (unsigned int b = 0; b < IMG_BYTES; b++)
			ch_ptr(&fh, IMG0_VA)[b] = (uint8_t)(b * 7 + 3);
		for (unsigned int i = 0; i < THREADS; i++)
			put_crd(i, i % 8, (i / 8) % 5, 0);   /* y 4: outside */
		REQUIRE(run("ld_image.f32 {reg=6, mask=15, swizzle=0xE4, "
			    "arg_reg=1, index_reg=7, offset=0x0}", &status));
		CHECK_EQ(status, 1);
		for (unsigned int i = 0; i < THREADS; i++) {
			unsigned int x = i % 8, y = (i / 8) % 5;
			float got[4];

			memcpy(got, ch_ptr(&fh, OUT_VA + 16 * i), 16);
			for (unsigned int c = 0; c < 4; c++) {
				unsigned int b = y * ROW0 + x * 4 + c;
				float want = y < 4 ?
					(float)((uint8_t)(b * 7 + 3) / 255.0) :
					0.0f;

				CHECK(got[c] == want);
			}
		}
		REQUIRE(run("lea_image {reg=6, mask=3, swizzle=0xE4, "
			    "arg_reg=1, index_reg=7, offset=0x0}", &status));
		CHECK_EQ(status, 1);
		for (unsigned int i = 0; i < THREADS; i++) {
			uint64_t got;

			memcpy(&got, ch_ptr(&fh, OUT_VA + 16 * i), 8);
			CHECK_EQ(got, IMG0_VA + ((i / 8) % 5) * ROW0 +
				 (i % 8) * 4);
		}
		CHECK(fh_fini(&fh));
	}
}

TEST(bad_images_fault)
{
	for (size_t e = 0; e < 2; e++) {
		uint32_t status = 0;

		REQUIRE(ch_setup_engine(&fh, engines[e], 1));
		setup_images();
		for (unsigned int i = 0; i < THREADS; i++)
			put_crd(i, 0, 0, 0);
		/* Attribute 2 of 2. */
		REQUIRE(run("st_image.f32 {reg=0, mask=15, swizzle=0xE4, "
			    "arg_reg=1, index_reg=7, offset=0x400}", &status));
		CHECK_EQ(status, MDG_EXCEPTION_DATA_INVALID_FAULT);
		/* A buffer that is not a 3D image. */
		CHECK(mdg_set(ch_ptr(&fh, ABUF_VA), MDG_ATTRIBUTE_BUFFER_TYPE,
			      MDG_ATTRIBUTE_TYPE_1D));
		REQUIRE(run(ST_F32_ATTR0, &status));
		CHECK_EQ(status, MDG_EXCEPTION_DATA_INVALID_FAULT);
		/* An unmapped image: the MMU's fault, as a store's. */
		setup_images();
		CHECK(mdg_set(ch_ptr(&fh, ABUF_VA),
			      MDG_ATTRIBUTE_BUFFER_POINTER, 0x7F0000000ull));
		REQUIRE(run(ST_F32_ATTR0, &status));
		CHECK(status >= MDG_EXCEPTION_TRANSLATION_FAULT_0 &&
		      status <= MDG_EXCEPTION_TRANSLATION_FAULT_4);
		CHECK(fh_fini(&fh));
	}
}

int main(void)
{
	RUN(store_unorm8_2d);
	RUN(store_sint16_3d_saturates);
	RUN(load_and_texel_address);
	RUN(bad_images_fault);
	return check_summary();
}
