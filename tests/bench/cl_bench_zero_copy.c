/* SPDX-License-Identifier: MIT */
/*
 * Zero copy against the copy round trip, 4 KiB to 64 MiB (powers of 4):
 *  - map+unmap: a CL_MEM_ALLOC_HOST_PTR buffer mapped for writing, unmapped,
 *    clFinish, then mapped for reading and unmapped (blocking maps): what an
 *    application pays to hand data to the GPU and take it back when the
 *    runtime shares the memory;
 *  - write+read: clEnqueueWriteBuffer then clEnqueueReadBuffer (blocking) of
 *    the same bytes on an ordinary buffer: what it pays with copies.
 * Each is timed as the median of several repetitions (write+read) or of
 * MAP_REPS (map+unmap) after one warm-up
 * that also checks the data went through; the runtime's own count of bytes
 * it copied (CL_DEVICE_SLEIPNIR_BYTES_COPIED) is read around the timed
 * repetitions. The goal (issue 7): map+unmap takes the same time at every
 * size, at least 100x less than write+read at 64 MiB, and copies 0 bytes.
 *
 * Usage: cl_bench_zero_copy [MAX_MIB]   (default 64)
 * Prints one JSON object per size on stdout:
 *   {"bench":"zero_copy","bytes":...,"reps":...,"map_reps":...,
 *    "map_unmap_ns":...,
 *    "write_read_ns":...,"map_unmap_copied":...,"write_read_copied":...,
 *    "verified":true}
 * with the copied figures in bytes per repetition. Exits 1 when a size's
 * data did not come back intact.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_cl.h"
#include "bench_time.h"

#define MIN_BYTES ((size_t)4 << 10)
#define DEFAULT_MAX_MIB 64

/*
 * Repetitions of the map path: it costs microseconds at every size, so
 * many, which keeps its median clear of the guest's scheduling noise.
 */
#define MAP_REPS 51

/* Fewer repetitions where one copy round trip takes a long time under TCG. */
static unsigned int reps_for(size_t bytes)
{
	if (bytes <= ((size_t)1 << 20))
		return 15;
	if (bytes <= ((size_t)4 << 20))
		return 9;
	return 5;
}

static void *map(struct bench_cl *b, cl_mem buf, cl_map_flags flags,
		 size_t bytes)
{
	cl_int err;
	void *p = clEnqueueMapBuffer(b->queue, buf, CL_TRUE, flags, 0, bytes,
				     0, NULL, NULL, &err);

	bench_cl_check(b, err, "clEnqueueMapBuffer");
	return p;
}

static void unmap(struct bench_cl *b, cl_mem buf, void *p)
{
	BENCH_CL(b, clEnqueueUnmapMemObject(b->queue, buf, p, 0, NULL, NULL));
}

/* One map+unmap round trip; with src, the data goes through it and is
 * checked (the warm-up). */
static bool map_round_trip(struct bench_cl *b, cl_mem buf, size_t bytes,
			   const void *src)
{
	void *p = map(b, buf, CL_MAP_WRITE, bytes);
	bool ok = true;

	if (src)
		memcpy(p, src, bytes);
	unmap(b, buf, p);
	BENCH_CL(b, clFinish(b->queue));
	p = map(b, buf, CL_MAP_READ, bytes);
	if (src)
		ok = memcmp(p, src, bytes) == 0;
	unmap(b, buf, p);
	BENCH_CL(b, clFinish(b->queue));
	return ok;
}

static void copy_round_trip(struct bench_cl *b, cl_mem buf, size_t bytes,
			    const void *src, void *dst)
{
	BENCH_CL(b, clEnqueueWriteBuffer(b->queue, buf, CL_TRUE, 0, bytes, src,
					 0, NULL, NULL));
	BENCH_CL(b, clEnqueueReadBuffer(b->queue, buf, CL_TRUE, 0, bytes, dst,
					0, NULL, NULL));
}

static cl_mem buffer(struct bench_cl *b, cl_mem_flags flags, size_t bytes)
{
	cl_int err;
	cl_mem buf = clCreateBuffer(b->context, flags, bytes, NULL, &err);

	bench_cl_check(b, err, "clCreateBuffer");
	return buf;
}

