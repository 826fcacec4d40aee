/* SPDX-License-Identifier: MIT */
/*
 * Fuzz test of the shader cores: random bytes as shader code, random valid
 * bundles chained into programs (with random branches), mutated copies of
 * a working kernel, and random renderer-state, local-storage and UBO
 * descriptors. The model runs on a worker thread, its shader cores on two
 * host threads, and a job still running after 20 ms is hard-stopped, as a
 * driver would. Checks that nothing
 * crashes (run under ASan/UBSan), that every job ends with an exception
 * code panfrost's table lists, and that no access strays outside the fake
 * RAM (its guard zones).
 *
 * Environment: SGPU_SHADER_FUZZ_CASES (default 2000), SGPU_SHADER_FUZZ_SEED
 * (default 1; the seed is printed).
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "compute_harness.h"
#include "isa_gen.h"

CHECK_MAIN_STATE("sgpu_shader_fuzz");

static struct fake_host fh;

/* A working kernel (buf[gid.x] = gid.x, the pointer in UBO 0) to mutate. */
static const char seed_kernel[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r1.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.imov.i32 r27.x, r0.xxxx\n"
	"	vadd.imov.i32 r26.xy, r1.xyzw\n"
	"loop:\n"
	"alu\n"
	"	sadd.iadd.i32 r2.x, r2.x, #1\n"
	"	smul.ilt.i32 r31.w, r2.x, #3\n"
	"	br.true loop\n"
	"ldst\n"
	"	st.32 r27.xxxx, [r26.xy + r27.x.u32 << 2]\n";

static uint8_t seed_code[256];
static long seed_size;
static unsigned int seed_tag;

static const uint64_t interesting_va[] = {
	0, CH_DATA_VA, CH_DATA_VA + 3, CH_TLS_VA, CH_WLS_VA,
	CH_VA_BASE + CH_VA_SIZE - 8, 0xFFFFFFFFFFFFull, 0x7000000000ull,
};

static uint64_t random_va(void)
{
	if (rn(4) == 0)
		return ((uint64_t)rnd() << 32 | rnd());
	return interesting_va[rn(sizeof(interesting_va) / 8)] + rn(64) * 16;
}

/* A random value for field @f, or its value with one bit flipped. */
static uint64_t scrambled(const uint8_t *desc, enum mdg_field_id f)
{
	unsigned int bits = mdg_field_info(f)->bits;
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
	uint64_t raw = rn(2) ? ((uint64_t)rnd() << 32 | rnd()) :
		       mdg_get(desc, f) ^ 1ull << rn(bits);

	/* Any raw bits the field holds, whatever its kind. */
	switch (mdg_field_info(f)->kind) {
	case MDG_FIELD_MINUS1:
		return (raw & mask) + 1;
	case MDG_FIELD_ADDRESS_SHR4:
		return (raw & mask) << 4;
	case MDG_FIELD_ADDRESS_SHR6:
		return (raw & mask) << 6;
	case MDG_FIELD_INT:
		return raw & mask & (mask >> 1);
	default:
		return raw & mask;
	}
}

/* Random fields on top of the descriptors ch_run() wrote. */
static void scramble_descriptors(struct fake_host *h, void *data)
{
	(void)data;
	if (rn(3) == 0) {
		/* One field of the renderer state's properties word. */
		uint8_t *rsd = ch_ptr(h, CH_RSD_VA);
		enum mdg_field_id f = MDG_RENDERER_STATE_UNIFORM_BUFFER_COUNT +
			rn(MDG_RENDERER_STATE_FP_MODE -
			   MDG_RENDERER_STATE_UNIFORM_BUFFER_COUNT + 1);

		mdg_set(rsd, f, scrambled(rsd, f));
	}
	if (rn(4) == 0) {
		uint8_t *ls = ch_ptr(h, CH_LS_VA);
		enum mdg_field_id f = MDG_LOCAL_STORAGE_TLS_SIZE +
			rn(MDG_LOCAL_STORAGE_WLS_BASE_POINTER -
			   MDG_LOCAL_STORAGE_TLS_SIZE + 1);

		mdg_set(ls, f, f >= MDG_LOCAL_STORAGE_TLS_BASE_POINTER &&
			rn(2) ? random_va() : scrambled(ls, f));
	}
	if (rn(4) == 0) {
		uint8_t *ubo = ch_ptr(h, CH_UBO_TABLE_VA +
				      MDG_UNIFORM_BUFFER_BYTES * rn(2));

		mdg_set(ubo, MDG_UNIFORM_BUFFER_ENTRIES, 1 + rn(4096));
		mdg_set(ubo, MDG_UNIFORM_BUFFER_POINTER,
			rn(2) ? scrambled(ubo, MDG_UNIFORM_BUFFER_POINTER) :
			random_va() & ~0xFull);
	}
	if (rn(8) == 0) {
		/* One of the draw descriptor's pointers. */
		uint8_t *draw = ch_ptr(h, CH_JOB_VA +
				       MDG_COMPUTE_JOB_DRAW_OFFSET);
		enum mdg_field_id f = MDG_DRAW_UNIFORM_BUFFERS +
			rn(MDG_DRAW_THREAD_STORAGE - MDG_DRAW_UNIFORM_BUFFERS +
			   1);

		mdg_set(draw, f, random_va());
	}
}

static size_t random_bytes(uint8_t *code, unsigned int *first_tag)
{
	size_t n = 16 * (1 + rn(16));

	for (size_t i = 0; i < n; i++)
		code[i] = (uint8_t)rnd();
	*first_tag = rn(16);
	return n;
}

/* Valid bundles, chained by their real tags; branches go anywhere. */
static size_t random_program(uint8_t *code, unsigned int *first_tag)
{
	struct mdg_bundle b[12];
	unsigned int n = 1 + rn(12);
	size_t at = 0;

	for (unsigned int i = 0; i < n; i++)
		gen_bundle(&b[i]);
	for (unsigned int i = 0; i < n; i++) {
		unsigned int size;

		if (rn(8))
			b[i].next_tag = i + 1 < n ? b[i + 1].tag : 1;
		size = mdg_encode_bundle(&b[i], code + at, 1024 - at, NULL, 0);
		if (!size)
			break;
		at += size;
	}
	*first_tag = at ? code[0] & 0xF : 8;
	return at ? at : 16;
}

static size_t mutated_seed(uint8_t *code, unsigned int *first_tag)
{
	memcpy(code, seed_code, (size_t)seed_size);
	for (unsigned int i = 1 + rn(4); i; i--)
		code[rn((unsigned int)seed_size)] ^= (uint8_t)(1u << rn(8));
	*first_tag = rn(8) ? seed_tag : rn(16);
	return (size_t)seed_size;
}

TEST(fuzz)
{
	unsigned long cases = 2000, seed = 1;
	const char *env_cases = getenv("SGPU_SHADER_FUZZ_CASES");
	const char *env_seed = getenv("SGPU_SHADER_FUZZ_SEED");
	uint8_t code[1024];
	char err[160];
	unsigned int kinds[3] = { 0 }, stopped = 0, done = 0;

	if (env_cases)
		cases = strtoul(env_cases, NULL, 0);
	if (env_seed)
		seed = strtoul(env_seed, NULL, 0);
	printf("  seed %lu\n", seed);
	gen_seed(seed);
	seed_size = mdg_assemble(seed_kernel, seed_code, sizeof(seed_code),
				 &seed_tag, err, sizeof(err));
	REQUIRE(seed_size > 0);
	REQUIRE(ch_setup_engine(&fh, SGPU_ENGINE_LOCKSTEP, 2));
	for (unsigned long c = 0; c < cases; c++) {
		unsigned int kind = rn(3), first_tag;
		struct ch_kernel k = {
			.code = code,
			.local_size = { 1 + rn(8), 1 + rn(4), 1 + rn(2) },
			.num_groups = { 1 + rn(12), 1 + rn(2), 1 },
			.ubo_count = 1 + rn(2),
			.ubo_va = { CH_DATA_VA, CH_DATA_VA + 0x100 },
			.ubo_size = { 16, 256 },
			.tls_bytes = rn(2) ? 16u << rn(4) : 0,
			.wls_bytes = rn(2) ? 64u << rn(4) : 0,
			.barrier = rn(2),
			.work_regs = rn(17),
			.before_submit = scramble_descriptors,
		};
		struct ch_result r;
		uint64_t out = CH_DATA_VA + 0x1000;

		memset(code, 0, sizeof(code));
		if (kind == 0)
			k.code_size = random_bytes(code, &first_tag);
		else if (kind == 1)
			k.code_size = random_program(code, &first_tag);
		else
			k.code_size = mutated_seed(code, &first_tag);
		k.first_tag = first_tag;
		kinds[kind]++;
		memcpy(ch_ptr(&fh, CH_DATA_VA), &out, 8);
		REQUIRE(ch_run_timeout(&fh, &k, &r, 20));
		stopped += r.hard_stopped;
		done += r.js_status == 1;
		if (!fh_exception_listed(r.js_status)) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "case %lu (kind %u): "
				      "JS_STATUS 0x%x is not a listed code",
				      c, kind, r.js_status);
			break;
		}
		/* A fresh GPU now and then, so faults do not pile up. */
		if (c % 500 == 499) {
			CHECK(fh_fini(&fh));
			REQUIRE(ch_setup_engine(&fh, SGPU_ENGINE_LOCKSTEP, 2));
		}
	}
	printf("  %lu cases: %u random bytes, %u random programs, %u "
	       "mutated; %u completed, %u hard-stopped\n", cases, kinds[0],
	       kinds[1], kinds[2], done, stopped);
	CHECK(done > 0);
	CHECK(fh_fini(&fh));
}

int main(void)
{
	RUN(fuzz);
	return check_summary();
}
