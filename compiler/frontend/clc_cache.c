/* SPDX-License-Identifier: MIT */
/*
 * Entry file "<32 hex digits>.slb": a 24-byte header (magic "SLCC",
 * version 1, payload size, XXH3-64 of the payload, all little endian on
 * our hosts) and the payload: the program binary, or for a failed build
 * FAILURE_MARK and the build log with its NUL (a program binary starts
 * with the ELF magic, so the two cannot be taken for each other). A bad
 * header or checksum is a miss; the caller validates the binary with
 * slb_read as well.
 */
#include "clc_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#define ENTRY_MAGIC 0x43434C53u      /* "SLCC" */
#define ENTRY_VERSION 1u
#define ENTRY_SUFFIX ".slb"
#define FAILURE_MARK "SLCC failed build\n"

struct entry_header {
	uint32_t magic, version;
	uint64_t size, checksum;
};

struct clc_hash {
	XXH3_state_t *state;
};

struct clc_hash *clc_hash_begin(void)
{
	struct clc_hash *h = malloc(sizeof(*h));

	if (!h)
		return NULL;
	h->state = XXH3_createState();
	if (!h->state || XXH3_128bits_reset(h->state) == XXH_ERROR) {
		XXH3_freeState(h->state);
		free(h);
		return NULL;
	}
	return h;
}

void clc_hash_part(struct clc_hash *h, const void *data, size_t size)
{
	uint64_t len = size;

	XXH3_128bits_update(h->state, &len, sizeof(len));
	if (size)
		XXH3_128bits_update(h->state, data, size);
}

void clc_hash_string(struct clc_hash *h, const char *s)
{
	clc_hash_part(h, s ? s : "", s ? strlen(s) : 0);
}

void clc_hash_file_identity(struct clc_hash *h, const char *path)
{
	struct stat st;
	int64_t id[4] = { -1, -1, -1, -1 };

	if (!stat(path, &st)) {
		id[0] = st.st_size;
		id[1] = st.st_mtim.tv_sec;
		id[2] = st.st_mtim.tv_nsec;
		id[3] = (int64_t)st.st_ino;
	}
	clc_hash_string(h, path);
	clc_hash_part(h, id, sizeof(id));
}

void clc_hash_end(struct clc_hash *h, struct clc_cache_key *key)
{
	XXH128_canonical_t c;

	XXH128_canonicalFromHash(&c, XXH3_128bits_digest(h->state));
	memcpy(key->bytes, c.digest, sizeof(key->bytes));
	XXH3_freeState(h->state);
	free(h);
}

static bool make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST) {
			*p = '/';
			return false;
		}
		*p = '/';
	}
	return !mkdir(path, 0700) || errno == EEXIST;
}

bool clc_cache_dir(char *buf, size_t size)
{
	const char *env = getenv("SLEIPNIR_COMPILER_CACHE");
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (env && !strcmp(env, "off"))
		return false;
	if (env && *env)
		n = snprintf(buf, size, "%s", env);
	else if (xdg && *xdg == '/')
		n = snprintf(buf, size, "%s/sleipnir/compiler", xdg);
	else if (home && *home == '/')
		n = snprintf(buf, size, "%s/.cache/sleipnir/compiler", home);
	else
		return false;
	return n > 0 && (size_t)n < size && make_dirs(buf);
}

static bool entry_path(const struct clc_cache_key *key, char *buf,
		       size_t size, char *dir, size_t dir_size)
{
	char hex[33];
	int n;

	if (!clc_cache_dir(dir, dir_size))
		return false;
	for (int i = 0; i < 16; i++)
		snprintf(hex + 2 * i, 3, "%02x", key->bytes[i]);
	n = snprintf(buf, size, "%s/%s" ENTRY_SUFFIX, dir, hex);
	return n > 0 && (size_t)n < size;
}

bool clc_cache_load(const struct clc_cache_key *key, uint8_t **data,
		    size_t *size)
{
	char path[PATH_MAX], dir[PATH_MAX];
	struct entry_header h;
	uint8_t *buf;
	FILE *f;

	if (!entry_path(key, path, sizeof(path), dir, sizeof(dir)))
		return false;
	f = fopen(path, "rb");
	if (!f)
		return false;
	if (fread(&h, sizeof(h), 1, f) != 1 || h.magic != ENTRY_MAGIC ||
	    h.version != ENTRY_VERSION || !h.size ||
	    h.size > CLC_CACHE_MAX_ENTRY_BYTES) {
		fclose(f);
		return false;
	}
	buf = malloc(h.size);
	if (!buf || fread(buf, 1, h.size, f) != h.size || fgetc(f) != EOF ||
	    XXH3_64bits(buf, h.size) != h.checksum) {
		free(buf);
		fclose(f);
		return false;
	}
	fclose(f);
	/* A hit makes the entry the most recently used. */
	utimensat(AT_FDCWD, path, NULL, 0);
	*data = buf;
	*size = h.size;
	return true;
}

