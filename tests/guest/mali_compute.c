/* SPDX-License-Identifier: MIT */
/*
 * Compute jobs for the guest tests: the ready-made kernels and the layout
 * of a job in a buffer area (see mali_compute.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "le.h"
#include "mali_compute.h"
#include "mali_jobs.h"
#include "midgard_desc.h"
#include "midgard_isa.h"

#define RSD_OFFSET 0x0100u
#define LS_OFFSET 0x0140u
#define UBO_TABLE_OFFSET 0x0180u
#define UBO0_OFFSET 0x01c0u
#define UBO0_SIZE 16u
#define CODE_REGION (16ull << 20)

const struct mc_kernel mc_endless_kernel = {
	.name = "endless loop",
	.source =
		"; buf[gid.x] = gid.x, after a loop that never ends\n"
		"ldst\n"
		"\tmov r0.xyz, global_id.xyzx\n"
		"\tld_ubo.64 r1.xy, ubo(0)[0]\n"
		"spin:\n"
		"alu\n"
		"\tbr.always spin\n"
		"alu\n"
		"\tvmul.imov.i32 r27.x, r0.xxxx\n"
		"\tvadd.imov.i32 r26.xy, r1.xyzw\n"
		"ldst\n"
		"\tst.32 r27.xxxx, [r26.xy + r27.x.u32 << 2]\n",
	.work_regs = 2,
};

/*
 * r0 = global id, r1.xy = buf, r2.x = the value, r3.x = iterations left.
 * Stores take their data and index from r26/r27 (the load/store unit's
 * read selectors), so the value moves to r27.x and the index to r27.y.
 */
const struct mc_kernel mc_verify_kernel = {
	.name = "gid * 3 + 7 by a loop",
	.source =
		"; buf[gid.x] = gid.x * 3 + 7: start at 7, add 3 gid.x times\n"
		"ldst\n"
		"\tmov r0.xyz, global_id.xyzx\n"
		"\tld_ubo.64 r1.xy, ubo(0)[0]\n"
		"alu\n"
		"\tvmul.imov.i32 r2.x, #7\n"
		"\tvadd.imov.i32 r3.x, r0.xxxx\n"
		"\tsmul.ine.i32 r31.w, r0.x, #0\n"
		"\tbr.false store              ; gid.x == 0: no iteration\n"
		"loop:\n"
		"alu\n"
		"\tsadd.isub.i32 r3.x, r3.x, #1\n"
		"\tvadd.iadd.i32 r2.x, r2.xxxx, #3\n"
		"\tsmul.ine.i32 r31.w, r3.x, #0\n"
		"\tbr.true loop\n"
		"store:\n"
		"alu\n"
		"\tvmul.imov.i32 r27.x, r2.xxxx\n"
		"\tsadd.imov.i32 r27.y, r0.x\n"
		"\tvadd.imov.i32 r26.xy, r1.xyzw\n"
		"ldst\n"
		"\tst.32 r27.xxxx, [r26.xy + r27.y.u32 << 2]\n",
	.work_regs = 4,
};

/*
 * Where the code goes: MC_CODE_OFFSET, or the next 16 MiB boundary when
 * the code would cross (or end on) one from there. Returns false when it
 * does not fit in the area.
 */
static bool place_code(uint64_t va, size_t size, size_t len, size_t *at)
{
	uint64_t start = va + MC_CODE_OFFSET;

	if ((start / CODE_REGION) != ((start + len) / CODE_REGION))
		start = (start / CODE_REGION + 1) * CODE_REGION;
	*at = (size_t)(start - va);
	return *at + len <= size;
}

uint64_t mc_build_job(void *cpu, uint64_t va, size_t size,
		      const struct mc_kernel *k, const struct mc_dispatch *d)
{
	uint8_t code[MC_AREA_SIZE - MC_CODE_OFFSET];
	uint8_t *area = cpu;
	struct mdg_compute_job job;
	struct mdg_renderer_state rsd;
	struct mdg_local_storage ls;
	unsigned int first_tag = 0;
	char err[256];
	size_t at;
	long len;

	if (size < MC_AREA_SIZE || (va & 63)) {
		printf("  compute area at %#llx (%zu bytes): too small or not "
		       "64-byte aligned\n", (unsigned long long)va, size);
		return 0;
	}
	len = mdg_assemble(k->source, code, sizeof(code), &first_tag, err,
			   sizeof(err));
	if (len < 0) {
		printf("  kernel \"%s\" does not assemble: %s\n", k->name, err);
		return 0;
	}
	if (!place_code(va, size, (size_t)len, &at)) {
		printf("  kernel \"%s\" (%ld bytes) does not fit the area at "
		       "%#llx without crossing a 16 MiB boundary\n", k->name,
		       len, (unsigned long long)va);
		return 0;
	}

	memset(area, 0, MC_CODE_OFFSET);
	memcpy(area + at, code, (size_t)len);

	memset(&rsd, 0, sizeof(rsd));
	rsd.shader = va + at;
	rsd.first_tag = first_tag;
	rsd.work_regs = k->work_regs;
	rsd.ubo_count = 1;
	rsd.side_effects = true;
	rsd.fp_mode = MDG_FP_MODE_CL;
	mdg_pack_renderer_state(&rsd, area + RSD_OFFSET);

	memset(&ls, 0, sizeof(ls));
	mdg_pack_local_storage(&ls, area + LS_OFFSET);

	le_put64(area + UBO0_OFFSET, d->buf_va);
	mdg_pack_ubo(va + UBO0_OFFSET, UBO0_SIZE, area + UBO_TABLE_OFFSET);

	memset(&job, 0, sizeof(job));
	job.index = 1;
	job.barrier = true;
	for (int i = 0; i < 3; i++) {
		job.local_size[i] = i ? 1 : d->local_size;
		job.num_groups[i] = i ? 1 : d->num_groups;
	}
	job.rsd = va + RSD_OFFSET;
	job.thread_storage = va + LS_OFFSET;
	job.uniform_buffers = va + UBO_TABLE_OFFSET;
	if (!mdg_pack_compute_job(&job, area + MC_JOB_OFFSET)) {
		printf("  dispatch %u x %u does not pack\n", d->local_size,
		       d->num_groups);
		return 0;
	}
	return va + MC_JOB_OFFSET;
}

void mc_fill_output(void *out, uint32_t n)
{
	uint8_t *p = out;

	for (uint32_t i = 0; i < n; i++)
		le_put32(p + 4 * i, MC_OUT_FILL);
	le_put32(p + 4 * n, MC_OUT_GUARD);
}

unsigned int mc_output_touched(const void *out, uint32_t n)
{
	const uint8_t *p = out;
	unsigned int touched = 0;

	for (uint32_t i = 0; i < n; i++)
		if (le_get32(p + 4 * i) != MC_OUT_FILL)
			touched++;
	return touched;
}

unsigned int mc_verify_check(const void *out, uint32_t n)
{
	const uint8_t *p = out;
	unsigned int bad = 0;

	for (uint32_t i = 0; i <= n; i++) {
		uint32_t want = i < n ? mc_verify_value(i) : MC_OUT_GUARD;
		uint32_t got = le_get32(p + 4 * i);

		if (got == want)
			continue;
		if (bad++ < 5)
			printf("  %s %u: %#x, expected %#x\n",
			       i < n ? "element" : "guard after element", i,
			       got, want);
	}
	if (bad)
		printf("  %u of %u words wrong\n", bad, n + 1);
	return bad;
}
