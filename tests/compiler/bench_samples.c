/* SPDX-License-Identifier: MIT */
/*
 * The execution engine's benchmark on the host (`make bench`): the kernels
 * of four samples (tests/samples: sgemm, fir, vector_add, mandelbrot) at
 * the samples' sizes, and a mad() chain whose values overflow to infinity
 * and NaN as clpeak's compute-sp's do, compiled from the corpus and run on
 * the model core through the compute harness, each result checked against
 * C. Prints one
 * JSON object: per kernel the host seconds (wall, and CPU time of the
 * process; the shader cores run on every host CPU), the work-items and
 * the work-item-instructions (ALU and load/store instructions over all
 * threads) per second of wall time.
 *
 * Usage: bench_samples [repeats [sample]]
 *        (best of `repeats` runs, default 3; every sample or the one named)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "corpus_runner.h"

struct sample {
	const char *name;
	const char *kernel_file;
	bool (*setup)(struct cr_session *s, void **state);
	bool (*launch)(struct cr_session *s, const struct slb_program *p,
		       void *state);
	bool (*check)(struct cr_session *s, void *state);
	uint64_t work_items;
};

/* CPU time of the process: steadier than wall time on a busy host. */
static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t rnd_state = 12345;

static float rnd_float(float lo, float hi)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return lo + (hi - lo) * (float)(rnd_state & 0xFFFFFF) / 16777216.0f;
}

static float *floats(struct cr_session *s, uint32_t n, uint32_t *va)
{
	float *p = cr_alloc(s, n * 4u, va);

	for (uint32_t i = 0; p && i < n; i++)
		p[i] = rnd_float(-2, 2);
	return p;
}

static bool close_enough(const char *what, const float *got,
			 const float *want, uint32_t n, float tol)
{
	for (uint32_t i = 0; i < n; i++) {
		if (fabsf(got[i] - want[i]) > tol * (1 + fabsf(want[i]))) {
			fprintf(stderr, "%s: [%u] = %g, want %g\n", what, i,
				got[i], want[i]);
			return false;
		}
	}
	return true;
}

/* sgemm: C = alpha A B + beta C, 128 x 128 x 32, 8 x 8 work-groups. */
#define GM 128u
#define GN 128u
#define GK 32u
struct sgemm_state {
	uint32_t a_va, b_va, c_va;
	float *a, *b, *c, c0[GM * GN];
};

static bool sgemm_setup(struct cr_session *s, void **state)
{
	struct sgemm_state *st = calloc(1, sizeof(*st));

	if (!st)
		return false;
	*state = st;
	st->a = floats(s, GM * GK, &st->a_va);
	st->b = floats(s, GK * GN, &st->b_va);
	st->c = floats(s, GM * GN, &st->c_va);
	if (!st->a || !st->b || !st->c)
		return false;
	memcpy(st->c0, st->c, sizeof(st->c0));
	return true;
}

static const float sgemm_alpha = 1.5f, sgemm_beta = -0.75f;

static bool sgemm_launch(struct cr_session *s, const struct slb_program *p,
			 void *state)
{
	struct sgemm_state *st = state;
	const uint32_t k = GK;

	memcpy(st->c, st->c0, sizeof(st->c0));
	return cr_launch(s, p, "sgemm", (struct cr_arg[]){ CR_BUF(st->a_va),
			 CR_BUF(st->b_va), CR_BUF(st->c_va), CR_VAL(&k),
			 CR_VAL(&sgemm_alpha), CR_VAL(&sgemm_beta) }, 6,
			 &CR_2D(GN, GM, 8, 8));
}

static bool sgemm_check(struct cr_session *s, void *state)
{
	struct sgemm_state *st = state;
	static float want[GM * GN];

	(void)s;
	for (uint32_t r = 0; r < GM; r++) {
		for (uint32_t c = 0; c < GN; c++) {
			float acc = 0;

			for (uint32_t q = 0; q < GK; q++)
				acc += st->a[r * GK + q] * st->b[q * GN + c];
			want[r * GN + c] = sgemm_alpha * acc +
					   sgemm_beta * st->c0[r * GN + c];
		}
	}
	return close_enough("sgemm", st->c, want, GM * GN, 1e-4f);
}

/* fir: 16 taps, 16384 outputs, 64-item work-groups. */
#define FN 16384u
#define FTAPS 16u
struct fir_state {
	uint32_t in_va, taps_va, out_va;
	float *in, *taps, *out;
};

static bool fir_setup(struct cr_session *s, void **state)
{
	struct fir_state *st = calloc(1, sizeof(*st));

	if (!st)
		return false;
	*state = st;
	st->in = floats(s, FN + FTAPS, &st->in_va);
	st->taps = floats(s, FTAPS, &st->taps_va);
	st->out = cr_alloc(s, FN * 4, &st->out_va);
	return st->in && st->taps && st->out;
}

