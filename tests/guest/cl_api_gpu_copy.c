/* SPDX-License-Identifier: MIT */
/*
 * clEnqueueFillBuffer, clEnqueueCopyBuffer and clEnqueueCopyBufferRect as
 * the runtime runs them on the GPU (issue 20: its own kernels, chained
 * with the queue's launches). What that path makes risky, each result
 * checked byte for byte, the whole buffer, against the same operation
 * done here on the CPU (spec §5.2.2, §5.2.3): every pattern size at
 * offsets and sizes at the pattern's granularity, copies at every byte
 * alignment of source and destination and sizes around the 16- and
 * 256-byte blocks, rectangles with pitches in 2D and 3D, copies between
 * kernels with no wait in between, a few MiB, read-only destinations,
 * sub-buffers, wait lists; the overlap errors unchanged. That the GPU did the work:
 * the runtime's count of bytes it copied on the CPU
 * (CL_DEVICE_SLEIPNIR_BYTES_COPIED) stays put, unless the environment
 * asks for CPU copies (SLEIPNIR_CL_CPU_COPIES=1), which also gives the
 * time of both ways of a kernel -> copy -> kernel chain.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_api.h"

static void noise(uint8_t *p, size_t n, unsigned int seed)
{
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		p[i] = (uint8_t)(x >> 16);
	}
}

static long first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return (long)i;
	return -1;
}

/* The buffer's bytes against @want; the case named on failure. */
static bool same(cl_command_queue q, cl_mem buf, const uint8_t *want,
		 size_t n, const char *what, int line)
{
	uint8_t *got = malloc(n);
	long d;

	if (!got)
		return false;
	CHECK_ERR(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n, got, 0, NULL,
				      NULL),
		  CL_SUCCESS);
	d = first_diff(got, want, n);
	if (d >= 0)
		CHECK_FAIL_AT(__FILE__, line, "%s: byte %ld is 0x%02x, "
			      "expected 0x%02x", what, d, got[d], want[d]);
	free(got);
	return d < 0;
}

static bool cpu_copies(void)
{
	const char *env = getenv("SLEIPNIR_CL_CPU_COPIES");

	return env && *env && strcmp(env, "0") != 0;
}

/* Every pattern size OpenCL allows, at offsets and sizes that are
 * multiples of it, each case in a region of its own of one buffer whose
 * other bytes must not change: one write, the fills with no wait between
 * them (one chain on the GPU), one read per pattern size. */
TEST(fill_every_pattern)
{
	enum { REGION = 1024, CASES = 7 * 6 };
	static const size_t units[] = { 0, 1, 2, 3, 5, 7, 8 };
	const size_t n = REGION * CASES;
	uint8_t *ref = malloc(n), pat[128];
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, n, NULL);
	unsigned int seed = 1;

	REQUIRE(ref && buf);
	for (size_t p = 1; p <= 128; p *= 2) {
		size_t c = 0;
		char what[64];

		noise(ref, n, seed++);
		CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_FALSE, 0, n,
					       ref, 0, NULL, NULL),
			  CL_SUCCESS);
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			for (size_t j = 1; j < sizeof(units) / sizeof(units[0]);
			     j++, c++) {
				/* Offsets past 16 bytes as well. */
				size_t off = units[i] * p + ((i & 1) ? 3 * p : 0);
				size_t size = units[j] * p;

				if (off + size > REGION)
					continue;
				off += c * REGION;
				noise(pat, p, seed++ * 7);
				CHECK_ERR(clEnqueueFillBuffer(api.queue, buf,
							      pat, p, off,
							      size, 0, NULL,
							      NULL),
					  CL_SUCCESS);
				for (size_t k = 0; k < size; k++)
					ref[off + k] = pat[k % p];
			}
		}
		snprintf(what, sizeof(what), "fills of a %zu-byte pattern", p);
		if (!same(api.queue, buf, ref, n, what, __LINE__))
			break;
	}
	/* Big, with a head and tail: 1 MiB + 36 bytes at 12, pattern 4. */
	{
		size_t big = (1u << 20) + 64;
		uint8_t *r = malloc(big);
		cl_mem b = cl_api_buffer(CL_MEM_READ_WRITE, big, NULL);

		REQUIRE(r && b);
		noise(r, big, 99);
		noise(pat, 4, 98);
		CHECK_ERR(clEnqueueWriteBuffer(api.queue, b, CL_FALSE, 0, big,
					       r, 0, NULL, NULL),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueFillBuffer(api.queue, b, pat, 4, 12,
					      (1u << 20) + 36, 0, NULL, NULL),
			  CL_SUCCESS);
		for (size_t k = 0; k < (1u << 20) + 36; k++)
			r[12 + k] = pat[k % 4];
		same(api.queue, b, r, big, "1 MiB fill", __LINE__);
		clReleaseMemObject(b);
		free(r);
	}
	clReleaseMemObject(buf);
	free(ref);
}

