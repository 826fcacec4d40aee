/* SPDX-License-Identifier: MIT */
/*
 * OpenCL C's image built-ins (OpenCL 1.2 section 6.12.14) as llvm-spirv-15
 * writes them: the queries OpImageQuerySize(Lod), OpImageQueryFormat and
 * OpImageQueryOrder, and the reads and writes OpSampledImage,
 * OpImageSampleExplicitLod, OpImageRead and OpImageWrite.
 *
 * Midgard has no texture-size operation (Mesa turns txs into a sysval
 * load), so every query reads the image words the runtime writes for an
 * image argument (compiler/README.md, "Images and samplers: the launch
 * ABI"): each becomes SIR_OP_IMAGE_WORD, which sir_lower_abi turns into a
 * uniform read.
 *
 * A write is SIR_OP_IMAGE_STORE, which the back end makes an ST_IMAGE on
 * the image's attribute: the coordinates as 16-bit x | y << 16, and the
 * layer of a 2D array or the z of a 3D image in a second word (a 1D
 * array's layer is its y). The texel's type is the built-in's: float
 * (write_imagef), or the SignExtend / ZeroExtend image operand llvm-spirv
 * gives write_imagei / write_imageui.
 *
 * A read without a sampler (OpImageRead) is SIR_OP_IMAGE_LOAD, an
 * LD_IMAGE on the attribute with the same coordinates.
 *
 * A sampled read (OpSampledImage, then OpImageSampleExplicitLod at LOD
 * 0) is SIR_OP_IMAGE_SAMPLE, a texture operation: OpSampledImage's
 * result is the pair (image, sampler) as a 2-lane vector the sample takes
 * apart; integer coordinates become floats (OpenCL requires unnormalised
 * coordinates with them, and nearest filtering gives the texel x);
 * the layer of an array goes to the fourth coordinate. A constant
 * sampler (OpConstantSampler) is its CLK_* value, which sir_lower_abi
 * turns into a sampler index after the sampler arguments.
 */
#include "spirv_internal.h"

#include "../binary/slb_binary.h"

/* llvm-spirv subtracts the first OpenCL enumerant from the query results
 * (SPIR-V's ImageChannelDataType and ImageChannelOrder count from 0) and
 * the OpenCL C code adds it back. */
#define CL_SNORM_INT8 0x10D0u
#define CL_R 0x10B0u

static const struct sir_type image_i32 = { SIR_INT, 32, 1, 0 };

static sir_id image_word(struct spv_fn *fc, sir_id image,
			 enum slb_image_word word)
{
	sir_id v = spv_emit(fc, SIR_OP_IMAGE_WORD, image_i32, &image, 1);

	fc->f->values[v].aux = word;
	return v;
}

/* The SPIR-V image type of operand word i, or NULL after an error. */
static const struct spv_type *image_type(struct spv_fn *fc,
					 const uint32_t *w, uint32_t wc,
					 uint32_t i)
{
	const struct spv_type *t;

	if (i >= wc || w[i] >= fc->m->bound)
		return spv_error(fc->c, "%s: too few words",
				 spv_op_name(w[0] & 0xffff)), NULL;
	t = spv_type_of_id(fc->m, fc->m->ids[w[i]].type);
	if (!t || (t->kind != SPV_T_IMAGE && t->kind != SPV_T_SAMPLED_IMAGE))
		return spv_error(fc->c, "%s: operand %%%u is not an image",
				 spv_op_name(w[0] & 0xffff), w[i]), NULL;
	return t;
}

/* OpImageQuerySize(Lod): the dimensions, then the array size. */
static sir_id query_size(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
			 struct sir_type rt)
{
	const struct spv_type *t = image_type(fc, w, wc, 3);
	enum slb_image_word words[3];
	sir_id image, comps[3];
	unsigned int n = 0, i;

	if (!t || !(image = spv_operand(fc, w, wc, 3)))
		return 0;
	words[n++] = SLB_IMAGE_WIDTH;
	if (t->image_dim == SpvDim2D || t->image_dim == SpvDim3D)
		words[n++] = SLB_IMAGE_HEIGHT;
	if (t->image_dim == SpvDim3D)
		words[n++] = SLB_IMAGE_DEPTH;
	if (t->image_arrayed)
		words[n++] = SLB_IMAGE_ARRAY_SIZE;
	if (rt.kind != SIR_INT || rt.bits != 32 || rt.comps != n)
		return spv_error(fc->c, "%s: result is not %u 32-bit integers",
				 spv_op_name(w[0] & 0xffff), n), (sir_id)0;
	for (i = 0; i < n; i++)
		comps[i] = image_word(fc, image, words[i]);
	return n == 1 ? comps[0] : spv_emit(fc, SIR_OP_VEC, rt, comps, n);
}

