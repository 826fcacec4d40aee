/* SPDX-License-Identifier: MIT */
/*
 * The driver's own dispatch latency (null_job.h), timed one job at a
 * time, through whichever of sleipnir.ko and panfrost the board has
 * loaded. cl_bench_dispatch runs the sleipnir.ko path interleaved with
 * its empty kernel; this program is the same path alone, and panfrost's.
 *
 * Usage: bench_null_job sleipnir|panfrost [RUNS]
 *   (default 1000 runs, after 50 warm-up runs)
 * Prints one JSON object on stdout:
 *   {"bench":"dispatch","path":"sleipnir_null_job","runs":...,
 *    "median_ns":...,"p10_ns":...,"p90_ns":...,"min_ns":...}
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_time.h"
#include "null_job.h"

#define DEFAULT_RUNS 1000
#define WARM_UP_RUNS 50

static int measure(struct null_job_path *p, unsigned int runs)
{
	uint64_t *ns = malloc(runs * sizeof(*ns));

	if (!ns)
		return 1;
	for (unsigned int i = 0; i < WARM_UP_RUNS + runs; i++) {
		uint64_t t = null_job_timed_run(p);

		if (!t) {
			free(ns);
			return 1;
		}
		if (i >= WARM_UP_RUNS)
			ns[i - WARM_UP_RUNS] = t;
	}
	bench_print_dispatch(p->name, ns, runs);
	free(ns);
	return 0;
}

int main(int argc, char **argv)
{
	struct null_job_path p;
	bool sleipnir = argc > 1 && strcmp(argv[1], "sleipnir") == 0;
	bool panfrost = argc > 1 && strcmp(argv[1], "panfrost") == 0;
	unsigned int runs = argc > 2 ? (unsigned int)strtoul(argv[2], NULL, 0)
				     : DEFAULT_RUNS;
	int err, status;

	if ((!sleipnir && !panfrost) || !runs) {
		fprintf(stderr, "usage: bench_null_job sleipnir|panfrost [RUNS]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	err = null_job_open(&p, sleipnir ? NULL_JOB_SLEIPNIR :
					   NULL_JOB_PANFROST);
	if (err) {
		fprintf(stderr, "bench_null_job: %s: set-up failed: %s\n",
			argv[1], strerror(-err));
		status = 1;
	} else {
		status = measure(&p, runs);
	}
	null_job_close(&p);
	return status;
}
