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
#include "midgard_desc.h"
#include "sl_launch.h"
#include "sleipnir_compiler.h"

/* Buffers in DATA are 256-byte aligned. */
#define ALIGN(x, a) (((x) + (a) - 1) / (a) * (a))

bool cr_init(struct cr_session *s)
{
	return cr_init_engine(s, SGPU_ENGINE_LOCKSTEP, 1);
}

bool cr_init_engine(struct cr_session *s, enum sgpu_engine engine,
		    unsigned int shader_threads)
{
	memset(s, 0, sizeof(*s));
	/* The corpus measures the compiler itself, never its disk cache. */
	setenv("SLEIPNIR_COMPILER_CACHE", "off", 1);
	if (!ch_setup_engine(&s->fh, engine, shader_threads))
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
	s->attr_va = s->abuf_va = s->images = 0;
	s->tex_table_va = s->smp_table_va = s->textures = s->samplers = 0;
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

#define CR_MAX_IMAGES 16u

bool cr_describe_image(struct cr_session *s, unsigned int k,
		       const struct cr_image *img)
{
	uint8_t *a, *b, *c;
	uint64_t bytes = (uint64_t)img->slice * img->dim[2];

	if (k >= CR_MAX_IMAGES)
		return false;
	if (!s->attr_va &&
	    (!cr_alloc(s, CR_MAX_IMAGES * MDG_ATTRIBUTE_BYTES, &s->attr_va) ||
	     !cr_alloc(s, 2 * CR_MAX_IMAGES * MDG_ATTRIBUTE_BUFFER_BYTES,
		       &s->abuf_va)))
		return false;
	a = ch_ptr(&s->fh, s->attr_va + k * MDG_ATTRIBUTE_BYTES);
	b = ch_ptr(&s->fh, s->abuf_va + 2 * k * MDG_ATTRIBUTE_BUFFER_BYTES);
	c = b + MDG_ATTRIBUTE_BUFFER_BYTES;
	memset(a, 0, MDG_ATTRIBUTE_BYTES);
	memset(b, 0, 2 * MDG_ATTRIBUTE_BUFFER_BYTES);
	if (!mdg_set(a, MDG_ATTRIBUTE_BUFFER_INDEX, 2 * k) ||
	    !mdg_set(a, MDG_ATTRIBUTE_FORMAT, img->pixfmt) ||
	    !mdg_set(b, MDG_ATTRIBUTE_BUFFER_TYPE,
		     MDG_ATTRIBUTE_TYPE_3D_LINEAR) ||
	    !mdg_set(b, MDG_ATTRIBUTE_BUFFER_POINTER, img->va) ||
	    !mdg_set(b, MDG_ATTRIBUTE_BUFFER_STRIDE, img->bytes_per_texel) ||
	    !mdg_set(b, MDG_ATTRIBUTE_BUFFER_SIZE, bytes) ||
	    !mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_TYPE,
		     MDG_ATTRIBUTE_TYPE_CONTINUATION) ||
	    !mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_S_DIMENSION,
		     img->dim[0]) ||
	    !mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_T_DIMENSION,
		     img->dim[1]) ||
	    !mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_R_DIMENSION,
		     img->dim[2]) ||
	    !mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_ROW_STRIDE,
		     img->row) ||
	    !mdg_set(c, MDG_ATTRIBUTE_BUFFER_CONTINUATION_3D_SLICE_STRIDE,
		     img->slice))
		return false;
	if (k + 1 > s->images)
		s->images = k + 1;
	return true;
}

