/* SPDX-License-Identifier: MIT */
/*
 * The shader core's arithmetic: one Midgard ALU instruction on 128-bit
 * register values (see sgpu_alu.h). Operand fetch (swizzles, expansion,
 * modifiers, inline immediates, register modes, scalar sources), the op
 * itself, the output modifier, destination shrinking and the write mask.
 *
 * Facts from docs/hardware.md (§5.3-§5.5) and Mesa 22.3's encoder,
 * disassembler and compiler; the choices where those are silent are listed
 * in qemu/README.md ("Shader ALU semantics").
 */
#include <math.h>
#include <string.h>

#include "sgpu_alu.h"
#include "sgpu_float.h"

/* What an op computes (one entry per family; variants differ by flags). */
enum kind {
	K_NONE,
	/* Float sources. */
	K_FADD, K_FMUL, K_FMIN, K_FMAX, K_FMOV, K_FROUND, K_FROUNDAWAY,
	K_FDOT, K_FCMP, K_FBALL, K_FBANY, K_F2I, K_FCSEL, K_FCSEL_V, K_LUT,
	/* Integer sources. */
	K_IADD, K_ISUB, K_ISHLADD, K_ISHLSUB, K_ADDSAT, K_SUBSAT, K_IMUL,
	K_MIN, K_MAX, K_AVG, K_RAVG, K_ASR, K_LSR, K_SHL, K_SHLSAT,
	K_AND, K_OR, K_NAND, K_NOR, K_ANDNOT, K_ORNOT, K_XOR, K_NXOR,
	K_CLZ, K_POPCNT, K_IMOV, K_ABSDIFF, K_ICMP, K_IBALL, K_IBANY, K_I2F,
	K_ICSEL, K_ICSEL_V,
};

enum cmp { C_EQ, C_NE, C_LT, C_LE };

struct opd {
	uint8_t kind;
	uint8_t cmp;            /* enum cmp for compares, ball, bany */
	uint8_t round;          /* enum sgpu_round */
	uint8_t reduce;         /* lanes a reducing op reads, 0 = lane-wise */
	bool fsrc;              /* sources are floats */
	bool fdst;              /* result is a float */
	bool uns;               /* unsigned integer semantics */
	bool nan;               /* min/max: NaN propagates */
	bool absval;            /* min/max of absolute values */
	bool src2_only;         /* moves: the operand is src2 */
	bool one_src;           /* src2 is not read (Mesa passes #0) */
};

