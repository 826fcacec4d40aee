/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V types and constants in SIR terms: value types, address spaces,
 * constant lanes, the bytes of constant initialisers, and OpenCL C type
 * names for kernel argument metadata.
 */
#include "spirv_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool spv_space(uint32_t storage, enum sir_space *out)
{
	switch (storage) {
	case SpvStorageClassFunction:
		*out = SIR_SPACE_PRIVATE;
		return true;
	case SpvStorageClassCrossWorkgroup:
		*out = SIR_SPACE_GLOBAL;
		return true;
	case SpvStorageClassUniformConstant:
		*out = SIR_SPACE_CONSTANT;
		return true;
	case SpvStorageClassWorkgroup:
		*out = SIR_SPACE_LOCAL;
		return true;
	default:
		return false;
	}
}

static void spv_type_desc(const struct spv_module *m, uint32_t type_id,
			  char *buf, size_t size)
{
	const struct spv_type *t = spv_type_of_id(m, type_id);
	const char *name = NULL;

	if (t && t->kind == SPV_T_STRUCT)
		name = m->ids[type_id].name;
	if (name) {
		snprintf(buf, size, "struct %s", name);
		return;
	}
	spv_type_name(m, type_id, buf, size);
}

bool spv_sir_type(const struct spv_module *m, uint32_t type_id,
		  struct sir_type *out, char *err, size_t errsz)
{
	const struct spv_type *t = spv_type_of_id(m, type_id);
	const struct spv_type *e;
	enum sir_space space;
	char desc[64];

	if (!t) {
		snprintf(err, errsz, "%%%u is not a type", type_id);
		return false;
	}
	switch (t->kind) {
	case SPV_T_VOID:
		*out = sir_type_make(SIR_VOID, 0, 0);
		return true;
	case SPV_T_BOOL:
		*out = sir_type_make(SIR_BOOL, 1, 1);
		return true;
	case SPV_T_INT:
	case SPV_T_EVENT:
	case SPV_T_SAMPLER:
	case SPV_T_IMAGE:
	case SPV_T_SAMPLED_IMAGE:
		*out = sir_type_make(SIR_INT, t->width, 1);
		return true;
	case SPV_T_FLOAT:
		*out = sir_type_make(SIR_FLOAT, t->width, 1);
		return true;
	case SPV_T_VECTOR:
		e = spv_type_of_id(m, t->elem);
		*out = sir_type_make(e->kind == SPV_T_BOOL ? SIR_BOOL :
				     e->kind == SPV_T_INT ? SIR_INT : SIR_FLOAT,
				     e->width, t->count);
		return true;
	case SPV_T_PTR:
		if (!spv_space(t->storage, &space)) {
			const char *s = spv_storage_class_name(t->storage);

			snprintf(err, errsz, "unsupported pointer storage "
				 "class %s", s ? s : "?");
			return false;
		}
		*out = sir_type_ptr(space);
		return true;
	default:
		break;
	}
	spv_type_desc(m, type_id, desc, sizeof(desc));
	snprintf(err, errsz, "unsupported type: %s", desc);
	return false;
}

bool spv_const_lanes(const struct spv_module *m, uint32_t id,
		     uint64_t lanes[16], unsigned int *comps)
{
	const struct spv_id *d;
	const struct spv_type *t;
	const uint32_t *w;
	uint32_t wc, i;

	if (!id || id >= m->bound)
		return false;
	d = &m->ids[id];
	t = spv_type_of_id(m, d->type);
	if (!d->def || !t)
		return false;
	w = &m->words[d->def];
	wc = w[0] >> 16;
	memset(lanes, 0, 16 * sizeof(*lanes));
	*comps = t->kind == SPV_T_VECTOR ? t->count : 1;
	switch (d->opcode) {
	case SpvOpConstant:
	case SpvOpSpecConstant:
		lanes[0] = w[3];
		if (wc > 4)
			lanes[0] |= (uint64_t)w[4] << 32;
		return t->kind == SPV_T_INT || t->kind == SPV_T_FLOAT;
	case SpvOpConstantTrue:
	case SpvOpSpecConstantTrue:
		lanes[0] = 1;
		return true;
	case SpvOpConstantFalse:
	case SpvOpSpecConstantFalse:
	case SpvOpConstantNull:
		return t->kind != SPV_T_ARRAY && t->kind != SPV_T_STRUCT;
	case SpvOpConstantComposite:
	case SpvOpSpecConstantComposite:
		if (t->kind != SPV_T_VECTOR)
			return false;
		for (i = 0; i < t->count; i++) {
			uint64_t sub[16];
			unsigned int n;

			if (m->ids[w[3 + i]].type != t->elem)
				return false;
			if (m->ids[w[3 + i]].opcode == SpvOpUndef)
				continue;
			if (!spv_const_lanes(m, w[3 + i], sub, &n) || n != 1)
				return false;
			lanes[i] = sub[0];
		}
		return true;
	default:
		return false;
	}
}

