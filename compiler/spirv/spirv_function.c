/* SPDX-License-Identifier: MIT */
/*
 * One SPIR-V function body to SIR. Blocks map one to one to SIR blocks
 * (OpSwitch adds a chain of compare-and-branch blocks); values are
 * translated in layout order, which SPIR-V's dominance rules make
 * definition-before-use except for phi operands and branch targets, which
 * are patched at the end. Constants and global addresses are created on
 * first use; pointers become byte addresses and access chains PTR_ADDs.
 */
#include "spirv_internal.h"

#include <stdlib.h>
#include <string.h>

#define FAIL(...) (spv_error(fc->c, __VA_ARGS__), (sir_id)0)

static const struct sir_type spv_void = { SIR_VOID, 0, 0, 0 };
static const struct sir_type spv_i32 = { SIR_INT, 32, 1, 0 };
static const struct sir_type spv_bool = { SIR_BOOL, 1, 1, 0 };

sir_id spv_emit(struct spv_fn *fc, enum sir_op op, struct sir_type t,
		const sir_id *srcs, uint32_t n)
{
	return sir_emit(fc->f, fc->cur, op, t, srcs, n);
}

sir_id spv_splat(struct spv_fn *fc, struct sir_type t, uint64_t bits)
{
	return sir_const_u64(fc->f, t, bits);
}

static bool spv_ty(struct spv_fn *fc, uint32_t type_id, struct sir_type *t)
{
	char msg[128];

	if (!spv_sir_type(fc->m, type_id, t, msg, sizeof(msg)))
		return spv_error(fc->c, "%s", msg);
	return true;
}

sir_id spv_prelude(struct spv_fn *fc, enum sir_op op, struct sir_type t,
		   const sir_id *srcs, uint32_t n)
{
	sir_id v = sir_value_new(fc->f, op, t, srcs, n);

	sir_block_insert(fc->f, 0, fc->prelude++, v);
	return v;
}

static sir_id spv_global_addr(struct spv_fn *fc, uint32_t id)
{
	const struct spv_module *m = fc->m;
	int32_t g;
	sir_id base, off;

	if (m->ids[id].builtin >= 0)
		return FAIL("built-in variable %s used other than by OpLoad",
			    m->ids[id].name ? m->ids[id].name : "?");
	g = spv_global_ref(fc->c, m, id);
	if (g < 0)
		return 0;
	if (fc->c->sm->globals[g].space == SIR_SPACE_LOCAL) {
		/*
		 * By name, not by an offset: each kernel lays out the __local
		 * variables it uses itself (sir_lower_abi), so a program's
		 * kernels do not share one layout of all of them.
		 */
		sir_id v = sir_value_new(fc->f, SIR_OP_VAR_ADDR,
					 sir_type_ptr(SIR_SPACE_LOCAL), NULL,
					 0);

		fc->f->values[v].aux = (uint32_t)g;
		fc->f->values[v].aux2 = 1;
		return v;
	}
	off = sir_const_u64(fc->f, spv_i32, fc->c->sm->globals[g].offset);
	base = sir_value_new(fc->f, SIR_OP_SYSVAL, spv_i32, NULL, 0);
	fc->f->values[base].aux = SIR_SYSVAL_CONSTANT_BASE;
	base = spv_prelude(fc, SIR_OP_BITCAST,
			   sir_type_ptr(SIR_SPACE_CONSTANT), &base, 1);
	return spv_prelude(fc, SIR_OP_PTR_ADD,
			   sir_type_ptr(SIR_SPACE_CONSTANT),
			   (sir_id[]){ base, off }, 2);
}

/* The SIR value of SPIR-V id (creating constants and addresses). */
static sir_id spv_value(struct spv_fn *fc, uint32_t id)
{
	const struct spv_module *m = fc->m;
	const struct spv_id *d;
	struct sir_type t;
	uint64_t lanes[16];
	unsigned int comps, i;
	sir_id v;

	if (!id || id >= m->bound || !m->ids[id].def)
		return FAIL("operand %%%u is not defined", id);
	if (fc->vals[id])
		return fc->vals[id];
	d = &m->ids[id];
	switch (d->opcode) {
	case SpvOpConstant: case SpvOpConstantTrue: case SpvOpConstantFalse:
	case SpvOpConstantComposite: case SpvOpConstantNull:
	case SpvOpSpecConstant: case SpvOpSpecConstantTrue:
	case SpvOpSpecConstantFalse: case SpvOpSpecConstantComposite:
		if (!spv_ty(fc, d->type, &t))
			return 0;
		if (!spv_const_lanes(m, id, lanes, &comps) || comps != t.comps)
			return FAIL("unsupported constant %%%u (not a scalar "
				    "or vector)", id);
		v = sir_value_new(fc->f, SIR_OP_CONST, t, NULL, 0);
		for (i = 0; i < comps; i++) {
			uint64_t x = lanes[i];

			if (t.kind == SIR_BOOL)
				x = x != 0;
			else if (t.bits < 64)
				x &= (1ull << t.bits) - 1;
			fc->f->values[v].imm.u64[i] = x;
		}
		break;
	case SpvOpConstantSampler:
		/* Its OpenCL C value (CLK_*): normalized 1, addressing mode
		 * SPIR-V's order times 2, filter nearest 0x10 / linear 0x20. */
		v = sir_const_u64(fc->f, sir_type_make(SIR_INT, 32, 1),
				  m->words[d->def + 4] |
				  m->words[d->def + 3] << 1 |
				  (m->words[d->def + 5] ? 0x20u : 0x10u));
		break;
	case SpvOpUndef:
		if (m->words[d->def] >> 16 < 3 || !spv_ty(fc, d->type, &t))
			return 0;
		if (t.kind == SIR_VOID)
			return FAIL("undefined value of type void");
		v = sir_value_new(fc->f, SIR_OP_UNDEF, t, NULL, 0);
		break;
	case SpvOpVariable:
		v = spv_global_addr(fc, id);
		break;
	default:
		return FAIL("%%%u is used before its definition or is not a "
			    "value", id);
	}
	fc->vals[id] = v;
	return v;
}

sir_id spv_operand(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
		   uint32_t i)
{
	if (i >= wc)
		return FAIL("%s: too few operands",
			    spv_op_name(w[0] & 0xffff));
	return spv_value(fc, w[i]);
}

static bool spv_add_edge(struct spv_fn *fc, uint32_t to_label)
{
	struct spv_edge *e;

	if (fc->num_edges == fc->cap_edges) {
		uint32_t cap = fc->cap_edges ? fc->cap_edges * 2 : 16;
		void *q = realloc(fc->edges, cap * sizeof(*fc->edges));

		if (!q)
			return spv_error(fc->c, "out of memory");
		fc->edges = q;
		fc->cap_edges = cap;
	}
	e = &fc->edges[fc->num_edges++];
	e->from_label = fc->cur_label;
	e->to_label = to_label;
	e->block = fc->cur;
	return true;
}

static bool spv_target(struct spv_fn *fc, uint32_t label, uint32_t *block)
{
	if (!label || label >= fc->m->bound || !fc->label_block[label])
		return spv_error(fc->c, "branch target %%%u is not a block of "
				 "the function", label);
	*block = fc->label_block[label] - 1;
	return spv_add_edge(fc, label);
}

static bool spv_branch(struct spv_fn *fc, uint32_t label)
{
	sir_id br = spv_emit(fc, SIR_OP_BR, spv_void, NULL, 0);

	return spv_target(fc, label, &fc->f->values[br].targets[0]);
}

/* OpSwitch as a chain of compare-and-branch blocks, one per target. */
static bool spv_switch(struct spv_fn *fc, const uint32_t *w, uint32_t wc)
{
	sir_id sel = spv_operand(fc, w, wc, 1);
	struct sir_type st;
	uint32_t lw, npairs, i, j, def;

	if (!sel || wc < 3)
		return sel ? spv_error(fc->c, "OpSwitch: too few words") : 0;
	st = fc->f->values[sel].type;
	if (st.kind != SIR_INT || st.comps != 1)
		return spv_error(fc->c, "OpSwitch selector is not an integer");
	lw = st.bits > 32 ? 2 : 1;
	if ((wc - 3) % (lw + 1))
		return spv_error(fc->c, "OpSwitch: bad literal count");
	npairs = (wc - 3) / (lw + 1);
	def = w[2];
	for (i = 0; i < npairs; i++) {
		uint32_t target = w[3 + i * (lw + 1) + lw];
		sir_id cond = 0, cbr;
		uint32_t next;

		if (target == def)
			continue;
		for (j = 0; j < i; j++)
			if (w[3 + j * (lw + 1) + lw] == target)
				break;
		if (j < i)
			continue;    /* this target's chain block exists */
		for (j = i; j < npairs; j++) {
			const uint32_t *lit = &w[3 + j * (lw + 1)];
			uint64_t v = lit[0];
			sir_id c;

			if (lit[lw] != target)
				continue;
			if (lw == 2)
				v |= (uint64_t)lit[1] << 32;
			c = spv_emit(fc, SIR_OP_IEQ, spv_bool,
				     (sir_id[]){ sel, spv_splat(fc, st, v) },
				     2);
			cond = cond ? spv_emit(fc, SIR_OP_BOR, spv_bool,
					       (sir_id[]){ cond, c }, 2) : c;
		}
		cbr = spv_emit(fc, SIR_OP_CBR, spv_void, &cond, 1);
		if (!spv_target(fc, target, &fc->f->values[cbr].targets[0]))
			return false;
		next = sir_block_add(fc->f);
		fc->f->values[cbr].targets[1] = next;
		fc->cur = next;
	}
	return spv_branch(fc, def);
}

