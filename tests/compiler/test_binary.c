/* SPDX-License-Identifier: MIT */
/*
 * The program binary: a synthetic program survives slb_write/slb_read
 * field for field; malformed files (hand-patched through <elf.h>, and
 * 10,000 random mutations) are rejected with a message and never crash.
 */
#include <elf.h>
#include <stdint.h>

#include "check.h"
#include "slb_binary.h"
#include "xorshift.h"

CHECK_MAIN_STATE("compiler_binary");

#define NUM_KERNELS 3
#define MAX_ARGS 3
/* Names longer than any fixed buffer would hold: OpenCL sets no limit. */
#define LONG_NAME 5000

/* The test's program owns its strings itself (never slb_program_free). */
static struct slb_kernel kernels[NUM_KERNELS];
static struct slb_arg args[NUM_KERNELS][MAX_ARGS];
static char kernel_names[NUM_KERNELS][LONG_NAME];
static char attributes[NUM_KERNELS][64];
static char arg_names[NUM_KERNELS][MAX_ARGS][LONG_NAME];
static char type_names[NUM_KERNELS][MAX_ARGS][LONG_NAME];
static char options[LONG_NAME], version[128];
static uint8_t code[448];
static uint8_t constants[40];

/* Kernel ki's name: s, or n copies of s's first letter and a digit. */
static void set_name(unsigned int ki, const char *s, size_t n)
{
	char *name = kernel_names[ki];

	if (n) {
		memset(name, s[0], n - 1);
		name[n - 1] = '0';
		name[n] = '\0';
	} else {
		snprintf(name, LONG_NAME, "%s", s);
	}
	kernels[ki].name = name;
}

static void fill_kernel(unsigned int ki, const char *name,
			uint32_t code_offset, uint32_t code_size,
			uint32_t work_regs, uint32_t nargs)
{
	struct slb_kernel *k = &kernels[ki];

	memset(k, 0, sizeof(*k));
	set_name(ki, name, 0);
	snprintf(attributes[ki], sizeof(attributes[ki]),
		 ki ? "vec_type_hint(uint%u)" : "", 1u << ki);
	k->attributes = attributes[ki];
	k->args = args[ki];
	k->code_offset = code_offset;
	k->code_size = code_size;
	k->first_tag = code[code_offset] & 0xF;
	k->work_regs = work_regs;
	k->threads_per_core = work_regs <= 4 ? 256 : work_regs <= 8 ? 128 : 64;
	k->max_wg_size = k->threads_per_core;
	k->uniform_bytes = 16 * (nargs + 2);
	k->push_vec4 = 2;
	k->needs_ubo = nargs > 1;
	k->barrier = work_regs > 4;
	k->private_bytes = 16 * work_regs;
	k->local_static_bytes = 128;
	k->num_args = nargs;
	for (uint32_t i = 0; i < nargs; i++) {
		struct slb_arg *a = &k->args[i];

		a->name = arg_names[ki][i];
		a->type_name = type_names[ki][i];
		snprintf(a->name, LONG_NAME, "arg%u", i);
		snprintf(a->type_name, LONG_NAME, i % 2 ? "float4*" : "uint");
		a->kind = i % 4;
		a->access = SLB_ACCESS_NONE;
		a->qualifiers = i % 2 ? SLB_QUAL_CONST : 0;
		a->offset = 16 * i;
		a->size = 4;
	}
	k->num_sysvals = 2;
	k->sysvals[0] = (struct slb_sysval_slot){ SLB_SYSVAL_GLOBAL_SIZE_X,
						  16 * nargs };
	k->sysvals[1] = (struct slb_sysval_slot){ SLB_SYSVAL_WORK_DIM,
						  16 * nargs + 4 };
	k->stats.alu_bundles = 3 + nargs;
	k->stats.ldst_bundles = 2;
	k->stats.unit_instrs[0] = 1;
	k->stats.unit_instrs[4] = 7;
	k->stats.ldst_instrs = 3;
	k->stats.branch_instrs = 1;
	k->stats.spills = work_regs;
	k->stats.shortest_cycles[0] = 4;
	k->stats.longest_cycles[1] = 9;
	k->stats.longest_unbounded = nargs == 3;
}

