/* SPDX-License-Identifier: MIT */
/*
 * Fences of the simulated kernel (sim_fence.h): the kernel's dma_fence,
 * dma_fence_chain, dma_fence_array and dma_fence_unwrap, with the
 * behaviour Linux 6.1 gives userspace through syncobjs and sync_files.
 *
 * Threads: fences are signalled on the device's IRQ thread (or any other)
 * while waiters sleep elsewhere. Each fence has a mutex and a condition
 * on CLOCK_MONOTONIC. Callbacks run on the signalling thread without the
 * fence's lock, so a callback may signal other fences or take other locks;
 * sim_fence_remove_callback() therefore waits for a callback that is
 * running at that moment instead of relying on the lock as the kernel does.
 *
 * A chain node is signalled when every fence it covers is. As in the
 * kernel, it learns so lazily: sim_fence_is_signaled() walks the chain,
 * and only a node somebody waits for or adds a callback to arms one, on
 * one pending fence at a time (the newest it covers), moving on when that
 * one signals; so no signal recurses through a long timeline and a point
 * nobody waits for costs nothing. Arrays (made by merges, of plain fences)
 * arm at once. The chain's prev links are guarded by one lock
 * (chain_lock), taken before any fence's lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

#include "sim_fence.h"

enum sim_fence_kind {
	SIM_FENCE_PLAIN,
	SIM_FENCE_STUB,         /* made signalled */
	SIM_FENCE_CHAIN,
	SIM_FENCE_ARRAY,
};

struct sim_array_cb {
	struct sim_fence_cb cb;
	struct sim_fence *array;
};

struct sim_fence {
	atomic_uint refcount;
	enum sim_fence_kind kind;
	uint64_t context;
	uint64_t seqno;

	pthread_mutex_t lock;
	pthread_cond_t cond;         /* signalled; a callback has returned */
	atomic_bool signaled;        /* written under lock */
	int error;
	int64_t timestamp;
	struct sim_fence_cb pending; /* list heads: to call; being called */
	struct sim_fence_cb running;
	struct sim_fence_cb *calling;

	/* SIM_FENCE_CHAIN */
	struct sim_fence *prev;      /* under chain_lock */
	struct sim_fence *contained;
	uint64_t prev_seqno;
	struct sim_fence_cb chain_cb;
	atomic_bool armed;

	/* SIM_FENCE_ARRAY */
	struct sim_fence **fences;
	unsigned int num_fences;
	atomic_uint num_pending;
	atomic_int array_error;
	struct sim_array_cb *array_cbs;
};

static pthread_mutex_t chain_lock = PTHREAD_MUTEX_INITIALIZER;
/* 0 is the stubs' context, as the kernel's. */
static atomic_uint_fast64_t next_context = 1;

/* --- time ----------------------------------------------------------------- */

int64_t sim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t sim_deadline_ns(int64_t timeout_ns)
{
	int64_t now = sim_now_ns();

	if (timeout_ns <= 0)
		return now;
	if (timeout_ns > INT64_MAX - now)
		return INT64_MAX;
	return now + timeout_ns;
}

/* --- lists of callbacks ---------------------------------------------------- */

static void cb_list_init(struct sim_fence_cb *head)
{
	head->next = head;
	head->prev = head;
}

static bool cb_list_empty(const struct sim_fence_cb *head)
{
	return head->next == head;
}

static void cb_list_add_tail(struct sim_fence_cb *head, struct sim_fence_cb *cb)
{
	cb->prev = head->prev;
	cb->next = head;
	head->prev->next = cb;
	head->prev = cb;
}

static void cb_list_del(struct sim_fence_cb *cb)
{
	cb->prev->next = cb->next;
	cb->next->prev = cb->prev;
	cb->next = NULL;
	cb->prev = NULL;
}

