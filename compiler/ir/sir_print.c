/* SPDX-License-Identifier: MIT */
/*
 * SIR as readable text, for debugging and for tests that want to look at
 * the IR:
 *
 *   func kernel add(%1: ptr.global, %2: i32)
 *   b0:
 *     %5 = iadd i32 %2, %4
 *     br b1
 */
#include "sir.h"

#include <string.h>

static const char *const sir_op_names[SIR_OP_COUNT] = {
	[SIR_OP_INVALID] = "invalid",
	[SIR_OP_CONST] = "const", [SIR_OP_UNDEF] = "undef",
	[SIR_OP_PARAM] = "param", [SIR_OP_VAR_ADDR] = "var_addr",
	[SIR_OP_SYSVAL] = "sysval", [SIR_OP_UNIFORM] = "uniform",
	[SIR_OP_COPY] = "copy", [SIR_OP_PHI] = "phi", [SIR_OP_VEC] = "vec",
	[SIR_OP_EXTRACT] = "extract", [SIR_OP_INSERT] = "insert",
	[SIR_OP_SHUFFLE] = "shuffle", [SIR_OP_SELECT] = "select",
	[SIR_OP_BITCAST] = "bitcast",
	[SIR_OP_IADD] = "iadd", [SIR_OP_ISUB] = "isub",
	[SIR_OP_IMUL] = "imul", [SIR_OP_INEG] = "ineg",
	[SIR_OP_UMULHI] = "umulhi", [SIR_OP_SMULHI] = "smulhi",
	[SIR_OP_UDIV] = "udiv", [SIR_OP_SDIV] = "sdiv",
	[SIR_OP_UREM] = "urem", [SIR_OP_SREM] = "srem",
	[SIR_OP_SMOD] = "smod",
	[SIR_OP_AND] = "and", [SIR_OP_OR] = "or", [SIR_OP_XOR] = "xor",
	[SIR_OP_NOT] = "not",
	[SIR_OP_SHL] = "shl", [SIR_OP_LSHR] = "lshr", [SIR_OP_ASHR] = "ashr",
	[SIR_OP_SMIN] = "smin", [SIR_OP_SMAX] = "smax",
	[SIR_OP_UMIN] = "umin", [SIR_OP_UMAX] = "umax",
	[SIR_OP_IABS] = "iabs",
	[SIR_OP_UADD_SAT] = "uadd_sat", [SIR_OP_SADD_SAT] = "sadd_sat",
	[SIR_OP_USUB_SAT] = "usub_sat", [SIR_OP_SSUB_SAT] = "ssub_sat",
	[SIR_OP_CLZ] = "clz", [SIR_OP_POPCOUNT] = "popcount",
	[SIR_OP_FADD] = "fadd", [SIR_OP_FSUB] = "fsub",
	[SIR_OP_FMUL] = "fmul", [SIR_OP_FDIV] = "fdiv",
	[SIR_OP_FNEG] = "fneg", [SIR_OP_FABS] = "fabs",
	[SIR_OP_FMIN] = "fmin", [SIR_OP_FMAX] = "fmax",
	[SIR_OP_FMA] = "fma", [SIR_OP_FMAD] = "fmad",
	[SIR_OP_FFLOOR] = "ffloor", [SIR_OP_FCEIL] = "fceil",
	[SIR_OP_FTRUNC] = "ftrunc", [SIR_OP_FRINT] = "frint",
	[SIR_OP_FROUND] = "fround",
	[SIR_OP_FSQRT] = "fsqrt", [SIR_OP_FRSQ] = "frsq",
	[SIR_OP_FRCP] = "frcp",
	[SIR_OP_FEXP2] = "fexp2", [SIR_OP_FLOG2] = "flog2",
	[SIR_OP_FSIN] = "fsin", [SIR_OP_FCOS] = "fcos",
	[SIR_OP_FCOPYSIGN] = "fcopysign",
	[SIR_OP_IEQ] = "ieq", [SIR_OP_INE] = "ine",
	[SIR_OP_SLT] = "slt", [SIR_OP_SLE] = "sle",
	[SIR_OP_ULT] = "ult", [SIR_OP_ULE] = "ule",
	[SIR_OP_FEQ] = "feq", [SIR_OP_FNE] = "fne",
	[SIR_OP_FLT] = "flt", [SIR_OP_FLE] = "fle",
	[SIR_OP_FUNORD] = "funord",
	[SIR_OP_BNOT] = "bnot", [SIR_OP_BAND] = "band", [SIR_OP_BOR] = "bor",
	[SIR_OP_BEQ] = "beq", [SIR_OP_BNE] = "bne",
	[SIR_OP_ANY] = "any", [SIR_OP_ALL] = "all", [SIR_OP_FDOT] = "fdot",
	[SIR_OP_SEXT] = "sext", [SIR_OP_ZEXT] = "zext",
	[SIR_OP_TRUNC] = "trunc",
	[SIR_OP_F2S] = "f2s", [SIR_OP_F2U] = "f2u",
	[SIR_OP_S2F] = "s2f", [SIR_OP_U2F] = "u2f",
	[SIR_OP_FCONV] = "fconv",
	[SIR_OP_PTR_ADD] = "ptr_add", [SIR_OP_LOAD] = "load",
	[SIR_OP_STORE] = "store", [SIR_OP_ATOMIC] = "atomic",
	[SIR_OP_BARRIER] = "barrier", [SIR_OP_PRINTF] = "printf",
	[SIR_OP_IMAGE_WORD] = "image_word",
	[SIR_OP_IMAGE_STORE] = "image_store",
	[SIR_OP_IMAGE_LOAD] = "image_load",
	[SIR_OP_IMAGE_SAMPLE] = "image_sample",
	[SIR_OP_CALL] = "call", [SIR_OP_BR] = "br", [SIR_OP_CBR] = "cbr",
	[SIR_OP_RET] = "ret",
};

