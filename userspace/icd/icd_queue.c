/* SPDX-License-Identifier: MIT */
/*
 * Command queues and their threads (clCreateCommandQueue,
 * clRetain/ReleaseCommandQueue, clGetCommandQueueInfo,
 * clSetCommandQueueProperty, clFlush, clFinish), and the commands that
 * only order others: markers, barriers, clEnqueueWaitForEvents.
 */
#include <stdlib.h>
#include <string.h>

#include "icd_context.h"
#include "icd_device.h"
#include "icd_event.h"
#include "icd_info.h"
#include "icd_ndrange.h"
#include "icd_queue.h"

#define ICD_QUEUE_PROPERTIES (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | \
			      CL_QUEUE_PROFILING_ENABLE)

bool icd_queue_valid(cl_command_queue queue)
{
	return icd_object_is(queue, ICD_TYPE_COMMAND_QUEUE);
}

/* --- the thread ---------------------------------------------------------- */

void icd_context_watch_queues(cl_context ctx)
{
	icd_event_lock();
	/* Only those with chains on the GPU, or one on its way there:
	 * launches still in a list are the threads' anyway. */
	for (cl_command_queue q = ctx->queues; q; q = q->next_in_context)
		if (q->ring_count || q->submitting)
			icd_queue_watch(q);
	icd_event_unlock();
}

void icd_queue_watch(cl_command_queue q)
{
	if (q->watch)
		return;
	q->watch = true;
	/* The thread sleeps on one or the other. */
	pthread_cond_signal(&q->idle_wake);
	icd_event_broadcast();
}

/* True when every dependency of @cmd ended (under the lock); *failed
 * says whether one of them failed. The queues of those still on the GPU
 * are told to end them even if nobody waits there. */
static bool deps_ended(cl_event cmd, bool *failed)
{
	bool ended = true;

	*failed = false;
	for (cl_uint i = 0; i < cmd->num_deps; i++) {
		cl_event dep = cmd->deps[i];

		if (!icd_event_status_final(dep->status)) {
			if (dep->queue)
				icd_queue_watch(dep->queue);
			ended = false;
		} else if (dep->status < 0) {
			*failed = true;
		}
	}
	return ended;
}

/* True when @ev is one of the @n commands of @batch. */
static bool in_batch(cl_event ev, cl_event *batch, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		if (batch[i] == ev)
			return true;
	return false;
}

/*
 * The same for a launch, which may also go while a launch it waits for is
 * on the GPU (it has a fence): the SUBMIT then waits for that fence (an
 * in-sync), and the GPU does the ordering. Within a context, so within
 * one render node. A launch earlier in the chain being built (@batch)
 * counts as done: the chain runs its jobs in order.
 */
static bool deps_ready_for_gpu(cl_event cmd, cl_event *batch, unsigned int n,
			       bool *failed)
{
	unsigned int on_gpu = 0;

	*failed = false;
	for (cl_uint i = 0; i < cmd->num_deps; i++) {
		cl_event dep = cmd->deps[i];

		if (icd_event_status_final(dep->status)) {
			*failed |= dep->status < 0;
			continue;
		}
		if (in_batch(dep, batch, n))
			continue;
		/* Its status is needed when this one ends. */
		if (dep->queue)
			icd_queue_watch(dep->queue);
		if (!dep->point || ++on_gpu > ICD_MAX_IN_SYNCS)
			return false;
	}
	return true;
}

/* Whether @cmd may start now, as a launch or as anything else. */
static bool ready(cl_event cmd, bool *failed)
{
	return cmd->launch ? deps_ready_for_gpu(cmd, NULL, 0, failed) :
			     deps_ended(cmd, failed);
}

/*
 * Work-items one chain carries at most, unless a single launch has more.
 * The driver's timeout is per chain (SUBMIT's timeout_ms, at most its
 * max_job_timeout_ms), and a chain's time grows with its launches: an
 * application that enqueues thirty launches of 2M work-items (clpeak) and
 * then waits must not find them in one chain that overruns what one launch
 * may take. Chains of small launches, where batching saves the most, stay
 * whole.
 */
#define ICD_BATCH_MAX_ITEMS (1ull << 20)

