/* SPDX-License-Identifier: MIT */
/*
 * Runs compute shaders on the model core from host tests (see
 * compute_harness.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "compute_harness.h"
#include "midgard_desc.h"
#include "midgard_isa.h"

#define RAM_BASE 0x40000000ull
#define RAM_SIZE (32u << 20)
#define AS_NR 1
#define JS CH_JS

static uint64_t region;

bool ch_setup(struct fake_host *fh)
{
	uint64_t root;

	fh_init(fh, RAM_BASE, RAM_SIZE);
	if (!fh_create(fh, SGPU_T860, false) || !fh_panfrost_probe(fh))
		return false;
	root = fh_pt_new(fh);
	region = fh_alloc(fh, CH_VA_SIZE, 4096);
	fh_map(fh, root, CH_VA_BASE, region, CH_VA_SIZE, PTE_RW);
	fh_as_enable(fh, AS_NR, root);
	return true;
}

uint8_t *ch_ptr(struct fake_host *fh, uint64_t va)
{
	return fh->ram + (region - fh->base) + (va - CH_VA_BASE);
}

/* Highest work register (r0-r15) the code names, plus one. */
static unsigned int count_work_regs(const uint8_t *code, size_t size,
				    unsigned int tag)
{
	unsigned int regs = 0;
	size_t at = 0;

#define SEEN(r) do { if ((r) < 16 && (r) + 1u > regs) regs = (r) + 1u; } while (0)
	while (at < size && tag > 1) {
		struct mdg_bundle b;
		unsigned int n = mdg_decode_bundle(code + at, size - at, &b,
						   NULL, 0);

		if (!n)
			break;
		if (mdg_tag_kind(b.tag) == MDG_KIND_ALU) {
			for (unsigned int u = 0; u < MDG_UNIT_COUNT; u++) {
				if (!(b.units & MDG_UNIT_MASK(u)))
					continue;
				SEEN(b.alu[u].dst_reg);
				SEEN(b.alu[u].src1_reg);
				if (!b.alu[u].src2_imm)
					SEEN(b.alu[u].src2_reg);
			}
		} else if (mdg_tag_kind(b.tag) == MDG_KIND_LDST) {
			for (int i = 0; i < 2; i++) {
				if (b.ldst[i].op != MDG_LDST_NOP)
					SEEN(b.ldst[i].reg);
			}
		}
		at += n;
		tag = b.next_tag > 1 ? b.next_tag : (at < size ? code[at] & 0xF : 0);
	}
#undef SEEN
	return regs;
}

