/* SPDX-License-Identifier: MIT */
/*
 * The front end: clBuildProgram options as OpenCL 1.2 §5.6.4 lists them,
 * clang's diagnostics verbatim in the build log, -D reaching the source,
 * the predefined and extension macros of §6.10 and §9 as the device
 * reports them (SLC_DEVICE_*), programs without kernels, and the disk
 * cache (hit, miss on other options, corrupt entry rebuilt, failed builds
 * served from it unless the failure was transient). The cache tests run
 * the whole pipeline, so they need every stage.
 */
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "clc_cache.h"
#include "clc_frontend.h"
#include "clc_ir_loops.h"
#include "clc_log.h"
#include "clc_vec_hint.h"
#include "clc_options.h"
#include "slb_binary.h"
#include "sleipnir_compiler.h"

CHECK_MAIN_STATE("compiler_frontend");

static const char vector_add[] =
	"__kernel void vector_add(__global const int *a,\n"
	"                         __global const int *b, __global int *c)\n"
	"{\n"
	"\tsize_t i = get_global_id(0);\n"
	"\tc[i] = a[i] + b[i];\n"
	"}\n";

/*
 * The cache tests need a program the whole pipeline compiles; what it
 * computes does not matter to them, so it is as small as can be.
 */
static const char cache_probe[] =
	"__kernel __attribute__((reqd_work_group_size(8, 4, 1)))\n"
	"void probe(void) { barrier(CLK_LOCAL_MEM_FENCE); }\n"
	"__kernel void other(void) { }\n";

static const char needs_macro[] =
	"#ifndef MUST_BE_SET\n"
	"#error MUST_BE_SET is not defined\n"
	"#endif\n"
	"#if MUST_BE_SET != 42\n"
	"#error MUST_BE_SET has the wrong value\n"
	"#endif\n"
	"__kernel void k(__global int *out) { out[0] = MUST_BE_SET; }\n";

static const char syntax_error[] =
	"__kernel void broken(__global int *out)\n"
	"{\n"
	"\tout[0] = 1\n"
	"}\n";

/* Parses options, expecting success; the caller frees o. */
static bool parse(const char *options, struct clc_options *o)
{
	struct clc_log log = { 0 };
	bool ok = clc_options_parse(options, o, &log);

	if (!ok)
		printf("  '%s': %s", options, log.text ? log.text : "");
	clc_log_free(&log);
	return ok;
}

static bool has_arg(const struct clc_options *o, const char *arg)
{
	for (unsigned int i = 0; i < o->num_clang_args; i++)
		if (!strcmp(o->clang_args[i], arg))
			return true;
	return false;
}

TEST(options_accepted)
{
	static const char *const each[] = {
		"", "   ", "-cl-std=CL1.1", "-cl-std=CL1.2",
		"-cl-single-precision-constant", "-cl-denorms-are-zero",
		"-cl-fp32-correctly-rounded-divide-sqrt", "-cl-opt-disable",
		"-cl-mad-enable", "-cl-no-signed-zeros",
		"-cl-unsafe-math-optimizations", "-cl-finite-math-only",
		"-cl-fast-relaxed-math", "-w", "-Werror",
		"-cl-kernel-arg-info", "-cl-strict-aliasing", "-g", "-D X",
		"-DX", "-D X=1",
		"-I /usr/include", "-I/usr/include", "-sleipnir-wg-size=128",
	};
	struct clc_options o;

	for (size_t i = 0; i < sizeof(each) / sizeof(each[0]); i++) {
		CHECK(parse(each[i], &o));
		clc_options_free(&o);
	}

	REQUIRE(parse("-D A -DB=2 -D 'C=x y' -D \"D=\\\"s\\\"\" -cl-std=CL1.1 "
		      "-I inc -cl-fast-relaxed-math -sleipnir-wg-size=96", &o));
	CHECK(has_arg(&o, "-DA"));
	CHECK(has_arg(&o, "-DB=2"));
	CHECK(has_arg(&o, "-DC=x y"));
	CHECK(has_arg(&o, "-DD=\"s\""));
	CHECK(has_arg(&o, "-cl-std=CL1.1"));
	CHECK(!has_arg(&o, "-cl-std=CL1.2"));
	CHECK(has_arg(&o, "-cl-fast-relaxed-math"));
	CHECK(o.fast_math);
	CHECK(!o.opt_disable);
	CHECK_EQ(o.wg_size, 96);
	{
		char cwd[4096], want[4200];

		REQUIRE(getcwd(cwd, sizeof(cwd)));
		snprintf(want, sizeof(want), "-I%s/inc", cwd);
		CHECK(has_arg(&o, want));
	}
	clc_options_free(&o);

	REQUIRE(parse("-cl-opt-disable -cl-mad-enable", &o));
	CHECK(o.opt_disable);
	CHECK(!o.fast_math);
	CHECK(has_arg(&o, "-cl-std=CL1.2"));
	CHECK(has_arg(&o, "-cl-mad-enable"));
	clc_options_free(&o);
}

/* Rejected with SLC_INVALID_OPTIONS and a log naming `named`. */
static void expect_invalid(const char *options, const char *named, int line)
{
	struct slc_output out;
	enum slc_status st = slc_compile_source(vector_add, options, &out);

	if (st != SLC_INVALID_OPTIONS)
		CHECK_FAIL_AT(__FILE__, line, "'%s': status %d", options, st);
	else if (!out.log || !strstr(out.log, named))
		CHECK_FAIL_AT(__FILE__, line, "'%s': log '%s' lacks '%s'",
			      options, out.log ? out.log : "(null)", named);
	if (out.binary)
		CHECK_FAIL_AT(__FILE__, line, "'%s': binary on failure",
			      options);
	slc_output_free(&out);
}

