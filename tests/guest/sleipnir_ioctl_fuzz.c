/* SPDX-License-Identifier: MIT */
/*
 * sleipnir_ioctl_fuzz: a seeded ioctl fuzzer for sleipnir.ko's render node
 * (uapi/drm/sleipnir_drm.h, version 0.2).
 *
 * Usage: sleipnir_ioctl_fuzz [-s SEED] [-n CALLS] [-e EPOCH] [NODE]
 *   -s  PRNG seed (default: from the clock; always printed, so a failing
 *       run can be repeated with -s)
 *   -n  ioctl calls to make (default 60000)
 *   -e  calls per epoch (default 2000): at the end of each epoch every
 *       file, mapping, syncobj and descriptor the fuzzer made is closed
 *       (files with jobs still in flight) and fresh files are opened
 *
 * Calls are of three kinds, chosen at random from a xorshift PRNG:
 *  - structured calls of each driver ioctl (0x00..0x0a) and of the core DRM
 *    ioctls a render node allows (GEM_CLOSE, PRIME_*, SYNCOBJ_*, GET_CAP,
 *    VERSION): "almost valid" arguments built from what the fuzzer holds
 *    (real BO and syncobj handles, mapped GPU addresses, dma-buf and
 *    sync_file descriptors), with one field at a time pushed out of range,
 *    so that the deep paths run: BOs are created, mapped for the CPU and the
 *    GPU, unmapped; SUBMIT runs job chains the fuzzer wrote into mapped BOs
 *    (NULL, WRITE_VALUE and CACHE_FLUSH jobs and garbage, at mapped and
 *    unmapped addresses, with loops and bad dependencies) with timeout_ms of
 *    at most 40 ms. Never the model's test-hang WRITE_VALUE type. Of the
 *    two files open at a time, the second mostly submits clean chains
 *    (NULL and WRITE_VALUE jobs into writable mappings) so that completed
 *    jobs mix with the first file's faults.
 *  - the same, mutated: a wrong size or direction encoded in the ioctl
 *    number, or a flipped bit;
 *  - raw calls: a random number in the driver range (DRM_COMMAND_BASE +
 *    0x00..0x1f) or of those core ioctls, a random size and direction, and
 *    random contents mixed from handles, sizes, addresses and noise.
 * Every pointer the fuzzer hands the kernel points into guarded buffers (a
 * PROT_NONE page on each side), to PROT_NONE memory or to no memory, so a
 * kernel that writes out of bounds gets EFAULT rather than corrupting the
 * fuzzer. Waits get absolute timeouts of at most ~20 ms, and an interval
 * timer interrupts any call that still blocks after 6 s (a failure).
 *
 * What is asserted (a contract violation fails the fuzz test):
 *  - every call of a driver ioctl returns 0 or an errno its documentation
 *    in sleipnir_drm.h lists (plus EFAULT, ENOMEM, EINTR and ENODEV, which
 *    any ioctl may return); unknown driver numbers return EINVAL;
 *  - for structured calls on state the fuzzer tracks exactly: GET_PARAM of
 *    every known parameter succeeds, unknown ones fail with EINVAL and leave
 *    @value alone; BO_CREATE rounds the size up to pages; BO_INFO reports
 *    the size and flags a BO was created with; BO_MMAP_OFFSET of a userptr
 *    or NO_CPU_MAP BO fails with EPERM; VM_MAP never maps over a tracked
 *    mapping, and AUTO_VA returns a free, aligned address inside
 *    [VA_START, VA_END); VM_UNMAP of a tracked mapping succeeds and of
 *    anything else fails with EINVAL; userptr BOs cannot be exported;
 *    GET_FAULT reports a consistent kind, address and access;
 *  - every fence the fuzzer's syncobjs hold ends signalled or with one of
 *    the documented errors (-EIO, -EFAULT, -ETIMEDOUT, -ECANCELED);
 *  - CPU access to a BO mapping never raises SIGBUS or SIGSEGV;
 *  - no call blocks for 6 s.
 * After the fuzz everything is closed; the driver's debugfs counters bos,
 * vms, vm_mappings, as_bound and jobs_in_flight must drain to 0 within 5 s;
 * a known-good WRITE_VALUE job on a fresh file must work; the counters must
 * drain again. How many calls returned each errno is printed (informative).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "check.h"
#include "clock.h"
#include "sleipnir_fixture.h"
#include "xorshift.h"

CHECK_MAIN_STATE("sleipnir_ioctl_fuzz");

#define PAGE 4096ull
#define MIB (1024ull * 1024ull)
#define MAX_BO_SIZE MIB
#define ARG_SIZE (20u * 1024u)      /* > the largest size an ioctl number encodes */
#define SCRATCH_SIZE (64u * 1024u)
#define UPTR_RW_SIZE MIB
#define UPTR_RO_SIZE (256u * 1024u)
#define WIN_SIZE (256ull * MIB)      /* GPU VA window for fixed mappings */
#define NFILES 2
#define MAX_BOS 48
#define MAX_MAPS 64
#define MAX_SYNCS 32
#define MAX_FDS 24
#define MAX_CPUMAPS 192
#define EPOCH_BYTES (96ull * MIB)    /* BO bytes created before an early epoch end */
#define CALL_WATCHDOG_S 6
#define MAX_SUBMIT_TIMEOUT_MS 40u
#define DRAIN_TIMEOUT_MS 5000u
/* NULL jobs in the long chain: ~14 ms of GPU time on the board. */
#define LONG_CHAIN_JOBS 32768u
/* The model's private test-hang WRITE_VALUE type ("HANG"): never sent. */
#define SGPU_TEST_HANG_VALUE_TYPE 0x48414e47u
#define NR_DRV(x) (DRM_COMMAND_BASE + (x))

static struct {
	uint64_t seed;
	unsigned long calls;
	unsigned long epoch;
	const char *node_arg;
} g_opt = { 0, 60000, 2000, NULL };

static char g_node[64];
static uint64_t g_va_start, g_va_end, g_max_param;

/* --- PRNG -------------------------------------------------------------- */

static uint64_t g_rng;

static uint64_t rnd64(void)
{
	return xorshift64star(&g_rng);
}

static uint32_t rnd(uint32_t n)
{
	return n ? (uint32_t)((rnd64() >> 32) % n) : 0;
}

static bool chance(unsigned int pct)
{
	return rnd(100) < pct;
}

static uint64_t page_align(uint64_t v)
{
	return (v + PAGE - 1) & ~(PAGE - 1);
}

/* --- guarded memory ------------------------------------------------------ */

/* len bytes (a page multiple) with a PROT_NONE page on each side. */
static uint8_t *guarded_alloc(size_t len, int prot)
{
	uint8_t *p = mmap(NULL, len + 2 * PAGE, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + PAGE, len, PROT_READ | PROT_WRITE))
		return NULL;
	memset(p + PAGE, 0x5c, len);
	if (prot != (PROT_READ | PROT_WRITE) && mprotect(p + PAGE, len, prot))
		return NULL;
	return p + PAGE;
}

static uint8_t *g_arg, *g_scratch, *g_uptr_rw, *g_uptr_ro;
static uint64_t g_win; /* GPU VA window, reserved PROT_NONE in this process */
static bool g_win_reserved;

/* --- CPU access to BO mappings, with SIGBUS/SIGSEGV caught ----------------- */

static sigjmp_buf g_touch_jmp;
static volatile sig_atomic_t g_touching;
static unsigned long g_cpu_faults;

static void on_fault(int sig)
{
	if (g_touching) {
		g_touching = 0;
		siglongjmp(g_touch_jmp, sig);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Copies into a BO's CPU mapping; returns 0 or the signal it raised. */
static int cpu_write(uint8_t *dst, const void *src, size_t len)
{
	int sig = sigsetjmp(g_touch_jmp, 1);

	if (sig)
		return sig;
	g_touching = 1;
	memcpy(dst, src, len);
	g_touching = 0;
	return 0;
}

static int cpu_read(void *dst, const uint8_t *src, size_t len)
{
	int sig = sigsetjmp(g_touch_jmp, 1);

	if (sig)
		return sig;
	g_touching = 1;
	memcpy(dst, src, len);
	g_touching = 0;
	return 0;
}

/* --- the call watchdog ---------------------------------------------------- */

static volatile sig_atomic_t g_alarmed;

static void on_alarm(int sig)
{
	(void)sig;
	g_alarmed = 1;
}

static void watchdog(bool on)
{
	struct itimerval it = { { 0, 0 }, { on ? CALL_WATCHDOG_S : 0, 0 } };

	if (on)
		g_alarmed = 0;
	setitimer(ITIMER_REAL, &it, NULL);
}

/* --- tracked state --------------------------------------------------------- */

struct fbo {
	uint32_t handle;
	uint32_t flags;   /* as created (userptr: SLEIPNIR_BO_USERPTR too) */
	uint64_t size;
	uint8_t *cpu;     /* a CPU view of the memory, or NULL */
};

struct fmap {
	uint64_t va, size;
	uint8_t *cpu;     /* CPU view of the first mapped byte, or NULL */
	bool ro;          /* the GPU may not write it */
};

struct ffile {
	struct sl_drm *dev;  /* the file, opened through sl_drm */
	int fd;              /* its descriptor, for the raw calls */
	struct fbo bo[MAX_BOS];
	unsigned int nbo;
	struct fmap map[MAX_MAPS];
	unsigned int nmap;
	uint32_t sync[MAX_SYNCS];
	uint64_t tl_next[MAX_SYNCS];
	unsigned int nsync;
	/*
	 * Handles and mappings are tracked exactly (raw and mutated calls
	 * included); these say when that was not possible.
	 */
	bool handles_untracked, vm_untracked;
	/* A long chain of NULL jobs (see op_long_chain), 0 until made. */
	uint64_t long_va;
};

static struct ffile g_file[NFILES];
static int g_dmabuf[MAX_FDS], g_ndmabuf;
static int g_syncfile[MAX_FDS], g_nsyncfile;
static int g_sobjfd[MAX_FDS], g_nsobjfd;
static struct {
	void *p;
	size_t len;
} g_cpumap[MAX_CPUMAPS];
static unsigned int g_ncpumap;
static uint64_t g_epoch_bytes;
static int g_keep_fds[64], g_nkeep;

/* --- statistics ---------------------------------------------------------- */

#define MAX_ERRNO 160
static unsigned long g_errno_hist[MAX_ERRNO + 1];
static unsigned long g_nr_calls[256], g_nr_ok[256], g_nr_raw[256];
static unsigned long g_total_calls, g_raw_calls, g_mutated_calls;
static unsigned long g_violations, g_blocked, g_submits_ok, g_chains_written;
static unsigned long g_clean_submits, g_long_submits;
static unsigned long g_fence_hist[6]; /* ok, pending, EIO, EFAULT, ETIMEDOUT, ECANCELED */
static unsigned long g_fence_bad, g_epochs, g_stray_fds;

static const char *nr_name(unsigned int nr)
{
	static const char *const drv[] = {
		"GET_PARAM", "BO_CREATE", "BO_MMAP_OFFSET", "BO_INFO",
		"BO_WAIT",   "BO_SYNC",   "BO_USERPTR",     "VM_MAP",
		"VM_UNMAP",  "SUBMIT",    "GET_FAULT",
	};

	if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_BASE + 11)
		return drv[nr - DRM_COMMAND_BASE];
	if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_BASE + 0x20)
		return "(driver, unused)";
	switch (nr) {
	case 0x00: return "VERSION";
	case 0x09: return "GEM_CLOSE";
	case 0x0a: return "GEM_FLINK";
	case 0x0b: return "GEM_OPEN";
	case 0x0c: return "GET_CAP";
	case 0x2d: return "PRIME_HANDLE_TO_FD";
	case 0x2e: return "PRIME_FD_TO_HANDLE";
	case 0xbf: return "SYNCOBJ_CREATE";
	case 0xc0: return "SYNCOBJ_DESTROY";
	case 0xc1: return "SYNCOBJ_HANDLE_TO_FD";
	case 0xc2: return "SYNCOBJ_FD_TO_HANDLE";
	case 0xc3: return "SYNCOBJ_WAIT";
	case 0xc4: return "SYNCOBJ_RESET";
	case 0xc5: return "SYNCOBJ_SIGNAL";
	case 0xca: return "SYNCOBJ_TIMELINE_WAIT";
	case 0xcb: return "SYNCOBJ_QUERY";
	case 0xcc: return "SYNCOBJ_TRANSFER";
	case 0xcd: return "SYNCOBJ_TIMELINE_SIGNAL";
	}
	return "?";
}