/* OpImageQueryFormat / Order: the OpenCL value minus its first one. */
static sir_id query_format(struct spv_fn *fc, const uint32_t *w,
			   uint32_t wc, struct sir_type rt, bool order)
{
	sir_id image, v;

	if (!image_type(fc, w, wc, 3) || !(image = spv_operand(fc, w, wc, 3)))
		return 0;
	if (!sir_type_eq(rt, image_i32))
		return spv_error(fc->c, "%s: result is not a 32-bit integer",
				 spv_op_name(w[0] & 0xffff)), (sir_id)0;
	v = image_word(fc, image, order ? SLB_IMAGE_CHANNEL_ORDER :
					  SLB_IMAGE_CHANNEL_TYPE);
	return spv_emit(fc, SIR_OP_ISUB, rt, (sir_id[]){
		v, sir_const_u64(fc->f, rt, order ? CL_R : CL_SNORM_INT8) }, 2);
}

/* Component i of an integer scalar or vector, 0 past its end. */
static sir_id coord_comp(struct spv_fn *fc, sir_id c, unsigned int i)
{
	struct sir_type t = fc->f->values[c].type;
	sir_id v;

	if (i >= t.comps)
		return sir_const_u64(fc->f, image_i32, 0);
	if (t.comps == 1)
		return c;
	v = spv_emit(fc, SIR_OP_EXTRACT, image_i32, &c, 1);
	fc->f->values[v].aux = i;
	return v;
}

/* The 16-bit x | y << 16 word of the load/store unit's coordinates. */
static sir_id coord_xy(struct spv_fn *fc, sir_id coord)
{
	sir_id x = coord_comp(fc, coord, 0), y = coord_comp(fc, coord, 1);

	x = spv_emit(fc, SIR_OP_AND, image_i32, (sir_id[]){
		x, sir_const_u64(fc->f, image_i32, 0xFFFF) }, 2);
	y = spv_emit(fc, SIR_OP_SHL, image_i32, (sir_id[]){
		y, sir_const_u64(fc->f, image_i32, 16) }, 2);
	return spv_emit(fc, SIR_OP_OR, image_i32, (sir_id[]){ x, y }, 2);
}

/* 3D images and 2D arrays take a third coordinate (the layer). */
static bool layered(const struct spv_type *t)
{
	return t->image_dim == SpvDim3D ||
	       (t->image_dim == SpvDim2D && t->image_arrayed);
}

/*
 * A half4 texel (cl_khr_fp16's read_imageh / write_imageh): the units
 * read and write it as a float4, converted to half with one rounding to
 * nearest even (exact the other way).
 */
static bool half_texel(struct sir_type tt)
{
	return tt.kind == SIR_FLOAT && tt.bits == 16 && tt.comps == 4;
}

static const struct sir_type float4_texel = {
	.kind = SIR_FLOAT, .bits = 32, .comps = 4,
};

/* The texel type from the value's type and the image operands. */
static bool texel_type(struct spv_fn *fc, struct sir_type tt,
		       uint32_t operands, uint32_t *out)
{
	/* Set on every path: spv_error()'s false is opaque to GCC -O3. */
	*out = SIR_IMAGE_F32;
	if (!half_texel(tt) &&
	    (tt.kind == SIR_BOOL || tt.kind == SIR_PTR || tt.bits != 32 ||
	     tt.comps != 4))
		return spv_error(fc->c, "image access of a texel that is not "
				 "4 x 32 bits or 4 halves");
	if (operands & ~(uint32_t)(SpvImageOperandsSignExtendMask |
				   SpvImageOperandsZeroExtendMask))
		return spv_error(fc->c, "image access with image operands "
				 "0x%x", operands);
	*out = tt.kind == SIR_FLOAT ? SIR_IMAGE_F32 :
	       operands & SpvImageOperandsZeroExtendMask ? SIR_IMAGE_U32 :
	       SIR_IMAGE_S32;
	return true;
}

/* The float4 texel v as the half4 rt, rounded to nearest even. */
static sir_id to_half(struct spv_fn *fc, sir_id v, struct sir_type rt)
{
	sir_id h = spv_emit(fc, SIR_OP_FCONV, rt, &v, 1);

	fc->f->values[h].aux = SIR_CONV_RTE;
	return h;
}