static bool op_decode(uint8_t op, struct opd *d)
{
	/* The rounding families: op + 0..3 = rte, rtz, rtn, rtp. */
	bool rounds = (op >= MDG_ALU_FADD && op <= MDG_ALU_FMUL_RTP) ||
		      (op >= MDG_ALU_FMOV && op <= MDG_ALU_FCEIL) ||
		      (op >= MDG_ALU_F2I_RTE && op <= MDG_ALU_F2U_RTP) ||
		      (op >= MDG_ALU_I2F_RTE && op <= MDG_ALU_U2F_RTP);

	memset(d, 0, sizeof(*d));
	d->round = rounds ? (op & 3) : SGPU_RTE;
	switch (op) {
	case MDG_ALU_FADD: case MDG_ALU_FADD_RTZ: case MDG_ALU_FADD_RTN:
	case MDG_ALU_FADD_RTP:
		d->kind = K_FADD;
		break;
	case MDG_ALU_FMUL: case MDG_ALU_FMUL_RTZ: case MDG_ALU_FMUL_RTN:
	case MDG_ALU_FMUL_RTP:
		d->kind = K_FMUL;
		break;
	case MDG_ALU_FMIN: case MDG_ALU_FMIN_NAN: case MDG_ALU_FABSMIN:
	case MDG_ALU_FABSMIN_NAN:
		d->kind = K_FMIN;
		d->nan = op & 1;
		d->absval = op & 2;
		break;
	case MDG_ALU_FMAX: case MDG_ALU_FMAX_NAN: case MDG_ALU_FABSMAX:
	case MDG_ALU_FABSMAX_NAN:
		d->kind = K_FMAX;
		d->nan = op & 1;
		d->absval = op & 2;
		break;
	case MDG_ALU_FMOV: case MDG_ALU_FMOV_RTZ: case MDG_ALU_FMOV_RTN:
	case MDG_ALU_FMOV_RTP:
		d->kind = K_FMOV;
		d->src2_only = true;
		break;
	case MDG_ALU_FROUNDEVEN: case MDG_ALU_FTRUNC: case MDG_ALU_FFLOOR:
	case MDG_ALU_FCEIL:
		/* froundeven, ftrunc, ffloor, fceil: rte, rtz, rtn, rtp. */
		d->kind = K_FROUND;
		break;
	case MDG_ALU_FROUNDAWAY:
		d->kind = K_FROUNDAWAY;
		break;
	case MDG_ALU_FDOT3:
		d->kind = K_FDOT;
		d->reduce = 3;
		d->round = SGPU_RTE;
		break;
	case MDG_ALU_FDOT4:
		d->kind = K_FDOT;
		d->reduce = 4;
		d->round = SGPU_RTE;
		break;
	case MDG_ALU_FEQ: case MDG_ALU_FNE: case MDG_ALU_FLT: case MDG_ALU_FLE:
		d->kind = K_FCMP;
		d->cmp = op & 3;
		break;
	case MDG_ALU_FBALL_EQ: case MDG_ALU_FBALL_NEQ: case MDG_ALU_FBALL_LT:
	case MDG_ALU_FBALL_LTE:
		d->kind = K_FBALL;
		d->cmp = op & 3;
		d->reduce = 4;
		break;
	case MDG_ALU_FBANY_EQ: case MDG_ALU_FBANY_NEQ: case MDG_ALU_FBANY_LT:
	case MDG_ALU_FBANY_LTE:
		d->kind = K_FBANY;
		d->cmp = op & 3;
		d->reduce = 4;
		break;
	case MDG_ALU_F2I_RTE: case MDG_ALU_F2I_RTZ: case MDG_ALU_F2I_RTN:
	case MDG_ALU_F2I_RTP:
		d->kind = K_F2I;
		break;
	case MDG_ALU_F2U_RTE: case MDG_ALU_F2U_RTZ: case MDG_ALU_F2U_RTN:
	case MDG_ALU_F2U_RTP:
		d->kind = K_F2I;
		d->uns = true;
		break;
	case MDG_ALU_FCSEL_V:
		d->kind = K_FCSEL_V;
		break;
	case MDG_ALU_FCSEL:
		d->kind = K_FCSEL;
		break;
	case MDG_ALU_FRCP: case MDG_ALU_FRSQRT: case MDG_ALU_FSQRT:
	case MDG_ALU_FEXP2: case MDG_ALU_FLOG2: case MDG_ALU_FSINPI:
	case MDG_ALU_FCOSPI:
		d->kind = K_LUT;
		break;
	case MDG_ALU_IADD: d->kind = K_IADD; break;
	case MDG_ALU_ISHLADD: d->kind = K_ISHLADD; break;
	case MDG_ALU_ISUB: d->kind = K_ISUB; break;
	case MDG_ALU_ISHLSUB: d->kind = K_ISHLSUB; break;
	case MDG_ALU_IADDSAT: d->kind = K_ADDSAT; break;
	case MDG_ALU_UADDSAT: d->kind = K_ADDSAT; d->uns = true; break;
	case MDG_ALU_ISUBSAT: d->kind = K_SUBSAT; break;
	case MDG_ALU_USUBSAT: d->kind = K_SUBSAT; d->uns = true; break;
	case MDG_ALU_IMUL: d->kind = K_IMUL; break;
	case MDG_ALU_IMIN: d->kind = K_MIN; break;
	case MDG_ALU_UMIN: d->kind = K_MIN; d->uns = true; break;
	case MDG_ALU_IMAX: d->kind = K_MAX; break;
	case MDG_ALU_UMAX: d->kind = K_MAX; d->uns = true; break;
	case MDG_ALU_IAVG: d->kind = K_AVG; break;
	case MDG_ALU_UAVG: d->kind = K_AVG; d->uns = true; break;
	case MDG_ALU_IRAVG: d->kind = K_RAVG; break;
	case MDG_ALU_URAVG: d->kind = K_RAVG; d->uns = true; break;
	case MDG_ALU_IASR: d->kind = K_ASR; break;
	case MDG_ALU_ILSR: d->kind = K_LSR; d->uns = true; break;
	case MDG_ALU_ISHLSAT: d->kind = K_SHLSAT; break;
	case MDG_ALU_USHLSAT: d->kind = K_SHLSAT; d->uns = true; break;
	case MDG_ALU_ISHL: d->kind = K_SHL; d->uns = true; break;
	case MDG_ALU_IAND: d->kind = K_AND; d->uns = true; break;
	case MDG_ALU_IOR: d->kind = K_OR; d->uns = true; break;
	case MDG_ALU_INAND: d->kind = K_NAND; d->uns = true; break;
	case MDG_ALU_INOR: d->kind = K_NOR; d->uns = true; break;
	case MDG_ALU_IANDNOT: d->kind = K_ANDNOT; d->uns = true; break;
	case MDG_ALU_IORNOT: d->kind = K_ORNOT; d->uns = true; break;
	case MDG_ALU_IXOR: d->kind = K_XOR; d->uns = true; break;
	case MDG_ALU_INXOR: d->kind = K_NXOR; d->uns = true; break;
	case MDG_ALU_ICLZ: d->kind = K_CLZ; d->uns = true; break;
	case MDG_ALU_IPOPCNT: d->kind = K_POPCNT; d->uns = true; break;
	case MDG_ALU_IMOV: d->kind = K_IMOV; d->src2_only = true; break;
	case MDG_ALU_IABSDIFF: d->kind = K_ABSDIFF; break;
	case MDG_ALU_UABSDIFF: d->kind = K_ABSDIFF; d->uns = true; break;
	case MDG_ALU_IEQ: d->kind = K_ICMP; d->cmp = C_EQ; break;
	case MDG_ALU_INE: d->kind = K_ICMP; d->cmp = C_NE; break;
	case MDG_ALU_ULT: d->kind = K_ICMP; d->cmp = C_LT; d->uns = true; break;
	case MDG_ALU_ULE: d->kind = K_ICMP; d->cmp = C_LE; d->uns = true; break;
	case MDG_ALU_ILT: d->kind = K_ICMP; d->cmp = C_LT; break;
	case MDG_ALU_ILE: d->kind = K_ICMP; d->cmp = C_LE; break;
	case MDG_ALU_IBALL_EQ: d->kind = K_IBALL; d->cmp = C_EQ; break;
	case MDG_ALU_IBALL_NEQ: d->kind = K_IBALL; d->cmp = C_NE; break;
	case MDG_ALU_UBALL_LT:
		d->kind = K_IBALL; d->cmp = C_LT; d->uns = true; break;
	case MDG_ALU_UBALL_LTE:
		d->kind = K_IBALL; d->cmp = C_LE; d->uns = true; break;
	case MDG_ALU_IBALL_LT: d->kind = K_IBALL; d->cmp = C_LT; break;
	case MDG_ALU_IBALL_LTE: d->kind = K_IBALL; d->cmp = C_LE; break;
	case MDG_ALU_IBANY_EQ: d->kind = K_IBANY; d->cmp = C_EQ; break;
	case MDG_ALU_IBANY_NEQ: d->kind = K_IBANY; d->cmp = C_NE; break;
	case MDG_ALU_UBANY_LT:
		d->kind = K_IBANY; d->cmp = C_LT; d->uns = true; break;
	case MDG_ALU_UBANY_LTE:
		d->kind = K_IBANY; d->cmp = C_LE; d->uns = true; break;
	case MDG_ALU_IBANY_LT: d->kind = K_IBANY; d->cmp = C_LT; break;
	case MDG_ALU_IBANY_LTE: d->kind = K_IBANY; d->cmp = C_LE; break;
	case MDG_ALU_I2F_RTE: case MDG_ALU_I2F_RTZ: case MDG_ALU_I2F_RTN:
	case MDG_ALU_I2F_RTP:
		d->kind = K_I2F;
		break;
	case MDG_ALU_U2F_RTE: case MDG_ALU_U2F_RTZ: case MDG_ALU_U2F_RTN:
	case MDG_ALU_U2F_RTP:
		d->kind = K_I2F;
		d->uns = true;
		break;
	case MDG_ALU_ICSEL_V: d->kind = K_ICSEL_V; break;
	case MDG_ALU_ICSEL: d->kind = K_ICSEL; break;
	default:
		/*
		 * fdot3r, freduce, ffma, iwmul/uwmul/iuwmul, ichoose, fatan2,
		 * fpow: unknown semantics, and no compiler emits them.
		 */
		return false;
	}
	if (d->kind == K_IBALL || d->kind == K_IBANY)
		d->reduce = 4;
	d->one_src = d->kind == K_FROUND || d->kind == K_FROUNDAWAY ||
		     d->kind == K_F2I || d->kind == K_I2F || d->kind == K_LUT ||
		     d->kind == K_CLZ || d->kind == K_POPCNT;
	d->fsrc = d->kind < K_IADD;
	d->fdst = (d->fsrc && d->kind != K_FCMP && d->kind != K_FBALL &&
		   d->kind != K_FBANY && d->kind != K_F2I) || d->kind == K_I2F;
	return true;
}

/* ---- Integer helpers ---- */

static uint64_t mask_of(unsigned int w)
{
	return w >= 64 ? UINT64_MAX : (1ull << w) - 1;
}

/* The w-bit value v read as signed, as a two's complement bit pattern. */
static uint64_t sext(uint64_t v, unsigned int w)
{
	v &= mask_of(w);
	if (w < 64 && (v >> (w - 1)) & 1)
		v |= ~mask_of(w);
	return v;
}

static bool is_neg(uint64_t v, unsigned int w)
{
	return (v >> (w - 1)) & 1;
}

/* Signed less-than of two w-bit values. */
static bool slt(uint64_t a, uint64_t b, unsigned int w)
{
	bool na = is_neg(a, w), nb = is_neg(b, w);

	if (na != nb)
		return na;
	return (a & mask_of(w)) < (b & mask_of(w));
}

/* A 128-bit two's complement integer: the exact result of an integer op. */
struct wide {
	uint64_t lo, hi;
};

static struct wide wide_u(uint64_t v)
{
	return (struct wide){ v, 0 };
}

/* From a w-bit signed value. */
static struct wide wide_s(uint64_t v, unsigned int w)
{
	v = sext(v, w);
	return (struct wide){ v, (v >> 63) ? UINT64_MAX : 0 };
}

static struct wide wide_add(struct wide a, struct wide b)
{
	struct wide r = { a.lo + b.lo, a.hi + b.hi };

	r.hi += r.lo < a.lo;
	return r;
}

static struct wide wide_sub(struct wide a, struct wide b)
{
	struct wide r = { a.lo - b.lo, a.hi - b.hi };

	r.hi -= a.lo < b.lo;
	return r;
}

static bool wide_neg(struct wide a)
{
	return a.hi >> 63;
}

/* Arithmetic shift right by one (floor of half). */
static struct wide wide_sar1(struct wide a)
{
	struct wide r;

	r.lo = a.lo >> 1 | a.hi << 63;
	r.hi = a.hi >> 1 | (a.hi & (1ull << 63));
	return r;
}

