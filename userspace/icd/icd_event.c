/* SPDX-License-Identifier: MIT */
/*
 * Events: status, callbacks, waits, user events and profiling
 * (clWaitForEvents, clGetEventInfo, clCreateUserEvent,
 * clSetUserEventStatus, clSetEventCallback, clGetEventProfilingInfo,
 * clRetain/ReleaseEvent).
 */
#include <stdlib.h>
#include <time.h>

#include "icd_context.h"
#include "icd_event.h"
#include "icd_info.h"
#include "icd_ndrange.h"
#include "icd_queue.h"

/*
 * One lock and one condition variable for every event and queue list: a
 * queue's thread waits for its own new commands and for events of other
 * queues (or user events) alike, and status changes are rare next to the
 * work each command does.
 */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_changed = PTHREAD_COND_INITIALIZER;

/* Callbacks this thread is running (nested when one ends an event). */
static _Thread_local unsigned int in_callback;

void icd_event_lock(void)
{
	pthread_mutex_lock(&g_lock);
}

void icd_event_unlock(void)
{
	pthread_mutex_unlock(&g_lock);
}

void icd_event_wait_change(void)
{
	pthread_cond_wait(&g_changed, &g_lock);
}

pthread_mutex_t *icd_event_mutex(void)
{
	return &g_lock;
}

void icd_event_broadcast(void)
{
	pthread_cond_broadcast(&g_changed);
}

cl_ulong icd_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (cl_ulong)ts.tv_sec * 1000000000ull + (cl_ulong)ts.tv_nsec;
}

cl_event icd_event_new(cl_context context, cl_command_queue queue,
		       cl_command_type type)
{
	cl_event ev = calloc(1, sizeof(*ev));

	if (!ev)
		return NULL;
	icd_object_init(&ev->obj, ICD_TYPE_EVENT);
	clRetainContext(context);
	ev->context = context;
	ev->queue = queue;
	ev->type = type;
	ev->status = queue ? CL_QUEUED : CL_SUBMITTED;
	ev->times[0] = icd_now_ns();
	return ev;
}

bool icd_event_valid(cl_event event)
{
	return icd_object_is(event, ICD_TYPE_EVENT);
}

void icd_event_retain(cl_event event)
{
	icd_object_retain(&event->obj);
}

void icd_event_release(cl_event event)
{
	struct icd_event_callback *cb, *next;

	if (!icd_object_release(&event->obj))
		return;
	for (cl_uint i = 0; i < event->num_deps; i++)
		icd_event_release(event->deps[i]);
	free(event->deps);
	if (event->free_data)
		event->free_data(event->data);
	if (event->launch)
		icd_launch_free(event->launch);
	for (cb = event->callbacks; cb; cb = next) {
		next = cb->next;
		free(cb);
	}
	if (event->queue)
		icd_queue_release(event->queue);
	clReleaseContext(event->context);
	free(event);
}

bool icd_event_deps_failed(cl_event cmd)
{
	bool failed = false;

	/* Fixed at enqueue: no lock to see the list is empty. */
	if (!cmd->num_deps)
		return false;
	icd_event_lock();
	for (cl_uint i = 0; i < cmd->num_deps; i++)
		failed |= cmd->deps[i]->status < 0;
	icd_event_unlock();
	return failed;
}

/* The profiling slot a state is reached at: SUBMIT 1, START 2, END 3. */
static unsigned int time_slot(cl_int state)
{
	return (unsigned int)(CL_QUEUED - state);
}

