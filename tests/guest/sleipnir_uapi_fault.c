/* SPDX-License-Identifier: MIT */
/*
 * sleipnir_uapi: what happens when jobs go wrong. An MMU fault marks only
 * its own file faulted (SUBMIT -ECANCELED, queued jobs cancelled) until
 * GET_FAULT with CLEAR, while another process keeps running jobs; hanging
 * jobs (the model's test-hang WRITE_VALUE type, SLEIPNIR_TEST_HANG=1) are
 * stopped after their own timeout, the default one or the clamped maximum,
 * without hurting other files; closing a file with busy jobs leaves the
 * device working.
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sleipnir_uapi.h"

/* Slack on job timeouts: jiffies rounding below, a slow TCG guest above. */
#define TIMEOUT_EARLY_MS 10u
#define TIMEOUT_LATE_MS 3000u
/* Longest timeout a test waits out in full. */
#define MAX_FULL_WAIT_MS 12000u
/* The clamp test waits out JOB_TIMEOUT_MAX_MS up to this. */
#define MAX_CLAMP_WAIT_MS 65000u

/* --- a second process running good jobs ---------------------------------- */

struct helper {
	pid_t pid;
	int stop_wr; /* parent writes here to stop it */
};

/*
 * The child: its own file, good jobs on both slots back to back until told
 * to stop, then three more. Exit status 0 when every job was good.
 */
static int helper_main(int ready_wr, int stop_rd)
{
	uint64_t t0 = now_ns();
	unsigned int jobs = 0, after = 0;
	bool stopping = false;
	int fd = reopen();

	if (fd < 0)
		return 10;
	for (;;) {
		struct pollfd p = { .fd = stop_rd, .events = POLLIN };

		if (!check_good_job(fd, (jobs & 1) ? REQ_SLOT1 : REQ_SLOT0,
				    NULL)) {
			printf("  helper process: job %u failed\n", jobs);
			return 11;
		}
		if (++jobs == 1 && write(ready_wr, "r", 1) != 1)
			return 12;
		if (!stopping && poll(&p, 1, 0) > 0)
			stopping = true;
		if (stopping && ++after >= 3)
			break;
		if (ms_since(t0) > 120000) {
			printf("  helper process: never told to stop\n");
			return 13;
		}
	}
	printf("  helper process: %u good jobs\n", jobs);
	close(fd);
	return 0;
}

static bool helper_start(struct helper *h)
{
	int ready[2], stop[2];
	struct pollfd p;
	char c;

	h->pid = -1;
	if (pipe(ready) || pipe(stop))
		return false;
	fflush(stdout);
	h->pid = fork();
	if (h->pid == 0) {
		close(ready[0]);
		close(stop[1]);
		_exit(helper_main(ready[1], stop[0]));
	}
	close(ready[1]);
	close(stop[0]);
	h->stop_wr = stop[1];
	if (h->pid < 0) {
		close(ready[0]);
		close(stop[1]);
		return false;
	}
	/* Wait for its first good job. */
	p.fd = ready[0];
	p.events = POLLIN;
	p.revents = 0;
	if (poll(&p, 1, (int)WAIT_MS) <= 0 || read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		printf("  helper process did not get a job done\n");
		return false;
	}
	close(ready[0]);
	return true;
}

