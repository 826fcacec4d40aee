/* SPDX-License-Identifier: MIT */
/*
 * Names of SPIR-V enumerants, generated from the grammar of spirv-headers
 * (gen_spirv_names.py), for error messages and for mangling libclc names.
 * Each returns NULL for a value the grammar does not know.
 */
#ifndef SLEIPNIR_SPIRV_NAMES_H
#define SLEIPNIR_SPIRV_NAMES_H

#include <stddef.h>
#include <stdint.h>

#define SPV_OP_HAS_TYPE 1u
#define SPV_OP_HAS_RESULT 2u

const char *spv_op_name(uint32_t opcode);
/* SPV_OP_HAS_* flags: whether the instruction has a result type / id. */
unsigned int spv_op_flags(uint32_t opcode);
const char *spv_capability_name(uint32_t value);
const char *spv_builtin_name(uint32_t value);
const char *spv_storage_class_name(uint32_t value);
/* OpenCL.std extended instruction names ("exp", "s_abs", "vloadn"...). */
const char *spv_ocl_ext_name(uint32_t value);

#endif
