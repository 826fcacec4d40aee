/* SPDX-License-Identifier: MIT */
/*
 * The SIR passes (compiler/ir/sir_passes.h) on hand-built functions: each
 * pass's effect on the IR, the launch ABI layout, and the lowerings run by
 * a small SIR interpreter and compared with the host's C arithmetic
 * (integer division and remainder at every width, high multiplication,
 * fmaf bit for bit, division within 2.5 ulp, wide vectors).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../binary/slb_binary.h"
#include "check.h"
#include "float_bits.h"
#include "sir.h"
#include "sir_eval.h"
#include "sir_passes.h"
#include "xorshift.h"

CHECK_MAIN_STATE("compiler_sir_passes");

/* ---- Building ----------------------------------------------------- */

static struct sir_type ity(unsigned int bits, unsigned int comps)
{
	return sir_type_make(SIR_INT, bits, comps);
}

static struct sir_type fty(unsigned int bits, unsigned int comps)
{
	return sir_type_make(SIR_FLOAT, bits, comps);
}

static struct sir_type bty(unsigned int comps)
{
	return sir_type_make(SIR_BOOL, 1, comps);
}

static const struct sir_type void_t = { SIR_VOID, 0, 0, 0 };

static sir_id uni(struct sir_function *f, struct sir_type t, uint32_t off)
{
	sir_id v = sir_value_new(f, SIR_OP_UNIFORM, t, NULL, 0);

	f->values[v].aux = off;
	return v;
}

static sir_id op1(struct sir_function *f, uint32_t b, enum sir_op op,
		  struct sir_type t, sir_id x)
{
	return sir_emit(f, b, op, t, &x, 1);
}

static sir_id op2(struct sir_function *f, uint32_t b, enum sir_op op,
		  struct sir_type t, sir_id x, sir_id y)
{
	sir_id s[2] = { x, y };

	return sir_emit(f, b, op, t, s, 2);
}

static sir_id op3(struct sir_function *f, uint32_t b, enum sir_op op,
		  struct sir_type t, sir_id x, sir_id y, sir_id z)
{
	sir_id s[3] = { x, y, z };

	return sir_emit(f, b, op, t, s, 3);
}

static void ret(struct sir_function *f, uint32_t b, sir_id v)
{
	sir_emit(f, b, SIR_OP_RET, void_t, &v, v ? 1 : 0);
}

static void br(struct sir_function *f, uint32_t b, uint32_t target)
{
	sir_id v = sir_emit(f, b, SIR_OP_BR, void_t, NULL, 0);

	f->values[v].targets[0] = target;
}

static void cbr(struct sir_function *f, uint32_t b, sir_id c, uint32_t t,
		uint32_t e)
{
	sir_id v = sir_emit(f, b, SIR_OP_CBR, void_t, &c, 1);

	f->values[v].targets[0] = t;
	f->values[v].targets[1] = e;
}

static bool verify(struct sir_function *f)
{
	char err[256];

	if (sir_verify(f, err, sizeof(err)))
		return true;
	printf("  verify: %s\n", err);
	sir_print_function(stdout, f);
	return false;
}

static uint32_t count_op(const struct sir_function *f, enum sir_op op)
{
	uint32_t b, i, n = 0;

	for (b = 0; b < f->num_blocks; b++)
		for (i = 0; i < f->blocks[b].num_instrs; i++)
			n += f->values[f->blocks[b].instrs[i]].op == op;
	return n;
}

static uint32_t count_instrs(const struct sir_function *f)
{
	uint32_t b, n = 0;

	for (b = 0; b < f->num_blocks; b++)
		n += f->blocks[b].num_instrs;
	return n;
}

/* ---- The interpreter --------------------------------------------- */

enum rcp_model {
	RCP_TRUNC,                   /* the GPU model: toward zero */
	RCP_NEAREST,                 /* correctly rounded */
	RCP_LOW,                     /* one ulp below the truncated value */
};

static enum rcp_model rcp_model;

/* Lanes of value v read from the argument image or private memory. */
static void read_lanes(struct sir_type t, const uint8_t *p, uint64_t *out)
{
	unsigned int i, k, sz = t.kind == SIR_BOOL ? 4 : t.bits / 8;

	for (i = 0; i < t.comps; i++) {
		out[i] = 0;
		for (k = 0; k < sz; k++)
			out[i] |= (uint64_t)p[i * sz + k] << (8 * k);
	}
}

static void write_lanes(struct sir_type t, uint8_t *p, const uint64_t *in)
{
	unsigned int i, k, sz = t.kind == SIR_BOOL ? 4 : t.bits / 8;

	for (i = 0; i < t.comps; i++)
		for (k = 0; k < sz; k++)
			p[i * sz + k] = (uint8_t)(in[i] >> (8 * k));
}

static uint32_t frcp_lane(uint32_t x)
{
	float v, r;
	uint32_t u;

	memcpy(&v, &x, 4);
	r = (float)(1.0 / (double)v);
	memcpy(&u, &r, 4);
	if (rcp_model == RCP_NEAREST || !isfinite(r) || r == 0)
		return u;
	if (fabs((double)r) > fabs(1.0 / (double)v))
		u--;
	if (rcp_model == RCP_LOW && (u & 0x7fffffff) > 1)
		u--;
	return u;
}

#define MEM_BYTES 1024

static uint8_t last_mem[MEM_BYTES];  /* private memory after run() */

struct machine {
	const uint8_t *image;        /* argument image */
	uint8_t mem[MEM_BYTES];      /* every pointer is an offset here */
	uint64_t (*val)[16];
};

static const uint64_t *lanes(struct machine *m, struct sir_function *f,
			     sir_id v)
{
	const struct sir_instr *in = &f->values[v];

	if (in->block == UINT32_MAX) {
		if (in->op == SIR_OP_CONST)
			return in->imm.u64;
		memset(m->val[v], 0, sizeof(m->val[v]));
		if (in->op == SIR_OP_UNIFORM)
			read_lanes(in->type, m->image + in->aux, m->val[v]);
		if (in->op == SIR_OP_VAR_ADDR)   /* variables from 512 on */
			m->val[v][0] = 512 + 64 * in->aux;
	}
	return m->val[v];
}

/* Runs f; its RET value in out. False on a step limit or an unknown op. */
static bool run(struct sir_function *f, const uint8_t *image, uint64_t *out)
{
	static struct machine m;
	uint32_t b = 0, prev = UINT32_MAX, i, s, steps = 0;
	bool ok = false;

	m.image = image;
	m.val = calloc(f->num_values, sizeof(*m.val));
	while (steps < 1000000) {
		const struct sir_block *blk = &f->blocks[b];
		uint64_t phi_in[64][16];
		uint32_t nphi = 0;

		/* Phis read their sources together. */
		for (i = 0; i < blk->num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[blk->instrs[i]];

			if (in->op != SIR_OP_PHI)
				break;
			for (s = 0; s < in->num_srcs; s++)
				if (in->phi_blocks[s] == prev)
					memcpy(phi_in[nphi],
					       lanes(&m, f, in->srcs[s]),
					       sizeof(phi_in[0]));
			nphi++;
		}
		for (i = 0; i < nphi; i++)
			memcpy(m.val[blk->instrs[i]], phi_in[i],
			       sizeof(phi_in[0]));
		for (i = nphi; i < blk->num_instrs; i++) {
			sir_id v = blk->instrs[i];
			const struct sir_instr *in = &f->values[v];
			const uint64_t *src[16] = { NULL };

			steps++;
			if (in->num_srcs > 16)
				goto done;
			for (s = 0; s < in->num_srcs; s++)
				src[s] = lanes(&m, f, in->srcs[s]);
			switch (in->op) {
			case SIR_OP_BR:
				prev = b;
				b = in->targets[0];
				goto next_block;
			case SIR_OP_CBR:
				prev = b;
				b = in->targets[src[0][0] ? 0 : 1];
				goto next_block;
			case SIR_OP_RET:
				if (in->num_srcs)
					memcpy(out, src[0], 16 * sizeof(*out));
				ok = true;
				goto done;
			case SIR_OP_LOAD:
				if (src[0][0] + 128 > MEM_BYTES)
					goto done;
				read_lanes(in->type, m.mem + src[0][0], m.val[v]);
				break;
			case SIR_OP_STORE:
				if (src[0][0] + 128 > MEM_BYTES)
					goto done;
				write_lanes(f->values[in->srcs[1]].type,
					    m.mem + src[0][0], src[1]);
				break;
			case SIR_OP_PTR_ADD:
				m.val[v][0] = (uint32_t)(src[0][0] + src[1][0]);
				break;
			case SIR_OP_FRCP:
				if (in->type.bits != 32)
					goto done;
				for (s = 0; s < in->type.comps; s++)
					m.val[v][s] = frcp_lane(
						(uint32_t)src[0][s]);
				break;
			default:
				if (!sir_eval_instr(f, in, src, m.val[v],
						    SIR_EVAL_MODEL)) {
					printf("  cannot run %s\n",
					       sir_op_name((enum sir_op)in->op));
					goto done;
				}
			}
		}
		break;
next_block:
		continue;
	}
done:
	memcpy(last_mem, m.mem, sizeof(last_mem));
	free(m.val);
	return ok;
}

/* ---- Random numbers (xorshift, fixed seeds) ----------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	return xorshift64(&rng_state);
}

/* Mostly random bits, sometimes an edge value of the width. */
static uint64_t rnd_int(unsigned int bits)
{
	static const uint64_t edge[] = { 0, 1, 2, 3, 7, 10, ~0ull, ~1ull,
					 ~2ull };
	uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
	uint64_t r = rnd(), k = r % 16;

	if (k == 0)
		return edge[(r >> 8) % 9] & m;
	if (k == 1)
		return (1ull << (bits - 1)) & m;           /* INT_MIN */
	if (k == 2)
		return ((1ull << (bits - 1)) - 1) & m;     /* INT_MAX */
	if (k == 3)
		return (1ull << ((r >> 8) % bits)) & m;    /* powers of two */
	if (k == 4)
		return ((1ull << ((r >> 8) % bits)) - 1) & m;
	if (k < 8)                   /* small magnitudes, both signs */
		return (rnd() % 1000 - ((r >> 8) & 1 ? 500 : 0)) & m;
	return (rnd() >> ((r >> 8) % bits)) & m;  /* spread magnitudes */
}

/* ---- Integer division and high multiplication --------------------- */

