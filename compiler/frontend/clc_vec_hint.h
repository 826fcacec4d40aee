/* SPDX-License-Identifier: MIT */
/*
 * The signedness of vec_type_hint, which SPIR-V drops: its VecTypeHint
 * execution mode encodes only the lane width and count, so uint4 and int4
 * look alike. clang's textual LLVM IR keeps it (!vec_type_hint !{<4 x i32>
 * undef, i32 0}: the second operand is 1 for a signed type, 0 for an
 * unsigned one); this reads it from there. And the OpenCL C name of a
 * VecTypeHint's type.
 */
#ifndef SLEIPNIR_CLC_VEC_HINT_H
#define SLEIPNIR_CLC_VEC_HINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The kernels of the textual IR `ir` (NUL-terminated) whose vec_type_hint
 * is an unsigned integer type, as "\nname\nname\n" ("" for none),
 * malloc'ed; NULL when out of memory.
 */
char *clc_unsigned_vec_hints(const char *ir);

/* Whether kernel is in such a list (NULL: none). */
bool clc_vec_hint_is_unsigned(const char *list, const char *kernel);

/*
 * The OpenCL C type (e.g. "uint4", "float") of a SPIR-V VecTypeHint
 * operand: components in the high 16 bits (0 or 1: a scalar; else 2, 3,
 * 4, 8 or 16), lane type in the low 16 (0-3: 8- to 64-bit integer, 4-6:
 * half, float, double). In buf (16 bytes suffice), or NULL for an
 * encoding SPIR-V does not define. @is_unsigned: integer lanes unsigned.
 */
const char *clc_vec_hint_type(uint32_t hint, bool is_unsigned, char *buf,
			      size_t size);

#endif