/* Stops the helper; returns its exit status, or -1. */
static int helper_stop(struct helper *h)
{
	uint64_t t0 = now_ns();
	int status = 0;

	if (h->pid <= 0)
		return -1;
	if (write(h->stop_wr, "s", 1) != 1)
		printf("  could not signal the helper process\n");
	close(h->stop_wr);
	while (waitpid(h->pid, &status, WNOHANG) == 0) {
		if (ms_since(t0) > 30000) {
			printf("  helper process stuck: killing it\n");
			kill(h->pid, SIGKILL);
			waitpid(h->pid, &status, 0);
			return -1;
		}
		usleep(10000);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* --- MMU fault, cancellation and recovery -------------------------------- */

/*
 * File F runs a chain whose first job writes an unmapped address (its
 * second job depends on the first), and queues a good chain right behind
 * it on the same slot. Expected:
 *  - the chain's fence fails with -EFAULT, its dependent job never runs;
 *  - GET_FAULT: one MMU fault, WRITE at that exact address, the chain's jc;
 *  - the queued chain was cancelled (-ECANCELED, did not run), or, if F
 *    was already faulted when it was submitted, its SUBMIT said ECANCELED;
 *  - SUBMIT on F fails with ECANCELED and changes nothing, also after a
 *    GET_FAULT without CLEAR; other files submit as usual;
 *  - after GET_FAULT with CLEAR, F runs good jobs again.
 * Meanwhile a second process runs good jobs on its own file throughout.
 */
TEST(fault_cancel_recover)
{
	struct drm_sleipnir_get_fault f;
	struct helper helper;
	struct sbo jobs, q;
	uint32_t s1, s2, s3;
	uint64_t unmapped;
	int fd, err, err_q, st;

	NEED_DEVICE();
	REQUIRE(g_params_ok);
	/* Mid-way through the VA range: AUTO_VA never gets there. */
	unmapped = ((PARAM(VA_START) + PARAM(VA_END)) / 2 & ~0xfffull) + 0x40;
	fd = reopen();
	REQUIRE(fd >= 0);
	if (sbo_new(fd, 4096, 0, 0, &jobs)) {
		close(fd);
		REQUIRE(!"BO");
	}
	if (sbo_new(fd, 4096, 0, 0, &q)) {
		sbo_free(&jobs);
		close(fd);
		REQUIRE(!"BO");
	}
	sbo_put64(&jobs, 0x800, FILL64);
	mali_pack_write_value_job(sbo_cpu(&jobs, 0), 1, 0, 0, jobs.va + 64,
				  unmapped, MALI_WRITE_VALUE_ZERO);
	mali_pack_write_value_job(sbo_cpu(&jobs, 64), 2, 1, 0, 0,
				  jobs.va + 0x800, MALI_WRITE_VALUE_ZERO);
	sbo_put64(&q, 0x800, FILL64);
	mali_pack_write_value_job(sbo_cpu(&q, 0), 1, 0, 0, 0, q.va + 0x800,
				  MALI_WRITE_VALUE_ZERO);
	s1 = syncobj_new(fd, false);
	s2 = syncobj_new(fd, false);
	s3 = syncobj_new(fd, false);

	if (!helper_start(&helper))
		CHECK(!"helper process started");

	err = submit_simple(fd, jobs.va, REQ_SLOT0, &jobs.handle, 1, true, 0,
			    s1, 0);
	CHECK_ERRNO(err, 0);
	err_q = submit_simple(fd, q.va, REQ_SLOT0, &q.handle, 1, true, 0, s2,
			      0);
	if (err_q != 0 && err_q != ECANCELED)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "SUBMIT right behind the faulting chain: %s",
			      strerror(err_q));
	if (err)
		goto out;

	CHECK_EQ(wait_fence_status(fd, s1, WAIT_MS), -EFAULT);
	CHECK_EQ(sbo_get64(&jobs, 0x800), FILL64);
	CHECK(mali_job_exception_status(sbo_cpu(&jobs, 64)) !=
	      MALI_EXCEPTION_DONE);
	CHECK_ERRNO(get_fault_after_fence(fd, &f), 0);
	CHECK_EQ(f.count, 1);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_MMU);
	CHECK_EQ(f.address, unmapped);
	CHECK_EQ(f.access, SLEIPNIR_ACCESS_WRITE);
	CHECK_EQ(f.jc, jobs.va);
	CHECK_EQ(f.exception_code & 0xf8, 0xc0);

	if (err_q == 0) {
		printf("  queued chain: SUBMIT accepted, so queued before "
		       "the fault: it must end -ECANCELED without running\n");
		CHECK_EQ(wait_fence_status(fd, s2, WAIT_MS), -ECANCELED);
		CHECK_EQ(sbo_get64(&q, 0x800), FILL64);
		CHECK_EQ(mali_job_exception_status(sbo_cpu(&q, 0)),
			 MALI_EXCEPTION_NOT_STARTED);
	} else {
		printf("  queued chain: refused, the fault came first\n");
	}

	/* Faulted: SUBMIT refuses and changes nothing. */
	for (int i = 0; i < 2; i++) {
		err = submit_simple(fd, q.va, REQ_SLOT0, &q.handle, 1, true, 0,
				    s3, 0);
		CHECK_ERRNO(err, ECANCELED);
		CHECK(!syncobj_signalled(fd, s3));
		CHECK_ERRNO(get_fault(fd, 0, &f), 0); /* no CLEAR */
		CHECK_EQ(f.kind, SLEIPNIR_FAULT_MMU);
		CHECK_EQ(f.jc, jobs.va);
	}
	usleep(100000);
	CHECK_EQ(sbo_get64(&q, 0x800), FILL64);
	/* Other files are not affected. */
	check_good_job(g_fd, REQ_SLOT0, "another file while F is faulted");
	CHECK_ERRNO(get_fault(g_fd, 0, &f), 0);
	CHECK_EQ(f.count, 0);

	/* CLEAR reports the fault a last time and lets F submit again. */
	CHECK_ERRNO(get_fault(fd, SLEIPNIR_GET_FAULT_CLEAR, &f), 0);
	CHECK_EQ(f.count, 1);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_MMU);
	CHECK_EQ(f.address, unmapped);
	CHECK_ERRNO(get_fault(fd, 0, &f), 0);
	CHECK_EQ(f.count, 0);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_NONE);
	check_good_job(fd, REQ_SLOT0, "F after GET_FAULT with CLEAR");
	check_good_job(fd, REQ_SLOT1, "F after GET_FAULT with CLEAR, slot 1");
