/* SPDX-License-Identifier: MIT */
/*
 * Host tests of the launch library (userspace/launch/sl_launch.h): the
 * argument image, the WLS layout and the descriptor bytes of a hand-made
 * kernel against values computed by hand from compiler/binary/slb_binary.h
 * and docs/hardware.md §4.1-§4.6, every
 * error code, and kernels compiled by the real compiler launched on the
 * model core (one job, and a chain of two) against C references.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compute_harness.h"
#include "le.h"
#include "midgard_desc.h"
#include "sl_launch.h"
#include "sleipnir_compiler.h"

CHECK_MAIN_STATE("launch");

/* --- a hand-made kernel -------------------------------------------------- */

/*
 * kernel k(float f, global int *g, local int *l1, local char *l2,
 *          struct { int a, b; } v)
 * with the sysvals global size x, groups x, work_dim, constant base,
 * global offset y and local size z after the arguments: 56 bytes, so a
 * 64-byte image, of which 2 rows are pushed; 20 static bytes of __local.
 */
static struct slb_kernel hk;
static struct slb_arg hk_meta_args[8];
static char hk_arg_names[8][8];
static uint8_t hk_code[256];
static struct slb_program hp = {
	.num_kernels = 1, .kernels = &hk, .code = hk_code,
	.code_size = sizeof(hk_code),
};

static void add_arg(uint32_t kind, uint32_t offset, uint32_t size)
{
	struct slb_arg *a = &hk.args[hk.num_args];

	a->name = hk_arg_names[hk.num_args];
	snprintf(a->name, sizeof(hk_arg_names[0]), "arg%u", hk.num_args);
	hk.num_args++;
	a->kind = kind;
	a->offset = offset;
	a->size = size;
}

static void add_sysval(uint32_t sysval, uint32_t offset)
{
	hk.sysvals[hk.num_sysvals].sysval = sysval;
	hk.sysvals[hk.num_sysvals++].offset = offset;
}

static void make_kernel(void)
{
	memset(&hk, 0, sizeof(hk));
	memset(hk_meta_args, 0, sizeof(hk_meta_args));
	hk.name = (char *)"k";
	hk.args = hk_meta_args;
	hk.code_offset = 64;
	hk.code_size = 128;
	hk.first_tag = 9;
	hk.work_regs = 5;
	hk.max_wg_size = 256;
	hk.uniform_bytes = 56;
	hk.push_vec4 = 2;
	hk.needs_ubo = true;
	hk.barrier = true;
	hk.private_bytes = 48;
	hk.local_static_bytes = 20;
	add_arg(SLB_ARG_VALUE, 0, 4);
	add_arg(SLB_ARG_GLOBAL, 4, 4);
	add_arg(SLB_ARG_LOCAL, 8, 4);
	add_arg(SLB_ARG_LOCAL, 12, 4);
	add_arg(SLB_ARG_VALUE, 16, 8);
	add_sysval(SLB_SYSVAL_GLOBAL_SIZE_X, 32);
	add_sysval(SLB_SYSVAL_NUM_GROUPS_X, 36);
	add_sysval(SLB_SYSVAL_WORK_DIM, 40);
	add_sysval(SLB_SYSVAL_CONSTANT_BASE, 44);
	add_sysval(SLB_SYSVAL_GLOBAL_OFFSET_Y, 48);
	add_sysval(SLB_SYSVAL_LOCAL_SIZE_Z, 52);
}

static const float hk_f = 1.5f;
static const int32_t hk_v[2] = { -7, 0x01020304 };
static struct sl_arg hk_args[5];
static struct sl_launch_params hk_params;

/* A 2D range: global 64 x 6 in 8 x 2 groups at offset (3, 5). */
static void make_params(void)
{
	make_kernel();
	hk_args[0] = SL_ARG_VAL(&hk_f);
	hk_args[1] = SL_ARG_BUF(0x12345600);
	hk_args[2] = SL_ARG_LOC(100);
	hk_args[3] = SL_ARG_LOC(8);
	hk_args[4] = (struct sl_arg){ .kind = SL_ARG_VALUE, .value = hk_v,
				      .size = 8 };
	memset(&hk_params, 0, sizeof(hk_params));
	hk_params.prog = &hp;
	hk_params.kernel = &hk;
	hk_params.args = hk_args;
	hk_params.num_args = 5;
	hk_params.nd = (struct sl_ndrange){ .work_dim = 2,
					    .offset = { 3, 5, 99 },
					    .global = { 64, 6, 77 },
					    .local = { 8, 2, 55 } };
	hk_params.constant_va = 0xABCD0000;
	hk_params.cores = 4;
}

TEST(plan_sizes)
{
	struct sl_launch_plan plan;

	make_params();
	REQUIRE(sl_launch_plan(&hk_params, &plan) == SL_LAUNCH_OK);
	CHECK_EQ(plan.error_arg, -1);
	/* Dimensions at and above work_dim count as 1. */
	CHECK_EQ(plan.local_size[0], 8);
	CHECK_EQ(plan.local_size[1], 2);
	CHECK_EQ(plan.local_size[2], 1);
	CHECK_EQ(plan.num_groups[0], 8);
	CHECK_EQ(plan.num_groups[1], 3);
	CHECK_EQ(plan.num_groups[2], 1);
	/* 56 bytes of image rounded to 16. */
	CHECK_EQ(plan.image_bytes, 64);
	CHECK_EQ(plan.desc_bytes, 0x180 + 64);
	/*
	 * WLS: statics 20 -> 32, l1 at 32 (100 bytes) -> 144, l2 at 144
	 * (8 bytes) -> 160 per group; instance 256; instances
	 * pow2(8) * pow2(3) * pow2(1) = 32; 8 KiB in all.
	 */
	CHECK_EQ(plan.wls_bytes_per_group, 160);
	CHECK_EQ(plan.wls_instances, 32);
	CHECK_EQ(plan.wls_total_bytes, 256 * 32);
	/* TLS: 48 -> 64 bytes a thread, 256 threads a core, 4 cores. */
	CHECK_EQ(plan.tls_bytes_per_thread, 48);
	CHECK_EQ(plan.tls_total_bytes, 64 * 256 * 4);
}

TEST(image_bytes)
{
	struct sl_launch_plan plan;
	uint8_t image[64];
	float f;

	make_params();
	REQUIRE(sl_launch_plan(&hk_params, &plan) == SL_LAUNCH_OK);
	memset(image, 0xEE, sizeof(image));
	sl_launch_write_image(&plan, image);
	memcpy(&f, image, 4);
	CHECK(f == 1.5f);
	CHECK_EQ(le_get32(image + 4), 0x12345600);
	CHECK_EQ(le_get32(image + 8), 32);             /* l1's WLS offset */
	CHECK_EQ(le_get32(image + 12), 144);           /* l2's */
	CHECK_EQ(le_get32(image + 16), (uint32_t)-7);
	CHECK_EQ(le_get32(image + 20), 0x01020304);
	CHECK_EQ(le_get32(image + 24), 0);             /* holes are zero */
	CHECK_EQ(le_get32(image + 28), 0);
	CHECK_EQ(le_get32(image + 32), 64);            /* global size x */
	CHECK_EQ(le_get32(image + 36), 8);             /* groups x */
	CHECK_EQ(le_get32(image + 40), 2);             /* work_dim */
	CHECK_EQ(le_get32(image + 44), 0xABCD0000);    /* constant base */
	CHECK_EQ(le_get32(image + 48), 5);             /* offset y */
	CHECK_EQ(le_get32(image + 52), 1);             /* local z, unused dim */
	CHECK_EQ(le_get32(image + 56), 0);
	CHECK_EQ(le_get32(image + 60), 0);
}

