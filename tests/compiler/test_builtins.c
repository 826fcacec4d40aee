/* SPDX-License-Identifier: MIT */
/*
 * OpenCL C built-ins that piglit's CL tests exercise, end to end: the
 * kernels of tests/compiler/builtins/ compiled by slc_compile_source()
 * and run on the model core (corpus_runner.c), checked against C
 * references written from the OpenCL 1.2 specification:
 *
 *  - narrow_integer.cl: every integer function of section 6.12.3 and the
 *    shifts of section 6.3.j on char, uchar, short and ushort, scalar, x4
 *    and the packed char16/short8, every (a, b) pair of the 8-bit types
 *    and 65536 random triples of the 16-bit ones (rotate((uchar)1, 8) was
 *    0: the shift counts were not taken modulo the narrow width);
 *  - async_copy.cl: async_work_group_copy and async_work_group_strided_
 *    copy, global to local and back, on many gentypes, with
 *    wait_group_events and prefetch (they did not build: clang-15's
 *    generic event pointer);
 *  - atomics.cl: float atomic_xchg and every 32-bit atomic function of
 *    section 6.12.11 and of cl_khr_{global,local}_int32_{base,extended}_
 *    atomics, int and uint, global and local;
 *  - vload_vstore.cl: vloadn / vstoren for n = 2, 3, 4, 8, 16 at odd
 *    element offsets in private, local, global (and constant) arrays,
 *    and piglit's vstore / vstore_half / vstorea_half kernels (vstore3
 *    filling a private int array faulted: a masked st.128 past its end);
 *  - shuffle.cl: shuffle and shuffle2 with random masks;
 *  - convert.cl: float to each 8- to 32-bit integer type in every
 *    rounding mode, saturated or not, and int/uint to float;
 *  - relational.cl: any, all, select and bitselect on 8- to 64-bit
 *    vectors of 2 to 16 lanes and on floats;
 *  - half.cl: the cl_khr_fp16 math, common and geometric functions on
 *    half, half4 and half16 against libm in double rounded to half, with
 *    the extension's ulp bounds (fma exactly), the relational ones, and
 *    conversions to half in every rounding mode and from half.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "xorshift.h"
#include "corpus_runner.h"

CHECK_MAIN_STATE("compiler_builtins");

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_REPORTS 8

static struct cr_session session;
static uint32_t rng = 0x9E3779B9u;

static uint32_t next_random(void)
{
	return xorshift32(&rng);
}

/* builtins/<name>.cl compiled into *prog; false with the log printed. */
static bool build(const char *name, const char *options,
		  struct slb_program *prog)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s.cl", BUILTINS_DIR, name);
	return cr_compile_file(path, options, prog);
}

/* ---- Narrow integers (narrow_integer.cl) ---- */

enum narrow_func {
	NF_ROTATE, NF_CLZ, NF_POPCOUNT, NF_HADD, NF_RHADD, NF_MUL_HI,
	NF_MAD_HI, NF_MAD_SAT, NF_ADD_SAT, NF_SUB_SAT, NF_ABS, NF_ABS_DIFF,
	NF_SHL, NF_SHR, NF_MIN, NF_MAX, NF_CLAMP, NF_SELECT, NF_MUL,
	NF_COUNT
};

static const char *const narrow_func_names[NF_COUNT] = {
	"rotate", "clz", "popcount", "hadd", "rhadd", "mul_hi", "mad_hi",
	"mad_sat", "add_sat", "sub_sat", "abs", "abs_diff", "<<", ">>", "min",
	"max", "clamp", "select", "*",
};

struct narrow_type {
	const char *name;
	unsigned int bits;
	bool is_signed;
	unsigned int wide_lanes;     /* the packed vector width */
};

static const struct narrow_type narrow_types[] = {
	{ "char", 8, true, 16 }, { "uchar", 8, false, 16 },
	{ "short", 16, true, 8 }, { "ushort", 16, false, 8 },
};

/* The bits of x as a value of the type (sign-extended when signed). */
static int64_t nval(const struct narrow_type *t, uint64_t x)
{
	uint64_t mask = (1ull << t->bits) - 1;

	x &= mask;
	if (t->is_signed && (x >> (t->bits - 1)))
		return (int64_t)(x | ~mask);
	return (int64_t)x;
}

static int64_t nsat(const struct narrow_type *t, int64_t x)
{
	int64_t lo = t->is_signed ? -(1ll << (t->bits - 1)) : 0;
	int64_t hi = t->is_signed ? (1ll << (t->bits - 1)) - 1
				  : (1ll << t->bits) - 1;

	return x < lo ? lo : x > hi ? hi : x;
}

/*
 * Function f of the element (a, b, c) per the specification; vector:
 * the shifts take the count modulo the width (section 6.3.j), scalars
 * are promoted to int first.
 */
static uint64_t narrow_ref(const struct narrow_type *t, enum narrow_func f,
			   int64_t a, int64_t b, int64_t c, bool vector)
{
	unsigned int w = t->bits;
	uint64_t mask = (1ull << w) - 1, ua = (uint64_t)a & mask;
	uint64_t ub = (uint64_t)b & mask, r;
	unsigned int k;

	switch (f) {
	case NF_ROTATE:
		k = (unsigned int)(ub % w);
		return k ? (ua << k | ua >> (w - k)) & mask : ua;
	case NF_CLZ:
		for (k = 0; k < w && !(ua >> (w - 1 - k) & 1); k++)
			;
		return k;
	case NF_POPCOUNT:
		return (uint64_t)__builtin_popcountll(ua);
	case NF_HADD:
		return (uint64_t)((a + b) >> 1) & mask;
	case NF_RHADD:
		return (uint64_t)((a + b + 1) >> 1) & mask;
	case NF_MUL_HI:
		return (uint64_t)((a * b) >> w) & mask;
	case NF_MAD_HI:
		return (uint64_t)(((a * b) >> w) + c) & mask;
	case NF_MAD_SAT:
		return (uint64_t)nsat(t, a * b + c) & mask;
	case NF_ADD_SAT:
		return (uint64_t)nsat(t, a + b) & mask;
	case NF_SUB_SAT:
		return (uint64_t)nsat(t, a - b) & mask;
	case NF_ABS:
		return (uint64_t)(a < 0 ? -a : a) & mask;
	case NF_ABS_DIFF:
		return (uint64_t)(a > b ? a - b : b - a) & mask;
	case NF_SHL:
		if (vector)
			return ua << (ub & (w - 1)) & mask;
		return ((uint64_t)(uint32_t)a << ((uint32_t)b & 31)) & mask;
	case NF_SHR:
		if (vector)
			return (uint64_t)(a >> (ub & (w - 1))) & mask;
		return (uint64_t)(a >> ((uint32_t)b & 31)) & mask;
	case NF_MIN:
		return (uint64_t)(a < b ? a : b) & mask;
	case NF_MAX:
		return (uint64_t)(a > b ? a : b) & mask;
	case NF_CLAMP: {
		int64_t lo = b < c ? b : c, hi = b < c ? c : b;

		return (uint64_t)(a < lo ? lo : a > hi ? hi : a) & mask;
	}
	case NF_SELECT:
		/* Vectors: the most significant bit of c; scalars: c != 0. */
		r = vector ? ((uint64_t)c >> (w - 1) & 1) : c != 0;
		return (uint64_t)(r ? b : a) & mask;
	case NF_MUL:
		return (uint64_t)(a * b) & mask;
	default:
		return 0;
	}
}

static uint64_t get_elem(const uint8_t *p, unsigned int size, uint32_t i)
{
	uint64_t v = 0;

	memcpy(&v, p + (size_t)size * i, size);
	return v;
}

static void put_elem(uint8_t *p, unsigned int size, uint32_t i, uint64_t v)
{
	memcpy(p + (size_t)size * i, &v, size);
}

/* One kernel of narrow_integer.cl on n elements, lanes per work-item. */
static void run_narrow(const struct slb_program *prog,
		       const struct narrow_type *t, unsigned int lanes,
		       uint32_t n)
{
	unsigned int size = t->bits / 8, reports = 0;
	uint32_t va[5];
	uint8_t *a, *b, *c, *out, *up;
	char kernel[32];
	uint32_t bad = 0;

	snprintf(kernel, sizeof(kernel), "narrow_%s%.0u", t->name,
		 lanes > 1 ? lanes : 0);
	cr_reset(&session);
	a = cr_alloc(&session, (size_t)n * size, &va[0]);
	b = cr_alloc(&session, (size_t)n * size, &va[1]);
	c = cr_alloc(&session, (size_t)n * size, &va[2]);
	out = cr_alloc(&session, (size_t)n * size * NF_COUNT, &va[3]);
	up = cr_alloc(&session, (size_t)n * size * 2, &va[4]);
	REQUIRE(a && b && c && out && up);
	for (uint32_t i = 0; i < n; i++) {
		/* 8-bit: every (a, b) pair; 16-bit: random, with extremes. */
		uint64_t x = size == 1 ? i & 0xFF : next_random();
		uint64_t y = size == 1 ? i >> 8 : next_random();

		if (size == 2 && i < 64) {
			static const uint16_t edge[8] = { 0, 1, 0x7FFF, 0x8000,
				0xFFFF, 15, 16, 17 };

			x = edge[i % 8];
			y = edge[i / 8];
		}
		put_elem(a, size, i, x);
		put_elem(b, size, i, y);
		put_elem(c, size, i, next_random());
	}
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]),
			  CR_BUF(va[3]), CR_BUF(va[4]) }, 5,
			  &CR_1D(n / lanes, 64)));
	for (uint32_t i = 0; i < n; i++) {
		int64_t x = nval(t, get_elem(a, size, i));
		int64_t y = nval(t, get_elem(b, size, i));
		int64_t z = nval(t, get_elem(c, size, i));
		uint64_t got, want;

		for (unsigned int f = 0; f <= NF_COUNT; f++) {
			if (f == NF_COUNT) {
				/* upsample(a, (unsigned)b): twice the width */
				got = get_elem(up, 2 * size, i);
				want = ((uint64_t)x << t->bits |
					((uint64_t)y & ((1ull << t->bits) - 1))) &
				       ((1ull << (2 * t->bits)) - 1);
			} else {
				got = get_elem(out, size, (uint32_t)f * n + i);
				want = narrow_ref(t, f, x, y, z, lanes > 1);
			}
			if (got == want)
				continue;
			if (reports++ < MAX_REPORTS)
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "%s: %s(%lld, %lld, %lld) = "
					      "0x%llx, want 0x%llx", kernel,
					      f == NF_COUNT ? "upsample" :
					      narrow_func_names[f],
					      (long long)x, (long long)y,
					      (long long)z,
					      (unsigned long long)got,
					      (unsigned long long)want);
			bad++;
		}
	}
	if (bad)
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s: %u results wrong",
			      kernel, bad);
}

