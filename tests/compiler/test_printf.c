/* SPDX-License-Identifier: MIT */
/*
 * printf (OpenCL 1.2 6.12.13) end to end: kernels compiled by
 * slc_compile_source(), run on the model core through the launch library
 * (corpus_runner.c) with a printf buffer, and their records formatted by
 * the runtime's formatter (userspace/icd/icd_printf.c).
 *
 * Scalar conversions are checked against the host C library's snprintf of
 * the same format and the same values (OpenCL C's scalar conversions are
 * C99's; on this device without double a float argument prints as the
 * float's value, which is what C's promotion to double prints too). The
 * vector specifier has no C counterpart: its expected text is written out
 * from 6.12.13.2 (each element by the conversion, separated by commas).
 * Also: several work-items and work-groups (each record once, whatever
 * the order), a full buffer (the calls that do not fit return -1, those
 * that do 0, and nothing is written past the buffer), %s literals and %p.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_runner.h"
#include "icd_printf.h"

CHECK_MAIN_STATE("compiler_printf");

static struct cr_session session;

/* Bytes after a buffer's record area that must stay untouched. */
#define CANARY_BYTES 64u
#define CANARY 0xA5u

struct pbuf {
	uint8_t *cpu;
	uint32_t va;
	uint32_t area;
};

/* A printf buffer with area_bytes of records, followed by a canary. */
static bool new_buffer(struct pbuf *b, uint32_t area_bytes)
{
	b->area = area_bytes;
	b->cpu = cr_alloc(&session, ICD_PRINTF_HEADER_BYTES + area_bytes +
			  CANARY_BYTES, &b->va);
	if (!b->cpu)
		return false;
	icd_printf_init(b->cpu, area_bytes);
	memset(b->cpu + ICD_PRINTF_HEADER_BYTES + area_bytes, CANARY,
	       CANARY_BYTES);
	session.printf_va = b->va;
	return true;
}

static bool canary_intact(const struct pbuf *b)
{
	for (uint32_t i = 0; i < CANARY_BYTES; i++)
		if (b->cpu[ICD_PRINTF_HEADER_BYTES + b->area + i] != CANARY)
			return false;
	return true;
}

/* The formatter's text for the buffer (malloc'ed), and the record count. */
static char *format_buffer(const struct slb_program *prog,
			   const struct pbuf *b, unsigned int *records)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	*records = icd_printf_write(prog, b->cpu,
				    ICD_PRINTF_HEADER_BYTES + b->area, f);
	fclose(f);
	return text;
}

static void check_text(const char *got, const char *want)
{
	if (!got || strcmp(got, want)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "printf output differs");
		printf("  got:\n%s\n  want:\n%s\n", got ? got : "(null)",
		       want);
	}
}

/*
 * Scalar cases: each is one printf in the kernel and the same snprintf on
 * the host, over variables of the same names and values.
 */
#define SCALAR_CASES(X)                                                        \
	X("d i: %d %i %5d|%-5d|%+d|% d|%05d|%.4d|%d\n", i, i, i, i, i, i, i,  \
	  i, n)                                                                \
	X("o u x X: %o %u %x %X %#o %#x %#X %08x %-8X|\n", u, u, u, u, u, u,  \
	  u, u, u)                                                             \
	X("hh h: %hhd %hhu %hd %hu %hhx %hX %hhi %#ho\n", i, i, n, n, i, n, \
	  c, s)                                                                \
	X("l: %ld %li %lu %lx %lX %lo %+ld %20lu|\n", l, l, ul, ul, ul, ul,  \
	  l, ul)                                                               \
	X("f: %f %F %.2f %10.3f|%-10.1f|%+f % f %010.2f %.0f %#.0f\n", f, f, \
	  f, f, f, f, f, g, f, f)                                              \
	X("e g a: %e %E %.3e %g %G %.10g %#g %a %A %.2a\n", f, f, g, f, tiny, \
	  f, g, f, g, f)                                                       \
	X("special: %f %F %e %g %a %f %f %g\n", inf, inf, ninf, qnan, inf,    \
	  nzero, big, tiny)                                                    \
	X("c s: %c|%3c|%-3c|%s|%10s|%-10s|%.3s|%s\n", ch, ch, ch, "lit", "lit", \
	  "lit", "literal", "")                                                \
	X("%%|%d%%\n", i)