static uint64_t launch_items(cl_event cmd)
{
	const struct sl_ndrange *nd = &cmd->launch->params.nd;

	return (uint64_t)nd->global[0] * nd->global[1] * nd->global[2];
}

/*
 * Launches ready behind @first (taken already) that can join its chain:
 * in an in-order queue the launches right after it, in an out-of-order
 * queue any ready launch before the next barrier, while the chain's
 * work-items stay within ICD_BATCH_MAX_ITEMS.
 */
static unsigned int gather_launches(cl_command_queue q, cl_event first,
				    cl_event *batch)
{
	bool ooo = q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
	uint64_t items = launch_items(first);
	unsigned int n = 1;
	bool failed;

	batch[0] = first;
	for (cl_event c = first->next; c && n < ICD_MAX_BATCH; c = c->next) {
		if (c->waits_for_all)
			break;
		if (c->taken)
			continue;
		if (!c->launch || !deps_ready_for_gpu(c, batch, n, &failed) ||
		    failed || items + launch_items(c) > ICD_BATCH_MAX_ITEMS) {
			if (ooo)
				continue;
			break;
		}
		c->taken = true;
		items += launch_items(c);
		batch[n++] = c;
	}
	return n;
}

/* Makes the calling thread @q's one submitter (under the lock; the ring
 * has room). */
static void become_submitter(cl_command_queue q)
{
	q->submitting = true;
	q->next_slot = (q->ring_first + q->ring_count) % ICD_RING_SLOTS;
}

/* True (under the lock) when @q can take one more chain now. */
static bool ring_free(cl_command_queue q)
{
	return q->ring_count < ICD_RING_SLOTS && !q->submitting;
}

/*
 * The next work for the thread (under the lock): a batch of launches
 * (*gpu set; the thread is then the queue's submitter), or one other
 * command (CPU work, ordering, or a launch whose wait list failed); 0
 * when nothing is ready. Launches on the GPU stay on the list until their
 * chain ends: in order, launches may follow them onto the GPU (the GPU
 * keeps the order), anything else waits until they ended.
 */
static unsigned int pick(cl_command_queue q, cl_event *batch, bool *gpu)
{
	bool ooo = q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
	bool failed;

	*gpu = false;
	for (cl_event c = q->head; c; c = c->next) {
		if (c->point)
			continue;
		/* In order, nothing starts before the one running ended. */
		if (c->taken) {
			if (!ooo)
				return 0;
			continue;
		}
		/* A barrier waits for everything before it to end, and
		 * everything after it waits for the barrier. */
		if (c->waits_for_all && c != q->head)
			return 0;
		if (!ooo && c != q->head && !c->launch)
			return 0;
		if (c->launch && !ring_free(q)) {
			if (!ooo)
				return 0;
			continue;
		}
		if (ready(c, &failed)) {
			/* A launch that will not run ends in its turn. */
			if (failed && !ooo && c != q->head)
				return 0;
			c->taken = true;
			*gpu = c->launch && !failed;
			if (*gpu) {
				become_submitter(q);
				return gather_launches(q, c, batch);
			}
			batch[0] = c;
			return 1;
		}
		if (!ooo || c->waits_for_all)
			return 0;
	}
	return 0;
}

/* Runs one command that is not a launch (CPU work or ordering only), or a
 * launch whose wait list failed. */
static void run_one(cl_event cmd)
{
	cl_int result = CL_SUCCESS;

	if (icd_event_deps_failed(cmd)) {
		/* OpenCL leaves this to the implementation: a command whose
		 * wait list failed does not run, and fails in turn. */
		icd_event_set_status(cmd,
				     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
				     0);
		return;
	}
	icd_event_set_status(cmd, CL_SUBMITTED, 0);
	icd_event_set_status(cmd, CL_RUNNING, 0);
	if (cmd->run)
		result = cmd->run(cmd);
	icd_event_set_status(cmd, result == CL_SUCCESS ? CL_COMPLETE : result,
			     0);
}

/* Takes the ended commands of @batch off the list (under the lock). */
static void unlink_ended(cl_command_queue q, cl_event *batch, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		cl_event prev = NULL;

		for (cl_event c = q->head; c; prev = c, c = c->next) {
			if (c != batch[i])
				continue;
			if (prev)
				prev->next = c->next;
			else
				q->head = c->next;
			if (q->tail == c)
				q->tail = prev;
			c->next = NULL;
			break;
		}
	}
}

