/* SPDX-License-Identifier: MIT */
/*
 * SIR, the Sleipnir IR: the SSA form every stage after SPIR-V works on.
 *
 * A module holds functions and module-scope variables (__constant data,
 * static __local arrays). A function holds values and blocks. Every value
 * (constant, parameter, instruction result) is a `struct sir_instr` in the
 * function's value array, named by its index (`sir_id`); id 0 is "none".
 * A block is an ordered list of instruction ids; phis come first and the
 * last instruction is the terminator (BR, CBR, RET).
 *
 * Types are scalars or vectors (1-16 components) of bool, int (8/16/32/64
 * bits, signedness lives in the ops, as in SPIR-V) and float (16/32/64),
 * and pointers with an address space. Pointers are 32-bit byte addresses
 * (SPIR-V's Physical32): GPU virtual addresses for global and constant
 * memory, offsets into the work-group's local storage for local memory and
 * into the thread's private storage for private memory.
 *
 * Ops take SPIR-V's semantics component-wise unless their comment says
 * otherwise; the back end lowers what Midgard lacks before instruction
 * selection (sir_lower.c), so the set is wider than the hardware's.
 */
#ifndef SLEIPNIR_SIR_H
#define SLEIPNIR_SIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef uint32_t sir_id;
#define SIR_NONE 0u

enum sir_kind {
	SIR_VOID,
	SIR_BOOL,
	SIR_INT,
	SIR_FLOAT,
	SIR_PTR,
};

enum sir_space {
	SIR_SPACE_PRIVATE,           /* per work-item (SPIR-V Function) */
	SIR_SPACE_GLOBAL,            /* CrossWorkgroup */
	SIR_SPACE_CONSTANT,          /* UniformConstant */
	SIR_SPACE_LOCAL,             /* Workgroup */
};

struct sir_type {
	uint8_t kind;                /* enum sir_kind */
	uint8_t bits;                /* per component: 1 bool, 8-64; ptr 32 */
	uint8_t comps;               /* 1..16; 0 for void */
	uint8_t space;               /* pointers: enum sir_space */
};

static inline struct sir_type sir_type_make(enum sir_kind kind,
					    unsigned int bits,
					    unsigned int comps)
{
	struct sir_type t = { (uint8_t)kind, (uint8_t)bits, (uint8_t)comps, 0 };
	return t;
}

static inline struct sir_type sir_type_ptr(enum sir_space space)
{
	struct sir_type t = { SIR_PTR, 32, 1, (uint8_t)space };
	return t;
}

static inline bool sir_type_eq(struct sir_type a, struct sir_type b)
{
	return a.kind == b.kind && a.bits == b.bits && a.comps == b.comps &&
	       (a.kind != SIR_PTR || a.space == b.space);
}

/* Bytes one value of the type occupies in memory (bool: 4 per component). */
unsigned int sir_type_size(struct sir_type t);

enum sir_op {
	SIR_OP_INVALID,

	/* Values without operands. */
	SIR_OP_CONST,                /* lanes in imm.u64[comp] (bit pattern) */
	SIR_OP_UNDEF,
	SIR_OP_PARAM,                /* aux = parameter index */
	SIR_OP_VAR_ADDR,             /* aux = variable index: its address;
				      * aux2 = 1: aux indexes the module's
				      * globals (a CONSTANT or LOCAL pointer) */
	SIR_OP_SYSVAL,               /* aux = enum sir_sysval, 1 or 3 comps */
	SIR_OP_UNIFORM,              /* aux = byte offset in the kernel's
				      * argument image (after sir_lower_abi) */

	/* Copies and vector plumbing. */
	SIR_OP_COPY,                 /* src0 */
	SIR_OP_PHI,                  /* srcs[i] from preds phi_blocks[i] */
	SIR_OP_VEC,                  /* components from srcs (scalars or vecs) */
	SIR_OP_EXTRACT,              /* src0[aux] */
	SIR_OP_INSERT,               /* src0 with [aux] = src1 */
	SIR_OP_SHUFFLE,              /* lanes imm.u64[i] of src0 ++ src1 */
	SIR_OP_SELECT,               /* src0 (bool, scalar or per lane) ? src1 : src2 */
	SIR_OP_BITCAST,              /* same total size, other type */