/* The requests as the uapi defines them (right size and direction). */
static const unsigned long g_requests[] = {
	DRM_IOCTL_SLEIPNIR_GET_PARAM,   DRM_IOCTL_SLEIPNIR_BO_CREATE,
	DRM_IOCTL_SLEIPNIR_BO_MMAP_OFFSET, DRM_IOCTL_SLEIPNIR_BO_INFO,
	DRM_IOCTL_SLEIPNIR_BO_WAIT,     DRM_IOCTL_SLEIPNIR_BO_SYNC,
	DRM_IOCTL_SLEIPNIR_BO_USERPTR,  DRM_IOCTL_SLEIPNIR_VM_MAP,
	DRM_IOCTL_SLEIPNIR_VM_UNMAP,    DRM_IOCTL_SLEIPNIR_SUBMIT,
	DRM_IOCTL_SLEIPNIR_GET_FAULT,
	DRM_IOCTL_VERSION,              DRM_IOCTL_GEM_CLOSE,
	DRM_IOCTL_GEM_FLINK,            DRM_IOCTL_GEM_OPEN,
	DRM_IOCTL_GET_CAP,              DRM_IOCTL_PRIME_HANDLE_TO_FD,
	DRM_IOCTL_PRIME_FD_TO_HANDLE,   DRM_IOCTL_SYNCOBJ_CREATE,
	DRM_IOCTL_SYNCOBJ_DESTROY,      DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD,
	DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, DRM_IOCTL_SYNCOBJ_WAIT,
	DRM_IOCTL_SYNCOBJ_RESET,        DRM_IOCTL_SYNCOBJ_SIGNAL,
	DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, DRM_IOCTL_SYNCOBJ_QUERY,
	DRM_IOCTL_SYNCOBJ_TRANSFER,     DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
};
#define N_REQUESTS (sizeof(g_requests) / sizeof(g_requests[0]))
#define N_DRV_REQUESTS 11

static unsigned long request_for_nr(unsigned int nr)
{
	for (size_t i = 0; i < N_REQUESTS; i++)
		if (_IOC_NR(g_requests[i]) == nr)
			return g_requests[i];
	return 0;
}

/*
 * Is err one sleipnir_drm.h allows for driver ioctl nr? Any ioctl may also
 * fail with EFAULT, ENOMEM, EINTR (ERESTARTSYS) and ENODEV.
 */
static bool documented(unsigned int nr, int err)
{
	unsigned int d = nr - DRM_COMMAND_BASE;

	if (d > DRM_SLEIPNIR_GET_FAULT) /* not an ioctl of this version */
		return err == EINVAL || err == ENODEV;
	if (err == 0 || err == EFAULT || err == ENOMEM || err == EINTR ||
	    err == ENODEV)
		return true;
	switch (d) {
	case DRM_SLEIPNIR_GET_PARAM:
	case DRM_SLEIPNIR_BO_CREATE:
	case DRM_SLEIPNIR_VM_UNMAP:
	case DRM_SLEIPNIR_GET_FAULT:
	case DRM_SLEIPNIR_BO_USERPTR:
		return err == EINVAL;
	case DRM_SLEIPNIR_BO_MMAP_OFFSET:
		return err == ENOENT || err == EPERM || err == EINVAL;
	case DRM_SLEIPNIR_BO_INFO:
		return err == ENOENT;
	case DRM_SLEIPNIR_BO_WAIT:
		return err == ENOENT || err == EINVAL || err == ETIMEDOUT;
	case DRM_SLEIPNIR_BO_SYNC:
		return err == ENOENT || err == EINVAL;
	case DRM_SLEIPNIR_VM_MAP:
		return err == ENOENT || err == EINVAL || err == ENOSPC;
	case DRM_SLEIPNIR_SUBMIT:
		return err == EINVAL || err == ENOENT || err == ECANCELED;
	}
	return false;
}

static const char *errno_name(int e)
{
	const char *n = e ? strerrorname_np(e) : "OK";

	return n ? n : "?";
}

/* Reports a contract violation (the first 25 in full). */
#define VIOLATION(...)                                                         \
	do {                                                                   \
		if (g_violations++ < 25) {                                     \
			printf("  VIOLATION (call %lu): ", g_total_calls);     \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
		}                                                              \
	} while (0)

static void dump_arg(const uint8_t *pre, unsigned int size)
{
	unsigned int n = size < 80 ? size : 80;

	printf("    arg:");
	for (unsigned int i = 0; i < n; i++)
		printf("%s%02x", i % 8 ? "" : " ", pre[i]);
	printf("\n");
}

/* --- the ioctl call ------------------------------------------------------ */

enum call_kind { CALL_EXACT, CALL_MAY_MUTATE, CALL_RAW };

/*
 * Runs request on fd with the argument at arg (which lives in g_arg or is a
 * bad pointer). Records the statistics, checks the errno against the
 * documentation for driver ioctls and the watchdog. Returns 0 or the errno.
 */
static int do_ioctl(int fd, unsigned long req, void *arg, enum call_kind kind,
		    bool mutated)
{
	unsigned int nr = _IOC_NR(req), size = _IOC_SIZE(req);
	uint8_t pre[80];
	int ret, err;

	if (arg == g_arg)
		memcpy(pre, g_arg, sizeof(pre));
	else
		memset(pre, 0, sizeof(pre));
	watchdog(true);
	ret = ioctl(fd, req, arg);
	err = ret < 0 ? errno : 0;
	watchdog(false);

	g_total_calls++;
	g_raw_calls += kind == CALL_RAW;
	g_mutated_calls += mutated;
	g_errno_hist[err > 0 && err < MAX_ERRNO ? err : MAX_ERRNO * !!err]++;
	g_nr_calls[nr & 0xff]++;
	g_nr_ok[nr & 0xff] += !err;
	g_nr_raw[nr & 0xff] += kind == CALL_RAW;
	if (g_alarmed) {
		g_blocked++;
		printf("  BLOCKED: %s (nr %#x, size %u) did not return within "
		       "%d s (errno %s)\n", nr_name(nr), nr, size,
		       CALL_WATCHDOG_S, errno_name(err));
		dump_arg(pre, size);
	}
	if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_BASE + 0x20 &&
	    !documented(nr, err)) {
		VIOLATION("%s (request %#lx, size %u, dir %u%s) returned %s "
			  "(%d), not documented",
			  nr_name(nr), req, size, (unsigned int)_IOC_DIR(req),
			  kind == CALL_RAW ? ", raw" : mutated ? ", mutated" : "",
			  errno_name(err), err);
		if (g_violations <= 25)
			dump_arg(pre, size);
	}
	return err;
}

static struct fbo *find_bo(struct ffile *f, uint32_t handle);
static void drop_bo(struct ffile *f, uint32_t handle);
static int find_map(struct ffile *f, uint64_t va, uint64_t size);

/* The bytes [off, off + n) of the argument as the kernel read them (it reads
 * _IOC_SIZE bytes when the request has _IOC_WRITE, zeros past them). */
static uint64_t kernel_saw(unsigned long req, unsigned int off, unsigned int n)
{
	unsigned int size = _IOC_DIR(req) & _IOC_WRITE ? _IOC_SIZE(req) : 0;
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		if (off + i < size)
			v |= (uint64_t)g_arg[off + i] << (8 * i);
	return v;
}

/*
 * After a raw or mutated call that succeeded: keeps the tracking of BO
 * handles and VM mappings exact by decoding what the kernel was given (and
 * gave back). Only what cannot be known marks the VM untracked.
 */
static void note_untracked_success(struct ffile *f, unsigned long req)
{
	switch (_IOC_NR(req)) {
	case 0x09: /* GEM_CLOSE */
		drop_bo(f, (uint32_t)kernel_saw(req, 0, 4));
		break;
	case NR_DRV(DRM_SLEIPNIR_VM_UNMAP): {
		int idx = find_map(f, kernel_saw(req, 0, 8),
				   kernel_saw(req, 8, 8));

		if (idx >= 0)
			f->map[idx] = f->map[--f->nmap];
		else
			f->vm_untracked = true;
		break;
	}
	case NR_DRV(DRM_SLEIPNIR_VM_MAP): {
		uint32_t flags = (uint32_t)kernel_saw(req, 4, 4);
		uint64_t size = kernel_saw(req, 16, 8), va = kernel_saw(req, 24, 8);

		if (flags & SLEIPNIR_VM_MAP_AUTO_VA) {
			if (!(_IOC_DIR(req) & _IOC_READ) || _IOC_SIZE(req) < 32) {
				f->vm_untracked = true; /* va not returned */
				break;
			}
			memcpy(&va, g_arg + 24, 8);
		}
		if (f->nmap < MAX_MAPS)
			f->map[f->nmap++] = (struct fmap){ va, size, NULL, true };
		else
			f->vm_untracked = true;
		break;
	}
	}
}

/*
 * Requests whose arguments get no bit flips: output pointers and userptr
 * ranges (a flipped pointer could name this process's memory for the
 * kernel or the GPU to write), TRANSFER's flags (WAIT_FOR_SUBMIT waits a
 * fixed 5 s) and the syncobj arrays' counts (see op_raw).
 */
static bool no_bit_flips(unsigned long req)
{
	switch (req) {
	case DRM_IOCTL_VERSION:
	case DRM_IOCTL_SLEIPNIR_BO_USERPTR:
	case DRM_IOCTL_SYNCOBJ_TRANSFER:
	case DRM_IOCTL_SYNCOBJ_WAIT:
	case DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT:
	case DRM_IOCTL_SYNCOBJ_RESET:
	case DRM_IOCTL_SYNCOBJ_SIGNAL:
	case DRM_IOCTL_SYNCOBJ_QUERY:
	case DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL:
		return true;
	}
	return false;
}

/*
 * A structured call: the len-byte struct s is copied into the guarded
 * argument buffer, possibly mutated (CALL_MAY_MUTATE: a different size or
 * direction in the request, or a flipped bit), and copied back after the
 * call. *mutated (may be NULL) tells whether it was.
 */
static int call(struct ffile *f, unsigned long req, void *s, size_t len,
		enum call_kind kind, bool *mutated)
{
	unsigned int size = _IOC_SIZE(req), dir = _IOC_DIR(req);
	bool mut = false;
	int err;

	memcpy(g_arg, s, len);
	if (kind == CALL_MAY_MUTATE && chance(12)) {
		mut = true;
		switch (rnd(4)) {
		case 0: /* shorter: the kernel sees zeros at the end */
			size = rnd(size);
			break;
		case 1: /* longer: random bytes after the struct */
			size += 1 + rnd(256);
			for (unsigned int i = (unsigned int)len; i < size; i++)
				g_arg[i] = (uint8_t)rnd64();
			break;
		case 2:
			dir = rnd(4);
			break;
		default:
			if (no_bit_flips(req))
				size = rnd(size);
			else
				g_arg[rnd((uint32_t)len)] ^=
					(uint8_t)(1u << rnd(8));
			break;
		}
		req = _IOC(dir, DRM_IOCTL_BASE, _IOC_NR(req), size);
	}
	err = do_ioctl(f->fd, req, g_arg, kind, mut);
	memcpy(s, g_arg, len);
	if (mutated)
		*mutated = mut;
	if (mut && !err)
		note_untracked_success(f, req);
	return err;
}

/* --- random argument material --------------------------------------------- */

static struct ffile *pick_file(void)
{
	return &g_file[rnd(NFILES)];
}

static struct fbo *pick_bo(struct ffile *f)
{
	return f->nbo ? &f->bo[rnd(f->nbo)] : NULL;
}

static uint32_t rand_handle(struct ffile *f)
{
	unsigned int r = rnd(100);

	if (r < 80 && f->nbo)
		return f->bo[rnd(f->nbo)].handle;
	if (r < 88)
		return 0;
	if (r < 95)
		return 1 + rnd(200);
	return (uint32_t)rnd64();
}

