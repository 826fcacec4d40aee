/* SPDX-License-Identifier: MIT */
/*
 * The build log: clang's and llvm-spirv's diagnostics verbatim, then our
 * own lines, in one growable string (what CL_PROGRAM_BUILD_LOG returns).
 */
#ifndef SLEIPNIR_CLC_LOG_H
#define SLEIPNIR_CLC_LOG_H

#include <stdbool.h>
#include <stddef.h>

struct clc_log {
	char *text;                  /* NUL-terminated, or NULL when empty */
	size_t len, cap;
	bool out_of_memory;          /* some text was dropped */
	/*
	 * The build failed because of its surroundings, not its input: a
	 * tool missing, not started or killed, no temporary directory or
	 * file, memory running out. A retry may succeed, so such a failure
	 * is never cached.
	 */
	bool transient;
};

void clc_log_append(struct clc_log *log, const char *data, size_t n);
__attribute__((format(printf, 2, 3)))
void clc_log_printf(struct clc_log *log, const char *fmt, ...);
/* Hands the text over (malloc'ed, maybe ""; NULL if out of memory). */
char *clc_log_take(struct clc_log *log);
void clc_log_free(struct clc_log *log);

#endif
