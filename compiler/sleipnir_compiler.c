/* SPDX-License-Identifier: MIT */
/*
 * The pipeline as one call: options → cache lookup → clang/llvm-spirv →
 * SPIR-V reader (with libclc) → inlining and optimisation → per kernel
 * ABI lowering, Midgard lowering, optimisation and the back end → the
 * program binary → cache store. And in two calls for separate
 * compilation: compile to a bitcode object, link objects.
 */
#include "sleipnir_compiler.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/mbe_backend.h"
#include "binary/slb_binary.h"
#include "frontend/clc_cache.h"
#include "frontend/clc_frontend.h"
#include "frontend/clc_log.h"
#include "frontend/clc_object.h"
#include "frontend/clc_options.h"
#include "frontend/clc_vec_hint.h"
#include "ir/sir_passes.h"
#include "spirv/spirv_reader.h"

#define DEFAULT_LIBCLC "/usr/lib/clc/spirv-mesa3d-.spv"

/* Midgard runs at most 256 threads of a work-group on one core. */
#define MAX_WG_SIZE 256u

/* ---- libclc, loaded once per process ------------------------------- */

static pthread_once_t libclc_once = PTHREAD_ONCE_INIT;
static struct spirv_library *libclc;
static char libclc_path[4096];
static char libclc_error[512];

static void libclc_load(void)
{
	const char *env = getenv("SLEIPNIR_LIBCLC");

	snprintf(libclc_path, sizeof(libclc_path), "%s",
		 env && *env ? env : DEFAULT_LIBCLC);
	libclc = spirv_library_load(libclc_path, libclc_error,
				    sizeof(libclc_error));
}

static const struct spirv_library *libclc_get(struct clc_log *log)
{
	pthread_once(&libclc_once, libclc_load);
	if (!libclc) {
		clc_log_printf(log, "warning: libclc library %s: %s; "
			       "built-ins that need it are unavailable\n",
			       libclc_path, libclc_error);
		/* A failure for want of it is the installation's, and
		 * the process's: its key names the file as it is now. */
		log->transient = true;
	}
	return libclc;
}

/* ---- Work-group size and register budget --------------------------- */

/*
 * The work registers a kernel may use so a work-group of `size` items
 * fits on one core (docs/hardware.md §5.6: 256 threads at 4 registers or
 * fewer, 128 at 8, 64 at 16).
 */
static unsigned int register_budget(uint32_t size)
{
	return size <= 64 ? 16 : size <= 128 ? 8 : 4;
}

static uint32_t threads_for_regs(uint32_t work_regs)
{
	return work_regs <= 4 ? 256 : work_regs <= 8 ? 128 : 64;
}

/* Does f (its callees inlined) meet at a work-group barrier? */
static bool has_work_group_barrier(const struct sir_function *f)
{
	for (uint32_t b = 0; b < f->num_blocks; b++) {
		const struct sir_block *blk = &f->blocks[b];

		for (uint32_t i = 0; i < blk->num_instrs; i++) {
			const struct sir_instr *in = &f->values[blk->instrs[i]];

			if (in->op == SIR_OP_BARRIER && in->aux2)
				return true;
		}
	}
	return false;
}

/* ---- Program assembly --------------------------------------------- */

struct program_builder {
	struct slb_program p;
	uint32_t code_cap;
};

/* Places a kernel's code 64-aligned, followed by 16 zero bytes. */
static bool place_code(struct program_builder *b, struct slb_kernel *k,
		       const struct mbe_code *code)
{
	uint32_t offset = (b->p.code_size + 63u) & ~63u;
	uint64_t end = (uint64_t)offset + code->size + 16;

	if (end > UINT32_MAX / 2)
		return false;
	if (end > b->code_cap) {
		uint32_t cap = b->code_cap ? b->code_cap : 1024;
		uint8_t *c;

		while (cap < end)
			cap *= 2;
		c = realloc(b->p.code, cap);
		if (!c)
			return false;
		b->p.code = c;
		b->code_cap = cap;
	}
	memset(b->p.code + b->p.code_size, 0, (size_t)(end - b->p.code_size));
	memcpy(b->p.code + offset, code->code, code->size);
	b->p.code_size = (uint32_t)end;
	k->code_offset = offset;
	k->code_size = (uint32_t)code->size;
	return true;
}

