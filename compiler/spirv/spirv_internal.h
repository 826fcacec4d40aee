/* SPDX-License-Identifier: MIT */
/*
 * Inside the SPIR-V reader: the parsed, indexed form of a module (shared by
 * user modules and the libclc library) and the translation context.
 */
#ifndef SLEIPNIR_SPIRV_INTERNAL_H
#define SLEIPNIR_SPIRV_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>
#include <spirv/unified1/OpenCL.std.h>

#include "sir.h"
#include "spirv_names.h"
#include "spirv_reader.h"

/* Limits that keep malformed input from causing huge allocations. */
#define SPV_MAX_BOUND (1u << 22)
#define SPV_MAX_TYPE_SIZE (16u << 20)
#define SPV_MAX_NESTING 32

enum spv_tkind {
	SPV_T_NONE,
	SPV_T_VOID,
	SPV_T_BOOL,
	SPV_T_INT,
	SPV_T_FLOAT,
	SPV_T_VECTOR,
	SPV_T_ARRAY,
	SPV_T_STRUCT,
	SPV_T_PTR,
	SPV_T_FUNC,
	SPV_T_EVENT,         /* event_t: a 32-bit value, always 0 here */
	SPV_T_SAMPLER,       /* sampler_t: a 32-bit value, only passed */
	SPV_T_IMAGE,         /* image*_t: a 32-bit handle (sir_lower_abi) */
	SPV_T_SAMPLED_IMAGE, /* OpSampledImage's result (elem: the image) */
	SPV_T_OTHER,         /* opaque, queue...: only named in errors */
};

struct spv_type {
	uint8_t kind;        /* enum spv_tkind */
	uint8_t width;       /* int/float bits; vector: element bits */
	bool packed;         /* struct: CPacked */
	uint8_t image_dim;   /* image: SpvDim (1D, 2D, 3D, Buffer) */
	bool image_arrayed;
	uint8_t image_access; /* image: SpvAccessQualifier */
	uint32_t elem;       /* vector/array element, pointee, return */
	uint32_t count;      /* vector comps, array length, members, params */
	uint32_t storage;    /* pointer storage class */
	uint32_t size, align; /* memory layout; size 0: not sized */
	const uint32_t *members; /* struct members / function params */
	uint32_t *offsets;   /* struct member offsets (owned) */
};

struct spv_id {
	uint32_t def;        /* word offset of the defining instruction */
	uint16_t opcode;
	uint32_t type;       /* result type id */
	uint32_t type_index; /* types: index in spv_module.types, +1 */
	int32_t builtin;     /* BuiltIn decoration or -1 */
	uint32_t align;      /* Alignment decoration or 0 */
	uint32_t param_attrs; /* 1 << FuncParamAttr */
	int8_t fp_rounding;  /* FPRoundingMode or -1 */
	bool saturated, is_volatile, is_import, packed;
	const char *link_name; /* LinkageAttributes name */
	const char *name;    /* OpName */
};

struct spv_function {
	uint32_t id;
	uint32_t begin, end; /* word offsets: OpFunction, past OpFunctionEnd */
	bool has_body;
};

struct spv_entry {
	uint32_t func;
	const char *name;
	uint32_t local_size[3], size_hint[3];
	bool has_vec_hint;
	uint32_t vec_hint;           /* VecTypeHint's operand */
};

struct spv_export {
	const char *name;
	uint32_t func;       /* index in functions */
};

struct spv_module {
	const uint32_t *words;
	size_t num_words;
	uint32_t bound;
	uint32_t ext_opencl; /* id of the OpenCL.std import, 0 none */
	struct spv_id *ids;
	uint32_t num_types;
	struct spv_type *types;
	uint32_t num_functions;
	struct spv_function *functions;
	uint32_t num_entries;
	struct spv_entry *entries;
	uint32_t num_strings;
	const char **strings; /* OpString contents */
	uint32_t num_globals;
	uint32_t *globals;   /* module-scope OpVariable ids */
	uint32_t num_exports;
	struct spv_export *exports; /* sorted by name */
	uint32_t *member_decos; /* word offsets of OpMemberDecorate */
	uint32_t num_member_decos;
};

