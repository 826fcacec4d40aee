/* SPDX-License-Identifier: MIT */
/*
 * Command queues and how commands are enqueued.
 *
 * Each queue has one thread that executes its commands: CPU commands
 * (buffer reads, writes, copies, fills, maps) run on it once their
 * dependencies completed; kernel launches that are ready together are
 * written into a free slot of the queue's ring of command BOs as one
 * chain of jobs and submitted to sleipnir.ko with one SUBMIT, up to
 * ICD_RING_SLOTS chains on the GPU at once, each with its fence in its
 * slot's syncobj (no busy-waiting). In-order
 * queues run commands in order; out-of-order queues run any command
 * whose wait list completed. On an idle in-order queue the enqueueing
 * thread does the work itself (a CPU command whose wait list ended, a
 * launch behind launches already on the GPU), and a thread that waits
 * ends the chains it waits for: enqueue and clFinish of a kernel never
 * involve the queue's thread.
 *
 * An entry point that enqueues does:
 *
 *   err = icd_queue_check(queue, num_events, wait_list);   validation
 *   cmd = icd_command_new(queue, CL_COMMAND_..., num_events, wait_list,
 *                         &err);
 *   cmd->run = ...; cmd->data = ...; cmd->free_data = ...;
 *   return icd_command_enqueue(cmd, blocking, event);
 *
 * icd_command_enqueue() runs or submits the command, or hands it to the
 * queue's thread, gives the application its event when it asked for one
 * and, for blocking calls, waits for the command to end.
 */
#ifndef ICD_QUEUE_H
#define ICD_QUEUE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "icd_ndrange.h"
#include "icd_object.h"

struct icd_gpu_queue;

/* Chains a queue has on the GPU at once at most. */
#define ICD_RING_SLOTS 4u

/* A chain on the GPU (under icd_event_lock()): its launches, in order, and
 * its point, its number in the queue's SUBMIT order (icd_chain.c). */
struct icd_chain {
	cl_event cmds[ICD_MAX_BATCH];
	unsigned int n;
	uint64_t point;
};

struct _cl_command_queue {
	struct icd_object obj;
	cl_context context;          /* retained */
	cl_device_id device;
	cl_command_queue_properties properties;
	/* Under icd_event_lock(): the thread waits for new commands and for
	 * the events they depend on on the same condition variable. */
	cl_event head, tail;         /* commands not yet ended, in order */
	bool stop;                   /* set on the last release */
	/*
	 * What wakes the thread while its queue is idle (no command, no
	 * chain): a new command it must run, a chain to end, the stop.
	 * With work pending it waits for status changes like everyone
	 * else; idle, it is left out of them, so a command the caller's
	 * thread runs at once wakes nobody.
	 */
	pthread_cond_t idle_wake;
	/*
	 * The chains of launches on the GPU, oldest first: a ring of
	 * ICD_RING_SLOTS (ring_first, ring_count), so the GPU always has the
	 * next chain queued behind the one it runs. Chains end in order, the
	 * oldest first, by whichever thread wakes from its fence first among
	 * those waiting for it: the application's, in clFinish or a wait, or
	 * the queue's own, which steps aside while the application waits.
	 * ring_claimed: the oldest is being ended. The queue's thread only
	 * watches the chains (watch) once something needs them to end without
	 * an application thread waiting: a command behind them, a callback, a
	 * status query, a flush, a release of the queue; a launch the caller's
	 * thread submits and then waits for never wakes it.
	 */
	struct icd_chain ring[ICD_RING_SLOTS];
	unsigned int ring_first, ring_count;
	bool ring_claimed;
	bool watch;
	/* A thread is putting a chain on the GPU (into ring slot
	 * next_slot): one at a time, in order. */
	bool submitting;
	unsigned int next_slot;
	unsigned int chain_waiters;
	cl_command_queue next_in_context;  /* under icd_event_lock() */
	pthread_t thread;
	/* The thread's GPU state (icd_ndrange.c): command BO, scratch. */
	struct icd_gpu_queue *gpu;
};

bool icd_queue_valid(cl_command_queue queue);

/* Drops a reference a command held (clReleaseCommandQueue without what
 * the application's release also does). */
void icd_queue_release(cl_command_queue queue);

/*
 * The checks every clEnqueue* entry shares: @queue is valid
 * (CL_INVALID_COMMAND_QUEUE), the wait list is consistent
 * (CL_INVALID_EVENT_WAIT_LIST: NULL with a count or a list with 0, or an
 * invalid event) and its events are of the queue's context
 * (CL_INVALID_CONTEXT).
 */
cl_int icd_queue_check(cl_command_queue queue, cl_uint num_events,
		       const cl_event *wait_list);

/* A command of @type on @queue waiting for @wait_list (already checked);
 * NULL with *err = CL_OUT_OF_HOST_MEMORY when out of memory. */
cl_event icd_command_new(cl_command_queue queue, cl_command_type type,
			 cl_uint num_events, const cl_event *wait_list,
			 cl_int *err);

/*
 * Enqueues @cmd (made by icd_command_new, set up by the caller). When
 * @event is not NULL the application gets a reference to it there. With
 * @blocking, waits until it ended: CL_SUCCESS, or
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when it or a dependency
 * failed. On failure to enqueue the command is freed.
 */
cl_int icd_command_enqueue(cl_event cmd, bool blocking, cl_event *event);

/* Wakes @queue's thread (clFlush, and waits on its events). */
void icd_queue_flush(cl_command_queue queue);

/* True (under the event lock) when @queue has a chain on the GPU that no
 * thread is ending yet: a waiter should icd_queue_end_chain() it. */
bool icd_queue_chain_open(cl_command_queue queue);

/*
 * Waits for @queue's oldest chain on the GPU and ends its commands, unless
 * another thread does; true when this call ended it. Called without the
 * event lock, by the queue's thread (@app false) and by application
 * threads that wait for the queue's commands.
 */
bool icd_queue_end_chain(cl_command_queue queue, bool app);

/*
 * Makes @queue's thread end the chains it has on the GPU even when no
 * application thread waits for them (under the event lock): for a
 * callback, a status query, another queue's command, a release.
 */
void icd_queue_watch(cl_command_queue queue);

#endif