/*
 * CL_KERNEL_ATTRIBUTES (OpenCL 1.2 5.7.3): the attributes of the kernel's
 * declaration (6.7.2), spelled as in the source, space-separated, in
 * clang's order of them; malloc'ed.
 */
static char *kernel_attributes(const struct sir_function *f,
			       const char *unsigned_vec_hints)
{
	char buf[192], type[16];
	const char *t = NULL;
	size_t n = 0;

	buf[0] = '\0';
	if (f->has_vec_type_hint) {
		bool is_unsigned = clc_vec_hint_is_unsigned(unsigned_vec_hints,
							    f->name);

		t = clc_vec_hint_type(f->vec_type_hint, is_unsigned, type,
				      sizeof(type));
	}
	if (t)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "vec_type_hint(%s)", t);
	if (f->wg_size_hint[0] || f->wg_size_hint[1] || f->wg_size_hint[2])
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "%swork_group_size_hint(%u,%u,%u)",
				      n ? " " : "", f->wg_size_hint[0],
				      f->wg_size_hint[1], f->wg_size_hint[2]);
	if (f->reqd_wg_size[0] || f->reqd_wg_size[1] || f->reqd_wg_size[2])
		snprintf(buf + n, sizeof(buf) - n,
			 "%sreqd_work_group_size(%u,%u,%u)", n ? " " : "",
			 f->reqd_wg_size[0], f->reqd_wg_size[1],
			 f->reqd_wg_size[2]);
	return strdup(buf);
}

/* Kernel f through the per-kernel passes and the back end into k. */
static bool compile_kernel(struct sir_module *m, struct sir_function *f,
			   const struct clc_options *o,
			   const char *unsigned_vec_hints, struct slb_kernel *k,
			   struct program_builder *b, struct clc_log *log)
{
	struct mbe_backend_options opts = { 16 };
	struct mbe_code code = { NULL, 0 };
	uint32_t wg = 0;
	char err[512];
	bool ok;

	k->name = strdup(f->name);
	k->attributes = kernel_attributes(f, unsigned_vec_hints);
	if (!k->name || !k->attributes) {
		clc_log_printf(log, "error: out of memory\n");
		return false;
	}
	memcpy(k->reqd_wg_size, f->reqd_wg_size, sizeof(k->reqd_wg_size));
	if (f->reqd_wg_size[0] || f->reqd_wg_size[1] || f->reqd_wg_size[2]) {
		uint64_t prod = (uint64_t)f->reqd_wg_size[0] *
				f->reqd_wg_size[1] * f->reqd_wg_size[2];

		wg = prod > UINT32_MAX ? UINT32_MAX : (uint32_t)prod;
		if (!wg) {
			clc_log_printf(log, "error: %s: invalid "
				       "reqd_work_group_size\n", f->name);
			return false;
		}
	} else {
		wg = o->wg_size;
	}
	if (wg > MAX_WG_SIZE) {
		clc_log_printf(log, "error: %s: work-group size %u exceeds "
			       "the limit of %u work-items\n", f->name, wg,
			       MAX_WG_SIZE);
		return false;
	}
	/* Only a group meeting at barriers must fit on a core at once. */
	if (wg && has_work_group_barrier(f))
		opts.max_work_regs = register_budget(wg);

	if (o->denorms_are_zero)
		sir_flush_denormal_constants(f);
	ok = sir_lower_printf(m, f, &b->p, err, sizeof(err)) &&
	     sir_lower_abi(m, f, k, err, sizeof(err)) &&
	     sir_lower_midgard(f, o->fast_math, err, sizeof(err));
	if (ok) {
		sir_optimize(f);
		if (sir_slp_vectorize(f))
			sir_optimize(f);
		/* For looking at what the back end is given. */
		if (getenv("SLEIPNIR_DUMP_SIR"))
			sir_print_function(stderr, f);
		ok = mbe_compile_kernel(f, &opts, k, &code, err, sizeof(err));
	}
	if (!ok) {
		clc_log_printf(log, "error: %s: %s\n", f->name, err);
		return false;
	}
	k->threads_per_core = threads_for_regs(k->work_regs);
	/*
	 * Only a work-group that meets at a barrier must be resident on its
	 * core all at once (docs/hardware.md §5.6; the model faults such a job
	 * otherwise); a core runs the threads of any other group in turns,
	 * so its register use does not bound the group. Clients that size
	 * their launches by CL_DEVICE_MAX_WORK_GROUP_SIZE (PyOpenCL's
	 * clrandom) then run any kernel without barriers.
	 */
	k->max_wg_size = k->barrier && k->threads_per_core < MAX_WG_SIZE ?
			 k->threads_per_core : MAX_WG_SIZE;
	if (wg > k->max_wg_size) {
		clc_log_printf(log, "error: %s: %u work registers allow at "
			       "most %u work-items per group, %u required\n",
			       f->name, k->work_regs, k->max_wg_size, wg);
		ok = false;
	} else if (!place_code(b, k, &code)) {
		clc_log_printf(log, "error: %s: out of memory\n", f->name);
		ok = false;
	}
	free(code.code);
	return ok;
}

