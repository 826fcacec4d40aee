/* SPDX-License-Identifier: MIT */
/*
 * The OpenCL C the API suite builds in the guest (clCreateProgramWithSource
 * runs clang-15 there). One main program holds most kernels, because each
 * build takes seconds under TCG; the others each test something a program
 * of its own must show (struct arguments, compile and link, faults).
 */
#include "cl_api.h"

/* Built with CL_API_MAIN_OPTIONS: OFFSET must come from -D. */
const char cl_api_main_source[] =
	"#ifndef OFFSET\n"
	"#error OFFSET comes from the build options\n"
	"#endif\n"
	"\n"
	"__kernel void ids(__global uint *out)\n"
	"{\n"
	"	size_t x = get_global_id(0) - get_global_offset(0);\n"
	"	size_t y = get_global_id(1) - get_global_offset(1);\n"
	"	size_t z = get_global_id(2) - get_global_offset(2);\n"
	"	size_t i = (z * get_global_size(1) + y) *\n"
	"		   get_global_size(0) + x;\n"
	"	uint ok = 1;\n"
	"	for (uint d = 0; d < 3; d++) {\n"
	"		ok &= get_global_id(d) ==\n"
	"		      get_group_id(d) * get_local_size(d) +\n"
	"		      get_local_id(d) + get_global_offset(d);\n"
	"		ok &= get_local_id(d) < get_local_size(d);\n"
	"		ok &= get_num_groups(d) * get_local_size(d) ==\n"
	"		      get_global_size(d);\n"
	"	}\n"
	"	out[8 * i + 0] = get_global_id(0);\n"
	"	out[8 * i + 1] = get_global_id(1);\n"
	"	out[8 * i + 2] = get_global_id(2);\n"
	"	out[8 * i + 3] = get_work_dim();\n"
	"	out[8 * i + 4] = get_local_size(0);\n"
	"	out[8 * i + 5] = get_local_size(1);\n"
	"	out[8 * i + 6] = get_local_size(2);\n"
	"	out[8 * i + 7] = ok;\n"
	"}\n"
	"\n"
	"__kernel void vadd(__global const float *a, __global const float *b,\n"
	"		   __global float *c)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	c[i] = a[i] + b[i];\n"
	"}\n"
	"\n"
	"__kernel void add_k(__global int *buf, int k)\n"
	"{\n"
	"	buf[get_global_id(0)] += k;\n"
	"}\n"
	"\n"
	"__kernel void mul_k(__global int *buf, int k)\n"
	"{\n"
	"	buf[get_global_id(0)] *= k;\n"
	"}\n"
	"\n"
	"__kernel void local_reverse(__global const int *in,\n"
	"			    __global int *out,\n"
	"			    __local int *tmp)\n"
	"{\n"
	"	size_t l = get_local_id(0), n = get_local_size(0);\n"
	"	size_t base = get_group_id(0) * n;\n"
	"	tmp[l] = in[base + l];\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	out[base + l] = tmp[n - 1 - l];\n"
	"}\n"
	"\n"
	"__kernel void task_sum(__global const int *in, __global int *out,\n"
	"		       int n)\n"
	"{\n"
	"	int s = 0;\n"
	"	for (int i = 0; i < n; i++)\n"
	"		s += in[i];\n"
	"	out[0] = s;\n"
	"	out[1] = get_global_size(0);\n"
	"	out[2] = get_local_size(0);\n"
	"	out[3] = get_work_dim();\n"
	"}\n"
	"\n"
	"__kernel __attribute__((reqd_work_group_size(4, 1, 1)))\n"
	"void reqd4(__global int *out)\n"
	"{\n"
	"	out[get_global_id(0)] = get_local_size(0);\n"
	"}\n"
	"\n"
	"__kernel void options_probe(__global int *out)\n"
	"{\n"
	"	out[0] = OFFSET;\n"
	"}\n"
	"\n"
	"__kernel void args_mix(__global int *out, char c, short s, int i,\n"
	"		       long l,\n"
	"		       float f, int4 v, __constant int *cst,\n"
	"		       __global int *maybe_null)\n"
	"{\n"
	"	out[0] = c;\n"
	"	out[1] = s;\n"
	"	out[2] = i;\n"
	"	out[3] = (int)(l >> 32);\n"
	"	out[4] = (int)l;\n"
	"	out[5] = (int)(f * 2.0f);\n"
	"	out[6] = v.x;\n"
	"	out[7] = v.y;\n"
	"	out[8] = v.z;\n"
	"	out[9] = v.w;\n"
	"	out[10] = cst[0] + cst[1];\n"
	"	out[11] = maybe_null == 0;\n"
	"}\n"
;

/* A struct passed by value (spec §6.9: kernel arguments may be structs);
 * laid out like struct cl_api_pair in cl_api_program.c. */
const char cl_api_struct_source[] =
	"struct pair { int a; float b; short c; };\n"
	"__kernel void struct_arg(__global int *out, struct pair p)\n"
	"{\n"
	"	out[0] = p.a;\n"
	"	out[1] = (int)(p.b * 4.0f);\n"
	"	out[2] = p.c;\n"
	"}\n";

/* clCompileProgram with an embedded header, then clLinkProgram with a
 * library that defines helper(). */
const char cl_api_link_header[] =
	"#define FROM_HEADER 100\n"
	"int helper(int x);\n";

const char cl_api_link_main_source[] =
	"#include \"cl_api_defs.h\"\n"
	"__kernel void linked(__global int *p)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	p[i] = helper(p[i]) + FROM_HEADER;\n"
	"}\n";

const char cl_api_link_lib_source[] =
	"int helper(int x)\n"
	"{\n"
	"	return 3 * x;\n"
	"}\n";

/* The fault and multi-process modes: poke() writes wherever it is told
 * (an index far outside its buffer faults the GPU), scale_add() is the
 * well-behaved work. */
const char cl_api_small_source[] =
	"__kernel void poke(__global int *p, uint index, int v)\n"
	"{\n"
	"	p[index + get_global_id(0)] = v;\n"
	"}\n"
	"__kernel void scale_add(__global int *buf, int mul, int add)\n"
	"{\n"
	"	size_t i = get_global_id(0);\n"
	"	buf[i] = buf[i] * mul + add;\n"
	"}\n";