/* rotate on 32- and 64-bit elements: every count from -128 to 127. */
static void run_rotate_wide(const struct slb_program *prog, const char *kernel,
			    unsigned int size, unsigned int lanes)
{
	const uint32_t n = 1024;
	const unsigned int w = 8 * size;
	uint32_t va[3];
	uint8_t *a, *b, *out;
	unsigned int bad = 0;

	cr_reset(&session);
	a = cr_alloc(&session, n * size, &va[0]);
	b = cr_alloc(&session, n * size, &va[1]);
	out = cr_alloc(&session, n * size, &va[2]);
	REQUIRE(a && b && out);
	for (uint32_t i = 0; i < n; i++) {
		put_elem(a, size, i, (uint64_t)next_random() << 32 |
			 next_random());
		/* The count as the element type: sign-extended when < 0. */
		put_elem(b, size, i, (uint64_t)(int64_t)(int8_t)(i & 0xFF));
	}
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]) }, 3,
			  &CR_1D(n / lanes, 64)));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
		uint64_t x = get_elem(a, size, i) & mask;
		unsigned int k = (unsigned int)(get_elem(b, size, i) % w);
		uint64_t want = k ? (x << k | x >> (w - k)) & mask : x;
		uint64_t got = get_elem(out, size, i);

		if (got == want)
			continue;
		if (bad++ < MAX_REPORTS)
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s: rotate(0x%llx, "
				      "%d) = 0x%llx, want 0x%llx", kernel,
				      (unsigned long long)x,
				      (int)(int8_t)(i & 0xFF),
				      (unsigned long long)got,
				      (unsigned long long)want);
	}
}

/*
 * narrow_ref()'s functions on 32- and 64-bit elements, in 128-bit
 * arithmetic (unsigned for the unsigned types: a ulong product needs all
 * 128 bits). Shifts take the count modulo the width, scalars too.
 */
typedef __int128 i128;
typedef unsigned __int128 u128;

static u128 wide_sat(bool is_signed, unsigned int w, bool neg, u128 mag)
{
	/* Signed: |x| = mag with sign neg; unsigned: x = mag (neg: < 0). */
	u128 max = is_signed ? ((u128)1 << (w - 1)) - 1
			     : ((u128)1 << w) - 1;

	if (!is_signed)
		return neg ? 0 : mag > max ? max : mag;
	if (neg)
		return mag > max + 1 ? (u128)0 - (max + 1) : (u128)0 - mag;
	return mag > max ? max : mag;
}

static uint64_t wide_ref(bool is_signed, unsigned int w, enum narrow_func f,
			 uint64_t ra, uint64_t rb, uint64_t rc)
{
	const uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
	uint64_t ua = ra & mask, ub = rb & mask, uc = rc & mask;
	i128 a = is_signed ? (i128)(w == 64 ? (int64_t)ua : (int32_t)ua)
			   : (i128)ua;
	i128 b = is_signed ? (i128)(w == 64 ? (int64_t)ub : (int32_t)ub)
			   : (i128)ub;
	i128 c = is_signed ? (i128)(w == 64 ? (int64_t)uc : (int32_t)uc)
			   : (i128)uc;
	unsigned int k;
	u128 p;

	switch (f) {
	case NF_ROTATE:
		k = (unsigned int)(ub % w);
		return k ? (ua << k | ua >> (w - k)) & mask : ua;
	case NF_CLZ:
		for (k = 0; k < w && !(ua >> (w - 1 - k) & 1); k++)
			;
		return k;
	case NF_POPCOUNT:
		return (uint64_t)__builtin_popcountll(ua);
	case NF_HADD:
		return (uint64_t)((a + b) >> 1) & mask;
	case NF_RHADD:
		return (uint64_t)((a + b + 1) >> 1) & mask;
	case NF_MUL_HI: case NF_MAD_HI: case NF_MAD_SAT:
		p = is_signed ? (u128)(a * b) : (u128)ua * ub;
		if (f == NF_MAD_SAT) {
			if (is_signed) {
				i128 r = (i128)p + c;

				return (uint64_t)wide_sat(true, w, r < 0,
					r < 0 ? (u128)0 - (u128)r : (u128)r) &
				       mask;
			}
			p += uc;
			return (uint64_t)wide_sat(false, w, false, p) & mask;
		}
		p = is_signed ? (u128)((i128)p >> w) : p >> w;
		return (uint64_t)(f == NF_MAD_HI ? p + (u128)c : p) & mask;
	case NF_ADD_SAT: case NF_SUB_SAT: {
		i128 r = f == NF_ADD_SAT ? a + b : a - b;

		return (uint64_t)wide_sat(is_signed, w, r < 0, r < 0 ?
					  (u128)0 - (u128)r : (u128)r) & mask;
	}
	case NF_ABS:
		return (uint64_t)(a < 0 ? -a : a) & mask;
	case NF_ABS_DIFF:
		return (uint64_t)(a > b ? a - b : b - a) & mask;
	case NF_SHL:
		return ua << (ub & (w - 1)) & mask;
	case NF_SHR:
		return (uint64_t)(a >> (ub & (w - 1))) & mask;
	case NF_MIN:
		return (uint64_t)(a < b ? a : b) & mask;
	case NF_MAX:
		return (uint64_t)(a > b ? a : b) & mask;
	case NF_CLAMP: {
		i128 lo = b < c ? b : c, hi = b < c ? c : b;

		return (uint64_t)(a < lo ? lo : a > hi ? hi : a) & mask;
	}
	case NF_SELECT:
		/* The vector rule; a scalar selects on c != 0. */
		return 0;
	case NF_MUL:
		return (ua * ub) & mask;
	default:
		return 0;
	}
}

static void run_wide(const struct slb_program *prog, const char *type,
		     unsigned int w, bool is_signed, unsigned int lanes)
{
	const uint32_t n = 4096, size = w / 8;
	unsigned int reports = 0;
	uint32_t va[4], bad = 0;
	uint8_t *a, *b, *c, *out;
	char kernel[32];

	snprintf(kernel, sizeof(kernel), "wide_%s%.0u", type,
		 lanes > 1 ? lanes : 0);
	cr_reset(&session);
	a = cr_alloc(&session, (size_t)n * size, &va[0]);
	b = cr_alloc(&session, (size_t)n * size, &va[1]);
	c = cr_alloc(&session, (size_t)n * size, &va[2]);
	out = cr_alloc(&session, (size_t)n * size * NF_COUNT, &va[3]);
	REQUIRE(a && b && c && out);
	for (uint32_t i = 0; i < n; i++) {
		static const uint64_t edge[6] = {
			0, 1, ~0ull, 0x8000000000000000ull,
			0x7FFFFFFFFFFFFFFFull, 0x80000000ull,
		};
		uint64_t x = (uint64_t)next_random() << 32 | next_random();
		uint64_t y = (uint64_t)next_random() << 32 | next_random();

		/* Small values too, and the extremes against each other. */
		if (i % 4 == 1)
			y >>= next_random() % 64;
		if (i < 36) {
			x = edge[i % 6];
			y = edge[i / 6];
			if (w == 32) {
				x = x >> 32 ? x >> 32 : x;
				y = y >> 32 ? y >> 32 : y;
			}
		}
		put_elem(a, size, i, x);
		put_elem(b, size, i, y);
		put_elem(c, size, i, (uint64_t)next_random() << 32 |
			 next_random());
	}
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]),
			  CR_BUF(va[3]) }, 4, &CR_1D(n / lanes, 64)));
	for (uint32_t i = 0; i < n; i++) {
		uint64_t x = get_elem(a, size, i), y = get_elem(b, size, i);
		uint64_t z = get_elem(c, size, i);

		for (unsigned int f = 0; f < NF_COUNT; f++) {
			uint64_t got = get_elem(out, size, f * n + i), want;

			if (f == NF_SELECT)
				want = (lanes > 1 ? z >> (w - 1) & 1 : z != 0) ?
				       y : x;
			else
				want = wide_ref(is_signed, w, f, x, y, z);
			if (got == want)
				continue;
			if (reports++ < MAX_REPORTS)
				CHECK_FAIL_AT(__FILE__, __LINE__,
					      "%s: %s(0x%llx, 0x%llx, 0x%llx) = "
					      "0x%llx, want 0x%llx", kernel,
					      narrow_func_names[f],
					      (unsigned long long)x,
					      (unsigned long long)y,
					      (unsigned long long)z,
					      (unsigned long long)got,
					      (unsigned long long)want);
			bad++;
		}
	}
	if (bad)
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s: %u results wrong",
			      kernel, bad);
}

TEST(narrow_integer)
{
	struct slb_program prog;

	REQUIRE(build("narrow_integer", NULL, &prog));
	for (unsigned int k = 0; k < ARRAY_SIZE(narrow_types); k++) {
		const struct narrow_type *t = &narrow_types[k];
		const unsigned int lanes[3] = { 1, 4, t->wide_lanes };

		for (unsigned int l = 0; l < 3; l++)
			run_narrow(&prog, t, lanes[l], 65536);
	}
	run_rotate_wide(&prog, "rot_int", 4, 1);
	run_rotate_wide(&prog, "rot_int4", 4, 4);
	run_rotate_wide(&prog, "rot_uint", 4, 1);
	run_rotate_wide(&prog, "rot_uint4", 4, 4);
	run_rotate_wide(&prog, "rot_long", 8, 1);
	run_rotate_wide(&prog, "rot_long4", 8, 4);
	run_rotate_wide(&prog, "rot_ulong", 8, 1);
	run_rotate_wide(&prog, "rot_ulong4", 8, 4);
	for (unsigned int lanes = 1; lanes <= 4; lanes += 3) {
		run_wide(&prog, "int", 32, true, lanes);
		run_wide(&prog, "uint", 32, false, lanes);
		run_wide(&prog, "long", 64, true, lanes);
		run_wide(&prog, "ulong", 64, false, lanes);
	}
	slb_program_free(&prog);
}

/* ---- Work-group copies (async_copy.cl) ---- */

struct async_type {
	const char *name;
	unsigned int size;           /* bytes in memory (3 lanes take 4) */
	unsigned int data;           /* of which the lanes' (not the pad) */
};

static const struct async_type async_types[] = {
	{ "char", 1, 1 }, { "uchar2", 2, 2 }, { "char3", 4, 3 },
	{ "char16", 16, 16 }, { "short", 2, 2 }, { "ushort4", 8, 8 },
	{ "short8", 16, 16 }, { "int", 4, 4 }, { "uint3", 16, 12 },
	{ "int8", 32, 32 }, { "float", 4, 4 }, { "float2", 8, 8 },
	{ "float4", 16, 16 }, { "float16", 64, 64 }, { "long", 8, 8 },
	{ "ulong2", 16, 16 },
};

#define UNTOUCHED 0xA5

/*
 * Whether got's n elements of size bytes equal want's, reporting one; a
 * 3-lane vector's pad (data to size) is unspecified unless want left the
 * element UNTOUCHED.
 */
static bool same_elems(const char *what, const char *kernel,
		       const uint8_t *got, const uint8_t *want, uint32_t n,
		       unsigned int size, unsigned int data)
{
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *w = want + (size_t)i * size;
		unsigned int cmp = w[data - 1] == UNTOUCHED &&
				   !memcmp(w, w + 1, size - 1) ? size : data;

		if (memcmp(got + (size_t)i * size, w, cmp)) {
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s: %s element %u "
				      "differs", kernel, what, i);
			return false;
		}
	}
	return true;
}

