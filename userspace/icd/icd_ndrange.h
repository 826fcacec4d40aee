/* SPDX-License-Identifier: MIT */
/*
 * Kernel launches as commands (icd_ndrange.c): what the queue's thread
 * calls to run a batch of ready launches on the GPU, as one chain.
 */
#ifndef ICD_NDRANGE_H
#define ICD_NDRANGE_H

#include "icd_object.h"

struct icd_launch;

/*
 * Runs the n launch commands of @cmds (each has ->launch) on @queue's
 * GPU address space as one chain of jobs in one SUBMIT, in order, and
 * waits for it: each command ends CL_COMPLETE, or CL_OUT_OF_RESOURCES
 * when the GPU faulted or timed out on it (or on the chain before it).
 * Sets SUBMITTED/RUNNING/COMPLETE with GPU timestamps when the queue
 * profiles.
 */
void icd_launch_run(cl_command_queue queue, cl_event *cmds, unsigned int n);

/* Frees a launch (the command's arguments, references). */
void icd_launch_free(struct icd_launch *launch);

/* Frees the queue's GPU state (command BO, scratch), at its end. */
void icd_gpu_queue_free(cl_command_queue queue);

#endif
