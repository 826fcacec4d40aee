/* SPDX-License-Identifier: MIT */
/*
 * The job descriptor description (midgard/midgard_desc.h): the packers
 * against the words Mesa's genxml packer gives for the same inputs
 * (docs/hardware.md §4.9, generated with Mesa's gen_pack.py for v5), field
 * get/set on every field, names, and the job-chain decoder on a chain in
 * a fake GPU memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "midgard_desc.h"

CHECK_MAIN_STATE("isa-desc");

static uint32_t word(const uint8_t *p, unsigned int i)
{
	return (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
	       (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
}

/* The words of @p against @want; 0 in @want past @n. */
static void check_words(const char *what, const uint8_t *p, unsigned int count,
			const uint32_t *want, unsigned int n)
{
	for (unsigned int i = 0; i < count; i++) {
		uint32_t w = i < n ? want[i] : 0;

		if (word(p, i) != w)
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s word %u: 0x%08x, "
				      "expected 0x%08x", what, i, word(p, i),
				      w);
	}
}

TEST(packers_match_mesa)
{
	uint8_t job[MDG_COMPUTE_JOB_BYTES];
	uint8_t rsd[MDG_RENDERER_STATE_BYTES], ls[MDG_LOCAL_STORAGE_BYTES];
	uint8_t wv[MDG_WRITE_VALUE_JOB_BYTES], ubo[MDG_UNIFORM_BUFFER_BYTES];
	uint8_t flush[MDG_CACHE_FLUSH_PAYLOAD_BYTES] = { 0 };
	struct mdg_compute_job cj = {
		.index = 1, .barrier = true,
		.local_size = { 8, 8, 1 }, .num_groups = { 4, 2, 1 },
		.rsd = 0x1000040, .thread_storage = 0x1000080,
		.uniform_buffers = 0x10000C0, .push_uniforms = 0x1000100,
	};
	struct mdg_renderer_state r = {
		.shader = 0x4000000, .first_tag = 8, .ubo_count = 1,
		.barrier = true, .side_effects = true, .work_regs = 5,
		.uniform_vec4 = 2,
	};
	struct mdg_local_storage l = {
		.tls_base = 0x2000000, .tls_bytes_per_thread = 64,
		.wls_base = 0x3000000, .wls_bytes_per_group = 256,
		.wls_instances = 8,
	};
	struct mdg_write_value_job w = {
		.index = 1, .target = 0x1000, .type = MDG_WRITE_VALUE_TYPE_ZERO,
	};
	static const uint32_t header[] = { 0, 0, 0, 0, 0x00010109 };
	static const uint32_t invocation[] = { 0x000001FF, 0x624818C3 };
	static const uint32_t params[] = { 0x24000000 };
	uint32_t draw[30] = { 0x7 };
	static const uint32_t rsd_words[] = { 0x04000008, 0, 0, 0, 0x00452801 };
	static const uint32_t ls_words[] = { 0x2, 0x903, 0x02000000, 0,
					     0x03000000 };
	static const uint32_t payload[] = { 0x1000, 0, 0x3 };
	static const uint32_t flush_words[] = { 0x1, 0x3 };
	static const uint32_t ubo_words[] = { 0x23456003, 0x00000001 };

	draw[6] = 0x010000C0;
	draw[12] = 0x01000100;
	draw[14] = 0x01000040;
	draw[28] = 0x01000080;
	CHECK(mdg_pack_compute_job(&cj, job));
	check_words("header", job, 8, header, 5);
	check_words("invocation", job + MDG_COMPUTE_JOB_INVOCATION_OFFSET, 2,
		    invocation, 2);
	check_words("parameters", job + MDG_COMPUTE_JOB_PARAMETERS_OFFSET, 6,
		    params, 1);
	check_words("draw", job + MDG_COMPUTE_JOB_DRAW_OFFSET, 30, draw, 30);
	mdg_pack_renderer_state(&r, rsd);
	check_words("renderer state", rsd, 16, rsd_words, 5);
	mdg_pack_local_storage(&l, ls);
	check_words("local storage", ls, 8, ls_words, 5);
	mdg_pack_write_value_job(&w, wv);
	check_words("write value payload",
		    wv + MDG_WRITE_VALUE_JOB_PAYLOAD_OFFSET, 3, payload, 3);
	CHECK_EQ(mdg_get(wv, MDG_JOB_HEADER_TYPE), MDG_JOB_TYPE_WRITE_VALUE);
	CHECK(mdg_set(flush, MDG_CACHE_FLUSH_PAYLOAD_CLEAN_SHADER_CORE_LS, 1));
	CHECK(mdg_set(flush, MDG_CACHE_FLUSH_PAYLOAD_L2_CLEAN, 1));
	CHECK(mdg_set(flush, MDG_CACHE_FLUSH_PAYLOAD_L2_INVALIDATE, 1));
	check_words("cache flush payload", flush, 2, flush_words, 2);
	mdg_pack_ubo(0x01234560, 64, ubo);
	check_words("uniform buffer", ubo, 2, ubo_words, 2);
	/* And read back through the description. */
	CHECK_EQ(mdg_get(ubo, MDG_UNIFORM_BUFFER_ENTRIES), 4);
	CHECK_EQ(mdg_get(ubo, MDG_UNIFORM_BUFFER_POINTER), 0x01234560);
	CHECK_EQ(mdg_get(rsd, MDG_RENDERER_STATE_SHADER), 0x4000000);
	CHECK_EQ(mdg_get(rsd, MDG_RENDERER_STATE_FIRST_TAG), 8);
	CHECK_EQ(mdg_get(job + MDG_COMPUTE_JOB_DRAW_OFFSET, MDG_DRAW_STATE),
		 0x1000040);
}

