/* SPDX-License-Identifier: MIT */
/*
 * sleipnir_uapi: fdinfo (/proc/self/fdinfo/FD of a render node file), the
 * DRM usage-stats keys kernel/README.md lists: drm-driver, drm-client-id
 * and drm-engine-js<n> (ns a file's chains spent on slot n) on every
 * kernel; on 6.12 and later also the DRM core's sums of the file's BOs
 * (drm-total-memory, drm-shared-memory...; kernel/sleipnir_compat.h), which
 * 6.1 does not have.
 *
 * The expected values come from what the test did on a fresh file: which
 * slot ran a job, which BO sizes it created. The host simulator's render
 * node is no kernel file and has no fdinfo: the test is skipped there.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sleipnir_uapi.h"

/* The character device major of DRM nodes (Linux's DRM_MAJOR). */
#define DRM_CHAR_MAJOR 226

/* The fdinfo text of fd; false when it cannot be read (printed). */
static bool read_fdinfo(int fd, char *buf, size_t len)
{
	char path[64];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f) {
		printf("  %s: %s\n", path, strerror(errno));
		return false;
	}
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return true;
}

/* The value of "key:\t..." in an fdinfo text, or NULL when absent. */
static const char *fdinfo_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			line += klen + 1;
			while (*line == ' ' || *line == '\t')
				line++;
			return line;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return NULL;
}

/* A number with an optional unit suffix; false when absent or malformed. */
static bool fdinfo_number(const char *text, const char *key,
			  const char *const *units, const uint64_t *scale,
			  uint64_t *out)
{
	const char *v = fdinfo_value(text, key);
	char *end;

	if (!v || *v < '0' || *v > '9')
		return false;
	*out = strtoull(v, &end, 10);
	while (*end == ' ')
		end++;
	for (unsigned int i = 0; units[i]; i++) {
		size_t ulen = strlen(units[i]);

		if (!strncmp(end, units[i], ulen) &&
		    (end[ulen] == '\n' || end[ulen] == '\0')) {
			*out *= scale[i];
			return true;
		}
	}
	return false;
}

/* drm-engine-*: "N ns". */
static bool engine_ns(const char *text, unsigned int js, uint64_t *ns)
{
	static const char *const units[] = { "ns", NULL };
	static const uint64_t scale[] = { 1 };
	char key[32];

	snprintf(key, sizeof(key), "drm-engine-js%u", js);
	return fdinfo_number(text, key, units, scale, ns);
}

/* drm-*-memory: bytes, printed as "N", "N KiB" or "N MiB". */
static bool memory_bytes(const char *text, const char *key, uint64_t *bytes)
{
	static const char *const units[] = { "KiB", "MiB", "", NULL };
	static const uint64_t scale[] = { 1024, 1024 * 1024, 1 };

	return fdinfo_number(text, key, units, scale, bytes);
}

/* True when the running kernel is 6.12 or later. */
static bool kernel_has_memory_stats(void)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 12);
}

TEST(fdinfo)
{
	static char text[4096], main_text[4096];
	struct sl_drm *dev;
	uint64_t ns, id, main_id, before, after, shared, js_count;
	uint32_t handle = 0;
	/* KiB-aligned but not MiB-aligned: printed in KiB, exactly. */
	const uint64_t bo_size = (3ull << 20) + 5 * 4096;
	const char *driver;
	struct stat st;
	int fd;

	NEED_DEVICE();
	REQUIRE(g_params_ok);
	js_count = PARAM(JS_COUNT);
	dev = reopen();
	REQUIRE(dev != NULL);
	fd = sl_drm_fd(dev);
	if (fstat(fd, &st) || !S_ISCHR(st.st_mode) ||
	    major(st.st_rdev) != DRM_CHAR_MAJOR) {
		sl_drm_close(dev);
		SKIP("not a kernel DRM file (the simulator has no fdinfo)");
	}

	if (!read_fdinfo(fd, text, sizeof(text)) ||
	    !read_fdinfo(sl_drm_fd(g_dev), main_text, sizeof(main_text))) {
		CHECK(!"fdinfo readable");
		goto out;
	}
	printf("  fdinfo of a fresh file:\n%s", text);

	driver = fdinfo_value(text, "drm-driver");
	CHECK(driver && !strncmp(driver, "sleipnir\n", 9));
	/* Each file is a client of its own. */
	CHECK(fdinfo_number(text, "drm-client-id",
			    (const char *const[]){ "", NULL },
			    (const uint64_t[]){ 1 }, &id));
	CHECK(fdinfo_number(main_text, "drm-client-id",
			    (const char *const[]){ "", NULL },
			    (const uint64_t[]){ 1 }, &main_id));
	CHECK(id != main_id);
	/* One engine per job slot, idle so far. */
	for (unsigned int js = 0; js < js_count; js++) {
		bool found = engine_ns(text, js, &ns);

		CHECK(found);
		if (found)
			CHECK_EQ(ns, 0);
	}
	CHECK(!engine_ns(text, (unsigned int)js_count, &ns));

	/* A job on slot 0: its time shows there and nowhere else. */
	REQUIRE(check_good_job(dev, REQ_SLOT0, NULL));
	REQUIRE(read_fdinfo(fd, text, sizeof(text)));
	CHECK(engine_ns(text, 0, &ns) && ns > 0);
	printf("  drm-engine-js0 after one job: %" PRIu64 " ns\n", ns);
	for (unsigned int js = 1; js < js_count; js++)
		CHECK(engine_ns(text, js, &ns) && ns == 0);

	if (!kernel_has_memory_stats()) {
		/* 6.1: the driver prints no memory keys of its own. */
		CHECK(!fdinfo_value(text, "drm-total-memory"));
		goto out;
	}

	/* 6.12: the core sums up the file's BOs, to the byte. */
	REQUIRE(memory_bytes(text, "drm-total-memory", &before));
	REQUIRE(memory_bytes(text, "drm-shared-memory", &shared));
	CHECK_EQ(shared, 0);
	CHECK_ERRNO(bo_create(dev, bo_size, 0, &handle), 0);
	REQUIRE(read_fdinfo(fd, text, sizeof(text)));
	CHECK(memory_bytes(text, "drm-total-memory", &after) &&
	      after == before + bo_size);
	printf("  drm-total-memory: %" PRIu64 " bytes, %" PRIu64
	       " with a %" PRIu64 "-byte BO\n", before, after, bo_size);
	CHECK_ERRNO(gem_close(dev, handle), 0);
	REQUIRE(read_fdinfo(fd, text, sizeof(text)));
	CHECK(memory_bytes(text, "drm-total-memory", &after) &&
	      after == before);
out:
	sl_drm_close(dev);
}

void run_fdinfo_tests(void)
{
	RUN(fdinfo);
}
