/* SPDX-License-Identifier: MIT */
/*
 * Build options. OpenCL 1.2 §5.6.4 lists them all: preprocessor (-D, -I),
 * math intrinsics (-cl-single-precision-constant, -cl-denorms-are-zero,
 * -cl-fp32-correctly-rounded-divide-sqrt), optimisation (-cl-opt-disable,
 * -cl-mad-enable, -cl-no-signed-zeros, -cl-unsafe-math-optimizations,
 * -cl-finite-math-only, -cl-fast-relaxed-math), warnings (-w, -Werror),
 * -cl-std= with CL1.1 or CL1.2 (the only values a 1.2 device accepts) and
 * -cl-kernel-arg-info. OpenCL 1.0's -cl-strict-aliasing, which 1.1
 * deprecated but did not remove (applications still pass it), and -g, the
 * common extension, are accepted too. And clLinkProgram's options
 * (§5.6.5), which only clLinkProgram takes.
 */
#include "clc_options.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Passed to clang unchanged. */
static const char *const clang_flags[] = {
	"-cl-single-precision-constant",
	"-cl-fp32-correctly-rounded-divide-sqrt",
	"-cl-opt-disable",
	"-cl-mad-enable",
	"-cl-no-signed-zeros",
	"-cl-unsafe-math-optimizations",
	"-cl-finite-math-only",
	"-cl-fast-relaxed-math",
	"-w",
	"-Werror",
};

/*
 * Not for clang: arg info is always generated; -cl-denorms-are-zero
 * only permits flushing (sir_flush_denormal_constants does, for the
 * constants); -cl-strict-aliasing only permits type-based alias
 * analysis (the front end keeps it off, and clang warns about the option
 * outside OpenCL C 1.0); there is no debugger for -g.
 */
static const char *const ignored_flags[] = {
	"-cl-kernel-arg-info",
	"-cl-denorms-are-zero",
	"-cl-strict-aliasing",
	"-g",
};

/* §5.6.5.1's library options: for clLinkProgram, not for a build. */
static const char *const library_flags[] = {
	"-create-library",
	"-enable-link-options",
};

#define WG_OPTION "-sleipnir-wg-size="
/*
 * Enables cl_khr_fp64 in clang although the device does not advertise it
 * (SLC_DEVICE_EXTENSIONS): for the host tests of the double support that
 * is there while the extension is not yet offered.
 */
#define FP64_OPTION "-sleipnir-fp64"
#define WG_SIZE_MAX 65536

/* Splits the option string into words; NULL-terminated, malloc'ed. */
static char **split_words(const char *s, unsigned int *count,
			  struct clc_log *log)
{
	size_t len = strlen(s);
	char **words = calloc(len / 2 + 2, sizeof(*words));
	char *buf = malloc(len + 1), *w;
	unsigned int n = 0;

	if (!words || !buf) {
		free(words);
		free(buf);
		clc_log_printf(log, "error: out of memory\n");
		return NULL;
	}
	while (*s) {
		char quote = 0;

		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		if (!*s)
			break;
		w = buf;
		for (; *s; s++) {
			if (quote) {
				if (*s == quote)
					quote = 0;
				else if (*s == '\\' && quote == '"' && s[1])
					*w++ = *++s;
				else
					*w++ = *s;
			} else if (*s == '"' || *s == '\'') {
				quote = *s;
			} else if (*s == '\\' && s[1]) {
				*w++ = *++s;
			} else if (*s == ' ' || *s == '\t' || *s == '\n' ||
				   *s == '\r') {
				break;
			} else {
				*w++ = *s;
			}
		}
		if (quote) {
			clc_log_printf(log, "error: unterminated %c quote in "
				       "build options\n", quote);
			goto fail;
		}
		*w = '\0';
		words[n] = strdup(buf);
		if (!words[n++]) {
			clc_log_printf(log, "error: out of memory\n");
			goto fail;
		}
	}
	free(buf);
	*count = n;
	return words;
fail:
	free(buf);
	for (unsigned int i = 0; i < n; i++)
		free(words[i]);
	free(words);
	return NULL;
}

