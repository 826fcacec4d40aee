/* SPDX-License-Identifier: MIT */
/*
 * The Sleipnir program binary: what the compiler writes, what
 * clGetProgramInfo(CL_PROGRAM_BINARIES) returns and what
 * clCreateProgramWithBinary() accepts. It is an ELF file; its layout is
 * documented in compiler/binary/README.md.
 *
 * Kernel launch ABI (the runtime's side of the contract):
 *  - Each kernel has an argument image of `uniform_bytes` bytes. The runtime
 *    writes every argument at its `offset` (values as in host memory, a
 *    struct or union as the `size` bytes of the host's layout of the same
 *    declaration; global/constant pointers as 32-bit GPU addresses; local
 *    pointers as the byte offset of the runtime's allocation in the
 *    work-group's local storage, which starts after `local_static_bytes`,
 *    aligned to 16) and every sysval slot (a 32-bit word) at its `offset`.
 *  - The first `push_vec4` 16-byte rows of the image are pushed uniforms
 *    (register r23 holds row 0, r22 row 1, ...). When `needs_ubo` is set the
 *    whole image is also uniform buffer 0.
 *  - Thread storage: `private_bytes` per thread (TLS); work-group storage:
 *    `local_static_bytes` + the local arguments' sizes (WLS).
 *    `local_static_bytes` is the kernel's own __local variables (those
 *    its code, helpers inlined, uses), laid out from offset 0: each
 *    kernel of a program has its own layout, and CL_KERNEL_LOCAL_MEM_SIZE
 *    is this plus the __local arguments set, each rounded up to 16.
 *  - The module's __constant data (`constant_data`) is uploaded by the
 *    runtime once per program; its GPU address goes in the
 *    SLB_SYSVAL_CONSTANT_BASE slot.
 *  - RSD: `work_regs` registers, `first_tag`, barrier bit from `barrier`.
 */
#ifndef SLEIPNIR_SLB_BINARY_H
#define SLEIPNIR_SLB_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SLB_MAX_KERNELS 256
/* Every argument takes a byte at least of CL_DEVICE_MAX_PARAMETER_SIZE
 * (1024 in OpenCL 1.2). */
#define SLB_MAX_ARGS 1024

enum slb_arg_kind {
	SLB_ARG_VALUE = 0,
	SLB_ARG_GLOBAL = 1,
	SLB_ARG_CONSTANT = 2,
	SLB_ARG_LOCAL = 3,
};

/* Values match CL_KERNEL_ARG_ACCESS_* minus 0x11A0. */
enum slb_arg_access {
	SLB_ACCESS_READ_ONLY = 0,
	SLB_ACCESS_WRITE_ONLY = 1,
	SLB_ACCESS_READ_WRITE = 2,
	SLB_ACCESS_NONE = 3,
};

#define SLB_QUAL_CONST 1u       /* CL_KERNEL_ARG_TYPE_CONST */
#define SLB_QUAL_RESTRICT 2u
#define SLB_QUAL_VOLATILE 4u

/*
 * Strings (names, type names, attributes, the build record) are malloc'ed
 * NUL-terminated strings of any length, owned by the program:
 * slb_program_free() frees them. OpenCL puts no limit on a name's length.
 */
struct slb_arg {
	char *name;
	char *type_name;             /* e.g. "float4*", "uint" */
	uint32_t kind;               /* enum slb_arg_kind */
	uint32_t access;             /* enum slb_arg_access */
	uint32_t qualifiers;         /* SLB_QUAL_* */
	uint32_t offset;             /* in the argument image */
	uint32_t size;               /* value bytes; 4 for pointers */
};

