/* SPDX-License-Identifier: MIT */
/*
 * The SPIR-V reader on modules built from the .cl files of
 * tests/compiler/spirv_fuzz (paths in argv: vecadd, reduce, mixed, each at
 * -O2 and -O0), on malformed modules, and on small hand-assembled modules
 * whose OpenCL.std expansions are run on the host (sir_eval) against the
 * OpenCL 1.2 definitions written in C. Expectations come from the OpenCL
 * sources and the spec.
 */
#include "check.h"
#include "sir_eval.h"
#include "spirv_reader.h"

#include <spirv/unified1/OpenCL.std.h>
#include <spirv/unified1/spirv.h>

CHECK_MAIN_STATE("spirv_reader");

#define LIB_PATH "/usr/lib/clc/spirv-mesa3d-.spv"

static struct spirv_library *lib;
static char **paths;
static int num_paths;

static uint32_t *read_words(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint32_t *w = malloc(1u << 22);
	*n = f && w ? fread(w, 4, 1u << 20, f) : 0;
	if (f)
		fclose(f);
	return w;
}

static const struct sir_function *find(const struct sir_module *m,
				       const char *name)
{
	for (uint32_t i = 0; i < m->num_functions; i++)
		if (!strcmp(m->functions[i]->name, name))
			return m->functions[i];
	return NULL;
}

static bool has_sysval(const struct sir_function *f, enum sir_sysval sv)
{
	for (uint32_t v = 1; v < f->num_values; v++)
		if (f->values[v].op == SIR_OP_SYSVAL && f->values[v].aux == sv)
			return true;
	return false;
}

static struct sir_module *load(const char *stem, bool o0, char *err)
{
	for (int i = 0; i < num_paths; i++) {
		if (strstr(paths[i], stem) &&
		    (strstr(paths[i], "-O0") != NULL) == o0) {
			size_t n;
			uint32_t *w = read_words(paths[i], &n);
			struct sir_module *m = spirv_to_sir(w, n, lib, err, 512);
			free(w);
			return m;
		}
	}
	strcpy(err, "no module");
	return NULL;
}

static void check_all_verify(const struct sir_module *m)
{
	char err[256];

	for (uint32_t i = 0; i < m->num_functions; i++)
		CHECK(sir_verify(m->functions[i], err, sizeof(err)));
}

TEST(vecadd)
{
	for (int o0 = 0; o0 < 2; o0++) {
		char err[512];
		struct sir_module *m = load("vecadd", o0, err);
		const struct sir_function *k;

		REQUIRE(m);
		k = find(m, "vecadd");
		REQUIRE(k && k->is_kernel);
		CHECK_EQ(k->num_params, 4);
		CHECK_EQ(k->params[0].kind, SIR_ARG_GLOBAL_PTR);
		CHECK(!strcmp(k->params[0].type_name, "float4*"));
		CHECK(!strcmp(k->params[0].name, "a"));
		CHECK(k->params[0].is_const);
		CHECK(!k->params[2].is_const);
		CHECK_EQ(k->params[3].kind, SIR_ARG_VALUE);
		CHECK_EQ(k->params[3].size, 4);
		CHECK(!strcmp(k->params[3].type_name, "uint"));
		CHECK_EQ(k->reqd_wg_size[0], 64);
		CHECK_EQ(k->reqd_wg_size[1], 1);
		CHECK(has_sysval(find(m, "vecadd.impl") ? find(m, "vecadd.impl")
			       : k, SIR_SYSVAL_GLOBAL_ID));
		check_all_verify(m);
		sir_module_destroy(m);
	}
}

TEST(reduce)
{
	for (int o0 = 0; o0 < 2; o0++) {
		char err[512];
		struct sir_module *m = load("reduce", o0, err);
		const struct sir_function *f;
		bool barrier = false, atomic = false;

		REQUIRE(m);
		f = find(m, "reduce");
		REQUIRE(f);
		CHECK_EQ(f->params[2].kind, SIR_ARG_LOCAL_PTR);
		CHECK(find(m, "_Z3sinf") != NULL);
		f = find(m, "reduce.impl");
		REQUIRE(f);
		CHECK(has_sysval(f, SIR_SYSVAL_LOCAL_ID));
		CHECK(has_sysval(f, SIR_SYSVAL_LOCAL_SIZE));
		CHECK(has_sysval(f, SIR_SYSVAL_GROUP_ID));
		CHECK(has_sysval(f, SIR_SYSVAL_NUM_GROUPS));
		CHECK(has_sysval(f, SIR_SYSVAL_WORK_DIM));
		for (uint32_t v = 1; v < f->num_values; v++) {
			barrier |= f->values[v].op == SIR_OP_BARRIER &&
				   f->values[v].aux == SIR_FENCE_LOCAL &&
				   f->values[v].aux2 == 1;
			atomic |= f->values[v].op == SIR_OP_ATOMIC &&
				  f->values[v].aux2 == SIR_ATOMIC_INC;
		}
		CHECK(barrier);
		CHECK(atomic);
		check_all_verify(m);
		sir_module_destroy(m);
	}
}

