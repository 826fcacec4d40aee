/* SPDX-License-Identifier: MIT */
/*
 * The front end: clang-15 -cc1 (OpenCL C 1.2 for the 32-bit SPIR target)
 * to LLVM bitcode, opt-15, llvm-spirv-15 to SPIR-V; for separate
 * compilation the same steps apart, with llvm-link-15 between them.
 * Children are spawned without a shell in a mkdtemp directory, which is
 * removed with everything in it afterwards; the source file is called
 * input.cl there so clang's messages read "input.cl:LINE:COL: error: ...".
 */
#include "clc_frontend.h"
#include "clc_ir_loops.h"
#include "clc_vec_hint.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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
static const struct tool link_tool = {
	"SLEIPNIR_LLVM_LINK", { "llvm-link-15", "llvm-link" } };

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
/* Local value names read whole from textual IR (see clang_fixed). */
static const char opt_names[] = "-non-global-value-max-name-size=4294967295";

/*
 * A function with more loops than this gets opt_passes_many_loops: the
 * scalar passes without loop rotation, induction variable simplification
 * and full unrolling. LLVM 15's LoopRotate updates the dominator tree and
 * ScalarEvolution of all the code after each loop it rotates, so a
 * function of k loops in n instructions costs k x n (1,000 loops in one
 * kernel: 1.5 s of opt, and four times as much per doubling), and on loops
 * left unrotated IndVarSimplify and the unroller are worse still (their
 * ScalarEvolution queries walk back through every earlier loop). Below
 * the limit the quadratic term is at most this many passes over the
 * function. Our back end runs loops in either form (unrotated ones are
 * often faster on Midgard: one branch per iteration either way, and no
 * copy of the header as a guard); what is lost is the full unrolling of
 * constant-trip-count loops, in functions that have hundreds of loops.
 */
#define MAX_ROTATED_LOOPS 128
static const char opt_passes_many_loops[] =
	"-passes=function(sroa,early-cse<memssa>,"
	"simplifycfg<no-switch-to-lookup;no-switch-range-to-icmp>,"
	"loop-mssa(licm),gvn,sccp,dce,"
	"simplifycfg<no-switch-to-lookup;no-switch-range-to-icmp>)";

/*
 * clang's arguments that no build option changes.
 *
 * Code generation is at -O2, clang's default for OpenCL, with LLVM's
 * passes off (opt_passes run afterwards, see there). At -O0 clang leaves
 * out the body of every C99 inline definition (a plain `inline` function,
 * without `static` or `extern`): such a body is only ever given to an
 * optimiser, as an available_externally function, and the call is left to
 * an external definition that no OpenCL program has ("function X is not
 * defined"). At -O2 the body is there; llvm-spirv keeps it (with Import
 * linkage) and the SPIR-V reader uses it, as every optimising OpenCL
 * compiler uses an inline definition. `static inline` and `extern inline`
 * keep their C99 meaning (internal; the external definition). Without
 * TBAA (strict aliasing is -cl-strict-aliasing's to permit, and only in
 * OpenCL 1.0) and without lifetime markers the IR is otherwise what -O0
 * gives; -O2 also keeps loops free of "do not unroll" hints.
 *
 * The device: the extensions of SLC_DEVICE_EXTENSIONS and no others
 * (clang's SPIR target would enable every extension it knows, fp64 and
 * fp16 among them), __OPENCL_VERSION__ (clang defines it for no SPIR
 * target) and __IMAGE_SUPPORT__ only with images (clang's SPIR target
 * defines it always). clang defines the other macros of OpenCL 1.2 §6.10
 * as the specification says: __OPENCL_C_VERSION__ from -cl-std, the
 * CL_VERSION_* constants, __ENDIAN_LITTLE__, __kernel_exec,
 * __FAST_RELAXED_MATH__ with -cl-fast-relaxed-math, and no FP_FAST_FMAF
 * (fma is a long integer sequence here, sir_lower_fma.c).
 */
