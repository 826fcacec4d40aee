/* SPDX-License-Identifier: MIT */
/*
 * SLEIPNIR_DEBUG (icd_debug.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd_debug.h"
#include "midgard_desc.h"

static const char *const known[] = { "jobs" };

static char *flags;
static pthread_once_t flags_once = PTHREAD_ONCE_INIT;

/* Reads the list once; an unknown name is said once, not ignored. */
static void read_flags(void)
{
	const char *env = getenv("SLEIPNIR_DEBUG");
	char *copy, *save = NULL;

	if (!env || !*env)
		return;
	flags = strdup(env);
	copy = strdup(env);
	if (!flags || !copy) {
		free(copy);
		return;
	}
	for (char *w = strtok_r(copy, ",", &save); w;
	     w = strtok_r(NULL, ",", &save)) {
		bool ok = false;

		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			ok |= !strcmp(w, known[i]);
		if (!ok)
			fprintf(stderr, "sleipnir: SLEIPNIR_DEBUG: unknown "
				"flag \"%s\" (known: jobs)\n", w);
	}
	free(copy);
}

bool icd_debug(const char *flag)
{
	size_t n = strlen(flag);

	pthread_once(&flags_once, read_flags);
	for (const char *p = flags; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && !strncmp(p, flag, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

struct bo_memory {
	const struct sl_bo *const *bos;
	unsigned int n;
};

static bool read_bos(void *ctx, uint64_t va, void *dst, size_t size)
{
	const struct bo_memory *m = ctx;

	for (unsigned int i = 0; i < m->n; i++) {
		const struct sl_bo *bo = m->bos[i];

		if (bo && bo->map && bo->va && va >= bo->va &&
		    va - bo->va <= bo->va_size &&
		    size <= bo->va_size - (va - bo->va) &&
		    va - bo->va + size <= bo->size) {
			memcpy(dst, (const uint8_t *)bo->map + (va - bo->va),
			       size);
			return true;
		}
	}
	return false;
}

static void print_line(void *ctx, const char *text)
{
	fprintf(ctx, "sleipnir: %s\n", text);
}

void icd_debug_print_chain(const struct sl_bo *const *bos, unsigned int n,
			   uint64_t jc)
{
	struct bo_memory mem = { bos, n };
	struct mdg_printer p = { print_line, stderr };
	struct mdg_memory m = { read_bos, &mem };

	flockfile(stderr);
	fprintf(stderr, "sleipnir: job chain @ 0x%llx\n",
		(unsigned long long)jc);
	mdg_decode_jobs(&p, &m, jc);
	funlockfile(stderr);
}