TEST(mixed)
{
	char err[512];
	struct sir_module *m = load("mixed", false, err);
	const struct sir_function *k;

	REQUIRE(m);
	k = find(m, "k");
	REQUIRE(k);
	CHECK_EQ(k->params[4].kind, SIR_ARG_CONSTANT_PTR);
	CHECK(!strcmp(k->params[4].type_name, "struct S*"));
	CHECK_EQ(k->params[5].size, 16);
	CHECK(find(m, "_Z3expf") && find(m, "_Z3expDv4_f"));
	CHECK(find(m, "_Z3powDv4_fS_") && find(m, "_Z3powff"));
	/* tab[4] (16 bytes, initialised) and k.tile[16] (64 bytes). */
	REQUIRE(m->num_globals >= 2);
	CHECK_EQ(m->local_bytes, 64);
	for (uint32_t i = 0; i < m->num_globals; i++) {
		if (!strcmp(m->globals[i].name, "tab")) {
			float f[4];
			memcpy(f, m->globals[i].init, 16);
			CHECK(f[0] == 1.0f && f[3] == 4.0f);
		}
	}
	check_all_verify(m);
	sir_module_destroy(m);
	m = load("mixed", false, err);
	sir_module_destroy(m);
}

TEST(no_library)
{
	char err[512];
	struct spirv_library *saved = lib;
	struct sir_module *m;

	lib = NULL;
	m = load("mixed", false, err);
	lib = saved;
	CHECK(!m);
	CHECK(strstr(err, "_Z3expf") != NULL);
	m = load("vecadd", false, err);  /* needs nothing from libclc */
	CHECK(m != NULL);
	sir_module_destroy(m);
}

static bool rejects(uint32_t *w, size_t n, const char *needle)
{
	char err[512] = "";
	struct sir_module *m = spirv_to_sir(w, n, lib, err, sizeof(err));

	sir_module_destroy(m);
	if (m || !strstr(err, needle))
		printf("  got: %s\n", m ? "(accepted)" : err);
	return !m && strstr(err, needle);
}

TEST(errors)
{
	size_t n = 0;
	uint32_t *w = NULL;
	for (int i = 0; i < num_paths && !w; i++)
		if (strstr(paths[i], "vecadd") && !strstr(paths[i], "-O0"))
			w = read_words(paths[i], &n);
	REQUIRE(w && n > 20);
	CHECK(rejects(w, 3, "truncated"));
	w[0] ^= 1;
	CHECK(rejects(w, n, "magic"));
	w[0] ^= 1;
	CHECK(rejects(w, n - 1, "") );
	uint32_t bound = w[3];
	w[3] = 0x7fffffff;
	CHECK(rejects(w, n, "bound"));
	w[3] = bound;
	/* An id out of range: the first result-bearing instruction. */
	for (size_t at = 5; at < n; at += w[at] >> 16) {
		if ((w[at] & 0xffff) == 21 /* OpTypeInt */) {
			uint32_t old = w[at + 1];
			w[at + 1] = bound + 5;
			CHECK(rejects(w, n, "out of range"));
			w[at + 1] = old;
			break;
		}
	}
	/* An unsupported opcode: turn an OpFAdd into OpImageRead's number. */
	for (size_t at = 5; at < n; at += w[at] >> 16) {
		if ((w[at] & 0xffff) == 129 /* OpFAdd */) {
			w[at] = (w[at] & 0xffff0000u) | 98 /* OpImageRead */;
			CHECK(rejects(w, n, "OpImageRead"));
			break;
		}
	}
	free(w);
	CHECK(rejects(NULL, 0, "no SPIR-V"));
}

/* ---- Hand-assembled modules ---------------------------------------- */

/*
 * Ids of the assembled module: types first, then a helper function with
 * parameters P(0).. whose body is the test's, called by kernel "k" with
 * undefined arguments (so the helper is translated as a function of its
 * parameters).
 */
