/* SPDX-License-Identifier: MIT */
/*
 * Values wider than a Midgard register are split into pieces that fit one.
 * A register is 128 bits; the back end keeps bools and 8- and 16-bit lanes
 * in 32-bit lanes, so what counts is the register footprint: long3/4/8/16,
 * int8/16, float8/16, bool8/16 and char8/16, short8/16, half8/16 are wide.
 * Piece k holds lanes [k * n, (k + 1) * n) with n = 128 / footprint bits
 * (two 64-bit lanes, four of any other width). Component-wise ops run per
 * piece; vector plumbing (VEC, EXTRACT, INSERT, SHUFFLE, BITCAST), loads,
 * stores, phis and ANY/ALL are rebuilt from pieces. A narrow value built
 * from wide operands (a comparison of two long4, an extract) is assembled
 * from the pieces.
 *
 * In memory and in the argument image lanes are packed, so piece k starts
 * at byte k * n * lane bytes. Bitcasts go through the packed image as
 * 32-bit words: a piece of char16 is one word, a piece of short8 two.
 * Narrow loads and stores aligned to 4 bytes move whole words (up to 16
 * bytes per access) and repack them; less aligned ones move per piece.
 *
 * short8 and char16 values and their masks that sir_lower_packed.c keeps
 * whole (computed in 16- and 8-bit reg modes) are left alone: no kept
 * value reads or is read by a split one.
 *
 * Blocks are walked in dominator order so operands are split before their
 * uses; phi sources are filled in at the end.
 */
#include "sir_lower.h"

#include <stdlib.h>
#include <string.h>

#define WIDE_MAX_PIECES 8

struct wide {
	struct sir_function *f;
	struct sir_builder b;
	uint8_t *num;                /* per value: number of pieces, 0 none */
	sir_id (*piece)[WIDE_MAX_PIECES];
	uint32_t size;
	uint8_t *keep;               /* per old value: stays whole, or NULL */
	uint32_t num_keep;
	char *err;
	size_t errsz;
	bool failed;
};

static bool is_wide(struct sir_type t)
{
	return t.kind != SIR_VOID && sirp_reg_lane_bits(t) * t.comps > 128;
}

/* Lanes per piece for a type. */
static unsigned int piece_lanes(struct sir_type t)
{
	return 128 / sirp_reg_lane_bits(t);
}

/* Bits of a lane in memory (packed). */
static unsigned int mem_bits(struct sir_type t)
{
	return t.kind == SIR_PTR ? 32u : t.bits;
}

/* 8- and 16-bit lanes: packed in memory, one per 32 bits in registers. */
static bool is_narrow(struct sir_type t)
{
	return (t.kind == SIR_INT || t.kind == SIR_FLOAT) && t.bits < 32;
}

/* Alignment of an access at byte offset off from a base aligned to align. */
static uint32_t offset_align(uint32_t align, uint32_t off)
{
	uint32_t low = off & (~off + 1);

	if (off && low < align)
		align = low;
	return align < 16 ? align : 16;
}

static bool wide_fail(struct wide *w, const char *what)
{
	if (!w->failed)
		snprintf(w->err, w->errsz, "%s: %s", w->f->name, what);
	w->failed = true;
	return false;
}

static void wide_grow(struct wide *w)
{
	uint32_t n = w->f->num_values;

	if (n <= w->size)
		return;
	n = n * 2;
	w->num = sir_xrealloc(w->num, n);
	w->piece = sir_xrealloc(w->piece, n * sizeof(*w->piece));
	memset(w->num + w->size, 0, n - w->size);
	w->size = n;
}

static void set_pieces(struct wide *w, sir_id v, const sir_id *p,
		       unsigned int n)
{
	wide_grow(w);
	w->num[v] = (uint8_t)n;
	memcpy(w->piece[v], p, n * sizeof(*p));
}

/* Pieces of a value without block: constants, undefs, uniforms. */
static bool split_free_value(struct wide *w, sir_id v)
{
	struct sir_function *f = w->f;
	struct sir_instr in = f->values[v];
	unsigned int pl = piece_lanes(in.type), n, k;
	sir_id p[WIDE_MAX_PIECES];

	n = (in.type.comps + pl - 1) / pl;
	for (k = 0; k < n; k++) {
		unsigned int lanes = in.type.comps - k * pl;
		struct sir_type pt = sirp_type_comps(in.type,
						     lanes < pl ? lanes : pl);

		p[k] = sir_value_new(f, (enum sir_op)in.op, pt, NULL, 0);
		if (in.op == SIR_OP_CONST)
			memcpy(f->values[p[k]].imm.u64, in.imm.u64 + k * pl,
			       pt.comps * sizeof(uint64_t));
		if (in.op == SIR_OP_UNIFORM)
			f->values[p[k]].aux = in.aux +
					      k * pl * mem_bits(in.type) / 8;
	}
	set_pieces(w, v, p, n);
	return true;
}

