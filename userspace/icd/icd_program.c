/* SPDX-License-Identifier: MIT */
/*
 * Programs: clCreateProgramWithSource / WithBinary / WithILKHR,
 * clRetain/ReleaseProgram, clGetProgramInfo, clGetProgramBuildInfo, and
 * the upload of a built program to the GPU. Building is in
 * icd_program_build.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd_context.h"
#include "icd_device.h"
#include "icd_info.h"
#include "icd_program.h"
#include "sleipnir_compiler.h"

/* SPIR-V's magic number, as a word in the module's own byte order. */
#define SPIRV_MAGIC 0x07230203u

bool icd_program_valid(cl_program program)
{
	return icd_object_is(program, ICD_TYPE_PROGRAM);
}

void icd_program_retain(cl_program program)
{
	icd_object_retain(&program->obj);
}

/* The GPU copies; the context's gpu_lock is taken here. */
static void drop_upload(cl_program program)
{
	cl_context ctx = program->context;

	if (!program->code_bo && !program->constant_bo)
		return;
	pthread_mutex_lock(&ctx->gpu_lock);
	sl_bo_destroy(program->code_bo);
	sl_bo_destroy(program->constant_bo);
	pthread_mutex_unlock(&ctx->gpu_lock);
	program->code_bo = NULL;
	program->constant_bo = NULL;
}

void icd_program_release(cl_program program)
{
	if (!icd_object_release(&program->obj))
		return;
	drop_upload(program);
	if (program->built)
		slb_program_free(&program->prog);
	free(program->source);
	free(program->il);
	free(program->options);
	free(program->log);
	free(program->binary);
	pthread_mutex_destroy(&program->lock);
	pthread_cond_destroy(&program->launches_ended);
	if (!program->builtin)
		clReleaseContext(program->context);
	free(program);
}

void icd_program_hold_launch(cl_program program)
{
	icd_program_retain(program);
	pthread_mutex_lock(&program->lock);
	program->launches++;
	pthread_mutex_unlock(&program->lock);
}

void icd_program_release_launch(cl_program program)
{
	pthread_mutex_lock(&program->lock);
	if (!--program->launches)
		pthread_cond_broadcast(&program->launches_ended);
	pthread_mutex_unlock(&program->lock);
	icd_program_release(program);
}

cl_program icd_program_new(cl_context context, enum icd_program_source from,
			   cl_int *err)
{
	struct _cl_program *p = calloc(1, sizeof(*p));

	if (!p) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	icd_object_init(&p->obj, ICD_TYPE_PROGRAM);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->launches_ended, NULL);
	clRetainContext(context);
	p->context = context;
	p->from = from;
	p->build_status = CL_BUILD_NONE;
	p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
	atomic_init(&p->num_kernels, 0);
	*err = CL_SUCCESS;
	return p;
}

static cl_program fail_with(cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

static cl_program done(cl_program program, cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return program;
}

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context,
						 cl_uint count,
						 const char **strings,
						 const size_t *lengths,
						 cl_int *errcode_ret)
{
	cl_program program;
	size_t total = 0, at = 0;
	cl_int err;

	if (!icd_context_valid(context))
		return fail_with(CL_INVALID_CONTEXT, errcode_ret);
	if (!count || !strings)
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	/* A length of 0 (or no lengths at all) means NUL-terminated. */
	for (cl_uint i = 0; i < count; i++) {
		size_t len;

		if (!strings[i])
			return fail_with(CL_INVALID_VALUE, errcode_ret);
		len = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
		if (len > SIZE_MAX - 1 - total)
			return fail_with(CL_OUT_OF_HOST_MEMORY, errcode_ret);
		total += len;
	}
	program = icd_program_new(context, ICD_PROGRAM_SOURCE, &err);
	if (!program)
		return fail_with(err, errcode_ret);
	program->source = malloc(total + 1);
	if (!program->source) {
		icd_program_release(program);
		return fail_with(CL_OUT_OF_HOST_MEMORY, errcode_ret);
	}
	/* A counted string may hold a NUL before its end; the source then
	 * ends there for the compiler, as for any C string. */
	for (cl_uint i = 0; i < count; i++) {
		size_t len = lengths && lengths[i] ? lengths[i] :
			     strlen(strings[i]);

		memcpy(program->source + at, strings[i], len);
		at += len;
	}
	program->source[at] = '\0';
	return done(program, CL_SUCCESS, errcode_ret);
}

