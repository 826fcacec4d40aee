/* SPDX-License-Identifier: MIT */
/*
 * Compiles corpus kernels and launches them on the model core following
 * the launch ABI of compiler/binary/slb_binary.h (see corpus_runner.h).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_runner.h"
#include "sleipnir_compiler.h"

/* The argument image, push rows included, lives in DATA with the buffers. */
#define ALIGN(x, a) (((x) + (a) - 1) / (a) * (a))

bool cr_init(struct cr_session *s)
{
	memset(s, 0, sizeof(*s));
	/* The corpus measures the compiler itself, never its disk cache. */
	setenv("SLEIPNIR_COMPILER_CACHE", "off", 1);
	if (!ch_setup(&s->fh))
		return false;
	s->next_va = (uint32_t)CH_DATA_VA;
	return true;
}

bool cr_fini(struct cr_session *s)
{
	return fh_fini(&s->fh);
}

void cr_reset(struct cr_session *s)
{
	memset(ch_ptr(&s->fh, CH_DATA_VA), 0, CH_DATA_SIZE);
	s->next_va = (uint32_t)CH_DATA_VA;
	memset(&s->figures, 0, sizeof(s->figures));
}

void *cr_alloc(struct cr_session *s, size_t size, uint32_t *va)
{
	uint64_t end = CH_DATA_VA + CH_DATA_SIZE;

	if (size > end - s->next_va) {
		printf("  cr_alloc: %zu bytes do not fit in DATA\n", size);
		return NULL;
	}
	*va = s->next_va;
	s->next_va = (uint32_t)ALIGN(s->next_va + size, 256);
	if (s->next_va > end)
		s->next_va = (uint32_t)end;
	return ch_ptr(&s->fh, *va);
}

char *cr_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long n;

	if (!f) {
		printf("  cannot open %s\n", path);
		return NULL;
	}
	n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
	if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		text = malloc((size_t)n + 1);
		if (text && fread(text, 1, (size_t)n, f) == (size_t)n) {
			text[n] = 0;
		} else {
			free(text);
			text = NULL;
		}
	}
	fclose(f);
	if (!text)
		printf("  cannot read %s\n", path);
	return text;
}

bool cr_compile(const char *source, const char *options,
		struct slb_program *prog, char **log)
{
	struct slc_output out = { 0 };
	enum slc_status st = slc_compile_source(source, options, &out);
	char err[256] = "";
	bool ok = false;

	if (st == SLC_OK && out.binary)
		ok = slb_read(out.binary, out.binary_size, prog, err,
			      sizeof(err));
	if (log) {
		const char *text = !ok && err[0] ? err :
				   out.log ? out.log : "";

		if (st != SLC_OK && !(out.log && out.log[0]))
			text = "compiler returned an error and no log";
		*log = strdup(text);
	}
	slc_output_free(&out);
	return ok;
}

static const char *arg_kind_name(uint32_t kind)
{
	switch (kind) {
	case SLB_ARG_VALUE: return "value";
	case SLB_ARG_GLOBAL: return "__global";
	case SLB_ARG_CONSTANT: return "__constant";
	case SLB_ARG_LOCAL: return "__local";
	default: return "?";
	}
}

/* Writes the arguments into the image; WLS offsets follow the statics. */
static bool write_args(const struct slb_kernel *k, const struct cr_arg *args,
		       unsigned int num_args, uint8_t *image,
		       uint32_t *wls_bytes)
{
	uint32_t wls = ALIGN(k->local_static_bytes, 16);

	if (num_args != k->num_args) {
		printf("  %s takes %u arguments, given %u\n", k->name,
		       k->num_args, num_args);
		return false;
	}
	for (unsigned int i = 0; i < num_args; i++) {
		const struct slb_arg *a = &k->args[i];
		bool fits = a->offset <= k->uniform_bytes &&
			    a->size <= k->uniform_bytes - a->offset;
		uint32_t word;

		switch (args[i].kind) {
		case CR_ARG_BUFFER:
			fits = fits && a->size == 4 &&
			       (a->kind == SLB_ARG_GLOBAL ||
				a->kind == SLB_ARG_CONSTANT);
			word = args[i].va;
			if (fits)
				memcpy(image + a->offset, &word, 4);
			break;
		case CR_ARG_VALUE:
			fits = fits && a->kind == SLB_ARG_VALUE &&
			       a->size == args[i].size;
			if (fits)
				memcpy(image + a->offset, args[i].value,
				       args[i].size);
			break;
		case CR_ARG_LOCAL:
			fits = fits && a->kind == SLB_ARG_LOCAL && a->size == 4;
			word = wls;
			if (fits)
				memcpy(image + a->offset, &word, 4);
			wls = ALIGN(wls + args[i].size, 16);
			break;
		}
		if (!fits) {
			printf("  argument %u (%s %s, %u bytes at %u) does not "
			       "match what the test passes\n", i,
			       arg_kind_name(a->kind), a->name, a->size,
			       a->offset);
			return false;
		}
	}
	*wls_bytes = wls;
	return true;
}

