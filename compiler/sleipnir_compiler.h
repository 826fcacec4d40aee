/* SPDX-License-Identifier: MIT */
/*
 * The compiler as a library call: OpenCL C (or SPIR-V) in, a Sleipnir
 * program binary (compiler/binary/slb_binary.h) and a build log out. What
 * clBuildProgram, clCompileProgram, clCreateProgramWithIL and sleipnir-cc
 * call.
 */
#ifndef SLEIPNIR_COMPILER_H
#define SLEIPNIR_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum slc_status {
	SLC_OK = 0,
	SLC_BUILD_FAILED,            /* the log says why */
	SLC_INVALID_OPTIONS,         /* an option clBuildProgram rejects */
	SLC_OUT_OF_MEMORY,
};

struct slc_output {
	uint8_t *binary;             /* malloc'ed program binary, or NULL */
	size_t binary_size;
	char *log;                   /* malloc'ed, NUL-terminated, maybe "" */
	bool from_cache;             /* served by the disk cache */
};

/*
 * Compiles OpenCL C `source` with clBuildProgram `options` (NULL = none).
 * Returns SLC_OK with a binary, or an error with the log filled.
 */
enum slc_status slc_compile_source(const char *source, const char *options,
				   struct slc_output *out);
/* The same from a SPIR-V module (clCreateProgramWithIL). */
enum slc_status slc_compile_spirv(const uint32_t *words, size_t num_words,
				  const char *options, struct slc_output *out);
void slc_output_free(struct slc_output *out);

#endif
