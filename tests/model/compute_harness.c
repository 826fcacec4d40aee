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
#include "midgard_isa.h"

#define RAM_BASE 0x40000000ull
#define RAM_SIZE (32u << 20)
#define AS_NR 1
#define JS CH_JS

static uint64_t region;

bool ch_setup(struct fake_host *fh)
{
	return ch_setup_engine(fh, SGPU_ENGINE_LOCKSTEP, 1);
}

bool ch_setup_engine(struct fake_host *fh, enum sgpu_engine engine,
		     unsigned int shader_threads)
{
	uint64_t root;

	fh_init(fh, RAM_BASE, RAM_SIZE);
	fh->engine = engine;
	fh->shader_threads = shader_threads;
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

void ch_run_chain(struct fake_host *fh, uint64_t jc, uint64_t affinity,
		  struct ch_result *res, unsigned int timeout_ms)
{
	res->hard_stopped = false;
	res->others_idle_at_stop = false;
	sgpu_get_stats(fh->gpu, &res->before);
	wr(fh, JOB_INT_CLEAR, 0xFFFFFFFF);
	wr(fh, MMU_INT_CLEAR, 0xFFFFFFFF);
	fh_submit_on(fh, JS, jc, AS_NR, 0,
		     affinity ? (uint32_t)affinity :
		     rd(fh, GPU_SHADER_PRESENT_LO));
	if (timeout_ms)
		run_with_timeout(fh, timeout_ms, &res->hard_stopped,
				 &res->others_idle_at_stop);
	else
		fh_run_idle(fh, 1000);
	res->js_status = rd(fh, JS_REG(JS, JS_STATUS));
	sgpu_get_stats(fh->gpu, &res->after);
}

bool ch_prepare(struct fake_host *fh, const struct ch_kernel *k)
{
	uint8_t *code = ch_ptr(fh, CH_CODE_VA);
	struct sl_desc d;
	unsigned int first_tag = k->first_tag;
	size_t size = k->code_size;
	char err[256];
	int st;

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

	memset(&d, 0, sizeof(d));
	d.link.index = 1;
	d.shader_va = CH_CODE_VA;
	d.first_tag = first_tag;
	d.work_regs = k->work_regs ? k->work_regs :
		      count_work_regs(code, size, first_tag);
	d.barrier = k->barrier;
	memcpy(d.local_size, k->local_size, sizeof(d.local_size));
	memcpy(d.num_groups, k->num_groups, sizeof(d.num_groups));
	d.push = k->uniforms;
	d.push_vec4 = k->uniform_vec4;
	d.ubo_count = k->ubo_count;
	memcpy(d.ubo_va, k->ubo_va, sizeof(d.ubo_va));
	memcpy(d.ubo_size, k->ubo_size, sizeof(d.ubo_size));
	if (k->tls_bytes) {
		d.tls_va = CH_TLS_VA;
		d.tls_bytes_per_thread = k->tls_bytes;
	}
	if (k->wls_bytes) {
		d.wls_va = CH_WLS_VA;
		d.wls_bytes_per_group = k->wls_bytes;
		d.wls_instances = k->num_groups[0] * k->num_groups[1] *
				  k->num_groups[2];
	}
	st = sl_desc_pack(&d, ch_ptr(fh, CH_DESC_VA), CH_DESC_SIZE,
			  CH_DESC_VA);
	if (st) {
		printf("  descriptors: %s\n", sl_launch_strerror(st));
		return false;
	}
	if (k->before_submit)
		k->before_submit(fh, k->data);
	return true;
}

bool ch_run_timeout(struct fake_host *fh, const struct ch_kernel *k,
		    struct ch_result *res, unsigned int timeout_ms)
{
	if (!ch_prepare(fh, k))
		return false;
	ch_run_chain(fh, CH_JOB_VA, k->affinity, res, timeout_ms);
	return true;
}
