/* SPDX-License-Identifier: MIT */
/*
 * sir_verify(): the structural rules every pass may rely on, checked after
 * the reader and after each pass in tests. Operand counts and types per op,
 * one terminator at the end of each block, phis first with one source per
 * predecessor, and every use dominated by its definition (dominators by the
 * simple iterative algorithm of Cooper, Harvey and Kennedy over reverse
 * post-order; functions are small).
 */
#include "sir.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct sir_verifier {
	const struct sir_function *f;
	char *err;
	size_t errsz;
	uint32_t *rpo_index;         /* per block; UINT32_MAX unreachable */
	uint32_t *idom;              /* per block, in block indices */
	uint32_t **preds;            /* per block, unique predecessors */
	uint32_t *num_preds;
	uint32_t *pos;               /* per value: index in its block */
};

static bool sir_fail(struct sir_verifier *vf, sir_id id, const char *fmt, ...)
{
	const struct sir_function *f = vf->f;
	size_t n = 0;
	va_list ap;

	if (!vf->errsz)
		return false;
	if (id && id < f->num_values) {
		const struct sir_instr *in = &f->values[id];

		n = (size_t)snprintf(vf->err, vf->errsz, "%s: %%%u (%s): ",
				     f->name, id,
				     sir_op_name((enum sir_op)in->op));
	} else {
		n = (size_t)snprintf(vf->err, vf->errsz, "%s: ", f->name);
	}
	if (n >= vf->errsz)
		return false;
	va_start(ap, fmt);
	vsnprintf(vf->err + n, vf->errsz - n, fmt, ap);
	va_end(ap);
	return false;
}

static bool sir_type_valid(struct sir_type t)
{
	switch (t.kind) {
	case SIR_VOID:
		return true;
	case SIR_BOOL:
		return t.bits == 1 && t.comps >= 1 && t.comps <= 16;
	case SIR_INT:
		return (t.bits == 8 || t.bits == 16 || t.bits == 32 ||
			t.bits == 64) && t.comps >= 1 && t.comps <= 16;
	case SIR_FLOAT:
		return (t.bits == 16 || t.bits == 32 || t.bits == 64) &&
		       t.comps >= 1 && t.comps <= 16;
	case SIR_PTR:
		return t.bits == 32 && t.comps == 1 &&
		       t.space <= SIR_SPACE_LOCAL;
	default:
		return false;
	}
}

/* Ops that need no block: their value is the same wherever it is used. */
static bool sir_op_is_free(enum sir_op op)
{
	return op == SIR_OP_CONST || op == SIR_OP_UNDEF ||
	       op == SIR_OP_PARAM || op == SIR_OP_VAR_ADDR ||
	       op == SIR_OP_SYSVAL || op == SIR_OP_UNIFORM;
}

static bool sir_op_is_terminator(enum sir_op op)
{
	return op == SIR_OP_BR || op == SIR_OP_CBR || op == SIR_OP_RET;
}

static bool sir_same_elem(struct sir_type a, struct sir_type b)
{
	return a.kind == b.kind && a.bits == b.bits &&
	       (a.kind != SIR_PTR || a.space == b.space);
}

static struct sir_type sir_src_type(const struct sir_function *f,
				    const struct sir_instr *in, uint32_t s)
{
	return f->values[in->srcs[s]].type;
}

