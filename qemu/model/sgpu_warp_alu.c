/* SPDX-License-Identifier: MIT */
/*
 * The lockstep engine's arithmetic: one ALU instruction for every lane of
 * the set (sgpu_warp.h).
 *
 * An instruction with a 32-bit form (sgpu_alu_prepare32) runs component by
 * component as loops over lanes: the common ops as plain host arithmetic,
 * which the compiler vectorises, and the rest through sgpu_alu32_lane().
 * fp32 add and multiply are the host's IEEE operations rounding to
 * nearest even with gradual underflow, which is what sgpu_alu.c computes,
 * with NaN results made the model's (V_IEEE_NAN); min/max lanes with a
 * NaN are redone by sgpu_alu32_lane(). Every other
 * instruction runs lane by lane through sgpu_alu_execute(), the same code
 * as the reference interpreter.
 *
 * Results go to a scratch area first and are written back under the write
 * mask and the set's lanes afterwards: a source may be the destination.
 */
#include <string.h>

#include "sgpu_float.h"
#include "sgpu_warp.h"

/*
 * Lanes per host vector: 128 bits, which every host with SIMD has (SSE2,
 * NEON); wider vectors would be split by the compiler, not always well.
 * Lane counts are multiples of SGPU_WARP_BLOCK, itself a multiple.
 */
#define BLOCK 4u

/*
 * A block of lanes as one host vector (GCC/Clang vector extensions, which
 * lower to the host's SIMD instructions at any optimisation level). Only
 * 4-byte aligned: the warp is not allocated with a stronger alignment.
 */
_Static_assert(SGPU_WARP_BLOCK % BLOCK == 0, "lane blocks");
typedef uint32_t vu __attribute__((vector_size(BLOCK * 4), aligned(4)));
typedef int32_t vi __attribute__((vector_size(BLOCK * 4), aligned(4)));
typedef float vf __attribute__((vector_size(BLOCK * 4), aligned(4)));

#define VU(p, blk) (*(const vu *)((p) + (blk)))
#define VOUT(p, blk) (*(vu *)((p) + (blk)))

/*
 * Vector helpers are macros: a function returning a vector wider than the
 * host's baseline registers changes the ABI (GCC's -Wpsabi).
 */
#define BROADCAST(v) ((vu){ 0 } + (uint32_t)(v))

static bool any(const vu *v)
{
	uint32_t r = 0;

	for (unsigned int i = 0; i < BLOCK; i++)
		r |= (*v)[i];
	return r;
}

static inline uint32_t is_nan(uint32_t f)
{
	return (f & 0x7FFFFFFFu) > 0x7F800000u;
}

/* All-ones in lanes whose float is NaN. */
#define V_NAN(f) ((vu)(((f) & 0x7FFFFFFFu) > 0x7F800000u))
/* A key whose unsigned order is the numeric order, -0 before +0. */
#define V_ORDER_KEY(f) \
	V_SELECT((vu)((vi)(f) < 0), ~(f), (f) | 0x80000000u)
#define V_SELECT(mask, a, b) (((a) & (mask)) | ((b) & ~(mask)))
/*
 * The model's NaN results for the host's IEEE add or multiply r = x op y:
 * a NaN operand comes back quieted, x's before y's (hosts differ in which
 * one they return, and compilers may swap the operands of commutative
 * ops); a NaN made from non-NaN operands (inf - inf, 0 * inf) is the
 * default NaN, where hosts differ in the sign. Infinite results and
 * operands need nothing: they are IEEE's.
 */
#define V_IEEE_NAN(r, x, y) \
	V_SELECT(V_NAN(x), (x) | 0x00400000u, \
		 V_SELECT(V_NAN(y), (y) | 0x00400000u, \
			  V_SELECT(V_NAN(r), \
				   BROADCAST(SGPU_F32_DEFAULT_NAN), (r))))

/* The float source modifiers as masks: v & and ^ xor. */
struct fmod_masks {
	uint32_t and1, xor1, and2, xor2;
};

