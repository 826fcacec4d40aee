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
 *   sleipnir_uapi_compute.c compute jobs (kernels assembled in the guest,
 *                           mali_compute.h), the endless compute job the
 *                           timeout tests use, code in no-execute memory
 *   sleipnir_uapi_fault.c   GET_FAULT, MMU faults, job timeouts (hangs),
 *                           closing a busy file
 *   sleipnir_uapi_fdinfo.c  fdinfo's usage stats, on 6.1 and 6.12
 *
 * The device, BOs, syncobjs and SUBMIT go through userspace/drm (sl_drm.h)
 * and the fixtures of sleipnir_fixture.h; the helpers below that name an
 * ioctl issue it with exactly the given fields through sl_drm_ioctl(), as
 * tests of the uapi's validation must. Errors are 0 or a negative errno.
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
#include "clock.h"
#include "mali_compute.h"
#include "mali_jobs.h"
#include "sleipnir_fixture.h"

/* Timeout of every wait for a job that should finish quickly. */
#define WAIT_MS SL_WAIT_TIMEOUT_MS
/* Not a WRITE_VALUE type: the model fails it with JOB_CONFIG_FAULT. */
#define BAD_VALUE_TYPE 0x77u

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
/* Compute chains: slot 1 too, the lowest slot with COMPUTE. */
#define REQ_COMPUTE SLEIPNIR_REQ_COMPUTE

#define NPARAMS (SLEIPNIR_PARAM_JOB_TIMEOUT_MAX_MS + 1)
#define PARAM(x) (g_params[SLEIPNIR_PARAM_##x])

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define U64_PTR(p) ((uint64_t)(uintptr_t)(p))

extern struct sl_drm *g_dev; /* the main file, opened once */
extern char g_node[64];     /* its path, to open more files */
extern uint64_t g_params[NPARAMS];
extern bool g_params_ok;
extern uint64_t g_page;     /* the CPU page size */

#define NEED_DEVICE()                                                          \
	do {                                                                   \
		if (!g_dev)                                                    \
			SKIP("no sleipnir device");                            \
	} while (0)

/* Opens another file of the same render node; NULL on failure (printed). */
struct sl_drm *reopen(void);

/* --- the ioctls as they are (sl_drm_ioctl), for BO handles --------------- */

/* BO_CREATE; fills *handle. */
int bo_create(struct sl_drm *dev, uint64_t size, uint32_t flags,
	      uint32_t *handle);
int bo_info(struct sl_drm *dev, uint32_t handle,
	    struct drm_sleipnir_bo_info *info);
int bo_mmap_offset(struct sl_drm *dev, uint32_t handle, uint64_t *offset);
/* CPU-maps size bytes of a BO; returns NULL and prints on failure. */
uint8_t *bo_cpu_map(struct sl_drm *dev, uint32_t handle, uint64_t size);
int gem_close(struct sl_drm *dev, uint32_t handle);
/* BO_WAIT with an absolute CLOCK_MONOTONIC deadline, as the uapi has it. */
int bo_wait(struct sl_drm *dev, uint32_t handle, int64_t timeout_ns);
/* BO_SYNC, also where sl_bo_sync() would spare the syscall. */
int bo_sync(struct sl_drm *dev, uint32_t handle, uint32_t op,
	    uint64_t offset, uint64_t size);
/* VM_MAP of part of a BO; *va is in (fixed) or out (AUTO_VA). */
int vm_map(struct sl_drm *dev, uint32_t handle, uint32_t flags,
	   uint64_t bo_offset, uint64_t size, uint64_t *va);
int vm_unmap(struct sl_drm *dev, uint64_t va, uint64_t size);
/* GET_FAULT with any flags, valid or not. */
int get_fault(struct sl_drm *dev, uint32_t flags,
	      struct drm_sleipnir_get_fault *f);

/* --- syncobjs ------------------------------------------------------------ */

/* True when the syncobj has a signalled fence (polls, never blocks). */
bool syncobj_signalled(struct sl_drm *dev, uint32_t handle);

/* --- submission ---------------------------------------------------------- */

#define OBJ_ARRAY(arr, n)                                                      \
	((struct drm_sleipnir_obj_array){ .stride = sizeof((arr)[0]),          \
					  .count = (n),                        \
					  .array = U64_PTR(arr) })

/*
 * SUBMIT of one chain: bos (written by the chain when write), at most one
 * binary in-sync and one binary out-sync (0 for none). Returns 0 or the
 * negative errno; failures are not printed (the tests expect some).
 */
int submit_simple(struct sl_drm *dev, uint64_t jc, uint32_t requirements,
		  const uint32_t *bos, unsigned int nbos, bool write,
		  uint32_t in_sync, uint32_t out_sync, uint32_t timeout_ms);

/*
 * Submits the chain at jc (bos all written) with a fresh out-sync, waits
 * for it and returns its fence status (see fence_status()). A SUBMIT error
 * is printed and gives FENCE_STATUS_NONE.
 */
int run_chain(struct sl_drm *dev, uint64_t jc, uint32_t requirements,
	      const uint32_t *bos, unsigned int nbos, uint32_t timeout_ms);