#define STR_(x) #x
#define STR(x) STR_(x)
static const char *const clang_fixed[] = {
	"-cc1", "-triple", "spir-unknown-unknown",
	"-finclude-default-header", "-fdeclare-opencl-builtins",
	"-cl-kernel-arg-info",
	/* llvm-spirv-15 asserts on opaque pointers. */
	"-no-opaque-pointers",
	"-O2", "-disable-llvm-passes", "-relaxed-aliasing",
	"-disable-lifetime-markers",
	/*
	 * Local value names whole: LLVM cuts them at 1024 characters and
	 * numbers the clashes, which the textual IR opt reads back cannot
	 * always express (a 4000-character parameter and its ".addr" slot).
	 */
	"-mllvm", "-non-global-value-max-name-size=4294967295",
	"-D__OPENCL_VERSION__=" STR(SLC_DEVICE_OPENCL_VERSION),
#if !SLC_DEVICE_IMAGE_SUPPORT
	"-U__IMAGE_SUPPORT__",
#endif
};
#define NUM_CLANG_FIXED (sizeof(clang_fixed) / sizeof(clang_fixed[0]))

/* "-cl-ext=-all,+ext,+ext..." of SLC_DEVICE_EXTENSIONS. */
#define CL_EXT_SIZE (sizeof("-cl-ext=-all") + 2 * sizeof(SLC_DEVICE_EXTENSIONS))
static void cl_ext_arg(char out[CL_EXT_SIZE])
{
	const char *p = SLC_DEVICE_EXTENSIONS;
	size_t n = (size_t)sprintf(out, "-cl-ext=-all");

	while (*p) {
		size_t len = strcspn(p, " ");

		if (len)
			n += (size_t)sprintf(out + n, ",+%.*s", (int)len, p);
		p += len;
		p += strspn(p, " ");
	}
}

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
		log->transient = true;
		return false;
	}
	for (size_t i = 0; i < 2; i++)
		if (search_path(t->names[i], out, size))
			return true;
	clc_log_printf(log, "error: %s not found in PATH (set %s)\n",
		       t->names[0], t->env);
	log->transient = true;
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
	char cl_ext[CL_EXT_SIZE];

	if (!size || !find_tool(&clang_tool, clang, sizeof(clang), log) ||
	    !find_tool(&spirv_tool, spirv, sizeof(spirv), log) ||
	    !find_tool(&opt_tool, opt, sizeof(opt), log))
		return false;
	buf[0] = '\0';
	append_identity(buf, size, clang);
	append_identity(buf, size, spirv);
	append_identity(buf, size, opt);
	snprintf(buf + strlen(buf), size - strlen(buf), "%s %s %s %d %s;",
		 opt_names, opt_unroll, opt_passes, MAX_ROTATED_LOOPS,
		 opt_passes_many_loops);
	/* What clang is told besides the build options. */
	for (size_t i = 0; i < NUM_CLANG_FIXED; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s ",
			 clang_fixed[i]);
	cl_ext_arg(cl_ext);
	snprintf(buf + strlen(buf), size - strlen(buf), "%s;", cl_ext);
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
		log->transient = true;
		return false;
	}
	if (posix_spawn_file_actions_init(&fa)) {
		clc_log_printf(log, "error: out of memory\n");
		log->transient = true;
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
		log->transient = true;
		return false;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			clc_log_printf(log, "error: waiting for %s: %s\n",
				       argv[0], strerror(errno));
			log->transient = true;
			return false;
		}
	}
	append_file(log, log_path);
	/* Killed (the kernel's OOM killer, a timeout) or crashed: neither
	 * is the source's doing for certain. */
	if (WIFSIGNALED(status)) {
		clc_log_printf(log, "error: %s terminated by signal %d\n",
			       argv[0], WTERMSIG(status));
		log->transient = true;
		return false;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static bool write_bytes(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	bool ok;

	if (!f)
		return false;
	ok = !size || fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok;
}

/* dir/name holding @size bytes; false (with a log line) on failure. */
static bool write_work_file(const char *dir, const char *name,
			    const void *data, size_t size,
			    struct clc_log *log)
{
	char path[PATH_MAX];

	if (!dir_path(path, sizeof(path), dir, name) ||
	    !write_bytes(path, data, size)) {
		clc_log_printf(log, "error: cannot write %s/%s: %s\n", dir,
			       name, strerror(errno));
		log->transient = true;
		return false;
	}
	return true;
}

/* The whole of dir/name, malloc'ed; @what names its maker for the log. */
static enum slc_status read_work_file(const char *dir, const char *name,
				      const char *what, struct clc_blob *out,
				      struct clc_log *log)
{
	char path[PATH_MAX];
	FILE *f = NULL;
	long len = -1;

	memset(out, 0, sizeof(*out));
	if (dir_path(path, sizeof(path), dir, name))
		f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET)) {
		if (f)
			fclose(f);
		clc_log_printf(log, "error: %s wrote no output\n", what);
		log->transient = true;
		return SLC_BUILD_FAILED;
	}
	out->data = malloc((size_t)len);
	if (!out->data) {
		fclose(f);
		clc_log_printf(log, "error: out of memory\n");
		log->transient = true;
		return SLC_OUT_OF_MEMORY;
	}
	if (fread(out->data, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(out->data);
		out->data = NULL;
		clc_log_printf(log, "error: cannot read %s\n", path);
		log->transient = true;
		return SLC_BUILD_FAILED;
	}
	fclose(f);
	out->size = (size_t)len;
	return SLC_OK;
}