/*
 * A kernel that calls printf (its printf_buffer sysval): the buffer's
 * address goes in the slot, and a launch without a buffer, or with one
 * the ABI cannot carry, is refused when the block is written.
 */
TEST(printf_buffer)
{
	const struct sl_launch_memory mem = {
		.code_va = 0x10000000, .tls_va = 0x30000000,
		.wls_va = 0x40000000,
	};
	struct sl_job_link link = { .index = 1 };
	static uint8_t block[1024];
	struct sl_launch_plan plan;
	uint8_t image[64];

	make_params();
	CHECK(!sl_launch_uses_printf(&hk));
	hk.sysvals[hk.num_sysvals - 1].sysval = SLB_SYSVAL_PRINTF_BUFFER;
	CHECK(sl_launch_uses_printf(&hk));
	/* Planned without it: a runtime may place the buffer later. */
	REQUIRE(sl_launch_plan(&hk_params, &plan) == SL_LAUNCH_OK);
	CHECK_EQ(sl_launch_emit(&plan, &mem, &link, block, sizeof(block),
				0x1000), SL_LAUNCH_E_ADDRESS);
	hk_params.printf_va = 0x100000000ull;
	CHECK_EQ(sl_launch_emit(&plan, &mem, &link, block, sizeof(block),
				0x1000), SL_LAUNCH_E_ADDRESS);
	hk_params.printf_va = 0x50000004;
	CHECK_EQ(sl_launch_emit(&plan, &mem, &link, block, sizeof(block),
				0x1000), SL_LAUNCH_E_ALIGN);
	hk_params.printf_va = 0x50000008;
	CHECK_EQ(sl_launch_emit(&plan, &mem, &link, block, sizeof(block),
				0x1000), SL_LAUNCH_OK);
	sl_launch_write_image(&plan, image);
	CHECK_EQ(le_get32(image + 52), 0x50000008);
	CHECK_EQ(le_get32(image + 44), 0xABCD0000);    /* constant base kept */
}

/* The block against the layouts of docs/hardware.md §4, field by field. */
TEST(descriptor_bytes)
{
	const uint64_t va = 0x20000040, code = 0x10000000;
	const struct sl_launch_memory mem = {
		.code_va = code, .tls_va = 0x30000000, .wls_va = 0x40000000,
	};
	const struct sl_job_link link = { .index = 3, .dep = { 1, 2 },
					  .next = 0x20001000 };
	static uint8_t block[1024];
	struct sl_launch_plan plan;
	uint8_t *job = block + SL_DESC_JOB, *rsd = block + SL_DESC_RSD;
	uint8_t *ls = block + SL_DESC_LOCAL_STORAGE;
	uint8_t *inv = job + MDG_COMPUTE_JOB_INVOCATION_OFFSET;
	uint8_t *draw = job + MDG_COMPUTE_JOB_DRAW_OFFSET;

	make_params();
	REQUIRE(sl_launch_plan(&hk_params, &plan) == SL_LAUNCH_OK);
	memset(block, 0xEE, sizeof(block));
	REQUIRE(sl_launch_emit(&plan, &mem, &link, block, sizeof(block), va) ==
		SL_LAUNCH_OK);
	/* Header (docs/hardware.md §4.1): 64-bit, type 4, barrier, index 3;
	 * deps; next. The fields' places are checked against Mesa's packing in
	 * tests/isa/test_desc.c. */
	CHECK_EQ(mdg_get(job, MDG_JOB_HEADER_EXCEPTION_STATUS), 0);
	CHECK_EQ(mdg_get(job, MDG_JOB_HEADER_IS_64B), 1);
	CHECK_EQ(mdg_get(job, MDG_JOB_HEADER_TYPE), MDG_JOB_TYPE_COMPUTE);
	CHECK_EQ(mdg_get(job, MDG_JOB_HEADER_BARRIER), 1);
	CHECK_EQ(mdg_get(job, MDG_JOB_HEADER_INDEX), 3);
	CHECK_EQ(mdg_get(job, MDG_JOB_HEADER_DEPENDENCY_1), 1);
	CHECK_EQ(mdg_get(job, MDG_JOB_HEADER_DEPENDENCY_2), 2);
	CHECK_EQ(mdg_get(job, MDG_JOB_HEADER_NEXT), 0x20001000);
	/*
	 * Invocation (docs/hardware.md §4.3) of 8,2,1 x 8,3,1: 7 | 1 << 3 |
	 * 7 << 4 | 2 << 7, shifts 3, 4, 4, 7, 9 and the split = the workgroups
	 * X shift 4.
	 */
	CHECK_EQ(mdg_get(inv, MDG_INVOCATION_INVOCATIONS), 0x17F);
	CHECK_EQ(mdg_get(inv, MDG_INVOCATION_SIZE_Y_SHIFT), 3);
	CHECK_EQ(mdg_get(inv, MDG_INVOCATION_SIZE_Z_SHIFT), 4);
	CHECK_EQ(mdg_get(inv, MDG_INVOCATION_WORKGROUPS_X_SHIFT), 4);
	CHECK_EQ(mdg_get(inv, MDG_INVOCATION_WORKGROUPS_Y_SHIFT), 7);
	CHECK_EQ(mdg_get(inv, MDG_INVOCATION_WORKGROUPS_Z_SHIFT), 9);
	CHECK_EQ(mdg_get(inv, MDG_INVOCATION_THREAD_GROUP_SPLIT), 4);
	/* Job task split: log2ceil(9) + log2ceil(3) + log2ceil(2) = 7. */
	CHECK_EQ(mdg_get(job + MDG_COMPUTE_JOB_PARAMETERS_OFFSET,
			 MDG_COMPUTE_PARAMETERS_JOB_TASK_SPLIT), 7);
	CHECK_EQ(mdg_get(draw, MDG_DRAW_FOUR_COMPONENTS_PER_VERTEX), 1);
	CHECK_EQ(mdg_get(draw, MDG_DRAW_DRAW_DESCRIPTOR_IS_64B), 1);
	CHECK_EQ(mdg_get(draw, MDG_DRAW_TEXTURE_DESCRIPTOR_IS_64B), 1);
	CHECK_EQ(mdg_get(draw, MDG_DRAW_UNIFORM_BUFFERS),
		 va + SL_DESC_UBO_TABLE);
	CHECK_EQ(mdg_get(draw, MDG_DRAW_PUSH_UNIFORMS), va + SL_DESC_PUSH);
	CHECK_EQ(mdg_get(draw, MDG_DRAW_STATE), va + SL_DESC_RSD);
	CHECK_EQ(mdg_get(draw, MDG_DRAW_THREAD_STORAGE),
		 va + SL_DESC_LOCAL_STORAGE);
	/*
	 * RSD (docs/hardware.md §4.4): code and tag; 1 UBO, barrier, side
	 * effects, 5 regs, 2 pushed vec4, FP mode CL.
	 */
	CHECK_EQ(mdg_get(rsd, MDG_RENDERER_STATE_SHADER), code + 64);
	CHECK_EQ(mdg_get(rsd, MDG_RENDERER_STATE_FIRST_TAG), 9);
	CHECK_EQ(mdg_get(rsd, MDG_RENDERER_STATE_UNIFORM_BUFFER_COUNT), 1);
	CHECK_EQ(mdg_get(rsd, MDG_RENDERER_STATE_SHADER_CONTAINS_BARRIER), 1);
	CHECK_EQ(mdg_get(rsd, MDG_RENDERER_STATE_SHADER_HAS_SIDE_EFFECTS), 1);
	CHECK_EQ(mdg_get(rsd, MDG_RENDERER_STATE_WORK_REGISTER_COUNT), 5);
	CHECK_EQ(mdg_get(rsd, MDG_RENDERER_STATE_UNIFORM_COUNT), 2);
	CHECK_EQ(mdg_get(rsd, MDG_RENDERER_STATE_FP_MODE), MDG_FP_MODE_CL);
	/*
	 * Local storage (docs/hardware.md §4.5): TLS log2(64 / 16) = 2; WLS 32
	 * instances (log2 5) of 256 bytes (scale log2 + 1 = 9); the bases.
	 */
	CHECK_EQ(mdg_get(ls, MDG_LOCAL_STORAGE_TLS_SIZE), 2);
	CHECK_EQ(mdg_get(ls, MDG_LOCAL_STORAGE_WLS_INSTANCES), 5);
	CHECK_EQ(mdg_get(ls, MDG_LOCAL_STORAGE_WLS_SIZE_SCALE), 9);
	CHECK_EQ(mdg_get(ls, MDG_LOCAL_STORAGE_TLS_BASE_POINTER), 0x30000000);
	CHECK_EQ(mdg_get(ls, MDG_LOCAL_STORAGE_WLS_BASE_POINTER), 0x40000000);
	/* UBO 0 (docs/hardware.md §4.6) is the image: 4 entries of 16 bytes. */
	CHECK_EQ(mdg_get(block + SL_DESC_UBO_TABLE, MDG_UNIFORM_BUFFER_ENTRIES),
		 4);
	CHECK_EQ(mdg_get(block + SL_DESC_UBO_TABLE, MDG_UNIFORM_BUFFER_POINTER),
		 va + SL_DESC_PUSH);
	CHECK_EQ(le_get32(block + SL_DESC_PUSH + 4), 0x12345600);
	CHECK_EQ(le_get32(block + SL_DESC_PUSH + 44), 0xABCD0000);
	/* Nothing past the block. */
	CHECK_EQ(block[plan.desc_bytes], 0xEE);

	sl_desc_link(block, 0x20002000);
	CHECK_EQ(mdg_get(job, MDG_JOB_HEADER_NEXT), 0x20002000);
	CHECK_EQ(sl_launch_job_va(va), va);
}

