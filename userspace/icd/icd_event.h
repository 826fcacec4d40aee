/* SPDX-License-Identifier: MIT */
/*
 * Events. Every enqueued command is an event (the application may or may
 * not hold a reference to it); user events are events with no queue.
 *
 * Status moves CL_QUEUED -> CL_SUBMITTED -> CL_RUNNING -> CL_COMPLETE, or
 * to a negative error at any point; it never moves back. All status
 * changes go through icd_event_set_status(), which records the profiling
 * time, wakes waiters (one process-wide condition variable) and runs the
 * callbacks registered for the states passed.
 */
#ifndef ICD_EVENT_H
#define ICD_EVENT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "icd_object.h"

struct icd_event_callback {
	void(CL_CALLBACK *fn)(cl_event event, cl_int status, void *user_data);
	void *user_data;
	cl_int trigger;              /* CL_SUBMITTED, CL_RUNNING, CL_COMPLETE */
	struct icd_event_callback *next;
};

struct icd_launch;

struct _cl_event {
	struct icd_object obj;
	cl_context context;          /* retained */
	cl_command_queue queue;      /* retained; NULL for user events */
	cl_command_type type;
	cl_int status;               /* under icd_event_lock() */
	/* CL_PROFILING_COMMAND_QUEUED/SUBMIT/START/END, ns. */
	cl_ulong times[4];
	struct icd_event_callback *callbacks;
	/* Calls of icd_event_set_status() running its callbacks (under the
	 * lock): waits return after them. */
	unsigned int callbacks_running;

	/* --- the command (queue events only) ------------------------------ */
	/* Events it waits for (retained), from the wait list. */
	cl_event *deps;
	cl_uint num_deps;
	/*
	 * What it does: CPU work run on the queue's thread once every
	 * dependency completed (run returns CL_SUCCESS or the negative
	 * status to end with), or a GPU launch (icd_ndrange.c), or neither
	 * (markers, barriers).
	 */
	cl_int (*run)(cl_event cmd);
	void *data;                  /* run's, freed by free_data */
	void (*free_data)(void *data);
	struct icd_launch *launch;
	/* Launches on the GPU: their chain's point, its number in the
	 * queue's SUBMIT order (under the lock; 0 until submitted). */
	uint64_t point;
	/* Barriers and markers without a wait list wait for everything
	 * enqueued before them (icd_queue.c). */
	bool waits_for_all;
	cl_event next;               /* the queue's list, under the lock */
	bool taken;                  /* the queue's thread is running it */
};

/* The lock and condition variable every event status change uses. */
void icd_event_lock(void);
void icd_event_unlock(void);
/* Waits (with the lock held) until some event changed status. */
void icd_event_wait_change(void);
/* Wakes every waiter (with the lock held): a status or a list changed. */
void icd_event_broadcast(void);
/* The lock itself, for a thread waiting on a condition of its own. */
pthread_mutex_t *icd_event_mutex(void);

/* A new event of @context with one reference, status CL_QUEUED (or
 * CL_SUBMITTED for user events); NULL when out of memory. */
cl_event icd_event_new(cl_context context, cl_command_queue queue,
		       cl_command_type type);

bool icd_event_valid(cl_event event);
void icd_event_retain(cl_event event);
void icd_event_release(cl_event event);

/*
 * Moves @event to @status (ignored when it is already complete or
 * failed), stamping the profiling time for it with @time_ns (0: now), and
 * runs the callbacks due. Called without the lock held.
 */
void icd_event_set_status(cl_event event, cl_int status, cl_ulong time_ns);

/* True when an event @cmd waits for has failed (takes the lock). */
bool icd_event_deps_failed(cl_event cmd);

/* True when @status is final: CL_COMPLETE or negative. */
static inline bool icd_event_status_final(cl_int status)
{
	return status <= CL_COMPLETE;
}

/*
 * Waits until every event of @list ended; CL_SUCCESS, or
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when one failed. Ends the
 * chains on the GPU it waits for itself (clWaitForEvents implies clFlush,
 * which it has no more to do than that).
 */
cl_int icd_event_wait(cl_uint num, const cl_event *list);

/* CLOCK_MONOTONIC in ns, the profiling time base. */
cl_ulong icd_now_ns(void);

#endif
