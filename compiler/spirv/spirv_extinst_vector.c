/* SPDX-License-Identifier: MIT */
/*
 * OpenCL.std lane-selection functions: select, bitselect, shuffle and
 * shuffle2. A constant shuffle mask becomes one SHUFFLE; a variable one a
 * chain of compare-and-select per result lane, or, when that would take
 * more than SPV_SHUFFLE_SELECTS selects, a private copy of the sources
 * read at the mask's lanes.
 */
#include "spirv_internal.h"

#define FAIL(...) (spv_error(fc->c, __VA_ARGS__))

/*
 * A shuffle2 of sixteen lanes into sixteen is 496 selects and as many
 * compares, which makes a piglit shuffle test build for minutes; through
 * private memory it is a few vector stores and a load per result lane.
 */
#define SPV_SHUFFLE_SELECTS 64

/* select(a, b, c): scalar c != 0, vector lanes by c's sign bit. */
static bool spv_select(struct spv_fn *fc, const struct spv_ext *x,
		       sir_id *out)
{
	struct sir_type t = x->rt, ct;
	sir_id c, cond;

	if (x->num_ids != 3)
		return FAIL("OpenCL.std select: %u operands", x->num_ids);
	c = x->a[2];
	ct = fc->f->values[c].type;
	if (!sir_type_eq(fc->f->values[x->a[0]].type, t) ||
	    !sir_type_eq(fc->f->values[x->a[1]].type, t) ||
	    ct.kind != SIR_INT || ct.comps != t.comps)
		return FAIL("select: condition is not an integer of the "
			    "operands' length");
	cond = spv_bin(fc, t.comps == 1 ? SIR_OP_INE : SIR_OP_SLT,
		       sir_type_make(SIR_BOOL, 1, t.comps), c,
		       sir_const_u64(fc->f, ct, 0));
	*out = spv_emit(fc, SIR_OP_SELECT, t,
			(sir_id[]){ cond, x->a[1], x->a[0] }, 3);
	return true;
}

/* bitselect(a, b, c): each bit from b where c's is set, else from a. */
static bool spv_bitselect(struct spv_fn *fc, const struct spv_ext *x,
			  sir_id *out)
{
	struct sir_type t = x->rt, it = spv_int_type(t);
	sir_id a[3], r;
	unsigned int i;

	if (!spv_ext_args(fc, x, 3, t, a))
		return false;
	if (t.kind == SIR_FLOAT)
		for (i = 0; i < 3; i++)
			a[i] = spv_un(fc, SIR_OP_BITCAST, it, a[i]);
	/* a ^ ((a ^ b) & c) == (a & ~c) | (b & c) */
	r = spv_bin(fc, SIR_OP_XOR, it, a[0], spv_bin(fc, SIR_OP_AND, it,
		    spv_bin(fc, SIR_OP_XOR, it, a[0], a[1]), a[2]));
	*out = t.kind == SIR_FLOAT ? spv_un(fc, SIR_OP_BITCAST, t, r) : r;
	return true;
}

/*
 * shuffle(x, mask) / shuffle2(x, y, mask): result lane i is lane
 * mask[i] of x (of x ++ y), only the mask's low bits counting (the spec's
 * "ilogb(2m-1)" bits: modulo the lane count, a power of two).
 */
/*
 * The variable shuffle through memory: x (and y after it) stored to a
 * private array, result lane i loaded from element mask[i] % lanes.
 */
static bool spv_shuffle_memory(struct spv_fn *fc, const struct spv_ext *x,
			       sir_id src0, sir_id src1, sir_id mask,
			       sir_id *out)
{
	const struct sir_type vt = fc->f->values[src0].type;
	const struct sir_type mt = fc->f->values[mask].type;
	const struct sir_type i32 = sir_type_make(SIR_INT, 32, 1);
	const struct sir_type pt = sir_type_ptr(SIR_SPACE_PRIVATE);
	struct sir_type et = sir_type_make(vt.kind, vt.bits, 1);
	struct sir_type lt = sir_type_make(SIR_INT, mt.bits, 1);
	uint32_t esize = vt.bits / 8, vsize = vt.comps * esize;
	uint32_t total = src1 ? 2 * vt.comps : vt.comps, i;
	uint32_t valign = vsize < 16 ? vsize : 16;
	struct sir_local_var var = {
		.size = total * esize, .align = valign, .elem = et,
		.is_array = true,
	};
	sir_id base, st, res[16];

	base = sir_value_new(fc->f, SIR_OP_VAR_ADDR, pt, NULL, 0);
	fc->f->values[base].aux = sir_var_add(fc->f, &var);
	st = spv_emit(fc, SIR_OP_STORE, (struct sir_type){ 0 },
		      (sir_id[]){ base, src0 }, 2);
	fc->f->values[st].aux = valign;
	if (src1) {
		sir_id p = spv_bin(fc, SIR_OP_PTR_ADD, pt, base,
				   sir_const_u64(fc->f, i32, vsize));

		st = spv_emit(fc, SIR_OP_STORE, (struct sir_type){ 0 },
			      (sir_id[]){ p, src1 }, 2);
		fc->f->values[st].aux = valign;
	}
	for (i = 0; i < mt.comps; i++) {
		sir_id m = spv_un(fc, SIR_OP_EXTRACT, lt, mask), p;

		fc->f->values[m].aux = i;
		if (lt.bits != 32)
			m = spv_un(fc, lt.bits > 32 ? SIR_OP_TRUNC :
				   SIR_OP_ZEXT, i32, m);
		m = spv_bin(fc, SIR_OP_AND, i32, m,
			    sir_const_u64(fc->f, i32, total - 1));
		p = spv_bin(fc, SIR_OP_PTR_ADD, pt, base,
			    spv_bin(fc, SIR_OP_IMUL, i32, m,
				    sir_const_u64(fc->f, i32, esize)));
		res[i] = spv_un(fc, SIR_OP_LOAD, et, p);
		fc->f->values[res[i]].aux = esize;
	}
	*out = spv_emit(fc, SIR_OP_VEC, x->rt, res, mt.comps);
	return true;
}