/*
 * sl_launch_emit_cached: a block written again where it was, after the GPU
 * wrote its job header back, is byte for byte what sl_launch_emit writes
 * fresh, for the same launch and for one whose arguments changed; a
 * launch that differs in any descriptor field (here the NDRange, the
 * link, the address) is packed anew, also equal to a fresh emit.
 */
TEST(descriptor_cache)
{
	const uint64_t va = 0x20000040, code = 0x10000000;
	const struct sl_launch_memory mem = {
		.code_va = code, .tls_va = 0x30000000, .wls_va = 0x40000000,
	};
	struct sl_job_link link = { .index = 1 };
	static uint8_t block[1024], fresh[1024];
	struct sl_desc_cache cache = { 0 };
	struct sl_launch_plan plan;
	static const float other_f = -2.25f;

	make_params();
	REQUIRE(sl_launch_plan(&hk_params, &plan) == SL_LAUNCH_OK);
	memset(block, 0xEE, sizeof(block));
	memset(fresh, 0xEE, sizeof(fresh));
	REQUIRE(sl_launch_emit_cached(&plan, &mem, &link, block, sizeof(block),
				      va, &cache) == SL_LAUNCH_OK);
	REQUIRE(sl_launch_emit(&plan, &mem, &link, fresh, sizeof(fresh), va) ==
		SL_LAUNCH_OK);
	CHECK(cache.valid);
	CHECK(memcmp(block, fresh, sizeof(block)) == 0);

	/* The GPU ran it: status DONE, and the next pointer a caller set. */
	mdg_set(block + SL_DESC_JOB, MDG_JOB_HEADER_EXCEPTION_STATUS, 1);
	sl_desc_link(block, 0x20009000);
	/* The same launch with another value argument. */
	hk_args[0] = SL_ARG_VAL(&other_f);
	REQUIRE(sl_launch_plan(&hk_params, &plan) == SL_LAUNCH_OK);
	REQUIRE(sl_launch_emit_cached(&plan, &mem, &link, block, sizeof(block),
				      va, &cache) == SL_LAUNCH_OK);
	REQUIRE(sl_launch_emit(&plan, &mem, &link, fresh, sizeof(fresh), va) ==
		SL_LAUNCH_OK);
	CHECK(memcmp(block, fresh, sizeof(block)) == 0);
	CHECK_EQ(mdg_get(block + SL_DESC_JOB, MDG_JOB_HEADER_EXCEPTION_STATUS),
		 0);

	/* Another NDRange: packed anew. */
	hk_params.nd.global[0] = 128;
	REQUIRE(sl_launch_plan(&hk_params, &plan) == SL_LAUNCH_OK);
	REQUIRE(sl_launch_emit_cached(&plan, &mem, &link, block, sizeof(block),
				      va, &cache) == SL_LAUNCH_OK);
	REQUIRE(sl_launch_emit(&plan, &mem, &link, fresh, sizeof(fresh), va) ==
		SL_LAUNCH_OK);
	CHECK(memcmp(block, fresh, sizeof(block)) == 0);

	/* Another link: the header is the new one. */
	link = (struct sl_job_link){ .index = 2, .dep = { 1 } };
	REQUIRE(sl_launch_emit_cached(&plan, &mem, &link, block, sizeof(block),
				      va, &cache) == SL_LAUNCH_OK);
	REQUIRE(sl_launch_emit(&plan, &mem, &link, fresh, sizeof(fresh), va) ==
		SL_LAUNCH_OK);
	CHECK(memcmp(block, fresh, sizeof(block)) == 0);
	CHECK_EQ(mdg_get(block + SL_DESC_JOB, MDG_JOB_HEADER_INDEX), 2);

	/* Another address, the old one's bytes still around: every
	 * pointer in the block follows. */
	memset(fresh, 0xEE, sizeof(fresh));
	REQUIRE(sl_launch_emit_cached(&plan, &mem, &link, block, sizeof(block),
				      va + 0x1000, &cache) == SL_LAUNCH_OK);
	REQUIRE(sl_launch_emit(&plan, &mem, &link, fresh, sizeof(fresh),
			       va + 0x1000) == SL_LAUNCH_OK);
	CHECK(memcmp(block, fresh, plan.desc_bytes) == 0);
	CHECK_EQ(mdg_get(block + SL_DESC_RSD, MDG_RENDERER_STATE_SHADER),
		 code + 64);
	hk_args[0] = SL_ARG_VAL(&hk_f);
}

