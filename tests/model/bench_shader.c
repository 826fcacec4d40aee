/* SPDX-License-Identifier: MIT */
/*
 * Benchmark of the shader-core interpreter on the host: bundles executed
 * per second of host time for an arithmetic loop, a load/store loop and
 * the __local sum reduction with barriers; and the host time of one job of
 * one thread that does nothing, the model's own cost per dispatch (what
 * an empty kernel adds to the guest's dispatch latency over a NULL job).
 * Prints one JSON object (for `make bench`); build it without sanitizers
 * for meaningful numbers.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "compute_harness.h"

/* 256 trips of one ALU bundle per thread. */
static const char alu_loop[] =
	"alu\n"
	"	vmul.imov.i32 r1.x, #256\n"
	"	vadd.imov.i32 r2, #0\n"
	"again:\n"
	"alu\n"
	"	vmul.fmul.f32 r2, r2.xyzw, r26.xyzw\n"
	"	sadd.isub.i32 r1.x, r1.x, #1\n"
	"	vadd.fadd.f32 r2, r2.xyzw, r26.yxwz\n"
	"	smul.ine.i32 r31.w, r1.x, #0\n"
	"	br.true again\n"
	"	const 1.0001, 0.5, 0.25, 2.0\n";

/* 64 trips of a 128-bit load, an ALU bundle and a 128-bit store. */
static const char ldst_loop[] =
	"ldst\n"
	"	mov r0.xyz, global_id.xyzx\n"
	"	ld_ubo.64 r3.xy, ubo(0)[0]\n"
	"alu\n"
	"	vmul.imov.i32 r1.x, #64\n"
	"	vadd.imov.i32 r26.xy, r3.xyzw\n"
	"	smul.iand.i32 r27.y, r0.x, #1023\n"
	"again:\n"
	"ldst\n"
	"	ld.128 r2, [r26.xy + r27.y.u32 << 4]\n"
	"alu\n"
	"	vmul.iadd.i32 r27, r2.xyzw, #1\n"
	"	sadd.isub.i32 r1.x, r1.x, #1\n"
	"ldst\n"
	"	st.128 r27.xyzw, [r26.xy + r27.y.u32 << 4]\n"
	"alu\n"
	"	smul.ine.i32 r31.w, r1.x, #0\n"
	"	br.true again\n";

struct bench {
	const char *name;
	const char *source;
	uint32_t local, groups;
};

/* One bundle; the thread ends after it. */
static const char empty_shader[] =
	"alu\n"
	"	vmul.imov.i32 r0.x, #0\n";

#define EMPTY_JOBS 2000
/* The descriptors the harness writes for a one-thread job fit in this. */
#define EMPTY_JOB_DESC_BYTES 4096

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Host microseconds per job of the empty one-thread shader, or < 0. */
static double empty_job_us(struct fake_host *fh)
{
	static uint8_t desc[EMPTY_JOB_DESC_BYTES];
	struct ch_kernel k = {
		.source = empty_shader,
		.local_size = { 1, 1, 1 },
		.num_groups = { 1, 1, 1 },
	};
	struct ch_result r;
	double t0;

	if (!ch_prepare(fh, &k))
		return -1;
	/* Each job starts from the descriptors as written: not started. */
	memcpy(desc, ch_ptr(fh, CH_DESC_VA), sizeof(desc));
	t0 = seconds();
	for (unsigned int i = 0; i < EMPTY_JOBS; i++) {
		memcpy(ch_ptr(fh, CH_DESC_VA), desc, sizeof(desc));
		ch_run_chain(fh, CH_JOB_VA, 0, &r, 0);
		if (r.js_status != 1) {
			fprintf(stderr, "empty job failed: 0x%x\n",
				r.js_status);
			return -1;
		}
	}
	return (seconds() - t0) * 1e6 / EMPTY_JOBS;
}

int main(void)
{
	static const struct bench benches[] = {
		{ "alu_loop", alu_loop, 256, 64 },
		{ "ldst_loop", ldst_loop, 256, 32 },
	};
	struct fake_host fh;
	uint64_t buf = CH_DATA_VA + 0x10000;
	bool first = true;
	double job_us;

	if (!ch_setup(&fh))
		return 1;
	memcpy(ch_ptr(&fh, CH_DATA_VA), &buf, 8);
	printf("{\"benchmark\": \"shader_interpreter\", \"results\": [");
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++) {
		const struct bench *b = &benches[i];
		struct ch_kernel k = {
			.source = b->source,
			.local_size = { b->local, 1, 1 },
			.num_groups = { b->groups, 1, 1 },
			.ubo_count = 1, .ubo_va = { CH_DATA_VA },
			.ubo_size = { 16 },
		};
		struct ch_result r;
		uint64_t bundles;
		double t0, t;

		t0 = seconds();
		if (!ch_run(&fh, &k, &r) || r.js_status != 1) {
			fprintf(stderr, "%s failed: 0x%x\n", b->name,
				r.js_status);
			return 1;
		}
		t = seconds() - t0;
		bundles = (r.after.shader_alu_bundles -
			   r.before.shader_alu_bundles) +
			  (r.after.shader_ldst_bundles -
			   r.before.shader_ldst_bundles) +
			  (r.after.shader_tex_bundles -
			   r.before.shader_tex_bundles);
		printf("%s\n  {\"name\": \"%s\", \"threads\": %u, "
		       "\"bundles\": %llu, \"decodes\": %llu, "
		       "\"model_cycles\": %llu, \"host_seconds\": %.4f, "
		       "\"bundles_per_second\": %.0f}",
		       first ? "" : ",", b->name, b->local * b->groups,
		       (unsigned long long)bundles,
		       (unsigned long long)(r.after.shader_decodes -
					    r.before.shader_decodes),
		       (unsigned long long)(r.after.shader_cycles -
					    r.before.shader_cycles),
		       t, (double)bundles / t);
		first = false;
	}
	job_us = empty_job_us(&fh);
	if (job_us < 0)
		return 1;
	printf("\n], \"empty_job_us\": %.2f}\n", job_us);
	return fh_fini(&fh) ? 0 : 1;
}