/* The value whose stored bits are @raw, as the field's kind reads it. */
static uint64_t value_of_raw(const struct mdg_field_info *fi, uint64_t raw)
{
	switch (fi->kind) {
	case MDG_FIELD_MINUS1:
		return raw + 1;
	case MDG_FIELD_ADDRESS_SHR4:
		return raw << 4;
	case MDG_FIELD_ADDRESS_SHR6:
		return raw << 6;
	case MDG_FIELD_INT:
		return fi->bits < 64 && raw >> (fi->bits - 1) ?
		       raw | ~0ull << fi->bits : raw;
	default:
		return raw;
	}
}

/* Every field takes its widest value and a pattern, gives them back, and
 * touches no other bit of its descriptor. */
TEST(every_field_round_trips)
{
	static const uint8_t zero[256];
	uint8_t ones[256];

	memset(ones, 0xFF, sizeof(ones));
	for (unsigned int f = 0; f < MDG_NUM_FIELDS; f++) {
		const struct mdg_field_info *fi = mdg_field_info(f);
		const char *desc = mdg_desc_info(fi->desc)->name;
		uint32_t size = mdg_desc_info(fi->desc)->bytes;
		uint64_t max = fi->bits == 64 ? ~0ull : (1ull << fi->bits) - 1;
		uint64_t raws[3] = { max, 0x5A5A5A5A5A5A5A5Aull & max, 1 };

		CHECK(size <= sizeof(ones));
		CHECK(fi->byte * 8u + fi->lsb + fi->bits <= size * 8u);
		for (int i = 0; i < 3; i++) {
			uint64_t v = value_of_raw(fi, raws[i]);
			uint8_t a[256] = { 0 }, b[256];

			memset(b, 0xFF, sizeof(b));
			if (!mdg_set(a, f, v) || !mdg_set(b, f, v)) {
				CHECK_FAIL_AT(__FILE__, __LINE__, "%s.%s: "
					      "0x%llx refused", desc, fi->name,
					      (unsigned long long)v);
				continue;
			}
			CHECK_EQ(mdg_get(a, f), v);
			CHECK_EQ(mdg_get(b, f), v);
			/* Storing the old bits again gives back the rest of
			 * the bytes untouched. */
			CHECK(mdg_set(a, f, value_of_raw(fi, 0)));
			CHECK(mdg_set(b, f, value_of_raw(fi, max)));
			if (memcmp(a, zero, size) || memcmp(b, ones, size))
				CHECK_FAIL_AT(__FILE__, __LINE__, "%s.%s: "
					      "other bits changed", desc,
					      fi->name);
		}
	}
}

TEST(set_refuses_what_does_not_fit)
{
	uint8_t d[64] = { 0 }, before[64] = { 0 };

	CHECK(!mdg_set(d, MDG_JOB_HEADER_INDEX, 0x10000));
	CHECK(!mdg_set(d, MDG_UNIFORM_BUFFER_ENTRIES, 0));
	CHECK(!mdg_set(d, MDG_UNIFORM_BUFFER_ENTRIES, 4097));
	CHECK(mdg_set(d, MDG_UNIFORM_BUFFER_ENTRIES, 4096));
	CHECK(!mdg_set(d, MDG_RENDERER_STATE_SHADER, 0x1008));
	CHECK(!mdg_set(d, MDG_SAMPLER_LOD_BIAS, 0x8000));
	CHECK(!mdg_set(d, MDG_SAMPLER_LOD_BIAS, (uint64_t)-0x8001));
	memset(d, 0, sizeof(d));
	CHECK(mdg_set(d, MDG_SAMPLER_LOD_BIAS, (uint64_t)-0x8000));
	CHECK_EQ((int64_t)mdg_get(d, MDG_SAMPLER_LOD_BIAS), -0x8000);
	CHECK_EQ(word(d, 0), 0x80000000u);
	memset(d, 0, sizeof(d));
	CHECK(!mdg_set(d, MDG_JOB_HEADER_TYPE, 0x80));
	CHECK(memcmp(d, before, sizeof(d)) == 0);
}

