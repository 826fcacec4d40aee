/* SPDX-License-Identifier: MIT */
/*
 * Mutation fuzzing of the SPIR-V reader: real modules (argv) get bit flips,
 * random words, truncation, splices and id swaps; every mutant goes to
 * spirv_to_sir() with and without libclc. The reader must not crash
 * (ASan/UBSan watch), must give a message when it fails, and whatever it
 * accepts must pass sir_verify. SPIRV_FUZZ_CASES (10000) and
 * SPIRV_FUZZ_SEED (1) override the defaults.
 */
#include "check.h"
#include "spirv_reader.h"
#include "xorshift.h"

CHECK_MAIN_STATE("spirv_fuzz");

static uint64_t rng_state;

static uint32_t rnd(void)
{
	/* Reproducible from the seed on every platform. */
	return (uint32_t)(xorshift64star(&rng_state) >> 32);
}

struct module {
	uint32_t *w;
	size_t n;
};

static size_t mutate(const struct module *src, const struct module *other,
		     uint32_t *out)
{
	size_t n = src->n, i, k = 1 + rnd() % 4;

	memcpy(out, src->w, n * 4);
	while (k--) {
		size_t at = 5 + rnd() % (n - 5), len;

		switch (rnd() % 6) {
		case 0: /* bit flip */
			out[at] ^= 1u << (rnd() % 32);
			break;
		case 1: /* random word, often small (ids, counts) */
			out[at] = rnd() % 2 ? rnd() % 64 : rnd();
			break;
		case 2: /* truncation */
			n = at;
			break;
		case 3: /* splice from the other module */
			len = 1 + rnd() % 16;
			i = rnd() % other->n;
			if (len > other->n - i)
				len = other->n - i;
			if (len > n - at)
				len = n - at;
			memcpy(&out[at], &other->w[i], len * 4);
			break;
		case 4: { /* swap two words (ids, mostly) */
			size_t b = 5 + rnd() % (n - 5);
			uint32_t t = out[at];

			out[at] = out[b];
			out[b] = t;
			break;
		}
		default: /* opcode change, word count kept */
			out[at] = (out[at] & 0xffff0000u) | (rnd() % 400);
			break;
		}
		if (n <= 5)
			break;
	}
	return n;
}

int main(int argc, char **argv)
{
	const char *cases_env = getenv("SPIRV_FUZZ_CASES");
	const char *seed_env = getenv("SPIRV_FUZZ_SEED");
	unsigned long cases = cases_env ? strtoul(cases_env, NULL, 0) : 10000;
	struct module mods[16];
	int num = 0, accepted = 0, rejected = 0, bad = 0;
	struct spirv_library *lib;
	char err[512];
	uint32_t *buf;

	rng_state = seed_env ? strtoull(seed_env, NULL, 0) : 1;
	if (!rng_state)
		rng_state = 1;
	lib = spirv_library_load("/usr/lib/clc/spirv-mesa3d-.spv", err,
				 sizeof(err));
	if (!lib) {
		printf("cannot load the library: %s\n", err);
		return 1;
	}
	for (int i = 1; i < argc && num < 16; i++) {
		FILE *f = fopen(argv[i], "rb");

		mods[num].w = malloc(1u << 22);
		mods[num].n = f ? fread(mods[num].w, 4, 1u << 20, f) : 0;
		if (f)
			fclose(f);
		if (mods[num].n > 5)
			num++;
		else
			free(mods[num].w);
	}
	if (!num) {
		printf("no modules given\n");
		return 1;
	}
	buf = malloc(1u << 22);
	for (unsigned long c = 0; c < cases; c++) {
		const struct module *src = &mods[rnd() % num];
		size_t n = mutate(src, &mods[rnd() % num], buf);

		for (int with_lib = 0; with_lib < 2; with_lib++) {
			struct sir_module *m;

			err[0] = '\0';
			m = spirv_to_sir(buf, n, with_lib ? lib : NULL, err,
					 sizeof(err));
			if (!m) {
				rejected++;
				if (!err[0]) {
					bad++;
					printf("case %lu: failure without a "
					       "message\n", c);
				}
				continue;
			}
			accepted++;
			for (uint32_t i = 0; i < m->num_functions; i++) {
				if (!sir_verify(m->functions[i], err,
						sizeof(err))) {
					bad++;
					printf("case %lu: accepted but %s\n",
					       c, err);
				}
			}
			sir_module_destroy(m);
		}
	}
	printf("%lu cases: %d accepted, %d rejected, %d bad\n", cases,
	       accepted, rejected, bad);
	check_state.passed = bad ? 0 : 1;
	check_state.failed = bad ? 1 : 0;
	printf("%d passed, %d failed\n", check_state.passed,
	       check_state.failed);
	for (int i = 0; i < num; i++)
		free(mods[i].w);
	free(buf);
	spirv_library_free(lib);
	return bad ? 1 : 0;
}
