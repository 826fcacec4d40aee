/* SPDX-License-Identifier: MIT */
/*
 * Sleipnir's glue for Mesa's Midgard disassembler in the cross-check: the
 * fp16 conversion and assertion hook the shim headers declare, and read-only
 * accessors to Mesa's op tables, so that tests/isa/mesa_crosscheck.c needs
 * no Mesa header. Compiled against the cached Mesa sources by
 * tests/isa/mesa-crosscheck.sh.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "midgard.h"
#include "midgard_ops.h"
#include "mesa_shim.h"
#include "util/half_float.h"

/* IEEE binary16 -> binary32, written out (no table): sign, 5-bit exponent
 * with bias 15, 10-bit fraction; exponent 0 is zero/subnormal, 31 inf/NaN. */
float _mesa_half_to_float(uint16_t h)
{
	unsigned int sign = h >> 15, exp = (h >> 10) & 0x1F, frac = h & 0x3FF;
	float v;

	if (exp == 0)
		v = ldexpf((float)frac, -24);
	else if (exp == 31)
		v = frac ? NAN : INFINITY;
	else
		v = ldexpf((float)(frac | 0x400), (int)exp - 25);
	return sign ? -v : v;
}

static char assert_log[4096];
static unsigned int assert_count;

void xchk_mesa_assert_failed(const char *what, const char *file, int line)
{
	size_t used = strlen(assert_log);
	const char *base = strrchr(file, '/');

	assert_count++;
	if (used + 1 < sizeof(assert_log))
		snprintf(assert_log + used, sizeof(assert_log) - used,
			 "%s%s:%d: %s", used ? "; " : "", base ? base + 1 : file,
			 line, what);
}

unsigned int xchk_mesa_take_asserts(char *what, size_t size)
{
	unsigned int n = assert_count;

	if (size)
		snprintf(what, size, "%s", assert_log);
	assert_count = 0;
	assert_log[0] = '\0';
	return n;
}

const char *xchk_mesa_alu_name(unsigned int op)
{
	return op < 256 ? alu_opcode_props[op].name : NULL;
}

const char *xchk_mesa_ldst_name(unsigned int op)
{
	return op < 256 ? load_store_opcode_props[op].name : NULL;
}

const char *xchk_mesa_tex_name(unsigned int op)
{
	return op < 16 ? tex_opcode_props[op].name : NULL;
}

const char *xchk_mesa_tag_name(unsigned int tag)
{
	return tag < 16 ? midgard_tag_props[tag].name : NULL;
}

unsigned int xchk_mesa_tag_quadwords(unsigned int tag)
{
	return tag < 16 ? midgard_tag_props[tag].size : 0;
}

bool xchk_mesa_alu_int_src(unsigned int op)
{
	return midgard_is_integer_op((int)op);
}

unsigned int xchk_mesa_alu_channels(unsigned int op)
{
	return GET_CHANNEL_COUNT(alu_opcode_props[op].props);
}

FILE *xchk_mesa_stdout;
