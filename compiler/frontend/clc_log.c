/* SPDX-License-Identifier: MIT */
#include "clc_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void clc_log_append(struct clc_log *log, const char *data, size_t n)
{
	if (log->len + n + 1 > log->cap) {
		size_t cap = log->cap ? log->cap : 256;
		char *t;

		while (cap < log->len + n + 1)
			cap *= 2;
		t = realloc(log->text, cap);
		if (!t) {
			log->out_of_memory = true;
			return;
		}
		log->text = t;
		log->cap = cap;
	}
	memcpy(log->text + log->len, data, n);
	log->len += n;
	log->text[log->len] = '\0';
}

void clc_log_printf(struct clc_log *log, const char *fmt, ...)
{
	char line[1024], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(line)) {
		clc_log_append(log, line, (size_t)n);
		return;
	}
	/* Whole, however long (a message may quote a long name). */
	big = malloc((size_t)n + 1);
	if (!big) {
		log->out_of_memory = true;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	clc_log_append(log, big, (size_t)n);
	free(big);
}

char *clc_log_take(struct clc_log *log)
{
	char *t = log->text ? log->text : strdup("");

	log->text = NULL;
	log->len = log->cap = 0;
	return t;
}

void clc_log_free(struct clc_log *log)
{
	free(log->text);
	log->text = NULL;
	log->len = log->cap = 0;
}