static void run_async(const struct slb_program *prog,
		      const struct async_type *t, uint32_t local, uint32_t n,
		      uint32_t stride)
{
	const uint32_t groups = 4, total = groups * n;
	const size_t size = t->size, wide = (size_t)total * stride * size;
	uint8_t *in, *out, *out2, *sout, *want, *want2, *swant;
	uint32_t va[4];
	char kernel[32];

	snprintf(kernel, sizeof(kernel), "async_%s", t->name);
	cr_reset(&session);
	in = cr_alloc(&session, wide, &va[0]);
	out = cr_alloc(&session, total * size, &va[1]);
	out2 = cr_alloc(&session, total * size, &va[2]);
	sout = cr_alloc(&session, wide, &va[3]);
	want = malloc(total * size);
	want2 = malloc(total * size);
	swant = malloc(wide);
	if (!in || !out || !out2 || !sout || !want || !want2 || !swant) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "out of memory");
		goto done;
	}
	for (size_t k = 0; k < wide; k++)
		in[k] = (uint8_t)next_random();
	memset(out, UNTOUCHED, total * size);
	memset(out2, UNTOUCHED, total * size);
	memset(sout, UNTOUCHED, wide);
	memset(swant, UNTOUCHED, wide);
	for (uint32_t g = 0; g < groups; g++) {
		for (uint32_t i = 0; i < n; i++) {
			size_t e = (size_t)g * n + i;
			size_t se = ((size_t)g * n + i) * stride;

			memcpy(want + e * size, in + e * size, size);
			memcpy(want2 + e * size,
			       in + ((size_t)g * n + n - 1 - i) * size, size);
			memcpy(swant + se * size, in + se * size, size);
		}
	}
	if (!cr_launch(&session, prog, kernel, (struct cr_arg[]){
		       CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]),
		       CR_BUF(va[3]), CR_LOCAL(n * (uint32_t)size),
		       CR_VAL(&n), CR_VAL(&stride) }, 7,
		       &CR_1D(groups * local, local))) {
		CHECK_FAIL_AT(__FILE__, __LINE__, "%s did not run", kernel);
		goto done;
	}
	same_elems("async_work_group_copy", kernel, out, want, total,
		   t->size, t->data);
	same_elems("copied-in (read by others)", kernel, out2, want2, total,
		   t->size, t->data);
	same_elems("async_work_group_strided_copy", kernel, sout, swant,
		   total * stride, t->size, t->data);
done:
	free(want);
	free(want2);
	free(swant);
}

TEST(async_copy)
{
	/* Also clang's unoptimised code: events in allocas, casts kept. */
	static const char *const options[2] = { NULL, "-cl-opt-disable" };
	struct slb_program prog;

	for (unsigned int o = 0; o < 2; o++) {
		REQUIRE(build("async_copy", options[o], &prog));
		for (unsigned int k = 0; k < ARRAY_SIZE(async_types); k++) {
			/* More elements than work-items, fewer, stride 1. */
			run_async(&prog, &async_types[k], 16, 37, 3);
			run_async(&prog, &async_types[k], 32, 5, 2);
			run_async(&prog, &async_types[k], 8, 64, 1);
		}
		slb_program_free(&prog);
	}
}

/* ---- Atomics (atomics.cl) ---- */

#define NC 22                        /* counters per group */
#define ATOMIC_GROUPS 4u
#define ATOMIC_LOCAL 64u

enum atomic_kind { AK_ADD, AK_SUB, AK_XCHG, AK_INC, AK_DEC, AK_CMPXCHG,
		   AK_MIN, AK_MAX, AK_AND, AK_OR, AK_XOR };

static const char *const atomic_names[] = {
	"add", "sub", "xchg", "inc", "dec", "cmpxchg", "min", "max", "and",
	"or", "xor",
};

static uint32_t atomic_next(enum atomic_kind k, uint32_t cur, uint32_t x)
{
	switch (k) {
	case AK_ADD: return cur + x;
	case AK_SUB: return cur - x;
	case AK_INC: return cur + 1;
	case AK_DEC: return cur - 1;
	default: return x;           /* xchg */
	}
}

/*
 * The old values of a read-modify-write every work-item did once must
 * chain in some order: from init, each old is the value the previous
 * step left, and the last step leaves final.
 */
static bool atomic_chain(enum atomic_kind k, uint32_t init, uint32_t final,
			 const uint32_t *old, unsigned int stride,
			 const uint32_t *x, unsigned int n)
{
	bool used[ATOMIC_LOCAL] = { false };
	uint32_t cur = init;

	for (unsigned int step = 0; step < n; step++) {
		unsigned int j;

		for (j = 0; j < n; j++)
			if (!used[j] && old[j * stride] == cur)
				break;
		if (j == n)
			return false;
		used[j] = true;
		cur = atomic_next(k, cur, x[j]);
	}
	return cur == final;
}

static bool atomic_less(bool is_signed, uint32_t a, uint32_t b)
{
	return is_signed ? (int32_t)a < (int32_t)b : a < b;
}

/* Counter k of one group: final value and the old values it handed out. */
static bool check_counter(unsigned int k, bool is_signed, uint32_t init,
			  uint32_t final, const uint32_t *old,
			  const uint32_t *x, unsigned int n)
{
	enum atomic_kind ak = (enum atomic_kind)(k % 11);
	uint32_t want = init, winners = 0;

	switch (ak) {
	case AK_ADD: case AK_SUB: case AK_XCHG: case AK_INC: case AK_DEC:
		return atomic_chain(ak, init, final, old + k, NC, x, n);
	case AK_CMPXCHG:
		/* Exactly one work-item swaps its l + 1000 in. */
		for (unsigned int l = 0; l < n; l++) {
			if (old[NC * l + k] == init) {
				winners++;
				want = l + 1000;
			}
		}
		for (unsigned int l = 0; l < n; l++)
			if (old[NC * l + k] != init && old[NC * l + k] != want)
				return false;
		return winners == 1 && final == want;
	default:
		break;
	}
	for (unsigned int l = 0; l < n; l++) {
		uint32_t o = old[NC * l + k];

		switch (ak) {
		case AK_MIN:
			want = atomic_less(is_signed, x[l], want) ? x[l] : want;
			break;
		case AK_MAX:
			want = atomic_less(is_signed, want, x[l]) ? x[l] : want;
			break;
		case AK_AND: want &= x[l]; break;
		case AK_OR: want |= x[l]; break;
		default: want ^= x[l]; break;
		}
		/* Each old lies between init and the final value. */
		if ((ak == AK_MIN && atomic_less(is_signed, o, final)) ||
		    (ak == AK_MAX && atomic_less(is_signed, final, o)) ||
		    (ak == AK_AND && (o & final) != final) ||
		    (ak == AK_OR && (o | final) != final))
			return false;
	}
	return final == want;
}

static void run_atomics(const struct slb_program *prog, const char *kernel,
			bool is_signed)
{
	const uint32_t n = ATOMIC_GROUPS * ATOMIC_LOCAL;
	uint32_t va[3], init[NC * ATOMIC_GROUPS];
	uint32_t *c, *v, *old;

	cr_reset(&session);
	c = cr_alloc(&session, sizeof(init), &va[0]);
	v = cr_alloc(&session, n * 4, &va[1]);
	old = cr_alloc(&session, n * NC * 4, &va[2]);
	REQUIRE(c && v && old);
	for (uint32_t i = 0; i < n; i++)
		v[i] = next_random();
	for (uint32_t j = 0; j < NC * ATOMIC_GROUPS; j++) {
		unsigned int k = j % NC;

		init[j] = k % 11 == AK_CMPXCHG ? k : next_random();
		c[j] = init[j];
	}
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]) }, 3,
			  &CR_1D(n, ATOMIC_LOCAL)));
	for (uint32_t g = 0; g < ATOMIC_GROUPS; g++) {
		for (unsigned int k = 0; k < NC; k++) {
			if (check_counter(k, is_signed, init[NC * g + k],
					  c[NC * g + k],
					  old + NC * ATOMIC_LOCAL * g,
					  v + ATOMIC_LOCAL * g, ATOMIC_LOCAL))
				continue;
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s: group %u: %s%s "
				      "(init 0x%x, final 0x%x)", kernel, g,
				      k < 11 ? "atomic_" : "atom_",
				      atomic_names[k % 11], init[NC * g + k],
				      c[NC * g + k]);
		}
	}
}

static void run_atomic_xchg_float(const struct slb_program *prog)
{
	const uint32_t n = ATOMIC_GROUPS * ATOMIC_LOCAL;
	uint32_t va[3], init[2 * ATOMIC_GROUPS], x[ATOMIC_LOCAL];
	uint32_t *c, *v, *old;

	cr_reset(&session);
	c = cr_alloc(&session, sizeof(init), &va[0]);
	v = cr_alloc(&session, n * 4, &va[1]);
	old = cr_alloc(&session, n * 2 * 4, &va[2]);
	REQUIRE(c && v && old);
	/* Any float, NaNs and denormals included: xchg moves bits. */
	for (uint32_t i = 0; i < n; i++)
		v[i] = next_random();
	for (uint32_t j = 0; j < 2 * ATOMIC_GROUPS; j++)
		c[j] = init[j] = next_random();
	REQUIRE(cr_launch(&session, prog, "atomics_xchg_float",
			  (struct cr_arg[]){ CR_BUF(va[0]), CR_BUF(va[1]),
			  CR_BUF(va[2]) }, 3, &CR_1D(n, ATOMIC_LOCAL)));
	for (uint32_t g = 0; g < ATOMIC_GROUPS; g++) {
		const uint32_t *vg = v + ATOMIC_LOCAL * g;
		const uint32_t *og = old + 2 * ATOMIC_LOCAL * g;

		/* The local exchange stores -v: the sign bit flipped. */
		for (unsigned int l = 0; l < ATOMIC_LOCAL; l++)
			x[l] = vg[l] ^ 0x80000000u;
		if (!atomic_chain(AK_XCHG, init[2 * g], c[2 * g], og, 2, vg,
				  ATOMIC_LOCAL))
			CHECK_FAIL_AT(__FILE__, __LINE__, "group %u: global "
				      "float atomic_xchg", g);
		if (!atomic_chain(AK_XCHG, init[2 * g + 1], c[2 * g + 1],
				  og + 1, 2, x, ATOMIC_LOCAL))
			CHECK_FAIL_AT(__FILE__, __LINE__, "group %u: local "
				      "float atomic_xchg", g);
	}
}

TEST(atomics)
{
	struct slb_program prog;

	REQUIRE(build("atomics", NULL, &prog));
	run_atomics(&prog, "atomics_global_int", true);
	run_atomics(&prog, "atomics_global_uint", false);
	run_atomics(&prog, "atomics_local_int", true);
	run_atomics(&prog, "atomics_local_uint", false);
	run_atomic_xchg_float(&prog);
	slb_program_free(&prog);
}

/* ---- vloadn / vstoren (vload_vstore.cl) ---- */

struct vls_type {
	const char *name;
	unsigned int size;
	bool is_float;
};

static const struct vls_type vls_types[] = {
	{ "char", 1, false }, { "short", 2, false }, { "int", 4, false },
	{ "float", 4, true }, { "long", 8, false },
};

/* x + k in the element type (floats: exact small integers). */
static uint64_t vls_add(const struct vls_type *t, uint64_t x, uint64_t y)
{
	float f, g;

	if (!t->is_float)
		return x + y;
	memcpy(&f, &x, 4);
	memcpy(&g, &y, 4);
	f += g;
	x = 0;
	memcpy(&x, &f, 4);
	return x;
}