/* Moves every entry of from to the end of to. */
static void cb_list_splice_tail(struct sim_fence_cb *from,
				struct sim_fence_cb *to)
{
	if (cb_list_empty(from))
		return;
	from->next->prev = to->prev;
	to->prev->next = from->next;
	from->prev->next = to;
	to->prev = from->prev;
	cb_list_init(from);
}

/* --- the fence itself ------------------------------------------------------- */

static struct sim_fence *fence_alloc(enum sim_fence_kind kind,
				     uint64_t context, uint64_t seqno)
{
	struct sim_fence *f = calloc(1, sizeof(*f));
	pthread_condattr_t attr;

	if (!f)
		return NULL;
	atomic_init(&f->refcount, 1);
	f->kind = kind;
	f->context = context;
	f->seqno = seqno;
	pthread_mutex_init(&f->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&f->cond, &attr);
	pthread_condattr_destroy(&attr);
	atomic_init(&f->signaled, false);
	atomic_init(&f->armed, false);
	cb_list_init(&f->pending);
	cb_list_init(&f->running);
	return f;
}

uint64_t sim_fence_context_alloc(unsigned int num)
{
	return atomic_fetch_add(&next_context, num ? num : 1);
}

struct sim_fence *sim_fence_new_on(uint64_t context, uint64_t seqno)
{
	return fence_alloc(SIM_FENCE_PLAIN, context, seqno);
}

struct sim_fence *sim_fence_new(void)
{
	return sim_fence_new_on(sim_fence_context_alloc(1), 1);
}

static struct sim_fence *stub_new(int64_t timestamp)
{
	struct sim_fence *f = fence_alloc(SIM_FENCE_STUB, 0, 0);

	if (!f)
		return NULL;
	f->timestamp = timestamp;
	atomic_store(&f->signaled, true);
	return f;
}

struct sim_fence *sim_fence_new_signaled(void)
{
	return stub_new(sim_now_ns());
}

struct sim_fence *sim_fence_get(struct sim_fence *fence)
{
	if (fence)
		atomic_fetch_add(&fence->refcount, 1);
	return fence;
}

/*
 * Frees fence and, without recursing, the run of chain nodes behind it
 * that only it held: a long timeline goes in a loop, not on the stack.
 */
static void fence_free(struct sim_fence *f)
{
	while (f) {
		struct sim_fence *next = NULL;
		unsigned int i;

		if (f->kind == SIM_FENCE_CHAIN) {
			sim_fence_put(f->contained);
			next = f->prev;
		} else if (f->kind == SIM_FENCE_ARRAY) {
			for (i = 0; i < f->num_fences; i++)
				sim_fence_put(f->fences[i]);
			free(f->fences);
			free(f->array_cbs);
		}
		pthread_cond_destroy(&f->cond);
		pthread_mutex_destroy(&f->lock);
		free(f);
		f = NULL;
		if (next && atomic_fetch_sub(&next->refcount, 1) == 1)
			f = next;
	}
}

void sim_fence_put(struct sim_fence *fence)
{
	if (fence && atomic_fetch_sub(&fence->refcount, 1) == 1)
		fence_free(fence);
}

static void fence_signal_at(struct sim_fence *f, int error, int64_t timestamp)
{
	pthread_mutex_lock(&f->lock);
	if (atomic_load(&f->signaled)) {
		pthread_mutex_unlock(&f->lock);
		return;
	}
	f->error = error < 0 ? error : 0;
	f->timestamp = timestamp;
	atomic_store(&f->signaled, true);
	cb_list_splice_tail(&f->pending, &f->running);
	pthread_cond_broadcast(&f->cond);

	/* A callback may drop the last reference its owner had. */
	sim_fence_get(f);
	while (!cb_list_empty(&f->running)) {
		struct sim_fence_cb *cb = f->running.next;

		cb_list_del(cb);
		f->calling = cb;
		pthread_mutex_unlock(&f->lock);
		cb->func(f, cb);
		pthread_mutex_lock(&f->lock);
		f->calling = NULL;
		pthread_cond_broadcast(&f->cond);
	}
	pthread_mutex_unlock(&f->lock);
	sim_fence_put(f);
}