out:
	if (helper.pid > 0) {
		st = helper_stop(&helper);
		if (st != 0)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "helper process ended with %d", st);
	}
	syncobj_free(fd, s1);
	syncobj_free(fd, s2);
	syncobj_free(fd, s3);
	sbo_free(&q);
	sbo_free(&jobs);
	close(fd);
}

/* --- hangs and timeouts -------------------------------------------------- */

struct hang {
	int fd;
	struct sbo bo;
	uint32_t sync;
	uint64_t t0;
};

/* Submits a hanging WRITE_VALUE job (target bo + 0x800) on fd. */
static bool hang_submit(struct hang *h, int fd, uint32_t requirements,
			uint32_t timeout_ms)
{
	int err;

	memset(h, 0, sizeof(*h));
	h->fd = fd;
	if (sbo_new(fd, 4096, 0, 0, &h->bo))
		return false;
	sbo_put64(&h->bo, 0x800, FILL64);
	mali_pack_write_value_job(sbo_cpu(&h->bo, 0), 1, 0, 0, 0,
				  h->bo.va + 0x800, HANG_VALUE_TYPE);
	h->sync = syncobj_new(fd, false);
	h->t0 = now_ns();
	err = submit_simple(fd, h->bo.va, requirements, &h->bo.handle, 1, true,
			    0, h->sync, timeout_ms);
	if (err) {
		printf("  SUBMIT of a hanging job (timeout %u ms): %s\n",
		       timeout_ms, strerror(err));
		return false;
	}
	return true;
}

/*
 * Waits for the hang to be stopped; checks that it took between want_ms
 * (minus jiffy rounding) and want_ms + TIMEOUT_LATE_MS, that the fence
 * says -ETIMEDOUT and GET_FAULT TIMEOUT, that the job never wrote, and
 * clears the fault.
 */
static void hang_expect_timeout(struct hang *h, uint32_t want_ms)
{
	struct drm_sleipnir_get_fault f;
	uint64_t ms;
	int err;

	err = syncobj_wait(h->fd, &h->sync, 1, want_ms + TIMEOUT_LATE_MS);
	ms = ms_since(h->t0);
	printf("  hanging job stopped after %llu ms (timeout %u ms)\n",
	       (unsigned long long)ms, want_ms);
	CHECK_ERRNO(err, 0);
	if (err)
		return;
	CHECK(ms + TIMEOUT_EARLY_MS >= want_ms);
	CHECK_EQ(fence_status(h->fd, h->sync), -ETIMEDOUT);
	CHECK_EQ(sbo_get64(&h->bo, 0x800), FILL64);
	CHECK(mali_job_exception_status(sbo_cpu(&h->bo, 0)) !=
	      MALI_EXCEPTION_DONE);
	CHECK_ERRNO(get_fault(h->fd, 0, &f), 0);
	CHECK_EQ(f.count, 1);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_TIMEOUT);
	CHECK_EQ(f.jc, h->bo.va);
	CHECK_EQ(f.address, 0);
	CHECK_EQ(f.access, 0);
	CHECK_EQ(f.exception_code, 0);
	/* Faulted until cleared. */
	CHECK_ERRNO(submit_simple(h->fd, h->bo.va, REQ_SLOT0, NULL, 0, true, 0,
				  0, 0),
		    ECANCELED);
	CHECK_ERRNO(get_fault(h->fd, SLEIPNIR_GET_FAULT_CLEAR, &f), 0);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_TIMEOUT);
}

