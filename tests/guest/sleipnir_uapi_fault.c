/* SPDX-License-Identifier: MIT */
/*
 * sleipnir_uapi: what happens when jobs go wrong. An MMU fault marks only
 * its own file faulted (SUBMIT -ECANCELED, queued jobs cancelled) until
 * GET_FAULT with CLEAR, while another process keeps running jobs; hanging
 * jobs (endless compute kernels, struct hang) are stopped after their own
 * timeout, the default one or the clamped maximum, without hurting other
 * files; closing a file with busy jobs stops them and leaves the device
 * working.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sleipnir_uapi.h"

/*
 * Longest timeout a test waits out in full: the tests' time is dear under
 * emulation. (Nothing but the driver ends an endless job: the GPU, and
 * the model, have no watchdog.)
 */
#define MAX_FULL_WAIT_MS 8000u
/* The clamp test lowers JOB_TIMEOUT_MAX_MS to this for a while. */
#define CLAMP_TEST_MAX_MS 1200u
#define MAX_JOB_TIMEOUT_PARAM                                                  \
	"/sys/module/sleipnir/parameters/max_job_timeout_ms"

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
	struct sl_drm *dev = reopen();

	if (!dev)
		return 10;
	for (;;) {
		struct pollfd p = { .fd = stop_rd, .events = POLLIN };

		if (!check_good_job(dev, (jobs & 1) ? REQ_SLOT1 : REQ_SLOT0,
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
	sl_drm_close(dev);
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
	struct sl_bo *jobs = NULL, *q = NULL;
	uint32_t s1, s2, s3;
	uint64_t unmapped;
	struct sl_drm *dev;
	int err, err_q, st;

	NEED_DEVICE();
	REQUIRE(g_params_ok);
	/* Mid-way through the VA range: AUTO_VA never gets there. */
	unmapped = ((PARAM(VA_START) + PARAM(VA_END)) / 2 & ~0xfffull) + 0x40;
	dev = reopen();
	REQUIRE(dev);
	if (bo_new(dev, 4096, 0, 0, 0, &jobs)) {
		sl_drm_close(dev);
		REQUIRE(!"BO");
	}
	if (bo_new(dev, 4096, 0, 0, 0, &q)) {
		bo_free(&jobs);
		sl_drm_close(dev);
		REQUIRE(!"BO");
	}
	bo_put64(jobs, 0x800, FILL64);
	mali_pack_write_value_job(bo_cpu(jobs, 0), 1, 0, 0, jobs->va + 64,
				  unmapped, MDG_WRITE_VALUE_TYPE_ZERO);
	mali_pack_write_value_job(bo_cpu(jobs, 64), 2, 1, 0, 0,
				  jobs->va + 0x800, MDG_WRITE_VALUE_TYPE_ZERO);
	bo_put64(q, 0x800, FILL64);
	mali_pack_write_value_job(bo_cpu(q, 0), 1, 0, 0, 0, q->va + 0x800,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	s1 = syncobj_new(dev, false);
	s2 = syncobj_new(dev, false);
	s3 = syncobj_new(dev, false);

	if (!helper_start(&helper))
		CHECK(!"helper process started");

	err = submit_simple(dev, jobs->va, REQ_SLOT0, &jobs->handle, 1, true, 0,
			    s1, 0);
	CHECK_ERRNO(err, 0);
	err_q = submit_simple(dev, q->va, REQ_SLOT0, &q->handle, 1, true, 0, s2,
			      0);
	if (err_q != 0 && err_q != -ECANCELED)
		CHECK_FAIL_AT(__FILE__, __LINE__,
			      "SUBMIT right behind the faulting chain: %s",
			      strerror(-err_q));
	if (err)
		goto out;

	CHECK_EQ(wait_fence_status(dev, s1, WAIT_MS), -EFAULT);
	CHECK_EQ(bo_get64(jobs, 0x800), FILL64);
	CHECK(mali_job_exception_status(bo_cpu(jobs, 64)) !=
	      MDG_EXCEPTION_DONE);
	CHECK_ERRNO(get_fault_after_fence(dev, &f), 0);
	CHECK_EQ(f.count, 1);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_MMU);
	CHECK_EQ(f.address, unmapped);
	CHECK_EQ(f.access, SLEIPNIR_ACCESS_WRITE);
	CHECK_EQ(f.jc, jobs->va);
	CHECK_EQ(f.exception_code & 0xf8, 0xc0);

	if (err_q == 0) {
		printf("  queued chain: SUBMIT accepted, so queued before "
		       "the fault: it must end -ECANCELED without running\n");
		CHECK_EQ(wait_fence_status(dev, s2, WAIT_MS), -ECANCELED);
		CHECK_EQ(bo_get64(q, 0x800), FILL64);
		CHECK_EQ(mali_job_exception_status(bo_cpu(q, 0)),
			 MDG_EXCEPTION_OK);
	} else {
		printf("  queued chain: refused, the fault came first\n");
	}

	/* Faulted: SUBMIT refuses and changes nothing. */
	for (int i = 0; i < 2; i++) {
		err = submit_simple(dev, q->va, REQ_SLOT0, &q->handle, 1, true,
				    0,
				    s3, 0);
		CHECK_ERRNO(err, -ECANCELED);
		CHECK(!syncobj_signalled(dev, s3));
		CHECK_ERRNO(get_fault(dev, 0, &f), 0); /* no CLEAR */
		CHECK_EQ(f.kind, SLEIPNIR_FAULT_MMU);
		CHECK_EQ(f.jc, jobs->va);
	}
	usleep(100000);
	CHECK_EQ(bo_get64(q, 0x800), FILL64);
	/* Other files are not affected. */
	check_good_job(g_dev, REQ_SLOT0, "another file while F is faulted");
	CHECK_ERRNO(get_fault(g_dev, 0, &f), 0);
	CHECK_EQ(f.count, 0);

	/* CLEAR reports the fault a last time and lets F submit again. */
	CHECK_ERRNO(get_fault(dev, SLEIPNIR_GET_FAULT_CLEAR, &f), 0);
	CHECK_EQ(f.count, 1);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_MMU);
	CHECK_EQ(f.address, unmapped);
	CHECK_ERRNO(get_fault(dev, 0, &f), 0);
	CHECK_EQ(f.count, 0);
	CHECK_EQ(f.kind, SLEIPNIR_FAULT_NONE);
	check_good_job(dev, REQ_SLOT0, "F after GET_FAULT with CLEAR");
	check_good_job(dev, REQ_SLOT1, "F after GET_FAULT with CLEAR, slot 1");
out:
	if (helper.pid > 0) {
		st = helper_stop(&helper);
		if (st != 0)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "helper process ended with %d", st);
	}
	sl_syncobj_destroy(dev, s1);
	sl_syncobj_destroy(dev, s2);
	sl_syncobj_destroy(dev, s3);
	bo_free(&q);
	bo_free(&jobs);
	sl_drm_close(dev);
}

