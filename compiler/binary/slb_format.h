/* SPDX-License-Identifier: MIT */
/*
 * The on-disk layout of the program binary, shared by the writer and the
 * reader (slb_binary.c) and documented in README.md. Everything is little
 * endian; records are arrays of 32-bit words.
 */
#ifndef SLEIPNIR_SLB_FORMAT_H
#define SLEIPNIR_SLB_FORMAT_H

/* e_flags: "SL" in the high half, the container's version in the low. */
#define SLB_ELF_FLAGS 0x534C0003u

#define SLB_SECTION_TEXT ".text"
#define SLB_SECTION_CONSTANT ".rodata.constant"
#define SLB_SECTION_KERNELS ".sleipnir.kernels"
#define SLB_SECTION_BUILD ".sleipnir.build"
#define SLB_SECTION_PRINTF ".sleipnir.printf" /* only when printf is used */

#define SLB_TEXT_ALIGN 64u
#define SLB_CONSTANT_ALIGN 16u

/* .sleipnir.kernels: a header, then per kernel a record, args, sysvals. */
#define SLB_KERNELS_VERSION 3u
enum slb_kernels_header {
	SLB_KH_VERSION,
	SLB_KH_NUM_KERNELS,
	SLB_KH_KERNEL_BYTES,         /* size of the fixed kernel record */
	SLB_KH_ARG_BYTES,            /* size of one argument record */
	SLB_KH_WORDS
};

enum slb_kernel_word {
	SLB_KW_NAME,                 /* .strtab offset */
	SLB_KW_CODE_OFFSET,
	SLB_KW_CODE_SIZE,
	SLB_KW_FIRST_TAG,
	SLB_KW_WORK_REGS,
	SLB_KW_THREADS_PER_CORE,
	SLB_KW_MAX_WG_SIZE,
	SLB_KW_REQD_WG_SIZE,         /* 3 words */
	SLB_KW_UNIFORM_BYTES = SLB_KW_REQD_WG_SIZE + 3,
	SLB_KW_PUSH_VEC4,
	SLB_KW_FLAGS,                /* SLB_KF_* */
	SLB_KW_PRIVATE_BYTES,
	SLB_KW_LOCAL_STATIC_BYTES,
	SLB_KW_NUM_ARGS,
	SLB_KW_NUM_SYSVALS,
	SLB_KW_ALU_BUNDLES,
	SLB_KW_LDST_BUNDLES,
	SLB_KW_TEX_BUNDLES,
	SLB_KW_UNIT_INSTRS,          /* 5 words */
	SLB_KW_LDST_INSTRS = SLB_KW_UNIT_INSTRS + 5,
	SLB_KW_BRANCH_INSTRS,
	SLB_KW_SPILLS,
	SLB_KW_FILLS,
	SLB_KW_SHORTEST_CYCLES,      /* 3 words */
	SLB_KW_LONGEST_CYCLES = SLB_KW_SHORTEST_CYCLES + 3, /* 3 words */
	SLB_KW_STATS_FLAGS = SLB_KW_LONGEST_CYCLES + 3, /* SLB_SF_* */
	SLB_KW_ATTRIBUTES,           /* .strtab offset */
	SLB_KW_NUM_CONST_SAMPLERS,
	SLB_KW_WORDS
};

#define SLB_KF_NEEDS_UBO 1u
#define SLB_KF_BARRIER 2u
#define SLB_SF_LONGEST_UNBOUNDED 1u

enum slb_arg_word {
	SLB_AW_NAME,                 /* .strtab offset */
	SLB_AW_TYPE_NAME,            /* .strtab offset */
	SLB_AW_KIND,
	SLB_AW_ACCESS,
	SLB_AW_QUALIFIERS,
	SLB_AW_OFFSET,
	SLB_AW_SIZE,
	SLB_AW_WORDS
};

enum slb_sysval_word {
	SLB_SW_SYSVAL,
	SLB_SW_OFFSET,
	SLB_SW_WORDS
};

enum slb_const_sampler_word {
	SLB_CW_INDEX,                /* sampler table index */
	SLB_CW_VALUE,                /* CLK_* bit value */
	SLB_CW_WORDS
};

/* .sleipnir.build */
#define SLB_BUILD_VERSION 1u
enum slb_build_word {
	SLB_BW_VERSION,
	SLB_BW_COMPILER_VERSION,     /* .strtab offset */
	SLB_BW_OPTIONS,              /* .strtab offset */
	SLB_BW_RESERVED,             /* 0 */
	SLB_BW_WORDS
};

/*
 * .sleipnir.printf: a header, the call records (each followed by its
 * argument records), then the strings, NUL-terminated one after the
 * other and padded with zeros to a word (text_bytes in all).
 */
#define SLB_PRINTF_VERSION 1u
enum slb_printf_header_word {
	SLB_PH_VERSION,
	SLB_PH_NUM_STRINGS,
	SLB_PH_NUM_CALLS,
	SLB_PH_TEXT_BYTES,
	SLB_PH_WORDS
};

enum slb_printf_call_word {
	SLB_PC_FORMAT,               /* string index */
	SLB_PC_RECORD_BYTES,
	SLB_PC_NUM_ARGS,
	SLB_PC_WORDS
};

enum slb_printf_arg_word {
	SLB_PA_KIND,                 /* enum slb_printf_arg_kind */
	SLB_PA_ELEM_BYTES,
	SLB_PA_LANES,
	SLB_PA_OFFSET,
	SLB_PA_WORDS
};

#define SLB_MAX_PRINTF_STRINGS 65536u
#define SLB_MAX_PRINTF_CALLS 65536u

/* Sanity bounds the reader enforces. */
#define SLB_MAX_CODE_BYTES (64u << 20)
#define SLB_MAX_CONSTANT_BYTES (64u << 10)
#define SLB_MAX_UNIFORM_BYTES (64u << 10)
#define SLB_MAX_SECTIONS 64u
#define SLB_MAX_STORAGE_BYTES (16u << 20)

#endif
