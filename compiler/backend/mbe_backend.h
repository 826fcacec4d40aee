/* SPDX-License-Identifier: MIT */
/*
 * The Midgard back end: one lowered SIR kernel in, Midgard code and the
 * kernel's launch figures out. Stages, one file each: instruction selection
 * (mbe_isel.c), scheduling into VLIW bundles (mbe_sched.c), register
 * allocation with spilling (mbe_ra.c), bundle encoding through the ISA
 * library (mbe_emit.c), static statistics (mbe_stats.c).
 */
#ifndef SLEIPNIR_MBE_BACKEND_H
#define SLEIPNIR_MBE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../binary/slb_binary.h"
#include "../ir/sir.h"

struct mbe_backend_options {
	/*
	 * Most work registers the allocator may use (1-16); it spills to
	 * thread storage to stay within. 16 unless a required work-group
	 * size needs more threads per core.
	 */
	unsigned int max_work_regs;
};

struct mbe_code {
	uint8_t *code;               /* malloc'ed, 16 zero bytes appended */
	size_t size;
};

/*
 * Compiles kernel f (already through sir_lower_abi and sir_lower_midgard).
 * Fills k's code-dependent fields: first_tag, work_regs, threads_per_core,
 * push_vec4, needs_ubo, private_bytes (spills added to what is there),
 * barrier, stats; the caller places the code and sets code_offset. False
 * with a message when the kernel cannot be compiled.
 */
bool mbe_compile_kernel(struct sir_function *f,
			const struct mbe_backend_options *opts,
			struct slb_kernel *k, struct mbe_code *out,
			char *err, size_t errsz);

#endif
