/* SPDX-License-Identifier: MIT */
/*
 * The runtime's own kernels for buffer fills and copies (icd_builtin.h):
 * loading their code from the data folder, a program of them per context,
 * and the launches that replace the CPU's memset/memcpy. Their argument
 * layout is the contract with firmware/cl/fill.s and copy.s (firmware/cl/README.md); it
 * is written down once, in the kernel tables below.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd_builtin.h"
#include "icd_context.h"
#include "icd_device.h"
#include "icd_event.h"
#include "icd_mem.h"
#include "icd_ndrange.h"
#include "icd_program.h"
#include "icd_queue.h"
#include "midgard_isa.h"

#ifndef ICD_DATA_DIR
#define ICD_DATA_DIR "/usr/local/share/sleipnir"
#endif

/* Bytes one work-item of either kernel covers (firmware/cl/fill.s, copy.s). */
#define BLOCK_BYTES 256u
/* Work-items of a group along x: blocks of a row run side by side. */
#define GROUP_ITEMS 64u
/* The fill kernel's pattern table: 128 bytes, any pattern repeated. */
#define PATTERN_TABLE 128u

/* An argument of a built-in kernel: its place in the argument image. */
struct builtin_arg {
	const char *name, *type;
	enum slb_arg_kind kind;
	uint32_t offset, size;
};

/* A built-in kernel: its code file and its launch ABI. */
struct builtin_kernel {
	const char *name, *file;
	uint32_t work_regs;          /* r0 up */
	uint32_t uniform_bytes, push_vec4;
	bool needs_ubo;              /* reads the image as UBO 0 */
	unsigned int num_args;
	struct builtin_arg args[7];
};

enum { KERNEL_FILL, KERNEL_COPY, NUM_KERNELS };

static const struct builtin_kernel kernels[NUM_KERNELS] = {
	[KERNEL_FILL] = {
		"sl_fill", "cl-fill.bin", 3, 16 + PATTERN_TABLE, 9, true, 4, {
			{ "base", "uchar*", SLB_ARG_GLOBAL, 0, 4 },
			{ "head", "uint", SLB_ARG_VALUE, 4, 4 },
			{ "end", "uint", SLB_ARG_VALUE, 8, 4 },
			{ "pattern", "uchar[128]", SLB_ARG_VALUE, 16,
			  PATTERN_TABLE },
		},
	},
	[KERNEL_COPY] = {
		"sl_copy", "cl-copy.bin", 4, 32, 2, false, 7, {
			{ "dst", "uchar*", SLB_ARG_GLOBAL, 0, 4 },
			{ "src", "uchar*", SLB_ARG_GLOBAL, 4, 4 },
			{ "width", "uint", SLB_ARG_VALUE, 8, 4 },
			{ "dst_row_pitch", "uint", SLB_ARG_VALUE, 12, 4 },
			{ "dst_slice_pitch", "uint", SLB_ARG_VALUE, 16, 4 },
			{ "src_row_pitch", "uint", SLB_ARG_VALUE, 20, 4 },
			{ "src_slice_pitch", "uint", SLB_ARG_VALUE, 24, 4 },
		},
	},
};

/* The code as read, once per process. */
static struct {
	pthread_once_t once;
	bool ok;
	uint8_t *code[NUM_KERNELS];
	size_t size[NUM_KERNELS];
	char dir[4096];
} files = { .once = PTHREAD_ONCE_INIT };

#ifdef ICD_BUILD_DATA_DIR
static bool exists(const char *dir, const char *file)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "rb");
	if (f)
		fclose(f);
	return f != NULL;
}
#endif

static void pick_dir(void)
{
	const char *env = getenv("SLEIPNIR_DATA_DIR");
	const char *dir = ICD_DATA_DIR;

	if (env && *env)
		dir = env;
#ifdef ICD_BUILD_DATA_DIR
	else if (!exists(dir, kernels[0].file))
		dir = ICD_BUILD_DATA_DIR;
#endif
	snprintf(files.dir, sizeof(files.dir), "%s", dir);
}

