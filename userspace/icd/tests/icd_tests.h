/* SPDX-License-Identifier: MIT */
/* The ICD's host test groups, one per file, run from icd_test.c. */
#ifndef ICD_TESTS_H
#define ICD_TESTS_H

#include <stdbool.h>
#include <stddef.h>

#include "check.h"
#include "icd_cl.h"
#include "icd_object.h"

void test_limits_all(void);
void test_platform_all(void);
void test_device_all(void);
void test_context_all(void);
void test_dispatch_all(void);
void test_mem_all(void);
void test_image_all(void);
void test_program_all(void);
void test_kernel_all(void);
void test_queue_all(void);

/* The platform and device every group uses. */
cl_platform_id test_platform(void);
cl_device_id test_device(void);
/* A context on test_device(). */
cl_context test_context(void);

/* A context and an in-order queue on it, for the command tests. */
struct test_queue {
	cl_context c;
	cl_command_queue q;
};

bool test_queue_open(struct test_queue *t);
void test_queue_close(struct test_queue *t);

/*
 * A memory object as the ICD makes one, of @type, @size bytes of storage
 * malloc'd (zeroed) in place of a BO and freed with it; the caller fills
 * in what its kind needs beyond type, flags and size.
 */
cl_mem test_fake_mem(cl_context c, cl_mem_object_type type,
		     cl_mem_flags flags, size_t size);
/* The destructor callback that frees such storage. */
void CL_CALLBACK test_free_storage(cl_mem mem, void *storage);

#endif
