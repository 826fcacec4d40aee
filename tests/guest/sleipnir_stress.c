/* SPDX-License-Identifier: MIT */
/*
 * sleipnir_stress: many small submits from several processes at once through
 * sleipnir.ko's uapi (uapi/drm/sleipnir_drm.h, version 0.2), and two
 * processes ordering their jobs on a shared BO through implicit fencing.
 *
 * Usage: sleipnir_stress [-n SUBMITS] [-p PROCESSES] [-d DEPTH]
 *                        [-t parallel|prime] [NODE]
 *   -n  submits in all (default 10000), shared out among the processes
 *   -p  processes (default 4)
 *   -d  submits each process keeps in flight (default 16)
 *   -t  run only that test
 *   NODE defaults to the first render node driven by sleipnir.
 *
 * parallel_submits: each process opens its own file (so it has its own GPU
 * VM), creates its own BOs, maps them (the job BO at the same fixed GPU
 * address in every process, the data BO where the kernel picks) and submits
 * one single-job chain per SUBMIT: job i is a WRITE_VALUE into data slot i,
 * pre-filled with a pattern that names the process and i. Every fourth job
 * writes zero, the others the GPU's system timestamp. Each SUBMIT signals a
 * binary syncobj from a ring of DEPTH and point i+1 of a timeline syncobj;
 * before reusing a ring entry the process waits for it (with a timeout) and
 * reads its fence's status through a sync_file, so DEPTH submits stay in
 * flight. Even-numbered processes also list their BOs in the SUBMIT (the
 * data BO for writing), so their jobs are ordered by implicit fencing too;
 * odd ones rely on explicit syncobjs only. At the end each process checks,
 * through its CPU mappings, against values it computes itself:
 *   - every fence signalled without error, the timeline reached n;
 *   - every job header reads DONE;
 *   - zero jobs wrote 0; timestamp jobs wrote a value that is not the
 *     pattern, never decreases from one job to the next (jobs of one file on
 *     one slot run in submission order), and, when the GPU's timestamp runs
 *     at the CPU's counter frequency (TIMESTAMP_FREQUENCY == CNTFRQ_EL0, as
 *     on the board, where both count QEMU's virtual clock), lies between the
 *     CPU's CNTVCT_EL0 read before the SUBMIT and after its fence signalled;
 *   - slots past the last job and the guard after them kept their pattern
 *     (other processes' jobs, at the same GPU addresses in their own VMs,
 *     never reached this process's memory).
 * Submits per second are printed (informative, not asserted).
 *
 * prime_implicit_fence: process A creates a shared BO S and exports it as a
 * dma-buf, which it passes to process B over a unix socket (SCM_RIGHTS); B
 * imports it (BO_INFO must report A's size and flags) and maps it in its own
 * VM and for the CPU. A submits long chains of WRITE_VALUE timestamp jobs
 * (the first writes S[2], the last S[0]) naming S for writing, then tells
 * B, which at once submits one WRITE_VALUE timestamp job into S[1], also
 * naming S for writing, on another job slot (its requirements add COMPUTE,
 * which slot 0 lacks), so that without implicit fencing the model would run
 * it alongside A's chains. SLEIPNIR_BO_REF_WRITE makes B's job wait for A's:
 * once B's fence has signalled, A's last write must be visible in S
 * through B's mapping, and S[1] >= S[0]. A round counts as conclusive when
 * B's SUBMIT (CNTVCT_EL0 read just before it) came at least 10 ms before
 * A's last job ran, more than B's submit-to-run latency; otherwise it is
 * repeated with more work for A. (Without the WRITE reference B's job
 * indeed runs inside A's window and these checks fail: tried by hand.)
 *
 * Every wait has a timeout, so a lost interrupt fails instead of hanging.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>

#include "check.h"
#include "arm_counter.h"
#include "clock.h"
#include "sleipnir_fixture.h"

CHECK_MAIN_STATE("sleipnir_stress");

#define MAX_PROCS 16
#define MAX_DEPTH 256
/* How long the parent lets the workers run before it kills them. */
#define WORKER_DEADLINE_MS 400000u
/* Where every process maps its job BO (relative to VA_START, 16 MiB up). */
#define JOBS_VA_OFFSET 0x1000000ull

static struct {
	unsigned int total, procs, depth;
	const char *only;
	const char *node_arg;
} g_opt = { 10000, 4, 16, NULL, NULL };

static char g_node[64];
static struct sl_drm *g_dev;
static uint64_t g_va_start, g_va_end, g_timeout_max_ms, g_ts_hz;
static uint64_t g_cntfrq;

static uint64_t page_align(uint64_t v)
{
	return (v + 4095) & ~4095ull;
}

/* The value slot i of process p holds before its job runs. */
static uint64_t pattern(unsigned int p, unsigned int i)
{
	return 0x5a00000000000000ull | (uint64_t)p << 40 | (uint64_t)i;
}