static bool spv_shuffle(struct spv_fn *fc, const struct spv_ext *x,
			sir_id *out)
{
	bool two = x->num == OpenCLstd_Shuffle2;
	uint32_t k = two ? 3 : 2, i, j;
	sir_id src0, src1, mask, lanes[32], res[16], r, c;
	struct sir_type vt, mt, et, lt;
	uint64_t cl[16];
	unsigned int n, total, comps;

	if (x->num_ids != k)
		return FAIL("OpenCL.std %s: %u operands", x->name, x->num_ids);
	src0 = x->a[0];
	src1 = two ? x->a[1] : x->a[0];
	mask = x->a[k - 1];
	vt = fc->f->values[src0].type;
	mt = fc->f->values[mask].type;
	n = vt.comps;
	total = two ? 2 * n : n;
	if (!sir_type_eq(fc->f->values[src1].type, vt) ||
	    (vt.kind != SIR_INT && vt.kind != SIR_FLOAT) ||
	    (n & (n - 1)) || n < 2 || mt.kind != SIR_INT ||
	    mt.comps != x->rt.comps || x->rt.comps < 2 ||
	    x->rt.kind != vt.kind || x->rt.bits != vt.bits)
		return FAIL("OpenCL.std %s: bad operand types", x->name);
	if (spv_const_lanes(fc->m, x->w[5 + k - 1], cl, &comps) &&
	    comps == mt.comps) {
		r = spv_emit(fc, SIR_OP_SHUFFLE, x->rt,
			     (sir_id[]){ src0, src1 }, 2);
		for (i = 0; i < comps; i++)
			fc->f->values[r].imm.u64[i] = cl[i] & (total - 1);
		*out = r;
		return true;
	}
	et = sir_type_make(vt.kind, vt.bits, 1);
	lt = sir_type_make(SIR_INT, mt.bits, 1);
	if ((total - 1) * mt.comps > SPV_SHUFFLE_SELECTS)
		return spv_shuffle_memory(fc, x, src0, two ? src1 : 0, mask,
					  out);
	for (j = 0; j < total; j++) {
		lanes[j] = spv_un(fc, SIR_OP_EXTRACT, et, j < n ? src0 : src1);
		fc->f->values[lanes[j]].aux = j % n;
	}
	for (i = 0; i < mt.comps; i++) {
		sir_id m = spv_un(fc, SIR_OP_EXTRACT, lt, mask);

		fc->f->values[m].aux = i;
		m = spv_bin(fc, SIR_OP_AND, lt, m,
			    sir_const_u64(fc->f, lt, total - 1));
		r = lanes[0];
		for (j = 1; j < total; j++) {
			c = spv_bin(fc, SIR_OP_IEQ,
				    sir_type_make(SIR_BOOL, 1, 1), m,
				    sir_const_u64(fc->f, lt, j));
			r = spv_emit(fc, SIR_OP_SELECT, et,
				     (sir_id[]){ c, lanes[j], r }, 3);
		}
		res[i] = r;
	}
	*out = spv_emit(fc, SIR_OP_VEC, x->rt, res, mt.comps);
	return true;
}

bool spv_ext_vector(struct spv_fn *fc, const struct spv_ext *x, sir_id *out)
{
	switch (x->num) {
	case OpenCLstd_Select:
		return spv_select(fc, x, out);
	case OpenCLstd_Bitselect:
		return spv_bitselect(fc, x, out);
	case OpenCLstd_Shuffle: case OpenCLstd_Shuffle2:
		return spv_shuffle(fc, x, out);
	default:
		return true;
	}
}