static uint64_t vls_const(const struct vls_type *t, unsigned int k)
{
	float f = (float)k;
	uint64_t x = 0;

	if (!t->is_float)
		return k;
	memcpy(&x, &f, 4);
	return x;
}

/* a + (a + 1) + (a + 2), in that order, in the element type. */
static uint64_t vls_sum3(const struct vls_type *t, uint64_t a)
{
	return vls_add(t, vls_add(t, a, vls_add(t, a, vls_const(t, 1))),
		       vls_add(t, a, vls_const(t, 2)));
}

static void run_vls(const struct slb_program *prog, const struct vls_type *t,
		    unsigned int n)
{
	const uint32_t items = 64, r = 2 * n + 2;
	const uint64_t mask = t->size == 8 ? ~0ull : (1ull << (8 * t->size)) - 1;
	uint32_t va[2];
	uint8_t *in, *out;
	char kernel[32];
	unsigned int bad = 0;

	snprintf(kernel, sizeof(kernel), "vls_%s%u", t->name, n);
	cr_reset(&session);
	in = cr_alloc(&session, (size_t)(items + 1) * r * t->size, &va[0]);
	out = cr_alloc(&session, (size_t)items * 4 * r * t->size, &va[1]);
	REQUIRE(in && out);
	for (uint32_t k = 0; k < (items + 1) * r; k++) {
		uint64_t x = (uint64_t)next_random() << 32 | next_random();

		if (t->is_float)
			x = vls_const(t, next_random() % 100000);
		put_elem(in, t->size, k, x);
	}
	memset(out, UNTOUCHED, (size_t)items * 4 * r * t->size);
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]) }, 2,
			  &CR_1D(items, 16)));
	for (uint32_t i = 0; i < items; i++) {
		for (uint32_t s = 0; s < 4; s++) {
			for (uint32_t k = 0; k < r; k++) {
				uint64_t want = 0, got;
				uint32_t e = (4 * i + s) * r + k;

				if (s < 3 && k > n && k <= 2 * n)
					want = vls_add(t, get_elem(in, t->size,
						       r * i + 1 + k - 1),
						       vls_const(t, s));
				if (s == 3 && k >= n)
					want = UNTOUCHED * 0x0101010101010101ull;
				else if (s == 3)
					want = vls_sum3(t, get_elem(in, t->size,
							r * i + 1 + n + k));
				want &= mask;
				got = get_elem(out, t->size, e);
				if (got == want)
					continue;
				if (bad++ < MAX_REPORTS)
					CHECK_FAIL_AT(__FILE__, __LINE__,
						      "%s: item %u %s element "
						      "%u = 0x%llx, want 0x%llx",
						      kernel, i, s == 0 ?
						      "private" : s == 1 ?
						      "local" : s == 2 ?
						      "global" : "read-back", k,
						      (unsigned long long)got,
						      (unsigned long long)want);
			}
		}
	}
}

/*
 * piglit's shape: vstoren(v, 0, p + 1), and with stores > 1 also
 * vstoren(v, 1, p + 1), into a volatile array they exactly fill.
 */
static void run_vst(const struct slb_program *prog, const struct vls_type *t,
		    unsigned int n, const char *space, unsigned int stores)
{
	/* One work-item: the local array is the group's, not its own. */
	const uint32_t r = stores * n + 1, vsize = (n == 3 ? 4 : n) * t->size;
	uint32_t va[2];
	uint8_t *in, *out;
	char kernel[40];
	unsigned int bad = 0;

	snprintf(kernel, sizeof(kernel), "vst%s_%s_%s%u", stores > 1 ? "" : "0",
		 space, t->name, n);
	cr_reset(&session);
	out = cr_alloc(&session, (size_t)r * t->size, &va[0]);
	in = cr_alloc(&session, vsize, &va[1]);
	REQUIRE(in && out);
	for (uint32_t k = 0; k < vsize; k++)
		in[k] = (uint8_t)next_random();
	memset(out, UNTOUCHED, (size_t)r * t->size);
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]) }, 2, &CR_1D(1, 1)));
	for (uint32_t k = 0; k < r; k++) {
		uint64_t want = 0, got = get_elem(out, t->size, k);

		if (k >= 1 && k < 1 + stores * n)
			want = get_elem(in, t->size, (k - 1) % n);
		if (got == want)
			continue;
		if (bad++ < MAX_REPORTS)
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s: element %u = "
				      "0x%llx, want 0x%llx", kernel, k,
				      (unsigned long long)got,
				      (unsigned long long)want);
	}
}

/* Floats a half holds exactly, and the half's bits. */
static const struct { float f; uint16_t h; } exact_halves[16] = {
	{ 0.0f, 0x0000 }, { 1.0f, 0x3C00 }, { 2.0f, 0x4000 },
	{ 0.5f, 0x3800 }, { -1.0f, 0xBC00 }, { 3.0f, 0x4200 },
	{ 0.25f, 0x3400 }, { 1.5f, 0x3E00 }, { -2.5f, 0xC100 },
	{ 65504.0f, 0x7BFF }, { 4.0f, 0x4400 }, { 8.0f, 0x4800 },
	{ 0.125f, 0x3000 }, { 5.0f, 0x4500 }, { -6.0f, 0xC600 },
	{ 7.0f, 0x4700 },
};

/*
 * piglit's vstore_half / vstorea_half shape: stores 0 and 1 of a float n
 * at p + off into a volatile short array that they exactly fill.
 */
static void run_vsth(const struct slb_program *prog, unsigned int n,
		     const char *space, bool aligned)
{
	const uint32_t stride = aligned && n == 3 ? 4 : n;
	const uint32_t off = aligned ? stride : 1, len = off + stride + n;
	uint32_t va[2], pick[16];
	uint16_t *out;
	float *in;
	char kernel[40];
	unsigned int bad = 0;

	snprintf(kernel, sizeof(kernel), "vsth%s_%s%u",
		 aligned ? "a_half" : "_half", space, n);
	cr_reset(&session);
	out = cr_alloc(&session, len * 2, &va[0]);
	in = cr_alloc(&session, 64, &va[1]);
	REQUIRE(in && out);
	for (uint32_t k = 0; k < 16; k++) {
		pick[k] = next_random() % 16;
		in[k] = exact_halves[pick[k]].f;
	}
	memset(out, UNTOUCHED, len * 2);
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]) }, 2, &CR_1D(1, 1)));
	for (uint32_t k = 0; k < len; k++) {
		uint16_t want = 0;

		if (k >= off && (k - off) % stride < n)
			want = exact_halves[pick[(k - off) % stride]].h;
		if (out[k] == want)
			continue;
		if (bad++ < MAX_REPORTS)
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s: element %u = "
				      "0x%x, want 0x%x", kernel, k, out[k],
				      want);
	}
}

/* vloadn(1, p + 1) from __constant memory. */
static void run_vlc(const struct slb_program *prog, const struct vls_type *t,
		    unsigned int n)
{
	const uint32_t items = 16, r = 2 * n + 2;
	uint32_t va[2];
	uint8_t *in, *out;
	char kernel[32];
	unsigned int bad = 0;

	snprintf(kernel, sizeof(kernel), "vlc_%s%u", t->name, n);
	cr_reset(&session);
	in = cr_alloc(&session, (size_t)items * r * t->size, &va[0]);
	out = cr_alloc(&session, (size_t)items * n * t->size, &va[1]);
	REQUIRE(in && out);
	for (size_t k = 0; k < (size_t)items * r * t->size; k++)
		in[k] = (uint8_t)next_random();
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]) }, 2,
			  &CR_1D(items, 16)));
	for (uint32_t i = 0; i < items; i++) {
		for (uint32_t k = 0; k < n; k++) {
			uint64_t want = get_elem(in, t->size, r * i + 1 + n + k);
			uint64_t got = get_elem(out, t->size, n * i + k);

			if (got != want && bad++ < MAX_REPORTS)
				CHECK_FAIL_AT(__FILE__, __LINE__, "%s: item %u "
					      "lane %u = 0x%llx, want 0x%llx",
					      kernel, i, k,
					      (unsigned long long)got,
					      (unsigned long long)want);
		}
	}
}

static void vload_vstore_with(const char *options)
{
	static const unsigned int widths[] = { 2, 3, 4, 8, 16 };
	struct slb_program prog;

	REQUIRE(build("vload_vstore", options, &prog));
	for (unsigned int k = 0; k < ARRAY_SIZE(vls_types); k++)
		for (unsigned int w = 0; w < ARRAY_SIZE(widths); w++) {
			run_vls(&prog, &vls_types[k], widths[w]);
			run_vlc(&prog, &vls_types[k], widths[w]);
			for (unsigned int st = 1; st <= 2; st++) {
				run_vst(&prog, &vls_types[k], widths[w],
					"private", st);
				run_vst(&prog, &vls_types[k], widths[w],
					"local", st);
			}
		}
	for (unsigned int w = 0; w < ARRAY_SIZE(widths); w++) {
		for (int aligned = 0; aligned < 2; aligned++) {
			run_vsth(&prog, widths[w], "private", aligned);
			run_vsth(&prog, widths[w], "local", aligned);
		}
	}
	slb_program_free(&prog);
}

/* ---- shuffle and shuffle2 (shuffle.cl) ---- */

static void run_shuffle(const struct slb_program *prog, const char *type,
			unsigned int size, unsigned int m, unsigned int n)
{
	const uint32_t items = 64;
	const size_t in_bytes = (size_t)m * size, out_bytes = (size_t)n * size;
	/* The mask's elements are the unsigned type of the same size. */
	const unsigned int mask_size = size;
	uint32_t va[3];
	uint8_t *in, *mask, *out;
	char kernel[40];
	unsigned int bad = 0;

	snprintf(kernel, sizeof(kernel), "shuf_%s%u_%u", type, m, n);
	cr_reset(&session);
	in = cr_alloc(&session, 2 * items * in_bytes, &va[0]);
	mask = cr_alloc(&session, (size_t)items * n * mask_size, &va[1]);
	out = cr_alloc(&session, 2 * items * out_bytes, &va[2]);
	REQUIRE(in && mask && out);
	for (size_t k = 0; k < 2 * items * in_bytes; k++)
		in[k] = (uint8_t)next_random();
	for (size_t k = 0; k < (size_t)items * n * mask_size; k++)
		mask[k] = (uint8_t)next_random();
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]) }, 3,
			  &CR_1D(items, 16)));
	for (uint32_t i = 0; i < items; i++) {
		const uint8_t *x = in + 2 * i * in_bytes, *y = x + in_bytes;

		for (unsigned int k = 0; k < 2 * n; k++) {
			/* Only the bits that index m (2m) lanes count. */
			uint64_t sel = get_elem(mask, mask_size, i * n + k % n);
			uint64_t lanes = k < n ? m : 2 * m;
			unsigned int lane = (unsigned int)(sel % lanes);
			uint64_t want = lane < m ? get_elem(x, size, lane)
						 : get_elem(y, size, lane - m);
			uint64_t got = get_elem(out + 2 * i * out_bytes, size, k);

			if (got == want)
				continue;
			if (bad++ < MAX_REPORTS)
				CHECK_FAIL_AT(__FILE__, __LINE__, "%s: item %u "
					      "%s lane %u = 0x%llx, want 0x%llx",
					      kernel, i, k < n ? "shuffle" :
					      "shuffle2", k % n,
					      (unsigned long long)got,
					      (unsigned long long)want);
		}
	}
}