static struct fmod_masks masks_of(const struct sgpu_alu32 *p)
{
	return (struct fmod_masks){
		.and1 = (p->mod1 & 1) ? 0x7FFFFFFFu : UINT32_MAX,
		.xor1 = (p->mod1 & 2) ? 0x80000000u : 0,
		.and2 = (p->mod2 & 1) ? 0x7FFFFFFFu : UINT32_MAX,
		.xor2 = (p->mod2 & 2) ? 0x80000000u : 0,
	};
}

/* Redoes with sgpu_alu32_lane() the lanes with a NaN operand. */
static void fix_nan_lanes(const struct sgpu_alu32 *p,
			  const struct fmod_masks *m, const uint32_t *A,
			  const uint32_t *B, uint32_t *R, uint32_t nb)
{
	for (uint32_t l = 0; l < nb; l++) {
		uint32_t x = (A[l] & m->and1) ^ m->xor1;
		uint32_t y = (B[l] & m->and2) ^ m->xor2;

		if (is_nan(x) | is_nan(y))
			R[l] = sgpu_alu32_lane(p, x, y, 0);
	}
}

/* The loop of one op: x, y (modified sources), c (condition) -> r. */
#define VLOOP(body) \
	for (uint32_t b_ = 0; b_ < nb; b_ += BLOCK) { \
		vu x = (VU(A, b_) & m.and1) ^ m.xor1; \
		vu y = (VU(B, b_) & m.and2) ^ m.xor2; \
		vu c = C ? VU(C, b_) : BROADCAST(0); \
		vu r; \
		(void)x; (void)y; (void)c; \
		body; \
		VOUT(R, b_) = r; \
	}

/*
 * Computes one component for lanes [0, nb): R = op(A, B) with condition
 * C (csel). Returns false when the op has no loop here.
 */