TEST(options_rejected)
{
	expect_invalid("-cl-no-such-option", "'-cl-no-such-option'", __LINE__);
	expect_invalid("-D X -O3", "'-O3'", __LINE__);
	expect_invalid("-cl-std=CL2.0", "'-cl-std=CL2.0'", __LINE__);
	expect_invalid("-cl-std=CL3.0", "'-cl-std=CL3.0'", __LINE__);
	expect_invalid("-cl-std=CL1.0", "'-cl-std=CL1.0'", __LINE__);
	expect_invalid("-D", "-D needs a value", __LINE__);
	expect_invalid("-I", "-I needs a value", __LINE__);
	expect_invalid("-D 'X=1", "unterminated", __LINE__);
	expect_invalid("-sleipnir-wg-size=0", "'-sleipnir-wg-size=0'",
		       __LINE__);
	expect_invalid("-sleipnir-wg-size=12x", "'-sleipnir-wg-size=12x'",
		       __LINE__);
	expect_invalid("-cl-fast-relaxed-math -fno-builtin", "'-fno-builtin'",
		       __LINE__);
	/* §5.6.5's library options make no sense for an executable. */
	expect_invalid("-create-library", "clLinkProgram", __LINE__);
	expect_invalid("-enable-link-options", "clLinkProgram", __LINE__);
	/* Words that only look like options, as piglit's clBuildProgram
	 * test gives them. */
	expect_invalid("-invalid- --build-- options", "'-invalid-'", __LINE__);
}

/* Front end only: SPIR-V out, the log as clang left it. */
static enum slc_status front_end(const char *source, const char *options,
				 struct clc_spirv *spv, char **log_text)
{
	struct clc_log log = { 0 };
	struct clc_options o;
	enum slc_status st = SLC_INVALID_OPTIONS;

	memset(spv, 0, sizeof(*spv));
	if (clc_options_parse(options, &o, &log)) {
		st = clc_compile(source, &o, spv, &log);
		clc_options_free(&o);
	}
	*log_text = clc_log_take(&log);
	return st;
}

/*
 * Each option of OpenCL 1.2 §5.6.4 (and the 1.0 option 1.1 deprecated,
 * -cl-strict-aliasing, still in use) through clang, opt and llvm-spirv:
 * accepted, and no diagnostic from clang about it.
 */
TEST(options_each_builds)
{
	static const char *const each[] = {
		"-D X", "-DX=1", "-D X=\"a b\"", "-I /tmp", "-I/tmp",
		"-cl-single-precision-constant", "-cl-denorms-are-zero",
		"-cl-fp32-correctly-rounded-divide-sqrt", "-cl-opt-disable",
		"-cl-mad-enable", "-cl-no-signed-zeros",
		"-cl-unsafe-math-optimizations", "-cl-finite-math-only",
		"-cl-fast-relaxed-math", "-w", "-Werror", "-cl-std=CL1.1",
		"-cl-std=CL1.2", "-cl-kernel-arg-info", "-cl-strict-aliasing",
		"-g",
		"-cl-std=CL1.1 -cl-strict-aliasing -cl-mad-enable "
		"-cl-no-signed-zeros -cl-fast-relaxed-math -Werror -D Y=2",
	};

	for (size_t i = 0; i < sizeof(each) / sizeof(each[0]); i++) {
		struct clc_spirv spv;
		char *log;

		if (front_end(vector_add, each[i], &spv, &log) != SLC_OK)
			CHECK_FAIL_AT(__FILE__, __LINE__, "'%s' does not "
				      "build: %s", each[i], log ? log : "");
		else if (log && log[0])
			CHECK_FAIL_AT(__FILE__, __LINE__, "'%s': log '%s'",
				      each[i], log);
		free(log);
		free(spv.words);
	}
}

/* True when the space-separated @list holds @word. */
static bool in_word_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return false;
}

/* The device's extensions that are no OpenCL C extension (no macro). */
static const char *const api_extensions[] = {
	"cl_khr_icd", "cl_khr_il_program",
};

/* The OpenCL C extensions clang 15 knows (its OpenCLExtensions.def). */
static const char *const clang_extensions[] = {
	"cl_khr_fp16", "cl_khr_fp64", "cl_khr_byte_addressable_store",
	"cl_khr_global_int32_base_atomics",
	"cl_khr_global_int32_extended_atomics",
	"cl_khr_local_int32_base_atomics",
	"cl_khr_local_int32_extended_atomics",
	"cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
	"cl_khr_3d_image_writes", "cl_khr_depth_images",
	"cl_khr_gl_msaa_sharing", "cl_khr_mipmap_image",
	"cl_khr_mipmap_image_writes", "cl_khr_srgb_image_writes",
	"cl_khr_subgroups", "cl_amd_media_ops", "cl_amd_media_ops2",
	"cl_intel_subgroups", "cl_intel_subgroups_short",
	"cl_intel_device_side_avc_motion_estimation",
	"cl_clang_storage_class_specifiers",
};

/*
 * The macros of OpenCL 1.2 §6.10 and the extension macros of §9: each
 * checked by the preprocessor, so any wrong one fails the build. The
 * build options set what depends on them (WANT_*).
 */