/* Job i writes zero every fourth time, the system timestamp otherwise. */
static bool job_writes_zero(unsigned int i)
{
	return i % 4 == 3;
}

/* --- child processes ----------------------------------------------------- */

/*
 * Results a child leaves in shared memory. The child runs its part with the
 * CHECK macros (which print where they failed) and copies test_failed here.
 */
struct worker_result {
	volatile int ready;
	volatile int finished;
	int failed;
	unsigned int submitted, retired, in_flight, bad_fences, bad_values;
	unsigned int equal_ts;
	uint64_t t_end_ns;
	/* prime test */
	unsigned int rounds, conclusive;
	uint64_t chain_jobs;
};

static struct worker_result *shared_results(unsigned int n)
{
	void *p = mmap(NULL, n * sizeof(struct worker_result),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		       0);

	return p == MAP_FAILED ? NULL : p;
}

/* Forks a child that runs fn(idx, r, arg) and exits. Returns the pid. */
static pid_t spawn(void (*fn)(unsigned int, struct worker_result *, void *),
		   unsigned int idx, struct worker_result *r, void *arg)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid != 0)
		return pid;
	sl_drm_close(g_dev);
	g_dev = NULL;
	check_state.test_failed = 0;
	fn(idx, r, arg);
	r->failed = check_state.test_failed;
	r->finished = 1;
	fflush(stdout);
	_exit(0);
}

/*
 * Waits for the children (all of them, whatever happens) until deadline_ms;
 * kills the ones still running then. Returns how many did not exit cleanly.
 */
static unsigned int reap(pid_t *pids, unsigned int n, unsigned int deadline_ms)
{
	uint64_t end = now_ns() + (uint64_t)deadline_ms * 1000000ull;
	unsigned int left = 0, bad = 0;

	for (unsigned int i = 0; i < n; i++)
		left += pids[i] > 0;
	while (left) {
		for (unsigned int i = 0; i < n; i++) {
			int status;
			pid_t got;

			if (pids[i] <= 0)
				continue;
			got = waitpid(pids[i], &status, WNOHANG);
			if (got == 0)
				continue;
			if (got < 0 || !WIFEXITED(status) ||
			    WEXITSTATUS(status) != 0) {
				printf("  child %u (pid %d): %s %d\n", i,
				       (int)pids[i],
				       got < 0 ? "waitpid failed" :
				       WIFSIGNALED(status) ? "killed by signal" :
							     "exit status",
				       got < 0 ? errno :
				       WIFSIGNALED(status) ? WTERMSIG(status) :
							     WEXITSTATUS(status));
				bad++;
			}
			pids[i] = 0;
			left--;
		}
		if (!left)
			break;
		if (now_ns() > end) {
			for (unsigned int i = 0; i < n; i++) {
				if (pids[i] > 0) {
					printf("  child %u (pid %d) still "
					       "running after %u ms: killed\n",
					       i, (int)pids[i], deadline_ms);
					kill(pids[i], SIGKILL);
					waitpid(pids[i], NULL, 0);
					pids[i] = 0;
					bad++;
				}
			}
			break;
		}
		usleep(5000);
	}
	return bad;
}

/* Waits up to timeout_ms for fd to be readable (or at EOF). */
static bool wait_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		int left = (int)((int64_t)(end - now_ns()) / 1000000);
		int ret = poll(&p, 1, left > 0 ? left : 0);

		if (ret > 0)
			return true;
		if (ret == 0 || (ret < 0 && errno != EINTR))
			return false;
	}
}

/* --- tests ----------------------------------------------------------------- */

TEST(open_device)
{
	int major = 0, minor = 0;
	uint64_t caps = 0;
	const uint64_t need = SLEIPNIR_CAP_BO | SLEIPNIR_CAP_PRIME |
			      SLEIPNIR_CAP_VM_MAP | SLEIPNIR_CAP_SUBMIT;

	g_dev = device_open(g_opt.node_arg);
	REQUIRE(g_dev != NULL);
	snprintf(g_node, sizeof(g_node), "%s", sl_drm_node(g_dev));
	REQUIRE(device_version(g_dev, &major, &minor));
	printf("  using %s: sleipnir %d.%d\n", g_node, major, minor);
	/* Version 0.2 brought BOs, the VM and SUBMIT (see the header). */
	CHECK(major > 0 || minor >= 2);
	CHECK_ERRNO(sl_drm_get_param(g_dev, SLEIPNIR_PARAM_DRIVER_CAPS, &caps),
		    0);
	CHECK_EQ(caps & need, need);
	CHECK_ERRNO(sl_drm_get_param(g_dev, SLEIPNIR_PARAM_VA_START,
				     &g_va_start),
		    0);
	CHECK_ERRNO(sl_drm_get_param(g_dev, SLEIPNIR_PARAM_VA_END, &g_va_end),
		    0);
	if (sl_drm_get_param(g_dev, SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS,
			 &g_timeout_max_ms))
		g_timeout_max_ms = 0;
	if (sl_drm_get_param(g_dev, SLEIPNIR_PARAM_TIMESTAMP_FREQUENCY,
			     &g_ts_hz))
		g_ts_hz = 0;
	g_cntfrq = cntfrq();
	printf("  VA [%#llx, %#llx), job timeout max %llu ms, GPU timestamp "
	       "%llu Hz, CPU counter %llu Hz\n",
	       (unsigned long long)g_va_start, (unsigned long long)g_va_end,
	       (unsigned long long)g_timeout_max_ms,
	       (unsigned long long)g_ts_hz, (unsigned long long)g_cntfrq);
	CHECK(g_va_start < g_va_end);
	CHECK(g_ts_hz != 0);
	if (check_state.test_failed) {
		sl_drm_close(g_dev);
		g_dev = NULL;
	}
}