static int64_t sx(uint64_t v, unsigned int bits)
{
	return bits == 64 ? (int64_t)v :
	       (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* The host's answer; false when undefined (x / 0). */
static bool host_int(enum sir_op op, unsigned int bits, uint64_t a,
		     uint64_t b, uint64_t *r)
{
	uint64_t m = bits == 64 ? ~0ull : (1ull << bits) - 1;
	int64_t sa = sx(a, bits), sb = sx(b, bits);
	bool min_neg1 = sb == -1 && (uint64_t)sa == (1ull << (bits - 1)) -
		(bits == 64 ? 0 : (1ull << bits));

	if (bits == 64)
		min_neg1 = sb == -1 && sa == INT64_MIN;
	if ((op == SIR_OP_UDIV || op == SIR_OP_UREM || op == SIR_OP_SDIV ||
	     op == SIR_OP_SREM || op == SIR_OP_SMOD) && (b & m) == 0)
		return false;
	switch (op) {
	case SIR_OP_UDIV: *r = (a & m) / (b & m); break;
	case SIR_OP_UREM: *r = (a & m) % (b & m); break;
	case SIR_OP_SDIV: *r = min_neg1 ? (uint64_t)sa : (uint64_t)(sa / sb);
		break;
	case SIR_OP_SREM: *r = min_neg1 ? 0 : (uint64_t)(sa % sb); break;
	case SIR_OP_SMOD: {
		int64_t rem = min_neg1 ? 0 : sa % sb;

		if (rem && ((rem < 0) != (sb < 0)))
			rem += sb;
		*r = (uint64_t)rem;
		break;
	}
	case SIR_OP_UMULHI:
		*r = bits == 64 ?
		     (uint64_t)(((unsigned __int128)a * b) >> 64) :
		     ((a & m) * (b & m)) >> bits;
		break;
	case SIR_OP_SMULHI:
		*r = bits == 64 ? (uint64_t)(((__int128)sa * sb) >> 64) :
		     (uint64_t)((sa * sb) >> bits);
		break;
	default:
		return false;
	}
	*r &= m;
	return true;
}

/* f(a, b) = op(a, b) on uniforms at 0 and 16, lowered. */
static struct sir_function *binary_fn(struct sir_module *mod, enum sir_op op,
				      struct sir_type t)
{
	struct sir_function *f = sir_function_create(mod, sir_op_name(op));
	uint32_t b = sir_block_add(f);
	char err[256];

	f->ret = t;
	ret(f, b, op2(f, b, op, t, uni(f, t, 0), uni(f, t, 16)));
	if (!sir_lower_midgard(f, false, err, sizeof(err)))
		printf("  lower: %s\n", err);
	return f;
}

static bool lowered_only(const struct sir_function *f)
{
	static const enum sir_op gone[] = {
		SIR_OP_UDIV, SIR_OP_SDIV, SIR_OP_UREM, SIR_OP_SREM,
		SIR_OP_SMOD, SIR_OP_UMULHI, SIR_OP_SMULHI, SIR_OP_FDIV,
		SIR_OP_FMA, SIR_OP_FMAD, SIR_OP_FCOPYSIGN, SIR_OP_FUNORD,
	};
	unsigned int i;

	for (i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		if (count_op(f, gone[i]))
			return false;
	return true;
}

/* Runs f on (a, b); compares with the host; counts mismatches. */
static unsigned int check_int_case(struct sir_function *f, enum sir_op op,
				   unsigned int bits, uint64_t a, uint64_t b)
{
	uint8_t image[32] = { 0 };
	uint64_t out[16] = { 0 }, want;
	struct sir_type t = ity(bits, 1);
	bool defined = host_int(op, bits, a, b, &want);

	write_lanes(t, image, &a);
	write_lanes(t, image + 16, &b);
	if (!run(f, image, out))
		return 1;                /* must run even for x / 0 */
	if (defined && out[0] != want) {
		printf("  %s i%u: %#llx, %#llx -> %#llx, want %#llx\n",
		       sir_op_name(op), bits, (unsigned long long)a,
		       (unsigned long long)b, (unsigned long long)out[0],
		       (unsigned long long)want);
		return 1;
	}
	return 0;
}

static const enum sir_op div_ops[] = {
	SIR_OP_UDIV, SIR_OP_UREM, SIR_OP_SDIV, SIR_OP_SREM, SIR_OP_SMOD,
};

TEST(div_8bit_exhaustive)
{
	unsigned int o, a, b, bad = 0, cases = 0;

	for (o = 0; o < 5; o++) {
		struct sir_module *mod = sir_module_create();
		struct sir_function *f = binary_fn(mod, div_ops[o], ity(8, 1));

		CHECK(verify(f));
		CHECK(lowered_only(f));
		for (a = 0; a < 256; a++)
			for (b = 0; b < 256; b++, cases++)
				bad += check_int_case(f, div_ops[o], 8, a, b);
		sir_module_destroy(mod);
	}
	printf("  %u cases, %u wrong\n", cases, bad);
	CHECK_EQ(bad, 0u);
}

static void random_int_cases(enum sir_op op, unsigned int bits,
			     unsigned int n, unsigned int *bad)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = binary_fn(mod, op, ity(bits, 1));
	unsigned int i;

	CHECK(verify(f));
	CHECK(lowered_only(f));
	for (i = 0; i < n && *bad < 10; i++)
		*bad += check_int_case(f, op, bits, rnd_int(bits),
				       rnd_int(bits));
	sir_module_destroy(mod);
}

TEST(div_16_32bit_random)
{
	unsigned int o, bad = 0;

	for (o = 0; o < 5; o++) {
		random_int_cases(div_ops[o], 16, 20000, &bad);
		random_int_cases(div_ops[o], 32, 100000, &bad);
	}
	printf("  16-bit 5 x 20000, 32-bit 5 x 100000 cases, %u wrong\n",
	       bad);
	CHECK_EQ(bad, 0u);
}

TEST(div_32bit_rcp_variants)
{
	/* The scheme must not depend on how frcp rounds within an ulp. */
	unsigned int bad = 0;

	rcp_model = RCP_NEAREST;
	random_int_cases(SIR_OP_UDIV, 32, 15000, &bad);
	random_int_cases(SIR_OP_UREM, 32, 15000, &bad);
	rcp_model = RCP_LOW;
	random_int_cases(SIR_OP_UDIV, 32, 15000, &bad);
	random_int_cases(SIR_OP_SREM, 32, 15000, &bad);
	rcp_model = RCP_TRUNC;
	CHECK_EQ(bad, 0u);
}

TEST(div_64bit_random)
{
	unsigned int o, bad = 0;

	random_int_cases(SIR_OP_UDIV, 64, 40000, &bad);
	for (o = 1; o < 5; o++)
		random_int_cases(div_ops[o], 64, 10000, &bad);
	printf("  udiv 40000, others 4 x 10000 cases, %u wrong\n", bad);
	CHECK_EQ(bad, 0u);
}

TEST(mulhi_random)
{
	unsigned int bits, bad = 0;

	for (bits = 8; bits <= 64; bits *= 2) {
		random_int_cases(SIR_OP_UMULHI, bits, 30000, &bad);
		random_int_cases(SIR_OP_SMULHI, bits, 30000, &bad);
	}
	CHECK_EQ(bad, 0u);
}

TEST(div_vector)
{
	/* int4 division: the same routine lane-wise. */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = binary_fn(mod, SIR_OP_SDIV, ity(32, 4));
	uint8_t image[32];
	uint64_t a[4], b[4], out[16], want;
	unsigned int i, k, bad = 0;

	CHECK(verify(f));
	for (i = 0; i < 5000 && bad < 10; i++) {
		for (k = 0; k < 4; k++) {
			a[k] = rnd_int(32);
			b[k] = rnd_int(32);
		}
		write_lanes(ity(32, 4), image, a);
		write_lanes(ity(32, 4), image + 16, b);
		if (!run(f, image, out)) {
			bad++;
			continue;
		}
		for (k = 0; k < 4; k++)
			if (host_int(SIR_OP_SDIV, 32, a[k], b[k], &want) &&
			    out[k] != want)
				bad++;
	}
	sir_module_destroy(mod);
	CHECK_EQ(bad, 0u);
}

/* ---- Floats ------------------------------------------------------- */

static struct sir_function *fma_fn(struct sir_module *mod)
{
	struct sir_function *f = sir_function_create(mod, "fma");
	uint32_t b = sir_block_add(f);
	struct sir_type t = fty(32, 1);
	char err[256];

	f->ret = t;
	ret(f, b, op3(f, b, SIR_OP_FMA, t, uni(f, t, 0), uni(f, t, 4),
		      uni(f, t, 8)));
	CHECK(sir_lower_midgard(f, false, err, sizeof(err)));
	return f;
}

/* Random float bits shaped to hit every part of fma. */
static uint32_t rnd_float(void)
{
	static const uint32_t special[] = {
		0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 1,
		0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff, 0xff7fffff,
		0x3f800000, 0xbf800000, 0x33800000, 0x0c000000,
	};
	uint64_t r = rnd();

	switch (r % 8) {
	case 0:
		return special[(r >> 8) % 15];
	case 1:                      /* denormals and tiny normals */
		return (uint32_t)(r >> 16) & 0x80ffffff;
	case 2:
	case 3:                      /* modest exponents */
		return ((uint32_t)(r >> 16) & 0x807fffff) |
		       (uint32_t)(100 + (r >> 50) % 56) << 23;
	default:
		return (uint32_t)(r >> 20);
	}
}

static bool same_float(uint32_t a, uint32_t b)
{
	return a == b || (isnan(bitsf(a)) && isnan(bitsf(b)));
}

TEST(fma_exact)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = fma_fn(mod);
	unsigned int i, bad = 0, n = 1000000;
	uint8_t image[16];
	uint64_t out[16];

	CHECK(verify(f));
	CHECK(lowered_only(f));
	for (i = 0; i < n && bad < 10; i++) {
		uint32_t a = rnd_float(), b = rnd_float(), c, want;

		if (i % 4 == 0) {
			/* c close to -a*b: massive cancellation. */
			c = fbits(-(bitsf(a) * bitsf(b))) ^
			    (uint32_t)(rnd() % 3);
		} else if (i % 4 == 1) {
			/* c near a*b's magnitude or tiny against it. */
			c = (fbits(bitsf(a) * bitsf(b)) &
			     0xff800000) | ((uint32_t)rnd() & 0x7fffff);
			if (rnd() & 1)
				c -= (uint32_t)(rnd() % 40) << 23;
		} else {
			c = rnd_float();
		}
		memcpy(image, &a, 4);
		memcpy(image + 4, &b, 4);
		memcpy(image + 8, &c, 4);
		want = fbits(fmaf(bitsf(a), bitsf(b), bitsf(c)));
		if (!run(f, image, out) || !same_float((uint32_t)out[0], want)) {
			printf("  fma(%#x, %#x, %#x) = %#x, want %#x\n", a, b,
			       c, (uint32_t)out[0], want);
			bad++;
		}
	}
	printf("  %u cases, %u wrong\n", i, bad);
	CHECK_EQ(bad, 0u);
	sir_module_destroy(mod);
}

/* Error of got against the exact x / y in ulps of the float format. */
static double ulp_error(float got, double exact)
{
	int e;
	double ulp;

	if (isnan(exact))
		return isnan(got) ? 0 : 1e9;
	if (isinf(exact) || fabs(exact) >= 0x1.fffffep127 + 0x1p103)
		return got == (float)exact ? 0 : 1e9;
	frexp(exact, &e);            /* exact = m * 2^e, m in [0.5, 1) */
	ulp = ldexp(1.0, (e - 24 < -149 ? -149 : e - 24));
	return fabs((double)got - exact) / ulp;
}

static void check_fdiv(bool fast, unsigned int n, double limit,
		       double *worst, unsigned int *bad)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "fdiv");
	uint32_t b = sir_block_add(f);
	struct sir_type t = fty(32, 1);
	uint8_t image[16];
	uint64_t out[16];
	char err[256];
	unsigned int i;

	f->ret = t;
	ret(f, b, op2(f, b, SIR_OP_FDIV, t, uni(f, t, 0), uni(f, t, 4)));
	CHECK(sir_lower_midgard(f, fast, err, sizeof(err)));
	CHECK(verify(f));
	for (i = 0; i < n && *bad < 10; i++) {
		uint32_t x = rnd_float(), y = rnd_float();
		double exact = (double)bitsf(x) / (double)bitsf(y), e;

		if (fast && (fabs(exact) < 0x1p-126 || fabs(exact) > 0x1p126 ||
			     fabs(bitsf(y)) > 0x1p126 ||
			     fabs(bitsf(y)) < 0x1p-126 ||
			     !isfinite(bitsf(x)) || !isfinite(bitsf(y))))
			continue;    /* fast_math: normal range only */
		memcpy(image, &x, 4);
		memcpy(image + 4, &y, 4);
		if (!run(f, image, out)) {
			(*bad)++;
			continue;
		}
		e = ulp_error(bitsf((uint32_t)out[0]), exact);
		if (e > *worst)
			*worst = e;
		if (e > limit) {
			printf("  %a / %a = %a (%.2f ulp)\n", bitsf(x),
			       bitsf(y), bitsf((uint32_t)out[0]), e);
			(*bad)++;
		}
	}
	sir_module_destroy(mod);
}

TEST(fdiv_within_2_5_ulp)
{
	double worst = 0;
	unsigned int bad = 0;

	check_fdiv(false, 150000, 2.5, &worst, &bad);
	printf("  150000 cases, worst %.3f ulp, %u over 2.5\n", worst, bad);
	CHECK_EQ(bad, 0u);
	worst = 0;
	rcp_model = RCP_LOW;
	check_fdiv(false, 30000, 2.5, &worst, &bad);
	rcp_model = RCP_TRUNC;
	printf("  rcp one ulp low: worst %.3f ulp\n", worst);
	CHECK_EQ(bad, 0u);
	worst = 0;
	check_fdiv(true, 30000, 3.0, &worst, &bad);
	printf("  fast_math: worst %.3f ulp\n", worst);
	CHECK_EQ(bad, 0u);
}