cl_program_binary_type icd_program_binary_type(enum slc_binary_type t)
{
	switch (t) {
	case SLC_BINARY_EXECUTABLE:
		return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
	case SLC_BINARY_OBJECT:
		return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
	case SLC_BINARY_LIBRARY:
		return CL_PROGRAM_BINARY_TYPE_LIBRARY;
	default:
		return CL_PROGRAM_BINARY_TYPE_NONE;
	}
}

/*
 * An executable this ICD can launch from: slb_read() accepted it, and its
 * by-value arguments fit struct icd_kernel_arg (the device's
 * CL_DEVICE_MAX_PARAMETER_SIZE; the bytes may come from anywhere).
 */
static bool executable_fits(const uint8_t *data, size_t size)
{
	struct slb_program p;
	bool ok = true;
	char err[8];

	if (!slb_read(data, size, &p, err, sizeof(err)))
		return false;
	for (uint32_t k = 0; k < p.num_kernels; k++)
		for (uint32_t a = 0; a < p.kernels[k].num_args; a++)
			if (p.kernels[k].args[a].kind == SLB_ARG_VALUE &&
			    p.kernels[k].args[a].size >
			    ICD_MAX_PARAMETER_SIZE)
				ok = false;
	slb_program_free(&p);
	return ok;
}

/*
 * An executable binary is a built executable: kernels can be created from
 * it before any clBuildProgram (which still accepts it), as Mesa's clover,
 * for which piglit's api@clcreateprogramwithbinary was written, and the
 * vendors' drivers allow. OpenCL 1.2 names no error for it. When the
 * binary does not parse after all, the program stays unbuilt.
 */
static void load_executable(cl_program program)
{
	struct slb_program check;
	uint8_t *copy;
	char err[64];

	/* Finishing drops a binary that does not parse; this one stays. */
	if (!slb_read(program->binary, program->binary_size, &check, err,
		      sizeof(err)))
		return;
	slb_program_free(&check);
	copy = malloc(program->binary_size);
	if (!copy)
		return;
	memcpy(copy, program->binary, program->binary_size);
	icd_program_finish_build(program, CL_BUILD_SUCCESS, "", "", copy,
				 program->binary_size,
				 CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
}

cl_program CL_API_CALL
clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
			  const cl_device_id *device_list,
			  const size_t *lengths,
			  const unsigned char **binaries,
			  cl_int *binary_status, cl_int *errcode_ret)
{
	enum slc_binary_type type = SLC_BINARY_NONE;
	cl_program program;
	cl_int err = CL_SUCCESS;
	char why[8];

	if (!icd_context_valid(context))
		return fail_with(CL_INVALID_CONTEXT, errcode_ret);
	if (!device_list || !num_devices)
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	for (cl_uint i = 0; i < num_devices; i++)
		if (device_list[i] != context->device)
			return fail_with(CL_INVALID_DEVICE, errcode_ret);
	if (!lengths || !binaries)
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	/* Every entry is checked and reported in binary_status. Our one
	 * device may be listed more than once; the first binary is kept. */
	for (cl_uint i = 0; i < num_devices; i++) {
		enum slc_binary_type t = SLC_BINARY_NONE;
		cl_int st;

		if (!lengths[i] || !binaries[i]) {
			st = CL_INVALID_VALUE;
		} else {
			t = slc_binary_type(binaries[i], lengths[i], why,
					    sizeof(why));
			st = t == SLC_BINARY_NONE ||
			     (t == SLC_BINARY_EXECUTABLE &&
			      !executable_fits(binaries[i], lengths[i])) ?
			     CL_INVALID_BINARY : CL_SUCCESS;
		}
		if (binary_status)
			binary_status[i] = st;
		/* CL_INVALID_VALUE outranks CL_INVALID_BINARY. */
		if (st == CL_INVALID_VALUE || (st && !err))
			err = st;
		if (i == 0)
			type = t;
	}
	if (err)
		return fail_with(err, errcode_ret);
	program = icd_program_new(context, ICD_PROGRAM_BINARY, &err);
	if (!program)
		return fail_with(err, errcode_ret);
	program->binary = malloc(lengths[0]);
	if (!program->binary) {
		icd_program_release(program);
		return fail_with(CL_OUT_OF_HOST_MEMORY, errcode_ret);
	}
	memcpy(program->binary, binaries[0], lengths[0]);
	program->binary_size = lengths[0];
	program->binary_type = icd_program_binary_type(type);
	if (type == SLC_BINARY_EXECUTABLE)
		load_executable(program);
	return done(program, CL_SUCCESS, errcode_ret);
}

