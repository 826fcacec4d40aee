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
	cl_mem *mems;                /* buffer arguments, retained */
	unsigned int num_mems;
	/* One of mems the launch writes whatever its flags: the target of a
	 * fill or copy (icd_builtin.c), which CL_MEM_READ_ONLY allows. */
	cl_mem writes;
	struct sl_launch_params params;
	struct sl_launch_plan plan;
};


/* Launches one chain carries at most, and the fences of other queues'
 * chains one SUBMIT waits for at most. */
#define ICD_MAX_BATCH 64u
#define ICD_MAX_IN_SYNCS 16u

/*
 * Writes the n ready launches of @cmds into ring slot @slot of @queue
 * (free: the queue's ring_count < ICD_RING_SLOTS, and the caller is the
 * queue's one submitter) as one chain, each job waiting for the one
 * before, and submits it with one SUBMIT that gives its fence to the
 * slot's syncobj, as the queue's next point; the chain then takes its
 * place in queue->ring and the launches are CL_RUNNING. Launches that cannot go
 * (their program does not reach the GPU, or the SUBMIT failed) end at
 * once with CL_OUT_OF_RESOURCES. Returns how many went: they are first
 * in @cmds, and from then on belong to the ring (whoever ends the chain
 * may free them); those that ended follow.
 */
unsigned int icd_launch_submit(cl_command_queue queue, unsigned int slot,
			       cl_event *cmds, unsigned int n);

/*
 * Sleeps in the kernel until the fence of ring slot @slot's last SUBMIT
 * signalled (its chain ended, or was cancelled and may go again: the
 * caller compares the chain's point). Safe from several threads at once;
 * takes no lock. Should the slot take a new chain between the caller's
 * look at the ring and the wait (its chain ended meanwhile, and another
 * thread filled the ring behind it), the wait lasts until that chain
 * ends: later, never wrong.
 */
void icd_launch_wait(cl_command_queue queue, unsigned int slot);

/*
 * Ends the chain of ring slot @slot, which was at @point and has ended:
 * CL_COMPLETE, or CL_OUT_OF_RESOURCES for a launch the GPU faulted on or
 * did not reach (with the fault read and cleared), and the GPU's START
 * and END times when the queue profiles. False when the chain is on the
 * GPU again instead, at a new point: a fault elsewhere in the context
 * cancelled it before it started, and it went again (the waiter waits
 * anew).
 */
bool icd_launch_finish(cl_command_queue queue, unsigned int slot,
		       uint64_t point);

/* Drops what a launch holds (its program, buffers) when its command
 * ends, so that a rebuild or a release need not wait for the event's. */
void icd_launch_end(struct icd_launch *launch);

/* Frees a launch (the command's arguments, what it still holds). */
void icd_launch_free(struct icd_launch *launch);

/* Frees the queue's GPU state (command BO, scratch), at its end. */
void icd_gpu_queue_free(cl_command_queue queue);

#endif