TEST(float_small_lowerings)
{
	/* fmad, copysign and funord against the host. */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "small");
	uint32_t b = sir_block_add(f);
	struct sir_type t = fty(32, 1);
	sir_id x = uni(f, t, 0), y = uni(f, t, 4), z = uni(f, t, 8), r, u;
	uint8_t image[16];
	uint64_t out[16];
	char err[256];
	unsigned int i, bad = 0;

	f->ret = ity(32, 4);
	r = op3(f, b, SIR_OP_FMAD, t, x, y, z);
	u = op2(f, b, SIR_OP_FUNORD, bty(1), x, y);
	{
		sir_id s[4] = {
			op1(f, b, SIR_OP_BITCAST, ity(32, 1), r),
			op1(f, b, SIR_OP_BITCAST, ity(32, 1),
			    op2(f, b, SIR_OP_FCOPYSIGN, t, x, y)),
			op3(f, b, SIR_OP_SELECT, ity(32, 1), u,
			    sir_const_u64(f, ity(32, 1), 1),
			    sir_const_u64(f, ity(32, 1), 0)),
			sir_const_u64(f, ity(32, 1), 0),
		};

		ret(f, b, sir_emit(f, b, SIR_OP_VEC, ity(32, 4), s, 4));
	}
	CHECK(sir_lower_midgard(f, false, err, sizeof(err)));
	CHECK(verify(f));
	CHECK(lowered_only(f));
	for (i = 0; i < 20000; i++) {
		float a = bitsf(rnd_float()), c = bitsf(rnd_float());
		float d = bitsf(rnd_float());
		volatile float p = a * c;

		memcpy(image, &a, 4);
		memcpy(image + 4, &c, 4);
		memcpy(image + 8, &d, 4);
		if (!run(f, image, out)) {
			bad++;
			continue;
		}
		bad += !same_float((uint32_t)out[0], fbits(p + d));
		bad += (uint32_t)out[1] != fbits(copysignf(a, c));
		bad += out[2] != (uint64_t)(isnan(a) || isnan(c));
	}
	CHECK_EQ(bad, 0u);
	sir_module_destroy(mod);
}

/* ---- fp16 arithmetic (sir_lower_half.c) --------------------------- */

/* Random half bits: specials, denormals, near-overflow and any. */
static uint16_t rnd_half(void)
{
	static const uint16_t special[] = {
		0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8001, 0x03ff,
		0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3c01, 0x1400,
	};
	uint64_t r = rnd();

	switch (r % 6) {
	case 0:
		return special[(r >> 8) % 15];
	case 1:                      /* near 1, so sums and products tie */
		return (uint16_t)(((r >> 16) & 0x83ff) | (13 + (r >> 40) % 5)
							 << 10);
	default:
		return (uint16_t)(r >> 24);
	}
}

/* A finite half as an integer count of 2^-24. */
static __int128 half_units(uint16_t h)
{
	int e = (h >> 10) & 0x1f;
	__int128 m = h & 0x3ff;

	if (e)
		m = (m | 0x400) << (e - 1);
	return (h & 0x8000) ? -m : m;
}

/* The half nearest x * 2^-48 (ties to even), x exact. */
static uint16_t half_of_units48(__int128 x)
{
	__int128 a = x < 0 ? -x : x, best_d = -1;
	uint16_t sign = x < 0 ? 0x8000 : 0, best = 0, h;

	if (a >= (__int128)65520 << 48)
		return sign | 0x7c00;
	h = sir_double_to_half(ldexp((double)a, -48));
	for (int k = -1; k <= 1; k++) {
		uint16_t c = (uint16_t)(h + k);
		__int128 d;

		if (c > 0x7bff)
			continue;
		d = a - (half_units(c) << 24);
		d = d < 0 ? -d : d;
		if (best_d < 0 || d < best_d ||
		    (d == best_d && !(c & 1))) {
			best_d = d;
			best = c;
		}
	}
	return sign | best;
}

/* fma of halves correctly rounded: the exact sum in 2^-48 units. */
static uint16_t half_fma_ref(uint16_t a, uint16_t b, uint16_t c)
{
	double x = sir_half_to_double(a), y = sir_half_to_double(b);
	double z = sir_half_to_double(c);
	__int128 s;

	if (!isfinite(x) || !isfinite(y) || !isfinite(z))
		return sir_double_to_half(x * y + z);
	s = half_units(a) * half_units(b) + half_units(c) * ((__int128)1 << 24);
	if (s == 0)                  /* exact zero: -0 only from -0 + -0 */
		return signbit(x * y) && signbit(z) ? 0x8000 : 0;
	return half_of_units48(s);
}

static bool same_half(uint16_t a, uint16_t b)
{
	return a == b || ((a & 0x7fff) > 0x7c00 && (b & 0x7fff) > 0x7c00);
}

/* f(uniforms at 0, 16, 32) = op, with result type rt, lowered. */
static struct sir_function *half_fn(struct sir_module *mod, enum sir_op op,
				    struct sir_type rt, struct sir_type st,
				    unsigned int nsrc, uint32_t aux)
{
	struct sir_function *f = sir_function_create(mod, sir_op_name(op));
	uint32_t b = sir_block_add(f);
	sir_id s[3] = { uni(f, st, 0), uni(f, st, 16), uni(f, st, 32) }, v;
	char err[256];

	f->ret = rt;
	v = sir_emit(f, b, op, rt, s, nsrc);
	f->values[v].aux = aux;
	ret(f, b, v);
	CHECK(sir_lower_midgard(f, false, err, sizeof(err)));
	CHECK(verify(f));
	CHECK(lowered_only(f));
	return f;
}

/* No float op left reading a half: only moves and conversions. */
static bool no_half_arithmetic(const struct sir_function *f)
{
	for (uint32_t b = 0; b < f->num_blocks; b++) {
		for (uint32_t i = 0; i < f->blocks[b].num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[f->blocks[b].instrs[i]];
			bool half = in->type.kind == SIR_FLOAT &&
				    in->type.bits == 16;

			if (in->num_srcs && f->values[in->srcs[0]].type.kind ==
			    SIR_FLOAT && f->values[in->srcs[0]].type.bits == 16)
				half = true;
			if (half && in->op != SIR_OP_FCONV &&
			    in->op != SIR_OP_BITCAST && in->op != SIR_OP_RET &&
			    in->op != SIR_OP_COPY)
				return false;
		}
	}
	return true;
}

/* An op of kind op on halves (its result or first source) is left. */
static bool keeps_half_op(const struct sir_function *f, enum sir_op op)
{
	for (uint32_t b = 0; b < f->num_blocks; b++) {
		for (uint32_t i = 0; i < f->blocks[b].num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[f->blocks[b].instrs[i]];
			struct sir_type t = in->num_srcs ?
				f->values[in->srcs[0]].type : in->type;
			bool half = (in->type.kind == SIR_FLOAT &&
				     in->type.bits == 16) ||
				    (t.kind == SIR_FLOAT && t.bits == 16);

			if (in->op == op && half)
				return true;
		}
	}
	return false;
}

/*
 * Half add, sub, mul, sqrt, min, max, fma, comparisons and conversions
 * as the lowering leaves them, against the exact result rounded once:
 * the correctly rounded half. sqrt and fma are computed in fp32 by the
 * lowering (no 16-bit form); the others stay half ops for the back end's
 * 16-bit lanes, evaluated here by SIR's own semantics (sir_eval.c).
 */
TEST(half_arithmetic_rounded_once)
{
	static const enum sir_op binops[] = {
		SIR_OP_FADD, SIR_OP_FSUB, SIR_OP_FMUL, SIR_OP_FMIN, SIR_OP_FMAX,
		SIR_OP_FSQRT, SIR_OP_FMA, SIR_OP_FLT, SIR_OP_F2S, SIR_OP_S2F,
	};
	struct sir_type h = fty(16, 1);
	unsigned int bad = 0, cases = 0;

	for (unsigned int k = 0; k < sizeof(binops) / sizeof(binops[0]); k++) {
		enum sir_op op = binops[k];
		struct sir_module *mod = sir_module_create();
		struct sir_type rt = op == SIR_OP_FLT ? bty(1) :
				     op == SIR_OP_F2S ? ity(32, 1) : h;
		unsigned int nsrc = op == SIR_OP_FMA ? 3 :
				    op == SIR_OP_FSQRT || op == SIR_OP_F2S ||
				    op == SIR_OP_S2F ? 1 : 2;
		struct sir_function *f = half_fn(mod, op, rt,
						 op == SIR_OP_S2F ? ity(32, 1) :
						 h, nsrc, SIR_CONV_RTE);
		unsigned int n = op == SIR_OP_FMA ? 1000000 : 200000;

		if (op == SIR_OP_FSQRT || op == SIR_OP_FMA)
			CHECK(no_half_arithmetic(f));
		else
			CHECK(keeps_half_op(f, op));
		for (unsigned int i = 0; i < n && bad < 10; i++) {
			uint16_t a = rnd_half(), b = rnd_half(), c = rnd_half();
			double x = sir_half_to_double(a);
			double y = sir_half_to_double(b);
			uint8_t image[48] = { 0 };
			uint64_t out[16] = { 0 }, want;
			int32_t iv = (int32_t)(rnd() % 140000) - 70000;
			bool ok;

			if (op == SIR_OP_FMA && i % 2) {
				/* c near -a*b: the sum's low bits matter. */
				c = sir_double_to_half(-x * y);
				c = (uint16_t)(c + (int)(rnd() % 5) - 2);
			}
			if (op == SIR_OP_S2F)
				memcpy(image, &iv, 4);
			else
				memcpy(image, &a, 2);
			memcpy(image + 16, &b, 2);
			memcpy(image + 32, &c, 2);
			switch (op) {
			case SIR_OP_FADD: want = sir_double_to_half(x + y); break;
			case SIR_OP_FSUB: want = sir_double_to_half(x - y); break;
			case SIR_OP_FMUL: want = sir_double_to_half(x * y); break;
			case SIR_OP_FMIN: want = sir_double_to_half(fmin(x, y)); break;
			case SIR_OP_FMAX: want = sir_double_to_half(fmax(x, y)); break;
			case SIR_OP_FSQRT: want = sir_double_to_half(sqrt(x)); break;
			case SIR_OP_FMA: want = half_fma_ref(a, b, c); break;
			case SIR_OP_FLT: want = x < y; break;
			case SIR_OP_F2S:
				if (!(fabs(x) < 2147483648.0))
					continue;     /* undefined */
				want = (uint32_t)(int32_t)trunc(x);
				break;
			default: want = sir_double_to_half(iv); break;
			}
			cases++;
			if (!run(f, image, out)) {
				bad++;
				continue;
			}
			ok = rt.kind == SIR_FLOAT ?
			     same_half((uint16_t)out[0], (uint16_t)want) ||
			     ((op == SIR_OP_FMIN || op == SIR_OP_FMAX) &&
			      !((out[0] | want) & 0x7fff)) :
			     (out[0] & 0xffffffff) == want;
			if (!ok) {
				printf("  %s(%#x, %#x, %#x) = %#llx, want %#llx\n",
				       sir_op_name(op), op == SIR_OP_S2F ?
				       (unsigned int)iv : a, b, c,
				       (unsigned long long)out[0],
				       (unsigned long long)want);
				bad++;
			}
		}
		sir_module_destroy(mod);
	}
	printf("  %u cases, %u wrong\n", cases, bad);
	CHECK_EQ(bad, 0u);
}

TEST(double_rejected)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "dbl");
	uint32_t b = sir_block_add(f);
	struct sir_type t = fty(64, 1);
	char err[256] = "";

	/* native_sin has no double form: nothing lowers it. */
	f->ret = t;
	ret(f, b, op1(f, b, SIR_OP_FSIN, t, uni(f, t, 0)));
	CHECK(!sir_lower_midgard(f, false, err, sizeof(err)));
	CHECK(strstr(err, "on double is not supported") != NULL);
	sir_module_destroy(mod);
}

