/* SPDX-License-Identifier: MIT */
/*
 * printf (OpenCL 1.2 6.12.13) into appends to the launch's printf buffer,
 * whose layout is the launch ABI's (compiler/binary/slb_binary.h, "printf").
 *
 * Each call site gets an entry in the program's printf table: its format
 * string, the size of its record and where each argument sits in it. The
 * call becomes
 *
 *	room = buf[1] - record_bytes        (when record_bytes <= buf[1])
 *	result = -1                          (6.12.13.2: the buffer is full)
 *	if (record_bytes <= buf[1] && buf[0] <= room) {
 *		old = atomic_add(&buf[0], record_bytes)
 *		if (old <= room) {
 *			record = (char *)buf + 16 + old
 *			record[0] = call index; record[i's offset] = arg i
 *			result = 0
 *		} else {
 *			atomic_min(&buf[2], old)
 *		}
 *	}
 *
 * The plain read of buf[0] first keeps calls made once the buffer is full
 * from adding to it: it ends at most a record per work-item in flight past
 * the area, far from wrapping around 2^32. A stale read only costs an
 * atomic whose answer then decides. Reservations are made in order, so the
 * records that fit are those below the first offset that did not: buf[2],
 * where the runtime stops reading (the bytes after it are not records).
 *
 * The format and the %s arguments must be string literals (6.12.13.2:
 * "only literal strings"): they are found at compile time in the module's
 * __constant data, and a %s argument is written as the index of its text
 * in the table. A device without double passes float arguments as float
 * (6.12.13.2; the front end turns cl_khr_fp64 off, so clang does not
 * promote them), and they are written as float.
 */
#include "sir_passes.h"

#include <stdlib.h>
#include <string.h>

#include "../binary/slb_binary.h"
#include "sir_pass_util.h"


/* The string at byte offset of the module's __constant data, or NULL. */
static const char *constant_string(const struct sir_module *m, uint64_t at)
{
	for (uint32_t i = 0; i < m->num_globals; i++) {
		const struct sir_global *g = &m->globals[i];
		uint64_t in;

		if (g->space != SIR_SPACE_CONSTANT || !g->init ||
		    at < g->offset || at - g->offset >= g->size)
			continue;
		in = at - g->offset;
		return memchr(g->init + in, 0, g->size - in) ?
		       (const char *)g->init + in : NULL;
	}
	return NULL;
}

/*
 * The string literal pointer v points at: the SPIR-V reader addresses a
 * __constant global as CONSTANT_BASE plus its offset in the constant data
 * (sir_lower_abi keeps those offsets), so v must be that base plus
 * constant offsets, landing in an initialised global that holds a NUL
 * after it. NULL when v is not one.
 */
static const char *literal_string(const struct sir_module *m,
				  const struct sir_function *f, sir_id v)
{
	uint64_t offset = 0;

	for (;;) {
		const struct sir_instr *in = &f->values[v];

		if (in->op == SIR_OP_PTR_ADD &&
		    f->values[in->srcs[1]].op == SIR_OP_CONST) {
			offset += (uint32_t)f->values[in->srcs[1]].imm.u64[0];
			v = in->srcs[0];
		} else if (in->op == SIR_OP_COPY || in->op == SIR_OP_BITCAST) {
			v = in->srcs[0];
		} else if (in->op == SIR_OP_SYSVAL &&
			   in->aux == SIR_SYSVAL_CONSTANT_BASE) {
			return constant_string(m, offset & 0xFFFFFFFFu);
		} else if (in->op == SIR_OP_VAR_ADDR && in->aux2 == 1 &&
			   in->aux < m->num_globals &&
			   m->globals[in->aux].space == SIR_SPACE_CONSTANT) {
			return constant_string(m, (m->globals[in->aux].offset +
						   offset) & 0xFFFFFFFFu);
		} else {
			return NULL;
		}
	}
}

/* How deep selects and phis of literals are followed for a %s argument. */
#define MAX_STRING_DEPTH 8

/*
 * The string index (int32) a %s argument v stands for: a literal's, or a
 * select or phi between literals (`c ? "yes" : "no"`) as the same select
 * or phi of their indices. SIR_NONE when v is something else, or 
 * UINT32_MAX when the table is full.
 */
static sir_id string_index(struct sir_module *m, struct sir_function *f,
			   struct sir_builder *b, struct slb_program *p,
			   sir_id v, unsigned int depth)
{
	struct sir_type i32 = sir_type_make(SIR_INT, 32, 1);
	const char *s = literal_string(m, f, v);
	struct sir_instr in = f->values[v];

	if (s) {
		uint32_t id = slb_printf_add_string(p, s);

		return id == UINT32_MAX ? UINT32_MAX :
		       sir_const_u64(f, i32, id);
	}
	if (depth >= MAX_STRING_DEPTH)
		return SIR_NONE;
	if (in.op == SIR_OP_SELECT && f->values[in.srcs[0]].type.comps == 1) {
		sir_id a = string_index(m, f, b, p, in.srcs[1], depth + 1);
		sir_id c = a && a != UINT32_MAX ?
			   string_index(m, f, b, p, in.srcs[2], depth + 1) : a;

		if (!c || c == UINT32_MAX)
			return c;
		return sirp_op3(b, SIR_OP_SELECT, i32, in.srcs[0], a, c);
	}
	if (in.op == SIR_OP_PHI) {
		sir_id *ids = sir_xcalloc(in.num_srcs, sizeof(*ids));
		sir_id r = SIR_NONE;
		uint32_t i;

		/* Literal sources only: their indices are constants, which
		 * need no place in the predecessors. */
		for (i = 0; i < in.num_srcs; i++) {
			s = literal_string(m, f, in.srcs[i]);
			if (!s)
				break;
			ids[i] = slb_printf_add_string(p, s);
			if (ids[i] == UINT32_MAX) {
				free(ids);
				return UINT32_MAX;
			}
			ids[i] = sir_const_u64(f, i32, ids[i]);
		}
		if (i == in.num_srcs) {
			r = sirp_phi(f, in.block, i32, ids, in.phi_blocks,
				     in.num_srcs);
			/* The phi went first in its block: a cursor in that
			 * block moves with what it pointed at. */
			if (b->block == in.block)
				b->pos++;
		}
		free(ids);
		return r;
	}
	return SIR_NONE;
}

static uint32_t align4(uint32_t v)
{
	return (v + 3) & ~3u;
}

/*
 * The value to store for argument v and its description in the table
 * (offset left to the caller); SIR_NONE with a message when printf cannot
 * take it.
 */
static sir_id record_value(struct sir_module *m, struct sir_function *f,
			   struct sir_builder *b, struct slb_program *p,
			   sir_id v, struct slb_printf_arg *arg, char *err,
			   size_t errsz)
{
	struct sir_type t = f->values[v].type;
	struct sir_type i32 = sir_type_make(SIR_INT, 32, 1);
	sir_id id;

	memset(arg, 0, sizeof(*arg));
	arg->lanes = t.comps;
	if (t.comps != 1 && t.comps != 2 && t.comps != 3 && t.comps != 4 &&
	    t.comps != 8 && t.comps != 16) {
		snprintf(err, errsz, "printf: a %u-lane argument", t.comps);
		return SIR_NONE;
	}
	switch (t.kind) {
	case SIR_PTR:
		id = t.space == SIR_SPACE_CONSTANT ?
		     string_index(m, f, b, p, v, 0) : SIR_NONE;
		if (id == UINT32_MAX) {
			snprintf(err, errsz, "printf: too many strings");
			return SIR_NONE;
		}
		if (id) {
			arg->kind = SLB_PRINTF_STRING;
			arg->elem_bytes = 4;
			return id;
		}
		arg->kind = SLB_PRINTF_POINTER;
		arg->elem_bytes = 4;
		return sirp_op1(b, SIR_OP_BITCAST, i32, v);
	case SIR_INT:
		arg->kind = SLB_PRINTF_INT;
		arg->elem_bytes = t.bits / 8u;
		return v;
	case SIR_FLOAT:
		/* Floats, or doubles (with cl_khr_fp64 a float argument is
		 * promoted to double, as C's variadic arguments are). */
		arg->kind = SLB_PRINTF_FLOAT;
		arg->elem_bytes = t.bits / 8u;
		if (t.bits == 32 || t.bits == 64)
			return v;
		snprintf(err, errsz, "printf: a %u-bit floating-point "
			 "argument (floats and doubles only)", t.bits);
		return SIR_NONE;
	default:
		snprintf(err, errsz, "printf: an argument of unsupported type");
		return SIR_NONE;
	}
}