#define KERNEL_CASE(fmt, ...) "\tr |= printf(" #fmt ", " #__VA_ARGS__ ");\n"
#define HOST_CASE(fmt, ...)                                                    \
	n_ += snprintf(want + n_, sizeof(want) - n_, fmt, __VA_ARGS__);

static const char scalar_source[] =
	"kernel void scalars(global int *ret, int i, uint u, int n, long l,\n"
	"                    ulong ul, float f, float g, float tiny,\n"
	"                    float inf, float ninf, float qnan, float nzero,\n"
	"                    float big, char c, short s, char ch)\n"
	"{\n"
	"\tint r = 0;\n"
	SCALAR_CASES(KERNEL_CASE)
	"\tr |= printf(\"no arguments\\n\");\n"
	"\tret[0] = r;\n"
	"}\n";

static void run_scalars(const char *options)
{
	int32_t i = -42, n = 70000;
	uint32_t u = 3000000000u;
	int64_t l = -1234567890123ll;
	uint64_t ul = 0xFEDCBA9876543210ull;
	float f = 3.14159274f, g = -0.00152587890625f, tiny = 1.5e-39f;
	float inf = 1.0f / 0.0f, ninf = -1.0f / 0.0f, qnan = 0.0f / 0.0f;
	float nzero = -0.0f, big = 3.4e38f;
	int8_t c = -100, ch = 'Q';
	int16_t s = -300;
	struct slb_program prog;
	struct pbuf b;
	uint32_t ret_va;
	int32_t *ret;
	unsigned int records;
	char want[4096], *got;
	size_t n_ = 0;
	char *log = NULL;

	if (!cr_compile(scalar_source, options, &prog, &log)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "scalars do not build: %s",
			      log ? log : "");
		free(log);
		return;
	}
	free(log);
	cr_reset(&session);
	ret = cr_alloc(&session, 4, &ret_va);
	REQUIRE(ret && new_buffer(&b, ICD_PRINTF_BUFFER_SIZE));
	ret[0] = 12345;
	{
		struct cr_arg args[] = {
			CR_BUF(ret_va), CR_VAL(&i), CR_VAL(&u), CR_VAL(&n),
			CR_VAL(&l), CR_VAL(&ul), CR_VAL(&f), CR_VAL(&g),
			CR_VAL(&tiny), CR_VAL(&inf), CR_VAL(&ninf),
			CR_VAL(&qnan), CR_VAL(&nzero), CR_VAL(&big),
			CR_VAL(&c), CR_VAL(&s), CR_VAL(&ch),
		};
		struct cr_ndrange nd = CR_1D(1, 1);

		CHECK(cr_launch(&session, &prog, "scalars", args,
				sizeof(args) / sizeof(args[0]), &nd));
	}
	/* 6.12.13.2: 0 when executed successfully. */
	CHECK_EQ(ret[0], 0);
	want[0] = 0;
	SCALAR_CASES(HOST_CASE)
	n_ += snprintf(want + n_, sizeof(want) - n_, "no arguments\n");
	got = format_buffer(&prog, &b, &records);
	CHECK_EQ(records, 10);
	check_text(got, want);
	CHECK(canary_intact(&b));
	free(got);
	slb_program_free(&prog);
}

TEST(scalars)
{
	run_scalars(NULL);
}

/* clang's unoptimised code: the arguments come through allocas. */
TEST(scalars_opt_disable)
{
	run_scalars("-cl-opt-disable");
}

/* Doubles (cl_khr_fp64, here by -sleipnir-fp64): 8-byte lanes that keep
 * their 53 bits through the record to the formatter. */
static const char double_source[] =
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"kernel void doubles(global int *ret, double d, double e)\n"
	"{\n"
	"\tret[0] = printf(\"%.17g %a %e|%d|%.3f\\n\", d, d, e, 7, e);\n"
	"}\n";