static const char macro_probe[] =
	"#if __LINE__ != 1\n"
	"#error __LINE__\n"
	"#endif\n"
	"#if !defined(__OPENCL_VERSION__) || __OPENCL_VERSION__ != 120\n"
	"#error __OPENCL_VERSION__ is not the device's 1.2\n"
	"#endif\n"
	"#if CL_VERSION_1_0 != 100 || CL_VERSION_1_1 != 110 || "
	"CL_VERSION_1_2 != 120\n"
	"#error CL_VERSION_1_x\n"
	"#endif\n"
	"#if __OPENCL_C_VERSION__ != WANT_C_VERSION\n"
	"#error __OPENCL_C_VERSION__ does not follow -cl-std\n"
	"#endif\n"
	"#if !defined(__ENDIAN_LITTLE__) || __ENDIAN_LITTLE__ != 1\n"
	"#error __ENDIAN_LITTLE__\n"
	"#endif\n"
	"#if defined(__IMAGE_SUPPORT__) != WANT_IMAGES\n"
	"#error __IMAGE_SUPPORT__ does not follow CL_DEVICE_IMAGE_SUPPORT\n"
	"#endif\n"
	"#if defined(__FAST_RELAXED_MATH__) != WANT_FAST\n"
	"#error __FAST_RELAXED_MATH__ does not follow -cl-fast-relaxed-math\n"
	"#endif\n"
	"#if defined(FP_FAST_FMAF) || defined(FP_FAST_FMA) || "
	"defined(FP_FAST_FMA_HALF)\n"
	"#error FP_FAST_FMA*: fma is no faster than a*b+c here\n"
	"#endif\n"
	"#ifdef __EMBEDDED_PROFILE__\n"
	"#error __EMBEDDED_PROFILE__ on a FULL_PROFILE device\n"
	"#endif\n"
	"#ifndef __kernel_exec\n"
	"#error __kernel_exec\n"
	"#endif\n"
	"_Static_assert(sizeof(__FILE__) > 1, \"__FILE__\");\n"
	/* Without cl_khr_fp64 a floating literal is a float; with it a
	 * double in OpenCL C 1.2 (6.1.1.1: double is an optional core type
	 * there; OpenCL C 1.1 needs the extension's pragma first). */
	"#if WANT_FP64 && __OPENCL_C_VERSION__ >= 120\n"
	"_Static_assert(sizeof(0.5) == sizeof(double), \"0.5 is no double\");\n"
	"#else\n"
	"_Static_assert(sizeof(0.5) == sizeof(float), \"0.5 is no float\");\n"
	"_Static_assert(sizeof(1e-3 * 2.0) == 4, \"1e-3 * 2.0 is no float\");\n"
	"#endif\n"
	"__kernel_exec(64, float4) void probe(__global float *out)\n"
	"{\n"
	"\tout[get_global_id(0)] += 0.5;\n"
	"}\n";

/* macro_probe with the extension checks for SLC_DEVICE_EXTENSIONS. */
static char *extension_probe(void)
{
	size_t cap = 16384, len = 0;
	char *s = malloc(cap);
	const char *p = SLC_DEVICE_EXTENSIONS;

	if (!s)
		return NULL;
	len += (size_t)snprintf(s + len, cap - len, "%s", macro_probe);
	/* Every extension clang knows: defined exactly when advertised. */
	for (size_t i = 0;
	     i < sizeof(clang_extensions) / sizeof(clang_extensions[0]); i++) {
		const char *e = clang_extensions[i];
		bool on = in_word_list(SLC_DEVICE_EXTENSIONS, e);

		len += (size_t)snprintf(s + len, cap - len,
					"#if %sdefined(%s)\n#error %s %s\n"
					"#endif\n", on ? "!" : "", e, e,
					on ? "is advertised but not defined" :
					"is defined but not advertised");
	}
	/* Every advertised OpenCL C extension: defined. */
	while (*p) {
		size_t n = strcspn(p, " ");
		char word[128];
		bool api = false;

		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		for (size_t i = 0; i < sizeof(api_extensions) /
		     sizeof(api_extensions[0]); i++)
			api |= !strcmp(word, api_extensions[i]);
		if (n && !api)
			len += (size_t)snprintf(s + len, cap - len,
						"#ifndef %s\n#error %s is "
						"advertised but not defined\n"
						"#endif\n", word, word);
		p += n;
		p += strspn(p, " ");
	}
	CHECK(len < cap);
	return s;
}

TEST(predefined_macros)
{
	static const struct {
		const char *options;
	} cases[] = {
		{ "-D WANT_C_VERSION=120 -D WANT_FAST=0" },
		{ "-cl-std=CL1.2 -D WANT_C_VERSION=120 -D WANT_FAST=0" },
		{ "-cl-std=CL1.1 -D WANT_C_VERSION=110 -D WANT_FAST=0" },
		{ "-cl-fast-relaxed-math -D WANT_C_VERSION=120 -D WANT_FAST=1" },
		{ "-cl-opt-disable -D WANT_C_VERSION=120 -D WANT_FAST=0" },
	};
	char *probe = extension_probe();

	REQUIRE(probe);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char options[256];
		struct clc_spirv spv;
		char *log;

		snprintf(options, sizeof(options),
			 "%s -D WANT_IMAGES=%d -D WANT_FP64=%d",
			 cases[i].options, SLC_DEVICE_IMAGE_SUPPORT,
			 SLC_DEVICE_FP64);
		if (front_end(probe, options, &spv, &log) != SLC_OK)
			CHECK_FAIL_AT(__FILE__, __LINE__, "'%s': %s", options,
				      log ? log : "");
		free(log);
		free(spv.words);
	}
	free(probe);
}

/* No cl_khr_fp16, and while not offered no cl_khr_fp64: their types are
 * refused. */