/* Byte offset of an access chain as an i32 value (0: none). */
static sir_id spv_index_i32(struct spv_fn *fc, sir_id idx)
{
	struct sir_type t = fc->f->values[idx].type;

	if (t.kind != SIR_INT || t.comps != 1)
		return FAIL("access chain index is not an integer scalar");
	if (t.bits == 32)
		return idx;
	return spv_emit(fc, t.bits > 32 ? SIR_OP_TRUNC : SIR_OP_SEXT, spv_i32,
			&idx, 1);
}

/* index * size: into *const_off when constant, else as *part. */
static bool spv_scaled(struct spv_fn *fc, uint32_t index_id, uint32_t size,
		       uint64_t *const_off, sir_id *part)
{
	uint64_t lanes[16];
	unsigned int comps;
	sir_id idx;

	if (spv_const_lanes(fc->m, index_id, lanes, &comps) && comps == 1) {
		const struct spv_type *it = spv_type_of_id(fc->m,
					fc->m->ids[index_id].type);
		int64_t v = (int64_t)lanes[0];

		if (it && it->width < 64)
			v = (int64_t)(lanes[0] << (64 - it->width)) >>
			    (64 - it->width);
		*const_off += (uint64_t)v * size;
		*part = SIR_NONE;
		return true;
	}
	idx = spv_value(fc, index_id);
	if (!idx || !(idx = spv_index_i32(fc, idx)))
		return false;
	*part = size == 1 ? idx :
		spv_emit(fc, SIR_OP_IMUL, spv_i32,
			 (sir_id[]){ idx, spv_splat(fc, spv_i32, size) }, 2);
	return true;
}

static sir_id spv_access_chain(struct spv_fn *fc, const uint32_t *w,
			       uint32_t wc, bool has_element)
{
	const struct spv_module *m = fc->m;
	sir_id base = spv_operand(fc, w, wc, 3), dyn = 0, part = 0;
	const struct spv_type *pt, *t;
	uint64_t coff = 0;
	uint32_t i, cur;
	struct sir_type rt;

	if (!base || !spv_ty(fc, w[1], &rt))
		return 0;
	pt = spv_type_of_id(m, m->ids[w[3]].type);
	if (!pt || pt->kind != SPV_T_PTR || rt.kind != SIR_PTR ||
	    !sir_type_eq(rt, fc->f->values[base].type))
		return FAIL("access chain on a non-pointer or across address "
			    "spaces");
	cur = pt->elem;
	for (i = 4; i < wc; i++) {
		t = spv_type_of_id(m, cur);
		if (!t)
			return FAIL("access chain through a non-type");
		if (i == 4 && has_element) {
			if (!t->size)
				return FAIL("access chain element of an "
					    "unsized type");
			if (!spv_scaled(fc, w[i], t->size, &coff, &part))
				return 0;
		} else if (t->kind == SPV_T_STRUCT) {
			uint64_t lanes[16];
			unsigned int comps;

			if (!spv_const_lanes(m, w[i], lanes, &comps) ||
			    lanes[0] >= t->count)
				return FAIL("struct index is not a constant "
					    "member number");
			coff += t->offsets[lanes[0]];
			cur = t->members[lanes[0]];
			continue;
		} else if (t->kind == SPV_T_ARRAY || t->kind == SPV_T_VECTOR) {
			const struct spv_type *e = spv_type_of_id(m, t->elem);

			if (!spv_scaled(fc, w[i], e->size, &coff, &part))
				return 0;
			cur = t->elem;
		} else {
			return FAIL("access chain indexes a scalar");
		}
		if (part)
			dyn = dyn ? spv_emit(fc, SIR_OP_IADD, spv_i32,
					     (sir_id[]){ dyn, part }, 2)
				  : part;
	}
	if ((uint32_t)coff) {
		sir_id c = spv_splat(fc, spv_i32, (uint32_t)coff);

		dyn = dyn ? spv_emit(fc, SIR_OP_IADD, spv_i32,
				     (sir_id[]){ dyn, c }, 2) : c;
	}
	if (!dyn)
		return base;
	return spv_emit(fc, SIR_OP_PTR_ADD, rt, (sir_id[]){ base, dyn }, 2);
}

static sir_id spv_sysval(struct spv_fn *fc, int32_t builtin,
			 struct sir_type rt)
{
	enum sir_sysval sv;
	unsigned int comps = 3;
	sir_id v, off;
	const char *name;

	switch (builtin) {
	case SpvBuiltInGlobalInvocationId: sv = SIR_SYSVAL_GLOBAL_ID; break;
	case SpvBuiltInLocalInvocationId: sv = SIR_SYSVAL_LOCAL_ID; break;
	case SpvBuiltInWorkgroupId: sv = SIR_SYSVAL_GROUP_ID; break;
	case SpvBuiltInNumWorkgroups: sv = SIR_SYSVAL_NUM_GROUPS; break;
	case SpvBuiltInWorkgroupSize:
	case SpvBuiltInEnqueuedWorkgroupSize: sv = SIR_SYSVAL_LOCAL_SIZE; break;
	case SpvBuiltInGlobalSize: sv = SIR_SYSVAL_GLOBAL_SIZE; break;
	case SpvBuiltInGlobalOffset: sv = SIR_SYSVAL_GLOBAL_OFFSET; break;
	case SpvBuiltInWorkDim: sv = SIR_SYSVAL_WORK_DIM; comps = 1; break;
	default:
		name = spv_builtin_name((uint32_t)builtin);
		return FAIL("unsupported built-in %s", name ? name : "?");
	}
	if (!sir_type_eq(rt, sir_type_make(SIR_INT, 32, comps)))
		return FAIL("built-in %s loaded with the wrong type",
			    spv_builtin_name((uint32_t)builtin));
	v = sir_value_new(fc->f, SIR_OP_SYSVAL, rt, NULL, 0);
	fc->f->values[v].aux = sv;
	if (sv != SIR_SYSVAL_GLOBAL_ID)
		return v;
	/* SPIR-V's global id includes the offset; SIR's does not. */
	off = sir_value_new(fc->f, SIR_OP_SYSVAL, rt, NULL, 0);
	fc->f->values[off].aux = SIR_SYSVAL_GLOBAL_OFFSET;
	return spv_emit(fc, SIR_OP_IADD, rt, (sir_id[]){ v, off }, 2);
}

/* Alignment from memory operands at w[i], else the type's own. */
static uint32_t spv_mem_align(const uint32_t *w, uint32_t wc, uint32_t i,
			      struct sir_type t)
{
	uint32_t size = sir_type_size(t);

	if (i + 1 < wc && (w[i] & SpvMemoryAccessAlignedMask) &&
	    w[i + 1] && !(w[i + 1] & (w[i + 1] - 1)) && w[i + 1] <= 256)
		return w[i + 1];
	return size && !(size & (size - 1)) ? size : 4;
}

static sir_id spv_load(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
		       struct sir_type rt)
{
	const struct spv_module *m = fc->m;
	sir_id ptr, v;

	if (wc < 4)
		return FAIL("OpLoad: too few words");
	if (w[3] && w[3] < m->bound && m->ids[w[3]].opcode == SpvOpVariable &&
	    m->ids[w[3]].builtin >= 0)
		return spv_sysval(fc, m->ids[w[3]].builtin, rt);
	ptr = spv_operand(fc, w, wc, 3);
	if (!ptr)
		return 0;
	if (rt.kind == SIR_VOID)
		return FAIL("OpLoad of void");
	v = spv_emit(fc, SIR_OP_LOAD, rt, &ptr, 1);
	fc->f->values[v].aux = spv_mem_align(w, wc, 4, rt);
	return v;
}

static bool spv_store(struct spv_fn *fc, sir_id ptr, sir_id val,
		      uint32_t align)
{
	sir_id st = spv_emit(fc, SIR_OP_STORE, spv_void,
			     (sir_id[]){ ptr, val }, 2);

	fc->f->values[st].aux = align;
	return true;
}