static void hang_free(struct hang *h)
{
	syncobj_free(h->fd, h->sync);
	sbo_free(&h->bo);
}

/*
 * A job that hangs with timeout_ms = 300 on file H while file O keeps
 * working: O's job on the other slot finishes while the hang is still on;
 * O's job queued behind the hang on the same slot completes fine once the
 * hang is stopped; the hang ends -ETIMEDOUT after about 300 ms; H works
 * again after the clear, and so does a new file.
 */
TEST(hang_timeout)
{
	struct drm_sleipnir_get_fault f;
	struct sbo oj;
	struct hang h;
	uint32_t so1, so2;
	uint64_t ms;
	int fdh, fdo, err;

	NEED_DEVICE();
	NEED_HANG();
	fdh = reopen();
	fdo = reopen();
	REQUIRE(fdh >= 0 && fdo >= 0);
	if (sbo_new(fdo, 4096, 0, 0, &oj)) {
		close(fdh);
		close(fdo);
		REQUIRE(!"BO");
	}
	so1 = syncobj_new(fdo, false);
	so2 = syncobj_new(fdo, false);
	if (!hang_submit(&h, fdh, REQ_SLOT0, 300)) {
		CHECK(!"hanging job submitted");
		goto out;
	}

	/* O, slot 1: not held up by the hang on slot 0. */
	sbo_put64(&oj, 0x800, FILL64);
	sbo_put64(&oj, 0x808, FILL64);
	mali_pack_write_value_job(sbo_cpu(&oj, 0), 1, 0, 0, 0, oj.va + 0x800,
				  MALI_WRITE_VALUE_ZERO);
	mali_pack_write_value_job(sbo_cpu(&oj, 64), 1, 0, 0, 0, oj.va + 0x808,
				  MALI_WRITE_VALUE_ZERO);
	err = submit_simple(fdo, oj.va, REQ_SLOT1, NULL, 0, true, 0, so1, 0);
	CHECK_ERRNO(err, 0);
	/* O, slot 0: queued behind the hang. */
	err = submit_simple(fdo, oj.va + 64, REQ_SLOT0, NULL, 0, true, 0, so2,
			    0);
	CHECK_ERRNO(err, 0);

	CHECK_EQ(wait_fence_status(fdo, so1, WAIT_MS), 1);
	ms = ms_since(h.t0);
	printf("  other file's slot-1 job done %llu ms after the hang "
	       "began\n",
	       (unsigned long long)ms);
	CHECK_EQ(sbo_get64(&oj, 0x800), 0);
	if (ms < 250) {
		/* Still hanging: its sync_file reads "active" (0). */
		CHECK(!syncobj_signalled(fdh, h.sync));
		CHECK_EQ(fence_status(fdh, h.sync), 0);
	}

	hang_expect_timeout(&h, 300);

	CHECK_EQ(wait_fence_status(fdo, so2, WAIT_MS), 1);
	CHECK_EQ(sbo_get64(&oj, 0x808), 0);
	CHECK_EQ(mali_job_exception_status(sbo_cpu(&oj, 64)),
		 MALI_EXCEPTION_DONE);
	CHECK_ERRNO(get_fault(fdo, 0, &f), 0);
	CHECK_EQ(f.count, 0);

	check_good_job(fdh, REQ_SLOT0, "the hung file after the clear");
	check_good_job(fdo, REQ_SLOT0, "the other file after the hang");
	{
		int fdn = reopen();

		if (fdn >= 0) {
			check_good_job(fdn, REQ_SLOT0, "a new file");
			close(fdn);
		}
	}
	hang_free(&h);
out:
	syncobj_free(fdo, so1);
	syncobj_free(fdo, so2);
	sbo_free(&oj);
	close(fdh);
	close(fdo);
}