enum {
	ID_EXT = 1, T_VOID, T_BOOL, T_I8, T_I16, T_I32, T_I64, T_F32,
	T_V4I32, T_V4F32, T_V2I32, T_V4I16, T_PG_I32, T_PL_I32, T_PG_F32,
	T_PG_I16, T_PG_I64, T_KFN, T_HFN, ID_HELPER, ID_LABEL,
	ID_KERNEL, ID_KPARAM, ID_KLABEL, ID_CALL,
	ID_USER = 40,                /* the test's own constants */
	ID_PARAM = 60,               /* P(i) */
	ID_UNDEF = 70,               /* kernel's call arguments */
	ID_BODY = 80,                /* results of the body */
	ID_BOUND = 120,
};
#define P(i) (ID_PARAM + (i))

struct asm_buf {
	uint32_t w[1024];
	size_t n;
};

static void emit(struct asm_buf *b, uint32_t op, uint32_t n,
		 const uint32_t *ops)
{
	b->w[b->n++] = (n + 1) << 16 | op;
	for (uint32_t i = 0; i < n; i++)
		b->w[b->n++] = ops[i];
}
#define EMIT(b, op, ...) emit(b, op, \
	sizeof((uint32_t[]){ __VA_ARGS__ }) / 4, (uint32_t[]){ __VA_ARGS__ })

static void emit_str(struct asm_buf *b, uint32_t op, uint32_t pre,
		     const char *s)
{
	uint32_t words[16] = { pre };
	size_t len = strlen(s);

	memcpy(&words[1], s, len);
	emit(b, op, 1 + (uint32_t)(len / 4 + 1), words);
}

/*
 * A module whose helper returns type ret from params of param_types, with
 * extra module-level words decls and body words body (ending the block
 * with OpReturnValue is up to the body).
 */
static struct sir_module *assemble(uint32_t ret, const uint32_t *params,
				   uint32_t num_params, const uint32_t *decls,
				   size_t num_decls, const uint32_t *body,
				   size_t num_body, char *err, size_t errsz)
{
	static const uint32_t caps[] = {
		SpvCapabilityAddresses, SpvCapabilityKernel,
		SpvCapabilityInt8, SpvCapabilityInt16, SpvCapabilityInt64,
		SpvCapabilityInt64Atomics,
	};
	struct asm_buf b = { .n = 0 };
	uint32_t i, hfn[12] = { T_HFN, ret };

	b.w[b.n++] = SpvMagicNumber;
	b.w[b.n++] = 0x00010000;
	b.w[b.n++] = 0;
	b.w[b.n++] = ID_BOUND;
	b.w[b.n++] = 0;
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		EMIT(&b, SpvOpCapability, caps[i]);
	emit_str(&b, SpvOpExtInstImport, ID_EXT, "OpenCL.std");
	EMIT(&b, SpvOpMemoryModel, SpvAddressingModelPhysical32,
	     SpvMemoryModelOpenCL);
	EMIT(&b, SpvOpEntryPoint, SpvExecutionModelKernel, ID_KERNEL,
	     'k' /* "k" */);
	EMIT(&b, SpvOpTypeVoid, T_VOID);
	EMIT(&b, SpvOpTypeBool, T_BOOL);
	EMIT(&b, SpvOpTypeInt, T_I8, 8, 0);
	EMIT(&b, SpvOpTypeInt, T_I16, 16, 0);
	EMIT(&b, SpvOpTypeInt, T_I32, 32, 0);
	EMIT(&b, SpvOpTypeInt, T_I64, 64, 0);
	EMIT(&b, SpvOpTypeFloat, T_F32, 32);
	EMIT(&b, SpvOpTypeVector, T_V4I32, T_I32, 4);
	EMIT(&b, SpvOpTypeVector, T_V4F32, T_F32, 4);
	EMIT(&b, SpvOpTypeVector, T_V2I32, T_I32, 2);
	EMIT(&b, SpvOpTypeVector, T_V4I16, T_I16, 4);
	EMIT(&b, SpvOpTypePointer, T_PG_I32, SpvStorageClassCrossWorkgroup,
	     T_I32);
	EMIT(&b, SpvOpTypePointer, T_PL_I32, SpvStorageClassWorkgroup, T_I32);
	EMIT(&b, SpvOpTypePointer, T_PG_F32, SpvStorageClassCrossWorkgroup,
	     T_F32);
	EMIT(&b, SpvOpTypePointer, T_PG_I16, SpvStorageClassCrossWorkgroup,
	     T_I16);
	EMIT(&b, SpvOpTypePointer, T_PG_I64, SpvStorageClassCrossWorkgroup,
	     T_I64);
	EMIT(&b, SpvOpTypeFunction, T_KFN, T_VOID, T_PG_I32);
	for (i = 0; i < num_params; i++)
		hfn[2 + i] = params[i];
	emit(&b, SpvOpTypeFunction, 2 + num_params, hfn);
	if (num_decls)
		memcpy(&b.w[b.n], decls, num_decls * 4);
	b.n += num_decls;
	for (i = 0; i < num_params; i++)
		EMIT(&b, SpvOpUndef, params[i], ID_UNDEF + i);
	EMIT(&b, SpvOpFunction, ret, ID_HELPER, 0, T_HFN);
	for (i = 0; i < num_params; i++)
		EMIT(&b, SpvOpFunctionParameter, params[i], P(i));
	EMIT(&b, SpvOpLabel, ID_LABEL);
	memcpy(&b.w[b.n], body, num_body * 4);
	b.n += num_body;
	EMIT(&b, SpvOpFunctionEnd);
	EMIT(&b, SpvOpFunction, T_VOID, ID_KERNEL, 0, T_KFN);
	EMIT(&b, SpvOpFunctionParameter, T_PG_I32, ID_KPARAM);
	EMIT(&b, SpvOpLabel, ID_KLABEL);
	{
		uint32_t call[12] = { ret, ID_CALL, ID_HELPER };

		for (i = 0; i < num_params; i++)
			call[3 + i] = ID_UNDEF + i;
		emit(&b, SpvOpFunctionCall, 3 + num_params, call);
	}
	EMIT(&b, SpvOpReturn);
	EMIT(&b, SpvOpFunctionEnd);
	return spirv_to_sir(b.w, b.n, lib, err, errsz);
}

