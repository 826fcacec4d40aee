/* SPDX-License-Identifier: MIT */
/* Starting the simulator's threads: see sim_thread.h. */
#include <semaphore.h>

#include "sim_thread.h"

struct start {
	void *(*fn)(void *);
	void *arg;
	sem_t entered;
};

static void *trampoline(void *data)
{
	struct start *start = data;
	void *(*fn)(void *) = start->fn;
	void *arg = start->arg;

	/* The creator's stack frame holding *start ends with this post. */
	sem_post(&start->entered);
	return fn(arg);
}

int sim_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	struct start start = { .fn = fn, .arg = arg };
	int err;

	sem_init(&start.entered, 0, 0);
	err = pthread_create(thread, NULL, trampoline, &start);
	if (!err) {
		while (sem_wait(&start.entered))
			; /* EINTR */
	}
	sem_destroy(&start.entered);
	return err;
}