/* Lowers the PRINTF v (see the top of the file). */
static bool lower_call(struct sir_module *m, struct sir_function *f,
		       struct slb_program *p, sir_id v, char *err,
		       size_t errsz)
{
	struct sir_type i32 = sir_type_make(SIR_INT, 32, 1);
	struct sir_type gptr = sir_type_ptr(SIR_SPACE_GLOBAL);
	struct sir_type vd = sir_type_make(SIR_VOID, 0, 0);
	uint32_t nargs = f->values[v].num_srcs - 1, blk = f->values[v].block;
	uint32_t pos = sirp_position(f, v), write_blk, join_blk, i;
	struct slb_printf_call *call = sir_xcalloc(1, sizeof(*call));
	sir_id *vals = sir_xcalloc(nargs + 1, sizeof(*vals));
	sir_id *srcs = sir_xcalloc(nargs + 1, sizeof(*srcs));
	struct sir_type bool1 = sir_type_make(SIR_BOOL, 1, 1);
	sir_id buf, old, cap, used, room, fits, rec, first_miss, phi_srcs[3];
	uint32_t phi_preds[3], index, offset = 4, try_blk, fail_blk;
	struct sir_builder b;
	const char *format;
	bool ok = false;

	memcpy(srcs, f->values[v].srcs, (nargs + 1) * sizeof(*srcs));
	format = literal_string(m, f, srcs[0]);
	if (!format) {
		snprintf(err, errsz, "printf: the format must be a string "
			 "literal");
		goto out;
	}
	if (nargs > SLB_MAX_PRINTF_ARGS) {
		snprintf(err, errsz, "printf: %u arguments (at most %u)",
			 nargs, SLB_MAX_PRINTF_ARGS);
		goto out;
	}
	call->format = slb_printf_add_string(p, format);
	call->num_args = nargs;

	/* The arguments' values, built where the call was. */
	b = sirp_builder_at(f, blk, pos);
	for (i = 0; i < nargs; i++) {
		struct slb_printf_arg *a = &call->args[i];

		vals[i] = record_value(m, f, &b, p, srcs[i + 1], a, err, errsz);
		if (!vals[i])
			goto out;
		a->offset = offset;
		offset += align4(slb_printf_arg_bytes(a));
	}
	call->record_bytes = offset;
	if (offset > SLB_MAX_PRINTF_RECORD) {
		snprintf(err, errsz, "printf: a record of %u bytes (at most "
			 "%u)", offset, SLB_MAX_PRINTF_RECORD);
		goto out;
	}
	index = call->format == UINT32_MAX ? UINT32_MAX :
		slb_printf_add_call(p, call);
	if (index == UINT32_MAX) {
		snprintf(err, errsz, "printf: too many calls or strings");
		goto out;
	}

	/* Room: the call's block ends in the test of the room left. */
	pos = sirp_position(f, v);
	join_blk = sirp_split_block(f, blk, pos);
	try_blk = sir_block_add(f);
	write_blk = sir_block_add(f);
	fail_blk = sir_block_add(f);
	b = sirp_builder_at(f, blk, f->blocks[blk].num_instrs);
	buf = sirp_op(&b, SIR_OP_SYSVAL, i32, NULL, 0,
		      SIR_SYSVAL_PRINTF_BUFFER);
	buf = sirp_op1(&b, SIR_OP_BITCAST, gptr, buf);
	cap = sirp_op(&b, SIR_OP_LOAD, i32,
		      (sir_id[]){ sirp_op2(&b, SIR_OP_PTR_ADD, gptr, buf,
					   sirp_const(&b, i32, 4)) }, 1, 4);
	used = sirp_op(&b, SIR_OP_LOAD, i32, &buf, 1, 4);
	room = sirp_op2(&b, SIR_OP_ISUB, i32, cap,
			sirp_const(&b, i32, call->record_bytes));
	fits = sirp_op2(&b, SIR_OP_BAND, bool1,
			sirp_op2(&b, SIR_OP_ULE, bool1,
				 sirp_const(&b, i32, call->record_bytes), cap),
			sirp_op2(&b, SIR_OP_ULE, bool1, used, room));
	sirp_cbr(&b, fits, try_blk, join_blk);

	/* Reserve: the atomic's old value is the record's offset. */
	b = sirp_builder_at(f, try_blk, 0);
	old = sirp_op2(&b, SIR_OP_ATOMIC, i32, buf,
		       sirp_const(&b, i32, call->record_bytes));
	f->values[old].aux2 = SIR_ATOMIC_ADD;
	sirp_cbr(&b, sirp_op2(&b, SIR_OP_ULE, bool1, old, room), write_blk,
		 fail_blk);

	/* Where the records that fit end, for the runtime. */
	b = sirp_builder_at(f, fail_blk, 0);
	first_miss = sirp_op2(&b, SIR_OP_ATOMIC, i32,
			      sirp_op2(&b, SIR_OP_PTR_ADD, gptr, buf,
				       sirp_const(&b, i32, 8)), old);
	f->values[first_miss].aux2 = SIR_ATOMIC_UMIN;
	sirp_br(&b, join_blk);

	/* Write the record. */
	b = sirp_builder_at(f, write_blk, 0);
	rec = sirp_op2(&b, SIR_OP_PTR_ADD, gptr, buf,
		       sirp_op2(&b, SIR_OP_IADD, i32, old,
				sirp_const(&b, i32, SLB_PRINTF_HEADER_BYTES)));
	sirp_op(&b, SIR_OP_STORE, vd,
		(sir_id[]){ rec, sirp_const(&b, i32, index) }, 2, 4);
	for (i = 0; i < nargs; i++) {
		sir_id at = sirp_op2(&b, SIR_OP_PTR_ADD, gptr, rec,
				     sirp_const(&b, i32,
						call->args[i].offset));

		sirp_op(&b, SIR_OP_STORE, vd, (sir_id[]){ at, vals[i] }, 2,
			4);
	}
	sirp_br(&b, join_blk);

	/* 0 when written, -1 when the buffer was full. */
	phi_srcs[0] = sir_const_u64(f, i32, 0);
	phi_preds[0] = write_blk;
	phi_srcs[1] = sir_const_u64(f, i32, UINT32_MAX);
	phi_preds[1] = blk;
	phi_srcs[2] = phi_srcs[1];
	phi_preds[2] = fail_blk;
	sir_replace_uses(f, v, sirp_phi(f, join_blk, i32, phi_srcs, phi_preds,
					3));
	sir_remove(f, v);
	ok = true;
out:
	free(call);
	free(vals);
	free(srcs);
	return ok;
}

bool sir_lower_printf(struct sir_module *m, struct sir_function *f,
		      struct slb_program *p, char *err, size_t errsz)
{
	uint32_t num = 0, i, blk, j;
	sir_id *calls;
	bool ok = true;

	for (blk = 0; blk < f->num_blocks; blk++)
		for (j = 0; j < f->blocks[blk].num_instrs; j++)
			num += f->values[f->blocks[blk].instrs[j]].op ==
			       SIR_OP_PRINTF;
	if (!num)
		return true;
	/* Collected first: lowering splits blocks. */
	calls = sir_xcalloc(num, sizeof(*calls));
	num = 0;
	for (blk = 0; blk < f->num_blocks; blk++)
		for (j = 0; j < f->blocks[blk].num_instrs; j++)
			if (f->values[f->blocks[blk].instrs[j]].op ==
			    SIR_OP_PRINTF)
				calls[num++] = f->blocks[blk].instrs[j];
	for (i = 0; i < num && ok; i++)
		ok = lower_call(m, f, p, calls[i], err, errsz);
	free(calls);
	sir_compute_preds(f);
	return ok;
}