static bool compute(const struct sgpu_alu32 *p, const uint32_t *A,
		    const uint32_t *B, const uint32_t *C, uint32_t *R,
		    uint32_t nb)
{
	struct fmod_masks m = masks_of(p);
	vu special = BROADCAST(0);
	bool float_none = p->outmod == MDG_OUTMOD_NONE;
	bool int_wrap = p->outmod == MDG_OUTMOD_KEEP_LOW;

	switch (p->op) {
	case MDG_ALU_FADD:
		if (!float_none)
			return false;
		VLOOP(r = V_IEEE_NAN((vu)((vf)x + (vf)y), x, y))
		return true;
	case MDG_ALU_FMUL:
		if (!float_none)
			return false;
		VLOOP(r = V_IEEE_NAN((vu)((vf)x * (vf)y), x, y))
		return true;
	case MDG_ALU_FMIN: case MDG_ALU_FMIN_NAN:
	case MDG_ALU_FMAX: case MDG_ALU_FMAX_NAN:
		if (!float_none)
			return false;
		if (p->op & 4) {        /* max */
			VLOOP(r = V_SELECT((vu)(V_ORDER_KEY(x) <
						V_ORDER_KEY(y)), y, x);
			      special |= V_NAN(x) | V_NAN(y))
		} else {
			VLOOP(r = V_SELECT((vu)(V_ORDER_KEY(y) <
						V_ORDER_KEY(x)), y, x);
			      special |= V_NAN(x) | V_NAN(y))
		}
		if (any(&special))
			fix_nan_lanes(p, &m, A, B, R, nb);
		return true;
	case MDG_ALU_FMOV: case MDG_ALU_FMOV_RTZ: case MDG_ALU_FMOV_RTN:
	case MDG_ALU_FMOV_RTP:
		if (!float_none)
			return false;
		VLOOP(r = y)
		return true;
	/* IEEE compares: NaN unordered, -0 == +0. */
	case MDG_ALU_FEQ:
		if (!int_wrap)
			return false;
		VLOOP(r = (vu)((vf)x == (vf)y))
		return true;
	case MDG_ALU_FNE:
		if (!int_wrap)
			return false;
		VLOOP(r = ~(vu)((vf)x == (vf)y))
		return true;
	case MDG_ALU_FLT:
		if (!int_wrap)
			return false;
		VLOOP(r = (vu)((vf)x < (vf)y))
		return true;
	case MDG_ALU_FLE:
		if (!int_wrap)
			return false;
		VLOOP(r = (vu)((vf)x <= (vf)y))
		return true;
	case MDG_ALU_I2F_RTE:
		if (!float_none)
			return false;
		/* The host converts rounding to nearest even. */
		VLOOP(r = (vu)__builtin_convertvector((vi)x, vf))
		return true;
	case MDG_ALU_FCSEL: case MDG_ALU_FCSEL_V:
		if (!float_none)
			return false;
		VLOOP(r = V_SELECT(~(vu)(c == 0), x, y))
		return true;
	default:
		break;
	}
	if (!int_wrap || p->cls != SGPU_ALU32_INT)
		return false;
	/* Integer ops: no source modifiers (masks_of gives none). */
	switch (p->op) {
#define INT_OP(name, expr) \
	case name: \
		VLOOP(r = (vu)(expr)) \
		return true;
	INT_OP(MDG_ALU_IADD, x + y)
	INT_OP(MDG_ALU_ISUB, x - y)
	INT_OP(MDG_ALU_ISHLADD, x + x + y)
	INT_OP(MDG_ALU_ISHLSUB, x + x - y)
	INT_OP(MDG_ALU_IMUL, x * y)
	INT_OP(MDG_ALU_IMIN, V_SELECT((vu)((vi)y < (vi)x), y, x))
	INT_OP(MDG_ALU_UMIN, V_SELECT((vu)(y < x), y, x))
	INT_OP(MDG_ALU_IMAX, V_SELECT((vu)((vi)x < (vi)y), y, x))
	INT_OP(MDG_ALU_UMAX, V_SELECT((vu)(x < y), y, x))
	INT_OP(MDG_ALU_IASR, (vi)x >> (vi)(y & 31u))
	INT_OP(MDG_ALU_ILSR, x >> (y & 31u))
	INT_OP(MDG_ALU_ISHL, x << (y & 31u))
	INT_OP(MDG_ALU_IAND, x & y)
	INT_OP(MDG_ALU_IOR, x | y)
	INT_OP(MDG_ALU_INAND, ~(x & y))
	INT_OP(MDG_ALU_INOR, ~(x | y))
	INT_OP(MDG_ALU_IANDNOT, x & ~y)
	INT_OP(MDG_ALU_IORNOT, x | ~y)
	INT_OP(MDG_ALU_IXOR, x ^ y)
	INT_OP(MDG_ALU_INXOR, ~(x ^ y))
	INT_OP(MDG_ALU_IMOV, y)
	INT_OP(MDG_ALU_IEQ, x == y)
	INT_OP(MDG_ALU_INE, x != y)
	INT_OP(MDG_ALU_ULT, x < y)
	INT_OP(MDG_ALU_ULE, x <= y)
	INT_OP(MDG_ALU_ILT, (vi)x < (vi)y)
	INT_OP(MDG_ALU_ILE, (vi)x <= (vi)y)
	INT_OP(MDG_ALU_ICSEL, V_SELECT(~(vu)(c == 0), x, y))
	INT_OP(MDG_ALU_ICSEL_V, (x & c) | (y & ~c))
#undef INT_OP
	default:
		return false;
	}
}

/* Any other 32-bit op: sgpu_alu32_lane() lane by lane. */
static void compute_lanes(const struct sgpu_alu32 *p, const uint32_t *A,
			  const uint32_t *B, const uint32_t *C, uint32_t *R,
			  uint32_t nb)
{
	struct fmod_masks m = masks_of(p);

	for (uint32_t l = 0; l < nb; l++)
		R[l] = sgpu_alu32_lane(p, (A[l] & m.and1) ^ m.xor1,
				       (B[l] & m.and2) ^ m.xor2,
				       C ? C[l] : 0);
}

/* A source component: a register or the constants (lanes [lo, hi)). */
static const uint32_t *source(struct sgpu_warp *w,
			      const struct sgpu_cached_bundle *cb,
			      unsigned int reg, unsigned int comp)
{
	if (reg == MDG_REG_CONST) {
		uint32_t *k = w->konst[comp];

		for (uint32_t b = w->lo; b < w->hi; b += BLOCK)
			VOUT(k, b) = BROADCAST(cb->b.constants[comp]);
		return k;
	}
	return w->r[reg][comp];
}