/* --- hangs and timeouts -------------------------------------------------- */

/*
 * An endless job with timeout_ms = 300 on file H (slot 1) while file O
 * keeps working: O's job on slot 0, and O's job queued behind the hang on
 * slot 1, complete fine; the hang ends -ETIMEDOUT after about 300 ms; H
 * works again after the clear, and so do O and a new file.
 *
 * O's slot-0 job runs beside the endless shader; had it still been on the
 * GPU when the driver resets it, it would have to be run again, not
 * failed: O is not the guilty file.
 */
TEST(hang_timeout)
{
	struct drm_sleipnir_get_fault f;
	struct sl_bo *oj = NULL;
	struct hang h;
	uint32_t so1, so2;
	uint64_t ms;
	struct sl_drm *dev_h, *dev_o;
	int err;

	NEED_DEVICE();
	dev_h = reopen();
	dev_o = reopen();
	REQUIRE(dev_h && dev_o);
	if (bo_new(dev_o, 4096, 0, 0, 0, &oj)) {
		sl_drm_close(dev_h);
		sl_drm_close(dev_o);
		REQUIRE(!"BO");
	}
	so1 = syncobj_new(dev_o, false);
	so2 = syncobj_new(dev_o, false);
	if (!hang_submit(&h, dev_h, 300)) {
		CHECK(!"endless job submitted");
		goto out;
	}

	/* O, slot 0: not queued behind the hang. */
	bo_put64(oj, 0x800, FILL64);
	bo_put64(oj, 0x808, FILL64);
	mali_pack_write_value_job(bo_cpu(oj, 0), 1, 0, 0, 0, oj->va + 0x800,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	mali_pack_write_value_job(bo_cpu(oj, 64), 1, 0, 0, 0, oj->va + 0x808,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	err = submit_simple(dev_o, oj->va, REQ_SLOT0, NULL, 0, true, 0, so1, 0);
	CHECK_ERRNO(err, 0);
	/* O, slot 1: queued behind the hang. */
	err = submit_simple(dev_o, oj->va + 64, REQ_SLOT1, NULL, 0, true, 0,
			    so2,
			    0);
	CHECK_ERRNO(err, 0);
	if (ms_since(h.t0) < 250) {
		/* Still hanging: its sync_file reads "active" (0). */
		CHECK(!syncobj_signalled(dev_h, h.sync));
		CHECK_EQ(fence_status(dev_h, h.sync), 0);
	}

	CHECK_EQ(wait_fence_status(dev_o, so1, WAIT_MS), 1);
	ms = ms_since(h.t0);
	printf("  other file's slot-0 job done %llu ms after the hang "
	       "began\n",
	       (unsigned long long)ms);
	CHECK_EQ(bo_get64(oj, 0x800), 0);
	CHECK_EQ(mali_job_exception_status(bo_cpu(oj, 0)),
		 MDG_EXCEPTION_DONE);

	hang_expect_timeout(&h, 300);

	CHECK_EQ(wait_fence_status(dev_o, so2, WAIT_MS), 1);
	CHECK_EQ(bo_get64(oj, 0x808), 0);
	CHECK_EQ(mali_job_exception_status(bo_cpu(oj, 64)),
		 MDG_EXCEPTION_DONE);
	CHECK_ERRNO(get_fault(dev_o, 0, &f), 0);
	CHECK_EQ(f.count, 0);

	check_good_job(dev_h, REQ_SLOT0, "the hung file after the clear");
	check_compute_job(dev_h, "the hung file after the clear");
	check_good_job(dev_o, REQ_SLOT1, "the other file after the hang");
	{
		struct sl_drm *dev_n = reopen();

		if (dev_n) {
			check_good_job(dev_n, REQ_SLOT1, "a new file");
			sl_drm_close(dev_n);
		}
	}
	hang_free(&h);
out:
	sl_syncobj_destroy(dev_o, so1);
	sl_syncobj_destroy(dev_o, so2);
	bo_free(&oj);
	sl_drm_close(dev_h);
	sl_drm_close(dev_o);
}

/* A timeout above the default is honoured: not stopped before it. */
TEST(hang_long_timeout)
{
	uint32_t t, def, max;
	struct hang h;
	struct sl_drm *dev;

	NEED_DEVICE();
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
	dev = reopen();
	REQUIRE(dev);
	if (hang_submit(&h, dev, t)) {
		/* Still running a little before its own timeout. */
		uint32_t probe = t - 200;
		int err = drmSyncobjWait(sl_drm_fd(dev), &h.sync, 1,
					 (int64_t)(h.t0 + probe * 1000000ull),
					 0, NULL);

		CHECK(err != 0); /* -ETIME: not signalled by then */
		hang_expect_timeout(&h, t);
		hang_free(&h);
	} else {
		CHECK(!"endless job submitted");
	}
	check_good_job(dev, REQ_SLOT0, "after the long timeout");
	sl_drm_close(dev);
}

/* timeout_ms = 0 means JOB_TIMEOUT_DEFAULT_MS. */
TEST(hang_default_timeout)
{
	struct hang h;
	uint32_t def;
	struct sl_drm *dev;

	NEED_DEVICE();
	REQUIRE(g_params_ok);
	def = (uint32_t)PARAM(JOB_TIMEOUT_DEFAULT_MS);
	if (def > MAX_FULL_WAIT_MS)
		SKIP("default timeout %u ms too long to wait out", def);
	dev = reopen();
	REQUIRE(dev);
	if (hang_submit(&h, dev, 0)) {
		hang_expect_timeout(&h, def);
		hang_free(&h);
	} else {
		CHECK(!"endless job submitted");
	}
	sl_drm_close(dev);
}

/* Writes the max_job_timeout_ms module parameter; 0 or -errno. */
static int set_max_job_timeout(uint32_t ms)
{
	char buf[16];
	int fd = open(MAX_JOB_TIMEOUT_PARAM, O_WRONLY | O_CLOEXEC);
	int len = snprintf(buf, sizeof(buf), "%u\n", ms), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, buf, (size_t)len) != len)
		err = errno ? -errno : -EIO;
	close(fd);
	return err;
}

