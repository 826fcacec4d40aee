/* SPDX-License-Identifier: MIT */
/*
 * OpenCL.std float functions SIR computes in place: those with an op of
 * their own, the native_ and half_ functions (any accuracy the spec allows
 * them, built from FRCP, FEXP2, FLOG2, FSIN, FCOS), and the common and
 * math functions whose definition is a few exact operations.
 */
#include "spirv_internal.h"

#define FAIL(...) (spv_error(fc->c, __VA_ARGS__))

static bool spv_float_unary(uint32_t num, enum sir_op *op)
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
	default: return false;
	}
}

static bool spv_float_binary(uint32_t num, enum sir_op *op)
{
	switch (num) {
	case OpenCLstd_Fmin: case OpenCLstd_FMin_common:
		*op = SIR_OP_FMIN; return true;
	case OpenCLstd_Fmax: case OpenCLstd_FMax_common:
		*op = SIR_OP_FMAX; return true;
	case OpenCLstd_Copysign: *op = SIR_OP_FCOPYSIGN; return true;
	default: return false;
	}
}

/* Operand counts of the expansions below; 0: not one of them. */
static uint32_t spv_float_arity(uint32_t num)
{
	enum sir_op op;

	if (spv_float_unary(num, &op))
		return 1;
	if (spv_float_binary(num, &op))
		return 2;
	switch (num) {
	case OpenCLstd_Native_exp: case OpenCLstd_Half_exp:
	case OpenCLstd_Native_exp10: case OpenCLstd_Half_exp10:
	case OpenCLstd_Native_log: case OpenCLstd_Half_log:
	case OpenCLstd_Native_log10: case OpenCLstd_Half_log10:
	case OpenCLstd_Native_tan: case OpenCLstd_Half_tan:
	case OpenCLstd_Degrees: case OpenCLstd_Radians:
		return 1;
	case OpenCLstd_Native_divide: case OpenCLstd_Half_divide:
	case OpenCLstd_Native_powr: case OpenCLstd_Half_powr:
	case OpenCLstd_Step: case OpenCLstd_Fdim:
	case OpenCLstd_Maxmag: case OpenCLstd_Minmag:
	case OpenCLstd_Nextafter:
		return 2;
	case OpenCLstd_Fma: case OpenCLstd_Mad: case OpenCLstd_Mix:
	case OpenCLstd_FClamp:
		return 3;
	default:
		return 0;
	}
}

/* |x| op |y| ? x : |y| op |x| ? y : tie(x, y): maxmag and minmag. */
static sir_id spv_magnitude(struct spv_fn *fc, struct sir_type t,
			    const sir_id *a, bool is_max)
{
	struct sir_type bt = sir_type_make(SIR_BOOL, 1, t.comps);
	sir_id ax = spv_un(fc, SIR_OP_FABS, t, a[0]);
	sir_id ay = spv_un(fc, SIR_OP_FABS, t, a[1]);
	sir_id x_wins = is_max ? spv_bin(fc, SIR_OP_FLT, bt, ay, ax) :
			spv_bin(fc, SIR_OP_FLT, bt, ax, ay);
	sir_id y_wins = is_max ? spv_bin(fc, SIR_OP_FLT, bt, ax, ay) :
			spv_bin(fc, SIR_OP_FLT, bt, ay, ax);
	sir_id tie = spv_bin(fc, is_max ? SIR_OP_FMAX : SIR_OP_FMIN, t, a[0],
			     a[1]);

	tie = spv_emit(fc, SIR_OP_SELECT, t, (sir_id[]){ y_wins, a[1], tie },
		       3);
	return spv_emit(fc, SIR_OP_SELECT, t, (sir_id[]){ x_wins, a[0], tie },
			3);
}

/*
 * nextafter(x, y): the neighbour of x towards y, stepping the bit pattern
 * (as magnitude and sign) by one; y when equal, the smallest denormal of
 * y's sign from zero, NaN when either is NaN.
 */
