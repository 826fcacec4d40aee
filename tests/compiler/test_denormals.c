/* SPDX-License-Identifier: MIT */
/*
 * -cl-denorms-are-zero: a denormal float constant read by arithmetic is
 * flushed to a zero of its sign (piglit's amdgcn-f32-inline-immediates
 * adds as_float(64) and wants exact zero for 0.0f); without the option it
 * is kept, as the ALU keeps denormals; read as bits it is never touched.
 * The same through clCompileProgram and clLinkProgram, where the option
 * may come with the compile or with the link (OpenCL 1.2 §5.6.5.1).
 * Run on the model core against the host's float arithmetic.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "corpus_runner.h"
#include "float_bits.h"
#include "sleipnir_compiler.h"

CHECK_MAIN_STATE("compiler_denormals");

#define ITEMS 8u

static struct cr_session session;

static const char source[] =
	"kernel void add_denormal(global float *out, global const float *in)\n"
	"{\n"
	"\tint i = get_global_id(0);\n"
	"\tfloat4 d = as_float4((int4)(64, -2147483584, 1, 0x00400000));\n"
	"\tout[i * 6] = in[i] + as_float(64);\n"
	"\tout[i * 6 + 1] = in[i] * as_float(0x00400000) * 0x1p100f;\n"
	"\tout[i * 6 + 2] = (in[i] + d).y;\n"
	"\tout[i * 6 + 3] = (in[i] - d).w;\n"
	"\tout[i * 6 + 4] = as_float(64);\n"
	"\tout[i * 6 + 5] = as_float(as_int(as_float(1)) + (int)in[i]);\n"
	"}\n";

/* @source compiled to an object with @options and linked alone with
 * @link_options, as clCompileProgram then clLinkProgram do. */
static bool compile_and_link(const char *options, const char *link_options,
			     struct slb_program *prog, char **log)
{
	struct slc_output obj = { 0 }, exe = { 0 };
	const uint8_t *objects[1];
	size_t sizes[1];
	char err[256] = "";
	bool ok = false;

	if (slc_compile_object(source, options, NULL, 0, &obj) == SLC_OK) {
		objects[0] = obj.binary;
		sizes[0] = obj.binary_size;
		if (slc_link(objects, sizes, 1, link_options, &exe) == SLC_OK)
			ok = slb_read(exe.binary, exe.binary_size, prog, err,
				      sizeof(err));
	}
	*log = strdup(err[0] ? err : exe.log ? exe.log :
		      obj.log ? obj.log : "");
	slc_output_free(&obj);
	slc_output_free(&exe);
	return ok;
}

/* Built from source with @options, or when @link_options is given
 * compiled with @options and linked with those. */
static void run_with(const char *options, const char *link_options,
		     bool flush)
{
	static const float in[ITEMS] = { 0.0f, -0.0f, 1.0f, -1.5f,
					 0x1p-140f, -0x1p-126f, 3.0f, 0.25f };
	struct cr_ndrange nd = CR_1D(ITEMS, ITEMS);
	struct slb_program p;
	struct cr_arg args[2];
	uint32_t in_va, out_va;
	float *gin, *out;
	char *log = NULL;

	printf("  %s: %s%s%s\n", link_options ? "compile" : "options",
	       options ? options : "(none)", link_options ? ", link: " : "",
	       link_options ? link_options : "");
	if (!(link_options ? compile_and_link(options, link_options, &p, &log)
			   : cr_compile(source, options, &p, &log))) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "does not build: %s",
			      log ? log : "");
		free(log);
		return;
	}
	free(log);
	cr_reset(&session);
	gin = cr_alloc(&session, sizeof(in), &in_va);
	out = cr_alloc(&session, ITEMS * 6 * 4, &out_va);
	REQUIRE(gin && out);
	memcpy(gin, in, sizeof(in));
	args[0] = CR_BUF(out_va);
	args[1] = CR_BUF(in_va);
	REQUIRE(cr_launch(&session, &p, "add_denormal", args, 2, &nd));
	for (uint32_t i = 0; i < ITEMS; i++) {
		float x = in[i];
		float d64 = flush ? 0.0f : bitsf(64);
		float dhalf = flush ? 0.0f : bitsf(0x00400000);
		float dneg = flush ? -0.0f : bitsf(0x80000040u);
		uint32_t want[6] = {
			fbits(x + d64),
			fbits(x * dhalf * 0x1p100f),
			fbits(x + dneg),
			fbits(x - dhalf),
			64,
			1u + (uint32_t)(int)x,
		};

		for (int k = 0; k < 6; k++) {
			uint32_t got = fbits(out[i * 6 + k]);

			if (got != want[k])
				CHECK_FAIL_AT(__FILE__, __LINE__, "item %u, "
					      "result %d: 0x%08x, expected "
					      "0x%08x", i, k, got, want[k]);
		}
	}
	slb_program_free(&p);
}

TEST(denormal_constants)
{
	run_with(NULL, NULL, false);
	run_with("-cl-denorms-are-zero", NULL, true);
	run_with("-cl-denorms-are-zero -cl-opt-disable", NULL, true);
	run_with("", "", false);
	run_with("-cl-denorms-are-zero", "", true);
	run_with("", "-cl-denorms-are-zero", true);
}

int main(void)
{
	if (!cr_init(&session)) {
		printf("compiler_denormals: the model did not start\n");
		return 1;
	}
	RUN(denormal_constants);
	if (!cr_fini(&session)) {
		printf("  the model reported a guest error or a leak\n");
		check_state.failed++;
	}
	return check_summary();
}
