/* SPDX-License-Identifier: MIT */
/*
 * A few helpers for the simulator's unit tests: CHECK() records a failure
 * and goes on, so one run lists every broken expectation; the program's
 * exit status says whether any failed.
 */
#ifndef SIM_TEST_H
#define SIM_TEST_H

#include <stdio.h>
#include <stdlib.h>

static int sim_test_failures;
static int sim_test_checks;

#define CHECK(cond)							\
	do {								\
		sim_test_checks++;					\
		if (!(cond)) {						\
			sim_test_failures++;				\
			fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n",	\
				__FILE__, __LINE__, __func__, #cond);	\
		}							\
	} while (0)

/* Compares an int result with its expected value, printing both. */
#define CHECK_EQ(got, want)						\
	do {								\
		long long g_ = (long long)(got), w_ = (long long)(want); \
		sim_test_checks++;					\
		if (g_ != w_) {						\
			sim_test_failures++;				\
			fprintf(stderr, "%s:%d: %s: %s is %lld, want %lld\n", \
				__FILE__, __LINE__, __func__, #got, g_, w_); \
		}							\
	} while (0)

#define RUN(test)							\
	do {								\
		int before_ = sim_test_failures;			\
		test();							\
		printf("%s %s\n", sim_test_failures == before_ ?	\
		       "ok  " : "FAIL", #test);				\
	} while (0)

static inline int sim_test_finish(void)
{
	printf("%d checks, %d failed\n", sim_test_checks, sim_test_failures);
	return sim_test_failures ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