void sim_fence_signal(struct sim_fence *fence, int error)
{
	fence_signal_at(fence, error, sim_now_ns());
}

static struct sim_fence *chain_contained(struct sim_fence *fence);
static void chain_enable_signaling(struct sim_fence *fence);
struct sim_fence *sim_fence_chain_walk(struct sim_fence *fence);

/*
 * A chain node also counts as signalled as soon as every fence it covers
 * is, before its callback has caught up (as the kernel's ->signaled()):
 * a waiter woken by a job's fence then sees the timeline point done too.
 */
bool sim_fence_is_signaled(struct sim_fence *fence)
{
	struct sim_fence *it;

	if (atomic_load(&fence->signaled))
		return true;
	if (fence->kind != SIM_FENCE_CHAIN)
		return false;
	for (it = sim_fence_get(fence); it; it = sim_fence_chain_walk(it)) {
		if (!atomic_load(&chain_contained(it)->signaled)) {
			sim_fence_put(it);
			return false;
		}
	}
	fence_signal_at(fence, 0, sim_now_ns());
	return true;
}

int sim_fence_status(struct sim_fence *fence)
{
	int status;

	if (!sim_fence_is_signaled(fence))
		return 0;
	pthread_mutex_lock(&fence->lock);
	status = fence->error ? fence->error : 1;
	pthread_mutex_unlock(&fence->lock);
	return status;
}

int64_t sim_fence_timestamp_ns(struct sim_fence *fence)
{
	int64_t t = 0;

	pthread_mutex_lock(&fence->lock);
	if (atomic_load(&fence->signaled))
		t = fence->timestamp;
	pthread_mutex_unlock(&fence->lock);
	return t;
}

uint64_t sim_fence_context(const struct sim_fence *fence)
{
	return fence->context;
}

uint64_t sim_fence_seqno(const struct sim_fence *fence)
{
	return fence->seqno;
}

const char *sim_fence_driver_name(const struct sim_fence *fence)
{
	switch (fence->kind) {
	case SIM_FENCE_STUB:
		return "stub";
	case SIM_FENCE_CHAIN:
		return "dma_fence_chain";
	case SIM_FENCE_ARRAY:
		return "dma_fence_array";
	default:
		return "sleipnir-sim";
	}
}

const char *sim_fence_timeline_name(const struct sim_fence *fence)
{
	switch (fence->kind) {
	case SIM_FENCE_STUB:
		return "stub";
	case SIM_FENCE_PLAIN:
		return "sleipnir";
	default:
		return "unbound";
	}
}

int sim_fence_wait(struct sim_fence *fence, int64_t deadline_ns)
{
	int ret = 0;

	if (sim_fence_is_signaled(fence))
		return 0;
	chain_enable_signaling(fence);
	pthread_mutex_lock(&fence->lock);
	while (!atomic_load(&fence->signaled)) {
		struct timespec ts;

		if (deadline_ns == INT64_MAX) {
			pthread_cond_wait(&fence->cond, &fence->lock);
			continue;
		}
		if (deadline_ns <= sim_now_ns()) {
			ret = -ETIME;
			break;
		}
		ts.tv_sec = deadline_ns / 1000000000;
		ts.tv_nsec = deadline_ns % 1000000000;
		pthread_cond_timedwait(&fence->cond, &fence->lock, &ts);
	}
	pthread_mutex_unlock(&fence->lock);
	return ret;
}

int sim_fence_add_callback(struct sim_fence *fence, struct sim_fence_cb *cb,
			   void (*func)(struct sim_fence *fence,
					struct sim_fence_cb *cb))
{
	int ret = 0;

