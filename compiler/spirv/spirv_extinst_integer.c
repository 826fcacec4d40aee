/* SPDX-License-Identifier: MIT */
/*
 * OpenCL.std integer functions, each computed from SIR's integer ops as
 * OpenCL 1.2 (section 6.12.3) defines it, for every width: the s_ forms
 * on signed and the u_ forms on unsigned operands.
 */
#include "spirv_internal.h"

#define FAIL(...) (spv_error(fc->c, __VA_ARGS__))

static bool spv_int_simple(uint32_t num, enum sir_op *op, uint32_t *k)
{
	*k = 1;
	switch (num) {
	case OpenCLstd_SAbs: *op = SIR_OP_IABS; return true;
	case OpenCLstd_UAbs: *op = SIR_OP_COPY; return true;
	case OpenCLstd_Clz: *op = SIR_OP_CLZ; return true;
	case OpenCLstd_Popcount: *op = SIR_OP_POPCOUNT; return true;
	default: break;
	}
	*k = 2;
	switch (num) {
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
	/* mul24: the product when both fit in 24 bits, which the spec
	 * requires; the full product is an allowed result otherwise. */
	case OpenCLstd_SMul24: case OpenCLstd_UMul24:
		*op = SIR_OP_IMUL; return true;
	default: return false;
	}
}

static uint32_t spv_int_arity(uint32_t num)
{
	switch (num) {
	case OpenCLstd_Ctz:
		return 1;
	case OpenCLstd_SAbs_diff: case OpenCLstd_UAbs_diff:
	case OpenCLstd_SHadd: case OpenCLstd_UHadd:
	case OpenCLstd_SRhadd: case OpenCLstd_URhadd:
	case OpenCLstd_Rotate:
		return 2;
	case OpenCLstd_SClamp: case OpenCLstd_UClamp:
	case OpenCLstd_SMad_hi: case OpenCLstd_UMad_hi:
	case OpenCLstd_SMad24: case OpenCLstd_UMad24:
	case OpenCLstd_SMad_sat: case OpenCLstd_UMad_sat:
		return 3;
	default:
		return 0;
	}
}

/*
 * hadd: (x >> 1) + (y >> 1) + (x & y & 1), rhadd with (x | y) & 1: the
 * halved sum without the intermediate sum overflowing.
 */
static sir_id spv_halving_add(struct spv_fn *fc, struct sir_type t,
			      const sir_id *a, bool is_signed, bool round)
{
	enum sir_op shr = is_signed ? SIR_OP_ASHR : SIR_OP_LSHR;
	sir_id one = sir_const_u64(fc->f, t, 1);
	sir_id carry = spv_bin(fc, SIR_OP_AND, t, spv_bin(fc, round ?
			       SIR_OP_OR : SIR_OP_AND, t, a[0], a[1]), one);

	return spv_bin(fc, SIR_OP_IADD, t,
		       spv_bin(fc, SIR_OP_IADD, t, spv_bin(fc, shr, t, a[0],
			       one), spv_bin(fc, shr, t, a[1], one)), carry);
}

/*
 * mad_sat(a, b, c): a * b + c exactly, as the double-width value hi:lo
 * (mul_hi and the product, plus c with its sign extension and the carry
 * of the low add), then saturated: it fits when hi is lo's sign (zero
 * unsigned), else the bound of hi's sign. libclc-15's long mad_sat
 * saturates mad_sat(-1, 0, c) to LONG_MIN and wraps the add.
 */
static sir_id spv_mad_sat(struct spv_fn *fc, struct sir_type t,
			  const sir_id *a, bool s)
{
	struct sir_type bt = sir_type_make(SIR_BOOL, 1, t.comps);
	uint64_t top = 1ull << (t.bits - 1);
	uint64_t umax = t.bits == 64 ? ~0ull : (1ull << t.bits) - 1;
	sir_id sign = sir_const_u64(fc->f, t, t.bits - 1);
	sir_id lo = spv_bin(fc, SIR_OP_IMUL, t, a[0], a[1]);
	sir_id hi = spv_bin(fc, s ? SIR_OP_SMULHI : SIR_OP_UMULHI, t, a[0],
			    a[1]);
	sir_id sum = spv_bin(fc, SIR_OP_IADD, t, lo, a[2]);
	sir_id carry = spv_emit(fc, SIR_OP_SELECT, t, (sir_id[]){
		spv_bin(fc, SIR_OP_ULT, bt, sum, lo),
		sir_const_u64(fc->f, t, 1), sir_const_u64(fc->f, t, 0) }, 3);
	sir_id fits, bound;

	hi = spv_bin(fc, SIR_OP_IADD, t, hi, carry);
	if (!s) {
		fits = spv_bin(fc, SIR_OP_IEQ, bt, hi,
			       sir_const_u64(fc->f, t, 0));
		bound = sir_const_u64(fc->f, t, umax);
	} else {
		hi = spv_bin(fc, SIR_OP_IADD, t, hi,
			     spv_bin(fc, SIR_OP_ASHR, t, a[2], sign));
		fits = spv_bin(fc, SIR_OP_IEQ, bt, hi,
			       spv_bin(fc, SIR_OP_ASHR, t, sum, sign));
		bound = spv_emit(fc, SIR_OP_SELECT, t, (sir_id[]){
			spv_bin(fc, SIR_OP_SLT, bt, hi,
				sir_const_u64(fc->f, t, 0)),
			sir_const_u64(fc->f, t, top),
			sir_const_u64(fc->f, t, top - 1) }, 3);
	}
	return spv_emit(fc, SIR_OP_SELECT, t, (sir_id[]){ fits, sum, bound },
			3);
}

