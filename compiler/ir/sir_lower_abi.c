/* SPDX-License-Identifier: MIT */
/*
 * The launch ABI (compiler/binary/slb_binary.h) applied to one kernel:
 * where each argument and sysval lives in the argument image, where the
 * static __local variables live in work-group storage, where private
 * variables that stay in memory live in thread storage, and the rewrite of
 * PARAM, SYSVAL and VAR_ADDR into uniforms and constant addresses.
 *
 * A VAR_ADDR with aux2 = 1 names module global aux. __constant globals
 * keep the offsets the SPIR-V reader gave them in the program's constant
 * data; __local ones are laid out here, per kernel (place_local).
 *
 * A struct or union argument (OpenCL 1.2 6.9) is a parameter of kind VALUE
 * whose type is a private pointer (the SPIR-V reader's form of clang's
 * ByVal parameter): its bytes sit in the image like any value's, and the
 * pointer must point at them. When the body only loads from it at constant
 * offsets (the usual case, memcpy's unrolled copies included), each load
 * becomes a uniform read; otherwise (a store to the copy, a variable index)
 * the pointer becomes a private copy written from the image at entry.
 */
#include "sir_passes.h"

#include <stdlib.h>
#include <string.h>

#include "../binary/slb_binary.h"
#include "sir_pass_util.h"

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

uint8_t *sir_constant_data(struct sir_module *m, uint32_t *size)
{
	uint32_t end = 0, i;
	uint8_t *data;

	/* Offsets were placed when the globals were read; keep them. */
	for (i = 0; i < m->num_globals; i++) {
		const struct sir_global *g = &m->globals[i];

		if (g->space == SIR_SPACE_CONSTANT && g->offset + g->size > end)
			end = g->offset + g->size;
	}
	m->constant_bytes = align_up(end, 16);
	*size = m->constant_bytes;
	if (!end)
		return NULL;
	data = sir_xcalloc(m->constant_bytes, 1);
	for (i = 0; i < m->num_globals; i++) {
		const struct sir_global *g = &m->globals[i];

		if (g->space == SIR_SPACE_CONSTANT && g->init)
			memcpy(data + g->offset, g->init, g->size);
	}
	return data;
}

struct abi {
	struct sir_function *k;
	struct slb_kernel *meta;
	uint32_t offset;             /* next free byte of the image */
	uint32_t slot[SLB_SYSVAL_COUNT]; /* offset + 1, 0 when unused */
	sir_id entry_pos;            /* values built at the entry's start */
};

/* Byte offset of sysval slot s, allocated on first use. */
static uint32_t sysval_slot(struct abi *a, enum slb_sysval s)
{
	if (!a->slot[s]) {
		a->offset = align_up(a->offset, 4);
		a->slot[s] = a->offset + 1;
		a->offset += 4;
	}
	return a->slot[s] - 1;
}

static sir_id uniform(struct sir_function *k, struct sir_type t,
		      uint32_t offset)
{
	sir_id u = sir_value_new(k, SIR_OP_UNIFORM, t, NULL, 0);

	k->values[u].aux = offset;
	return u;
}

/* The sysval's first SLB slot for component x, or -1. */
static int slb_base(enum sir_sysval s)
{
	switch (s) {
	case SIR_SYSVAL_NUM_GROUPS: return SLB_SYSVAL_NUM_GROUPS_X;
	case SIR_SYSVAL_LOCAL_SIZE: return SLB_SYSVAL_LOCAL_SIZE_X;
	case SIR_SYSVAL_GLOBAL_SIZE: return SLB_SYSVAL_GLOBAL_SIZE_X;
	case SIR_SYSVAL_GLOBAL_OFFSET: return SLB_SYSVAL_GLOBAL_OFFSET_X;
	case SIR_SYSVAL_WORK_DIM: return SLB_SYSVAL_WORK_DIM;
	case SIR_SYSVAL_CONSTANT_BASE: return SLB_SYSVAL_CONSTANT_BASE;
	case SIR_SYSVAL_PRINTF_BUFFER: return SLB_SYSVAL_PRINTF_BUFFER;
	default: return -1;
	}
}

