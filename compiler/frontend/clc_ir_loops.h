/* SPDX-License-Identifier: MIT */
#ifndef CLC_IR_LOOPS_H
#define CLC_IR_LOOPS_H

#include <stddef.h>

/*
 * The most loops any one function of clang's textual LLVM IR holds,
 * counted as branches back to a block defined earlier in the function
 * (clang lays a loop's blocks out in source order, so each loop has one).
 * Returns (size_t)-1 when out of memory.
 */
size_t clc_ir_max_function_loops(const char *ll, size_t len);

#endif