/* OpCopyMemory(Sized): unrolled loads and stores of a constant size. */
static bool spv_copy_memory(struct spv_fn *fc, const uint32_t *w,
			    uint32_t wc, bool sized)
{
	sir_id dst = spv_operand(fc, w, wc, 1), src = spv_operand(fc, w, wc, 2);
	uint32_t size, align = 1, chunk, off, mi = sized ? 4 : 3;
	uint64_t lanes[16];
	unsigned int comps;
	struct sir_type ct;

	if (!dst || !src)
		return false;
	if (sized) {
		if (wc < 4 || !spv_const_lanes(fc->m, w[3], lanes, &comps))
			return spv_error(fc->c, "OpCopyMemorySized with a "
					 "size that is not a constant");
		if (lanes[0] > 4096)
			return spv_error(fc->c, "memory copy of %llu bytes is "
					 "too large",
					 (unsigned long long)lanes[0]);
		size = (uint32_t)lanes[0];
	} else {
		const struct spv_type *pt = spv_type_of_id(fc->m,
					fc->m->ids[w[1]].type);
		const struct spv_type *t = pt && pt->kind == SPV_T_PTR ?
			spv_type_of_id(fc->m, pt->elem) : NULL;

		if (!t || !t->size || t->size > 4096)
			return spv_error(fc->c, "OpCopyMemory of an unsized "
					 "or too large type");
		size = t->size;
		align = t->align;
	}
	if (mi + 1 < wc && (w[mi] & SpvMemoryAccessAlignedMask))
		align = w[mi + 1];
	chunk = align >= 4 && size % 4 == 0 ? 4 :
		align >= 2 && size % 2 == 0 ? 2 : 1;
	ct = sir_type_make(SIR_INT, chunk * 8, 1);
	if (fc->f->values[dst].type.kind != SIR_PTR ||
	    fc->f->values[src].type.kind != SIR_PTR)
		return spv_error(fc->c, "memory copy between non-pointers");
	for (off = 0; off < size; off += chunk) {
		sir_id o = spv_splat(fc, spv_i32, off), s = src, d = dst, v;

		if (off) {
			s = spv_emit(fc, SIR_OP_PTR_ADD,
				     fc->f->values[src].type,
				     (sir_id[]){ src, o }, 2);
			d = spv_emit(fc, SIR_OP_PTR_ADD,
				     fc->f->values[dst].type,
				     (sir_id[]){ dst, o }, 2);
		}
		v = spv_emit(fc, SIR_OP_LOAD, ct, &s, 1);
		fc->f->values[v].aux = chunk;
		spv_store(fc, d, v, chunk);
	}
	return true;
}

static sir_id spv_local_var(struct spv_fn *fc, const uint32_t *w,
			    uint32_t wc)
{
	const struct spv_module *m = fc->m;
	const struct spv_type *pt = spv_type_of_id(m, w[1]), *t;
	struct sir_local_var var = { 0 };
	sir_id v;

	if (wc < 4 || w[3] != SpvStorageClassFunction)
		return FAIL("function-scope variable %%%u is not in the "
			    "Function storage class", w[2]);
	t = pt && pt->kind == SPV_T_PTR ? spv_type_of_id(m, pt->elem) : NULL;
	if (!t || !t->size)
		return FAIL("variable %%%u has no sized type", w[2]);
	var.size = t->size;
	var.align = m->ids[w[2]].align > t->align ? m->ids[w[2]].align
						   : t->align;
	if (var.align > 256 || (var.align & (var.align - 1)))
		return FAIL("variable %%%u: bad alignment", w[2]);
	var.is_array = t->kind == SPV_T_ARRAY || t->kind == SPV_T_STRUCT;
	if (var.is_array) {
		var.elem = sir_type_make(SIR_INT, 8, 1);
		if (t->kind == SPV_T_ARRAY) {
			char msg[128];
			struct sir_type et;

			if (spv_sir_type(m, t->elem, &et, msg, sizeof(msg)))
				var.elem = et;
		}
	} else if (!spv_ty(fc, pt->elem, &var.elem)) {
		return 0;
	}
	v = sir_value_new(fc->f, SIR_OP_VAR_ADDR,
			  sir_type_ptr(SIR_SPACE_PRIVATE), NULL, 0);
	fc->f->values[v].aux = sir_var_add(fc->f, &var);
	if (wc > 4) {
		sir_id init = spv_operand(fc, w, wc, 4);

		if (!init)
			return 0;
		spv_store(fc, v, init, var.align);
	}
	return v;
}

/* Integer width/signedness change, saturating when sat is set. */
static sir_id spv_int_convert(struct spv_fn *fc, sir_id x, struct sir_type rt,
			      bool src_signed, bool dst_signed, bool sat)
{
	struct sir_type st = fc->f->values[x].type;
	unsigned int d = rt.bits;

	if (st.kind != SIR_INT || rt.kind != SIR_INT || st.comps != rt.comps)
		return FAIL("integer conversion between non-integers");
	if (sat && src_signed && !dst_signed)
		x = spv_emit(fc, SIR_OP_SMAX, st,
			     (sir_id[]){ x, spv_splat(fc, st, 0) }, 2);
	if (sat && d <= st.bits) {
		uint64_t hi = dst_signed ? (1ull << (d - 1)) - 1 :
			      d == 64 ? ~0ull : (1ull << d) - 1;

		if (!src_signed && (d < st.bits || dst_signed)) {
			x = spv_emit(fc, SIR_OP_UMIN, st,
				     (sir_id[]){ x, spv_splat(fc, st, hi) }, 2);
		} else if (src_signed && d < st.bits) {
			x = spv_emit(fc, SIR_OP_SMIN, st,
				     (sir_id[]){ x, spv_splat(fc, st, hi) }, 2);
			if (dst_signed)
				x = spv_emit(fc, SIR_OP_SMAX, st, (sir_id[]){
					x, spv_splat(fc, st, ~hi) }, 2);
		}
	}
	if (d == st.bits)
		return x;
	if (d < st.bits)
		return spv_emit(fc, SIR_OP_TRUNC, rt, &x, 1);
	return spv_emit(fc, src_signed && !sat ? SIR_OP_SEXT : SIR_OP_ZEXT,
			rt, &x, 1);
}

static sir_id spv_convert(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
			  uint32_t op, struct sir_type rt)
{
	const struct spv_id *d = &fc->m->ids[w[2]];
	sir_id x = spv_operand(fc, w, wc, 3), v;
	uint32_t rounding = d->fp_rounding < 0 ? SIR_CONV_RTE :
		d->fp_rounding == SpvFPRoundingModeRTZ ? SIR_CONV_RTZ :
		d->fp_rounding == SpvFPRoundingModeRTP ? SIR_CONV_RTP :
		d->fp_rounding == SpvFPRoundingModeRTN ? SIR_CONV_RTN :
		SIR_CONV_RTE;
	enum sir_op so;
	struct sir_type st;

	if (!x)
		return 0;
	st = fc->f->values[x].type;
	switch (op) {
	case SpvOpSConvert:
		return spv_int_convert(fc, x, rt, true, true, d->saturated);
	case SpvOpUConvert:
		return spv_int_convert(fc, x, rt, false, false, d->saturated);
	case SpvOpSatConvertSToU:
		return spv_int_convert(fc, x, rt, true, false, true);
	case SpvOpSatConvertUToS:
		return spv_int_convert(fc, x, rt, false, true, true);
	case SpvOpConvertFToS:
	case SpvOpConvertFToU:
		if (st.kind != SIR_FLOAT)
			return FAIL("float conversion of a non-float");
		/* Explicit rounding first; the conversion truncates. */
		if (d->fp_rounding >= 0 && rounding != SIR_CONV_RTZ)
			x = spv_emit(fc, rounding == SIR_CONV_RTE ?
				     SIR_OP_FRINT : rounding == SIR_CONV_RTP ?
				     SIR_OP_FCEIL : SIR_OP_FFLOOR, st, &x, 1);
		v = spv_emit(fc, op == SpvOpConvertFToS ? SIR_OP_F2S :
			     SIR_OP_F2U, rt, &x, 1);
		fc->f->values[v].aux = SIR_CONV_RTZ |
				       (d->saturated ? SIR_CONV_SAT : 0);
		return v;
	case SpvOpConvertSToF:
	case SpvOpConvertUToF:
	case SpvOpFConvert:
		so = op == SpvOpConvertSToF ? SIR_OP_S2F :
		     op == SpvOpConvertUToF ? SIR_OP_U2F : SIR_OP_FCONV;
		if (so == SIR_OP_FCONV && sir_type_eq(st, rt))
			return x;
		v = spv_emit(fc, so, rt, &x, 1);
		fc->f->values[v].aux = rounding;
		return v;
	case SpvOpConvertPtrToU:
		if (st.kind != SIR_PTR || rt.kind != SIR_INT || rt.comps != 1)
			return FAIL("OpConvertPtrToU: bad types");
		v = spv_emit(fc, SIR_OP_BITCAST, spv_i32, &x, 1);
		return rt.bits == 32 ? v : spv_int_convert(fc, v, rt, false,
							   false, false);
	case SpvOpConvertUToPtr:
		if (st.kind != SIR_INT || st.comps != 1 || rt.kind != SIR_PTR)
			return FAIL("OpConvertUToPtr: bad types");
		if (st.bits != 32)
			x = spv_int_convert(fc, x, spv_i32, false, false,
					    false);
		return spv_emit(fc, SIR_OP_BITCAST, rt, &x, 1);
	default: /* OpBitcast */
		if (st.kind == SIR_PTR && rt.kind == SIR_PTR) {
			if (!sir_type_eq(st, rt))
				return FAIL("pointer cast across address "
					    "spaces");
			return x;
		}
		return spv_emit(fc, SIR_OP_BITCAST, rt, &x, 1);
	}
}