static struct wide mul_u64(uint64_t a, uint64_t b)
{
	uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
	uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);

	return (struct wide){ (p00 & 0xFFFFFFFFu) | mid << 32,
			      p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) };
}

/* Product of two w-bit signed values. */
static struct wide mul_s(uint64_t a, uint64_t b, unsigned int w)
{
	uint64_t sa = sext(a, w), sb = sext(b, w);
	struct wide r = mul_u64(sa, sb);

	if (sa >> 63)
		r.hi -= sb;
	if (sb >> 63)
		r.hi -= sa;
	return r;
}

/* The exact value x clamped to the signed / unsigned w-bit range. */
static uint64_t clamp_s(struct wide x, unsigned int w)
{
	uint64_t max = mask_of(w - 1), min = ~max;     /* as 64-bit patterns */
	bool fits64 = x.hi == ((x.lo >> 63) ? UINT64_MAX : 0);

	if (!fits64)
		return (wide_neg(x) ? min : max) & mask_of(w);
	if (x.lo >> 63) {
		/* Negative: below min iff x < min (compare as unsigned). */
		return (x.lo < min ? min : x.lo) & mask_of(w);
	}
	return (x.lo > max ? max : x.lo) & mask_of(w);
}

static uint64_t clamp_u(struct wide x, unsigned int w)
{
	if (wide_neg(x))
		return 0;
	if (x.hi || x.lo > mask_of(w))
		return mask_of(w);
	return x.lo;
}

/*
 * Narrows an integer op's exact result to the written width with the
 * integer output modifier. Full width: keep-low wraps, keep-high is the
 * upper half of the double-width result, the saturations clamp the exact
 * result. Shrinking (ow = w / 2) applies the modifier to the w-bit lane
 * result, as Mesa relies on for mul-high (keep-high of a 2w-bit product).
 */
static uint64_t int_outmod(struct wide x, unsigned int w, unsigned int ow,
			   unsigned int outmod, bool uns)
{
	if (ow == w) {
		switch (outmod) {
		case MDG_OUTMOD_SAT_SIGNED:
			return clamp_s(x, w);
		case MDG_OUTMOD_SAT_UNSIGNED:
			return clamp_u(x, w);
		case MDG_OUTMOD_KEEP_HIGH:
			return w == 64 ? x.hi : (x.lo >> w) & mask_of(w);
		default:
			return x.lo & mask_of(w);
		}
	} else {
		uint64_t v = x.lo & mask_of(w);
		struct wide lane = uns ? wide_u(v) : wide_s(v, w);

		switch (outmod) {
		case MDG_OUTMOD_SAT_SIGNED:
			return clamp_s(lane, ow);
		case MDG_OUTMOD_SAT_UNSIGNED:
			return clamp_u(lane, ow);
		case MDG_OUTMOD_KEEP_HIGH:
			return v >> ow;
		default:
			return v & mask_of(ow);
		}
	}
}

static bool icmp(const struct opd *d, uint64_t a, uint64_t b, unsigned int w)
{
	a &= mask_of(w);
	b &= mask_of(w);
	switch (d->cmp) {
	case C_EQ:
		return a == b;
	case C_NE:
		return a != b;
	case C_LT:
		return d->uns ? a < b : slt(a, b, w);
	default:
		return d->uns ? a <= b : !slt(b, a, w);
	}
}

/* One lane of a lane-wise integer op; the exact result. */
static struct wide int_lane(const struct opd *d, uint64_t a, uint64_t b,
			    unsigned int w)
{
	struct wide wa = d->uns ? wide_u(a) : wide_s(a, w);
	struct wide wb = d->uns ? wide_u(b) : wide_s(b, w);
	/* Shift counts wrap at the lane width, as the hardware masks them. */
	unsigned int n = (unsigned int)(b & (w - 1));
	uint64_t m = mask_of(w), r;

	switch (d->kind) {
	case K_IADD:
		return wide_add(wa, wb);
	case K_ISUB:
		return wide_sub(wa, wb);
	case K_ISHLADD:
		return wide_add(wide_add(wa, wa), wb);
	case K_ISHLSUB:
		return wide_sub(wide_add(wa, wa), wb);
	case K_ADDSAT:
		r = d->uns ? clamp_u(wide_add(wa, wb), w) :
			     clamp_s(wide_add(wa, wb), w);
		break;
	case K_SUBSAT:
		r = d->uns ? clamp_u(wide_sub(wa, wb), w) :
			     clamp_s(wide_sub(wa, wb), w);
		break;
	case K_IMUL:
		return mul_s(a, b, w);
	case K_MIN:
		r = icmp(&(struct opd){ .cmp = C_LT, .uns = d->uns }, b, a, w) ?
		    b : a;
		break;
	case K_MAX:
		r = icmp(&(struct opd){ .cmp = C_LT, .uns = d->uns }, a, b, w) ?
		    b : a;
		break;
	case K_AVG:
		return wide_sar1(wide_add(wa, wb));
	case K_RAVG:
		return wide_sar1(wide_add(wide_add(wa, wb), wide_u(1)));
	case K_ASR:
		r = (a & m) >> n;
		if (is_neg(a, w))
			r |= ~(m >> n) & m;
		break;
	case K_LSR:
		r = (a & m) >> n;
		break;
	case K_SHL:
		r = (a << n) & m;
		break;
	case K_SHLSAT:
		if (d->uns) {
			r = (a & m) > (m >> n) ? m : (a << n) & m;
		} else {
			/* Representable iff the bits shifted out equal the sign. */
			uint64_t s = sext(a, w);
			uint64_t top = sext(s >> (w - 1 - n), n + 1);

			if (top != 0 && top != UINT64_MAX)
				r = is_neg(a, w) ? ~mask_of(w - 1) & m :
						   mask_of(w - 1);
			else
				r = (a << n) & m;
		}
		break;
	case K_AND:
		r = a & b;
		break;
	case K_OR:
		r = a | b;
		break;
	case K_NAND:
		r = ~(a & b);
		break;
	case K_NOR:
		r = ~(a | b);
		break;
	case K_ANDNOT:
		r = a & ~b;
		break;
	case K_ORNOT:
		r = a | ~b;
		break;
	case K_XOR:
		r = a ^ b;
		break;
	case K_NXOR:
		r = ~(a ^ b);
		break;
	case K_CLZ:
		r = 0;
		while (r < w && !((a >> (w - 1 - r)) & 1))
			r++;
		break;
	case K_POPCNT:
		r = 0;
		for (unsigned int i = 0; i < w; i++)
			r += (a >> i) & 1;
		break;
	case K_IMOV:
		r = b;
		break;
	case K_ABSDIFF: {
		bool lt = icmp(&(struct opd){ .cmp = C_LT, .uns = d->uns },
			       a, b, w);

		/* Unsigned wrap-around gives the exact magnitude. */
		r = lt ? sext(b, w) - sext(a, w) : sext(a, w) - sext(b, w);
		return wide_u(r & m);
	}
	case K_ICMP:
		r = icmp(d, a, b, w) ? m : 0;
		return wide_s(r, w);
	default:
		r = 0;
		break;
	}
	r &= m;
	return d->uns ? wide_u(r) : wide_s(r, w);
}

/* ---- Float helpers ---- */

static double first_nan(double a, double b)
{
	return sgpu_nan_quiet(isnan(a) ? a : b);
}

static double fminmax(const struct opd *d, double a, double b, bool is_max)
{
	if (d->absval) {
		a = sgpu_fabs(a);
		b = sgpu_fabs(b);
	}
	if (isnan(a) || isnan(b)) {
		if (d->nan || (isnan(a) && isnan(b)))
			return first_nan(a, b);
		return isnan(a) ? b : a;
	}
	if (a == b)     /* only zeros differ: -0 < +0 */
		return (signbit(a) != 0) == is_max ? b : a;
	return (a < b) == is_max ? b : a;
}

