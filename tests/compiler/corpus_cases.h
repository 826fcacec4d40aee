/* SPDX-License-Identifier: MIT */
/*
 * The corpus: every kernel of tests/compiler/corpus/ with its inputs and
 * its C reference. Shared by test_corpus (correctness), test_code_quality
 * (the vector/scalar ratios, no spills in the seeds) and bench_compiler.
 */
#ifndef SLEIPNIR_CORPUS_CASES_H
#define SLEIPNIR_CORPUS_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include "corpus_runner.h"

enum corpus_kind {
	CORPUS_SEED,                 /* the seed programs */
	CORPUS_FEATURE,              /* one language feature each */
	CORPUS_TWIN,                 /* a vector/scalar code-quality twin */
};

struct corpus_case;

/*
 * Fills the inputs, launches, compares with the reference; sets *elements
 * to the number of output elements (for cycles per element).
 */
typedef bool corpus_run_fn(struct cr_session *s, const struct slb_program *p,
			   const struct corpus_case *c, uint32_t *elements);

struct corpus_case {
	const char *name;            /* corpus/<name>.cl and its kernel */
	enum corpus_kind kind;
	corpus_run_fn *run;
	const void *spec;            /* the run function's parameters */
	const char *vector_twin;     /* scalar twins: the float4 kernel */
};

struct corpus_outcome {
	bool built;                  /* compiled and parsed */
	bool passed;                 /* and matched the reference */
	char *log;                   /* the build log when not built */
	struct slb_kernel kernel;    /* the kernel's figures when built (no
				      * name, attributes or arguments) */
	struct cr_figures figures;   /* the model's counts of its launches */
	uint32_t elements;
};

extern const struct corpus_case corpus_cases[];
extern const unsigned int corpus_num_cases;

/* Kernels that must not build: an unsupported construct each. */
extern const char *const corpus_unsupported[];
extern const unsigned int corpus_num_unsupported;

const struct corpus_case *corpus_find(const char *name);
/* The source of corpus/<name>.cl, malloc'ed, or NULL with a message. */
char *corpus_source(const char *name);
/* Compiles, runs and checks one case; the session is reset first. */
bool corpus_run(struct cr_session *s, const struct corpus_case *c,
		struct corpus_outcome *o);
/*
 * The same in a child process, so that a compiler or model crash fails
 * this case only (reported as such); the log does not come back.
 */
bool corpus_run_isolated(struct cr_session *s, const struct corpus_case *c,
			 struct corpus_outcome *o);
void corpus_outcome_free(struct corpus_outcome *o);
/* Arithmetic-pipe cycles per output element measured on the model. */
double corpus_arith_per_element(const struct corpus_outcome *o);

#endif
