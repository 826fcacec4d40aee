/* SPDX-License-Identifier: MIT */
/*
 * Code quality measured on the model's cycle counts: each float4 twin
 * needs at least 3.5x fewer arithmetic-pipe cycles per element than its
 * scalar twin (issue 6's target), and no seed kernel spills.
 */
#include <stdio.h>

#include "check.h"
#include "corpus_cases.h"

CHECK_MAIN_STATE("code_quality");

#define MIN_RATIO 3.5

static struct cr_session session;

static bool run_case(const char *name, struct corpus_outcome *o)
{
	const struct corpus_case *c = corpus_find(name);

	if (!c) {
		printf("  no corpus case %s\n", name);
		return false;
	}
	if (corpus_run_isolated(&session, c, o))
		return true;
	printf("  %s does not run correctly\n", name);
	corpus_outcome_free(o);
	return false;
}

TEST(vector_twins_need_fewer_arith_cycles)
{
	for (unsigned int k = 0; k < corpus_num_cases; k++) {
		const struct corpus_case *c = &corpus_cases[k];
		struct corpus_outcome scalar, vector;
		double ratio;

		if (!c->vector_twin)
			continue;
		if (!run_case(c->name, &scalar)) {
			CHECK(!"scalar twin runs");
			continue;
		}
		if (!run_case(c->vector_twin, &vector)) {
			corpus_outcome_free(&scalar);
			CHECK(!"vector twin runs");
			continue;
		}
		ratio = corpus_arith_per_element(&vector) > 0 ?
			corpus_arith_per_element(&scalar) /
			corpus_arith_per_element(&vector) : 0;
		printf("  %s / %s: %.3f / %.3f arith cycles per element, "
		       "ratio %.2f\n", c->name, c->vector_twin,
		       corpus_arith_per_element(&scalar),
		       corpus_arith_per_element(&vector), ratio);
		CHECK(ratio >= MIN_RATIO);
		corpus_outcome_free(&scalar);
		corpus_outcome_free(&vector);
	}
}

TEST(seed_kernels_do_not_spill)
{
	for (unsigned int k = 0; k < corpus_num_cases; k++) {
		const struct corpus_case *c = &corpus_cases[k];
		struct corpus_outcome o;

		if (c->kind != CORPUS_SEED)
			continue;
		if (!run_case(c->name, &o)) {
			CHECK(!"seed kernel runs");
			continue;
		}
		if (o.kernel.stats.spills || o.kernel.stats.fills)
			printf("  %s: %u spills, %u fills\n", c->name,
			       o.kernel.stats.spills, o.kernel.stats.fills);
		CHECK_EQ(o.kernel.stats.spills, 0);
		CHECK_EQ(o.kernel.stats.fills, 0);
		corpus_outcome_free(&o);
	}
}

int main(void)
{
	if (!cr_init(&session)) {
		printf("code_quality: the model did not start\n");
		return 1;
	}
	RUN(vector_twins_need_fewer_arith_cycles);
	RUN(seed_kernels_do_not_spill);
	if (!cr_fini(&session)) {
		printf("code_quality: the model reported a guard-zone write\n");
		check_state.failed++;
	}
	return check_summary();
}