static unsigned int pieces_of(struct wide *w, sir_id v)
{
	const struct sir_instr *in = &w->f->values[v];

	wide_grow(w);
	if (!w->num[v] && is_wide(in->type) &&
	    (in->op == SIR_OP_CONST || in->op == SIR_OP_UNDEF ||
	     in->op == SIR_OP_UNIFORM))
		split_free_value(w, v);
	return w->num[v];
}

/* Lanes [start, start + n) of v (wide or not) as one value (<= 128 bits). */
static sir_id lanes_of(struct wide *w, sir_id v, unsigned int start,
		       unsigned int n)
{
	struct sir_function *f = w->f;
	struct sir_type t = f->values[v].type;
	unsigned int pl = is_wide(t) ? piece_lanes(t) : 16, np;
	unsigned int k = start / pl, off = start % pl, i;
	sir_id src, parts[16];
	unsigned int num_parts = 0;

	np = pieces_of(w, v);
	if (!is_wide(t) && start == 0 && n == t.comps)
		return v;
	if (off + n > pl) {
		/* Spans pieces: gather each piece's share. */
		unsigned int pos = start;

		while (pos < start + n) {
			unsigned int end = (pos / pl + 1) * pl;

			if (end > start + n)
				end = start + n;
			parts[num_parts++] = lanes_of(w, v, pos, end - pos);
			pos = end;
		}
		return sirp_op(&w->b, SIR_OP_VEC, sirp_type_comps(t, n), parts,
			       num_parts, 0);
	}
	src = np ? w->piece[v][k] : v;
	t = f->values[src].type;
	if (off == 0 && n == t.comps)
		return src;
	if (n == 1)
		return sirp_op(&w->b, SIR_OP_EXTRACT, sirp_type_comps(t, 1),
			       &src, 1, off);
	{
		sir_id s[2] = { src, src }, r;

		r = sirp_op(&w->b, SIR_OP_SHUFFLE, sirp_type_comps(t, n), s,
			    2, 0);
		for (i = 0; i < n; i++)
			f->values[r].imm.u64[i] = off + i;
		return r;
	}
}

static bool is_componentwise(enum sir_op op)
{
	if (op == SIR_OP_SELECT || op == SIR_OP_COPY)
		return true;
	return op >= SIR_OP_IADD && op <= SIR_OP_FCONV && op != SIR_OP_ANY &&
	       op != SIR_OP_ALL && op != SIR_OP_FDOT;
}

/* Result of a narrow instruction from its piece results. */
static sir_id join(struct wide *w, struct sir_type t, const sir_id *p,
		   unsigned int n)
{
	if (n == 1)
		return p[0];
	return sirp_op(&w->b, SIR_OP_VEC, t, p, n, 0);
}

static sir_id split_componentwise(struct wide *w, sir_id v)
{
	struct sir_function *f = w->f;
	struct sir_instr in = f->values[v];
	unsigned int maxbits = sirp_reg_lane_bits(in.type), pl, n, k, s;
	sir_id p[16], srcs[3];

	for (s = 0; s < in.num_srcs; s++) {
		struct sir_type st = f->values[in.srcs[s]].type;

		if (sirp_reg_lane_bits(st) > maxbits)
			maxbits = sirp_reg_lane_bits(st);
	}
	pl = 128 / maxbits;
	n = (in.type.comps + pl - 1) / pl;
	for (k = 0; k < n; k++) {
		unsigned int lanes = in.type.comps - k * pl;
		struct sir_type pt;
		sir_id r;

		lanes = lanes < pl ? lanes : pl;
		pt = sirp_type_comps(in.type, lanes);
		for (s = 0; s < in.num_srcs; s++) {
			sir_id src = in.srcs[s];

			/* A scalar select condition applies to every piece. */
			srcs[s] = f->values[src].type.comps == 1 &&
				  in.type.comps > 1 ? src :
				  lanes_of(w, src, k * pl, lanes);
		}
		r = sirp_op(&w->b, (enum sir_op)in.op, pt, srcs, in.num_srcs,
			    in.aux);
		f->values[r].aux2 = in.aux2;
		p[k] = r;
	}
	if (!is_wide(in.type))
		return join(w, in.type, p, n);
	/* Pieces of a wide result must be the standard ones. */
	if (pl != piece_lanes(in.type)) {
		sir_id q[WIDE_MAX_PIECES];
		unsigned int spl = piece_lanes(in.type), sn, j;

		sn = (in.type.comps + spl - 1) / spl;
		for (j = 0; j < sn; j++) {
			unsigned int per = spl / pl, lanes;
			sir_id parts[16];

			lanes = in.type.comps - j * spl;
			lanes = lanes < spl ? lanes : spl;
			for (k = 0; k < (lanes + pl - 1) / pl; k++)
				parts[k] = p[j * per + k];
			q[j] = join(w, sirp_type_comps(in.type, lanes), parts,
				    (lanes + pl - 1) / pl);
		}
		set_pieces(w, v, q, sn);
	} else {
		set_pieces(w, v, p, n);
	}
	return SIR_NONE;
}