static bool fcmp(unsigned int cmp, double a, double b)
{
	switch (cmp) {
	case C_EQ:
		return a == b;
	case C_NE:
		return !(a == b);       /* unordered compares not-equal */
	case C_LT:
		return a < b;
	default:
		return a <= b;
	}
}

/*
 * One lane of a float-result op: the real result is *s + *e (e is the
 * error of a double computation, 0 when exact).
 */
static void float_lane(const struct opd *d, double a, double b, double *s,
		       double *e, bool f64)
{
	*e = 0.0;
	switch (d->kind) {
	case K_FADD:
		if (isnan(a) || isnan(b)) {
			*s = first_nan(a, b);
		} else if (isinf(a) && isinf(b) && signbit(a) != signbit(b)) {
			*s = sgpu_default_nan();
		} else if (isinf(a) || isinf(b)) {
			*s = isinf(a) ? a : b;
		} else {
			double sum = a + b, bb = sum - a;

			*s = sum;
			if (isinf(sum))         /* fp64 overflow */
				*e = sum > 0.0 ? -1.0 : 1.0;
			else
				*e = (a - (sum - bb)) + (b - bb); /* TwoSum */
			if (sum == 0.0 && *e == 0.0) {
				/* Exact zero: -0 only from -0 + -0 or RTN. */
				if (a == 0.0 && b == 0.0 &&
				    signbit(a) == signbit(b))
					*s = a;
				else
					*s = d->round == SGPU_RTN ? -0.0 : 0.0;
			}
		}
		break;
	case K_FMUL:
		if (isnan(a) || isnan(b))
			*s = first_nan(a, b);
		else if ((isinf(a) && b == 0.0) || (isinf(b) && a == 0.0))
			*s = sgpu_default_nan();
		else if (!f64)
			*s = a * b;     /* exact: 24 + 24 bits fit in 53 */
		else {
			*s = a * b;
			if (isfinite(a) && isfinite(b))
				*e = sgpu_f64_mul_error(a, b, *s);
		}
		break;
	case K_FMIN:
		*s = fminmax(d, a, b, false);
		break;
	case K_FMAX:
		*s = fminmax(d, a, b, true);
		break;
	case K_FMOV:
		*s = b;                 /* a move: NaNs pass unchanged */
		break;
	case K_FROUND:
		*s = isnan(a) ? sgpu_nan_quiet(a) :
				sgpu_round_int(a, d->round);
		break;
	case K_FROUNDAWAY:
		*s = isnan(a) ? sgpu_nan_quiet(a) : sgpu_round_away(a);
		break;
	default:
		*s = sgpu_default_nan();
		break;
	}
}

/* Applies a float output modifier to the real value s + e. */
static void float_outmod(unsigned int outmod, double *s, double *e)
{
	double lo, v = *s;

	if (outmod == MDG_OUTMOD_NONE)
		return;
	lo = outmod == MDG_OUTMOD_CLAMP_M1_1 ? -1.0 : 0.0;
	if (isnan(v)) {
		*s = lo;
		*e = 0.0;
		return;
	}
	if (v < lo || (v == lo && *e < 0.0) || (v == 0.0 && lo == 0.0)) {
		/* [0, x] clamps map -0 to +0 as well. */
		*s = lo;
		*e = 0.0;
	} else if (outmod != MDG_OUTMOD_CLAMP_POS &&
		   (v > 1.0 || (v == 1.0 && *e > 0.0))) {
		*s = 1.0;
		*e = 0.0;
	}
}

/* ---- Operands ---- */

/* Lane values of one source, as integers (w bits) and as floats. */
struct operand {
	uint64_t i[16];
	double f[16];
};

/* Reads bits [off, off + bits) of r, bits a multiple of 8 (LE host). */
static uint64_t read_bits(const union sgpu_reg *r, unsigned int off,
			  unsigned int bits)
{
	uint64_t v = 0;

	memcpy(&v, r->u8 + off / 8, bits / 8);
	return v;
}

static void write_bits(union sgpu_reg *r, unsigned int off,
		       unsigned int bits, uint64_t v)
{
	memcpy(r->u8 + off / 8, &v, bits / 8);
}

/*
 * Turns an e-bit element into a w-bit lane operand (e == w or w / 2):
 * integers are widened by the integer modifier, floats are decoded
 * (fp16 and fp32 exactly to double, fp64 as it is) and get abs/neg after
 * widening.
 */
static bool element(uint64_t raw, unsigned int e, unsigned int w,
		    unsigned int mod, bool fsrc, struct operand *o,
		    unsigned int lane)
{
	if (fsrc) {
		double f;

		if (e == 16)
			f = sgpu_f16_decode((uint16_t)raw);
		else if (e == 32)
			f = sgpu_f32_decode((uint32_t)raw);
		else
			memcpy(&f, &raw, sizeof(f));    /* binary64 as it is */
		if (mod & 1)
			f = sgpu_fabs(f);
		if (mod & 2)
			f = sgpu_fneg(f);
		o->f[lane] = f;
		return true;
	}
	if (e < w) {
		switch (mod) {
		case 0:
			raw = sext(raw, e);
			break;
		case 1:
			raw &= mask_of(e);
			break;
		case 2:
			raw = (raw & mask_of(e)) << e | (raw & mask_of(e));
			break;
		default:
			raw = (raw & mask_of(e)) << e;
			break;
		}
	}
	o->i[lane] = raw & mask_of(w);
	return true;
}

/*
 * A vector source: which element each lane reads (docs/hardware.md §5.3 and the
 * disassembler): four 2-bit selectors; 16-bit mode applies them to lanes
 * 0-3 and again to 4-7, 8-bit mode to byte pairs; the expand mode picks
 * which half of the register each group of lanes reads from. 64-bit lanes
 * are pairs of 32-bit selectors, or with expansion one 32-bit element
 * chosen by the even selector of the pair (as Mesa encodes it).
 */
static bool fetch_vector(const union sgpu_reg *r, uint16_t desc,
			 unsigned int w, bool fsrc, struct operand *o)
{
	unsigned int mod = MDG_VSRC_MOD(desc), x = MDG_VSRC_EXPAND(desc);
	unsigned int sw = MDG_VSRC_SWIZZLE(desc);
	bool expands = x >= 4;
	unsigned int e = expands ? w / 2 : w, n = 128 / w;
	unsigned int half = 64 / e, first, second;

	if (x >= 1 && x <= 3 && w > 16)
		return false;
	if (expands && w == 8)
		return false;
	if (x >= 6 && w != 16)
		return false;
	switch (x) {
	case 1: first = 0; second = 0; break;
	case 2: first = half; second = half; break;
	case 3: first = half; second = 0; break;
	case 4: first = 0; second = half / 2; break;
	case 5: first = half; second = half + half / 2; break;
	case 6: first = half / 2; second = 0; break;
	case 7: first = half + half / 2; second = half; break;
	default: first = 0; second = half; break;
	}
#define SEL(k) ((sw >> (2 * (k))) & 3u)
	for (unsigned int i = 0; i < n; i++) {
		uint64_t raw;
		unsigned int idx;

		if (w == 64 && !expands) {
			raw = read_bits(r, SEL(2 * i) * 32, 32) |
			      read_bits(r, SEL(2 * i + 1) * 32, 32) << 32;
			if (!element(raw, 64, 64, mod, fsrc, o, i))
				return false;
			continue;
		}
		if (w == 64)
			idx = (x == 5 ? 2 : 0) + SEL(2 * i) / 2;
		else if (w == 32)
			idx = first + SEL(i);
		else if (w == 16)
			idx = (i < 4 ? first : second) + SEL(i & 3);
		else
			idx = (i < 8 ? first : second) +
			      2 * SEL((i & 7) >> 1) + (i & 1);
		raw = read_bits(r, idx * e, e);
		if (!element(raw, e, w, mod, fsrc, o, i))
			return false;
	}
#undef SEL
	return true;
}