/* SIR module → binary. False with the log filled. */
static enum slc_status compile_module(struct sir_module *m,
				      const struct clc_options *o,
				      const char *unsigned_vec_hints,
				      const char *options,
				      struct slc_output *out,
				      struct clc_log *log)
{
	struct program_builder b;
	enum slc_status st = SLC_OK;
	uint32_t nk = 0;
	char err[512];

	memset(&b, 0, sizeof(b));
	if (!sir_inline_all(m, err, sizeof(err))) {
		clc_log_printf(log, "error: %s\n", err);
		return SLC_BUILD_FAILED;
	}
	for (uint32_t i = 0; i < m->num_functions; i++)
		sir_optimize(m->functions[i]);
	for (uint32_t i = 0; i < m->num_functions; i++)
		nk += m->functions[i]->is_kernel;
	if (nk > SLB_MAX_KERNELS) {
		clc_log_printf(log, "error: %u kernels (at most %u)\n", nk,
			       SLB_MAX_KERNELS);
		return SLC_BUILD_FAILED;
	}
	b.p.kernels = calloc(nk ? nk : 1, sizeof(*b.p.kernels));
	if (!b.p.kernels)
		return SLC_OUT_OF_MEMORY;
	/* Laid out before the kernels' ABI lowering addresses it. */
	b.p.constant_data = sir_constant_data(m, &b.p.constant_size);
	if (m->constant_bytes && !b.p.constant_data) {
		slb_program_free(&b.p);
		return SLC_OUT_OF_MEMORY;
	}
	b.p.compiler_version = strdup(slb_compiler_version());
	b.p.build_options = strdup(options ? options : "");
	if (!b.p.compiler_version || !b.p.build_options) {
		slb_program_free(&b.p);
		return SLC_OUT_OF_MEMORY;
	}
	for (uint32_t i = 0; i < m->num_functions; i++) {
		struct sir_function *f = m->functions[i];

		if (!f->is_kernel)
			continue;
		if (!compile_kernel(m, f, o, unsigned_vec_hints,
				    &b.p.kernels[b.p.num_kernels++], &b, log))
			st = SLC_BUILD_FAILED;
	}
	if (st == SLC_OK &&
	    !slb_write(&b.p, &out->binary, &out->binary_size))
		st = SLC_OUT_OF_MEMORY;
	if (st == SLC_OK) {
		/* What we hand out must be what slb_read accepts. */
		struct slb_program check;

		if (slb_read(out->binary, out->binary_size, &check, err,
			     sizeof(err))) {
			slb_program_free(&check);
		} else {
			clc_log_printf(log, "error: internal: invalid program "
				       "binary: %s\n", err);
			free(out->binary);
			out->binary = NULL;
			out->binary_size = 0;
			st = SLC_BUILD_FAILED;
		}
	}
	slb_program_free(&b.p);
	return st;
}

/* @unsigned_vec_hints: see struct clc_spirv (NULL: not known). */
static enum slc_status compile_spirv_words(const uint32_t *words, size_t n,
					   const struct clc_options *o,
					   const char *unsigned_vec_hints,
					   const char *options,
					   struct slc_output *out,
					   struct clc_log *log)
{
	const struct spirv_library *lib = libclc_get(log);
	struct sir_module *m;
	enum slc_status st;
	char err[512];

	m = spirv_to_sir(words, n, lib, err, sizeof(err));
	if (!m) {
		clc_log_printf(log, "error: %s\n", err);
		return SLC_BUILD_FAILED;
	}
	st = compile_module(m, o, unsigned_vec_hints, options, out, log);
	sir_module_destroy(m);
	return st;
}