/* Source and destination at every alignment class modulo 4 and 16 of
 * each and of their distance, sizes around the kernel's 16-byte steps
 * and 256-byte blocks; each case into a region of its own, one read per
 * size. */
TEST(copy_every_alignment)
{
	enum { N = 1024, REGION = 1024 };
	static const size_t sizes[] = { 1, 15, 17, 64, 65, 300, 531 };
	static const size_t src_at[] = { 0, 1, 2, 3, 4, 7, 8, 13, 16 };
	static const size_t dst_at[] = { 0, 1, 2, 3, 5, 8, 12, 15 };
	const size_t cases = sizeof(src_at) / sizeof(*src_at) *
			     (sizeof(dst_at) / sizeof(*dst_at));
	uint8_t *src = malloc(N), *ref = malloc(REGION * cases);
	cl_mem a = cl_api_buffer(CL_MEM_READ_WRITE, N, NULL);
	cl_mem b = cl_api_buffer(CL_MEM_READ_WRITE, REGION * cases, NULL);

	REQUIRE(src && ref && a && b);
	noise(src, N, 5);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, a, CL_TRUE, 0, N, src, 0,
				       NULL, NULL),
		  CL_SUCCESS);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		size_t c = 0;
		char what[48];

		noise(ref, REGION * cases, (unsigned int)k + 60);
		CHECK_ERR(clEnqueueWriteBuffer(api.queue, b, CL_FALSE, 0,
					       REGION * cases, ref, 0, NULL,
					       NULL),
			  CL_SUCCESS);
		for (size_t i = 0; i < sizeof(src_at) / sizeof(*src_at); i++)
			for (size_t j = 0; j < sizeof(dst_at) / sizeof(*dst_at);
			     j++, c++) {
				size_t dof = c * REGION + dst_at[j];

				CHECK_ERR(clEnqueueCopyBuffer(api.queue, a, b,
							      src_at[i], dof,
							      sizes[k], 0,
							      NULL, NULL),
					  CL_SUCCESS);
				memcpy(ref + dof, src + src_at[i], sizes[k]);
			}
		/* The region of a wrong byte says which case: region c is
		 * source offset src_at[c / 8], destination dst_at[c % 8]. */
		snprintf(what, sizeof(what), "copies of %zu bytes", sizes[k]);
		if (!same(api.queue, b, ref, REGION * cases, what, __LINE__))
			break;
	}
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	free(src);
	free(ref);
}

/* Within one buffer: disjoint ranges copy, overlapping ones are still
 * CL_MEM_COPY_OVERLAP (§5.2.2), for both forms, nothing written. */
