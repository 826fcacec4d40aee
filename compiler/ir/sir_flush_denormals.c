/* SPDX-License-Identifier: MIT */
/*
 * -cl-denorms-are-zero (OpenCL 1.2 §5.6.4.3): a program built with it may
 * have its single-precision denormals flushed to zero. The ALU keeps
 * denormals (qemu/README.md), so values computed at run time stay as
 * they are; the denormal constants float arithmetic reads are what the
 * compiler can flush, and does, as hardware flushing its inputs would:
 * a zero of the same sign. A constant also read as bits (a bitcast, a
 * store) keeps its bits there: only the float operands change.
 */
#include "sir_passes.h"

static bool reads_floats(enum sir_op op)
{
	return (op >= SIR_OP_FADD && op <= SIR_OP_FCOPYSIGN) ||
	       (op >= SIR_OP_FEQ && op <= SIR_OP_FUNORD);
}

static bool is_denormal_f32(uint64_t bits)
{
	return (bits & 0x7f800000u) == 0 && (bits & 0x007fffffu) != 0;
}

/* A flushed copy of the f32 constant @c, or SIR_NONE when it has no
 * denormal lane. */
static sir_id flushed_copy(struct sir_function *f, sir_id c)
{
	struct sir_instr *in = sir_val(f, c);
	struct sir_type t = in->type;
	uint64_t lanes[16];
	bool any = false;
	sir_id copy;

	if (in->op != SIR_OP_CONST || t.kind != SIR_FLOAT || t.bits != 32)
		return SIR_NONE;
	for (unsigned int i = 0; i < t.comps && i < 16; i++) {
		lanes[i] = in->imm.u64[i];
		if (is_denormal_f32(lanes[i])) {
			lanes[i] &= 0x80000000u;
			any = true;
		}
	}
	if (!any)
		return SIR_NONE;
	copy = sir_value_new(f, SIR_OP_CONST, t, NULL, 0);
	/* sir_value_new may have moved the values. */
	for (unsigned int i = 0; i < t.comps && i < 16; i++)
		f->values[copy].imm.u64[i] = lanes[i];
	return copy;
}

void sir_flush_denormal_constants(struct sir_function *f)
{
	uint32_t n = f->num_values;

	for (sir_id v = 1; v < n; v++) {
		for (uint32_t s = 0; s < f->values[v].num_srcs; s++) {
			sir_id copy;

			if (!reads_floats(f->values[v].op))
				break;
			copy = flushed_copy(f, f->values[v].srcs[s]);
			if (copy)
				f->values[v].srcs[s] = copy;
		}
	}
}