/* ---- Cache key ----------------------------------------------------- */

/*
 * The file this code was loaded from: the ICD's shared object inside an
 * OpenCL application (the application itself says nothing about the
 * compiler it loads), the executable for sleipnir-cc and the tests.
 */
static const char *compiler_file(void)
{
	Dl_info info;

	if (dladdr((void *)compiler_file, &info) && info.dli_fname &&
	    info.dli_fname[0] == '/')
		return info.dli_fname;
	return "/proc/self/exe";
}

/*
 * Everything that decides the output: the input, the options as parsed,
 * the compiler (version and the very file it was loaded from), libclc
 * and, for OpenCL C, the clang and llvm-spirv binaries.
 */
static bool cache_key(const char *kind, const void *input, size_t size,
		      const struct clc_options *o, const char *tools,
		      struct clc_cache_key *key)
{
	struct clc_hash *h = clc_hash_begin();
	uint32_t flags[4] = { o->opt_disable, o->fast_math, o->wg_size,
			      o->denorms_are_zero };

	if (!h)
		return false;
	clc_hash_string(h, kind);
	clc_hash_part(h, input, size);
	for (unsigned int i = 0; i < o->num_clang_args; i++)
		clc_hash_string(h, o->clang_args[i]);
	clc_hash_part(h, flags, sizeof(flags));
	clc_hash_string(h, slb_compiler_version());
	clc_hash_file_identity(h, compiler_file());
	pthread_once(&libclc_once, libclc_load);
	clc_hash_file_identity(h, libclc_path);
	clc_hash_string(h, tools);
	clc_hash_end(h, key);
	return true;
}

/*
 * The entry under @key: a program binary (SLC_OK, in out) or a failed
 * build (SLC_BUILD_FAILED, its log appended to @log); false on a miss.
 */
static bool cache_lookup(const struct clc_cache_key *key,
			 struct slc_output *out, struct clc_log *log,
			 enum slc_status *st)
{
	struct slb_program p;
	const char *failure;
	uint8_t *data;
	size_t size;
	char err[256];

	if (!clc_cache_load(key, &data, &size))
		return false;
	failure = clc_cache_failure_log(data, size);
	if (failure) {
		clc_log_append(log, failure, strlen(failure));
		free(data);
		out->from_cache = true;
		*st = SLC_BUILD_FAILED;
		return true;
	}
	if (!slb_read(data, size, &p, err, sizeof(err))) {
		free(data);
		return false;
	}
	slb_program_free(&p);
	out->binary = data;
	out->binary_size = size;
	out->from_cache = true;
	*st = SLC_OK;
	return true;
}

/*
 * Stores a finished build: its binary, or its log when it failed on its
 * input alone. Not a failure the surroundings caused (log->transient),
 * nor one for want of memory: the compiler's every such path says "out of
 * memory" (the IR and back end report it in their error text, not their
 * status), and a retry may well succeed.
 */
static void cache_store(const struct clc_cache_key *key, enum slc_status st,
			const struct slc_output *out,
			const struct clc_log *log)
{
	if (st == SLC_OK)
		clc_cache_store(key, out->binary, out->binary_size);
	else if (st == SLC_BUILD_FAILED && !log->transient &&
		 !log->out_of_memory && log->text &&
		 !strstr(log->text, "out of memory"))
		clc_cache_store_failure(key, log->text);
}

/* ---- Entry points -------------------------------------------------- */

static enum slc_status finish(enum slc_status st, struct slc_output *out,
			      struct clc_log *log)
{
	if (log->out_of_memory && st == SLC_OK)
		st = SLC_OUT_OF_MEMORY;
	out->log = clc_log_take(log);
	if (!out->log)
		st = SLC_OUT_OF_MEMORY;
	if (st != SLC_OK) {
		free(out->binary);
		out->binary = NULL;
		out->binary_size = 0;
		out->type = SLC_BINARY_NONE;
	} else if (out->binary && out->type == SLC_BINARY_NONE) {
		/* The whole-program entries make executables. */
		out->type = SLC_BINARY_EXECUTABLE;
	}
	return st;
}

enum slc_status slc_compile_source(const char *source, const char *options,
				   struct slc_output *out)
{
	struct clc_log log = { 0 };
	struct clc_options o;
	struct clc_cache_key key;
	struct clc_spirv spv;
	char tools[4 * 4096];
	bool keyed;
	enum slc_status st;