struct spirv_library {
	uint32_t *words;
	struct spv_module mod;
};

/* spirv_module.c: parsing, validation of the module-level part, index. */
bool spv_module_parse(struct spv_module *m, const uint32_t *words, size_t n,
		      bool is_library, char *err, size_t errsz);
void spv_module_free(struct spv_module *m);
/* The type of id, or NULL when id is not a type. */
const struct spv_type *spv_type_of_id(const struct spv_module *m,
				      uint32_t id);
/* Function index of an exported name, or UINT32_MAX. */
uint32_t spv_find_export(const struct spv_module *m, const char *name);
/* Decodes a literal string at words[at..end); NULL if not terminated. */
const char *spv_string(const uint32_t *words, size_t at, size_t end,
		       size_t *next);

/* spirv_types.c: SPIR-V types in SIR terms, constant values. */
bool spv_sir_type(const struct spv_module *m, uint32_t type_id,
		  struct sir_type *out, char *err, size_t errsz);
bool spv_space(uint32_t storage, enum sir_space *out);
/* Scalar/vector constant lanes of a constant id; false if not one. */
bool spv_const_lanes(const struct spv_module *m, uint32_t id,
		     uint64_t lanes[16], unsigned int *comps);
/* Serialises constant id of type_id into buf (size bytes of the type). */
bool spv_const_bytes(const struct spv_module *m, uint32_t id,
		     uint32_t type_id, uint8_t *buf, unsigned int depth,
		     char *err, size_t errsz);
/* OpenCL C name of a type for kernel_arg_type ("float4*"). */
void spv_type_name(const struct spv_module *m, uint32_t type_id, char *buf,
		   size_t size);
/* The same, malloc'ed and whole; NULL when out of memory. */
char *spv_type_name_alloc(const struct spv_module *m, uint32_t type_id);

/* The translation of one spirv_to_sir() call. */
struct spv_conv {
	struct sir_module *sm;
	const struct spv_module *user, *lib;
	int32_t *user_funcs, *lib_funcs; /* SPIR-V function id -> SIR index */
	int32_t *user_globals, *lib_globals;
	uint32_t num_work, cap_work;
	struct spv_work { const struct spv_module *m; uint32_t func; } *work;
	uint64_t *byval;     /* per SIR function: bit i, parameter i is ByVal */
	uint32_t num_byval;
	char *err;
	size_t errsz;
};