/* The helper of an assembled module: the function that is not "k". */
static struct sir_function *helper(struct sir_module *m)
{
	for (uint32_t i = 0; i < m->num_functions; i++)
		if (!m->functions[i]->is_kernel &&
		    m->functions[i]->ret.kind != SIR_VOID &&
		    m->functions[i]->num_params > 0 &&
		    strncmp(m->functions[i]->name, "_Z", 2))
			return m->functions[i];
	return NULL;
}

/*
 * A helper of one OpExtInst: ret = num(operands) with the given operand
 * ids (P(i) for parameters), returned.
 */
static struct sir_module *ext_module(uint32_t ret, const uint32_t *params,
				     uint32_t num_params, const uint32_t *decls,
				     size_t num_decls, uint32_t num,
				     const uint32_t *ops, uint32_t num_ops,
				     char *err)
{
	uint32_t body[32] = { (5 + num_ops) << 16 | SpvOpExtInst, ret,
			      ID_BODY, ID_EXT, num };

	memcpy(&body[5], ops, num_ops * 4);
	body[5 + num_ops] = 2u << 16 | SpvOpReturnValue;
	body[6 + num_ops] = ID_BODY;
	return assemble(ret, params, num_params, decls, num_decls, body,
			7 + num_ops, err, 512);
}

/*
 * Runs straight-line function f on parameter lanes args; returns the
 * lanes of its return value in out. False when f branches, touches memory
 * or has an op the evaluator cannot do.
 */
static bool run_sir(const struct sir_function *f, const uint64_t args[][16],
		    uint64_t out[16])
{
	static uint64_t lanes[4096][16];
	const struct sir_block *b = &f->blocks[0];

	if (f->num_values > 4096 || f->num_blocks != 1)
		return false;
	for (uint32_t v = 1; v < f->num_values; v++) {
		const struct sir_instr *in = &f->values[v];

		if (in->op == SIR_OP_CONST)
			memcpy(lanes[v], in->imm.u64, sizeof(lanes[v]));
		else if (in->op == SIR_OP_PARAM)
			memcpy(lanes[v], args[in->aux], sizeof(lanes[v]));
	}
	for (uint32_t i = 0; i < b->num_instrs; i++) {
		const struct sir_instr *in = &f->values[b->instrs[i]];
		const uint64_t *srcs[4];

		if (in->op == SIR_OP_RET) {
			memcpy(out, lanes[in->srcs[0]], 16 * 8);
			return true;
		}
		for (uint32_t s = 0; s < in->num_srcs && s < 4; s++)
			srcs[s] = lanes[in->srcs[s]];
		if (!sir_eval_instr(f, in, srcs, lanes[b->instrs[i]],
				    SIR_EVAL_FOLD))
			return false;
	}
	return false;
}

static bool has_op(const struct sir_function *f, enum sir_op op)
{
	for (uint32_t v = 1; v < f->num_values; v++)
		if (f->values[v].op == op)
			return true;
	return false;
}

static uint32_t rng_state = 0x2545f491;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

/* Interesting 32-bit operands: extremes, small values, random ones. */
static uint32_t operand(unsigned int i)
{
	static const uint32_t edge[] = { 0, 1, 2, 0x7fffffff, 0x80000000,
					 0xffffffff, 0xfffffffe, 31, 32, 33 };

	return i < 10 ? edge[i] : rnd();
}

