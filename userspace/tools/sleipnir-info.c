/* SPDX-License-Identifier: MIT */
/*
 * sleipnir-info: prints what the GPU behind a Sleipnir render node reports,
 * through the driver's GET_PARAM ioctl.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include "drm/sleipnir_drm.h"

struct param_name {
	unsigned int param;
	const char *name;
};

static const struct param_name params[] = {
	{ SLEIPNIR_PARAM_GPU_ID, "GPU_ID" },
	{ SLEIPNIR_PARAM_SHADER_PRESENT, "SHADER_PRESENT" },
	{ SLEIPNIR_PARAM_L2_PRESENT, "L2_PRESENT" },
	{ SLEIPNIR_PARAM_TILER_PRESENT, "TILER_PRESENT" },
	{ SLEIPNIR_PARAM_AS_PRESENT, "AS_PRESENT" },
	{ SLEIPNIR_PARAM_JS_PRESENT, "JS_PRESENT" },
	{ SLEIPNIR_PARAM_L2_FEATURES, "L2_FEATURES" },
	{ SLEIPNIR_PARAM_CORE_FEATURES, "CORE_FEATURES" },
	{ SLEIPNIR_PARAM_TILER_FEATURES, "TILER_FEATURES" },
	{ SLEIPNIR_PARAM_MEM_FEATURES, "MEM_FEATURES" },
	{ SLEIPNIR_PARAM_MMU_FEATURES, "MMU_FEATURES" },
	{ SLEIPNIR_PARAM_THREAD_FEATURES, "THREAD_FEATURES" },
	{ SLEIPNIR_PARAM_THREAD_MAX_THREADS, "THREAD_MAX_THREADS" },
	{ SLEIPNIR_PARAM_THREAD_MAX_WORKGROUP_SIZE, "THREAD_MAX_WORKGROUP_SIZE" },
	{ SLEIPNIR_PARAM_THREAD_MAX_BARRIER_SIZE, "THREAD_MAX_BARRIER_SIZE" },
	{ SLEIPNIR_PARAM_THREAD_TLS_ALLOC, "THREAD_TLS_ALLOC" },
	{ SLEIPNIR_PARAM_COHERENCY_FEATURES, "COHERENCY_FEATURES" },
};

static int get_param(int fd, unsigned int param, __u64 *value)
{
	struct drm_sleipnir_get_param req = { .param = param };

	if (drmIoctl(fd, DRM_IOCTL_SLEIPNIR_GET_PARAM, &req))
		return -errno;
	*value = req.value;
	return 0;
}

int main(int argc, char **argv)
{
	const char *node = argc > 1 ? argv[1] : "/dev/dri/renderD128";
	drmVersionPtr version;
	int fd = open(node, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "sleipnir-info: %s: %s\n", node, strerror(errno));
		return 1;
	}
	version = drmGetVersion(fd);
	if (!version || strcmp(version->name, "sleipnir") != 0) {
		fprintf(stderr, "sleipnir-info: %s is driven by %s, not sleipnir\n",
			node, version ? version->name : "an unknown driver");
		return 1;
	}
	printf("%s: %s %d.%d.%d (%s)\n", node, version->name,
	       version->version_major, version->version_minor,
	       version->version_patchlevel, version->desc);
	drmFreeVersion(version);

	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		__u64 value = 0;
		int err = get_param(fd, params[i].param, &value);

		if (err) {
			printf("  %-26s error: %s\n", params[i].name, strerror(-err));
			return 1;
		}
		printf("  %-26s 0x%llx\n", params[i].name, (unsigned long long)value);
	}
	close(fd);
	return 0;
}