static uint32_t rand_sync(struct ffile *f)
{
	unsigned int r = rnd(100);

	if (r < 85 && f->nsync)
		return f->sync[rnd(f->nsync)];
	if (r < 92)
		return 0;
	return r < 97 ? 1 + rnd(100) : (uint32_t)rnd64();
}

/* A user pointer that is never this process's live memory (besides the
 * guarded scratch buffer): room bytes from it are safe to read/write. */
static uint64_t rand_uptr(size_t room)
{
	unsigned int r = rnd(100);

	if (r < 85 && room <= SCRATCH_SIZE)
		return (uint64_t)(uintptr_t)(g_scratch +
					     rnd((uint32_t)(SCRATCH_SIZE - room + 1)));
	switch (r % 6) {
	case 0: return 0;
	case 1: return 8;
	case 2: return (uint64_t)(uintptr_t)(g_scratch + SCRATCH_SIZE - 4);
	case 3: return (uint64_t)(uintptr_t)(g_scratch - PAGE);
	case 4: return 0xffff800008000000ull;
	default: return 0x0001000000000000ull + rnd64() % PAGE;
	}
}

static int64_t rand_abs_timeout(void)
{
	int64_t now = (int64_t)now_ns();

	switch (rnd(8)) {
	case 0: return 0;
	case 1: return now + rnd(20000000);
	case 2: return -1 - (int64_t)rnd(1000000);
	case 3: return now - 1000000000;
	case 4: return rnd(1000000);
	default: return now + rnd(2000000);
	}
}

/* A GPU address inside the window (fixed mappings go there). */
static uint64_t win_va(uint64_t size)
{
	uint64_t pages = (WIN_SIZE - size) / PAGE;

	return g_win + PAGE * (pages ? rnd64() % pages : 0);
}

static bool in_window(uint64_t va)
{
	return g_win_reserved && va >= g_win && va < g_win + WIN_SIZE;
}

/*
 * One 64-bit word of raw argument noise. Never a pointer to this process's
 * memory except the guarded scratch buffer and the PROT_NONE window.
 */
static uint64_t raw_word(struct ffile *f)
{
	switch (rnd(14)) {
	case 0: return rnd64() | 1ull << 62;
	case 1: return 0;
	case 2: return ~0ull;
	case 3: return rnd(1u << 20);
	/* Upper halves stay below 0x8000: never a mapped address. */
	case 4: return (uint64_t)(rand_handle(f) & 0x7fff) << (rnd(2) * 32) |
		       rand_handle(f) * rnd(2);
	case 5: return (uint64_t)rand_sync(f) |
		       (uint64_t)(rand_sync(f) & 0x7fff) << 32;
	case 6:
		if (g_win_reserved)
			return win_va(PAGE) + 8 * rnd(512);
		return rnd(1u << 16);
	case 7:
		if (f->nmap) {
			const struct fmap *m = &f->map[rnd(f->nmap)];

			if (in_window(m->va))
				return m->va + 64 * rnd((uint32_t)(m->size / 64));
		}
		return PAGE * rnd(256);
	case 8: return PAGE * rnd(256);
	case 9: return (uint64_t)(uintptr_t)g_scratch + 8 * rnd(SCRATCH_SIZE / 8);
	case 10: return (uint64_t)(rnd((uint32_t)1 << 31) | 0x40000000u) << 32 |
			(uint32_t)rnd64();
	case 11: return rnd(2) ? 1ull << rnd(20) : 1ull << (48 + rnd(16));
	case 12: return (uint64_t)rnd(16) | (uint64_t)rnd(64) << 32;
	default: return (uint64_t)rnd(4) << 32 | rnd(8);
	}
}

/* --- bookkeeping ---------------------------------------------------------- */

static void add_cpumap(void *p, size_t len)
{
	if (g_ncpumap < MAX_CPUMAPS) {
		g_cpumap[g_ncpumap].p = p;
		g_cpumap[g_ncpumap].len = len;
		g_ncpumap++;
	} else {
		munmap(p, len);
	}
}

static void add_fd(int *pool, int *n, int fd)
{
	if (*n < MAX_FDS)
		pool[(*n)++] = fd;
	else
		close(fd);
}

static struct fbo *find_bo(struct ffile *f, uint32_t handle)
{
	for (unsigned int i = 0; i < f->nbo; i++)
		if (f->bo[i].handle == handle)
			return &f->bo[i];
	return NULL;
}

static void add_bo(struct ffile *f, uint32_t handle, uint32_t flags,
		   uint64_t size, uint8_t *cpu)
{
	if (find_bo(f, handle) || f->nbo >= MAX_BOS)
		return;
	f->bo[f->nbo++] = (struct fbo){ handle, flags, size, cpu };
}

static void drop_bo(struct ffile *f, uint32_t handle)
{
	struct fbo *b = find_bo(f, handle);

	if (b)
		*b = f->bo[--f->nbo];
}

static bool overlaps_tracked(struct ffile *f, uint64_t va, uint64_t size)
{
	for (unsigned int i = 0; i < f->nmap; i++)
		if (va < f->map[i].va + f->map[i].size &&
		    f->map[i].va < va + size)
			return true;
	return false;
}

static int find_map(struct ffile *f, uint64_t va, uint64_t size)
{
	for (unsigned int i = 0; i < f->nmap; i++)
		if (f->map[i].va == va && f->map[i].size == size)
			return (int)i;
	return -1;
}

/* --- structured operations ------------------------------------------------ */

static void op_get_param(struct ffile *f)
{
	struct drm_sleipnir_get_param a = { 0 };
	const uint64_t sentinel = 0x0123456789abcdefull;
	bool mut;
	int err;

	a.param = chance(75) ? rnd((uint32_t)g_max_param + 1) :
		  chance(60) ? (uint32_t)g_max_param + 1 + rnd(64) :
			       (uint32_t)rnd64();
	a.pad = chance(95) ? 0 : 1 + rnd(0xffff);
	a.value = sentinel;
	err = call(f, DRM_IOCTL_SLEIPNIR_GET_PARAM, &a, sizeof(a),
		   CALL_MAY_MUTATE, &mut);
	if (mut)
		return;
	if (a.param <= g_max_param && !a.pad) {
		if (err)
			VIOLATION("GET_PARAM(%u): %s", a.param,
				  errno_name(err));
	} else if (err != EINVAL) {
		VIOLATION("GET_PARAM(param %u, pad %#x): %s, expected EINVAL",
			  a.param, a.pad, errno_name(err));
	} else if (a.value != sentinel) {
		VIOLATION("GET_PARAM(param %u, pad %#x) failed but changed "
			  "@value to %#llx", a.param, a.pad,
			  (unsigned long long)a.value);
	}
}

static const uint32_t k_bo_flags = SLEIPNIR_BO_CPU_CACHED |
				   SLEIPNIR_BO_GPU_READ_ONLY |
				   SLEIPNIR_BO_GPU_NOEXEC |
				   SLEIPNIR_BO_NO_CPU_MAP;

static void op_bo_create(struct ffile *f)
{
	struct drm_sleipnir_bo_create a = { 0 };
	uint64_t want;
	bool mut, bad = false;
	int err;

	switch (rnd(20)) {
	case 0: a.size = 0; bad = true; break;
	case 1: a.size = chance(50) ? ~0ull : 1ull << (41 + rnd(22)); bad = true; break;
	case 2: a.size = MAX_BO_SIZE; break;
	case 3: case 4: case 5: a.size = 1 + rnd(MAX_BO_SIZE); break;
	case 6: a.size = 1 + rnd(100); break;
	default: a.size = PAGE * (1 + rnd(32)); break;
	}
	switch (rnd(20)) {
	case 0: a.flags = rnd64() & ~k_bo_flags; bad = bad || a.flags; break;
	case 1: a.flags = rnd(2) ? SLEIPNIR_BO_USERPTR : SLEIPNIR_BO_IMPORTED;
		bad = true; break;
	default: a.flags = (uint32_t)rnd64() & k_bo_flags; break;
	}
	if (chance(4)) {
		a.handle = 1 + rnd(1000);
		bad = true;
	}
	want = a.size;
	err = call(f, DRM_IOCTL_SLEIPNIR_BO_CREATE, &a, sizeof(a),
		   CALL_MAY_MUTATE, &mut);
	if (mut)
		return;
	if (bad && err != EINVAL)
		VIOLATION("BO_CREATE(size %#llx, flags %#x, handle %u): %s, "
			  "expected EINVAL", (unsigned long long)want,
			  a.flags, err ? 0 : a.handle, errno_name(err));
	if (!bad && err && err != ENOMEM)
		VIOLATION("BO_CREATE(size %#llx, flags %#x): %s",
			  (unsigned long long)want, a.flags, errno_name(err));
	if (err)
		return;
	if (!a.handle || a.size != page_align(want))
		VIOLATION("BO_CREATE(size %#llx): handle %u, size %#llx "
			  "(expected %#llx)", (unsigned long long)want,
			  a.handle, (unsigned long long)a.size,
			  (unsigned long long)page_align(want));
	g_epoch_bytes += a.size;
	if (f->nbo < MAX_BOS && !bad)
		add_bo(f, a.handle, a.flags, a.size, NULL);
}

static void op_gem_close(struct ffile *f)
{
	struct drm_gem_close a = { .handle = rand_handle(f) };
	bool mut;
	int err;

	a.pad = chance(95) ? 0 : 1;
	err = call(f, DRM_IOCTL_GEM_CLOSE, &a, sizeof(a), CALL_MAY_MUTATE,
		   &mut);
	if (!err && !mut)
		drop_bo(f, a.handle);
}

/* Maps a BO for the CPU and touches it; checks what must fail does. */
static void op_bo_mmap(struct ffile *f)
{
	struct drm_sleipnir_bo_mmap_offset a = { .handle = rand_handle(f) };
	struct fbo *b;
	bool mut, tracked;
	uint8_t *p;
	int err;

	a.pad = chance(95) ? 0 : 1 + rnd(100);
	b = find_bo(f, a.handle);
	tracked = b && !f->handles_untracked;
	err = call(f, DRM_IOCTL_SLEIPNIR_BO_MMAP_OFFSET, &a, sizeof(a),
		   CALL_MAY_MUTATE, &mut);
	if (mut || !tracked)
		return;
	if (b->flags & (SLEIPNIR_BO_NO_CPU_MAP | SLEIPNIR_BO_USERPTR)) {
		if (err != EPERM && !(a.pad && err == EINVAL))
			VIOLATION("BO_MMAP_OFFSET of a %s BO: %s, expected "
				  "EPERM",
				  b->flags & SLEIPNIR_BO_USERPTR ? "userptr" :
								   "NO_CPU_MAP",
				  errno_name(err));
		return;
	}
	if (a.pad) {
		if (err != EINVAL)
			VIOLATION("BO_MMAP_OFFSET with pad %#x: %s, expected "
				  "EINVAL", a.pad, errno_name(err));
		return;
	}
	if (err) {
		if (err != ENOMEM)
			VIOLATION("BO_MMAP_OFFSET of BO %u: %s", a.handle,
				  errno_name(err));
		return;
	}
	/* A mapping longer than the BO is refused by mmap. */
	if (chance(10)) {
		p = mmap(NULL, b->size + PAGE, PROT_READ | PROT_WRITE,
			 MAP_SHARED, f->fd, (off_t)a.offset);
		if (p != MAP_FAILED) {
			VIOLATION("mmap of %#llx bytes of a %#llx-byte BO "
				  "succeeded", (unsigned long long)(b->size + PAGE),
				  (unsigned long long)b->size);
			munmap(p, b->size + PAGE);
		}
		return;
	}
	p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd,
		 (off_t)a.offset);
	if (p == MAP_FAILED) {
		if (errno != ENOMEM)
			VIOLATION("mmap(BO %u, %#llx bytes, offset %#llx): %s",
				  a.handle, (unsigned long long)b->size,
				  (unsigned long long)a.offset, errno_name(errno));
		return;
	}
	{
		uint64_t off = 8 * rnd((uint32_t)(b->size / 8)), v = rnd64(), got = 0;
		int sig = cpu_write(p + off, &v, sizeof(v));

		if (!sig)
			sig = cpu_read(&got, p + off, sizeof(got));
		if (sig) {
			g_cpu_faults++;
			VIOLATION("signal %d touching BO %u's CPU mapping at "
				  "offset %#llx", sig, a.handle,
				  (unsigned long long)off);
		} else if (got != v && !(b->flags & SLEIPNIR_BO_GPU_READ_ONLY)) {
			/* The GPU may have written there meanwhile; only
			 * note it (not a contract). */
		}
	}
	if (!b->cpu && g_ncpumap < MAX_CPUMAPS) {
		b->cpu = p;
		add_cpumap(p, b->size);
	} else {
		munmap(p, b->size);
	}
}