enum { SPV_SWAP = 1, SPV_NEG = 2 };

static const struct spv_binop {
	uint16_t spv;
	uint8_t sir, flags;
} spv_binops[] = {
	{ SpvOpIAdd, SIR_OP_IADD, 0 }, { SpvOpISub, SIR_OP_ISUB, 0 },
	{ SpvOpIMul, SIR_OP_IMUL, 0 }, { SpvOpUDiv, SIR_OP_UDIV, 0 },
	{ SpvOpSDiv, SIR_OP_SDIV, 0 }, { SpvOpUMod, SIR_OP_UREM, 0 },
	{ SpvOpSRem, SIR_OP_SREM, 0 }, { SpvOpSMod, SIR_OP_SMOD, 0 },
	{ SpvOpFAdd, SIR_OP_FADD, 0 }, { SpvOpFSub, SIR_OP_FSUB, 0 },
	{ SpvOpFMul, SIR_OP_FMUL, 0 }, { SpvOpFDiv, SIR_OP_FDIV, 0 },
	{ SpvOpShiftLeftLogical, SIR_OP_SHL, 0 },
	{ SpvOpShiftRightLogical, SIR_OP_LSHR, 0 },
	{ SpvOpShiftRightArithmetic, SIR_OP_ASHR, 0 },
	{ SpvOpBitwiseOr, SIR_OP_OR, 0 }, { SpvOpBitwiseXor, SIR_OP_XOR, 0 },
	{ SpvOpBitwiseAnd, SIR_OP_AND, 0 },
	{ SpvOpLogicalOr, SIR_OP_BOR, 0 }, { SpvOpLogicalAnd, SIR_OP_BAND, 0 },
	{ SpvOpLogicalEqual, SIR_OP_BEQ, 0 },
	{ SpvOpLogicalNotEqual, SIR_OP_BNE, 0 },
	{ SpvOpIEqual, SIR_OP_IEQ, 0 }, { SpvOpINotEqual, SIR_OP_INE, 0 },
	{ SpvOpULessThan, SIR_OP_ULT, 0 }, { SpvOpSLessThan, SIR_OP_SLT, 0 },
	{ SpvOpULessThanEqual, SIR_OP_ULE, 0 },
	{ SpvOpSLessThanEqual, SIR_OP_SLE, 0 },
	{ SpvOpUGreaterThan, SIR_OP_ULT, SPV_SWAP },
	{ SpvOpSGreaterThan, SIR_OP_SLT, SPV_SWAP },
	{ SpvOpUGreaterThanEqual, SIR_OP_ULE, SPV_SWAP },
	{ SpvOpSGreaterThanEqual, SIR_OP_SLE, SPV_SWAP },
	{ SpvOpFOrdEqual, SIR_OP_FEQ, 0 },
	{ SpvOpFUnordNotEqual, SIR_OP_FNE, 0 },
	{ SpvOpFOrdLessThan, SIR_OP_FLT, 0 },
	{ SpvOpFOrdLessThanEqual, SIR_OP_FLE, 0 },
	{ SpvOpFOrdGreaterThan, SIR_OP_FLT, SPV_SWAP },
	{ SpvOpFOrdGreaterThanEqual, SIR_OP_FLE, SPV_SWAP },
	{ SpvOpFUnordLessThan, SIR_OP_FLE, SPV_SWAP | SPV_NEG },
	{ SpvOpFUnordLessThanEqual, SIR_OP_FLT, SPV_SWAP | SPV_NEG },
	{ SpvOpFUnordGreaterThan, SIR_OP_FLE, SPV_NEG },
	{ SpvOpFUnordGreaterThanEqual, SIR_OP_FLT, SPV_NEG },
	{ SpvOpUnordered, SIR_OP_FUNORD, 0 },
	{ SpvOpOrdered, SIR_OP_FUNORD, SPV_NEG },
};

static sir_id spv_binary(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
			 const struct spv_binop *b, struct sir_type rt)
{
	sir_id a = spv_operand(fc, w, wc, 3), c = spv_operand(fc, w, wc, 4);
	sir_id v;

	if (!a || !c)
		return 0;
	if (b->flags & SPV_SWAP) {
		sir_id t = a;

		a = c;
		c = t;
	}
	v = spv_emit(fc, (enum sir_op)b->sir, rt, (sir_id[]){ a, c }, 2);
	if (b->flags & SPV_NEG)
		v = spv_emit(fc, SIR_OP_BNOT, rt, &v, 1);
	return v;
}

/* Float constants of the width of t: infinity and the least normal. */
static sir_id spv_fconst(struct spv_fn *fc, struct sir_type t, bool inf)
{
	if (t.bits == 64)
		return spv_splat(fc, t, inf ? 0x7FF0000000000000ull :
					      0x0010000000000000ull);
	return spv_splat(fc, t, t.bits == 16 ? (inf ? 0x7c00u : 0x0400u) :
				inf ? 0x7f800000u : 0x00800000u);
}

static sir_id spv_fclass(struct spv_fn *fc, uint32_t op, sir_id x,
			 struct sir_type rt)
{
	struct sir_type t = fc->f->values[x].type, it;
	sir_id a, b;

	if (t.kind != SIR_FLOAT)
		return FAIL("%s of a non-float", spv_op_name(op));
	switch (op) {
	case SpvOpIsNan:
		return spv_emit(fc, SIR_OP_FUNORD, rt, (sir_id[]){ x, x }, 2);
	case SpvOpSignBitSet:
		it = sir_type_make(SIR_INT, t.bits, t.comps);
		a = spv_emit(fc, SIR_OP_BITCAST, it, &x, 1);
		return spv_emit(fc, SIR_OP_SLT, rt,
				(sir_id[]){ a, spv_splat(fc, it, 0) }, 2);
	default:
		break;
	}
	a = spv_emit(fc, SIR_OP_FABS, t, &x, 1);
	if (op == SpvOpIsInf)
		return spv_emit(fc, SIR_OP_FEQ, rt,
				(sir_id[]){ a, spv_fconst(fc, t, true) }, 2);
	b = spv_emit(fc, SIR_OP_FLT, rt,
		     (sir_id[]){ a, spv_fconst(fc, t, true) }, 2);
	if (op == SpvOpIsFinite)
		return b;
	a = spv_emit(fc, SIR_OP_FLE, rt,
		     (sir_id[]){ spv_fconst(fc, t, false), a }, 2);
	return spv_emit(fc, SIR_OP_BAND, rt, (sir_id[]){ a, b }, 2);
}

/* Element of a vector at a run-time index: a chain of selects. */
/*
 * get_global_id(d) and the like are component d of a built-in vector, and
 * OpenCL defines them for any d: past the third dimension sizes and counts
 * are 1, ids and offsets 0. Returns that value for an id loaded from such
 * a built-in, -1 for any other id.
 */
static int spv_builtin_default(struct spv_fn *fc, uint32_t id)
{
	const struct spv_module *m = fc->m;
	uint32_t ptr;

	if (!id || id >= m->bound || m->ids[id].opcode != SpvOpLoad)
		return -1;
	ptr = m->words[m->ids[id].def + 3];
	if (ptr >= m->bound || m->ids[ptr].opcode != SpvOpVariable)
		return -1;
	switch (m->ids[ptr].builtin) {
	case SpvBuiltInGlobalSize: case SpvBuiltInWorkgroupSize:
	case SpvBuiltInEnqueuedWorkgroupSize: case SpvBuiltInNumWorkgroups:
		return 1;
	case SpvBuiltInGlobalInvocationId: case SpvBuiltInLocalInvocationId:
	case SpvBuiltInWorkgroupId: case SpvBuiltInGlobalOffset:
		return 0;
	default:
		return -1;
	}
}

static sir_id spv_extract_dynamic(struct spv_fn *fc, sir_id vec, sir_id idx,
				  struct sir_type rt, int fallback)
{
	struct sir_type vt = fc->f->values[vec].type;
	struct sir_type it = fc->f->values[idx].type;
	sir_id r, e, c;
	unsigned int i;

	if (it.kind != SIR_INT || it.comps != 1 || vt.comps < 2)
		return FAIL("dynamic vector index: bad operands");
	r = spv_emit(fc, SIR_OP_EXTRACT, rt, &vec, 1);
	for (i = 1; i < vt.comps; i++) {
		e = spv_emit(fc, SIR_OP_EXTRACT, rt, &vec, 1);
		fc->f->values[e].aux = i;
		c = spv_emit(fc, SIR_OP_IEQ, spv_bool,
			     (sir_id[]){ idx, spv_splat(fc, it, i) }, 2);
		r = spv_emit(fc, SIR_OP_SELECT, rt, (sir_id[]){ c, e, r }, 3);
	}
	if (fallback < 0)
		return r;
	c = spv_emit(fc, SIR_OP_ULT, spv_bool,
		     (sir_id[]){ idx, spv_splat(fc, it, vt.comps) }, 2);
	return spv_emit(fc, SIR_OP_SELECT, rt,
			(sir_id[]){ c, r, spv_splat(fc, rt, (uint64_t)fallback) },
			3);
}