/* The module's version word as the reader sees it: 1.0 to 1.6. */
static bool spirv_header_ok(const uint32_t *w, size_t n)
{
	return n >= 5 && w[0] == SPIRV_MAGIC && w[1] >= 0x10000 &&
	       w[1] <= 0x10600 && !(w[1] & 0xff0000ffu);
}

cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context,
						 const void *il,
						 size_t length,
						 cl_int *errcode_ret)
{
	cl_program program;
	uint32_t *words;
	size_t n = length / 4;
	cl_int err;

	if (!icd_context_valid(context))
		return fail_with(CL_INVALID_CONTEXT, errcode_ret);
	if (!il || !length || length % 4)
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	words = malloc(length);
	if (!words)
		return fail_with(CL_OUT_OF_HOST_MEMORY, errcode_ret);
	memcpy(words, il, length);
	/* SPIR-V may be written in either byte order; the reader takes the
	 * host's, so a swapped module is turned around here. */
	if (n && words[0] == __builtin_bswap32(SPIRV_MAGIC))
		for (size_t i = 0; i < n; i++)
			words[i] = __builtin_bswap32(words[i]);
	if (!spirv_header_ok(words, n)) {
		free(words);
		return fail_with(CL_INVALID_VALUE, errcode_ret);
	}
	program = icd_program_new(context, ICD_PROGRAM_IL, &err);
	if (!program) {
		free(words);
		return fail_with(err, errcode_ret);
	}
	program->il = (uint8_t *)words;
	program->il_size = length;
	return done(program, CL_SUCCESS, errcode_ret);
}

cl_int CL_API_CALL clRetainProgram(cl_program program)
{
	if (!icd_program_valid(program))
		return CL_INVALID_PROGRAM;
	icd_program_retain(program);
	return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program)
{
	if (!icd_program_valid(program))
		return CL_INVALID_PROGRAM;
	icd_program_release(program);
	return CL_SUCCESS;
}

/* True when the option string @opts holds the word @word. */
static bool has_option(const char *opts, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = opts; p && (p = strstr(p, word)); p += n)
		if ((p == opts || p[-1] == ' ' || p[-1] == '\t') &&
		    (p[n] == 0 || p[n] == ' ' || p[n] == '\t'))
			return true;
	return false;
}

cl_build_status icd_program_finish_build(cl_program program,
					 cl_build_status status,
					 const char *options, const char *log,
					 uint8_t *binary, size_t binary_size,
					 cl_program_binary_type type)
{
	struct slb_program parsed;
	char *opts = strdup(options ? options : "");
	char *text = strdup(log ? log : "");
	bool built = false;
	char err[256];

	if (status == CL_BUILD_SUCCESS &&
	    type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
		built = binary && slb_read(binary, binary_size, &parsed, err,
					   sizeof(err));
		if (!built) {
			/* The compiler checks what it writes, so this is
			 * out of memory or a bug; either way no build. */
			char *more = NULL;

			if (asprintf(&more, "%serror: internal: the program "
				     "binary does not parse: %s\n",
				     text ? text : "", binary ? err :
				     "none") < 0)
				more = NULL;
			free(text);
			text = more;
			status = CL_BUILD_ERROR;
		}
	}
	if (status != CL_BUILD_SUCCESS) {
		free(binary);
		binary = NULL;
		binary_size = 0;
		type = CL_PROGRAM_BINARY_TYPE_NONE;
	}
	pthread_mutex_lock(&program->lock);
	/* No kernels exist (a build needs none), so nothing launches from
	 * the old executable any more. */
	drop_upload(program);
	if (program->built)
		slb_program_free(&program->prog);
	program->built = built;
	if (built)
		program->prog = parsed;
	free(program->binary);
	program->binary = binary;
	program->binary_size = binary_size;
	program->binary_type = type;
	free(program->options);
	program->options = opts;
	if (program->from == ICD_PROGRAM_SOURCE)
		program->arg_info = has_option(opts, "-cl-kernel-arg-info");
	free(program->log);
	program->log = text;
	program->build_status = status;
	pthread_mutex_unlock(&program->lock);
	return status;
}

