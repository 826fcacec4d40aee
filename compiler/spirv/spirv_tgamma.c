/* SPDX-License-Identifier: MIT */
/*
 * tgamma of doubles, which OpenCL 1.2 §7.4 bounds at 16 ulp. libclc-15's
 * is exp(lgamma(x)), whose result carries lgamma's absolute error as a
 * relative one: hundreds of ulp where the result is large. Here, for
 * each lane x:
 *  - Γ(z) = exp(lgamma(z)) for z in [2, 3) only, where lgamma is below
 *    ln 2, so its error stays a fraction of an ulp of the result;
 *  - x >= 3: Γ(x) = Γ(z) z (z + 1) ... (x - 1), z = x - n. Every factor
 *    x - k is exact, and the product is kept as a double-double (each
 *    partial product exact by fma), so its n roundings do not add up;
 *  - 0 < x < 3: Γ(x) = Γ(x + m) / (x ... (x + m - 1)), m = 0, 1 or 2;
 *  - x < 0: the reflection Γ(x) = π / (sinpi(x) (-x) Γ(-x)). Γ(-x) is
 *    carried scaled by 2^-800 once it passes 2^800, so results in the
 *    denormal range come out rounded once instead of 0 by way of an
 *    infinite Γ(-x); positive results are scaled back (to infinity when
 *    they overflow);
 *  - |x| < 2^-56: 1/x, which Γ(x) = 1/x - γ + O(x) rounds to;
 *  - the special values of §7.5.1: ±0 -> ±inf, +inf -> +inf, -inf and
 *    the negative integers -> NaN, NaN -> NaN; below -190 the result is
 *    smaller than any denormal: a zero of its sign.
 * lgamma, exp and sinpi are libclc's: §7.4 bounds exp at 3 ulp and sinpi
 * at 4, and sets none for lgamma; test_fp64 measures the whole.
 */
#include <math.h>

#include "spirv_internal.h"

#define FAIL(...) (spv_error(fc->c, __VA_ARGS__), false)

static const struct sir_type f64 = { SIR_FLOAT, 64, 1, 0 };
static const struct sir_type flag = { SIR_BOOL, 1, 1, 0 };

/* Where the double-double product is scaled down, and by how much. */
#define SCALE_ABOVE 0x1p800
#define SCALE 0x1p-800

static sir_id c64(struct spv_fn *fc, double v)
{
	return sir_const_f64(fc->f, f64, v);
}

static sir_id op2(struct spv_fn *fc, enum sir_op op, sir_id a, sir_id b)
{
	bool compare = op == SIR_OP_FLT || op == SIR_OP_FLE ||
		       op == SIR_OP_FEQ || op == SIR_OP_FNE ||
		       op == SIR_OP_FUNORD;

	return spv_bin(fc, op, compare ? flag : f64, a, b);
}

static sir_id op3(struct spv_fn *fc, enum sir_op op, sir_id a, sir_id b,
		  sir_id c)
{
	return spv_emit(fc, op, op == SIR_OP_SELECT ? fc->f->values[b].type :
			f64, (sir_id[]){ a, b, c }, 3);
}

/* A loop-carried value: a phi in the loop's head. */
struct carried {
	sir_id phi, init, next;
};

static void carry(struct spv_fn *fc, struct carried *c, sir_id init)
{
	c->phi = spv_emit(fc, SIR_OP_PHI, fc->f->values[init].type, NULL, 2);
	c->init = init;
}

static void close_carry(struct spv_fn *fc, const struct carried *c,
			uint32_t entry, uint32_t body)
{
	struct sir_instr *phi = &fc->f->values[c->phi];

	phi->srcs[0] = c->init;
	phi->phi_blocks[0] = entry;
	phi->srcs[1] = c->next;
	phi->phi_blocks[1] = body;
}

/*
 * (*hi + *lo) = z (z + 1) ... (start - 1) as a double-double, *scale 1 or
 * 2^-800 (the factor it carries), for z = start - n in [2, 3); start in
 * [2, 200). Leaves fc->cur after the loop; z returned.
 */
