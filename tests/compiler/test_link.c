/* SPDX-License-Identifier: MIT */
/*
 * Separate compilation (sleipnir_compiler.h): slc_compile_object with
 * embedded headers, slc_link into executables and libraries, the link
 * options, the object container (frontend/clc_object.h) and
 * slc_binary_type. The links run the whole pipeline, so they need every
 * tool (clang-15, opt-15, llvm-spirv-15, llvm-link-15) and libclc.
 */
#include <stdlib.h>

#include "check.h"
#include "clc_frontend.h"
#include "clc_log.h"
#include "clc_object.h"
#include "clc_options.h"
#include "slb_binary.h"
#include "sleipnir_compiler.h"

CHECK_MAIN_STATE("compiler_link");

/* A kernel calling a function another object defines. */
static const char uses_helper[] =
	"int helper(int x);\n"
	"__kernel void scale(__global int *out, int k)\n"
	"{\n"
	"\tsize_t i = get_global_id(0);\n"
	"\tout[i] = helper((int)i) * k;\n"
	"}\n";

static const char defines_helper[] =
	"int helper(int x) { return x * 3 + 1; }\n";

static const char second_kernel[] =
	"__kernel void fill(__global float *out, float v)\n"
	"{\n"
	"\tout[get_global_id(0)] = v;\n"
	"}\n";

/* Needs its two headers, one of them in a folder. */
static const char with_headers[] =
	"#include \"defs.h\"\n"
	"#include \"sub/more.h\"\n"
	"__kernel void k(__global int *out) { out[0] = VALUE + MORE; }\n";

static const char broken[] =
	"__kernel void broken(__global int *out) { out[0] = 1 }\n";

static void show_log(const struct slc_output *out)
{
	if (out->log && *out->log)
		printf("  log: %s", out->log);
}

/* Compiles @source to an object, expecting success. */
static bool object(const char *source, const char *options,
		   struct slc_output *out)
{
	enum slc_status st = slc_compile_object(source, options, NULL, 0,
						out);

	if (st != SLC_OK)
		show_log(out);
	return st == SLC_OK && out->type == SLC_BINARY_OBJECT;
}

TEST(object_container)
{
	static const uint8_t bc[] = { 'B', 'C', 0xC0, 0xDE, 1, 2, 3, 4 };
	struct clc_object o = { CLC_OBJECT_LIBRARY, CLC_OBJECT_FAST_MATH,
				"-x", 2, bc, sizeof(bc) }, back;
	uint8_t *data = NULL;
	size_t size = 0;
	char err[128];

	REQUIRE(clc_object_write(&o, &data, &size));
	CHECK_EQ(size, CLC_OBJECT_HEADER_BYTES + 2 + sizeof(bc));
	REQUIRE(clc_object_read(data, size, &back, err, sizeof(err)));
	CHECK_EQ(back.kind, CLC_OBJECT_LIBRARY);
	CHECK_EQ(back.flags, CLC_OBJECT_FAST_MATH);
	CHECK(back.options_size == 2 && !memcmp(back.options, "-x", 2));
	CHECK(back.bitcode_size == sizeof(bc) &&
	      !memcmp(back.bitcode, bc, sizeof(bc)));
	CHECK_EQ(slc_binary_type(data, size, err, sizeof(err)),
		 SLC_BINARY_LIBRARY);
	/* Truncated, extended, wrong kind, unknown flag, not bitcode. */
	CHECK(!clc_object_read(data, size - 1, &back, err, sizeof(err)));
	data[12] = 3;
	CHECK(!clc_object_read(data, size, &back, err, sizeof(err)));
	data[12] = CLC_OBJECT_COMPILED;
	CHECK(clc_object_read(data, size, &back, err, sizeof(err)));
	data[16] = 0x80;
	CHECK(!clc_object_read(data, size, &back, err, sizeof(err)));
	data[16] = 0;
	data[CLC_OBJECT_HEADER_BYTES + 2] = 'X';
	CHECK(!clc_object_read(data, size, &back, err, sizeof(err)));
	CHECK_EQ(slc_binary_type(data, size, err, sizeof(err)),
		 SLC_BINARY_NONE);
	CHECK(*err);
	CHECK_EQ(slc_binary_type((const uint8_t *)"\177ELF junk", 9, err,
				 sizeof(err)), SLC_BINARY_NONE);
	CHECK_EQ(slc_binary_type(NULL, 0, err, sizeof(err)),
		 SLC_BINARY_NONE);
	free(data);
}