static enum slc_status read_spirv(const char *dir, struct clc_spirv *out,
				  struct clc_log *log)
{
	struct clc_blob b;
	enum slc_status st = read_work_file(dir, "input.spv", "llvm-spirv",
					    &b, log);

	if (st != SLC_OK)
		return st;
	if (b.size % 4) {
		clc_log_printf(log, "error: llvm-spirv wrote %zu bytes, not "
			       "SPIR-V words\n", b.size);
		free(b.data);
		return SLC_BUILD_FAILED;
	}
	out->words = (uint32_t *)(void *)b.data;
	out->num_words = b.size / 4;
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

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

/* The private directory and everything the steps left in it (logs,
 * intermediate files, embedded headers). */
static void remove_work_dir(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static bool make_work_dir(char *dir, size_t size, struct clc_log *log)
{
	const char *tmp = getenv("TMPDIR");

	/* Room for the work files' names after the directory's. */
	if (size < 64 || !dir_path(dir, size - 32, tmp && *tmp ? tmp : "/tmp",
				   "sleipnir-clc-XXXXXX") || !mkdtemp(dir)) {
		clc_log_printf(log, "error: cannot create a temporary "
			       "directory: %s\n", strerror(errno));
		log->transient = true;
		return false;
	}
	return true;
}

/* clang: dir/input.cl to dir/input.bc, or to textual IR in dir/input.ll
 * when @text (deps.d beside it). @include_dir, when not NULL, is searched
 * first for #include. */
static enum slc_status run_clang(const char *dir, const char *clang,
				 const struct clc_options *o,
				 const char *include_dir, bool text,
				 struct clc_log *log)
{
	static const char *const deps[] = {
		"-dependency-file", "deps.d", "-MT", "input.bc",
	};
	size_t ndeps = sizeof(deps) / sizeof(deps[0]), n = 0;
	char **argv = calloc(NUM_CLANG_FIXED + ndeps + o->num_clang_args + 9,
			     sizeof(*argv));
	char cl_ext[CL_EXT_SIZE];
	bool ok;

	if (!argv) {
		clc_log_printf(log, "error: out of memory\n");
		log->transient = true;
		return SLC_OUT_OF_MEMORY;
	}
	cl_ext_arg(cl_ext);
	argv[n++] = (char *)clang;
	for (size_t i = 0; i < NUM_CLANG_FIXED; i++)
		argv[n++] = (char *)clang_fixed[i];
	argv[n++] = cl_ext;
	for (size_t i = 0; i < ndeps; i++)
		argv[n++] = (char *)deps[i];
	argv[n++] = text ? "-emit-llvm" : "-emit-llvm-bc";
	if (include_dir) {
		argv[n++] = "-I";
		argv[n++] = (char *)include_dir;
	}
	for (unsigned int i = 0; i < o->num_clang_args; i++)
		argv[n++] = o->clang_args[i];
	argv[n++] = "input.cl";
	argv[n++] = "-o";
	argv[n++] = text ? "input.ll" : "input.bc";
	argv[n] = NULL;
	ok = run_tool(dir, argv, "clang.log", log);
	free(argv);
	return ok ? SLC_OK : SLC_BUILD_FAILED;
}

/* opt with @passes (none when NULL) on dir/@input, to dir/input.bc. */
static enum slc_status run_opt(const char *dir, const char *opt,
			       const char *input, const char *passes,
			       struct clc_log *log)
{
	char *with[] = { (char *)opt, (char *)opt_names, (char *)opt_unroll,
			 (char *)passes, (char *)input, "-o", "input.bc",
			 NULL };
	char *without[] = { (char *)opt, (char *)opt_names, (char *)input,
			    "-o", "input.bc", NULL };
	char **argv = passes ? with : without;

	if (!run_tool(dir, argv, "opt.log", log)) {
		clc_log_printf(log, "error: opt failed\n");
		return SLC_BUILD_FAILED;
	}
	return SLC_OK;
}

/* llvm-spirv: dir/input.bc to dir/input.spv, read into out. */
static enum slc_status run_spirv(const char *dir, const char *spirv,
				 struct clc_spirv *out, struct clc_log *log)
{
	/* The string keeps the kernels' argument type names (with
	 * signedness) for clGetKernelArgInfo. */
	char *argv[] = { (char *)spirv,
		"--preserve-ocl-kernel-arg-type-metadata-through-string",
		"input.bc", "-o", "input.spv", NULL };

	if (!run_tool(dir, argv, "spirv.log", log)) {
		clc_log_printf(log, "error: llvm-spirv failed\n");
		return SLC_BUILD_FAILED;
	}
	return read_spirv(dir, out, log);
}

/*
 * From clang's dir/input.ll: out->unsigned_vec_hints when @vec_hints, and
 * the pass list for opt into *passes.
 */
static enum slc_status read_ir(const char *dir, bool vec_hints,
			       struct clc_spirv *out, const char **passes,
			       struct clc_log *log)
{
	size_t loops;
	struct clc_blob ir;
	enum slc_status st = read_work_file(dir, "input.ll", "clang", &ir,
					    log);
	char *text;

	if (st != SLC_OK)
		return st;
	text = realloc(ir.data, ir.size + 1);
	if (!text) {
		free(ir.data);
		clc_log_printf(log, "error: out of memory\n");
		return SLC_OUT_OF_MEMORY;
	}
	text[ir.size] = '\0';
	loops = clc_ir_max_function_loops(text, ir.size);
	*passes = loops > MAX_ROTATED_LOOPS ? opt_passes_many_loops :
		  opt_passes;
	if (vec_hints)
		out->unsigned_vec_hints = clc_unsigned_vec_hints(text);
	free(text);
	if (loops == (size_t)-1 || (vec_hints && !out->unsigned_vec_hints)) {
		clc_log_printf(log, "error: out of memory\n");
		return SLC_OUT_OF_MEMORY;
	}
	return SLC_OK;
}

void clc_spirv_free(struct clc_spirv *s)
{
	free(s->words);
	free(s->unsigned_vec_hints);
	memset(s, 0, sizeof(*s));
}

enum slc_status clc_compile(const char *source, const struct clc_options *o,
			    struct clc_spirv *out, struct clc_log *log)
{
	char clang[PATH_MAX], spirv[PATH_MAX], opt[PATH_MAX];
	char dir[PATH_MAX], path[PATH_MAX];
	enum slc_status st;
	const char *passes = opt_passes;

	memset(out, 0, sizeof(*out));
	if (!find_tool(&clang_tool, clang, sizeof(clang), log) ||
	    !find_tool(&spirv_tool, spirv, sizeof(spirv), log) ||
	    !find_tool(&opt_tool, opt, sizeof(opt), log))
		return SLC_BUILD_FAILED;
	if (!make_work_dir(dir, sizeof(dir), log))
		return SLC_BUILD_FAILED;
	st = SLC_BUILD_FAILED;
	if (!write_work_file(dir, "input.cl", source, strlen(source), log))
		goto out;
	/*
	 * Textual IR, read for its loops per function (the pass list, see
	 * MAX_ROTATED_LOOPS) and, when the source names vec_type_hint, for
	 * the hints' signedness, which only clang's IR keeps
	 * (clc_vec_hint.h); opt makes the bitcode.
	 */
	st = run_clang(dir, clang, o, NULL, true, log);
	if (st == SLC_OK)
		st = read_ir(dir, strstr(source, "vec_type_hint") != NULL,
			     out, &passes, log);
	if (st == SLC_OK)
		st = run_opt(dir, opt, "input.ll",
			     o->opt_disable ? NULL : passes, log);
	if (st == SLC_OK)
		st = run_spirv(dir, spirv, out, log);
	out->cacheable = dir_path(path, sizeof(path), dir, "deps.d") &&
			 only_own_source(path);
out:
	remove_work_dir(dir);
	if (st != SLC_OK) {
		/* A failed build is cached too (clc_spirv.cacheable). */
		bool cacheable = out->cacheable;

		clc_spirv_free(out);
		out->cacheable = cacheable;
	}
	return st;
}

/*
 * A header name as #include may use: relative, without "." or ".."
 * components (which would escape the directory the headers are written
 * to) and without empty ones.
 */
static bool header_name_ok(const char *name)
{
	const char *p = name;

	if (!*name || *name == '/')
		return false;
	while (*p) {
		size_t len = strcspn(p, "/");

		if (!len || (len == 1 && p[0] == '.') ||
		    (len == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += len;
		if (*p == '/' && !*++p)
			return false;
	}
	return strlen(name) < PATH_MAX / 2;
}

/* Writes each header at @include_dir/NAME, making the folders its name
 * holds. */
static bool write_headers(const char *include_dir,
			  const struct slc_header *headers, size_t n,
			  struct clc_log *log)
{
	char path[PATH_MAX];

	if (mkdir(include_dir, 0700)) {
		clc_log_printf(log, "error: cannot create %s: %s\n",
			       include_dir, strerror(errno));
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = headers[i].name;

		if (!name || !headers[i].source || !header_name_ok(name)) {
			clc_log_printf(log, "error: embedded header %zu: "
				       "invalid include name '%s'\n", i,
				       name ? name : "(null)");
			return false;
		}
		if (!dir_path(path, sizeof(path), include_dir, name)) {
			clc_log_printf(log, "error: header name too long\n");
			return false;
		}
		/* The folders of "a/b/c.h" first; one may already exist. */
		for (char *s = path + strlen(include_dir) + 1;
		     (s = strchr(s, '/')); s++) {
			*s = '\0';
			if (mkdir(path, 0700) && errno != EEXIST) {
				clc_log_printf(log, "error: cannot create "
					       "%s: %s\n", path,
					       strerror(errno));
				return false;
			}
			*s = '/';
		}
		if (!write_bytes(path, headers[i].source,
				 strlen(headers[i].source))) {
			clc_log_printf(log, "error: cannot write %s: %s\n",
				       path, strerror(errno));
			return false;
		}
	}
	return true;
}

enum slc_status clc_compile_bitcode(const char *source,
				    const struct clc_options *o,
				    const struct slc_header *headers,
				    size_t num_headers, struct clc_blob *out,
				    struct clc_log *log)
{
	char clang[PATH_MAX], dir[PATH_MAX], include_dir[PATH_MAX];
	enum slc_status st = SLC_BUILD_FAILED;

	memset(out, 0, sizeof(*out));
	if (!find_tool(&clang_tool, clang, sizeof(clang), log) ||
	    !make_work_dir(dir, sizeof(dir), log))
		return SLC_BUILD_FAILED;
	if (!write_work_file(dir, "input.cl", source, strlen(source), log))
		goto out;
	if (num_headers &&
	    (!dir_path(include_dir, sizeof(include_dir), dir, "include") ||
	     !write_headers(include_dir, headers, num_headers, log)))
		goto out;
	st = run_clang(dir, clang, o, num_headers ? include_dir : NULL, false,
		       log);
	if (st == SLC_OK)
		st = read_work_file(dir, "input.bc", "clang", out, log);
out:
	remove_work_dir(dir);
	return st;
}

enum slc_status clc_spirv_to_bitcode(const uint32_t *words, size_t n,
				     struct clc_blob *out,
				     struct clc_log *log)
{
	char spirv[PATH_MAX], dir[PATH_MAX];
	enum slc_status st = SLC_BUILD_FAILED;

	memset(out, 0, sizeof(*out));
	if (!find_tool(&spirv_tool, spirv, sizeof(spirv), log) ||
	    !make_work_dir(dir, sizeof(dir), log))
		return SLC_BUILD_FAILED;
	if (write_work_file(dir, "input.spv", words, n * sizeof(*words),
			    log)) {
		char *argv[] = { spirv, "-r", "input.spv", "-o", "input.bc",
				 NULL };

		if (run_tool(dir, argv, "spirv.log", log))
			st = read_work_file(dir, "input.bc", "llvm-spirv", out,
					    log);
		else
			clc_log_printf(log, "error: llvm-spirv could not "
				       "translate the SPIR-V module\n");
	}
	remove_work_dir(dir);
	return st;
}

enum slc_status clc_link_bitcode(const struct clc_blob *inputs, size_t n,
				 struct clc_blob *out, struct clc_log *log)
{
	char link[PATH_MAX], dir[PATH_MAX];
	char **argv = NULL, (*names)[32] = NULL;
	enum slc_status st = SLC_BUILD_FAILED;
	size_t k = 0;

	memset(out, 0, sizeof(*out));
	if (!n) {
		clc_log_printf(log, "error: nothing to link\n");
		return SLC_BUILD_FAILED;
	}
	if (!find_tool(&link_tool, link, sizeof(link), log) ||
	    !make_work_dir(dir, sizeof(dir), log))
		return SLC_BUILD_FAILED;
	argv = calloc(n + 5, sizeof(*argv));
	names = calloc(n, sizeof(*names));
	if (!argv || !names) {
		clc_log_printf(log, "error: out of memory\n");
		st = SLC_OUT_OF_MEMORY;
		goto out;
	}
	argv[k++] = link;
	for (size_t i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "in%zu.bc", i);
		if (!write_work_file(dir, names[i], inputs[i].data,
				     inputs[i].size, log))
			goto out;
		argv[k++] = names[i];
	}
	argv[k++] = "-o";
	argv[k++] = "linked.bc";
	argv[k] = NULL;
	if (run_tool(dir, argv, "link.log", log))
		st = read_work_file(dir, "linked.bc", "llvm-link", out, log);
	else
		clc_log_printf(log, "error: llvm-link failed\n");
out:
	free(argv);
	free(names);
	remove_work_dir(dir);
	return st;
}

enum slc_status clc_bitcode_to_spirv(const uint8_t *bitcode, size_t size,
				     bool optimize, struct clc_spirv *out,
				     struct clc_log *log)
{
	char spirv[PATH_MAX], opt[PATH_MAX], dir[PATH_MAX];
	enum slc_status st = SLC_BUILD_FAILED;

	memset(out, 0, sizeof(*out));
	if (!find_tool(&spirv_tool, spirv, sizeof(spirv), log) ||
	    !find_tool(&opt_tool, opt, sizeof(opt), log) ||
	    !make_work_dir(dir, sizeof(dir), log))
		return SLC_BUILD_FAILED;
	if (write_work_file(dir, "input.bc", bitcode, size, log)) {
		st = optimize ? run_opt(dir, opt, "input.bc", opt_passes,
					log) :
			 SLC_OK;
		if (st == SLC_OK)
			st = run_spirv(dir, spirv, out, log);
	}
	remove_work_dir(dir);
	return st;
}