TEST(fp64_and_fp16_refused)
{
	static const struct {
		const char *source, *says;
	} cases[] = {
		{ "__kernel void k(__global float *o)\n"
		  "{ double d = o[0]; o[0] = (float)d; }\n",
		  "requires cl_khr_fp64" },
		/* The pragma cannot turn it on either. */
		{ "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
		  "__kernel void k(__global float *o)\n"
		  "{ double d = o[0]; o[0] = (float)d; }\n",
		  "unsupported OpenCL extension 'cl_khr_fp64'" },
		{ "__kernel void k(__global double *o) { }\n",
		  "requires cl_khr_fp64" },
		{ "__kernel void k(__global half *o)\n"
		  "{ half h = o[0]; o[1] = h; }\n",
		  "half" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct clc_spirv spv;
		char *log;

		if (SLC_DEVICE_FP64 && strstr(cases[i].says, "cl_khr_fp64"))
			continue;
		CHECK_EQ(front_end(cases[i].source, NULL, &spv, &log),
			 SLC_BUILD_FAILED);
		if (!log || !strstr(log, cases[i].says))
			CHECK_FAIL_AT(__FILE__, __LINE__, "case %zu: log '%s' "
				      "lacks '%s'", i, log ? log : "",
				      cases[i].says);
		free(log);
		free(spv.words);
	}
}

/* A program may hold no kernel at all (piglit builds ""). */
TEST(no_kernels)
{
	static const char *const sources[] = {
		"", "   \n\t\n", "/* only a comment */\n// and another\n",
		"int helper(int x) { return x + 1; }\n",
		"#define NOTHING 1\n",
	};

	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		struct slc_output out;
		struct slb_program p;
		char err[256];

		if (slc_compile_source(sources[i], NULL, &out) != SLC_OK) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "source %zu: %s", i,
				      out.log ? out.log : "");
			slc_output_free(&out);
			continue;
		}
		CHECK_EQ(out.type, SLC_BINARY_EXECUTABLE);
		if (slb_read(out.binary, out.binary_size, &p, err,
			     sizeof(err))) {
			CHECK_EQ(p.num_kernels, 0);
			slb_program_free(&p);
		} else {
			CHECK_FAIL_AT(__FILE__, __LINE__, "source %zu: %s", i,
				      err);
		}
		slc_output_free(&out);
	}
}

TEST(defines_reach_the_source)
{
	struct clc_spirv spv;
	char *log;

	CHECK_EQ(front_end(needs_macro, NULL, &spv, &log), SLC_BUILD_FAILED);
	CHECK(strstr(log, "error: MUST_BE_SET is not defined") != NULL);
	free(log);
	free(spv.words);

	CHECK_EQ(front_end(needs_macro, "-D MUST_BE_SET=41", &spv, &log),
		 SLC_BUILD_FAILED);
	CHECK(strstr(log, "MUST_BE_SET has the wrong value") != NULL);
	free(log);
	free(spv.words);

	static const char *const forms[] = { "-D MUST_BE_SET=42",
					     "-DMUST_BE_SET=42",
					     "-D \"MUST_BE_SET=42\"" };
	for (size_t i = 0; i < 3; i++) {
		CHECK_EQ(front_end(needs_macro, forms[i], &spv, &log), SLC_OK);
		CHECK(spv.num_words > 5 && spv.words[0] == 0x07230203u);
		CHECK(spv.cacheable);
		if (log[0])
			printf("  unexpected log: %s\n", log);
		CHECK(log[0] == '\0');
		free(log);
		free(spv.words);
	}
}

TEST(build_log_is_clangs)
{
	struct slc_output out;
	struct clc_spirv spv;
	char *log;

	CHECK_EQ(slc_compile_source(syntax_error, NULL, &out),
		 SLC_BUILD_FAILED);
	REQUIRE(out.log);
	CHECK(out.binary == NULL);
	/* clang's own words: file, line and column, then the caret line. */
	CHECK(strstr(out.log, "input.cl:3:12: error: expected ';' after "
			      "expression") != NULL);
	CHECK(strstr(out.log, "1 error generated.") != NULL);
	if (!strstr(out.log, "expected ';'"))
		printf("  log: %s\n", out.log);
	slc_output_free(&out);

	/* Warnings stay in the log; -Werror makes them fatal, -w hides them. */
	static const char warns[] = "#warning look here\n"
				    "__kernel void k(__global int *o) "
				    "{ o[0] = 1; }\n";
	CHECK_EQ(front_end(warns, NULL, &spv, &log), SLC_OK);
	CHECK(strstr(log, "warning: look here") != NULL);
	free(log);
	free(spv.words);
	CHECK_EQ(front_end(warns, "-Werror", &spv, &log), SLC_BUILD_FAILED);
	CHECK(strstr(log, "error: look here") != NULL);
	free(log);
	free(spv.words);
	CHECK_EQ(front_end(warns, "-w", &spv, &log), SLC_OK);
	CHECK(strstr(log, "look here") == NULL);
	free(log);
	free(spv.words);
}

/* Our own messages are whole, however long the names they quote. */
TEST(log_lines_of_any_length)
{
	const size_t n = 4000;
	char *name = malloc(n + 1), *src = malloc(n + 256), *want;
	struct slc_output out;

	REQUIRE(name && src);
	memset(name, 'k', n);
	name[n] = '\0';
	/* Past the 256 work-items a group may have: refused, naming it. */
	snprintf(src, n + 256, "__kernel __attribute__((reqd_work_group_size("
		 "512, 1, 1))) void %s(__global int *o) { o[0] = 1; }\n",
		 name);
	CHECK_EQ(slc_compile_source(src, NULL, &out), SLC_BUILD_FAILED);
	want = malloc(n + 64);
	REQUIRE(out.log && want);
	snprintf(want, n + 64, "error: %s: work-group size 512 exceeds", name);
	CHECK(strstr(out.log, want) != NULL);
	slc_output_free(&out);
	free(want);
	free(src);
	free(name);
}