TEST(link_options)
{
	static const char *const good[] = {
		"", "-create-library", "-create-library -enable-link-options",
		"-cl-denorms-are-zero -cl-no-signed-zeros -cl-finite-math-only",
		"-cl-fast-relaxed-math", "-cl-unsafe-math-optimizations",
		"-sleipnir-wg-size=64",
	};
	static const char *const bad[] = {
		"-enable-link-options", "-DX=1", "-cl-opt-disable",
		"-create-library -bogus", "-sleipnir-wg-size=0",
	};
	struct clc_link_options o;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct clc_log log = { 0 };

		if (!clc_link_options_parse(good[i], &o, &log))
			CHECK_FAIL_AT(__FILE__, __LINE__, "'%s' rejected: %s",
				      good[i], log.text ? log.text : "");
		clc_log_free(&log);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct clc_log log = { 0 };

		if (clc_link_options_parse(bad[i], &o, &log))
			CHECK_FAIL_AT(__FILE__, __LINE__, "'%s' accepted",
				      bad[i]);
		else
			CHECK(log.text && strstr(log.text, "error"));
		clc_log_free(&log);
	}
	{
		struct clc_log log = { 0 };

		REQUIRE(clc_link_options_parse("-cl-fast-relaxed-math "
					       "-sleipnir-wg-size=128", &o,
					       &log));
		CHECK(o.fast_math && o.wg_size == 128 && !o.create_library);
		clc_log_free(&log);
	}
}

TEST(compile_and_link)
{
	struct slc_output a, b, exe;
	struct slb_program p;
	const uint8_t *bins[2];
	size_t sizes[2];
	char err[256];

	REQUIRE(object(uses_helper, "-cl-std=CL1.2", &a));
	REQUIRE(object(defines_helper, NULL, &b));
	CHECK_EQ(slc_binary_type(a.binary, a.binary_size, err, sizeof(err)),
		 SLC_BINARY_OBJECT);
	bins[0] = a.binary;
	bins[1] = b.binary;
	sizes[0] = a.binary_size;
	sizes[1] = b.binary_size;
	CHECK_EQ(slc_link(bins, sizes, 2, "-sleipnir-wg-size=64", &exe),
		 SLC_OK);
	show_log(&exe);
	CHECK_EQ(exe.type, SLC_BINARY_EXECUTABLE);
	if (exe.binary && slb_read(exe.binary, exe.binary_size, &p, err,
				   sizeof(err))) {
		CHECK_EQ(p.num_kernels, 1);
		CHECK(!strcmp(p.kernels[0].name, "scale"));
		CHECK_EQ(p.kernels[0].num_args, 2);
		CHECK(!strcmp(p.kernels[0].args[1].type_name, "int"));
		CHECK(!strcmp(p.build_options, "-sleipnir-wg-size=64"));
		slb_program_free(&p);
	} else {
		CHECK_FAIL_AT(__FILE__, __LINE__, "no executable: %s", err);
	}
	slc_output_free(&exe);
	/* The object alone leaves helper undefined: the link fails with a
	 * log saying so. */
	CHECK_EQ(slc_link(bins, sizes, 1, NULL, &exe), SLC_BUILD_FAILED);
	CHECK(exe.log && strstr(exe.log, "helper"));
	CHECK(!exe.binary && exe.type == SLC_BINARY_NONE);
	slc_output_free(&exe);
	/* The same object twice defines scale twice. */
	bins[1] = a.binary;
	sizes[1] = a.binary_size;
	CHECK_EQ(slc_link(bins, sizes, 2, NULL, &exe), SLC_BUILD_FAILED);
	CHECK(exe.log && strstr(exe.log, "llvm-link"));
	slc_output_free(&exe);
	/* Bad options, and inputs that are not objects. */
	CHECK_EQ(slc_link(bins, sizes, 2, "-DX", &exe), SLC_INVALID_OPTIONS);
	CHECK(exe.log && strstr(exe.log, "-DX"));
	slc_output_free(&exe);
	sizes[1] = 7;
	CHECK_EQ(slc_link(bins, sizes, 2, NULL, &exe), SLC_BUILD_FAILED);
	CHECK(exe.log && strstr(exe.log, "input 1"));
	slc_output_free(&exe);
	slc_output_free(&a);
	slc_output_free(&b);
}

