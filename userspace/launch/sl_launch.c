/* SPDX-License-Identifier: MIT */
/*
 * Kernel launches for Midgard (see sl_launch.h): the argument image, the
 * storage sizes and the descriptor block of one compute job.
 */
#include <string.h>

#include "midgard_desc.h"
#include "sl_launch.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

/* The largest WLS instance and count the descriptor's fields can say. */
#define WLS_MAX_INSTANCE_BYTES (1u << 30)
#define WLS_MAX_INSTANCES_LOG2 30u
/*
 * WLS instances smaller than this are rounded up to it (docs/hardware.md §4.5).
 */
#define WLS_MIN_INSTANCE_BYTES 128u

const char *sl_launch_strerror(int status)
{
	switch (status) {
	case SL_LAUNCH_OK: return "success";
	case SL_LAUNCH_E_INVALID: return "invalid kernel or parameters";
	case SL_LAUNCH_E_ARG_COUNT: return "wrong number of arguments";
	case SL_LAUNCH_E_ARG_UNSET: return "argument not set";
	case SL_LAUNCH_E_ARG_KIND: return "argument of the wrong kind";
	case SL_LAUNCH_E_ARG_SIZE: return "argument of the wrong size";
	case SL_LAUNCH_E_ADDRESS: return "GPU address out of reach";
	case SL_LAUNCH_E_WORK_DIM: return "work_dim not 1, 2 or 3";
	case SL_LAUNCH_E_GLOBAL_SIZE: return "global size of 0";
	case SL_LAUNCH_E_LOCAL_SIZE: return "local size not allowed";
	case SL_LAUNCH_E_NOT_DIVISIBLE:
		return "global size not a multiple of the local size";
	case SL_LAUNCH_E_OFFSET: return "global offset + size beyond 32 bits";
	case SL_LAUNCH_E_TOO_BIG: return "sizes do not fit the descriptors";
	case SL_LAUNCH_E_ALIGN: return "misaligned address";
	case SL_LAUNCH_E_SPACE: return "buffer too small for the descriptors";
	case SL_LAUNCH_E_JOB_INDEX: return "bad job index or dependency";
	case SL_LAUNCH_E_LOCAL_MEMORY: return "too much work-group memory";
	case SL_LAUNCH_E_ARG_VALUE: return "image or sampler not valid";
	default: return "unknown error";
	}
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t next_pow2(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

/* --- the lower layer ----------------------------------------------------- */

/* sl_desc_cache keeps the job area (everything before the RSD). */
_Static_assert(SL_DESC_JOB + MDG_COMPUTE_JOB_BYTES <= SL_DESC_RSD,
	       "the compute job fits before the renderer state");

size_t sl_desc_size(size_t push_bytes)
{
	return ALIGN_UP(SL_DESC_PUSH + ALIGN_UP(push_bytes, 16), SL_DESC_ALIGN);
}

static int check_link(const struct sl_job_link *l)
{
	if (l->index < 1 || l->index > 0xFFFF)
		return SL_LAUNCH_E_JOB_INDEX;
	/* The hardware only waits for jobs it has already read in. */
	for (int i = 0; i < 2; i++) {
		if (l->dep[i] >= l->index)
			return SL_LAUNCH_E_JOB_INDEX;
	}
	if (l->next % SL_DESC_ALIGN)
		return SL_LAUNCH_E_ALIGN;
	return SL_LAUNCH_OK;
}

/*
 * Everything sl_desc_pack() can refuse, so that it writes all or nothing;
 * the compute job it had to pack to know is left in @job for write_desc().
 */
static int check_desc(const struct sl_desc *d, size_t size, uint64_t va,
		      uint8_t job[MDG_COMPUTE_JOB_BYTES])
{
	struct mdg_compute_job cj;
	int err;

	if (va % SL_DESC_ALIGN || d->shader_va % 16)
		return SL_LAUNCH_E_ALIGN;
	if (size < sl_desc_size((size_t)d->push_vec4 * 16))
		return SL_LAUNCH_E_SPACE;
	if (d->push_vec4 > SL_DESC_MAX_PUSH_VEC4 ||
	    d->ubo_count > SL_DESC_MAX_UBOS || d->work_regs > 16 ||
	    d->first_tag > 0xF || d->texture_count > 0xFFFF ||
	    d->sampler_count > 0xFFFF || d->attribute_count > 0xFFFF)
		return SL_LAUNCH_E_TOO_BIG;
	if (d->push_vec4 && !d->push)
		return SL_LAUNCH_E_INVALID;
	err = check_link(&d->link);
	if (err)
		return err;

	memset(&cj, 0, sizeof(cj));
	cj.index = d->link.index;
	cj.dep1 = d->link.dep[0];
	cj.dep2 = d->link.dep[1];
	/*
	 * Mesa sets the job barrier on every compute launch (docs/hardware.md
	 * §4.7).
	 */
	cj.barrier = true;
	cj.next = d->link.next;
	memcpy(cj.local_size, d->local_size, sizeof(cj.local_size));
	memcpy(cj.num_groups, d->num_groups, sizeof(cj.num_groups));
	cj.rsd = va + SL_DESC_RSD;
	cj.thread_storage = va + SL_DESC_LOCAL_STORAGE;
	cj.uniform_buffers = d->ubo_count ? va + SL_DESC_UBO_TABLE : 0;
	cj.push_uniforms = d->push_vec4 ? va + SL_DESC_PUSH : 0;
	cj.textures = d->textures_va;
	cj.samplers = d->samplers_va;
	cj.attributes = d->attributes_va;
	cj.attribute_buffers = d->attribute_buffers_va;
	if (!mdg_pack_compute_job(&cj, job))
		return SL_LAUNCH_E_TOO_BIG;
	return SL_LAUNCH_OK;
}

/* Writes the block check_desc() accepted, its packed compute job @job. */
static void write_desc(const struct sl_desc *d,
		       const uint8_t job[MDG_COMPUTE_JOB_BYTES], uint8_t *cpu)
{
	struct mdg_renderer_state rsd = { 0 };
	struct mdg_local_storage ls = { 0 };

	if (d->push_vec4)
		memmove(cpu + SL_DESC_PUSH, d->push, d->push_vec4 * 16u);
	memset(cpu, 0, SL_DESC_PUSH);
	memcpy(cpu + SL_DESC_JOB, job, MDG_COMPUTE_JOB_BYTES);

	rsd.shader = d->shader_va;
	rsd.first_tag = d->first_tag;
	rsd.work_regs = d->work_regs;
	rsd.uniform_vec4 = d->push_vec4;
	rsd.ubo_count = d->ubo_count;
	rsd.barrier = d->barrier;
	/* Kernels write memory; OpenCL's float rules (§4.4). */
	rsd.side_effects = true;
	rsd.fp_mode = 2;
	rsd.texture_count = d->texture_count;
	rsd.sampler_count = d->sampler_count;
	rsd.attribute_count = d->attribute_count;
	mdg_pack_renderer_state(&rsd, cpu + SL_DESC_RSD);

	if (d->tls_va && d->tls_bytes_per_thread) {
		ls.tls_base = d->tls_va;
		ls.tls_bytes_per_thread = d->tls_bytes_per_thread;
	}
	if (d->wls_va && d->wls_bytes_per_group) {
		ls.wls_base = d->wls_va;
		ls.wls_bytes_per_group = d->wls_bytes_per_group;
		ls.wls_instances = d->wls_instances;
	}
	mdg_pack_local_storage(&ls, cpu + SL_DESC_LOCAL_STORAGE);

	for (unsigned int i = 0; i < d->ubo_count; i++)
		mdg_pack_ubo(d->ubo_va[i], d->ubo_size[i],
			     cpu + SL_DESC_UBO_TABLE +
			     MDG_UNIFORM_BUFFER_BYTES * i);
}

int sl_desc_pack(const struct sl_desc *d, uint8_t *cpu, size_t size,
		 uint64_t va)
{
	uint8_t job[MDG_COMPUTE_JOB_BYTES];
	int err = check_desc(d, size, va, job);

	if (err)
		return err;
	write_desc(d, job, cpu);
	return SL_LAUNCH_OK;
}

void sl_desc_link(uint8_t *cpu, uint64_t next_va)
{
	mdg_set(cpu + SL_DESC_JOB, MDG_JOB_HEADER_NEXT, next_va);
}

uint32_t sl_desc_job_status(const uint8_t *cpu)
{
	return mdg_job_exception_status(cpu + SL_DESC_JOB);
}

int sl_timestamp_pack(const struct sl_job_link *link, uint64_t target,
		      uint8_t *cpu, size_t size, uint64_t va)
{
	struct mdg_write_value_job wv = {
		.target = target,
		.type = MDG_WRITE_VALUE_TYPE_SYSTEM_TIMESTAMP,
	};
	int err = check_link(link);

	if (err)
		return err;
	if (va % SL_DESC_ALIGN || target % 8)
		return SL_LAUNCH_E_ALIGN;
	if (size < SL_TIMESTAMP_JOB_BYTES)
		return SL_LAUNCH_E_SPACE;
	wv.index = link->index;
	wv.dep1 = link->dep[0];
	wv.dep2 = link->dep[1];
	wv.next = link->next;
	mdg_pack_write_value_job(&wv, cpu);
	return SL_LAUNCH_OK;
}

/* --- launching a compiled kernel ----------------------------------------- */

unsigned int sl_launch_cores(uint64_t shader_present)
{
	unsigned int n = 0;

	while (n < 64 && shader_present >> n)
		n++;
	return n ? n : 1;
}

static int check_ndrange(const struct sl_launch_params *p,
			 struct sl_launch_plan *plan)
{
	const struct slb_kernel *k = p->kernel;
	const struct sl_ndrange *nd = &p->nd;
	uint64_t threads = 1;

	if (nd->work_dim < 1 || nd->work_dim > 3)
		return SL_LAUNCH_E_WORK_DIM;
	for (unsigned int i = 0; i < 3; i++) {
		bool used = i < nd->work_dim;
		uint32_t g = used ? nd->global[i] : 1;
		uint32_t l = used ? nd->local[i] : 1;
		uint32_t o = used ? nd->offset[i] : 0;

		if (!g)
			return SL_LAUNCH_E_GLOBAL_SIZE;
		if (!l)
			return SL_LAUNCH_E_LOCAL_SIZE;
		if (g % l)
			return SL_LAUNCH_E_NOT_DIVISIBLE;
		if ((uint64_t)o + g > 1ull << 32)
			return SL_LAUNCH_E_OFFSET;
		if (k->reqd_wg_size[0] && l != k->reqd_wg_size[i])
			return SL_LAUNCH_E_LOCAL_SIZE;
		plan->local_size[i] = l;
		plan->num_groups[i] = g / l;
		threads *= l;
	}
	if (k->max_wg_size && threads > k->max_wg_size)
		return SL_LAUNCH_E_LOCAL_SIZE;
	return SL_LAUNCH_OK;
}

/* Does [offset, offset + size) lie in the image? */
static bool in_image(uint32_t image_bytes, uint32_t offset, uint32_t size)
{
	return offset <= image_bytes && size <= image_bytes - offset;
}

/* Arguments against the metadata; sums the WLS the __local ones take. */
static int check_args(const struct sl_launch_params *p,
		      struct sl_launch_plan *plan)
{
	const struct slb_kernel *k = p->kernel;
	uint64_t wls = ALIGN_UP((uint64_t)k->local_static_bytes, 16);
	bool tables = false, by_value = false;

	if (p->num_args != k->num_args)
		return SL_LAUNCH_E_ARG_COUNT;
	if (k->num_args && !p->args)
		return SL_LAUNCH_E_INVALID;
	for (unsigned int i = 0; i < k->num_args; i++) {
		const struct slb_arg *a = &k->args[i];
		const struct sl_arg *v = &p->args[i];
		bool pointer = a->kind == SLB_ARG_GLOBAL ||
			       a->kind == SLB_ARG_CONSTANT;

		plan->error_arg = (int)i;
		if (!in_image(plan->image_bytes, a->offset, a->size) ||
		    a->kind > SLB_ARG_IMAGE ||
		    (a->kind == SLB_ARG_IMAGE ?
		     a->size != SLB_IMAGE_ARG_BYTES :
		     a->kind != SLB_ARG_VALUE && a->size != 4))
			return SL_LAUNCH_E_INVALID;
		switch (v->kind) {
		case SL_ARG_UNSET:
			return SL_LAUNCH_E_ARG_UNSET;
		case SL_ARG_BUFFER:
			if (!pointer)
				return SL_LAUNCH_E_ARG_KIND;
			/* The ABI carries pointers as 32-bit addresses. */
			if (v->va > UINT32_MAX)
				return SL_LAUNCH_E_ADDRESS;
			break;
		case SL_ARG_VALUE:
			/* An image's value is its image words, a
			 * sampler's its CLK_* value. */
			if (a->kind != SLB_ARG_VALUE &&
			    a->kind != SLB_ARG_IMAGE &&
			    a->kind != SLB_ARG_SAMPLER)
				return SL_LAUNCH_E_ARG_KIND;
			if (v->size != a->size || (v->size && !v->value))
				return SL_LAUNCH_E_ARG_SIZE;
			by_value |= a->kind != SLB_ARG_VALUE;
			break;
		case SL_ARG_IMAGE: {
			int err;

			if (a->kind != SLB_ARG_IMAGE)
				return SL_LAUNCH_E_ARG_KIND;
			err = sl_image_check(v->image);
			if (err)
				return err;
			tables = true;
			plan->num_images++;
			break;
		}
		case SL_ARG_SAMPLER:
			if (a->kind != SLB_ARG_SAMPLER)
				return SL_LAUNCH_E_ARG_KIND;
			if (!slb_sampler_valid(v->sampler))
				return SL_LAUNCH_E_ARG_VALUE;
			tables = true;
			plan->num_samplers++;
			break;
		case SL_ARG_LOCAL:
			if (a->kind != SLB_ARG_LOCAL)
				return SL_LAUNCH_E_ARG_KIND;
			if (!v->size)
				return SL_LAUNCH_E_ARG_SIZE;
			wls = ALIGN_UP(wls + v->size, 16);
			if (wls > WLS_MAX_INSTANCE_BYTES)
				return SL_LAUNCH_E_LOCAL_MEMORY;
			break;
		default:
			return SL_LAUNCH_E_ARG_KIND;
		}
	}
	/* Tables from the launch, or all from the caller. */
	if (tables && by_value)
		return SL_LAUNCH_E_ARG_KIND;
	plan->error_arg = -1;
	plan->wls_bytes_per_group = (uint32_t)wls;
	if (by_value) {
		plan->num_images = plan->num_samplers = 0;
	} else {
		for (uint32_t i = 0; i < k->num_const_samplers; i++) {
			const struct slb_const_sampler *c =
				&k->const_samplers[i];

			/* They follow the sampler arguments, in order. */
			if (c->index != plan->num_samplers + i ||
			    !slb_sampler_valid(c->value))
				return SL_LAUNCH_E_INVALID;
		}
		plan->num_samplers += k->num_const_samplers;
	}
	return SL_LAUNCH_OK;
}

/* Lays the image tables out after the argument image. */
static int plan_tables(struct sl_launch_plan *plan)
{
	const struct sl_launch_params *p = plan->params;
	uint64_t at = sl_desc_size(plan->image_bytes);

	if (!plan->num_images && !plan->num_samplers)
		return SL_LAUNCH_OK;
	if (plan->num_samplers) {
		plan->samplers_at = (uint32_t)at;
		at += ALIGN_UP(plan->num_samplers * 32ull, SL_DESC_ALIGN);
	}
	if (plan->num_images) {
		plan->textures_at = (uint32_t)at;
		at += ALIGN_UP(plan->num_images * 8ull, SL_DESC_ALIGN);
		plan->attributes_at = (uint32_t)at;
		at += ALIGN_UP(plan->num_images * 8ull, SL_DESC_ALIGN);
		plan->attribute_buffers_at = (uint32_t)at;
		at += ALIGN_UP(plan->num_images * 32ull, SL_DESC_ALIGN);
		plan->texture_descs_at = (uint32_t)at;
		for (unsigned int i = 0; i < p->num_args; i++)
			if (p->args[i].kind == SL_ARG_IMAGE)
				at += ALIGN_UP(sl_texture_bytes(p->args[i].image),
					       SL_DESC_ALIGN);
	}
	/* Offsets are 32-bit; blocks this big are not sensible anyway. */
	if (at > UINT32_MAX)
		return SL_LAUNCH_E_TOO_BIG;
	plan->desc_bytes = (size_t)at;
	return SL_LAUNCH_OK;
}

int sl_launch_plan(const struct sl_launch_params *p,
		   struct sl_launch_plan *plan)
{
	const struct slb_kernel *k;
	uint64_t image;
	int err;

	if (!plan)
		return SL_LAUNCH_E_INVALID;
	memset(plan, 0, sizeof(*plan));
	plan->error_arg = -1;
	if (!p || !p->prog || !p->kernel)
		return SL_LAUNCH_E_INVALID;
	k = p->kernel;
	plan->params = p;
	if ((uint64_t)k->code_offset + k->code_size > p->prog->code_size ||
	    k->code_offset % 16 || k->work_regs > 16 ||
	    k->push_vec4 > SL_DESC_MAX_PUSH_VEC4 ||
	    k->num_args > SLB_MAX_ARGS || k->num_sysvals > SLB_SYSVAL_COUNT)
		return SL_LAUNCH_E_INVALID;
	image = ALIGN_UP((uint64_t)k->uniform_bytes, 16);
	if (image < k->push_vec4 * 16u)
		image = k->push_vec4 * 16u;
	if (!image)
		image = 16;
	/*
	 * UBO 0 holds at most 64 KiB (4096 entries of 16 bytes,
	 * docs/hardware.md §4.6).
	 */
	if (image > 65536)
		return SL_LAUNCH_E_TOO_BIG;
	plan->image_bytes = (uint32_t)image;
	plan->desc_bytes = sl_desc_size(image);
	for (uint32_t i = 0; i < k->num_sysvals; i++) {
		if (k->sysvals[i].sysval >= SLB_SYSVAL_COUNT ||
		    !in_image(plan->image_bytes, k->sysvals[i].offset, 4))
			return SL_LAUNCH_E_INVALID;
	}
	if (p->constant_va > UINT32_MAX)
		return SL_LAUNCH_E_ADDRESS;

	err = check_ndrange(p, plan);
	if (err)
		return err;
	err = check_args(p, plan);
	if (!err)
		err = plan_tables(plan);
	if (err)
		return err;
	{
		/*
		 * The six invocation values must pack into 32 bits
		 * (docs/hardware.md §4.3).
		 */
		uint8_t inv[MDG_INVOCATION_BYTES];

		if (!mdg_pack_invocation(plan->local_size, plan->num_groups,
					 inv))
			return SL_LAUNCH_E_TOO_BIG;
	}

	plan->tls_bytes_per_thread = k->private_bytes;
	if (k->private_bytes)
		plan->tls_total_bytes = mdg_tls_total(k->private_bytes,
						      p->cores ? p->cores : 1);
	if (plan->wls_bytes_per_group) {
		/*
		 * As Mesa sizes it (docs/hardware.md §4.5): a power-of-two
		 * instance of at least 128 bytes per group, and as many
		 * instances as the model's instance index (x + y*X + z*X*Y over
		 * the power-of-two group counts X, Y) can reach, so groups in
		 * flight at the same time never share one.
		 */
		uint64_t inst = next_pow2(plan->wls_bytes_per_group);
		uint64_t n = next_pow2(plan->num_groups[0]) *
			     next_pow2(plan->num_groups[1]) *
			     next_pow2(plan->num_groups[2]);

		if (inst < WLS_MIN_INSTANCE_BYTES)
			inst = WLS_MIN_INSTANCE_BYTES;
		if (n > 1ull << WLS_MAX_INSTANCES_LOG2)
			return SL_LAUNCH_E_TOO_BIG;
		plan->wls_instances = (uint32_t)n;
		plan->wls_total_bytes = inst * n;
	}
	return SL_LAUNCH_OK;
}

static uint32_t sysval_value(const struct sl_launch_plan *plan,
			     uint32_t sysval)
{
	const struct sl_ndrange *nd = &plan->params->nd;
	unsigned int axis = sysval % 3;
	bool used = axis < nd->work_dim;

	if (sysval <= SLB_SYSVAL_GLOBAL_OFFSET_Z)
		return used ? nd->offset[axis] : 0;
	if (sysval <= SLB_SYSVAL_GLOBAL_SIZE_Z)
		return plan->local_size[axis] * plan->num_groups[axis];
	if (sysval <= SLB_SYSVAL_LOCAL_SIZE_Z)
		return plan->local_size[axis];
	if (sysval <= SLB_SYSVAL_NUM_GROUPS_Z)
		return plan->num_groups[axis];
	if (sysval == SLB_SYSVAL_WORK_DIM)
		return nd->work_dim;
	if (sysval == SLB_SYSVAL_PRINTF_BUFFER)
		return (uint32_t)plan->params->printf_va;
	return (uint32_t)plan->params->constant_va;
}

bool sl_launch_uses_printf(const struct slb_kernel *k)
{
	for (uint32_t i = 0; i < k->num_sysvals; i++)
		if (k->sysvals[i].sysval == SLB_SYSVAL_PRINTF_BUFFER)
			return true;
	return false;
}

void sl_launch_write_image(const struct sl_launch_plan *plan, uint8_t *image)
{
	const struct sl_launch_params *p = plan->params;
	const struct slb_kernel *k = p->kernel;
	uint32_t wls = ALIGN_UP(k->local_static_bytes, 16);

	memset(image, 0, plan->image_bytes);
	for (unsigned int i = 0; i < k->num_args; i++) {
		const struct slb_arg *a = &k->args[i];
		const struct sl_arg *v = &p->args[i];

		switch (v->kind) {
		case SL_ARG_BUFFER:
			put32(image + a->offset, (uint32_t)v->va);
			break;
		case SL_ARG_VALUE:
			if (v->size)
				memcpy(image + a->offset, v->value, v->size);
			break;
		case SL_ARG_LOCAL:
			/* Its offset in the group's WLS, after the statics. */
			put32(image + a->offset, wls);
			wls = ALIGN_UP(wls + v->size, 16);
			break;
		case SL_ARG_IMAGE: {
			uint32_t words[SLB_IMAGE_WORDS];

			sl_image_words(v->image, words);
			for (unsigned int w = 0; w < SLB_IMAGE_WORDS; w++)
				put32(image + a->offset + 4 * w, words[w]);
			break;
		}
		case SL_ARG_SAMPLER:
			put32(image + a->offset, v->sampler);
			break;
		default:
			break;
		}
	}
	for (uint32_t i = 0; i < k->num_sysvals; i++)
		put32(image + k->sysvals[i].offset,
		      sysval_value(plan, k->sysvals[i].sysval));
}

/*
 * Writes the image tables of the plan into the block at @cpu (GPU address
 * @va): samplers (arguments, then constant samplers), texture pointers,
 * attribute records and buffers, texture descriptors.
 */
static void write_tables(const struct sl_launch_plan *plan, uint8_t *cpu,
			 uint64_t va)
{
	const struct sl_launch_params *p = plan->params;
	const struct slb_kernel *k = p->kernel;
	uint32_t desc_at = plan->texture_descs_at;
	unsigned int img = 0, smp = 0;

	for (unsigned int i = 0; i < p->num_args; i++) {
		const struct sl_arg *v = &p->args[i];

		if (v->kind == SL_ARG_SAMPLER) {
			sl_sampler_pack(v->sampler, cpu + plan->samplers_at +
					32 * smp++);
		} else if (v->kind == SL_ARG_IMAGE) {
			uint64_t desc_va = va + desc_at;

			sl_texture_pack(v->image, cpu + desc_at);
			for (int b = 0; b < 8; b++)
				cpu[plan->textures_at + 8 * img + b] =
					(uint8_t)(desc_va >> (8 * b));
			sl_attribute_pack(v->image, img,
					  cpu + plan->attributes_at + 8 * img,
					  cpu + plan->attribute_buffers_at +
					  32 * img);
			desc_at += ALIGN_UP(sl_texture_bytes(v->image),
					    SL_DESC_ALIGN);
			img++;
		}
	}
	if (!plan->num_samplers)
		return;
	for (uint32_t c = 0; c < k->num_const_samplers; c++)
		sl_sampler_pack(k->const_samplers[c].value,
				cpu + plan->samplers_at +
				32 * k->const_samplers[c].index);
}

/* True when two blocks' fields (the image aside) are the same. */
static bool same_desc(const struct sl_desc *a, const struct sl_desc *b)
{
	return a->link.index == b->link.index &&
	       a->link.dep[0] == b->link.dep[0] &&
	       a->link.dep[1] == b->link.dep[1] &&
	       a->link.next == b->link.next &&
	       a->shader_va == b->shader_va && a->first_tag == b->first_tag &&
	       a->work_regs == b->work_regs && a->barrier == b->barrier &&
	       !memcmp(a->local_size, b->local_size, sizeof(a->local_size)) &&
	       !memcmp(a->num_groups, b->num_groups, sizeof(a->num_groups)) &&
	       a->push_vec4 == b->push_vec4 && a->ubo_count == b->ubo_count &&
	       !memcmp(a->ubo_va, b->ubo_va, sizeof(a->ubo_va)) &&
	       !memcmp(a->ubo_size, b->ubo_size, sizeof(a->ubo_size)) &&
	       a->tls_va == b->tls_va &&
	       a->tls_bytes_per_thread == b->tls_bytes_per_thread &&
	       a->wls_va == b->wls_va &&
	       a->wls_bytes_per_group == b->wls_bytes_per_group &&
	       a->wls_instances == b->wls_instances &&
	       a->textures_va == b->textures_va &&
	       a->samplers_va == b->samplers_va &&
	       a->attributes_va == b->attributes_va &&
	       a->attribute_buffers_va == b->attribute_buffers_va &&
	       a->texture_count == b->texture_count &&
	       a->sampler_count == b->sampler_count &&
	       a->attribute_count == b->attribute_count;
}

int sl_launch_emit(const struct sl_launch_plan *plan,
		   const struct sl_launch_memory *mem,
		   const struct sl_job_link *link, uint8_t *cpu, size_t size,
		   uint64_t va)
{
	return sl_launch_emit_cached(plan, mem, link, cpu, size, va, NULL);
}

int sl_launch_emit_cached(const struct sl_launch_plan *plan,
			  const struct sl_launch_memory *mem,
			  const struct sl_job_link *link, uint8_t *cpu,
			  size_t size, uint64_t va,
			  struct sl_desc_cache *cache)
{
	const struct slb_kernel *k;
	struct sl_desc d = { 0 };
	uint8_t job[MDG_COMPUTE_JOB_BYTES];
	uint64_t shader, end;
	int err;

	if (!plan || !plan->params || !mem || !link || !cpu)
		return SL_LAUNCH_E_INVALID;
	k = plan->params->kernel;
	if (va % SL_DESC_ALIGN || mem->code_va % 64)
		return SL_LAUNCH_E_ALIGN;
	if (size < plan->desc_bytes)
		return SL_LAUNCH_E_SPACE;
	if (sl_launch_uses_printf(k)) {
		uint64_t pva = plan->params->printf_va;

		if (!pva || pva > UINT32_MAX)
			return SL_LAUNCH_E_ADDRESS;
		if (pva % 8)
			return SL_LAUNCH_E_ALIGN;
	}
	err = check_link(link);
	if (err)
		return err;
	shader = mem->code_va + k->code_offset;
	/* The PC is 24 bits: code may not cross or end on 16 MiB. */
	end = shader + k->code_size;
	if (shader / SL_CODE_REGION != end / SL_CODE_REGION)
		return SL_LAUNCH_E_ADDRESS;
	if ((plan->tls_total_bytes && !mem->tls_va) ||
	    (plan->wls_total_bytes && !mem->wls_va))
		return SL_LAUNCH_E_ADDRESS;
	if (mem->tls_va % 16 || mem->wls_va % 4096)
		return SL_LAUNCH_E_ALIGN;
	if (mem->wls_va && plan->wls_total_bytes &&
	    mem->wls_va >> 32 !=
	    (mem->wls_va + plan->wls_total_bytes - 1) >> 32)
		return SL_LAUNCH_E_ALIGN;

	d.link = *link;
	d.shader_va = shader;
	d.first_tag = k->first_tag;
	d.work_regs = k->work_regs;
	d.barrier = k->barrier;
	memcpy(d.local_size, plan->local_size, sizeof(d.local_size));
	memcpy(d.num_groups, plan->num_groups, sizeof(d.num_groups));
	/* The image is written in place; the pushed rows are its first. */
	d.push = cpu + SL_DESC_PUSH;
	d.push_vec4 = k->push_vec4;
	if (k->needs_ubo) {
		d.ubo_count = 1;
		d.ubo_va[0] = va + SL_DESC_PUSH;
		d.ubo_size[0] = plan->image_bytes;
	}
	if (plan->tls_total_bytes) {
		d.tls_va = mem->tls_va;
		d.tls_bytes_per_thread = plan->tls_bytes_per_thread;
	}
	if (plan->wls_total_bytes) {
		d.wls_va = mem->wls_va;
		d.wls_bytes_per_group = plan->wls_bytes_per_group;
		d.wls_instances = plan->wls_instances;
	}
	if (plan->num_samplers) {
		d.samplers_va = va + plan->samplers_at;
		d.sampler_count = plan->num_samplers;
	}
	if (plan->num_images) {
		d.textures_va = va + plan->textures_at;
		d.texture_count = plan->num_images;
		d.attributes_va = va + plan->attributes_at;
		d.attribute_buffers_va = va + plan->attribute_buffers_at;
		d.attribute_count = plan->num_images;
	}
	if (cache && cache->valid && cache->va == va &&
	    same_desc(&cache->d, &d)) {
		sl_launch_write_image(plan, cpu + SL_DESC_PUSH);
		write_tables(plan, cpu, va);
		memcpy(cpu, cache->job, sizeof(cache->job));
		return SL_LAUNCH_OK;
	}
	/* Refuse before the image is written: all or nothing. */
	err = check_desc(&d, size, va, job);
	if (err)
		return err;
	sl_launch_write_image(plan, cpu + SL_DESC_PUSH);
	/* The pushed rows are already in place: the memmove is a no-op. */
	write_desc(&d, job, cpu);
	write_tables(plan, cpu, va);
	if (cache) {
		cache->valid = true;
		cache->va = va;
		cache->d = d;
		cache->d.push = NULL;
		/* write_desc() zeroed the area and put the job at its
		 * start; kept as written, not read back from @cpu. */
		memset(cache->job, 0, sizeof(cache->job));
		memcpy(cache->job + SL_DESC_JOB, job, sizeof(job));
	}
	return SL_LAUNCH_OK;
}