/* Unpacking gives back what was packed; shifts out of order or a size
 * of 2^32 are refused. */
TEST(invocation_round_trips)
{
	static const uint32_t sizes[][6] = {
		{ 1, 1, 1, 1, 1, 1 }, { 8, 8, 1, 4, 2, 1 },
		{ 256, 1, 1, 65535, 1, 1 }, { 3, 5, 7, 11, 13, 17 },
		{ 1, 1, 1, 1u << 31, 1, 1 },
	};
	uint8_t inv[MDG_INVOCATION_BYTES];

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t l[3], g[3];

		REQUIRE(mdg_pack_invocation(sizes[i], sizes[i] + 3, inv));
		CHECK(mdg_unpack_invocation(inv, l, g));
		for (int k = 0; k < 3; k++) {
			CHECK_EQ(l[k], sizes[i][k]);
			CHECK_EQ(g[k], sizes[i][3 + k]);
		}
	}
	memset(inv, 0, sizeof(inv));
	mdg_set(inv, MDG_INVOCATION_SIZE_Y_SHIFT, 31);
	CHECK(!mdg_unpack_invocation(inv, (uint32_t[3]){ 0 },
				     (uint32_t[3]){ 0 }));
	/* All 32 bits to local X, all set: 2^32 work-items. */
	memset(inv, 0, sizeof(inv));
	mdg_set(inv, MDG_INVOCATION_INVOCATIONS, 0xFFFFFFFF);
	for (unsigned int f = MDG_INVOCATION_SIZE_Y_SHIFT;
	     f <= MDG_INVOCATION_WORKGROUPS_Z_SHIFT; f++)
		mdg_set(inv, f, 32);
	CHECK(!mdg_unpack_invocation(inv, (uint32_t[3]){ 0 },
				     (uint32_t[3]){ 0 }));
}

TEST(names)
{
	CHECK(!strcmp(mdg_exception_name(0x01), "DONE"));
	CHECK(!strcmp(mdg_exception_name(0x40), "JOB_CONFIG_FAULT"));
	CHECK(!strcmp(mdg_exception_name(0xC2), "TRANSLATION_FAULT_2"));
	CHECK(!strcmp(mdg_exception_name(0xC4), "TRANSLATION_FAULT_4"));
	CHECK(!strcmp(mdg_exception_name(0xEF), "MEM_ATTR_NONCACHE_3"));
	CHECK(!mdg_exception_name(0x07));
	CHECK(!mdg_exception_name(0xC5));
	CHECK(!strcmp(mdg_enum_name(MDG_ENUM_JOB_TYPE, 4), "Compute"));
	CHECK(!mdg_enum_name(MDG_ENUM_JOB_TYPE, 10));
}

/* ---- The decoder on a fake GPU memory ---------------------------------- */

#define MEM_BASE 0x10000ull
#define MEM_SIZE 0x2000u

struct fake_gpu {
	uint8_t bytes[MEM_SIZE];
};

static bool fake_read(void *ctx, uint64_t va, void *dst, size_t size)
{
	struct fake_gpu *g = ctx;

	if (va < MEM_BASE || va - MEM_BASE > MEM_SIZE ||
	    size > MEM_SIZE - (va - MEM_BASE))
		return false;
	memcpy(dst, g->bytes + (va - MEM_BASE), size);
	return true;
}

struct lines {
	bool count_only;
	char *text;
	size_t len, cap;
	unsigned int count;
};

static void collect(void *ctx, const char *text)
{
	struct lines *l = ctx;
	size_t n = strlen(text);

	l->count++;
	if (l->count_only)
		return;
	if (l->len + n + 2 > l->cap) {
		l->cap = (l->len + n + 2) * 2;
		l->text = realloc(l->text, l->cap);
		if (!l->text)
			abort();
	}
	memcpy(l->text + l->len, text, n);
	l->len += n;
	l->text[l->len++] = '\n';
	l->text[l->len] = 0;
}

static bool has(const struct lines *l, const char *s)
{
	if (l->text && strstr(l->text, s))
		return true;
	CHECK_FAIL_AT(__FILE__, __LINE__, "decoder output lacks \"%s\"", s);
	return false;
}