/* Uniform words of a sysval from the argument image, as a value of t. */
static sir_id sysval_words(struct abi *a, struct sir_builder *b,
			   enum sir_sysval s, struct sir_type t)
{
	struct sir_type word = sir_type_make(SIR_INT, 32, 1);
	sir_id comps[3];
	unsigned int c;
	int base = slb_base(s);

	for (c = 0; c < t.comps; c++)
		comps[c] = uniform(a->k, word,
				   sysval_slot(a, (enum slb_sysval)(base +
								    (int)c)));
	if (t.comps == 1)
		return comps[0];
	return sirp_op(b, SIR_OP_VEC, t, comps, t.comps, 0);
}

/*
 * Largest struct or union argument: past the device's 1024 bytes of
 * CL_DEVICE_MAX_PARAMETER_SIZE, and it bounds the copy made at entry.
 */
#define MAX_BYVAL_BYTES 4096u

/* A struct or union passed by value (see the top of the file). */
static bool is_byval(const struct sir_param *p)
{
	return p->kind == SIR_ARG_VALUE && p->type.kind == SIR_PTR;
}

/* Alignment of a parameter's bytes in the image. */
static uint32_t param_align(const struct sir_param *p, uint32_t size)
{
	/*
	 * Aggregates start on a word at least: the private copy moves whole
	 * words, and members keep their natural alignment from there.
	 */
	if (is_byval(p))
		return p->align > 4 ? p->align : 4;
	if (p->kind == SIR_ARG_IMAGE)
		return 16;
	return size;
}

static bool lay_out_params(struct abi *a, char *err, size_t errsz)
{
	struct sir_function *k = a->k;
	uint32_t i;

	if (k->num_params > SLB_MAX_ARGS) {
		snprintf(err, errsz, "kernel %s has %u arguments (at most %u)",
			 k->name, k->num_params, SLB_MAX_ARGS);
		return false;
	}
	/* The caller's kernel record frees them (slb_kernel_fini). */
	a->meta->args = sir_xcalloc(k->num_params, sizeof(*a->meta->args));
	a->meta->num_args = k->num_params;
	for (i = 0; i < k->num_params; i++) {
		const struct sir_param *p = &k->params[i];
		struct slb_arg *arg = &a->meta->args[i];
		uint32_t size = is_byval(p) ? p->size :
				p->kind == SIR_ARG_IMAGE ? SLB_IMAGE_ARG_BYTES :
				sir_type_size(p->type);

		if (p->type.kind == SIR_VOID || p->type.kind == SIR_BOOL ||
		    !size || param_align(p, size) > 256) {
			snprintf(err, errsz,
				 "argument %s of kernel %s has an unsupported type",
				 p->name ? p->name : "", k->name);
			return false;
		}
		if (is_byval(p) && size > MAX_BYVAL_BYTES) {
			snprintf(err, errsz,
				 "argument %s of kernel %s: %u bytes by value "
				 "(at most %u)", p->name ? p->name : "",
				 k->name, size, MAX_BYVAL_BYTES);
			return false;
		}
		a->offset = align_up(a->offset, param_align(p, size));
		arg->name = sir_xstrdup(p->name);
		arg->type_name = sir_xstrdup(p->type_name);
		arg->kind = p->kind == SIR_ARG_GLOBAL_PTR ? SLB_ARG_GLOBAL :
			    p->kind == SIR_ARG_CONSTANT_PTR ? SLB_ARG_CONSTANT :
			    p->kind == SIR_ARG_LOCAL_PTR ? SLB_ARG_LOCAL :
			    p->kind == SIR_ARG_SAMPLER ? SLB_ARG_SAMPLER :
			    p->kind == SIR_ARG_IMAGE ? SLB_ARG_IMAGE :
			    SLB_ARG_VALUE;
		arg->access = p->access == SIR_ACCESS_READ_ONLY ?
				      SLB_ACCESS_READ_ONLY :
			      p->access == SIR_ACCESS_WRITE_ONLY ?
				      SLB_ACCESS_WRITE_ONLY :
			      p->access == SIR_ACCESS_READ_WRITE ?
				      SLB_ACCESS_READ_WRITE : SLB_ACCESS_NONE;
		arg->qualifiers = (p->is_const ? SLB_QUAL_CONST : 0) |
				  (p->is_restrict ? SLB_QUAL_RESTRICT : 0) |
				  (p->is_volatile ? SLB_QUAL_VOLATILE : 0);
		arg->offset = a->offset;
		arg->size = size;
		a->offset += size;
	}
	return true;
}