#define NEED_DEVICE()                                                          \
	do {                                                                   \
		if (!g_dev)                                                    \
			SKIP("no usable sleipnir 0.2 device");                 \
	} while (0)

/* --- parallel_submits ---------------------------------------------------- */

struct worker_arg {
	unsigned int n;    /* submits of this worker */
	int go_fd;         /* readable (EOF) when the parent says go */
	int go_wr;         /* the pipe's write end, which the child closes */
};

/* Waits for ring entry j's fence and checks it signalled without error. */
static bool retire(struct sl_drm *dev, uint32_t *sync, unsigned int j,
		   struct worker_result *r, uint64_t *c1, unsigned int p)
{
	int err, status = 0;

	if (sl_syncobj_wait(dev, sync, 1, true, 0) == -ETIME)
		r->in_flight++;
	err = sl_syncobj_wait(dev, sync, 1, true, SL_WAIT_TIMEOUT_MS);
	c1[j] = cntvct();
	if (err) {
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "[p%u] submit %u: fence wait: %s", p, j,
			      strerror(-err));
		return false;
	}
	err = sl_syncobj_status(dev, *sync, &status);
	if (err || status != 1) {
		if (r->bad_fences++ < 5)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "[p%u] submit %u: fence %s", p, j,
				      err ? strerror(-err) :
					    fence_status_name(status));
	}
	r->retired++;
	return true;
}

static void verify_worker(unsigned int p, struct worker_result *r,
			  const struct sl_bo *jobs, const struct sl_bo *data,
			  unsigned int n, const uint64_t *c0,
			  const uint64_t *c1)
{
	bool bounds = g_ts_hz && g_ts_hz == g_cntfrq;
	uint64_t prev_ts = 0;
	bool have_prev = false;

	for (unsigned int i = 0; i < r->submitted; i++) {
		uint32_t st = mali_job_exception_status(bo_cpu(jobs, 64 * i));
		uint64_t v = le_get64(bo_cpu(data, 8 * i));
		const char *why = NULL;

		if (st != MDG_EXCEPTION_DONE)
			why = "job header does not read DONE";
		else if (job_writes_zero(i) && v != 0)
			why = "zero job did not write 0";
		else if (!job_writes_zero(i)) {
			if (v == pattern(p, i) || v == 0)
				why = "timestamp job did not write";
			else if (have_prev && v < prev_ts)
				why = "timestamp older than the previous job's";
			else if (bounds && (v < c0[i] || v > c1[i]))
				why = "timestamp outside the CPU counter window";
			if (have_prev && v == prev_ts)
				r->equal_ts++;
			prev_ts = v;
			have_prev = true;
		}
		if (why && r->bad_values++ < 5)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "[p%u] job %u: %s: header %#x, value "
				      "%#llx (pattern %#llx, CPU counter "
				      "[%#llx, %#llx])",
				      p, i, why, st, (unsigned long long)v,
				      (unsigned long long)pattern(p, i),
				      (unsigned long long)c0[i],
				      (unsigned long long)c1[i]);
	}
	for (unsigned int i = r->submitted; i < n; i++) {
		if (le_get64(bo_cpu(data, 8 * i)) != pattern(p, i) &&
		    r->bad_values++ < 5)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "[p%u] slot %u (never submitted) "
				      "changed", p, i);
	}
	if (le_get64(bo_cpu(data, 8 * n)) != GUARD64 && r->bad_values++ < 5)
		CHECK_FAIL_AT(__FILE__, __LINE__, "[p%u] guard changed: %#llx",
			      p, (unsigned long long)le_get64(bo_cpu(data,
								     8 * n)));
}