/*
 * SPIR-V's VecTypeHint (SPIR-V 1.0 3.6, Execution Mode 30): "The 16
 * high-order bits ... specify the number of components of the vector. The
 * 16 low-order bits ... the data type": 0-3 8-, 16-, 32-, 64-bit integer,
 * 4-6 16-, 32-, 64-bit float; named as OpenCL C 1.2 6.1.1/6.1.2 do.
 */
TEST(vec_hint_names)
{
	static const char *const types[7][2] = {
		{ "char", "uchar" }, { "short", "ushort" }, { "int", "uint" },
		{ "long", "ulong" }, { "half", "half" }, { "float", "float" },
		{ "double", "double" },
	};
	static const unsigned int counts[] = { 0, 1, 2, 3, 4, 8, 16 };
	char buf[16], want[16];

	for (uint32_t t = 0; t < 7; t++) {
		for (unsigned int c = 0; c < 7; c++) {
			uint32_t n = counts[c], hint = n << 16 | t;

			for (int u = 0; u < 2; u++) {
				const char *got = clc_vec_hint_type(hint, u,
							buf, sizeof(buf));

				snprintf(want, sizeof(want), n > 1 ? "%s%u" :
					 "%s", types[t][u], n);
				CHECK(got && !strcmp(got, want));
				if (!got || strcmp(got, want))
					printf("  0x%x: %s, want %s\n", hint,
					       got ? got : "NULL", want);
			}
		}
	}
	/* Encodings SPIR-V does not define. */
	CHECK(clc_vec_hint_type(7, false, buf, sizeof(buf)) == NULL);
	CHECK(clc_vec_hint_type(5u << 16 | 2, false, buf, sizeof(buf)) ==
	      NULL);
	CHECK(clc_vec_hint_type(32u << 16 | 5, false, buf, sizeof(buf)) ==
	      NULL);
}

/* clang's IR for the signedness SPIR-V drops. */
TEST(vec_hint_signedness)
{
	static const char ir[] =
		"; ModuleID = 'input.cl'\n"
		"define dso_local spir_kernel void @ku(i32 addrspace(1)* "
		"noundef align 4 %o) #0 !kernel_arg_addr_space !3 "
		"!vec_type_hint !8 !work_group_size_hint !9 {\n"
		"entry:\n"
		"  ret void\n"
		"}\n"
		"define dso_local spir_kernel void @ks(i32 addrspace(1)* %o) "
		"#0 !vec_type_hint !10 {\n"
		"}\n"
		"define dso_local spir_kernel void @kf() #0 !vec_type_hint "
		"!11 {\n"
		"}\n"
		"define dso_local spir_kernel void @kuc() #0 !vec_type_hint "
		"!12 {\n"
		"}\n"
		"define dso_local spir_func void @helper() #0 {\n"
		"}\n"
		"define dso_local spir_kernel void @knone() #0 {\n"
		"}\n"
		"!8 = !{<4 x i32> undef, i32 0}\n"
		"!9 = !{i32 8, i32 2, i32 1}\n"
		"!10 = !{<16 x i8> undef, i32 1}\n"
		"!11 = !{<2 x float> undef, i32 0}\n"
		"!12 = !{i8 undef, i32 0}\n";
	char *list = clc_unsigned_vec_hints(ir);

	REQUIRE(list);
	CHECK(!strcmp(list, "\nku\nkuc\n"));
	CHECK(clc_vec_hint_is_unsigned(list, "ku"));
	CHECK(clc_vec_hint_is_unsigned(list, "kuc"));
	CHECK(!clc_vec_hint_is_unsigned(list, "k"));
	CHECK(!clc_vec_hint_is_unsigned(list, "ks"));
	CHECK(!clc_vec_hint_is_unsigned(list, "kf"));
	CHECK(!clc_vec_hint_is_unsigned(list, "knone"));
	CHECK(!clc_vec_hint_is_unsigned(NULL, "ku"));
	free(list);
	list = clc_unsigned_vec_hints("define spir_kernel void @k() {\n}\n");
	REQUIRE(list);
	CHECK(!strcmp(list, ""));
	free(list);
}

/*
 * Loops per function in clang's textual IR (the pass-list choice): back
 * branches to a label defined above in the same function, named or
 * numbered; forward branches and other functions' labels do not count.
 */
