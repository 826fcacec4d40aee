/* SPDX-License-Identifier: MIT */
/*
 * The self-test firmware (firmware/midgard-selftest.bin) on the host: the
 * built file passes sleipnir.ko's checks and every damaged variant is
 * rejected with its reason; its code is its source assembled and survives
 * disassembly; the job the driver builds from it equals what the hardware
 * library's packers give; and that job, run on the GPU model, writes the
 * pattern computed here on the CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compute_harness.h"
#include "midgard_desc.h"
#include "midgard_isa.h"
#include "sleipnir_selftest_fw.h"

CHECK_MAIN_STATE("firmware-selftest");

/* What firmware/meson.build asks mkfw.py for. */
#define FW_SEED 0x600dcafeu
#define FW_MULTIPLIER 0x9e3779b1u
#define FW_GROUP_SIZE 64
#define FW_GROUP_COUNT 4
#define FW_WORK_REGS 3

/* The self-test memory's place in the harness's address space. */
#define ST_VA CH_VA_BASE

static uint8_t file[SLEIPNIR_FW_HEADER_BYTES + SLEIPNIR_SELFTEST_MAX_CODE];
static size_t file_size;
static struct fake_host fh;

static bool load(const char *path, uint8_t *buf, size_t cap, size_t *size)
{
	FILE *f = fopen(path, "rb");

	if (!f) {
		printf("  cannot open %s\n", path);
		return false;
	}
	*size = fread(buf, 1, cap, f);
	fclose(f);
	return *size > 0;
}

static bool load_file(void)
{
	return load(SELFTEST_FW, file, sizeof(file), &file_size);
}