/* The OpenCL 1.2 integer built-ins, in C, on 32-bit lanes. */
static uint32_t ref_int(uint32_t num, uint32_t x, uint32_t y, uint32_t z)
{
	int32_t sx = (int32_t)x, sy = (int32_t)y;

	switch (num) {
	case OpenCLstd_SAbs_diff:
		return sx > sy ? (uint32_t)((int64_t)sx - sy) :
			       (uint32_t)((int64_t)sy - sx);
	case OpenCLstd_UAbs_diff: return x > y ? x - y : y - x;
	case OpenCLstd_SHadd:
		return (uint32_t)(int32_t)(((int64_t)sx + sy) >> 1);
	case OpenCLstd_UHadd: return (uint32_t)(((uint64_t)x + y) >> 1);
	case OpenCLstd_SRhadd:
		return (uint32_t)(int32_t)(((int64_t)sx + sy + 1) >> 1);
	case OpenCLstd_URhadd: return (uint32_t)(((uint64_t)x + y + 1) >> 1);
	case OpenCLstd_Rotate:
		return y % 32 ? x << (y % 32) | x >> (32 - y % 32) : x;
	case OpenCLstd_SMad_hi:
		return (uint32_t)(((int64_t)sx * sy) >> 32) + z;
	case OpenCLstd_UMad_hi:
		return (uint32_t)(((uint64_t)x * y) >> 32) + z;
	case OpenCLstd_SMad24: return x * y + z;
	case OpenCLstd_UMad24: return x * y + z;
	case OpenCLstd_SClamp:
		return (uint32_t)(sx < sy ? sy : sx > (int32_t)z ? (int32_t)z
				  : sx);
	case OpenCLstd_UClamp: return x < y ? y : x > z ? z : x;
	case OpenCLstd_Ctz: return x ? (uint32_t)__builtin_ctz(x) : 32;
	default: return 0xdeadbeef;
	}
}

TEST(integer_builtins)
{
	static const struct { uint32_t num, k; } ops[] = {
		{ OpenCLstd_SAbs_diff, 2 }, { OpenCLstd_UAbs_diff, 2 },
		{ OpenCLstd_SHadd, 2 }, { OpenCLstd_UHadd, 2 },
		{ OpenCLstd_SRhadd, 2 }, { OpenCLstd_URhadd, 2 },
		{ OpenCLstd_Rotate, 2 }, { OpenCLstd_SMad_hi, 3 },
		{ OpenCLstd_UMad_hi, 3 }, { OpenCLstd_SMad24, 3 },
		{ OpenCLstd_UMad24, 3 }, { OpenCLstd_SClamp, 3 },
		{ OpenCLstd_UClamp, 3 }, { OpenCLstd_Ctz, 1 },
	};
	static const uint32_t params[3] = { T_I32, T_I32, T_I32 };

	for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
		char err[512];
		struct sir_module *m = ext_module(T_I32, params, ops[o].k,
			NULL, 0, ops[o].num, (uint32_t[]){ P(0), P(1), P(2) },
			ops[o].k, err);
		struct sir_function *f;
		unsigned int bad = 0;

		if (!m)
			printf("  %s\n", err);
		REQUIRE(m);
		f = helper(m);
		REQUIRE(f);
		CHECK(!has_op(f, SIR_OP_CALL));
		check_all_verify(m);
		for (unsigned int i = 0; i < 200; i++) {
			uint64_t args[3][16] = { { operand(i) },
				{ operand(i / 10 + (i % 3) * 3) }, { rnd() } };
			uint64_t out[16];
			uint32_t want;

			if (ops[o].num == OpenCLstd_SClamp &&
			    (int32_t)args[1][0] > (int32_t)args[2][0])
				args[2][0] = args[1][0];
			if (ops[o].num == OpenCLstd_UClamp &&
			    args[1][0] > args[2][0])
				args[2][0] = args[1][0];
			want = ref_int(ops[o].num, (uint32_t)args[0][0],
				       (uint32_t)args[1][0],
				       (uint32_t)args[2][0]);
			REQUIRE(run_sir(f, args, out));
			if ((uint32_t)out[0] != want && bad++ < 3)
				printf("  OpenCL.std %u(%#x, %#x, %#x) = %#x, "
				       "want %#x\n", ops[o].num,
				       (uint32_t)args[0][0],
				       (uint32_t)args[1][0],
				       (uint32_t)args[2][0], (uint32_t)out[0],
				       want);
		}
		CHECK_EQ(bad, 0);
		sir_module_destroy(m);
	}
}