/* A kernel without __local, private memory or UBO: no storage at all. */
TEST(descriptor_without_storage)
{
	const struct sl_launch_memory mem = { .code_va = 0x10000000 };
	const struct sl_job_link link = { .index = 1 };
	static uint8_t block[1024];
	struct sl_launch_plan plan;

	make_params();
	hk.private_bytes = 0;
	hk.local_static_bytes = 0;
	hk.needs_ubo = false;
	hk_args[2] = SL_ARG_LOC(16);
	hk_args[3] = SL_ARG_LOC(16);
	REQUIRE(sl_launch_plan(&hk_params, &plan) == SL_LAUNCH_OK);
	/* __local arguments alone still need WLS. */
	CHECK_EQ(plan.wls_bytes_per_group, 32);
	CHECK_EQ(plan.wls_total_bytes, 128 * 32);
	hk.args[2].kind = SLB_ARG_VALUE;
	hk.args[3].kind = SLB_ARG_VALUE;
	hk_args[2] = SL_ARG_VAL(&hk_f);
	hk_args[3] = SL_ARG_VAL(&hk_f);
	REQUIRE(sl_launch_plan(&hk_params, &plan) == SL_LAUNCH_OK);
	CHECK_EQ(plan.wls_total_bytes, 0);
	CHECK_EQ(plan.tls_total_bytes, 0);
	REQUIRE(sl_launch_emit(&plan, &mem, &link, block, sizeof(block),
			       0x20000000) == SL_LAUNCH_OK);
	CHECK_EQ(mdg_get(block + SL_DESC_JOB + MDG_COMPUTE_JOB_DRAW_OFFSET,
			 MDG_DRAW_UNIFORM_BUFFERS), 0);  /* no UBO table */
	CHECK_EQ(mdg_get(block + SL_DESC_RSD,
			 MDG_RENDERER_STATE_UNIFORM_BUFFER_COUNT), 0);
	/* Mesa's "no TLS, no WLS" words (docs/hardware.md §4.5). */
	{
		uint8_t none[MDG_LOCAL_STORAGE_BYTES] = { 0 };

		mdg_set(none, MDG_LOCAL_STORAGE_WLS_INSTANCES, 0x1F);
		CHECK(!memcmp(block + SL_DESC_LOCAL_STORAGE, none,
			      sizeof(none)));
	}
}

/* --- error codes --------------------------------------------------------- */

static int plan_status(struct sl_launch_plan *plan)
{
	return sl_launch_plan(&hk_params, plan);
}

#define EXPECT_PLAN(status, arg) do {                                          \
		struct sl_launch_plan p_;                                      \
		CHECK_EQ(plan_status(&p_), (int)(status));                     \
		CHECK_EQ(p_.error_arg, (int)(arg));                            \
		make_params();                                                 \
	} while (0)

TEST(argument_errors)
{
	make_params();
	hk_params.num_args = 4;
	EXPECT_PLAN(SL_LAUNCH_E_ARG_COUNT, -1);
	hk_args[3].kind = SL_ARG_UNSET;
	EXPECT_PLAN(SL_LAUNCH_E_ARG_UNSET, 3);
	hk_args[0] = SL_ARG_BUF(0x1000);            /* buffer for a float */
	EXPECT_PLAN(SL_LAUNCH_E_ARG_KIND, 0);
	hk_args[1] = SL_ARG_VAL(&hk_f);             /* value for a pointer */
	EXPECT_PLAN(SL_LAUNCH_E_ARG_KIND, 1);
	hk_args[1] = SL_ARG_LOC(16);                /* local for a global */
	EXPECT_PLAN(SL_LAUNCH_E_ARG_KIND, 1);
	hk_args[2] = SL_ARG_BUF(0x1000);            /* buffer for a local */
	EXPECT_PLAN(SL_LAUNCH_E_ARG_KIND, 2);
	hk_args[4].size = 4;                        /* 4 bytes for 8 */
	EXPECT_PLAN(SL_LAUNCH_E_ARG_SIZE, 4);
	hk_args[4].value = NULL;
	EXPECT_PLAN(SL_LAUNCH_E_ARG_SIZE, 4);
	hk_args[3] = SL_ARG_LOC(0);
	EXPECT_PLAN(SL_LAUNCH_E_ARG_SIZE, 3);
	/* 20 static bytes and 100 + 2^30: more work-group memory than a
	 * descriptor gives (the runtime's CL_OUT_OF_RESOURCES), not a size
	 * the application got wrong. */
	hk_args[3] = SL_ARG_LOC(1u << 30);
	EXPECT_PLAN(SL_LAUNCH_E_LOCAL_MEMORY, 3);
	hk_args[1] = SL_ARG_BUF(0x100000000ull);    /* beyond 32 bits */
	EXPECT_PLAN(SL_LAUNCH_E_ADDRESS, 1);
	hk_args[1] = SL_ARG_BUF(0);                 /* NULL is fine */
	EXPECT_PLAN(SL_LAUNCH_OK, -1);
	hk_params.constant_va = 0x100000000ull;
	EXPECT_PLAN(SL_LAUNCH_E_ADDRESS, -1);
	hk.args[1].offset = 62;                     /* outside the image */
	EXPECT_PLAN(SL_LAUNCH_E_INVALID, 1);
	hk.sysvals[2].offset = 62;
	EXPECT_PLAN(SL_LAUNCH_E_INVALID, -1);
	hk.push_vec4 = 32;
	EXPECT_PLAN(SL_LAUNCH_E_INVALID, -1);
	hk.code_offset = 192;                       /* code past the program */
	EXPECT_PLAN(SL_LAUNCH_E_INVALID, -1);
	hk_params.kernel = NULL;
	EXPECT_PLAN(SL_LAUNCH_E_INVALID, -1);
	CHECK_EQ(sl_launch_plan(NULL, NULL), SL_LAUNCH_E_INVALID);
}