static int parse(const uint8_t *data, size_t size,
		 struct sleipnir_selftest_fw *fw, char *why, size_t len)
{
	return sleipnir_selftest_fw_parse(data, size, fw, why, len);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

TEST(crc32_is_the_standard_one)
{
	/* The CRC-32 check value of "123456789" (zlib, IEEE 802.3). */
	CHECK_EQ(sleipnir_fw_crc32(0, (const uint8_t *)"123456789", 9),
		 0xcbf43926u);
	/* Continuing a CRC is the CRC of the concatenation. */
	CHECK_EQ(sleipnir_fw_crc32(sleipnir_fw_crc32(0,
			(const uint8_t *)"1234", 4), (const uint8_t *)"56789", 5),
		 0xcbf43926u);
}

TEST(built_file_passes_the_checks)
{
	struct sleipnir_selftest_fw fw;
	char why[160] = "";

	REQUIRE(load_file());
	CHECK_EQ(parse(file, file_size, &fw, why, sizeof(why)), 0);
	if (why[0])
		printf("  %s\n", why);
	CHECK_EQ(fw.version_major, 1);
	CHECK_EQ(fw.version_minor, 0);
	CHECK_EQ(fw.work_regs, FW_WORK_REGS);
	CHECK_EQ(fw.group_size, FW_GROUP_SIZE);
	CHECK_EQ(fw.group_count, FW_GROUP_COUNT);
	CHECK_EQ(fw.seed, FW_SEED);
	CHECK_EQ(fw.multiplier, FW_MULTIPLIER);
	CHECK_EQ(fw.code_size + SLEIPNIR_FW_HEADER_BYTES, file_size);
	CHECK_EQ(fw.first_tag, 5); /* a load/store bundle first */
}

TEST(code_is_its_source_assembled)
{
	static char src[16384];
	uint8_t code[SLEIPNIR_SELFTEST_MAX_CODE];
	struct sleipnir_selftest_fw fw;
	unsigned int tag = 0;
	char why[160], err[256];
	FILE *f = fopen(SELFTEST_SRC, "r");
	size_t n;
	long size;

	REQUIRE(f);
	n = fread(src, 1, sizeof(src) - 1, f);
	fclose(f);
	src[n] = 0;
	REQUIRE(load_file());
	REQUIRE(parse(file, file_size, &fw, why, sizeof(why)) == 0);
	size = mdg_assemble(src, code, sizeof(code), &tag, err, sizeof(err));
	if (size < 0)
		printf("  %s: %s\n", SELFTEST_SRC, err);
	REQUIRE(size > 0);
	CHECK_EQ(size, fw.code_size);
	CHECK_EQ(tag, fw.first_tag);
	CHECK(memcmp(code, fw.code, fw.code_size) == 0);
}

TEST(code_disassembles_and_reassembles)
{
	static char text[16384];
	uint8_t again[SLEIPNIR_SELFTEST_MAX_CODE];
	struct sleipnir_selftest_fw fw;
	unsigned int tag = 0;
	char why[160], err[256];
	long len, size;

	REQUIRE(load_file());
	REQUIRE(parse(file, file_size, &fw, why, sizeof(why)) == 0);
	len = mdg_disassemble(fw.code, fw.code_size, fw.first_tag, text,
			      sizeof(text), err, sizeof(err));
	if (len < 0)
		printf("  disassembler: %s\n", err);
	REQUIRE(len > 0);
	/* The shader's work: the multiply, the add and the store. */
	CHECK(strstr(text, "imul") != NULL);
	CHECK(strstr(text, "iadd") != NULL);
	CHECK(strstr(text, "st.32") != NULL);
	size = mdg_assemble(text, again, sizeof(again), &tag, err, sizeof(err));
	REQUIRE(size > 0);
	CHECK_EQ(size, fw.code_size);
	CHECK_EQ(tag, fw.first_tag);
	CHECK(memcmp(again, fw.code, fw.code_size) == 0);
}

/* The driver's job for a grid, against midgard_desc's packers. */
static void check_job_against_packers(const struct sleipnir_selftest_fw *fw)
{
	static uint8_t mem[SLEIPNIR_SELFTEST_BYTES];
	uint8_t job[MDG_COMPUTE_JOB_BYTES], rsd[MDG_RENDERER_STATE_BYTES];
	uint8_t ls[MDG_LOCAL_STORAGE_BYTES], ubo[MDG_UNIFORM_BUFFER_BYTES];
	const uint64_t va = 0x123456000ull;
	struct mdg_compute_job cj = {
		.index = 1,
		.local_size = { fw->group_size, 1, 1 },
		.num_groups = { fw->group_count, 1, 1 },
		.rsd = va + SLEIPNIR_SELFTEST_RSD,
		.thread_storage = va + SLEIPNIR_SELFTEST_LS,
		.uniform_buffers = va + SLEIPNIR_SELFTEST_UBO,
	};
	struct mdg_renderer_state rs = {
		.shader = va + SLEIPNIR_SELFTEST_CODE,
		.first_tag = fw->first_tag,
		.work_regs = fw->work_regs,
		.ubo_count = 1,
		.side_effects = true,
		.fp_mode = MDG_FP_MODE_CL,
	};
	struct mdg_local_storage none = { 0 };
	uint64_t out_va;
	uint32_t size[3], groups[3];

	memset(mem, 0x5a, sizeof(mem));
	sleipnir_selftest_build(mem, va, fw);
	REQUIRE(mdg_pack_compute_job(&cj, job));
	mdg_pack_renderer_state(&rs, rsd);
	mdg_pack_local_storage(&none, ls);
	mdg_pack_ubo(va + SLEIPNIR_SELFTEST_UNIFORMS, 16, ubo);
	CHECK(memcmp(mem + SLEIPNIR_SELFTEST_JOB, job, sizeof(job)) == 0);
	CHECK(memcmp(mem + SLEIPNIR_SELFTEST_RSD, rsd, sizeof(rsd)) == 0);
	CHECK(memcmp(mem + SLEIPNIR_SELFTEST_LS, ls, sizeof(ls)) == 0);
	CHECK(memcmp(mem + SLEIPNIR_SELFTEST_UBO, ubo, sizeof(ubo)) == 0);
	/* The invocation reads back as the grid. */
	CHECK(mdg_unpack_invocation(mem + MDG_COMPUTE_JOB_INVOCATION_OFFSET,
				    size, groups));
	CHECK_EQ(size[0], fw->group_size);
	CHECK_EQ(groups[0], fw->group_count);
	CHECK_EQ(size[1] * size[2] * groups[1] * groups[2], 1);
	/* UBO 0: the output's address, the seed, the multiplier. */
	memcpy(&out_va, mem + SLEIPNIR_SELFTEST_UNIFORMS, 8);
	CHECK_EQ(out_va, va + SLEIPNIR_SELFTEST_OUT);
	CHECK_EQ(sleipnir_fw_le32(mem + SLEIPNIR_SELFTEST_UNIFORMS + 8),
		 fw->seed);
	CHECK_EQ(sleipnir_fw_le32(mem + SLEIPNIR_SELFTEST_UNIFORMS + 12),
		 fw->multiplier);
	CHECK(memcmp(mem + SLEIPNIR_SELFTEST_CODE, fw->code,
		     fw->code_size) == 0);
}

static const uint32_t grids[][2] = {
	{ FW_GROUP_SIZE, FW_GROUP_COUNT }, { 1, 1 }, { 256, 16 },
	{ 100, 3 }, { 7, 585 }, { 1, 4096 }, { 33, 1 },
};

TEST(job_matches_the_packers)
{
	struct sleipnir_selftest_fw fw;
	char why[160];

	REQUIRE(load_file());
	REQUIRE(parse(file, file_size, &fw, why, sizeof(why)) == 0);
	for (size_t g = 0; g < sizeof(grids) / sizeof(grids[0]); g++) {
		fw.group_size = grids[g][0];
		fw.group_count = grids[g][1];
		check_job_against_packers(&fw);
	}
}

/*
 * Runs the driver's job on the model (hard-stopped after timeout_ms, 0:
 * never); returns what sleipnir_selftest_check() says. With reference, a
 * job that ended DONE also has every word checked against the pattern
 * computed here.
 */
static int run_on_model_for(const struct sleipnir_selftest_fw *fw,
			    uint32_t tamper_multiplier, uint32_t *js_status,
			    unsigned int timeout_ms, bool *hard_stopped,
			    bool reference)
{
	uint32_t threads = fw->group_size * fw->group_count, got, want;
	struct ch_result res;
	uint8_t *mem;
	int bad;

	if (!ch_setup(&fh))
		return -2;
	mem = ch_ptr(&fh, ST_VA);
	sleipnir_selftest_build(mem, ST_VA, fw);
	/* A GPU that computed with another multiplier, for the negative case. */
	if (tamper_multiplier)
		put32(mem + SLEIPNIR_SELFTEST_UNIFORMS + 12, tamper_multiplier);
	ch_run_chain(&fh, ST_VA + SLEIPNIR_SELFTEST_JOB, 0, &res, timeout_ms);
	*js_status = res.js_status;
	*hard_stopped = res.hard_stopped;
	bad = sleipnir_selftest_check(mem, fw, &got, &want);
	if (reference && res.js_status == 1) {
		const uint8_t *out = mem + SLEIPNIR_SELFTEST_OUT;

		for (uint32_t i = 0; i < threads; i++)
			CHECK_EQ(sleipnir_fw_le32(out + 4 * i),
				 (uint32_t)(i * fw->multiplier + fw->seed));
		if (threads < SLEIPNIR_SELFTEST_MAX_THREADS)
			CHECK_EQ(sleipnir_fw_le32(out + 4 * threads),
				 (uint32_t)~(threads * fw->multiplier +
					     fw->seed));
	}
	CHECK(fh_fini(&fh));
	return bad;
}

static int run_on_model(const struct sleipnir_selftest_fw *fw,
			uint32_t tamper_multiplier, uint32_t *js_status)
{
	bool stopped = false;
	int bad = run_on_model_for(fw, tamper_multiplier, js_status, 0,
				   &stopped, !tamper_multiplier);

	CHECK(!stopped);
	return bad;
}

TEST(model_runs_the_selftest)
{
	struct sleipnir_selftest_fw fw;
	uint32_t status = 0;
	char why[160];

	REQUIRE(load_file());
	REQUIRE(parse(file, file_size, &fw, why, sizeof(why)) == 0);
	CHECK_EQ(run_on_model(&fw, 0, &status), -1);
	CHECK_EQ(status, 1); /* DONE */
}

TEST(model_runs_other_grids_and_patterns)
{
	static const uint32_t patterns[][2] = {
		{ 0, 1 }, { 0xffffffffu, 0xffffffffu }, { 12345, 0x80000001u },
	};
	struct sleipnir_selftest_fw fw;
	uint32_t status = 0;
	char why[160];

	REQUIRE(load_file());
	REQUIRE(parse(file, file_size, &fw, why, sizeof(why)) == 0);
	for (size_t g = 1; g < 4; g++) {
		fw.group_size = grids[g][0];
		fw.group_count = grids[g][1];
		fw.seed = patterns[g - 1][0];
		fw.multiplier = patterns[g - 1][1];
		CHECK_EQ(run_on_model(&fw, 0, &status), -1);
		CHECK_EQ(status, 1);
	}
}

TEST(a_wrong_result_is_caught)
{
	struct sleipnir_selftest_fw fw;
	uint32_t status = 0;
	char why[160];

	REQUIRE(load_file());
	REQUIRE(parse(file, file_size, &fw, why, sizeof(why)) == 0);
	/* Word 0 is the seed whatever the multiplier; word 1 differs. */
	CHECK_EQ(run_on_model(&fw, fw.multiplier + 2, &status), 1);
	CHECK_EQ(status, 1);
}

/* A file built from tests/firmware/selftest-NAME.s, run on the model. */
static int run_bad_file(const char *path, uint32_t *status, bool *stopped)
{
	static uint8_t bad[sizeof(file)];
	struct sleipnir_selftest_fw fw;
	char why[160] = "";
	size_t size = 0;

	if (!load(path, bad, sizeof(bad), &size))
		return -3;
	/* They are well-formed files: only running them shows the fault. */
	if (parse(bad, size, &fw, why, sizeof(why))) {
		printf("  %s: %s\n", path, why);
		return -4;
	}
	return run_on_model_for(&fw, 0, status, 500, stopped, false);
}

TEST(failing_selftests_fail_on_the_model)
{
	uint32_t status = 0;
	bool stopped = false;

	/* The seed left out: word 0 is 0, not the seed. */
	CHECK_EQ(run_bad_file(SELFTEST_WRONG, &status, &stopped), 0);
	CHECK_EQ(status, 1);
	CHECK(!stopped);
	/* A store to address 0: a translation fault, nothing written. */
	CHECK_EQ(run_bad_file(SELFTEST_FAULT, &status, &stopped), 0);
	CHECK(status >= 0xc0 && status <= 0xc7);
	CHECK(!stopped);
	/* An endless loop: stopped by the timeout, nothing written. */
	CHECK_EQ(run_bad_file(SELFTEST_ENDLESS, &status, &stopped), 0);
	CHECK(stopped);
}

/* A damaged copy of the file: @edit changes it, then its CRC is fixed. */
struct damage {
	const char *what;
	size_t size;         /* 0: the file's */
	size_t at;           /* byte offset of the change */
	int width;           /* 1, 2 or 4 bytes of value; 0: none */
	uint32_t value;
	bool keep_crc;       /* leave the checksum as it was */
	const char *reason;  /* expected in the message, NULL: accepted */
};

static const struct damage damages[] = {
	{ "shorter than a header", 40, 0, 0, 0, true, "less than the 64-byte header" },
	{ "empty", 0xffff, 0, 0, 0, true, "file is 0 bytes" },
	{ "bad magic", 0, 0, 1, 'X', true, "bad magic" },
	{ "version 2", 0, 4, 2, 2, false, "format version 2.0" },
	{ "version 0", 0, 4, 2, 0, false, "format version 0.0" },
	{ "minor version 1.7", 0, 6, 2, 7, false, NULL },
	{ "header size 32", 0, 8, 4, 32, false, "header size 32" },
	{ "truncated", 1, 0, 0, 0, true, "truncated" },
	{ "size field too large", 0, 12, 4, 4096, false, "its header says 4096" },
	{ "a flipped code byte", 0, 0x45, 1, 0x77, true, "checksum" },
	{ "a flipped seed byte", 0, 0x2c, 1, 0x00, true, "checksum" },
	{ "kind 2", 0, 0x14, 4, 2, false, "not a self-test" },
	{ "reserved byte", 0, 0x3a, 1, 1, false, "reserved header byte 0x3a" },
	{ "code inside the header", 0, 0x18, 4, 16, false, "inside the header" },
	{ "code offset unaligned", 0, 0x18, 4, 72, false, "not 16-byte aligned" },
	{ "code size 0", 0, 0x1c, 4, 0, false, "code size 0" },
	{ "code size not 16-byte", 0, 0x1c, 4, 40, false, "code size 40" },
	{ "code size too large", 0, 0x1c, 4, 0x2000, false, "code size 8192" },
	{ "code past the end", 0, 0x1c, 4, 0x1000, false, "ends past the file" },
	{ "code offset past the end", 0, 0x18, 4, 0x10000, false, "ends past the file" },
	{ "first tag 0", 0, 0x40, 1, 0x50, false, "bundle tag 0" },
	{ "first tag 7", 0, 0x40, 1, 0x57, false, "bundle tag 7" },
	{ "no zero padding", 0, ~(size_t)0, 1, 0x01, false, "16 zero bytes" },
	{ "0 work registers", 0, 0x20, 4, 0, false, "0 work registers" },
	{ "17 work registers", 0, 0x20, 4, 17, false, "17 work registers" },
	{ "group size 0", 0, 0x24, 4, 0, false, "size 0" },
	{ "group size 257", 0, 0x24, 4, 257, false, "size 257" },
	{ "group count 0", 0, 0x28, 4, 0, false, "count 0" },
	{ "8192 threads", 0, 0x28, 4, 128, false, "8192 threads" },
	{ "4096 threads", 0, 0x28, 4, 64, false, NULL },
};

TEST(damaged_files_are_rejected)
{
	static uint8_t copy[sizeof(file) + 64];
	struct sleipnir_selftest_fw fw;

	REQUIRE(load_file());
	for (size_t d = 0; d < sizeof(damages) / sizeof(damages[0]); d++) {
		const struct damage *dm = &damages[d];
		size_t size = file_size, at = dm->at;
		char why[160] = "";
		int ret;

		memcpy(copy, file, file_size);
		if (dm->size == 0xffff)
			size = 0;
		else if (dm->size == 1)
			size = file_size - 16;
		else if (dm->size)
			size = dm->size;
		if (at == ~(size_t)0)
			at = file_size - 1;
		for (int i = 0; i < dm->width; i++)
			copy[at + i] = (uint8_t)(dm->value >> (8 * i));
		if (!dm->keep_crc)
			put32(copy + SLEIPNIR_FW_CRC_OFF,
			      sleipnir_fw_file_crc(copy, size));
		ret = parse(copy, size, &fw, why, sizeof(why));
		if (!dm->reason) {
			if (ret)
				printf("  %s: rejected: %s\n", dm->what, why);
			CHECK_EQ(ret, 0);
			continue;
		}
		if (ret != -EINVAL || !strstr(why, dm->reason)) {
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "%s: got %d \"%s\", expected -EINVAL \"...%s...\"",
				      dm->what, ret, why, dm->reason);
		}
	}
}

int main(void)
{
	RUN(crc32_is_the_standard_one);
	RUN(built_file_passes_the_checks);
	RUN(code_is_its_source_assembled);
	RUN(code_disassembles_and_reassembles);
	RUN(job_matches_the_packers);
	RUN(model_runs_the_selftest);
	RUN(model_runs_other_grids_and_patterns);
	RUN(a_wrong_result_is_caught);
	RUN(failing_selftests_fail_on_the_model);
	RUN(damaged_files_are_rejected);
	return check_summary();
}