bool cr_describe_texture(struct cr_session *s, unsigned int k,
			 const struct cr_image *img, unsigned int dimension,
			 bool array)
{
	unsigned int layers = array ? img->dim[2] : 1;
	uint32_t desc_va;
	uint8_t *d;

	if (k >= CR_MAX_IMAGES || !layers || layers > 64)
		return false;
	if (!s->tex_table_va &&
	    !cr_alloc(s, 8 * CR_MAX_IMAGES, &s->tex_table_va))
		return false;
	d = cr_alloc(s, MDG_TEXTURE_BYTES + 16 * layers, &desc_va);
	if (!d)
		return false;
	memset(d, 0, MDG_TEXTURE_BYTES);
	if (!mdg_set(d, MDG_TEXTURE_WIDTH, img->dim[0]) ||
	    !mdg_set(d, MDG_TEXTURE_HEIGHT, dimension > 1 ? img->dim[1] : 1) ||
	    !mdg_set(d, MDG_TEXTURE_DEPTH, dimension == 3 ? img->dim[2] : 1) ||
	    !mdg_set(d, MDG_TEXTURE_ARRAY_SIZE, layers) ||
	    !mdg_set(d, MDG_TEXTURE_FORMAT, img->pixfmt) ||
	    !mdg_set(d, MDG_TEXTURE_DIMENSION, dimension) ||
	    !mdg_set(d, MDG_TEXTURE_TEXEL_ORDERING,
		     MDG_TEXTURE_LAYOUT_LINEAR) ||
	    !mdg_set(d, MDG_TEXTURE_SURFACE_POINTER_IS_64B, 1) ||
	    !mdg_set(d, MDG_TEXTURE_MANUAL_STRIDE, 1) ||
	    !mdg_set(d, MDG_TEXTURE_LEVELS, 1) ||
	    !mdg_set(d, MDG_TEXTURE_SWIZZLE, 0 | 1 << 3 | 2 << 6 | 3 << 9))
		return false;
	for (unsigned int l = 0; l < layers; l++) {
		uint8_t *surf = d + MDG_TEXTURE_BYTES + 16 * l;
		uint64_t va = img->va + (uint64_t)l * img->slice;
		int32_t strides[2] = { (int32_t)img->row, (int32_t)img->slice };

		memcpy(surf, &va, 8);
		memcpy(surf + 8, strides, 8);
	}
	memcpy(ch_ptr(&s->fh, s->tex_table_va + 8 * k), &(uint64_t){ desc_va },
	       8);
	if (k + 1 > s->textures)
		s->textures = k + 1;
	return true;
}

bool cr_describe_sampler(struct cr_session *s, unsigned int j, uint32_t clk)
{
	if (j >= CR_MAX_IMAGES || !slb_sampler_valid(clk))
		return false;
	if (!s->smp_table_va &&
	    !cr_alloc(s, MDG_SAMPLER_BYTES * CR_MAX_IMAGES, &s->smp_table_va))
		return false;
	/* The launch library's descriptor, as the ICD's launches get it. */
	sl_sampler_pack(clk, ch_ptr(&s->fh, s->smp_table_va +
				     j * MDG_SAMPLER_BYTES));
	if (j + 1 > s->samplers)
		s->samplers = j + 1;
	return true;
}