static uint32_t run_32(struct sgpu_warp *w,
		       const struct sgpu_cached_bundle *cb, unsigned int u)
{
	const struct mdg_alu *alu = &cb->b.alu[u];
	const struct sgpu_alu32 *p = &cb->alu32[u];
	/* Only the blocks holding lanes of the set. */
	uint32_t lo = w->lo, nb = w->hi - w->lo;

	if (p->imm) {
		for (uint32_t b = lo; b < w->hi; b += BLOCK)
			VOUT(w->imm, b) = BROADCAST(p->imm_bits);
	}
	for (unsigned int i = 0; i < p->n; i++) {
		const uint32_t *A, *B, *C;

		if (!(p->lanes & (1u << i)))
			continue;
		/* Moves do not read src1: any lanes do. */
		A = p->src2_only ? w->imm : source(w, cb, alu->src1_reg,
						  p->sel1[i]);
		B = p->imm ? w->imm : source(w, cb, alu->src2_reg, p->sel2[i]);
		C = p->csel ? w->r[MDG_REG_COND][p->cond_comp[i]] + lo : NULL;
		if (!compute(p, A + lo, B + lo, C, w->res[i] + lo, nb))
			compute_lanes(p, A + lo, B + lo, C, w->res[i] + lo, nb);
	}
	for (unsigned int i = 0; i < p->n; i++) {
		uint32_t *D, *R = w->res[i];

		if (!(p->lanes & (1u << i)))
			continue;
		D = w->r[alu->dst_reg][p->n == 1 ? p->dst_comp : i];
		if (w->full) {
			memcpy(D, R, w->nb * sizeof(*D));
		} else {
			for (uint32_t b = lo; b < w->hi; b += BLOCK)
				VOUT(D, b) = V_SELECT(VU(w->act, b), VU(R, b),
						      VU(D, b));
		}
	}
	return 0;
}

/* Every other form: sgpu_alu_execute() lane by lane. */
static uint32_t run_general(struct sgpu_exec *ex, struct sgpu_warp *w,
			    const struct sgpu_cached_bundle *cb,
			    unsigned int u)
{
	const struct mdg_alu *alu = &cb->b.alu[u];
	struct sgpu_alu_operands in;
	union sgpu_reg dst, konst;

	memcpy(konst.u32, cb->b.constants, sizeof(konst.u32));
	in.fp_mode = ex->fp_mode;
	for (uint32_t i = 0; i < w->nset; i++) {
		unsigned int l = w->set[i];

		if (alu->src1_reg == MDG_REG_CONST)
			in.src1 = konst;
		else
			sgpu_warp_get(w, alu->src1_reg, l, &in.src1);
		if (alu->src2_imm)
			memset(&in.src2, 0, sizeof(in.src2));
		else if (alu->src2_reg == MDG_REG_CONST)
			in.src2 = konst;
		else
			sgpu_warp_get(w, alu->src2_reg, l, &in.src2);
		sgpu_warp_get(w, MDG_REG_COND, l, &in.cond);
		sgpu_warp_get(w, alu->dst_reg, l, &dst);
		if (!sgpu_alu_execute(alu, (enum mdg_unit)u, &in, &dst)) {
			sgpu_shader_guest_error(ex->ctx, "sgpu: shader bundle "
				"0x%llx: op 0x%02x (%s) cannot run on unit %u "
				"in this form", (unsigned long long)cb->va,
				alu->op, mdg_alu_op_info(alu->op) ?
				mdg_alu_op_info(alu->op)->name : "?", u);
			return MDG_EXCEPTION_INSTR_INVALID_ENC;
		}
		sgpu_warp_put(w, alu->dst_reg, l, &dst);
	}
	return 0;
}

uint32_t sgpu_warp_alu(struct sgpu_exec *ex, struct sgpu_warp *w,
		       const struct sgpu_cached_bundle *cb, unsigned int u)
{
	if (cb->units32 & MDG_UNIT_MASK(u))
		return run_32(w, cb, u);
	return run_general(ex, w, cb, u);
}
