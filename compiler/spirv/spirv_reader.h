/* SPDX-License-Identifier: MIT */
/*
 * The SPIR-V reader: a validating translation of the OpenCL (Kernel
 * capability, Physical32) SPIR-V that clang-15 and llvm-spirv-15 emit into
 * SIR, with the libclc-15 SPIR-V library functions the module needs added
 * to the same SIR module (as functions to be inlined).
 *
 * A malformed or unsupported module yields NULL and a message in err,
 * never a crash. Every function of a module it returns passes sir_verify().
 */
#ifndef SLEIPNIR_SPIRV_READER_H
#define SLEIPNIR_SPIRV_READER_H

#include <stddef.h>
#include <stdint.h>

#include "sir.h"

struct spirv_library;

/*
 * Reads and indexes a SPIR-V library (libclc's spirv-mesa3d-.spv): its
 * exported functions by linkage name. The library is immutable afterwards
 * and may be shared by concurrent spirv_to_sir() calls.
 */
struct spirv_library *spirv_library_load(const char *path, char *err,
					 size_t errsz);
/* The same from words in memory (copied). */
struct spirv_library *spirv_library_from_words(const uint32_t *words,
					       size_t n, char *err,
					       size_t errsz);
void spirv_library_free(struct spirv_library *lib);

/*
 * Translates a module of n words. lib may be NULL: then OpenCL.std
 * instructions that need libclc are an error naming them. Module-scope
 * __constant and __local variables become sir_globals; __constant ones
 * are laid out here (offset, constant_bytes) and addressed as
 * SYSVAL_CONSTANT_BASE + offset, __local ones are addressed by VAR_ADDR
 * (aux2 = 1) and laid out per kernel by sir_lower_abi (local_bytes is
 * their sum).
 */
struct sir_module *spirv_to_sir(const uint32_t *words, size_t n,
				const struct spirv_library *lib, char *err,
				size_t errsz);

#endif