static sir_id spv_insert_dynamic(struct spv_fn *fc, sir_id vec, sir_id val,
				 sir_id idx, struct sir_type rt)
{
	struct sir_type it = fc->f->values[idx].type;
	sir_id r = vec, ins, c;
	unsigned int i;

	if (it.kind != SIR_INT || it.comps != 1)
		return FAIL("dynamic vector index: bad operands");
	for (i = 0; i < rt.comps; i++) {
		ins = spv_emit(fc, SIR_OP_INSERT, rt, (sir_id[]){ vec, val }, 2);
		fc->f->values[ins].aux = i;
		c = spv_emit(fc, SIR_OP_IEQ, spv_bool,
			     (sir_id[]){ idx, spv_splat(fc, it, i) }, 2);
		r = spv_emit(fc, SIR_OP_SELECT, rt, (sir_id[]){ c, ins, r }, 3);
	}
	return r;
}

static sir_id spv_vector_op(struct spv_fn *fc, const uint32_t *w,
			    uint32_t wc, uint32_t op, struct sir_type rt)
{
	sir_id a, b, v;
	uint32_t i;

	switch (op) {
	case SpvOpCompositeExtract:
		a = spv_operand(fc, w, wc, 3);
		if (!a)
			return 0;
		if (wc != 5 || fc->f->values[a].type.comps < 2)
			return FAIL("unsupported aggregate value (only vector "
				    "components can be extracted)");
		if (w[4] >= fc->f->values[a].type.comps) {
			int fallback = spv_builtin_default(fc, w[3]);

			if (fallback < 0)
				return FAIL("OpCompositeExtract: component %u "
					    "of a %u-component vector", w[4],
					    fc->f->values[a].type.comps);
			return spv_splat(fc, rt, (uint64_t)fallback);
		}
		v = spv_emit(fc, SIR_OP_EXTRACT, rt, &a, 1);
		fc->f->values[v].aux = w[4];
		return v;
	case SpvOpCompositeInsert:
		a = spv_operand(fc, w, wc, 3);
		b = spv_operand(fc, w, wc, 4);
		if (!a || !b)
			return 0;
		if (wc != 6)
			return FAIL("unsupported aggregate value");
		v = spv_emit(fc, SIR_OP_INSERT, rt, (sir_id[]){ b, a }, 2);
		fc->f->values[v].aux = w[5];
		return v;
	case SpvOpCompositeConstruct: {
		sir_id srcs[16];

		if (wc < 4 || wc - 3 > 16 || rt.comps < 2)
			return FAIL("unsupported composite construction");
		for (i = 3; i < wc; i++)
			if (!(srcs[i - 3] = spv_operand(fc, w, wc, i)))
				return 0;
		return spv_emit(fc, SIR_OP_VEC, rt, srcs, wc - 3);
	}
	case SpvOpVectorShuffle:
		a = spv_operand(fc, w, wc, 3);
		b = spv_operand(fc, w, wc, 4);
		if (!a || !b)
			return 0;
		if (wc - 5 != rt.comps)
			return FAIL("OpVectorShuffle: %u lanes for %u "
				    "components", wc - 5, rt.comps);
		for (i = 5; i < wc; i++)
			if (w[i] != 0xffffffffu &&
			    w[i] >= (uint32_t)fc->f->values[a].type.comps +
				    fc->f->values[b].type.comps)
				return FAIL("OpVectorShuffle: lane %u out of "
					    "range", w[i]);
		v = spv_emit(fc, SIR_OP_SHUFFLE, rt, (sir_id[]){ a, b }, 2);
		for (i = 5; i < wc; i++)
			fc->f->values[v].imm.u64[i - 5] =
				w[i] == 0xffffffffu ? 0 : w[i];
		return v;
	case SpvOpVectorExtractDynamic:
		a = spv_operand(fc, w, wc, 3);
		b = spv_operand(fc, w, wc, 4);
		return a && b ? spv_extract_dynamic(fc, a, b, rt,
				spv_builtin_default(fc, w[3])) : 0;
	case SpvOpVectorInsertDynamic:
		a = spv_operand(fc, w, wc, 3);
		b = spv_operand(fc, w, wc, 4);
		v = spv_operand(fc, w, wc, 5);
		return a && b && v ? spv_insert_dynamic(fc, a, b, v, rt) : 0;
	case SpvOpVectorTimesScalar: {
		sir_id lanes[16];

		a = spv_operand(fc, w, wc, 3);
		b = spv_operand(fc, w, wc, 4);
		if (!a || !b)
			return 0;
		for (i = 0; i < rt.comps && i < 16; i++)
			lanes[i] = b;
		b = spv_emit(fc, SIR_OP_VEC, rt, lanes, rt.comps);
		return spv_emit(fc, SIR_OP_FMUL, rt, (sir_id[]){ a, b }, 2);
	}
	default: { /* OpDot */
		struct sir_type vt;

		a = spv_operand(fc, w, wc, 3);
		b = spv_operand(fc, w, wc, 4);
		if (!a || !b)
			return 0;
		vt = fc->f->values[a].type;
		if (vt.bits == 32 && vt.comps >= 2 && vt.comps <= 4)
			return spv_emit(fc, SIR_OP_FDOT, rt,
					(sir_id[]){ a, b }, 2);
		v = spv_emit(fc, SIR_OP_FMUL, vt, (sir_id[]){ a, b }, 2);
		a = spv_emit(fc, SIR_OP_EXTRACT, rt, &v, 1);
		for (i = 1; i < vt.comps; i++) {
			b = spv_emit(fc, SIR_OP_EXTRACT, rt, &v, 1);
			fc->f->values[b].aux = i;
			a = spv_emit(fc, SIR_OP_FADD, rt, (sir_id[]){ a, b }, 2);
		}
		return a;
	}
	}
}

static bool spv_const_u32(struct spv_fn *fc, uint32_t id, uint32_t *out)
{
	uint64_t lanes[16];
	unsigned int comps;

	if (!spv_const_lanes(fc->m, id, lanes, &comps))
		return spv_error(fc->c, "%%%u must be a constant", id);
	*out = (uint32_t)lanes[0];
	return true;
}

static uint32_t spv_fences(uint32_t semantics)
{
	return (semantics & SpvMemorySemanticsWorkgroupMemoryMask ?
		SIR_FENCE_LOCAL : 0) |
	       (semantics & SpvMemorySemanticsCrossWorkgroupMemoryMask ?
		SIR_FENCE_GLOBAL : 0);
}

static sir_id spv_atomic(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
			 uint32_t op, struct sir_type rt)
{
	enum sir_atomic kind;
	sir_id srcs[3], v;
	uint32_t n = 2, val = 6;

	switch (op) {
	case SpvOpAtomicIAdd: kind = SIR_ATOMIC_ADD; break;
	case SpvOpAtomicISub: kind = SIR_ATOMIC_SUB; break;
	case SpvOpAtomicExchange: kind = SIR_ATOMIC_XCHG; break;
	case SpvOpAtomicSMin: kind = SIR_ATOMIC_SMIN; break;
	case SpvOpAtomicSMax: kind = SIR_ATOMIC_SMAX; break;
	case SpvOpAtomicUMin: kind = SIR_ATOMIC_UMIN; break;
	case SpvOpAtomicUMax: kind = SIR_ATOMIC_UMAX; break;
	case SpvOpAtomicAnd: kind = SIR_ATOMIC_AND; break;
	case SpvOpAtomicOr: kind = SIR_ATOMIC_OR; break;
	case SpvOpAtomicXor: kind = SIR_ATOMIC_XOR; break;
	case SpvOpAtomicIIncrement: kind = SIR_ATOMIC_INC; n = 1; break;
	case SpvOpAtomicIDecrement: kind = SIR_ATOMIC_DEC; n = 1; break;
	case SpvOpAtomicLoad: kind = SIR_ATOMIC_LOAD; n = 1; break;
	case SpvOpAtomicCompareExchange:
	case SpvOpAtomicCompareExchangeWeak:
		/* Pointer, Memory, Equal, Unequal, Value, Comparator. */
		kind = SIR_ATOMIC_CMPXCHG;
		n = 3;
		val = 7;
		break;
	default: /* OpAtomicStore: no result */
		if (!(srcs[0] = spv_operand(fc, w, wc, 1)) ||
		    !(srcs[1] = spv_operand(fc, w, wc, 4)))
			return 0;
		if (sir_type_eq(fc->f->values[srcs[1]].type,
				sir_type_make(SIR_FLOAT, 32, 1)))
			srcs[1] = spv_emit(fc, SIR_OP_BITCAST,
					   sir_type_make(SIR_INT, 32, 1),
					   &srcs[1], 1);
		if (fc->f->values[srcs[1]].type.kind != SIR_INT ||
		    fc->f->values[srcs[1]].type.bits != 32 ||
		    fc->f->values[srcs[1]].type.comps != 1)
			return FAIL("unsupported atomic store (only 32-bit "
				    "atomics are supported)");
		v = spv_emit(fc, SIR_OP_ATOMIC, spv_void, srcs, 2);
		fc->f->values[v].aux2 = SIR_ATOMIC_STORE;
		return v;
	}
	if (!(srcs[0] = spv_operand(fc, w, wc, 3)))
		return 0;
	if (n > 1 && !(srcs[1] = spv_operand(fc, w, wc, val)))
		return 0;
	if (n > 2 && !(srcs[2] = spv_operand(fc, w, wc, val + 1)))
		return 0;
	if (rt.kind == SIR_FLOAT && rt.bits == 32 && rt.comps == 1 &&
	    (kind == SIR_ATOMIC_XCHG || kind == SIR_ATOMIC_LOAD)) {
		/*
		 * float atomic_xchg (OpenCL 1.2 section 6.12.11) moves bits:
		 * the exchange of the int with the same bits.
		 */
		struct sir_type it = sir_type_make(SIR_INT, 32, 1);

		if (n > 1)
			srcs[1] = spv_emit(fc, SIR_OP_BITCAST, it, &srcs[1], 1);
		v = spv_emit(fc, SIR_OP_ATOMIC, it, srcs, n);
		fc->f->values[v].aux2 = kind;
		return spv_emit(fc, SIR_OP_BITCAST, rt, &v, 1);
	}
	if (rt.kind != SIR_INT || rt.comps != 1)
		return FAIL("unsupported atomic on a non-integer type");
	/* 64-bit: cl_khr_int64_base/extended_atomics; no 64-bit load or
	 * store (OpenCL 1.2 has neither). */
	if (rt.bits != 32 && (rt.bits != 64 || kind == SIR_ATOMIC_LOAD))
		return FAIL("unsupported %u-bit atomic (only 32- and 64-bit "
			    "atomics are supported)", rt.bits);
	v = spv_emit(fc, SIR_OP_ATOMIC, rt, srcs, n);
	fc->f->values[v].aux2 = kind;
	return v;
}