static void worker(unsigned int p, struct worker_result *r, void *varg)
{
	const struct worker_arg *arg = varg;
	const unsigned int n = arg->n, depth = g_opt.depth;
	struct drm_sleipnir_bo_ref refs[2];
	struct drm_sleipnir_sync_op out[2];
	uint32_t sync[MAX_DEPTH] = { 0 }, timeline = 0;
	struct sl_bo *jobs = NULL, *data = NULL;
	struct sl_submit a;
	uint64_t *c0 = NULL, *c1 = NULL, point = 0;
	struct sl_drm *dev;
	bool broken = false;
	int err;

	close(arg->go_wr); /* only the parent may hold it, or EOF never comes */
	dev = device_open(g_node);
	REQUIRE(dev != NULL);
	c0 = calloc(n + 1, sizeof(*c0));
	c1 = calloc(n + 1, sizeof(*c1));
	if (!c0 || !c1)
		goto out;
	if (bo_new(dev, page_align((uint64_t)n * 64), 0, 0,
		   g_va_start + JOBS_VA_OFFSET, &jobs) ||
	    bo_new(dev, page_align(8ull * (n + 1)), SLEIPNIR_BO_GPU_NOEXEC,
		   SLEIPNIR_VM_MAP_NOEXEC, 0, &data)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "[p%u] BO set-up failed", p);
		goto out;
	}
	if (p == 0)
		printf("  job BOs at GPU %#llx, data BO at GPU %#llx (p0)\n",
		       (unsigned long long)jobs->va,
		       (unsigned long long)data->va);
	for (unsigned int i = 0; i < n; i++) {
		bo_put64(data, 8 * i, pattern(p, i));
		mali_pack_write_value_job(bo_cpu(jobs, 64 * i), 1, 0, 0, 0,
					  bo_gpu(data, 8 * i),
					  job_writes_zero(i) ?
						  MDG_WRITE_VALUE_TYPE_ZERO :
						  MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP);
	}
	bo_put64(data, 8 * n, GUARD64);
	for (unsigned int i = 0; i < depth; i++) {
		sync[i] = syncobj_new(dev, false);
		if (!sync[i]) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "[p%u] syncobjs", p);
			goto out;
		}
	}
	timeline = syncobj_new(dev, false);
	if (!timeline)
		goto out;

	refs[0] = (struct drm_sleipnir_bo_ref){ .handle = jobs->handle };
	refs[1] = (struct drm_sleipnir_bo_ref){ .handle = data->handle,
						.flags = SLEIPNIR_BO_REF_WRITE };
	memset(&a, 0, sizeof(a));
	a.bos = p % 2 == 0 ? refs : NULL;
	a.num_bos = p % 2 == 0 ? 2 : 0;
	a.out_syncs = out;
	a.num_out_syncs = 2;
	a.requirements = SLEIPNIR_REQ_WRITE_VALUE;

	/* Set up: tell the parent, wait for everyone to be. */
	r->ready = 1;
	if (!wait_readable(arg->go_fd, 60000)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "[p%u] no go from parent", p);
		goto out;
	}

	for (unsigned int i = 0; i < n && !broken; i++) {
		unsigned int slot = i % depth;

		if (i >= depth &&
		    !retire(dev, &sync[slot], i - depth, r, c1, p))
			broken = true;
		if (broken)
			break;
		out[0] = (struct drm_sleipnir_sync_op){ .handle = sync[slot] };
		out[1] = (struct drm_sleipnir_sync_op){
			.handle = timeline,
			.flags = SLEIPNIR_SYNC_OP_TIMELINE,
			.point = i + 1,
		};
		a.jc = bo_gpu(jobs, 64ull * i);
		c0[i] = cntvct();
		err = sl_submit(dev, &a);
		if (err) {
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "[p%u] SUBMIT %u: %s", p, i,
				      strerror(-err));
			broken = true;
			break;
		}
		r->submitted++;
	}
	/* Drain what is still in flight. */
	for (unsigned int j = r->submitted > depth ? r->submitted - depth : 0;
	     j < r->submitted; j++) {
		if (!retire(dev, &sync[j % depth], j, r, c1, p))
			break;
	}
	r->t_end_ns = now_ns();
	CHECK_EQ(r->retired, r->submitted);
	CHECK_EQ(r->submitted, n);

	if (r->submitted) {
		/* The timeline reached the last submit's point. */
		uint64_t want = r->submitted;

		err = sl_syncobj_timeline_wait(dev, timeline, want,
					       SL_WAIT_TIMEOUT_MS);
		CHECK_ERRNO(err, 0);
		/* libdrm's query answers -1 with errno set. */
		err = drmSyncobjQuery(sl_drm_fd(dev), &timeline, &point, 1) ?
			      -errno : 0;
		CHECK_ERRNO(err, 0);
		CHECK_EQ(point, r->submitted);
	}
	if (p % 2 == 0) {
		/* Implicitly fenced: the data BO is idle once the fences are. */
		CHECK_ERRNO(sl_bo_wait(data, 0), 0);
	}
	verify_worker(p, r, jobs, data, n, c0, c1);

out:
	for (unsigned int i = 0; i < depth; i++)
		sl_syncobj_destroy(dev, sync[i]);
	sl_syncobj_destroy(dev, timeline);
	bo_free(&jobs);
	bo_free(&data);
	free(c0);
	free(c1);
	sl_drm_close(dev);
	if (!r->t_end_ns)
		r->t_end_ns = now_ns();
}