/* Operand count and types of one instruction. */
static bool sir_check_types(struct sir_verifier *vf, sir_id id)
{
	const struct sir_function *f = vf->f;
	const struct sir_instr *in = &f->values[id];
	struct sir_type t = in->type, s0 = { 0 }, s1 = { 0 };
	uint32_t n = in->num_srcs, i, total;

#define NEED(cond, ...) \
	do { \
		if (!(cond)) \
			return sir_fail(vf, id, __VA_ARGS__); \
	} while (0)
	if (n > 0)
		s0 = sir_src_type(f, in, 0);
	if (n > 1)
		s1 = sir_src_type(f, in, 1);

	switch ((enum sir_op)in->op) {
	case SIR_OP_CONST:
	case SIR_OP_UNDEF:
	case SIR_OP_UNIFORM:
		NEED(n == 0 && t.kind != SIR_VOID, "bad operands or type");
		break;
	case SIR_OP_PARAM:
		NEED(n == 0 && in->aux < f->num_params,
		     "parameter index %u out of range", in->aux);
		NEED(sir_type_eq(t, f->params[in->aux].type),
		     "type differs from parameter %u", in->aux);
		break;
	case SIR_OP_VAR_ADDR:
		if (in->aux2 == 1) {
			/* A module global: its index is the module's. */
			NEED(n == 0 && t.kind == SIR_PTR &&
			     (t.space == SIR_SPACE_LOCAL ||
			      t.space == SIR_SPACE_CONSTANT),
			     "global address not a local or constant "
			     "pointer");
			break;
		}
		NEED(in->aux2 == 0 && n == 0 && in->aux < f->num_vars,
		     "variable index %u out of range", in->aux);
		NEED(t.kind == SIR_PTR && t.space == SIR_SPACE_PRIVATE,
		     "not a private pointer");
		break;
	case SIR_OP_SYSVAL:
		NEED(n == 0 && in->aux < SIR_SYSVAL_COUNT,
		     "bad system value %u", in->aux);
		NEED(t.kind == SIR_INT && t.bits == 32 &&
		     (t.comps == 1 || t.comps == 3), "bad system value type");
		break;
	case SIR_OP_COPY:
		NEED(n == 1 && sir_type_eq(s0, t), "operand type differs");
		break;
	case SIR_OP_PHI:
		NEED(t.kind != SIR_VOID, "void phi");
		for (i = 0; i < n; i++)
			NEED(sir_type_eq(sir_src_type(f, in, i), t),
			     "source %u type differs", i);
		break;
	case SIR_OP_VEC:
		NEED(n >= 1, "no components");
		for (i = total = 0; i < n; i++) {
			struct sir_type st = sir_src_type(f, in, i);

			NEED(sir_same_elem(st, t), "component %u type", i);
			total += st.comps;
		}
		NEED(total == t.comps, "%u components for %u", total,
		     t.comps);
		break;
	case SIR_OP_EXTRACT:
		NEED(n == 1 && in->aux < s0.comps && t.comps == 1 &&
		     sir_same_elem(s0, t), "bad extract");
		break;
	case SIR_OP_INSERT:
		NEED(n == 2 && sir_type_eq(s0, t) && s1.comps == 1 &&
		     sir_same_elem(s1, t) && in->aux < t.comps, "bad insert");
		break;
	case SIR_OP_SHUFFLE:
		NEED(n == 2 && sir_same_elem(s0, t) && sir_same_elem(s1, t),
		     "bad shuffle operands");
		for (i = 0; i < t.comps; i++)
			NEED(in->imm.u64[i] < (uint64_t)s0.comps + s1.comps,
			     "shuffle lane %u out of range", i);
		break;
	case SIR_OP_SELECT:
		NEED(n == 3, "needs 3 operands");
		NEED(s0.kind == SIR_BOOL &&
		     (s0.comps == 1 || s0.comps == t.comps),
		     "condition must be bool, scalar or per lane");
		NEED(sir_type_eq(s1, t) &&
		     sir_type_eq(sir_src_type(f, in, 2), t),
		     "operand types differ from result");
		break;
	case SIR_OP_BITCAST: {
		unsigned int a = (t.kind == SIR_PTR ? 32u : t.bits) * t.comps;
		unsigned int b = (s0.kind == SIR_PTR ? 32u : s0.bits) *
				 s0.comps;

		NEED(n == 1 && t.kind != SIR_BOOL && s0.kind != SIR_BOOL &&
		     t.kind != SIR_VOID && a == b, "bad bitcast sizes");
		break;
	}
	case SIR_OP_IADD: case SIR_OP_ISUB: case SIR_OP_IMUL:
	case SIR_OP_UMULHI: case SIR_OP_SMULHI:
	case SIR_OP_UDIV: case SIR_OP_SDIV: case SIR_OP_UREM:
	case SIR_OP_SREM: case SIR_OP_SMOD:
	case SIR_OP_AND: case SIR_OP_OR: case SIR_OP_XOR:
	case SIR_OP_SMIN: case SIR_OP_SMAX: case SIR_OP_UMIN: case SIR_OP_UMAX:
	case SIR_OP_UADD_SAT: case SIR_OP_SADD_SAT:
	case SIR_OP_USUB_SAT: case SIR_OP_SSUB_SAT:
		NEED(n == 2 && t.kind == SIR_INT && sir_type_eq(s0, t) &&
		     sir_type_eq(s1, t),
		     "needs two integer operands of its type");
		break;
	case SIR_OP_SHL: case SIR_OP_LSHR: case SIR_OP_ASHR:
		NEED(n == 2 && t.kind == SIR_INT && sir_type_eq(s0, t) &&
		     s1.kind == SIR_INT && s1.comps == t.comps,
		     "bad shift operands");
		break;
	case SIR_OP_INEG: case SIR_OP_NOT: case SIR_OP_IABS:
	case SIR_OP_CLZ: case SIR_OP_POPCOUNT:
		NEED(n == 1 && t.kind == SIR_INT && sir_type_eq(s0, t),
		     "needs one integer operand of its type");
		break;
	case SIR_OP_FADD: case SIR_OP_FSUB: case SIR_OP_FMUL:
	case SIR_OP_FDIV: case SIR_OP_FMIN: case SIR_OP_FMAX:
	case SIR_OP_FCOPYSIGN:
		NEED(n == 2 && t.kind == SIR_FLOAT && sir_type_eq(s0, t) &&
		     sir_type_eq(s1, t),
		     "needs two float operands of its type");
		break;
	case SIR_OP_FNEG: case SIR_OP_FABS: case SIR_OP_FFLOOR:
	case SIR_OP_FCEIL: case SIR_OP_FTRUNC: case SIR_OP_FRINT:
	case SIR_OP_FROUND: case SIR_OP_FSQRT: case SIR_OP_FRSQ:
	case SIR_OP_FRCP: case SIR_OP_FEXP2: case SIR_OP_FLOG2:
	case SIR_OP_FSIN: case SIR_OP_FCOS:
		NEED(n == 1 && t.kind == SIR_FLOAT && sir_type_eq(s0, t),
		     "needs one float operand of its type");
		break;
	case SIR_OP_FMA: case SIR_OP_FMAD:
		NEED(n == 3 && t.kind == SIR_FLOAT && sir_type_eq(s0, t) &&
		     sir_type_eq(s1, t) &&
		     sir_type_eq(sir_src_type(f, in, 2), t),
		     "needs three float operands of its type");
		break;
	case SIR_OP_IEQ: case SIR_OP_INE:
	case SIR_OP_SLT: case SIR_OP_SLE: case SIR_OP_ULT: case SIR_OP_ULE:
		NEED(n == 2 && (s0.kind == SIR_INT || s0.kind == SIR_PTR) &&
		     sir_type_eq(s0, s1), "needs two integers of one type");
		NEED(t.kind == SIR_BOOL && t.comps == s0.comps,
		     "result must be bool per lane");
		break;
	case SIR_OP_FEQ: case SIR_OP_FNE: case SIR_OP_FLT: case SIR_OP_FLE:
	case SIR_OP_FUNORD:
		NEED(n == 2 && s0.kind == SIR_FLOAT && sir_type_eq(s0, s1),
		     "needs two floats of one type");
		NEED(t.kind == SIR_BOOL && t.comps == s0.comps,
		     "result must be bool per lane");
		break;
	case SIR_OP_BNOT:
		NEED(n == 1 && t.kind == SIR_BOOL && sir_type_eq(s0, t),
		     "needs a bool operand of its type");
		break;
	case SIR_OP_BAND: case SIR_OP_BOR: case SIR_OP_BEQ: case SIR_OP_BNE:
		NEED(n == 2 && t.kind == SIR_BOOL && sir_type_eq(s0, t) &&
		     sir_type_eq(s1, t), "needs two bools of its type");
		break;
	case SIR_OP_FDOT:
		NEED(n == 2 && s0.kind == SIR_FLOAT && s0.bits == 32 &&
		     s0.comps >= 2 && s0.comps <= 4 && sir_type_eq(s0, s1),
		     "needs two float vectors of 2 to 4 lanes");
		NEED(t.kind == SIR_FLOAT && t.bits == 32 && t.comps == 1,
		     "gives a float");
		break;
	case SIR_OP_ANY: case SIR_OP_ALL:
		NEED(n == 1 && s0.kind == SIR_BOOL && t.kind == SIR_BOOL &&
		     t.comps == 1, "needs a bool vector, gives a bool");
		break;
	case SIR_OP_SEXT: case SIR_OP_ZEXT: case SIR_OP_TRUNC:
		NEED(n == 1 && s0.kind == SIR_INT && t.kind == SIR_INT &&
		     s0.comps == t.comps, "needs an integer of as many lanes");
		NEED(in->op == SIR_OP_TRUNC ? t.bits <= s0.bits
					    : t.bits >= s0.bits,
		     "wrong direction of width change");
		break;
	case SIR_OP_F2S: case SIR_OP_F2U:
		NEED(n == 1 && s0.kind == SIR_FLOAT && t.kind == SIR_INT &&
		     s0.comps == t.comps, "needs float to integer");
		break;
	case SIR_OP_S2F: case SIR_OP_U2F:
		NEED(n == 1 && s0.kind == SIR_INT && t.kind == SIR_FLOAT &&
		     s0.comps == t.comps, "needs integer to float");
		break;
	case SIR_OP_FCONV:
		NEED(n == 1 && s0.kind == SIR_FLOAT && t.kind == SIR_FLOAT &&
		     s0.comps == t.comps, "needs float to float");
		break;
	case SIR_OP_PTR_ADD:
		NEED(n == 2 && s0.kind == SIR_PTR && sir_type_eq(s0, t) &&
		     s1.kind == SIR_INT && s1.bits == 32 && s1.comps == 1,
		     "needs a pointer and a 32-bit offset");
		break;
	case SIR_OP_LOAD:
		NEED(n == 1 && s0.kind == SIR_PTR && t.kind != SIR_VOID,
		     "needs a pointer");
		break;
	case SIR_OP_STORE:
		NEED(n == 2 && s0.kind == SIR_PTR && t.kind == SIR_VOID &&
		     s1.kind != SIR_VOID, "needs a pointer and a value");
		break;
	case SIR_OP_ATOMIC:
		NEED(n >= 1 && n <= 3 && s0.kind == SIR_PTR &&
		     in->aux2 <= SIR_ATOMIC_STORE, "bad atomic");
		break;
	case SIR_OP_BARRIER:
		NEED(n == 0 && t.kind == SIR_VOID, "bad barrier");
		break;
	case SIR_OP_PRINTF:
		NEED(n >= 1 && s0.kind == SIR_PTR && t.kind == SIR_INT &&
		     t.bits == 32 && t.comps == 1, "bad printf");
		break;
	case SIR_OP_IMAGE_WORD:
		NEED(n == 1 && s0.kind == SIR_INT && s0.bits == 32 &&
		     t.kind == SIR_INT && t.bits == 32 && t.comps == 1 &&
		     in->aux < 8, "bad image word");
		break;
	case SIR_OP_IMAGE_STORE:
		NEED(n == 3 + (in->aux2 == 1) && in->aux2 <= 1 &&
		     s0.kind == SIR_INT && s0.bits == 32 &&
		     s1.kind != SIR_BOOL && s1.bits == 32 && s1.comps == 4 &&
		     t.kind == SIR_VOID && in->aux <= SIR_IMAGE_U32,
		     "bad image store");
		break;
	case SIR_OP_IMAGE_LOAD:
		NEED(n == 2 + (in->aux2 == 1) && in->aux2 <= 1 &&
		     s0.kind == SIR_INT && s0.bits == 32 &&
		     t.kind != SIR_BOOL && t.kind != SIR_PTR &&
		     t.bits == 32 && t.comps == 4 &&
		     in->aux <= SIR_IMAGE_U32, "bad image load");
		break;
	case SIR_OP_IMAGE_SAMPLE:
		NEED(n == 3 && s0.kind == SIR_INT && s0.bits == 32 &&
		     s1.kind == SIR_INT && s1.bits == 32 &&
		     f->values[in->srcs[2]].type.kind == SIR_FLOAT &&
		     f->values[in->srcs[2]].type.bits == 32 &&
		     f->values[in->srcs[2]].type.comps == 4 &&
		     t.kind != SIR_BOOL && t.kind != SIR_PTR &&
		     t.bits == 32 && t.comps == 4 &&
		     in->aux <= SIR_IMAGE_U32 && in->aux2 >= 1 &&
		     in->aux2 <= 3, "bad image sample");
		break;
	case SIR_OP_CALL:
		break;
	case SIR_OP_BR:
		NEED(n == 0 && in->targets[0] < f->num_blocks,
		     "bad branch target");
		break;
	case SIR_OP_CBR:
		NEED(n == 1 && s0.kind == SIR_BOOL && s0.comps == 1,
		     "condition must be a scalar bool");
		NEED(in->targets[0] < f->num_blocks &&
		     in->targets[1] < f->num_blocks, "bad branch target");
		break;
	case SIR_OP_RET:
		if (f->ret.kind == SIR_VOID)
			NEED(n == 0, "returns a value from a void function");
		else
			NEED(n == 1 && sir_type_eq(s0, f->ret),
			     "returns a value of the wrong type");
		break;
	default:
		return sir_fail(vf, id, "unknown op %u", in->op);
	}
#undef NEED
	return true;
}

