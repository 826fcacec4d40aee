/* SPDX-License-Identifier: MIT */
/*
 * sleipnir-cc: the offline compiler. OpenCL C (or SPIR-V) in, a Sleipnir
 * program binary out; the build log goes to stderr.
 *
 *   sleipnir-cc [OpenCL build options] file.cl [-o file.bin]
 *               [--disasm] [--stats]
 *   sleipnir-cc [OpenCL build options] --spirv in.spv [-o file.bin] ...
 *
 * Build options are those of clBuildProgram (-D, -I, -cl-*, -w, -Werror,
 * -sleipnir-wg-size=N); "-D X" and "-I dir" may be split over two words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleipnir_compiler.h"
#include "slb_binary.h"
#include "slb_print.h"

static int usage(void)
{
	fprintf(stderr,
		"usage: sleipnir-cc [build options] (file.cl | --spirv "
		"in.spv) [-o file.bin] [--disasm] [--stats]\n");
	return 2;
}

static void *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	long n;

	if (!f) {
		perror(path);
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(data = malloc((size_t)n + 1)) ||
	    fread(data, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "%s: read error\n", path);
		free(data);
		fclose(f);
		return NULL;
	}
	fclose(f);
	data[n] = '\0';
	*size = (size_t)n;
	return data;
}

static bool write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	bool ok;

	if (!f) {
		perror(path);
		return false;
	}
	ok = fwrite(data, 1, size, f) == size;
	if (fclose(f) || !ok) {
		fprintf(stderr, "%s: write error\n", path);
		return false;
	}
	return true;
}

/*
 * Appends one command-line word to the option string, single-quoted so
 * the option parser sees it as one word whatever it contains.
 */
static bool append_word(char **opts, size_t *len, const char *word)
{
	size_t need = *len + 4 * strlen(word) + 4;
	char *o = realloc(*opts, need), *p;

	if (!o)
		return false;
	*opts = o;
	p = o + *len;
	if (*len)
		*p++ = ' ';
	*p++ = '\'';
	for (const char *w = word; *w; w++) {
		if (*w == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *w;
		}
	}
	*p++ = '\'';
	*p = '\0';
	*len = (size_t)(p - o);
	return true;
}

static bool print_program(const uint8_t *bin, size_t size, bool disasm,
			  bool stats)
{
	struct slb_program p;
	char err[256];
	bool ok = true;

	if (!slb_read(bin, size, &p, err, sizeof(err))) {
		fprintf(stderr, "sleipnir-cc: invalid binary: %s\n", err);
		return false;
	}
	for (uint32_t i = 0; i < p.num_kernels; i++) {
		const struct slb_kernel *k = &p.kernels[i];

		if (i)
			putchar('\n');
		if (stats)
			slb_print_kernel_stats(stdout, k);
		if (!disasm)
			continue;
		if (stats)
			putchar('\n');
		slb_print_kernel_header(stdout, k);
		if (!slb_print_kernel_code(stdout, &p, k, err, sizeof(err))) {
			fprintf(stderr, "sleipnir-cc: %s: %s\n", k->name, err);
			ok = false;
		}
	}
	if (disasm && p.num_printf_calls) {
		putchar('\n');
		slb_print_printf_table(stdout, &p);
	}
	slb_program_free(&p);
	return ok;
}

int main(int argc, char **argv)
{
	const char *input = NULL, *spirv = NULL, *output = NULL;
	bool disasm = false, stats = false, ok;
	char *options = NULL;
	size_t options_len = 0, size;
	struct slc_output out;
	enum slc_status st;
	void *data;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-o") && i + 1 < argc) {
			output = argv[++i];
		} else if (!strcmp(a, "--spirv") && i + 1 < argc) {
			spirv = argv[++i];
		} else if (!strcmp(a, "--disasm")) {
			disasm = true;
		} else if (!strcmp(a, "--stats")) {
			stats = true;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			return 0;
		} else if (a[0] == '-' && a[1]) {
			/* "-D X" / "-I dir": the value is the next word. */
			bool split = (!strcmp(a, "-D") || !strcmp(a, "-I")) &&
				     i + 1 < argc;

			if (!append_word(&options, &options_len, a) ||
			    (split && !append_word(&options, &options_len,
						   argv[++i]))) {
				fprintf(stderr, "sleipnir-cc: out of memory\n");
				return 1;
			}
		} else if (!input) {
			input = a;
		} else {
			return usage();
		}
	}
	if (!!input == !!spirv)
		return usage();

	data = read_file(input ? input : spirv, &size);
	if (!data)
		return 1;
	if (input) {
		st = slc_compile_source(data, options, &out);
	} else if (size % 4) {
		fprintf(stderr, "%s: not a SPIR-V module (%zu bytes)\n", spirv,
			size);
		free(data);
		return 1;
	} else {
		st = slc_compile_spirv(data, size / 4, options, &out);
	}
	free(data);
	free(options);
	if (out.log)
		fputs(out.log, stderr);
	if (st != SLC_OK) {
		fprintf(stderr, "sleipnir-cc: %s\n",
			st == SLC_INVALID_OPTIONS ? "invalid build options" :
			st == SLC_OUT_OF_MEMORY ? "out of memory" :
						  "build failed");
		slc_output_free(&out);
		return 1;
	}
	ok = !output || write_file(output, out.binary, out.binary_size);
	if (ok && (disasm || stats))
		ok = print_program(out.binary, out.binary_size, disasm, stats);
	slc_output_free(&out);
	return ok ? 0 : 1;
}
