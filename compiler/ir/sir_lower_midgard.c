/* SPDX-License-Identifier: MIT */
/*
 * sir_lower_midgard(): the last SIR pass before the Midgard back end. Its
 * output is the contract with compiler/backend/: after it a kernel holds
 * only these ops, and every value fits a 128-bit register, its 8- and
 * 16-bit lanes counted as 32 bits (wider vectors are split into pieces of
 * at most four lanes, or two 64-bit ones; loads and stores included),
 * except short8, half8 and char16 values and their masks that
 * sir_lower_packed.c keeps whole for 16- and 8-bit reg modes (eight
 * 16-bit or sixteen 8-bit lanes in one register, only the ops listed
 * there):
 *
 *   CONST UNDEF UNIFORM SYSVAL (GLOBAL_ID, LOCAL_ID, GROUP_ID only) COPY
 *   PHI VEC EXTRACT INSERT SHUFFLE SELECT BITCAST;
 *   IADD ISUB IMUL INEG AND OR XOR NOT SHL LSHR ASHR SMIN SMAX UMIN UMAX
 *   IABS UADD_SAT SADD_SAT USUB_SAT SSUB_SAT CLZ POPCOUNT on 8/16/32/64-bit
 *   integers;
 *   FADD FSUB FMUL FNEG FABS FMIN FMAX FFLOOR FCEIL FTRUNC FRINT FROUND
 *   FSQRT FRSQ FRCP FEXP2 FLOG2 FSIN FCOS on 32-bit floats, and the
 *   first twelve of them (not FSQRT and after) on doubles and halves;
 *   all comparisons but FUNORD (float ones on halves, 32-bit floats and
 *   doubles);
 *   BNOT BAND BOR BEQ BNE ANY ALL;
 *   FDOT of 3 or 4 lanes of 32-bit floats;
 *   SEXT ZEXT TRUNC F2S F2U S2F U2F (from and to halves, 32-bit floats
 *   and doubles) FCONV (16 <-> 32 <-> 64), with their aux rounding and
 *   saturation flags;
 *   PTR_ADD LOAD STORE ATOMIC BARRIER BR CBR RET.
 *
 * Steps (one file each): the fp16 ops without a 16-bit form (LUT ops,
 * dot products, fma) in fp32 in sir_lower_half.c (after it, and the FDIV
 * and FCOPYSIGN steps, halves are added, multiplied, compared, rounded,
 * converted, loaded, stored and moved); double division, square root and
 * fma in sir_lower_f64.c; integer division and remainder, then high
 * multiplication (which division produces) in sir_lower_div.c; FDIV in
 * sir_lower_fdiv.c; FMA in sir_lower_fma.c; FMAD, FCOPYSIGN, FUNORD and
 * two-lane FDOT here; wide values in sir_lower_wide.c (after
 * sir_lower_packed.c chose the short8 / half8 / char16 webs that stay
 * whole), so the others may build vectors of 64-bit lanes freely; then
 * loads and stores less aligned than the load/store unit needs in
 * sir_lower_unaligned.c, on the register-sized accesses the split leaves.
 */
#include "sir_passes.h"

#include "sir_lower.h"

bool sirl_rewrite(struct sir_function *f, sirl_match_fn match,
		  sirl_expand_fn expand, void *ctx)
{
	struct sir_repl repl;
	bool any = false;
	uint32_t b, i, s;

	sirp_repl_init(&repl, f);
	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			sir_id v = f->blocks[b].instrs[i], r;
			struct sir_instr *in = &f->values[v];
			struct sir_builder bld;

			for (s = 0; s < in->num_srcs; s++)
				in->srcs[s] = sirp_repl_get(&repl, in->srcs[s]);
			if (!match(f, in, ctx))
				continue;
			bld = sirp_builder_at(f, b, i);
			r = expand(&bld, v, ctx);
			sirp_repl_set(&repl, v, r);
			sir_remove(f, v);
			any = true;
			if (bld.block != b)
				break;       /* the rest moved to a new block */
			i = bld.pos - 1;
		}
	}
	sirp_repl_apply(&repl, f);
	return any;
}

static bool match_simple(const struct sir_function *f,
			 const struct sir_instr *in, void *ctx)
{
	(void)ctx;
	return in->op == SIR_OP_FMAD || in->op == SIR_OP_FCOPYSIGN ||
	       in->op == SIR_OP_FUNORD ||
	       (in->op == SIR_OP_FDOT &&
		(f->values[in->srcs[0]].type.comps == 2 ||
		 in->type.bits == 64));
}

/*
 * FMAD as FMUL + FADD, FCOPYSIGN with bit ops, FUNORD as x != x | y != y,
 * a two-lane FDOT as x.x * y.x + x.y * y.y (fdot3 would need a zero lane),
 * and an FDOT of doubles likewise over its lanes.
 */
