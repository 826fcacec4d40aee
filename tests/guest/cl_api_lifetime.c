/* SPDX-License-Identifier: MIT */
/*
 * Object lifetimes: the issue's "retain/release everywhere with no leaks".
 * Whole object graphs (context, queue, program, kernel, buffers, events)
 * are made, used and released many times; the process's open files and
 * resident memory must not grow with the count. And the copy statistics
 * the runtime prints at exit (SLEIPNIR_CL_COPY_STATS=1, cl_sleipnir.h).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cl_api.h"

#include "cl_sleipnir.h"

/* The number of open files; with @say, what each one is. */
static int open_files(bool say)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *ent;
	int n = 0;

	if (!d)
		return -1;
	while ((ent = readdir(d))) {
		char path[300], target[256] = "";
		ssize_t len;

		if (ent->d_name[0] == '.')
			continue;
		n++;
		if (!say)
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", ent->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		target[len > 0 ? len : 0] = 0;
		printf("    fd %s: %s\n", ent->d_name, target);
	}
	closedir(d);
	return n;
}

static long resident_kib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* One context's life: everything made from scratch (the program from
 * the main program's binary, to spare the compiler), used, released. */
static bool one_life(const unsigned char *bin, size_t bin_size, int round)
{
	cl_int err = 1, status = 1, data[256], k = round;
	cl_context c = clCreateContext(NULL, 1, &api.device, NULL, NULL, &err);
	cl_command_queue q =
		c ? clCreateCommandQueue(c, api.device,
					 CL_QUEUE_PROFILING_ENABLE, &err)
		  : NULL;
	cl_program p =
		q ? clCreateProgramWithBinary(c, 1, &api.device, &bin_size,
					      &bin, &status, &err)
		  : NULL;
	cl_kernel kern = NULL;
	cl_mem buf = NULL, sub = NULL;
	cl_event e = NULL, ue = NULL;
	cl_buffer_region region = { 0, 512 };
	size_t global = 256;
	bool ok = false;

	if (!p || clBuildProgram(p, 0, NULL, NULL, NULL, NULL) != CL_SUCCESS)
		goto out;
	kern = clCreateKernel(p, "add_k", &err);
	buf = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
			     sizeof(data), NULL, &err);
	ue = clCreateUserEvent(c, &err);
	if (!kern || !buf || !ue)
		goto out;
	sub = clCreateSubBuffer(buf, 0, CL_BUFFER_CREATE_TYPE_REGION, &region,
				&err);
	for (int i = 0; i < 256; i++)
		data[i] = i;
	clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof(data), data, 1, &ue,
			     NULL);
	clSetKernelArg(kern, 0, sizeof(buf), &buf);
	clSetKernelArg(kern, 1, sizeof(k), &k);
	clEnqueueNDRangeKernel(q, kern, 1, NULL, &global, NULL, 0, NULL, &e);
	clSetUserEventStatus(ue, CL_COMPLETE);
	clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof(data), data, 0, NULL,
			    NULL);
	ok = sub != NULL;
	for (int i = 0; i < 256; i++)
		ok &= data[i] == i + round;
out:
	if (e)
		clReleaseEvent(e);
	if (ue)
		clReleaseEvent(ue);
	if (sub)
		clReleaseMemObject(sub);
	if (buf)
		clReleaseMemObject(buf);
	if (kern)
		clReleaseKernel(kern);
	if (p)
		clReleaseProgram(p);
	if (q)
		clReleaseCommandQueue(q);
	if (c)
		clReleaseContext(c);
	if (!ok)
		printf("  round %d: %s\n", round, cl_err_name(err));
	return ok;
}

TEST(no_leaks)
{
	enum { ROUNDS = 40 };
	size_t size = 0;
	unsigned char *bin = cl_api_main_binary(&size);
	int files_before, files_after, failed = 0;
	long rss_before, rss_after;

	REQUIRE(bin);
	/* First lives warm what is made once (caches, threads). */
	failed += !one_life(bin, size, 0);
	failed += !one_life(bin, size, 0);
	/* A released context's device file may close on the runtime's own
	 * thread a moment after clReleaseContext returns: counts settle
	 * first. */
	cl_api_sleep_ms(300);
	files_before = open_files(false);
	rss_before = resident_kib();
	for (int round = 1; round <= ROUNDS; round++)
		failed += !one_life(bin, size, round);
	files_after = open_files(false);
	for (int waited = 0; files_after > files_before && waited < 3000;
	     waited += 20) {
		cl_api_sleep_ms(20);
		files_after = open_files(false);
	}
	rss_after = resident_kib();
	CHECK_EQ(failed, 0);
	printf("  %d lives: open files %d -> %d, resident %ld -> %ld KiB\n",
	       ROUNDS, files_before, files_after, rss_before, rss_after);
	if (files_after > files_before) {
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "%d files open before %d lives, %d after:",
			      files_before, ROUNDS, files_after);
		open_files(true);
	}
	/* 40 contexts leaking even a page table or a command BO each would
	 * show; allocator noise stays well below this. */
	CHECK(rss_after - rss_before < 4096);
	free(bin);
}

/*
 * SLEIPNIR_CL_COPY_STATS=1 prints the copy count at exit (cl_sleipnir.h).
 * A fresh process (this program again, in its copy-stats mode) copies a
 * known number of bytes and says the figure the query gives; the printed
 * statistics on its stderr must carry that figure.
 */
/*
 * Runs this program in @mode with the environment variable @var=@value;
 * its stdout and stderr into @so and @se (NUL-terminated, cut to fit).
 * True when it exited with status 0.
 */
static bool run_child(const char *mode, const char *var, const char *value,
		      char *so, size_t so_size, char *se, size_t se_size)
{
	int out[2], errp[2], status = 0;
	size_t n = 0;
	pid_t pid;

	if (pipe(out) || pipe(errp))
		return false;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(errp[1], 2);
		close(out[0]);
		close(errp[0]);
		setenv(var, value, 1);
		execl("/proc/self/exe", "cl_api_test", mode, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	close(errp[1]);
	for (ssize_t r; n + 1 < so_size &&
	     (r = read(out[0], so + n, so_size - 1 - n)) > 0;)
		n += (size_t)r;
	so[n] = 0;
	n = 0;
	/* Drain stderr whole, so the child never blocks on a full pipe. */
	for (;;) {
		char sink[4096];
		ssize_t r = n + 1 < se_size ?
			    read(errp[0], se + n, se_size - 1 - n) :
			    read(errp[0], sink, sizeof(sink));

		if (r <= 0)
			break;
		if (n + 1 < se_size)
			n += (size_t)r;
	}
	se[n] = 0;
	close(out[0]);
	close(errp[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(copy_stats_at_exit)
{
	char so[256] = "", se[1024] = "";
	unsigned long long figure = 0;
	char want[32];

	CHECK(run_child("copy-stats", "SLEIPNIR_CL_COPY_STATS", "1", so,
			sizeof(so), se, sizeof(se)));
	REQUIRE(sscanf(so, "copied %llu", &figure) == 1);
	CHECK(figure >= 3 * 4096);
	snprintf(want, sizeof(want), "%llu", figure);
	if (!strstr(se, want))
		CHECK_FAIL_AT(
			__FILE__, __LINE__,
			"SLEIPNIR_CL_COPY_STATS=1 printed \"%s\", without "
			"the %s bytes the query gave",
			se, want);
}

/* The copy-stats mode: a COPY_HOST_PTR buffer, a write and a read of
 * 4096 bytes each, a map and unmap (no copy); prints the query. */
int cl_api_copy_stats_child(void)
{
	static unsigned char page[4096];
	cl_context c;
	cl_command_queue q;
	cl_mem m;
	cl_ulong copied = 0;
	void *p;

	if (!cl_api_find_device())
		return 1;
	c = clCreateContext(NULL, 1, &api.device, NULL, NULL, NULL);
	q = c ? clCreateCommandQueue(c, api.device, 0, NULL) : NULL;
	m = q ? clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
			       sizeof(page), page, NULL)
	      : NULL;
	if (!m)
		return 1;
	clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof(page), page, 0, NULL,
			     NULL);
	clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(page), page, 0, NULL,
			    NULL);
	p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
			       sizeof(page), 0, NULL, NULL, NULL);
	if (p)
		clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL);
	clFinish(q);
	clGetDeviceInfo(api.device, CL_DEVICE_SLEIPNIR_BYTES_COPIED,
			sizeof(copied), &copied, NULL);
	printf("copied %llu\n", (unsigned long long)copied);
	fflush(stdout);
	clReleaseMemObject(m);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
	return 0;
}

/*
 * SLEIPNIR_DEBUG=jobs prints every chain the runtime submits, decoded: a
 * launch of 64 work-items in groups of 16 shows as a compute job with its
 * grid, renderer state and local storage, and the kernel still runs.
 */
TEST(debug_jobs_prints_chains)
{
	static char se[65536];
	char so[256] = "";

	CHECK(run_child("debug-jobs", "SLEIPNIR_DEBUG", "jobs", so, sizeof(so),
			se, sizeof(se)));
	CHECK(strstr(so, "ran 64") != NULL);
	CHECK(strstr(se, "sleipnir: job chain @ 0x") != NULL);
	CHECK(strstr(se, "sleipnir: Compute job @ 0x") != NULL);
	CHECK(strstr(se, "sleipnir:     Type: Compute (4)") != NULL);
	CHECK(strstr(se, "work-group size 16x1x1, count 4x1x1") != NULL);
	CHECK(strstr(se, "Renderer State @ 0x") != NULL);
	CHECK(strstr(se, "Local Storage @ 0x") != NULL);
	CHECK(strstr(se, "cannot be read") == NULL);
	if (!strstr(se, "Compute job"))
		printf("  stderr: %.400s\n", se);
}

/* The debug-jobs mode: one launch of scale_add over 64 ints. */
int cl_api_debug_jobs_child(void)
{
	cl_int data[64];
	size_t global = 64, local = 16;
	cl_int mul = 3, add = 1, err = 0;
	cl_context c;
	cl_command_queue q;
	cl_program p;
	cl_kernel k;
	cl_mem m;
	int ok = 0;

	if (!cl_api_find_device())
		return 1;
	for (int i = 0; i < 64; i++)
		data[i] = i;
	c = clCreateContext(NULL, 1, &api.device, NULL, NULL, NULL);
	q = c ? clCreateCommandQueue(c, api.device, 0, NULL) : NULL;
	p = q ? cl_api_build(c, cl_api_small_source, "") : NULL;
	k = p ? clCreateKernel(p, "scale_add", NULL) : NULL;
	m = k ? clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof(data), data,
			       NULL) : NULL;
	if (!m)
		return 1;
	err |= clSetKernelArg(k, 0, sizeof(m), &m);
	err |= clSetKernelArg(k, 1, sizeof(mul), &mul);
	err |= clSetKernelArg(k, 2, sizeof(add), &add);
	err |= clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL,
				      NULL);
	err |= clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof(data), data, 0,
				   NULL, NULL);
	for (int i = 0; i < 64; i++)
		ok += data[i] == i * 3 + 1;
	printf("ran %d\n", err ? -1 : ok);
	fflush(stdout);
	clReleaseMemObject(m);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
	return 0;
}

/*
 * Launches ready together share a chain, but not past 2^20 work-items:
 * the driver's timeout is per chain, and an application that enqueues
 * many big launches and then waits (clpeak) must not see them killed as
 * one. Two launches held back by a user event, then let go together, go
 * as one chain when small and as two when together they pass the limit
 * (SLEIPNIR_DEBUG=jobs prints each chain the ICD submits).
 */
TEST(big_launches_get_chains_of_their_own)
{
	static char se[1 << 20];
	char so[256] = "";
	const char *small, *big;
	int chains[2] = { 0, 0 };

	CHECK(run_child("batching", "SLEIPNIR_DEBUG", "jobs", so, sizeof(so),
			se, sizeof(se)));
	CHECK(strstr(so, "ran 2 2") != NULL);
	small = strstr(se, "@@round small");
	big = strstr(se, "@@round big");
	REQUIRE(small && big && small < big);
	for (const char *p = small; (p = strstr(p, "sleipnir: job chain @"));
	     p++)
		chains[p > big]++;
	printf("  two small launches: %d chain(s); two of 2^19 + 256 "
	       "work-items: %d\n",
	       chains[0], chains[1]);
	CHECK_EQ(chains[0], 1);
	CHECK_EQ(chains[1], 2);
}

/* Two launches of scale_add over @n ints, let go together; 0 or -1. */
static int batching_round(cl_context c, cl_command_queue q, cl_kernel k,
			  size_t n, const char *name)
{
	cl_int one = 1, err = 0;
	cl_int *data = calloc(n, sizeof(*data));
	cl_mem m = NULL;
	cl_event gate;
	int ok = 0;

	gate = clCreateUserEvent(c, &err);
	if (data)
		m = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
				   n * sizeof(*data), data, &err);
	if (!m || !gate) {
		free(data);
		return -1;
	}
	err |= clSetKernelArg(k, 0, sizeof(m), &m);
	err |= clSetKernelArg(k, 1, sizeof(one), &one);
	err |= clSetKernelArg(k, 2, sizeof(one), &one);
	fprintf(stderr, "@@round %s\n", name);
	fflush(stderr);
	err |= clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 1, &gate, NULL);
	err |= clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL);
	err |= clSetUserEventStatus(gate, CL_COMPLETE);
	err |= clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(*data), data, 0,
				   NULL, NULL);
	for (size_t i = 0; i < n; i++)
		ok += data[i] == 2;
	clReleaseEvent(gate);
	clReleaseMemObject(m);
	free(data);
	return err || (size_t)ok != n ? -1 : 0;
}

/* The batching mode: prints "ran 2 2" when both rounds gave +2 everywhere. */
int cl_api_batching_child(void)
{
	cl_context c;
	cl_command_queue q;
	cl_program p;
	cl_kernel k;
	int r1, r2;

	if (!cl_api_find_device())
		return 1;
	c = clCreateContext(NULL, 1, &api.device, NULL, NULL, NULL);
	q = c ? clCreateCommandQueue(c, api.device, 0, NULL) : NULL;
	p = q ? cl_api_build(c, cl_api_small_source, "") : NULL;
	k = p ? clCreateKernel(p, "scale_add", NULL) : NULL;
	if (!k)
		return 1;
	r1 = batching_round(c, q, k, 1024, "small");
	r2 = batching_round(c, q, k, (1u << 19) + 256, "big");
	printf("ran %d %d\n", r1 ? -1 : 2, r2 ? -1 : 2);
	fflush(stdout);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clReleaseCommandQueue(q);
	clReleaseContext(c);
	return 0;
}

void cl_api_lifetime_tests(void)
{
	API_RUN(no_leaks);
	API_RUN(copy_stats_at_exit);
	API_RUN(debug_jobs_prints_chains);
	API_RUN(big_launches_get_chains_of_their_own);
}
