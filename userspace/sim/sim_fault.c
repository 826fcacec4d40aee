/* SPDX-License-Identifier: MIT */
/*
 * Fault records, the MMU interrupt and DRM_IOCTL_SLEIPNIR_GET_FAULT, as
 * sleipnir.ko's sleipnir_fault.c and the MMU half of sleipnir_mmu.c.
 *
 * Each file keeps the first fault since userspace last cleared them and
 * how many there were; while there is one, SUBMIT on the file fails with
 * -ECANCELED, and every report bumps a generation that cancels the jobs
 * the file had queued before it. A failed chain can be reported twice: by
 * the job interrupt (its JS_STATUS and jc) and, for an MMU fault, by the
 * MMU interrupt (address and access). The second half completes the record
 * the first began instead of counting as a fault of its own.
 *
 * The kernel's records are spinlocked kernel structures, so the rules are
 * written again here rather than shared; they are the same rules.
 */
#include <errno.h>
#include <string.h>

#include "drm/sleipnir_drm.h"
#include "sgpu_regs.h"
#include "sim.h"
#include "sim_sched_priv.h"

static uint32_t as_reg(unsigned int as_nr, uint32_t reg)
{
	return MMU_AS_BASE + as_nr * MMU_AS_STRIDE + reg;
}

void sim_fault_record_locked(struct sim_file_jobs *fj,
			     const struct sleipnir_fault_info *fault)
{
	struct sim_fault_state *state = &fj->faults;

	if (state->count && sleipnir_fault_completes(&state->first, fault)) {
		sleipnir_fault_merge(&state->first, fault);
	} else {
		if (!state->count)
			state->first = *fault;
		state->count++;
	}
	state->generation++;
}

/* --- the MMU interrupt ---------------------------------------------------- */

static void mmu_handle_fault(struct sim_sched *sched, unsigned int as_nr)
{
	struct sim_device *dev = sched->dev;
	uint32_t status = sim_reg_read(dev, as_reg(as_nr, AS_FAULTSTATUS));
	uint64_t addr = sim_reg_read64(dev, as_reg(as_nr, AS_FAULTADDRESS_LO));
	struct sleipnir_fault_info fault = {
		.kind = SLEIPNIR_FAULT_MMU,
		.exception_code = sleipnir_as_fault_code(status),
		.access = sleipnir_as_fault_access(status),
		.address = addr,
		.has_address = true,
	};
	struct sim_file_jobs *fj;

	/*
	 * Take the AS away: on hardware a chain stalled on the fault then
	 * fails, and the file's next chain gets a freshly loaded AS.
	 */
	sim_vm_as_fault(dev, as_nr);
	sim_reg_write(dev, MMU_INT_CLEAR, (1u << as_nr) | (1u << (16 + as_nr)));
	__atomic_add_fetch(&sched->counters.mmu_faults, 1, __ATOMIC_RELAXED);

	pthread_mutex_lock(&sched->lock);
	fj = sched->as_owner[as_nr];
	sched->as_owner[as_nr] = NULL;
	if (fj)
		sim_fault_record_locked(fj, &fault);
	pthread_mutex_unlock(&sched->lock);

	if (!fj)
		sim_klog("MMU fault in unused AS%u at 0x%016llx (status 0x%08x)",
			      as_nr, (unsigned long long)addr, status);
	else
		sim_klog("MMU fault in AS%u, client %d (%s): %s at 0x%016llx, status 0x%08x (code 0x%02x)",
			 as_nr, fj->pid, fj->comm,
			 sleipnir_fault_access_name(fault.access),
			 (unsigned long long)addr, status,
			 fault.exception_code);
	if (fj)
		sim_file_jobs_put(fj);
}

void sim_sched_mmu_faults(struct sim_sched *sched)
{
	uint32_t mask = sleipnir_unit_irq_mask(sched->as_count);
	uint32_t status;

	while ((status = sim_reg_read(sched->dev, MMU_INT_RAWSTAT) & mask)) {
		uint32_t faulty = sleipnir_irq_units(status, sched->as_count);

		for (unsigned int as_nr = 0; as_nr < sched->as_count; as_nr++)
			if (faulty & (1u << as_nr))
				mmu_handle_fault(sched, as_nr);
	}
}

void sim_sched_mmu_irq(struct sim_sched *sched)
{
	pthread_mutex_lock(&sched->hw_lock);
	sim_sched_mmu_faults(sched);
	pthread_mutex_unlock(&sched->hw_lock);
}

/* --- DRM_IOCTL_SLEIPNIR_GET_FAULT ---------------------------------------- */

int sim_ioctl_get_fault(struct sim_file *file, void *arg)
{
	struct drm_sleipnir_get_fault *args = arg;
	struct sim_file_jobs *fj = file->jobs;
	struct sim_sched *sched = fj->sched;
	struct sleipnir_fault_info first;
	uint32_t count;
	int ret = sleipnir_check_get_fault(args);

	if (ret)
		return ret;

	memset(&first, 0, sizeof(first));
	pthread_mutex_lock(&sched->lock);
	count = fj->faults.count;
	if (count)
		first = fj->faults.first;
	if (args->flags & SLEIPNIR_GET_FAULT_CLEAR)
		fj->faults.count = 0;
	pthread_mutex_unlock(&sched->lock);

	sleipnir_get_fault_report(args, count, &first);
	return 0;
}