static void op_bo_info(struct ffile *f)
{
	struct drm_sleipnir_bo_info a = { .handle = rand_handle(f) };
	struct fbo *b = find_bo(f, a.handle);
	const uint32_t up_flags = SLEIPNIR_BO_GPU_READ_ONLY |
				  SLEIPNIR_BO_GPU_NOEXEC;
	bool mut, ok, tracked = b && !f->handles_untracked;
	int err;

	err = call(f, DRM_IOCTL_SLEIPNIR_BO_INFO, &a, sizeof(a),
		   CALL_MAY_MUTATE, &mut);
	if (mut || !tracked)
		return;
	if (err) {
		if (err != ENOMEM)
			VIOLATION("BO_INFO of live BO %u: %s", a.handle,
				  errno_name(err));
		return;
	}
	if (b->flags & SLEIPNIR_BO_USERPTR)
		ok = (a.flags & SLEIPNIR_BO_USERPTR) &&
		     (a.flags & up_flags) == (b->flags & up_flags);
	else
		ok = !(a.flags & SLEIPNIR_BO_USERPTR) &&
		     (a.flags & k_bo_flags) == (b->flags & k_bo_flags);
	if (!ok || a.size != b->size)
		VIOLATION("BO_INFO(%u): size %#llx flags %#x, created with "
			  "size %#llx flags %#x", a.handle,
			  (unsigned long long)a.size, a.flags,
			  (unsigned long long)b->size, b->flags);
}

static void op_bo_wait(struct ffile *f)
{
	struct drm_sleipnir_bo_wait a = { .handle = rand_handle(f) };

	a.flags = chance(95) ? 0 : 1u << rnd(32);
	a.timeout_ns = rand_abs_timeout();
	call(f, DRM_IOCTL_SLEIPNIR_BO_WAIT, &a, sizeof(a), CALL_MAY_MUTATE,
	     NULL);
}

static void op_bo_sync(struct ffile *f)
{
	struct drm_sleipnir_bo_sync a = { .handle = rand_handle(f) };
	struct fbo *b = find_bo(f, a.handle);
	uint64_t size = b ? b->size : PAGE;

	a.op = chance(85) ? 1 + rnd(2) : rnd(2) ? 0 : (uint32_t)rnd64();
	switch (rnd(8)) {
	case 0: a.offset = 0; a.size = 0; break;
	case 1: a.offset = size; a.size = 1; break;
	case 2: a.offset = rnd64(); a.size = rnd64(); break;
	case 3: a.offset = size - 1; a.size = 2; break;
	default:
		a.offset = rnd((uint32_t)size);
		a.size = 1 + rnd((uint32_t)(size - a.offset));
		break;
	}
	call(f, DRM_IOCTL_SLEIPNIR_BO_SYNC, &a, sizeof(a), CALL_MAY_MUTATE,
	     NULL);
}

static void op_bo_userptr(struct ffile *f)
{
	struct drm_sleipnir_bo_userptr a = { 0 };
	bool mut, einval = false, efault = false, rw = false;
	uint64_t pages;
	int err;

	switch (rnd(20)) {
	case 0: case 1: case 2: /* read-only memory */
		pages = 1 + rnd(UPTR_RO_SIZE / PAGE);
		a.user_ptr = (uint64_t)(uintptr_t)g_uptr_ro +
			     PAGE * rnd((uint32_t)(UPTR_RO_SIZE / PAGE - pages + 1));
		a.size = pages * PAGE;
		break;
	case 3: /* unaligned */
		a.user_ptr = (uint64_t)(uintptr_t)g_uptr_rw + 1 + rnd(PAGE - 1);
		a.size = PAGE;
		einval = true;
		break;
	case 4: /* no memory there */
		a.user_ptr = (uint64_t)(uintptr_t)(g_uptr_rw - PAGE);
		a.size = PAGE * (1 + rnd(2));
		efault = true;
		break;
	case 5:
		a.user_ptr = 0;
		a.size = PAGE;
		einval = true;
		break;
	case 6:
		a.user_ptr = (uint64_t)(uintptr_t)g_uptr_rw;
		a.size = chance(50) ? 0 : 1 + rnd(PAGE - 1);
		einval = true;
		break;
	case 7:
		a.user_ptr = (uint64_t)(uintptr_t)g_uptr_rw;
		a.size = ~0ull & ~(PAGE - 1);
		einval = true; /* wraps */
		break;
	default:
		pages = 1 + rnd(UPTR_RW_SIZE / PAGE);
		a.user_ptr = (uint64_t)(uintptr_t)g_uptr_rw +
			     PAGE * rnd((uint32_t)(UPTR_RW_SIZE / PAGE - pages + 1));
		a.size = pages * PAGE;
		rw = true;
		break;
	}
	a.flags = (uint32_t)rnd64() &
		  (SLEIPNIR_BO_GPU_READ_ONLY | SLEIPNIR_BO_GPU_NOEXEC);
	if (chance(5)) {
		a.flags |= 1u << rnd(32);
		einval = einval || (a.flags & ~(uint32_t)(SLEIPNIR_BO_GPU_READ_ONLY |
						SLEIPNIR_BO_GPU_NOEXEC));
	}
	if (!rw && !einval && !efault &&
	    !(a.flags & SLEIPNIR_BO_GPU_READ_ONLY))
		efault = true; /* read-only memory, writable for the GPU */
	if (chance(3)) {
		a.handle = 1 + rnd(100);
		einval = true;
	}
	err = call(f, DRM_IOCTL_SLEIPNIR_BO_USERPTR, &a, sizeof(a),
		   CALL_MAY_MUTATE, &mut);
	if (mut)
		return;
	if (einval && !efault && err != EINVAL)
		VIOLATION("BO_USERPTR(%#llx, %#llx, flags %#x): %s, expected "
			  "EINVAL", (unsigned long long)a.user_ptr,
			  (unsigned long long)a.size, a.flags, errno_name(err));
	else if (efault && !einval && err != EFAULT)
		VIOLATION("BO_USERPTR(%#llx, %#llx, flags %#x): %s, expected "
			  "EFAULT", (unsigned long long)a.user_ptr,
			  (unsigned long long)a.size, a.flags, errno_name(err));
	else if (!einval && !efault && err && err != ENOMEM)
		VIOLATION("BO_USERPTR(%#llx, %#llx, flags %#x): %s",
			  (unsigned long long)a.user_ptr,
			  (unsigned long long)a.size, a.flags, errno_name(err));
	if (!err && !einval && !efault)
		add_bo(f, a.handle, a.flags | SLEIPNIR_BO_USERPTR, a.size,
		       rw ? (uint8_t *)(uintptr_t)a.user_ptr : NULL);
}

static void op_vm_map(struct ffile *f)
{
	struct drm_sleipnir_vm_map a = { 0 };
	struct fbo *b = pick_bo(f);
	uint64_t bo_size = b ? b->size : PAGE;
	bool mut, tracked, bad = false, autova, ro;
	int err;

	a.handle = b && chance(92) ? b->handle : rand_handle(f);
	tracked = b && a.handle == b->handle && !f->handles_untracked &&
		  !f->vm_untracked;
	a.flags = (uint32_t)rnd64() &
		  (SLEIPNIR_VM_MAP_READ_ONLY | SLEIPNIR_VM_MAP_NOEXEC);
	if (chance(25))
		a.flags |= SLEIPNIR_VM_MAP_AUTO_VA;
	if (chance(4)) {
		a.flags |= 8u << rnd(29);
		bad = true;
	}
	autova = a.flags & SLEIPNIR_VM_MAP_AUTO_VA;
	ro = (a.flags & SLEIPNIR_VM_MAP_READ_ONLY) ||
	     (b && (b->flags & SLEIPNIR_BO_GPU_READ_ONLY));
	switch (rnd(12)) {
	case 0: a.bo_offset = PAGE * rnd((uint32_t)(bo_size / PAGE));
		a.size = bo_size - a.bo_offset; break;
	case 1: a.bo_offset = 0; a.size = 0; bad = true; break;
	case 2: a.bo_offset = 0; a.size = bo_size + PAGE; bad = true; break;
	case 3: a.bo_offset = 1 + rnd(PAGE - 1); a.size = PAGE; bad = true; break;
	case 4: a.bo_offset = bo_size; a.size = PAGE; bad = true; break;
	case 5: a.bo_offset = 0; a.size = PAGE * (1 + rnd((uint32_t)(bo_size / PAGE)));
		break;
	default: a.bo_offset = 0; a.size = bo_size; break;
	}
	if (autova) {
		a.va = chance(95) ? 0 : win_va(PAGE);
		bad = bad || a.va;
	} else {
		switch (rnd(14)) {
		case 0: a.va = g_va_start > PAGE ? g_va_start - PAGE : 0; bad = true; break;
		case 1: a.va = g_va_end - page_align(a.size ? a.size : PAGE);
			break;
		case 2: a.va = g_va_end - page_align(a.size ? a.size : PAGE) + PAGE;
			bad = true; break;
		case 3: a.va = win_va(2 * PAGE) + 8 + 8 * rnd(500); bad = true; break;
		case 4: a.va = 0; bad = true; break;
		default: a.va = win_va(a.size > WIN_SIZE / 2 ? PAGE : a.size); break;
		}
	}
	if (a.size % PAGE || a.size == 0)
		bad = true;
	err = call(f, DRM_IOCTL_SLEIPNIR_VM_MAP, &a, sizeof(a),
		   CALL_MAY_MUTATE, &mut);
	if (mut)
		return;
	if (!tracked) {
		/* Still remember what was mapped, as a target for jobs. */
		if (!err && b && a.handle == b->handle && !bad &&
		    f->nmap < MAX_MAPS)
			f->map[f->nmap++] = (struct fmap){
				a.va, a.size,
				b->cpu ? b->cpu + a.bo_offset : NULL, ro };
		else if (!err)
			f->vm_untracked = true; /* mapped, but not tracked */
		return;
	}
	if (bad) {
		if (err != EINVAL)
			VIOLATION("VM_MAP(BO %u of %#llx bytes, flags %#x, "
				  "offset %#llx, size %#llx, va %#llx): %s, "
				  "expected EINVAL", a.handle,
				  (unsigned long long)bo_size, a.flags,
				  (unsigned long long)a.bo_offset,
				  (unsigned long long)a.size,
				  (unsigned long long)a.va, errno_name(err));
		if (!err)
			f->vm_untracked = true;
		return;
	}
	if (!autova && overlaps_tracked(f, a.va, a.size)) {
		if (err != EINVAL) {
			VIOLATION("VM_MAP at %#llx (+%#llx) over an existing "
				  "mapping: %s, expected EINVAL",
				  (unsigned long long)a.va,
				  (unsigned long long)a.size, errno_name(err));
			if (!err)
				f->vm_untracked = true;
		}
		return;
	}
	if (err) {
		if (err != ENOMEM && !(autova && err == ENOSPC))
			VIOLATION("VM_MAP(BO %u, flags %#x, offset %#llx, size "
				  "%#llx, va %#llx): %s", a.handle, a.flags,
				  (unsigned long long)a.bo_offset,
				  (unsigned long long)a.size,
				  (unsigned long long)a.va, errno_name(err));
		return;
	}
	if (autova && (a.va % PAGE || a.va < g_va_start ||
		       a.va + a.size > g_va_end ||
		       overlaps_tracked(f, a.va, a.size))) {
		VIOLATION("VM_MAP AUTO_VA of %#llx bytes returned %#llx (VA "
			  "[%#llx, %#llx), overlap %d)",
			  (unsigned long long)a.size, (unsigned long long)a.va,
			  (unsigned long long)g_va_start,
			  (unsigned long long)g_va_end,
			  overlaps_tracked(f, a.va, a.size));
		f->vm_untracked = true;
		return;
	}
	if (f->nmap < MAX_MAPS)
		f->map[f->nmap++] = (struct fmap){
			a.va, a.size, b->cpu ? b->cpu + a.bo_offset : NULL, ro };
	else
		f->vm_untracked = true; /* mapped, but not tracked */
}

