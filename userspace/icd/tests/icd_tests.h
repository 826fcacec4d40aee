/* SPDX-License-Identifier: MIT */
/* The ICD's host test groups, one per file, run from icd_test.c. */
#ifndef ICD_TESTS_H
#define ICD_TESTS_H

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

#endif