/* ---- Wide vectors ------------------------------------------------- */

/*
 * short8 and char16 values and their bool8 / bool16 masks, kept whole in
 * 16- and 8-bit lanes (sir_lower_packed.c).
 */
static bool is_packed(struct sir_type t)
{
	if (t.kind == SIR_BOOL)
		return t.comps == 8 || t.comps == 16;
	return t.kind == SIR_INT && ((t.bits == 16 && t.comps == 8) ||
				     (t.bits == 8 && t.comps == 16));
}

/*
 * Bits a value takes in registers: bool, 8- and 16-bit lanes take 32,
 * except in packed values and masks (one register).
 */
static unsigned int reg_bits(struct sir_type t)
{
	if (is_packed(t))
		return 128;
	return (t.kind == SIR_BOOL || t.bits < 32 ? 32u : t.bits) * t.comps;
}

/* No value is wider than a 128-bit register. */
static bool all_narrow(const struct sir_function *f)
{
	uint32_t b, i, s;

	for (b = 0; b < f->num_blocks; b++) {
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[f->blocks[b].instrs[i]];
			struct sir_type t = in->type;

			if (t.kind != SIR_VOID && reg_bits(t) > 128)
				return false;
			for (s = 0; s < in->num_srcs; s++)
				if (reg_bits(f->values[in->srcs[s]].type) > 128)
					return false;
		}
	}
	return true;
}

TEST(wide_split)
{
	/*
	 * long8 a (image 0), long8 b (image 64): stores a + b at 0 and
	 * sext(int8(a) < int8(b)) as long8 at 64, then returns
	 * any(a == b) and the lanes 3, 9 of a shuffle.
	 */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "wide");
	uint32_t b = sir_block_add(f);
	struct sir_type l8 = ity(64, 8), i8 = ity(32, 8);
	struct sir_type ptr = sir_type_ptr(SIR_SPACE_PRIVATE);
	sir_id a = uni(f, l8, 0), c = uni(f, l8, 64), sum, lt, sh, any;
	sir_id p0 = sir_const_u64(f, ptr, 0), p64 = sir_const_u64(f, ptr, 64);
	uint8_t image[128];
	uint64_t av[8], cv[8], out[16];
	char err[256];
	unsigned int k, trial, bad = 0;

	f->ret = ity(64, 2);
	sum = op2(f, b, SIR_OP_IADD, l8, a, c);
	op2(f, b, SIR_OP_STORE, void_t, p0, sum);
	lt = op2(f, b, SIR_OP_SLT, bty(8), op1(f, b, SIR_OP_TRUNC, i8, a),
		 op1(f, b, SIR_OP_TRUNC, i8, c));
	op2(f, b, SIR_OP_STORE, void_t, p64,
	    op3(f, b, SIR_OP_SELECT, l8, lt, sir_const_u64(f, l8, ~0ull),
		sir_const_u64(f, l8, 0)));
	any = op1(f, b, SIR_OP_ANY, bty(1), op2(f, b, SIR_OP_IEQ, bty(8), a, c));
	sh = op2(f, b, SIR_OP_SHUFFLE, ity(64, 2), a, c);
	f->values[sh].imm.u64[0] = 3;
	f->values[sh].imm.u64[1] = 9;
	sh = op2(f, b, SIR_OP_INSERT, ity(64, 2), sh,
		 op3(f, b, SIR_OP_SELECT, ity(64, 1), any,
		     sir_const_u64(f, ity(64, 1), 1),
		     sir_const_u64(f, ity(64, 1), 0)));
	f->values[sh].aux = 1;
	ret(f, b, sh);
	CHECK(verify(f));
	CHECK(sir_lower_midgard(f, false, err, sizeof(err)));
	CHECK(verify(f));
	CHECK(all_narrow(f));
	for (trial = 0; trial < 200; trial++) {
		for (k = 0; k < 8; k++) {
			av[k] = rnd();
			cv[k] = trial % 3 == 0 && k == 5 ? av[k] : rnd();
		}
		memcpy(image, av, 64);
		memcpy(image + 64, cv, 64);
		if (!run(f, image, out)) {
			bad++;
			continue;
		}
		bad += out[0] != av[3] || out[1] != (trial % 3 == 0);
		/* The stored sum and comparison, from private memory. */
		for (k = 0; k < 8; k++) {
			uint64_t s, l;

			memcpy(&s, last_mem + 8 * k, 8);
			memcpy(&l, last_mem + 64 + 8 * k, 8);
			bad += s != av[k] + cv[k];
			bad += l != ((int32_t)av[k] < (int32_t)cv[k] ?
				     ~0ull : 0);
		}
	}
	CHECK_EQ(bad, 0u);
	sir_module_destroy(mod);
}

static sir_id phi2(struct sir_function *f, uint32_t b, struct sir_type t,
		   sir_id first, uint32_t from)
{
	sir_id srcs[2] = { first, first }, v;

	v = sir_emit(f, b, SIR_OP_PHI, t, srcs, 2);
	f->values[v].phi_blocks[0] = from;
	f->values[v].phi_blocks[1] = b;
	return v;
}

static sir_id store_at(struct sir_function *f, uint32_t b, uint32_t off,
		       sir_id v, uint32_t align)
{
	sir_id p = sir_const_u64(f, sir_type_ptr(SIR_SPACE_PRIVATE), off);
	sir_id st = op2(f, b, SIR_OP_STORE, void_t, p, v);

	f->values[st].aux = align;
	return st;
}

static sir_id load_at(struct sir_function *f, uint32_t b, struct sir_type t,
		      uint32_t off, uint32_t align)
{
	sir_id p = sir_const_u64(f, sir_type_ptr(SIR_SPACE_PRIVATE), off);
	sir_id ld = op1(f, b, SIR_OP_LOAD, t, p);

	f->values[ld].aux = align;
	return ld;
}

TEST(narrow_wide_split)
{
	/*
	 * char16 a (image 0), short8 c (image 16), int n (image 32). A loop
	 * of n turns carries acc = acc * a + (1..16) and s = s * 3 + c in
	 * phis; then acc is stored at byte 1 (byte aligned) and s at 20
	 * (word aligned), acc reloaded, xor a, is returned as long2 and,
	 * plus c as short8, stored at 40; s reloaded as words at 64; the
	 * lanewise signed minimum of acc and a stored at 80. s is only
	 * multiplied, added and stored word aligned: it stays whole (one
	 * phi); the short8 bitcast from r and the reload bitcast to words
	 * are split, and so is acc (stored byte aligned).
	 */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "narrow_wide");
	uint32_t b0 = sir_block_add(f), b1 = sir_block_add(f);
	uint32_t b2 = sir_block_add(f);
	struct sir_type c16 = ity(8, 16), s8 = ity(16, 8), i32 = ity(32, 1);
	struct sir_type l2 = ity(64, 2);
	sir_id a = uni(f, c16, 0), c = uni(f, s8, 16), n = uni(f, i32, 32);
	sir_id k, acc, sv, k1, acc1, s1, steps, x, r;
	uint8_t image[48], av[16], accv[16], want[96];
	uint16_t cv[8], s16[8];
	uint64_t out[16];
	char err[256];
	unsigned int trial, bad = 0;

	f->ret = l2;
	br(f, b0, b1);
	k = phi2(f, b1, i32, sir_const_u64(f, i32, 0), b0);
	acc = phi2(f, b1, c16, sir_const_u64(f, c16, 1), b0);
	sv = phi2(f, b1, s8, sir_const_u64(f, s8, 0), b0);
	steps = sir_const_u64(f, c16, 0);
	for (k1 = 0; k1 < 16; k1++)
		f->values[steps].imm.u64[k1] = k1 + 1;
	acc1 = op2(f, b1, SIR_OP_IADD, c16,
		   op2(f, b1, SIR_OP_IMUL, c16, acc, a), steps);
	s1 = op2(f, b1, SIR_OP_IADD, s8,
		 op2(f, b1, SIR_OP_IMUL, s8, sv, sir_const_u64(f, s8, 3)), c);
	k1 = op2(f, b1, SIR_OP_IADD, i32, k, sir_const_u64(f, i32, 1));
	f->values[k].srcs[1] = k1;
	f->values[acc].srcs[1] = acc1;
	f->values[sv].srcs[1] = s1;
	cbr(f, b1, op2(f, b1, SIR_OP_SLT, bty(1), k1, n), b1, b2);
	store_at(f, b2, 1, acc1, 1);
	store_at(f, b2, 20, s1, 4);
	x = op2(f, b2, SIR_OP_XOR, c16, load_at(f, b2, c16, 1, 1), a);
	r = op1(f, b2, SIR_OP_BITCAST, l2, x);
	store_at(f, b2, 40, op2(f, b2, SIR_OP_IADD, s8,
				op1(f, b2, SIR_OP_BITCAST, s8, r), c), 8);
	store_at(f, b2, 64, op1(f, b2, SIR_OP_BITCAST, ity(32, 4),
				load_at(f, b2, s8, 20, 4)), 16);
	store_at(f, b2, 80, op3(f, b2, SIR_OP_SELECT, c16,
				op2(f, b2, SIR_OP_SLT, bty(16), acc1, a),
				acc1, a), 16);
	ret(f, b2, r);
	sir_compute_preds(f);
	CHECK(verify(f));
	CHECK(sir_lower_midgard(f, false, err, sizeof(err)));
	CHECK(verify(f));
	CHECK(all_narrow(f));
	CHECK_EQ(count_op(f, SIR_OP_PHI), 1u + 4u + 1u);
	for (trial = 0; trial < 200; trial++) {
		int32_t turns = (int32_t)(rnd() % 8) + 1;

		for (k1 = 0; k1 < 16; k1++) {
			av[k1] = (uint8_t)rnd();
			accv[k1] = 1;
		}
		for (k1 = 0; k1 < 8; k1++) {
			cv[k1] = (uint16_t)rnd();
			s16[k1] = 0;
		}
		memcpy(image, av, 16);
		memcpy(image + 16, cv, 16);
		memcpy(image + 32, &turns, 4);
		for (int t = 0; t < turns; t++) {
			for (k1 = 0; k1 < 16; k1++)
				accv[k1] = (uint8_t)(accv[k1] * av[k1] + k1 +
						     1);
			for (k1 = 0; k1 < 8; k1++)
				s16[k1] = (uint16_t)(s16[k1] * 3 + cv[k1]);
		}
		memcpy(want + 1, accv, 16);
		memcpy(want + 20, s16, 16);
		for (k1 = 0; k1 < 16; k1++) {
			want[80 + k1] = (int8_t)accv[k1] < (int8_t)av[k1] ?
					accv[k1] : av[k1];
			x = accv[k1] ^ av[k1];
			want[40 + k1] = (uint8_t)x;
		}
		for (k1 = 0; k1 < 8; k1++) {
			uint16_t h;

			memcpy(&h, want + 40 + 2 * k1, 2);
			h = (uint16_t)(h + cv[k1]);
			memcpy(want + 40 + 2 * k1, &h, 2);
		}
		memcpy(want + 64, s16, 16);
		if (!run(f, image, out)) {
			bad++;
			continue;
		}
		for (k1 = 0; k1 < 16; k1++)
			bad += (uint8_t)(out[k1 / 8] >> (8 * (k1 % 8))) !=
			       (accv[k1] ^ av[k1]);
		/* The bytes written (the machine's memory is not cleared). */
		bad += memcmp(last_mem + 1, want + 1, 16) != 0;
		bad += memcmp(last_mem + 20, want + 20, 16) != 0;
		bad += memcmp(last_mem + 40, want + 40, 16) != 0;
		bad += memcmp(last_mem + 64, want + 64, 32) != 0;
	}
	CHECK_EQ(bad, 0u);
	sir_module_destroy(mod);
}

/* Placed instructions of type t with op op. */
static uint32_t count_typed(const struct sir_function *f, enum sir_op op,
			    struct sir_type t)
{
	uint32_t b, i, n = 0;