static bool in_list(const char *w, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w, list[i]))
			return true;
	return false;
}

static bool add_arg(struct clc_options *o, const char *prefix,
		    const char *value, struct clc_log *log)
{
	size_t len = strlen(prefix) + strlen(value) + 1;
	char *a = malloc(len);

	if (!a) {
		clc_log_printf(log, "error: out of memory\n");
		return false;
	}
	snprintf(a, len, "%s%s", prefix, value);
	o->clang_args[o->num_clang_args++] = a;
	return true;
}

/*
 * clang runs in a private directory, so a relative include directory is
 * made absolute against the caller's.
 */
static bool add_include(struct clc_options *o, const char *dir,
			struct clc_log *log)
{
	char cwd[PATH_MAX], *path;
	bool ok;

	if (dir[0] == '/')
		return add_arg(o, "-I", dir, log);
	if (!getcwd(cwd, sizeof(cwd))) {
		clc_log_printf(log, "error: -I %s: no current directory: %s\n",
			       dir, strerror(errno));
		return false;
	}
	path = malloc(strlen(cwd) + strlen(dir) + 2);
	if (!path) {
		clc_log_printf(log, "error: out of memory\n");
		return false;
	}
	sprintf(path, "%s/%s", cwd, dir);
	ok = add_arg(o, "-I", path, log);
	free(path);
	return ok;
}

static bool parse_wg_size(const char *v, uint32_t *out)
{
	char *end;
	unsigned long n;

	if (*v < '1' || *v > '9')
		return false;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || n > WG_SIZE_MAX)
		return false;
	*out = (uint32_t)n;
	return true;
}

/* One word (and maybe its value, the next word); false when invalid. */
static bool parse_word(struct clc_options *o, char **words, unsigned int n,
		       unsigned int *i, struct clc_log *log)
{
	const char *w = words[*i];

	if (!strcmp(w, "-D") || !strcmp(w, "-I")) {
		if (*i + 1 >= n || !words[*i + 1][0]) {
			clc_log_printf(log, "error: build option %s needs a "
				       "value\n", w);
			return false;
		}
		++*i;
		return w[1] == 'D' ? add_arg(o, "-D", words[*i], log) :
				     add_include(o, words[*i], log);
	}
	if (!strncmp(w, "-D", 2))
		return add_arg(o, "", w, log);
	if (!strncmp(w, "-I", 2))
		return add_include(o, w + 2, log);
	if (!strcmp(w, "-cl-std=CL1.1") || !strcmp(w, "-cl-std=CL1.2")) {
		free(o->clang_args[0]);
		o->clang_args[0] = strdup(w);
		if (!o->clang_args[0]) {
			clc_log_printf(log, "error: out of memory\n");
			return false;
		}
		return true;
	}
	if (!strncmp(w, "-cl-std=", 8)) {
		clc_log_printf(log, "error: invalid build option '%s': this "
			       "OpenCL 1.2 device accepts CL1.1 and CL1.2\n",
			       w);
		return false;
	}
	if (!strncmp(w, WG_OPTION, strlen(WG_OPTION))) {
		if (parse_wg_size(w + strlen(WG_OPTION), &o->wg_size))
			return true;
		clc_log_printf(log, "error: invalid build option '%s': the "
			       "work-group size is a number from 1 to %d\n", w,
			       WG_SIZE_MAX);
		return false;
	}
	if (!strcmp(w, FP64_OPTION))
		return add_arg(o, "", "-cl-ext=+cl_khr_fp64", log);
	if (in_list(w, ignored_flags,
		    sizeof(ignored_flags) / sizeof(ignored_flags[0]))) {
		if (!strcmp(w, "-cl-denorms-are-zero"))
			o->denorms_are_zero = true;
		return true;
	}
	if (in_list(w, clang_flags,
		    sizeof(clang_flags) / sizeof(clang_flags[0]))) {
		if (!strcmp(w, "-cl-opt-disable"))
			o->opt_disable = true;
		if (!strcmp(w, "-cl-fast-relaxed-math") ||
		    !strcmp(w, "-cl-unsafe-math-optimizations"))
			o->fast_math = true;
		return add_arg(o, "", w, log);
	}
	if (in_list(w, library_flags,
		    sizeof(library_flags) / sizeof(library_flags[0]))) {
		clc_log_printf(log, "error: invalid build option '%s': a "
			       "clLinkProgram option\n", w);
		return false;
	}
	clc_log_printf(log, "error: invalid build option '%s'\n", w);
	return false;
}