TEST(parallel_submits)
{
	const unsigned int procs = g_opt.procs;
	struct worker_result *res;
	struct worker_arg args[MAX_PROCS];
	pid_t pids[MAX_PROCS] = { 0 };
	unsigned int total = 0, bad, bounds = g_ts_hz && g_ts_hz == g_cntfrq;
	uint64_t t0, t_end = 0;
	int go[2];

	NEED_DEVICE();
	res = shared_results(procs);
	REQUIRE(res != NULL);
	REQUIRE(pipe(go) == 0);
	printf("  %u submits from %u processes, %u in flight each, %s\n",
	       g_opt.total, procs, g_opt.depth,
	       bounds ? "timestamps checked against CNTVCT_EL0" :
			"timestamp frequency differs from CNTFRQ_EL0: "
			"window check left out");
	for (unsigned int p = 0; p < procs; p++) {
		args[p].n = g_opt.total / procs +
			    (p < g_opt.total % procs ? 1 : 0);
		args[p].go_fd = go[0];
		args[p].go_wr = go[1];
		pids[p] = spawn(worker, p, &res[p], &args[p]);
		if (pids[p] < 0)
			CHECK_FAIL_AT(__FILE__, __LINE__, "fork: %s",
				      strerror(errno));
	}
	close(go[0]);
	/* Wait until every worker has set up, then release them together. */
	{
		uint64_t end = now_ns() + 60000000000ull;
		unsigned int ready;

		do {
			ready = 0;
			for (unsigned int p = 0; p < procs; p++)
				ready += res[p].ready || res[p].finished ||
					 pids[p] <= 0;
			if (ready < procs)
				usleep(2000);
		} while (ready < procs && now_ns() < end);
	}
	t0 = now_ns();
	close(go[1]);
	bad = reap(pids, procs, WORKER_DEADLINE_MS);
	CHECK_EQ(bad, 0);

	for (unsigned int p = 0; p < procs; p++) {
		struct worker_result *r = &res[p];

		printf("  p%u: %u/%u submitted, %u retired (%u still in flight "
		       "when retired), %u bad fences, %u bad values, %u equal "
		       "adjacent timestamps%s\n",
		       p, r->submitted, args[p].n, r->retired, r->in_flight,
		       r->bad_fences, r->bad_values, r->equal_ts,
		       r->failed ? " - FAILED" : "");
		CHECK(r->finished);
		CHECK(!r->failed);
		total += r->submitted;
		if (r->t_end_ns > t_end)
			t_end = r->t_end_ns;
	}
	CHECK_EQ(total, g_opt.total);
	if (t_end > t0) {
		double secs = (double)(t_end - t0) / 1e9;

		printf("  %u submits in %.2f s: %.0f submits/s\n", total, secs,
		       total / secs);
	}
	munmap(res, procs * sizeof(*res));
}

/* --- prime_implicit_fence ------------------------------------------------ */

enum msg_type { MSG_BO = 1, MSG_ROUND, MSG_READY, MSG_GO, MSG_DONE,
		MSG_STOP };

struct msg {
	uint32_t type;
	uint32_t round;
	uint64_t v[4];
};

static bool send_msg(int sock, const struct msg *m, int pass_fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = (void *)m, .iov_len = sizeof(*m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (pass_fd >= 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
	}
	return sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)sizeof(*m);
}

/* Receives one message of the given type (any type when want is 0), with a
 * timeout; *fd_out gets a passed descriptor or -1. */
static bool recv_msg(int sock, struct msg *m, uint32_t want, int *fd_out)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	ssize_t got;

	if (fd_out)
		*fd_out = -1;
	if (!wait_readable(sock, 60000)) {
		printf("  no message %u within 60 s\n", want);
		return false;
	}
	got = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	if (got != (ssize_t)sizeof(*m)) {
		printf("  recvmsg: %zd (%s)\n", got,
		       got < 0 ? strerror(errno) : "short or EOF");
		return false;
	}
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c;
	     c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int fd;

			memcpy(&fd, CMSG_DATA(c), sizeof(int));
			if (fd_out && *fd_out < 0)
				*fd_out = fd;
			else
				close(fd);
		}
	}
	if (want && m->type != want) {
		printf("  got message %u, expected %u\n", m->type, want);
		return false;
	}
	return true;
}

/*
 * Rounds, until one is conclusive: A submits one chain of `jobs` jobs, then
 * `repeat` more of them, every SUBMIT naming S for writing (so S stays busy
 * until the last has run).
 */
static const struct {
	unsigned int jobs, repeat;
} prime_rounds[] = { { 16384, 0 }, { 65535, 0 }, { 65535, 3 }, { 65535, 15 } };
#define PRIME_ROUNDS (sizeof(prime_rounds) / sizeof(prime_rounds[0]))
/* Shared BO slots: A's last job, B's job, A's first job, A's other jobs. */
#define S_A_END 0
#define S_B 8
#define S_A_START 16
#define S_A_OTHER 24
/*
 * A round is conclusive when B's SUBMIT came at least this long (in ms of
 * the shared system counter) before A's last job ran: without the implicit
 * fence B's job, on another slot, would have run inside A's busy window
 * (B's SUBMIT-to-run latency on the board is a few ms).
 */