/* A printf table: two call sites over three strings. */
static char fmt0[] = "id %d: %v4hlf %s\n", fmt1[] = "%p %ld\n", lit[] = "ok";
static char *printf_strings[] = { fmt0, lit, fmt1 };
static struct slb_printf_call printf_calls[2] = {
	{ .format = 0, .record_bytes = 28, .num_args = 3,
	  .args = { { SLB_PRINTF_INT, 4, 1, 4 },
		    { SLB_PRINTF_FLOAT, 4, 4, 8 },
		    { SLB_PRINTF_STRING, 4, 1, 24 } } },
	{ .format = 2, .record_bytes = 16, .num_args = 2,
	  .args = { { SLB_PRINTF_POINTER, 4, 1, 4 },
		    { SLB_PRINTF_INT, 8, 1, 8 } } },
};

static void add_printf_table(struct slb_program *p)
{
	p->num_printf_strings = 3;
	p->printf_strings = printf_strings;
	p->num_printf_calls = 2;
	p->printf_calls = printf_calls;
}

static void make_program(struct slb_program *p)
{
	for (size_t i = 0; i < sizeof(code); i++)
		code[i] = (uint8_t)(i * 37 + 11);
	/* Bundle tags: ALU4 (8), load/store (5), ALU16 (0xB). */
	code[0] = 0x58;
	code[64] = 0x85;
	code[192] = 0x8B;
	for (size_t i = 0; i < sizeof(constants); i++)
		constants[i] = (uint8_t)(200 - i);
	fill_kernel(0, "vector_add", 0, 48, 3, 3);
	fill_kernel(1, "reduce", 64, 128, 7, 1);
	fill_kernel(2, "_k2", 192, 256, 16, 0);
	kernels[2].reqd_wg_size[0] = 8;
	kernels[2].reqd_wg_size[1] = 4;
	kernels[2].reqd_wg_size[2] = 2;
	memset(p, 0, sizeof(*p));
	snprintf(version, sizeof(version), "%s", slb_compiler_version());
	snprintf(options, sizeof(options), "-cl-std=CL1.2 -D N=4");
	p->compiler_version = version;
	p->build_options = options;
	p->num_kernels = NUM_KERNELS;
	p->kernels = kernels;
	p->code = code;
	p->code_size = sizeof(code);
	p->constant_data = constants;
	p->constant_size = sizeof(constants);
}

static bool arg_eq(const struct slb_arg *a, const struct slb_arg *b)
{
	return !strcmp(a->name, b->name) &&
	       !strcmp(a->type_name, b->type_name) &&
	       a->kind == b->kind && a->access == b->access &&
	       a->qualifiers == b->qualifiers && a->offset == b->offset &&
	       a->size == b->size;
}

static bool kernel_eq(const struct slb_kernel *a, const struct slb_kernel *b)
{
	if (strcmp(a->name, b->name) || strcmp(a->attributes, b->attributes) ||
	    a->num_args != b->num_args || a->num_sysvals != b->num_sysvals ||
	    a->num_const_samplers != b->num_const_samplers)
		return false;
	for (uint32_t i = 0; i < a->num_args; i++)
		if (!arg_eq(&a->args[i], &b->args[i]))
			return false;
	return a->code_offset == b->code_offset &&
	       a->code_size == b->code_size && a->first_tag == b->first_tag &&
	       a->work_regs == b->work_regs &&
	       a->threads_per_core == b->threads_per_core &&
	       a->max_wg_size == b->max_wg_size &&
	       !memcmp(a->reqd_wg_size, b->reqd_wg_size,
		       sizeof(a->reqd_wg_size)) &&
	       a->uniform_bytes == b->uniform_bytes &&
	       a->push_vec4 == b->push_vec4 && a->needs_ubo == b->needs_ubo &&
	       a->barrier == b->barrier &&
	       a->private_bytes == b->private_bytes &&
	       a->local_static_bytes == b->local_static_bytes &&
	       !memcmp(a->sysvals, b->sysvals,
		       a->num_sysvals * sizeof(a->sysvals[0])) &&
	       !memcmp(a->const_samplers, b->const_samplers,
		       a->num_const_samplers * sizeof(a->const_samplers[0])) &&
	       !memcmp(&a->stats, &b->stats, sizeof(a->stats));
}