	/* Integer arithmetic (wrapping unless said). */
	SIR_OP_IADD, SIR_OP_ISUB, SIR_OP_IMUL, SIR_OP_INEG,
	SIR_OP_UMULHI, SIR_OP_SMULHI,
	SIR_OP_UDIV, SIR_OP_SDIV, SIR_OP_UREM, SIR_OP_SREM, /* SPIR-V SRem */
	SIR_OP_SMOD,                 /* SPIR-V SMod (sign of divisor) */
	SIR_OP_AND, SIR_OP_OR, SIR_OP_XOR, SIR_OP_NOT,
	SIR_OP_SHL, SIR_OP_LSHR, SIR_OP_ASHR, /* shift count mod bit width */
	SIR_OP_SMIN, SIR_OP_SMAX, SIR_OP_UMIN, SIR_OP_UMAX,
	SIR_OP_IABS,                 /* result as unsigned */
	SIR_OP_UADD_SAT, SIR_OP_SADD_SAT, SIR_OP_USUB_SAT, SIR_OP_SSUB_SAT,
	SIR_OP_CLZ, SIR_OP_POPCOUNT,

	/* Floating point (round to nearest even, denormals kept). */
	SIR_OP_FADD, SIR_OP_FSUB, SIR_OP_FMUL, SIR_OP_FDIV, SIR_OP_FNEG,
	SIR_OP_FABS, SIR_OP_FMIN, SIR_OP_FMAX, /* OpenCL fmin/fmax NaN rules */
	SIR_OP_FMA,                  /* fused, one rounding */
	SIR_OP_FMAD,                 /* a*b+c, any precision the spec allows */
	SIR_OP_FFLOOR, SIR_OP_FCEIL, SIR_OP_FTRUNC, SIR_OP_FRINT, /* rint: even */
	SIR_OP_FROUND,               /* half away from zero */
	SIR_OP_FSQRT, SIR_OP_FRSQ, SIR_OP_FRCP,
	SIR_OP_FEXP2, SIR_OP_FLOG2, SIR_OP_FSIN, SIR_OP_FCOS, /* native_* */
	SIR_OP_FCOPYSIGN,

	/* Comparisons: bool result, same comps as the operands. */
	SIR_OP_IEQ, SIR_OP_INE, SIR_OP_SLT, SIR_OP_SLE, SIR_OP_ULT, SIR_OP_ULE,
	SIR_OP_FEQ, SIR_OP_FNE,      /* FNE: unordered or not equal */
	SIR_OP_FLT, SIR_OP_FLE,      /* ordered */
	SIR_OP_FUNORD,               /* either is NaN */
	SIR_OP_BNOT, SIR_OP_BAND, SIR_OP_BOR, SIR_OP_BEQ, SIR_OP_BNE,
	SIR_OP_ANY, SIR_OP_ALL,      /* bool vector to bool scalar */

	/*
	 * Float vector (2-4 lanes) to scalar: the sum of the lane products.
	 * OpenCL's geometric functions may contract, so the order of the sum
	 * and the rounding of the products are free (one rounding at the end
	 * is what Midgard's fdot3/fdot4 do).
	 */
	SIR_OP_FDOT,

	/* Conversions; aux = enum sir_conv_flags. */
	SIR_OP_SEXT, SIR_OP_ZEXT, SIR_OP_TRUNC,
	SIR_OP_F2S, SIR_OP_F2U,      /* toward zero; SAT flag: saturate, NaN 0 */
	SIR_OP_S2F, SIR_OP_U2F,      /* rounding from aux */
	SIR_OP_FCONV,                /* float width change, rounding from aux */