/*
 * timeout_ms above JOB_TIMEOUT_MAX_MS is accepted and lowered to it. The
 * maximum (60 s by default) is too long to wait out, so the test
 * lowers it for a while through the max_job_timeout_ms module parameter
 * (the administrator's knob the uapi names): GET_PARAM must then report
 * the new value and the endless job must end near it.
 */
TEST(hang_timeout_clamp)
{
	struct hang h;
	uint64_t max = 0, old;
	struct sl_drm *dev;
	int err;

	NEED_DEVICE();
	REQUIRE(g_params_ok);
	old = PARAM(JOB_TIMEOUT_MAX_MS);
	err = set_max_job_timeout(CLAMP_TEST_MAX_MS);
	if (err)
		SKIP("cannot write %s: %s", MAX_JOB_TIMEOUT_PARAM,
		     strerror(-err));
	CHECK_ERRNO(sl_drm_get_param(g_dev, SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS,
				     &max),
		    0);
	CHECK_EQ(max, CLAMP_TEST_MAX_MS);
	dev = reopen();
	if (dev) {
		if (hang_submit(&h, dev, 0xffffffffu)) {
			hang_expect_timeout(&h, CLAMP_TEST_MAX_MS);
			hang_free(&h);
		} else {
			CHECK(!"SUBMIT with timeout_ms 0xffffffff accepted");
		}
		sl_drm_close(dev);
	} else {
		CHECK(dev);
	}
	CHECK_ERRNO(set_max_job_timeout((uint32_t)old), 0);
	CHECK_ERRNO(sl_drm_get_param(g_dev, SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS,
				     &max),
		    0);
	CHECK_EQ(max, old);
}