struct cached_file {
	char name[64];
	struct timespec mtime;
	off_t size;
};

static int by_age(const void *a, const void *b)
{
	const struct timespec *x = &((const struct cached_file *)a)->mtime;
	const struct timespec *y = &((const struct cached_file *)b)->mtime;

	if (x->tv_sec != y->tv_sec)
		return x->tv_sec < y->tv_sec ? -1 : 1;
	return (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

uint64_t clc_cache_max_bytes(void)
{
	const char *env = getenv("SLEIPNIR_COMPILER_CACHE_MAX");
	char *end;
	unsigned long long n;

	if (env && *env) {
		errno = 0;
		n = strtoull(env, &end, 10);
		if (!errno && !*end)
			return n;
	}
	return CLC_CACHE_DEFAULT_MAX_BYTES;
}

static bool is_entry_name(const char *name)
{
	size_t len = strlen(name);

	return len == 32 + strlen(ENTRY_SUFFIX) &&
	       !strcmp(name + 32, ENTRY_SUFFIX);
}

/* Removes the least recently used entries past the size limit. */
static void evict(const char *dir)
{
	struct cached_file *files = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0, max = clc_cache_max_bytes();
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!is_entry_name(de->d_name))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			struct cached_file *f;

			cap = cap ? 2 * cap : 64;
			f = realloc(files, cap * sizeof(*files));
			if (!f)
				break;
			files = f;
		}
		snprintf(files[n].name, sizeof(files[n].name), "%s",
			 de->d_name);
		files[n].mtime = st.st_mtim;
		files[n].size = st.st_size;
		total += (uint64_t)st.st_size;
		n++;
	}
	if (total > max) {
		qsort(files, n, sizeof(*files), by_age);
		for (size_t i = 0; i < n && total > max; i++)
			if (!unlinkat(dirfd(d), files[i].name, 0))
				total -= (uint64_t)files[i].size;
	}
	closedir(d);
	free(files);
}

void clc_cache_store(const struct clc_cache_key *key, const uint8_t *data,
		     size_t size)
{
	char path[PATH_MAX], dir[PATH_MAX], tmp[PATH_MAX + 32];
	struct entry_header h = { ENTRY_MAGIC, ENTRY_VERSION, size,
				  XXH3_64bits(data, size) };
	bool ok;
	FILE *f;
	int fd, n;

	if (!size || size > CLC_CACHE_MAX_ENTRY_BYTES ||
	    !entry_path(key, path, sizeof(path), dir, sizeof(dir)))
		return;
	n = snprintf(tmp, sizeof(tmp), "%s/.tmp-XXXXXX", dir);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		return;
	fd = mkstemp(tmp);
	if (fd < 0)
		return;
	f = fdopen(fd, "wb");
	if (!f) {
		close(fd);
		unlink(tmp);
		return;
	}
	ok = fwrite(&h, sizeof(h), 1, f) == 1 &&
	     fwrite(data, 1, size, f) == size;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path)) {
		unlink(tmp);
		return;
	}
	evict(dir);
}

void clc_cache_store_failure(const struct clc_cache_key *key, const char *log)
{
	size_t mark = strlen(FAILURE_MARK), len = strlen(log) + 1;
	uint8_t *payload;

	if (len > CLC_CACHE_MAX_ENTRY_BYTES - mark)
		return;
	payload = malloc(mark + len);
	if (!payload)
		return;
	memcpy(payload, FAILURE_MARK, mark);
	memcpy(payload + mark, log, len);
	clc_cache_store(key, payload, mark + len);
	free(payload);
}

const char *clc_cache_failure_log(const uint8_t *data, size_t size)
{
	size_t mark = strlen(FAILURE_MARK);

	if (size <= mark || memcmp(data, FAILURE_MARK, mark) ||
	    data[size - 1] != '\0' ||
	    memchr(data + mark, '\0', size - mark) != data + size - 1)
		return NULL;
	return (const char *)data + mark;
}