/* Reverse post-order and immediate dominators of the reachable blocks. */
static bool sir_dominators(struct sir_verifier *vf)
{
	const struct sir_function *f = vf->f;
	uint32_t nb = f->num_blocks, *order, *stack, *next, sp = 0, k = 0;
	uint8_t *state;
	bool changed = true;
	uint32_t i, b, p;

	order = calloc(nb, sizeof(*order));
	stack = calloc(nb, sizeof(*stack));
	next = calloc(nb, sizeof(*next));
	state = calloc(nb, 1);
	if (!order || !stack || !next || !state) {
		free(order); free(stack); free(next); free(state);
		return sir_fail(vf, 0, "out of memory");
	}
	/* Iterative DFS; post-order into order[]. */
	stack[sp++] = 0;
	state[0] = 1;
	while (sp) {
		const struct sir_block *blk;
		const struct sir_instr *t;
		uint32_t top = stack[sp - 1], succ = UINT32_MAX;

		blk = &f->blocks[top];
		t = &f->values[blk->instrs[blk->num_instrs - 1]];
		while (next[top] < 2 && succ == UINT32_MAX) {
			uint32_t e = next[top]++;

			if ((t->op == SIR_OP_BR && e == 0) ||
			    t->op == SIR_OP_CBR) {
				uint32_t s = t->targets[e];

				if (!state[s])
					succ = s;
			}
		}
		if (succ != UINT32_MAX) {
			state[succ] = 1;
			stack[sp++] = succ;
		} else {
			order[k++] = top;
			sp--;
		}
	}
	for (b = 0; b < nb; b++)
		vf->rpo_index[b] = UINT32_MAX;
	for (i = 0; i < k; i++)
		vf->rpo_index[order[k - 1 - i]] = i;
	for (b = 0; b < nb; b++)
		vf->idom[b] = UINT32_MAX;
	vf->idom[0] = 0;
	while (changed) {
		changed = false;
		for (i = 1; i < k; i++) {
			uint32_t blk = order[k - 1 - i], nidom = UINT32_MAX;

			for (p = 0; p < vf->num_preds[blk]; p++) {
				uint32_t a = vf->preds[blk][p], c;

				if (vf->idom[a] == UINT32_MAX)
					continue;
				if (nidom == UINT32_MAX) {
					nidom = a;
					continue;
				}
				c = nidom;
				while (a != c) {
					while (vf->rpo_index[a] >
					       vf->rpo_index[c])
						a = vf->idom[a];
					while (vf->rpo_index[c] >
					       vf->rpo_index[a])
						c = vf->idom[c];
				}
				nidom = a;
			}
			if (nidom != UINT32_MAX && vf->idom[blk] != nidom) {
				vf->idom[blk] = nidom;
				changed = true;
			}
		}
	}
	free(order); free(stack); free(next); free(state);
	return true;
}