TEST(copy_within_one_buffer)
{
	enum { N = 4096 };
	uint8_t *ref = malloc(N);
	cl_mem buf = cl_api_buffer(CL_MEM_READ_WRITE, N, NULL);
	size_t so[3] = { 0, 0, 0 }, dor[3] = { 8, 0, 0 }, reg[3] = { 16, 4, 1 };

	REQUIRE(ref && buf);
	noise(ref, N, 11);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, buf, CL_TRUE, 0, N, ref, 0,
				       NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, buf, buf, 5, 2001, 1500, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	memmove(ref + 2001, ref + 5, 1500);
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, buf, buf, 100, 1000, 1000, 0,
				      NULL, NULL),
		  CL_MEM_COPY_OVERLAP);
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, buf, buf, 64, 64, 1, 0, NULL,
				      NULL),
		  CL_MEM_COPY_OVERLAP);
	/* Rows of 16 at a pitch of 32: 8 bytes further, they overlap. */
	CHECK_ERR(clEnqueueCopyBufferRect(api.queue, buf, buf, so, dor, reg,
					  32, 0, 32, 0, 0, NULL, NULL),
		  CL_MEM_COPY_OVERLAP);
	/* 16 bytes further, they interleave without sharing a byte. */
	dor[0] = 16;
	CHECK_ERR(clEnqueueCopyBufferRect(api.queue, buf, buf, so, dor, reg,
					  32, 0, 32, 0, 0, NULL, NULL),
		  CL_SUCCESS);
	for (size_t y = 0; y < 4; y++)
		memcpy(ref + 16 + 32 * y, ref + 32 * y, 16);
	same(api.queue, buf, ref, N, "copies within a buffer", __LINE__);
	clReleaseMemObject(buf);
	free(ref);
}

/* The CPU's rectangle copy, the spec's formula (§5.2.2). */
static void rect_ref(uint8_t *dst, const uint8_t *src, const size_t so[3],
		     const size_t dor[3], const size_t reg[3], size_t srp,
		     size_t ssp, size_t drp, size_t dsp)
{
	for (size_t z = 0; z < reg[2]; z++)
		for (size_t y = 0; y < reg[1]; y++)
			for (size_t x = 0; x < reg[0]; x++)
				dst[(dor[2] + z) * dsp + (dor[1] + y) * drp +
				    dor[0] + x] =
					src[(so[2] + z) * ssp +
					    (so[1] + y) * srp + so[0] + x];
}

/* 1D, 2D and 3D rectangles with pitches that are and are not multiples
 * of 16, odd origins, pitches 0 (packed). */
TEST(copy_rect_pitches)
{
	enum { N = 64 * 1024 };
	static const struct {
		size_t so[3], dor[3], reg[3], srp, ssp, drp, dsp;
	} cases[] = {
		{ { 3, 0, 0 }, { 5, 0, 0 }, { 1000, 1, 1 }, 0, 0, 0, 0 },
		{ { 1, 2, 0 }, { 7, 3, 0 }, { 37, 9, 1 }, 50, 0, 61, 0 },
		{ { 0, 0, 0 }, { 0, 0, 0 }, { 64, 8, 1 }, 64, 0, 128, 0 },
		{ { 16, 1, 0 }, { 32, 2, 0 }, { 100, 5, 1 }, 128, 0, 144, 0 },
		{ { 2, 1, 1 }, { 3, 2, 2 }, { 21, 4, 3 }, 33, 165, 40, 280 },
		{ { 0, 0, 0 }, { 0, 0, 0 }, { 17, 3, 4 }, 0, 0, 0, 0 },
		{ { 4, 3, 2 }, { 8, 1, 3 }, { 130, 7, 5 }, 160, 1280, 136,
		  1088 },
		{ { 1, 0, 0 }, { 0, 0, 0 }, { 1, 40, 2 }, 3, 150, 1, 40 },
	};
	uint8_t *src = malloc(N), *ref = malloc(N);
	cl_mem a = cl_api_buffer(CL_MEM_READ_WRITE, N, NULL);
	cl_mem b = cl_api_buffer(CL_MEM_READ_WRITE, N, NULL);

	REQUIRE(src && ref && a && b);
	noise(src, N, 21);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, a, CL_TRUE, 0, N, src, 0,
				       NULL, NULL),
		  CL_SUCCESS);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t srp = cases[i].srp ? cases[i].srp : cases[i].reg[0];
		size_t drp = cases[i].drp ? cases[i].drp : cases[i].reg[0];
		size_t ssp = cases[i].ssp ? cases[i].ssp :
					    srp * cases[i].reg[1];
		size_t dsp = cases[i].dsp ? cases[i].dsp :
					    drp * cases[i].reg[1];
		char what[48];

		noise(ref, N, (unsigned int)i + 40);
		CHECK_ERR(clEnqueueWriteBuffer(api.queue, b, CL_FALSE, 0, N,
					       ref, 0, NULL, NULL),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueCopyBufferRect(
				  api.queue, a, b, cases[i].so, cases[i].dor,
				  cases[i].reg, cases[i].srp, cases[i].ssp,
				  cases[i].drp, cases[i].dsp, 0, NULL, NULL),
			  CL_SUCCESS);
		rect_ref(ref, src, cases[i].so, cases[i].dor, cases[i].reg,
			 srp, ssp, drp, dsp);
		snprintf(what, sizeof(what), "rect case %zu", i);
		if (!same(api.queue, b, ref, N, what, __LINE__))
			break;
	}
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	free(src);
	free(ref);
}