/* A timeout above the default is honoured: not stopped before it. */
TEST(hang_long_timeout)
{
	uint32_t t, def, max;
	struct hang h;
	int fd;

	NEED_DEVICE();
	NEED_HANG();
	REQUIRE(g_params_ok);
	def = (uint32_t)PARAM(JOB_TIMEOUT_DEFAULT_MS);
	max = (uint32_t)PARAM(JOB_TIMEOUT_MAX_MS);
	t = def + 1000 > 1500 ? def + 1000 : 1500;
	if (t > max)
		t = max;
	if (t <= def)
		SKIP("JOB_TIMEOUT_MAX_MS %u leaves no room above the default "
		     "%u",
		     max, def);
	if (t > MAX_FULL_WAIT_MS)
		SKIP("timeout %u ms too long to wait out", t);
	fd = reopen();
	REQUIRE(fd >= 0);
	if (hang_submit(&h, fd, REQ_SLOT0, t)) {
		/* Still running a little before its own timeout. */
		uint32_t probe = t - 200;
		int err = drmSyncobjWait(fd, &h.sync, 1,
					 (int64_t)(h.t0 + probe * 1000000ull),
					 0, NULL);

		CHECK(err != 0); /* -ETIME: not signalled by then */
		hang_expect_timeout(&h, t);
		hang_free(&h);
	} else {
		CHECK(!"hanging job submitted");
	}
	check_good_job(fd, REQ_SLOT0, "after the long timeout");
	close(fd);
}

/* timeout_ms = 0 means JOB_TIMEOUT_DEFAULT_MS. */
TEST(hang_default_timeout)
{
	struct hang h;
	uint32_t def;
	int fd;

	NEED_DEVICE();
	NEED_HANG();
	REQUIRE(g_params_ok);
	def = (uint32_t)PARAM(JOB_TIMEOUT_DEFAULT_MS);
	if (def > MAX_FULL_WAIT_MS)
		SKIP("default timeout %u ms too long to wait out", def);
	fd = reopen();
	REQUIRE(fd >= 0);
	if (hang_submit(&h, fd, REQ_SLOT0, 0)) {
		hang_expect_timeout(&h, def);
		hang_free(&h);
	} else {
		CHECK(!"hanging job submitted");
	}
	close(fd);
}

/*
 * timeout_ms above JOB_TIMEOUT_MAX_MS is accepted and lowered to it. When
 * the maximum is short enough to wait out, the hang must end near it;
 * otherwise only acceptance is checked and the file is closed with the
 * job still running (see close_while_busy for what that must do).
 */
TEST(hang_timeout_clamp)
{
	struct hang h;
	uint32_t max;
	int fd;

	NEED_DEVICE();
	NEED_HANG();
	REQUIRE(g_params_ok);
	max = (uint32_t)PARAM(JOB_TIMEOUT_MAX_MS);
	fd = reopen();
	REQUIRE(fd >= 0);
	if (!hang_submit(&h, fd, REQ_SLOT0, 0xffffffffu)) {
		CHECK(!"SUBMIT with timeout_ms 0xffffffff accepted");
		close(fd);
		return;
	}
	if (max <= MAX_CLAMP_WAIT_MS) {
		printf("  waiting out JOB_TIMEOUT_MAX_MS (%u ms)\n", max);
		hang_expect_timeout(&h, max);
		hang_free(&h);
		close(fd);
		return;
	}
	printf("  JOB_TIMEOUT_MAX_MS %u: not waited out; closing the file\n",
	       max);
	CHECK(!syncobj_signalled(fd, h.sync));
	munmap(h.bo.map, h.bo.size);
	close(fd);
	{
		int fdn = reopen();

		if (fdn >= 0) {
			check_good_job(fdn, REQ_SLOT1, "new file, slot 1");
			close(fdn);
		}
	}
}

/* --- closing a busy file ------------------------------------------------- */

/*
 * A file is closed while its jobs are busy: a long chain on slot 1, and
 * (with SLEIPNIR_TEST_HANG) a hanging job on slot 0 with a good job queued
 * behind it. The fences of those jobs, shared with another file first,
 * still signal; a new file then runs good jobs on both slots.
 */