static sir_id rising_product(struct spv_fn *fc, sir_id start, sir_id *hi,
			     sir_id *lo, sir_id *scale)
{
	uint32_t entry = fc->cur, head, body, exit;
	struct carried z, h, l, s;
	sir_id cond, br, z1, p, e, t, sum, big;

	head = sir_block_add(fc->f);
	body = sir_block_add(fc->f);
	exit = sir_block_add(fc->f);
	br = spv_emit(fc, SIR_OP_BR, (struct sir_type){ 0 }, NULL, 0);
	fc->f->values[br].targets[0] = head;

	/* while (3 <= z) */
	fc->cur = head;
	carry(fc, &z, start);
	carry(fc, &h, c64(fc, 1));
	carry(fc, &l, c64(fc, 0));
	carry(fc, &s, c64(fc, 1));
	cond = op2(fc, SIR_OP_FLE, c64(fc, 3), z.phi);
	cond = spv_emit(fc, SIR_OP_CBR, (struct sir_type){ 0 }, &cond, 1);
	fc->f->values[cond].targets[0] = body;
	fc->f->values[cond].targets[1] = exit;

	/* z -= 1 (exact); (h, l) *= z with an exact product and a sum
	 * renormalised (|p| >= |t|); scaled once it passes 2^800. */
	fc->cur = body;
	z1 = op2(fc, SIR_OP_FSUB, z.phi, c64(fc, 1));
	p = op2(fc, SIR_OP_FMUL, h.phi, z1);
	e = op3(fc, SIR_OP_FMA, h.phi, z1, spv_un(fc, SIR_OP_FNEG, f64, p));
	t = op3(fc, SIR_OP_FMA, l.phi, z1, e);
	sum = op2(fc, SIR_OP_FADD, p, t);
	t = op2(fc, SIR_OP_FSUB, t, op2(fc, SIR_OP_FSUB, sum, p));
	big = op2(fc, SIR_OP_FLT, c64(fc, SCALE_ABOVE), sum);
	z.next = z1;
	h.next = op3(fc, SIR_OP_SELECT, big,
		     op2(fc, SIR_OP_FMUL, sum, c64(fc, SCALE)), sum);
	l.next = op3(fc, SIR_OP_SELECT, big,
		     op2(fc, SIR_OP_FMUL, t, c64(fc, SCALE)), t);
	s.next = op3(fc, SIR_OP_SELECT, big,
		     op2(fc, SIR_OP_FMUL, s.phi, c64(fc, SCALE)), s.phi);
	br = spv_emit(fc, SIR_OP_BR, (struct sir_type){ 0 }, NULL, 0);
	fc->f->values[br].targets[0] = head;
	close_carry(fc, &z, entry, body);
	close_carry(fc, &h, entry, body);
	close_carry(fc, &l, entry, body);
	close_carry(fc, &s, entry, body);

	fc->cur = exit;
	*hi = h.phi;
	*lo = l.phi;
	*scale = s.phi;
	return z.phi;
}

