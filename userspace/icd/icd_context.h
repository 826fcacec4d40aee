/* SPDX-License-Identifier: MIT */
/* Contexts: the device they hold, their properties and error callback. */
#ifndef ICD_CONTEXT_H
#define ICD_CONTEXT_H

#include <pthread.h>

#include "icd_object.h"
#include "sl_drm.h"

typedef void(CL_CALLBACK *icd_context_notify)(const char *errinfo,
					       const void *private_info,
					       size_t cb, void *user_data);

/* CL_CONTEXT_PLATFORM and CL_CONTEXT_INTEROP_USER_SYNC, each once, and the
 * terminating 0: 2 * 2 + 1 entries at most. */
#define ICD_CONTEXT_MAX_PROPERTIES 5

struct _cl_context {
	struct icd_object obj;
	/* Duplicates in the application's list are ignored (OpenCL 1.2), so
	 * a context holds our one device. */
	cl_device_id device;
	/* The properties as given, for CL_CONTEXT_PROPERTIES; 0 entries when
	 * the application passed NULL. */
	cl_context_properties properties[ICD_CONTEXT_MAX_PROPERTIES];
	size_t num_properties;
	/* Kept for the errors later layers report (the queue, the build). */
	icd_context_notify notify;
	void *notify_data;
	/*
	 * The context's own GPU address space: a render node opened for it
	 * (icd_device_open_vm), so a fault in one context's kernels leaves
	 * other contexts running. Its BOs and syncobjs are used under
	 * gpu_lock (sl_drm objects are not thread-safe). NULL on the host's
	 * fake GPU.
	 */
	struct sl_drm *drm;
	pthread_mutex_t gpu_lock;
	/*
	 * Under gpu_lock: the faults read and cleared (GET_FAULT) so far,
	 * and the last one, kept until the chain it ended (fault.jc) is
	 * ended and reports it. A chain submitted before the last clear may
	 * have been cancelled by it without running (icd_chain.c).
	 */
	uint64_t fault_clears;
	struct drm_sleipnir_get_fault fault;
	bool fault_held;
	/* The program of the runtime's fills and copies, NULL when the CPU
	 * does them (icd_builtin.h). */
	cl_program builtin;
	/* Its command queues (under icd_event_lock()), through
	 * next_in_context. */
	cl_command_queue queues;
};

/* True when @context is a live context of this ICD. */
bool icd_context_valid(cl_context context);

/*
 * Makes the threads of @context's queues end the chains on the GPU that
 * nobody waits for (icd_queue_watch): for what waits for launches to end
 * other than through their events (a rebuild of their program, the
 * destruction of a buffer they use).
 */
void icd_context_watch_queues(cl_context context);

/* Reports @errinfo through the context's callback, if it has one. */
void icd_context_notify_error(cl_context context, const char *errinfo);

#endif