	memset(out, 0, sizeof(*out));
	if (!source) {
		clc_log_printf(&log, "error: no source\n");
		return finish(SLC_BUILD_FAILED, out, &log);
	}
	if (!clc_options_parse(options, &o, &log))
		return finish(SLC_INVALID_OPTIONS, out, &log);
	if (!clc_tools_identity(tools, sizeof(tools), &log)) {
		clc_options_free(&o);
		return finish(SLC_BUILD_FAILED, out, &log);
	}
	keyed = cache_key("opencl-c", source, strlen(source), &o, tools, &key);
	if (keyed && cache_lookup(&key, out, &log, &st)) {
		clc_options_free(&o);
		return finish(st, out, &log);
	}
	st = clc_compile(source, &o, &spv, &log);
	if (st == SLC_OK)
		st = compile_spirv_words(spv.words, spv.num_words, &o,
					 spv.unsigned_vec_hints, options, out,
					 &log);
	/* Not when the source included files of its own, or one it names
	 * was not found: their contents are not part of the key. */
	if (keyed && spv.cacheable)
		cache_store(&key, st, out, &log);
	clc_spirv_free(&spv);
	clc_options_free(&o);
	return finish(st, out, &log);
}

enum slc_status slc_compile_spirv(const uint32_t *words, size_t num_words,
				  const char *options, struct slc_output *out)
{
	struct clc_log log = { 0 };
	struct clc_options o;
	struct clc_cache_key key;
	bool keyed;
	enum slc_status st;

	memset(out, 0, sizeof(*out));
	if (!words || !num_words) {
		clc_log_printf(&log, "error: empty SPIR-V module\n");
		return finish(SLC_BUILD_FAILED, out, &log);
	}
	if (!clc_options_parse(options, &o, &log))
		return finish(SLC_INVALID_OPTIONS, out, &log);
	keyed = cache_key("spir-v", words, num_words * sizeof(*words), &o, "",
			  &key);
	if (keyed && cache_lookup(&key, out, &log, &st)) {
		clc_options_free(&o);
		return finish(st, out, &log);
	}
	st = compile_spirv_words(words, num_words, &o, NULL, options, out,
				 &log);
	if (keyed)
		cache_store(&key, st, out, &log);
	clc_options_free(&o);
	return finish(st, out, &log);
}

/* ---- Separate compilation ----------------------------------------- */

/* Wraps @bitcode in an object container of @kind into out. */
static enum slc_status wrap_object(enum clc_object_kind kind, uint32_t flags,
				   const char *options,
				   const uint8_t *bitcode, size_t size,
				   struct slc_output *out,
				   struct clc_log *log)
{
	size_t len = options ? strlen(options) : 0;
	struct clc_object obj = {
		.kind = kind, .flags = flags, .options = options,
		/* The options are a record for people; a longer string is
		 * kept in part. */
		.options_size = len < CLC_OBJECT_MAX_OPTIONS ? len :
				CLC_OBJECT_MAX_OPTIONS,
		.bitcode = bitcode, .bitcode_size = size,
	};

	if (!clc_object_write(&obj, &out->binary, &out->binary_size)) {
		clc_log_printf(log, "error: cannot store the %s (out of "
			       "memory, or not bitcode)\n",
			       kind == CLC_OBJECT_LIBRARY ? "library" :
			       "compiled object");
		return SLC_BUILD_FAILED;
	}
	out->type = kind == CLC_OBJECT_LIBRARY ? SLC_BINARY_LIBRARY :
		    SLC_BINARY_OBJECT;
	return SLC_OK;
}

static uint32_t object_flags(const struct clc_options *o)
{
	return (o->opt_disable ? CLC_OBJECT_OPT_DISABLE : 0) |
	       (o->fast_math ? CLC_OBJECT_FAST_MATH : 0) |
	       (o->denorms_are_zero ? CLC_OBJECT_DENORMS_ZERO : 0);
}

enum slc_status slc_compile_object(const char *source, const char *options,
				   const struct slc_header *headers,
				   size_t num_headers,
				   struct slc_output *out)
{
	struct clc_log log = { 0 };
	struct clc_options o;
	struct clc_blob bc;
	enum slc_status st;