void icd_event_set_status(cl_event event, cl_int status, cl_ulong time_ns)
{
	struct icd_event_callback *due = NULL, **link, *cb;
	cl_int old;

	if (!time_ns)
		time_ns = icd_now_ns();
	icd_event_lock();
	old = event->status;
	/* States only move forward (down in value); errors end them. */
	if (icd_event_status_final(old) || (status >= old && status >= 0)) {
		icd_event_unlock();
		return;
	}
	/* Every state passed gets a time, so QUEUED <= SUBMIT <= START <=
	 * END holds even when a command goes straight to its end. */
	for (cl_int s = old - 1; s >= (status < 0 ? CL_COMPLETE : status); s--)
		if (!event->times[time_slot(s)])
			event->times[time_slot(s)] = time_ns;
	event->status = status;
	/* Callbacks for the states now reached, in registration order. */
	link = &event->callbacks;
	while ((cb = *link)) {
		if (status < 0 || cb->trigger >= status) {
			*link = cb->next;
			cb->next = due;
			due = cb;
		} else {
			link = &cb->next;
		}
	}
	if (due) {
		icd_object_retain(&event->obj);
		event->callbacks_running++;
	}
	icd_event_broadcast();
	icd_event_unlock();

	/* A launch lets go of its program and buffers as it ends, before
	 * any callback (which may rebuild the program) runs. Only this
	 * call made the status final. */
	if (event->launch && icd_event_status_final(status))
		icd_launch_end(event->launch);

	/* Outside the lock: a callback may call back into OpenCL. The list
	 * was reversed once; reverse again to run them oldest first. */
	cb = NULL;
	while (due) {
		struct icd_event_callback *n = due->next;

		due->next = cb;
		cb = due;
		due = n;
	}
	if (!cb)
		return;
	in_callback++;
	while (cb) {
		struct icd_event_callback *n = cb->next;

		cb->fn(event, status < 0 ? status : cb->trigger, cb->user_data);
		free(cb);
		cb = n;
	}
	in_callback--;
	/* Waiters for the event see it end once its callbacks returned. */
	icd_event_lock();
	event->callbacks_running--;
	icd_event_broadcast();
	icd_event_unlock();
	icd_event_release(event);
}

/* Checks a list of events given to clWaitForEvents-like calls. */
static cl_int check_list(cl_uint num, const cl_event *list)
{
	if (!num || !list)
		return CL_INVALID_VALUE;
	for (cl_uint i = 0; i < num; i++) {
		if (!icd_event_valid(list[i]))
			return CL_INVALID_EVENT;
		if (list[i]->context != list[0]->context)
			return CL_INVALID_CONTEXT;
	}
	return CL_SUCCESS;
}

cl_int icd_event_wait(cl_uint num, const cl_event *list)
{
	cl_int result = CL_SUCCESS;

	/* No flush is needed: commands go to the GPU or their queue's
	 * thread as they are enqueued, and this thread ends the chains it
	 * waits for itself. */
	icd_event_lock();
	for (cl_uint i = 0; i < num; i++) {
		cl_command_queue q = list[i]->queue;

		/*
		 * Until it ended and the callbacks its end set off returned
		 * (so what they record is there when the wait returns),
		 * unless this thread is one of them: it would wait for
		 * itself (a blocking call in a callback is undefined, OpenCL
		 * 1.2 5.9; this one is spared the hang).
		 */
		while (!icd_event_status_final(list[i]->status) ||
		       (list[i]->callbacks_running && !in_callback)) {
			/* Waiting for a chain on the GPU: wait for its fence
			 * here, and end it here. */
			if (!icd_event_status_final(list[i]->status) && q &&
			    icd_queue_chain_open(q)) {
				icd_event_unlock();
				icd_queue_end_chain(q, true);
				icd_event_lock();
				continue;
			}
			icd_event_wait_change();
		}
		if (list[i]->status < 0)
			result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
	}
	icd_event_unlock();
	return result;
}

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events,
				   const cl_event *event_list)
{
	cl_int err = check_list(num_events, event_list);

	return err ? err : icd_event_wait(num_events, event_list);
}

