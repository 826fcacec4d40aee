/* SPDX-License-Identifier: MIT */
/*
 * The compiler as a library call: OpenCL C (or SPIR-V) in, a Sleipnir
 * program binary (compiler/binary/slb_binary.h) and a build log out. What
 * clBuildProgram, clCompileProgram, clLinkProgram, clCreateProgramWithIL
 * and sleipnir-cc call.
 *
 * Separate compilation: slc_compile_object() makes a compiled object
 * (clang's LLVM bitcode in the container of frontend/clc_object.h);
 * slc_link() joins objects and libraries with llvm-link into a library,
 * or into an executable by running the rest of the pipeline (opt,
 * llvm-spirv, the SPIR-V reader with libclc, our passes and back end).
 */
#ifndef SLEIPNIR_COMPILER_H
#define SLEIPNIR_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The device the compiler builds for, as the runtime reports it: one
 * definition each, so what a kernel sees cannot drift from what the
 * application is told.
 *
 * SLC_DEVICE_EXTENSIONS is CL_DEVICE_EXTENSIONS and CL_PLATFORM_EXTENSIONS.
 * The front end enables exactly these in clang (-cl-ext=-all,+each), so a
 * kernel's extension macros and the types it may use follow the string:
 * without cl_khr_fp64 no `double`, and a literal such as 0.5 is a float.
 * Each is backed by the compiler or the ICD: the ICD itself (cl_khr_icd);
 * 32- and 64-bit integer atomics on global and local memory (base: add,
 * sub, xchg, inc, dec, cmpxchg; extended: min, max, and, or, xor), on the
 * load/store unit's .32 and .64 atomic ops, and 8/16-bit stores
 * (compiler/backend/mbe_isel.c, tests/compiler/corpus/atomics_*.cl,
 * atomics64_*.cl, types_char.cl); half arithmetic in Midgard's 16-bit
 * lanes, what has no 16-bit form computed in fp32 and rounded once, and
 * the half built-ins, libclc's few and the float ones on halves otherwise
 * (cl_khr_fp16: compiler/backend/mbe_isel.c, compiler/ir/sir_lower_half.c,
 * spirv/spirv_extinst.c, tests/compiler/test_fp16.c,
 * tests/compiler/builtins/half.cl); programs
 * from SPIR-V, which the compiler reads (cl_khr_il_program). clang ignores the names that are no OpenCL C
 * extension (cl_khr_icd, cl_khr_il_program).
 *
 * SLC_DEVICE_FP64 says whether cl_khr_fp64 is offered: it adds the name to
 * SLC_DEVICE_EXTENSIONS and makes the ICD report CL_DEVICE_DOUBLE_FP_CONFIG
 * and the double vector widths. The compiler has double support (64-bit
 * lanes; division, sqrt and fma in integers, compiler/ir/sir_lower_f64.c;
 * libclc's double built-ins), tested on the model (tests/compiler/
 * test_fp64.c, with the internal option -sleipnir-fp64 so that it does
 * not depend on this switch) and in the guest by piglit's fp64 tests. With
 * it on, an unsuffixed literal such as 0.5 is a double (OpenCL C 1.2
 * §6.1.1.1), so float code written with such literals computes in
 * doubles.
 *
 * SLC_DEVICE_IMAGE_SUPPORT is CL_DEVICE_IMAGE_SUPPORT and __IMAGE_SUPPORT__
 * (OpenCL 1.2 §6.10): the compiler's image built-ins and the launch ABI's
 * tables (compiler/README.md, "Images and samplers: the launch ABI"),
 * tested in the guest by cl_api_test's image tests and piglit's.
 * SLC_DEVICE_OPENCL_VERSION is __OPENCL_VERSION__, the device's OpenCL
 * version of CL_DEVICE_VERSION ("OpenCL 1.2 ...").
 */
