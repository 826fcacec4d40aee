/* SPDX-License-Identifier: MIT */
/*
 * clBuildProgram options (OpenCL 1.2 §5.6.4) turned into clang arguments
 * and the few facts the later stages need.
 */
#ifndef SLEIPNIR_CLC_OPTIONS_H
#define SLEIPNIR_CLC_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "clc_log.h"

struct clc_options {
	char **clang_args;           /* for clang -cc1, in the user's order */
	unsigned int num_clang_args;
	bool opt_disable;            /* -cl-opt-disable: clang at -O0 */
	bool fast_math;              /* -cl-fast-relaxed-math or
				      * -cl-unsafe-math-optimizations */
	uint32_t wg_size;            /* -sleipnir-wg-size=N; 0: none */
	bool denorms_are_zero;       /* -cl-denorms-are-zero */
};

/*
 * Parses `options` (NULL or "" = none). Words are split at white space;
 * single and double quotes group, a backslash escapes the next character.
 * False with a log line naming the option on anything OpenCL 1.2 does not
 * list (CL_INVALID_BUILD_OPTIONS).
 */
bool clc_options_parse(const char *options, struct clc_options *o,
		       struct clc_log *log);
void clc_options_free(struct clc_options *o);

/* clLinkProgram options (OpenCL 1.2 §5.6.5). */
struct clc_link_options {
	bool create_library;         /* -create-library */
	bool enable_link_options;    /* -enable-link-options */
	bool fast_math;              /* -cl-fast-relaxed-math or
				      * -cl-unsafe-math-optimizations */
	bool denorms_are_zero;       /* -cl-denorms-are-zero */
	uint32_t wg_size;            /* -sleipnir-wg-size=N; 0: none */
};

/*
 * Parses link options: -create-library, -enable-link-options (only with
 * -create-library), the program linking options -cl-denorms-are-zero,
 * -cl-no-signed-zeros, -cl-unsafe-math-optimizations,
 * -cl-finite-math-only, -cl-fast-relaxed-math, and -sleipnir-wg-size=N.
 * False with a log line on anything else (CL_INVALID_LINKER_OPTIONS).
 */
bool clc_link_options_parse(const char *options, struct clc_link_options *o,
			    struct clc_log *log);

#endif