/*
 * kernel -> copy -> kernel -> fill -> kernel -> rect copy in an in-order
 * queue, nothing waited for in between: each step sees the one before.
 * Returns the nanoseconds from the first enqueue to clFinish.
 */
static long long chain(size_t count, bool check)
{
	cl_kernel add = cl_api_kernel("add_k");
	cl_mem a = cl_api_buffer(CL_MEM_READ_WRITE, count * 4, NULL);
	cl_mem b = cl_api_buffer(CL_MEM_READ_WRITE, count * 4, NULL);
	cl_int *host = malloc(count * 4), *got = malloc(count * 4);
	cl_int two = 2, three = 3, fill = 100;
	size_t global = count, zero[3] = { 0, 0, 0 };
	size_t reg[3] = { count * 2, 2, 1 };
	struct timespec t0, t1;
	long long ns = -1;

	if (!add || !a || !b || !host || !got)
		goto out;
	for (size_t i = 0; i < count; i++)
		host[i] = (cl_int)i;
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, a, CL_TRUE, 0, count * 4,
				       host, 0, NULL, NULL),
		  CL_SUCCESS);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clSetKernelArg(add, 0, sizeof(a), &a);
	clSetKernelArg(add, 1, sizeof(two), &two);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, add, 1, NULL, &global,
					 NULL, 0, NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, a, b, 0, 0, count * 4, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	clSetKernelArg(add, 0, sizeof(b), &b);
	clSetKernelArg(add, 1, sizeof(three), &three);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, add, 1, NULL, &global,
					 NULL, 0, NULL, NULL),
		  CL_SUCCESS);
	/* The first half of a takes 100s, then gets 2 more. */
	CHECK_ERR(clEnqueueFillBuffer(api.queue, a, &fill, 4, 0, count * 2, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	clSetKernelArg(add, 0, sizeof(a), &a);
	clSetKernelArg(add, 1, sizeof(two), &two);
	CHECK_ERR(clEnqueueNDRangeKernel(api.queue, add, 1, NULL, &global,
					 NULL, 0, NULL, NULL),
		  CL_SUCCESS);
	/* The first half of a over the second half of b, as 2 rows. */
	reg[0] = count;
	reg[1] = 2;
	{
		size_t dor[3] = { 0, 2, 0 };

		CHECK_ERR(clEnqueueCopyBufferRect(api.queue, a, b, zero, dor,
						  reg, count, 0, count, 0, 0,
						  NULL, NULL),
			  CL_SUCCESS);
	}
	CHECK_ERR(clFinish(api.queue), CL_SUCCESS);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ns = (t1.tv_sec - t0.tv_sec) * 1000000000ll + t1.tv_nsec - t0.tv_nsec;
	if (check) {
		bool ok = true;

		CHECK_ERR(clEnqueueReadBuffer(api.queue, b, CL_TRUE, 0,
					      count * 4, got, 0, NULL, NULL),
			  CL_SUCCESS);
		for (size_t i = 0; i < count; i++) {
			cl_int want = i < count / 2 ? (cl_int)i + 5 : 102;

			if (got[i] != want && ok) {
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "b[%zu] = %d, expected %d", i,
					      got[i], want);
				ok = false;
			}
		}
	}
out:
	if (a)
		clReleaseMemObject(a);
	if (b)
		clReleaseMemObject(b);
	if (add)
		clReleaseKernel(add);
	free(host);
	free(got);
	return ns;
}