/* A scalar source: a 16- or 32-bit element at a 16-bit position. */
static bool fetch_scalar(const union sgpu_reg *r, uint8_t desc,
			 unsigned int w, bool fsrc, struct operand *o)
{
	unsigned int comp = MDG_SSRC_COMP(desc);
	unsigned int e = MDG_SSRC_FULL(desc) ? 32 : 16;

	if (e == 32 && (comp & 1))
		return false;
	if (comp * 16 + e > 128 || e > w)
		return false;
	return element(read_bits(r, comp * 16, e), e, w, MDG_SSRC_MOD(desc),
		       fsrc, o, 0);
}

/*
 * The immediate in every lane: fp16 for float-source ops, a 16-bit
 * integer for integer-source ops, sign-extended to wider lanes (Mesa
 * inlines a 32-bit constant only when it fits int16) and truncated to
 * 8-bit lanes. No modifiers: the descriptor bits are the constant.
 */
static void fill_immediate(uint16_t imm, unsigned int w, unsigned int n,
			   struct operand *o)
{
	for (unsigned int i = 0; i < n; i++) {
		o->f[i] = sgpu_f16_decode(imm);
		o->i[i] = sext(imm, 16) & mask_of(w);
	}
}

/* ---- Geometry: lane width, lanes, what is written where ---- */

struct geom {
	bool scalar;
	unsigned int w;         /* lane width the op computes at */
	unsigned int n;         /* lanes */
	unsigned int ow;        /* width of each written result */
	uint16_t lanes;         /* lanes written */
	unsigned int base;      /* bit offset of lane 0's result */
	unsigned int stride;    /* bits between results */
};

static bool geometry(const struct mdg_alu *alu, enum mdg_unit unit,
		     struct geom *g)
{
	memset(g, 0, sizeof(*g));
	g->scalar = mdg_unit_is_scalar(unit);
	if (g->scalar) {
		bool half1 = !MDG_SSRC_FULL(alu->ssrc1);
		bool half2 = alu->src2_imm || !MDG_SSRC_FULL(alu->ssrc2);

		/* All-16-bit scalar ops compute at 16 bits, others at 32. */
		g->w = (half1 && half2 && !alu->full) ? 16 : 32;
		g->n = 1;
		g->ow = alu->full ? 32 : 16;
		g->lanes = 1;
		if (alu->full && (alu->comp & 1))
			return false;
		g->base = alu->comp * 16u;
		if (g->base + g->ow > 128)
			return false;
		return true;
	}
	if (alu->reg_mode > MDG_REG_MODE_64)
		return false;
	g->w = 8u << alu->reg_mode;
	g->n = 128 / g->w;
	if (alu->shrink == MDG_SHRINK_NONE) {
		g->ow = g->w;
		g->base = 0;
	} else if (alu->shrink <= MDG_SHRINK_UPPER && g->w > 8) {
		g->ow = g->w / 2;
		g->base = alu->shrink == MDG_SHRINK_UPPER ? 64 : 0;
	} else {
		return false;
	}
	g->stride = g->ow;
	/* One mask bit per 16-bit slice of the op's lanes. */
	for (unsigned int i = 0; i < g->n; i++) {
		unsigned int bit = g->w >= 16 ? i * g->w / 16 : i / 2;

		if (alu->mask & (1u << bit))
			g->lanes |= (uint16_t)(1u << i);
	}
	return true;
}

/* ---- Fast path ---- */

/*
 * The common forms, computed on 32-bit lane bits with the same results as
 * the general path below: 32-bit lanes (vector reg mode 32 without expand
 * or shrink, or a scalar op with 32-bit sources and result), and the ops
 * that compilers emit in loops. fp32 add and multiply round to nearest
 * even here (exact double arithmetic, then sgpu_f32_round); NaN and
 * infinite inputs take the general lane code. Anything else returns false
 * before touching *dst, and the general path runs.
 */

static enum sgpu_alu32_class fast_class_of(uint8_t op)
{
	switch (op) {
	case MDG_ALU_FADD: case MDG_ALU_FMUL: /* fadd, fmul (rte) */
	case MDG_ALU_FMIN: case MDG_ALU_FMIN_NAN: case MDG_ALU_FABSMIN:
	case MDG_ALU_FABSMIN_NAN:
	case MDG_ALU_FMAX: case MDG_ALU_FMAX_NAN: case MDG_ALU_FABSMAX:
	case MDG_ALU_FABSMAX_NAN:
	case MDG_ALU_FMOV: case MDG_ALU_FMOV_RTZ: case MDG_ALU_FMOV_RTN:
	case MDG_ALU_FMOV_RTP:
	case MDG_ALU_FCSEL_V: case MDG_ALU_FCSEL:
		return SGPU_ALU32_FLOAT;
	case MDG_ALU_FEQ: case MDG_ALU_FNE: case MDG_ALU_FLT: case MDG_ALU_FLE:
		return SGPU_ALU32_FCMP;
	case MDG_ALU_I2F_RTE: case MDG_ALU_U2F_RTE:
		return SGPU_ALU32_I2F;
	case MDG_ALU_IADD: case MDG_ALU_ISHLADD: case MDG_ALU_ISUB:
	case MDG_ALU_ISHLSUB: case MDG_ALU_IMUL:
	case MDG_ALU_IMIN: case MDG_ALU_UMIN: case MDG_ALU_IMAX:
	case MDG_ALU_UMAX:
	case MDG_ALU_IASR: case MDG_ALU_ILSR: case MDG_ALU_ISHL:
	case MDG_ALU_IAND: case MDG_ALU_IOR: case MDG_ALU_INAND:
	case MDG_ALU_INOR:
	case MDG_ALU_IANDNOT: case MDG_ALU_IORNOT: case MDG_ALU_IXOR:
	case MDG_ALU_INXOR: case MDG_ALU_IMOV:
	case MDG_ALU_IEQ: case MDG_ALU_INE: case MDG_ALU_ULT: case MDG_ALU_ULE:
	case MDG_ALU_ILT: case MDG_ALU_ILE:
	case MDG_ALU_ICSEL_V: case MDG_ALU_ICSEL:
		return SGPU_ALU32_INT;
	default:
		return SGPU_ALU32_NONE;
	}
}

static bool fast_src2_only(uint8_t op)
{
	return (op >= MDG_ALU_FMOV && op <= MDG_ALU_FMOV_RTP) ||
	       op == MDG_ALU_IMOV;
}

static double f32_value(uint32_t f)
{
	uint64_t u;
	double d;

	if (!(f & 0x7F800000u)) {
		d = (double)(f & 0x7FFFFFu) * 0x1p-149;   /* exact */
		return (f >> 31) ? -d : d;
	}
	/* Finite normal: rebias the exponent (127 -> 1023). */
	u = (uint64_t)(f >> 31) << 63 |
	    (uint64_t)(((f >> 23) & 0xFFu) + 896) << 52 |
	    (uint64_t)(f & 0x7FFFFFu) << 29;
	memcpy(&d, &u, sizeof(d));
	return d;
}

static bool f32_special(uint32_t f)
{
	return (f & 0x7F800000u) == 0x7F800000u;        /* inf or NaN */
}

static bool f32_nan(uint32_t f)
{
	return (f & 0x7FFFFFFFu) > 0x7F800000u;
}

/* A key whose unsigned order is the numeric order, -0 before +0. */
static uint32_t f32_key(uint32_t f)
{
	return (f >> 31) ? ~f : f | 0x80000000u;
}

