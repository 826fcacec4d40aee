/* SPDX-License-Identifier: MIT */
/*
 * OpenCL.std extended instructions. What SIR has an op for (and the
 * native_/half_ functions, built from FEXP2/FLOG2/FRCP...) is expanded in
 * place; everything else becomes a call to the libclc function of the
 * Itanium-mangled OpenCL C name (exp(float4) -> _Z3expDv4_f, with the
 * substitutions of repeated vector and pointer types: pow(float4, float4)
 * -> _Z3powDv4_fS_), which the driver brings in from the library.
 */
#include "spirv_internal.h"

#include <stdio.h>
#include <string.h>

#define FAIL(...) (spv_error(fc->c, __VA_ARGS__))

/* ---- Mangling ---------------------------------------------------- */

struct spv_mangler {
	char subs[8][48];            /* substitution candidates, unsubstituted */
	unsigned int num_subs;
};

static void spv_sub_ref(unsigned int k, char *out, size_t size)
{
	if (k == 0)
		snprintf(out, size, "S_");
	else
		snprintf(out, size, "S%u_", k - 1);
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
		snprintf(mg->subs[mg->num_subs++], sizeof(mg->subs[0]), "%s",
			 key);
	snprintf(out, size, "%s", spelled);
}

static const char *spv_scalar_code(struct sir_type t)
{
	if (t.kind == SIR_FLOAT)
		return t.bits == 16 ? "Dh" : t.bits == 32 ? "f" : "d";
	if (t.kind == SIR_INT)
		return t.bits == 8 ? "c" : t.bits == 16 ? "s" :
		       t.bits == 32 ? "i" : "l";
	return NULL;
}

/* Mangling of a value type; key is its unsubstituted spelling. */
static bool spv_mangle_value(struct spv_mangler *mg, struct sir_type t,
			     char *key, char *out, size_t size)
{
	const char *code = spv_scalar_code(t);

	if (!code)
		return false;
	if (t.comps == 1) {
		snprintf(key, size, "%s", code);
		snprintf(out, size, "%s", code);
		return true;
	}
	snprintf(key, size, "Dv%u_%s", t.comps, code);
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
	    !spv_mangle_value(mg, t, key, in_out, sizeof(in_out)))
		return false;
	if (space == SIR_SPACE_PRIVATE) {
		snprintf(pkey, sizeof(pkey), "P%s", key);
		snprintf(qout, sizeof(qout), "P%s", in_out);
		spv_mangle_candidate(mg, pkey, qout, out, size);
		return true;
	}
	snprintf(qkey, sizeof(qkey), "U3AS%u%s",
		 space == SIR_SPACE_GLOBAL ? 1u :
		 space == SIR_SPACE_CONSTANT ? 2u : 3u, key);
	snprintf(qout, sizeof(qout), "U3AS%u%s",
		 space == SIR_SPACE_GLOBAL ? 1u :
		 space == SIR_SPACE_CONSTANT ? 2u : 3u, in_out);
	spv_mangle_candidate(mg, qkey, qout, in_out, sizeof(in_out));
	snprintf(pkey, sizeof(pkey), "P%s", qkey);
	snprintf(qout, sizeof(qout), "P%s", in_out);
	spv_mangle_candidate(mg, pkey, qout, out, size);
	return true;
}

/* A call to the libclc function for OpenCL.std name with w's operands. */
static bool spv_library_call(struct spv_fn *fc, const char *name,
			     const uint32_t *w, uint32_t wc,
			     struct sir_type rt, sir_id *out)
{
	struct spv_mangler mg = { .num_subs = 0 };
	char mangled[256], part[80];
	sir_id args[8];
	uint32_t i, n = wc - 5;
	int32_t callee;
	size_t len;

	if (n > 8)
		return FAIL("OpenCL.std %s: too many operands", name);
	len = (size_t)snprintf(mangled, sizeof(mangled), "_Z%zu%s",
			       strlen(name), name);
	for (i = 0; i < n; i++) {
		if (!(args[i] = spv_operand(fc, w, wc, 5 + i)))
			return false;
		if (!spv_mangle_arg(fc, &mg, w[5 + i], part, sizeof(part)))
			return FAIL("OpenCL.std %s: unsupported operand type",
				    name);
		len += (size_t)snprintf(mangled + len, sizeof(mangled) - len,
					"%s", part);
		if (len >= sizeof(mangled))
			return FAIL("OpenCL.std %s: name too long", name);
	}
	callee = spv_function_by_name(fc->c, mangled);
	if (callee < 0)
		return false;
	*out = spv_emit(fc, SIR_OP_CALL, rt, args, n);
	fc->f->values[*out].aux = (uint32_t)callee;
	return true;
}

