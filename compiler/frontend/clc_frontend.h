/* SPDX-License-Identifier: MIT */
/*
 * OpenCL C to SPIR-V through Debian's clang-15, opt-15 and llvm-spirv-15,
 * run as child processes (no shell) in a private temporary directory; and
 * the same in separate steps for clCompileProgram / clLinkProgram, with
 * llvm-link-15 joining bitcode modules.
 *
 * The programs are found through $SLEIPNIR_CLANG, $SLEIPNIR_LLVM_OPT,
 * $SLEIPNIR_LLVM_SPIRV and $SLEIPNIR_LLVM_LINK when set (a path, or a name
 * looked up in $PATH), else as clang-15 / opt-15 / llvm-spirv-15 /
 * llvm-link-15 (then without the suffix) in $PATH.
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
	/* The kernels whose vec_type_hint is unsigned (clc_vec_hint.h), or
	 * NULL: SPIR-V cannot say. */
	char *unsigned_vec_hints;
};

/* Frees the words and the list. */
void clc_spirv_free(struct clc_spirv *s);

/* Bytes a step made (LLVM bitcode), malloc'ed. */
struct clc_blob {
	uint8_t *data;
	size_t size;
};

/*
 * Compiles `source` with the parsed options. The log gets clang's stderr
 * verbatim, then llvm-spirv's, then our own lines. SLC_OK fills out.
 */
enum slc_status clc_compile(const char *source, const struct clc_options *o,
			    struct clc_spirv *out, struct clc_log *log);

/*
 * clang alone: OpenCL C to unoptimised LLVM bitcode (a compiled object's
 * payload). Each header is written under its include name in a folder
 * searched first for #include (clCompileProgram's embedded headers).
 */
enum slc_status clc_compile_bitcode(const char *source,
				    const struct clc_options *o,
				    const struct slc_header *headers,
				    size_t num_headers, struct clc_blob *out,
				    struct clc_log *log);

/* llvm-spirv -r: a SPIR-V module back to LLVM bitcode. */
enum slc_status clc_spirv_to_bitcode(const uint32_t *words, size_t n,
				     struct clc_blob *out,
				     struct clc_log *log);

/* llvm-link: n bitcode modules into one; the log gets llvm-link's
 * diagnostics (duplicate or mismatched definitions). */
enum slc_status clc_link_bitcode(const struct clc_blob *inputs, size_t n,
				 struct clc_blob *out, struct clc_log *log);

/* The rest of clc_compile() from bitcode: opt (when @optimize), then
 * llvm-spirv. */
enum slc_status clc_bitcode_to_spirv(const uint8_t *bitcode, size_t size,
				     bool optimize, struct clc_spirv *out,
				     struct clc_log *log);

/*
 * The tools' identity for the cache key: resolved paths, sizes and
 * modification times. False (with a log line) when a tool is missing.
 */
bool clc_tools_identity(char *buf, size_t size, struct clc_log *log);

#endif