/* bitselect, vector select (MSB rule) and shuffle2 with a variable mask. */
TEST(lane_selection)
{
	static const uint32_t v3[3] = { T_V4I32, T_V4I32, T_V4I32 };
	static const uint32_t nums[3] = { OpenCLstd_Bitselect,
					  OpenCLstd_Select,
					  OpenCLstd_Shuffle2 };

	for (unsigned int o = 0; o < 3; o++) {
		char err[512];
		struct sir_module *m = ext_module(T_V4I32, v3, 3, NULL, 0,
			nums[o], (uint32_t[]){ P(0), P(1), P(2) }, 3, err);
		struct sir_function *f;
		unsigned int bad = 0;

		REQUIRE(m);
		REQUIRE((f = helper(m)));
		CHECK(!has_op(f, SIR_OP_CALL));
		check_all_verify(m);
		for (unsigned int i = 0; i < 100; i++) {
			uint64_t args[3][16], out[16];

			for (unsigned int l = 0; l < 4; l++) {
				args[0][l] = rnd();
				args[1][l] = rnd();
				args[2][l] = rnd() >> (i % 2 ? 0 : 28);
			}
			REQUIRE(run_sir(f, args, out));
			for (unsigned int l = 0; l < 4; l++) {
				uint32_t a = (uint32_t)args[0][l];
				uint32_t b = (uint32_t)args[1][l];
				uint32_t c = (uint32_t)args[2][l], want;

				if (o == 0)
					want = (a & ~c) | (b & c);
				else if (o == 1)
					want = c >> 31 ? b : a;
				else
					want = (uint32_t)args[(c & 7) / 4]
							    [c & 3];
				bad += (uint32_t)out[l] != want;
			}
		}
		CHECK_EQ(bad, 0);
		sir_module_destroy(m);
	}
}

/*
 * native_divide is x * native_recip(y); u_mad_sat is computed in SIR (the
 * double-width product from mul_hi: libclc's long one is wrong); fract
 * with a global pointer is a libclc call under its exact exported name.
 */
TEST(native_and_library_names)
{
	static const uint32_t ff[2] = { T_F32, T_F32 };
	static const uint32_t uuu[3] = { T_I32, T_I32, T_I32 };
	static const uint32_t fp[2] = { T_F32, T_PG_F32 };
	char err[512];
	struct sir_module *m;
	struct sir_function *f;

	m = ext_module(T_F32, ff, 2, NULL, 0, OpenCLstd_Native_divide,
		       (uint32_t[]){ P(0), P(1) }, 2, err);
	REQUIRE(m);
	REQUIRE((f = helper(m)));
	CHECK(has_op(f, SIR_OP_FRCP) && has_op(f, SIR_OP_FMUL));
	CHECK(!has_op(f, SIR_OP_CALL));
	sir_module_destroy(m);
	m = ext_module(T_I32, uuu, 3, NULL, 0, OpenCLstd_UMad_sat,
		       (uint32_t[]){ P(0), P(1), P(2) }, 3, err);
	REQUIRE(m);
	REQUIRE((f = helper(m)));
	CHECK(has_op(f, SIR_OP_UMULHI) && !has_op(f, SIR_OP_CALL));
	CHECK(find(m, "_Z7mad_satjjj") == NULL);
	sir_module_destroy(m);
	m = ext_module(T_F32, fp, 2, NULL, 0, OpenCLstd_Fract,
		       (uint32_t[]){ P(0), P(1) }, 2, err);
	REQUIRE(m);
	CHECK(find(m, "_Z5fractfPU3AS1f") != NULL);
	check_all_verify(m);
	sir_module_destroy(m);
}

/*
 * printf is one SIR_OP_PRINTF (format, then the arguments) that
 * sir_lower_printf lowers later; it returns an int and its format is a
 * pointer, or the build fails with a clear message.
 */
TEST(printf_op)
{
	static const uint32_t ff[2] = { T_F32, T_F32 };
	static const uint32_t pi[2] = { T_PG_F32, T_I32 };
	char err[512];
	struct sir_module *m;
	struct sir_function *f;
	uint32_t v;
	bool found = false;

	m = ext_module(T_I32, pi, 2, NULL, 0, OpenCLstd_Printf,
		       (uint32_t[]){ P(0), P(1) }, 2, err);
	REQUIRE(m);
	REQUIRE((f = helper(m)));
	for (v = 1; v < f->num_values; v++) {
		const struct sir_instr *in = &f->values[v];

		if (in->op != SIR_OP_PRINTF)
			continue;
		found = true;
		CHECK_EQ(in->num_srcs, 2);
		CHECK(in->type.kind == SIR_INT && in->type.bits == 32);
		CHECK(f->values[in->srcs[0]].op == SIR_OP_PARAM &&
		      f->values[in->srcs[0]].aux == 0);
		CHECK(f->values[in->srcs[1]].op == SIR_OP_PARAM &&
		      f->values[in->srcs[1]].aux == 1);
	}
	CHECK(found);
	check_all_verify(m);
	sir_module_destroy(m);
	m = ext_module(T_F32, ff, 2, NULL, 0, OpenCLstd_Printf,
		       (uint32_t[]){ P(0), P(1) }, 2, err);
	CHECK(!m && strstr(err, "printf: the result must be an int"));
	sir_module_destroy(m);
	m = ext_module(T_I32, ff, 2, NULL, 0, OpenCLstd_Printf,
		       (uint32_t[]){ P(0), P(1) }, 2, err);
	CHECK(!m && strstr(err, "printf: the format is not a pointer"));
	sir_module_destroy(m);
}