static bool spv_terminator(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
			   uint32_t op)
{
	sir_id v;

	switch (op) {
	case SpvOpBranch:
		return wc >= 2 ? spv_branch(fc, w[1]) :
		       spv_error(fc->c, "OpBranch: too few words");
	case SpvOpBranchConditional:
		if (!(v = spv_operand(fc, w, wc, 1)) || wc < 4)
			return v ? spv_error(fc->c, "OpBranchConditional: too "
					     "few words") : false;
		v = spv_emit(fc, SIR_OP_CBR, spv_void, &v, 1);
		return spv_target(fc, w[2], &fc->f->values[v].targets[0]) &&
		       spv_target(fc, w[3], &fc->f->values[v].targets[1]);
	case SpvOpSwitch:
		return spv_switch(fc, w, wc);
	case SpvOpReturnValue:
		if (!(v = spv_operand(fc, w, wc, 1)))
			return false;
		spv_emit(fc, SIR_OP_RET, spv_void, &v, 1);
		return true;
	case SpvOpUnreachable:
		if (fc->f->ret.kind != SIR_VOID) {
			v = sir_value_new(fc->f, SIR_OP_UNDEF, fc->f->ret,
					  NULL, 0);
			spv_emit(fc, SIR_OP_RET, spv_void, &v, 1);
			return true;
		}
		/* fall through */
	default:
		spv_emit(fc, SIR_OP_RET, spv_void, NULL, 0);
		return true;
	}
}

/* One instruction with a result (or a store, barrier...) in a block. */
static bool spv_instruction(struct spv_fn *fc, size_t at)
{
	const struct spv_module *m = fc->m;
	const uint32_t *w = &m->words[at];
	uint32_t wc = w[0] >> 16, op = w[0] & 0xffff, i, sem = 0;
	struct sir_type rt = spv_void;
	sir_id v = 0, a;
	int32_t callee;

	if (op == SpvOpPtrCastToGeneric || op == SpvOpGenericCastToPtr ||
	    op == SpvOpGenericCastToPtrExplicit) {
		/*
		 * OpenCL C 1.2 has no generic address space; clang-15 makes
		 * one only for wait_group_events()'s event list, which is
		 * not dereferenced (spirv_async.c). The generic pointer
		 * stands for its source; any other use of it (a load, a
		 * phi, a call) is refused by the type check there.
		 */
		if (!(v = spv_operand(fc, w, wc, 3)))
			return false;
		goto done;
	}
	if (spv_op_flags(op) & SPV_OP_HAS_TYPE) {
		if (op != SpvOpVariable && !spv_ty(fc, w[1], &rt))
			return false;
	}
	for (i = 0; i < sizeof(spv_binops) / sizeof(spv_binops[0]); i++)
		if (spv_binops[i].spv == op)
			break;
	if (i < sizeof(spv_binops) / sizeof(spv_binops[0])) {
		v = spv_binary(fc, w, wc, &spv_binops[i], rt);
		goto done;
	}
	switch (op) {
	case SpvOpLine: case SpvOpNoLine: case SpvOpNop:
	case SpvOpLifetimeStart: case SpvOpLifetimeStop:
	case SpvOpSelectionMerge: case SpvOpLoopMerge:
		return true;
	case SpvOpFOrdNotEqual:
	case SpvOpFUnordEqual:
		if (!(a = spv_operand(fc, w, wc, 3)) ||
		    !(v = spv_operand(fc, w, wc, 4)))
			return false;
		/* Unordered-or-equal; its negation is ordered-not-equal. */
		v = spv_emit(fc, SIR_OP_BOR, rt, (sir_id[]){
			spv_emit(fc, SIR_OP_FUNORD, rt, (sir_id[]){ a, v }, 2),
			spv_emit(fc, SIR_OP_FEQ, rt, (sir_id[]){ a, v }, 2) },
			2);
		if (op == SpvOpFOrdNotEqual)
			v = spv_emit(fc, SIR_OP_BNOT, rt, &v, 1);
		break;
	case SpvOpSNegate: case SpvOpFNegate: case SpvOpNot:
	case SpvOpLogicalNot: case SpvOpAny: case SpvOpAll:
	case SpvOpCopyObject:
		if (!(a = spv_operand(fc, w, wc, 3)))
			return false;
		v = spv_emit(fc, op == SpvOpSNegate ? SIR_OP_INEG :
			     op == SpvOpFNegate ? SIR_OP_FNEG :
			     op == SpvOpNot ? SIR_OP_NOT :
			     op == SpvOpLogicalNot ? SIR_OP_BNOT :
			     op == SpvOpAny ? SIR_OP_ANY :
			     op == SpvOpAll ? SIR_OP_ALL : SIR_OP_COPY,
			     rt, &a, 1);
		break;
	case SpvOpBitCount:
		if (!(a = spv_operand(fc, w, wc, 3)))
			return false;
		if (!sir_type_eq(fc->f->values[a].type, rt))
			return spv_error(fc->c, "unsupported OpBitCount with "
					 "a result type unlike its operand's");
		v = spv_emit(fc, SIR_OP_POPCOUNT, rt, &a, 1);
		break;
	case SpvOpIsNan: case SpvOpIsInf: case SpvOpIsFinite:
	case SpvOpIsNormal: case SpvOpSignBitSet:
		if (!(a = spv_operand(fc, w, wc, 3)))
			return false;
		v = spv_fclass(fc, op, a, rt);
		break;
	case SpvOpSelect: {
		sir_id s[3];

		for (i = 0; i < 3; i++)
			if (!(s[i] = spv_operand(fc, w, wc, 3 + i)))
				return false;
		v = spv_emit(fc, SIR_OP_SELECT, rt, s, 3);
		break;
	}
	case SpvOpSConvert: case SpvOpUConvert: case SpvOpFConvert:
	case SpvOpConvertFToS: case SpvOpConvertFToU: case SpvOpConvertSToF:
	case SpvOpConvertUToF: case SpvOpSatConvertSToU:
	case SpvOpSatConvertUToS: case SpvOpBitcast:
	case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
		v = spv_convert(fc, w, wc, op, rt);
		break;
	case SpvOpCompositeExtract: case SpvOpCompositeInsert:
	case SpvOpCompositeConstruct: case SpvOpVectorShuffle:
	case SpvOpVectorExtractDynamic: case SpvOpVectorInsertDynamic:
	case SpvOpVectorTimesScalar: case SpvOpDot:
		v = spv_vector_op(fc, w, wc, op, rt);
		break;
	case SpvOpLoad:
		v = spv_load(fc, w, wc, rt);
		break;
	case SpvOpStore:
		if (!(a = spv_operand(fc, w, wc, 1)) ||
		    !(v = spv_operand(fc, w, wc, 2)))
			return false;
		return spv_store(fc, a, v, spv_mem_align(w, wc, 3,
					fc->f->values[v].type));
	case SpvOpCopyMemory:
	case SpvOpCopyMemorySized:
		return spv_copy_memory(fc, w, wc, op == SpvOpCopyMemorySized);
	case SpvOpVariable:
		v = spv_local_var(fc, w, wc);
		break;
	case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
		v = spv_access_chain(fc, w, wc, false);
		break;
	case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
		v = spv_access_chain(fc, w, wc, true);
		break;
	case SpvOpFunctionCall: {
		sir_id *args;

		if (wc < 4)
			return spv_error(fc->c, "OpFunctionCall: too few words");
		callee = spv_function_ref(fc->c, m, w[3]);
		if (callee < 0)
			return false;
		args = calloc(wc - 3, sizeof(*args));
		if (!args)
			return spv_error(fc->c, "out of memory");
		for (i = 4; i < wc; i++)
			if (!(args[i - 4] = spv_operand(fc, w, wc, i)))
				break;
		if (i == wc) {
			v = spv_emit(fc, SIR_OP_CALL, rt, args, wc - 4);
			fc->f->values[v].aux = (uint32_t)callee;
		}
		free(args);
		break;
	}
	case SpvOpExtInst:
		if (wc < 5 || w[3] != m->ext_opencl || !m->ext_opencl)
			return spv_error(fc->c, "OpExtInst of an unknown "
					 "instruction set");
		if (!spv_ext_inst(fc, w, wc, rt, &v))
			return false;
		break;
	case SpvOpControlBarrier:
	case SpvOpMemoryBarrier:
		i = op == SpvOpControlBarrier ? 3 : 2;
		if (wc <= i || !spv_const_u32(fc, w[i], &sem))
			return wc <= i ? spv_error(fc->c, "barrier: too few "
						   "words") : false;
		v = spv_emit(fc, SIR_OP_BARRIER, spv_void, NULL, 0);
		fc->f->values[v].aux = spv_fences(sem);
		fc->f->values[v].aux2 = op == SpvOpControlBarrier;
		return true;
	case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicExchange:
	case SpvOpAtomicSMin: case SpvOpAtomicSMax: case SpvOpAtomicUMin:
	case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
	case SpvOpAtomicXor: case SpvOpAtomicIIncrement:
	case SpvOpAtomicIDecrement: case SpvOpAtomicLoad:
	case SpvOpAtomicCompareExchange: case SpvOpAtomicStore:
	case SpvOpAtomicCompareExchangeWeak:
		v = spv_atomic(fc, w, wc, op, rt);
		if (op == SpvOpAtomicStore)
			return v != 0;
		break;
	case SpvOpGroupAsyncCopy:
		v = spv_group_async_copy(fc, w, wc);
		break;
	case SpvOpGroupWaitEvents:
		return spv_group_wait_events(fc, w, wc);
	case SpvOpImageQuerySize: case SpvOpImageQuerySizeLod:
	case SpvOpImageQueryFormat: case SpvOpImageQueryOrder:
	case SpvOpSampledImage: case SpvOpImageSampleExplicitLod:
	case SpvOpImageRead:
		if (!spv_image_inst(fc, w, wc, op, rt, &v))
			return false;
		break;
	case SpvOpImageWrite:
		return spv_image_inst(fc, w, wc, op, rt, &v);
	case SpvOpUndef:
		if (rt.kind == SIR_VOID)
			return spv_error(fc->c, "undefined value of type void");
		v = sir_value_new(fc->f, SIR_OP_UNDEF, rt, NULL, 0);
		break;
	default:
		return spv_error(fc->c, "unsupported SPIR-V opcode %s",
				 spv_op_name(op) ? spv_op_name(op) : "?");
	}
done:
	if (!v)
		return false;
	if (spv_op_flags(op) & SPV_OP_HAS_RESULT)
		fc->vals[w[2]] = v;
	return true;
}

