/* SPDX-License-Identifier: MIT */
/*
 * vec_type_hint's signedness from clang's kernel definitions and metadata
 * nodes in textual IR:
 *
 *   define ... spir_kernel void @NAME(...) ... !vec_type_hint !8 ... {
 *   !8 = !{<4 x i32> undef, i32 0}
 *
 * and its type's OpenCL C name from SPIR-V's encoding.
 */
#include "clc_vec_hint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the type at s ("i32", "<4 x i8>", "float", ...) is an integer. */
static bool integer_type(const char *s)
{
	if (*s == '<') {
		s = strstr(s, " x ");
		if (!s)
			return false;
		s += 3;
	}
	return s[0] == 'i' && s[1] >= '1' && s[1] <= '9';
}

/* Whether metadata node !id is {<integer type> undef, i32 0}. */
static bool node_is_unsigned(const char *ir, unsigned long id)
{
	char head[40];
	const char *s, *end;
	size_t n = (size_t)snprintf(head, sizeof(head), "\n!%lu = !{", id);

	s = strstr(ir, head);
	if (!s)
		return false;
	s += n;
	end = strchr(s, '}');
	if (!end || !integer_type(s))
		return false;
	/* The last operand: ", i32 0}" for unsigned. */
	return end - s >= 7 && !strncmp(end - 7, ", i32 0", 7);
}

static bool append(char **list, size_t *len, const char *name, size_t n)
{
	char *l = realloc(*list, *len + n + 2);

	if (!l)
		return false;
	memcpy(l + *len, name, n);
	l[*len + n] = '\n';
	l[*len + n + 1] = '\0';
	*list = l;
	*len += n + 1;
	return true;
}

char *clc_unsigned_vec_hints(const char *ir)
{
	char *list = strdup("\n");
	size_t len = 1;
	const char *line = ir;

	while (list && line && *line) {
		const char *eol = strchr(line, '\n');
		size_t ll = eol ? (size_t)(eol - line) : strlen(line);
		const char *at, *kernel, *hint;

		/* Searches bounded by the line (memmem is GNU's). */
		if (!strncmp(line, "define ", 7) &&
		    (kernel = memmem(line, ll, " spir_kernel ", 13)) &&
		    (at = memchr(kernel, '@', ll - (size_t)(kernel - line))) &&
		    (hint = memmem(at, ll - (size_t)(at - line),
				   " !vec_type_hint !", 17)) &&
		    node_is_unsigned(ir, strtoul(hint + 17, NULL, 10)) &&
		    !append(&list, &len, at + 1, strcspn(at + 1, "("))) {
			free(list);
			return NULL;
		}
		line = eol ? eol + 1 : NULL;
	}
	if (list && len == 1)
		list[0] = '\0';
	return list;
}

bool clc_vec_hint_is_unsigned(const char *list, const char *kernel)
{
	size_t n = strlen(kernel);

	for (const char *s = list; s && (s = strstr(s, kernel)); s++)
		if (s > list && s[-1] == '\n' && s[n] == '\n')
			return true;
	return false;
}

const char *clc_vec_hint_type(uint32_t hint, bool is_unsigned, char *buf,
			      size_t size)
{
	static const char *const names[] = { "char", "short", "int", "long",
					     "half", "float", "double" };
	uint32_t type = hint & 0xFFFF, count = hint >> 16;

	if (type >= sizeof(names) / sizeof(names[0]) ||
	    !(count <= 4 || count == 8 || count == 16))
		return NULL;
	/* A count of 0 (llvm-spirv's for a scalar) or 1 is the scalar. */
	snprintf(buf, size, "%s%s", is_unsigned && type <= 3 ? "u" : "",
		 names[type]);
	if (count > 1)
		snprintf(buf + strlen(buf), size - strlen(buf), "%u", count);
	return buf;
}
