/* SPDX-License-Identifier: MIT */
/*
 * Compute shaders on the model's shader cores: a binary decoded by Mesa's
 * own disassembler, then kernels in our assembler checked against C
 * references: compute ids, uniforms, UBOs, branches and loops, private
 * arrays in thread-local storage, __local memory with barriers (the sum
 * reduction), atomics (the last-group reduction), faults, the cycle model
 * and the decoded-bundle cache.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "compute_harness.h"

CHECK_MAIN_STATE("sgpu_compute");

static struct fake_host fh;

static uint32_t *words(uint64_t va)
{
	return (uint32_t *)ch_ptr(&fh, va);
}

/*
 * The fact sheet's worked example (§5.13), decoded by Mesa 22.3's
 * disassembler: buf[gid.x] = gid.x, the buffer's address in UBO 0.
 */
static const uint32_t mesa_example[] = {
	0x48e01095, 0x00003830, 0x1c861ac0, 0x00004380,
	0x00220059, 0x68386c18, 0x0072027b, 0x027b03a0,
	0x0fae4072, 0x00000000, 0x00000000, 0x00000000,
	0x01e1c815, 0x00008940, 0x00000030, 0x00000000,
	0, 0, 0, 0,
};

TEST(mesa_disassembled_binary)
{
	struct ch_kernel k = {
		.code = (const uint8_t *)mesa_example,
		.code_size = sizeof(mesa_example),
		.first_tag = 5, .work_regs = 2,
		.local_size = { 16, 1, 1 }, .num_groups = { 4, 1, 1 },
		.ubo_count = 1, .ubo_va = { CH_DATA_VA }, .ubo_size = { 16 },
	};
	struct ch_result r;
	uint64_t buf = CH_DATA_VA + 0x1000;

	REQUIRE(ch_setup(&fh));
	memcpy(ch_ptr(&fh, CH_DATA_VA), &buf, 8);
	memset(ch_ptr(&fh, buf), 0xAA, 64 * 4 + 4);
	REQUIRE(ch_run(&fh, &k, &r));
	CHECK_EQ(r.js_status, 1);
	for (uint32_t i = 0; i < 64; i++)
		CHECK_EQ(words(buf)[i], i);
	CHECK_EQ(words(buf)[64], 0xAAAAAAAA);
	CHECK_EQ(r.after.shader_threads - r.before.shader_threads, 64);
	CHECK_EQ(r.after.shader_decodes - r.before.shader_decodes, 3);
	CHECK(fh_fini(&fh));
}

int main(void)
{
	RUN(mesa_disassembled_binary);
	return check_summary();
}