/* Packs WRITE_VALUE(type) -> target at offset 0 of jobs and runs it. */
int run_write_value(struct sl_drm *dev, struct sl_bo *jobs, uint64_t target,
		    uint32_t type, const uint32_t *bos, unsigned int nbos);

/*
 * GET_FAULT without CLEAR right after a failed fence, printed. When an MMU
 * fault comes without its address and access, it is read again 200 ms
 * later and printed too (diagnosis only; *f keeps the first answer).
 */
int get_fault_after_fence(struct sl_drm *dev,
			  struct drm_sleipnir_get_fault *f);
/* GET_FAULT with CLEAR, ignoring what it says. */
void clear_fault(struct sl_drm *dev);
/*
 * After a chain at jc was submitted with out-sync sync and should fault in
 * the MMU: checks the fence fails with -EFAULT and GET_FAULT reports kind
 * MMU at address (exactly, or its page when page_only) with the access and
 * a translation (perm false) or permission (perm true) exception code.
 * Then clears the fault and checks it is gone.
 */
void check_mmu_fault(struct sl_drm *dev, uint32_t sync, uint64_t jc,
		     uint64_t address, bool page_only, uint32_t access,
		     bool perm);

/*
 * Fills n jobs into jobs_bo (at offset 0): n - 1 WRITE_VALUE(zero) jobs to
 * scratch_va, then one WRITE_VALUE(timestamp) to ts_va, linked as one chain
 * (indices 1..n, no dependencies). Used to keep a slot busy for a while.
 */
void fill_long_chain(struct sl_bo *jobs_bo, unsigned int n,
		     uint64_t scratch_va, uint64_t ts_va);

/* --- compute jobs (sleipnir_uapi_compute.c) ------------------------------ */

/*
 * A compute job of mali_compute.h in two BOs of fd: the compute area (job,
 * descriptors, code; executable) and the output buffer (GPU_NOEXEC),
 * pre-filled with MC_OUT_FILL words and a guard after CJOB_THREADS of them.
 */
#define CJOB_LOCAL 16u
#define CJOB_GROUPS 16u
#define CJOB_THREADS (CJOB_LOCAL * CJOB_GROUPS)

struct cjob {
	struct sl_bo *area;
	struct sl_bo *out;
	uint64_t jc;
};

/*
 * Creates the BOs (area_map_flags for the area's VM_MAP, normally 0) and
 * lays out kernel k. Returns 0 or the negative errno (printed).
 */
int cjob_new(struct sl_drm *dev, const struct mc_kernel *k,
	     uint32_t area_map_flags,
	     struct cjob *c);
void cjob_free(struct cjob *c);
/* SUBMIT with both BOs (written), REQ_COMPUTE; 0 or the negative errno. */
int cjob_submit(struct cjob *c, uint32_t out_sync, uint32_t timeout_ms);
/* The job's exception status (written back by the GPU). */
uint32_t cjob_status(const struct cjob *c);
/* How many output words no longer read MC_OUT_FILL. */
unsigned int cjob_touched(const struct cjob *c);
/*
 * Runs mc_verify_kernel on fd and checks the fence is good, the job reads
 * DONE and every element matches the C reference. Returns true when all
 * of that held.
 */
bool check_compute_job(struct sl_drm *dev, const char *what);

/*
 * A hanging chain: an endless compute job (mc_endless_kernel), which only
 * the driver's timeout ends (a soft stop does not end a running shader,
 * so the driver hard-stops it).
 */
struct hang {
	struct sl_drm *dev;
	struct cjob job;
	uint32_t sync;
	uint64_t t0;
};

/* Slack on job timeouts: jiffies rounding below, a slow TCG guest above. */
#define TIMEOUT_EARLY_MS 10u
#define TIMEOUT_LATE_MS 3000u

/* Submits a hanging job on fd with timeout_ms; false on failure (printed). */
bool hang_submit(struct hang *h, struct sl_drm *dev, uint32_t timeout_ms);
/*
 * Waits for the hang to be stopped; checks that it took between want_ms
 * (minus jiffy rounding) and want_ms + TIMEOUT_LATE_MS, that the fence
 * says -ETIMEDOUT and GET_FAULT TIMEOUT, that SUBMIT says ECANCELED until
 * the fault is cleared and that the job never reached its store; then
 * clears the fault.
 */
void hang_expect_timeout(struct hang *h, uint32_t want_ms);
void hang_free(struct hang *h);

/*
 * A gate for ordering tests: an endless compute job of a file of its own
 * holds slot 1 for timeout_ms, so chains submitted meanwhile for slot 1
 * (REQ_GATED) start only after it is stopped, while chains for slot 0
 * (REQ_UNGATED) are handed to the GPU at once. On the model those do not
 * run before the gate ends either (see "compute jobs" above), but they are
 * on the GPU first, so a chain that had to wait for a gated one would
 * overtake it if the driver let it.
 */
#define REQ_GATED REQ_SLOT1
#define REQ_UNGATED REQ_SLOT0

struct gate {
	bool on;
	struct sl_drm *dev;
	struct cjob job;
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
void run_compute_tests(void);
void run_fault_tests(void);
void run_fdinfo_tests(void);

#endif
