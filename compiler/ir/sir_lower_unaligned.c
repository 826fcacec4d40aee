/* SPDX-License-Identifier: MIT */
/*
 * Loads and stores whose address may be less aligned than Midgard's
 * load/store unit needs become accesses it accepts.
 *
 * The unit faults with INSTR_ALIGN_FAULT unless an access of 4 bytes or
 * more is at a 4-byte aligned address and a 16-bit one at an even
 * address; bytes go anywhere. That is the GPU model's rule
 * (qemu/model/sgpu_ldst.c): the hardware faults on misaligned accesses
 * too, but its exact rule per width is not documented. The back end moves 32- and 64-bit lanes (and pointers) with
 * ld/st .32/.64/.128, 16-bit lanes with one .u16 each and 8-bit lanes with
 * one .u8 each, so a LOAD or STORE needs alignment 4, 2 or 1 by its lane
 * width. OpenCL C types are naturally aligned, but packed structs and
 * explicitly under-aligned pointers are not, and clang says so in the
 * access's alignment (SIR's aux).
 *
 * An access whose alignment is below its need, even after what the
 * address arithmetic proves (known_align), is rebuilt from accesses of its
 * alignment, 1 or 2 bytes: per 4-byte chunk of the value one char4 or
 * short2 access (a 2-byte chunk at the end of a 16-bit vector: one char2),
 * the bytes packed into words with the back end's narrow bitcasts (shifts,
 * masks, ors) and the words bitcast to the value's type; stores the
 * reverse. Naturally aligned accesses are left alone.
 *
 * Runs after sirl_split_wide, so every access fits one register.
 */
#include "sir_lower.h"

#include <stdlib.h>
#include <string.h>

/* Alignments above this make no difference to any access. */
#define KNOWN_ALIGN_MAX 16u
/* How far back known_align follows address arithmetic. */
#define KNOWN_ALIGN_DEPTH 32u

struct unaligned {
	uint8_t *memo;               /* per value: known alignment, 0 unset */
	uint32_t size;
};

/* Lowest set bit of a 32-bit address term, capped; 0 is aligned to all. */
static uint32_t const_align(uint64_t c)
{
	uint32_t x = (uint32_t)c, low = x & (~x + 1);

	return !x || low > KNOWN_ALIGN_MAX ? KNOWN_ALIGN_MAX : low;
}