/* OpAtomicCompareExchange: Value is stored if *p equals Comparator. */
TEST(atomic_compare_exchange)
{
	static const uint32_t params[3] = { T_PL_I32, T_I32, T_I32 };
	const uint32_t decls[] = {
		4u << 16 | SpvOpConstant, T_I32, ID_USER, 2,   /* workgroup */
		4u << 16 | SpvOpConstant, T_I32, ID_USER + 1, 0,
	};
	const uint32_t body[] = {
		9u << 16 | SpvOpAtomicCompareExchange, T_I32, ID_BODY, P(0),
		ID_USER, ID_USER + 1, ID_USER + 1, P(1), P(2),
		2u << 16 | SpvOpReturnValue, ID_BODY,
	};
	char err[512];
	struct sir_module *m = assemble(T_I32, params, 3, decls,
					sizeof(decls) / 4, body,
					sizeof(body) / 4, err, sizeof(err));
	struct sir_function *f;
	bool found = false;

	if (!m)
		printf("  %s\n", err);
	REQUIRE(m);
	REQUIRE((f = helper(m)));
	for (uint32_t v = 1; v < f->num_values; v++) {
		const struct sir_instr *in = &f->values[v];

		if (in->op != SIR_OP_ATOMIC)
			continue;
		found = true;
		CHECK_EQ(in->aux2, SIR_ATOMIC_CMPXCHG);
		REQUIRE(in->num_srcs == 3);
		/* src1 the value stored, src2 the comparator */
		CHECK(f->values[in->srcs[1]].op == SIR_OP_PARAM &&
		      f->values[in->srcs[1]].aux == 1);
		CHECK(f->values[in->srcs[2]].op == SIR_OP_PARAM &&
		      f->values[in->srcs[2]].aux == 2);
		CHECK(sir_type_eq(in->type, sir_type_make(SIR_INT, 32, 1)));
	}
	CHECK(found);
	check_all_verify(m);
	sir_module_destroy(m);
}

/*
 * 64-bit atomics (Int64Atomics, cl_khr_int64_*_atomics) are SIR atomics
 * on 64-bit ints; a 64-bit atomic load (OpenCL 2.0's atomic_load, not in
 * 1.2) and a 16-bit atomic are refused with a message.
 */
TEST(atomic_64)
{
	static const uint32_t params[2] = { T_PG_I64, T_I64 };
	static const uint32_t params16[2] = { T_PG_I16, T_I16 };
	const uint32_t decls[] = {
		4u << 16 | SpvOpConstant, T_I32, ID_USER, 1,   /* device */
		4u << 16 | SpvOpConstant, T_I32, ID_USER + 1, 0,
	};
	const uint32_t body[] = {
		7u << 16 | SpvOpAtomicUMax, T_I64, ID_BODY, P(0), ID_USER,
		ID_USER + 1, P(1),
		2u << 16 | SpvOpReturnValue, ID_BODY,
	};
	const uint32_t load[] = {
		6u << 16 | SpvOpAtomicLoad, T_I64, ID_BODY, P(0), ID_USER,
		ID_USER + 1,
		2u << 16 | SpvOpReturnValue, ID_BODY,
	};
	const uint32_t add16[] = {
		7u << 16 | SpvOpAtomicIAdd, T_I16, ID_BODY, P(0), ID_USER,
		ID_USER + 1, P(1),
		2u << 16 | SpvOpReturnValue, ID_BODY,
	};
	char err[512];
	struct sir_module *m = assemble(T_I64, params, 2, decls,
					sizeof(decls) / 4, body,
					sizeof(body) / 4, err, sizeof(err));
	struct sir_function *f;
	bool found = false;

	if (!m)
		printf("  %s\n", err);
	REQUIRE(m);
	REQUIRE((f = helper(m)));
	for (uint32_t v = 1; v < f->num_values; v++) {
		const struct sir_instr *in = &f->values[v];

		if (in->op != SIR_OP_ATOMIC)
			continue;
		found = true;
		CHECK_EQ(in->aux2, SIR_ATOMIC_UMAX);
		REQUIRE(in->num_srcs == 2);
		CHECK(f->values[in->srcs[1]].op == SIR_OP_PARAM &&
		      f->values[in->srcs[1]].aux == 1);
		CHECK(sir_type_eq(in->type, sir_type_make(SIR_INT, 64, 1)));
	}
	CHECK(found);
	check_all_verify(m);
	sir_module_destroy(m);
	m = assemble(T_I64, params, 1, decls, sizeof(decls) / 4, load,
		     sizeof(load) / 4, err, sizeof(err));
	CHECK(!m && strstr(err, "unsupported 64-bit atomic"));
	sir_module_destroy(m);
	m = assemble(T_I16, params16, 2, decls, sizeof(decls) / 4, add16,
		     sizeof(add16) / 4, err, sizeof(err));
	CHECK(!m && strstr(err, "unsupported 16-bit atomic"));
	sir_module_destroy(m);
}

