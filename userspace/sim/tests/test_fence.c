/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of sim_fence.c against the behaviour of Linux 6.1's
 * dma_fence, dma_fence_chain and dma_fence_unwrap_merge.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "sim_fence.h"
#include "sim_test.h"

#define MS 1000000LL

struct delayed_signal {
	pthread_t thread;
	struct sim_fence *fence;
	int64_t delay_ns;
	int error;
};

static void *delayed_signal_main(void *arg)
{
	struct delayed_signal *d = arg;
	struct timespec ts = { .tv_sec = d->delay_ns / 1000000000,
			       .tv_nsec = d->delay_ns % 1000000000 };

	nanosleep(&ts, NULL);
	sim_fence_signal(d->fence, d->error);
	return NULL;
}

static void signal_later(struct delayed_signal *d, struct sim_fence *f,
			 int64_t delay_ns, int error)
{
	d->fence = f;
	d->delay_ns = delay_ns;
	d->error = error;
	pthread_create(&d->thread, NULL, delayed_signal_main, d);
}

static void status_and_signal_once(void)
{
	struct sim_fence *f = sim_fence_new(), *s = sim_fence_new_signaled();

	CHECK_EQ(sim_fence_status(f), 0);
	CHECK(!sim_fence_is_signaled(f));
	CHECK_EQ(sim_fence_timestamp_ns(f), 0);
	sim_fence_signal(f, -EIO);
	CHECK_EQ(sim_fence_status(f), -EIO);
	/* Signalled once: a later signal changes nothing. */
	sim_fence_signal(f, 0);
	CHECK_EQ(sim_fence_status(f), -EIO);
	CHECK(sim_fence_timestamp_ns(f) > 0);
	CHECK_EQ(sim_fence_status(s), 1);
	CHECK(sim_fence_get(f) == f);
	sim_fence_put(f);
	sim_fence_put(f);
	sim_fence_put(s);
	sim_fence_put(NULL);
}

static void wait_deadlines(void)
{
	struct sim_fence *f = sim_fence_new();
	struct delayed_signal d;
	int64_t t0;

	/* A deadline already past polls; a later one is kept. */
	CHECK_EQ(sim_fence_wait(f, 0), -ETIME);
	t0 = sim_now_ns();
	CHECK_EQ(sim_fence_wait(f, sim_deadline_ns(30 * MS)), -ETIME);
	CHECK(sim_now_ns() - t0 >= 30 * MS);

	t0 = sim_now_ns();
	signal_later(&d, f, 50 * MS, 0);
	CHECK_EQ(sim_fence_wait(f, INT64_MAX), 0);
	CHECK(sim_now_ns() - t0 >= 50 * MS);
	CHECK_EQ(sim_fence_status(f), 1);
	pthread_join(d.thread, NULL);
	CHECK_EQ(sim_fence_wait(f, 0), 0);
	sim_fence_put(f);

	CHECK(sim_deadline_ns(INT64_MAX) == INT64_MAX);
	CHECK(sim_deadline_ns(-5) <= sim_now_ns());
}

struct cb_probe {
	struct sim_fence_cb cb;
	atomic_int calls;
	int status_seen;
	pthread_t thread;
};

static void probe_func(struct sim_fence *fence, struct sim_fence_cb *cb)
{
	struct cb_probe *p = (struct cb_probe *)cb;

	/* Would deadlock if the fence's lock were held here. */
	p->status_seen = sim_fence_status(fence);
	p->thread = pthread_self();
	atomic_fetch_add(&p->calls, 1);
}

static void on_signal_count(void *data)
{
	atomic_fetch_add((atomic_int *)data, 1);
}

static void callbacks(void)
{
	struct sim_fence *f = sim_fence_new();
	struct cb_probe a = { .calls = 0 }, b = { .calls = 0 };
	struct delayed_signal d;
	atomic_int count = 0;

	CHECK_EQ(sim_fence_add_callback(f, &a.cb, probe_func), 0);
	CHECK_EQ(sim_fence_add_callback(f, &b.cb, probe_func), 0);
	CHECK_EQ(sim_fence_on_signal(f, on_signal_count, &count), 0);
	/* Taken back before the signal: never called. */
	CHECK(sim_fence_remove_callback(f, &b.cb));
	CHECK_EQ(atomic_load(&count), 0);

	signal_later(&d, f, 10 * MS, -ECANCELED);
	pthread_join(d.thread, NULL);
	CHECK_EQ(atomic_load(&a.calls), 1);
	CHECK_EQ(a.status_seen, -ECANCELED);
	CHECK(pthread_equal(a.thread, d.thread));
	CHECK_EQ(atomic_load(&b.calls), 0);
	CHECK_EQ(atomic_load(&count), 1);
	/* After it ran: false. */
	CHECK(!sim_fence_remove_callback(f, &a.cb));

	/* On a signalled fence: -ENOENT, or at once for on_signal. */
	CHECK_EQ(sim_fence_add_callback(f, &b.cb, probe_func), -ENOENT);
	CHECK_EQ(atomic_load(&b.calls), 0);
	CHECK_EQ(sim_fence_on_signal(f, on_signal_count, &count), 0);
	CHECK_EQ(atomic_load(&count), 2);
	sim_fence_put(f);
}