	for (b = 0; b < f->num_blocks; b++)
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[f->blocks[b].instrs[i]];

			n += in->op == op && sir_type_eq(in->type, t);
		}
	return n;
}

TEST(packed_webs)
{
	/*
	 * short8 a (image 0), short8 b (image 16), short k (image 32).
	 * Web 1, kept whole: x = a + b, m = x < b, y = m ? x : b - a,
	 * z = (y << k) ^ ~a stored at 0 and y at 16 (declared 2-aligned,
	 * the constant address proves 16). Web 2, split: w = a * b, whose
	 * lane 3 is returned (an extract: not a 16-bit-mode op); a and b
	 * are read by both.
	 */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "packed");
	uint32_t b = sir_block_add(f);
	struct sir_type s8 = ity(16, 8), s1 = ity(16, 1);
	sir_id a = uni(f, s8, 0), c = uni(f, s8, 16), k = uni(f, s1, 32);
	sir_id x, m, y, z, w, e, ks, st;
	uint8_t image[48];
	uint64_t out[16];
	char err[256];
	unsigned int trial, j, bad = 0;

	f->ret = s1;
	x = op2(f, b, SIR_OP_IADD, s8, a, c);
	m = op2(f, b, SIR_OP_SLT, bty(8), x, c);
	y = op3(f, b, SIR_OP_SELECT, s8, m, x,
		op2(f, b, SIR_OP_ISUB, s8, c, a));
	ks = op2(f, b, SIR_OP_SHUFFLE, s8, k, k);
	for (j = 0; j < 8; j++)
		f->values[ks].imm.u64[j] = 0;
	z = op2(f, b, SIR_OP_XOR, s8, op2(f, b, SIR_OP_SHL, s8, y, ks),
		op1(f, b, SIR_OP_NOT, s8, a));
	store_at(f, b, 0, z, 16);
	st = store_at(f, b, 16, y, 2);
	w = op2(f, b, SIR_OP_IMUL, s8, a, c);
	e = op1(f, b, SIR_OP_EXTRACT, s1, w);
	f->values[e].aux = 3;
	ret(f, b, e);
	CHECK(verify(f));
	CHECK(sir_lower_midgard(f, false, err, sizeof(err)));
	CHECK(verify(f));
	CHECK(all_narrow(f));
	/* Web 1 whole, its store's alignment raised; web 2 in pieces. */
	CHECK_EQ(count_typed(f, SIR_OP_IADD, s8), 1u);
	CHECK_EQ(count_typed(f, SIR_OP_SELECT, s8), 1u);
	CHECK_EQ(count_typed(f, SIR_OP_SLT, bty(8)), 1u);
	CHECK_EQ(count_typed(f, SIR_OP_IMUL, s8), 0u);
	CHECK(f->values[st].op == SIR_OP_STORE && f->values[st].aux >= 4);
	for (trial = 0; trial < 200; trial++) {
		uint16_t av[8], cv[8], kv = (uint16_t)rnd(), zv[8], yv[8];

		for (j = 0; j < 8; j++) {
			av[j] = (uint16_t)rnd();
			cv[j] = trial % 2 ? (uint16_t)(rnd() % 5) :
				(uint16_t)rnd();
		}
		memcpy(image, av, 16);
		memcpy(image + 16, cv, 16);
		memcpy(image + 32, &kv, 2);
		for (j = 0; j < 8; j++) {
			uint16_t xv = (uint16_t)(av[j] + cv[j]);

			yv[j] = (int16_t)xv < (int16_t)cv[j] ? xv :
				(uint16_t)(cv[j] - av[j]);
			zv[j] = (uint16_t)((uint16_t)(yv[j] << (kv & 15)) ^
					   (uint16_t)~av[j]);
		}
		if (!run(f, image, out)) {
			bad++;
			continue;
		}
		bad += (uint16_t)out[0] != (uint16_t)(av[3] * cv[3]);
		bad += memcmp(last_mem, zv, 16) != 0;
		bad += memcmp(last_mem + 16, yv, 16) != 0;
	}
	CHECK_EQ(bad, 0u);
	sir_module_destroy(mod);
}

/* ---- Machine-independent passes ------------------------------------ */

TEST(fold_and_identities)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "fold");
	uint32_t b = sir_block_add(f);
	struct sir_type t = ity(32, 1);
	sir_id x = uni(f, t, 0), k, r;
	uint8_t image[16] = { 0 };
	uint64_t out[16], xv = 1234567;

	f->ret = t;
	/* (7 * 6 - 2) + x * 1 + (x ^ x) + (-5 sdiv 2) */
	k = op2(f, b, SIR_OP_ISUB, t,
		op2(f, b, SIR_OP_IMUL, t, sir_const_u64(f, t, 7),
		    sir_const_u64(f, t, 6)), sir_const_u64(f, t, 2));
	r = op2(f, b, SIR_OP_IADD, t, k,
		op2(f, b, SIR_OP_IMUL, t, x, sir_const_u64(f, t, 1)));
	r = op2(f, b, SIR_OP_IADD, t, r, op2(f, b, SIR_OP_XOR, t, x, x));
	r = op2(f, b, SIR_OP_IADD, t, r,
		op2(f, b, SIR_OP_SDIV, t, sir_const_u64(f, t, (uint64_t)-5),
		    sir_const_u64(f, t, 2)));
	ret(f, b, r);
	sir_optimize(f);
	CHECK(verify(f));
	/* What is left: x + 40 + 0 + -2 folds only as far as the tree. */
	CHECK(count_op(f, SIR_OP_IMUL) == 0);
	CHECK(count_op(f, SIR_OP_XOR) == 0);
	CHECK(count_op(f, SIR_OP_SDIV) == 0);
	CHECK(count_instrs(f) <= 3);
	memcpy(image, &xv, 4);
	CHECK(run(f, image, out));
	CHECK_EQ(out[0], (uint64_t)(40 + 1234567 - 2));
	sir_module_destroy(mod);
}

TEST(fold_masks_and_inserts)
{
	/*
	 * any(select(x < y, -1, 0) < 0) is any(x < y) (OpenCL's vector
	 * compare masks tested by any/all/select), and insert(vec(a, b, c),
	 * d) at a scalar source's lane is vec(a, d, c).
	 */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "masks");
	uint32_t b = sir_block_add(f);
	struct sir_type c4 = ity(8, 4), i32 = ity(32, 1);
	sir_id x = uni(f, c4, 0), y = uni(f, c4, 4), lt, m, any, v, r;
	uint8_t image[16] = { 1, 200, 3, 4, 2, 100, 3, 0, 9, 0, 0, 0, 8 };
	uint64_t out[16];

	f->ret = ity(32, 3);
	lt = op2(f, b, SIR_OP_SLT, bty(4), x, y);
	m = op3(f, b, SIR_OP_SELECT, c4, lt, sir_const_u64(f, c4, 0xFF),
		sir_const_u64(f, c4, 0));
	any = op1(f, b, SIR_OP_ANY, bty(1),
		  op2(f, b, SIR_OP_SLT, bty(4), m, sir_const_u64(f, c4, 0)));
	v = sir_emit(f, b, SIR_OP_VEC, ity(32, 3),
		     (sir_id[]){ uni(f, i32, 8),
				 op3(f, b, SIR_OP_SELECT, i32, any,
				     sir_const_u64(f, i32, 5),
				     sir_const_u64(f, i32, 6)),
				 uni(f, i32, 8) }, 3);
	r = op2(f, b, SIR_OP_INSERT, ity(32, 3), v, uni(f, i32, 12));
	f->values[r].aux = 2;
	ret(f, b, r);
	sir_optimize(f);
	CHECK(verify(f));
	CHECK_EQ(count_op(f, SIR_OP_SLT), 1u);
	CHECK_EQ(count_op(f, SIR_OP_INSERT), 0u);
	CHECK(run(f, image, out));
	/* 1 < 2 signed: any is true; 200 < 100 is false as signed chars. */
	CHECK_EQ(out[0], 9u);
	CHECK_EQ(out[1], 5u);
	CHECK_EQ(out[2], 8u);
	sir_module_destroy(mod);
}

TEST(fold_float_exact)
{
	/* Folded float ops give the host's (IEEE) results; native_* stay. */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "ffold");
	uint32_t b = sir_block_add(f);
	struct sir_type t = fty(32, 1);
	sir_id r, s[4];

	f->ret = fty(32, 4);
	s[0] = op2(f, b, SIR_OP_FDIV, t, sir_const_f64(f, t, 1.0),
		   sir_const_f64(f, t, 3.0));
	s[1] = op3(f, b, SIR_OP_FMA, t, sir_const_f64(f, t, 0.1),
		   sir_const_f64(f, t, 10.0), sir_const_f64(f, t, -1.0));
	s[2] = op1(f, b, SIR_OP_FSQRT, t, sir_const_f64(f, t, 2.0));
	s[3] = op1(f, b, SIR_OP_FEXP2, t, sir_const_f64(f, t, 0.5));
	r = sir_emit(f, b, SIR_OP_VEC, fty(32, 4), s, 4);
	ret(f, b, r);
	sir_optimize(f);
	CHECK(verify(f));
	CHECK_EQ(count_op(f, SIR_OP_FDIV) + count_op(f, SIR_OP_FMA) +
		 count_op(f, SIR_OP_FSQRT), 0u);
	CHECK_EQ(count_op(f, SIR_OP_FEXP2), 1u);
	{
		uint64_t out[16];
		uint8_t image[4] = { 0 };

		CHECK(run(f, image, out));
		CHECK_EQ((uint32_t)out[0], fbits(1.0f / 3.0f));
		CHECK_EQ((uint32_t)out[1],
			 fbits(fmaf(bitsf(fbits(0.1f)), 10.0f, -1.0f)));
		CHECK_EQ((uint32_t)out[2], fbits(sqrtf(2.0f)));
	}
	sir_module_destroy(mod);
}

TEST(insert_chains_become_vecs)
{
	/*
	 * v.x, v.y, v.z, v.w updated twice, as an unrolled loop does: the
	 * last write to each lane wins and the chain becomes one VEC; a
	 * chain that leaves a lane to its base stays as it is.
	 */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "chain");
	uint32_t b = sir_block_add(f);
	struct sir_type t = fty(32, 1), v4 = fty(32, 4);
	sir_id v = sir_const_f64(f, v4, 0.0), w, lane[8];
	uint8_t image[32] = { 0 };
	uint64_t out[16];

	f->ret = v4;
	for (unsigned int k = 0; k < 8; k++) {
		lane[k] = uni(f, t, 4 * k);
		v = op2(f, b, SIR_OP_INSERT, v4, v, lane[k]);
		f->values[v].aux = k % 4;
	}
	w = op2(f, b, SIR_OP_INSERT, v4, uni(f, v4, 0), lane[7]);
	f->values[w].aux = 2;
	ret(f, b, op2(f, b, SIR_OP_FADD, v4, v, w));
	for (unsigned int k = 0; k < 8; k++) {
		float x = (float)k + 0.5f;

		memcpy(image + 4 * k, &x, 4);
	}
	sir_optimize(f);
	CHECK(verify(f));
	CHECK_EQ(count_op(f, SIR_OP_VEC), 1u);
	CHECK_EQ(count_op(f, SIR_OP_INSERT), 1u);
	CHECK(run(f, image, out));
	CHECK_EQ((uint32_t)out[0], fbits(4.5f + 0.5f));
	CHECK_EQ((uint32_t)out[2], fbits(6.5f + 7.5f));
	CHECK_EQ((uint32_t)out[3], fbits(7.5f + 3.5f));
	sir_module_destroy(mod);
}