TEST(doubles)
{
	double d = 1.0 / 3.0, e = -0x1.23456789abcdep-1030;
	struct slb_program prog;
	struct pbuf b;
	uint32_t ret_va;
	int32_t *ret;
	unsigned int records;
	char want[256], *got, *log = NULL;

	if (!cr_compile(double_source, "-sleipnir-fp64", &prog, &log)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "doubles do not build: %s",
			      log ? log : "");
		free(log);
		return;
	}
	free(log);
	cr_reset(&session);
	ret = cr_alloc(&session, 4, &ret_va);
	REQUIRE(ret && new_buffer(&b, ICD_PRINTF_BUFFER_SIZE));
	ret[0] = 12345;
	{
		struct cr_arg args[] = { CR_BUF(ret_va), CR_VAL(&d),
					 CR_VAL(&e) };
		struct cr_ndrange nd = CR_1D(1, 1);

		CHECK(cr_launch(&session, &prog, "doubles", args, 3, &nd));
	}
	CHECK_EQ(ret[0], 0);
	snprintf(want, sizeof(want), "%.17g %a %e|%d|%.3f\n", d, d, e, 7, e);
	got = format_buffer(&prog, &b, &records);
	CHECK_EQ(records, 1);
	check_text(got, want);
	CHECK(canary_intact(&b));
	free(got);
	slb_program_free(&prog);
}

static const char vector_source[] =
	"kernel void vectors(global int *ret, float4 f4, uchar4 uc4,\n"
	"                    int2 i2, short3 s3, uchar8 u8, char16 c16,\n"
	"                    long2 l2, float2 f2, uint4 ui4, ushort2 us2)\n"
	"{\n"
	"\tint r = 0;\n"
	"\tr |= printf(\"f4 = %v4hlf\\n\", f4);\n"
	"\tr |= printf(\"f4 = %2.2v4hlf|%-7.1v4hle|\\n\", f4, f4);\n"
	"\tr |= printf(\"uc4 = %#v4hhx\\n\", uc4);\n"
	"\tr |= printf(\"i2 = %v2hld %v2d\\n\", i2, i2);\n"
	"\tr |= printf(\"s3 = %v3hd %+v3hd\\n\", s3, s3);\n"
	"\tr |= printf(\"u8 = %v8hhu\\n\", u8);\n"
	"\tr |= printf(\"c16 = %v16hhd\\n\", c16);\n"
	"\tr |= printf(\"l2 = %v2ld %#v2lx\\n\", l2, l2);\n"
	"\tr |= printf(\"f2 = %v2hlg %v2hla\\n\", f2, f2);\n"
	"\tr |= printf(\"ui4 = %v4hlu %08v4hlX\\n\", ui4, ui4);\n"
	"\tr |= printf(\"us2 = %v2hu %v2ho %s\\n\", us2, us2, \"end\");\n"
	"\tret[0] = r;\n"
	"}\n";

