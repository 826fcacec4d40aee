/* SPDX-License-Identifier: MIT */
/*
 * Compute jobs for the guest tests: a Midgard kernel in assembler text
 * (midgard/README.md, "Assembly syntax") is assembled in the guest
 * and laid out, with the descriptors packed by midgard's
 * midgard_desc.h, in one buffer area the caller has mapped for the CPU and
 * the GPU. Independent of the driver: panfrost_jobs and sleipnir_uapi use
 * it with their own BOs.
 *
 * Area layout (offsets from the area's start; MC_AREA_SIZE bytes, GPU VA
 * 64-byte aligned):
 *   0x0000  the compute job (184 bytes); its header is first, so the
 *           exception status the GPU writes back is at offset 0
 *   0x0100  renderer state (64 bytes)
 *   0x0140  local storage descriptor (32 bytes; no TLS, no WLS)
 *   0x0180  UBO descriptor table: UBO 0 only
 *   0x01c0  UBO 0 (16 bytes): the output buffer's GPU VA (u64)
 *   0x1000  code, to the end of the area. The GPU cannot fetch code across
 *           a 16 MiB boundary (docs/hardware.md §5.1): if the area straddles
 *           one, the code starts at the boundary instead.
 *
 * Every kernel here reads the output buffer's address from UBO 0 at offset
 * 0, as Mesa's compute shaders do.
 */
#ifndef SLEIPNIR_MALI_COMPUTE_H
#define SLEIPNIR_MALI_COMPUTE_H

#include <stddef.h>
#include <stdint.h>

#define MC_AREA_SIZE 0x4000u
#define MC_JOB_OFFSET 0x0000u
#define MC_CODE_OFFSET 0x1000u

struct mc_kernel {
	const char *name;
	const char *source;      /* assembler text */
	unsigned int work_regs;  /* r0..r(work_regs - 1) are used */
};

/*
 * Never ends: every thread spins on a branch to itself. The store after
 * the loop (buf[gid.x] = gid.x) is never reached, so the output buffer
 * stays untouched. Only a hard stop or a GPU reset ends the job (the
 * GPU has no watchdog); the model honours SOFT_STOP only between jobs.
 */
extern const struct mc_kernel mc_endless_kernel;

/*
 * buf[gid.x] = gid.x * 3 + 7, computed by a loop of gid.x iterations that
 * a forward branch skips for gid.x == 0: data-dependent trip counts,
 * forward and backward branches. mc_verify_value() is its C reference.
 */
extern const struct mc_kernel mc_verify_kernel;

static inline uint32_t mc_verify_value(uint32_t gid)
{
	return gid * 3u + 7u;
}

/* A 1-D dispatch: num_groups workgroups of local_size threads. */
struct mc_dispatch {
	uint32_t local_size;
	uint32_t num_groups;
	uint64_t buf_va;         /* the output buffer, put in UBO 0 */
};

/*
 * Assembles k and lays out one compute job for it in the area (cpu, va,
 * size >= MC_AREA_SIZE; see the layout above). Returns the job's GPU VA,
 * or 0 with a message printed when the kernel does not assemble or does
 * not fit, or the sizes do not pack.
 */
uint64_t mc_build_job(void *cpu, uint64_t va, size_t size,
		      const struct mc_kernel *k, const struct mc_dispatch *d);

/* What an output buffer holds before a run, and the guard word after it. */
#define MC_OUT_FILL 0xaaaaaaaau
#define MC_OUT_GUARD 0xa5a5a5a5u

/* Fills n words at out with MC_OUT_FILL and puts MC_OUT_GUARD after them. */
void mc_fill_output(void *out, uint32_t n);

/* How many of the n words at out no longer read MC_OUT_FILL. */
unsigned int mc_output_touched(const void *out, uint32_t n);

/*
 * Compares n words at out with mc_verify_value(0..n-1) and word n with
 * MC_OUT_GUARD (the word past the output must be left alone). Prints the
 * first few mismatches; returns how many words were wrong.
 */
unsigned int mc_verify_check(const void *out, uint32_t n);

#endif