	memset(out, 0, sizeof(*out));
	if (!source) {
		clc_log_printf(&log, "error: no source\n");
		return finish(SLC_BUILD_FAILED, out, &log);
	}
	if (!clc_options_parse(options, &o, &log))
		return finish(SLC_INVALID_OPTIONS, out, &log);
	st = clc_compile_bitcode(source, &o, headers, num_headers, &bc, &log);
	if (st == SLC_OK)
		st = wrap_object(CLC_OBJECT_COMPILED, object_flags(&o),
				 options, bc.data, bc.size, out, &log);
	free(bc.data);
	clc_options_free(&o);
	return finish(st, out, &log);
}

enum slc_status slc_compile_object_spirv(const uint32_t *words,
					 size_t num_words,
					 const char *options,
					 struct slc_output *out)
{
	struct clc_log log = { 0 };
	struct clc_options o;
	struct clc_blob bc;
	enum slc_status st;

	memset(out, 0, sizeof(*out));
	if (!words || !num_words) {
		clc_log_printf(&log, "error: empty SPIR-V module\n");
		return finish(SLC_BUILD_FAILED, out, &log);
	}
	if (!clc_options_parse(options, &o, &log))
		return finish(SLC_INVALID_OPTIONS, out, &log);
	st = clc_spirv_to_bitcode(words, num_words, &bc, &log);
	if (st == SLC_OK)
		st = wrap_object(CLC_OBJECT_COMPILED, object_flags(&o),
				 options, bc.data, bc.size, out, &log);
	free(bc.data);
	clc_options_free(&o);
	return finish(st, out, &log);
}

/*
 * The linked module to an executable: the rest of the pipeline, with what
 * the inputs' flags and the link options decided in @o (opt_disable,
 * fast_math, denorms_are_zero, wg_size; nothing for clang).
 */
static enum slc_status link_executable(const struct clc_blob *bc,
				       const struct clc_options *o,
				       const char *options,
				       struct slc_output *out,
				       struct clc_log *log)
{
	struct clc_spirv spv;
	enum slc_status st;

	st = clc_bitcode_to_spirv(bc->data, bc->size, !o->opt_disable, &spv,
				  log);
	if (st != SLC_OK)
		return st;
	st = compile_spirv_words(spv.words, spv.num_words, o, NULL, options,
				 out, log);
	clc_spirv_free(&spv);
	return st;
}

enum slc_status slc_link(const uint8_t *const *binaries, const size_t *sizes,
			 size_t num_binaries, const char *options,
			 struct slc_output *out)
{
	struct clc_log log = { 0 };
	struct clc_link_options lo;
	struct clc_blob *inputs = NULL, linked = { NULL, 0 };
	bool all_opt_disable = true, all_fast = true, all_denorms = true;
	bool libs_follow = true;
	enum slc_status st = SLC_BUILD_FAILED;
	char err[256];

	memset(out, 0, sizeof(*out));
	if (!clc_link_options_parse(options, &lo, &log))
		return finish(SLC_INVALID_OPTIONS, out, &log);
	if (!num_binaries || !binaries || !sizes) {
		clc_log_printf(&log, "error: nothing to link\n");
		return finish(SLC_BUILD_FAILED, out, &log);
	}
	inputs = calloc(num_binaries, sizeof(*inputs));
	if (!inputs)
		return finish(SLC_OUT_OF_MEMORY, out, &log);
	for (size_t i = 0; i < num_binaries; i++) {
		struct clc_object obj;

		if (!clc_object_read(binaries[i], sizes[i], &obj, err,
				     sizeof(err))) {
			clc_log_printf(&log, "error: link input %zu: %s\n", i,
				       err);
			goto out;
		}
		/* Views into the caller's bytes, not copies. */
		inputs[i].data = (uint8_t *)obj.bitcode;
		inputs[i].size = obj.bitcode_size;
		all_opt_disable &= !!(obj.flags & CLC_OBJECT_OPT_DISABLE);
		all_fast &= !!(obj.flags & CLC_OBJECT_FAST_MATH);
		all_denorms &= !!(obj.flags & CLC_OBJECT_DENORMS_ZERO);
		if (obj.kind == CLC_OBJECT_LIBRARY &&
		    !(obj.flags & CLC_OBJECT_LINK_OPTIONS))
			libs_follow = false;
	}
	if (num_binaries == 1) {
		linked = inputs[0];
		st = SLC_OK;
	} else {
		st = clc_link_bitcode(inputs, num_binaries, &linked, &log);
	}
	if (st != SLC_OK)
		goto out;
	if (lo.create_library) {
		st = wrap_object(CLC_OBJECT_LIBRARY,
				 (all_opt_disable ? CLC_OBJECT_OPT_DISABLE : 0) |
				 (all_fast || lo.fast_math ?
				  CLC_OBJECT_FAST_MATH : 0) |
				 (all_denorms || lo.denorms_are_zero ?
				  CLC_OBJECT_DENORMS_ZERO : 0) |
				 (lo.enable_link_options ?
				  CLC_OBJECT_LINK_OPTIONS : 0),
				 options, linked.data, linked.size, out, &log);
	} else {
		/* A math option permits what it names when every input was
		 * compiled with it, or the link gives it and every library
		 * takes link options (§5.6.5.1 -enable-link-options). */
		struct clc_options o = {
			.opt_disable = all_opt_disable,
			.fast_math = all_fast ||
				     (lo.fast_math && libs_follow),
			.denorms_are_zero = all_denorms ||
					    (lo.denorms_are_zero &&
					     libs_follow),
			.wg_size = lo.wg_size,
		};

		st = link_executable(&linked, &o, options, out, &log);
	}
	if (num_binaries > 1)
		free(linked.data);
out:
	free(inputs);
	return finish(st, out, &log);
}