TEST(ndrange_errors)
{
	make_params();
	hk_params.nd.work_dim = 0;
	EXPECT_PLAN(SL_LAUNCH_E_WORK_DIM, -1);
	hk_params.nd.work_dim = 4;
	EXPECT_PLAN(SL_LAUNCH_E_WORK_DIM, -1);
	hk_params.nd.global[1] = 0;
	EXPECT_PLAN(SL_LAUNCH_E_GLOBAL_SIZE, -1);
	hk_params.nd.local[0] = 0;
	EXPECT_PLAN(SL_LAUNCH_E_LOCAL_SIZE, -1);
	hk_params.nd.global[0] = 65;
	EXPECT_PLAN(SL_LAUNCH_E_NOT_DIVISIBLE, -1);
	hk_params.nd.offset[1] = 0xFFFFFFFE;       /* 0xFFFFFFFE + 6 */
	EXPECT_PLAN(SL_LAUNCH_E_OFFSET, -1);
	hk_params.nd.offset[1] = 0xFFFFFFFA;       /* ends at 2^32: fine */
	EXPECT_PLAN(SL_LAUNCH_OK, -1);
	hk_params.nd.local[0] = 256;               /* 512 > max_wg_size */
	hk_params.nd.global[0] = 256;
	EXPECT_PLAN(SL_LAUNCH_E_LOCAL_SIZE, -1);
	hk.reqd_wg_size[0] = 16;
	hk.reqd_wg_size[1] = 2;
	hk.reqd_wg_size[2] = 1;
	EXPECT_PLAN(SL_LAUNCH_E_LOCAL_SIZE, -1);
	/* 1024 x 1024 local, 8192 groups: 10 + 10 + 13 bits > 32. */
	hk.max_wg_size = 0;
	hk_params.nd = (struct sl_ndrange){ .work_dim = 2,
					    .global = { 1024u * 8192, 1024 },
					    .local = { 1024, 1024 } };
	EXPECT_PLAN(SL_LAUNCH_E_TOO_BIG, -1);
	hk.max_wg_size = 0;
	hk_params.nd = (struct sl_ndrange){ .work_dim = 2,
					    .global = { 1024u * 4096, 1024 },
					    .local = { 1024, 1024 } };
	EXPECT_PLAN(SL_LAUNCH_OK, -1);
}

/* The Invocation of the job in @block, unpacked as the model reads it. */
static bool block_invocation(const uint8_t *block, uint32_t local[3],
			     uint32_t groups[3])
{
	return mdg_unpack_invocation(block + SL_DESC_JOB +
				     MDG_COMPUTE_JOB_INVOCATION_OFFSET,
				     local, groups);
}

/*
 * Big launches, descriptor deep: 2^18, 2^24 and 2^32 work-items plan,
 * emit and read back (as the model's job manager decodes them) with every
 * size intact; 2^32 - 1 items fit one job in groups of 1, and not in
 * groups of 255, which waste a bit (8 + 25 > 32; the ICD then chooses
 * another local size, userspace/icd/tests/test_queue.c).
 */
TEST(big_launches_pack)
{
	static const struct {
		uint32_t work_dim, global[3], local[3];
	} ok[] = {
		{ 1, { 1u << 18, 1, 1 }, { 64, 1, 1 } },
		{ 1, { 1u << 24, 1, 1 }, { 256, 1, 1 } },
		{ 2, { 4096, 4096, 1 }, { 16, 16, 1 } },
		{ 3, { 2048, 2048, 1024 }, { 16, 16, 1 } },
		{ 1, { 1u << 31, 1, 1 }, { 128, 1, 1 } },
	};
	/* The kernel has __local arguments: the WLS area grows with the
	 * group count (docs/hardware.md §4.5), to 4 GiB for 2^24 groups. */
	const struct sl_launch_memory mem = {
		.code_va = 0x10000000, .tls_va = 0x30000000,
		.wls_va = 0x100000000ull,
	};
	const struct sl_job_link link = { .index = 1 };
	static uint8_t block[1024];
	struct sl_launch_plan plan;
	struct sl_desc d = { .link = { .index = 1 }, .shader_va = 0x10000000,
			     .local_size = { 1, 1, 1 },
			     .num_groups = { 0xFFFFFFFFu, 1, 1 } };
	uint32_t l[3], g[3];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		make_params();
		hk.max_wg_size = 256;
		hk_params.nd = (struct sl_ndrange){ .work_dim = ok[i].work_dim };
		memcpy(hk_params.nd.global, ok[i].global, sizeof(l));
		memcpy(hk_params.nd.local, ok[i].local, sizeof(l));
		CHECK_EQ(sl_launch_plan(&hk_params, &plan), SL_LAUNCH_OK);
		CHECK_EQ(sl_launch_emit(&plan, &mem, &link, block,
					sizeof(block), 0x20000000),
			 SL_LAUNCH_OK);
		REQUIRE(block_invocation(block, l, g));
		for (int k = 0; k < 3; k++) {
			CHECK_EQ(l[k], ok[i].local[k]);
			CHECK_EQ(g[k], ok[i].global[k] / ok[i].local[k]);
		}
	}

	/* 2^32 - 1 work-items: one group of 1 each, all 32 bits. */
	REQUIRE(sl_desc_pack(&d, block, sizeof(block), 0x20000000) ==
		SL_LAUNCH_OK);
	REQUIRE(block_invocation(block, l, g));
	CHECK_EQ(l[0], 1);
	CHECK_EQ(g[0], 0xFFFFFFFFu);
	CHECK_EQ(g[1] * g[2] * l[1] * l[2], 1);
	/* In groups of 255: 16843009 groups, 8 + 25 bits. */
	d.local_size[0] = 255;
	d.num_groups[0] = 0xFFFFFFFFu / 255;
	CHECK_EQ(sl_desc_pack(&d, block, sizeof(block), 0x20000000),
		 SL_LAUNCH_E_TOO_BIG);
}