static void op_vm_unmap(struct ffile *f)
{
	struct drm_sleipnir_vm_unmap a = { 0 };
	bool mut, tracked = !f->vm_untracked;
	int idx = -1, err;

	if (f->nmap && chance(85)) {
		const struct fmap *m = &f->map[rnd(f->nmap)];

		a.va = m->va;
		a.size = m->size;
		switch (rnd(10)) {
		case 0: a.size += PAGE; break;
		case 1: a.size -= PAGE; break;
		case 2: a.va += PAGE; a.size -= PAGE; break;
		case 3: a.flags = 1u << rnd(32); break;
		case 4: a.pad = 1 + rnd(10); break;
		default: break;
		}
	} else {
		a.va = win_va(PAGE);
		a.size = PAGE * (1 + rnd(4));
	}
	idx = find_map(f, a.va, a.size);
	err = call(f, DRM_IOCTL_SLEIPNIR_VM_UNMAP, &a, sizeof(a),
		   CALL_MAY_MUTATE, &mut);
	if (mut)
		return;
	if (!err && idx >= 0)
		f->map[idx] = f->map[--f->nmap];
	if (!tracked)
		return;
	if (idx >= 0 && !a.flags && !a.pad) {
		if (err && err != ENOMEM)
			VIOLATION("VM_UNMAP of mapping %#llx+%#llx: %s",
				  (unsigned long long)a.va,
				  (unsigned long long)a.size, errno_name(err));
	} else if (err != EINVAL) {
		VIOLATION("VM_UNMAP(%#llx, %#llx, flags %#x, pad %#x) of no "
			  "mapping: %s, expected EINVAL",
			  (unsigned long long)a.va, (unsigned long long)a.size,
			  a.flags, a.pad, errno_name(err));
		if (!err)
			f->vm_untracked = true;
	}
}

/* A GPU address for a WRITE_VALUE target or a next pointer. */
static uint64_t rand_gpu_target(struct ffile *f)
{
	unsigned int r = rnd(100);

	if (r < 55 && f->nmap) {
		const struct fmap *m = &f->map[rnd(f->nmap)];

		return m->va + 8 * rnd((uint32_t)(m->size / 8));
	}
	if (r < 75)
		return win_va(PAGE) + 8 * rnd(512); /* likely unmapped */
	if (r < 82)
		return 8 * rnd(512);                 /* below VA_START */
	if (r < 90)
		return g_va_end + 8 * rnd(512);     /* beyond the VA space */
	return rnd64();
}

/* A GPU address a job may write (8 bytes), or 0 when there is none. */
static uint64_t writable_target(struct ffile *f)
{
	for (int tries = 0; tries < 8 && f->nmap; tries++) {
		const struct fmap *m = &f->map[rnd(f->nmap)];

		if (!m->ro)
			return m->va + 8 * rnd((uint32_t)(m->size / 8));
	}
	return 0;
}

/*
 * Writes a chain of up to 8 jobs at cpu (GPU address va): a clean one
 * (NULL and WRITE_VALUE jobs into writable mappings, well linked, which
 * should run to completion) or one with garbage, bad links and bad targets.
 */
static void write_chain(struct ffile *f, uint8_t *cpu, uint64_t va,
			uint64_t room, bool clean)
{
	unsigned int n = 1 + rnd((uint32_t)(room / 64 < 8 ? room / 64 : 8));
	uint8_t job[64];

	for (unsigned int k = 0; k < n; k++) {
		uint64_t next = k + 1 < n ? va + 64ull * (k + 1) : 0;
		uint64_t target = clean ? writable_target(f) : 0;
		uint32_t r = rnd(100);

		if (clean) {
			if (target && r < 70)
				mali_pack_write_value_job(
					job, (uint16_t)(k + 1),
					k && chance(30) ? (uint16_t)k : 0, 0,
					next, target, 1 + rnd(3));
			else
				mali_pack_null_job(job, (uint16_t)(k + 1), 0,
						   0, next);
			r = 100; /* skip the noisy kinds below */
		}
		if (!clean && chance(6))
			next = chance(50) ? va : rand_gpu_target(f) & ~63ull;
		if (r == 100) {
			/* packed above */
		} else if (r < 35) {
			uint32_t type = chance(90) ? 1 + rnd(3) : (uint32_t)rnd64();

			mali_pack_write_value_job(job, (uint16_t)(k + 1), 0, 0,
						  next, rand_gpu_target(f), type);
		} else if (r < 60) {
			mali_pack_null_job(job, (uint16_t)(k + 1),
					   chance(80) ? 0 : (uint16_t)rnd(8), 0,
					   next);
		} else if (r < 68) {
			mali_pack_job_header(job, MDG_JOB_TYPE_CACHE_FLUSH,
					     (uint16_t)(k + 1), 0, 0, next);
			for (unsigned int i = 32; i < 64; i++)
				job[i] = (uint8_t)rnd64();
		} else if (r < 78) {
			mali_pack_job_header(job, (unsigned int)rnd(128),
					     (uint16_t)rnd64(), (uint16_t)rnd(4),
					     (uint16_t)rnd(4), next);
			for (unsigned int i = 32; i < 64; i++)
				job[i] = (uint8_t)rnd64();
		} else {
			for (unsigned int i = 0; i < 64; i++)
				job[i] = (uint8_t)rnd64();
			if (chance(50))
				mali_job_set_next(job, next);
		}
		/* Never the model's test-hang job, whatever the noise. */
		if (mali_job_header_type(job) == MDG_JOB_TYPE_WRITE_VALUE &&
		    mdg_get(job + MDG_WRITE_VALUE_JOB_PAYLOAD_OFFSET,
			    MDG_WRITE_VALUE_PAYLOAD_TYPE) ==
			    SGPU_TEST_HANG_VALUE_TYPE)
			mdg_set(job + MDG_WRITE_VALUE_JOB_PAYLOAD_OFFSET,
				MDG_WRITE_VALUE_PAYLOAD_TYPE,
				MDG_WRITE_VALUE_TYPE_ZERO);
		if (cpu_write(cpu + 64ull * k, job, sizeof(job))) {
			g_cpu_faults++;
			VIOLATION("signal writing a job into a BO's CPU "
				  "mapping at GPU %#llx",
				  (unsigned long long)(va + 64ull * k));
			return;
		}
	}
	g_chains_written++;
}

static const uint32_t k_reqs = SLEIPNIR_REQ_NULL | SLEIPNIR_REQ_WRITE_VALUE |
			       SLEIPNIR_REQ_CACHE_FLUSH | SLEIPNIR_REQ_COMPUTE |
			       SLEIPNIR_REQ_VERTEX | SLEIPNIR_REQ_GEOMETRY |
			       SLEIPNIR_REQ_TILER | SLEIPNIR_REQ_FUSED |
			       SLEIPNIR_REQ_FRAGMENT;

/* Fills an obj_array of sync ops in the scratch buffer at *off. */
static void rand_sync_array(struct ffile *f, struct drm_sleipnir_obj_array *arr,
			    size_t *off, bool out)
{
	unsigned int n = chance(out ? 45 : 65) ? 0 : 1 + rnd(3);
	uint32_t stride = sizeof(struct drm_sleipnir_sync_op);
	struct drm_sleipnir_sync_op op;

	if (chance(5))
		stride = (uint32_t[]){ 0, 4, 8, 12, 24, 32, 64 }[rnd(7)];
	if (chance(3))
		n = 4097 + rnd(100);
	arr->stride = stride;
	arr->count = n;
	arr->array = (uint64_t)(uintptr_t)(g_scratch + *off);
	if (chance(4))
		arr->array = rand_uptr(SCRATCH_SIZE / 2);
	for (unsigned int i = 0; i < n && *off + 64 <= SCRATCH_SIZE / 2; i++) {
		unsigned int si = f->nsync ? rnd(f->nsync) : 0;

		memset(&op, 0, sizeof(op));
		op.handle = rand_sync(f);
		if (out && f->nsync && chance(15)) {
			op.handle = f->sync[si];
			op.flags = SLEIPNIR_SYNC_OP_TIMELINE;
			op.point = ++f->tl_next[si];
		} else if (!out && chance(10)) {
			op.flags = SLEIPNIR_SYNC_OP_TIMELINE;
			op.point = 1 + rnd(4);
		}
		if (chance(3))
			op.flags |= 2u << rnd(31);
		if (chance(3))
			op.point = rnd64();
		memset(g_scratch + *off, 0, stride > 64 ? 64 : stride);
		memcpy(g_scratch + *off, &op,
		       stride < sizeof(op) ? stride : sizeof(op));
		if (stride > sizeof(op) && chance(20))
			g_scratch[*off + sizeof(op) +
				  rnd(stride - (uint32_t)sizeof(op))] = 1;
		*off += stride ? stride : 8;
	}
	*off = (*off + 63) & ~(size_t)63;
}

static void op_get_fault(struct ffile *f);

static void op_submit(struct ffile *f)
{
	struct drm_sleipnir_submit a = { 0 };
	/* The second file mostly runs clean chains, the first mostly noise. */
	const bool calm = f == &g_file[1];
	bool clean = false;
	size_t off = 0;
	unsigned int nbos;
	uint32_t bstride = sizeof(struct drm_sleipnir_bo_ref);
	int err;

	/* Where the chain starts. */
	{
		unsigned int r = rnd(100);

		if ((r < 65 || (calm && r < 95)) && f->nmap) {
			const struct fmap *m = &f->map[rnd(f->nmap)];
			uint64_t slot;

			/*
			 * A clean chain needs a CPU view to be written and a
			 * writable mapping: the GPU writes each job's status
			 * back into its header.
			 */
			clean = chance(calm ? 80 : 25);
			for (int tries = 0; clean && (!m->cpu || m->ro) &&
					    tries < 8; tries++)
				m = &f->map[rnd(f->nmap)];
			clean = clean && m->cpu && !m->ro;
			slot = 64ull * rnd((uint32_t)(m->size / 64));
			a.jc = m->va + slot;
			if (m->cpu && (clean || chance(85)))
				write_chain(f, m->cpu + slot, a.jc,
					    m->size - slot, clean);
		} else if (r < 80) {
			a.jc = win_va(PAGE) + 64 * rnd(64); /* likely unmapped */
		} else if (r < 85) {
			a.jc = 0;
		} else if (r < 90) {
			a.jc = (f->nmap ? f->map[0].va : win_va(PAGE)) + 8 + 8 * rnd(7);
		} else {
			a.jc = rand_gpu_target(f) & ~63ull;
		}
	}
	rand_sync_array(f, &a.in_syncs, &off, false);
	rand_sync_array(f, &a.out_syncs, &off, true);
	nbos = chance(30) ? 0 : 1 + rnd(4);
	if (chance(4))
		bstride = (uint32_t[]){ 0, 4, 12, 16, 64 }[rnd(5)];
	if (chance(2))
		nbos = 4097;
	a.bos.stride = bstride;
	a.bos.count = nbos;
	a.bos.array = (uint64_t)(uintptr_t)(g_scratch + SCRATCH_SIZE / 2);
	for (unsigned int i = 0; i < nbos && i < 64; i++) {
		struct drm_sleipnir_bo_ref ref = {
			.handle = rand_handle(f),
			.flags = chance(50) ? SLEIPNIR_BO_REF_WRITE : 0,
		};

		if (chance(3))
			ref.flags |= 1u << rnd(32);
		memcpy(g_scratch + SCRATCH_SIZE / 2 + 8 * i, &ref, sizeof(ref));
	}
	if (chance(3))
		a.bos.array = rand_uptr(SCRATCH_SIZE);
	switch (rnd(20)) {
	case 0: a.requirements = 0; break;
	case 1: a.requirements = (uint32_t)rnd64(); break;
	case 2: a.requirements = (uint32_t)rnd64() & k_reqs; break;
	case 3: case 4: a.requirements = SLEIPNIR_REQ_WRITE_VALUE |
					  SLEIPNIR_REQ_COMPUTE; break;
	default: a.requirements = SLEIPNIR_REQ_NULL | SLEIPNIR_REQ_WRITE_VALUE |
				  (chance(30) ? SLEIPNIR_REQ_CACHE_FLUSH : 0);
		break;
	}
	a.flags = chance(97) ? 0 : 1u << rnd(32);
	a.timeout_ms = 1 + rnd(MAX_SUBMIT_TIMEOUT_MS);
	a.pad = chance(97) ? 0 : 1;
	err = call(f, DRM_IOCTL_SLEIPNIR_SUBMIT, &a, sizeof(a),
		   CALL_MAY_MUTATE, NULL);
	g_submits_ok += !err;
	g_clean_submits += !err && clean;
	/* The file has an unread fault: often read it at once. */
	if (err == ECANCELED && chance(50))
		op_get_fault(f);
}