/* float_outmod() on an fp32 result (the clamps commute with rounding). */
static uint32_t f32_outmod(uint32_t v, unsigned int outmod)
{
	switch (outmod) {
	case MDG_OUTMOD_NONE:
		return v;
	case MDG_OUTMOD_CLAMP_M1_1:
		if (f32_nan(v))
			return 0xBF800000u;
		if ((v & 0x7FFFFFFFu) > 0x3F800000u)
			return (v >> 31) ? 0xBF800000u : 0x3F800000u;
		return v;
	default:
		/* [0, x]: NaN, negatives and -0 give +0. */
		if (f32_nan(v) || (v >> 31))
			return 0;
		if (outmod == MDG_OUTMOD_CLAMP_0_1 && v > 0x3F800000u)
			return 0x3F800000u;
		return v;
	}
}

/* fadd with a NaN or infinite operand (float_lane's rules). */
static uint32_t f32_special_add(uint32_t x, uint32_t y)
{
	if (f32_nan(x) || f32_nan(y))
		return (f32_nan(x) ? x : y) | 0x00400000u;      /* quieted */
	if (f32_special(x) && f32_special(y) && x != y)
		return SGPU_F32_DEFAULT_NAN;                    /* inf - inf */
	return f32_special(x) ? x : y;
}

/* fmul with a NaN or infinite operand. */
static uint32_t f32_special_mul(uint32_t x, uint32_t y)
{
	if (f32_nan(x) || f32_nan(y))
		return (f32_nan(x) ? x : y) | 0x00400000u;
	if (!(x & 0x7FFFFFFFu) || !(y & 0x7FFFFFFFu))
		return SGPU_F32_DEFAULT_NAN;                    /* inf * 0 */
	return ((x ^ y) & 0x80000000u) | 0x7F800000u;
}

/* The general path's computation of one fp32 lane of a float op. */
static uint32_t slow_float_lane(uint8_t op, uint32_t x, uint32_t y,
				unsigned int outmod)
{
	struct opd d;
	double s, e;

	op_decode(op, &d);
	float_lane(&d, sgpu_f32_decode(x), sgpu_f32_decode(y), &s, &e,
		   false);
	float_outmod(outmod, &s, &e);
	return sgpu_float_encode(s, e, d.round, SGPU_FMT_F32);
}

static uint32_t fast_float_lane(uint8_t op, uint32_t x, uint32_t y,
				unsigned int outmod)
{
	uint32_t r;

	switch (op) {
	case MDG_ALU_FADD: {                            /* fadd.rte */
		int ex, ey;

		if (f32_special(x) || f32_special(y))
			return f32_outmod(f32_special_add(x, y), outmod);
		ex = (int)((x >> 23) & 0xFF);
		ey = (int)((y >> 23) & 0xFF);
		ex += !ex;
		ey += !ey;
		/*
		 * Exponents within 28: the sum is exact in double. Farther
		 * apart, the smaller operand is below a quarter ulp of the
		 * larger (even of the binade below), which is the result.
		 */
		if (ex - ey > 28) {
			r = x;
		} else if (ey - ex > 28) {
			r = y;
		} else {
			double s = f32_value(x) + f32_value(y);

			/* Exact zero: -0 only from -0 + -0. */
			if (s == 0.0)
				r = x == y ? x : 0;
			else
				r = sgpu_f32_round(s, SGPU_RTE);
		}
		break;
	}
	case MDG_ALU_FMUL:                              /* fmul.rte */
		if (f32_special(x) || f32_special(y))
			return f32_outmod(f32_special_mul(x, y), outmod);
		/* Exact in double: 24 + 24 bits, exponents in range. */
		r = sgpu_f32_round(f32_value(x) * f32_value(y), SGPU_RTE);
		break;
	case MDG_ALU_FMIN: case MDG_ALU_FMIN_NAN: case MDG_ALU_FABSMIN:
	case MDG_ALU_FABSMIN_NAN:
	case MDG_ALU_FMAX: case MDG_ALU_FMAX_NAN: case MDG_ALU_FABSMAX:
	case MDG_ALU_FABSMAX_NAN:
		if (f32_nan(x) || f32_nan(y))
			return slow_float_lane(op, x, y, outmod);
		if (op & 2) {                   /* fabsmin, fabsmax */
			x &= 0x7FFFFFFFu;
			y &= 0x7FFFFFFFu;
		}
		if (op & 4)                     /* max */
			r = f32_key(x) < f32_key(y) ? y : x;
		else
			r = f32_key(y) < f32_key(x) ? y : x;
		break;
	default:                                /* moves: bit for bit */
		r = y;
		break;
	}
	return f32_outmod(r, outmod);
}

static bool fast_fcmp(uint8_t op, uint32_t x, uint32_t y)
{
	bool zeros = !((x | y) & 0x7FFFFFFFu);

	if (f32_nan(x) || f32_nan(y))
		return (op & 3) == C_NE;
	switch (op & 3) {
	case C_EQ:
		return x == y || zeros;
	case C_NE:
		return !(x == y || zeros);
	case C_LT:
		return !zeros && f32_key(x) < f32_key(y);
	default:
		return zeros || f32_key(x) <= f32_key(y);
	}
}

/* int_outmod() for w = ow = 32 on an exact result that fits int64. */
static uint32_t int_outmod32(int64_t v, unsigned int outmod)
{
	switch (outmod) {
	case MDG_OUTMOD_SAT_SIGNED:
		return (uint32_t)(v < INT32_MIN ? INT32_MIN :
				  v > INT32_MAX ? INT32_MAX : v);
	case MDG_OUTMOD_SAT_UNSIGNED:
		return v < 0 ? 0 : v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	case MDG_OUTMOD_KEEP_HIGH:
		return (uint32_t)((uint64_t)v >> 32);
	default:
		return (uint32_t)v;
	}
}

/* int_lane() for w = 32: the exact result, as int64. */
static int64_t fast_int_lane(uint8_t op, uint32_t x, uint32_t y)
{
	int64_t sx = (int32_t)x, sy = (int32_t)y;
	unsigned int n = y & 31;

	switch (op) {
	case MDG_ALU_IADD: return sx + sy;
	case MDG_ALU_ISHLADD: return 2 * sx + sy;
	case MDG_ALU_ISUB: return sx - sy;
	case MDG_ALU_ISHLSUB: return 2 * sx - sy;
	case MDG_ALU_IMUL: return sx * sy;
	case MDG_ALU_IMIN: return sy < sx ? sy : sx;
	case MDG_ALU_UMIN: return y < x ? y : x;
	case MDG_ALU_IMAX: return sx < sy ? sy : sx;
	case MDG_ALU_UMAX: return x < y ? y : x;
	case MDG_ALU_IASR:
		return (int32_t)(x >> n | (x >> 31 ? ~(UINT32_MAX >> n) : 0));
	case MDG_ALU_ILSR: return x >> n;
	case MDG_ALU_ISHL: return (uint32_t)(x << n);
	case MDG_ALU_IAND: return x & y;
	case MDG_ALU_IOR: return x | y;
	case MDG_ALU_INAND: return (uint32_t)~(x & y);
	case MDG_ALU_INOR: return (uint32_t)~(x | y);
	case MDG_ALU_IANDNOT: return x & ~y;
	case MDG_ALU_IORNOT: return (uint32_t)(x | ~y);
	case MDG_ALU_IXOR: return x ^ y;
	case MDG_ALU_INXOR: return (uint32_t)~(x ^ y);
	case MDG_ALU_IMOV: return sy;
	case MDG_ALU_IEQ: return -(int64_t)(x == y);
	case MDG_ALU_INE: return -(int64_t)(x != y);
	case MDG_ALU_ULT: return -(int64_t)(x < y);
	case MDG_ALU_ULE: return -(int64_t)(x <= y);
	case MDG_ALU_ILT: return -(int64_t)(sx < sy);
	default: return -(int64_t)(sx <= sy);  /* ile */
	}
}