static uint32_t sysval_value(uint32_t sysval, const struct cr_ndrange *nd,
			     uint32_t constant_va)
{
	unsigned int axis = sysval % 3;

	if (sysval <= SLB_SYSVAL_GLOBAL_OFFSET_Z)
		return nd->offset[axis];
	if (sysval <= SLB_SYSVAL_GLOBAL_SIZE_Z)
		return nd->global[axis];
	if (sysval <= SLB_SYSVAL_LOCAL_SIZE_Z)
		return nd->local[axis];
	if (sysval <= SLB_SYSVAL_NUM_GROUPS_Z)
		return nd->global[axis] / nd->local[axis];
	if (sysval == SLB_SYSVAL_WORK_DIM)
		return nd->dim;
	return constant_va;
}

static bool valid_ndrange(const struct cr_ndrange *nd)
{
	if (nd->dim < 1 || nd->dim > 3)
		return false;
	for (int i = 0; i < 3; i++) {
		if (!nd->local[i] || !nd->global[i] ||
		    nd->global[i] % nd->local[i])
			return false;
	}
	return true;
}

static void add_figures(struct cr_figures *f, const struct ch_result *r)
{
#define DELTA(field) (r->after.field - r->before.field)
	f->launches++;
	f->threads += DELTA(shader_threads);
	f->alu_bundles += DELTA(shader_alu_bundles);
	f->ldst_bundles += DELTA(shader_ldst_bundles);
	f->arith_cycles += DELTA(shader_arith_cycles);
	f->ls_cycles += DELTA(shader_ls_cycles);
	f->cycles += DELTA(shader_cycles);
	f->work_regs = r->after.last_work_regs;
	f->threads_per_core = r->after.last_threads_per_core;
#undef DELTA
}

bool cr_launch(struct cr_session *s, const struct slb_program *prog,
	       const char *kernel, const struct cr_arg *args,
	       unsigned int num_args, const struct cr_ndrange *nd)
{
	const struct slb_kernel *k = slb_find_kernel(prog, kernel);
	uint32_t image_va, constant_va = 0, wls_bytes, image_bytes;
	struct ch_kernel ck;
	struct ch_result r;
	uint8_t *image;

	if (!k) {
		printf("  no kernel %s in the binary\n", kernel);
		return false;
	}
	if (!valid_ndrange(nd)) {
		printf("  bad NDRange for %s\n", kernel);
		return false;
	}
	if ((uint64_t)k->code_offset + k->code_size > prog->code_size) {
		printf("  %s: code outside the program\n", kernel);
		return false;
	}
	if (prog->constant_size) {
		uint8_t *c = cr_alloc(s, prog->constant_size, &constant_va);

		if (!c)
			return false;
		memcpy(c, prog->constant_data, prog->constant_size);
	}
	image_bytes = ALIGN(k->uniform_bytes, 16);
	if (image_bytes < k->push_vec4 * 16u)
		image_bytes = k->push_vec4 * 16u;
	image = cr_alloc(s, image_bytes ? image_bytes : 16, &image_va);
	if (!image || !write_args(k, args, num_args, image, &wls_bytes))
		return false;
	for (uint32_t i = 0; i < k->num_sysvals; i++) {
		uint32_t v = sysval_value(k->sysvals[i].sysval, nd,
					  constant_va);

		if (k->sysvals[i].offset + 4u > image_bytes) {
			printf("  %s: sysval slot outside the image\n", kernel);
			return false;
		}
		memcpy(image + k->sysvals[i].offset, &v, 4);
	}

	memset(&ck, 0, sizeof(ck));
	ck.code = prog->code + k->code_offset;
	ck.code_size = k->code_size;
	ck.first_tag = k->first_tag;
	ck.work_regs = k->work_regs;
	for (int i = 0; i < 3; i++) {
		ck.local_size[i] = nd->local[i];
		ck.num_groups[i] = nd->global[i] / nd->local[i];
	}
	ck.uniforms = (const uint32_t *)image;
	ck.uniform_vec4 = k->push_vec4;
	if (k->needs_ubo) {
		ck.ubo_count = 1;
		ck.ubo_va[0] = image_va;
		ck.ubo_size[0] = image_bytes;
	}
	ck.tls_bytes = k->private_bytes;
	ck.wls_bytes = wls_bytes;
	ck.barrier = k->barrier;
	if (!ch_run_timeout(&s->fh, &ck, &r, 60000))
		return false;
	add_figures(&s->figures, &r);
	if (r.js_status != 1 || r.hard_stopped) {
		printf("  %s: job ended with status 0x%x%s\n", kernel,
		       r.js_status, r.hard_stopped ? " (hard-stopped)" : "");
		return false;
	}
	return true;
}

float cr_flush_denormal(float x)
{
	if (x != 0 && fabsf(x) < FLT_MIN)
		return signbit(x) ? -0.0f : 0.0f;
	return x;
}

double cr_ulp_distance(float got, double want)
{
	int e;

	if (isnan(want))
		return isnan(got) ? 0 : INFINITY;
	if (isnan(got))
		return INFINITY;
	if (fabs(want) > FLT_MAX)
		want = copysign(INFINITY, want);
	if (isinf(want) || isinf(got))
		return (double)got == want ? 0 : INFINITY;
	if ((double)got == want)
		return 0;
	frexp(want, &e);
	/* want = m * 2^e, 0.5 <= |m| < 1: its float ulp is 2^(e - 24). */
	if (e - 24 < -149)
		e = -149 + 24;
	return fabs((double)got - want) / ldexp(1.0, e - 24);
}