/*
 * OpenCL C's image types: a 2D image's size query reads its image words
 * (SIR_OP_IMAGE_WORD); types OpenCL C 1.2 has no image for (cube,
 * depth, read_write) and a query result of the wrong shape are refused.
 */
static struct sir_module *image_module(uint32_t dim, uint32_t depth,
				       uint32_t access, uint32_t result,
				       char *err)
{
	const uint32_t decls[] = {
		10u << 16 | SpvOpTypeImage, ID_USER, T_VOID, dim, depth, 0, 0,
		0, SpvImageFormatUnknown, access,
		4u << 16 | SpvOpConstant, T_I32, ID_USER + 1, 0,
	};
	/* The helper's type precedes decls: the image is an undef. */
	const uint32_t body[] = {
		3u << 16 | SpvOpUndef, ID_USER, ID_BODY + 2,
		5u << 16 | SpvOpImageQuerySizeLod, result, ID_BODY,
		ID_BODY + 2, ID_USER + 1,
		5u << 16 | SpvOpCompositeExtract, T_I32, ID_BODY + 1, ID_BODY, 1,
		2u << 16 | SpvOpReturnValue, ID_BODY + 1,
	};
	const uint32_t params[] = { T_I32 };

	return assemble(T_I32, params, 1, decls, sizeof(decls) / 4, body,
			sizeof(body) / 4, err, 512);
}

TEST(image_types)
{
	char err[512] = "";
	struct sir_module *m = image_module(SpvDim2D, 0,
					    SpvAccessQualifierReadOnly,
					    T_V2I32, err);
	const struct {
		uint32_t dim, depth, access, result;
		const char *needle;
	} bad[] = {
		{ SpvDimCube, 0, SpvAccessQualifierReadOnly, T_V2I32,
		  "dimension 3" },
		{ SpvDim2D, 1, SpvAccessQualifierReadOnly, T_V2I32, "depth" },
		{ SpvDim2D, 0, SpvAccessQualifierReadWrite, T_V2I32,
		  "read_write" },
		{ SpvDim3D, 0, SpvAccessQualifierReadOnly, T_V2I32,
		  "not 3 32-bit integers" },
	};

	if (!m)
		printf("  %s\n", err);
	REQUIRE(m);
	CHECK(has_op(helper(m), SIR_OP_IMAGE_WORD));
	check_all_verify(m);
	sir_module_destroy(m);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		m = image_module(bad[i].dim, bad[i].depth, bad[i].access,
				 bad[i].result, err);
		CHECK(!m && strstr(err, bad[i].needle));
		if (m || !strstr(err, bad[i].needle))
			printf("  case %zu: %s\n", i, m ? "(accepted)" : err);
		sir_module_destroy(m);
	}
}

int main(int argc, char **argv)
{
	char err[256];

	paths = argv + 1;
	num_paths = argc - 1;
	lib = spirv_library_load(LIB_PATH, err, sizeof(err));
	if (!lib) {
		printf("cannot load %s: %s\n", LIB_PATH, err);
		return 1;
	}
	RUN(vecadd);
	RUN(reduce);
	RUN(mixed);
	RUN(no_library);
	RUN(errors);
	RUN(integer_builtins);
	RUN(lane_selection);
	RUN(native_and_library_names);
	RUN(printf_op);
	RUN(atomic_compare_exchange);
	RUN(atomic_64);
	RUN(image_types);
	spirv_library_free(lib);
	printf("%d passed, %d failed\n", check_state.passed, check_state.failed);
	return check_state.failed ? 1 : 0;
}