/*
 * A plain inline function from a header both objects include: C99 gives
 * each object an inline definition and neither an external one, so the
 * link must neither miss it nor see it defined twice; with an extern
 * inline (the external definition) in one of them, that one serves.
 */
TEST(inline_across_objects)
{
	static const char first[] =
		"inline int shared(int x) { return x * 5; }\n"
		"__kernel void one(__global int *o) { o[0] = shared(o[1]); }\n";
	static const char second[] =
		"inline int shared(int x) { return x * 5; }\n"
		"__kernel void two(__global int *o) { o[0] = shared(o[2]); }\n";
	static const char external[] =
		"extern inline int shared(int x) { return x * 5; }\n";
	struct slc_output a, b, c, exe;
	struct slb_program p;
	const uint8_t *bins[3];
	size_t sizes[3];
	char err[256];

	REQUIRE(object(first, NULL, &a));
	REQUIRE(object(second, NULL, &b));
	REQUIRE(object(external, NULL, &c));
	bins[0] = a.binary;
	bins[1] = b.binary;
	bins[2] = c.binary;
	sizes[0] = a.binary_size;
	sizes[1] = b.binary_size;
	sizes[2] = c.binary_size;
	for (size_t n = 1; n <= 3; n++) {
		if (slc_link(bins, sizes, n, NULL, &exe) != SLC_OK) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "%zu objects: %s", n,
				      exe.log ? exe.log : "");
		} else if (slb_read(exe.binary, exe.binary_size, &p, err,
				    sizeof(err))) {
			CHECK_EQ(p.num_kernels, n == 1 ? 1 : 2);
			slb_program_free(&p);
		} else {
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s", err);
		}
		slc_output_free(&exe);
	}
	slc_output_free(&a);
	slc_output_free(&b);
	slc_output_free(&c);
}

TEST(libraries)
{
	struct slc_output a, b, c, lib, exe;
	struct slb_program p;
	const uint8_t *bins[2];
	size_t sizes[2];
	char err[256];

	REQUIRE(object(defines_helper, NULL, &a));
	REQUIRE(object(second_kernel, NULL, &b));
	REQUIRE(object(uses_helper, NULL, &c));
	bins[0] = a.binary;
	bins[1] = b.binary;
	sizes[0] = a.binary_size;
	sizes[1] = b.binary_size;
	CHECK_EQ(slc_link(bins, sizes, 2,
			  "-create-library -enable-link-options", &lib),
		 SLC_OK);
	show_log(&lib);
	REQUIRE(lib.type == SLC_BINARY_LIBRARY);
	CHECK_EQ(slc_binary_type(lib.binary, lib.binary_size, err,
				 sizeof(err)), SLC_BINARY_LIBRARY);
	/* Library + object: both kernels, helper resolved. */
	bins[0] = lib.binary;
	bins[1] = c.binary;
	sizes[0] = lib.binary_size;
	sizes[1] = c.binary_size;
	CHECK_EQ(slc_link(bins, sizes, 2, "-cl-fast-relaxed-math", &exe),
		 SLC_OK);
	show_log(&exe);
	if (exe.binary && slb_read(exe.binary, exe.binary_size, &p, err,
				   sizeof(err))) {
		CHECK_EQ(p.num_kernels, 2);
		CHECK(slb_find_kernel(&p, "fill") &&
		      slb_find_kernel(&p, "scale"));
		slb_program_free(&p);
	} else {
		CHECK_FAIL_AT(__FILE__, __LINE__, "no executable: %s", err);
	}
	slc_output_free(&exe);
	/* clBuildProgram of a program made from a library's binary. */
	CHECK_EQ(slc_build_binary(lib.binary, lib.binary_size, NULL, &exe),
		 SLC_OK);
	CHECK_EQ(exe.type, SLC_BINARY_EXECUTABLE);
	slc_output_free(&exe);
	CHECK_EQ(slc_build_binary(lib.binary, lib.binary_size, "-bogus",
				  &exe), SLC_INVALID_OPTIONS);
	slc_output_free(&exe);
	slc_output_free(&lib);
	slc_output_free(&a);
	slc_output_free(&b);
	slc_output_free(&c);
}

