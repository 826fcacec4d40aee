/* SPDX-License-Identifier: MIT */
/*
 * The compiler's benchmark (`make bench`): for every corpus kernel, the
 * binary's static figures (bundles, instructions per unit, cycles per pipe,
 * work registers, spills) and the model's measured cycles per element;
 * then the arithmetic-cycle ratio of each scalar twin to its float4 twin.
 * Prints a table and writes JSON to the file named by its argument.
 *
 * Usage: bench_compiler results.json
 */
#include <stdio.h>

#include "corpus_cases.h"

static const char *const unit_names[5] = {
	"vmul", "sadd", "vadd", "smul", "vlut",
};

static const char *kind_name(enum corpus_kind kind)
{
	return kind == CORPUS_SEED ? "seed" :
	       kind == CORPUS_TWIN ? "twin" : "feature";
}

static double per_element(uint64_t cycles, const struct corpus_outcome *o)
{
	return o->elements ? (double)cycles / o->elements : 0;
}

static void json_kernel(FILE *f, const struct corpus_case *c,
			const struct corpus_outcome *o, bool first)
{
	const struct slb_kernel *k = &o->kernel;
	const struct slb_stats *st = &k->stats;

	fprintf(f, "%s\n    {\"name\": \"%s\", \"kind\": \"%s\", "
		"\"built\": %s, \"passed\": %s", first ? "" : ",", c->name,
		kind_name(c->kind), o->built ? "true" : "false",
		o->passed ? "true" : "false");
	if (o->built) {
		fprintf(f, ", \"alu_bundles\": %u, \"ldst_bundles\": %u, "
			"\"units\": {", st->alu_bundles, st->ldst_bundles);
		for (int u = 0; u < 5; u++)
			fprintf(f, "%s\"%s\": %u", u ? ", " : "", unit_names[u],
				st->unit_instrs[u]);
		fprintf(f, "}, \"ldst_instrs\": %u, \"branch_instrs\": %u, "
			"\"shortest_cycles\": [%u, %u, %u], "
			"\"longest_cycles\": [%u, %u, %u], "
			"\"longest_unbounded\": %s, \"work_regs\": %u, "
			"\"threads_per_core\": %u, \"spills\": %u, "
			"\"fills\": %u, \"private_bytes\": %u",
			st->ldst_instrs, st->branch_instrs,
			st->shortest_cycles[0], st->shortest_cycles[1],
			st->shortest_cycles[2], st->longest_cycles[0],
			st->longest_cycles[1], st->longest_cycles[2],
			st->longest_unbounded ? "true" : "false",
			k->work_regs, k->threads_per_core, st->spills,
			st->fills, k->private_bytes);
	}
	if (o->passed)
		fprintf(f, ", \"elements\": %u, "
			"\"arith_cycles_per_element\": %.4f, "
			"\"ls_cycles_per_element\": %.4f, "
			"\"cycles_per_element\": %.4f",
			o->elements, per_element(o->figures.arith_cycles, o),
			per_element(o->figures.ls_cycles, o),
			per_element(o->figures.cycles, o));
	fprintf(f, "}");
}

static void print_kernel(const struct corpus_case *c,
			 const struct corpus_outcome *o)
{
	const struct slb_stats *st = &o->kernel.stats;

	if (!o->built) {
		printf("  %-24s does not build\n", c->name);
		return;
	}
	printf("  %-24s %4u %4u  %3u %3u %3u %3u %3u  %4u/%-4u %2u %3u",
	       c->name, st->alu_bundles, st->ldst_bundles,
	       st->unit_instrs[0], st->unit_instrs[1], st->unit_instrs[2],
	       st->unit_instrs[3], st->unit_instrs[4],
	       st->shortest_cycles[0], st->shortest_cycles[1],
	       o->kernel.work_regs, st->spills);
	if (o->passed)
		printf("  %8.3f %8.3f %8.3f\n",
		       per_element(o->figures.arith_cycles, o),
		       per_element(o->figures.ls_cycles, o),
		       per_element(o->figures.cycles, o));
	else
		printf("  (wrong results)\n");
}

int main(int argc, char **argv)
{
	static struct corpus_outcome outcomes[256];
	struct cr_session s;
	bool first = true;
	FILE *f;

	if (argc != 2 || corpus_num_cases > 256) {
		fprintf(stderr, "usage: bench_compiler results.json\n");
		return 2;
	}
	if (!cr_init(&s))
		return 1;
	s.quiet = true;
	f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	printf("  %-24s %4s %4s  %3s %3s %3s %3s %3s  %9s %2s %3s  %8s %8s "
	       "%8s\n", "kernel", "alu", "ldst", "vml", "sad", "vad", "sml",
	       "vlt", "A/LS cyc", "wr", "spl", "A/elem", "LS/elem",
	       "cyc/elem");
	fprintf(f, "{\"benchmark\": \"compiler\", \"kernels\": [");
	for (unsigned int k = 0; k < corpus_num_cases; k++) {
		const struct corpus_case *c = &corpus_cases[k];

		corpus_run_isolated(&s, c, &outcomes[k]);
		print_kernel(c, &outcomes[k]);
		json_kernel(f, c, &outcomes[k], first);
		first = false;
	}
	fprintf(f, "\n  ], \"twins\": [");
	printf("scalar / float4 arithmetic cycles per element (>= 3.5):\n");
	first = true;
	for (unsigned int k = 0; k < corpus_num_cases; k++) {
		const struct corpus_case *c = &corpus_cases[k];
		const struct corpus_case *v;
		const struct corpus_outcome *so = &outcomes[k], *vo;
		double ratio = 0;

		v = c->vector_twin ? corpus_find(c->vector_twin) : NULL;
		if (!v)
			continue;
		vo = &outcomes[v - corpus_cases];
		if (so->passed && vo->passed &&
		    corpus_arith_per_element(vo) > 0)
			ratio = corpus_arith_per_element(so) /
				corpus_arith_per_element(vo);
		printf("  %-16s %-16s %6.2f\n", c->name, v->name, ratio);
		fprintf(f, "%s\n    {\"scalar\": \"%s\", \"vector\": \"%s\", "
			"\"ratio\": %.4f}", first ? "" : ",", c->name,
			v->name, ratio);
		first = false;
	}
	fprintf(f, "\n  ]}\n");
	fclose(f);
	for (unsigned int k = 0; k < corpus_num_cases; k++)
		corpus_outcome_free(&outcomes[k]);
	return cr_fini(&s) ? 0 : 1;
}