static uint32_t min_align(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static uint32_t cap_align(uint64_t a)
{
	return a > KNOWN_ALIGN_MAX ? KNOWN_ALIGN_MAX : (uint32_t)a;
}

static uint32_t known_align(struct unaligned *u, const struct sir_function *f,
			    sir_id v, unsigned int depth);

static uint32_t compute_align(struct unaligned *u,
			      const struct sir_function *f, sir_id v,
			      unsigned int depth)
{
	const struct sir_instr *in = &f->values[v];
	uint32_t a, b, c;

	if (in->type.comps != 1 ||
	    (in->type.kind != SIR_PTR &&
	     (in->type.kind != SIR_INT || in->type.bits != 32)))
		return 1;
	switch (in->op) {
	case SIR_OP_CONST:
		/*
		 * Private and local pointers are offsets from the thread's
		 * TLS slot and the group's WLS instance, which the launch
		 * ABI aligns to 16 (slb_binary.h, sl_launch.c).
		 */
		return const_align(in->imm.u64[0]);
	case SIR_OP_UNIFORM:
		/*
		 * A pointer argument: a buffer at CL_DEVICE_MEM_BASE_ADDR_ALIGN
		 * (128 bytes), a __local allocation aligned to 16, or the
		 * module's __constant data (a whole buffer).
		 */
		return in->type.kind == SIR_PTR ? KNOWN_ALIGN_MAX : 1;
	case SIR_OP_COPY:
	case SIR_OP_BITCAST:
		return known_align(u, f, in->srcs[0], depth + 1);
	case SIR_OP_PTR_ADD:
	case SIR_OP_IADD:
	case SIR_OP_ISUB:
	case SIR_OP_OR:
		a = known_align(u, f, in->srcs[0], depth + 1);
		if (a == 1)
			return 1;
		return min_align(a, known_align(u, f, in->srcs[1], depth + 1));
	case SIR_OP_AND:
		/* Each operand's low zero bits stay zero. */
		a = known_align(u, f, in->srcs[0], depth + 1);
		b = known_align(u, f, in->srcs[1], depth + 1);
		return a > b ? a : b;
	case SIR_OP_IMUL:
		a = known_align(u, f, in->srcs[0], depth + 1);
		b = known_align(u, f, in->srcs[1], depth + 1);
		return cap_align((uint64_t)a * b);
	case SIR_OP_SHL:
		if (f->values[in->srcs[1]].op != SIR_OP_CONST)
			return known_align(u, f, in->srcs[0], depth + 1);
		c = (uint32_t)f->values[in->srcs[1]].imm.u64[0] & 31;
		a = known_align(u, f, in->srcs[0], depth + 1);
		return cap_align((uint64_t)a << c);
	default:
		return 1;
	}
}

/*
 * An alignment v (a 32-bit address or address term) is known to have:
 * what its computation from constants, pointer arguments and variable
 * addresses proves. Phis and loaded values prove nothing.
 */
static uint32_t known_align(struct unaligned *u, const struct sir_function *f,
			    sir_id v, unsigned int depth)
{
	uint32_t a;

	if (v >= u->size) {
		uint32_t n = f->num_values + 64;

		u->memo = sir_xrealloc(u->memo, n);
		memset(u->memo + u->size, 0, n - u->size);
		u->size = n;
	}
	if (u->memo[v])
		return u->memo[v];
	if (depth > KNOWN_ALIGN_DEPTH)
		return 1;            /* not remembered: a shallower walk may do better */
	a = compute_align(u, f, v, depth);
	u->memo[v] = (uint8_t)a;
	return a;
}

/* Bytes a lane of t takes in memory. */
static unsigned int lane_bytes(struct sir_type t)
{
	return t.kind == SIR_PTR ? 4u : t.bits / 8u;
}

/* The alignment Midgard's load/store unit needs for a LOAD/STORE of t. */
static uint32_t needed_align(struct sir_type t)
{
	unsigned int b = lane_bytes(t);

	return b >= 4 ? 4 : b;
}

/* The type an access moves: a load's result, a store's data. */
static struct sir_type access_type(const struct sir_function *f,
				   const struct sir_instr *in)
{
	return in->op == SIR_OP_LOAD ? in->type : f->values[in->srcs[1]].type;
}

static bool match_unaligned(const struct sir_function *f,
			    const struct sir_instr *in, void *ctx)
{
	struct sir_type t;
	uint32_t need;

	if (in->op != SIR_OP_LOAD && in->op != SIR_OP_STORE)
		return false;
	t = access_type(f, in);
	if (t.kind == SIR_BOOL || t.kind == SIR_VOID)
		return false;        /* OpenCL C keeps no bools in memory */
	need = needed_align(t);
	if (in->aux >= need)
		return false;
	return known_align(ctx, f, in->srcs[0], 0) < need;
}

/*
 * One chunk of an access: `bytes` (2 or 4) bytes at offset `off`, moved as
 * lanes of `unit` bytes (the access's alignment, 1 or 2), and the chunk's
 * type in the value (a 32-bit word, or one or two 16-bit lanes).
 */
struct chunk {
	unsigned int off, bytes;
	struct sir_type mem, val;
};

/* The chunks of a value of type t moved in units of `unit` bytes. */
static unsigned int chunks_of(struct sir_type t, unsigned int unit,
			      struct chunk *out)
{
	unsigned int size = t.comps * lane_bytes(t), n = 0, off;

	for (off = 0; off < size; off += out[n++].bytes) {
		struct chunk *c = &out[n];

		c->off = off;
		c->bytes = size - off < 4 ? size - off : 4;
		c->mem = sir_type_make(SIR_INT, 8 * unit, c->bytes / unit);
		c->val = lane_bytes(t) == 2 ?
			 sirp_type_comps(t, c->bytes / 2) :
			 sir_type_make(SIR_INT, 32, 1);
	}
	return n;
}

static sir_id ptr_plus(struct sir_builder *b, sir_id ptr, unsigned int off)
{
	if (!off)
		return ptr;
	return sirp_op2(b, SIR_OP_PTR_ADD, b->f->values[ptr].type, ptr,
			sirl_k(b, sir_type_make(SIR_INT, 32, 1), off));
}

static sir_id bitcast_to(struct sir_builder *b, struct sir_type t, sir_id v)
{
	if (sir_type_eq(b->f->values[v].type, t))
		return v;
	return sirp_op1(b, SIR_OP_BITCAST, t, v);
}

/* Lanes [first, first + n) of v. */
static sir_id lanes(struct sir_builder *b, sir_id v, unsigned int first,
		    unsigned int n)
{
	struct sir_type t = b->f->values[v].type;
	sir_id r;

	if (first == 0 && n == t.comps)
		return v;
	if (n == 1)
		return sirp_op(b, SIR_OP_EXTRACT, sirp_type_comps(t, 1), &v, 1,
			       first);
	r = sirp_op(b, SIR_OP_SHUFFLE, sirp_type_comps(t, n),
		    (sir_id[]){ v, v }, 2, 0);
	for (unsigned int i = 0; i < n; i++)
		b->f->values[r].imm.u64[i] = first + i;
	return r;
}

/*
 * The value's words or 16-bit lanes are chunks; the value as the type
 * whose lanes the chunks are (i32 x n, or t itself for 16-bit lanes).
 */
static struct sir_type chunked_type(struct sir_type t)
{
	unsigned int size = t.comps * lane_bytes(t);

	return lane_bytes(t) == 2 ? t : sir_type_make(SIR_INT, 32, size / 4);
}

static sir_id expand_unaligned(struct sir_builder *b, sir_id v, void *ctx)
{
	struct sir_instr in = b->f->values[v];
	struct sir_type t = access_type(b->f, &in);
	struct sir_type ct = chunked_type(t);
	uint32_t align = known_align(ctx, b->f, in.srcs[0], 0);
	unsigned int unit, n, k, first;
	struct chunk c[8];
	sir_id parts[8], whole;

	if (in.aux > align)
		align = in.aux;
	unit = align >= 2 ? 2 : 1;
	n = chunks_of(t, unit, c);
	if (in.op == SIR_OP_LOAD) {
		for (k = 0; k < n; k++) {
			sir_id x = sirp_op(b, SIR_OP_LOAD, c[k].mem,
					   (sir_id[]){ ptr_plus(b, in.srcs[0],
								c[k].off) },
					   1, unit);

			parts[k] = bitcast_to(b, c[k].val, x);
		}
		whole = n == 1 ? parts[0] :
			sirp_op(b, SIR_OP_VEC, ct, parts, n, 0);
		return bitcast_to(b, t, whole);
	}
	whole = bitcast_to(b, ct, in.srcs[1]);
	for (k = first = 0; k < n; k++) {
		unsigned int num = c[k].val.comps;
		sir_id x = lanes(b, whole, first, num);

		first += num;
		sirp_op(b, SIR_OP_STORE, in.type,
			(sir_id[]){ ptr_plus(b, in.srcs[0], c[k].off),
				    bitcast_to(b, c[k].mem, x) }, 2, unit);
	}
	return SIR_NONE;
}

uint32_t sirl_known_align(const struct sir_function *f, sir_id v)
{
	struct unaligned u;
	uint32_t a;

	memset(&u, 0, sizeof(u));
	a = known_align(&u, f, v, 0);
	free(u.memo);
	return a;
}

bool sirl_lower_unaligned(struct sir_function *f)
{
	struct unaligned u;
	bool any;

	memset(&u, 0, sizeof(u));
	any = sirl_rewrite(f, match_unaligned, expand_unaligned, &u);
	free(u.memo);
	return any;
}