TEST(embedded_headers)
{
	struct slc_header h[2] = {
		{ "defs.h", "#define VALUE 40\n" },
		{ "sub/more.h", "#define MORE 2\n" },
	};
	struct slc_header bad = { "../escape.h", "" };
	struct slc_output out;

	CHECK_EQ(slc_compile_object(with_headers, NULL, h, 2, &out), SLC_OK);
	show_log(&out);
	CHECK_EQ(out.type, SLC_BINARY_OBJECT);
	slc_output_free(&out);
	/* Without them, clang cannot find the file. */
	CHECK_EQ(slc_compile_object(with_headers, NULL, NULL, 0, &out),
		 SLC_BUILD_FAILED);
	CHECK(out.log && strstr(out.log, "defs.h"));
	slc_output_free(&out);
	CHECK_EQ(slc_compile_object(with_headers, NULL, &bad, 1, &out),
		 SLC_BUILD_FAILED);
	CHECK(out.log && strstr(out.log, "../escape.h"));
	slc_output_free(&out);
	CHECK_EQ(slc_compile_object(broken, NULL, NULL, 0, &out),
		 SLC_BUILD_FAILED);
	CHECK(out.log && strstr(out.log, "input.cl:1:"));
	slc_output_free(&out);
	CHECK_EQ(slc_compile_object(broken, "-cl-std=CL3.0", NULL, 0, &out),
		 SLC_INVALID_OPTIONS);
	slc_output_free(&out);
}

/* An IL program compiled to an object (llvm-spirv -r), then linked. */
TEST(spirv_object)
{
	struct slc_output obj, exe;
	struct slb_program p;
	const uint8_t *bins[1];
	size_t sizes[1];
	char err[256];

	/* The module the front end makes for clBuildProgram. */
	{
		struct clc_options o;
		struct clc_log log = { 0 };
		struct clc_spirv spv;

		REQUIRE(clc_options_parse(NULL, &o, &log));
		REQUIRE(clc_compile(second_kernel, &o, &spv, &log) == SLC_OK);
		clc_options_free(&o);
		clc_log_free(&log);
		CHECK_EQ(slc_compile_object_spirv(spv.words, spv.num_words,
						  NULL, &obj), SLC_OK);
		free(spv.words);
	}
	show_log(&obj);
	REQUIRE(obj.type == SLC_BINARY_OBJECT);
	bins[0] = obj.binary;
	sizes[0] = obj.binary_size;
	CHECK_EQ(slc_link(bins, sizes, 1, NULL, &exe), SLC_OK);
	show_log(&exe);
	if (exe.binary && slb_read(exe.binary, exe.binary_size, &p, err,
				   sizeof(err))) {
		CHECK(slb_find_kernel(&p, "fill") != NULL);
		slb_program_free(&p);
	} else {
		CHECK_FAIL_AT(__FILE__, __LINE__, "no executable: %s", err);
	}
	slc_output_free(&exe);
	slc_output_free(&obj);
}

int main(void)
{
	RUN(object_container);
	RUN(link_options);
	RUN(compile_and_link);
	RUN(inline_across_objects);
	RUN(libraries);
	RUN(embedded_headers);
	RUN(spirv_object);
	return check_summary();
}