static void run_vectors(const char *options)
{
	float f4[4] = { 1.5f, -2.25f, 0.0f, 100.0f };
	uint8_t uc4[4] = { 0xFA, 0xFB, 0xFC, 0xFD };
	int32_t i2[2] = { -7, 2147483647 };
	int16_t s3[4] = { 1, -2, 32767, 0 };
	uint8_t u8[8] = { 0, 1, 2, 127, 128, 200, 254, 255 };
	int8_t c16[16] = { 0, -1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11, 12,
			   -13, 127, -128 };
	int64_t l2[2] = { -5000000000ll, 0x123456789ABCll };
	float f2[2] = { 0.5f, 1e10f };
	uint32_t ui4[4] = { 0, 1, 0xDEADBEEFu, 4294967295u };
	uint16_t us2[2] = { 65535, 8 };
	struct slb_program prog;
	struct pbuf b;
	uint32_t ret_va;
	int32_t *ret;
	unsigned int records;
	char *got, *log = NULL;
	/* 6.12.13.2: the elements by the conversion, separated by commas. */
	static const char want[] =
		"f4 = 1.500000,-2.250000,0.000000,100.000000\n"
		"f4 = 1.50,-2.25,0.00,100.00|1.5e+00,-2.2e+00,0.0e+00,1.0e+02|\n"
		"uc4 = 0xfa,0xfb,0xfc,0xfd\n"
		"i2 = -7,2147483647 -7,2147483647\n"
		"s3 = 1,-2,32767 +1,-2,+32767\n"
		"u8 = 0,1,2,127,128,200,254,255\n"
		"c16 = 0,-1,2,-3,4,-5,6,-7,8,-9,10,-11,12,-13,127,-128\n"
		"l2 = -5000000000,20015998343868 0xfffffffed5fa0e00,"
		"0x123456789abc\n"
		"f2 = 0.5,1e+10 0x1p-1,0x1.2a05f2p+33\n"
		"ui4 = 0,1,3735928559,4294967295 00000000,00000001,DEADBEEF,"
		"FFFFFFFF\n"
		"us2 = 65535,8 177777,10 end\n";

	REQUIRE(cr_compile(vector_source, options, &prog, &log));
	free(log);
	cr_reset(&session);
	ret = cr_alloc(&session, 4, &ret_va);
	REQUIRE(ret && new_buffer(&b, ICD_PRINTF_BUFFER_SIZE));
	ret[0] = 12345;
	{
		struct cr_arg args[] = {
			CR_BUF(ret_va), CR_VAL(&f4), CR_VAL(&uc4),
			CR_VAL(&i2), CR_VAL(&s3), CR_VAL(&u8), CR_VAL(&c16),
			CR_VAL(&l2), CR_VAL(&f2), CR_VAL(&ui4), CR_VAL(&us2),
		};
		struct cr_ndrange nd = CR_1D(1, 1);

		CHECK(cr_launch(&session, &prog, "vectors", args,
				sizeof(args) / sizeof(args[0]), &nd));
	}
	CHECK_EQ(ret[0], 0);
	got = format_buffer(&prog, &b, &records);
	CHECK_EQ(records, 11);
	check_text(got, want);
	CHECK(canary_intact(&b));
	free(got);
	slb_program_free(&prog);
}

TEST(vectors)
{
	run_vectors(NULL);
	run_vectors("-cl-opt-disable");
}

#define ITEMS 64u
#define GROUP 16u

static const char items_source[] =
	"kernel void items(global int *ret, global int *p)\n"
	"{\n"
	"\tint id = get_global_id(0);\n"
	"\tret[id] = printf(\"item %d of group %d %p\\n\", id,\n"
	"\t\t\t (int)get_group_id(0), p);\n"
	"}\n";

/* Records of several work-groups: each once, whole, in some order. */
static void run_items(uint32_t area, unsigned int fit, uint32_t reserved)
{
	struct slb_program prog;
	struct pbuf b;
	uint32_t ret_va, p_va;
	int32_t *ret;
	unsigned int records, ok = 0, full = 0;
	bool seen[ITEMS] = { false };
	char *got, *line, *log = NULL, ptr[32];

	REQUIRE(cr_compile(items_source, NULL, &prog, &log));
	free(log);
	cr_reset(&session);
	ret = cr_alloc(&session, 4 * ITEMS, &ret_va);
	REQUIRE(ret && cr_alloc(&session, 4, &p_va));
	REQUIRE(new_buffer(&b, area));
	/* As if earlier calls had reserved that much already, the first one
	 * past the area at offset 0. */
	memcpy(b.cpu, &reserved, 4);
	if (reserved > area)
		memset(b.cpu + 8, 0, 4);
	{
		struct cr_arg args[] = { CR_BUF(ret_va), CR_BUF(p_va) };
		struct cr_ndrange nd = CR_1D(ITEMS, GROUP);

		CHECK(cr_launch(&session, &prog, "items", args, 2, &nd));
	}
	/* The record: call index, id, group, pointer: 16 bytes each. */
	REQUIRE(prog.num_printf_calls == 1);
	CHECK_EQ(prog.printf_calls[0].record_bytes, 16);
	/* What fitted was reserved; past the area, at most a record per
	 * work-item in flight (all of them, at most) was added. Calls that
	 * find the area full add nothing: the offset cannot wrap. */
	if (reserved > area) {
		CHECK_EQ(*(uint32_t *)b.cpu, reserved);
	} else {
		CHECK(*(uint32_t *)b.cpu >= 16 * fit &&
		      *(uint32_t *)b.cpu <= 16 * ITEMS);
		if (area < 16)
			CHECK_EQ(*(uint32_t *)b.cpu, 0);
		else if (fit < ITEMS)
			CHECK(*(uint32_t *)b.cpu + 16 > area);
	}
	for (unsigned int i = 0; i < ITEMS; i++) {
		ok += ret[i] == 0;
		full += ret[i] == -1;
	}
	CHECK_EQ(ok, fit);
	CHECK_EQ(full, ITEMS - fit);
	CHECK(canary_intact(&b));
	got = format_buffer(&prog, &b, &records);
	REQUIRE(got);
	CHECK_EQ(records, fit);
	snprintf(ptr, sizeof(ptr), "%p", (void *)(uintptr_t)p_va);
	for (line = strtok(got, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned int id, group;
		char tail[32];

		if (sscanf(line, "item %u of group %u %31s", &id, &group,
			   tail) != 3 || id >= ITEMS || seen[id] ||
		    group != id / GROUP || strcmp(tail, ptr) ||
		    ret[id] != 0) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "bad line '%s'",
				      line);
			break;
		}
		seen[id] = true;
	}
	free(got);
	slb_program_free(&prog);
}