static sir_id spv_nextafter(struct spv_fn *fc, struct sir_type t,
			    const sir_id *a)
{
	struct sir_type bt = sir_type_make(SIR_BOOL, 1, t.comps);
	struct sir_type it = spv_int_type(t);
	uint64_t sign = 1ull << (t.bits - 1);
	sir_id ix = spv_un(fc, SIR_OP_BITCAST, it, a[0]);
	sir_id iy = spv_un(fc, SIR_OP_BITCAST, it, a[1]);
	sir_id up, step, r, c;

	/* Away from zero when x < y matches x's sign being positive. */
	up = spv_bin(fc, SIR_OP_BEQ, bt, spv_bin(fc, SIR_OP_FLT, bt, a[0], a[1]),
		     spv_bin(fc, SIR_OP_SLE, bt, sir_const_u64(fc->f, it, 0),
			     ix));
	step = spv_emit(fc, SIR_OP_SELECT, it, (sir_id[]){ up,
			sir_const_u64(fc->f, it, 1),
			sir_const_u64(fc->f, it, ~0ull >> (64 - t.bits)) }, 3);
	r = spv_bin(fc, SIR_OP_IADD, it, ix, step);
	c = spv_bin(fc, SIR_OP_FEQ, bt, a[0], spv_fsplat(fc, t, 0.0));
	r = spv_emit(fc, SIR_OP_SELECT, it, (sir_id[]){ c,
		     spv_bin(fc, SIR_OP_OR, it, spv_bin(fc, SIR_OP_AND, it, iy,
			     sir_const_u64(fc->f, it, sign)),
			     sir_const_u64(fc->f, it, 1)), r }, 3);
	r = spv_un(fc, SIR_OP_BITCAST, t, r);
	c = spv_bin(fc, SIR_OP_FEQ, bt, a[0], a[1]);
	r = spv_emit(fc, SIR_OP_SELECT, t, (sir_id[]){ c, a[1], r }, 3);
	c = spv_bin(fc, SIR_OP_FUNORD, bt, a[0], a[1]);
	return spv_emit(fc, SIR_OP_SELECT, t, (sir_id[]){ c,
			spv_bin(fc, SIR_OP_FADD, t, a[0], a[1]), r }, 3);
}

/* nan(nancode): a quiet NaN carrying the code's low mantissa bits. */
static bool spv_nan(struct spv_fn *fc, const struct spv_ext *x, sir_id *out)
{
	struct sir_type t = x->rt, it = spv_int_type(t);
	unsigned int mant = t.bits == 16 ? 10 : t.bits == 32 ? 23 : 52;
	/* Exponent all ones and the top mantissa bit: 0x7fc00000. */
	uint64_t quiet = ((~0ull >> (64 - t.bits)) >> mant << mant) >> 1;
	sir_id code;

	if (x->num_ids != 1 || t.kind != SIR_FLOAT)
		return FAIL("OpenCL.std nan: bad operands");
	code = spv_ext_widen(fc, x->a[0], it);
	if (!sir_type_eq(fc->f->values[code].type, it))
		return FAIL("OpenCL.std nan: the code is not an integer of "
			    "the result's width");
	code = spv_bin(fc, SIR_OP_AND, it, code,
		       sir_const_u64(fc->f, it, (1ull << (mant - 1)) - 1));
	*out = spv_un(fc, SIR_OP_BITCAST, t, spv_bin(fc, SIR_OP_OR, it, code,
			sir_const_u64(fc->f, it, quiet)));
	return true;
}

static sir_id spv_float_expand(struct spv_fn *fc, uint32_t num,
			       struct sir_type t, const sir_id *a)
{
	const double log2e = 1.4426950408889634, log2_10 = 3.321928094887362;
	const double ln2 = 0.6931471805599453, log10_2 = 0.30102999566398120;
	struct sir_type bt = sir_type_make(SIR_BOOL, 1, t.comps);
	sir_id c;