/* --- closing a busy file ------------------------------------------------- */

/*
 * A file is closed while its jobs are busy: a long chain on slot 0, and an
 * endless compute job on slot 1 (timeout 2 s) with a good job queued
 * behind it. The fences of those jobs, shared with another file first,
 * still signal; a new file then runs good jobs on both slots.
 *
 * The chain gets a timeout longer than the endless job's, so that the
 * endless job is the one that overruns.
 */
TEST(close_while_busy)
{
	struct sl_bo *chain = NULL, *data = NULL, *qj = NULL;
	struct cjob hj;
	uint32_t s_chain = 0, s_hang = 0, s_q = 0;
	uint32_t w_chain = 0, w_hang = 0, w_q = 0;
	uint64_t t0;
	struct sl_drm *dev;
	struct sl_drm *dev_w, *dev_n;
	int err;

	NEED_DEVICE();
	dev = reopen();
	dev_w = reopen();
	REQUIRE(dev && dev_w);
	if (bo_new(dev, 16000 * MALI_JOB_SLOT_SIZE, 0, 0, 0, &chain) ||
	    bo_new(dev, 4096, 0, 0, 0,
		   &data) || bo_new(dev, 4096, 0, 0, 0, &qj) ||
	    cjob_new(dev, &mc_endless_kernel, 0, &hj)) {
		sl_drm_close(dev);
		sl_drm_close(dev_w);
		REQUIRE(!"BOs");
	}
	fill_long_chain(chain, 16000, data->va + 8, data->va);
	s_chain = syncobj_new(dev, false);
	err = submit_simple(dev, chain->va, REQ_SLOT0, &chain->handle, 1, false,
			    0, s_chain, 5000);
	CHECK_ERRNO(err, 0);
	mali_pack_write_value_job(bo_cpu(qj, 0), 1, 0, 0, 0, qj->va + 0x800,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	s_hang = syncobj_new(dev, false);
	s_q = syncobj_new(dev, false);
	CHECK_ERRNO(cjob_submit(&hj, s_hang, 2000), 0);
	CHECK_ERRNO(submit_simple(dev, qj->va, REQ_SLOT1, &qj->handle, 1, true,
				  0,
				  s_q, 0),
		    0);
	/* Share the out-syncs with file W, then close everything of F. */
	{
		const uint32_t src[3] = { s_chain, s_hang, s_q };
		uint32_t *dst[3] = { &w_chain, &w_hang, &w_q };

		for (int i = 0; i < 3; i++) {
			int sfd = -1;

			if (!src[i])
				continue;
			if (drmSyncobjHandleToFD(sl_drm_fd(dev), src[i],
						 &sfd) ||
			    drmSyncobjFDToHandle(sl_drm_fd(dev_w), sfd, dst[i]))
				CHECK(!"share a syncobj");
			if (sfd >= 0)
				close(sfd);
		}
	}
	/* CPU mappings hold the file open: unmap them first. */
	munmap(chain->map, chain->size);
	munmap(data->map, data->size);
	munmap(qj->map, qj->size);
	munmap(hj.area->map, hj.area->size);
	munmap(hj.out->map, hj.out->size);
	t0 = now_ns();
	sl_drm_close(dev);
	printf("  closed the busy file in %llu ms\n",
	       (unsigned long long)ms_since(t0));

	/* Every fence of the closed file signals. */
	if (w_chain) {
		int st = wait_fence_status(dev_w, w_chain, WAIT_MS);

		printf("  long chain: fence status %d\n", st);
		CHECK(st <= 1 && st != 0);
	}
	if (w_hang) {
		int st = wait_fence_status(dev_w, w_hang, WAIT_MS);

		printf("  endless job: fence status %d after %llu ms\n", st,
		       (unsigned long long)ms_since(t0));
		CHECK(st < 0);
	}
	if (w_q) {
		int st = wait_fence_status(dev_w, w_q, WAIT_MS);

		printf("  job queued behind it: fence status %d\n", st);
		CHECK(st <= 1 && st != 0);
	}
	sl_syncobj_destroy(dev_w, w_chain);
	sl_syncobj_destroy(dev_w, w_hang);
	sl_syncobj_destroy(dev_w, w_q);
	sl_drm_close(dev_w);

	dev_n = reopen();
	REQUIRE(dev_n);
	t0 = now_ns();
	check_good_job(dev_n, REQ_SLOT1, "new file, slot 1");
	check_good_job(dev_n, REQ_SLOT0, "new file, slot 0");
	check_compute_job(dev_n, "new file, compute");
	printf("  new file's jobs done in %llu ms\n",
	       (unsigned long long)ms_since(t0));
	sl_drm_close(dev_n);
}

/* Whether the kernel log holds a line with @what. */
static bool kernel_log_has(const char *what)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	bool found = false;
	char *log;
	int n;

	if (size <= 0)
		return false;
	log = malloc((size_t)size + 1);
	if (!log)
		return false;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size);
	log[n > 0 ? n : 0] = 0;
	found = strstr(log, what) != NULL;
	free(log);
	return found;
}