/* Binds the session's image tables into the job sl_launch emitted. */
static bool bind_images(struct cr_session *s)
{
	uint8_t *draw = ch_ptr(&s->fh, sl_launch_job_va(CH_DESC_VA)) +
			MDG_COMPUTE_JOB_DRAW_OFFSET;
	uint8_t *rsd = ch_ptr(&s->fh, mdg_get(draw, MDG_DRAW_STATE));

	if (s->textures &&
	    (!mdg_set(draw, MDG_DRAW_TEXTURES, s->tex_table_va) ||
	     !mdg_set(draw, MDG_DRAW_SAMPLERS, s->smp_table_va) ||
	     !mdg_set(rsd, MDG_RENDERER_STATE_TEXTURE_COUNT, s->textures) ||
	     !mdg_set(rsd, MDG_RENDERER_STATE_SAMPLER_COUNT, s->samplers)))
		return false;
	if (!s->images)
		return true;
	return mdg_set(draw, MDG_DRAW_ATTRIBUTES, s->attr_va) &&
	       mdg_set(draw, MDG_DRAW_ATTRIBUTE_BUFFERS, s->abuf_va) &&
	       mdg_set(rsd, MDG_RENDERER_STATE_ATTRIBUTE_COUNT, s->images);
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

bool cr_compile_file(const char *path, const char *options,
		     struct slb_program *prog)
{
	char *source = cr_read_file(path), *log = NULL;
	bool ok;

	if (!source)
		return false;
	ok = cr_compile(source, options, prog, &log);
	if (!ok)
		printf("  %s does not build with \"%s\":\n%s\n", path,
		       options ? options : "", log ? log : "");
	free(log);
	free(source);
	return ok;
}

static void add_figures(struct cr_figures *f, const struct ch_result *r)
{
#define DELTA(field) (r->after.field - r->before.field)
	f->launches++;
	f->threads += DELTA(shader_threads);
	f->alu_bundles += DELTA(shader_alu_bundles);
	f->ldst_bundles += DELTA(shader_ldst_bundles);
	f->alu_instructions += DELTA(shader_alu_instructions);
	f->ldst_instructions += DELTA(shader_ldst_instructions);
	f->arith_cycles += DELTA(shader_arith_cycles);
	f->ls_cycles += DELTA(shader_ls_cycles);
	f->cycles += DELTA(shader_cycles);
	f->work_regs = r->after.last_work_regs;
	f->threads_per_core = r->after.last_threads_per_core;
#undef DELTA
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

/* The core id range of the model's GPU, which sizes its TLS. */
static unsigned int core_id_range(struct fake_host *fh)
{
	return sl_launch_cores(rd(fh, GPU_SHADER_PRESENT_LO));
}

/*
 * The launch itself is sl_launch's (userspace/launch): the image, the
 * storage sizes and the descriptor block; this only places the memory in
 * the harness's areas and says what went wrong.
 */
bool cr_launch(struct cr_session *s, const struct slb_program *prog,
	       const char *kernel, const struct cr_arg *args,
	       unsigned int num_args, const struct cr_ndrange *nd)
{
	const struct slb_kernel *k = slb_find_kernel(prog, kernel);
	static struct sl_arg sargs[SLB_MAX_ARGS];
	struct sl_launch_params p;
	struct sl_launch_plan plan;
	struct sl_launch_memory mem = { .code_va = CH_CODE_VA };
	struct sl_job_link link = { .index = 1 };
	uint32_t constant_va = 0;
	struct ch_result r;
	int st;

	if (!k) {
		printf("  no kernel %s in the binary\n", kernel);
		return false;
	}
	if (num_args > SLB_MAX_ARGS) {
		printf("  %s: %u arguments is too many\n", kernel, num_args);
		return false;
	}
	for (unsigned int i = 0; i < num_args; i++) {
		static const enum sl_arg_kind kinds[] = {
			[CR_ARG_BUFFER] = SL_ARG_BUFFER,
			[CR_ARG_VALUE] = SL_ARG_VALUE,
			[CR_ARG_LOCAL] = SL_ARG_LOCAL,
		};

		sargs[i] = (struct sl_arg){ .kind = kinds[args[i].kind],
					    .va = args[i].va,
					    .value = args[i].value,
					    .size = args[i].size };
	}
	if (prog->code_size > CH_DESC_VA - CH_CODE_VA) {
		printf("  %s: %u bytes of code do not fit\n", kernel,
		       prog->code_size);
		return false;
	}
	if (prog->constant_size) {
		uint8_t *c = cr_alloc(s, prog->constant_size, &constant_va);

		if (!c)
			return false;
		memcpy(c, prog->constant_data, prog->constant_size);
	}

	memset(&p, 0, sizeof(p));
	p.prog = prog;
	p.kernel = k;
	p.args = sargs;
	p.num_args = num_args;
	p.nd.work_dim = nd->dim;
	memcpy(p.nd.offset, nd->offset, sizeof(p.nd.offset));
	memcpy(p.nd.global, nd->global, sizeof(p.nd.global));
	memcpy(p.nd.local, nd->local, sizeof(p.nd.local));
	p.constant_va = constant_va;
	p.printf_va = s->printf_va;
	p.cores = core_id_range(&s->fh);
	st = sl_launch_plan(&p, &plan);
	if (st) {
		printf("  %s: %s", kernel, sl_launch_strerror(st));
		if (plan.error_arg >= 0) {
			const struct slb_arg *a = &k->args[plan.error_arg];

			printf(" (argument %d, %s %s, %u bytes at %u)",
			       plan.error_arg, arg_kind_name(a->kind),
			       a->name, a->size, a->offset);
		}
		printf("\n");
		return false;
	}
	if (plan.tls_total_bytes > CH_TLS_SIZE ||
	    plan.wls_total_bytes > CH_WLS_SIZE) {
		printf("  %s: TLS %llu / WLS %llu bytes do not fit\n", kernel,
		       (unsigned long long)plan.tls_total_bytes,
		       (unsigned long long)plan.wls_total_bytes);
		return false;
	}
	mem.tls_va = plan.tls_total_bytes ? CH_TLS_VA : 0;
	mem.wls_va = plan.wls_total_bytes ? CH_WLS_VA : 0;
	memcpy(ch_ptr(&s->fh, CH_CODE_VA), prog->code, prog->code_size);
	st = sl_launch_emit(&plan, &mem, &link, ch_ptr(&s->fh, CH_DESC_VA),
			    CH_DESC_SIZE, CH_DESC_VA);
	if (st) {
		printf("  %s: %s\n", kernel, sl_launch_strerror(st));
		return false;
	}
	if (!bind_images(s)) {
		printf("  %s: cannot bind the images\n", kernel);
		return false;
	}
	ch_run_chain(&s->fh, sl_launch_job_va(CH_DESC_VA), 0, &r, 60000);
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
