/* SPDX-License-Identifier: MIT */
/*
 * The front end: clang-15 -cc1 (OpenCL C 1.2 for the 32-bit SPIR target)
 * to LLVM bitcode, llvm-spirv-15 to SPIR-V. Children are spawned without
 * a shell in a mkdtemp directory, which is emptied and removed afterwards;
 * the source file is called input.cl there so clang's messages read
 * "input.cl:LINE:COL: error: ...".
 */
#include "clc_frontend.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Files the children create in the private directory. */
static const char *const work_files[] = {
	"input.cl", "input.bc", "input.spv", "deps.d", "clang.log",
	"spirv.log",
};

/* dir/name into out; false when it does not fit. */
static bool dir_path(char *out, size_t size, const char *dir,
		     const char *name)
{
	int n = snprintf(out, size, "%s/%s", dir, name);

	return n > 0 && (size_t)n < size;
}

struct tool {
	const char *env;             /* overriding variable */
	const char *names[2];        /* looked up in $PATH otherwise */
};

static const struct tool clang_tool = {
	"SLEIPNIR_CLANG", { "clang-15", "clang" } };
static const struct tool spirv_tool = {
	"SLEIPNIR_LLVM_SPIRV", { "llvm-spirv-15", "llvm-spirv" } };
static const struct tool opt_tool = {
	"SLEIPNIR_LLVM_OPT", { "opt-15", "opt" } };

/*
 * LLVM passes run before llvm-spirv. Not clang's -O2 pipeline: it makes
 * IR that llvm-spirv-15 cannot translate (`freeze` from DivRemPairs,
 * instcombine narrowing switch conditions to odd widths such as i3), and
 * switch-to-lookup tables. These scalar passes give our own passes clean
 * SSA to start from, with loops of small constant trip counts unrolled;
 * inlining and the rest happen in compiler/ir/.
 *
 * Full unrolling uses a threshold of 300 (LLVM's AMDGPU target uses the
 * same; the generic default is 150): on Midgard an unrolled constant loop
 * drops its counter and branch, its addresses fold into load offsets and
 * its lane updates become one vector, which the default stops short of
 * for loops of four float4 steps.
 */
static const char opt_passes[] =
	"-passes=function(sroa,early-cse<memssa>,"
	"simplifycfg<no-switch-to-lookup;no-switch-range-to-icmp>,"
	"loop(loop-rotate),loop-mssa(licm),loop(indvars,loop-unroll-full),"
	"gvn,sccp,dce,"
	"simplifycfg<no-switch-to-lookup;no-switch-range-to-icmp>)";
static const char opt_unroll[] = "-unroll-threshold=300";

static bool executable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

static bool search_path(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH"), *p, *end;

	if (strchr(name, '/')) {
		snprintf(out, size, "%s", name);
		return executable(out);
	}
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *end ? end + 1 : end) {
		int n;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		n = snprintf(out, size, "%.*s/%s", (int)(end - p), p, name);
		if (n > 0 && (size_t)n < size && end > p && executable(out))
			return true;
	}
	return false;
}

static bool find_tool(const struct tool *t, char *out, size_t size,
		      struct clc_log *log)
{
	const char *env = getenv(t->env);

	if (env && *env) {
		if (search_path(env, out, size))
			return true;
		clc_log_printf(log, "error: %s=%s: no such program\n", t->env,
			       env);
		return false;
	}
	for (size_t i = 0; i < 2; i++)
		if (search_path(t->names[i], out, size))
			return true;
	clc_log_printf(log, "error: %s not found in PATH (set %s)\n",
		       t->names[0], t->env);
	return false;
}

