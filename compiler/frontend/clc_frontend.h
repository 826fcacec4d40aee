/* SPDX-License-Identifier: MIT */
/*
 * OpenCL C to SPIR-V through Debian's clang-15 and llvm-spirv-15, run as
 * child processes (no shell) in a private temporary directory.
 *
 * The programs are found through $SLEIPNIR_CLANG and $SLEIPNIR_LLVM_SPIRV
 * when set (a path, or a name looked up in $PATH), else as clang-15 /
 * llvm-spirv-15 (then clang / llvm-spirv) in $PATH.
 */
#ifndef SLEIPNIR_CLC_FRONTEND_H
#define SLEIPNIR_CLC_FRONTEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../sleipnir_compiler.h"
#include "clc_log.h"
#include "clc_options.h"

struct clc_spirv {
	uint32_t *words;             /* malloc'ed */
	size_t num_words;
	/*
	 * False when the source included files of its own: their contents
	 * are not part of the cache key, so the result must not be cached.
	 */
	bool cacheable;
};

/*
 * Compiles `source` with the parsed options. The log gets clang's stderr
 * verbatim, then llvm-spirv's, then our own lines. SLC_OK fills out.
 */
enum slc_status clc_compile(const char *source, const struct clc_options *o,
			    struct clc_spirv *out, struct clc_log *log);

/*
 * The tools' identity for the cache key: resolved paths, sizes and
 * modification times. False (with a log line) when a tool is missing.
 */
bool clc_tools_identity(char *buf, size_t size, struct clc_log *log);

#endif