enum slb_sysval {
	SLB_SYSVAL_GLOBAL_OFFSET_X, SLB_SYSVAL_GLOBAL_OFFSET_Y,
	SLB_SYSVAL_GLOBAL_OFFSET_Z,
	SLB_SYSVAL_GLOBAL_SIZE_X, SLB_SYSVAL_GLOBAL_SIZE_Y,
	SLB_SYSVAL_GLOBAL_SIZE_Z,
	SLB_SYSVAL_LOCAL_SIZE_X, SLB_SYSVAL_LOCAL_SIZE_Y,
	SLB_SYSVAL_LOCAL_SIZE_Z,
	SLB_SYSVAL_NUM_GROUPS_X, SLB_SYSVAL_NUM_GROUPS_Y,
	SLB_SYSVAL_NUM_GROUPS_Z,
	SLB_SYSVAL_WORK_DIM,
	SLB_SYSVAL_CONSTANT_BASE,
	SLB_SYSVAL_COUNT
};

struct slb_sysval_slot {
	uint32_t sysval;             /* enum slb_sysval */
	uint32_t offset;             /* in the argument image, 4-aligned */
};

/* Static figures, as ARM's offline compiler prints them. */
struct slb_stats {
	uint32_t alu_bundles, ldst_bundles, tex_bundles;
	uint32_t unit_instrs[5];     /* per enum mdg_unit: VMUL SADD VADD SMUL VLUT */
	uint32_t ldst_instrs, branch_instrs;
	uint32_t spills, fills;
	/* Cycles on the arithmetic / load-store / texture pipes. */
	uint32_t shortest_cycles[3], longest_cycles[3];
	bool longest_unbounded;      /* a loop: longest path is per iteration */
};

struct slb_kernel {
	char *name;
	/*
	 * CL_KERNEL_ATTRIBUTES: the source's kernel attributes (OpenCL 1.2
	 * 6.7.2), space-separated, e.g. "vec_type_hint(float4)
	 * work_group_size_hint(8,1,1) reqd_work_group_size(8,1,1)"; "".
	 */
	char *attributes;
	uint32_t code_offset;        /* in the program's code, 64-aligned */
	uint32_t code_size;
	uint32_t first_tag;
	uint32_t work_regs;          /* 0-16 */
	uint32_t threads_per_core;   /* 256 / 128 / 64 from work_regs */
	uint32_t max_wg_size;        /* largest work-group it can run with */
	uint32_t reqd_wg_size[3];    /* 0 0 0: none */
	uint32_t uniform_bytes;      /* argument image size, 16-aligned */
	uint32_t push_vec4;
	bool needs_ubo;
	bool barrier;
	uint32_t private_bytes;      /* TLS per thread, spills included */
	uint32_t local_static_bytes; /* WLS per group before local args */
	uint32_t num_args;
	struct slb_arg *args;        /* num_args entries */
	uint32_t num_sysvals;
	struct slb_sysval_slot sysvals[SLB_SYSVAL_COUNT];
	struct slb_stats stats;
};

struct slb_program {
	char *compiler_version;
	char *build_options;
	uint32_t num_kernels;
	struct slb_kernel *kernels;  /* num_kernels entries */
	uint8_t *code;               /* all kernels' code */
	uint32_t code_size;
	uint8_t *constant_data;      /* module __constant data */
	uint32_t constant_size;
};

/* The compiler's version string recorded in every binary. */
const char *slb_compiler_version(void);

/* Serialises; *out is malloc'ed. False on allocation failure. */
bool slb_write(const struct slb_program *p, uint8_t **out, size_t *size);
/*
 * Parses and validates untrusted bytes (every offset and size checked);
 * false with a message on any malformation. Free with slb_program_free().
 */
bool slb_read(const uint8_t *data, size_t size, struct slb_program *p,
	      char *err, size_t errsz);
void slb_program_free(struct slb_program *p);
/* Frees a kernel's strings and arguments (slb_program_free does it for
 * each of the program's); the kernel's fields are zero after. */
void slb_kernel_fini(struct slb_kernel *k);
/* The kernel named name, or NULL. */
const struct slb_kernel *slb_find_kernel(const struct slb_program *p,
					 const char *name);

#endif