#define PRIME_MARGIN_MS 10

static uint32_t chain_timeout_ms(void)
{
	if (!g_timeout_max_ms || g_timeout_max_ms > 20000)
		return 20000;
	return (uint32_t)g_timeout_max_ms;
}

/* The GPU's timestamp and CNTVCT_EL0 count the same clock (see top). */
static bool same_clock(void)
{
	return g_ts_hz && g_ts_hz == g_cntfrq;
}

/* Writes a chain of n timestamp jobs into c; job 0 writes first_slot of S,
 * the others other_slot. */
static void pack_chain(struct sl_bo *c, unsigned int n, uint64_t s_va,
		       uint32_t first_slot, uint32_t other_slot)
{
	for (unsigned int k = 0; k < n; k++)
		mali_pack_write_value_job(
			bo_cpu(c, 64ull * k), (uint16_t)(k + 1), 0, 0,
			k + 1 < n ? bo_gpu(c, 64ull * (k + 1)) : 0,
			s_va + (k == 0 ? first_slot : other_slot),
			MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP);
}

/* Process A: exports S, runs long chains on it. */
static void prime_exporter(unsigned int idx, struct worker_result *r,
			   void *varg)
{
	int sock = *(int *)varg, dmabuf = -1, err, status = 0;
	struct sl_bo *s = NULL;
	struct sl_drm *dev;
	uint32_t sync = 0;
	struct msg m;

	(void)idx;
	dev = device_open(g_node);
	REQUIRE(dev != NULL);
	if (bo_new(dev, 4096, SLEIPNIR_BO_GPU_NOEXEC, SLEIPNIR_VM_MAP_NOEXEC,
		   0, &s))
		goto out;
	sync = syncobj_new(dev, false);
	if (!sync)
		goto out;
	err = sl_bo_export(s, DRM_CLOEXEC | DRM_RDWR, &dmabuf);
	CHECK_ERRNO(err, 0);
	if (err)
		goto out;
	memset(&m, 0, sizeof(m));
	m.type = MSG_BO;
	m.v[0] = s->size;
	if (!send_msg(sock, &m, dmabuf)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "[A] sending the dma-buf");
		goto out;
	}
	close(dmabuf);

	for (unsigned int round = 0; round < PRIME_ROUNDS; round++) {
		const unsigned int n = prime_rounds[round].jobs;
		const unsigned int repeat = prime_rounds[round].repeat;
		struct drm_sleipnir_bo_ref refs[2];
		struct drm_sleipnir_sync_op out = { .handle = sync };
		struct sl_submit a;
		struct sl_bo *c1 = NULL, *c2 = NULL;
		uint64_t end_ts, start_ts, b_ts, b_cnt, t0;
		bool conclusive;

		if (bo_new(dev, page_align(64ull * n), 0, 0, 0, &c1) ||
		    (repeat &&
		     bo_new(dev, page_align(64ull * n), 0, 0, 0, &c2))) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "[A] chain BOs");
			bo_free(&c1);
			break;
		}
		/* The first chain's first job marks the start; the last job
		 * of the last chain the end. */
		pack_chain(c1, n, s->va, S_A_START,
			   repeat ? S_A_OTHER : S_A_END);
		if (repeat)
			pack_chain(c2, n, s->va, S_A_END, S_A_END);
		bo_put64(s, S_A_END, FILL64);
		bo_put64(s, S_B, FILL64);
		bo_put64(s, S_A_START, FILL64);

		memset(&m, 0, sizeof(m));
		m.type = MSG_ROUND;
		m.round = round;
		if (!send_msg(sock, &m, -1) ||
		    !recv_msg(sock, &m, MSG_READY, NULL)) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "[A] round %u: "
				      "handshake", round);
			bo_free(&c1);
			bo_free(&c2);
			break;
		}
		refs[0] = (struct drm_sleipnir_bo_ref){ .handle = c1->handle };
		refs[1] = (struct drm_sleipnir_bo_ref){
			.handle = s->handle, .flags = SLEIPNIR_BO_REF_WRITE };
		memset(&a, 0, sizeof(a));
		a.jc = c1->va;
		a.bos = refs;
		a.num_bos = 2;
		a.out_syncs = &out;
		a.num_out_syncs = 1;
		a.requirements = SLEIPNIR_REQ_WRITE_VALUE;
		a.timeout_ms = chain_timeout_ms();
		t0 = now_ns();
		err = sl_submit(dev, &a);
		CHECK_ERRNO(err, 0);
		for (unsigned int i = 0; i < repeat && !err; i++) {
			refs[0].handle = c2->handle;
			a.jc = c2->va;
			err = sl_submit(dev, &a);
			CHECK_ERRNO(err, 0);
		}
		memset(&m, 0, sizeof(m));
		m.type = err ? MSG_STOP : MSG_GO;
		m.round = round;
		send_msg(sock, &m, -1);
		if (err) {
			bo_free(&c1);
			bo_free(&c2);
			break;
		}
		/* The out-sync holds the last chain's fence. */
		err = sl_syncobj_wait(dev, &sync, 1, true, 60000);
		CHECK_ERRNO(err, 0);
		if (!err) {
			CHECK_ERRNO(sl_syncobj_status(dev, sync, &status), 0);
			if (status != 1)
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "[A] chain fence %s",
					      fence_status_name(status));
		}
		if (!recv_msg(sock, &m, MSG_DONE, NULL)) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "[A] no DONE");
			bo_free(&c1);
			bo_free(&c2);
			break;
		}
		/* Both sides are done: what A sees through its own mapping. */
		end_ts = bo_get64(s, S_A_END);
		start_ts = bo_get64(s, S_A_START);
		b_ts = bo_get64(s, S_B);
		b_cnt = m.v[1];
		CHECK(end_ts != FILL64);
		CHECK(start_ts != FILL64);
		CHECK(b_ts != FILL64);
		CHECK(start_ts <= end_ts);
		CHECK(b_ts >= end_ts);
		CHECK_EQ(mali_job_exception_status(
				 bo_cpu(repeat ? c2 : c1, 64ull * (n - 1))),
			 MDG_EXCEPTION_DONE);
		if (same_clock())
			conclusive = end_ts > b_cnt &&
				     end_ts - b_cnt >=
					     g_ts_hz * PRIME_MARGIN_MS / 1000;
		else
			conclusive = m.v[0]; /* B found S busy */
		printf("  [A] round %u: %u x %u jobs on S ran %.1f ms of GPU "
		       "time (%llu ms wall); B submitted %.1f ms before A's "
		       "last job and ran %.1f ms after it: %s\n",
		       round, repeat + 1, n,
		       g_ts_hz ? (double)(end_ts - start_ts) * 1e3 / g_ts_hz : 0,
		       (unsigned long long)((now_ns() - t0) / 1000000),
		       g_ts_hz ? ((double)end_ts - (double)b_cnt) * 1e3 / g_ts_hz : 0,
		       g_ts_hz ? ((double)b_ts - (double)end_ts) * 1e3 / g_ts_hz : 0,
		       conclusive ? "conclusive" : "not conclusive");
		r->rounds++;
		r->chain_jobs = (uint64_t)n * (repeat + 1);
		bo_free(&c1);
		bo_free(&c2);
		if (conclusive) {
			r->conclusive = 1;
			break;
		}
	}
	memset(&m, 0, sizeof(m));
	m.type = MSG_STOP;
	send_msg(sock, &m, -1);