TEST(ir_loops_per_function)
{
	static const char ir[] =
		"define dso_local spir_func i32 @two(i32 noundef %n) #0 {\n"
		"entry:\n"
		"  br label %for.cond\n"
		"for.cond:                                         "
		"; preds = %for.inc, %entry\n"
		"  %cmp = icmp slt i32 0, %n\n"
		"  br i1 %cmp, label %for.body, label %for.end\n"
		"for.body:\n"
		"  br label %for.cond, !llvm.loop !6\n"
		"for.end:\n"
		"  br label %5\n"
		"5:\n"
		"  br i1 %cmp, label %5, label %6\n"
		"6:\n"
		"  ret i32 0\n"
		"}\n"
		"define dso_local spir_kernel void @three() #0 {\n"
		"entry:\n"
		"  br label %for.cond\n"
		"for.cond:\n"
		"  switch i32 0, label %for.cond [\n"
		"    i32 1, label %entry\n"
		"  ]\n"
		"a:\n"
		"  br i1 true, label %a, label %b\n"
		"b:\n"
		"  ret void\n"
		"}\n"
		"define dso_local spir_func void @none() #0 {\n"
		"entry:\n"
		"  br label %for.body\n"
		"for.body:\n"
		"  ret void\n"
		"}\n";
	static const char one_loop[] =
		"define void @f() {\n0:\n  br label %0\n}\n";

	CHECK_EQ(clc_ir_max_function_loops(ir, strlen(ir)), 3);
	/* @none alone: its for.body is defined after the branch to it. */
	CHECK_EQ(clc_ir_max_function_loops(strstr(ir, "define dso_local "
						   "spir_func void @none"),
					   strlen(strstr(ir, "define dso_local "
							 "spir_func void "
							 "@none"))), 0);
	CHECK_EQ(clc_ir_max_function_loops(one_loop, strlen(one_loop)), 1);
	CHECK_EQ(clc_ir_max_function_loops("", 0), 0);
}

TEST(missing_tools)
{
	struct slc_output out;

	setenv("SLEIPNIR_CLANG", "/nonexistent/clang-15", 1);
	CHECK_EQ(slc_compile_source(vector_add, NULL, &out), SLC_BUILD_FAILED);
	CHECK(out.log && strstr(out.log, "/nonexistent/clang-15") != NULL);
	slc_output_free(&out);
	unsetenv("SLEIPNIR_CLANG");
}

/* The cache directory of this run (a fresh temporary one). */
static char cache_dir[256];

static void clear_cache_dir(void)
{
	DIR *d = opendir(cache_dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
}

/* Overwrites the middle of every cache entry. */
static unsigned int corrupt_entries(void)
{
	DIR *d = opendir(cache_dir);
	struct dirent *de;
	unsigned int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		struct stat st;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDWR);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && st.st_size > 64 &&
		    pwrite(fd, "garbage!", 8, st.st_size / 2) == 8)
			n++;
		close(fd);
	}
	closedir(d);
	return n;
}

/* Compiles, expecting success; returns from_cache through *hit. */
static bool build(const char *source, const char *options, bool *hit,
		  struct slc_output *out)
{
	enum slc_status st = slc_compile_source(source, options, out);

	if (st != SLC_OK) {
		printf("  build failed (%d): %s\n", st,
		       out->log ? out->log : "");
		slc_output_free(out);
		return false;
	}
	*hit = out->from_cache;
	return true;
}

static struct clc_cache_key key_of(int i)
{
	struct clc_cache_key k;
	struct clc_hash *h = clc_hash_begin();

	clc_hash_part(h, &i, sizeof(i));
	clc_hash_end(h, &k);
	return k;
}

/* Sets an entry's modification time to `sec`, so ages are exact. */
static void age_entry(const struct clc_cache_key *k, time_t sec)
{
	char path[400], hex[33];
	struct timespec t[2] = { { sec, 0 }, { sec, 0 } };

	for (int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", k->bytes[i]);
	snprintf(path, sizeof(path), "%s/%s.slb", cache_dir, hex);
	CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

static bool cached(const struct clc_cache_key *k, uint8_t fill)
{
	uint8_t *data;
	size_t size;
	bool ok;

	if (!clc_cache_load(k, &data, &size))
		return false;
	ok = size == 1000 && data[0] == fill && data[999] == fill;
	free(data);
	return ok;
}

/* The store itself: round trip, corruption, least-recently-used eviction. */
TEST(cache_store)
{
	struct clc_cache_key k[5];
	uint8_t payload[1000];

	clear_cache_dir();
	/* Entries are 1024 bytes on disk: three fit in 3500 bytes. */
	setenv("SLEIPNIR_COMPILER_CACHE_MAX", "3500", 1);
	for (int i = 0; i < 5; i++)
		k[i] = key_of(i);
	CHECK(memcmp(&k[0], &k[1], sizeof(k[0])));
	for (int i = 0; i < 3; i++) {
		memset(payload, 'a' + i, sizeof(payload));
		clc_cache_store(&k[i], payload, sizeof(payload));
		age_entry(&k[i], 1000000 + i);
	}
	CHECK(cached(&k[0], 'a') && cached(&k[1], 'b') && cached(&k[2], 'c'));
	CHECK(!cached(&k[3], 'd'));
	/* The hits made 0..2 recent; age them again, 1 the oldest. */
	age_entry(&k[0], 1000005);
	age_entry(&k[1], 1000001);
	age_entry(&k[2], 1000006);
	memset(payload, 'd', sizeof(payload));
	clc_cache_store(&k[3], payload, sizeof(payload));
	CHECK(!cached(&k[1], 'b'));
	CHECK(cached(&k[0], 'a') && cached(&k[2], 'c') && cached(&k[3], 'd'));

	/* One changed byte and the entry is a miss. */
	CHECK(corrupt_entries() == 3);
	CHECK(!cached(&k[0], 'a') && !cached(&k[2], 'c') &&
	      !cached(&k[3], 'd'));

	/* Off means off. */
	setenv("SLEIPNIR_COMPILER_CACHE", "off", 1);
	clc_cache_store(&k[4], payload, sizeof(payload));
	CHECK(!cached(&k[4], 'd'));
	setenv("SLEIPNIR_COMPILER_CACHE", cache_dir, 1);
	CHECK(!cached(&k[4], 'd'));
	unsetenv("SLEIPNIR_COMPILER_CACHE_MAX");
	clear_cache_dir();
}

TEST(cache)
{
	struct slc_output a, b;
	bool hit;

	REQUIRE(build(cache_probe, NULL, &hit, &a));
	CHECK(!hit);
	REQUIRE(build(cache_probe, NULL, &hit, &b));
	CHECK(hit);
	CHECK(a.binary_size == b.binary_size &&
	      !memcmp(a.binary, b.binary, a.binary_size));
	slc_output_free(&b);

	/* Other options, other entry; the first is still there. */
	REQUIRE(build(cache_probe, "-D UNUSED=1", &hit, &b));
	CHECK(!hit);
	slc_output_free(&b);
	REQUIRE(build(cache_probe, "-cl-fast-relaxed-math", &hit, &b));
	CHECK(!hit);
	slc_output_free(&b);
	REQUIRE(build(cache_probe, NULL, &hit, &b));
	CHECK(hit);
	slc_output_free(&b);

	/* Corrupt entries are rebuilt, and the rebuilt one serves again. */
	CHECK(corrupt_entries() >= 3);
	REQUIRE(build(cache_probe, NULL, &hit, &b));
	CHECK(!hit);
	CHECK(a.binary_size == b.binary_size &&
	      !memcmp(a.binary, b.binary, a.binary_size));
	slc_output_free(&b);
	REQUIRE(build(cache_probe, NULL, &hit, &b));
	CHECK(hit);
	slc_output_free(&b);
	slc_output_free(&a);

	/* Turned off: never served from the cache. */
	setenv("SLEIPNIR_COMPILER_CACHE", "off", 1);
	REQUIRE(build(cache_probe, NULL, &hit, &b));
	CHECK(!hit);
	slc_output_free(&b);
	setenv("SLEIPNIR_COMPILER_CACHE", cache_dir, 1);
}

TEST(cache_skips_user_headers)
{
	char dir[300], path[340], opt[340];
	struct slc_output out;
	bool hit;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s-inc", cache_dir);
	REQUIRE(mkdir(dir, 0700) == 0);
	snprintf(path, sizeof(path), "%s/value.h", dir);
	f = fopen(path, "w");
	REQUIRE(f);
	fputs("#define VALUE 7\n", f);
	fclose(f);
	snprintf(opt, sizeof(opt), "-I %s", dir);
	clear_cache_dir();
	for (int i = 0; i < 2; i++) {
		if (!build("#include \"value.h\"\n"
			   "__kernel void k(void) { int v[VALUE]; }\n", opt,
			   &hit, &out)) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "build %d failed", i);
			break;
		}
		CHECK(!hit);
		slc_output_free(&out);
	}
	unlink(path);
	rmdir(dir);
}

