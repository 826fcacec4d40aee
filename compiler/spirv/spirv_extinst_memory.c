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

bool spv_ext_memory(struct spv_fn *fc, const struct spv_ext *x, sir_id *out)
{
	struct sir_type i32 = sir_type_make(SIR_INT, 32, 1), vt, mt;
	struct spv_vmem k;
	sir_id data = 0, off, ptr, addr, v;
	unsigned int esize, stride, align;
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