enum slc_status slc_build_binary(const uint8_t *binary, size_t size,
				 const char *options, struct slc_output *out)
{
	struct clc_log log = { 0 };
	struct clc_options o;
	struct clc_object obj;
	enum slc_status st = SLC_BUILD_FAILED;
	char err[256];

	memset(out, 0, sizeof(*out));
	if (!clc_options_parse(options, &o, &log))
		return finish(SLC_INVALID_OPTIONS, out, &log);
	switch (slc_binary_type(binary, size, err, sizeof(err))) {
	case SLC_BINARY_EXECUTABLE:
		out->binary = malloc(size);
		if (!out->binary) {
			st = SLC_OUT_OF_MEMORY;
			break;
		}
		memcpy(out->binary, binary, size);
		out->binary_size = size;
		st = SLC_OK;
		break;
	case SLC_BINARY_OBJECT:
	case SLC_BINARY_LIBRARY: {
		struct clc_blob bc;
		struct clc_options lo = { .wg_size = o.wg_size };

		/* slc_binary_type() accepted it. */
		clc_object_read(binary, size, &obj, err, sizeof(err));
		bc.data = (uint8_t *)obj.bitcode;
		bc.size = obj.bitcode_size;
		lo.opt_disable = o.opt_disable ||
				 (obj.flags & CLC_OBJECT_OPT_DISABLE);
		lo.fast_math = o.fast_math ||
			       (obj.flags & CLC_OBJECT_FAST_MATH);
		lo.denorms_are_zero = o.denorms_are_zero ||
				      (obj.flags & CLC_OBJECT_DENORMS_ZERO);
		st = link_executable(&bc, &lo, options, out, &log);
		break;
	}
	default:
		clc_log_printf(&log, "error: invalid binary: %s\n", err);
		break;
	}
	clc_options_free(&o);
	return finish(st, out, &log);
}

enum slc_binary_type slc_binary_type(const uint8_t *data, size_t size,
				     char *err, size_t errsz)
{
	static const uint8_t elf_magic[4] = { 0x7f, 'E', 'L', 'F' };
	struct slb_program p;
	struct clc_object obj;

	if (errsz)
		err[0] = '\0';
	if (!data || !size) {
		snprintf(err, errsz, "empty binary");
		return SLC_BINARY_NONE;
	}
	if (size >= 4 && !memcmp(data, elf_magic, 4)) {
		if (!slb_read(data, size, &p, err, errsz))
			return SLC_BINARY_NONE;
		slb_program_free(&p);
		return SLC_BINARY_EXECUTABLE;
	}
	if (!clc_object_read(data, size, &obj, err, errsz))
		return SLC_BINARY_NONE;
	return obj.kind == CLC_OBJECT_LIBRARY ? SLC_BINARY_LIBRARY :
	       SLC_BINARY_OBJECT;
}

void slc_output_free(struct slc_output *out)
{
	free(out->binary);
	free(out->log);
	memset(out, 0, sizeof(*out));
}