static uint32_t f32_mod(uint32_t v, unsigned int mod)
{
	if (mod & 1)
		v &= 0x7FFFFFFFu;
	if (mod & 2)
		v ^= 0x80000000u;
	return v;
}

/* The fp16 immediate as fp32 bits (exact; NaN payloads kept). */
static uint32_t f16_imm_bits(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1F;
	uint32_t mant = h & 0x3FFu;

	if (exp == 0x1F)
		return sign | 0x7F800000u | mant << 13;
	if (exp)
		return sign | (exp + 112) << 23 | mant << 13;
	if (!mant)
		return sign;
	/* Denormal: normalize into fp32's range. */
	exp = 113;
	while (!(mant & 0x400u)) {
		mant <<= 1;
		exp--;
	}
	return sign | exp << 23 | (mant & 0x3FFu) << 13;
}

bool sgpu_alu_prepare32(const struct mdg_alu *alu, enum mdg_unit unit,
			struct sgpu_alu32 *p)
{
	enum sgpu_alu32_class fc = fast_class_of(alu->op);
	bool src2_only = fast_src2_only(alu->op);
	/* Conversions do not read src2, whatever its form. */
	bool one_src = fc == SGPU_ALU32_I2F;

	memset(p, 0, sizeof(*p));
	if (fc == SGPU_ALU32_NONE)
		return false;
	p->op = alu->op;
	p->outmod = alu->outmod;
	p->cls = (uint8_t)fc;
	p->fsrc = fc == SGPU_ALU32_FLOAT || fc == SGPU_ALU32_FCMP;
	p->src2_only = src2_only;
	p->imm = alu->src2_imm;
	p->csel = alu->op == MDG_ALU_ICSEL_V || alu->op == MDG_ALU_ICSEL ||
		  alu->op == MDG_ALU_FCSEL_V || alu->op == MDG_ALU_FCSEL;
	if (mdg_unit_is_scalar(unit)) {
		unsigned int c1 = MDG_SSRC_COMP(alu->ssrc1);
		unsigned int c2 = MDG_SSRC_COMP(alu->ssrc2);

		/* 32-bit result and sources: computes at 32 bits. */
		if (!alu->full || (alu->comp & 1) || alu->comp > 6)
			return false;
		if (!src2_only && (!MDG_SSRC_FULL(alu->ssrc1) || (c1 & 1) ||
				   c1 > 6))
			return false;
		if (!alu->src2_imm && !one_src &&
		    (!MDG_SSRC_FULL(alu->ssrc2) || (c2 & 1) || c2 > 6))
			return false;
		p->n = 1;
		p->lanes = 1;
		p->dst_comp = alu->comp / 2;
		p->sel1[0] = (uint8_t)(c1 / 2);
		p->sel2[0] = (uint8_t)(c2 / 2);
		/* csel: r31.w, or r31 at the scalar's position. */
		p->cond_comp[0] = alu->op == MDG_ALU_ICSEL_V ||
				  alu->op == MDG_ALU_FCSEL_V ?
				  p->dst_comp : 3;
		p->mod1 = (uint8_t)MDG_SSRC_MOD(alu->ssrc1);
		p->mod2 = alu->src2_imm ? 0 : (uint8_t)MDG_SSRC_MOD(alu->ssrc2);
	} else {
		unsigned int sw1 = MDG_VSRC_SWIZZLE(alu->src1);
		unsigned int sw2 = MDG_VSRC_SWIZZLE(alu->src2);

		if (alu->reg_mode != MDG_REG_MODE_32 ||
		    alu->shrink != MDG_SHRINK_NONE)
			return false;
		if (!src2_only && MDG_VSRC_EXPAND(alu->src1))
			return false;
		if (!alu->src2_imm && !one_src && MDG_VSRC_EXPAND(alu->src2))
			return false;
		p->n = 4;
		p->lanes = (alu->mask & 1) | (alu->mask >> 1 & 2) |
			   (alu->mask >> 2 & 4) | (alu->mask >> 3 & 8);
		for (unsigned int i = 0; i < 4; i++) {
			p->sel1[i] = (uint8_t)((sw1 >> (2 * i)) & 3);
			p->sel2[i] = (uint8_t)((sw2 >> (2 * i)) & 3);
			p->cond_comp[i] = alu->op == MDG_ALU_ICSEL ||
					  alu->op == MDG_ALU_FCSEL ?
					  3 : (uint8_t)i;
		}
		p->mod1 = (uint8_t)MDG_VSRC_MOD(alu->src1);
		p->mod2 = alu->src2_imm ? 0 : (uint8_t)MDG_VSRC_MOD(alu->src2);
	}
	if (!p->fsrc) {
		p->mod1 = 0;
		p->mod2 = 0;
	}
	if (src2_only)
		p->mod1 = 0;
	if (alu->src2_imm) {
		uint16_t imm = mdg_alu_immediate(alu, unit);

		p->imm_bits = p->fsrc ? f16_imm_bits(imm) :
			      (uint32_t)(int16_t)imm;
	} else if (one_src) {
		/* Nothing to read: any value does. */
		p->imm = true;
		p->imm_bits = 0;
	}
	return true;
}

uint32_t sgpu_alu32_mod(uint32_t v, unsigned int mod)
{
	return f32_mod(v, mod);
}

uint32_t sgpu_alu32_outmod_f32(uint32_t v, unsigned int outmod)
{
	return f32_outmod(v, outmod);
}

uint32_t sgpu_alu32_lane(const struct sgpu_alu32 *p, uint32_t a, uint32_t b,
			 uint32_t c)
{
	uint8_t op = p->op;
	uint32_t r;

	if (p->csel) {
		if (op == MDG_ALU_ICSEL_V)
			r = (a & c) | (b & ~c);
		else
			r = c ? a : b;
		if (op == MDG_ALU_FCSEL_V || op == MDG_ALU_FCSEL)
			return f32_outmod(r, p->outmod);
		return int_outmod32((int64_t)r, p->outmod);
	}
	switch (p->cls) {
	case SGPU_ALU32_FLOAT:
		return fast_float_lane(op, a, b, p->outmod);
	case SGPU_ALU32_FCMP:
		return int_outmod32(-(int64_t)fast_fcmp(op, a, b), p->outmod);
	case SGPU_ALU32_I2F: {
		/* The host converts rounding to nearest even, exactly once. */
		float f = op == MDG_ALU_I2F_RTE ? (float)(int32_t)a : (float)a;

		memcpy(&r, &f, sizeof(r));
		return f32_outmod(r, p->outmod);
	}
	default:
		return int_outmod32(fast_int_lane(op, a, b), p->outmod);
	}
}

static bool fast_execute(const struct mdg_alu *alu, enum mdg_unit unit,
			 const struct sgpu_alu_operands *in,
			 union sgpu_reg *dst)
{
	struct sgpu_alu32 p;
	uint32_t res[4];

	if (!sgpu_alu_prepare32(alu, unit, &p))
		return false;
	for (unsigned int i = 0; i < p.n; i++) {
		uint32_t a = 0, b;

		if (!(p.lanes & (1u << i)))
			continue;
		if (!p.src2_only)
			a = f32_mod(in->src1.u32[p.sel1[i]], p.mod1);
		b = p.imm ? p.imm_bits :
		    f32_mod(in->src2.u32[p.sel2[i]], p.mod2);
		res[i] = sgpu_alu32_lane(&p, a, b,
					 in->cond.u32[p.cond_comp[i]]);
	}
	if (p.n == 1) {
		dst->u32[p.dst_comp] = res[0];
	} else {
		for (unsigned int i = 0; i < 4; i++) {
			if (p.lanes & (1u << i))
				dst->u32[i] = res[i];
		}
	}
	return true;
}

/* ---- Execution ---- */

