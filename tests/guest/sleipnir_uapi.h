/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the sleipnir_uapi guest test program, which checks
 * sleipnir.ko against its uapi (uapi/drm/sleipnir_drm.h, version 0.2).
 *
 * The program is split by concern; each file exports one run function:
 *   sleipnir_uapi.c         main(), device, GET_PARAM, helpers below
 *   sleipnir_uapi_bo.c      BO_CREATE/INFO/MMAP_OFFSET/SYNC/WAIT, USERPTR,
 *                           PRIME
 *   sleipnir_uapi_vm.c      VM_MAP/VM_UNMAP and mapping permissions
 *   sleipnir_uapi_submit.c  SUBMIT, syncobjs, implicit fences, fence errors
 *   sleipnir_uapi_fault.c   GET_FAULT, MMU faults, job timeouts (hangs),
 *                           closing a busy file
 *
 * The expected values are the header's documented semantics and values
 * computed on the CPU, never what the driver happens to return. Every wait
 * has a timeout, so a lost interrupt fails a check instead of hanging.
 */
#ifndef SLEIPNIR_UAPI_TEST_H
#define SLEIPNIR_UAPI_TEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <xf86drm.h>

#include "drm/sleipnir_drm.h"

#include "check.h"
#include "mali_jobs.h"

/* Timeout of every wait for a job that should finish quickly. */
#define WAIT_MS 10000u
/* Patterns: FILL64 is overwritten by the GPU, GUARD64 must never be. */
#define FILL64 0xffffffffffffffffull
#define GUARD64 0xa5a5a5a5a5a5a5a5ull
/* The model's test-hang WRITE_VALUE type ("HANG", qemu/model/sgpu.h). */
#define HANG_VALUE_TYPE 0x48414e47u
/* Not a WRITE_VALUE type: the model fails it with JOB_CONFIG_FAULT. */
#define BAD_VALUE_TYPE 0x77u
#define MALI_EXCEPTION_JOB_CONFIG_FAULT 0x40u

/*
 * Requirement masks. The model's JS_FEATURES (qemu/model/sgpu_products.c)
 * are slot 0 0x20E (NULL, WRITE_VALUE, CACHE_FLUSH, FRAGMENT), slot 1 0x1FE
 * (everything but FRAGMENT), slot 2 0x07E. A chain goes to the lowest slot
 * that has all its requirements, so REQ_SLOT0 picks slot 0 and REQ_SLOT1
 * (which also names COMPUTE, harmless for a chain without compute jobs)
 * picks slot 1: two independent queues for ordering tests.
 */
#define REQ_SLOT0 (SLEIPNIR_REQ_NULL | SLEIPNIR_REQ_WRITE_VALUE)
#define REQ_SLOT1                                                              \
	(SLEIPNIR_REQ_NULL | SLEIPNIR_REQ_WRITE_VALUE | SLEIPNIR_REQ_COMPUTE)

#define NPARAMS (SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS + 1)
#define PARAM(x) (g_params[SLEIPNIR_PARAM_##x])

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define U64_PTR(p) ((uint64_t)(uintptr_t)(p))

extern int g_fd;            /* the main file, opened once */
extern char g_node[64];     /* its path, to open more files */
extern uint64_t g_params[NPARAMS];
extern bool g_params_ok;
extern uint64_t g_page;     /* the CPU page size */

/* --- basics -------------------------------------------------------------- */

uint64_t now_ns(void);
int64_t deadline_ns(unsigned int timeout_ms);
uint64_t ms_since(uint64_t t0_ns);
bool hang_enabled(void);

/* Runs an ioctl; returns 0 or the errno. */
int slp_ioctl(int fd, unsigned long request, void *arg);

#define CHECK_ERRNO(got, want)                                                 \
	do {                                                                   \
		int check_got_ = (got), check_want_ = (want);                  \
		if (check_got_ != check_want_)                                 \
			CHECK_FAIL_AT(__FILE__, __LINE__,                      \
				      "%s: errno %d (%s), expected %d (%s)",   \
				      #got, check_got_, strerror(check_got_),  \
				      check_want_, strerror(check_want_));     \
	} while (0)

