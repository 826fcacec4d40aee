/* SPDX-License-Identifier: MIT */
/*
 * The corpus test: every kernel of tests/compiler/corpus/ compiled by
 * slc_compile_source(), run on the model core with seeded random inputs
 * and compared with its C reference (corpus_cases.c); the kernels using an
 * unsupported construct must fail to build with a log naming it.
 *
 * Usage: test_corpus [case...]   (no names: the whole corpus)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "corpus_cases.h"

static bool selected(int argc, char **argv, const char *name)
{
	if (argc < 2)
		return true;
	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], name))
			return true;
	}
	return false;
}

/* An unsupported construct: a build error whose log names it (any case). */
static bool rejected(const char *name)
{
	const char *what = strstr(name, "double") ? "double" : "image";
	char *source = corpus_source(name), *log = NULL;
	struct slb_program prog;
	bool ok;

	if (!source)
		return false;
	if (cr_compile(source, NULL, &prog, &log)) {
		printf("  %s: built, but %s is not supported\n", name, what);
		slb_program_free(&prog);
		ok = false;
	} else {
		ok = log && strcasestr(log, what);
		if (!ok)
			printf("  %s: the build log does not name %s:\n%s\n",
			       name, what, log ? log : "(none)");
	}
	free(log);
	free(source);
	return ok;
}

/* rejected() in a child: a crashing compiler fails this case only. */
static bool rejected_isolated(const char *name)
{
	int status = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return rejected(name);
	if (pid == 0) {
		bool ok = rejected(name);

		fflush(stdout);
		_exit(ok ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("  %s: crashed (signal %d)\n", name, WTERMSIG(status));
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	unsigned int total = 0, passed = 0;
	struct cr_session s;

	if (!cr_init(&s)) {
		printf("corpus: the model did not start\n");
		return 1;
	}
	for (unsigned int k = 0; k < corpus_num_cases; k++) {
		const struct corpus_case *c = &corpus_cases[k];
		struct corpus_outcome o;
		bool ok;

		if (!selected(argc, argv, c->name))
			continue;
		ok = corpus_run_isolated(&s, c, &o);
		corpus_outcome_free(&o);
		printf("%s %s\n", ok ? "ok  " : "FAIL", c->name);
		fflush(stdout);
		total++;
		passed += ok;
	}
	for (unsigned int k = 0; k < corpus_num_unsupported; k++) {
		bool ok;

		if (!selected(argc, argv, corpus_unsupported[k]))
			continue;
		ok = rejected_isolated(corpus_unsupported[k]);
		printf("%s %s\n", ok ? "ok  " : "FAIL", corpus_unsupported[k]);
		total++;
		passed += ok;
	}
	if (!cr_fini(&s)) {
		printf("corpus: the model reported a guard-zone write\n");
		total++;
	}
	/* One count per kernel, in the form make check adds up. */
	printf("corpus: %u passed, %u failed\n", passed, total - passed);
	return passed == total ? 0 : 1;
}
