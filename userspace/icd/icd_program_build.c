/* SPDX-License-Identifier: MIT */
/*
 * clBuildProgram, clCompileProgram and clLinkProgram through compiler/
 * (sleipnir_compiler.h). Builds are synchronous: the call returns once the
 * compiler has finished, and pfn_notify, when given, is called before it
 * returns (OpenCL allows either). The compiler runs without the program's
 * lock; the program says CL_BUILD_IN_PROGRESS meanwhile, so a second
 * build, compile or clCreateKernel on it in another thread fails as the
 * specification says instead of waiting.
 */
#include <stdlib.h>
#include <string.h>

#include "icd_context.h"
#include "icd_device.h"
#include "icd_program.h"
#include "sleipnir_compiler.h"

typedef void(CL_CALLBACK *icd_program_notify)(cl_program program,
					      void *user_data);

/*
 * The device-list rules clBuildProgram, clCompileProgram and
 * clLinkProgram share: a list and its count go together, and every
 * device must be the context's.
 */
static cl_int check_devices(cl_context context, cl_uint num_devices,
			    const cl_device_id *device_list)
{
	if (!device_list != !num_devices)
		return CL_INVALID_VALUE;
	for (cl_uint i = 0; i < num_devices; i++)
		if (!icd_device_valid(device_list[i]) ||
		    device_list[i] != context->device)
			return CL_INVALID_DEVICE;
	return CL_SUCCESS;
}

/*
 * Marks @program CL_BUILD_IN_PROGRESS, or says why it cannot be: a build
 * under way, or kernels attached. Launches of kernels the application
 * released still use the executable; the build waits for them to end
 * (the queues' threads end them; only one waiting for a user event this
 * thread has yet to set would wait for ever).
 */
static cl_int begin_build(cl_program program)
{
	cl_int err = CL_SUCCESS;

	/* Launches nobody waits for end on their queues' threads. */
	icd_context_watch_queues(program->context);
	pthread_mutex_lock(&program->lock);
	for (;;) {
		if (program->build_status == CL_BUILD_IN_PROGRESS ||
		    atomic_load(&program->num_kernels)) {
			err = CL_INVALID_OPERATION;
			break;
		}
		if (!program->launches) {
			program->build_status = CL_BUILD_IN_PROGRESS;
			break;
		}
		pthread_cond_wait(&program->launches_ended, &program->lock);
	}
	pthread_mutex_unlock(&program->lock);
	return err;
}

/*
 * Ends the build with the compiler's output and turns its status into
 * the entry's error: @invalid_options for SLC_INVALID_OPTIONS, @failure
 * for a failed build.
 */
static cl_int end_build(cl_program program, enum slc_status st,
			struct slc_output *out, const char *options,
			cl_int invalid_options, cl_int failure)
{
	cl_build_status status;

	status = icd_program_finish_build(program, st == SLC_OK ?
					  CL_BUILD_SUCCESS : CL_BUILD_ERROR,
					  options, out->log, out->binary,
					  out->binary_size,
					  icd_program_binary_type(out->type));
	/* The binary is the program's now. */
	out->binary = NULL;
	slc_output_free(out);
	switch (st) {
	case SLC_OK:
		return status == CL_BUILD_SUCCESS ? CL_SUCCESS : failure;
	case SLC_INVALID_OPTIONS:
		return invalid_options;
	case SLC_OUT_OF_MEMORY:
		return CL_OUT_OF_HOST_MEMORY;
	default:
		return failure;
	}
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
				  const cl_device_id *device_list,
				  const char *options,
				  icd_program_notify pfn_notify,
				  void *user_data)
{
	struct slc_output out;
	enum slc_status st;
	uint8_t *binary = NULL;
	size_t binary_size = 0;
	cl_int err;

	if (!icd_program_valid(program))
		return CL_INVALID_PROGRAM;
	err = check_devices(program->context, num_devices, device_list);
	if (err)
		return err;
	if (!pfn_notify && user_data)
		return CL_INVALID_VALUE;
	/* Linked programs (executables or libraries) cannot be rebuilt. */
	if (program->from == ICD_PROGRAM_LINKED)
		return CL_INVALID_OPERATION;
	err = begin_build(program);
	if (err)
		return err;
	if (program->from == ICD_PROGRAM_BINARY) {
		/* Its binary stays until the build replaces it; a copy is
		 * compiled, since finishing frees the old one. */
		pthread_mutex_lock(&program->lock);
		binary_size = program->binary_size;
		binary = malloc(binary_size);
		if (binary)
			memcpy(binary, program->binary, binary_size);
		pthread_mutex_unlock(&program->lock);
		if (!binary) {
			memset(&out, 0, sizeof(out));
			st = SLC_OUT_OF_MEMORY;
		} else {
			st = slc_build_binary(binary, binary_size, options,
					      &out);
		}
		free(binary);
	} else if (program->from == ICD_PROGRAM_IL) {
		st = slc_compile_spirv((const uint32_t *)(void *)program->il,
				       program->il_size / 4, options, &out);
	} else {
		st = slc_compile_source(program->source, options, &out);
	}
	err = end_build(program, st, &out, options, CL_INVALID_BUILD_OPTIONS,
			CL_BUILD_PROGRAM_FAILURE);
	if (pfn_notify)
		pfn_notify(program, user_data);
	return err;
}

