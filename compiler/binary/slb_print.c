/* SPDX-License-Identifier: MIT */
#include "slb_print.h"

#include <stdlib.h>

#include "midgard_isa.h"

static const char *const arg_kinds[] = { "value", "global", "constant",
					 "local", "sampler", "image" };
static const char *const accesses[] = { "read_only", "write_only",
					"read_write", "none" };
static const char *const sysval_names[SLB_SYSVAL_COUNT] = {
	"global_offset.x", "global_offset.y", "global_offset.z",
	"global_size.x", "global_size.y", "global_size.z",
	"local_size.x", "local_size.y", "local_size.z",
	"num_groups.x", "num_groups.y", "num_groups.z",
	"work_dim", "constant_base", "printf_buffer",
};

/* Values come from slb_read (validated) or the compiler; clamp anyway. */
static const char *pick(const char *const *names, size_t n, uint32_t i)
{
	return i < n ? names[i] : "?";
}

void slb_print_kernel_header(FILE *out, const struct slb_kernel *k)
{
	fprintf(out, "; kernel %s\n", k->name);
	if (k->attributes && k->attributes[0])
		fprintf(out, ";   attributes: %s\n", k->attributes);
	fprintf(out, ";   code: %u bytes at offset %u, first tag 0x%x\n",
		k->code_size, k->code_offset, k->first_tag);
	fprintf(out, ";   work registers: %u (%u threads per core), "
		"max work-group size %u", k->work_regs, k->threads_per_core,
		k->max_wg_size);
	if (k->reqd_wg_size[0])
		fprintf(out, ", required %ux%ux%u", k->reqd_wg_size[0],
			k->reqd_wg_size[1], k->reqd_wg_size[2]);
	fprintf(out, "\n;   argument image: %u bytes, %u pushed vec4 "
		"(r23 down)%s\n", k->uniform_bytes, k->push_vec4,
		k->needs_ubo ? ", also UBO 0" : "");
	fprintf(out, ";   private: %u bytes per thread; local: %u static "
		"bytes per group%s\n", k->private_bytes,
		k->local_static_bytes, k->barrier ? "; barrier" : "");
	for (uint32_t i = 0; i < k->num_args; i++) {
		const struct slb_arg *a = &k->args[i];

		fprintf(out, ";   arg %u: %s%s%s%s %s [%u..%u) %s, %s\n", i,
			a->qualifiers & SLB_QUAL_CONST ? "const " : "",
			a->qualifiers & SLB_QUAL_RESTRICT ? "restrict " : "",
			a->qualifiers & SLB_QUAL_VOLATILE ? "volatile " : "",
			a->type_name[0] ? a->type_name : "?",
			a->name[0] ? a->name : "(unnamed)", a->offset,
			a->offset + a->size, pick(arg_kinds, 6, a->kind),
			pick(accesses, 4, a->access));
	}
	for (uint32_t i = 0; i < k->num_sysvals; i++)
		fprintf(out, ";   sysval %s at %u\n",
			pick(sysval_names, SLB_SYSVAL_COUNT,
			     k->sysvals[i].sysval),
			k->sysvals[i].offset);
	for (uint32_t i = 0; i < k->num_const_samplers; i++)
		fprintf(out, ";   constant sampler %u: 0x%02x\n",
			k->const_samplers[i].index, k->const_samplers[i].value);
}

/* The pipe(s) with the most cycles: "A", "LS", "T" or a tie like "A, LS". */
static void print_bound(FILE *out, const uint32_t cycles[3])
{
	static const char *const pipes[3] = { "A", "LS", "T" };
	uint32_t max = cycles[0];
	bool first = true;

	for (int i = 1; i < 3; i++)
		if (cycles[i] > max)
			max = cycles[i];
	if (!max) {
		fprintf(out, "%8s", "-");
		return;
	}
	fputs("   ", out);
	for (int i = 0; i < 3; i++) {
		if (cycles[i] != max)
			continue;
		fprintf(out, "%s%s", first ? "" : ", ", pipes[i]);
		first = false;
	}
}