static sir_id spv_int_expand(struct spv_fn *fc, uint32_t num,
			     struct sir_type t, const sir_id *a)
{
	bool s = false;

	switch (num) {
	case OpenCLstd_Ctz:
		/* popcount(~x & (x - 1)): the trailing zeros, width for 0 */
		return spv_un(fc, SIR_OP_POPCOUNT, t, spv_bin(fc, SIR_OP_AND,
			t, spv_un(fc, SIR_OP_NOT, t, a[0]), spv_bin(fc,
			SIR_OP_ISUB, t, a[0], sir_const_u64(fc->f, t, 1))));
	case OpenCLstd_SAbs_diff:
		s = true;
		/* fall through */
	case OpenCLstd_UAbs_diff:
		/* max - min is exact as an unsigned result */
		return spv_bin(fc, SIR_OP_ISUB, t,
			       spv_bin(fc, s ? SIR_OP_SMAX : SIR_OP_UMAX, t,
				       a[0], a[1]),
			       spv_bin(fc, s ? SIR_OP_SMIN : SIR_OP_UMIN, t,
				       a[0], a[1]));
	case OpenCLstd_SHadd: case OpenCLstd_UHadd:
	case OpenCLstd_SRhadd: case OpenCLstd_URhadd:
		return spv_halving_add(fc, t, a, num == OpenCLstd_SHadd ||
				       num == OpenCLstd_SRhadd,
				       num == OpenCLstd_SRhadd ||
				       num == OpenCLstd_URhadd);
	case OpenCLstd_Rotate:
		/* Shift counts are taken modulo the width, so -n is the
		 * right shift completing a left rotation by n (n % w == 0
		 * gives x | x). */
		return spv_bin(fc, SIR_OP_OR, t,
			       spv_bin(fc, SIR_OP_SHL, t, a[0], a[1]),
			       spv_bin(fc, SIR_OP_LSHR, t, a[0],
				       spv_un(fc, SIR_OP_INEG, t, a[1])));
	case OpenCLstd_SClamp: case OpenCLstd_UClamp:
		s = num == OpenCLstd_SClamp;
		return spv_bin(fc, s ? SIR_OP_SMIN : SIR_OP_UMIN, t,
			       spv_bin(fc, s ? SIR_OP_SMAX : SIR_OP_UMAX, t,
				       a[0], a[1]), a[2]);
	case OpenCLstd_SMad_hi: case OpenCLstd_UMad_hi:
		return spv_bin(fc, SIR_OP_IADD, t, spv_bin(fc,
			num == OpenCLstd_SMad_hi ? SIR_OP_SMULHI :
			SIR_OP_UMULHI, t, a[0], a[1]), a[2]);
	case OpenCLstd_SMad24: case OpenCLstd_UMad24:
		return spv_bin(fc, SIR_OP_IADD, t,
			       spv_bin(fc, SIR_OP_IMUL, t, a[0], a[1]), a[2]);
	case OpenCLstd_SMad_sat: case OpenCLstd_UMad_sat:
		return spv_mad_sat(fc, t, a, num == OpenCLstd_SMad_sat);
	default:
		return 0;
	}
}

/* upsample(hi, lo) = (hi << width) | lo, in the doubled width. */
static bool spv_upsample(struct spv_fn *fc, const struct spv_ext *x,
			 sir_id *out)
{
	struct sir_type t = x->rt, ht;
	sir_id hi, lo;

	if (x->num_ids != 2 || t.kind != SIR_INT || t.bits < 16)
		return FAIL("OpenCL.std %s: bad operands", x->name);
	ht = sir_type_make(SIR_INT, t.bits / 2, t.comps);
	if (!sir_type_eq(fc->f->values[x->a[0]].type, ht) ||
	    !sir_type_eq(fc->f->values[x->a[1]].type, ht))
		return FAIL("OpenCL.std %s: operands are not half the "
			    "result's width", x->name);
	hi = spv_un(fc, x->num == OpenCLstd_S_Upsample ? SIR_OP_SEXT :
		    SIR_OP_ZEXT, t, x->a[0]);
	lo = spv_un(fc, SIR_OP_ZEXT, t, x->a[1]);
	*out = spv_bin(fc, SIR_OP_OR, t, spv_bin(fc, SIR_OP_SHL, t, hi,
		       sir_const_u64(fc->f, t, ht.bits)), lo);
	return true;
}

bool spv_ext_integer(struct spv_fn *fc, const struct spv_ext *x,
		     sir_id *out)
{
	sir_id a[3];
	enum sir_op op;
	uint32_t k;

	if (x->num == OpenCLstd_S_Upsample || x->num == OpenCLstd_U_Upsample)
		return spv_upsample(fc, x, out);
	if (!spv_int_simple(x->num, &op, &k)) {
		op = SIR_OP_INVALID;
		k = spv_int_arity(x->num);
	}
	if (!k)
		return true;
	if (x->rt.kind != SIR_INT)
		return FAIL("OpenCL.std %s: result is not an integer", x->name);
	if (!spv_ext_args(fc, x, k, x->rt, a))
		return false;
	if (op != SIR_OP_INVALID)
		*out = spv_emit(fc, op, x->rt, a, k);
	else
		*out = spv_int_expand(fc, x->num, x->rt, a);
	return true;
}