/* The integer coordinate operand i, checked. */
static sir_id int_coord(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
			uint32_t i)
{
	sir_id c = spv_operand(fc, w, wc, i);

	if (c && (fc->f->values[c].type.kind != SIR_INT ||
		  fc->f->values[c].type.bits != 32))
		return spv_error(fc->c, "%s: coordinates that are not 32-bit "
				 "integers", spv_op_name(w[0] & 0xffff)),
		       (sir_id)0;
	return c;
}

/* OpImageWrite: image, coordinate, texel, optional image operands. */
static bool image_write(struct spv_fn *fc, const uint32_t *w, uint32_t wc)
{
	const struct spv_type *t = image_type(fc, w, wc, 1);
	sir_id srcs[4], coord;
	uint32_t type;
	sir_id v;

	if (!t || !(srcs[0] = spv_operand(fc, w, wc, 1)) ||
	    !(coord = int_coord(fc, w, wc, 2)) ||
	    !(srcs[1] = spv_operand(fc, w, wc, 3)))
		return false;
	if (t->image_access != SpvAccessQualifierWriteOnly)
		return spv_error(fc->c, "OpImageWrite to a read_only image");
	if (!texel_type(fc, fc->f->values[srcs[1]].type, wc > 4 ? w[4] : 0,
			&type))
		return false;
	if (half_texel(fc->f->values[srcs[1]].type))
		srcs[1] = spv_emit(fc, SIR_OP_FCONV, float4_texel, &srcs[1], 1);
	srcs[2] = coord_xy(fc, coord);
	if (layered(t))
		srcs[3] = coord_comp(fc, coord, 2);
	v = spv_emit(fc, SIR_OP_IMAGE_STORE, sir_type_make(SIR_VOID, 0, 0),
		     srcs, layered(t) ? 4 : 3);
	fc->f->values[v].aux = type;
	fc->f->values[v].aux2 = layered(t);
	return true;
}

/* OpImageRead: type, result, image, coordinate, optional operands. */
static sir_id image_read(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
			 struct sir_type rt)
{
	const struct spv_type *t = image_type(fc, w, wc, 3);
	sir_id srcs[3], coord, v;
	uint32_t type;

	if (!t || !(srcs[0] = spv_operand(fc, w, wc, 3)) ||
	    !(coord = int_coord(fc, w, wc, 4)))
		return 0;
	if (t->kind != SPV_T_IMAGE ||
	    t->image_access != SpvAccessQualifierReadOnly)
		return spv_error(fc->c, "OpImageRead of a write_only or "
				 "sampled image"), (sir_id)0;
	if (!texel_type(fc, rt, wc > 5 ? w[5] : 0, &type))
		return 0;
	srcs[1] = coord_xy(fc, coord);
	if (layered(t))
		srcs[2] = coord_comp(fc, coord, 2);
	v = spv_emit(fc, SIR_OP_IMAGE_LOAD, half_texel(rt) ? float4_texel : rt,
		     srcs, layered(t) ? 3 : 2);
	fc->f->values[v].aux = type;
	fc->f->values[v].aux2 = layered(t);
	return half_texel(rt) ? to_half(fc, v, rt) : v;
}

/* OpSampledImage: type, result, image, sampler. */
static sir_id sampled_image(struct spv_fn *fc, const uint32_t *w,
			    uint32_t wc)
{
	sir_id srcs[2];

	if (!image_type(fc, w, wc, 3) || !(srcs[0] = spv_operand(fc, w, wc, 3)) ||
	    !(srcs[1] = spv_operand(fc, w, wc, 4)))
		return 0;
	return spv_emit(fc, SIR_OP_VEC, sir_type_make(SIR_INT, 32, 2), srcs,
			2);
}

/* Lane i of v as an fp32 value (integers converted), 0 past its end. */
static sir_id float_comp(struct spv_fn *fc, sir_id v, unsigned int i)
{
	struct sir_type t = fc->f->values[v].type;
	struct sir_type f32 = sir_type_make(SIR_FLOAT, 32, 1);
	sir_id c;

	if (i >= t.comps)
		return sir_const_u64(fc->f, f32, 0);
	c = v;
	if (t.comps > 1) {
		c = spv_emit(fc, SIR_OP_EXTRACT, sir_type_make(t.kind, 32, 1),
			     &v, 1);
		fc->f->values[c].aux = i;
	}
	return t.kind == SIR_FLOAT ? c : spv_emit(fc, SIR_OP_S2F, f32, &c, 1);
}