static void op_get_fault(struct ffile *f)
{
	struct drm_sleipnir_get_fault a = { 0 };
	bool mut;
	int err;

	a.flags = chance(80) ? SLEIPNIR_GET_FAULT_CLEAR :
		  chance(70) ? 0 : (uint32_t)rnd64();
	a.pad = chance(95) ? 0 : 1;
	err = call(f, DRM_IOCTL_SLEIPNIR_GET_FAULT, &a, sizeof(a),
		   CALL_MAY_MUTATE, &mut);
	if (mut)
		return;
	if ((a.flags & ~(uint32_t)SLEIPNIR_GET_FAULT_CLEAR) || a.pad) {
		if (err != EINVAL)
			VIOLATION("GET_FAULT(flags %#x, pad %#x): %s, expected "
				  "EINVAL", a.flags, a.pad, errno_name(err));
		return;
	}
	if (err) {
		VIOLATION("GET_FAULT: %s", errno_name(err));
		return;
	}
	if ((a.count == 0) != (a.kind == SLEIPNIR_FAULT_NONE) ||
	    a.kind > SLEIPNIR_FAULT_TIMEOUT ||
	    (a.kind == SLEIPNIR_FAULT_MMU && a.access > SLEIPNIR_ACCESS_WRITE) ||
	    (a.kind != SLEIPNIR_FAULT_MMU && (a.address || a.access)))
		VIOLATION("GET_FAULT: count %u kind %u exception %#x address "
			  "%#llx jc %#llx access %u: inconsistent", a.count,
			  a.kind, a.exception_code,
			  (unsigned long long)a.address,
			  (unsigned long long)a.jc, a.access);
}

/*
 * Runs a long but valid chain (LONG_CHAIN_JOBS NULL jobs, built once per
 * file and epoch, ~10 ms on the board) with a timeout of 1 to 4 ms: a
 * chain still running while the fuzzer goes on, unmaps or closes the
 * file, and one the driver should stop with -ETIMEDOUT, without a job that
 * would hang. (The driver checks deadlines on a 50 ms tick, so today these
 * chains complete; either outcome is a documented one.)
 */
static void op_long_chain(struct ffile *f)
{
	struct drm_sleipnir_submit a = { 0 };
	struct drm_sleipnir_sync_op out = { 0 };
	int err;

	if (!f->long_va) {
		struct drm_sleipnir_bo_create c = {
			.size = LONG_CHAIN_JOBS * 64ull };
		struct drm_sleipnir_vm_map m = { 0 };
		struct drm_sleipnir_bo_mmap_offset mo = { 0 };
		uint8_t *p = NULL;

		if (f->nmap >= MAX_MAPS ||
		    call(f, DRM_IOCTL_SLEIPNIR_BO_CREATE, &c, sizeof(c),
			 CALL_EXACT, NULL))
			return;
		g_epoch_bytes += c.size;
		m.handle = c.handle;
		m.flags = SLEIPNIR_VM_MAP_AUTO_VA;
		m.size = c.size;
		mo.handle = c.handle;
		if (!call(f, DRM_IOCTL_SLEIPNIR_BO_MMAP_OFFSET, &mo, sizeof(mo),
			  CALL_EXACT, NULL)) {
			void *q = mmap(NULL, c.size, PROT_READ | PROT_WRITE,
				       MAP_SHARED, f->fd, (off_t)mo.offset);

			p = q == MAP_FAILED ? NULL : q;
		}
		if (p) {
			add_cpumap(p, c.size);
			for (unsigned int k = 0; k < LONG_CHAIN_JOBS; k++)
				mali_pack_null_job(p + 64ull * k,
						   (uint16_t)(k % 65535 + 1), 0,
						   0, 0);
			if (!call(f, DRM_IOCTL_SLEIPNIR_VM_MAP, &m, sizeof(m),
				  CALL_EXACT, NULL)) {
				for (unsigned int k = 0; k + 1 < LONG_CHAIN_JOBS;
				     k++)
					mali_job_set_next(p + 64ull * k,
							  m.va + 64ull * (k + 1));
				f->long_va = m.va;
				f->map[f->nmap++] = (struct fmap){
					m.va, m.size, NULL, true };
			}
		}
		/* The mappings keep the BO; the handle is not needed. */
		{
			struct drm_gem_close gc = { .handle = c.handle };

			call(f, DRM_IOCTL_GEM_CLOSE, &gc, sizeof(gc),
			     CALL_EXACT, NULL);
		}
		if (!f->long_va)
			return;
	}
	if (f->nsync) {
		out.handle = f->sync[rnd(f->nsync)];
		a.out_syncs.stride = sizeof(out);
		a.out_syncs.count = 1;
		a.out_syncs.array = (uint64_t)(uintptr_t)g_scratch;
		memcpy(g_scratch, &out, sizeof(out));
	}
	a.jc = f->long_va;
	a.requirements = SLEIPNIR_REQ_NULL;
	a.timeout_ms = 1 + rnd(4);
	err = call(f, DRM_IOCTL_SLEIPNIR_SUBMIT, &a, sizeof(a), CALL_EXACT,
		   NULL);
	g_submits_ok += !err;
	g_long_submits += !err;
	if (err == ECANCELED)
		op_get_fault(f);
}

/* --- structured core DRM operations ------------------------------------- */

static int rand_fd(struct ffile *f)
{
	switch (rnd(10)) {
	case 0: case 1: case 2: case 3: case 4:
		return g_ndmabuf ? g_dmabuf[rnd(g_ndmabuf)] : -1;
	case 5: return g_nsyncfile ? g_syncfile[rnd(g_nsyncfile)] : 0;
	case 6: return g_nsobjfd ? g_sobjfd[rnd(g_nsobjfd)] : 1;
	case 7: return f->fd;
	case 8: return g_file[rnd(NFILES)].fd;
	default: return chance(50) ? -1 : (int)rnd(1024);
	}
}

static void op_prime_export(struct ffile *f)
{
	struct drm_prime_handle a = { .handle = rand_handle(f), .fd = -1 };
	struct fbo *b = find_bo(f, a.handle);
	bool mut;
	int err;

	a.flags = chance(70) ? DRM_CLOEXEC | DRM_RDWR :
		  chance(70) ? DRM_CLOEXEC : (uint32_t)rnd64();
	err = call(f, DRM_IOCTL_PRIME_HANDLE_TO_FD, &a, sizeof(a),
		   CALL_MAY_MUTATE, &mut);
	if (!err && a.fd >= 0)
		add_fd(g_dmabuf, &g_ndmabuf, a.fd);
	if (!mut && !err && b && !f->handles_untracked &&
	    (b->flags & SLEIPNIR_BO_USERPTR))
		VIOLATION("a userptr BO (%u) was exported", a.handle);
}

static void op_prime_import(struct ffile *f)
{
	struct drm_prime_handle a = { .fd = rand_fd(f) };
	bool mut;
	int err;

	a.flags = chance(95) ? 0 : (uint32_t)rnd64();
	err = call(f, DRM_IOCTL_PRIME_FD_TO_HANDLE, &a, sizeof(a),
		   CALL_MAY_MUTATE, &mut);
	if (!err && !mut && !find_bo(f, a.handle)) {
		struct drm_sleipnir_bo_info info = { .handle = a.handle };

		if (!call(f, DRM_IOCTL_SLEIPNIR_BO_INFO, &info, sizeof(info),
			  CALL_EXACT, NULL))
			add_bo(f, a.handle,
			       info.flags & ~(uint32_t)SLEIPNIR_BO_IMPORTED,
			       info.size, NULL);
	}
}

static void op_syncobj_create(struct ffile *f)
{
	struct drm_syncobj_create a = { 0 };
	bool mut;
	int err;

	a.flags = chance(80) ? 0 : chance(75) ? DRM_SYNCOBJ_CREATE_SIGNALED :
					       (uint32_t)rnd64();
	err = call(f, DRM_IOCTL_SYNCOBJ_CREATE, &a, sizeof(a), CALL_MAY_MUTATE,
		   &mut);
	if (!err && !mut && f->nsync < MAX_SYNCS) {
		f->tl_next[f->nsync] = 0;
		f->sync[f->nsync++] = a.handle;
	}
}

static void op_syncobj_destroy(struct ffile *f)
{
	struct drm_syncobj_destroy a = { .handle = rand_sync(f) };
	bool mut;

	if (!call(f, DRM_IOCTL_SYNCOBJ_DESTROY, &a, sizeof(a), CALL_MAY_MUTATE,
		  &mut) && !mut) {
		for (unsigned int i = 0; i < f->nsync; i++) {
			if (f->sync[i] == a.handle) {
				f->nsync--;
				f->sync[i] = f->sync[f->nsync];
				f->tl_next[i] = f->tl_next[f->nsync];
				break;
			}
		}
	}
}

static void op_syncobj_to_fd(struct ffile *f)
{
	struct drm_syncobj_handle a = { .handle = rand_sync(f), .fd = -1 };
	bool mut;

	a.flags = chance(45) ? 0 : chance(90) ?
		  DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE :
		  (uint32_t)rnd64();
	if (!call(f, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &a, sizeof(a),
		  CALL_MAY_MUTATE, &mut) && a.fd >= 0) {
		if (a.flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE)
			add_fd(g_syncfile, &g_nsyncfile, a.fd);
		else
			add_fd(g_sobjfd, &g_nsobjfd, a.fd);
	}
}

static void op_syncobj_from_fd(struct ffile *f)
{
	struct drm_syncobj_handle a = { 0 };
	bool mut;

	if (chance(50)) {
		a.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
		a.handle = rand_sync(f);
		a.fd = g_nsyncfile && chance(85) ? g_syncfile[rnd(g_nsyncfile)] :
						    rand_fd(f);
	} else {
		a.flags = chance(95) ? 0 : (uint32_t)rnd64();
		a.fd = g_nsobjfd && chance(85) ? g_sobjfd[rnd(g_nsobjfd)] :
						  rand_fd(f);
	}
	if (!call(f, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &a, sizeof(a),
		  CALL_MAY_MUTATE, &mut) && !mut && !a.flags &&
	    f->nsync < MAX_SYNCS) {
		f->tl_next[f->nsync] = 0;
		f->sync[f->nsync++] = a.handle;
	}
}

/* Puts n syncobj handles (and points) into scratch; returns the count. */
static uint32_t sync_list(struct ffile *f, __u64 *handles, __u64 *points)
{
	uint32_t n = 1 + rnd(4), *h = (uint32_t *)(void *)g_scratch;
	uint64_t *p = (uint64_t *)(void *)(g_scratch + 256);

	for (uint32_t i = 0; i < n; i++) {
		h[i] = rand_sync(f);
		p[i] = chance(50) ? 0 : 1 + rnd(8);
	}
	*handles = chance(95) ? (uint64_t)(uintptr_t)h : rand_uptr(64);
	if (points)
		*points = chance(95) ? (uint64_t)(uintptr_t)p : rand_uptr(64);
	return chance(97) ? n : (chance(50) ? 0 : 1 + rnd(100000));
}

