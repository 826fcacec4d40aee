/* SPDX-License-Identifier: MIT */
/* The fake host for the GPU model's tests (see fake_host.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_host.h"

#define GUARD 4096
#define GUARD_BYTE 0xA5

static bool in_ram(struct fake_host *fh, uint64_t pa, size_t len)
{
	return pa >= fh->base && len <= fh->size && pa - fh->base <= fh->size - len;
}

static bool mem_read(void *opaque, uint64_t pa, void *buf, size_t len)
{
	struct fake_host *fh = opaque;

	if (!in_ram(fh, pa, len)) {
		fh->reads_outside++;
		return false;
	}
	memcpy(buf, fh->ram + (pa - fh->base), len);
	return true;
}

static bool mem_write(void *opaque, uint64_t pa, const void *buf, size_t len)
{
	struct fake_host *fh = opaque;

	if (!in_ram(fh, pa, len)) {
		fh->writes_outside++;
		return false;
	}
	memcpy(fh->ram + (pa - fh->base), buf, len);
	return true;
}

/* RAM pages by pointer, as QEMU's glue gives them. */
static void *mem_page(void *opaque, uint64_t page_pa, bool write)
{
	struct fake_host *fh = opaque;

	(void)write;
	if (!in_ram(fh, page_pa, 4096))
		return NULL;
	fh->pages_mapped++;
	return fh->ram + (page_pa - fh->base);
}

static void set_irq(void *opaque, enum sgpu_irq_line line, bool level)
{
	struct fake_host *fh = opaque;

	if (fh->irq[line] != level)
		fh->irq_edges[line]++;
	fh->irq[line] = level;
}

static uint64_t now_ns(void *opaque)
{
	struct fake_host *fh = opaque;

	fh->now += fh->tick;
	return fh->now;
}

static uint64_t system_time_ns(void *opaque)
{
	struct fake_host *fh = opaque;

	fh->now += fh->tick;
	return fh->now + fh->system_offset;
}

static void kick(void *opaque)
{
	struct fake_host *fh = opaque;

	fh->kicks++;
}

static void guest_error(void *opaque, const char *fmt, va_list ap)
{
	struct fake_host *fh = opaque;

	fh->guest_errors++;
	vsnprintf(fh->last_error, sizeof(fh->last_error), fmt, ap);
	if (fh->print_errors)
		printf("  guest error: %s\n", fh->last_error);
}

static bool tracing(void *opaque, const char *event)
{
	struct fake_host *fh = opaque;

	return fh->trace_jobs && !strcmp(event, "sgpu_jobs");
}

static void trace(void *opaque, const char *event, const char *fmt,
		  va_list ap)
{
	struct fake_host *fh = opaque;
	size_t room = sizeof(fh->job_trace) - fh->job_trace_len;
	int n;

	if (!tracing(opaque, event) || room < 2)
		return;
	n = vsnprintf(fh->job_trace + fh->job_trace_len, room - 1, fmt, ap);
	if (n < 0)
		return;
	fh->job_trace_len += (size_t)n < room - 1 ? (size_t)n : room - 2;
	fh->job_trace[fh->job_trace_len++] = '\n';
	fh->job_trace[fh->job_trace_len] = 0;
}

void fh_init(struct fake_host *fh, uint64_t base, uint64_t size)
{
	memset(fh, 0, sizeof(*fh));
	fh->alloc = malloc(size + 2 * GUARD);
	if (!fh->alloc)
		abort();
	memset(fh->alloc, GUARD_BYTE, GUARD);
	memset(fh->alloc + GUARD + size, GUARD_BYTE, GUARD);
	fh->ram = fh->alloc + GUARD;
	memset(fh->ram, 0, size);
	fh->base = base;
	fh->size = size;
	fh->next_free = base;
	fh->now = 1000000;
	fh->tick = 100;
	fh->host = (struct sgpu_host){
		.opaque = fh, .mem_read = mem_read, .mem_write = mem_write,
		.mem_page = mem_page,
		.set_irq = set_irq, .now_ns = now_ns,
		.system_time_ns = system_time_ns, .kick = kick,
		.guest_error = guest_error, .trace = trace,
		.tracing = tracing,
	};
}