TEST(work_items)
{
	run_items(ICD_PRINTF_BUFFER_SIZE, ITEMS, 0);
}

/* 6.12.13.2: -1 when printf did not execute (here: no room left). */
TEST(full_buffer)
{
	/* Room for 12 records and 4 bytes more: a 13th would not fit. */
	run_items(12 * 16 + 4, 12, 0);
}

TEST(empty_buffer)
{
	run_items(0, 0, 0);
}

/* An offset already near 2^32 (full long ago) stays as it is. */
TEST(full_offset_stays)
{
	run_items(ICD_PRINTF_BUFFER_SIZE, 0, 0xFFFFFFF8u);
}

/*
 * printf in a helper called in a loop: one call site printing once per
 * iteration, in order; %s of a literal passed down as an argument and of a
 * program-scope __constant string, both known after inlining.
 */
static const char helper_source[] =
	"constant char msg[] = \"const\";\n"
	"void say(int i, constant char *s)\n"
	"{\n"
	"\tprintf(\"say %d %s %s\\n\", i, s, msg);\n"
	"}\n"
	"kernel void loop(int n)\n"
	"{\n"
	"\tfor (int i = 0; i < n; i++)\n"
	"\t\tsay(i, i & 1 ? \"odd\" : \"even\");\n"
	"}\n";

static void run_helper(const char *options)
{
	struct slb_program prog;
	struct pbuf b;
	int32_t n = 5;
	unsigned int records;
	char *got, *log = NULL;

	if (!cr_compile(helper_source, options, &prog, &log)) {
		printf("  %s\n", log ? log : "");
		free(log);
		CHECK_FAIL_AT(__FILE__, __LINE__, "helper_source does not build");
		return;
	}
	free(log);
	cr_reset(&session);
	REQUIRE(new_buffer(&b, ICD_PRINTF_BUFFER_SIZE));
	{
		struct cr_arg args[] = { CR_VAL(&n) };
		struct cr_ndrange nd = CR_1D(1, 1);

		CHECK(cr_launch(&session, &prog, "loop", args, 1, &nd));
	}
	got = format_buffer(&prog, &b, &records);
	CHECK_EQ(records, 5);
	check_text(got, "say 0 even const\nsay 1 odd const\n"
			"say 2 even const\nsay 3 odd const\n"
			"say 4 even const\n");
	free(got);
	slb_program_free(&prog);
}

TEST(helper_in_loop)
{
	run_helper(NULL);
	/* Unoptimised: the choice of literal is a phi, not a select. */
	run_helper("-cl-opt-disable");
}

/*
 * The formatter alone on hand-made records: directives OpenCL C does not
 * have (`*`, ll, n) and directives that do not match their argument are
 * printed as written without taking bytes; a record naming no call site,
 * or longer than what the buffer holds, ends the output; the write offset
 * beyond the area (calls that did not fit) counts as the area.
 */