/* The embedded headers of clCompileProgram, checked; the programs are
 * retained into @keep until the compile is done. */
static cl_int collect_headers(cl_context context, cl_uint n,
			      const cl_program *input_headers,
			      const char **names, struct slc_header *headers,
			      cl_program *keep)
{
	for (cl_uint i = 0; i < n; i++) {
		cl_program h = input_headers[i];

		if (!icd_program_valid(h))
			return CL_INVALID_PROGRAM;
		if (!names[i])
			return CL_INVALID_VALUE;
		/* A header is OpenCL C source of the same context. */
		if (h->context != context || h->from != ICD_PROGRAM_SOURCE)
			return CL_INVALID_OPERATION;
		icd_program_retain(h);
		keep[i] = h;
		headers[i].name = names[i];
		headers[i].source = h->source;
	}
	return CL_SUCCESS;
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
				    const cl_device_id *device_list,
				    const char *options,
				    cl_uint num_input_headers,
				    const cl_program *input_headers,
				    const char **header_include_names,
				    icd_program_notify pfn_notify,
				    void *user_data)
{
	struct slc_header *headers = NULL;
	cl_program *keep = NULL;
	struct slc_output out;
	enum slc_status st;
	cl_int err;

	if (!icd_program_valid(program))
		return CL_INVALID_PROGRAM;
	err = check_devices(program->context, num_devices, device_list);
	if (err)
		return err;
	if (!pfn_notify && user_data)
		return CL_INVALID_VALUE;
	if (num_input_headers ? !input_headers || !header_include_names :
				input_headers || header_include_names)
		return CL_INVALID_VALUE;
	/* Only source (or IL) can be compiled. */
	if (program->from != ICD_PROGRAM_SOURCE &&
	    program->from != ICD_PROGRAM_IL)
		return CL_INVALID_OPERATION;
	if (num_input_headers) {
		headers = calloc(num_input_headers, sizeof(*headers));
		keep = calloc(num_input_headers, sizeof(*keep));
		err = headers && keep ?
		      collect_headers(program->context, num_input_headers,
				      input_headers, header_include_names,
				      headers, keep) :
		      CL_OUT_OF_HOST_MEMORY;
	}
	if (!err)
		err = begin_build(program);
	if (!err) {
		/* OpenCL ignores embedded headers for IL. */
		if (program->from == ICD_PROGRAM_IL)
			st = slc_compile_object_spirv(
				(const uint32_t *)(void *)program->il,
				program->il_size / 4, options, &out);
		else
			st = slc_compile_object(program->source, options,
						headers, num_input_headers,
						&out);
		err = end_build(program, st, &out, options,
				CL_INVALID_COMPILER_OPTIONS,
				CL_COMPILE_PROGRAM_FAILURE);
		if (pfn_notify)
			pfn_notify(program, user_data);
	}
	for (cl_uint i = 0; keep && i < num_input_headers; i++)
		if (keep[i])
			icd_program_release(keep[i]);
	free(keep);
	free(headers);
	return err;
}

