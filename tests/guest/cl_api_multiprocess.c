/* SPDX-License-Identifier: MIT */
/*
 * cl_api_test multiprocess: 4 processes, each with its own context (and
 * so its own GPU address space), build a program, wait for each other and
 * then run a kernel many times at once, checking every result. The parent
 * forks before any OpenCL call (an OpenCL runtime's threads and device
 * file do not survive fork) and counts the children's exit statuses; a
 * child prints why it failed.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cl_api.h"

#define PROCESSES 4
#define ROUNDS 100
#define COUNT 4096
/* Four builds and 4 x ROUNDS launches on 2 emulated CPUs. */
#define CHILD_SECONDS 400

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One child's work: 0 when every round was right. */
static int child_run(int id, int ready_fd, int go_fd)
{
	cl_int err = 1, *data = malloc(COUNT * 4), mul = 3;
	cl_context ctx = NULL;
	cl_command_queue q = NULL;
	cl_program prog = NULL;
	cl_kernel k = NULL;
	cl_mem buf = NULL, mapped = NULL;
	size_t global = COUNT;
	char byte = 'r';
	int failures = 0;
	double start;

	/* A hung child dies by SIGALRM, which the parent reports (the
	 * parent's watchdog would print a summary line of its own). */
	signal(SIGALRM, SIG_DFL);
	alarm(CHILD_SECONDS);
	if (!data || !cl_api_find_device()) {
		printf("  child %d: no device\n", id);
		return 1;
	}
	ctx = clCreateContext(NULL, 1, &api.device, NULL, NULL, &err);
	if (ctx)
		q = clCreateCommandQueue(ctx, api.device, 0, &err);
	if (q)
		prog = cl_api_build(ctx, cl_api_small_source, NULL);
	if (prog)
		k = clCreateKernel(prog, "scale_add", &err);
	if (k)
		buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, COUNT * 4, NULL,
				     &err);
	if (buf)
		mapped = clCreateBuffer(
			ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
			COUNT * 4, NULL, &err);
	/* Ready or not, the parent must hear from us. */
	if (write(ready_fd, &byte, 1) != 1)
		return 1;
	if (!mapped) {
		printf("  child %d: setting up failed: %s\n", id,
		       cl_err_name(err));
		return 1;
	}
	/* Start together: the parent closes the pipe once all are ready. */
	while (read(go_fd, &byte, 1) > 0)
		;
	start = now_s();
	CHECK_ERR(clSetKernelArg(k, 1, sizeof(mul), &mul), CL_SUCCESS);
	for (int round = 0; round < ROUNDS && failures < 3; round++) {
		cl_int add = id * 100000 + round, *p = NULL;
		/* Odd rounds go through a mapped ALLOC_HOST_PTR buffer, even
		 * ones through write and read. */
		cl_mem b = round % 2 ? mapped : buf;
		int bad = 0;

		for (int i = 0; i < COUNT; i++)
			data[i] = i * (id + 1) - round;
		if (b == buf) {
			CHECK_ERR(clEnqueueWriteBuffer(q, b, CL_FALSE, 0,
						       COUNT * 4, data, 0, NULL,
						       NULL),
				  CL_SUCCESS);
		} else {
			p = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_WRITE, 0,
					       COUNT * 4, 0, NULL, NULL, &err);
			if (!p) {
				printf("  child %d: map: %s\n", id,
				       cl_err_name(err));
				failures++;
				continue;
			}
			memcpy(p, data, COUNT * 4);
			CHECK_ERR(
				clEnqueueUnmapMemObject(q, b, p, 0, NULL, NULL),
				CL_SUCCESS);
		}
		CHECK_ERR(clSetKernelArg(k, 0, sizeof(b), &b), CL_SUCCESS);
		CHECK_ERR(clSetKernelArg(k, 2, sizeof(add), &add), CL_SUCCESS);
		CHECK_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL,
						 0, NULL, NULL),
			  CL_SUCCESS);
		CHECK_ERR(clEnqueueReadBuffer(q, b, CL_TRUE, 0, COUNT * 4, data,
					      0, NULL, NULL),
			  CL_SUCCESS);
		for (int i = 0; i < COUNT; i++)
			bad += data[i] != (i * (id + 1) - round) * 3 + add;
		if (bad) {
			printf("  child %d round %d: %d of %d wrong (data[1] = "
			       "%d, expected %d)\n",
			       id, round, bad, COUNT, data[1],
			       ((id + 1) - round) * 3 + add);
			failures++;
		}
	}
	printf("  child %d: %d rounds in %.1f s, %s\n", id, ROUNDS,
	       now_s() - start,
	       failures || check_state.failed ? "FAILED" : "ok");
	clReleaseMemObject(buf);
	clReleaseMemObject(mapped);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(data);
	return failures || check_state.failed ? 1 : 0;
}

TEST(four_processes_at_once)
{
	int ready[2], go[2];
	pid_t pids[PROCESSES];
	char byte;

	REQUIRE(pipe(ready) == 0 && pipe(go) == 0);
	fflush(stdout);
	for (int i = 0; i < PROCESSES; i++) {
		pids[i] = fork();
		REQUIRE(pids[i] >= 0);
		if (pids[i] == 0) {
			close(ready[0]);
			close(go[1]);
			fflush(stdout);
			_exit(child_run(i, ready[1], go[0]));
		}
	}
	close(ready[1]);
	close(go[0]);
	for (int i = 0; i < PROCESSES; i++)
		if (read(ready[0], &byte, 1) != 1)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "a child died before it was ready");
	close(go[1]);
	close(ready[0]);
	for (int i = 0; i < PROCESSES; i++) {
		int status = 0;

		if (waitpid(pids[i], &status, 0) != pids[i]) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "waitpid child %d",
				      i);
			continue;
		}
		if (WIFSIGNALED(status))
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "child %d killed by signal %d", i,
				      WTERMSIG(status));
		else if (WEXITSTATUS(status) != 0)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "child %d failed (exit %d)", i,
				      WEXITSTATUS(status));
	}
}

void cl_api_multiprocess_tests(void)
{
	/* Children share stdout: line buffering keeps their lines whole. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	cl_api_watchdog("four_processes_at_once", CHILD_SECONDS + 60);
	RUN(four_processes_at_once);
	cl_api_watchdog(NULL, 0);
}