#define NEED_DEVICE()                                                          \
	do {                                                                   \
		if (g_fd < 0)                                                  \
			SKIP("no sleipnir device");                            \
	} while (0)

#define NEED_HANG()                                                            \
	do {                                                                   \
		if (!hang_enabled())                                           \
			SKIP("set SLEIPNIR_TEST_HANG=1 (model with "           \
			     "test-hang-jobs=on)");                            \
	} while (0)

/* Finds the render node whose driver is "sleipnir"; -1 if none. */
int open_sleipnir(void);
/* Opens another file of the same render node. */
int reopen(void);

int get_param(int fd, uint32_t param, uint64_t *value);

/* --- buffer objects ------------------------------------------------------ */

struct sbo {
	int fd;
	uint32_t handle;
	uint32_t flags;
	uint64_t size;
	uint64_t va;   /* GPU VA of the whole BO, 0 when not mapped */
	uint8_t *map;  /* CPU mapping, NULL for NO_CPU_MAP */
};

/* BO_CREATE; fills *handle. Returns 0 or the errno. */
int bo_create(int fd, uint64_t size, uint32_t flags, uint32_t *handle);
int bo_info(int fd, uint32_t handle, struct drm_sleipnir_bo_info *info);
int bo_mmap_offset(int fd, uint32_t handle, uint64_t *offset);
/* CPU-maps size bytes of a BO; returns NULL and prints on failure. */
uint8_t *bo_cpu_map(int fd, uint32_t handle, uint64_t size);
int gem_close(int fd, uint32_t handle);
int bo_wait(int fd, uint32_t handle, int64_t timeout_ns);
int bo_sync(int fd, uint32_t handle, uint32_t op, uint64_t offset,
	    uint64_t size);
/* VM_MAP; *va is in (fixed) or out (AUTO_VA). */
int vm_map(int fd, uint32_t handle, uint32_t flags, uint64_t bo_offset,
	   uint64_t size, uint64_t *va);
int vm_unmap(int fd, uint64_t va, uint64_t size);

/*
 * Creates a BO, maps it for the CPU (unless SLEIPNIR_BO_NO_CPU_MAP) and
 * maps all of it in the file's VM at an AUTO_VA address with map_flags.
 * Returns 0 or the errno of the step that failed (printed).
 */
int sbo_new(int fd, uint64_t size, uint32_t bo_flags, uint32_t map_flags,
	    struct sbo *bo);
void sbo_free(struct sbo *bo);

static inline uint8_t *sbo_cpu(const struct sbo *bo, uint64_t off)
{
	return bo->map + off;
}

static inline uint64_t sbo_gpu(const struct sbo *bo, uint64_t off)
{
	return bo->va + off;
}

static inline void sbo_put64(struct sbo *bo, uint64_t off, uint64_t v)
{
	mali_put64(sbo_cpu(bo, off), v);
}

static inline uint64_t sbo_get64(const struct sbo *bo, uint64_t off)
{
	return mali_get64(sbo_cpu(bo, off));
}

/* --- syncobjs and fences ------------------------------------------------- */

/* A new syncobj (signalled or not); 0 on failure (printed). */
uint32_t syncobj_new(int fd, bool signalled);
void syncobj_free(int fd, uint32_t handle);
/* Waits for every syncobj; returns 0 or the errno (ETIME on timeout). */
int syncobj_wait(int fd, uint32_t *handles, unsigned int count,
		 unsigned int timeout_ms);
/* Waits for one timeline point; 0 or the errno. */
int timeline_wait(int fd, uint32_t handle, uint64_t point,
		  unsigned int timeout_ms);
/* True when the syncobj has a signalled fence (polls, never blocks). */
bool syncobj_signalled(int fd, uint32_t handle);

/*
 * The status of the fence in a binary syncobj, read as the header says:
 * exported as a sync_file and read with SYNC_IOC_FILE_INFO. 1 signalled
 * without error, 0 still running, negative the error. FENCE_STATUS_NONE
 * when the export failed (no fence, or an ioctl error; printed).
 */
#define FENCE_STATUS_NONE 1000
int fence_status(int fd, uint32_t syncobj);