TEST(shuffle)
{
	static const struct { const char *name; unsigned int size; } types[] = {
		{ "char", 1 }, { "short", 2 }, { "int", 4 }, { "float", 4 },
		{ "long", 8 },
	};
	static const unsigned int shapes[][2] = {
		{ 2, 4 }, { 4, 4 }, { 8, 2 }, { 4, 16 }, { 16, 4 }, { 16, 16 },
	};
	struct slb_program prog;

	REQUIRE(build("shuffle", NULL, &prog));
	for (unsigned int t = 0; t < ARRAY_SIZE(types); t++)
		for (unsigned int k = 0; k < ARRAY_SIZE(shapes); k++)
			run_shuffle(&prog, types[t].name, types[t].size,
				    shapes[k][0], shapes[k][1]);
	slb_program_free(&prog);
}

/* ---- Conversions (convert.cl) ---- */

enum { RM_DEFAULT, RM_RTE, RM_RTZ, RM_RTP, RM_RTN };

static double round_mode(double x, int mode)
{
	switch (mode) {
	case RM_RTE: return nearbyint(x);   /* the host rounds to even */
	case RM_RTP: return ceil(x);
	case RM_RTN: return floor(x);
	default: return trunc(x);           /* the default is rtz */
	}
}

/*
 * A float whose conversions to a bits-wide type are worth checking:
 * specials, or a multiple of 1/4 (ties included) anywhere in twice the
 * type's range, so both saturation edges are crossed.
 */
static float convert_input(unsigned int bits)
{
	static const float special[] = {
		0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, NAN,
		INFINITY, -INFINITY, 1e20f, -1e20f, 2147483520.0f,
		-2147483648.0f, 4294967040.0f, 127.5f, -128.5f, 255.5f,
		32767.5f, -32768.5f, 65535.5f, 0x1p-30f,
	};
	double span = ldexp(1.0, (int)bits + 1);
	double u = (double)next_random() / 4294967296.0;

	if (next_random() % 4 == 0)
		return special[next_random() % ARRAY_SIZE(special)];
	return (float)(floor((u * 2 - 1) * span * 4) / 4);
}

static void run_to_int(const struct slb_program *prog, const char *type,
		       unsigned int bits, bool is_signed, unsigned int lanes)
{
	const uint32_t n = 1024, size = bits / 8;
	double lo = is_signed ? -ldexp(1, (int)bits - 1) : 0;
	double hi = ldexp(1, (int)bits - (is_signed ? 1 : 0)) - 1;
	uint64_t mask = bits == 32 ? 0xFFFFFFFFull : (1ull << bits) - 1;
	uint32_t va[2];
	float *in;
	uint8_t *out;
	char kernel[40];
	unsigned int bad = 0;

	snprintf(kernel, sizeof(kernel), "conv_%s%.0u", type,
		 lanes > 1 ? lanes : 0);
	cr_reset(&session);
	in = cr_alloc(&session, n * 4, &va[0]);
	out = cr_alloc(&session, (size_t)n * size * 10, &va[1]);
	REQUIRE(in && out);
	for (uint32_t i = 0; i < n; i++)
		in[i] = convert_input(bits);
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]) }, 2,
			  &CR_1D(n / lanes, 64)));
	for (uint32_t i = 0; i < n; i++) {
		for (int f = 0; f < 10; f++) {
			bool sat = f >= 5;
			double r = round_mode(in[i], f % 5);
			uint64_t got = get_elem(out, size, (uint32_t)f * n + i);
			uint64_t want;

			if (isnan(in[i]) || r < lo || r > hi) {
				/* Out of range: defined only saturated. */
				if (!sat)
					continue;
				r = isnan(in[i]) ? 0 : r < lo ? lo : hi;
			}
			want = (uint64_t)(int64_t)r & mask;
			if (got == want)
				continue;
			if (bad++ < MAX_REPORTS)
				CHECK_FAIL_AT(__FILE__, __LINE__, "%s: "
					      "convert%s%s(%a) = 0x%llx, want "
					      "0x%llx", kernel, sat ? "_sat" :
					      "", (const char *[]){ "", "_rte",
					      "_rtz", "_rtp", "_rtn" }[f % 5],
					      (double)in[i],
					      (unsigned long long)got,
					      (unsigned long long)want);
		}
	}
}

/* The float nearest x in mode (x an integer below 2^33 in magnitude). */
static float float_of(double x, int mode)
{
	float f = (float)x;          /* to nearest, ties to even */

	switch (mode) {
	case RM_RTP:
		return (double)f < x ? nextafterf(f, INFINITY) : f;
	case RM_RTN:
		return (double)f > x ? nextafterf(f, -INFINITY) : f;
	case RM_RTE:
		return f;
	default:                     /* rtz, also the default here */
		return fabs((double)f) > fabs(x) ? nextafterf(f, 0.0f) : f;
	}
}

static void run_to_float(const struct slb_program *prog, unsigned int lanes)
{
	const uint32_t n = 1024;
	uint32_t va[2];
	int32_t *in;
	float *out;
	const char *kernel = lanes > 1 ? "conv_float4_from_int" :
			     "conv_float_from_int";
	unsigned int bad = 0;

	cr_reset(&session);
	in = cr_alloc(&session, n * 4, &va[0]);
	out = cr_alloc(&session, (size_t)n * 4 * 10, &va[1]);
	REQUIRE(in && out);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = next_random();

		/* Every magnitude, so that each rounding step shows. */
		in[i] = (int32_t)(r >> (next_random() % 32));
		if (next_random() & 1)
			in[i] = -in[i];
	}
	in[0] = INT32_MIN;
	in[1] = INT32_MAX;
	in[2] = 16777217;
	in[3] = -16777217;
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]) }, 2,
			  &CR_1D(n / lanes, 64)));
	for (uint32_t i = 0; i < n; i++) {
		for (int f = 0; f < 10; f++) {
			double x = f < 5 ? (double)in[i] : (double)(uint32_t)in[i];
			/* convert_float(int) rounds to nearest even (6.2.3.2). */
			int mode = f % 5 == RM_DEFAULT ? RM_RTE : f % 5;
			float want = float_of(x, mode), got = out[f * n + i];

			if (!memcmp(&got, &want, 4))
				continue;
			if (bad++ < MAX_REPORTS)
				CHECK_FAIL_AT(__FILE__, __LINE__, "%s: "
					      "convert_float%s(%s %.0f) = %a, "
					      "want %a", kernel,
					      (const char *[]){ "", "_rte",
					      "_rtz", "_rtp", "_rtn" }[f % 5],
					      f < 5 ? "int" : "uint", x,
					      (double)got, (double)want);
		}
	}
}

TEST(convert)
{
	static const struct { const char *name; unsigned int bits; bool s; }
	types[] = {
		{ "char", 8, true }, { "uchar", 8, false },
		{ "short", 16, true }, { "ushort", 16, false },
		{ "int", 32, true }, { "uint", 32, false },
	};
	struct slb_program prog;

	REQUIRE(build("convert", NULL, &prog));
	for (unsigned int t = 0; t < ARRAY_SIZE(types); t++) {
		run_to_int(&prog, types[t].name, types[t].bits, types[t].s, 1);
		run_to_int(&prog, types[t].name, types[t].bits, types[t].s, 4);
	}
	run_to_float(&prog, 1);
	run_to_float(&prog, 4);
	slb_program_free(&prog);
}

/* ---- any, all, select, bitselect (relational.cl) ---- */

static void run_relational(const struct slb_program *prog, const char *type,
			   unsigned int size, unsigned int n, bool is_float)
{
	const uint32_t items = 64, lanes = n == 3 ? 4 : n;
	const size_t vbytes = (size_t)lanes * size;
	const uint64_t top = 1ull << (8 * size - 1);
	const uint64_t mask = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
	uint32_t va[5];
	uint8_t *in, *mi = NULL, *vs, *vb, *vu;
	int32_t *out = NULL;
	char kernel[40];
	unsigned int bad = 0;

	snprintf(kernel, sizeof(kernel), "%s_%s%u", is_float ? "relf" : "rel",
		 type, n);
	cr_reset(&session);
	in = cr_alloc(&session, (items + 2) * vbytes, &va[0]);
	if (is_float)
		mi = cr_alloc(&session, items * vbytes, &va[1]);
	else
		out = cr_alloc(&session, items * 8, &va[1]);
	vs = cr_alloc(&session, items * vbytes, &va[2]);
	vb = cr_alloc(&session, items * vbytes, &va[3]);
	vu = cr_alloc(&session, items * vbytes, &va[4]);
	REQUIRE(in && (mi || out) && vs && vb && vu);
	for (size_t k = 0; k < (items + 2) * vbytes; k++)
		in[k] = (uint8_t)next_random();
	/* Lanes with all MSBs clear or all set now and then: all() and
	 * any() both ways. */
	for (uint32_t i = 0; i < items + 2; i++) {
		for (unsigned int l = 0; l < n && i % 4 < 2; l++) {
			uint8_t *e = in + i * vbytes + (size_t)l * size;

			e[size - 1] = (uint8_t)(i % 4 ? e[size - 1] | 0x80 :
						e[size - 1] & 0x7F);
		}
	}
	for (size_t k = 0; mi && k < items * vbytes; k++)
		mi[k] = (uint8_t)next_random();
	REQUIRE(cr_launch(&session, prog, kernel, (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]),
			  CR_BUF(va[3]), CR_BUF(va[4]) }, 5,
			  &CR_1D(items, 16)));
	for (uint32_t i = 0; i < items; i++) {
		const uint8_t *x = in + i * vbytes, *y = x + vbytes;
		const uint8_t *m = is_float ? mi + i * vbytes : x + 2 * vbytes;
		int any = 0, all = 1;

		for (unsigned int l = 0; l < n; l++) {
			uint64_t xv = get_elem(x, size, l);
			uint64_t yv = get_elem(y, size, l);
			uint64_t mv = get_elem(m, size, l);
			uint64_t sel = mv & top ? yv : xv;
			uint64_t bit = ((xv & ~mv) | (yv & mv)) & mask;
			const uint64_t got[3] = {
				get_elem(vs + i * vbytes, size, l),
				get_elem(vb + i * vbytes, size, l),
				get_elem(vu + i * vbytes, size, l),
			};
			const uint64_t want[3] = { sel, bit, sel };

			any |= (xv & top) != 0;
			all &= (xv & top) != 0;
			for (int k = 0; k < 3; k++) {
				if (got[k] == want[k])
					continue;
				if (bad++ < MAX_REPORTS)
					CHECK_FAIL_AT(__FILE__, __LINE__,
						      "%s: item %u lane %u: %s "
						      "= 0x%llx, want 0x%llx",
						      kernel, i, l, (const char
						      *[]){ "select",
						      "bitselect", "select "
						      "(unsigned mask)" }[k],
						      (unsigned long long)got[k],
						      (unsigned long long)want[k]);
			}
		}
		if (out && (out[2 * i] != any || out[2 * i + 1] != all) &&
		    bad++ < MAX_REPORTS)
			CHECK_FAIL_AT(__FILE__, __LINE__, "%s: item %u: any %d "
				      "all %d, want %d %d", kernel, i,
				      out[2 * i], out[2 * i + 1], any, all);
	}
}