struct sgpu *fh_create(struct fake_host *fh, enum sgpu_product product,
		       bool hang_jobs)
{
	struct sgpu_config cfg = {
		.product = product, .revision = 0x2000,
		.shader_cores = fh->shader_cores ? fh->shader_cores : 4,
		.test_hang_jobs = hang_jobs, .timestamp_hz = fh->timestamp_hz,
		.engine = fh->engine,
		.shader_threads = fh->shader_threads ? fh->shader_threads : 1,
	};
	char err[128];

	fh->gpu = sgpu_create(&cfg, &fh->host, err, sizeof(err));
	if (!fh->gpu)
		printf("  sgpu_create: %s\n", err);
	return fh->gpu;
}

bool fh_fini(struct fake_host *fh)
{
	bool ok = true;

	sgpu_destroy(fh->gpu);
	fh->gpu = NULL;
	for (size_t i = 0; i < GUARD; i++) {
		if (fh->alloc[i] != GUARD_BYTE ||
		    fh->alloc[GUARD + fh->size + i] != GUARD_BYTE)
			ok = false;
	}
	free(fh->alloc);
	fh->alloc = fh->ram = NULL;
	return ok;
}

uint64_t fh_alloc(struct fake_host *fh, uint64_t size, uint64_t align)
{
	uint64_t pa = (fh->next_free + align - 1) & ~(align - 1);

	if (pa + size > fh->base + fh->size) {
		printf("fake host out of RAM\n");
		abort();
	}
	fh->next_free = pa + size;
	memset(fh->ram + (pa - fh->base), 0, size);
	return pa;
}

void fh_w32(struct fake_host *fh, uint64_t pa, uint32_t v)
{
	uint8_t b[4];

	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	if (!mem_write(fh, pa, b, 4))
		abort();
}

void fh_w64(struct fake_host *fh, uint64_t pa, uint64_t v)
{
	fh_w32(fh, pa, (uint32_t)v);
	fh_w32(fh, pa + 4, (uint32_t)(v >> 32));
}