#define SLC_DEVICE_FP64 1
#if SLC_DEVICE_FP64
#define SLC_EXTENSION_FP64 " cl_khr_fp64"
#else
#define SLC_EXTENSION_FP64 ""
#endif
#define SLC_DEVICE_EXTENSIONS                                               \
	"cl_khr_icd cl_khr_global_int32_base_atomics "                      \
	"cl_khr_global_int32_extended_atomics "                             \
	"cl_khr_local_int32_base_atomics "                                  \
	"cl_khr_local_int32_extended_atomics "                              \
	"cl_khr_int64_base_atomics cl_khr_int64_extended_atomics "          \
	"cl_khr_fp16 cl_khr_byte_addressable_store cl_khr_il_program"       \
	SLC_EXTENSION_FP64
#define SLC_DEVICE_IMAGE_SUPPORT 1
#define SLC_DEVICE_OPENCL_VERSION 120

enum slc_status {
	SLC_OK = 0,
	SLC_BUILD_FAILED,            /* the log says why */
	SLC_INVALID_OPTIONS,         /* an option clBuildProgram rejects */
	SLC_OUT_OF_MEMORY,
};

/* What a binary holds (CL_PROGRAM_BINARY_TYPE). */
enum slc_binary_type {
	SLC_BINARY_NONE = 0,         /* none, or not a binary of ours */
	SLC_BINARY_EXECUTABLE,       /* program binary, slb_read() accepts it */
	SLC_BINARY_OBJECT,           /* compiled object (clCompileProgram) */
	SLC_BINARY_LIBRARY,          /* clLinkProgram -create-library */
};

struct slc_output {
	uint8_t *binary;             /* malloc'ed program binary, or NULL */
	size_t binary_size;
	enum slc_binary_type type;   /* of binary, when there is one */
	char *log;                   /* malloc'ed, NUL-terminated, maybe "" */
	bool from_cache;             /* served by the disk cache (a binary,
				      * or a failed build's log) */
};

/* An embedded header of clCompileProgram: #include "name" finds source. */
struct slc_header {
	const char *name;
	const char *source;
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

/*
 * clCompileProgram: OpenCL C with compiler `options` (the build options;
 * -sleipnir-wg-size is accepted but acts only as a link option) and
 * embedded headers to a compiled object. SLC_INVALID_OPTIONS for bad options; a header name
 * that is not a plain relative path fails the compile with a log line.
 */
enum slc_status slc_compile_object(const char *source, const char *options,
				   const struct slc_header *headers,
				   size_t num_headers,
				   struct slc_output *out);
/* The same from a SPIR-V module (clCompileProgram of an IL program),
 * through llvm-spirv's reverse translation. */
enum slc_status slc_compile_object_spirv(const uint32_t *words,
					 size_t num_words,
					 const char *options,
					 struct slc_output *out);

/*
 * clLinkProgram: compiled objects and libraries to an executable, or to a
 * library with -create-library. SLC_INVALID_OPTIONS for link options
 * OpenCL 1.2 §5.6.5 does not list (CL_INVALID_LINKER_OPTIONS);
 * SLC_BUILD_FAILED with the log for inputs that are not objects or
 * libraries of ours, llvm-link errors (a symbol defined twice, say) and
 * everything a build can fail on. out->type tells which was made.
 *
 * Executables: the back end's fast math is on when the link options ask
 * for it (and every library input was made with -enable-link-options) or
 * every input was compiled with it; opt runs unless every input was
 * compiled with -cl-opt-disable. Links are not cached.
 */
enum slc_status slc_link(const uint8_t *const *binaries, const size_t *sizes,
			 size_t num_binaries, const char *options,
			 struct slc_output *out);

/*
 * clBuildProgram of a program made from a binary: an executable is
 * copied as it is (options cannot change compiled code); a compiled
 * object or library is linked alone into an executable, with the build
 * options' fast math, -cl-opt-disable and -sleipnir-wg-size.
 * SLC_INVALID_OPTIONS for options clBuildProgram rejects.
 */
enum slc_status slc_build_binary(const uint8_t *binary, size_t size,
				 const char *options, struct slc_output *out);

/* What @data holds: an executable (checked with slb_read), a compiled
 * object or a library (checked by their container), or SLC_BINARY_NONE
 * with the reason in @err. */
enum slc_binary_type slc_binary_type(const uint8_t *data, size_t size,
				     char *err, size_t errsz);

void slc_output_free(struct slc_output *out);

#endif
