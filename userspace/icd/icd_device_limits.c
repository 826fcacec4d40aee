/* SPDX-License-Identifier: MIT */
/* Device limits from GET_PARAM values (see icd_device_limits.h). */
#include <stdbool.h>
#include <stdio.h>

#include "icd_device_limits.h"

#define MIB (1024ull * 1024)
#define GIB (1024ull * MIB)

/*
 * Midgard keeps work-group local memory (WLS) in ordinary memory, but
 * ARM's own Midgard driver, and OpenCL 1.2's minimum for a GPU, is 32 KiB
 * per work-group; the compiler sizes its local allocations against it.
 */
#define LOCAL_MEM_BYTES (32 * 1024)

/* OpenCL 1.2 (table 4.3, CL_DEVICE_MAX_MEM_ALLOC_SIZE): at least
 * max(1/4 of global memory, 128 MiB) for a FULL_PROFILE non-custom device. */
#define MIN_MAX_ALLOC (128 * MIB)

/* The compiler uses 32-bit global pointers (compiler/README.md): every
 * buffer must sit below 4 GiB of GPU address space. */
#define POINTER_SPACE (4 * GIB)

/* Marketing names of the Midgard product ids (GPU_ID[31:16]) the kernel
 * knows; see docs/hardware.md §1.1. */
static const struct {
	uint16_t id;
	const char *name;
} products[] = {
	{ 0x0600, "Mali-T60x" }, { 0x0620, "Mali-T62x" },
	{ 0x0720, "Mali-T720" }, { 0x0750, "Mali-T760" },
	{ 0x0820, "Mali-T820" }, { 0x0830, "Mali-T830" },
	{ 0x0860, "Mali-T860" }, { 0x0880, "Mali-T880" },
};

static void device_name(uint64_t gpu_id, cl_uint cores, char *out, size_t n)
{
	uint16_t id = (uint16_t)(gpu_id >> 16);

	for (size_t i = 0; i < sizeof(products) / sizeof(products[0]); i++) {
		if (products[i].id == id) {
			/* "MPn" is how ARM names a part with n cores. */
			snprintf(out, n, "%s MP%u", products[i].name, cores);
			return;
		}
	}
	snprintf(out, n, "Mali (product 0x%04x) MP%u", id, cores);
}

bool icd_device_limits_derive(const struct icd_gpu_params *p,
			      uint64_t ram_bytes,
			      struct icd_device_limits *out)
{
	uint64_t va_top = p->va_end < POINTER_SPACE ? p->va_end : POINTER_SPACE;
	uint64_t gpu_space = va_top > p->va_start ? va_top - p->va_start : 0;
	unsigned int line_log2 = p->l2_features & 0xff;

	/*
	 * Work-groups run on the cores the driver uses: with several core
	 * groups (a T628 MP6 is 4 + 2) only the first group's. The name is
	 * the part's, all its cores.
	 */
	out->compute_units = (cl_uint)__builtin_popcountll(p->shader_present &
							   p->shader_core_mask);
	if (!out->compute_units || !p->thread_max_workgroup_size || !gpu_space)
		return false;
	device_name(p->gpu_id,
		    (cl_uint)__builtin_popcountll(p->shader_present),
		    out->name, sizeof(out->name));

	/* One work-group runs on one core, and every dimension alone may
	 * take the whole group. */
	out->max_work_group_size = (size_t)p->thread_max_workgroup_size;
	for (int i = 0; i < 3; i++)
		out->max_work_item_sizes[i] = out->max_work_group_size;

	/* The GPU has no memory of its own: its buffers are the host's RAM,
	 * as far as 32-bit pointers reach. */
	out->global_mem_size = ram_bytes < gpu_space ? ram_bytes : gpu_space;
	out->max_mem_alloc_size = out->global_mem_size / 4;
	if (out->max_mem_alloc_size < MIN_MAX_ALLOC)
		out->max_mem_alloc_size = MIN_MAX_ALLOC;
	if (out->max_mem_alloc_size > out->global_mem_size)
		out->max_mem_alloc_size = out->global_mem_size;
	out->local_mem_size = LOCAL_MEM_BYTES;

	/* L2_FEATURES[7:0] is log2 of the L2's line size (64 bytes on every
	 * Midgard); one L2 per core group, whose L2_PRESENT bit sits at the
	 * group's first core: the L2s of the groups in use. */
	out->global_mem_cacheline_size = line_log2 && line_log2 < 16 ?
					 1u << line_log2 : 64;
	out->global_mem_cache_size =
		p->l2_size * (cl_ulong)__builtin_popcountll(p->l2_present &
							    p->shader_core_mask);

	/* Profiling reads the GPU's timestamp: one tick, in ns, rounded up. */
	out->profiling_timer_resolution = p->timestamp_frequency ?
		(size_t)((1000000000ull + p->timestamp_frequency - 1) /
			 p->timestamp_frequency) : 1;
	return true;
}