/* ---- Struct and union arguments ---- */

#define NOT_DERIVED INT64_MIN

/*
 * Per value: the byte offset from the aggregate's start of a pointer
 * derived from param by PTR_ADDs of constants, or NOT_DERIVED.
 */
static int64_t *derived_offsets(const struct sir_function *k, sir_id param)
{
	int64_t *off = sir_xcalloc(k->num_values, sizeof(*off));
	bool changed = true;
	uint32_t v, b, i;

	for (v = 0; v < k->num_values; v++)
		off[v] = NOT_DERIVED;
	off[param] = 0;
	/* Blocks are not in dominance order: repeat until nothing is new. */
	while (changed) {
		changed = false;
		for (b = 0; b < k->num_blocks; b++) {
			for (i = 0; i < k->blocks[b].num_instrs; i++) {
				sir_id x = k->blocks[b].instrs[i];
				const struct sir_instr *in = &k->values[x];
				const struct sir_instr *c;

				if (in->op != SIR_OP_PTR_ADD ||
				    off[x] != NOT_DERIVED ||
				    off[in->srcs[0]] == NOT_DERIVED)
					continue;
				c = &k->values[in->srcs[1]];
				if (c->op != SIR_OP_CONST)
					continue;
				off[x] = off[in->srcs[0]] +
					 (int32_t)(uint32_t)c->imm.u64[0];
				changed = true;
			}
		}
	}
	return off;
}

/*
 * Whether the back end reads t from the image at byte pos as it is: words
 * for 32-bit lanes, pairs of words for 64-bit ones, 8- and 16-bit lanes
 * wherever they are naturally aligned.
 */
static bool uniform_aligned(struct sir_type t, uint32_t pos)
{
	if (t.bits == 64)
		return pos % 8 == 0;
	if (t.bits == 32)
		return pos % 4 == 0;
	return pos % (t.bits / 8u) == 0;
}

/*
 * Whether a load of t from byte at of the aggregate (size bytes, at image
 * offset base) can be read from the image: inside the aggregate, and
 * aligned, or a scalar of up to 32 bits (a packed struct's member) that
 * the words holding it give.
 */
static bool uniform_readable(struct sir_type t, int64_t at, uint32_t size,
			     uint32_t base)
{
	uint32_t bytes = t.comps * (t.bits / 8u);

	if (t.kind != SIR_INT && t.kind != SIR_FLOAT && t.kind != SIR_PTR)
		return false;
	if (at < 0 || at + bytes > size)
		return false;
	if (uniform_aligned(t, base + (uint32_t)at))
		return true;
	return t.comps == 1 && t.bits <= 32 && t.kind != SIR_PTR;
}

/* The value of t at byte pos of the image, built at the entry (b). */
static sir_id image_read(struct sir_function *k, struct sir_builder *b,
			 struct sir_type t, uint32_t pos)
{
	struct sir_type word = sir_type_make(SIR_INT, 32, 1);
	uint32_t first = pos % 4, bytes = t.bits / 8u;
	sir_id v;

	if (uniform_aligned(t, pos))
		return uniform(k, t, pos);
	/* Unaligned: the one or two words holding it, shifted together. */
	v = sirp_op2(b, SIR_OP_LSHR, word, uniform(k, word, pos - first),
		     sir_const_u64(k, word, 8 * first));
	if (first + bytes > 4) {
		sir_id hi = sirp_op2(b, SIR_OP_SHL, word,
				     uniform(k, word, pos - first + 4),
				     sir_const_u64(k, word,
						   32 - 8 * first));

		v = sirp_op2(b, SIR_OP_OR, word, v, hi);
	}
	if (t.bits < 32)
		v = sirp_op1(b, SIR_OP_TRUNC, sir_type_make(SIR_INT, t.bits, 1),
			     v);
	if (t.kind == SIR_FLOAT)
		v = sirp_op1(b, SIR_OP_BITCAST, t, v);
	return v;
}