	/* Memory; aux = alignment in bytes of the access. */
	SIR_OP_PTR_ADD,              /* src0 ptr + src1 (32-bit int) bytes */
	SIR_OP_LOAD,                 /* src0 ptr */
	SIR_OP_STORE,                /* *src0 = src1 (type void) */
	SIR_OP_ATOMIC,               /* aux2 = enum sir_atomic; src0 ptr, src1 value, src2 compare */
	SIR_OP_BARRIER,              /* aux = SIR_FENCE_* flags; aux2 1 = work-group barrier, 0 = fence only */
	/*
	 * OpenCL printf: src0 the format (a pointer to a __constant string
	 * literal), then the arguments; an int32 result (0, or -1 when the
	 * printf buffer is full). sir_lower_printf turns it into appends to
	 * the printf buffer before sir_lower_abi.
	 */
	SIR_OP_PRINTF,
	/*
	 * An image's image word (enum slb_image_word) aux: a 32-bit int.
	 * src0 is the image, an image kernel argument; sir_lower_abi reads
	 * the word from the argument image.
	 */
	SIR_OP_IMAGE_WORD,
	/*
	 * write_image{f,i,ui}: src0 the image (an image kernel argument;
	 * its ordinal after sir_lower_abi), src1 the texel (4 x 32-bit),
	 * src2 x | y << 16 (16 bits each), src3 (with aux2 = 1) z, the
	 * layer of a 2D array; aux = enum sir_image_type. Type void.
	 */
	SIR_OP_IMAGE_STORE,
	/*
	 * read_image{f,i,ui} without a sampler: the texel (4 x 32-bit) at
	 * src1 = x | y << 16 and (aux2 = 1) src2 = z of image src0; aux =
	 * enum sir_image_type. Images are read_only or write_only, so no
	 * store in the kernel changes what it reads.
	 */
	SIR_OP_IMAGE_LOAD,
	/*
	 * read_image{f,i,ui} with a sampler at LOD 0: src0 the image, src1
	 * the sampler (a sampler_t argument, or a constant: a constant
	 * sampler's CLK_* value), src2 four fp32 coordinates
	 * as the texture unit reads them (x, y, z, layer); aux = enum
	 * sir_image_type (the result's), aux2 the texture dimension (1, 2,
	 * 3). sir_lower_abi turns both into table indices.
	 */
	SIR_OP_IMAGE_SAMPLE,

	/* Calls (gone after inlining) and control flow. */
	SIR_OP_CALL,                 /* aux = callee function index, srcs = args */
	SIR_OP_BR,                   /* targets[0] */
	SIR_OP_CBR,                  /* src0 scalar bool ? targets[0] : targets[1] */
	SIR_OP_RET,                  /* optional src0 */

	SIR_OP_COUNT
};

enum sir_sysval {
	SIR_SYSVAL_GLOBAL_ID,        /* 3 comps, without the global offset */
	SIR_SYSVAL_LOCAL_ID,
	SIR_SYSVAL_GROUP_ID,
	SIR_SYSVAL_NUM_GROUPS,       /* from uniforms */
	SIR_SYSVAL_LOCAL_SIZE,
	SIR_SYSVAL_GLOBAL_SIZE,
	SIR_SYSVAL_GLOBAL_OFFSET,
	SIR_SYSVAL_WORK_DIM,         /* 1 comp */
	SIR_SYSVAL_CONSTANT_BASE,    /* 1 comp: GPU address of the module's constant data */
	SIR_SYSVAL_PRINTF_BUFFER,    /* 1 comp: GPU address of the launch's printf buffer */
	SIR_SYSVAL_COUNT
};

enum sir_image_type {
	SIR_IMAGE_F32,
	SIR_IMAGE_S32,
	SIR_IMAGE_U32,
};

enum sir_conv_flags {
	SIR_CONV_RTE = 0,            /* round to nearest even (default) */
	SIR_CONV_RTZ = 1,
	SIR_CONV_RTP = 2,
	SIR_CONV_RTN = 3,
	SIR_CONV_ROUND_MASK = 3,
	SIR_CONV_SAT = 4,
};

