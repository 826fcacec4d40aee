/* SPDX-License-Identifier: MIT */
/*
 * Parsing a SPIR-V module into an index: every instruction's bounds, every
 * id defined once and in range, result types defined before use, the
 * module-level part (capabilities, entry points, names, decorations, types,
 * constants, global variables) decoded, and function bodies located. The
 * bodies themselves are translated later (spirv_function.c), which checks
 * their operands.
 */
#include "spirv_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct spv_parser {
	struct spv_module *m;
	bool is_library;
	char *err;
	size_t errsz;
	uint32_t cap_types, cap_functions, cap_entries, cap_strings;
	uint32_t cap_globals, cap_member_decos;
};

static bool spv_perr(struct spv_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool spv_perr(struct spv_parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->errsz) {
		va_start(ap, fmt);
		vsnprintf(p->err, p->errsz, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* Grows an array of elem-size items to hold need; false when out of memory. */
static bool spv_grow(void **arr, uint32_t *cap, uint32_t need, size_t elem)
{
	uint32_t n;
	void *q;

	if (need <= *cap)
		return true;
	n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	q = realloc(*arr, (size_t)n * elem);
	if (!q)
		return false;
	*arr = q;
	*cap = n;
	return true;
}

const char *spv_string(const uint32_t *words, size_t at, size_t end,
		       size_t *next)
{
	const char *s = (const char *)&words[at];
	size_t i, max = (end - at) * 4;

	if (at >= end)
		return NULL;
	for (i = 0; i < max; i++) {
		if (!s[i]) {
			if (next)
				*next = at + i / 4 + 1;
			return s;
		}
	}
	return NULL;
}

const struct spv_type *spv_type_of_id(const struct spv_module *m,
				      uint32_t id)
{
	if (!id || id >= m->bound || !m->ids[id].type_index)
		return NULL;
	return &m->types[m->ids[id].type_index - 1];
}

static bool spv_capability_ok(uint32_t cap)
{
	switch (cap) {
	case SpvCapabilityAddresses:
	case SpvCapabilityLinkage:
	case SpvCapabilityKernel:
	case SpvCapabilityInt8:
	case SpvCapabilityInt16:
	case SpvCapabilityInt64:
	case SpvCapabilityInt64Atomics:
	case SpvCapabilityVector16:
	case SpvCapabilityFloat16Buffer:
	case SpvCapabilityFloat16:
	case SpvCapabilityFloat64:
	case SpvCapabilityGenericPointer: /* generic pointers likewise */
	/* OpenCL C images and sampler literals (spirv_image.c). */
	case SpvCapabilityImageBasic:
	case SpvCapabilityLiteralSampler:
	case SpvCapabilitySampled1D:
	case SpvCapabilityImage1D:
	case SpvCapabilitySampledBuffer:
	case SpvCapabilityImageBuffer:
		return true;
	default:
		return false;
	}
}

static uint32_t spv_align_up(uint32_t v, uint32_t a)
{
	return a ? (v + a - 1) / a * a : v;
}

/* The integer value of constant id (array lengths), false if not one. */
static bool spv_const_uint(const struct spv_module *m, uint32_t id,
			   uint64_t *out)
{
	uint64_t lanes[16];
	unsigned int comps;
	const struct spv_type *t;

	if (!id || id >= m->bound || !m->ids[id].def)
		return false;
	t = spv_type_of_id(m, m->ids[id].type);
	if (!t || t->kind != SPV_T_INT || !spv_const_lanes(m, id, lanes, &comps))
		return false;
	*out = lanes[0];
	return true;
}

static bool spv_add_type(struct spv_parser *p, uint32_t id,
			 const struct spv_type *t)
{
	struct spv_module *m = p->m;

	if (!spv_grow((void **)&m->types, &p->cap_types, m->num_types + 1,
		      sizeof(*m->types)))
		return spv_perr(p, "out of memory");
	m->types[m->num_types++] = *t;
	m->ids[id].type_index = m->num_types;
	return true;
}

/* Member layout of a struct: Offset decorations, else natural layout. */
static bool spv_struct_layout(struct spv_parser *p, uint32_t id,
			      struct spv_type *t)
{
	struct spv_module *m = p->m;
	uint32_t i, k, off = 0, align = 1;
	uint64_t end = 0;

	t->offsets = calloc(t->count ? t->count : 1, sizeof(uint32_t));
	if (!t->offsets)
		return spv_perr(p, "out of memory");
	for (i = 0; i < t->count; i++) {
		const struct spv_type *mt = spv_type_of_id(m, t->members[i]);
		uint32_t a;
		bool have = false;

		if (!mt || !mt->size) {
			free(t->offsets);
			t->offsets = NULL;
			return spv_perr(p, "struct %%%u: member %u has no size",
					id, i);
		}
		a = t->packed ? 1 : mt->align;
		for (k = 0; k < m->num_member_decos; k++) {
			const uint32_t *w = &m->words[m->member_decos[k]];

			if (w[1] == id && w[2] == i && w[3] == SpvDecorationOffset) {
				off = w[4];
				have = true;
			}
		}
		if (!have)
			off = spv_align_up(off, a);
		t->offsets[i] = off;
		if ((uint64_t)off + mt->size > end)
			end = (uint64_t)off + mt->size;
		if (end > SPV_MAX_TYPE_SIZE) {
			free(t->offsets);
			t->offsets = NULL;
			return spv_perr(p, "struct %%%u is too large", id);
		}
		off += mt->size;
		if (a > align)
			align = a;
	}
	t->align = align;
	t->size = spv_align_up((uint32_t)end, align);
	if (!t->size)
		t->size = align;     /* empty struct: C++ style one unit */
	return true;
}

static bool spv_parse_type(struct spv_parser *p, const uint32_t *w,
			   uint32_t wc, uint32_t op)
{
	struct spv_module *m = p->m;
	struct spv_type t = { 0 };
	uint32_t id = w[1], i;
	const struct spv_type *e;
	uint64_t len;

	switch (op) {
	case SpvOpTypeVoid:
		t.kind = SPV_T_VOID;
		break;
	case SpvOpTypeBool:
		t.kind = SPV_T_BOOL;
		t.size = t.align = 4;
		t.width = 1;
		break;
	case SpvOpTypeInt:
	case SpvOpTypeFloat:
		if (wc < 3)
			return spv_perr(p, "%s: too few words", spv_op_name(op));
		if (op == SpvOpTypeInt ? (w[2] != 8 && w[2] != 16 &&
					  w[2] != 32 && w[2] != 64)
				       : (w[2] != 16 && w[2] != 32 && w[2] != 64))
			return spv_perr(p, "unsupported type: %u-bit %s", w[2],
					op == SpvOpTypeInt ? "integer" : "float");
		t.kind = op == SpvOpTypeInt ? SPV_T_INT : SPV_T_FLOAT;
		t.width = (uint8_t)w[2];
		t.size = t.align = w[2] / 8;
		break;
	case SpvOpTypeVector:
		if (wc < 4)
			return spv_perr(p, "OpTypeVector: too few words");
		e = spv_type_of_id(m, w[2]);
		if (!e || (e->kind != SPV_T_INT && e->kind != SPV_T_FLOAT &&
			   e->kind != SPV_T_BOOL))
			return spv_perr(p, "OpTypeVector %%%u: element is not a "
					"scalar type", id);
		if (w[3] != 2 && w[3] != 3 && w[3] != 4 && w[3] != 8 &&
		    w[3] != 16)
			return spv_perr(p, "OpTypeVector %%%u: %u components",
					id, w[3]);
		t.kind = SPV_T_VECTOR;
		t.elem = w[2];
		t.width = e->width;
		t.count = w[3];
		t.size = t.align = e->size * (w[3] == 3 ? 4 : w[3]);
		break;
	case SpvOpTypeArray:
		if (wc < 4)
			return spv_perr(p, "OpTypeArray: too few words");
		e = spv_type_of_id(m, w[2]);
		if (!e || !e->size)
			return spv_perr(p, "OpTypeArray %%%u: element has no "
					"size", id);
		if (!spv_const_uint(m, w[3], &len) || !len)
			return spv_perr(p, "OpTypeArray %%%u: length is not a "
					"positive constant", id);
		if (len > SPV_MAX_TYPE_SIZE / e->size)
			return spv_perr(p, "OpTypeArray %%%u is too large", id);
		t.kind = SPV_T_ARRAY;
		t.elem = w[2];
		t.count = (uint32_t)len;
		t.size = (uint32_t)len * e->size;
		t.align = e->align;
		break;
	case SpvOpTypeStruct:
		t.kind = SPV_T_STRUCT;
		t.count = wc - 2;
		t.members = &w[2];
		t.packed = m->ids[id].packed;
		if (!spv_struct_layout(p, id, &t))
			return false;
		break;
	case SpvOpTypePointer:
		if (wc < 4)
			return spv_perr(p, "OpTypePointer: too few words");
		if (!w[3] || w[3] >= m->bound)
			return spv_perr(p, "OpTypePointer %%%u: bad pointee", id);
		t.kind = SPV_T_PTR;
		t.storage = w[2];
		t.elem = w[3];
		t.size = t.align = 4;
		break;
	case SpvOpTypeFunction:
		if (wc < 3)
			return spv_perr(p, "OpTypeFunction: too few words");
		for (i = 2; i < wc; i++)
			if (!spv_type_of_id(m, w[i]))
				return spv_perr(p, "OpTypeFunction %%%u: operand "
						"%u is not a type", id, i);
		t.kind = SPV_T_FUNC;
		t.elem = w[2];
		t.count = wc - 3;
		t.members = &w[3];
		break;
	case SpvOpTypeEvent:
		/* Copies complete at once (spirv_async.c): no state. */
		t.kind = SPV_T_EVENT;
		t.width = 32;
		t.size = t.align = 4;
		break;
	case SpvOpTypeSampler:
		/*
		 * OpenCL 1.2 6.12.14.1: a sampler_t kernel argument. With no
		 * image support (no image type, no read_image) a kernel can
		 * only pass it on; it is the 32-bit argument slot the runtime
		 * refuses to fill without a valid cl_sampler.
		 */
		t.kind = SPV_T_SAMPLER;
		t.width = 32;
		t.size = t.align = 4;
		break;
	case SpvOpTypeImage:
		/*
		 * OpenCL C's image types: sampled type void, not depth, not
		 * multisampled, format Unknown, access from the qualifier
		 * (compiler/README.md, "Images and samplers").
		 */
		if (wc < 9)
			return spv_perr(p, "OpTypeImage: too few words");
		if (w[3] != SpvDim1D && w[3] != SpvDim2D && w[3] != SpvDim3D &&
		    w[3] != SpvDimBuffer)
			return spv_perr(p, "OpTypeImage %%%u: dimension %u is "
					"not an OpenCL image's", id, w[3]);
		if (w[4] != 0 || w[5] > 1 || w[6] != 0 || w[8] != 0 ||
		    (w[5] && (w[3] == SpvDim3D || w[3] == SpvDimBuffer)))
			return spv_perr(p, "OpTypeImage %%%u: depth, "
					"multisampled, typed or arrayed 3D "
					"images are not OpenCL C 1.2's", id);
		t.kind = SPV_T_IMAGE;
		t.image_dim = (uint8_t)w[3];
		t.image_arrayed = w[5];
		t.image_access = wc > 9 ? (uint8_t)(w[9] <= 2 ? w[9] : 3) :
			SpvAccessQualifierReadOnly;
		if (t.image_access > SpvAccessQualifierWriteOnly)
			return spv_perr(p, "OpTypeImage %%%u: read_write images "
					"are not OpenCL C 1.2's", id);
		t.width = 32;
		t.size = t.align = 4;
		break;
	case SpvOpTypeSampledImage: {
		const struct spv_type *img = wc == 3 ?
			spv_type_of_id(m, w[2]) : NULL;

		if (!img || img->kind != SPV_T_IMAGE)
			return spv_perr(p, "OpTypeSampledImage %%%u: not of "
					"an image type", id);
		t = *img;
		t.kind = SPV_T_SAMPLED_IMAGE;
		t.elem = w[2];
		break;
	}
	default:
		t.kind = SPV_T_OTHER;
		break;
	}
	return spv_add_type(p, id, &t);
}

static void spv_parse_decoration(struct spv_parser *p, const uint32_t *w,
				 uint32_t wc, size_t at)
{
	struct spv_module *m = p->m;
	struct spv_id *d;
	size_t next;
	const char *s;

	if (wc < 3 || !w[1] || w[1] >= m->bound)
		return;
	d = &m->ids[w[1]];
	switch (w[2]) {
	case SpvDecorationBuiltIn:
		if (wc >= 4)
			d->builtin = (int32_t)(w[3] & 0x7fffffff);
		break;
	case SpvDecorationLinkageAttributes:
		s = spv_string(m->words, at + 3, at + wc, &next);
		if (s && next < at + wc) {
			d->link_name = s;
			d->is_import = m->words[next] ==
				       SpvLinkageTypeImport;
		}
		break;
	case SpvDecorationFuncParamAttr:
		if (wc >= 4 && w[3] < 32)
			d->param_attrs |= 1u << w[3];
		break;
	case SpvDecorationAlignment:
		if (wc >= 4)
			d->align = w[3];
		break;
	case SpvDecorationVolatile:
		d->is_volatile = true;
		break;
	case SpvDecorationFPRoundingMode:
		if (wc >= 4 && w[3] <= SpvFPRoundingModeRTN)
			d->fp_rounding = (int8_t)w[3];
		break;
	case SpvDecorationSaturatedConversion:
		d->saturated = true;
		break;
	case SpvDecorationCPacked:
		d->packed = true;
		break;
	default:
		break;
	}
}

static bool spv_check_constant(struct spv_parser *p, const uint32_t *w,
			       uint32_t wc, uint32_t op)
{
	struct spv_module *m = p->m;
	const struct spv_type *t = spv_type_of_id(m, w[1]);
	uint32_t i, want;

	if (!t)
		return spv_perr(p, "%s %%%u: result type is not a type",
				spv_op_name(op), w[2]);
	switch (op) {
	case SpvOpConstant:
	case SpvOpSpecConstant:
		if (t->kind != SPV_T_INT && t->kind != SPV_T_FLOAT)
			return spv_perr(p, "%s %%%u: not a numeric type",
					spv_op_name(op), w[2]);
		want = t->width > 32 ? 2 : 1;
		if (wc != 3 + want)
			return spv_perr(p, "%s %%%u: %u value words for a "
					"%u-bit type", spv_op_name(op), w[2],
					wc - 3, t->width);
		break;
	case SpvOpConstantTrue:
	case SpvOpConstantFalse:
	case SpvOpSpecConstantTrue:
	case SpvOpSpecConstantFalse:
		if (t->kind != SPV_T_BOOL)
			return spv_perr(p, "%s %%%u: not a bool type",
					spv_op_name(op), w[2]);
		break;
	case SpvOpConstantComposite:
	case SpvOpSpecConstantComposite:
		want = t->kind == SPV_T_VECTOR || t->kind == SPV_T_ARRAY ||
		       t->kind == SPV_T_STRUCT ? t->count : UINT32_MAX;
		if (want != wc - 3)
			return spv_perr(p, "%s %%%u: %u constituents for its "
					"type", spv_op_name(op), w[2], wc - 3);
		for (i = 3; i < wc; i++) {
			uint32_t c = w[i];

			if (!c || c >= m->bound || !m->ids[c].def ||
			    m->ids[c].type_index ||
			    (m->ids[c].opcode != SpvOpConstant &&
			     m->ids[c].opcode != SpvOpConstantTrue &&
			     m->ids[c].opcode != SpvOpConstantFalse &&
			     m->ids[c].opcode != SpvOpConstantComposite &&
			     m->ids[c].opcode != SpvOpConstantNull &&
			     m->ids[c].opcode != SpvOpUndef &&
			     m->ids[c].opcode != SpvOpSpecConstant &&
			     m->ids[c].opcode != SpvOpSpecConstantTrue &&
			     m->ids[c].opcode != SpvOpSpecConstantFalse &&
			     m->ids[c].opcode != SpvOpSpecConstantComposite))
				return spv_perr(p, "%s %%%u: constituent %%%u "
						"is not a constant",
						spv_op_name(op), w[2], c);
		}
		break;
	default:
		break;
	}
	return true;
}

/* The module-level meaning of one instruction (before any function). */
static bool spv_parse_module_level(struct spv_parser *p, size_t at,
				   uint32_t wc, uint32_t op)
{
	struct spv_module *m = p->m;
	const uint32_t *w = &m->words[at];
	const char *s;
	uint32_t i;

	switch (op) {
	case SpvOpCapability:
		if (wc < 2)
			return spv_perr(p, "OpCapability: too few words");
		if (!spv_capability_ok(w[1])) {
			s = spv_capability_name(w[1]);
			return s ? spv_perr(p, "unsupported SPIR-V capability "
					    "%s", s)
				 : spv_perr(p, "unsupported SPIR-V capability "
					    "%u", w[1]);
		}
		return true;
	case SpvOpMemoryModel:
		if (wc < 3 || w[1] != SpvAddressingModelPhysical32)
			return spv_perr(p, "unsupported addressing model "
					"(32-bit physical addressing needed)");
		return true;
	case SpvOpExtInstImport:
		s = spv_string(m->words, at + 2, at + wc, NULL);
		if (!s || strcmp(s, "OpenCL.std"))
			return spv_perr(p, "unsupported extended instruction "
					"set %s", s ? s : "(bad string)");
		m->ext_opencl = w[1];
		return true;
	case SpvOpEntryPoint: {
		struct spv_entry *e;

		if (wc < 4)
			return spv_perr(p, "OpEntryPoint: too few words");
		if (w[1] != SpvExecutionModelKernel)
			return spv_perr(p, "unsupported execution model %u",
					w[1]);
		s = spv_string(m->words, at + 3, at + wc, NULL);
		if (!s)
			return spv_perr(p, "OpEntryPoint: bad name");
		if (!spv_grow((void **)&m->entries, &p->cap_entries,
			      m->num_entries + 1, sizeof(*m->entries)))
			return spv_perr(p, "out of memory");
		e = &m->entries[m->num_entries++];
		memset(e, 0, sizeof(*e));
		e->func = w[2];
		e->name = s;
		return true;
	}
	case SpvOpExecutionMode:
		if (wc < 3)
			return spv_perr(p, "OpExecutionMode: too few words");
		for (i = 0; i < m->num_entries && w[2] ==
			    SpvExecutionModeVecTypeHint; i++) {
			if (m->entries[i].func != w[1])
				continue;
			if (wc < 4)
				return spv_perr(p, "OpExecutionMode: too few "
						"words");
			m->entries[i].has_vec_hint = true;
			m->entries[i].vec_hint = w[3];
		}
		for (i = 0; i < m->num_entries; i++) {
			struct spv_entry *e = &m->entries[i];
			uint32_t *dst = w[2] == SpvExecutionModeLocalSize ?
					e->local_size :
					w[2] == SpvExecutionModeLocalSizeHint ?
					e->size_hint : NULL;

			if (e->func != w[1] || !dst)
				continue;
			if (wc < 6)
				return spv_perr(p, "OpExecutionMode: too few "
						"words");
			dst[0] = w[3];
			dst[1] = w[4];
			dst[2] = w[5];
		}
		return true;
	case SpvOpString:
		s = spv_string(m->words, at + 2, at + wc, NULL);
		if (!s)
			return spv_perr(p, "OpString: bad string");
		if (!spv_grow((void **)&m->strings, &p->cap_strings,
			      m->num_strings + 1, sizeof(*m->strings)))
			return spv_perr(p, "out of memory");
		m->strings[m->num_strings++] = s;
		return true;
	case SpvOpName:
		if (wc >= 3 && w[1] && w[1] < m->bound)
			m->ids[w[1]].name = spv_string(m->words, at + 2,
						       at + wc, NULL);
		return true;
	case SpvOpDecorate:
		spv_parse_decoration(p, w, wc, at);
		return true;
	case SpvOpMemberDecorate:
		if (wc < 4)
			return spv_perr(p, "OpMemberDecorate: too few words");
		if (w[3] != SpvDecorationOffset)
			return true;
		if (wc < 5)
			return spv_perr(p, "OpMemberDecorate: too few words");
		if (!spv_grow((void **)&m->member_decos, &p->cap_member_decos,
			      m->num_member_decos + 1,
			      sizeof(*m->member_decos)))
			return spv_perr(p, "out of memory");
		m->member_decos[m->num_member_decos++] = (uint32_t)at;
		return true;
	case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt:
	case SpvOpTypeFloat: case SpvOpTypeVector: case SpvOpTypeArray:
	case SpvOpTypeStruct: case SpvOpTypePointer: case SpvOpTypeFunction:
	case SpvOpTypeOpaque: case SpvOpTypeEvent: case SpvOpTypeDeviceEvent:
	case SpvOpTypeReserveId: case SpvOpTypeQueue: case SpvOpTypePipe:
	case SpvOpTypeImage: case SpvOpTypeSampler: case SpvOpTypeSampledImage:
	case SpvOpTypeRuntimeArray:
		return spv_parse_type(p, w, wc, op);
	case SpvOpConstant: case SpvOpConstantTrue: case SpvOpConstantFalse:
	case SpvOpConstantComposite: case SpvOpConstantNull:
	case SpvOpSpecConstant: case SpvOpSpecConstantTrue:
	case SpvOpSpecConstantFalse: case SpvOpSpecConstantComposite:
		return spv_check_constant(p, w, wc, op);
	case SpvOpConstantSampler: {
		/* A sampler literal (spirv_image.c). */
		const struct spv_type *t = wc == 6 ?
			spv_type_of_id(m, w[1]) : NULL;

		if (!t || t->kind != SPV_T_SAMPLER || w[3] > 4 || w[4] > 1 ||
		    w[5] > 1)
			return spv_perr(p, "OpConstantSampler: bad operands");
		return true;
	}
	case SpvOpVariable:
		if (wc < 4)
			return spv_perr(p, "OpVariable: too few words");
		if (!spv_grow((void **)&m->globals, &p->cap_globals,
			      m->num_globals + 1, sizeof(*m->globals)))
			return spv_perr(p, "out of memory");
		m->globals[m->num_globals++] = w[2];
		return true;
	case SpvOpSource: case SpvOpSourceExtension: case SpvOpSourceContinued:
	case SpvOpExtension: case SpvOpMemberName: case SpvOpLine:
	case SpvOpNoLine: case SpvOpModuleProcessed: case SpvOpUndef:
	case SpvOpTypeForwardPointer: case SpvOpNop: case SpvOpDecorationGroup:
		return true;
	default:
		s = spv_op_name(op);
		return spv_perr(p, "unsupported SPIR-V opcode %s at module "
				"level", s ? s : "?");
	}
}

static int spv_export_cmp(const void *a, const void *b)
{
	return strcmp(((const struct spv_export *)a)->name,
		      ((const struct spv_export *)b)->name);
}

uint32_t spv_find_export(const struct spv_module *m, const char *name)
{
	struct spv_export key = { name, 0 }, *e;

	if (!m->num_exports)
		return UINT32_MAX;
	e = bsearch(&key, m->exports, m->num_exports, sizeof(key),
		    spv_export_cmp);
	return e ? e->func : UINT32_MAX;
}

static bool spv_index_exports(struct spv_parser *p)
{
	struct spv_module *m = p->m;
	uint32_t i;

	m->exports = calloc(m->num_functions ? m->num_functions : 1,
			    sizeof(*m->exports));
	if (!m->exports)
		return spv_perr(p, "out of memory");
	for (i = 0; i < m->num_functions; i++) {
		const struct spv_id *d = &m->ids[m->functions[i].id];

		if (d->link_name && !d->is_import && m->functions[i].has_body) {
			m->exports[m->num_exports].name = d->link_name;
			m->exports[m->num_exports++].func = i;
		}
	}
	qsort(m->exports, m->num_exports, sizeof(*m->exports),
	      spv_export_cmp);
	return true;
}

static bool spv_parse_header(struct spv_parser *p, size_t n)
{
	struct spv_module *m = p->m;

	if (n < 5)
		return spv_perr(p, "SPIR-V module truncated: %zu words", n);
	if (m->words[0] != SpvMagicNumber)
		return spv_perr(p, "bad SPIR-V magic number 0x%08x",
				m->words[0]);
	if (m->words[1] > 0x10600 || m->words[1] < 0x10000)
		return spv_perr(p, "unsupported SPIR-V version 0x%x",
				m->words[1]);
	m->bound = m->words[3];
	if (!m->bound || m->bound > SPV_MAX_BOUND || m->bound > n)
		return spv_perr(p, "SPIR-V id bound %u is out of range for a "
				"module of %zu words", m->bound, n);
	m->ids = calloc(m->bound, sizeof(*m->ids));
	if (!m->ids)
		return spv_perr(p, "out of memory");
	return true;
}

bool spv_module_parse(struct spv_module *m, const uint32_t *words, size_t n,
		      bool is_library, char *err, size_t errsz)
{
	struct spv_parser p = { .m = m, .is_library = is_library,
				.err = err, .errsz = errsz };
	struct spv_function *fn = NULL;
	size_t at;
	uint32_t i;

	memset(m, 0, sizeof(*m));
	m->words = words;
	m->num_words = n;
	if (!spv_parse_header(&p, n))
		return false;
	for (i = 0; i < m->bound; i++)
		m->ids[i].builtin = -1, m->ids[i].fp_rounding = -1;
	for (at = 5; at < n;) {
		uint32_t wc = words[at] >> 16, op = words[at] & 0xffff;
		unsigned int flags = spv_op_flags(op);
		uint32_t result = 0, type = 0;

		if (!wc || wc > n - at)
			return spv_perr(&p, "SPIR-V instruction at word %zu "
					"runs past the end of the module", at);
		if (!spv_op_name(op))
			return spv_perr(&p, "unknown SPIR-V opcode %u", op);
		if (flags & SPV_OP_HAS_TYPE) {
			if (wc < 3)
				return spv_perr(&p, "%s: too few words",
						spv_op_name(op));
			type = words[at + 1];
			result = words[at + 2];
			if (!spv_type_of_id(m, type))
				return spv_perr(&p, "%s %%%u: result type %%%u "
						"is not a type defined before",
						spv_op_name(op), result, type);
		} else if (flags & SPV_OP_HAS_RESULT) {
			if (wc < 2)
				return spv_perr(&p, "%s: too few words",
						spv_op_name(op));
			result = words[at + 1];
		}
		if (flags & SPV_OP_HAS_RESULT) {
			if (!result || result >= m->bound)
				return spv_perr(&p, "%s: id %u out of range "
						"(bound %u)", spv_op_name(op),
						result, m->bound);
			if (m->ids[result].def)
				return spv_perr(&p, "id %%%u defined twice",
						result);
			m->ids[result].def = (uint32_t)at;
			m->ids[result].opcode = (uint16_t)op;
			m->ids[result].type = type;
		}
		if (op == SpvOpFunction) {
			if (fn)
				return spv_perr(&p, "OpFunction %%%u inside "
						"another function", result);
			if (!spv_grow((void **)&m->functions, &p.cap_functions,
				      m->num_functions + 1,
				      sizeof(*m->functions)))
				return spv_perr(&p, "out of memory");
			fn = &m->functions[m->num_functions++];
			memset(fn, 0, sizeof(*fn));
			fn->id = result;
			fn->begin = (uint32_t)at;
		} else if (op == SpvOpFunctionEnd) {
			if (!fn)
				return spv_perr(&p, "OpFunctionEnd outside a "
						"function");
			fn->end = (uint32_t)(at + wc);
			fn = NULL;
		} else if (fn) {
			if (op == SpvOpLabel)
				fn->has_body = true;
		} else if (!spv_parse_module_level(&p, at, wc, op)) {
			return false;
		}
		at += wc;
	}
	if (fn)
		return spv_perr(&p, "function %%%u has no OpFunctionEnd",
				fn->id);
	for (i = 0; i < m->num_entries; i++) {
		uint32_t f = m->entries[i].func;

		if (!f || f >= m->bound || m->ids[f].opcode != SpvOpFunction)
			return spv_perr(&p, "entry point %s is not a function",
					m->entries[i].name);
	}
	return spv_index_exports(&p);
}

void spv_module_free(struct spv_module *m)
{
	uint32_t i;

	for (i = 0; i < m->num_types; i++)
		free(m->types[i].offsets);
	free(m->types);
	free(m->ids);
	free(m->functions);
	free(m->entries);
	free(m->strings);
	free(m->globals);
	free(m->exports);
	free(m->member_decos);
	memset(m, 0, sizeof(*m));
}
