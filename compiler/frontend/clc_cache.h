/* SPDX-License-Identifier: MIT */
/*
 * The disk cache of program binaries, keyed by a 128-bit XXH3 hash of
 * everything that decides the output (see sleipnir_compiler.c).
 *
 * Directory: $SLEIPNIR_COMPILER_CACHE, else $XDG_CACHE_HOME/sleipnir/
 * compiler, else ~/.cache/sleipnir/compiler; SLEIPNIR_COMPILER_CACHE=off
 * disables it. Entries are written atomically (temporary file, rename),
 * carry their own checksum, and the least recently used (by modification
 * time, which a hit refreshes) are evicted past $SLEIPNIR_COMPILER_CACHE_MAX
 * bytes, 64 MiB by default. Every failure is a miss, never an error.
 */
#ifndef SLEIPNIR_CLC_CACHE_H
#define SLEIPNIR_CLC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CLC_CACHE_DEFAULT_MAX_BYTES (64u << 20)
/* Larger binaries are not cached (nor read back). */
#define CLC_CACHE_MAX_ENTRY_BYTES (64u << 20)

struct clc_cache_key {
	uint8_t bytes[16];
};

/* Incremental key: each part is hashed with its length, so parts that
 * concatenate alike still give different keys. */
struct clc_hash;
struct clc_hash *clc_hash_begin(void);   /* NULL when out of memory */
void clc_hash_part(struct clc_hash *h, const void *data, size_t size);
void clc_hash_string(struct clc_hash *h, const char *s);
/* A file's size and modification time (or that it is missing). */
void clc_hash_file_identity(struct clc_hash *h, const char *path);
void clc_hash_end(struct clc_hash *h, struct clc_cache_key *key);

/* The size limit in bytes. */
uint64_t clc_cache_max_bytes(void);
/* The cache directory, created if needed; false when disabled. */
bool clc_cache_dir(char *buf, size_t size);
/* The binary stored under key (malloc'ed), or false. */
bool clc_cache_load(const struct clc_cache_key *key, uint8_t **data,
		    size_t *size);
void clc_cache_store(const struct clc_cache_key *key, const uint8_t *data,
		     size_t size);

/*
 * Failed builds are entries too, so a client that retries a build that
 * cannot succeed is answered without running the compiler again: the
 * payload is a marker and the build log. clc_cache_failure_log() tells a
 * loaded payload that is one (and gives its log, inside @data) from a
 * program binary (NULL).
 */
void clc_cache_store_failure(const struct clc_cache_key *key,
			     const char *log);
const char *clc_cache_failure_log(const uint8_t *data, size_t size);

#endif
