/* SPDX-License-Identifier: MIT */
/*
 * OpenCL.std vector memory functions: vloadn/vstoren and the half-storage
 * family (vload_half, vstore_half with its rounding modes, the vloada_ and
 * vstorea_ forms). Half values live in memory only: they are loaded as
 * 16-bit integers and widened with FCONV, and stored the reverse way with
 * the rounding mode in FCONV's aux (round to nearest even by default).
 */
#include "spirv_internal.h"

#define FAIL(...) (spv_error(fc->c, __VA_ARGS__))

struct spv_vmem {
	bool store, half;
	bool aligned;                /* vloada_/vstorea_: vec3 as vec4 */
	uint32_t rounding;           /* enum sir_conv_flags for stores */
};

/* The family member x is, or false when it is not a memory function. */
static bool spv_vmem_kind(const struct spv_ext *x, struct spv_vmem *k)
{
	switch (x->num) {
	case OpenCLstd_Vloadn:
		*k = (struct spv_vmem){ .store = false };
		return true;
	case OpenCLstd_Vstoren:
		*k = (struct spv_vmem){ .store = true };
		return true;
	case OpenCLstd_Vload_half: case OpenCLstd_Vload_halfn:
		*k = (struct spv_vmem){ .half = true };
		return true;
	case OpenCLstd_Vloada_halfn:
		*k = (struct spv_vmem){ .half = true, .aligned = true };
		return true;
	case OpenCLstd_Vstore_half: case OpenCLstd_Vstore_halfn:
	case OpenCLstd_Vstore_half_r: case OpenCLstd_Vstore_halfn_r:
		*k = (struct spv_vmem){ .store = true, .half = true };
		return true;
	case OpenCLstd_Vstorea_halfn: case OpenCLstd_Vstorea_halfn_r:
		*k = (struct spv_vmem){ .store = true, .half = true,
					.aligned = true };
		return true;
	default:
		return false;
	}
}

/* Lowest set bit of a byte offset, 0 counting as aligned to anything. */
static uint32_t spv_offset_align(uint64_t off, uint32_t align)
{
	uint32_t x = (uint32_t)off, low = x & (~x + 1);

	return x && low < align ? low : align;
}

/*
 * The alignment of a pointer (SPIR-V id) that points into a packed struct,
 * or 0 when its access chains pass through none. vloadn and vstoren trust
 * their pointer to be aligned to the element (OpenCL C 6.12.7), which
 * holds for every naturally aligned object; but the address of a packed
 * struct's member has only the alignment its offset and the struct's
 * placement give (clang gives loads and stores of it that alignment), so
 * the access must not assume more. Casts keep what their source has.
 */
static uint32_t spv_packed_align(const struct spv_module *m, uint32_t id,
				 unsigned int depth)
{
	const uint32_t *w;
	const struct spv_type *pt, *t, *e;
	uint32_t wc, i, a, from, cur;
	uint64_t lanes[16];
	unsigned int comps;
	bool packed, element;

	if (!id || id >= m->bound || !m->ids[id].def || depth > SPV_MAX_NESTING)
		return 0;
	w = &m->words[m->ids[id].def];
	wc = w[0] >> 16;
	switch (m->ids[id].opcode) {
	case SpvOpBitcast: case SpvOpPtrCastToGeneric:
	case SpvOpGenericCastToPtr: case SpvOpCopyObject:
		return wc > 3 ? spv_packed_align(m, w[3], depth + 1) : 0;
	case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
		element = false;
		break;
	case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
		element = true;
		break;
	default:
		return 0;
	}
	if (wc < 4 || w[3] >= m->bound)
		return 0;
	pt = spv_type_of_id(m, m->ids[w[3]].type);
	if (!pt || pt->kind != SPV_T_PTR || !(t = spv_type_of_id(m, pt->elem)))
		return 0;
	from = spv_packed_align(m, w[3], depth + 1);
	packed = from != 0;
	a = from ? from : t->align ? t->align : 1;
	cur = pt->elem;
	for (i = 4; i < wc; i++) {
		if (!(t = spv_type_of_id(m, cur)))
			return 0;
		if (i == 4 && element) {
			if (spv_const_lanes(m, w[i], lanes, &comps))
				a = spv_offset_align(lanes[0] * t->size, a);
			else
				a = spv_offset_align(t->size, a);
		} else if (t->kind == SPV_T_STRUCT) {
			if (!spv_const_lanes(m, w[i], lanes, &comps) ||
			    lanes[0] >= t->count)
				return 0;
			packed |= t->packed;
			a = spv_offset_align(t->offsets[lanes[0]], a);
			cur = t->members[lanes[0]];
		} else if ((t->kind == SPV_T_ARRAY ||
			    t->kind == SPV_T_VECTOR) &&
			   (e = spv_type_of_id(m, t->elem))) {
			if (spv_const_lanes(m, w[i], lanes, &comps))
				a = spv_offset_align(lanes[0] * e->size, a);
			else
				a = spv_offset_align(e->size, a);
			cur = t->elem;
		} else {
			return 0;
		}
	}
	return packed ? a : 0;
}