static bool sir_block_dominates(const struct sir_verifier *vf, uint32_t a,
				uint32_t b)
{
	for (;;) {
		if (a == b)
			return true;
		if (b == 0 || vf->idom[b] == UINT32_MAX)
			return false;
		b = vf->idom[b];
	}
}

/*
 * The definition of operand `src` reaches block `ub` at position `upos`
 * (UINT32_MAX: the end of the block, for phi sources).
 */
static bool sir_check_dominance(struct sir_verifier *vf, sir_id id,
				sir_id src, uint32_t ub, uint32_t upos)
{
	const struct sir_instr *def = &vf->f->values[src];

	if (def->block == UINT32_MAX)
		return sir_op_is_free((enum sir_op)def->op) ? true :
		       sir_fail(vf, id, "operand %%%u is in no block", src);
	if (vf->rpo_index[ub] == UINT32_MAX)
		return true;         /* unreachable uses see anything */
	if (def->block == ub) {
		if (upos == UINT32_MAX || vf->pos[src] < upos)
			return true;
		return sir_fail(vf, id, "operand %%%u defined after its use",
				src);
	}
	if (!sir_block_dominates(vf, def->block, ub))
		return sir_fail(vf, id, "operand %%%u (b%u) does not dominate "
				"its use in b%u", src, def->block, ub);
	return true;
}