bool spv_error(struct spv_conv *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* spirv_reader.c: functions and globals, created on first reference. */
int32_t spv_function_ref(struct spv_conv *c, const struct spv_module *m,
			 uint32_t func_id);
int32_t spv_function_by_name(struct spv_conv *c, const char *name);
int32_t spv_global_ref(struct spv_conv *c, const struct spv_module *m,
		       uint32_t var_id);

/* The translation of one function body. */
struct spv_edge {
	uint32_t from_label, to_label, block;
};

struct spv_fn {
	struct spv_conv *c;
	const struct spv_module *m;
	struct sir_function *f;
	sir_id *vals;                /* per SPIR-V id */
	uint32_t *label_block;       /* per SPIR-V id: SIR block + 1 */
	uint32_t cur, cur_label;     /* block being filled */
	uint32_t prelude;            /* instructions put first in b0 */
	uint32_t num_edges, cap_edges;
	struct spv_edge *edges;
	uint32_t num_phis, cap_phis;
	uint32_t *phis;              /* word offsets of OpPhi */
};

sir_id spv_emit(struct spv_fn *fc, enum sir_op op, struct sir_type t,
		const sir_id *srcs, uint32_t n);
/* An instruction put at the start of the entry block (dominates all). */
sir_id spv_prelude(struct spv_fn *fc, enum sir_op op, struct sir_type t,
		   const sir_id *srcs, uint32_t n);
/* The SIR value of operand word i of instruction w (0 on error). */
sir_id spv_operand(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
		   uint32_t i);
/* A splat constant of type t. */
sir_id spv_splat(struct spv_fn *fc, struct sir_type t, uint64_t bits);

/* spirv_image.c: the image instructions; false after an error. */
bool spv_image_inst(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
		    uint32_t op, struct sir_type rt, sir_id *out);

/* spirv_extinst.c: OpExtInst of OpenCL.std. */
bool spv_ext_inst(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
		  struct sir_type rt, sir_id *out);

/*
 * One OpenCL.std instruction being expanded: w[5 + i] are its operands,
 * a[i] the SIR values of the first num_ids of them (the rest, if any, are
 * literals: vload_halfn's n, vstore_half_r's rounding mode).
 */
#define SPV_EXT_MAX_ARGS 8
struct spv_ext {
	uint32_t num;                /* OpenCLstd_* */
	const char *name;
	const uint32_t *w;
	uint32_t wc, num_ids;
	struct sir_type rt;
	sir_id a[SPV_EXT_MAX_ARGS];
};

sir_id spv_un(struct spv_fn *fc, enum sir_op op, struct sir_type t,
	      sir_id a);
sir_id spv_bin(struct spv_fn *fc, enum sir_op op, struct sir_type t,
	       sir_id a, sir_id b);
sir_id spv_fsplat(struct spv_fn *fc, struct sir_type t, double v);
/* v widened to t.comps lanes when it is a scalar (min(float4, float)). */
sir_id spv_ext_widen(struct spv_fn *fc, sir_id v, struct sir_type t);
/*
 * args = x's k operands, scalars widened to t, each checked to be of type
 * t; false with an error otherwise.
 */
bool spv_ext_args(struct spv_fn *fc, const struct spv_ext *x, uint32_t k,
		  struct sir_type t, sir_id *args);
/* The integer type of t's shape (float4 -> 32-bit int x4). */
struct sir_type spv_int_type(struct sir_type t);

/*
 * Expanders, one per family; each returns false on error, and leaves *out
 * 0 when the instruction is not of its family.
 */
bool spv_ext_float(struct spv_fn *fc, const struct spv_ext *x, sir_id *out);
bool spv_ext_integer(struct spv_fn *fc, const struct spv_ext *x,
		     sir_id *out);
bool spv_ext_vector(struct spv_fn *fc, const struct spv_ext *x, sir_id *out);
bool spv_ext_memory(struct spv_fn *fc, const struct spv_ext *x, sir_id *out);
/*
 * libclc's one-operand function name on fv, a float or a double (or a
 * vector of them): its result, of fv's type; 0 when the library lacks it.
 */
sir_id spv_float_call(struct spv_fn *fc, const char *name, sir_id fv);
/* spirv_tgamma.c: tgamma of doubles (libclc's is far off). */
bool spv_ext_tgamma(struct spv_fn *fc, const struct spv_ext *x, sir_id *out);
/* printf: one SIR_OP_PRINTF (format, then arguments), lowered later. */
bool spv_ext_printf(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
		    struct sir_type rt, sir_id *out);

/* spirv_async.c: async_work_group_(strided_)copy, wait_group_events. */
sir_id spv_group_async_copy(struct spv_fn *fc, const uint32_t *w,
			    uint32_t wc);
bool spv_group_wait_events(struct spv_fn *fc, const uint32_t *w,
			   uint32_t wc);

/* spirv_byval.c: ByVal (struct and union) parameters. */
bool spv_byval_mark(struct spv_conv *c, uint32_t func, uint32_t i);
/* Whether parameter i of SIR function func was marked ByVal. */
bool spv_byval_param(const struct spv_conv *c, uint32_t func, uint32_t i);
/* After fc's body is read: private copies where the callee needs one. */
bool spv_byval_copies(struct spv_fn *fc, const struct spv_function *fn);

/* spirv_function.c: one function body. */
bool spv_convert_function(struct spv_conv *c, const struct spv_module *m,
			  uint32_t func_index, struct sir_function *f);

#endif