enum sir_atomic {
	SIR_ATOMIC_ADD, SIR_ATOMIC_SUB, SIR_ATOMIC_XCHG, SIR_ATOMIC_CMPXCHG,
	SIR_ATOMIC_SMIN, SIR_ATOMIC_SMAX, SIR_ATOMIC_UMIN, SIR_ATOMIC_UMAX,
	SIR_ATOMIC_AND, SIR_ATOMIC_OR, SIR_ATOMIC_XOR,
	SIR_ATOMIC_INC, SIR_ATOMIC_DEC, /* as ADD/SUB of 1, src1 unused */
	SIR_ATOMIC_LOAD, SIR_ATOMIC_STORE,
};

enum sir_fence {
	SIR_FENCE_LOCAL = 1,
	SIR_FENCE_GLOBAL = 2,
};

struct sir_instr {
	uint16_t op;                 /* enum sir_op; SIR_OP_INVALID = deleted */
	struct sir_type type;        /* result type (void for stores, branches) */
	uint32_t block;              /* owning block index; UINT32_MAX none */
	uint32_t aux, aux2;          /* op-specific (see enum sir_op) */
	uint32_t num_srcs;
	sir_id *srcs;                /* owned by the function's arena */
	uint32_t *phi_blocks;        /* PHI: predecessor per source */
	uint32_t targets[2];         /* BR/CBR: block indices */
	union {
		uint64_t u64[16];    /* CONST lanes, SHUFFLE selectors */
		double f64[16];
	} imm;
};

struct sir_block {
	uint32_t num_instrs, cap_instrs;
	sir_id *instrs;              /* phis first, terminator last */
	uint32_t num_preds, cap_preds;
	uint32_t *preds;             /* recomputed by sir_compute_preds() */
};

/* A private variable of a function (OpVariable Function): an alloca. */
struct sir_local_var {
	uint32_t size, align;
	struct sir_type elem;        /* scalar/vector element, for promotion */
	bool is_array;               /* array or struct: stays in memory */
};

enum sir_arg_kind {
	SIR_ARG_VALUE,               /* scalar or vector by value */
	SIR_ARG_GLOBAL_PTR,
	SIR_ARG_CONSTANT_PTR,
	SIR_ARG_LOCAL_PTR,           /* the runtime allocates its size */
	SIR_ARG_SAMPLER,             /* sampler_t: 32 bits from a cl_sampler */
	SIR_ARG_IMAGE,               /* image*_t: an i32 handle; size is its
				      * image words' (slb_binary.h) */
};

enum sir_arg_access {
	SIR_ACCESS_NONE,
	SIR_ACCESS_READ_ONLY,
	SIR_ACCESS_WRITE_ONLY,
	SIR_ACCESS_READ_WRITE,
};

struct sir_param {
	struct sir_type type;
	enum sir_arg_kind kind;
	uint32_t size;               /* bytes of the value in the argument image */
	uint32_t align;
	bool is_const, is_restrict, is_volatile;
	enum sir_arg_access access;
	char *name;                  /* from OpName, or "" */
	char *type_name;             /* OpenCL type name, e.g. "float4*" */
};

struct sir_function {
	char *name;
	bool is_kernel;
	struct sir_type ret;
	uint32_t num_params;
	struct sir_param *params;
	uint32_t reqd_wg_size[3];    /* 0 0 0: none */
	uint32_t wg_size_hint[3];
	/* vec_type_hint, as SPIR-V's VecTypeHint encodes it: components in
	 * the high 16 bits (0 or 1: a scalar), the lane type in the low 16
	 * (0-3: 8- to 64-bit integer, 4-6: half, float, double). */
	bool has_vec_type_hint;
	uint32_t vec_type_hint;

	uint32_t num_values, cap_values;
	struct sir_instr *values;    /* [0] unused */
	uint32_t num_blocks, cap_blocks;
	struct sir_block *blocks;    /* [0] is the entry */
	uint32_t num_vars, cap_vars;
	struct sir_local_var *vars;
};