TEST(emit_errors)
{
	const struct sl_launch_memory good = {
		.code_va = 0x10000000, .tls_va = 0x30000000,
		.wls_va = 0x40000000,
	};
	struct sl_launch_memory mem;
	struct sl_job_link link = { .index = 2, .dep = { 1, 0 } };
	static uint8_t block[1024], untouched[1024];
	struct sl_launch_plan plan;

	make_params();
	REQUIRE(sl_launch_plan(&hk_params, &plan) == SL_LAUNCH_OK);
	memset(block, 0xEE, sizeof(block));
	memset(untouched, 0xEE, sizeof(untouched));
#define EXPECT_EMIT(status, m, l, size, va)                                    \
	CHECK_EQ(sl_launch_emit(&plan, m, l, block, size, va),                 \
		 (int)(status))
	EXPECT_EMIT(SL_LAUNCH_E_ALIGN, &good, &link, sizeof(block), 0x1020);
	EXPECT_EMIT(SL_LAUNCH_E_SPACE, &good, &link, plan.desc_bytes - 1,
		    0x1000);
	mem = good;
	mem.code_va += 32;
	EXPECT_EMIT(SL_LAUNCH_E_ALIGN, &mem, &link, sizeof(block), 0x1000);
	mem = good;
	mem.wls_va += 0x800;                        /* not 4 KiB aligned */
	EXPECT_EMIT(SL_LAUNCH_E_ALIGN, &mem, &link, sizeof(block), 0x1000);
	mem = good;
	mem.wls_va = 0xFFFFF000;                    /* 8 KiB across 4 GiB */
	EXPECT_EMIT(SL_LAUNCH_E_ALIGN, &mem, &link, sizeof(block), 0x1000);
	mem = good;
	mem.wls_va = 0;                             /* WLS needed */
	EXPECT_EMIT(SL_LAUNCH_E_ADDRESS, &mem, &link, sizeof(block), 0x1000);
	mem = good;
	mem.tls_va = 0;                             /* TLS needed */
	EXPECT_EMIT(SL_LAUNCH_E_ADDRESS, &mem, &link, sizeof(block), 0x1000);
	mem = good;
	mem.code_va = 0x01000000 - 128;             /* code crosses 16 MiB */
	EXPECT_EMIT(SL_LAUNCH_E_ADDRESS, &mem, &link, sizeof(block), 0x1000);
	mem.code_va = 0x01000000 - 192;             /* code ends on it */
	EXPECT_EMIT(SL_LAUNCH_E_ADDRESS, &mem, &link, sizeof(block), 0x1000);
	mem.code_va = 0x01000000 - 256;             /* ends 64 bytes before */
	EXPECT_EMIT(SL_LAUNCH_OK, &mem, &link, sizeof(block), 0x1000);
	memset(block, 0xEE, sizeof(block));
	link.index = 0;
	EXPECT_EMIT(SL_LAUNCH_E_JOB_INDEX, &good, &link, sizeof(block), 0x1000);
	link.index = 65536;
	EXPECT_EMIT(SL_LAUNCH_E_JOB_INDEX, &good, &link, sizeof(block), 0x1000);
	link.index = 2;
	link.dep[1] = 2;                            /* not an earlier job */
	EXPECT_EMIT(SL_LAUNCH_E_JOB_INDEX, &good, &link, sizeof(block), 0x1000);
	link.dep[1] = 0;
	link.next = 0x2020;                         /* next not 64-aligned */
	EXPECT_EMIT(SL_LAUNCH_E_ALIGN, &good, &link, sizeof(block), 0x1000);
	EXPECT_EMIT(SL_LAUNCH_E_INVALID, NULL, &link, sizeof(block), 0x1000);
#undef EXPECT_EMIT
	/* None of the failures wrote a byte. */
	CHECK(memcmp(block, untouched, sizeof(block)) == 0);
	CHECK(strcmp(sl_launch_strerror(SL_LAUNCH_E_NOT_DIVISIBLE),
		     "global size not a multiple of the local size") == 0);
}

/* --- compiled kernels on the model core ---------------------------------- */

static struct fake_host fh;
static struct slb_program prog;

#define CODE_VA CH_CODE_VA
#define CONST_VA CH_DATA_VA
#define BUF_VA(n) (CH_DATA_VA + 0x10000 * (uint64_t)(n + 1))

static bool compile_corpus(void)
{
	FILE *f = fopen(LAUNCH_KERNELS, "rb");
	static char src[1 << 16];
	struct slc_output out = { 0 };
	char err[256] = "";
	size_t n;
	bool ok = false;

	if (!f) {
		printf("  cannot open %s\n", LAUNCH_KERNELS);
		return false;
	}
	n = fread(src, 1, sizeof(src) - 1, f);
	fclose(f);
	src[n] = 0;
	setenv("SLEIPNIR_COMPILER_CACHE", "off", 1);
	if (slc_compile_source(src, NULL, &out) == SLC_OK && out.binary)
		ok = slb_read(out.binary, out.binary_size, &prog, err,
			      sizeof(err));
	if (!ok)
		printf("  compile: %s%s\n", err, out.log ? out.log : "");
	slc_output_free(&out);
	return ok;
}

static float *fbuf(unsigned int n)
{
	return (float *)ch_ptr(&fh, BUF_VA(n));
}

/*
 * Plans and emits kernel name over nd into the block at block_va as job
 * link; false (with the reason) when sl_launch refuses.
 */
static bool emit(const char *name, const struct sl_arg *args,
		 unsigned int num_args, struct sl_ndrange nd,
		 const struct sl_job_link *link, uint64_t block_va,
		 size_t *block_bytes)
{
	static struct sl_launch_params p[4];
	static unsigned int next;
	struct sl_launch_params *pp = &p[next++ % 4];
	struct sl_launch_memory mem = { .code_va = CODE_VA };
	struct sl_launch_plan plan;
	int st;

	memset(pp, 0, sizeof(*pp));
	pp->prog = &prog;
	pp->kernel = slb_find_kernel(&prog, name);
	pp->args = args;
	pp->num_args = num_args;
	pp->nd = nd;
	pp->constant_va = CONST_VA;
	pp->cores = 4;
	st = sl_launch_plan(pp, &plan);
	if (!st && (plan.tls_total_bytes > CH_TLS_SIZE ||
		    plan.wls_total_bytes > CH_WLS_SIZE))
		st = SL_LAUNCH_E_TOO_BIG;
	mem.tls_va = plan.tls_total_bytes ? CH_TLS_VA : 0;
	mem.wls_va = plan.wls_total_bytes ? CH_WLS_VA : 0;
	if (!st)
		st = sl_launch_emit(&plan, &mem, link, ch_ptr(&fh, block_va),
				    CH_DESC_SIZE - (block_va - CH_DESC_VA),
				    block_va);
	if (st) {
		printf("  %s: %s (argument %d)\n", name,
		       sl_launch_strerror(st), plan.error_arg);
		return false;
	}
	if (block_bytes)
		*block_bytes = plan.desc_bytes;
	return true;
}

static bool run(uint64_t jc)
{
	struct ch_result r;

	ch_run_chain(&fh, jc, 0, &r, 60000);
	if (r.js_status != 1)
		printf("  job status 0x%x: %s\n", r.js_status, fh.last_error);
	return r.js_status == 1;
}

static bool setup(void)
{
	if (!ch_setup(&fh) || !compile_corpus())
		return false;
	memcpy(ch_ptr(&fh, CODE_VA), prog.code, prog.code_size);
	memcpy(ch_ptr(&fh, CONST_VA), prog.constant_data, prog.constant_size);
	return true;
}

/* vadd over 1000 items in groups of 8 (125 groups). */
TEST(model_vadd)
{
	const unsigned int n = 1000;
	const float s = 3.0f;
	const struct sl_arg args[] = {
		SL_ARG_BUF(BUF_VA(0)), SL_ARG_BUF(BUF_VA(1)),
		SL_ARG_BUF(BUF_VA(2)), SL_ARG_VAL(&s),
	};
	const struct sl_job_link link = { .index = 1 };
	unsigned int bad = 0;

	for (unsigned int i = 0; i < n; i++) {
		fbuf(0)[i] = (float)i;
		fbuf(1)[i] = (float)(i % 17) - 8.0f;
		fbuf(2)[i] = -1.0f;
	}
	REQUIRE(emit("vadd", args, 4,
		     (struct sl_ndrange){ .work_dim = 1, .global = { n },
					  .local = { 8 } },
		     &link, CH_DESC_VA, NULL));
	REQUIRE(run(CH_DESC_VA));
	for (unsigned int i = 0; i < n; i++)
		bad += fbuf(2)[i] != (float)i + ((float)(i % 17) - 8.0f) * s;
	CHECK_EQ(bad, 0);
}

