/* SPDX-License-Identifier: MIT */
/*
 * The header every OpenCL object of the ICD starts with, and the handle
 * checks every API entry makes.
 *
 * cl_khr_icd requires the loader's dispatch pointer to be the first word of
 * every object (the loader reads it to route a call to its vendor), so it
 * comes first here. A type tag lets each entry tell a valid handle of the
 * expected kind from any other pointer an application may pass.
 */
#ifndef ICD_OBJECT_H
#define ICD_OBJECT_H

#include <stdatomic.h>
#include <stdbool.h>

#include "icd_cl.h"

enum icd_type {
	ICD_TYPE_NONE = 0,
	/* Distinct non-trivial values, so zeroed or random memory does not
	 * pass for an object. */
	ICD_TYPE_PLATFORM = 0x534c5031, /* "SLP1" */
	ICD_TYPE_DEVICE = 0x534c4431,
	ICD_TYPE_CONTEXT = 0x534c4331,
	ICD_TYPE_COMMAND_QUEUE = 0x534c5131,
	ICD_TYPE_MEM = 0x534c4d31,
	ICD_TYPE_PROGRAM = 0x534c5231,
	ICD_TYPE_KERNEL = 0x534c4b31,
	ICD_TYPE_EVENT = 0x534c4531,
	ICD_TYPE_SAMPLER = 0x534c5331,
};

struct icd_object {
	const struct _cl_icd_dispatch *dispatch;
	enum icd_type type;
	/* Application-visible reference count (clRetain*, clRelease*). */
	atomic_uint refs;
};

/* The ICD's dispatch table (icd_dispatch.c). */
extern const struct _cl_icd_dispatch icd_dispatch;

/* Sets up a new object with one reference. */
void icd_object_init(struct icd_object *obj, enum icd_type type);

/* True when @handle is a live object of @type made by this ICD. */
bool icd_object_is(const void *handle, enum icd_type type);

/* Adds a reference. */
void icd_object_retain(struct icd_object *obj);

/* Drops a reference; true when it was the last one, and the caller must
 * then free the object. The tag is cleared so that a stale copy of the
 * handle in freed-but-not-yet-reused memory fails validation. */
bool icd_object_release(struct icd_object *obj);

/* The current count, for CL_*_REFERENCE_COUNT queries. */
cl_uint icd_object_refs(const struct icd_object *obj);

#endif