/*
 * OpImageSampleExplicitLod: type, result, sampled image, coordinate, image
 * operands (Lod, which must be 0, and SignExtend / ZeroExtend), the LOD.
 */
static sir_id image_sample(struct spv_fn *fc, const uint32_t *w,
			   uint32_t wc, struct sir_type rt)
{
	const struct spv_type *t = image_type(fc, w, wc, 3);
	uint32_t ops = wc > 5 ? w[5] : 0, type;
	sir_id pair, coord, srcs[3], c[4], v;
	const struct sir_instr *pi, *lod;
	unsigned int layer;

	if (!t || !(pair = spv_operand(fc, w, wc, 3)) ||
	    !(coord = spv_operand(fc, w, wc, 4)))
		return 0;
	pi = &fc->f->values[pair];
	if (t->kind != SPV_T_SAMPLED_IMAGE || pi->op != SIR_OP_VEC ||
	    pi->num_srcs != 2 || t->image_dim == SpvDimBuffer)
		return spv_error(fc->c, "OpImageSampleExplicitLod: not of an "
				 "OpSampledImage of this function"), (sir_id)0;
	if (!(ops & SpvImageOperandsLodMask) || wc < 7 ||
	    !(lod = &fc->f->values[spv_operand(fc, w, wc, 6)]) ||
	    lod->op != SIR_OP_CONST || lod->imm.u64[0] != 0)
		return spv_error(fc->c, "OpImageSampleExplicitLod: a LOD "
				 "other than a constant 0"), (sir_id)0;
	if (fc->f->values[coord].type.bits != 32 ||
	    (fc->f->values[coord].type.kind != SIR_FLOAT &&
	     fc->f->values[coord].type.kind != SIR_INT))
		return spv_error(fc->c, "OpImageSampleExplicitLod: "
				 "coordinates of an unsupported type"),
		       (sir_id)0;
	if (!texel_type(fc, rt, ops & ~(uint32_t)SpvImageOperandsLodMask,
			&type))
		return 0;
	srcs[0] = pi->srcs[0];
	srcs[1] = pi->srcs[1];
	/* x, y, z as the dimension needs, the layer in w. */
	layer = t->image_dim == SpvDim1D ? 1 : 2;
	for (unsigned int i = 0; i < 4; i++)
		c[i] = float_comp(fc, coord, i == 3 && t->image_arrayed ?
				  layer :
				  t->image_arrayed && i == layer ? 4 :
				  t->image_dim == SpvDim1D && i > 0 ? 4 :
				  t->image_dim == SpvDim2D && i > 1 ? 4 :
				  i == 3 ? 4 : i);
	srcs[2] = spv_emit(fc, SIR_OP_VEC, sir_type_make(SIR_FLOAT, 32, 4),
			   c, 4);
	v = spv_emit(fc, SIR_OP_IMAGE_SAMPLE,
		     half_texel(rt) ? float4_texel : rt, srcs, 3);
	fc->f->values[v].aux = type;
	fc->f->values[v].aux2 = t->image_dim == SpvDim1D ? 1 :
				t->image_dim == SpvDim2D ? 2 : 3;
	return half_texel(rt) ? to_half(fc, v, rt) : v;
}

bool spv_image_inst(struct spv_fn *fc, const uint32_t *w, uint32_t wc,
		    uint32_t op, struct sir_type rt, sir_id *out)
{
	switch (op) {
	case SpvOpImageQuerySize:
	case SpvOpImageQuerySizeLod:
		*out = query_size(fc, w, wc, rt);
		return *out != 0;
	case SpvOpImageQueryFormat:
	case SpvOpImageQueryOrder:
		*out = query_format(fc, w, wc, rt,
				    op == SpvOpImageQueryOrder);
		return *out != 0;
	case SpvOpImageWrite:
		return image_write(fc, w, wc);
	case SpvOpImageRead:
		*out = image_read(fc, w, wc, rt);
		return *out != 0;
	case SpvOpSampledImage:
		*out = sampled_image(fc, w, wc);
		return *out != 0;
	case SpvOpImageSampleExplicitLod:
		*out = image_sample(fc, w, wc, rt);
		return *out != 0;
	default:
		return spv_error(fc->c, "%s: image reads and writes are not "
				 "supported yet", spv_op_name(op));
	}
}