static bool spv_patch_phis(struct spv_fn *fc)
{
	uint32_t p, j, e;

	for (p = 0; p < fc->num_phis; p += 2) {
		const uint32_t *w = &fc->m->words[fc->phis[p]];
		uint32_t label = fc->phis[p + 1], n = ((w[0] >> 16) - 3) / 2;
		struct sir_instr *phi;
		sir_id v;

		for (j = 0; j < n; j++) {
			if (!(v = spv_value(fc, w[3 + 2 * j])))
				return false;
			for (e = 0; e < fc->num_edges; e++)
				if (fc->edges[e].from_label == w[4 + 2 * j] &&
				    fc->edges[e].to_label == label)
					break;
			if (e == fc->num_edges)
				return spv_error(fc->c, "OpPhi %%%u names %%%u, "
						 "which is not a predecessor",
						 w[2], w[4 + 2 * j]);
			phi = &fc->f->values[fc->vals[w[2]]];
			phi->srcs[j] = v;
			phi->phi_blocks[j] = fc->edges[e].block;
		}
	}
	return true;
}

static bool spv_phi(struct spv_fn *fc, size_t at)
{
	const uint32_t *w = &fc->m->words[at];
	uint32_t wc = w[0] >> 16;
	struct sir_type rt;
	void *q;

	if (wc < 5 || (wc - 3) % 2 || !spv_ty(fc, w[1], &rt))
		return wc < 5 || (wc - 3) % 2 ?
		       spv_error(fc->c, "OpPhi: bad word count") : false;
	if (rt.kind == SIR_VOID)
		return spv_error(fc->c, "OpPhi of type void");
	if (fc->num_phis + 2 > fc->cap_phis) {
		uint32_t cap = fc->cap_phis ? fc->cap_phis * 2 : 16;

		if (!(q = realloc(fc->phis, cap * sizeof(*fc->phis))))
			return spv_error(fc->c, "out of memory");
		fc->phis = q;
		fc->cap_phis = cap;
	}
	fc->phis[fc->num_phis++] = (uint32_t)at;
	fc->phis[fc->num_phis++] = fc->cur_label;
	fc->vals[w[2]] = spv_emit(fc, SIR_OP_PHI, rt, NULL, (wc - 3) / 2);
	return true;
}

/* The function's blocks as the words lay them out. */
struct spv_blocks {
	uint32_t n;
	size_t *at;                  /* OpLabel's word offset; at[n]: end */
	uint32_t *order;             /* the order to convert them in */
};

static bool is_terminator(uint32_t op)
{
	return op == SpvOpBranch || op == SpvOpBranchConditional ||
	       op == SpvOpSwitch || op == SpvOpReturn ||
	       op == SpvOpReturnValue || op == SpvOpUnreachable ||
	       op == SpvOpKill;
}

/* Successor blocks (layout indices) of block i, from its terminator. */
static uint32_t block_succs(const struct spv_fn *fc,
			    const struct spv_blocks *bl, uint32_t i,
			    uint32_t **out, uint32_t *cap)
{
	const struct spv_module *m = fc->m;
	const uint32_t *w = NULL;
	uint32_t wc = 0, n = 0, lw = 1, first, step;

	for (size_t at = bl->at[i]; at < bl->at[i + 1];
	     at += m->words[at] >> 16)
		if (is_terminator(m->words[at] & 0xffff)) {
			w = &m->words[at];
			wc = w[0] >> 16;
		}
	if (!w)
		return 0;
	switch (w[0] & 0xffff) {
	case SpvOpBranch:
		first = 1, step = 1;
		wc = wc < 2 ? wc : 2;
		break;
	case SpvOpBranchConditional:
		first = 2, step = 1;
		wc = wc < 4 ? wc : 4;
		break;
	case SpvOpSwitch:
		/* Default, then (literal, label) pairs; 64-bit selectors
		 * take two literal words. */
		if (wc > 1 && w[1] < m->bound && m->ids[w[1]].type &&
		    m->ids[w[1]].type < m->bound) {
			const struct spv_id *t = &m->ids[m->ids[w[1]].type];

			if (t->opcode == SpvOpTypeInt && t->def &&
			    m->words[t->def + 2] > 32)
				lw = 2;
		}
		first = 2, step = 1;
		break;
	default:
		return 0;
	}
	for (uint32_t k = first; k < wc; k += step) {
		uint32_t label = w[k], b;

		if ((w[0] & 0xffff) == SpvOpSwitch && k > 2) {
			/* k at a pair's first literal: its label follows. */
			if (k + lw >= wc)
				break;
			label = w[k + lw];
			k += lw;
		}
		if (!label || label >= m->bound || !fc->label_block[label])
			continue;
		b = fc->label_block[label] - 1;
		if (n == *cap) {
			uint32_t *q = realloc(*out, (*cap * 2 + 4) *
					      sizeof(**out));

			if (!q)
				return UINT32_MAX;
			*out = q;
			*cap = *cap * 2 + 4;
		}
		(*out)[n++] = b;
	}
	return n;
}

/*
 * The order to convert the blocks in: the layout, except that a block
 * laid out before its immediate dominator waits until that is converted
 * (then follows it, with the others waiting on it, in layout order).
 * SPIR-V requires blocks to come after their dominators, but llvm-spirv
 * keeps LLVM's order, where a rotated loop's exit may come before the
 * loop: its values would be used before their definition was read.
 * Dominators by Cooper, Harvey and Kennedy's iteration over reverse
 * postorder; blocks no path reaches keep their place.
 */