/* Standard pieces of a wide result from a lane getter. */
static void build_pieces(struct wide *w, sir_id v,
			 sir_id (*lane_range)(struct wide *, sir_id,
					      unsigned int, unsigned int))
{
	struct sir_type t = w->f->values[v].type;
	unsigned int pl = piece_lanes(t), n = (t.comps + pl - 1) / pl, k;
	sir_id p[WIDE_MAX_PIECES];

	for (k = 0; k < n; k++) {
		unsigned int lanes = t.comps - k * pl;

		p[k] = lane_range(w, v, k * pl, lanes < pl ? lanes : pl);
	}
	set_pieces(w, v, p, n);
}

/* Lanes of a VEC from its sources. */
static sir_id vec_range(struct wide *w, sir_id v, unsigned int start,
			unsigned int n)
{
	struct sir_function *f = w->f;
	struct sir_instr in = f->values[v];
	sir_id parts[16];
	unsigned int num = 0, base = 0, s;

	for (s = 0; s < in.num_srcs; s++) {
		unsigned int c = f->values[in.srcs[s]].type.comps;
		unsigned int lo = start > base ? start : base;
		unsigned int hi = start + n < base + c ? start + n : base + c;

		if (lo < hi)
			parts[num++] = lanes_of(w, in.srcs[s], lo - base,
						hi - lo);
		base += c;
	}
	return join(w, sirp_type_comps(in.type, n), parts, num);
}

/* Lanes of a SHUFFLE from its sources. */
static sir_id shuffle_range(struct wide *w, sir_id v, unsigned int start,
			    unsigned int n)
{
	struct sir_function *f = w->f;
	struct sir_instr in = f->values[v];
	unsigned int c0 = f->values[in.srcs[0]].type.comps, i;
	sir_id parts[16];

	for (i = 0; i < n; i++) {
		uint64_t s = in.imm.u64[start + i];
		sir_id src = in.srcs[0];

		if (s >= 2u * c0)
			s = 0;               /* undefined lane: any value */
		if (s >= c0) {
			src = in.srcs[1];
			s -= c0;
		}
		parts[i] = lanes_of(w, src, (unsigned int)s, 1);
	}
	return join(w, sirp_type_comps(in.type, n), parts, n);
}

/* Lanes of an INSERT. */
static sir_id insert_range(struct wide *w, sir_id v, unsigned int start,
			   unsigned int n)
{
	struct sir_function *f = w->f;
	struct sir_instr in = f->values[v];
	sir_id r = lanes_of(w, in.srcs[0], start, n);

	if (in.aux < start || in.aux >= start + n)
		return r;
	return sirp_op(&w->b, SIR_OP_INSERT, f->values[r].type,
		       (sir_id[]){ r, in.srcs[1] }, 2, in.aux - start);
}

/* A stand-in after a failure (the pass reports it and stops). */
static sir_id failed_value(struct wide *w, struct sir_type t, const char *what)
{
	wide_fail(w, what);
	return sir_value_new(w->f, SIR_OP_UNDEF, t, NULL, 0);
}

/*
 * Words [first, first + n) (n <= 4) of the packed memory image of v as a
 * 32-bit int vector, gathered from v's pieces (a piece of a wide value is
 * a whole number of words), or SIR_NONE.
 */