static bool fir_launch(struct cr_session *s, const struct slb_program *p,
		       void *state)
{
	struct fir_state *st = state;
	const uint32_t taps = FTAPS;

	return cr_launch(s, p, "fir", (struct cr_arg[]){ CR_BUF(st->in_va),
			 CR_BUF(st->taps_va), CR_BUF(st->out_va),
			 CR_VAL(&taps) }, 4, &CR_1D(FN, 64));
}

static bool fir_check(struct cr_session *s, void *state)
{
	struct fir_state *st = state;
	static float want[FN];

	(void)s;
	for (uint32_t i = 0; i < FN; i++) {
		float acc = 0;

		for (uint32_t k = 0; k < FTAPS; k++)
			acc += st->taps[k] * st->in[i + k];
		want[i] = acc;
	}
	return close_enough("fir", st->out, want, FN, 1e-5f);
}

/* vector_add: 65536 float4, 64-item work-groups. */
#define VN 65536u
struct vadd_state {
	uint32_t a_va, b_va, out_va;
	float *a, *b, *out;
};

static bool vadd_setup(struct cr_session *s, void **state)
{
	struct vadd_state *st = calloc(1, sizeof(*st));

	if (!st)
		return false;
	*state = st;
	st->a = floats(s, VN * 4, &st->a_va);
	st->b = floats(s, VN * 4, &st->b_va);
	st->out = cr_alloc(s, VN * 16, &st->out_va);
	return st->a && st->b && st->out;
}

static bool vadd_launch(struct cr_session *s, const struct slb_program *p,
			void *state)
{
	struct vadd_state *st = state;

	return cr_launch(s, p, "vadd_vec4", (struct cr_arg[]){
			 CR_BUF(st->a_va), CR_BUF(st->b_va),
			 CR_BUF(st->out_va) }, 3, &CR_1D(VN, 64));
}

static bool vadd_check(struct cr_session *s, void *state)
{
	struct vadd_state *st = state;

	(void)s;
	for (uint32_t i = 0; i < VN * 4; i++) {
		if (st->out[i] != st->a[i] + st->b[i]) {
			fprintf(stderr, "vector_add: [%u] = %g, want %g\n", i,
				st->out[i], st->a[i] + st->b[i]);
			return false;
		}
	}
	return true;
}

/* mandelbrot: 256 x 192, 64 iterations, 8 x 8 work-groups. */
#define MW 256u
#define MH 192u
#define MITER 64u
static const float mandel_x0 = -2.0f, mandel_y0 = -1.125f,
		   mandel_step = 3.0f / MW;

struct mandel_state {
	uint32_t out_va;
	uint32_t *out;
};

static bool mandel_setup(struct cr_session *s, void **state)
{
	struct mandel_state *st = calloc(1, sizeof(*st));

	if (!st)
		return false;
	*state = st;
	st->out = cr_alloc(s, MW * MH * 4, &st->out_va);
	return st->out;
}

static bool mandel_launch(struct cr_session *s, const struct slb_program *p,
			  void *state)
{
	struct mandel_state *st = state;
	const uint32_t iter = MITER;

	return cr_launch(s, p, "mandelbrot", (struct cr_arg[]){
			 CR_BUF(st->out_va), CR_VAL(&mandel_x0),
			 CR_VAL(&mandel_y0), CR_VAL(&mandel_step),
			 CR_VAL(&iter) }, 5, &CR_2D(MW, MH, 8, 8));
}

static bool mandel_check(struct cr_session *s, void *state)
{
	struct mandel_state *st = state;
	uint32_t different = 0;

	(void)s;
	for (uint32_t gy = 0; gy < MH; gy++) {
		for (uint32_t gx = 0; gx < MW; gx++) {
			float cx = mandel_x0 + (float)gx * mandel_step;
			float cy = mandel_y0 + (float)gy * mandel_step;
			float x = 0, y = 0;
			uint32_t n = 0;

			while (n < MITER && x * x + y * y <= 4.0f) {
				float xt = x * x - y * y + cx;

				y = 2.0f * x * y + cy;
				x = xt;
				n++;
			}
			different += st->out[gy * MW + gx] != n;
		}
	}
	if (different > MW * MH / 1000) {
		fprintf(stderr, "mandelbrot: %u pixels differ\n", different);
		return false;
	}
	return true;
}

/* mad_chain: 16384 float4 chains of 8 x 32 mad()s, 64-item work-groups. */
#define CN 16384u
#define CROUNDS 32u
static const float chain_a = 1.3f;

struct chain_state {
	uint32_t out_va;
	float *out;
};

static bool chain_setup(struct cr_session *s, void **state)
{
	struct chain_state *st = calloc(1, sizeof(*st));

	if (!st)
		return false;
	*state = st;
	st->out = cr_alloc(s, CN * 16, &st->out_va);
	return st->out;
}