TEST(copies_between_kernels_without_waits)
{
	chain(4096, true);
}

/* Into a CL_MEM_READ_ONLY buffer (read-only for kernels, not for the
 * runtime's commands, §5.2.1), and from a WRITE_ONLY one. */
TEST(copy_into_read_only)
{
	enum { N = 1000 };
	uint8_t src[N], ref[N];
	cl_mem a = cl_api_buffer(CL_MEM_WRITE_ONLY, N, NULL);
	cl_mem b = cl_api_buffer(CL_MEM_READ_ONLY, N, NULL);
	cl_short pat = 0x1234;

	REQUIRE(a && b);
	noise(src, N, 71);
	noise(ref, N, 72);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, a, CL_FALSE, 0, N, src, 0,
				       NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, b, CL_FALSE, 0, N, ref, 0,
				       NULL, NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, a, b, 1, 33, 900, 0, NULL,
				      NULL),
		  CL_SUCCESS);
	memcpy(ref + 33, src + 1, 900);
	CHECK_ERR(clEnqueueFillBuffer(api.queue, b, &pat, 2, 2, 20, 0, NULL,
				      NULL),
		  CL_SUCCESS);
	for (size_t i = 0; i < 20; i += 2)
		memcpy(ref + 2 + i, &pat, 2);
	same(api.queue, b, ref, N, "read-only destination", __LINE__);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
}

/* Sub-buffers: the GPU addresses are their windows' (§5.2.1), filled and
 * copied between two windows of one buffer and into the parent. */
TEST(sub_buffer_windows)
{
	size_t align = api.base_align ? api.base_align : 128;
	size_t n = 4 * align + 1000;
	uint8_t *ref = malloc(n), *src = malloc(n);
	cl_mem parent = cl_api_buffer(CL_MEM_READ_WRITE, n, NULL);
	cl_buffer_region r1 = { align, 2 * align };
	cl_buffer_region r2 = { 4 * align, 600 };
	cl_mem s1 = NULL, s2 = NULL;
	cl_uchar pat[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	cl_int err = 1;

	REQUIRE(ref && src && parent);
	s1 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1,
			       &err);
	s2 = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2,
			       &err);
	REQUIRE(s1 && s2);
	noise(src, n, 33);
	memcpy(ref, src, n);
	CHECK_ERR(clEnqueueWriteBuffer(api.queue, parent, CL_FALSE, 0, n, src,
				       0, NULL, NULL),
		  CL_SUCCESS);
	/* s1 bytes 5.. to s2 at 3, s2 filled at 40, s2 to the parent's 17. */
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, s1, s2, 5, 3, 200, 0, NULL,
				      NULL),
		  CL_SUCCESS);
	memmove(ref + r2.origin + 3, ref + r1.origin + 5, 200);
	CHECK_ERR(clEnqueueFillBuffer(api.queue, s2, pat, 8, 40, 64, 0, NULL,
				      NULL),
		  CL_SUCCESS);
	for (size_t i = 0; i < 64; i++)
		ref[r2.origin + 40 + i] = pat[i % 8];
	CHECK_ERR(clEnqueueCopyBuffer(api.queue, s2, parent, 0, 17, 200, 0,
				      NULL, NULL),
		  CL_SUCCESS);
	memmove(ref + 17, ref + r2.origin, 200);
	same(api.queue, parent, ref, n, "sub-buffer copies", __LINE__);
	clReleaseMemObject(s1);
	clReleaseMemObject(s2);
	clReleaseMemObject(parent);
	free(ref);
	free(src);
}