static void queue_free(cl_command_queue q)
{
	cl_context ctx = q->context;

	icd_event_lock();
	for (cl_command_queue *p = &ctx->queues; *p;
	     p = &(*p)->next_in_context) {
		if (*p == q) {
			*p = q->next_in_context;
			break;
		}
	}
	icd_event_unlock();
	icd_gpu_queue_free(q);
	pthread_cond_destroy(&q->idle_wake);
	free(q);
	clReleaseContext(ctx);
}

bool icd_queue_chain_open(cl_command_queue q)
{
	return q->ring_count && !q->ring_claimed;
}

bool icd_queue_end_chain(cl_command_queue q, bool app)
{
	cl_event batch[ICD_MAX_BATCH];
	unsigned int s, n = 0;
	uint64_t point;
	bool ended;

	icd_event_lock();
	if (!icd_queue_chain_open(q)) {
		icd_event_unlock();
		return false;
	}
	s = q->ring_first;
	point = q->ring[s].point;
	if (app)
		q->chain_waiters++;
	icd_event_unlock();
	icd_launch_wait(q, s);
	icd_event_lock();
	if (app)
		q->chain_waiters--;
	/* Someone else ended it (the point tells one chain from the next,
	 * and from the same chain gone again); the queue's thread also
	 * leaves it to a waiting application thread, which the same fence
	 * wakes: one thread switch less before the application runs on. */
	if (!icd_queue_chain_open(q) || q->ring[q->ring_first].point != point ||
	    (!app && q->chain_waiters)) {
		icd_event_unlock();
		return false;
	}
	q->ring_claimed = true;
	icd_event_unlock();
	ended = icd_launch_finish(q, s, point);
	icd_event_lock();
	q->ring_claimed = false;
	if (ended) {
		n = q->ring[s].n;
		memcpy(batch, q->ring[s].cmds, n * sizeof(batch[0]));
		unlink_ended(q, batch, n);
		q->ring[s].n = 0;
		q->ring[s].point = 0;
		q->ring_first = (s + 1) % ICD_RING_SLOTS;
		/* The next chain the caller's thread submits is watched
		 * only if something asks for it again. */
		if (!--q->ring_count)
			q->watch = false;
	}
	icd_event_broadcast();
	icd_event_unlock();
	/* The list's references; the last one of a command may be the last
	 * of the queue, which only sets q->stop. */
	for (unsigned int i = 0; i < n; i++)
		icd_event_release(batch[i]);
	return ended;
}

/*
 * Puts the launches of @batch (taken, by the queue's submitter: the caller
 * set q->submitting) on the GPU as the queue's next chain; those that
 * cannot go end at once and leave the list. @watch: the queue's thread is
 * to end the chain even if no application thread waits for it.
 */
static void start_chain(cl_command_queue q, cl_event *batch, unsigned int n,
			bool watch)
{
	/* The next slot of the ring, read when the caller became the
	 * submitter; it stays free: only the submitter adds chains, and
	 * enders take the oldest, so ring_first + ring_count stays. */
	unsigned int slot = q->next_slot, kept;

	/* Those that went are the ring's now: not to be touched here. */
	kept = icd_launch_submit(q, slot, batch, n);
	icd_event_lock();
	q->submitting = false;
	unlink_ended(q, batch + kept, n - kept);
	if (watch)
		icd_queue_watch(q);
	icd_event_broadcast();
	icd_event_unlock();
	for (unsigned int i = kept; i < n; i++)
		icd_event_release(batch[i]);
}

/* True (under the lock) when the thread has nothing to do until someone
 * wakes it: no command that is not on the GPU, and chains on the GPU, if
 * any, are not its to end. */
static bool thread_idle(cl_command_queue q)
{
	if (q->watch && q->ring_count)
		return false;
	for (cl_event c = q->head; c; c = c->next)
		if (!c->point)
			return false;
	return true;
}