/* ---- clGetProgramInfo, clGetProgramBuildInfo ------------------------ */

/* "name;name;..." of the built program's kernels, malloc'ed. */
static char *kernel_names(const struct slb_program *p)
{
	size_t len = 1;
	char *s;

	for (uint32_t i = 0; i < p->num_kernels; i++)
		len += strlen(p->kernels[i].name) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	s[0] = '\0';
	for (uint32_t i = 0; i < p->num_kernels; i++) {
		if (i)
			strcat(s, ";");
		strcat(s, p->kernels[i].name);
	}
	return s;
}

/* CL_PROGRAM_BINARIES: the binary copied to each pointer the
 * application gave (NULL entries are skipped). */
static cl_int copy_binaries(cl_program program, size_t param_value_size,
			    void *param_value, size_t *param_value_size_ret)
{
	unsigned char **out = param_value;

	if (param_value) {
		if (param_value_size < sizeof(*out))
			return CL_INVALID_VALUE;
		if (out[0] && program->binary_size)
			memcpy(out[0], program->binary,
			       program->binary_size);
	}
	if (param_value_size_ret)
		*param_value_size_ret = sizeof(*out);
	return CL_SUCCESS;
}

static cl_int program_info(cl_program program, cl_program_info param_name,
			   size_t param_value_size, void *param_value,
			   size_t *param_value_size_ret)
{
	union {
		cl_uint u;
		size_t sz;
		cl_context context;
		cl_device_id device;
	} v;
	size_t size;
	char *names;
	cl_int err;

	switch (param_name) {
	case CL_PROGRAM_REFERENCE_COUNT:
		v.u = icd_object_refs(&program->obj);
		size = sizeof(cl_uint);
		break;
	case CL_PROGRAM_CONTEXT:
		v.context = program->context;
		size = sizeof(cl_context);
		break;
	case CL_PROGRAM_NUM_DEVICES:
		v.u = 1;
		size = sizeof(cl_uint);
		break;
	case CL_PROGRAM_DEVICES:
		v.device = program->context->device;
		size = sizeof(cl_device_id);
		break;
	case CL_PROGRAM_SOURCE:
		/* Only programs made from source have any; the others
		 * answer the empty string. */
		return icd_info_string(program->source ? program->source : "",
				       param_value_size, param_value,
				       param_value_size_ret);
	case CL_PROGRAM_IL_KHR:
		/* Nothing (size 0) for programs not made from IL. */
		return icd_info_copy(program->il, program->il ?
				     program->il_size : 0, param_value_size,
				     param_value, param_value_size_ret);
	case CL_PROGRAM_BINARY_SIZES:
		v.sz = program->binary_size;
		size = sizeof(size_t);
		break;
	case CL_PROGRAM_BINARIES:
		return copy_binaries(program, param_value_size, param_value,
				     param_value_size_ret);
	case CL_PROGRAM_NUM_KERNELS:
		if (!program->built ||
		    program->build_status != CL_BUILD_SUCCESS)
			return CL_INVALID_PROGRAM_EXECUTABLE;
		v.sz = program->prog.num_kernels;
		size = sizeof(size_t);
		break;
	case CL_PROGRAM_KERNEL_NAMES:
		if (!program->built ||
		    program->build_status != CL_BUILD_SUCCESS)
			return CL_INVALID_PROGRAM_EXECUTABLE;
		names = kernel_names(&program->prog);
		if (!names)
			return CL_OUT_OF_HOST_MEMORY;
		err = icd_info_string(names, param_value_size, param_value,
				      param_value_size_ret);
		free(names);
		return err;
	default:
		return CL_INVALID_VALUE;
	}
	return icd_info_copy(&v, size, param_value_size, param_value,
			     param_value_size_ret);
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program,
				    cl_program_info param_name,
				    size_t param_value_size, void *param_value,
				    size_t *param_value_size_ret)
{
	cl_int err;

	if (!icd_program_valid(program))
		return CL_INVALID_PROGRAM;
	pthread_mutex_lock(&program->lock);
	err = program_info(program, param_name, param_value_size, param_value,
			   param_value_size_ret);
	pthread_mutex_unlock(&program->lock);
	return err;
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program,
					 cl_device_id device,
					 cl_program_build_info param_name,
					 size_t param_value_size,
					 void *param_value,
					 size_t *param_value_size_ret)
{
	const void *value = NULL;
	const char *s = NULL;
	size_t size = 0;
	cl_int err;

	if (!icd_program_valid(program))
		return CL_INVALID_PROGRAM;
	if (!icd_device_valid(device) || device != program->context->device)
		return CL_INVALID_DEVICE;
	pthread_mutex_lock(&program->lock);
	switch (param_name) {
	case CL_PROGRAM_BUILD_STATUS:
		value = &program->build_status;
		size = sizeof(cl_build_status);
		break;
	case CL_PROGRAM_BUILD_OPTIONS:
		s = program->options ? program->options : "";
		break;
	case CL_PROGRAM_BUILD_LOG:
		s = program->log ? program->log : "";
		break;
	case CL_PROGRAM_BINARY_TYPE:
		value = &program->binary_type;
		size = sizeof(cl_program_binary_type);
		break;
	default:
		pthread_mutex_unlock(&program->lock);
		return CL_INVALID_VALUE;
	}
	err = s ? icd_info_string(s, param_value_size, param_value,
				  param_value_size_ret) :
		  icd_info_copy(value, size, param_value_size, param_value,
				param_value_size_ret);
	pthread_mutex_unlock(&program->lock);
	return err;
}