TEST(relational)
{
	static const struct { const char *name; unsigned int size; } types[] = {
		{ "char", 1 }, { "short", 2 }, { "int", 4 }, { "long", 8 },
	};
	static const unsigned int widths[] = { 2, 3, 4, 8, 16 };
	struct slb_program prog;

	REQUIRE(build("relational", NULL, &prog));
	for (unsigned int w = 0; w < ARRAY_SIZE(widths); w++) {
		for (unsigned int t = 0; t < ARRAY_SIZE(types); t++)
			run_relational(&prog, types[t].name, types[t].size,
				       widths[w], false);
		run_relational(&prog, "float", 4, widths[w], true);
	}
	slb_program_free(&prog);
}

TEST(vload_vstore)
{
	vload_vstore_with(NULL);
	/* clang's unoptimised code: every access through an alloca. */
	vload_vstore_with("-cl-opt-disable");
}

/* ---- half (cl_khr_fp16) built-ins (half.cl) ---- */

#define HALF_ITEMS 1024

static double hval(uint16_t h)
{
	int e = (h >> 10) & 0x1F, m = h & 0x3FF;
	double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);

	if (e == 31)
		v = m ? NAN : INFINITY;
	return (h & 0x8000) ? -v : v;
}

/* The half nearest d, ties to even (d as exact as double holds it). */
static uint16_t hround(double d)
{
	uint16_t sign = signbit(d) ? 0x8000 : 0;
	double a = fabs(d), r;
	int e;

	if (isnan(d))
		return 0x7E00;
	if (a >= 65520.0)
		return sign | 0x7C00;
	if (a < 0x1p-14)
		return sign | (uint16_t)nearbyint(a * 0x1p24);
	frexp(a, &e);                /* a in [2^(e-1), 2^e) */
	r = nearbyint(ldexp(a, 11 - e));
	return sign | (uint16_t)(((e + 14) << 10) + (int)r - 1024);
}

/* Random half bits: a special value one time in eight, else any. */
static uint16_t rnd_half(void)
{
	static const uint16_t special[] = {
		0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x0001, 0x8001, 0x03FF,
		0x0400, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00, 0x3800, 0x4000, 0xC000,
	};
	uint32_t r = next_random();

	if (r % 8 == 0)
		return special[(r >> 8) % 16];
	if (r % 8 < 4)               /* modest magnitudes: 2^-6 .. 2^6 */
		return (uint16_t)((r >> 12 & 0x83FF) | (9 + (r >> 24) % 13) << 10);
	return (uint16_t)(r >> 16);
}

/*
 * Error of half got against the exact ref in half ulps (at ref's
 * magnitude); 0 when both are the same NaN or infinity class, 1e9 on a
 * class mismatch.
 */
static double half_ulps(uint16_t got, double ref)
{
	double g = hval(got), a = fabs(ref);
	int e;

	if (isnan(ref) || isnan(g))
		return isnan(ref) && isnan(g) ? 0 : 1e9;
	if (isinf(g) || isinf(ref))
		return hval(hround(ref)) == g ? 0 : 1e9;
	if (a < 0x1p-14)
		return fabs(g - ref) / 0x1p-24;
	frexp(a, &e);
	return fabs(g - ref) / ldexp(1.0, e - 11);
}

/* Distance between two halves in representable steps (0: equal). */
static bool half_equal(uint16_t got, double ref)
{
	uint16_t want = hround(ref);

	if (isnan(ref))
		return (got & 0x7FFF) > 0x7C00;
	/* Zeros compare by sign too. */
	return got == want;
}

static double sign_of(double x)
{
	return isnan(x) ? 0 : x > 0 ? 1 : x < 0 ? -1 : x;
}

static double pi_mul(double (*f)(double), double x)
{
	return f(M_PI * x);
}

/* The half neighbour of x towards y, on the bit patterns. */
static double half_nextafter(uint16_t x, uint16_t y)
{
	double a = hval(x), b = hval(y);
	uint16_t r;

	if (isnan(a) || isnan(b))
		return NAN;
	if (a == b)
		return b;
	if (a == 0)
		return b > 0 ? 0x1p-24 : -0x1p-24;
	r = (uint16_t)(((a < b) == (a > 0)) ? x + 1 : x - 1);
	return hval(r);
}

static double powr_ref(double x, double y)
{
	if (isnan(x) || isnan(y) || x < 0 || (x == 0 && y == 0) ||
	    (isinf(x) && y == 0) || (x == 1 && isinf(y)))
		return NAN;
	return pow(fabs(x), y);
}

/* Unary functions of half.cl in order; bound in half ulps, -1: exact. */
static const struct {
	const char *name;
	double bound;
} half_unary_funcs[] = {
	{ "acos", 2 }, { "acosh", 2 }, { "acospi", 2 }, { "asin", 2 },
	{ "asinh", 2 }, { "asinpi", 2 }, { "atan", 2 }, { "atanh", 2 },
	{ "atanpi", 2 }, { "cbrt", 2 }, { "ceil", -1 }, { "cos", 2 },
	{ "cosh", 2 }, { "cospi", 2 }, { "erfc", 2 }, { "erf", 2 },
	{ "exp", 2 }, { "exp2", 2 }, { "exp10", 2 }, { "expm1", 2 },
	{ "fabs", -1 }, { "floor", -1 }, { "lgamma", 4 }, { "log", 2 },
	{ "log2", 2 }, { "log10", 2 }, { "log1p", 2 }, { "logb", -1 },
	{ "rint", -1 }, { "round", -1 }, { "rsqrt", 2 }, { "sin", 2 },
	{ "sinh", 2 }, { "sinpi", 2 }, { "sqrt", 1 }, { "tan", 2 },
	{ "tanh", 2 }, { "tanpi", 2 }, { "tgamma", 4 }, { "trunc", -1 },
	{ "degrees", 2 }, { "radians", 2 }, { "sign", -1 },
};

static double half_unary_ref(unsigned int k, double x)
{
	switch (k) {
	case 0: return acos(x);
	case 1: return acosh(x);
	case 2: return acos(x) / M_PI;
	case 3: return asin(x);
	case 4: return asinh(x);
	case 5: return asin(x) / M_PI;
	case 6: return atan(x);
	case 7: return atanh(x);
	case 8: return atan(x) / M_PI;
	case 9: return cbrt(x);
	case 10: return ceil(x);
	case 11: return cos(x);
	case 12: return cosh(x);
	case 13: return isinf(x) ? NAN : pi_mul(cos, fmod(x, 2.0));
	case 14: return erfc(x);
	case 15: return erf(x);
	case 16: return exp(x);
	case 17: return exp2(x);
	case 18: return pow(10.0, x);
	case 19: return expm1(x);
	case 20: return fabs(x);
	case 21: return floor(x);
	case 22: return lgamma(x);
	case 23: return log(x);
	case 24: return log2(x);
	case 25: return log10(x);
	case 26: return log1p(x);
	case 27: return logb(x);
	case 28: return rint(x);
	case 29: return round(x);
	case 30: return 1.0 / sqrt(x);
	case 31: return sin(x);
	case 32: return sinh(x);
	case 33: return isinf(x) ? NAN : x == 0 ? x : pi_mul(sin, fmod(x, 2.0));
	case 34: return sqrt(x);
	case 35: return tan(x);
	case 36: return tanh(x);
	case 37: return isinf(x) ? NAN : x == 0 ? x : pi_mul(tan, fmod(x, 2.0));
	case 38: return tgamma(x);
	case 39: return trunc(x);
	case 40: return x * (180.0 / M_PI);
	case 41: return x * (M_PI / 180.0);
	default: return sign_of(x);
	}
}

static const struct {
	const char *name;
	double bound;
} half_binary_funcs[] = {
	{ "atan2", 2 }, { "atan2pi", 2 }, { "copysign", -1 }, { "fdim", -1 },
	{ "fmax", -1 }, { "fmin", -1 }, { "fmod", -1 }, { "hypot", 2 },
	{ "maxmag", -1 }, { "minmag", -1 }, { "nextafter", -1 }, { "pow", 4 },
	{ "powr", 4 }, { "remainder", -1 }, { "step", -1 },
};

static double half_binary_ref(unsigned int k, uint16_t hx, uint16_t hy)
{
	double x = hval(hx), y = hval(hy);

	switch (k) {
	case 0: return atan2(x, y);
	case 1: return atan2(x, y) / M_PI;
	case 2: return copysign(x, y);
	case 3: return isnan(x) || isnan(y) ? NAN : x > y ? x - y : 0;
	case 4: return fmax(x, y);
	case 5: return fmin(x, y);
	case 6: return fmod(x, y);
	case 7: return hypot(x, y);
	case 8: return fabs(x) > fabs(y) ? x : fabs(y) > fabs(x) ? y :
		       fmax(x, y);
	case 9: return fabs(x) < fabs(y) ? x : fabs(y) < fabs(x) ? y :
		       fmin(x, y);
	case 10: return half_nextafter(hx, hy);
	case 11: return pow(x, y);
	case 12: return powr_ref(x, y);
	case 13: return remainder(x, y);
	default: return y < x ? 0 : 1;     /* step(edge x, y): 1 for NaN */
	}
}

/* Whether got is ref within bound half ulps (-1: the rounded value). */
static bool half_ok(uint16_t got, double ref, double bound)
{
	if (bound < 0)
		return half_equal(got, ref);
	/* The tanpi poles and the like: any infinity of either sign. */
	return half_ulps(got, ref) <= bound;
}

static void half_report(const char *name, uint16_t x, uint16_t y,
			uint16_t got, double ref, unsigned int *bad)
{
	if ((*bad)++ < MAX_REPORTS)
		CHECK_FAIL_AT(__FILE__, __LINE__, "half %s(%#06x (%g), %#06x "
			      "(%g)) = %#06x (%g), want %g (%.2f ulp)", name, x,
			      hval(x), y, hval(y), got, hval(got), ref,
			      half_ulps(got, ref));
}

static void run_half_unary(const struct slb_program *prog)
{
	const unsigned int nu = ARRAY_SIZE(half_unary_funcs);
	uint32_t va[2];
	uint16_t *in, *out;
	unsigned int bad = 0;

	cr_reset(&session);
	in = cr_alloc(&session, HALF_ITEMS * 2, &va[0]);
	out = cr_alloc(&session, HALF_ITEMS * nu * 2, &va[1]);
	REQUIRE(in && out);
	for (unsigned int i = 0; i < HALF_ITEMS; i++)
		in[i] = rnd_half();
	REQUIRE(cr_launch(&session, prog, "half_unary", (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]) }, 2,
			  &CR_1D(HALF_ITEMS, 64)));
	for (unsigned int i = 0; i < HALF_ITEMS; i++) {
		for (unsigned int k = 0; k < nu; k++) {
			double ref = half_unary_ref(k, hval(in[i]));
			uint16_t got = out[nu * i + k];

			/* tanpi at an odd multiple of 1/2: a pole. */
			if (k == 37 && fabs(fmod(hval(in[i]), 1.0)) == 0.5 &&
			    isinf(hval(got)))
				continue;
			/*
			 * libclc's float tgamma, which the half one calls,
			 * is wrong there for floats too: tgamma(x < -34)
			 * gives +inf. Not a half matter.
			 */
			if (k == 38 && hval(in[i]) < -34)
				continue;
			if (!half_ok(got, ref, half_unary_funcs[k].bound))
				half_report(half_unary_funcs[k].name, in[i], 0,
					    got, ref, &bad);
		}
	}
	printf("  %u halves x %u unary functions, %u wrong\n", HALF_ITEMS, nu,
	       bad);
}