static void *queue_thread(void *arg)
{
	cl_command_queue q = arg;
	cl_event batch[ICD_MAX_BATCH];

	icd_event_lock();
	for (;;) {
		bool gpu;
		unsigned int n;

		/* New work first: the ring keeps the GPU busy meanwhile. */
		n = pick(q, batch, &gpu);
		if (!n) {
			if (icd_queue_chain_open(q) && !q->chain_waiters &&
			    q->watch) {
				icd_event_unlock();
				icd_queue_end_chain(q, false);
				icd_event_lock();
				continue;
			}
			if (q->stop && !q->head)
				break;
			if (thread_idle(q))
				pthread_cond_wait(&q->idle_wake, icd_event_mutex());
			else
				icd_event_wait_change();
			continue;
		}
		icd_event_unlock();
		if (gpu) {
			start_chain(q, batch, n, true);
		} else {
			run_one(batch[0]);
			icd_event_lock();
			unlink_ended(q, batch, 1);
			icd_event_broadcast();
			icd_event_unlock();
			icd_event_release(batch[0]);
		}
		icd_event_lock();
	}
	icd_event_unlock();
	queue_free(q);
	return NULL;
}

/* --- entry points -------------------------------------------------------- */

cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context context, cl_device_id device,
		     cl_command_queue_properties properties,
		     cl_int *errcode_ret)
{
	struct _cl_command_queue *q = NULL;
	pthread_attr_t attr;
	cl_int err = CL_SUCCESS;

	if (!icd_context_valid(context))
		err = CL_INVALID_CONTEXT;
	else if (!icd_device_valid(device) || device != context->device)
		err = CL_INVALID_DEVICE;
	else if (properties & ~(cl_command_queue_properties)
				ICD_QUEUE_PROPERTIES)
		err = CL_INVALID_VALUE;
	else if (!(q = calloc(1, sizeof(*q))))
		err = CL_OUT_OF_HOST_MEMORY;
	if (err)
		goto out;
	icd_object_init(&q->obj, ICD_TYPE_COMMAND_QUEUE);
	pthread_cond_init(&q->idle_wake, NULL);
	q->context = context;
	q->device = device;
	q->properties = properties;
	clRetainContext(context);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&q->thread, &attr, queue_thread, q)) {
		clReleaseContext(context);
		pthread_cond_destroy(&q->idle_wake);
		free(q);
		q = NULL;
		err = CL_OUT_OF_HOST_MEMORY;
	} else {
		icd_event_lock();
		q->next_in_context = context->queues;
		context->queues = q;
		icd_event_unlock();
	}
	pthread_attr_destroy(&attr);
out:
	if (errcode_ret)
		*errcode_ret = err;
	return q;
}

