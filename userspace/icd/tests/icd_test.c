/* SPDX-License-Identifier: MIT */
/* Host tests of the ICD's pure parts: handle checks, the size rules of the
 * info queries, reference counts, the dispatch table, the device limits. */
#include <stdlib.h>

#include "icd_mem.h"
#include "icd_tests.h"

CHECK_MAIN_STATE("icd");

cl_platform_id test_platform(void)
{
	cl_platform_id p = NULL;

	clGetPlatformIDs(1, &p, NULL);
	return p;
}

cl_device_id test_device(void)
{
	cl_device_id d = NULL;

	clGetDeviceIDs(test_platform(), CL_DEVICE_TYPE_GPU, 1, &d, NULL);
	return d;
}

cl_context test_context(void)
{
	cl_device_id d = test_device();

	return clCreateContext(NULL, 1, &d, NULL, NULL, NULL);
}

bool test_queue_open(struct test_queue *t)
{
	t->c = test_context();
	t->q = t->c ? clCreateCommandQueue(t->c, test_device(), 0, NULL) :
	       NULL;
	return t->q != NULL;
}

void test_queue_close(struct test_queue *t)
{
	if (t->q)
		clReleaseCommandQueue(t->q);
	if (t->c)
		clReleaseContext(t->c);
}

void CL_CALLBACK test_free_storage(cl_mem mem, void *storage)
{
	(void)mem;
	free(storage);
}

cl_mem test_fake_mem(cl_context c, cl_mem_object_type type,
		     cl_mem_flags flags, size_t size)
{
	cl_mem m = calloc(1, sizeof(*m));

	icd_object_init(&m->obj, ICD_TYPE_MEM);
	atomic_init(&m->holds, 1);
	atomic_init(&m->map_count, 0);
	pthread_mutex_init(&m->lock, NULL);
	clRetainContext(c);
	m->context = c;
	m->type = type;
	m->flags = flags;
	m->size = size;
	m->cpu = calloc(1, size);
	clSetMemObjectDestructorCallback(m, test_free_storage, m->cpu);
	return m;
}

int main(void)
{
	test_limits_all();
	test_platform_all();
	test_device_all();
	test_context_all();
	test_dispatch_all();
	test_mem_all();
	test_image_all();
	test_program_all();
	test_kernel_all();
	test_queue_all();
	return check_summary();
}