/* ---- Native expansions ------------------------------------------- */

static sir_id spv_un(struct spv_fn *fc, enum sir_op op, struct sir_type t,
		     sir_id a)
{
	return spv_emit(fc, op, t, &a, 1);
}

static sir_id spv_bin(struct spv_fn *fc, enum sir_op op, struct sir_type t,
		      sir_id a, sir_id b)
{
	return spv_emit(fc, op, t, (sir_id[]){ a, b }, 2);
}

static sir_id spv_fsplat(struct spv_fn *fc, struct sir_type t, double v)
{
	return sir_const_f64(fc->f, t, v);
}

/* vloadn / vstoren: element-aligned vector access at p + offset * n. */
static bool spv_vector_memory(struct spv_fn *fc, const uint32_t *w,
			      uint32_t wc, bool store, struct sir_type rt,
			      sir_id *out)
{
	sir_id data = 0, off, ptr, addr;
	struct sir_type vt, i32 = sir_type_make(SIR_INT, 32, 1);
	unsigned int esize;

	if (wc < 8)
		return FAIL("vloadn/vstoren: too few operands");
	if (store && !(data = spv_operand(fc, w, wc, 5)))
		return false;
	if (!(off = spv_operand(fc, w, wc, store ? 6 : 5)) ||
	    !(ptr = spv_operand(fc, w, wc, store ? 7 : 6)))
		return false;
	vt = store ? fc->f->values[data].type : rt;
	if (vt.kind != SIR_INT && vt.kind != SIR_FLOAT)
		return FAIL("vloadn/vstoren of a non-numeric type");
	if (!sir_type_eq(fc->f->values[off].type, i32) ||
	    fc->f->values[ptr].type.kind != SIR_PTR)
		return FAIL("vloadn/vstoren: bad offset or pointer");
	esize = vt.bits / 8;
	addr = spv_bin(fc, SIR_OP_IMUL, i32, off,
		       sir_const_u64(fc->f, i32, esize * vt.comps));
	addr = spv_bin(fc, SIR_OP_PTR_ADD, fc->f->values[ptr].type, ptr, addr);
	if (store)
		*out = spv_emit(fc, SIR_OP_STORE, sir_type_make(SIR_VOID, 0, 0),
				(sir_id[]){ addr, data }, 2);
	else
		*out = spv_emit(fc, SIR_OP_LOAD, rt, &addr, 1);
	fc->f->values[*out].aux = esize;
	return true;
}

static bool spv_unary_op(uint32_t num, enum sir_op *op)
{
	switch (num) {
	case OpenCLstd_Fabs: *op = SIR_OP_FABS; return true;
	case OpenCLstd_Sqrt: case OpenCLstd_Native_sqrt:
	case OpenCLstd_Half_sqrt: *op = SIR_OP_FSQRT; return true;
	case OpenCLstd_Rsqrt: case OpenCLstd_Native_rsqrt:
	case OpenCLstd_Half_rsqrt: *op = SIR_OP_FRSQ; return true;
	case OpenCLstd_Native_recip: case OpenCLstd_Half_recip:
		*op = SIR_OP_FRCP; return true;
	case OpenCLstd_Native_exp2: case OpenCLstd_Half_exp2:
		*op = SIR_OP_FEXP2; return true;
	case OpenCLstd_Native_log2: case OpenCLstd_Half_log2:
		*op = SIR_OP_FLOG2; return true;
	case OpenCLstd_Native_sin: case OpenCLstd_Half_sin:
		*op = SIR_OP_FSIN; return true;
	case OpenCLstd_Native_cos: case OpenCLstd_Half_cos:
		*op = SIR_OP_FCOS; return true;
	case OpenCLstd_Floor: *op = SIR_OP_FFLOOR; return true;
	case OpenCLstd_Ceil: *op = SIR_OP_FCEIL; return true;
	case OpenCLstd_Trunc: *op = SIR_OP_FTRUNC; return true;
	case OpenCLstd_Rint: *op = SIR_OP_FRINT; return true;
	case OpenCLstd_Round: *op = SIR_OP_FROUND; return true;
	case OpenCLstd_SAbs: *op = SIR_OP_IABS; return true;
	case OpenCLstd_UAbs: *op = SIR_OP_COPY; return true;
	case OpenCLstd_Clz: *op = SIR_OP_CLZ; return true;
	case OpenCLstd_Popcount: *op = SIR_OP_POPCOUNT; return true;
	default: return false;
	}
}

