// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sleipnir: fault records and DRM_IOCTL_SLEIPNIR_GET_FAULT.
 *
 * A failed chain can be reported twice: by the job interrupt (JS_STATUS)
 * and, for MMU faults, by the MMU interrupt (address and access type). The
 * two can arrive in either order, so a report fills in what the first one
 * lacked instead of counting as a second fault of its own.
 */
#include <linux/seq_file.h>
#include <linux/string.h>

#include <drm/drm_file.h>
#include <drm/sleipnir_drm.h>

#include "sleipnir_drv.h"
#include "sleipnir_fault.h"
#include "sleipnir_mmu.h"
#include "sleipnir_rules.h"

void sleipnir_fault_state_init(struct sleipnir_fault_state *state)
{
	spin_lock_init(&state->lock);
	state->count = 0;
	atomic_set(&state->generation, 0);
}

bool sleipnir_fault_pending(struct sleipnir_fault_state *state)
{
	bool pending;

	spin_lock(&state->lock);
	pending = state->count > 0;
	spin_unlock(&state->lock);

	return pending;
}

/* Whether the pending fault's address is known (or there is none). */
bool sleipnir_fault_has_address(struct sleipnir_fault_state *state)
{
	bool known;

	spin_lock(&state->lock);
	known = sleipnir_fault_address_known(state->count, &state->first.info);
	spin_unlock(&state->lock);

	return known;
}

void sleipnir_fault_record(struct sleipnir_fault_state *state,
			   struct sleipnir_fault_log *log,
			   const struct sleipnir_fault *fault)
{
	struct sleipnir_fault *entry;
	bool merged = false;

	spin_lock(&state->lock);
	if (state->count &&
	    sleipnir_fault_completes(&state->first.info, &fault->info)) {
		sleipnir_fault_merge(&state->first.info, &fault->info);
		merged = true;
	} else {
		if (!state->count)
			state->first = *fault;
		state->count++;
	}
	atomic_inc(&state->generation);
	spin_unlock(&state->lock);

	spin_lock(&log->lock);
	if (merged && log->total) {
		entry = &log->ring[(log->total - 1) % SLEIPNIR_FAULT_LOG_SIZE];
		if (entry->pid == fault->pid &&
		    sleipnir_fault_completes(&entry->info, &fault->info)) {
			sleipnir_fault_merge(&entry->info, &fault->info);
			spin_unlock(&log->lock);
			return;
		}
	}
	log->ring[log->total % SLEIPNIR_FAULT_LOG_SIZE] = *fault;
	log->total++;
	spin_unlock(&log->lock);
}

void sleipnir_fault_log_init(struct sleipnir_fault_log *log)
{
	spin_lock_init(&log->lock);
	log->total = 0;
}

void sleipnir_fault_log_show(struct sleipnir_fault_log *log,
			     struct seq_file *m)
{
	struct sleipnir_fault f;
	u64 total, first, i;

	spin_lock(&log->lock);
	total = log->total;
	spin_unlock(&log->lock);

	seq_printf(m, "total: %llu\n", total);
	first = total > SLEIPNIR_FAULT_LOG_SIZE ?
		total - SLEIPNIR_FAULT_LOG_SIZE : 0;
	for (i = first; i < total; i++) {
		spin_lock(&log->lock);
		f = log->ring[i % SLEIPNIR_FAULT_LOG_SIZE];
		spin_unlock(&log->lock);
		seq_printf(m, "%lld.%06lld pid %d (%s): %s code 0x%02x jc 0x%llx",
			   ktime_to_us(f.time) / USEC_PER_SEC,
			   ktime_to_us(f.time) % USEC_PER_SEC, f.pid, f.comm,
			   sleipnir_fault_kind_name(f.info.kind),
			   f.info.exception_code, f.info.jc);
		if (f.info.has_address)
			seq_printf(m, " %s at 0x%016llx",
				   sleipnir_fault_access_name(f.info.access),
				   f.info.address);
		seq_puts(m, "\n");
	}
}

int sleipnir_ioctl_get_fault(struct drm_device *ddev, void *data,
			     struct drm_file *file)
{
	struct sleipnir_file *sfile = file->driver_priv;
	struct sleipnir_fault_state *state = &sfile->vm->faults;
	struct drm_sleipnir_get_fault *args = data;
	struct sleipnir_fault first = {};
	u32 count;
	int ret;

	ret = sleipnir_check_get_fault(args);
	if (ret)
		return ret;

	spin_lock(&state->lock);
	count = state->count;
	if (count)
		first = state->first;
	if (args->flags & SLEIPNIR_GET_FAULT_CLEAR)
		state->count = 0;
	spin_unlock(&state->lock);

	sleipnir_get_fault_report(args, count, &first.info);

	return 0;
}