/*
 * Closing a file stops its chains, as panfrost kills a closing file's
 * jobs: an endless compute job with a 60 s timeout (longer than the test
 * waits) is hard-stopped on the GPU and a good job queued behind it is
 * cancelled, both fences -ECANCELED within seconds, with the kernel log
 * saying that the client closed the device; then a new file's jobs run.
 * Without it the endless job would hold its slot until its timeout, which
 * an OpenCL client asks to be the longest the driver grants.
 */
TEST(close_stops_its_chains)
{
	struct sl_bo *qj = NULL;
	struct cjob hj;
	uint32_t s_hang, s_q, w_hang = 0, w_q = 0;
	struct sl_drm *dev, *dev_w, *dev_n;
	uint64_t t0;
	int st;

	NEED_DEVICE();
	dev = reopen();
	dev_w = reopen();
	REQUIRE(dev && dev_w);
	if (bo_new(dev, 4096, 0, 0, 0, &qj) ||
	    cjob_new(dev, &mc_endless_kernel, 0, &hj)) {
		sl_drm_close(dev);
		sl_drm_close(dev_w);
		REQUIRE(!"BOs");
	}
	mali_pack_write_value_job(bo_cpu(qj, 0), 1, 0, 0, 0, qj->va + 0x800,
				  MDG_WRITE_VALUE_TYPE_ZERO);
	s_hang = syncobj_new(dev, false);
	s_q = syncobj_new(dev, false);
	CHECK_ERRNO(cjob_submit(&hj, s_hang, 60000), 0);
	CHECK_ERRNO(submit_simple(dev, qj->va, REQ_SLOT1, &qj->handle, 1, true,
				  0, s_q, 0),
		    0);
	{
		const uint32_t src[2] = { s_hang, s_q };
		uint32_t *dst[2] = { &w_hang, &w_q };

		for (int i = 0; i < 2; i++) {
			int sfd = -1;

			if (drmSyncobjHandleToFD(sl_drm_fd(dev), src[i],
						 &sfd) ||
			    drmSyncobjFDToHandle(sl_drm_fd(dev_w), sfd, dst[i]))
				CHECK(!"share a syncobj");
			if (sfd >= 0)
				close(sfd);
		}
	}
	/* Let the endless job reach the GPU. */
	usleep(300000);
	munmap(qj->map, qj->size);
	munmap(hj.area->map, hj.area->size);
	munmap(hj.out->map, hj.out->size);
	t0 = now_ns();
	sl_drm_close(dev);
	if (w_hang) {
		st = wait_fence_status(dev_w, w_hang, WAIT_MS);
		printf("  endless job: fence status %d %llu ms after the "
		       "close\n",
		       st, (unsigned long long)ms_since(t0));
		CHECK_EQ(st, -ECANCELED);
		CHECK(ms_since(t0) < 5000);
	}
	if (w_q) {
		st = wait_fence_status(dev_w, w_q, WAIT_MS);
		printf("  job queued behind it: fence status %d\n", st);
		CHECK_EQ(st, -ECANCELED);
	}
	CHECK(kernel_log_has("its client closed the device"));
	sl_syncobj_destroy(dev_w, w_hang);
	sl_syncobj_destroy(dev_w, w_q);
	sl_drm_close(dev_w);

	dev_n = reopen();
	REQUIRE(dev_n);
	check_good_job(dev_n, REQ_SLOT1, "new file, slot 1");
	check_compute_job(dev_n, "new file, compute");
	sl_drm_close(dev_n);
}

void run_fault_tests(void)
{
	RUN(fault_cancel_recover);
	RUN(hang_timeout);
	RUN(hang_long_timeout);
	RUN(hang_default_timeout);
	RUN(hang_timeout_clamp);
	RUN(close_while_busy);
	RUN(close_stops_its_chains);
}