/* Whether every use of a derived pointer is one of those loads. */
static bool loads_only(const struct sir_function *k, const int64_t *off,
		       uint32_t size, uint32_t base)
{
	uint32_t b, i, s;

	for (b = 0; b < k->num_blocks; b++) {
		for (i = 0; i < k->blocks[b].num_instrs; i++) {
			sir_id x = k->blocks[b].instrs[i];
			const struct sir_instr *in = &k->values[x];

			for (s = 0; s < in->num_srcs; s++) {
				int64_t o = off[in->srcs[s]];

				if (o == NOT_DERIVED)
					continue;
				if (s == 0 && in->op == SIR_OP_PTR_ADD &&
				    off[x] != NOT_DERIVED)
					continue;
				if (s == 0 && in->op == SIR_OP_LOAD &&
				    uniform_readable(in->type, o, size, base))
					continue;
				return false;
			}
		}
	}
	return true;
}

/*
 * Each load through the pointer becomes the image bytes it reads (built
 * at the entry by b: they are the same everywhere).
 */
static void read_from_image(struct sir_function *k, struct sir_builder *b,
			    const int64_t *off, uint32_t base)
{
	uint32_t num = 0, blk, i, j;
	sir_id *loads = sir_xcalloc(k->num_values, sizeof(*loads));
	struct sir_repl r;

	/* Collected first: building at the entry moves its instructions. */
	for (blk = 0; blk < k->num_blocks; blk++) {
		for (i = 0; i < k->blocks[blk].num_instrs; i++) {
			sir_id x = k->blocks[blk].instrs[i];
			const struct sir_instr *in = &k->values[x];

			if (in->op == SIR_OP_LOAD &&
			    off[in->srcs[0]] != NOT_DERIVED)
				loads[num++] = x;
		}
	}
	sirp_repl_init(&r, k);
	for (j = 0; j < num; j++) {
		struct sir_instr in = k->values[loads[j]];

		sirp_repl_set(&r, loads[j],
			      image_read(k, b, in.type,
					 base + (uint32_t)off[in.srcs[0]]));
	}
	sirp_repl_apply(&r, k);
	free(loads);
}

/*
 * A private variable holding a copy of the image's bytes of arg, written
 * at the start of the entry block; returns its address.
 */
static sir_id copy_to_private(struct sir_function *k, struct sir_builder *b,
			      const struct slb_arg *arg, uint32_t align)
{
	struct sir_type ptr = sir_type_ptr(SIR_SPACE_PRIVATE);
	struct sir_type word = sir_type_make(SIR_INT, 32, 1);
	struct sir_local_var var;
	uint32_t pos, n;
	sir_id addr;

	memset(&var, 0, sizeof(var));
	/* Whole words (the image is 16-aligned, so they are in it). */
	var.size = align_up(arg->size, 4);
	var.align = align > 16 ? align : 16;
	var.elem = word;
	var.is_array = true;
	addr = sir_value_new(k, SIR_OP_VAR_ADDR, ptr, NULL, 0);
	k->values[addr].aux = sir_var_add(k, &var);
	for (pos = 0; pos < var.size; pos += n) {
		bool row = arg->offset % 16 == 0 && pos % 16 == 0 &&
			   var.size - pos >= 16;
		sir_id dst = addr, srcs[2];

		n = row ? 16 : 4;
		if (pos)
			dst = sirp_op2(b, SIR_OP_PTR_ADD, ptr, addr,
				       sir_const_u64(k, word, pos));
		srcs[0] = dst;
		srcs[1] = uniform(k, sir_type_make(SIR_INT, 32, n / 4),
				  arg->offset + pos);
		sirp_op(b, SIR_OP_STORE, sir_type_make(SIR_VOID, 0, 0), srcs,
			2, n);
	}
	return addr;
}

