/* SPDX-License-Identifier: MIT */
/*
 * The products the model can be, and the identification/feature registers
 * each one reports.
 *
 * Only the T860 values are observed on real hardware (RK3399 boot logs,
 * docs/hardware.md §1.1). The others keep the T860 layout and change what is
 * known to differ: the product id, the V4 (T60x/T62x/T720) vs V5 generation and
 * the core-count range. Where no source gives a value, the choice is one
 * that panfrost 6.1 and Mesa 22.3 accept, and is explained below.
 *
 *  - L2_FEATURES 0x07120206: 64-byte lines, 4-way, 256 KiB, 128-bit bus
 *    (RK3399). Smaller parts get a 128 KiB L2 (0x07110206); only exported.
 *  - TILER_FEATURES 0x809: 512-byte bins, 8 levels (RK3399; Mesa's default).
 *  - MEM_FEATURES 0x1: L2-coherent core groups, one L2 slice. One slice
 *    keeps panfrost's V5 perf-counter layout at JM + tiler + 1 L2 + cores.
 *  - MMU_FEATURES 0x2830: 48-bit VA, 40-bit PA, within io-pgtable's limits.
 *  - THREAD_FEATURES 0x0A040400: not in any source; it encodes 1024
 *    registers per core [15:0], a task queue of 4 [23:16] and a thread group
 *    split of 10 [31:24]. Panfrost only passes it through; Mesa ignores it.
 *  - TEXTURE_FEATURES 0x00FE001E/0x0000FFFF/0x9F81FFFF: commonly reported
 *    by kbase on T76x/T86x (external); Mesa reads word 0 to decide which
 *    compressed formats exist, which does not matter for compute.
 *  - JS_FEATURES: slot 0 fragment + null/write-value/cache-flush (0x20E),
 *    slot 1 everything but fragment (0x1FE), slot 2 compute/vertex/
 *    geometry + the small jobs (0x07E), using kbase's bit assignment (bit 1
 *    null, 2 write value, 3 cache flush, 4 compute, 5 vertex, 6 geometry,
 *    7 tiler, 8 fused, 9 fragment). Panfrost only passes them through.
 *  - COHERENCY_FEATURES 0x1: ACE-Lite, as RK3399's bus offers; panfrost
 *    decides coherency from the device tree, not from this register.
 *
 * Core groups: T60x/T62x put at most 4 shader cores behind an L2 cache; a
 * larger part is several core groups, each with its own L2. Exynos 5422's
 * T628 MP6 is two, 4 + 2 cores (kbase and ARM's OpenCL driver report two
 * groups there, external; panfrost prints "using only 1st core group (4
 * cores from 6)"). L2_PRESENT has a bit at the first core of each group,
 * the layout from which both panfrost (panfrost_get_core_mask) and kbase
 * derive a group's cores: 6 cores read SHADER_PRESENT 0x3F, L2_PRESENT
 * 0x11. MEM_FEATURES bit 0 (core groups L2-coherent) is then clear, since
 * kbase counts a single group when it is set. T720 and the V5 parts keep
 * one L2 whatever their core count.
 *
 * Revisions: what the boards the stack targets report, T860 r2p0 (RK3399
 * boot logs), T760 r0p0 (RK3288's "Mali-T76x MP4 r0p0 0x0750" in
 * Rockchip's libmali selection scripts; the later RK3288W has r1p0),
 * T628 r1p0 (Exynos 5422). Others read r2p0 as before: no board here
 * stands for them.
 */
#include <string.h>

#include "sgpu_internal.h"

#define MIDGARD_TEXTURE_FEATURES { 0x00FE001Eu, 0x0000FFFFu, 0x9F81FFFFu, 0 }
#define MIDGARD_JS_FEATURES { 0x20Eu, 0x1FEu, 0x07Eu }

#define PRODUCT(nm, id, is_v4, maxc, defc, group, rev, l2)                     \
	{                                                                      \
		.name = nm, .product_id = id, .v4 = is_v4, .max_cores = maxc,  \
		.default_cores = defc, .core_group_size = group,               \
		.revision = rev, .l2_features = l2,                            \
		.core_features = 0, .tiler_features = 0x809,                   \
		.mem_features = 0x1, .mmu_features = 0x2830,                   \
		.thread_features = 0x0A040400u,                                \
		.texture_features = MIDGARD_TEXTURE_FEATURES,                  \
		.js_features = MIDGARD_JS_FEATURES,                            \
		.coherency_features = 0x1,                                     \
	}

/*
 * Core counts: the largest configuration each product was sold in (all
 * behind one L2 here), and the default is the common 4-core part (T820 and
 * T830 are usually smaller). T604 reports the raw id 0x6956, which panfrost
 * rewrites to 0x0600; T760 really is 0x0750.
 */
static const struct sgpu_product_info products[SGPU_PRODUCT_COUNT] = {
	[SGPU_T604] = PRODUCT("t604", 0x6956, true, 4, 4, 4, 0x2000, 0x07110206),
	[SGPU_T628] = PRODUCT("t628", 0x0620, true, 8, 4, 4, 0x1000, 0x07110206),
	[SGPU_T720] = PRODUCT("t720", 0x0720, true, 8, 4, 0, 0x2000, 0x07110206),
	[SGPU_T760] = PRODUCT("t760", 0x0750, false, 16, 4, 0, 0x0000, 0x07120206),
	[SGPU_T820] = PRODUCT("t820", 0x0820, false, 4, 2, 0, 0x2000, 0x07110206),
	[SGPU_T830] = PRODUCT("t830", 0x0830, false, 4, 2, 0, 0x2000, 0x07110206),
	[SGPU_T860] = PRODUCT("t860", 0x0860, false, 16, 4, 0, 0x2000, 0x07120206),
	[SGPU_T880] = PRODUCT("t880", 0x0880, false, 16, 4, 0, 0x2000, 0x07120206),
};

const struct sgpu_product_info *sgpu_product_info(enum sgpu_product product)
{
	return &products[product];
}

uint16_t sgpu_product_revision(enum sgpu_product product)
{
	if ((unsigned int)product >= SGPU_PRODUCT_COUNT)
		return 0;
	return products[product].revision;
}

uint64_t sgpu_product_l2_present(const struct sgpu_product_info *info,
				 unsigned int cores)
{
	unsigned int size = info->core_group_size;
	uint64_t l2 = 1;

	if (!size)
		return l2;
	for (unsigned int first = size; first < cores; first += size)
		l2 |= 1ull << first;
	return l2;
}

uint32_t sgpu_product_mem_features(const struct sgpu_product_info *info,
				   uint64_t l2_present)
{
	if (l2_present & (l2_present - 1))
		return info->mem_features & ~1u;
	return info->mem_features;
}

int sgpu_product_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < SGPU_PRODUCT_COUNT; i++) {
		if (strcmp(products[i].name, name) == 0)
			return i;
	}
	return -1;
}