/* Midgard code as sleipnir-as writes it: whole 16-byte quadwords, a valid
 * first tag (load/store, texture or ALU), 16 zero bytes at the end. */
static bool code_valid(const uint8_t *code, size_t size)
{
	if (size < 32 || size % 16 || size > (1u << 20))
		return false;
	if (mdg_tag_kind(code[0] & 15) == MDG_KIND_INVALID)
		return false;
	for (size_t i = size - 16; i < size; i++)
		if (code[i])
			return false;
	return true;
}

static uint8_t *read_file(const char *dir, const char *file, size_t *size)
{
	char path[4200];
	uint8_t *buf = NULL;
	long len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)len);
		if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		}
		*size = (size_t)len;
	}
	fclose(f);
	if (buf && !code_valid(buf, *size)) {
		fprintf(stderr, "sleipnir: %s is not Midgard code from "
			"sleipnir-as; fills and copies run on the CPU\n", path);
		free(buf);
		buf = NULL;
	}
	return buf;
}

static void load_files(void)
{
	pick_dir();
	files.ok = true;
	for (unsigned int k = 0; k < NUM_KERNELS; k++) {
		files.code[k] = read_file(files.dir, kernels[k].file,
					  &files.size[k]);
		files.ok &= files.code[k] != NULL;
	}
}

const char *icd_builtin_dir(void)
{
	pthread_once(&files.once, load_files);
	return files.dir;
}

/* The slb_kernel of table entry @b, its code at @offset of the program. */
static bool make_kernel(const struct builtin_kernel *b, uint32_t offset,
			uint32_t size, uint8_t first_byte,
			struct slb_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->name = strdup(b->name);
	k->attributes = strdup("");
	k->args = calloc(b->num_args, sizeof(*k->args));
	if (!k->name || !k->attributes || !k->args)
		return false;
	k->num_args = b->num_args;
	for (unsigned int i = 0; i < b->num_args; i++) {
		struct slb_arg *a = &k->args[i];

		a->name = strdup(b->args[i].name);
		a->type_name = strdup(b->args[i].type);
		if (!a->name || !a->type_name)
			return false;
		a->kind = b->args[i].kind;
		a->access = SLB_ACCESS_NONE;
		a->offset = b->args[i].offset;
		a->size = b->args[i].size;
	}
	k->code_offset = offset;
	k->code_size = size;
	k->first_tag = first_byte & 15;
	k->work_regs = b->work_regs;
	k->threads_per_core = 256;
	k->max_wg_size = SLB_MAX_WG_SIZE;
	k->uniform_bytes = b->uniform_bytes;
	k->push_vec4 = b->push_vec4;
	k->needs_ubo = b->needs_ubo;
	return true;
}

/* Both kernels' code in one program, each 64-byte aligned. */
static bool make_program(struct slb_program *p)
{
	uint32_t at[NUM_KERNELS], total = 0;

	memset(p, 0, sizeof(*p));
	for (unsigned int k = 0; k < NUM_KERNELS; k++) {
		at[k] = total;
		total += (uint32_t)(files.size[k] + 63) / 64 * 64;
	}
	p->code = calloc(1, total);
	p->kernels = calloc(NUM_KERNELS, sizeof(*p->kernels));
	p->compiler_version = strdup("sleipnir-as");
	p->build_options = strdup("");
	if (!p->code || !p->kernels || !p->compiler_version ||
	    !p->build_options)
		return false;
	p->code_size = total;
	p->num_kernels = NUM_KERNELS;
	for (unsigned int k = 0; k < NUM_KERNELS; k++) {
		memcpy(p->code + at[k], files.code[k], files.size[k]);
		if (!make_kernel(&kernels[k], at[k], (uint32_t)files.size[k],
				 files.code[k][0], &p->kernels[k]))
			return false;
	}
	return true;
}

