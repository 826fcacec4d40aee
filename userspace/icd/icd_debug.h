/* SPDX-License-Identifier: MIT */
/*
 * SLEIPNIR_DEBUG: a comma-separated list of what the runtime reports on
 * stderr. "jobs" prints every job chain it submits, decoded by the
 * hardware library's decoder (midgard_job_decode.c), the same text the
 * model's "sgpu_jobs" trace shows for the chains it runs.
 */
#ifndef ICD_DEBUG_H
#define ICD_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

#include "sl_drm.h"

/* Whether SLEIPNIR_DEBUG names @flag (read once). */
bool icd_debug(const char *flag);

/*
 * Prints the chain starting at @jc, reading GPU memory through the CPU
 * mappings of @bos (the chain's descriptors are in them; anything else
 * is printed as unreadable).
 */
void icd_debug_print_chain(const struct sl_bo *const *bos, unsigned int n,
			   uint64_t jc);

#endif