uint32_t fh_r32(struct fake_host *fh, uint64_t pa)
{
	uint8_t b[4];

	if (!mem_read(fh, pa, b, 4))
		abort();
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

uint64_t fh_r64(struct fake_host *fh, uint64_t pa)
{
	return fh_r32(fh, pa) | (uint64_t)fh_r32(fh, pa + 4) << 32;
}

uint32_t rd(struct fake_host *fh, uint32_t off)
{
	return sgpu_mmio_read(fh->gpu, off);
}

void wr(struct fake_host *fh, uint32_t off, uint32_t v)
{
	sgpu_mmio_write(fh->gpu, off, v);
}

uint64_t rd64(struct fake_host *fh, uint32_t off_lo)
{
	return rd(fh, off_lo) | (uint64_t)rd(fh, off_lo + 4) << 32;
}

static bool poll(struct fake_host *fh, uint32_t off, uint32_t mask,
		 uint32_t want)
{
	for (int i = 0; i < 100; i++) {
		if ((rd(fh, off) & mask) == want)
			return true;
	}
	return false;
}

bool fh_panfrost_probe(struct fake_host *fh)
{
	static const uint32_t features[] = {
		GPU_L2_FEATURES, GPU_CORE_FEATURES, GPU_TILER_FEATURES,
		GPU_MEM_FEATURES, GPU_MMU_FEATURES, GPU_THREAD_FEATURES,
		GPU_THREAD_MAX_THREADS, GPU_THREAD_MAX_WORKGROUP_SIZE,
		GPU_THREAD_MAX_BARRIER_SIZE, GPU_COHERENCY_FEATURES,
		GPU_AFBC_FEATURES, GPU_TEXTURE_FEATURES(0),
		GPU_TEXTURE_FEATURES(1), GPU_TEXTURE_FEATURES(2),
		GPU_TEXTURE_FEATURES(3), GPU_AS_PRESENT, GPU_JS_PRESENT,
	};
	uint32_t l2, shader, tiler;

	/* Soft reset. */
	wr(fh, GPU_INT_MASK, 0);
	wr(fh, GPU_INT_CLEAR, GPU_IRQ_RESET_COMPLETED);
	wr(fh, GPU_CMD, GPU_CMD_SOFT_RESET);
	if (!poll(fh, GPU_INT_RAWSTAT, GPU_IRQ_RESET_COMPLETED,
		  GPU_IRQ_RESET_COMPLETED))
		return false;
	wr(fh, GPU_INT_CLEAR, 0x30781);
	wr(fh, GPU_INT_MASK, 0x30081);
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++)
		(void)rd(fh, features[i]);
	for (int js = 0; js < 3; js++)
		(void)rd(fh, GPU_JS_FEATURES(js));
	shader = rd(fh, GPU_SHADER_PRESENT_LO);
	tiler = rd(fh, GPU_TILER_PRESENT_LO);
	l2 = rd(fh, GPU_L2_PRESENT_LO);
	(void)rd(fh, GPU_THREAD_TLS_ALLOC);
	(void)rd(fh, GPU_ID);
	/* Power on: quirks, then L2, shader cores, tiler. */
	wr(fh, GPU_SHADER_CONFIG, 0x10000);
	wr(fh, GPU_TILER_CONFIG, rd(fh, GPU_TILER_CONFIG) | 1);
	wr(fh, GPU_JM_CONFIG, 0x1F8);
	wr(fh, GPU_PWRON_BASE + 0x20, l2);
	if (!poll(fh, GPU_READY_BASE + 0x20, 0xFFFFFFFF, l2))
		return false;
	wr(fh, GPU_PWRON_BASE, shader);
	if (!poll(fh, GPU_READY_BASE, 0xFFFFFFFF, shader))
		return false;
	wr(fh, GPU_PWRON_BASE + 0x10, tiler);
	if (!poll(fh, GPU_READY_BASE + 0x10, 0xFFFFFFFF, tiler))
		return false;
	/* MMU reset and job IRQs, as on resume. */
	wr(fh, MMU_INT_CLEAR, 0xFFFFFFFF);
	wr(fh, MMU_INT_MASK, 0xFFFFFFFF);
	wr(fh, JOB_INT_CLEAR, 0x70007);
	wr(fh, JOB_INT_MASK, 0x70007);
	/* Perf counters off. */
	wr(fh, GPU_PERFCNT_CONFIG, 0);
	wr(fh, GPU_PRFCNT_JM_EN, 0);
	wr(fh, GPU_PRFCNT_SHADER_EN, 0);
	wr(fh, GPU_PRFCNT_MMU_L2_EN, 0);
	wr(fh, GPU_PRFCNT_TILER_EN, 0);
	return true;
}

uint64_t fh_pt_new(struct fake_host *fh)
{
	return fh_alloc(fh, 4096, 4096);
}

uint64_t fh_pt_entry(struct fake_host *fh, uint64_t root, uint64_t va,
		     unsigned int level)
{
	uint64_t table = root;

	for (unsigned int l = 0;; l++) {
		uint64_t entry = table + ((va >> (39 - 9 * l)) & 0x1FF) * 8;
		uint64_t pte;

		if (l == level)
			return entry;
		pte = fh_r64(fh, entry);
		if ((pte & 3) != 3) {
			pte = fh_pt_new(fh) | 3;
			fh_w64(fh, entry, pte);
		}
		table = pte & 0x0000FFFFFFFFF000ull;
	}
}

void fh_map(struct fake_host *fh, uint64_t root, uint64_t va, uint64_t pa,
	    uint64_t size, uint64_t flags)
{
	for (uint64_t off = 0; off < size; off += 4096)
		fh_w64(fh, fh_pt_entry(fh, root, va + off, 3),
		       (pa + off) | flags);
}

static void as_program(struct fake_host *fh, unsigned int as, uint64_t transtab,
		       uint64_t memattr)
{
	wr(fh, AS_REG(as, AS_LOCKADDR_LO), 0x3F);
	wr(fh, AS_REG(as, AS_LOCKADDR_HI), 0);
	wr(fh, AS_REG(as, AS_COMMAND), AS_COMMAND_LOCK);
	wr(fh, AS_REG(as, AS_COMMAND), AS_COMMAND_FLUSH_MEM);
	wr(fh, AS_REG(as, AS_TRANSTAB_LO), (uint32_t)transtab);
	wr(fh, AS_REG(as, AS_TRANSTAB_HI), (uint32_t)(transtab >> 32));
	wr(fh, AS_REG(as, AS_MEMATTR_LO), (uint32_t)memattr);
	wr(fh, AS_REG(as, AS_MEMATTR_HI), (uint32_t)(memattr >> 32));
	wr(fh, AS_REG(as, AS_COMMAND), AS_COMMAND_UPDATE);
}

