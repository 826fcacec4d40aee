/* SPDX-License-Identifier: MIT */
/*
 * The job types that need no shader core: NULL, WRITE_VALUE and
 * CACHE_FLUSH (docs/hardware.md §4.2).
 */
#include "midgard_desc.h"
#include "sgpu_internal.h"

uint32_t sgpu_job_null(struct sgpu_job *job)
{
	(void)job;
	return 0;
}

/*
 * WRITE_VALUE writes a 64-bit value (the width is undocumented; the cycle
 * counter and timestamp are 64-bit quantities, and Zero is written the same
 * way): type 1 the cycle counter, 2 the system timestamp (the SoC's system
 * counter, like GPU_TIMESTAMP), 3 zero. Any other type is a malformed
 * descriptor and fails with JOB_CONFIG_FAULT, the code the model uses for
 * every invalid descriptor field - except the test-hang type when that is
 * enabled.
 */
uint32_t sgpu_job_write_value(struct sgpu_job *job)
{
	struct sgpu *gpu = job->gpu;
	uint8_t payload[MDG_WRITE_VALUE_PAYLOAD_BYTES], value[8];
	uint64_t address, v;
	uint32_t type, code;

	code = sgpu_vm_read(gpu, job->as_nr,
			    job->va + MDG_WRITE_VALUE_JOB_PAYLOAD_OFFSET,
			    payload, sizeof(payload), AS_ACCESS_READ);
	if (code)
		return code;
	address = mdg_get(payload, MDG_WRITE_VALUE_PAYLOAD_ADDRESS);
	type = (uint32_t)mdg_get(payload, MDG_WRITE_VALUE_PAYLOAD_TYPE);

	switch (type) {
	case MDG_WRITE_VALUE_TYPE_CYCLE_COUNTER:
		v = sgpu_cycles_locked(gpu);
		break;
	case MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP:
		v = sgpu_timestamp(gpu);
		break;
	case MDG_WRITE_VALUE_TYPE_ZERO:
		v = 0;
		break;
	default:
		if (type == SGPU_TEST_HANG_TYPE && gpu->config.test_hang_jobs) {
			sgpu_trace(gpu, "sgpu_test_hang", "js=%u job=0x%llx",
				   job->js, (unsigned long long)job->va);
			return SGPU_JOB_HANG;
		}
		sgpu_guest_error(gpu, "sgpu: WRITE_VALUE job 0x%llx has "
				 "invalid type %u",
				 (unsigned long long)job->va, type);
		return MDG_EXCEPTION_JOB_CONFIG_FAULT;
	}
	sgpu_put_le64(value, v);
	return sgpu_vm_write(gpu, job->as_nr, address, value, sizeof(value));
}

/*
 * CACHE_FLUSH: the model has no caches (every write reaches RAM at once),
 * so the flags need no action; the payload is still fetched, as the job
 * manager would.
 */
uint32_t sgpu_job_cache_flush(struct sgpu_job *job)
{
	uint8_t payload[MDG_CACHE_FLUSH_PAYLOAD_BYTES];

	return sgpu_vm_read(job->gpu, job->as_nr,
			    job->va + MDG_CACHE_FLUSH_JOB_PAYLOAD_OFFSET,
			    payload, sizeof(payload), AS_ACCESS_READ);
}