/* Writes p, failing the test on error; caller frees *out. */
static bool write_ok(const struct slb_program *p, uint8_t **out, size_t *size)
{
	if (!slb_write(p, out, size)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "slb_write failed");
		return false;
	}
	return true;
}

/* Expects slb_read to reject the bytes with a message containing `want`. */
static void expect_reject(const uint8_t *data, size_t size, const char *want,
			  int line)
{
	struct slb_program q;
	char err[256];

	if (slb_read(data, size, &q, err, sizeof(err))) {
		CHECK_FAIL_AT(__FILE__, line, "accepted, expected '%s'", want);
		slb_program_free(&q);
		return;
	}
	if (!strstr(err, want))
		CHECK_FAIL_AT(__FILE__, line, "message '%s' lacks '%s'", err,
			      want);
}

TEST(round_trip)
{
	struct slb_program p, q;
	uint8_t *bin;
	size_t size;
	char err[256];
	Elf64_Ehdr eh;

	make_program(&p);
	if (!write_ok(&p, &bin, &size))
		return;
	memcpy(&eh, bin, sizeof(eh));
	CHECK(!memcmp(eh.e_ident, ELFMAG, SELFMAG));
	CHECK_EQ(eh.e_ident[EI_CLASS], ELFCLASS64);
	CHECK_EQ(eh.e_machine, EM_NONE);
	CHECK_EQ(eh.e_type, ET_REL);
	CHECK_EQ(eh.e_flags, 0x534C0003u);
	CHECK(slb_read(bin, size, &q, err, sizeof(err)));
	if (!q.kernels) {
		printf("  %s\n", err);
		free(bin);
		return;
	}
	CHECK(!strcmp(q.compiler_version, p.compiler_version));
	CHECK(!strcmp(q.build_options, p.build_options));
	CHECK_EQ(q.num_kernels, NUM_KERNELS);
	for (uint32_t i = 0; i < NUM_KERNELS && i < q.num_kernels; i++)
		CHECK(kernel_eq(&q.kernels[i], &kernels[i]));
	CHECK_EQ(q.code_size, sizeof(code));
	CHECK(!memcmp(q.code, code, sizeof(code)));
	CHECK_EQ(q.constant_size, sizeof(constants));
	CHECK(!memcmp(q.constant_data, constants, sizeof(constants)));
	CHECK(slb_find_kernel(&q, "reduce") == &q.kernels[1]);
	CHECK(slb_find_kernel(&q, "nope") == NULL);
	slb_program_free(&q);
	free(bin);
}

/*
 * Names, type names and options of thousands of characters (past every
 * fixed buffer the format once had: 256 for names, 1024 for options) come
 * back whole.
 */
TEST(long_strings)
{
	static const size_t lengths[] = { 255, 256, 300, 4000, LONG_NAME - 1 };
	struct slb_program p, q;
	uint8_t *bin;
	size_t size;
	char err[256];

	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		size_t n = lengths[i];

		make_program(&p);
		set_name(0, "k", n);
		set_name(1, "r", n - 1);
		memset(arg_names[0][2], 'a', n);
		arg_names[0][2][n] = '\0';
		memset(type_names[0][1], 't', n);
		memcpy(type_names[0][1] + n - 1, "*", 2);
		memset(options, ' ', n);
		memcpy(options + n - 4, "-DX", 4);
		if (!write_ok(&p, &bin, &size))
			return;
		CHECK(slb_read(bin, size, &q, err, sizeof(err)));
		free(bin);
		if (!q.kernels) {
			printf("  %zu: %s\n", n, err);
			continue;
		}
		CHECK_EQ(strlen(q.kernels[0].name), n);
		CHECK_EQ(strlen(q.kernels[1].name), n - 1);
		CHECK_EQ(strlen(q.kernels[0].args[2].name), n);
		CHECK_EQ(strlen(q.build_options), n - 1);
		for (uint32_t k = 0; k < NUM_KERNELS; k++)
			CHECK(kernel_eq(&q.kernels[k], &kernels[k]));
		CHECK(!strcmp(q.build_options, options));
		CHECK(slb_find_kernel(&q, kernel_names[0]) == &q.kernels[0]);
		slb_program_free(&q);
	}
}

