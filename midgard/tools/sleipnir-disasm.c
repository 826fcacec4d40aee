/* SPDX-License-Identifier: MIT */
/*
 * sleipnir-disasm: prints Midgard code as assembler text that sleipnir-as
 * turns back into the same bytes. Given a program binary (an ELF file from
 * sleipnir-cc or clGetProgramInfo), every kernel is printed: its metadata
 * as comments, then its code; anything else is raw code. The work is in
 * the libraries.
 *
 *   sleipnir-disasm [--first-tag N] file.bin
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "midgard_isa.h"
#include "slb_binary.h"
#include "slb_print.h"

/* The annotated disassembly of a program binary, kernel by kernel. */
static int print_program(const char *path, const uint8_t *data, size_t size)
{
	struct slb_program p;
	char err[256];
	int rc = 0;

	if (!slb_read(data, size, &p, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", path, err);
		return 1;
	}
	printf("; %s: %u kernels, %u bytes of constant data\n",
	       p.compiler_version, p.num_kernels, p.constant_size);
	if (p.build_options[0])
		printf("; build options: %s\n", p.build_options);
	for (uint32_t i = 0; i < p.num_kernels; i++) {
		putchar('\n');
		slb_print_kernel_header(stdout, &p.kernels[i]);
		if (!slb_print_kernel_code(stdout, &p, &p.kernels[i], err,
					   sizeof(err))) {
			fprintf(stderr, "%s: %s: %s\n", path,
				p.kernels[i].name, err);
			rc = 1;
		}
	}
	if (p.num_printf_calls) {
		putchar('\n');
		slb_print_printf_table(stdout, &p);
	}
	slb_program_free(&p);
	return rc;
}

static int usage(void)
{
	fprintf(stderr, "usage: sleipnir-disasm [--first-tag N] file.bin\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	long first = -1, n, text_len;
	uint8_t *code;
	char *text, err[256];
	FILE *f;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--first-tag") && i + 1 < argc)
			first = strtol(argv[++i], NULL, 0);
		else if (argv[i][0] == '-' || path)
			return usage();
		else
			path = argv[i];
	}
	if (!path)
		return usage();
	f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	code = malloc(n > 0 ? (size_t)n : 1);
	if (!code || n < 0 || fread(code, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "%s: read error\n", path);
		return 1;
	}
	fclose(f);
	if (first < 0 && n >= 4 && !memcmp(code, "\177ELF", 4)) {
		int rc = print_program(path, code, (size_t)n);

		free(code);
		return rc;
	}
	if (first < 0)
		first = n ? code[0] & 0xF : 0;
	text_len = mdg_disassemble(code, (size_t)n, (unsigned int)first, NULL,
				   0, err, sizeof(err));
	if (text_len < 0) {
		fprintf(stderr, "%s: %s\n", path, err);
		free(code);
		return 1;
	}
	text = malloc((size_t)text_len + 1);
	if (!text)
		return 1;
	mdg_disassemble(code, (size_t)n, (unsigned int)first, text,
			(size_t)text_len + 1, err, sizeof(err));
	fputs(text, stdout);
	free(text);
	free(code);
	return 0;
}