/* Waits up to timeout_ms for the syncobj, then returns fence_status(). */
int wait_fence_status(int fd, uint32_t syncobj, unsigned int timeout_ms);

/* --- submission ---------------------------------------------------------- */

#define OBJ_ARRAY(arr, n)                                                      \
	((struct drm_sleipnir_obj_array){ .stride = sizeof((arr)[0]),          \
					  .count = (n),                        \
					  .array = U64_PTR(arr) })

/*
 * SUBMIT of one chain: bos (written by the chain when write), at most one
 * binary in-sync and one binary out-sync (0 for none). Returns 0 or the
 * errno; failures are not printed (the tests expect some).
 */
int submit_simple(int fd, uint64_t jc, uint32_t requirements,
		  const uint32_t *bos, unsigned int nbos, bool write,
		  uint32_t in_sync, uint32_t out_sync, uint32_t timeout_ms);

/*
 * Submits the chain at jc (bos all written) with a fresh out-sync, waits
 * for it and returns its fence status (see fence_status()). A SUBMIT error
 * is printed and gives FENCE_STATUS_NONE.
 */
int run_chain(int fd, uint64_t jc, uint32_t requirements, const uint32_t *bos,
	      unsigned int nbos, uint32_t timeout_ms);
/* Packs WRITE_VALUE(type) -> target at offset 0 of jobs and runs it. */
int run_write_value(int fd, struct sbo *jobs, uint64_t target, uint32_t type,
		    const uint32_t *bos, unsigned int nbos);

int get_fault(int fd, uint32_t flags, struct drm_sleipnir_get_fault *f);
/*
 * GET_FAULT without CLEAR right after a failed fence, printed. When an MMU
 * fault comes without its address and access, it is read again 200 ms
 * later and printed too (diagnosis only; *f keeps the first answer).
 */
int get_fault_after_fence(int fd, struct drm_sleipnir_get_fault *f);
/* GET_FAULT with CLEAR, ignoring what it says. */
void clear_fault(int fd);
/*
 * After a chain at jc was submitted with out-sync sync and should fault in
 * the MMU: checks the fence fails with -EFAULT and GET_FAULT reports kind
 * MMU at address (exactly, or its page when page_only) with the access and
 * a translation (perm false) or permission (perm true) exception code.
 * Then clears the fault and checks it is gone.
 */
void check_mmu_fault(int fd, uint32_t sync, uint64_t jc, uint64_t address,
		     bool page_only, uint32_t access, bool perm);

/*
 * Runs WRITE_VALUE(zero) -> NULL on fd with the given requirements, and
 * checks that the fence is good, both headers read DONE and the zero
 * landed next to an untouched guard. what names the situation in messages
 * (NULL: print nothing unless a check fails). Returns true when all of that
 * held.
 */
bool check_good_job(int fd, uint32_t requirements, const char *what);

/*
 * Fills n jobs into jobs_bo (at offset 0): n - 1 WRITE_VALUE(zero) jobs to
 * scratch_va, then one WRITE_VALUE(timestamp) to ts_va, linked as one chain
 * (indices 1..n, no dependencies). Used to keep a slot busy for a while.
 */
void fill_long_chain(struct sbo *jobs_bo, unsigned int n, uint64_t scratch_va,
		     uint64_t ts_va);

/*
 * A gate for ordering tests: with SLEIPNIR_TEST_HANG, a hanging job of a
 * file of its own holds slot 0 for timeout_ms, so slot-0 chains submitted
 * meanwhile start only after it is stopped, while slot 1 stays free.
 * Without SLEIPNIR_TEST_HANG it does nothing (on stays false).
 */
struct gate {
	bool on;
	int fd;
	struct sbo bo;
	uint32_t sync;
	uint32_t timeout_ms;
};

void gate_open(struct gate *g, uint32_t timeout_ms);
/* Waits for the gate's job to be stopped and tidies up after it. */
void gate_close(struct gate *g);

/* --- the test groups ----------------------------------------------------- */

void run_bo_tests(void);
void run_vm_tests(void);
void run_submit_tests(void);
void run_fault_tests(void);

#endif