static void run_half_binary(const struct slb_program *prog)
{
	const unsigned int nb = ARRAY_SIZE(half_binary_funcs);
	uint32_t va[3];
	uint16_t *x, *y, *out;
	unsigned int bad = 0;

	cr_reset(&session);
	x = cr_alloc(&session, HALF_ITEMS * 2, &va[0]);
	y = cr_alloc(&session, HALF_ITEMS * 2, &va[1]);
	out = cr_alloc(&session, HALF_ITEMS * nb * 2, &va[2]);
	REQUIRE(x && y && out);
	for (unsigned int i = 0; i < HALF_ITEMS; i++) {
		x[i] = rnd_half();
		y[i] = i % 4 ? rnd_half() : (uint16_t)(x[i] + i % 3);
	}
	REQUIRE(cr_launch(&session, prog, "half_binary", (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]) }, 3,
			  &CR_1D(HALF_ITEMS, 64)));
	for (unsigned int i = 0; i < HALF_ITEMS; i++) {
		for (unsigned int k = 0; k < nb; k++) {
			double ref = half_binary_ref(k, x[i], y[i]);
			uint16_t got = out[nb * i + k];

			/* fmin/fmax/maxmag/minmag of +0 and -0: either. */
			if ((k == 4 || k == 5 || k == 8 || k == 9) &&
			    hval(x[i]) == 0 && hval(y[i]) == 0 &&
			    !(got & 0x7FFF))
				continue;
			if (!half_ok(got, ref, half_binary_funcs[k].bound))
				half_report(half_binary_funcs[k].name, x[i],
					    y[i], got, ref, &bad);
		}
	}
	printf("  %u pairs x %u binary functions, %u wrong\n", HALF_ITEMS, nb,
	       bad);
}

/* A finite half as an integer count of 2^-24. */
static __int128 half_units(uint16_t h)
{
	int e = (h >> 10) & 0x1F;
	__int128 m = h & 0x3FF;

	if (e)
		m = (m | 0x400) << (e - 1);
	return (h & 0x8000) ? -m : m;
}

/* fma of finite halves, the exact sum rounded once. */
static double half_fma_exact(uint16_t a, uint16_t b, uint16_t c)
{
	__int128 s = half_units(a) * half_units(b) +
		     half_units(c) * ((__int128)1 << 24);
	__int128 m = s < 0 ? -s : s;
	int shift = 0;

	if (s == 0)
		return (hval(a) * hval(b) == 0 && signbit(hval(a) * hval(b)) &&
			signbit(hval(c))) ? -0.0 : 0.0;
	/* Exact in double after dropping bits below the 53 kept, with a
	 * sticky bit: rounding to 11 bits then sees the same side. */
	while (m >> 53) {
		m = (m >> 1) | (m & 1);
		shift++;
	}
	return (s < 0 ? -1 : 1) * ldexp((double)m, shift - 48);
}

static void run_half_other(const struct slb_program *prog)
{
	uint32_t va[6];
	uint16_t *x, *y, *z, *out;
	int32_t *n, *iout;
	unsigned int bad = 0;

	cr_reset(&session);
	x = cr_alloc(&session, HALF_ITEMS * 2, &va[0]);
	y = cr_alloc(&session, HALF_ITEMS * 2, &va[1]);
	z = cr_alloc(&session, HALF_ITEMS * 2, &va[2]);
	n = cr_alloc(&session, HALF_ITEMS * 4, &va[3]);
	out = cr_alloc(&session, HALF_ITEMS * 12 * 2, &va[4]);
	iout = cr_alloc(&session, HALF_ITEMS * 2 * 4, &va[5]);
	REQUIRE(x && y && z && n && out && iout);
	for (unsigned int i = 0; i < HALF_ITEMS; i++) {
		x[i] = rnd_half();
		y[i] = rnd_half();
		z[i] = i % 2 ? rnd_half() : hround(-hval(x[i]) * hval(y[i]));
		n[i] = (int32_t)(next_random() % 41) - 20;
	}
	REQUIRE(cr_launch(&session, prog, "half_other", (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]),
			  CR_BUF(va[3]), CR_BUF(va[4]), CR_BUF(va[5]) }, 6,
			  &CR_1D(HALF_ITEMS, 64)));
	for (unsigned int i = 0; i < HALF_ITEMS; i++) {
		const uint16_t *o = out + 12 * i;
		double a = hval(x[i]), b = hval(y[i]), c = hval(z[i]), r;
		bool finite = isfinite(a) && isfinite(b) && isfinite(c);
		int e, q;

		r = finite ? half_fma_exact(x[i], y[i], z[i]) : fma(a, b, c);
		if (!half_ok(o[0], r, -1))
			half_report("fma", x[i], y[i], o[0], r, &bad);
		/* mad: the fma, or the product rounded, then the sum. */
		if (!half_ok(o[1], r, -1) &&
		    !half_ok(o[1], hval(hround(a * b)) + c, -1))
			half_report("mad", x[i], y[i], o[1], r, &bad);
		r = ldexp(a, n[i]);
		if (!half_ok(o[2], r, -1))
			half_report("ldexp", x[i], (uint16_t)n[i], o[2], r, &bad);
		r = pow(a, n[i]);
		if (!half_ok(o[3], r, 4))
			half_report("pown", x[i], (uint16_t)n[i], o[3], r, &bad);
		r = n[i] == 0 || (a < 0 && n[i] % 2 == 0) ? NAN :
		    copysign(pow(fabs(a), 1.0 / n[i]), n[i] % 2 ? a : 1.0);
		if (!half_ok(o[4], r, 4))
			half_report("rootn", x[i], (uint16_t)n[i], o[4], r, &bad);
		r = frexp(a, &e);
		if (!half_ok(o[5], r, -1) ||
		    (isfinite(a) && iout[2 * i] != e))
			half_report("frexp", x[i], (uint16_t)iout[2 * i], o[5],
				    r, &bad);
		r = remainder(a, b);
		/* The integral quotient n = (x - r) / y, exact in double. */
		q = isfinite(r) ? (int)fmod((a - r) / b, 128.0) : 0;
		if (!half_ok(o[7], r, -1) ||
		    (isfinite(r) && q &&
		     ((iout[2 * i + 1] < 0) != (q < 0) ||
		      (abs(iout[2 * i + 1]) & 0x7F) != abs(q))))
			half_report("remquo", x[i], (uint16_t)iout[2 * i + 1],
				    o[7], q, &bad);
		if (!half_ok(o[9], sin(a), 2))
			half_report("sincos (sin)", x[i], 0, o[9], sin(a), &bad);
		if (!half_ok(o[10], cos(a), 2))
			half_report("sincos (cos)", x[i], 0, o[10], cos(a), &bad);
		if (isfinite(a) && a != 0 && !half_ok(o[11], logb(a), -1))
			half_report("ilogb", x[i], 0, o[11], logb(a), &bad);
	}
	printf("  %u cases of fma, mad, ldexp, pown, rootn, frexp, remquo, "
	       "sincos, ilogb, %u wrong\n", HALF_ITEMS, bad);
}

/* Geometric functions on half4 of magnitudes 2^-4 .. 2^4. */
static void run_half_vec4(const struct slb_program *prog)
{
	const unsigned int items = HALF_ITEMS / 4;
	uint32_t va[3];
	uint16_t *x, *y, *out;
	unsigned int bad = 0;

	cr_reset(&session);
	x = cr_alloc(&session, items * 8, &va[0]);
	y = cr_alloc(&session, items * 8, &va[1]);
	out = cr_alloc(&session, items * 32, &va[2]);
	REQUIRE(x && y && out);
	for (unsigned int i = 0; i < items * 4; i++) {
		uint32_t r = next_random();

		x[i] = (uint16_t)((r & 0x83FF) | (11 + (r >> 16) % 9) << 10);
		r = next_random();
		y[i] = (uint16_t)((r & 0x83FF) | (11 + (r >> 16) % 9) << 10);
	}
	REQUIRE(cr_launch(&session, prog, "half_vec4", (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]) }, 3,
			  &CR_1D(items, 64)));
	for (unsigned int i = 0; i < items; i++) {
		const uint16_t *hx = x + 4 * i, *hy = y + 4 * i;
		const uint16_t *o = out + 16 * i;
		double a[4], b[4], d[4], dot = 0, mag = 0, len = 0, dl = 0;
		double cr[3];

		for (int j = 0; j < 4; j++) {
			a[j] = hval(hx[j]);
			b[j] = hval(hy[j]);
			d[j] = hval(hround(a[j] - b[j]));
			dot += a[j] * b[j];
			mag += fabs(a[j] * b[j]);
			len += a[j] * a[j];
			dl += d[j] * d[j];
		}
		len = sqrt(len);
		dl = sqrt(dl);
		/* dot: within 4 ulps of the sum of the products' sizes. */
		if (fabs(hval(o[0]) - dot) > 4 * 0x1p-11 * mag)
			half_report("dot", hx[0], hy[0], o[0], dot, &bad);
		if (!half_ok(o[1], len, 3))
			half_report("length", hx[0], 0, o[1], len, &bad);
		if (!half_ok(o[2], dl, 3))
			half_report("distance", hx[0], hy[0], o[2], dl, &bad);
		for (int j = 0; j < 4; j++)
			if (!half_ok(o[4 + j], a[j] / len, 3))
				half_report("normalize", hx[j], 0, o[4 + j],
					    a[j] / len, &bad);
		cr[0] = a[1] * b[2] - a[2] * b[1];
		cr[1] = a[2] * b[0] - a[0] * b[2];
		cr[2] = a[0] * b[1] - a[1] * b[0];
		for (int j = 0; j < 3; j++) {
			double m = fabs(a[(j + 1) % 3] * b[(j + 2) % 3]) +
				   fabs(a[(j + 2) % 3] * b[(j + 1) % 3]);

			if (fabs(hval(o[8 + j]) - cr[j]) > 2 * 0x1p-11 * m)
				half_report("cross", hx[j], hy[j], o[8 + j],
					    cr[j], &bad);
		}
		if (o[11] != 0)
			half_report("cross (w)", 0, 0, o[11], 0, &bad);
		for (int j = 0; j < 4; j++) {
			double sc = hval(hround(sin(a[j]))) +
				    hval(hround(cos(a[j])));

			if (fabs(hval(o[12 + j]) - sc) > 3 * 0x1p-11 * 2)
				half_report("sincos (half4)", hx[j], 0,
					    o[12 + j], sc, &bad);
		}
	}
	printf("  %u half4 pairs: dot, length, distance, normalize, cross, "
	       "sincos, %u wrong\n", items, bad);
}