static void print_cycles(FILE *out, const char *what, const uint32_t c[3],
			 const char *note)
{
	fprintf(out, "%-24s%8u%8u%8u", what, c[0], c[1], c[2]);
	print_bound(out, c);
	fprintf(out, "%s\n", note);
}

void slb_print_kernel_stats(FILE *out, const struct slb_kernel *k)
{
	const struct slb_stats *s = &k->stats;

	fprintf(out, "Kernel: %s\n", k->name);
	fprintf(out, "Work registers: %u\n", k->work_regs);
	fprintf(out, "Uniform registers: %u\n", k->push_vec4);
	if (s->spills || s->fills)
		fprintf(out, "Stack spilling: true (%u spills, %u fills, "
			"%u bytes of thread storage)\n", s->spills, s->fills,
			k->private_bytes);
	else
		fprintf(out, "Stack spilling: false\n");
	fprintf(out, "Threads per core: %u\n", k->threads_per_core);
	fprintf(out, "Max work-group size: %u\n", k->max_wg_size);
	fprintf(out, "Bundles: %u arithmetic, %u load/store, %u texture\n",
		s->alu_bundles, s->ldst_bundles, s->tex_bundles);
	fprintf(out, "Instructions: VMUL %u, SADD %u, VADD %u, SMUL %u, "
		"VLUT %u, load/store %u, branch %u\n", s->unit_instrs[0],
		s->unit_instrs[1], s->unit_instrs[2], s->unit_instrs[3],
		s->unit_instrs[4], s->ldst_instrs, s->branch_instrs);
	fprintf(out, "%-24s%8s%8s%8s   %s\n", "", "A", "LS", "T", "Bound");
	print_cycles(out, "Shortest path cycles:", s->shortest_cycles, "");
	print_cycles(out, "Longest path cycles:", s->longest_cycles,
		     s->longest_unbounded ? " (loops: one iteration each)" :
					    "");
	fprintf(out, "A = arithmetic, LS = load/store, T = texture\n");
}

bool slb_print_kernel_code(FILE *out, const struct slb_program *p,
			   const struct slb_kernel *k, char *err, size_t errsz)
{
	const uint8_t *code;
	long len;
	char *text;

	if ((uint64_t)k->code_offset + k->code_size > p->code_size) {
		snprintf(err, errsz, "kernel %s: code outside the program",
			 k->name);
		return false;
	}
	code = p->code + k->code_offset;
	len = mdg_disassemble(code, k->code_size, k->first_tag, NULL, 0, err,
			      errsz);
	if (len < 0)
		return false;
	text = malloc((size_t)len + 1);
	if (!text) {
		snprintf(err, errsz, "out of memory");
		return false;
	}
	mdg_disassemble(code, k->code_size, k->first_tag, text,
			(size_t)len + 1, err, errsz);
	fputs(text, out);
	free(text);
	return true;
}

void slb_print_printf_table(FILE *out, const struct slb_program *p)
{
	static const char *const kinds[] = { "int", "float", "string",
					     "pointer" };

	for (uint32_t i = 0; i < p->num_printf_calls; i++) {
		const struct slb_printf_call *c = &p->printf_calls[i];
		const char *f = c->format < p->num_printf_strings ?
				p->printf_strings[c->format] : "";

		fprintf(out, "; printf call %u: %u-byte record, format \"", i,
			c->record_bytes);
		/* The format's escapes as C writes them. */
		for (; *f; f++) {
			if (*f == '\n')
				fputs("\\n", out);
			else if (*f == '"' || *f == '\\')
				fprintf(out, "\\%c", *f);
			else if ((unsigned char)*f < 0x20)
				fprintf(out, "\\x%02x", (unsigned char)*f);
			else
				fputc(*f, out);
		}
		fputs("\"\n", out);
		for (uint32_t j = 0; j < c->num_args; j++) {
			const struct slb_printf_arg *a = &c->args[j];

			fprintf(out, ";   arg %u: %s, %u x %u bytes at %u\n", j,
				pick(kinds, 4, a->kind), a->lanes,
				a->elem_bytes, a->offset);
		}
	}
}