static const char *const sir_space_names[] = {
	"private", "global", "constant", "local",
};

static const char *const sir_sysval_names[SIR_SYSVAL_COUNT] = {
	"global_id", "local_id", "group_id", "num_groups", "local_size",
	"global_size", "global_offset", "work_dim", "constant_base",
	"printf_buffer",
};

static const char *const sir_atomic_names[] = {
	"add", "sub", "xchg", "cmpxchg", "smin", "smax", "umin", "umax",
	"and", "or", "xor", "inc", "dec", "load", "store",
};

const char *sir_op_name(enum sir_op op)
{
	if ((unsigned int)op >= SIR_OP_COUNT || !sir_op_names[op])
		return "?";
	return sir_op_names[op];
}

static void sir_print_type(FILE *out, struct sir_type t)
{
	switch (t.kind) {
	case SIR_VOID:
		fputs("void", out);
		return;
	case SIR_BOOL:
		fputs("bool", out);
		break;
	case SIR_INT:
		fprintf(out, "i%u", t.bits);
		break;
	case SIR_FLOAT:
		fprintf(out, "f%u", t.bits);
		break;
	case SIR_PTR:
		fprintf(out, "ptr.%s", t.space < 4 ? sir_space_names[t.space]
						   : "?");
		break;
	default:
		fputs("?", out);
		return;
	}
	if (t.comps > 1)
		fprintf(out, "x%u", t.comps);
}

static void sir_print_const(FILE *out, const struct sir_instr *in)
{
	unsigned int i;

	for (i = 0; i < in->type.comps && i < 16; i++) {
		uint64_t u = in->imm.u64[i];

		fputs(i ? ", " : " ", out);
		if (in->type.kind == SIR_FLOAT && in->type.bits == 32) {
			uint32_t w = (uint32_t)u;
			float fl;

			memcpy(&fl, &w, 4);
			fprintf(out, "%g", (double)fl);
		} else if (in->type.kind == SIR_FLOAT && in->type.bits == 64) {
			fprintf(out, "%g", in->imm.f64[i]);
		} else if (u > 0xffff) {
			fprintf(out, "0x%llx", (unsigned long long)u);
		} else {
			fprintf(out, "%llu", (unsigned long long)u);
		}
	}
}