TEST(decoder_prints_a_chain)
{
	static struct fake_gpu g;
	struct lines out = { 0 };
	struct mdg_printer p = { collect, &out };
	struct mdg_memory m = { fake_read, &g };
	uint64_t job = MEM_BASE + 0x40, wv = MEM_BASE;
	struct mdg_write_value_job w = {
		.index = 1, .next = job, .target = MEM_BASE + 0x1F00,
		.type = MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP,
	};
	struct mdg_compute_job cj = {
		.index = 2, .dep1 = 1, .barrier = true,
		.local_size = { 8, 8, 1 }, .num_groups = { 4, 2, 1 },
		.rsd = MEM_BASE + 0x100, .thread_storage = MEM_BASE + 0x140,
		.uniform_buffers = MEM_BASE + 0x180,
		.push_uniforms = MEM_BASE + 0x1C0,
	};
	struct mdg_renderer_state r = {
		.shader = MEM_BASE + 0x1000, .first_tag = 5, .ubo_count = 2,
		.work_regs = 3, .uniform_vec4 = 1, .fp_mode = MDG_FP_MODE_CL,
	};
	struct mdg_local_storage l = { 0 };

	memset(&g, 0, sizeof(g));
	mdg_pack_write_value_job(&w, g.bytes);
	CHECK(mdg_pack_compute_job(&cj, g.bytes + 0x40));
	mdg_pack_renderer_state(&r, g.bytes + 0x100);
	mdg_pack_local_storage(&l, g.bytes + 0x140);
	mdg_pack_ubo(MEM_BASE + 0x1E00, 32, g.bytes + 0x180);
	/* The second UBO's entry is garbage in a reserved place. */
	mdg_pack_ubo(MEM_BASE + 0x1E80, 16, g.bytes + 0x188);
	g.bytes[0x1C0] = 0x2A;
	/* A bit no field describes, in the RSD's properties word's gap. */
	g.bytes[0x100 + 0x10 + 3] |= 0x08;

	CHECK_EQ(mdg_decode_jobs(&p, &m, wv), 2);
	has(&out, "Write value job @ 0x10000, index 1:");
	has(&out, "Type: System Timestamp (2)");
	has(&out, "Compute job @ 0x10040, index 2:");
	has(&out, "    Type: Compute (4)");
	has(&out, "    Dependency 1: 1");
	has(&out, "work-group size 8x8x1, count 4x2x1");
	has(&out, "Renderer State @ 0x10100:");
	has(&out, "Shader: 0x11000");
	has(&out, "FP mode: CL (2)");
	has(&out, "unknown bits at +0x10: 0x08000000");
	has(&out, "WLS Instances: 31");
	has(&out, "Uniform Buffer 1 @ 0x10188:");
	has(&out, "Pointer: 0x11e80");
	has(&out, "Push uniform 0 (r23): 0x0000002a 0x00000000");
	free(out.text);

	/* A pointer outside memory is said, not followed. */
	memset(&out, 0, sizeof(out));
	mdg_set(g.bytes + 0x40 + MDG_COMPUTE_JOB_DRAW_OFFSET, MDG_DRAW_STATE,
		0x900000);
	CHECK_EQ(mdg_decode_jobs(&p, &m, job), 1);
	has(&out, "Renderer State @ 0x900000: cannot be read");
	free(out.text);
	memset(&out, 0, sizeof(out));
	CHECK_EQ(mdg_decode_jobs(&p, &m, 0x900000), 0);
	has(&out, "Job @ 0x900000: cannot be read");
	free(out.text);
}

/* A chain whose last job points back at the first ends, and says so. */
TEST(decoder_stops_a_loop)
{
	static struct fake_gpu g;
	struct lines out = { .count_only = true };
	struct mdg_printer p = { collect, &out };
	struct mdg_memory m = { fake_read, &g };

	memset(&g, 0, sizeof(g));
	mdg_set(g.bytes, MDG_JOB_HEADER_IS_64B, 1);
	mdg_set(g.bytes, MDG_JOB_HEADER_TYPE, MDG_JOB_TYPE_NULL);
	mdg_set(g.bytes, MDG_JOB_HEADER_INDEX, 1);
	mdg_set(g.bytes, MDG_JOB_HEADER_NEXT, MEM_BASE);
	CHECK_EQ(mdg_decode_jobs(&p, &m, MEM_BASE), 65536);
	CHECK(out.count > 65536);
}

int main(void)
{
	RUN(packers_match_mesa);
	RUN(every_field_round_trips);
	RUN(set_refuses_what_does_not_fit);
	RUN(invocation_round_trips);
	RUN(names);
	RUN(decoder_prints_a_chain);
	RUN(decoder_stops_a_loop);
	return check_summary();
}