TEST(deterministic_and_empty)
{
	struct slb_program p, q;
	uint8_t *a, *b;
	size_t sa, sb;
	char err[256];

	make_program(&p);
	if (!write_ok(&p, &a, &sa))
		return;
	if (write_ok(&p, &b, &sb)) {
		CHECK(sa == sb && !memcmp(a, b, sa));
		free(b);
	}
	free(a);
	/* A program without kernels or constants (only helpers) is valid. */
	p.num_kernels = 0;
	p.code_size = 0;
	p.constant_size = 0;
	if (!write_ok(&p, &a, &sa))
		return;
	CHECK(slb_read(a, sa, &q, err, sizeof(err)));
	CHECK_EQ(q.num_kernels, 0);
	slb_program_free(&q);
	free(a);
}

/* Section header i of an ELF64 file, located through its header. */
static Elf64_Shdr *shdr(uint8_t *bin, unsigned int i)
{
	Elf64_Ehdr eh;

	memcpy(&eh, bin, sizeof(eh));
	return (Elf64_Shdr *)(bin + eh.e_shoff + i * sizeof(Elf64_Shdr));
}

static unsigned int find_section(uint8_t *bin, const char *name)
{
	Elf64_Ehdr eh;
	const char *names;

	memcpy(&eh, bin, sizeof(eh));
	names = (const char *)bin + shdr(bin, eh.e_shstrndx)->sh_offset;
	for (unsigned int i = 1; i < eh.e_shnum; i++)
		if (!strcmp(names + shdr(bin, i)->sh_name, name))
			return i;
	return 0;
}