bool spv_const_bytes(const struct spv_module *m, uint32_t id,
		     uint32_t type_id, uint8_t *buf, unsigned int depth,
		     char *err, size_t errsz)
{
	const struct spv_type *t = spv_type_of_id(m, type_id);
	const struct spv_id *d;
	const uint32_t *w;
	uint32_t i;

	if (depth > SPV_MAX_NESTING || !t || !id || id >= m->bound) {
		snprintf(err, errsz, "bad constant initialiser %%%u", id);
		return false;
	}
	d = &m->ids[id];
	if (d->type != type_id || !d->def) {
		snprintf(err, errsz, "constant %%%u does not have the type "
			 "of its place", id);
		return false;
	}
	if (d->opcode == SpvOpConstantNull || d->opcode == SpvOpUndef) {
		memset(buf, 0, t->size);
		return true;
	}
	w = &m->words[d->def];
	switch (t->kind) {
	case SPV_T_BOOL:
	case SPV_T_INT:
	case SPV_T_FLOAT: {
		uint64_t lanes[16];
		unsigned int n;

		if (!spv_const_lanes(m, id, lanes, &n)) {
			snprintf(err, errsz, "%%%u is not a constant", id);
			return false;
		}
		memcpy(buf, &lanes[0], t->size);  /* little-endian */
		return true;
	}
	case SPV_T_VECTOR:
	case SPV_T_ARRAY:
	case SPV_T_STRUCT:
		if (d->opcode != SpvOpConstantComposite &&
		    d->opcode != SpvOpSpecConstantComposite) {
			snprintf(err, errsz, "%%%u is not a constant "
				 "composite", id);
			return false;
		}
		for (i = 0; i < t->count; i++) {
			uint32_t sub_type, off;

			if (t->kind == SPV_T_STRUCT) {
				sub_type = t->members[i];
				off = t->offsets[i];
			} else {
				sub_type = t->elem;
				off = i * spv_type_of_id(m, t->elem)->size;
			}
			if (!spv_const_bytes(m, w[3 + i], sub_type, buf + off,
					     depth + 1, err, errsz))
				return false;
		}
		return true;
	default:
		snprintf(err, errsz, "constant %%%u of a type without a "
			 "memory layout", id);
		return false;
	}
}

static void spv_type_name_at(const struct spv_module *m, uint32_t type_id,
			     char *buf, size_t size, unsigned int depth)
{
	const struct spv_type *t = spv_type_of_id(m, type_id);
	static const char *const ints[] = { "char", "short", "int", "long" };
	size_t n;

	if (!t || depth > SPV_MAX_NESTING) {
		snprintf(buf, size, "?");
		return;
	}
	switch (t->kind) {
	case SPV_T_BOOL:
		snprintf(buf, size, "bool");
		break;
	case SPV_T_INT:
		snprintf(buf, size, "%s", ints[t->width == 8 ? 0 :
					       t->width == 16 ? 1 :
					       t->width == 32 ? 2 : 3]);
		break;
	case SPV_T_FLOAT:
		snprintf(buf, size, "%s", t->width == 16 ? "half" :
					  t->width == 32 ? "float" : "double");
		break;
	case SPV_T_VECTOR:
		/* The element's name, then the suffix after it. */
		spv_type_name_at(m, t->elem, buf, size, depth + 1);
		n = strlen(buf);
		snprintf(buf + n, size - n, "%u", t->count);
		break;
	case SPV_T_PTR:
		spv_type_name_at(m, t->elem, buf, size, depth + 1);
		n = strlen(buf);
		snprintf(buf + n, size - n, "*");
		break;
	case SPV_T_STRUCT:
		snprintf(buf, size, "struct %s", m->ids[type_id].name ?
			 m->ids[type_id].name : "?");
		break;
	case SPV_T_VOID:
		snprintf(buf, size, "void");
		break;
	case SPV_T_EVENT:
		snprintf(buf, size, "event_t");
		break;
	case SPV_T_SAMPLER:
		snprintf(buf, size, "sampler_t");
		break;
	case SPV_T_IMAGE:
	case SPV_T_SAMPLED_IMAGE:
		snprintf(buf, size, "image%s%s_t",
			 t->image_dim == SpvDim1D ? "1d" :
			 t->image_dim == SpvDim2D ? "2d" :
			 t->image_dim == SpvDim3D ? "3d" : "1d_buffer",
			 t->image_arrayed ? "_array" : "");
		break;
	default:
		snprintf(buf, size, "?");
		break;
	}
}

void spv_type_name(const struct spv_module *m, uint32_t type_id, char *buf,
		   size_t size)
{
	spv_type_name_at(m, type_id, buf, size, 0);
}

char *spv_type_name_alloc(const struct spv_module *m, uint32_t type_id)
{
	const struct spv_type *t = spv_type_of_id(m, type_id);
	uint32_t id = type_id;
	size_t size = 64;
	char *buf;

	/* Pointers and vectors add a few characters each around the
	 * innermost type; only a struct's name is of any length. */
	for (unsigned int d = 0; t && d <= SPV_MAX_NESTING; d++) {
		size += 8;
		if (t->kind == SPV_T_STRUCT && m->ids[id].name)
			size += strlen(m->ids[id].name);
		if (t->kind != SPV_T_PTR && t->kind != SPV_T_VECTOR)
			break;
		id = t->elem;
		t = spv_type_of_id(m, id);
	}
	buf = malloc(size);
	if (buf)
		spv_type_name_at(m, type_id, buf, size, 0);
	return buf;
}