bool clc_options_parse(const char *options, struct clc_options *o,
		       struct clc_log *log)
{
	unsigned int n = 0;
	char **words;
	bool ok = true;

	memset(o, 0, sizeof(*o));
	words = split_words(options ? options : "", &n, log);
	if (!words)
		return false;
	/* One clang argument per word at most, plus -cl-std first. */
	o->clang_args = calloc(n + 1, sizeof(*o->clang_args));
	if (o->clang_args)
		o->clang_args[0] = strdup("-cl-std=CL1.2");
	if (o->clang_args && o->clang_args[0]) {
		o->num_clang_args = 1;
	} else {
		clc_log_printf(log, "error: out of memory\n");
		ok = false;
	}
	for (unsigned int i = 0; ok && i < n; i++)
		ok = parse_word(o, words, n, &i, log);
	for (unsigned int i = 0; i < n; i++)
		free(words[i]);
	free(words);
	if (!ok)
		clc_options_free(o);
	return ok;
}

void clc_options_free(struct clc_options *o)
{
	for (unsigned int i = 0; i < o->num_clang_args; i++)
		free(o->clang_args[i]);
	free(o->clang_args);
	memset(o, 0, sizeof(*o));
}

/* The program linking options of §5.6.5.2. Those that permit unsafe
 * arithmetic and flushing denormals change what the back end does; the
 * others permit what it does anyway (it keeps IEEE results, so assuming
 * finite values or ignoring signed zeros changes nothing). */
static const char *const link_math_flags[] = {
	"-cl-denorms-are-zero",
	"-cl-no-signed-zeros",
	"-cl-unsafe-math-optimizations",
	"-cl-finite-math-only",
	"-cl-fast-relaxed-math",
};

bool clc_link_options_parse(const char *options, struct clc_link_options *o,
			    struct clc_log *log)
{
	unsigned int n = 0;
	char **words;
	bool ok = true;

	memset(o, 0, sizeof(*o));
	words = split_words(options ? options : "", &n, log);
	if (!words)
		return false;
	for (unsigned int i = 0; ok && i < n; i++) {
		const char *w = words[i];

		if (!strcmp(w, "-create-library")) {
			o->create_library = true;
		} else if (!strcmp(w, "-enable-link-options")) {
			o->enable_link_options = true;
		} else if (in_list(w, link_math_flags,
				   sizeof(link_math_flags) /
				   sizeof(link_math_flags[0]))) {
			if (!strcmp(w, "-cl-fast-relaxed-math") ||
			    !strcmp(w, "-cl-unsafe-math-optimizations"))
				o->fast_math = true;
			if (!strcmp(w, "-cl-denorms-are-zero"))
				o->denorms_are_zero = true;
		} else if (!strncmp(w, WG_OPTION, strlen(WG_OPTION)) &&
			   parse_wg_size(w + strlen(WG_OPTION),
					 &o->wg_size)) {
			continue;
		} else {
			clc_log_printf(log, "error: invalid link option "
				       "'%s'\n", w);
			ok = false;
		}
	}
	if (ok && o->enable_link_options && !o->create_library) {
		clc_log_printf(log, "error: invalid link options: "
			       "-enable-link-options needs -create-library\n");
		ok = false;
	}
	for (unsigned int i = 0; i < n; i++)
		free(words[i]);
	free(words);
	return ok;
}