/* group_sum with a __local argument and barriers: 16 groups of 64. */
TEST(model_local_barrier)
{
	const unsigned int groups = 16, local = 64;
	const struct sl_arg args[] = {
		SL_ARG_BUF(BUF_VA(0)), SL_ARG_BUF(BUF_VA(1)),
		SL_ARG_LOC(local * 4),
	};
	const struct sl_job_link link = { .index = 1 };
	unsigned int bad = 0;

	for (unsigned int i = 0; i < groups * local; i++)
		fbuf(0)[i] = (float)(i % 13);
	REQUIRE(emit("group_sum", args, 3,
		     (struct sl_ndrange){ .work_dim = 1,
					  .global = { groups * local },
					  .local = { local } },
		     &link, CH_DESC_VA, NULL));
	REQUIRE(run(CH_DESC_VA));
	for (unsigned int g = 0; g < groups; g++) {
		float want = 0;

		for (unsigned int i = 0; i < local; i++)
			want += (float)((g * local + i) % 13);
		bad += fbuf(1)[g] != want;
	}
	CHECK_EQ(bad, 0);
}

/* __constant data and a global offset: lookup over [100, 356). */
TEST(model_constant_offset)
{
	static const int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
	const int k = -5;
	const struct sl_arg args[] = { SL_ARG_BUF(BUF_VA(0)), SL_ARG_VAL(&k) };
	const struct sl_job_link link = { .index = 1 };
	int32_t *x = (int32_t *)ch_ptr(&fh, BUF_VA(0));
	unsigned int bad = 0;

	REQUIRE(prog.constant_size >= sizeof(table));
	REQUIRE(emit("lookup", args, 2,
		     (struct sl_ndrange){ .work_dim = 1, .offset = { 100 },
					  .global = { 256 },
					  .local = { 32 } },
		     &link, CH_DESC_VA, NULL));
	REQUIRE(run(CH_DESC_VA));
	for (unsigned int i = 0; i < 256; i++)
		bad += x[i] != table[(i + 100) % 8] * k + (int)(i + 100);
	CHECK_EQ(bad, 0);
}

/*
 * Two jobs in one chain, the second depending on the first and reading
 * what it wrote: c = a + b * 2, then d = c + b * -1 (= a + b).
 */
TEST(model_chain)
{
	const unsigned int n = 512;
	const float two = 2.0f, minus_one = -1.0f;
	const struct sl_arg a1[] = {
		SL_ARG_BUF(BUF_VA(0)), SL_ARG_BUF(BUF_VA(1)),
		SL_ARG_BUF(BUF_VA(2)), SL_ARG_VAL(&two),
	};
	const struct sl_arg a2[] = {
		SL_ARG_BUF(BUF_VA(2)), SL_ARG_BUF(BUF_VA(1)),
		SL_ARG_BUF(BUF_VA(3)), SL_ARG_VAL(&minus_one),
	};
	const struct sl_ndrange nd = { .work_dim = 1, .global = { n },
				       .local = { 16 } };
	struct sl_job_link l1 = { .index = 1 }, l2 = { .index = 2,
						       .dep = { 1, 0 } };
	size_t first_bytes;
	unsigned int bad = 0;

	for (unsigned int i = 0; i < n; i++) {
		fbuf(0)[i] = (float)i;
		fbuf(1)[i] = (float)(i % 5);
		fbuf(2)[i] = fbuf(3)[i] = -1.0f;
	}
	/* The first block, then the second right after it, then link. */
	REQUIRE(emit("vadd", a1, 4, nd, &l1, CH_DESC_VA, &first_bytes));
	REQUIRE(emit("vadd", a2, 4, nd, &l2, CH_DESC_VA + first_bytes, NULL));
	sl_desc_link(ch_ptr(&fh, CH_DESC_VA), CH_DESC_VA + first_bytes);
	REQUIRE(run(CH_DESC_VA));
	/* Both headers read DONE (docs/hardware.md §4.1). */
	CHECK_EQ(le_get32(ch_ptr(&fh, CH_DESC_VA)), 1);
	CHECK_EQ(le_get32(ch_ptr(&fh, CH_DESC_VA + first_bytes)), 1);
	for (unsigned int i = 0; i < n; i++)
		bad += fbuf(2)[i] != (float)i + (float)(i % 5) * 2 ||
		       fbuf(3)[i] != (float)i + (float)(i % 5);
	CHECK_EQ(bad, 0);
}

/* An RGBA UNORM8 image of W x H at BUF_VA(0), texel (x, y) = pattern. */
#define IMG_W 8
#define IMG_H 6

static uint8_t img_texel(unsigned int x, unsigned int y, unsigned int c)
{
	return (uint8_t)(x * 29 + y * 53 + c * 71 + 5);
}

static struct sl_image rgba8_image(void)
{
	uint8_t *p = ch_ptr(&fh, BUF_VA(0));

	for (unsigned int y = 0; y < IMG_H; y++)
		for (unsigned int x = 0; x < IMG_W; x++)
			for (unsigned int c = 0; c < 4; c++)
				/* Rows padded to 48 bytes. */
				p[y * 48 + x * 4 + c] = img_texel(x, y, c);
	return (struct sl_image){
		.type = SL_IMAGE_2D, .width = IMG_W, .height = IMG_H,
		.channel_order = 0x10B5,         /* CL_RGBA */
		.channel_type = 0x10D2,          /* CL_UNORM_INT8 */
		.va = BUF_VA(0), .row_pitch = 48, .slice_pitch = 48 * IMG_H,
	};
}

/*
 * The image tables sl_launch builds: a sampled read through a sampler
 * argument and a write through the attribute tables, into an RGBA FLOAT
 * image: dst = src * 0.5, with src's UNORM8 texels as x / 255.
 */
TEST(model_image_tables)
{
	struct sl_image src = rgba8_image();
	struct sl_image dst = {
		.type = SL_IMAGE_2D, .width = IMG_W, .height = IMG_H,
		.channel_order = 0x10B5, .channel_type = 0x10DE, /* FLOAT */
		.va = BUF_VA(1), .row_pitch = IMG_W * 16,
		.slice_pitch = IMG_W * 16 * IMG_H,
	};
	/* CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE |
	 * CLK_FILTER_NEAREST */
	const struct sl_arg args[] = {
		SL_ARG_IMG(&src), SL_ARG_SMP(0x10), SL_ARG_IMG(&dst),
	};
	const struct sl_job_link link = { .index = 1 };
	const float *out = (const float *)ch_ptr(&fh, BUF_VA(1));
	unsigned int bad = 0;

	memset(ch_ptr(&fh, BUF_VA(1)), 0xFF, IMG_W * 16 * IMG_H);
	REQUIRE(emit("img_scale", args, 3,
		     (struct sl_ndrange){ .work_dim = 2,
					  .global = { IMG_W, IMG_H },
					  .local = { 4, 2 } },
		     &link, CH_DESC_VA, NULL));
	REQUIRE(run(CH_DESC_VA));
	for (unsigned int y = 0; y < IMG_H; y++)
		for (unsigned int x = 0; x < IMG_W; x++)
			for (unsigned int c = 0; c < 4; c++) {
				float want = img_texel(x, y, c) / 255.0f *
					     0.5f;
				float got = out[(y * IMG_W + x) * 4 + c];

				bad += fabsf(got - want) > 1e-6f;
			}
	CHECK_EQ(bad, 0);
}