TEST(formatter_edges)
{
	static char fmt0[] = "a%*d|%lld|%n|%5%|%s|%d|%v2hd|%hlx|%d\n";
	static char fmt1[] = "%d %v3hhu %%\n";
	static char lit[] = "str";
	static char *strings[] = { fmt0, fmt1, lit };
	static struct slb_printf_call calls[2] = {
		{ .format = 0, .record_bytes = 20, .num_args = 4,
		  .args = { { SLB_PRINTF_INT, 4, 1, 4 },
			    { SLB_PRINTF_INT, 4, 1, 8 },
			    { SLB_PRINTF_STRING, 4, 1, 12 },
			    { SLB_PRINTF_INT, 4, 1, 16 } } },
		{ .format = 1, .record_bytes = 12, .num_args = 2,
		  .args = { { SLB_PRINTF_INT, 4, 1, 4 },
			    { SLB_PRINTF_INT, 1, 3, 8 } } },
	};
	struct slb_program prog = {
		.num_printf_strings = 3, .printf_strings = strings,
		.num_printf_calls = 2, .printf_calls = calls,
	};
	uint8_t buf[ICD_PRINTF_HEADER_BYTES + 64];
	uint32_t w[] = {
		/* call 0: %s meets an int and %v2hd the string (both
		 * shown as written, taking their argument), %d 2, %d 8 */
		0, 7, 2, 99, 8,
		/* call 1 */
		1, (uint32_t)-3, 0x00FF0201,
		/* call 2 does not exist */
		2, 0,
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	unsigned int n;

	memcpy(buf + ICD_PRINTF_HEADER_BYTES, w, sizeof(w));
	icd_printf_init(buf, sizeof(buf) - ICD_PRINTF_HEADER_BYTES);
	/* More reserved than the area; a record naming no call ends it. */
	memcpy(buf, &(uint32_t){ 1000 }, 4);
	f = open_memstream(&text, &len);
	REQUIRE(f);
	n = icd_printf_write(&prog, buf, sizeof(buf), f);
	fclose(f);
	CHECK_EQ(n, 2);
	check_text(text, "a%*d|%lld|%n|%5%|%s|2|%v2hd|%hlx|8\n"
			 "-3 1,2,255 %\n");
	free(text);

	/* A record cut by the end of the buffer is not printed. */
	text = NULL;
	f = open_memstream(&text, &len);
	REQUIRE(f);
	/* Record 0 (20 bytes) and 8 of record 1's 12. */
	memcpy(buf, &(uint32_t){ 20 + 8 }, 4);
	n = icd_printf_write(&prog, buf, sizeof(buf), f);
	fclose(f);
	CHECK_EQ(n, 1);
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	REQUIRE(f);
	n = icd_printf_write(&prog, buf, ICD_PRINTF_HEADER_BYTES + 16, f);
	fclose(f);
	CHECK_EQ(n, 0);
	check_text(text, "");
	free(text);

	/* Nothing from the first offset that did not fit (word 2) on. */
	text = NULL;
	f = open_memstream(&text, &len);
	REQUIRE(f);
	memcpy(buf, &(uint32_t){ 1000 }, 4);
	memcpy(buf + 8, &(uint32_t){ 20 }, 4);
	n = icd_printf_write(&prog, buf, sizeof(buf), f);
	fclose(f);
	CHECK_EQ(n, 1);
	free(text);
}

int main(void)
{
	if (!cr_init(&session)) {
		printf("compiler_printf: the model did not start\n");
		return 1;
	}
	RUN(scalars);
	RUN(scalars_opt_disable);
	RUN(doubles);
	RUN(vectors);
	RUN(work_items);
	RUN(full_buffer);
	RUN(empty_buffer);
	RUN(full_offset_stays);
	RUN(helper_in_loop);
	RUN(formatter_edges);
	if (!cr_fini(&session)) {
		printf("  the model reported a guest error or a leak\n");
		check_state.failed++;
	}
	return check_summary();
}