static void op_syncobj_misc(struct ffile *f)
{
	switch (rnd(7)) {
	case 0: {
		struct drm_syncobj_wait a = { 0 };

		a.count_handles = sync_list(f, &a.handles, NULL);
		a.timeout_nsec = rand_abs_timeout();
		a.flags = (uint32_t)rnd64() & 7;
		call(f, DRM_IOCTL_SYNCOBJ_WAIT, &a, sizeof(a), CALL_MAY_MUTATE,
		     NULL);
		break;
	}
	case 1: {
		struct drm_syncobj_timeline_wait a = { 0 };

		a.count_handles = sync_list(f, &a.handles, &a.points);
		a.timeout_nsec = rand_abs_timeout();
		a.flags = (uint32_t)rnd64() & 7;
		call(f, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &a, sizeof(a),
		     CALL_MAY_MUTATE, NULL);
		break;
	}
	case 2:
	case 3: {
		struct drm_syncobj_array a = { 0 };

		a.count_handles = sync_list(f, &a.handles, NULL);
		call(f, rnd(2) ? DRM_IOCTL_SYNCOBJ_RESET :
				 DRM_IOCTL_SYNCOBJ_SIGNAL,
		     &a, sizeof(a), CALL_MAY_MUTATE, NULL);
		break;
	}
	case 4: {
		struct drm_syncobj_timeline_array a = { 0 };

		a.count_handles = sync_list(f, &a.handles, &a.points);
		a.flags = chance(80) ? 0 : (uint32_t)rnd64();
		call(f, rnd(2) ? DRM_IOCTL_SYNCOBJ_QUERY :
				 DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
		     &a, sizeof(a), CALL_MAY_MUTATE, NULL);
		break;
	}
	default: {
		struct drm_syncobj_transfer a = { 0 };

		a.src_handle = rand_sync(f);
		a.dst_handle = rand_sync(f);
		a.src_point = chance(50) ? 0 : rnd(6);
		a.dst_point = chance(50) ? 0 : rnd(6);
		/*
		 * Not WAIT_FOR_SUBMIT: for a syncobj without a fence the DRM
		 * core then waits a fixed 5 s (no timeout of ours applies).
		 */
		a.flags = chance(85) ? 0 : (uint32_t)rnd64() & 5;
		call(f, DRM_IOCTL_SYNCOBJ_TRANSFER, &a, sizeof(a),
		     CALL_MAY_MUTATE, NULL);
		break;
	}
	}
}

static void op_get_cap_version(struct ffile *f)
{
	if (chance(50)) {
		struct drm_get_cap a = { .capability = chance(80) ? rnd(0x20) :
							(uint64_t)rnd64() };

		call(f, DRM_IOCTL_GET_CAP, &a, sizeof(a), CALL_MAY_MUTATE, NULL);
	} else {
		struct drm_version a = { 0 };

		a.name_len = rnd(64);
		a.name = (char *)(uintptr_t)rand_uptr(64);
		a.date_len = rnd(64);
		a.date = (char *)(uintptr_t)rand_uptr(64);
		a.desc_len = rnd(64);
		a.desc = (char *)(uintptr_t)rand_uptr(64);
		call(f, DRM_IOCTL_VERSION, &a, sizeof(a), CALL_MAY_MUTATE, NULL);
	}
}

/* mmap of the DRM file at an offset no BO of this file has. */
static void op_mmap_random(struct ffile *f)
{
	off_t off = (off_t)(PAGE * (chance(50) ? rnd(1u << 20) : rnd64() % (1ull << 35)));
	void *p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, f->fd, off);

	if (p != MAP_FAILED)
		munmap(p, PAGE); /* a BO of this file after all */
}

static void op_close_fd(void)
{
	int *pool, *n;

	switch (rnd(3)) {
	case 0: pool = g_dmabuf; n = &g_ndmabuf; break;
	case 1: pool = g_syncfile; n = &g_nsyncfile; break;
	default: pool = g_sobjfd; n = &g_nsobjfd; break;
	}
	if (*n) {
		unsigned int i = rnd((uint32_t)*n);

		close(pool[i]);
		pool[i] = pool[--*n];
	}
}

/* --- raw calls ------------------------------------------------------------ */

static void op_raw(struct ffile *f)
{
	static const unsigned int core_nrs[] = {
		0x00, 0x09, 0x0a, 0x0b, 0x0c, 0x2d, 0x2e, 0xbf, 0xc0, 0xc1,
		0xc2, 0xc3, 0xc4, 0xc5, 0xca, 0xcb, 0xcc, 0xcd,
	};
	unsigned int nr, size, dir;
	unsigned long right, req;
	void *arg = g_arg;
	int err;

	if (chance(65))
		nr = DRM_COMMAND_BASE + (chance(75) ? rnd(DRM_SLEIPNIR_GET_FAULT + 1) :
					 rnd(0x20));
	else
		nr = core_nrs[rnd(sizeof(core_nrs) / sizeof(core_nrs[0]))];
	right = request_for_nr(nr);
	size = right ? _IOC_SIZE(right) : 8 * rnd(16);
	dir = right ? _IOC_DIR(right) : _IOC_READ | _IOC_WRITE;
	switch (rnd(10)) {
	case 0: case 1: case 2: case 3: break;
	case 4: size = size >= 8 ? size - 4 * (1 + rnd(2)) : size + 4; break;
	case 5: size += 4 * (1 + rnd(4)); break;
	case 6: size = rnd(128); break;
	case 7: size = rnd(1u << 14); break;
	case 8: size = 0; break;
	default: dir = rnd(4); break;
	}
	if (chance(15))
		dir = rnd(4);
	for (unsigned int i = 0; i < size + 8 && i + 8 <= ARG_SIZE; i += 8) {
		uint64_t w = raw_word(f);

		memcpy(g_arg + i, &w, 8);
	}
	/* Waits get short timeouts; SUBMITs short job timeouts. */
	if (nr == NR_DRV(DRM_SLEIPNIR_BO_WAIT) || nr == 0xc3) {
		int64_t t = rand_abs_timeout();

		memcpy(g_arg + 8, &t, 8);
	} else if (nr == 0xca) {
		int64_t t = rand_abs_timeout();

		memcpy(g_arg + 16, &t, 8);
	}
	/*
	 * Linux 6.1's drm_syncobj_array_find() allocates count_handles
	 * entries with a plain kmalloc_array(), which WARNs from the page
	 * allocator once the size reaches MAX_ORDER (a DRM core issue any
	 * render-node user can trigger, not sleipnir's): keep the syncobj
	 * array ioctls' counts below 2^18.
	 */
	{
		unsigned int at = nr == 0xc3 ? 16 : nr == 0xca ? 24 :
				  nr == 0xc4 || nr == 0xc5 ? 8 :
				  nr == 0xcb || nr == 0xcd ? 16 : 0;

		if (at) {
			g_arg[at + 2] &= 0x03;
			g_arg[at + 3] = 0;
		}
	}
	if (nr == 0xcc) {
		g_arg[24] &= (uint8_t)~DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	} else if (nr == NR_DRV(DRM_SLEIPNIR_SUBMIT)) {
		uint32_t t = 1 + rnd(MAX_SUBMIT_TIMEOUT_MS);

		memcpy(g_arg + 64, &t, 4);
	}
	if (chance(5) && size) {
		switch (rnd(4)) {
		case 0: arg = NULL; break;
		case 1: arg = g_arg - PAGE; break;
		case 2: arg = g_arg + ARG_SIZE - size / 2; break;
		default: arg = (void *)(uintptr_t)0xffff800010000000ull; break;
		}
	}
	req = _IOC(dir, DRM_IOCTL_BASE, nr, size);
	err = do_ioctl(f->fd, req, arg, CALL_RAW, false);
	if (!err && arg == g_arg) {
		note_untracked_success(f, req);
	} else if (!err) {
		/* Succeeded on a bad pointer: who knows what it did. */
		f->handles_untracked = true;
		f->vm_untracked = true;
	}
	if (!err && nr == NR_DRV(DRM_SLEIPNIR_SUBMIT))
		g_submits_ok++;
}

/* --- epochs ---------------------------------------------------------------- */

static bool keep_fd(int fd)
{
	for (int i = 0; i < g_nkeep; i++)
		if (g_keep_fds[i] == fd)
			return true;
	return false;
}

/* The descriptors open at start-up (and nothing else) survive an epoch. */
static void list_fds(bool close_others)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int fds[1024], n = 0;

	if (!d)
		return;
	while ((de = readdir(d)) && n < 1024) {
		int fd = atoi(de->d_name);

		if (de->d_name[0] != '.' && fd != dirfd(d))
			fds[n++] = fd;
	}
	closedir(d);
	for (int i = 0; i < n; i++) {
		if (!close_others) {
			if (g_nkeep < 64)
				g_keep_fds[g_nkeep++] = fds[i];
		} else if (!keep_fd(fds[i])) {
			close(fds[i]);
			g_stray_fds++;
		}
	}
}

/* Which documented fence outcome a status is, or -1. */
static int fence_class(int status)
{
	switch (status) {
	case 1: return 0;
	case 0: return 1;
	case -EIO: return 2;
	case -EFAULT: return 3;
	case -ETIMEDOUT: return 4;
	case -ECANCELED: return 5;
	}
	return -1;
}

/* Checks the fences this file's syncobjs hold (waiting up to ~1 s). */
static void probe_fences(struct ffile *f)
{
	int64_t deadline = deadline_ns(1000);

	for (unsigned int i = 0; i < f->nsync; i++) {
		uint32_t h = f->sync[i];
		int status = 0, cls;

		/* No fence yet: EINVAL at once; otherwise wait a little. */
		drmSyncobjWait(f->fd, &h, 1, deadline, 0, NULL);
		if (sl_syncobj_status(f->dev, h, &status))
			continue;
		cls = fence_class(status);
		if (cls < 0) {
			g_fence_bad++;
			VIOLATION("a syncobj's fence ended with %d (%s), not a "
				  "documented job error", status,
				  strerror(-status));
		} else {
			g_fence_hist[cls]++;
		}
	}
}

static void open_files(void)
{
	for (int i = 0; i < NFILES; i++) {
		struct ffile *f = &g_file[i];

		memset(f, 0, sizeof(*f));
		f->dev = device_open(g_node);
		f->fd = f->dev ? sl_drm_fd(f->dev) : -1;
	}
	g_epoch_bytes = 0;
}

/* Closes everything (files possibly with jobs in flight). */
static void close_all(bool probe)
{
	for (int i = 0; i < NFILES; i++) {
		struct ffile *f = &g_file[i];

		if (f->fd < 0)
			continue;
		if (probe)
			probe_fences(f);
		sl_drm_close(f->dev);
		f->dev = NULL;
		f->fd = -1;
	}
	for (unsigned int i = 0; i < g_ncpumap; i++)
		munmap(g_cpumap[i].p, g_cpumap[i].len);
	g_ncpumap = 0;
	for (int i = 0; i < g_ndmabuf; i++)
		close(g_dmabuf[i]);
	for (int i = 0; i < g_nsyncfile; i++)
		close(g_syncfile[i]);
	for (int i = 0; i < g_nsobjfd; i++)
		close(g_sobjfd[i]);
	g_ndmabuf = g_nsyncfile = g_nsobjfd = 0;
	list_fds(true); /* descriptors raw calls made */
}

/* --- tests -------------------------------------------------------------- */

/* --- debugfs counters ---------------------------------------------------- */

#define SL_DEBUGFS "/sys/kernel/debug"

/*
 * Finds the driver's debugfs folder: /sys/kernel/debug/dri/<N>/ whose "name"
 * starts with "sleipnir" and which has a "counters" file. Mounts debugfs
 * when it is not. dir gets the folder (at least 256 bytes).
 */
static int debugfs_dir(char *dir)
{
	char path[512], name[64];
	struct dirent *de;
	DIR *d;
	int found = -ENOENT;

	if (access(SL_DEBUGFS "/dri", F_OK) != 0 &&
	    mount("none", SL_DEBUGFS, "debugfs", 0, NULL) != 0 &&
	    errno != EBUSY) {
		printf("  mount debugfs: %s\n", strerror(errno));
		return -errno;
	}
	d = opendir(SL_DEBUGFS "/dri");
	if (!d) {
		printf("  %s/dri: %s\n", SL_DEBUGFS, strerror(errno));
		return -errno;
	}
	while (found && (de = readdir(d))) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), SL_DEBUGFS "/dri/%.32s/name",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) &&
		    strncmp(name, "sleipnir", 8) == 0) {
			snprintf(path, sizeof(path),
				 SL_DEBUGFS "/dri/%.32s/counters", de->d_name);
			if (access(path, R_OK) == 0) {
				snprintf(dir, 256, SL_DEBUGFS "/dri/%.32s",
					 de->d_name);
				found = 0;
			}
		}
		fclose(f);
	}
	closedir(d);
	if (found)
		printf("  no %s/dri/<N>/ with a sleipnir name and a counters "
		       "file\n", SL_DEBUGFS);
	return found;
}