static sir_id words_of(struct wide *w, sir_id v, unsigned int first,
		       unsigned int n)
{
	struct sir_type t = w->f->values[v].type;
	struct sir_type it = sir_type_make(SIR_INT, 32, 1);
	unsigned int bits = mem_bits(t), total = t.comps * bits;
	unsigned int chunk = is_wide(t) ? piece_lanes(t) * bits : total;
	unsigned int wa = first, num = 0;
	sir_id parts[4];

	if (t.kind == SIR_BOOL || chunk % 32 || (first + n) * 32 > total)
		return SIR_NONE;
	while (wa < first + n) {
		unsigned int wb = (wa * 32 / chunk + 1) * chunk / 32;
		unsigned int lo, hi;
		sir_id x;

		if (wb > first + n)
			wb = first + n;
		/* Lanes [lo, hi) of one piece hold words [wa, wb). */
		lo = wa * 32 / bits;
		hi = (wb * 32 + bits - 1) / bits;
		x = lanes_of(w, v, lo, hi - lo);
		if (t.kind != SIR_INT || bits != 32)
			x = sirp_op1(&w->b, SIR_OP_BITCAST,
				     sirp_type_comps(it, (hi - lo) * bits / 32),
				     x);
		parts[num++] = lanes_of(w, x, wa - lo * bits / 32, wb - wa);
		wa = wb;
	}
	return join(w, sirp_type_comps(it, n), parts, num);
}

/* Lanes of a BITCAST: the words they take of the source's image. */
static sir_id bitcast_range(struct wide *w, sir_id v, unsigned int start,
			    unsigned int n)
{
	struct sir_instr in = w->f->values[v];
	struct sir_type pt = sirp_type_comps(in.type, n);
	unsigned int bits = mem_bits(in.type);
	sir_id words = SIR_NONE;

	if (in.type.kind != SIR_BOOL && start * bits % 32 == 0 &&
	    n * bits % 32 == 0 && n * bits <= 128)
		words = words_of(w, in.srcs[0], start * bits / 32,
				 n * bits / 32);
	if (!words)
		return failed_value(w, pt, "unsupported wide bitcast");
	if (in.type.kind == SIR_INT && bits == 32)
		return words;
	return sirp_op1(&w->b, SIR_OP_BITCAST, pt, words);
}

/* ptr + off bytes. */
static sir_id ptr_at(struct wide *w, sir_id ptr, unsigned int off)
{
	struct sir_type it = sir_type_make(SIR_INT, 32, 1);

	if (!off)
		return ptr;
	return sirp_op2(&w->b, SIR_OP_PTR_ADD, w->f->values[ptr].type, ptr,
			sirl_k(&w->b, it, off));
}

/* Lanes of a LOAD: one load per piece, at its packed offset. */
static sir_id load_range(struct wide *w, sir_id v, unsigned int start,
			 unsigned int n)
{
	struct sir_instr in = w->f->values[v];
	unsigned int off = start * mem_bits(in.type) / 8;

	return sirp_op(&w->b, SIR_OP_LOAD, sirp_type_comps(in.type, n),
		       (sir_id[]){ ptr_at(w, in.srcs[0], off) }, 1,
		       offset_align(in.aux, off));
}

/*
 * Narrow vectors whose words are 4-byte aligned in memory move as words,
 * 16 bytes per access (byte and halfword accesses are one per lane).
 */
static bool moves_as_words(struct sir_type t, uint32_t align)
{
	return is_narrow(t) && align >= 4 && t.comps % piece_lanes(t) == 0;
}

/* A narrow LOAD as word loads; each piece bitcast from its words. */
static void split_load_words(struct wide *w, sir_id v)
{
	struct sir_instr in = w->f->values[v];
	struct sir_type it = sir_type_make(SIR_INT, 32, 1);
	struct sir_type pt = sirp_type_comps(in.type, piece_lanes(in.type));
	unsigned int nw = in.type.comps * in.type.bits / 32;
	unsigned int pw = pt.comps * pt.bits / 32, c, k;
	sir_id chunk[WIDE_MAX_PIECES], p[WIDE_MAX_PIECES];

	for (c = 0; 4 * c < nw; c++) {
		unsigned int n = nw - 4 * c < 4 ? nw - 4 * c : 4;

		chunk[c] = sirp_op(&w->b, SIR_OP_LOAD, sirp_type_comps(it, n),
				   (sir_id[]){ ptr_at(w, in.srcs[0], 16 * c) },
				   1, offset_align(in.aux, 16 * c));
	}
	for (k = 0; k * pw < nw; k++)
		p[k] = sirp_op1(&w->b, SIR_OP_BITCAST, pt,
				lanes_of(w, chunk[k * pw / 4], k * pw % 4, pw));
	set_pieces(w, v, p, k);
}