/* Gives every struct or union parameter's pointer its bytes. */
static void lower_byval_params(struct abi *a, struct sir_builder *b)
{
	struct sir_function *k = a->k;
	uint32_t n = k->num_values, v;

	for (v = 1; v < n; v++) {
		const struct sir_param *p;
		const struct slb_arg *arg;
		int64_t *off;
		sir_id to;

		if (k->values[v].op != SIR_OP_PARAM ||
		    k->values[v].aux >= k->num_params ||
		    !is_byval(&k->params[k->values[v].aux]))
			continue;
		p = &k->params[k->values[v].aux];
		arg = &a->meta->args[k->values[v].aux];
		off = derived_offsets(k, v);
		if (loads_only(k, off, arg->size, arg->offset)) {
			read_from_image(k, b, off, arg->offset);
			/* Only dead address arithmetic is left to use it. */
			to = sir_value_new(k, SIR_OP_UNDEF, p->type, NULL, 0);
		} else {
			to = copy_to_private(k, b, arg,
					     param_align(p, arg->size));
		}
		free(off);
		sir_replace_uses(k, v, to);
		k->values[v].op = SIR_OP_INVALID;
	}
}

/*
 * Offsets in work-group storage of the module's __local variables this
 * kernel uses (UINT32_MAX for the others). OpenCL C 1.2 (6.5.2) declares
 * them inside a kernel function; clang makes them module globals, which
 * any kernel may reach through the functions it calls. After inlining,
 * each kernel's body names those it uses, so each kernel gets only its
 * own, laid out in the order of the globals, and another kernel's arrays
 * neither count against its local memory nor move its offsets.
 */
static uint32_t *place_local(struct abi *a, struct sir_module *m)
{
	struct sir_function *k = a->k;
	uint32_t *off = sir_xcalloc(m->num_globals + 1, sizeof(uint32_t));
	uint8_t *used = sir_xcalloc(m->num_globals + 1, 1);
	uint32_t local = 0, b, i, s;

	/* Operands of placed instructions: a dead address takes no room. */
	for (b = 0; b < k->num_blocks; b++) {
		for (i = 0; i < k->blocks[b].num_instrs; i++) {
			const struct sir_instr *in =
				&k->values[k->blocks[b].instrs[i]];

			for (s = 0; s < in->num_srcs; s++) {
				const struct sir_instr *src =
					&k->values[in->srcs[s]];

				if (src->op == SIR_OP_VAR_ADDR &&
				    src->aux2 == 1 && src->aux < m->num_globals)
					used[src->aux] = 1;
			}
		}
	}
	for (i = 0; i < m->num_globals; i++) {
		const struct sir_global *g = &m->globals[i];

		off[i] = UINT32_MAX;
		if (g->space != SIR_SPACE_LOCAL || !used[i])
			continue;
		local = align_up(local, g->align ? g->align : 1);
		off[i] = local;
		local += g->size;
	}
	free(used);
	a->meta->local_static_bytes = align_up(local, 16);
	return off;
}

/* Offsets in thread storage of the private variables left in memory. */
static uint32_t *place_private(struct abi *a)
{
	struct sir_function *k = a->k;
	uint32_t *off = sir_xcalloc(k->num_vars + 1, sizeof(uint32_t));
	uint32_t priv = 0, v, i;

	for (i = 0; i < k->num_vars; i++)
		off[i] = UINT32_MAX;
	for (v = 1; v < k->num_values; v++) {
		const struct sir_instr *in = &k->values[v];
		const struct sir_local_var *var;

		if (in->op != SIR_OP_VAR_ADDR || in->aux2 != 0 ||
		    in->aux >= k->num_vars || off[in->aux] != UINT32_MAX)
			continue;
		var = &k->vars[in->aux];
		priv = align_up(priv, var->align ? var->align : 1);
		off[in->aux] = priv;
		priv += var->size;
	}
	a->meta->private_bytes = align_up(priv, 16);
	return off;
}