/* tgamma of the double x (see the top of the file); 0 on error. */
static sir_id tgamma_lane(struct spv_fn *fc, sir_id x)
{
	sir_id neg, v, lt1, lt2, v1, z, d, start, hi, lo, scale, g, r, pos;
	sir_id refl, fl, half, odd, res, sp;

	/* v = x, or -x for the reflection (Γ(1 - x) = -x Γ(-x): 1 - x
	 * would round, and Γ turns that into ψ(1 - x) times the error). */
	neg = op2(fc, SIR_OP_FLT, x, c64(fc, 0));
	v = op3(fc, SIR_OP_SELECT, neg, spv_un(fc, SIR_OP_FNEG, f64, x), x);
	/* Up to [2, 3): Γ(v) = Γ(v + m) / d. */
	lt1 = op2(fc, SIR_OP_FLT, v, c64(fc, 1));
	lt2 = op2(fc, SIR_OP_FLT, v, c64(fc, 2));
	v1 = op2(fc, SIR_OP_FADD, v, c64(fc, 1));
	z = op3(fc, SIR_OP_SELECT, lt1, op2(fc, SIR_OP_FADD, v, c64(fc, 2)),
		op3(fc, SIR_OP_SELECT, lt2, v1, v));
	d = op3(fc, SIR_OP_SELECT, lt1, op2(fc, SIR_OP_FMUL, v, v1),
		op3(fc, SIR_OP_SELECT, lt2, v, c64(fc, 1)));
	/* Down to [2, 3) by the product; the special values (NaN, huge)
	 * take no trips, their results are chosen below. */
	start = op3(fc, SIR_OP_SELECT, op2(fc, SIR_OP_FLT, z, c64(fc, 200)), z,
		    c64(fc, 2.5));
	z = rising_product(fc, start, &hi, &lo, &scale);
	if (!(g = spv_float_call(fc, "lgamma", z)) ||
	    !(g = spv_float_call(fc, "exp", g)) ||
	    !(sp = spv_float_call(fc, "sinpi", x)))
		return 0;
	/* Γ(v) * scale = g (hi + lo) / d. */
	r = op2(fc, SIR_OP_FDIV,
		op3(fc, SIR_OP_FMA, g, hi, op2(fc, SIR_OP_FMUL, g, lo)), d);
	pos = op3(fc, SIR_OP_SELECT, op2(fc, SIR_OP_FEQ, scale, c64(fc, 1)), r,
		  op2(fc, SIR_OP_FMUL, r, c64(fc, SCALE_ABOVE)));
	refl = op2(fc, SIR_OP_FDIV,
		   op2(fc, SIR_OP_FDIV,
		       op2(fc, SIR_OP_FMUL, c64(fc, M_PI), scale), sp),
		   op2(fc, SIR_OP_FMUL, r, v));
	res = op3(fc, SIR_OP_SELECT, neg, refl, pos);

	/* Below 2^-56, Γ(x) = 1/x - γ + O(x) is 1/x rounded (±0 -> ±inf). */
	res = op3(fc, SIR_OP_SELECT,
		  op2(fc, SIR_OP_FLT, spv_un(fc, SIR_OP_FABS, f64, x),
		      c64(fc, 0x1p-56)),
		  op2(fc, SIR_OP_FDIV, c64(fc, 1), x), res);
	/* Special values, the later ones first. */
	fl = spv_un(fc, SIR_OP_FFLOOR, f64, x);
	half = op2(fc, SIR_OP_FMUL, fl, c64(fc, 0.5));
	odd = op2(fc, SIR_OP_FNE, spv_un(fc, SIR_OP_FFLOOR, f64, half), half);
	res = op3(fc, SIR_OP_SELECT, op2(fc, SIR_OP_FLT, x, c64(fc, -190)),
		  op3(fc, SIR_OP_SELECT, odd, c64(fc, -0.0), c64(fc, 0.0)),
		  res);
	res = op3(fc, SIR_OP_SELECT,
		  op2(fc, SIR_OP_FLT, c64(fc, 171.62437695630272), x),
		  c64(fc, INFINITY), res);
	res = op3(fc, SIR_OP_SELECT,
		  op3(fc, SIR_OP_SELECT, neg, op2(fc, SIR_OP_FEQ, fl, x),
		      sir_const_u64(fc->f, flag, 0)),
		  c64(fc, NAN), res);
	return op3(fc, SIR_OP_SELECT, op2(fc, SIR_OP_FUNORD, x, x), x, res);
}

bool spv_ext_tgamma(struct spv_fn *fc, const struct spv_ext *x, sir_id *out)
{
	struct sir_type t = x->rt;
	sir_id arg, lanes[16];

	if (x->num != OpenCLstd_Tgamma || t.kind != SIR_FLOAT || t.bits != 64)
		return true;
	if (x->num_ids != 1 || !sir_type_eq(fc->f->values[x->a[0]].type, t) ||
	    t.comps > 16)
		return FAIL("OpenCL.std tgamma: bad operand");
	for (unsigned int i = 0; i < t.comps; i++) {
		arg = x->a[0];
		if (t.comps > 1) {
			arg = spv_emit(fc, SIR_OP_EXTRACT, f64, &x->a[0], 1);
			fc->f->values[arg].aux = i;
		}
		if (!(lanes[i] = tgamma_lane(fc, arg)))
			return FAIL("OpenCL.std tgamma: libclc lacks lgamma, "
				    "exp or sinpi of double");
	}
	*out = t.comps == 1 ? lanes[0] :
	       spv_emit(fc, SIR_OP_VEC, t, lanes, t.comps);
	return true;
}