static void *runner(void *arg)
{
	struct fake_host *fh = arg;

	while (sgpu_run(fh->gpu, 1000000))
		;
	return NULL;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Runs the model on a worker thread, as QEMU does, and hard-stops the slot
 * when the job is still running after timeout_ms, as a driver would.
 */
static void run_with_timeout(struct fake_host *fh, unsigned int timeout_ms,
			     bool *stopped, bool *others_idle)
{
	struct timespec pause = { 0, 1000000 };
	uint64_t start = now_ms();
	pthread_t worker;

	*stopped = false;
	pthread_create(&worker, NULL, runner, fh);
	while (rd(fh, JOB_INT_JS_STATE) & (1u << JS)) {
		if (!*stopped && now_ms() - start > timeout_ms) {
			*others_idle = !(rd(fh, JOB_INT_JS_STATE) & 0x7u &
					 ~(1u << JS));
			wr(fh, JS_REG(JS, JS_COMMAND), JS_COMMAND_HARD_STOP);
			*stopped = true;
		}
		nanosleep(&pause, NULL);
	}
	pthread_join(worker, NULL);
	/* Whatever the worker left (an IRQ raised late) runs here. */
	fh_run_idle(fh, 1000);
}

bool ch_run(struct fake_host *fh, const struct ch_kernel *k,
	    struct ch_result *res)
{
	return ch_run_timeout(fh, k, res, 0);
}

bool ch_run_timeout(struct fake_host *fh, const struct ch_kernel *k,
		    struct ch_result *res, unsigned int timeout_ms)
{
	uint8_t job[MDG_COMPUTE_JOB_BYTES], rsd_bytes[MDG_RSD_BYTES];
	uint8_t ls_bytes[MDG_LOCAL_STORAGE_BYTES];
	uint8_t *code = ch_ptr(fh, CH_CODE_VA);
	struct mdg_compute_job cj;
	struct mdg_renderer_state rsd;
	struct mdg_local_storage ls;
	unsigned int first_tag = k->first_tag;
	size_t size = k->code_size;
	char err[256];

	memset(code, 0, 0x100000);
	if (k->source) {
		long n = mdg_assemble(k->source, code, 0x100000, &first_tag,
				      err, sizeof(err));

		if (n < 0) {
			printf("  assembler: %s\n", err);
			return false;
		}
		size = (size_t)n;
	} else {
		memcpy(code, k->code, k->code_size);
	}

	memset(&rsd, 0, sizeof(rsd));
	rsd.shader = CH_CODE_VA;
	rsd.first_tag = first_tag;
	rsd.work_regs = k->work_regs ? k->work_regs :
			count_work_regs(code, size, first_tag);
	rsd.uniform_vec4 = k->uniform_vec4;
	rsd.ubo_count = k->ubo_count;
	rsd.barrier = k->barrier;
	rsd.side_effects = true;
	rsd.fp_mode = 2;
	mdg_pack_renderer_state(&rsd, rsd_bytes);
	memcpy(ch_ptr(fh, CH_DESC_VA + 0x100), rsd_bytes, sizeof(rsd_bytes));

	memset(&ls, 0, sizeof(ls));
	if (k->tls_bytes) {
		ls.tls_base = CH_TLS_VA;
		ls.tls_bytes_per_thread = k->tls_bytes;
	}
	if (k->wls_bytes) {
		ls.wls_base = CH_WLS_VA;
		ls.wls_bytes_per_group = k->wls_bytes;
		ls.wls_instances = k->num_groups[0] * k->num_groups[1] *
				   k->num_groups[2];
	}
	mdg_pack_local_storage(&ls, ls_bytes);
	memcpy(ch_ptr(fh, CH_DESC_VA + 0x200), ls_bytes, sizeof(ls_bytes));

	for (unsigned int i = 0; i < k->ubo_count; i++)
		mdg_pack_ubo(k->ubo_va[i], k->ubo_size[i],
			     ch_ptr(fh, CH_DESC_VA + 0x300 + 8 * i));
	if (k->uniform_vec4)
		memcpy(ch_ptr(fh, CH_PUSH_VA), k->uniforms,
		       k->uniform_vec4 * 16u);

	memset(&cj, 0, sizeof(cj));
	cj.index = 1;
	cj.barrier = true;
	memcpy(cj.local_size, k->local_size, sizeof(cj.local_size));
	memcpy(cj.num_groups, k->num_groups, sizeof(cj.num_groups));
	cj.rsd = CH_DESC_VA + 0x100;
	cj.thread_storage = CH_DESC_VA + 0x200;
	cj.uniform_buffers = k->ubo_count ? CH_DESC_VA + 0x300 : 0;
	cj.push_uniforms = k->uniform_vec4 ? CH_PUSH_VA : 0;
	if (!mdg_pack_compute_job(&cj, job)) {
		printf("  job sizes do not pack\n");
		return false;
	}
	memcpy(ch_ptr(fh, CH_DESC_VA), job, sizeof(job));
	if (k->before_submit)
		k->before_submit(fh, k->data);

	sgpu_get_stats(fh->gpu, &res->before);
	wr(fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	wr(fh, MMU_INT_CLEAR, 0xFFFFFFFF);
	fh_submit_on(fh, JS, CH_JOB_VA, AS_NR, 0,
		     k->affinity ? (uint32_t)k->affinity :
		     rd(fh, GPU_SHADER_PRESENT_LO));
	if (timeout_ms)
		run_with_timeout(fh, timeout_ms, &res->hard_stopped,
				 &res->others_idle_at_stop);
	else
		fh_run_idle(fh, 1000);
	res->js_status = rd(fh, JS_REG(JS, JS_STATUS));
	sgpu_get_stats(fh->gpu, &res->after);
	return true;
}
