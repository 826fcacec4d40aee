/* SPDX-License-Identifier: MIT */
/*
 * Compute shaders on the model's shader cores: a binary decoded by Mesa's
 * own disassembler, then kernels in our assembler checked against C
 * references: compute ids, uniforms, UBOs, branches and loops, private
 * arrays in thread-local storage, __local memory with barriers (the sum
 * reduction), atomics (the last-group reduction), faults, the cycle model
 * and the decoded-bundle cache.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compute_harness.h"
#include "mesa_example_shader.h"

CHECK_MAIN_STATE("sgpu_compute");

static struct fake_host fh;

static uint32_t *words(uint64_t va)
{
	return (uint32_t *)ch_ptr(&fh, va);
}

TEST(mesa_disassembled_binary)
{
	struct ch_kernel k = {
		.code = (const uint8_t *)mesa_example_shader,
		.code_size = sizeof(mesa_example_shader),
		.first_tag = 5, .work_regs = 2,
		.local_size = { 16, 1, 1 }, .num_groups = { 4, 1, 1 },
		.ubo_count = 1, .ubo_va = { CH_DATA_VA }, .ubo_size = { 16 },
	};
	struct ch_result r;
	uint64_t buf = CH_DATA_VA + 0x1000;

	REQUIRE(ch_setup(&fh));
	memcpy(ch_ptr(&fh, CH_DATA_VA), &buf, 8);
	memset(ch_ptr(&fh, buf), 0xAA, 64 * 4 + 4);
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	for (uint32_t i = 0; i < 64; i++)
		CHECK_EQ(words(buf)[i], i);
	CHECK_EQ(words(buf)[64], 0xAAAAAAAA);
	CHECK_EQ(r.after.shader_threads - r.before.shader_threads, 64);
	CHECK_EQ(r.after.shader_decodes - r.before.shader_decodes, 3);
	CHECK(fh_fini(&fh));
}


/* Buffers: a table of 64-bit pointers in UBO 0, pointing into DATA. */
#define UBO0_VA CH_DATA_VA
#define IN_VA (CH_DATA_VA + 0x1000)
#define OUT_VA (CH_DATA_VA + 0x100000)
#define OUT2_VA (CH_DATA_VA + 0x200000)

static void ubo0_pointers(uint64_t a, uint64_t b)
{
	memcpy(ch_ptr(&fh, UBO0_VA), &a, 8);
	memcpy(ch_ptr(&fh, UBO0_VA + 8), &b, 8);
}

static uint32_t rng = 12345;