static bool spv_binary_op(uint32_t num, enum sir_op *op)
{
	switch (num) {
	case OpenCLstd_Fmin: case OpenCLstd_FMin_common:
		*op = SIR_OP_FMIN; return true;
	case OpenCLstd_Fmax: case OpenCLstd_FMax_common:
		*op = SIR_OP_FMAX; return true;
	case OpenCLstd_Copysign: *op = SIR_OP_FCOPYSIGN; return true;
	case OpenCLstd_SMin: *op = SIR_OP_SMIN; return true;
	case OpenCLstd_SMax: *op = SIR_OP_SMAX; return true;
	case OpenCLstd_UMin: *op = SIR_OP_UMIN; return true;
	case OpenCLstd_UMax: *op = SIR_OP_UMAX; return true;
	case OpenCLstd_SAdd_sat: *op = SIR_OP_SADD_SAT; return true;
	case OpenCLstd_UAdd_sat: *op = SIR_OP_UADD_SAT; return true;
	case OpenCLstd_SSub_sat: *op = SIR_OP_SSUB_SAT; return true;
	case OpenCLstd_USub_sat: *op = SIR_OP_USUB_SAT; return true;
	case OpenCLstd_SMul_hi: *op = SIR_OP_SMULHI; return true;
	case OpenCLstd_UMul_hi: *op = SIR_OP_UMULHI; return true;
	default: return false;
	}
}

/* Ops built from several SIR ops; false when num is not one of them. */
static bool spv_expand(struct spv_fn *fc, uint32_t num, const sir_id *a,
		       uint32_t n, struct sir_type t, sir_id *out)
{
	const double log2e = 1.4426950408889634, ln2 = 0.6931471805599453;
	struct sir_type ct;
	enum sir_op mn, mx;
	sir_id c;

	switch (num) {
	case OpenCLstd_Native_divide: case OpenCLstd_Half_divide:
		if (n != 2)
			return false;
		*out = spv_bin(fc, SIR_OP_FMUL, t, a[0],
			       spv_un(fc, SIR_OP_FRCP, t, a[1]));
		return true;
	case OpenCLstd_Native_exp: case OpenCLstd_Half_exp:
	case OpenCLstd_Native_exp10: case OpenCLstd_Half_exp10:
		if (n != 1)
			return false;
		*out = spv_un(fc, SIR_OP_FEXP2, t, spv_bin(fc, SIR_OP_FMUL, t,
			a[0], spv_fsplat(fc, t, num == OpenCLstd_Native_exp ||
					 num == OpenCLstd_Half_exp ? log2e :
					 3.321928094887362)));
		return true;
	case OpenCLstd_Native_log: case OpenCLstd_Half_log:
	case OpenCLstd_Native_log10: case OpenCLstd_Half_log10:
		if (n != 1)
			return false;
		*out = spv_bin(fc, SIR_OP_FMUL, t,
			       spv_un(fc, SIR_OP_FLOG2, t, a[0]),
			       spv_fsplat(fc, t, num == OpenCLstd_Native_log ||
					  num == OpenCLstd_Half_log ? ln2 :
					  0.30102999566398120));
		return true;
	case OpenCLstd_Native_powr: case OpenCLstd_Half_powr:
		if (n != 2)
			return false;
		*out = spv_un(fc, SIR_OP_FEXP2, t, spv_bin(fc, SIR_OP_FMUL, t,
			a[1], spv_un(fc, SIR_OP_FLOG2, t, a[0])));
		return true;
	case OpenCLstd_Native_tan: case OpenCLstd_Half_tan:
		if (n != 1)
			return false;
		*out = spv_bin(fc, SIR_OP_FMUL, t,
			       spv_un(fc, SIR_OP_FSIN, t, a[0]),
			       spv_un(fc, SIR_OP_FRCP, t,
				      spv_un(fc, SIR_OP_FCOS, t, a[0])));
		return true;
	case OpenCLstd_Fma: case OpenCLstd_Mad:
		if (n != 3)
			return false;
		*out = spv_emit(fc, num == OpenCLstd_Fma ? SIR_OP_FMA :
				SIR_OP_FMAD, t, a, 3);
		return true;
	case OpenCLstd_Mix:
		if (n != 3)
			return false;
		*out = spv_bin(fc, SIR_OP_FADD, t, a[0], spv_bin(fc,
			SIR_OP_FMUL, t, spv_bin(fc, SIR_OP_FSUB, t, a[1], a[0]),
			a[2]));
		return true;
	case OpenCLstd_FClamp: case OpenCLstd_SClamp: case OpenCLstd_UClamp:
		if (n != 3)
			return false;
		mn = num == OpenCLstd_FClamp ? SIR_OP_FMIN :
		     num == OpenCLstd_SClamp ? SIR_OP_SMIN : SIR_OP_UMIN;
		mx = num == OpenCLstd_FClamp ? SIR_OP_FMAX :
		     num == OpenCLstd_SClamp ? SIR_OP_SMAX : SIR_OP_UMAX;
		*out = spv_bin(fc, mn, t, spv_bin(fc, mx, t, a[0], a[1]), a[2]);
		return true;
	case OpenCLstd_Select: {
		struct sir_type it;

		if (n != 3)
			return false;
		/* Scalar: c != 0; vector lanes: the most significant bit. */
		it = fc->f->values[a[2]].type;
		if (it.kind != SIR_INT || it.comps != t.comps)
			return FAIL("select: condition is not an integer of "
				    "the operands' length");
		ct = sir_type_make(SIR_BOOL, 1, t.comps);
		c = spv_bin(fc, t.comps == 1 ? SIR_OP_INE : SIR_OP_SLT, ct,
			    a[2], sir_const_u64(fc->f, it, 0));
		*out = spv_emit(fc, SIR_OP_SELECT, t,
				(sir_id[]){ c, a[1], a[0] }, 3);
		return true;
	}
	default:
		return false;
	}
}

