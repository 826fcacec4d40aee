/* SPDX-License-Identifier: MIT */
/*
 * The dispatch table is complete for OpenCL 1.0-1.2, and entries given
 * handles of the wrong kind, or none, answer with the errors OpenCL 1.2
 * names.
 */
#include <stddef.h>

#include "icd_tests.h"
#include "sleipnir_compiler.h"

/* Every pointer slot from clGetPlatformIDs to clGetGLContextInfoKHR is
 * OpenCL 1.0 core except the GL sharing ones, which we do not offer. */
TEST(table_complete)
{
	static const size_t gl_slots[] = {
		offsetof(struct _cl_icd_dispatch, clCreateFromGLBuffer),
		offsetof(struct _cl_icd_dispatch, clCreateFromGLTexture2D),
		offsetof(struct _cl_icd_dispatch, clCreateFromGLTexture3D),
		offsetof(struct _cl_icd_dispatch, clCreateFromGLRenderbuffer),
		offsetof(struct _cl_icd_dispatch, clGetGLObjectInfo),
		offsetof(struct _cl_icd_dispatch, clGetGLTextureInfo),
		offsetof(struct _cl_icd_dispatch, clEnqueueAcquireGLObjects),
		offsetof(struct _cl_icd_dispatch, clEnqueueReleaseGLObjects),
		offsetof(struct _cl_icd_dispatch, clGetGLContextInfoKHR),
	};
	const void *const *slot = (const void *const *)&icd_dispatch;
	size_t first = offsetof(struct _cl_icd_dispatch, clGetPlatformIDs);
	size_t last = offsetof(struct _cl_icd_dispatch, clGetGLContextInfoKHR);

	for (size_t off = first; off <= last; off += sizeof(void *)) {
		bool gl = false;

		for (size_t i = 0; i < sizeof(gl_slots) / sizeof(*gl_slots); i++)
			gl |= gl_slots[i] == off;
		if (!gl && !slot[off / sizeof(void *)])
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "1.0 slot %zu is empty", off / sizeof(void *));
	}
	/* OpenCL 1.1 and 1.2 entries. */
	CHECK(icd_dispatch.clSetEventCallback);
	CHECK(icd_dispatch.clCreateSubBuffer);
	CHECK(icd_dispatch.clSetMemObjectDestructorCallback);
	CHECK(icd_dispatch.clCreateUserEvent);
	CHECK(icd_dispatch.clSetUserEventStatus);
	CHECK(icd_dispatch.clEnqueueReadBufferRect);
	CHECK(icd_dispatch.clEnqueueWriteBufferRect);
	CHECK(icd_dispatch.clEnqueueCopyBufferRect);
	CHECK(icd_dispatch.clCreateSubDevices);
	CHECK(icd_dispatch.clRetainDevice);
	CHECK(icd_dispatch.clReleaseDevice);
	CHECK(icd_dispatch.clCreateImage);
	CHECK(icd_dispatch.clCreateProgramWithBuiltInKernels);
	CHECK(icd_dispatch.clCompileProgram);
	CHECK(icd_dispatch.clLinkProgram);
	CHECK(icd_dispatch.clUnloadPlatformCompiler);
	CHECK(icd_dispatch.clGetKernelArgInfo);
	CHECK(icd_dispatch.clEnqueueFillBuffer);
	CHECK(icd_dispatch.clEnqueueFillImage);
	CHECK(icd_dispatch.clEnqueueMigrateMemObjects);
	CHECK(icd_dispatch.clEnqueueMarkerWithWaitList);
	CHECK(icd_dispatch.clEnqueueBarrierWithWaitList);
	CHECK(icd_dispatch.clGetExtensionFunctionAddressForPlatform);
	CHECK(icd_dispatch.clGetPlatformInfo == clGetPlatformInfo);
}

TEST(handle_errors)
{
	cl_device_id d = test_device();
	cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, NULL);
	cl_event ev = (cl_event)c;
	cl_int err = 1;

	REQUIRE(c);
	/* Handles of the wrong kind, or none. */
	CHECK_EQ(clRetainCommandQueue((cl_command_queue)c),
		 CL_INVALID_COMMAND_QUEUE);
	CHECK_EQ(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
	CHECK_EQ(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
	CHECK_EQ(clBuildProgram(NULL, 0, NULL, NULL, NULL, NULL),
		 CL_INVALID_PROGRAM);
	CHECK_EQ(clSetKernelArg(NULL, 0, 0, NULL), CL_INVALID_KERNEL);
	CHECK_EQ(clReleaseEvent(ev), CL_INVALID_EVENT);
	CHECK_EQ(clWaitForEvents(1, &ev), CL_INVALID_EVENT);
	CHECK_EQ(clWaitForEvents(0, &ev), CL_INVALID_VALUE);
	CHECK(clEnqueueMapBuffer(NULL, NULL, CL_TRUE, 0, 0, 4, 0, NULL, NULL,
				 &err) == NULL);
	CHECK_EQ(err, CL_INVALID_COMMAND_QUEUE);
	/* Creators with a bad context; a buffer needs the GPU, which the
	 * fake has not got. */
	CHECK(clCreateBuffer(NULL, 0, 4, NULL, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_CONTEXT);
	CHECK(clCreateBuffer(c, 0, 4, NULL, &err) == NULL);
	CHECK_EQ(err, CL_OUT_OF_RESOURCES);
	CHECK(clCreateCommandQueue(c, (cl_device_id)c, 0, &err) == NULL);
	CHECK_EQ(err, CL_INVALID_DEVICE);
	/* Images: the format is checked before the storage is needed. */
	CHECK(clCreateImage2D(c, 0, NULL, 1, 1, 0, NULL, &err) == NULL);
	CHECK_EQ(err, SLC_DEVICE_IMAGE_SUPPORT ?
		 CL_INVALID_IMAGE_FORMAT_DESCRIPTOR : CL_INVALID_OPERATION);
	{
		cl_sampler smp = clCreateSampler(c, CL_FALSE, CL_ADDRESS_NONE,
						 CL_FILTER_NEAREST, &err);

		CHECK_EQ(err, SLC_DEVICE_IMAGE_SUPPORT ? CL_SUCCESS :
			 CL_INVALID_OPERATION);
		CHECK((smp != NULL) == SLC_DEVICE_IMAGE_SUPPORT);
		if (smp)
			CHECK_EQ(clReleaseSampler(smp), CL_SUCCESS);
	}
	CHECK(clCreateProgramWithBuiltInKernels(c, 1, &d, "k", &err) == NULL);
	CHECK_EQ(err, CL_INVALID_VALUE);
	CHECK_EQ(clReleaseContext(c), CL_SUCCESS);
}

void test_dispatch_all(void)
{
	RUN(table_complete);
	RUN(handle_errors);
}