/* A copy held back by a user event in an out-of-order queue runs only
 * after it; a failed one fails the copy and leaves the bytes. */
TEST(copy_waits_for_its_list)
{
	enum { N = 256 };
	uint8_t src[N], ref[N];
	cl_command_queue q = cl_api_queue(
		CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
	cl_mem a = cl_api_buffer(CL_MEM_READ_WRITE, N, NULL);
	cl_mem b = cl_api_buffer(CL_MEM_READ_WRITE, N, NULL);
	cl_int err = 1;
	cl_event gate, copy = NULL, gate2, copy2 = NULL;

	REQUIRE(q && a && b);
	noise(src, N, 81);
	noise(ref, N, 82);
	CHECK_ERR(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, N, src, 0, NULL,
				       NULL),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, N, ref, 0, NULL,
				       NULL),
		  CL_SUCCESS);
	gate = clCreateUserEvent(api.ctx, &err);
	REQUIRE(gate);
	CHECK_ERR(clEnqueueCopyBuffer(q, a, b, 0, 0, N, 1, &gate, &copy),
		  CL_SUCCESS);
	cl_api_sleep_ms(50);
	CHECK(cl_api_event_status(copy) > CL_RUNNING);
	same(q, b, ref, N, "before the gate opened", __LINE__);
	CHECK_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &copy), CL_SUCCESS);
	memcpy(ref, src, N);
	same(q, b, ref, N, "after the gate", __LINE__);

	gate2 = clCreateUserEvent(api.ctx, &err);
	REQUIRE(gate2);
	CHECK_ERR(clEnqueueFillBuffer(q, b, "\x55", 1, 0, N, 1, &gate2,
				      &copy2),
		  CL_SUCCESS);
	CHECK_ERR(clSetUserEventStatus(gate2, -1), CL_SUCCESS);
	CHECK_ERR(clWaitForEvents(1, &copy2),
		  CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
	CHECK(cl_api_event_status(copy2) < 0);
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	same(q, b, ref, N, "after a failed gate", __LINE__);
	clReleaseEvent(gate);
	clReleaseEvent(copy);
	clReleaseEvent(gate2);
	clReleaseEvent(copy2);
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseCommandQueue(q);
}

/*
 * The GPU did it: 4 MiB of fill, copy and rect copy move no byte through
 * the runtime's CPU copies (the counter stays put), come out right, and
 * their events have GPU profiling times in order. Under
 * SLEIPNIR_CL_CPU_COPIES=1 the counter must count them instead.
 */