static bool sir_check_block(struct sir_verifier *vf, uint32_t b,
			    uint8_t *placed)
{
	const struct sir_function *f = vf->f;
	const struct sir_block *blk = &f->blocks[b];
	uint32_t i;

	if (!blk->num_instrs)
		return sir_fail(vf, 0, "block b%u is empty", b);
	for (i = 0; i < blk->num_instrs; i++) {
		sir_id id = blk->instrs[i];
		const struct sir_instr *in;
		uint32_t s;

		if (!id || id >= f->num_values)
			return sir_fail(vf, 0, "b%u lists bad value %u", b, id);
		in = &f->values[id];
		if (in->op == SIR_OP_INVALID || in->op >= SIR_OP_COUNT)
			return sir_fail(vf, id, "b%u lists a deleted value", b);
		if (placed[id] || in->block != b)
			return sir_fail(vf, id, "listed in b%u but owned by b%u "
					"or listed twice", b, in->block);
		placed[id] = 1;
		vf->pos[id] = i;
		if (sir_op_is_terminator((enum sir_op)in->op) !=
		    (i == blk->num_instrs - 1))
			return sir_fail(vf, id, "b%u: terminator not last, or "
					"last not a terminator", b);
		if (in->op == SIR_OP_PHI && i &&
		    f->values[blk->instrs[i - 1]].op != SIR_OP_PHI)
			return sir_fail(vf, id, "phi after a non-phi");
		if (!sir_type_valid(in->type))
			return sir_fail(vf, id, "invalid result type");
		for (s = 0; s < in->num_srcs; s++) {
			sir_id src = in->srcs[s];

			if (!src || src >= f->num_values ||
			    f->values[src].op == SIR_OP_INVALID)
				return sir_fail(vf, id, "operand %u is not a "
						"value (%u)", s, src);
			if (!sir_type_valid(f->values[src].type))
				return sir_fail(vf, id, "operand %u has an "
						"invalid type", s);
		}
	}
	return true;
}

