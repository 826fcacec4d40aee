/* SPDX-License-Identifier: MIT */
/*
 * The shader cores. The Midgard ISA interpreter arrives in a later issue;
 * until then no compute kernel can run, and pretending one did (reporting
 * DONE with nothing written) would make a wrong result look right. So every
 * dispatch fails with INSTR_INVALID_ENC (0x51), a listed exception code
 * panfrost turns into -EINVAL for the job, and the guest log says why.
 */
#include "sgpu_shader_core.h"

#define EXC_INSTR_INVALID_ENC 0x51

uint32_t sgpu_shader_core_run(struct sgpu_shader_ctx *ctx,
			      const struct sgpu_compute_dispatch *dispatch)
{
	sgpu_shader_guest_error(ctx, "sgpu: shader execution not implemented "
				"yet (compute job 0x%llx, shader 0x%llx)",
				(unsigned long long)dispatch->job_va,
				(unsigned long long)dispatch->shader_va);
	return EXC_INSTR_INVALID_ENC;
}