TEST(fdot_folds_and_lowers)
{
	/*
	 * A constant dot product folds with one rounding; a two-lane one is
	 * lowered to a multiply and an add (Midgard has fdot3 and fdot4).
	 */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "dot");
	uint32_t b = sir_block_add(f);
	struct sir_type t = fty(32, 1), v2 = fty(32, 2), v4 = fty(32, 4);
	sir_id c = sir_value_new(f, SIR_OP_CONST, v4, NULL, 0), d4, d2;
	const float cv[4] = { 1.0f, 0x1p-30f, -1.0f, 3.0f };
	char err[256];
	uint8_t image[16] = { 0 };
	uint64_t out[16];

	for (unsigned int k = 0; k < 4; k++)
		f->values[c].imm.u64[k] = fbits(cv[k]);
	f->ret = fty(32, 2);
	d4 = op2(f, b, SIR_OP_FDOT, t, c, c);
	d2 = op2(f, b, SIR_OP_FDOT, t, uni(f, v2, 0), uni(f, v2, 0));
	ret(f, b, sir_emit(f, b, SIR_OP_VEC, fty(32, 2),
			   (sir_id[]){ d4, d2 }, 2));
	CHECK(verify(f));
	sir_optimize(f);
	CHECK(sir_lower_midgard(f, false, err, sizeof(err)));
	sir_optimize(f);
	CHECK(verify(f));
	CHECK_EQ(count_op(f, SIR_OP_FDOT), 0u);
	memcpy(image, &(float[2]){ 3.0f, -4.0f }, 8);
	CHECK(run(f, image, out));
	/* 1 + 2^-60 + 1 + 9 rounds once to 11; x.x*x.x + x.y*x.y = 25. */
	CHECK_EQ((uint32_t)out[0], fbits(11.0f));
	CHECK_EQ((uint32_t)out[1], fbits(25.0f));
	sir_module_destroy(mod);
}

/* x_k = lane k of v * lane k of v + (k + 1), built into a float4. */
static struct sir_function *slp_fn(struct sir_module *mod, bool early_use)
{
	struct sir_function *f = sir_function_create(mod, "slp");
	uint32_t b = sir_block_add(f);
	struct sir_type t = fty(32, 1), v4 = fty(32, 4);
	sir_id v = uni(f, v4, 0), x[4], sum = 0;

	f->ret = v4;
	for (unsigned int k = 0; k < 4; k++) {
		sir_id e = op1(f, b, SIR_OP_EXTRACT, t, v);

		f->values[e].aux = k;
		x[k] = op2(f, b, SIR_OP_FADD, t,
			   op2(f, b, SIR_OP_FMUL, t, e, e),
			   sir_const_f64(f, t, k + 1.0));
		/* A store-free early reader: x0 feeds lane 3's operand. */
		if (early_use && k == 0)
			sum = x[0];
		if (early_use && k == 2)
			x[2] = op2(f, b, SIR_OP_FADD, t, x[2], sum);
	}
	ret(f, b, sir_emit(f, b, SIR_OP_VEC, v4, x, 4));
	return f;
}

TEST(slp_packs_lanes)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = slp_fn(mod, false);
	const float in[4] = { 1.5f, -2.0f, 3.0f, 0.25f };
	uint8_t image[16];
	uint64_t out[16];

	memcpy(image, in, 16);
	CHECK(sir_slp_vectorize(f));
	sir_optimize(f);
	CHECK(verify(f));
	/* One vector multiply and one vector add are left. */
	CHECK_EQ(count_op(f, SIR_OP_FMUL), 1u);
	CHECK_EQ(count_op(f, SIR_OP_FADD), 1u);
	CHECK(run(f, image, out));
	for (unsigned int k = 0; k < 4; k++)
		CHECK_EQ((uint32_t)out[k], fbits(in[k] * in[k] + k + 1.0f));
	sir_module_destroy(mod);
}

TEST(slp_keeps_what_it_cannot_pack)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "gather");
	uint32_t b = sir_block_add(f);
	struct sir_type t = fty(32, 1), v4 = fty(32, 4);
	sir_id x[4];

	/* Products of separate scalars: gathering them costs more. */
	f->ret = v4;
	for (unsigned int k = 0; k < 4; k++)
		x[k] = op2(f, b, SIR_OP_FMUL, t, uni(f, t, 4 * k),
			   uni(f, t, 16 + 4 * k));
	ret(f, b, sir_emit(f, b, SIR_OP_VEC, v4, x, 4));
	CHECK(!sir_slp_vectorize(f));
	CHECK_EQ(count_op(f, SIR_OP_FMUL), 4u);
	sir_module_destroy(mod);

	/* A lane result read by another lane's operand is a dependence. */
	mod = sir_module_create();
	f = slp_fn(mod, true);
	{
		const float in[4] = { 1.5f, -2.0f, 3.0f, 0.25f };
		uint8_t image[16];
		uint64_t out[16];

		memcpy(image, in, 16);
		sir_slp_vectorize(f);
		sir_optimize(f);
		CHECK(verify(f));
		CHECK(run(f, image, out));
		CHECK_EQ((uint32_t)out[2],
			 fbits((3.0f * 3.0f + 3.0f) + (1.5f * 1.5f + 1.0f)));
		CHECK_EQ((uint32_t)out[3], fbits(0.25f * 0.25f + 4.0f));
	}
	sir_module_destroy(mod);
}

TEST(cse_dce_copy_prop)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "cse");
	uint32_t b = sir_block_add(f);
	struct sir_type t = ity(32, 1);
	struct sir_type ptr = sir_type_ptr(SIR_SPACE_GLOBAL);
	sir_id x = uni(f, t, 0), y = uni(f, t, 4), p = uni(f, ptr, 8);
	sir_id a1, a2, l1, l2, l3, cp;

	f->ret = t;
	a1 = op2(f, b, SIR_OP_IADD, t, x, y);
	a2 = op2(f, b, SIR_OP_IADD, t, y, x);      /* commuted */
	cp = op1(f, b, SIR_OP_COPY, t, a2);
	op2(f, b, SIR_OP_IMUL, t, a1, a1);          /* unused */
	l1 = op1(f, b, SIR_OP_LOAD, t, p);
	l2 = op1(f, b, SIR_OP_LOAD, t, p);          /* same memory state */
	op2(f, b, SIR_OP_STORE, void_t, p, cp);
	l3 = op1(f, b, SIR_OP_LOAD, t, p);          /* after a store */
	ret(f, b, op2(f, b, SIR_OP_IADD, t,
		      op2(f, b, SIR_OP_IADD, t, a1, cp),
		      op2(f, b, SIR_OP_IADD, t, op2(f, b, SIR_OP_IADD, t,
							l1, l2), l3)));
	CHECK(sir_copy_prop(f));
	CHECK_EQ(count_op(f, SIR_OP_COPY), 0u);
	CHECK(sir_cse(f));
	CHECK_EQ(count_op(f, SIR_OP_LOAD), 2u);
	CHECK(sir_dce(f));
	CHECK_EQ(count_op(f, SIR_OP_IMUL), 0u);
	CHECK_EQ(count_op(f, SIR_OP_STORE), 1u);
	/* Only one x + y is left. */
	{
		uint32_t n = 0, i;

		for (i = 0; i < f->blocks[0].num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[f->blocks[0].instrs[i]];

			n += in->op == SIR_OP_IADD &&
			     ((in->srcs[0] == x && in->srcs[1] == y) ||
			      (in->srcs[0] == y && in->srcs[1] == x));
		}
		CHECK_EQ(n, 1u);
	}
	CHECK(verify(f));
	CHECK(!sir_dce(f));
	sir_module_destroy(mod);
}

/*
 * A counting loop through a private variable, -O0 style:
 *   i = 0; s = 0; while (i < n) { s += i * 3; i++; } return s;
 */
static struct sir_function *loop_fn(struct sir_module *mod)
{
	struct sir_function *f = sir_function_create(mod, "loop");
	struct sir_type t = ity(32, 1), pt = sir_type_ptr(SIR_SPACE_PRIVATE);
	struct sir_local_var var = { 4, 4, { SIR_INT, 32, 1, 0 }, false };
	uint32_t e = sir_block_add(f), h = sir_block_add(f);
	uint32_t body = sir_block_add(f), x = sir_block_add(f);
	sir_id vi, vs, n = uni(f, t, 0), i, s;

	f->ret = t;
	sir_var_add(f, &var);
	sir_var_add(f, &var);
	vi = sir_value_new(f, SIR_OP_VAR_ADDR, pt, NULL, 0);
	f->values[vi].aux = 0;
	vs = sir_value_new(f, SIR_OP_VAR_ADDR, pt, NULL, 0);
	f->values[vs].aux = 1;
	op2(f, e, SIR_OP_STORE, void_t, vi, sir_const_u64(f, t, 0));
	op2(f, e, SIR_OP_STORE, void_t, vs, sir_const_u64(f, t, 0));
	br(f, e, h);
	i = op1(f, h, SIR_OP_LOAD, t, vi);
	cbr(f, h, op2(f, h, SIR_OP_SLT, bty(1), i, n), body, x);
	i = op1(f, body, SIR_OP_LOAD, t, vi);
	s = op1(f, body, SIR_OP_LOAD, t, vs);
	op2(f, body, SIR_OP_STORE, void_t, vs,
	    op2(f, body, SIR_OP_IADD, t, s,
		op2(f, body, SIR_OP_IMUL, t, i, sir_const_u64(f, t, 3))));
	op2(f, body, SIR_OP_STORE, void_t, vi,
	    op2(f, body, SIR_OP_IADD, t, i, sir_const_u64(f, t, 1)));
	br(f, body, h);
	ret(f, x, op1(f, x, SIR_OP_LOAD, t, vs));
	return f;
}

static uint64_t run_loop(struct sir_function *f, uint32_t n)
{
	uint8_t image[4];
	uint64_t out[16] = { 0 };

	memcpy(image, &n, 4);
	CHECK(run(f, image, out));
	return out[0];
}

TEST(mem2reg_loop)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = loop_fn(mod);

	CHECK(verify(f));
	CHECK_EQ(run_loop(f, 10), 135u);
	CHECK(sir_mem2reg(f));
	CHECK(verify(f));
	sir_dce(f);
	CHECK_EQ(count_op(f, SIR_OP_LOAD) + count_op(f, SIR_OP_STORE), 0u);
	CHECK(count_op(f, SIR_OP_PHI) >= 2);
	CHECK_EQ(run_loop(f, 10), 135u);
	CHECK_EQ(run_loop(f, 0), 0u);
	CHECK_EQ(run_loop(f, 1000), 3u * 999 * 1000 / 2);
	sir_optimize(f);
	CHECK(verify(f));
	CHECK_EQ(run_loop(f, 77), 3u * 76 * 77 / 2);
	CHECK(!sir_mem2reg(f));
	sir_module_destroy(mod);
}

/*
 * Variables first stored inside a loop: the loop header gets a phi per
 * variable whose entry source is undefined, so renaming the entry block's
 * successor phis creates one UNDEF value per variable, appending to
 * f->values while the renamer walks those phis. Over a range of variable
 * counts one of those appends moves the array (a use after free under
 * ASan before the renamer held indexes instead of pointers):
 *   acc = 0; for (i = 0; i < n; i++) { v_j = i * (j + 1); acc += v_j; }
 */
static struct sir_function *undef_phi_fn(struct sir_module *mod,
					 uint32_t nvars)
{
	struct sir_function *f = sir_function_create(mod, "undef_phis");
	struct sir_type t = ity(32, 1), pt = sir_type_ptr(SIR_SPACE_PRIVATE);
	struct sir_local_var var = { 4, 4, { SIR_INT, 32, 1, 0 }, false };
	uint32_t e = sir_block_add(f), h = sir_block_add(f);
	uint32_t body = sir_block_add(f), x = sir_block_add(f), j;
	sir_id n = uni(f, t, 0), addr[64], vi, vacc, i, acc;

	f->ret = t;
	for (j = 0; j < nvars + 2; j++) {
		sir_var_add(f, &var);
		addr[j] = sir_value_new(f, SIR_OP_VAR_ADDR, pt, NULL, 0);
		f->values[addr[j]].aux = j;
	}
	vi = addr[nvars];
	vacc = addr[nvars + 1];
	op2(f, e, SIR_OP_STORE, void_t, vi, sir_const_u64(f, t, 0));
	op2(f, e, SIR_OP_STORE, void_t, vacc, sir_const_u64(f, t, 0));
	br(f, e, h);
	i = op1(f, h, SIR_OP_LOAD, t, vi);
	cbr(f, h, op2(f, h, SIR_OP_SLT, bty(1), i, n), body, x);
	i = op1(f, body, SIR_OP_LOAD, t, vi);
	for (j = 0; j < nvars; j++)
		op2(f, body, SIR_OP_STORE, void_t, addr[j],
		    op2(f, body, SIR_OP_IMUL, t, i,
			sir_const_u64(f, t, j + 1)));
	for (j = 0; j < nvars; j++) {
		acc = op1(f, body, SIR_OP_LOAD, t, vacc);
		op2(f, body, SIR_OP_STORE, void_t, vacc,
		    op2(f, body, SIR_OP_IADD, t, acc,
			op1(f, body, SIR_OP_LOAD, t, addr[j])));
	}
	op2(f, body, SIR_OP_STORE, void_t, vi,
	    op2(f, body, SIR_OP_IADD, t, i, sir_const_u64(f, t, 1)));
	br(f, body, h);
	ret(f, x, op1(f, x, SIR_OP_LOAD, t, vacc));
	return f;
}