void fh_as_enable(struct fake_host *fh, unsigned int as, uint64_t root)
{
	as_program(fh, as, root | 7, 0x888D88);
}

void fh_as_disable(struct fake_host *fh, unsigned int as)
{
	as_program(fh, as, 0, 0);
}

void fh_write(struct fake_host *fh, uint64_t pa, const void *bytes,
	      size_t size)
{
	if (!mem_write(fh, pa, bytes, size))
		abort();
}

void fh_set(struct fake_host *fh, uint64_t pa, enum mdg_field_id f,
	    uint64_t v)
{
	uint8_t desc[MDG_COMPUTE_JOB_BYTES];
	const struct mdg_field_info *fi = mdg_field_info(f);
	uint32_t size = mdg_desc_info(fi->desc)->bytes;

	if (size > sizeof(desc) || !mem_read(fh, pa, desc, size))
		abort();
	if (!mdg_set(desc, f, v)) {
		fprintf(stderr, "fh_set: %s does not hold 0x%llx\n", fi->name,
			(unsigned long long)v);
		abort();
	}
	if (!mem_write(fh, pa, desc, size))
		abort();
}

void fh_job(struct fake_host *fh, uint64_t pa, unsigned int type,
	    unsigned int index, unsigned int dep1, unsigned int dep2,
	    uint64_t next)
{
	uint8_t zero[MDG_JOB_HEADER_BYTES] = { 0 };

	if (!mem_write(fh, pa, zero, sizeof(zero)))
		abort();
	fh_set(fh, pa, MDG_JOB_HEADER_IS_64B, 1);
	fh_set(fh, pa, MDG_JOB_HEADER_TYPE, type);
	fh_set(fh, pa, MDG_JOB_HEADER_INDEX, index);
	fh_set(fh, pa, MDG_JOB_HEADER_DEPENDENCY_1, dep1);
	fh_set(fh, pa, MDG_JOB_HEADER_DEPENDENCY_2, dep2);
	fh_set(fh, pa, MDG_JOB_HEADER_NEXT, next);
}

void fh_write_value(struct fake_host *fh, uint64_t pa, unsigned int index,
		    uint64_t target, uint32_t type, uint64_t next)
{
	uint64_t payload = pa + MDG_WRITE_VALUE_JOB_PAYLOAD_OFFSET;

	fh_job(fh, pa, MDG_JOB_TYPE_WRITE_VALUE, index, 0, 0, next);
	fh_set(fh, payload, MDG_WRITE_VALUE_PAYLOAD_ADDRESS, target);
	fh_set(fh, payload, MDG_WRITE_VALUE_PAYLOAD_TYPE, type);
}

void fh_submit(struct fake_host *fh, unsigned int js, uint64_t jc,
	       unsigned int as, uint32_t extra_config)
{
	fh_submit_on(fh, js, jc, as, extra_config,
		     rd(fh, GPU_SHADER_PRESENT_LO));
}

void fh_submit_on(struct fake_host *fh, unsigned int js, uint64_t jc,
		  unsigned int as, uint32_t extra_config, uint32_t affinity)
{
	wr(fh, JS_REG(js, JS_HEAD_NEXT_LO), (uint32_t)jc);
	wr(fh, JS_REG(js, JS_HEAD_NEXT_HI), (uint32_t)(jc >> 32));
	wr(fh, JS_REG(js, JS_AFFINITY_NEXT_LO), affinity);
	wr(fh, JS_REG(js, JS_AFFINITY_NEXT_HI), 0);
	wr(fh, JS_REG(js, JS_CONFIG_NEXT), as | 8u << 16 | 0x3300 | extra_config);
	wr(fh, JS_REG(js, JS_COMMAND_NEXT), JS_COMMAND_START);
}

bool fh_run_idle(struct fake_host *fh, unsigned int max_calls)
{
	for (unsigned int i = 0; i < max_calls; i++) {
		if (!sgpu_run(fh->gpu, 1000000))
			return true;
	}
	return false;
}

bool fh_exception_listed(uint32_t code)
{
	return mdg_exception_name(code) != NULL;
}
