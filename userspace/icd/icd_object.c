/* SPDX-License-Identifier: MIT */
/* Reference counting and handle validation shared by every object type. */
#include "icd_object.h"

void icd_object_init(struct icd_object *obj, enum icd_type type)
{
	obj->dispatch = &icd_dispatch;
	obj->type = type;
	atomic_init(&obj->refs, 1);
}

bool icd_object_is(const void *handle, enum icd_type type)
{
	const struct icd_object *obj = handle;

	/* The dispatch pointer first: a handle of another vendor (routed here
	 * by a confused application) has a different table. */
	return obj && obj->dispatch == &icd_dispatch && obj->type == type &&
	       atomic_load(&obj->refs) > 0;
}

void icd_object_retain(struct icd_object *obj)
{
	atomic_fetch_add_explicit(&obj->refs, 1, memory_order_relaxed);
}

bool icd_object_release(struct icd_object *obj)
{
	/* acq_rel: the thread that frees must see every other thread's
	 * writes to the object made before their release. */
	if (atomic_fetch_sub_explicit(&obj->refs, 1, memory_order_acq_rel) != 1)
		return false;
	obj->type = ICD_TYPE_NONE;
	return true;
}

cl_uint icd_object_refs(const struct icd_object *obj)
{
	return atomic_load_explicit(&obj->refs, memory_order_relaxed);
}