cl_program icd_builtin_program_new(cl_context ctx)
{
	cl_program program;
	cl_int err;

	pthread_once(&files.once, load_files);
	if (!ctx->drm || !files.ok)
		return NULL;
	program = icd_program_new(ctx, ICD_PROGRAM_BINARY, &err);
	if (!program)
		return NULL;
	/* The context owns it: no reference back, or it would never end. */
	program->builtin = true;
	clReleaseContext(ctx);
	if (!make_program(&program->prog)) {
		slb_program_free(&program->prog);
		icd_program_release(program);
		return NULL;
	}
	program->built = true;
	program->build_status = CL_BUILD_SUCCESS;
	program->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
	return program;
}

void icd_builtin_release(cl_program program)
{
	if (program)
		icd_program_release(program);
}

/* --- launches ------------------------------------------------------------ */

/* SLEIPNIR_CL_CPU_COPIES=1: the CPU does fills and copies (comparisons,
 * and a way around a GPU problem). Read at each command. */
static bool cpu_forced(void)
{
	const char *env = getenv("SLEIPNIR_CL_CPU_COPIES");

	return env && *env && strcmp(env, "0") != 0;
}

/*
 * A launch of built-in kernel @k in one allocation, as icd_launch_free()
 * frees it: the struct, the arguments, two buffer slots and @bytes of
 * by-value data at *@values.
 */
static struct icd_launch *launch_new(cl_program program, unsigned int k,
				     size_t bytes, uint8_t **values)
{
	unsigned int n = kernels[k].num_args;
	struct icd_launch *l;
	char *p;

	p = calloc(1, sizeof(*l) + n * sizeof(*l->args) +
		   2 * sizeof(*l->mems) + bytes);
	if (!p)
		return NULL;
	l = (struct icd_launch *)p;
	p += sizeof(*l);
	l->args = (struct sl_arg *)p;
	p += n * sizeof(*l->args);
	l->mems = (cl_mem *)p;
	p += 2 * sizeof(*l->mems);
	*values = (uint8_t *)p;
	l->params.prog = &program->prog;
	l->params.kernel = &program->prog.kernels[k];
	l->params.args = l->args;
	l->params.num_args = n;
	return l;
}

static void set_value(struct icd_launch *l, unsigned int i, uint8_t **at,
		      const void *value, uint32_t size)
{
	memcpy(*at, value, size);
	l->args[i].kind = SL_ARG_VALUE;
	l->args[i].value = *at;
	l->args[i].size = size;
	*at += size;
}

/*
 * Plans @l over @blocks work-items along x (rounded up to whole groups:
 * the extra ones find nothing to do), @rows and @slices, then enqueues it
 * holding @mems, @writes among them. False when one launch cannot hold
 * it (the caller then keeps the CPU path); *@err is the enqueue's result.
 */
static bool go(cl_command_queue queue, cl_command_type type,
	       struct icd_launch *l, uint64_t blocks, uint64_t rows,
	       uint64_t slices, cl_mem *mems, unsigned int num_mems,
	       cl_mem writes, cl_uint num_events, const cl_event *wait_list,
	       cl_event *event, cl_int *err)
{
	cl_program program = queue->context->builtin;
	uint32_t lx = blocks < GROUP_ITEMS ? (uint32_t)blocks : GROUP_ITEMS;
	uint64_t gx = (blocks + lx - 1) / lx * lx;
	struct sl_ndrange *nd = &l->params.nd;
	cl_event cmd;

	if (gx > UINT32_MAX || rows > UINT32_MAX || slices > UINT32_MAX) {
		free(l);
		return false;
	}
	nd->work_dim = 3;
	nd->global[0] = (uint32_t)gx;
	nd->global[1] = (uint32_t)rows;
	nd->global[2] = (uint32_t)slices;
	nd->local[0] = lx;
	nd->local[1] = nd->local[2] = 1;
	l->params.cores =
		sl_launch_cores(queue->device->params.shader_present);
	if (sl_launch_plan(&l->params, &l->plan)) {
		free(l);
		return false;
	}
	cmd = icd_command_new(queue, type, num_events, wait_list, err);
	if (!cmd) {
		free(l);
		return true;
	}
	for (unsigned int i = 0; i < num_mems; i++) {
		icd_mem_retain(mems[i]);
		l->mems[l->num_mems++] = mems[i];
	}
	l->writes = writes;
	icd_program_hold_launch(program);
	l->program = program;
	cmd->launch = l;
	*err = icd_command_enqueue(cmd, false, event);
	return true;
}