	switch (num) {
	case OpenCLstd_Native_divide: case OpenCLstd_Half_divide:
		return spv_bin(fc, SIR_OP_FMUL, t, a[0],
			       spv_un(fc, SIR_OP_FRCP, t, a[1]));
	case OpenCLstd_Native_exp: case OpenCLstd_Half_exp:
		return spv_un(fc, SIR_OP_FEXP2, t, spv_bin(fc, SIR_OP_FMUL, t,
			      a[0], spv_fsplat(fc, t, log2e)));
	case OpenCLstd_Native_exp10: case OpenCLstd_Half_exp10:
		return spv_un(fc, SIR_OP_FEXP2, t, spv_bin(fc, SIR_OP_FMUL, t,
			      a[0], spv_fsplat(fc, t, log2_10)));
	case OpenCLstd_Native_log: case OpenCLstd_Half_log:
		return spv_bin(fc, SIR_OP_FMUL, t,
			       spv_un(fc, SIR_OP_FLOG2, t, a[0]),
			       spv_fsplat(fc, t, ln2));
	case OpenCLstd_Native_log10: case OpenCLstd_Half_log10:
		return spv_bin(fc, SIR_OP_FMUL, t,
			       spv_un(fc, SIR_OP_FLOG2, t, a[0]),
			       spv_fsplat(fc, t, log10_2));
	case OpenCLstd_Native_powr: case OpenCLstd_Half_powr:
		return spv_un(fc, SIR_OP_FEXP2, t, spv_bin(fc, SIR_OP_FMUL, t,
			      a[1], spv_un(fc, SIR_OP_FLOG2, t, a[0])));
	case OpenCLstd_Native_tan: case OpenCLstd_Half_tan:
		return spv_bin(fc, SIR_OP_FMUL, t,
			       spv_un(fc, SIR_OP_FSIN, t, a[0]),
			       spv_un(fc, SIR_OP_FRCP, t,
				      spv_un(fc, SIR_OP_FCOS, t, a[0])));
	case OpenCLstd_Degrees:
		return spv_bin(fc, SIR_OP_FMUL, t, a[0],
			       spv_fsplat(fc, t, 57.295779513082320876798));
	case OpenCLstd_Radians:
		return spv_bin(fc, SIR_OP_FMUL, t, a[0],
			       spv_fsplat(fc, t, 0.017453292519943295769));
	case OpenCLstd_Step:
		/* x < edge ? 0 : 1 */
		c = spv_bin(fc, SIR_OP_FLT, bt, a[1], a[0]);
		return spv_emit(fc, SIR_OP_SELECT, t, (sir_id[]){ c,
				spv_fsplat(fc, t, 0.0), spv_fsplat(fc, t, 1.0) },
				3);
	case OpenCLstd_Fdim:
		/* x <= y ? +0 : x - y (NaN when either is NaN). */
		c = spv_bin(fc, SIR_OP_FLE, bt, a[0], a[1]);
		return spv_emit(fc, SIR_OP_SELECT, t, (sir_id[]){ c,
				spv_fsplat(fc, t, 0.0),
				spv_bin(fc, SIR_OP_FSUB, t, a[0], a[1]) }, 3);
	case OpenCLstd_Maxmag: case OpenCLstd_Minmag:
		return spv_magnitude(fc, t, a, num == OpenCLstd_Maxmag);
	case OpenCLstd_Nextafter:
		return spv_nextafter(fc, t, a);
	case OpenCLstd_Fma:
		return spv_emit(fc, SIR_OP_FMA, t, a, 3);
	case OpenCLstd_Mad:
		return spv_emit(fc, SIR_OP_FMAD, t, a, 3);
	case OpenCLstd_Mix:
		/* x + (y - x) * a, as the spec defines it */
		return spv_bin(fc, SIR_OP_FADD, t, a[0], spv_bin(fc,
			SIR_OP_FMUL, t, spv_bin(fc, SIR_OP_FSUB, t, a[1], a[0]),
			a[2]));
	case OpenCLstd_FClamp:
		return spv_bin(fc, SIR_OP_FMIN, t,
			       spv_bin(fc, SIR_OP_FMAX, t, a[0], a[1]), a[2]);
	default:
		return 0;
	}
}

bool spv_ext_float(struct spv_fn *fc, const struct spv_ext *x, sir_id *out)
{
	uint32_t k = spv_float_arity(x->num);
	sir_id a[3];
	enum sir_op op;

	if (x->num == OpenCLstd_Nan)
		return spv_nan(fc, x, out);
	if (!k)
		return true;
	if (x->rt.kind != SIR_FLOAT)
		return FAIL("OpenCL.std %s: result is not a float", x->name);
	if (!spv_ext_args(fc, x, k, x->rt, a))
		return false;
	if (k == 1 && spv_float_unary(x->num, &op))
		*out = spv_un(fc, op, x->rt, a[0]);
	else if (k == 2 && spv_float_binary(x->num, &op))
		*out = spv_bin(fc, op, x->rt, a[0], a[1]);
	else
		*out = spv_float_expand(fc, x->num, x->rt, a);
	return true;
}