TEST(specific_rejections)
{
	struct slb_program p;
	uint8_t *bin, *copy;
	size_t size;
	unsigned int text, kern;

	make_program(&p);
	if (!write_ok(&p, &bin, &size))
		return;
	copy = malloc(size);
	REQUIRE(copy);

	expect_reject(bin, 10, "truncated", __LINE__);
	expect_reject(bin, size / 2, "outside the file", __LINE__);
	expect_reject(bin, size - 1, "outside the file", __LINE__);
	expect_reject(NULL, 0, "truncated", __LINE__);

	memcpy(copy, bin, size);
	copy[EI_DATA] = ELFDATA2MSB;
	expect_reject(copy, size, "little-endian", __LINE__);

	memcpy(copy, bin, size);
	((Elf64_Ehdr *)copy)->e_flags ^= 1;
	expect_reject(copy, size, "not a Sleipnir program binary", __LINE__);

	memcpy(copy, bin, size);
	text = find_section(copy, ".text");
	REQUIRE(text);
	shdr(copy, text)->sh_offset = size - 8;
	expect_reject(copy, size, "outside the file", __LINE__);

	memcpy(copy, bin, size);
	shdr(copy, text)->sh_size = (uint64_t)1 << 62;
	expect_reject(copy, size, "outside the file", __LINE__);

	memcpy(copy, bin, size);
	kern = find_section(copy, ".sleipnir.kernels");
	REQUIRE(kern);
	/* The first record's name word points past the string table. */
	memset(copy + shdr(copy, kern)->sh_offset + 16, 0xFF, 4);
	expect_reject(copy, size, "outside .strtab", __LINE__);

	memcpy(copy, bin, size);
	/* num_kernels huge */
	memset(copy + shdr(copy, kern)->sh_offset + 4, 0x7F, 4);
	expect_reject(copy, size, "kernels do not fit", __LINE__);
	free(copy);
	free(bin);

	/* Semantic errors through the writer. */
	make_program(&p);
	set_name(2, "reduce", 0);
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "duplicate kernel name reduce",
			      __LINE__);
		free(bin);
	}
	make_program(&p);
	kernels[1].code_size = 448;
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "outside .text", __LINE__);
		free(bin);
	}
	make_program(&p);
	kernels[1].code_offset = 80;
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "misaligned", __LINE__);
		free(bin);
	}
	make_program(&p);
	kernels[0].work_regs = 17;
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "17 work registers", __LINE__);
		free(bin);
	}
	make_program(&p);
	kernels[0].first_tag = 6;
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "first tag 6", __LINE__);
		free(bin);
	}
	make_program(&p);
	kernels[1].args[0].offset = kernels[1].uniform_bytes - 2;
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "outside the", __LINE__);
		free(bin);
	}
	make_program(&p);
	kernels[2].reqd_wg_size[2] = 3; /* 96 > 64 threads at 16 registers */
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "required work-group size", __LINE__);
		free(bin);
	}
	/* A group meeting at barriers must fit on a core at once; any
	 * other runs in turns, up to SLB_MAX_WG_SIZE. */
	make_program(&p);
	kernels[2].max_wg_size = 128; /* barrier, 64 threads at 16 regs */
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "max work-group size 128 (1 to 64)",
			      __LINE__);
		free(bin);
	}
	make_program(&p);
	kernels[2].barrier = false;
	kernels[2].max_wg_size = SLB_MAX_WG_SIZE + 1;
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "max work-group size 257 (1 to 256)",
			      __LINE__);
		free(bin);
	}
	make_program(&p);
	kernels[2].barrier = false;
	kernels[2].max_wg_size = SLB_MAX_WG_SIZE;
	if (write_ok(&p, &bin, &size)) {
		struct slb_program q;
		char err[256];

		CHECK(slb_read(bin, size, &q, err, sizeof(err)));
		CHECK_EQ(q.kernels[2].max_wg_size, SLB_MAX_WG_SIZE);
		slb_program_free(&q);
		free(bin);
	}
	/* A sampler_t argument is a kind of its own; past it, none. */
	make_program(&p);
	kernels[1].args[0].kind = SLB_ARG_SAMPLER;
	if (write_ok(&p, &bin, &size)) {
		struct slb_program q;
		char err[256];

		CHECK(slb_read(bin, size, &q, err, sizeof(err)));
		CHECK_EQ(q.kernels[1].args[0].kind, SLB_ARG_SAMPLER);
		slb_program_free(&q);
		free(bin);
	}
	make_program(&p);
	kernels[1].args[0].kind = SLB_ARG_IMAGE + 1;
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "bad kind", __LINE__);
		free(bin);
	}
	make_program(&p);
	kernels[0].sysvals[1].sysval = kernels[0].sysvals[0].sysval;
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "repeated", __LINE__);
		free(bin);
	}
	make_program(&p);
	set_name(0, "9lives", 0);
	if (write_ok(&p, &bin, &size)) {
		expect_reject(bin, size, "not an identifier", __LINE__);
		free(bin);
	}
}

/*
 * Image arguments (32 bytes of image words, 16-aligned, read_only or
 * write_only) and constant samplers (indices after the sampler arguments,
 * valid CLK values) round-trip; anything else is refused.
 */
