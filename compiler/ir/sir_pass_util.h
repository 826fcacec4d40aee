/* SPDX-License-Identifier: MIT */
/*
 * What the passes share and sir.h does not offer: an insertion cursor that
 * builds instructions in the middle of a block, block splitting, successor
 * lists, the dominator tree, and the classification of ops by their
 * effects. Internal to compiler/ir/.
 */
#ifndef SLEIPNIR_SIR_PASS_UTIL_H
#define SLEIPNIR_SIR_PASS_UTIL_H

#include "sir.h"


/* ---- Types -------------------------------------------------------- */

static inline struct sir_type sirp_type_comps(struct sir_type t,
					      unsigned int comps)
{
	t.comps = (uint8_t)comps;
	return t;
}

/*
 * Bits one lane takes in a Midgard register as the back end holds it:
 * bools and 8- and 16-bit lanes sit in 32-bit lanes.
 */
static inline unsigned int sirp_reg_lane_bits(struct sir_type t)
{
	return t.kind == SIR_BOOL || t.bits < 32 ? 32u : t.bits;
}

/* All-ones mask of a lane of t. */
static inline uint64_t sirp_lane_mask(struct sir_type t)
{
	if (t.kind == SIR_BOOL)
		return 1;
	return t.bits >= 64 ? ~0ull : (1ull << t.bits) - 1;
}

/* ---- Effects ------------------------------------------------------ */

/* Ops that change memory, synchronise or transfer control. */
bool sirp_has_side_effects(enum sir_op op);
/* Ops whose result depends on nothing but their operands and fields. */
bool sirp_is_pure(enum sir_op op);
static inline bool sirp_is_terminator(enum sir_op op)
{
	return op == SIR_OP_BR || op == SIR_OP_CBR || op == SIR_OP_RET;
}

/* ---- Blocks ------------------------------------------------------- */

/* The terminator of block b, or NULL when it has none. */
struct sir_instr *sirp_terminator(struct sir_function *f, uint32_t b);
/* Successors of b (0-2), in target order. */
unsigned int sirp_succs(struct sir_function *f, uint32_t b, uint32_t out[2]);
/* In every phi of block b, the predecessor `from` becomes `to`. */
void sirp_rename_phi_pred(struct sir_function *f, uint32_t b, uint32_t from,
			  uint32_t to);
/*
 * Moves the instructions of block b from position pos on into a new block
 * (b keeps no terminator: the caller appends one); successor phis name the
 * new block. Returns the new block's index.
 */
uint32_t sirp_split_block(struct sir_function *f, uint32_t b, uint32_t pos);
/* Position of v in its block, or UINT32_MAX. */
uint32_t sirp_position(struct sir_function *f, sir_id v);

/* ---- Building in place -------------------------------------------- */

struct sir_builder {
	struct sir_function *f;
	uint32_t block;
	uint32_t pos;                /* insertion index in the block */
};

static inline struct sir_builder sirp_builder_at(struct sir_function *f,
						 uint32_t block, uint32_t pos)
{
	struct sir_builder b = { f, block, pos };
	return b;
}

sir_id sirp_op(struct sir_builder *b, enum sir_op op, struct sir_type type,
	       const sir_id *srcs, uint32_t num_srcs, uint32_t aux);
sir_id sirp_op1(struct sir_builder *b, enum sir_op op, struct sir_type type,
		sir_id a);
sir_id sirp_op2(struct sir_builder *b, enum sir_op op, struct sir_type type,
		sir_id a, sir_id c);
sir_id sirp_op3(struct sir_builder *b, enum sir_op op, struct sir_type type,
		sir_id a, sir_id c, sir_id d);
/* A constant with every lane v (bit pattern). */
sir_id sirp_const(struct sir_builder *b, struct sir_type type, uint64_t v);
/* Bool type with t's lane count. */
static inline struct sir_type sirp_bool_of(struct sir_type t)
{
	return sir_type_make(SIR_BOOL, 1, t.comps);
}
/* A branch or conditional branch at the cursor. */
void sirp_br(struct sir_builder *b, uint32_t target);
void sirp_cbr(struct sir_builder *b, sir_id cond, uint32_t t, uint32_t e);
/* A phi placed at the start of block `block` with n sources. */
sir_id sirp_phi(struct sir_function *f, uint32_t block, struct sir_type t,
		const sir_id *srcs, const uint32_t *preds, uint32_t n);

/* ---- Replacing values ------------------------------------------- */

/*
 * A pending replacement map: map[v] != 0 means uses of v become map[v].
 * Passes fill it while they walk and apply it once (sir_replace_uses is
 * linear per call).
 */
struct sir_repl {
	uint32_t size;
	sir_id *map;
};

void sirp_repl_init(struct sir_repl *r, const struct sir_function *f);
void sirp_repl_set(struct sir_repl *r, sir_id from, sir_id to);
static inline sir_id sirp_repl_get(const struct sir_repl *r, sir_id v)
{
	while (v < r->size && r->map[v])
		v = r->map[v];
	return v;
}
/*
 * Rewrites every operand through the map, deletes the replaced values and
 * frees the map. Returns whether anything was replaced.
 */
bool sirp_repl_apply(struct sir_repl *r, struct sir_function *f);

/* ---- Dominators --------------------------------------------------- */

struct sir_dom {
	uint32_t num_blocks;
	uint32_t num_rpo;
	uint32_t *rpo;               /* reachable blocks, reverse postorder */
	uint32_t *rpo_index;         /* per block; UINT32_MAX: unreachable */
	uint32_t *idom;              /* per block; UINT32_MAX: entry, dead */
	/* Dominator tree children of block b: child[child_start[b]..+n). */
	uint32_t *child_start, *child_count, *child;
};

/* Computes preds, then the dominator tree of f's reachable blocks. */
void sirp_dom_compute(struct sir_dom *d, struct sir_function *f);
bool sirp_dominates(const struct sir_dom *d, uint32_t a, uint32_t b);
void sirp_dom_free(struct sir_dom *d);

#endif