static bool block_order(const struct spv_fn *fc, struct spv_blocks *bl)
{
	uint32_t n = bl->n, *rpo = NULL, *rpo_num = NULL, *idom = NULL;
	uint32_t *pred_first = NULL, *preds = NULL, *succ = NULL, cap = 0;
	uint32_t *stack = NULL, *next = NULL, *waiting = NULL, *wait_next;
	uint32_t *wait_tail;
	uint32_t num_rpo = 0, sp = 0, k, e, total = 0, *fill = NULL;
	bool *emitted = NULL, ok = false, changed = true;
	const uint32_t none = UINT32_MAX;

	rpo = calloc(n + 1, sizeof(*rpo));
	rpo_num = calloc(n + 1, sizeof(*rpo_num));
	idom = calloc(n + 1, sizeof(*idom));
	pred_first = calloc(n + 2, sizeof(*pred_first));
	stack = calloc(n + 1, sizeof(*stack));
	next = calloc(n + 1, sizeof(*next));
	waiting = calloc(3 * (n + 1), sizeof(*waiting));
	emitted = calloc(n + 1, sizeof(*emitted));
	fill = calloc(n + 1, sizeof(*fill));
	if (!rpo || !rpo_num || !idom || !pred_first || !stack || !next ||
	    !waiting || !emitted || !fill)
		goto out;
	wait_next = waiting + n + 1;
	wait_tail = wait_next + n + 1;
	/* Predecessor lists. */
	for (uint32_t b = 0; b < n; b++) {
		uint32_t ns = block_succs(fc, bl, b, &succ, &cap);

		if (ns == UINT32_MAX)
			goto out;
		for (k = 0; k < ns; k++)
			pred_first[succ[k] + 1]++;
	}
	for (uint32_t b = 0; b < n; b++)
		pred_first[b + 1] += pred_first[b];
	total = pred_first[n];
	preds = calloc(total + 1, sizeof(*preds));
	if (!preds)
		goto out;
	memcpy(fill, pred_first, n * sizeof(*fill));
	for (uint32_t b = 0; b < n; b++) {
		uint32_t ns = block_succs(fc, bl, b, &succ, &cap);

		if (ns == UINT32_MAX)
			goto out;
		for (k = 0; k < ns; k++)
			preds[fill[succ[k]]++] = b;
	}
	/* Postorder from the entry, by an explicit stack. */
	for (uint32_t b = 0; b < n; b++)
		rpo_num[b] = none;
	if (n) {
		stack[sp++] = 0;
		rpo_num[0] = 0;      /* on the stack */
	}
	while (sp) {
		uint32_t b = stack[sp - 1];
		uint32_t ns = block_succs(fc, bl, b, &succ, &cap);

		if (ns == UINT32_MAX)
			goto out;
		if (next[b] < ns) {
			uint32_t c = succ[next[b]++];

			if (rpo_num[c] == none) {
				rpo_num[c] = 0;
				stack[sp++] = c;
			}
			continue;
		}
		rpo[num_rpo++] = b;
		sp--;
	}
	/* rpo[] holds postorder; number blocks in reverse postorder. */
	for (k = 0; k < num_rpo / 2; k++) {
		uint32_t t = rpo[k];

		rpo[k] = rpo[num_rpo - 1 - k];
		rpo[num_rpo - 1 - k] = t;
	}
	for (k = 0; k < num_rpo; k++)
		rpo_num[rpo[k]] = k;
	for (uint32_t b = 0; b < n; b++)
		idom[b] = none;
	if (n)
		idom[0] = 0;
	while (changed) {
		changed = false;
		for (k = 1; k < num_rpo; k++) {
			uint32_t b = rpo[k], d = none;

			for (e = pred_first[b]; e < pred_first[b + 1]; e++) {
				uint32_t p = preds[e];

				if (idom[p] == none)
					continue;
				if (d == none) {
					d = p;
					continue;
				}
				while (d != p) {
					while (rpo_num[d] > rpo_num[p])
						d = idom[d];
					while (rpo_num[p] > rpo_num[d])
						p = idom[p];
				}
			}
			if (d != idom[b]) {
				idom[b] = d;
				changed = true;
			}
		}
	}
	/* Layout order, each block after its immediate dominator. */
	for (uint32_t b = 0; b < n; b++)
		waiting[b] = wait_next[b] = wait_tail[b] = none;
	total = 0;
	for (uint32_t b = 0; b < n; b++) {
		uint32_t d = idom[b];

		if (b && d != none && !emitted[d]) {
			/* b waits for d, after those already waiting. */
			if (waiting[d] == none)
				waiting[d] = b;
			else
				wait_next[wait_tail[d]] = b;
			wait_tail[d] = b;
			continue;
		}
		sp = 0;
		stack[sp++] = b;
		while (sp) {
			uint32_t x = stack[--sp], c, cnt = 0;

			bl->order[total++] = x;
			emitted[x] = true;
			/* Its waiting blocks next, in layout order. */
			for (c = waiting[x]; c != none; c = wait_next[c])
				cnt++;
			sp += cnt;
			k = sp;
			for (c = waiting[x]; c != none; c = wait_next[c])
				stack[--k] = c;
		}
	}
	ok = total == n;
out:
	free(rpo);
	free(rpo_num);
	free(idom);
	free(pred_first);
	free(preds);
	free(succ);
	free(stack);
	free(next);
	free(waiting);
	free(emitted);
	free(fill);
	return ok;
}

/* Converts the block whose OpLabel is at begin; end: the next one's, or
 * fn_end. */
static bool spv_block(struct spv_fn *fc, size_t begin, size_t end,
		      size_t fn_end)
{
	const struct spv_module *m = fc->m;
	bool in_block = true;
	size_t at = begin;

	fc->cur_label = m->words[at + 1];
	fc->cur = fc->label_block[fc->cur_label] - 1;
	for (at += m->words[at] >> 16; at < end; at += m->words[at] >> 16) {
		uint32_t op = m->words[at] & 0xffff;

		if (op == SpvOpFunctionEnd)
			break;
		if (!in_block)
			return spv_error(fc->c, "%s outside a block",
					 spv_op_name(op));
		if (is_terminator(op)) {
			if (op == SpvOpKill)
				return spv_error(fc->c, "unsupported SPIR-V "
						 "opcode OpKill");
			if (!spv_terminator(fc, &m->words[at],
					    m->words[at] >> 16, op))
				return false;
			in_block = false;
		} else if (op == SpvOpPhi) {
			if (!spv_phi(fc, at))
				return false;
		} else if (!spv_instruction(fc, at)) {
			return false;
		}
	}
	if (in_block)
		return end < fn_end ?
		       spv_error(fc->c, "block before %%%u has no terminator",
				 m->words[end + 1]) :
		       spv_error(fc->c, "last block has no terminator");
	return true;
}

static bool spv_body(struct spv_fn *fc, const struct spv_function *fn)
{
	const struct spv_module *m = fc->m;
	struct spv_blocks bl = { 0 };
	uint32_t param = 0, k = 0;
	bool ok = false;
	size_t at;

	for (at = fn->begin; at < fn->end; at += m->words[at] >> 16) {
		uint32_t op = m->words[at] & 0xffff;

		if (op == SpvOpLabel) {
			fc->label_block[m->words[at + 1]] = sir_block_add(fc->f)
							    + 1;
			bl.n++;
		} else if (op == SpvOpFunctionParameter) {
			sir_id v;

			if (param >= fc->f->num_params)
				return spv_error(fc->c, "more parameters than "
						 "the function type has");
			v = sir_value_new(fc->f, SIR_OP_PARAM,
					  fc->f->params[param].type, NULL, 0);

			fc->f->values[v].aux = param++;
			fc->vals[m->words[at + 2]] = v;
		}
	}
	bl.at = calloc(bl.n + 1, sizeof(*bl.at));
	bl.order = calloc(bl.n + 1, sizeof(*bl.order));
	if (!bl.at || !bl.order) {
		spv_error(fc->c, "out of memory");
		goto out;
	}
	for (at = fn->begin; at < fn->end; at += m->words[at] >> 16) {
		uint32_t op = m->words[at] & 0xffff;

		if (op == SpvOpLabel) {
			bl.at[k++] = at;
		} else if (!k && op != SpvOpFunction &&
			   op != SpvOpFunctionParameter &&
			   op != SpvOpFunctionEnd) {
			spv_error(fc->c, "%s outside a block",
				  spv_op_name(op));
			goto out;
		}
	}
	bl.at[bl.n] = fn->end;
	if (!block_order(fc, &bl)) {
		spv_error(fc->c, "out of memory");
		goto out;
	}
	for (k = 0; k < bl.n; k++) {
		uint32_t i = bl.order[k];

		if (!spv_block(fc, bl.at[i], bl.at[i + 1], fn->end))
			goto out;
	}
	ok = spv_patch_phis(fc);
out:
	free(bl.at);
	free(bl.order);
	return ok;
}

bool spv_convert_function(struct spv_conv *c, const struct spv_module *m,
			  uint32_t func_index, struct sir_function *f)
{
	struct spv_fn fc = { .c = c, .m = m, .f = f };
	bool ok;

	fc.vals = calloc(m->bound, sizeof(*fc.vals));
	fc.label_block = calloc(m->bound, sizeof(*fc.label_block));
	ok = fc.vals && fc.label_block ?
	     spv_body(&fc, &m->functions[func_index]) &&
	     spv_byval_copies(&fc, &m->functions[func_index]) :
	     spv_error(c, "out of memory");
	if (ok)
		sir_compute_preds(f);
	free(fc.vals);
	free(fc.label_block);
	free(fc.edges);
	free(fc.phis);
	return ok;
}