/* Module-scope variable: __constant data or a static __local array. */
struct sir_global {
	char *name;
	enum sir_space space;        /* CONSTANT or LOCAL */
	uint32_t size, align;
	uint8_t *init;               /* CONSTANT: size bytes; LOCAL: NULL */
	uint32_t offset;             /* CONSTANT: in the constant data
				      * (LOCAL: each kernel places its own,
				      * sir_lower_abi) */
};

struct sir_module {
	uint32_t num_functions, cap_functions;
	struct sir_function **functions;
	uint32_t num_globals, cap_globals;
	struct sir_global *globals;
	uint32_t constant_bytes;     /* size of the laid out constant data */
	uint32_t local_bytes;        /* all static __local bytes; a kernel's
				      * own are its local_static_bytes */
};

/* ---- Construction ------------------------------------------------- */

struct sir_module *sir_module_create(void);
void sir_module_destroy(struct sir_module *m);
struct sir_function *sir_function_create(struct sir_module *m,
					 const char *name);
/* Removes and frees every function i with drop[i] (e.g. inlined
 * helpers); calls to the others follow them to their new indices. */
void sir_functions_remove(struct sir_module *m, const bool *drop);
uint32_t sir_global_add(struct sir_module *m, const struct sir_global *g);

uint32_t sir_block_add(struct sir_function *f);
uint32_t sir_var_add(struct sir_function *f, const struct sir_local_var *v);

/*
 * Creates a value with no block (constants, params, or an instruction not
 * yet placed); srcs are copied. Returns its id.
 */
sir_id sir_value_new(struct sir_function *f, enum sir_op op,
		     struct sir_type type, const sir_id *srcs,
		     uint32_t num_srcs);
/* Appends a new instruction to block b (before nothing: at the end). */
sir_id sir_emit(struct sir_function *f, uint32_t b, enum sir_op op,
		struct sir_type type, const sir_id *srcs, uint32_t num_srcs);
/* Inserts an existing unplaced value into block b at position pos. */
void sir_block_insert(struct sir_function *f, uint32_t b, uint32_t pos,
		      sir_id v);
/* Scalar or splat constants of a type (bit patterns per lane). */
sir_id sir_const_u64(struct sir_function *f, struct sir_type t, uint64_t v);
sir_id sir_const_f64(struct sir_function *f, struct sir_type t, double v);

static inline struct sir_instr *sir_val(struct sir_function *f, sir_id v)
{
	return &f->values[v];
}

/* Replaces every use of `from` by `to` (phis included). */
void sir_replace_uses(struct sir_function *f, sir_id from, sir_id to);
/* Marks v deleted and drops it from its block. */
void sir_remove(struct sir_function *f, sir_id v);
/* v's sources become srcs[0..n) (new storage: n may exceed the old count). */
void sir_set_srcs(struct sir_function *f, sir_id v, const sir_id *srcs,
		  uint32_t n);
/* Drops deleted entries from every block's list. */
void sir_compact_blocks(struct sir_function *f);
void sir_compute_preds(struct sir_function *f);

/*
 * realloc/calloc that end the process with a message when memory runs out:
 * the whole compiler (passes and back end) allocates through these.
 */
void *sir_xrealloc(void *p, size_t n);
void *sir_xcalloc(size_t n, size_t size);
/* A malloc'ed copy of s (NULL: ""). */
char *sir_xstrdup(const char *s);

/* Use counts per value (caller frees); phis and terminators included. */
uint32_t *sir_use_counts(const struct sir_function *f);

/* ---- Checking and printing --------------------------------------- */

/*
 * Structural checks: types of operands, terminators, phis matching preds,
 * definitions dominate uses. Returns false and writes a message.
 */
bool sir_verify(const struct sir_function *f, char *err, size_t errsz);
void sir_print_function(FILE *out, const struct sir_function *f);
const char *sir_op_name(enum sir_op op);

#endif
