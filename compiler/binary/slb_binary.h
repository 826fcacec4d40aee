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
 *
 * printf (OpenCL 1.2 6.12.13): a kernel that calls printf has the
 * SLB_SYSVAL_PRINTF_BUFFER slot. The runtime gives each launch of it a
 * buffer in GPU memory, 8-aligned, and puts its address there:
 *  - word 0: bytes of records reserved so far; the runtime sets it to 0.
 *    Each printf call adds its record's size to it atomically and gets the
 *    old value: the record's offset in the record area. A call that finds
 *    the area already full skips the addition, so word 0 ends at most a
 *    record per work-item in flight past the area.
 *  - word 1: the record area's size in bytes, set by the runtime.
 *  - word 2: the lowest offset a call reserved whose record did not fit
 *    (atomic unsigned min); the runtime sets it to 0xFFFFFFFF.
 *  - word 3: reserved, 0.
 *  - byte 16 on: the record area. A call whose record does not fit
 *    (offset + size > word 1) writes nothing (but word 2 when it reserved)
 *    and returns -1, the others write their record and return 0. Reservations are ordered, so
 *    the records that fit are the prefix of the area below word 2: the
 *    runtime reads them from byte 16 up to min(word 0, word 1, word 2).
 * A record (`struct slb_printf_call`, `record_bytes`, a multiple of 4):
 * word 0 is the call's index in the program's `printf_calls`, then each
 * argument at its `offset` (4-aligned), as wide as its type: a vector
 * whole, its lanes packed as in memory (`elem_bytes` each; a 3-lane
 * vector takes 4 lanes' room); a %s literal as the index of its text in
 * `printf_strings`; a pointer as its 32-bit address. This device has no
 * double, so float arguments stay float (6.12.13.2).
 */
#ifndef SLEIPNIR_SLB_BINARY_H
#define SLEIPNIR_SLB_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SLB_MAX_KERNELS 256
/* Work-items of a group Midgard runs on one core (in turns without barriers). */
#define SLB_MAX_WG_SIZE 256
/* Every argument takes a byte at least of CL_DEVICE_MAX_PARAMETER_SIZE
 * (1024 in OpenCL 1.2). */
#define SLB_MAX_ARGS 1024

enum slb_arg_kind {
	SLB_ARG_VALUE = 0,
	SLB_ARG_GLOBAL = 1,
	SLB_ARG_CONSTANT = 2,
	SLB_ARG_LOCAL = 3,
	SLB_ARG_SAMPLER = 4,         /* sampler_t, set from a cl_sampler */
	SLB_ARG_IMAGE = 5,           /* image*_t: 32 bytes of image words */
};

/*
 * Images and samplers (compiler/README.md, "Images and samplers: the
 * launch ABI"): the k-th image argument is texture index k and attribute
 * index k (attribute buffers 2k, 2k + 1); the j-th sampler argument is
 * sampler index j; constant samplers follow the sampler arguments. An
 * image argument's 8 image words, written by the runtime: */
enum slb_image_word {
	SLB_IMAGE_WIDTH,
	SLB_IMAGE_HEIGHT,            /* 1 for 1D images */
	SLB_IMAGE_DEPTH,             /* 1 unless 3D */
	SLB_IMAGE_ARRAY_SIZE,        /* 1 unless an array */
	SLB_IMAGE_CHANNEL_TYPE,      /* cl_channel_type, e.g. 0x10D2 */
	SLB_IMAGE_CHANNEL_ORDER,     /* cl_channel_order, e.g. 0x10B5 */
	SLB_IMAGE_RESERVED0,         /* 0 */
	SLB_IMAGE_RESERVED1,         /* 0 */
	SLB_IMAGE_WORDS
};
#define SLB_IMAGE_ARG_BYTES (SLB_IMAGE_WORDS * 4u)

/* A sampler's OpenCL C bit value (clang's CLK_* constants). */
#define SLB_SAMPLER_NORMALIZED 0x01u
#define SLB_SAMPLER_ADDRESS_MASK 0x0Eu /* NONE 0, CLAMP_TO_EDGE 2, CLAMP 4,
					  REPEAT 6, MIRRORED_REPEAT 8 */
#define SLB_SAMPLER_FILTER_NEAREST 0x10u
#define SLB_SAMPLER_FILTER_LINEAR 0x20u
/* OpenCL 1.2's CL_DEVICE_MAX_SAMPLERS minimum. */
#define SLB_MAX_CONST_SAMPLERS 16u

/* True when value is a valid sampler bit value (the compiler's IR uses it
 * too, without the binary library). */
static inline bool slb_sampler_valid(uint32_t value)
{
	uint32_t filter = value & (SLB_SAMPLER_FILTER_NEAREST |
				   SLB_SAMPLER_FILTER_LINEAR);

	return !(value & ~(SLB_SAMPLER_NORMALIZED | SLB_SAMPLER_ADDRESS_MASK |
			   SLB_SAMPLER_FILTER_NEAREST |
			   SLB_SAMPLER_FILTER_LINEAR)) &&
	       (value & SLB_SAMPLER_ADDRESS_MASK) <= 8 &&
	       (filter == SLB_SAMPLER_FILTER_NEAREST ||
		filter == SLB_SAMPLER_FILTER_LINEAR);
}

/* A constant sampler: sampler index `index` holds `value` (CLK bits). */
struct slb_const_sampler {
	uint32_t index;              /* sampler arguments + its position */
	uint32_t value;
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
	SLB_SYSVAL_PRINTF_BUFFER,    /* see "printf" above */
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
	/* Largest work-group it can run with: up to threads_per_core with
	 * a barrier (the group is resident at once), else SLB_MAX_WG_SIZE. */
	uint32_t max_wg_size;
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
	uint32_t num_const_samplers;
	struct slb_const_sampler const_samplers[SLB_MAX_CONST_SAMPLERS];
	struct slb_stats stats;
};

/* printf: what one call site writes (see "printf" above). */
enum slb_printf_arg_kind {
	SLB_PRINTF_INT = 0,          /* integer lanes of 1, 2, 4 or 8 bytes */
	SLB_PRINTF_FLOAT = 1,        /* float (4 bytes) or double (8) lanes */
	SLB_PRINTF_STRING = 2,       /* a 4-byte index into printf_strings */
	SLB_PRINTF_POINTER = 3,      /* a 4-byte GPU address */
};

struct slb_printf_arg {
	uint32_t kind;               /* enum slb_printf_arg_kind */
	uint32_t elem_bytes;         /* per lane */
	uint32_t lanes;              /* 1 (scalar), 2, 3, 4, 8 or 16 */
	uint32_t offset;             /* in the record, 4-aligned, >= 4 */
};

#define SLB_MAX_PRINTF_ARGS 64u
/* The printf buffer's header: the words before the record area. */
#define SLB_PRINTF_HEADER_BYTES 16u
#define SLB_MAX_PRINTF_RECORD (64u << 10)

struct slb_printf_call {
	uint32_t format;             /* index into printf_strings */
	uint32_t record_bytes;       /* the whole record, a multiple of 4 */
	uint32_t num_args;
	struct slb_printf_arg args[SLB_MAX_PRINTF_ARGS];
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
	/* printf: format strings and %s literals, and the call sites. */
	uint32_t num_printf_strings;
	char **printf_strings;       /* each malloc'ed */
	uint32_t num_printf_calls;
	struct slb_printf_call *printf_calls;
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
/*
 * Appends a printf string (format or %s literal) to p, reusing an equal one;
 * returns its index, or UINT32_MAX when out of memory.
 */
uint32_t slb_printf_add_string(struct slb_program *p, const char *s);
/* Bytes an argument takes in a record (a 3-lane vector has 4 lanes' room). */
uint32_t slb_printf_arg_bytes(const struct slb_printf_arg *a);
/* Appends a call site; returns its index, or UINT32_MAX. */
uint32_t slb_printf_add_call(struct slb_program *p,
			     const struct slb_printf_call *c);
/* The kernel named name, or NULL. */
const struct slb_kernel *slb_find_kernel(const struct slb_program *p,
					 const char *name);

#endif