static void split_store(struct wide *w, sir_id v)
{
	struct sir_instr in = w->f->values[v];
	struct sir_type t = w->f->values[in.srcs[1]].type;
	unsigned int pl = piece_lanes(t), k;

	if (moves_as_words(t, in.aux)) {
		unsigned int nw = t.comps * t.bits / 32;

		for (k = 0; 4 * k < nw; k++) {
			unsigned int n = nw - 4 * k < 4 ? nw - 4 * k : 4;
			sir_id words = words_of(w, in.srcs[1], 4 * k, n);

			if (!words) {
				wide_fail(w, "unsupported wide store");
				return;
			}
			sirp_op(&w->b, SIR_OP_STORE, in.type,
				(sir_id[]){ ptr_at(w, in.srcs[0], 16 * k),
					    words }, 2,
				offset_align(in.aux, 16 * k));
		}
		return;
	}
	for (k = 0; k * pl < t.comps; k++) {
		unsigned int lanes = t.comps - k * pl;
		unsigned int off = k * pl * mem_bits(t) / 8;
		sir_id val;

		lanes = lanes < pl ? lanes : pl;
		val = lanes_of(w, in.srcs[1], k * pl, lanes);
		sirp_op(&w->b, SIR_OP_STORE, in.type,
			(sir_id[]){ ptr_at(w, in.srcs[0], off), val }, 2,
			offset_align(in.aux, off));
	}
}

static sir_id split_reduce(struct wide *w, sir_id v)
{
	struct sir_instr in = w->f->values[v];
	unsigned int n = pieces_of(w, in.srcs[0]), k;
	enum sir_op join_op = in.op == SIR_OP_ANY ? SIR_OP_BOR : SIR_OP_BAND;
	sir_id r = SIR_NONE;

	for (k = 0; k < n; k++) {
		sir_id p = sirp_op1(&w->b, (enum sir_op)in.op, in.type,
				    w->piece[in.srcs[0]][k]);

		r = r ? sirp_op2(&w->b, join_op, in.type, r, p) : p;
	}
	return r;
}

/* Does v define or read a wide value? */
static bool touches_wide(const struct sir_function *f,
			 const struct sir_instr *in)
{
	uint32_t s;

	if (is_wide(in->type))
		return true;
	for (s = 0; s < in->num_srcs; s++)
		if (is_wide(f->values[in->srcs[s]].type))
			return true;
	return false;
}

/* Kept whole by sir_lower_packed.c. */
static bool kept(const struct wide *w, sir_id v)
{
	return w->keep && v < w->num_keep && w->keep[v];
}

static bool needs_split(const struct wide *w, sir_id v)
{
	return !kept(w, v) && touches_wide(w->f, &w->f->values[v]);
}

/* Splits one instruction; SIR_NONE when its pieces replace it. */
static bool split_one(struct wide *w, sir_id v, sir_id *repl)
{
	struct sir_function *f = w->f;
	struct sir_instr in = f->values[v];

	*repl = SIR_NONE;
	switch (in.op) {
	case SIR_OP_PHI:
		return true;         /* pieces made up front */
	case SIR_OP_CONST:
	case SIR_OP_UNDEF:
	case SIR_OP_UNIFORM:
		split_free_value(w, v);
		return true;
	case SIR_OP_VEC:
		build_pieces(w, v, vec_range);
		return true;
	case SIR_OP_SHUFFLE:
		if (is_wide(in.type))
			build_pieces(w, v, shuffle_range);
		else
			*repl = shuffle_range(w, v, 0, in.type.comps);
		return true;
	case SIR_OP_INSERT:
		build_pieces(w, v, insert_range);
		return true;
	case SIR_OP_EXTRACT:
		*repl = lanes_of(w, in.srcs[0], in.aux, 1);
		return true;
	case SIR_OP_BITCAST:
		if (is_wide(in.type))
			build_pieces(w, v, bitcast_range);
		else
			*repl = bitcast_range(w, v, 0, in.type.comps);
		return !w->failed;
	case SIR_OP_LOAD:
		if (moves_as_words(in.type, in.aux))
			split_load_words(w, v);
		else
			build_pieces(w, v, load_range);
		return true;
	case SIR_OP_STORE:
		split_store(w, v);
		return !w->failed;
	case SIR_OP_ANY:
	case SIR_OP_ALL:
		*repl = split_reduce(w, v);
		return true;
	default:
		if (is_componentwise((enum sir_op)in.op)) {
			*repl = split_componentwise(w, v);
			return true;
		}
		snprintf(w->err, w->errsz,
			 "%s: %s of a vector wider than a register", f->name,
			 sir_op_name((enum sir_op)in.op));
		return false;
	}
}