static bool sir_check_phi(struct sir_verifier *vf, sir_id id, uint32_t b)
{
	const struct sir_instr *in = &vf->f->values[id];
	uint32_t s, p, np = vf->num_preds[b];

	if (!in->phi_blocks && in->num_srcs)
		return sir_fail(vf, id, "phi without source blocks");
	if (in->num_srcs != np)
		return sir_fail(vf, id, "%u sources for %u predecessors",
				in->num_srcs, np);
	for (s = 0; s < in->num_srcs; s++) {
		for (p = 0; p < np; p++)
			if (vf->preds[b][p] == in->phi_blocks[s])
				break;
		if (p == np)
			return sir_fail(vf, id, "source block b%u is not a "
					"predecessor", in->phi_blocks[s]);
		for (p = 0; p < s; p++)
			if (in->phi_blocks[p] == in->phi_blocks[s])
				return sir_fail(vf, id, "b%u listed twice",
						in->phi_blocks[s]);
		if (!sir_check_dominance(vf, id, in->srcs[s],
					 in->phi_blocks[s], UINT32_MAX))
			return false;
	}
	return true;
}

static void sir_add_edge(struct sir_verifier *vf, uint32_t from, uint32_t to)
{
	uint32_t p;

	for (p = 0; p < vf->num_preds[to]; p++)
		if (vf->preds[to][p] == from)
			return;
	vf->preds[to][vf->num_preds[to]++] = from;
}