TEST(images_and_samplers)
{
	struct slb_program p, q;
	struct slb_kernel *k = &kernels[1];
	uint8_t *bin;
	size_t size;
	char err[256];

	/* Kernel 1 has one argument at 0 and a 48-byte image. */
	make_program(&p);
	k->args[0].kind = SLB_ARG_IMAGE;
	k->args[0].access = SLB_ACCESS_WRITE_ONLY;
	k->args[0].size = SLB_IMAGE_ARG_BYTES;
	k->sysvals[0].offset = 32;
	k->sysvals[1].offset = 36;
	k->num_const_samplers = 2;
	k->const_samplers[0] = (struct slb_const_sampler){ 0, 0x12 };
	k->const_samplers[1] = (struct slb_const_sampler){ 1, 0x29 };
	REQUIRE(write_ok(&p, &bin, &size));
	REQUIRE(slb_read(bin, size, &q, err, sizeof(err)));
	CHECK(kernel_eq(&q.kernels[1], k));
	CHECK_EQ(q.kernels[1].args[0].kind, SLB_ARG_IMAGE);
	CHECK_EQ(q.kernels[1].const_samplers[1].value, 0x29);
	slb_program_free(&q);
	free(bin);

	k->args[0].access = SLB_ACCESS_READ_WRITE;
	REQUIRE(write_ok(&p, &bin, &size));
	expect_reject(bin, size, "an image takes 32", __LINE__);
	free(bin);
	k->args[0].access = SLB_ACCESS_READ_ONLY;
	k->args[0].size = 4;
	REQUIRE(write_ok(&p, &bin, &size));
	expect_reject(bin, size, "an image takes 32", __LINE__);
	free(bin);
	k->args[0].size = SLB_IMAGE_ARG_BYTES;
	k->args[0].offset = 4;
	k->uniform_bytes = 48;
	REQUIRE(write_ok(&p, &bin, &size));
	expect_reject(bin, size, "an image takes 32", __LINE__);
	free(bin);
	k->args[0].offset = 0;

	/* With a sampler argument the constant samplers start at 1. */
	k->args[0].kind = SLB_ARG_SAMPLER;
	k->args[0].size = 4;
	REQUIRE(write_ok(&p, &bin, &size));
	expect_reject(bin, size, "index 0 (not 1)", __LINE__);
	free(bin);
	k->const_samplers[0].index = 1;
	k->const_samplers[1].index = 2;
	REQUIRE(write_ok(&p, &bin, &size));
	REQUIRE(slb_read(bin, size, &q, err, sizeof(err)));
	CHECK(kernel_eq(&q.kernels[1], k));
	slb_program_free(&q);
	free(bin);
	/* No filter, two filters, addressing mode 10, unknown bits. */
	static const uint32_t bad[] = { 0x02, 0x30, 0x1A, 0x50 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(!slb_sampler_valid(bad[i]));
		k->const_samplers[1].value = bad[i];
		REQUIRE(write_ok(&p, &bin, &size));
		expect_reject(bin, size, "bad value", __LINE__);
		free(bin);
	}
	k->const_samplers[1].value = 0x29;
	k->num_const_samplers = SLB_MAX_CONST_SAMPLERS + 1;
	CHECK(!slb_write(&p, &bin, &size));
	k->num_const_samplers = 0;
}

/* The printf table round-trips; a program without printf has no section. */
TEST(printf_table)
{
	struct slb_program p, q;
	uint8_t *bin;
	size_t size;
	char err[256];

	make_program(&p);
	REQUIRE(write_ok(&p, &bin, &size));
	CHECK_EQ(find_section(bin, ".sleipnir.printf"), 0);
	REQUIRE(slb_read(bin, size, &q, err, sizeof(err)));
	CHECK_EQ(q.num_printf_calls, 0);
	CHECK_EQ(q.num_printf_strings, 0);
	slb_program_free(&q);
	free(bin);

	add_printf_table(&p);
	REQUIRE(write_ok(&p, &bin, &size));
	CHECK(find_section(bin, ".sleipnir.printf") != 0);
	CHECK(slb_read(bin, size, &q, err, sizeof(err)));
	if (!q.kernels) {
		printf("  %s\n", err);
		free(bin);
		return;
	}
	CHECK_EQ(q.num_printf_strings, 3);
	CHECK_EQ(q.num_printf_calls, 2);
	for (uint32_t i = 0; i < 3 && i < q.num_printf_strings; i++)
		CHECK(!strcmp(q.printf_strings[i], printf_strings[i]));
	for (uint32_t i = 0; i < 2 && i < q.num_printf_calls; i++) {
		const struct slb_printf_call *a = &q.printf_calls[i];
		const struct slb_printf_call *b = &printf_calls[i];

		CHECK_EQ(a->format, b->format);
		CHECK_EQ(a->record_bytes, b->record_bytes);
		CHECK_EQ(a->num_args, b->num_args);
		CHECK(!memcmp(a->args, b->args,
			      b->num_args * sizeof(b->args[0])));
	}
	/* The kernels are untouched by the extra section. */
	for (uint32_t i = 0; i < NUM_KERNELS && i < q.num_kernels; i++)
		CHECK(kernel_eq(&q.kernels[i], &kernels[i]));
	slb_program_free(&q);
	free(bin);
}