bool spv_ext_inst(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
		  struct sir_type rt, sir_id *out)
{
	uint32_t num = w[4], n = wc - 5, i;
	const char *name = spv_ocl_ext_name(num);
	enum sir_op op;
	sir_id a[3];

	if (!name)
		return FAIL("unknown OpenCL.std instruction %u", num);
	if (num == OpenCLstd_Vloadn || num == OpenCLstd_Vstoren)
		return spv_vector_memory(fc, w, wc, num == OpenCLstd_Vstoren,
					 rt, out);
	if (n <= 3 && (spv_unary_op(num, &op) || spv_binary_op(num, &op) ||
		       num == OpenCLstd_Fma || num == OpenCLstd_Mad ||
		       num == OpenCLstd_Mix || num == OpenCLstd_FClamp ||
		       num == OpenCLstd_SClamp || num == OpenCLstd_UClamp ||
		       num == OpenCLstd_Select || num == OpenCLstd_Native_exp ||
		       num == OpenCLstd_Half_exp ||
		       num == OpenCLstd_Native_exp10 ||
		       num == OpenCLstd_Half_exp10 ||
		       num == OpenCLstd_Native_log ||
		       num == OpenCLstd_Half_log ||
		       num == OpenCLstd_Native_log10 ||
		       num == OpenCLstd_Half_log10 ||
		       num == OpenCLstd_Native_powr ||
		       num == OpenCLstd_Half_powr ||
		       num == OpenCLstd_Native_tan ||
		       num == OpenCLstd_Half_tan)) {
		for (i = 0; i < n; i++)
			if (!(a[i] = spv_operand(fc, w, wc, 5 + i)))
				return false;
		if (spv_expand(fc, num, a, n, rt, out))
			return true;
		if (n == 1 && spv_unary_op(num, &op)) {
			*out = spv_un(fc, op, rt, a[0]);
			return true;
		}
		if (n == 2 && spv_binary_op(num, &op)) {
			*out = spv_bin(fc, op, rt, a[0], a[1]);
			return true;
		}
		return *out ? true : FAIL("OpenCL.std %s: wrong operand count",
					  name);
	}
	if (!strncmp(name, "s_", 2) || !strncmp(name, "u_", 2) ||
	    !strncmp(name, "vload", 5) || !strncmp(name, "vstore", 6) ||
	    !strcmp(name, "printf") || !strcmp(name, "prefetch") ||
	    !strcmp(name, "shuffle") || !strcmp(name, "shuffle2"))
		return FAIL("unsupported OpenCL built-in %s", name);
	return spv_library_call(fc, name, w, wc, rt, out);
}
