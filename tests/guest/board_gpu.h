/* SPDX-License-Identifier: MIT */
/*
 * The GPU a test runs against and what its identification registers must
 * read, from the facts about the boards the stack targets rather than from
 * the model's source: RK3399's Mali-T860 MP4 r2p0 (the default), RK3288's
 * T760 MP4 r0p0 and Exynos 5422's T628 MP6 r1p0, whose six cores are two
 * core groups of 4 + 2 behind an L2 each (qemu/README.md, "Products").
 *
 * SLEIPNIR_EXPECT_GPU=PRODUCT[:CORES] names it: tests/board sets it from
 * --gpu, the host's meson tests beside SLEIPNIR_SIM_GPU/_CORES. Unset, the
 * expectation is the board's default, a T860 with 4 cores.
 */
#ifndef SLEIPNIR_TESTS_BOARD_GPU_H
#define SLEIPNIR_TESTS_BOARD_GPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct board_gpu {
	const char *name;          /* "t860" */
	uint32_t product;          /* GPU_ID[31:16] */
	uint32_t revision;         /* GPU_ID[15:0] */
	uint32_t l2_features;
	/* Shader cores behind each L2 (0: one group whatever the count). */
	unsigned int group_size;
	unsigned int cores;
	/* Derived from the above. */
	uint32_t gpu_id;
	uint64_t shader_present;
	uint64_t l2_present;       /* a bit at each group's first core */
	uint32_t mem_features;     /* bit 0 (L2-coherent groups) with one */
	uint64_t first_group;      /* the cores a driver powers and uses */
};

/*
 * Fills @gpu from SLEIPNIR_EXPECT_GPU; false (with a message) when it
 * names a product this file has no facts for or a bad core count.
 */
static inline bool board_gpu_expected(struct board_gpu *gpu)
{
	static const struct board_gpu known[] = {
#define BOARD_GPU(nm, prod, rev, l2, group, n)                          \
	{ .name = nm, .product = prod, .revision = rev, .l2_features = l2, \
	  .group_size = group, .cores = n }
		BOARD_GPU("t860", 0x0860, 0x2000, 0x07120206, 0, 4),
		BOARD_GPU("t760", 0x0750, 0x0000, 0x07120206, 0, 4),
		BOARD_GPU("t628", 0x0620, 0x1000, 0x07110206, 4, 6),
#undef BOARD_GPU
	};
	const char *env = getenv("SLEIPNIR_EXPECT_GPU");
	char name[16] = "t860";
	const char *colon;
	unsigned int i;

	if (env && *env) {
		colon = strchr(env, ':');
		snprintf(name, sizeof(name), "%.*s",
			 (int)(colon ? (size_t)(colon - env) : strlen(env)), env);
	} else {
		colon = NULL;
	}
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(known[i].name, name) == 0)
			break;
	if (i == sizeof(known) / sizeof(known[0])) {
		fprintf(stderr, "SLEIPNIR_EXPECT_GPU=%s: no facts for that product "
			"(t860, t760, t628)\n", env);
		return false;
	}
	*gpu = known[i];
	if (colon) {
		char *end;
		unsigned long n = strtoul(colon + 1, &end, 10);

		if (*end || n < 1 || n > 16) {
			fprintf(stderr, "SLEIPNIR_EXPECT_GPU=%s: bad core count\n",
				env);
			return false;
		}
		gpu->cores = (unsigned int)n;
	}
	gpu->gpu_id = gpu->product << 16 | gpu->revision;
	gpu->shader_present = (1ull << gpu->cores) - 1;
	gpu->l2_present = 1;
	if (gpu->group_size)
		for (i = gpu->group_size; i < gpu->cores; i += gpu->group_size)
			gpu->l2_present |= 1ull << i;
	gpu->mem_features = gpu->l2_present == 1 ? 0x1 : 0x0;
	gpu->first_group = gpu->l2_present == 1 ? gpu->shader_present :
		gpu->shader_present & ((1ull << gpu->group_size) - 1);
	return true;
}

#endif /* SLEIPNIR_TESTS_BOARD_GPU_H */