/* Piece phis for every wide phi, sources filled by fill_phis(). */
static void make_phis(struct wide *w)
{
	struct sir_function *f = w->f;
	uint32_t b, i, k;

	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			sir_id v = f->blocks[b].instrs[i];
			struct sir_instr in = f->values[v];
			unsigned int pl, n;
			sir_id p[WIDE_MAX_PIECES];

			if (in.op != SIR_OP_PHI)
				break;
			if (!is_wide(in.type) || kept(w, v))
				continue;
			pl = piece_lanes(in.type);
			n = (in.type.comps + pl - 1) / pl;
			for (k = 0; k < n; k++) {
				unsigned int lanes = in.type.comps - k * pl;

				lanes = lanes < pl ? lanes : pl;
				p[k] = sirp_phi(f, b, sirp_type_comps(in.type,
								      lanes),
						f->values[v].srcs,
						f->values[v].phi_blocks,
						in.num_srcs);
				i++;         /* inserted before v */
			}
			set_pieces(w, v, p, n);
		}
	}
}

static void fill_phis(struct wide *w, uint32_t old_values)
{
	struct sir_function *f = w->f;
	uint32_t v, k, s;

	for (v = 1; v < old_values; v++) {
		struct sir_instr *in = &f->values[v];

		if (in->op != SIR_OP_PHI || !is_wide(in->type) || !w->num[v])
			continue;
		for (k = 0; k < w->num[v]; k++) {
			sir_id p = w->piece[v][k];
			unsigned int pl = piece_lanes(in->type);

			for (s = 0; s < in->num_srcs; s++) {
				sir_id src = f->values[v].srcs[s];
				uint32_t pred = f->values[v].phi_blocks[s];
				struct sir_instr *t = sirp_terminator(f, pred);

				/* Extraction code goes before the edge. */
				w->b = sirp_builder_at(f, pred,
					f->blocks[pred].num_instrs - (t ? 1 : 0));
				src = lanes_of(w, src, k * pl,
					       f->values[p].type.comps);
				f->values[p].srcs[s] = src;
			}
		}
		sir_remove(f, v);
	}
}

bool sirl_split_wide(struct sir_function *f, char *err, size_t errsz)
{
	struct wide w;
	struct sir_dom dom;
	uint32_t old_values = f->num_values, r, i;
	bool ok = true, any = false;

	for (i = 1; i < f->num_values && !any; i++)
		any = f->values[i].op != SIR_OP_INVALID &&
		      f->values[i].block != UINT32_MAX &&
		      touches_wide(f, &f->values[i]);
	if (!any)
		return true;
	memset(&w, 0, sizeof(w));
	w.f = f;
	w.err = err;
	w.errsz = errsz;
	w.keep = sirl_packed_webs(f);
	w.num_keep = old_values;
	for (i = 1, any = false; i < f->num_values && !any; i++)
		any = f->values[i].op != SIR_OP_INVALID &&
		      f->values[i].block != UINT32_MAX && needs_split(&w, i);
	if (!any) {
		free(w.keep);
		return true;
	}
	wide_grow(&w);
	make_phis(&w);
	sirp_dom_compute(&dom, f);
	for (r = 0; r < dom.num_rpo && ok; r++) {
		uint32_t b = dom.rpo[r];

		for (i = 0; i < f->blocks[b].num_instrs && ok; i++) {
			sir_id v = f->blocks[b].instrs[i], rep;

			if (v >= old_values || !needs_split(&w, v) ||
			    f->values[v].op == SIR_OP_PHI)
				continue;
			w.b = sirp_builder_at(f, b, i);
			ok = split_one(&w, v, &rep);
			if (ok && rep)
				sir_replace_uses(f, v, rep);
			sir_remove(f, v);
			i = w.b.pos - 1;
		}
	}
	if (ok)
		fill_phis(&w, old_values);
	sirp_dom_free(&dom);
	free(w.num);
	free(w.piece);
	free(w.keep);
	return ok;
}