/* Measures one size and prints its line; false when its data was wrong. */
static bool bench_size(struct bench_cl *b, size_t bytes, uint8_t *src,
		       uint8_t *dst, uint64_t *ns)
{
	cl_mem shared = buffer(b, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
			       bytes);
	cl_mem copied = buffer(b, CL_MEM_READ_WRITE, bytes);
	unsigned int reps = reps_for(bytes);
	uint64_t map_ns, copy_ns, map_bytes, copy_bytes, before;
	bool map_ok, copy_ok;

	/* Different data at every size, so a stale buffer cannot pass. */
	for (size_t i = 0; i < bytes; i++)
		src[i] = (uint8_t)(i * 31u + bytes / MIN_BYTES);
	map_ok = map_round_trip(b, shared, bytes, src);
	memset(dst, 0, bytes);
	copy_round_trip(b, copied, bytes, src, dst);
	copy_ok = memcmp(dst, src, bytes) == 0;

	before = bench_cl_bytes_copied(b);
	for (unsigned int r = 0; r < MAP_REPS; r++) {
		uint64_t t0 = now_ns();

		map_round_trip(b, shared, bytes, NULL);
		ns[r] = now_ns() - t0;
	}
	map_bytes = (bench_cl_bytes_copied(b) - before) / MAP_REPS;
	bench_sort(ns, MAP_REPS);
	map_ns = bench_pct(ns, MAP_REPS, 50);

	before = bench_cl_bytes_copied(b);
	for (unsigned int r = 0; r < reps; r++) {
		uint64_t t0 = now_ns();

		copy_round_trip(b, copied, bytes, src, dst);
		ns[r] = now_ns() - t0;
	}
	copy_bytes = (bench_cl_bytes_copied(b) - before) / reps;
	bench_sort(ns, reps);
	copy_ns = bench_pct(ns, reps, 50);

	printf("{\"bench\":\"zero_copy\",\"bytes\":%zu,\"reps\":%u,"
	       "\"map_reps\":%u,\"map_unmap_ns\":%llu,\"write_read_ns\":%llu,"
	       "\"map_unmap_copied\":%llu,\"write_read_copied\":%llu,"
	       "\"verified\":%s}\n",
	       bytes, reps, MAP_REPS, (unsigned long long)map_ns,
	       (unsigned long long)copy_ns, (unsigned long long)map_bytes,
	       (unsigned long long)copy_bytes,
	       map_ok && copy_ok ? "true" : "false");
	if (!map_ok)
		fprintf(stderr, "cl_bench_zero_copy: %zu bytes: the mapped "
			"buffer did not read back what was written\n", bytes);
	if (!copy_ok)
		fprintf(stderr, "cl_bench_zero_copy: %zu bytes: ReadBuffer "
			"did not return what WriteBuffer wrote\n", bytes);
	clReleaseMemObject(shared);
	clReleaseMemObject(copied);
	return map_ok && copy_ok;
}

int main(int argc, char **argv)
{
	size_t max_mib = argc > 1 ? strtoul(argv[1], NULL, 0) : DEFAULT_MAX_MIB;
	size_t max_bytes = max_mib << 20;
	uint64_t ns[MAP_REPS];
	struct bench_cl b;
	uint8_t *src, *dst;
	bool ok = true;

	if (max_bytes < MIN_BYTES) {
		fprintf(stderr, "usage: cl_bench_zero_copy [MAX_MIB >= 1]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	bench_cl_init(&b, "cl_bench_zero_copy");
	src = malloc(max_bytes);
	dst = malloc(max_bytes);
	if (!src || !dst) {
		fprintf(stderr, "cl_bench_zero_copy: out of memory\n");
		return 1;
	}
	for (size_t bytes = MIN_BYTES; bytes <= max_bytes; bytes *= 4)
		ok &= bench_size(&b, bytes, src, dst, ns);
	free(src);
	free(dst);
	bench_cl_fini(&b);
	return ok ? 0 : 1;
}
