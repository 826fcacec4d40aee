/* SPDX-License-Identifier: MIT */
/*
 * The SPIR-V reader on modules built from the .cl files of
 * tests/compiler/spirv_fuzz (paths in argv: vecadd, reduce, mixed, each at
 * -O2 and -O0) and on
 * malformed modules. Expectations come from the OpenCL sources.
 */
#include "check.h"
#include "spirv_reader.h"

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
	spirv_library_free(lib);
	printf("%d passed, %d failed\n", check_state.passed, check_state.failed);
	return check_state.failed ? 1 : 0;
}