/*
 * A constant sampler after a sampler argument (sampler index 1, clamp to
 * edge), and the image words (get_image_width): out(x, y) = src(max(x -
 * 1, 0), max(y - 1, 0)). The argument's sampler repeats with normalized
 * coordinates, so reading through the wrong entry would show.
 */
TEST(model_constant_sampler)
{
	struct sl_image src = rgba8_image();
	const struct sl_arg args[] = {
		SL_ARG_IMG(&src), SL_ARG_SMP(0x1 | 0x6 | 0x10),
		SL_ARG_BUF(BUF_VA(2)),
	};
	const struct sl_job_link link = { .index = 1 };
	const float *out = fbuf(2);
	unsigned int bad = 0;

	REQUIRE(emit("img_shift", args, 3,
		     (struct sl_ndrange){ .work_dim = 2,
					  .global = { IMG_W, IMG_H },
					  .local = { 2, 3 } },
		     &link, CH_DESC_VA, NULL));
	REQUIRE(run(CH_DESC_VA));
	for (unsigned int y = 0; y < IMG_H; y++)
		for (unsigned int x = 0; x < IMG_W; x++)
			for (unsigned int c = 0; c < 4; c++) {
				float want = img_texel(x ? x - 1 : 0,
						       y ? y - 1 : 0, c) /
					     255.0f;
				float got = out[(y * IMG_W + x) * 4 + c];

				bad += fabsf(got - want) > 1e-6f;
			}
	CHECK_EQ(bad, 0);
}

/* The image tables' errors: kinds, a bad sampler, a bad image. */
TEST(image_argument_errors)
{
	struct sl_image src = rgba8_image(), bad_fmt = src, unaligned = src;
	uint32_t words[SLB_IMAGE_WORDS] = { 0 };
	struct sl_launch_params p = {
		.prog = &prog, .kernel = slb_find_kernel(&prog, "img_scale"),
		.num_args = 3,
		.nd = { .work_dim = 1, .global = { 1 }, .local = { 1 } },
	};
	struct sl_arg args[3] = {
		SL_ARG_IMG(&src), SL_ARG_SMP(0x10), SL_ARG_IMG(&src),
	};
	struct sl_launch_plan plan;

	REQUIRE(p.kernel);
	p.args = args;
	CHECK_EQ(sl_launch_plan(&p, &plan), SL_LAUNCH_OK);
	CHECK_EQ(plan.num_images, 2);
	CHECK_EQ(plan.num_samplers, 1);
	CHECK(plan.desc_bytes > sl_desc_size(plan.image_bytes));
	/* A sampler for an image, a sampler with no filter. */
	args[0] = SL_ARG_SMP(0x10);
	CHECK_EQ(sl_launch_plan(&p, &plan), SL_LAUNCH_E_ARG_KIND);
	CHECK_EQ(plan.error_arg, 0);
	args[0] = SL_ARG_IMG(&src);
	args[1] = SL_ARG_SMP(0x2);
	CHECK_EQ(sl_launch_plan(&p, &plan), SL_LAUNCH_E_ARG_VALUE);
	args[1] = SL_ARG_SMP(0x10);
	/* CL_RGB has no format; the base must be 64-byte aligned. */
	bad_fmt.channel_order = 0x10B4;
	args[2] = SL_ARG_IMG(&bad_fmt);
	CHECK_EQ(sl_launch_plan(&p, &plan), SL_LAUNCH_E_ARG_VALUE);
	unaligned.va += 16;
	args[2] = SL_ARG_IMG(&unaligned);
	CHECK_EQ(sl_launch_plan(&p, &plan), SL_LAUNCH_E_ALIGN);
	/* Image words by value (the caller's tables) mix with none of the
	 * launch's. */
	args[2] = (struct sl_arg){ .kind = SL_ARG_VALUE, .value = words,
				   .size = sizeof(words) };
	CHECK_EQ(sl_launch_plan(&p, &plan), SL_LAUNCH_E_ARG_KIND);
}

/* The pixel formats of compiler/README.md's table. */
TEST(image_formats)
{
	uint32_t fmt = 0, bytes = 0;

	CHECK(sl_image_format(0x10B5, 0x10D2, &fmt, &bytes));   /* RGBA8 */
	CHECK_EQ(fmt, 187u << 12 | 0x688);
	CHECK_EQ(bytes, 4);
	CHECK(sl_image_format(0x10B6, 0x10D2, &fmt, &bytes));   /* BGRA8 */
	CHECK_EQ(fmt, 187u << 12 | 0x60A);
	CHECK(sl_image_format(0x10B0, 0x10DE, &fmt, &bytes));   /* R F32 */
	CHECK_EQ(fmt, 167u << 12 | 0xB20);
	CHECK_EQ(bytes, 4);
	CHECK(sl_image_format(0x10B2, 0x10DB, &fmt, &bytes));   /* RG U16 */
	CHECK_EQ(fmt, 140u << 12 | 0xB08);
	CHECK(sl_image_format(0x10B7, 0x10D7, &fmt, &bytes));   /* ARGB S8 */
	CHECK_EQ(fmt, 219u << 12 | 0x0D1);
	CHECK(sl_image_format(0x10B1, 0x10D3, &fmt, &bytes));   /* A U16N */
	CHECK_EQ(fmt, 164u << 12 | 0x124);
	CHECK(sl_image_format(0x10B3, 0x10DD, &fmt, &bytes));   /* RA F16 */
	CHECK_EQ(fmt, 207u << 12 | 0x320);
	CHECK(sl_image_format(0x10B8, 0x10D1, &fmt, &bytes));   /* I S16N */
	CHECK_EQ(fmt, 100u << 12 | 0x000);
	CHECK(sl_image_format(0x10B9, 0x10D0, &fmt, &bytes));   /* L S8N */
	CHECK_EQ(fmt, 99u << 12 | 0xA00);
	CHECK(!sl_image_format(0x10B4, 0x10D4, &fmt, &bytes));  /* RGB565 */
	CHECK(!sl_image_format(0x10B6, 0x10D3, &fmt, &bytes));  /* BGRA16 */
	CHECK(!sl_image_format(0x10B8, 0x10DA, &fmt, &bytes));  /* I U8 */
}

int main(void)
{
	RUN(plan_sizes);
	RUN(image_bytes);
	RUN(printf_buffer);
	RUN(descriptor_bytes);
	RUN(descriptor_cache);
	RUN(descriptor_without_storage);
	RUN(argument_errors);
	RUN(ndrange_errors);
	RUN(big_launches_pack);
	RUN(emit_errors);
	RUN(image_formats);
	if (!setup()) {
		printf("  model or compiler set-up failed\n");
		check_state.failed++;
	} else {
		RUN(model_vadd);
		RUN(model_local_barrier);
		RUN(model_constant_offset);
		RUN(model_chain);
		RUN(model_image_tables);
		RUN(model_constant_sampler);
		RUN(image_argument_errors);
		slb_program_free(&prog);
		CHECK(fh_fini(&fh));
	}
	return check_summary();
}