static uint32_t next_random(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

/* Every thread stores its global, local and group ids as uvec4s. */
static const char ids_kernel[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	mov r1.xyz, local_id.xyzx\n"
	"ldst\n"
	"	mov r2.xyz, group_id.xyzx\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.imul.i32 r4.x, r0.yyyy, #12\n"
	"	vadd.iadd.i32 r4.x, r4.xxxx, r0.xxxx\n"
	"alu\n"
	"	vmul.imul.i32 r5.x, r0.zzzz, #48\n"
	"	vadd.iadd.i32 r4.x, r4.xxxx, r5.xxxx\n"
	"alu\n"
	"	vmul.imov.i32 r26.xy, r3.xyzw\n"
	"	vadd.imov.i32 r26.z, r4.xxxx\n"
	"	vlut.imov.i32 r27, r0.xyzw\n"
	"ldst\n"
	"	st.128 r27.xyzw, [r26.xy + r26.z.u32 << 4]\n"
	"alu\n"
	"	vmul.imov.i32 r27, r1.xyzw\n"
	"ldst\n"
	"	st.128 r27.xyzw, [r26.xy + r26.z.u32 << 4 + 4096]\n"
	"alu\n"
	"	vmul.imov.i32 r27, r2.xyzw\n"
	"ldst\n"
	"	st.128 r27.xyzw, [r26.xy + r26.z.u32 << 4 + 8192]\n";

TEST(compute_ids_3d)
{
	struct ch_kernel k = {
		.source = ids_kernel,
		.local_size = { 4, 2, 2 }, .num_groups = { 3, 2, 2 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
	};
	struct ch_result r;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(OUT_VA, 0);
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	for (uint32_t z = 0; z < 4; z++) {
		for (uint32_t y = 0; y < 4; y++) {
			for (uint32_t x = 0; x < 12; x++) {
				uint32_t lin = x + 12 * y + 48 * z;
				const uint32_t *g = words(OUT_VA + 16 * lin);
				const uint32_t *l = words(OUT_VA + 4096 + 16 * lin);
				const uint32_t *w = words(OUT_VA + 8192 + 16 * lin);

				CHECK(g[0] == x && g[1] == y && g[2] == z && !g[3]);
				CHECK(l[0] == x % 4 && l[1] == y % 2 &&
				      l[2] == z % 2 && !l[3]);
				CHECK(w[0] == x / 4 && w[1] == y / 2 &&
				      w[2] == z / 2 && !w[3]);
			}
		}
	}
	CHECK_EQ(r.after.shader_workgroups - r.before.shader_workgroups, 12);
	CHECK_EQ(r.after.shader_threads - r.before.shader_threads, 192);
	CHECK(fh_fini(&fh));
}

/*
 * out[i] = VALUE (+ i, with ADD_ID) for every thread: two shaders that
 * differ in their code, register count and pushed uniforms.
 */
static const char store_constant_kernel[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.imov.i32 r27.x, #111\n"
	"	vadd.imov.i32 r26.xy, r3.xyzw\n"
	"	smul.imov.i32 r26.z, r0.x\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r26.z.u32 << 2]\n";

static const char store_id_plus_uniform_kernel[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.iadd.i32 r5.x, r0.xxxx, r23.xxxx\n"
	"alu\n"
	"	vmul.imov.i32 r27.x, r5.xxxx\n"
	"	vadd.imov.i32 r26.xy, r3.xyzw\n"
	"	smul.imov.i32 r26.z, r0.x\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r26.z.u32 << 2]\n";

/*
 * A job slot keeps its last dispatch's memory (register files, decode
 * cache) for the next: nothing of the old dispatch may show through. The
 * second job's code sits where the first one's was, at other register
 * and uniform counts; a job that is not started again after them still
 * sees its own code.
 */
TEST(consecutive_jobs_on_a_slot_share_nothing)
{
	uint32_t uniforms[4] = { 5000, 0, 0, 0 };
	struct ch_kernel big = {
		.source = store_constant_kernel,
		.local_size = { 256, 1, 1 }, .num_groups = { 16, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
	};
	struct ch_kernel small = {
		.source = store_id_plus_uniform_kernel,
		.local_size = { 3, 1, 1 }, .num_groups = { 2, 1, 1 },
		.uniforms = uniforms, .uniform_vec4 = 1,
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
	};
	struct ch_result r;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(OUT_VA, 0);
	REQUIRE(ch_run(&fh, &big, &r));
	CHECK_EQ(r.js_status, 1);
	REQUIRE(ch_run(&fh, &small, &r));
	CHECK_EQ(r.js_status, 1);
	/* Decoded afresh: the old bundles at those addresses are gone. */
	CHECK_EQ(r.after.shader_decodes - r.before.shader_decodes, 4);
	for (uint32_t i = 0; i < 6; i++)
		CHECK_EQ(words(OUT_VA)[i], 5000 + i);
	for (uint32_t i = 6; i < 4096; i++)
		CHECK_EQ(words(OUT_VA)[i], 111);
	REQUIRE(ch_run(&fh, &big, &r));
	CHECK_EQ(r.js_status, 1);
	for (uint32_t i = 0; i < 4096; i++)
		CHECK_EQ(words(OUT_VA)[i], 111);
	CHECK_EQ(r.after.shader_threads - r.before.shader_threads, 4096);
	CHECK(fh_fini(&fh));
}

/*
 * Pushed uniforms (r23 = uniform vec4 0, r22 = vec4 1), a UBO read at a
 * dynamic offset, embedded constants and float arithmetic:
 *   iout[i] = table[i & 63] + u0.y
 *   fout[i] = float(i) * u1.x + 0.5
 */
static const char uniforms_kernel[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.iand.i32 r27.x, r0.xxxx, #63\n"
	"ldst\n"
	"	ld_ubo.32 r5.x, ubo(1)[r27.x << 2]\n"
	"	ld_ubo.64 r6.xy, ubo(0)[8]\n"
	"alu\n"
	"	vmul.iadd.i32 r27.x, r5.xxxx, r23.yyyy\n"
	"	vadd.imov.i32 r26.xy, r3.xyzw\n"
	"	smul.imov.i32 r26.z, r0.x\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r26.z.u32 << 2]\n"
	"alu\n"
	"	vadd.i2f_rte.f32 r7.x, r0.xxxx\n"
	"alu\n"
	"	vmul.fmul.f32 r7.x, r7.xxxx, r22.xxxx\n"
	"	vadd.fadd.f32 r27.x, r7.xxxx, r26.xxxx\n"
	"	const 0.5\n"
	"alu\n"
	"	vmul.imov.i32 r26.xy, r6.xyzw\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r26.z.u32 << 2]\n";

TEST(uniforms_ubos_constants)
{
	uint32_t uniforms[8] = { 0, 1000, 0, 0 };
	float scale = 0.375f;
	struct ch_kernel k = {
		.source = uniforms_kernel,
		.local_size = { 32, 1, 1 }, .num_groups = { 5, 1, 1 },
		.uniforms = uniforms, .uniform_vec4 = 2,
		.ubo_count = 2, .ubo_va = { UBO0_VA, IN_VA },
		.ubo_size = { 16, 256 },
	};
	struct ch_result r;
	uint32_t table[64];

	memcpy(&uniforms[4], &scale, 4);
	REQUIRE(ch_setup(&fh));
	ubo0_pointers(OUT_VA, OUT2_VA);
	for (int i = 0; i < 64; i++)
		table[i] = next_random();
	memcpy(ch_ptr(&fh, IN_VA), table, sizeof(table));
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	for (uint32_t i = 0; i < 160; i++) {
		float want = (float)i * scale + 0.5f, got;

		CHECK_EQ(words(OUT_VA)[i], table[i & 63] + 1000);
		memcpy(&got, words(OUT2_VA) + i, 4);
		CHECK(got == want);
	}
	CHECK(fh_fini(&fh));
}

/*
 * Loops and branches: n = gid & 15; s = sum of i*i for i = n..0; odd
 * threads negate it (a forward branch over one bundle).
 */
static const char loop_kernel[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.iand.i32 r1.x, r0.xxxx, #15\n"
	"	vadd.imov.i32 r2.x, #0\n"
	"loop:\n"
	"alu\n"
	"	vmul.imul.i32 r4.x, r1.xxxx, r1.xxxx\n"
	"	sadd.isub.i32 r1.x, r1.x, #1\n"
	"	vadd.iadd.i32 r2.x, r2.xxxx, r4.xxxx\n"
	"	smul.ilt.i32 r31.w, r1.x, #0\n"
	"	br.false loop\n"
	"alu\n"
	"	vmul.iand.i32 r5.x, r0.xxxx, #1\n"
	"	smul.ieq.i32 r31.w, r5.x, #0\n"
	"	br.true store\n"
	"alu\n"
	"	vmul.isub.i32 r2.x, r26.xxxx, r2.xxxx\n"
	"	const 0\n"
	"store:\n"
	"alu\n"
	"	vmul.imov.i32 r27.x, r2.xxxx\n"
	"	vadd.imov.i32 r26.xy, r3.xyzw\n"
	"	sadd.imov.i32 r26.z, r0.x\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r26.z.u32 << 2]\n";

TEST(branches_and_loops)
{
	struct ch_kernel k = {
		.source = loop_kernel,
		.local_size = { 64, 1, 1 }, .num_groups = { 2, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
	};
	struct ch_result r;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(OUT_VA, 0);
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	for (int32_t i = 0; i < 128; i++) {
		int32_t n = i & 15, want = 0;

		for (int32_t j = n; j >= 0; j--)
			want += j * j;
		if (i & 1)
			want = -want;
		CHECK_EQ(words(OUT_VA)[i], (uint32_t)want);
	}
	CHECK(fh_fini(&fh));
}

/*
 * A private array in thread-local storage: arr[i] = gid * i for i < 8
 * (dynamic index), then acc = acc * 3 + arr[j] for j = 7..0.
 */
static const char private_kernel[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.imov.i32 r1.x, #0\n"
	"wloop:\n"
	"alu\n"
	"	vmul.imul.i32 r27.x, r0.xxxx, r1.xxxx\n"
	"	vadd.imov.i32 r27.y, r1.xxxx\n"
	"	smul.iadd.i32 r1.x, r1.x, #1\n"
	"ldst\n"
	"	st.32 r27.xxxx, [local_storage.xy + r27.y.u32 << 2]\n"
	"alu\n"
	"	smul.ilt.i32 r31.w, r1.x, #8\n"
	"	br.true wloop\n"
	"alu\n"
	"	vmul.imov.i32 r1.x, #7\n"
	"	vadd.imov.i32 r2.x, #0\n"
	"rloop:\n"
	"alu\n"
	"	vmul.imov.i32 r27.y, r1.xxxx\n"
	"ldst\n"
	"	ld.32 r4.x, [local_storage.xy + r27.y.u32 << 2]\n"
	"alu\n"
	"	vmul.imul.i32 r2.x, r2.xxxx, #3\n"
	"	sadd.isub.i32 r1.x, r1.x, #1\n"
	"	vadd.iadd.i32 r2.x, r2.xxxx, r4.xxxx\n"
	"	smul.ilt.i32 r31.w, r1.x, #0\n"
	"	br.false rloop\n"
	"alu\n"
	"	vmul.imov.i32 r27.x, r2.xxxx\n"
	"	vadd.imov.i32 r26.xy, r3.xyzw\n"
	"	sadd.imov.i32 r26.z, r0.x\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r26.z.u32 << 2]\n";

TEST(private_arrays_in_tls)
{
	struct ch_kernel k = {
		.source = private_kernel,
		.local_size = { 16, 4, 1 }, .num_groups = { 3, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
		.tls_bytes = 32,
	};
	struct ch_result r;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(OUT_VA, 0);
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	/* Rows (gid.y) share gid.x: the same values, in their own slots. */
	for (uint32_t i = 0; i < 48; i++) {
		uint32_t want = 0;

		for (int j = 7; j >= 0; j--)
			want = want * 3 + i * (uint32_t)j;
		CHECK_EQ(words(OUT_VA)[i], want);
	}
	/* One byte more per thread than the descriptor gives: a TLS fault. */
	k.tls_bytes = 16;
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 0x54);
	CHECK(fh_fini(&fh));
}

/*
 * The seed's sum reduction: 4096 ints in 8 workgroups of 128 threads, each
 * thread adding 4 elements, then a tree in __local memory with barriers;
 * thread 0 of each group writes the group's sum.
 */
static const char reduce_kernel[] =
	"ldst\n"
	"	mov r0.xyz, local_id.xyzx\n"
	"	mov r1.xyz, group_id.xyzx\n"
	"ldst\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"	ld_ubo.64 r6.xy, ubo(0)[8]\n"
	"alu\n"
	"	vmul.imul.i32 r2.x, r1.xxxx, #512\n"
	"	vadd.iadd.i32 r2.x, r2.xxxx, r0.xxxx\n"
	"alu\n"
	"	vmul.imov.i32 r4.x, #0\n"
	"	vadd.imov.i32 r5.x, #4\n"
	"sum:\n"
	"alu\n"
	"	vmul.imov.i32 r26.xy, r3.xyzw\n"
	"	vadd.imov.i32 r27.x, r2.xxxx\n"
	"ldst\n"
	"	ld.32 r7.x, [r26.xy + r27.x.u32 << 2]\n"
	"alu\n"
	"	vmul.iadd.i32 r4.x, r4.xxxx, r7.xxxx\n"
	"	sadd.isub.i32 r5.x, r5.x, #1\n"
	"	vadd.iadd.i32 r2.x, r2.xxxx, #128\n"
	"	smul.ine.i32 r31.w, r5.x, #0\n"
	"	br.true sum\n"
	"alu\n"
	"	vmul.imov.i32 r27.x, r4.xxxx\n"
	"	vadd.imov.i32 r27.y, r0.xxxx\n"
	"	sadd.imov.i32 r5.x, #64\n"
	"ldst\n"
	"	st.32 r27.xxxx, [local_storage.z.64 + r27.y.u32 << 2]\n"
	"tree:\n"
	"barrier\n"
	"alu\n"
	"	smul.ilt.i32 r31.w, r0.x, r5.x\n"
	"	br.false skip\n"
	"alu\n"
	"	vmul.iadd.i32 r27.y, r0.xxxx, r5.xxxx\n"
	"	vadd.imov.i32 r27.x, r0.xxxx\n"
	"ldst\n"
	"	ld.32 r7.x, [local_storage.z.64 + r27.y.u32 << 2]\n"
	"	ld.32 r4.x, [local_storage.z.64 + r27.x.u32 << 2]\n"
	"alu\n"
	"	vmul.iadd.i32 r27.z, r7.xxxx, r4.xxxx\n"
	"ldst\n"
	"	st.32 r27.zzzz, [local_storage.z.64 + r27.x.u32 << 2]\n"
	"skip:\n"
	"alu\n"
	"	vadd.ilsr.i32 r5.x, r5.xxxx, #1\n"
	"	smul.ine.i32 r31.w, r5.x, #0\n"
	"	br.true tree\n"
	"alu\n"
	"	smul.ine.i32 r31.w, r0.x, #0\n"
	"	br.true end\n"
	"ldst\n"
	"	ld.32 r4.x, [local_storage.z.64]\n"
	"alu\n"
	"	vmul.imov.i32 r27.x, r4.xxxx\n"
	"	vadd.imov.i32 r26.xy, r6.xyzw\n"
	"	sadd.imov.i32 r27.y, r1.x\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r27.y.u32 << 2]\n"
	"end:\n"
	"alu\n"
	"	vmul.imov.i32 r7.x, #0\n";

TEST(local_memory_sum_reduction)
{
	struct ch_kernel k = {
		.source = reduce_kernel,
		.local_size = { 128, 1, 1 }, .num_groups = { 8, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
		.wls_bytes = 128 * 4, .barrier = true,
	};
	struct ch_result r;
	uint32_t *in;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(IN_VA, OUT_VA);
	in = words(IN_VA);
	for (int i = 0; i < 4096; i++)
		in[i] = next_random() & 0xFFFF;
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	for (int g = 0; g < 8; g++) {
		uint32_t want = 0;

		for (int i = 0; i < 512; i++)
			want += in[g * 512 + i];
		CHECK_EQ(words(OUT_VA)[g], want);
	}
	CHECK_EQ(r.after.last_work_regs, 8);
	CHECK_EQ(r.after.last_threads_per_core, 128);
	CHECK(r.after.shader_tex_bundles - r.before.shader_tex_bundles >=
	      8 * 128 * 7);

	/* Without the RSD's barrier bit, the barrier is a fault. */
	k.barrier = false;
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 0x55);
	/* 256 threads cannot be resident with 8 work registers. */
	k.barrier = true;
	k.local_size[0] = 256;
	k.num_groups[0] = 4;
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 0x40);
	CHECK(strstr(fh.last_error, "resident") != NULL);
	CHECK(fh_fini(&fh));
}

/*
 * The atom_inc last-group reduction: each group adds its elements into a
 * __local sum with local atomics, thread 0 stores the partial and bumps a
 * global counter; the group that sees count = groups - 1 adds the partials.
 */
static const char last_group_kernel[] =
	"ldst\n"
	"	mov r0.xyz, local_id.xyzx\n"
	"	mov r1.xyz, group_id.xyzx\n"
	"ldst\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"	ld_ubo.64 r6.xy, ubo(0)[8]\n"
	/* thread 0 zeroes the local sum */
	"alu\n"
	"	smul.ine.i32 r31.w, r0.x, #0\n"
	"	br.true zeroed\n"
	"alu\n"
	"	vmul.imov.i32 r27.x, #0\n"
	"ldst\n"
	"	st.32 r27.xxxx, [local_storage.z.64]\n"
	"zeroed:\n"
	"barrier\n"
	/* in[group * 64 + lid] into the local sum */
	"alu\n"
	"	vmul.imul.i32 r2.x, r1.xxxx, #64\n"
	"	vadd.iadd.i32 r27.x, r2.xxxx, r0.xxxx\n"
	"	vlut.imov.i32 r26.xy, r3.xyzw\n"
	"ldst\n"
	"	ld.32 r4.x, [r26.xy + r27.x.u32 << 2]\n"
	"alu\n"
	"	vmul.imov.i32 r27.y, r4.xxxx\n"
	"ldst\n"
	"	aadd.32 r5.x, [local_storage.z.64], r27.y\n"
	"barrier\n"
	"alu\n"
	"	smul.ine.i32 r31.w, r0.x, #0\n"
	"	br.true end\n"
	/* partial[group] = sum; old = atomic_inc(counter) */
	"ldst\n"
	"	ld.32 r4.x, [local_storage.z.64]\n"
	"alu\n"
	"	vmul.imov.i32 r26.xy, r6.xyzw\n"
	"	vadd.imov.i32 r27.x, r4.xxxx\n"
	"	sadd.imov.i32 r27.y, r1.x\n"
	"	smul.imov.i32 r27.z, #1\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r27.y.u32 << 2 + 4]\n"
	"ldst\n"
	"	aadd.32 r5.x, [r26.xy], r27.z\n"
	"alu\n"
	"	smul.ine.i32 r31.w, r5.x, #7\n"
	"	br.true end\n"
	/* the last group: total = sum of partial[0..7], stored at out[9] */
	"alu\n"
	"	vmul.imov.i32 r7.x, #0\n"
	"	vadd.imov.i32 r27.y, #0\n"
	"gather:\n"
	"ldst\n"
	"	ld.32 r4.x, [r26.xy + r27.y.u32 << 2 + 4]\n"
	"alu\n"
	"	vmul.iadd.i32 r7.x, r7.xxxx, r4.xxxx\n"
	"	vadd.iadd.i32 r27.y, r27.yyyy, #1\n"
	"alu\n"
	"	smul.ilt.i32 r31.w, r27.y, #8\n"
	"	br.true gather\n"
	"alu\n"
	"	vmul.imov.i32 r27.x, r7.xxxx\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + 36]\n"
	"end:\n"
	"alu\n"
	"	vmul.imov.i32 r7.x, #0\n";

TEST(atomics_last_group_reduction)
{
	struct ch_kernel k = {
		.source = last_group_kernel,
		.local_size = { 64, 1, 1 }, .num_groups = { 8, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
		.wls_bytes = 16, .barrier = true,
	};
	struct ch_result r;
	uint32_t *in, total = 0;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(IN_VA, OUT_VA);
	in = words(IN_VA);
	for (int i = 0; i < 512; i++) {
		in[i] = next_random();
		total += in[i];
	}
	/* Garbage in __local memory: thread 0 must clear it first. */
	memset(ch_ptr(&fh, CH_WLS_VA), 0x5A, 4096);
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	CHECK_EQ(words(OUT_VA)[0], 8);               /* the counter */
	for (int g = 0; g < 8; g++) {
		uint32_t want = 0;

		for (int i = 0; i < 64; i++)
			want += in[g * 64 + i];
		CHECK_EQ(words(OUT_VA)[1 + g], want);
	}
	CHECK_EQ(words(OUT_VA)[9], total);
	CHECK(fh_fini(&fh));
}

/*
 * Global atomics of every kind, from 256 threads onto 16 cells: checked
 * for what any execution order gives.
 */
static const char atomics_kernel[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.iand.i32 r27.x, r0.xxxx, #15\n"
	"	vadd.imov.i32 r26.xy, r3.xyzw\n"
	"	sadd.imov.i32 r27.y, r0.x\n"
	"	smul.imov.i32 r27.z, #1\n"
	"ldst\n"
	"	aadd.32 r1.x, [r26.xy + r27.x.u32 << 2], r27.z\n"
	"ldst\n"
	"	aumax.32 r2.x, [r26.xy + r27.x.u32 << 2 + 64], r27.y\n"
	"	aumin.32 r2.y, [r26.xy + r27.x.u32 << 2 + 128], r27.y\n"
	"ldst\n"
	"	axor.32 r2.z, [r26.xy + r27.x.u32 << 2 + 192], r27.y\n"
	"	aor.32 r2.w, [r26.xy + r27.x.u32 << 2 + 256], r27.z\n"
	"ldst\n"
	"	lea r5.xy, [r26.xy + r27.x.u32 << 2 + 320]\n"
	"alu\n"
	"	vmul.iadd.i32 r27.w, r0.xxxx, #1\n"
	"	vadd.imov.i32 r27.z, #0\n"
	"	vlut.imov.i32 r26.xy, r5.xyzw\n"
	"ldst\n"
	"	acmpxchg.32 r4.x, [r26.xy], r27.w, r27.z\n"
	"alu\n"
	"	vmul.imov.i32 r27.x, r1.xxxx\n"
	"	vadd.imov.i32 r26.xy, r3.xyzw\n"
	"	vlut.imov.i32 r27.y, r0.xxxx\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r27.y.u32 << 2 + 1024]\n";

TEST(global_atomics)
{
	struct ch_kernel k = {
		.source = atomics_kernel,
		.local_size = { 64, 1, 1 }, .num_groups = { 4, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
	};
	struct ch_result r;
	uint32_t *cells;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(OUT_VA, 0);
	cells = words(OUT_VA);
	for (int c = 0; c < 16; c++) {
		cells[16 + c] = 0;              /* umax */
		cells[32 + c] = 0xFFFFFFFF;     /* umin */
		cells[48 + c] = 0xF0F0F0F0;     /* xor */
		cells[64 + c] = 0x100;          /* or */
	}
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	for (uint32_t c = 0; c < 16; c++) {
		uint32_t x = 0xF0F0F0F0, seen = 0;

		for (uint32_t t = c; t < 256; t += 16)
			x ^= t;
		CHECK_EQ(cells[c], 16);
		CHECK_EQ(cells[16 + c], 240 + c);
		CHECK_EQ(cells[32 + c], c);
		CHECK_EQ(cells[48 + c], x);
		CHECK_EQ(cells[64 + c], 0x101);
		/* Exactly one thread of the cell won the compare-exchange. */
		CHECK(cells[80 + c] > 0 && (cells[80 + c] - 1) % 16 == c);
		/* The old values of the adds are 0..15 in some order. */
		for (uint32_t t = c; t < 256; t += 16)
			seen |= 1u << cells[256 + t];
		CHECK_EQ(seen, 0xFFFF);
	}
	CHECK(fh_fini(&fh));
}

/*
 * The 64-bit atomics: 256 threads onto 16 cells each, with operands whose
 * two words differ, so a carry, a comparison or an old value that stops
 * at the low word shows. v[gid] is read from IN, the old values of the
 * add, the exchange and the compare-exchange are stored per thread.
 */
static const char atomics64_kernel[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.iand.i32 r27.x, r0.xxxx, #15\n"
	"	vadd.imov.i32 r26.xy, r3.xyzw\n"
	"	sadd.imov.i32 r27.y, r0.x\n"
	"ldst\n"
	"	ld.64 r5.xy, [r26.xy + r27.y.u32 << 3 + 8192]\n"
	"alu\n"
	"	vmul.imov.i32 r27.zw, r5.xxxy\n"
	"ldst\n"
	"	aadd.64 r1.xy, [r26.xy + r27.x.u32 << 3], r27.z\n"
	"ldst\n"
	"	aimin.64 r2.xy, [r26.xy + r27.x.u32 << 3 + 128], r27.z\n"
	"	aumin.64 r6.xy, [r26.xy + r27.x.u32 << 3 + 256], r27.z\n"
	"ldst\n"
	"	aimax.64 r7.xy, [r26.xy + r27.x.u32 << 3 + 384], r27.z\n"
	"	aumax.64 r8.xy, [r26.xy + r27.x.u32 << 3 + 512], r27.z\n"
	"ldst\n"
	"	aand.64 r9.xy, [r26.xy + r27.x.u32 << 3 + 640], r27.z\n"
	"	aor.64 r10.xy, [r26.xy + r27.x.u32 << 3 + 768], r27.z\n"
	"ldst\n"
	"	axor.64 r11.xy, [r26.xy + r27.x.u32 << 3 + 896], r27.z\n"
	"	axchg.64 r12.xy, [r26.xy + r27.x.u32 << 3 + 1024], r27.z\n"
	"ldst\n"
	"	lea r13.xy, [r26.xy + r27.x.u32 << 3 + 1152]\n"
	"alu\n"
	"	vmul.imov.i32 r26.zw, r13.xxxy\n"
	"	vadd.imov.i32 r27.xy, #0\n"
	"ldst\n"
	"	acmpxchg.64 r14.xy, [r26.zw], r27.z, r27.x\n"
	"alu\n"
	"	vmul.imov.i32 r27.xy, r1.xyxy\n"
	"	vadd.imov.i32 r27.zw, r12.xxxy\n"
	"	vlut.imov.i32 r26.z, r0.xxxx\n"
	"ldst\n"
	"	st.64 r27.xyzw, [r26.xy + r26.z.u32 << 3 + 12288]\n"
	"	st.64 r27.zwzw, [r26.xy + r26.z.u32 << 3 + 14336]\n"
	"alu\n"
	"	vmul.imov.i32 r27.xy, r14.xyxy\n"
	"ldst\n"
	"	st.64 r27.xyzw, [r26.xy + r26.z.u32 << 3 + 16384]\n";

static uint64_t *dwords(uint64_t va)
{
	return (uint64_t *)ch_ptr(&fh, va);
}

/* Whether n old values chain init to final through x <- f(x, v[t]). */
static bool chain64(uint64_t init, uint64_t final, const uint64_t *old,
		    const uint64_t *v, unsigned int n, bool xchg)
{
	/* Each new value is consumed once as another's old or is final. */
	bool used[17] = { false };
	uint64_t cur = init;

	for (unsigned int step = 0; step < n; step++) {
		unsigned int t;

		for (t = 0; t < n && (used[t] || old[t] != cur); t++)
			;
		if (t == n)
			return false;
		used[t] = true;
		cur = xchg ? v[t] : cur + v[t];
	}
	return cur == final;
}

TEST(global_atomics_64)
{
	struct ch_kernel k = {
		.source = atomics64_kernel,
		.local_size = { 64, 1, 1 }, .num_groups = { 4, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
	};
	const uint64_t xinit = 0x0123456789ABCDEFull;
	struct ch_result r;
	uint64_t *cells, *v;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(OUT_VA, 0);
	cells = dwords(OUT_VA);
	v = dwords(OUT_VA + 8192);
	for (uint32_t t = 0; t < 256; t++) {
		/* Both signs, low words near a carry, high words apart. */
		v[t] = (uint64_t)next_random() << 40 ^
		       (uint64_t)next_random() << 16 ^ 0xFFFFFF00u;
		if (t & 2)
			v[t] |= 1ull << 63;
	}
	for (int c = 0; c < 16; c++) {
		cells[c] = 0xFFFFFFFFull;            /* add: carries */
		cells[16 + c] = INT64_MAX;           /* imin */
		cells[32 + c] = UINT64_MAX;          /* umin */
		cells[48 + c] = (uint64_t)INT64_MIN; /* imax */
		cells[64 + c] = 0;                   /* umax */
		cells[80 + c] = UINT64_MAX;          /* and */
		cells[96 + c] = 1ull << 62;          /* or */
		cells[112 + c] = xinit;              /* xor */
		cells[128 + c] = 7;                  /* xchg */
		cells[144 + c] = 0;                  /* cmpxchg */
	}
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	for (uint32_t c = 0; c < 16; c++) {
		uint64_t sum = 0xFFFFFFFFull, and = UINT64_MAX, or = 1ull << 62;
		uint64_t x = xinit, umin = UINT64_MAX, umax = 0;
		int64_t imin = INT64_MAX, imax = INT64_MIN;
		uint64_t old[16], ov[16], xold[16];
		unsigned int winners = 0;

		for (uint32_t t = c, j = 0; t < 256; t += 16, j++) {
			int64_t s = (int64_t)v[t];

			sum += v[t];
			and &= v[t];
			or |= v[t];
			x ^= v[t];
			umin = v[t] < umin ? v[t] : umin;
			umax = v[t] > umax ? v[t] : umax;
			imin = s < imin ? s : imin;
			imax = s > imax ? s : imax;
			old[j] = dwords(OUT_VA + 12288)[t];
			xold[j] = dwords(OUT_VA + 14336)[t];
			ov[j] = v[t];
			if (dwords(OUT_VA + 16384)[t] == 0) {
				winners++;
				CHECK_EQ(cells[144 + c], v[t]);
			} else {
				CHECK_EQ(dwords(OUT_VA + 16384)[t],
					 cells[144 + c]);
			}
		}
		CHECK_EQ(cells[c], sum);
		CHECK_EQ(cells[16 + c], (uint64_t)imin);
		CHECK_EQ(cells[32 + c], umin);
		CHECK_EQ(cells[48 + c], (uint64_t)imax);
		CHECK_EQ(cells[64 + c], umax);
		CHECK_EQ(cells[80 + c], and);
		CHECK_EQ(cells[96 + c], or);
		CHECK_EQ(cells[112 + c], x);
		CHECK_EQ(winners, 1);
		CHECK(chain64(0xFFFFFFFFull, sum, old, ov, 16, false));
		CHECK(chain64(7, cells[128 + c], xold, ov, 16, true));
	}
	CHECK(fh_fini(&fh));
}

/* A 64-bit atomic's operand, comparison and address: what faults. */
TEST(global_atomics_64_faults)
{
	static const struct {
		const char *from, *to;
		uint32_t status;
	} cases[] = {
		/* An operand or a comparison on an odd component. */
		{ "<< 3], r27.z", "<< 3], r27.w", 0x51 },
		{ "r27.z, r27.x\n", "r27.z, r27.y\n", 0x51 },
		/* 4-byte aligned cells: an 8-byte atomic needs 8. */
		{ "", "", 0x56 },
	};
	struct ch_kernel k = {
		.local_size = { 64, 1, 1 }, .num_groups = { 1, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
	};
	static char src[sizeof(atomics64_kernel)];
	struct ch_result r;

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *at;

		REQUIRE(ch_setup(&fh));
		memcpy(src, atomics64_kernel, sizeof(src));
		if (*cases[i].from) {
			at = strstr(src, cases[i].from);
			REQUIRE(at && strlen(cases[i].from) ==
				strlen(cases[i].to));
			memcpy(at, cases[i].to, strlen(cases[i].to));
		}
		ubo0_pointers(cases[i].status == 0x56 ? OUT_VA + 4 : OUT_VA,
			      0);
		k.source = src;
		REQUIRE(ch_run(&fh, &k, &r));
		CHECK_EQ(r.js_status, cases[i].status);
		CHECK(fh_fini(&fh));
	}
}

/* A one-bundle loop that never ends: only a hard stop ends it. */
static const char endless_kernel[] =
	"spin:\n"
	"alu\n"
	"	vmul.iadd.i32 r0.x, r0.xxxx, #1\n"
	"	br spin\n";

TEST(endless_loop_is_hard_stopped)
{
	struct ch_kernel k = {
		.source = endless_kernel,
		.local_size = { 1, 1, 1 }, .num_groups = { 1, 1, 1 },
	};
	struct ch_result r;

	REQUIRE(ch_setup(&fh));
	REQUIRE(ch_run_timeout(&fh, &k, &r, 100));
	CHECK(r.hard_stopped);
	CHECK_EQ(r.js_status, 0x04);                  /* TERMINATED */
	CHECK(r.after.shader_alu_bundles - r.before.shader_alu_bundles > 10000);
	/* The core is free again: a good kernel runs. */
	k.source = ids_kernel;
	k.local_size[0] = 4;
	k.ubo_count = 1;
	k.ubo_va[0] = UBO0_VA;
	k.ubo_size[0] = 16;
	ubo0_pointers(OUT_VA, 0);
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	CHECK_EQ(words(OUT_VA + 16)[0], 1);
	CHECK(fh_fini(&fh));
}

/* Queues a chain of 3 WRITE_VALUE jobs on slot 0 beside the kernel. */
#define SLOT0_JOBS_VA (CH_DESC_VA + 0x800)
static void queue_slot0_jobs(struct fake_host *h, void *data)
{
	(void)data;
	for (unsigned int i = 0; i < 3; i++) {
		struct mdg_write_value_job wv = {
			.index = i + 1,
			.next = i < 2 ? SLOT0_JOBS_VA +
				MDG_WRITE_VALUE_JOB_BYTES * (i + 1) : 0,
			.target = OUT2_VA + 8 * i,
			.type = MDG_WRITE_VALUE_TYPE_ZERO,
		};

		mdg_pack_write_value_job(&wv, ch_ptr(h, SLOT0_JOBS_VA +
						     MDG_WRITE_VALUE_JOB_BYTES * i));
	}
	memset(ch_ptr(h, OUT2_VA), 0xEE, 24);
	fh_submit(h, 0, SLOT0_JOBS_VA, 1, 0);
}

/*
 * While an endless kernel keeps slot 1 busy, slot 0's jobs still run: the
 * shader cores give the job manager a turn every time slice.
 */
TEST(other_slots_run_beside_a_long_kernel)
{
	struct ch_kernel k = {
		.source = endless_kernel,
		.local_size = { 1, 1, 1 }, .num_groups = { 1, 1, 1 },
		.before_submit = queue_slot0_jobs,
	};
	struct ch_result r;

	REQUIRE(ch_setup(&fh));
	/* The fake clock moves per read: make a time slice a few polls. */
	fh.tick = 500000;
	REQUIRE(ch_run_timeout(&fh, &k, &r, 200));
	CHECK(r.hard_stopped);
	CHECK(r.others_idle_at_stop);
	CHECK_EQ(r.js_status, 0x04);
	CHECK_EQ(rd(&fh, JS_REG(0, JS_STATUS)), 1);
	for (int i = 0; i < 3; i++)
		CHECK_EQ(words(OUT2_VA)[2 * i], 0);
	CHECK(fh_fini(&fh));
}

/*
 * No watchdog (the hardware has none; the driver's timeout decides): a
 * finite kernel whose run the clock sees take minutes ends DONE, with its
 * results; an endless one keeps running, slice after slice, through hours
 * of the model's clock, until the driver hard-stops it.
 */
TEST(no_watchdog_only_the_driver_stops_a_job)
{
	struct ch_kernel k = {
		.source = loop_kernel,
		.local_size = { 64, 1, 1 }, .num_groups = { 2, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
	};
	struct ch_result r;
	uint64_t start;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(OUT_VA, 0);
	/* Each clock read is ten minutes later. */
	fh.tick = 600000000000ull;
	start = fh.now;
	REQUIRE(ch_run(&fh, &k, &r));
	printf("  the loop kernel ran %llu s by the model's clock\n",
	       (unsigned long long)((fh.now - start) / 1000000000ull));
	/* The premise: longer than the last watchdog the model had (120 s). */
	CHECK(fh.now - start > 1200000000000ull);
	CHECK_EQ(r.js_status, 1);
	CHECK_EQ(words(OUT_VA)[127], (uint32_t)-(15 * 16 * 31 / 6));
	CHECK(fh_fini(&fh));

	k = (struct ch_kernel){
		.source = endless_kernel,
		.local_size = { 1, 1, 1 }, .num_groups = { 1, 1, 1 },
	};
	REQUIRE(ch_setup(&fh));
	/* An hour a clock read: every poll ends a time slice. */
	fh.tick = 3600000000000ull;
	start = fh.now;
	REQUIRE(ch_run_timeout(&fh, &k, &r, 300));
	printf("  the endless kernel ran %llu h by the model's clock\n",
	       (unsigned long long)((fh.now - start) / 3600000000000ull));
	CHECK(fh.now - start > 2 * 3600000000000ull);
	CHECK(r.hard_stopped);
	CHECK_EQ(r.js_status, 0x04);                  /* TERMINATED */
	CHECK(fh_fini(&fh));
}

static uint32_t run_status(const char *source, unsigned int work_regs)
{
	struct ch_kernel k = {
		.source = source, .work_regs = work_regs,
		.local_size = { 4, 1, 1 }, .num_groups = { 1, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
	};
	struct ch_result r;

	if (!ch_run(&fh, &k, &r))
		return 0xFFFFFFFF;
	return r.js_status;
}

TEST(shader_faults)
{
	static const uint8_t bad_tag[] = { 0x16, 0, 0, 0, 0, 0, 0, 0,
					   0, 0, 0, 0, 0, 0, 0, 0 };
	struct ch_kernel raw = {
		.code = bad_tag, .code_size = sizeof(bad_tag), .first_tag = 6,
		.work_regs = 1, .local_size = { 1, 1, 1 },
		.num_groups = { 1, 1, 1 },
	};
	struct ch_result r;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(0x7000000000ull, 0);
	/* A store to an unmapped address: the MMU's translation fault. */
	CHECK_EQ(run_status(ids_kernel, 0) & 0xF8, 0xC0);
	CHECK_EQ(rd64(&fh, MMU_AS_BASE + MMU_AS_STRIDE + AS_FAULTADDRESS_LO),
		 0x7000000000ull);
	CHECK(fh_fini(&fh));
	REQUIRE(ch_setup(&fh));
	ubo0_pointers(OUT_VA + 2, 0);
	/* A misaligned 32-bit store. */
	CHECK_EQ(run_status(loop_kernel, 0), 0x56);
	/* A register the descriptor does not give the shader. */
	ubo0_pointers(OUT_VA, 0);
	CHECK_EQ(run_status(loop_kernel, 3), 0x53);
	CHECK_EQ(run_status(loop_kernel, 0), 0x01);
	/* An invalid tag (6) and a bundle whose tag is not the announced. */
	REQUIRE(ch_run(&fh, &raw, &r));
	CHECK_EQ(r.js_status, 0x51);
	raw.first_tag = 8;
	REQUIRE(ch_run(&fh, &raw, &r));
	CHECK_EQ(r.js_status, 0x51);
	CHECK(fh_fini(&fh));
}

/*
 * The cycle model: 64 threads of a kernel with 1 + 16 * 1 ALU bundles and
 * 2 load/store bundles each, on one core.
 */
static const char counted_kernel[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.imov.i32 r1.x, #16\n"
	"	vadd.imov.i32 r2.x, #0\n"
	"	smul.imov.i32 r27.y, r0.x\n"
	"again:\n"
	"alu\n"
	"	vmul.iadd.i32 r2.x, r2.xxxx, r1.xxxx\n"
	"	sadd.isub.i32 r1.x, r1.x, #1\n"
	"	vadd.imov.i32 r27.x, r2.xxxx\n"
	"	smul.ine.i32 r31.w, r1.x, #0\n"
	"	vlut.imov.i32 r26.xy, r3.xyzw\n"
	"	br.true again\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r27.y.u32 << 2]\n";

TEST(cycle_model_counts)
{
	struct ch_kernel k = {
		.source = counted_kernel,
		.local_size = { 64, 1, 1 }, .num_groups = { 1, 1, 1 },
		.ubo_count = 1, .ubo_va = { UBO0_VA }, .ubo_size = { 16 },
		.affinity = 0x4,
	};
	struct ch_result r;
	struct sgpu_stats d;

	REQUIRE(ch_setup(&fh));
	ubo0_pointers(OUT_VA, 0);
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	CHECK_EQ(words(OUT_VA)[5], 136);
#define DELTA(f) (d.f = r.after.f - r.before.f)
	DELTA(shader_alu_bundles);
	DELTA(shader_ldst_bundles);
	DELTA(shader_tex_bundles);
	DELTA(shader_alu_instructions);
	DELTA(shader_ldst_instructions);
	DELTA(shader_arith_cycles);
	DELTA(shader_ls_cycles);
	DELTA(shader_cycles);
	DELTA(shader_decodes);
#undef DELTA
	CHECK_EQ(d.shader_alu_bundles, 64 * 17);
	CHECK_EQ(d.shader_ldst_bundles, 64 * 2);
	CHECK_EQ(d.shader_tex_bundles, 0);
	/* 3 + 6 * 16 ALU instructions (the branch counts), 3 ld/st words. */
	CHECK_EQ(d.shader_alu_instructions, 64 * (3 + 6 * 16));
	CHECK_EQ(d.shader_ldst_instructions, 64 * 3);
	/* Two arithmetic pipes: 544 cycles, the load/store pipe 128. */
	CHECK_EQ(d.shader_arith_cycles, 64 * 17 / 2);
	CHECK_EQ(d.shader_ls_cycles, 128);
	CHECK_EQ(d.shader_cycles, 64 * 17 / 2);
	/* Each of the 4 bundles decoded once for 64 threads x 16 trips. */
	CHECK_EQ(d.shader_decodes, 4);
	CHECK_EQ(r.after.last_work_regs, 4);
	CHECK_EQ(r.after.last_threads_per_core, 256);
	CHECK(fh_fini(&fh));
}

int main(void)
{
	RUN(mesa_disassembled_binary);
	RUN(compute_ids_3d);
	RUN(consecutive_jobs_on_a_slot_share_nothing);
	RUN(uniforms_ubos_constants);
	RUN(branches_and_loops);
	RUN(private_arrays_in_tls);
	RUN(local_memory_sum_reduction);
	RUN(atomics_last_group_reduction);
	RUN(global_atomics);
	RUN(global_atomics_64);
	RUN(global_atomics_64_faults);
	RUN(endless_loop_is_hard_stopped);
	RUN(other_slots_run_beside_a_long_kernel);
	RUN(no_watchdog_only_the_driver_stops_a_job);
	RUN(shader_faults);
	RUN(cycle_model_counts);
	return check_summary();
}
