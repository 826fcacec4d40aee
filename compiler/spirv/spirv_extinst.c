/* SPDX-License-Identifier: MIT */
/*
 * OpenCL.std extended instructions: the dispatch. What SIR can express
 * exactly in a few ops is expanded in place by the families in
 * spirv_extinst_*.c; everything else becomes a call to the libclc function
 * of the Itanium-mangled OpenCL C name (exp(float4) -> _Z3expDv4_f, with
 * the substitutions of repeated vector and pointer types: pow(float4,
 * float4) -> _Z3powDv4_fS_, fract(float4, global float4 *) ->
 * _Z5fractDv4_fPU3AS1S_), which the driver brings in from the library.
 */
#include "spirv_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define FAIL(...) (spv_error(fc->c, __VA_ARGS__))

/* ---- Mangling ---------------------------------------------------- */

/*
 * snprintf for the bounded pieces of a mangled name; a piece that does not
 * fit leaves a truncated name, which then matches no library export (the
 * caller reports the built-in as missing).
 */
static bool spv_fmt(char *out, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool spv_fmt(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, size, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < size;
}

struct spv_mangler {
	char subs[8][48];            /* substitution candidates, unsubstituted */
	unsigned int num_subs;
	bool is_unsigned;            /* integers are u_ operands */
	bool half_as_float;          /* the float overload of a half call */
};

static void spv_sub_ref(unsigned int k, char *out, size_t size)
{
	if (k == 0)
		spv_fmt(out, size, "S_");
	else
		spv_fmt(out, size, "S%u_", k - 1);
}

/* Appends key's mangling to out: a substitution or key itself (added). */
static void spv_mangle_candidate(struct spv_mangler *mg, const char *key,
				 const char *spelled, char *out, size_t size)
{
	unsigned int k;

	for (k = 0; k < mg->num_subs; k++) {
		if (!strcmp(mg->subs[k], key)) {
			spv_sub_ref(k, out, size);
			return;
		}
	}
	if (mg->num_subs < 8)
		spv_fmt(mg->subs[mg->num_subs++], sizeof(mg->subs[0]), "%s",
			 key);
	spv_fmt(out, size, "%s", spelled);
}

/* OpenCL C's char..long are signed unless an s_/u_ name says unsigned. */
static const char *spv_scalar_code(struct sir_type t, bool is_unsigned,
				   bool half_as_float)
{
	if (t.kind == SIR_FLOAT)
		return t.bits == 16 && !half_as_float ? "Dh" :
		       t.bits <= 32 ? "f" : "d";
	if (t.kind == SIR_INT && is_unsigned)
		return t.bits == 8 ? "h" : t.bits == 16 ? "t" :
		       t.bits == 32 ? "j" : "m";
	if (t.kind == SIR_INT)
		return t.bits == 8 ? "c" : t.bits == 16 ? "s" :
		       t.bits == 32 ? "i" : "l";
	return NULL;
}

/* Mangling of a value type; key is its unsubstituted spelling. */
static bool spv_mangle_value(struct spv_mangler *mg, struct sir_type t,
			     char *key, char *out, size_t size)
{
	const char *code = spv_scalar_code(t, mg->is_unsigned,
					   mg->half_as_float);

	if (!code)
		return false;
	if (t.comps == 1) {
		spv_fmt(key, size, "%s", code);
		spv_fmt(out, size, "%s", code);
		return true;
	}
	spv_fmt(key, size, "Dv%u_%s", t.comps, code);
	spv_mangle_candidate(mg, key, key, out, size);
	return true;
}

static bool spv_mangle_arg(struct spv_fn *fc, struct spv_mangler *mg,
			   uint32_t arg, char *out, size_t size)
{
	const struct spv_module *m = fc->m;
	const struct spv_type *pt = spv_type_of_id(m, m->ids[arg].type);
	char key[48], in_out[48], qkey[64], qout[64], pkey[72];
	struct sir_type t;
	enum sir_space space;
	char msg[96];

	if (!pt)
		return false;
	if (pt->kind != SPV_T_PTR) {
		if (!spv_sir_type(m, m->ids[arg].type, &t, msg, sizeof(msg)))
			return false;
		return spv_mangle_value(mg, t, key, out, size);
	}
	if (!spv_space(pt->storage, &space) ||
	    !spv_sir_type(m, pt->elem, &t, msg, sizeof(msg)) ||
	    (mg->half_as_float && t.kind == SIR_FLOAT && t.bits == 16) ||
	    !spv_mangle_value(mg, t, key, in_out, sizeof(in_out)))
		return false;
	if (space == SIR_SPACE_PRIVATE) {
		spv_fmt(pkey, sizeof(pkey), "P%s", key);
		spv_fmt(qout, sizeof(qout), "P%s", in_out);
		spv_mangle_candidate(mg, pkey, qout, out, size);
		return true;
	}
	spv_fmt(qkey, sizeof(qkey), "U3AS%u%s",
		 space == SIR_SPACE_GLOBAL ? 1u :
		 space == SIR_SPACE_CONSTANT ? 2u : 3u, key);
	spv_fmt(qout, sizeof(qout), "U3AS%u%s",
		 space == SIR_SPACE_GLOBAL ? 1u :
		 space == SIR_SPACE_CONSTANT ? 2u : 3u, in_out);
	spv_mangle_candidate(mg, qkey, qout, in_out, sizeof(in_out));
	spv_fmt(pkey, sizeof(pkey), "P%s", qkey);
	spv_fmt(qout, sizeof(qout), "P%s", in_out);
	spv_mangle_candidate(mg, pkey, qout, out, size);
	return true;
}

/* The mangled libclc name of x (half operands as floats if asked). */
static bool spv_mangle_call(struct spv_fn *fc, const struct spv_ext *x,
			    bool half_as_float, char *mangled, size_t size)
{
	struct spv_mangler mg = { .num_subs = 0 };
	const char *name = x->name;
	char part[80];
	uint32_t i;
	size_t len;

	mg.half_as_float = half_as_float;
	if ((name[0] == 's' || name[0] == 'u') && name[1] == '_') {
		mg.is_unsigned = name[0] == 'u';
		name += 2;
	}
	len = (size_t)snprintf(mangled, size, "_Z%zu%s", strlen(name), name);
	for (i = 0; i < x->num_ids; i++) {
		if (!spv_mangle_arg(fc, &mg, x->w[5 + i], part, sizeof(part)))
			return false;
		len += (size_t)snprintf(mangled + len, size - len, "%s", part);
		if (len >= size)
			return false;
	}
	return true;
}

static bool is_half(struct sir_type t)
{
	return t.kind == SIR_FLOAT && t.bits == 16;
}

sir_id spv_float_call(struct spv_fn *fc, const char *name, sir_id fv)
{
	struct sir_type t = fc->f->values[fv].type;
	char elem = t.bits == 64 ? 'd' : 'f';
	char mangled[64];
	int32_t callee;
	sir_id r;

	if (t.comps == 1)
		snprintf(mangled, sizeof(mangled), "_Z%zu%s%c", strlen(name),
			 name, elem);
	else
		snprintf(mangled, sizeof(mangled), "_Z%zu%sDv%u_%c",
			 strlen(name), name, t.comps, elem);
	callee = spv_function_by_name(fc->c, mangled);
	if (callee < 0)
		return 0;
	r = spv_emit(fc, SIR_OP_CALL, t, &fv, 1);
	fc->f->values[r].aux = (uint32_t)callee;
	return r;
}

/*
 * sincos(halfN x, halfN *c): libclc has no half one, and the float one
 * would write floats. sin and cos of x in float, each rounded to half;
 * the cosine stored through c. 0 when a call failed (the error is set).
 */
static sir_id spv_half_sincos(struct spv_fn *fc, const struct spv_ext *x)
{
	struct sir_type ht = x->rt;
	struct sir_type ft = sir_type_make(SIR_FLOAT, 32, ht.comps);
	sir_id xf = spv_un(fc, SIR_OP_FCONV, ft, x->a[0]), sn, cs, st;

	if (!(sn = spv_float_call(fc, "sin", xf)) ||
	    !(cs = spv_float_call(fc, "cos", xf)))
		return 0;
	st = spv_emit(fc, SIR_OP_STORE, sir_type_make(SIR_VOID, 0, 0),
		      (sir_id[]){ x->a[1], spv_un(fc, SIR_OP_FCONV, ht, cs) },
		      2);
	/* halfN's alignment: its size, half3 that of half4. */
	fc->f->values[st].aux = 2u * (ht.comps == 3 ? 4u : ht.comps);
	return spv_un(fc, SIR_OP_FCONV, ht, sn);
}

/*
 * A half function libclc lacks (its SPIR-V library has few): the float
 * function on the operands converted to float (exact), its float result
 * rounded to half once. The float function's error, a few fp32 ulps, is
 * a small fraction of a half ulp, so the result keeps within the half
 * bounds (cl_khr_fp16). Operands that point to halves have no float
 * overload to use: sincos, the one such function libclc lacks, is sin
 * and cos. Functions whose result the rounding would undo (nextafter)
 * are expanded in place before. False when none of this applies; true
 * with *out 0 when a call failed (the error is set).
 */
static bool spv_half_via_float(struct spv_fn *fc, const struct spv_ext *x,
			       sir_id *out)
{
	char mangled[256];
	sir_id args[SPV_EXT_MAX_ARGS];
	struct sir_type rt = x->rt;
	bool any = is_half(rt);
	int32_t callee;
	uint32_t i;

	for (i = 0; i < x->num_ids; i++)
		any |= is_half(fc->f->values[x->a[i]].type);
	if (any && x->num == OpenCLstd_Sincos && x->num_ids == 2 &&
	    is_half(rt)) {
		*out = spv_half_sincos(fc, x);
		return true;
	}
	if (!any || !fc->c->lib ||
	    !spv_mangle_call(fc, x, true, mangled, sizeof(mangled)) ||
	    spv_find_export(fc->c->lib, mangled) == UINT32_MAX)
		return false;
	*out = 0;
	callee = spv_function_by_name(fc->c, mangled);
	if (callee < 0)
		return true;
	for (i = 0; i < x->num_ids; i++) {
		struct sir_type t = fc->f->values[x->a[i]].type;

		args[i] = x->a[i];
		if (is_half(t))
			args[i] = spv_un(fc, SIR_OP_FCONV,
					 sir_type_make(SIR_FLOAT, 32, t.comps),
					 x->a[i]);
	}
	if (is_half(rt))
		rt.bits = 32;
	*out = spv_emit(fc, SIR_OP_CALL, rt, args, x->num_ids);
	fc->f->values[*out].aux = (uint32_t)callee;
	if (is_half(x->rt))
		*out = spv_un(fc, SIR_OP_FCONV, x->rt, *out);
	return true;
}

/*
 * A call to the libclc function for x. OpenCL.std's s_/u_ names are the
 * OpenCL C name with the operands' signedness (s_mad_sat(int) ->
 * _Z7mad_satiii, u_mad_sat(uint) -> _Z7mad_satjjj).
 */
static bool spv_library_call(struct spv_fn *fc, const struct spv_ext *x,
			     sir_id *out)
{
	char mangled[256];
	int32_t callee;

	if (!spv_mangle_call(fc, x, false, mangled, sizeof(mangled)))
		return FAIL("unsupported OpenCL built-in %s: operand type not "
			    "supported", x->name);
	/* libclc's half ldexp calls a __clc_ldexp(half, int) it lacks. */
	if (x->num == OpenCLstd_Ldexp && spv_half_via_float(fc, x, out))
		return *out != 0;
	if (fc->c->lib && spv_find_export(fc->c->lib, mangled) == UINT32_MAX) {
		if (spv_half_via_float(fc, x, out))
			return *out != 0;
		return FAIL("unsupported OpenCL built-in %s (no %s in the "
			    "library)", x->name, mangled);
	}
	callee = spv_function_by_name(fc->c, mangled);
	if (callee < 0)
		return false;
	*out = spv_emit(fc, SIR_OP_CALL, x->rt, x->a, x->num_ids);
	fc->f->values[*out].aux = (uint32_t)callee;
	return true;
}

/* ---- Helpers of the expanders -------------------------------------- */

sir_id spv_un(struct spv_fn *fc, enum sir_op op, struct sir_type t, sir_id a)
{
	return spv_emit(fc, op, t, &a, 1);
}

sir_id spv_bin(struct spv_fn *fc, enum sir_op op, struct sir_type t,
	       sir_id a, sir_id b)
{
	return spv_emit(fc, op, t, (sir_id[]){ a, b }, 2);
}

sir_id spv_fsplat(struct spv_fn *fc, struct sir_type t, double v)
{
	return sir_const_f64(fc->f, t, v);
}

sir_id spv_ext_widen(struct spv_fn *fc, sir_id v, struct sir_type t)
{
	sir_id lanes[16];
	unsigned int i;

	if (fc->f->values[v].type.comps != 1 || t.comps == 1)
		return v;
	for (i = 0; i < t.comps; i++)
		lanes[i] = v;
	return spv_emit(fc, SIR_OP_VEC, t, lanes, t.comps);
}

bool spv_ext_args(struct spv_fn *fc, const struct spv_ext *x, uint32_t k,
		  struct sir_type t, sir_id *args)
{
	uint32_t i;

	if (x->num_ids != k)
		return FAIL("OpenCL.std %s: %u operands, expected %u", x->name,
			    x->num_ids, k);
	if (t.kind != SIR_INT && t.kind != SIR_FLOAT)
		return FAIL("OpenCL.std %s: unsupported result type", x->name);
	for (i = 0; i < k; i++) {
		args[i] = spv_ext_widen(fc, x->a[i], t);
		if (!sir_type_eq(fc->f->values[args[i]].type, t))
			return FAIL("OpenCL.std %s: operand %u has the wrong "
				    "type", x->name, i);
	}
	return true;
}

struct sir_type spv_int_type(struct sir_type t)
{
	return sir_type_make(SIR_INT, t.bits, t.comps);
}

/* ---- printf -------------------------------------------------------- */

/* Most arguments one printf takes (the record table's bound). */
#define SPV_PRINTF_MAX_ARGS 64u

bool spv_ext_printf(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
		    struct sir_type rt, sir_id *out)
{
	sir_id srcs[SPV_PRINTF_MAX_ARGS + 1];
	uint32_t i, n = wc - 5;

	if (n < 1)
		return FAIL("printf: no format");
	if (n > SPV_PRINTF_MAX_ARGS + 1)
		return FAIL("printf: %u arguments (at most %u)", n - 1,
			    SPV_PRINTF_MAX_ARGS);
	if (rt.kind != SIR_INT || rt.bits != 32 || rt.comps != 1)
		return FAIL("printf: the result must be an int");
	for (i = 0; i < n; i++)
		if (!(srcs[i] = spv_operand(fc, w, wc, 5 + i)))
			return false;
	if (fc->f->values[srcs[0]].type.kind != SIR_PTR)
		return FAIL("printf: the format is not a pointer");
	*out = spv_emit(fc, SIR_OP_PRINTF, rt, srcs, n);
	return true;
}

/* ---- Dispatch ------------------------------------------------------ */

/* How many trailing operands of num are literals rather than ids. */
static uint32_t spv_ext_literals(uint32_t num)
{
	switch (num) {
	case OpenCLstd_Vloadn: case OpenCLstd_Vload_halfn:
	case OpenCLstd_Vloada_halfn: case OpenCLstd_Vstore_half_r:
	case OpenCLstd_Vstore_halfn_r: case OpenCLstd_Vstorea_halfn_r:
		return 1;
	default:
		return 0;
	}
}

/* result, but fixed where x's first operand equals the constant at. */
static sir_id spv_result_at(struct spv_fn *fc, const struct spv_ext *x,
			    double at, sir_id fixed, sir_id result)
{
	struct sir_type bt = sir_type_make(SIR_BOOL, 1, x->rt.comps);
	sir_id hit = spv_bin(fc, SIR_OP_FEQ, bt, x->a[0],
			     spv_fsplat(fc, x->rt, at));

	return spv_emit(fc, SIR_OP_SELECT, x->rt,
			(sir_id[]){ hit, fixed, result }, 3);
}

bool spv_ext_inst(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
		  struct sir_type rt, sir_id *out)
{
	static bool (*const families[])(struct spv_fn *,
					const struct spv_ext *, sir_id *) = {
		spv_ext_tgamma, spv_ext_float, spv_ext_integer,
		spv_ext_vector, spv_ext_memory,
	};
	struct spv_ext x = { .num = w[4], .w = w, .wc = wc, .rt = rt };
	uint32_t i, lits = spv_ext_literals(x.num);

	x.name = spv_ocl_ext_name(x.num);
	if (!x.name)
		return FAIL("unknown OpenCL.std instruction %u", x.num);
	if (x.num == OpenCLstd_Printf)
		return spv_ext_printf(fc, w, wc, rt, out);
	if (wc - 5 < lits)
		return FAIL("OpenCL.std %s: too few operands", x.name);
	x.num_ids = wc - 5 - lits;
	if (x.num_ids > SPV_EXT_MAX_ARGS)
		return FAIL("OpenCL.std %s: too many operands", x.name);
	for (i = 0; i < x.num_ids; i++)
		if (!(x.a[i] = spv_operand(fc, w, wc, 5 + i)))
			return false;
	if (x.num == OpenCLstd_Prefetch) {
		/* A hint without effect here: an unused value for the
		 * result id, which DCE drops. */
		*out = sir_const_u64(fc->f, sir_type_make(SIR_INT, 32, 1), 0);
		return true;
	}
	*out = 0;
	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		if (!families[i](fc, &x, out))
			return false;
		if (*out)
			return true;
	}
	if (!spv_library_call(fc, &x, out))
		return false;
	/* libclc's lgamma(-inf) and lgamma_r's are -inf; OpenCL 1.2
	 * 7.5.1's +inf. */
	if ((x.num == OpenCLstd_Lgamma || x.num == OpenCLstd_Lgamma_r) &&
	    x.rt.kind == SIR_FLOAT)
		*out = spv_result_at(fc, &x, -INFINITY,
				     spv_fsplat(fc, x.rt, INFINITY), *out);
	/* libclc's float (and so half) tgamma(-0) is +inf; OpenCL's -inf,
	 * which 1/x gives for either zero (doubles: spirv_tgamma.c). */
	if (x.num == OpenCLstd_Tgamma && x.rt.kind == SIR_FLOAT)
		*out = spv_result_at(fc, &x, 0.0,
				     spv_bin(fc, SIR_OP_FDIV, x.rt,
					     spv_fsplat(fc, x.rt, 1.0),
					     x.a[0]), *out);
	return true;
}