/* Copies of the inputs' binaries for slc_link, taken under each one's
 * lock; *have counts the inputs that hold an object or library. */
static cl_int collect_inputs(cl_context context, cl_uint n,
			     const cl_program *inputs, uint8_t **bins,
			     size_t *sizes, cl_uint *have)
{
	*have = 0;
	for (cl_uint i = 0; i < n; i++)
		if (!icd_program_valid(inputs[i]) ||
		    inputs[i]->context != context)
			return CL_INVALID_PROGRAM;
	for (cl_uint i = 0; i < n; i++) {
		cl_program p = inputs[i];
		cl_int err = CL_SUCCESS;

		pthread_mutex_lock(&p->lock);
		if (p->build_status == CL_BUILD_IN_PROGRESS) {
			err = CL_INVALID_OPERATION;
		} else if (p->binary_type ==
			   CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT ||
			   p->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY) {
			bins[*have] = malloc(p->binary_size);
			if (bins[*have]) {
				memcpy(bins[*have], p->binary,
				       p->binary_size);
				sizes[(*have)++] = p->binary_size;
			} else {
				err = CL_OUT_OF_HOST_MEMORY;
			}
		}
		pthread_mutex_unlock(&p->lock);
		if (err)
			return err;
	}
	/* All inputs hold one, or none does: anything between is
	 * CL_INVALID_OPERATION. */
	return *have && *have != n ? CL_INVALID_OPERATION : CL_SUCCESS;
}

static cl_program link_fail(cl_int err, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
				     const cl_device_id *device_list,
				     const char *options,
				     cl_uint num_input_programs,
				     const cl_program *input_programs,
				     icd_program_notify pfn_notify,
				     void *user_data, cl_int *errcode_ret)
{
	uint8_t **bins = NULL;
	size_t *sizes = NULL;
	struct slc_output out;
	enum slc_status st;
	cl_program program = NULL;
	cl_uint have = 0;
	cl_int err;

	if (!icd_context_valid(context))
		return link_fail(CL_INVALID_CONTEXT, errcode_ret);
	err = check_devices(context, num_devices, device_list);
	if (err)
		return link_fail(err, errcode_ret);
	if (!num_input_programs || !input_programs ||
	    (!pfn_notify && user_data))
		return link_fail(CL_INVALID_VALUE, errcode_ret);
	bins = calloc(num_input_programs, sizeof(*bins));
	sizes = calloc(num_input_programs, sizeof(*sizes));
	err = bins && sizes ? collect_inputs(context, num_input_programs,
					     input_programs, bins, sizes,
					     &have) :
	      CL_OUT_OF_HOST_MEMORY;
	if (err)
		goto out;
	if (!have) {
		/* None holds an object for our device: OpenCL 1.2 says no
		 * link is done and no executable made, which is not an
		 * error. The program has no binary. */
		program = icd_program_new(context, ICD_PROGRAM_LINKED, &err);
		goto notify;
	}
	st = slc_link((const uint8_t *const *)bins, sizes, have, options,
		      &out);
	if (st == SLC_INVALID_OPTIONS) {
		/* Rejected before any link began: no program. */
		slc_output_free(&out);
		err = CL_INVALID_LINKER_OPTIONS;
		goto out;
	}
	program = icd_program_new(context, ICD_PROGRAM_LINKED, &err);
	if (!program) {
		slc_output_free(&out);
		goto out;
	}
	program->build_status = CL_BUILD_IN_PROGRESS;
	/* On a failed link the program is returned all the same, so that
	 * its log can be read. */
	err = end_build(program, st, &out, options, CL_INVALID_LINKER_OPTIONS,
			CL_LINK_PROGRAM_FAILURE);
	program->arg_info = true;
	for (cl_uint i = 0; i < num_input_programs; i++)
		program->arg_info &= input_programs[i]->arg_info;
notify:
	if (program && pfn_notify)
		pfn_notify(program, user_data);
out:
	for (cl_uint i = 0; bins && i < have; i++)
		free(bins[i]);
	free(bins);
	free(sizes);
	if (errcode_ret)
		*errcode_ret = err;
	return program;
}
