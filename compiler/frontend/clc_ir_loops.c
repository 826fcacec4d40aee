/* SPDX-License-Identifier: MIT */
/*
 * Counting the loops of each function in clang's textual IR, to choose
 * the LLVM pass list (clc_frontend.c): LLVM 15's loop rotation costs the
 * size of the function per loop it rotates.
 *
 * One pass over the text: the labels defined so far in the current
 * function go into a hash set, and each "label %name" operand naming one
 * of them is a back edge.
 */
#include "clc_ir_loops.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct label_set {
	const char **name;           /* into the text; NULL: free slot */
	size_t *len;
	size_t num, cap;             /* cap: a power of two */
};

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

static size_t slot(const struct label_set *set, const char *s, size_t n)
{
	size_t i = hash(s, n) & (set->cap - 1);

	while (set->name[i] &&
	       (set->len[i] != n || memcmp(set->name[i], s, n)))
		i = (i + 1) & (set->cap - 1);
	return i;
}

static bool grow(struct label_set *set)
{
	struct label_set big = { 0 };

	big.cap = set->cap ? 2 * set->cap : 64;
	big.name = calloc(big.cap, sizeof(*big.name));
	big.len = calloc(big.cap, sizeof(*big.len));
	if (!big.name || !big.len) {
		free(big.name);
		free(big.len);
		return false;
	}
	for (size_t i = 0; i < set->cap; i++)
		if (set->name[i]) {
			size_t j = slot(&big, set->name[i], set->len[i]);

			big.name[j] = set->name[i];
			big.len[j] = set->len[i];
		}
	big.num = set->num;
	free(set->name);
	free(set->len);
	*set = big;
	return true;
}

static bool insert(struct label_set *set, const char *s, size_t n)
{
	size_t i;

	if (2 * (set->num + 1) > set->cap && !grow(set))
		return false;
	i = slot(set, s, n);
	if (!set->name[i]) {
		set->name[i] = s;
		set->len[i] = n;
		set->num++;
	}
	return true;
}

static bool contains(const struct label_set *set, const char *s, size_t n)
{
	return set->cap && set->name[slot(set, s, n)];
}

static void clear(struct label_set *set)
{
	if (set->cap)
		memset(set->name, 0, set->cap * sizeof(*set->name));
	set->num = 0;
}

/* Characters of an unquoted LLVM IR name. */
static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '$' || c == '.' ||
	       c == '_';
}

static size_t name_len(const char *s, const char *end)
{
	size_t n = 0;

	while (s + n < end && name_char(s[n]))
		n++;
	return n;
}

size_t clc_ir_max_function_loops(const char *ll, size_t len)
{
	static const char label_op[] = "label %";
	const size_t op_len = sizeof(label_op) - 1;
	const char *p = ll, *end = ll + len;
	struct label_set set = { 0 };
	size_t best = 0, loops = 0;
	bool in_function = false;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t n;

		if (!eol)
			eol = end;
		if ((size_t)(eol - p) >= 7 && !memcmp(p, "define ", 7)) {
			in_function = true;
			loops = 0;
			clear(&set);
		} else if (in_function && p[0] == '}') {
			in_function = false;
			if (loops > best)
				best = loops;
		} else if (in_function && (n = name_len(p, eol)) &&
			   p + n < eol && p[n] == ':') {
			/* A block label at the start of its line. */
			if (!insert(&set, p, n)) {
				best = (size_t)-1;
				break;
			}
		} else if (in_function) {
			const char *q = p;

			while ((size_t)(eol - q) > op_len &&
			       (q = memmem(q, (size_t)(eol - q), label_op,
					   op_len))) {
				q += op_len;
				n = name_len(q, eol);
				if (n && contains(&set, q, n))
					loops++;
			}
		}
		p = eol + 1;
	}
	free(set.name);
	free(set.len);
	return best;
}
