/* SPDX-License-Identifier: MIT */
/*
 * sleipnir-as: assembles Midgard assembler text (midgard/README.md)
 * into raw code, followed by the 16 bytes of padding the hardware needs.
 * The work is in the library.
 *
 *   sleipnir-as file.s -o file.bin [--print-first-tag]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "midgard_isa.h"

static int usage(void)
{
	fprintf(stderr,
		"usage: sleipnir-as file.s -o file.bin [--print-first-tag]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	bool print_tag = false;
	unsigned int first_tag = 0;
	char *src, err[256];
	uint8_t *code;
	size_t cap;
	long n, len;
	FILE *f;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--print-first-tag"))
			print_tag = true;
		else if (argv[i][0] == '-' || in)
			return usage();
		else
			in = argv[i];
	}
	if (!in || !out)
		return usage();
	f = fopen(in, "rb");
	if (!f) {
		perror(in);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	src = malloc(n > 0 ? (size_t)n + 1 : 1);
	if (!src || n < 0 || fread(src, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "%s: read error\n", in);
		return 1;
	}
	src[n] = 0;
	fclose(f);
	/* Each source line makes at most one 64-byte bundle. */
	cap = 64 * ((size_t)n + 1) + 16;
	code = malloc(cap);
	if (!code)
		return 1;
	len = mdg_assemble(src, code, cap, &first_tag, err, sizeof(err));
	if (len < 0) {
		fprintf(stderr, "%s: %s\n", in, err);
		free(code);
		free(src);
		return 1;
	}
	f = fopen(out, "wb");
	if (!f || fwrite(code, 1, (size_t)len, f) != (size_t)len ||
	    fclose(f)) {
		perror(out);
		return 1;
	}
	if (print_tag)
		printf("%u\n", first_tag);
	free(code);
	free(src);
	return 0;
}