/*
 * Reads "key: value" from <dir>/counters. Returns 0, -ENOENT when the key
 * is missing, or a negative errno.
 */
static int debugfs_counter(const char *dir, const char *key, long long *val)
{
	char path[300], line[256];
	size_t klen = strlen(key);
	FILE *f;
	int err = -ENOENT;

	snprintf(path, sizeof(path), "%s/counters", dir);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f)) {
		char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, key, klen) == 0 && p[klen] == ':') {
			*val = strtoll(p + klen + 1, NULL, 0);
			err = 0;
		}
	}
	fclose(f);
	return err;
}

/* Prints the counters file, indented. */
static void print_counters(const char *dir)
{
	char path[300], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/counters", dir);
	f = fopen(path, "r");
	if (!f)
		return;
	printf("  %s:\n", path);
	while (fgets(line, sizeof(line), f))
		printf("    %s", line);
	fclose(f);
}

static struct sl_drm *g_dev;
static bool g_fuzzed;

TEST(open_device)
{
	int major = 0, minor = 0;
	uint64_t caps = 0;

	g_dev = device_open(g_opt.node_arg);
	REQUIRE(g_dev != NULL);
	snprintf(g_node, sizeof(g_node), "%s", sl_drm_node(g_dev));
	REQUIRE(device_version(g_dev, &major, &minor));
	printf("  using %s: sleipnir %d.%d\n", g_node, major, minor);
	CHECK(major > 0 || minor >= 2);
	CHECK_EQ(sl_drm_get_param(g_dev, SLEIPNIR_PARAM_DRIVER_CAPS, &caps), 0);
	printf("  driver caps %#llx\n", (unsigned long long)caps);
	CHECK_EQ(sl_drm_get_param(g_dev, SLEIPNIR_PARAM_VA_START, &g_va_start),
		 0);
	CHECK_EQ(sl_drm_get_param(g_dev, SLEIPNIR_PARAM_VA_END, &g_va_end), 0);
	REQUIRE(g_va_start < g_va_end && g_va_end - g_va_start > 2 * WIN_SIZE);
	g_max_param = SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS;

	/*
	 * The window for fixed GPU mappings is also reserved (PROT_NONE) in
	 * this process, so raw noise made of GPU addresses never names
	 * memory the fuzzer uses.
	 */
	for (uint64_t base = 4ull << 30; base + WIN_SIZE <= g_va_end &&
					 base < (1ull << 47);
	     base <<= 1) {
		uint64_t b = base < g_va_start ?
				     (g_va_start + 2 * MIB - 1) & ~(2 * MIB - 1) :
				     base;
		void *p = mmap((void *)(uintptr_t)b, WIN_SIZE, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
				       MAP_FIXED_NOREPLACE, -1, 0);

		if (p == (void *)(uintptr_t)b) {
			g_win = b;
			g_win_reserved = true;
			break;
		}
		if (p != MAP_FAILED)
			munmap(p, WIN_SIZE);
	}
	if (!g_win_reserved)
		g_win = (g_va_start + 2 * MIB - 1) & ~(2 * MIB - 1);
	printf("  GPU VA [%#llx, %#llx); fixed mappings in [%#llx, %#llx)%s\n",
	       (unsigned long long)g_va_start, (unsigned long long)g_va_end,
	       (unsigned long long)g_win,
	       (unsigned long long)(g_win + WIN_SIZE),
	       g_win_reserved ? "" : " (not reserved in this process)");

	g_arg = guarded_alloc(ARG_SIZE, PROT_READ | PROT_WRITE);
	g_scratch = guarded_alloc(SCRATCH_SIZE, PROT_READ | PROT_WRITE);
	g_uptr_rw = guarded_alloc(UPTR_RW_SIZE, PROT_READ | PROT_WRITE);
	g_uptr_ro = guarded_alloc(UPTR_RO_SIZE, PROT_READ);
	REQUIRE(g_arg && g_scratch && g_uptr_rw && g_uptr_ro);
}

#define NEED_DEVICE()                                                          \
	do {                                                                   \
		if (!g_dev || !g_arg)                                          \
			SKIP("no usable sleipnir device");                     \
	} while (0)

static void print_stats(void)
{
	printf("  calls: %lu (%lu raw, %lu mutated), %lu epochs; SUBMITs "
	       "accepted: %lu (%lu of clean chains, %lu of long chains with "
	       "1-4 ms timeouts), chains written: %lu; stray fds closed: "
	       "%lu\n",
	       g_total_calls, g_raw_calls, g_mutated_calls, g_epochs,
	       g_submits_ok, g_clean_submits, g_long_submits,
	       g_chains_written, g_stray_fds);
	printf("  errno histogram (all calls):\n");
	for (int e = 0; e <= MAX_ERRNO; e++)
		if (g_errno_hist[e])
			printf("    %-12s %3d %8lu\n",
			       e == MAX_ERRNO ? "other" : errno_name(e), e,
			       g_errno_hist[e]);
	printf("  per ioctl (calls, succeeded, raw):\n");
	for (int nr = 0; nr < 256; nr++)
		if (g_nr_calls[nr])
			printf("    %#04x %-24s %8lu %8lu %8lu\n", nr,
			       nr_name((unsigned int)nr), g_nr_calls[nr],
			       g_nr_ok[nr], g_nr_raw[nr]);
	printf("  fences at epoch ends: %lu signalled, %lu pending, %lu -EIO, "
	       "%lu -EFAULT, %lu -ETIMEDOUT, %lu -ECANCELED, %lu other\n",
	       g_fence_hist[0], g_fence_hist[1], g_fence_hist[2],
	       g_fence_hist[3], g_fence_hist[4], g_fence_hist[5], g_fence_bad);
}

TEST(fuzz)
{
	struct sigaction sa;
	unsigned long epoch_start = 0;
	uint64_t t0 = now_ns();
	char dir[256];
	bool have_debugfs;

	NEED_DEVICE();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm; /* no SA_RESTART: a blocked call gets EINTR */
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_fault;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	have_debugfs = debugfs_dir(dir) == 0;

	sl_drm_close(g_dev);
	g_dev = NULL;
	list_fds(false);
	open_files();
	REQUIRE(g_file[0].fd >= 0 && g_file[1].fd >= 0);

	while (g_total_calls < g_opt.calls) {
		struct ffile *f = pick_file();
		unsigned int r = rnd(1000);

		if (f->nbo >= MAX_BOS - 2 && chance(60))
			op_gem_close(f);
		else if (f->nmap >= MAX_MAPS - 2 && chance(60))
			op_vm_unmap(f);
		else if (r < 30) op_get_param(f);
		else if (r < 110) op_bo_create(f);
		else if (r < 160) op_bo_mmap(f);
		else if (r < 185) op_bo_info(f);
		else if (r < 210) op_bo_wait(f);
		else if (r < 230) op_bo_sync(f);
		else if (r < 260) op_bo_userptr(f);
		else if (r < 360) op_vm_map(f);
		else if (r < 410) op_vm_unmap(f);
		else if (r < 536) op_submit(f);
		else if (r < 540) op_long_chain(f);
		else if (r < 590) op_get_fault(f);
		else if (r < 630) op_gem_close(f);
		else if (r < 650) op_prime_export(f);
		else if (r < 670) op_prime_import(f);
		else if (r < 700) op_syncobj_create(f);
		else if (r < 710) op_syncobj_destroy(f);
		else if (r < 725) op_syncobj_to_fd(f);
		else if (r < 740) op_syncobj_from_fd(f);
		else if (r < 770) op_syncobj_misc(f);
		else if (r < 780) op_get_cap_version(f);
		else if (r < 785) op_mmap_random(f);
		else if (r < 790) op_close_fd();
		else op_raw(f);

		if (g_total_calls - epoch_start >= g_opt.epoch ||
		    g_epoch_bytes > EPOCH_BYTES) {
			close_all(true);
			g_epochs++;
			if (have_debugfs && g_epochs <= 3) {
				printf("  after epoch %lu (%lu calls, %.1f s):\n",
				       g_epochs, g_total_calls,
				       (double)(now_ns() - t0) / 1e9);
				print_counters(dir);
			}
			epoch_start = g_total_calls;
			open_files();
			REQUIRE(g_file[0].fd >= 0 && g_file[1].fd >= 0);
		}
	}
	close_all(true);
	g_epochs++;
	g_fuzzed = true;
	printf("  %lu calls in %.1f s (seed %" PRIu64 ")\n", g_total_calls,
	       (double)(now_ns() - t0) / 1e9, g_opt.seed);
	print_stats();
	CHECK_EQ(g_violations, 0);
	CHECK_EQ(g_blocked, 0);
	CHECK_EQ(g_cpu_faults, 0);
	CHECK_EQ(g_fence_bad, 0);
	CHECK(g_total_calls >= g_opt.calls);
}

/* Polls the debugfs counters until the idle keys read 0 (up to 5 s). */
static void check_counters_drain(void)
{
	static const char *const keys[] = { "bos", "vms", "vm_mappings",
					     "as_bound", "jobs_in_flight" };
	const size_t nkeys = sizeof(keys) / sizeof(keys[0]);
	uint64_t end = now_ns() + DRAIN_TIMEOUT_MS * 1000000ull;
	long long val[5];
	int err[5];
	char dir[256];
	bool zero;

	REQUIRE(debugfs_dir(dir) == 0);
	do {
		zero = true;
		for (size_t i = 0; i < nkeys; i++) {
			val[i] = -1;
			err[i] = debugfs_counter(dir, keys[i], &val[i]);
			zero = zero && !err[i] && val[i] == 0;
		}
		if (!zero)
			usleep(20000);
	} while (!zero && now_ns() < end);
	for (size_t i = 0; i < nkeys; i++) {
		if (err[i])
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "counter %s: %s", keys[i],
				      err[i] == -ENOENT ? "missing" :
							  strerror(-err[i]));
		else if (val[i] != 0)
			CHECK_FAIL_AT(__FILE__, __LINE__,
				      "counter %s is %lld %u ms after the last "
				      "file closed, expected 0", keys[i],
				      val[i], DRAIN_TIMEOUT_MS);
	}
	if (check_state.test_failed || !zero)
		print_counters(dir);
	else
		printf("  bos, vms, vm_mappings, as_bound, jobs_in_flight: "
		       "all 0\n");
}

TEST(counters_after_fuzz)
{
	char dir[256];

	if (!g_fuzzed)
		SKIP("the fuzz did not run");
	check_counters_drain();
	if (!check_state.test_failed && debugfs_dir(dir) == 0)
		print_counters(dir); /* the job totals, informative */
}

TEST(good_job_after_fuzz)
{
	struct sl_drm *dev;

	if (!g_fuzzed)
		SKIP("the fuzz did not run");
	dev = device_open(g_node);
	REQUIRE(dev != NULL);
	CHECK(check_good_job(dev, SLEIPNIR_REQ_NULL | SLEIPNIR_REQ_WRITE_VALUE,
			     "a fresh file after the fuzz"));
	sl_drm_close(dev);
	check_counters_drain();
}

int main(int argc, char **argv)
{
	int c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	g_opt.seed = now_ns() ^ ((uint64_t)getpid() << 32);
	while ((c = getopt(argc, argv, "s:n:e:h")) != -1) {
		switch (c) {
		case 's':
			g_opt.seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			g_opt.calls = strtoul(optarg, NULL, 0);
			break;
		case 'e':
			g_opt.epoch = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: sleipnir_ioctl_fuzz [-s SEED] "
					"[-n CALLS] [-e EPOCH] [NODE]\n");
			return 2;
		}
	}
	if (optind < argc)
		g_opt.node_arg = argv[optind++];
	if (!g_opt.epoch)
		g_opt.epoch = 1;
	g_rng = g_opt.seed ? g_opt.seed : 0x9e3779b97f4a7c15ull;
	printf("seed: %" PRIu64 " (repeat with -s %" PRIu64 "), %lu calls\n",
	       g_opt.seed, g_opt.seed, g_opt.calls);

	RUN(open_device);
	RUN(fuzz);
	RUN(counters_after_fuzz);
	RUN(good_job_after_fuzz);
	return check_summary();
}