TEST(mem2reg_undef_phis_grow_values)
{
	uint32_t nvars, n = 7;

	/* The interpreter takes at most 64 phis per block. */
	for (nvars = 1; nvars <= 60; nvars++) {
		struct sir_module *mod = sir_module_create();
		struct sir_function *f = undef_phi_fn(mod, nvars);
		uint64_t want = 0;
		uint32_t i, j;

		for (i = 0; i < n; i++)
			for (j = 0; j < nvars; j++)
				want += (uint64_t)i * (j + 1);
		CHECK(verify(f));
		CHECK(sir_mem2reg(f));
		CHECK(verify(f));
		CHECK_EQ(count_op(f, SIR_OP_LOAD) + count_op(f, SIR_OP_STORE),
			 0u);
		CHECK_EQ(count_op(f, SIR_OP_PHI), nvars + 2);
		CHECK_EQ(run_loop(f, n), want);
		sir_module_destroy(mod);
	}
}

TEST(simplify_cfg)
{
	/*
	 * b0: cbr true b1 b2; b1: br b3; b2: br b3;
	 * b3: phi(1 from b1, 2 from b2); br b4; b4: ret phi + x
	 * folds to one block returning 1 + x.
	 */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "cfg");
	struct sir_type t = ity(32, 1);
	uint32_t b0 = sir_block_add(f), b1 = sir_block_add(f);
	uint32_t b2 = sir_block_add(f), b3 = sir_block_add(f);
	uint32_t b4 = sir_block_add(f);
	sir_id srcs[2] = { sir_const_u64(f, t, 1), sir_const_u64(f, t, 2) };
	sir_id phi;
	uint8_t image[4] = { 5, 0, 0, 0 };
	uint64_t out[16];

	f->ret = t;
	cbr(f, b0, sir_const_u64(f, bty(1), 1), b1, b2);
	br(f, b1, b3);
	br(f, b2, b3);
	phi = sir_emit(f, b3, SIR_OP_PHI, t, srcs, 2);
	f->values[phi].phi_blocks[0] = b1;
	f->values[phi].phi_blocks[1] = b2;
	br(f, b3, b4);
	ret(f, b4, op2(f, b4, SIR_OP_IADD, t, phi, uni(f, t, 0)));
	CHECK(verify(f));
	CHECK(sir_simplify_cfg(f));
	CHECK(verify(f));
	CHECK_EQ(f->num_blocks, 1u);
	CHECK_EQ(count_op(f, SIR_OP_PHI), 0u);
	CHECK(run(f, image, out));
	CHECK_EQ(out[0], 6u);
	CHECK(!sir_simplify_cfg(f));
	sir_module_destroy(mod);
}

TEST(simplify_cfg_keeps_loops)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = loop_fn(mod);

	sir_mem2reg(f);
	sir_simplify_cfg(f);
	CHECK(verify(f));
	CHECK_EQ(run_loop(f, 20), 3u * 19 * 20 / 2);
	sir_module_destroy(mod);
}

TEST(inline_calls)
{
	/*
	 * helper2(x) = x < 0 ? -x : x (two returns); helper(x, y) =
	 * helper2(x) * y; kernel k = helper(u0, 3) + helper(u4, 5).
	 */
	struct sir_module *mod = sir_module_create();
	struct sir_function *h2 = sir_function_create(mod, "helper2");
	struct sir_function *h = sir_function_create(mod, "helper");
	struct sir_function *k = sir_function_create(mod, "k");
	struct sir_type t = ity(32, 1);
	struct sir_param p = { 0 };
	char err[256];
	uint32_t b, neg, pos;
	sir_id x, y, c1, c2, args[2];
	uint8_t image[8];
	int32_t in[2] = { -7, 9 };
	uint64_t out[16];

	p.type = t;
	h2->ret = t;
	h2->num_params = 1;
	h2->params = calloc(1, sizeof(p));
	h2->params[0] = p;
	b = sir_block_add(h2);
	neg = sir_block_add(h2);
	pos = sir_block_add(h2);
	x = sir_value_new(h2, SIR_OP_PARAM, t, NULL, 0);
	cbr(h2, b, op2(h2, b, SIR_OP_SLT, bty(1), x, sir_const_u64(h2, t, 0)),
	    neg, pos);
	ret(h2, neg, op1(h2, neg, SIR_OP_INEG, t, x));
	ret(h2, pos, x);

	h->ret = t;
	h->num_params = 2;
	h->params = calloc(2, sizeof(p));
	h->params[0] = p;
	h->params[1] = p;
	b = sir_block_add(h);
	x = sir_value_new(h, SIR_OP_PARAM, t, NULL, 0);
	y = sir_value_new(h, SIR_OP_PARAM, t, NULL, 0);
	h->values[y].aux = 1;
	c1 = sir_emit(h, b, SIR_OP_CALL, t, &x, 1);
	h->values[c1].aux = 0;
	ret(h, b, op2(h, b, SIR_OP_IMUL, t, c1, y));

	k->is_kernel = true;
	k->ret = t;
	b = sir_block_add(k);
	args[0] = uni(k, t, 0);
	args[1] = sir_const_u64(k, t, 3);
	c1 = sir_emit(k, b, SIR_OP_CALL, t, args, 2);
	k->values[c1].aux = 1;
	args[0] = uni(k, t, 4);
	args[1] = sir_const_u64(k, t, 5);
	c2 = sir_emit(k, b, SIR_OP_CALL, t, args, 2);
	k->values[c2].aux = 1;
	ret(k, b, op2(k, b, SIR_OP_IADD, t, c1, c2));

	CHECK(sir_inline_all(mod, err, sizeof(err)));
	REQUIRE(mod->num_functions == 1);
	k = mod->functions[0];
	CHECK(strcmp(k->name, "k") == 0);
	CHECK(verify(k));
	CHECK_EQ(count_op(k, SIR_OP_CALL), 0u);
	memcpy(image, in, 8);
	CHECK(run(k, image, out));
	CHECK_EQ((uint32_t)out[0], (uint32_t)(7 * 3 + 9 * 5));
	in[0] = 4;
	in[1] = -2;
	memcpy(image, in, 8);
	sir_optimize(k);
	CHECK(verify(k));
	CHECK(run(k, image, out));
	CHECK_EQ((uint32_t)out[0], (uint32_t)(4 * 3 + 2 * 5));
	sir_module_destroy(mod);
}

TEST(inline_recursion_rejected)
{
	struct sir_module *mod = sir_module_create();
	struct sir_function *a = sir_function_create(mod, "ping");
	struct sir_function *c = sir_function_create(mod, "pong");
	struct sir_function *k = sir_function_create(mod, "kern");
	char err[256] = "";
	uint32_t b;
	sir_id call;

	b = sir_block_add(a);
	call = sir_emit(a, b, SIR_OP_CALL, void_t, NULL, 0);
	a->values[call].aux = 1;
	ret(a, b, 0);
	b = sir_block_add(c);
	call = sir_emit(c, b, SIR_OP_CALL, void_t, NULL, 0);
	c->values[call].aux = 0;
	ret(c, b, 0);
	k->is_kernel = true;
	b = sir_block_add(k);
	call = sir_emit(k, b, SIR_OP_CALL, void_t, NULL, 0);
	k->values[call].aux = 0;
	ret(k, b, 0);
	CHECK(!sir_inline_all(mod, err, sizeof(err)));
	CHECK(strstr(err, "recursive call to ") != NULL);
	sir_module_destroy(mod);
}

