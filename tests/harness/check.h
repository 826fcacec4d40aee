/* SPDX-License-Identifier: MIT */
/*
 * A minimal test harness shared by Sleipnir's C test programs, host and guest.
 *
 * A test program defines test functions with TEST(name) and runs them from
 * main() with RUN(name). CHECK*() record a failure and carry on; REQUIRE()
 * records one and leaves the current test. check_summary() prints the line the
 * top-level runner counts, "<suite>: N passed, N failed", and returns the exit
 * status.
 */
#ifndef SLEIPNIR_CHECK_H
#define SLEIPNIR_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct check_state {
	const char *suite;
	const char *test;
	int test_failed;
	int passed;
	int failed;
	int skipped;
	int skip_current;
};

extern struct check_state check_state;

/* Put once in exactly one file of a test program. */
#define CHECK_MAIN_STATE(suite_name) struct check_state check_state = { .suite = suite_name }

#define TEST(name) static void test_##name(void)

#define RUN(name)                                                              \
	do {                                                                   \
		check_state.test = #name;                                      \
		check_state.test_failed = 0;                                   \
		check_state.skip_current = 0;                                  \
		test_##name();                                                 \
		if (check_state.skip_current) {                                \
			check_state.skipped++;                                 \
			printf("skip %s\n", #name);                            \
		} else if (check_state.test_failed) {                          \
			check_state.failed++;                                  \
			printf("FAIL %s\n", #name);                            \
		} else {                                                       \
			check_state.passed++;                                  \
			printf("ok   %s\n", #name);                            \
		}                                                              \
		fflush(stdout);                                                \
	} while (0)

#define CHECK_FAIL_AT(file, line, ...)                                         \
	do {                                                                   \
		check_state.test_failed = 1;                                   \
		printf("  %s:%d: ", file, line);                               \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
	} while (0)

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			CHECK_FAIL_AT(__FILE__, __LINE__, "check failed: %s",  \
				      #cond);                                  \
	} while (0)

/* Compares two integers of any width, printing both on failure. */
#define CHECK_EQ(a, b)                                                         \
	do {                                                                   \
		uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);   \
		if (check_a_ != check_b_)                                      \
			CHECK_FAIL_AT(__FILE__, __LINE__,                      \
				      "%s == %s: 0x%" PRIx64 " != 0x%" PRIx64, \
				      #a, #b, check_a_, check_b_);             \
	} while (0)

/*
 * Compares two error codes in the project's convention (0 or a negative
 * errno, as userspace/drm/sl_drm.h returns them), printing both by name.
 */
#define CHECK_ERRNO(got, want)                                                 \
	do {                                                                   \
		int check_got_ = (got), check_want_ = (want);                  \
		if (check_got_ != check_want_)                                 \
			CHECK_FAIL_AT(__FILE__, __LINE__,                      \
				      "%s: %d (%s), expected %d (%s)", #got,   \
				      check_got_, strerror(-check_got_),       \
				      check_want_, strerror(-check_want_));    \
	} while (0)

#define REQUIRE(cond)                                                          \
	do {                                                                   \
		if (!(cond)) {                                                 \
			CHECK_FAIL_AT(__FILE__, __LINE__,                      \
				      "requirement failed: %s", #cond);        \
			return;                                                \
		}                                                              \
	} while (0)

#define SKIP(...)                                                              \
	do {                                                                   \
		check_state.skip_current = 1;                                  \
		printf("  skipped: ");                                         \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
		return;                                                        \
	} while (0)

static inline int check_summary(void)
{
	printf("%s: %d passed, %d failed", check_state.suite,
	       check_state.passed, check_state.failed);
	if (check_state.skipped)
		printf(", %d skipped", check_state.skipped);
	printf("\n");
	fflush(stdout);
	return check_state.failed ? 1 : 0;
}

#endif
