/* SPDX-License-Identifier: MIT */
/*
 * The simulator's own threads (worker, interrupt, watchdog), started so
 * that a fork() right after they are made is safe.
 */
#ifndef SIM_THREAD_H
#define SIM_THREAD_H

#include <pthread.h>

/*
 * pthread_create(), returning only once the new thread has entered fn.
 * A thread's start-up allocates (the C library's and, in a sanitizer
 * build, the sanitizer's per-thread set-up under the allocator's locks);
 * a program that opens the render node and forks at once would otherwise
 * copy those locks held into its child, whose own threads then never
 * start. Returns 0 or pthread_create()'s error.
 */
int sim_thread_create(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif
