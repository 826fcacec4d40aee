/* SPDX-License-Identifier: MIT */
/*
 * Object lifetimes: the "retain/release everywhere with no leaks".
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
	unsigned char *bin;
	const unsigned char *bins[1];
	int files_before, files_after, failed = 0;
	long rss_before, rss_after;

	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_BINARY_SIZES,
				   sizeof(size), &size, NULL),
		  CL_SUCCESS);
	REQUIRE(size);
	bin = malloc(size);
	REQUIRE(bin);
	bins[0] = bin;
	CHECK_ERR(clGetProgramInfo(api.prog, CL_PROGRAM_BINARIES, sizeof(bins),
				   bins, NULL),
		  CL_SUCCESS);
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
TEST(copy_stats_at_exit)
{
	int out[2], errp[2];
	char so[256] = "", se[1024] = "";
	ssize_t n;
	pid_t pid;
	int status = 0;
	unsigned long long figure = 0;
	char want[32];

	REQUIRE(pipe(out) == 0 && pipe(errp) == 0);
	fflush(stdout);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(errp[1], 2);
		close(out[0]);
		close(errp[0]);
		setenv("SLEIPNIR_CL_COPY_STATS", "1", 1);
		execl("/proc/self/exe", "cl_api_test", "copy-stats",
		      (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	close(errp[1]);
	n = read(out[0], so, sizeof(so) - 1);
	so[n > 0 ? n : 0] = 0;
	n = 0;
	for (ssize_t r; (r = read(errp[0], se + n, sizeof(se) - 1 - n)) > 0;)
		n += r;
	se[n] = 0;
	close(out[0]);
	close(errp[0]);
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
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

void cl_api_lifetime_tests(void)
{
	API_RUN(no_leaks);
	API_RUN(copy_stats_at_exit);
}