cl_int CL_API_CALL clRetainEvent(cl_event event)
{
	if (!icd_event_valid(event))
		return CL_INVALID_EVENT;
	icd_event_retain(event);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseEvent(cl_event event)
{
	if (!icd_event_valid(event))
		return CL_INVALID_EVENT;
	icd_event_release(event);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name,
				  size_t param_value_size, void *param_value,
				  size_t *param_value_size_ret)
{
	const void *value;
	size_t size;
	cl_uint refs;
	cl_int status;

	if (!icd_event_valid(event))
		return CL_INVALID_EVENT;
	switch (param_name) {
	case CL_EVENT_COMMAND_QUEUE:
		value = &event->queue;
		size = sizeof(event->queue);
		break;
	case CL_EVENT_CONTEXT:
		value = &event->context;
		size = sizeof(event->context);
		break;
	case CL_EVENT_COMMAND_TYPE:
		value = &event->type;
		size = sizeof(event->type);
		break;
	case CL_EVENT_COMMAND_EXECUTION_STATUS:
		icd_event_lock();
		status = event->status;
		/* Polled: it must move on without a wait. */
		if (event->queue && !icd_event_status_final(status))
			icd_queue_watch(event->queue);
		icd_event_unlock();
		value = &status;
		size = sizeof(status);
		break;
	case CL_EVENT_REFERENCE_COUNT:
		refs = icd_object_refs(&event->obj);
		value = &refs;
		size = sizeof(refs);
		break;
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_copy(value, size, param_value_size, param_value,
			     param_value_size_ret);
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event,
					   cl_profiling_info param_name,
					   size_t param_value_size,
					   void *param_value,
					   size_t *param_value_size_ret)
{
	cl_ulong t;
	cl_int status;

	if (!icd_event_valid(event))
		return CL_INVALID_EVENT;
	/* User events and queues without profiling have no times. */
	if (!event->queue ||
	    !(event->queue->properties & CL_QUEUE_PROFILING_ENABLE))
		return CL_PROFILING_INFO_NOT_AVAILABLE;
	if (param_name < CL_PROFILING_COMMAND_QUEUED ||
	    param_name > CL_PROFILING_COMMAND_END)
		return CL_INVALID_VALUE;
	icd_event_lock();
	status = event->status;
	t = event->times[param_name - CL_PROFILING_COMMAND_QUEUED];
	if (!icd_event_status_final(status))
		icd_queue_watch(event->queue);
	icd_event_unlock();
	/* The times are final once the command completed. */
	if (status != CL_COMPLETE)
		return CL_PROFILING_INFO_NOT_AVAILABLE;
	return icd_info_copy(&t, sizeof(t), param_value_size, param_value,
			     param_value_size_ret);
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context,
				       cl_int *errcode_ret)
{
	cl_event ev = NULL;
	cl_int err = CL_SUCCESS;

	if (!icd_context_valid(context))
		err = CL_INVALID_CONTEXT;
	else if (!(ev = icd_event_new(context, NULL, CL_COMMAND_USER)))
		err = CL_OUT_OF_HOST_MEMORY;
	if (errcode_ret)
		*errcode_ret = err;
	return ev;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event,
					cl_int execution_status)
{
	bool was_set;

	if (!icd_event_valid(event) || event->queue)
		return CL_INVALID_EVENT;
	if (execution_status != CL_COMPLETE && execution_status >= 0)
		return CL_INVALID_VALUE;
	icd_event_lock();
	was_set = icd_event_status_final(event->status);
	icd_event_unlock();
	/* It may be set once only. */
	if (was_set)
		return CL_INVALID_OPERATION;
	icd_event_set_status(event, execution_status, 0);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clSetEventCallback(cl_event event,
				      cl_int command_exec_callback_type,
				      void(CL_CALLBACK *pfn_notify)(cl_event,
								    cl_int,
								    void *),
				      void *user_data)
{
	struct icd_event_callback *cb, **link;
	cl_int status;

	if (!icd_event_valid(event))
		return CL_INVALID_EVENT;
	if (!pfn_notify || (command_exec_callback_type != CL_SUBMITTED &&
			    command_exec_callback_type != CL_RUNNING &&
			    command_exec_callback_type != CL_COMPLETE))
		return CL_INVALID_VALUE;
	cb = calloc(1, sizeof(*cb));
	if (!cb)
		return CL_OUT_OF_HOST_MEMORY;
	cb->fn = pfn_notify;
	cb->user_data = user_data;
	cb->trigger = command_exec_callback_type;
	icd_event_lock();
	status = event->status;
	/* Its queue's thread makes it happen if nobody waits. */
	if (event->queue && !icd_event_status_final(status))
		icd_queue_watch(event->queue);
	if (status > command_exec_callback_type) {
		/* Not reached yet: kept, in registration order. */
		for (link = &event->callbacks; *link; link = &(*link)->next)
			;
		*link = cb;
		cb = NULL;
	}
	icd_event_unlock();
	if (cb) {
		/* Already reached: called now, from this thread. */
		pfn_notify(event, status < 0 ? status :
			   command_exec_callback_type, user_data);
		free(cb);
	}
	return CL_SUCCESS;
}