/* A callback that is slow: remove_callback must wait for its end. */
struct slow_cb {
	struct sim_fence_cb cb;
	atomic_int started, done;
};

static void slow_func(struct sim_fence *fence, struct sim_fence_cb *cb)
{
	struct slow_cb *s = (struct slow_cb *)cb;
	struct timespec ts = { 0, 50 * MS };

	(void)fence;
	atomic_store(&s->started, 1);
	nanosleep(&ts, NULL);
	atomic_store(&s->done, 1);
}

static void *signal_main(void *arg)
{
	sim_fence_signal(arg, 0);
	return NULL;
}

static void remove_waits_for_running_callback(void)
{
	struct sim_fence *f = sim_fence_new();
	struct slow_cb s = { .started = 0, .done = 0 };
	pthread_t t;

	sim_fence_add_callback(f, &s.cb, slow_func);
	pthread_create(&t, NULL, signal_main, f);
	while (!atomic_load(&s.started))
		sched_yield();
	CHECK(!sim_fence_remove_callback(f, &s.cb));
	CHECK_EQ(atomic_load(&s.done), 1);
	pthread_join(t, NULL);
	sim_fence_put(f);
}

/* Points 1..3 of one timeline, on fences f[0..2]. */
static struct sim_fence *timeline3(struct sim_fence *f[3])
{
	struct sim_fence *head = NULL, *next;
	int i;

	for (i = 0; i < 3; i++) {
		f[i] = sim_fence_new();
		next = sim_fence_chain_new(head, f[i], i + 1);
		sim_fence_put(head);
		head = next;
	}
	return head;
}

static void chain_points(void)
{
	struct sim_fence *f[3], *head = timeline3(f), *p;

	CHECK(sim_fence_is_chain(head));
	CHECK_EQ(sim_fence_seqno(head), 3);
	CHECK_EQ(sim_fence_chain_prev_seqno(head), 2);
	CHECK(sim_fence_chain_contained(head) == f[2]);

	/* Beyond the head: not there yet. */
	p = sim_fence_get(head);
	CHECK_EQ(sim_fence_chain_find_seqno(&p, 4), -EINVAL);
	CHECK(p == head);
	CHECK_EQ(sim_fence_chain_find_seqno(&p, 2), 0);
	CHECK(p && sim_fence_seqno(p) == 2);
	sim_fence_put(p);

	/* Point 2 is done only once point 1 is too. */
	sim_fence_signal(f[1], 0);
	p = sim_fence_get(head);
	CHECK_EQ(sim_fence_chain_find_seqno(&p, 2), 0);
	CHECK(p && !sim_fence_is_signaled(p));
	sim_fence_signal(f[0], -EIO);
	CHECK(p && sim_fence_is_signaled(p));
	/* A chain does not carry its points' errors (Linux 6.1). */
	CHECK_EQ(p ? sim_fence_status(p) : 0, 1);
	sim_fence_put(p);
	CHECK(!sim_fence_is_signaled(head));

	/* Points 1 and 2 are dropped from the chain: found signalled. */
	p = sim_fence_get(head);
	CHECK_EQ(sim_fence_chain_find_seqno(&p, 1), 0);
	CHECK(p == NULL);
	sim_fence_put(p);

	CHECK_EQ(sim_fence_wait(head, sim_deadline_ns(10 * MS)), -ETIME);
	sim_fence_signal(f[2], 0);
	CHECK_EQ(sim_fence_wait(head, 0), 0);
	sim_fence_put(head);
	for (int i = 0; i < 3; i++)
		sim_fence_put(f[i]);
}

static void chain_out_of_order(void)
{
	struct sim_fence *a = sim_fence_new_signaled(), *b = sim_fence_new();
	struct sim_fence *c5 = sim_fence_chain_new(NULL, a, 5);
	struct sim_fence *c3 = sim_fence_chain_new(c5, b, 3);

	/* A smaller point starts a new timeline, numbered as the last. */
	CHECK_EQ(sim_fence_seqno(c3), 5);
	CHECK(sim_fence_context(c3) != sim_fence_context(c5));
	CHECK_EQ(sim_fence_chain_prev_seqno(c3), 0);
	sim_fence_signal(b, 0);
	CHECK(sim_fence_is_signaled(c3));
	sim_fence_put(c3);
	sim_fence_put(c5);
	sim_fence_put(a);
	sim_fence_put(b);
}