/* The number of image arguments before parameter i. */
static uint32_t image_ordinal(const struct sir_function *k, uint32_t i)
{
	uint32_t n = 0;

	while (i--)
		n += k->params[i].kind == SIR_ARG_IMAGE;
	return n;
}

/*
 * A sample's sampler becomes its index in the sampler table: the j-th
 * sampler argument is j, a constant sampler (a CLK_* value) the index of
 * its constant-sampler record, after the sampler arguments (slb_binary.h).
 */
static bool lower_sampler(struct abi *a, sir_id v, char *err, size_t errsz)
{
	struct sir_function *k = a->k;
	struct slb_kernel *meta = a->meta;
	sir_id smp = k->values[v].srcs[1];
	struct sir_type i32 = sir_type_make(SIR_INT, 32, 1);
	uint32_t index = 0, i;

	while (k->values[smp].op == SIR_OP_COPY)
		smp = k->values[smp].srcs[0];
	if (k->values[smp].op == SIR_OP_PARAM &&
	    k->params[k->values[smp].aux].kind == SIR_ARG_SAMPLER) {
		for (i = 0; i < k->values[smp].aux; i++)
			index += k->params[i].kind == SIR_ARG_SAMPLER;
	} else if (k->values[smp].op == SIR_OP_CONST &&
		   slb_sampler_valid((uint32_t)k->values[smp].imm.u64[0])) {
		uint32_t value = (uint32_t)k->values[smp].imm.u64[0], first = 0;

		for (i = 0; i < k->num_params; i++)
			first += k->params[i].kind == SIR_ARG_SAMPLER;
		for (i = 0; i < meta->num_const_samplers; i++)
			if (meta->const_samplers[i].value == value)
				break;
		if (i == meta->num_const_samplers) {
			if (i == SLB_MAX_CONST_SAMPLERS) {
				snprintf(err, errsz, "kernel %s uses more "
					 "than %u constant samplers", k->name,
					 SLB_MAX_CONST_SAMPLERS);
				return false;
			}
			meta->const_samplers[i].index = first + i;
			meta->const_samplers[i].value = value;
			meta->num_const_samplers++;
		}
		index = first + i;
	} else {
		snprintf(err, errsz, "kernel %s: a sampler that is not known "
			 "at compile time", k->name);
		return false;
	}
	k->values[v].srcs[1] = sir_const_u64(k, i32, index);
	return true;
}

/* The replacement of one PARAM, SYSVAL, VAR_ADDR or IMAGE_WORD, or
 * SIR_NONE. */
static sir_id lower_value(struct abi *a, struct sir_module *m,
			  const uint32_t *var_off, const uint32_t *local_off,
			  struct sir_builder *b, sir_id v, char *err,
			  size_t errsz)
{
	struct sir_function *k = a->k;
	struct sir_instr in = k->values[v];
	struct sir_type word = sir_type_make(SIR_INT, 32, 1);

	switch (in.op) {
	case SIR_OP_PARAM:
		/* An image is named by its ordinal (the texture and attribute
		 * index); its uses are image words, lowered below. */
		if (k->params[in.aux].kind == SIR_ARG_IMAGE)
			return sir_const_u64(k, in.type,
					     image_ordinal(k, in.aux));
		return uniform(k, in.type, a->meta->args[in.aux].offset);
	case SIR_OP_IMAGE_WORD: {
		sir_id img = in.srcs[0];

		while (k->values[img].op == SIR_OP_COPY)
			img = k->values[img].srcs[0];
		if (k->values[img].op != SIR_OP_PARAM ||
		    k->params[k->values[img].aux].kind != SIR_ARG_IMAGE) {
			snprintf(err, errsz, "kernel %s: an image whose "
				 "argument is not known at compile time",
				 k->name);
			return UINT32_MAX;
		}
		return uniform(k, in.type,
			       a->meta->args[k->values[img].aux].offset +
			       4 * in.aux);
	}
	case SIR_OP_SYSVAL:
		/* The hardware's ids; GLOBAL_ID excludes the offset (sir.h). */
		if (in.aux == SIR_SYSVAL_GLOBAL_ID ||
		    in.aux == SIR_SYSVAL_LOCAL_ID ||
		    in.aux == SIR_SYSVAL_GROUP_ID)
			return SIR_NONE;
		return sysval_words(a, b, (enum sir_sysval)in.aux, in.type);
	case SIR_OP_VAR_ADDR:
		if (in.aux2 == 0 && in.aux < k->num_vars)
			return sir_const_u64(k, in.type, var_off[in.aux]);
		if (in.aux2 == 1 && in.aux < m->num_globals) {
			const struct sir_global *g = &m->globals[in.aux];

			/* Unplaced: no placed instruction uses it. */
			if (g->space == SIR_SPACE_LOCAL)
				return sir_const_u64(k, in.type,
						     local_off[in.aux] ==
						     UINT32_MAX ? 0 :
						     local_off[in.aux]);
			if (g->space == SIR_SPACE_CONSTANT) {
				sir_id base = uniform(k, in.type,
					sysval_slot(a,
						    SLB_SYSVAL_CONSTANT_BASE));

				return sirp_op2(b, SIR_OP_PTR_ADD, in.type,
						base,
						sir_const_u64(k, word,
							      g->offset));
			}
		}
		snprintf(err, errsz, "bad variable reference in kernel %s",
			 k->name);
		return UINT32_MAX;
	default:
		return SIR_NONE;
	}
}