static bool sir_verify_body(struct sir_verifier *vf, uint8_t *placed)
{
	const struct sir_function *f = vf->f;
	uint32_t b, i, s;

	if (!f->num_blocks)
		return sir_fail(vf, 0, "no blocks");
	if (!sir_type_valid(f->ret))
		return sir_fail(vf, 0, "invalid return type");
	for (i = 0; i < f->num_params; i++)
		if (!sir_type_valid(f->params[i].type) ||
		    f->params[i].type.kind == SIR_VOID)
			return sir_fail(vf, 0, "parameter %u has a bad type", i);
	for (b = 0; b < f->num_blocks; b++)
		if (!sir_check_block(vf, b, placed))
			return false;
	/* Edges (each predecessor once, as sir_compute_preds() lists). */
	for (b = 0; b < f->num_blocks; b++) {
		const struct sir_block *blk = &f->blocks[b];
		sir_id tid = blk->instrs[blk->num_instrs - 1];
		const struct sir_instr *t = &f->values[tid];

		if (!sir_check_types(vf, tid))
			return false;
		if (t->op == SIR_OP_BR)
			sir_add_edge(vf, b, t->targets[0]);
		if (t->op == SIR_OP_CBR) {
			sir_add_edge(vf, b, t->targets[0]);
			sir_add_edge(vf, b, t->targets[1]);
		}
	}
	if (!sir_dominators(vf))
		return false;
	for (b = 0; b < f->num_blocks; b++) {
		const struct sir_block *blk = &f->blocks[b];

		for (i = 0; i < blk->num_instrs; i++) {
			sir_id id = blk->instrs[i];
			const struct sir_instr *in = &f->values[id];

			if (!sir_check_types(vf, id))
				return false;
			if (in->op == SIR_OP_PHI) {
				if (b == 0)
					return sir_fail(vf, id,
							"phi in the entry block");
				if (!sir_check_phi(vf, id, b))
					return false;
				continue;
			}
			for (s = 0; s < in->num_srcs; s++)
				if (!sir_check_dominance(vf, id, in->srcs[s],
							 b, i))
					return false;
		}
	}
	return true;
}

bool sir_verify(const struct sir_function *f, char *err, size_t errsz)
{
	struct sir_verifier vf = { .f = f, .err = err, .errsz = errsz };
	uint32_t nb = f->num_blocks ? f->num_blocks : 1, b;
	uint8_t *placed = calloc(f->num_values ? f->num_values : 1, 1);
	uint32_t *pred_store = calloc((size_t)nb * 2, sizeof(uint32_t));
	bool ok = false;

	vf.rpo_index = calloc(nb, sizeof(uint32_t));
	vf.idom = calloc(nb, sizeof(uint32_t));
	vf.preds = calloc(nb, sizeof(uint32_t *));
	vf.num_preds = calloc(nb, sizeof(uint32_t));
	vf.pos = calloc(f->num_values ? f->num_values : 1, sizeof(uint32_t));
	if (placed && pred_store && vf.rpo_index && vf.idom && vf.preds &&
	    vf.num_preds && vf.pos) {
		/*
		 * Each block has at most 2 successors, so at most 2 * nb
		 * edges in all; give each block room for all of them lazily
		 * by counting first.
		 */
		uint32_t *count = calloc(nb, sizeof(uint32_t)), off = 0;

		if (count) {
			for (b = 0; b < f->num_blocks; b++) {
				const struct sir_block *blk = &f->blocks[b];
				const struct sir_instr *t;
				sir_id tid;

				if (!blk->num_instrs)
					continue;
				tid = blk->instrs[blk->num_instrs - 1];
				if (!tid || tid >= f->num_values)
					continue;
				t = &f->values[tid];
				if (t->op == SIR_OP_BR &&
				    t->targets[0] < f->num_blocks)
					count[t->targets[0]]++;
				if (t->op == SIR_OP_CBR &&
				    t->targets[0] < f->num_blocks &&
				    t->targets[1] < f->num_blocks) {
					count[t->targets[0]]++;
					count[t->targets[1]]++;
				}
			}
			for (b = 0; b < nb; b++) {
				vf.preds[b] = pred_store + off;
				off += count[b];
			}
			free(count);
			ok = sir_verify_body(&vf, placed);
		} else {
			sir_fail(&vf, 0, "out of memory");
		}
	} else {
		sir_fail(&vf, 0, "out of memory");
	}
	free(placed);
	free(pred_store);
	free(vf.rpo_index);
	free(vf.idom);
	free(vf.preds);
	free(vf.num_preds);
	free(vf.pos);
	return ok;
}