void icd_queue_release(cl_command_queue queue)
{
	if (icd_object_release(&queue->obj)) {
		/* Commands hold references to their queue, so none is left:
		 * the thread ends and frees the queue. */
		icd_event_lock();
		queue->stop = true;
		pthread_cond_signal(&queue->idle_wake);
		icd_event_unlock();
	}
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue)
{
	if (!icd_queue_valid(command_queue))
		return CL_INVALID_COMMAND_QUEUE;
	icd_object_retain(&command_queue->obj);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue)
{
	if (!icd_queue_valid(command_queue))
		return CL_INVALID_COMMAND_QUEUE;
	/* The application may not wait for the chains on the GPU: they
	 * end without it (their commands hold the last references). */
	icd_event_lock();
	icd_queue_watch(command_queue);
	icd_event_unlock();
	icd_queue_release(command_queue);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
					 cl_command_queue_info param_name,
					 size_t param_value_size,
					 void *param_value,
					 size_t *param_value_size_ret)
{
	cl_command_queue q = command_queue;
	cl_command_queue_properties props;
	const void *value;
	size_t size;
	cl_uint refs;

	if (!icd_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	switch (param_name) {
	case CL_QUEUE_CONTEXT:
		value = &q->context;
		size = sizeof(q->context);
		break;
	case CL_QUEUE_DEVICE:
		value = &q->device;
		size = sizeof(q->device);
		break;
	case CL_QUEUE_REFERENCE_COUNT:
		refs = icd_object_refs(&q->obj);
		value = &refs;
		size = sizeof(refs);
		break;
	case CL_QUEUE_PROPERTIES:
		icd_event_lock();
		props = q->properties;
		icd_event_unlock();
		value = &props;
		size = sizeof(props);
		break;
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_copy(value, size, param_value_size, param_value,
			     param_value_size_ret);
}

cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue command_queue,
			  cl_command_queue_properties properties,
			  cl_bool enable,
			  cl_command_queue_properties *old_properties)
{
	if (!icd_queue_valid(command_queue))
		return CL_INVALID_COMMAND_QUEUE;
	if (properties & ~(cl_command_queue_properties)ICD_QUEUE_PROPERTIES)
		return CL_INVALID_VALUE;
	/* OpenCL 1.0 5.1: commands already queued keep the mode they were
	 * queued with; finishing them first is the simple way to keep that. */
	clFinish(command_queue);
	icd_event_lock();
	if (old_properties)
		*old_properties = command_queue->properties;
	if (enable)
		command_queue->properties |= properties;
	else
		command_queue->properties &= ~properties;
	icd_event_unlock();
	return CL_SUCCESS;
}

void icd_queue_flush(cl_command_queue queue)
{
	/* Commands go to the GPU or the queue's thread as they are
	 * enqueued; a flush only has to make sure the thread also ends the
	 * chains on the GPU, whether or not anyone waits for them. */
	icd_event_lock();
	icd_queue_watch(queue);
	pthread_cond_signal(&queue->idle_wake);
	icd_event_unlock();
}

cl_int CL_API_CALL clFlush(cl_command_queue command_queue)
{
	if (!icd_queue_valid(command_queue))
		return CL_INVALID_COMMAND_QUEUE;
	icd_queue_flush(command_queue);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue)
{
	if (!icd_queue_valid(command_queue))
		return CL_INVALID_COMMAND_QUEUE;
	icd_event_lock();
	while (command_queue->head) {
		if (icd_queue_chain_open(command_queue)) {
			icd_event_unlock();
			icd_queue_end_chain(command_queue, true);
			icd_event_lock();
			continue;
		}
		icd_event_wait_change();
	}
	icd_event_unlock();
	return CL_SUCCESS;
}

/* --- enqueueing ---------------------------------------------------------- */

cl_int icd_queue_check(cl_command_queue queue, cl_uint num_events,
		       const cl_event *wait_list)
{
	if (!icd_queue_valid(queue))
		return CL_INVALID_COMMAND_QUEUE;
	if (!num_events != !wait_list)
		return CL_INVALID_EVENT_WAIT_LIST;
	for (cl_uint i = 0; i < num_events; i++) {
		if (!icd_event_valid(wait_list[i]))
			return CL_INVALID_EVENT_WAIT_LIST;
		if (wait_list[i]->context != queue->context)
			return CL_INVALID_CONTEXT;
	}
	return CL_SUCCESS;
}

cl_event icd_command_new(cl_command_queue queue, cl_command_type type,
			 cl_uint num_events, const cl_event *wait_list,
			 cl_int *err)
{
	cl_event cmd = icd_event_new(queue->context, queue, type);

	if (cmd && num_events) {
		cmd->deps = calloc(num_events, sizeof(*cmd->deps));
		if (!cmd->deps) {
			icd_event_release(cmd);
			cmd = NULL;
		}
	}
	if (!cmd) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	clRetainCommandQueue(queue);
	for (cl_uint i = 0; i < num_events; i++) {
		icd_event_retain(wait_list[i]);
		cmd->deps[i] = wait_list[i];
	}
	cmd->num_deps = num_events;
	*err = CL_SUCCESS;
	return cmd;
}

/* True (under the lock) when every command on @q's list is a launch on the
 * GPU. */
static bool all_on_gpu(cl_command_queue q)
{
	for (cl_event c = q->head; c; c = c->next)
		if (!c->point)
			return false;
	return true;
}

cl_int icd_command_enqueue(cl_event cmd, bool blocking, cl_event *event)
{
	cl_command_queue q = cmd->queue;
	cl_int err = CL_SUCCESS;
	bool now, failed;

	/* The list keeps the creation reference; the application and a
	 * blocking wait each take one more. */
	if (event)
		icd_event_retain(cmd);
	if (blocking)
		icd_event_retain(cmd);
	icd_event_lock();
	/*
	 * A command for the CPU on an idle queue whose wait list ended runs
	 * at once on the caller's thread: the result is the same as the
	 * queue's thread running it first thing, without two thread
	 * switches (a map and an unmap cost microseconds, not a round trip).
	 * It is on the list, taken, meanwhile, so later commands wait. A
	 * launch goes to the GPU from here too, in an in-order queue whose
	 * earlier commands are all launches on the GPU, when the ring has
	 * room: the chain follows theirs.
	 */
	if (cmd->launch)
		now = !(q->properties &
			CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) &&
		      ring_free(q) && all_on_gpu(q) && ready(cmd, &failed) &&
		      !failed;
	else
		now = !q->head && ready(cmd, &failed);
	cmd->taken = now;
	if (now && cmd->launch)
		become_submitter(q);
	if (q->tail)
		q->tail->next = cmd;
	else
		q->head = cmd;
	q->tail = cmd;
	if (!now) {
		/* The thread runs it. Unless this thread waits for it (and
		 * so ends the chains before it itself), the thread also
		 * ends the chains on the GPU. */
		if (!blocking)
			q->watch = true;
		/* The thread waits on one or the other. */
		pthread_cond_signal(&q->idle_wake);
		icd_event_broadcast();
	}
	icd_event_unlock();
	if (event)
		*event = cmd;
	if (now && cmd->launch) {
		start_chain(q, &cmd, 1, false);
	} else if (now) {
		run_one(cmd);
		icd_event_lock();
		unlink_ended(q, &cmd, 1);
		icd_event_broadcast();
		icd_event_unlock();
		icd_event_release(cmd);
	}
	if (blocking) {
		err = icd_event_wait(1, &cmd);
		icd_event_release(cmd);
	}
	return err;
}

/* --- markers and barriers ------------------------------------------------ */

/* A command that only orders others; with no wait list it waits for
 * every command enqueued before it. */
static cl_int enqueue_sync(cl_command_queue queue, cl_command_type type,
			   cl_uint num_events, const cl_event *wait_list,
			   cl_event *event)
{
	cl_int err = icd_queue_check(queue, num_events, wait_list);
	cl_event cmd;

	if (err)
		return err;
	cmd = icd_command_new(queue, type, num_events, wait_list, &err);
	if (!cmd)
		return err;
	cmd->waits_for_all = num_events == 0 || type == CL_COMMAND_BARRIER;
	return icd_command_enqueue(cmd, false, event);
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
					       cl_uint num_events_in_wait_list,
					       const cl_event *event_wait_list,
					       cl_event *event)
{
	return enqueue_sync(command_queue, CL_COMMAND_MARKER,
			    num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL
clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
			     cl_uint num_events_in_wait_list,
			     const cl_event *event_wait_list, cl_event *event)
{
	return enqueue_sync(command_queue, CL_COMMAND_BARRIER,
			    num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue,
				   cl_event *event)
{
	if (!icd_queue_valid(command_queue))
		return CL_INVALID_COMMAND_QUEUE;
	if (!event)
		return CL_INVALID_VALUE;
	return enqueue_sync(command_queue, CL_COMMAND_MARKER, 0, NULL, event);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue)
{
	return enqueue_sync(command_queue, CL_COMMAND_BARRIER, 0, NULL, NULL);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue,
					  cl_uint num_events,
					  const cl_event *event_list)
{
	if (!icd_queue_valid(command_queue))
		return CL_INVALID_COMMAND_QUEUE;
	if (!num_events || !event_list)
		return CL_INVALID_VALUE;
	for (cl_uint i = 0; i < num_events; i++) {
		if (!icd_event_valid(event_list[i]))
			return CL_INVALID_EVENT;
		if (event_list[i]->context != command_queue->context)
			return CL_INVALID_CONTEXT;
	}
	/* Like a barrier on those events: later commands wait for it. */
	{
		cl_int err;
		cl_event cmd = icd_command_new(command_queue,
					       CL_COMMAND_BARRIER, num_events,
					       event_list, &err);

		if (!cmd)
			return err;
		cmd->waits_for_all = true;
		return icd_command_enqueue(cmd, false, NULL);
	}
}