static sir_id expand_simple(struct sir_builder *b, sir_id v, void *ctx)
{
	struct sir_instr in = b->f->values[v];
	struct sir_type t = in.type;

	(void)ctx;
	if (in.op == SIR_OP_FMAD)
		return sirp_op2(b, SIR_OP_FADD, t,
				sirp_op2(b, SIR_OP_FMUL, t, in.srcs[0],
					 in.srcs[1]), in.srcs[2]);
	if (in.op == SIR_OP_FDOT) {
		/* Doubles too: no fdot in 64-bit lanes. */
		struct sir_type vt = b->f->values[in.srcs[0]].type;
		sir_id p = sirp_op2(b, SIR_OP_FMUL, vt, in.srcs[0], in.srcs[1]);
		sir_id sum = sirp_op(b, SIR_OP_EXTRACT, t, &p, 1, 0);

		for (unsigned int k = 1; k < vt.comps; k++)
			sum = sirp_op2(b, SIR_OP_FADD, t, sum,
				       sirp_op(b, SIR_OP_EXTRACT, t, &p, 1, k));
		return sum;
	}
	if (in.op == SIR_OP_FCOPYSIGN) {
		struct sir_type it = sir_type_make(SIR_INT, t.bits, t.comps);
		uint64_t sign = 1ull << (t.bits - 1);
		sir_id x = sirp_op1(b, SIR_OP_BITCAST, it, in.srcs[0]);
		sir_id y = sirp_op1(b, SIR_OP_BITCAST, it, in.srcs[1]);

		x = sirp_op2(b, SIR_OP_AND, it, x, sirl_k(b, it, sign - 1));
		y = sirp_op2(b, SIR_OP_AND, it, y, sirl_k(b, it, sign));
		return sirp_op1(b, SIR_OP_BITCAST, t,
				sirp_op2(b, SIR_OP_OR, it, x, y));
	}
	return sirp_op2(b, SIR_OP_BOR, t,
			sirp_op2(b, SIR_OP_FNE, t, in.srcs[0], in.srcs[0]),
			sirp_op2(b, SIR_OP_FNE, t, in.srcs[1], in.srcs[1]));
}

static bool is_double(struct sir_type t)
{
	return t.kind == SIR_FLOAT && t.bits == 64;
}

/* Ops on doubles the lowerings and the back end handle. */
static bool double_op_ok(const struct sir_function *f,
			 const struct sir_instr *in)
{
	bool dbl = is_double(in->type);

	for (uint32_t s = 0; s < in->num_srcs; s++)
		dbl |= is_double(f->values[in->srcs[s]].type);
	if (!dbl)
		return true;
	switch (in->op) {
	case SIR_OP_CONST: case SIR_OP_UNDEF: case SIR_OP_PARAM:
	case SIR_OP_UNIFORM: case SIR_OP_COPY: case SIR_OP_PHI:
	case SIR_OP_VEC: case SIR_OP_EXTRACT: case SIR_OP_INSERT:
	case SIR_OP_SHUFFLE: case SIR_OP_SELECT: case SIR_OP_BITCAST:
	case SIR_OP_LOAD: case SIR_OP_STORE: case SIR_OP_RET:
	case SIR_OP_CALL: case SIR_OP_PRINTF:
	/* Arithmetic in 64-bit lanes. */
	case SIR_OP_FADD: case SIR_OP_FSUB: case SIR_OP_FMUL:
	case SIR_OP_FNEG: case SIR_OP_FABS: case SIR_OP_FMIN:
	case SIR_OP_FMAX: case SIR_OP_FMAD: case SIR_OP_FCOPYSIGN:
	case SIR_OP_FFLOOR: case SIR_OP_FCEIL: case SIR_OP_FTRUNC:
	case SIR_OP_FRINT: case SIR_OP_FROUND: case SIR_OP_FDOT:
	case SIR_OP_FEQ: case SIR_OP_FNE: case SIR_OP_FLT: case SIR_OP_FLE:
	case SIR_OP_FUNORD:
	case SIR_OP_F2S: case SIR_OP_F2U: case SIR_OP_S2F: case SIR_OP_U2F:
	case SIR_OP_FCONV:
	/* In integers (sir_lower_f64.c). */
	case SIR_OP_FDIV: case SIR_OP_FSQRT: case SIR_OP_FRSQ:
	case SIR_OP_FRCP: case SIR_OP_FMA:
		return true;
	default:
		return false;
	}
}

/* What no lowering can turn into the contract's ops. */
static bool check_input(struct sir_function *f, char *err, size_t errsz)
{
	uint32_t b, i, s;

	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[f->blocks[b].instrs[i]];
			if (!double_op_ok(f, in)) {
				snprintf(err, errsz,
					 "%s: %s on double is not supported",
					 f->name,
					 sir_op_name((enum sir_op)in->op));
				return false;
			}
			if (in->op == SIR_OP_CALL) {
				snprintf(err, errsz,
					 "%s: call left after inlining",
					 f->name);
				return false;
			}
			if (in->op == SIR_OP_PRINTF) {
				snprintf(err, errsz,
					 "%s: printf left before lowering "
					 "(sir_lower_printf not run)", f->name);
				return false;
			}
			for (s = 0; s < in->num_srcs; s++) {
				const struct sir_instr *src =
					&f->values[in->srcs[s]];

				if (src->op == SIR_OP_PARAM ||
				    src->op == SIR_OP_VAR_ADDR ||
				    (src->op == SIR_OP_SYSVAL &&
				     src->aux != SIR_SYSVAL_GLOBAL_ID &&
				     src->aux != SIR_SYSVAL_LOCAL_ID &&
				     src->aux != SIR_SYSVAL_GROUP_ID)) {
					snprintf(err, errsz,
						 "%s: %s left before lowering "
						 "(sir_lower_abi not run)",
						 f->name,
						 sir_op_name((enum sir_op)
							     src->op));
					return false;
				}
			}
		}
	}
	return true;
}

bool sir_lower_midgard(struct sir_function *f, bool fast_math,
		       char *err, size_t errsz)
{
	if (!check_input(f, err, errsz))
		return false;
	sirl_lower_half(f);
	sirl_lower_f64(f);
	sirl_lower_div(f);
	sirl_lower_mulhi(f);
	sirl_lower_fdiv(f, fast_math);
	sirl_lower_fma(f);
	sirl_rewrite(f, match_simple, expand_simple, NULL);
	if (!sirl_split_wide(f, err, errsz))
		return false;
	sirl_lower_unaligned(f);
	return true;
}