static void append_identity(char *buf, size_t size, const char *path)
{
	size_t len = strlen(buf);
	struct stat st;

	if (stat(path, &st))
		memset(&st, 0, sizeof(st));
	snprintf(buf + len, size - len, "%s:%lld:%lld.%09ld;", path,
		 (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		 st.st_mtim.tv_nsec);
}

bool clc_tools_identity(char *buf, size_t size, struct clc_log *log)
{
	char clang[PATH_MAX], spirv[PATH_MAX], opt[PATH_MAX];

	if (!size || !find_tool(&clang_tool, clang, sizeof(clang), log) ||
	    !find_tool(&spirv_tool, spirv, sizeof(spirv), log) ||
	    !find_tool(&opt_tool, opt, sizeof(opt), log))
		return false;
	buf[0] = '\0';
	append_identity(buf, size, clang);
	append_identity(buf, size, spirv);
	append_identity(buf, size, opt);
	snprintf(buf + strlen(buf), size - strlen(buf), "%s %s;", opt_unroll,
		 opt_passes);
	return true;
}

/* Appends a file's bytes (a child's stderr) to the log verbatim. */
static void append_file(struct clc_log *log, const char *path)
{
	char chunk[4096];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		clc_log_append(log, chunk, n);
	fclose(f);
}

/*
 * Runs argv[0] in dir with stdin and stdout on /dev/null and stderr in
 * dir/log_name, which goes to the log. True when it exited with status 0.
 */
static bool run_tool(const char *dir, char *const argv[],
		     const char *log_name, struct clc_log *log)
{
	char log_path[PATH_MAX];
	posix_spawn_file_actions_t fa;
	int status = 0, err;
	pid_t pid;

	if (!dir_path(log_path, sizeof(log_path), dir, log_name)) {
		clc_log_printf(log, "error: temporary path too long\n");
		return false;
	}
	if (posix_spawn_file_actions_init(&fa)) {
		clc_log_printf(log, "error: out of memory\n");
		return false;
	}
	err = posix_spawn_file_actions_addchdir_np(&fa, dir);
	if (!err)
		err = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						       O_RDONLY, 0);
	if (!err)
		err = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
						       O_WRONLY, 0);
	if (!err)
		err = posix_spawn_file_actions_addopen(&fa, 2, log_path,
						       O_WRONLY | O_CREAT |
						       O_TRUNC, 0600);
	if (!err)
		err = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err) {
		clc_log_printf(log, "error: cannot run %s: %s\n", argv[0],
			       strerror(err));
		return false;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			clc_log_printf(log, "error: waiting for %s: %s\n",
				       argv[0], strerror(errno));
			return false;
		}
	}
	append_file(log, log_path);
	if (WIFSIGNALED(status)) {
		clc_log_printf(log, "error: %s terminated by signal %d\n",
			       argv[0], WTERMSIG(status));
		return false;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	size_t len = strlen(text);
	bool ok;

	if (!f)
		return false;
	ok = fwrite(text, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

static enum slc_status read_spirv(const char *path, struct clc_spirv *out,
				  struct clc_log *log)
{
	FILE *f = fopen(path, "rb");
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		if (f)
			fclose(f);
		clc_log_printf(log, "error: llvm-spirv wrote no module\n");
		return SLC_BUILD_FAILED;
	}
	if (!len || len % 4) {
		fclose(f);
		clc_log_printf(log, "error: llvm-spirv wrote %ld bytes, not "
			       "SPIR-V words\n", len);
		return SLC_BUILD_FAILED;
	}
	out->words = malloc((size_t)len);
	if (!out->words) {
		fclose(f);
		clc_log_printf(log, "error: out of memory\n");
		return SLC_OUT_OF_MEMORY;
	}
	if (fread(out->words, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(out->words);
		out->words = NULL;
		clc_log_printf(log, "error: cannot read %s\n", path);
		return SLC_BUILD_FAILED;
	}
	fclose(f);
	out->num_words = (size_t)len / 4;
	return SLC_OK;
}

/*
 * clang's dependency file: "input.bc: input.cl [more files]". Anything
 * beyond input.cl is a header of the user's (the default OpenCL header
 * is a system header and not listed).
 */
static bool only_own_source(const char *path)
{
	char word[PATH_MAX];
	FILE *f = fopen(path, "r");
	int words = 0;

	if (!f)
		return false;
	while (fscanf(f, "%4095s", word) == 1)
		if (strcmp(word, "\\"))
			words++;
	fclose(f);
	/* "input.bc:" and "input.cl" */
	return words == 2;
}

static void remove_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		for (size_t i = 0;
		     i < sizeof(work_files) / sizeof(work_files[0]); i++)
			unlinkat(fd, work_files[i], 0);
		close(fd);
	}
	rmdir(dir);
}