out:
	sl_syncobj_destroy(dev, sync);
	bo_free(&s);
	sl_drm_close(dev);
}

/* Process B: imports S, runs one short job on it per round. */
static void prime_importer(unsigned int idx, struct worker_result *r,
			   void *varg)
{
	int sock = *(int *)varg, dmabuf = -1, err, status = 0;
	struct sl_bo *j = NULL, *s = NULL;
	struct sl_drm *dev;
	uint32_t sync = 0;
	uint64_t s_size = 0;
	void *s_map;
	struct msg m;

	(void)idx;
	dev = device_open(g_node);
	REQUIRE(dev != NULL);
	if (!recv_msg(sock, &m, MSG_BO, &dmabuf) || dmabuf < 0) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "[B] no dma-buf");
		goto out;
	}
	s_size = m.v[0];
	/* The import reads the BO's size and flags with BO_INFO. */
	err = sl_bo_import(dev, dmabuf, &s);
	close(dmabuf);
	CHECK_ERRNO(err, 0);
	if (err)
		goto out;
	CHECK_EQ(s->size, s_size);
	CHECK_EQ(s->flags & SLEIPNIR_BO_GPU_NOEXEC, SLEIPNIR_BO_GPU_NOEXEC);
	if (sl_vm_map(s, 0, SLEIPNIR_VM_MAP_NOEXEC) || sl_bo_mmap(s, &s_map)) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "[B] mapping the import");
		goto out;
	}
	if (bo_new(dev, 4096, 0, 0, 0, &j))
		goto out;
	sync = syncobj_new(dev, false);
	if (!sync)
		goto out;

	for (;;) {
		struct drm_sleipnir_bo_ref refs[2];
		struct drm_sleipnir_sync_op out = { .handle = sync };
		struct sl_submit a;
		uint64_t end_ts, b_ts, b_cnt;
		int busy;

		if (!recv_msg(sock, &m, 0, NULL) || m.type == MSG_STOP)
			break; /* A is done, or went away */
		if (m.type != MSG_ROUND) {
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "[B] unexpected message %u", m.type);
			break;
		}
		mali_pack_write_value_job(bo_cpu(j, 0), 1, 0, 0, 0,
					  bo_gpu(s, S_B),
					  MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP);
		refs[0] = (struct drm_sleipnir_bo_ref){ .handle = j->handle };
		refs[1] = (struct drm_sleipnir_bo_ref){
			.handle = s->handle, .flags = SLEIPNIR_BO_REF_WRITE };
		memset(&a, 0, sizeof(a));
		a.jc = j->va;
		a.bos = refs;
		a.num_bos = 2;
		a.out_syncs = &out;
		a.num_out_syncs = 1;
		/*
		 * COMPUTE keeps the job off slot 0 (JS_FEATURES0 has no
		 * compute), where A's chain runs; the model runs slots side
		 * by side, so only the fence can hold this job back.
		 */
		a.requirements = SLEIPNIR_REQ_WRITE_VALUE | SLEIPNIR_REQ_COMPUTE;
		memset(&m, 0, sizeof(m));
		m.type = MSG_READY;
		if (!send_msg(sock, &m, -1) || !recv_msg(sock, &m, MSG_GO, NULL))
			break;
		/* Is A's chain still running? (timeout 0: only polls) */
		busy = sl_bo_wait(s, 0) == -ETIMEDOUT;
		b_cnt = cntvct();
		err = sl_submit(dev, &a);
		CHECK_ERRNO(err, 0);
		if (!err) {
			err = sl_syncobj_wait(dev, &sync, 1, true, 60000);
			CHECK_ERRNO(err, 0);
			if (!err) {
				CHECK_ERRNO(sl_syncobj_status(dev, sync,
							      &status),
					    0);
				if (status != 1)
					CHECK_FAIL_AT(__FILE__, __LINE__,
						      "[B] fence %s",
						      fence_status_name(
							      status));
			}
			/* B's job is done, so A's chains must be too. */
			end_ts = bo_get64(s, S_A_END);
			b_ts = bo_get64(s, S_B);
			CHECK(end_ts != FILL64);
			CHECK(b_ts != FILL64);
			CHECK(b_ts >= end_ts);
			CHECK_EQ(mali_job_exception_status(bo_cpu(j, 0)),
				 MDG_EXCEPTION_DONE);
			printf("  [B] round %u: S %s at SUBMIT\n", m.round,
			       busy ? "busy" : "already idle");
		}
		memset(&m, 0, sizeof(m));
		m.type = MSG_DONE;
		m.v[0] = (uint64_t)busy;
		m.v[1] = b_cnt;
		if (!send_msg(sock, &m, -1))
			break;
		r->rounds++;
		if (err)
			break;
	}