bool icd_builtin_fill(cl_command_queue queue, cl_mem buffer,
		      const void *pattern, size_t pattern_size, size_t offset,
		      size_t size, cl_uint num_events,
		      const cl_event *wait_list, cl_event *event, cl_int *err)
{
	cl_program program = queue->context->builtin;
	uint8_t table[PATTERN_TABLE], *values;
	uint64_t start = buffer->va + offset;
	uint32_t head = (uint32_t)(start & 15), end;
	struct icd_launch *l;

	if (!program || cpu_forced() || size == 0 ||
	    start + size > UINT32_MAX)
		return false;
	end = head + (uint32_t)size;
	/* Byte j of the table is the pattern's byte at base + j, base the
	 * 16-aligned address below the first byte (the pattern's size
	 * divides 128). */
	for (uint32_t j = 0; j < PATTERN_TABLE; j++)
		table[j] = ((const uint8_t *)pattern)
			[(j + PATTERN_TABLE - head) & (pattern_size - 1)];
	l = launch_new(program, KERNEL_FILL, 8 + sizeof(table), &values);
	if (!l) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return true;
	}
	l->args[0].kind = SL_ARG_BUFFER;
	l->args[0].va = start - head;
	set_value(l, 1, &values, &head, 4);
	set_value(l, 2, &values, &end, 4);
	set_value(l, 3, &values, table, sizeof(table));
	return go(queue, CL_COMMAND_FILL_BUFFER, l,
		  (end + BLOCK_BYTES - 1) / BLOCK_BYTES, 1, 1, &buffer, 1,
		  buffer, num_events, wait_list, event, err);
}

bool icd_builtin_copy(cl_command_queue queue, cl_command_type type,
		      const struct icd_transfer *t, cl_uint num_events,
		      const cl_event *wait_list, cl_event *event, cl_int *err)
{
	cl_program program = queue->context->builtin;
	uint64_t dst = t->dst->va + t->dst_box.start;
	uint64_t src = t->src->va + t->src_box.start;
	uint32_t v[5];
	cl_mem mems[2] = { t->src, t->dst };
	struct icd_launch *l;
	uint8_t *values;

	/* Addresses, pitches and the last byte all 32-bit (the ABI's). */
	if (!program || cpu_forced() ||
	    dst + icd_box_extent(&t->dst_box, t->region) > UINT32_MAX ||
	    src + icd_box_extent(&t->src_box, t->region) > UINT32_MAX ||
	    t->dst_box.slice_pitch > UINT32_MAX ||
	    t->src_box.slice_pitch > UINT32_MAX)
		return false;
	v[0] = (uint32_t)t->region[0];
	v[1] = (uint32_t)t->dst_box.row_pitch;
	v[2] = (uint32_t)t->dst_box.slice_pitch;
	v[3] = (uint32_t)t->src_box.row_pitch;
	v[4] = (uint32_t)t->src_box.slice_pitch;
	l = launch_new(program, KERNEL_COPY, sizeof(v), &values);
	if (!l) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return true;
	}
	l->args[0].kind = SL_ARG_BUFFER;
	l->args[0].va = dst;
	l->args[1].kind = SL_ARG_BUFFER;
	l->args[1].va = src;
	for (unsigned int i = 0; i < 5; i++)
		set_value(l, 2 + i, &values, &v[i], 4);
	/* A row starting anywhere in a 16-byte line spans this many blocks
	 * at most. */
	return go(queue, type, l, (15 + t->region[0] + BLOCK_BYTES - 1) /
		  BLOCK_BYTES, t->region[1], t->region[2], mems, 2, t->dst,
		  num_events, wait_list, event, err);
}