/* Each printf table field the reader checks, broken one at a time. */
TEST(printf_rejections)
{
	static const struct {
		unsigned int word;   /* in the section */
		uint32_t value;
		const char *want;
	} cases[] = {
		{ 0, 2, "unknown version" },
		{ 1, 100000, "do not fit" },      /* strings */
		{ 2, 3, "call 2" },               /* calls */
		{ 3, 2, "do not fit" },           /* text bytes */
		{ 4, 3, "bad format" },           /* call 0 format */
		{ 5, 30, "bad format" },          /* record bytes % 4 */
		{ 5, 8, "offset" },               /* record too short */
		{ 6, 65, "bad format" },          /* too many arguments */
		{ 7, 9, "argument 0" },           /* kind */
		{ 8, 3, "argument 0" },           /* lane bytes */
		{ 13, 5, "argument 1" },          /* lanes */
		{ 10, 6, "argument 0" },          /* unaligned offset */
		{ 10, 0, "argument 0" },          /* over the call index */
		{ 14, 16, "argument 1" },         /* float4 at 16: past 28 */
	};
	struct slb_program p;
	uint8_t *bin, *copy;
	size_t size;
	unsigned int sec;
	Elf64_Shdr *sh;

	make_program(&p);
	add_printf_table(&p);
	REQUIRE(write_ok(&p, &bin, &size));
	copy = malloc(size);
	REQUIRE(copy);
	sec = find_section(bin, ".sleipnir.printf");
	REQUIRE(sec);
	sh = shdr(bin, sec);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(copy, bin, size);
		memcpy(copy + sh->sh_offset + 4 * cases[i].word,
		       &cases[i].value, 4);
		expect_reject(copy, size, cases[i].want, __LINE__);
	}
	/* A last string without its NUL. */
	memcpy(copy, bin, size);
	copy[sh->sh_offset + sh->sh_size - 1] = 'x';
	copy[sh->sh_offset + sh->sh_size - 2] = 'x';
	copy[sh->sh_offset + sh->sh_size - 3] = 'x';
	copy[sh->sh_offset + sh->sh_size - 4] = 'x';
	expect_reject(copy, size, "string", __LINE__);
	free(copy);
	free(bin);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rng(void)
{
	return (uint32_t)(xorshift64(&rng_state) >> 16);
}

/* Mutations never crash the reader; every rejection comes with a message. */
static void mutate(const struct slb_program *p)
{
	static const uint32_t specials[] = { 0, 1, 0x7FFFFFFF, 0xFFFFFFFF,
					     0x80000000, 64, 0xFFFFFFF0 };
	struct slb_program q;
	uint8_t *bin, *m;
	size_t size;
	unsigned int rejected = 0, silent = 0;
	char err[256];

	if (!write_ok(p, &bin, &size))
		return;
	m = malloc(size);
	REQUIRE(m);
	for (int iter = 0; iter < 10000; iter++) {
		size_t len = size;
		unsigned int edits = 1 + rng() % 4;

		memcpy(m, bin, size);
		for (unsigned int e = 0; e < edits; e++) {
			size_t at = rng() % size;
			uint32_t v;

			switch (rng() % 4) {
			case 0:
				m[at] = (uint8_t)rng();
				break;
			case 1:
				m[at] ^= (uint8_t)(1u << (rng() % 8));
				break;
			case 2:
				v = specials[rng() % 7];
				at &= ~(size_t)3;
				if (at + 4 <= size)
					memcpy(m + at, &v, 4);
				break;
			default:
				len = rng() % size;
				break;
			}
		}
		err[0] = '\0';
		if (slb_read(m, len, &q, err, sizeof(err))) {
			slb_program_free(&q);
			continue;
		}
		rejected++;
		if (!err[0])
			silent++;
	}
	printf("  %u of 10000 mutants rejected\n", rejected);
	CHECK(rejected > 5000);
	CHECK_EQ(silent, 0);
	free(m);
	free(bin);
}

TEST(mutations)
{
	struct slb_program p;

	make_program(&p);
	mutate(&p);
	/* The printf table's section too (the last one). */
	add_printf_table(&p);
	mutate(&p);
}

int main(void)
{
	RUN(round_trip);
	RUN(long_strings);
	RUN(printf_table);
	RUN(printf_rejections);
	RUN(deterministic_and_empty);
	RUN(specific_rejections);
	RUN(images_and_samplers);
	RUN(mutations);
	return check_summary();
}