static void sir_print_instr(FILE *out, const struct sir_function *f,
			    sir_id id)
{
	const struct sir_instr *in = &f->values[id];
	uint32_t s;

	fputs("  ", out);
	if (in->type.kind != SIR_VOID)
		fprintf(out, "%%%u = ", id);
	fputs(sir_op_name((enum sir_op)in->op), out);
	if (in->type.kind != SIR_VOID) {
		fputc(' ', out);
		sir_print_type(out, in->type);
	}
	for (s = 0; s < in->num_srcs; s++) {
		fprintf(out, "%s%%%u", s ? ", " : " ", in->srcs[s]);
		if (in->op == SIR_OP_PHI && in->phi_blocks)
			fprintf(out, " [b%u]", in->phi_blocks[s]);
	}
	switch (in->op) {
	case SIR_OP_CONST:
		sir_print_const(out, in);
		break;
	case SIR_OP_PARAM:
	case SIR_OP_VAR_ADDR:
	case SIR_OP_UNIFORM:
	case SIR_OP_EXTRACT:
	case SIR_OP_INSERT:
	case SIR_OP_IMAGE_WORD:
	case SIR_OP_IMAGE_STORE:
	case SIR_OP_IMAGE_LOAD:
	case SIR_OP_IMAGE_SAMPLE:
		fprintf(out, " #%u", in->aux);
		break;
	case SIR_OP_SYSVAL:
		fprintf(out, " %s", in->aux < SIR_SYSVAL_COUNT
				    ? sir_sysval_names[in->aux] : "?");
		break;
	case SIR_OP_SHUFFLE:
		fputs(" [", out);
		for (s = 0; s < in->type.comps && s < 16; s++)
			fprintf(out, "%s%llu", s ? " " : "",
				(unsigned long long)in->imm.u64[s]);
		fputc(']', out);
		break;
	case SIR_OP_SEXT: case SIR_OP_ZEXT: case SIR_OP_TRUNC:
	case SIR_OP_F2S: case SIR_OP_F2U: case SIR_OP_S2F: case SIR_OP_U2F:
	case SIR_OP_FCONV:
		if (in->aux)
			fprintf(out, " flags=%u", in->aux);
		break;
	case SIR_OP_PTR_ADD:
	case SIR_OP_LOAD:
	case SIR_OP_STORE:
		if (in->aux)
			fprintf(out, " align=%u", in->aux);
		break;
	case SIR_OP_ATOMIC:
		fprintf(out, " %s", in->aux2 < sizeof(sir_atomic_names) /
					       sizeof(sir_atomic_names[0])
				    ? sir_atomic_names[in->aux2] : "?");
		break;
	case SIR_OP_BARRIER:
		fprintf(out, " fence=%u%s", in->aux,
			in->aux2 ? " workgroup" : "");
		break;
	case SIR_OP_CALL:
		fprintf(out, " @%u", in->aux);
		break;
	case SIR_OP_BR:
		fprintf(out, " b%u", in->targets[0]);
		break;
	case SIR_OP_CBR:
		fprintf(out, " b%u, b%u", in->targets[0], in->targets[1]);
		break;
	default:
		break;
	}
	fputc('\n', out);
}

void sir_print_function(FILE *out, const struct sir_function *f)
{
	uint32_t i, b;

	fprintf(out, "func %s%s(", f->is_kernel ? "kernel " : "", f->name);
	for (i = 0; i < f->num_params; i++) {
		fprintf(out, "%s", i ? ", " : "");
		sir_print_type(out, f->params[i].type);
		if (f->params[i].name && f->params[i].name[0])
			fprintf(out, " %s", f->params[i].name);
	}
	fputs(") -> ", out);
	sir_print_type(out, f->ret);
	fputc('\n', out);
	if (f->reqd_wg_size[0])
		fprintf(out, "  reqd_work_group_size(%u, %u, %u)\n",
			f->reqd_wg_size[0], f->reqd_wg_size[1],
			f->reqd_wg_size[2]);
	for (i = 0; i < f->num_vars; i++)
		fprintf(out, "  var #%u: %u bytes, align %u%s\n", i,
			f->vars[i].size, f->vars[i].align,
			f->vars[i].is_array ? ", array" : "");
	/* Operands that live outside blocks (constants, params...). */
	for (i = 1; i < f->num_values; i++) {
		const struct sir_instr *in = &f->values[i];

		if (in->op != SIR_OP_INVALID && in->block == UINT32_MAX &&
		    in->num_srcs == 0 && in->op != SIR_OP_BR &&
		    in->op != SIR_OP_RET)
			sir_print_instr(out, f, i);
	}
	for (b = 0; b < f->num_blocks; b++) {
		const struct sir_block *blk = &f->blocks[b];

		fprintf(out, "b%u:", b);
		if (blk->num_preds) {
			fputs("  ; preds", out);
			for (i = 0; i < blk->num_preds; i++)
				fprintf(out, " b%u", blk->preds[i]);
		}
		fputc('\n', out);
		for (i = 0; i < blk->num_instrs; i++)
			sir_print_instr(out, f, blk->instrs[i]);
	}
}
