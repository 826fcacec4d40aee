/* SPDX-License-Identifier: MIT */
/*
 * Compiled objects and libraries: what clCompileProgram and
 * clLinkProgram(-create-library) produce, what CL_PROGRAM_BINARIES returns
 * for them and what clCreateProgramWithBinary takes back. The payload is
 * the LLVM bitcode clang made (llvm-link merged, for a library); linking
 * into an executable runs the rest of the pipeline on it.
 *
 * The container, all integers little endian:
 *
 *   offset  size  field
 *        0     8  magic "SLOBJ\0\0\0"
 *        8     4  version, 1
 *       12     4  kind: 1 compiled object, 2 library
 *       16     4  flags (CLC_OBJECT_*), unknown bits rejected
 *       20     4  options_size: bytes of the options string (no NUL),
 *                 at most CLC_OBJECT_MAX_OPTIONS
 *       24     8  bitcode_size, at least 4
 *       32        the options the object was compiled (or the library
 *                 linked) with, then the bitcode
 *
 * and nothing after. The bitcode must start with LLVM's bitcode magic
 * ("BC" 0xC0DE, or the wrapper 0x0B17C0DE); llvm-link checks the rest
 * and reports what it does not accept in the link log. The executable
 * binary is a different container (an ELF file, compiler/binary/), so the
 * two are told apart by their first bytes.
 */
#ifndef SLEIPNIR_CLC_OBJECT_H
#define SLEIPNIR_CLC_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLC_OBJECT_MAGIC "SLOBJ\0\0\0"
#define CLC_OBJECT_VERSION 1u
#define CLC_OBJECT_HEADER_BYTES 32u
#define CLC_OBJECT_MAX_OPTIONS 4096u

enum clc_object_kind {
	CLC_OBJECT_COMPILED = 1,
	CLC_OBJECT_LIBRARY = 2,
};

/* Compiled with -cl-opt-disable: linking skips opt when every input has
 * it. */
#define CLC_OBJECT_OPT_DISABLE 1u
/* Compiled with -cl-fast-relaxed-math or -cl-unsafe-math-optimizations. */
#define CLC_OBJECT_FAST_MATH 2u
/* A library made with -enable-link-options: the math options of the
 * final link apply to it. */
#define CLC_OBJECT_LINK_OPTIONS 4u
/* Compiled with -cl-denorms-are-zero. */
#define CLC_OBJECT_DENORMS_ZERO 8u
#define CLC_OBJECT_FLAGS_KNOWN 15u

struct clc_object {
	uint32_t kind;               /* enum clc_object_kind */
	uint32_t flags;              /* CLC_OBJECT_* */
	const char *options;         /* options_size bytes, not NUL-ended */
	size_t options_size;
	const uint8_t *bitcode;
	size_t bitcode_size;
};

/* Serialises @o; *out is malloc'ed. False when out of memory or when the
 * fields break the limits above. */
bool clc_object_write(const struct clc_object *o, uint8_t **out,
		      size_t *size);

/*
 * Checks untrusted bytes and describes them in @o, whose pointers point
 * into @data. False with a message when they are not a container of ours.
 */
bool clc_object_read(const uint8_t *data, size_t size, struct clc_object *o,
		     char *err, size_t errsz);

#endif