/* Lines in @path (the wrapper's count of its runs). */
static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, c;

	if (!f)
		return 0;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* Builds @source; the status, whether the cache served it, and the log
 * (malloc'ed) in *log. */
static enum slc_status build_any(const char *source, const char *options,
				 bool *hit, char **log)
{
	struct slc_output out;
	enum slc_status st = slc_compile_source(source, options, &out);

	*hit = out.from_cache;
	*log = out.log;
	out.log = NULL;
	if (st != SLC_OK && out.binary)
		CHECK_FAIL_AT(__FILE__, __LINE__, "binary on failure");
	slc_output_free(&out);
	return st;
}

/* Writes an executable script at @path. */
static bool write_script(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return false;
	fputs(text, f);
	return fclose(f) == 0 && chmod(path, 0700) == 0;
}

/*
 * Failed builds are cached like successful ones, so a retry costs no
 * compile: same status, same log, clang not run again. Failures that the
 * surroundings caused (a tool killed, no temporary directory) are not.
 * clang is a script here that counts its runs; llvm-spirv one that, while
 * a flag file exists, kills itself as the OOM killer would.
 */
TEST(cache_failed_builds)
{
	char clang[300], spirv[300], count[300], flag[300], script[1200];
	const char *tmp = getenv("TMPDIR");
	char *saved_tmp = tmp ? strdup(tmp) : NULL;
	char *log1, *log2;
	bool hit;
	FILE *f;

	snprintf(clang, sizeof(clang), "%s-clang.sh", cache_dir);
	snprintf(spirv, sizeof(spirv), "%s-spirv.sh", cache_dir);
	snprintf(count, sizeof(count), "%s-runs", cache_dir);
	snprintf(flag, sizeof(flag), "%s-kill", cache_dir);
	snprintf(script, sizeof(script),
		 "#!/bin/sh\n"
		 "echo run >> '%s'\n"
		 "exec clang-15 \"$@\"\n", count);
	REQUIRE(write_script(clang, script));
	snprintf(script, sizeof(script),
		 "#!/bin/sh\n"
		 "if [ -e '%s' ]; then kill -KILL $$; fi\n"
		 "exec llvm-spirv-15 \"$@\"\n", flag);
	REQUIRE(write_script(spirv, script));
	setenv("SLEIPNIR_CLANG", clang, 1);
	setenv("SLEIPNIR_LLVM_SPIRV", spirv, 1);
	clear_cache_dir();

	/* A compile error: the second build is the cache's, word for word. */
	CHECK_EQ(build_any(syntax_error, NULL, &hit, &log1), SLC_BUILD_FAILED);
	CHECK(!hit);
	CHECK_EQ(count_lines(count), 1);
	CHECK_EQ(build_any(syntax_error, NULL, &hit, &log2), SLC_BUILD_FAILED);
	CHECK(hit);
	CHECK_EQ(count_lines(count), 1);
	CHECK(log1 && log2 && !strcmp(log1, log2));
	CHECK(log2 && strstr(log2, "expected ';' after expression"));
	free(log1);
	free(log2);
	/* Keyed as builds are: other options, another entry. */
	CHECK_EQ(build_any(syntax_error, "-D OTHER", &hit, &log1),
		 SLC_BUILD_FAILED);
	CHECK(!hit);
	CHECK_EQ(count_lines(count), 2);
	free(log1);
	/* -Werror's failure is the input's too. */
	CHECK_EQ(build_any("#warning w\n__kernel void k(void) { }\n",
			   "-Werror", &hit, &log1), SLC_BUILD_FAILED);
	CHECK_EQ(build_any("#warning w\n__kernel void k(void) { }\n",
			   "-Werror", &hit, &log2), SLC_BUILD_FAILED);
	CHECK(hit);
	CHECK_EQ(count_lines(count), 3);
	free(log1);
	free(log2);

	/* llvm-spirv killed: not cached; the retry compiles and succeeds. */
	f = fopen(flag, "w");
	REQUIRE(f);
	fclose(f);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(build_any(cache_probe, NULL, &hit, &log1),
			 SLC_BUILD_FAILED);
		CHECK(!hit);
		CHECK(log1 && strstr(log1, "terminated by signal 9"));
		free(log1);
	}
	CHECK_EQ(count_lines(count), 5);
	unlink(flag);
	CHECK_EQ(build_any(cache_probe, NULL, &hit, &log1), SLC_OK);
	CHECK(!hit);
	CHECK_EQ(count_lines(count), 6);
	free(log1);

	/* No temporary directory: not cached either. */
	setenv("TMPDIR", "/nonexistent/sleipnir-test", 1);
	CHECK_EQ(build_any(cache_probe, "-D NO_TMP", &hit, &log1),
		 SLC_BUILD_FAILED);
	CHECK(log1 && strstr(log1, "temporary directory"));
	free(log1);
	if (saved_tmp)
		setenv("TMPDIR", saved_tmp, 1);
	else
		unsetenv("TMPDIR");
	CHECK_EQ(build_any(cache_probe, "-D NO_TMP", &hit, &log1), SLC_OK);
	CHECK(!hit);
	CHECK_EQ(count_lines(count), 7);
	free(log1);

	unsetenv("SLEIPNIR_CLANG");
	unsetenv("SLEIPNIR_LLVM_SPIRV");
	unlink(clang);
	unlink(spirv);
	unlink(count);
	free(saved_tmp);
	clear_cache_dir();
}