static bool chain_launch(struct cr_session *s, const struct slb_program *p,
			 void *state)
{
	struct chain_state *st = state;
	const uint32_t rounds = CROUNDS;

	return cr_launch(s, p, "mad_chain", (struct cr_arg[]){
			 CR_BUF(st->out_va), CR_VAL(&chain_a),
			 CR_VAL(&rounds) }, 3, &CR_1D(CN, 64));
}

/* mad() is a multiply and an add here, each rounded (no contraction). */
static float chain_mad(float a, float b, float c)
{
	volatile float product = a * b;

	return product + c;
}

static bool chain_check(struct cr_session *s, void *state)
{
	struct chain_state *st = state;
	const float x0[4] = { chain_a, -chain_a, chain_a + 1.0f,
			      0.5f - chain_a };
	uint32_t specials = 0;

	(void)s;
	for (uint32_t i = 0; i < CN; i++) {
		for (uint32_t c = 0; c < 4; c++) {
			float x = x0[c], y = (float)(i % 64) * 0.25f;
			float got = st->out[i * 4 + c];

			for (uint32_t r = 0; r < CROUNDS * 4; r++) {
				x = chain_mad(y, x, y);
				y = chain_mad(x, y, x);
			}
			specials += !isfinite(y);
			if (isnan(y) ? !isnan(got) : got != y) {
				fprintf(stderr, "mad_chain: [%u].%u = %g, "
					"want %g\n", i, c, got, y);
				return false;
			}
		}
	}
	/* The bench is about special values: most lanes must reach them. */
	if (specials < CN * 2) {
		fprintf(stderr, "mad_chain: only %u infinite or NaN\n",
			specials);
		return false;
	}
	return true;
}

static const struct sample samples[] = {
	{ "sgemm", "sgemm", sgemm_setup, sgemm_launch, sgemm_check,
	  GM * GN },
	{ "fir", "fir", fir_setup, fir_launch, fir_check, FN },
	{ "vector_add", "vadd_vec4", vadd_setup, vadd_launch, vadd_check,
	  VN },
	{ "mandelbrot", "mandelbrot", mandel_setup, mandel_launch,
	  mandel_check, MW * MH },
	{ "mad_chain", "mad_chain", chain_setup, chain_launch, chain_check,
	  CN },
};

int main(int argc, char **argv)
{
	int repeats = argc > 1 ? atoi(argv[1]) : 3;
	/* The shader cores on every CPU of the host, as QEMU's glue runs them. */
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int host_threads = online > 0 ? (unsigned int)online : 1;
	struct cr_session s;
	unsigned int printed = 0;
	bool ok = true;

	if (repeats < 1)
		repeats = 1;
	printf("{\"benchmark\": \"engine_samples\", \"description\": "
	       "\"the samples' kernels at the samples' sizes on the model "
	       "core on the host (best of %d), checked against C\", "
	       "\"results\": [", repeats);
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		const struct sample *sm = &samples[i];
		struct slb_program prog;

		if (argc > 2 && strcmp(argv[2], sm->name))
			continue;
		char path[512];
		void *state = NULL;
		double best = 1e30, best_cpu = 1e30;
		uint64_t instructions = 0;

		if (!cr_init_engine(&s, SGPU_ENGINE_LOCKSTEP, host_threads))
			return 1;
		s.quiet = false;
		snprintf(path, sizeof(path), "%s/%s.cl", CORPUS_DIR,
			 sm->kernel_file);
		if (!cr_compile_file(path, "", &prog) ||
		    !sm->setup(&s, &state))
			return 1;
		for (int r = 0; r < repeats; r++) {
			double t0 = (double)now_ns() * 1e-9, dt;
			double c0 = cpu_seconds(), dc;

			s.figures = (struct cr_figures){ 0 };
			if (!sm->launch(&s, &prog, state)) {
				ok = false;
				break;
			}
			dt = (double)now_ns() * 1e-9 - t0;
			dc = cpu_seconds() - c0;
			if (dt < best)
				best = dt;
			if (dc < best_cpu)
				best_cpu = dc;
			instructions = s.figures.alu_instructions +
				       s.figures.ldst_instructions;
		}
		if (ok && !sm->check(&s, state))
			ok = false;
		printf("%s\n  {\"name\": \"%s\", \"work_items\": %llu, "
		       "\"host_seconds\": %.6f, \"cpu_seconds\": %.6f, "
		       "\"work_item_instructions\": "
		       "%llu, \"work_item_instructions_per_second\": %.0f, "
		       "\"correct\": %s}", printed++ ? "," : "", sm->name,
		       (unsigned long long)sm->work_items, best, best_cpu,
		       (unsigned long long)instructions,
		       (double)instructions / best, ok ? "true" : "false");
		free(state);
		slb_program_free(&prog);
		if (!cr_fini(&s))
			ok = false;
	}
	printf("\n]}\n");
	return ok ? 0 : 1;
}