	cb->func = func;
	cb->next = NULL;
	cb->prev = NULL;
	if (sim_fence_is_signaled(fence))
		return -ENOENT;
	pthread_mutex_lock(&fence->lock);
	if (atomic_load(&fence->signaled))
		ret = -ENOENT;
	else
		cb_list_add_tail(&fence->pending, cb);
	pthread_mutex_unlock(&fence->lock);
	/* A chain may find itself done here and call func at once. */
	if (!ret)
		chain_enable_signaling(fence);
	return ret;
}

bool sim_fence_remove_callback(struct sim_fence *fence,
			       struct sim_fence_cb *cb)
{
	bool removed = false;

	pthread_mutex_lock(&fence->lock);
	if (cb->next) {
		/* On the pending or the running list: not called yet. */
		cb_list_del(cb);
		removed = true;
	} else {
		while (fence->calling == cb)
			pthread_cond_wait(&fence->cond, &fence->lock);
	}
	pthread_mutex_unlock(&fence->lock);
	return removed;
}

struct on_signal {
	struct sim_fence_cb cb;
	void (*fn)(void *data);
	void *data;
};

static void on_signal_func(struct sim_fence *fence, struct sim_fence_cb *cb)
{
	struct on_signal *s = (struct on_signal *)cb;

	(void)fence;
	s->fn(s->data);
	free(s);
}