/* A float result s + e rounded with r to the written width's format. */
static uint64_t encode_result(double s, double e, enum sgpu_round r,
			      enum sgpu_fmt ofmt, bool out64)
{
	return out64 ? sgpu_f64_encode(s, e, r) :
		       sgpu_float_encode(s, e, r, ofmt);
}

/* Every form: the reference the fast path must agree with. */
static __attribute__((noinline)) bool
general_execute(const struct mdg_alu *alu, enum mdg_unit unit,
		const struct sgpu_alu_operands *in, union sgpu_reg *dst)
{
	struct opd d;
	struct geom g;
	struct operand a, b;
	uint64_t res[16] = { 0 };
	enum sgpu_fmt ofmt = SGPU_FMT_F32;
	bool out64 = false;     /* fp64 results */
	unsigned int w;

	if (!op_decode(alu->op, &d) || !geometry(alu, unit, &g))
		return false;
	w = g.w;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));

	/* Type rules: floats are fp16/fp32/fp64 values; see element(). */
	if (d.fdst) {
		if (g.ow != 16 && g.ow != 32 && g.ow != 64)
			return false;
		ofmt = g.ow == 16 ? SGPU_FMT_F16 : SGPU_FMT_F32;
		out64 = g.ow == 64;
	}
	if (d.kind == K_LUT && (g.scalar || w != 32))
		return false;   /* no fp16 LUTs: Mesa widens and shrinks */
	if (d.reduce && g.scalar)
		return false;
	/* fp64 dot products: unknown (Mesa never emits them). */
	if (w == 64 && d.kind == K_FDOT)
		return false;

	/* Operands. */
	if (!d.src2_only) {
		if (g.scalar ? !fetch_scalar(&in->src1, alu->ssrc1, w, d.fsrc, &a)
			     : !fetch_vector(&in->src1, alu->src1, w, d.fsrc, &a))
			return false;
	}
	if (d.one_src)
		;
	else if (alu->src2_imm)
		fill_immediate(mdg_alu_immediate(alu, unit), w, g.n, &b);
	else if (g.scalar ? !fetch_scalar(&in->src2, (uint8_t)alu->ssrc2, w,
					  d.fsrc, &b)
			  : !fetch_vector(&in->src2, alu->src2, w, d.fsrc, &b))
		return false;

	/* Reductions and LUT ops compute one value for every written lane. */
	if (d.reduce) {
		unsigned int k = d.reduce < g.n ? d.reduce : g.n;
		struct wide v = { 0, 0 };
		double s = 0.0;

		if (d.kind == K_FDOT) {
			double nan = 0.0;
			bool has_nan = false;

			for (unsigned int i = 0; i < k; i++) {
				if (!has_nan && (isnan(a.f[i]) || isnan(b.f[i]))) {
					nan = first_nan(a.f[i], b.f[i]);
					has_nan = true;
				}
				s += a.f[i] * b.f[i];
			}
			if (has_nan)
				s = nan;
			else if (isnan(s))
				s = sgpu_default_nan();
			float_outmod(alu->outmod, &s, &(double){ 0.0 });
			res[0] = sgpu_float_encode(s, 0.0, SGPU_RTE, ofmt);
		} else {
			bool all = true, any = false;

			for (unsigned int i = 0; i < k; i++) {
				bool c = d.fsrc ? fcmp(d.cmp, a.f[i], b.f[i]) :
						  icmp(&d, a.i[i], b.i[i], w);

				all = all && c;
				any = any || c;
			}
			if (d.kind == K_FBALL || d.kind == K_IBALL)
				v = wide_s(all ? UINT64_MAX : 0, 64);
			else
				v = wide_s(any ? UINT64_MAX : 0, 64);
			res[0] = int_outmod(v, w, g.ow, alu->outmod, false);
		}
		for (unsigned int i = 1; i < g.n; i++)
			res[i] = res[0];
	} else if (d.kind == K_LUT) {
		unsigned int src = 0;
		double s, e = 0.0;

		/* Scalar op: the first written lane's operand (Mesa splits). */
		while (src < g.n - 1 && !(g.lanes & (1u << src)))
			src++;
		s = sgpu_f32_decode(sgpu_lut(alu->op, a.f[src], SGPU_FMT_F32));
		if (ofmt == SGPU_FMT_F16)
			s = sgpu_f16_decode((uint16_t)sgpu_lut(alu->op, a.f[src],
							       SGPU_FMT_F16));
		float_outmod(alu->outmod, &s, &e);
		for (unsigned int i = 0; i < g.n; i++)
			res[i] = sgpu_float_encode(s, e, SGPU_RTE, ofmt);
	} else {
		for (unsigned int i = 0; i < g.n; i++) {
			bool cond;
			double s = 0.0, e = 0.0;

			if (!(g.lanes & (1u << i)))
				continue;
			switch (d.kind) {
			case K_FCMP:
				res[i] = int_outmod(
					wide_s(fcmp(d.cmp, a.f[i], b.f[i]) ?
					       UINT64_MAX : 0, 64),
					w, g.ow, alu->outmod, false);
				continue;
			case K_F2I:
				res[i] = int_outmod(
					d.uns ? wide_u(sgpu_f2i(a.f[i], d.round, w, true))
					      : wide_s(sgpu_f2i(a.f[i], d.round, w, false), w),
					w, g.ow, alu->outmod, d.uns);
				continue;
			case K_I2F:
				if (out64) {
					uint64_t r64 = sgpu_i2f64(a.i[i], !d.uns,
								  w, d.round);

					memcpy(&s, &r64, sizeof(s));
					break;
				}
				s = sgpu_i2f(a.i[i], !d.uns, w, d.round, ofmt);
				s = ofmt == SGPU_FMT_F16 ?
				    sgpu_f16_decode((uint16_t)s) :
				    sgpu_f32_decode((uint32_t)s);
				break;
			case K_FCSEL:
			case K_FCSEL_V:
			case K_ICSEL:
			case K_ICSEL_V:
				if (d.kind == K_FCSEL || d.kind == K_ICSEL) {
					cond = in->cond.u32[3] != 0;
				} else {
					unsigned int off = g.scalar ?
						g.base : i * w;
					uint64_t c = read_bits(&in->cond, off,
							       w > 128 - off ?
							       128 - off : w);

					if (d.kind == K_ICSEL_V) {
						/* A bit select. */
						res[i] = int_outmod(
							wide_u((a.i[i] & c) |
							       (b.i[i] & ~c)),
							w, g.ow, alu->outmod,
							true);
						continue;
					}
					cond = (c & mask_of(w)) != 0;
				}
				if (d.kind == K_ICSEL || d.kind == K_ICSEL_V) {
					res[i] = int_outmod(
						wide_u(cond ? a.i[i] : b.i[i]),
						w, g.ow, alu->outmod, true);
					continue;
				}
				s = cond ? a.f[i] : b.f[i];
				break;
			default:
				if (!d.fsrc) {
					res[i] = int_outmod(
						int_lane(&d, a.i[i], b.i[i], w),
						w, g.ow, alu->outmod, d.uns);
					continue;
				}
				float_lane(&d, a.f[i], b.f[i], &s, &e, w == 64);
				break;
			}
			float_outmod(alu->outmod, &s, &e);
			res[i] = encode_result(s, e, d.round, ofmt, out64);
		}
	}

	/* Commit the written lanes. */
	for (unsigned int i = 0; i < g.n; i++) {
		if (g.lanes & (1u << i))
			write_bits(dst, g.base + i * g.stride, g.ow, res[i]);
	}
	return true;
}

bool sgpu_alu_execute(const struct mdg_alu *alu, enum mdg_unit unit,
		      const struct sgpu_alu_operands *in, union sgpu_reg *dst)
{
	return fast_execute(alu, unit, in, dst) ||
	       general_execute(alu, unit, in, dst);
}