bool spv_ext_memory(struct spv_fn *fc, const struct spv_ext *x, sir_id *out)
{
	struct sir_type i32 = sir_type_make(SIR_INT, 32, 1), vt, mt;
	struct spv_vmem k;
	sir_id data = 0, off, ptr, addr, v;
	unsigned int esize, stride, align, packed;
	uint32_t lits = x->wc - 5 - x->num_ids;

	if (!spv_vmem_kind(x, &k))
		return true;
	if (x->num_ids != (k.store ? 3u : 2u))
		return FAIL("OpenCL.std %s: %u operands", x->name, x->num_ids);
	if (k.store)
		data = x->a[0];
	off = x->a[k.store ? 1 : 0];
	ptr = x->a[k.store ? 2 : 1];
	vt = k.store ? fc->f->values[data].type : x->rt;
	if (vt.kind != SIR_INT && vt.kind != SIR_FLOAT)
		return FAIL("OpenCL.std %s of a non-numeric type", x->name);
	if (k.half && vt.kind != SIR_FLOAT)
		return FAIL("OpenCL.std %s: not a float value", x->name);
	if (!sir_type_eq(fc->f->values[off].type, i32) ||
	    fc->f->values[ptr].type.kind != SIR_PTR)
		return FAIL("OpenCL.std %s: bad offset or pointer", x->name);
	/* vloadn and vload_halfn name n; it must be the result's length. */
	if (!k.store && lits && x->w[x->wc - 1] != vt.comps)
		return FAIL("OpenCL.std %s: n = %u for a %u-lane result",
			    x->name, x->w[x->wc - 1], vt.comps);
	if (k.store && lits) {
		if (x->w[x->wc - 1] > SIR_CONV_RTN)
			return FAIL("OpenCL.std %s: bad rounding mode %u",
				    x->name, x->w[x->wc - 1]);
		/* SPIR-V's FPRoundingMode numbers are SIR's. */
		k.rounding = x->w[x->wc - 1];
	}
	mt = k.half ? sir_type_make(SIR_INT, 16, vt.comps) : vt;
	esize = mt.bits / 8;
	stride = vt.comps;
	align = esize;
	if (k.aligned) {
		stride = vt.comps == 3 ? 4 : vt.comps;
		align = esize * stride;
	}
	packed = spv_packed_align(fc->m, x->w[5 + (k.store ? 2 : 1)], 0);
	if (packed && packed < align)
		align = packed;
	addr = spv_bin(fc, SIR_OP_IMUL, i32, off,
		       sir_const_u64(fc->f, i32, esize * stride));
	addr = spv_bin(fc, SIR_OP_PTR_ADD, fc->f->values[ptr].type, ptr, addr);
	if (k.store) {
		if (k.half) {
			data = spv_un(fc, SIR_OP_FCONV,
				      sir_type_make(SIR_FLOAT, 16, vt.comps),
				      data);
			fc->f->values[data].aux = k.rounding;
			data = spv_un(fc, SIR_OP_BITCAST, mt, data);
		}
		v = spv_emit(fc, SIR_OP_STORE, sir_type_make(SIR_VOID, 0, 0),
			     (sir_id[]){ addr, data }, 2);
		fc->f->values[v].aux = align;
		*out = v;
		return true;
	}
	v = spv_un(fc, SIR_OP_LOAD, mt, addr);
	fc->f->values[v].aux = align;
	if (k.half) {
		v = spv_un(fc, SIR_OP_BITCAST,
			   sir_type_make(SIR_FLOAT, 16, vt.comps), v);
		v = spv_un(fc, SIR_OP_FCONV, vt, v);
	}
	*out = v;
	return true;
}