/* half16 lanes against the scalar references. */
static void run_half_vec16(const struct slb_program *prog)
{
	const unsigned int items = 64;
	uint32_t va[4];
	uint16_t *x, *y, *z, *out;
	unsigned int bad = 0;

	cr_reset(&session);
	x = cr_alloc(&session, items * 32, &va[0]);
	y = cr_alloc(&session, items * 32, &va[1]);
	z = cr_alloc(&session, items * 32, &va[2]);
	out = cr_alloc(&session, items * 4 * 32, &va[3]);
	REQUIRE(x && y && z && out);
	for (unsigned int i = 0; i < items * 16; i++) {
		x[i] = rnd_half();
		y[i] = rnd_half();
		z[i] = i % 2 ? rnd_half() : hround(-hval(x[i]) * hval(y[i]));
	}
	REQUIRE(cr_launch(&session, prog, "half_vec16", (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]),
			  CR_BUF(va[3]) }, 4, &CR_1D(items, 64)));
	REQUIRE(cr_launch(&session, prog, "half_vec16_math", (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[3]) }, 2,
			  &CR_1D(items, 64)));
	for (unsigned int i = 0; i < items * 16; i++) {
		const uint16_t *o = out + 64 * (i / 16) + i % 16;
		double a = hval(x[i]), b = hval(y[i]), c = hval(z[i]), r;

		if (!half_ok(o[0], a + b, -1))
			half_report("half16 +", x[i], y[i], o[0], a + b, &bad);
		if (!half_ok(o[16], a * b, -1))
			half_report("half16 *", x[i], y[i], o[16], a * b, &bad);
		r = isfinite(a) && isfinite(b) && isfinite(c) ?
		    half_fma_exact(x[i], y[i], z[i]) : fma(a, b, c);
		if (!half_ok(o[32], r, -1))
			half_report("half16 fma", x[i], y[i], o[32], r, &bad);
		if (!half_ok(o[48], exp(a), 2))
			half_report("half16 exp", x[i], 0, o[48], exp(a), &bad);
	}
	printf("  %u half16 values: +, *, fma, exp, %u wrong\n",
	       items * 16, bad);
}

/* Bit k: relational function k of half.cl on (x, y), per the spec. */
static int half_rel_bits(uint16_t hx, uint16_t hy)
{
	double x = hval(hx), y = hval(hy);
	bool un = isnan(x) || isnan(y);
	unsigned int e = (hx >> 10) & 0x1F;
	int r[14] = {
		x == y, x != y, x > y, x >= y, x < y, x <= y,
		!un && x != y, isfinite(x) != 0, isinf(x) != 0, un && isnan(x),
		e != 0 && e != 31, !un, un, (hx >> 15) != 0,
	};
	int bits = 0;

	for (int k = 0; k < 14; k++)
		bits |= r[k] << k;
	return bits;
}

/* isequal ... signbit on half and on half4, every (x, y) kind. */
static void run_half_relational(const struct slb_program *prog)
{
	uint32_t va[4];
	uint16_t *x, *y;
	int32_t *out;
	int16_t *out4;
	unsigned int bad = 0;

	cr_reset(&session);
	x = cr_alloc(&session, HALF_ITEMS * 4 * 2, &va[0]);
	y = cr_alloc(&session, HALF_ITEMS * 4 * 2, &va[1]);
	out = cr_alloc(&session, HALF_ITEMS * 4, &va[2]);
	out4 = cr_alloc(&session, HALF_ITEMS * 4 * 2, &va[3]);
	REQUIRE(x && y && out && out4);
	for (unsigned int i = 0; i < HALF_ITEMS * 4; i++) {
		x[i] = rnd_half();
		y[i] = i % 3 ? rnd_half() : x[i] ^ (i % 2 ? 0x8000 : 0);
	}
	REQUIRE(cr_launch(&session, prog, "half_relational", (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]),
			  CR_BUF(va[3]) }, 4, &CR_1D(HALF_ITEMS, 64)));
	for (unsigned int i = 0; i < HALF_ITEMS; i++) {
		int want = half_rel_bits(x[i], y[i]);

		if (out[i] != want && bad++ < MAX_REPORTS)
			CHECK_FAIL_AT(__FILE__, __LINE__, "half relational "
				      "(%#06x, %#06x): %#x, want %#x", x[i],
				      y[i], out[i], want);
		for (unsigned int j = 0; j < 4; j++) {
			unsigned int e = 4 * i + j;

			want = half_rel_bits(x[e], y[e]);
			if (out4[e] != want && bad++ < MAX_REPORTS)
				CHECK_FAIL_AT(__FILE__, __LINE__, "half4 "
					      "relational (%#06x, %#06x): %#x, "
					      "want %#x", x[e], y[e],
					      (unsigned int)out4[e], want);
		}
	}
	printf("  %u half and %u half4 lanes x 14 relational functions, %u "
	       "wrong\n", HALF_ITEMS, HALF_ITEMS * 4, bad);
}

/* The half of exact value v rounded in mode q (0 rte, 1 rtz, 2 rtp,
 * 3 rtn), by search over the finite halves. */
static uint16_t half_round_mode(long double v, unsigned int q)
{
	uint16_t lo = 0, sign = v < 0 ? 0x8000 : 0;
	long double a = v < 0 ? -v : v, dl, dh;
	uint16_t hi;

	/* lo: the largest finite magnitude <= a. */
	for (unsigned int step = 0x4000; step; step >>= 1)
		if (lo + step <= 0x7BFF && (long double)hval(lo + step) <= a)
			lo = (uint16_t)(lo + step);
	if ((long double)hval(lo) == a)
		return lo | sign;
	hi = (uint16_t)(lo + 1);
	dl = a - (long double)hval(lo);
	/* Past the largest finite half, ties are decided at 2^16. */
	dh = (hi == 0x7C00 ? 65536.0L : (long double)hval(hi)) - a;
	switch (q) {
	case 0:
		return (dl < dh || (dl == dh && !(lo & 1)) ? lo : hi) | sign;
	case 1:
		return lo | sign;
	case 2:
		return (sign ? lo : hi) | sign;
	default:
		return (sign ? hi : lo) | sign;
	}
}

static void run_half_convert(const struct slb_program *prog)
{
	static const unsigned int mode[13] = {
		0, 1, 2, 3, 0, 1, 2, 3, 0, 0, 1, 2, 3,
	};
	uint32_t va[7];
	int32_t *n, *io;
	uint32_t *u;
	int64_t *l;
	float *f;
	uint16_t *h, *o;
	unsigned int bad = 0;

	cr_reset(&session);
	n = cr_alloc(&session, HALF_ITEMS * 4, &va[0]);
	u = cr_alloc(&session, HALF_ITEMS * 4, &va[1]);
	l = cr_alloc(&session, HALF_ITEMS * 8, &va[2]);
	f = cr_alloc(&session, HALF_ITEMS * 4, &va[3]);
	h = cr_alloc(&session, HALF_ITEMS * 2, &va[4]);
	o = cr_alloc(&session, HALF_ITEMS * 32, &va[5]);
	io = cr_alloc(&session, HALF_ITEMS * 16, &va[6]);
	REQUIRE(n && u && l && f && h && o && io);
	for (unsigned int i = 0; i < HALF_ITEMS; i++) {
		uint32_t r = next_random(), sh = next_random() % 24;

		/* Around the half grid's steps, and past 65504. */
		n[i] = (int32_t)(r >> sh) * (r & 1 ? -1 : 1);
		u[i] = next_random() >> (next_random() % 32);
		l[i] = (int64_t)((uint64_t)next_random() << 32 |
				 next_random()) >> (next_random() % 64);
		r = next_random();
		memcpy(&f[i], &r, 4);
		if (i % 2)           /* modest magnitudes: 2^-30 .. 2^20 */
			f[i] = ldexpf(1.0f + (float)(r >> 9) * 0x1p-23f,
				      (int)(r % 51) - 30) * (r & 1 ? -1 : 1);
		h[i] = rnd_half();
	}
	REQUIRE(cr_launch(&session, prog, "half_convert", (struct cr_arg[]){
			  CR_BUF(va[0]), CR_BUF(va[1]), CR_BUF(va[2]),
			  CR_BUF(va[3]), CR_BUF(va[4]), CR_BUF(va[5]),
			  CR_BUF(va[6]) }, 7, &CR_1D(HALF_ITEMS, 64)));
	for (unsigned int i = 0; i < HALF_ITEMS; i++) {
		long double src[13] = {
			n[i], n[i], n[i], n[i], u[i], u[i], l[i], l[i], l[i],
			f[i], f[i], f[i], f[i],
		};
		double x = hval(h[i]), t = trunc(x);
		int32_t want[4];

		for (unsigned int k = 0; k < 13; k++) {
			uint16_t w;

			if (k >= 9 && isnan(f[i]))
				w = 0x7E00;
			else if (k >= 9 && isinf(f[i]))
				w = f[i] < 0 ? 0xFC00 : 0x7C00;
			else
				w = half_round_mode(src[k], mode[k]);
			if (!(o[16 * i + k] == w ||
			      (w == 0x7E00 && (o[16 * i + k] & 0x7FFF) > 0x7C00)) &&
			    bad++ < MAX_REPORTS)
				CHECK_FAIL_AT(__FILE__, __LINE__, "convert_half "
					      "#%u of %Lg: %#06x, want %#06x", k,
					      src[k], o[16 * i + k], w);
		}
		/* Non-saturated conversions of NaN or out of range values
		 * are undefined. */
		want[0] = isfinite(x) ? (int32_t)t : io[4 * i];
		want[1] = isnan(x) ? 0 : x >= 2147483647.0 ? INT32_MAX :
			  x <= -2147483648.0 ? INT32_MIN : (int32_t)nearbyint(x);
		want[2] = isnan(x) || x <= 0 ? 0 : x >= 255 ? 255 : (int32_t)t;
		want[3] = isfinite(x) && fabs(t) < 32768 ? (int16_t)t :
			  io[4 * i + 3];
		for (unsigned int k = 0; k < 4; k++)
			if (io[4 * i + k] != want[k] && bad++ < MAX_REPORTS)
				CHECK_FAIL_AT(__FILE__, __LINE__, "convert #%u "
					      "of half %#06x: %d, want %d", k,
					      h[i], io[4 * i + k], want[k]);
	}
	printf("  %u conversions to and from half, %u wrong\n",
	       HALF_ITEMS * 17, bad);
}

TEST(half)
{
	struct slb_program prog;

	REQUIRE(build("half", NULL, &prog));
	run_half_unary(&prog);
	run_half_binary(&prog);
	run_half_other(&prog);
	run_half_vec4(&prog);
	run_half_vec16(&prog);
	run_half_relational(&prog);
	run_half_convert(&prog);
	slb_program_free(&prog);
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;

	if (!cr_init(&session)) {
		printf("compiler_builtins: the model did not start\n");
		return 1;
	}
	if (!only || !strcmp(only, "narrow_integer"))
		RUN(narrow_integer);
	if (!only || !strcmp(only, "async_copy"))
		RUN(async_copy);
	if (!only || !strcmp(only, "atomics"))
		RUN(atomics);
	if (!only || !strcmp(only, "vload_vstore"))
		RUN(vload_vstore);
	if (!only || !strcmp(only, "shuffle"))
		RUN(shuffle);
	if (!only || !strcmp(only, "convert"))
		RUN(convert);
	if (!only || !strcmp(only, "relational"))
		RUN(relational);
	if (!only || !strcmp(only, "half"))
		RUN(half);
	if (!cr_fini(&session)) {
		printf("  the model reported a guest error or a leak\n");
		check_state.failed++;
	}
	return check_summary();
}