out:
	sl_syncobj_destroy(dev, sync);
	bo_free(&j);
	bo_free(&s);
	sl_drm_close(dev);
}

TEST(prime_implicit_fence)
{
	struct worker_result *res;
	pid_t pids[2];
	int sv[2];

	NEED_DEVICE();
	res = shared_results(2);
	REQUIRE(res != NULL);
	REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	pids[0] = spawn(prime_exporter, 0, &res[0], &sv[0]);
	pids[1] = spawn(prime_importer, 1, &res[1], &sv[1]);
	close(sv[0]);
	close(sv[1]);
	CHECK_EQ(reap(pids, 2, 300000), 0);
	CHECK(res[0].finished && !res[0].failed);
	CHECK(res[1].finished && !res[1].failed);
	CHECK(res[0].rounds >= 1);
	CHECK_EQ(res[0].rounds, res[1].rounds);
	if (res[0].conclusive)
		printf("  conclusive after %u round(s): B's job was submitted "
		       "while A's %llu jobs held S, and waited for them\n",
		       res[0].rounds, (unsigned long long)res[0].chain_jobs);
	else
		printf("  note: no round had B submit %d ms before A's last "
		       "job; ordering held but was not put to the test\n",
		       PRIME_MARGIN_MS);
	munmap(res, 2 * sizeof(*res));
}

static void usage(void)
{
	fprintf(stderr, "usage: sleipnir_stress [-n SUBMITS] [-p PROCESSES] "
			"[-d DEPTH] [-t parallel|prime] [NODE]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt(argc, argv, "n:p:d:t:h")) != -1) {
		switch (c) {
		case 'n':
			g_opt.total = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'p':
			g_opt.procs = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'd':
			g_opt.depth = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 't':
			g_opt.only = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind < argc)
		g_opt.node_arg = argv[optind++];
	if (optind < argc || !g_opt.total || !g_opt.procs ||
	    g_opt.procs > MAX_PROCS || !g_opt.depth ||
	    g_opt.depth > MAX_DEPTH || g_opt.total < g_opt.procs)
		usage();

	RUN(open_device);
	if (!g_opt.only || strcmp(g_opt.only, "parallel") == 0)
		RUN(parallel_submits);
	if (!g_opt.only || strcmp(g_opt.only, "prime") == 0)
		RUN(prime_implicit_fence);
	sl_drm_close(g_dev);
	return check_summary();
}