TEST(close_while_busy)
{
	struct sbo chain, data, hj, qj;
	uint32_t s_chain = 0, s_hang = 0, s_q = 0;
	uint32_t w_chain = 0, w_hang = 0, w_q = 0;
	bool hang = hang_enabled();
	uint64_t t0;
	int fd, fdw, fdn, err;

	NEED_DEVICE();
	fd = reopen();
	fdw = reopen();
	REQUIRE(fd >= 0 && fdw >= 0);
	memset(&hj, 0, sizeof(hj));
	memset(&qj, 0, sizeof(qj));
	if (sbo_new(fd, 16000 * MALI_JOB_SLOT_SIZE, 0, 0, &chain) ||
	    sbo_new(fd, 4096, 0, 0, &data) ||
	    (hang && (sbo_new(fd, 4096, 0, 0, &hj) ||
		      sbo_new(fd, 4096, 0, 0, &qj)))) {
		close(fd);
		close(fdw);
		REQUIRE(!"BOs");
	}
	fill_long_chain(&chain, 16000, data.va + 8, data.va);
	s_chain = syncobj_new(fd, false);
	err = submit_simple(fd, chain.va, REQ_SLOT1, &chain.handle, 1, false,
			    0, s_chain, 0);
	CHECK_ERRNO(err, 0);
	if (hang) {
		mali_pack_write_value_job(sbo_cpu(&hj, 0), 1, 0, 0, 0,
					  hj.va + 0x800, HANG_VALUE_TYPE);
		mali_pack_write_value_job(sbo_cpu(&qj, 0), 1, 0, 0, 0,
					  qj.va + 0x800,
					  MALI_WRITE_VALUE_ZERO);
		s_hang = syncobj_new(fd, false);
		s_q = syncobj_new(fd, false);
		CHECK_ERRNO(submit_simple(fd, hj.va, REQ_SLOT0, &hj.handle, 1,
					  true, 0, s_hang, 2000),
			    0);
		CHECK_ERRNO(submit_simple(fd, qj.va, REQ_SLOT0, &qj.handle, 1,
					  true, 0, s_q, 0),
			    0);
	}
	/* Share the out-syncs with file W, then close everything of F. */
	{
		const uint32_t src[3] = { s_chain, s_hang, s_q };
		uint32_t *dst[3] = { &w_chain, &w_hang, &w_q };

		for (int i = 0; i < 3; i++) {
			int sfd = -1;

			if (!src[i])
				continue;
			if (drmSyncobjHandleToFD(fd, src[i], &sfd) ||
			    drmSyncobjFDToHandle(fdw, sfd, dst[i]))
				CHECK(!"share a syncobj");
			if (sfd >= 0)
				close(sfd);
		}
	}
	/* CPU mappings hold the file open: unmap them first. */
	munmap(chain.map, chain.size);
	munmap(data.map, data.size);
	if (hang) {
		munmap(hj.map, hj.size);
		munmap(qj.map, qj.size);
	}
	t0 = now_ns();
	close(fd);
	printf("  closed the busy file in %llu ms\n",
	       (unsigned long long)ms_since(t0));

	/* Every fence of the closed file signals. */
	if (w_chain) {
		int st = wait_fence_status(fdw, w_chain, WAIT_MS);

		printf("  long chain: fence status %d\n", st);
		CHECK(st <= 1 && st != 0);
	}
	if (w_hang) {
		int st = wait_fence_status(fdw, w_hang, WAIT_MS);

		printf("  hanging job: fence status %d after %llu ms\n", st,
		       (unsigned long long)ms_since(t0));
		CHECK(st < 0);
	}
	if (w_q) {
		int st = wait_fence_status(fdw, w_q, WAIT_MS);

		printf("  job queued behind it: fence status %d\n", st);
		CHECK(st <= 1 && st != 0);
	}
	syncobj_free(fdw, w_chain);
	syncobj_free(fdw, w_hang);
	syncobj_free(fdw, w_q);
	close(fdw);

	fdn = reopen();
	REQUIRE(fdn >= 0);
	t0 = now_ns();
	check_good_job(fdn, REQ_SLOT1, "new file, slot 1");
	check_good_job(fdn, REQ_SLOT0, "new file, slot 0");
	printf("  new file's jobs done in %llu ms\n",
	       (unsigned long long)ms_since(t0));
	close(fdn);
}

void run_fault_tests(void)
{
	RUN(fault_cancel_recover);
	RUN(hang_timeout);
	RUN(hang_long_timeout);
	RUN(hang_default_timeout);
	RUN(hang_timeout_clamp);
	RUN(close_while_busy);
}