TEST(fills_and_copies_run_on_the_gpu)
{
	const size_t n = 4u << 20;
	uint8_t *ref = malloc(n), *src = malloc(n);
	cl_command_queue q = cl_api_queue(CL_QUEUE_PROFILING_ENABLE);
	cl_mem a = cl_api_buffer(CL_MEM_READ_WRITE, n, NULL);
	cl_mem b = cl_api_buffer(CL_MEM_READ_WRITE, n, NULL);
	size_t so[3] = { 7, 1, 0 }, dor[3] = { 9, 2, 0 };
	size_t reg[3] = { 4000, 500, 1 };
	cl_uint word = 0xA5C3E1F0u;
	cl_event ev[3];
	cl_ulong before, moved;

	REQUIRE(ref && src && q && a && b);
	noise(src, n, 91);
	CHECK_ERR(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, n, src, 0, NULL,
				       NULL),
		  CL_SUCCESS);
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	before = cl_api_bytes_copied();
	CHECK_ERR(clEnqueueFillBuffer(q, b, &word, 4, 0, n, 0, NULL, &ev[0]),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueCopyBuffer(q, a, b, 3, 5, n / 2, 0, NULL, &ev[1]),
		  CL_SUCCESS);
	CHECK_ERR(clEnqueueCopyBufferRect(q, a, b, so, dor, reg, 4096, 0,
					  4100, 0, 0, NULL, &ev[2]),
		  CL_SUCCESS);
	CHECK_ERR(clFinish(q), CL_SUCCESS);
	moved = cl_api_bytes_copied() - before;
	if (cpu_copies())
		CHECK(moved >= n + n / 2 + 4000 * 500);
	else if (moved)
		CHECK_FAIL_AT(__FILE__, __LINE__, "the CPU copied %llu bytes "
			      "of GPU fills and copies",
			      (unsigned long long)moved);
	for (size_t i = 0; i < n; i += 4)
		memcpy(ref + i, &word, 4);
	memcpy(ref + 5, src + 3, n / 2);
	rect_ref(ref, src, so, dor, reg, 4096, 4096 * 500, 4100, 4100 * 500);
	same(q, b, ref, n, "4 MiB fill, copy, rect", __LINE__);
	for (int i = 0; i < 3; i++) {
		cl_ulong t[4];
		static const cl_profiling_info what[4] = {
			CL_PROFILING_COMMAND_QUEUED,
			CL_PROFILING_COMMAND_SUBMIT,
			CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END
		};

		for (int j = 0; j < 4; j++)
			CHECK_ERR(clGetEventProfilingInfo(ev[i], what[j],
							  sizeof(t[j]), &t[j],
							  NULL),
				  CL_SUCCESS);
		CHECK(t[0] <= t[1] && t[1] <= t[2] && t[2] < t[3]);
		clReleaseEvent(ev[i]);
	}
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clReleaseCommandQueue(q);
	free(ref);
	free(src);
}

/* The chain's time with GPU copies and with CPU copies (printed, not
 * checked: a figure for the issue, docs/ and make bench). */
TEST(chain_time_gpu_against_cpu)
{
	const size_t count = 256 * 1024;
	const char *had = getenv("SLEIPNIR_CL_CPU_COPIES");
	long long gpu, cpu;

	if (had)
		return;
	chain(count, false);
	gpu = chain(count, true);
	setenv("SLEIPNIR_CL_CPU_COPIES", "1", 1);
	cpu = chain(count, true);
	unsetenv("SLEIPNIR_CL_CPU_COPIES");
	printf("  kernel->copy->kernel->fill->kernel->rect, %zu KiB: "
	       "GPU copies %.2f ms, CPU copies %.2f ms\n", count * 4 / 1024,
	       gpu / 1e6, cpu / 1e6);
}

void cl_api_gpu_copy_tests(void)
{
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	API_RUN(fill_every_pattern);
	API_RUN(copy_every_alignment);
	API_RUN(copy_within_one_buffer);
	API_RUN(copy_rect_pitches);
	API_RUN(copies_between_kernels_without_waits);
	API_RUN(copy_into_read_only);
	API_RUN(sub_buffer_windows);
	API_RUN(copy_waits_for_its_list);
	API_RUN(fills_and_copies_run_on_the_gpu);
	API_RUN(chain_time_gpu_against_cpu);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* What these tests add to the suite's time (make check's budget). */
	printf("  GPU fill/copy tests: %lld ms\n",
	       (long long)(t1.tv_sec - t0.tv_sec) * 1000 +
	       (t1.tv_nsec - t0.tv_nsec) / 1000000);
}