/* A SPIR-V module that fails to build is cached as a failure too. */
TEST(cache_failed_spirv)
{
	/* A valid header, then an instruction whose word count is 0. */
	static const uint32_t words[] = {
		0x07230203u, 0x00010000u, 0, 16, 0, 0x00000011u,
	};
	struct slc_output a, b;

	clear_cache_dir();
	CHECK_EQ(slc_compile_spirv(words, 6, NULL, &a), SLC_BUILD_FAILED);
	CHECK(!a.from_cache);
	CHECK_EQ(slc_compile_spirv(words, 6, NULL, &b), SLC_BUILD_FAILED);
	CHECK(b.from_cache);
	CHECK(a.log && b.log && a.log[0] && !strcmp(a.log, b.log));
	CHECK(!b.binary);
	slc_output_free(&a);
	slc_output_free(&b);
	clear_cache_dir();
}

/*
 * Run in a process of its own (libclc is loaded once per process):
 * without libclc a build that needs it fails, and the failure is the
 * installation's, so it is not cached. 0 when that holds.
 */
static int without_libclc(void)
{
	static const char needs_libclc[] =
		"__kernel void k(__global float *o) { o[0] = sin(o[1]); }\n";
	int bad = 0;

	setenv("SLEIPNIR_LIBCLC", "/nonexistent/libclc.spv", 1);
	for (int i = 0; i < 2; i++) {
		char *log;
		bool hit;

		bad += build_any(needs_libclc, NULL, &hit, &log) !=
		       SLC_BUILD_FAILED;
		bad += hit;
		bad += !log || !strstr(log, "libclc");
		free(log);
	}
	return bad;
}

TEST(cache_skips_failures_without_libclc)
{
	char *argv[] = { "/proc/self/exe", "--without-libclc", NULL };
	extern char **environ;
	int status = -1;
	pid_t pid;

	clear_cache_dir();
	REQUIRE(posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv,
			    environ) == 0);
	REQUIRE(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	clear_cache_dir();
}

int main(int argc, char **argv)
{
	snprintf(cache_dir, sizeof(cache_dir), "%s/slc-cache-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(cache_dir)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("SLEIPNIR_COMPILER_CACHE", cache_dir, 1);
	if (argc > 1 && !strcmp(argv[1], "--without-libclc")) {
		int bad = without_libclc();

		clear_cache_dir();
		rmdir(cache_dir);
		return bad;
	}

	RUN(options_accepted);
	RUN(options_rejected);
	RUN(options_each_builds);
	RUN(predefined_macros);
	RUN(fp64_and_fp16_refused);
	RUN(no_kernels);
	RUN(defines_reach_the_source);
	RUN(build_log_is_clangs);
	RUN(log_lines_of_any_length);
	RUN(vec_hint_names);
	RUN(ir_loops_per_function);
	RUN(vec_hint_signedness);
	RUN(missing_tools);
	RUN(cache_store);
	RUN(cache);
	RUN(cache_skips_user_headers);
	RUN(cache_failed_builds);
	RUN(cache_failed_spirv);
	RUN(cache_skips_failures_without_libclc);

	clear_cache_dir();
	rmdir(cache_dir);
	return check_summary();
}