TEST(lower_abi_layout)
{
	/*
	 * kernel k(int a, float4 b, global int *c, char d, int3 e) reading
	 * get_global_id, get_num_groups, a private array, a __local and a
	 * __constant global.
	 */
	struct sir_module *mod = sir_module_create();
	struct sir_function *k = sir_function_create(mod, "k");
	static struct slb_kernel meta;
	struct sir_type types[5] = { ity(32, 1), fty(32, 4),
				     sir_type_ptr(SIR_SPACE_GLOBAL),
				     ity(8, 1), ity(32, 3) };
	static const char *names[5] = { "a", "b", "c", "d", "e" };
	struct sir_local_var arr = { 40, 4, { SIR_INT, 32, 1, 0 }, true };
	struct sir_global lg = { (char *)"tile", SIR_SPACE_LOCAL, 64, 16,
				 NULL, 0 };
	uint8_t cdata[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	struct sir_global cg = { (char *)"table", SIR_SPACE_CONSTANT, 12, 4,
				 cdata, 0 };
	uint32_t b, i, size;
	sir_id v, gid, ng, pa, la, ca;
	char err[256];
	uint8_t *data;

	k->is_kernel = true;
	k->num_params = 5;
	k->params = calloc(5, sizeof(*k->params));
	for (i = 0; i < 5; i++) {
		k->params[i].type = types[i];
		k->params[i].name = strdup(names[i]);
		k->params[i].type_name = strdup("t");
		k->params[i].kind = i == 2 ? SIR_ARG_GLOBAL_PTR : SIR_ARG_VALUE;
		k->params[i].access = SIR_ACCESS_NONE;
	}
	k->params[2].is_const = true;
	sir_var_add(k, &arr);
	sir_global_add(mod, &lg);
	sir_global_add(mod, &cg);
	b = sir_block_add(k);
	gid = sir_value_new(k, SIR_OP_SYSVAL, ity(32, 3), NULL, 0);
	k->values[gid].aux = SIR_SYSVAL_GLOBAL_ID;
	ng = sir_value_new(k, SIR_OP_SYSVAL, ity(32, 3), NULL, 0);
	k->values[ng].aux = SIR_SYSVAL_NUM_GROUPS;
	pa = sir_value_new(k, SIR_OP_VAR_ADDR, sir_type_ptr(SIR_SPACE_PRIVATE),
			   NULL, 0);
	la = sir_value_new(k, SIR_OP_VAR_ADDR, sir_type_ptr(SIR_SPACE_LOCAL),
			   NULL, 0);
	k->values[la].aux2 = 1;
	ca = sir_value_new(k, SIR_OP_VAR_ADDR,
			   sir_type_ptr(SIR_SPACE_CONSTANT), NULL, 0);
	k->values[ca].aux = 1;
	k->values[ca].aux2 = 1;
	v = sir_value_new(k, SIR_OP_PARAM, ity(32, 1), NULL, 0);
	{
		sir_id s = op2(k, b, SIR_OP_IADD, ity(32, 3), gid, ng);
		sir_id x = op1(k, b, SIR_OP_EXTRACT, ity(32, 1), s);

		x = op2(k, b, SIR_OP_IADD, ity(32, 1), x, v);
		x = op2(k, b, SIR_OP_IADD, ity(32, 1), x,
			op1(k, b, SIR_OP_LOAD, ity(32, 1), ca));
		op2(k, b, SIR_OP_STORE, void_t, pa, x);
		op2(k, b, SIR_OP_STORE, void_t, la, x);
		v = sir_value_new(k, SIR_OP_PARAM, types[2], NULL, 0);
		k->values[v].aux = 2;
		op2(k, b, SIR_OP_STORE, void_t, v, x);
	}
	ret(k, b, 0);
	CHECK(verify(k));
	CHECK(sir_lower_abi(mod, k, &meta, err, sizeof(err)));
	CHECK(verify(k));
	CHECK_EQ(meta.num_args, 5u);
	CHECK_EQ(meta.args[0].offset, 0u);
	CHECK_EQ(meta.args[1].offset, 16u);
	CHECK_EQ(meta.args[1].size, 16u);
	CHECK_EQ(meta.args[2].offset, 32u);
	CHECK_EQ(meta.args[2].kind, (uint32_t)SLB_ARG_GLOBAL);
	CHECK_EQ(meta.args[2].qualifiers, SLB_QUAL_CONST);
	CHECK_EQ(meta.args[2].access, (uint32_t)SLB_ACCESS_NONE);
	CHECK_EQ(meta.args[3].offset, 36u);
	CHECK_EQ(meta.args[4].offset, 48u);
	CHECK_EQ(meta.args[4].size, 16u);
	CHECK(strcmp(meta.args[4].name, "e") == 0);
	/* 3 group counts and the constant base; GLOBAL_ID is hardware. */
	CHECK_EQ(meta.num_sysvals, 4u);
	for (i = 0; i < meta.num_sysvals; i++)
		CHECK(meta.sysvals[i].offset >= 64 &&
		      meta.sysvals[i].offset < 64 + 16);
	CHECK_EQ(meta.uniform_bytes, 80u);
	{
		/* The iadd now reads the hardware's GLOBAL_ID. */
		uint32_t found = 0;

		for (i = 0; i < k->blocks[0].num_instrs; i++) {
			const struct sir_instr *in =
				&k->values[k->blocks[0].instrs[i]];
			const struct sir_instr *g;

			if (in->op != SIR_OP_IADD || in->type.comps != 3)
				continue;
			g = &k->values[in->srcs[0]];
			found += g->op == SIR_OP_SYSVAL &&
				 g->aux == SIR_SYSVAL_GLOBAL_ID;
		}
		CHECK_EQ(found, 1u);
	}
	CHECK_EQ(meta.private_bytes, 48u);
	CHECK_EQ(meta.local_static_bytes, 64u);
	CHECK_EQ(count_op(k, SIR_OP_PARAM) + count_op(k, SIR_OP_VAR_ADDR), 0u);
	data = sir_constant_data(mod, &size);
	CHECK_EQ(size, 16u);
	CHECK(data && memcmp(data, cdata, 12) == 0);
	free(data);
	{
		char lerr[256];

		CHECK(sir_lower_midgard(k, false, lerr, sizeof(lerr)));
	}
	sir_module_destroy(mod);
}

/* Instructions with op whose result has more than one lane. */
static uint32_t count_vector_op(const struct sir_function *f, enum sir_op op)
{
	uint32_t b, i, n = 0;

	for (b = 0; b < f->num_blocks; b++)
		for (i = 0; i < f->blocks[b].num_instrs; i++) {
			const struct sir_instr *in =
				&f->values[f->blocks[b].instrs[i]];

			n += in->op == op && in->type.comps > 1;
		}
	return n;
}

static sir_id shuffle(struct sir_function *f, uint32_t b, struct sir_type t,
		      sir_id x, sir_id y, const uint64_t *sel)
{
	sir_id v = op2(f, b, SIR_OP_SHUFFLE, t, x, y);

	memcpy(f->values[v].imm.u64, sel, t.comps * sizeof(*sel));
	return v;
}

TEST(narrow_extracted_lanes)
{
	/*
	 * (x + y).y + shuffle(x, y, 5 0 3).x * 3, x and y int3 uniforms:
	 * only lane 1 of the add and one word of y survive.
	 */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "narrow");
	uint32_t b = sir_block_add(f);
	struct sir_type t = ity(32, 1), t3 = ity(32, 3);
	static const uint64_t sel[3] = { 5, 0, 3 };
	sir_id x = uni(f, t3, 0), y = uni(f, t3, 16), e, s, r;
	uint32_t xv[3] = { 0x80000001u, 77, 5 }, yv[3] = { 9, 0xfffffff0u, 41 };
	uint8_t image[32] = { 0 };
	uint64_t out[16];
	uint32_t v, uniforms = 0, *uses;

	f->ret = t;
	e = op1(f, b, SIR_OP_EXTRACT, t, op2(f, b, SIR_OP_IADD, t3, x, y));
	f->values[e].aux = 1;
	s = op1(f, b, SIR_OP_EXTRACT, t, shuffle(f, b, t3, x, y, sel));
	r = op2(f, b, SIR_OP_IMUL, t, s, sir_const_u64(f, t, 3));
	ret(f, b, op2(f, b, SIR_OP_IADD, t, e, r));
	sir_optimize(f);
	CHECK(verify(f));
	CHECK_EQ(count_vector_op(f, SIR_OP_IADD), 0u);
	CHECK_EQ(count_op(f, SIR_OP_SHUFFLE), 0u);
	CHECK_EQ(count_op(f, SIR_OP_EXTRACT), 0u);
	/* Every uniform still read is one word. */
	uses = sir_use_counts(f);
	for (v = 1; v < f->num_values; v++) {
		const struct sir_instr *in = &f->values[v];

		if (in->op == SIR_OP_UNIFORM && in->type.comps > 1 && uses[v])
			uniforms++;
	}
	free(uses);
	CHECK_EQ(uniforms, 0u);
	memcpy(image, xv, sizeof(xv));
	memcpy(image + 16, yv, sizeof(yv));
	CHECK(run(f, image, out));
	CHECK_EQ((uint32_t)out[0], (uint32_t)(xv[1] + yv[1] + yv[2] * 3u));
	sir_module_destroy(mod);
}

TEST(splat_ops_done_once)
{
	/* (float4)(a) * 2 + w, the splat built as clang does. */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "splat");
	uint32_t b = sir_block_add(f);
	struct sir_type t = fty(32, 1), t4 = fty(32, 4);
	static const uint64_t zero[4] = { 0, 0, 0, 0 };
	sir_id a = uni(f, t, 0), w = uni(f, t4, 16), u, ins, sp, m;
	float av = 1.75f, wv[4] = { 1.0f, -3.5f, 1e-3f, 6e7f };
	uint8_t image[32] = { 0 };
	uint64_t out[16];
	unsigned int i;

	f->ret = t4;
	u = sir_value_new(f, SIR_OP_UNDEF, t4, NULL, 0);
	ins = op2(f, b, SIR_OP_INSERT, t4, u, a);
	sp = shuffle(f, b, t4, ins, u, zero);
	m = op2(f, b, SIR_OP_FMUL, t4, sp, sir_const_f64(f, t4, 2.0));
	ret(f, b, op2(f, b, SIR_OP_FADD, t4, m, w));
	sir_optimize(f);
	CHECK(verify(f));
	CHECK_EQ(count_op(f, SIR_OP_INSERT), 0u);
	CHECK_EQ(count_vector_op(f, SIR_OP_FMUL), 0u);
	CHECK_EQ(count_op(f, SIR_OP_FMUL), 1u);
	memcpy(image, &av, 4);
	memcpy(image + 16, wv, sizeof(wv));
	CHECK(run(f, image, out));
	for (i = 0; i < 4; i++) {
		float want = av * 2.0f + wv[i];
		uint32_t bits;

		memcpy(&bits, &want, 4);
		CHECK_EQ((uint32_t)out[i], bits);
	}
	sir_module_destroy(mod);
}

TEST(udiv_pow2_is_shift)
{
	/* x / 8 + x % 8 + x / (8, 4): only the mixed divisor stays a UDIV. */
	struct sir_module *mod = sir_module_create();
	struct sir_function *f = sir_function_create(mod, "udiv2");
	uint32_t b = sir_block_add(f);
	struct sir_type t2 = ity(32, 2);
	sir_id x = uni(f, t2, 0), eight = sir_const_u64(f, t2, 8), mixed, r;
	uint32_t xv[2] = { 0xfffffffdu, 1237 };
	uint8_t image[16] = { 0 };
	uint64_t out[16];

	f->ret = t2;
	mixed = sir_value_new(f, SIR_OP_CONST, t2, NULL, 0);
	f->values[mixed].imm.u64[0] = 8;
	f->values[mixed].imm.u64[1] = 4;
	r = op2(f, b, SIR_OP_IADD, t2, op2(f, b, SIR_OP_UDIV, t2, x, eight),
		op2(f, b, SIR_OP_UREM, t2, x, eight));
	r = op2(f, b, SIR_OP_IADD, t2, r,
		op2(f, b, SIR_OP_UDIV, t2, x, mixed));
	ret(f, b, r);
	sir_optimize(f);
	CHECK(verify(f));
	CHECK_EQ(count_op(f, SIR_OP_UDIV), 1u);
	CHECK_EQ(count_op(f, SIR_OP_UREM), 0u);
	memcpy(image, xv, sizeof(xv));
	CHECK(run(f, image, out));
	CHECK_EQ((uint32_t)out[0], xv[0] / 8 + xv[0] % 8 + xv[0] / 8);
	CHECK_EQ((uint32_t)out[1], xv[1] / 8 + xv[1] % 8 + xv[1] / 4);
	sir_module_destroy(mod);
}

TEST(unread_sysval_lanes_get_no_slots)
{
	/* get_global_offset(0) alone: one word, global_offset.x. */
	struct sir_module *mod = sir_module_create();
	struct sir_function *k = sir_function_create(mod, "goff");
	uint32_t b = sir_block_add(k);
	struct sir_type t = ity(32, 1), t3 = ity(32, 3);
	static struct slb_kernel meta;
	sir_id off, ptr, e;
	char err[256];

	k->is_kernel = true;
	k->ret = void_t;
	off = sir_value_new(k, SIR_OP_SYSVAL, t3, NULL, 0);
	k->values[off].aux = SIR_SYSVAL_GLOBAL_OFFSET;
	ptr = sir_value_new(k, SIR_OP_UNIFORM, sir_type_ptr(SIR_SPACE_GLOBAL),
			    NULL, 0);
	e = op1(k, b, SIR_OP_EXTRACT, t, off);
	op2(k, b, SIR_OP_STORE, void_t, ptr, e);
	ret(k, b, SIR_NONE);
	sir_optimize(k);
	CHECK(verify(k));
	memset(&meta, 0, sizeof(meta));
	CHECK(sir_lower_abi(mod, k, &meta, err, sizeof(err)));
	CHECK_EQ(meta.num_sysvals, 1u);
	CHECK_EQ(meta.sysvals[0].sysval, (uint32_t)SLB_SYSVAL_GLOBAL_OFFSET_X);
	sir_module_destroy(mod);
}

int main(void)
{
	RUN(fold_and_identities);
	RUN(fold_masks_and_inserts);
	RUN(fold_float_exact);
	RUN(insert_chains_become_vecs);
	RUN(fdot_folds_and_lowers);
	RUN(slp_packs_lanes);
	RUN(slp_keeps_what_it_cannot_pack);
	RUN(narrow_extracted_lanes);
	RUN(splat_ops_done_once);
	RUN(udiv_pow2_is_shift);
	RUN(unread_sysval_lanes_get_no_slots);
	RUN(cse_dce_copy_prop);
	RUN(mem2reg_loop);
	RUN(mem2reg_undef_phis_grow_values);
	RUN(simplify_cfg);
	RUN(simplify_cfg_keeps_loops);
	RUN(inline_calls);
	RUN(inline_recursion_rejected);
	RUN(lower_abi_layout);
	RUN(double_rejected);
	RUN(float_small_lowerings);
	RUN(half_arithmetic_rounded_once);
	RUN(wide_split);
	RUN(narrow_wide_split);
	RUN(packed_webs);
	RUN(div_vector);
	RUN(mulhi_random);
	RUN(div_8bit_exhaustive);
	RUN(div_16_32bit_random);
	RUN(div_32bit_rcp_variants);
	RUN(div_64bit_random);
	RUN(fdiv_within_2_5_ulp);
	RUN(fma_exact);
	return check_summary();
}