bool sir_lower_abi(struct sir_module *m, struct sir_function *k,
		   struct slb_kernel *meta, char *err, size_t errsz)
{
	struct abi a;
	uint32_t *var_off, *local_off;
	struct sir_builder b = sirp_builder_at(k, 0, 0);
	uint32_t v, n = k->num_values, s;
	struct sir_repl repl;
	uint32_t const_size;
	uint8_t *const_data;
	bool ok = true;

	memset(&a, 0, sizeof(a));
	a.k = k;
	a.meta = meta;
	if (!k->num_blocks) {
		snprintf(err, errsz, "kernel %s has no body", k->name);
		return false;
	}
	const_data = sir_constant_data(m, &const_size);
	free(const_data);
	meta->num_sysvals = 0;
	meta->num_const_samplers = 0;
	memcpy(meta->reqd_wg_size, k->reqd_wg_size, sizeof(k->reqd_wg_size));
	if (!lay_out_params(&a, err, errsz))
		return false;
	lower_byval_params(&a, &b);
	var_off = place_private(&a);
	local_off = place_local(&a, m);
	n = k->num_values;
	/* One rewrite of the uses at the end: inlining leaves a VAR_ADDR
	 * per callee variable and call, and a whole-function rewrite per
	 * value was quadratic. */
	sirp_repl_init(&repl, k);
	for (v = 1; v < n && ok; v++) {
		enum sir_op op = k->values[v].op;
		sir_id r;

		if (op == SIR_OP_IMAGE_SAMPLE) {
			ok = lower_sampler(&a, v, err, errsz);
			continue;
		}
		if (op != SIR_OP_PARAM && op != SIR_OP_SYSVAL &&
		    op != SIR_OP_VAR_ADDR && op != SIR_OP_IMAGE_WORD)
			continue;
		r = lower_value(&a, m, var_off, local_off, &b, v, err, errsz);
		if (r == UINT32_MAX) {
			ok = false;
		} else if (r) {
			sirp_repl_set(&repl, v, r);
		}
	}
	sirp_repl_apply(&repl, k);
	/* The image words were placed instructions: now uniforms. */
	for (v = 1; v < n && ok; v++)
		if (k->values[v].op == SIR_OP_IMAGE_WORD)
			sir_remove(k, v);
	sir_compact_blocks(k);
	for (s = 0; s < SLB_SYSVAL_COUNT; s++) {
		if (!a.slot[s])
			continue;
		meta->sysvals[meta->num_sysvals].sysval = s;
		meta->sysvals[meta->num_sysvals++].offset = a.slot[s] - 1;
	}
	meta->uniform_bytes = align_up(a.offset, 16);
	free(var_off);
	free(local_off);
	return ok;
}