/* ---- Upload --------------------------------------------------------- */

/* A BO holding @size bytes of @data, mapped for the GPU with @map_flags
 * (code: in a 16 MiB region of its own). Under the gpu_lock. */
static int upload_bo(struct sl_drm *drm, const void *data, size_t size,
		     uint32_t bo_flags, uint32_t map_flags, bool code,
		     struct sl_bo **out)
{
	struct sl_bo *bo;
	void *cpu;
	int err;

	err = sl_bo_create(drm, size, bo_flags, &bo);
	if (err)
		return err;
	err = sl_bo_mmap(bo, &cpu);
	if (!err) {
		memcpy(cpu, data, size);
		err = code ? sl_vm_map_code(bo, map_flags) :
			     sl_vm_map(bo, 0, map_flags);
	}
	if (err) {
		sl_bo_destroy(bo);
		return err;
	}
	*out = bo;
	return 0;
}

int icd_program_upload(cl_program program)
{
	cl_context ctx = program->context;
	const struct slb_program *p = &program->prog;
	int err = 0;

	pthread_mutex_lock(&program->lock);
	if (program->code_bo) {
		pthread_mutex_unlock(&program->lock);
		return 0;
	}
	if (!program->built) {
		pthread_mutex_unlock(&program->lock);
		return -ENOEXEC;
	}
	if (!ctx->drm) {
		pthread_mutex_unlock(&program->lock);
		return -ENODEV;
	}
	pthread_mutex_lock(&ctx->gpu_lock);
	/* Code: the GPU only reads and runs it. __constant data: only
	 * reads it. */
	err = upload_bo(ctx->drm, p->code, p->code_size,
			SLEIPNIR_BO_GPU_READ_ONLY, SLEIPNIR_VM_MAP_READ_ONLY,
			true, &program->code_bo);
	if (!err && p->constant_size) {
		err = upload_bo(ctx->drm, p->constant_data, p->constant_size,
				SLEIPNIR_BO_GPU_READ_ONLY |
				SLEIPNIR_BO_GPU_NOEXEC,
				SLEIPNIR_VM_MAP_READ_ONLY |
				SLEIPNIR_VM_MAP_NOEXEC, false,
				&program->constant_bo);
		if (err) {
			sl_bo_destroy(program->code_bo);
			program->code_bo = NULL;
		}
	}
	pthread_mutex_unlock(&ctx->gpu_lock);
	pthread_mutex_unlock(&program->lock);
	return err;
}