int sim_fence_on_signal(struct sim_fence *fence, void (*cb)(void *data),
			void *data)
{
	struct on_signal *s = malloc(sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->fn = cb;
	s->data = data;
	if (sim_fence_add_callback(fence, &s->cb, on_signal_func)) {
		free(s);
		cb(data);
	}
	return 0;
}

/* Whether a is later than b on their (common) timeline. */
static bool fence_is_later(const struct sim_fence *a,
			   const struct sim_fence *b)
{
	if (a->kind == SIM_FENCE_CHAIN)
		return a->seqno > b->seqno;
	return (int32_t)((uint32_t)a->seqno - (uint32_t)b->seqno) > 0;
}

/* --- chains ------------------------------------------------------------------ */

bool sim_fence_is_chain(const struct sim_fence *fence)
{
	return fence && fence->kind == SIM_FENCE_CHAIN;
}

static struct sim_fence *chain_contained(struct sim_fence *fence)
{
	return sim_fence_is_chain(fence) ? fence->contained : fence;
}

struct sim_fence *sim_fence_chain_contained(struct sim_fence *fence)
{
	return chain_contained(fence);
}

uint64_t sim_fence_chain_prev_seqno(const struct sim_fence *fence)
{
	return sim_fence_is_chain(fence) ? fence->prev_seqno : 0;
}

struct sim_fence *sim_fence_chain_walk(struct sim_fence *fence)
{
	struct sim_fence *prev;

	if (!sim_fence_is_chain(fence)) {
		sim_fence_put(fence);
		return NULL;
	}

	/* Freeing a fence never takes chain_lock: puts are fine under it. */
	pthread_mutex_lock(&chain_lock);
	while ((prev = fence->prev)) {
		/* Chains hold no chains: the flag is the whole answer. */
		if (!atomic_load(&chain_contained(prev)->signaled))
			break;
		/* prev's own fence is done: link past it. */
		fence->prev = sim_fence_is_chain(prev) ?
			      sim_fence_get(prev->prev) : NULL;
		sim_fence_put(prev);
	}
	sim_fence_get(prev);
	pthread_mutex_unlock(&chain_lock);

	sim_fence_put(fence);
	return prev;
}

int sim_fence_chain_find_seqno(struct sim_fence **pfence, uint64_t seqno)
{
	struct sim_fence *head = *pfence, *it;

	if (!seqno)
		return 0;
	if (!sim_fence_is_chain(head) || head->seqno < seqno)
		return -EINVAL;

	for (it = sim_fence_get(head); it; it = sim_fence_chain_walk(it)) {
		if (it->context != head->context ||
		    sim_fence_chain_prev_seqno(it) < seqno)
			break;
	}
	sim_fence_put(head);
	*pfence = it;
	return 0;
}

static void chain_arm(struct sim_fence *chain);

static void chain_cb_func(struct sim_fence *fence, struct sim_fence_cb *cb)
{
	(void)fence;
	chain_arm((struct sim_fence *)((char *)cb -
				       offsetof(struct sim_fence, chain_cb)));
}

/*
 * Waits for the newest pending fence chain covers, or signals chain when
 * none is left. The caller hands over a reference to chain, which the
 * armed callback keeps until chain is signalled.
 */
static void chain_arm(struct sim_fence *chain)
{
	struct sim_fence *it;

	for (it = sim_fence_get(chain); it; it = sim_fence_chain_walk(it)) {
		struct sim_fence *f = sim_fence_chain_contained(it);

		if (!sim_fence_add_callback(f, &chain->chain_cb,
					    chain_cb_func)) {
			sim_fence_put(it);
			return;
		}
	}
	/* As the kernel's chain: no error, whatever the points had. */
	fence_signal_at(chain, 0, sim_now_ns());
	sim_fence_put(chain);
}

static void chain_enable_signaling(struct sim_fence *fence)
{
	bool expected = false;

	if (fence->kind != SIM_FENCE_CHAIN || atomic_load(&fence->signaled))
		return;
	if (atomic_compare_exchange_strong(&fence->armed, &expected, true))
		chain_arm(sim_fence_get(fence));
}

struct sim_fence *sim_fence_chain_new(struct sim_fence *prev,
				      struct sim_fence *fence, uint64_t seqno)
{
	struct sim_fence *chain;
	uint64_t context, prev_seqno = 0;

	if (sim_fence_is_chain(prev) && seqno > prev->seqno) {
		/* The next point of prev's timeline. */
		context = prev->context;
		prev_seqno = prev->seqno;
	} else {
		/* Out of order or a new timeline: a context of its own. */
		context = sim_fence_context_alloc(1);
		if (sim_fence_is_chain(prev) && prev->seqno > seqno)
			seqno = prev->seqno;
	}

	chain = fence_alloc(SIM_FENCE_CHAIN, context, seqno);
	if (!chain)
		return NULL;
	chain->prev = sim_fence_get(prev);
	chain->contained = sim_fence_get(fence);
	chain->prev_seqno = prev_seqno;
	return chain;
}

/* --- arrays ------------------------------------------------------------------ */

static void array_member_done(struct sim_fence *array, struct sim_fence *f)
{
	int status = sim_fence_status(f);
	int expected = 0;

	/* The first error of any member is the array's. */
	if (status < 0)
		atomic_compare_exchange_strong(&array->array_error, &expected,
					       status);
	if (atomic_fetch_sub(&array->num_pending, 1) == 1)
		fence_signal_at(array, atomic_load(&array->array_error),
				sim_now_ns());
	sim_fence_put(array);
}

static void array_cb_func(struct sim_fence *fence, struct sim_fence_cb *cb)
{
	array_member_done(((struct sim_array_cb *)cb)->array, fence);
}

/* Takes over fences[] (n >= 1) and its references. */
static struct sim_fence *array_new(struct sim_fence **fences, unsigned int n)
{
	struct sim_fence *array;
	unsigned int i;

	array = fence_alloc(SIM_FENCE_ARRAY, sim_fence_context_alloc(1), 1);
	if (!array)
		return NULL;
	array->array_cbs = calloc(n, sizeof(*array->array_cbs));
	if (!array->array_cbs) {
		sim_fence_put(array);
		return NULL;
	}
	array->fences = fences;
	array->num_fences = n;
	atomic_init(&array->num_pending, n);
	atomic_init(&array->array_error, 0);
	for (i = 0; i < n; i++) {
		struct sim_array_cb *acb = &array->array_cbs[i];

		acb->array = sim_fence_get(array);
		if (sim_fence_add_callback(fences[i], &acb->cb, array_cb_func))
			array_member_done(array, fences[i]);
	}
	return array;
}

/* --- unwrapping and merging ------------------------------------------------- */

static struct sim_fence *unwrap_array_first(struct sim_fence_unwrap *cursor)
{
	struct sim_fence *a = cursor->chain ?
			      sim_fence_chain_contained(cursor->chain) : NULL;

	cursor->array = a;
	cursor->index = 0;
	if (a && a->kind == SIM_FENCE_ARRAY)
		return a->num_fences ? a->fences[0] : NULL;
	return a;
}

struct sim_fence *sim_fence_unwrap_first(struct sim_fence *head,
					 struct sim_fence_unwrap *cursor)
{
	cursor->chain = sim_fence_get(head);
	return unwrap_array_first(cursor);
}

struct sim_fence *sim_fence_unwrap_next(struct sim_fence_unwrap *cursor)
{
	struct sim_fence *a = cursor->array;

	cursor->index++;
	if (a && a->kind == SIM_FENCE_ARRAY && cursor->index < a->num_fences)
		return a->fences[cursor->index];
	cursor->chain = sim_fence_chain_walk(cursor->chain);
	return unwrap_array_first(cursor);
}

static int fence_cmp(const void *pa, const void *pb)
{
	const struct sim_fence *a = *(struct sim_fence *const *)pa;
	const struct sim_fence *b = *(struct sim_fence *const *)pb;

	if (a->context != b->context)
		return a->context < b->context ? -1 : 1;
	/* The latest of a context first. */
	if (fence_is_later(b, a))
		return 1;
	if (fence_is_later(a, b))
		return -1;
	return 0;
}

/*
 * Counts the pending fences inside fences[0..n) and, with out, stores up
 * to max of them (with a reference); *latest receives the last signal
 * time of the others.
 */
static unsigned int merge_scan(struct sim_fence *const *fences, unsigned int n,
			       struct sim_fence **out, unsigned int max,
			       int64_t *latest)
{
	struct sim_fence_unwrap iter;
	struct sim_fence *f;
	unsigned int i, count = 0;

	for (i = 0; i < n; i++) {
		sim_fence_unwrap_for_each(f, &iter, fences[i]) {
			if (!sim_fence_is_signaled(f)) {
				if (out && count < max)
					out[count++] = sim_fence_get(f);
				else if (!out)
					count++;
			} else {
				int64_t t = sim_fence_timestamp_ns(f);

				if (t > *latest)
					*latest = t;
			}
		}
	}
	return count;
}

struct sim_fence *sim_fence_merge(struct sim_fence *const *fences,
				  unsigned int n)
{
	struct sim_fence **pending, *result;
	int64_t latest = 0;
	unsigned int count, i, j;

	count = merge_scan(fences, n, NULL, 0, &latest);
	if (!count)
		return stub_new(latest);
	pending = calloc(count, sizeof(*pending));
	if (!pending)
		return NULL;
	/* Fences may have signalled since: count again, keep what is left. */
	count = merge_scan(fences, n, pending, count, &latest);
	if (!count) {
		free(pending);
		return stub_new(latest);
	}
	if (count == 1) {
		result = pending[0];
		free(pending);
		return result;
	}

	qsort(pending, count, sizeof(*pending), fence_cmp);
	for (i = 1, j = 0; i < count; i++) {
		if (pending[i]->context == pending[j]->context)
			sim_fence_put(pending[i]);
		else
			pending[++j] = pending[i];
	}
	count = j + 1;
	if (count == 1) {
		result = pending[0];
		free(pending);
		return result;
	}

	result = array_new(pending, count);
	if (!result) {
		for (i = 0; i < count; i++)
			sim_fence_put(pending[i]);
		free(pending);
	}
	return result;
}