static enum slc_status run_clang(const char *dir, const char *clang,
				 const struct clc_options *o,
				 struct clc_log *log)
{
	static const char *const fixed[] = {
		"-cc1", "-triple", "spir-unknown-unknown",
		"-finclude-default-header", "-fdeclare-opencl-builtins",
		"-cl-kernel-arg-info", "-emit-llvm-bc",
		/* llvm-spirv-15 asserts on opaque pointers. */
		"-no-opaque-pointers",
		"-dependency-file", "deps.d", "-MT", "input.bc",
	};
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]), n = 0;
	char **argv = calloc(nfixed + o->num_clang_args + 7, sizeof(*argv));
	bool ok;

	if (!argv) {
		clc_log_printf(log, "error: out of memory\n");
		return SLC_OUT_OF_MEMORY;
	}
	argv[n++] = (char *)clang;
	for (size_t i = 0; i < nfixed; i++)
		argv[n++] = (char *)fixed[i];
	/* Optimised by opt_passes afterwards (see there). */
	argv[n++] = "-O0";
	argv[n++] = "-disable-O0-optnone";
	for (unsigned int i = 0; i < o->num_clang_args; i++)
		argv[n++] = o->clang_args[i];
	argv[n++] = "input.cl";
	argv[n++] = "-o";
	argv[n++] = "input.bc";
	argv[n] = NULL;
	ok = run_tool(dir, argv, "clang.log", log);
	free(argv);
	return ok ? SLC_OK : SLC_BUILD_FAILED;
}

enum slc_status clc_compile(const char *source, const struct clc_options *o,
			    struct clc_spirv *out, struct clc_log *log)
{
	char clang[PATH_MAX], spirv[PATH_MAX], opt[PATH_MAX];
	char dir[PATH_MAX], path[PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	enum slc_status st;

	memset(out, 0, sizeof(*out));
	if (!find_tool(&clang_tool, clang, sizeof(clang), log) ||
	    !find_tool(&spirv_tool, spirv, sizeof(spirv), log) ||
	    !find_tool(&opt_tool, opt, sizeof(opt), log))
		return SLC_BUILD_FAILED;
	/* Room for the work files' names after the directory's. */
	if (!dir_path(dir, sizeof(dir) - 32, tmp && *tmp ? tmp : "/tmp",
		      "sleipnir-clc-XXXXXX") || !mkdtemp(dir)) {
		clc_log_printf(log, "error: cannot create a temporary "
			       "directory: %s\n", strerror(errno));
		return SLC_BUILD_FAILED;
	}
	if (!dir_path(path, sizeof(path), dir, "input.cl") ||
	    !write_file(path, source)) {
		clc_log_printf(log, "error: cannot write %s: %s\n", path,
			       strerror(errno));
		st = SLC_BUILD_FAILED;
		goto out;
	}
	st = run_clang(dir, clang, o, log);
	if (st != SLC_OK)
		goto out;
	if (!o->opt_disable) {
		char *argv[] = { opt, (char *)opt_unroll, (char *)opt_passes,
				 "input.bc", "-o", "input.bc", NULL };

		if (!run_tool(dir, argv, "opt.log", log)) {
			clc_log_printf(log, "error: opt failed\n");
			st = SLC_BUILD_FAILED;
			goto out;
		}
	}
	{
		/* The string keeps the kernels' argument type names (with
		 * signedness) for clGetKernelArgInfo. */
		char *argv[] = { spirv,
			"--preserve-ocl-kernel-arg-type-metadata-through-string",
			"input.bc", "-o", "input.spv", NULL };

		if (!run_tool(dir, argv, "spirv.log", log)) {
			clc_log_printf(log, "error: llvm-spirv failed\n");
			st = SLC_BUILD_FAILED;
			goto out;
		}
	}
	st = dir_path(path, sizeof(path), dir, "input.spv") ?
	     read_spirv(path, out, log) : SLC_BUILD_FAILED;
	out->cacheable = dir_path(path, sizeof(path), dir, "deps.d") &&
			 only_own_source(path);
out:
	remove_dir(dir);
	return st;
}
