/* SPDX-License-Identifier: MIT */
/*
 * Kernel launches as commands: the snapshot clEnqueueNDRangeKernel takes
 * (icd_ndrange.c), and what a queue calls to run a batch of ready
 * launches on the GPU as one chain (icd_chain.c).
 */
#ifndef ICD_NDRANGE_H
#define ICD_NDRANGE_H

#include <stdbool.h>

#include "icd_object.h"
#include "sl_launch.h"

struct icd_fence;

/*
 * A launch as enqueued: what the chain needs to write its jobs. It holds
 * the kernel's program (icd_program_hold_launch), not the kernel object:
 * a kernel the application released is no longer attached to its
 * program, whose rebuild waits for the launches instead (OpenCL 1.2
 * 5.7.8: the kernel object is gone for the application; the enqueued
 * commands still run). What it holds goes when the command ends.
 */
struct icd_launch {
	cl_program program;          /* held; NULL once ended */
	struct sl_arg *args;         /* the arguments at enqueue time */
	struct icd_kernel_arg *values;  /* their bytes */
	cl_mem *mems;                /* buffer arguments, retained */
	unsigned int num_mems;
	struct sl_launch_params params;
	struct sl_launch_plan plan;
};


/* Launches one chain carries at most, and the fences of other queues'
 * chains one SUBMIT waits for at most. */
#define ICD_MAX_BATCH 64u
#define ICD_MAX_IN_SYNCS 16u

/*
 * Writes the n ready launches of @cmds into @queue's command BO as one
 * chain (each job waiting for the one before) and submits it with one
 * SUBMIT, marking them CL_SUBMITTED and CL_RUNNING. Launches that cannot
 * go (their program does not reach the GPU) end at once with
 * CL_OUT_OF_RESOURCES. True when a chain is in flight: the queue must
 * then call icd_launch_wait() and icd_launch_finish() before the next.
 */
bool icd_launch_submit(cl_command_queue queue, cl_event *cmds,
		       unsigned int n);

/* Sleeps in the kernel until @fence signalled (a chain ended). Safe from
 * several threads at once; takes no lock. */
void icd_launch_wait(cl_command_queue queue, struct icd_fence *fence);

/*
 * Ends the launches of the chain in flight, once it ended: CL_COMPLETE,
 * or CL_OUT_OF_RESOURCES for a launch the GPU faulted on or did not reach
 * (with the fault read and cleared), and the GPU's START and END times
 * when the queue profiles.
 */
void icd_launch_finish(cl_command_queue queue);

/*
 * A chain's syncobj, signalled when the chain ends. Each launch of the
 * chain holds a reference (cl_event.fence), so that a launch on another
 * queue of the context that waits for it can go to the GPU while it
 * runs, with the syncobj as an in-sync of its SUBMIT: the GPU orders the
 * two. The syncobj is destroyed with the last reference.
 */
struct icd_fence;
struct icd_fence *icd_fence_get(struct icd_fence *fence);
void icd_fence_put(struct icd_fence *fence);

/* Drops what a launch holds (its program, buffers) when its command
 * ends, so that a rebuild or a release need not wait for the event's. */
void icd_launch_end(struct icd_launch *launch);

/* Frees a launch (the command's arguments, what it still holds). */
void icd_launch_free(struct icd_launch *launch);

/* Frees the queue's GPU state (command BO, scratch), at its end. */
void icd_gpu_queue_free(cl_command_queue queue);

#endif