/*
 * Long timelines: many points waiting on one fence, and points whose
 * fences signal in order and in reverse. Each finishes in linear time
 * (no point is walked once per other point) and without recursing once
 * per point, which ASan's stack would notice.
 */
static void long_chain(void)
{
	enum { N = 100000 };
	struct sim_fence *head = NULL, *first = sim_fence_new();
	struct sim_fence **f = calloc(N, sizeof(*f));
	int i, order;

	for (i = 0; i < N; i++) {
		struct sim_fence *g = i ? sim_fence_new_signaled() :
				      sim_fence_get(first);
		struct sim_fence *next = sim_fence_chain_new(head, g, i + 1);

		sim_fence_put(g);
		sim_fence_put(head);
		head = next;
	}
	CHECK(!sim_fence_is_signaled(head));
	sim_fence_signal(first, 0);
	CHECK(sim_fence_is_signaled(head));
	sim_fence_put(first);
	sim_fence_put(head);

	for (order = 0; order < 2; order++) {
		head = NULL;
		for (i = 0; i < N; i++) {
			struct sim_fence *next;

			f[i] = sim_fence_new();
			next = sim_fence_chain_new(head, f[i], i + 1);
			sim_fence_put(head);
			head = next;
		}
		for (i = 0; i < N - 1; i++)
			sim_fence_signal(f[order ? N - 1 - i : i], 0);
		CHECK(!sim_fence_is_signaled(head));
		sim_fence_signal(f[order ? 0 : N - 1], 0);
		CHECK(sim_fence_is_signaled(head));
		for (i = 0; i < N; i++)
			sim_fence_put(f[i]);
		sim_fence_put(head);
	}
	free(f);
}

static unsigned int count_unwrapped(struct sim_fence *f)
{
	struct sim_fence_unwrap iter;
	struct sim_fence *g;
	unsigned int n = 0;

	sim_fence_unwrap_for_each(g, &iter, f)
		n++;
	return n;
}

static void merge(void)
{
	uint64_t ctx = sim_fence_context_alloc(1);
	struct sim_fence *a1 = sim_fence_new_on(ctx, 1);
	struct sim_fence *a2 = sim_fence_new_on(ctx, 2);
	struct sim_fence *b = sim_fence_new(), *done = sim_fence_new_signaled();
	struct sim_fence *in[4] = { a1, b, a2, done }, *m;

	/* Only the latest of a context stays; signalled ones go. */
	m = sim_fence_merge(in, 4);
	CHECK_EQ(count_unwrapped(m), 2);
	sim_fence_signal(a2, -ENODEV);
	CHECK_EQ(sim_fence_status(m), 0);
	sim_fence_signal(b, 0);
	CHECK_EQ(sim_fence_wait(m, sim_deadline_ns(1000 * MS)), 0);
	/* An array carries the first error of its fences. */
	CHECK_EQ(sim_fence_status(m), -ENODEV);
	sim_fence_put(m);

	/* Nothing pending: a new signalled fence. */
	m = sim_fence_merge(in + 1, 3);
	CHECK(m != b && m != a2 && m != done);
	CHECK_EQ(sim_fence_status(m), 1);
	sim_fence_put(m);

	/* One pending fence: that fence itself. */
	m = sim_fence_merge(in, 2);
	CHECK(m == a1);
	sim_fence_put(m);

	sim_fence_signal(a1, 0);
	sim_fence_put(a1);
	sim_fence_put(a2);
	sim_fence_put(b);
	sim_fence_put(done);
}

struct waiter_arg {
	struct sim_fence *fence;
	int ret;
};

static void *waiter_main(void *arg)
{
	struct waiter_arg *w = arg;

	w->ret = sim_fence_wait(w->fence, sim_deadline_ns(5000 * MS));
	return NULL;
}

static void many_waiters(void)
{
	enum { THREADS = 8, ROUNDS = 200 };
	struct waiter_arg w[THREADS];
	pthread_t t[THREADS];
	int r, i, failed = 0;

	for (r = 0; r < ROUNDS; r++) {
		struct sim_fence *f = sim_fence_new();

		for (i = 0; i < THREADS; i++) {
			w[i].fence = f;
			w[i].ret = 1;
			pthread_create(&t[i], NULL, waiter_main, &w[i]);
		}
		sim_fence_signal(f, 0);
		for (i = 0; i < THREADS; i++) {
			pthread_join(t[i], NULL);
			failed += w[i].ret != 0;
		}
		sim_fence_put(f);
	}
	CHECK_EQ(failed, 0);
}

int main(void)
{
	RUN(status_and_signal_once);
	RUN(wait_deadlines);
	RUN(callbacks);
	RUN(remove_waits_for_running_callback);
	RUN(chain_points);
	RUN(chain_out_of_order);
	RUN(long_chain);
	RUN(merge);
	RUN(many_waiters);
	return sim_test_finish();
}
